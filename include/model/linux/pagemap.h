/* SPDX-License-Identifier: MIT */
/*
 * The page cache API of the model (include/linux/pagemap.h,
 * mm/filemap.c), v6.18.
 */
#ifndef WPSIM_MODEL_LINUX_PAGEMAP_H
#define WPSIM_MODEL_LINUX_PAGEMAP_H

#include "model/linux/fs.h"

/* __filemap_get_folio flags (include/linux/pagemap.h). */
#define FGP_ACCESSED	(1u << 0)
#define FGP_LOCK	(1u << 1)
#define FGP_CREAT	(1u << 2)
#define FGP_WRITE	(1u << 3)
#define FGP_NOFS	(1u << 4)
#define FGP_NOWAIT	(1u << 5)
#define FGP_FOR_MMAP	(1u << 6)
#define FGP_STABLE	(1u << 7)
#define FGP_DONTCACHE	(1u << 8)
/*
 * Model-only: the lookup of filemap_read (filemap_get_read_batch, and
 * filemap_create_folio for a missing folio), which never clears
 * PG_dropbehind (mm/filemap.c v6.18; issue 30 item 8).  Not a kernel
 * flag: the model's read looks folios up through __filemap_get_folio.
 */
#define M_FGP_READ	(1u << 16)
#define FGP_WRITEBEGIN	(FGP_LOCK | FGP_WRITE | FGP_CREAT | FGP_STABLE)

/*
 * The suggested order of a folio to create, in the flags' top bits
 * (include/linux/pagemap.h v6.18: fgf_set_order puts it at bit 26 and
 * FGF_GET_ORDER reads it back).  Kernel: filemap_get_order, v6.18: the
 * order of the largest power of two not above @size, 0 at or below a
 * page.
 */
#define M_FGF_ORDER_SHIFT	26
#define FGF_GET_ORDER(fgp)	((fgp) >> M_FGF_ORDER_SHIFT)

static inline unsigned int km_filemap_get_order(size_t size)
{
	unsigned int shift = 0;

	while (shift < 63 && ((size_t)2 << shift) <= size)
		shift++;
	if (!size || shift <= PAGE_SHIFT)
		return 0;
	return shift - PAGE_SHIFT;
}

static inline unsigned int km_fgf_set_order(size_t size)
{
	unsigned int order = km_filemap_get_order(size);

	if (!order)
		return 0;
	return order << M_FGF_ORDER_SHIFT;
}

/*
 * The orders a mapping's folios may have (include/linux/pagemap.h
 * v6.18 mapping_min_folio_order, mapping_max_folio_order,
 * mapping_large_folio_support, mapping_max_folio_size,
 * mapping_align_index): the model keeps them as two plain fields set
 * at setup (struct km_address_space.folio_order and max_folio_order),
 * where the kernel packs them in mapping->flags.
 */
static inline unsigned int
km_mapping_min_folio_order(const struct km_address_space *mapping)
{
	return mapping->folio_order;
}

static inline unsigned int
km_mapping_max_folio_order(const struct km_address_space *mapping)
{
	return mapping->max_folio_order;
}

static inline bool
km_mapping_large_folio_support(const struct km_address_space *mapping)
{
	return mapping->max_folio_order > 0;
}

static inline size_t
km_mapping_max_folio_size(const struct km_address_space *mapping)
{
	return PAGE_SIZE << mapping->max_folio_order;
}

static inline pgoff_t
km_mapping_align_index(const struct km_address_space *mapping, pgoff_t index)
{
	return index & ~((1UL << mapping->folio_order) - 1);
}

/* An ERR_PTR-like result: folio or -errno. */
struct km_folio_or_err {
	struct km_folio *folio;
	int err;
	bool created;		/* model: the lookup created the folio */
};

void km_folio_lock(struct km_folio *folio);
bool km_folio_trylock(struct km_folio *folio);
void km_folio_unlock(struct km_folio *folio);
void km_folio_wait_bit(struct km_folio *folio, int bit_nr);
void km_folio_wait_locked(struct km_folio *folio);
void km_folio_get(struct km_folio *folio);
void km_folio_put(struct km_folio *folio);

struct km_folio *m_folio_lookup(struct km_address_space *mapping,
				pgoff_t index);
struct km_folio *m_folio_by_id(uint32_t id);
struct km_folio *km_filemap_alloc_folio(struct km_address_space *mapping,
					pgoff_t index, unsigned int order);
int km_filemap_add_folio(struct km_address_space *mapping,
			 struct km_folio *folio, pgoff_t index);
struct km_folio_or_err km___filemap_get_folio(struct km_address_space *mapping,
					      pgoff_t index,
					      unsigned int fgp_flags);
bool km_filemap_release_folio(struct km_folio *folio);
void km_filemap_remove_folio(struct km_folio *folio);
void km___filemap_remove_folio(struct km_folio *folio);
void km_filemap_free_folio(struct km_address_space *mapping,
			   struct km_folio *folio);
void km_folio_end_writeback(struct km_folio *folio);

/* RWF_DONTCACHE (model/mm/filemap.c, folio_unmap_invalidate in
 * model/mm/truncate.c) */
void km_folio_end_dropbehind(struct km_folio *folio);
void km_filemap_end_dropbehind(struct km_folio *folio);
int km_folio_unmap_invalidate(struct km_address_space *mapping,
			      struct km_folio *folio);
void km_folio_mark_dropbehind(struct km_folio *folio);
void m_dontcache_account(struct km_folio *folio, long nr);
void m_dontcache_unaccount(struct km_folio *folio, long nr);
void m_dontcache_sub(struct km_folio *folio, long nr);
/* Seed 003 5/7 and 6/7, from the v12 cover letter (model/mm/filemap.c) */
bool m_dontcache_keeps_partial(struct km_address_space *mapping, loff_t pos,
			       size_t len);
void m_dontcache_write_partial(struct km_folio *folio, loff_t pos,
			       size_t len);
void km_filemap_dontcache_edge_complete(struct km_address_space *mapping,
					loff_t pos);
void m_dontcache_sync_edges(struct km_address_space *mapping, loff_t pos,
			    long count);
int km_filemap_flush_range(struct km_address_space *mapping, loff_t start,
			   loff_t end);

bool km_mapping_tagged(struct km_address_space *mapping, int tag);
loff_t km_mapping_seek_hole_data(struct km_address_space *mapping,
				 loff_t start, loff_t end, bool seek_data);
long km_filemap_read(struct km_kiocb *iocb, size_t count, uint32_t *out);
unsigned int km_filemap_get_folios_tag(struct km_address_space *mapping,
				       pgoff_t *start, pgoff_t end, int tag,
				       struct km_writeback_control *wbc);
/* --variant sync_tag=dirty (model/mm/page-writeback.c). */
bool m_sync_tag_dirty(void);

/* The page cache's slots (model/lib/xarray.c). */
void m_xa_init(struct km_address_space *mapping, const char *name,
	       bool long_run);
/* Is block @b (indices b * M_XA_BLOCK on) of @mapping's slots there
 * (a long run: has one of them an entry or a mark)?  A peek, for
 * checks, dumps and setup. */
bool m_xa_block_present(const struct km_address_space *mapping,
			unsigned long b);
/* A long run's words (one per index with an entry or a mark). */
unsigned long m_xa_words_count(const struct km_address_space *mapping);
uint64_t m_xa_load_entry(struct km_address_space *mapping, pgoff_t index);
void m_xa_store_entry(struct km_address_space *mapping, pgoff_t index,
		      uint64_t id);
void m_xa_store_marks(struct km_address_space *mapping, pgoff_t index,
		      uint64_t marks);
uint64_t m_xa_marks_also(struct km_address_space *mapping, pgoff_t index);
/* The xarray's marks (model/lib/xarray.c). */
bool m_xa_get_mark(struct km_address_space *mapping, pgoff_t index, int tag);
void m_xa_set_mark(struct km_address_space *mapping, pgoff_t index, int tag);
pgoff_t m_xa_next_marked(struct km_address_space *mapping, pgoff_t index,
			 pgoff_t last, pgoff_t extent, int tag);
void m_xa_marks_index(struct km_address_space *mapping);
void m_xa_marks_index_update(struct km_address_space *mapping,
			     pgoff_t index);
pgoff_t m_xa_marks_index_next(struct km_address_space *mapping,
			      pgoff_t index, int tag);
/* Reclaim at a page-cache limit (model/mm/vmscan.c). */
void m_lru_add(struct km_folio *folio);
void m_lru_del(struct km_folio *folio);
bool m_folio_try_get(struct km_folio *folio);
void m_reclaim_for(unsigned long nr);
void m_folio_free(struct km_folio *folio);
struct km_folio *m_folio_lookup_get(struct km_address_space *mapping,
				    pgoff_t index);
void m_xa_clear_mark(struct km_address_space *mapping, pgoff_t index, int tag);

void km_mapping_set_error(struct km_address_space *mapping, int error);
int km_filemap_fdatawrite_wbc(struct km_address_space *mapping,
			      struct km_writeback_control *wbc);
int km_filemap_check_errors(struct km_address_space *mapping);
int km_filemap_write_and_wait_range(struct km_address_space *mapping,
				    loff_t lstart, loff_t lend);
int km_filemap_invalidate_pages(struct km_address_space *mapping, loff_t pos,
				loff_t end, bool nowait);
int km_kiocb_invalidate_pages(struct km_kiocb *iocb, size_t count);
/* mm/filemap.c: before a direct read (model/mm/filemap.c). */
bool km_filemap_range_needs_writeback(struct km_address_space *mapping,
				      loff_t start_byte, loff_t end_byte);
int km_kiocb_write_and_wait(struct km_kiocb *iocb, size_t count);
void km_kiocb_invalidate_post_direct_write(struct km_kiocb *iocb,
					   size_t count);
int km_invalidate_inode_pages2_range(struct km_address_space *mapping,
				     pgoff_t start, pgoff_t end);
int km_filemap_fdatawrite_range(struct km_address_space *mapping, loff_t start,
				loff_t end);
int km___filemap_fdatawrite_range(struct km_address_space *mapping,
				  loff_t start, loff_t end, int sync_mode);
/* mm/truncate.c: POSIX_FADV_DONTNEED's eviction (model/mm/truncate.c). */
long km_mapping_evict_folio(struct km_address_space *mapping,
			    struct km_folio *folio);
unsigned long km_mapping_try_invalidate(struct km_address_space *mapping,
					pgoff_t start, pgoff_t end,
					unsigned long *nr_failed);
void km___filemap_fdatawait_range(struct km_address_space *mapping,
				  loff_t start, loff_t end);
int km_file_check_and_advance_wb_err(struct km_file *file);
int km_file_fdatawait_range(struct km_file *file, loff_t start_byte,
			    loff_t end_byte);
int km_file_write_and_wait_range(struct km_file *file, loff_t lstart,
				 loff_t lend);

/* Content copies: one scheduling point each. */
void m_folio_copy_in(struct km_folio *folio, size_t offset, size_t len,
		     uint32_t data_id);
void m_folio_zero(struct km_folio *folio, size_t offset, size_t len);
/* Copy out into @out (one id per sector). */
void m_folio_copy_out(struct km_folio *folio, size_t offset, size_t len,
		      uint32_t *out);
/*
 * The content without a point (inside a step another primitive opened:
 * the device's DMA, setup, checks).  m_folio_fill: sectors [@first,
 * @first + @n) := @id; m_folio_ids: the array of an id per sector,
 * made from the folio's one id if it had none; m_folio_ids_out: sectors
 * [@first, @first + @n) into @out.
 */
void m_folio_fill(struct km_folio *folio, size_t first, size_t n,
		  uint32_t id);
uint32_t *m_folio_ids(struct km_folio *folio);
void m_folio_ids_out(const struct km_folio *folio, size_t first, size_t n,
		     uint32_t *out);

#endif
