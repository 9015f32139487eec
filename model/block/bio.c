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
 * context; the next step is submitted from that event, as blk-flush.c's
 * flush_end_io does.  No tag free: the submitter sleeps on the hardware
 * queue's tag wait queue and retries (blk_mq_get_tag).  A write's data
 * reaches the sectors when its DATA step completes.  bi_end_io runs in
 * the interrupt, or in a kworker task when the bio asks for it
 * (end_io_in_task: XFS's ioend workqueue).  A bio without file data
 * (no_content: the XFS log's, model/fs/xfs/xfs_log.c) counts as a log
 * write.  docs/timed-mode.md.
 *
 * Leaves out: merging, plugging, partial completion, bio splitting
 * (callers keep bios within M_BIO_VECS_MAX), power loss (a write the
 * device acknowledged is durable, cached or not: FLUSH and FUA cost
 * time, they do not change content), polled completions, sbitmap's wake
 * batching (one waiter woken per freed tag), I/O schedulers.
 */
#include <errno.h>
#include <string.h>

#include "model/block/blk-mq.h"
#include "model/block/blk-wbt.h"
#include "model/linux/bio.h"
#include "model/linux/fs.h"
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
	struct m_blkdev_timed_stats stats;
	struct km_rq_wb *wbt;			/* NULL: no wbt_lat_usec */
};

void m_blkdev_init(struct m_blkdev *dev, sector_t nr_sectors)
{
	sector_t blocks = (nr_sectors + M_DEV_BLOCK - 1) >> M_DEV_BLOCK_SHIFT;

	dev->nr_sectors = nr_sectors;
	dev->data = sim_arena_alloc(blocks * sizeof(*dev->data));
	dev->data_fill = sim_arena_alloc(blocks * sizeof(*dev->data_fill));
	sim_word_init(&dev->data_version, 0, "dev.data");
	sim_word_init(&dev->bios_submitted, 0, "dev.bios");
	sim_word_init(&dev->reads, 0, "dev.reads");
	sim_word_init(&dev->writes, 0, "dev.writes");
}

/* Block @b made: its sectors hold its fill value. */
static uint32_t *dev_block_make(struct m_blkdev *dev, sector_t b)
{
	uint32_t *block = dev->data[b];

	if (block)
		return block;
	block = sim_arena_alloc(M_DEV_BLOCK * sizeof(*block));
	for (sector_t k = 0; k < M_DEV_BLOCK; k++)
		block[k] = dev->data_fill[b];
	dev->data[b] = block;
	return block;
}

void m_dev_data_set(struct m_blkdev *dev, sector_t s, sector_t n,
		    uint32_t id)
{
	while (n) {
		sector_t b = s >> M_DEV_BLOCK_SHIFT;
		sector_t k = s & (M_DEV_BLOCK - 1);
		sector_t len = M_DEV_BLOCK - k < n ? M_DEV_BLOCK - k : n;

		if (len == M_DEV_BLOCK) {
			/* The whole block: a fill value again. */
			if (dev->data[b])
				sim_arena_free(dev->data[b], M_DEV_BLOCK *
					       sizeof(uint32_t));
			dev->data[b] = NULL;
			dev->data_fill[b] = id;
		} else if (dev->data[b] || dev->data_fill[b] != id) {
			uint32_t *block = dev_block_make(dev, b);

			for (sector_t i = 0; i < len; i++)
				block[k + i] = id;
		}
		s += len;
		n -= len;
	}
}

void m_dev_data_write(struct m_blkdev *dev, sector_t s, const uint32_t *ids,
		      sector_t n)
{
	while (n) {
		sector_t b = s >> M_DEV_BLOCK_SHIFT;
		sector_t k = s & (M_DEV_BLOCK - 1);
		sector_t len = M_DEV_BLOCK - k < n ? M_DEV_BLOCK - k : n;

		memcpy(dev_block_make(dev, b) + k, ids, len * sizeof(*ids));
		ids += len;
		s += len;
		n -= len;
	}
}

void m_dev_data_read(const struct m_blkdev *dev, sector_t s, uint32_t *ids,
		     sector_t n)
{
	for (sector_t i = 0; i < n; i++)
		ids[i] = m_dev_data(dev, s + i);
}

/*
 * m_blkdev_check - invariants of the device, after every step.
 *  1. reads and writes never exceed the bios submitted.
 * Not checked: content (the model's cross-module checks compare it).
 */
void m_blkdev_check(void *arg)
{
	struct m_blkdev *dev = arg;
	uint64_t bios = sim_word_peek(&dev->bios_submitted);

	SIM_CHECK(sim_word_peek(&dev->writes) <= bios * M_BIO_VECS_MAX * 16,
		  "device: %llu page writes from %llu bios",
		  (unsigned long long)sim_word_peek(&dev->writes),
		  (unsigned long long)bios);
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
 * km_bio_alloc - a new bio.
 * Kernel: block/bio.c bio_alloc, v6.18.  Never fails in the model.
 */
struct km_bio *km_bio_alloc(enum km_req_op op, unsigned int opf,
			    sector_t sector)
{
	struct km_bio *bio = sim_arena_alloc(sizeof(*bio));

	bio->op = op;
	bio->opf = opf;
	bio->sector = sector;
	sim_completion_init(&bio->done, "bio.done");
	return bio;
}

/**
 * km_bio_add_folio - add a folio range to a bio.
 * Kernel: block/bio.c bio_add_folio, v6.18.
 * Return: false when the bio has no room.
 */
bool km_bio_add_folio(struct km_bio *bio, struct km_folio *folio, size_t len,
		      size_t offset)
{
	if (bio->vcnt == M_BIO_VECS_MAX)
		return false;
	bio->vec[bio->vcnt++] = (struct km_bio_vec){ folio, offset, len };
	return true;
}

size_t m_bio_size(const struct km_bio *bio)
{
	size_t bytes = bio->zero_len + bio->dio_len;

	for (unsigned int i = 0; i < bio->vcnt; i++)
		bytes += bio->vec[i].len;
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
		for (unsigned int i = 0; i < bio->vcnt; i++) {
			const struct km_bio_vec *v = &bio->vec[i];

			sim_word_read_also(&v->folio->data_version);
			m_dev_data_write(dev, sector,
					 &v->folio->data[v->offset >>
							 SECTOR_SHIFT],
					 v->len >> SECTOR_SHIFT);
			sector += v->len >> SECTOR_SHIFT;
		}
		sim_word_add_nr(&dev->writes, (int64_t)pages);
	} else {
		/* The DMA, one step: the sectors are read, the folios
		 * written. */
		sim_word_touch_range(&dev->data_version, SIM_ACCESS_READ,
				     (uint32_t)sector, (uint32_t)last);
		if (bio->dio_len)
			sector += bio_transfer_dio_read(dev, bio);
		for (unsigned int i = 0; i < bio->vcnt; i++) {
			const struct km_bio_vec *v = &bio->vec[i];

			sim_word_add_also(&v->folio->data_version, 1);
			m_dev_data_read(dev, sector,
					&v->folio->data[v->offset >>
							SECTOR_SHIFT],
					v->len >> SECTOR_SHIFT);
			sector += v->len >> SECTOR_SHIFT;
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

/* The completion: transfer, status, then bi_end_io (an engine event). */
void m_bio_device_complete(void *arg)
{
	struct km_bio *bio = arg;

	bio_transfer(bio);
	bio_note_end(bio);
	if (bio->end_io)
		bio->end_io(bio);
}

static void submit_bio_wait_endio(struct km_bio *bio);

/* A timed run's bio is gone: its ids and memory go back (long runs). */
static void bio_free(struct km_bio *bio)
{
	sim_object_retire(bio->done.done.id);
	sim_object_retire(bio->done.waiters.id);
	sim_arena_free(bio, sizeof(*bio));
}

/* bi_end_io, then the bio is put, unless submit_bio_wait owns it. */
static void bio_end_io_put(struct km_bio *bio)
{
	bool owned = bio->end_io == submit_bio_wait_endio;

	bio_note_end(bio);
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

/* Issue the plan step bio->rq_step to the device; its completion is an
 * event at the device's time.  Called in a step that accessed t->queue. */
static void timed_issue_step(struct m_blk_timed *t, struct km_bio *bio);

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
 * One plan step completed (interrupt context).  After the DATA step the
 * data is on the device; after the last step the bio ends (bio_endio)
 * and then the request's tag is freed and one tag waiter woken
 * (blk_mq_end_request -> blk_mq_free_request -> sbitmap_queue_clear).
 */
static void timed_step_done(void *arg)
{
	struct km_bio *bio = arg;
	struct m_blk_timed *t = m_world()->dev.timed;
	struct m_blk_mq_request *rq = bio->rq;
	const struct hw_nvme_cmd *cmd = &rq->plan.step[bio->rq_step];
	uint32_t hctx = rq->hctx->queue_num;

	/* The interrupt's work: the driver's completion, blk-mq, bio_endio
	 * beyond the model's steps (profiles/cpu/default.cpu). */
	m_cost_bio_complete();
	if (cmd->op != HW_NVME_FLUSH && !bio->no_content)
		bio_transfer(bio);
	if (++bio->rq_step < rq->plan.nr) {
		sim_word_add(&t->queue, 1);
		timed_issue_step(t, bio);
		return;
	}
	bio->rq = NULL;
	timed_rq_qos_done(t, rq, bio);
	if (bio->end_io_in_task) {
		t->stats.end_io_in_task++;
		sim_task_spawn("kworker/xfs-conv", timed_end_io_work, bio);
	} else {
		bio_end_io_put(bio);
	}
	sim_word_add(&t->queue, 1);
	m_blk_mq_end_request(rq);
	sim_waitq_wake_one(&t->tag_wait[hctx]);
	sim_arena_free(rq, sizeof(*rq));
}

static void timed_issue_step(struct m_blk_timed *t, struct km_bio *bio)
{
	const struct hw_nvme_cmd *cmd = &bio->rq->plan.step[bio->rq_step];
	uint64_t done_ns;
	int ret;

	ret = hw_nvme_submit(&t->nvme, cmd, sim_now(), &done_ns);
	SIM_ASSERT_MSG(ret == 0, "device rejected a command (%d)", ret);
	t->stats.device_cmds++;
	if (cmd->op == HW_NVME_FLUSH)
		t->stats.flushes++;
	else if (cmd->flags & HW_NVME_CMD_FUA)
		t->stats.fua_writes++;
	t->stats.late_submits = t->nvme.stats.late_submits;
	sim_event_post_at(cmd->op == HW_NVME_FLUSH ? "nvme-flush" :
			  bio->op == REQ_OP_WRITE ? "nvme-write" : "nvme-read",
			  timed_step_done, bio, done_ns);
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
		bio_end_io_put(bio);
		return;
	}
	bio->rq = rq;
	bio->rq_step = 0;
	/* rq_qos_track, then blk_mq_start_request's rq_qos_issue. */
	rq->wbt_flags = wbt_flags;
	rq->io_start_ns = sim_now();
	if (t->wbt)
		m_wbt_issue(t->wbt, wbt_flags, bio);
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
	sim_word_init(&t->queue, 0, "blk-mq.queue");
	t->tag_wait = sim_arena_alloc(t->q.nr_hw_queues *
				      sizeof(*t->tag_wait));
	for (uint32_t i = 0; i < t->q.nr_hw_queues; i++)
		sim_waitq_init(&t->tag_wait[i], "hctx%u.tag_wait", i);
	/* wbt_init (blk-wbt.c), when the profile's queue throttles. */
	t->wbt = NULL;
	if (profile->wbt_lat_usec) {
		t->wbt = sim_arena_alloc(sizeof(*t->wbt));
		m_wbt_init(t->wbt, profile->queue_depth, profile->wbt_lat_usec,
			   hw_nvme_volatile_cache(profile));
	}
	/* What the filesystem keeps on the device (the XFS log). */
	if (dev->timed_attached)
		dev->timed_attached(dev, profile->capacity_bytes);
	dev->timed = t;
	return 0;
}

bool m_blkdev_is_timed(void)
{
	struct m_world *w = m_world();

	return w && w->dev.timed;
}

void m_blkdev_timed_stats(struct m_blkdev_timed_stats *stats)
{
	struct m_world *w = m_world();

	memset(stats, 0, sizeof(*stats));
	if (w && w->dev.timed)
		*stats = w->dev.timed->stats;
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
