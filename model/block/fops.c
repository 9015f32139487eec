// SPDX-License-Identifier: MIT
/*
 * model/block/fops.c - the raw block device's file: direct I/O, fsync.
 *
 * Models block/fops.c of v6.18 for a file opened on the block device
 * itself (fio's filename=/dev/...): blkdev_write_iter and
 * blkdev_read_iter with O_DIRECT (blkdev_direct_write with
 * kiocb_invalidate_pages before and kiocb_invalidate_post_direct_write
 * after the I/O; kiocb_write_and_wait before a direct read),
 * blkdev_direct_IO choosing
 * __blkdev_direct_IO_simple (synchronous, up to BIO_MAX_VECS pages, one
 * bio waited for), __blkdev_direct_IO_async (asynchronous, one bio,
 * ki_complete from its end_io) or __blkdev_direct_IO (larger: a bio per
 * BIO_MAX_VECS pages, a reference each); buffered I/O through the
 * device's own page cache (the bdev inode's mapping, def_blk_aops):
 * blkdev_buffered_write (iomap_file_buffered_write with
 * blkdev_iomap_ops, under the shared i_rwsem), filemap_read under the
 * shared i_rwsem, the mapping's read_folio, readahead and writepages
 * (bios straight to the block layer: no filesystem, no allocation),
 * blkdev_fsync (file_write_and_wait_range, then a flush) and
 * blkdev_release (the last close writes the cache back and drops it:
 * model/block/bdev.c).  The ioctls (BLKDISCARD, BLKGETSIZE64,
 * BLKFLSBUF) are model/block/ioctl.c; RWF_ATOMIC's checks are
 * blkdev_write_iter's and blkdev_direct_IO's (docs/model/atomic-write.md).  The bios go
 * straight to the block layer: split to the queue limits
 * (model/block/blk-merge.c), then the device (model/block/blk-core.c).
 *
 * Which def_blk_aops: v6.18 builds two.  With CONFIG_BUFFER_HEAD (every
 * distribution kernel, Debian's 6.12 and 6.18 among them) read_folio,
 * readahead and writepages use buffer heads (block_read_full_folio,
 * mpage_readahead, writeback_iter + block_write_full_folio), without it
 * iomap (iomap_read_folio, iomap_readahead, iomap_writepages with
 * blkdev_writeback_range).  The buffered write is
 * iomap_file_buffered_write with blkdev_iomap_ops in both.  The model
 * follows the iomap form: the model has iomap's per-block state and
 * writeback, not fs/buffer.c, and on the model's bdev (4 KiB blocks,
 * i_blkbits 12 from set_init_blocksize, one-page folios) the two forms
 * send the same bios: writeback one bio per dirty folio (the buffer-head
 * form's submit_bh per buffer; the model's iomap writeback without
 * ioend merging), readahead a bio over contiguous folios (mpage's
 * do_mpage_readpage; the model's iomap_readahead).  What differs is
 * state the model does not keep (buffer heads, BH_Dirty, the buffer
 * lock that serialises with a filesystem using the bdev's mapping) and
 * the plug's merging of adjacent writeback bios, which the model's block
 * layer has for no file (docs/model/block.md).
 *
 * Leaves out: partitions, read-only devices, swap files, write streams
 * and hints, integrity metadata, polled I/O, fallocate,
 * llseek, mmap of the device, the exclusive open and holder logic,
 * file_update_time and atime, set_blocksize (the buffered paths take
 * the shared i_rwsem against it, but nothing changes the block size),
 * large folios in the device's page cache.
 */
#include <string.h>

#include "model/block/fops.h"
#include "model/fs/iomap.h"
#include "model/linux/bio.h"
#include "model/linux/fs.h"
#include "model/linux/pagemap.h"
#include "model/linux/readahead.h"
#include "model/linux/writeback.h"
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


/* ---- the device's page cache ------------------------------------------- */

/**
 * km_blkdev_iomap_begin - map a range of the block device: itself.
 * Kernel: block/fops.c blkdev_iomap_begin, v6.18.
 * Context: any; one scheduling point (i_size's read).
 * Return: 0, or -EIO at or past the device's end.
 * Divergences: no iomap->bdev or ->addr: the model's iomap finds a
 * byte's sector from the inode (m_inode_sector), which for the bdev
 * inode is the byte's own sector (its i_sector_base is 0); the flags are
 * cleared here (iomap_iter's reset of the iomap) and
 * IOMAP_F_BUFFER_HEAD is not kept (the model's iomap has no buffer-head
 * write_begin: see the file's header).
 */
int km_blkdev_iomap_begin(struct km_inode *inode, loff_t offset,
			  loff_t length, unsigned int flags,
			  struct km_iomap *iomap)
{
	loff_t isize = km_i_size_read(inode);

	(void)length;
	(void)flags;
	if (offset >= isize)
		return -KM_EIO;
	iomap->offset = offset & ~(loff_t)(m_world()->dev.limits.
					   logical_block_size - 1);
	iomap->type = IOMAP_MAPPED;
	iomap->length = isize - iomap->offset;
	iomap->flags = 0;
	return 0;
}

/* blkdev_iomap_ops */
static const struct km_iomap_ops blkdev_iomap_ops = {
	.iomap_begin = km_blkdev_iomap_begin,
};

/*
 * blkdev_writeback_ops: the range written back needs no mapping (the
 * model's iomap puts the bio at the range's own sector, which for the
 * bdev is blkdev_writeback_range's identity mapping and the buffer-head
 * form's blkdev_get_block: b_blocknr = iblock) and its completion no
 * filesystem work (no ioend_needs_wq, no ioend_done: the bio ends in
 * the interrupt, iomap's ioend_writeback_end_bio).
 */
static const struct km_iomap_writeback_ops blkdev_writeback_ops = {
	.writeback_range = NULL,
	.ioend_needs_wq = NULL,
	.ioend_done = NULL,
};

/**
 * km_blkdev_writepages - write back the device's dirty folios.
 * Kernel: block/fops.c blkdev_writepages, v6.18: with CONFIG_BUFFER_HEAD
 * writeback_iter and block_write_full_folio (blkdev_get_block) under a
 * plug; without it iomap_writepages with blkdev_writeback_ops.
 * Context: the flusher, fsync or a sync range (do_writepages).
 * Return: 0 or the first error.
 * Divergences: the iomap form, through the model's km_iomap_writepages
 * without ioend merging: one bio per dirty folio at its own sector,
 * which with the bdev's 4 KiB blocks and one-page folios is the
 * buffer-head form's one submit_bh per buffer; no plug (no merging of
 * the adjacent bios); no buffer heads or buffer locks (see the file's
 * header).
 */
int km_blkdev_writepages(struct km_address_space *mapping,
			 struct km_writeback_control *wbc)
{
	return km_iomap_writepages(mapping, wbc, &blkdev_writeback_ops);
}

/**
 * km_blkdev_read_folio - read one folio of the device.
 * Kernel: block/fops.c blkdev_read_folio, v6.18 (iomap_read_folio with
 * blkdev_iomap_ops; with CONFIG_BUFFER_HEAD block_read_full_folio).
 * Context: the folio locked; sleeps for the read.
 * Return: 0 or the read's error; the folio is unlocked.
 * Divergences: km_iomap_read_folio's: one synchronous bio per block.
 */
int km_blkdev_read_folio(struct km_folio *folio)
{
	return km_iomap_read_folio(folio, &blkdev_iomap_ops);
}

/**
 * km_blkdev_readahead - start the reads of a readahead batch.
 * Kernel: block/fops.c blkdev_readahead, v6.18 (iomap_readahead with
 * blkdev_iomap_ops; with CONFIG_BUFFER_HEAD mpage_readahead).
 * Context: the batch's folios locked; the bios end them.
 * Return: none.
 * Divergences: km_iomap_readahead's: a bio over contiguous folios holds
 * at most M_BIO_VECS_MAX of them (mpage's grows to the device's limits).
 */
void km_blkdev_readahead(struct km_readahead_control *rac)
{
	km_iomap_readahead(rac, &blkdev_iomap_ops);
}

/* def_blk_aops: the iomap form's entries the model's page cache calls
 * (filemap_dirty_folio: the bdev's one-block folios carry no per-block
 * state to dirty). */
const struct km_address_space_operations km_def_blk_aops = {
	.dirty_folio = km_filemap_dirty_folio,
	.writepages = km_blkdev_writepages,
	.read_folio = km_blkdev_read_folio,
	.readahead = km_blkdev_readahead,
	.release_folio = km_iomap_release_folio,
	.is_partially_uptodate = km_iomap_is_partially_uptodate,
};

/* ---- read, write, fsync ------------------------------------------------- */

/**
 * km_blkdev_buffered_write - a write through the device's page cache.
 * Kernel: block/fops.c blkdev_buffered_write, v6.18.
 * Context: task; the caller holds the shared i_rwsem (or, as direct
 * I/O's fallback, none); may sleep (folio locks, a read of a block the
 * write covers in part, dirty throttling).
 * Return: bytes written (ki_pos advanced), or -errno if none.
 * Divergences: km_iomap_file_buffered_write's (its write_begin is
 * iomap's, not the buffer-head __block_write_begin_int that
 * IOMAP_F_BUFFER_HEAD selects: the same read of a partially covered
 * block that is not uptodate).
 */
long km_blkdev_buffered_write(struct km_kiocb *iocb, struct km_iov_iter *from)
{
	return km_iomap_file_buffered_write(iocb, from, &blkdev_iomap_ops);
}

/*
 * direct_write_fallback (fs/libfs.c, v6.18): the rest of a direct write
 * written buffered, then written back and dropped to keep O_DIRECT's
 * semantics; an error of the buffered part returns what went direct.
 */
static long direct_write_fallback(struct km_kiocb *iocb,
				  long direct_written, long buffered_written)
{
	struct km_address_space *mapping =
		km_inode_mapping(iocb->ki_filp->f_inode);
	loff_t pos = iocb->ki_pos - buffered_written;
	loff_t end = iocb->ki_pos - 1;
	int err;

	if (buffered_written < 0)
		return direct_written ? direct_written : buffered_written;
	err = km_filemap_write_and_wait_range(mapping, pos, end);
	if (err < 0) {
		iocb->ki_pos -= buffered_written;
		return direct_written ? direct_written : err;
	}
	/* invalidate_mapping_pages */
	km_mapping_try_invalidate(mapping, (pgoff_t)pos >> PAGE_SHIFT,
				  (pgoff_t)end >> PAGE_SHIFT, NULL);
	return direct_written + buffered_written;
}

/**
 * km_blkdev_direct_write - an O_DIRECT write of the device.
 * Kernel: block/fops.c blkdev_direct_write, v6.18.
 * Context: task; sleeps for the cached range's writeback and the I/O
 * (synchronous kiocb).
 * Return: bytes written (ki_pos advanced), 0 when a cached folio could
 * not be dropped (-EBUSY: the caller writes buffered), -EAGAIN under
 * IOCB_NOWAIT with the range cached, -errno, or -EIOCBQUEUED.
 * Divergences: the model's iterator is its count (@from->count less
 * what was written: iov_iter_revert's effect).
 */
long km_blkdev_direct_write(struct km_kiocb *iocb, struct km_iov_iter *from,
			    size_t count)
{
	long written;

	written = km_kiocb_invalidate_pages(iocb, count);
	if (written) {
		if (written == -KM_EBUSY)
			return 0;
		return written;
	}
	written = km_blkdev_direct_IO(iocb, false, count, from->data_id, NULL);
	if (written > 0) {
		km_kiocb_invalidate_post_direct_write(iocb, count);
		iocb->ki_pos += written;
		from->count -= (size_t)written;
	}
	return written;
}

/**
 * km_blkdev_write_iter - write(2) on the block device.
 * Kernel: block/fops.c blkdev_write_iter, v6.18.
 * Context: task; a buffered write under the shared i_rwsem; sleeps for
 * the I/O (synchronous kiocb), O_DSYNC's sync (generic_write_sync ->
 * blkdev_fsync).
 * Return: bytes written, -ENOSPC at or past the end, -EOPNOTSUPP for
 * IOCB_NOWAIT without O_DIRECT, generic_atomic_write_valid's error for
 * an RWF_ATOMIC write, -EINVAL for one past the end, the write's error
 * or -EIOCBQUEUED.
 * Divergences: no file_update_time; the iterator is its count
 * (iov_iter_truncate and iov_iter_reexpand move @from->count).
 */
long km_blkdev_write_iter(struct km_kiocb *iocb, struct km_iov_iter *from)
{
	struct km_inode *bd_inode = iocb->ki_filp->f_inode;
	loff_t size = bdev_nr_bytes();
	bool atomic = iocb->ki_flags & IOCB_ATOMIC;
	size_t shorted = 0;
	long ret;

	if (!from->count)
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
	if ((loff_t)from->count > size) {
		if (atomic)
			return -KM_EINVAL;
		shorted = from->count - (size_t)size;
		from->count = (size_t)size;	/* iov_iter_truncate */
	}
	if (iocb->ki_flags & IOCB_DIRECT) {
		ret = km_blkdev_direct_write(iocb, from, from->count);
		if (ret >= 0 && from->count)
			ret = direct_write_fallback(iocb, ret,
					km_blkdev_buffered_write(iocb, from));
	} else {
		/* i_rwsem against set_blocksize (not modelled). */
		km_inode_lock_shared(bd_inode);
		ret = km_blkdev_buffered_write(iocb, from);
		km_inode_unlock_shared(bd_inode);
	}
	if (ret > 0)
		ret = km_generic_write_sync(iocb, ret);
	from->count += shorted;		/* iov_iter_reexpand */
	return ret;
}

/**
 * km_blkdev_read_iter - read(2) on the block device.
 * Kernel: block/fops.c blkdev_read_iter, v6.18.
 * Context: task; sleeps for the I/O (synchronous kiocb); a buffered read
 * under the shared i_rwsem.
 * Return: bytes read (0 at or past the end), -errno, -EIOCBQUEUED.
 * Divergences: no atime (file_accessed); the model's destination is
 * (count, out) rather than an iov_iter; the model's direct read moves
 * all it was asked or fails, so the buffered rest after it is never
 * reached from a direct read (the code is there as the kernel's).
 */
long km_blkdev_read_iter(struct km_kiocb *iocb, size_t count, uint32_t *out)
{
	struct km_inode *bd_inode = iocb->ki_filp->f_inode;
	loff_t size = bdev_nr_bytes();
	loff_t pos = iocb->ki_pos;
	long ret = 0, read;

	if (pos + (loff_t)count > size) {
		if (pos >= size)
			return 0;
		count = (size_t)(size - pos);
	}
	if (!count)
		return 0;
	if (iocb->ki_flags & IOCB_DIRECT) {
		ret = km_kiocb_write_and_wait(iocb, count);
		if (ret < 0)
			return ret;
		ret = km_blkdev_direct_IO(iocb, true, count, 0, out);
		if (ret >= 0) {
			iocb->ki_pos += ret;
			count -= (size_t)ret;
		}
		if (ret < 0 || !count)
			return ret;
	}
	/* i_rwsem against set_blocksize (not modelled). */
	km_inode_lock_shared(bd_inode);
	/* filemap_read(iocb, to, ret): what the direct part read counts. */
	read = km_filemap_read(iocb, count,
			       out + ((size_t)ret >> SECTOR_SHIFT));
	ret = read > 0 ? ret + read : (ret ? ret : read);
	km_inode_unlock_shared(bd_inode);
	return ret;
}

/**
 * km_blkdev_fsync - fsync(2) on the block device.
 * Kernel: block/fops.c blkdev_fsync, v6.18.
 * Context: task; sleeps for the writeback of the device's page cache
 * and the flush.
 * Return: 0, the writeback error (file_write_and_wait_range), or -EIO
 * (-EOPNOTSUPP from the flush is 0).
 */
int km_blkdev_fsync(struct km_file *file, loff_t start, loff_t end,
		    int datasync)
{
	int error;

	(void)datasync;
	error = km_file_write_and_wait_range(file, start, end);
	if (error)
		return error;
	error = km_blkdev_issue_flush();
	if (error == -KM_EOPNOTSUPP)
		error = 0;
	return error;
}

/**
 * km_blkdev_release - the last reference to a file of the device is
 * dropped (close).
 * Kernel: block/fops.c blkdev_release, v6.18 (bdev_release).
 * Context: task; may sleep (the last opener's writeback).
 * Return: 0.
 */
int km_blkdev_release(struct km_inode *inode, struct km_file *file)
{
	(void)inode;
	km_bdev_release(file);
	return 0;
}

/* def_blk_fops: the entries the model has. */
const struct km_file_operations km_def_blk_fops = {
	.name = "bdev",
	.write_iter = km_blkdev_write_iter,
	.read_iter = km_blkdev_read_iter,
	.fsync = km_blkdev_fsync,
	.unlocked_ioctl = km_blkdev_ioctl,
	.release = km_blkdev_release,
};

/* The bdev inode's inode_operations: no ->setattr (a truncate of the
 * device is a model bound, m_vfs_not_modelled). */
const struct km_inode_operations m_bdev_inode_operations = {
	.name = "bdev",
};

/*
 * set_init_blocksize (block/bdev.c, v6.18): the bdev inode's block size
 * is the logical block size doubled while the device's size is a
 * multiple of it, up to PAGE_SIZE; its mapping's smallest folio is that
 * block (one page here).
 */
static unsigned int set_init_blocksize(void)
{
	unsigned int bsize = m_world()->dev.limits.logical_block_size;
	loff_t size = bdev_nr_bytes();
	unsigned int bits = 0;

	while (bsize < PAGE_SIZE) {
		if (size & bsize)
			break;
		bsize <<= 1;
	}
	while ((1u << bits) < bsize)
		bits++;
	return bits;
}

/*
 * m_bdev_open - a file on the world's block device (open("/dev/...")):
 * its f_op is def_blk_fops, its inode the device's (block/bdev.c's bdev
 * inode, i_size bdev_nr_bytes), made at the device's first open as a
 * file of the world's table (M_FS_BDEV), so that the flusher and the
 * checks see its page cache as any file's.  Call inside an execution
 * (setup or a task): the inode's and the file's words are engine
 * objects.  Buffered I/O of the device reaches at most m_file_pages_max
 * pages (--max-pages) of it: a folio beyond fails the execution as a
 * model bound (model/mm/filemap.c).  Each open counts in bd_openers
 * (m_world()->bdev_openers): the close of the last (close(2):
 * km_filp_close -> blkdev_release) writes the page cache back and drops
 * it.
 */
struct km_file *m_bdev_open(unsigned int f_flags)
{
	struct m_world *w = m_world();
	struct km_file *file;

	if (!w->bdev_inode) {
		unsigned int blkbits = set_init_blocksize();
		struct m_file_config fc = {
			.name = "bdev",
			.size = bdev_nr_bytes(),
			.blkbits = blkbits,
			/* Every block is the device's own, written: what
			 * the model's checks read of a block map (a lost
			 * write compares a clean folio with the device). */
			.layout_fill = M_EXT_WRITTEN,
			.cached_first = 0, .cached_last = -1,
			.dirty_first = 0, .dirty_last = -1,
			.mapped_first = 0, .mapped_last = -1,
			.dropbehind_first = 0, .dropbehind_last = -1,
			.fs = M_FS_BDEV,
		};
		unsigned int n;

		if (blkbits < 10)
			sim_fail(SIM_FAIL_BOUND, "bdev: a device of %lld bytes "
				 "has %u-byte blocks; the model's page cache "
				 "holds blocks of 1 KiB and up",
				 (long long)fc.size, 1u << blkbits);
		n = m_world_file_add(&fc);	/* may move inodes[] */
		w->bdev_inode = w->inodes[n];
	}
	w->bdev_openers++;	/* blkdev_get_whole: bd_openers */
	file = m_file_open(w->bdev_inode, f_flags);
	/* blkdev_open: RWF_ATOMIC when the queue has an atomic unit. */
	if (km_bdev_can_atomic_write(&w->dev.limits))
		file->f_mode |= FMODE_CAN_ATOMIC_WRITE;
	return file;
}
