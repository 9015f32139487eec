// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/timed-run.c - the timed runner's common part, shared by
 * `wpsim fio` (fio.c) and `wpsim replay` (replay.c): where the profiles
 * are, the device and CPU profiles, the --variant list, the world's
 * setup with the timed device, and the flusher task.
 *
 * Models nothing of the kernel itself: it builds the model's world
 * (m_world_setup, m_blkdev_attach_timed) and spawns the model's flusher
 * (m_wb_periodic_flusher, fs/fs-writeback.c wb_workfn).  Leaves out:
 * the front ends' own tasks and results.
 */
#include "tools/wpsim/timed-run.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/cost.h"
#include "model/fs/xfs.h"
#include "model/variant.h"
#include "sim/engine.h"
#include "tools/profiles.h"

#define EXIT_USAGE	2

const char *timed_run_profiles_dir(void)
{
	struct stat st;

	if (stat("profiles/devices", &st) == 0 && S_ISDIR(st.st_mode))
		return "profiles/devices";
	return WPSIM_SOURCE_DIR "/profiles/devices";
}

int timed_run_device(const char *name, struct hw_nvme_profile *profile)
{
	char err[512];

	if (wpsim_device_profile_find(timed_run_profiles_dir(), name ? name :
				 TIMED_RUN_DEVICE_DEFAULT, profile, err,
				 sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return EXIT_USAGE;
	}
	return 0;
}

int timed_run_cpu_profile(const char *name, struct m_cost_profile *costs)
{
	char path[1024];
	struct stat st;

	*costs = m_cost_default;
	if (!name)
		return 0;
	if (strchr(name, '/'))
		snprintf(path, sizeof(path), "%s", name);
	else if (stat("profiles/cpu", &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(path, sizeof(path), "profiles/cpu/%s.cpu", name);
	else
		snprintf(path, sizeof(path), WPSIM_SOURCE_DIR
			 "/profiles/cpu/%s.cpu", name);
	if (wpsim_cpu_profile_load(path, costs, stderr))
		return EXIT_USAGE;
	return 0;
}

static int variant_error(const char *cmd, const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: error: ", cmd);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

int timed_run_apply_variants(struct m_world_config *world,
			     const char *const *kv, unsigned int n,
			     const char *cmd, bool breaks_ok)
{
	char why[640];

	m_world_config_default(world);
	for (unsigned int v = 0; v < n; v++)
		if (m_variant_set(world, kv[v], why, sizeof(why)))
			return variant_error(cmd, "--variant: %s", why);
	if (world->breaks && !breaks_ok)
		return variant_error(cmd, "--variant break=...: %s",
				     "test-only model bugs are not for fio "
				     "runs");
	return 0;
}

void timed_run_setup(const struct m_world_config *world,
		     const struct hw_nvme_profile *profile, unsigned int cpus,
		     uint64_t seed)
{
	struct m_world_config with_device = *world;

	/* The driver's atomic write limits, before the files are opened. */
	with_device.dev_atomic = (struct m_nvme_atomic_id){
		.supported = !profile->no_atomic_writes,
		.nsfeat_atomics = profile->nsfeat_atomics,
		.awupf = profile->awupf,
		.nawupf = profile->nawupf,
		.nabspf = profile->nabspf,
		.nabo = profile->nabo,
	};
	with_device.dev_atomic_set = true;
	m_world_setup(&with_device);
	if (m_blkdev_attach_timed(&m_world()->dev, profile, cpus, seed))
		sim_fail(SIM_FAIL_BOUND, "the device profile '%s' does not "
			 "fit blk-mq's bounds", profile->name);
}

/*
 * The flusher (wb_workfn's periodic part): every dirty_writeback_interval
 * it looks at the dirty page count; once pages have been dirty for
 * dirty_expire_interval it writes back every file, WB_SYNC_NONE
 * (fs/fs-writeback.c wb_check_old_data_flush, v6.18).
 */
static void flusher_task(void *arg)
{
	m_wb_periodic_flusher(arg);
}

void timed_run_spawn_flusher(struct sim_word *alive)
{
	sim_task_spawn("flush-259:0", flusher_task, alive);
}

double timed_run_host_cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	       ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) /
	       1e6;
}

void timed_run_print_speed(const char *cmd, uint64_t virtual_ns,
			   uint64_t total_ns, uint64_t ops,
			   const char *ops_name, bool always)
{
	double cpu = timed_run_host_cpu_s();
	double virt = (double)virtual_ns / 1e9;

	if (!always && !isatty(2))
		return;
	if (cpu <= 0) {
		fprintf(stderr, "%s: simulation speed factor: not measured "
			"(no host CPU time reported)\n", cmd);
		return;
	}
	fprintf(stderr, "%s: simulation speed factor %.3g (%.3f virtual s in "
		"%.3f host CPU s; the run's whole virtual span %.3f s", cmd,
		virt / cpu, virt, cpu, (double)total_ns / 1e9);
	if (ops)
		fprintf(stderr, "; %.3g %s per host CPU s", (double)ops / cpu,
			ops_name);
	fputs(")\n", stderr);
}
