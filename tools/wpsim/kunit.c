// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/kunit.c - `wpsim run FILE.litmus --schedule S --emit-kunit
 * OUT.c`: the skeleton of a kernel KUnit test that drives a replayed
 * interleaving step by step, as the seed 003 author's step-by-step test
 * did for the DONTCACHE double count.
 *
 * The execution is cut into segments: maximal runs of steps of one task.
 * Each task becomes a kthread that waits for its segment's "go"
 * completion, runs to the segment's last access and signals "done"; the
 * test case releases the segments in the witness's order and, after
 * each, checks the state it leaves for everything it changed (folio
 * flags, xarray marks, PTE bits, node and wb counters: the --explain
 * summary; each change is listed as a comment, and each thing checked
 * once, at its last value) with KUNIT_EXPECT lines.  Where a segment ends inside a kernel function, a comment names
 * the function nesting and the access it stops before: the kernel has no
 * such pause points, so the developer places them (a test hook, a
 * completion in a fault-injection point, or calling the inner functions
 * directly as the seed 003 test did).  That, the file and folio set-up
 * (WPSIM_TODO lines) and the helpers at the top are the developer's to
 * finish; the file does not compile before that, on purpose.
 *
 * Left out: device completions (bio end_io) are tasks of the model; the
 * skeleton gives them a kthread like the others, the developer decides
 * how the kernel's completion is delayed.  Output is deterministic.
 */
#include "tools/wpsim/html.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/wpsim/fgraph.h"

static void ident(char *buf, size_t size, const char *s)
{
	size_t i = 0;

	for (; *s && i + 1 < size; s++)
		buf[i++] = isalnum((unsigned char)*s) ? *s : '_';
	buf[i] = '\0';
}

static void upper(char *buf, size_t size, const char *s)
{
	size_t i = 0;

	for (; *s && i + 1 < size; s++)
		buf[i++] = (char)toupper((unsigned char)*s);
	buf[i] = '\0';
}

/*
 * The state a segment leaves: one expectation per thing it changed, the
 * last value (a folio locked and unlocked inside a segment is checked
 * unlocked, once).  Keyed by what it checks.
 */
#define NET_MAX	256

struct net {
	char key[NET_MAX][96];
	char line[NET_MAX][200];
	size_t count;
};

static struct net net;

static void net_set(const char *key, const char *line)
{
	size_t i;

	for (i = 0; i < net.count; i++)
		if (strcmp(net.key[i], key) == 0)
			break;
	if (i == NET_MAX)
		return;
	if (i == net.count)
		snprintf(net.key[net.count++], sizeof(net.key[0]), "%s", key);
	snprintf(net.line[i], sizeof(net.line[0]), "%s", line);
}

/* One " +PG_dirty" / " -DIRTY" token of a summary line as expectations. */
static void expect_bits(FILE *out, const char *file, unsigned int page,
			const char *what, const char *tok)
{
	char key[96], line[200];
	FILE *m = fmemopen(line, sizeof(line), "w");

	if (!m)
		abort();
	snprintf(key, sizeof(key), "%s:%s:%u:%s", what, file, page, tok + 1);
	(void)out;
	out = m;
	bool set = tok[0] == '+';
	char name[64], up[64];

	snprintf(name, sizeof(name), "%s", tok + 1);
	if (strcmp(what, "flags") == 0) {
		char lower[64];
		size_t i = 0;

		for (const char *p = name + (strncmp(name, "PG_", 3) ? 0 : 3);
		     *p && i + 1 < sizeof(lower); p++)
			lower[i++] = (char)tolower((unsigned char)*p);
		lower[i] = '\0';
		fprintf(out, "\tKUNIT_EXPECT_%s(test, folio_test_%s("
			"wpsim_folio(ctx, \"%s\", %u)));\n",
			set ? "TRUE" : "FALSE", lower, file, page);
	} else if (strcmp(what, "marks") == 0) {
		upper(up, sizeof(up), name);
		fprintf(out, "\tKUNIT_EXPECT_%s(test, xa_get_mark("
			"wpsim_i_pages(ctx, \"%s\"), %u, PAGECACHE_TAG_%s));\n",
			set ? "TRUE" : "FALSE", file, page, up);
	} else {
		fprintf(out, "\tKUNIT_EXPECT_%s(test, wpsim_pte_%s(ctx, "
			"\"%s\", %u));\n", set ? "TRUE" : "FALSE", name, file,
			page);
	}
	fputc('\0', out);
	fclose(out);
	net_set(key, line);
}

/* The summary of one step (trace.c's lines) as KUNIT_EXPECT lines. */
static void expectations(FILE *out, const char *text, size_t len)
{
	char *copy = strndup(text, len), *save = NULL;

	if (!copy)
		abort();
	for (char *line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char file[32], rest[256];
		unsigned int page;
		unsigned long long folio;

		if (strncmp(line, "node.", 5) == 0 ||
		    strncmp(line, "wb.", 3) == 0 ||
		    strncmp(line, "dev.", 4) == 0) {
			char *s2 = NULL;

			for (char *c = strtok_r(line, ",", &s2); c;
			     c = strtok_r(NULL, ",", &s2)) {
				char area[8], item[48], up[48];
				long long a, b;

				c += strspn(c, " ");
				if (sscanf(c, "%7[a-z].%47[a-z_0-9] %lld->%lld",
					   area, item, &a, &b) != 4)
					continue;
				char key[96], l[200];

				upper(up, sizeof(up), item);
				snprintf(key, sizeof(key), "%s.%s", area, item);
				if (strcmp(area, "node") == 0)
					snprintf(l, sizeof(l), "\tWPSIM_EXPECT_"
						 "NODE(test, NR_%s, %lld);\n",
						 up, b);
				else if (strcmp(area, "wb") == 0)
					snprintf(l, sizeof(l), "\tWPSIM_EXPECT_"
						 "WB(test, WB_%s, %lld);\n",
						 up, b);
				else
					snprintf(l, sizeof(l), "\t/* device "
						 "%s: %lld (the model's "
						 "device; no kernel counter) "
						 "*/\n", item, b);
				net_set(key, l);
				(void)a;
			}
			continue;
		}
		if (sscanf(line, "%31s page %u folio %llu: %255[^\n]", file,
			   &page, &folio, rest) == 4) {
			char *s3 = NULL;

			for (char *part = strtok_r(rest, ";", &s3); part;
			     part = strtok_r(NULL, ";", &s3)) {
				char what[16];
				char *s4 = NULL, *tok;

				part += strspn(part, " ");
				if (sscanf(part, "%15s", what) != 1)
					continue;
				tok = strtok_r(part + strlen(what), " ", &s4);
				for (; tok; tok = strtok_r(NULL, " ", &s4))
					if (tok[0] == '+' || tok[0] == '-')
						expect_bits(out, file, page,
							    what, tok);
			}
			continue;
		}
		fprintf(out, "\t/* also changed: %s */\n", line);
	}
	free(copy);
}

/* A summary's lines as one comment line each. */
static void note_comment(FILE *out, uint32_t step, const char *text,
			 size_t len)
{
	const char *end = text + len;

	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		size_t l = nl ? (size_t)(nl - text) : (size_t)(end - text);

		fprintf(out, "\t/* step %u: %.*s */\n", step, (int)l, text);
		text += l + (nl != NULL);
	}
}

struct segment {
	uint32_t first, last;	/* steps */
	uint16_t task;
};

/*
 * Long (~190 lines) for a reason: it writes the KUnit file in the order
 * the file reads (header, one kthread per task, the segments, the test
 * case), so each block of output is next to the code that prints it.
 */
int wpsim_kunit_write(const char *path, const struct wpsim_replayed *r)
{
	const struct wpsim_exec *x = r->x;
	const struct sim_outcome *o = r->o;
	const struct sim_event *ev;
	uint32_t tasks = sim_exec_task_count();
	struct wpsim_fgraph g;
	struct segment *seg;
	size_t nseg = 0, note = 0;
	char name[96], variant[256];
	FILE *out = fopen(path, "w");

	if (!out) {
		fprintf(stderr, "wpsim: --emit-kunit %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	sim_exec_events(&ev);
	wpsim_fgraph_build(&g, o->steps);
	seg = calloc(g.steps_count + 1, sizeof(*seg));
	if (!seg)
		abort();
	for (uint32_t s = 0; s < g.steps_count; s++) {
		if (nseg && seg[nseg - 1].task == g.steps[s].task) {
			seg[nseg - 1].last = s;
			continue;
		}
		seg[nseg++] = (struct segment){ s, s, g.steps[s].task };
	}
	ident(name, sizeof(name), x->sc->scn->name);
	wpsim_variant_format(variant, sizeof(variant), &x->variant, NULL, " ");
	fprintf(out, "// SPDX-License-Identifier: GPL-2.0\n/*\n"
		" * KUnit skeleton generated by wpsim from one replayed "
		"execution:\n *   scenario %s (%s)\n *   variant  %s\n"
		" *   replay   %s\n *   outcome  %s%s%s\n *\n"
		" * %zu segments, each a run of steps of one task, released in "
		"this order\n * by the test case; after each, the state it "
		"changed is checked.\n * To finish in the kernel: the "
		"WPSIM_TODO set-up, the helpers below,\n * and a pause point "
		"where a segment ends inside a kernel function\n * (the "
		"kernel has none: a test hook, or call the inner functions\n"
		" * directly).  The model's names: km_X models the kernel's "
		"X.\n */\n", x->sc->scn->name, x->sc->path, variant, r->replay,
		o->kind == SIM_OK ? "ok" : sim_failure_kind_name(o->kind),
		o->kind == SIM_OK ? "" : ": ", o->kind == SIM_OK ? "" :
		o->message, nseg);
	fprintf(out, "#include <kunit/test.h>\n#include <linux/completion.h>"
		"\n#include <linux/kthread.h>\n#include <linux/pagemap.h>\n"
		"#include <linux/backing-dev.h>\n\n#define WPSIM_SEGMENTS %zu"
		"\n#define WPSIM_TASKS %u\n\nstruct wpsim_ctx {\n"
		"\tstruct completion go[WPSIM_SEGMENTS], done[WPSIM_SEGMENTS];"
		"\n\tstruct task_struct *task[WPSIM_TASKS];\n"
		"\tstruct bdi_writeback *wb;\n\tlong node0[NR_VM_NODE_STAT_ITEMS];"
		"\n\ts64 wb0[NR_WB_STAT_ITEMS];\n\t/* WPSIM_TODO: the files, "
		"mappings and folios of the scenario. */\n};\n\n"
		"/* WPSIM_TODO: the scenario's folio and page-cache lookups. */\n"
		"static struct folio *wpsim_folio(struct wpsim_ctx *ctx, const "
		"char *file, pgoff_t index);\nstatic struct xarray "
		"*wpsim_i_pages(struct wpsim_ctx *ctx, const char *file);\n\n"
		"/* Counters relative to their value when the test starts. */\n"
		"#define WPSIM_EXPECT_NODE(test, item, v) KUNIT_EXPECT_EQ(test,"
		" \\\n\tglobal_node_page_state(item) - ctx->node0[item], "
		"(long)(v))\n#define WPSIM_EXPECT_WB(test, item, v) "
		"KUNIT_EXPECT_EQ(test, \\\n\twb_stat(ctx->wb, item) - "
		"ctx->wb0[item], (s64)(v))\n\n", nseg, tasks);
	/* One kthread per task: its segments in order. */
	for (uint32_t t = 0; t < tasks; t++) {
		char tname[32];

		ident(tname, sizeof(tname), sim_exec_task_name(t));
		fprintf(out, "/* Task %s. */\nstatic int %s_%s(void *arg)\n{\n"
			"\tstruct wpsim_ctx *ctx = arg;\n\n", sim_exec_task_name(t),
			name, tname);
		for (size_t k = 0; k < nseg; k++) {
			const struct wpsim_fg_step *a = &g.steps[seg[k].first];
			const struct wpsim_fg_step *b = &g.steps[seg[k].last];
			bool last_of_task = true;

			if (seg[k].task != t)
				continue;
			for (size_t j = k + 1; j < nseg; j++)
				if (seg[j].task == t)
					last_of_task = false;
			fprintf(out, "\t/* Segment %zu: steps %u-%u. */\n"
				"\twait_for_completion(&ctx->go[%zu]);\n", k,
				seg[k].first, seg[k].last, k);
			fprintf(out, "\t/* From: %s */\n", a->nesting[0] ?
				a->nesting : "(task start)");
			for (uint32_t s = seg[k].first; s <= seg[k].last; s++)
				for (uint32_t kk = 0; kk < g.steps[s].rec_count;
				     kk++) {
					const struct wpsim_fn_record *rec =
						&g.recs[g.steps[s].rec_first +
							kk];

					if (rec->ret)
						continue;
					fprintf(out, "\t/*   calls %s */\n",
						rec->name);
				}
			if (!last_of_task && b->rec_count == 0 &&
			    seg[k].last + 1 < g.steps_count)
				fprintf(out, "\t/* Pause point: stop in %s, after "
					"step %u's access. */\n", b->nesting[0] ?
					b->nesting : "(no kernel function)",
					seg[k].last);
			else if (!last_of_task)
				fprintf(out, "\t/* Pause point: after step %u "
					"(%s). */\n", seg[k].last,
					b->nesting[0] ? b->nesting :
					"no kernel function");
			fprintf(out, "\tcomplete(&ctx->done[%zu]);\n\n", k);
		}
		fputs("\treturn 0;\n}\n\n", out);
	}
	fprintf(out, "static void %s_test(struct kunit *test)\n{\n"
		"\tstruct wpsim_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), "
		"GFP_KERNEL);\n\tint i;\n\n\tKUNIT_ASSERT_NOT_NULL(test, ctx);"
		"\n\tfor (i = 0; i < WPSIM_SEGMENTS; i++) {\n"
		"\t\tinit_completion(&ctx->go[i]);\n"
		"\t\tinit_completion(&ctx->done[i]);\n\t}\n"
		"\t/* WPSIM_TODO: the initial state:\n", name);
	if (r->initial) {
		char *copy = strdup(r->initial), *save = NULL;

		if (!copy)
			abort();
		for (char *l = strtok_r(copy, "\n", &save); l;
		     l = strtok_r(NULL, "\n", &save))
			fprintf(out, "\t *   %s\n", l + strspn(l, " "));
		free(copy);
	}
	fputs("\t * then ctx->wb, ctx->node0[] and ctx->wb0[]. */\n", out);
	for (uint32_t t = 0; t < tasks; t++) {
		char tname[32];

		ident(tname, sizeof(tname), sim_exec_task_name(t));
		fprintf(out, "\tctx->task[%u] = kthread_run(%s_%s, ctx, "
			"\"wpsim-%s\");\n", t, name, tname,
			sim_exec_task_name(t));
	}
	fputc('\n', out);
	for (size_t k = 0; k < nseg; k++) {
		bool any = false;

		fprintf(out, "\t/* Segment %zu: %s, steps %u-%u. */\n"
			"\tcomplete(&ctx->go[%zu]);\n\twait_for_completion("
			"&ctx->done[%zu]);\n", k,
			sim_exec_task_name(seg[k].task), seg[k].first,
			seg[k].last, k, k);
		net.count = 0;
		for (; note < r->notes_count &&
		       r->notes[note].step <= seg[k].last; note++) {
			if (r->notes[note].step < seg[k].first)
				continue;
			note_comment(out, r->notes[note].step,
				     r->notes[note].text, r->notes[note].len);
			expectations(out, r->notes[note].text,
				     r->notes[note].len);
			any = true;
		}
		if (!any)
			fputs("\t/* (no change to the summarised state) */\n",
			      out);
		else
			fputs("\t/* The state the segment leaves: */\n", out);
		for (size_t i = 0; i < net.count; i++)
			fputs(net.line[i], out);
		if (o->kind != SIM_OK && k + 1 == nseg) {
			fputs("\t/* The model fails here: ", out);
			for (const char *m = o->message; *m; m++)
				fputc(*m == '*' ? '+' : *m, out);
			fputs(" */\n", out);
		}
		fputc('\n', out);
	}
	fprintf(out, "}\n\nstatic struct kunit_case %s_cases[] = {\n"
		"\tKUNIT_CASE(%s_test),\n\t{}\n};\n\nstatic struct kunit_suite "
		"%s_suite = {\n\t.name = \"wpsim-%s\",\n\t.test_cases = "
		"%s_cases,\n};\nkunit_test_suite(%s_suite);\n\n"
		"MODULE_LICENSE(\"GPL\");\n", name, name, name,
		x->sc->scn->name, name, name);
	wpsim_fgraph_free(&g);
	free(seg);
	if (fclose(out) != 0) {
		fprintf(stderr, "wpsim: --emit-kunit %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	return 0;
}
