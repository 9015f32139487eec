// SPDX-License-Identifier: MIT
/*
 * model/fs/xfs/xfs_mount.c - XFS's free-space count (m_fdblocks).
 *
 * Models fs/xfs/xfs_mount.c of v6.18: xfs_dec_freecounter and
 * xfs_add_freecounter for the data device's counter XC_FREE_BLOCKS (the
 * header's xfs_dec_fdblocks and xfs_add_fdblocks, fs/xfs/xfs_mount.h,
 * are these two with ctr = XC_FREE_BLOCKS).  Every reservation and
 * allocation of data blocks takes from the count, every free gives back
 * to it; a reservation the count cannot cover is -ENOSPC.  The count is
 * the world's (m_world()->fdblocks), kept only when the world's config
 * asks for it (fs_free_counted: a scenario's `device: free_blocks=N`,
 * wpsim fio's --fs-size); without it nothing calls these functions and
 * every file has its room on the device, as before.
 *
 * Leaves out (docs/model/enospc.md): the realtime and zoned counters;
 * the reserve pool (m_resblks: xfs_reserve_blocks takes it out of the
 * count at mount, and only XFS_TRANS_RESERVE transactions dip into it,
 * none of which the model has: its pool is empty, as if mounted with a
 * 0 reserve); the set-aside (xfs_freecounter_unavailable:
 * m_alloc_set_aside + m_allocbt_blks, 0 here: the count a config gives
 * is the free space statfs reports, f_bfree, from which the kernel's
 * xfs_fs_statfs has already taken the set-aside); the per-CPU batches
 * (one word, so the compare is exact, as __percpu_counter_compare is
 * within a batch of the threshold); m_sb_lock (it orders the reserve
 * pool's updates, and there is no pool).
 */
#include "model/fs/xfs.h"
#include "model/linux/types.h"
#include "model/world.h"

/**
 * km_xfs_dec_freecounter - take @delta blocks from m_fdblocks.
 * Kernel: fs/xfs/xfs_mount.c xfs_dec_freecounter (ctr XC_FREE_BLOCKS,
 * from xfs_dec_fdblocks), v6.18.
 * Context: any; the count is an atomic add (the kernel's
 * percpu_counter_add_batch), and a second add gives the blocks back when
 * the first took the count below the set-aside.
 * Return: 0, or -ENOSPC (the count unchanged).
 * Divergences: the set-aside is 0 and the reserve pool is empty (the
 * file's opening comment), so @rsvd only changes which label is taken:
 * an rsvd caller finds the pool's res_avail 0 and fails as well.
 */
int km_xfs_dec_freecounter(uint64_t delta, bool rsvd)
{
	struct m_world *w = m_world();
	int64_t set_aside = 0;	/* xfs_freecounter_unavailable */

	/* break=fdblocks_lost_update (test only): a read and a write of
	 * the count, two steps; a reservation between them is lost. */
	if (m_broken(M_BREAK_FDBLOCKS_LOST_UPDATE)) {
		int64_t left = (int64_t)sim_word_read(&w->fdblocks) -
			       (int64_t)delta;

		if (left < set_aside)
			return -KM_ENOSPC;
		sim_word_write(&w->fdblocks, (uint64_t)left);
		return 0;
	}
	/* percpu_counter_add_batch(counter, -delta); the compare */
	if (sim_word_add(&w->fdblocks, -(int64_t)delta) >= set_aside)
		return 0;	/* we had space */
	/* Under m_sb_lock: give back the space that took us to ENOSPC,
	 * then dip into the reserve pool if allowed (empty here). */
	sim_word_add(&w->fdblocks, (int64_t)delta);
	if (!rsvd)
		goto fdblocks_enospc;
	/* lcounter = res_avail (0) - delta < 0 */
fdblocks_enospc:
	return -KM_ENOSPC;
}

/**
 * km_xfs_add_freecounter - give @delta blocks back to m_fdblocks.
 * Kernel: fs/xfs/xfs_mount.c xfs_add_freecounter (ctr XC_FREE_BLOCKS,
 * from xfs_add_fdblocks), v6.18.
 * Context: any; one atomic add.
 * Return: none.
 * Divergences: the reserve pool is never depleted (it is empty and never
 * used), so the blocks always go to the count (the kernel's likely
 * branch, res_avail == res_total).
 */
void km_xfs_add_freecounter(uint64_t delta)
{
	sim_word_add_nr(&m_world()->fdblocks, (int64_t)delta);
}

bool m_xfs_fdblocks_counted(void)
{
	struct m_world *w = m_world();

	return w && w->fdblocks_counted;
}
