/* SPDX-License-Identifier: MIT */
/*
 * The raw block device's file (model/block/fops.c, block/fops.c and
 * block/ioctl.c, v6.18): O_DIRECT reads and writes straight to the block
 * layer, buffered reads and writes through the device's own page cache
 * (the bdev inode's mapping, def_blk_aops: written back by the flusher,
 * fsync and the direct paths' invalidation), fsync as the cache's
 * writeback and a flush, BLKDISCARD.  A front end opens the world's
 * device with m_bdev_open and reaches it through m_syscall like any file
 * (pwrite64, pread64, pwritev2, preadv2, fsync, fdatasync,
 * sync_file_range, io_submit, ioctl: BLKDISCARD, BLKGETSIZE64, BLKFLSBUF).
 */
#ifndef WPSIM_MODEL_BLOCK_FOPS_H
#define WPSIM_MODEL_BLOCK_FOPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/linux/fs.h"

extern const struct km_file_operations km_def_blk_fops;
extern const struct km_address_space_operations km_def_blk_aops;
extern const struct km_inode_operations m_bdev_inode_operations;

/* A file on the world's block device; @f_flags: KM_O_DIRECT, KM_O_DSYNC,
 * KM_O_SYNC (0: buffered).  Its f_inode is the device's inode
 * (m_world()->bdev_inode, made at the first open).  Call inside an
 * execution (a program's setup or task). */
struct km_file *m_bdev_open(unsigned int f_flags);

long km_blkdev_write_iter(struct km_kiocb *iocb, struct km_iov_iter *from);
long km_blkdev_read_iter(struct km_kiocb *iocb, size_t count, uint32_t *out);
int km_blkdev_fsync(struct km_file *file, loff_t start, loff_t end,
		    int datasync);
/*
 * block/bdev.c on the device's page cache (model/block/bdev.c), for the
 * ioctls and the device's release: @bd_inode is the device's inode
 * (m_world()->bdev_inode; NULL before the first open: nothing cached).
 * BLKDISCARD (and BLKZEROOUT, fallocate of the device) call
 * km_truncate_bdev_range under the i_rwsem and the invalidate_lock
 * before their bios; BLKFLSBUF is km_sync_blockdev then
 * km_invalidate_bdev.
 */
int km_sync_blockdev(struct km_inode *bd_inode);
int km_sync_blockdev_nowait(struct km_inode *bd_inode);
void km_invalidate_bdev(struct km_inode *bd_inode);
int km_truncate_bdev_range(struct km_inode *bd_inode, loff_t lstart,
			   loff_t lend);
/* The close of a file m_bdev_open opened (blkdev_release): the last
 * writes the device's page cache back and drops it. */
void km_bdev_release(struct km_file *bdev_file);
int km_blkdev_release(struct km_inode *inode, struct km_file *file);

/* ioctl(fd, BLKDISCARD, {start, len}): bytes, on the logical block. */
int km_blk_ioctl_discard(struct km_file *file, uint64_t start, uint64_t len);
/* def_blk_fops's unlocked_ioctl: BLKDISCARD, BLKGETSIZE64, BLKFLSBUF. */
long km_blkdev_ioctl(struct km_file *file, unsigned int cmd, uint64_t *arg);

struct km_iomap;
struct km_readahead_control;
struct km_writeback_control;
int km_blkdev_iomap_begin(struct km_inode *inode, loff_t offset,
			  loff_t length, unsigned int flags,
			  struct km_iomap *iomap);
int km_blkdev_writepages(struct km_address_space *mapping,
			 struct km_writeback_control *wbc);
int km_blkdev_read_folio(struct km_folio *folio);
void km_blkdev_readahead(struct km_readahead_control *rac);
long km_blkdev_buffered_write(struct km_kiocb *iocb,
			      struct km_iov_iter *from);
long km_blkdev_direct_write(struct km_kiocb *iocb, struct km_iov_iter *from,
			    size_t count);

long km_blkdev_direct_IO(struct km_kiocb *iocb, bool is_read, size_t count,
			 uint32_t data_id, uint32_t *out);
long km___blkdev_direct_IO_simple(struct km_kiocb *iocb, bool is_read,
				  size_t count, uint32_t data_id,
				  uint32_t *out);
long km___blkdev_direct_IO_async(struct km_kiocb *iocb, bool is_read,
				 size_t count, uint32_t data_id,
				 uint32_t *out);
long km___blkdev_direct_IO(struct km_kiocb *iocb, bool is_read,
			   size_t count, uint32_t data_id, uint32_t *out);

#endif
