// SPDX-License-Identifier: MIT
/*
 * model/mm/memory.c - stores through a shared file mapping, and unmapping.
 *
 * Models the parts of mm/memory.c of v6.18 that dirty file folios
 * (kernel-mm.md §1.5): the write fault on a shared mapping
 * (do_shared_fault for a missing PTE, wp_page_shared for a read-only one,
 * both with ->page_mkwrite, then fault_dirty_shared_page), a store through
 * a writable PTE (the hardware sets the dirty bit, no kernel code), and
 * the unmap path (zap_pte_range -> zap_present_folio_ptes) that moves a
 * dirty PTE's dirt into the folio with only the PTE lock held — not the
 * folio lock.  The model has one shared VMA per file covering the file.
 *
 * The fault takes the mapping's invalidate_lock where v6.18 does:
 * shared in filemap_fault while it creates or reads the folio, and (the
 * XFS MMAPLOCK) shared around ->page_mkwrite (__xfs_write_fault,
 * model/fs/xfs/xfs_file.c), so a fault waits for a truncate, a punch,
 * a zeroing or a short write's delalloc release that holds it exclusive.
 *
 * Leaves out: mmap_lock and its dropping around balance_dirty_pages,
 * TLB batching, the accessed bit, private and anonymous mappings, huge
 * mappings (a folio is mapped by one PTE-like word whatever its order),
 * VM_FAULT_RETRY paths other than a truncated folio.
 */
#include "model/linux/mm.h"
#include "model/linux/pagemap.h"
#include "model/linux/writeback.h"
#include "model/world.h"

#define M_STORE_FAULTS_MAX	16	/* faults one store may take */

/**
 * km_fault_dirty_shared_page - dirty a folio after a shared write fault.
 * Kernel: mm/memory.c, v6.18.
 * Context: folio locked on entry, unlocked on return.
 * Divergences: no file_update_time (the fs has ->page_mkwrite), the
 * mmap_lock is not dropped; balance_dirty_pages is called.  With
 * break=fault_dirty_unlocked the folio is not locked on entry (see
 * shared_write_fault).
 */
void km_fault_dirty_shared_page(struct km_folio *folio)
{
	struct km_address_space *mapping = folio->owner;
	bool dirtied;

	dirtied = km_folio_mark_dirty(folio);
	/* break=fault_dirty_unlocked: the folio was unlocked already. */
	if (!m_broken(M_BREAK_FAULT_DIRTY_UNLOCKED))
		km_folio_unlock(folio);
	/* (dirtied || page_mkwrite): the fs always has ->page_mkwrite. */
	(void)dirtied;
	km_balance_dirty_pages_ratelimited_flags(mapping, 0);
}

/*
 * The fault for a store at page @index of the file: find the folio (the
 * fault path reads it if needed), ->page_mkwrite, install or upgrade the
 * PTE writable and dirty under the PTE lock, fault_dirty_shared_page.
 * Returns the folio it stored into (referenced), or NULL if the page is
 * beyond EOF (SIGBUS in the kernel).
 * Kernel: mm/memory.c do_shared_fault, wp_page_shared, finish_fault,
 * finish_mkwrite_fault; mm/filemap.c filemap_fault; fs/xfs/xfs_file.c
 * __xfs_write_fault, v6.18.
 * filemap_fault's invalidate_lock: a lookup that finds no folio takes
 * it shared and looks again with FGP_CREAT; one that finds a folio not
 * uptodate unlocks and drops the folio, takes it and looks again (the
 * kernel's "!mapping_locked: goto retry_find"); held across the read,
 * released once the folio is locked and uptodate, before ->page_mkwrite
 * (which takes it again on XFS: the MMAPLOCK).  An uptodate cached folio
 * is locked without it, as in v6.18.  break=fault_no_mmaplock: none of
 * it (one locked lookup with FGP_CREAT), the model before session 13.
 * Divergences (issue 17 items 3, 4; docs/model/fidelity.md):
 *  - no vmf_pte_changed / pte_same re-check under the PTE lock: the PTE
 *    is installed whatever happened to it; with no mmap_lock or VMA lock
 *    a munmap zap can run during the fault, which then maps the folio
 *    again (the kernel's fault excludes munmap);
 *  - filemap_fault's lookups lock the folio they find at once (the
 *    kernel's filemap_get_folio takes a reference only, and locks after
 *    the uptodate test), a new folio is created locked (the kernel
 *    creates it unlocked, FGP_CREAT | FGP_FOR_MMAP, and locks it after),
 *    no retry_find after the read (the folio read is locked again), no
 *    truncation or i_size re-check under the folio lock (page_mkwrite's
 *    truncate check catches a truncated folio; i_size is read before
 *    the lookup), no readahead (do_sync_mmap_readahead,
 *    do_async_mmap_readahead);
 *  - a read-only present PTE also goes through the locked lookup
 *    (wp_page_shared calls ->page_mkwrite without the folio lock);
 *  - XFS's __xfs_write_fault wrapper has its MMAPLOCK (xfs_file.c) but
 *    no sb_start_pagefault or file_update_time.
 */
static struct km_folio *shared_write_fault(struct km_address_space *mapping,
					   pgoff_t index)
{
	struct km_inode *inode = mapping->host;
	struct km_folio_or_err r;
	struct km_folio *folio;
	vm_fault_ret_t ret;

	for (;;) {
		/* break=fault_no_mmaplock: one locked lookup, no lock. */
		bool mapping_locked = m_broken(M_BREAK_FAULT_NO_MMAPLOCK);
		bool took_lock = false;

		/* filemap_fault: find or read the folio, return it locked. */
		if ((loff_t)(index << PAGE_SHIFT) >= km_i_size_read(inode))
			return NULL;
retry_find:
		r = km___filemap_get_folio(mapping, index, mapping_locked ?
					   FGP_LOCK | FGP_CREAT : FGP_LOCK);
		if (r.err == -KM_ENOENT && !mapping_locked) {
			/* No folio in the page cache at all: the
			 * invalidate_lock (against truncate and punch),
			 * then the lookup that creates it. */
			km_down_read(&mapping->invalidate_lock);
			mapping_locked = took_lock = true;
			goto retry_find;
		}
		if (r.err) {
			if (took_lock)
				km_up_read(&mapping->invalidate_lock);
			return NULL;
		}
		folio = r.folio;
		if (!sim_bit_test(&folio->flags, PG_uptodate)) {
			int err;

			if (!mapping_locked) {
				/* Not uptodate: take the invalidate_lock
				 * first (it orders before the folio lock). */
				km_folio_unlock(folio);
				km_folio_put(folio);
				km_down_read(&mapping->invalidate_lock);
				mapping_locked = took_lock = true;
				goto retry_find;
			}
			err = mapping->a_ops->read_folio(folio);
			if (err) {
				if (took_lock)
					km_up_read(&mapping->invalidate_lock);
				km_folio_put(folio);
				return NULL;
			}
			km_folio_lock(folio);
		}
		if (took_lock)
			km_up_read(&mapping->invalidate_lock);
		/* do_page_mkwrite: unlock, ->page_mkwrite locks again. */
		km_folio_unlock(folio);
		ret = mapping->vm_ops->page_mkwrite(folio);
		if (ret & VM_FAULT_NOPAGE) {	/* truncated meanwhile: retry */
			km_folio_put(folio);
			continue;
		}
		if (ret & VM_FAULT_SIGBUS) {	/* -ENOSPC: the store faults */
			km_folio_put(folio);
			return NULL;
		}
		break;
	}
	/*
	 * break=fault_dirty_unlocked: the order before "mm: fix
	 * clear_page_dirty_for_io vs fault race" (Nick Piggin, v2.6.22):
	 * ->page_mkwrite returned with the page unlocked, and the dirty PTE
	 * and set_page_dirty came without waiting for the page lock, so
	 * they could fall between folio_clear_dirty_for_io's mkclean and
	 * its test-and-clear of PG_dirty (docs/track-record.md).
	 */
	if (m_broken(M_BREAK_FAULT_DIRTY_UNLOCKED))
		km_folio_unlock(folio);
	/* finish_fault / wp_page_reuse: the PTE becomes writable + dirty. */
	sim_spin_lock(&mapping->ptl);
	if (!(sim_word_read(&folio->pte) & M_PTE_PRESENT))
		sim_word_add(&folio->mapcount, 1);
	sim_word_write(&folio->pte, M_PTE_PRESENT | M_PTE_WRITE | M_PTE_DIRTY);
	sim_spin_unlock(&mapping->ptl);
	km_fault_dirty_shared_page(folio);
	return folio;
}

/**
 * m_mmap_store - a user store of @len bytes at @pos through the shared
 * mapping of @file, carrying @data_id.
 * Kernel: the MMU plus mm/memory.c handle_mm_fault for a write, v6.18.
 * Return: 0, or -EFAULT beyond EOF (the kernel sends SIGBUS).
 *
 * With a writable PTE the store just happens: the "hardware" sets the
 * PTE dirty bit and writes the data.  Otherwise the write fault runs and
 * the store is retried, as the CPU retries the faulting instruction.
 */
int m_mmap_store(struct km_file *file, loff_t pos, size_t len,
		 uint32_t data_id)
{
	struct km_address_space *mapping = km_inode_mapping(file->f_inode);
	pgoff_t index = (pgoff_t)pos >> PAGE_SHIFT;

	sim_word_write(&mapping->mmapped, 1);
	/*
	 * The CPU retries the store after every fault, as the MMU does: a
	 * writeback that write-protected the page between the fault and the
	 * retry makes it fault again.  Bounded: each round either stores or
	 * runs a fault that leaves the PTE writable.
	 */
	for (int attempt = 0; attempt < M_STORE_FAULTS_MAX; attempt++) {
		struct km_folio *folio = m_folio_lookup(mapping, index);

		/*
		 * The store through a writable PTE: the check and the store
		 * are one atomic action of the CPU.  The model takes the PTE
		 * lock around them, standing in for the TLB flush that makes
		 * folio_mkclean's write-protection take effect before it
		 * returns.
		 */
		if (folio) {
			uint64_t pte;

			sim_spin_lock(&mapping->ptl);
			pte = sim_word_read(&folio->pte);
			if ((pte & M_PTE_PRESENT) && (pte & M_PTE_WRITE)) {
				if (!(pte & M_PTE_DIRTY))
					sim_word_write(&folio->pte,
						       pte | M_PTE_DIRTY);
				m_folio_copy_in(folio,
						(size_t)(pos - km_folio_pos(folio)),
						len, data_id);
				sim_spin_unlock(&mapping->ptl);
				return 0;
			}
			sim_spin_unlock(&mapping->ptl);
		}
		folio = shared_write_fault(mapping, index);
		if (!folio)
			return -KM_EFAULT;
		km_folio_put(folio);
	}
	sim_fail(SIM_FAIL_STUCK, "store at %lld faulted %d times",
		 (long long)pos, M_STORE_FAULTS_MAX);
}

/**
 * km_zap_present_folio_ptes - unmap one folio's PTE, keeping its dirt.
 * Kernel: mm/memory.c zap_pte_range -> zap_present_folio_ptes, v6.18.
 * Context: takes the PTE lock; the folio lock is NOT held — this is the
 * dirtier that can run concurrently with a folio-locked operation.
 *
 * Order, as v6.18: get-and-clear the PTE, folio_mark_dirty (PG_dirty,
 * then xa_lock and the counters), then the rmap removal (mapcount), all
 * under the PTE lock.  Because the folio stays mapped until after the
 * dirty transfer, folio_mkclean (folio locked) sees it mapped and waits
 * for this PTE lock, so writeback never clears PG_dirty while a zap holds
 * the PTE's dirt (5df397dec7c4, 1cf35d47712d; docs/algorithms/dontcache.md
 * "The race sashiko found").
 */
void km_zap_present_folio_ptes(struct km_folio *folio)
{
	struct km_address_space *mapping = folio->owner;
	uint64_t pte;

	sim_spin_lock(&mapping->ptl);
	pte = sim_word_read(&folio->pte);
	if (pte & M_PTE_PRESENT) {
		sim_word_write(&folio->pte, 0);	/* get_and_clear_full_ptes */
		if (pte & M_PTE_DIRTY)
			km_folio_mark_dirty(folio);
		sim_word_add(&folio->mapcount, -1);
	}
	sim_spin_unlock(&mapping->ptl);
}

/**
 * m_munmap - unmap the whole shared mapping of @file.
 * Kernel: mm/memory.c unmap_page_range over the VMA, v6.18.
 */
void m_munmap(struct km_file *file)
{
	struct km_address_space *mapping = km_inode_mapping(file->f_inode);
	loff_t size = km_i_size_read(file->f_inode);
	pgoff_t end = (pgoff_t)(size + (loff_t)PAGE_SIZE - 1) >> PAGE_SHIFT;

	for (pgoff_t i = 0; i < end && i < m_file_pages_max; i++) {
		struct km_folio *folio = m_folio_lookup(mapping, i);

		if (!folio || folio->index != i)
			continue;
		if (sim_word_read(&folio->mapcount))
			km_zap_present_folio_ptes(folio);
	}
	sim_word_write(&mapping->mmapped, 0);
}

/**
 * km_unmap_mapping_folio - unmap one folio before truncating it.
 * Kernel: mm/memory.c, v6.18.
 * Context: folio locked.
 */
void km_unmap_mapping_folio(struct km_folio *folio)
{
	if (sim_word_read(&folio->mapcount))
		km_zap_present_folio_ptes(folio);
}
