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

/*
 * The model's size bounds: tiny by default, so edge cases appear in few
 * steps.  Pages per file is an option (wpsim --max-pages N, up to
 * M_FILE_PAGES_LIMIT); the front end sets m_file_pages_max before it
 * parses scenarios or sets up a world, and the folio bound follows it.
 */
#define M_FILE_PAGES_DEFAULT	64	/* pages per file */
#define M_FILE_PAGES_LIMIT	(1UL << 28)	/* 1 TiB files */
#define M_FILES_MAX		16	/* files a config holds inline */
/*
 * A world has no bound on its files: a long run's (wpsim fio nrfiles,
 * replay) come in a table of their own (m_world_config.file_table) or
 * are added as the run creates them (m_world_file_add); the world's
 * tables grow with the files there are.  Each inode costs about 6 KiB
 * of model state.
 */
#define M_DEV_FILES		4	/* a scenario's device: 4 files */
#define M_FOLIOS_MIN		128	/* folios per execution, >= */
#define M_FOLIO_ORDER_MAX	4	/* 64 KiB folios */

extern unsigned long m_file_pages_max;	/* model/world.c */
/* A long run's own folio bound (wpsim replay: 2 per page of all its
 * files, whose largest sets m_file_pages_max); 0: 2 per page of one
 * file of m_file_pages_max pages (model/world.c). */
extern unsigned long m_folios_limit;
/* Folios per execution (alive, in a long run): 2 per page, >= 128. */
static inline unsigned long m_folios_max(void)
{
	unsigned long n = m_folios_limit ? m_folios_limit :
			  2 * m_file_pages_max;

	return n > M_FOLIOS_MIN ? n : M_FOLIOS_MIN;
}

/* Linux errno values (asm-generic). */
#define KM_EPERM	1
#define KM_ENOENT	2
#define KM_EINTR	4
#define KM_EIO		5
#define KM_ENXIO	6
#define KM_ENOMEM	12
#define KM_EFAULT	14
#define KM_EBUSY	16
#define KM_EEXIST	17
#define KM_EINVAL	22
#define KM_EFBIG	27
#define KM_ENOTTY	25	/* an ioctl the file does not have */
#define KM_ENOSPC	28
#define KM_EAGAIN	11
#define KM_EOPNOTSUPP	95
#define KM_EIOCBQUEUED	529	/* kernel-internal: AIO queued */
#define KM_ENOTBLK	15	/* a DIO write asks for the buffered fallback */

#define KM_IS_ERR_VALUE(x) ((x) < 0 && (x) >= -4095)

#endif
