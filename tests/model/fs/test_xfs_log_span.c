// SPDX-License-Identifier: MIT
/*
 * tests/model/fs/test_xfs_log_span.c - a CIL checkpoint larger than an
 * iclog (session 23, h23-fdsync): its record is written into as many
 * iclogs as it fills, in order, and the commit iclog is written only
 * after the iclog before it completed; a record that fits one iclog is
 * one iclog write, as before.
 *
 * Kernel (v6.18): fs/xfs/xfs_log_cil.c xlog_cil_push_work -> xlog_write
 * (xlog_state_get_iclog_space switches and releases an iclog without
 * room: xlog_sync -> xlog_write_iclog; the checkpoint's first iclog
 * carries NEED_FLUSH, xlog_cil_set_ctx_write_state), then, when
 * start_lsn != commit_lsn, xlog_wait_on_iclog(commit_iclog->ic_prev)
 * before the commit iclog is released; xlog_force_lsn writes the commit
 * iclog with NEED_FLUSH | NEED_FUA.  On a device without FUA
 * (blk-flush: PREFLUSH, DATA, POSTFLUSH) a record of two iclogs is
 * FLUSH, write, FLUSH, write, FLUSH, the second write after the first
 * completed; of one iclog, FLUSH, write, FLUSH.
 *
 * Without log_convert_bytes (every profile but a calibrated one) the push
 * reads no bytes: the test sets it to 1 and commits its own lengths.
 *
 * Fails when: m_xlog_write's loop is removed (one log write for a 40 KiB
 * record), the first iclog loses its PREFLUSH (two device flushes, not
 * three), the full iclog is not waited for before the commit iclog (the
 * force no longer takes the first iclog's write and its flush in
 * series: force_ns below the two records' sum), or a record of 20 KiB
 * spans (two writes); and the conversion test below (splits, not
 * conversions, carry the bytes).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "model/cost.h"
#include "model/fs/xfs.h"
#include "model/fs/xfs_log.h"
#include "model/linux/bio.h"
#include "model/world.h"
#include "../timed-profile.h"

static struct hw_nvme_profile P;
static uint64_t commit_len, force_ns;
static int r_force;
static struct m_blkdev_timed_stats st;

static uint64_t earlier_tail;	/* bytes already in the active iclog */

static void commit_len_and_force(void *arg)
{
	struct km_inode *inode = m_world()->inodes[0];
	uint64_t t0;

	(void)arg;
	/* An earlier checkpoint's commit record left in the active iclog,
	 * not yet forced (a push no force has followed). */
	if (earlier_tail)
		m_xlog_write(m_world()->xfs_log, earlier_tail);
	m_xlog_cil_commit_len(inode, XFS_ILOG_CORE, commit_len);
	t0 = sim_now();
	r_force = km_xfs_log_force_seq(m_xfs_inode_item_seq(inode, true),
				       NULL);
	force_ns = sim_now() - t0;
	m_blkdev_timed_stats(&st);
}

static void setup_one(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.files[0].size = PAGE_SIZE;
	c.files[0].layout = "W";
	m_world_setup(&c);
	cr_assert_eq(m_blkdev_attach_timed(&m_world()->dev, &P, 1, 7), 0);
	sim_task_spawn("t", commit_len_and_force, NULL);
}

static void run_len(uint64_t len)
{
	static const struct sim_program prog = { .name = "xfs-log-span",
						 .setup = setup_one };
	struct m_cost_table table = m_cost_default.model;
	struct sim_outcome o;

	/* The push reads a record's bytes only with a profile that gives
	 * conversions bytes (log_convert_bytes; the test commits its own
	 * length). */
	table.log_convert_bytes = 1;
	m_cost_configure(&table);
	commit_len = len;
	r_force = -1;
	memset(&st, 0, sizeof(st));
	timed_test_run(&prog, &o);
	m_cost_configure(&m_cost_default.model);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
	cr_assert_eq(r_force, 0);
}

/* The device without FUA: each PREFLUSH and FUA is a device flush. */
static void profile_no_fua(void)
{
	timed_test_profile(&P);
	P.fua = false;
}

Test(xfs_log_span, a_record_within_an_iclog_is_one_write)
{
	uint64_t ns0;

	profile_no_fua();
	run_len(0);
	ns0 = force_ns;
	cr_assert_eq(st.log_writes, 1);
	cr_assert_eq(st.flushes, 2, "%llu flushes",
		     (unsigned long long)st.flushes);
	run_len(20000);
	cr_assert_eq(st.log_writes, 1, "%llu log writes",
		     (unsigned long long)st.log_writes);
	cr_assert_eq(st.flushes, 2);
	/* 20 000 bytes are written as 5 pages: the link's time more. */
	cr_assert_gt(force_ns, ns0);
}

Test(xfs_log_span, a_record_of_two_iclogs_writes_both_in_series)
{
	uint64_t ns1;

	profile_no_fua();
	run_len(20000);
	ns1 = force_ns;
	run_len(40000);
	/* The full iclog (PREFLUSH: FLUSH, write) and the commit iclog
	 * (PREFLUSH | FUA: FLUSH, write, FLUSH). */
	cr_assert_eq(st.log_writes, 2, "%llu log writes",
		     (unsigned long long)st.log_writes);
	cr_assert_eq(st.flushes, 3, "%llu flushes",
		     (unsigned long long)st.flushes);
	cr_assert_eq(st.preflush_bios, 2);
	cr_assert_eq(st.fua_bios, 1);
	/* In series: at least one more flush and one more write's
	 * command (10 us each) than the one-iclog record. */
	cr_assert_geq(force_ns, ns1 + P.flush_ns + 2 * P.cmd_ns,
		      "force %llu ns, one iclog %llu",
		      (unsigned long long)force_ns,
		      (unsigned long long)ns1);
}

/*
 * The first iclog of a record that starts in an iclog already holding
 * an earlier checkpoint's commit record carries FUA as well as PREFLUSH
 * (xlog_cil_set_ctx_write_state: NEED_FUA when the start record shares
 * the iclog with an earlier commit record; fs/xfs/xfs_log_cil.c, v6.18):
 * on a device without FUA one device flush more than the same record
 * from an empty iclog.  Fails when m_xlog_write's first iclog never
 * carries REQ_FUA (checked by mutation, session 24).
 */
Test(xfs_log_span, a_record_after_an_earlier_commit_record_is_fua_first)
{
	uint64_t flushes0;

	profile_no_fua();
	run_len(40000);
	flushes0 = st.flushes;
	cr_assert_eq(st.fua_bios, 1);
	earlier_tail = 1000;
	run_len(40000);
	earlier_tail = 0;
	/* 1 000 + 40 000 bytes: two iclogs and the commit iclog's rest. */
	cr_assert_eq(st.log_writes, 2, "%llu log writes",
		     (unsigned long long)st.log_writes);
	cr_assert_eq(st.preflush_bios, 2);
	cr_assert_eq(st.fua_bios, 2, "%llu FUA bios",
		     (unsigned long long)st.fua_bios);
	cr_assert_eq(st.flushes, flushes0 + 1, "%llu flushes, %llu from "
		     "an empty iclog", (unsigned long long)st.flushes,
		     (unsigned long long)flushes0);
}

Test(xfs_log_span, a_record_of_three_iclogs_flushes_only_its_first_and_commit)
{
	profile_no_fua();
	run_len(80000);
	cr_assert_eq(st.log_writes, 3, "%llu log writes",
		     (unsigned long long)st.log_writes);
	/* FLUSH + write, write, FLUSH + write + FLUSH. */
	cr_assert_eq(st.flushes, 3, "%llu flushes",
		     (unsigned long long)st.flushes);
	cr_assert_eq(st.preflush_bios, 2);
}

/*
 * The bytes come from the unwritten conversion (m_xfs_end_ioend_convert,
 * fs/xfs/xfs_iomap.c xfs_iomap_write_unwritten, v6.18): each run whose
 * conversion splits its unwritten extent adds log_convert_bytes to the
 * checkpoint; a run between written neighbours (a merge, no insertion)
 * adds none.  Eight single-block conversions of 5 000 bytes each: two
 * iclogs when each splits, one when each merges.  Fails when the bytes
 * are counted per conversion instead of per split, or not multiplied.
 */
static const char *convert_layout;

static void convert_eight_and_force(void *arg)
{
	struct km_inode *inode = m_world()->inodes[0];

	(void)arg;
	for (int b = 1; b <= 15; b += 2)
		m_xfs_end_ioend_convert(inode, (loff_t)b * PAGE_SIZE,
					PAGE_SIZE);
	r_force = km_xfs_log_force_seq(m_xfs_inode_item_seq(inode, true),
				       NULL);
	m_blkdev_timed_stats(&st);
}

static void setup_convert(void *unused)
{
	struct m_world_config c;

	(void)unused;
	m_world_config_default(&c);
	c.files[0].size = 32 * PAGE_SIZE;
	c.files[0].layout = convert_layout;
	m_world_setup(&c);
	cr_assert_eq(m_blkdev_attach_timed(&m_world()->dev, &P, 1, 7), 0);
	sim_task_spawn("t", convert_eight_and_force, NULL);
}

static void run_convert(const char *layout)
{
	static const struct sim_program prog = { .name = "xfs-log-convert",
						 .setup = setup_convert };
	struct m_cost_table table = m_cost_default.model;
	struct sim_outcome o;

	table.log_convert_bytes = 5000;
	m_cost_configure(&table);
	convert_layout = layout;
	r_force = -1;
	memset(&st, 0, sizeof(st));
	timed_test_run(&prog, &o);
	m_cost_configure(&m_cost_default.model);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
	cr_assert_eq(r_force, 0);
}

Test(xfs_log_span, splitting_conversions_fill_two_iclogs_merging_ones_none)
{
	profile_no_fua();
	/* All unwritten: blocks 1, 3, ... 15 each split their extent. */
	run_convert("UUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUU");
	cr_assert_eq(st.log_writes, 2, "splits: %llu log writes",
		     (unsigned long long)st.log_writes);
	/* Written neighbours: each conversion merges, no bytes. */
	run_convert("WUWUWUWUWUWUWUWUWUWUWUWUWUWUWUWU");
	cr_assert_eq(st.log_writes, 1, "merges: %llu log writes",
		     (unsigned long long)st.log_writes);
}
