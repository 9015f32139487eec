/* SPDX-License-Identifier: MIT */
/*
 * Shared file mappings of the model (include/linux/mm.h, mm/memory.c,
 * mm/rmap.c), v6.18: one shared VMA per file.
 */
#ifndef WPSIM_MODEL_LINUX_MM_H
#define WPSIM_MODEL_LINUX_MM_H

#include "model/linux/fs.h"

typedef unsigned int vm_fault_ret_t;
#define VM_FAULT_SIGBUS		0x0002
#define VM_FAULT_NOPAGE		0x0100
#define VM_FAULT_LOCKED		0x0200

/*
 * vm_operations_struct (include/linux/mm.h), as far as the model faults:
 * ->page_mkwrite, called with the folio unlocked, returns it locked
 * (VM_FAULT_LOCKED) or VM_FAULT_NOPAGE when it was truncated meanwhile.
 */
struct km_vm_operations_struct {
	vm_fault_ret_t (*page_mkwrite)(struct km_folio *folio);
};

int km_folio_mkclean(struct km_folio *folio);
void km_fault_dirty_shared_page(struct km_folio *folio);
void km_zap_present_folio_ptes(struct km_folio *folio);
void km_unmap_mapping_folio(struct km_folio *folio);

/* mm/truncate.c (model/mm/truncate.c) */
void km_truncate_inode_pages_range(struct km_address_space *mapping,
				   loff_t lstart, loff_t lend);
void km_truncate_pagecache(struct km_inode *inode, loff_t newsize);
void km_pagecache_isize_extended(struct km_inode *inode, loff_t from,
				 loff_t to);
void km_truncate_pagecache_range(struct km_inode *inode, loff_t lstart,
				 loff_t lend);

/* User-level operations on the mapping (scenario ops). */
int m_mmap_store(struct km_file *file, loff_t pos, size_t len,
		 uint32_t data_id);
void m_munmap(struct km_file *file);

#endif
