// SPDX-License-Identifier: MIT
/*
 * realcode/xarray/programs.c - programs of tasks calling the real
 * lib/xarray.c (realcode/xa.h), with the mark invariants checked after
 * every step at which nobody holds xa_lock.
 *
 * Models: page-cache uses of the XArray (Linux v6.12): a dirtier setting
 * DIRTY (__folio_mark_dirty), tag_pages_for_writeback, truncation's
 * erase, filemap_get_folios_tag's walk, and __split_huge_page's split of
 * a multi-index entry.  Leaves out: the folios themselves (entries are
 * value entries).
 */
#include <stdio.h>
#include <string.h>

#include "realcode/programs.h"
#include "realcode/rt.h"
#include "realcode/xa.h"
#include "sim/shared.h"

#define DIRTY	0
#define WB	1
#define TOWRITE	2

char rc_outcome[512];

struct xa_world {
	struct xarray *xa;
	bool towrite_in_dirty;	/* check TOWRITE => DIRTY too */
	unsigned long last;	/* indices 0..last are checked */
	unsigned int found;	/* the reader's count */
};

static struct xa_world W;

static void marks_check(void *arg)
{
	struct xa_world *w = arg;
	const char *bad;

	if (rcx_writers || rcx_locked(w->xa))
		return;
	bad = rcx_marks_broken(w->xa);
	SIM_CHECK(!bad, "xarray marks: %s", bad);
	if (!w->towrite_in_dirty)
		return;
	for (unsigned long i = 0; i <= w->last; i++) {
		unsigned int m;

		(void)rcx_peek(w->xa, i, &m);
		SIM_CHECK(!(m & 1u << TOWRITE) || (m & 1u << DIRTY),
			  "index %lu: TOWRITE without DIRTY", i);
	}
}

static void marks_dump(void *arg, FILE *out)
{
	struct xa_world *w = arg;

	for (unsigned long i = 0; i <= w->last; i++) {
		unsigned int m;
		unsigned long v = rcx_peek(w->xa, i, &m);

		if (v || m)
			fprintf(out, "  xa[%lu] = %lu%s%s%s\n", i, v,
				m & 1 ? " DIRTY" : "", m & 2 ? " WRITEBACK" : "",
				m & 4 ? " TOWRITE" : "");
	}
}

static void world_begin(unsigned long last, bool towrite_in_dirty)
{
	rc_begin();
	memset(&W, 0, sizeof(W));
	W.xa = rcx_new();
	W.last = last;
	W.towrite_in_dirty = towrite_in_dirty;
	sim_check_register("xarray-marks", marks_check, marks_dump, &W);
}

/* The final state: every index's value and marks, into rc_outcome. */
static void outcome_final(void *config)
{
	size_t n = 0;

	(void)config;
	for (unsigned long i = 0; i <= W.last; i++) {
		unsigned int m;
		unsigned long v = rcx_peek(W.xa, i, &m);

		n += (size_t)snprintf(rc_outcome + n, sizeof(rc_outcome) - n,
				      "%lu:%lu/%u ", i, v, m);
	}
	snprintf(rc_outcome + n, sizeof(rc_outcome) - n, "found=%u", W.found);
}

/* ---- xa-basic: two tasks storing, erasing and marking ---------------- */

static void basic_t0(void *arg)
{
	(void)arg;
	rcx_store(W.xa, 1, 11);
	rcx_set_mark(W.xa, 2, DIRTY);
}

static void basic_t1(void *arg)
{
	(void)arg;
	rcx_store(W.xa, 2, 12);
	rcx_erase(W.xa, 1);
}

static void basic_setup(void *config)
{
	(void)config;
	world_begin(3, false);
	sim_task_spawn("t0", basic_t0, NULL);
	sim_task_spawn("t1", basic_t1, NULL);
}

static const struct rc_program xa_basic = {
	{ "xa-basic", "two tasks: xa_store, xa_set_mark / xa_store, xa_erase "
	  "(real lib/xarray.c)", basic_setup, outcome_final, NULL }, "pass",
};

/* ---- xa-tagwalk: writeback tagging against dirtying and erasing ----- */

static bool tag_locked;

static void tw_dirtier(void *arg)
{
	(void)arg;
	rcx_set_mark(W.xa, 1, DIRTY);
}

static void tw_tagger(void *arg)
{
	(void)arg;
	rcx_tag_walk(W.xa, 0, W.last, 2, tag_locked);
}

static void tw_eraser(void *arg)
{
	(void)arg;
	rcx_erase(W.xa, 2);
}

static void tagwalk_setup_common(void)
{
	world_begin(3, true);
	for (unsigned long i = 0; i <= 3; i++)
		rcx_store(W.xa, i, 100 + i);
	rcx_set_mark(W.xa, 0, DIRTY);
	rcx_set_mark(W.xa, 2, DIRTY);
	sim_task_spawn("dirtier", tw_dirtier, NULL);
	sim_task_spawn("tagger", tw_tagger, NULL);
	sim_task_spawn("eraser", tw_eraser, NULL);
}

static void tagwalk_setup(void *config)
{
	(void)config;
	tag_locked = true;
	tagwalk_setup_common();
}

static void tagwalk_nolock_setup(void *config)
{
	(void)config;
	tag_locked = false;
	tagwalk_setup_common();
}

static const struct rc_program xa_tagwalk = {
	{ "xa-tagwalk", "tag_pages_for_writeback (batch 2) against a dirtier "
	  "and an eraser; TOWRITE only on DIRTY, no mark on an empty slot",
	  tagwalk_setup, outcome_final, NULL }, "pass",
};

static const struct rc_program xa_tagwalk_nolock = {
	{ "xa-tagwalk-nolock", "the same with the tag walk under "
	  "rcu_read_lock instead of xa_lock (the proof of concept's bug)",
	  tagwalk_nolock_setup, outcome_final, NULL }, "fail",
};

/* ---- xa-split: splitting a marked multi-index entry ------------------- */

static void split_splitter(void *arg)
{
	(void)arg;
	rcx_split(W.xa, 0, 6, 1);
}

static void split_reader(void *arg)
{
	unsigned long idx[4];

	(void)arg;
	W.found = rcx_walk_marked(W.xa, 0, 63, DIRTY, idx, 4);
}

static void split_setup(void *config)
{
	(void)config;
	world_begin(63, false);
	rcx_store_order(W.xa, 0, 6, 7);
	rcx_set_mark(W.xa, 0, DIRTY);
	sim_task_spawn("splitter", split_splitter, NULL);
	sim_task_spawn("reader", split_reader, NULL);
}

static void split_final(void *config)
{
	outcome_final(config);
	for (unsigned long i = 0; i < 64; i++) {
		unsigned int m;

		SIM_ASSERT_MSG(rcx_peek(W.xa, i, &m) == 7 && (m & 1),
			       "after the split, index %lu: value %lu marks %u",
			       i, rcx_peek(W.xa, i, &m), m);
	}
}

static const struct rc_program xa_split = {
	{ "xa-split", "__split_huge_page's xas_split of a DIRTY order-6 entry "
	  "into order-1 entries, against an RCU walk of DIRTY",
	  split_setup, split_final, NULL }, "pass",
};

/* ---- xa-shrink: the last entry erased under lockless readers -------- */

static void shrink_marker(void *arg)
{
	(void)arg;
	rcx_clear_mark(W.xa, 0, DIRTY);
}

static void shrink_eraser(void *arg)
{
	(void)arg;
	rcx_erase(W.xa, 17);
}

static void shrink_reader(void *arg)
{
	(void)arg;
	W.found = rcx_get_mark(W.xa, 1, TOWRITE);
	W.found += rcx_get_mark(W.xa, 2, WB);
}

static void shrink_setup(void *config)
{
	(void)config;
	world_begin(17, false);
	rcx_store(W.xa, 17, 4);
	rcx_set_mark(W.xa, 17, WB);
	rcx_set_mark(W.xa, 17, TOWRITE);
	sim_task_spawn("marker", shrink_marker, NULL);
	sim_task_spawn("eraser", shrink_eraser, NULL);
	sim_task_spawn("reader", shrink_reader, NULL);
}

static const struct rc_program xa_shrink = {
	{ "xa-shrink", "the only entry (index 17, two levels) erased while "
	  "a task clears a mark at 0 and another reads marks locklessly: "
	  "nodes freed by call_rcu", shrink_setup, outcome_final, NULL },
	"pass",
};

const struct rc_program *const rc_xa_programs[] = {
	&xa_basic, &xa_shrink, &xa_tagwalk, &xa_tagwalk_nolock, &xa_split, NULL,
};

/* Every built-in program by name: rc_xa_programs, then rc_rwsem_programs. */
const struct rc_program *rc_program_find(const char *name)
{
	const struct rc_program *const *tables[] = { rc_xa_programs,
						     rc_rwsem_programs };

	for (size_t t = 0; t < 2; t++)
		for (const struct rc_program *const *p = tables[t]; *p; p++)
			if (!strcmp((*p)->prog.name, name))
				return *p;
	return NULL;
}
