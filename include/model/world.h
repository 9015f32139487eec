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

/*
 * The variants a run selects (--variant key=value) and the test-only
 * break= switches (M_BREAK_*): the enums, their fields below and their
 * spellings are rows of include/model/variant.h.
 */
#include "model/variant.h"

/* The file system a file is on: its inode's i_op and i_fop. */
enum m_fs_type {
	M_FS_XFS,		/* the default */
	M_FS_EXT4,
	/*
	 * The block device's own inode (block/bdev.c's bdev inode, v6.18):
	 * made by m_bdev_open, not by a config; its mapping is the
	 * device's page cache (def_blk_aops), byte pos of it is device
	 * sector pos >> 9 (no room of its own), every block of its block
	 * map written (the device's own; setup writes no content).
	 */
	M_FS_BDEV,
};

struct m_file_config {
	const char *name;
	loff_t size;
	unsigned int blkbits;		/* 10..16; default 12 */
	unsigned int folio_order;	/* 0..4 */
	const char *layout;		/* one of H U W D per block, or NULL */
	/*
	 * With layout NULL: when set (H U W D), every block wholly below
	 * size is in this state and the rest are holes, with no string of a
	 * byte per block (a long run's large file); when 0, the blocks below
	 * size are written.
	 */
	char layout_fill;
	/* Page ranges [first, last] (inclusive) to start cached / dirty /
	 * mapped; last < first means none. */
	long cached_first, cached_last;
	long dirty_first, dirty_last;
	long mapped_first, mapped_last;
	long dropbehind_first, dropbehind_last;	/* PG_dropbehind at setup */
	unsigned int open_flags;	/* KM_O_* */
	enum m_fs_type fs;		/* its file system: i_op, i_fop */
	bool stable_writes;		/* AS_STABLE_WRITES */
	bool nosec;			/* S_NOSEC set */
	bool stale_times;		/* mtime/ctime need an update */
	/* POSIX_FADV_RANDOM given on the file's own description at setup
	 * (FMODE_RANDOM: readahead reads only what is asked). */
	bool advice_random;
	/*
	 * Large folios (issue 32 Build 3): the mapping allows folios from
	 * folio_order up to M_MAX_PAGECACHE_ORDER, as XFS's inode setup
	 * asks (mapping_set_folio_min_order, fs/xfs/xfs_icache.c v6.18),
	 * and its writeback appends contiguous folios to the open ioend's
	 * bio (iomap_add_to_ioend, fs/iomap/ioend.c).  Off (every folio
	 * of folio_order, a bio per folio) unless set: wpsim fio sets it
	 * on XFS; scenarios keep their fixed order.
	 */
	bool large_folios;
};

/*
 * The largest folio order of a mapping with large folios: the kernel's
 * MAX_PAGECACHE_ORDER (include/linux/pagemap.h v6.18: HPAGE_PMD_ORDER,
 * 9, on x86-64 with THP), and at most what the model's per-block state
 * holds (32 blocks a folio: struct km_folio.ifs; order 5 at 4 KiB
 * blocks).  m_max_folio_order(blkbits) gives the mapping's.
 */
#define M_MAX_PAGECACHE_ORDER	9
#define M_IFS_BLOCKS_MAX	32

static inline unsigned int m_max_folio_order(unsigned int blkbits)
{
	/* 2^(order + PAGE_SHIFT - blkbits) blocks <= 32 */
	unsigned int order = 5 + blkbits - PAGE_SHIFT;

	return order > M_MAX_PAGECACHE_ORDER ? M_MAX_PAGECACHE_ORDER : order;
}

struct m_world_config {
	struct m_file_config files[M_FILES_MAX];
	unsigned int nr_files;
	/*
	 * The device's atomic write identify fields (a profile's awupf and
	 * the rest, docs/model/atomic-write.md): set by the device's driver
	 * before the filesystem mounts, so files opened at setup see them.
	 * dev_atomic_set false: the default limits (an NVMe namespace with
	 * AWUPF 0, one logical block).
	 */
	struct m_nvme_atomic_id dev_atomic;
	bool dev_atomic_set;
	/*
	 * When set, the files' configs instead of files[]: nr_files of them
	 * (wpsim fio's and replay's many files).  Read either with
	 * m_world_config_file().
	 */
	const struct m_file_config *file_table;
	/*
	 * A long run: files it may add after setup (m_world_file_add, a
	 * file the run creates); the device keeps room for them.
	 */
	unsigned int files_reserve;
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
	/* The variants: dontcache, breaks (M_BREAK_*), ext4_dio,
	 * writethrough, rwsem, uring, sync_tag (model/variant.h). */
	M_VARIANT_KEYS(M_VARIANT_FIELD)
	/* A long timed run: one object name per page-cache slot array and
	 * block map instead of one per slot, so that files of any size fit
	 * the engine's object bound. */
	bool long_run;
	/* A page-cache limit in pages (wpsim fio --mem): clean folios are
	 * reclaimed (model/mm/vmscan.c); 0 = none, as in exploration. */
	unsigned long mem_pages;
	/* bdi->ra_pages (read_ahead_kb in pages) that each file's f_ra
	 * starts with: 0 (no readahead, a miss reads its folio) in
	 * exploration; wpsim fio sets the kernel's 128 KiB
	 * (model/mm/readahead.c, docs/model/readahead.md). */
	unsigned int ra_pages;
	/*
	 * The filesystem's free-space count (XFS's m_fdblocks,
	 * model/fs/xfs/xfs_mount.c): when fs_free_counted, the XFS files'
	 * allocations take their blocks from fs_free_blocks (blocks of the
	 * files' one block size) and -ENOSPC is returned where v6.18
	 * returns it; when not (the default), there is no count and every
	 * file has its room on the device (docs/model/enospc.md).
	 */
	bool fs_free_counted;
	uint64_t fs_free_blocks;
	/*
	 * XFS's allocsize mount option (mp->m_allocsize_log, fs/xfs/
	 * xfs_super.c, v6.18): 0 when not given (the dynamic speculative
	 * preallocation, 64 KiB minimum: xfs_fs_init_fs_context), else log2
	 * of the fixed preallocation in bytes (model/fs/xfs/xfs_iomap.c).
	 */
	unsigned int xfs_allocsize_log;
	/* The block device's size in sectors (wpsim fio's raw block device
	 * target, model/block/fops.c); 0: the room of the files. */
	sector_t dev_sectors;
};

/* File @f's config: config->file_table's or the inline table's. */
static inline const struct m_file_config *
m_world_config_file(const struct m_world_config *config, unsigned int f)
{
	return config->file_table ? &config->file_table[f] :
	       &config->files[f];
}

struct m_xfs_log;

/* struct sim_word.tag of a mapping's xa_extent (set by the world where
 * the file is made): the world check learns from the engine's log of
 * stored words which files' extents grew (model/world.c). */
#define M_WORD_TAG_XA_EXTENT	0x45u
/* struct sim_word.tag of the other words a check reads (issue 28, session
 * 20): with the tags above, the words whose stores the checks must see,
 * each check the words of its own tags (sim_check_watch_tag): the world's
 * counters (the world check), the device's counts (the device check), a
 * summary rwsem's lock (the i_rwsem check). */
#define M_WORD_TAG_STAT		0x47u
#define M_WORD_TAG_DEV		0x49u
#define M_WORD_TAG_RWSEM	0x4au
/* struct sim_word.tag of a mapping's xa_lock while the world check waits
 * for it to be released (model/world.c, defer). */
#define M_WORD_TAG_XA_LOCK	0x48u

struct m_world {
	struct km_node node;
	struct km_bdi_writeback wb;
	struct m_blkdev dev;
	/* The XFS log (model/fs/xfs/xfs_log.c): timed device only, else
	 * NULL. */
	struct m_xfs_log *xfs_log;
	/*
	 * The file table: file n's inode (i_ino n + 1), mapping and first
	 * open file.  It grows (doubling) as files are added, at setup or by
	 * a long run's creates (m_world_file_add): memory follows the files
	 * there are, not a maximum.  An evicted inode stays (its page cache
	 * and blocks are freed; docs/model/world.md "The file table").
	 */
	struct km_inode **inodes;	/* [nr_files] */
	struct km_file **files;		/* [nr_files] */
	unsigned int nr_files, files_cap;
	/* Files the device has room for (setup's plus files_reserve). */
	unsigned int files_room;
	/* The device's next free sector: each inode's room is allocated
	 * from it when the file is added (m_inode_sector). */
	sector_t sectors_allocated;
	/*
	 * The files whose i_rwsem the world's i_rwsem check checks after
	 * every step, in file order: all but those that no call is using
	 * with the lock idle (m_world_inode_done), so that a step costs the
	 * files in use, not all files.  live_rwsem[f]: f is on the list;
	 * inode_calls[f]: the calls using file f's inode.
	 */
	uint32_t *rwsem_files;
	uint32_t nr_rwsem_files, rwsem_files_cap;
	bool *live_rwsem;
	uint32_t *inode_calls;
	bool rwsem_check_registered;
	/*
	 * Per-CPU workqueues' workers run on the CPU that queued them
	 * (model/kernel/workqueue.c): set by the timed block device when its
	 * profile names the interrupt's CPU (irq_cpu; model/block/bio.c
	 * m_blkdev_attach_timed), false otherwise, so that every profile
	 * without the key runs as it did before session 21.
	 */
	bool wq_percpu_bound;
	struct km_folio **folios;	/* by id: m_folios_max() + 1 */
	uint32_t nr_folios;
	/* The variants, as the config has them (m_world_setup copies). */
	M_VARIANT_KEYS(M_VARIANT_FIELD)
	bool long_run;
	/*
	 * A long run: the engine objects every folio's words are instances
	 * of (sim_word_init_as), one per word of struct km_folio, so that a
	 * cached page costs no engine object; all 0 in an exploration, where
	 * each folio's words are objects of their own (DPOR tells them
	 * apart).  model/mm/filemap.c, km_filemap_alloc_folio.
	 */
	struct m_folio_objects {
		uint32_t flags, waitq, mapping, refcount, mapcount, pte;
		uint32_t ifs_lock, ifs, ifs_attached, data_version;
		uint32_t dontcache_counted, dontcache_written;
	} folio_objects;
	/* Page-cache limit (model/mm/vmscan.c): 0 = none, else pages. */
	unsigned long mem_pages;
	unsigned int ra_pages;		/* bdi->ra_pages (config's) */
	/*
	 * XFS's mp->m_free[XC_FREE_BLOCKS] (m_fdblocks): the free blocks,
	 * one word (the kernel's percpu counter), when fdblocks_counted
	 * (the config's fs_free_counted); model/fs/xfs/xfs_mount.c.
	 */
	bool fdblocks_counted;
	struct sim_word fdblocks;
	/* The data device's blocks (sb_dblocks) for the low-space
	 * thresholds (xfs_set_low_space_thresholds): the config's free
	 * blocks at mount. */
	uint64_t xfs_dblocks;
	unsigned int xfs_allocsize_log;	/* the config's (0: not given) */
	/* Writeback's delalloc allocations (xfs_bmapi_convert_delalloc
	 * calls, the kernel's xfs_map_blocks_alloc tracepoint): a count for
	 * reports and tests, no shared state of the model. */
	uint64_t xfs_wb_allocs;
	/* Unwritten conversions at I/O completion: the calls of
	 * xfs_iomap_write_unwritten (the kernel's xfs_unwritten_convert
	 * tracepoint), the unwritten runs they converted (one transaction
	 * each) and of those the runs whose conversion inserted an extent
	 * record: counts for reports and tests, no shared state. */
	uint64_t xfs_unwritten_converts, xfs_unwritten_runs;
	uint64_t xfs_unwritten_splits;
	uint32_t lru_head, lru_tail;	/* newest, oldest folio id */
	uint32_t *free_ids;		/* ids of freed folios, reused */
	uint32_t nr_free_ids;
	/* Entries of folios[] and free_ids[]: they grow (doubling) with
	 * the folios, up to m_folios_max() + 1. */
	uint32_t folios_cap, free_ids_cap;
	uint64_t reclaimed_pages;
	/* --variant uring=v1: io_uring_task per task id (NULL until used;
	 * model/io_uring/rw.c); ids from SIM_TASKS_LIMIT on in the
	 * second table (a timed run's tasks above its I/Os in flight). */
	struct m_io_uring_tctx *uring_tctx;
	struct m_io_uring_tctx *uring_tctx_high;
	/*
	 * The block device's inode (model/block/fops.c m_bdev_open): NULL
	 * until the device is first opened, then one of the file table's
	 * inodes (M_FS_BDEV), so that the flusher and the checks see its
	 * page cache like any file's.
	 */
	struct km_inode *bdev_inode;
	/*
	 * The device's bd_openers (block/bdev.c, v6.18): m_bdev_open adds
	 * one, a close's blkdev_release takes one off, and the last writes
	 * the device's page cache back and drops it.  Plain bookkeeping
	 * (the kernel's is an atomic under disk->open_mutex): only a task's
	 * own open and close change it, with no scheduling point between
	 * the test and the change.
	 */
	unsigned int bdev_openers;
	/*
	 * The hardirq depth of each engine id (task or event), the model's
	 * preempt_count for in_task() (model/kernel/softirq.c): NULL until
	 * the first km_irq_enter, then SIM_TASKS_MAX bytes, doubled while
	 * an id is past them.
	 */
	uint8_t *hardirq_depth;
	uint32_t hardirq_depth_ids;	/* its entries: grown to the ids
					 * in use, from SIM_TASKS_MAX */
};

struct m_io_uring_tctx;

/* Tests: world_check also scans every slot after every step and fails
 * when its incremental invariants 2 and 3 disagree (model/world.c). */
extern bool m_world_check_verify;
/* The current execution's world (NULL before m_world_setup). */
struct m_world *m_world(void);
/* A store to a page-cache slot (model/lib/xarray.c), for the checks. */
void m_world_slot_written(struct km_address_space *mapping, pgoff_t index);
/* Build the world in the arena and register the model's checks. */
void m_world_setup(const struct m_world_config *config);
void m_world_config_default(struct m_world_config *config);
struct km_file *m_world_file(const char *name);
/*
 * Add file @fc to the world: its inode (numbered nr_files + 1), mapping,
 * block map, device room and first open file, and its place in the
 * checks.  At setup, or in a long run from a task (a create: the
 * kernel's new inode, made without a scheduling point, as a folio is).
 * Return: its number (an index of inodes[] and files[]); fails the
 * execution (SIM_FAIL_BOUND) beyond the device's room.
 */
unsigned int m_world_file_add(const struct m_file_config *fc);
/*
 * A call on @inode begins / has returned (wpsim replay brackets each of
 * its calls).  An inode no call is using, whose i_rwsem is idle (no
 * holder, no waiter), leaves the world's i_rwsem check until the next
 * call on it: only a call takes it (writeback takes none).  An inode
 * never named here is always checked (exploration, wpsim fio).  No
 * scheduling point.
 */
void m_world_inode_use(struct km_inode *inode);
void m_world_inode_done(struct km_inode *inode);
/* Another open file description of @inode (open(2) samples wb_err). */
struct km_file *m_file_open(struct km_inode *inode, unsigned int flags);

/*
 * @n blocks of @inode freed where the freeing is generic code's (km_evict:
 * the kernel's s_op->evict_inode -> xfs_inactive): with the free-space
 * count kept, an XFS inode's go back to m_fdblocks
 * (km_xfs_add_freecounter); else nothing.  One scheduling point if any.
 */
void m_world_blocks_freed(struct km_inode *inode, unsigned long n);

/* Device sector of byte @pos of @inode (its room on the device starts
 * at inode->i_sector_base, allocated at setup). */
sector_t m_inode_sector(const struct km_inode *inode, loff_t pos);

/*
 * Cross-module checks, at quiescence only (no task mid-operation): the
 * counters equal the per-folio state.  Returns false and fills @why.
 */
bool m_world_quiescent_check(char *why, size_t size);
void m_world_dump(void *arg, FILE *out);

/*
 * Is the test-only switch @which (M_BREAK_*, --variant break=...; rows in
 * model/variant.h) on in this execution?  False without a world.
 */
static inline bool m_broken(enum m_break which)
{
	struct m_world *w = m_world();

	return w && (w->breaks & which);
}

#endif
