// SPDX-License-Identifier: MIT
/*
 * model/mm/readahead.c - the readahead window: how a buffered read's
 * cache miss (page_cache_sync_ra) and its hit on a PG_readahead folio
 * (page_cache_async_ra) size and place the next read-ahead.
 *
 * Models mm/readahead.c of v6.18: file_ra_state_init, get_init_ra_size,
 * get_next_ra_size, ractl_max_pages, page_cache_sync_ra,
 * page_cache_async_ra, force_page_cache_ra, do_page_cache_ra (its
 * clamp to the page holding the file's last byte); the page-cache
 * history it reads, page_cache_prev_miss and page_cache_next_miss, is in
 * model/mm/filemap.c (each slot lookup a scheduling point).  The
 * source read is Debian's linux-source-6.12 (the v6.18 mirror was too
 * large to fetch this session): these functions have the shape of Jan
 * Kara's 2024 rework (ondemand_readahead folded into the two entries),
 * which 6.12 already has; a v6.18 change to them would be a divergence
 * not yet checked (docs/model/readahead.md).
 *
 * Also page_cache_ra_unbounded and read_pages: the folios allocated,
 * added locked (PG_readahead on the mark) and handed to ->readahead
 * (XFS: iomap_readahead's asynchronous bios) or ->read_folio.  What a
 * readahead reads is also recorded in the struct km_readahead_control
 * (read_index, read_nr, read_mark); it is performed only when
 * ractl->submit is set, by filemap_read for a file with ra_pages (wpsim
 * fio: read_ahead_kb 128 KiB; a scenario's device: read_ahead_kb=N);
 * exploration's files have ra_pages 0 by default, and then only a NOWAIT
 * read's miss runs page_cache_sync_ra (docs/model/readahead.md).  Leaves out: large folios in page_cache_ra_order
 * (the order-0 fallback is always taken: new_order, min_order),
 * blk_cgroup_congested, MADV_HUGEPAGE, mmap readahead
 * (page_cache_ra_order from the fault path, mmap_miss), the 2 MiB chunks
 * of force_page_cache_ra (one chunk), and the RCU in the miss scans.
 */
#include "model/linux/pagemap.h"
#include "model/linux/readahead.h"
#include "model/world.h"

/**
 * km_file_ra_state_init - a new file's readahead state.
 * Kernel: mm/readahead.c file_ra_state_init, v6.18.
 * Context: any; no scheduling point (the file is not shared yet).
 * Return: none.
 * Divergences: ra_pages is given (the kernel reads the inode's bdi).
 */
void km_file_ra_state_init(struct km_file_ra_state *ra,
			   unsigned int ra_pages)
{
	*ra = (struct km_file_ra_state){ .ra_pages = ra_pages,
					 .prev_pos = -1 };
}

static unsigned long roundup_pow_of_two(unsigned long n)
{
	unsigned long p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/**
 * km_get_init_ra_size - the first window of a sequential stream.
 * Kernel: mm/readahead.c get_init_ra_size, v6.18: the request rounded up
 * to a power of two, then 4x while small (up to max/32), 2x up to
 * max/4, else max.
 * Context: any; pure.
 * Return: pages.
 */
unsigned long km_get_init_ra_size(unsigned long size, unsigned long max)
{
	unsigned long newsize = roundup_pow_of_two(size);

	if (newsize <= max / 32)
		newsize = newsize * 4;
	else if (newsize <= max / 4)
		newsize = newsize * 2;
	else
		newsize = max;
	return newsize;
}

/**
 * km_get_next_ra_size - the next window of a sequential stream.
 * Kernel: mm/readahead.c get_next_ra_size, v6.18: 4x below max/16, 2x up
 * to max/2, else max.
 * Context: any; pure.
 * Return: pages.
 */
unsigned long km_get_next_ra_size(struct km_file_ra_state *ra,
				  unsigned long max)
{
	unsigned long cur = ra->size;

	if (cur < max / 16)
		return 4 * cur;
	if (cur <= max / 2)
		return 2 * cur;
	return max;
}

/**
 * km_ractl_max_pages - the window's bound for a request of @req_size.
 * Kernel: mm/readahead.c ractl_max_pages, v6.18: ra_pages, or for a
 * request larger than it up to the device's optimal I/O size
 * (bdi->io_pages).
 * Context: any; pure.
 * Return: pages.
 */
unsigned long km_ractl_max_pages(struct km_readahead_control *ractl,
				 unsigned long req_size)
{
	unsigned long max_pages = ractl->ra->ra_pages;

	if (req_size > max_pages && ractl->io_pages > max_pages)
		max_pages = req_size < ractl->io_pages ? req_size :
							 ractl->io_pages;
	return max_pages;
}

/*
 * read_pages: hand the batch of locked folios to ->readahead, which
 * starts their reads (the reads unlock them); without one, ->read_folio
 * each.  The batch is empty afterwards.  Divergences: no plug, no PSI;
 * the model's ->readahead takes every folio of the batch, so the
 * clean-up of folios it left (ra->size shrunk, folios removed) never
 * runs.
 */
static void read_pages(struct km_readahead_control *rac)
{
	const struct km_address_space_operations *aops = rac->mapping->a_ops;
	unsigned long nr = 1UL << rac->mapping->folio_order;

	if (!rac->_nr_pages)
		return;
	if (aops->readahead) {
		aops->readahead(rac);
	} else {
		for (unsigned long i = 0; i < rac->_nr_pages; i += nr) {
			struct km_folio *folio =
				m_folio_lookup(rac->mapping, rac->_index + i);

			km_folio_put(folio);	/* readahead_folio */
			aops->read_folio(folio);
		}
	}
	rac->_index += rac->_nr_pages;
	rac->_nr_pages = 0;
}

/**
 * km_page_cache_ra_unbounded - add @nr_to_read pages' folios, locked, to
 * the page cache from ractl->_index and start their reads.
 * Kernel: mm/readahead.c page_cache_ra_unbounded, v6.18: a page already
 * present ends the batch (read_pages) and is skipped; the folio at
 * _index + nr_to_read - lookahead_size gets PG_readahead; a folio whose
 * insertion fails ends the batch too; read_pages at the end; all of it
 * under the mapping's invalidate_lock shared (against truncate and hole
 * punch), also for an IOCB_NOWAIT read's readahead, as in v6.18.
 * Context: no locks held; takes the invalidate_lock shared; allocates;
 * takes xa_lock per insertion.
 * Return: none.
 * Divergences: no memalloc_nofs; filemap_add_folio cannot fail with
 * -ENOMEM; a present slot is read with one lookup (no RCU).
 */
void km_page_cache_ra_unbounded(struct km_readahead_control *ractl,
				unsigned long nr_to_read,
				unsigned long lookahead_size)
{
	struct km_address_space *mapping = ractl->mapping;
	unsigned long min_nrpages = 1UL << mapping->folio_order;
	pgoff_t index = ractl->_index & ~(pgoff_t)(min_nrpages - 1);
	unsigned long ra_folio_index, mark, i = 0;

	ra_folio_index = (ractl->_index + nr_to_read - lookahead_size +
			  min_nrpages - 1) & ~(min_nrpages - 1);
	mark = ra_folio_index - index;
	nr_to_read += ractl->_index - index;
	km_down_read(&mapping->invalidate_lock);
	ractl->_index = index;
	while (i < nr_to_read) {
		struct km_folio *folio;

		if (index + i >= m_file_pages_max)
			break;
		if (m_folio_lookup(mapping, index + i)) {
			read_pages(ractl);
			ractl->_index += min_nrpages;
			i = ractl->_index + ractl->_nr_pages - index;
			continue;
		}
		/* Direct reclaim at a page-cache limit (none: no-op). */
		m_reclaim_for(min_nrpages);
		folio = km_filemap_alloc_folio(mapping, index + i,
					       mapping->folio_order);
		/* Not visible yet: PG_readahead, and filemap_add_folio's
		 * __folio_set_locked, without a point. */
		if (i == mark)
			folio->flags.value |= 1ULL << PG_readahead;
		/* ractl_alloc_folio: a DONTCACHE read's folio is
		 * dropbehind (class AB of docs/model/fidelity.md). */
		if (ractl->dropbehind)
			folio->flags.value |= 1ULL << PG_dropbehind;
		folio->flags.value |= 1ULL << PG_locked;
		if (km_filemap_add_folio(mapping, folio, index + i) < 0) {
			folio->flags.value = 0;
			sim_word_write(&folio->refcount, 0);	/* folio_put */
			/* Freed in a long run, as km_folio_put does. */
			if (m_world()->long_run || m_world()->mem_pages)
				m_folio_free(folio);
			read_pages(ractl);
			ractl->_index += min_nrpages;
			i = ractl->_index + ractl->_nr_pages - index;
			continue;
		}
		ractl->_nr_pages += min_nrpages;
		i += min_nrpages;
	}
	read_pages(ractl);
	km_up_read(&mapping->invalidate_lock);
}

/*
 * do_page_cache_ra: nothing for an empty file or past its last page; the
 * count clamped to the page holding the last byte; then
 * page_cache_ra_unbounded: PG_readahead goes on the page at _index +
 * nr_to_read - lookahead_size (when lookahead_size is not 0 and that
 * page is read).  The model records the read (read_*) and performs it
 * when ractl->submit is set (filemap_read; the window's unit tests
 * leave it clear).
 */
static void do_page_cache_ra(struct km_readahead_control *ractl,
			     unsigned long nr_to_read,
			     unsigned long lookahead_size)
{
	loff_t isize = km_i_size_read(ractl->file->f_inode);
	pgoff_t index = ractl->_index, end_index;

	if (isize == 0)
		return;
	end_index = (pgoff_t)(isize - 1) >> PAGE_SHIFT;
	if (index > end_index)
		return;
	if (nr_to_read > end_index - index)
		nr_to_read = end_index - index + 1;
	ractl->read_index = index;
	ractl->read_nr = nr_to_read;
	ractl->read_mark = lookahead_size && lookahead_size <= nr_to_read ?
			   nr_to_read - lookahead_size : (unsigned long)-1;
	ractl->reads++;
	if (ractl->submit)
		km_page_cache_ra_unbounded(ractl, nr_to_read, lookahead_size);
}

/* force_page_cache_ra: the request as it is, bounded by the device. */
static void force_page_cache_ra(struct km_readahead_control *ractl,
				unsigned long nr_to_read)
{
	unsigned long max_pages = ractl->io_pages > ractl->ra->ra_pages ?
				  ractl->io_pages : ractl->ra->ra_pages;

	if (nr_to_read > max_pages)
		nr_to_read = max_pages;
	do_page_cache_ra(ractl, nr_to_read, 0);
}

/* page_cache_ra_order, order 0: the window as do_page_cache_ra reads it. */
static void page_cache_ra_order(struct km_readahead_control *ractl,
				struct km_file_ra_state *ra)
{
	do_page_cache_ra(ractl, ra->size, ra->async_size);
}

/**
 * km_page_cache_sync_ra - readahead on a cache miss at ractl->_index for
 * a read of @req_count pages.
 * Kernel: mm/readahead.c page_cache_sync_ra, v6.18: with ra_pages 0 (or
 * FMODE_RANDOM) one page, forced, and the state untouched; at the start
 * of the file, for a request above the bound, or right after the
 * previous read (index - prev_index <= 1) a new window of
 * get_init_ra_size with an async tail (size - req_count, or half);
 * otherwise the page-cache history decides: a run of cached pages no
 * longer than the request is a random read (the request only, state
 * untouched), a longer one (doubled if cached from index 0) becomes the
 * window with an async tail of 1.
 * Context: no locks; the history scan looks pages up.
 * Return: none; the read asked for is in ractl->read_*.
 * Divergences: those of the file's opening comment (order-0 reads only).
 */
void km_page_cache_sync_ra(struct km_readahead_control *ractl,
			   unsigned long req_count)
{
	pgoff_t index = ractl->_index;
	bool do_forced_ra = ractl->file && ractl->random;
	struct km_file_ra_state *ra = ractl->ra;
	unsigned long max_pages, contig_count;
	pgoff_t prev_index, miss;

	if (!ra->ra_pages) {
		if (!ractl->file)
			return;
		req_count = 1;
		do_forced_ra = true;
	}
	if (do_forced_ra) {
		force_page_cache_ra(ractl, req_count);
		return;
	}
	max_pages = km_ractl_max_pages(ractl, req_count);
	prev_index = (pgoff_t)(unsigned long long)ra->prev_pos >> PAGE_SHIFT;
	if (!index || req_count > max_pages || index - prev_index <= 1UL) {
		ra->start = index;
		ra->size = (unsigned int)km_get_init_ra_size(req_count,
							     max_pages);
		ra->async_size = ra->size > req_count ?
				 ra->size - (unsigned int)req_count :
				 ra->size >> 1;
		goto readit;
	}
	miss = km_page_cache_prev_miss(ractl->mapping, index - 1, max_pages);
	contig_count = index - miss - 1;
	if (contig_count <= req_count) {
		do_page_cache_ra(ractl, req_count, 0);
		return;
	}
	if (miss == (pgoff_t)-1)
		contig_count *= 2;
	ra->start = index;
	ra->size = (unsigned int)(contig_count + req_count < max_pages ?
				  contig_count + req_count : max_pages);
	ra->async_size = 1;
readit:
	ractl->_index = ra->start;
	page_cache_ra_order(ractl, ra);
}

/**
 * km_page_cache_async_ra - readahead on a hit of the PG_readahead
 * @folio at ractl->_index, for a read of @req_count pages.
 * Kernel: mm/readahead.c page_cache_async_ra, v6.18: nothing with
 * ra_pages 0, nor for a folio under writeback (PG_readahead shares its
 * bit with PG_reclaim); the mark is cleared; at the expected index
 * (the window's async start, rounded down to the folio) the window moves
 * on by its size and grows by get_next_ra_size, all of it async; else
 * (interleaved streams) the next miss after the folio gives the old
 * async size, which grows by the request and get_next_ra_size.
 * Context: no locks; clears PG_readahead (a folio flag: scheduling
 * point).
 * Return: none; the read asked for is in ractl->read_*.
 * Divergences: those of the file's opening comment.
 */
void km_page_cache_async_ra(struct km_readahead_control *ractl,
			    struct km_folio *folio, unsigned long req_count)
{
	struct km_file_ra_state *ra = ractl->ra;
	pgoff_t index = ractl->_index, expected, start;
	unsigned long max_pages, nr = km_folio_nr_pages(folio);

	if (!ra->ra_pages)
		return;
	if (sim_bit_test(&folio->flags, PG_writeback))
		return;
	sim_bit_clear(&folio->flags, PG_readahead);
	max_pages = km_ractl_max_pages(ractl, req_count);
	expected = (ra->start + ra->size - ra->async_size) & ~(pgoff_t)(nr - 1);
	if (index == expected) {
		unsigned long next = km_get_next_ra_size(ra, max_pages);

		ra->start += ra->size;
		ra->size = (unsigned int)(ra->size > next ? ra->size : next);
		ra->async_size = ra->size;
		goto readit;
	}
	start = km_page_cache_next_miss(ractl->mapping, index + 1, max_pages);
	if (!start || start - index > max_pages)
		return;
	ra->start = start;
	ra->size = (unsigned int)(start - index);
	ra->size += (unsigned int)req_count;
	ra->size = (unsigned int)km_get_next_ra_size(ra, max_pages);
	ra->async_size = ra->size;
readit:
	ractl->_index = ra->start;
	page_cache_ra_order(ractl, ra);
}
