// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/fio-rate.c - `wpsim fio`, fio's pacing on the model's
 * virtual clock: rate limits (rate, rate_iops with rate_process linear or
 * poisson: fio 3.33 backend.c usec_for_io, io_u.c rate_ddir), the
 * rate_min/rate_iops_min check (backend.c __check_min_rate, with its
 * 2 s settling time and rate_cycle), think time (backend.c
 * handle_thinktime: thinktime, thinktime_spin, thinktime_blocks,
 * thinktime_blocks_type, thinktime_iotime, rate_ignore_thinktime's
 * catch-up), flows between jobs (flow.c: flow_id, flow, flow_sleep; the
 * shared counter and weight are engine words, so every access is a
 * scheduling point), and random_distribution's generators (lib/zipf.c
 * zipf and pareto, lib/gauss.c normal, io_u.c zoned and zoned_abs), as
 * fio computes them.  Before a rate or think-time sleep fio quiesces an
 * inline async job (io_u_quiesce): so does this, through
 * fio_run_quiesce.  And latency_target (io_u.c lat_target_*): the queue
 * depth ramped to the largest that keeps the target.
 *
 * Leaves out, each said in docs/fio.md:
 * - fio's tausworthe draws: every draw here (poisson gaps, zipf, pareto,
 *   normal, zone choice) takes 32 bits of a splitmix64 stream of the
 *   job's own, so the sequences are not fio's while the distributions
 *   are (fio seeds them from the file name's jhash and the job number);
 * - thinktime_spin's busy CPU: fio spins in user space, which the
 *   model charges nothing (usr_cpu is 0); the spin is virtual time
 *   like the sleep;
 * - a held-back flow job with flow_sleep=0 busy-loops in fio; here it
 *   waits until its flow's counter or weight moves, which is when the
 *   loop could first see a change (no virtual time passes either way);
 * - the reset of the rate clock at the end of ramp_time (fio's epoch
 *   moves there; here the epoch is the job's start).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/arena.h"
#include "sim/clock.h"
#include "sim/engine.h"
#include "sim/shared.h"
#include "tools/wpsim/fio-run.h"

/* ---- draws ----------------------------------------------------------- */

static uint64_t pace_mix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A 32-bit draw, fio's __rand() of its 32-bit tausworthe (FRAND32_MAX). */
static uint32_t draw32(uint64_t *state)
{
	return (uint32_t)(pace_mix(state) >> 32);
}

/* fio's __hash_u64 (hash.h): multiply by GOLDEN_RATIO_64. */
static uint64_t hash_u64(uint64_t v)
{
	return v * 0x61C8864680B583EBull;
}

/* ---- flows (flow.c) -------------------------------------------------- */

#define FLOWS_MAX	FIO_JOBS_MAX	/* a flow_id per job at most */

struct flow {
	uint32_t id;
	struct sim_word counter;	/* flow->flow_counter, from 1 */
	struct sim_word weight;		/* flow->total_weight */
	struct sim_waitq moved;		/* held jobs with flow_sleep=0 */
};

static struct flow *flows;
static unsigned int nflows;

/* ---- exitall (backend.c thread_main's end, libfio.c
 * fio_terminate_threads) ----------------------------------------------- */

/* Some job has exitall (fio's global exitall_on_terminate) or
 * exitall_on_error: each job has a state word. */
static bool exit_words;
static bool exitall_on_terminate;
/* [njobs]: TERM_RUNNING once started, TERM_DONE at its end, with
 * TERM_KILL when another job's end terminated it. */
static struct sim_word *term;
#define TERM_RUNNING	1u
#define TERM_DONE	2u
#define TERM_KILL	4u

static void term_or(unsigned int i, uint64_t bits)
{
	uint64_t v = sim_word_read(&term[i]);

	while ((v & bits) != bits) {
		uint64_t seen = sim_word_cmpxchg(&term[i], v, v | bits);

		if (seen == v)
			break;
		v = seen;
	}
}

bool fio_pace_terminated(struct job_run *jr)
{
	/* steadystate's fio_mark_td_terminate too (fio-ss.c) */
	return (exit_words && (sim_word_read(&term[jr->index]) & TERM_KILL)) ||
	       fio_ss_terminated(jr);
}

/* fio_terminate_threads(groupid, exit_what) at @jr's end. */
static void terminate_others(struct job_run *jr)
{
	const struct fio_job *j = jr->job;

	for (unsigned int i = 0; i < R->njobs; i++) {
		const struct fio_job *o = R->jobs[i].job;

		if ((j->exit_what == FIO_EXIT_GROUP &&
		     o->groupid == j->groupid) ||
		    (j->exit_what == FIO_EXIT_STONEWALL &&
		     (sim_word_read(&term[i]) & (TERM_RUNNING | TERM_DONE))) ||
		    j->exit_what == FIO_EXIT_ALL)
			term_or(i, TERM_KILL);
	}
}

/* usec_sleep: at most about a second at a time when a job may be
 * terminated, so that it ends then (time.c: tv_sec at most 1). */
static void pace_sleep(struct job_run *jr, uint64_t ns)
{
	while (ns) {
		uint64_t chunk = ns;

		if ((exit_words || fio_ss_enabled()) &&
		    ns >= 2000000000ull)
			chunk = 1000000000ull + ns % 1000000000ull;
		sim_sleep_ns(chunk);
		ns -= chunk;
		if (fio_pace_terminated(jr))
			break;
	}
}

/* ---- checks and notes -------------------------------------------------- */

/*
 * io_submit_mode=offload with a rate (fio's rate-submit.c): the job's
 * thread queues each I/O to a submit worker at its rated time and does
 * not quiesce before a rate sleep (rate_ddir quiesces inline jobs only);
 * the worker calls the engine at once.  Here the job's own task issues
 * it at that time through the same engine path: the I/Os and their times
 * are the worker's, the submission's CPU time is charged to the job.
 */
bool fio_pace_offload_ok(const struct fio_job *j)
{
	if (j->ioengine != FIO_ENGINE_LIBAIO &&
	    j->ioengine != FIO_ENGINE_IO_URING)
		return false;
	for (int d = 0; d < FIO_DDIR_COUNT; d++)
		if (j->rate[d] || j->rate_iops[d])
			return true;
	return false;
}

/*
 * The first CPU of list @list (fio's set_cpus_allowed: N, N-M, a,b, in
 * order) at or above the modelled machine's @cpus, or -1.
 */
static long cpu_list_over(const char *list, unsigned int cpus)
{
	const char *p = list;

	while (*p) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;

		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		for (unsigned long c = a; c <= b; c++)
			if (c >= cpus)
				return (long)c;
		p = *end == ',' ? end + 1 : end;
	}
	return -1;
}

/*
 * fio 3.33's options.c set_cpus_allowed and str_cpumask_cb: a CPU at or
 * above the machine's count (cpus_configured) fails the option, with
 * fio's words ("fio: CPU N too large (max=M)", "fio: failed parsing
 * OPT=VAL"); the machine is the modelled one (--cpus).  Return: 0, or
 * 2 with the error printed.
 */
static int cpus_check(const struct fio_job *j)
{
	const struct {
		const char *name, *text;
	} lists[] = {
		{ "cpus_allowed", j->cpus_allowed },
		{ "verify_async_cpus", j->verify_async_cpus },
	};
	char why[512];

	for (unsigned int i = 0; i < 32 && j->cpumask; i++)
		if ((j->cpumask >> i & 1) && i >= R->cpus) {
			snprintf(why, sizeof(why), "fio: CPU %u too large "
				 "(max=%u), fio: failed parsing cpumask=%"
				 PRIu64 " (fio 3.33's words: it checks the "
				 "machine's CPUs, here the %u modelled, "
				 "--cpus)", i, R->cpus - 1, j->cpumask,
				 R->cpus);
			return fio_run_job_error(j, why);
		}
	for (unsigned int k = 0; k < 2; k++) {
		long c = lists[k].text[0] ?
			 cpu_list_over(lists[k].text, R->cpus) : -1;

		if (c < 0)
			continue;
		snprintf(why, sizeof(why), "fio: CPU %ld too large (max=%u), "
			 "fio: failed parsing %s=%s (fio 3.33's words: it "
			 "checks the machine's CPUs, here the %u modelled, "
			 "--cpus)", c, R->cpus - 1, lists[k].name,
			 lists[k].text, R->cpus);
		return fio_run_job_error(j, why);
	}
	return 0;
}

int fio_run_check_pace(const struct fio_job *j)
{
	uint64_t rate = 0, iops = 0, rmin = 0, imin = 0;

	for (int d = 0; d < FIO_DDIR_COUNT; d++) {
		rate += j->rate[d];
		iops += j->rate_iops[d];
		rmin += j->rate_min[d];
		imin += j->rate_iops_min[d];
		/* fixup_options: "minimum rate exceeds rate". */
		if ((j->rate[d] && j->rate[d] < j->rate_min[d]) ||
		    (j->rate_iops[d] && j->rate_iops[d] < j->rate_iops_min[d]))
			return fio_run_job_error(j, "rate_min (rate_iops_min) "
					 "above rate (rate_iops): fio 3.33 "
					 "refuses it (\"minimum rate exceeds "
					 "rate\")");
	}
	if ((rate && iops) || (rmin && imin))
		return fio_run_job_error(j, "rate and rate_iops (rate_min and "
				 "rate_iops_min) are mutually exclusive, as "
				 "fio 3.33 says");
	if (j->read_iolog[0] && (rate || iops || rmin || imin ||
				 j->thinktime_ns || j->flow))
		return fio_run_job_error(j, "rate, thinktime and flow with "
				 "read_iolog are not modelled (the replay "
				 "keeps the log's own times)");
	/* latency_target (below): the engines that fill a depth here are
	 * libaio and posixaio (io_uring's slots are reaped in their ring
	 * order); fio's final-run reset also restarts the rate clocks,
	 * which the model's pacing would not. */
	/* fixup_options' message (init.c), once per job section. */
	if (j->ba_norandommap && j->jobnum == 0)
		fprintf(stderr, "fio: Any use of blockalign= turns off "
			"randommap\n");
	if (j->latency_target_ns && j->ioengine == FIO_ENGINE_IO_URING)
		return fio_run_job_error(j, "latency_target with "
				 "ioengine=io_uring is not modelled (libaio, "
				 "posixaio and the sync engines are)");
	if (j->latency_target_ns && (rate || iops || rmin || imin))
		return fio_run_job_error(j, "latency_target with rate, "
				 "rate_iops or rate_min is not modelled");
	if (cpus_check(j))
		return EXIT_USAGE;
	for (int n = 0; n < FIO_NOTED_COUNT; n++)
		if (j->noted & (1u << n))
			fprintf(stderr, "wpsim fio: note: job '%s': %s has no "
				"effect: %s\n", j->name,
				fio_noted_name((enum fio_noted)n),
				fio_noted_why((enum fio_noted)n));
	return 0;
}

/* ---- setup ----------------------------------------------------------- */

/* fio's zipf_update: zeta(n) over at most 10^7 terms (ZIPF_MAX_GEN). */
static void zipf_init(struct fio_pace *p, double theta)
{
	uint64_t n = p->nranges < 10000000u ? p->nranges : 10000000u;

	p->zetan = 0;
	for (uint64_t i = 0; i < n; i++)
		p->zetan += pow(1.0 / (double)(i + 1), theta);
	p->zeta2 = pow(1.0, theta) + pow(0.5, theta);
}

void fio_pace_setup(struct job_run *jr, bool first)
{
	const struct fio_job *j = jr->job;
	struct fio_pace *p = &jr->pace;

	if (first) {
		flows = NULL;
		nflows = 0;
		exit_words = exitall_on_terminate = false;
		for (unsigned int i = 0; i < R->njobs; i++) {
			exitall_on_terminate |= R->jobs[i].job->exitall;
			exit_words |= R->jobs[i].job->exitall ||
				      R->jobs[i].job->exitall_on_error;
		}
		term = NULL;
		if (exit_words) {
			term = sim_arena_alloc(R->njobs * sizeof(*term));
			for (unsigned int i = 0; i < R->njobs; i++)
				sim_word_init(&term[i], 0, "fio.job%u.state",
					      i);
		}
	}
	memset(p, 0, sizeof(*p));
	p->flow = -1;
	p->poisson_rng = jr->rng ^ 0x7073736e70737300ull;
	p->zone_rng = jr->rng ^ 0x7a6f6e657a6f6e00ull;
	p->dist_rng = jr->rng ^ 0x6469737464697300ull;
	/* __setup_rate: rate, else rate_iops × the minimum bs. */
	for (int d = 0; d < FIO_DDIR_COUNT; d++)
		p->rate_bps[d] = j->rate[d] ? j->rate[d] :
				 j->rate_iops[d] * j->bs[d];
	/* fixup_options: a distribution other than random has no random
	 * map (fio sets norandommap). */
	if (j->rand_dist != FIO_RAND_DIST_RANDOM)
		((struct fio_job *)j)->norandommap = true;
	/* __init_rand_distribution: ranges of the smaller minimum bs over
	 * the job's region; the offset added, a draw or the center. */
	p->nranges = jr->blocks;
	if (j->rand_dist == FIO_RAND_DIST_ZIPF ||
	    j->rand_dist == FIO_RAND_DIST_PARETO) {
		p->dist_off = j->rand_dist_center != -1 ?
			(uint64_t)((double)p->nranges * j->rand_dist_center) :
			draw32(&p->dist_rng);
		if (j->rand_dist == FIO_RAND_DIST_ZIPF)
			zipf_init(p, j->rand_dist_val);
	} else if (j->rand_dist == FIO_RAND_DIST_NORMAL) {
		p->dist_off = j->rand_dist_center == -1 ? 0 :
			(uint64_t)(int64_t)((double)p->nranges *
					    (j->rand_dist_center - 0.5));
	}
	if (j->flow) {
		unsigned int f;

		if (!flows)
			flows = sim_arena_alloc(FLOWS_MAX * sizeof(*flows));
		for (f = 0; f < nflows && flows[f].id != j->flow_id; f++)
			;
		SIM_ASSERT_MSG(f < nflows || nflows < FLOWS_MAX,
			       "fio: more than FLOWS_MAX flow_ids");
		if (f == nflows) {
			flows[f].id = j->flow_id;
			sim_word_init(&flows[f].counter, 1,
				      "fio.flow%u.counter", j->flow_id);
			sim_word_init(&flows[f].weight, 0, "fio.flow%u.weight",
				      j->flow_id);
			sim_waitq_init(&flows[f].moved, "fio.flow%u.moved",
				       j->flow_id);
			nflows++;
		}
		p->flow = (int)f;
	}
}

void fio_pace_start(struct job_run *jr, uint64_t epoch_ns)
{
	struct fio_pace *p = &jr->pace;

	p->epoch_ns = epoch_ns;
	p->tt_last_ns = epoch_ns;
	if (exit_words)
		term_or(jr->index, TERM_RUNNING);
	/* flow_init_job: the job's weight joins its flow. */
	if (p->flow >= 0) {
		sim_word_add(&flows[p->flow].weight, jr->job->flow);
		sim_waitq_wake_all(&flows[p->flow].moved);
	}
}

void fio_pace_exit(struct job_run *jr)
{
	struct fio_pace *p = &jr->pace;

	if (exit_words) {
		term_or(jr->index, TERM_DONE);
		if (exitall_on_terminate ||
		    (jr->job->exitall_on_error && jr->error))
			terminate_others(jr);
	}
	/* flow_exit_job: flow_put takes the job's count and weight out. */
	if (p->flow < 0)
		return;
	sim_word_add(&flows[p->flow].counter, -(int64_t)p->flow_counter);
	sim_word_add(&flows[p->flow].weight, -(int64_t)jr->job->flow);
	sim_waitq_wake_all(&flows[p->flow].moved);
	p->flow = -1;
}

/* ---- flows ----------------------------------------------------------- */

bool fio_pace_flow_held(struct job_run *jr)
{
	struct fio_pace *p = &jr->pace;
	struct flow *fl;
	uint64_t counter, weight;

	if (p->flow < 0)
		return false;
	fl = &flows[p->flow];
	counter = sim_word_read(&fl->counter);
	weight = sim_word_read(&fl->weight);
	/* flow_threshold_exceeded: held while the job's share of the
	 * flow's I/O is above its share of the weight. */
	if ((double)p->flow_counter / (double)counter >
	    (double)jr->job->flow / (double)weight) {
		if (jr->job->flow_sleep_ns) {
			int err = fio_run_quiesce(jr);

			if (err && !jr->error)
				jr->error = err;
			pace_sleep(jr, jr->job->flow_sleep_ns);
		} else {
			/* The check above was this step's read. */
			sim_waitq_sleep(&fl->moved);
		}
		return true;
	}
	sim_word_add(&fl->counter, 1);
	sim_waitq_wake_all(&fl->moved);
	p->flow_counter++;
	return false;
}

/* ---- rate ------------------------------------------------------------ */

static bool pace_checks_rate(const struct fio_job *j)
{
	for (int d = 0; d < FIO_DDIR_COUNT; d++)
		if (j->rate[d] || j->rate_min[d] || j->rate_iops[d] ||
		    j->rate_iops_min[d])
			return true;
	return false;
}

static uint64_t now_us(const struct fio_pace *p)
{
	return (sim_now() - p->epoch_ns) / 1000;
}

bool fio_pace_ddir(struct job_run *jr, bool *read, uint64_t end_ns)
{
	const struct fio_job *j = jr->job;
	struct fio_pace *p = &jr->pace;
	int d = *read ? FIO_DDIR_READ : FIO_DDIR_WRITE, od = d ^ 1;
	uint64_t now, usec, timeout_us;
	int err;

	if (!pace_checks_rate(j))
		return true;
	now = now_us(p);
	if (p->next_io_us[d] <= now)
		return true;
	/* Ahead of rate in this direction: a mixed job may switch. */
	if ((j->rw == FIO_RW_RW || j->rw == FIO_RW_RANDRW) &&
	    (od == FIO_DDIR_READ ? j->rwmixread : 100 - j->rwmixread)) {
		if (p->next_io_us[od] <= now) {
			*read = od == FIO_DDIR_READ;
			return true;
		}
		if (p->next_io_us[d] <= p->next_io_us[od]) {
			usec = p->next_io_us[d] - now;
		} else {
			usec = p->next_io_us[od] - now;
			*read = od == FIO_DDIR_READ;
		}
	} else {
		usec = p->next_io_us[d] - now;
	}
	/* Inline: io_u_quiesce.  Offload: the worker's reap of what has
	 * completed since its last submission. */
	err = j->io_submit_mode == FIO_SUBMIT_INLINE ? fio_run_quiesce(jr) :
						       fio_run_reap_done(jr);
	if (err) {
		jr->error = err;
		return false;
	}
	if (end_ns) {
		timeout_us = (end_ns - p->epoch_ns) / 1000;
		now = now_us(p);
		if (usec + now > timeout_us) {
			if (now > timeout_us)
				return false;
			usec = timeout_us - now;
		}
	}
	pace_sleep(jr, usec * 1000);
	return (!end_ns || sim_now() < end_ns) && !fio_pace_terminated(jr);
}

/* fio's usec_for_io: the direction's next I/O time, µs since epoch. */
static uint64_t usec_for_io(struct job_run *jr, int d)
{
	const struct fio_job *j = jr->job;
	struct fio_pace *p = &jr->pace;
	uint64_t bps = p->rate_bps[d];

	if (j->rate_process == FIO_RATE_POISSON) {
		uint64_t iops = j->bs[d] ? bps / j->bs[d] : 0;
		/* fio's __rand_0_1 of its poisson_state; 0 is left out
		 * (-log(0) would be infinite). */
		double u = ((double)draw32(&p->poisson_rng) + 1.0) /
			   4294967296.0;
		uint64_t val;

		if (!iops)
			return p->last_usec[d];
		val = (uint64_t)((double)(int64_t)(1000000 / iops) *
				 -logf((float)u));
		p->last_usec[d] += val;
		return p->last_usec[d];
	}
	if (!bps)
		return 0;
	if (!j->rate[d] && j->bssplit_nr[d]) {
		uint64_t iops = bps / j->bs[d];

		if (!iops)
			return 0;
		p->last_usec[d] += 1000000 / iops;
		return p->last_usec[d];
	}
	return p->issue_bytes[d] % bps * 1000000 / bps +
	       p->issue_bytes[d] / bps * 1000000;
}

void fio_pace_issued(struct job_run *jr, bool read, uint64_t bytes)
{
	struct fio_pace *p = &jr->pace;
	int d = read ? FIO_DDIR_READ : FIO_DDIR_WRITE;

	p->issues++;
	if (!pace_checks_rate(jr->job))
		return;
	p->issue_bytes[d] += bytes;
	p->next_io_us[d] = usec_for_io(jr, d);
}

void fio_pace_completed(struct job_run *jr, enum fio_ddir d, uint64_t bytes)
{
	struct fio_pace *p = &jr->pace;

	p->completions++;
	p->done_bytes[d] += bytes;
	p->done_blocks[d]++;
}

/* ---- think time ------------------------------------------------------ */

/* Sleep @ns of virtual time, at most until @end_ns.  Return: slept. */
static uint64_t sleep_upto(struct job_run *jr, uint64_t ns, uint64_t end_ns)
{
	uint64_t now = sim_now();

	if (end_ns && now + ns > end_ns)
		ns = end_ns > now ? end_ns - now : 0;
	if (ns)
		pace_sleep(jr, ns);
	return sim_now() - now;
}

static int handle_thinktime(struct job_run *jr, int d, uint64_t end_ns)
{
	const struct fio_job *j = jr->job;
	struct fio_pace *p = &jr->pace;
	uint64_t b, total, left;
	bool stall = false;
	int err;

	if (j->thinktime_iotime_ns) {
		if (sim_now() - p->tt_last_ns >= j->thinktime_iotime_ns)
			stall = true;
		else if (!j->thinktime_blocks_set)
			return 0;
	}
	b = j->thinktime_blocks_type == FIO_THINKTIME_COMPLETE ?
	    p->completions : p->issues;
	if (b >= p->tt_blocks + j->thinktime_blocks)
		stall = true;
	if (!stall)
		return 0;
	err = fio_run_quiesce(jr);
	if (err)
		return err;
	/* The spin, then the rest of thinktime as a sleep, each at most
	 * what is left of the runtime. */
	total = sleep_upto(jr, j->thinktime_spin_ns, end_ns);
	left = total < j->thinktime_ns ? j->thinktime_ns - total : 0;
	total += sleep_upto(jr, left, end_ns);
	total /= 1000;	/* fio counts µs */
	/* rate_ignore_thinktime: the bytes the rate would have issued
	 * while sleeping, less one block, so that I/O resumes at once. */
	if (total && p->rate_bps[d] && j->rate_ignore_thinktime) {
		uint64_t missed = p->rate_bps[d] * total / 1000000ull;
		uint64_t bs = j->bs[d];
		uint64_t usperop = bs * 1000000ull / p->rate_bps[d];
		uint64_t over = usperop <= total ? bs :
				(usperop - total) / usperop * -bs;

		p->issue_bytes[d] += missed - over;
		p->last_usec[d] += total;
	}
	p->tt_blocks = b;
	if (j->thinktime_iotime_ns)
		p->tt_last_ns = sim_now();
	return 0;
}

/* ---- rate_min -------------------------------------------------------- */

static int check_min_rate(struct job_run *jr)
{
	const struct fio_job *j = jr->job;
	struct fio_pace *p = &jr->pace;
	uint64_t now = sim_now();

	for (int d = 0; d < 2; d++) {
		uint64_t spent, got;

		if (!p->done_bytes[d] ||
		    (!j->rate_min[d] && !j->rate_iops_min[d]))
			continue;
		/* A 2 s settle period at the start. */
		if ((now - p->epoch_ns) / 1000000 < 2000)
			continue;
		if (p->check_bytes[d] || p->check_blocks[d]) {
			spent = (now - p->check_ns[d]) / 1000000;
			if (spent < j->rate_cycle_ms || !spent)
				continue;
			if (j->rate_min[d]) {
				got = (p->done_bytes[d] - p->check_bytes[d]) *
				      1000 / spent;
				if (got < j->rate_min[d]) {
					snprintf(jr->verify_msg,
						 sizeof(jr->verify_msg),
						 "%s: rate_min=%" PRIu64
						 "B/s not met, got %" PRIu64
						 "B/s", j->name,
						 j->rate_min[d], got);
					return KM_EIO;
				}
			} else {
				got = (p->done_blocks[d] - p->check_blocks[d]) *
				      1000 / spent;
				if (got < j->rate_iops_min[d]) {
					snprintf(jr->verify_msg,
						 sizeof(jr->verify_msg),
						 "%s: rate_iops_min=%" PRIu64
						 " not met, got %" PRIu64
						 " IOPS", j->name,
						 j->rate_iops_min[d], got);
					return KM_EIO;
				}
			}
		}
		p->check_bytes[d] = p->done_bytes[d];
		p->check_blocks[d] = p->done_blocks[d];
		p->check_ns[d] = now;
	}
	return 0;
}

int fio_pace_after_io(struct job_run *jr, bool read, uint64_t end_ns)
{
	const struct fio_job *j = jr->job;
	int err = 0;

	if (j->thinktime_ns)
		err = handle_thinktime(jr, read ? FIO_DDIR_READ :
					       FIO_DDIR_WRITE, end_ns);
	if (!err && jr->ramped && pace_checks_rate(j))
		err = check_min_rate(jr);
	return err;
}

/* ---- random_distribution ---------------------------------------------- */

/* fio's __get_next_rand_offset without a map: lastb × r / 2^32. */
static uint64_t uniform_block(struct fio_pace *p, uint64_t lastb)
{
	return (uint64_t)((double)lastb *
			  ((double)draw32(&p->dist_rng) / 4294967296.0));
}

static uint64_t zipf_next(struct fio_pace *p, double theta)
{
	uint64_t n = p->nranges, val;
	double alpha = 1.0 / (1.0 - theta);
	double eta = (1.0 - pow(2.0 / (double)n, 1.0 - theta)) /
		     (1.0 - p->zeta2 / p->zetan);
	double rand_uni = (double)draw32(&p->dist_rng) / 4294967295.0;
	double rand_z = rand_uni * p->zetan;

	if (rand_z < 1.0)
		val = 1;
	else if (rand_z < 1.0 + pow(0.5, theta))
		val = 2;
	else
		val = 1 + (uint64_t)((double)n *
				     pow(eta * rand_uni - eta + 1.0, alpha));
	val--;
	return (hash_u64(val) + p->dist_off) % n;
}

static uint64_t pareto_next(struct fio_pace *p, double h)
{
	double r = (double)draw32(&p->dist_rng) / 4294967295.0;
	uint64_t n = (uint64_t)((double)(p->nranges - 1) *
				pow(r, log(h) / log(1.0 - h)));

	return (hash_u64(n) + p->dist_off) % p->nranges;
}

static uint64_t gauss_next(struct fio_pace *p, double dev)
{
	uint64_t sum = 0, stddev = 0;

	if (dev != 0.0) {
		stddev = (uint64_t)ceil((double)p->nranges * dev / 100.0);
		if (stddev > p->nranges / 2)
			stddev = p->nranges / 2;
	}
	for (int i = 0; i < 12; i++)
		sum += draw32(&p->dist_rng) % (p->nranges + 1);
	sum = (sum + 11) / 12;
	if (stddev) {
		int64_t dv = (int64_t)((double)stddev *
				       ((double)draw32(&p->dist_rng) /
					4294967296.0)) - (int64_t)(stddev / 2);

		while (dv + (int64_t)sum >= (int64_t)p->nranges)
			dv /= 2;
		sum = (uint64_t)((int64_t)sum + dv);
	}
	return (hash_u64(sum) + p->dist_off) % p->nranges;
}

/* zoned and zoned_abs: a zone by its access percentage (fio's
 * zone_state_index, v = 1..100), then a block inside it. */
static bool zoned_next(struct job_run *jr, enum fio_ddir d, uint64_t lastb,
		       uint64_t *block)
{
	const struct fio_job *j = jr->job;
	struct fio_pace *p = &jr->pace;
	uint32_t v = 1 + (uint32_t)((uint64_t)draw32(&p->zone_rng) * 100 >>
				    32);
	uint32_t acc = 0, sprev = 0;
	uint64_t sprev_sz = 0;

	for (uint32_t i = 0; i < j->zone_split_nr[d]; i++) {
		const struct fio_zone_split *z = &j->zone_split[d][i];

		if (v <= acc + z->access_perc) {
			if (j->rand_dist == FIO_RAND_DIST_ZONED) {
				uint64_t off = sprev * lastb / 100;
				uint64_t n = lastb * z->size_perc / 100;

				*block = uniform_block(p, n) + off;
			} else {
				uint64_t ba = jr->rand_unit;	/* td->o.ba */
				uint64_t stotal = sprev_sz / ba;
				uint64_t send = (sprev_sz + z->size) / ba;

				if (send > lastb) {
					snprintf(jr->verify_msg,
						 sizeof(jr->verify_msg),
						 "fio: zoned_abs sizes exceed "
						 "file size");
					jr->error = KM_EINVAL;
					return false;
				}
				*block = uniform_block(p, send - stotal) +
					 stotal;
			}
			return true;
		}
		acc += z->access_perc;
		sprev += z->size_perc;
		sprev_sz += z->size;
	}
	/* fio: "bug in zoned generation" (percentages below 100 after
	 * the split's rounding): a uniform block of the file. */
	*block = uniform_block(p, lastb);
	return true;
}

bool fio_pace_rand_block(struct job_run *jr, enum fio_ddir d,
			 uint64_t blocks, uint64_t *block)
{
	const struct fio_job *j = jr->job;
	struct fio_pace *p = &jr->pace;

	switch (j->rand_dist) {
	case FIO_RAND_DIST_ZIPF:
		*block = zipf_next(p, j->rand_dist_val);
		break;
	case FIO_RAND_DIST_PARETO:
		*block = pareto_next(p, j->rand_dist_val);
		break;
	case FIO_RAND_DIST_NORMAL:
		*block = gauss_next(p, j->rand_dist_val);
		break;
	case FIO_RAND_DIST_ZONED:
	case FIO_RAND_DIST_ZONED_ABS:
		if (!zoned_next(jr, d, blocks, block))
			return false;
		break;
	default:
		return false;
	}
	if (*block >= blocks)
		*block %= blocks;
	return true;
}

/*
 * random_distribution=sequence (fio 3.42 io_u.c
 * __get_next_rand_offset_sequence): the I/O's index in its direction
 * (td->io_issues[ddir], never reset in a job: loops go on counting)
 * picks the pattern's element; with random_sequence_stride the element
 * is relative to a group that moves by the pattern's length each cycle.
 * A block at or past f->io_size / min_bs ends the file's I/O
 * (get_next_rand_block fails again after time_based's reset, since the
 * count does not go back); when the pattern's own element is past it,
 * fio's td_verror(EINVAL) ends the job with its message.
 * Divergences: io_issues[] here counts the I/Os this path gives, not
 * verify reads (fio-plan.c refuses the sequence with verify_backlog,
 * where fio's verify reads would interleave and move the read count).
 */
bool fio_pace_sequence_block(struct job_run *jr, enum fio_ddir d,
			     uint64_t *block)
{
	const struct fio_job *j = jr->job;
	struct fio_pace *p = &jr->pace;
	uint64_t count = p->seq_issues[d];
	uint32_t idx = (uint32_t)(count % j->rand_seq_nr);
	uint64_t max_blocks = jr->region_bytes / j->bs[d];

	if (j->rand_seq_stride)
		*block = count / j->rand_seq_nr * j->rand_seq_nr +
			 j->rand_seq[idx];
	else
		*block = j->rand_seq[idx];
	if (*block >= max_blocks) {
		if (j->rand_seq[idx] >= max_blocks) {
			snprintf(jr->verify_msg, sizeof(jr->verify_msg),
				 "fio: sequence access block %u in base "
				 "pattern out of bounds (max %llu)",
				 j->rand_seq[idx],
				 (unsigned long long)max_blocks);
			jr->error = KM_EINVAL;
		}
		return false;
	}
	p->seq_issues[d]++;
	return true;
}

/* ---- latency_target -------------------------------------------------- */

/*
 * latency_target (fio 3.33 io_u.c lat_target_init, lat_target_check,
 * lat_target_success, __lat_target_failed, lat_target_failed, queue_full;
 * backend.c do_io): the job starts at queue depth 1 and, over each
 * latency_window, counts its completions and those whose latency (start
 * to completion, fio's tnsec) is above the target; when the share within
 * reaches latency_percentile the depth ramps up (doubling while the
 * highest is the iodepth, else bisecting towards it), else down
 * (bisecting towards the lowest that passed; at depth 1 the job fails
 * with ETIMEDOUT, fio's lat_fatal "max latency exceeded").  A depth the
 * success step does not change (and no latency_run) quiesces, resets the
 * job's statistics and runs one more window at it (latency_end_run);
 * the next such step ends the job (td->done).  fio_run_depth() is the
 * depth the engines fill before they wait (queue_full).
 * Divergences: none in the steps; the engines that fill a depth here are
 * libaio and posixaio (fio-plan.c refuses io_uring with it).
 */
void fio_lat_target_init(struct job_run *jr)
{
	const struct fio_job *j = jr->job;
	struct fio_lat_target *l = &jr->lat;

	l->end_run = false;
	l->ramp_down = false;
	if (j->latency_target_ns) {
		l->ts_ns = sim_now();
		l->qd = 1;
		l->qd_high = j->iodepth;
		l->qd_low = 1;
		l->ios = l->blocks;
	} else
		l->qd = j->iodepth;
}

/* lat_new_cycle */
static void lat_new_cycle(struct job_run *jr)
{
	struct fio_lat_target *l = &jr->lat;

	l->ts_ns = sim_now();
	l->ios = l->blocks;
	l->failed = 0;
}

/* __lat_target_failed: false, or true when at depth 1 (fatal). */
static bool lat_failed(struct job_run *jr)
{
	struct fio_lat_target *l = &jr->lat;

	if (l->qd == 1)
		return true;
	l->qd_high = l->qd;
	if (l->qd == l->qd_low)
		l->qd_low--;
	l->qd = (l->qd + l->qd_low) / 2;
	l->stable = 0;
	/* "quiesce existing IO to prevent a storm of ramp downs" */
	jr->error = fio_run_quiesce(jr);
	lat_new_cycle(jr);
	return false;
}

/* lat_target_success */
static void lat_success(struct job_run *jr)
{
	const struct fio_job *j = jr->job;
	struct fio_lat_target *l = &jr->lat;
	unsigned int qd = l->qd;

	l->qd_low = l->qd;
	if (l->qd + 1 == l->qd_high && ++l->stable >= 3) {
		l->qd_high++;
		l->stable = 0;
	}
	if (l->qd_high != j->iodepth)
		l->qd = (l->qd + l->qd_high) / 2;
	else
		l->qd *= 2;
	if (l->qd > j->iodepth)
		l->qd = j->iodepth;
	if (!j->latency_run && l->qd == qd) {
		if (l->end_run) {
			l->done = true;
		} else {
			/* "Quiesce and final run": reset_all_stats and
			 * reset_io_stats (their lat_target_reset keeps the
			 * state: latency_end_run is already set). */
			int err = fio_run_quiesce(jr);

			if (err && !jr->error)
				jr->error = err;
			l->end_run = true;
			l->blocks = 0;
			fio_run_stats_reset(jr);
		}
	}
	lat_new_cycle(jr);
}

void fio_lat_target_done(struct job_run *jr, enum fio_ddir d,
			 uint64_t lat_ns, uint64_t offset, uint64_t bytes)
{
	const struct fio_job *j = jr->job;
	struct fio_lat_target *l = &jr->lat;

	if (d == FIO_DDIR_TRIM)		/* ddir_rw(idx) */
		return;
	l->blocks++;		/* io_blocks[ddir]++ (io_completed) */
	/* account_io_completion: not with gtod_reduce (disable_lat). */
	if (!j->latency_target_ns || j->gtod_reduce ||
	    lat_ns <= j->latency_target_ns)
		return;
	if (j->latency_percentile == 100.0) {
		/* lat_target_failed -> __lat_target_failed, run by
		 * fio_lat_target_check before the next I/O. */
		l->ramp_down++;
		l->over_ns = lat_ns;
		l->over_off = offset;
		l->over_len = bytes;
		l->over_read = d == FIO_DDIR_READ;
	} else
		l->failed++;
}

int fio_lat_target_check(struct job_run *jr)
{
	const struct fio_job *j = jr->job;
	struct fio_lat_target *l = &jr->lat;
	uint64_t ios;
	double success;

	if (!j->latency_target_ns)
		return 0;
	/* Completions over the target at latency_percentile 100: a ramp
	 * down each (fio runs it inside the completion; nothing is issued
	 * between it and here); at depth 1, fio's lat_fatal. */
	while (l->ramp_down) {
		l->ramp_down--;
		if (lat_failed(jr)) {
			fprintf(stderr, "fio: latency of %" PRIu64 " nsec "
				"exceeds specified max (%" PRIu64 " nsec): "
				"%s %" PRIu64 " %" PRIu64 "\n", l->over_ns,
				j->latency_target_ns,
				l->over_read ? "read" : "write", l->over_off,
				l->over_len);
			l->ramp_down = 0;
			return ETIMEDOUT;
		}
		if (jr->error)
			return jr->error;
	}
	/* do_io: "if (!ddir_rw_sum(td->bytes_done)) continue;" */
	if (!l->blocks)
		return 0;
	if ((sim_now() - l->ts_ns) / 1000 < j->latency_window_ns / 1000)
		return 0;
	ios = l->blocks - l->ios;
	/* fio divides as is: no I/O in the window is 0/0, a NaN that
	 * fails the comparison. */
	success = (double)(ios - l->failed) / (double)ios * 100.0;
	if (success >= j->latency_percentile)
		lat_success(jr);
	else
		(void)lat_failed(jr);	/* lat_target_check ignores it */
	return jr->error;
}
