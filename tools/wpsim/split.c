// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/split.c - one scenario x variant pair's search spread over
 * worker processes (--jobs N) or MPI ranks (-Dmpi=enabled under
 * mpirun): the items of sim_dpor_split, the work the items give away
 * while they run, the races they forward to the coordinator's nodes,
 * the merge in item order that makes the report the same for every N,
 * and the wire format of the messages between them
 * (docs/architecture.md, "Splitting one exploration").  Leaves out: any
 * search but unbounded DPOR (check.c runs those whole).
 */
#include "tools/wpsim/check.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef WPSIM_MPI
#include <mpi.h>
#include <sched.h>
#include <semaphore.h>
#endif

#ifdef WPSIM_HAVE_JEMALLOC
/*
 * jemalloc's thread cache keeps freed blocks up to 128 KiB (its default
 * is 32 KiB).  Every unit a worker or a rank ran built DPOR's state anew
 * (sim_strategy_dpor_item: two zeroed blocks of about 60 KiB), and a
 * block above the cache's limit comes back from the arena zeroed by
 * madvise(MADV_DONTNEED): a TLB shootdown, then a page fault per page
 * touched; from the cache it is zeroed by memset.  On --jobs 2 that was
 * 11% of the workers' CPU (docs/performance.md, issue 34); the single
 * process builds its state once and does not change.  A worker now keeps
 * its state from unit to unit (split_reuse), so this matters where
 * WPSIM_SPLIT_REUSE=0 and for the other blocks of similar size (an
 * item's bytes, a result's).  MALLOC_CONF in the environment still
 * applies over this.
 */
const char *malloc_conf = "tcache_max:131072";
#endif

/*
 * ---- one pair split over worker processes (--jobs) ----------------------
 *
 * An unbounded dpor pair with --jobs is split into items (sim_dpor_split:
 * the top of the tree by sleep-set DFS; docs/architecture.md, "Splitting
 * one exploration").  The workers take the items from a queue (below),
 * run them, give work away while they run (more items), and send their
 * results; the coordinator merges them in item order: counters summed,
 * final states in order, the witness the first of the lowest-numbered
 * item that has one (its execution number counts the executions of the
 * items before).  The number of items does not depend on --jobs, nor
 * does any item's search, nor which worker runs it, so the report is
 * the same for every N.  A Sometimes decided by the items merged so far
 * cancels the later items.
 */
#define SPLIT_ITEMS_MIN		64	/* leaves of the top, at least */
#define SPLIT_LEVELS_MAX	1000
#define SPLIT_QUIT		UINT32_MAX
#define SPLIT_SELF		(UINT32_MAX - 1)	/* MPI: the kept item */
/*
 * --jobs: a unit a worker put in the shared queue itself is named by the
 * worker: SPLIT_WQ, its slot (8 bits) and its own count of them (23 bits)
 * until the parent has read the donation that made it.
 */
#define SPLIT_WQ		0x80000000u
#define SPLIT_WQ_SEQ_MAX	0x7ffffdu
#define SPLIT_RING_BYTES	(8u << 20)	/* the shared queue */
#define SPLIT_DONATE_EVERY	256	/* runs of an item between donations */
#define SPLIT_WAIT_MIN		50e-6	/* s: a take this long waits */

/*
 * A worker's time slice: 20 ms.  Where more CPU-bound processes than
 * cores share a machine (mpirun --oversubscribe, --jobs beside other
 * work), Linux's fair scheduler (EEVDF) switches between them every base
 * slice, 1.4 ms by default on 2 CPUs here (se.slice in /proc/PID/sched),
 * and each switch leaves the next worker caches the other one filled.
 * A worker asks for a longer slice (sched_setattr's sched_runtime, a
 * fair task's slice since Linux 6.12; earlier kernels ignore it): the
 * same share of the CPU, in longer turns.  Its weight (nice) and policy
 * stay; a process with a shorter slice still preempts it when it wakes
 * (rank 0 and the --jobs parent, which answer the others, keep theirs).
 * WPSIM_SPLIT_SLICE=0 in the environment keeps the kernel's slice (to
 * measure the difference: bench/search-scale.py's -noslice rows).
 */
#define SPLIT_SLICE_NS		20000000ULL

struct split_sched_attr {	/* the kernel's struct sched_attr, v1 */
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
	uint32_t util_min, util_max;
};

static void split_long_slice(void)
{
#ifdef SYS_sched_setattr
	struct split_sched_attr a;
	const char *env = getenv("WPSIM_SPLIT_SLICE");

	if (env && strcmp(env, "0") == 0)
		return;
	memset(&a, 0, sizeof(a));
	if (syscall(SYS_sched_getattr, 0, &a, sizeof(a), 0) != 0)
		return;
	if (a.policy != 0 && a.policy != 3)	/* SCHED_OTHER, SCHED_BATCH */
		return;
	a.size = sizeof(a);
	a.flags = 0;
	a.runtime = SPLIT_SLICE_NS;
	(void)syscall(SYS_sched_setattr, 0, &a, 0);
#endif
}

/* A growing byte buffer: a worker's result of one item. */
struct buf {
	char *data;
	size_t len, cap, pos;
};

static void buf_put(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 256;
		b->data = realloc(b->data, b->cap);
		if (!b->data)
			abort();
	}
	if (n)		/* an empty buffer's data may be NULL */
		memcpy(b->data + b->len, p, n);
	b->len += n;
}

static void buf_u64(struct buf *b, uint64_t v)
{
	buf_put(b, &v, sizeof(v));
}

static void buf_str(struct buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	buf_u64(b, n);
	buf_put(b, s ? s : "", n);
}

/* The parent reads what a worker of the same binary wrote: no slack. */
static void buf_get(struct buf *b, void *p, size_t n)
{
	if (b->pos + n > b->len) {
		fprintf(stderr, "wpsim: --jobs: a worker's result is short\n");
		exit(EXIT_USAGE);
	}
	if (n)
		memcpy(p, b->data + b->pos, n);
	b->pos += n;
}

static uint64_t get_u64(struct buf *b)
{
	uint64_t v;

	buf_get(b, &v, sizeof(v));
	return v;
}

static char *get_str(struct buf *b)
{
	size_t n = (size_t)get_u64(b);
	char *s = malloc(n + 1);

	if (!s)
		abort();
	buf_get(b, s, n);
	s[n] = '\0';
	return s;
}

static void witness_put(struct buf *b, const struct witness *wt)
{
	const struct sim_witness *w = &wt->w;

	buf_u64(b, w->found);
	if (!w->found)
		return;
	buf_put(b, &w->outcome, sizeof(w->outcome));
	buf_u64(b, w->steps);
	buf_put(b, w->choices, w->steps * sizeof(*w->choices));
	buf_put(b, w->enabled, w->steps * sizeof(*w->enabled));
	buf_str(b, w->schedule);
	buf_u64(b, w->exec_seed);
	buf_u64(b, w->execution);
	buf_str(b, wt->state);
	buf_u64(b, wt->holds);
}

static void witness_get(struct buf *b, struct witness *wt)
{
	struct sim_witness *w = &wt->w;
	char *state;

	memset(wt, 0, sizeof(*wt));
	if (!get_u64(b))
		return;
	w->found = true;
	buf_get(b, &w->outcome, sizeof(w->outcome));
	w->steps = (uint32_t)get_u64(b);
	w->choices = malloc((w->steps + 1) * sizeof(*w->choices));
	w->enabled = malloc((w->steps + 1) * sizeof(*w->enabled));
	if (!w->choices || !w->enabled)
		abort();
	buf_get(b, w->choices, w->steps * sizeof(*w->choices));
	buf_get(b, w->enabled, w->steps * sizeof(*w->enabled));
	w->schedule = get_str(b);
	w->exec_seed = get_u64(b);
	w->execution = get_u64(b);
	state = get_str(b);
	snprintf(wt->state, sizeof(wt->state), "%s", state);
	free(state);
	wt->holds = get_u64(b);
}

/* One item's result: the first three fields are what progress needs. */
static void item_put(struct buf *b, const struct collect *c,
		     const struct sim_explore_result *r)
{
	buf_u64(b, r->executions);
	buf_u64(b, r->pruned);
	buf_u64(b, r->failures);
	buf_u64(b, r->steps);
	buf_put(b, r->by_kind, sizeof(r->by_kind));
	buf_u64(b, r->complete);
	buf_u64(b, r->determinism_checked);
	buf_u64(b, r->determinism_ok);
	buf_u64(b, c->positive);
	buf_u64(b, c->negative);
	buf_u64(b, c->states_count);
	for (size_t i = 0; i < c->states_count; i++) {
		buf_str(b, c->states[i].state);
		buf_u64(b, c->states[i].count);
		buf_u64(b, c->states[i].holds);
	}
	buf_u64(b, c->states_other);
	buf_u64(b, c->unexpected_count);
	buf_put(b, c->by_atom, sizeof(c->by_atom));
	buf_u64(b, c->eval_failed);
	buf_str(b, c->eval_message);
	buf_u64(b, c->index);
	witness_put(b, &c->witness);
	witness_put(b, &c->unexpected);
}

/* @count more executions ended in @state (state_add, @count at once). */
static void state_add_count(struct collect *c, const char *state, bool holds,
			    uint64_t count)
{
	for (size_t i = 0; i < c->states_count; i++) {
		if (strcmp(c->states[i].state, state) == 0) {
			c->states[i].count += count;
			return;
		}
	}
	if (c->states_count == STATES_KEPT_MAX) {
		c->states_other += count;
		return;
	}
	check_state_add(c, state, holds);
	c->states[c->states_count - 1].count = count;
}

/* Merge the next item's result (in item order) into @c and @r. */
static void item_merge(struct buf *b, struct collect *c,
		       struct sim_explore_result *r)
{
	uint64_t by_kind[SIM_FAIL_KIND_COUNT], by_atom[3], n, eval, index;
	struct witness w;
	char *text;

	r->executions += get_u64(b);
	r->pruned += get_u64(b);
	r->failures += get_u64(b);
	r->steps += get_u64(b);
	buf_get(b, by_kind, sizeof(by_kind));
	for (size_t k = 0; k < SIM_FAIL_KIND_COUNT; k++)
		r->by_kind[k] += by_kind[k];
	if (!get_u64(b))
		r->complete = false;
	if (get_u64(b)) {
		r->determinism_checked = true;
		if (!get_u64(b))
			r->determinism_ok = false;
	} else {
		get_u64(b);
	}
	c->positive += get_u64(b);
	c->negative += get_u64(b);
	n = get_u64(b);
	for (uint64_t i = 0; i < n; i++) {
		char *state = get_str(b);
		uint64_t count = get_u64(b);
		bool holds = get_u64(b);

		state_add_count(c, state, holds, count);
		free(state);
	}
	c->states_other += get_u64(b);
	c->unexpected_count += get_u64(b);
	buf_get(b, by_atom, sizeof(by_atom));
	for (size_t k = 0; k < 3; k++)
		c->by_atom[k] += by_atom[k];
	eval = get_u64(b);
	text = get_str(b);
	if (eval && !c->eval_failed)
		snprintf(c->eval_message, sizeof(c->eval_message), "%s", text);
	c->eval_failed += eval;
	free(text);
	index = get_u64(b);
	witness_get(b, &w);
	w.w.execution += c->index;
	if (w.w.found && !c->witness.w.found)
		c->witness = w;
	else
		check_witness_free(&w);
	witness_get(b, &w);
	w.w.execution += c->index;
	if (w.w.found && !c->unexpected.w.found)
		c->unexpected = w;
	else
		check_witness_free(&w);
	c->index += index;
}

/*
 * A message from a worker: 'P' (progress), 'D' (items it gave away) or
 * 'R' (its result).
 */
struct split_msg {
	char type;
	uint32_t unit;
	uint64_t len;
	uint64_t executions, pruned, failing;	/* 'P' */
	/* 'R': the worker's wall ns without a unit since its last 'R' (or
	 * its start), and how many times it waited (--progress's last
	 * lines). */
	uint64_t wait_ns, waits;
	uint64_t item_ns;	/* 'R': the item's wall ns */
	/* 'R': the worker's context switches since its start (voluntary,
	 * involuntary: getrusage). */
	uint64_t csw, icsw;
	/* 'R' (MPI): wall ns waiting for a core of its node, how many
	 * times, since its last 'R' (mpi_core_get). */
	uint64_t core_ns, core_waits;
};

/*
 * A unit of work: an item, packed, and what its run found.  Units form
 * a tree in merge order: an item's result, then the items it gave away,
 * the last given first (each donation is deeper than the one before it,
 * so its items come first in DFS order).
 */
struct unit {
	struct buf item, result;
	int64_t parent, first, next;
	int32_t ctx;		/* its deepest node the coordinator owns */
	bool got;
	bool queued;		/* in the queue (struct units) */
};

struct units {
	struct unit *u;
	size_t count, cap;
	int64_t *queue;		/* to hand out, first in first out */
	size_t qhead, qtail, qcap;
};

/* Unit @u to hand out, after the others. */
static void unit_queue(struct units *us, int64_t u)
{
	if (us->qtail == us->qcap) {
		us->qcap = us->qcap ? 2 * us->qcap : 256;
		us->queue = realloc(us->queue, us->qcap * sizeof(*us->queue));
		if (!us->queue)
			abort();
	}
	us->queue[us->qtail++] = u;
	us->u[u].queued = true;
}

#ifdef WPSIM_MPI
/* Unit @u to hand out next, before the others (one a rank gave back). */
static void unit_queue_front(struct units *us, int64_t u)
{
	if (us->qhead == 0) {
		unit_queue(us, u);	/* room at the end, then move */
		memmove(&us->queue[1], &us->queue[0],
			(us->qtail - 1) * sizeof(*us->queue));
		us->queue[0] = u;
		return;
	}
	us->queue[--us->qhead] = u;
	us->u[u].queued = true;
}
#endif

static int64_t unit_add(struct units *us, const void *item, size_t len,
			int64_t parent)
{
	struct unit *u;

	if (us->count == us->cap) {
		us->cap = us->cap ? 2 * us->cap : 256;
		us->u = realloc(us->u, us->cap * sizeof(*us->u));
		if (!us->u)
			abort();
	}
	u = &us->u[us->count];
	memset(u, 0, sizeof(*u));
	buf_put(&u->item, item, len);
	u->parent = parent;
	u->first = u->next = -1;
	u->ctx = -1;
	unit_queue(us, (int64_t)us->count);
	return (int64_t)us->count++;
}

/* The unit after @cur in merge order (preorder), or -1. */
static int64_t unit_next(const struct units *us, int64_t cur)
{
	if (us->u[cur].first >= 0)
		return us->u[cur].first;
	while (cur >= 0 && us->u[cur].next < 0)
		cur = us->u[cur].parent;
	return cur >= 0 ? us->u[cur].next : -1;
}

/*
 * A donation of unit @parent: its items go first among its children,
 * and the nodes it hands over are the coordinator's (@tops).
 */
static void units_donated(struct units *us, struct sim_dpor_tops *tops,
			  int64_t parent, struct buf *b)
{
	uint64_t k = get_u64(b);
	int64_t first = -1, last = -1;
	size_t len;
	int32_t ctx;

	for (uint64_t i = 0; i < k; i++) {
		size_t len = (size_t)get_u64(b);
		int64_t u;

		if (b->pos + len > b->len) {
			fprintf(stderr, "wpsim: --jobs: a worker's donation "
				"is short\n");
			exit(EXIT_USAGE);
		}
		u = unit_add(us, b->data + b->pos, len, parent);
		b->pos += len;
		if (last >= 0)
			us->u[last].next = u;
		else
			first = u;
		last = u;
	}
	len = (size_t)get_u64(b);
	if (b->pos + len > b->len) {
		fprintf(stderr, "wpsim: --jobs: a worker's donation is short\n");
		exit(EXIT_USAGE);
	}
	ctx = sim_dpor_tops_add(tops, us->u[parent].ctx, b->data + b->pos,
				len);
	b->pos += len;
	us->u[parent].ctx = ctx;
	for (int64_t u = first; u >= 0 && u != us->u[parent].first;
	     u = us->u[u].next)
		us->u[u].ctx = ctx;
	if (last >= 0) {
		us->u[last].next = us->u[parent].first;
		us->u[parent].first = first;
	}
}

/*
 * The races unit @cur forwarded (the end of its result @b), merged in
 * merge order: the items the coordinator runs for them go last among
 * @cur's children.  Their redundant nodes and steps count in @r.
 */
static void units_requested(struct units *us, struct sim_dpor_tops *tops,
			    const struct collect *c,
			    const struct sim_explore_options *eo,
			    int64_t cur, struct buf *b,
			    struct sim_explore_result *r)
{
	size_t len = (size_t)get_u64(b);
	struct sim_dpor_split *sp;
	int64_t last = -1;
	uint32_t levels;
	uint64_t pruned, steps;

	if (b->pos + len > b->len) {
		fprintf(stderr, "wpsim: --jobs: a worker's result is short\n");
		exit(EXIT_USAGE);
	}
	sp = sim_dpor_tops_apply(tops, &c->x.program, &eo->exec,
				 us->u[cur].ctx, b->data + b->pos, len);
	b->pos += len;
	if (!sp)
		return;
	sim_dpor_split_stats(sp, &levels, &pruned, &steps);
	r->pruned += pruned;
	r->steps += steps;
	for (int64_t u = us->u[cur].first; u >= 0; u = us->u[u].next)
		last = u;
	for (uint32_t i = 0; i < sim_dpor_split_items(sp); i++) {
		size_t need = sim_dpor_split_pack(sp, i, NULL, 0);
		char *bytes = malloc(need);
		int64_t u;

		if (!bytes)
			abort();
		sim_dpor_split_pack(sp, i, bytes, need);
		u = unit_add(us, bytes, need, cur);
		free(bytes);
		us->u[u].ctx = sim_dpor_split_item_ctx(sp, i);
		if (last >= 0)
			us->u[last].next = u;
		else
			us->u[cur].first = u;
		last = u;
	}
	sim_dpor_split_free(sp);
}

/*
 * Under mpirun with more than one rank (-Dmpi=enabled), this rank and
 * how many there are: rank 0 is the coordinator and runs items too,
 * ranks 1..N-1 run items.
 */
int split_mpi_rank, split_mpi_size = 1;

/*
 * MPI: how many of this node's ranks may run items at once (its cores),
 * when the node has more ranks than cores; 0: no limit (mpi_core_get).
 */
static int split_mpi_cores;

/* Pipes only: a whole buffer, or false (the other end is gone). */
static bool write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t k = write(fd, c, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		c += k;
		n -= (size_t)k;
	}
	return true;
}

static bool read_all(int fd, void *p, size_t n)
{
	char *c = p;

	while (n) {
		ssize_t k = read(fd, c, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		c += k;
		n -= (size_t)k;
	}
	return true;
}

static double split_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* This process's CPU seconds so far (the coordination's share). */
static double split_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Room for @need more bytes at the end of @b: where they go. */
static char *buf_room(struct buf *b, size_t need)
{
	if (b->len + need > b->cap) {
		b->cap = (b->len + need) * 2 + 256;
		b->data = realloc(b->data, b->cap);
		if (!b->data)
			abort();
	}
	return b->data + b->len;
}

/*
 * A donation as the 'D' message's payload: its items, its nodes, then
 * the worker's name of the first of the items it put in the shared queue
 * itself (--jobs; UINT64_MAX: none, the coordinator queues them).
 */
static void donation_put(struct buf *b, const struct sim_dpor_split *sp,
			 uint64_t first_seq)
{
	size_t need;

	buf_u64(b, sim_dpor_split_items(sp));
	for (uint32_t i = 0; i < sim_dpor_split_items(sp); i++) {
		need = sim_dpor_split_pack(sp, i, NULL, 0);
		buf_u64(b, need);
		sim_dpor_split_pack(sp, i, buf_room(b, need), need);
		b->len += need;
	}
	need = sim_dpor_split_pack_nodes(sp, NULL, 0);
	buf_u64(b, need);
	sim_dpor_split_pack_nodes(sp, buf_room(b, need), need);
	b->len += need;
	buf_u64(b, first_seq);
}

/*
 * ---- --jobs: the shared queue ----------------------------------------------
 *
 * One ring of records (a unit's name and its item's bytes) in memory the
 * parent maps shared before it forks the workers, under a process-shared
 * mutex, with a condition variable the takers wait on.  Both the parent
 * (the top's items, the ones it runs for forwarded races) and the
 * workers (the items they give away) put units in it, and a worker takes
 * the next one from it itself: a worker that gave work away wakes an
 * idle one directly, so no unit waits for the parent to be scheduled
 * (on a loaded machine it often is not) and a descheduled worker holds
 * only the unit it runs.  The parent still merges the results and runs
 * the forwarded races; it closes the ring at the end (or on a signal)
 * and the idle workers end.
 *
 * Beside the ring, each worker has a box (struct ring_box) for the item
 * it keeps of its own donation to run next: the owner takes it first when
 * its unit ends, and a worker that finds the ring empty takes another
 * worker's full box instead of waiting (it steals it), so an item kept by
 * a worker that is slow, descheduled or stopped (SIGSTOP) is not held
 * back: a worker holds only the unit it runs.  The boxes are under the
 * ring's lock.
 */
#define SPLIT_BOX_BYTES	(64u << 10)	/* a kept item's bytes, at most */

struct ring_box {
	uint32_t full;
	uint32_t unit;		/* its name: SPLIT_WQ, the owner, its count */
	uint64_t len;
	_Alignas(8) char data[SPLIT_BOX_BYTES];
};

struct ring {
	pthread_mutex_t lock;
	pthread_cond_t more;
	uint64_t head, tail;	/* byte offsets, never wrapped */
	uint64_t records;
	uint32_t waiting;	/* workers waiting in ring_take */
	uint32_t boxes, boxed;	/* workers' boxes; how many are full */
	bool closed;
	/* Records start at multiples of 8 from here (RING_ALIGN); the
	 * boxes follow the SPLIT_RING_BYTES of records. */
	_Alignas(8) char data[];
};

/* How a worker got its unit ('T': the message's executions). */
enum ring_from { RING_QUEUE, RING_OWN_BOX, RING_STOLEN };

struct ring_rec {
	uint32_t unit;
	uint32_t wrap;		/* 1: skip to the start of the ring */
	uint64_t len;
};

static size_t ring_bytes(uint32_t boxes)
{
	return sizeof(struct ring) + SPLIT_RING_BYTES +
	       (size_t)boxes * sizeof(struct ring_box);
}

/* Worker @k's box. */
static struct ring_box *ring_box(struct ring *r, uint32_t k)
{
	return (struct ring_box *)(r->data + SPLIT_RING_BYTES) + k;
}

/* The ring, with a box for each of @boxes workers. */
static struct ring *ring_new(uint32_t boxes)
{
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	struct ring *r = mmap(NULL, ring_bytes(boxes),
			      PROT_READ | PROT_WRITE, MAP_SHARED |
			      MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (r == MAP_FAILED) {
		fprintf(stderr, "wpsim: --jobs: mmap: %s\n", strerror(errno));
		exit(EXIT_USAGE);
	}
	r->boxes = boxes;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	/* A worker that dies holding it does not hang the others. */
	pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&r->lock, &ma);
	pthread_mutexattr_destroy(&ma);
	pthread_condattr_init(&ca);
	pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&r->more, &ca);
	pthread_condattr_destroy(&ca);
	return r;
}

static void ring_free(struct ring *r)
{
	munmap(r, ring_bytes(r->boxes));
}

#define RING_ALIGN(n)	(((n) + 7) & ~(uint64_t)7)

/* The ring's lock; its holder died: the parent sees the worker gone. */
static void ring_lock(struct ring *r)
{
	if (pthread_mutex_lock(&r->lock) == EOWNERDEAD)
		pthread_mutex_consistent(&r->lock);
}

/* Unit @unit's item (@len bytes at @item) into the ring; false: no room. */
static bool ring_put(struct ring *r, uint32_t unit, const void *item,
		     size_t len)
{
	uint64_t need = sizeof(struct ring_rec) + RING_ALIGN(len), pos, skip;
	struct ring_rec rec = { .unit = unit, .len = len };
	bool ok = false;

	ring_lock(r);
	pos = r->tail % SPLIT_RING_BYTES;
	skip = pos + need > SPLIT_RING_BYTES ? SPLIT_RING_BYTES - pos : 0;
	if (!r->closed &&
	    r->tail - r->head + skip + need <= SPLIT_RING_BYTES) {
		if (skip) {
			struct ring_rec w = { .wrap = 1 };

			if (skip >= sizeof(w))
				memcpy(r->data + pos, &w, sizeof(w));
			r->tail += skip;
			pos = 0;
		}
		memcpy(r->data + pos, &rec, sizeof(rec));
		if (len)
			memcpy(r->data + pos + sizeof(rec), item, len);
		r->tail += need;
		r->records++;
		pthread_cond_signal(&r->more);
		ok = true;
	}
	pthread_mutex_unlock(&r->lock);
	return ok;
}

/*
 * Worker @k keeps unit @unit (@len bytes at @item) in its box to run
 * next; false: the box is full, too small, or the ring closed.  No
 * waiting worker is woken: the worker keeps an item only when fewer
 * wait than its donation has items (fork_ahead), and the rest, put in
 * the ring after it, wake them; a worker that starts to wait later
 * sees the full box before it waits (both under the lock).
 */
static bool ring_box_put(struct ring *r, uint32_t k, uint32_t unit,
			 const void *item, size_t len)
{
	struct ring_box *bx = ring_box(r, k);
	bool ok = false;

	if (len > SPLIT_BOX_BYTES || k >= r->boxes)
		return false;
	ring_lock(r);
	if (!bx->full && !r->closed) {
		memcpy(bx->data, item, len);
		bx->unit = unit;
		bx->len = len;
		bx->full = 1;
		r->boxed++;
		ok = true;
	}
	pthread_mutex_unlock(&r->lock);
	return ok;
}

/* Is worker @k's box empty (only @k fills it: it stays so until then)? */
static bool ring_box_empty(struct ring *r, uint32_t k)
{
	bool empty;

	if (k >= r->boxes)
		return false;
	ring_lock(r);
	empty = !ring_box(r, k)->full;
	pthread_mutex_unlock(&r->lock);
	return empty;
}

/* Empty box @bx into a malloc'd copy (under the ring's lock). */
static char *ring_box_take(struct ring *r, struct ring_box *bx,
			   uint32_t *unit, size_t *len)
{
	char *item = malloc(bx->len + 1);

	if (!item)
		abort();
	memcpy(item, bx->data, bx->len);
	*unit = bx->unit;
	*len = bx->len;
	bx->full = 0;
	r->boxed--;
	return item;
}

/*
 * The next unit for worker @k (its name in @unit, its item's bytes,
 * malloc'd, @len long, where it came from in @from): its own box first,
 * else the ring, else another worker's box (the lowest slot's: taken
 * from a worker busy with another unit, or stopped); waiting while all
 * are empty.  NULL when the ring is closed and empty, or a signal came.
 */
static char *ring_take(struct ring *r, uint32_t k, uint32_t *unit,
		       size_t *len, enum ring_from *from)
{
	struct ring_rec rec;
	char *item = NULL;
	uint64_t pos;

	ring_lock(r);
	if (k < r->boxes && ring_box(r, k)->full) {
		item = ring_box_take(r, ring_box(r, k), unit, len);
		*from = RING_OWN_BOX;
		pthread_mutex_unlock(&r->lock);
		return item;
	}
	r->waiting++;
	while (!r->records && !r->boxed && !r->closed &&
	       !wpsim_stop_signal()) {
		struct timespec ts;

		/* A signal wakes no one here: look every 250 ms. */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += 250000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		if (pthread_cond_timedwait(&r->more, &r->lock, &ts) ==
		    EOWNERDEAD)
			pthread_mutex_consistent(&r->lock);
	}
	r->waiting--;
	if (r->records && !wpsim_stop_signal()) {
		pos = r->head % SPLIT_RING_BYTES;
		if (SPLIT_RING_BYTES - pos >= sizeof(rec))
			memcpy(&rec, r->data + pos, sizeof(rec));
		if (SPLIT_RING_BYTES - pos < sizeof(rec) || rec.wrap) {
			r->head += SPLIT_RING_BYTES - pos;
			pos = 0;
		}
		memcpy(&rec, r->data + pos, sizeof(rec));
		item = malloc(rec.len + 1);
		if (!item)
			abort();
		memcpy(item, r->data + pos + sizeof(rec), rec.len);
		r->head += sizeof(rec) + RING_ALIGN(rec.len);
		r->records--;
		*unit = rec.unit;
		*len = rec.len;
		*from = RING_QUEUE;
	} else if (r->boxed && !wpsim_stop_signal()) {
		for (uint32_t o = 0; o < r->boxes; o++)
			if (ring_box(r, o)->full) {
				item = ring_box_take(r, ring_box(r, o), unit,
						     len);
				*from = o == k ? RING_OWN_BOX : RING_STOLEN;
				break;
			}
	}
	pthread_mutex_unlock(&r->lock);
	return item;
}

/* No more units: the idle workers end. */
static void ring_close(struct ring *r)
{
	ring_lock(r);
	r->closed = true;
	pthread_cond_broadcast(&r->more);
	pthread_mutex_unlock(&r->lock);
}

/*
 * ---- the worker: one item at a time --------------------------------------
 *
 * A worker is a --jobs child, an MPI rank, or MPI rank 0 between its
 * duties as the coordinator.  Its messages ('D' and 'P' while it runs,
 * 'R' at the end) go through worker.send: over its pipe, over MPI, or
 * straight into the coordinator on rank 0, whose worker.serve then also
 * answers the other ranks between two executions.
 */
/* split_run's calls so far: the pair a worker's units belong to. */
static uint64_t split_pair_seq;

/*
 * A worker (or rank) builds DPOR's state once and runs unit after unit in
 * its blocks (sim_strategy_dpor_item_reuse), and the names a unit's setup
 * registers are formatted once per pair (sim_explore_options.same_program),
 * where each unit built and zeroed its state and formatted the names
 * anew.  WPSIM_SPLIT_REUSE=0 in the environment builds them per unit as
 * before (to measure the difference: bench/search-scale.py's -noreuse
 * rows); the search and the report are the same either way.
 */
static bool split_reuse(void)
{
	static int on = -1;

	if (on < 0) {
		const char *env = getenv("WPSIM_SPLIT_REUSE");

		on = !(env && strcmp(env, "0") == 0);
	}
	return on;
}

static struct {
	void (*send)(const struct split_msg *m, const void *payload);
	bool (*serve)(void);	/* rank 0: serve the others; true: stop */
	int fd;			/* --jobs: the pipe to the parent */
	uint32_t unit;
	bool progress;
	double last;
	struct sim_strategy *s;
	const struct sim_program *program;
	const struct sim_exec_options *exec;
	uint64_t runs;
	uint64_t given_pruned, given_steps;	/* of the donations' runs */
	/*
	 * An MPI rank other than 0 keeps the first item of a donation when
	 * it holds none (@kept): it runs it next, without waiting for rank
	 * 0.  Its messages about it name the unit SPLIT_SELF (rank 0 knows
	 * which unit that is).  Not when rank 0 has already sent it its next
	 * unit, or asked for one (@ahead says so): then the item goes to rank
	 * 0's queue, where rank 0 (or a rank without work) takes it, instead
	 * of waiting in a rank that has work for its next two units.  A
	 * --jobs worker keeps it likewise unless workers wait in the ring,
	 * in its box in the ring (ring_box_put), where a worker that has
	 * none takes it (@kept is MPI's).
	 */
	bool keep;
	bool (*ahead)(uint32_t items);
	struct buf kept;
	/*
	 * --jobs: the shared queue, where the worker puts the items it gives
	 * away itself (the one it keeps in its box), naming them by its slot
	 * and its count of them (SPLIT_WQ).
	 */
	struct ring *ring;
	uint32_t slot, seq;
	double serve_cpu;	/* MPI rank 0: serving inside its items */
	struct sim_dpor *spare;	/* the last unit's DPOR state, for the next */
	uint64_t names_seq;	/* the pair (split_pair_seq) of its last unit */
	/* Since the last 'R': wall s without a unit, how many times. */
	double wait_s;
	uint64_t waits;
	/* Its context switches at its start (voluntary, involuntary). */
	uint64_t csw0, icsw0;
	/* MPI, since the last 'R': wall s waiting for a core, how many
	 * times (mpi_core_get). */
	double core_s;
	uint64_t core_waits;
} worker;

/* This process's context switches so far: voluntary, involuntary. */
static void split_csw(uint64_t *csw, uint64_t *icsw)
{
	struct rusage ru;

	memset(&ru, 0, sizeof(ru));
	getrusage(RUSAGE_SELF, &ru);
	*csw = (uint64_t)ru.ru_nvcsw;
	*icsw = (uint64_t)ru.ru_nivcsw;
}

/* The worker starts: its context switches count from here. */
static void worker_csw_start(void)
{
	split_csw(&worker.csw0, &worker.icsw0);
}

/*
 * --jobs, at a donation of @items: whether to keep nothing of it,
 * because at least as many other workers wait for a unit (the shared
 * queue is empty): the whole donation goes to the queue, where they take
 * the items at once.  A kept item (in this worker's box) waits for
 * this worker's unit to end or for a worker that has none to take it.
 */
static bool fork_ahead(uint32_t items)
{
	return __atomic_load_n(&worker.ring->waiting, __ATOMIC_RELAXED) >=
	       items;
}

/*
 * --jobs: a message to the parent over the worker's pipe, in one write
 * while the pipe has room (1 MiB): a worker stopped (SIGSTOP) between
 * the head and the payload would leave the parent waiting for the rest
 * in read_all, merging nothing for the others meanwhile.
 */
static void pipe_send(const struct split_msg *m, const void *payload)
{
	struct iovec iov[2] = {
		{ .iov_base = (void *)m, .iov_len = sizeof(*m) },
		{ .iov_base = (void *)payload, .iov_len = m->len },
	};
	size_t left = sizeof(*m) + m->len;
	ssize_t w;

	while ((w = writev(worker.fd, iov, m->len ? 2 : 1)) < 0 &&
	       errno == EINTR)
		;
	if (w < 0)
		_exit(PAIR_ERROR);
	if ((size_t)w == left)
		return;
	/* A partial write (the pipe was full): the rest as before. */
	if ((size_t)w < sizeof(*m)) {
		if (!write_all(worker.fd, (const char *)m + w,
			       sizeof(*m) - (size_t)w) ||
		    (m->len && !write_all(worker.fd, payload, m->len)))
			_exit(PAIR_ERROR);
		return;
	}
	w -= (ssize_t)sizeof(*m);
	if (!write_all(worker.fd, (const char *)payload + w,
		       m->len - (size_t)w))
		_exit(PAIR_ERROR);
}

/* Every SPLIT_DONATE_EVERY runs, the untried top of the item goes. */
static void worker_donate(void)
{
	struct sim_dpor_split *sp = sim_dpor_donate(worker.s, worker.program,
						     worker.exec);
	struct split_msg m = { .type = 'D', .unit = worker.unit };
	struct buf b = { 0 };
	uint32_t levels;
	uint64_t pruned, steps;
	uint32_t n, kept = 0;
	uint64_t first_seq = UINT64_MAX;
	bool box = false;

	if (!sp)
		return;
	n = sim_dpor_split_items(sp);
	sim_dpor_split_stats(sp, &levels, &pruned, &steps);
	worker.given_pruned += pruned;
	worker.given_steps += steps;
	/*
	 * --jobs: every item goes in the shared queue, named by the worker;
	 * the first in its box when it may keep one (the box is empty: only
	 * this worker fills it), where another worker takes it if this one
	 * is still busy when it has none.
	 */
	if (worker.ring && n && worker.seq + n <= SPLIT_WQ_SEQ_MAX) {
		first_seq = worker.seq;
		worker.seq += n;
		box = worker.keep && !worker.ahead(n) &&
		      sim_dpor_split_pack(sp, 0, NULL, 0) <= SPLIT_BOX_BYTES &&
		      ring_box_empty(worker.ring, worker.slot);
	} else if (!worker.ring && worker.keep && !worker.kept.len && n &&
		   !(worker.ahead && worker.ahead(n))) {
		size_t need = sim_dpor_split_pack(sp, 0, NULL, 0);

		sim_dpor_split_pack(sp, 0, buf_room(&worker.kept, need), need);
		worker.kept.len = need;
		m.executions = 1;	/* 'D': "I keep the first" */
		kept = 1;
	}
	donation_put(&b, sp, first_seq);
	m.len = b.len;
	worker.send(&m, b.data);
	free(b.data);
	/*
	 * After the 'D' (the parent reads it before any message naming one
	 * of these units: it is ahead of them in this worker's pipe, and a
	 * taker's message about one sends the parent to read it first).
	 * Those the ring has no room for go back to the parent ('Q').
	 */
	if (first_seq != UINT64_MAX) {
		struct split_msg q = { .type = 'Q', .unit = worker.unit };
		struct buf back = { 0 }, item = { 0 };

		for (uint32_t i = kept; i < n; i++) {
			uint64_t seq = first_seq + i - kept;
			size_t need = sim_dpor_split_pack(sp, i, NULL, 0);

			uint32_t name = SPLIT_WQ | (worker.slot << 23) |
					(uint32_t)seq;

			item.len = 0;
			sim_dpor_split_pack(sp, i, buf_room(&item, need), need);
			if (i == 0 && box &&
			    ring_box_put(worker.ring, worker.slot, name,
					 item.data, need))
				continue;
			if (!ring_put(worker.ring, name, item.data, need))
				buf_u64(&back, seq);
		}
		free(item.data);
		if (back.len) {
			q.len = back.len;
			worker.send(&q, back.data);
		}
		free(back.data);
	}
	sim_dpor_split_free(sp);
}

/*
 * The worker's stop: a signal or Sometimes decided (by the item, or on
 * rank 0 by what the coordinator merged); donations, progress.
 */
static bool worker_stop(void *ctx)
{
	struct collect *c = ctx;

	if (check_stop_search(ctx))
		return true;
	if (++worker.runs % SPLIT_DONATE_EVERY == 0)
		worker_donate();
	if (worker.serve && worker.serve())
		return true;
	if (worker.progress && (worker.runs & 63) == 0 &&
	    split_now() - worker.last >= 0.25) {
		struct split_msg m = { .type = 'P', .unit = worker.unit };

		worker.last = split_now();
		m.executions = c->index;
		m.pruned = sim_dpor_pruned(worker.s) + worker.given_pruned;
		m.failing = c->failing;
		worker.send(&m, NULL);
	}
	return false;
}

/*
 * Run unit @unit (its item, @len bytes at @item) with @c collecting and
 * send its result: what it found, then the races it forwarded for the
 * coordinator's nodes.
 */
static void worker_item(struct collect *c,
			const struct sim_explore_options *eo, uint32_t unit,
			const void *item, size_t len)
{
	struct sim_explore_options o = *eo;
	struct sim_dpor_split *sp = sim_dpor_split_unpack(item, len);
	struct split_msg m = { .type = 'R', .unit = unit };
	struct sim_explore_result res;
	struct sim_strategy s;
	struct buf b = { 0 };
	double cpu0 = split_cpu(), serve0 = worker.serve_cpu;
	double wall0 = split_now();
	uint64_t res_runs;
	size_t need;

	/* A kept item starts: the coordinator counts this worker busy. */
	if (unit == SPLIT_SELF) {
		struct split_msg t = { .type = 'T', .unit = SPLIT_SELF };

		worker.send(&t, NULL);
	}
	o.stop = worker_stop;
	o.ctx = c;
	o.progress = NULL;
	/* The unit before it in this worker was of this pair: its setup's
	 * names are known (sim_exec_setup_names_again). */
	o.same_program = worker.names_seq == split_pair_seq && split_reuse();
	check_collect_reset(c);
	c->failing = 0;
	if (!sp || sim_strategy_dpor_item_reuse(&s, sp, 0, worker.spare) !=
		   0) {
		fprintf(stderr, "wpsim: --jobs: an item does not unpack\n");
		_exit(PAIR_ERROR);
	}
	c->strategy = &s;
	worker.unit = unit;
	worker.s = &s;
	worker.program = &c->x.program;
	worker.exec = &eo->exec;
	worker.last = split_now();
	worker.runs = 0;
	worker.given_pruned = worker.given_steps = 0;
	sim_explore(&c->x.program, &s, &o, &res);
	worker.names_seq = split_pair_seq;
	res_runs = res.executions + res.pruned;
	res.pruned += worker.given_pruned;
	res.steps += worker.given_steps;
	item_put(&b, c, &res);
	need = sim_dpor_requests_pack(&s, NULL, 0);
	buf_u64(&b, need);
	sim_dpor_requests_pack(&s, buf_room(&b, need), need);
	b.len += need;
	worker.s = NULL;
	sim_explore_result_fini(&res);
	/* Its DPOR state's blocks go to the next unit (no new zeroed
	 * blocks, no page faults: docs/performance.md, issue 34). */
	if (split_reuse())
		worker.spare = sim_dpor_keep(&s);
	sim_strategy_fini(&s);
	sim_dpor_split_free(sp);
	/* 'R': its runs and the CPU they took (--progress's last lines). */
	m.pruned = res_runs;
	m.failing = (uint64_t)((split_cpu() - cpu0 -
				(worker.serve_cpu - serve0)) * 1e9);
	m.item_ns = (uint64_t)((split_now() - wall0) * 1e9);
	m.wait_ns = (uint64_t)(worker.wait_s * 1e9);
	m.waits = worker.waits;
	split_csw(&m.csw, &m.icsw);
	m.csw -= worker.csw0;
	m.icsw -= worker.icsw0;
	m.core_ns = (uint64_t)(worker.core_s * 1e9);
	m.core_waits = worker.core_waits;
	worker.core_s = 0;
	worker.core_waits = 0;
	worker.wait_s = 0;
	worker.waits = 0;
	m.len = b.len;
	worker.send(&m, b.data);
	free(b.data);
}

/*
 * A --jobs worker (slot @slot): the item it kept of its own donation
 * (its box) first, else the next unit of the shared queue, else another
 * worker's kept item (ring_take, waiting while all are empty); tell the
 * parent which ('T', and where it came from), run it; until the queue
 * is closed and empty, or a signal came.  The items it gives away go in
 * the queue from here (worker_donate), so a worker that finishes finds
 * them there without the parent, and no worker waits for one that is
 * busy, descheduled or stopped to take what it kept.
 */
static void worker_fork(struct collect *c,
			const struct sim_explore_options *eo, uint32_t slot,
			int out)
{
	split_long_slice();
	worker_csw_start();
	worker.send = pipe_send;
	worker.fd = out;
	worker.keep = true;
	worker.ahead = fork_ahead;
	worker.slot = slot;
	while (!wpsim_stop_signal()) {
		struct split_msg m = { .type = 'T' };
		enum ring_from from = RING_QUEUE;
		uint32_t unit;
		size_t len;
		char *item;
		double t;

		t = split_now();
		item = ring_take(worker.ring, slot, &unit, &len, &from);
		if (!item)
			break;
		t = split_now() - t;
		worker.wait_s += t;
		worker.waits += t > SPLIT_WAIT_MIN;
		m.unit = unit;
		m.executions = from;
		pipe_send(&m, NULL);
		worker_item(c, eo, unit, item, len);
		free(item);
	}
	_exit(0);
}

/*
 * ---- the coordinator -------------------------------------------------------
 *
 * It keeps the units (the queue of those not handed out yet), owns the
 * nodes donations hand over (@tops), and merges the results in merge
 * order into @m, which split_run moves into the pair's collect at the
 * end.  A slot is a worker: a --jobs child, or an MPI rank (rank 0's
 * own slot included).
 */
struct slot {
	pid_t pid;
	int from;		/* --jobs: its pipe to the parent */
	int64_t unit;		/* running, or -1 */
	uint32_t ahead;		/* MPI: units sent it, not done yet */
	int64_t kept, self;	/* MPI: the unit it keeps, runs kept */
	/*
	 * MPI: asked for a unit it holds and has not started ('H'), not
	 * answered yet ('G'); answered that it has none (not asked again
	 * until its next donation or result); units it gave back.
	 */
	uint32_t asked;
	bool none;
	uint64_t given_back;
	bool gone;
	uint64_t executions, pruned, failing;	/* of that unit so far */
	/* What it ran: units, runs, their CPU seconds ('R'). */
	uint64_t units_run, runs;
	double items_cpu;
	/*
	 * Where its wall time went (--progress's last lines): without a unit
	 * (as it measured: 'R'; the time after its last 'R' the coordinator
	 * adds at the end), how many waits; messages it sent; units it ran
	 * that it kept of its own donations.
	 */
	double wait_s, last_r, items_s;
	uint64_t waits, msgs, kept_run;
	uint64_t stolen;	/* --jobs: units it took from another's box */
	uint64_t csw, icsw;	/* its context switches (the last 'R') */
	double core_s;		/* MPI: waited for a core of its node */
	uint64_t core_waits;
	/* --jobs: the units it put in the queue, by its count of them. */
	int64_t *queued;
	size_t nqueued, queued_cap;
};

struct coord {
	struct units us;
	struct sim_dpor_tops *tops;
	struct collect m;
	struct collect *c;		/* the pair's: its program */
	const struct sim_explore_options *eo;
	struct sim_explore_result *r;
	struct slot *slots;
	uint32_t jobs;
	int64_t cur;			/* the next to merge; -1: all merged */
	size_t done;
	bool stop;			/* Sometimes decided by the merged */
	bool dead;			/* a worker died or sent nonsense */
	uint64_t fin_exec, fin_pruned, fin_failing, top_pruned;
	/* Progress: the aggregate line, the workers' idle time. */
	bool show, tty, printed;
	double every, started, last_print, idle_at, idle_s;
	uint32_t busy_before;
	/*
	 * The coordination's CPU seconds (--progress prints them at the
	 * end): the parent's whole CPU with --jobs (it runs no item), rank
	 * 0's outside its own items plus its serving inside them with MPI.
	 */
	double cpu_at, coord_cpu;
	bool lines;			/* --progress SECONDS given */
	size_t units_raced;		/* run for forwarded races */
};

/* Slot @s keeps unit @u (out of the queue, where the donation put it). */
static void slot_keep(struct coord *co, struct slot *s, int64_t u)
{
	struct units *us = &co->us;

	for (size_t i = us->qtail; i-- > us->qhead;) {
		if (us->queue[i] != u)
			continue;
		memmove(&us->queue[i], &us->queue[i + 1],
			(us->qtail - i - 1) * sizeof(*us->queue));
		us->qtail--;
		us->u[u].queued = false;
		s->kept = u;
		return;
	}
	co->dead = true;	/* not in the queue: nonsense */
}

/*
 * Slot @s put units @from.. (the end of its donation just read, the end
 * of the queue too) in the shared queue itself, naming them @first_seq..:
 * they leave the parent's queue.
 */
static void slot_queued(struct coord *co, struct slot *s, size_t from,
			uint64_t first_seq)
{
	struct units *us = &co->us;
	size_t n = us->count - from;

	if (first_seq != s->nqueued || us->qtail - us->qhead < n) {
		co->dead = true;	/* nonsense */
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (us->queue[us->qtail - n + i] != (int64_t)(from + i)) {
			co->dead = true;
			return;
		}
		if (s->nqueued == s->queued_cap) {
			s->queued_cap = s->queued_cap ? 2 * s->queued_cap : 64;
			s->queued = realloc(s->queued, s->queued_cap *
					    sizeof(*s->queued));
			if (!s->queued)
				abort();
		}
		s->queued[s->nqueued++] = (int64_t)(from + i);
		us->u[from + i].queued = false;
	}
	us->qtail -= n;
}

/* Merge the units that are in, in merge order. */
static void coord_merge(struct coord *co)
{
	struct units *us = &co->us;

	while (!co->stop && co->cur >= 0 && us->u[co->cur].got) {
		struct unit *u = &us->u[co->cur];

		item_merge(&u->result, &co->m, co->r);
		{
			size_t before = us->count;

			units_requested(us, co->tops, co->c, co->eo, co->cur,
					&u->result, co->r);
			co->units_raced += us->count - before;
		}
		u = &us->u[co->cur];	/* units_requested may move them */
		free(u->result.data);
		u->result.data = NULL;
		u->got = false;
		co->cur = unit_next(us, co->cur);
		if (check_decided(&co->m))
			co->stop = true;
	}
}

/*
 * A message @m from slot @k with its payload @b (owned by the
 * coordinator from now on).
 */
static void coord_message(struct coord *co, uint32_t k,
			  const struct split_msg *m, struct buf *b)
{
	struct slot *s = &co->slots[k];
	struct units *us = &co->us;
	struct split_msg sm;
	bool self = m->unit == SPLIT_SELF;

	s->msgs++;
#ifdef WPSIM_MPI
	/*
	 * 'G', its answer to rank 0's 'H': a unit it had not started (the
	 * one it kept: SPLIT_SELF; SPLIT_QUIT: none), back in the queue
	 * first.  Who runs a unit does not change the report.
	 */
	if (m->type == 'G') {
		int64_t u = -1;

		free(b->data);
		if (!s->asked) {
			co->dead = true;
			return;
		}
		s->asked--;
		if (m->unit == SPLIT_QUIT) {
			s->none = true;
			return;
		}
		if (m->unit == SPLIT_SELF && s->kept >= 0) {
			u = s->kept;
			s->kept = -1;
		} else if (m->unit != SPLIT_SELF && m->unit < us->count &&
			   s->ahead > 0) {
			u = m->unit;
			s->ahead--;
			if (s->unit == u)
				s->unit = -1;
		}
		if (u < 0 || us->u[u].got) {
			co->dead = true;
			return;
		}
		s->given_back++;
		unit_queue_front(us, u);
		return;
	}
#endif
	if (m->type == 'D' || m->type == 'R')
		s->none = false;
	/* The first message about the item it kept: it runs it now. */
	if (m->unit == SPLIT_SELF && s->self < 0) {
		s->self = s->kept;
		s->kept = -1;
	}
	if (m->unit == SPLIT_SELF && s->self >= 0) {
		sm = *m;
		sm.unit = (uint32_t)s->self;
		if (m->type == 'R')
			s->self = -1;
		m = &sm;
	}
	if (m->unit >= us->count || (m->type != 'T' && m->type != 'P' &&
				     m->type != 'D' && m->type != 'R')) {
		co->dead = true;
		free(b->data);
		return;
	}
	if (m->type == 'T' || m->type == 'P') {
		s->unit = m->unit;
		s->executions = m->type == 'P' ? m->executions : 0;
		s->pruned = m->type == 'P' ? m->pruned : 0;
		s->failing = m->type == 'P' ? m->failing : 0;
		free(b->data);
		return;
	}
	if (m->type == 'D') {
		size_t first = us->count;
		uint64_t first_seq;

		units_donated(us, co->tops, m->unit, b);
		first_seq = get_u64(b);
		free(b->data);
		if (m->executions && s->kept < 0 && us->count > first)
			slot_keep(co, s, (int64_t)first);
		else if (m->executions)
			co->dead = true;
		if (first_seq != UINT64_MAX)
			slot_queued(co, s, first + (m->executions ? 1 : 0),
				    first_seq);
		return;
	}
	if (b->len < 3 * sizeof(uint64_t) || us->u[m->unit].got) {
		co->dead = true;
		free(b->data);
		return;
	}
	us->u[m->unit].result = *b;
	us->u[m->unit].got = true;
	co->done++;
	s->units_run++;
	s->kept_run += self;
	s->runs += m->pruned;
	s->items_cpu += (double)m->failing / 1e9;
	s->wait_s += (double)m->wait_ns / 1e9;
	s->items_s += (double)m->item_ns / 1e9;
	s->waits += m->waits;
	s->csw = m->csw;
	s->icsw = m->icsw;
	s->core_s += (double)m->core_ns / 1e9;
	s->core_waits += m->core_waits;
	s->last_r = split_now();
	{
		uint64_t head[3];

		memcpy(head, b->data, sizeof(head));
		co->fin_exec += head[0];
		co->fin_pruned += head[1];
		co->fin_failing += head[2];
	}
	s->unit = -1;
	if (s->ahead && !self)
		s->ahead--;
	s->executions = s->pruned = s->failing = 0;
	coord_merge(co);
}

#ifdef WPSIM_MPI
/*
 * MPI: which queued unit goes next.  To a rank that starts it at once
 * (rank 0's own, a rank with none), the queued unit that comes first in
 * merge order (looking at most SPLIT_MERGE_LOOK units past the next one
 * to merge; else the first in); a unit sent ahead, and every unit with
 * WPSIM_MPI_ORDER=fifo in the ranks' environment (bench/search-scale.py's
 * -fifo rows), the first in.  The merge
 * reaches a unit's forwarded races only when every unit before it is in,
 * and makes the units for them then, so a unit that waits in the queue
 * behind later ones holds those back.  Who runs a unit, and when, does
 * not change the report.
 */
#define SPLIT_MERGE_LOOK	256

static bool split_merge_order;	/* split_mpi_start reads it */

/*
 * The next unit to hand out, or -1; @now: to a rank that starts it now
 * (in merge order when asked), not one sent ahead to wait behind the
 * unit a rank runs (first in, first out).
 */
static int64_t coord_take(struct coord *co, bool now)
{
	struct units *us = &co->us;
	int64_t u;

	if (co->stop || wpsim_stop_signal() || us->qhead == us->qtail)
		return -1;
	u = co->cur;
	for (int i = 0; split_merge_order && now && u >= 0 &&
	     i < SPLIT_MERGE_LOOK;
	     i++, u = unit_next(us, u)) {
		if (!us->u[u].queued)
			continue;
		for (size_t q = us->qhead; q < us->qtail; q++) {
			if (us->queue[q] != u)
				continue;
			memmove(&us->queue[us->qhead + 1],
				&us->queue[us->qhead],
				(q - us->qhead) * sizeof(*us->queue));
			us->queue[us->qhead] = u;
			break;
		}
		break;
	}
	u = us->queue[us->qhead++];
	us->u[u].queued = false;
	return u;
}
#endif

/* The workers' idle time: @busy of them have had a unit since the last call. */
static void coord_busy(struct coord *co, uint32_t busy)
{
	double now = split_now();

	co->idle_s += (now - co->idle_at) * (co->jobs - co->busy_before);
	co->idle_at = now;
	co->busy_before = busy;
}

/* The aggregate progress line, every co->every seconds. */
static void coord_progress(struct coord *co)
{
	uint64_t e = co->fin_exec, p = co->fin_pruned, f = co->fin_failing;
	double now = split_now(), elapsed = now - co->started;

	if (!co->show || now - co->last_print < co->every)
		return;
	for (uint32_t k = 0; k < co->jobs; k++) {
		e += co->slots[k].executions;
		p += co->slots[k].pruned;
		f += co->slots[k].failing;
	}
	p += co->top_pruned;
	co->last_print = now;
	fprintf(stderr, "%s%s: %" PRIu64 " executions (+%" PRIu64
		" redundant), %" PRIu64 " failing, %.0f/s, %.0f s, %zu of %zu "
		"items done, workers idle %.0f%%%s", co->tty ? "\r  " : "",
		co->eo->progress_label, e, p, f, elapsed > 0 ?
		(double)(e + p) / elapsed : 0, elapsed, co->done,
		co->us.count, co->idle_s > 0 && elapsed > 0 ?
		100 * co->idle_s / (co->jobs * elapsed) : 0,
		co->tty ? "   " : "\n");
	fflush(stderr);
	co->printed = true;
}

/*
 * Split the pair's search into its items (the top), the first units;
 * progress as the options ask.
 */
static void coord_init(struct coord *co, const struct sim_explore_options *eo,
		       struct collect *c, const struct wpsim_opts *opts,
		       struct sim_explore_result *r, struct split_info *info,
		       uint32_t jobs)
{
	struct sim_dpor_split *sp;
	uint64_t top_steps;
	uint32_t n;

	memset(co, 0, sizeof(*co));
	co->c = c;
	co->eo = eo;
	co->r = r;
	co->jobs = jobs;
	co->tops = sim_dpor_tops_new();
	co->m.stop_when_decided = c->stop_when_decided;
	co->tty = !opts->quiet && isatty(STDERR_FILENO);
	co->show = !opts->quiet && (opts->progress_seconds > 0 || co->tty);
	co->every = opts->progress_seconds > 0 ? opts->progress_seconds : 0.5;
	if (opts->progress_seconds > 0)
		co->tty = false;
	co->started = co->last_print = co->idle_at = split_now();
	co->cpu_at = split_cpu();
	co->lines = !opts->quiet && opts->progress_seconds > 0;
	co->busy_before = jobs;	/* the start counts as busy */
	co->slots = calloc(jobs, sizeof(*co->slots));
	if (!co->slots)
		abort();
	for (uint32_t k = 0; k < jobs; k++)
		co->slots[k].unit = co->slots[k].kept = co->slots[k].self = -1;
	sp = sim_dpor_split(&c->x.program, &eo->exec, SPLIT_ITEMS_MIN,
			    SPLIT_LEVELS_MAX);
	n = sim_dpor_split_items(sp);
	memset(r, 0, sizeof(*r));
	r->complete = true;
	r->determinism_ok = true;
	sim_dpor_split_stats(sp, &info->levels, &info->top_pruned, &top_steps);
	info->items = n;
	co->top_pruned = info->top_pruned;
	r->pruned = info->top_pruned;
	r->steps = top_steps;
	for (uint32_t i = 0; i < n; i++) {
		size_t need = sim_dpor_split_pack(sp, i, NULL, 0);
		char *bytes = malloc(need);

		if (!bytes)
			abort();
		sim_dpor_split_pack(sp, i, bytes, need);
		unit_add(&co->us, bytes, need, -1);
		if (i > 0)
			co->us.u[i - 1].next = i;
		free(bytes);
	}
	sim_dpor_split_free(sp);
	co->cur = n ? 0 : -1;
}

/* MPI, a rank other than 0: the units it gave back when rank 0 asked. */
/* --jobs: ", N taken from another worker's box" (stolen). */
static const char *stolen(const struct slot *s)
{
	static char text[64];

	if (split_mpi_size > 1)
		return "";
	snprintf(text, sizeof(text), ", %" PRIu64 " taken from another "
		 "worker's box", s->stolen);
	return text;
}

static const char *given_back(const struct slot *s)
{
	static char text[64];

	snprintf(text, sizeof(text), "; %" PRIu64 " units given back",
		 s->given_back);
	return text;
}

/* MPI with a node's cores shared out: how long it waited for one. */
static const char *core_waited(const struct slot *s)
{
	static char text[96];

	if (split_mpi_size < 2 || !split_mpi_cores)
		return "";
	snprintf(text, sizeof(text), "; waited %.2f s for a core in %"
		 PRIu64 " waits", s->core_s, s->core_waits);
	return text;
}

/*
 * The end: stopped by a signal, what the units that ran found, in
 * order; the merged result moves into the pair's collect @c.
 */
static void coord_end(struct coord *co, struct split_info *info)
{
	struct collect *c = co->c, *m = &co->m;
	struct sim_explore_result *r = co->r;

	if (co->tty && co->printed)
		fputc('\n', stderr);
	if (co->lines) {
		/* Per worker: what it ran, and how fast (runs per CPU s of
		 * its items: the same for every worker when nothing but the
		 * search takes their CPU). */
		double now = split_now(), wall = now - co->started;

		/* And where its wall time went: in its items (busy),
		 * waiting for a unit, the rest (the top before its first
		 * unit, after its last one; rank 0's coordinating). */
		for (uint32_t k = 0; k < co->jobs; k++) {
			const struct slot *s = &co->slots[k];

			fprintf(stderr, "%s: %s %u: %" PRIu64 " units, %" PRIu64
				" runs, %.2f CPU s in them (%.0f runs per CPU s)"
				";"
				" %" PRIu64 " of the units its own%s; busy %.2f s"
				" of %.2f s wall (%.0f%%), waited %.2f s in %"
				PRIu64 " waits, %.2f s after its last unit; %"
				PRIu64 " messages%s; %" PRIu64 " context "
				"switches (%" PRIu64 " involuntary)%s\n",
				co->eo->progress_label,
				split_mpi_size > 1 ? "rank" : "worker", k,
				s->units_run, s->runs, s->items_cpu,
				s->items_cpu > 0 ?
				(double)s->runs / s->items_cpu : 0,
				s->kept_run, stolen(s), s->items_s, wall,
				wall > 0 ?
				100 * s->items_s / wall : 0, s->wait_s,
				s->waits, s->last_r > 0 ? now - s->last_r : 0,
				s->msgs, k && split_mpi_size > 1 ?
				given_back(s) : "", s->csw + s->icsw, s->icsw,
				core_waited(s));
		}
		fprintf(stderr, "%s: coordination %.2f CPU s (%s) of %.2f s "
			"wall, %zu units (%zu run for forwarded races, made "
			"as the merge reached them)\n", co->eo->progress_label,
			co->coord_cpu, split_mpi_size > 1 ? "rank 0, "
			"outside its own items' executions" : "the parent",
			split_now() - co->started, co->us.count,
			co->units_raced);
	}
	if (co->cur >= 0)
		r->complete = false;
	for (; co->cur >= 0 && !co->stop;
	     co->cur = unit_next(&co->us, co->cur))
		if (co->us.u[co->cur].got)
			item_merge(&co->us.u[co->cur].result, m, r);
	if (!r->determinism_checked)
		r->determinism_ok = false;
	info->units = co->us.count;
	check_collect_reset(c);
	c->positive = m->positive;
	c->negative = m->negative;
	c->states = m->states;
	c->states_count = m->states_count;
	c->states_other = m->states_other;
	c->witness = m->witness;
	c->unexpected = m->unexpected;
	c->unexpected_count = m->unexpected_count;
	memcpy(c->by_atom, m->by_atom, sizeof(c->by_atom));
	c->eval_failed = m->eval_failed;
	memcpy(c->eval_message, m->eval_message, sizeof(c->eval_message));
	c->index = m->index;
	for (size_t i = 0; i < co->us.count; i++) {
		free(co->us.u[i].item.data);
		free(co->us.u[i].result.data);
	}
	sim_dpor_tops_free(co->tops);
	for (uint32_t k = 0; k < co->jobs; k++)
		free(co->slots[k].queued);
	free(co->us.u);
	free(co->us.queue);
	free(co->slots);
}

/*
 * ---- --jobs: worker processes that share one queue ----------------------
 *
 * The parent maps the queue (the ring above), forks the workers, puts
 * the top's items in the queue and sleeps in poll() until a worker
 * writes: it merges the results, and puts in the queue the units it
 * runs for forwarded races and any the workers had no room for ('Q').
 * The workers take their units from the queue and put there what they
 * give away themselves.
 */

/* Put the parent's queued units in the ring while it has room. */
static void ring_fill(struct coord *co, struct ring *r)
{
	struct units *us = &co->us;

	while (!co->stop && !wpsim_stop_signal() && us->qhead < us->qtail) {
		int64_t u = us->queue[us->qhead];

		if (!ring_put(r, (uint32_t)u, us->u[u].item.data,
			      us->u[u].item.len))
			return;
		us->u[u].queued = false;
		us->qhead++;
	}
}

/*
 * Fork the workers: each inherits the loaded scenario and the ring, and
 * writes its messages into a pipe of its own.
 */
static void fork_workers(struct coord *co, struct ring *r)
{
	sigset_t stops, old;

	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	fflush(NULL);
	worker.ring = r;
	for (uint32_t k = 0; k < co->jobs; k++) {
		struct slot *s = &co->slots[k];
		int from[2];

		if (pipe(from) != 0) {
			fprintf(stderr, "wpsim: --jobs: pipe: %s\n",
				strerror(errno));
			exit(EXIT_USAGE);
		}
		/* Room: a worker does not wait for the parent to read. */
		(void)fcntl(from[1], F_SETPIPE_SZ, 1 << 20);
		/* A signal waits until the worker is on the list. */
		sigprocmask(SIG_BLOCK, &stops, &old);
		s->pid = fork();
		if (s->pid < 0) {
			fprintf(stderr, "wpsim: --jobs: fork: %s\n",
				strerror(errno));
			exit(EXIT_USAGE);
		}
		if (s->pid == 0) {
			wpsim_stop_in_child = true;
			for (uint32_t i = 0; i < k; i++)
				close(co->slots[i].from);
			close(from[0]);
			sigprocmask(SIG_SETMASK, &old, NULL);
			worker_fork(co->c, co->eo, k, from[1]);
		}
		wpsim_stop_child_add(s->pid);
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(from[1]);
		s->from = from[0];
	}
	worker.ring = NULL;
}

static bool fork_read(struct coord *co, uint32_t k);

/*
 * The unit a worker's message names (@unit): one a worker put in the
 * queue itself is known once that worker's donation is read, which is
 * ahead of it in that worker's pipe (read up to it).  False: nonsense,
 * or that worker is gone.
 */
static bool fork_unit(struct coord *co, uint32_t *unit)
{
	struct slot *a;
	uint32_t k, seq;

	if (*unit == SPLIT_SELF || !(*unit & SPLIT_WQ))
		return true;
	k = (*unit >> 23) & 0xff;
	seq = *unit & 0x7fffff;
	if (k >= co->jobs)
		return false;
	a = &co->slots[k];
	while (seq >= a->nqueued) {
		if (a->gone || co->dead || !fork_read(co, k)) {
			a->gone = true;
			return false;
		}
	}
	*unit = (uint32_t)a->queued[seq];
	return true;
}

/* Read one message of slot @k; false when its pipe ended. */
static bool fork_read(struct coord *co, uint32_t k)
{
	struct slot *s = &co->slots[k];
	struct split_msg m;
	struct buf b = { 0 };

	if (!read_all(s->from, &m, sizeof(m)))
		return false;
	if (m.len > SIZE_MAX / 2 || !(b.data = malloc(m.len + 1)) ||
	    !read_all(s->from, b.data, m.len)) {
		free(b.data);
		return false;
	}
	b.len = b.cap = m.len;
	s->msgs += m.type == 'Q';
	if (m.type == 'Q') {
		/* Units of its donation the ring had no room for. */
		while (b.pos + sizeof(uint64_t) <= b.len) {
			uint64_t seq = get_u64(&b);

			if (seq >= s->nqueued) {
				co->dead = true;
				break;
			}
			unit_queue(&co->us, s->queued[seq]);
		}
		free(b.data);
		return true;
	}
	if (!fork_unit(co, &m.unit)) {
		co->dead = true;
		free(b.data);
		return true;
	}
	/* Where a worker took its unit: its own box, another's. */
	if (m.type == 'T') {
		s->kept_run += m.executions == RING_OWN_BOX;
		s->stolen += m.executions == RING_STOLEN;
	}
	coord_message(co, k, &m, &b);
	return true;
}

/* The parent of --jobs: fill the queue, read the workers, merge. */
static void split_fork(struct coord *co)
{
	struct ring *r = ring_new(co->jobs);

	ring_fill(co, r);
	fork_workers(co, r);
	for (;;) {
		struct pollfd pfd[STOP_CHILDREN_MAX];
		uint32_t map[STOP_CHILDREN_MAX], n = 0, busy = 0;

		ring_fill(co, r);
		if (co->cur < 0 || co->stop || co->dead)
			break;
		if (wpsim_stop_signal())
			ring_close(r);	/* idle workers end */
		for (uint32_t k = 0; k < co->jobs; k++) {
			if (co->slots[k].gone)
				continue;
			busy += co->slots[k].unit >= 0;
			pfd[n].fd = co->slots[k].from;
			pfd[n].events = POLLIN;
			map[n++] = k;
		}
		if (!n)
			break;
		coord_busy(co, busy);
		if (poll(pfd, n, 250) < 0 && errno != EINTR) {
			fprintf(stderr, "wpsim: --jobs: poll: %s\n",
				strerror(errno));
			exit(EXIT_USAGE);
		}
		for (uint32_t x = 0; x < n; x++) {
			struct slot *s = &co->slots[map[x]];
			struct pollfd one = { .fd = s->from, .events = POLLIN };

			if (s->gone ||
			    !(pfd[x].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			/* A message read ahead for a named unit may have
			 * emptied the pipe since the poll. */
			if (poll(&one, 1, 0) <= 0)
				continue;
			if (fork_read(co, map[x]))
				continue;
			s->gone = true;
			/* Only the queue's end or a signal ends a worker. */
			if (!wpsim_stop_signal())
				co->dead = true;
		}
		coord_progress(co);
	}
	ring_close(r);
	for (uint32_t k = 0; k < co->jobs; k++) {
		struct slot *s = &co->slots[k];
		int wstatus;

		/* Decided, or a worker died: the others' units can go. */
		if ((co->stop || co->dead) && !s->gone)
			kill(s->pid, SIGKILL);
		close(s->from);
		while (waitpid(s->pid, &wstatus, 0) < 0 && errno == EINTR)
			;
		wpsim_stop_child_remove(s->pid);
		if (!co->stop && (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus)))
			co->dead = true;
	}
	ring_free(r);
}

#ifdef WPSIM_MPI
/*
 * ---- MPI: every rank runs items, rank 0 also coordinates -------------------
 *
 * A message is one MPI message (the split_msg, then its payload).
 * Nothing waits by spinning: Open MPI's blocking calls poll the network
 * at full speed, so every wait here is a test and a nap that grows by a
 * quarter from 20 µs to 1 ms (an item runs for many milliseconds: the
 * naps cost nothing measurable, and a rank that waits leaves its core to
 * the others).  No rank waits for a send to complete (a unit sent ahead
 * to a rank that is busy is not received until it is done; rank 0 may be
 * descheduled on a loaded machine).  Rank 0 answers the other ranks
 * between two executions of its own item (worker.serve: at once when a
 * message is in, a probe every 4 executions), and sends each rank a
 * unit ahead of the one it runs while the queue holds more than one per
 * rank, so a rank that finishes starts the next at once, without
 * waiting for rank 0 to be scheduled; a rank that gives work away keeps
 * the first item of the donation when it holds none and has no unit of
 * rank 0's waiting (worker.keep).  A rank holds at most two units (the
 * one it runs and one): more would leave rank 0 without work.  When the
 * queue is empty and a rank has no unit, rank 0 asks the others for one
 * they have not started ('H', mpi_ask_back): a rank reads rank 0's
 * messages every 4 executions of its item and gives one back ('G').
 */
#define SPLIT_TAG	0x5750
#define MPI_NAP_MAX	1000000L	/* ns */

static struct coord *mpi_co;
static double mpi_serve_cpu;	/* rank 0's serving inside its own items */
static bool mpi_idle0;		/* rank 0 has no unit and the queue none */

struct mpi_pending {
	MPI_Request rq;
	char *data;
};

static struct mpi_pending *mpi_sends;
static size_t mpi_sends_count, mpi_sends_cap;
static uint64_t mpi_posted;	/* messages this rank sent */

/*
 * A nap that grows by a quarter each time, from 20 µs to 1 ms: a rank
 * waiting for a unit looks again within a quarter of the time it has
 * waited (doubling let a 300 µs wait become 600).
 */
static void mpi_nap(long *ns)
{
	struct timespec ts = { 0, *ns };

	nanosleep(&ts, NULL);
	*ns = *ns + *ns / 4 > MPI_NAP_MAX ? MPI_NAP_MAX : *ns + *ns / 4;
}

/*
 * A node's cores, shared out between its ranks.  Where a node runs more
 * ranks than it has cores (mpirun --oversubscribe: -np 4 on 2 cores),
 * at most as many of them as it has cores run items at once: a rank
 * takes one of the node's cores (a token of a POSIX semaphore the node's
 * ranks share) before it starts a unit, keeps it while it has units, and
 * gives it back when it has none and waits for one (or at the end).  So
 * a rank that waits for rank 0 does not leave a core idle: a rank that
 * holds a unit takes it at once (sem_post wakes it), where the kernel
 * would have shared two cores between four CPU-bound ranks, each switch
 * leaving the next rank caches the other filled and rank 0 descheduled
 * for another rank's time slice while the others wait for its answer.
 * A rank that waits for a core still reads its messages (rank 0 serves,
 * the others answer rank 0's questions, giving back the unit they wait
 * with) every 5 ms.  Which rank runs a unit does not
 * change the report.  WPSIM_MPI_CORES=N in the ranks' environment sets
 * the node's cores (0: no limit, every rank runs as the kernel
 * schedules it: bench/search-scale.py's -nocores rows); by default the
 * CPUs the node's ranks may run on (the union of their affinity masks),
 * and no limit where the node has no more ranks than that.
 */
#define MPI_CORE_WAIT_NS	5000000L	/* read messages meanwhile */

static sem_t *mpi_cores;	/* NULL: no limit on this node */
static bool mpi_core_held;
static bool mpi_core_waiting;	/* the last mpi_core_get got none */

/* This rank has no unit to run: its core goes to one that has. */
static void mpi_core_release(void)
{
	if (!mpi_cores || !mpi_core_held)
		return;
	mpi_core_held = false;
	sem_post(mpi_cores);
}

/* A core of the node for this rank, waiting at most @ns; false: none. */
static bool mpi_core_get(long ns)
{
	struct timespec ts;
	double t;
	int rc;

	if (!mpi_cores || mpi_core_held)
		return true;
	if (sem_trywait(mpi_cores) == 0) {
		mpi_core_waiting = false;
		return mpi_core_held = true;
	}
	t = split_now();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_nsec += ns;
	while (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	rc = sem_clockwait(mpi_cores, CLOCK_MONOTONIC, &ts);
	worker.core_s += split_now() - t;
	worker.core_waits += !mpi_core_waiting;	/* a wait, not a call */
	mpi_core_held = rc == 0;
	mpi_core_waiting = !mpi_core_held;
	return mpi_core_held;
}

/* The sends that completed give their memory back. */
static void mpi_sends_test(void)
{
	size_t j = 0;

	for (size_t i = 0; i < mpi_sends_count; i++) {
		int flag = 0;

		MPI_Test(&mpi_sends[i].rq, &flag, MPI_STATUS_IGNORE);
		if (flag)
			free(mpi_sends[i].data);
		else
			mpi_sends[j++] = mpi_sends[i];
	}
	mpi_sends_count = j;
}

/* Message @m with @payload to rank @to, without waiting. */
static void mpi_post(int to, const struct split_msg *m, const void *payload)
{
	char *data = malloc(sizeof(*m) + m->len + 1);

	if (!data)
		abort();
	memcpy(data, m, sizeof(*m));
	if (m->len)
		memcpy(data + sizeof(*m), payload, m->len);
	if (mpi_sends_count == mpi_sends_cap) {
		mpi_sends_cap = mpi_sends_cap ? 2 * mpi_sends_cap : 16;
		mpi_sends = realloc(mpi_sends,
				    mpi_sends_cap * sizeof(*mpi_sends));
		if (!mpi_sends)
			abort();
	}
	mpi_posted++;
	MPI_Isend(data, (int)(sizeof(*m) + m->len), MPI_BYTE, to, SPLIT_TAG,
		  MPI_COMM_WORLD, &mpi_sends[mpi_sends_count].rq);
	mpi_sends[mpi_sends_count++].data = data;
}

/* Every send posted has completed (napping while not). */
static void mpi_sends_wait(void)
{
	long ns = 20000;

	for (mpi_sends_test(); mpi_sends_count; mpi_sends_test())
		mpi_nap(&ns);
}

/*
 * The next message from @from (MPI_ANY_SOURCE: anyone) into @m and @b:
 * its rank, or -1 when none is there and @wait is false.
 */
static int mpi_recv(int from, bool wait, struct split_msg *m, struct buf *b)
{
	long ns = 20000;
	MPI_Status st;
	int flag = 0, count;

	for (;;) {
		MPI_Iprobe(from, SPLIT_TAG, MPI_COMM_WORLD, &flag, &st);
		if (flag)
			break;
		if (!wait)
			return -1;
		mpi_sends_test();
		mpi_nap(&ns);
	}
	MPI_Get_count(&st, MPI_BYTE, &count);
	memset(b, 0, sizeof(*b));
	b->data = malloc((size_t)count + 1);
	if (!b->data)
		abort();
	MPI_Recv(b->data, count, MPI_BYTE, st.MPI_SOURCE, SPLIT_TAG,
		 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	if ((size_t)count < sizeof(*m)) {
		memset(m, 0, sizeof(*m));	/* not a message: nonsense */
		m->unit = UINT32_MAX;
		return st.MPI_SOURCE;
	}
	memcpy(m, b->data, sizeof(*m));
	b->len = b->cap = (size_t)count - sizeof(*m);
	memmove(b->data, b->data + sizeof(*m), b->len);
	return st.MPI_SOURCE;
}

/*
 * A worker rank's message to rank 0, not waited for: rank 0 may be
 * descheduled on a loaded machine, and the rank goes on with its item
 * (or the one sent ahead) meanwhile.
 */
static void rank_send(const struct split_msg *m, const void *payload)
{
	mpi_post(0, m, payload);
	mpi_sends_test();
}

/* Rank 0's own worker: its messages go straight to the coordinator. */
static void rank0_send(const struct split_msg *m, const void *payload)
{
	struct buf b = { 0 };
	double t = split_cpu();

	buf_put(&b, payload, m->len);
	coord_message(mpi_co, 0, m, &b);
	mpi_co->slots[0].msgs--;	/* a call, not a message */
	t = split_cpu() - t;
	mpi_serve_cpu += t;
	worker.serve_cpu += t;
}

/*
 * With the queue empty and a rank without a unit (rank 0 included), ask
 * every rank that runs one ('H'): it gives back a unit it holds and has
 * not started (sent ahead, or kept of its own donation), or answers that
 * it has none.  One question at a time per rank, none to a rank that
 * said it has none until its next donation (whose first item it may
 * have kept) or result; every answer is in before quit.  Which rank
 * runs a unit does not change the report: only the waits.
 * WPSIM_MPI_ASK_BACK=0 in rank 0's environment turns it off (to measure
 * the difference: bench/search-scale.py's -noask rows).
 */
static void mpi_ask_back(struct coord *co)
{
	static int off = -1;
	bool idle = mpi_idle0;
	struct split_msg h = { .type = 'H' };

	if (off < 0) {
		const char *env = getenv("WPSIM_MPI_ASK_BACK");

		off = env && strcmp(env, "0") == 0;
	}
	if (off || co->stop || co->dead || co->cur < 0 || wpsim_stop_signal() ||
	    co->us.qhead != co->us.qtail)
		return;
	for (uint32_t k = 1; k < co->jobs && !idle; k++) {
		const struct slot *s = &co->slots[k];

		idle = !s->ahead && s->kept < 0 && s->self < 0;
	}
	if (!idle)
		return;
	for (uint32_t k = 1; k < co->jobs; k++) {
		struct slot *s = &co->slots[k];

		if (s->asked || s->none ||
		    (!s->ahead && s->kept < 0 && s->self < 0))
			continue;
		mpi_post((int)k, &h, NULL);
		s->asked++;
	}
}

/*
 * Give the ranks that have room a unit: one each that holds none (sent,
 * kept of its own donation, or its kept one running), a second only
 * while the queue holds more than one per rank, rank 0 included.  A rank
 * never holds more than two: a unit that waits in a busy rank is one
 * rank 0 (or a rank whose unit ended) cannot take, and with the queue
 * empty that rank waits for the next donation (rank 0 was idle 11% of
 * an -np 2 run that way).
 */
static void mpi_hand_out(struct coord *co)
{
	for (uint32_t ahead = 1; ahead <= 2; ahead++) {
		for (uint32_t k = 1; k < co->jobs; k++) {
			struct slot *s = &co->slots[k];
			struct split_msg m = { .type = 'U' };
			uint32_t held = s->ahead + (s->kept >= 0) +
					(s->self >= 0);
			int64_t u;

			if (held >= ahead ||
			    (ahead == 2 &&
			     co->us.qtail - co->us.qhead <= co->jobs) ||
			    (u = coord_take(co, held == 0)) < 0)
				continue;
			m.unit = (uint32_t)u;
			m.len = co->us.u[u].item.len;
			mpi_post((int)k, &m, co->us.u[u].item.data);
			if (s->unit < 0)
				s->unit = u;
			s->ahead++;
		}
	}
	mpi_ask_back(co);
}

/* Rank 0: read every message that is in, hand out; true: stop. */
static bool mpi_serve(void)
{
	struct coord *co = mpi_co;
	struct split_msg m;
	struct buf b;
	int from;

	while ((from = mpi_recv(MPI_ANY_SOURCE, false, &m, &b)) >= 0) {
		if (from <= 0 || from >= (int)co->jobs) {
			free(b.data);
			co->dead = true;
			continue;
		}
		coord_message(co, (uint32_t)from, &m, &b);
	}
	mpi_sends_test();
	mpi_hand_out(co);
	coord_progress(co);
	return co->stop || co->dead;
}

/*
 * Rank 0's worker.serve, between two executions of its own item: when a
 * message is in (a rank that ended its unit waits for the next), looked
 * at every 4 executions (an execution is tens of µs, a probe well under
 * one), and every millisecond anyway (the hand-out, progress).  Not a
 * probe after every execution: with --oversubscribe Open MPI yields the
 * CPU in every call that polls (split_mpi_start turns that off, but a
 * user's setting stays).
 */
static bool mpi_serve_due(void)
{
	static double last;
	static unsigned int calls;
	double now, t;
	bool stop;
	int in = 0;

	if ((++calls & 3) != 0)
		return mpi_co->stop || mpi_co->dead;
	MPI_Iprobe(MPI_ANY_SOURCE, SPLIT_TAG, MPI_COMM_WORLD, &in,
		   MPI_STATUS_IGNORE);
	now = split_now();
	if (!in && now - last < 0.001)
		return mpi_co->stop || mpi_co->dead;
	last = now;
	t = split_cpu();
	stop = mpi_serve();
	t = split_cpu() - t;
	mpi_serve_cpu += t;
	worker.serve_cpu += t;
	return stop;
}

/* Whether a rank other than 0 still has a unit. */
static bool mpi_outstanding(const struct coord *co)
{
	for (uint32_t k = 1; k < co->jobs; k++)
		if (co->slots[k].ahead || co->slots[k].kept >= 0 ||
		    co->slots[k].self >= 0 || co->slots[k].asked)
			return true;
	return false;
}

/*
 * Rank 0: run units itself while serving the others, until every unit
 * is merged (or Sometimes is decided); then wait for the units the
 * ranks still run (their results are dropped) and tell them to quit.
 */
static void split_rank0(struct coord *co, struct collect *c)
{
	const struct sim_strategy *strategy = c->strategy;
	struct split_msg quit = { .type = 'Q' };
	long ns = 20000;
	double items_cpu = 0;

	mpi_co = co;
	mpi_serve_cpu = 0;
	mpi_idle0 = false;
	mpi_posted = 0;
	worker_csw_start();
	worker.send = rank0_send;
	worker.serve = mpi_serve_due;
	worker.progress = co->show;
	for (;;) {
		int64_t u;
		uint32_t busy = 0;

		mpi_serve();
		if (co->cur < 0 || co->stop || co->dead)
			break;
		for (uint32_t k = 1; k < co->jobs; k++)
			busy += co->slots[k].ahead > 0 ||
				co->slots[k].kept >= 0 ||
				co->slots[k].self >= 0;
		/*
		 * A core of the node first (where its ranks outnumber its
		 * cores), then a unit; serving again every 5 ms meanwhile
		 * (no hurry: while it waits, the node's cores run units, and
		 * a rank that runs out gives its core back, which wakes it).
		 */
		if (co->us.qhead != co->us.qtail && !wpsim_stop_signal() &&
		    !mpi_core_get(MPI_CORE_WAIT_NS))
			continue;
		u = coord_take(co, true);
		coord_busy(co, busy + (u >= 0));
		mpi_idle0 = u < 0;
		if (u >= 0) {
			double t = split_cpu();

			co->slots[0].unit = u;
			worker_item(c, co->eo, (uint32_t)u,
				    co->us.u[u].item.data,
				    co->us.u[u].item.len);
			items_cpu += split_cpu() - t;
			ns = 20000;
			continue;
		}
		mpi_core_release();
		if (wpsim_stop_signal() && !mpi_outstanding(co))
			break;
		{
			double t = split_now();

			co->slots[0].waits += ns == 20000;
			mpi_nap(&ns);
			co->slots[0].wait_s += split_now() - t;
		}
	}
	mpi_idle0 = false;
	mpi_core_release();
	while (mpi_outstanding(co)) {
		mpi_serve();
		mpi_nap(&ns);
	}
	for (uint32_t k = 1; k < co->jobs; k++)
		mpi_post((int)k, &quit, NULL);
	mpi_sends_wait();
	co->slots[0].msgs = mpi_posted;	/* those it sent */
	split_csw(&co->slots[0].csw, &co->slots[0].icsw);
	co->slots[0].csw -= worker.csw0;
	co->slots[0].icsw -= worker.icsw0;
	worker.serve = NULL;
	c->strategy = strategy;
	co->coord_cpu = split_cpu() - co->cpu_at - items_cpu + mpi_serve_cpu;
}

/*
 * A rank other than 0: the units rank 0 sent that it has not started
 * (read early, between two executions, so that it can give one back),
 * first in first out; rank 0 said quit.
 */
struct rank_unit {
	uint32_t unit;
	struct buf item;
};

static struct {
	struct rank_unit *u;
	size_t count, cap;
	bool quit;
	unsigned int calls;
} rank_in;

/*
 * Rank 0's question 'H': give back a unit not started, the last one
 * sent first, else the kept one, answering 'G' with its name; or answer
 * that there is none (SPLIT_QUIT: rank 0 asks again after this rank's
 * next donation, which it may keep).  @idle (between two units): keep
 * one to run next, giving back only a second.
 */
static void rank_give_back(bool idle)
{
	struct split_msg g = { .type = 'G', .unit = SPLIT_QUIT };
	size_t held = rank_in.count + (worker.kept.len > 0);

	if (held > (idle ? 1u : 0u) && rank_in.count) {
		struct rank_unit *r = &rank_in.u[--rank_in.count];

		g.unit = r->unit;
		free(r->item.data);
	} else if (held > (idle ? 1u : 0u)) {
		g.unit = SPLIT_SELF;
		free(worker.kept.data);
		memset(&worker.kept, 0, sizeof(worker.kept));
	}
	mpi_post(0, &g, NULL);
}

/* Read what rank 0 sent (units, questions, quit), without waiting. */
static void rank_poll(bool idle)
{
	struct split_msg m;
	struct buf b;

	while (!rank_in.quit && mpi_recv(0, false, &m, &b) >= 0) {
		if (m.type == 'U') {
			if (rank_in.count == rank_in.cap) {
				rank_in.cap = rank_in.cap ? 2 * rank_in.cap : 4;
				rank_in.u = realloc(rank_in.u, rank_in.cap *
						    sizeof(*rank_in.u));
				if (!rank_in.u)
					abort();
			}
			rank_in.u[rank_in.count].unit = m.unit;
			rank_in.u[rank_in.count++].item = b;
			continue;
		}
		free(b.data);
		if (m.type == 'H')
			rank_give_back(idle);
		else
			rank_in.quit = true;
	}
}

/*
 * A rank other than 0, between two executions of its item: what rank 0
 * sent, every 4 executions (a probe is well under a microsecond, an
 * execution tens of them), so that a question waits little.
 */
static bool rank_serve(void)
{
	if ((++rank_in.calls & 3) == 0) {
		rank_poll(false);
		if ((rank_in.calls & 255) == 0)
			mpi_sends_test();
	}
	return false;
}

/*
 * A rank other than 0, at a donation: whether to keep nothing of it,
 * because a unit of rank 0's is waiting for it (read or not).  A kept
 * item that rank 0 needs it asks back ('H').
 */
static bool rank_ahead(uint32_t items)
{
	int in = 0;

	(void)items;
	if (rank_in.count)
		return true;
	MPI_Iprobe(0, SPLIT_TAG, MPI_COMM_WORLD, &in, MPI_STATUS_IGNORE);
	return in;
}

/* A rank other than 0: run the units rank 0 sends until it says quit. */
static void split_rank(struct collect *c, const struct sim_explore_options *eo,
		       bool show)
{
	split_long_slice();
	worker_csw_start();
	worker.send = rank_send;
	worker.serve = rank_serve;
	worker.progress = show;
	worker.keep = true;
	worker.ahead = rank_ahead;
	memset(&rank_in, 0, sizeof(rank_in));
	for (;;) {
		double t = split_now();
		long ns = 20000;
		bool waited = false;

		/* A unit sent first, else the kept one, else wait. */
		for (;;) {
			rank_poll(true);
			if (rank_in.count || worker.kept.len || rank_in.quit)
				break;
			mpi_core_release();	/* to a rank with a unit */
			mpi_sends_test();
			mpi_nap(&ns);
			waited = true;
		}
		if (waited) {
			t = split_now() - t;
			worker.wait_s += t;
			worker.waits += t > SPLIT_WAIT_MIN;
		}
		/* A core of the node (reading rank 0's messages every 5 ms
		 * meanwhile: it may ask for the unit back). */
		if (!rank_in.quit && !mpi_core_get(MPI_CORE_WAIT_NS))
			continue;
		if (rank_in.count) {
			struct rank_unit r = rank_in.u[0];

			memmove(&rank_in.u[0], &rank_in.u[1],
				--rank_in.count * sizeof(*rank_in.u));
			worker_item(c, eo, r.unit, r.item.data, r.item.len);
			free(r.item.data);
			continue;
		}
		if (worker.kept.len) {
			struct buf b = worker.kept;

			memset(&worker.kept, 0, sizeof(worker.kept));
			worker_item(c, eo, SPLIT_SELF, b.data, b.len);
			free(b.data);
			continue;
		}
		break;	/* quit */
	}
	mpi_core_release();
	for (size_t i = 0; i < rank_in.count; i++)
		free(rank_in.u[i].item.data);
	free(rank_in.u);
	memset(&rank_in, 0, sizeof(rank_in));
	worker.keep = false;
	worker.ahead = NULL;
	worker.serve = NULL;
	mpi_sends_wait();	/* rank 0 has read them all: it said quit */
}
#endif

/*
 * Run pair @c's search split over opts->jobs worker processes, or over
 * the MPI ranks; the merged result in @r and @c.  Returns 0, or -1 when
 * a worker died.
 */
int split_run(const struct sim_explore_options *eo, struct collect *c,
	      const struct wpsim_opts *opts, struct sim_explore_result *r,
	      struct split_info *info)
{
	struct coord co;
	bool dead;

	split_pair_seq++;
#ifdef WPSIM_MPI
	if (split_mpi_size > 1 && split_mpi_rank > 0) {
		memset(r, 0, sizeof(*r));
		split_rank(c, eo, !opts->quiet && (opts->progress_seconds > 0 ||
						   isatty(STDERR_FILENO)));
		check_collect_reset(c);
		return 0;
	}
#endif
	coord_init(&co, eo, c, opts, r, info, split_mpi_size > 1 ?
		   (uint32_t)split_mpi_size : opts->jobs);
#ifdef WPSIM_MPI
	if (split_mpi_size > 1)
		split_rank0(&co, c);
	else
#endif
	if (co.cur >= 0) {
		split_fork(&co);
		co.coord_cpu = split_cpu() - co.cpu_at;
	}
	dead = co.dead;
	coord_end(&co, info);
	return dead ? -1 : 0;
}

#ifdef WPSIM_MPI
/*
 * The node's cores shared out (mpi_core_get): where this node runs more
 * ranks than @cores (WPSIM_MPI_CORES, or if negative the CPUs its ranks
 * may run on), a
 * semaphore of that many tokens its ranks open by a name rank 0 makes
 * for the run (removed once every rank of the node has it open).
 * Collective: every rank calls it.
 */
static void mpi_cores_open(int cores)
{
	char name[64];
	MPI_Comm node;
	int local, lsize, ok, all, any;
	cpu_set_t set;

	memset(name, 0, sizeof(name));
	if (split_mpi_rank == 0)
		snprintf(name, 40, "/wpsim-mpi-%ld-%llx",
			 (long)getpid(),
			 (unsigned long long)(split_now() * 1e9));
	MPI_Bcast(name, sizeof(name), MPI_CHAR, 0, MPI_COMM_WORLD);
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
			    MPI_INFO_NULL, &node);
	MPI_Comm_rank(node, &local);
	MPI_Comm_size(node, &lsize);
	/* One name per node, even where nodes share /dev/shm (network
	 * namespaces of one host: bench/mpi-netns.sh): its first rank's. */
	any = split_mpi_rank;
	MPI_Bcast(&any, 1, MPI_INT, 0, node);
	snprintf(name + strlen(name), sizeof(name) - strlen(name), "-%d",
		 any);
	/*
	 * By default the node's cores are the CPUs its ranks may run on
	 * together (the union of their affinity masks: mpirun -np 2 binds
	 * each rank to a core of its own, and they do not share).
	 */
	if (cores < 0) {
		CPU_ZERO(&set);
		if (sched_getaffinity(0, sizeof(set), &set) != 0)
			CPU_ZERO(&set);
		MPI_Allreduce(MPI_IN_PLACE, &set, (int)sizeof(set), MPI_BYTE,
			      MPI_BOR, node);
		cores = CPU_COUNT(&set);
	}
	MPI_Allreduce(MPI_IN_PLACE, &cores, 1, MPI_INT, MPI_MIN, node);
	if (cores > 0 && lsize > cores) {
		if (local == 0) {
			sem_unlink(name);
			mpi_cores = sem_open(name, O_CREAT | O_EXCL, 0600,
					     (unsigned int)cores);
		}
		MPI_Barrier(node);
		if (local != 0)
			mpi_cores = sem_open(name, 0);
		if (mpi_cores == SEM_FAILED)
			mpi_cores = NULL;
		ok = mpi_cores != NULL;
		MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, node);
		if (local == 0 && mpi_cores)
			sem_unlink(name);
		if (!all && mpi_cores) {
			sem_close(mpi_cores);
			mpi_cores = NULL;
		}
	}
	MPI_Comm_free(&node);
	any = mpi_cores ? cores : 0;
	MPI_Allreduce(&any, &split_mpi_cores, 1, MPI_INT, MPI_MAX,
		      MPI_COMM_WORLD);
}

/*
 * Started by mpirun (or srun) with more than one rank: MPI on, every
 * pair that splits uses the ranks as its workers (and --jobs as given
 * does not matter), rank 0 alone prints.  A single rank: as without MPI.
 */
void split_mpi_start(struct wpsim_opts *o)
{
	const char *env = getenv("WPSIM_MPI_CORES");
	/* No sharing unless asked: in the quiet runs of 21:22 UTC
	 * (docs/performance.md) -np 4 with the node's cores shared out was
	 * slower than without in two of three (1.50x, 1.38x against 1.72x,
	 * 1.76x).  WPSIM_MPI_CORES=N shares N cores; -1 the node's CPUs
	 * (mpi_cores_open). */
	int cores = 0;

	if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMIX_RANK") &&
	    !getenv("PMI_RANK"))
		return;
	if (env) {
		char *end;
		long v = strtol(env, &end, 10);

		if (!*env || *end || v < -1 || v > 1 << 20) {
			fprintf(stderr, "wpsim: WPSIM_MPI_CORES: expected how "
				"many ranks of a node run items at once (0: no "
				"limit, the default; -1: the node's CPUs), found "
				"'%s'\n", env);
			exit(EXIT_USAGE);
		}
		cores = (int)v;
	}
	env = getenv("WPSIM_MPI_ORDER");
	if (env && strcmp(env, "merge") != 0 && strcmp(env, "fifo") != 0) {
		fprintf(stderr, "wpsim: WPSIM_MPI_ORDER: expected merge or "
			"fifo (the order rank 0 hands units out in), found "
			"'%s'\n", env);
		exit(EXIT_USAGE);
	}
	split_merge_order = !env || strcmp(env, "merge") == 0;
	/* The waits here nap (mpi_nap): no yield in every poll. */
	setenv("OMPI_MCA_mpi_yield_when_idle", "0", 0);
	MPI_Init(NULL, NULL);
	MPI_Comm_rank(MPI_COMM_WORLD, &split_mpi_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &split_mpi_size);
	if (split_mpi_size == 1) {
		MPI_Finalize();
		return;
	}
	mpi_cores_open(cores);
	o->split = true;
	o->jobs = (unsigned int)split_mpi_size;
	if (split_mpi_rank > 0 && !freopen("/dev/null", "w", stdout))
		abort();
}

/*
 * The end on every rank: rank 0 says so when it has printed (the other
 * ranks wait for that napping, not in MPI_Finalize, whose wait spins
 * while rank 0 runs the pairs that do not split), then MPI off.
 */
void split_mpi_end(void)
{
	struct split_msg m = { .type = 'E' };
	struct buf b;

	fflush(stdout);
	if (split_mpi_rank == 0) {
		for (int k = 1; k < split_mpi_size; k++)
			mpi_post(k, &m, NULL);
		mpi_sends_wait();
	} else {
		do {
			mpi_recv(0, true, &m, &b);
			free(b.data);
		} while (m.type != 'E');
	}
	if (mpi_cores)
		sem_close(mpi_cores);
	mpi_cores = NULL;
	MPI_Finalize();
}
#endif
