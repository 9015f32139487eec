// SPDX-License-Identifier: MIT
/*
 * tests/model/fs/test_dio_read.c - O_DIRECT reads (iomap_dio_rw for a
 * read) on XFS and ext4: what they return on mapped, hole and
 * beyond-EOF ranges, their -EINVAL and -EAGAIN, io_submit's asynchronous
 * completion, and the races with buffered writes and truncate.
 */
#include <string.h>

#include <criterion/criterion.h>

#include "wpsim/harness.h"
#include "model/fs/ext4.h"
#include "model/fs/xfs.h"
#include "model/linux/syscalls.h"
#include "model/hw/nvme.h"
#include "model/linux/bio.h"
#include "model/world.h"
#include "sim/clock.h"
#include "sim/engine.h"
#include "sim/strategy.h"

#define SECTORS(bytes)	((bytes) / 512)

static struct km_file *F(void)
{
	return wpsim_file("f");
}

/* The file's inode, opened again with O_DIRECT (a second description). */
static struct km_file *direct(void)
{
	return m_file_open(F()->f_inode, KM_O_DIRECT);
}

/* Are the sectors [first, first + n) of @buf all @id? */
static bool all_are(const uint32_t *buf, size_t first, size_t n, uint32_t id)
{
	for (size_t k = first; k < first + n; k++)
		if (buf[k] != id)
			return false;
	return true;
}

/* ---- one read, its result ------------------------------------------------ */

static uint32_t one_buf[SECTORS(16384) + 1];
static loff_t one_pos;
static size_t one_len;
static unsigned int one_rwf;
static long one_ret;

static void one_read(void *arg)
{
	(void)arg;
	one_ret = m_preadv2(direct(), one_pos, one_len, one_rwf, one_buf);
}

static void read_once(enum m_fs_type fs, loff_t size, const char *layout,
		      loff_t pos, size_t len)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "dio-read-once");
	t.world.files[0].fs = fs;
	t.world.files[0].size = size;
	t.world.files[0].layout = layout;
	if (fs == M_FS_EXT4)
		t.world.files[0].open_flags = KM_O_DIRECT;
	one_pos = pos;
	one_len = len;
	one_rwf = 0;
	one_ret = 12345;
	for (size_t k = 0; k < SECTORS(16384) + 1; k++)
		one_buf[k] = 0xdead;
	wpsim_race_task(&t, "P0", one_read, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
}

Test(dio_read, xfs_mapped_blocks_read_the_disk)
{
	read_once(M_FS_XFS, 8192, "WW", 0, 8192);
	cr_assert_eq(one_ret, 8192);
	cr_assert(all_are(one_buf, 0, SECTORS(8192), 1000));
	cr_assert_eq(one_buf[SECTORS(8192)], 0xdead, "wrote past the read");
}

Test(dio_read, ext4_mapped_blocks_read_the_disk)
{
	read_once(M_FS_EXT4, 8192, "WW", 4096, 4096);
	cr_assert_eq(one_ret, 4096);
	cr_assert(all_are(one_buf, 0, SECTORS(4096), 1000));
}

/* iomap_dio_hole_iter: a hole or an unwritten extent reads zeroes. */
Test(dio_read, hole_and_unwritten_read_zeroes)
{
	read_once(M_FS_XFS, 12288, "WHU", 0, 12288);
	cr_assert_eq(one_ret, 12288);
	cr_assert(all_are(one_buf, 0, SECTORS(4096), 1000));
	cr_assert(all_are(one_buf, SECTORS(4096), SECTORS(8192), 0));
	read_once(M_FS_EXT4, 12288, "WHU", 0, 12288);
	cr_assert_eq(one_ret, 12288);
	cr_assert(all_are(one_buf, SECTORS(4096), SECTORS(8192), 0));
}

/* iomap_dio_complete: only what lies below i_size is reported. */
Test(dio_read, short_at_eof_and_zero_past_it)
{
	read_once(M_FS_XFS, 6144, "WW", 4096, 4096);
	cr_assert_eq(one_ret, 2048);
	read_once(M_FS_XFS, 8192, "WW", 8192, 4096);
	cr_assert_eq(one_ret, 0);
	read_once(M_FS_EXT4, 6144, "WW", 0, 8192);
	cr_assert_eq(one_ret, 6144);
}

/* iomap_dio_bio_iter: a mapped extent needs logical-block alignment;
 * a hole does not (iomap_dio_hole_iter checks nothing). */
Test(dio_read, sector_alignment_only_for_mapped_extents)
{
	read_once(M_FS_XFS, 8192, "WW", 100, 512);
	cr_assert_eq(one_ret, -KM_EINVAL);
	read_once(M_FS_XFS, 8192, "HH", 512, 1024);
	cr_assert_eq(one_ret, 1024);
}

/* ---- io_submit: an asynchronous direct read ----------------------------- */

static struct m_aio_req aio_req;
static long aio_submit_ret, aio_wait_ret;

static void aio_read(void *arg)
{
	(void)arg;
	aio_submit_ret = m_aio_preadv2(&aio_req, direct(), 0, 8192, 0,
				       one_buf);
	aio_wait_ret = m_aio_wait(&aio_req);
}

/* aio_read -> xfs_file_dio_read: -EIOCBQUEUED, then the last bio's
 * end_io completes the kiocb (IOMAP_DIO_INLINE_COMP). */
Test(dio_read, aio_read_is_queued_then_completes)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "dio-read-aio");
	t.world.files[0].size = 8192;
	t.world.files[0].layout = "WW";
	memset(one_buf, 0, sizeof(one_buf));
	wpsim_race_task(&t, "P0", aio_read, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	cr_assert_eq(aio_submit_ret, -KM_EIOCBQUEUED);
	cr_assert_eq(aio_wait_ret, 8192);
	cr_assert(all_are(one_buf, 0, SECTORS(8192), 1000));
}

/* ---- races ---------------------------------------------------------------- */

static void writer(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_pwritev2(F(), 0, 4096, 0, 7, 0));
}

/* seen_direct holds the 8 KiB of the asynchronous read's test. */
static uint32_t seen_buffered[SECTORS(4096)], seen_direct[SECTORS(8192)];

static void reader_buffered_then_direct(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_pread(F(), 0, 4096, seen_buffered));
	wpsim_reg_set(1, m_preadv2(direct(), 0, 4096, 0, seen_direct));
}

static bool no_time_travel(struct wpsim_race *r)
{
	(void)r;
	if (wpsim_reg(1, 0) != 4096 || wpsim_reg(1, 1) != 4096)
		return false;
	if (!all_are(seen_direct, 0, SECTORS(4096), 1000) &&
	    !all_are(seen_direct, 0, SECTORS(4096), 7))
		return false;		/* torn */
	/* Once the page cache showed the write, the disk read shows it. */
	return !all_are(seen_buffered, 0, SECTORS(4096), 7) ||
	       all_are(seen_direct, 0, SECTORS(4096), 7);
}

static bool time_travel(struct wpsim_race *r)
{
	return !no_time_travel(r);
}

/*
 * A buffered write vs a buffered read, then a direct read, of one page.
 *
 *   P0 (pwrite 4096 at 0, id 7)         P1 (pread; then O_DIRECT pread)
 *   1. IOLOCK exclusive; copy id 7
 *      into the page: dirty; unlock
 *                                       2. pread: the cached page, 7
 *                                       3. O_DIRECT pread: IOLOCK
 *                                          shared; kiocb_write_and_wait
 *                                          writes the dirty page back
 *                                          and waits; the bio reads 7
 * Or P1 entirely before step 1: 1000 and 1000.
 * Must hold: both reads return 4096; the direct read sees all 1000 or
 * all 7, and 7 whenever the buffered read before it saw 7.
 * Bug: break=dio_read_no_flush (no kiocb_write_and_wait): step 3 reads
 * the disk under the dirty page, 1000 after 7 (time goes backwards).
 * Kernel: fs/iomap/direct-io.c __iomap_dio_rw, mm/filemap.c
 * kiocb_write_and_wait, fs/xfs/xfs_file.c xfs_file_dio_read, v6.18.
 */
Test(race, buffered_write_vs_dio_read__no_time_travel)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "dio-read-after-buffered-write");
	t.world.files[0].size = 4096;
	t.world.files[0].layout = "W";
	wpsim_race_task(&t, "P0", writer, NULL);
	wpsim_race_task(&t, "P1", reader_buffered_then_direct, NULL);
	t.property = no_time_travel;
	t.property_text = "the direct read is not older than the buffered "
			  "read before it";
	t.expect = WPSIM_ALWAYS;
	WPSIM_ASSERT_RACE(&t);

	wpsim_race_init(&t, "dio-read-no-flush");
	t.world.files[0].size = 4096;
	t.world.files[0].layout = "W";
	cr_assert_eq(wpsim_race_variant(&t, "break=dio_read_no_flush"), 0);
	wpsim_race_task(&t, "P0", writer, NULL);
	wpsim_race_task(&t, "P1", reader_buffered_then_direct, NULL);
	t.property = time_travel;
	t.property_text = "the direct read is older than the buffered read";
	t.expect = WPSIM_SOMETIMES;
	WPSIM_ASSERT_RACE(&t);
}

static void nowait_direct_reader(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_preadv2(direct(), 0, 4096, RWF_NOWAIT,
				   seen_direct));
}

static void write_then_nowait_direct_read(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_pwritev2(F(), 0, 4096, 0, 7, 0));
	wpsim_reg_set(1, m_preadv2(direct(), 0, 4096, RWF_NOWAIT,
				   seen_direct));
}

static bool nowait_eagain(struct wpsim_race *r)
{
	(void)r;
	return wpsim_reg(1, 0) == -KM_EAGAIN;
}

static bool nowait_after_write_eagain(struct wpsim_race *r)
{
	(void)r;
	return wpsim_reg(0, 1) == -KM_EAGAIN;
}

static bool nowait_answer_ok(struct wpsim_race *r)
{
	(void)r;
	return wpsim_reg(1, 0) == -KM_EAGAIN ||
	       (wpsim_reg(1, 0) == 4096 &&
		all_are(seen_direct, 0, SECTORS(4096), 1000));
}

/*
 * RWF_NOWAIT O_DIRECT read vs a buffered write holding the IOLOCK.
 *
 *   P0 (pwrite 4096 at 0, id 7)         P1 (O_DIRECT preadv2 RWF_NOWAIT)
 *   1. IOLOCK exclusive
 *                                       2. xfs_ilock_iocb: the trylock
 *                                          fails: -EAGAIN
 *   3. the page dirty; unlock
 *                                       (or after 3: the range needs
 *                                          writeback: -EAGAIN from
 *                                          kiocb_write_and_wait)
 * Or P1 before step 1: the disk's 1000.
 * Must hold: P1 returns -EAGAIN or 4096 bytes of 1000 (the write never
 * started), and never waits; both answers happen.  A NOWAIT direct read
 * of a dirty page is always -EAGAIN, and leaves it dirty.
 * Bug: break=dio_read_no_flush: the NOWAIT read after the write reads the
 * disk under the dirty page (4096 bytes of 1000) instead of -EAGAIN.
 * Kernel: fs/xfs/xfs_file.c xfs_file_dio_read, xfs_ilock_iocb;
 * mm/filemap.c kiocb_write_and_wait, filemap_range_needs_writeback,
 * v6.18.
 */
Test(race, nowait_dio_read_vs_buffered_write__eagain_never_waits)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "nowait-dio-read-vs-write");
	t.world.files[0].size = 4096;
	t.world.files[0].layout = "W";
	wpsim_race_task(&t, "P0", writer, NULL);
	wpsim_race_task(&t, "P1", nowait_direct_reader, NULL);
	t.property = nowait_answer_ok;
	t.property_text = "-EAGAIN or the disk's data";
	t.expect = WPSIM_ALWAYS;
	WPSIM_ASSERT_RACE(&t);

	wpsim_race_init(&t, "nowait-dio-read-vs-write-eagain");
	t.world.files[0].size = 4096;
	t.world.files[0].layout = "W";
	wpsim_race_task(&t, "P0", writer, NULL);
	wpsim_race_task(&t, "P1", nowait_direct_reader, NULL);
	t.property = nowait_eagain;
	t.property_text = "P1's NOWAIT direct read returned -EAGAIN";
	t.expect = WPSIM_SOMETIMES;
	WPSIM_ASSERT_RACE(&t);

	for (int broken = 0; broken < 2; broken++) {
		wpsim_race_init(&t, "nowait-dio-read-of-dirty-page");
		t.world.files[0].size = 4096;
		t.world.files[0].layout = "W";
		if (broken)
			cr_assert_eq(wpsim_race_variant(&t,
					"break=dio_read_no_flush"), 0);
		wpsim_race_task(&t, "P0", write_then_nowait_direct_read,
				NULL);
		t.property = nowait_after_write_eagain;
		t.property_text = "a NOWAIT direct read of a dirty page is "
				  "-EAGAIN";
		t.expect = broken ? WPSIM_NEVER : WPSIM_ALWAYS;
		WPSIM_ASSERT_RACE(&t);
	}
}

static void truncator(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_syscall(M_SYS_FTRUNCATE, &(struct m_sys_args){
		.file = F(), .pos = 0 }));
	/* Direct I/O still in flight once truncate has returned. */
	wpsim_reg_set(1, (int64_t)sim_word_read(&F()->f_inode->i_dio_count));
}

static void aio_direct_reader(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_aio_preadv2(&aio_req, direct(), 0, 8192, 0,
				       seen_direct));
	wpsim_reg_set(1, m_aio_wait(&aio_req));
}

static bool read_whole_or_nothing(struct wpsim_race *r)
{
	int64_t got = wpsim_reg(0, 1);

	(void)r;
	return wpsim_reg(1, 1) == 0 &&
	       (got == 0 ||
		(got == 8192 && all_are(seen_direct, 0, SECTORS(8192), 1000)));
}

/* Truncate's inode_dio_wait has waited for the in-flight read. */
static void dio_drained(struct wpsim_race *r)
{
	(void)r;
	SIM_ASSERT_EQ(sim_word_peek(&F()->f_inode->i_dio_count), 0);
}

static void aio_read_vs_truncate(struct wpsim_race *t, const char *name)
{
	wpsim_race_init(t, name);
	t->world.files[0].size = 8192;
	t->world.files[0].layout = "WW";
	wpsim_race_task(t, "P0", aio_direct_reader, NULL);
	wpsim_race_task(t, "P1", truncator, NULL);
	t->final = dio_drained;
}

/*
 * An asynchronous direct read vs truncate to 0.
 *
 *   P0 (io_submit O_DIRECT read 8 KiB)  P1 (ftruncate 0)
 *   1. IOLOCK shared; inode_dio_begin;
 *      the bios go out; -EIOCBQUEUED;
 *      IOLOCK released
 *                                       2. IOLOCK exclusive;
 *                                          inode_dio_wait: sleeps until
 *   3. the last bio's end_io completes
 *      the read (inode_dio_end)
 *                                       4. i_size 0, blocks freed
 * Or P1 first: the read is at EOF, 0.
 * Must hold: no direct I/O is in flight when truncate returns, the
 * read returns all 8192 bytes of the disk's data or 0, and no direct I/O
 * is in flight when the execution ends.
 * Bug (break=truncate_no_dio_wait): truncate does not wait at step 2;
 * it drops the size and frees the blocks and returns with the read's
 * direct I/O in flight (whose bios then read blocks no longer the
 * file's).
 * Kernel: fs/iomap/direct-io.c __iomap_dio_rw (inode_dio_begin, inline
 * completion of a read), fs/xfs/xfs_iops.c xfs_setattr_size
 * (inode_dio_wait), v6.18.
 */
Test(race, aio_dio_read_vs_truncate__whole_or_nothing)
{
	static struct wpsim_race t;

	aio_read_vs_truncate(&t, "aio-dio-read-vs-truncate");
	t.property = read_whole_or_nothing;
	t.property_text = "no direct I/O is in flight when truncate "
			  "returns; the read returns 8192 bytes of 1000, or 0";
	t.expect = WPSIM_ALWAYS;
	WPSIM_ASSERT_RACE(&t);

	/* Broken: the model's inode_dio_wait check (m_extent_write) fails
	 * the execution where truncate frees the blocks under the read. */
	aio_read_vs_truncate(&t, "aio-dio-read-vs-truncate (broken)");
	cr_assert_eq(wpsim_race_variant(&t, "break=truncate_no_dio_wait"), 0);
	t.failure_contains = "freed while 1 direct I/O are in flight";
	t.expect = WPSIM_SOMETIMES;
	WPSIM_ASSERT_RACE(&t);
}

static void aio_direct_writer(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_aio_pwritev2(&aio_req, direct(), 0, 4096, 0, 7,
					0));
	wpsim_reg_set(1, m_aio_wait(&aio_req));
}

static void puncher(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_syscall(M_SYS_FALLOCATE, &(struct m_sys_args){
		.file = F(), .pos = 0, .len = 4096,
		.flags = KM_FALLOC_FL_PUNCH_HOLE | KM_FALLOC_FL_KEEP_SIZE }));
}

/*
 * An asynchronous direct write vs a hole punch of the same block (XFS).
 *
 *   P0 (io_submit O_DIRECT write 4 KiB) P1 (fallocate PUNCH_HOLE 0 4096)
 *                                       1. IOLOCK exclusive;
 *                                          inode_dio_wait: none in flight
 *   2. IOLOCK shared: waits for P1
 *                                       3. xfs_free_file_space frees
 *                                          block 0; IOLOCK released
 *   4. inode_dio_begin; the bio goes
 *      out (a new block); -EIOCBQUEUED
 * Or P0 first: P1's inode_dio_wait sleeps until the write completes.
 * Must hold: no block is freed while a direct I/O is in flight (the
 * model's check of inode_dio_wait's contract, m_extent_write).
 * Bug (seed 60731's mutant of xfs_file.c:659, inode_dio_wait before the
 * IOLOCK): P1 waits at 1 with nothing in flight, P0 submits between the
 * wait and the lock, and P1 frees block 0 under the write's bio: the
 * device may write a block the file no longer owns.  No end state shows
 * it (the model maps a block to a fixed sector); the check does.
 * Kernel: fs/xfs/xfs_file.c xfs_file_fallocate (xfs_ilock IOLOCK_EXCL,
 * then inode_dio_wait), fs/inode.c inode_dio_wait, v6.18.
 */
Test(race, aio_dio_write_vs_punch__no_block_freed_under_io)
{
	static struct wpsim_race t;

	wpsim_race_init(&t, "aio-dio-write-vs-punch");
	t.world.files[0].size = 8192;
	t.world.files[0].layout = "WW";
	wpsim_race_task(&t, "P0", aio_direct_writer, NULL);
	wpsim_race_task(&t, "P1", puncher, NULL);
	t.final = dio_drained;
	t.expect = WPSIM_NEVER;
	WPSIM_ASSERT_RACE(&t);
}

/* ---- ext4: a NOWAIT direct read meets the inode lock ---------------------- */

static void ext4_extending_direct_writer(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_pwritev2(F(), 4096, 4096, 0, 7, 0));
}

static void ext4_nowait_direct_reader(void *arg)
{
	(void)arg;
	for (size_t k = 0; k < SECTORS(4096); k++)
		seen_direct[k] = 0xdead;
	wpsim_reg_set(0, m_preadv2(F(), 0, 4096, RWF_NOWAIT, seen_direct));
}

static void ext4_nowait_race(struct wpsim_race *t, const char *name)
{
	wpsim_race_init(t, name);
	t->world.files[0].fs = M_FS_EXT4;
	t->world.files[0].size = 4096;
	t->world.files[0].layout = "W";
	t->world.files[0].open_flags = KM_O_DIRECT;
	wpsim_race_task(t, "P0", ext4_extending_direct_writer, NULL);
	wpsim_race_task(t, "P1", ext4_nowait_direct_reader, NULL);
}

/*
 * An ext4 RWF_NOWAIT O_DIRECT read vs an extending O_DIRECT write.
 *
 *   P0 (O_DIRECT pwrite 4096 at 4096)   P1 (O_DIRECT preadv2 0 4096,
 *                                           RWF_NOWAIT)
 *   1. ext4_dio_write_iter: extending,
 *      inode_lock (exclusive)
 *                                       2. ext4_dio_read_iter:
 *                                          inode_trylock_shared fails:
 *                                          -EAGAIN
 *   3. block 1 written, i_size 8192;
 *      inode_unlock
 * Or P1 before step 1 or after step 3: the lock taken shared, block 0
 * read from the disk: 4096 bytes of 1000.
 * Must hold: P1 returns -EAGAIN or 4096 bytes of 1000, never 0 (a read
 * that gave up on the lock and answered end of file); -EAGAIN happens.
 * Bug (seed 60731's mutant of ext4/file.c:508): the failed trylock
 * returns 0.
 * Kernel: fs/ext4/file.c ext4_dio_read_iter, ext4_dio_write_iter,
 * ext4_dio_write_checks, v6.18.
 */
Test(race, ext4_nowait_dio_read_vs_extending_dio_write__eagain_or_data)
{
	static struct wpsim_race t;

	ext4_nowait_race(&t, "ext4-nowait-dio-read-vs-extending-write");
	t.property = nowait_answer_ok;
	t.property_text = "-EAGAIN or the disk's data";
	t.expect = WPSIM_ALWAYS;
	WPSIM_ASSERT_RACE(&t);

	ext4_nowait_race(&t, "ext4-nowait-dio-read-vs-extending-write-eagain");
	t.property = nowait_eagain;
	t.property_text = "P1's NOWAIT direct read returned -EAGAIN";
	t.expect = WPSIM_SOMETIMES;
	WPSIM_ASSERT_RACE(&t);
}

/* ---- XFS: an unaligned direct write's optimistic pass vs truncate ------- */

static void unaligned_direct_writer(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_pwritev2(direct(), 1024, 512, 0, 7, 0));
}

static void truncate_to_0(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_syscall(M_SYS_FTRUNCATE, &(struct m_sys_args){
		.file = F(), .pos = 0 }));
}

static bool unaligned_write_complete(struct wpsim_race *r)
{
	(void)r;
	return wpsim_reg(0, 0) == 512 && wpsim_reg(1, 0) == 0;
}

static bool unaligned_write_after_truncate(struct wpsim_race *r)
{
	(void)r;
	return unaligned_write_complete(r) &&
	       km_i_size_read(F()->f_inode) == 1536;
}

static void unaligned_vs_truncate(struct wpsim_race *t, const char *name)
{
	wpsim_race_init(t, name);
	t->world.files[0].size = 16384;
	t->world.files[0].layout = "WWWW";
	wpsim_race_task(t, "P0", unaligned_direct_writer, NULL);
	wpsim_race_task(t, "P1", truncate_to_0, NULL);
	t->skip_lost_data_check = true;	/* DIO leaves no page cache */
}

/*
 * An XFS O_DIRECT write of 512 bytes at 1024 (not on the 4 KiB block)
 * inside a 16 KiB file vs ftruncate to 0.
 *
 *   P0 (O_DIRECT pwrite 512 at 1024)     P1 (ftruncate 0)
 *   1. xfs_file_dio_write_unaligned:
 *      1536 < i_size 16384, not
 *      extending: the optimistic pass,
 *      IOMAP_DIO_OVERWRITE_ONLY
 *                                        2. IOLOCK exclusive; i_size 0,
 *                                           the blocks freed; unlock
 *   3. IOLOCK shared; write checks
 *      zero from EOF (0) to 1024
 *   4. iomap_dio_rw: OVERWRITE_ONLY and
 *      the write ends past i_size:
 *      -EAGAIN; the IOLOCK dropped and
 *      the write retried exclusive
 *      (FORCE_WAIT): 512 bytes, i_size
 *      1536
 * Or step 2 after P0's write: 512 bytes, then i_size 0.
 * Must hold: the write returns 512 and the truncate 0 in every
 * execution; the write lands after the truncate (i_size 1536) in some.
 * Bug (seed 62417's #102, fs/iomap/direct-io.c's -EAGAIN of step 4
 * answered 0): the write returns 0 after step 2, as if it had written
 * nothing.  No quick test reached that -EAGAIN: the caller's own test
 * of i_size keeps every single-task write out of it.
 * Kernel: fs/xfs/xfs_file.c xfs_file_dio_write_unaligned,
 * fs/iomap/direct-io.c __iomap_dio_rw (IOMAP_DIO_OVERWRITE_ONLY), v6.18.
 */
Test(race, xfs_unaligned_dio_write_vs_truncate__retried_exclusive)
{
	static struct wpsim_race t;

	unaligned_vs_truncate(&t, "xfs-unaligned-dio-vs-truncate");
	t.property = unaligned_write_complete;
	t.property_text = "the write returns 512, the truncate 0";
	t.expect = WPSIM_ALWAYS;
	WPSIM_ASSERT_RACE(&t);

	unaligned_vs_truncate(&t, "xfs-unaligned-dio-vs-truncate-after");
	t.property = unaligned_write_after_truncate;
	t.property_text = "the write lands after the truncate: i_size 1536";
	t.expect = WPSIM_SOMETIMES;
	WPSIM_ASSERT_RACE(&t);
}

/* ---- a datasync direct overwrite: FUA instead of a flush ---------------- */

static struct hw_nvme_profile dsync_P;
static unsigned int dsync_flags;
static long dsync_ret;
static struct m_blkdev_timed_stats dsync_before, dsync_after;

static void dsync_task(void *arg)
{
	struct km_file *f = m_file_open(F()->f_inode, KM_O_DIRECT |
					dsync_flags);

	(void)arg;
	m_blkdev_timed_stats(&dsync_before);
	dsync_ret = m_pwritev2(f, 0, 4096, 0, 7, 0);
	m_blkdev_timed_stats(&dsync_after);
}

static void dsync_setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.files[0].size = 16384;
	c.files[0].layout = "WWWW";
	m_world_setup(&c);
	cr_assert_eq(m_blkdev_attach_timed(&m_world()->dev, &dsync_P, 1, 7),
		     0);
	sim_task_spawn("P0", dsync_task, NULL);
}

static void dsync_run(unsigned int flags)
{
	static const struct sim_program prog = { .name = "dio-dsync",
						 .setup = dsync_setup };
	struct sim_exec_options exec = { 0 };
	struct sim_strategy st;
	struct sim_outcome o;

	memset(&dsync_P, 0, sizeof(dsync_P));
	snprintf(dsync_P.name, sizeof(dsync_P.name), "test");
	dsync_P.capacity_bytes = 1ull << 30;
	dsync_P.cmd_ns = 10000;
	dsync_P.link_write_bytes_per_sec = 4096000000ull;
	dsync_P.link_read_bytes_per_sec = 4096000000ull;
	dsync_P.units = 4;
	dsync_P.page_bytes = 4096;
	dsync_P.read_ns = 50000;
	dsync_P.program_ns = 100000;
	dsync_P.cache_bytes = 1 << 20;	/* a volatile write cache */
	dsync_P.flush_ns = 200000;
	dsync_P.fua = true;
	dsync_P.nr_hw_queues = 1;
	dsync_P.queue_depth = 8;
	dsync_flags = flags;
	sim_clock_configure(&(struct sim_clock_config){
		.cpus = 1, .costs = sim_cpu_costs_default });
	sim_strategy_timed(&st, 1, 1);
	sim_exec_run(&prog, &st, &exec, &o);
	sim_strategy_fini(&st);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
}

/*
 * An XFS O_DIRECT overwrite of a written block (no metadata to log) on
 * a device with a volatile cache and FUA (fs/iomap/direct-io.c v6.18:
 * __iomap_dio_rw sets IOMAP_DIO_NEED_SYNC for a dsync kiocb and
 * IOMAP_DIO_WRITE_THROUGH unless it is O_SYNC; iomap_dio_bio_iter
 * writes a pure overwrite with REQ_FUA; when every bio was FUA, the
 * completion drops NEED_SYNC: no generic_write_sync, no cache flush):
 *   O_DSYNC: one FUA write, no flush;
 *   O_SYNC: no WRITE_THROUGH, so generic_write_sync -> xfs_file_fsync
 *   and its cache flush.
 */
Test(dio_write, dsync_overwrite_is_one_fua_write_and_no_flush)
{
	dsync_run(KM_O_DSYNC);
	cr_assert_eq(dsync_ret, 4096);
	cr_assert_eq(dsync_after.fua_bios - dsync_before.fua_bios, 1);
	cr_assert_eq(dsync_after.flushes - dsync_before.flushes, 0,
		     "flushes: %llu", (unsigned long long)
		     (dsync_after.flushes - dsync_before.flushes));
	cr_assert_eq(m_dev_data(&m_world()->dev, 0), 7);
	dsync_run(KM_O_DSYNC | KM_O_SYNC);
	cr_assert_eq(dsync_ret, 4096);
	cr_assert_geq(dsync_after.flushes - dsync_before.flushes, 1);
}

/* ---- XFS: two extending direct writes raise the on-disk size ------------ */

static void extend_4k(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_pwritev2(direct(), 16384, 4096, 0, 5, 0));
}

static void extend_8k(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_pwritev2(direct(), 16384, 8192, 0, 6, 0));
}

static bool disk_size_behind(struct wpsim_race *r)
{
	struct km_inode *inode = F()->f_inode;

	(void)r;
	return wpsim_reg(0, 0) != 4096 || wpsim_reg(1, 0) != 8192 ||
	       km_i_size_read(inode) != 24576 ||
	       (loff_t)sim_word_peek(&inode->i_disksize) != 24576;
}

/*
 * Two XFS O_DIRECT writes from the 16 KiB EOF, 4 KiB and 8 KiB, each
 * under the IOLOCK shared (aligned, not past EOF: no zeroing):
 *   P0 (pwrite 4096 at 16384)          P1 (pwrite 8192 at 16384)
 *   1. the blocks allocated unwritten, the bio, done
 *                                       2. the same, the bio, done
 *   3. xfs_dio_write_end_io: convert; i_size to 20 KiB under
 *      i_flags_lock; xfs_setfilesize under the ILOCK: i_disk_size
 *      = min(20 KiB, i_size)
 *                                       4. the same to 24 KiB
 *   Steps 3 and 4 in either order, or interleaved.
 * Must hold: the writes return 4096 and 8192, i_size and i_disk_size
 * both end at 24 KiB: the ILOCK makes each xfs_setfilesize's read of
 * i_disk_size and its write one section, so the larger raise is never
 * overwritten by the smaller.
 * Bug: none run (seed 64153's #79, xfs_setfilesize without the ILOCK:
 * P0 reads i_disk_size 16 KiB, P1 raises it to 24 KiB, P0 writes 20
 * KiB: the on-disk size behind i_size).
 * Kernel: fs/xfs/xfs_file.c xfs_dio_write_end_io, xfs_file_dio_write_
 * aligned, fs/xfs/xfs_aops.c xfs_setfilesize, v6.18.
 */
Test(race, xfs_two_extending_dio_writes__disk_size_follows)
{
	static struct wpsim_race t;
	struct wpsim_race_result res;

	wpsim_race_init(&t, "xfs-two-extending-dio-writes");
	t.world.files[0].size = 16384;
	t.world.files[0].layout = "WWWW";
	/* S_NOSEC: no file_remove_privs, so the write checks keep the
	 * IOLOCK shared (else each takes it exclusive and waits for the
	 * other's whole write). */
	t.world.files[0].nosec = true;
	wpsim_race_task(&t, "P0", extend_4k, NULL);
	wpsim_race_task(&t, "P1", extend_8k, NULL);
	t.skip_lost_data_check = true;	/* DIO leaves no page cache */
	t.property = disk_size_behind;
	t.property_text = "a write failed, or i_size or i_disk_size is not "
			  "24 KiB";
	t.preemptions = -1;
	t.expect = WPSIM_NEVER;
	cr_assert_eq(wpsim_race_run(&t, stderr, &res), WPSIM_PASS, "%s",
		     res.message);
	cr_assert(res.complete, "the search did not cover its space");
	cr_assert_gt(res.executions, 1);
}
