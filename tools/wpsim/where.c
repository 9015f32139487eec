// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/where.c - `wpsim where FUNCTION [FILE.litmus|DIR]...`:
 * which scenarios, and which of their statements (ops), reach the kernel
 * function FUNCTION of the model, and under which variants.  A KCSAN
 * report names two functions; this finds the scenarios to start from.
 *
 * Each scenario runs under the variants `check` would run it under (one
 * per expect line, or the --variant options), by DPOR with the function
 * records of ftrace.c on, up to --executions N executions per scenario x
 * variant (default 64; --exhaustive: all).  A call is charged to the
 * statement its task was running (a P thread's op span), or to the
 * device completion (a pseudo-task) that made it.  "reached" is a fact
 * of the executions run; "not reached" says how many were run and
 * whether they were all of them, never more.
 *
 * Left out: the tier marks (a deep scenario named by a DIR is run like
 * the others, within the cap).
 */
#include "tools/wpsim/claims.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sim/explore.h"
#include "sim/strategy.h"
#include "tools/wpsim/fgraph.h"
#include "tools/wpsim/ftrace.h"

#define WHERE_FILES_MAX		1024
#define WHERE_OPS_MAX		64
#define WHERE_EXECUTIONS	64
#define WHERE_FUNCTIONS_MAX	4	/* a KCSAN report names two */

struct where_op {
	char text[300];		/* "P1 r1 = writeback(f, WB_SYNC_ALL)" */
	uint64_t executions;	/* executions in which it reached it */
};

struct where_run {
	struct wpsim_exec *x;
	char (*names)[96];		/* km_ names; an execution counts */
	size_t names_count;		/* when it calls every one of them */
	struct where_op ops[WHERE_OPS_MAX];	/* in text order met */
	size_t ops_count;
	uint64_t reached;	/* executions that reached it */
};

static void (*setup_fn)(void *config);

static void where_setup(void *config)
{
	wpsim_ftrace_reset();
	setup_fn(config);
}

static void op_add(struct where_run *w, const char *text, bool *seen)
{
	for (size_t i = 0; i < w->ops_count; i++) {
		if (strcmp(w->ops[i].text, text) == 0) {
			if (!seen[i])
				w->ops[i].executions++;
			seen[i] = true;
			return;
		}
	}
	if (w->ops_count == WHERE_OPS_MAX)
		return;
	snprintf(w->ops[w->ops_count].text, sizeof(w->ops[0].text), "%s",
		 text);
	w->ops[w->ops_count].executions = 1;
	seen[w->ops_count++] = true;
}

static void on_execution(void *ctx, const struct sim_outcome *o)
{
	struct where_run *w = ctx;
	const struct wpsim_exec *x = w->x;
	struct wpsim_fgraph g;
	bool seen[WHERE_OPS_MAX] = { false };
	bool any = false;

	bool called[WHERE_FUNCTIONS_MAX] = { false };

	wpsim_fgraph_build(&g, o->steps);
	for (size_t r = 0; r < g.recs_count; r++)
		for (size_t f = 0; f < w->names_count; f++)
			if (!g.recs[r].ret &&
			    wpsim_fn_name_match(g.recs[r].name, w->names[f]))
				called[f] = true;
	any = true;
	for (size_t f = 0; f < w->names_count; f++)
		any = any && called[f];
	for (size_t r = 0; any && r < g.recs_count; r++) {
		const struct wpsim_fn_record *rec = &g.recs[r];
		uint32_t step = g.rec_step[r];
		char text[200], who[300];
		bool found = false, mine = false;

		for (size_t f = 0; f < w->names_count; f++)
			mine = mine || wpsim_fn_name_match(rec->name,
							   w->names[f]);
		if (rec->ret || !mine)
			continue;
		for (size_t t = 0; t < x->sc->threads_count && !found; t++) {
			const struct wpsim_thread *th = &x->sc->threads[t];

			for (size_t k = 0; k < th->runs && !found; k++) {
				const struct wpsim_span *sp = &x->spans[t][k];

				if (!sp->started || sp->task != rec->task ||
				    step < sp->start_step ||
				    (sp->done && step > sp->end_step))
					continue;
				snprintf(text, sizeof(text), "P%zu %s", t,
					 th->stmts[th->run_stmt[k]].text);
				found = true;
			}
		}
		if (!found)
			snprintf(text, sizeof(text), "%s (device completion "
				 "or other pseudo-task)",
				 sim_exec_task_name(rec->task));
		if (w->names_count > 1)
			snprintf(who, sizeof(who), "%s: %s", rec->name, text);
		else
			snprintf(who, sizeof(who), "%s", text);
		op_add(w, who, seen);
	}
	w->reached += any;
	wpsim_fgraph_free(&g);
}

static bool is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void collect(const char *path, char **files, size_t *n)
{
	DIR *d;
	struct dirent *e;

	if (!is_dir(path)) {
		if (*n < WHERE_FILES_MAX)
			files[(*n)++] = strdup(path);
		return;
	}
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char sub[4096];

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s%s%s", path,
			 path[strlen(path) - 1] == '/' ? "" : "/", e->d_name);
		if (is_dir(sub))
			collect(sub, files, n);
		else if (len > 7 && strcmp(e->d_name + len - 7, ".litmus") == 0
			 && *n < WHERE_FILES_MAX)
			files[(*n)++] = strdup(sub);
	}
	closedir(d);
}

#ifndef WPSIM_SOURCE_DIR
#define WPSIM_SOURCE_DIR "."
#endif

/* What `wpsim where` was asked: its functions, files and cap. */
struct where_args {
	const char *function;
	char **files;
	size_t n, names_count;
	char (*names)[96];
	uint64_t cap;
};

/* Parse FUNCTION... [FILE|DIR]... [--executions N | --exhaustive].
 * Returns 0, or EXIT_USAGE after the error is printed. */
static int where_parse(int argc, char **argv, struct where_args *wa)
{
	bool files_given = false;

	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--exhaustive") == 0) {
			wa->cap = 0;
		} else if (strcmp(argv[i], "--executions") == 0 &&
			   i + 1 < argc) {
			char *end;

			wa->cap = strtoull(argv[++i], &end, 10);
			if (*end || !wa->cap) {
				fprintf(stderr, "wpsim where: --executions: "
					"expected a positive integer, found "
					"'%s'\n", argv[i]);
				return EXIT_USAGE;
			}
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "wpsim where: unknown option '%s'; "
				"known: --executions N, --exhaustive\n",
				argv[i]);
			return EXIT_USAGE;
		} else if (!wa->function ||
			   (!files_given && !is_dir(argv[i]) &&
			    !strstr(argv[i], ".litmus") &&
			    wa->names_count < WHERE_FUNCTIONS_MAX)) {
			/* FUNCTION, then more until a FILE or DIR. */
			wa->function = argv[i];
			snprintf(wa->names[wa->names_count++],
				 sizeof(wa->names[0]), "%s%s",
				 strncmp(argv[i], "km_", 3) ? "km_" : "",
				 argv[i]);
		} else {
			files_given = true;
			collect(argv[i], wa->files, &wa->n);
		}
	}
	return 0;
}

int wpsim_where_main(int argc, char **argv)
{
	struct wpsim_opts opts = { .preemptions = -1 };
	char names[WHERE_FUNCTIONS_MAX][96], label[4 * 100] = "";
	struct where_args wa = { .files = calloc(WHERE_FILES_MAX,
						 sizeof(char *)),
				 .names = names, .cap = WHERE_EXECUTIONS };
	const char *function;
	char **files = wa.files;
	uint64_t cap;
	size_t n, reached_files = 0, pairs_run = 0, names_count;
	int rc = EXIT_CLEAN;

	if (!files)
		abort();
	if (where_parse(argc, argv, &wa))
		return EXIT_USAGE;
	function = wa.function;
	cap = wa.cap;
	n = wa.n;
	names_count = wa.names_count;
	if (!function) {
		fprintf(stderr, "usage: wpsim where FUNCTION [FUNCTION...] "
			"[FILE.litmus|DIR]... [--executions N | "
			"--exhaustive]\n");
		return EXIT_USAGE;
	}
	if (!wpsim_ftrace_names_available()) {
		fprintf(stderr, "wpsim where: this binary cannot name kernel "
			"functions (wpsim-ftrace is missing)\n");
		return EXIT_USAGE;
	}
	for (size_t f = 0; f < names_count; f++) {
		if (!wpsim_ftrace_has_function(names[f])) {
			fprintf(stderr, "wpsim where: expected a kernel "
				"function of the model, found '%s' (no %s)\n",
				names[f] + 3, names[f]);
			return EXIT_USAGE;
		}
		snprintf(label + strlen(label), sizeof(label) - strlen(label),
			 "%s%s", f ? " and " : "", names[f]);
	}
	if (!n)
		collect(is_dir("scenarios") ? "scenarios" :
			WPSIM_SOURCE_DIR "/scenarios", files, &n);
	qsort(files, n, sizeof(*files), name_cmp);
	if (cap)
		printf("%s: reached%s by (DPOR, the first %" PRIu64 " "
		       "executions of each scenario x variant):\n", label,
		       names_count > 1 ? " in one execution" : "", cap);
	else
		printf("%s: reached%s by (DPOR, every execution of each "
		       "scenario x variant):\n", label, names_count > 1 ?
		       " in one execution" : "");
	for (size_t f = 0; f < n; f++) {
		struct wpsim_scenario *sc = wpsim_scenario_load(files[f],
								stderr);
		struct wpsim_variant pairs[LITMUS_EXPECTS_MAX + 1];
		size_t np;
		bool printed = false;

		if (!sc) {
			rc = EXIT_USAGE;
			continue;
		}
		np = wpsim_claims_variants(sc, &opts, pairs);
		for (size_t p = 0; p < np; p++) {
			struct wpsim_exec *x = calloc(1, sizeof(*x));
			struct where_run *w = calloc(1, sizeof(*w));
			struct sim_explore_options eo = { 0 };
			struct sim_explore_result res;
			struct sim_strategy s;
			struct sim_program prog;
			char vtext[256];

			if (!x || !w)
				abort();
			wpsim_exec_init(x, sc, &pairs[p]);
			x->trace = true;
			w->x = x;
			w->names = names;
			w->names_count = names_count;
			prog = x->program;
			setup_fn = prog.setup;
			prog.setup = where_setup;
			sim_strategy_dpor(&s);
			eo.exec.steps_max = sc->steps_max;
			eo.on_execution = on_execution;
			eo.ctx = w;
			eo.executions_max = cap;
			wpsim_ftrace_on = true;
			sim_explore(&prog, &s, &eo, &res);
			wpsim_ftrace_on = false;
			pairs_run++;
			wpsim_variant_format(vtext, sizeof(vtext), &pairs[p],
					     &sc->defaults, " ");
			if (!vtext[0])
				snprintf(vtext, sizeof(vtext), "(the file's "
					 "defaults)");
			if (w->reached) {
				if (!printed)
					printf("  %s\n", files[f]);
				printed = true;
				printf("    variant %s: %" PRIu64 " of %" PRIu64
				       " executions%s\n", vtext, w->reached,
				       res.executions, res.complete ?
				       " (all)" : "");
				for (size_t k = 0; k < w->ops_count; k++)
					printf("      %-44s in %" PRIu64 "\n",
					       w->ops[k].text,
					       w->ops[k].executions);
			}
			sim_explore_result_fini(&res);
			sim_strategy_fini(&s);
			wpsim_exec_fini(x);
			free(x);
			free(w);
		}
		reached_files += printed;
		wpsim_scenario_free(sc);
		free(files[f]);
	}
	printf("%zu of %zu scenarios reach it (%zu scenario x variant pairs "
	       "run%s)\n", reached_files, n, pairs_run, cap ?
	       "; a pair not listed did not reach it within the cap" : "");
	free(files);
	return rc;
}
