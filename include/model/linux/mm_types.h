/* SPDX-License-Identifier: MIT */
/*
 * struct folio and its flags (include/linux/mm_types.h,
 * include/linux/page-flags.h), v6.18, as the model keeps them.
 *
 * Every field that two tasks can touch is a struct sim_word, so each access
 * is a scheduling point.  Fields fixed at allocation (index, order, owner)
 * are plain.  Content is tracked per 512-byte sector as the id of the write
 * that produced it (0 = zeroes), so a lost, torn or zeroed write is
 * visible; a folio whose sectors all hold one id keeps that id alone
 * (struct km_folio.content).
 */
#ifndef WPSIM_MODEL_LINUX_MM_TYPES_H
#define WPSIM_MODEL_LINUX_MM_TYPES_H

#include "model/linux/types.h"
#include "sim/arena.h"
#include "sim/shared.h"

/*
 * Folio flag bits (enum pageflags).  The numbers are the model's; the
 * names and meanings are the kernel's.
 */
enum km_pageflags {
	PG_locked,
	PG_writeback,
	PG_referenced,
	PG_uptodate,
	PG_dirty,
	PG_lru,
	PG_head,
	PG_waiters,
	PG_active,
	PG_workingset,
	PG_owner_priv_1,
	PG_reclaim,
	PG_dropbehind,
	PG_private,
	KM_NR_PAGEFLAGS,
};

/* The shared mapping's PTE of a folio (one VMA per file in the model). */
#define M_PTE_PRESENT	(1u << 0)
#define M_PTE_WRITE	(1u << 1)
#define M_PTE_DIRTY	(1u << 2)

struct km_address_space;

struct km_folio {
	/*
	 * Plain fields first, then the queue and the words (4-aligned,
	 * 12 bytes each): 192 bytes, a cached page's largest share of
	 * model state (issue 28; docs/timed-mode.md).
	 */
	struct km_address_space *owner;	/* the mapping it was created for */
	pgoff_t index;			/* first page index */
	/*
	 * Content: one write id per sector; copies are one point each.
	 * M_FOLIO_ONE(id) while every sector holds @id (a folio written
	 * whole, or read from one write), else the address of an array of
	 * an id per sector: a page written whole costs no array (issue
	 * 28, bytes per cached page).  Read with m_folio_sector().
	 */
	uintptr_t content;
	uint32_t id;			/* handle: 1.., printed in dumps */
	/* Model-only: the LRU (model/mm/vmscan.c), by folio id; 0 = none. */
	uint32_t lru_prev, lru_next;
	uint8_t order;			/* nr pages = 1 << order */
	bool on_lru;

	struct sim_waitq waitq;		/* folio_wait_bit (kernel: hashed) */
	struct sim_word flags;		/* PG_* bits, atomic bitops */
	/* folio->mapping: 1 while in the page cache of owner, else 0 */
	struct sim_word mapping;
	struct sim_word refcount;
	struct sim_word mapcount;	/* PTEs mapping it: 0 or 1 */
	struct sim_word pte;		/* M_PTE_* of the one shared VMA */

	/* iomap_folio_state (folio->private) */
	struct sim_spinlock ifs_lock;
	struct sim_word ifs;		/* bit b: block b uptodate; bit 32+b: dirty */
	struct sim_word ifs_attached;

	/*
	 * Model-only: the folio is counted in WB_DONTCACHE_DIRTY.  Our
	 * reading of seed 003 v11/v12 2/7 ("take a folio off
	 * WB_DONTCACHE_DIRTY only if it was counted there"), whose patch body
	 * is not public: the model keeps the fact on the folio.
	 */
	struct sim_word dontcache_counted;
	/*
	 * Model-only: the byte range [start, end) of the folio that
	 * RWF_DONTCACHE writes have covered, packed start | end << 32
	 * (M_DC_RANGE).  Our reading of seed 003 v11/v12 5/7 ("keeps a
	 * partially covered folio until the write that completes it"): the
	 * cover letter does not say how the series knows the folio is
	 * complete, so the model keeps one interval, under the folio lock.
	 */
	struct sim_word dontcache_written;
	struct sim_word data_version;	/* identity of the content; bumps */
};

_Static_assert(sizeof(struct km_folio) <= 192,
	       "a folio is at most 192 bytes (issue 28, bytes per page)");

/* struct sim_word.tag of a folio's flags word, set where the folio is
 * made (km_filemap_alloc_folio): the world check finds the folio of a
 * stored word without a lookup (model/world.c). */
#define M_WORD_TAG_FOLIO_FLAGS	0x46u	/* 8 bits */

#define M_DC_RANGE(start, end) ((uint64_t)(start) | (uint64_t)(end) << 32)
#define M_DC_RANGE_START(r)	((size_t)((r) & 0xffffffffu))
#define M_DC_RANGE_END(r)	((size_t)((r) >> 32))

/* struct km_folio.content holding one id in every sector (the low bit
 * tags it: an array's address is 16-byte aligned). */
#define M_FOLIO_ONE(id)		(((uintptr_t)(id) << 1) | 1)
#define M_FOLIO_IS_ONE(content)	(((content) & 1) != 0)

/* The write id in sector @s of @folio (a peek: no point). */
static inline uint32_t m_folio_sector(const struct km_folio *folio, size_t s)
{
	if (M_FOLIO_IS_ONE(folio->content))
		return (uint32_t)(folio->content >> 1);
	return ((const uint32_t *)folio->content)[s];
}

static inline unsigned long km_folio_nr_pages(const struct km_folio *folio)
{
	return 1UL << folio->order;
}

static inline size_t km_folio_size(const struct km_folio *folio)
{
	return PAGE_SIZE << folio->order;
}

static inline loff_t km_folio_pos(const struct km_folio *folio)
{
	return (loff_t)(folio->index << PAGE_SHIFT);
}

static inline bool m_folio_flag_peek(const struct km_folio *folio, int bit)
{
	return (sim_word_peek(&folio->flags) >> bit) & 1;
}

#endif
