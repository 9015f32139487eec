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

#endif
