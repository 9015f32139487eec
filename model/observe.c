// SPDX-License-Identifier: MIT
/*
 * model/observe.c - the model's state as conditions and end checks read
 * it: a page's folio and its fields, a block's uptodate state, an
 * io_uring request's counts, and the no-lost-data invariant shared by
 * the scenario language (f.lost_sectors) and the race harness (its end
 * check).
 *
 * Models nothing of the kernel: it peeks (sim_word_peek, no scheduling
 * point) at state the model keeps, between steps.  Leaves out: what no
 * condition reads (the block map's runs, the bdi's lists); the world's
 * own cross-module checks are model/world.c's.
 */
#include "model/observe.h"

#include "model/fs/xfs.h"
#include "model/io_uring/rw.h"
#include "model/world.h"

struct km_folio *m_world_folio_at(const struct km_inode *inode,
				  int64_t page)
{
	struct m_world *w = m_world();
	uint64_t id;

	if (page < 0 || page >= (int64_t)m_file_pages_max)
		return NULL;
	id = sim_word_peek(&m_xa_slot(&inode->i_data, page)->entry);
	if (!id || id > w->nr_folios)
		return NULL;
	return w->folios[id];
}

bool m_folio_block_uptodate(const struct km_folio *folio,
			    const struct km_inode *inode, size_t off)
{
	if (m_folio_flag_peek(folio, PG_uptodate))
		return true;
	return sim_word_peek(&folio->ifs_attached) &&
	       ((sim_word_peek(&folio->ifs) >> (off >> inode->i_blkbits)) & 1);
}

/* Lost sectors of @folio (clean, in a mapping); the first into @first. */
static int64_t folio_lost_sectors(const struct km_folio *folio,
				  struct m_lost_sector *first, int64_t lost)
{
	struct m_world *w = m_world();
	const struct km_inode *inode = folio->owner->host;
	loff_t isize = (loff_t)sim_word_peek(&inode->i_size);
	int64_t n = 0;

	for (size_t s = 0; s < km_folio_size(folio) >> SECTOR_SHIFT; s++) {
		loff_t pos = km_folio_pos(folio) + (loff_t)(s << SECTOR_SHIFT);
		uint32_t disk;

		if (pos >= isize)
			break;
		if (!m_folio_block_uptodate(folio, inode, s << SECTOR_SHIFT))
			continue;
		disk = m_extent_peek(inode, (unsigned long)
				     (pos >> inode->i_blkbits)) ==
		       M_EXT_WRITTEN ?
		       m_dev_data(&w->dev, m_inode_sector(inode, pos)) : 0;
		if (m_folio_sector(folio, s) == disk)
			continue;
		if (first && !lost && !n)
			*first = (struct m_lost_sector){
				.folio = folio->id, .sector = s,
				.cached = m_folio_sector(folio, s),
				.disk = disk };
		n++;
	}
	return n;
}

int64_t m_world_lost_sectors(const struct km_inode *inode,
			     struct m_lost_sector *first)
{
	struct m_world *w = m_world();
	int64_t lost = 0;

	for (uint32_t id = 1; id <= w->nr_folios; id++) {
		struct km_folio *folio = w->folios[id];

		if ((inode && folio->owner->host != inode) ||
		    !sim_word_peek(&folio->mapping) ||
		    m_folio_flag_peek(folio, PG_dirty) ||
		    (sim_word_peek(&folio->pte) & M_PTE_DIRTY))
			continue;
		lost += folio_lost_sectors(folio, first, lost);
	}
	return lost;
}

int64_t m_folio_field(const struct km_folio *folio, enum m_folio_field field,
		      unsigned int which)
{
	if (field == M_FOLIO_FIELD_PRESENT)
		return folio != NULL;
	if (!folio)
		return 0;
	switch (field) {
	case M_FOLIO_FIELD_FLAG:
		return m_folio_flag_peek(folio, (int)which);
	case M_FOLIO_FIELD_MAPPED:
		return sim_word_peek(&folio->mapcount) != 0;
	case M_FOLIO_FIELD_INDEX:
		return (int64_t)folio->index;
	case M_FOLIO_FIELD_PAGES:
		return (int64_t)km_folio_nr_pages(folio);
	case M_FOLIO_FIELD_MARK:
		return (sim_word_peek(&m_xa_slot(folio->owner,
						folio->index)->marks) >> which) & 1;
	case M_FOLIO_FIELD_PTE:
		return (sim_word_peek(&folio->pte) & which) != 0;
	default:
		return 0;
	}
}

int64_t m_io_uring_req_field(const struct m_io_uring_req *req,
			     enum m_uring_field field)
{
	switch (field) {
	case M_URING_FIELD_INLINE_DONE:
		return !req->punted && req->cqes;
	case M_URING_FIELD_PUNTED:
		return req->punted;
	case M_URING_FIELD_HANDOFFS:
		return req->handoffs;
	case M_URING_FIELD_INLINE_ATTEMPTS:
		return req->inline_attempts;
	case M_URING_FIELD_WORKER_ATTEMPTS:
		return req->worker_attempts;
	case M_URING_FIELD_CQES:
		return req->cqes;
	case M_URING_FIELD_INLINE_BYTES:
		return (int64_t)req->inline_bytes;
	}
	return 0;
}
