// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/trace.c - `wpsim run FILE.litmus --schedule S`: replay one
 * schedule, print its final state, and on request tell the interleaving.
 *
 * --explain prints every step (task, access, object = value) grouped by
 * step, marks where each kernel call starts and returns, and after each
 * step the change of a compact state summary: folio flags, xarray marks,
 * PTE bits, i_size, wb_err, and the node, wb and device counters.  The
 * summary is taken by a check registered ahead of the model's, so it runs
 * after every step on the scheduler's context, reads with sim_word_peek()
 * and records nothing: the event log and its hash are those of an
 * ordinary replay.
 *
 * --perfetto OUT.json writes the same execution as Chrome trace-event
 * JSON (ui.perfetto.dev opens it): one track per task and per device
 * completion, a slice per kernel call and per step, an instant per state
 * change, counter tracks for the node, wb and device counters.  Both
 * --explain and Perfetto show the engine's virtual time (sim/clock.h):
 * each event's time and CPU, each step's start and end, each call's
 * start and return.  Output is deterministic: no pointers, no wall-clock
 * time.
 */
#include "tools/wpsim/scenario.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include "model/linux/pagemap.h"
#include "sim/clock.h"
#include "sim/shared.h"
#include "tools/wpsim/ftrace.h"
#include "tools/wpsim/html.h"


static const char *const mark_names[] = { "DIRTY", "WRITEBACK", "TOWRITE" };

/* ---- the compact state summary ------------------------------------------- */

/* The summary follows the first TRACE_PAGES pages of each file. */
#define TRACE_PAGES	M_FILE_PAGES_DEFAULT

static unsigned int trace_pages(void)
{
	return m_file_pages_max < TRACE_PAGES ? (unsigned int)m_file_pages_max :
	       TRACE_PAGES;
}

struct snap_file {
	uint64_t i_size, wb_err, nrpages;
	uint64_t entry[TRACE_PAGES];
	uint64_t marks[TRACE_PAGES];
	uint64_t flags[TRACE_PAGES];	/* of the folio at the slot */
	uint64_t pte[TRACE_PAGES];
};

struct snap {
	int64_t node[NR_NODE_STAT_ITEMS];
	int64_t wb[NR_WB_STAT_ITEMS];
	int64_t dev[3];			/* reads, writes, bios */
	unsigned int nr_files;
	struct snap_file f[M_FILES_MAX];
};

static void snap_take(struct snap *s)
{
	struct m_world *w = m_world();

	memset(s, 0, sizeof(*s));
	if (!w)
		return;
	for (int i = 0; i < NR_NODE_STAT_ITEMS; i++)
		s->node[i] = (int64_t)sim_word_peek(&w->node.stat[i]);
	for (int i = 0; i < NR_WB_STAT_ITEMS; i++)
		s->wb[i] = (int64_t)sim_word_peek(&w->wb.stat[i]);
	s->dev[0] = (int64_t)sim_word_peek(&w->dev.reads);
	s->dev[1] = (int64_t)sim_word_peek(&w->dev.writes);
	s->dev[2] = (int64_t)sim_word_peek(&w->dev.bios_submitted);
	s->nr_files = w->nr_files;
	for (unsigned int f = 0; f < w->nr_files; f++) {
		struct km_inode *inode = w->inodes[f];
		struct km_address_space *m = &inode->i_data;
		struct snap_file *sf = &s->f[f];

		sf->i_size = sim_word_peek(&inode->i_size);
		sf->wb_err = sim_word_peek(&m->wb_err);
		sf->nrpages = sim_word_peek(&m->nrpages);
		for (unsigned int i = 0; i < trace_pages(); i++) {
			uint64_t id = sim_word_peek(&m_xa_slot(m, i)->entry);

			sf->entry[i] = id;
			sf->marks[i] = sim_word_peek(&m_xa_slot(m, i)->marks);
			if (id && id <= w->nr_folios &&
			    w->folios[id]->index == i) {
				sf->flags[i] = sim_word_peek(
					&w->folios[id]->flags);
				sf->pte[i] = sim_word_peek(&w->folios[id]->pte);
			}
		}
	}
}

static void lower(char *buf, size_t size, const char *name,
		  const char *prefix)
{
	size_t i = 0;

	name += strlen(prefix);
	for (; name[i] && i + 1 < size; i++)
		buf[i] = (char)tolower((unsigned char)name[i]);
	buf[i] = '\0';
}

static void bits_diff(FILE *out, uint64_t a, uint64_t b,
		      const char *const *names, unsigned int n, bool *any)
{
	for (unsigned int bit = 0; bit < n; bit++) {
		uint64_t m = 1ULL << bit;

		if ((a ^ b) & m) {
			fprintf(out, " %c%s", (b & m) ? '+' : '-', names[bit]);
			*any = true;
		}
	}
}

static const char *const pte_names[] = { "present", "write", "dirty" };

/* Print what changed from @a to @b, "  | " before each line. */
static void snap_diff(FILE *out, const struct snap *a, const struct snap *b,
		      const char *prefix)
{
	char name[32];
	bool first = true;

	for (int i = 0; i < NR_NODE_STAT_ITEMS; i++) {
		if (a->node[i] == b->node[i])
			continue;
		lower(name, sizeof(name), m_node_stat_name(i), "NR_");
		fprintf(out, "%snode.%s %lld->%lld", first ? prefix : ", ",
			name, (long long)a->node[i], (long long)b->node[i]);
		first = false;
	}
	for (int i = 0; i < NR_WB_STAT_ITEMS; i++) {
		if (a->wb[i] == b->wb[i])
			continue;
		lower(name, sizeof(name), m_wb_stat_name(i), "WB_");
		fprintf(out, "%swb.%s %lld->%lld", first ? prefix : ", ",
			name, (long long)a->wb[i], (long long)b->wb[i]);
		first = false;
	}
	for (int i = 0; i < 3; i++) {
		static const char *const dev[] = { "reads", "writes", "bios" };

		if (a->dev[i] == b->dev[i])
			continue;
		fprintf(out, "%sdev.%s %lld->%lld", first ? prefix : ", ",
			dev[i], (long long)a->dev[i], (long long)b->dev[i]);
		first = false;
	}
	if (!first)
		fputc('\n', out);
	for (unsigned int f = 0; f < b->nr_files; f++) {
		const struct snap_file *x = &a->f[f], *y = &b->f[f];
		const char *fname = m_world()->inodes[f]->name;

		if (x->i_size != y->i_size)
			fprintf(out, "%s%s.i_size %llu->%llu\n", prefix, fname,
				(unsigned long long)x->i_size,
				(unsigned long long)y->i_size);
		if (x->wb_err != y->wb_err)
			fprintf(out, "%s%s.wb_err 0x%llx->0x%llx (errno %d)\n",
				prefix, fname, (unsigned long long)x->wb_err,
				(unsigned long long)y->wb_err,
				(int)(y->wb_err & 0xfff));
		for (unsigned int i = 0; i < trace_pages(); i++) {
			bool any = false;

			if (x->entry[i] != y->entry[i]) {
				bool enters = y->entry[i] != 0;

				fprintf(out, "%s%s page %u: folio %llu %s the "
					"page cache\n", prefix, fname, i,
					(unsigned long long)(enters ?
							     y->entry[i] :
							     x->entry[i]),
					enters ? "enters" : "leaves");
			}
			if (x->flags[i] == y->flags[i] &&
			    x->marks[i] == y->marks[i] &&
			    x->pte[i] == y->pte[i])
				continue;
			if (!y->entry[i] && !x->entry[i])
				continue;
			fprintf(out, "%s%s page %u folio %llu:", prefix, fname,
				i, (unsigned long long)(y->entry[i] ?
							y->entry[i] :
							x->entry[i]));
			if (x->flags[i] != y->flags[i]) {
				fprintf(out, " flags");
				bits_diff(out, x->flags[i], y->flags[i],
					  wpsim_folio_flag_names,
					  KM_NR_PAGEFLAGS, &any);
			}
			if (x->marks[i] != y->marks[i]) {
				fprintf(out, "%s marks", any ? ";" : "");
				bits_diff(out, x->marks[i], y->marks[i],
					  mark_names, 3, &any);
			}
			if (x->pte[i] != y->pte[i]) {
				fprintf(out, "%s pte", any ? ";" : "");
				bits_diff(out, x->pte[i], y->pte[i], pte_names,
					  3, &any);
			}
			fputc('\n', out);
		}
	}
}

/* The whole summary (the initial state). */
static void snap_print(FILE *out, const struct snap *s, const char *prefix)
{
	struct snap zero;
	char name[32];

	fprintf(out, "%scounters:", prefix);
	for (int i = 0; i < NR_NODE_STAT_ITEMS; i++) {
		lower(name, sizeof(name), m_node_stat_name(i), "NR_");
		fprintf(out, " node.%s=%lld", name, (long long)s->node[i]);
	}
	fprintf(out, "\n%s         ", prefix);
	for (int i = 0; i < NR_WB_STAT_ITEMS; i++) {
		lower(name, sizeof(name), m_wb_stat_name(i), "WB_");
		fprintf(out, " wb.%s=%lld", name, (long long)s->wb[i]);
	}
	fputc('\n', out);
	for (unsigned int f = 0; f < s->nr_files; f++)
		fprintf(out, "%s%s: i_size=%llu nrpages=%llu\n", prefix,
			m_world()->inodes[f]->name,
			(unsigned long long)s->f[f].i_size,
			(unsigned long long)s->f[f].nrpages);
	memset(&zero, 0, sizeof(zero));
	zero.nr_files = s->nr_files;
	memcpy(zero.node, s->node, sizeof(zero.node));
	memcpy(zero.wb, s->wb, sizeof(zero.wb));
	memcpy(zero.dev, s->dev, sizeof(zero.dev));
	for (unsigned int f = 0; f < s->nr_files; f++) {
		zero.f[f].i_size = s->f[f].i_size;
		zero.f[f].wb_err = s->f[f].wb_err;
	}
	snap_diff(out, &zero, s, prefix);
}

/* ---- recording after every step ------------------------------------------ */

struct note {
	uint32_t step;
	int task;
	size_t off, len;
};

struct counter_row {
	uint32_t step;		/* after this step; UINT32_MAX: initial */
	int64_t node[NR_NODE_STAT_ITEMS];
	int64_t wb[NR_WB_STAT_ITEMS];
	int64_t dev[3];
};

struct trace {
	struct wpsim_exec *x;
	struct snap *prev, *cur;
	uint32_t calls;
	FILE *text;		/* diff texts, back to back */
	char *text_buf;
	size_t text_len;
	struct note *notes;
	size_t notes_count;
	struct counter_row *rows;
	size_t rows_count;
	char *initial;		/* the initial summary */
	size_t initial_len;
};

static void counters_row(struct trace *t, uint32_t step)
{
	struct counter_row *r;

	t->rows = realloc(t->rows, (t->rows_count + 1) * sizeof(*t->rows));
	if (!t->rows)
		abort();
	r = &t->rows[t->rows_count++];
	r->step = step;
	memcpy(r->node, t->cur->node, sizeof(r->node));
	memcpy(r->wb, t->cur->wb, sizeof(r->wb));
	memcpy(r->dev, t->cur->dev, sizeof(r->dev));
}

static void trace_step(void *ctx)
{
	struct trace *t = ctx;
	struct snap *swap;
	const struct sim_event *events;
	uint32_t n = sim_exec_events(&events);
	long before;

	snap_take(t->cur);
	if (t->calls++ == 0) {
		FILE *m = open_memstream(&t->initial, &t->initial_len);

		if (!m)
			abort();
		snap_print(m, t->cur, "  ");
		fclose(m);
		counters_row(t, UINT32_MAX);
	} else {
		uint32_t step = t->calls - 2;

		fflush(t->text);
		before = ftell(t->text);
		snap_diff(t->text, t->prev, t->cur, "");
		fflush(t->text);
		if (ftell(t->text) != before) {
			t->notes = realloc(t->notes, (t->notes_count + 1) *
					   sizeof(*t->notes));
			if (!t->notes)
				abort();
			t->notes[t->notes_count++] = (struct note){
				.step = step,
				.task = n ? events[n - 1].task : -1,
				.off = (size_t)before,
				.len = (size_t)(ftell(t->text) - before),
			};
		}
		if (memcmp(t->prev->node, t->cur->node,
			   sizeof(t->cur->node)) ||
		    memcmp(t->prev->wb, t->cur->wb, sizeof(t->cur->wb)) ||
		    memcmp(t->prev->dev, t->cur->dev, sizeof(t->cur->dev)))
			counters_row(t, step);
	}
	swap = t->prev;
	t->prev = t->cur;
	t->cur = swap;
}

/* ---- explain ------------------------------------------------------------- */

/* Which bit table names the bits of an object: folio flags, marks, AS_. */
enum word_kind {
	WORD_PLAIN, WORD_FOLIO_FLAGS, WORD_MARKS, WORD_AS_FLAGS, WORD_PTE,
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcmp(s + a - b, suffix) == 0;
}

static enum word_kind word_kind(const char *base)
{
	if (strncmp(base, "folio", 5) == 0 && ends_with(base, ".flags"))
		return WORD_FOLIO_FLAGS;
	if (strstr(base, ".marks["))
		return WORD_MARKS;
	if (ends_with(base, ".as_flags"))
		return WORD_AS_FLAGS;
	if (strncmp(base, "folio", 5) == 0 && ends_with(base, ".pte"))
		return WORD_PTE;
	return WORD_PLAIN;
}

static const char *bit_name(enum word_kind kind, unsigned int bit)
{
	static const char *const as_names[] = {
		[AS_EIO] = "AS_EIO", [AS_ENOSPC] = "AS_ENOSPC",
		[AS_STABLE_WRITES] = "AS_STABLE_WRITES",
	};

	switch (kind) {
	case WORD_FOLIO_FLAGS:
		return bit < KM_NR_PAGEFLAGS ? wpsim_folio_flag_names[bit] :
		       NULL;
	case WORD_MARKS:
		return bit < 3 ? mark_names[bit] : NULL;
	case WORD_AS_FLAGS:
		return bit < sizeof(as_names) / sizeof(as_names[0]) ?
		       as_names[bit] : NULL;
	case WORD_PTE:
		return bit < 3 ? pte_names[bit] : NULL;
	default:
		return NULL;
	}
}

/* "folio1.flags:PG_dirty" for the engine's "folio1.flags:bit4". */
static const char *object_name(uint32_t object, char *buf, size_t size)
{
	const char *base = sim_exec_object_name(SIM_OBJECT_BASE(object));
	enum word_kind kind = word_kind(base);
	unsigned int bit = SIM_OBJECT_BIT_OF(object) - 1;
	const char *name;

	if (object & SIM_OBJECT_RANGE_FLAG)
		return sim_exec_object_name(object);
	if (!SIM_OBJECT_BIT_OF(object))
		return base;
	name = bit_name(kind, bit);
	if (!name)
		return sim_exec_object_name(object);
	snprintf(buf, size, "%s:%s%s", base,
		 kind == WORD_FOLIO_FLAGS ? "PG_" : "", name);
	return buf;
}

/* A word's value: flag names for flag words, else the number. */
static void print_value(FILE *out, uint32_t object, uint64_t value)
{
	enum word_kind kind = word_kind(sim_exec_object_name(
		SIM_OBJECT_BASE(object)));
	bool first = true;

	if (kind == WORD_PLAIN && strstr(sim_exec_object_name(
		SIM_OBJECT_BASE(object)), ".extent[") &&
	    strchr("HUWD", (int)value) && value) {
		fprintf(out, "'%c'", (char)value);	/* block state */
		return;
	}
	if (kind == WORD_PLAIN || kind == WORD_AS_FLAGS || !value) {
		fprintf(out, "%lld", (long long)value);
		return;
	}
	for (unsigned int bit = 0; bit < 64; bit++) {
		const char *name = (value >> bit) & 1 ? bit_name(kind, bit) :
				   NULL;

		if (!name)
			continue;
		fprintf(out, "%s%s", first ? "" : "|", name);
		first = false;
	}
}

void wpsim_print_event_timed(FILE *out, const struct sim_event *ev,
			     bool times)
{
	char buf[160];
	bool has_value = ev->access != SIM_ACCESS_NONE &&
			 ev->access != SIM_ACCESS_EXIT &&
			 ev->access != SIM_ACCESS_BLOCK;

	fprintf(out, "  %5u  ", ev->step);
	if (times)
		fprintf(out, "%12.3f %4u  ", (double)ev->t_ns / 1000.0,
			ev->cpu);
	fprintf(out, "%-10s %-9s %s",
		sim_exec_task_name(ev->task), sim_access_name(ev->access),
		object_name(ev->object, buf, sizeof(buf)));
	if (ev->access == SIM_ACCESS_SPAWN || ev->access == SIM_ACCESS_WAKE) {
		fprintf(out, " -> %s", sim_exec_task_name((uint32_t)ev->value));
	} else if (ev->access == SIM_ACCESS_ADD) {
		fprintf(out, " += %lld", (long long)(int64_t)ev->value);
	} else if (has_value) {
		fputs(" = ", out);
		print_value(out, ev->object, ev->value);
	}
	fputc('\n', out);
}

/* An event as failure reports print it (no times: they match the log). */
void wpsim_print_event(FILE *out, const struct sim_event *ev)
{
	wpsim_print_event_timed(out, ev, false);
}

/*
 * A run of one-event steps reading X[i], X[i+1], ... with one value (the
 * writeback walk over the xarray marks): how many steps from @e on.
 */
static uint32_t scan_run(const struct sim_event *ev, uint32_t e, uint32_t n)
{
	const char *name = sim_exec_object_name(ev[e].object);
	const char *bracket = strrchr(name, '[');
	size_t prefix = bracket ? (size_t)(bracket - name) + 1 : 0;
	char first[96];
	long index;
	uint32_t k = e + 1;

	if (!bracket || ev[e].access != SIM_ACCESS_READ ||
	    (e + 1 < n && ev[e + 1].step == ev[e].step))
		return 1;
	snprintf(first, sizeof(first), "%s", name);
	index = strtol(first + prefix, NULL, 10);
	for (; k < n; k++) {
		const char *other = sim_exec_object_name(ev[k].object);

		if (ev[k].step != ev[k - 1].step + 1 ||
		    ev[k].task != ev[e].task ||
		    ev[k].access != SIM_ACCESS_READ ||
		    ev[k].value != ev[e].value ||
		    (k + 1 < n && ev[k + 1].step == ev[k].step) ||
		    strncmp(other, first, prefix) != 0 ||
		    strtol(other + prefix, NULL, 10) !=
		    index + (long)(k - e))
			break;
	}
	return k - e;
}

static void print_ret(FILE *out, int64_t v)
{
	const char *name = v < 0 && v >= -4095 ?
			   litmus_errno_name((int)-v) : NULL;

	if (name)
		fprintf(out, "-%s", name);
	else
		fprintf(out, "%lld", (long long)v);
}

static void explain(FILE *out, struct trace *t, const struct sim_outcome *o)
{
	const struct wpsim_exec *x = t->x;
	const struct sim_event *events;
	uint32_t n = sim_exec_events(&events);
	size_t note = 0;
	uint32_t e = 0;

	fprintf(out, "Initial state:\n%s", t->initial ? t->initial : "");
	fprintf(out, "Virtual time: ends at %" PRIu64 " ns on %u CPU(s)\n",
		sim_exec_end_ns(), sim_clock_config()->cpus);
	fprintf(out, "   step        t (us)  cpu  task       access    "
		"object = value\n");
	for (uint32_t step = 0; step < o->steps; step++) {
		uint32_t run = e < n && events[e].step == step ?
			       scan_run(events, e, n) : 1;

		if (run >= 4) {
			const struct sim_event *a = &events[e];
			const struct sim_event *b = &events[e + run - 1];
			const char *name = sim_exec_object_name(a->object);
			const char *last = sim_exec_object_name(b->object);

			fprintf(out, "  %5u  %12.3f %4u  %-10s %-9s "
				"%.*s%ld..%ld] = %lld   (%u steps, to step "
				"%u)\n", a->step, (double)a->t_ns / 1000.0,
				a->cpu, sim_exec_task_name(a->task),
				sim_access_name(a->access),
				(int)(strrchr(name, '[') - name + 1), name,
				strtol(strrchr(name, '[') + 1, NULL, 10),
				strtol(strrchr(last, '[') + 1, NULL, 10),
				(long long)a->value, run, b->step);
			e += run;
			step = b->step;
		}
		for (; e < n && events[e].step == step; e++)
			wpsim_print_event_timed(out, &events[e], true);
		for (; note < t->notes_count && t->notes[note].step < step;
		     note++)
			;
		if (note < t->notes_count && t->notes[note].step == step) {
			const char *text = t->text_buf + t->notes[note].off;
			size_t len = t->notes[note].len;

			while (len) {
				const char *nl = memchr(text, '\n', len);
				size_t l = nl ? (size_t)(nl - text) + 1 : len;

				fprintf(out, "         | %.*s", (int)l, text);
				text += l;
				len -= l;
			}
		}
		for (size_t th = 0; th < x->sc->threads_count; th++) {
			for (size_t i = 0; i < x->sc->threads[th].runs; i++) {
				const struct wpsim_span *sp = &x->spans[th][i];

				if (sp->done && sp->end_step == step) {
					fprintf(out, "  ---- P%zu returns "
						"from %s: ", th,
						x->sc->threads[th].stmts[
						x->sc->threads[th].run_stmt[i]]
						.text);
					print_ret(out, sp->ret);
					fprintf(out, "  (at %.3f us, %.3f us "
						"after the call)\n",
						(double)sp->end_ns / 1000.0,
						(double)(sp->end_ns -
							 sp->start_ns) /
						1000.0);
				}
			}
		}
		for (size_t th = 0; th < x->sc->threads_count; th++)
			for (size_t i = 0; i < x->sc->threads[th].runs; i++)
				if (x->spans[th][i].started &&
				    x->spans[th][i].start_step == step)
					fprintf(out, "  ---- P%zu calls %s  "
						"(at %.3f us)\n", th,
						x->sc->threads[th].stmts[
						x->sc->threads[th].run_stmt[i]]
						.text, (double)x->spans[th][i]
						.start_ns / 1000.0);
	}
}

/* ---- perfetto ------------------------------------------------------------ */

static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	wpsim_json_string(out, s);
	fputc('"', out);
}

/* Virtual ns as a trace-event timestamp (us). */
static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

/* When step @step ended (the state after it). */
static double step_end_us(uint32_t step)
{
	return step < SIM_STEPS_LIMIT ? us(sim_exec_step_end_ns()[step]) : 0;
}

static void counter_event(FILE *out, const struct counter_row *r, bool *comma)
{
	char name[32];
	double ts = r->step == UINT32_MAX ? 0 : step_end_us(r->step);

	fprintf(out, "%s\n{\"ph\":\"C\",\"pid\":1,\"ts\":%.3f,\"name\":"
		"\"node\",\"args\":{", *comma ? "," : "", ts);
	for (int i = 0; i < NR_NODE_STAT_ITEMS; i++) {
		lower(name, sizeof(name), m_node_stat_name(i), "NR_");
		fprintf(out, "%s\"%s\":%lld", i ? "," : "", name,
			(long long)r->node[i]);
	}
	fprintf(out, "}},\n{\"ph\":\"C\",\"pid\":1,\"ts\":%.3f,\"name\":"
		"\"wb\",\"args\":{", ts);
	for (int i = 0; i < NR_WB_STAT_ITEMS; i++) {
		lower(name, sizeof(name), m_wb_stat_name(i), "WB_");
		fprintf(out, "%s\"%s\":%lld", i ? "," : "", name,
			(long long)r->wb[i]);
	}
	fprintf(out, "}},\n{\"ph\":\"C\",\"pid\":1,\"ts\":%.3f,\"name\":"
		"\"dev\",\"args\":{\"reads\":%lld,\"writes\":%lld,"
		"\"bios\":%lld}}", ts, (long long)r->dev[0],
		(long long)r->dev[1], (long long)r->dev[2]);
	*comma = true;
}

/*
 * Long (~135 lines) for a reason: it emits the trace JSON in one pass
 * over the steps (tracks, slices, counters), in the order the file has.
 */
static int write_perfetto(const char *path, struct trace *t,
			  const struct sim_outcome *o, const char *schedule)
{
	const struct wpsim_exec *x = t->x;
	const struct sim_event *events;
	uint32_t n = sim_exec_events(&events);
	uint32_t tasks = sim_exec_task_count();
	char variant[256], label[192], obj[160];
	bool comma = false;
	FILE *out = fopen(path, "w");

	if (!out) {
		fprintf(stderr, "wpsim: --perfetto %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	wpsim_variant_format(variant, sizeof(variant), &x->variant, NULL, " ");
	fprintf(out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{"
		"\"scenario\":");
	json_str(out, x->sc->scn->name);
	fprintf(out, ",\"file\":");
	json_str(out, x->sc->path);
	fprintf(out, ",\"variant\":");
	json_str(out, variant);
	fprintf(out, ",\"schedule\":");
	json_str(out, schedule);
	fprintf(out, ",\"event_log_hash\":\"%016" PRIx64 "\",\"outcome\":",
		o->log_hash);
	json_str(out, sim_failure_kind_name(o->kind));
	fprintf(out, ",\"time\":\"virtual time (ts in us), %u CPU(s)\","
		"\"end_ns\":%" PRIu64 "},\"traceEvents\":[",
		sim_clock_config()->cpus, sim_exec_end_ns());
	fprintf(out, "\n{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\","
		"\"args\":{\"name\":");
	snprintf(label, sizeof(label), "wpsim %s", x->sc->scn->name);
	json_str(out, label);
	fprintf(out, "}}");
	for (uint32_t i = 0; i < tasks; i++) {
		snprintf(label, sizeof(label), "%s (task %u)",
			 sim_exec_task_name(i), i);
		fprintf(out, ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":"
			"\"thread_name\",\"args\":{\"name\":", i + 1);
		json_str(out, label);
		fprintf(out, "}},\n{\"ph\":\"M\",\"pid\":1,\"tid\":%u,"
			"\"name\":\"thread_sort_index\",\"args\":"
			"{\"sort_index\":%u}}", i + 1, i);
	}
	comma = true;
	/* Kernel calls: a slice from the first step they can take to the
	 * end of the step they return in. */
	for (size_t th = 0; th < x->sc->threads_count; th++) {
		for (size_t i = 0; i < x->sc->threads[th].runs; i++) {
			const struct wpsim_span *sp = &x->spans[th][i];
			uint32_t end = sp->done ? sp->end_step + 1 : o->steps;

			uint64_t end_ns = sp->done ? sp->end_ns :
					  sim_exec_end_ns();

			if (!sp->started || end <= sp->start_step + 1)
				continue;
			fprintf(out, ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%d,"
				"\"ts\":%.3f,\"dur\":%.3f,\"cat\":\"kernel "
				"call\",\"name\":", sp->task + 1,
				us(sp->start_ns), us(end_ns - sp->start_ns));
			json_str(out, x->sc->threads[th].stmts[
				 x->sc->threads[th].run_stmt[i]].text);
			fprintf(out, ",\"args\":{\"returned\":");
			if (sp->done)
				fprintf(out, "%lld", (long long)sp->ret);
			else
				fprintf(out, "null");
			fprintf(out, "}}");
		}
	}
	/* Steps: one slice each, named by its first access. */
	for (uint32_t e = 0; e < n;) {
		uint32_t step = events[e].step, first = e;
		uint64_t start = step < SIM_STEPS_LIMIT ?
				 sim_exec_step_start_ns()[step] : 0;
		uint64_t end = step < SIM_STEPS_LIMIT ?
			       sim_exec_step_end_ns()[step] : 0;

		fprintf(out, ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%u,"
			"\"ts\":%.3f,\"dur\":%.3f,\"cat\":\"step\","
			"\"name\":", events[e].task + 1U, us(start),
			us(end - start));
		snprintf(label, sizeof(label), "%s %s",
			 sim_access_name(events[e].access),
			 object_name(events[e].object, obj, sizeof(obj)));
		json_str(out, label);
		fprintf(out, ",\"args\":{\"step\":%u,\"cpu\":%u", step,
			events[e].cpu);
		for (; e < n && events[e].step == step; e++) {
			char *text = NULL;
			size_t len = 0;
			FILE *m = open_memstream(&text, &len);

			if (!m)
				abort();
			wpsim_print_event_timed(m, &events[e], false);
			fclose(m);
			while (len && (text[len - 1] == '\n' ||
				       text[len - 1] == ' '))
				text[--len] = '\0';
			fprintf(out, ",\"event%u\":", e - first);
			json_str(out, text + strspn(text, " "));
			free(text);
		}
		fprintf(out, "}}");
	}
	/* State changes: an instant on the track of the step's task. */
	for (size_t i = 0; i < t->notes_count; i++) {
		char *text = strndup(t->text_buf + t->notes[i].off,
				     t->notes[i].len);

		if (!text)
			abort();
		if (t->notes[i].len && text[t->notes[i].len - 1] == '\n')
			text[t->notes[i].len - 1] = '\0';
		fprintf(out, ",\n{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,"
			"\"tid\":%d,\"ts\":%.3f,\"cat\":\"state\",\"name\":",
			t->notes[i].task + 1, step_end_us(t->notes[i].step));
		json_str(out, text);
		fprintf(out, "}");
		free(text);
	}
	for (size_t i = 0; i < t->rows_count; i++)
		counter_event(out, &t->rows[i], &comma);
	fprintf(out, "\n]}\n");
	if (fclose(out) != 0) {
		fprintf(stderr, "wpsim: --perfetto %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- wpsim run ----------------------------------------------------------- */

/*
 * What the run's ext4 DIO writes decided and what its io_uring requests
 * cost: the Pn.<field> and uring.<field> values, per statement.
 */
static void print_model_notes(const struct wpsim_exec *x)
{
	const struct wpsim_scenario *sc = x->sc;

	for (size_t t = 0; t < sc->threads_count; t++) {
		const struct m_ext4_dio_decision *d = &x->dio[t];

		if (d->writes)
			printf("ext4 DIO: P%zu's last O_DIRECT write: %s, "
			       "inode_dio_wait %s, FORCE_WAIT %s, "
			       "needs_zeroing %s, restarts %u, zeroing "
			       "bios %u\n", t,
			       !d->issued ? "returned before the I/O" :
			       d->shared ? "I/O under i_rwsem shared" :
			       "I/O under i_rwsem exclusive",
			       d->dio_wait ? "yes" : "no",
			       d->force_wait ? "yes" : "no",
			       d->needs_zeroing ? "yes" : "no", d->restarts,
			       d->zero_bios);
		for (size_t i = 0; i < sc->threads[t].count; i++) {
			const struct m_io_uring_req *req = x->uring[t][i];

			if (!req)
				continue;
			printf("io_uring: P%zu %s: inline attempts %u, worker "
			       "attempts %u, punted %s, hand-offs %u, inline "
			       "bytes %zu, CQEs %u, res %ld\n", t,
			       sc->threads[t].stmts[i].text,
			       req->inline_attempts, req->worker_attempts,
			       req->punted ? "yes" : "no", req->handoffs,
			       req->inline_bytes, req->cqes,
			       req->cqes ? req->result : 0);
		}
	}
}

/* --html and --emit-kunit: write the replayed execution's pages. */
static int write_witness_files(const struct wpsim_opts *opts,
			       struct wpsim_exec *x, const struct trace *t,
			       const struct sim_outcome *o, const char *trimmed,
			       const char *cmd, const char *state, int holds)
{
	struct wpsim_state_note *notes = calloc(t->notes_count + 1,
						sizeof(*notes));
	struct wpsim_replayed rp = {
		.x = x, .o = o, .schedule = trimmed, .replay = cmd,
		.final_state = state, .initial = t->initial,
		.condition = holds < 0 ? "cannot evaluate" : holds ?
			     "holds" : "does not hold",
		.notes = notes, .notes_count = t->notes_count,
	};
	int rc = EXIT_CLEAN;

	for (size_t i = 0; notes && i < t->notes_count; i++)
		notes[i] = (struct wpsim_state_note){ t->notes[i].step,
			t->text_buf + t->notes[i].off, t->notes[i].len };
	if (!notes || (opts->html && wpsim_html_write(opts->html, &rp) != 0) ||
	    (opts->emit_kunit && wpsim_kunit_write(opts->emit_kunit, &rp) != 0))
		rc = EXIT_USAGE;
	else if (opts->html)
		printf("HTML witness: %s\n", opts->html);
	if (rc == EXIT_CLEAN && opts->emit_kunit)
		printf("KUnit skeleton: %s\n", opts->emit_kunit);
	free(notes);
	return rc;
}

/*
 * The report of a replayed execution: its test, explanation, final
 * state and condition, schedule and replay command, and the files asked
 * for.  Returns EXIT_USAGE when a file could not be written.
 */
static int print_replayed(const struct wpsim_scenario *sc,
			  const struct wpsim_opts *opts,
			  const struct wpsim_variant *variant,
			  struct wpsim_exec *x, struct trace *t,
			  const struct sim_outcome *o, const char *trimmed)
{
	char state[1024], vtext[256], cmd[1024];
	int holds, rc = EXIT_CLEAN;

	wpsim_variant_format(vtext, sizeof(vtext), variant, NULL, " ");
	printf("Test %s (%s) variant %s\n", sc->scn->name, sc->path, vtext);
	printf("\"%s\"\n", sc->scn->description);
	if (opts->explain)
		explain(stdout, t, o);
	holds = wpsim_exec_evaluate(x, o->kind, state, sizeof(state));
	printf("Final state: %s\n", state[0] ? state : "(no leaves)");
	print_model_notes(x);
	if (holds < 0)
		printf("Condition %s: cannot evaluate: %s\n",
		       sc->condition_text ? sc->condition_text : "-",
		       x->eval_errors.count ? x->eval_errors.list[0].text :
		       "error");
	else if (sc->condition_text)
		printf("Condition %s: %s\n", sc->condition_text,
		       holds ? "holds" : "does not hold");
	wpsim_replay_command(cmd, sizeof(cmd), x, trimmed);
	printf("Schedule %s (%" PRIu64 " steps, %u preemptions), "
	       "event-log hash "
	       "%016" PRIx64 "\n", trimmed, o->steps, o->preemptions,
	       o->log_hash);
	printf("Replay: %s\n", cmd);
	if (opts->perfetto) {
		if (write_perfetto(opts->perfetto, t, o, trimmed) != 0)
			rc = EXIT_USAGE;
		else
			printf("Perfetto trace: %s (open it in "
			       "https://ui.perfetto.dev)\n", opts->perfetto);
	}
	if ((opts->html || opts->emit_kunit) &&
	    write_witness_files(opts, x, t, o, trimmed, cmd, state,
				holds) != EXIT_CLEAN)
		rc = EXIT_USAGE;
	return rc;
}

int wpsim_run_scenario(struct wpsim_scenario *sc,
		       const struct wpsim_opts *opts)
{
	struct sim_exec_options exec = { .keep_log = true };
	struct wpsim_variant variant;
	struct wpsim_exec *x = calloc(1, sizeof(*x));
	struct trace t = { 0 };
	struct snap snaps[2];
	struct sim_outcome o;
	char *trimmed;
	int rc = EXIT_CLEAN;

	if (!x)
		abort();
	wpsim_variant_resolve(sc, opts, &variant);
	wpsim_exec_init(x, sc, &variant);
	exec.steps_max = opts->steps_max ? opts->steps_max : sc->steps_max;
	if (opts->explain || opts->perfetto || opts->html ||
	    opts->emit_kunit) {
		x->trace = true;
		t.x = x;
		t.prev = &snaps[0];
		t.cur = &snaps[1];
		t.text = open_memstream(&t.text_buf, &t.text_len);
		if (!t.text)
			abort();
		x->step_hook = trace_step;
		x->step_hook_ctx = &t;
	}
	wpsim_ftrace_reset();
	wpsim_ftrace_on = opts->html || opts->emit_kunit;
	sim_replay(&x->program, opts->schedule, &exec, &o);
	wpsim_ftrace_on = false;
	if (o.kind == SIM_FAIL_DIVERGED && o.steps == 0 && !o.log_hash) {
		fprintf(stderr, "wpsim: --schedule: %s\n", o.message);
		rc = EXIT_USAGE;
		goto out;
	}
	/*
	 * A failure inside a task (an assertion or an SIM_CHECK right
	 * after an access) ends the execution before the checks that
	 * follow its last step: take that step's state change here, so
	 * the explanation shows what the failing step did.
	 */
	if (x->step_hook && o.kind != SIM_OK && o.kind != SIM_FAIL_DIVERGED)
		trace_step(&t);
	if (t.text)
		fflush(t.text);
	trimmed = sim_exec_schedule_string();
	if (sim_schedule_parsed_origin()[0] &&
	    strcmp(sim_schedule_parsed_origin(), sim_schedule_origin()))
		printf("Note: the schedule was recorded by model %s; this is "
		       "model %s (the source changed since)%s\n",
		       sim_schedule_parsed_origin(), sim_schedule_origin(),
		       o.kind == SIM_FAIL_DIVERGED ? "" :
		       "; it replays here all the same");
	rc = print_replayed(sc, opts, &variant, x, &t, &o, trimmed);
	free(trimmed);
	if (o.kind != SIM_OK) {
		printf("Outcome: FAIL %s: %s\n", sim_failure_kind_name(o.kind),
		       o.message);
		sim_exec_dump(stdout);
		if (rc == EXIT_CLEAN)
			rc = EXIT_FOUND;
	} else {
		printf("Outcome: ok\n");
	}
out:
	if (t.text)
		fclose(t.text);
	free(t.text_buf);
	free(t.notes);
	free(t.rows);
	free(t.initial);
	wpsim_exec_fini(x);
	free(x);
	return rc;
}
