// SPDX-License-Identifier: MIT
/*
 * tests/model/fs/test_errno.c - the error returns of the syscall layer,
 * one table: each row is one call through m_syscall (as a front end
 * issues it) whose arguments the kernel refuses, the errno v6.18
 * returns, and the kernel function that returns it.  Then the effects
 * of the calls no front end checks: unlink and rename (eviction frees
 * the blocks), posix_fadvise's read modes.
 *
 * Why a table: the scenario language, `wpsim fio` and the differential
 * corpus refuse or never make most of these calls (a negative offset, an
 * end past LLONG_MAX, an unknown fallocate mode, RWF_APPEND with
 * RWF_NOAPPEND), so no other quick test executed these returns, and a
 * seeded mutant that turns one into `return 0;` survived the quick
 * suite (issue 30, docs/reliability.md "Mutation score": seed 5051's
 * read_write.c:319, open.c:57, open.c:84, fops.c:308).  Every row
 * fails before any state changes, so the rows run one after another in
 * one task on one world; a row that succeeds instead fails the test
 * (and usually the execution, a write past the model's bounds).
 *
 * Kernel: fs/read_write.c ksys_pwrite64, ksys_pread64, do_pwritev,
 * do_preadv, vfs_write, vfs_read, vfs_writev, vfs_readv, rw_verify_area,
 * kiocb_set_rw_flags (include/linux/fs.h), generic_write_checks,
 * generic_write_check_limits; fs/open.c do_sys_ftruncate, vfs_fallocate;
 * mm/fadvise.c generic_fadvise; fs/xfs/xfs_file.c xfs_file_dio_write,
 * xfs_file_write_checks (kiocb_modified, fs/inode.c); fs/ext4/file.c
 * ext4_dio_write_checks; block/fops.c blkdev_write_iter,
 * blkdev_direct_IO; block/ioctl.c blk_ioctl_discard; fs/namei.c
 * do_last/lookup_open (open of a name that is gone), v6.18.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <string.h>

#include "wpsim/harness.h"
#include "model/block/fops.h"
#include "model/linux/fadvise.h"
#include "model/linux/fs.h"
#include "model/linux/syscalls.h"

/* An end past LLONG_MAX: rw_verify_area's (loff_t)(pos + count) < 0. */
#define NEAR_MAX	(LLONG_MAX - 4095)

struct row {
	const char *file;	/* the world's file, or "bdev" */
	enum m_sys nr;
	loff_t pos;
	size_t len;
	unsigned int flags;
	long want;
	const char *why;	/* the kernel function that returns it */
};

static const struct row rows[] = {
	{ "f", M_SYS_PWRITE64, -1, 4096, 0, -KM_EINVAL,
	  "pwrite64 at -1: ksys_pwrite64 (pos < 0)" },
	{ "f", M_SYS_PWRITE64, NEAR_MAX, 4096, 0, -KM_EINVAL,
	  "pwrite64 ending past LLONG_MAX: vfs_write -> rw_verify_area" },
	{ "f", M_SYS_PREAD64, -1, 4096, 0, -KM_EINVAL,
	  "pread64 at -1: ksys_pread64 (pos < 0)" },
	{ "f", M_SYS_PREAD64, NEAR_MAX, 4096, 0, -KM_EINVAL,
	  "pread64 ending past LLONG_MAX: vfs_read -> rw_verify_area" },
	/* pwritev2's -1 is "the file position" (do_writev): not here. */
	{ "f", M_SYS_PWRITEV2, -4096, 4096, 0, -KM_EINVAL,
	  "pwritev2 at -4096: do_pwritev (pos < 0)" },
	{ "f", M_SYS_PWRITEV2, NEAR_MAX, 4096, 0, -KM_EINVAL,
	  "pwritev2 ending past LLONG_MAX: vfs_writev -> rw_verify_area" },
	{ "f", M_SYS_PREADV2, -4096, 4096, 0, -KM_EINVAL,
	  "preadv2 at -4096: do_preadv (pos < 0)" },
	{ "f", M_SYS_PREADV2, NEAR_MAX, 4096, 0, -KM_EINVAL,
	  "preadv2 ending past LLONG_MAX: vfs_readv -> rw_verify_area" },
	{ "f", M_SYS_PWRITEV2, 0, 4096, RWF_APPEND | RWF_NOAPPEND,
	  -KM_EINVAL, "pwritev2 RWF_APPEND|RWF_NOAPPEND: kiocb_set_rw_flags" },
	{ "f", M_SYS_PREADV2, 0, 4096, RWF_APPEND | RWF_NOAPPEND,
	  -KM_EINVAL, "preadv2 RWF_APPEND|RWF_NOAPPEND: kiocb_set_rw_flags" },
	{ "f", M_SYS_PWRITE64, 0, 0, 0, 0,
	  "(a zero-length pwrite64 at 0: 0, the rows' control)" },
	{ "f", M_SYS_FTRUNCATE, -1, 0, 0, -KM_EINVAL,
	  "ftruncate to -1: do_sys_ftruncate (length < 0)" },
	{ "f", M_SYS_FALLOCATE, -1, 4096, 0, -KM_EINVAL,
	  "fallocate at -1: vfs_fallocate (offset < 0)" },
	{ "f", M_SYS_FALLOCATE, 0, 0, 0, -KM_EINVAL,
	  "fallocate of 0 bytes: vfs_fallocate (len <= 0)" },
	{ "f", M_SYS_FALLOCATE, 0, 4096, 0x04, -KM_EOPNOTSUPP,
	  "fallocate mode 0x04 (FALLOC_FL_NO_HIDE_STALE, reserved): "
	  "vfs_fallocate (a bit outside FALLOC_FL_MODE_MASK|KEEP_SIZE)" },
	{ "f", M_SYS_FALLOCATE, 0, 4096, KM_FALLOC_FL_PUNCH_HOLE,
	  -KM_EOPNOTSUPP,
	  "fallocate PUNCH_HOLE without KEEP_SIZE: vfs_fallocate" },
	{ "f", M_SYS_FALLOCATE, NEAR_MAX, 8192, 0, -KM_EFBIG,
	  "fallocate ending past LLONG_MAX: vfs_fallocate (wraparound)" },
	{ "f", M_SYS_FADVISE64, 0, 4096, 42, -KM_EINVAL,
	  "fadvise64 advice 42: generic_fadvise (unknown advice)" },
	{ "f", M_SYS_FADVISE64, 0, (size_t)-1, KM_POSIX_FADV_DONTNEED,
	  -KM_EINVAL, "fadvise64 of length -1: generic_fadvise (len < 0)" },
	/* The model's s_maxbytes is its largest file (m_file_pages_max). */
	{ "f", M_SYS_PWRITE64, -2, 4096, 0, -KM_EFBIG,
	  "pwrite64 at s_maxbytes (XFS): generic_write_checks -> "
	  "generic_write_check_limits" },
	{ "g", M_SYS_PWRITE64, -2, 4096, 0, -KM_EFBIG,
	  "O_DIRECT pwrite64 at s_maxbytes (ext4): ext4_dio_write_checks -> "
	  "generic_write_checks" },
	{ "d", M_SYS_PWRITE64, 100, 512, 0, -KM_EINVAL,
	  "XFS O_DIRECT pwrite64 at 100: xfs_file_dio_write (not on the "
	  "logical sector)" },
	{ "d", M_SYS_PWRITE64, 0, 100, 0, -KM_EINVAL,
	  "XFS O_DIRECT pwrite64 of 100 bytes: xfs_file_dio_write" },
	{ "s", M_SYS_PWRITEV2, 0, 4096, RWF_NOWAIT, -KM_EAGAIN,
	  "XFS RWF_NOWAIT pwritev2 with the times to update: "
	  "xfs_file_write_checks -> kiocb_modified" },
	{ "bdev", M_SYS_PWRITEV2, 0, 4096, RWF_NOWAIT, -KM_EOPNOTSUPP,
	  "RWF_NOWAIT pwritev2 on the block device without O_DIRECT: "
	  "blkdev_write_iter" },
	{ "bdev", M_SYS_PWRITEV2, 0, 4096, RWF_DONTCACHE, -KM_EOPNOTSUPP,
	  "RWF_DONTCACHE pwritev2 on the block device: kiocb_set_rw_flags "
	  "(def_blk_fops has no FOP_DONTCACHE)" },
	{ "bdev-direct", M_SYS_PWRITE64, -3, 4096, 0, -KM_ENOSPC,
	  "O_DIRECT pwrite64 at the block device's end: blkdev_write_iter" },
	{ "bdev-direct", M_SYS_PWRITE64, 100, 512, 0, -KM_EINVAL,
	  "O_DIRECT pwrite64 at 100 on the block device: blkdev_direct_IO "
	  "(blkdev_dio_invalid)" },
};

#define NR_ROWS	(sizeof(rows) / sizeof(rows[0]))

static long got[NR_ROWS];
static int discard_unaligned, discard_unsupported;

/* Positions the table names by a code: -2 the model's s_maxbytes, -3
 * the block device's size. */
static loff_t position(const struct row *r)
{
	if (r->pos == -2)
		return (loff_t)(m_file_pages_max * PAGE_SIZE);
	if (r->pos == -3)
		return (loff_t)m_world()->dev.nr_sectors << SECTOR_SHIFT;
	return r->pos;
}

static void every_row(void *arg)
{
	struct km_file *bdev = m_bdev_open(0);
	struct km_file *bdev_direct = m_bdev_open(KM_O_DIRECT);
	size_t i;

	(void)arg;
	for (i = 0; i < NR_ROWS; i++) {
		const struct row *r = &rows[i];
		struct km_file *file =
			!strcmp(r->file, "bdev") ? bdev :
			!strcmp(r->file, "bdev-direct") ? bdev_direct :
			wpsim_file(r->file);
		uint32_t out[1];

		got[i] = m_syscall(r->nr, &(struct m_sys_args){
			.file = file, .pos = position(r), .len = r->len,
			.flags = r->flags, .data_id = 9,
			.out = r->nr == M_SYS_PREAD64 ||
			       r->nr == M_SYS_PREADV2 ? out : NULL });
	}
	/* blk_ioctl_discard -> blk_validate_byte_range: not on the logical
	 * block; then a device without discard (bdev_max_discard_sectors
	 * 0). */
	discard_unaligned = km_blk_ioctl_discard(bdev_direct, 100, 4096);
	m_world()->dev.limits.max_discard_sectors = 0;
	discard_unsupported = km_blk_ioctl_discard(bdev_direct, 0, 4096);
}

static struct m_file_config file_like(const struct m_file_config *f,
				      const char *name)
{
	struct m_file_config c = *f;

	c.name = name;
	return c;
}

Test(errno, every_refused_call_returns_the_kernels_errno)
{
	static struct wpsim_race t;
	struct m_world_config *w = &t.world;
	size_t i;

	wpsim_race_init(&t, "errno-table");
	/* f: the default XFS file (16 KiB written); d: XFS, O_DIRECT; g:
	 * ext4, O_DIRECT; s: XFS, its times due an update. */
	w->files[1] = file_like(&w->files[0], "d");
	w->files[1].open_flags = KM_O_DIRECT;
	w->files[2] = file_like(&w->files[0], "g");
	w->files[2].fs = M_FS_EXT4;
	w->files[2].open_flags = KM_O_DIRECT;
	w->files[3] = file_like(&w->files[0], "s");
	w->files[3].stale_times = true;
	w->files[3].nosec = true;
	w->nr_files = 4;
	wpsim_race_task(&t, "P0", every_row, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	for (i = 0; i < NR_ROWS; i++)
		cr_expect_eq(got[i], rows[i].want, "row %zu, %s: %ld, the "
			     "kernel %ld", i + 1, rows[i].why, got[i],
			     rows[i].want);
	cr_expect_eq(discard_unaligned, -KM_EINVAL, "BLKDISCARD at 100: "
		     "blk_ioctl_discard (blk_validate_byte_range): %d",
		     discard_unaligned);
	cr_expect_eq(discard_unsupported, -KM_EOPNOTSUPP, "BLKDISCARD on a "
		     "device without discard: blk_ioctl_discard: %d",
		     discard_unsupported);
}

/*
 * open(2) of a name that is gone: unlink (no description open: the
 * inode is evicted at once, and evict frees every mapped block:
 * xfs_fs_evict_inode -> xfs_inactive -> xfs_itruncate_extents, here the
 * blocks 0, 2 and 4 of a file laid out WHWHW), then close, then open
 * without O_CREAT is -ENOENT (the lookup finds no dentry: lookup_open
 * returns -ENOENT without O_CREAT); with O_CREAT it makes the file anew
 * (0).  Seed 5051's mutant that steps m_extent_next_mapped's hole scan
 * by 2 (model/fs/xfs/xfs_iomap.c) left blocks 2 and 4 mapped.
 */
static long unlinked[4];
static unsigned long mapped_after_evict;

static void open_after_unlink(void *arg)
{
	struct km_file *f = wpsim_file("f");

	(void)arg;
	unlinked[0] = m_syscall(M_SYS_UNLINK, &(struct m_sys_args){
		.file = f });
	for (unsigned long b = 0; b < f->f_inode->nr_blocks; b++)
		mapped_after_evict += m_extent_peek(f->f_inode, b) !=
				      M_EXT_HOLE;
	unlinked[1] = m_syscall(M_SYS_CLOSE, &(struct m_sys_args){
		.file = f });
	unlinked[2] = m_syscall(M_SYS_OPEN, &(struct m_sys_args){
		.file = f });
	unlinked[3] = m_syscall(M_SYS_OPEN, &(struct m_sys_args){
		.file = f, .flags = KM_O_CREAT });
}

Test(errno, open_of_an_unlinked_name_is_enoent)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "errno-open-unlinked");
	t.world.files[0].size = 5 * 4096;
	t.world.files[0].layout = "WHWHW";
	wpsim_race_task(&t, "P0", open_after_unlink, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	cr_expect_eq(unlinked[0], 0, "unlink: %ld", unlinked[0]);
	cr_expect_eq(mapped_after_evict, 0, "blocks still mapped after the "
		     "inode was evicted: %lu", mapped_after_evict);
	cr_expect_eq(unlinked[1], 0, "close: %ld", unlinked[1]);
	cr_expect_eq(unlinked[2], -KM_ENOENT, "open without O_CREAT of the "
		     "unlinked name: %ld", unlinked[2]);
	cr_expect_eq(unlinked[3], 0, "open with O_CREAT: %ld", unlinked[3]);
}

/*
 * dup(2) is one more reference to the open file: after open, dup and
 * unlink the inode lives on (its blocks mapped) until the last close,
 * which evicts it; the name is then gone (-ENOENT).  The model counts
 * the references per inode (km_filp_close's Divergences): the world's
 * description is not counted, so the dup is the one reference here.
 * Seed 60731's mutant that counted a dup as two references survived:
 * only traces replayed dup, and none unlinked the file after it.
 * Kernel: fs/file.c dup -> get_file; fs/open.c filp_close -> fput ->
 * iput_final -> evict, v6.18.
 */
static long duped[4];
static unsigned long mapped_after_unlink, mapped_after_close;

static unsigned long mapped_blocks(struct km_inode *inode)
{
	unsigned long n = 0;

	for (unsigned long b = 0; b < inode->nr_blocks; b++)
		n += m_extent_peek(inode, b) != M_EXT_HOLE;
	return n;
}

static void close_after_dup_and_unlink(void *arg)
{
	struct km_file *f = wpsim_file("f");

	(void)arg;
	duped[0] = m_syscall(M_SYS_DUP, &(struct m_sys_args){ .file = f });
	duped[1] = m_syscall(M_SYS_UNLINK, &(struct m_sys_args){
		.file = f });
	mapped_after_unlink = mapped_blocks(f->f_inode);
	duped[2] = m_syscall(M_SYS_CLOSE, &(struct m_sys_args){ .file = f });
	mapped_after_close = mapped_blocks(f->f_inode);
	duped[3] = m_syscall(M_SYS_OPEN, &(struct m_sys_args){ .file = f });
}

Test(errno, last_close_after_dup_evicts_the_unlinked_inode)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "errno-dup-unlink-close");
	t.world.files[0].size = 2 * 4096;
	t.world.files[0].layout = "WW";
	wpsim_race_task(&t, "P0", close_after_dup_and_unlink, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	cr_expect_eq(duped[0], 0, "dup: %ld", duped[0]);
	cr_expect_eq(duped[1], 0, "unlink: %ld", duped[1]);
	cr_expect_eq(mapped_after_unlink, 2, "the dup keeps the unlinked "
		     "inode: %lu blocks mapped", mapped_after_unlink);
	cr_expect_eq(duped[2], 0, "close: %ld", duped[2]);
	cr_expect_eq(mapped_after_close, 0, "the last close evicts: %lu "
		     "blocks still mapped", mapped_after_close);
	cr_expect_eq(duped[3], -KM_ENOENT, "open of the unlinked name: %ld",
		     duped[3]);
}

/*
 * open(2) is one reference to the new description, as dup is: after
 * open and unlink the inode lives on (its blocks mapped) until the
 * close, which is the last reference and evicts it; the name is then
 * gone (-ENOENT).  As above, the world's own description is not
 * counted, so the open is the one reference.  Seed 64153's #14 counted
 * an open as two: the close left one, nothing was evicted, and the
 * open of the unlinked name succeeded.
 * Kernel: fs/open.c do_sys_open -> do_filp_open (one struct file, one
 * inode reference through its dentry); filp_close -> fput -> iput_final
 * -> evict, v6.18.
 */
static long opened[4];
static unsigned long opened_mapped_after_unlink, opened_mapped_after_close;

static void close_after_open_and_unlink(void *arg)
{
	struct km_file *f = wpsim_file("f");

	(void)arg;
	opened[0] = m_syscall(M_SYS_OPEN, &(struct m_sys_args){ .file = f });
	opened[1] = m_syscall(M_SYS_UNLINK, &(struct m_sys_args){
		.file = f });
	opened_mapped_after_unlink = mapped_blocks(f->f_inode);
	opened[2] = m_syscall(M_SYS_CLOSE, &(struct m_sys_args){ .file = f });
	opened_mapped_after_close = mapped_blocks(f->f_inode);
	opened[3] = m_syscall(M_SYS_OPEN, &(struct m_sys_args){ .file = f });
}

Test(errno, last_close_after_open_evicts_the_unlinked_inode)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "errno-open-unlink-close");
	t.world.files[0].size = 2 * 4096;
	t.world.files[0].layout = "WW";
	wpsim_race_task(&t, "P0", close_after_open_and_unlink, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	cr_expect_eq(opened[0], 0, "open: %ld", opened[0]);
	cr_expect_eq(opened[1], 0, "unlink: %ld", opened[1]);
	cr_expect_eq(opened_mapped_after_unlink, 2, "the open keeps the "
		     "unlinked inode: %lu blocks mapped",
		     opened_mapped_after_unlink);
	cr_expect_eq(opened[2], 0, "close: %ld", opened[2]);
	cr_expect_eq(opened_mapped_after_close, 0, "the last close evicts: "
		     "%lu blocks still mapped", opened_mapped_after_close);
	cr_expect_eq(opened[3], -KM_ENOENT, "open of the unlinked name: %ld",
		     opened[3]);
}

/*
 * rename(2) over a target: the target loses its link (xfs_rename ->
 * xfs_droplink) and, with no description open, is evicted at the iput
 * after it (do_renameat2 -> dput -> iput_final -> evict: every mapped
 * block freed).  Seed 20261205's mutant that drops the target's link by
 * 2 (model/fs/namei.c) left it linked (an unsigned wrap) and its blocks
 * mapped.
 */
static long renamed;
static unsigned int target_nlink;
static bool target_evicted;
static unsigned long target_mapped;

static void rename_over(void *arg)
{
	struct km_file *f = wpsim_file("f"), *g = wpsim_file("g");

	(void)arg;
	renamed = m_syscall(M_SYS_RENAME, &(struct m_sys_args){
		.file = f, .target = g });
	target_nlink = g->f_inode->i_nlink;
	target_evicted = g->f_inode->i_evicted;
	for (unsigned long b = 0; b < g->f_inode->nr_blocks; b++)
		target_mapped += m_extent_peek(g->f_inode, b) != M_EXT_HOLE;
}

Test(errno, rename_over_a_target_evicts_it)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "errno-rename-over");
	t.world.files[1] = file_like(&t.world.files[0], "g");
	t.world.nr_files = 2;
	wpsim_race_task(&t, "P0", rename_over, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	cr_expect_eq(renamed, 0, "rename: %ld", renamed);
	cr_expect_eq(target_nlink, 0, "the target's links: %u", target_nlink);
	cr_expect(target_evicted, "the target is evicted");
	cr_expect_eq(target_mapped, 0, "the target's blocks still mapped: %lu",
		     target_mapped);
}

/*
 * posix_fadvise's read modes (mm/fadvise.c generic_fadvise, v6.18):
 * RANDOM sets FMODE_RANDOM under f_lock; SEQUENTIAL doubles the file's
 * readahead window (bdi->ra_pages * 2) and clears FMODE_RANDOM; NORMAL
 * sets the window back to bdi->ra_pages and clears FMODE_RANDOM.  No
 * front end checks the mode a call leaves.
 */
static long advised[3];
static unsigned int mode_after[3], ra_after[3];

static void advise(void *arg)
{
	static const int advice[3] = { KM_POSIX_FADV_RANDOM,
				       KM_POSIX_FADV_SEQUENTIAL,
				       KM_POSIX_FADV_NORMAL };
	struct km_file *f = wpsim_file("f");

	(void)arg;
	for (int i = 0; i < 3; i++) {
		advised[i] = m_syscall(M_SYS_FADVISE64, &(struct m_sys_args){
			.file = f, .flags = (unsigned int)advice[i] });
		mode_after[i] = f->f_mode & FMODE_RANDOM;
		ra_after[i] = f->f_ra.ra_pages;
	}
}

Test(errno, fadvise_sets_the_read_mode)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "fadvise-modes");
	t.world.ra_pages = 32;
	wpsim_race_task(&t, "P0", advise, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	for (int i = 0; i < 3; i++)
		cr_expect_eq(advised[i], 0, "advice %d: %ld", i, advised[i]);
	cr_expect(mode_after[0], "RANDOM sets FMODE_RANDOM");
	cr_expect_eq(ra_after[0], 32, "RANDOM keeps the window: %u",
		     ra_after[0]);
	cr_expect(!mode_after[1], "SEQUENTIAL clears FMODE_RANDOM");
	cr_expect_eq(ra_after[1], 64, "SEQUENTIAL doubles the window: %u",
		     ra_after[1]);
	cr_expect(!mode_after[2], "NORMAL clears FMODE_RANDOM");
	cr_expect_eq(ra_after[2], 32, "NORMAL restores the window: %u",
		     ra_after[2]);
}

/*
 * ftruncate down on ext4 (fs/ext4/inode.c ext4_setattr, v6.18: wait for
 * direct I/O, i_disksize and i_size to the new size, truncate_pagecache,
 * then ext4_truncate frees every block past the new EOF): a 16 KiB file
 * of written blocks cut to 4 KiB keeps block 0 and has blocks 1-3 as
 * holes.  Only truncate up was in a scenario (history/ext4-dio-end-io-
 * vs-truncate-up), so the shrinking half of km_ext4_setattr ran in no
 * quick test.
 */
static long ext4_cut;
static uint64_t ext4_size, ext4_disksize;
static char ext4_blocks[4];

static void ext4_truncate_down(void *arg)
{
	struct km_file *g = wpsim_file("g");

	(void)arg;
	ext4_cut = m_syscall(M_SYS_FTRUNCATE, &(struct m_sys_args){
		.file = g, .pos = 4096 });
	ext4_size = sim_word_peek(&g->f_inode->i_size);
	ext4_disksize = sim_word_peek(&g->f_inode->i_disksize);
	for (unsigned long b = 0; b < 4; b++)
		ext4_blocks[b] = m_extent_peek(g->f_inode, b);
}

Test(errno, ext4_truncate_down_frees_the_blocks_past_eof)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "ext4-truncate-down");
	t.world.files[1] = file_like(&t.world.files[0], "g");
	t.world.files[1].fs = M_FS_EXT4;
	t.world.files[1].open_flags = KM_O_DIRECT;
	t.world.nr_files = 2;
	wpsim_race_task(&t, "P0", ext4_truncate_down, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	cr_expect_eq(ext4_cut, 0, "ftruncate: %ld", ext4_cut);
	cr_expect_eq(ext4_size, 4096, "i_size %llu",
		     (unsigned long long)ext4_size);
	cr_expect_eq(ext4_disksize, 4096, "i_disksize %llu",
		     (unsigned long long)ext4_disksize);
	cr_expect_eq(ext4_blocks[0], M_EXT_WRITTEN, "block 0: %c",
		     ext4_blocks[0]);
	for (int b = 1; b < 4; b++)
		cr_expect_eq(ext4_blocks[b], M_EXT_HOLE, "block %d: %c", b,
			     ext4_blocks[b]);
}

/*
 * vfs_write, vfs_read, vfs_writev and vfs_readv refuse a negative
 * position themselves (rw_verify_area: -EINVAL), whoever calls them: the
 * model's syscalls refuse it before (ksys_pwrite64 and the others: the
 * table above), but v6.18 also reaches these functions from callers
 * that pass a position of their own (kernel_write, io_uring's
 * io_rw_init_file does its own rw_verify_area).  Nothing is written or
 * read, and *pos is left as it was.  Seed 61205's mutant that made
 * rw_verify_area's `pos < 0` return 0 survived: no test called these
 * entry points with a position the syscall layer had not checked.  The
 * same for a position whose end overflows (LLONG_MAX - 1000 + 4096:
 * `(loff_t)(pos + count) < 0`, -EINVAL; seed 60731's mutant of
 * read_write.c:127 made it 0).
 */
static long vfs_neg[4], vfs_ovf[4];
static loff_t vfs_neg_pos[4], vfs_ovf_pos[4];

static void vfs_negative_positions(void *arg)
{
	struct km_file *f = wpsim_file("f");
	struct km_iov_iter from = { .count = 4096, .data_id = 9 };
	uint32_t out[8];

	(void)arg;
	for (int i = 0; i < 4; i++)
		vfs_neg_pos[i] = -4096;
	vfs_neg[0] = km_vfs_write(f, &from, &vfs_neg_pos[0]);
	vfs_neg[1] = km_vfs_read(f, 4096, out, &vfs_neg_pos[1]);
	vfs_neg[2] = km_vfs_writev(f, &from, &vfs_neg_pos[2], 0);
	vfs_neg[3] = km_vfs_readv(f, 4096, out, &vfs_neg_pos[3], 0);
	/* A position whose end overflows (pos + count past LLONG_MAX). */
	for (int i = 0; i < 4; i++)
		vfs_ovf_pos[i] = INT64_MAX - 1000;
	vfs_ovf[0] = km_vfs_write(f, &from, &vfs_ovf_pos[0]);
	vfs_ovf[1] = km_vfs_read(f, 4096, out, &vfs_ovf_pos[1]);
	vfs_ovf[2] = km_vfs_writev(f, &from, &vfs_ovf_pos[2], 0);
	vfs_ovf[3] = km_vfs_readv(f, 4096, out, &vfs_ovf_pos[3], 0);
}

Test(errno, vfs_entries_refuse_a_negative_position)
{
	static const char *const name[] = { "vfs_write", "vfs_read",
					    "vfs_writev", "vfs_readv" };
	static struct wpsim_race t;

	wpsim_race_init(&t, "errno-vfs-negative");
	wpsim_race_task(&t, "P0", vfs_negative_positions, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	for (int i = 0; i < 4; i++) {
		cr_expect_eq(vfs_neg[i], -KM_EINVAL, "%s at -4096: %ld, the "
			     "kernel -EINVAL (rw_verify_area)", name[i],
			     vfs_neg[i]);
		cr_expect_eq(vfs_neg_pos[i], -4096, "%s moved *pos", name[i]);
		cr_expect_eq(vfs_ovf[i], -KM_EINVAL, "%s of 4096 at LLONG_MAX "
			     "- 1000: %ld, the kernel -EINVAL (rw_verify_area: "
			     "pos + count < 0)", name[i], vfs_ovf[i]);
		cr_expect_eq(vfs_ovf_pos[i], INT64_MAX - 1000, "%s moved *pos",
			     name[i]);
	}
}
