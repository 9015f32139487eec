// SPDX-License-Identifier: MIT
/*
 * tests/model/fs/test_enospc.c - the XFS free-space count (m_fdblocks,
 * model/fs/xfs/xfs_mount.c) on each path that takes from it or gives
 * back to it, one task each (the races are the scenarios
 * scenarios/xfs/enospc-*.litmus):
 *
 *   - a buffered write's delalloc reservation
 *     (xfs_buffered_write_iomap_begin -> xfs_bmapi_reserve_delalloc):
 *     taken at the write, not again at writeback; -ENOSPC when nothing
 *     of the write fits, short when part of it was mapped;
 *   - an O_DIRECT write's allocation (xfs_iomap_write_direct);
 *   - fallocate's (xfs_alloc_file_space);
 *   - a page fault's reservation (xfs_page_mkwrite_iomap_begin): the
 *     store faults (the model's -EFAULT for the SIGBUS);
 *   - the frees: punch (xfs_free_file_space), truncate
 *     (xfs_setattr_size), eviction of an unlinked inode (xfs_inactive),
 *     each giving back the written, unwritten and delalloc blocks and
 *     never a hole.
 *
 * Each test fails before the count exists (no -ENOSPC is returned
 * anywhere by the model's XFS without it) and pins the count after each
 * call.  Kernel: fs/xfs/xfs_mount.c xfs_dec_freecounter,
 * xfs_add_freecounter; fs/xfs/xfs_iomap.c; fs/xfs/xfs_bmap_util.c;
 * fs/xfs/xfs_iops.c; fs/xfs/xfs_file.c xfs_file_buffered_write, v6.18.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "wpsim/harness.h"
#include "model/linux/fs.h"
#include "model/linux/mm.h"
#include "model/linux/syscalls.h"

#define CALLS_MAX	8

static long ret[CALLS_MAX];
static unsigned int nblocks;	/* the file's blocks at setup */
static int64_t count[CALLS_MAX];
static char blocks[CALLS_MAX][8];

static int64_t free_blocks(void)
{
	return (int64_t)sim_word_peek(&m_world()->fdblocks);
}

/* After call @i: its return, the count and the block map's states. */
static void note(unsigned int i, long r)
{
	struct km_inode *inode = wpsim_file("f")->f_inode;
	unsigned int b;

	ret[i] = r;
	count[i] = free_blocks();
	for (b = 0; b < nblocks && b < inode->nr_blocks; b++)
		blocks[i][b] = m_extent_peek(inode, b);
	blocks[i][b] = '\0';
}

static long sys(enum m_sys nr, loff_t pos, size_t len, unsigned int flags)
{
	return m_syscall(nr, &(struct m_sys_args){
		.file = wpsim_file("f"), .pos = pos, .len = len,
		.flags = flags, .data_id = 7 });
}

static void setup(struct wpsim_race *t, const char *name, loff_t size,
		  const char *layout, uint64_t free)
{
	memset(ret, 0, sizeof(ret));
	memset(count, 0, sizeof(count));
	memset(blocks, 0, sizeof(blocks));
	nblocks = (unsigned int)(size / 4096);
	wpsim_race_init(t, name);
	t->world.files[0].size = size;
	t->world.files[0].layout = layout;
	t->world.fs_free_counted = true;
	t->world.fs_free_blocks = free;
}

/* Buffered: HHH, 2 free.  8 KiB at 0 reserves 2 (delalloc); 4 KiB at 8K
 * finds none: -ENOSPC (after the flush and one retry); fsync allocates
 * the delalloc blocks without taking again; 8 KiB at 4K over a written
 * block and the hole: short, 4096. */
static void buffered(void *arg)
{
	(void)arg;
	note(0, sys(M_SYS_PWRITE64, 0, 8192, 0));
	note(1, sys(M_SYS_PWRITE64, 8192, 4096, 0));
	note(2, sys(M_SYS_FSYNC, 0, 0, 0));
	note(3, sys(M_SYS_PWRITE64, 4096, 8192, 0));
}

Test(enospc, buffered_write_reserves_delalloc_then_fails_or_is_short)
{
	static struct wpsim_race t;

	setup(&t, "enospc-buffered", 3 * 4096, "HHH", 2);
	wpsim_race_task(&t, "P0", buffered, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	cr_expect_eq(ret[0], 8192, "write of 2 holes, 2 free: %ld", ret[0]);
	cr_expect_eq(count[0], 0, "count after it: %lld", (long long)count[0]);
	cr_expect_str_eq(blocks[0], "DDH", "blocks after it: %s", blocks[0]);
	cr_expect_eq(ret[1], -KM_ENOSPC, "write of a hole, 0 free: %ld",
		     ret[1]);
	cr_expect_str_eq(blocks[1], "WWH", "the retry's xfs_flush_inodes "
			 "wrote the delalloc blocks back: %s", blocks[1]);
	cr_expect_eq(ret[2], 0, "fsync: %ld", ret[2]);
	cr_expect_eq(count[2], 0, "writeback's allocation takes nothing "
		     "more: %lld", (long long)count[2]);
	cr_expect_eq(ret[3], 4096, "write over a written block and a hole, "
		     "0 free: short, %ld", ret[3]);
	cr_expect_eq(count[3], 0, "count: %lld", (long long)count[3]);
}

/* O_DIRECT: HH, 1 free.  8 KiB at 0: the 2-block hole's allocation
 * fails whole, -ENOSPC; 4 KiB at 0 takes the block; 8 KiB at 0 again:
 * block 0 is mapped and written, block 1's allocation fails, and the
 * error after progress fails the whole write (__iomap_dio_rw's
 * iomap_dio_set_error: -ENOSPC, not 4096); punch of both gives back the
 * one written (the hole is not counted). */
static void direct(void *arg)
{
	(void)arg;
	note(0, sys(M_SYS_PWRITE64, 0, 8192, 0));
	note(1, sys(M_SYS_PWRITE64, 0, 4096, 0));
	note(2, sys(M_SYS_FALLOCATE, 0, 8192,
		    KM_FALLOC_FL_PUNCH_HOLE | KM_FALLOC_FL_KEEP_SIZE));
}

static void direct_partial(void *arg)
{
	(void)arg;
	note(0, sys(M_SYS_PWRITE64, 0, 4096, 0));
	note(1, sys(M_SYS_PWRITE64, 0, 8192, 0));
}

Test(enospc, direct_write_error_after_progress_fails_whole)
{
	static struct wpsim_race t;

	setup(&t, "enospc-direct-partial", 2 * 4096, "HH", 1);
	t.world.files[0].open_flags = KM_O_DIRECT;
	wpsim_race_task(&t, "P0", direct_partial, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	cr_expect_eq(ret[0], 4096, "O_DIRECT write of 1 hole: %ld", ret[0]);
	cr_expect_eq(ret[1], -KM_ENOSPC, "O_DIRECT write over the written "
		     "block and a hole, 0 free: the whole write fails, %ld",
		     ret[1]);
	cr_expect_str_eq(blocks[1], "WH", "blocks: %s", blocks[1]);
}

Test(enospc, direct_write_allocation_and_punch)
{
	static struct wpsim_race t;

	setup(&t, "enospc-direct", 2 * 4096, "HH", 1);
	t.world.files[0].open_flags = KM_O_DIRECT;
	wpsim_race_task(&t, "P0", direct, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	cr_expect_eq(ret[0], -KM_ENOSPC, "O_DIRECT write of 2 holes, 1 free: "
		     "%ld", ret[0]);
	cr_expect_eq(count[0], 1, "count given back: %lld",
		     (long long)count[0]);
	cr_expect_str_eq(blocks[0], "HH", "nothing allocated: %s", blocks[0]);
	cr_expect_eq(ret[1], 4096, "O_DIRECT write of 1 hole: %ld", ret[1]);
	cr_expect_eq(count[1], 0, "count: %lld", (long long)count[1]);
	cr_expect_str_eq(blocks[1], "WH", "blocks: %s", blocks[1]);
	cr_expect_eq(ret[2], 0, "punch: %ld", ret[2]);
	cr_expect_eq(count[2], 1, "punch gives back the written block, not "
		     "the hole: %lld", (long long)count[2]);
}

/* fallocate: WHH, 1 free: the range's 2 holes fail whole; one hole
 * fits; truncate to 0 frees the written and the unwritten block. */
static void falloc(void *arg)
{
	(void)arg;
	note(0, sys(M_SYS_FALLOCATE, 0, 3 * 4096, KM_FALLOC_FL_KEEP_SIZE));
	note(1, sys(M_SYS_FALLOCATE, 4096, 4096, KM_FALLOC_FL_KEEP_SIZE));
	note(2, sys(M_SYS_FTRUNCATE, 0, 0, 0));
}

Test(enospc, fallocate_and_truncate)
{
	static struct wpsim_race t;

	setup(&t, "enospc-fallocate", 3 * 4096, "WHH", 1);
	wpsim_race_task(&t, "P0", falloc, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	cr_expect_eq(ret[0], -KM_ENOSPC, "fallocate of 2 holes, 1 free: %ld",
		     ret[0]);
	cr_expect_str_eq(blocks[0], "WHH", "nothing allocated: %s",
			 blocks[0]);
	cr_expect_eq(count[0], 1, "count: %lld", (long long)count[0]);
	cr_expect_eq(ret[1], 0, "fallocate of 1 hole: %ld", ret[1]);
	cr_expect_str_eq(blocks[1], "WUH", "blocks: %s", blocks[1]);
	cr_expect_eq(count[1], 0, "count: %lld", (long long)count[1]);
	cr_expect_eq(ret[2], 0, "truncate to 0: %ld", ret[2]);
	cr_expect_eq(count[2], 2, "truncate frees W and U: %lld",
		     (long long)count[2]);
}

/* A store through a shared mapping over a hole, 0 free: the fault's
 * delalloc reservation fails, the store faults (-EFAULT, the model's
 * SIGBUS); over a written block it needs none and stores. */
static void fault(void *arg)
{
	struct km_file *f = wpsim_file("f");

	(void)arg;
	note(0, m_mmap_store(f, 4096, 8, 7));
	note(1, m_mmap_store(f, 0, 8, 7));
}

Test(enospc, page_fault_reservation_fails_with_sigbus)
{
	static struct wpsim_race t;

	setup(&t, "enospc-fault", 2 * 4096, "WH", 0);
	wpsim_race_task(&t, "P0", fault, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	cr_expect_eq(ret[0], -KM_EFAULT, "store over a hole, 0 free: %ld",
		     ret[0]);
	cr_expect_str_eq(blocks[0], "WH", "nothing reserved: %s", blocks[0]);
	cr_expect_eq(count[0], 0, "count: %lld", (long long)count[0]);
	cr_expect_eq(ret[1], 0, "store over a written block: %ld", ret[1]);
}

/* Eviction: unlink of the world's file evicts it at once (as in
 * tests/model/fs/test_errno.c), and the mapped blocks of WUHW, 3 of
 * them, come back (xfs_inactive -> xfs_itruncate_extents). */
static void evict(void *arg)
{
	(void)arg;
	ret[0] = m_syscall(M_SYS_UNLINK, &(struct m_sys_args){
		.file = wpsim_file("f") });
	count[0] = free_blocks();
}

Test(enospc, eviction_gives_the_blocks_back)
{
	static struct wpsim_race t;

	setup(&t, "enospc-evict", 4 * 4096, "WUHW", 5);
	wpsim_race_task(&t, "P0", evict, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	cr_expect_eq(ret[0], 0, "unlink: %ld", ret[0]);
	cr_expect_eq(count[0], 8, "5 free + W, U, W: %lld",
		     (long long)count[0]);
}

/*
 * ext4 (model/fs/ext4/balloc.c): an O_DIRECT write of 4 holes with 3
 * free clusters.  ext4_mb_new_blocks claims 4 (no), halves to 2 (yes):
 * the first mapping is 2 blocks; the next claims 2 (no), 1 (yes); the
 * last finds none: -ENOSPC from ext4_iomap_alloc (ext4_should_retry_alloc
 * says no: nothing free).  iomap_dio_rw's error after progress fails the
 * whole write (iomap_dio_set_error): -ENOSPC, the 3 blocks written stay
 * unwritten (the end_io with an error converts nothing), i_size as it
 * was.  Measured on v6.18 ext4 (docs/fio.md): a 64 KiB O_DIRECT write
 * with 8 clusters left fails whole, no short write.  Then truncate to 0
 * gives the 3 clusters back (ext4_free_blocks).
 */
static void ext4_direct(void *arg)
{
	(void)arg;
	note(0, sys(M_SYS_PWRITE64, 0, 4 * 4096, 0));
	note(1, sys(M_SYS_PWRITE64, 12288, 4096, 0));
	note(2, sys(M_SYS_FTRUNCATE, 0, 0, 0));
}

Test(enospc, ext4_direct_write_claims_halving_then_fails_whole)
{
	static struct wpsim_race t;

	setup(&t, "enospc-ext4", 4 * 4096, "HHHH", 3);
	t.world.files[0].fs = M_FS_EXT4;
	t.world.files[0].open_flags = KM_O_DIRECT;
	wpsim_race_task(&t, "P0", ext4_direct, NULL);
	WPSIM_ASSERT_RUN_ONCE(&t);
	cr_expect_eq(ret[0], -KM_ENOSPC, "ext4 O_DIRECT write of 4 holes, 3 "
		     "free: %ld", ret[0]);
	cr_expect_str_eq(blocks[0], "UUUH", "blocks: %s", blocks[0]);
	cr_expect_eq(count[0], 0, "count: %lld", (long long)count[0]);
	cr_expect_eq(ret[1], -KM_ENOSPC, "ext4 O_DIRECT write of a hole, 0 "
		     "free: %ld", ret[1]);
	cr_expect_eq(ret[2], 0, "truncate: %ld", ret[2]);
	cr_expect_eq(count[2], 3, "truncate gives 3 back: %lld",
		     (long long)count[2]);
}

/*
 * ext4: two O_DIRECT writes, each into a hole of its own file, with one
 * free cluster.  Each ext4_claim_free_clusters tests the count
 * (ext4_has_free_clusters) and then takes its cluster with an atomic
 * add: when both tests come before both adds, the second add takes the
 * count below 0 and gives the cluster back (ext4_claim_free_clusters'
 * percpu_counter_add of +nclusters), then -ENOSPC.
 *
 *   P0 (pwrite 4 KiB into f's hole)     P1 (pwrite 4 KiB into g's hole)
 *   1. has_free_clusters: 1 >= 1
 *                                        2. has_free_clusters: 1 >= 1
 *   3. the add: 0, the cluster is P0's
 *                                        4. the add: -1; the cluster
 *                                           given back: 0; -ENOSPC
 * Must hold, in every order: one write returns 4096, the other -ENOSPC,
 * and the count ends at 0 (one cluster, one block).
 * Kernel: fs/ext4/balloc.c ext4_claim_free_clusters,
 * ext4_has_free_clusters, v6.18.
 */
static long claim_ret[2];

static void claim_write(void *arg)
{
	unsigned int i = (unsigned int)(uintptr_t)arg;

	claim_ret[i] = m_syscall(M_SYS_PWRITE64, &(struct m_sys_args){
		.file = wpsim_file(i ? "g" : "f"), .pos = 0, .len = 4096,
		.data_id = 7 + i });
}

static void one_cluster_once(struct wpsim_race *r)
{
	(void)r;
	SIM_ASSERT_MSG((claim_ret[0] == 4096 && claim_ret[1] == -KM_ENOSPC) ||
		       (claim_ret[1] == 4096 && claim_ret[0] == -KM_ENOSPC),
		       "writes %ld and %ld with one free cluster",
		       claim_ret[0], claim_ret[1]);
	SIM_ASSERT_MSG(free_blocks() == 0, "%lld free clusters at the end",
		       (long long)free_blocks());
}

Test(enospc, ext4_racing_claims_give_the_cluster_back)
{
	static struct wpsim_race t;
	struct sim_explore_result res;

	setup(&t, "enospc-ext4-claims", 4096, "H", 1);
	t.world.files[0].fs = M_FS_EXT4;
	t.world.files[0].open_flags = KM_O_DIRECT;
	t.world.files[1] = t.world.files[0];
	t.world.files[1].name = "g";
	t.world.nr_files = 2;
	t.final = one_cluster_once;
	wpsim_race_task(&t, "P0", claim_write, (void *)(uintptr_t)0);
	wpsim_race_task(&t, "P1", claim_write, (void *)(uintptr_t)1);
	cr_assert_eq(wpsim_race_explore(&t, &res), 0);
	cr_assert_eq(res.failures, 0, "%s", res.first.outcome.message);
	cr_assert(res.complete);
	sim_explore_result_fini(&res);
}
