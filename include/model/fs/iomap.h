/* SPDX-License-Identifier: MIT */
/*
 * iomap buffered I/O of the model (include/linux/iomap.h,
 * fs/iomap/buffered-io.c), v6.18.
 */
#ifndef WPSIM_MODEL_FS_IOMAP_H
#define WPSIM_MODEL_FS_IOMAP_H

#include "model/linux/fs.h"
#include "model/linux/mm.h"
#include "model/linux/writeback.h"

/* iomap types (include/linux/iomap.h) */
#define IOMAP_HOLE	0
#define IOMAP_DELALLOC	1
#define IOMAP_MAPPED	2
#define IOMAP_UNWRITTEN	3

#define IOMAP_F_NEW		(1u << 0)
#define IOMAP_F_SIZE_CHANGED	(1u << 8)

/* iomap_iter flags */
#define IOMAP_WRITE	(1u << 0)
#define IOMAP_NOWAIT	(1u << 5)
#define IOMAP_DONTCACHE	(1u << 10)

struct km_iomap {
	loff_t offset;		/* file offset of the mapping */
	loff_t length;
	unsigned int type;	/* IOMAP_* */
	unsigned int flags;	/* IOMAP_F_* */
};

struct km_iomap_iter {
	struct km_inode *inode;
	loff_t pos;
	loff_t len;		/* bytes left */
	unsigned int flags;
	struct km_iomap iomap;
	size_t processed;
};

/* ifs (iomap_folio_state) helpers */
void km_ifs_alloc(struct km_inode *inode, struct km_folio *folio);
void km_iomap_set_range_uptodate(struct km_folio *folio, size_t off,
				 size_t len);
void km_iomap_set_range_dirty(struct km_folio *folio, size_t off, size_t len);
void km_iomap_clear_range_dirty(struct km_folio *folio, size_t off,
				size_t len);
bool km_iomap_dirty_folio(struct km_address_space *mapping,
			  struct km_folio *folio);

/* The buffered write path */
long km_iomap_file_buffered_write(struct km_kiocb *iocb,
				  struct km_iov_iter *from);
/* Buffered read and read_folio */
int km_iomap_read_folio(struct km_folio *folio);
long km_filemap_read(struct km_kiocb *iocb, size_t count, uint32_t *out);
/* Writeback */
int km_iomap_writepages(struct km_address_space *mapping,
			struct km_writeback_control *wbc);
/* Shared mapping write fault */
vm_fault_ret_t km_iomap_page_mkwrite(struct km_folio *folio);

extern const struct km_address_space_operations m_iomap_aops;

#endif
