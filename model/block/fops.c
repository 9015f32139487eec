// SPDX-License-Identifier: MIT
/*
 * model/block/fops.c - the raw block device's file: direct I/O, fsync.
 *
 * Models block/fops.c of v6.18 for a file opened on the block device
 * itself (fio's filename=/dev/...): blkdev_write_iter and
 * blkdev_read_iter with O_DIRECT, blkdev_direct_IO choosing
 * __blkdev_direct_IO_simple (synchronous, up to BIO_MAX_VECS pages, one
 * bio waited for), __blkdev_direct_IO_async (asynchronous, one bio,
 * ki_complete from its end_io) or __blkdev_direct_IO (larger: a bio per
 * BIO_MAX_VECS pages, a reference each), blkdev_fsync (write back the
 * device's page cache, then a flush).  The ioctls (BLKDISCARD, BLKGETSIZE64,
 * BLKFLSBUF) are model/block/ioctl.c.  The bios go straight to the block
 * layer: split to the queue limits (model/block/blk-merge.c), then the
 * device (model/block/blk-core.c).
 *
 * Leaves out: buffered I/O on the block device (v6.18 writes through
 * iomap_file_buffered_write with blkdev_iomap_ops and, with
 * CONFIG_BUFFER_HEAD, writes back and reads with buffer heads: the
 * model's bdev has no page cache, so a buffered read or write fails the
 * execution as a model bound, m_vfs_not_modelled), and with it
 * kiocb_invalidate_pages, kiocb_write_and_wait and the
 * file_write_and_wait_range of fsync, which have nothing to do; partitions,
 * read-only devices, swap files, write streams and hints,
 * integrity metadata, polled I/O, fallocate, llseek, mmap, the
 * exclusive open and holder logic, file_update_time.
 */
#include <string.h>

#include "model/block/fops.h"
#include "model/linux/bio.h"
#include "model/linux/fs.h"
#include "model/world.h"
#include "sim/arena.h"

#define BIO_MAX_VECS	256	/* include/linux/bio.h */

/* The user buffer's pages (bio_iov_vecs_to_alloc), the buffer taken as
 * page aligned (fio's are). */
static size_t iter_pages(size_t count, size_t max)
{
	size_t pages = (count + PAGE_SIZE - 1) >> PAGE_SHIFT;

	return pages < max ? pages : max;
}

static loff_t bdev_nr_bytes(void)
{
	return (loff_t)m_world()->dev.nr_sectors << SECTOR_SHIFT;
}

/* dio_bio_write_op: O_DSYNC writes go out with FUA (no completion work). */
static unsigned int dio_bio_write_op(const struct km_kiocb *iocb)
{
	unsigned int opf = REQ_SYNC | REQ_IDLE;

	if (iocb->ki_flags & IOCB_DSYNC)
		opf |= REQ_FUA;
	return opf;
}

/* blkdev_dio_invalid: position and length on the logical block. */
static bool blkdev_dio_invalid(const struct km_kiocb *iocb, size_t count)
{
	return ((uint64_t)iocb->ki_pos | count) &
	       (m_world()->dev.limits.logical_block_size - 1);
}

/* One direct I/O's bio over [@pos, @pos + @len): a write carries
 * @data_id, a read lands in @out (an id a sector). */
static struct km_bio *dio_bio(const struct km_kiocb *iocb, bool is_read,
			      loff_t pos, size_t len, uint32_t data_id,
			      uint32_t *out)
{
	struct km_bio *bio = km_bio_alloc(is_read ? REQ_OP_READ :
					  REQ_OP_WRITE,
					  is_read ? 0 : dio_bio_write_op(iocb),
					  (sector_t)(pos >> SECTOR_SHIFT));

	/* __blkdev_direct_IO_simple and _async: an RWF_ATOMIC write's one
	 * bio is REQ_ATOMIC (the multi-bio path never sees one). */
	if (iocb->ki_flags & IOCB_ATOMIC)
		bio->opf |= REQ_ATOMIC;

	bio->dio_len = len;
	if (is_read)
		bio->dio_out = out;
	else
		bio->data_id = data_id;
	return bio;
}

/**
 * km___blkdev_direct_IO_simple - a synchronous direct I/O of one bio.
 * Kernel: block/fops.c __blkdev_direct_IO_simple, v6.18.
 * Context: task; sleeps in submit_bio_wait.
 * Return: the bytes transferred, or the bio's error.
 * Divergences: the bio is the model's (no inline vecs, no page pinning).
 */
long km___blkdev_direct_IO_simple(struct km_kiocb *iocb, bool is_read,
				  size_t count, uint32_t data_id,
				  uint32_t *out)
{
	struct km_bio *bio = dio_bio(iocb, is_read, iocb->ki_pos, count,
				     data_id, out);
	long ret = (long)count;

	if (iocb->ki_flags & IOCB_NOWAIT)
		bio->opf |= REQ_NOWAIT;
	km_submit_bio_wait(bio);
	if (bio->status)
		ret = bio->status;
	return ret;
}

/* struct blkdev_dio: the I/O's references, size and waiter or iocb. */
struct blkdev_dio {
	struct km_kiocb *iocb;		/* asynchronous */
	struct sim_completion waiter;	/* synchronous */
	bool is_sync;
	size_t size;
	struct sim_word ref;
	int status;
};

/* blkdev_bio_end_io: the last reference completes the I/O. */
static void blkdev_bio_end_io(struct km_bio *bio)
{
	struct blkdev_dio *dio = bio->private;

	if (bio->status && !dio->status)
		dio->status = bio->status;
	if (sim_word_add(&dio->ref, -1) != 0)
		return;
	if (!dio->is_sync) {
		struct km_kiocb *iocb = dio->iocb;
		long ret;

		if (!dio->status) {
			ret = (long)dio->size;
			iocb->ki_pos += ret;
		} else {
			ret = dio->status;
		}
		iocb->ki_complete(iocb, ret);
	} else {
		sim_completion_complete(&dio->waiter);
	}
}

static struct blkdev_dio *dio_alloc(struct km_kiocb *iocb)
{
	struct blkdev_dio *dio = sim_arena_alloc(sizeof(*dio));

	dio->is_sync = !iocb->ki_complete;
	dio->iocb = iocb;
	sim_completion_init(&dio->waiter, "blkdev_dio.waiter");
	sim_word_init(&dio->ref, 1, "blkdev_dio.ref");
	return dio;
}

/**
 * km___blkdev_direct_IO - a direct I/O of several bios.
 * Kernel: block/fops.c __blkdev_direct_IO, v6.18.
 * Context: task; synchronous: sleeps until every bio has ended.
 * Return: the bytes transferred or the first bio's error; -EIOCBQUEUED
 * for an asynchronous kiocb (ki_complete gives the result); -EAGAIN for
 * IOCB_NOWAIT with more than one bio.
 * Divergences: a bio holds BIO_MAX_VECS pages of the buffer (taken as
 * page aligned, no large folios); the dio is not embedded in the first
 * bio (the model's bios are freed by the timed device), so the extra
 * bio reference is not needed; no plug; no page dirtying or release.
 */
long km___blkdev_direct_IO(struct km_kiocb *iocb, bool is_read,
			   size_t count, uint32_t data_id, uint32_t *out)
{
	struct blkdev_dio *dio = dio_alloc(iocb);
	loff_t pos = iocb->ki_pos;
	size_t done = 0;
	long ret = 0;

	for (;;) {
		size_t len = count - done;
		struct km_bio *bio;

		if (len > BIO_MAX_VECS * PAGE_SIZE)
			len = BIO_MAX_VECS * PAGE_SIZE;
		if ((iocb->ki_flags & IOCB_NOWAIT) && done + len < count) {
			ret = -KM_EAGAIN;
			goto fail;
		}
		bio = dio_bio(iocb, is_read, pos, len, data_id,
			      out ? out + (done >> SECTOR_SHIFT) : NULL);
		bio->private = dio;
		bio->end_io = blkdev_bio_end_io;
		if (iocb->ki_flags & IOCB_NOWAIT)
			bio->opf |= REQ_NOWAIT;
		dio->size += len;
		pos += (loff_t)len;
		done += len;
		if (done == count) {
			km_submit_bio(bio);
			break;
		}
		sim_word_add(&dio->ref, 1);
		km_submit_bio(bio);
	}
	if (!dio->is_sync)
		return -KM_EIOCBQUEUED;
	sim_completion_wait(&dio->waiter);
	if (!ret)
		ret = dio->status;
	if (!ret)
		ret = (long)dio->size;
	return ret;
fail:
	/* Nothing was submitted: NOWAIT is refused before the first bio
	 * (the first bio is the one that would need a second). */
	return ret;
}

/* blkdev_bio_end_io_async: the one bio's end completes the kiocb. */
static void blkdev_bio_end_io_async(struct km_bio *bio)
{
	struct blkdev_dio *dio = bio->private;
	struct km_kiocb *iocb = dio->iocb;
	long ret;

	if (!bio->status) {
		ret = (long)dio->size;
		iocb->ki_pos += ret;
	} else {
		ret = bio->status;
	}
	iocb->ki_complete(iocb, ret);
}

/**
 * km___blkdev_direct_IO_async - an asynchronous direct I/O of one bio.
 * Kernel: block/fops.c __blkdev_direct_IO_async, v6.18.
 * Context: task; does not sleep for the I/O.
 * Return: -EIOCBQUEUED (ki_complete gives the result).
 * Divergences: as __blkdev_direct_IO's; no polled (IOCB_HIPRI) bios.
 */
long km___blkdev_direct_IO_async(struct km_kiocb *iocb, bool is_read,
				 size_t count, uint32_t data_id,
				 uint32_t *out)
{
	struct blkdev_dio *dio = sim_arena_alloc(sizeof(*dio));
	struct km_bio *bio = dio_bio(iocb, is_read, iocb->ki_pos, count,
				     data_id, out);

	dio->iocb = iocb;
	dio->size = count;
	bio->private = dio;
	bio->end_io = blkdev_bio_end_io_async;
	if (iocb->ki_flags & IOCB_NOWAIT)
		bio->opf |= REQ_NOWAIT;
	km_submit_bio(bio);
	return -KM_EIOCBQUEUED;
}

/**
 * km_blkdev_direct_IO - a direct read or write of the block device.
 * Kernel: block/fops.c blkdev_direct_IO, v6.18.
 * Context: task.
 * Return: bytes, -errno, or -EIOCBQUEUED; -EINVAL when the position or
 * length is not on the logical block size, or for an atomic write of
 * more than BIO_MAX_VECS pages (it would need more than one bio).
 * Divergences: no write streams, no IOCB_HAS_METADATA.
 */
long km_blkdev_direct_IO(struct km_kiocb *iocb, bool is_read, size_t count,
			 uint32_t data_id, uint32_t *out)
{
	size_t nr_pages;

	if (!count)
		return 0;
	if (blkdev_dio_invalid(iocb, count))
		return -KM_EINVAL;
	nr_pages = iter_pages(count, BIO_MAX_VECS + 1);
	if (nr_pages <= BIO_MAX_VECS) {
		if (!iocb->ki_complete)
			return km___blkdev_direct_IO_simple(iocb, is_read,
							    count, data_id,
							    out);
		return km___blkdev_direct_IO_async(iocb, is_read, count,
						   data_id, out);
	} else if (iocb->ki_flags & IOCB_ATOMIC) {
		return -KM_EINVAL;
	}
	return km___blkdev_direct_IO(iocb, is_read, count, data_id, out);
}

/**
 * km_blkdev_write_iter - write(2) on the block device.
 * Kernel: block/fops.c blkdev_write_iter (blkdev_direct_write), v6.18.
 * Context: task; sleeps for the I/O (synchronous kiocb), O_DSYNC's
 * flush (generic_write_sync -> blkdev_fsync).
 * Return: bytes written, -ENOSPC at or past the end, -EOPNOTSUPP for
 * IOCB_NOWAIT without O_DIRECT, generic_atomic_write_valid's error for
 * an RWF_ATOMIC write, -EINVAL for one past the end, the direct I/O's
 * error or -EIOCBQUEUED.
 * Divergences: buffered writes are not modelled (m_vfs_not_modelled);
 * no kiocb_invalidate_pages (no bdev page cache); no file_update_time.
 */
long km_blkdev_write_iter(struct km_kiocb *iocb, struct km_iov_iter *from)
{
	loff_t size = bdev_nr_bytes();
	bool atomic = iocb->ki_flags & IOCB_ATOMIC;
	size_t count = from->count;
	long ret;

	if (!count)
		return 0;
	if (iocb->ki_pos >= size)
		return -KM_ENOSPC;
	if ((iocb->ki_flags & (IOCB_NOWAIT | IOCB_DIRECT)) == IOCB_NOWAIT)
		return -KM_EOPNOTSUPP;
	if (atomic) {
		ret = km_generic_atomic_write_valid(iocb, from);
		if (ret)
			return ret;
	}
	size -= iocb->ki_pos;
	if ((loff_t)count > size) {
		if (atomic)
			return -KM_EINVAL;
		count = (size_t)size;	/* iov_iter_truncate */
	}
	if (!(iocb->ki_flags & IOCB_DIRECT))
		return m_vfs_not_modelled("bdev", "buffered write");
	ret = km_blkdev_direct_IO(iocb, false, count, from->data_id, NULL);
	if (ret > 0) {
		iocb->ki_pos += ret;
		ret = km_generic_write_sync(iocb, ret);
	}
	return ret;
}

/**
 * km_blkdev_read_iter - read(2) on the block device.
 * Kernel: block/fops.c blkdev_read_iter, v6.18.
 * Context: task; sleeps for the I/O (synchronous kiocb).
 * Return: bytes read (0 at or past the end), -errno, -EIOCBQUEUED.
 * Divergences: buffered reads (filemap_read on the bdev's mapping) are
 * not modelled (m_vfs_not_modelled); no kiocb_write_and_wait (no bdev
 * page cache), no atime.
 */
long km_blkdev_read_iter(struct km_kiocb *iocb, size_t count, uint32_t *out)
{
	loff_t size = bdev_nr_bytes();
	loff_t pos = iocb->ki_pos;
	long ret = 0;

	if (pos + (loff_t)count > size) {
		if (pos >= size)
			return 0;
		count = (size_t)(size - pos);
	}
	if (!count)
		return 0;
	if (!(iocb->ki_flags & IOCB_DIRECT))
		return m_vfs_not_modelled("bdev", "buffered read");
	ret = km_blkdev_direct_IO(iocb, true, count, 0, out);
	if (ret > 0)
		iocb->ki_pos += ret;
	return ret;
}

/**
 * km_blkdev_fsync - fsync(2) on the block device: a cache flush.
 * Kernel: block/fops.c blkdev_fsync, v6.18.
 * Context: task; sleeps for the flush.
 * Return: 0 or -EIO (-EOPNOTSUPP from the flush is 0).
 * Divergences: file_write_and_wait_range is left out (no bdev page
 * cache).
 */
int km_blkdev_fsync(struct km_file *file, loff_t start, loff_t end,
		    int datasync)
{
	int error;

	(void)file;
	(void)start;
	(void)end;
	(void)datasync;
	error = km_blkdev_issue_flush();
	if (error == -KM_EOPNOTSUPP)
		error = 0;
	return error;
}

/* def_blk_fops: the entries the model has. */
const struct km_file_operations km_def_blk_fops = {
	.name = "bdev",
	.write_iter = km_blkdev_write_iter,
	.read_iter = km_blkdev_read_iter,
	.fsync = km_blkdev_fsync,
	.unlocked_ioctl = km_blkdev_ioctl,
};

/*
 * m_bdev_open - a file on the world's block device (open("/dev/...")):
 * its f_op is def_blk_fops; it has no inode of the model's (the bdev's
 * page cache is not modelled).  Call inside an execution (setup or a
 * task): the file's words are engine objects.
 */
struct km_file *m_bdev_open(unsigned int f_flags)
{
	struct km_file *file = sim_arena_alloc(sizeof(*file));

	file->f_op = &km_def_blk_fops;
	file->f_flags = f_flags;
	/* blkdev_open: RWF_ATOMIC when the queue has an atomic unit. */
	if (km_bdev_can_atomic_write(&m_world()->dev.limits))
		file->f_mode |= FMODE_CAN_ATOMIC_WRITE;
	snprintf(file->name, sizeof(file->name), "bdev");
	sim_word_init(&file->f_wb_err, 0, "bdev.f_wb_err");
	sim_spin_init(&file->f_lock, "bdev.f_lock");
	return file;
}
