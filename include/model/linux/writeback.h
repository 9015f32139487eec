/* SPDX-License-Identifier: MIT */
/*
 * Writeback control and the page-writeback entry points
 * (include/linux/writeback.h, mm/page-writeback.c), v6.18.
 */
#ifndef WPSIM_MODEL_LINUX_WRITEBACK_H
#define WPSIM_MODEL_LINUX_WRITEBACK_H

#include "model/linux/bio.h"
#include "model/linux/fs.h"

enum km_writeback_sync_modes { WB_SYNC_NONE, WB_SYNC_ALL };

/* PAGEVEC_SIZE (include/linux/pagevec.h, v6.18): a folio batch's size. */
#define KM_PAGEVEC_SIZE	31

struct km_writeback_control {
	long nr_to_write;
	long pages_skipped;
	loff_t range_start, range_end;	/* bytes, end inclusive */
	enum km_writeback_sync_modes sync_mode;
	bool for_kupdate;		/* the flusher's old-data pass */
	bool for_background;		/* the flusher over bg_thresh */
	bool range_cyclic;
	bool tagged_writepages;
	/* writeback_iter state: the next index and the folio batch */
	pgoff_t index, end;
	int saved_err;
	bool started;
	struct km_folio *fbatch[KM_PAGEVEC_SIZE];	/* referenced */
	unsigned int fbatch_nr, fbatch_i;
};

/**
 * km_wbc_to_write_flags - the request flags a writeback bio carries.
 * Kernel: include/linux/writeback.h wbc_to_write_flags, v6.18.
 * Context: any; pure.
 * Return: REQ_SYNC for WB_SYNC_ALL (fsync, sync), REQ_BACKGROUND for
 * the flusher's kupdate and background passes, else 0.
 * Divergences: the model's wbc has no for_reclaim and no cgroup
 * writeback (neither changes these flags).
 */
static inline unsigned int
km_wbc_to_write_flags(const struct km_writeback_control *wbc)
{
	unsigned int flags = 0;

	if (wbc->sync_mode == WB_SYNC_ALL)
		flags |= REQ_SYNC;
	else if (wbc->for_kupdate || wbc->for_background)
		flags |= REQ_BACKGROUND;
	return flags;
}

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
/* --variant uring=v1: the running task's asynchronous pause end in ns
 * of virtual time, 0 if it is not throttled (seed 004 v1 13/14's
 * write_delay()). */
uint64_t m_bdp_write_delay_ns(struct km_address_space *mapping);

/*
 * Dirty throttling's arithmetic (mm/page-writeback.c, v6.18), pure
 * functions of their arguments so that tests check them against the
 * kernel's formulas.  Time is in jiffies of KM_HZ (CONFIG_HZ=250: the
 * default of x86 defconfigs and this machine's kernel); bandwidths and
 * rate limits in pages per second, as the kernel keeps them.
 */
#define KM_HZ			250
#define KM_NS_PER_JIFFY		(1000000000ull / KM_HZ)
#define KM_MAX_PAUSE		(KM_HZ / 5 > 1 ? KM_HZ / 5 : 1)
#define KM_DIRTY_POLL_THRESH	(128 >> (PAGE_SHIFT - 10))
#define KM_BANDWIDTH_INTERVAL	(KM_HZ / 5 > 1 ? KM_HZ / 5 : 1)
#define KM_RATELIMIT_CALC_SHIFT	10
#define KM_INIT_BW		(100ul << (20 - PAGE_SHIFT))
#define KM_MIN_WRITEBACK_PAGES	(4096ul >> (PAGE_SHIFT - 10))
#define KM_DIRTY_SCOPE		8

/* struct dirty_throttle_control, the global domain's fields. */
struct km_dirty_throttle_control {
	unsigned long avail, dirty, thresh, bg_thresh;
	unsigned long wb_dirty, wb_thresh, wb_bg_thresh;
	unsigned long pos_ratio, limit;
	bool freerun, dirty_exceeded;
};

/* The vm.dirty_* sysctls: ratios in percent, bytes 0 = use the ratio. */
struct km_dirty_sysctl {
	unsigned int dirty_ratio, dirty_background_ratio;
	unsigned long dirty_bytes, dirty_background_bytes;
};

void km_domain_dirty_limits(struct km_dirty_throttle_control *dtc,
			    const struct km_dirty_sysctl *vm);
unsigned long km_dirty_freerun_ceiling(unsigned long thresh,
				       unsigned long bg_thresh);
long long km_pos_ratio_polynom(unsigned long setpoint, unsigned long dirty,
			       unsigned long limit);
void km_wb_position_ratio(struct km_dirty_throttle_control *dtc,
			  unsigned long write_bw);
unsigned long km_dirty_poll_interval(unsigned long dirty,
				     unsigned long thresh);
unsigned long km_wb_max_pause(unsigned long avg_write_bandwidth,
			      unsigned long wb_dirty);
long km_wb_min_pause(unsigned long avg_write_bandwidth,
		     unsigned long wb_dirty_ratelimit, long max_pause,
		     unsigned long task_ratelimit,
		     unsigned long dirty_ratelimit, int *nr_dirtied_pause);
void km_wb_update_write_bandwidth(struct km_bdi_writeback *wb,
				  unsigned long elapsed,
				  unsigned long written);
void km_wb_update_dirty_ratelimit(struct km_bdi_writeback *wb,
				  const struct km_dirty_throttle_control *dtc,
				  unsigned long dirtied,
				  unsigned long elapsed);
long km_writeback_chunk_size(const struct km_bdi_writeback *wb);

/* Background writeback (fs/fs-writeback.c, v6.18). */
bool km_wb_over_bg_thresh(struct km_bdi_writeback *wb);
void km_wb_start_background_writeback(struct km_bdi_writeback *wb);
/* Set up the throttling state of a world whose limits are configured. */
void m_wb_throttle_init(struct km_bdi_writeback *wb, unsigned long thresh,
			unsigned long bg_thresh);

/* The flusher (model/fs/fs-writeback.c): one writeback pass over an
 * inode. */
int m_writeback_inode(struct km_inode *inode, int sync_mode);
/*
 * syncfs's writeback of a superblock's inodes (model/fs/fs-writeback.c):
 * the superblock is named by one of its inodes (@sb: the inodes with its
 * i_fop).  writeback_inodes_sb starts WB_SYNC_NONE writeback of each;
 * sync_inodes_sb writes each with WB_SYNC_ALL and waits on them all.
 */
void km_writeback_inodes_sb(struct km_inode *sb);
void km_sync_inodes_sb(struct km_inode *sb);
/* dirty_writeback_centisecs (500) and dirty_expire_centisecs (3000),
 * mm/page-writeback.c, v6.18, in ns. */
#define M_DIRTY_WRITEBACK_NS	(500ull * 10000000ull)
#define M_DIRTY_EXPIRE_NS	(3000ull * 10000000ull)
/* Timed runs: the periodic flusher, until *@alive reads 0. */
void m_wb_periodic_flusher(struct sim_word *alive);

#endif
