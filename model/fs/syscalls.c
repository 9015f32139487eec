// SPDX-License-Identifier: MIT
/*
 * model/fs/syscalls.c - the model's syscall table and its one dispatcher
 * (model glue, m_ names): the file syscalls every front end issues, each
 * row a kernel syscall body (model/fs/read_write.c, sync.c, open.c,
 * ioctl.c, aio.c; mm/memory.c for munmap) taking its arguments from struct
 * m_sys_args.  m_syscall() charges the syscall entry (m_syscall_enter,
 * the one place the model charges it), calls the row and marks the
 * return to user space (m_syscall_exit: where preempt=none honours a
 * reschedule).
 *
 * Stands for the kernel's syscall table (arch/x86/entry/syscalls/
 * syscall_64.tbl) and its dispatch (x64_sys_call), v6.18.
 *
 * Leaves out: file descriptors (the caller names the struct km_file),
 * user memory, signals and restarts.  Rows marked "entry only" (lseek,
 * mmap, io_getevents) touch no state the model keeps (f_pos, a VMA
 * before its first fault, the event ring the caller waits on with
 * m_aio_wait): they cost the entry and return 0.  open, dup and close
 * count the inode's open file references (i_openers, model/fs/namei.c)
 * without a scheduling point; close puts the last one (iput).
 */
#include <string.h>

#include "model/linux/mm.h"
#include "model/linux/syscalls.h"
#include "model/world.h"
#include "sim/clock.h"

void m_syscall_enter(void)
{
	m_cost_syscall();
}

/**
 * m_syscall_exit - the syscall returns to user space: a point where a
 * pending reschedule is honoured.
 * Kernel: kernel/entry/common.c exit_to_user_mode_loop (schedule() when
 * _TIF_NEED_RESCHED or _TIF_NEED_RESCHED_LAZY is set), v6.18; under
 * preempt=none (kernel/sched/core.c: preempt_schedule and
 * irqentry_exit_cond_resched are NOPs) this and cond_resched() are where
 * a task in kernel code gives its CPU to a task whose wake-up marked it.
 * Context: task, at the end of its syscall.
 * Return: none.
 * Divergences: no cost (the exit's is in syscall_ns) and no scheduling
 * point of its own: the task's next point (in user space the model has
 * none: its next syscall's first, or a wait) is the one marked
 * (sim_preempt_point; used only under the CPU profile's
 * wake_preempt_mode 1, docs/timed-mode.md "Wake-up preemption").
 */
void m_syscall_exit(void)
{
	sim_preempt_point();
}

static struct km_iov_iter iov_of(const struct m_sys_args *a)
{
	return (struct km_iov_iter){ .count = a->len, .data_id = a->data_id,
				     .fault_after = a->fault_after,
				     .decision = a->decision };
}

static long sys_pwrite64(const struct m_sys_args *a)
{
	struct km_iov_iter from = iov_of(a);

	return km_ksys_pwrite64(a->file, &from, a->pos);
}

static long sys_pwritev2(const struct m_sys_args *a)
{
	struct km_iov_iter from = iov_of(a);

	from.nr_segs = a->nr_segs;

	return km_do_pwritev(a->file, &from, a->pos, a->flags);
}

static long sys_pread64(const struct m_sys_args *a)
{
	return km_ksys_pread64(a->file, a->len, a->out, a->pos);
}

static long sys_preadv2(const struct m_sys_args *a)
{
	return km_do_preadv(a->file, a->len, a->out, a->pos, a->flags);
}

static long sys_fsync(const struct m_sys_args *a)
{
	return km_do_fsync(a->file, 0);
}

static long sys_fdatasync(const struct m_sys_args *a)
{
	return km_do_fsync(a->file, 1);
}

static long sys_syncfs(const struct m_sys_args *a)
{
	return km_sys_syncfs(a->file);
}

static long sys_sync_file_range(const struct m_sys_args *a)
{
	return km_ksys_sync_file_range(a->file, a->pos, (loff_t)a->len,
				       a->flags);
}

static long sys_ftruncate(const struct m_sys_args *a)
{
	return km_do_sys_ftruncate(a->file, a->pos);
}

static long sys_fallocate(const struct m_sys_args *a)
{
	return km_ksys_fallocate(a->file, (int)a->flags, a->pos,
				 (loff_t)a->len);
}

/*
 * io_submit of one iocb: io_submit_one -> __io_submit_one's opcode
 * switch; the model's opcode is the buffer: @out is IOCB_CMD_PREAD's
 * destination, else the iocb is IOCB_CMD_PWRITE.
 */
static long sys_io_submit(const struct m_sys_args *a)
{
	struct km_iov_iter from = iov_of(a);

	if (a->out)
		return km_aio_read(a->aio, a->file, a->pos, a->len, a->out,
				   a->flags);
	return km_aio_write(a->aio, a->file, a->pos, &from, a->flags);
}

static long sys_munmap(const struct m_sys_args *a)
{
	m_munmap(a->file);
	return 0;
}

/*
 * open(2) of a file the world holds: with @opened, a new description of
 * its inode (do_dentry_open: f_op from i_fop, wb_err sampled; the old
 * one is not closed: XFS and ext4 have no ->flush); with O_TRUNC,
 * handle_truncate (fs/namei.c) -> do_truncate to 0.  Divergence: the
 * truncate is skipped when i_size is already 0 (XFS's xfs_setattr_size
 * does nothing then for a file without extents, m_xfs_setattr_size;
 * one with blocks past EOF, and ext4's, would run the truncate).
 */
static long sys_open(const struct m_sys_args *a)
{
	struct km_file *file = a->file;
	struct km_inode *inode = file->f_inode;

	if (a->opened)
		*a->opened = file = m_file_open(file->f_inode, a->flags &
						~(KM_O_TRUNC | KM_O_CREAT));
	/* O_CREAT of an evicted inode: a new inode (lookup_open ->
	 * vfs_create); the model makes the same one anew. */
	if ((a->flags & KM_O_CREAT) && inode->i_evicted) {
		inode->i_evicted = false;
		inode->i_nlink = 1;
		inode->i_xfs_diflag_prealloc = false;
	} else if (!inode->i_nlink && !inode->i_openers) {
		return -KM_ENOENT;
	}
	inode->i_openers++;
	if ((a->flags & KM_O_TRUNC) && sim_word_read(&file->f_inode->i_size))
		return km_do_truncate(file, 0);
	return 0;
}

/* dup: another reference to the open file (get_file). */
static long sys_dup(const struct m_sys_args *a)
{
	a->file->f_inode->i_openers++;
	return 0;
}

static long sys_close(const struct m_sys_args *a)
{
	return km_filp_close(a->file);
}

static long sys_unlink(const struct m_sys_args *a)
{
	return km_do_unlinkat(a->file->f_inode);
}

static long sys_rename(const struct m_sys_args *a)
{
	return km_do_renameat2(a->file->f_inode, a->target ?
			       a->target->f_inode : NULL);
}

static long sys_fadvise64(const struct m_sys_args *a)
{
	return km_ksys_fadvise64_64(a->file, a->pos, (loff_t)a->len,
				    (int)a->flags);
}

/*
 * ioctl(2): SYSCALL_DEFINE3(ioctl) -> do_vfs_ioctl, whose generic
 * commands are none of the model's, -> vfs_ioctl (model/fs/ioctl.c).
 * The command is @flags; its user memory @arg, or {@pos, @len}.
 */
static long sys_ioctl(const struct m_sys_args *a)
{
	uint64_t range[2] = { (uint64_t)a->pos, (uint64_t)a->len };

	return km_vfs_ioctl(a->file, a->flags, a->arg ? a->arg : range);
}

static long sys_entry_only(const struct m_sys_args *a)
{
	(void)a;
	return 0;
}

static const struct {
	const char *name;
	long (*fn)(const struct m_sys_args *a);
} sys_call_table[M_SYS_COUNT] = {
	[M_SYS_PWRITE64] = { "pwrite64", sys_pwrite64 },
	[M_SYS_PWRITEV2] = { "pwritev2", sys_pwritev2 },
	[M_SYS_PREAD64] = { "pread64", sys_pread64 },
	[M_SYS_PREADV2] = { "preadv2", sys_preadv2 },
	[M_SYS_FSYNC] = { "fsync", sys_fsync },
	[M_SYS_FDATASYNC] = { "fdatasync", sys_fdatasync },
	[M_SYS_SYNC_FILE_RANGE] = { "sync_file_range", sys_sync_file_range },
	[M_SYS_FTRUNCATE] = { "ftruncate", sys_ftruncate },
	[M_SYS_FALLOCATE] = { "fallocate", sys_fallocate },
	[M_SYS_IO_SUBMIT] = { "io_submit", sys_io_submit },
	[M_SYS_IO_GETEVENTS] = { "io_getevents", sys_entry_only },
	[M_SYS_MUNMAP] = { "munmap", sys_munmap },
	[M_SYS_OPEN] = { "openat", sys_open },
	[M_SYS_CLOSE] = { "close", sys_close },
	[M_SYS_DUP] = { "dup", sys_dup },
	[M_SYS_LSEEK] = { "lseek", sys_entry_only },
	[M_SYS_MMAP] = { "mmap", sys_entry_only },
	[M_SYS_UNLINK] = { "unlink", sys_unlink },
	[M_SYS_RENAME] = { "rename", sys_rename },
	[M_SYS_FADVISE64] = { "fadvise64", sys_fadvise64 },
	[M_SYS_IOCTL] = { "ioctl", sys_ioctl },
	[M_SYS_SYNCFS] = { "syncfs", sys_syncfs },
};

const char *m_syscall_name(enum m_sys nr)
{
	return (unsigned int)nr < M_SYS_COUNT && sys_call_table[nr].name ?
	       sys_call_table[nr].name : "?";
}

int m_syscall_find(const char *name)
{
	for (int i = 0; i < M_SYS_COUNT; i++)
		if (sys_call_table[i].name &&
		    strcmp(sys_call_table[i].name, name) == 0)
			return i;
	return -1;
}

long m_syscall(enum m_sys nr, const struct m_sys_args *args)
{
	SIM_ASSERT_MSG((unsigned int)nr < M_SYS_COUNT &&
		       sys_call_table[nr].fn, "syscall %d: no such row in "
		       "the model's table", (int)nr);
	long ret;

	m_syscall_enter();
	ret = sys_call_table[nr].fn(args);
	m_syscall_exit();
	return ret;
}

/* ---- shorthands ---------------------------------------------------------- */

long m_pwritev2(struct km_file *file, loff_t pos, size_t len,
		unsigned int rwf, uint32_t data_id, size_t fault_after)
{
	return m_syscall(M_SYS_PWRITEV2, &(struct m_sys_args){
		.file = file, .pos = pos, .len = len, .flags = rwf,
		.data_id = data_id, .fault_after = fault_after });
}

long m_preadv2(struct km_file *file, loff_t pos, size_t len,
	       unsigned int rwf, uint32_t *out)
{
	return m_syscall(M_SYS_PREADV2, &(struct m_sys_args){
		.file = file, .pos = pos, .len = len, .flags = rwf,
		.out = out });
}

long m_pread(struct km_file *file, loff_t pos, size_t len, uint32_t *out)
{
	return m_syscall(M_SYS_PREAD64, &(struct m_sys_args){
		.file = file, .pos = pos, .len = len, .out = out });
}

long m_aio_pwritev2(struct m_aio_req *req, struct km_file *file, loff_t pos,
		    size_t len, unsigned int rwf, uint32_t data_id,
		    size_t fault_after)
{
	return m_syscall(M_SYS_IO_SUBMIT, &(struct m_sys_args){
		.file = file, .pos = pos, .len = len, .flags = rwf,
		.data_id = data_id, .fault_after = fault_after, .aio = req });
}

long m_aio_preadv2(struct m_aio_req *req, struct km_file *file, loff_t pos,
		   size_t len, unsigned int rwf, uint32_t *out)
{
	return m_syscall(M_SYS_IO_SUBMIT, &(struct m_sys_args){
		.file = file, .pos = pos, .len = len, .flags = rwf,
		.out = out, .aio = req });
}
