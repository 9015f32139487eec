// SPDX-License-Identifier: MIT
/*
 * model/lockdep.c - which lock protects which word of the model, as the
 * kernel states it.
 *
 * Models: the locking rules of struct address_space, struct inode, struct
 * file and struct folio that v6.18 states in comments, "Context:" lines
 * and lockdep/VM_BUG_ON assertions (each rule below names its source).
 * The engine checks every recorded access of a guarded word against its
 * rule (sim/lockdep.c), so a deleted lock/unlock pair fails the first
 * execution that runs the access.
 *
 * Leaves out: rules of words the model reads and writes only in setup,
 * the RCU side of the page cache (lockless readers are READ_ONCE reads,
 * which every rule here but the block map's allows), and rules the model does not follow
 * (i_disksize under i_data_sem: ext4_update_i_disksize takes it, the
 * model's DIO completion does not; docs/lockdep.md).  Rules are stated
 * for the words of struct inode after its setup (the block map is
 * written there without the lock, before any task runs).
 */
#include "model/lockdep.h"

#include "model/fs/xfs.h"
#include "model/world.h"

static bool rwsem_held(const void *lock, int task, bool exclusive)
{
	const struct km_rw_semaphore *sem = lock;

	if (m_rwsem_write_held(sem, task))
		return true;
	return !exclusive && m_rwsem_read_held(sem, task) > 0;
}

struct sim_lock_ref m_lock_rwsem(const struct km_rw_semaphore *sem)
{
	return sim_lock_fn(rwsem_held, sem, sem->count.id);
}

struct sim_lock_ref m_lock_folio(const struct km_folio *folio)
{
	return sim_lock_bit(&folio->flags, PG_locked);
}

static const struct sim_lock_ref no_lock;

/* i_size's second rule: i_flags_lock, or the ILOCK exclusive (below). */
static bool isize_completion_held(const void *lock, int task, bool exclusive)
{
	const struct km_inode *inode = lock;

	(void)exclusive;
	return sim_spin_held_by_me(&inode->i_lock) ||
	       m_rwsem_write_held(&inode->i_data_sem, task);
}

void m_lockdep_inode_rules(struct km_inode *inode)
{
	struct km_address_space *mapping = &inode->i_data;
	struct sim_lock_ref xa = sim_lock_spin(&mapping->xa_lock);
	bool capturing = sim_lockdep_capturing();

	/*
	 * The page cache: entries, marks, nrpages and the tree's extent
	 * change under the i_pages lock (include/linux/fs.h struct
	 * address_space: "@i_pages: Cached pages"; mm/filemap.c "Lock
	 * ordering" and __filemap_add_folio / page_cache_delete:
	 * "mapping->nrpages += nr" inside xas_lock_irq; xa_set_mark and
	 * xa_clear_mark take xa_lock, __xa_set_mark requires it,
	 * lib/xarray.c).  Readers walk under RCU: reads are free.
	 */
	if (mapping->xa_sparse) {
		/* A long timed run's slots are one object for entries and
		 * one for marks: the stand-in's words carry their ids. */
		sim_word_guard_ref(&mapping->xa_hole.entry, SIM_GUARD_WRITES,
				   0, xa, no_lock);
		sim_word_guard_ref(&mapping->xa_hole.marks, SIM_GUARD_WRITES,
				   0, xa, no_lock);
	}
	for (unsigned long i = 0; !mapping->xa_sparse && capturing &&
				  i < m_file_pages_max; i++) {
		sim_word_guard_ref(&m_xa_slot(mapping, i)->entry,
				   SIM_GUARD_WRITES, 0, xa, no_lock);
		sim_word_guard_ref(&m_xa_slot(mapping, i)->marks,
				   SIM_GUARD_WRITES, 0, xa, no_lock);
	}
	for (unsigned long i = 0; !mapping->xa_sparse && !capturing &&
				  i < m_file_pages_max; i += M_XA_BLOCK) {
		/* The same rules, a block of slots at once. */
		struct km_xa_slot *block = m_xa_slot(mapping, i);
		unsigned long slots = m_file_pages_max - i < M_XA_BLOCK ?
				      m_file_pages_max - i : M_XA_BLOCK;

		sim_words_guard_ref(&block->entry, sizeof(*block), slots,
				    SIM_GUARD_WRITES, 0, xa, no_lock);
		sim_words_guard_ref(&block->marks, sizeof(*block), slots,
				    SIM_GUARD_WRITES, 0, xa, no_lock);
	}
	sim_word_guard_ref(&mapping->nrpages, SIM_GUARD_WRITES, 0, xa,
			   no_lock);
	sim_word_guard_ref(&mapping->xa_extent, SIM_GUARD_WRITES, 0, xa,
			   no_lock);
	/* i_state: "inode->i_lock protects: inode->i_state"
	 * (fs/inode.c, "Inode locking rules"). */
	sim_word_guard(&inode->i_state, &inode->i_lock);
	/*
	 * i_size: "i_size_write() does need locking around it (normally
	 * i_rwsem)" (include/linux/fs.h i_size_write): i_rwsem exclusive
	 * (buffered write, DIO extension lockdep_assert_held_write in
	 * fs/ext4/file.c ext4_handle_inode_extension, xfs setattr and
	 * fallocate take XFS_IOLOCK_EXCL, which is i_rwsem), or, for an
	 * XFS O_DIRECT write that extends the file (its IOLOCK only
	 * shared), ip->i_flags_lock (the model's i_lock) in
	 * xfs_dio_write_end_io or the ILOCK exclusive (i_data_sem) in
	 * xfs_iomap_write_unwritten (fs/xfs/xfs_file.c, xfs_iomap.c
	 * v6.18; issue 30 item 1).
	 */
	sim_word_guard_ref(&inode->i_size, SIM_GUARD_WRITES, 0,
			   m_lock_rwsem(&inode->i_rwsem),
			   sim_lock_fn(isize_completion_held, inode,
				       inode->i_lock.word.id));
	/*
	 * The block map changes under i_data_sem exclusive and is read
	 * under it, shared or exclusive: ext4's i_data_sem "protects the
	 * extent tree" (fs/ext4/ext4.h struct ext4_inode_info;
	 * ext4_map_blocks takes it for reading to look up, for writing to
	 * allocate or convert), and for XFS, for which the model's
	 * i_data_sem stands in for the ILOCK, xfs_bmapi_write requires
	 * XFS_ILOCK_EXCL and xfs_bmapi_read XFS_ILOCK_SHARED or EXCL
	 * (fs/xfs/libxfs/xfs_bmap.c xfs_assert_ilocked).  ext4's extent
	 * status cache, read without i_data_sem in the kernel, is not in
	 * the model: its every lookup is ext4_map_blocks' locked one.
	 * Checkers read the map with m_extent_peek(), which records
	 * nothing.
	 */
	if (inode->extent_hole.id)	/* a long run: one object */
		sim_word_guard_ref(&inode->extent_hole, SIM_GUARD_ALL, 0,
				   m_lock_rwsem(&inode->i_data_sem), no_lock);
	else if (capturing)	/* each guard keeps the stack of its call */
		for (unsigned int b = 0; b < inode->nr_blocks; b++)
			sim_word_guard_ref(m_extent_word(inode, b),
					   SIM_GUARD_ALL, 0,
					   m_lock_rwsem(&inode->i_data_sem),
					   no_lock);
	else
		for (unsigned int b = 0; b < inode->nr_blocks;
		     b += M_EXT_GROUP)
			sim_words_guard_ref(m_extent_word(inode, b),
					    sizeof(struct sim_word),
					    inode->nr_blocks - b < M_EXT_GROUP
					    ? inode->nr_blocks - b :
					    M_EXT_GROUP, SIM_GUARD_ALL, 0,
					    m_lock_rwsem(&inode->i_data_sem),
					    no_lock);
}

void m_lockdep_file_rules(struct km_file *file)
{
	/* f_wb_err advances under f_lock (mm/filemap.c
	 * file_check_and_advance_wb_err: "spin_lock(&file->f_lock)"). */
	sim_word_guard(&file->f_wb_err, &file->f_lock);
}

/*
 * A long run's folios have no rules: their words are instances of the
 * world's folio objects (model/world.h, m_folio_objects), and a rule is
 * per object, so it would be one folio's (its lock, its mapping's locks)
 * applied to all.  Exploration, where each folio's words are objects of
 * their own, checks every rule below.
 */
static bool folio_words_shared(const struct km_folio *folio)
{
	return folio->flags.id &&
	       folio->flags.id == m_world()->folio_objects.flags;
}

void m_lockdep_folio_rules(struct km_folio *folio,
			   struct km_address_space *mapping)
{
	if (folio_words_shared(folio))
		return;
	/* folio->mapping is set and cleared under the i_pages lock
	 * (__filemap_add_folio, page_cache_delete, mm/filemap.c). */
	sim_word_guard_ref(&folio->mapping, SIM_GUARD_WRITES, 0,
			   sim_lock_spin(&mapping->xa_lock), no_lock);
	/* PTEs and the rmap count change under the PTE lock
	 * (mm/memory.c: pte_offset_map_lock around set_pte_at and
	 * zap_pte_range; mm/rmap.c page_vma_mapped_walk takes it). */
	sim_word_guard(&folio->pte, &mapping->ptl);
	sim_word_guard(&folio->mapcount, &mapping->ptl);
	/* Model-only, "under the folio lock" (mm_types.h). */
	sim_word_guard_ref(&folio->dontcache_written, SIM_GUARD_WRITES, 0,
			   m_lock_folio(folio), no_lock);
}

void m_lockdep_ifs_rules(struct km_folio *folio, bool attached)
{
	/*
	 * iomap_folio_state: state_lock protects the per-block bits while
	 * the state is attached (fs/iomap/buffered-io.c
	 * ifs_set_range_uptodate, ifs_set_range_dirty,
	 * ifs_clear_range_dirty take it); ifs_alloc fills it before
	 * folio_attach_private and ifs_free after folio_detach_private.
	 */
	if (folio_words_shared(folio))
		return;
	if (attached)
		sim_word_guard(&folio->ifs, &folio->ifs_lock);
	else
		sim_word_unguard(&folio->ifs);
}
