/* SPDX-License-Identifier: MIT */
/*
 * posix_fadvise of the model (include/uapi/linux/fadvise.h, mm/fadvise.c),
 * v6.18: model/mm/fadvise.c.
 */
#ifndef WPSIM_MODEL_LINUX_FADVISE_H
#define WPSIM_MODEL_LINUX_FADVISE_H

#include "model/linux/fs.h"

/* include/uapi/linux/fadvise.h (the 64-bit values). */
#define KM_POSIX_FADV_NORMAL		0
#define KM_POSIX_FADV_RANDOM		1
#define KM_POSIX_FADV_SEQUENTIAL	2
#define KM_POSIX_FADV_WILLNEED		3
#define KM_POSIX_FADV_DONTNEED		4
#define KM_POSIX_FADV_NOREUSE		5

int km_generic_fadvise(struct km_file *file, loff_t offset, loff_t len,
		       int advice);
int km_ksys_fadvise64_64(struct km_file *file, loff_t offset, loff_t len,
			 int advice);

#endif
