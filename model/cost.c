// SPDX-License-Identifier: MIT
/*
 * model/cost.c - what the kernel work the model names costs, and the CPU
 * profile that sets it.
 *
 * Models nothing of the kernel's code: it is the model's side of timed
 * mode (docs/timed-mode.md).  The engine charges the machine's work
 * (steps by their access, scheduling, copies: struct sim_cpu_costs) and
 * knows no kernel operation; the model charges its named work (a
 * syscall, a bio submission, a folio written back, ...) through
 * sim_cpu_spend with the figures of its table, where the kernel does the
 * work.  A CPU profile (profiles/cpu/NAME.cpu) names figures of both
 * tables; its parser is here, the file reading is the front end's
 * (tools/profiles.c).
 *
 * Leaves out: reading files (tools/profiles.c does), costs that depend
 * on the data (every figure is an average).
 */
#include "model/cost.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/*
 * The model's default costs, written once: equal to
 * profiles/cpu/default.cpu (tests/model/test_cost.c checks).
 */
#define M_COST_TABLE_DEFAULT_INIT {					\
	.syscall_ns = 205,						\
	.uring_req_ns = 600,						\
	.folio_alloc_ns = 1800,						\
	.write_call_ns = 260,						\
	.folio_write_ns = 340,						\
	.bio_submit_ns = 150,						\
	.bio_complete_ns = 110,						\
	.ext4_dio_write_ns = 1050,					\
	.dio_submit_ns = 1070,						\
	.dio_complete_ns = 170,						\
	.writeback_call_ns = 190,					\
	.writeback_folio_ns = 1050,					\
	.writepage_map_ns = 810,					\
	.writeback_end_ns = 425,					\
	.folio_drop_ns = 770,						\
	.unwritten_convert_ns = 1750,					\
	.unwritten_extend_ns = 1750,					\
	.ext4_map_handle_ns = 1750,					\
	.writeback_alloc_ns = 2950,					\
	.delalloc_reserve_ns = 910,					\
	.copy_fresh_ns_per_4k = 0,					\
	.fio_io_ns = 0,							\
	.log_write_ns = 0,						\
	.log_convert_bytes = 0,						\
}

const struct m_cost_profile m_cost_default = {
	.clock = SIM_CPU_COSTS_DEFAULT_INIT,
	.model = M_COST_TABLE_DEFAULT_INIT,
};

/* The table in force (process-wide, as the engine's clock config). */
static struct m_cost_table current = M_COST_TABLE_DEFAULT_INIT;

void m_cost_configure(const struct m_cost_table *table)
{
	current = *table;
}

const struct m_cost_table *m_cost_config(void)
{
	return &current;
}

void m_cost_syscall(void)
{
	sim_cpu_spend(current.syscall_ns);
}

void m_cost_uring_req(void)
{
	sim_cpu_spend(current.uring_req_ns);
}

void m_cost_folio_alloc(void)
{
	sim_cpu_spend(current.folio_alloc_ns);
}

void m_cost_write_call(void)
{
	sim_cpu_spend(current.write_call_ns);
}

void m_cost_folio_write(void)
{
	sim_cpu_spend(current.folio_write_ns);
}

void m_cost_bio_submit(void)
{
	sim_cpu_spend(current.bio_submit_ns);
}

void m_cost_bio_complete(void)
{
	sim_cpu_spend(current.bio_complete_ns);
}

void m_cost_ext4_dio_write(void)
{
	sim_cpu_spend(current.ext4_dio_write_ns);
}

void m_cost_dio_submit(void)
{
	sim_cpu_spend(current.dio_submit_ns);
}

void m_cost_dio_complete(void)
{
	sim_cpu_spend(current.dio_complete_ns);
}

void m_cost_writeback_call(void)
{
	sim_cpu_spend(current.writeback_call_ns);
}

void m_cost_writeback_folio(void)
{
	sim_cpu_spend(current.writeback_folio_ns);
}

void m_cost_writepage_map(void)
{
	sim_cpu_spend(current.writepage_map_ns);
}

void m_cost_writeback_end(void)
{
	sim_cpu_spend(current.writeback_end_ns);
}

void m_cost_folio_drop(void)
{
	sim_cpu_spend(current.folio_drop_ns);
}

void m_cost_unwritten_convert(void)
{
	sim_cpu_spend(current.unwritten_convert_ns);
}

void m_cost_unwritten_extend(void)
{
	sim_cpu_spend(current.unwritten_extend_ns);
}

void m_cost_ext4_map_handle(void)
{
	sim_cpu_spend(current.ext4_map_handle_ns);
}

void m_cost_writeback_alloc(void)
{
	sim_cpu_spend(current.writeback_alloc_ns);
}

void m_cost_delalloc_reserve(void)
{
	sim_cpu_spend(current.delalloc_reserve_ns);
}

void m_cost_copy_fresh(uint64_t bytes)
{
	/* Rounded to the nearest ns, as the engine's per-4 KiB charges. */
	sim_cpu_spend((bytes * current.copy_fresh_ns_per_4k + 2048) / 4096);
}

void m_cost_log_write(void)
{
	/* A wait, not CPU: the device and the work-queue hand-offs; a
	 * zero figure adds no step (every profile without it schedules as
	 * before). */
	if (current.log_write_ns)
		sim_sleep_ns(current.log_write_ns);
}

uint64_t m_cost_log_convert_bytes(void)
{
	return current.log_convert_bytes;
}

/* ---- Profiles ------------------------------------------------------------ */

struct cost_field {
	const char *name;
	bool model;		/* in .model, else in .clock */
	size_t offset;
};

#define CLOCK(f) { #f, false, offsetof(struct sim_cpu_costs, f) }
#define MODEL(f) { #f, true, offsetof(struct m_cost_table, f) }
/* In profiles/cpu/default.cpu's order (m_cost_profile_write keeps it). */
static const struct cost_field fields[] = {
	CLOCK(read_ns),
	CLOCK(write_ns),
	CLOCK(rmw_ns),
	CLOCK(add_ns),
	CLOCK(acquire_ns),
	CLOCK(contended_ns),
	CLOCK(release_ns),
	CLOCK(acquire_shared_ns),
	CLOCK(release_shared_ns),
	CLOCK(task_start_ns),
	CLOCK(resume_ns),
	CLOCK(block_ns),
	CLOCK(wake_ns),
	CLOCK(spawn_ns),
	CLOCK(switch_ns),
	CLOCK(irq_ns),
	CLOCK(sched_slice_ns),
	CLOCK(wake_preempt_ns),
	CLOCK(wake_preempt_mode),
	MODEL(syscall_ns),
	MODEL(uring_req_ns),
	CLOCK(copy_hot_ns_per_4k),
	CLOCK(copy_dram_ns_per_4k),
	CLOCK(zero_ns_per_4k),
	MODEL(folio_alloc_ns),
	MODEL(write_call_ns),
	MODEL(folio_write_ns),
	CLOCK(wake_idle_ns),
	MODEL(bio_submit_ns),
	MODEL(bio_complete_ns),
	MODEL(ext4_dio_write_ns),
	MODEL(dio_submit_ns),
	MODEL(dio_complete_ns),
	MODEL(writeback_call_ns),
	MODEL(writeback_folio_ns),
	MODEL(writepage_map_ns),
	MODEL(writeback_end_ns),
	MODEL(folio_drop_ns),
	MODEL(unwritten_convert_ns),
	MODEL(unwritten_extend_ns),
	MODEL(ext4_map_handle_ns),
	MODEL(writeback_alloc_ns),
	MODEL(delalloc_reserve_ns),
	CLOCK(llc_bytes),
	MODEL(copy_fresh_ns_per_4k),
	MODEL(fio_io_ns),
	MODEL(log_write_ns),
	MODEL(log_convert_bytes),
};
#undef CLOCK
#undef MODEL
#define FIELDS_COUNT (sizeof(fields) / sizeof(fields[0]))

_Static_assert(FIELDS_COUNT * sizeof(uint64_t) ==
	       sizeof(struct sim_cpu_costs) + sizeof(struct m_cost_table),
	       "every cost field has a profile name");

/* A cost above this is a typo, not a CPU (1000 s). */
#define COST_NS_MAX	1000000000000ULL

static uint64_t *field_of(struct m_cost_profile *p, const struct cost_field *f)
{
	return (uint64_t *)((f->model ? (char *)&p->model :
			     (char *)&p->clock) + f->offset);
}

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

int m_cost_profile_parse(const char *name, const char *text,
			 struct m_cost_profile *profile, FILE *err)
{
	bool seen[FIELDS_COUNT] = { false };
	struct m_cost_profile out = *profile;
	const char *p = text;
	unsigned int line = 0;
	int rc = 0;

	while (*p) {
		const char *start = p, *q, *key, *value_at;
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
		value_at = q;
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
		/* A mode, not a time (sim/timed.c). */
		if (!f->model && f->offset == offsetof(struct sim_cpu_costs,
						       wake_preempt_mode) &&
		    value > SIM_WAKE_PREEMPT_NONE) {
			perr(err, name, line, start, value_at,
			     "0 (full: at the next point) or 1 (none: at a "
			     "marked point)", "'%.*s'", value_at,
			     token_len(value_at));
			rc = -EINVAL;
			continue;
		}
		*field_of(&out, f) = value;
	}
	if (rc == 0)
		*profile = out;
	return rc;
}

void m_cost_profile_write(FILE *out, const struct m_cost_profile *profile)
{
	for (size_t i = 0; i < FIELDS_COUNT; i++)
		fprintf(out, "%s = %llu\n", fields[i].name,
			(unsigned long long)*field_of(
				(struct m_cost_profile *)profile, &fields[i]));
}
