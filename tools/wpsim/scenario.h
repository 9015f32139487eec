/* SPDX-License-Identifier: MIT */
/*
 * tools/wpsim/scenario.h - scenario files as engine programs.
 *
 * A scenario (docs/scenario-language.md) is parsed by tools/litmus against
 * the model's schema (schema.c: ops, initial-state kinds, variants,
 * reference paths), checked for what only the model knows (file names,
 * flag names, sizes), and turned into a struct sim_program: setup builds
 * the world (m_world_setup) and spawns one task per thread; each task
 * calls the model's entry points in order and keeps return values in its
 * registers; the final step runs the model's quiescent check.  Conditions
 * are evaluated on the state an execution leaves (scenario.c), the
 * exploration and its report live in check.c, replay with --explain and
 * --perfetto in trace.c.
 */
#ifndef WPSIM_TOOLS_WPSIM_SCENARIO_H
#define WPSIM_TOOLS_WPSIM_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/fs/ext4.h"
#include "model/io_uring/rw.h"
#include "model/world.h"
#include "sim/explore.h"
#include "tools/litmus/litmus.h"
#include "tools/wpsim/signals.h"

#define EXIT_CLEAN	0
#define EXIT_FOUND	1
#define EXIT_USAGE	2
/* The search did not cover its space and nothing decided the question
 * (capped, bounded, sampled or stopped by a signal): not decided. */
#define EXIT_INCOMPLETE	3

/* The exit code that says more of two: usage > found > incomplete > 0. */
int wpsim_exit_worse(int a, int b);

/*
 * SIGINT and SIGTERM end the search after the execution in progress: the
 * report says "stopped by SIGINT" and the pair is not decided
 * (tools/wpsim/signals.h: wpsim_stop_install, wpsim_stop_signal).
 */

/* ---- schema.c: what the model accepts -------------------------------- */

enum wpsim_op {
	WPSIM_OP_PWRITE,
	WPSIM_OP_PWRITEV2,
	WPSIM_OP_PREAD,
	WPSIM_OP_FSYNC,
	WPSIM_OP_FDATASYNC,
	WPSIM_OP_SYNC_FILE_RANGE,
	WPSIM_OP_MMAP_STORE,
	WPSIM_OP_MUNMAP,
	WPSIM_OP_WRITEBACK,
	WPSIM_OP_TRUNCATE,
	WPSIM_OP_FALLOCATE,
	WPSIM_OP_PUNCH_HOLE,
	WPSIM_OP_IO_URING_WRITE,
	WPSIM_OP_OPEN,
	WPSIM_OP_AIO_PWRITE,
	WPSIM_OP_COUNT
};

extern const struct litmus_schema wpsim_schema;

/*
 * The model's variant keys (include/model/variant.h, the registry; its
 * rows generate this table, tools/wpsim/schema.c) with each key's value
 * names, indexed by enum m_variant_key.  A front end parses
 * "key=value" with m_variant_parse(); these names index a scenario's
 * variants for reports, expect lines and replay commands.
 */
#define WPSIM_VARIANT_KEYS_MAX	M_VARIANT_KEYS_COUNT

struct wpsim_variant_key {
	const char *key;
	const char *help;
	const char *const *values;	/* names; values[0] is the default */
	size_t values_count;
};

extern const struct wpsim_variant_key wpsim_variant_keys[];
extern const size_t wpsim_variant_keys_count;

/* One value per key of wpsim_variant_keys (indexes into values[]). */
struct wpsim_variant {
	size_t value[WPSIM_VARIANT_KEYS_MAX];
};

/* m_variant_key_find() and m_variant_value_find() (names or aliases). */
int wpsim_variant_key_find(const char *key);
int wpsim_variant_value_find(size_t key, const char *value);
/* Write every key's value of @v into @config (m_variant_apply). */
void wpsim_variant_apply(struct m_world_config *config,
			 const struct wpsim_variant *v);
/* "dontcache=v11 break=none" of the keys that differ from @base (all when
 * @base is NULL); "" when none. */
void wpsim_variant_format(char *buf, size_t size,
			  const struct wpsim_variant *v,
			  const struct wpsim_variant *base,
			  const char *sep);

/* wpsim list ops|variants|invariants|paths */
void wpsim_list_ops(FILE *out);
void wpsim_list_variants(FILE *out);
void wpsim_list_invariants(FILE *out);
void wpsim_list_paths(FILE *out);
void wpsim_list_kinds(FILE *out);

/* Reference paths (checked by the schema, resolved by scenario.c). */
enum wpsim_folio_field_kind {
	WPSIM_FOLIO_FLAG,		/* a PG_ bit */
	WPSIM_FOLIO_PRESENT,	/* these four as schema.c's folio_extra */
	WPSIM_FOLIO_MAPPED,
	WPSIM_FOLIO_INDEX,
	WPSIM_FOLIO_PAGES,
	WPSIM_FOLIO_MARK,		/* an xarray mark */
	WPSIM_FOLIO_PTE,		/* a bit of the shared VMA's PTE */
};

extern const char *const wpsim_folio_flag_names[];
int wpsim_wb_stat_find(const char *name);
int wpsim_node_stat_find(const char *name);
int wpsim_folio_field(const struct litmus_path_seg *segs, size_t n,
		      int *kind, int *which);
int wpsim_mark_bit(int which);
int wpsim_dev_field(const char *name);		/* reads, writes, bios */
int wpsim_file_scalar(const char *name);	/* i_size, nrpages, ... */
/* f.block[B].<state>: the extent letter of the state name, or -1. */
int wpsim_block_state(const char *name);

/* Pn.<field>: thread n's last O_DIRECT write and io_uring request. */
enum wpsim_thread_field {
	WPSIM_TF_DIO_WRITES, WPSIM_TF_ISSUED, WPSIM_TF_SHARED,
	WPSIM_TF_EXCLUSIVE, WPSIM_TF_DIO_WAIT, WPSIM_TF_FORCE_WAIT,
	WPSIM_TF_NEEDS_ZEROING, WPSIM_TF_RESTARTS, WPSIM_TF_ZERO_BIOS,
	WPSIM_TF_URING_REQUESTS, WPSIM_TF_PUNTED, WPSIM_TF_HANDOFFS,
	WPSIM_TF_INLINE_ATTEMPTS, WPSIM_TF_WORKER_ATTEMPTS,
	WPSIM_TF_INLINE_BYTES,
	WPSIM_THREAD_FIELD_COUNT
};

/* uring.<field>: sums over every io_uring request of the execution. */
enum wpsim_uring_field {
	WPSIM_UF_REQUESTS, WPSIM_UF_INLINE_DONE, WPSIM_UF_PUNTED,
	WPSIM_UF_HANDOFFS, WPSIM_UF_INLINE_ATTEMPTS,
	WPSIM_UF_WORKER_ATTEMPTS, WPSIM_UF_CQES, WPSIM_UF_INLINE_BYTES,
	WPSIM_URING_FIELD_COUNT
};

extern const char *const wpsim_thread_field_names[];
extern const char *const wpsim_uring_field_names[];
int wpsim_thread_field(const char *name);
int wpsim_uring_field(const char *name);
/* n for "Pn" (0..15), else -1. */
int wpsim_thread_root(const char *name);
bool wpsim_path_root_reserved(const char *name);

/* ---- scenario.c: loading and running --------------------------------- */

/* fd items: open file descriptions besides each file's own. */
#define WPSIM_FDS_MAX	8

/* One statement with its arguments resolved. */
struct wpsim_stmt {
	enum wpsim_op op;
	int reg;			/* K of rK, or -1 */
	unsigned int file;		/* index into the world's files */
	int fd;				/* index into the fd items, or -1:
					 * the file's own description */
	int64_t arg[4];			/* numbers after the file */
	uint32_t data_id;		/* (thread + 1) * 100 + statement */
	unsigned int repeat;		/* repeat N { ... }: N on the block's
					 * first statement, else 0 */
	unsigned int repeat_len;	/* statements in that block */
	char text[160];			/* "r0 = pwrite(f, 0, 4096)" */
};

struct wpsim_thread {
	struct wpsim_stmt *stmts;
	size_t count;
	/* The calls the thread makes, repeat blocks unrolled: call k runs
	 * statement run_stmt[k] (one op span per call when tracing). */
	uint32_t *run_stmt;
	size_t runs;
};

/* at(L, e) expressions of the condition, each evaluated when L returns. */
#define WPSIM_ATS_MAX	32

/* A leaf of the condition shown in a final state: register, path, count. */
struct wpsim_leaf {
	const struct litmus_expr *expr;
	char *text;
};

struct wpsim_scenario {
	const char *path;
	struct litmus_scenario *scn;
	struct m_world_config base;	/* the initial state, no variant */
	char file_names[M_FILES_MAX][16];
	unsigned int nr_files;
	enum wpsim_fs { WPSIM_FS_XFS, WPSIM_FS_EXT4 } fs[M_FILES_MAX];
	/* fd NAME: file=F, open=FLAGS; more open file descriptions of a
	 * file's inode, each with its own f_wb_err sample (errseq). */
	char fd_names[WPSIM_FDS_MAX][16];
	unsigned int fd_file[WPSIM_FDS_MAX];
	unsigned int fd_flags[WPSIM_FDS_MAX];
	bool fd_advice_random[WPSIM_FDS_MAX];	/* advice=RANDOM */
	unsigned int nr_fds;
	struct wpsim_thread threads[LITMUS_THREADS_MAX];
	size_t threads_count;
	uint32_t steps_max;		/* bound steps=, 0: engine default */
	int64_t preemptions;		/* bound preemptions=, -1: none */
	struct wpsim_variant defaults;	/* from the variant item */
	char *condition_text;		/* "forall (...)", or NULL */
	char *body_text;		/* the expression alone */
	char **always_text;
	bool mentions[3];		/* enum litmus_outcome atoms */
	struct wpsim_leaf *leaves;
	size_t leaves_count;
	const struct litmus_expr *ats[WPSIM_ATS_MAX];
	size_t ats_count;
};

/*
 * Parse and check @path.  Errors go to @err as "file:line:col: error:"
 * lines.  Returns NULL on any error.
 */
struct wpsim_scenario *wpsim_scenario_load(const char *path, FILE *err);
/* The same from text[0..len) named @name in messages (the fuzz target). */
struct wpsim_scenario *wpsim_scenario_load_text(const char *name,
						const char *text, size_t len,
						FILE *err);
void wpsim_scenario_free(struct wpsim_scenario *sc);

/* Op span of one statement, kept when tracing (explain, perfetto). */
struct wpsim_span {
	bool started, done;
	uint32_t start_step;	/* the op begins after this step's events */
	uint32_t end_step;	/* ... and returns within this step */
	uint64_t start_ns, end_ns;	/* virtual time (sim/clock.h) */
	int task;
	int64_t ret;
};

/* The running scenario: one per process, reused by every execution. */
struct wpsim_exec {
	const struct wpsim_scenario *sc;
	struct wpsim_variant variant;
	struct m_world_config config;	/* base + variant */
	struct sim_program program;
	uint32_t steps_option;		/* --steps given to check, 0: none */
	int64_t regs[LITMUS_THREADS_MAX][LITMUS_REGS_MAX];
	/* Pn.<field> and uring.<field>: like the registers, written only by
	 * their own task (model instrumentation, not kernel state), read by
	 * conditions; reset by setup.  uring[t][i] is statement i's request,
	 * in the arena of the current execution, or NULL. */
	struct m_ext4_dio_decision dio[LITMUS_THREADS_MAX];
	struct m_io_uring_req *uring[LITMUS_THREADS_MAX][LITMUS_STMTS_MAX];
	struct m_io_uring_req *uring_last[LITMUS_THREADS_MAX];
	unsigned int uring_requests[LITMUS_THREADS_MAX];
	/* The fd items' descriptions in the current execution's arena
	 * (opened by setup, replaced by an open(g) statement). */
	struct km_file *fds[WPSIM_FDS_MAX];
	/* pread's destination (malloc'd by wpsim_exec_init, a sector
	 * each), for files of up to read_buf_pages pages. */
	uint32_t *read_buf;
	unsigned long read_buf_pages;
	/* at(L, e): e's value when L last returned; at_done: it returned. */
	int64_t at_value[WPSIM_ATS_MAX];
	bool at_done[WPSIM_ATS_MAX];
	bool trace;			/* keep op spans, snapshots */
	struct wpsim_span *spans[LITMUS_THREADS_MAX];
	void (*step_hook)(void *ctx);	/* trace.c: after every step */
	void *step_hook_ctx;
	/* Evaluation state */
	enum sim_failure_kind kind;	/* of the execution evaluated */
	const struct km_folio *count_folio;
	struct litmus_errors eval_errors;
	char name[LITMUS_NAME_LEN_MAX + 260];
};

void wpsim_exec_init(struct wpsim_exec *x, const struct wpsim_scenario *sc,
		     const struct wpsim_variant *variant);
void wpsim_exec_fini(struct wpsim_exec *x);

/* The outcome atom an engine failure kind stands for; -1: none (ok), -2:
 * an engine error (bound, diverged, nondeterminism). */
int wpsim_outcome_atom(enum sim_failure_kind kind);

/*
 * After an execution (the arena still holds its world): evaluate the
 * condition body (1/0; with no quantified clause, "violation"), and
 * format the final state into @state.  -1 on an evaluation error, with the
 * message in x->eval_errors.
 */
int wpsim_exec_evaluate(struct wpsim_exec *x, enum sim_failure_kind kind,
			char *state, size_t state_size);

/* The replay command of a schedule under x's variant. */
void wpsim_replay_command(char *buf, size_t size, const struct wpsim_exec *x,
			  const char *schedule);

/* ---- check.c, trace.c: the commands ---------------------------------- */

struct wpsim_opts {
	const char *strategy;		/* NULL: the command's default */
	uint64_t seed;
	uint64_t executions;
	int64_t preemptions;		/* -1: none given */
	uint32_t depth;
	uint32_t steps_max;
	const char *schedule;
	bool explain;
	bool verify;
	bool keep_going;
	const char *perfetto;
	const char *html;		/* run --html OUT (html.c) */
	const char *emit_kunit;		/* run --emit-kunit OUT (kunit.c) */
	const char *format;		/* text, ktap, json */
	unsigned int jobs;
	/* --jobs was given: an unbounded dpor pair is split into items
	 * run by @jobs worker processes (check.c, run_split). */
	bool split;
	/* Search options of check (docs/performance.md, issue 5). */
	bool iterative;			/* bounds 0, 1, ... up to preemptions */
	bool shrink;			/* shrink the witness found */
	uint32_t estimate_probes;	/* Knuth estimate first; 0: none */
	double progress_seconds;	/* --progress; 0: on a TTY only */
	bool quiet;			/* --quiet: no progress line */
	bool compare_dfs;		/* also count DFS's executions */
	bool exhaustive;		/* no stop when Sometimes is decided */
	/* If set: the witness's schedule (shrunk if --shrink found a
	 * smaller one) is copied here, "" when none was found. */
	char *witness_out;
	size_t witness_out_size;
	bool accept_incomplete;		/* not decided is not a failure */
	/* --variant key=value, as key index and value index */
	int variant_key[WPSIM_VARIANT_KEYS_MAX];
	size_t variant_value[WPSIM_VARIANT_KEYS_MAX];
	size_t variants_count;
};

int wpsim_check_scenarios(struct wpsim_scenario **scs, size_t n,
			  const struct wpsim_opts *opts);
int wpsim_run_scenario(struct wpsim_scenario *sc,
		       const struct wpsim_opts *opts);

/* The variant a scenario runs under with the --variant options applied. */
void wpsim_variant_resolve(const struct wpsim_scenario *sc,
			   const struct wpsim_opts *opts,
			   struct wpsim_variant *v);
/* The scenario's expect line for variant @v, NULL when none names it. */
const struct litmus_expect *wpsim_expect_for(const struct wpsim_scenario *sc,
					     const struct wpsim_variant *v);

/* demo.c: `wpsim demo`, the main job. */
int wpsim_demo_main(void);

/* ext4nowait.c: `wpsim ext4-nowait ARGS...` (argv after the command). */
int wpsim_ext4_nowait_main(int argc, char **argv);
/* wpsim fio [fio options | job files] (fio.c): fio jobs, virtual time. */
int wpsim_fio_main(int argc, char **argv);
/*
 * One line of an ext4-nowait TABLE (NUL-terminated), as --check reads
 * it: 1 a row, 0 a blank or comment line, EXIT_USAGE after a
 * "where:line:col: error:" line on @err (the fuzz target).
 */
int wpsim_ext4_nowait_parse_row(const char *line, const char *where,
				unsigned int lineno, FILE *err);

/* trace.c: one event as --explain prints it, bits and flags by name. */
void wpsim_print_event(FILE *out, const struct sim_event *ev);
/* The same, with the step's virtual time and CPU when @times. */
void wpsim_print_event_timed(FILE *out, const struct sim_event *ev,
			     bool times);

/* JSON string body escaping (no quotes added). */
void wpsim_json_string(FILE *out, const char *s);

#endif /* WPSIM_TOOLS_WPSIM_SCENARIO_H */
