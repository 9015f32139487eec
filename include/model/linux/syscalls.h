/* SPDX-License-Identifier: MIT */
/*
 * The model's system calls (include/linux/syscalls.h, v6.18): one table
 * of the file syscalls the front ends issue (the scenario language,
 * `wpsim fio`, `wpsim replay`, the race harness), and the one entry that
 * dispatches them, m_syscall().  Each front end is a thin table from its
 * own syntax to an enum m_sys row and a struct m_sys_args; the row's
 * handler is the kernel's syscall body (ksys_pwrite64, do_pwritev,
 * do_fsync, do_sys_ftruncate, ksys_fallocate, io_submit_one, ...), which
 * reaches the filesystem through file->f_op / inode->i_op.
 *
 * The syscall entry's CPU cost is charged in one place:
 * m_syscall_enter(), called by m_syscall() and by io_uring_enter
 * (model/io_uring/rw.c); each of them ends with m_syscall_exit(), the
 * return to user space.  docs/HACKING.md "Add a syscall".
 */
#ifndef WPSIM_MODEL_LINUX_SYSCALLS_H
#define WPSIM_MODEL_LINUX_SYSCALLS_H

#include "model/linux/aio.h"
#include "model/linux/fs.h"

/* The syscalls, in the order of the table (model/fs/syscalls.c). */
enum m_sys {
	M_SYS_PWRITE64,		/* pwrite64(fd, buf, len, pos) */
	M_SYS_PWRITEV2,		/* pwritev2(fd, iov, 1, pos, flags) */
	M_SYS_PREAD64,		/* pread64(fd, buf, len, pos) */
	M_SYS_PREADV2,		/* preadv2(fd, iov, 1, pos, flags) */
	M_SYS_FSYNC,		/* fsync(fd) */
	M_SYS_FDATASYNC,	/* fdatasync(fd) */
	M_SYS_SYNC_FILE_RANGE,	/* sync_file_range(fd, pos, len, flags) */
	M_SYS_FTRUNCATE,	/* ftruncate(fd, pos) */
	M_SYS_FALLOCATE,	/* fallocate(fd, flags, pos, len) */
	M_SYS_IO_SUBMIT,	/* io_submit of one IOCB_CMD_PWRITE or _PREAD */
	M_SYS_IO_GETEVENTS,	/* io_getevents: entry only (m_aio_wait) */
	M_SYS_MUNMAP,		/* munmap of the file's one VMA */
	M_SYS_OPEN,		/* open(2) of the file: O_TRUNC truncates */
	M_SYS_CLOSE,		/* entry only: no fd table in the model */
	M_SYS_DUP,		/* entry only */
	M_SYS_LSEEK,		/* entry only: no f_pos in the model */
	M_SYS_MMAP,		/* entry only: the VMA is set up by a store */
	M_SYS_UNLINK,		/* unlink(path) of the file's inode */
	M_SYS_RENAME,		/* rename(file, target's path) */
	M_SYS_FADVISE64,	/* fadvise64(fd, pos, len, advice=flags) */
	M_SYS_IOCTL,		/* ioctl(fd, cmd=flags, arg: {pos, len}) */
	M_SYS_SYNCFS,		/* syncfs(fd): the file's file system */
	M_SYS_COUNT
};

/* open(2) flags beyond KM_O_* (include/uapi/asm-generic/fcntl.h). */
#define KM_O_TRUNC	(1u << 9)
#define KM_O_CREAT	(1u << 10)

/*
 * The arguments of one call.  @file stands for the fd; @pos is the
 * offset (the new size for ftruncate); @flags are RWF_* for the
 * read/write rows, FALLOC_FL_* for fallocate, SYNC_FILE_RANGE_* for
 * sync_file_range, O_* for open and POSIX_FADV_* for fadvise64.  A
 * write carries @len bytes of @data_id (the model's content) and faults
 * after @fault_after bytes (0: never); a read fills @out (a sector
 * each).  @decision (ext4 O_DIRECT writes) and @aio (io_submit) are
 * where the model reports.
 */
struct m_sys_args {
	struct km_file *file;
	loff_t pos;
	size_t len;
	unsigned int flags;
	uint32_t data_id;
	size_t fault_after;
	uint32_t *out;
	struct m_ext4_dio_decision *decision;
	struct m_aio_req *aio;
	/* open: a new description of the file's inode is put here (NULL:
	 * the call acts on @file itself, as a trace's reopened fd does). */
	struct km_file **opened;
	/* rename: the file whose path is the target (NULL: none). */
	struct km_file *target;
	/* pwritev2, aio: the user's iovec count (0 or 1: one segment, an
	 * ITER_UBUF; only RWF_ATOMIC's check reads it). */
	unsigned int nr_segs;
	/* ioctl: the user memory @flags's command reads or writes (NULL:
	 * the pair {@pos, @len}, BLKDISCARD's range). */
	uint64_t *arg;
};

/* The syscall's name as strace prints it ("pwritev2"), or "?". */
const char *m_syscall_name(enum m_sys nr);
/* Its row, by that name; -1 if none. */
int m_syscall_find(const char *name);

/*
 * Issue syscall @nr with @args from the running task: the entry cost
 * (m_syscall_enter), then the row's handler.  Return: what the kernel's
 * syscall returns (bytes, 0, or -errno).
 */
long m_syscall(enum m_sys nr, const struct m_sys_args *args);

/* The syscall entry's CPU cost (the one place it is charged). */
void m_syscall_enter(void);
/* The return to user space: the task's next point is one where a
 * pending wake-up preemption takes effect under preempt=none
 * (sim_preempt_point; model/fs/syscalls.c). */
void m_syscall_exit(void);

/* The handlers, by kernel name (each without the entry cost). */
long km_ksys_pwrite64(struct km_file *file, struct km_iov_iter *from,
		      loff_t pos);
long km_ksys_pread64(struct km_file *file, size_t count, uint32_t *out,
		     loff_t pos);
long km_do_pwritev(struct km_file *file, struct km_iov_iter *from,
		   loff_t pos, unsigned int flags);
long km_do_preadv(struct km_file *file, size_t count, uint32_t *out,
		  loff_t pos, unsigned int flags);
int km_do_fsync(struct km_file *file, int datasync);
int km_sys_syncfs(struct km_file *file);
int km_sync_filesystem(struct km_inode *sb);
int km_ksys_sync_file_range(struct km_file *file, loff_t offset,
			    loff_t nbytes, unsigned int flags);
long km_do_sys_ftruncate(struct km_file *file, loff_t length);
int km_ksys_fadvise64_64(struct km_file *file, loff_t offset, loff_t len,
			 int advice);
int km_ksys_fallocate(struct km_file *file, int mode, loff_t offset,
		      loff_t len);
int km_filp_close(struct km_file *filp);
int km_do_unlinkat(struct km_inode *inode);
int km_do_renameat2(struct km_inode *old, struct km_inode *target);
int km_vfs_unlink(struct km_inode *inode);
void km_iput(struct km_inode *inode);
void km_evict(struct km_inode *inode);

/*
 * Shorthands over m_syscall for tests and race tasks (the race harness's
 * documented entries; source-compatible with the older XFS-only ones):
 * pwritev2 of @len bytes of @data_id at @pos, faulting after
 * @fault_after bytes (0: never); pread64 and preadv2 into @out.
 */
long m_pwritev2(struct km_file *file, loff_t pos, size_t len,
		unsigned int rwf, uint32_t data_id, size_t fault_after);
long m_pread(struct km_file *file, loff_t pos, size_t len, uint32_t *out);
long m_preadv2(struct km_file *file, loff_t pos, size_t len,
	       unsigned int rwf, uint32_t *out);
#endif
