// SPDX-License-Identifier: MIT
/*
 * model/fs/ext4/balloc.c - ext4's free-cluster count.
 *
 * Models fs/ext4/balloc.c of v6.18: ext4_has_free_clusters,
 * ext4_claim_free_clusters and ext4_should_retry_alloc, over the
 * counters s_freeclusters_counter (the world's free-space count,
 * m_world()->fdblocks: one filesystem's count per world, XFS's
 * m_fdblocks for XFS files, this for ext4 files) and
 * s_dirtyclusters_counter (claimed, not yet allocated: the model keeps
 * no such count, see below).  Kept only when the world's config asks
 * (fs_free_counted); without it nothing calls these functions.
 *
 * Leaves out (docs/model/enospc.md): bigalloc (a cluster is a block);
 * the root reserve (r_blocks_count) and s_resv_clusters (0 here: the
 * count a config gives is what statfs reports as available, f_bavail,
 * which already has them taken out); the dirty-clusters count, since the
 * model's ext4 has no delalloc and an allocation claims and takes its
 * clusters in one section (ext4_mb_new_blocks's claim is added to and
 * taken from s_dirtyclusters_counter around the allocation, and the
 * clusters from s_freeclusters_counter by ext4_mb_mark_diskspace_used:
 * here one subtraction from the free count); the journal (no
 * s_mb_free_pending: a freed block is free at once, so
 * ext4_should_retry_alloc never forces a commit); quotas.
 */
#include "model/fs/ext4.h"
#include "model/world.h"

/**
 * km_ext4_has_free_clusters - are @nclusters free for this caller?
 * Kernel: fs/ext4/balloc.c ext4_has_free_clusters, v6.18.
 * Context: any; one read of the count (the kernel's
 * percpu_counter_read_positive, and the exact sum near the watermark).
 * Return: true or false.
 * Divergences: no root reserve, reserved clusters or dirty clusters
 * (all 0: the opening comment), so @flags (EXT4_MB_USE_RESERVED) and the
 * caller's capabilities change nothing.
 */
bool km_ext4_has_free_clusters(int64_t nclusters, unsigned int flags)
{
	int64_t free_clusters = (int64_t)sim_word_read(&m_world()->fdblocks);
	int64_t dirty_clusters = 0, rsv = 0;

	(void)flags;
	if (free_clusters < 0)
		free_clusters = 0;	/* percpu_counter_read_positive */
	/* Space after the dirty clusters and the root's reserve? */
	return free_clusters >= rsv + nclusters + dirty_clusters;
}

/**
 * km_ext4_claim_free_clusters - claim @nclusters for an allocation.
 * Kernel: fs/ext4/balloc.c ext4_claim_free_clusters, v6.18.
 * Context: any.
 * Return: 0 (the clusters taken from the free count), or -ENOSPC.
 * Divergences: the claim is the allocation itself (no
 * s_dirtyclusters_counter; the opening comment): the clusters leave the
 * free count here, with an atomic add, and come back if the add took it
 * below 0 (a concurrent claim between the check and the add).
 */
int km_ext4_claim_free_clusters(int64_t nclusters, unsigned int flags)
{
	struct m_world *w = m_world();

	if (!km_ext4_has_free_clusters(nclusters, flags))
		return -KM_ENOSPC;
	if (sim_word_add(&w->fdblocks, -nclusters) >= 0)
		return 0;
	sim_word_add(&w->fdblocks, nclusters);
	return -KM_ENOSPC;
}

/**
 * km_ext4_should_retry_alloc - after -ENOSPC, is another try worth it?
 * Kernel: fs/ext4/balloc.c ext4_should_retry_alloc, v6.18.
 * Context: any.
 * Return: true to retry (at most 3 times: *@retries counts).
 * Divergences: no journal and no pending frees (s_mb_free_pending 0:
 * the model frees at once), so no commit is forced: the answer is
 * whether a cluster is free now (the kernel's branch for no pending
 * frees, without the discard work flush).
 */
bool km_ext4_should_retry_alloc(int *retries)
{
	if (!km_ext4_has_free_clusters(1, 0) || ++(*retries) > 3)
		return false;
	/* s_mb_free_pending == 0 */
	return km_ext4_has_free_clusters(1, 0);
}

/*
 * The clusters of @n blocks freed (ext4_free_blocks ->
 * ext4_mb_clear_bb: percpu_counter_add(s_freeclusters_counter)), when
 * the count is kept.
 */
void m_ext4_clusters_freed(unsigned long n)
{
	struct m_world *w = m_world();

	if (n && w && w->fdblocks_counted)
		sim_word_add_nr(&w->fdblocks, (int64_t)n);
}

bool m_ext4_clusters_counted(void)
{
	struct m_world *w = m_world();

	return w && w->fdblocks_counted;
}
