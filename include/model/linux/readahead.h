/* SPDX-License-Identifier: MIT */
/*
 * Readahead of the model (include/linux/fs.h struct file_ra_state,
 * include/linux/pagemap.h struct readahead_control, mm/readahead.c),
 * v6.18: the window arithmetic of page_cache_sync_ra and
 * page_cache_async_ra (model/mm/readahead.c, docs/model/readahead.md).
 */
#ifndef WPSIM_MODEL_LINUX_READAHEAD_H
#define WPSIM_MODEL_LINUX_READAHEAD_H

#include "model/linux/fs.h"
#include "model/linux/mm_types.h"

/* PG_readahead shares PG_reclaim's bit (include/linux/page-flags.h). */
#define PG_readahead	PG_reclaim

/* struct km_file_ra_state is in model/linux/fs.h (include/linux/fs.h). */

/*
 * struct readahead_control (include/linux/pagemap.h), with the model's
 * record of the read it asks for: do_page_cache_ra's range, clamped to
 * i_size, and where page_cache_ra_unbounded puts PG_readahead.
 */
struct km_readahead_control {
	struct km_file *file;
	struct km_address_space *mapping;
	struct km_file_ra_state *ra;
	pgoff_t _index;
	/* The backing device's io_pages (bdi->io_pages: max_sectors_kb in
	 * pages), which lets an oversized read exceed ra_pages. */
	unsigned long io_pages;
	bool random;			/* FMODE_RANDOM (POSIX_FADV_RANDOM) */
	/* An IOCB_DONTCACHE read's: new folios are dropbehind
	 * (ractl_alloc_folio, v6.18). */
	bool dropbehind;
	/* page_cache_ra_unbounded's batch: folios [_index, _index +
	 * _nr_pages) are locked in the page cache, for read_pages. */
	unsigned long _nr_pages;
	/* Model (not kernel state): false in the window's unit tests,
	 * which record the read without doing it; filemap_read sets it. */
	bool submit;
	/* Model record (not kernel state): the last read asked for. */
	pgoff_t read_index;		/* first page */
	unsigned long read_nr;		/* pages, 0: none */
	unsigned long read_mark;	/* PG_readahead's page, -1: none */
	unsigned int reads;		/* do_page_cache_ra calls */
};

/* file_ra_state_init: ra_pages from the backing device, prev_pos -1. */
void km_file_ra_state_init(struct km_file_ra_state *ra,
			   unsigned int ra_pages);
unsigned long km_get_init_ra_size(unsigned long size, unsigned long max);
unsigned long km_get_next_ra_size(struct km_file_ra_state *ra,
				  unsigned long max);
unsigned long km_ractl_max_pages(struct km_readahead_control *ractl,
				 unsigned long req_size);
pgoff_t km_page_cache_prev_miss(struct km_address_space *mapping,
				pgoff_t index, unsigned long max_scan);
pgoff_t km_page_cache_next_miss(struct km_address_space *mapping,
				pgoff_t index, unsigned long max_scan);
void km_page_cache_sync_ra(struct km_readahead_control *ractl,
			   unsigned long req_count);
void km_page_cache_async_ra(struct km_readahead_control *ractl,
			    struct km_folio *folio, unsigned long req_count);
void km_page_cache_ra_unbounded(struct km_readahead_control *ractl,
				unsigned long nr_to_read,
				unsigned long lookahead_size);
/* VM_READAHEAD_PAGES (include/linux/mm.h): 128 KiB, the bdi default. */
#define KM_VM_READAHEAD_PAGES	(131072 / PAGE_SIZE)

#endif
