/* SPDX-License-Identifier: MIT */
/*
 * m_world: everything one execution of the model holds — the node and
 * bdi_writeback counters, the block device, the files — and how a program
 * sets it up.  The kernel has these as globals; the model keeps one per
 * execution in the arena.
 */
#ifndef WPSIM_MODEL_WORLD_H
#define WPSIM_MODEL_WORLD_H

#include <stdio.h>

#include "model/cost.h"

#include "model/linux/bio.h"
#include "model/linux/fs.h"

/* Variants of the algorithms a run selects (--variant key=value). */
enum m_dontcache_variant { M_DC_6_18, M_DC_7_3, M_DC_V11, M_DC_V12 };
/* --variant ext4_dio=base|patch1|patch2|unsafe-shared (seed 002). */
enum m_ext4_dio_variant {
	M_EXT4_DIO_BASE,	/* mainline: ext4_overwrite_io for every write */
	M_EXT4_DIO_PATCH1,	/* seed 002 1/2: skip it for aligned writes */
	M_EXT4_DIO_PATCH2,	/* seed 002 1/2 + 2/2: ext4_dio_needs_zeroing */
	M_EXT4_DIO_UNSAFE,	/* test-only: shared for every non-extending write */
};
/* --variant writethrough=v3|v3-nofix|v2 (seed 000, RFC v3). */
enum m_writethrough_variant {
	M_WT_V3,		/* RFC v3 as the cover letter describes it */
	M_WT_V3_NOFIX,		/* v3 without patch 11 (repeating-folio fix) */
	M_WT_V2,		/* RFC v2: exclusive lock, dirty/writeback cycle */
};
/*
 * --variant rwsem=summary|exact: how struct rw_semaphore runs.  exact is
 * model/kernel/rwsem.c step by step (count, owner, wait list); summary is
 * the engine's reader-writer lock (sim/shared.c sim_rwlock), whose shared
 * acquisitions commute for DPOR.  docs/model/rwsem.md says why summary
 * over-approximates exact, and tests/model/kernel checks it.
 */
enum m_rwsem_model { M_RWSEM_SUMMARY, M_RWSEM_EXACT };
/*
 * --variant uring=merged|punt (seed 004): merged is v6.18 (the series as
 * merged in v6.0: XFS buffered writes try IOCB_NOWAIT inline); punt is
 * the behaviour before it: a buffered write to a file without
 * FMODE_BUF_WASYNC is punted to io-wq at once (io_uring/rw.c io_write,
 * v5.19: "goto copy_iov"); v1 is the series as posted (2022, seed 004
 * patches 11-13): dirty throttling of an inline write does not fail it
 * but records a deadline in the task (bdp_pause), and the task's later
 * buffered writes wait on a pending list until a timer at the deadline
 * hands them to io-wq.
 */
enum m_uring_variant { M_URING_MERGED, M_URING_PUNT, M_URING_V1 };
/*
 * --variant sync_tag=towrite|dirty: which xarray mark a data-integrity
 * (WB_SYNC_ALL) pass walks.  towrite is v6.18 (and every kernel since
 * v2.6.35, "mm: implement writeback livelock avoidance using page
 * tagging"): tag_pages_for_writeback marks the DIRTY pages TOWRITE at the
 * start and the pass walks TOWRITE; dirty is the walk before it: no
 * tagging, the pass walks DIRTY, so pages dirtied ahead of it during the
 * pass extend it (the sync livelock that change fixed).
 */
enum m_sync_tag_variant { M_SYNC_TAG_TOWRITE, M_SYNC_TAG_DIRTY };

/*
 * Test-only switches that break the model on purpose, so that a test can
 * prove its check catches the bug.  Never set outside tests.
 */
#define M_BREAK_TAG_BEFORE_DIRTY_TEST	(1u << 0) /* clear DIRTY mark even if PG_dirty */
#define M_BREAK_TRUNCATE_NO_WAIT	(1u << 2) /* truncate ignores PG_writeback */
#define M_BREAK_ERRSEQ_NO_SEEN		(1u << 3) /* errseq forgets SEEN */
#define M_BREAK_CLEAR_DIRTY_NO_MKCLEAN	(1u << 4) /* clear_dirty_for_io skips folio_mkclean */
#define M_BREAK_NO_REDIRTY_UNDER_WRITEBACK (1u << 5) /* write_end skips dirtying a folio under writeback */
#define M_BREAK_DIO_NO_POST_INVALIDATE	(1u << 6) /* DIO skips the post-write invalidation */

struct m_file_config {
	const char *name;
	loff_t size;
	unsigned int blkbits;		/* 10..16; default 12 */
	unsigned int folio_order;	/* 0..4 */
	const char *layout;		/* one of H U W D per block, or NULL */
	/* Page ranges [first, last] (inclusive) to start cached / dirty /
	 * mapped; last < first means none. */
	long cached_first, cached_last;
	long dirty_first, dirty_last;
	long mapped_first, mapped_last;
	long dropbehind_first, dropbehind_last;	/* PG_dropbehind at setup */
	unsigned int open_flags;	/* KM_O_* */
	bool stable_writes;		/* AS_STABLE_WRITES */
	bool nosec;			/* S_NOSEC set */
	bool stale_times;		/* mtime/ctime need an update */
};

struct m_world_config {
	struct m_file_config files[M_FILES_MAX];
	unsigned int nr_files;
	/* Dirty limits.  A scenario's `wb: dirty_limit=N`: thresh N pages
	 * and bg_thresh N / 2 (vm.dirty_bytes = N pages on a machine whose
	 * background ratio is above it).  Else wpsim fio's, from the
	 * vm.dirty_* options (km_domain_dirty_limits): thresh and bg_thresh
	 * in pages.  0 = none: no throttling, no background writeback. */
	long dirty_limit_pages;
	unsigned long dirty_thresh_pages, dirty_bg_thresh_pages;
	uint32_t fail_nth_bio;
	bool fail_range;
	sector_t fail_sector_first, fail_sector_last;
	enum m_dontcache_variant dontcache;
	enum m_ext4_dio_variant ext4_dio;
	enum m_writethrough_variant writethrough;
	enum m_rwsem_model rwsem;
	enum m_uring_variant uring;
	enum m_sync_tag_variant sync_tag;
	unsigned int breaks;		/* M_BREAK_* */
	/* A long timed run: one object name per page-cache slot array and
	 * block map instead of one per slot, so that files of any size fit
	 * the engine's object bound. */
	bool long_run;
	/* A page-cache limit in pages (wpsim fio --mem): clean folios are
	 * reclaimed (model/mm/vmscan.c); 0 = none, as in exploration. */
	unsigned long mem_pages;
};

struct m_xfs_log;

struct m_world {
	struct km_node node;
	struct km_bdi_writeback wb;
	struct m_blkdev dev;
	/* The XFS log (model/fs/xfs/xfs_log.c): timed device only, else
	 * NULL. */
	struct m_xfs_log *xfs_log;
	struct km_inode *inodes[M_FILES_MAX];
	struct km_file *files[M_FILES_MAX];
	unsigned int nr_files;
	struct km_folio **folios;	/* by id: m_folios_max() + 1 */
	uint32_t nr_folios;
	enum m_dontcache_variant dontcache;
	enum m_ext4_dio_variant ext4_dio;
	enum m_writethrough_variant writethrough;
	enum m_rwsem_model rwsem;
	enum m_uring_variant uring;
	enum m_sync_tag_variant sync_tag;
	unsigned int breaks;
	bool long_run;
	/* Page-cache limit (model/mm/vmscan.c): 0 = none, else pages. */
	unsigned long mem_pages;
	uint32_t lru_head, lru_tail;	/* newest, oldest folio id */
	uint32_t *free_ids;		/* ids of freed folios, reused */
	uint32_t nr_free_ids;
	uint64_t reclaimed_pages;
	/* --variant uring=v1: io_uring_task per task id (NULL until used;
	 * model/io_uring/rw.c). */
	struct m_io_uring_tctx *uring_tctx;
};

struct m_io_uring_tctx;

/* Tests: world_check also scans every slot after every step and fails
 * when its incremental invariants 2 and 3 disagree (model/world.c). */
extern bool m_world_check_verify;
/* The current execution's world (NULL before m_world_setup). */
struct m_world *m_world(void);
/* Build the world in the arena and register the model's checks. */
void m_world_setup(const struct m_world_config *config);
void m_world_config_default(struct m_world_config *config);
struct km_file *m_world_file(const char *name);
/* Another open file description of @inode (open(2) samples wb_err). */
struct km_file *m_file_open(struct km_inode *inode, unsigned int flags);

/* Device sector of byte @pos of @inode (files sit side by side). */
sector_t m_inode_sector(const struct km_inode *inode, loff_t pos);

/*
 * Cross-module checks, at quiescence only (no task mid-operation): the
 * counters equal the per-folio state.  Returns false and fills @why.
 */
bool m_world_quiescent_check(char *why, size_t size);
void m_world_dump(void *arg, FILE *out);

static inline bool m_broken(unsigned int which)
{
	struct m_world *w = m_world();

	return w && (w->breaks & which);
}

#endif
