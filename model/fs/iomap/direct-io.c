// SPDX-License-Identifier: MIT
/*
 * model/fs/iomap/direct-io.c - iomap direct-I/O writes with head and tail
 * zeroing of partial blocks.
 *
 * Models fs/iomap/direct-io.c of v6.18 (kernel-fs.md §2.1-§2.4):
 * __iomap_dio_rw for a write (kiocb_invalidate_pages: write back and drop
 * the cached folios of the range, -EAGAIN under NOWAIT when pages are
 * cached, -ENOTBLK when a folio cannot be dropped; inode_dio_begin, one
 * iteration per
 * mapping, the submitter's reference, waiting), iomap_dio_bio_iter (need
 * zeroout for unwritten or new blocks; head zeroing of [block start, pos);
 * the data bio; tail zeroing of [end, block end) also when the write ends
 * past EOF), iomap_dio_bio_end_io (the last reference wakes the
 * submitter, or queues the completion work of an asynchronous kiocb),
 * iomap_dio_complete (the fs end_io — the unwritten conversion and size
 * update — then kiocb_invalidate_post_direct_write, then inode_dio_end).
 * AIO (a kiocb with ki_complete: libaio's io_submit) without
 * IOMAP_DIO_FORCE_WAIT returns -EIOCBQUEUED once its bios are in flight;
 * the last bio's end_io queues iomap_dio_complete_work on the
 * superblock's s_dio_done_wq (a kworker task here; s_dio_done_wq is
 * WQ_PERCPU, fs/super.c sb_init_dio_done_wq, so the work runs on the
 * CPU of the completion that queued it: model/kernel/workqueue.c, bound
 * only where the timed device names its interrupt's CPU), which
 * completes the dio and calls ki_complete.  The filesystem side is a
 * struct m_iomap_dio_fs:
 * ext4's (ext4_iomap_begin, ext4_dio_write_end_io) is in
 * model/fs/ext4/file.c, XFS's in model/fs/xfs/xfs_file.c.  Holes are allocated unwritten and NEW.
 *
 * The head-zero, data and tail-zero bios of a write are independent
 * device events: two writers sharing a partial block race exactly as in
 * kernel-fs.md §2.3.
 *
 * Leaves out: IOMAP_DIO_CALLER_COMP (io_uring's completion in the
 * submitter's task work: io_uring O_DIRECT is not modelled) and
 * IOMAP_DIO_INLINE_COMP for writes (6.18 sets it only from XFS's ioend
 * completion of a write into a file with no cached pages,
 * iomap_finish_ioend_direct, which the model's DIO does not use),
 * polling, inline and delalloc mappings, splitting a data bio at the bio
 * size limit (an atomic write's one bio is never larger: its unit max
 * is below BIO_MAX_VECS pages), IOMAP_F_ATOMIC_COW (no reflink: every
 * atomic write is the REQ_ATOMIC one).  The O_DSYNC completion (IOMAP_DIO_NEED_SYNC: a FUA write
 * of a pure overwrite on a device with FUA or without a write cache
 * skips it, else iomap_dio_complete calls generic_write_sync) is
 * modelled for a filesystem with ->fsync (XFS); ext4's ->fsync is not
 * modelled, so its O_DSYNC direct write does not sync at completion.
 */
#include "model/fs/iomap.h"
#include "model/linux/bio.h"
#include "model/linux/pagemap.h"
#include "model/linux/workqueue.h"
#include "model/world.h"
#include "model/lockdep.h"
#include "sim/arena.h"
#include "sim/clock.h"

struct dio {
	struct sim_word ref;
	struct sim_completion done;
	bool write;		/* IOMAP_DIO_WRITE */
	bool inline_comp;	/* IOMAP_DIO_INLINE_COMP: every read */
	bool unwritten;		/* IOMAP_DIO_UNWRITTEN: convert at end_io */
	bool wait_for_completion;	/* sync kiocb or FORCE_WAIT */
	bool atomic_bio;	/* iomap_dio_bio_opflags: REQ_ATOMIC data */
	bool need_sync;		/* IOMAP_DIO_NEED_SYNC: iocb_is_dsync */
	bool write_through;	/* IOMAP_DIO_WRITE_THROUGH: every bio FUA */
	uint32_t *out;		/* a read's user buffer: an id a sector */
	int error;
	loff_t i_size;		/* snapshot at start */
	/* What iomap_dio_complete needs after an asynchronous return. */
	struct km_kiocb *iocb;
	const struct m_iomap_dio_fs *fs;
	loff_t pos, size;
};

/*
 * iomap_dio_complete: the fs end_io, the post-write invalidation,
 * inode_dio_end; frees the dio.  Return: bytes written or -errno.
 */
static long iomap_dio_complete(struct dio *dio)
{
	struct km_kiocb *iocb = dio->iocb;
	struct km_inode *inode = iocb->ki_filp->f_inode;
	loff_t pos = dio->pos, done = dio->size;
	bool need_sync;
	int ret;

	m_cost_dio_complete();
	if (dio->fs->end_io)
		ret = dio->fs->end_io(inode, pos, done, dio->error,
				      dio->unwritten);
	else
		ret = dio->error;
	/* Only report that we've read data up to i_size (a short read). */
	if (!ret && !dio->write && pos + done > dio->i_size)
		done = dio->i_size - pos;
	if (dio->write && !dio->error && done &&
	    !m_broken(M_BREAK_DIO_NO_POST_INVALIDATE))
		km_kiocb_invalidate_post_direct_write(iocb, (size_t)done);
	km_inode_dio_end(inode);
	need_sync = dio->need_sync;
	/* Long timed runs: the dio's ids and memory go back. */
	sim_object_retire(dio->ref.id);
	sim_object_retire(dio->done.done.id);
	sim_object_retire(dio->done.waiters.id);
	sim_arena_free(dio, sizeof(*dio));
	if (ret)
		return ret;
	if (done <= 0)
		return (long)done;
	iocb->ki_pos += done;
	/* A DSYNC write: push it to stable storage now (xfs_file_fsync,
	 * which also clears XFS_ITRUNCATED).  KM: ext4 has no ->fsync in
	 * the model (see the file's comment). */
	if (need_sync && iocb->ki_filp->f_op->fsync)
		return km_generic_write_sync(iocb, (long)done);
	return (long)done;
}

/* iomap_dio_complete_work: s_dio_done_wq's work for an AIO write. */
static void iomap_dio_complete_work(void *arg)
{
	struct dio *dio = arg;
	struct km_kiocb *iocb = dio->iocb;

	iocb->ki_complete(iocb, iomap_dio_complete(dio));
}

/*
 * iomap_dio_bio_end_io and iomap_dio_done: the last reference wakes a
 * waiting submitter, completes an asynchronous read right here
 * (IOMAP_DIO_INLINE_COMP: ki_complete in the bio's end_io), or queues
 * the completion of an asynchronous write (a write's completion needs
 * task context: the model never sets INLINE_COMP for one).
 */
static void dio_bio_end_io(struct km_bio *bio)
{
	struct dio *dio = bio->private;

	if (bio->status && !dio->error)
		dio->error = bio->status;
	if (sim_word_add(&dio->ref, -1) != 0)
		return;
	if (dio->wait_for_completion)
		sim_completion_complete(&dio->done);
	else if (dio->inline_comp)
		iomap_dio_complete_work(dio);
	else
		m_queue_work_percpu("kworker/dio", iomap_dio_complete_work,
				    dio);
}

static void dio_submit(struct km_inode *inode, struct dio *dio, loff_t pos,
		       size_t len, bool zero, uint32_t data_id, bool use_fua)
{
	struct km_bio *bio = km_bio_alloc(REQ_OP_WRITE, REQ_SYNC | REQ_IDLE |
					  (!zero && dio->atomic_bio ?
					   REQ_ATOMIC : 0) |
					  (use_fua ? REQ_FUA : 0),
					  m_inode_sector(inode, pos));

	if (zero) {
		bio->zero_len = len;
	} else {
		bio->dio_len = len;
		bio->data_id = data_id;
	}
	bio->private = dio;
	bio->end_io = dio_bio_end_io;
	sim_word_add(&dio->ref, 1);
	km_submit_bio(bio);
}

/*
 * A direct read's bio (iomap_dio_bio_opflags: REQ_OP_READ, no flags):
 * [@pos, @pos + @len) into the user buffer at @out.
 */
static void dio_submit_read(struct km_inode *inode, struct dio *dio,
			    loff_t pos, size_t len, uint32_t *out)
{
	struct km_bio *bio = km_bio_alloc(REQ_OP_READ, 0,
					  m_inode_sector(inode, pos));

	bio->dio_len = len;
	bio->dio_out = out;
	bio->private = dio;
	bio->end_io = dio_bio_end_io;
	sim_word_add(&dio->ref, 1);
	km_submit_bio(bio);
}

/* The user buffer's sectors for the bytes [@from, @from + @len). */
static uint32_t *dio_out_at(struct dio *dio, loff_t from)
{
	return dio->out + ((size_t)from >> SECTOR_SHIFT);
}

/*
 * iomap_dio_hole_iter: a read of a hole or an unwritten extent copies
 * zeroes (iov_iter_zero) into the user buffer; no I/O.
 */
static loff_t iomap_dio_hole_iter(struct dio *dio, loff_t done,
				  loff_t length)
{
	size_t first = (size_t)done >> SECTOR_SHIFT;
	size_t last = (size_t)(done + length - 1) >> SECTOR_SHIFT;

	for (size_t k = first; k <= last; k++)
		dio->out[k] = 0;
	return length;
}

/*
 * iomap_dio_bio_iter: one mapping: head zero, data, tail zero.  An
 * atomic write (IOMAP_ATOMIC, @iter_len the whole write) must be one
 * mapping: a shorter one is -EINVAL; its data bio carries REQ_ATOMIC.
 */
static loff_t iomap_dio_bio_iter(struct km_inode *inode, struct dio *dio,
				 const struct km_iomap *iomap, loff_t pos,
				 loff_t length, uint32_t data_id,
				 struct m_ext4_dio_decision *d,
				 bool atomic, loff_t iter_len)
{
	loff_t bs = (loff_t)1 << inode->i_blkbits;
	bool need_zeroout = false, use_fua = false;
	loff_t pad;

	if (atomic) {
		if (length != iter_len)
			return -KM_EINVAL;
		dio->atomic_bio = true;
	}

	if (iomap->type == IOMAP_UNWRITTEN) {
		dio->unwritten = true;
		need_zeroout = true;
	}
	if (iomap->flags & IOMAP_F_NEW) {
		need_zeroout = true;
	} else if (iomap->type == IOMAP_MAPPED) {
		/* A FUA write for datasync semantics: a pure data overwrite
		 * (no metadata to log) on a device with FUA or without a
		 * volatile write cache.  (IOMAP_DIO_CALLER_COMP, which the
		 * other branch clears, is not modelled.) */
		if (!(iomap->flags & IOMAP_F_DIRTY) && dio->write_through &&
		    (km_bdev_fua() || !km_bdev_write_cache()))
			use_fua = true;
	}
	/* iomap_dio_bio_opflags: any bio without FUA ends WRITE_THROUGH. */
	if (!use_fua)
		dio->write_through = false;
	/* Head: zero the start of the first block, before the data. */
	pad = pos & (bs - 1);
	if (need_zeroout && pad) {
		dio_submit(inode, dio, pos - pad, (size_t)pad, true, 0, false);
		if (d)
			d->zero_bios++;
	}
	dio_submit(inode, dio, pos, (size_t)length, false, data_id, use_fua);
	pos += length;
	/* Tail: zero the rest of the last block (also past EOF). */
	pad = pos & (bs - 1);
	if ((need_zeroout || pos >= km_i_size_read(inode)) && pad) {
		dio_submit(inode, dio, pos, (size_t)(bs - pad), true, 0,
			   false);
		if (d)
			d->zero_bios++;
	}
	return length;
}

/* The last step of both directions: drop the submitter's reference. */
static long dio_finish(struct dio *dio, struct km_iov_iter *iter, loff_t done)
{
	bool wait_for_completion = dio->wait_for_completion;
	long ret;

	dio->size = done;
	/*
	 * Drop the submitter's reference: the last one completes here; an
	 * asynchronous kiocb must not touch the dio after a decrement that
	 * left bios in flight (their end_io completes it); a synchronous
	 * one waits for the last end_io's wake-up.
	 */
	if (sim_word_add(&dio->ref, -1) != 0) {
		if (!wait_for_completion) {
			iter->count -= (size_t)done;
			return -KM_EIOCBQUEUED;
		}
		sim_completion_wait(&dio->done);
	}
	ret = iomap_dio_complete(dio);
	if (ret > 0)
		iter->count -= (size_t)ret;
	return ret;
}

/* A struct dio of one reference, i_size sampled (one point). */
static struct dio *dio_alloc(struct km_kiocb *iocb,
			     const struct m_iomap_dio_fs *fs,
			     struct km_inode *inode, loff_t pos)
{
	struct dio *dio = sim_arena_alloc(sizeof(*dio));

	sim_word_init_static(&dio->ref, 1, "dio.ref");
	sim_completion_init_static(&dio->done, "dio.done", "dio.done.wait");
	dio->i_size = km_i_size_read(inode);
	dio->iocb = iocb;
	dio->fs = fs;
	dio->pos = pos;
	return dio;
}

/*
 * __iomap_dio_rw for a read (iov_iter_rw(iter) == READ, the model's
 * iter->out): the i_size snapshot, nothing at or past EOF,
 * kiocb_write_and_wait (-EAGAIN under NOWAIT when the range needs
 * writeback), inode_dio_begin, per mapping a hole (zeroes, no I/O), a
 * mapped extent (a read bio; -EINVAL when not aligned to the logical
 * block size) or delalloc (-EIO: a DIO colliding with a buffered write
 * through mmap); the completion reports at most up to i_size.
 */
static long iomap_dio_read(struct km_kiocb *iocb, struct km_iov_iter *to,
			   const struct m_iomap_dio_fs *fs,
			   unsigned int dio_flags)
{
	struct km_inode *inode = iocb->ki_filp->f_inode;
	loff_t pos = iocb->ki_pos, len = (loff_t)to->count, done = 0;
	struct dio *dio;
	int ret;

	dio = dio_alloc(iocb, fs, inode, pos);
	dio->out = to->out;
	dio->inline_comp = true;	/* reads can always complete inline */
	dio->wait_for_completion = !iocb->ki_complete ||
				   (dio_flags & IOMAP_DIO_FORCE_WAIT);
	if (pos >= dio->i_size) {
		ret = 0;
		goto out_free_dio;
	}
	/* break=dio_read_no_flush: the dirty folios are not written first. */
	ret = m_broken(M_BREAK_DIO_READ_NO_FLUSH) ? 0 :
	      km_kiocb_write_and_wait(iocb, (size_t)len);
	if (ret)
		goto out_free_dio;
	/* KM: the blocks past the model's file bound are not walked: the
	 * result stops at i_size, which is within the bound. */
	if (pos + len > (loff_t)(m_file_pages_max * PAGE_SIZE))
		len = (loff_t)(m_file_pages_max * PAGE_SIZE) - pos;
	km_inode_dio_begin(inode);
	m_cost_dio_submit();	/* iomap_iter, ->iomap_begin, dio, bios */
	while (done < len) {
		struct km_iomap iomap;
		loff_t n;

		ret = fs->iomap_begin(inode, pos + done, len - done,
				      IOMAP_DIRECT |
				      ((iocb->ki_flags & IOCB_NOWAIT) ?
				       IOMAP_NOWAIT : 0), &iomap);
		if (ret)
			break;
		n = iomap.offset + iomap.length - (pos + done);
		if (n > len - done)
			n = len - done;
		switch (iomap.type) {
		case IOMAP_HOLE:
		case IOMAP_UNWRITTEN:
			done += iomap_dio_hole_iter(dio, done, n);
			continue;
		case IOMAP_MAPPED:
			if (((pos + done) | n) & (SECTOR_SIZE - 1)) {
				ret = -KM_EINVAL;
				break;
			}
			dio_submit_read(inode, dio, pos + done, (size_t)n,
					dio_out_at(dio, done));
			done += n;
			continue;
		default:	/* IOMAP_DELALLOC */
			ret = -KM_EIO;
			break;
		}
		break;
	}
	/* iomap_dio_set_error: the whole read fails with the first error. */
	if (ret < 0 && !dio->error)
		dio->error = ret;
	return dio_finish(dio, to, done);
out_free_dio:
	sim_object_retire(dio->ref.id);
	sim_object_retire(dio->done.done.id);
	sim_object_retire(dio->done.waiters.id);
	sim_arena_free(dio, sizeof(*dio));
	return ret;
}

/**
 * km_iomap_dio_rw - a direct-I/O write or read through iomap.
 * Kernel: fs/iomap/direct-io.c iomap_dio_rw -> __iomap_dio_rw,
 * iomap_dio_complete, v6.18.
 * Context: i_rwsem held by the caller (shared or exclusive).
 * Return: bytes written, or -errno: -EAGAIN under NOWAIT with cached
 * pages in the range, -ENOTBLK when the range's flush failed or a
 * cached folio could not be dropped (kiocb_invalidate_pages; the caller
 * falls back to a buffered write); -EIOCBQUEUED for an asynchronous kiocb (ki_complete set,
 * no IOMAP_DIO_FORCE_WAIT) whose bios are still in flight: ki_complete
 * gets the result from the completion work.  A mapping error after
 * some bios were built (-ENOSPC past a partial allocation) is the whole
 * write's error once they complete (iomap_dio_set_error).
 * Divergences: the post-write invalidation runs when the bios report no
 * error (dio->error), as in the kernel, whatever end_io returned.  The
 * O_DSYNC completion (generic_write_sync) only for a filesystem whose
 * ->fsync the model has (XFS; not ext4).  The
 * iterator's count drops by the bytes written at completion for a
 * waited dio (the kernel advances it as bios are built), at submission
 * for a queued one.
 */
long km_iomap_dio_rw(struct km_kiocb *iocb, struct km_iov_iter *from,
		     const struct m_iomap_dio_fs *fs, unsigned int dio_flags,
		     struct m_ext4_dio_decision *d)
{
	struct km_inode *inode = iocb->ki_filp->f_inode;
	loff_t pos = iocb->ki_pos, len = (loff_t)from->count, done = 0;
	bool wait_for_completion = !iocb->ki_complete ||
				   (dio_flags & IOMAP_DIO_FORCE_WAIT);
	unsigned int iomap_flags = 0;
	struct dio *dio;
	long ret;

	if (len == 0)
		return 0;
	if (from->out)
		return iomap_dio_read(iocb, from, fs, dio_flags);
	if (dio_flags & IOMAP_DIO_OVERWRITE_ONLY) {
		loff_t i_size = km_i_size_read(inode);

		if (pos >= i_size || pos + len > i_size)
			return -KM_EAGAIN;
		iomap_flags |= IOMAP_OVERWRITE_ONLY;
	}
	ret = km_kiocb_invalidate_pages(iocb, (size_t)len);
	if (ret)
		return ret == -KM_EAGAIN ? ret : -KM_ENOTBLK;
	dio = dio_alloc(iocb, fs, inode, pos);
	/* For data sync or sync, sync completion processing; a datasync
	 * write tries FUA (IOMAP_DIO_WRITE_THROUGH).  The kernel sets both
	 * before the invalidation; they are the dio's own fields. */
	if (iocb->ki_flags & IOCB_DSYNC) {
		dio->need_sync = true;
		if (!(iocb->ki_flags & IOCB_SYNC))
			dio->write_through = true;
	}
	km_inode_dio_begin(inode);
	m_cost_dio_submit();	/* iomap_iter, ->iomap_begin, dio, bios */
	if (iocb->ki_flags & IOCB_ATOMIC)
		iomap_flags |= IOMAP_ATOMIC;
	while (done < len) {
		struct km_iomap iomap;
		loff_t n;
		int err;

		err = fs->iomap_begin(inode, pos + done, len - done,
				      IOMAP_WRITE | IOMAP_DIRECT | iomap_flags |
				      ((iocb->ki_flags & IOCB_NOWAIT) ?
				       IOMAP_NOWAIT : 0), &iomap);
		if (err) {
			/*
			 * iomap_iter's error: nothing more is submitted.
			 * XFS fails a NOWAIT mapping only whole (one map
			 * must span the write), so nothing was; the dio is
			 * then dropped (out_free_dio) and the error returned.
			 */
			if (!done) {
				km_inode_dio_end(inode);
				return err;
			}
			/* After progress (ext4's allocation halved, then
			 * -ENOSPC; XFS's hole after a mapped range):
			 * iomap_dio_set_error, the whole write fails with
			 * it once its bios are done (no IOMAP_DIO_PARTIAL
			 * for writes; -ENOTBLK is the buffered fallback). */
			if (err != -KM_ENOTBLK && !dio->error)
				dio->error = err;
			break;
		}
		n = iomap.offset + iomap.length - (pos + done);
		if (n > len - done)
			n = len - done;
		n = iomap_dio_bio_iter(inode, dio, &iomap, pos + done, n,
				       from->data_id, d,
				       iomap_flags & IOMAP_ATOMIC, len - done);
		if (n < 0) {
			/* Nothing of this mapping was submitted: the error
			 * ends the iteration as ->iomap_begin's does. */
			if (!done) {
				km_inode_dio_end(inode);
				return n;
			}
			if (!dio->error)
				dio->error = (int)n;
			break;
		}
		done += n;
	}
	dio->write = true;
	dio->wait_for_completion = wait_for_completion;
	/* Every bio was written through to the media: no cache flush at
	 * completion. */
	if (dio->write_through)
		dio->need_sync = false;
	return dio_finish(dio, from, done);
}
