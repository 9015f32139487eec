// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/fio-verify.c - `wpsim fio`, verify=: after a write job's
 * writes, each block it wrote is read back through the job's sync engine
 * and compared with the job's last write of it (tools/fio/verify.c keeps
 * the write ids and prints fio's messages), as fio 3.33's do_verify
 * (backend.c) does.
 *
 * verify_backlog: the reads interleaved with the writes as fio's
 * check_get_verify issues them.
 *
 * A job that only reads, with verify= (fio 3.33's do_io: a read of a job
 * that does not also write is verified as it completes, do_verify or
 * not): each read is checked against what the run's jobs wrote there
 * (their write ids, the blocks they started, their verify kinds and
 * patterns), as fio's verify_header and the kind's check would find it.
 * Patterns (verify_pattern, buffer_pattern) are a property of a job's
 * writes: the bytes of a write id are its job's pattern, so verify=pattern
 * (fio's headerless VERIFY_PATTERN_NO_HDR) accepts any write whose job
 * wrote the same pattern, as fio does (it cannot tell two such writes
 * apart), and prints the first byte that differs when both are known.
 *
 * libaio and io_uring: the verify reads are queued iodepth deep and
 * each is checked when it is reaped (fio's end_io = verify_io_u), and so
 * are the reads of a job that only reads with verify=.
 *
 * Leaves out: what tools/wpsim/fio.c's opening lists; verify_backlog
 * where a block is written twice (fio's
 * rbtree replacing an entry); verify_interval below bs and verify_dump
 * with a verify read (the model holds write ids, not the bytes fio
 * checks per interval and dumps); the value of a bad magic header that
 * is not zero (the bytes there are not kept) and fio's "verify type
 * mismatch" line (fio's numbers of the kinds); verify_state_load (no
 * state file is written).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/linux/fadvise.h"
#include "model/linux/syscalls.h"
#include "sim/clock.h"
#include "tools/wpsim/fio-run.h"

static bool is_random_rw(enum fio_rw rw)
{
	return rw == FIO_RW_RANDREAD || rw == FIO_RW_RANDWRITE ||
	       rw == FIO_RW_RANDRW;
}

/* The name fio's messages give a kind (vc->name). */
static const char *kind_name(const char *kind)
{
	return !strcmp(kind, "pattern_hdr") ? "pattern" : kind;
}

/* fio 3.33's number of a kind (verify.h's enum; the "verify type
 * mismatch" line: md5 2, crc32c 5, pattern 18 measured). */
static unsigned int kind_number(const char *kind)
{
	static const char *const kinds[] = {
		"", "meta", "md5", "crc64", "crc32", "crc32c", "crc32c-intel",
		"crc16", "crc7", "sha256", "sha512", "sha3-224", "sha3-256",
		"sha3-384", "sha3-512", "xxhash", "sha1", "pattern_hdr",
		"pattern", "null",
	};

	for (unsigned int i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i], kind))
			return i;
	return 0;
}

/* Kinds whose writes carry fio's verify header (all but pattern). */
static bool kind_has_header(const char *kind)
{
	return kind[0] && strcmp(kind, "pattern") && strcmp(kind, "null");
}

bool fio_run_keeps_writes(const struct fio_job *j)
{
	/* A write job whose blocks a later read may check: it writes a
	 * verify header or a pattern. */
	return !is_read(j->rw) && j->ioengine != FIO_ENGINE_NULL &&
	       (j->verify[0] || j->buffer_pattern[0]);
}

int fio_run_check_verify(const struct fio_job *j)
{
	static bool noted;

	/* verify_state_load=1: the job's state file is loaded at plan
	 * (fio-vstate.c fio_vstate_plan; an error when it is not there,
	 * as fio 3.33 stops). */
	if (!strcmp(j->verify, "pattern") && !j->verify_pattern[0])
		return fio_run_job_error(j, "verify=pattern without "
				 "verify_pattern: fio 3.33 checks an empty "
				 "pattern; not modelled");
	/* The options that set only the bytes fio writes: said once. */
	if (!noted && (j->buffer_pattern[0] || j->buffer_compress_percentage ||
		       j->dedupe_percentage || j->refill_buffers)) {
		noted = true;
		fprintf(stderr, "wpsim fio: note: buffer_pattern, "
			"buffer_compress_percentage, dedupe_* and refill_buffers "
			"set the bytes fio writes; the model keeps a write id "
			"per 512-byte sector, not bytes, and compresses and "
			"dedupes nothing: they change no I/O of the run, only "
			"what a verify=pattern read expects (docs/fio.md, \"The "
			"written bytes\")\n");
	}
	/* experimental_verify (fio's do_verify replays the write phase's
	 * offsets from the reset random state instead of the logged list):
	 * the same blocks in the same order where each pass writes each
	 * block once in a sequence that repeats. */
	if (j->experimental_verify && j->verify[0] && j->do_verify &&
	    !is_read(j->rw) &&
	    (j->time_based || fio_run_no_axmap(j) ||
	     j->verify_backlog ||
	     j->bs_min[FIO_DDIR_WRITE] || (is_random_rw(j->rw) &&
					   !j->randrepeat)))
		return fio_run_job_error(j, "experimental_verify is modelled "
				 "where its replay of the offsets reads the "
				 "logged blocks in their order (not with "
				 "time_based, norandommap, lfsr, "
				 "verify_backlog, bsrange/bssplit or "
				 "randrepeat=0)");
	if (!is_read(j->rw) || !j->verify[0] ||
	    j->ioengine == FIO_ENGINE_NULL)
		return 0;
	/* A job that only reads, with verify= (any engine: libaio's and
	 * io_uring's reads are checked as they are reaped). */
	if (j->bs[FIO_DDIR_READ] % 512 || j->bs[FIO_DDIR_READ] >
	    FIO_RUN_BS_MAX || j->bs_min[FIO_DDIR_READ])
		return fio_run_job_error(j, "verify on a job that reads needs "
				 "one bs, a multiple of 512");
	if (j->verify_interval && j->verify_interval < j->bs[FIO_DDIR_READ] &&
	    j->bs[FIO_DDIR_READ] % j->verify_interval == 0)
		return fio_run_job_error(j, "verify_interval below bs with a "
				 "verify read: the model checks each block "
				 "whole (it holds write ids, not fio's "
				 "headers)");
	if (j->verify_dump)
		return fio_run_job_error(j, "verify_dump=1 with a verify read: "
				 "the model holds write ids, not the bytes fio "
				 "would dump");
	return 0;
}

static int pattern_of(const struct fio_job *j, const char *text,
		      bool formats, struct fio_pattern *p)
{
	const char *what;
	size_t at;
	char msg[256];

	if (!fio_pattern_parse(text, formats, p, &at, &what))
		return 0;
	/* A 'file' pattern read again at plan time, after a change. */
	snprintf(msg, sizeof(msg), "pattern '%s': expected %s", text, what);
	return fio_run_job_error(j, msg);
}

int fio_run_verify_plan(struct job_run *jr)
{
	const struct fio_job *j = jr->job;

	jr->has_vpat = j->verify_pattern[0] != '\0';
	if (jr->has_vpat && pattern_of(j, j->verify_pattern, true, &jr->vpat))
		return EXIT_USAGE;
	/* What a write holds after fio fills it (verify.c
	 * populate_verify_io_u, io_u.c fill_io_buffer): a verify
	 * kind's pattern (random bytes without one, under its header), or
	 * buffer_pattern without a verify kind. */
	jr->has_dpat = false;
	if (j->verify[0] && strcmp(j->verify, "null")) {
		jr->dpat = jr->vpat;
		jr->has_dpat = jr->has_vpat;
	} else if (j->buffer_pattern[0]) {
		if (pattern_of(j, j->buffer_pattern, false, &jr->dpat))
			return EXIT_USAGE;
		jr->has_dpat = true;
	}
	return 0;
}

/* The job of the run that wrote @id, or a writer an earlier run's
 * state file gave (fio-vstate.c: the blocks it left), or NULL (no job's
 * write). */
static const struct job_run *writer_of(uint32_t id)
{
	uint32_t n = id >> 20;

	if (!n)
		return NULL;
	if (n > R->njobs)
		return fio_vstate_writer(n - R->njobs - 1);
	return &R->jobs[n - 1];
}

/* @w's last write id at world file @wf, offset @off and its length (fio's
 * header length): a write it began there, or false. */
static bool began_at_len(const struct job_run *w, unsigned int wf,
			 uint64_t off, uint32_t *id, uint32_t *len)
{
	for (unsigned int f = 0; f < w->nfiles; f++)
		if (w->world_file[f] == wf && w->vmap.keys &&
		    fio_verify_expected_len(&w->vmap, fio_verify_key(off, f),
					    id, len))
			return true;
	return false;
}

static bool began_at(const struct job_run *w, unsigned int wf, uint64_t off,
		     uint32_t *id)
{
	uint32_t len;

	return began_at_len(w, wf, off, id, &len);
}

/* The byte at @i of a fill with @p, for the block at @block_off (%o:
 * fio's paste_format writes the offset into the pattern, little
 * endian). */
static uint8_t fill_byte(const struct fio_pattern *p, uint64_t block_off,
			 uint64_t i)
{
	uint64_t k = i % p->len;

	if (p->offset_format && k < 8)
		return (uint8_t)(block_off >> (8 * k));
	return p->bytes[k];
}

/*
 * The headerless check (verify=pattern, fio's VERIFY_PATTERN_NO_HDR,
 * check_pattern): every byte of the block must be the job's pattern.
 * A sector's bytes are its write's job's pattern (or zeros, id 0), so
 * the first sector whose bytes differ gives fio's message; a sector of
 * random bytes (a job without a pattern) fails at its first byte with
 * the byte unknown.  Return: 0 or -1 (jr->verify_msg set).
 */
static int check_content(struct job_run *jr, unsigned int wf, uint64_t off,
			 uint64_t bs)
{
	const char *name = R->file[wf].name;
	const struct fio_pattern *first = NULL;
	bool first_known = false;

	for (uint64_t s = 0; s < bs / 512; s++) {
		uint32_t id = jr->read_buf[s], began = 0;
		const struct job_run *w = writer_of(id);
		const struct fio_pattern *p = NULL;
		bool known = id == 0;

		if (w && w->has_dpat && !kind_has_header(w->job->verify)) {
			p = &w->dpat;
			known = true;
			/* %o: the offset of the block the write filled. */
			if (p->offset_format && !(began_at(w, wf, off, &began) &&
						  began == id))
				p = NULL, known = false;
		}
		if (!s) {
			first = p;
			first_known = known;
		}
		for (uint64_t b = 0; b < 512; b++) {
			uint64_t i = s * 512 + b;
			uint8_t want = fill_byte(&jr->vpat, off, i);
			uint8_t got = p ? fill_byte(p, off, i) : 0;
			int bits = 0;
			uint32_t hlen = 0;
			uint16_t htype = 0;

			if (known && got == want)
				continue;
			if (!known || !first_known) {
				/* Random bytes: not kept, so neither the byte
				 * nor fio's header fields can be given. */
				snprintf(jr->verify_msg, sizeof(jr->verify_msg),
					 "pattern: verify failed at file %s "
					 "offset %" PRIu64 " (the bytes there "
					 "are not kept by the model: fio's "
					 "'got pattern' and header fields are "
					 "left out; requested block: offset=%"
					 PRIu64 ", length=%" PRIu64 ")", name,
					 off, off, bs);
				return -1;
			}
			for (uint8_t x = got ^ want; x; x &= x - 1)
				bits++;
			/* fio 3.33 prints the header fields it would have
			 * read at the block's start (length: bytes 4-7,
			 * type: bytes 2-3, little endian), which are the
			 * pattern's bytes here (measured). */
			for (int k = 3; k >= 0; k--)
				hlen = hlen << 8 | (first ?
					fill_byte(first, off, 4 + k) : 0);
			htype = (uint16_t)((first ? fill_byte(first, off, 3) : 0)
					   << 8 | (first ? fill_byte(first, off, 2)
						   : 0));
			snprintf(jr->verify_msg, sizeof(jr->verify_msg),
				 "fio: got pattern '%02x', wanted '%02x'. Bad "
				 "bits %d\nfio: bad pattern block offset %"
				 PRIu64 "\npattern: verify failed at file %s "
				 "offset %" PRIu64 ", length %" PRIu32
				 " (requested block: offset=%" PRIu64
				 ", length=%" PRIu64 ", flags=8)\nfio: verify "
				 "type mismatch (%u media, %u given)", got, want,
				 bits, i, name, off, hlen, off, bs, htype,
				 kind_number("pattern"));
			if (htype == kind_number("pattern"))
				*strrchr(jr->verify_msg, '\n') = '\0';
			return -1;
		}
	}
	return 0;
}

static bool same_fill(const struct fio_pattern *a, uint64_t a_off,
		      const struct fio_pattern *b, uint64_t b_off, uint64_t len)
{
	for (uint64_t i = 0; i < len; i++)
		if (fill_byte(a, a_off, i) != fill_byte(b, b_off, i))
			return false;
	return true;
}

/*
 * A read of a job that only reads, with verify= (fio 3.33 verify.c
 * verify_io_u, on a read that is not a verify list's): fio checks the
 * header at the block's start (verify_header: magic, length, offset; not
 * rand_seed or numberio, which a job that does not write cannot know),
 * then the kind's check over the block: a checksum (crc32c, md5, ...)
 * fails unless the block is whole, one write of a job of the same kind;
 * meta checks the pattern only when verify_pattern is given; the
 * pattern kinds check the bytes.  On ids: the header is there when the
 * block's first sector is a write a job of the run began at this offset
 * with a header; its length is that job's bs.
 */
void fio_run_read_verify(struct job_run *jr, uint64_t pos, uint64_t bs)
{
	const struct fio_job *j = jr->job;
	unsigned int wf = jr->world_file[jr->cur_file];
	const char *name = R->file[wf].name;
	const struct job_run *w;
	uint32_t id0 = jr->read_buf[0], began = 0, hlen = 0;
	bool whole = true;
	int rc = 0;

	if (!strcmp(j->verify, "null") || j->ioengine == FIO_ENGINE_NULL)
		return;
	if (!strcmp(j->verify, "pattern")) {
		if (check_content(jr, wf, pos, bs))
			jr->error = FIO_VERIFY_ERRNO;
		return;
	}
	for (uint64_t s = 1; s < bs / 512; s++)
		if (jr->read_buf[s] != id0)
			whole = false;
	w = writer_of(id0);
	if (!id0) {
		rc = snprintf(jr->verify_msg, sizeof(jr->verify_msg),
			      "verify: bad magic header 0, wanted acca");
	} else if (!w || !kind_has_header(w->job->verify) ||
		   !began_at_len(w, wf, pos, &began, &hlen) || began != id0) {
		/* Not the start of a write with a header: its bytes are
		 * data (or a header-less job's), which wpsim does not
		 * keep. */
		rc = snprintf(jr->verify_msg, sizeof(jr->verify_msg),
			      "verify: bad magic header (data bytes, not "
			      "kept by the model), wanted acca");
	} else if (hlen != bs) {
		/* The header's length is the write's (a bsrange or
		 * bssplit write's own size). */
		rc = snprintf(jr->verify_msg, sizeof(jr->verify_msg),
			      "verify: bad header length %" PRIu32 ", wanted %"
			      PRIu64, hlen, bs);
	}
	if (rc) {
		snprintf(jr->verify_msg + rc, sizeof(jr->verify_msg) - (size_t)rc,
			 " at file %s offset %" PRIu64 ", length %" PRIu64
			 " (requested block: offset=%" PRIu64 ", length=%"
			 PRIu64 ")", name, pos, bs, pos, bs);
		jr->error = FIO_VERIFY_ERRNO;
		return;
	}
	/* The kind's check, over the block. */
	if (!strcmp(j->verify, "meta") && !jr->has_vpat)
		return;
	if (!strcmp(j->verify, "meta") || !strcmp(j->verify, "pattern_hdr")) {
		if (whole && w->has_dpat &&
		    same_fill(&w->dpat, pos, &jr->vpat, pos, bs))
			return;
	} else if (whole && !strcmp(w->job->verify, j->verify)) {
		return;
	}
	/* fio's log_verify_failure, with the read's io_u flags (8,
	 * IO_U_F_IN_CUR_DEPTH: measured with psync), then, for a checksum
	 * kind, the kinds' numbers when they differ. */
	rc = snprintf(jr->verify_msg, sizeof(jr->verify_msg), "%.8s: verify "
		      "failed at file %s offset %" PRIu64 ", length %" PRIu64
		      " (requested block: offset=%" PRIu64 ", length=%" PRIu64
		      ", flags=8)", !strcmp(j->verify, "meta") ? "pattern" :
		      kind_name(j->verify), name, pos, bs, pos, bs);
	if (strcmp(w->job->verify, j->verify))
		snprintf(jr->verify_msg + rc, sizeof(jr->verify_msg) - (size_t)rc,
			 "\nfio: verify type mismatch (%u media, %u given)",
			 kind_number(w->job->verify), kind_number(j->verify));
	jr->error = FIO_VERIFY_ERRNO;
}

/*
 * Check one block the job wrote (@key: fio_verify_key), read into
 * jr->read_buf, against the job's last write of it; one that is not
 * ends the job with EILSEQ, as fio's verify_io_u does.
 */
static void verify_check(struct job_run *jr, uint64_t key, uint64_t bs)
{
	const struct fio_job *j = jr->job;
	uint64_t off = fio_verify_key_offset(key);
	unsigned int f = fio_verify_key_file(key);
	uint32_t expected = 0;
	char name[FIO_PATH_LEN_MAX + 1];

	if (!strcmp(j->verify, "null"))
		return;
	fio_verify_expected(&jr->vmap, key, &expected);
	snprintf(name, sizeof(name), "%s", R->file[jr->world_file[f]].name);
	/* verify=pattern has no header: any write of the same pattern
	 * passes (fio_run_read_verify's rule). */
	if (!strcmp(j->verify, "pattern")) {
		if (check_content(jr, jr->world_file[f], off, bs))
			jr->error = FIO_VERIFY_ERRNO;
		return;
	}
	if (fio_verify_check(kind_name(j->verify), name, off, bs, expected,
			     jr->read_buf, jr->verify_msg,
			     sizeof(jr->verify_msg)))
		jr->error = FIO_VERIFY_ERRNO;
}

/*
 * Read back one block the job wrote (@key: fio_verify_key) through
 * the job's engine, counted as a read: a sync engine's row, checked at
 * once; libaio and io_uring a slot (iodepth of them in flight, as fio's
 * do_verify queues them), checked when reaped (fio_run_reap_verify:
 * fio's io_u->end_io = verify_io_u).
 */
static void verify_block(struct job_run *jr, uint64_t key)
{
	const struct fio_job *j = jr->job;
	uint64_t bs = j->bs[FIO_DDIR_WRITE];
	uint64_t off = fio_verify_key_offset(key);
	unsigned int f = fio_verify_key_file(key);
	uint64_t t0 = sim_now();
	long ret;

	jr->cur_file = f;
	if (fio_run_async(j)) {
		int err;

		jr->issue_verify = true;
		err = fio_run_issue(jr, jr->files[f], true, off, bs, 0);
		jr->issue_verify = false;
		if (err && !jr->error)
			jr->error = err < 0 ? -err : err;
		return;
	}
	fio_run_iolog_note(jr, jr->files[f], "read", true, off, bs);
	ret = fio_run_sync_io(jr, jr->files[f], true, off, bs, 0);
	if (ret != (long)bs) {
		jr->error = ret < 0 ? (int)-ret : KM_EIO;
		return;
	}
	fio_run_record_io(jr, FIO_DDIR_READ, bs, off, t0, t0, sim_now());
	verify_check(jr, key, bs);
}

int fio_run_reap_verify(struct job_run *jr, unsigned int s)
{
	uint32_t *buf = jr->read_buf;
	unsigned int cur = jr->cur_file;

	if (!jr->req_verify[s] && !jr->read_verify)
		return 0;
	if (jr->error || jr->verify_msg[0])
		return 0;	/* fio stops at the first failure */
	/* The checks read jr->read_buf and jr->cur_file: the slot's. */
	jr->read_buf = jr->req_buf + (size_t)s * jr->req_buf_sectors;
	jr->cur_file = jr->req_file[s];
	if (jr->req_verify[s])
		verify_check(jr, fio_verify_key(jr->req_pos[s],
					       jr->req_file[s]),
			     jr->req_bs[s]);
	else
		fio_run_read_verify(jr, jr->req_pos[s], jr->req_bs[s]);
	jr->read_buf = buf;
	jr->cur_file = cur;
	return jr->error == FIO_VERIFY_ERRNO ? -FIO_VERIFY_ERRNO : 0;
}

/*
 * verify_backlog=N (fio 3.33's check_get_verify, io_u.c, before the
 * sync check of get_rw_ddir): when blocks written are waiting (fio's
 * io_hist_len) and a batch is under way, or their number is a multiple
 * of N and the last I/O completed was not a read, the next I/O is the
 * read of the oldest (get_next_verify), verify_backlog_batch of them
 * (default N).  The job's writes each reach a block once (fio-plan.c
 * checks it), so fio's list and rbtree both give the oldest first.
 * Return: true when a read was issued (it took the I/O's turn).
 */
bool fio_run_verify_backlog(struct job_run *jr)
{
	const struct fio_job *j = jr->job;
	uint64_t pending = jr->vmap.count - jr->verify_head;

	if (!jr->verify || !j->verify_backlog || !pending)
		return false;
	if (!jr->verify_batch_left) {
		if (pending % j->verify_backlog || jr->last_done_read)
			return false;
		jr->verify_batch_left = j->verify_batch ? j->verify_batch :
					j->verify_backlog;
	}
	jr->verify_batch_left--;
	verify_block(jr, jr->vmap.order[jr->verify_head++]);
	jr->last_done_read = true;
	return true;
}

/*
 * fio's do_verify() (backend.c, fio 3.33) after the writes: the files
 * closed and opened again (invalidate=1: their clean pages dropped,
 * posix_fadvise DONTNEED), each block written and not yet read back
 * (verify_backlog) read with the job's engine, in the order written
 * (fio's list) or by offset (its rbtree, norandommap), counted as reads;
 * the first block that is not the job's last write of it ends the job
 * with EILSEQ, as fio does.
 */
void fio_run_job_verify(struct job_run *jr)
{
	fio_run_job_verify_pass(jr, true);
}

/*
 * One verify pass; @last: at the job's end (the files closed after it),
 * else after a loop of loops=N: fio 3.33's thread_main runs do_verify
 * after each do_io (backend.c: clear_io_state closes the files, then
 * do_verify), so each loop's blocks are read back after it (measured:
 * --rw=write --verify=md5 --loops=3 --size=16k writes and reads 12
 * blocks), the list emptied, and the next loop's clear_io_state closes
 * the files the verify opened.
 */
void fio_run_job_verify_pass(struct job_run *jr, bool last)
{
	const struct fio_job *j = jr->job;
	struct fio_verify_map *m = &jr->vmap;

	if (!jr->verify || jr->error || jr->verify_head == m->count)
		return;
	/* do_io reaped its I/O before do_verify (libaio, io_uring). */
	if (fio_run_async(j) && (jr->error = fio_run_quiesce(jr)))
		return;
	if (!last)
		for (unsigned int f = 0; f < jr->nfiles; f++)
			fio_run_iolog_note(jr, jr->files[f], "close", false, 0,
					   0);
	if (fio_run_verify_by_offset(j))
		fio_verify_sort(m, jr->verify_head);
	for (unsigned int f = 0; f < jr->nfiles; f++) {
		fio_run_iolog_note(jr, jr->files[f], "open", false, 0, 0);
		/* td_io_open_file: invalidate=1 drops the clean cache
		 * (posix_fadvise DONTNEED, model/mm/fadvise.c). */
		if (j->invalidate && j->ioengine != FIO_ENGINE_NULL)
			fio_run_file_syscall(M_SYS_FADVISE64,
				&(struct m_sys_args){
					.file = jr->files[f],
					.pos = (loff_t)jr->region_start,
					.len = (size_t)jr->region_bytes,
					.flags = KM_POSIX_FADV_DONTNEED });
		fio_run_fadvise_hint(jr, f, true);
	}
	for (uint64_t i = jr->verify_head; i < m->count && !jr->error; i++)
		verify_block(jr, m->order[i]);
	/* do_verify's io_u_queued_complete(cur_depth): the rest reaped. */
	if (fio_run_async(j)) {
		int err = fio_run_quiesce(jr);

		if (err && !jr->error)
			jr->error = err;
	}
	if (!last) {
		fio_verify_map_reset(m);
		jr->verify_head = 0;
		return;
	}
	for (unsigned int f = 0; f < jr->nfiles; f++)
		fio_run_iolog_note(jr, jr->files[f], "close", false, 0, 0);
}
