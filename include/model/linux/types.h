/* SPDX-License-Identifier: MIT */
/*
 * Basic kernel types and constants of the model (include/linux/types.h,
 * include/uapi/asm-generic/errno-base.h, errno.h), v6.18.
 */
#ifndef WPSIM_MODEL_LINUX_TYPES_H
#define WPSIM_MODEL_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef int64_t loff_t;
typedef uint64_t pgoff_t;
typedef uint64_t sector_t;

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define SECTOR_SHIFT	9
#define SECTOR_SIZE	(1UL << SECTOR_SHIFT)
#define SECTORS_PER_PAGE (PAGE_SIZE >> SECTOR_SHIFT)

/* The model's size bounds: tiny, so edge cases appear in few steps. */
#define M_FILE_PAGES_MAX	64	/* pages per file */
#define M_FILES_MAX		4
#define M_FOLIOS_MAX		128	/* folios per execution */
#define M_FOLIO_ORDER_MAX	4	/* 64 KiB folios */

/* Linux errno values (asm-generic). */
#define KM_EPERM	1
#define KM_ENOENT	2
#define KM_EINTR	4
#define KM_EIO		5
#define KM_ENOMEM	12
#define KM_EFAULT	14
#define KM_EBUSY	16
#define KM_EEXIST	17
#define KM_EINVAL	22
#define KM_EFBIG	27
#define KM_ENOSPC	28
#define KM_EAGAIN	11
#define KM_EOPNOTSUPP	95
#define KM_EIOCBQUEUED	529	/* kernel-internal: AIO queued */
#define KM_ENOTBLK	15	/* a DIO write asks for the buffered fallback */

#define KM_IS_ERR_VALUE(x) ((x) < 0 && (x) >= -4095)

#endif
