/* SPDX-License-Identifier: MIT */
/*
 * tools/wpsim/timed-run.h - what `wpsim fio` and `wpsim replay` share to
 * run the model in virtual time: the profiles (devices, CPU costs), the
 * --variant list, the world with its timed device, and the flusher task.
 */
#ifndef WPSIM_TOOLS_WPSIM_TIMED_RUN_H
#define WPSIM_TOOLS_WPSIM_TIMED_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "model/cost.h"
#include "model/hw/nvme.h"
#include "model/world.h"
#include "sim/clock.h"
#include "sim/shared.h"

#define TIMED_RUN_DEVICE_DEFAULT	"enterprise-plp"
#define TIMED_RUN_CPUS_DEFAULT		8

/* profiles/devices here, or the installed copy. */
const char *timed_run_profiles_dir(void);

/*
 * The device profile @name (NULL: the default) into @profile.  Return 0,
 * or 2 (exit code) with the error on stderr.
 */
int timed_run_device(const char *name, struct hw_nvme_profile *profile);

/*
 * --cpu-profile @name (NULL: the compiled-in defaults): profiles/cpu/
 * NAME.cpu or a path with a '/', over the defaults, into @costs.  Return
 * 0, or 2 with the error on stderr.
 */
int timed_run_cpu_profile(const char *name, struct m_cost_profile *costs);

/*
 * @world := the model's defaults with each KEY=VALUE of @kv[0..n)
 * applied; break= values are refused unless @breaks_ok.  @cmd names the
 * command in errors ("wpsim fio").  Return 0, or 2 with the error on
 * stderr.
 */
int timed_run_apply_variants(struct m_world_config *world,
			     const char *const *kv, unsigned int n,
			     const char *cmd, bool breaks_ok);

/*
 * In a program's setup: the world of @world, the timed device of
 * @profile on @cpus CPUs with the jitter seed @seed.
 */
void timed_run_setup(const struct m_world_config *world,
		     const struct hw_nvme_profile *profile, unsigned int cpus,
		     uint64_t seed);

/*
 * Spawn the flusher ("flush-259:0"): the periodic writeback of
 * m_wb_periodic_flusher, until *@alive reads 0.
 */
void timed_run_spawn_flusher(struct sim_word *alive);

/*
 * The simulation speed factor: virtual seconds of the workload
 * (@virtual_ns: the jobs' or the trace's end) per host CPU second (user
 * + system of this process, since it started).  Printed on stderr by
 * @cmd ("wpsim fio") at the end of a run when @always (--speed) or
 * stderr is a terminal: it depends on the host, so a run's redirected
 * output stays the same bytes every time.  Also the execution's whole
 * virtual span @total_ns (writeback after the jobs included) and, when
 * @ops is not 0, @ops per host CPU second.
 */
double timed_run_host_cpu_s(void);
void timed_run_print_speed(const char *cmd, uint64_t virtual_ns,
			   uint64_t total_ns, uint64_t ops,
			   const char *ops_name, bool always);

#endif /* WPSIM_TOOLS_WPSIM_TIMED_RUN_H */
