/* SPDX-License-Identifier: MIT */
/*
 * XFS file operations of the model (fs/xfs/xfs_file.c, xfs_iomap.c,
 * xfs_iops.c), v6.18.  The syscalls that reach them: model/linux/syscalls.h.
 */
#ifndef WPSIM_MODEL_FS_XFS_H
#define WPSIM_MODEL_FS_XFS_H

#include "model/fs/iomap.h"

/* Block mapping (xfs_iomap.c, as the model keeps extents). */
int m_xfs_buffered_write_iomap_begin(struct km_inode *inode, loff_t pos,
				     loff_t len, unsigned int flags,
				     struct km_iomap *iomap);
int m_xfs_writethrough_iomap_begin(struct km_inode *inode, loff_t pos,
				   loff_t len, unsigned int flags,
				   struct km_iomap *iomap);
void m_xfs_reserve_delalloc(struct km_inode *inode, loff_t pos, loff_t len);
void m_xfs_writeback_allocate(struct km_inode *inode, loff_t pos, loff_t len);
void m_xfs_end_ioend_convert(struct km_inode *inode, loff_t pos, loff_t len);
char m_extent_peek(const struct km_inode *inode, unsigned long block);

/* Entry points */
long km_xfs_file_dio_write_aligned(struct km_kiocb *iocb,
				   struct km_iov_iter *from);
long km_xfs_file_dio_write(struct km_kiocb *iocb, struct km_iov_iter *from);
void km_xfs_zero_range(struct km_inode *inode, loff_t pos, loff_t len);
long km_xfs_file_write_iter(struct km_kiocb *iocb, struct km_iov_iter *from);
long km_xfs_file_buffered_write(struct km_kiocb *iocb,
				struct km_iov_iter *from);
long km_xfs_file_read_iter(struct km_kiocb *iocb, size_t count,
			   uint32_t *out);
int km_xfs_file_fsync(struct km_file *file, loff_t start, loff_t end,
		      int datasync);
long km_generic_write_sync(struct km_kiocb *iocb, long count);
int km_xfs_setattr_size(struct km_file *file, loff_t newsize);
int km_xfs_file_fallocate(struct km_file *file, int mode, loff_t offset,
			  loff_t len);

/* The flusher: one writeback pass over an inode. */
int m_writeback_inode(struct km_inode *inode, int sync_mode);
/* dirty_writeback_centisecs (500) and dirty_expire_centisecs (3000),
 * mm/page-writeback.c, v6.18, in ns. */
#define M_DIRTY_WRITEBACK_NS	(500ull * 10000000ull)
#define M_DIRTY_EXPIRE_NS	(3000ull * 10000000ull)
/* Timed runs: the periodic flusher, until *@alive reads 0. */
void m_wb_periodic_flusher(struct sim_word *alive);

/* mm/truncate.c */
void km_truncate_inode_pages_range(struct km_address_space *mapping,
				   loff_t lstart, loff_t lend);
void km_truncate_pagecache(struct km_inode *inode, loff_t newsize);
void km_truncate_pagecache_range(struct km_inode *inode, loff_t lstart,
				 loff_t lend);

#endif
