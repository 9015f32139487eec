/* SPDX-License-Identifier: MIT */
/*
 * The memory character devices /dev/null and /dev/zero
 * (model/drivers/char/mem.c; drivers/char/mem.c, v6.18): files whose
 * f_op is the driver's null_fops or zero_fops, reached through
 * m_syscall like any file (pwrite64, pwritev2, pread64, preadv2).
 */
#ifndef WPSIM_MODEL_DRIVERS_MEM_H
#define WPSIM_MODEL_DRIVERS_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "model/linux/fs.h"

/* The minors of the memory devices (drivers/char/mem.c devlist[]). */
#define KM_MEM_MINOR_NULL	3
#define KM_MEM_MINOR_ZERO	5

extern const struct km_file_operations km_null_fops;
extern const struct km_file_operations km_zero_fops;

/*
 * open(2) of memory device @minor with @f_flags (KM_O_*): 0 and the
 * file in *@filp, -ENXIO for a minor the model does not have, -EINVAL
 * with O_DIRECT (do_dentry_open: no FMODE_CAN_ODIRECT).  Call inside an
 * execution (the file's words are engine objects).
 */
long m_chrdev_mem_open(unsigned int minor, unsigned int f_flags,
		       struct km_file **filp);

long km_read_iter_null(struct km_kiocb *iocb, size_t count, uint32_t *out);
long km_write_iter_null(struct km_kiocb *iocb, struct km_iov_iter *from);
long km_read_iter_zero(struct km_kiocb *iocb, size_t count, uint32_t *out);

#endif
