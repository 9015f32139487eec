// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/fio-nullv.c - `wpsim fio`, ioengine=null with verify= on a
 * job that writes, where fio's own bookkeeping decides the I/O: with
 * verify_backlog, time_based, or iodepth_batch (t/jobs/t0009-f8b0bd10.fio
 * has all three).  fio 3.33 logs each write (iolog.c log_io_piece) and
 * reads the logged pieces back, pretending to verify them (null's
 * FIO_FAKEIO: verify_io_u returns at once), so what the job issues
 * follows fio's io_u life cycle, which this file runs step by step, as
 * fio 3.33's code does it (read, not copied):
 *
 *   backend.c   thread_main's loop (keep_running, clear_io_state,
 *               prune_io_piece_log, do_io, do_verify), do_io (its
 *               total_bytes: twice size with verify_backlog; the break
 *               at bytes_issued for time_based with verify),
 *               do_verify, wait_for_completions, io_queue_event
 *               (FIO_Q_BUSY: unlog_io_piece, requeue_io_u, td_io_commit)
 *   io_u.c      __get_io_u (a requeued io_u first; it loses
 *               IO_U_F_VER_LIST), get_io_u, check_get_verify (a batch of
 *               reads when io_hist_len is a multiple of verify_backlog
 *               and the last completion was not a read),
 *               io_u_queued_complete, io_completed (IP_F_IN_FLIGHT
 *               cleared, last_ddir), put_io_u, requeue_io_u,
 *               io_u_mark_depth / _submit / _complete
 *   ioengines.c td_io_queue (io_issues only for a read not from the
 *               verify list; total_io_u; commit at iodepth_batch),
 *               td_io_commit, td_io_getevents (null_commit first)
 *   engines/null.c  null_queue (FIO_Q_BUSY while a commit's events are
 *               not reaped; FIO_SYNCIO at iodepth 1), null_commit,
 *               null_getevents (every committed event, min > 0)
 *   iolog.c     log_io_piece: a random job with fio's random map keeps
 *               a list in the order written; any other an rbtree by
 *               offset, where a write over a logged block replaces its
 *               entry; unlog_io_piece, prune_io_piece_log
 *   verify.c    get_next_verify: the first entry (the list's oldest,
 *               the tree's lowest offset), nothing while its write is in
 *               flight
 *
 * The rbtree here is a bitmap of the file's blocks with two summary
 * levels (the lowest logged block found in three word scans): the job
 * writes one bs, at offsets that are multiples of it, so two pieces
 * overlap exactly when they are the same block.  A second bitmap holds
 * fio's IP_F_IN_FLIGHT; an io_u's ipo is its block (fio's io_u->ipo),
 * detached when a later write replaces the piece while it is in flight.
 *
 * Checked against fio 3.33 on this machine (tests/fio/test-nullv.sh,
 * tests/fio/nullv/: its output and iologs): the issued reads and writes,
 * the write_iolog lines in order (the BUSY retries logged twice), the
 * IO depths, submit and complete distributions.
 *
 * Leaves out (said in docs/fio.md): verify_async's threads (fio hands a
 * verify read to them at completion and its io_u comes back to the free
 * list when a thread has run; the model returns it at once, as
 * verify_async=0 does: with threads fio's free list, and so its reaps,
 * depend on how the threads are scheduled); latencies (each I/O's slat,
 * clat and lat are 0, as the other null jobs'); the random offsets are
 * the model's generator's, not fio's tausworthe, so a random job's
 * overwrites fall elsewhere than fio's; the verify state file of such a
 * job lists no blocks (fio's lists its last iodepth completions).  Not
 * modelled (an error naming it, fio-plan.c fio_nullv_check): several
 * files, bsrange/bssplit, blockalign other than bs, loops, number_ios,
 * syncs, trims, reads in the workload, experimental_verify, pacing,
 * ramp_time, statistics logs, read_iolog, io_submit_mode=offload.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/clock.h"
#include "tools/wpsim/fio-run.h"
#include "tools/wpsim/signals.h"

/* fio's enum fio_q_status */
enum nv_q { NV_Q_COMPLETED, NV_Q_QUEUED, NV_Q_BUSY };

/* fio's runstate, for io_u_update_bytes_done */
enum nv_state { NV_RUNNING, NV_VERIFYING };

struct nv_iou {
	bool read;
	bool ver_list;		/* IO_U_F_VER_LIST */
	bool has_file;		/* io_u->file set: a requeue's */
	bool in_cur_depth;	/* IO_U_F_IN_CUR_DEPTH */
	int64_t ipo;		/* the logged piece (block, list seq), or -1 */
	uint64_t off, len;
};

struct nv {
	struct job_run *jr;
	const struct fio_job *j;
	uint64_t end_ns;	/* the runtime's end, 0: none */
	uint32_t depth, batch, cmin, cmax, low;
	bool syncio;		/* iodepth 1: null's FIO_SYNCIO */
	bool tree;		/* rbtree (else list) */
	uint64_t bs, nblocks;
	struct nv_iou *iou;
	uint32_t *freel, nfree;
	uint32_t *rq, rq_head, rq_n;	/* requeues, FIFO */
	uint32_t cur_depth, io_u_queued;
	/* null's nd->io_us, queued and events */
	uint32_t *nd_io, nd_queued, nd_events;
	/* fio's counters */
	uint64_t io_issues[2], io_issue_bytes[2], total_io_u[2];
	uint64_t io_bytes[2], bytes_done[2];
	uint64_t io_hist_len;
	uint32_t verify_batch;
	bool last_read;			/* td->last_ddir == DDIR_READ */
	bool terminate, file_open, file_done;
	enum nv_state state;
	uint64_t map[FIO_IODEPTH_BUCKETS], submit[FIO_IODEPTH_BUCKETS],
		 complete[FIO_IODEPTH_BUCKETS];
	uint64_t total_submit, total_complete;
	/* The rbtree: a bit per block (l0) and two summary levels. */
	uint64_t *l0, *l1, *l2;
	uint64_t n0, n1, n2;
	uint64_t *inflight;		/* a bit per block: its write in flight */
	/* The list: logged pieces in order, [lh, lt) of a growing ring. */
	uint64_t *lblk;
	int32_t *lown;
	uint64_t lh, lt, lcap;
	uint64_t pending_ns;		/* fio's work not yet charged */
};

static uint64_t nv_now(const struct nv *v)
{
	return sim_now() + v->pending_ns;
}

/* fio's work for one I/O (FIO_NULL_IO_NS), charged in a batch at each
 * reap: the job's task runs alone, nothing it shares is touched. */
static void nv_charge(struct nv *v)
{
	if (!v->pending_ns)
		return;
	sim_cpu_spend(v->pending_ns);
	v->jr->usr_ns += v->pending_ns;
	v->pending_ns = 0;
}

static void nv_log(struct nv *v, const char *what, bool io, uint64_t off,
		   uint64_t len)
{
	if (!v->jr->job->write_iolog[0])
		return;
	nv_charge(v);	/* the line's time */
	fio_run_iolog_note(v->jr, NULL, what, io, off, len);
}

static void nv_open(struct nv *v)
{
	if (v->file_open)
		return;
	v->file_open = true;
	nv_log(v, "open", false, 0, 0);
}

static void nv_close(struct nv *v)
{
	if (!v->file_open)
		return;
	v->file_open = false;
	nv_log(v, "close", false, 0, 0);
}

/* io_u.c __io_u_mark_map */
static unsigned int count_bucket(uint32_t nr)
{
	return nr == 0 ? 0 : nr <= 4 ? 1 : nr <= 8 ? 2 : nr <= 16 ? 3 :
	       nr <= 32 ? 4 : nr <= 64 ? 5 : 6;
}

/* io_u.c io_u_mark_depth: by cur_depth */
static void mark_depth(struct nv *v, uint32_t nr)
{
	uint32_t d = v->cur_depth;
	unsigned int b = d <= 1 ? 0 : d <= 3 ? 1 : d <= 7 ? 2 : d <= 15 ? 3 :
			 d <= 31 ? 4 : d <= 63 ? 5 : 6;

	v->map[b] += nr;
}

static void mark_submit(struct nv *v, uint32_t nr)
{
	v->submit[count_bucket(nr)]++;
	v->total_submit++;
}

static void mark_complete(struct nv *v, uint32_t nr)
{
	v->complete[count_bucket(nr)]++;
	v->total_complete++;
}

/* ---- the logged pieces ---- */

static bool bit_test(const uint64_t *m, uint64_t b)
{
	return m[b >> 6] >> (b & 63) & 1;
}

static void bit_set(uint64_t *m, uint64_t b)
{
	m[b >> 6] |= 1ull << (b & 63);
}

static void bit_clear(uint64_t *m, uint64_t b)
{
	m[b >> 6] &= ~(1ull << (b & 63));
}

static void tree_set(struct nv *v, uint64_t b)
{
	v->l0[b >> 6] |= 1ull << (b & 63);
	v->l1[b >> 12] |= 1ull << ((b >> 6) & 63);
	v->l2[b >> 18] |= 1ull << ((b >> 12) & 63);
}

static void tree_clear(struct nv *v, uint64_t b)
{
	v->l0[b >> 6] &= ~(1ull << (b & 63));
	if (v->l0[b >> 6])
		return;
	v->l1[b >> 12] &= ~(1ull << ((b >> 6) & 63));
	if (v->l1[b >> 12])
		return;
	v->l2[b >> 18] &= ~(1ull << ((b >> 12) & 63));
}

static bool tree_has(const struct nv *v, uint64_t b)
{
	return v->l0[b >> 6] >> (b & 63) & 1;
}

/* rb_first: the lowest block logged, or UINT64_MAX. */
static uint64_t tree_first(const struct nv *v)
{
	for (uint64_t w2 = 0; w2 < v->n2; w2++) {
		uint64_t w1, w0;

		if (!v->l2[w2])
			continue;
		w1 = w2 * 64 + (uint64_t)__builtin_ctzll(v->l2[w2]);
		w0 = w1 * 64 + (uint64_t)__builtin_ctzll(v->l1[w1]);
		return w0 * 64 + (uint64_t)__builtin_ctzll(v->l0[w0]);
	}
	return UINT64_MAX;
}

static void list_push(struct nv *v, uint64_t b, int32_t own)
{
	if (v->lt - v->lh == v->lcap) {
		uint64_t cap = v->lcap ? v->lcap * 2 : 1024;
		uint64_t *nb = malloc(cap * sizeof(*nb));
		int32_t *no = malloc(cap * sizeof(*no));

		if (!nb || !no) {
			fprintf(stderr, "wpsim fio: out of memory\n");
			exit(1);
		}
		for (uint64_t i = v->lh; i < v->lt; i++) {
			nb[i % cap] = v->lblk[i % v->lcap];
			no[i % cap] = v->lown[i % v->lcap];
		}
		free(v->lblk);
		free(v->lown);
		v->lblk = nb;
		v->lown = no;
		v->lcap = cap;
	}
	v->lblk[v->lt % v->lcap] = b;
	v->lown[v->lt % v->lcap] = own;
	v->lt++;
}

/* iolog.c log_io_piece: the write of io_u @u, in flight. */
static void log_io_piece(struct nv *v, uint32_t u)
{
	struct nv_iou *io = &v->iou[u];
	uint64_t b = (io->off - v->jr->region_start) / v->bs;

	if (!v->tree) {
		io->ipo = (int64_t)v->lt;
		list_push(v, b, (int32_t)u);
		v->io_hist_len++;
		return;
	}
	/* an overlapping piece is replaced (freed, or left to its
	 * write in flight, which no longer clears the new one's flag:
	 * that io_u's ipo is detached) */
	if (tree_has(v, b)) {
		v->io_hist_len--;
		if (bit_test(v->inflight, b))
			for (uint32_t k = 0; k < v->depth; k++)
				if (k != u && v->iou[k].ipo == (int64_t)b)
					v->iou[k].ipo = -1;
	}
	tree_set(v, b);
	bit_set(v->inflight, b);
	io->ipo = (int64_t)b;
	v->io_hist_len++;
}

/* iolog.c unlog_io_piece (FIO_Q_BUSY): the piece just logged. */
static void unlog_io_piece(struct nv *v, uint32_t u)
{
	struct nv_iou *io = &v->iou[u];

	if (io->ipo < 0)
		return;
	if (!v->tree) {
		/* the list's last entry: the write just logged */
		v->lt--;
	} else {
		tree_clear(v, (uint64_t)io->ipo);
		bit_clear(v->inflight, (uint64_t)io->ipo);
	}
	io->ipo = -1;
	v->io_hist_len--;
}

/* io_completed: the write's piece may be verified now. */
static void piece_done(struct nv *v, uint32_t u)
{
	struct nv_iou *io = &v->iou[u];

	if (io->ipo < 0)
		return;
	if (!v->tree) {
		if ((uint64_t)io->ipo >= v->lh && (uint64_t)io->ipo < v->lt &&
		    v->lown[io->ipo % v->lcap] == (int32_t)u)
			v->lown[io->ipo % v->lcap] = -1;
	} else {
		bit_clear(v->inflight, (uint64_t)io->ipo);
	}
	io->ipo = -1;
}

/* prune_io_piece_log */
static void prune_log(struct nv *v)
{
	if (v->tree) {
		memset(v->l0, 0, v->n0 * sizeof(*v->l0));
		memset(v->l1, 0, v->n1 * sizeof(*v->l1));
		memset(v->l2, 0, v->n2 * sizeof(*v->l2));
	}
	v->lh = v->lt = 0;
	v->io_hist_len = 0;
}

/* verify.c get_next_verify.  Return: 0 (the io_u is a read of a logged
 * piece, or a requeue's), 1 (nothing: empty, or the first in flight). */
static int get_next_verify(struct nv *v, uint32_t u)
{
	struct nv_iou *io = &v->iou[u];
	uint64_t b;

	if (io->has_file)
		return 0;
	if (v->tree) {
		b = tree_first(v);
		if (b == UINT64_MAX || bit_test(v->inflight, b))
			return 1;
		tree_clear(v, b);
	} else {
		if (v->lh == v->lt || v->lown[v->lh % v->lcap] >= 0)
			return 1;
		b = v->lblk[v->lh % v->lcap];
		v->lh++;
	}
	v->io_hist_len--;
	io->off = v->jr->region_start + b * v->bs;
	io->len = v->bs;
	io->read = true;
	io->ver_list = true;
	io->has_file = true;
	nv_open(v);
	return 0;
}

/* ---- io_u life cycle ---- */

static void put_io_u(struct nv *v, uint32_t u)
{
	struct nv_iou *io = &v->iou[u];

	io->has_file = false;
	if (io->in_cur_depth) {
		v->cur_depth--;
		io->in_cur_depth = false;
	}
	v->freel[v->nfree++] = u;
}

static void requeue_io_u(struct nv *v, uint32_t u)
{
	struct nv_iou *io = &v->iou[u];

	if (io->in_cur_depth) {
		v->cur_depth--;
		io->in_cur_depth = false;
	}
	v->rq[(v->rq_head + v->rq_n++) % v->depth] = u;
}

/* __get_io_u: a requeued io_u first, else a free one.  Return: its
 * index, or -1 (none: fio's queue_full). */
static int64_t get_io_u_raw(struct nv *v)
{
	uint32_t u;

	if (v->rq_n) {
		u = v->rq[v->rq_head];
		v->rq_head = (v->rq_head + 1) % v->depth;
		v->rq_n--;
	} else if (v->nfree) {
		u = v->freel[--v->nfree];
		v->iou[u].has_file = false;
	} else {
		return -1;
	}
	v->iou[u].ver_list = false;
	v->iou[u].ipo = -1;
	v->iou[u].in_cur_depth = true;
	v->cur_depth++;
	return u;
}

/* io_completed + put_io_u for one reaped io_u. */
static void io_completed(struct nv *v, uint32_t u, uint64_t icd[2])
{
	struct nv_iou *io = &v->iou[u];
	int d = io->read ? 0 : 1;
	uint64_t now = nv_now(v);

	piece_done(v, u);
	v->last_read = io->read;
	v->io_bytes[d] += io->len;
	fio_run_record_io(v->jr, io->read ? FIO_DDIR_READ : FIO_DDIR_WRITE,
			  io->len, io->off, now, now, now);
	icd[d] += io->len;
	put_io_u(v, u);
}

static void update_bytes_done(struct nv *v, const uint64_t icd[2])
{
	if (v->state == NV_VERIFYING)
		return;		/* bytes_verified */
	v->bytes_done[0] += icd[0];
	v->bytes_done[1] += icd[1];
}

/* null_commit */
static void null_commit(struct nv *v)
{
	if (v->nd_events)
		return;
	mark_submit(v, v->nd_queued);
	v->nd_events = v->nd_queued;
	v->nd_queued = 0;
}

/* td_io_commit */
static void td_io_commit(struct nv *v)
{
	if (!v->cur_depth || !v->io_u_queued)
		return;
	mark_depth(v, v->io_u_queued);
	null_commit(v);
	v->io_u_queued = 0;
}

/* io_u_queued_complete (td_io_getevents, null_getevents,
 * ios_completed).  Return: the events reaped. */
static uint32_t queued_complete(struct nv *v, uint32_t min)
{
	uint32_t max = v->cmax, r = 0;
	uint64_t icd[2] = { 0, 0 };

	nv_charge(v);
	if (min > v->cur_depth)
		min = v->cur_depth;
	if (min > 0)
		null_commit(v);
	if (max > v->cur_depth)
		max = v->cur_depth;
	if (min > max)
		max = min;
	if (max && min) {
		r = v->nd_events;
		v->nd_events = 0;
	}
	mark_complete(v, r);
	for (uint32_t i = 0; i < r; i++)
		io_completed(v, v->nd_io[i], icd);
	update_bytes_done(v, icd);
	return r;
}

/* wait_for_completions */
static void wait_for_completions(struct nv *v)
{
	bool full = v->nfree == 0;
	uint32_t min = v->cmin < v->cur_depth ? v->cmin : v->cur_depth;

	if ((full && !min) || !v->cmin)
		min = 1;
	do
		queued_complete(v, min);
	while (full && v->cur_depth > v->low);
}

/* backend.c io_in_polling: no completion batch, min or max */
static bool polling(const struct nv *v)
{
	return !v->cmin && !v->cmax;
}

/* td_io_queue + null_queue */
static enum nv_q td_io_queue(struct nv *v, uint32_t u)
{
	struct nv_iou *io = &v->iou[u];
	int d = io->read ? 0 : 1;

	nv_log(v, io->read ? "read" : "write", true, io->off, io->len);
	if (!io->ver_list) {
		v->io_issues[d]++;
		v->io_issue_bytes[d] += io->len;
	}
	if (v->syncio) {
		v->pending_ns += FIO_NULL_IO_NS;
		mark_depth(v, 1);
		v->total_io_u[d]++;
		return NV_Q_COMPLETED;
	}
	if (v->nd_events) {
		if (!io->ver_list) {
			v->io_issues[d]--;
			v->io_issue_bytes[d] -= io->len;
		}
		return NV_Q_BUSY;
	}
	v->pending_ns += FIO_NULL_IO_NS;
	v->nd_io[v->nd_queued++] = u;
	v->io_u_queued++;
	v->total_io_u[d]++;
	if (v->io_u_queued >= v->batch)
		td_io_commit(v);
	return NV_Q_QUEUED;
}

/* io_queue_event.  @bytes_issued: do_io's, or NULL (do_verify). */
static enum nv_q queue_event(struct nv *v, uint32_t u, enum nv_q ret,
			     uint64_t *bytes_issued)
{
	uint64_t icd[2] = { 0, 0 };

	switch (ret) {
	case NV_Q_COMPLETED:	/* io_u_sync_complete */
		io_completed(v, u, icd);
		update_bytes_done(v, icd);
		break;
	case NV_Q_QUEUED:
		if (bytes_issued)
			*bytes_issued += v->iou[u].len;
		break;
	case NV_Q_BUSY:
		if (bytes_issued)
			unlog_io_piece(v, u);
		requeue_io_u(v, u);
		td_io_commit(v);
		break;
	}
	return ret;
}

static bool runtime_exceeded(struct nv *v)
{
	if (v->end_ns && nv_now(v) >= v->end_ns) {
		v->terminate = true;
		return true;
	}
	return wpsim_stop_signal();
}

/* check_get_verify */
static bool check_get_verify(struct nv *v, uint32_t u)
{
	const struct fio_job *j = v->j;
	bool get = false;

	if (!j->verify_backlog || !v->io_hist_len)
		return false;
	if (v->verify_batch) {
		get = true;
	} else if (!(v->io_hist_len % j->verify_backlog) && !v->last_read) {
		v->verify_batch = j->verify_batch ? j->verify_batch :
				  j->verify_backlog;
		get = true;
	}
	if (get && !get_next_verify(v, u)) {
		v->verify_batch--;
		return true;
	}
	return false;
}

/* get_io_u.  Return: the io_u, -1 (none: do_io breaks), or -2 (the
 * file is done: -EBUSY). */
static int64_t get_io_u(struct nv *v)
{
	int64_t got = get_io_u_raw(v);
	struct nv_iou *io;
	uint64_t bs = v->bs, pos;

	if (got < 0)
		return -1;
	io = &v->iou[got];
	if (check_get_verify(v, (uint32_t)got))
		return got;
	if (io->has_file)	/* a requeue's, set up */
		return got;
	/* set_io_u_file: the file opened at its first I/O; a file whose
	 * offsets are spent is closed and done (get_next_file gives no
	 * file then: -EBUSY). */
	if (v->file_done) {
		put_io_u(v, (uint32_t)got);
		return -2;
	}
	nv_open(v);
	if (!fio_run_next_offset(v->jr, FIO_DDIR_WRITE, &bs, &pos)) {
		nv_close(v);
		v->file_done = true;
		put_io_u(v, (uint32_t)got);
		return v->jr->error ? -1 : -2;
	}
	io->read = false;
	io->off = pos;
	io->len = v->bs;
	io->has_file = true;
	return got;
}

/* backend.c do_io */
static void do_io(struct nv *v)
{
	const struct fio_job *j = v->j;
	uint64_t size = v->jr->region_bytes;
	uint64_t io_size = j->io_size.set ? j->io_size.bytes : size;
	uint64_t total = size, bytes_issued = 0;

	if (is_random(j->rw) && j->norandommap && io_size > total)
		total = io_size;
	if (j->verify_backlog)
		total += size;
	v->bytes_done[0] = v->bytes_done[1] = 0;
	v->state = NV_RUNNING;
	while (v->io_issue_bytes[1] < io_size || j->time_based) {
		enum nv_q ret = NV_Q_QUEUED;
		int64_t got;

		if (v->terminate || v->jr->error)
			break;
		if (runtime_exceeded(v))
			break;
		if (bytes_issued >= total)
			break;
		got = get_io_u(v);
		if (got == -1)
			break;
		if (got == -2) {
			ret = NV_Q_BUSY;
			goto reap;
		}
		if (v->iou[got].read)
			v->state = NV_VERIFYING;
		else
			v->state = NV_RUNNING;
		if (!v->iou[got].read)
			log_io_piece(v, (uint32_t)got);
		ret = td_io_queue(v, (uint32_t)got);
		queue_event(v, (uint32_t)got, ret, &bytes_issued);
reap:
		if (v->nfree == 0 || (ret == NV_Q_BUSY && v->cur_depth) ||
		    polling(v))
			wait_for_completions(v);
	}
	if (!v->jr->error && v->cur_depth)
		queued_complete(v, v->cur_depth);
	nv_charge(v);
}

/* backend.c do_verify */
static void do_verify(struct nv *v)
{
	v->state = NV_VERIFYING;
	while (!v->terminate && !v->jr->error) {
		int64_t got;
		enum nv_q ret;

		if (runtime_exceeded(v))
			break;
		got = get_io_u_raw(v);
		if (got < 0)
			break;
		if (get_next_verify(v, (uint32_t)got)) {
			put_io_u(v, (uint32_t)got);
			break;
		}
		ret = td_io_queue(v, (uint32_t)got);
		queue_event(v, (uint32_t)got, ret, NULL);
		if (v->nfree == 0 || (ret == NV_Q_BUSY && v->cur_depth) ||
		    polling(v))
			wait_for_completions(v);
	}
	if (!v->jr->error && v->cur_depth)
		queued_complete(v, v->cur_depth);
	v->state = NV_RUNNING;
	nv_charge(v);
}

bool fio_nullv_job(const struct fio_job *j)
{
	return j->ioengine == FIO_ENGINE_NULL && j->verify[0] &&
	       j->do_verify && !is_read(j->rw) &&
	       (j->verify_backlog || j->time_based ||
		fio_run_null_batch(j) > 1);
}

int fio_nullv_check(const struct fio_job *j)
{
	if (!fio_nullv_job(j))
		return 0;
	if (j->rw != FIO_RW_WRITE && j->rw != FIO_RW_RANDWRITE)
		return fio_run_job_error(j, "verify with ioengine=null and "
				 "verify_backlog, time_based or iodepth_batch is "
				 "modelled for rw=write and randwrite");
	if (fio_job_file_count(j) > 1 || j->loops > 1 || j->number_ios ||
	    j->experimental_verify || j->bs_min[FIO_DDIR_WRITE] ||
	    (is_random(j->rw) && j->ba[FIO_DDIR_WRITE] !=
	     j->bs[FIO_DDIR_WRITE]) || j->rw_seq_add ||
	    j->fsync_blocks || j->fdatasync_blocks || j->sfr_flags ||
	    j->end_fsync || j->thinktime_ns || j->rate[0] || j->rate[1] ||
	    j->rate[2] || j->rate_iops[0] || j->rate_iops[1] ||
	    j->rate_iops[2] || j->rate_min[0] || j->rate_min[1] ||
	    j->rate_min[2] || j->rate_iops_min[0] || j->rate_iops_min[1] ||
	    j->rate_iops_min[2] || j->flow || j->latency_target_ns ||
	    j->ramp_time_ns || j->logs || j->read_iolog[0] ||
	    j->io_submit_mode != FIO_SUBMIT_INLINE ||
	    j->rand_dist != FIO_RAND_DIST_RANDOM || j->zonesize ||
	    j->verify_state_load)
		return fio_run_job_error(j, "verify with ioengine=null and "
				 "verify_backlog, time_based or iodepth_batch "
				 "(fio's io_u life cycle, fio-nullv.c) is "
				 "modelled for one file, one bs at offsets "
				 "that are multiples of it, one loop, and "
				 "without number_ios, experimental_verify, "
				 "syncs, thinktime, rate, flow, "
				 "latency_target, ramp_time, statistics logs, "
				 "read_iolog, io_submit_mode=offload, "
				 "random_distribution, zones and "
				 "verify_state_load");
	return 0;
}

static void *nv_calloc(uint64_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);

	if (!p) {
		fprintf(stderr, "wpsim fio: out of memory\n");
		exit(1);
	}
	return p;
}

/*
 * The job's run from its start to its end (backend.c thread_main's
 * loop), its files closed; the IO depth distributions in its result.
 */
void fio_nullv_run(struct job_run *jr, uint64_t end_ns)
{
	const struct fio_job *j = jr->job;
	struct nv *v = nv_calloc(1, sizeof(*v));
	bool clear_state = false, first = true;
	struct fio_result *r = jr->result;

	v->jr = jr;
	v->j = j;
	v->end_ns = end_ns;
	v->depth = j->iodepth ? j->iodepth : 1;
	v->syncio = v->depth == 1;
	v->batch = fio_run_null_batch(j);
	/* init.c fixup_options: iodepth_low 0 or above iodepth is
	 * iodepth; complete_max below min is min. */
	v->cmin = j->iodepth_batch_complete_min;
	v->cmax = j->iodepth_batch_complete_max < v->cmin ? v->cmin :
		  j->iodepth_batch_complete_max;
	v->low = !j->iodepth_low || j->iodepth_low > v->depth ? v->depth :
		 j->iodepth_low;
	v->tree = fio_run_verify_by_offset(j);
	v->bs = j->bs[FIO_DDIR_WRITE];
	v->nblocks = jr->region_bytes / v->bs + 1;
	v->iou = nv_calloc(v->depth, sizeof(*v->iou));
	v->freel = nv_calloc(v->depth, sizeof(*v->freel));
	v->rq = nv_calloc(v->depth, sizeof(*v->rq));
	v->nd_io = nv_calloc(v->depth, sizeof(*v->nd_io));
	for (uint32_t u = 0; u < v->depth; u++)
		v->freel[v->nfree++] = v->depth - 1 - u;
	if (v->tree) {
		v->n0 = (v->nblocks + 63) / 64;
		v->n1 = (v->n0 + 63) / 64;
		v->n2 = (v->n1 + 63) / 64;
		v->l0 = nv_calloc(v->n0, sizeof(*v->l0));
		v->l1 = nv_calloc(v->n1, sizeof(*v->l1));
		v->l2 = nv_calloc(v->n2, sizeof(*v->l2));
		v->inflight = nv_calloc(v->n0, sizeof(*v->inflight));
	}
	v->file_open = true;	/* fio-job.c logged its open */
	jr->cur_file = 0;
	/* thread_main: keep_running (time_based, or loops=1's one pass:
	 * after it the bytes done reach size) */
	while (!v->terminate && !jr->error && (first || j->time_based)) {
		uint64_t done;

		first = false;
		if (clear_state) {
			nv_close(v);	/* clear_io_state */
			v->file_done = false;
			fio_run_offsets_reset(jr);
		}
		prune_log(v);
		do_io(v);
		done = v->bytes_done[0] + v->bytes_done[1];
		if (!done)
			v->terminate = true;
		clear_state = true;
		if (jr->error || v->terminate)
			break;
		nv_close(v);		/* clear_io_state */
		v->file_done = false;
		fio_run_offsets_reset(jr);
		do_verify(v);
	}
	nv_charge(v);
	/* Queued and never reaped (a time_based job's end between a
	 * commit and its reap cannot leave any: do_io's last
	 * io_u_queued_complete commits and reaps what null holds). */
	for (uint32_t i = 0; i < v->nd_events + v->nd_queued; i++) {
		const struct nv_iou *io = &v->iou[v->nd_io[i]];
		uint64_t now = nv_now(v);

		fio_run_record_unreaped(jr, io->read ? FIO_DDIR_READ :
					FIO_DDIR_WRITE, io->len, io->off, now,
					now);
	}
	nv_close(v);	/* the job's exit: close_and_free_files */
	jr->writes_issued = v->io_issues[1];
	/* the result's depths: fio's io_u_map, _submit, _complete */
	r->total_submit = v->total_submit;
	r->total_complete = v->total_complete;
	for (unsigned int k = 0; k < FIO_IODEPTH_BUCKETS; k++) {
		r->io_u_map[k] = v->map[k];
		r->io_u_submit[k] = v->syncio ? 0 : v->submit[k];
		r->io_u_complete[k] = v->syncio ? 0 : v->complete[k];
	}
	if (v->syncio)
		r->total_submit = r->total_complete = 0;
	jr->nullv_done = true;
	free(v->iou);
	free(v->freel);
	free(v->rq);
	free(v->nd_io);
	free(v->l0);
	free(v->l1);
	free(v->l2);
	free(v->inflight);
	free(v->lblk);
	free(v->lown);
	free(v);
}
