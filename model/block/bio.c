// SPDX-License-Identifier: MIT
/*
 * model/block/bio.c - bios and the block device, untimed.
 *
 * Models block/bio.c (bio_alloc, bio_add_folio, submit_bio_wait,
 * bio_endio) of v6.18, and the device below submit_bio
 * (model/block/blk-core.c) for what the write
 * path observes: a bio is submitted, then completes later, in any order
 * against everything else.  Completion is an engine event
 * (sim_event_post): the strategy decides when it runs, like an interrupt.
 * The device keeps one write id per 512-byte sector; a completion records
 * the sector range it reads or writes (sim_word_touch_range), so DPOR
 * sees transfers to disjoint sectors as independent.  A write's data is
 * copied from its folios when the completion runs (DMA reads the page
 * while the I/O is in flight, so a folio changed during writeback can
 * reach the disk — the stable-pages hazard).  Reads count 4 KiB device
 * page reads.
 *
 * Error injection: the Nth bio submitted (1-based), or any bio touching
 * a sector range, completes with -EIO and transfers nothing.
 *
 * Timed (m_blkdev_attach_timed, used by `wpsim fio --device NAME`): a
 * bio goes through blk-mq (model/block/blk-mq.c: hardware queue of the
 * submitter's CPU, a tag, the PREFLUSH/FUA plan) to the device model
 * (model/hw/nvme.c), and each step of the plan completes as an event at
 * the virtual time the device gives (sim_event_post_at), in interrupt
 * context; a request with PREFLUSH/POSTFLUSH steps goes through the
 * flush state machine of its hardware queue (model/block/blk-flush.c:
 * one flush in flight, shared by every request pending when it was
 * issued), which issues its data command and ends it.  No tag free: the
 * submitter sleeps on the hardware queue's tag wait queue and retries
 * (blk_mq_get_tag).  A write's data
 * reaches the sectors when its DATA step completes.  bi_end_io runs in
 * the interrupt (hardirq context: km_in_task() false,
 * model/kernel/softirq.c), or in a kworker task when the bio asks for
 * it (end_io_in_task: XFS's ioend workqueue, xfs_end_bio).  Untimed, an
 * end_io_in_task bio's bi_end_io runs in the completion event in task
 * context (standing in for the kworker); any other's in hardirq
 * context.  A bio without file data
 * (no_content: the XFS log's, model/fs/xfs/xfs_log.c) counts as a log
 * write.  docs/timed-mode.md.
 *
 * Splitting (km_bio_split, km_bio_chain, km_bio_endio: a parent ends
 * when its last piece does) serves model/block/blk-merge.c; a discard
 * bio zeroes its sectors (docs/model/block.md).
 *
 * Leaves out: merging, plugging, partial completion, power loss (a write the
 * device acknowledged is durable, cached or not: FLUSH and FUA cost
 * time, they do not change content), polled completions, sbitmap's wake
 * batching (one waiter woken per freed tag), I/O schedulers.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "model/block/blk-mq.h"
#include "model/block/blk-wbt.h"
#include "model/drivers/loop.h"
#include "model/linux/bio.h"
#include "model/drivers/virtio_blk.h"
#include "model/linux/fs.h"
#include "model/linux/pagemap.h"
#include "model/linux/preempt.h"
#include "model/linux/writeback.h"
#include "model/linux/workqueue.h"
#include "model/world.h"
#include "sim/arena.h"
#include "sim/clock.h"

/*
 * The timed device: the NVMe model and blk-mq's queue.  One engine word (queue) stands for the tag bitmaps and the
 * submission/completion queues: every tag allocation, device submission
 * and tag release is an access to it, so they are steps of their own.
 */
struct m_blk_timed {
	struct hw_nvme nvme;
	struct m_request_queue q;
	struct sim_word queue;
	struct sim_waitq *tag_wait;		/* [q.nr_hw_queues] */
	uint32_t nr_cpus;
	int32_t irq_cpu;			/* -1: none (irq_cpu absent) */
	struct m_blkdev_timed_stats stats;
	struct km_rq_wb *wbt;			/* NULL: no wbt_lat_usec */
	struct m_blk_flush_queue *fq;		/* [q.nr_hw_queues] */
	/* The loop device's worker, when the profile has one
	 * (loop_worker_ns): every command goes through it. */
	struct m_loop_device *loop;		/* NULL: none */
	/* The virtio disk below's ring and scheduler, when the profile
	 * has one (virtio_ring_descs): every command goes through it. */
	struct m_virtblk *vq;			/* NULL: none */
	/* m_blkdev_check: the flush queues' changes (each fq counts into
	 * fq_changes), the count its last pass over them saw, and whether
	 * that pass found every queue idle. */
	uint32_t fq_changes;
	uint32_t fq_checked;
	bool fq_idle;
};

/*
 * The device's content (struct m_dev_entry, struct m_dev_run in
 * model/linux/bio.h).  A long run's block starts sparse (dev->sparse):
 * one 4 KiB chunk (M_DEV_CHUNK sectors) written whole with one id, in
 * its entry (M_DEV_ONE: random 4 KiB writes scattered over a large
 * device cost an entry each), then a list of such chunks with their
 * offsets (M_DEV_LIST), the others holding the block's fill id; at most
 * DEV_SPARSE_MAX chunks (164 bytes), then an id per chunk (M_DEV_CHUNKS:
 * 256 bytes, where a dense block, an id per sector, is 2 KiB; issue 28:
 * 4 KiB writes that fill a block made it dense, 8 MiB for a 1 GiB
 * file's device).  A write of part of a chunk, or of different ids
 * within one, makes the block dense.
 */
#define M_DEV_LIST		1UL
#define M_DEV_ONE		2UL
#define M_DEV_CHUNKS		4UL
#define M_DEV_TAGS		7UL
#define DEV_CHUNKS		(M_DEV_BLOCK / M_DEV_CHUNK)
#define DEV_SPARSE_MAX		32
#define DEV_SPARSE_FIRST	2
/* A write of at least this many whole blocks with one id sets runs (a
 * file's layout at setup), not entries. */
#define DEV_RUN_MIN		16

_Static_assert(sizeof(uintptr_t) == 8, "an entry holds a chunk's id");
_Static_assert(M_DEV_BLOCK / M_DEV_CHUNK <= 256, "a chunk's offset fits");

/* Then, 4-aligned, the ids (dev_sparse_ids): [cap]. */
struct m_dev_sparse {
	uint8_t n, cap;
	uint8_t off[];			/* [cap]: chunk - block's first */
};

static struct m_dev_sparse *dev_sparse(uintptr_t ids)
{
	return (struct m_dev_sparse *)(ids & ~M_DEV_LIST);
}

static size_t dev_sparse_ids_at(unsigned int cap)
{
	return (sizeof(struct m_dev_sparse) + cap + 3) & ~(size_t)3;
}

static uint32_t *dev_sparse_ids(const struct m_dev_sparse *sp)
{
	return (uint32_t *)((uintptr_t)sp + dev_sparse_ids_at(sp->cap));
}

static size_t dev_sparse_bytes(unsigned int cap)
{
	return dev_sparse_ids_at(cap) + cap * sizeof(uint32_t);
}

static inline uintptr_t dev_one(unsigned int c, uint32_t id)
{
	return ((uintptr_t)id << 32) | ((uintptr_t)c << 8) | M_DEV_ONE;
}

static inline unsigned int dev_one_chunk(uintptr_t ids)
{
	return (unsigned int)((ids >> 8) & 0xff);
}

static inline uint32_t dev_one_id(uintptr_t ids)
{
	return (uint32_t)(ids >> 32);
}

static bool dev_dense(uintptr_t ids)
{
	return ids && !(ids & M_DEV_TAGS);
}

/* The ids of a block held by chunk (M_DEV_CHUNKS): [DEV_CHUNKS]. */
static uint32_t *dev_chunks(uintptr_t ids)
{
	return (uint32_t *)(ids & ~M_DEV_TAGS);
}

unsigned long m_dev_direct_max = M_DEV_DIRECT_MAX;

void m_blkdev_init(struct m_blkdev *dev, sector_t nr_sectors)
{
	dev->nr_sectors = nr_sectors;
	dev->blocks = (nr_sectors + M_DEV_BLOCK - 1) >> M_DEV_BLOCK_SHIFT;
	if (dev->blocks >= UINT32_MAX)
		sim_fail(SIM_FAIL_BOUND, "a device of %llu sectors: the "
			 "model's content table holds 2^32 - 1 blocks of 256 "
			 "KiB at most", (unsigned long long)nr_sectors);
	m_queue_limits_default(&dev->limits);
	dev->runs = sim_arena_alloc(sizeof(*dev->runs));
	dev->nr_runs = 1;		/* every block: zeroes */
	dev->data = NULL;
	dev->data_mask = 0;
	dev->data_count = 0;
	dev->data_direct = dev->blocks <= m_dev_direct_max;
	if (dev->data_direct && dev->blocks) {
		dev->data = sim_arena_alloc(dev->blocks * sizeof(*dev->data));
		dev->data_mask = (uint32_t)dev->blocks - 1;
	}
	sim_word_init(&dev->data_version, 0, "dev.data");
	sim_word_init(&dev->bios_submitted, 0, "dev.bios");
	sim_word_init(&dev->reads, 0, "dev.reads");
	sim_word_init(&dev->writes, 0, "dev.writes");
}

/* The id of block @b's run. */
static uint32_t dev_run_id(const struct m_blkdev *dev, uint64_t b)
{
	uint32_t lo = 0, hi = dev->nr_runs;	/* runs[lo].first <= b */

	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (dev->runs[mid].first <= b)
			lo = mid;
		else
			hi = mid;
	}
	return dev->runs[lo].id;
}

static inline uint32_t dev_home(const struct m_blkdev *dev, uint32_t key)
{
	return (uint32_t)(key * 0x9e3779b1u) >> dev->data_shift;
}

/* The entry of block @b, or the free one where it would go (a table
 * there is). */
static inline uint32_t dev_find(const struct m_blkdev *dev, uint64_t b)
{
	uint32_t key = (uint32_t)b + 1, h;

	if (dev->data_direct)
		return (uint32_t)b;
	h = dev_home(dev, key);
	while (dev->data[h].key && dev->data[h].key != key)
		h = (h + 1) & dev->data_mask;
	return h;
}

/* Block @b's entry, or NULL: it holds its run's id. */
static inline const struct m_dev_entry *dev_entry_peek(
	const struct m_blkdev *dev, uint64_t b)
{
	const struct m_dev_entry *e;

	if (!dev->data_count)
		return NULL;
	e = &dev->data[dev_find(dev, b)];
	return e->key ? e : NULL;
}

/* The id of sector @k of a block whose entry holds @ids and @fill. */
static inline uint32_t dev_entry_sector(uintptr_t ids, uint32_t fill,
					sector_t k)
{
	if (!ids)
		return fill;
	if (ids & M_DEV_ONE)
		return dev_one_chunk(ids) == (k >> M_DEV_CHUNK_SHIFT) ?
		       dev_one_id(ids) : fill;
	if (ids & M_DEV_CHUNKS)
		return dev_chunks(ids)[k >> M_DEV_CHUNK_SHIFT];
	if (ids & M_DEV_LIST) {
		const struct m_dev_sparse *sp = dev_sparse(ids);
		unsigned int c = (unsigned int)(k >> M_DEV_CHUNK_SHIFT);

		for (unsigned int i = 0; i < sp->n; i++)
			if (sp->off[i] == c)
				return dev_sparse_ids(sp)[i];
		return fill;
	}
	return ((const uint32_t *)ids)[k];
}

uint32_t m_dev_data(const struct m_blkdev *dev, sector_t s)
{
	uint64_t b = s >> M_DEV_BLOCK_SHIFT;
	const struct m_dev_entry *e = dev_entry_peek(dev, b);

	if (!e)
		return dev_run_id(dev, b);
	return dev_entry_sector(e->ids, e->fill, s & (M_DEV_BLOCK - 1));
}

/* Room for one more entry: made, or doubled past 3/4 full. */
static void dev_room(struct m_blkdev *dev)
{
	struct m_dev_entry *old = dev->data;
	uint32_t old_size = old ? dev->data_mask + 1 : 0, size;

	if (dev->data_direct)
		return;		/* an entry for every block */
	if (old && 4 * ((uint64_t)dev->data_count + 1) <= 3 * (uint64_t)old_size)
		return;
	size = old ? 2 * old_size : 8;
	dev->data = sim_arena_alloc(size * sizeof(*dev->data));
	dev->data_mask = size - 1;
	dev->data_shift = 32 - (unsigned int)__builtin_ctz(size);
	for (uint32_t h = 0; h < old_size; h++)
		if (old[h].key)
			dev->data[dev_find(dev, old[h].key - 1)] = old[h];
	if (old)
		sim_arena_free(old, old_size * sizeof(*old));
}

/* Block @b's entry, made (its run's id, no ids) if it has none; valid
 * until the next entry is made. */
static struct m_dev_entry *dev_entry(struct m_blkdev *dev, uint64_t b)
{
	uint32_t h;

	if (dev->data) {
		h = dev_find(dev, b);
		if (dev->data[h].key)
			return &dev->data[h];
	}
	dev_room(dev);
	h = dev_find(dev, b);
	dev->data[h].key = (uint32_t)b + 1;
	dev->data[h].fill = dev_run_id(dev, b);
	dev->data[h].ids = 0;
	dev->data_count++;
	return &dev->data[h];
}

static void dev_ids_free(uintptr_t ids)
{
	if (!ids || (ids & M_DEV_ONE))
		return;
	if (ids & M_DEV_LIST)
		sim_arena_free(dev_sparse(ids),
			       dev_sparse_bytes(dev_sparse(ids)->cap));
	else if (ids & M_DEV_CHUNKS)
		sim_arena_free(dev_chunks(ids), DEV_CHUNKS * sizeof(uint32_t));
	else
		sim_arena_free((void *)ids, M_DEV_BLOCK * sizeof(uint32_t));
}

/* Entry @e leaves the table (its ids freed): the run after it shifts
 * back over the hole where a key's home is not in (i, j]. */
static void dev_entry_remove(struct m_blkdev *dev, struct m_dev_entry *e)
{
	uint32_t i = (uint32_t)(e - dev->data), j = i;

	dev_ids_free(e->ids);
	e->key = 0;
	dev->data_count--;
	if (dev->data_direct)
		return;		/* every entry at its block */
	for (;;) {
		uint32_t home;

		j = (j + 1) & dev->data_mask;
		if (!dev->data[j].key)
			return;
		home = dev_home(dev, dev->data[j].key);
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		dev->data[i] = dev->data[j];
		dev->data[j].key = 0;
		i = j;
	}
}

/* An entry that holds only its run's id goes. */
static void dev_entry_maybe_remove(struct m_blkdev *dev,
				   struct m_dev_entry *e)
{
	if (!e->ids && e->fill == dev_run_id(dev, e->key - 1))
		dev_entry_remove(dev, e);
}

/*
 * Blocks [@first, @end) := @id, as runs: their entries go, the runs
 * in the range are replaced by one (merged with equal neighbours), the
 * block at @end keeps its id.
 */
static void dev_runs_set(struct m_blkdev *dev, uint64_t first, uint64_t end,
			 uint32_t id)
{
	uint32_t end_id = end < dev->blocks ? dev_run_id(dev, end) : id;
	struct m_dev_run *runs = sim_arena_alloc((dev->nr_runs + 2) *
						 sizeof(*runs));
	uint32_t n = 0;

	/* The entries in the range: a look-up each, or a pass over the
	 * table when it is the smaller. */
	if (dev->data_count && end - first <= dev->data_mask + 1) {
		for (uint64_t b = first; b < end && b < dev->blocks; b++) {
			uint32_t h = dev_find(dev, b);

			if (dev->data[h].key)
				dev_entry_remove(dev, &dev->data[h]);
		}
	} else if (dev->data_count) {
		for (uint32_t h = 0; h <= dev->data_mask; h++) {
			uint64_t b = dev->data[h].key - 1ULL;

			/* (a removal moves a later entry back to h) */
			while (dev->data[h].key && b >= first && b < end) {
				dev_entry_remove(dev, &dev->data[h]);
				b = dev->data[h].key - 1ULL;
			}
		}
	}
	for (uint32_t r = 0; r < dev->nr_runs && dev->runs[r].first < first;
	     r++)
		runs[n++] = dev->runs[r];
	if (!n || runs[n - 1].id != id)
		runs[n++] = (struct m_dev_run){ first, id };
	if (end < dev->blocks && end_id != id)
		runs[n++] = (struct m_dev_run){ end, end_id };
	for (uint32_t r = 0; r < dev->nr_runs; r++) {
		if (dev->runs[r].first <= end)
			continue;
		if (runs[n - 1].id != dev->runs[r].id)
			runs[n++] = dev->runs[r];
	}
	sim_arena_free(dev->runs, dev->nr_runs * sizeof(*dev->runs));
	dev->runs = runs;
	dev->nr_runs = n;
}

/* Entry @e's block made dense: its sectors hold its fill id, or its
 * chunks. */
static uint32_t *dev_block_make(struct m_dev_entry *e)
{
	uintptr_t ids = e->ids;
	uint32_t *block;

	if (dev_dense(ids))
		return (uint32_t *)ids;
	block = sim_arena_alloc(M_DEV_BLOCK * sizeof(*block));
	for (sector_t k = 0; k < M_DEV_BLOCK; k++)
		block[k] = e->fill;
	if (ids & M_DEV_ONE) {
		for (sector_t k = 0; k < M_DEV_CHUNK; k++)
			block[((sector_t)dev_one_chunk(ids) <<
			       M_DEV_CHUNK_SHIFT) + k] = dev_one_id(ids);
	} else if (ids & M_DEV_CHUNKS) {
		for (sector_t k = 0; k < M_DEV_BLOCK; k++)
			block[k] = dev_chunks(ids)[k >> M_DEV_CHUNK_SHIFT];
	} else if (ids) {
		const struct m_dev_sparse *sp = dev_sparse(ids);

		for (unsigned int i = 0; i < sp->n; i++)
			for (sector_t k = 0; k < M_DEV_CHUNK; k++)
				block[((sector_t)sp->off[i] <<
				       M_DEV_CHUNK_SHIFT) + k] =
					dev_sparse_ids(sp)[i];
	}
	dev_ids_free(ids);
	e->ids = (uintptr_t)block;
	return block;
}

/*
 * Chunk @c of entry @e := @id in a sparse block (made, grown); false
 * when the block is dense or must become dense.
 */
static bool dev_sparse_set(struct m_blkdev *dev, struct m_dev_entry *e,
			   unsigned int c, uint32_t id)
{
	uintptr_t ids = e->ids;
	struct m_dev_sparse *sp;

	if (!dev->sparse || dev_dense(ids))
		return false;
	if (ids & M_DEV_CHUNKS) {
		dev_chunks(ids)[c] = id;
		return true;
	}
	if (!ids) {
		if (id != e->fill)
			e->ids = dev_one(c, id);
		return true;
	}
	if (ids & M_DEV_ONE) {
		if (dev_one_chunk(ids) == c) {
			e->ids = dev_one(c, id);
			return true;
		}
		sp = sim_arena_alloc(dev_sparse_bytes(DEV_SPARSE_FIRST));
		sp->cap = DEV_SPARSE_FIRST;
		sp->n = 1;
		sp->off[0] = (uint8_t)dev_one_chunk(ids);
		dev_sparse_ids(sp)[0] = dev_one_id(ids);
		e->ids = (uintptr_t)sp | M_DEV_LIST;
	}
	sp = dev_sparse(e->ids);
	for (unsigned int i = 0; i < sp->n; i++) {
		if (sp->off[i] == c) {
			dev_sparse_ids(sp)[i] = id;
			return true;
		}
	}
	if (sp->n == DEV_SPARSE_MAX) {
		/* An id per chunk from now on. */
		uint32_t *chunks = sim_arena_alloc(DEV_CHUNKS *
						   sizeof(*chunks));

		for (unsigned int k = 0; k < DEV_CHUNKS; k++)
			chunks[k] = e->fill;
		for (unsigned int i = 0; i < sp->n; i++)
			chunks[sp->off[i]] = dev_sparse_ids(sp)[i];
		chunks[c] = id;
		sim_arena_free(sp, dev_sparse_bytes(sp->cap));
		e->ids = (uintptr_t)chunks | M_DEV_CHUNKS;
		return true;
	}
	if (sp->n == sp->cap) {
		unsigned int cap = 2u * sp->cap;
		struct m_dev_sparse *bigger =
			sim_arena_alloc(dev_sparse_bytes(cap));

		bigger->cap = (uint8_t)cap;
		bigger->n = sp->n;
		for (unsigned int i = 0; i < sp->n; i++) {
			bigger->off[i] = sp->off[i];
			dev_sparse_ids(bigger)[i] = dev_sparse_ids(sp)[i];
		}
		sim_arena_free(sp, dev_sparse_bytes(sp->cap));
		sp = bigger;
		e->ids = (uintptr_t)sp | M_DEV_LIST;
	}
	sp->off[sp->n] = (uint8_t)c;
	dev_sparse_ids(sp)[sp->n++] = id;
	return true;
}

/* Whether @ids[0..M_DEV_CHUNK) are one id. */
static bool chunk_uniform(const uint32_t *ids)
{
	for (sector_t k = 1; k < M_DEV_CHUNK; k++)
		if (ids[k] != ids[0])
			return false;
	return true;
}

void m_dev_data_set(struct m_blkdev *dev, sector_t s, sector_t n,
		    uint32_t id)
{
	while (n) {
		uint64_t b = s >> M_DEV_BLOCK_SHIFT;
		sector_t k = s & (M_DEV_BLOCK - 1);
		sector_t len = M_DEV_BLOCK - k < n ? M_DEV_BLOCK - k : n;
		const struct m_dev_entry *peek;
		struct m_dev_entry *e;
		sector_t i = 0;

		if (!k && n >= DEV_RUN_MIN * M_DEV_BLOCK) {
			/* Whole blocks, many: runs. */
			uint64_t nb = n >> M_DEV_BLOCK_SHIFT;

			dev_runs_set(dev, b, b + nb, id);
			s += nb << M_DEV_BLOCK_SHIFT;
			n -= nb << M_DEV_BLOCK_SHIFT;
			continue;
		}
		peek = dev_entry_peek(dev, b);
		if (len == M_DEV_BLOCK && !peek && dev_run_id(dev, b) == id) {
			/* Holds @id already. */
		} else if (len == M_DEV_BLOCK) {
			/* The whole block: a fill id again. */
			e = dev_entry(dev, b);
			dev_ids_free(e->ids);
			e->ids = 0;
			e->fill = id;
			dev_entry_maybe_remove(dev, e);
		} else if (peek ? peek->ids || peek->fill != id :
			   dev_run_id(dev, b) != id) {
			e = dev_entry(dev, b);
			/* Whole chunks into a sparse block while it can. */
			while (i < len && !((k + i) & (M_DEV_CHUNK - 1)) &&
			       len - i >= M_DEV_CHUNK &&
			       dev_sparse_set(dev, e, (unsigned int)
					      ((k + i) >> M_DEV_CHUNK_SHIFT),
					      id))
				i += M_DEV_CHUNK;
			if (i < len) {
				uint32_t *block = dev_block_make(e);

				for (; i < len; i++)
					block[k + i] = id;
			}
		}
		s += len;
		n -= len;
	}
}

void m_dev_data_write(struct m_blkdev *dev, sector_t s, const uint32_t *ids,
		      sector_t n)
{
	while (n) {
		uint64_t b = s >> M_DEV_BLOCK_SHIFT;
		sector_t k = s & (M_DEV_BLOCK - 1);
		sector_t len = M_DEV_BLOCK - k < n ? M_DEV_BLOCK - k : n;
		struct m_dev_entry *e = dev_entry(dev, b);
		sector_t i = 0;

		while (i < len && !((k + i) & (M_DEV_CHUNK - 1)) &&
		       len - i >= M_DEV_CHUNK && chunk_uniform(ids + i) &&
		       dev_sparse_set(dev, e, (unsigned int)
				      ((k + i) >> M_DEV_CHUNK_SHIFT), ids[i]))
			i += M_DEV_CHUNK;
		if (i < len)
			memcpy(dev_block_make(e) + k + i, ids + i,
			       (len - i) * sizeof(*ids));
		else
			dev_entry_maybe_remove(dev, e);
		ids += len;
		s += len;
		n -= len;
	}
}

/*
 * Sectors [@s, @s + @n): into @ids, or (@ids NULL) whether they all hold
 * @id (false at the first that does not).
 */
static bool dev_data_walk(const struct m_blkdev *dev, sector_t s,
			  sector_t n, uint32_t *ids, uint32_t id)
{
	while (n) {
		uint64_t b = s >> M_DEV_BLOCK_SHIFT;
		sector_t k = s & (M_DEV_BLOCK - 1);
		sector_t len = M_DEV_BLOCK - k < n ? M_DEV_BLOCK - k : n;
		const struct m_dev_entry *e = dev_entry_peek(dev, b);
		uintptr_t bids = e ? e->ids : 0;
		uint32_t fill = e ? e->fill : dev_run_id(dev, b);

		for (sector_t i = 0; i < len; i++) {
			uint32_t got = dev_entry_sector(bids, fill, k + i);

			if (ids)
				*ids++ = got;
			else if (got != id)
				return false;
		}
		s += len;
		n -= len;
	}
	return true;
}

void m_dev_data_read(const struct m_blkdev *dev, sector_t s, uint32_t *ids,
		     sector_t n)
{
	dev_data_walk(dev, s, n, ids, 0);
}

void m_dev_data_read_folio(const struct m_blkdev *dev, sector_t s,
			   struct km_folio *folio, size_t first, sector_t n)
{
	uint32_t id;

	if (!n)
		return;
	id = m_dev_data(dev, s);
	if (dev_data_walk(dev, s, n, NULL, id))
		m_folio_fill(folio, first, n, id);	/* one id, no array */
	else
		m_dev_data_read(dev, s, m_folio_ids(folio) + first, n);
}

/*
 * m_blkdev_check - invariants of the device, after every step.
 *  1. reads and writes never exceed the bios submitted;
 *  2. timed: each hardware queue's flush queue holds its invariants
 *     (m_blk_flush_queue_check).
 * Not checked: content (the model's cross-module checks compare it).
 *
 * Invariant 2 is skipped when the last pass found every flush queue
 * idle (no flush in flight, both lists empty) and no queue changed
 * since: an idle queue's check reads only its indexes and list heads,
 * every writer of those (model/block/blk-flush.c) counts into
 * t->fq_changes first (fq_changed), so they hold what the last pass
 * passed.  A device without a volatile write cache never uses its
 * flush queues, and O_DIRECT QD1 runs ~43 steps an I/O over 8 queues.
 * Under m_world_check_verify every step runs the pass and fails when
 * the skip would have passed a queue that is not idle.
 */
/* The flush queues' part of m_blkdev_check, out of line (its common
 * case passes them: no registers saved for it). */
static __attribute__((noinline)) void blkdev_check_flush_queues(
	struct m_blk_timed *t)
{
	bool skip = t->fq_changes == t->fq_checked && t->fq_idle;
	bool idle = true;

	for (uint32_t i = 0; i < t->q.nr_hw_queues; i++) {
		m_blk_flush_queue_check(&t->fq[i]);
		idle = idle && m_blk_flush_queue_idle(&t->fq[i]);
	}
	SIM_CHECK(!skip || idle, "device: a flush queue changed "
		  "uncounted (the check's skip would pass it)");
	t->fq_idle = idle;
	t->fq_checked = t->fq_changes;
}

void m_blkdev_check(void *arg)
{
	struct m_blkdev *dev = arg;
	struct m_blk_timed *t = dev->timed;
	uint64_t bios = sim_word_peek(&dev->bios_submitted);
	/* A bio's pages: a piece of max_sectors (every bio is split to it:
	 * model/block/blk-merge.c), plus one for a start inside a page; at
	 * least M_BIO_VECS_MAX folios of 16 pages. */
	uint64_t per_bio = (dev->limits.max_sectors >> 3) + 1;

	if (per_bio < M_BIO_VECS_MAX * 16)
		per_bio = M_BIO_VECS_MAX * 16;
	/* The two words it reads, tagged (sim_check_watch_tagged): here,
	 * so that a word made again (an _init, logged) is tagged again by
	 * the round after it. */
	dev->bios_submitted.tag = M_WORD_TAG_DEV;
	dev->writes.tag = M_WORD_TAG_DEV;
	SIM_CHECK(sim_word_peek(&dev->writes) <= bios * per_bio,
		  "device: %llu page writes from %llu bios",
		  (unsigned long long)sim_word_peek(&dev->writes),
		  (unsigned long long)bios);
	if (t && (t->fq_changes != t->fq_checked || !t->fq_idle ||
		  m_world_check_verify))
		blkdev_check_flush_queues(t);
}

/*
 * The device's check with its watch (sim_check_register_watch, issue
 * 28, session 18).  m_blkdev_check reads two words (a store changes
 * them: the engine calls it after any step that logged one) and, on a
 * timed device, the flush queues, which it passes while they are idle
 * (fq_idle, its own) and fq_changes is what its last call saw (every
 * writer of a queue counts into it first, fq_changed).  So untimed its
 * watch is the words alone; m_blkdev_attach_timed sets the flag and the
 * count (blkdev_check_watch).  Under m_world_check_verify it looks at
 * the queues every step: no watch.
 */
static const bool blkdev_untimed_quiet = true;

void m_blkdev_check_register(struct m_blkdev *dev)
{
	sim_check_register_watch("device", m_blkdev_check, NULL, dev,
				 m_world_check_verify ? NULL :
				 &blkdev_untimed_quiet);
	/* Its words and the flush queues' counts: no untagged word. */
	dev->bios_submitted.tag = M_WORD_TAG_DEV;
	dev->writes.tag = M_WORD_TAG_DEV;
	sim_check_watch_tag(m_blkdev_check, dev, M_WORD_TAG_DEV);
}

static void blkdev_check_watch(struct m_blkdev *dev)
{
	struct m_blk_timed *t = dev->timed;

	if (!m_world_check_verify)
		sim_check_watch_set(m_blkdev_check, dev, &t->fq_idle);
}

void m_blkdev_dump(void *arg, FILE *out)
{
	struct m_blkdev *dev = arg;
	sector_t used = 0;

	for (sector_t s = 0; s < dev->nr_sectors; s++)
		if (m_dev_data(dev, s))
			used = s + 1;
	fprintf(out, "device: %llu bios, %llu page reads, %llu page writes\n",
		(unsigned long long)sim_word_peek(&dev->bios_submitted),
		(unsigned long long)sim_word_peek(&dev->reads),
		(unsigned long long)sim_word_peek(&dev->writes));
	for (sector_t s = 0; s < used; s += SECTORS_PER_PAGE) {
		fprintf(out, "  sector %4llu:", (unsigned long long)s);
		for (sector_t k = s; k < s + SECTORS_PER_PAGE && k < used; k++)
			fprintf(out, " %u", m_dev_data(dev, k));
		fputc('\n', out);
	}
}

/**
 * km_bio_alloc_bioset - a new bio with room for @nr_vecs bvecs.
 * Kernel: block/bio.c bio_alloc_bioset, v6.18 (bio_alloc with nr_vecs):
 * up to BIO_INLINE_VECS in the bio itself, more from bvec_alloc's
 * biovec slabs; bi_max_vecs is what the caller asked for.
 * Never fails in the model.
 * Divergences: the bio keeps M_BIO_VECS_MAX (16) inline where the
 * kernel keeps BIO_INLINE_VECS (4); a larger table is exactly @nr_vecs
 * long (the kernel's slab rounds it up to 16, 64, 128 or 256, and
 * bi_max_vecs becomes that size): every caller here asks for 16 or for
 * BIO_MAX_VECS, which the two agree on; no bdev, gfp or bio_set
 * arguments (the world has one device; the arena never fails), the
 * sector set here (the kernel's callers set bi_iter.bi_sector after).
 * The bio's fields before its inline bvecs are zeroed where bio_init
 * sets each one (the model's bio has more fields, each zero when new);
 * the bvecs, inline or in the table, are not cleared, as bvec_alloc's
 * slab memory and the bio's inline_vecs are not (a bvec is read only
 * below vcnt, after km_bio_add_folio or the split wrote it): a bio the
 * arena recycles keeps the old bvecs there (issue 28, session 24: a
 * writeback bio's 6 KiB table was zeroed per bio).
 */
struct km_bio *km_bio_alloc_bioset(enum km_req_op op, unsigned int opf,
				   sector_t sector, unsigned int nr_vecs)
{
	struct km_bio *bio = sim_arena_alloc_head(sizeof(*bio),
					offsetof(struct km_bio, inline_vec));

	SIM_ASSERT_MSG(nr_vecs <= BIO_MAX_VECS, "bio of %u bvecs", nr_vecs);
	bio->op = op;
	bio->opf = opf;
	bio->sector = sector;
	if (nr_vecs <= M_BIO_VECS_MAX) {
		bio->vec = bio->inline_vec;
		bio->max_vecs = M_BIO_VECS_MAX;
	} else {
		bio->vec = sim_arena_alloc_head(nr_vecs * sizeof(*bio->vec),
						0);
		bio->max_vecs = nr_vecs;
	}
	sim_completion_init_static(&bio->done, "bio.done", "bio.done.wait");
	return bio;
}

/**
 * km_bio_alloc - a new bio.
 * Kernel: block/bio.c bio_alloc, v6.18.  Never fails in the model.
 * Divergences: the bvec table is M_BIO_VECS_MAX (16) long whatever
 * the caller would ask for (km_bio_alloc_bioset for more).
 */
struct km_bio *km_bio_alloc(enum km_req_op op, unsigned int opf,
			    sector_t sector)
{
	return km_bio_alloc_bioset(op, opf, sector, M_BIO_VECS_MAX);
}

/**
 * km_bio_add_folio - add a folio range to a bio.
 * Kernel: block/bio.c bio_add_folio, v6.18 (with bio_add_page).
 * Return: false when the bio has no room: bi_max_vecs bvecs.
 * Divergences: bio_add_page's bi_size test (UINT_MAX) is left out: a
 * model bio holds at most BIO_MAX_VECS ranges of one folio each, far
 * below 4 GiB; no bvec_try_merge_page: a range never joins the last
 * bvec (the model's folios have no physical address; the kernel merges
 * a page that follows the last one in memory, so its bio can hold more
 * than bi_max_vecs pages and its segments reach max_segment_size:
 * docs/model/bio.md "Bio size").
 */
bool km_bio_add_folio(struct km_bio *bio, struct km_folio *folio, size_t len,
		      size_t offset)
{
	if (bio->vcnt >= bio->max_vecs)
		return false;
	bio->vec[bio->vcnt++] = (struct km_bio_vec){ folio, offset, len };
	return true;
}

unsigned int m_bio_iter_vcnt(const struct km_bio *bio)
{
	return bio->vcnt - bio->vec_idx;
}

struct km_bio_vec m_bio_iter_vec(const struct km_bio *bio, unsigned int k)
{
	struct km_bio_vec v = bio->vec[bio->vec_idx + k];

	if (!k) {
		v.offset += bio->vec_done;
		v.len -= bio->vec_done;
	}
	return v;
}

size_t m_bio_size(const struct km_bio *bio)
{
	size_t bytes = bio->zero_len + bio->dio_len + bio->discard_len;

	for (unsigned int k = 0; k < m_bio_iter_vcnt(bio); k++)
		bytes += m_bio_iter_vec(bio, k).len;
	return bytes;
}

static bool bio_fails(struct m_blkdev *dev, const struct km_bio *bio)
{
	sector_t last = bio->sector + (m_bio_size(bio) >> SECTOR_SHIFT) - 1;

	if (dev->fail_nth_bio && bio->index == dev->fail_nth_bio)
		return true;
	return dev->fail_range && bio->sector <= dev->fail_sector_last &&
	       last >= dev->fail_sector_first;
}

/*
 * A direct read's DMA into the user buffer (bio->dio_out): the device's
 * ids of the bio's sectors, no folio.  The buffer is the reader's own
 * memory, not shared state.  Return: the sectors transferred.
 */
static sector_t bio_transfer_dio_read(struct m_blkdev *dev,
				      const struct km_bio *bio)
{
	sector_t n = bio->dio_len >> SECTOR_SHIFT;

	m_dev_data_read(dev, bio->sector, bio->dio_out, n);
	return n;
}

/* The transfer of a data bio: sectors and folios, or the -EIO status. */
static void bio_transfer(struct km_bio *bio)
{
	struct m_blkdev *dev = &m_world()->dev;
	sector_t sector = bio->sector;
	sector_t last = sector + (m_bio_size(bio) >> SECTOR_SHIFT) - 1;

	SIM_ASSERT_MSG(m_bio_size(bio) >= SECTOR_SIZE, "empty bio");
	size_t pages = (m_bio_size(bio) + PAGE_SIZE - 1) >> PAGE_SHIFT;

	if (bio_fails(dev, bio)) {
		bio->status = -KM_EIO;
	} else if (bio->op == REQ_OP_DISCARD) {
		/*
		 * The device deallocates the sectors; later reads return
		 * zeroes (an assumption: NVMe's DLFEAT "read zeroes", what
		 * fio's trim_verify_zero expects; docs/model/block.md).
		 */
		sim_word_touch_range(&dev->data_version, SIM_ACCESS_WRITE,
				     (uint32_t)sector, (uint32_t)last);
		m_dev_data_set(dev, sector, last - sector + 1, 0);
	} else if (bio->op == REQ_OP_WRITE) {
		/*
		 * The DMA, one step: sectors [sector, last] change and the
		 * bio's folios are read, all at this point.
		 */
		sim_word_touch_range(&dev->data_version, SIM_ACCESS_WRITE,
				     (uint32_t)sector, (uint32_t)last);
		if (bio->zero_len || bio->dio_len) {
			size_t n = (bio->zero_len + bio->dio_len) >>
				   SECTOR_SHIFT;

			m_dev_data_set(dev, sector, n, bio->zero_len ? 0 :
				       bio->data_id);
			sector += n;
		}
		for (unsigned int k = 0; k < m_bio_iter_vcnt(bio); k++) {
			const struct km_bio_vec v = m_bio_iter_vec(bio, k);

			sim_word_read_also(&v.folio->data_version);
			if (M_FOLIO_IS_ONE(v.folio->content))
				m_dev_data_set(dev, sector,
					       v.len >> SECTOR_SHIFT,
					       m_folio_sector(v.folio, 0));
			else
				m_dev_data_write(dev, sector,
						 m_folio_ids(v.folio) +
						 (v.offset >> SECTOR_SHIFT),
						 v.len >> SECTOR_SHIFT);
			sector += v.len >> SECTOR_SHIFT;
		}
		sim_word_add_nr(&dev->writes, (int64_t)pages);
	} else {
		/* The DMA, one step: the sectors are read, the folios
		 * written. */
		sim_word_touch_range(&dev->data_version, SIM_ACCESS_READ,
				     (uint32_t)sector, (uint32_t)last);
		if (bio->dio_len)
			sector += bio_transfer_dio_read(dev, bio);
		for (unsigned int k = 0; k < m_bio_iter_vcnt(bio); k++) {
			const struct km_bio_vec v = m_bio_iter_vec(bio, k);

			sim_word_add_also(&v.folio->data_version, 1);
			m_dev_data_read_folio(dev, sector, v.folio,
					      v.offset >> SECTOR_SHIFT,
					      v.len >> SECTOR_SHIFT);
			sector += v.len >> SECTOR_SHIFT;
		}
		sim_word_add_nr(&dev->reads, (int64_t)pages);
	}
}

/* World invariant 13: a bio ends once (bio_endio), and every one ends. */
static void bio_note_end(struct km_bio *bio)
{
	SIM_ASSERT_MSG(!bio->ended, "bio %u: bi_end_io ran twice",
		       bio->index);
	bio->ended = true;
	m_world()->dev.bios_ended++;
}

static void bio_endio(struct km_bio *bio, bool allow_task, bool in_irq);

/* The completion: transfer, status, then bio_endio (an engine event). */
void m_bio_device_complete(void *arg)
{
	struct km_bio *bio = arg;

	bio_transfer(bio);
	bio_note_end(bio);
	bio_endio(bio, true, true);
}

static void submit_bio_wait_endio(struct km_bio *bio);

/* A timed run's bio is gone: its ids and memory go back (long runs). */
static void bio_free(struct km_bio *bio)
{
	sim_object_retire(bio->done.done.id);
	sim_object_retire(bio->done.waiters.id);
	if (bio->chained)
		sim_object_retire(bio->remaining.id);
	if (bio->vec != bio->inline_vec)
		sim_arena_free(bio->vec, bio->max_vecs * sizeof(*bio->vec));
	sim_arena_free(bio, sizeof(*bio));
}

/* bi_end_io, then the bio is put, unless submit_bio_wait owns it. */
static void bio_end_io_put(struct km_bio *bio)
{
	bool owned = bio->end_io == submit_bio_wait_endio;

	if (bio->end_io)
		bio->end_io(bio);
	if (!owned)
		bio_free(bio);
}

/* The ioend workqueue's kworker: bi_end_io in task context. */
static void timed_end_io_work(void *arg)
{
	bio_end_io_put(arg);
}

/* bio_chain_endio: a split's bi_end_io (bio_endio tests for it). */
static void bio_chain_endio(struct km_bio *bio)
{
	(void)bio;
	SIM_ASSERT_MSG(false, "bio_chain_endio runs inside bio_endio");
}

/* __bio_chain_endio: the split's status goes to its parent; put it. */
static struct km_bio *__bio_chain_endio(struct km_bio *bio)
{
	struct km_bio *parent = bio->private;

	if (bio->status && !parent->status)
		parent->status = bio->status;
	if (m_world()->dev.timed)
		bio_free(bio);
	return parent;
}

/*
 * bio_remaining_done: a bio without splits ends at once; a parent ends
 * when its last piece does (the count is an engine word: pieces
 * complete as independent events).
 */
static bool bio_remaining_done(struct km_bio *bio)
{
	if (!bio->chained)
		return true;
	return sim_word_add(&bio->remaining, -1) == 0;
}

/*
 * bio_endio on the model's device: untimed, bi_end_io runs in the
 * completion event; timed, in the interrupt or (end_io_in_task, when
 * @allow_task) a kworker, and the bio is then put.  @in_irq: the caller
 * is the device's completion (the interrupt), not a submitter ending a
 * bio it could not submit.  bi_end_io run in the interrupt runs in
 * hardirq context (km_in_task() false: model/kernel/softirq.c); untimed,
 * an end_io_in_task bio's bi_end_io runs in the completion event as the
 * workqueue's kworker would, in task context (no kworker task: the
 * exploration keeps one completion step per bio).
 */
static void bio_endio(struct km_bio *bio, bool allow_task, bool in_irq)
{
	struct m_blk_timed *t = m_world()->dev.timed;

again:
	if (!bio_remaining_done(bio))
		return;
	if (bio->end_io == bio_chain_endio) {
		bio = __bio_chain_endio(bio);
		goto again;
	}
	if (!t) {
		if (!bio->end_io)
			return;
		in_irq = in_irq && !bio->end_io_in_task;
		if (in_irq)
			km_irq_enter();
		bio->end_io(bio);
		if (in_irq)
			km_irq_exit();
		return;
	}
	if (allow_task && bio->end_io_in_task) {
		m_queue_work_percpu("kworker/xfs-conv", timed_end_io_work,
				    bio);
		return;
	}
	if (in_irq)
		km_irq_enter();
	bio_end_io_put(bio);
	if (in_irq)
		km_irq_exit();
}

/**
 * km_bio_endio - a bio has ended: its bi_end_io runs, once every piece
 * split off it has ended too.
 * Kernel: block/bio.c bio_endio, v6.18.
 * Context: the completion (an engine event, the interrupt), or the
 * submitter's for a bio failed at submission.
 * Divergences: no integrity, zone, rq_qos or trace steps; the model's
 * BIO_CHAIN flag (chained) is not cleared when the count reaches zero:
 * a bio ends once (world invariant 13).
 */
void km_bio_endio(struct km_bio *bio)
{
	bio_note_end(bio);
	bio_endio(bio, true, false);
}

/**
 * km_bio_split - split the front @sectors off a bio.
 * Kernel: block/bio.c bio_split, v6.18.
 * Context: the submitter's; no shared access.
 * Return: the new bio, holding @bio's first @sectors; @bio is advanced
 * past them (bio_advance).
 * Divergences: the clone copies the model's data fields: folio ranges
 * are cut at the byte, a direct I/O buffer moves on by the sectors
 * taken; bio_split's -EINVAL cases are assertions (the model's callers
 * never reach them); no bio_set, no integrity.
 */
struct km_bio *km_bio_split(struct km_bio *bio, unsigned int sectors)
{
	struct km_bio *split;
	size_t bytes = (size_t)sectors << SECTOR_SHIFT, take, part = 0;
	unsigned int i = 0;

	SIM_ASSERT_MSG(sectors > 0 && bytes < m_bio_size(bio),
		       "bio_split of %u sectors", sectors);
	/* bio_alloc_clone shares @bio's table; the model's split copies
	 * the bvecs it takes into a table of its own, at most as many as
	 * @bio has left. */
	split = km_bio_alloc_bioset(bio->op, bio->opf, bio->sector,
				    m_bio_iter_vcnt(bio));
	split->data_id = bio->data_id;
	split->no_content = bio->no_content;
	split->index = bio->index;
	split->discard_len = bytes < bio->discard_len ? bytes :
						       bio->discard_len;
	bio->discard_len -= split->discard_len;
	bytes -= split->discard_len;
	take = bytes < bio->zero_len ? bytes : bio->zero_len;
	split->zero_len = take;
	bio->zero_len -= take;
	bytes -= take;
	take = bytes < bio->dio_len ? bytes : bio->dio_len;
	split->dio_len = take;
	split->dio_out = bio->dio_out;
	bio->dio_len -= take;
	if (bio->dio_out)
		bio->dio_out += take >> SECTOR_SHIFT;
	bytes -= take;
	/* The split's bvecs, from @bio's iterator on; then bio_advance
	 * moves the iterator (bvec_iter_advance): @i bvecs used up and
	 * @part bytes of the next, bi_io_vec itself unchanged. */
	while (bytes) {
		struct km_bio_vec v;

		SIM_ASSERT_MSG(i < m_bio_iter_vcnt(bio),
			       "bio_split past the bio");
		v = m_bio_iter_vec(bio, i);
		take = bytes < v.len ? bytes : v.len;
		split->vec[split->vcnt++] = (struct km_bio_vec){
			v.folio, v.offset, take };
		bytes -= take;
		if (take < v.len)
			part = take;
		else
			i++;
	}
	if (i) {
		bio->vec_idx += i;
		bio->vec_done = 0;
	}
	bio->vec_done += part;
	bio->sector += sectors;
	return split;
}

/**
 * km_bio_chain_and_submit - chain @prev to @new, submit @prev.
 * Kernel: block/bio.c bio_chain_and_submit, v6.18.
 * Context: task.
 * Return: @new.
 */
struct km_bio *km_bio_chain_and_submit(struct km_bio *prev,
				       struct km_bio *new)
{
	if (prev) {
		km_bio_chain(prev, new);
		km_submit_bio(prev);
	}
	return new;
}

/**
 * km_bio_chain - @bio ends into @parent: @parent's bi_end_io waits for it.
 * Kernel: block/bio.c bio_chain (bio_inc_remaining), v6.18.
 * Context: the submitter's, before either is submitted.
 */
void km_bio_chain(struct km_bio *bio, struct km_bio *parent)
{
	SIM_ASSERT_MSG(!bio->private && !bio->end_io, "bio_chain: in use");
	bio->private = parent;
	bio->end_io = bio_chain_endio;
	if (!parent->chained) {
		parent->chained = true;
		sim_word_init(&parent->remaining, 1, "bio.remaining");
	}
	sim_word_add(&parent->remaining, 1);
}

/* Issue the plan step bio->rq_step to the device; its completion is an
 * event at the device's time.  Called in a step that accessed t->queue. */
static void timed_issue_step(struct m_blk_timed *t, struct km_bio *bio);

/* The flush state machine's requests of the timed queue (below). */
static const struct m_blk_flush_ops timed_flush_ops;

/* rq_qos_done (blk_mq_end_request -> __blk_mq_end_request): wbt's. */
static void timed_rq_qos_done(struct m_blk_timed *t,
			      const struct m_blk_mq_request *rq,
			      const struct km_bio *bio)
{
	if (t->wbt)
		m_wbt_done(t->wbt, rq->wbt_flags, bio, rq->io_start_ns,
			   rq->bytes != 0);
}

/*
 * The request ends (blk_mq_end_request): rq_qos_done, the bio ends
 * (bio_endio), then the tag is freed and one tag waiter woken
 * (blk_mq_free_request -> sbitmap_queue_clear).
 */
static void timed_end_request(struct m_blk_timed *t, struct km_bio *bio,
			      struct m_blk_mq_request *rq)
{
	uint32_t hctx = rq->hctx->queue_num;

	bio->rq = NULL;
	timed_rq_qos_done(t, rq, bio);
	bio_note_end(bio);
	bio_endio(bio, true, true);
	sim_word_add(&t->queue, 1);
	m_blk_mq_end_request(rq);
	sim_waitq_wake_one(&t->tag_wait[hctx]);
	sim_arena_free(rq, sizeof(*rq));
}

/*
 * One plan step completed (interrupt context).  After the DATA step the
 * data is on the device; a flush-sequenced request's DATA goes back to
 * the flush state machine (mq_flush_data_end_io); after the last step
 * of a plain request the request ends.
 */
/* The completion event's name, by the step's command and the bio. */
static const char *step_event_name(const struct hw_nvme_cmd *cmd,
				   const struct km_bio *bio)
{
	return cmd->op == HW_NVME_FLUSH ? "nvme-flush" :
	       bio->op == REQ_OP_WRITE ? "nvme-write" :
	       bio->op == REQ_OP_DISCARD ? "nvme-discard" : "nvme-read";
}

/*
 * A device completion at @at: an interrupt on the CPU the profile routes
 * it to (irq_cpu), else on the CPU its poster last ran on.  The kernel
 * completes a request where its interrupt arrives: blk_mq_complete_request
 * (block/blk-mq.c, v6.18) completes it locally (blk_mq_complete_need_ipi
 * false: QUEUE_FLAG_SAME_COMP with the submitting CPU in the same cache
 * domain, the case of this machine's two vCPUs) and, with one hardware
 * queue, in BLOCK_SOFTIRQ on that CPU (blk_mq_raise_softirq); a loop
 * device's request completes from its backing request's completion,
 * the same interrupt.
 */
static void timed_post(const struct m_blk_timed *t, const char *name,
		       sim_task_fn fn, void *arg, uint64_t at)
{
	if (t->irq_cpu >= 0)
		sim_event_post_at_cpu(name, fn, arg, at,
				      (unsigned int)t->irq_cpu);
	else
		sim_event_post_at(name, fn, arg, at);
}

static void timed_step_done(void *arg)
{
	struct km_bio *bio = arg;
	struct m_blk_timed *t = m_world()->dev.timed;
	struct m_blk_mq_request *rq = bio->rq;
	const struct hw_nvme_cmd *cmd = &rq->plan.step[bio->rq_step];
	uint64_t at = hw_nvme_pass_done(&t->nvme, &rq->ticket, sim_now());

	/* A pass_complete device: the command is published with its pass,
	 * when the pass ends (model/hw/nvme.c); until then nothing of it
	 * reaches the host. */
	if (at > sim_now()) {
		timed_post(t, step_event_name(cmd, bio), timed_step_done,
			   bio, at);
		return;
	}
	/* The virtio disk's interrupt: its descriptors come back, a
	 * stopped queue runs again (model/drivers/block/virtio_blk.c). */
	if (rq->vq_descs) {
		sim_word_add(&t->queue, 1);
		km_virtblk_done(t->vq, rq->vq_descs);
		rq->vq_descs = 0;
	}
	/* A loop device: the backing file's I/O ended, the loop request
	 * completes (model/drivers/block/loop.c). */
	if (t->loop)
		km_lo_rw_aio_complete(t->loop);
	/* The interrupt's work: the driver's completion, blk-mq, bio_endio
	 * beyond the model's steps (profiles/cpu/default.cpu). */
	m_cost_bio_complete();
	if (cmd->op != HW_NVME_FLUSH && !bio->no_content)
		bio_transfer(bio);
	if (rq->flush_seq_active) {
		sim_word_add(&t->queue, 1);
		km_mq_flush_data_end_io(&t->fq[rq->hctx->queue_num], rq, 0,
					&timed_flush_ops);
		return;
	}
	if (++bio->rq_step < rq->plan.nr) {
		sim_word_add(&t->queue, 1);
		timed_issue_step(t, bio);
		return;
	}
	timed_end_request(t, bio, rq);
}

/* ---- the flush state machine's requests (struct m_blk_flush_ops) ---- */

/* The DATA step of a flush-sequenced request (the requeue list's
 * dispatch). */
static void timed_flush_issue_data(struct m_blk_mq_request *rq)
{
	struct km_bio *bio = rq->bio;
	unsigned int i = 0;

	while (i + 1 < rq->plan.nr && rq->plan.step[i].op == HW_NVME_FLUSH)
		i++;
	SIM_ASSERT_MSG(rq->plan.step[i].op != HW_NVME_FLUSH,
		       "flush-sequenced DATA without a data step");
	bio->rq_step = i;
	timed_issue_step(m_world()->dev.timed, bio);
}

static void timed_flush_done_fq(struct m_blk_timed *t,
				struct m_blk_flush_queue *fq);

/* The flush request completed (flush_end_io, interrupt context). */
static void timed_flush_done(void *arg)
{
	struct m_blk_flush_queue *fq = arg;
	struct m_blk_timed *t = m_world()->dev.timed;

	timed_flush_done_fq(t, fq);
}

/* A flush through the virtio ring completed: its two descriptors come
 * back first (virtblk_done), then the flush request ends. */
static void timed_vq_flush_done(void *arg)
{
	struct m_sched_rq *r = arg;
	struct m_blk_timed *t = m_world()->dev.timed;
	struct m_blk_flush_queue *fq = r->arg;

	sim_word_add(&t->queue, 1);
	km_virtblk_done(t->vq, r->descs);
	sim_arena_free(r, sizeof(*r));
	timed_flush_done_fq(t, fq);
}

static void timed_flush_done_fq(struct m_blk_timed *t,
				struct m_blk_flush_queue *fq)
{

	if (t->loop)
		km_lo_rw_aio_complete(t->loop);
	m_cost_bio_complete();
	sim_word_add(&t->queue, 1);
	km_flush_end_io(fq, 0, &timed_flush_ops);
}

static void timed_loop_queue_rq(struct m_blk_timed *t, struct km_bio *bio,
				struct m_blk_flush_queue *fq);

/* m_sched_rq.kind of the flush queue's flush request (@arg its fq;
 * else @arg is a request's bio). */
#define TIMED_VQ_FLUSH_RQ	1

/* The flush request: REQ_OP_FLUSH to the device (through the loop
 * device's worker when there is one). */
static void timed_flush_issue_flush_now(struct m_blk_flush_queue *fq);

static void timed_flush_issue_flush(struct m_blk_flush_queue *fq)
{
	struct m_blk_timed *t = m_world()->dev.timed;

	if (t->loop) {
		timed_loop_queue_rq(t, NULL, fq);
		return;
	}
	timed_flush_issue_flush_now(fq);
}

static void timed_flush_issue_flush_now(struct m_blk_flush_queue *fq)
{
	struct m_blk_timed *t = m_world()->dev.timed;
	const struct hw_nvme_cmd cmd = { .op = HW_NVME_FLUSH };
	uint64_t done_ns;
	int ret;

	if (t->vq) {
		/* The flush request through the disk's ring (two
		 * descriptors, never merged). */
		struct m_sched_rq *r = sim_arena_alloc(sizeof(*r));

		*r = (struct m_sched_rq){ .op = HW_NVME_FLUSH, .nomerge = true,
					  .kind = TIMED_VQ_FLUSH_RQ, .arg = fq };
		m_virtblk_submit_bio(t->vq, r);
		return;
	}

	ret = hw_nvme_submit(&t->nvme, &cmd, sim_now(), &done_ns);
	SIM_ASSERT_MSG(ret == 0, "device rejected a flush (%d)", ret);
	t->stats.device_cmds++;
	t->stats.flushes++;
	timed_post(t, "nvme-flush", timed_flush_done, fq, done_ns);
}

static void timed_flush_end_request(struct m_blk_mq_request *rq, int error)
{
	struct km_bio *bio = rq->bio;

	if (error)
		bio->status = -KM_EIO;
	timed_end_request(m_world()->dev.timed, bio, rq);
}

/* jiffies at HZ 250, from the virtual clock (as page-writeback.c's). */
static unsigned long timed_jiffies(void)
{
	return 1 + (unsigned long)(sim_now() / KM_NS_PER_JIFFY);
}

static const struct m_blk_flush_ops timed_flush_ops = {
	.issue_data = timed_flush_issue_data,
	.issue_flush = timed_flush_issue_flush,
	.end_request = timed_flush_end_request,
	.jiffies = timed_jiffies,
};

static void timed_issue_step_now(struct m_blk_timed *t, struct km_bio *bio);

/* The segments of a bio's data (bio_note_segs' count, for any op). */
static uint64_t bio_segs(const struct km_bio *bio);

/* A command of the loop device's queue_rq (struct loop_cmd): a request's
 * plan step (@bio) or a flush queue's flush request (@fq). */
struct timed_loop_cmd {
	struct m_loop_cmd cmd;
	struct km_bio *bio;
	struct m_blk_flush_queue *fq;
};

/* The worker has submitted the command: the device below takes it. */
static void timed_loop_issue(void *arg)
{
	struct timed_loop_cmd *c = arg;
	struct m_blk_timed *t = m_world()->dev.timed;

	sim_word_add(&t->queue, 1);
	if (c->bio)
		timed_issue_step_now(t, c->bio);
	else
		timed_flush_issue_flush_now(c->fq);
	sim_arena_free(c, sizeof(*c));
}

/* queue_rq of a loop device: the command goes to its worker
 * (model/drivers/block/loop.c), which issues it to the device below. */
static void timed_loop_queue_rq(struct m_blk_timed *t, struct km_bio *bio,
				struct m_blk_flush_queue *fq)
{
	struct timed_loop_cmd *c = sim_arena_alloc(sizeof(*c));
	uint64_t segs = 0;

	if (bio && bio->rq->plan.step[bio->rq_step].op != HW_NVME_FLUSH)
		segs = bio_segs(bio);
	*c = (struct timed_loop_cmd){
		.cmd = { .segs = segs > UINT32_MAX ? UINT32_MAX :
				 (uint32_t)segs,
			 .issue = timed_loop_issue },
		.bio = bio,
		.fq = fq,
	};
	c->cmd.arg = c;
	km_loop_queue_rq(t->loop, &c->cmd);
}

static void timed_issue_step(struct m_blk_timed *t, struct km_bio *bio)
{
	if (t->loop) {
		timed_loop_queue_rq(t, bio, NULL);
		return;
	}
	timed_issue_step_now(t, bio);
}

static void timed_issue_step_now(struct m_blk_timed *t, struct km_bio *bio)
{
	const struct hw_nvme_cmd *cmd = &bio->rq->plan.step[bio->rq_step];
	uint64_t done_ns;
	int ret;

	if (t->vq) {
		/* The backing bio on the virtio disk below: it may wait for
		 * the ring in the disk's scheduler and merge there
		 * (model/drivers/block/virtio_blk.c; timed_vq_issue). */
		struct m_sched_rq *r = sim_arena_alloc(sizeof(*r));

		*r = (struct m_sched_rq){
			.sector = cmd->lba,
			.sectors = cmd->bytes / HW_NVME_SECTOR_BYTES,
			/* virtblk_setup_discard_write_zeroes_erase: a
			 * discard's one range is one data descriptor. */
			.segs = cmd->op == HW_NVME_FLUSH ? 0 :
				cmd->op == HW_NVME_DISCARD ? 1 :
				(uint32_t)bio_segs(bio),
			.op = (uint8_t)cmd->op,
			.nomerge = cmd->op == HW_NVME_FLUSH ||
				   cmd->op == HW_NVME_DISCARD ||
				   (cmd->flags & HW_NVME_CMD_FUA),
			.arg = bio,
		};
		m_virtblk_submit_bio(t->vq, r);
		return;
	}

	ret = hw_nvme_submit_ticket(&t->nvme, cmd, sim_now(), &done_ns,
				    &bio->rq->ticket);
	SIM_ASSERT_MSG(ret == 0, "device rejected a command (%d)", ret);
	t->stats.device_cmds++;
	if (cmd->op == HW_NVME_FLUSH)
		t->stats.flushes++;
	else if (cmd->flags & HW_NVME_CMD_FUA)
		t->stats.fua_writes++;
	timed_post(t, step_event_name(cmd, bio), timed_step_done, bio,
		   done_ns);
}

/*
 * The virtio disk took a request into its ring (virtio_queue_rq): one
 * device command for it, whose completion completes each of its bios
 * (blk_mq_end_request -> blk_update_request ends every bio of a merged
 * request at once); the request's descriptors come back with its first
 * bio's completion.
 */
static void timed_vq_issue(struct m_sched_rq *r)
{
	struct m_blk_timed *t = m_world()->dev.timed;
	struct hw_nvme_cmd cmd;
	struct hw_nvme_ticket tk;
	uint64_t done_ns;
	int ret;

	if (r->kind == TIMED_VQ_FLUSH_RQ) {
		cmd = (struct hw_nvme_cmd){ .op = HW_NVME_FLUSH };
		ret = hw_nvme_submit(&t->nvme, &cmd, sim_now(), &done_ns);
		SIM_ASSERT_MSG(ret == 0, "device rejected a flush (%d)", ret);
		t->stats.device_cmds++;
		t->stats.flushes++;
		timed_post(t, "nvme-flush", timed_vq_flush_done, r, done_ns);
		return;
	}
	{
		struct km_bio *head = r->arg;

		cmd = head->rq->plan.step[head->rq_step];
		cmd.lba = r->sector;
		cmd.bytes = r->sectors * HW_NVME_SECTOR_BYTES;
		if (cmd.op == HW_NVME_WRITE)
			cmd.segs = r->segs;
		ret = hw_nvme_submit_ticket(&t->nvme, &cmd, sim_now(),
					    &done_ns, &tk);
		SIM_ASSERT_MSG(ret == 0, "device rejected a command (%d)",
			       ret);
		t->stats.device_cmds++;
		if (cmd.op == HW_NVME_FLUSH)
			t->stats.flushes++;
		else if (cmd.flags & HW_NVME_CMD_FUA)
			t->stats.fua_writes++;
		head->rq->vq_descs = r->descs;
		for (struct m_sched_rq *m = r, *nx; m; m = nx) {
			struct km_bio *b = m->arg;

			nx = m->bio_next;
			b->rq->ticket = tk;
			timed_post(t, step_event_name(&cmd, b), timed_step_done,
				   b, done_ns);
			sim_arena_free(m, sizeof(*m));
		}
	}
}

/* The submitted bio in the stats (bookkeeping of the report only). */
static void submit_stats(struct m_blkdev_timed_stats *st,
			 const struct km_bio *bio, uint32_t bytes)
{
	unsigned int k = 0;

	if (!st->bios)
		st->first_submit_ns = bio->submit_ns;
	st->last_submit_ns = bio->submit_ns;
	st->bios++;
	if (bio->opf & REQ_PREFLUSH) {
		st->preflush_bios++;
		if (!bytes)
			st->empty_flush_bios++;
	}
	if (bio->opf & REQ_FUA)
		st->fua_bios++;
	if (bio->op == REQ_OP_READ && bytes)
		st->read_bios++;
	if (bio->op == REQ_OP_DISCARD)
		st->discard_bios++;
	if (bio->op != REQ_OP_WRITE || !bytes)
		return;
	st->write_bios++;
	st->write_bytes += bytes;
	if (bytes >= 4096)
		while (k + 1 < 9 && (4096u << k) < bytes)
			k++;
	st->write_sizes[bytes < 4096 ? 0 : k + 1]++;
}

/*
 * The queue limits of the profile's driver (queue_limits_set from the
 * driver's probe: a loop device's are drivers/block/loop.c loop_add's
 * max_hw_sectors 2560 with blk_validate_limits' defaults, 128 segments
 * of up to 64 KiB and no virtual boundary, v6.18), validated
 * (model/block/blk-settings.c); a figure the profile leaves out stays
 * the NVMe driver's (m_queue_limits_default).
 */
static int blk_timed_limits(struct m_blkdev *dev,
			    const struct hw_nvme_profile *profile)
{
	struct km_queue_limits lim = dev->limits;

	if (profile->max_hw_sectors_kb > UINT_MAX / 2 ||
	    profile->max_sectors_kb > UINT_MAX / 2)
		return -EINVAL;
	if (profile->max_hw_sectors_kb)
		lim.max_hw_sectors = profile->max_hw_sectors_kb << 1;
	if (profile->max_sectors_kb)
		lim.max_user_sectors = profile->max_sectors_kb << 1;
	if (profile->max_segments)
		lim.max_segments = profile->max_segments;
	if (profile->max_segment_size)
		lim.max_segment_size = profile->max_segment_size;
	if (profile->no_virt_boundary)
		lim.virt_boundary_mask = 0;
	if (km_blk_validate_limits(&lim))
		return -EINVAL;
	dev->limits = lim;
	return 0;
}

/*
 * The request's data segments, for the device (hw_nvme_cmd.segs; the
 * virtio disk's VMM takes each as a descriptor: model/hw/nvme.c
 * fw_cost).  virtio_blk maps a request to its scatterlist with
 * blk_rq_map_sg (drivers/block/virtio_blk.c virtblk_map_data, v6.18),
 * one entry per physically contiguous piece: a page-cache folio is one
 * piece, the pinned pages of a direct I/O's user buffer one each
 * (bio_iov_iter_get_pages merges only physically adjacent pages; fio's
 * buffers are 4 KiB pages on this guest: THP is "madvise"), the zero
 * page of a sub-block zeroing one per page.
 * Divergences: adjacent folios that happen to be physically contiguous
 * are not merged into one entry, nor adjacent user pages; the segments
 * of a request merged from several bios are its first bio's.
 */
static uint64_t bio_segs(const struct km_bio *bio)
{
	uint64_t pages = (bio->dio_len + PAGE_SIZE - 1) / PAGE_SIZE +
			 (bio->zero_len + PAGE_SIZE - 1) / PAGE_SIZE;

	return m_bio_iter_vcnt(bio) + pages;
}

static void bio_note_segs(struct m_blk_mq_request *rq,
			  const struct km_bio *bio)
{
	uint64_t segs = bio_segs(bio);

	for (unsigned int i = 0; i < rq->plan.nr; i++)
		if (rq->plan.step[i].op == HW_NVME_WRITE)
			rq->plan.step[i].segs = segs > UINT32_MAX ?
						UINT32_MAX : (uint32_t)segs;
}

/*
 * blk_mq_submit_bio on the timed queue: a tag (sleeping for one when
 * none is free), the plan, its first device command.  A bio the flush
 * filter or policy completes at once, or that fails there, ends in the
 * submitter's context, as in the kernel.
 */
void m_blk_timed_submit_bio(struct m_blk_timed *t, struct km_bio *bio)
{
	struct m_blk_mq_request *rq = sim_arena_alloc(sizeof(*rq));
	/* KM: the submitter's CPU is taken as its task id modulo the CPUs
	 * (the engine does not expose the CPU a step runs on). */
	uint32_t cpu = (uint32_t)sim_task_current() % t->nr_cpus;
	uint32_t bytes = (uint32_t)m_bio_size(bio);
	unsigned int wbt_flags;
	int ret;

	/* submit_bio to the driver's queue_rq: CPU work beyond the model's
	 * steps (profiles/cpu/default.cpu). */
	m_cost_bio_submit();
	bio->submit_ns = sim_now();
	submit_stats(&t->stats, bio, bytes);
	if (bio->no_content)
		t->stats.log_writes++;
	/* rq_qos_throttle (blk_mq_submit_bio, before the request). */
	wbt_flags = t->wbt ? m_wbt_throttle(t->wbt, bio) : 0;
	for (;;) {
		sim_word_add(&t->queue, 1);
		ret = m_blk_mq_submit_bio(&t->q, cpu, bio->op, bio->opf,
					  bio->sector, bytes, 0, rq);
		if (ret != -EBUSY)
			break;
		/* blk_mq_get_tag: none free, sleep on the hctx's queue. */
		t->stats.tag_waits++;
		sim_waitq_sleep(&t->tag_wait[t->q.mq_map[cpu]]);
	}
	if (ret != 0) {
		/* The request ends at once: rq_qos_done with its flags. */
		rq->wbt_flags = wbt_flags;
		rq->io_start_ns = sim_now();
		rq->bytes = 0;
		timed_rq_qos_done(t, rq, bio);
		sim_arena_free(rq, sizeof(*rq));
		bio->status = ret == 1 ? 0 : -KM_EIO;
		bio_note_end(bio);
		bio_endio(bio, false, false);
		return;
	}
	bio->rq = rq;
	bio->rq_step = 0;
	rq->bio = bio;
	bio_note_segs(rq, bio);
	/* rq_qos_track, then blk_mq_start_request's rq_qos_issue. */
	rq->wbt_flags = wbt_flags;
	rq->io_start_ns = sim_now();
	if (t->wbt)
		m_wbt_issue(t->wbt, wbt_flags, bio);
	/* op_is_flush -> blk_insert_flush (block/blk-flush.c): the flush
	 * state machine of the request's hardware queue. */
	if (rq->plan.policy & (M_REQ_FSEQ_PREFLUSH | M_REQ_FSEQ_POSTFLUSH)) {
		sim_word_add(&t->queue, 1);
		if (km_blk_insert_flush(&t->fq[rq->hctx->queue_num], rq,
					&timed_flush_ops))
			return;
		timed_flush_issue_data(rq);
		return;
	}
	timed_issue_step(t, bio);
}

int m_blkdev_attach_timed(struct m_blkdev *dev,
			  const struct hw_nvme_profile *profile,
			  unsigned int nr_cpus, uint64_t seed)
{
	struct m_blk_timed *t;
	size_t bytes = hw_nvme_mem_size(profile);
	uint32_t hwq;

	if (!bytes || !nr_cpus)
		return -EINVAL;
	t = sim_arena_alloc(sizeof(*t));
	if (hw_nvme_init(&t->nvme, profile, seed, sim_arena_alloc(bytes)))
		return -EINVAL;
	hwq = profile->nr_hw_queues < nr_cpus ? profile->nr_hw_queues :
						nr_cpus;
	if (m_blk_mq_init_queue(&t->q, profile, nr_cpus,
				sim_arena_alloc(m_blk_mq_mem_size(
					hwq, profile->queue_depth))))
		return -EINVAL;
	t->nr_cpus = nr_cpus;
	t->irq_cpu = profile->irq_cpu_set ? (int32_t)(profile->irq_cpu %
							 nr_cpus) : -1;
	if (m_world() && dev == &m_world()->dev)
		m_world()->wq_percpu_bound = t->irq_cpu >= 0;
	sim_word_init(&t->queue, 0, "blk-mq.queue");
	t->tag_wait = sim_arena_alloc(t->q.nr_hw_queues *
				      sizeof(*t->tag_wait));
	for (uint32_t i = 0; i < t->q.nr_hw_queues; i++)
		sim_waitq_init(&t->tag_wait[i], "hctx%u.tag_wait", i);
	/* blk_alloc_flush_queue, one per hardware queue (hctx->fq). */
	t->fq = sim_arena_alloc(t->q.nr_hw_queues * sizeof(*t->fq));
	for (uint32_t i = 0; i < t->q.nr_hw_queues; i++)
		m_blk_flush_queue_init(&t->fq[i], &t->fq_changes);
	t->fq_changes = 0;
	t->fq_checked = 0;
	t->fq_idle = false;	/* the first check passes over them */
	/* wbt_init (blk-wbt.c), when the profile's queue throttles. */
	t->wbt = NULL;
	if (profile->wbt_lat_usec) {
		t->wbt = sim_arena_alloc(sizeof(*t->wbt));
		m_wbt_init(t->wbt, profile->queue_depth, profile->wbt_lat_usec,
			   hw_nvme_volatile_cache(profile));
	}
	/* A loop device's worker (drivers/block/loop.c loop_configure:
	 * its workqueue), when the profile says the device is one. */
	t->loop = NULL;
	if (profile->loop_worker_ns) {
		t->loop = sim_arena_alloc(sizeof(*t->loop));
		m_loop_init(t->loop, profile->loop_worker_ns,
			    profile->loop_seg_ns, profile->loop_complete_ns,
			    profile->loop_run_ns);
	}
	if (blk_timed_limits(dev, profile))
		return -EINVAL;
	/* The virtio disk below a loop device (virtblk_probe: its ring),
	 * when the profile has one: a request of the queue's most
	 * segments must fit the ring (the kernel's disk has its own,
	 * smaller, max_segments; the model's requests come with the loop
	 * device's limits). */
	t->vq = NULL;
	if (profile->virtio_ring_descs) {
		if (dev->limits.max_segments + 2 > profile->virtio_ring_descs)
			return -EINVAL;
		t->vq = sim_arena_alloc(sizeof(*t->vq));
		m_virtblk_init(t->vq, profile->virtio_ring_descs,
			       profile->virtio_max_sectors_kb << 1,
			       profile->virtio_max_segments, timed_vq_issue);
	}
	/* What the filesystem keeps on the device (the XFS log). */
	if (dev->timed_attached)
		dev->timed_attached(dev, profile->capacity_bytes);
	dev->timed = t;
	blkdev_check_watch(dev);	/* its check's watch: the queues */
	return 0;
}

bool m_blkdev_is_timed(void)
{
	struct m_world *w = m_world();

	return w && w->dev.timed;
}

/**
 * km_bdev_write_cache - does the device have a volatile write cache?
 * Kernel: include/linux/blkdev.h bdev_write_cache, v6.18.
 * Return: the timed device's queue feature (and not disabled through
 * sysfs); true for the untimed device.
 * Divergences: the untimed device stands for the loop device the
 * differential oracle runs on (tools/diff-kernel): loop_update_limits
 * (drivers/block/loop.c) sets BLK_FEAT_WRITE_CACHE when the backing file
 * has ->fsync and never BLK_FEAT_FUA (its queue/write_cache reads "write
 * back", queue/fua 0).
 */
bool km_bdev_write_cache(void)
{
	struct m_world *w = m_world();

	if (!w || !w->dev.timed)
		return true;
	return m_blk_queue_write_cache(&w->dev.timed->q);
}

/**
 * km_bdev_fua - does the device take REQ_FUA itself?
 * Kernel: include/linux/blkdev.h bdev_fua, v6.18.
 * Return: the timed device's BLK_FEAT_FUA; false for the untimed device
 * (the loop device's, km_bdev_write_cache).
 */
bool km_bdev_fua(void)
{
	struct m_world *w = m_world();

	if (!w || !w->dev.timed)
		return false;
	return w->dev.timed->q.features & M_BLK_FEAT_FUA;
}

void m_blkdev_timed_stats(struct m_blkdev_timed_stats *stats)
{
	struct m_world *w = m_world();

	memset(stats, 0, sizeof(*stats));
	if (!w || !w->dev.timed)
		return;
	*stats = w->dev.timed->stats;
	if (w->dev.timed->loop) {
		const struct m_loop_stats *ls = &w->dev.timed->loop->stats;

		stats->loop_cmds = ls->cmds;
		stats->loop_works = ls->works;
		stats->loop_busy_ns = ls->busy_ns;
		stats->loop_completions = ls->completions;
		stats->loop_complete_ns = ls->complete_ns;
		stats->loop_completions_shared = ls->completions_shared;
	}
}

static void submit_bio_wait_endio(struct km_bio *bio)
{
	sim_completion_complete(&bio->done);
}

/**
 * km_submit_bio_wait - submit a bio and wait for its completion.
 * Kernel: block/bio.c, v6.18.
 * Return: the bio's status.
 */
int km_submit_bio_wait(struct km_bio *bio)
{
	int status;

	bio->end_io = submit_bio_wait_endio;
	km_submit_bio(bio);
	sim_completion_wait(&bio->done);
	status = bio->status;
	if (m_world()->dev.timed)
		bio_free(bio);
	return status;
}
