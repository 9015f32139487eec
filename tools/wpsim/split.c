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
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef WPSIM_MPI
#include <mpi.h>
#endif

/*
 * ---- one pair split over worker processes (--jobs) ----------------------
 *
 * An unbounded dpor pair with --jobs is split into items (sim_dpor_split:
 * the top of the tree by sleep-set DFS; docs/architecture.md, "Splitting
 * one exploration").  The parent forks the workers after the split, so
 * each has the items; it hands out item numbers one at a time over a
 * pipe (a worker that is done asks for the next by sending its result),
 * and merges the results in item order: counters summed, final states
 * in order, the witness the first of the lowest-numbered item that has
 * one (its execution number counts the executions of the items before).
 * The number of items does not depend on --jobs, nor does any item's
 * search, so the report is the same for every N.  A Sometimes decided
 * by the items merged so far cancels the later items.
 */
#define SPLIT_ITEMS_MIN		64	/* leaves of the top, at least */
#define SPLIT_LEVELS_MAX	1000
#define SPLIT_QUIT		UINT32_MAX
#define SPLIT_DONATE_EVERY	256	/* runs of an item between donations */

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
};

/*
 * Under mpirun with more than one rank (-Dmpi=enabled), the workers are
 * ranks 1..N-1 and rank 0 hands out the items: the same messages, in
 * the same pieces, go over MPI instead of pipes, and a "file descriptor"
 * below is a rank.
 */
int split_mpi_rank, split_mpi_size = 1;

static bool write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

#ifdef WPSIM_MPI
	if (split_mpi_size > 1)
		return !n || MPI_Send(p, (int)n, MPI_BYTE, fd, 0,
				      MPI_COMM_WORLD) == MPI_SUCCESS;
#endif
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

#ifdef WPSIM_MPI
	if (split_mpi_size > 1)
		return !n || MPI_Recv(p, (int)n, MPI_BYTE, fd, 0,
				      MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
			     MPI_SUCCESS;
#endif
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

/* What a worker needs while it runs an item. */
static struct {
	int fd;
	uint32_t unit;
	bool progress;
	double last;
	struct sim_strategy *s;
	const struct sim_program *program;
	const struct sim_exec_options *exec;
	uint64_t runs;
	uint64_t given_pruned, given_steps;	/* of the donations' runs */
} worker;

static double split_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void worker_send(const struct split_msg *m, const void *payload)
{
	if (!write_all(worker.fd, m, sizeof(*m)) ||
	    (m->len && !write_all(worker.fd, payload, m->len)))
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

	if (!sp)
		return;
	sim_dpor_split_stats(sp, &levels, &pruned, &steps);
	worker.given_pruned += pruned;
	worker.given_steps += steps;
	buf_u64(&b, sim_dpor_split_items(sp));
	for (uint32_t i = 0; i < sim_dpor_split_items(sp); i++) {
		size_t need = sim_dpor_split_pack(sp, i, NULL, 0);

		buf_u64(&b, need);
		if (b.len + need > b.cap) {
			b.cap = (b.len + need) * 2;
			b.data = realloc(b.data, b.cap);
			if (!b.data)
				abort();
		}
		sim_dpor_split_pack(sp, i, b.data + b.len, need);
		b.len += need;
	}
	/* The nodes it hands over: the coordinator's from now on. */
	{
		size_t need = sim_dpor_split_pack_nodes(sp, NULL, 0);

		buf_u64(&b, need);
		if (b.len + need > b.cap) {
			b.cap = (b.len + need) * 2;
			b.data = realloc(b.data, b.cap);
			if (!b.data)
				abort();
		}
		sim_dpor_split_pack_nodes(sp, b.data + b.len, need);
		b.len += need;
	}
	sim_dpor_split_free(sp);
	m.len = b.len;
	worker_send(&m, b.data);
	free(b.data);
}

/* The worker's stop: a signal or Sometimes decided; donations, progress. */
static bool worker_stop(void *ctx)
{
	struct collect *c = ctx;

	if (check_stop_search(ctx))
		return true;
	if (++worker.runs % SPLIT_DONATE_EVERY == 0)
		worker_donate();
	if (worker.progress && (worker.runs & 63) == 0 &&
	    split_now() - worker.last >= 0.25) {
		struct split_msg m = { .type = 'P', .unit = worker.unit };

		worker.last = split_now();
		m.executions = c->index;
		m.pruned = sim_dpor_pruned(worker.s) + worker.given_pruned;
		m.failing = c->failing;
		worker_send(&m, NULL);
	}
	return false;
}

/* A worker: run the items the parent sends until it says quit. */
static void split_worker(struct collect *c,
			 const struct sim_explore_options *eo, int in,
			 int out)
{
	struct sim_explore_options o = *eo;
	struct { uint32_t unit; uint64_t len; } h;

	o.stop = worker_stop;
	o.ctx = c;
	o.progress = NULL;
	worker.fd = out;
	worker.program = &c->x.program;
	worker.exec = &eo->exec;
	while (read_all(in, &h, sizeof(h)) && h.unit != SPLIT_QUIT) {
		struct sim_explore_result res;
		struct split_msg m = { .type = 'R', .unit = h.unit };
		struct sim_dpor_split *sp;
		struct sim_strategy s;
		struct buf b = { 0 };
		char *item = malloc(h.len + 1);

		if (!item || !read_all(in, item, h.len))
			_exit(PAIR_ERROR);
		sp = sim_dpor_split_unpack(item, h.len);
		free(item);
		check_collect_reset(c);
		c->failing = 0;
		if (sim_strategy_dpor_item(&s, sp, 0) != 0)
			_exit(PAIR_ERROR);
		c->strategy = &s;
		worker.unit = h.unit;
		worker.s = &s;
		worker.last = split_now();
		worker.runs = 0;
		worker.given_pruned = worker.given_steps = 0;
		sim_explore(&c->x.program, &s, &o, &res);
		res.pruned += worker.given_pruned;
		res.steps += worker.given_steps;
		item_put(&b, c, &res);
		/* Last: the races it found for the coordinator's nodes. */
		{
			size_t need = sim_dpor_requests_pack(&s, NULL, 0);

			buf_u64(&b, need);
			if (b.len + need > b.cap) {
				b.cap = (b.len + need) * 2;
				b.data = realloc(b.data, b.cap);
				if (!b.data)
					abort();
			}
			sim_dpor_requests_pack(&s, b.data + b.len, need);
			b.len += need;
		}
		m.len = b.len;
		worker_send(&m, b.data);
		free(b.data);
		sim_explore_result_fini(&res);
		sim_strategy_fini(&s);
		sim_dpor_split_free(sp);
	}
	if (split_mpi_size > 1)
		return;		/* the rank goes on to the next pair */
	_exit(0);
}

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
};

struct units {
	struct unit *u;
	size_t count, cap;
	int64_t *queue;		/* to hand out, first in first out */
	size_t qhead, qtail, qcap;
};

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
	if (us->qtail == us->qcap) {
		us->qcap = us->qcap ? 2 * us->qcap : 256;
		us->queue = realloc(us->queue, us->qcap * sizeof(*us->queue));
		if (!us->queue)
			abort();
	}
	us->queue[us->qtail++] = (int64_t)us->count;
	return (int64_t)us->count++;
}

struct split_worker_state {
	pid_t pid;
	int to, from;
	int64_t unit;		/* running, or -1 */
	uint64_t executions, pruned, failing;	/* of that unit so far */
};

/*
 * The aggregate progress line of a split pair; @idle: the share of the
 * workers' time so far that they had no item to run.
 */
static void split_progress(FILE *out, const char *label, bool tty,
			   double started, uint64_t executions,
			   uint64_t pruned, uint64_t failing, size_t done,
			   size_t items, double idle)
{
	double elapsed = split_now() - started;

	fprintf(out, "%s%s: %" PRIu64 " executions (+%" PRIu64
		" redundant), %" PRIu64 " failing, %.0f/s, %.0f s, %zu of %zu "
		"items done, workers idle %.0f%%%s", tty ? "\r  " : "", label,
		executions, pruned, failing, elapsed > 0 ?
		(double)(executions + pruned) / elapsed : 0, elapsed, done,
		items, 100 * idle, tty ? "   " : "\n");
	fflush(out);
}

/* Hand unit @unit (or quit: -1) to worker @w. */
static void split_send(struct units *us, struct split_worker_state *w,
		       int64_t unit)
{
	struct { uint32_t unit; uint64_t len; } h = { SPLIT_QUIT, 0 };

	if (unit >= 0) {
		h.unit = (uint32_t)unit;
		h.len = us->u[unit].item.len;
	}
	if (!write_all(w->to, &h, sizeof(h)) ||
	    (unit >= 0 && !write_all(w->to, us->u[unit].item.data, h.len)))
		unit = -1;
	w->unit = unit;
	w->executions = w->pruned = w->failing = 0;
	if (unit < 0) {
		if (split_mpi_size == 1)
			close(w->to);
		w->to = -1;
	}
}

/* A worker that died (or sent nonsense) gets nothing more. */
static void split_dead(struct split_worker_state *w)
{
	w->unit = -1;
	if (w->to >= 0 && split_mpi_size == 1)
		close(w->to);
	w->to = -1;
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
 * Run pair @c's search split over opts->jobs workers; the merged result
 * in @r and @c.  Returns 0, or -1 when a worker died.
 */
int split_run(const struct sim_explore_options *eo, struct collect *c,
		     const struct wpsim_opts *opts,
		     struct sim_explore_result *r, struct split_info *info)
{
	struct sim_dpor_split *sp;
	struct split_worker_state *ws;
	struct units us = { 0 };
	struct sim_dpor_tops *tops = sim_dpor_tops_new();
	bool stop = false, dead = false;
	uint32_t n, jobs;
	int64_t cur;
	size_t done = 0;
	uint64_t top_steps, fin_exec = 0, fin_pruned = 0, fin_failing = 0;
	sigset_t stops, old;
	bool tty = !opts->quiet && isatty(STDERR_FILENO);
	bool show = !opts->quiet && (opts->progress_seconds > 0 || tty);
	double every = opts->progress_seconds > 0 ? opts->progress_seconds :
		       0.5;
	double started = split_now(), last_print = started;
	double idle_at = started, idle_s = 0;	/* worker-seconds idle */
	uint32_t busy_before = 0;
	bool printed = false;

	if (opts->progress_seconds > 0)
		tty = false;
	sp = sim_dpor_split(&c->x.program, &eo->exec, SPLIT_ITEMS_MIN,
			    SPLIT_LEVELS_MAX);
	n = sim_dpor_split_items(sp);
	memset(r, 0, sizeof(*r));
	r->complete = true;
	r->determinism_ok = true;
	sim_dpor_split_stats(sp, &info->levels, &info->top_pruned, &top_steps);
	info->items = n;
	r->pruned = info->top_pruned;
	r->steps = top_steps;
	for (uint32_t i = 0; i < n; i++) {
		size_t need = sim_dpor_split_pack(sp, i, NULL, 0);
		char *bytes = malloc(need);

		if (!bytes)
			abort();
		sim_dpor_split_pack(sp, i, bytes, need);
		unit_add(&us, bytes, need, -1);
		if (i > 0)
			us.u[i - 1].next = i;
		free(bytes);
	}
	sim_dpor_split_free(sp);
	jobs = split_mpi_size > 1 ? (uint32_t)split_mpi_size - 1 : opts->jobs;
	ws = calloc(jobs + 1, sizeof(*ws));
	if (!ws)
		abort();
	if (split_mpi_size > 1 && split_mpi_rank > 0) {
		/* A worker rank: the items rank 0 sends, then the next pair. */
		worker.progress = show;
		split_worker(c, eo, 0, 0);
		sim_dpor_tops_free(tops);
		for (size_t i = 0; i < us.count; i++)
			free(us.u[i].item.data);
		free(us.u);
		free(us.queue);
		free(ws);
		return 0;
	}
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	fflush(NULL);
	for (uint32_t k = 0; split_mpi_size > 1 && k < jobs; k++) {
		ws[k].to = ws[k].from = (int)k + 1;
		ws[k].unit = -1;
	}
	for (uint32_t k = 0; split_mpi_size == 1 && k < jobs && n; k++) {
		int to[2], from[2];

		if (pipe(to) != 0 || pipe(from) != 0) {
			fprintf(stderr, "wpsim: --jobs: pipe: %s\n",
				strerror(errno));
			exit(EXIT_USAGE);
		}
		/* A signal waits until the worker is on the list. */
		sigprocmask(SIG_BLOCK, &stops, &old);
		ws[k].pid = fork();
		if (ws[k].pid < 0) {
			fprintf(stderr, "wpsim: --jobs: fork: %s\n",
				strerror(errno));
			exit(EXIT_USAGE);
		}
		if (ws[k].pid == 0) {
			check_stop_in_child = true;
			for (uint32_t i = 0; i < k; i++) {
				if (ws[i].to >= 0)
					close(ws[i].to);
				close(ws[i].from);
			}
			close(to[1]);
			close(from[0]);
			sigprocmask(SIG_SETMASK, &old, NULL);
			worker.progress = show;
			split_worker(c, eo, to[0], from[1]);
		}
		check_stop_child_add(ws[k].pid);
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(to[0]);
		close(from[1]);
		ws[k].to = to[1];
		ws[k].from = from[0];
		ws[k].unit = -1;
	}
	cur = n ? 0 : -1;
	busy_before = jobs;	/* the fork time counts as busy */
	idle_at = split_now();
	for (;;) {
		struct pollfd pfd[STOP_CHILDREN_MAX];
		uint32_t busy = 0, map[STOP_CHILDREN_MAX];
		int rc;

		for (uint32_t k = 0; k < jobs && n; k++) {
			if (ws[k].unit < 0 && ws[k].to >= 0 && !stop &&
			    !wpsim_stop_signal() && us.qhead < us.qtail)
				split_send(&us, &ws[k], us.queue[us.qhead++]);
			if (ws[k].unit < 0)
				continue;
			pfd[busy].fd = ws[k].from;
			pfd[busy].events = POLLIN;
			map[busy++] = k;
		}
		if (!busy)
			break;
		{
			double now = split_now();

			/* Since the last poll, busy_before had an item. */
			idle_s += (now - idle_at) * (jobs - busy_before);
			idle_at = now;
			busy_before = busy;
		}
#ifdef WPSIM_MPI
		if (split_mpi_size > 1) {
			/* The first worker with a message is "ready". */
			int flag = 0;
			MPI_Status st;

			for (int t = 0; t < 250 && !flag; t++) {
				MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
					   &flag, &st);
				if (!flag)
					usleep(1000);
			}
			for (uint32_t x = 0; x < busy; x++)
				pfd[x].revents = flag && pfd[x].fd ==
						 st.MPI_SOURCE ? POLLIN : 0;
			rc = flag;
		} else
#endif
		rc = poll(pfd, busy, 250);
		if (rc < 0 && errno != EINTR) {
			fprintf(stderr, "wpsim: --jobs: poll: %s\n",
				strerror(errno));
			exit(EXIT_USAGE);
		}
		for (uint32_t x = 0; rc > 0 && x < busy; x++) {
			struct split_worker_state *w = &ws[map[x]];
			struct split_msg m;
			struct buf b = { 0 };

			if (!(pfd[x].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (!read_all(w->from, &m, sizeof(m)) ||
			    m.unit >= us.count || m.len > SIZE_MAX / 2) {
				split_dead(w);
				dead = true;
				continue;
			}
			if (m.type == 'P') {
				w->executions = m.executions;
				w->pruned = m.pruned;
				w->failing = m.failing;
				continue;
			}
			b.data = malloc(m.len + 1);
			if (!b.data)
				abort();
			b.len = b.cap = m.len;
			if (!read_all(w->from, b.data, m.len)) {
				free(b.data);
				split_dead(w);
				dead = true;
				continue;
			}
			if (m.type == 'D') {
				units_donated(&us, tops, m.unit, &b);
				free(b.data);
				continue;
			}
			us.u[m.unit].result = b;
			us.u[m.unit].got = true;
			done++;
			{
				uint64_t head[3];

				memcpy(head, b.data, sizeof(head));
				fin_exec += head[0];
				fin_pruned += head[1];
				fin_failing += head[2];
			}
			w->unit = -1;
			w->executions = w->pruned = w->failing = 0;
			while (!stop && cur >= 0 && us.u[cur].got) {
				item_merge(&us.u[cur].result, c, r);
				units_requested(&us, tops, c, eo, cur,
						&us.u[cur].result, r);
				free(us.u[cur].result.data);
				us.u[cur].result.data = NULL;
				us.u[cur].got = false;
				cur = unit_next(&us, cur);
				if (check_decided(c))
					stop = true;
			}
		}
		/* Decided by the units merged: the later ones can go (a
		 * rank is not killed: its result comes and is dropped). */
		for (uint32_t k = 0; stop && split_mpi_size == 1 && k < jobs; k++) {
			if (ws[k].unit < 0)
				continue;
			kill(ws[k].pid, SIGKILL);
			ws[k].unit = -1;
		}
		/* Every unit handed out and none running: done. */
		if (show && split_now() - last_print >= every) {
			uint64_t e = fin_exec, p = fin_pruned, f = fin_failing;

			for (uint32_t k = 0; k < jobs; k++) {
				e += ws[k].executions;
				p += ws[k].pruned;
				f += ws[k].failing;
			}
			last_print = split_now();
			split_progress(stderr, eo->progress_label, tty,
				       started, e, p + info->top_pruned, f,
				       done, us.count, idle_s > 0 ?
				       idle_s / (jobs * (split_now() -
				       started)) : 0);
			printed = true;
		}
	}
	if (tty && printed)
		fputc('\n', stderr);
	for (uint32_t k = 0; split_mpi_size > 1 && k < jobs; k++)
		if (ws[k].to >= 0)
			split_send(&us, &ws[k], -1);
	for (uint32_t k = 0; split_mpi_size == 1 && k < jobs && n; k++) {
		int wstatus;

		if (ws[k].to >= 0)
			close(ws[k].to);
		close(ws[k].from);
		while (waitpid(ws[k].pid, &wstatus, 0) < 0 && errno == EINTR)
			;
		check_stop_child_remove(ws[k].pid);
		if (!stop && (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus)))
			dead = true;
	}
	/* Stopped by a signal: what the units that ran found, in order. */
	if (cur >= 0)
		r->complete = false;
	for (; cur >= 0 && !stop; cur = unit_next(&us, cur))
		if (us.u[cur].got)
			item_merge(&us.u[cur].result, c, r);
	for (size_t i = 0; i < us.count; i++) {
		free(us.u[i].item.data);
		free(us.u[i].result.data);
	}
	if (!r->determinism_checked)
		r->determinism_ok = false;
	info->units = us.count;
	sim_dpor_tops_free(tops);
	free(us.u);
	free(us.queue);
	free(ws);
	return dead ? -1 : 0;
}

#ifdef WPSIM_MPI
/*
 * Started by mpirun (or srun) with more than one rank: MPI on, every
 * pair that splits uses the ranks as its workers (and --jobs as given
 * does not matter), rank 0 alone prints.  A single rank: as without MPI.
 */
void split_mpi_start(struct wpsim_opts *o)
{
	if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMIX_RANK") &&
	    !getenv("PMI_RANK"))
		return;
	MPI_Init(NULL, NULL);
	MPI_Comm_rank(MPI_COMM_WORLD, &split_mpi_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &split_mpi_size);
	if (split_mpi_size == 1) {
		MPI_Finalize();
		return;
	}
	o->split = true;
	o->jobs = (unsigned int)split_mpi_size - 1;
	if (split_mpi_rank > 0 && !freopen("/dev/null", "w", stdout))
		abort();
}
#endif

