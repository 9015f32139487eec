// SPDX-License-Identifier: MIT
/*
 * model/mm/fadvise.c - posix_fadvise(2): POSIX_FADV_DONTNEED, which
 * starts writeback of the range (WB_SYNC_NONE) and then evicts its clean
 * folios, skipping those locked, dirty, mapped or under writeback.
 *
 * Models mm/fadvise.c of v6.18: ksys_fadvise64_64 -> vfs_fadvise ->
 * generic_fadvise (XFS's ->fadvise, xfs_file_fadvise, takes the IOLOCK
 * for POSIX_FADV_WILLNEED only and otherwise calls generic_fadvise; ext4
 * has none).  The eviction is mapping_try_invalidate
 * (model/mm/truncate.c).  fio's file_invalidate_cache calls it when it
 * opens a file (tools/wpsim/fio.c, the verify pass).
 *
 * POSIX_FADV_NORMAL, _RANDOM and _SEQUENTIAL set the file's readahead
 * state: ra_pages the bdi's (the world's read_ahead_kb), FMODE_RANDOM,
 * twice the bdi's; fio gives one of them to the files of a job that
 * reads (fadvise_hint).
 *
 * Leaves out: POSIX_FADV_WILLNEED (force_page_cache_readahead): a model
 * bound (sim_fail), never a silent success; DAX and noop_backing_dev_info (the model has
 * neither); lru_add_drain and the second pass after lru_add_drain_all
 * (the model has no per-CPU LRU caches, so a folio that fails once fails
 * again); file descriptors (-EBADF), FIFOs (-ESPIPE).
 */
#include "model/linux/fadvise.h"

#include <limits.h>

#include "model/linux/pagemap.h"
#include "model/linux/writeback.h"
#include "model/world.h"

/**
 * km_generic_fadvise - the page cache's answer to posix_fadvise.
 * Kernel: mm/fadvise.c generic_fadvise, v6.18.
 * Context: process context; POSIX_FADV_DONTNEED may sleep on the folio
 * locks writeback takes, never on writeback itself.
 * Return: 0, or -EINVAL (negative @len, unknown advice).
 * Context (NORMAL, RANDOM, SEQUENTIAL): takes f_lock for f_mode; f_ra is
 * written unlocked, as in the kernel.
 * Divergences: those of the file's opening comment.  DONTNEED: the
 * range's first and last whole pages as the kernel computes them (the
 * last partial page is kept unless the range ends at a page boundary or
 * at the file's last byte).  The writeback's bios hold BIO_MAX_VECS
 * (256) folios, as the kernel's, but never merge a page into the last
 * bvec (the kernel's do when the pages follow in memory: docs/model/
 * bio.md "Bio size"), so under blk-wbt's depth the model can have
 * somewhat fewer bytes in flight (docs/model/fadvise.md, "The cost of
 * fio's wrap").
 */
int km_generic_fadvise(struct km_file *file, loff_t offset, loff_t len,
		       int advice)
{
	struct km_inode *inode = file->f_inode;
	struct km_address_space *mapping = km_inode_mapping(inode);
	loff_t endbyte;		/* inclusive */
	pgoff_t start_index, end_index;

	if (!mapping || len < 0)
		return -KM_EINVAL;
	/* Careful about overflows.  len == 0 means "as much as possible". */
	endbyte = (loff_t)((unsigned long long)offset +
			   (unsigned long long)len);
	if (!len || endbyte < len)
		endbyte = LLONG_MAX;
	else
		endbyte--;	/* inclusive */

	switch (advice) {
	case KM_POSIX_FADV_NORMAL:
		file->f_ra.ra_pages = m_world()->ra_pages;
		sim_spin_lock(&file->f_lock);
		file->f_mode &= ~FMODE_RANDOM;
		sim_spin_unlock(&file->f_lock);
		break;
	case KM_POSIX_FADV_RANDOM:
		sim_spin_lock(&file->f_lock);
		file->f_mode |= FMODE_RANDOM;
		sim_spin_unlock(&file->f_lock);
		break;
	case KM_POSIX_FADV_SEQUENTIAL:
		file->f_ra.ra_pages = m_world()->ra_pages * 2;
		sim_spin_lock(&file->f_lock);
		file->f_mode &= ~FMODE_RANDOM;
		sim_spin_unlock(&file->f_lock);
		break;
	case KM_POSIX_FADV_NOREUSE:
		break;
	case KM_POSIX_FADV_DONTNEED:
		km___filemap_fdatawrite_range(mapping, offset, endbyte,
					      WB_SYNC_NONE);
		/* First and last FULL page. */
		start_index = (pgoff_t)(offset + (PAGE_SIZE - 1)) >> PAGE_SHIFT;
		end_index = (pgoff_t)endbyte >> PAGE_SHIFT;
		if ((endbyte & (loff_t)(PAGE_SIZE - 1)) !=
		    (loff_t)(PAGE_SIZE - 1) &&
		    endbyte != km_i_size_read(inode) - 1) {
			if (end_index == 0)
				break;
			end_index--;
		}
		if (end_index >= start_index) {
			unsigned long nr_failed = 0;

			/* lru_add_drain: no per-CPU LRU caches here. */
			km_mapping_try_invalidate(mapping, start_index,
						  end_index, &nr_failed);
			/* if (nr_failed) lru_add_drain_all() and again: the
			 * model's second pass would fail on the same folios
			 * (see the file's opening comment). */
		}
		break;
	case KM_POSIX_FADV_WILLNEED:
		sim_fail(SIM_FAIL_BOUND, "posix_fadvise advice %d is not "
			 "modelled (model/mm/fadvise.c: no WILLNEED)", advice);
		return -KM_EINVAL;
	default:
		return -KM_EINVAL;
	}
	return 0;
}

/**
 * km_ksys_fadvise64_64 - posix_fadvise(2).
 * Kernel: mm/fadvise.c ksys_fadvise64_64 -> vfs_fadvise, v6.18.
 * Context: process context.
 * Return: as km_generic_fadvise.
 * Divergences: no file descriptor (-EBADF); no filesystem's ->fadvise
 * (XFS's calls generic_fadvise for every advice the model has).
 */
int km_ksys_fadvise64_64(struct km_file *file, loff_t offset, loff_t len,
			 int advice)
{
	return km_generic_fadvise(file, offset, len, advice);
}
