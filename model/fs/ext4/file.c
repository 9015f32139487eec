// SPDX-License-Identifier: MIT
/*
 * model/fs/ext4/file.c - ext4 direct-I/O writes: the i_rwsem lock
 * decision in its three versions (seed 002) and the DIO completion.
 *
 * Models fs/ext4/file.c of v6.18 (kernel-fs.md §1.2-§1.4):
 * ext4_dio_write_iter (racy extending pre-check, lock or trylock,
 * ext4_dio_write_checks, iomap_dio_rw, unlock), ext4_dio_write_checks
 * (generic checks, ext4_unaligned_io, ext4_extending_io against i_size and
 * i_disksize, the upgrade by drop-and-retake with restart, the exclusive
 * tail with inode_dio_wait and IOMAP_DIO_FORCE_WAIT, file_modified),
 * ext4_overwrite_io (base, patch 1), ext4_dio_needs_zeroing (patch 2, as
 * the seed's patch text has it), ext4_dio_write_end_io (unwritten
 * conversion, size update), and the choice of ext4_iomap_overwrite_ops
 * for a written range under the shared lock (base); ext4_map_blocks and
 * the DIO iomap_begin are in model/fs/ext4/inode.c, the extent split and
 * conversion in model/fs/ext4/extents.c.  Buffered reads:
 * ext4_file_read_iter -> filemap_read, without the inode lock.
 *
 * Variants (--variant ext4_dio=…): base (mainline), patch1 (seed 002
 * 1/2), patch2 (1/2 + 2/2), unsafe-shared (test-only: shared for every
 * non-extending write, to show the corruption the others avoid).
 *
 * Leaves out: the journal (handles, credits), the orphan list (an
 * extending write's crash safety is not modelled), ext4_should_use_dio
 * fallbacks, the whole buffered write path (ext4_buffered_write_iter,
 * delalloc, buffer heads, ext4_writepages), so also the buffered fallback
 * after a short DIO or an -ENOTBLK (a bound failure), atomic writes,
 * iov_iter_alignment of the user buffer (only offset and length count),
 * the extent tree's records (the block map is one state per block).  AIO
 * (libaio's io_submit, model/fs/aio.c) returns -EIOCBQUEUED
 * from iomap_dio_rw and drops i_rwsem with bios in flight; their
 * completion (unwritten conversion, inode_dio_end) runs in a kworker.
 */
#include <string.h>

#include "model/fs/xfs.h"
#include "model/fs/ext4.h"
#include "model/linux/aio.h"
#include "model/linux/syscalls.h"
#include "model/lockdep.h"
#include "model/linux/pagemap.h"
#include "model/world.h"
#include "sim/clock.h"

const char *m_ext4_dio_variant_name(enum m_ext4_dio_variant v)
{
	static const char *const names[] = { "base", "patch1", "patch2",
					      "unsafe-shared" };

	return (unsigned int)v < 4 ? names[v] : "?";
}

/* ---- the direct write's completion --------------------------------------- */

/* ext4_update_i_disksize (fs/ext4/ext4.h, v6.18): raise i_disksize. */
static void ext4_update_i_disksize(struct km_inode *inode, loff_t newsize)
{
	/* KM: WARN_ON_ONCE(!inode_is_locked) omitted; the caller asserts
	 * i_rwsem held exclusive. */
	km_down_write(&inode->i_data_sem);
	if (newsize > (loff_t)sim_word_read(&inode->i_disksize))
		sim_word_write(&inode->i_disksize, (uint64_t)newsize);
	km_up_write(&inode->i_data_sem);
}

/* ext4_update_inode_size (fs/ext4/ext4.h, v6.18): i_size, i_disksize. */
static int ext4_update_inode_size(struct km_inode *inode, loff_t newsize)
{
	int changed = 0;

	if (newsize > km_i_size_read(inode)) {
		km_i_size_write(inode, newsize);
		changed = 1;
	}
	if (newsize > (loff_t)sim_word_read(&inode->i_disksize)) {
		ext4_update_i_disksize(inode, newsize);
		changed |= 2;
	}
	return changed;
}

/**
 * km_ext4_handle_inode_extension - raise the sizes after an extending
 * direct write.
 * Kernel: fs/ext4/file.c ext4_handle_inode_extension, v6.18.
 * Context: i_rwsem held exclusive (lockdep_assert_held_write: asserted).
 * Return: @written.
 * Divergences: no journal handle, so no ext4_mark_inode_dirty and no
 * error from it; no orphan list, so no ext4_orphan_del when @written is
 * @count.
 */
static long km_ext4_handle_inode_extension(struct km_inode *inode,
					   loff_t offset, long written,
					   long count)
{
	m_assert_rwsem_held_write(&inode->i_rwsem);
	ext4_update_inode_size(inode, offset + written);
	/* KM: (written == count && i_nlink): ext4_orphan_del omitted. */
	(void)count;
	return written;
}

/**
 * km_ext4_dio_write_end_io - a direct write's completion: convert the
 * unwritten blocks it wrote, then extend the sizes if it went past
 * either of them.
 * Kernel: fs/ext4/file.c ext4_dio_write_end_io, v6.18.
 * Context: the DIO completion: the writer's task (synchronous DIO, under
 * its i_rwsem) or a kworker (AIO, without it); takes i_data_sem (in
 * ext4_convert_unwritten_extents).
 * Return: 0 or -errno.
 * Divergences: no atomic-write conversion (ext4_convert_unwritten_
 * extents_atomic).  With
 * break=ext4_dio_end_io_warn, the end of the function as it was before
 * 619f75dae2cf "ext4: fix warning in ext4_dio_write_end_io()" (v6.7):
 * WARN_ON_ONCE(i_size < i_disksize), a failure here (syzbot runs with
 * panic_on_warn), and only i_disksize tested before returning
 * (scenarios/history/ext4-dio-end-io-vs-truncate-up.litmus).
 */
static int km_ext4_dio_write_end_io(struct km_inode *inode, loff_t pos,
				    loff_t size, int error, bool unwritten)
{
	if (!error && size && unwritten)
		error = km_ext4_convert_unwritten_extents(inode, pos, size);
	if (error)
		return error;
	if (m_broken(M_BREAK_EXT4_DIO_END_IO_WARN)) {
		loff_t i_size = km_i_size_read(inode);
		loff_t disksize = (loff_t)sim_word_read(&inode->i_disksize);

		if (i_size < disksize)
			sim_fail(SIM_FAIL_ASSERT, "WARNING in "
				 "ext4_dio_write_end_io: "
				 "WARN_ON_ONCE(i_size_read(inode) < "
				 "i_disksize): i_size %lld, i_disksize %lld",
				 (long long)i_size, (long long)disksize);
		if (pos + size <= (loff_t)sim_word_read(&inode->i_disksize))
			return 0;
	} else if (pos + size <=
		   (loff_t)sim_word_read(&inode->i_disksize) &&
		   pos + size <= km_i_size_read(inode)) {
		return 0;
	}
	error = (int)km_ext4_handle_inode_extension(inode, pos, (long)size,
						    (long)size);
	return error < 0 ? error : 0;
}

/* ext4_iomap_ops and ext4_iomap_overwrite_ops, each with
 * ext4_dio_write_ops (fs/ext4/inode.c, fs/ext4/file.c, v6.18). */
const struct m_iomap_dio_fs m_ext4_dio_fs = {
	.name = "ext4",
	.iomap_begin = km_ext4_iomap_begin,	/* model/fs/ext4/inode.c */
	.end_io = km_ext4_dio_write_end_io,
};

const struct m_iomap_dio_fs m_ext4_dio_overwrite_fs = {
	.name = "ext4",
	.iomap_begin = km_ext4_iomap_overwrite_begin,
	.end_io = km_ext4_dio_write_end_io,
};

/* ---- the direct write's checks --------------------------------------- */

/* ext4_unaligned_io: offset or length not a multiple of the block size. */
static bool ext4_unaligned_io(struct km_inode *inode, loff_t pos, size_t len)
{
	loff_t blockmask = ((loff_t)1 << inode->i_blkbits) - 1;

	return ((pos | (loff_t)len) & blockmask) != 0;
}

/* ext4_extending_io: past i_size or past the on-disk i_disksize. */
static bool ext4_extending_io(struct km_inode *inode, loff_t pos, size_t len)
{
	if (pos + (loff_t)len > km_i_size_read(inode))
		return true;
	if (pos + (loff_t)len > (loff_t)sim_word_read(&inode->i_disksize))
		return true;
	return false;
}

/**
 * km_ext4_overwrite_io - is the write a pure overwrite of one extent?
 * Kernel: fs/ext4/file.c ext4_overwrite_io, v6.18 (removed by seed 002
 * 2/2).
 * Return: true if one mapping covers every block of the range; then
 * *unwritten says whether it is unwritten.
 */
bool km_ext4_overwrite_io(struct km_inode *inode, loff_t pos, loff_t len,
			  bool *unwritten)
{
	struct km_ext4_map_blocks map;
	unsigned int blkbits = inode->i_blkbits;
	unsigned int blklen;
	int err;

	if (pos + len > km_i_size_read(inode))
		return false;
	map.m_lblk = (unsigned long)(pos >> blkbits);
	/* EXT4_MAX_BLOCKS(len, pos, blkbits) */
	map.m_len = (unsigned int)(((pos + len + ((loff_t)1 << blkbits) - 1)
				    >> blkbits) - (pos >> blkbits));
	blklen = map.m_len;
	err = km_ext4_map_blocks(inode, &map, 0);
	if (err != (int)blklen)
		return false;
	*unwritten = !(map.m_flags & EXT4_MAP_MAPPED);
	return true;
}

/**
 * km_ext4_dio_needs_zeroing - does an unaligned DIO write need partial
 * block zeroing?
 * Kernel: fs/ext4/file.c, seed 002 patch 2/2 (Baokun Li, 2026), from the
 * patch text in ../shared/seeds/002_cdc48bc5817f773e.txt.
 * Return: true if the write goes past i_size, or its partially covered
 * head or tail block is not a written (mapped) block.  At most two
 * ext4_map_blocks lookups.
 */
bool km_ext4_dio_needs_zeroing(struct km_inode *inode, loff_t pos, loff_t len)
{
	struct km_ext4_map_blocks map;
	unsigned int blkbits = inode->i_blkbits;
	loff_t blockmask = ((loff_t)1 << blkbits) - 1;
	bool head_partial, tail_partial;
	unsigned long head_lblk, tail_lblk;
	int err;

	if (pos + len > km_i_size_read(inode))
		return true;
	head_partial = (pos & blockmask) != 0;
	tail_partial = ((pos + len) & blockmask) != 0;
	head_lblk = (unsigned long)(pos >> blkbits);
	tail_lblk = (unsigned long)((pos + len - 1) >> blkbits);

	/* Check the head partial block. */
	if (head_partial) {
		map.m_lblk = head_lblk;
		map.m_len = (unsigned int)(tail_lblk - head_lblk + 1);
		err = km_ext4_map_blocks(inode, &map, 0);
		if (err <= 0 || !(map.m_flags & EXT4_MAP_MAPPED))
			return true;
		/* If this mapping already covers the tail block, done. */
		if (!tail_partial || map.m_lblk + (unsigned long)err > tail_lblk)
			return false;
	}
	/* Check the tail partial block. */
	if (tail_partial) {
		map.m_lblk = tail_lblk;
		map.m_len = 1;
		err = km_ext4_map_blocks(inode, &map, 0);
		if (err <= 0 || !(map.m_flags & EXT4_MAP_MAPPED))
			return true;
	}
	return false;
}

static void unlock_mode(struct km_inode *inode, bool shared)
{
	if (shared)
		km_inode_unlock_shared(inode);
	else
		km_inode_unlock(inode);
}

/*
 * ext4_generic_write_checks + generic_write_checks: append, size limit.
 * Returns the byte count (0 = nothing to do) or -errno.
 */
static long ext4_generic_write_checks(struct km_kiocb *iocb,
				      struct km_iov_iter *from)
{
	struct km_inode *inode = iocb->ki_filp->f_inode;
	loff_t limit = (loff_t)inode->nr_blocks << inode->i_blkbits;

	if (iocb->ki_flags & IOCB_APPEND)
		iocb->ki_pos = km_i_size_read(inode);
	if (iocb->ki_pos >= limit)
		return -KM_EFBIG;
	if (iocb->ki_pos + (loff_t)from->count > limit)
		from->count = (size_t)(limit - iocb->ki_pos);
	return (long)from->count;
}

/**
 * file_modified - strip privileges and update the timestamps of a file
 * being written.
 * Kernel: fs/inode.c file_modified -> file_modified_flags(file, 0), v6.18.
 * Context: i_rwsem held; may block (the time update can wait on the
 * journal) whatever the iocb's flags: ext4 passes the file, not the
 * kiocb, so IOCB_NOWAIT does not reach it (XFS calls kiocb_modified,
 * which does honour it).
 * Return: 0 (the model's privilege strip and time update cannot fail).
 * Divergences: file_remove_privs is "set S_NOSEC" (the kernel sets it
 * lazily once nothing is left to strip); the time update is one store.
 */
static int file_modified(struct km_file *file)
{
	struct km_inode *inode = file->f_inode;

	if (!(sim_word_read(&inode->i_flags) & S_NOSEC))
		sim_word_write(&inode->i_flags,
			       sim_word_read(&inode->i_flags) | S_NOSEC);
	if (!sim_word_read(&inode->time_needs_update))
		return 0;
	sim_word_write(&inode->time_needs_update, 0);
	return 0;
}

/**
 * ext4_dio_write_checks - settle the lock mode and DIO flags.
 * Kernel: fs/ext4/file.c, v6.18 (base), seed 002 1/2 (patch1), 2/2
 * (patch2); which one is the world's --variant ext4_dio.
 * Context: i_rwsem held in mode *ilock_shared; on error it is released.
 * Return: bytes to write with the lock held, or <= 0 with it released.
 */
static long ext4_dio_write_checks(struct km_kiocb *iocb,
				  struct km_iov_iter *from, bool *ilock_shared,
				  bool *extend, bool *unwritten_out,
				  unsigned int *dio_flags,
				  struct m_ext4_dio_decision *d)
{
	const enum m_ext4_dio_variant variant = m_world()->ext4_dio;
	struct km_inode *inode = iocb->ki_filp->f_inode;
	bool overwrite, unwritten, unaligned_io, needs_zeroing, upgrade;
	loff_t offset;
	size_t count;
	long ret;

restart:
	overwrite = true;
	unwritten = false;
	needs_zeroing = false;
	ret = ext4_generic_write_checks(iocb, from);
	if (ret <= 0)
		goto out;
	offset = iocb->ki_pos;
	count = (size_t)ret;
	unaligned_io = ext4_unaligned_io(inode, offset, count);
	*extend = ext4_extending_io(inode, offset, count);

	switch (variant) {
	case M_EXT4_DIO_BASE:
		overwrite = km_ext4_overwrite_io(inode, offset, (loff_t)count,
						 &unwritten);
		upgrade = *extend || !overwrite || (unaligned_io && unwritten);
		needs_zeroing = unaligned_io && (!overwrite || unwritten);
		break;
	case M_EXT4_DIO_PATCH1:
		if (unaligned_io)
			overwrite = km_ext4_overwrite_io(inode, offset,
							 (loff_t)count,
							 &unwritten);
		upgrade = *extend ||
			  (unaligned_io && (!overwrite || unwritten));
		needs_zeroing = unaligned_io && (!overwrite || unwritten);
		break;
	case M_EXT4_DIO_PATCH2:
		if (unaligned_io)
			needs_zeroing = km_ext4_dio_needs_zeroing(inode, offset,
								  (loff_t)count);
		upgrade = *extend || needs_zeroing;
		break;
	default:	/* unsafe-shared: deliberately wrong */
		upgrade = *extend;
		break;
	}
	if (!(sim_word_read(&inode->i_flags) & S_NOSEC))
		upgrade = true;
	d->needs_zeroing = needs_zeroing;

	/* Determine whether we need to upgrade to an exclusive lock. */
	if (*ilock_shared && upgrade) {
		if (iocb->ki_flags & IOCB_NOWAIT) {
			ret = -KM_EAGAIN;
			goto out;
		}
		km_inode_unlock_shared(inode);
		*ilock_shared = false;
		km_inode_lock(inode);
		d->restarts++;
		goto restart;
	}

	/* Exclusive tail: drain DIO and force a synchronous completion. */
	if (variant == M_EXT4_DIO_PATCH2 || variant == M_EXT4_DIO_UNSAFE) {
		if (!*ilock_shared && (needs_zeroing || *extend)) {
			if (iocb->ki_flags & IOCB_NOWAIT) {
				ret = -KM_EAGAIN;
				goto out;
			}
			if (needs_zeroing) {
				km_inode_dio_wait(inode);
				d->dio_wait = true;
			}
			*dio_flags = IOMAP_DIO_FORCE_WAIT;
		}
	} else if (!*ilock_shared && (unaligned_io || *extend)) {
		if (iocb->ki_flags & IOCB_NOWAIT) {
			ret = -KM_EAGAIN;
			goto out;
		}
		if (unaligned_io && (!overwrite || unwritten)) {
			km_inode_dio_wait(inode);
			d->dio_wait = true;
		}
		*dio_flags = IOMAP_DIO_FORCE_WAIT;
	}

	ret = file_modified(iocb->ki_filp);
	if (ret < 0)
		goto out;
	/* base's *unwritten (ext4_overwrite_io's answer); the seed's tree
	 * keeps it local (its ext4_dio_write_iter has one iomap_ops). */
	*unwritten_out = unwritten;
	return (long)count;
out:
	unlock_mode(inode, *ilock_shared);
	return ret;
}

/**
 * km_ext4_dio_write_iter - an O_DIRECT write to an ext4 file.
 * Kernel: fs/ext4/file.c ext4_dio_write_iter, v6.18 (the lock decision
 * per the world's --variant ext4_dio: seed 002).
 * Context: task; takes i_rwsem (trylock under IOCB_NOWAIT).
 * Return: bytes written or -errno (-EAGAIN under NOWAIT where the write
 * would need the exclusive lock, a lock another holds, or to wait).
 * @decision: filled with what was decided (model instrumentation).
 */
long km_ext4_dio_write_iter(struct km_kiocb *iocb, struct km_iov_iter *from,
			    struct m_ext4_dio_decision *decision)
{
	struct km_inode *inode = iocb->ki_filp->f_inode;
	struct m_ext4_dio_decision scratch;
	struct m_ext4_dio_decision *d = decision ? decision : &scratch;
	const struct m_iomap_dio_fs *iomap_ops = &m_ext4_dio_fs;
	bool ilock_shared = true, extend = false, unwritten = false;
	unsigned int dio_flags = 0;
	long ret;

	memset(d, 0, offsetof(struct m_ext4_dio_decision, writes));
	/* Racy pre-check: a write that looks extending starts exclusive. */
	if (iocb->ki_pos + (loff_t)from->count > km_i_size_read(inode))
		ilock_shared = false;
	if (iocb->ki_flags & IOCB_NOWAIT) {
		if (ilock_shared ? !km_inode_trylock_shared(inode) :
				   !km_inode_trylock(inode))
			return -KM_EAGAIN;
	} else if (ilock_shared) {
		km_inode_lock_shared(inode);
	} else {
		km_inode_lock(inode);
	}
	m_cost_ext4_dio_write();
	ret = ext4_dio_write_checks(iocb, from, &ilock_shared, &extend,
				    &unwritten, &dio_flags, d);
	if (ret <= 0)
		return ret;
	d->issued = true;
	d->shared = ilock_shared;
	d->force_wait = dio_flags & IOMAP_DIO_FORCE_WAIT;
	/* KM: orphan_add for an extending write omitted (no journal). */
	/* v6.18: an overwrite of written blocks under the shared lock maps
	 * with ext4_iomap_overwrite_ops (no allocation, no handle); the
	 * seed's tree removed them (012924f0eeef). */
	if (ilock_shared && !unwritten &&
	    m_world()->ext4_dio == M_EXT4_DIO_BASE)
		iomap_ops = &m_ext4_dio_overwrite_fs;
	ret = km_iomap_dio_rw(iocb, from, iomap_ops, dio_flags, d);
	if (ret == -KM_ENOTBLK)	/* ext4_dio_write_iter: buffered fallback */
		sim_fail(SIM_FAIL_BOUND, "ext4 O_DIRECT write at %lld: the "
			 "page cache could not be invalidated (-ENOTBLK), "
			 "and ext4's buffered fallback "
			 "(ext4_buffered_write_iter) is not modelled",
			 (long long)iocb->ki_pos);
	unlock_mode(inode, ilock_shared);
	return ret;
}

/* ext4_iomap_ops for a direct read: the lookup, no allocation. */
static const struct m_iomap_dio_fs ext4_dio_read_fs = {
	.name = "ext4",
	.iomap_begin = km_ext4_iomap_begin,	/* model/fs/ext4/inode.c */
	.end_io = NULL,
};

/**
 * km_ext4_dio_read_iter - an O_DIRECT read of an ext4 file.
 * Kernel: fs/ext4/file.c ext4_dio_read_iter, v6.18: i_rwsem shared
 * (trylock under IOCB_NOWAIT: -EAGAIN), ext4_should_use_dio (else
 * IOCB_DIRECT is cleared and the read is buffered), iomap_dio_rw with
 * ext4_iomap_ops and no dio ops, unlock, file_accessed.
 * Context: takes i_rwsem shared for the submission.
 * Return: bytes read (up to i_size), -EIOCBQUEUED, or -errno.
 * Divergences: ext4_should_use_dio is always true (ext4_dio_alignment is
 * 1 for a file without verity, data journalling, inline data or
 * encryption: the model's files have none); no atime.
 */
long km_ext4_dio_read_iter(struct km_kiocb *iocb, size_t count, uint32_t *out)
{
	struct km_inode *inode = iocb->ki_filp->f_inode;
	struct km_iov_iter to = { .count = count, .out = out };
	long ret;

	if (iocb->ki_flags & IOCB_NOWAIT) {
		if (!km_inode_trylock_shared(inode))
			return -KM_EAGAIN;
	} else {
		km_inode_lock_shared(inode);
	}
	ret = km_iomap_dio_rw(iocb, &to, &ext4_dio_read_fs, 0, NULL);
	km_inode_unlock_shared(inode);
	return ret;
}

/**
 * km_ext4_file_read_iter - a read of an ext4 file.
 * Kernel: fs/ext4/file.c ext4_file_read_iter, v6.18: IOCB_DIRECT goes to
 * ext4_dio_read_iter; else generic_file_read_iter -> filemap_read, with
 * no inode lock (unlike XFS's shared IOLOCK).
 * Return: bytes read, -EIOCBQUEUED (an asynchronous direct read), or
 * -errno.
 * Divergences: the folio is read through the model's iomap read path
 * (ext4's ->read_folio is ext4_read_folio, mpage over buffer heads, not
 * iomap); the page-cache steps (create, lock, read, uptodate) are the
 * same.  No DAX, no shutdown check.  A buffered IOCB_NOWAIT (RWF_NOWAIT)
 * read takes no lock here, so only the page cache can answer -EAGAIN
 * (filemap_read).
 */
long km_ext4_file_read_iter(struct km_kiocb *iocb, size_t count,
			    uint32_t *out)
{
	if (iocb->ki_flags & IOCB_DIRECT)
		return km_ext4_dio_read_iter(iocb, count, out);
	return km_filemap_read(iocb, count, out);
}

/*
 * The superblock's atomic write unit (fs/ext4/super.c
 * ext4_atomic_write_init, v6.18): none unless the device can write
 * atomically; min the larger of the block and the device's unit min,
 * max the smaller of the cluster and the device's unit max; none when
 * min > max.  KM: computed at each use from setup-time limits (the
 * kernel's s_awu_min/max are set at mount); extents are always on, no
 * bigalloc (the cluster is the block).
 */
static void ext4_atomic_write_unit(const struct km_inode *inode,
				   unsigned int *awu_min,
				   unsigned int *awu_max)
{
	const struct km_queue_limits *lim = &m_world()->dev.limits;
	unsigned int blocksize = 1u << inode->i_blkbits;
	unsigned int clustersize = blocksize;

	*awu_min = 0;
	*awu_max = 0;
	if (!km_bdev_can_atomic_write(lim))
		return;
	*awu_min = blocksize > lim->atomic_write_unit_min ?
		   blocksize : lim->atomic_write_unit_min;
	*awu_max = clustersize < lim->atomic_write_unit_max ?
		   clustersize : lim->atomic_write_unit_max;
	if (!*awu_min || !*awu_max || *awu_min > *awu_max) {
		*awu_min = 0;
		*awu_max = 0;
	}
}

/**
 * km_ext4_file_open - open(2) of an ext4 file: its f_mode.
 * Kernel: fs/ext4/file.c ext4_file_open, v6.18
 * (ext4_inode_can_atomic_write: a regular extent file on a filesystem
 * with an atomic unit).
 * Context: any; no shared access.
 * Return: 0.
 * Divergences: only FMODE_CAN_ATOMIC_WRITE is kept; no quota, fscrypt,
 * verity or DAX steps.
 */
int km_ext4_file_open(struct km_inode *inode, struct km_file *file)
{
	unsigned int awu_min, awu_max;

	ext4_atomic_write_unit(inode, &awu_min, &awu_max);
	if (awu_min > 0)
		file->f_mode |= FMODE_CAN_ATOMIC_WRITE;
	return 0;
}

/**
 * km_ext4_file_write_iter - a write to an ext4 file.
 * Kernel: fs/ext4/file.c ext4_file_write_iter, v6.18: IOCB_DIRECT goes
 * to ext4_dio_write_iter; the rest to ext4_buffered_write_iter.
 * Context: task.
 * Return: bytes written or -errno.
 * An RWF_ATOMIC write outside [s_awu_min, s_awu_max] is -EINVAL, then
 * generic_atomic_write_valid's rules apply.
 * Divergences: the buffered write path is not modelled (a model bound,
 * m_vfs_not_modelled); no shutdown or DAX checks.  Counts
 * the write in the caller's
 * decision record (@from->decision->writes), if any.
 */
long km_ext4_file_write_iter(struct km_kiocb *iocb, struct km_iov_iter *from)
{
	if (iocb->ki_flags & IOCB_ATOMIC) {
		size_t len = from->count;
		unsigned int awu_min, awu_max;
		int ret;

		ext4_atomic_write_unit(iocb->ki_filp->f_inode, &awu_min,
				       &awu_max);
		if (len < awu_min || len > awu_max)
			return -KM_EINVAL;
		ret = km_generic_atomic_write_valid(iocb, from);
		if (ret)
			return ret;
	}
	if (!(iocb->ki_flags & IOCB_DIRECT))
		return m_vfs_not_modelled("ext4", "write_iter (buffered)");
	if (from->decision)
		from->decision->writes++;
	return km_ext4_dio_write_iter(iocb, from, from->decision);
}

/*
 * ext4_file_operations and ext4_file_inode_operations (fs/ext4/file.c,
 * v6.18), as far as the model has them: O_DIRECT writes and buffered
 * reads, and truncate (ext4_setattr's size change, model/fs/ext4/inode.c).
 * fsync (ext4_sync_file: the journal) and fallocate (ext4_fallocate) are
 * not modelled: NULL, a model bound in the syscall layer.
 */
const struct km_file_operations km_ext4_file_operations = {
	.name = "ext4",
	.fop_flags = FOP_DONTCACHE,
	.write_iter = km_ext4_file_write_iter,
	.read_iter = km_ext4_file_read_iter,
	.open = km_ext4_file_open,
};

const struct km_inode_operations km_ext4_inode_operations = {
	.name = "ext4",
	.setattr_size = km_ext4_setattr,
};

/* ---- Entries of the ext4 tests (model glue) ---------------------------- */

/* preadv2 and pread on an ext4 file: the syscall layer's rows. */
long m_ext4_preadv2(struct km_file *file, loff_t pos, size_t len,
		    unsigned int rwf, uint32_t *out)
{
	return m_preadv2(file, pos, len, rwf, out);
}

long m_ext4_pread(struct km_file *file, loff_t pos, size_t len,
		  uint32_t *out)
{
	return m_pread(file, pos, len, out);
}

/*
 * The ext4 O_DIRECT entries of the DIO tests and `wpsim ext4-nowait`,
 * which build a world without per-file filesystems: pwritev2 (and
 * io_submit) on @file as ext4 O_DIRECT whatever its f_op and open flags.
 * The kiocb is built as km_vfs_writev / km_aio_write build it.
 */
long m_ext4_pwritev2_direct(struct km_file *file, loff_t pos, size_t len,
			    unsigned int rwf, uint32_t data_id,
			    struct m_ext4_dio_decision *decision)
{
	struct km_kiocb iocb;
	struct km_iov_iter from = { .count = len, .data_id = data_id };
	long ret;

	m_syscall_enter();
	km_init_sync_kiocb(&iocb, file);
	iocb.ki_flags |= IOCB_DIRECT;
	iocb.ki_pos = pos;
	ret = km_kiocb_set_rw_flags(&iocb, rwf, KM_WRITE);
	if (!ret)
		ret = km_ext4_dio_write_iter(&iocb, &from, decision);
	m_syscall_exit();
	return ret;
}

long m_aio_ext4_pwritev2_direct(struct m_aio_req *req, struct km_file *file,
				loff_t pos, size_t len, unsigned int rwf,
				uint32_t data_id)
{
	struct sim_completion *ring = req->ring;
	long ret;

	m_syscall_enter();
	memset(req, 0, sizeof(*req));
	req->ring = ring;
	sim_completion_init(&req->done, "aio.done");
	km_init_sync_kiocb(&req->iocb, file);
	req->iocb.ki_flags |= IOCB_DIRECT;
	req->iocb.ki_complete = km_aio_complete_rw;
	req->iocb.private = req;
	req->iocb.ki_pos = pos;
	req->from = (struct km_iov_iter){ .count = len, .data_id = data_id };
	ret = km_kiocb_set_rw_flags(&req->iocb, rwf, KM_WRITE);
	if (!ret)
		ret = km_ext4_dio_write_iter(&req->iocb, &req->from, NULL);
	req->queued = ret == -KM_EIOCBQUEUED;
	if (!req->queued)
		req->res = ret;
	m_syscall_exit();
	return ret;
}
