// SPDX-License-Identifier: MIT
/*
 * tests/model/fs/test_xfs_prealloc.c - XFS's speculative preallocation
 * past EOF, one rule a test (docs/validation.md, session 19
 * h19-prealloc).
 *
 * Kernel (v6.18): fs/xfs/xfs_iomap.c xfs_buffered_write_iomap_begin
 * reserves, for a write that ends past i_size with no extent at or after
 * it, xfs_iomap_prealloc_size's blocks past the write's end (rounded from
 * the write's last byte down to m_allocsize_log, 64 KiB): none for a file
 * smaller than 64 KiB; m_allocsize_blocks (16 blocks of 4 KiB) right
 * after a hole; else twice the contiguous extents before the write,
 * rounded down to a power of two, squashed by 16 while not below the
 * free space, at least m_allocsize_blocks.  xfs_bmapi_reserve_delalloc
 * retries without it on -ENOSPC.  xfs_bmapi_convert_delalloc
 * (fs/xfs/libxfs/xfs_bmap.c) converts the whole delalloc extent at
 * writeback, so one allocation covers the later writes into it.
 * xfs_file_release frees what is past EOF at the first close
 * (xfs_free_eofblocks, fs/xfs/xfs_bmap_util.c).
 *
 * The kernel's interleaved DONTCACHE writer (session 18, h18-dc,
 * `perf stat` of xfs:xfs_map_blocks_alloc per 2 000 records): 1 thread
 * 11, 4 threads 1 857, 16 threads 1 959.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "model/fs/xfs.h"
#include "model/linux/bio.h"
#include "model/linux/pagemap.h"
#include "model/linux/syscalls.h"
#include "model/world.h"
#include "wpsim/harness.h"
#include "sim/strategy.h"
#include "../timed-profile.h"

#define REC	47008	/* seed 003's record */

static struct prealloc_case {
	const char *layout;	/* blocks of 4 KiB, from 0 */
	loff_t size;
	uint64_t free_blocks;	/* 0: the count not kept */
	void (*body)(struct km_file *file);
	/* Seen after the body. */
	char map[1024];		/* blocks 0..1022 (the last byte unused) */
	loff_t isize;
	uint64_t allocs;	/* writeback's delalloc allocations */
	int64_t fdblocks;
	long ret;
	bool timed;
	unsigned int allocsize_log;	/* the allocsize mount option */
} C;

static struct hw_nvme_profile P;

static void snap(struct km_inode *inode)
{
	for (unsigned int b = 0; b < sizeof(C.map) - 1; b++)
		C.map[b] = m_extent_peek(inode, b);
	C.isize = (loff_t)sim_word_peek(&inode->i_size);
	C.allocs = m_world()->xfs_wb_allocs;
	if (m_world()->fdblocks_counted)
		C.fdblocks = (int64_t)sim_word_peek(&m_world()->fdblocks);
}

static void task(void *arg)
{
	struct km_file *file = m_world()->files[0];

	(void)arg;
	C.body(file);
	snap(file->f_inode);
}

static void setup(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.files[0].size = C.size;
	c.files[0].layout = C.layout;
	c.xfs_allocsize_log = C.allocsize_log;
	if (C.free_blocks) {
		c.fs_free_counted = true;
		c.fs_free_blocks = C.free_blocks;
	}
	m_world_setup(&c);
	if (C.timed)
		cr_assert_eq(m_blkdev_attach_timed(&m_world()->dev, &P, 1, 7),
			     0);
	sim_task_spawn("t", task, NULL);
}

static void append_records(struct km_file *file);
static void interleaved(struct km_file *file);

static void run_opt(const char *layout, loff_t size, uint64_t free_blocks,
		    void (*body)(struct km_file *), unsigned int allocsize_log)
{
	static const struct sim_program prog = { .name = "xfs-prealloc",
						 .setup = setup };
	unsigned long pages_max = m_file_pages_max;
	struct sim_outcome o;

	memset(&C, 0, sizeof(C));
	C.layout = layout;
	C.size = size;
	C.free_blocks = free_blocks;
	C.body = body;
	C.allocsize_log = allocsize_log;
	/* A run of many records: the timed strategy (one CPU, the test
	 * device), whose executions may hold many bios. */
	C.timed = body == append_records || body == interleaved;
	m_file_pages_max = 1024;	/* 4 MiB a file */
	if (C.timed) {
		struct sim_exec_options exec = { .steps_max = 10000000,
						 .long_run = true };
		struct sim_strategy s;

		timed_test_profile(&P);
		sim_clock_configure(&(struct sim_clock_config){
			.cpus = 1, .costs = sim_cpu_costs_default });
		sim_strategy_timed(&s, 1, 1);
		sim_exec_run(&prog, &s, &exec, &o);
		sim_strategy_fini(&s);
	} else {
		struct sim_exec_options exec = { 0 };
		struct sim_strategy s;

		sim_strategy_random(&s, 1, 1);
		sim_exec_run(&prog, &s, &exec, &o);
		sim_strategy_fini(&s);
	}
	m_file_pages_max = pages_max;
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
}

static void run(const char *layout, loff_t size, uint64_t free_blocks,
		void (*body)(struct km_file *))
{
	run_opt(layout, size, free_blocks, body, 0);
}

static long pwrite(struct km_file *file, loff_t pos, size_t len)
{
	return m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = file, .pos = pos, .len = len, .data_id = 7 });
}

/* sync_file_range(SYNC_FILE_RANGE_WRITE) of the record: its kick. */
static void kick(struct km_file *file, loff_t pos, size_t len)
{
	m_syscall(M_SYS_SYNC_FILE_RANGE, &(struct m_sys_args){
		.file = file, .pos = pos, .len = len,
		.flags = KM_SYNC_FILE_RANGE_WRITE });
}

/* The blocks [from, to) all in @state. */
static void assert_blocks(unsigned int from, unsigned int to, char state)
{
	for (unsigned int b = from; b < to; b++)
		cr_assert_eq(C.map[b], state, "block %u is %c, not %c", b,
			     C.map[b], state);
}

/* ---- 1 thread: few allocations per record ---- */

#define RECORDS	64

static void append_records(struct km_file *file)
{
	for (int i = 0; i < RECORDS; i++) {
		cr_assert_eq(pwrite(file, (loff_t)i * REC, REC), REC);
		kick(file, (loff_t)i * REC, REC);
	}
}

/*
 * 64 records of 47 008 B appended to an empty file, each kicked: the
 * first two reserve the write alone (the file under 64 KiB: extents end
 * at blocks 12 and 23), then each write past the preallocation reserves
 * twice the file's extents rounded down to a power of two, from the
 * 64 KiB boundary below its last byte: record 2 to block 32 + 32 = 64,
 * record 5 to 64 + 128 = 192, record 16 to 192 + 256 = 448, record 39 to
 * 448 + 512 = 960 (past record 63's end, block 735).  One allocation
 * each at writeback: 6 for 64 records, where every record allocated
 * before (the kernel: 11 per 2 000).  The last preallocation is still
 * past EOF.
 */
Test(xfs_prealloc, one_thread_allocates_once_per_preallocation)
{
	unsigned long eof_block;

	run("", 0, 0, append_records);
	cr_assert_eq(C.isize, (loff_t)RECORDS * REC);
	cr_assert_eq(C.allocs, 6, "%llu allocations for %d records",
		     (unsigned long long)C.allocs, RECORDS);
	eof_block = (unsigned long)((C.isize + 4095) >> 12);
	cr_assert_lt(eof_block, sizeof(C.map) - 1, "block %lu not seen",
		     eof_block);
	cr_assert_neq(C.map[eof_block], M_EXT_HOLE,
		      "no preallocation past EOF");
}

/* ---- the size of one preallocation ---- */

static void write_4k_at_128k(struct km_file *file)
{
	C.ret = pwrite(file, 128 << 10, 4096);
}

static void write_4k_at_256k(struct km_file *file)
{
	C.ret = pwrite(file, 256 << 10, 4096);
}

static void write_4k_at_0(struct km_file *file)
{
	C.ret = pwrite(file, 0, 4096);
}

/* A file under m_allocsize_blocks (64 KiB): likely its only write, no
 * preallocation. */
Test(xfs_prealloc, small_file_gets_none)
{
	run("", 0, 0, write_4k_at_0);
	cr_assert_eq(C.ret, 4096);
	cr_assert_eq(C.map[0], M_EXT_DELALLOC);
	assert_blocks(1, 64, M_EXT_HOLE);
}

/* 32 written blocks (128 KiB), then a write right after them: twice the
 * preceding extents, 64 blocks, from the 64 KiB boundary below the
 * write's last byte (block 32): blocks 32..95 reserved, 96 a hole. */
Test(xfs_prealloc, after_an_extent_doubles_it)
{
	run("WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", 128 << 10, 0,
	    write_4k_at_128k);
	cr_assert_eq(C.ret, 4096);
	assert_blocks(0, 32, M_EXT_WRITTEN);
	assert_blocks(32, 96, M_EXT_DELALLOC);
	assert_blocks(96, 128, M_EXT_HOLE);
}

/* The allocsize mount option (256 KiB): m_allocsize_blocks (64) past the
 * 256 KiB boundary below the write's last byte (block 0), whatever the
 * extents before: blocks 32..63. */
Test(xfs_prealloc, allocsize_option_fixes_it)
{
	run_opt("WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", 128 << 10, 0,
		write_4k_at_128k, 18);
	cr_assert_eq(C.ret, 4096);
	assert_blocks(32, 64, M_EXT_DELALLOC);
	assert_blocks(64, 128, M_EXT_HOLE);
}

/* A write after a hole: m_allocsize_blocks, 16 blocks from the 64 KiB
 * boundary at or below its last byte (block 64): blocks 64..79. */
Test(xfs_prealloc, after_a_hole_gets_the_minimum)
{
	run("WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", 128 << 10, 0,
	    write_4k_at_256k);
	cr_assert_eq(C.ret, 4096);
	assert_blocks(32, 64, M_EXT_HOLE);
	assert_blocks(64, 80, M_EXT_DELALLOC);
	assert_blocks(80, 128, M_EXT_HOLE);
}

/* A write inside EOF (after a hole, below i_size): nothing past it. */
static void write_4k_at_64k(struct km_file *file)
{
	C.ret = pwrite(file, 64 << 10, 4096);
}

Test(xfs_prealloc, inside_eof_gets_none)
{
	run("WWWWHHHHHHHHHHHHHHHHHHHHHHHHHHHHWWWW", 144 << 10, 0,
	    write_4k_at_64k);
	cr_assert_eq(C.ret, 4096);
	cr_assert_eq(C.map[16], M_EXT_DELALLOC);
	assert_blocks(17, 32, M_EXT_HOLE);
}

/*
 * Low space: 10 free blocks.  The doubling's 64 blocks are not below the
 * free space: squashed to 4, raised to the minimum 16, and the
 * reservation of 16 blocks (32..47) fails: retried without the
 * preallocation, the write's one block.
 */
Test(xfs_prealloc, enospc_retries_without_it)
{
	run("WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", 128 << 10, 10,
	    write_4k_at_128k);
	cr_assert_eq(C.ret, 4096);
	cr_assert_eq(C.map[32], M_EXT_DELALLOC);
	assert_blocks(33, 64, M_EXT_HOLE);
	cr_assert_eq(C.fdblocks, 9);
}

/* ---- the trim at close ---- */

static void write_then_close(struct km_file *file)
{
	C.ret = pwrite(file, 128 << 10, 4096);
	m_syscall(M_SYS_CLOSE, &(struct m_sys_args){ .file = file });
}

/* The first close frees the blocks past EOF (xfs_free_eofblocks),
 * delalloc reservations back to the free-space count. */
Test(xfs_prealloc, close_frees_past_eof)
{
	run("WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", 128 << 10, 1000,
	    write_then_close);
	cr_assert_eq(C.ret, 4096);
	cr_assert_eq(C.map[32], M_EXT_DELALLOC);
	assert_blocks(33, 128, M_EXT_HOLE);
	cr_assert_eq(C.fdblocks, 999);
}

/* Writeback converts the whole delalloc extent, preallocation included,
 * and the trim at close frees the unwritten blocks past EOF too. */
static void write_kick_close(struct km_file *file)
{
	C.ret = pwrite(file, 128 << 10, 4096);
	m_syscall(M_SYS_FDATASYNC, &(struct m_sys_args){ .file = file });
	snap(file->f_inode);
	cr_assert_eq(C.allocs, 1);
	assert_blocks(33, 96, M_EXT_UNWRITTEN);
	m_syscall(M_SYS_CLOSE, &(struct m_sys_args){ .file = file });
}

Test(xfs_prealloc, writeback_converts_it_whole_and_close_frees_it)
{
	run("WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", 128 << 10, 0,
	    write_kick_close);
	cr_assert_eq(C.map[32], M_EXT_WRITTEN);
	assert_blocks(33, 128, M_EXT_HOLE);
}

/* ---- 4 interleaved threads: one allocation per record ---- */

/*
 * The order the kernel's 4-thread writer shows (h18-dc's trace): the
 * thread ahead writes past EOF after a hole (the records between are
 * other threads'), then the others fill the holes below EOF.  Records
 * in the order 3, 0, 1, 2, 7, 4, 5, 6, ...: each record past EOF comes
 * after a hole (the minimum, to the next 64 KiB boundary), each of the
 * others lies inside EOF between holes or the previous preallocation's
 * end: a record's kick allocates its own delalloc extent, unless the
 * record lies whole inside the minimum preallocation of the record
 * before it (up to 16 blocks past it: 2 of 32 records here; the
 * kernel's 4 threads 1 857 of 2 000).
 */
#define IL_RECORDS	32

static void interleaved(struct km_file *file)
{
	for (int g = 0; g < IL_RECORDS; g += 4) {
		static const int order[4] = { 3, 0, 1, 2 };

		for (int k = 0; k < 4; k++) {
			loff_t pos = (loff_t)(g + order[k]) * REC;

			cr_assert_eq(pwrite(file, pos, REC), REC);
			kick(file, pos, REC);
		}
	}
}

Test(xfs_prealloc, interleaved_allocates_about_once_per_record)
{
	run("", 0, 0, interleaved);
	cr_assert_eq(C.isize, (loff_t)IL_RECORDS * REC);
	cr_assert_geq(C.allocs, IL_RECORDS - 4,
		      "%llu allocations for %d records",
		      (unsigned long long)C.allocs, IL_RECORDS);
	cr_assert_leq(C.allocs, IL_RECORDS);
}
