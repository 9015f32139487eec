/* SPDX-License-Identifier: MIT */
/*
 * model/lockdep: the kernel's locking rules for the model's shared words,
 * stated with the engine's rules (sim/lockdep.h) and checked on every
 * access.  Each rule cites where the kernel states it (docs/lockdep.md).
 */
#ifndef WPSIM_MODEL_LOCKDEP_H
#define WPSIM_MODEL_LOCKDEP_H

#include "model/kernel/rwsem.h"
#include "model/linux/fs.h"
#include "model/linux/mm_types.h"
#include "sim/lockdep.h"

/* A model rw_semaphore as a lock of the rules (its lockdep view). */
struct sim_lock_ref m_lock_rwsem(const struct km_rw_semaphore *sem);
/* The folio lock: PG_locked set (by anyone, as folio_test_locked). */
struct sim_lock_ref m_lock_folio(const struct km_folio *folio);

/* The rules of an inode, its mapping and its file (world setup). */
void m_lockdep_inode_rules(struct km_inode *inode);
void m_lockdep_file_rules(struct km_file *file);
/* The rules of a new folio of @mapping (km_filemap_alloc_folio). */
void m_lockdep_folio_rules(struct km_folio *folio,
			   struct km_address_space *mapping);

/* The rule of the per-block state, while attached (ifs_alloc/ifs_free). */
void m_lockdep_ifs_rules(struct km_folio *folio, bool attached);

/* VM_BUG_ON_FOLIO(!folio_test_locked(folio), folio) */
#define m_assert_folio_locked(folio)					\
	sim_assert_held_ref(m_lock_folio(folio), true,			\
			    __FILE__ ":" SIM_STR_(__LINE__))
/* lockdep_assert_held{,_write}() on a model rw_semaphore. */
#define m_assert_rwsem_held(sem)					\
	sim_assert_held_ref(m_lock_rwsem(sem), false,			\
			    __FILE__ ":" SIM_STR_(__LINE__))
#define m_assert_rwsem_held_write(sem)					\
	sim_assert_held_ref(m_lock_rwsem(sem), true,			\
			    __FILE__ ":" SIM_STR_(__LINE__))

#endif /* WPSIM_MODEL_LOCKDEP_H */
