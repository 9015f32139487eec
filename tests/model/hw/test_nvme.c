// SPDX-License-Identifier: MIT
/*
 * tests/model/hw/test_nvme.c - the timed device (model/hw/nvme.c) and its
 * profiles (model/hw/nvme-profile.c, profiles/devices/).
 *
 * The device is pure: each test drives it directly in virtual time.  The
 * closed-loop driver keeps QD commands outstanding and resubmits each at
 * its completion time (O_DIRECT at iodepth QD, as fio would); IOPS are
 * measured after the write cache has reached its steady state and
 * compared with the closed form of docs/model/nvme.md, computed here from
 * the profile's figures:
 *
 *   IOPS(QD) = min(QD / (L1 + E[jitter]), program rate, link / bs,
 *                  1 / fw_ns)
 *
 * with L1 the QD1 latency of a cached write, cmd_ns + fw_ns + bs / link
 * + cache_ack_ns.  Exactness tests (flush, FUA, PLP, write-through,
 * seeks) use a copy of a profile with the jitter switched off, so every
 * completion time is an equation of the figures.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/hw/nvme.h"
#include "tools/profiles.h"

#ifndef WPSIM_SOURCE_DIR
#define WPSIM_SOURCE_DIR "."
#endif
#define PROFILE_DIR WPSIM_SOURCE_DIR "/profiles/devices"

static const char *const profile_names[] = {
	"consumer-vwc", "enterprise-plp", "seed000-pm173x", "seed002-disk",
	"virtio-vm",
};
#define NR_PROFILES (sizeof(profile_names) / sizeof(profile_names[0]))

static void load(const char *name, struct hw_nvme_profile *p)
{
	char err[2048];
	int rc = wpsim_device_profile_find(PROFILE_DIR, name, p, err, sizeof(err));

	cr_assert_eq(rc, 0, "%s", err);
}

static struct hw_nvme *dev_open(const struct hw_nvme_profile *p,
				uint64_t seed)
{
	struct hw_nvme *dev = malloc(sizeof(*dev));
	void *mem = malloc(hw_nvme_mem_size(p));

	cr_assert(dev && mem);
	cr_assert_eq(hw_nvme_init(dev, p, seed, mem), 0);
	return dev;
}

static void dev_close(struct hw_nvme *dev)
{
	free(dev->unit);	/* the start of the device's memory */
	free(dev);
}

static void no_jitter(struct hw_nvme_profile *p)
{
	p->jitter_ns = 0;
	p->tail_ppm = 0;
	p->tail_ns = 0;
}

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t submit(struct hw_nvme *dev, enum hw_nvme_op op,
		       unsigned int flags, uint64_t lba, uint32_t bytes,
		       uint64_t now)
{
	struct hw_nvme_cmd c = { .op = op, .flags = flags, .lba = lba,
				 .bytes = bytes };
	uint64_t done = 0;
	int rc = hw_nvme_submit(dev, &c, now, &done);

	cr_assert_eq(rc, 0, "submit at %llu: %d", (unsigned long long)now,
		     rc);
	cr_assert_gt(done, now);
	return done;
}

/* ---- The closed-loop driver --------------------------------------------- */

struct loop {
	uint64_t heap[1024];		/* completion times, a min-heap */
	uint32_t nr;
};

static void loop_push(struct loop *l, uint64_t v)
{
	uint32_t i = l->nr++;

	while (i && l->heap[(i - 1) / 2] > v) {
		l->heap[i] = l->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	l->heap[i] = v;
}

static uint64_t loop_pop(struct loop *l)
{
	uint64_t top = l->heap[0], v = l->heap[--l->nr];
	uint32_t i = 0;

	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= l->nr)
			break;
		if (c + 1 < l->nr && l->heap[c + 1] < l->heap[c])
			c++;
		if (v <= l->heap[c])
			break;
		l->heap[i] = l->heap[c];
		i = c;
	}
	if (l->nr)
		l->heap[i] = v;
	return top;
}

struct window {
	uint64_t start_ns, end_ns, ios;
};

/*
 * @qd random @bs writes outstanding (each resubmitted when it completes);
 * after @warm completions, measure @n.  @trace, if set, gets every
 * completion time in order.
 */
static struct window closed_loop(struct hw_nvme *dev, uint32_t bs,
				 uint32_t qd, uint64_t warm, uint64_t n,
				 uint64_t seed, uint64_t *trace)
{
	struct loop *l = calloc(1, sizeof(*l));
	uint64_t blocks = dev->prof.capacity_bytes / bs;
	uint64_t lba_per_block = bs / HW_NVME_SECTOR_BYTES;
	struct window w = { 0 };

	cr_assert(l && qd <= 1024);
	for (uint32_t i = 0; i < qd; i++)
		loop_push(l, submit(dev, HW_NVME_WRITE, 0,
				    rng_next(&seed) % blocks * lba_per_block,
				    bs, 0));
	for (uint64_t k = 0; k < warm + n; k++) {
		uint64_t t = loop_pop(l);

		if (trace)
			trace[k] = t;
		if (k == warm)
			w.start_ns = t;
		if (k == warm + n - 1)
			w.end_ns = t;
		loop_push(l, submit(dev, HW_NVME_WRITE, 0,
				    rng_next(&seed) % blocks * lba_per_block,
				    bs, t));
	}
	free(l);
	w.ios = n - 1;
	return w;
}

static double window_iops(struct window w)
{
	return (double)w.ios * 1e9 / (double)(w.end_ns - w.start_ns);
}

/* ---- The closed form, from the profile ---------------------------------- */

static double jitter_mean_ns(const struct hw_nvme_profile *p)
{
	double tail = p->tail_ppm / 1e6;
	double body = p->jitter_ns ? (p->jitter_ns - 1) / 2.0 : 0;

	return (1 - tail) * body + tail * (double)p->tail_ns;
}

struct bound {
	double l1_ns;		/* QD1 latency with the mean jitter */
	double ack_iops;	/* what the cache can take: QD, link, fw */
	double program_iops;	/* what the media can program */
	double iops;		/* the closed form */
};

static double min2(double a, double b)
{
	return a < b ? a : b;
}

static struct bound write_bound(const struct hw_nvme_profile *p, uint32_t bs,
				uint32_t qd)
{
	struct bound b;
	double xfer = bs * 1e9 / (double)p->link_write_bytes_per_sec;
	uint32_t pages = (bs + p->page_bytes - 1) / p->page_bytes;

	b.l1_ns = (double)(p->cmd_ns + p->fw_ns) + xfer;
	if (p->cache_bytes) {
		b.l1_ns += (double)p->cache_ack_ns;
		b.program_iops = p->page_merge ?
			(double)p->units * p->page_bytes * 1e9 /
				((double)p->program_ns * bs) :
			(double)p->units * 1e9 / ((double)p->program_ns *
						  pages);
	} else {
		b.l1_ns += (double)p->program_ns;
		b.program_iops = (double)p->units * 1e9 /
				 ((double)p->program_ns * pages);
	}
	b.l1_ns += jitter_mean_ns(p);
	b.ack_iops = min2(qd * 1e9 / b.l1_ns,
			  (double)p->link_write_bytes_per_sec / bs);
	if (p->fw_ns)
		b.ack_iops = min2(b.ack_iops, 1e9 / (double)p->fw_ns);
	b.iops = min2(b.ack_iops, b.program_iops);
	return b;
}

/*
 * The closed form with the tail: a command in its tail delay (tail_ppm of
 * them, tail_ns on average) has left the queue, so with k of the QD
 * commands out the others cycle as min((QD - k) / L_body, caps).  By
 * Little's law each command is out a fraction q = X * p_tail * tail_ns /
 * QD of the time, X the throughput; k is taken binomial(QD, q) and X
 * solved by iteration.  At QD 1 this is 1 / L1; without a tail it is
 * write_bound().iops.
 */
static double tail_aware_iops(const struct hw_nvme_profile *p, uint32_t bs,
			      uint32_t qd)
{
	struct bound b = write_bound(p, bs, qd);
	double ptail = p->tail_ppm / 1e6;
	double body = b.l1_ns - jitter_mean_ns(p) +
		      (1 - ptail) * (p->jitter_ns ? (p->jitter_ns - 1) / 2.0 :
						    0);
	double cap = min2(b.program_iops,
			  (double)p->link_write_bytes_per_sec / bs);
	double x = b.iops;

	if (p->fw_ns)
		cap = min2(cap, 1e9 / (double)p->fw_ns);
	for (int it = 0; it < 500; it++) {
		double q = x * ptail * (double)p->tail_ns / 1e9 / qd;
		double next = 0;

		if (q > 1)
			q = 1;
		for (uint32_t k = 0; k < qd; k++) {
			double pk = exp(lgamma(qd + 1.0) - lgamma(k + 1.0) -
					lgamma(qd - k + 1.0)) * pow(q, k) *
				    pow(1 - q, qd - k);

			next += pk * min2((qd - k) * 1e9 / body, cap);
		}
		x = 0.5 * x + 0.5 * next;
	}
	return x;
}

/* Completions before the cache is full, and then some: the steady state
 * starts when the cache has filled at (ack - program) per second. */
static uint64_t warmup_ios(const struct hw_nvme_profile *p, uint32_t bs,
			   uint32_t qd, struct bound b)
{
	double fill = (double)p->cache_bytes / bs;

	if (!p->cache_bytes || b.ack_iops < 1.04 * b.program_iops)
		return 20ULL * qd + 2000;
	return (uint64_t)(1.3 * fill * b.ack_iops /
			  (b.ack_iops - b.program_iops)) + 20ULL * qd + 2000;
}

/*
 * Random 4 KiB O_DIRECT-like writes at QD 1, 2, 4 ... 256 on every
 * profile: the steady-state IOPS within 5% of the closed form
 * min(QD / L1, program rate, link / bs, 1 / fw_ns), and within 5% of its
 * tail-aware form everywhere.  The two forms differ where a heavy tail
 * meets the knee (virtio-vm at QD 4: 1.5% of commands 2.7 ms late take
 * QD slots out of the loop); there only the tail-aware form is held to
 * 5%.  Queue depths above the device's slots (virtio 128, seed002 64)
 * are not run: blk-mq never has more in flight.
 */
Test(nvme, randwrite_iops_within_5pc_of_closed_form, .timeout = 240)
{
	const uint32_t bs = 4096;
	unsigned int runs = 0, expected_runs = 0, knees = 0;

	for (size_t i = 0; i < NR_PROFILES; i++) {
		struct hw_nvme_profile p;

		load(profile_names[i], &p);
		cr_assert_eq(p.seek_ns, 0, "%s: the closed form has no seeks",
			     p.name);
		for (uint32_t qd = 1; qd <= 256; qd *= 2) {
			struct hw_nvme *dev;
			struct bound b = write_bound(&p, bs, qd);
			struct window w;
			double iops, err, tail, tail_err;

			if (qd > p.nr_hw_queues * p.queue_depth)
				continue;
			expected_runs++;
			dev = dev_open(&p, 42 + qd);
			w = closed_loop(dev, bs, qd, warmup_ios(&p, bs, qd, b),
					300000, 7 * qd + i, NULL);
			iops = window_iops(w);
			err = (iops - b.iops) / b.iops;
			tail = tail_aware_iops(&p, bs, qd);
			tail_err = (iops - tail) / tail;
			cr_log_info("%-16s QD %3u: %9.0f IOPS, closed form "
				    "%9.0f %+6.2f%%, with the tail %9.0f "
				    "%+6.2f%% (QD/L1 %9.0f, program %9.0f)",
				    p.name, qd, iops, b.iops, 100 * err, tail,
				    100 * tail_err, qd * 1e9 / b.l1_ns,
				    b.program_iops);
			cr_expect(fabs(tail_err) <= 0.05,
				  "%s QD %u: %.0f IOPS, tail-aware form %.0f "
				  "(%+.2f%%)", p.name, qd, iops, tail,
				  100 * tail_err);
			if (fabs(tail / b.iops - 1) <= 0.02)
				cr_expect(fabs(err) <= 0.05,
					  "%s QD %u: %.0f IOPS, closed form "
					  "%.0f (%+.2f%%)", p.name, qd, iops,
					  b.iops, 100 * err);
			else
				knees++;
			dev_close(dev);
			runs++;
		}
	}
	cr_assert_eq(runs, expected_runs);
	cr_assert_geq(runs, 30, "QD points run: %u", runs);
	cr_log_info("%u of %u points at a heavy-tailed knee", knees, runs);
	cr_assert_leq(knees, 2, "heavy-tailed knees: %u", knees);
}

/*
 * The write cache is visible: at QD 32 a cached profile first completes
 * writes at the rate the cache takes them (above the program rate), then,
 * once the cache is full, at the program rate.  Runs on every profile
 * whose cache can outrun its media by 10%; four of the five can
 * (seed000-pm173x is enterprise-plp's drive with another queue).
 */
Test(nvme, write_cache_burst_then_program_rate)
{
	const uint32_t bs = 4096, qd = 32;
	unsigned int shown = 0;

	for (size_t i = 0; i < NR_PROFILES; i++) {
		struct hw_nvme_profile p;
		struct hw_nvme *dev;
		struct bound b;
		uint64_t fill, n, *trace;
		struct window burst, steady;

		load(profile_names[i], &p);
		b = write_bound(&p, bs, qd);
		if (!p.cache_bytes || b.ack_iops < 1.1 * b.program_iops)
			continue;
		fill = p.cache_bytes / bs;
		n = warmup_ios(&p, bs, qd, b) + 100000;
		trace = malloc(n * sizeof(*trace));
		cr_assert(trace);
		dev = dev_open(&p, 3);
		closed_loop(dev, bs, qd, 0, n, 11, trace);
		/* Burst: from QD completions in to half the cache. */
		burst = (struct window){ trace[qd], trace[fill / 2],
					 fill / 2 - qd };
		steady = (struct window){ trace[n - 50001], trace[n - 1],
					  50000 };
		cr_log_info("%s: burst %.0f IOPS (cache takes %.0f), steady "
			    "%.0f (program rate %.0f)", p.name,
			    window_iops(burst), b.ack_iops,
			    window_iops(steady), b.program_iops);
		cr_expect_gt(window_iops(burst), 1.08 * b.program_iops,
			     "%s: burst %.0f not above the program rate %.0f",
			     p.name, window_iops(burst), b.program_iops);
		cr_expect(fabs(window_iops(steady) / b.program_iops - 1) < 0.05,
			  "%s: steady %.0f, program rate %.0f", p.name,
			  window_iops(steady), b.program_iops);
		cr_expect_gt(dev->stats.cache_waits, 0,
			     "%s: the cache never filled", p.name);
		cr_expect_eq(hw_nvme_cache_used_bytes(dev, trace[n - 1]),
			     p.cache_bytes, "%s: cache not full at the end",
			     p.name);
		free(trace);
		dev_close(dev);
		shown++;
	}
	cr_assert_eq(shown, 4, "profiles showing the burst: %u", shown);
}

/*
 * FLUSH after a burst of writes waits until every cached write is
 * programmed, then pays flush_ns; on an idle device it pays cmd_ns +
 * flush_ns only.  Volatile-cache profiles, jitter off.
 */
Test(nvme, flush_after_writes_pays_for_destage)
{
	unsigned int checked = 0;

	for (size_t i = 0; i < NR_PROFILES; i++) {
		struct hw_nvme_profile p;
		struct hw_nvme *dev;
		uint64_t t = 0, idle, after, destaged;
		uint32_t writes;

		load(profile_names[i], &p);
		if (!hw_nvme_volatile_cache(&p))
			continue;
		no_jitter(&p);
		dev = dev_open(&p, 1);
		idle = submit(dev, HW_NVME_FLUSH, 0, 0, 0, 1000) - 1000;
		cr_expect_eq(idle, p.cmd_ns + p.fw_ns + p.flush_ns,
			     "%s: idle flush %llu", p.name,
			     (unsigned long long)idle);
		/* 4 KiB writes worth half the cache, one after the other. */
		writes = (uint32_t)(p.cache_bytes / 4096 / 2);
		t = 2000000;
		for (uint32_t k = 0; k < writes; k++)
			t = submit(dev, HW_NVME_WRITE, 0, 8ULL * k, 4096, t);
		after = submit(dev, HW_NVME_FLUSH, 0, 0, 0, t);
		destaged = hw_nvme_destage_done_ns(dev);
		cr_expect_gt(destaged, t, "%s: nothing left to destage",
			     p.name);
		cr_expect_eq(after, destaged + p.flush_ns,
			     "%s: flush done %llu, destaged %llu + %llu",
			     p.name, (unsigned long long)after,
			     (unsigned long long)destaged,
			     (unsigned long long)p.flush_ns);
		cr_expect_gt(after - t, idle + p.program_ns / 2,
			     "%s: flush after writes %llu vs idle %llu",
			     p.name, (unsigned long long)(after - t),
			     (unsigned long long)idle);
		dev_close(dev);
		checked++;
	}
	cr_assert_eq(checked, 3, "volatile-cache profiles: %u", checked);
}

/*
 * flush_serial (the loop device: its worker runs a flush as a synchronous
 * fsync of the backing file, drivers/block/loop.c lo_req_flush, v6.18):
 *   1. a FLUSH is submitted on an idle device at t;
 *   2. a 4 KiB write is submitted at t + 1 ns, while the flush runs.
 * Must hold: with flush_serial the write starts when the flush ends, so
 * it completes at least the flush's end + cache_ack_ns; without it the
 * write goes beside the flush (never later, and earlier wherever the
 * flush outlasts the write's own start).  Volatile cache profiles,
 * jitter off.
 */
Test(nvme, flush_serial_holds_commands_behind_a_flush)
{
	unsigned int checked = 0, held = 0;

	for (size_t i = 0; i < NR_PROFILES; i++) {
		struct hw_nvme_profile p;
		struct hw_nvme *dev;
		uint64_t flush_done[2], write_done[2];

		load(profile_names[i], &p);
		if (!hw_nvme_volatile_cache(&p))
			continue;
		no_jitter(&p);
		for (int serial = 0; serial < 2; serial++) {
			p.flush_serial = serial;
			dev = dev_open(&p, 1);
			flush_done[serial] = submit(dev, HW_NVME_FLUSH, 0, 0, 0,
						    1000);
			write_done[serial] = submit(dev, HW_NVME_WRITE, 0, 8,
						    4096, 1001);
			dev_close(dev);
		}
		cr_expect_eq(flush_done[0], flush_done[1], "%s", p.name);
		cr_expect_geq(write_done[1], flush_done[1] + p.cache_ack_ns,
			      "%s: serial write %llu, flush %llu", p.name,
			      (unsigned long long)write_done[1],
			      (unsigned long long)flush_done[1]);
		cr_expect_leq(write_done[0], write_done[1], "%s", p.name);
		held += write_done[0] < write_done[1];
		checked++;
	}
	cr_assert_eq(checked, 3, "volatile-cache profiles: %u", checked);
	/* Where the flush outlasts the write's own start, it held it. */
	cr_assert_geq(held, 2, "profiles where the flush held the write: %u",
		      held);
}

/* virtio-vm with jitter off, a firmware time per direction and
 * completion by pass (docs/model/nvme.md, "pass_complete"). */
static void pass_profile(struct hw_nvme_profile *p)
{
	load("virtio-vm", p);
	no_jitter(p);
	p->fw_ns = 10000;
	p->fw_write_ns = 20000;
	p->pass_complete = true;
}

static uint64_t submit_tk(struct hw_nvme *dev, enum hw_nvme_op op,
			  uint64_t lba, uint64_t now, struct hw_nvme_ticket *tk)
{
	struct hw_nvme_cmd c = { .op = op, .lba = lba, .bytes = 4096 };
	uint64_t done = 0;

	cr_assert_eq(hw_nvme_submit_ticket(dev, &c, now, &done, tk), 0);
	cr_assert_gt(done, now);
	return done;
}

/* The time a command reaches the host: hw_nvme_pass_done asked at its
 * due time and again at every time it holds it to (model/block/bio.c's
 * timed_step_done re-posts the completion so). */
static uint64_t published(struct hw_nvme *dev,
			  const struct hw_nvme_ticket *tk, uint64_t due)
{
	uint64_t at;

	while ((at = hw_nvme_pass_done(dev, tk, due)) > due)
		due = at;
	return due;
}

/*
 * seg_write_ns (docs/model/nvme.md "The segments of a write"): the
 * firmware server holds a WRITE of n segments for fw_write_ns + (n - 1)
 * seg_write_ns; segs 0 and 1 are one segment; a READ's segments cost
 * nothing.  Two 1 MiB writes reach an idle device at the same instant,
 * the first of 256 segments (4 KiB user pages), the second of 1.
 * Must hold: the first's service ends at T + cmd_ns + fw_write_ns + 255
 * seg_write_ns (its ticket's fw_end), the second's one fw_write_ns
 * later; a read after them, segs 256, is served in fw_ns; with
 * seg_write_ns 0 (the profile before it) the first write's service is
 * fw_write_ns alone.
 */
Test(nvme, seg_write_ns_charges_each_segment_beyond_the_first)
{
	struct hw_nvme_profile p;
	struct hw_nvme *dev;
	struct hw_nvme_ticket tk;
	struct hw_nvme_cmd w = { .op = HW_NVME_WRITE, .lba = 0,
				 .bytes = 1u << 20, .segs = 256 };
	struct hw_nvme_cmd w1 = w, r = w;
	uint64_t t = 1000, done, fw1;

	pass_profile(&p);
	p.seg_write_ns = 1500;
	dev = dev_open(&p, 1);
	cr_assert_eq(hw_nvme_submit_ticket(dev, &w, t, &done, &tk), 0);
	fw1 = t + p.cmd_ns + p.fw_write_ns + 255 * p.seg_write_ns;
	cr_expect_eq(tk.fw_end_ns, fw1, "256 segments: %" PRIu64 " != %"
		     PRIu64, tk.fw_end_ns, fw1);
	w1.segs = 1;
	w1.lba = 4096;
	cr_assert_eq(hw_nvme_submit_ticket(dev, &w1, t, &done, &tk), 0);
	cr_expect_eq(tk.fw_end_ns, fw1 + p.fw_write_ns, "one segment");
	r.op = HW_NVME_READ;
	r.lba = 8192;
	cr_assert_eq(hw_nvme_submit_ticket(dev, &r, t, &done, &tk), 0);
	cr_expect_eq(tk.fw_end_ns, fw1 + p.fw_write_ns + p.fw_ns,
		     "a read's segments cost nothing");
	dev_close(dev);

	pass_profile(&p);
	dev = dev_open(&p, 1);
	w.segs = 256;
	cr_assert_eq(hw_nvme_submit_ticket(dev, &w, t, &done, &tk), 0);
	cr_expect_eq(tk.fw_end_ns, t + p.cmd_ns + p.fw_write_ns,
		     "seg_write_ns 0: the segments cost nothing");
	dev_close(dev);
}

/* A WRITE of @segs segments and @bytes alone on a fresh device of @p:
 * its completion. */
static uint64_t lone_write_done(const struct hw_nvme_profile *p,
				uint32_t bytes, uint32_t segs)
{
	struct hw_nvme *dev = dev_open(p, 1);
	struct hw_nvme_cmd w = { .op = HW_NVME_WRITE, .lba = 0,
				 .bytes = bytes, .segs = segs };
	uint64_t done = 0;

	cr_assert_eq(hw_nvme_submit(dev, &w, 1000, &done), 0);
	dev_close(dev);
	return done;
}

/*
 * seg_write_overlap (docs/model/nvme.md "The segments of a write",
 * session 21): a WRITE's data crosses the link while the server takes
 * its segments beyond the first, so its time after the first segment is
 * the longer of the two, not their sum.  Link 4 GB/s, seg_write_ns
 * 1500, no jitter; each write alone on an idle device.
 * Must hold: a 1 MiB write of 256 segments (4 KiB user pages: 382.5 us
 * of segments, 262.1 us at the link) completes the link's time earlier
 * than without the overlap; one of 16 segments (huge pages: 22.5 us of
 * segments, the link longer) its segments' time earlier; one of one
 * segment, and a 4 KiB write, at the same time either way; two writes
 * of 256 segments back to back: the second's data still waits for the
 * first's on the link (one FIFO) and for its own segments.
 */
Test(nvme, seg_write_overlap_hides_the_shorter_of_link_and_segments)
{
	struct hw_nvme_profile p, o;
	struct hw_nvme *dev;
	struct hw_nvme_cmd w = { .op = HW_NVME_WRITE, .lba = 0,
				 .bytes = 1u << 20, .segs = 256 };
	uint64_t link = (1000000000ull << 20) / 4000000000ull;
	uint64_t d1, d2;

	pass_profile(&p);
	p.pass_complete = false;
	p.seg_write_ns = 1500;
	p.link_write_bytes_per_sec = 4000000000ull;
	o = p;
	o.seg_write_overlap = true;
	cr_expect_eq(lone_write_done(&p, 1u << 20, 256) -
		     lone_write_done(&o, 1u << 20, 256), link,
		     "256 segments: the link hidden");
	cr_expect_eq(lone_write_done(&p, 1u << 20, 16) -
		     lone_write_done(&o, 1u << 20, 16), 15 * 1500,
		     "16 segments: the segments hidden");
	cr_expect_eq(lone_write_done(&p, 1u << 20, 1),
		     lone_write_done(&o, 1u << 20, 1), "one segment");
	cr_expect_eq(lone_write_done(&p, 4096, 1),
		     lone_write_done(&o, 4096, 1), "4 KiB");
	dev = dev_open(&o, 1);
	cr_assert_eq(hw_nvme_submit(dev, &w, 1000, &d1), 0);
	w.lba = 1u << 20;
	cr_assert_eq(hw_nvme_submit(dev, &w, 1000, &d2), 0);
	cr_expect_eq(d2 - d1, p.fw_write_ns + 255 * 1500,
		     "back to back: the server's time apart (the segments "
		     "longer than the link)");
	dev_close(dev);
}

/*
 * pass_complete (a virtio-blk device whose VMM serves a notification's
 * requests in turn and publishes them together: Firecracker's
 * VirtioBlock::process_queue):
 *   1. three 4 KiB writes reach an idle device at T: one pass, served
 *      back to back, fw_write_ns each;
 *   2. a read arrives while the third is served: it joins the pass and
 *      takes fw_ns;
 *   3. a write arrives after the pass ended: a new pass.
 * Must hold: without the hold each command would complete at its own
 * service's end plus its time after it (the device's own due time); with
 * it, every command of the first pass completes at one instant, the
 * latest of their own due times (the read's: the pass's end plus its
 * time after its service); the third write's pass of one command is not
 * held; two passes counted.
 */
Test(nvme, pass_complete_holds_a_pass_to_its_end)
{
	struct hw_nvme_profile p;
	struct hw_nvme *dev;
	struct hw_nvme_ticket tk[5];
	uint64_t due[5], t = 1000, fw1, pass_end, pub;

	pass_profile(&p);
	dev = dev_open(&p, 1);
	for (int i = 0; i < 3; i++)
		due[i] = submit_tk(dev, HW_NVME_WRITE, 8 * (uint64_t)i, t,
				   &tk[i]);
	fw1 = t + p.cmd_ns + p.fw_write_ns;
	for (int i = 0; i < 3; i++) {
		cr_expect_eq(tk[i].pass, 1, "write %d", i);
		cr_expect_eq(tk[i].fw_end_ns, fw1 + (uint64_t)i *
			     p.fw_write_ns, "write %d's service", i);
		cr_expect_eq(due[i], tk[i].fw_end_ns + tk[i].post_ns);
	}
	/* 2: the read arrives before the third write's service ends. */
	due[3] = submit_tk(dev, HW_NVME_READ, 800, tk[2].fw_end_ns -
			   p.cmd_ns - 1, &tk[3]);
	pass_end = tk[2].fw_end_ns + p.fw_ns;
	cr_expect_eq(tk[3].pass, 1, "the read joins the pass");
	cr_expect_eq(tk[3].fw_end_ns, pass_end, "the read takes fw_ns");
	pub = due[3];
	for (int i = 0; i < 3; i++)
		pub = due[i] > pub ? due[i] : pub;
	cr_expect_eq(pub, pass_end + tk[3].post_ns, "the read is done last");
	for (int i = 0; i < 4; i++)
		cr_expect_eq(published(dev, &tk[i], due[i]), pub,
			     "command %d published with its pass", i);
	cr_expect_gt(hw_nvme_pass_done(dev, &tk[0], due[0]), due[0]);
	/* 3: after the pass, a write of its own. */
	due[4] = submit_tk(dev, HW_NVME_WRITE, 1600, pass_end + 1, &tk[4]);
	cr_expect_eq(tk[4].pass, 2);
	cr_expect_eq(hw_nvme_pass_done(dev, &tk[4], due[4]), due[4]);
	/* The closed pass keeps its publication (the ring). */
	cr_expect_eq(hw_nvme_pass_done(dev, &tk[0], due[0]), pub);
	cr_expect_eq(dev->stats.passes, 2);
	dev_close(dev);
	/* Without pass_complete no completion is held. */
	p.pass_complete = false;
	dev = dev_open(&p, 1);
	due[0] = submit_tk(dev, HW_NVME_WRITE, 0, t, &tk[0]);
	due[1] = submit_tk(dev, HW_NVME_WRITE, 8, t, &tk[1]);
	cr_expect_eq(hw_nvme_pass_done(dev, &tk[0], due[0]), due[0]);
	dev_close(dev);
}

/*
 * pass_complete in a closed loop at depth q (fio's O_DIRECT at iodepth
 * q): the q commands are resubmitted when their pass is published, so
 * each cycle serves q commands back to back.
 *   1. q 4 KiB random writes (reads) reach the device at T;
 *   2. each completes at hw_nvme_pass_done; all are resubmitted then.
 * Must hold: the rate is q / (cmd_ns + q s + post), s = fw_write_ns
 * (fw_ns), post the command's time after its service (the link and
 * cache_ack_ns; the link and read_ns), exactly, jitter off: the
 * closed form docs/model/nvme.md gives for completion by pass.
 */
Test(nvme, pass_complete_closed_loop_rate)
{
	static const uint32_t qds[] = { 1, 4, 16, 64 };
	struct hw_nvme_profile p;

	pass_profile(&p);
	for (int rd = 0; rd < 2; rd++) {
		for (size_t k = 0; k < sizeof(qds) / sizeof(qds[0]); k++) {
			uint32_t q = qds[k];
			struct hw_nvme *dev = dev_open(&p, 1);
			struct hw_nvme_ticket tk[64];
			uint64_t due[64], seed = 7, t = 1000, start = 0;
			uint64_t post = 0, s = rd ? p.fw_ns : p.fw_write_ns;
			double iops, want;

			for (int round = 0; round < 40; round++) {
				uint64_t next = 0;

				if (round == 10)
					start = t;
				for (uint32_t i = 0; i < q; i++)
					due[i] = submit_tk(dev, rd ?
						HW_NVME_READ : HW_NVME_WRITE,
						rng_next(&seed) % (1u << 20) * 8,
						t, &tk[i]);
				for (uint32_t i = 0; i < q; i++) {
					uint64_t d = published(dev, &tk[i],
							       due[i]);

					if (d > next)
						next = d;
				}
				post = tk[q - 1].post_ns;
				t = next;
			}
			iops = 30.0 * q * 1e9 / (double)(t - start);
			want = q * 1e9 / (double)(p.cmd_ns + q * s + post);
			cr_expect(fabs(iops / want - 1) < 0.02,
				  "%s QD%u: %.0f IOPS, closed form %.0f",
				  rd ? "read" : "write", q, iops, want);
			dev_close(dev);
		}
	}
}

/*
 * pass_complete with the jitter on (virtio-vm-cal's kind: a uniform body
 * and a tail, measured at QD1, where a pass is one command): the jitter
 * is the pass's, and a pass is published once.
 *   1. four 4 KiB writes reach an idle device at T: one pass;
 *   2. each is asked for at its due time, and again when held;
 *   3. twelve more passes of one write each, one after another.
 * Must hold: the four have the same time after their service (the link,
 * cache_ack_ns and their pass's jitter) and all reach the host at one
 * instant, the last one's due time (the pass's end plus that time); the
 * one-write passes' times after their service are not all the same (each
 * pass draws its own).  Bug: with the jitter drawn per command and each
 * command held only to the pass's end plus its own time, a pass's
 * commands came back spread by their jitter, fio resubmitted them one by
 * one, and a closed loop at QD4 ran passes of 1.4 commands where this
 * machine's disk serves 3.9 per interrupt (docs/model/nvme.md).
 */
Test(nvme, pass_complete_publishes_a_pass_at_once)
{
	struct hw_nvme_profile p;
	struct hw_nvme *dev;
	struct hw_nvme_ticket tk[4], one;
	uint64_t due[4], t = 1000, post0 = 0;
	bool differ = false;

	load("virtio-vm", &p);
	p.fw_ns = 10000;
	p.fw_write_ns = 20000;
	p.pass_complete = true;
	cr_assert_gt(p.jitter_ns, 1000, "the profile has a jitter");
	dev = dev_open(&p, 3);
	for (int i = 0; i < 4; i++) {
		due[i] = submit_tk(dev, HW_NVME_WRITE, 8 * (uint64_t)i, t,
				   &tk[i]);
		cr_expect_eq(tk[i].pass, 1);
		cr_expect_eq(tk[i].post_ns, tk[0].post_ns,
			     "write %d: its pass's jitter", i);
	}
	for (int i = 0; i < 4; i++)
		cr_expect_eq(published(dev, &tk[i], due[i]), due[3],
			     "write %d published with its pass", i);
	t = due[3];
	for (int i = 0; i < 12; i++) {
		uint64_t d = submit_tk(dev, HW_NVME_WRITE, 64, t, &one);

		cr_expect_eq(one.pass, 2 + (uint64_t)i);
		differ |= i && one.post_ns != post0;
		post0 = i ? post0 : one.post_ns;
		t = published(dev, &one, d);
		cr_expect_eq(t, d, "a pass of one is not held");
	}
	cr_expect(differ, "each pass draws its own jitter");
	dev_close(dev);
}

/*
 * read_jitter_ns (a READ's own jitter, measured on reads; since session
 * 14 h14-val2): the device's jitter 1 ms, a read's 1 us.
 *   1. 200 QD1 reads of one LBA, each when the last completes, and 200
 *      QD1 writes, without pass_complete;
 *   2. with pass_complete, 50 passes of a read and a write arriving
 *      together at an idle device (10 ms apart: the cache destaged; the
 *      read first, so that no program holds its unit).
 * Must hold: the reads' latencies (1) and times after their pass's end
 * (2) spread by less than 1 us; the writes' by more than 100 us (the
 * device's jitter); in (2) the write and the read of one pass do not
 * share a jitter.  Bug: one jitter for both directions made a read's
 * body the small remainder of its QD1 mean less the writes' jitter
 * (read_ns 3.5 against 18.2 us in two quiet calibrations).
 */
Test(nvme, read_jitter_is_a_reads_own)
{
	struct hw_nvme_profile p;
	struct hw_nvme *dev;
	struct hw_nvme_ticket w, r;
	uint64_t t = 1000, rmin = UINT64_MAX, rmax = 0, wmin = UINT64_MAX,
		 wmax = 0;

	load("virtio-vm", &p);
	no_jitter(&p);
	p.jitter_ns = 1000000;
	p.read_jitter_ns = 1000;
	dev = dev_open(&p, 5);
	for (int i = 0; i < 200; i++) {
		uint64_t d = submit_tk(dev, HW_NVME_READ, 64, t, &r);

		rmin = d - t < rmin ? d - t : rmin;
		rmax = d - t > rmax ? d - t : rmax;
		t = d;
	}
	for (int i = 0; i < 200; i++) {
		uint64_t d = submit_tk(dev, HW_NVME_WRITE, 64, t, &w);

		wmin = d - t < wmin ? d - t : wmin;
		wmax = d - t > wmax ? d - t : wmax;
		t = d;
	}
	cr_expect_lt(rmax - rmin, 1000, "reads spread %" PRIu64 " ns",
		     rmax - rmin);
	cr_expect_gt(wmax - wmin, 100000, "writes spread %" PRIu64 " ns",
		     wmax - wmin);
	dev_close(dev);

	p.pass_complete = true;
	p.fw_ns = 10000;
	p.fw_write_ns = 20000;
	dev = dev_open(&p, 5);
	rmin = wmin = UINT64_MAX;
	rmax = wmax = 0;
	for (int i = 0; i < 50; i++) {
		uint64_t dr = submit_tk(dev, HW_NVME_READ, 64, t, &r);
		uint64_t dw = submit_tk(dev, HW_NVME_WRITE, 8, t, &w);

		cr_expect_eq(w.pass, r.pass, "pass %d: one pass", i);
		rmin = r.post_ns < rmin ? r.post_ns : rmin;
		rmax = r.post_ns > rmax ? r.post_ns : rmax;
		wmin = w.post_ns < wmin ? w.post_ns : wmin;
		wmax = w.post_ns > wmax ? w.post_ns : wmax;
		t = published(dev, &w, dw);
		t = published(dev, &r, dr) > t ? published(dev, &r, dr) : t;
		t += 10000000;	/* idle: the cache destaged, units free */
	}
	cr_expect_lt(rmax - rmin, 1000, "pass reads spread %" PRIu64 " ns",
		     rmax - rmin);
	cr_expect_gt(wmax - wmin, 100000, "pass writes spread %" PRIu64
		     " ns", wmax - wmin);
	dev_close(dev);
}

/*
 * flush_jitter_ns: a FLUSH draws its own jitter (uniform, no tail), not
 * the device's; a profile without it draws the device's, as before.
 */
Test(nvme, flush_jitter_is_a_flushs_own)
{
	struct hw_nvme_profile p;
	struct hw_nvme *dev;
	uint64_t t = 1000, fmin = UINT64_MAX, fmax = 0;

	load("virtio-vm", &p);
	no_jitter(&p);
	p.jitter_ns = 1000000;
	p.flush_jitter_ns = 1000;
	dev = dev_open(&p, 5);
	for (int i = 0; i < 200; i++) {
		uint64_t d = submit(dev, HW_NVME_FLUSH, 0, 0, 0, t);

		fmin = d - t < fmin ? d - t : fmin;
		fmax = d - t > fmax ? d - t : fmax;
		t = d + 1000;
	}
	cr_expect_lt(fmax - fmin, 1000, "flushes spread %" PRIu64 " ns",
		     fmax - fmin);
	dev_close(dev);

	p.flush_jitter_ns = 0;
	dev = dev_open(&p, 5);
	fmin = UINT64_MAX;
	fmax = 0;
	for (int i = 0; i < 200; i++) {
		uint64_t d = submit(dev, HW_NVME_FLUSH, 0, 0, 0, t);

		fmin = d - t < fmin ? d - t : fmin;
		fmax = d - t > fmax ? d - t : fmax;
		t = d + 1000;
	}
	cr_expect_gt(fmax - fmin, 100000, "without the key: device's "
		     "jitter, spread %" PRIu64 " ns", fmax - fmin);
	dev_close(dev);
}

/*
 * flush_commit_ns (the loop device: its flush is an fsync of the backing
 * file, which commits the backing filesystem's journal when a write moved
 * the file's mtime since the last flush; the mtime moves once per tick of
 * the coarse clock, HW_NVME_BACKING_TICK_NS):
 *   1. a 4 KiB write at T (a tick's first write: the mtime moves), a
 *      FLUSH 1 µs later: the flush commits;
 *   2. a second write 2 µs after T, in the same tick, a FLUSH: the mtime
 *      did not move, no commit;
 *   3. a third write two ticks later, a FLUSH: a commit again;
 *   4. a FLUSH with no write before it: no commit.
 * Must hold: flushes 1 and 3 end flush_commit_ns later than without the
 * key, 2 and 4 at the same time (the writes' timing is the same in both
 * runs: flush_serial off); two commits counted.  Volatile-cache profiles,
 * jitter off.
 */
Test(nvme, flush_commit_once_per_mtime_tick)
{
	const uint64_t tick = HW_NVME_BACKING_TICK_NS, commit = 137000;
	const uint64_t T = 10 * tick;
	const struct { bool write; uint64_t at; } step[] = {
		{ true, T }, { false, T + 1000 },
		{ true, T + 2000 }, { false, T + 3000 },
		{ true, T + 2 * tick }, { false, T + 2 * tick + 1000 },
		{ false, T + 2 * tick + 2000 },
	};
	const size_t nr = sizeof(step) / sizeof(step[0]);
	unsigned int checked = 0;

	for (size_t i = 0; i < NR_PROFILES; i++) {
		struct hw_nvme_profile p;
		struct hw_nvme *dev;
		uint64_t done[2][8];

		load(profile_names[i], &p);
		if (!hw_nvme_volatile_cache(&p))
			continue;
		no_jitter(&p);
		p.flush_serial = false;
		for (int on = 0; on < 2; on++) {
			p.flush_commit_ns = on ? commit : 0;
			dev = dev_open(&p, 1);
			for (size_t k = 0; k < nr; k++)
				done[on][k] = step[k].write ?
					submit(dev, HW_NVME_WRITE, 0,
					       8 * (k + 1), 4096, step[k].at) :
					submit(dev, HW_NVME_FLUSH, 0, 0, 0,
					       step[k].at);
			cr_expect_eq(dev->stats.flush_commits, on ? 2u : 0u,
				     "%s: commits %llu", p.name,
				     (unsigned long long)
				     dev->stats.flush_commits);
			dev_close(dev);
		}
		for (size_t k = 0; k < nr; k++)
			cr_expect_eq(done[1][k], done[0][k] +
				     (k == 1 || k == 5 ? commit : 0),
				     "%s: step %zu: %llu with the key, %llu "
				     "without", p.name, k + 1,
				     (unsigned long long)done[1][k],
				     (unsigned long long)done[0][k]);
		checked++;
	}
	cr_assert_eq(checked, 3, "volatile-cache profiles: %u", checked);
}

/*
 * FUA on a volatile cache waits for its own program: on an idle device a
 * 4 KiB FUA write completes a program after its admission, a plain write
 * cache_ack_ns after it.  Admission = now + cmd_ns + fw_ns + transfer.
 */
Test(nvme, fua_pays_its_program)
{
	unsigned int checked = 0;

	for (size_t i = 0; i < NR_PROFILES; i++) {
		struct hw_nvme_profile p;
		struct hw_nvme *dev;
		uint64_t admit, plain, fua, xfer;

		load(profile_names[i], &p);
		if (!hw_nvme_volatile_cache(&p))
			continue;
		no_jitter(&p);
		xfer = (4096ULL * 1000000000ULL + p.link_write_bytes_per_sec -
			1) / p.link_write_bytes_per_sec;
		admit = 1000 + p.cmd_ns + p.fw_ns + xfer;
		dev = dev_open(&p, 1);
		plain = submit(dev, HW_NVME_WRITE, 0, 0, 4096, 1000);
		dev_close(dev);
		dev = dev_open(&p, 1);
		fua = submit(dev, HW_NVME_WRITE, HW_NVME_CMD_FUA, 0, 4096,
			     1000);
		cr_expect_eq(plain, admit + p.cache_ack_ns, "%s: plain write",
			     p.name);
		cr_expect_eq(fua, admit + p.program_ns, "%s: FUA write",
			     p.name);
		cr_expect_eq(dev->stats.partial_programs,
			     p.page_bytes > 4096 ? 1 : 0,
			     "%s: the FUA write closes its page", p.name);
		cr_expect_eq(dev->stats.cmds[HW_NVME_WRITE], 1, "%s", p.name);
		cr_expect_eq(dev->stats.fua_writes, 1, "%s: FUA writes",
			     p.name);
		dev_close(dev);
		checked++;
	}
	cr_assert_eq(checked, 3);
}

/*
 * Power-loss protection: the cache is durable, so a FLUSH after a burst
 * costs only cmd_ns + fw_ns, and FUA completes like a plain write.
 */
Test(nvme, plp_flush_and_fua_are_cheap)
{
	struct hw_nvme_profile p;
	struct hw_nvme *dev;
	uint64_t t = 0, flush, plain, fua;

	load("enterprise-plp", &p);
	cr_assert(p.plp && !hw_nvme_volatile_cache(&p));
	no_jitter(&p);
	dev = dev_open(&p, 1);
	for (uint32_t k = 0; k < 512; k++)
		t = submit(dev, HW_NVME_WRITE, 0, 8ULL * k, 4096, 0);
	cr_assert_gt(hw_nvme_destage_done_ns(dev), t + 100000,
		     "the burst leaves programs running");
	flush = submit(dev, HW_NVME_FLUSH, 0, 0, 0, t);
	cr_expect_eq(flush - t, p.cmd_ns + p.fw_ns);
	plain = submit(dev, HW_NVME_WRITE, 0, 0, 4096, flush) - flush;
	fua = submit(dev, HW_NVME_WRITE, HW_NVME_CMD_FUA, 8, 4096,
		     flush + plain) - (flush + plain);
	cr_expect_eq(fua, plain, "FUA %llu vs plain %llu on PLP",
		     (unsigned long long)fua, (unsigned long long)plain);
	dev_close(dev);
}

/* A profile without a cache is write-through: a write completes when its
 * page is programmed, and FLUSH costs the command only. */
Test(nvme, no_cache_is_write_through)
{
	struct hw_nvme_profile p;
	struct hw_nvme *dev;
	uint64_t xfer, done;

	load("consumer-vwc", &p);
	no_jitter(&p);
	p.cache_bytes = 0;
	p.cache_ack_ns = 0;
	p.flush_ns = 0;
	p.fua = false;
	cr_assert_eq(hw_nvme_profile_check(&p, NULL, 0), 0);
	dev = dev_open(&p, 1);
	xfer = (4096ULL * 1000000000ULL + p.link_write_bytes_per_sec - 1) /
	       p.link_write_bytes_per_sec;
	done = submit(dev, HW_NVME_WRITE, 0, 0, 4096, 0);
	cr_expect_eq(done, p.cmd_ns + xfer + p.program_ns);
	cr_expect_eq(submit(dev, HW_NVME_FLUSH, 0, 0, 0, done) - done,
		     p.cmd_ns);
	dev_close(dev);
}

/* A read: t0, the firmware delay, tR on its stripe unit, the link. */
Test(nvme, read_latency_is_its_stages)
{
	for (size_t i = 0; i < NR_PROFILES; i++) {
		struct hw_nvme_profile p;
		struct hw_nvme *dev;
		uint64_t xfer, done;

		load(profile_names[i], &p);
		no_jitter(&p);
		dev = dev_open(&p, 1);
		xfer = (4096ULL * 1000000000ULL + p.link_read_bytes_per_sec -
			1) / p.link_read_bytes_per_sec;
		done = submit(dev, HW_NVME_READ, 0, 0, 4096, 0);
		cr_expect_eq(done, p.cmd_ns + p.fw_ns + p.read_delay_ns +
			     p.read_ns + xfer, "%s", p.name);
		dev_close(dev);
	}
}

/*
 * Cache waits, counted exactly: one unit, 4 KiB pages, a cache of S = 4
 * slots and a program of P = 1 ms, far above a write's QD1 round trip
 * L = cmd_ns + fw_ns + transfer + cache_ack_ns.  N = 10 writes one after
 * the other (each submitted when the previous completes): the first S
 * take free slots; page k's program ends at a1 + k P (a1 the first
 * admission), so write S + 1, arriving at a1 + S L, waits P - S L for
 * page 1's slot and each later one P - L for the next.  stats.cache_waits
 * is N - S, cache_wait_ns the sum, and each write's latency is L plus its
 * wait.
 */
Test(nvme, cache_waits_count_each_write_that_waits)
{
	const uint32_t n = 10, slots = 4;
	struct hw_nvme_profile p;
	struct hw_nvme *dev;
	uint64_t t = 1000, done, l, xfer, waits = 0, wait_ns = 0, expect_ns;

	load("consumer-vwc", &p);
	no_jitter(&p);
	p.units = 1;
	p.page_bytes = 4096;
	p.cache_bytes = slots * 4096ULL;
	p.program_ns = 1000000;
	p.seek_ns = 0;
	xfer = (4096ULL * 1000000000ULL + p.link_write_bytes_per_sec - 1) /
	       p.link_write_bytes_per_sec;
	l = p.cmd_ns + p.fw_ns + xfer + p.cache_ack_ns;
	cr_assert_lt(slots * l, p.program_ns);
	dev = dev_open(&p, 1);
	for (uint32_t k = 0; k < n; k++) {
		done = submit(dev, HW_NVME_WRITE, 0, 8ULL * k, 4096, t);
		if (done - t > l) {
			waits++;
			wait_ns += done - t - l;
		}
		cr_expect(done - t >= l, "write %u: latency %llu < %llu",
			     k, (unsigned long long)(done - t),
			     (unsigned long long)l);
		t = done;
	}
	expect_ns = (p.program_ns - slots * l) +
		    (n - slots - 1) * (p.program_ns - l);
	cr_expect_eq(waits, n - slots);
	cr_expect_eq(dev->stats.cache_waits, n - slots, "cache_waits %llu",
		     (unsigned long long)dev->stats.cache_waits);
	cr_expect_eq(dev->stats.cache_wait_ns, expect_ns,
		     "cache_wait_ns %llu, expected %llu",
		     (unsigned long long)dev->stats.cache_wait_ns,
		     (unsigned long long)expect_ns);
	cr_expect_eq(wait_ns, expect_ns, "latencies: %llu waited, expected "
		     "%llu", (unsigned long long)wait_ns,
		     (unsigned long long)expect_ns);
	cr_expect_eq(dev->stats.page_programs, n);
	cr_expect_eq(dev->stats.seeks, 0);
	dev_close(dev);
}

/* The seek term: sequential reads on a unit pay none, a jump pays one. */
Test(nvme, seek_term_charges_non_sequential_access)
{
	struct hw_nvme_profile p;
	struct hw_nvme *dev;
	uint64_t t = 0, a, b;

	load("seed002-disk", &p);
	no_jitter(&p);
	p.seek_ns = 4000000;
	p.page_bytes = 4096;
	p.cache_bytes = 1 << 20;
	dev = dev_open(&p, 1);
	for (uint64_t k = 0; k < 4; k++)
		t = submit(dev, HW_NVME_READ, 0, 8 * k, 4096, t);
	cr_expect_eq(dev->stats.seeks, 0);
	a = submit(dev, HW_NVME_READ, 0, 8 * 4, 4096, t) - t;
	b = submit(dev, HW_NVME_READ, 0, 8 * 1000, 4096, t + a) - (t + a);
	cr_expect_eq(dev->stats.seeks, 1);
	cr_expect_eq(b - a, p.seek_ns);
	dev_close(dev);
}

/* Read-modify-write: on a 4 KiB-physical device a write that starts or
 * ends inside a physical sector first reads its page; an aligned write
 * and a 512-byte-physical device pay nothing. */
static uint64_t xfer_of(uint64_t bytes, uint64_t rate)
{
	return (bytes * 1000000000ULL + rate - 1) / rate;
}

Test(nvme, unaligned_write_reads_its_partial_sectors)
{
	struct hw_nvme_profile p;
	struct hw_nvme *dev;
	uint64_t rate, done, rd;

	load("seed002-disk", &p);
	no_jitter(&p);
	cr_assert_eq(p.physical_sector_bytes, 4096);
	rate = p.link_write_bytes_per_sec;
	rd = p.read_delay_ns + p.read_ns;

	/* Aligned 8 KiB: no read. */
	dev = dev_open(&p, 1);
	done = submit(dev, HW_NVME_WRITE, 0, 8, 8192, 0);
	cr_expect_eq(done, p.cmd_ns + xfer_of(8192, rate) + p.cache_ack_ns);
	cr_expect_eq(dev->stats.rmw_reads, 0);
	dev_close(dev);

	/* Seed 002 test 2's write, 14336 bytes at +512: head and tail
	 * sectors partial, in one 64 KiB page: one read. */
	dev = dev_open(&p, 1);
	done = submit(dev, HW_NVME_WRITE, 0, 1, 14336, 0);
	cr_expect_eq(dev->stats.rmw_reads, 1);
	cr_expect_eq(done, p.cmd_ns + (rd > xfer_of(14336, rate) ? rd :
		     xfer_of(14336, rate)) + p.cache_ack_ns);
	dev_close(dev);

	/* Partial sectors in two pages of the one unit: two reads, one
	 * after the other. */
	dev = dev_open(&p, 1);
	done = submit(dev, HW_NVME_WRITE, 0, (65536 - 3584) / 512, 7168, 0);
	cr_expect_eq(dev->stats.rmw_reads, 2);
	cr_expect_eq(done, p.cmd_ns + p.read_delay_ns + 2 * p.read_ns +
		     p.cache_ack_ns);
	dev_close(dev);

	/* The same unaligned write with 512-byte physical sectors. */
	p.physical_sector_bytes = 512;
	dev = dev_open(&p, 1);
	done = submit(dev, HW_NVME_WRITE, 0, 1, 14336, 0);
	cr_expect_eq(dev->stats.rmw_reads, 0);
	cr_expect_eq(done, p.cmd_ns + xfer_of(14336, rate) + p.cache_ack_ns);
	dev_close(dev);
}

/* The same seed gives the same completion times; another seed, others;
 * the tail's share and the mean jitter match the profile. */
Test(nvme, jitter_is_deterministic_per_seed)
{
	enum { N = 200000 };
	struct hw_nvme_profile p;
	uint64_t *a = malloc(N * sizeof(*a)), *b = malloc(N * sizeof(*b));
	uint64_t *c = malloc(N * sizeof(*c)), tails;
	struct hw_nvme *dev;
	double mean = 0, expect_tails, sd;

	cr_assert(a && b && c);
	load("virtio-vm", &p);
	dev = dev_open(&p, 1234);
	closed_loop(dev, 4096, 4, 0, N, 5, a);
	dev_close(dev);
	dev = dev_open(&p, 1234);
	closed_loop(dev, 4096, 4, 0, N, 5, b);
	tails = dev->stats.tails;
	dev_close(dev);
	dev = dev_open(&p, 1235);
	closed_loop(dev, 4096, 4, 0, N, 5, c);
	dev_close(dev);
	cr_expect_eq(memcmp(a, b, N * sizeof(*a)), 0, "same seed differs");
	cr_expect_neq(memcmp(a, c, N * sizeof(*a)), 0, "seeds 1234 and "
		      "1235 give the same completions");
	/* N + 4 commands were submitted, each drew once. */
	expect_tails = (N + 4) * p.tail_ppm / 1e6;
	sd = sqrt(expect_tails);
	cr_expect(fabs((double)tails - expect_tails) < 4 * sd,
		  "tails %llu, expected %.0f +- %.0f",
		  (unsigned long long)tails, expect_tails, 4 * sd);
	/* The mean jitter, on an idle device: one command at a time. */
	free(a);
	free(b);
	free(c);
	dev = dev_open(&p, 99);
	{
		struct hw_nvme_profile q = p;
		uint64_t base, t = 0;

		no_jitter(&q);
		base = q.cmd_ns + q.fw_ns + q.cache_ack_ns +
		       (4096ULL * 1000000000ULL + q.link_write_bytes_per_sec -
			1) / q.link_write_bytes_per_sec;
		for (int k = 0; k < N; k++) {
			uint64_t d = submit(dev, HW_NVME_WRITE, 0, 0, 4096, t);

			mean += (double)(d - t - base);
			/* Wait out the background program before the next. */
			t = d > hw_nvme_destage_done_ns(dev) ? d :
				hw_nvme_destage_done_ns(dev);
		}
	}
	mean /= N;
	cr_expect(fabs(mean / jitter_mean_ns(&p) - 1) < 0.05,
		  "mean jitter %.0f ns, profile %.0f ns", mean,
		  jitter_mean_ns(&p));
	dev_close(dev);
}

/* Commands the device rejects, a full queue, a late submission. */
Test(nvme, rejects_bad_commands_and_full_queues)
{
	struct hw_nvme_profile p;
	struct hw_nvme *dev;
	struct hw_nvme_cmd c;
	uint64_t done, sectors;

	load("virtio-vm", &p);
	dev = dev_open(&p, 1);
	sectors = p.capacity_bytes / 512;
	c = (struct hw_nvme_cmd){ .op = HW_NVME_WRITE, .bytes = 0 };
	cr_expect_eq(hw_nvme_submit(dev, &c, 0, &done), -EINVAL);
	c = (struct hw_nvme_cmd){ .op = HW_NVME_WRITE, .bytes = 1000 };
	cr_expect_eq(hw_nvme_submit(dev, &c, 0, &done), -EINVAL);
	c = (struct hw_nvme_cmd){ .op = HW_NVME_FLUSH, .bytes = 4096 };
	cr_expect_eq(hw_nvme_submit(dev, &c, 0, &done), -EINVAL);
	c = (struct hw_nvme_cmd){ .op = HW_NVME_READ,
				  .flags = HW_NVME_CMD_FUA, .bytes = 4096 };
	cr_expect_eq(hw_nvme_submit(dev, &c, 0, &done), -EINVAL);
	c = (struct hw_nvme_cmd){ .op = HW_NVME_READ, .lba = sectors - 4,
				  .bytes = 4096 };
	cr_expect_eq(hw_nvme_submit(dev, &c, 0, &done), -EINVAL);
	c.lba = sectors - 8;
	cr_expect_eq(hw_nvme_submit(dev, &c, 0, &done), 0);
	/* 128 slots: one is in use; 127 more fit at t = 0, then -EBUSY. */
	for (int k = 0; k < 127; k++)
		submit(dev, HW_NVME_DISCARD, 0, 0, 4096, 0);
	c = (struct hw_nvme_cmd){ .op = HW_NVME_DISCARD, .bytes = 4096 };
	cr_expect_eq(hw_nvme_submit(dev, &c, 0, &done), -EBUSY);
	cr_expect_eq(hw_nvme_inflight(dev, 0), 128);
	cr_expect_eq(hw_nvme_inflight(dev, 1000000000), 0);
	done = submit(dev, HW_NVME_DISCARD, 0, 0, 4096, 2000000000);
	/* Earlier than the last submission: taken as at that time. */
	cr_expect_geq(submit(dev, HW_NVME_DISCARD, 0, 0, 4096, 5),
		      2000000000 + p.cmd_ns + p.fw_ns);
	cr_expect_eq(dev->stats.late_submits, 1);
	cr_expect_eq(dev->stats.busy_rejects, 1);
	dev_close(dev);
}

/* ---- Profiles ----------------------------------------------------------- */

/* Every profile parses, validates, and says what the kernel sees. */
Test(profile, every_profile_loads)
{
	struct hw_nvme_profile p;

	load("enterprise-plp", &p);
	cr_expect(!hw_nvme_volatile_cache(&p) && !hw_nvme_native_fua(&p));
	load("consumer-vwc", &p);
	cr_expect(hw_nvme_volatile_cache(&p) && hw_nvme_native_fua(&p));
	load("virtio-vm", &p);
	cr_expect(hw_nvme_volatile_cache(&p) && !hw_nvme_native_fua(&p));
	cr_expect(p.rotational && p.nr_hw_queues == 1 &&
		  p.queue_depth == 128);
	load("seed002-disk", &p);
	cr_expect(p.rotational && hw_nvme_volatile_cache(&p));
	/* The kernel's default wbt_lat_usec for the seeds' named devices:
	 * 75 ms rotational, 2 ms not (block/blk-wbt.c, v6.18). */
	cr_expect_eq(p.wbt_lat_usec, 75000);
	cr_expect_eq(strcmp(p.description, "seed 002's /dev/sda: "
			    "rotational, ~1 GB/s sustained write"), 0);
	load("seed000-pm173x", &p);
	cr_expect(!p.rotational && p.wbt_lat_usec == 2000 &&
		  !hw_nvme_volatile_cache(&p) && !hw_nvme_native_fua(&p));
}

Test(profile, list_prints_every_profile)
{
	char buf[4096] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	int n;

	cr_assert(f);
	n = wpsim_device_profile_list(PROFILE_DIR, f);
	fclose(f);
	cr_expect_eq(n, (int)NR_PROFILES, "%s", buf);
	for (size_t i = 0; i < NR_PROFILES; i++)
		cr_expect(strstr(buf, profile_names[i]), "%s missing:\n%s",
			  profile_names[i], buf);
	cr_expect(strncmp(buf, "consumer-vwc ", 13) == 0, "sorted:\n%s", buf);
	cr_expect_eq(wpsim_device_profile_list("/nonexistent-dir", stdout),
		     -ENOENT);
}

/* A complete profile, one key per line, for the parser tests. */
static const char *const good_lines[] = {
	"# a test profile",
	"name = t",
	"description = a test device",
	"capacity_bytes = 1Gi",
	"cmd_ns = 5000",
	"fw_ns = 0",
	"link_write_bytes_per_sec = 3G",
	"link_read_bytes_per_sec = 3G",
	"units = 4",
	"page_bytes = 16Ki   # a comment after a value",
	"page_merge = yes",
	"read_delay_ns = 0",
	"read_ns = 50000",
	"program_ns = 500000",
	"seek_ns = 0",
	"cache_bytes = 1Mi",
	"cache_ack_ns = 4000",
	"plp = 0",
	"flush_ns = 100k",
	"fua = true",
	"nr_hw_queues = 2",
	"queue_depth = 64",
	"rotational = no",
	"jitter_ns = 0",
	"tail_ppm = 0",
	"tail_ns = 0",
	"physical_sector_bytes = 512",
};
#define NR_GOOD (sizeof(good_lines) / sizeof(good_lines[0]))

/* The good profile with line @replace (1-based, 0 = none) replaced by
 * @with (NULL: removed), and @append added at the end. */
static int parse_variant(unsigned int replace, const char *with,
			 const char *append, char *err, size_t size)
{
	static char text[8192];
	struct hw_nvme_profile p;
	size_t n = 0;

	for (unsigned int i = 0; i < NR_GOOD; i++) {
		const char *l = i + 1 == replace ? with : good_lines[i];

		if (l)
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      "%s\n", l);
	}
	if (append)
		snprintf(text + n, sizeof(text) - n, "%s\n", append);
	err[0] = '\0';
	return hw_nvme_profile_parse(text, "t.dev", &p, err, size);
}

Test(profile, parses_the_good_profile)
{
	struct hw_nvme_profile p;
	static char text[8192];
	char err[2048];
	size_t n = 0;

	for (unsigned int i = 0; i < NR_GOOD; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s\n",
				      good_lines[i]);
	cr_assert_eq(hw_nvme_profile_parse(text, "t.dev", &p, err,
					   sizeof(err)), 0, "%s", err);
	cr_expect_eq(p.capacity_bytes, 1ULL << 30);
	cr_expect_eq(p.link_write_bytes_per_sec, 3000000000ULL);
	cr_expect_eq(p.page_bytes, 16384);
	cr_expect_eq(p.flush_ns, 100000);
	cr_expect(p.page_merge && p.fua && !p.rotational && !p.plp);
	cr_expect_str_eq(p.description, "a test device");
}

/* Indentation before a key (one space, one tab, three spaces) is skipped. */
Test(profile, parses_indented_lines)
{
	static const char *const indent[] = { " ", "\t", "   " };
	struct hw_nvme_profile p;
	static char text[8192];
	char err[2048];
	size_t n = 0;

	for (unsigned int i = 0; i < NR_GOOD; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s\n",
				      indent[i % 3], good_lines[i]);
	cr_assert_eq(hw_nvme_profile_parse(text, "t.dev", &p, err,
					   sizeof(err)), 0, "%s", err);
	cr_expect_eq(p.capacity_bytes, 1ULL << 30);
	cr_expect_eq(p.page_bytes, 16384);
	cr_expect_eq(p.flush_ns, 100000);
	cr_expect_str_eq(p.description, "a test device");
}

struct parse_case {
	unsigned int replace;
	const char *with, *append;
	const char *error;	/* the message, or its start */
};

Test(profile, errors_name_file_line_column)
{
	static const struct parse_case cases[] = {
		{ 9, "units = abc", NULL,
		  "t.dev:9:9: error: expected an integer, found 'abc'" },
		/* A long word is cut to 61 characters, what fits in the
		 * 64 bytes of found_word's buffer with its quotes (seed
		 * 71206's #92: one character more). */
		{ 9, "units = " "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", NULL,
		  "t.dev:9:9: error: expected an integer, found '"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" "'" },
		{ 9, "units 4", NULL,
		  "t.dev:9:7: error: expected '=' after 'units', found '4'" },
		{ 9, "units =", NULL,
		  "t.dev:9:8: error: expected a value for 'units', found "
		  "end of line" },
		{ 9, "units = 4 5", NULL,
		  "t.dev:9:10: error: expected the end of the value, found "
		  "more after '4'" },
		{ 10, "page_bytes = 4Kb", NULL,
		  "t.dev:10:15: error: expected an integer with an optional "
		  "suffix k, M, G, T, Ki, Mi, Gi or Ti, found 'Kb'" },
		{ 18, "plp = maybe", NULL,
		  "t.dev:18:7: error: expected 0, 1, no, yes, false or true, "
		  "found 'maybe'" },
		{ 9, "  Units = 4", NULL,
		  "t.dev:9:3: error: expected a key, found 'Units'" },
		{ 0, NULL, "units = 8",
		  "t.dev:28:1: error: expected each key once, found 'units' "
		  "again (first on line 9)" },
		{ 27, NULL, NULL,
		  "t.dev:27:1: error: expected key 'physical_sector_bytes', "
		  "found end of file" },
		{ 27, "physical_sector_bytes = 1000", NULL,
		  "t.dev:27:25: error: physical_sector_bytes: expected a "
		  "power of two from 512 to page_bytes (16384), found 1000" },
		{ 16, "cache_bytes = 1000", NULL,
		  "t.dev:16:15: error: cache_bytes: expected a multiple of "
		  "page_bytes (16384), found 1000" },
		{ 0, NULL, "read_tail_ppm = 5000",
		  "t.dev:28:17: error: read_tail_ppm: expected read_tail_ppm "
		  "and read_tail_ns both 0 or both > 0, found 5000 and 0" },
		{ 0, NULL, "loop_seg_ns = 500",
		  "t.dev:28:15: error: loop_seg_ns: expected 0 without a "
		  "loop worker (loop_worker_ns = 0), found 500" },
		{ 0, NULL, "loop_run_ns = 700",
		  "t.dev:28:15: error: loop_run_ns: expected 0 without a "
		  "loop worker (loop_worker_ns = 0), found 700" },
		{ 21, "nr_hw_queues = 0", NULL,
		  "t.dev:21:16: error: nr_hw_queues: expected at least 1, "
		  "found 0" },
		{ 9, "units = 99999999999", NULL,
		  "t.dev:9:9: error: expected an integer up to 4294967295, "
		  "found a larger one" },
		{ 0, NULL, "speed = 3",
		  "t.dev:28:1: error: expected a profile key (name, "
		  "description, capacity_bytes, cmd_ns, fw_ns, "
		  "fw_write_ns, seg_write_ns, seg_write_overlap, "
		  "pass_complete, "
		  "link_write_bytes_per_sec, link_read_bytes_per_sec, units, "
		  "page_bytes, page_merge, read_delay_ns, read_ns, "
		  "program_ns, seek_ns, cache_bytes, cache_ack_ns, plp, "
		  "flush_ns, fua, nr_hw_queues, queue_depth, rotational, "
		  "jitter_ns, tail_ppm, tail_ns, read_jitter_ns, "
		  "read_tail_ppm, read_tail_ns, flush_jitter_ns, "
		  "physical_sector_bytes, "
		  "wbt_lat_usec, flush_serial, flush_commit_ns, "
		  "loop_worker_ns, loop_seg_ns, loop_complete_ns, "
		  "loop_run_ns, virtio_ring_descs, virtio_max_sectors_kb, "
		  "virtio_max_segments, awupf, "
		  "nawupf, nabspf, nabo, nsfeat_atomics, no_atomic_writes, "
		  "max_hw_sectors_kb, max_sectors_kb, max_segments, "
		  "max_segment_size, no_virt_boundary, irq_cpu), "
		  "found 'speed'" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct parse_case *c = &cases[i];
		char err[2048];
		int rc = parse_variant(c->replace, c->with, c->append, err,
				       sizeof(err));

		cr_expect_eq(rc, -EINVAL, "case %zu parsed", i);
		cr_expect_str_eq(err, c->error, "case %zu", i);
	}
}

/* A semantic rule: an option the model would ignore is an error. */
Test(profile, ignored_figures_are_errors)
{
	char err[2048];

	cr_expect_eq(parse_variant(18, "plp = 1", NULL, err, sizeof(err)),
		     -EINVAL);
	cr_expect_str_eq(err, "t.dev:19:12: error: flush_ns: expected 0 "
			 "without a volatile write cache, found 100000");
	cr_expect_eq(parse_variant(25, "tail_ppm = 10", NULL, err,
				   sizeof(err)), -EINVAL);
	cr_expect_str_eq(err, "t.dev:26:11: error: tail_ns: expected "
			 "tail_ppm and tail_ns both 0 or both > 0, found 10 "
			 "and 0");
}

/* seg_write_ns needs the firmware server it charges (a profile whose
 * fw_ns is 0 has none): an error, like fw_write_ns. */
Test(profile, seg_write_ns_needs_a_firmware_server)
{
	char err[2048];

	cr_expect_eq(parse_variant(0, NULL, "seg_write_ns = 1000", err,
				   sizeof(err)), -EINVAL);
	cr_expect(strstr(err, "error: seg_write_ns: expected 0 without a "
			 "firmware server (fw_ns = 0), found 1000") != NULL,
		  "%s", err);
}

/* seg_write_overlap needs the firmware server whose segments it
 * overlaps. */
Test(profile, seg_write_overlap_needs_a_firmware_server)
{
	char err[2048];

	cr_expect_eq(parse_variant(0, NULL, "seg_write_overlap = 1", err,
				   sizeof(err)), -EINVAL);
	cr_expect(strstr(err, "error: seg_write_overlap: expected 0 without "
			 "a firmware server (fw_ns = 0)") != NULL, "%s", err);
}

/* The virtio ring below a loop device (session 24, h24-merge): its
 * three keys come together, and a request of the disk's most segments
 * fits the ring (model/drivers/block/virtio_blk.c). */
Test(profile, virtio_ring_keys_come_together)
{
	char err[2048];

	cr_expect_eq(parse_variant(0, NULL, "virtio_ring_descs = 256", err,
				   sizeof(err)), -EINVAL);
	cr_expect(strstr(err, "error: virtio_max_sectors_kb: expected a "
			 "value with virtio_ring_descs") != NULL, "%s", err);
	cr_expect_eq(parse_variant(0, NULL, "virtio_max_segments = 254", err,
				   sizeof(err)), -EINVAL);
	cr_expect(strstr(err, "error: virtio_max_segments: expected 0 "
			 "without a virtio ring (virtio_ring_descs = 0), found "
			 "254") != NULL, "%s", err);
	cr_expect_eq(parse_variant(0, NULL, "virtio_ring_descs = 256\n"
				   "virtio_max_sectors_kb = 4096\n"
				   "virtio_max_segments = 255", err,
				   sizeof(err)), -EINVAL);
	cr_expect(strstr(err, "error: virtio_max_segments: expected at most "
			 "virtio_ring_descs - 2 (254") != NULL, "%s", err);
	cr_expect_eq(parse_variant(0, NULL, "virtio_ring_descs = 256\n"
				   "virtio_max_sectors_kb = 4096\n"
				   "virtio_max_segments = 254", err,
				   sizeof(err)), 0, "%s", err);
}

/* irq_cpu (session 21): absent, none (irq_cpu_set false); 0 is a CPU. */
Test(profile, irq_cpu_is_optional_and_zero_is_a_cpu)
{
	struct hw_nvme_profile p;
	static char text[8192];
	char err[2048];
	size_t n = 0;

	for (unsigned int i = 0; i < NR_GOOD; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s\n",
				      good_lines[i]);
	cr_assert_eq(hw_nvme_profile_parse(text, "t.dev", &p, err,
					   sizeof(err)), 0, "%s", err);
	cr_expect(!p.irq_cpu_set);
	snprintf(text + n, sizeof(text) - n, "irq_cpu = 0\n");
	cr_assert_eq(hw_nvme_profile_parse(text, "t.dev", &p, err,
					   sizeof(err)), 0, "%s", err);
	cr_expect(p.irq_cpu_set && p.irq_cpu == 0);
	snprintf(text + n, sizeof(text) - n, "irq_cpu = 1 # vda\n");
	cr_assert_eq(hw_nvme_profile_parse(text, "t.dev", &p, err,
					   sizeof(err)), 0, "%s", err);
	cr_expect(p.irq_cpu_set && p.irq_cpu == 1);
}

/* A directory with a broken profile: listed with its error. */
Test(profile, list_shows_a_broken_file)
{
	char dir[] = "/tmp/wpsim-profiles-XXXXXX", path[256];
	char buf[4096] = "";
	FILE *f;
	int n;

	cr_assert(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/broken.dev", dir);
	f = fopen(path, "w");
	cr_assert(f);
	fputs("name = broken\nunits = x\n", f);
	fclose(f);
	f = fmemopen(buf, sizeof(buf), "w");
	n = wpsim_device_profile_list(dir, f);
	fclose(f);
	unlink(path);
	rmdir(dir);
	cr_expect_eq(n, 0);
	cr_expect(strstr(buf, "broken") && strstr(buf, "broken.dev:2:9: "
		  "error: expected an integer, found 'x'"), "%s", buf);
}

/*
 * The in-flight count (hw_nvme_inflight: a min-heap of completion times,
 * which caps the queue at the profile's slots) equals the commands whose
 * completion is after the time asked.  Per profile, with its jitter:
 * commands submitted a few ns apart (up to the slots, at most 300), then
 * the count asked at every completion time and 1 ns before it, in
 * order, against a count over the completion times submit returned.
 */
Test(nvme, inflight_counts_the_commands_not_yet_complete)
{
	for (size_t i = 0; i < NR_PROFILES; i++) {
		struct hw_nvme_profile p;
		struct hw_nvme *dev;
		uint64_t seed = 5, done[300], sorted[300], now = 0;
		uint32_t n;

		load(profile_names[i], &p);
		dev = dev_open(&p, 9);
		n = dev->inflight_max < 300 ? dev->inflight_max : 300;
		for (uint32_t k = 0; k < n; k++) {
			now += rng_next(&seed) % 7;
			done[k] = submit(dev, HW_NVME_WRITE, 0,
					 rng_next(&seed) % 4096 * 8, 4096, now);
		}
		memcpy(sorted, done, n * sizeof(*done));
		for (uint32_t a = 1; a < n; a++)
			for (uint32_t b = a; b && sorted[b - 1] > sorted[b]; b--) {
				uint64_t x = sorted[b];

				sorted[b] = sorted[b - 1];
				sorted[b - 1] = x;
			}
		for (uint32_t k = 0; k < n; k++) {
			uint64_t ts[2] = { sorted[k] - 1, sorted[k] };

			for (int j = 0; j < 2; j++) {
				uint32_t want = 0;

				if (ts[j] < now)
					continue;
				for (uint32_t m = 0; m < n; m++)
					want += done[m] > ts[j];
				cr_assert_eq(hw_nvme_inflight(dev, ts[j]), want,
					     "%s: at %llu ns", p.name,
					     (unsigned long long)ts[j]);
			}
		}
		cr_assert_eq(hw_nvme_inflight(dev, sorted[n - 1]), 0);
		dev_close(dev);
	}
}

/*
 * The cache's occupancy at the time of the last submission counts only
 * the pages not yet programmed: a page whose program ended by then has
 * left the cache (hw_nvme_cache_used_bytes retires at now == the last
 * submit time too; before it, it cannot look back).  Four full pages
 * written at 0 fill four slots; a read submitted once their programs
 * are over leaves none.  Jitter off.
 */
Test(nvme, cache_used_bytes_at_the_last_submit_time)
{
	struct hw_nvme_profile p;
	struct hw_nvme *dev;
	uint64_t t;

	load("consumer-vwc", &p);
	cr_assert(hw_nvme_volatile_cache(&p) && p.cache_bytes >=
		  4ULL * p.page_bytes);
	no_jitter(&p);
	dev = dev_open(&p, 1);
	for (uint32_t k = 0; k < 4; k++)
		submit(dev, HW_NVME_WRITE, 0,
		       (uint64_t)k * p.page_bytes / HW_NVME_SECTOR_BYTES,
		       p.page_bytes, 0);
	cr_expect_eq(hw_nvme_cache_used_bytes(dev, 0), 4ULL * p.page_bytes);
	t = hw_nvme_destage_done_ns(dev) + 1;
	submit(dev, HW_NVME_READ, 0, 0, 4096, t);
	cr_expect_eq(hw_nvme_cache_used_bytes(dev, t), 0,
		     "pages programmed by %llu ns still cached",
		     (unsigned long long)t);
	dev_close(dev);
}

/*
 * With tail_ppm 0 a command's jitter is the uniform draw alone, however
 * the tail's draw falls: each command draws two words (pick, r), and
 * the jitter is r * jitter_ns / 2^64; no tail is ever taken.  Seed
 * 32498's tenth pick is below 2^32 / 10^6 (its ppm is 0): a tail test
 * of ppm <= tail_ppm would take a tail there and draw a third word.
 * Idle device: each write waits for the previous program.
 */
Test(nvme, no_tail_without_tail_ppm)
{
	struct hw_nvme_profile p;
	struct hw_nvme *dev;
	uint64_t rng = 32498, t = 0, base, xfer;

	load("virtio-vm", &p);
	p.tail_ppm = 0;
	p.tail_ns = 0;
	cr_assert_gt(p.jitter_ns, 0);
	xfer = (4096ULL * 1000000000ULL + p.link_write_bytes_per_sec - 1) /
	       p.link_write_bytes_per_sec;
	base = p.cmd_ns + p.fw_ns + p.cache_ack_ns + xfer;
	dev = dev_open(&p, 32498);
	for (int k = 0; k < 16; k++) {
		uint64_t pick = rng_next(&rng), r = rng_next(&rng), d;
		uint64_t want = (uint64_t)(((unsigned __int128)r *
					    p.jitter_ns) >> 64);

		if (k == 9)
			cr_assert_eq(((pick >> 32) * 1000000u) >> 32, 0,
				     "seed 32498's tenth ppm");
		d = submit(dev, HW_NVME_WRITE, 0, 0, 4096, t);
		cr_expect_eq(d - t - base, want, "command %d: jitter %llu, "
			     "the uniform draw %llu", k,
			     (unsigned long long)(d - t - base),
			     (unsigned long long)want);
		t = d > hw_nvme_destage_done_ns(dev) ? d :
			hw_nvme_destage_done_ns(dev);
	}
	cr_expect_eq(dev->stats.tails, 0);
	dev_close(dev);
}

/*
 * A 64-bit figure parses up to 2^64 - 1 exactly, and one past it is an
 * error (at the value's column).  The parser before the fix refused
 * 18446744073709551610 to 18446744073709551615 as "larger" than
 * 18446744073709551615 (its overflow guard took the last digit as 9).
 */
Test(profile, u64_figures_up_to_the_largest)
{
	static const struct {
		const char *value;
		uint64_t want;	/* 0: an error */
	} cases[] = {
		{ "18446744073709551615", UINT64_MAX },
		{ "18446744073709551609", UINT64_MAX - 6 },
		{ "18446744073709551600", UINT64_MAX - 15 },
		{ "1844674407370955161", UINT64_MAX / 10 },
		{ "18446744073709551616", 0 },
		{ "18446744073709551620", 0 },
		{ "99999999999999999999", 0 },
		{ "184467440737095516150", 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		static char text[8192];
		struct hw_nvme_profile p;
		char err[2048], line[64];
		size_t n = 0;
		int rc;

		snprintf(line, sizeof(line), "seek_ns = %s", cases[i].value);
		for (unsigned int l = 0; l < NR_GOOD; l++)
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      "%s\n", l == 14 ? line :
					      good_lines[l]);
		err[0] = '\0';
		rc = hw_nvme_profile_parse(text, "t.dev", &p, err,
					   sizeof(err));
		if (cases[i].want) {
			cr_expect_eq(rc, 0, "%s: %s", cases[i].value, err);
			cr_expect_eq(p.seek_ns, cases[i].want, "%s",
				     cases[i].value);
		} else {
			cr_expect_eq(rc, -EINVAL, "%s parsed", cases[i].value);
			cr_expect_str_eq(err, "t.dev:15:11: error: expected an "
					 "integer up to 18446744073709551615, "
					 "found a larger one", "%s",
					 cases[i].value);
		}
	}
}
