/* SPDX-License-Identifier: MIT */
/*
 * Writeback control and the page-writeback entry points
 * (include/linux/writeback.h, mm/page-writeback.c), v6.18.
 */
#ifndef WPSIM_MODEL_LINUX_WRITEBACK_H
#define WPSIM_MODEL_LINUX_WRITEBACK_H

#include "model/linux/fs.h"

enum km_writeback_sync_modes { WB_SYNC_NONE, WB_SYNC_ALL };

/* PAGEVEC_SIZE (include/linux/pagevec.h, v6.18): a folio batch's size. */
#define KM_PAGEVEC_SIZE	31

struct km_writeback_control {
	long nr_to_write;
	long pages_skipped;
	loff_t range_start, range_end;	/* bytes, end inclusive */
	enum km_writeback_sync_modes sync_mode;
	bool range_cyclic;
	bool tagged_writepages;
	/* writeback_iter state: the next index and the folio batch */
	pgoff_t index, end;
	int saved_err;
	bool started;
	struct km_folio *fbatch[KM_PAGEVEC_SIZE];	/* referenced */
	unsigned int fbatch_nr, fbatch_i;
};

/* Dirtying */
bool km_folio_mark_dirty(struct km_folio *folio);
bool km_filemap_dirty_folio(struct km_address_space *mapping,
			    struct km_folio *folio);
void km___folio_mark_dirty(struct km_folio *folio,
			   struct km_address_space *mapping, int warn);
void km_folio_account_dirtied(struct km_folio *folio,
			      struct km_address_space *mapping);
bool km_folio_redirty_for_writepage(struct km_writeback_control *wbc,
				    struct km_folio *folio);

/* Cleaning */
void km_folio_account_cleaned(struct km_folio *folio,
			      struct km_bdi_writeback *wb);
void km___folio_cancel_dirty(struct km_folio *folio);
void km_folio_cancel_dirty(struct km_folio *folio);
bool km_folio_clear_dirty_for_io(struct km_folio *folio);

/* Writeback state */
void km___folio_start_writeback(struct km_folio *folio, bool keep_write);
void km_folio_start_writeback(struct km_folio *folio);
bool km___folio_end_writeback(struct km_folio *folio);
void km_folio_wait_writeback(struct km_folio *folio);
void km_folio_wait_stable(struct km_folio *folio);

/* The walk */
void km_tag_pages_for_writeback(struct km_address_space *mapping,
				pgoff_t start, pgoff_t end);
struct km_folio *km_writeback_iter(struct km_address_space *mapping,
				   struct km_writeback_control *wbc,
				   struct km_folio *folio, int *error);
int km_do_writepages(struct km_address_space *mapping,
		     struct km_writeback_control *wbc);

/* Throttling */
#define BDP_ASYNC 0x0001
int km_balance_dirty_pages_ratelimited_flags(struct km_address_space *mapping,
					     unsigned int flags);

#endif
