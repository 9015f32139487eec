// SPDX-License-Identifier: MIT
/*
 * model/fs/read_write.c - the read and write syscalls' VFS half:
 * pwrite64 and pread64 (ksys_pwrite64 -> vfs_write -> new_sync_write,
 * ksys_pread64 -> vfs_read -> new_sync_read), pwritev2 and preadv2
 * (do_pwritev -> vfs_writev, do_preadv -> vfs_readv, both through
 * do_iter_readv_writev), and the kiocb they build (include/linux/fs.h
 * init_sync_kiocb with iocb_flags, kiocb_set_rw_flags with seed 000's
 * RWF_WRITETHROUGH and RWF_NOSERIAL).  The filesystem is reached through
 * file->f_op (struct km_file_operations: XFS or ext4).
 *
 * Models fs/read_write.c and include/linux/fs.h of v6.18.
 *
 * Leaves out: file descriptors (a struct km_file stands for the fd, so
 * no -EBADF and no fdget), f_mode (every model file is open for reading
 * and writing: no FMODE_READ/WRITE/PREAD/PWRITE/CAN_* checks), ->read
 * and ->write (both filesystems have only the _iter entries), user
 * buffers (access_ok, import_iovec: the data is the model's content id,
 * one segment), MAX_RW_COUNT (the model's writes are far below it),
 * file_start_write/file_end_write (no freezing), fsnotify and the task
 * I/O accounting (add_rchar, inc_syscw), security hooks, mandatory
 * locks, FMODE_NOWAIT (both filesystems set it).  RWF_ATOMIC is checked
 * here (kiocb_set_rw_flags, generic_atomic_write_valid), its limits by
 * the filesystem and the block layer (docs/model/atomic-write.md).
 */
#include "model/linux/syscalls.h"
#include "model/world.h"
#include "sim/engine.h"

/**
 * km_init_sync_kiocb - a kiocb for a synchronous read or write on @filp.
 * Kernel: include/linux/fs.h init_sync_kiocb and iocb_flags, v6.18.
 * Context: any; no scheduling point.
 * Return: none (*@kiocb filled).
 * Divergences: the flags come from the model's open flags (O_APPEND,
 * O_DIRECT, O_DSYNC, O_SYNC); no ioprio, no write stream.
 */
void km_init_sync_kiocb(struct km_kiocb *kiocb, struct km_file *filp)
{
	unsigned int res = 0;

	if (filp->f_flags & KM_O_APPEND)
		res |= IOCB_APPEND;
	if (filp->f_flags & KM_O_DIRECT)
		res |= IOCB_DIRECT;
	if (filp->f_flags & KM_O_DSYNC)
		res |= IOCB_DSYNC;
	if (filp->f_flags & KM_O_SYNC)
		res |= IOCB_SYNC | IOCB_DSYNC;
	*kiocb = (struct km_kiocb){ .ki_filp = filp, .ki_flags = res };
}

/**
 * km_kiocb_set_rw_flags - RWF_* of pwritev2/preadv2/io_submit into the
 * kiocb's IOCB_* flags.
 * Kernel: include/linux/fs.h kiocb_set_rw_flags, v6.18 (an inline there,
 * defined here beside its callers), with seed 000's flags: RWF_WRITETHROUGH
 * sets IOCB_WRITETHROUGH (v1 5.1) and, in v3, also IOCB_NOSERIAL ("we
 * auto apply NOSERIAL for writethrough and disallow users to pass it",
 * cover letter change 2; the errno, -EINVAL, is inferred).  v2 does not
 * know RWF_NOSERIAL (-EOPNOTSUPP, outside RWF_SUPPORTED).
 * RWF_WRITETHROUGH with RWF_DONTCACHE is -EINVAL, as in v1; NOWAIT is let
 * through (the AIO patch, 6/11).
 * Context: any; no scheduling point.
 * Return: 0, or -EOPNOTSUPP / -EINVAL.
 * RWF_ATOMIC is -EOPNOTSUPP on a read or on a file opened without
 * FMODE_CAN_ATOMIC_WRITE, else IOCB_ATOMIC.
 * Divergences: IOCB_WRITE is set here for a write (the kernel's callers
 * set it: init_kiocb, aio_prep_rw); RWF_NOSERIAL is refused before the
 * other checks; no FMODE_NOWAIT or DAX checks (every file of the model
 * supports NOWAIT; FOP_DONTCACHE is checked: XFS and ext4 set it, the
 * block device's def_blk_fops does not, -EOPNOTSUPP); RWF_NOAPPEND
 * is not modelled (the front ends refuse it).
 */
int km_kiocb_set_rw_flags(struct km_kiocb *ki, unsigned int flags,
			  int rw_type)
{
	if (rw_type == KM_WRITE)
		ki->ki_flags |= IOCB_WRITE;
	if (!flags)
		return 0;
	if (flags & RWF_NOSERIAL)
		return m_world()->writethrough == M_WT_V2 ? -KM_EOPNOTSUPP :
							    -KM_EINVAL;
	if ((flags & RWF_APPEND) && (flags & RWF_NOAPPEND))
		return -KM_EINVAL;
	if (flags & RWF_ATOMIC) {
		if (rw_type != KM_WRITE)
			return -KM_EOPNOTSUPP;
		if (!(ki->ki_filp->f_mode & FMODE_CAN_ATOMIC_WRITE))
			return -KM_EOPNOTSUPP;
		ki->ki_flags |= IOCB_ATOMIC;
	}
	if (flags & RWF_HIPRI)
		ki->ki_flags |= IOCB_HIPRI;
	if (flags & RWF_DSYNC)
		ki->ki_flags |= IOCB_DSYNC;
	if (flags & RWF_SYNC)
		ki->ki_flags |= IOCB_DSYNC | IOCB_SYNC;
	if (flags & RWF_NOWAIT)
		ki->ki_flags |= IOCB_NOWAIT;
	if (flags & RWF_APPEND)
		ki->ki_flags |= IOCB_APPEND;
	if (flags & RWF_DONTCACHE) {
		/* The file's f_op must support it (the block device's
		 * def_blk_fops does not). */
		if (!(ki->ki_filp->f_op->fop_flags & FOP_DONTCACHE))
			return -KM_EOPNOTSUPP;
		ki->ki_flags |= IOCB_DONTCACHE;
	}
	if (flags & RWF_WRITETHROUGH) {
		/* break=writethrough_dontcache_mix takes the refusal out. */
		if ((flags & RWF_DONTCACHE) &&
		    !m_broken(M_BREAK_WRITETHROUGH_DONTCACHE_MIX))
			return -KM_EINVAL;
		ki->ki_flags |= IOCB_WRITETHROUGH;
		if (m_world()->writethrough != M_WT_V2)
			ki->ki_flags |= IOCB_NOSERIAL;
	}
	return 0;
}

static bool is_power_of_2(size_t n)
{
	return n && !(n & (n - 1));
}

/**
 * km_generic_atomic_write_valid - the VFS's rules for an RWF_ATOMIC write.
 * Kernel: fs/read_write.c generic_atomic_write_valid, v6.18.
 * Context: any; no scheduling point.
 * Return: 0; -EINVAL for more than one segment (not ITER_UBUF), a length
 * not a power of two, a position not aligned to the length;
 * -EOPNOTSUPP without IOCB_DIRECT (the checks in this order: a buffered
 * write of two iovecs is -EINVAL, measured on 6.18.44).
 */
int km_generic_atomic_write_valid(struct km_kiocb *iocb,
				  struct km_iov_iter *iter)
{
	size_t len = iter->count;

	if (iter->nr_segs > 1)
		return -KM_EINVAL;
	if (!is_power_of_2(len))
		return -KM_EINVAL;
	if ((uint64_t)iocb->ki_pos & (len - 1))
		return -KM_EINVAL;
	if (!(iocb->ki_flags & IOCB_DIRECT))
		return -KM_EOPNOTSUPP;
	return 0;
}

long m_vfs_not_modelled(const char *fs, const char *op)
{
	sim_fail(SIM_FAIL_BOUND, "%s on %s is not modelled (the model's %s "
		 "has no ->%s)", op, fs, fs, op);
	return -KM_EOPNOTSUPP;
}

/*
 * rw_verify_area (fs/read_write.c, v6.18): a negative position, or one
 * whose end overflows, is -EINVAL.  No locks or security hooks here.
 */
static int rw_verify_area(loff_t *ppos, size_t count)
{
	loff_t pos = *ppos;

	if (pos < 0)
		return -KM_EINVAL;
	/* The kernel's (loff_t)(pos + count) < 0: an unsigned sum (a
	 * signed one that overflows is undefined, and the compiler drops
	 * the test). */
	if ((loff_t)count < 0 || (loff_t)((uint64_t)pos + count) < 0)
		return -KM_EINVAL;
	return 0;
}

/* new_sync_write: the kiocb, ->write_iter; never -EIOCBQUEUED. */
static long new_sync_write(struct km_file *filp, struct km_iov_iter *from,
			   loff_t *ppos)
{
	struct km_kiocb kiocb;
	long ret;

	km_init_sync_kiocb(&kiocb, filp);
	kiocb.ki_flags |= IOCB_WRITE;
	kiocb.ki_pos = *ppos;
	ret = filp->f_op->write_iter(&kiocb, from);
	SIM_ASSERT_MSG(ret != -KM_EIOCBQUEUED, "a synchronous write was "
		       "queued");
	if (ret > 0)
		*ppos = kiocb.ki_pos;
	return ret;
}

/**
 * km_vfs_write - write @from at *@pos through the file's ->write_iter.
 * Kernel: fs/read_write.c vfs_write -> new_sync_write, v6.18.
 * Context: task; the filesystem takes its locks.
 * Return: bytes written or -errno; *@pos advanced by what was written.
 * Divergences: see the file's "Leaves out" (no fd, f_mode, ->write,
 * MAX_RW_COUNT, freeze or fsnotify).  A filesystem without ->write_iter
 * in the model is a model bound (m_vfs_not_modelled), not -EINVAL.
 */
long km_vfs_write(struct km_file *file, struct km_iov_iter *from,
		  loff_t *pos)
{
	long ret;

	ret = rw_verify_area(pos, from->count);
	if (ret)
		return ret;
	if (!file->f_op->write_iter)
		return m_vfs_not_modelled(file->f_op->name, "write_iter");
	return new_sync_write(file, from, pos);
}

/**
 * km_vfs_read - read @count bytes at *@pos into @out (a sector each)
 * through the file's ->read_iter.
 * Kernel: fs/read_write.c vfs_read -> new_sync_read, v6.18.
 * Context: task; the filesystem takes its locks.
 * Return: bytes read or -errno; *@pos advanced.
 * Divergences: as km_vfs_write.
 */
long km_vfs_read(struct km_file *file, size_t count, uint32_t *out,
		 loff_t *pos)
{
	struct km_kiocb kiocb;
	long ret;

	ret = rw_verify_area(pos, count);
	if (ret)
		return ret;
	if (!file->f_op->read_iter)
		return m_vfs_not_modelled(file->f_op->name, "read_iter");
	/* new_sync_read */
	km_init_sync_kiocb(&kiocb, file);
	kiocb.ki_pos = *pos;
	ret = file->f_op->read_iter(&kiocb, count, out);
	SIM_ASSERT_MSG(ret != -KM_EIOCBQUEUED, "a synchronous read was "
		       "queued");
	if (ret > 0)
		*pos = kiocb.ki_pos;
	return ret;
}

/*
 * do_iter_readv_writev for a write: a sync kiocb, kiocb_set_rw_flags,
 * ->write_iter.
 */
static long do_iter_writev(struct km_file *filp, struct km_iov_iter *iter,
			   loff_t *ppos, unsigned int flags)
{
	struct km_kiocb kiocb;
	long ret;

	km_init_sync_kiocb(&kiocb, filp);
	ret = km_kiocb_set_rw_flags(&kiocb, flags, KM_WRITE);
	if (ret)
		return ret;
	kiocb.ki_pos = *ppos;
	ret = filp->f_op->write_iter(&kiocb, iter);
	SIM_ASSERT_MSG(ret != -KM_EIOCBQUEUED, "a synchronous write was "
		       "queued");
	*ppos = kiocb.ki_pos;
	return ret;
}

/**
 * km_vfs_writev - pwritev2's write of @from at *@pos with RWF @flags.
 * Kernel: fs/read_write.c vfs_writev -> do_iter_readv_writev, v6.18.
 * Context: task.
 * Return: bytes written, 0 for an empty write (->write_iter is not
 * called), or -errno.
 * Divergences: one segment, no import_iovec; as km_vfs_write.
 */
long km_vfs_writev(struct km_file *file, struct km_iov_iter *from,
		   loff_t *pos, unsigned int flags)
{
	size_t tot_len = from->count;
	long ret;

	if (!tot_len)
		return 0;
	ret = rw_verify_area(pos, tot_len);
	if (ret < 0)
		return ret;
	if (!file->f_op->write_iter)
		return m_vfs_not_modelled(file->f_op->name, "write_iter");
	return do_iter_writev(file, from, pos, flags);
}

/**
 * km_vfs_readv - preadv2's read of @count bytes at *@pos with @flags.
 * Kernel: fs/read_write.c vfs_readv -> do_iter_readv_writev, v6.18.
 * Context: task.
 * Return: bytes read, 0 for an empty read (->read_iter is not called),
 * or -errno.
 * Divergences: as km_vfs_writev; the read paths act on IOCB_NOWAIT only.
 */
long km_vfs_readv(struct km_file *file, size_t count, uint32_t *out,
		  loff_t *pos, unsigned int flags)
{
	struct km_kiocb kiocb;
	long ret;

	if (!count)
		return 0;
	ret = rw_verify_area(pos, count);
	if (ret < 0)
		return ret;
	if (!file->f_op->read_iter)
		return m_vfs_not_modelled(file->f_op->name, "read_iter");
	/* do_iter_readv_writev, READ */
	km_init_sync_kiocb(&kiocb, file);
	ret = km_kiocb_set_rw_flags(&kiocb, flags, KM_READ);
	if (ret)
		return ret;
	kiocb.ki_pos = *pos;
	ret = file->f_op->read_iter(&kiocb, count, out);
	SIM_ASSERT_MSG(ret != -KM_EIOCBQUEUED, "a synchronous read was "
		       "queued");
	*pos = kiocb.ki_pos;
	return ret;
}

/**
 * km_ksys_pwrite64 - pwrite64(2) of @from at @pos.
 * Kernel: fs/read_write.c ksys_pwrite64, v6.18.
 * Context: task (the entry cost is m_syscall's).
 * Return: bytes written or -errno (-EINVAL for a negative @pos).
 * Divergences: the file stands for the fd (no -EBADF, -ESPIPE).
 */
long km_ksys_pwrite64(struct km_file *file, struct km_iov_iter *from,
		      loff_t pos)
{
	if (pos < 0)
		return -KM_EINVAL;
	return km_vfs_write(file, from, &pos);
}

/**
 * km_ksys_pread64 - pread64(2) of @count bytes at @pos into @out.
 * Kernel: fs/read_write.c ksys_pread64, v6.18.
 * Context: task.
 * Return: bytes read or -errno.
 * Divergences: as km_ksys_pwrite64.
 */
long km_ksys_pread64(struct km_file *file, size_t count, uint32_t *out,
		     loff_t pos)
{
	if (pos < 0)
		return -KM_EINVAL;
	return km_vfs_read(file, count, out, &pos);
}

/**
 * km_do_pwritev - pwritev2(2) of one segment at @pos with RWF @flags.
 * Kernel: fs/read_write.c do_pwritev (pwritev2 with pos != -1), v6.18.
 * Context: task.
 * Return: bytes written or -errno.
 * Divergences: as km_ksys_pwrite64; no add_wchar/inc_syscw.
 */
long km_do_pwritev(struct km_file *file, struct km_iov_iter *from,
		   loff_t pos, unsigned int flags)
{
	if (pos < 0)
		return -KM_EINVAL;
	return km_vfs_writev(file, from, &pos, flags);
}

/**
 * km_do_preadv - preadv2(2) of one segment at @pos with RWF @flags.
 * Kernel: fs/read_write.c do_preadv, v6.18.
 * Context: task.
 * Return: bytes read or -errno.
 * Divergences: as km_do_pwritev.
 */
long km_do_preadv(struct km_file *file, size_t count, uint32_t *out,
		  loff_t pos, unsigned int flags)
{
	if (pos < 0)
		return -KM_EINVAL;
	return km_vfs_readv(file, count, out, &pos, flags);
}
