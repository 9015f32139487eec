/* SPDX-License-Identifier: MIT */
/*
 * model/observe.h - reading the model's state from outside an execution
 * step (conditions, reports, the harness's end checks): peeks only, no
 * scheduling point.  model/observe.c.
 */
#ifndef WPSIM_MODEL_OBSERVE_H
#define WPSIM_MODEL_OBSERVE_H

#include "model/linux/fs.h"
#include "model/linux/mm_types.h"

/* The folio at page @page of @inode's page cache, or NULL. */
struct km_folio *m_world_folio_at(const struct km_inode *inode,
				  int64_t page);

/*
 * Is the block at byte @off of @folio uptodate: PG_uptodate, or its bit
 * in the iomap_folio_state (the low bits of folio->ifs).
 */
bool m_folio_block_uptodate(const struct km_folio *folio,
			    const struct km_inode *inode, size_t off);

/* The first lost sector m_world_lost_sectors found. */
struct m_lost_sector {
	uint32_t folio;		/* its id */
	size_t sector;		/* in the folio */
	uint32_t cached, disk;	/* the data ids */
};

/*
 * The model's no-lost-data invariant: sectors inside EOF of @inode (NULL:
 * of every file) whose cached data is neither what a read of the file
 * finds on disk nor dirty (PG_dirty or a dirty PTE).  A read finds the
 * device's data in a written block and zeroes in any other (iomap zeroes
 * what is not IOMAP_MAPPED); blocks that are not uptodate hold nothing
 * the kernel relies on.  Return: how many; @first (may be NULL) gets the
 * first.
 */
int64_t m_world_lost_sectors(const struct km_inode *inode,
			     struct m_lost_sector *first);

/* A folio's state as conditions name it (m_folio_field). */
enum m_folio_field {
	M_FOLIO_FIELD_FLAG,	/* PG_ bit @which */
	M_FOLIO_FIELD_PRESENT,	/* the folio exists (the rest read 0 if not) */
	M_FOLIO_FIELD_MAPPED,	/* mapcount != 0 */
	M_FOLIO_FIELD_INDEX,
	M_FOLIO_FIELD_PAGES,
	M_FOLIO_FIELD_MARK,	/* xarray mark PAGECACHE_TAG_ @which */
	M_FOLIO_FIELD_PTE,	/* bit M_PTE_ @which of the shared VMA's PTE */
};

/* @field of @folio (may be NULL: absent), as 0/1 or a number. */
int64_t m_folio_field(const struct km_folio *folio, enum m_folio_field field,
		      unsigned int which);

/* What an io_uring write request did (model instrumentation). */
enum m_uring_field {
	M_URING_FIELD_INLINE_DONE,	/* completed inline, not punted */
	M_URING_FIELD_PUNTED,
	M_URING_FIELD_HANDOFFS,
	M_URING_FIELD_INLINE_ATTEMPTS,
	M_URING_FIELD_WORKER_ATTEMPTS,
	M_URING_FIELD_CQES,
	M_URING_FIELD_INLINE_BYTES,
};

struct m_io_uring_req;
int64_t m_io_uring_req_field(const struct m_io_uring_req *req,
			     enum m_uring_field field);

#endif
