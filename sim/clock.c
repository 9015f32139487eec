// SPDX-License-Identifier: MIT
/*
 * sim/clock.c - virtual time: the simulated CPUs, the cost table and CPU
 * cost profiles.
 *
 * Models: nothing of the kernel's code.  It holds what a step costs on a
 * CPU (profiles/cpu/default.cpu, every figure with its source), how many
 * CPUs there are and when each is free; sim/engine.c keeps each task's
 * clock and asks here which CPU a step runs on.  The rules are in
 * include/sim/clock.h and docs/timed-mode.md.
 *
 * Leaves out: caches and their misses (a figure is an average), CPU
 * frequency, SMT, NUMA distance, migration costs, and the kernel's fair
 * scheduler beyond a slice during which a running task keeps its CPU
 * (no vruntime, no weights, no wake-up preemption).
 */
#include "sim/clock-internal.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Equal to profiles/cpu/default.cpu; tests/engine/test_clock.c checks. */
const struct sim_cpu_costs sim_cpu_costs_default = {
	.read_ns = 1,
	.write_ns = 1,
	.rmw_ns = 15,
	.add_ns = 15,
	.acquire_ns = 10,
	.contended_ns = 24,
	.release_ns = 5,
	.acquire_shared_ns = 15,
	.release_shared_ns = 15,
	.task_start_ns = 0,
	.resume_ns = 100,
	.block_ns = 400,
	.wake_ns = 400,
	.spawn_ns = 400,
	.switch_ns = 400,
	.irq_ns = 500,
	.sched_slice_ns = 700000,
	.syscall_ns = 205,
	.uring_req_ns = 600,
	.copy_hot_ns_per_4k = 72,
	.copy_dram_ns_per_4k = 836,
	.zero_ns_per_4k = 600,
	.folio_alloc_ns = 1800,
	.write_call_ns = 260,
	.folio_write_ns = 340,
	.wake_idle_ns = 6500,
	.bio_submit_ns = 150,
	.bio_complete_ns = 110,
	.ext4_dio_write_ns = 1050,
	.dio_submit_ns = 1070,
	.dio_complete_ns = 170,
	.writeback_call_ns = 190,
	.writeback_folio_ns = 1050,
	.writepage_map_ns = 810,
	.writeback_end_ns = 425,
	.folio_drop_ns = 770,
	.unwritten_convert_ns = 1750,
	.writeback_alloc_ns = 2950,
	.delalloc_reserve_ns = 910,
	.llc_bytes = 32ull << 20,
};

struct cost_field {
	const char *name;
	size_t offset;
};

#define FIELD(f) { #f, offsetof(struct sim_cpu_costs, f) }
static const struct cost_field fields[] = {
	FIELD(read_ns), FIELD(write_ns), FIELD(rmw_ns), FIELD(add_ns),
	FIELD(acquire_ns), FIELD(contended_ns), FIELD(release_ns),
	FIELD(acquire_shared_ns), FIELD(release_shared_ns),
	FIELD(task_start_ns), FIELD(resume_ns), FIELD(block_ns),
	FIELD(wake_ns), FIELD(spawn_ns), FIELD(switch_ns), FIELD(irq_ns),
	FIELD(sched_slice_ns), FIELD(syscall_ns), FIELD(uring_req_ns),
	FIELD(copy_hot_ns_per_4k),
	FIELD(copy_dram_ns_per_4k), FIELD(zero_ns_per_4k),
	FIELD(folio_alloc_ns), FIELD(write_call_ns), FIELD(folio_write_ns),
	FIELD(wake_idle_ns), FIELD(bio_submit_ns), FIELD(bio_complete_ns),
	FIELD(ext4_dio_write_ns), FIELD(dio_submit_ns), FIELD(dio_complete_ns),
	FIELD(writeback_call_ns), FIELD(writeback_folio_ns),
	FIELD(writepage_map_ns), FIELD(writeback_end_ns),
	FIELD(folio_drop_ns), FIELD(unwritten_convert_ns),
	FIELD(writeback_alloc_ns), FIELD(delalloc_reserve_ns),
	FIELD(llc_bytes),
};
#undef FIELD
#define FIELDS_COUNT (sizeof(fields) / sizeof(fields[0]))

_Static_assert(FIELDS_COUNT * sizeof(uint64_t) ==
	       sizeof(struct sim_cpu_costs),
	       "every field of struct sim_cpu_costs has a profile name");

/* A cost above this is a typo, not a CPU (1000 s). */
#define COST_NS_MAX	1000000000000ULL

static struct sim_clock_config config;
static bool config_set;

struct sim_clock_state sim_clock;

static uint64_t *field_of(struct sim_cpu_costs *c, const struct cost_field *f)
{
	return (uint64_t *)((char *)c + f->offset);
}

static void derive(void)
{
	const struct sim_cpu_costs *c = &config.costs;
	unsigned int cpus = config.cpus < 8 ? config.cpus : 8;
	unsigned int log = 0;

	while ((2u << log) <= cpus)
		log++;
	sim_clock.cpus = config.cpus;
	sim_clock.costs = *c;
	/* Kernel: kernel/sched/fair.c, get_update_sysctl_factor(), LOG. */
	sim_clock.slice_ns = c->sched_slice_ns * (1 + log);
	memset(sim_clock.access_ns, 0, sizeof(sim_clock.access_ns));
	sim_clock.access_ns[SIM_ACCESS_NONE] = c->resume_ns;
	sim_clock.access_ns[SIM_ACCESS_READ] = c->read_ns;
	sim_clock.access_ns[SIM_ACCESS_WRITE] = c->write_ns;
	sim_clock.access_ns[SIM_ACCESS_RMW] = c->rmw_ns;
	sim_clock.access_ns[SIM_ACCESS_ADD] = c->add_ns;
	sim_clock.access_ns[SIM_ACCESS_ACQUIRE] = c->acquire_ns;
	sim_clock.access_ns[SIM_ACCESS_ACQUIRE_FAIL] = c->contended_ns;
	sim_clock.access_ns[SIM_ACCESS_RELEASE] = c->release_ns;
	sim_clock.access_ns[SIM_ACCESS_BLOCK] = c->block_ns;
	sim_clock.access_ns[SIM_ACCESS_WAKE] = c->wake_ns;
	sim_clock.access_ns[SIM_ACCESS_SPAWN] = c->spawn_ns;
	sim_clock.access_ns[SIM_ACCESS_ACQUIRE_SHARED] = c->acquire_shared_ns;
	sim_clock.access_ns[SIM_ACCESS_RELEASE_SHARED] = c->release_shared_ns;
}

static void ensure_config(void)
{
	if (config_set)
		return;
	config.cpus = SIM_CPUS_DEFAULT;
	config.costs = sim_cpu_costs_default;
	config_set = true;
	derive();
}

int sim_clock_configure(const struct sim_clock_config *c)
{
	unsigned int cpus = c->cpus ? c->cpus : SIM_CPUS_DEFAULT;

	if (cpus > SIM_CPUS_MAX)
		return -EINVAL;
	config.cpus = cpus;
	config.costs = c->costs;
	config_set = true;
	derive();
	return 0;
}

const struct sim_clock_config *sim_clock_config(void)
{
	ensure_config();
	return &config;
}

uint64_t sim_clock_slice_ns(void)
{
	ensure_config();
	return sim_clock.slice_ns;
}

void sim_clock_reset(void)
{
	ensure_config();
	for (unsigned int i = 0; i < sim_clock.cpus; i++)
		sim_clock.cpu[i] = (struct sim_clock_cpu){ .owner = -1 };
	sim_clock.min_cpu = 0;
	sim_clock.end_ns = 0;
}

uint64_t sim_cpu_busy_ns(unsigned int cpu)
{
	return cpu < sim_clock.cpus ? sim_clock.cpu[cpu].busy_ns : 0;
}

uint64_t sim_exec_end_ns(void)
{
	return sim_clock.end_ns;
}

/* ---- Named work ---------------------------------------------------------- */

static uint64_t per_4k(uint64_t bytes, uint64_t ns_per_4k)
{
	/* Rounded to the nearest ns; exact for whole pages. */
	return (bytes * ns_per_4k + 2048) / 4096;
}

void sim_cpu_copy(uint64_t bytes)
{
	sim_cpu_spend(per_4k(bytes, sim_clock.costs.copy_hot_ns_per_4k));
}

void sim_cpu_copy_dram(uint64_t bytes)
{
	sim_cpu_spend(per_4k(bytes, sim_clock.costs.copy_dram_ns_per_4k));
}

void sim_cpu_copy_to_cache(uint64_t bytes, uint64_t cache_bytes)
{
	const struct sim_cpu_costs *c = &sim_clock.costs;
	unsigned __int128 hot, cold;

	if (!c->llc_bytes || cache_bytes <= c->llc_bytes) {
		sim_cpu_copy(bytes);
		return;
	}
	hot = (unsigned __int128)per_4k(bytes, c->copy_hot_ns_per_4k) *
	      c->llc_bytes;
	cold = (unsigned __int128)per_4k(bytes, c->copy_dram_ns_per_4k) *
	       (cache_bytes - c->llc_bytes);
	sim_cpu_spend((uint64_t)((hot + cold + cache_bytes / 2) /
				 cache_bytes));
}

void sim_cpu_zero(uint64_t bytes)
{
	sim_cpu_spend(per_4k(bytes, sim_clock.costs.zero_ns_per_4k));
}

void sim_cpu_syscall(void)
{
	sim_cpu_spend(sim_clock.costs.syscall_ns);
}

void sim_cpu_uring_req(void)
{
	sim_cpu_spend(sim_clock.costs.uring_req_ns);
}

void sim_cpu_folio_alloc(void)
{
	sim_cpu_spend(sim_clock.costs.folio_alloc_ns);
}

void sim_cpu_write_call(void)
{
	sim_cpu_spend(sim_clock.costs.write_call_ns);
}

void sim_cpu_folio_write(void)
{
	sim_cpu_spend(sim_clock.costs.folio_write_ns);
}

void sim_cpu_wake_idle(void)
{
	sim_cpu_spend(sim_clock.costs.wake_idle_ns);
}

void sim_cpu_bio_submit(void)
{
	sim_cpu_spend(sim_clock.costs.bio_submit_ns);
}

void sim_cpu_bio_complete(void)
{
	sim_cpu_spend(sim_clock.costs.bio_complete_ns);
}

void sim_cpu_ext4_dio_write(void)
{
	sim_cpu_spend(sim_clock.costs.ext4_dio_write_ns);
}

void sim_cpu_dio_submit(void)
{
	sim_cpu_spend(sim_clock.costs.dio_submit_ns);
}

void sim_cpu_dio_complete(void)
{
	sim_cpu_spend(sim_clock.costs.dio_complete_ns);
}

void sim_cpu_writeback_call(void)
{
	sim_cpu_spend(sim_clock.costs.writeback_call_ns);
}

void sim_cpu_writeback_folio(void)
{
	sim_cpu_spend(sim_clock.costs.writeback_folio_ns);
}

void sim_cpu_writepage_map(void)
{
	sim_cpu_spend(sim_clock.costs.writepage_map_ns);
}

void sim_cpu_writeback_end(void)
{
	sim_cpu_spend(sim_clock.costs.writeback_end_ns);
}

void sim_cpu_folio_drop(void)
{
	sim_cpu_spend(sim_clock.costs.folio_drop_ns);
}

void sim_cpu_unwritten_convert(void)
{
	sim_cpu_spend(sim_clock.costs.unwritten_convert_ns);
}

void sim_cpu_writeback_alloc(void)
{
	sim_cpu_spend(sim_clock.costs.writeback_alloc_ns);
}

void sim_cpu_delalloc_reserve(void)
{
	sim_cpu_spend(sim_clock.costs.delalloc_reserve_ns);
}

/* ---- Profiles ------------------------------------------------------------ */

static void perr(FILE *err, const char *name, unsigned int line,
		 const char *start, const char *at, const char *expected,
		 const char *found_fmt, const char *found, size_t found_len)
{
	if (!err)
		return;
	fprintf(err, "%s:%u:%u: error: expected %s, found ", name, line,
		(unsigned int)(at - start) + 1, expected);
	fprintf(err, found_fmt, (int)found_len, found);
	fputc('\n', err);
}

static size_t token_len(const char *p)
{
	size_t n = 0;

	while (p[n] && p[n] != '\n' && !isspace((unsigned char)p[n]) &&
	       p[n] != '#' && p[n] != '=')
		n++;
	return n ? n : (p[0] && p[0] != '\n' ? 1 : 0);
}

static void found_token(FILE *err, const char *name, unsigned int line,
			const char *start, const char *at,
			const char *expected)
{
	size_t n = token_len(at);

	if (n == 0)
		perr(err, name, line, start, at, expected, "%.*send of line",
		     "", 0);
	else
		perr(err, name, line, start, at, expected, "'%.*s'", at, n);
}

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

int sim_cpu_profile_parse(const char *name, const char *text,
			  struct sim_cpu_costs *costs, FILE *err)
{
	bool seen[FIELDS_COUNT] = { false };
	struct sim_cpu_costs out = *costs;
	const char *p = text;
	unsigned int line = 0;
	int rc = 0;

	while (*p) {
		const char *start = p, *q, *key;
		const struct cost_field *f = NULL;
		size_t klen, i;
		uint64_t value = 0;

		line++;
		q = skip_blanks(p);
		p = strchr(p, '\n');
		p = p ? p + 1 : start + strlen(start);
		if (*q == '\n' || *q == '#' || *q == '\0')
			continue;
		key = q;
		while (*q == '_' || isalnum((unsigned char)*q))
			q++;
		klen = (size_t)(q - key);
		for (i = 0; klen && i < FIELDS_COUNT; i++)
			if (strlen(fields[i].name) == klen &&
			    strncmp(fields[i].name, key, klen) == 0)
				f = &fields[i];
		if (!f) {
			found_token(err, name, line, start, key,
				    "a cost name (see profiles/cpu/"
				    "default.cpu)");
			rc = -EINVAL;
			continue;
		}
		if (seen[f - fields]) {
			perr(err, name, line, start, key, "each cost once",
			     "'%.*s' again", key, klen);
			rc = -EINVAL;
			continue;
		}
		seen[f - fields] = true;
		q = skip_blanks(q);
		if (*q != '=') {
			found_token(err, name, line, start, q, "'='");
			rc = -EINVAL;
			continue;
		}
		q = skip_blanks(q + 1);
		if (!isdigit((unsigned char)*q)) {
			found_token(err, name, line, start, q,
				    "a whole number of ns");
			rc = -EINVAL;
			continue;
		}
		{
			const char *digits = q;

			while (isdigit((unsigned char)*q)) {
				if (value <= COST_NS_MAX)
					value = value * 10 +
						(uint64_t)(*q - '0');
				q++;
			}
			if (value > COST_NS_MAX) {
				perr(err, name, line, start, digits,
				     "at most 1000000000000 ns", "'%.*s'",
				     digits, (size_t)(q - digits));
				rc = -EINVAL;
				continue;
			}
		}
		q = skip_blanks(q);
		if (*q != '\n' && *q != '#' && *q != '\0') {
			found_token(err, name, line, start, q,
				    "end of line or a '#' comment");
			rc = -EINVAL;
			continue;
		}
		*field_of(&out, f) = value;
	}
	if (rc == 0)
		*costs = out;
	return rc;
}

int sim_cpu_profile_load(const char *path, struct sim_cpu_costs *costs,
			 FILE *err)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, cap = 0;
	int rc;

	if (!f) {
		rc = -errno;
		if (err)
			fprintf(err, "%s: error: %s\n", path, strerror(errno));
		return rc;
	}
	for (;;) {
		size_t n;

		if (len + 4096 + 1 > cap) {
			char *more;

			cap = cap ? 2 * cap : 8192;
			more = realloc(text, cap);
			if (!more) {
				free(text);
				fclose(f);
				return -ENOMEM;
			}
			text = more;
		}
		n = fread(text + len, 1, 4096, f);
		len += n;
		if (n < 4096)
			break;
	}
	fclose(f);
	text[len] = '\0';
	if (strlen(text) != len) {
		if (err)
			fprintf(err, "%s:1:1: error: expected text, found a "
				"NUL byte\n", path);
		free(text);
		return -EINVAL;
	}
	rc = sim_cpu_profile_parse(path, text, costs, err);
	free(text);
	return rc;
}

void sim_cpu_profile_write(FILE *out, const struct sim_cpu_costs *costs)
{
	for (size_t i = 0; i < FIELDS_COUNT; i++)
		fprintf(out, "%s = %llu\n", fields[i].name,
			(unsigned long long)*field_of(
				(struct sim_cpu_costs *)costs, &fields[i]));
}
