// SPDX-License-Identifier: MIT
/*
 * model/world.c - the state of one execution of the model, its setup from
 * a configuration, and the checks that span modules.
 *
 * Models nothing of the kernel by itself: it builds what mkfs, mount and
 * a few earlier syscalls would have left (files with extents, cached,
 * dirty and mapped folios, one bdi_writeback, one block device), and
 * registers the invariants.
 *
 * Invariants checked after every step (m_world_check):
 *  1. No counter is negative (node stats, wb stats).
 *  2. For a folio in the page cache, whenever the mapping's xa_lock is
 *     free: PG_writeback <=> the WRITEBACK mark.  (Both change inside one
 *     xa_lock section in __folio_start_writeback/__folio_end_writeback.)
 *  3. A TOWRITE mark only where a DIRTY mark is or a folio is under
 *     writeback (TOWRITE is set from DIRTY; cleared when writeback starts).
 *     1-3 are checked incrementally (world_check): after every step, in
 *     exploration and long runs alike, with the verdicts of a full scan,
 *     but looking only at what the step's stores may have changed.
 * Checked at quiescence (m_world_quiescent_check, at the end of an
 * execution, when no task is inside a kernel path):
 *  4. NR_FILE_DIRTY == WB_RECLAIMABLE == pages of folios with PG_dirty.
 *  5. NR_WRITEBACK == WB_WRITEBACK == pages of folios with PG_writeback (0).
 *  6. NR_ZONE_WRITE_PENDING == NR_FILE_DIRTY + NR_WRITEBACK.
 *  7. PG_dirty => DIRTY mark; a DIRTY mark without PG_dirty only on a
 *     folio wholly beyond EOF (writeback skips it, kernel-mm.md §2.7).
 *  8. With dontcache >= 7.3: WB_DONTCACHE_DIRTY == pages of folios that
 *     are dirty and dropbehind.
 *  9. No folio locked; no DIO in flight.
 * 10. A folio mapped writable is dirty (PG_dirty): shared file pages are
 *     write-protected when cleaned (folio_mkclean), so the next store
 *     faults and dirties the folio again.
 * 12. Ownership: every folio's refcount equals the references held: 1
 *     (the page cache's) in the page cache, 0 out of it (no task, bio or
 *     writeback holds one once everything has returned; the model's PTE
 *     holds none, docs/model/world.md); mapcount is 1 exactly when the
 *     PTE is present.  No folio, cached or not, is locked or under
 *     writeback: nobody is left to unlock it or end its writeback.
 * 13. Every bio submitted ended once (bi_end_io ran once per bio).
 * 14. Counters equal per-folio state: NR_FILE_PAGES == the sum of the
 *     mappings' nrpages == pages of cached folios; per mapping, nrpages
 *     == its cached pages, and a page-cache entry names a folio that is
 *     in that mapping at that index; NR_DIRTIED == WB_DIRTIED and
 *     NR_WRITTEN == WB_WRITTEN.
 * 15. A dirty folio with per-block state (an iomap_folio_state) has a
 *     dirty block: iomap sets the blocks' dirty bits before PG_dirty
 *     (__iomap_write_end, iomap_dirty_folio) and clears them after
 *     PG_dirty under the folio lock (iomap_writeback_folio), so once
 *     everything has returned PG_dirty without a dirty block is lost
 *     data: writeback writes each dirty block and no other, here none
 *     (Kernel: fs/iomap/buffered-io.c, v6.18).
 * Not checked: data content (scenarios state what they expect), memory
 * the model does not have (LRU, memcg).
 */
#include "model/world.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model/block/fops.h"
#include "model/fs/ext4.h"
#include "model/fs/iomap.h"
#include "model/kernel/rwsem.h"
#include "model/fs/xfs.h"
#include "model/fs/xfs_log.h"
#include "model/linux/pagemap.h"
#include "model/linux/readahead.h"
#include "model/lockdep.h"
#include "model/linux/writeback.h"
#include "sim/arena.h"
#include "sim/snapshot.h"

static struct m_world *current_world;

unsigned long m_file_pages_max = M_FILE_PAGES_DEFAULT;
unsigned long m_folios_limit;

struct m_world *m_world(void)
{
	return current_world;
}

static const char *const wb_stat_names[NR_WB_STAT_ITEMS] = {
	"WB_RECLAIMABLE", "WB_WRITEBACK", "WB_DIRTIED", "WB_WRITTEN",
	"WB_DONTCACHE_DIRTY",
};
static const char *const node_stat_names[NR_NODE_STAT_ITEMS] = {
	"NR_FILE_PAGES", "NR_FILE_DIRTY", "NR_WRITEBACK", "NR_DIRTIED",
	"NR_WRITTEN", "NR_ZONE_WRITE_PENDING",
};

const char *m_wb_stat_name(enum km_wb_stat_item item)
{
	return wb_stat_names[item];
}

const char *m_node_stat_name(enum km_node_stat_item item)
{
	return node_stat_names[item];
}

void m_world_config_default(struct m_world_config *config)
{
	memset(config, 0, sizeof(*config));
	config->nr_files = 1;
	config->files[0] = (struct m_file_config){
		.name = "f",
		.size = 4 * PAGE_SIZE,
		.blkbits = 12,
		.cached_first = 0, .cached_last = -1,
		.dirty_first = 0, .dirty_last = -1,
		.mapped_first = 0, .mapped_last = -1,
		.dropbehind_first = 0, .dropbehind_last = -1,
	};
	config->dontcache = M_DC_6_18;
}

sector_t m_inode_sector(const struct km_inode *inode, loff_t pos)
{
	return inode->i_sector_base + (sector_t)(pos >> SECTOR_SHIFT);
}

struct km_file *m_file_open(struct km_inode *inode, unsigned int flags)
{
	struct km_file *file = sim_arena_alloc(sizeof(*file));

	file->f_inode = inode;
	file->f_op = inode->i_fop;	/* do_dentry_open */
	file->f_flags = flags;
	snprintf(file->name, sizeof(file->name), "%s", inode->name);
	sim_word_init(&file->f_wb_err,
		      km_errseq_sample(&inode->i_data.wb_err),
		      "%s.f_wb_err", inode->name);
	sim_spin_init(&file->f_lock, "%s.f_lock", inode->name);
	km_file_ra_state_init(&file->f_ra, m_world()->ra_pages);
	if (file->f_op && file->f_op->open)	/* do_dentry_open */
		file->f_op->open(inode, file);
	return file;
}

struct km_file *m_world_file(const char *name)
{
	struct m_world *w = m_world();

	for (unsigned int i = 0; w && i < w->nr_files; i++)
		if (strcmp(w->files[i]->name, name) == 0)
			return w->files[i];
	return NULL;
}

static bool in_range(long page, long first, long last)
{
	return last >= first && page >= first && page <= last;
}

/* A file's initial block map: its layout, else its layout_fill over the
 * blocks wholly below its size, else written below its size. */
struct initial_map {
	const struct m_file_config *fc;
	size_t layout_len;
	unsigned int blkbits;
};

static char initial_state(const void *arg, unsigned long b)
{
	const struct initial_map *im = arg;

	if (im->fc->layout && b < im->layout_len)
		return im->fc->layout[b];
	if (!im->fc->layout && im->fc->layout_fill)
		return ((loff_t)(b + 1) << im->blkbits) <= im->fc->size ?
		       im->fc->layout_fill : M_EXT_HOLE;
	if (!im->fc->layout && ((loff_t)b << im->blkbits) < im->fc->size)
		return M_EXT_WRITTEN;
	return M_EXT_HOLE;
}

/*
 * The end of the run of blocks from @b on that initial_state() gives
 * @b's state (ULONG_MAX: every block after), so that setup steps over
 * runs, not blocks (issue 28: a 1 TiB file's setup asked each of its
 * 2^28 blocks).
 */
static unsigned long initial_run_end(const void *arg, unsigned long b)
{
	const struct initial_map *im = arg;
	const struct m_file_config *fc = im->fc;
	unsigned long e;

	if (fc->layout && b < im->layout_len) {
		for (e = b + 1; e < im->layout_len &&
		     fc->layout[e] == fc->layout[b]; e++)
			;
		return e == im->layout_len && fc->layout[b] == M_EXT_HOLE ?
		       ULONG_MAX : e;
	}
	if (fc->layout)
		return ULONG_MAX;	/* past the layout: holes */
	if (fc->layout_fill) {
		/* Blocks wholly below the size: the fill. */
		e = (unsigned long)(fc->size >> im->blkbits);
		return b < e ? e : ULONG_MAX;
	}
	e = (unsigned long)((fc->size + ((loff_t)1 << im->blkbits) - 1) >>
			    im->blkbits);
	return b < e ? e : ULONG_MAX;
}

static void setup_file(struct m_world *w, unsigned int n,
		       const struct m_file_config *fc, bool long_run)
{
	struct km_inode *inode = sim_arena_alloc(sizeof(*inode));
	struct km_file *file = sim_arena_alloc(sizeof(*file));
	struct km_address_space *mapping = &inode->i_data;
	unsigned int blkbits = fc->blkbits ? fc->blkbits : 12;
	const char *name = fc->name ? fc->name : "f";
	long pages = (long)((fc->size + (loff_t)PAGE_SIZE - 1) >> PAGE_SHIFT);
	uint32_t base_id = 1000u * (n + 1);
	size_t layout_len;
	sector_t run_first = 0, run_n = 0;
	struct initial_map im;
	long cache_lo = LONG_MAX, cache_hi = -1;

	inode->i_ino = n + 1;
	/* Its room on the device: the model's largest file, from the
	 * world's next free sector (in file order, so that an exploration's
	 * files sit side by side as they always did).  The block device's
	 * own inode is the whole device from sector 0: no room of its own
	 * (model/block/fops.c). */
	if (fc->fs == M_FS_BDEV) {
		inode->i_sector_base = 0;
	} else {
		inode->i_sector_base = w->sectors_allocated;
		w->sectors_allocated += (sector_t)m_file_pages_max *
					SECTORS_PER_PAGE;
	}
	inode->i_nlink = 1;
	inode->i_xfs_diflag_prealloc = false;
	/* Its XFS log item (zeroed: unpinned): the file is on disk at its
	 * size, nothing of it in the log (model/fs/xfs/xfs_log.c). */
	inode->i_itemp.logged_size = fc->size;
	snprintf(inode->name, sizeof(inode->name), "%s", name);
	km_init_rwsem(&inode->i_rwsem, name);
	if (w->rwsem == M_RWSEM_SUMMARY)
		m_rwsem_use_summary(&inode->i_rwsem);
	sim_spin_init(&inode->i_lock, "%s.i_lock", name);
	sim_word_init(&inode->i_size, (uint64_t)fc->size, "%s.i_size", name);
	sim_word_init(&inode->i_disksize, (uint64_t)fc->size,
		      "%s.i_disksize", name);
	sim_word_init(&inode->i_flags, fc->nosec ? S_NOSEC : 0, "%s.i_flags",
		      name);
	sim_word_init(&inode->i_state, 0, "%s.i_state", name);
	sim_waitq_init(&inode->sync_wait, "%s.sync_wait", name);
	sim_word_init(&inode->time_needs_update, fc->stale_times, "%s.i_mtime",
		      name);
	inode->i_blkbits = blkbits;
	sim_word_init(&inode->i_dio_count, 0, "%s.i_dio_count", name);
	sim_waitq_init(&inode->dio_wait, "%s.dio_wait", name);
	km_init_rwsem(&inode->i_data_sem, "i_data_sem");
	if (w->rwsem == M_RWSEM_SUMMARY)
		m_rwsem_use_summary(&inode->i_data_sem);
	inode->nr_blocks = (unsigned int)((m_file_pages_max * PAGE_SIZE) >>
					  blkbits);
	layout_len = fc->layout ? strlen(fc->layout) : 0;
	im = (struct initial_map){ fc, layout_len, blkbits };
	m_extent_init_runs(inode, name, long_run, initial_state,
			   initial_run_end, &im);
	/* The written blocks' content, a run of blocks at a time (whole
	 * device blocks stay one fill value).  The block device's inode is
	 * the device: its blocks hold what the device holds.  The map is
	 * initial_state's: its runs are walked, not its blocks. */
	for (unsigned long b = 0, e; fc->fs != M_FS_BDEV &&
	     b < inode->nr_blocks; b = e) {
		loff_t bpos = (loff_t)b << blkbits;
		sector_t first, end;

		e = initial_run_end(&im, b);
		if (e > inode->nr_blocks)
			e = inode->nr_blocks;
		if (initial_state(&im, b) != M_EXT_WRITTEN)
			continue;
		first = m_inode_sector(inode, bpos);
		end = m_inode_sector(inode, (loff_t)e << blkbits);
		if (run_n && run_first + run_n == first) {
			run_n += end - first;
			continue;
		}
		if (run_n)
			m_dev_data_set(&w->dev, run_first, run_n, base_id);
		run_first = first;
		run_n = end - first;
	}
	if (run_n)
		m_dev_data_set(&w->dev, run_first, run_n, base_id);
	inode->wb = &w->wb;
	inode->i_op = fc->fs == M_FS_EXT4 ? &km_ext4_inode_operations :
		      fc->fs == M_FS_BDEV ? &m_bdev_inode_operations :
					    &km_xfs_inode_operations;
	inode->i_fop = fc->fs == M_FS_EXT4 ? &km_ext4_file_operations :
		       fc->fs == M_FS_BDEV ? &km_def_blk_fops :
					     &km_xfs_file_operations;

	mapping->host = inode;
	mapping->a_ops = fc->fs == M_FS_BDEV ? &km_def_blk_aops : &m_xfs_aops;
	/* f_op->mmap's, for a VMA (the bdev's mmap is not modelled) */
	mapping->vm_ops = fc->fs == M_FS_BDEV ? NULL : &m_xfs_file_vm_ops;
	sim_spin_init(&mapping->xa_lock, "%s.xa_lock", name);
	m_xa_init(mapping, name, long_run);
	sim_word_init(&mapping->nrpages, 0, "%s.nrpages", name);
	sim_word_init(&mapping->xa_extent, 0, "%s.xa_extent", name);
	mapping->xa_extent.tag = M_WORD_TAG_XA_EXTENT;	/* note_writes */
	sim_word_init(&mapping->flags, fc->stable_writes ?
		      1ULL << AS_STABLE_WRITES : 0, "%s.as_flags", name);
	sim_word_init(&mapping->wb_err, 0, "%s.wb_err", name);
	sim_word_init(&mapping->writeback_index, 0, "%s.writeback_index",
		      name);
	km_init_rwsem(&mapping->invalidate_lock, "invalidate_lock");
	if (w->rwsem == M_RWSEM_SUMMARY)
		m_rwsem_use_summary(&mapping->invalidate_lock);
	sim_spin_init(&mapping->ptl, "%s.ptl", name);
	sim_word_init(&mapping->mmapped, 0, "%s.mmapped", name);
	sim_word_init(&mapping->nr_stable_writes, 0, "%s.nr_stable_writes",
		      name);
	mapping->folio_order = fc->folio_order;
	/* XFS's mapping_set_folio_min_order (fs/xfs/xfs_icache.c, v6.18)
	 * when the config opts in to large folios (issue 32). */
	mapping->max_folio_order = fc->folio_order;
	if (fc->large_folios && m_max_folio_order(blkbits) > fc->folio_order)
		mapping->max_folio_order = m_max_folio_order(blkbits);
	mapping->ioend_merge = fc->large_folios;

	file->f_inode = inode;
	file->f_op = inode->i_fop;
	file->f_flags = fc->open_flags;
	snprintf(file->name, sizeof(file->name), "%s", name);
	sim_word_init(&file->f_wb_err, 0, "%s.f_wb_err", name);
	sim_spin_init(&file->f_lock, "%s.f_lock", name);
	km_file_ra_state_init(&file->f_ra, w->ra_pages);
	/* generic_fadvise's POSIX_FADV_RANDOM, before any task runs. */
	if (fc->advice_random)
		file->f_mode |= FMODE_RANDOM;
	if (file->f_op && file->f_op->open)	/* do_dentry_open */
		file->f_op->open(inode, file);
	m_lockdep_inode_rules(inode);
	m_lockdep_file_rules(file);
	w->inodes[n] = inode;
	w->files[n] = file;
	/* Registered at its first use (m_xfs_iflags), so that no other
	 * object's id moves in an execution that never uses it. */
	inode->i_xfs_iflags = (struct sim_word){ 0 };
	inode->i_xfs_itruncated_set = false;
	/* The same for XFS's ioend lock (model/fs/xfs/xfs_aops.c). */
	inode->i_ioend_lock = (struct sim_spinlock){ { 0 } };

	/* Initial page cache: read, dirtied, mapped as the config says;
	 * the pages from the first of those ranges to the last (not every
	 * page of the file: issue 28). */
	if (fc->cached_last >= fc->cached_first) {
		cache_lo = fc->cached_first;
		cache_hi = fc->cached_last;
	}
	if (fc->dirty_last >= fc->dirty_first) {
		cache_lo = fc->dirty_first < cache_lo ? fc->dirty_first :
			   cache_lo;
		cache_hi = fc->dirty_last > cache_hi ? fc->dirty_last :
			   cache_hi;
	}
	if (fc->mapped_last >= fc->mapped_first) {
		cache_lo = fc->mapped_first < cache_lo ? fc->mapped_first :
			   cache_lo;
		cache_hi = fc->mapped_last > cache_hi ? fc->mapped_last :
			   cache_hi;
	}
	if (cache_lo < 0)
		cache_lo = 0;
	cache_lo &= ~((1L << fc->folio_order) - 1);
	for (long p = cache_lo; p <= cache_hi && p < pages &&
	     p < (long)m_file_pages_max; p += 1L << fc->folio_order) {
		struct km_folio *folio;
		size_t fsize;

		if (!in_range(p, fc->cached_first, fc->cached_last) &&
		    !in_range(p, fc->dirty_first, fc->dirty_last) &&
		    !in_range(p, fc->mapped_first, fc->mapped_last))
			continue;
		folio = km_filemap_alloc_folio(mapping, (pgoff_t)p,
					       fc->folio_order);
		fsize = km_folio_size(folio);
		folio->flags.value |= 1ULL << PG_locked;
		km_filemap_add_folio(mapping, folio, (pgoff_t)p);
		for (size_t s = 0; s < fsize >> SECTOR_SHIFT; s++) {
			loff_t pos = km_folio_pos(folio) +
				     (loff_t)(s << SECTOR_SHIFT);
			char st = m_extent_peek(inode, (unsigned long)
						(pos >> blkbits));

			m_folio_fill(folio, s, 1,
				     (st == M_EXT_WRITTEN && pos < fc->size) ?
				     m_dev_data(&w->dev,
						m_inode_sector(inode, pos)) :
				     0);
		}
		folio->flags.value |= 1ULL << PG_uptodate;
		if (in_range(p, fc->dropbehind_first, fc->dropbehind_last))
			folio->flags.value |= 1ULL << PG_dropbehind;
		if (in_range(p, fc->dirty_first, fc->dirty_last)) {
			m_folio_fill(folio, 0, fsize >> SECTOR_SHIFT,
				     base_id + 1);
			km_folio_mark_dirty(folio);
		}
		if (in_range(p, fc->mapped_first, fc->mapped_last)) {
			folio->pte.value = M_PTE_PRESENT;	/* read-only */
			folio->mapcount.value = 1;
			mapping->mmapped.value = 1;
		}
		folio->flags.value &= ~(1ULL << PG_locked);
		folio->refcount.value = 1;	/* the page cache's */
	}
	if (long_run)
		m_xa_marks_index(mapping);
}

/*
 * Invariants 2 and 3, checked incrementally: after every step, exactly
 * as if every slot below each file's extent were checked, but a slot is
 * looked at again only when what its verdict reads may have changed.
 * That is: its entry or marks word, the flags of the folio its entry
 * names (the engine's log of written words, sim_exec_writes()), its
 * coming under the extent, or (for a verdict that holds only by the
 * writethrough exception, whose state is plain memory) every step.  A
 * slot that passed stays good until one of these moves, so the first
 * failing slot, in file and index order, is the one a full scan finds,
 * with the same message.  When the log overflowed, or a file's pending
 * list did, that file is scanned in full.
 */
#define PENDING_MAX	1024
#define PEND_SCAN_MAX	16	/* a list this short has no set */

struct check_file {
	/* Pending slots in the order they came ([list_cap], up to
	 * PENDING_MAX), and past PEND_SCAN_MAX of them the same as a set
	 * (index + 1, 0 free; open addressing in 2 * list_cap entries, so
	 * at most half full; a short list is searched instead):
	 * allocated at the file's first pending slot and grown by doubling,
	 * so memory follows what is pending, not the file's size (issue
	 * 28: it was a bit per page up to the highest slot pended, 2 MiB
	 * for random writes over a 64 GiB file).  The set holds the list's
	 * slots; with @all set a slot pended is not added (all are looked
	 * at). */
	uint32_t *set;
	uint32_t *list;
	uint32_t n, list_cap;
	bool all;		/* scan every slot below the extent */
	bool active;		/* on the checker's active list */
	bool deferred;		/* on its deferred list: its xa_lock held */
	/* Every slot below: passed since its last change, or pending. */
	unsigned long verified;
};

struct world_checker {
	struct m_world *w;
	struct check_file *file;	/* [nr_files] */
	unsigned int files_cap;
	/*
	 * The files the next check must look at (something pending, newly
	 * covered by the extent, or skipped while their xa_lock was held):
	 * every other file is verified up to its extent with nothing
	 * pending, so a step costs the files it touched, not all of them.
	 * Looked at in file order, as a full scan would.
	 */
	uint32_t *active, *order;
	uint32_t nr_active, active_cap;
	/*
	 * The files passed over because their xa_lock was held (issue 28,
	 * session 20): each is looked at again after a store to its lock
	 * (tagged M_WORD_TAG_XA_LOCK while here: note_writes), not after
	 * every step, so the check can be quiet while a lock is held.
	 */
	uint32_t *deferred;
	uint32_t nr_deferred, deferred_cap;
	uint32_t scratch[PENDING_MAX];
	/* Invariant 1: the counters written since they were checked, bit
	 * i a node stat, bit NR_NODE_STAT_ITEMS + i a wb stat. */
	uint32_t stats_pending;
	/* At the end of the last check nothing was pending: no counter, no
	 * slot, every file verified up to its extent.  Cleared by a slot's
	 * store (m_world_slot_written); then a step that logged no store
	 * changed nothing this check reads (an extent is a word, stored
	 * through the log), and the check has nothing to do. */
	bool quiet;
	/*
	 * Each folio's PG_writeback as its slot's last check_one saw it,
	 * by folio id (0: none seen; 1 + the bit; issue 28 B3.1, session
	 * 25): a slot's verdict reads its entry and marks (a store to
	 * either pends it: m_world_slot_written), the folio's index
	 * (plain, set before the entry that names it is stored) and of
	 * its flags PG_writeback alone (and the writethrough exception
	 * only when PG_writeback and the mark differ: SLOT_EXEMPT, which
	 * records none and stays pending).  So a store to a folio's flags
	 * that leaves PG_writeback as its slot's last verdict saw it (a
	 * lock, an unlock, PG_dirty, PG_uptodate...) changes no verdict:
	 * note_writes pends nothing for it.  A folio taken out of its
	 * slot and put in another keeps a stale record, but the new
	 * slot's entry store pends it, and its check records again.
	 */
	uint8_t *wb_seen;
	uint32_t wb_seen_cap;
	/* m_world_check_verify: where a full scan fails this step. */
	bool scan_fails;
	unsigned int scan_f;
	unsigned long scan_i;
};

/* Set from a test: after every step also scan every slot and fail if
 * the incremental check disagrees (tests/model/test_world_check.c). */
bool m_world_check_verify;

#define STATS_ALL ((1u << (NR_NODE_STAT_ITEMS + NR_WB_STAT_ITEMS)) - 1)

enum slot_verdict { SLOT_OK, SLOT_EXEMPT, SLOT_INV2, SLOT_INV3 };

static enum slot_verdict check_slot(struct m_world *w,
				    struct km_address_space *m,
				    unsigned long i, struct km_folio **head)
{
	/* One peek of the slot (a long run's stand-in holds both). */
	const struct km_xa_slot *slot = m_xa_slot(m, i);
	uint64_t id = sim_word_peek(&slot->entry);
	uint64_t marks = sim_word_peek(&slot->marks);
	struct km_folio *folio;
	bool wb, mark;

	if (!id)
		return SLOT_OK;
	folio = w->folios[id];
	/* Marks live on a large folio's first index only. */
	if (folio->index != i)
		return SLOT_OK;
	*head = folio;	/* the verdict is the folio's */
	wb = m_folio_flag_peek(folio, PG_writeback);
	mark = (marks >> PAGECACHE_TAG_WRITEBACK) & 1;
	/* A v3 writethrough sets PG_writeback alone (seed 000 10/11): the
	 * known window of this invariant. */
	if (wb != mark && !(wb && m_writethrough_folio_busy(folio)))
		return SLOT_INV2;
	if (((marks >> PAGECACHE_TAG_TOWRITE) & 1) &&
	    !((marks >> PAGECACHE_TAG_DIRTY) & 1) && !wb)
		return SLOT_INV3;
	return wb != mark ? SLOT_EXEMPT : SLOT_OK;
}

/* Folio @id's PG_writeback as its slot's last check saw it (1 + the
 * bit), 0 if none (struct world_checker's wb_seen). */
static inline unsigned int wb_seen_get(const struct world_checker *c,
				       uint32_t id)
{
	return id < c->wb_seen_cap ? c->wb_seen[id] : 0;
}

static void wb_seen_set(struct world_checker *c, uint32_t id,
			unsigned int seen)
{
	if (id >= c->wb_seen_cap) {
		uint32_t cap = c->wb_seen_cap ? c->wb_seen_cap : 64;
		uint8_t *a;

		if (!seen)
			return;	/* none seen already */
		while (cap <= id)
			cap *= 2;
		a = sim_arena_alloc(cap);	/* zeroed: none seen */
		if (c->wb_seen_cap) {
			memcpy(a, c->wb_seen, c->wb_seen_cap);
			sim_arena_free(c->wb_seen, c->wb_seen_cap);
		}
		c->wb_seen = a;
		c->wb_seen_cap = cap;
	}
	c->wb_seen[id] = (uint8_t)seen;
}

/* A logged store to @folio's flags leaves PG_writeback as its slot's
 * last verdict saw it: no verdict changes (struct world_checker). */
static inline bool flags_store_passes(const struct world_checker *c,
				      const struct km_folio *folio)
{
	return wb_seen_get(c, folio->id) ==
	       1u + m_folio_flag_peek(folio, PG_writeback);
}

static void slot_fail(struct world_checker *c, unsigned int f,
		      unsigned long i, enum slot_verdict v)
{
	struct m_world *w = c->w;
	struct km_address_space *m = &w->inodes[f]->i_data;
	struct km_folio *folio =
		w->folios[sim_word_peek(&m_xa_slot(m, i)->entry)];
	uint64_t marks = sim_word_peek(&m_xa_slot(m, i)->marks);

	if (m_world_check_verify && (!c->scan_fails || c->scan_f != f ||
				     c->scan_i != i))
		sim_fail(SIM_FAIL_INVARIANT, "world check: the incremental "
			 "check fails at %s slot %lu, a full scan %s",
			 w->inodes[f]->name, i, c->scan_fails ?
			 "at another slot" : "passes");
	if (v == SLOT_INV2)
		sim_fail(SIM_FAIL_INVARIANT, "invariant 2: %s folio %u at %lu: "
			 "PG_writeback %d but WRITEBACK mark %d",
			 w->inodes[f]->name, folio->id, i,
			 (int)m_folio_flag_peek(folio, PG_writeback),
			 (int)((marks >> PAGECACHE_TAG_WRITEBACK) & 1));
	sim_fail(SIM_FAIL_INVARIANT, "invariant 3: %s folio %u: TOWRITE "
		 "without DIRTY or writeback", w->inodes[f]->name, folio->id);
}

/* File @f needs a look at the next check. */
static void activate(struct world_checker *c, unsigned int f)
{
	if (c->file[f].active)
		return;
	c->file[f].active = true;
	if (c->nr_active == c->active_cap) {
		uint32_t cap = c->active_cap ? 2 * c->active_cap : 16;
		uint32_t *a = sim_arena_alloc(cap * sizeof(*a));
		uint32_t *o = sim_arena_alloc(cap * sizeof(*o));

		if (c->nr_active)
			memcpy(a, c->active, c->nr_active * sizeof(*a));
		c->active = a;
		c->order = o;
		c->active_cap = cap;
	}
	c->active[c->nr_active++] = f;
}

/* File @f is passed over while its xa_lock is held: a store to the lock
 * (tagged, so logged) puts it back on the active list (note_writes). */
static void defer(struct world_checker *c, unsigned int f)
{
	struct km_address_space *m = &c->w->inodes[f]->i_data;

	m->xa_lock.word.tag = M_WORD_TAG_XA_LOCK;
	if (c->file[f].deferred)
		return;
	c->file[f].deferred = true;
	if (c->nr_deferred == c->deferred_cap) {
		uint32_t cap = c->deferred_cap ? 2 * c->deferred_cap : 16;
		uint32_t *d = sim_arena_alloc(cap * sizeof(*d));

		if (c->nr_deferred)
			memcpy(d, c->deferred, c->nr_deferred * sizeof(*d));
		if (c->deferred_cap)
			sim_arena_free(c->deferred, c->deferred_cap *
				       sizeof(*d));
		c->deferred = d;
		c->deferred_cap = cap;
	}
	c->deferred[c->nr_deferred++] = f;
}

/* A store to @word, tagged M_WORD_TAG_XA_LOCK: the deferred file whose
 * lock it is, if any, is active again (its lock untagged until it is
 * deferred again).  Found on the deferred list, not from the address: a
 * tag is only the model's mark. */
static void undefer(struct world_checker *c, const struct sim_word *word)
{
	for (uint32_t k = 0; k < c->nr_deferred; k++) {
		unsigned int f = c->deferred[k];
		struct km_address_space *m = &c->w->inodes[f]->i_data;

		if (&m->xa_lock.word != word)
			continue;
		m->xa_lock.word.tag = 0;
		c->file[f].deferred = false;
		c->deferred[k] = c->deferred[--c->nr_deferred];
		activate(c, f);
		return;
	}
}

static inline uint32_t pend_home(const struct check_file *cf,
				 unsigned long i)
{
	/* The product's high bits: strided slots spread. */
	return ((uint32_t)i * 0x9e3779b1u) >>
	       (32 - __builtin_ctz(2 * cf->list_cap));
}

/* Where slot @i is in @cf's set, or the free entry where it would go. */
static inline uint32_t pend_find(const struct check_file *cf,
				 unsigned long i)
{
	uint32_t mask = 2 * cf->list_cap - 1, h = pend_home(cf, i);

	while (cf->set[h] && cf->set[h] != i + 1)
		h = (h + 1) & mask;
	return h;
}

/* Whether slot @i is pending (on the list: searched while short). */
static inline bool pend_has(const struct check_file *cf, unsigned long i)
{
	if (!cf->set) {
		for (uint32_t k = 0; k < cf->n; k++)
			if (cf->list[k] == i)
				return true;
		return false;
	}
	return cf->set[pend_find(cf, i)] != 0;
}

/* @cf's set and list emptied (every slot of the set is on the list):
 * the entries found first, then freed (a freed entry would cut the
 * probe of a later one). */
static void pend_clear(struct check_file *cf)
{
	uint32_t at[PENDING_MAX];

	if (!cf->set) {
		cf->n = 0;
		return;
	}
	for (uint32_t k = 0; k < cf->n; k++)
		at[k] = pend_find(cf, cf->list[k]);
	for (uint32_t k = 0; k < cf->n; k++)
		cf->set[at[k]] = 0;
	cf->n = 0;
}

/*
 * Slot @i of file @f is pending: the file is active (looked at by the
 * next check), or with @held (its xa_lock is held: the next check would
 * pass it over) deferred.  A file with a pending slot is active or
 * deferred already.
 */
static void pend_at(struct world_checker *c, unsigned int f,
		    unsigned long i, bool held)
{
	struct check_file *cf = &c->file[f];
	uint32_t h;

	if (i >= m_file_pages_max)
		return;
	if (cf->all) {
		/* Every slot is looked at: the file is active already
		 * (or deferred, while its lock is held). */
		if (held)
			defer(c, f);
		else
			activate(c, f);
		return;
	}
	if (pend_has(cf, i))
		return;
	if (held)
		defer(c, f);
	else
		activate(c, f);
	if (cf->n == PENDING_MAX) {
		cf->all = true;
		return;
	}
	if (cf->n == cf->list_cap) {
		uint32_t cap = cf->list_cap ? 2 * cf->list_cap : PEND_SCAN_MAX;
		uint32_t *list = sim_arena_alloc(cap * sizeof(*list));
		uint32_t *set = cap > PEND_SCAN_MAX ?
				sim_arena_alloc(2 * cap * sizeof(*set)) : NULL;

		if (cf->n)
			memcpy(list, cf->list, cf->n * sizeof(*list));
		if (cf->list)
			sim_arena_free(cf->list, cf->list_cap *
				       sizeof(*list));
		if (cf->set)
			sim_arena_free(cf->set, 2 * cf->list_cap *
				       sizeof(*set));
		cf->list = list;
		cf->set = set;
		cf->list_cap = cap;
		for (uint32_t k = 0; set && k < cf->n; k++)
			cf->set[pend_find(cf, cf->list[k])] =
				cf->list[k] + 1;
	}
	if (cf->set) {
		h = pend_find(cf, i);
		cf->set[h] = (uint32_t)i + 1;
	}
	cf->list[cf->n++] = (uint32_t)i;
}

static void pend(struct world_checker *c, unsigned int f, unsigned long i)
{
	pend_at(c, f, i, false);
}

/* The file number of @mapping, w->nr_files if none. */
static unsigned int world_file_of(const struct m_world *w,
				  const struct km_address_space *mapping)
{
	unsigned int f = (unsigned int)(mapping->host->i_ino - 1);

	if (f < w->nr_files && w->inodes[f] == mapping->host)
		return f;
	for (f = 0; f < w->nr_files; f++)
		if (w->inodes[f] == mapping->host)
			break;
	return f;
}

/* What the last step's stores may have changed: pending slots. */
static void note_writes(struct world_checker *c)
{
	struct m_world *w = c->w;
	const struct sim_word *const *words;
	uint32_t n = sim_exec_writes(&words);

	if (n == SIM_WRITES_ALL) {
		for (unsigned int f = 0; f < w->nr_files; f++) {
			c->file[f].all = true;
			activate(c, f);
		}
		c->stats_pending = STATS_ALL;
		return;
	}
	for (uint32_t k = 0; k < n; k++) {
		const char *p = (const char *)words[k];
		struct km_folio *folio;
		unsigned int f;

		if (words[k] >= &w->node.stat[0] &&
		    words[k] < &w->node.stat[NR_NODE_STAT_ITEMS]) {
			c->stats_pending |= 1u << (words[k] - &w->node.stat[0]);
			continue;
		}
		if (words[k] >= &w->wb.stat[0] &&
		    words[k] < &w->wb.stat[NR_WB_STAT_ITEMS]) {
			c->stats_pending |= 1u << (NR_NODE_STAT_ITEMS +
						   (words[k] - &w->wb.stat[0]));
			continue;
		}

		/* A deferred file's xa_lock: it is looked at again. */
		if (words[k]->tag == M_WORD_TAG_XA_LOCK) {
			undefer(c, words[k]);
			continue;
		}
		/* A mapping's extent: the slots it newly covers are to be
		 * checked. */
		if (words[k]->tag == M_WORD_TAG_XA_EXTENT) {
			const struct km_address_space *m =
				(const void *)(p - offsetof(
					struct km_address_space, xa_extent));

			f = world_file_of(w, m);
			if (f < w->nr_files)
				activate(c, f);
			continue;
		}
		/* A slot's words: m_world_slot_written pended it.  A
		 * folio's flags word is tagged by km_filemap_alloc_folio
		 * (folios are type-stable: a freed folio's struct is its
		 * id's again, and keeps the tag). */
		if (words[k]->tag != M_WORD_TAG_FOLIO_FLAGS)
			continue;
		folio = (struct km_folio *)(p - offsetof(struct km_folio,
							 flags));
		if (folio->index >= m_file_pages_max ||
		    flags_store_passes(c, folio))
			continue;
		/* Its slot, in its mapping if the entry there names it
		 * (a folio is only ever in the mapping it was made for). */
		f = world_file_of(w, folio->owner);
		if (f < w->nr_files &&
		    sim_word_peek(&m_xa_slot(folio->owner,
					     folio->index)->entry) ==
		    folio->id)
			pend(c, f, folio->index);
	}
}

/* The checker of the running execution (set in m_world_setup). */
static struct world_checker *the_checker;

/*
 * A store to slot @index of @mapping (model/lib/xarray.c): the slot is
 * pending.  The slots' blocks come and go, so the checker learns of
 * their stores here rather than from the engine's log of written
 * words, by address, as it does for folios' flags.
 */
void m_world_slot_written(struct km_address_space *mapping, pgoff_t index)
{
	struct world_checker *c = the_checker;
	struct m_world *w;
	unsigned int f;

	if (!c)
		return;
	w = c->w;
	f = world_file_of(w, mapping);
	if (f < w->nr_files && sim_spin_held(&mapping->xa_lock)) {
		/* The check after this step would pass the file over, its
		 * xa_lock held, and defer it (world_check_steps): deferred
		 * here, the check's flag left as it is and no round asked
		 * for; the release's store, tagged, puts it back (issue
		 * 28 B3.1, session 25: the page cache's stores are under
		 * its xa_lock, and each asked for every check's round). */
		pend_at(c, f, index, true);
		return;
	}
	c->quiet = false;
	sim_check_touch();	/* its watch (sim_check_register_watch) */
	if (f < w->nr_files)
		pend(c, f, index);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Check slot @i of file @f; a verdict by the exception stays pending. */
static void check_one(struct world_checker *c, unsigned int f,
		      unsigned long i)
{
	struct km_address_space *m = &c->w->inodes[f]->i_data;
	struct km_folio *head = NULL;
	enum slot_verdict v = check_slot(c->w, m, i, &head);

	/* Passed: its PG_writeback as seen; by the exception: none (it
	 * stays pending, looked at every step). */
	if (head)
		wb_seen_set(c, head->id, v == SLOT_OK ?
			    1u + m_folio_flag_peek(head, PG_writeback) : 0);
	if (v == SLOT_EXEMPT)
		pend(c, f, i);
	else if (v != SLOT_OK)
		slot_fail(c, f, i, v);
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/*
 * check_one() of every slot of file @f in [@lo, @hi), in index order.
 * A long run's slot with no word has no entry (check_slot: SLOT_OK,
 * nothing pended), so a range longer than its words table is checked
 * over the table's indices in it, sorted: the same verdicts in the same
 * order, at the cost of the cached pages and not of the range (issue 28:
 * a write at 1 TiB made the next check look at 2^28 slots).
 */
static void check_range(struct world_checker *c, unsigned int f,
			unsigned long lo, unsigned long hi)
{
	struct km_address_space *m = &c->w->inodes[f]->i_data;
	const struct m_xa_words *t = &m->i_words;
	unsigned long *idx, n = 0;

	if (!m->xa_sparse || hi <= lo || hi - lo <= t->mask + 1) {
		for (unsigned long i = lo; i < hi; i++)
			check_one(c, f, i);
		return;
	}
	idx = sim_arena_alloc((t->count + 1) * sizeof(*idx));
	for (unsigned long k = 0; k <= t->mask; k++) {
		unsigned long i;

		if (!t->w[k])
			continue;
		i = (unsigned long)((t->w[k] >> M_XA_WORD_INDEX_SHIFT) &
				    M_XA_WORD_INDEX_MASK);
		if (i >= lo && i < hi && n <= t->count)
			idx[n++] = i;
	}
	qsort(idx, n, sizeof(*idx), cmp_ulong);
	for (unsigned long k = 0; k < n; k++)
		check_one(c, f, idx[k]);
	sim_arena_free(idx, (t->count + 1) * sizeof(*idx));
}

static void check_file(struct world_checker *c, unsigned int f,
		       unsigned long extent)
{
	struct check_file *cf = &c->file[f];
	uint32_t n = cf->n;

	if (cf->all) {
		pend_clear(cf);
		cf->all = false;
		cf->verified = extent;
		check_range(c, f, 0, extent);
		return;
	}
	/* The pending slots below what was verified, in index order; then
	 * the slots the extent newly covers; those at or past the extent
	 * stay pending. */
	if (n == 0 && extent <= cf->verified)
		return;	/* nothing pending, nothing newly covered */
	if (n)
		memcpy(c->scratch, cf->list, n * sizeof(*cf->list));
	pend_clear(cf);
	if (n > 1 && n <= 16) {
		for (uint32_t a = 1; a < n; a++) {
			uint32_t v = c->scratch[a], b = a;

			for (; b > 0 && c->scratch[b - 1] > v; b--)
				c->scratch[b] = c->scratch[b - 1];
			c->scratch[b] = v;
		}
	} else if (n > 16) {
		qsort(c->scratch, n, sizeof(*c->scratch), cmp_u32);
	}
	for (uint32_t k = 0; k < n; k++) {
		unsigned long i = c->scratch[k];

		if (i >= extent)
			pend(c, f, i);
		else if (i < cf->verified)
			check_one(c, f, i);
	}
	/* (None of these is pending: the loop above left pending only
	 * slots below what was verified, or at or past the extent.) */
	check_range(c, f, cf->verified, extent);
	if (extent > cf->verified)
		cf->verified = extent;
}

/* The first failing slot of a full scan, for m_world_check_verify. */
static bool full_scan_fails(struct m_world *w, unsigned int *ff,
			    unsigned long *fi)
{
	for (unsigned int f = 0; f < w->nr_files; f++) {
		struct km_address_space *m = &w->inodes[f]->i_data;
		uint64_t extent = sim_word_peek(&m->xa_extent);

		if (sim_spin_held(&m->xa_lock))
			continue;
		if (extent > m_file_pages_max)
			extent = m_file_pages_max;
		for (unsigned long i = 0; i < extent; i++) {
			struct km_folio *head = NULL;
			enum slot_verdict v = check_slot(w, m, i, &head);

			if (v == SLOT_INV2 || v == SLOT_INV3) {
				*ff = f;
				*fi = i;
				return true;
			}
		}
	}
	return false;
}

static const struct sim_word *stat_word(struct m_world *w, int i)
{
	return i < NR_NODE_STAT_ITEMS ? &w->node.stat[i] :
	       &w->wb.stat[i - NR_NODE_STAT_ITEMS];
}

static const char *stat_name(int i)
{
	return i < NR_NODE_STAT_ITEMS ? node_stat_names[i] :
	       wb_stat_names[i - NR_NODE_STAT_ITEMS];
}

/* Invariant 1, for the counters written since they were last checked:
 * the others are as they were, not negative. */
static void check_stats(struct world_checker *c)
{
	int first = -1;

	if (m_world_check_verify)
		for (int i = 0; i < NR_NODE_STAT_ITEMS + NR_WB_STAT_ITEMS &&
		     first < 0; i++)
			if ((int64_t)sim_word_peek(stat_word(c->w, i)) < 0)
				first = i;
	while (c->stats_pending) {
		/* The lowest pending counter first, as a scan would. */
		int i = __builtin_ctz(c->stats_pending);
		int64_t v;

		c->stats_pending &= ~(1u << i);
		v = (int64_t)sim_word_peek(stat_word(c->w, i));
		if (v >= 0)
			continue;
		if (m_world_check_verify && first != i)
			sim_fail(SIM_FAIL_INVARIANT, "world check: invariant 1 "
				 "fails at %s, a full scan at %s", stat_name(i),
				 stat_name(first));
		sim_fail(SIM_FAIL_INVARIANT, "invariant 1: %s is negative "
			 "(%lld)", stat_name(i), (long long)v);
	}
	if (first >= 0)
		sim_fail(SIM_FAIL_INVARIANT, "world check: a full scan finds "
			 "%s negative, invariant 1 passes", stat_name(first));
}

static void world_dump(void *arg, FILE *out)
{
	m_world_dump(((struct world_checker *)arg)->w, out);
}

static __attribute__((noinline)) void world_check_steps(
	struct world_checker *c);

static void world_check(void *arg)
{
	struct world_checker *c = arg;
	const struct sim_word *const *words;

	uint32_t n = sim_exec_writes(&words), k;

	/* Quiet and no store this step: the test out of line of the
	 * rest, so it saves no registers. */
	if (!c->quiet || m_world_check_verify)
		goto steps;
	/* Quiet, and the step stored only counters, none negative:
	 * world_check_steps would note them, pass each (check_stats:
	 * nothing else was pending, quiet) and look at no file (none
	 * active): its verdict without its work (issue 28, session 20:
	 * the rounds after a counter's add are most of writeback's).  So
	 * too folios' flags whose PG_writeback is as their slots' last
	 * verdicts saw it (note_writes passes them: session 25, a lock
	 * or an unlock of a folio is most of the rest). */
	for (k = 0; k < n && k < SIM_WRITES_LOG; k++) {
		const struct sim_word *word = words[k];

		if (word->tag == M_WORD_TAG_FOLIO_FLAGS) {
			if (flags_store_passes(c, (const struct km_folio *)
					       ((const char *)word -
						offsetof(struct km_folio,
							 flags))))
				continue;
			goto steps;
		}
		if (!((word >= &c->w->node.stat[0] &&
		       word < &c->w->node.stat[NR_NODE_STAT_ITEMS]) ||
		      (word >= &c->w->wb.stat[0] &&
		       word < &c->w->wb.stat[NR_WB_STAT_ITEMS])) ||
		    (int64_t)sim_word_peek(word) < 0)
			goto steps;
	}
	if (n != SIM_WRITES_ALL)
		return;
steps:
	world_check_steps(c);
}

static __attribute__((noinline)) void world_check_steps(
	struct world_checker *c)
{
	struct m_world *w = c->w;
	const struct sim_word *const *words;
	uint32_t n;

	if (c->quiet && !sim_exec_writes(&words)) {
		/* The skip against a full scan: counters (check_stats
		 * with none pending scans them all), then the slots. */
		check_stats(c);
		if (full_scan_fails(w, &c->scan_f, &c->scan_i))
			sim_fail(SIM_FAIL_INVARIANT, "world check: a full scan "
				 "fails at %s slot %lu, the incremental check "
				 "had nothing pending",
				 w->inodes[c->scan_f]->name, c->scan_i);
		return;
	}
	note_writes(c);
	check_stats(c);
	if (m_world_check_verify) {
		c->scan_fails = full_scan_fails(w, &c->scan_f, &c->scan_i);
		/* Every file, as a full scan: each one's verdicts are its
		 * own, so this checks the active list too. */
		for (unsigned int f = 0; f < w->nr_files; f++)
			activate(c, f);
	}
	/* The files to look at, in file order (a full scan's). */
	n = c->nr_active;
	if (n)
		memcpy(c->order, c->active, n * sizeof(*c->order));
	c->nr_active = 0;
	if (n > 1 && n <= 16) {
		for (uint32_t a = 1; a < n; a++) {
			uint32_t v = c->order[a], b = a;

			for (; b > 0 && c->order[b - 1] > v; b--)
				c->order[b] = c->order[b - 1];
			c->order[b] = v;
		}
	} else if (n > 16) {
		qsort(c->order, n, sizeof(*c->order), cmp_u32);
	}
	/* (Only these files are activated again below: the list cannot
	 * outgrow its arrays while @order is read.) */
	for (uint32_t k = 0; k < n; k++) {
		unsigned int f = c->order[k];
		struct km_address_space *m = &w->inodes[f]->i_data;
		struct check_file *cf = &c->file[f];
		/* No entry at or past the extent (it is raised in the
		 * xa_lock section that stores one). */
		uint64_t extent = sim_word_peek(&m->xa_extent);

		cf->active = false;
		if (extent > m_file_pages_max)
			extent = m_file_pages_max;
		/* Nothing pending, nothing newly covered: check_file
		 * would return at once, the lock held or not. */
		if (!cf->n && !cf->all && extent <= cf->verified &&
		    !m_world_check_verify)
			continue;
		if (sim_spin_held(&m->xa_lock)) {
			/* Looked at again after a store to its lock. */
			defer(c, f);
			continue;
		}
		check_file(c, f, extent);
		if (cf->n || cf->all || extent > cf->verified)
			activate(c, f);
		if (m_world_check_verify && c->scan_fails && c->scan_f == f)
			sim_fail(SIM_FAIL_INVARIANT, "world check: a full scan "
				 "fails at %s slot %lu, the incremental check "
				 "passes", w->inodes[f]->name, c->scan_i);
	}
	/* Nothing left to look at, and check_stats left no counter
	 * pending. */
	c->quiet = c->nr_active == 0;
}

void m_world_blocks_freed(struct km_inode *inode, unsigned long n)
{
	if (!n || !m_xfs_fdblocks_counted())
		return;
	if (inode->i_fop == &km_xfs_file_operations)
		km_xfs_add_freecounter(n);
	else	/* ext4_evict_inode -> ext4_truncate -> ext4_free_blocks */
		m_ext4_clusters_freed(n);
}

void m_world_dump(void *arg, FILE *out)
{
	struct m_world *w = arg;

	fprintf(out, "node:");
	for (int i = 0; i < NR_NODE_STAT_ITEMS; i++)
		fprintf(out, " %s=%lld", node_stat_names[i],
			(long long)(int64_t)sim_word_peek(&w->node.stat[i]));
	fprintf(out, "\nwb:");
	for (int i = 0; i < NR_WB_STAT_ITEMS; i++)
		fprintf(out, " %s=%lld", wb_stat_names[i],
			(long long)(int64_t)sim_word_peek(&w->wb.stat[i]));
	fputc('\n', out);
	if (w->fdblocks_counted)
		fprintf(out, "fs: m_fdblocks=%lld\n",
			(long long)(int64_t)sim_word_peek(&w->fdblocks));
	for (unsigned int f = 0; f < w->nr_files; f++) {
		struct km_inode *inode = w->inodes[f];
		struct km_address_space *m = &inode->i_data;

		fprintf(out, "file %s: i_size=%llu extents=", inode->name,
			(unsigned long long)sim_word_peek(&inode->i_size));
		/* The block device's inode: its block map is the device. */
		for (unsigned int b = 0; inode != w->bdev_inode &&
		     b < inode->nr_blocks; b++) {
			if (((loff_t)b << inode->i_blkbits) >=
			    (loff_t)sim_word_peek(&inode->i_size) + 4096 &&
			    m_extent_peek(inode, b) == M_EXT_HOLE)
				break;
			fputc(m_extent_peek(inode, b), out);
		}
		fprintf(out, " wb_err=%llx\n",
			(unsigned long long)sim_word_peek(&m->wb_err));
		for (unsigned long i = 0; i < m_file_pages_max; i++) {
			uint64_t id, marks;
			struct km_folio *folio;
			static const char *const flag_names[] = {
				"locked", "writeback", "referenced",
				"uptodate", "dirty", "lru", "head", "waiters",
				"active", "workingset", "owner_priv_1",
				"reclaim", "dropbehind", "private",
			};

			if (!m_xa_block_present(m, i >> M_XA_BLOCK_SHIFT)) {
				i |= M_XA_BLOCK - 1;	/* an absent block */
				continue;
			}
			id = sim_word_peek(&m_xa_slot(m, i)->entry);
			marks = sim_word_peek(&m_xa_slot(m, i)->marks);
			if (!id || w->folios[id]->index != i)
				continue;
			folio = w->folios[id];
			fprintf(out, "  folio %u index %lu:", folio->id, i);
			for (int b = 0; b < KM_NR_PAGEFLAGS; b++)
				if (m_folio_flag_peek(folio, b))
					fprintf(out, " %s", flag_names[b]);
			fprintf(out, " marks:%s%s%s",
				(marks & 1) ? " DIRTY" : "",
				(marks & 2) ? " WRITEBACK" : "",
				(marks & 4) ? " TOWRITE" : "");
			if (sim_word_peek(&folio->mapcount))
				fprintf(out, " pte:%s%s",
					(sim_word_peek(&folio->pte) &
					 M_PTE_WRITE) ? "w" : "r",
					(sim_word_peek(&folio->pte) &
					 M_PTE_DIRTY) ? "d" : "");
			fprintf(out, " data:");
			for (size_t s = 0; s < km_folio_size(folio) >>
			     SECTOR_SHIFT; s++)
				fprintf(out, " %u", m_folio_sector(folio, s));
			fputc('\n', out);
		}
	}
	m_blkdev_dump(&w->dev, out);
}

/* Room in the file table for @need files (doubling). */
static void grow_files(struct m_world *w, unsigned int need)
{
	unsigned int cap = w->files_cap ? w->files_cap : 1;
	struct km_inode **inodes;
	struct km_file **files;
	uint32_t *rwsem_files, *calls;
	bool *live;

	while (cap < need)
		cap *= 2;
	if (cap == w->files_cap)
		return;
	inodes = sim_arena_alloc(cap * sizeof(*inodes));
	files = sim_arena_alloc(cap * sizeof(*files));
	rwsem_files = sim_arena_alloc(cap * sizeof(*rwsem_files));
	live = sim_arena_alloc(cap * sizeof(*live));
	calls = sim_arena_alloc(cap * sizeof(*calls));
	if (w->nr_files) {
		memcpy(inodes, w->inodes, w->nr_files * sizeof(*inodes));
		memcpy(files, w->files, w->nr_files * sizeof(*files));
		memcpy(live, w->live_rwsem, w->nr_files * sizeof(*live));
		memcpy(calls, w->inode_calls, w->nr_files * sizeof(*calls));
	}
	if (w->nr_rwsem_files)
		memcpy(rwsem_files, w->rwsem_files,
		       w->nr_rwsem_files * sizeof(*rwsem_files));
	if (w->files_cap) {
		sim_arena_free(w->inodes, w->files_cap * sizeof(*inodes));
		sim_arena_free(w->files, w->files_cap * sizeof(*files));
		sim_arena_free(w->rwsem_files,
			       w->files_cap * sizeof(*rwsem_files));
		sim_arena_free(w->live_rwsem, w->files_cap * sizeof(*live));
		sim_arena_free(w->inode_calls, w->files_cap * sizeof(*calls));
	}
	w->inodes = inodes;
	w->files = files;
	w->rwsem_files = rwsem_files;
	w->live_rwsem = live;
	w->inode_calls = calls;
	w->files_cap = cap;
	w->rwsem_files_cap = cap;
}

/* The checker's per-file state for @cap files. */
static void checker_grow(struct world_checker *c, unsigned int cap)
{
	struct check_file *file;

	if (cap <= c->files_cap)
		return;
	file = sim_arena_alloc(cap * sizeof(*file));
	if (c->files_cap) {
		memcpy(file, c->file, c->files_cap * sizeof(*file));
		sim_arena_free(c->file, c->files_cap * sizeof(*file));
	}
	c->file = file;
	c->files_cap = cap;
}

/* A new file is checked in full at the next check. */
static void checker_file_added(struct world_checker *c, unsigned int f)
{
	memset(&c->file[f], 0, sizeof(c->file[f]));
	c->file[f].all = true;
	activate(c, f);
	c->quiet = false;
	sim_check_touch();	/* its watch (sim_check_register_watch) */
}

/*
 * The i_rwsem of every inode on rwsem_files, in file order.  A summary
 * mode rwsem whose held-lock view did not change since its last check
 * (debug.changes, counted by model/kernel/rwsem.c in the step of each
 * change of the fields that check reads: debug.writer, readers,
 * readers_total, misuse_task, and the summary lock, whose every change
 * comes with one of theirs) passes again unless a task exited this step
 * (invariant 2 asks about it).  An exact-mode rwsem is checked every
 * step (it reads words and its wait list too).  Under
 * m_world_check_verify every rwsem is checked every step.
 */
static __attribute__((noinline)) void rwsem_files_check_all(
	struct m_world *w);

/*
 * The rwsem check's watch (sim_check_register_watch, issue 28, session
 * 18): true when its last run left every rwsem on rwsem_files in summary
 * mode and checked (debug.checked == debug.changes) and no file joined
 * the list since (m_world_inode_use, m_world_file_add clear it).  Then
 * after a step with no exit the check passes unless some debug.changes
 * moved, and each change is counted right after the summary lock's
 * operation (sim_rwlock_*: it logs a store) in the same step, with no
 * scheduling point between (model/kernel/rwsem.c: held_read,
 * held_write, the summary paths of km_up_*, km_downgrade_write;
 * note_misuse fails the execution at once): so after a step that logged
 * no store it would do nothing, and the engine does not call it.
 */
static bool rwsem_files_quiet;

static void rwsem_files_check(void *arg)
{
	struct m_world *w = arg;

	/* Every rwsem one the loop below would pass (summary mode, no
	 * change since its check, no exit this step): out of line of the
	 * loop, so this saves no registers. */
	if (m_world_check_verify)
		goto all;
	for (uint32_t k = 0; k < w->nr_rwsem_files; k++) {
		const struct km_rw_semaphore *sem =
			&w->inodes[w->rwsem_files[k]]->i_rwsem;

		if (!sem->use_summary ||
		    sem->debug.changes != sem->debug.checked)
			goto all;
	}
	if (w->nr_rwsem_files && sim_exec_exit_in_last_step() >= 0)
		goto all;
	rwsem_files_quiet = true;	/* every one summary and checked */
	return;
all:
	rwsem_files_check_all(w);
}

static __attribute__((noinline)) void rwsem_files_check_all(
	struct m_world *w)
{
	bool exited = sim_exec_exit_in_last_step() >= 0;
	bool summary = !m_world_check_verify;

	for (uint32_t k = 0; k < w->nr_rwsem_files; k++) {
		struct km_rw_semaphore *sem =
			&w->inodes[w->rwsem_files[k]]->i_rwsem;

		summary = summary && sem->use_summary;
		/* Its summary lock's word: each change is counted right
		 * after a store to it (sim_check_watch_tagged). */
		if (sem->use_summary)
			sem->summary.word.tag = M_WORD_TAG_RWSEM;
		if (sem->use_summary && !exited &&
		    sem->debug.changes == sem->debug.checked &&
		    !m_world_check_verify)
			continue;
		m_rwsem_check(sem);
		sem->debug.checked = sem->debug.changes;
	}
	rwsem_files_quiet = summary;
}

/* Every inode's, as if each were a check of its own (its name first). */
static void rwsem_files_dump(void *arg, FILE *out)
{
	struct m_world *w = arg;

	for (unsigned int f = 0; f < w->nr_files; f++) {
		if (f)
			fprintf(out, "-- %s --\n", w->inodes[f]->i_rwsem.name);
		m_rwsem_dump(&w->inodes[f]->i_rwsem, out);
	}
}

/*
 * One check for the inodes' i_rwsems, named as the first's: it checks
 * and dumps them in file order, where each used to be a check of its
 * own, so that any number of files fits the engine's SIM_CHECKS_MAX.
 */
static void rwsem_check_register(struct m_world *w)
{
	rwsem_files_quiet = false;	/* it runs after the next step */
	sim_check_register_watch(w->inodes[0]->i_rwsem.name,
				 rwsem_files_check, rwsem_files_dump, w,
				 &rwsem_files_quiet);
	sim_check_watch_tag(rwsem_files_check, w, M_WORD_TAG_RWSEM);
	w->rwsem_check_registered = true;
}

void m_world_setup(const struct m_world_config *config)
{
	struct m_world *w = sim_arena_alloc(sizeof(*w));
	struct world_checker *checker;
	unsigned long objects = 0;

	current_world = w;
	/* Setup's statics, for the snapshot after it (sim/snapshot.h). */
	sim_setup_static(&current_world, sizeof(current_world),
			 "current_world");
	sim_setup_static(&the_checker, sizeof(the_checker), "the_checker");
	sim_setup_static(&rwsem_files_quiet, sizeof(rwsem_files_quiet),
			 "rwsem_files_quiet");
	/* lockdep's lock-order graph over the check's executions: the
	 * model's locks follow the kernel's orders (docs/lockdep.md). */
	sim_lockdep_order_enable();
#define COPY_VARIANT(id, key, type, field, values, help)		\
	w->field = config->field;
	M_VARIANT_KEYS(COPY_VARIANT)
#undef COPY_VARIANT
	w->long_run = config->long_run;
	w->mem_pages = config->mem_pages;
	w->ra_pages = config->ra_pages;
	/* The filesystem's free blocks, when counted: XFS's m_fdblocks as
	 * xfs_mountfs leaves it (model/fs/xfs/xfs_mount.c). */
	w->fdblocks_counted = config->fs_free_counted;
	w->xfs_dblocks = config->fs_free_blocks;
	w->xfs_allocsize_log = config->xfs_allocsize_log;
	w->xfs_wb_allocs = 0;
	w->xfs_unwritten_converts = 0;
	w->xfs_unwritten_runs = 0;
	w->xfs_unwritten_splits = 0;
	if (w->fdblocks_counted)
		sim_word_init(&w->fdblocks, config->fs_free_blocks,
			      "m_fdblocks");
	the_checker = NULL;	/* the files' setup: checked in full first */
	for (int i = 0; i < NR_NODE_STAT_ITEMS; i++)
		sim_word_init(&w->node.stat[i], 0, "%s", node_stat_names[i]);
	for (int i = 0; i < NR_WB_STAT_ITEMS; i++)
		sim_word_init(&w->wb.stat[i], 0, "%s", wb_stat_names[i]);
	{
		unsigned long thresh = config->dirty_thresh_pages;
		unsigned long bg_thresh = config->dirty_bg_thresh_pages;

		if (config->dirty_limit_pages > 0) {
			thresh = (unsigned long)config->dirty_limit_pages;
			bg_thresh = thresh / 2;
		}
		sim_word_init(&w->wb.dirty_limit, thresh, "wb.dirty_limit");
		sim_waitq_init(&w->wb.throttle_wait, "wb.throttle");
		if (thresh)
			m_wb_throttle_init(&w->wb, thresh, bg_thresh);
	}
	/* Scenarios may name the sectors of M_DEV_FILES files; a long run
	 * has its files' sectors only, and room for the files it may add;
	 * a raw block device target (wpsim fio's /dev/) its own size. */
	w->files_room = config->nr_files + config->files_reserve;
	if (w->files_room < config->nr_files)
		sim_fail(SIM_FAIL_BOUND, "%u files and %u more: too many",
			 config->nr_files, config->files_reserve);
	m_blkdev_init(&w->dev, config->dev_sectors ? config->dev_sectors :
		      (sector_t)(w->files_room > M_DEV_FILES ||
				 config->long_run ?
				 w->files_room : M_DEV_FILES) *
		      m_file_pages_max * SECTORS_PER_PAGE);
	if (config->dev_atomic_set) {	/* the driver's probe (NVMe) */
		m_queue_limits_nvme_atomic(&w->dev.limits, &config->dev_atomic);
		km_blk_validate_limits(&w->dev.limits);
	}
	w->dev.sparse = config->long_run;
	/* The filesystem's log on a timed device (XFS: m_xfs_log_mount). */
	w->dev.timed_attached = m_xfs_log_mount;
	w->folios_cap = m_folios_max() + 1 < 4096 ? m_folios_max() + 1 : 4096;
	w->folios = sim_arena_alloc(w->folios_cap * sizeof(*w->folios));
	w->free_ids = NULL;
	w->free_ids_cap = 0;
	w->dev.fail_nth_bio = config->fail_nth_bio;
	w->dev.fail_range = config->fail_range;
	w->dev.fail_sector_first = config->fail_sector_first;
	w->dev.fail_sector_last = config->fail_sector_last;
	if (config->nr_files > M_FILES_MAX && !config->file_table)
		sim_fail(SIM_FAIL_BOUND, "%u files: a config holds at most %d "
			 "inline (M_FILES_MAX, include/model/linux/types.h); "
			 "more come in its file_table", config->nr_files,
			 M_FILES_MAX);
	w->nr_files = 0;
	grow_files(w, config->nr_files);
	/* Say which option to lower before the engine's object bound. */
	for (unsigned int f = 0; f < config->nr_files; f++) {
		unsigned int bits = m_world_config_file(config, f)->blkbits ?
				    m_world_config_file(config, f)->blkbits :
				    12;

		objects += 2 * m_file_pages_max +
			   ((m_file_pages_max * PAGE_SIZE) >> bits);
	}
	if (!config->long_run && objects >= SIM_OBJECTS_MAX)
		sim_fail(SIM_FAIL_BOUND, "%u file(s) of --max-pages %lu pages "
			 "need %lu page-cache and block-map objects; an "
			 "exploration holds %d shared objects (lower "
			 "--max-pages)", config->nr_files, m_file_pages_max,
			 objects, SIM_OBJECTS_MAX);
	if (config->long_run) {
		struct m_folio_objects *o = &w->folio_objects;

		o->flags = sim_object_register("folio.flags");
		o->waitq = sim_object_register("folio.wait");
		o->mapping = sim_object_register("folio.mapping");
		o->refcount = sim_object_register("folio.refcount");
		o->mapcount = sim_object_register("folio.mapcount");
		o->pte = sim_object_register("folio.pte");
		o->ifs_lock = sim_object_register("folio.ifs_lock");
		o->ifs = sim_object_register("folio.ifs");
		o->ifs_attached = sim_object_register("folio.private");
		o->data_version = sim_object_register("folio.data");
		o->dontcache_counted = sim_object_register("folio.dc_counted");
		o->dontcache_written = sim_object_register("folio.dc_written");
	}
	for (unsigned int f = 0; f < config->nr_files; f++)
		m_world_file_add(m_world_config_file(config, f));
	checker = sim_arena_alloc(sizeof(*checker));
	memset(checker, 0, sizeof(*checker));
	checker->w = w;
	checker->stats_pending = STATS_ALL;
	checker_grow(checker, w->files_cap);
	for (unsigned int f = 0; f < w->nr_files; f++)
		checker_file_added(checker, f);
	the_checker = checker;
	/* Its watch is its own first test (world_check): quiet and no
	 * store this step; under m_world_check_verify it runs every step. */
	sim_check_register_watch("model", world_check, world_dump, checker,
				 m_world_check_verify ? NULL : &checker->quiet);
	/* The words it reads, tagged (sim_check_watch_tagged): the
	 * counters here, each mapping's extent (setup_file) and each
	 * folio's flags (km_filemap_alloc_folio); the slots touch. */
	for (int i = 0; i < NR_NODE_STAT_ITEMS; i++)
		w->node.stat[i].tag = M_WORD_TAG_STAT;
	for (int i = 0; i < NR_WB_STAT_ITEMS; i++)
		w->wb.stat[i].tag = M_WORD_TAG_STAT;
	if (!m_world_check_verify) {
		sim_check_watch_tag(world_check, checker, M_WORD_TAG_STAT);
		sim_check_watch_tag(world_check, checker,
				    M_WORD_TAG_XA_EXTENT);
		sim_check_watch_tag(world_check, checker,
				    M_WORD_TAG_FOLIO_FLAGS);
		sim_check_watch_tag(world_check, checker, M_WORD_TAG_XA_LOCK);
	}
	m_blkdev_check_register(&w->dev);
	m_writethrough_setup();
	if (w->nr_files)
		rwsem_check_register(w);
}

unsigned int m_world_file_add(const struct m_file_config *fc)
{
	struct m_world *w = m_world();
	struct world_checker *c = the_checker;
	unsigned int n = w->nr_files;

	/* The bdev's inode takes no room on the device (setup_file). */
	if (n >= w->files_room && fc->fs != M_FS_BDEV)
		sim_fail(SIM_FAIL_BOUND, "file %u: the device has room for %u "
			 "files (m_world_config.files_reserve)", n + 1,
			 w->files_room);
	grow_files(w, n + 1);
	if (c)
		checker_grow(c, w->files_cap);
	setup_file(w, n, fc, w->long_run);
	w->nr_files = n + 1;
	w->live_rwsem[n] = true;
	w->rwsem_files[w->nr_rwsem_files++] = n;	/* the largest */
	rwsem_files_quiet = false;	/* the rwsem check's watch */
	sim_check_touch();
	if (!c)
		return n;	/* m_world_setup goes on */
	checker_file_added(c, n);
	m_writethrough_file_added(n);
	if (!w->rwsem_check_registered)
		rwsem_check_register(w);
	return n;
}

/* Where file @f is or would go on the sorted rwsem_files. */
static uint32_t rwsem_pos(const struct m_world *w, uint32_t f)
{
	uint32_t lo = 0, hi = w->nr_rwsem_files;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (w->rwsem_files[mid] < f)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Nothing to check and nothing that will change without a new call: no
 * holder, no waiter, no misuse, the count (or the summary lock) free.
 * Then the rwsem check passes, and goes on passing until a task takes
 * the lock again, which only a call on the inode does (writeback, the
 * flusher's, takes no i_rwsem).
 */
static bool rwsem_idle(const struct km_rw_semaphore *sem)
{
	if (sem->debug.writer >= 0 || sem->debug.readers_total ||
	    sem->debug.misuse_task >= 0 || sem->wait_count)
		return false;
	if (sem->use_summary)
		return !sim_word_peek(&sem->summary.word) &&
		       !sem->summary.writer && !sem->summary.waiters;
	/* An owner left behind names readers (the kernel leaves it so);
	 * a writer's would fail the check's invariant 8. */
	return !sim_word_peek(&sem->count) &&
	       !sim_spin_held(&sem->wait_lock) &&
	       (!sim_word_peek(&sem->owner) ||
		(sim_word_peek(&sem->owner) & RWSEM_READER_OWNED));
}

void m_world_inode_use(struct km_inode *inode)
{
	struct m_world *w = m_world();
	uint32_t f = (uint32_t)(inode->i_ino - 1), k;

	if (!w || f >= w->nr_files || w->inodes[f] != inode)
		return;
	w->inode_calls[f]++;
	if (w->live_rwsem[f])
		return;
	k = rwsem_pos(w, f);
	memmove(&w->rwsem_files[k + 1], &w->rwsem_files[k],
		(w->nr_rwsem_files - k) * sizeof(*w->rwsem_files));
	w->rwsem_files[k] = f;
	w->nr_rwsem_files++;
	w->live_rwsem[f] = true;
	rwsem_files_quiet = false;	/* the rwsem check's watch */
	sim_check_touch();
}

void m_world_inode_done(struct km_inode *inode)
{
	struct m_world *w = m_world();
	uint32_t f = (uint32_t)(inode->i_ino - 1), k;

	if (!w || f >= w->nr_files || w->inodes[f] != inode ||
	    !w->inode_calls[f] || --w->inode_calls[f] ||
	    !w->live_rwsem[f] || !rwsem_idle(&inode->i_rwsem))
		return;
	k = rwsem_pos(w, f);
	memmove(&w->rwsem_files[k], &w->rwsem_files[k + 1],
		(w->nr_rwsem_files - k - 1) * sizeof(*w->rwsem_files));
	w->nr_rwsem_files--;
	w->live_rwsem[f] = false;
}

static size_t fmt(char *why, size_t size, const char *what)
{
	return (size_t)snprintf(why, size, "%s", what);
}

/* Invariants 12-14 (see the top of this file). */
static bool quiescent_ownership(struct m_world *w, char *why, size_t size)
{
	int64_t cached = 0, nrpages = 0;

	for (uint32_t id = 1; id <= w->nr_folios; id++) {
		struct km_folio *folio = w->folios[id];
		bool in_cache = sim_word_peek(&folio->mapping) != 0;
		int64_t ref = (int64_t)sim_word_peek(&folio->refcount);
		bool present = sim_word_peek(&folio->pte) & M_PTE_PRESENT;

		if (in_cache)
			cached += (int64_t)km_folio_nr_pages(folio);
		if (ref != (in_cache ? 1 : 0)) {
			snprintf(why, size, "invariant 12: folio %u has "
				 "refcount %lld, %s", folio->id,
				 (long long)ref, in_cache ?
				 "the page cache holds the only reference" :
				 "out of the page cache, nobody holds one");
			return false;
		}
		if ((int64_t)sim_word_peek(&folio->mapcount) != present) {
			snprintf(why, size, "invariant 12: folio %u has "
				 "mapcount %lld, its PTE is %spresent",
				 folio->id, (long long)(int64_t)
				 sim_word_peek(&folio->mapcount),
				 present ? "" : "not ");
			return false;
		}
		if (m_folio_flag_peek(folio, PG_locked) ||
		    m_folio_flag_peek(folio, PG_writeback)) {
			snprintf(why, size, "invariant 12: folio %u is %s with "
				 "no task or bio left to end it", folio->id,
				 m_folio_flag_peek(folio, PG_locked) ?
				 "locked" : "under writeback");
			return false;
		}
	}
	for (unsigned int f = 0; f < w->nr_files; f++) {
		struct km_address_space *m = &w->inodes[f]->i_data;
		int64_t here = 0;

		for (unsigned long i = 0; i < m_file_pages_max; i++) {
			uint64_t id;
			struct km_folio *folio;

			if (!m_xa_block_present(m, i >> M_XA_BLOCK_SHIFT)) {
				i |= M_XA_BLOCK - 1;	/* an absent block */
				continue;
			}
			id = sim_word_peek(&m_xa_slot(m, i)->entry);
			if (!id)
				continue;
			folio = w->folios[id];
			if (folio->owner != m || !sim_word_peek(&folio->mapping)
			    || i < folio->index ||
			    i >= folio->index + km_folio_nr_pages(folio)) {
				snprintf(why, size, "invariant 14: %s index %lu "
					 "names folio %u, which is not cached "
					 "there", w->inodes[f]->name, i,
					 folio->id);
				return false;
			}
			here++;
		}
		if ((int64_t)sim_word_peek(&m->nrpages) != here) {
			snprintf(why, size, "invariant 14: %s nrpages %lld, "
				 "%lld pages cached", w->inodes[f]->name,
				 (long long)(int64_t)sim_word_peek(&m->nrpages),
				 (long long)here);
			return false;
		}
		nrpages += here;
	}
#define STAT(x) ((int64_t)sim_word_peek(&w->node.stat[x]))
#define WBSTAT(x) ((int64_t)sim_word_peek(&w->wb.stat[x]))
	if (STAT(NR_FILE_PAGES) != cached || nrpages != cached) {
		snprintf(why, size, "invariant 14: NR_FILE_PAGES %lld, "
			 "nrpages %lld, cached pages %lld",
			 (long long)STAT(NR_FILE_PAGES), (long long)nrpages,
			 (long long)cached);
		return false;
	}
	if (STAT(NR_DIRTIED) != WBSTAT(WB_DIRTIED) ||
	    STAT(NR_WRITTEN) != WBSTAT(WB_WRITTEN)) {
		snprintf(why, size, "invariant 14: NR_DIRTIED %lld vs "
			 "WB_DIRTIED %lld, NR_WRITTEN %lld vs WB_WRITTEN %lld",
			 (long long)STAT(NR_DIRTIED),
			 (long long)WBSTAT(WB_DIRTIED),
			 (long long)STAT(NR_WRITTEN),
			 (long long)WBSTAT(WB_WRITTEN));
		return false;
	}
#undef STAT
#undef WBSTAT
	if (w->dev.bios_ended != sim_word_peek(&w->dev.bios_submitted)) {
		snprintf(why, size, "invariant 13: %llu bios submitted, %llu "
			 "ended", (unsigned long long)
			 sim_word_peek(&w->dev.bios_submitted),
			 (unsigned long long)w->dev.bios_ended);
		return false;
	}
	return true;
}

bool m_world_quiescent_check(char *why, size_t size)
{
	struct m_world *w = m_world();
	int64_t dirty = 0, writeback = 0, dc_dirty = 0;

	if (!quiescent_ownership(w, why, size))
		return false;
	for (uint32_t id = 1; id <= w->nr_folios; id++) {
		struct km_folio *folio = w->folios[id];
		struct km_address_space *m = folio->owner;
		loff_t isize = (loff_t)sim_word_peek(&m->host->i_size);
		uint64_t marks;
		int64_t nr = (int64_t)km_folio_nr_pages(folio);
		bool pg_dirty = m_folio_flag_peek(folio, PG_dirty);

		if (!sim_word_peek(&folio->mapping))
			continue;
		marks = sim_word_peek(&m_xa_slot(m, folio->index)->marks);
		if (m_folio_flag_peek(folio, PG_locked)) {
			snprintf(why, size, "invariant 9: folio %u is still "
				 "locked", folio->id);
			return false;
		}
		if (pg_dirty)
			dirty += nr;
		if (pg_dirty && m_folio_flag_peek(folio, PG_dropbehind))
			dc_dirty += nr;
		if (m_folio_flag_peek(folio, PG_writeback))
			writeback += nr;
		if (pg_dirty && sim_word_peek(&folio->ifs_attached)) {
			unsigned int nr = (unsigned int)(km_folio_size(folio) >>
						m->host->i_blkbits);
			uint64_t all = nr >= 32 ? 0xffffffffULL :
				       (1ULL << nr) - 1;

			if (!((sim_word_peek(&folio->ifs) >> 32) & all)) {
				snprintf(why, size, "invariant 15: folio %u "
					 "is dirty with no dirty block in its "
					 "iomap_folio_state (writeback writes "
					 "none of it)", folio->id);
				return false;
			}
		}
		if ((sim_word_peek(&folio->pte) & M_PTE_WRITE) && !pg_dirty) {
			snprintf(why, size, "invariant 10: folio %u is mapped "
				 "writable but clean", folio->id);
			return false;
		}
		if (pg_dirty && !(marks & (1u << PAGECACHE_TAG_DIRTY))) {
			snprintf(why, size, "invariant 7: folio %u is dirty "
				 "without the DIRTY mark", folio->id);
			return false;
		}
		if (!pg_dirty && (marks & (1u << PAGECACHE_TAG_DIRTY)) &&
		    km_folio_pos(folio) < isize) {
			snprintf(why, size, "invariant 7: folio %u has a "
				 "stale DIRTY mark inside EOF", folio->id);
			return false;
		}
	}
#define STAT(x) ((int64_t)sim_word_peek(&w->node.stat[x]))
#define WBSTAT(x) ((int64_t)sim_word_peek(&w->wb.stat[x]))
	if (STAT(NR_FILE_DIRTY) != dirty || WBSTAT(WB_RECLAIMABLE) != dirty) {
		snprintf(why, size, "invariant 4: NR_FILE_DIRTY %lld, "
			 "WB_RECLAIMABLE %lld, dirty pages %lld",
			 (long long)STAT(NR_FILE_DIRTY),
			 (long long)WBSTAT(WB_RECLAIMABLE), (long long)dirty);
		return false;
	}
	if (STAT(NR_WRITEBACK) != writeback ||
	    WBSTAT(WB_WRITEBACK) != writeback) {
		snprintf(why, size, "invariant 5: NR_WRITEBACK %lld, "
			 "WB_WRITEBACK %lld, writeback pages %lld",
			 (long long)STAT(NR_WRITEBACK),
			 (long long)WBSTAT(WB_WRITEBACK), (long long)writeback);
		return false;
	}
	if (STAT(NR_ZONE_WRITE_PENDING) != dirty + writeback) {
		snprintf(why, size, "invariant 6: NR_ZONE_WRITE_PENDING %lld "
			 "!= dirty %lld + writeback %lld",
			 (long long)STAT(NR_ZONE_WRITE_PENDING),
			 (long long)dirty, (long long)writeback);
		return false;
	}
	if (w->dontcache >= M_DC_7_3 && WBSTAT(WB_DONTCACHE_DIRTY) != dc_dirty) {
		snprintf(why, size, "invariant 8: WB_DONTCACHE_DIRTY %lld, "
			 "dirty dropbehind pages %lld",
			 (long long)WBSTAT(WB_DONTCACHE_DIRTY),
			 (long long)dc_dirty);
		return false;
	}
#undef STAT
#undef WBSTAT
	for (unsigned int f = 0; f < w->nr_files; f++) {
		struct km_inode *inode = w->inodes[f];

		if (sim_word_peek(&inode->i_dio_count)) {
			fmt(why, size, "invariant 9: direct I/O still in "
			    "flight");
			return false;
		}
	}
	return true;
}
