/* SPDX-License-Identifier: MIT */
/*
 * XFS file operations of the model (fs/xfs/xfs_file.c, xfs_iomap.c,
 * xfs_iops.c), v6.18, and the generic syscall-level helpers they use.
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
void m_xfs_unmap_blocks(struct km_inode *inode, loff_t pos, loff_t len);
int km_xfs_flush_unmap_range(struct km_inode *inode, loff_t offset,
			     loff_t len);
int km_xfs_free_file_space(struct km_inode *inode, loff_t offset, loff_t len);
long km_xfs_file_write_iter(struct km_kiocb *iocb, struct km_iov_iter *from);
long km_xfs_file_buffered_write(struct km_kiocb *iocb,
				struct km_iov_iter *from);
long km_xfs_file_read_iter(struct km_kiocb *iocb, size_t count,
			   uint32_t *out);
int km_xfs_file_fsync(struct km_file *file, loff_t start, loff_t end,
		      int datasync);
long km_generic_write_sync(struct km_kiocb *iocb, long count);
int km_xfs_setattr_size(struct km_file *file, loff_t newsize);
#define KM_FALLOC_FL_KEEP_SIZE	0x01
#define KM_FALLOC_FL_PUNCH_HOLE	0x02
int km_xfs_file_fallocate(struct km_file *file, int mode, loff_t offset,
			  loff_t len);
#define KM_SYNC_FILE_RANGE_WAIT_BEFORE	1
#define KM_SYNC_FILE_RANGE_WRITE	2
#define KM_SYNC_FILE_RANGE_WAIT_AFTER	4
int km_sync_file_range(struct km_file *file, loff_t offset, loff_t nbytes,
		       unsigned int flags);

/* The flusher: one writeback pass over an inode. */
int m_writeback_inode(struct km_inode *inode, int sync_mode);
/* dirty_writeback_centisecs (500) and dirty_expire_centisecs (3000),
 * mm/page-writeback.c, v6.18, in ns. */
#define M_DIRTY_WRITEBACK_NS	(500ull * 10000000ull)
#define M_DIRTY_EXPIRE_NS	(3000ull * 10000000ull)
/* Timed runs: the periodic flusher, until *@alive reads 0. */
void m_wb_periodic_flusher(struct sim_word *alive);

/* Syscall-level helpers: build the kiocb from pwritev2 flags. */
long m_pwritev2(struct km_file *file, loff_t pos, size_t len,
		unsigned int rwf, uint32_t data_id, size_t fault_after);
long m_pread(struct km_file *file, loff_t pos, size_t len, uint32_t *out);
/* preadv2(2): RWF_NOWAIT (IOCB_NOWAIT) is the only flag it takes. */
long m_preadv2(struct km_file *file, loff_t pos, size_t len,
	       unsigned int rwf, uint32_t *out);
/* io_submit/io_getevents of one write (AIO, kiocb with ki_complete). */
struct m_aio_req {
	struct km_kiocb iocb;
	struct km_iov_iter from;
	long res;
	bool queued;
	struct sim_completion done;
	/* The kioctx's event ring (NULL: none): each completion of a
	 * queued request counts in it, so io_getevents can wait for any.
	 * Set by the caller; kept across submissions. */
	struct sim_completion *ring;
};
long m_aio_pwritev2(struct m_aio_req *req, struct km_file *file, loff_t pos,
		    size_t len, unsigned int rwf, uint32_t data_id,
		    size_t fault_after);
long m_aio_wait(struct m_aio_req *req);
/* io_submit's start: the syscall, @req reset (its ring kept), its kiocb
 * (ki_complete = m_aio_complete) and iterator. */
void m_aio_req_start(struct m_aio_req *req, struct km_file *file,
		     loff_t pos, size_t len, unsigned int ki_flags,
		     uint32_t data_id, size_t fault_after);
/* An AIO kiocb's ki_complete: @ret into @iocb's m_aio_req, its waiter
 * woken. */
void m_aio_complete(struct km_kiocb *iocb, long ret);

/* mm/truncate.c */
void km_truncate_inode_pages_range(struct km_address_space *mapping,
				   loff_t lstart, loff_t lend);
void km_truncate_pagecache(struct km_inode *inode, loff_t newsize);
void km_pagecache_isize_extended(struct km_inode *inode, loff_t from,
				 loff_t to);
void km_truncate_pagecache_range(struct km_inode *inode, loff_t lstart,
				 loff_t lend);

#endif
