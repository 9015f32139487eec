/* SPDX-License-Identifier: MIT */
/*
 * The raw block device's file (model/block/fops.c, block/fops.c and
 * block/ioctl.c, v6.18): O_DIRECT reads and writes straight to the block
 * layer, fsync as a cache flush, BLKDISCARD.  A front end opens the
 * world's device with m_bdev_open and reaches it through m_syscall like
 * any file (pwrite64, pread64, pwritev2, preadv2, fsync, fdatasync,
 * io_submit with O_DIRECT, ioctl: BLKDISCARD, BLKGETSIZE64, BLKFLSBUF).
 * Buffered I/O on the device is not modelled (the execution fails as a
 * model bound naming it); nor is sync_file_range.
 */
#ifndef WPSIM_MODEL_BLOCK_FOPS_H
#define WPSIM_MODEL_BLOCK_FOPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/linux/fs.h"

extern const struct km_file_operations km_def_blk_fops;

/* A file on the world's block device; @f_flags: KM_O_DIRECT, KM_O_DSYNC,
 * KM_O_SYNC.  Call inside an execution (a program's setup or task). */
struct km_file *m_bdev_open(unsigned int f_flags);

long km_blkdev_write_iter(struct km_kiocb *iocb, struct km_iov_iter *from);
long km_blkdev_read_iter(struct km_kiocb *iocb, size_t count, uint32_t *out);
int km_blkdev_fsync(struct km_file *file, loff_t start, loff_t end,
		    int datasync);
/* ioctl(fd, BLKDISCARD, {start, len}): bytes, on the logical block. */
int km_blk_ioctl_discard(struct km_file *file, uint64_t start, uint64_t len);
/* def_blk_fops's unlocked_ioctl: BLKDISCARD, BLKGETSIZE64, BLKFLSBUF. */
long km_blkdev_ioctl(struct km_file *file, unsigned int cmd, uint64_t *arg);

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
