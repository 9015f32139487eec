// SPDX-License-Identifier: MIT
/*
 * realcode/xarray/xa-ops.c - tasks' calls into the real lib/xarray.c
 * (realcode/xa.h), compiled with the same instrumentation as the kernel
 * file, so the xarray.h inline functions it uses (xas_for_each_marked,
 * xas_retry, xa_is_value, ...) make their points too.
 *
 * Models: the callers' side of the XArray API as the page cache uses it
 * (filemap_add_folio's xas_store of a multi-index entry,
 * __split_huge_page's xas_split_alloc + xas_split,
 * tag_pages_for_writeback, filemap_get_folios_tag's walk), Linux v6.12.
 * Leaves out: everything of those functions that is not the XArray
 * (folios, reference counts, LRU, accounting).
 */
#include <linux/xarray.h>

#include "realcode/xa.h"

/* Tasks inside a writing operation (bookkeeping, not shared memory):
 * the mark invariants hold only when this is 0 and xa_lock is free. */
unsigned int rcx_writers;
#define WRITER(stmt) do { rcx_writers++; stmt; rcx_writers--; } while (0)

static inline unsigned long value_of(void *entry)
{
	return entry && xa_is_value(entry) ? xa_to_value(entry) : 0;
}

unsigned long rcx_store(struct xarray *xa, unsigned long index,
			unsigned long v)
{
	void *old;

	WRITER(old = xa_store(xa, index, xa_mk_value(v), GFP_KERNEL));
	return value_of(old);
}

void rcx_store_order(struct xarray *xa, unsigned long index,
		     unsigned int order, unsigned long v)
{
	XA_STATE_ORDER(xas, xa, index, order);

	rcx_writers++;
	do {
		xas_lock(&xas);
		xas_store(&xas, xa_mk_value(v));
		xas_unlock(&xas);
	} while (xas_nomem(&xas, GFP_KERNEL));
	rcx_writers--;
}

unsigned long rcx_load(struct xarray *xa, unsigned long index)
{
	return value_of(xa_load(xa, index));
}

unsigned long rcx_erase(struct xarray *xa, unsigned long index)
{
	void *old;

	WRITER(old = xa_erase(xa, index));
	return value_of(old);
}

void rcx_set_mark(struct xarray *xa, unsigned long index, unsigned int m)
{
	WRITER(xa_set_mark(xa, index, (xa_mark_t)m));
}

void rcx_clear_mark(struct xarray *xa, unsigned long index, unsigned int m)
{
	WRITER(xa_clear_mark(xa, index, (xa_mark_t)m));
}

bool rcx_get_mark(struct xarray *xa, unsigned long index, unsigned int m)
{
	return xa_get_mark(xa, index, (xa_mark_t)m);
}

unsigned long rcx_find_marked(struct xarray *xa, unsigned long from,
			      unsigned long max, unsigned int m)
{
	unsigned long index = from;

	if (!xa_find(xa, &index, max, (xa_mark_t)m))
		return RCX_NONE;
	return index;
}

bool rcx_marked(struct xarray *xa, unsigned int m)
{
	return xa_marked(xa, (xa_mark_t)m);
}

void rcx_split(struct xarray *xa, unsigned long index, unsigned int old_order,
	       unsigned int new_order)
{
	XA_STATE_ORDER(xas, xa, index, new_order);
	void *entry = xa_load(xa, index);

	rcx_writers++;
	xas_split_alloc(&xas, entry, old_order, GFP_KERNEL);
	if (!xas_error(&xas)) {
		xas_lock(&xas);
		xas_split(&xas, entry, old_order);
		xas_unlock(&xas);
	}
	rcx_writers--;
}

unsigned int rcx_tag_walk(struct xarray *xa, unsigned long start,
			  unsigned long end, unsigned int batch, bool locked)
{
	XA_STATE(xas, xa, start);
	unsigned int tagged = 0;
	void *page;

	rcx_writers++;
	if (locked)
		xas_lock_irq(&xas);
	else
		rcu_read_lock();
	xas_for_each_marked(&xas, page, end, XA_MARK_0) {
		xas_set_mark(&xas, XA_MARK_2);
		if (++tagged % batch)
			continue;

		xas_pause(&xas);
		if (locked) {
			xas_unlock_irq(&xas);
			xas_lock_irq(&xas);
		} else {
			rcu_read_unlock();
			rcu_read_lock();
		}
	}
	if (locked)
		xas_unlock_irq(&xas);
	else
		rcu_read_unlock();
	rcx_writers--;
	return tagged;
}

unsigned int rcx_walk_marked(struct xarray *xa, unsigned long start,
			     unsigned long end, unsigned int m,
			     unsigned long *out, unsigned int max)
{
	XA_STATE(xas, xa, start);
	unsigned int n = 0;
	void *entry;

	rcu_read_lock();
	xas_for_each_marked(&xas, entry, end, (xa_mark_t)m) {
		if (xas_retry(&xas, entry))
			continue;
		if (n < max)
			out[n] = xas.xa_index;
		n++;
	}
	rcu_read_unlock();
	return n;
}
