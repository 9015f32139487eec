// SPDX-License-Identifier: MIT
/*
 * tools/dontcache-interleaved-probe.c - seed 003's workload on the
 * running kernel: THREADS threads writing interleaved records of RECORD
 * bytes to one fresh file with pwritev2(RWF_DONTCACHE [| RWF_DSYNC]);
 * thread t writes records t, t + THREADS, t + 2 x THREADS, ...  Prints
 * the device reads per write and the throughput.
 *
 * The real-kernel witness for experiments/seed003.fio (fio 3.33 cannot
 * run it here: its uncached=1 sets RWF_UNCACHED's old value 0x40, which
 * is RWF_ATOMIC in Linux 6.18).  Device reads are /proc/self/io
 * read_bytes (block/blk-core.c accounts read bios to the submitting
 * task; the threads are one process), in 4 KiB units, over the writes;
 * MiB/s is the bytes written over the wall time from the first write to
 * the last (all threads released together).  One line per run:
 *   threads record_bytes flags writes reads_per_write mib_per_s
 *
 * With DC_PROBE_LOG=FILE in the environment it also writes FILE: a
 * first line "# t0 S s CLOCK_MONOTONIC ..." (the release, since session
 * 24, h24-dc: a trace on the mono clock lines up with it), then one
 * line per write, "record thread end_us reads start_us" (the pwritev2's
 * return, from the threads' release; the 4 KiB device reads that write
 * did, from the thread's own /proc/thread-self/io read_bytes before and
 * after it; since session 24, h24-dc, the pwritev2's call), by record,
 * and prints on stderr the median and the 10th and 90th
 * percentiles of |end(k + 1) - end(k)| over the records k: how far apart
 * the writes that share a page came (what decides whether the second
 * finds the page cached: docs/validation.md, session 15 h15-dc), and the
 * reads per write of round 0 (every thread's first record) and of the
 * later rounds: with DSYNC the first round's writers all copy before the
 * first writeback completes or not (session 21 h21-dsync).  Without it
 * nothing else runs (the two reads of /proc a write are not free).
 *
 * With DC_PROBE_SCHED=1 in the environment (since session 24, h24-dc)
 * each writer reads its own /proc/thread-self/schedstat (kernel/sched/
 * stats.c, v6.18: time on a CPU, time waiting on a run queue, ns, and
 * timeslices) after the threads' release and after its last write, and
 * the probe prints on stderr one line per thread, "schedstat: thread T
 * records R run_ns X wait_ns Y slices Z" (the differences): the
 * writer's own CPU a record, which the calibration's dc.1t-wait takes
 * (tools/calibrate/calibrate.py).  Two reads of /proc a thread, outside
 * the writes.  Since session 25 (h25-dc) each writer also notes the CPU
 * it is on when each write returns (sched_getcpu(3): the kernel's rseq
 * cpu_id or the vDSO getcpu, no syscall), and the probe prints one more
 * line per thread, "cpus: thread T records R cpuC N ... moves M" (the
 * returns on each CPU that had any, and how many times the CPU changed
 * from one write's return to the next): which CPU the writer lived on,
 * the interrupt's or the other (docs/validation.md, session 25 h25-dc:
 * the 1-thread writer's two modes).
 *
 * With DC_PROBE_IDLE_MS=N in the environment it first sleeps N ms with
 * nothing of its own in flight, so that the run starts on a block queue
 * whose writeback throttle has gone back to its centre: block/blk-wbt.c
 * (v6.18) wb_timer_fn moves a queue that saw writes and no reads to a
 * negative scale step (a deeper write limit: loop0's normal limit 8 at
 * step 0, 48 at step -3) one 100 ms window at a time, and back one step
 * towards 0 after RWB_UNKNOWN_BUMP (5) windows with no I/O; the timer
 * keeps running while the step is not 0.  Without it a run starts at
 * whatever step the machine's last writes left, which the figures of a
 * run shorter than a window depend on and which is not recorded
 * (docs/validation.md, session 20 h20-dc).  The model's queue starts at
 * step 0 (model/block/blk-wbt.c m_wbt_init).
 *
 * Usage: dontcache-interleaved-probe DIR THREADS RECORD ROUNDS [dsync]
 * Exit: 0 done, 2 bad usage or a step failed (it says which).
 * Not a test: the machine's kernel and load decide the figures; run by
 * make probe-fio.  Leaves out: fio's own loop (this is a plain pwritev2
 * loop) and any figure the seed has but this machine cannot give (XFS).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080
#endif
#ifndef RWF_DSYNC
#define RWF_DSYNC 0x00000002
#endif

#define THREADS_MAX 64
#define CPUS_MAX 64	/* DC_PROBE_SCHED's CPU counts (higher: not counted) */

struct probe {
	int fd;
	unsigned int threads;
	size_t record;
	unsigned long rounds;
	int flags;
	pthread_barrier_t start;
	int error;
};

struct worker {
	struct probe *p;
	unsigned int id;
	char *buf;
	double *end;	/* DC_PROBE_LOG: each round's return time, or NULL */
	double *start;	/* DC_PROBE_LOG: each round's call time, or NULL */
	bool sched;	/* DC_PROBE_SCHED: read schedstat around the writes */
	unsigned long long ss[2][3];	/* schedstat before, after */
	unsigned long done;	/* writes that returned */
	long long *reads;	/* DC_PROBE_LOG: each round's read bytes */
	unsigned long cpu_n[CPUS_MAX];	/* DC_PROBE_SCHED: returns a CPU */
	unsigned long cpu_moves;	/* the CPU changed between returns */
	int cpu_last;
};

static double now_s(void);

static long long read_bytes_of(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[128];
	long long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "read_bytes: %lld", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* The process's device reads (every thread's: block/blk-core.c accounts
 * a read bio to the submitting task, summed over the thread group). */
static long long read_bytes(void)
{
	return read_bytes_of("/proc/self/io");
}

/* The calling thread's /proc/thread-self/schedstat: time on a CPU and
 * waiting on a run queue (ns), timeslices; false if unreadable. */
static bool schedstat(unsigned long long v[3])
{
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	bool ok = f && fscanf(f, "%llu %llu %llu", &v[0], &v[1], &v[2]) == 3;

	if (f)
		fclose(f);
	return ok;
}

static void *writer(void *arg)
{
	struct worker *w = arg;
	struct probe *p = w->p;

	pthread_barrier_wait(&p->start);
	if (w->sched && !schedstat(w->ss[0]))
		w->sched = false;
	for (unsigned long k = 0; k < p->rounds; k++) {
		unsigned long long rec = (unsigned long long)k * p->threads +
					 w->id;
		struct iovec iov = { w->buf, p->record };
		long long r0 = w->reads ?
			read_bytes_of("/proc/thread-self/io") : 0;
		ssize_t n;

		if (w->start)
			w->start[k] = now_s();
		n = pwritev2(p->fd, &iov, 1, (off_t)(rec * p->record),
			     p->flags);
		if (n != (ssize_t)p->record) {
			p->error = n < 0 ? errno : EIO;
			break;
		}
		if (w->end)
			w->end[k] = now_s();
		if (w->reads)
			w->reads[k] = read_bytes_of("/proc/thread-self/io") - r0;
		if (w->sched) {
			int c = sched_getcpu();

			if (c >= 0 && c < CPUS_MAX)
				w->cpu_n[c]++;
			if (k && c != w->cpu_last)
				w->cpu_moves++;
			w->cpu_last = c;
		}
		w->done = k + 1;
	}
	if (w->sched && !schedstat(w->ss[1]))
		w->sched = false;
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* DC_PROBE_LOG: each write's return time, by record; the gaps between
 * neighbouring records' returns on stderr. */
static int write_log(const char *path, const struct probe *p,
		     const struct worker *w, double t0)
{
	unsigned long n = p->rounds * p->threads;
	double *gap = calloc(n, sizeof(double));
	FILE *f = fopen(path, "w");
	unsigned long g = 0;
	long long rd[2] = { 0, 0 };	/* round 0, the later rounds */

	if (!f || !gap) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		free(gap);
		if (f)
			fclose(f);
		return -1;
	}
	fprintf(f, "# t0 %.6f s CLOCK_MONOTONIC (the release); record "
		"thread end_us reads start_us\n", t0);
	for (unsigned long k = 0; k < n; k++) {
		const struct worker *a = &w[k % p->threads];
		double end = a->end[k / p->threads];
		long long r = a->reads[k / p->threads];

		fprintf(f, "%lu %lu %.3f %lld %.3f\n", k, k % p->threads,
			(end - t0) * 1e6, r / 4096,
			(a->start[k / p->threads] - t0) * 1e6);
		rd[k >= p->threads] += r;
		if (k + 1 < n) {
			const struct worker *b = &w[(k + 1) % p->threads];
			double next = b->end[(k + 1) / p->threads];

			gap[g++] = (next > end ? next - end : end - next) * 1e6;
		}
	}
	fclose(f);
	if (g) {
		qsort(gap, g, sizeof(double), cmp_double);
		fprintf(stderr, "neighbour records' returns apart (us): "
			"p10 %.1f median %.1f p90 %.1f over %lu pairs\n",
			gap[g / 10], gap[g / 2], gap[g * 9 / 10], g);
	}
	fprintf(stderr, "reads per write: round 0 %.4f over %u writes",
		(double)rd[0] / 4096.0 / p->threads, p->threads);
	if (p->rounds > 1)
		fprintf(stderr, ", rounds 1-%lu %.4f over %lu writes",
			p->rounds - 1, (double)rd[1] / 4096.0 /
			(double)(n - p->threads), n - p->threads);
	fprintf(stderr, "\n");
	free(gap);
	return 0;
}

int main(int argc, char **argv)
{
	struct probe p = { 0 };
	struct worker w[THREADS_MAX];
	pthread_t tid[THREADS_MAX];
	char path[4096];
	long long r0, r1;
	double t0, t1, writes;
	const char *log, *idle, *sched;

	if (argc < 5 || argc > 6 || (argc == 6 && strcmp(argv[5], "dsync"))) {
		fprintf(stderr, "usage: dontcache-interleaved-probe DIR THREADS "
			"RECORD ROUNDS [dsync]\n");
		return 2;
	}
	p.threads = (unsigned int)strtoul(argv[2], NULL, 0);
	p.record = strtoul(argv[3], NULL, 0);
	p.rounds = strtoul(argv[4], NULL, 0);
	if (!p.threads || p.threads > THREADS_MAX || !p.record ||
	    p.record > (64u << 20) || !p.rounds) {
		fprintf(stderr, "dontcache-interleaved-probe: THREADS 1..%d, "
			"RECORD 1..64M, ROUNDS >= 1\n", THREADS_MAX);
		return 2;
	}
	p.flags = RWF_DONTCACHE | (argc == 6 ? RWF_DSYNC : 0);
	log = getenv("DC_PROBE_LOG");
	idle = getenv("DC_PROBE_IDLE_MS");
	sched = getenv("DC_PROBE_SCHED");
	if (idle && *idle) {
		char *end;
		unsigned long ms = strtoul(idle, &end, 10);
		struct timespec ts = { (time_t)(ms / 1000),
				       (long)(ms % 1000) * 1000000L };

		if (*end || ms > 600000) {
			fprintf(stderr, "DC_PROBE_IDLE_MS: 0..600000\n");
			return 2;
		}
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	snprintf(path, sizeof(path), "%s/dontcache-interleaved.dat", argv[1]);
	p.fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (p.fd < 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return 2;
	}
	pthread_barrier_init(&p.start, NULL, p.threads + 1);
	for (unsigned int t = 0; t < p.threads; t++) {
		w[t].p = &p;
		w[t].id = t;
		w[t].buf = malloc(p.record);
		w[t].end = log ? calloc(p.rounds, sizeof(double)) : NULL;
		w[t].start = log ? calloc(p.rounds, sizeof(double)) : NULL;
		w[t].reads = log ? calloc(p.rounds, sizeof(long long)) : NULL;
		w[t].sched = sched && !strcmp(sched, "1");
		w[t].done = 0;
		memset(w[t].cpu_n, 0, sizeof(w[t].cpu_n));
		w[t].cpu_moves = 0;
		w[t].cpu_last = -1;
		if (!w[t].buf || (log && (!w[t].end || !w[t].start ||
					  !w[t].reads)))
			return 2;
		memset(w[t].buf, 'a' + (int)(t % 26), p.record);
		pthread_create(&tid[t], NULL, writer, &w[t]);
	}
	r0 = read_bytes();
	t0 = now_s();
	pthread_barrier_wait(&p.start);
	for (unsigned int t = 0; t < p.threads; t++)
		pthread_join(tid[t], NULL);
	t1 = now_s();
	r1 = read_bytes();
	if (p.error) {
		fprintf(stderr, "pwritev2: %s\n", strerror(p.error));
		return 2;
	}
	if (r0 < 0 || r1 < 0) {
		fprintf(stderr, "/proc/self/io: no read_bytes\n");
		return 2;
	}
	writes = (double)p.threads * (double)p.rounds;
	printf("%7u %12zu %-15s %8.0f %15.4f %10.1f\n", p.threads, p.record,
	       argc == 6 ? "DONTCACHE|DSYNC" : "DONTCACHE", writes,
	       (double)(r1 - r0) / 4096.0 / writes,
	       writes * (double)p.record / (t1 - t0) / 1048576.0);
	close(p.fd);
	unlink(path);
	if (log && write_log(log, &p, w, t0) != 0)
		return 2;
	for (unsigned int t = 0; t < p.threads; t++) {
		if (sched && !w[t].sched) {
			fprintf(stderr, "/proc/thread-self/schedstat: not "
				"readable\n");
			return 2;
		}
		if (w[t].sched)
			fprintf(stderr, "schedstat: thread %u records %lu "
				"run_ns %llu wait_ns %llu slices %llu\n", t,
				w[t].done, w[t].ss[1][0] - w[t].ss[0][0],
				w[t].ss[1][1] - w[t].ss[0][1],
				w[t].ss[1][2] - w[t].ss[0][2]);
		if (w[t].sched) {
			fprintf(stderr, "cpus: thread %u records %lu", t,
				w[t].done);
			for (int c = 0; c < CPUS_MAX; c++)
				if (w[t].cpu_n[c])
					fprintf(stderr, " cpu%d %lu", c,
						w[t].cpu_n[c]);
			fprintf(stderr, " moves %lu\n", w[t].cpu_moves);
		}
	}
	for (unsigned int t = 0; t < p.threads; t++) {
		free(w[t].buf);
		free(w[t].start);
		free(w[t].end);
		free(w[t].reads);
	}
	return 0;
}
