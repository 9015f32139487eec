// SPDX-License-Identifier: MIT
/*
 * tests/model/fs/test_xfs_zero_eof_recheck.c - xfs_file_write_zero_eof
 * reads i_size again under i_flags_lock: a NOWAIT O_DIRECT write whose
 * unlocked test saw it start beyond EOF, and whose re-read finds EOF
 * raised to exactly its start by a concurrent extending O_DIRECT write's
 * completion, goes on (no zeroing needed) instead of returning -EAGAIN.
 *
 * Issue 30, test strength: seed 65519's #23 shifted the re-read's
 * `ki_pos <= isize` to `<` (model/fs/xfs/xfs_file.c) and survived: both
 * answers exist in both models (-EAGAIN when the completion comes after
 * the re-read), so only the schedule itself tells them apart.  This test
 * forces it (XFS, S_NOSEC, O_DIRECT, 4 KiB blocks, blocks 0-2 written,
 * i_size 4096):
 *   1. P0: pwritev2(f, 8192, 4096, RWF_NOWAIT): IOLOCK shared; the
 *      unlocked test in xfs_file_write_checks reads i_size 4096 < 8192.
 *   2. P1: pwrite(f, 4096, 4096): IOLOCK shared, the bio submitted; its
 *      completion (xfs_dio_write_end_io) raises i_size to 8192 under
 *      i_flags_lock; P1 returns 4096.
 *   3. P0: xfs_file_write_zero_eof re-reads i_size under i_flags_lock:
 *      8192 == ki_pos, nothing to zero; the write goes on into the
 *      written block 2 and returns 4096.
 * The schedule is found from a default run (P0's steps up to its
 * unlocked read, then P1's and its completion's, as they run there).
 * Kernel: fs/xfs/xfs_file.c xfs_file_write_checks,
 * xfs_file_write_zero_eof ("if (iocb->ki_pos <= isize) return 0" under
 * ip->i_flags_lock), xfs_dio_write_end_io, v6.18.
 */
#include <criterion/criterion.h>
#include <stdio.h>

#include "wpsim/harness.h"
#include "model/linux/syscalls.h"

static struct wpsim_race T;

static void nowait_write_at_8k(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_pwritev2(wpsim_file("f"), 8192, 4096, RWF_NOWAIT,
				    9, 0));
}

static void extend_to_8k(void *arg)
{
	(void)arg;
	wpsim_reg_set(0, m_pwritev2(wpsim_file("f"), 4096, 4096, 0, 8, 0));
}

static void race_init(void)
{
	wpsim_race_init(&T, "xfs-zero-eof-recheck");
	T.world.files[0].size = 4096;
	T.world.files[0].layout = "WWWH";
	T.world.files[0].nosec = true;
	T.world.files[0].open_flags = KM_O_DIRECT;
	wpsim_race_task(&T, "P0", nowait_write_at_8k, NULL);
	wpsim_race_task(&T, "P1", extend_to_8k, NULL);
}

Test(xfs_zero_eof, nowait_write_at_the_raised_eof_goes_on)
{
	const struct sim_event *ev;
	struct sim_outcome o;
	uint32_t n, isize_id, ilock_id, unlocked_read = 0, steps[3] = { 0 };
	uint32_t p1_before = 0, event_steps = 0, p1_after = 0;
	char schedule[96];

	/* Default run: P0 to its end first (-EAGAIN: it sees 4096 twice). */
	race_init();
	wpsim_race_replay(&T, "-", &o);
	cr_assert_eq(o.kind, SIM_OK, "%s", o.message);
	cr_assert_eq(wpsim_reg(0, 0), -KM_EAGAIN);
	cr_assert_eq(wpsim_reg(1, 0), 4096);
	isize_id = wpsim_file("f")->f_inode->i_size.id;
	ilock_id = wpsim_file("f")->f_inode->i_lock.word.id;
	n = sim_exec_events(&ev);
	/* P0's last read of i_size before it takes i_flags_lock. */
	for (uint32_t i = 0; i < n && ev[i].task == 0; i++) {
		if (ev[i].object == isize_id &&
		    ev[i].access == SIM_ACCESS_READ)
			unlocked_read = ev[i].step;
		if (ev[i].object == ilock_id &&
		    ev[i].access == SIM_ACCESS_ACQUIRE)
			break;
	}
	cr_assert_gt(unlocked_read, 0);
	/* The other tasks' steps in order: P1 up to its bio completion
	 * (task 2), the completion, P1's rest. */
	for (uint32_t i = 0; i < n; i++) {
		if (i > 0 && ev[i].step == ev[i - 1].step)
			continue;
		if (ev[i].task == 1 && !event_steps)
			p1_before++;
		else if (ev[i].task == 2)
			event_steps++;
		else if (ev[i].task == 1)
			p1_after++;
		if (ev[i].task < 3)
			steps[ev[i].task]++;
	}
	cr_assert_gt(event_steps, 0, "no completion task (steps %u %u %u)",
		     steps[0], steps[1], steps[2]);
	snprintf(schedule, sizeof(schedule), "0*%u.1*%u.2*%u.1*%u",
		 unlocked_read + 1, p1_before, event_steps, p1_after);
	race_init();
	wpsim_race_replay(&T, schedule, &o);
	cr_assert_eq(o.kind, SIM_OK, "%s: %s", schedule, o.message);
	cr_assert_eq(wpsim_reg(1, 0), 4096, "%s", schedule);
	cr_assert_eq(wpsim_reg(0, 0), 4096,
		     "%s: the NOWAIT write at the raised EOF returned %lld",
		     schedule, (long long)wpsim_reg(0, 0));
	cr_assert_eq(sim_word_peek(&wpsim_file("f")->f_inode->i_size), 12288);
}
