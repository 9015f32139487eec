// SPDX-License-Identifier: MIT
/*
 * model/drivers/char/mem.c - the memory devices /dev/null and /dev/zero.
 *
 * Models drivers/char/mem.c of v6.18 for the two devices fio's job files
 * name (examples/steadystate.fio): null_fops (read_iter_null: end of
 * file at once; write_iter_null: every byte taken and dropped) and
 * zero_fops (read_iter_zero: the buffer cleared a page at a time;
 * write_iter_zero is write_iter_null), and memory_open's choice of the
 * fops by minor, with do_dentry_open's O_DIRECT check (fs/open.c: a
 * file without FMODE_CAN_ODIRECT, which no memory device sets, is
 * -EINVAL).  No state of the model is read or written: the devices
 * touch no page cache, no block layer, no shared word.
 *
 * Leaves out: ->read and ->write (read_null, write_null, read_zero; the
 * model's vfs_read/vfs_write call ->read_iter/->write_iter, which give
 * the same results), splice, mmap of /dev/zero, the other minors
 * (/dev/mem, /dev/kmem, /dev/port, /dev/full, /dev/random, ...),
 * null_lseek, signals (read_iter_zero's signal_pending) and
 * cond_resched's reschedule (no scheduling point of its own: nothing
 * shared is touched).
 */
#include <stdio.h>

#include "model/drivers/mem.h"
#include "sim/arena.h"
#include "sim/clock.h"
#include "sim/shared.h"

/**
 * km_read_iter_null - read(2) of /dev/null.
 * Kernel: drivers/char/mem.c read_iter_null, v6.18.
 * Context: task; does not sleep.
 * Return: 0 (end of file).
 */
long km_read_iter_null(struct km_kiocb *iocb, size_t count, uint32_t *out)
{
	(void)iocb;
	(void)count;
	(void)out;
	return 0;
}

/**
 * km_write_iter_null - write(2) of /dev/null (and of /dev/zero:
 * write_iter_zero is this function).
 * Kernel: drivers/char/mem.c write_iter_null, v6.18.
 * Context: task; does not sleep.
 * Return: the bytes given, all taken (iov_iter_advance).
 */
long km_write_iter_null(struct km_kiocb *iocb, struct km_iov_iter *from)
{
	size_t count = from->count;

	(void)iocb;
	from->count = 0;	/* iov_iter_advance(from, count) */
	return (long)count;
}

/**
 * km_read_iter_zero - read(2) of /dev/zero: the buffer cleared.
 * Kernel: drivers/char/mem.c read_iter_zero, v6.18.
 * Context: task; may reschedule between pages (cond_resched).
 * Return: the bytes cleared (all of @count); each sector of @out is 0,
 * the model's id of zeroes.
 * Divergences: iov_iter_zero is the CPU's copy cost of the bytes
 * (sim_cpu_copy: clear_user streams zeroes to the buffer), charged a
 * page at a time as the loop clears them; no -EFAULT (the model's
 * buffers are always there), no signals, no IOCB_NOWAIT -EAGAIN (the
 * model never needs a reschedule there).
 */
long km_read_iter_zero(struct km_kiocb *iocb, size_t count, uint32_t *out)
{
	size_t written = 0;

	(void)iocb;
	while (written < count) {
		size_t chunk = count - written;

		if (chunk > PAGE_SIZE)
			chunk = PAGE_SIZE;	/* for latency, as the kernel */
		/* iov_iter_zero */
		sim_cpu_copy(chunk);
		if (out)
			for (size_t s = 0; s < chunk >> SECTOR_SHIFT; s++)
				out[(written >> SECTOR_SHIFT) + s] = 0;
		written += chunk;
	}
	return (long)written;
}

/* null_fops and zero_fops: the entries the model has. */
const struct km_file_operations km_null_fops = {
	.name = "mem (/dev/null)",
	.read_iter = km_read_iter_null,
	.write_iter = km_write_iter_null,
};

const struct km_file_operations km_zero_fops = {
	.name = "mem (/dev/zero)",
	.read_iter = km_read_iter_zero,
	.write_iter = km_write_iter_null,	/* write_iter_zero */
};

/*
 * m_chrdev_mem_open - open(2) of a memory device: memory_open's devlist[]
 * by minor (the file's f_op), after do_dentry_open's O_DIRECT check.
 * The file has no inode of the model's (the devices keep no pages).
 */
long m_chrdev_mem_open(unsigned int minor, unsigned int f_flags,
		       struct km_file **filp)
{
	const struct km_file_operations *fops;
	struct km_file *file;

	if (minor == KM_MEM_MINOR_NULL)
		fops = &km_null_fops;
	else if (minor == KM_MEM_MINOR_ZERO)
		fops = &km_zero_fops;
	else
		return -KM_ENXIO;	/* memory_open: no such minor */
	if (f_flags & KM_O_DIRECT)
		return -KM_EINVAL;	/* do_dentry_open: FMODE_CAN_ODIRECT */
	file = sim_arena_alloc(sizeof(*file));
	file->f_op = fops;
	file->f_flags = f_flags;
	snprintf(file->name, sizeof(file->name), "%s",
		 minor == KM_MEM_MINOR_NULL ? "null" : "zero");
	sim_word_init(&file->f_wb_err, 0, "%s.f_wb_err", file->name);
	sim_spin_init(&file->f_lock, "%s.f_lock", file->name);
	*filp = file;
	return 0;
}
