// SPDX-License-Identifier: MIT
/*
 * tools/dontcache-reads-per-write.c - 4 KiB device reads per RWF_DONTCACHE
 * write of packed records, in the model, per --variant dontcache=…
 *
 * Seed 003 (Mike Snitzer, v12 0/7) measures reads per write for records
 * of 47008 and 6000 bytes (4 KiB pages): 0.97-0.99 before 5/7, ~0.0005
 * after.  tools/dontcache-probe.c measured Linux 6.18 (ext4):
 * traces/real-kernel/dontcache-6.18.txt.  This program prints the model's
 * numbers, one line per (variant, record size, mode):
 *
 *   wait    one writer, records back to back, RWF_DONTCACHE, each followed
 *           by sync_file_range(WAIT_BEFORE | WRITE | WAIT_AFTER), as the
 *           probe does; one execution with the default schedule (no
 *           preemption; the bio completions run when the writer waits), so
 *           each record's writeback, and the drop at its end, completes
 *           before the next write.  RECORDS records (2000, as the probe),
 *           in batches that fit the model's file (M_FILE_PAGES_DEFAULT = 64
 *           pages, M_FOLIOS_MIN = 128 folios per execution): a batch
 *           starts at record i with the file as record i-1 left it: i_size
 *           = the offset of record i in its page, that page's block
 *           written on disk, not cached (dropped by its writeback).
 *   random  WRITERS writers of consecutive records (writer w writes
 *           records w, w + WRITERS, ...; as many records as fit in one
 *           file from offset 0), plain RWF_DONTCACHE (the post-write
 *           kick), under random schedules (sim_strategy_random, seed
 *           SEED, RANDOM_EXECUTIONS executions); the mean.
 *
 * Built; the test suite runs only its usage (--help, bad arguments).
 * Usage: dontcache-reads-per-write [records] [random-executions].
 * Output columns:
 *   variant record_bytes mode writes reads reads_per_write
 * Not a latency model: the seed's MiB/s column is not reproduced.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fs/xfs.h"
#include "model/linux/pagemap.h"
#include "model/world.h"
#include "model/linux/syscalls.h"
#include "sim/explore.h"

#define RECORDS_DEFAULT		2000
#define RANDOM_EXECUTIONS	200
#define WRITERS			4
#define SEED			0x5eed003ULL
#define FILE_BYTES		((loff_t)M_FILE_PAGES_DEFAULT * PAGE_SIZE)
#define STEPS_MAX		SIM_STEPS_LIMIT

struct run {
	struct m_world_config config;
	size_t record;		/* bytes */
	long first, count;	/* records in this execution */
	loff_t base;		/* file offset of record 0 */
	int writers;
	bool wait;
	/*
	 * The page where the batch's first record starts, as the previous
	 * batch left it: still cached (5/7 kept it), with the bytes
	 * DONTCACHE writes covered.
	 */
	bool carry_cached;
	uint64_t carry_written;
	bool carry_in;		/* this batch starts with that page cached */
	/* results */
	uint64_t reads;
	bool failed;
	char why[SIM_MESSAGE_BYTES + 64];
};

static struct run *cur;

static loff_t record_pos(long i)
{
	return (loff_t)i * (loff_t)cur->record - cur->base;
}

static void writer(void *arg)
{
	long w = (long)(intptr_t)arg;
	struct km_file *f = m_world()->files[0];

	for (long i = cur->first + w; i < cur->first + cur->count;
	     i += cur->writers) {
		loff_t pos = record_pos(i);
		long ret = m_pwritev2(f, pos, cur->record, RWF_DONTCACHE,
				      (uint32_t)(i + 1), 0);

		SIM_ASSERT_EQ(ret, (long)cur->record);
		if (cur->wait)
			SIM_ASSERT_EQ(km_sync_file_range(f, pos,
					(loff_t)cur->record,
					KM_SYNC_FILE_RANGE_WAIT_BEFORE |
					KM_SYNC_FILE_RANGE_WRITE |
					KM_SYNC_FILE_RANGE_WAIT_AFTER), 0);
	}
}

static void setup(void *config)
{
	static const char *const names[] = { "P0", "P1", "P2", "P3" };

	(void)config;
	m_world_setup(&cur->config);
	if (cur->carry_in) {
		struct km_folio *folio = m_world()->folios[1];

		/* Setup context: plain store, as the world's setup does. */
		folio->dontcache_written.value = cur->carry_written;
	}
	for (int w = 0; w < cur->writers; w++)
		sim_task_spawn(names[w], writer, (void *)(intptr_t)w);
}

static void final(void *config)
{
	char why[256];

	(void)config;
	struct km_address_space *mapping = &m_world()->inodes[0]->i_data;
	loff_t end = record_pos(cur->first + cur->count);
	struct km_folio *folio = m_folio_by_id((uint32_t)sim_word_peek(
				&m_xa_slot(mapping, end >> PAGE_SHIFT)->entry));

	cur->reads = sim_word_peek(&m_world()->dev.reads);
	/* Carry the next record's first page to the next batch. */
	cur->carry_cached = folio && (end & (loff_t)(PAGE_SIZE - 1));
	cur->carry_written = folio ? sim_word_peek(&folio->dontcache_written)
				   : 0;
	if (folio && m_folio_flag_peek(folio, PG_dirty))
		sim_fail(SIM_FAIL_PROPERTY, "page %lld dirty after the sync",
			 (long long)(end >> PAGE_SHIFT));
	if (!m_world_quiescent_check(why, sizeof(why)))
		sim_fail(SIM_FAIL_INVARIANT, "%s", why);
}

/* Set up the file for records [first, first + count). */
static void prepare(struct run *r, enum m_dontcache_variant v, long first,
		    long count)
{
	static char layout[M_FILE_PAGES_DEFAULT + 1];
	loff_t start = (loff_t)first * (loff_t)r->record;

	m_world_config_default(&r->config);
	r->config.dontcache = v;
	r->first = first;
	r->count = count;
	r->base = start & ~(loff_t)(PAGE_SIZE - 1);
	r->config.files[0].blkbits = 12;
	r->config.files[0].nosec = true;
	/* As record first - 1 left the file: its last page on disk. */
	r->config.files[0].size = start - r->base;
	memset(layout, 'H', M_FILE_PAGES_DEFAULT);
	layout[M_FILE_PAGES_DEFAULT] = '\0';
	if (start != r->base)
		layout[0] = 'W';
	r->config.files[0].layout = layout;
	if (r->carry_cached && start != r->base) {
		/* Kept by 5/7: cached, clean, uptodate (folio 1). */
		r->config.files[0].cached_first = 0;
		r->config.files[0].cached_last = 0;
		r->carry_in = true;
	} else {
		r->carry_in = false;
	}
}

/*
 * How many records starting at @first fit in one execution: in the file
 * (M_FILE_PAGES_DEFAULT pages), and in the engine's SIM_TASKS_MAX tasks and
 * events (every bio is an event: one per folio written back, one per
 * page read; budget each record its pages + 1 for a read-back + 1 for a
 * second writeback of a redirtied folio).
 */
static long fit(size_t record, long first, int writers)
{
	loff_t start = (loff_t)first * (loff_t)record;
	loff_t off = start & (loff_t)(PAGE_SIZE - 1);
	long in_file = (long)((FILE_BYTES - off) / (loff_t)record);
	long per_record = (long)(record / PAGE_SIZE) + 3;
	long in_events = (SIM_TASKS_MAX - writers - 2) / per_record;

	return in_file < in_events ? in_file : in_events;
}

static int run_one(struct run *r, struct sim_strategy *s)
{
	struct sim_program p = {
		.name = "dontcache-reads-per-write",
		.setup = setup,
		.final = final,
		.config = r,
	};
	struct sim_exec_options exec = { .steps_max = STEPS_MAX };
	struct sim_outcome o;

	cur = r;
	r->reads = 0;
	sim_exec_run(&p, s, &exec, &o);
	if (o.kind != SIM_OK) {
		snprintf(r->why, sizeof(r->why), "%s: %s",
			 sim_failure_kind_name(o.kind), o.message);
		r->failed = true;
		return -1;
	}
	return 0;
}

static const char *const variant_names[] = { "v6_18", "v7_3", "v11", "v12" };

static int mode_wait(enum m_dontcache_variant v, size_t record, long records)
{
	struct run r = { .record = record, .writers = 1, .wait = true };
	uint64_t reads = 0;

	for (long i = 0; i < records;) {
		long n = fit(record, i, 1);
		struct sim_strategy s;

		if (n > records - i)
			n = records - i;
		prepare(&r, v, i, n);
		sim_strategy_replay(&s, NULL, 0);
		if (run_one(&r, &s)) {
			sim_strategy_fini(&s);
			fprintf(stderr, "%s %zu wait, records %ld..: %s\n",
				variant_names[v], record, i, r.why);
			return -1;
		}
		sim_strategy_fini(&s);
		reads += r.reads;
		i += n;
	}
	printf("%-5s %8zu wait   %6ld %6llu %8.4f\n", variant_names[v], record,
	       records, (unsigned long long)reads,
	       (double)reads / (double)records);
	return 0;
}

static uint64_t random_reads;
static uint64_t random_executions;

static void random_collect(void *ctx, const struct sim_outcome *o)
{
	(void)ctx;
	if (o->kind == SIM_OK) {
		random_reads += cur->reads;
		random_executions++;
	}
}

static int mode_random(enum m_dontcache_variant v, size_t record,
		       long executions)
{
	static struct run r;
	long n;
	struct sim_program p = {
		.name = "dontcache-reads-per-write",
		.setup = setup,
		.final = final,
		.config = &r,
	};
	struct sim_explore_options opt = {
		.exec = { .steps_max = STEPS_MAX },
		.stop_on_failure = true,
		.executions_max = (uint64_t)executions,
		.on_execution = random_collect,
	};
	struct sim_explore_result res;
	struct sim_strategy s;

	memset(&r, 0, sizeof(r));
	r.record = record;
	r.writers = WRITERS;
	n = fit(record, 0, WRITERS);
	prepare(&r, v, 0, n);
	cur = &r;
	random_reads = 0;
	random_executions = 0;
	sim_strategy_random(&s, SEED, (uint64_t)executions);
	sim_explore(&p, &s, &opt, &res);
	sim_strategy_fini(&s);
	if (res.failures) {
		fprintf(stderr, "%s %zu random: %s (schedule %s)\n",
			variant_names[v], record, res.first.outcome.message,
			res.first.schedule ? res.first.schedule : "?");
		sim_explore_result_fini(&res);
		return -1;
	}
	sim_explore_result_fini(&res);
	printf("%-5s %8zu random %6llu %6llu %8.4f   (%d writers, %ld records "
	       "x %llu executions)\n", variant_names[v], record,
	       (unsigned long long)(n * (long)random_executions),
	       (unsigned long long)random_reads,
	       (double)random_reads / (double)(n * (long)random_executions),
	       WRITERS, n, (unsigned long long)random_executions);
	return 0;
}

static void usage(FILE *out)
{
	fprintf(out,
"usage: dontcache-reads-per-write [RECORDS [RANDOM_EXECUTIONS]]\n"
"\n"
"Device reads per RWF_DONTCACHE write of packed records in the model, per\n"
"dontcache variant, record size (47008, 6000, 4096 bytes) and mode (wait:\n"
"RECORDS records back to back, each followed by sync_file_range, default\n"
"%d; random: %d writers under RANDOM_EXECUTIONS random schedules, default\n"
"%d).  Columns: variant record_bytes mode writes reads reads_per_write.\n"
"Exit: 0 done, 1 a model failure, 2 bad usage.\n",
		RECORDS_DEFAULT, WRITERS, RANDOM_EXECUTIONS);
}

/* A positive count argument; -1 (after a message) if it is not one. */
static long count_arg(const char *what, const char *text, long max)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(text, &end, 10);
	if (errno || *end || end == text || n < 1 || n > max) {
		fprintf(stderr, "dontcache-reads-per-write: %s: expected an "
			"integer in 1..%ld, found '%s'\n", what, max, text);
		return -1;
	}
	return n;
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 47008, 6000, 4096 };
	long records = RECORDS_DEFAULT;
	long executions = RANDOM_EXECUTIONS;
	int rc = 0;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 ||
			 strcmp(argv[1], "-h") == 0)) {
		usage(stdout);
		return 0;
	}
	if (argc > 3) {
		fprintf(stderr, "dontcache-reads-per-write: expected at most "
			"2 arguments, found %d\n", argc - 1);
		usage(stderr);
		return 2;
	}
	if (argc > 1 && (records = count_arg("RECORDS", argv[1],
					     1000000)) < 0)
		return 2;
	if (argc > 2 && (executions = count_arg("RANDOM_EXECUTIONS",
						argv[2], 1000000)) < 0)
		return 2;

	printf("# model: reads per RWF_DONTCACHE write, 4 KiB pages and "
	       "blocks, XFS model\n");
	printf("# variant record_bytes mode writes reads reads_per_write\n");
	for (int v = M_DC_6_18; v <= M_DC_V12; v++)
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			rc |= mode_wait((enum m_dontcache_variant)v, sizes[i],
					records);
			rc |= mode_random((enum m_dontcache_variant)v,
					  sizes[i], executions);
		}
	return rc ? 1 : 0;
}
