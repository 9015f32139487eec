// SPDX-License-Identifier: MIT
/*
 * tests/model/block/test_blk_mq.c - the blk-mq layer (model/block/blk-mq.c,
 * model/block/blk-flush.c; Kernel: block/blk-mq.c, blk-mq-tag.c,
 * blk-mq-cpumap.c, blk-flush.c, blk-core.c, lib/group_cpus.c, v6.18) and
 * its use of the timed device (model/hw/nvme.c).
 *
 * Pure functions: no engine, no interleavings.  The flush table follows
 * the comment at the top of block/blk-flush.c: without a write-back cache
 * PREFLUSH and FUA make no difference (data bios run as normal requests,
 * empty flushes complete at once); with a cache and FUA, PREFLUSH becomes
 * a flush and FUA passes down; with a cache and no FUA, PREFLUSH becomes
 * a flush before and FUA a flush after the data.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/block/blk-mq.h"
#include "tools/profiles.h"

#ifndef WPSIM_SOURCE_DIR
#define WPSIM_SOURCE_DIR "."
#endif
#define PROFILE_DIR WPSIM_SOURCE_DIR "/profiles/devices"

static void load(const char *name, struct hw_nvme_profile *p)
{
	char err[2048];

	cr_assert_eq(wpsim_device_profile_find(PROFILE_DIR, name, p, err,
					  sizeof(err)), 0, "%s", err);
}

static struct m_request_queue *queue_open(const struct hw_nvme_profile *p,
					  uint32_t cpus)
{
	struct m_request_queue *q = malloc(sizeof(*q));
	uint32_t nr_hw = p->nr_hw_queues < cpus ? p->nr_hw_queues : cpus;
	void *mem = malloc(m_blk_mq_mem_size(nr_hw, p->queue_depth));

	cr_assert(q && mem);
	cr_assert_eq(m_blk_mq_init_queue(q, p, cpus, mem), 0);
	return q;
}

static void queue_close(struct m_request_queue *q)
{
	free(q->hctx);		/* the start of the queue's memory */
	free(q);
}

/* ---- The CPU map -------------------------------------------------------- */

/*
 * blk_mq_map_queues over group_cpus_evenly: consecutive CPUs per queue,
 * the first groups one larger; with more queues than CPUs only nr_cpus
 * groups exist and queue q takes group q % nr_masks, so the last queues
 * win.
 */
Test(blk_mq, map_queues_spreads_cpus_evenly)
{
	static const struct {
		uint32_t cpus, queues;
		uint16_t map[8];
	} cases[] = {
		{ 2, 1, { 0, 0 } },
		{ 4, 2, { 0, 0, 1, 1 } },
		{ 5, 2, { 0, 0, 0, 1, 1 } },
		{ 7, 3, { 0, 0, 0, 1, 1, 2, 2 } },
		{ 8, 8, { 0, 1, 2, 3, 4, 5, 6, 7 } },
		{ 2, 4, { 2, 3 } },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint16_t map[M_BLK_MQ_CPUS_MAX];

		memset(map, 0xff, sizeof(map));
		km_blk_mq_map_queues(map, cases[i].cpus, cases[i].queues);
		for (uint32_t c = 0; c < cases[i].cpus; c++)
			cr_expect_eq(map[c], cases[i].map[c],
				     "%u CPUs over %u queues: cpu %u -> %u, "
				     "expected %u", cases[i].cpus,
				     cases[i].queues, c, map[c],
				     cases[i].map[c]);
	}
}

/* The drivers' queue count: min(CPUs, the device's queues); features
 * from the profile (BLK_FEAT_WRITE_CACHE only with a volatile cache). */
Test(blk_mq, init_queue_follows_the_profile)
{
	struct hw_nvme_profile p;
	struct m_request_queue *q;

	load("virtio-vm", &p);
	q = queue_open(&p, 2);
	cr_expect_eq(q->nr_hw_queues, 1);
	cr_expect_eq(q->queue_depth, 128);
	cr_expect_eq(q->features, M_BLK_FEAT_WRITE_CACHE |
		     M_BLK_FEAT_ROTATIONAL);
	cr_expect_eq(m_blk_mq_map_queue(q, 1), &q->hctx[0]);
	cr_expect_null(m_blk_mq_map_queue(q, 2));
	queue_close(q);

	load("enterprise-plp", &p);
	q = queue_open(&p, 2);
	cr_expect_eq(q->nr_hw_queues, 2);
	cr_expect_eq(q->features, 0);
	cr_expect_eq(m_blk_mq_map_queue(q, 1), &q->hctx[1]);
	queue_close(q);

	load("consumer-vwc", &p);
	q = queue_open(&p, 16);
	cr_expect_eq(q->nr_hw_queues, 8);
	cr_expect_eq(q->features, M_BLK_FEAT_WRITE_CACHE | M_BLK_FEAT_FUA);
	cr_expect_eq(m_blk_mq_map_queue(q, 15), &q->hctx[7]);
	queue_close(q);
}

/* ---- Tags --------------------------------------------------------------- */

/* Tags run out at queue_depth: -EBUSY where the kernel would sleep,
 * -EAGAIN with NOWAIT; a freed tag is handed out again; each hardware
 * queue has its own set. */
Test(blk_mq, tags_run_out_at_queue_depth)
{
	struct hw_nvme_profile p;
	struct m_request_queue *q;
	struct m_blk_mq_hw_ctx *h0, *h1;

	load("seed002-disk", &p);
	p.nr_hw_queues = 2;
	q = queue_open(&p, 2);
	h0 = &q->hctx[0];
	h1 = &q->hctx[1];
	for (int t = 0; t < 64; t++)
		cr_assert_eq(m_blk_mq_get_tag(h0, 0), t);
	cr_expect_eq(m_blk_mq_get_tag(h0, 0), -EBUSY);
	cr_expect_eq(m_blk_mq_get_tag(h0, M_BLK_MQ_REQ_NOWAIT), -EAGAIN);
	cr_expect_eq(m_blk_mq_get_tag(h1, M_BLK_MQ_REQ_NOWAIT), 0);
	m_blk_mq_put_tag(h0, 37);
	cr_expect_eq(m_blk_mq_get_tag(h0, 0), 37);
	cr_expect_eq(h0->tag_busy, 2);
	cr_expect_eq(h0->tags.nr_free, 0);
	queue_close(q);
}

/* ---- PREFLUSH / FUA ----------------------------------------------------- */

struct flush_case {
	const char *profile;
	bool wc_disabled;
	enum km_req_op op;
	unsigned int opf;
	uint32_t bytes;
	int rc;				/* m_blk_mq_submit_bio */
	unsigned int nr;		/* plan steps */
	enum hw_nvme_op step[3];
	bool data_fua;			/* the data command has FUA */
	unsigned int flags_out;		/* rq->cmd_flags */
};

#define W	REQ_OP_WRITE
#define R	REQ_OP_READ
#define F	HW_NVME_FLUSH
#define D	HW_NVME_WRITE
#define RD	HW_NVME_READ
#define PF	REQ_PREFLUSH

Test(blk_mq, flush_sequences_follow_the_queue_features)
{
	static const struct flush_case cases[] = {
		/* No volatile cache (PLP): stripped in submit_bio_noacct. */
		{ "enterprise-plp", 0, W, PF | REQ_FUA, 4096, 0, 1, { D },
		  false, 0 },
		{ "enterprise-plp", 0, W, REQ_SYNC | REQ_IDLE | REQ_FUA, 4096,
		  0, 1, { D }, false, REQ_SYNC | REQ_IDLE },
		{ "enterprise-plp", 0, W, PF, 0, 1, 0, { 0 }, false, 0 },
		/* A cache with FUA (NVMe VWC). */
		{ "consumer-vwc", 0, W, PF | REQ_FUA, 4096, 0, 2, { F, D },
		  true, REQ_FUA | REQ_SYNC },
		{ "consumer-vwc", 0, W, REQ_FUA, 4096, 0, 1, { D }, true,
		  REQ_FUA | REQ_SYNC },
		{ "consumer-vwc", 0, W, PF, 4096, 0, 2, { F, D }, false,
		  REQ_SYNC },
		{ "consumer-vwc", 0, W, PF, 0, 0, 1, { F }, false, REQ_SYNC },
		{ "consumer-vwc", 0, W, REQ_SYNC | REQ_IDLE, 4096, 0, 1, { D },
		  false, REQ_SYNC | REQ_IDLE },
		{ "consumer-vwc", 0, R, 0, 4096, 0, 1, { RD }, false, 0 },
		/* The cache switched to "write through" in sysfs. */
		{ "consumer-vwc", 1, W, PF | REQ_FUA, 4096, 0, 1, { D }, false,
		  0 },
		{ "consumer-vwc", 1, W, PF, 0, 1, 0, { 0 }, false, 0 },
		/* A cache without FUA (virtio): FUA becomes a post-flush. */
		{ "virtio-vm", 0, W, REQ_FUA, 4096, 0, 2, { D, F }, false,
		  REQ_SYNC },
		{ "virtio-vm", 0, W, PF | REQ_FUA, 4096, 0, 3, { F, D, F },
		  false, REQ_SYNC },
		{ "virtio-vm", 0, W, PF, 0, 0, 1, { F }, false, REQ_SYNC },
		/* Flush flags only make sense on writes. */
		{ "virtio-vm", 0, R, REQ_FUA, 4096, -EIO, 0, { 0 }, false,
		  0 },
		{ "virtio-vm", 0, R, 0, 0, -EINVAL, 0, { 0 }, false, 0 },
		{ "virtio-vm", 0, W, REQ_SYNC, 0, -EINVAL, 0, { 0 }, false,
		  0 },
		/* FUA without data: a post-flush, or nothing with FUA. */
		{ "virtio-vm", 0, W, REQ_FUA, 0, 0, 1, { F }, false,
		  REQ_SYNC },
		{ "consumer-vwc", 0, W, REQ_FUA, 0, 1, 0, { 0 }, false, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct flush_case *c = &cases[i];
		struct hw_nvme_profile p;
		struct m_request_queue *q;
		struct m_blk_mq_request rq;
		int rc;

		load(c->profile, &p);
		q = queue_open(&p, 1);
		q->write_cache_disabled = c->wc_disabled;
		rc = m_blk_mq_submit_bio(q, 0, c->op, c->opf, 64, c->bytes, 0,
					 &rq);
		cr_expect_eq(rc, c->rc, "case %zu: rc %d", i, rc);
		if (rc == 0) {
			cr_expect_eq(rq.plan.nr, c->nr, "case %zu: %u steps",
				     i, rq.plan.nr);
			for (unsigned int s = 0; s < c->nr && s < rq.plan.nr;
			     s++)
				cr_expect_eq(rq.plan.step[s].op, c->step[s],
					     "case %zu step %u", i, s);
			for (unsigned int s = 0; s < rq.plan.nr; s++) {
				const struct hw_nvme_cmd *cmd =
					&rq.plan.step[s];

				if (cmd->op == HW_NVME_FLUSH)
					continue;
				cr_expect_eq(!!(cmd->flags & HW_NVME_CMD_FUA),
					     c->data_fua, "case %zu FUA", i);
				cr_expect_eq(cmd->lba, 64);
				cr_expect_eq(cmd->bytes, c->bytes);
			}
			cr_expect_eq(rq.cmd_flags, c->flags_out,
				     "case %zu: flags %#x", i, rq.cmd_flags);
			cr_expect_eq(q->hctx[0].tags.nr_free, p.queue_depth - 1,
				     "case %zu holds one tag", i);
			m_blk_mq_end_request(&rq);
		}
		cr_expect_eq(q->hctx[0].tags.nr_free, p.queue_depth,
			     "case %zu: a tag is left", i);
		queue_close(q);
	}
}

/* ---- Through the device ------------------------------------------------- */

/* Run a request's plan on @dev from @now: each step when the previous
 * completes (a single submitter, so times stay in order). */
static uint64_t run_plan(struct hw_nvme *dev, const struct m_blk_plan *plan,
			 uint64_t now)
{
	for (unsigned int s = 0; s < plan->nr; s++)
		cr_assert_eq(hw_nvme_submit(dev, &plan->step[s], now, &now), 0);
	return now;
}

static struct hw_nvme *dev_open(const struct hw_nvme_profile *p)
{
	struct hw_nvme *dev = malloc(sizeof(*dev));
	void *mem = malloc(hw_nvme_mem_size(p));

	cr_assert(dev && mem);
	cr_assert_eq(hw_nvme_init(dev, p, 1, mem), 0);
	return dev;
}

static void dev_close(struct hw_nvme *dev)
{
	free(dev->unit);
	free(dev);
}

/*
 * fdatasync after a 4 KiB overwrite = the write, then an empty PREFLUSH
 * bio (blkdev_issue_flush).  On the PLP drive the flush never reaches
 * the device; on the consumer drive it waits for the destage and
 * flush_ns; on virtio too.  O_DSYNC on virtio (FUA without native FUA)
 * is write then flush.  Jitter off: the times are the profile's sums.
 */
Test(blk_mq, fsync_cost_depends_on_the_cache)
{
	static const char *const names[] = { "enterprise-plp", "consumer-vwc",
					     "virtio-vm" };

	for (size_t i = 0; i < 3; i++) {
		struct hw_nvme_profile p;
		struct m_request_queue *q;
		struct m_blk_mq_request rq;
		struct hw_nvme *dev;
		uint64_t t, flush_ns;
		int rc;

		load(names[i], &p);
		p.jitter_ns = 0;
		p.tail_ppm = 0;
		p.tail_ns = 0;
		q = queue_open(&p, 1);
		dev = dev_open(&p);
		cr_assert_eq(m_blk_mq_submit_bio(q, 0, REQ_OP_WRITE,
						 REQ_SYNC | REQ_IDLE, 0, 4096,
						 0, &rq), 0);
		t = run_plan(dev, &rq.plan, 0);
		m_blk_mq_end_request(&rq);
		rc = m_blk_mq_submit_bio(q, 0, REQ_OP_WRITE, REQ_PREFLUSH, 0,
					 0, 0, &rq);
		if (!hw_nvme_volatile_cache(&p)) {
			cr_expect_eq(rc, 1, "%s: the flush is stripped",
				     p.name);
			cr_expect_eq(dev->stats.cmds[HW_NVME_FLUSH], 0);
		} else {
			cr_assert_eq(rc, 0);
			flush_ns = run_plan(dev, &rq.plan, t) - t;
			m_blk_mq_end_request(&rq);
			cr_expect_eq(flush_ns, p.cmd_ns + p.fw_ns +
				     p.program_ns + p.flush_ns,
				     "%s: flush %llu", p.name,
				     (unsigned long long)flush_ns);
		}
		queue_close(q);
		dev_close(dev);
	}
}

/*
 * Tags bound what reaches the device: 256 submitters against virtio's
 * 128 tags; a submitter that gets -EBUSY waits until a completion frees a
 * tag (here: retries at that completion time, in time order).  The
 * device never holds more than 128, and every bio completes.
 */
Test(blk_mq, tags_bound_the_device_queue)
{
	enum { SUBMITTERS = 256, BIOS = 20000 };
	struct hw_nvme_profile p;
	struct m_request_queue *q;
	struct hw_nvme *dev;
	struct m_blk_mq_request *rq = calloc(SUBMITTERS, sizeof(*rq));
	uint64_t *done = calloc(SUBMITTERS, sizeof(*done));
	bool *waiting = calloc(SUBMITTERS, sizeof(*waiting));
	uint64_t now = 0, completed = 0, issued = 0;
	uint32_t max_inflight = 0, waits = 0;

	cr_assert(rq && done && waiting);
	load("virtio-vm", &p);
	q = queue_open(&p, 2);
	dev = dev_open(&p);
	for (int s = 0; s < SUBMITTERS; s++) {
		int rc = m_blk_mq_submit_bio(q, (uint32_t)s % 2, REQ_OP_WRITE,
					     REQ_SYNC | REQ_IDLE,
					     8ULL * (uint64_t)s, 4096, 0,
					     &rq[s]);

		if (rc == -EBUSY) {
			waiting[s] = true;
			waits++;
			done[s] = UINT64_MAX;
			continue;
		}
		cr_assert_eq(rc, 0);
		cr_assert_eq(hw_nvme_submit(dev, &rq[s].plan.step[0], now,
					    &done[s]), 0);
		issued++;
	}
	while (completed < BIOS) {
		int next = -1;

		for (int s = 0; s < SUBMITTERS; s++)
			if (!waiting[s] && (next < 0 || done[s] < done[next]))
				next = s;
		now = done[next];
		m_blk_mq_end_request(&rq[next]);
		completed++;
		waiting[next] = true;	/* resubmits like the others */
		/* The freed tag wakes the waiters; each retries. */
		for (int s = 0; s < SUBMITTERS; s++) {
			int rc;

			if (!waiting[s] || issued >= BIOS + SUBMITTERS)
				continue;
			rc = m_blk_mq_submit_bio(q, (uint32_t)s % 2,
						 REQ_OP_WRITE,
						 REQ_SYNC | REQ_IDLE,
						 8ULL * (issued % 1000), 4096,
						 0, &rq[s]);
			if (rc == -EBUSY)
				continue;
			cr_assert_eq(rc, 0);
			cr_assert_eq(hw_nvme_submit(dev, &rq[s].plan.step[0],
						    now, &done[s]), 0);
			waiting[s] = false;
			issued++;
		}
		if (hw_nvme_inflight(dev, now) > max_inflight)
			max_inflight = hw_nvme_inflight(dev, now);
	}
	cr_expect_eq(waits, SUBMITTERS - 128);
	cr_expect_eq(max_inflight, 128);
	cr_expect_eq(dev->stats.busy_rejects, 0);
	cr_expect_gt(q->hctx[0].tag_busy, 0);
	cr_expect_eq(q->hctx[0].tags.nr_free, 0,
		     "the submitters keep every tag busy");
	free(rq);
	free(done);
	free(waiting);
	queue_close(q);
	dev_close(dev);
}

/* ---- the flush state machine, step by step ------------------------------ */

/*
 * block/blk-flush.c's state machine (blk_insert_flush,
 * blk_flush_complete_seq, blk_kick_flush, flush_end_io,
 * mq_flush_data_end_io, v6.18) driven by hand through its ops: every
 * flush and data command it issues is logged, nothing completes until
 * the test says so.  Two PREFLUSH writes (policy PREFLUSH | DATA) and a
 * FUA write on a queue without FUA (DATA | POSTFLUSH):
 *   1. A is inserted: queued for PREFLUSH on list 0, pending since
 *      jiffy 100; nothing in flight: the flush is issued (pending
 *      index 1);
 *   2. B is inserted: queued on list 1; C1: a flush is in flight, none
 *      issued;
 *   3. the flush ends: A goes on to DATA (issued, one in flight); the
 *      list of B: C2, data in flight and within FLUSH_PENDING_TIMEOUT
 *      (5 s, 1250 jiffies) of B's pending_since: no flush yet;
 *   4. A's data ends: A is done (its POSTFLUSH was never asked); no
 *      data in flight: B's flush is issued;
 *   5. C (DATA | POSTFLUSH) is inserted: its data goes as is (the
 *      caller issues it; one in flight);
 *   6. B's flush ends: B's DATA issued (two in flight);
 *   7. C's data ends: C queued for POSTFLUSH (pending since 1400); B's
 *      data still in flight and 1400 < 1400 + 1250: C waits;
 *   8. at jiffy 2650 (1400 + 1250: no longer before) B's data ends: B
 *      done, and C3 no longer holds anything back: C's flush is issued;
 *   9. it ends: C done.
 * Then the timeout alone: D (PREFLUSH | DATA) queued while E's data is
 * in flight issues its flush at once when the jiffies are already
 * 1250 past D's pending_since (C3), and waits when they are not (C2).
 */
static char fl_log[64];
static unsigned int fl_len;
static unsigned long fl_jiffies;
static struct m_blk_mq_request *fl_data_issued[8];
static unsigned int fl_data_n;
static struct m_blk_mq_request *fl_done[8];
static unsigned int fl_done_n;

static void fl_issue_data(struct m_blk_mq_request *rq)
{
	fl_log[fl_len++] = 'D';
	fl_data_issued[fl_data_n++] = rq;
}

static void fl_issue_flush(struct m_blk_flush_queue *fq)
{
	(void)fq;
	fl_log[fl_len++] = 'F';
}

static void fl_end_request(struct m_blk_mq_request *rq, int error)
{
	cr_assert_eq(error, 0);
	fl_done[fl_done_n++] = rq;
}

static unsigned long fl_get_jiffies(void)
{
	return fl_jiffies;
}

static const struct m_blk_flush_ops fl_ops = {
	.issue_data = fl_issue_data,
	.issue_flush = fl_issue_flush,
	.end_request = fl_end_request,
	.jiffies = fl_get_jiffies,
};

static void fl_reset(void)
{
	memset(fl_log, 0, sizeof(fl_log));
	fl_len = fl_data_n = fl_done_n = 0;
}

Test(blk_flush, preflushes_wait_for_the_flush_in_flight_and_for_data)
{
	struct m_blk_flush_queue fq;
	struct m_blk_mq_request a, b, c;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&c, 0, sizeof(c));
	a.plan.policy = b.plan.policy = M_REQ_FSEQ_PREFLUSH | M_REQ_FSEQ_DATA;
	c.plan.policy = M_REQ_FSEQ_DATA | M_REQ_FSEQ_POSTFLUSH;
	m_blk_flush_queue_init(&fq, NULL);
	fl_reset();
	fl_jiffies = 100;
	cr_assert(km_blk_insert_flush(&fq, &a, &fl_ops));	/* 1 */
	cr_assert_str_eq(fl_log, "F");
	cr_assert_eq(fq.flush_pending_idx, 1);
	cr_assert_eq(fq.flush_running_idx, 0);
	cr_assert_eq(fq.flush_pending_since, 100);
	fl_jiffies = 200;
	cr_assert(km_blk_insert_flush(&fq, &b, &fl_ops));	/* 2 */
	cr_assert_str_eq(fl_log, "F", "C1: one flush in flight");
	cr_assert_eq(fq.flush_pending_since, 200);
	fl_jiffies = 300;
	km_flush_end_io(&fq, 0, &fl_ops);			/* 3 */
	cr_assert_str_eq(fl_log, "FD");
	cr_assert_eq(fl_data_issued[0], &a);
	cr_assert_eq(fq.flush_data_in_flight, 1);
	cr_assert_eq(fq.flush_running_idx, 1);
	km_mq_flush_data_end_io(&fq, &a, 0, &fl_ops);		/* 4 */
	cr_assert_eq(fl_done_n, 1);
	cr_assert_eq(fl_done[0], &a);
	cr_assert(!a.flush_seq_active);
	cr_assert_str_eq(fl_log, "FDF", "B's flush once A's data ended");
	cr_assert_eq(fq.flush_pending_idx, 0);
	cr_assert(!km_blk_insert_flush(&fq, &c, &fl_ops));	/* 5 */
	cr_assert(c.flush_seq_active);
	cr_assert_eq(fq.flush_data_in_flight, 1);
	fl_jiffies = 1400;
	km_flush_end_io(&fq, 0, &fl_ops);			/* 6 */
	cr_assert_str_eq(fl_log, "FDFD");
	cr_assert_eq(fl_data_issued[1], &b);
	cr_assert_eq(fq.flush_data_in_flight, 2);
	km_mq_flush_data_end_io(&fq, &c, 0, &fl_ops);		/* 7 */
	cr_assert_eq(fq.flush_pending_since, 1400);
	cr_assert_str_eq(fl_log, "FDFD", "C2: B's data in flight");
	fl_jiffies = 1400 + M_FLUSH_PENDING_TIMEOUT;
	km_mq_flush_data_end_io(&fq, &b, 0, &fl_ops);		/* 8 */
	cr_assert_eq(fl_done_n, 2);
	cr_assert_eq(fl_done[1], &b);
	cr_assert_str_eq(fl_log, "FDFDF");
	km_flush_end_io(&fq, 0, &fl_ops);			/* 9 */
	cr_assert_eq(fl_done_n, 3);
	cr_assert_eq(fl_done[2], &c);
	cr_assert(m_blk_flush_queue_idle(&fq));
	cr_assert_eq(fq.flush_data_in_flight, 0);
}

/*
 * C3 (block/blk-flush.c blk_kick_flush, v6.18): a flush pending for
 * FLUSH_PENDING_TIMEOUT goes out even with data in flight.  E (DATA |
 * POSTFLUSH) has its data in flight; D (PREFLUSH | DATA) is queued at
 * jiffy 1000 and held (C2); G, another PREFLUSH, is queued on the same
 * list (pending_since stays 1000): at jiffy 2249 it is still held, at
 * 2250 (1000 + 1250: time_before is false) the flush is issued for
 * both, E's data still in flight.
 */
Test(blk_flush, a_pending_flush_goes_out_after_the_timeout_despite_data)
{
	struct m_blk_flush_queue fq;
	struct m_blk_mq_request d, e, g;

	for (int late = 0; late < 2; late++) {
		memset(&d, 0, sizeof(d));
		memset(&e, 0, sizeof(e));
		memset(&g, 0, sizeof(g));
		d.plan.policy = g.plan.policy =
			M_REQ_FSEQ_PREFLUSH | M_REQ_FSEQ_DATA;
		e.plan.policy = M_REQ_FSEQ_DATA | M_REQ_FSEQ_POSTFLUSH;
		m_blk_flush_queue_init(&fq, NULL);
		fl_reset();
		fl_jiffies = 1000;
		cr_assert(!km_blk_insert_flush(&fq, &e, &fl_ops));
		cr_assert(km_blk_insert_flush(&fq, &d, &fl_ops));
		cr_assert_str_eq(fl_log, "", "C2: E's data in flight");
		fl_jiffies = 1000 + M_FLUSH_PENDING_TIMEOUT - (late ? 0 : 1);
		cr_assert(km_blk_insert_flush(&fq, &g, &fl_ops));
		cr_assert_eq(fq.flush_pending_since, 1000);
		cr_assert_eq(fq.flush_data_in_flight, 1);
		cr_assert_str_eq(fl_log, late ? "F" : "", "at jiffy %lu",
				 fl_jiffies);
	}
}
