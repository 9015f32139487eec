// SPDX-License-Identifier: MIT
/*
 * tests/model/block/test_atomic_write.c - RWF_ATOMIC, v6.18
 * (docs/model/atomic-write.md): the queue's atomic limits from the NVMe
 * driver's Identify fields (block/blk-settings.c
 * blk_validate_atomic_write_limits, drivers/nvme/host/core.c
 * nvme_configure_atomic_write), generic_atomic_write_valid's rules
 * (fs/read_write.c), kiocb_set_rw_flags's refusals (include/linux/fs.h),
 * an atomic bio never split (block/blk-merge.c bio_split_rw_at), and
 * whole pwritev2 calls with RWF_ATOMIC on the raw device
 * (block/fops.c blkdev_write_iter, block/blk-core.c submit_bio_noacct),
 * on XFS (fs/xfs/xfs_file.c xfs_file_write_iter, xfs_file_open,
 * fs/xfs/xfs_iops.c xfs_get_atomic_write_min/max) and on ext4
 * (fs/ext4/file.c ext4_file_write_iter, ext4_file_open).
 *
 * The real kernel's answers on this machine (6.18.44, 2026-12-06,
 * tools/atomic-write-probe.c, traces/real-kernel/
 * atomic-write-6.18.44-2026-12-06.txt): a device without atomic limits
 * (the virtio disk, a loop device) refuses every RWF_ATOMIC write with
 * -EOPNOTSUPP, as XFS made with -m reflink=0 and ext4 on it do; a
 * buffered RWF_ATOMIC write of one iovec is -EOPNOTSUPP, of two -EINVAL
 * (the segment check comes first); a read with RWF_ATOMIC is
 * -EOPNOTSUPP.  The device cases with an atomic unit have no hardware
 * here: they follow the kernel's source.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "model/block/fops.h"
#include "model/hw/nvme.h"
#include "model/linux/bio.h"
#include "model/linux/syscalls.h"
#include "model/world.h"
#include "sim/arena.h"
#include "sim/clock.h"
#include "sim/engine.h"
#include "sim/strategy.h"

/* ---- queue limits ------------------------------------------------------ */

static struct km_queue_limits lim_nvme(struct m_nvme_atomic_id id)
{
	struct km_queue_limits lim;

	m_queue_limits_default(&lim);
	m_queue_limits_nvme_atomic(&lim, &id);
	cr_assert_eq(km_blk_validate_limits(&lim), 0);
	return lim;
}

/*
 * AWUPF 0 (the model's default NVMe namespace): one 512-byte LBA, so
 * unit min = max = 512 and the atomic max 1 sector.  AWUPF 7: 4 KiB.
 * NAWUPF with NSFEAT bit 1 wins over AWUPF and brings NABSPF's boundary;
 * NABO non-zero, or no driver support, leaves none; a boundary below the
 * atomic max is "unsupported" (blk_validate_atomic_write_limits).
 */
Test(atomic_limits, nvme_identify_fields)
{
	struct km_queue_limits lim;

	m_queue_limits_default(&lim);
	cr_assert_eq(lim.atomic_write_unit_min, 512);
	cr_assert_eq(lim.atomic_write_unit_max, 512);
	cr_assert_eq(lim.atomic_write_max_sectors, 1);
	cr_assert(km_bdev_can_atomic_write(&lim));

	lim = lim_nvme((struct m_nvme_atomic_id){ .supported = true,
						   .awupf = 7 });
	cr_assert_eq(lim.atomic_write_unit_min, 512);
	cr_assert_eq(lim.atomic_write_unit_max, 4096);
	cr_assert_eq(lim.atomic_write_max_sectors, 8);
	cr_assert_eq(lim.atomic_write_boundary_sectors, 0);

	/* 12 LBAs: hw_max 6 KiB, the unit a power of two below it. */
	lim = lim_nvme((struct m_nvme_atomic_id){ .supported = true,
						   .awupf = 11 });
	cr_assert_eq(lim.atomic_write_unit_max, 4096);
	cr_assert_eq(lim.atomic_write_max_sectors, 12);

	lim = lim_nvme((struct m_nvme_atomic_id){
		.supported = true, .awupf = 7, .nsfeat_atomics = true,
		.nawupf = 31, .nabspf = 63 });
	cr_assert_eq(lim.atomic_write_unit_max, 16384);
	cr_assert_eq(lim.atomic_write_boundary_sectors, 64);

	/* NAWUPF without NSFEAT's bit: the controller's AWUPF. */
	lim = lim_nvme((struct m_nvme_atomic_id){
		.supported = true, .awupf = 7, .nawupf = 31 });
	cr_assert_eq(lim.atomic_write_unit_max, 4096);

	lim = lim_nvme((struct m_nvme_atomic_id){ .supported = true,
						   .awupf = 7, .nabo = 1 });
	cr_assert_eq(lim.atomic_write_unit_min, 0);
	cr_assert(!km_bdev_can_atomic_write(&lim));

	lim = lim_nvme((struct m_nvme_atomic_id){ .supported = false });
	cr_assert_eq(lim.atomic_write_unit_max, 0);
	cr_assert(!km_bdev_can_atomic_write(&lim));

	/* A boundary equal to the atomic max (16 KiB both) is allowed
	 * (blk_validate_atomic_write_limits refuses only hw_max above it). */
	lim = lim_nvme((struct m_nvme_atomic_id){
		.supported = true, .nsfeat_atomics = true, .nawupf = 31,
		.nabspf = 31 });
	cr_assert_eq(lim.atomic_write_unit_max, 16384);
	cr_assert_eq(lim.atomic_write_boundary_sectors, 32);

	/* Boundary 8 KiB below the 16 KiB atomic max: unsupported. */
	lim = lim_nvme((struct m_nvme_atomic_id){
		.supported = true, .nsfeat_atomics = true, .nawupf = 31,
		.nabspf = 15 });
	cr_assert_eq(lim.atomic_write_unit_max, 0);

	/* A unit bounded by what one bio is sure to hold: max_segments 2
	 * of 512-byte logical blocks guarantee 1 KiB. */
	m_queue_limits_default(&lim);
	lim.max_segments = 2;
	m_queue_limits_nvme_atomic(&lim, &(struct m_nvme_atomic_id){
		.supported = true, .awupf = 31 });
	cr_assert_eq(km_blk_validate_limits(&lim), 0);
	cr_assert_eq(lim.atomic_write_unit_max, 1024);
}

/* ---- generic_atomic_write_valid, kiocb_set_rw_flags -------------------- */

/*
 * Each rule of fs/read_write.c generic_atomic_write_valid, in its
 * order: two segments -EINVAL (even buffered: the real kernel's
 * "psync buffered 4096@0 2 -EINVAL"), a length not a power of two
 * -EINVAL, a position not aligned to the length -EINVAL, no O_DIRECT
 * -EOPNOTSUPP.
 */
Test(atomic_write, generic_atomic_write_valid_rules)
{
	struct km_kiocb direct = { .ki_flags = IOCB_DIRECT, .ki_pos = 8192 };
	struct km_kiocb buffered = { .ki_pos = 0 };
	struct km_iov_iter it = { .count = 4096 };

	cr_assert_eq(km_generic_atomic_write_valid(&direct, &it), 0);
	it.count = 8192;
	cr_assert_eq(km_generic_atomic_write_valid(&direct, &it), 0);
	direct.ki_pos = 4096;
	cr_assert_eq(km_generic_atomic_write_valid(&direct, &it),
		     -KM_EINVAL);
	direct.ki_pos = 0;
	it.count = 12288;
	cr_assert_eq(km_generic_atomic_write_valid(&direct, &it),
		     -KM_EINVAL);
	it.count = 4096;
	it.nr_segs = 2;
	cr_assert_eq(km_generic_atomic_write_valid(&direct, &it),
		     -KM_EINVAL);
	cr_assert_eq(km_generic_atomic_write_valid(&buffered, &it),
		     -KM_EINVAL);
	it.nr_segs = 1;
	cr_assert_eq(km_generic_atomic_write_valid(&buffered, &it),
		     -KM_EOPNOTSUPP);
	direct.ki_pos = 2048;
	cr_assert_eq(km_generic_atomic_write_valid(&direct, &it),
		     -KM_EINVAL);
}

/* kiocb_set_rw_flags: RWF_ATOMIC on a read, or on a file without
 * FMODE_CAN_ATOMIC_WRITE, is -EOPNOTSUPP; else IOCB_ATOMIC. */
Test(atomic_write, kiocb_set_rw_flags_refusals)
{
	struct km_file f = { .f_mode = 0 };
	struct km_kiocb k = { .ki_filp = &f };

	cr_assert_eq(km_kiocb_set_rw_flags(&k, RWF_ATOMIC, KM_WRITE),
		     -KM_EOPNOTSUPP);
	f.f_mode = FMODE_CAN_ATOMIC_WRITE;
	k.ki_flags = 0;
	cr_assert_eq(km_kiocb_set_rw_flags(&k, RWF_ATOMIC, KM_READ),
		     -KM_EOPNOTSUPP);
	k.ki_flags = 0;
	cr_assert_eq(km_kiocb_set_rw_flags(&k, RWF_ATOMIC, KM_WRITE), 0);
	cr_assert(k.ki_flags & IOCB_ATOMIC);
}

/*
 * An atomic bio is never split: a 2 MiB direct-I/O bio that needs a
 * split at BIO_MAX_VECS pages gives bio_split_rw_at's -EINVAL with
 * REQ_ATOMIC (before the REQ_NOWAIT -EAGAIN), the split point without.
 */
Test(atomic_write, atomic_bio_is_never_split)
{
	struct km_queue_limits lim;
	struct km_bio bio;
	unsigned int segs = 0;

	m_queue_limits_default(&lim);
	memset(&bio, 0, sizeof(bio));
	bio.op = REQ_OP_WRITE;
	bio.dio_len = 2u << 20;
	cr_assert_gt(km_bio_split_rw_at(&bio, &lim, &segs,
					lim.max_sectors << SECTOR_SHIFT), 0);
	bio.opf = REQ_ATOMIC | REQ_NOWAIT;
	cr_assert_eq(km_bio_split_rw_at(&bio, &lim, &segs,
					lim.max_sectors << SECTOR_SHIFT),
		     -EINVAL);
}

/* ---- whole writes on the timed device ---------------------------------- */

static struct hw_nvme_profile P;
static struct m_nvme_atomic_id dev_id;
static enum m_fs_type file_fs;
static long r[16];
static uint32_t data_at[4];

static long atomic_pwritev2(struct km_file *f, loff_t pos, size_t len,
			    unsigned int nr_segs, uint32_t id)
{
	return m_syscall(M_SYS_PWRITEV2, &(struct m_sys_args){
		.file = f, .pos = pos, .len = len, .flags = RWF_ATOMIC,
		.data_id = id, .nr_segs = nr_segs });
}

/* The raw device: O_DIRECT and buffered descriptions. */
static void bdev_task(void *arg)
{
	struct km_file *f = m_bdev_open(KM_O_DIRECT);
	struct km_file *b = m_bdev_open(0);
	loff_t end = (loff_t)m_world()->dev.nr_sectors << SECTOR_SHIFT;

	(void)arg;
	r[0] = atomic_pwritev2(f, 0, 512, 1, 3);
	r[1] = atomic_pwritev2(f, 4096, 4096, 1, 4);
	r[2] = atomic_pwritev2(f, 8192, 8192, 1, 5);
	r[3] = atomic_pwritev2(f, 4096, 4096, 2, 6);
	r[4] = atomic_pwritev2(f, 2048, 4096, 1, 7);
	r[5] = atomic_pwritev2(b, 0, 4096, 1, 8);
	r[6] = atomic_pwritev2(f, end - 2048, 4096, 1, 9);
	r[7] = m_syscall(M_SYS_PREADV2, &(struct m_sys_args){
		.file = f, .pos = 0, .len = 4096, .flags = RWF_ATOMIC,
		.out = data_at });
	r[9] = atomic_pwritev2(f, 4 << 20, 2 << 20, 1, 10);
}

/* A file of the world (XFS or ext4 as file_fs says), O_DIRECT. */
static void file_task(void *arg)
{
	struct km_file *f = m_world_file("f");

	(void)arg;
	r[8] = f->f_mode & FMODE_CAN_ATOMIC_WRITE;
	r[0] = atomic_pwritev2(f, 0, 4096, 1, 3);
	r[1] = atomic_pwritev2(f, 4096, 512, 1, 4);
	r[2] = atomic_pwritev2(f, 0, 8192, 1, 5);
	r[3] = atomic_pwritev2(f, 8192, 4096, 2, 6);
	r[4] = atomic_pwritev2(f, 2048, 4096, 1, 7);
}

static void setup_common(bool bdev)
{
	struct m_world_config c;

	m_world_config_default(&c);
	c.long_run = true;
	c.files[0].fs = file_fs;
	c.files[0].open_flags = KM_O_DIRECT;
	c.files[0].size = 4 * 4096;
	c.dev_atomic = dev_id;
	c.dev_atomic_set = true;
	if (bdev)	/* 16 MiB: room for a 2 MiB write at 4 MiB */
		c.dev_sectors = 32768;
	m_world_setup(&c);
	cr_assert_eq(m_blkdev_attach_timed(&m_world()->dev, &P, 1, 7), 0);
	sim_task_spawn("t", bdev ? bdev_task : file_task, NULL);
}

static void setup_bdev(void *unused)
{
	(void)unused;
	setup_common(true);
}

static void setup_file(void *unused)
{
	(void)unused;
	setup_common(false);
}

static void run(void (*setup)(void *), struct m_nvme_atomic_id id,
		enum m_fs_type fs)
{
	const struct sim_program prog = { .name = "atomic", .setup = setup };
	/* The steps and pages a 2 MiB buffered write would take: a
	 * refusal that turned into one shows as its return value. */
	struct sim_exec_options exec = { .steps_max = SIM_STEPS_LIMIT };
	struct sim_strategy s;
	struct sim_outcome o;

	memset(r, 0x7f, sizeof(r));
	dev_id = id;
	file_fs = fs;
	m_file_pages_max = 2048;
	memset(&P, 0, sizeof(P));
	snprintf(P.name, sizeof(P.name), "test");
	P.capacity_bytes = 1ull << 30;
	P.cmd_ns = 10000;
	P.link_write_bytes_per_sec = 4096000000ull;
	P.link_read_bytes_per_sec = 4096000000ull;
	P.units = 4;
	P.page_bytes = 4096;
	P.read_ns = 50000;
	P.program_ns = 100000;
	P.nr_hw_queues = 1;
	P.queue_depth = 8;
	sim_clock_configure(&(struct sim_clock_config){
		.cpus = 1, .costs = sim_cpu_costs_default });
	sim_strategy_timed(&s, 1, 1);
	sim_exec_run(&prog, &s, &exec, &o);
	sim_strategy_fini(&s);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
}

/*
 * The raw device of an NVMe namespace with AWUPF 7 (4 KiB):
 *   512@0 and 4096@4096 pass; 8192 is above the unit max: the bio ends
 *   -EINVAL in submit_bio_noacct; two iovecs -EINVAL; 4096@2048 (not
 *   aligned to its length) -EINVAL; a buffered description -EOPNOTSUPP
 *   (generic_atomic_write_valid's IOCB_DIRECT rule); a misaligned write
 *   at the device's end -EINVAL; a read -EOPNOTSUPP; 2 MiB (512 pages,
 *   more than BIO_MAX_VECS: it would need two bios) -EINVAL in
 *   blkdev_direct_IO, before any bio, and nothing of it is cached (seed
 *   64153's #52 answered 0 there, and the write went on buffered).
 */
Test(atomic_write, bdev_with_an_atomic_unit)
{
	run(setup_bdev, (struct m_nvme_atomic_id){ .supported = true,
						    .awupf = 7 }, M_FS_XFS);
	cr_assert_eq(r[0], 512);
	cr_assert_eq(r[1], 4096);
	cr_assert_eq(r[2], -KM_EINVAL);
	cr_assert_eq(r[3], -KM_EINVAL);
	cr_assert_eq(r[4], -KM_EINVAL);
	cr_assert_eq(r[5], -KM_EOPNOTSUPP);
	cr_assert_eq(r[6], -KM_EINVAL);
	cr_assert_eq(r[7], -KM_EOPNOTSUPP);
	cr_assert_eq(r[9], -KM_EINVAL, "%ld", r[9]);
	cr_assert_eq(m_dev_data(&m_world()->dev, 8), 4);
	cr_assert_eq(sim_word_peek(&m_world()->bdev_inode->i_data.nrpages), 0);
	cr_assert_eq(m_dev_data(&m_world()->dev, 8192), 0);
}

/*
 * The default namespace (AWUPF 0: a unit of one 512-byte LBA): 512
 * passes, 4096 is above the unit max: -EINVAL from the block layer.
 * A device whose driver sets no atomic limits (virtio-blk, loop: this
 * machine's vda and loop devices on 6.18.44) has no
 * FMODE_CAN_ATOMIC_WRITE: every RWF_ATOMIC write is -EOPNOTSUPP.
 */
Test(atomic_write, bdev_one_lba_unit_and_no_atomic_writes)
{
	run(setup_bdev, (struct m_nvme_atomic_id){ .supported = true },
	    M_FS_XFS);
	cr_assert_eq(r[0], 512);
	cr_assert_eq(r[1], -KM_EINVAL);
	run(setup_bdev, (struct m_nvme_atomic_id){ .supported = false },
	    M_FS_XFS);
	for (int i = 0; i <= 6; i++)
		cr_assert_eq(r[i], -KM_EOPNOTSUPP, "write %d", i);
}

/*
 * XFS (4 KiB blocks, no reflink) on a device with a 4 KiB unit: the file
 * opens with FMODE_CAN_ATOMIC_WRITE; its unit is one fs block, so
 * 4096@0 writes (its data on the device), 512 (below the min) and 8192
 * (above the max) are -EINVAL, two iovecs -EINVAL, 4096@2048 -EINVAL.
 * On the default device (512-byte unit) the hardware cannot write a
 * block: no FMODE_CAN_ATOMIC_WRITE, -EOPNOTSUPP, as mkfs.xfs -m
 * reflink=0 on this machine's loop device answered.
 */
Test(atomic_write, xfs_one_block_hardware_unit)
{
	run(setup_file, (struct m_nvme_atomic_id){ .supported = true,
						    .awupf = 7 }, M_FS_XFS);
	cr_assert_neq(r[8], 0);
	cr_assert_eq(r[0], 4096);
	cr_assert_eq(r[1], -KM_EINVAL);
	cr_assert_eq(r[2], -KM_EINVAL);
	cr_assert_eq(r[3], -KM_EINVAL);
	cr_assert_eq(r[4], -KM_EINVAL);
	cr_assert_eq(m_dev_data(&m_world()->dev,
				m_world()->inodes[0]->i_sector_base), 3);
	run(setup_file, (struct m_nvme_atomic_id){ .supported = true },
	    M_FS_XFS);
	cr_assert_eq(r[8], 0);
	for (int i = 0; i <= 4; i++)
		cr_assert_eq(r[i], -KM_EOPNOTSUPP, "write %d", i);
}

/*
 * ext4 (4 KiB blocks, no bigalloc): s_awu_min = max(block, unit min),
 * s_awu_max = min(cluster, unit max): with a 4 KiB device unit, one
 * block, the same answers as XFS; with the 512-byte unit none
 * (awu_max < awu_min): -EOPNOTSUPP, as ext4 on this machine's loop
 * device answered (with and without bigalloc: the device has no unit).
 */
Test(atomic_write, ext4_one_block_unit)
{
	run(setup_file, (struct m_nvme_atomic_id){ .supported = true,
						    .awupf = 7 }, M_FS_EXT4);
	cr_assert_neq(r[8], 0);
	cr_assert_eq(r[0], 4096);
	cr_assert_eq(r[1], -KM_EINVAL);
	cr_assert_eq(r[2], -KM_EINVAL);
	cr_assert_eq(r[3], -KM_EINVAL);
	cr_assert_eq(r[4], -KM_EINVAL);
	run(setup_file, (struct m_nvme_atomic_id){ .supported = true },
	    M_FS_EXT4);
	cr_assert_eq(r[8], 0);
	for (int i = 0; i <= 4; i++)
		cr_assert_eq(r[i], -KM_EOPNOTSUPP, "write %d", i);
}

/*
 * An RWF_ATOMIC write that the device's end would cut short (block/
 * fops.c blkdev_write_iter, v6.18: an atomic write is never truncated,
 * `if (atomic) return -EINVAL;` before iov_iter_truncate).  A device of
 * 16 MiB + 2 KiB (its size not a multiple of the 4 KiB unit, as a
 * namespace's LBA count need not be) with AWUPF 7: 4096@16 MiB is
 * aligned to its length and starts inside the device, but its end is
 * past it: -EINVAL, nothing written; 4096@(16 MiB - 4096) passes.
 * Seed 65519's #100 (fops.c:546 answered 0) wrote nothing and returned
 * 0: every other test's device is a multiple of the unit.
 */
static void short_end_task(void *arg)
{
	struct km_file *f = m_bdev_open(KM_O_DIRECT);

	(void)arg;
	r[0] = atomic_pwritev2(f, 16 << 20, 4096, 1, 13);
	r[1] = atomic_pwritev2(f, (16 << 20) - 4096, 4096, 1, 14);
}

static void setup_short_end(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.long_run = true;
	c.dev_atomic = dev_id;
	c.dev_atomic_set = true;
	c.dev_sectors = 32768 + 4;
	m_world_setup(&c);
	cr_assert_eq(m_blkdev_attach_timed(&m_world()->dev, &P, 1, 7), 0);
	sim_task_spawn("t", short_end_task, NULL);
}

Test(atomic_write, bdev_atomic_write_past_the_end_is_einval)
{
	run(setup_short_end, (struct m_nvme_atomic_id){ .supported = true,
							 .awupf = 7 },
	    M_FS_XFS);
	cr_assert_eq(r[0], -KM_EINVAL, "4096@16 MiB on a 16 MiB + 2 KiB "
		     "device: %ld", r[0]);
	cr_assert_eq(r[1], 4096, "%ld", r[1]);
	cr_assert_eq(m_dev_data(&m_world()->dev, 32768 - 8), 14);
	cr_assert_eq(m_dev_data(&m_world()->dev, 32768), 0);
}
