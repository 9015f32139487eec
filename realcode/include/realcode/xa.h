/* SPDX-License-Identifier: MIT */
/*
 * realcode/xa.h - the real lib/xarray.c as tasks call it: a neutral
 * interface (no kernel types) over xa_* and xas_*, so that programs, the
 * differential against the model and the CLI need not see kernel
 * headers.  Implemented in realcode/xarray/xa-ops.c (compiled with the
 * instrumentation, like the kernel file) and xa-harness.c.
 *
 * Entries are value entries (xa_mk_value(v), v > 0); 0 means "none".
 * Marks: 0 = XA_MARK_0 (PAGECACHE_TAG_DIRTY), 1 = XA_MARK_1
 * (PAGECACHE_TAG_WRITEBACK), 2 = XA_MARK_2 (PAGECACHE_TAG_TOWRITE).
 */
#ifndef REALCODE_XA_H
#define REALCODE_XA_H

#include <stdbool.h>
#include <stdint.h>

#define RCX_NONE	(~0UL)

struct xarray;

/* In setup, after rc_begin(): a struct xarray on the kernel heap. */
struct xarray *rcx_new(void);

/* xa_store(xa_mk_value(v)), GFP_KERNEL; returns the old value or 0. */
unsigned long rcx_store(struct xarray *xa, unsigned long index,
			unsigned long v);
/* A multi-index entry of 2^order indices (XA_STATE_ORDER, xas_store
 * under xa_lock with xas_nomem), as filemap_add_folio stores a folio. */
void rcx_store_order(struct xarray *xa, unsigned long index,
		     unsigned int order, unsigned long v);
unsigned long rcx_load(struct xarray *xa, unsigned long index);
unsigned long rcx_erase(struct xarray *xa, unsigned long index);
void rcx_set_mark(struct xarray *xa, unsigned long index, unsigned int m);
void rcx_clear_mark(struct xarray *xa, unsigned long index, unsigned int m);
bool rcx_get_mark(struct xarray *xa, unsigned long index, unsigned int m);
/* xa_find(xa, &index, max, mark): the first marked index >= @from. */
unsigned long rcx_find_marked(struct xarray *xa, unsigned long from,
			      unsigned long max, unsigned int m);
/* xa_marked(): is any entry marked @m? */
bool rcx_marked(struct xarray *xa, unsigned int m);
/*
 * Split the entry at @index (of order @old_order) into entries of order
 * @new_order, as __split_huge_page does: xas_split_alloc unlocked, then
 * xas_split under xa_lock.
 */
void rcx_split(struct xarray *xa, unsigned long index, unsigned int old_order,
	       unsigned int new_order);
/*
 * tag_pages_for_writeback() of mm/page-writeback.c (v6.12), cloned with
 * its batch (XA_CHECK_SCHED) a parameter: every DIRTY entry in
 * [start, end] gets TOWRITE; the lock is dropped and retaken (xas_pause)
 * every @batch tags.  @locked false: the walk runs under rcu_read_lock
 * instead of xa_lock (the bug the proof of concept reintroduced).
 * Returns how many it tagged.
 */
unsigned int rcx_tag_walk(struct xarray *xa, unsigned long start,
			  unsigned long end, unsigned int batch, bool locked);
/*
 * filemap_get_folios_tag()'s walk: under rcu_read_lock, the entries
 * marked @m in [start, end], xas_retry on retry entries; writes their
 * indices to @out (at most @max) and returns how many.
 */
unsigned int rcx_walk_marked(struct xarray *xa, unsigned long start,
			     unsigned long end, unsigned int m,
			     unsigned long *out, unsigned int max);

/* ---- checks (scheduler context, no points) ---------------------------- */

/*
 * The xarray's mark invariants, when nobody holds xa_lock: no mark on an
 * empty or sibling slot; a node's slot is marked iff its child has the
 * mark somewhere; the root's mark (xa_flags) iff the head is marked.
 * Returns NULL or what is wrong (a static buffer).
 */
const char *rcx_marks_broken(struct xarray *xa);
/* Tasks inside a writing rcx_* operation (reset by rcx_new). */
extern unsigned int rcx_writers;
/* Whether xa_lock is held (by anyone). */
bool rcx_locked(struct xarray *xa);
/* The entry (value, 0 none) and marks (bit m) of @index, peeked. */
unsigned long rcx_peek(struct xarray *xa, unsigned long index,
		       unsigned int *marks);
/* xa_dump() to stderr. */
void rcx_dump(struct xarray *xa);

#endif /* REALCODE_XA_H */
