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
 * Intervals: a read of a job that only reads is checked every verify
 * interval (fio's fixup_options: the smallest write size with bsrange or
 * bssplit), each interval against the write its first sector belongs to
 * (found from the write's first block: the map keeps each write's
 * length), whose headers are every interval of the writer.
 *
 * verify_dump: at a failure, fio's dump files (BASENAME.OFFSET.hdr_fail,
 * .received, .expected) with the model's rendering of the ids read:
 * fio's header fields where a header is, the pattern or a generator's
 * bytes for the data (render()).
 *
 * Leaves out: what tools/wpsim/fio.c's opening lists; verify_backlog
 * where a block is written twice in a loop (fio's rbtree replacing an
 * entry); an explicit verify_interval below bs in a write job's verify
 * phase (each write is read back and checked whole); the value of a bad
 * magic header that is not zero (the bytes there are not kept); the
 * checksums' bytes and random data in the dumps (not fio's: the model
 * keeps ids, not bytes); the failures of the reads still in flight after
 * the first (fio 3.33 reports each).
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
	/* A time_based job has no verify phase in fio 3.33 (its runtime
	 * ends it first: fio-job.c), so nothing is replayed. */
	if (j->experimental_verify && j->verify[0] && j->do_verify &&
	    !is_read(j->rw) && !j->time_based &&
	    (fio_run_no_axmap(j) ||
	     j->verify_backlog ||
	     j->bs_min[FIO_DDIR_WRITE] || (is_random_rw(j->rw) &&
					   !j->randrepeat)))
		return fio_run_job_error(j, "experimental_verify is modelled "
				 "where its replay of the offsets reads the "
				 "logged blocks in their order (not with "
				 "norandommap, lfsr, "
				 "verify_backlog, bsrange/bssplit or "
				 "randrepeat=0)");
	if (!is_read(j->rw) || !j->verify[0] ||
	    j->ioengine == FIO_ENGINE_NULL)
		return 0;
	/* A job that only reads, with verify= (any engine: libaio's and
	 * io_uring's reads are checked as they are reaped). */
	/* bsrange, bssplit: each read checks its own size (the header's
	 * length is the write's). */
	if (j->bs[FIO_DDIR_READ] % 512 || j->bs[FIO_DDIR_READ] >
	    FIO_RUN_BS_MAX || j->bs_max[FIO_DDIR_READ] % 512)
		return fio_run_job_error(j, "verify on a job that reads needs "
				 "bs (each of bsrange, bssplit) a multiple of "
				 "512");
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

static void write_cache_reset(void);

int fio_run_verify_plan(struct job_run *jr)
{
	const struct fio_job *j = jr->job;

	write_cache_reset();	/* a run's ids are its own */

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
 * fio 3.33's fixup_options (init.c) for a job with verify=: the verify
 * interval.  A job whose write sizes vary (bsrange, bssplit) takes its
 * smallest write size; the interval is at most that, and must divide
 * both the smallest and the largest (else their gcd).  A fixed bs gives
 * bs.
 */
static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

uint64_t fio_run_verify_interval(const struct fio_job *j)
{
	uint64_t minw = j->bs[FIO_DDIR_WRITE];
	uint64_t maxw = j->bs_min[FIO_DDIR_WRITE] ? j->bs_max[FIO_DDIR_WRITE] :
			minw;
	uint64_t vi = j->verify_interval;

	if (maxw != minw && !vi)
		vi = minw;
	if (vi > minw)
		vi = minw;
	else if (!is_write(j->rw) && vi > j->bs[FIO_DDIR_READ])
		vi = j->bs[FIO_DDIR_READ];
	if (!vi || minw % vi || maxw % vi)
		vi = gcd64(minw, maxw);
	return vi;
}

/* fio's get_hdr_inc: the interval, or the whole I/O when it is larger. */
static uint64_t hdr_inc(uint64_t vi, uint64_t len)
{
	return vi && vi <= len ? vi : len;
}

/*
 * The write of @w that the sector at @off of world file @wf (id @id)
 * belongs to: its start and length (looked up from the sector back, at
 * most FIO_RUN_BS_MAX).  Return: false when none is kept.
 */
/* The writes write_of found, by id: a write id is one write, whose
 * place does not change (a later write over its first sector leaves
 * the headers of its other intervals in place, as in fio's bytes). */
#define WRITE_CACHE	256
static struct {
	uint32_t id;
	unsigned int wf;
	uint64_t start;
	uint32_t len;
} write_cache[WRITE_CACHE];

static void write_cache_reset(void)
{
	memset(write_cache, 0, sizeof(write_cache));
}

static bool write_of(const struct job_run *w, unsigned int wf, uint64_t off,
		     uint32_t id, uint64_t *start, uint32_t *len)
{
	uint64_t o = off - off % 512;
	unsigned int c = (id ^ (id >> 12) ^ wf) % WRITE_CACHE;

	if (write_cache[c].id == id && write_cache[c].wf == wf &&
	    write_cache[c].start <= off &&
	    off < write_cache[c].start + write_cache[c].len) {
		*start = write_cache[c].start;
		*len = write_cache[c].len;
		return true;
	}

	for (uint64_t back = 0; back < FIO_RUN_BS_MAX; back += 512) {
		uint32_t bid, blen;

		if (began_at_len(w, wf, o, &bid, &blen) && bid == id &&
		    o + blen > off) {
			*start = o;
			*len = blen;
			write_cache[c].id = id;
			write_cache[c].wf = wf;
			write_cache[c].start = o;
			write_cache[c].len = blen;
			return true;
		}
		if (!o)
			break;
		o -= 512;
	}
	return false;
}

/* A writer's interval (its headers' length) for a write of @len. */
static uint64_t writer_hdr_inc(const struct job_run *w, uint64_t len)
{
	return hdr_inc(fio_run_verify_interval(w->job), len);
}

/* fio's __hdr_size: the header and the kind's checksum. */
static unsigned int hdr_size(const char *kind)
{
	static const struct {
		const char *kind;
		unsigned int bytes;
	} sums[] = {
		{ "md5", 16 }, { "crc64", 8 }, { "crc32", 4 }, { "crc32c", 4 },
		{ "crc32c-intel", 4 }, { "crc16", 2 }, { "crc7", 1 },
		{ "sha256", 32 }, { "sha512", 64 }, { "sha3-224", 28 },
		{ "sha3-256", 32 }, { "sha3-384", 48 }, { "sha3-512", 64 },
		{ "xxhash", 4 }, { "sha1", 20 },
	};

	for (unsigned int i = 0; i < sizeof(sums) / sizeof(sums[0]); i++)
		if (!strcmp(sums[i].kind, kind))
			return 40 + sums[i].bytes;
	return 40;
}

/* fio's fio_crc32c (crc32c_sw: init ~0, no final inversion; checked
 * against a header fio 3.33 wrote on this machine). */
static uint32_t crc32c_fio(const uint8_t *p, size_t n)
{
	uint32_t crc = ~0u;

	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ ((crc & 1) ? 0x82f63b78u : 0);
	}
	return crc;
}

/* splitmix64 (the rendered random bytes' generator). */
static uint64_t mix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * The bytes the model renders for the sectors @ids of world file @wf at
 * @off (@n sectors) into @out, for verify_dump: zeros for id 0; where a
 * write of a job with a header kind began an interval, fio's verify
 * header (magic, kind, length, rand_seed the write id as the model's
 * stand-in for fio's seed, offset, time 0, thread the writer's number,
 * numberio the write's sequence number, its crc32c) and the checksum's
 * bytes as zeros (the model sums no data); the rest the writer's pattern
 * (fio fills the buffer with it from the write's first byte) or, for
 * random bytes (not kept), bytes of a generator seeded by the write id
 * and offset: not fio's bytes.
 */
static void render(unsigned int wf, uint64_t off, const uint32_t *ids,
		   uint64_t n, uint8_t *out)
{
	uint32_t cached_id = 0, len = 0;
	uint64_t start = 0;
	const struct job_run *w = NULL;
	bool found = false;

	for (uint64_t s = 0; s < n; s++) {
		uint32_t id = ids[s];
		uint64_t so = off + s * 512;
		uint8_t *o = out + s * 512;

		if (!id) {
			memset(o, 0, 512);
			continue;
		}
		if (id != cached_id) {
			cached_id = id;
			w = writer_of(id);
			found = w && write_of(w, wf, so, id, &start, &len);
		}
		for (uint64_t b = 0; b < 512; b++) {
			uint64_t i = found ? so + b - start : so + b;
			uint64_t mix = (uint64_t)id << 32 ^ (i >> 3);

			if (found && w->has_dpat)
				o[b] = fill_byte(&w->dpat, start, i);
			else
				o[b] = (uint8_t)(mix64(&mix) >> (8 * (i & 7)));
		}
		if (!found || !kind_has_header(w->job->verify))
			continue;
		/* Each interval of the write that starts in this sector. */
		{
			uint64_t hw = writer_hdr_inc(w, len);
			uint64_t first = so - start, last = first + 512;

			for (uint64_t h = (first + hw - 1) / hw * hw; h < last &&
			     h < len; h += hw) {
				uint8_t hdr[40] = { 0 };
				uint64_t hoff = start + h;
				unsigned int hs = hdr_size(w->job->verify);
				uint32_t crc;

				hdr[0] = 0xca;
				hdr[1] = 0xac;
				hdr[2] = (uint8_t)kind_number(w->job->verify);
				for (int k = 0; k < 4; k++)
					hdr[4 + k] = (uint8_t)(hw >> (8 * k));
				for (int k = 0; k < 4; k++)
					hdr[8 + k] = (uint8_t)(id >> (8 * k));
				for (int k = 0; k < 8; k++)
					hdr[16 + k] = (uint8_t)(hoff >> (8 * k));
				/* thread: the writer's fio thread_number;
				 * numberio: the write's sequence number in
				 * the job (16 bits; the model counts a job's
				 * I/Os, fio its writes). */
				hdr[32] = (uint8_t)(w->index + 1);
				hdr[33] = (uint8_t)((w->index + 1) >> 8);
				hdr[34] = (uint8_t)((id & 0xfffffu) - 1);
				hdr[35] = (uint8_t)(((id & 0xfffffu) - 1) >> 8);
				crc = crc32c_fio(hdr, 36);
				for (int k = 0; k < 4; k++)
					hdr[36 + k] = (uint8_t)(crc >> (8 * k));
				for (unsigned int k = 0; k < hs; k++) {
					uint64_t at = h + k;

					if (at < first || at >= last)
						continue;
					o[at - first] = k < 40 ? hdr[k] : 0;
				}
			}
		}
	}
}

/*
 * verify_dump=1 (fio 3.33 verify.c dump_buf): @len bytes at @off of the
 * read, as the model renders their ids, into BASENAME.OFFSET.TYPE in the
 * working directory, and fio's line "       TYPE data dumped as NAME"
 * appended to the message.
 */
static void dump_ids(struct job_run *jr, unsigned int wf, uint64_t off,
		     const uint32_t *ids, uint64_t len, const char *type)
{
	const char *name = R->file[wf].name, *base = strrchr(name, '/');
	char path[FIO_PATH_LEN_MAX + 64];
	uint8_t *buf = malloc(len ? len : 1);
	size_t used = strlen(jr->verify_msg);
	FILE *f;

	if (!buf)
		return;
	base = base ? base + 1 : name;
	snprintf(path, sizeof(path), "%s.%" PRIu64 ".%s", base, off, type);
	render(wf, off, ids, len / 512, buf);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len) {
		snprintf(jr->verify_msg + used, sizeof(jr->verify_msg) - used,
			 "\nopen verify buf file: %s", strerror(errno));
	} else {
		snprintf(jr->verify_msg + used, sizeof(jr->verify_msg) - used,
			 "\n       %s data dumped as %s", type, path);
	}
	if (f)
		fclose(f);
	free(buf);
}

/* A checksum failure's two dumps: what was read, and the write whose
 * header it is (fio regenerates it from the header's rand_seed). */
static void dump_sum_failure(struct job_run *jr, unsigned int wf, uint64_t off,
			     const uint32_t *got, uint64_t len, uint32_t want)
{
	uint32_t *ids = malloc((len / 512 ? len / 512 : 1) * sizeof(*ids));

	dump_ids(jr, wf, off, got, len, "received");
	if (!ids)
		return;
	for (uint64_t s = 0; s < len / 512; s++)
		ids[s] = want;
	dump_ids(jr, wf, off, ids, len, "expected");
	free(ids);
}

/*
 * One interval of a read of a job that only reads, with verify= (fio
 * 3.33 verify.c verify_io_u, on a read that is not a verify list's): the
 * header at @at (bytes into the read; verify_header: magic, length,
 * offset; not rand_seed or numberio, which a job that does not write
 * cannot know), then the kind's check over the interval: a checksum
 * (crc32c, md5, ...) fails unless the interval is one write of a job of
 * the same kind; meta checks the pattern only when verify_pattern is
 * given.  On ids: the header is there when the interval's first sector
 * is a write of a job of the run (or of a loaded state file) with a
 * header kind, at one of the write's intervals (every interval of a
 * bsrange/bssplit write has its own header); its length is the writer's
 * interval.  Return: 0, or -1 (jr->verify_msg, jr->error set).
 */
static int read_verify_interval(struct job_run *jr, unsigned int wf,
				uint64_t pos, uint64_t bs, uint64_t at,
				uint64_t hv)
{
	const struct fio_job *j = jr->job;
	const char *name = R->file[wf].name;
	const uint32_t *ids = jr->read_buf + at / 512;
	uint64_t off = pos + at, start = 0, hw = 0;
	const struct job_run *w;
	uint32_t id0 = ids[0], len = 0;
	bool whole = true, found;
	int rc = 0;

	for (uint64_t s = 1; s < hv / 512; s++)
		if (ids[s] != id0)
			whole = false;
	w = writer_of(id0);
	found = w && write_of(w, wf, off, id0, &start, &len);
	if (found)
		hw = writer_hdr_inc(w, len);
	if (!id0) {
		rc = snprintf(jr->verify_msg, sizeof(jr->verify_msg),
			      "verify: bad magic header 0, wanted acca");
	} else if (!found || !kind_has_header(w->job->verify) ||
		   (off - start) % hw) {
		/* Not the start of an interval of a write with a header:
		 * its bytes are data (or a header-less job's), which wpsim
		 * does not keep. */
		rc = snprintf(jr->verify_msg, sizeof(jr->verify_msg),
			      "verify: bad magic header (data bytes, not "
			      "kept by the model), wanted acca");
	} else if (hw != hv) {
		/* The header's length is the writer's interval (a bsrange
		 * or bssplit write's smallest size, or its own size). */
		rc = snprintf(jr->verify_msg, sizeof(jr->verify_msg),
			      "verify: bad header length %" PRIu64 ", wanted %"
			      PRIu64, hw, hv);
	}
	if (rc) {
		snprintf(jr->verify_msg + rc, sizeof(jr->verify_msg) - (size_t)rc,
			 " at file %s offset %" PRIu64 ", length %" PRIu64
			 " (requested block: offset=%" PRIu64 ", length=%"
			 PRIu64 ")", name, off, hv, pos, bs);
		if (j->verify_dump)
			dump_ids(jr, wf, off, ids, hv, "hdr_fail");
		jr->error = FIO_VERIFY_ERRNO;
		return -1;
	}
	/* The kind's check, over the interval. */
	if (!strcmp(j->verify, "meta") && !jr->has_vpat)
		return 0;
	if (!strcmp(j->verify, "meta") || !strcmp(j->verify, "pattern_hdr")) {
		if (whole && w->has_dpat &&
		    same_fill(&w->dpat, off, &jr->vpat, off, hv))
			return 0;
	} else if (whole && !strcmp(w->job->verify, j->verify)) {
		return 0;
	}
	/* fio's log_verify_failure, with the read's io_u flags (8,
	 * IO_U_F_IN_CUR_DEPTH: measured with psync), then, for a checksum
	 * kind, the kinds' numbers when they differ. */
	rc = snprintf(jr->verify_msg, sizeof(jr->verify_msg), "%.8s: verify "
		      "failed at file %s offset %" PRIu64 ", length %" PRIu64
		      " (requested block: offset=%" PRIu64 ", length=%" PRIu64
		      ", flags=8)", !strcmp(j->verify, "meta") ? "pattern" :
		      kind_name(j->verify), name, off, hv, pos, bs);
	if (strcmp(w->job->verify, j->verify))
		snprintf(jr->verify_msg + rc, sizeof(jr->verify_msg) - (size_t)rc,
			 "\nfio: verify type mismatch (%u media, %u given)",
			 kind_number(w->job->verify), kind_number(j->verify));
	if (j->verify_dump)
		dump_sum_failure(jr, wf, off, ids, hv, id0);
	jr->error = FIO_VERIFY_ERRNO;
	return -1;
}

/*
 * A read of a job that only reads, with verify=: each interval (fio's
 * get_hdr_inc: the job's verify interval, or the whole read) checked in
 * turn; the first failure ends the check, as fio's verify_io_u returns
 * at a bad header and verify_fatal stops at a bad checksum (without
 * verify_fatal fio checks the remaining intervals of the read too; the
 * model stops at the first: a divergence in the lines printed only).
 */
void fio_run_read_verify(struct job_run *jr, uint64_t pos, uint64_t bs)
{
	const struct fio_job *j = jr->job;
	unsigned int wf = jr->world_file[jr->cur_file];
	uint64_t hv = hdr_inc(fio_run_verify_interval(j), bs);

	if (!strcmp(j->verify, "null") || j->ioengine == FIO_ENGINE_NULL)
		return;
	if (!strcmp(j->verify, "pattern")) {
		if (check_content(jr, wf, pos, bs)) {
			jr->error = FIO_VERIFY_ERRNO;
			if (j->verify_dump)
				dump_ids(jr, wf, pos, jr->read_buf, bs,
					 "received");
		}
		return;
	}
	for (uint64_t at = 0; at + hv <= bs; at += hv)
		if (read_verify_interval(jr, wf, pos, bs, at, hv))
			return;
}

/*
 * Check one block the job wrote (@key: fio_verify_key), read into
 * jr->read_buf, against the job's last write of it; one that is not
 * ends the job with EILSEQ, as fio's verify_io_u does.
 */
static void verify_check_one(struct job_run *jr, uint64_t key, uint64_t bs);

/* The check, then (drop mode: verify_backlog) the block's entry
 * forgotten, as fio 3.33's io_piece is freed once get_next_verify has
 * handed it to the verify read (the entry stays after a failure: the
 * job ends there). */
static void verify_check(struct job_run *jr, uint64_t key, uint64_t bs)
{
	verify_check_one(jr, key, bs);
	if (!jr->error)
		fio_verify_forget(&jr->vmap, key);
}

static void verify_check_one(struct job_run *jr, uint64_t key, uint64_t bs)
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
			     sizeof(jr->verify_msg))) {
		jr->error = FIO_VERIFY_ERRNO;
		/* verify_dump: a bad header dumps what was read
		 * (hdr_fail); a bad checksum what was read and what the
		 * write held (received, expected). */
		if (!j->verify_dump)
			return;
		if (!strncmp(jr->verify_msg, "verify: ", 8))
			dump_ids(jr, jr->world_file[f], off, jr->read_buf, bs,
				 "hdr_fail");
		else
			dump_sum_failure(jr, jr->world_file[f], off,
					 jr->read_buf, bs, expected);
	}
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
	uint32_t id, len;
	long ret;

	/* fio's io_piece keeps each write's length: a bsrange or bssplit
	 * write is read back at its own size. */
	if (fio_verify_expected_len(&jr->vmap, key, &id, &len) && len)
		bs = len;

	jr->cur_file = f;
	/* ioengine=null: the read goes through null's queue (its iolog
	 * line, its batch), and fio pretends to have verified it
	 * (FIO_FAKEIO: verify_io_u returns at once). */
	if (j->ioengine == FIO_ENGINE_NULL) {
		int err = fio_run_issue(jr, jr->files[f], true, off, bs, 0);

		if (err && !jr->error)
			jr->error = err < 0 ? -err : err;
		return;
	}
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
	/* Drop mode: the blocks read back leave order[] too, but for the
	 * last iodepth (the state file's comps, fio-vstate.c). */
	jr->verify_head -= fio_verify_compact(&jr->vmap, jr->verify_head,
					      j->iodepth ? j->iodepth : 1);
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

	if (!jr->verify || jr->error)
		return;
	/* Nothing left to read back (verify_backlog read each block as
	 * it went): the next loop's list starts empty, as fio's. */
	if (jr->verify_head == m->count) {
		if (!last) {
			fio_verify_map_reset(m);
			jr->verify_head = 0;
		}
		return;
	}
	/* do_io reaped its I/O before do_verify (libaio, io_uring; null's
	 * pending events: io_u_queued_complete). */
	jr->null_events = false;
	if (fio_run_async(j) && (jr->error = fio_run_quiesce(jr)))
		return;
	/* experimental_verify (fio 3.33 do_verify): reads while the
	 * bytes verified, all loops, plus one block stay within the bytes
	 * this loop wrote; fio never resets its count, so a later loop
	 * reads nothing back (measured: t0026's job1), and its files are
	 * not opened for it (fio's iolog: write, close, open, write). */
	if (j->experimental_verify) {
		uint64_t loop_bytes = 0, n = 0, room;

		for (uint64_t i = jr->verify_head; i < m->count; i++) {
			uint32_t id, len;

			if (fio_verify_expected_len(m, m->order[i], &id, &len))
				loop_bytes += len;
		}
		room = loop_bytes > jr->exp_verified ?
		       loop_bytes - jr->exp_verified : 0;
		n = room / j->bs[FIO_DDIR_WRITE];
		if (n < m->count - jr->verify_head) {
			if (!n) {
				if (!last) {
					fio_verify_map_reset(m);
					jr->verify_head = 0;
				}
				return;
			}
			m->count = jr->verify_head + n;
		}
		jr->exp_verified += n * j->bs[FIO_DDIR_WRITE];
	}
	if (!last)
		for (unsigned int f = 0; f < jr->nfiles; f++)
			fio_run_iolog_note(jr, jr->files[f], "close", false, 0,
					   0);
	if (fio_run_verify_by_offset(j))
		fio_verify_sort(m, jr->verify_head);
	for (unsigned int f = 0; f < jr->nfiles; f++) {
		fio_run_iolog_note(jr, jr->files[f], "open", false, 0, 0);
		/* td_io_open_file: invalidate=1 drops the clean cache
		 * (fio 3.33 filesetup.c __file_invalidate_cache: posix_fadvise
		 * DONTNEED on a file, model/mm/fadvise.c; ioctl(BLKFLSBUF)
		 * on a block device, blockdev_invalidate_cache; nothing on a
		 * character device). */
		if (j->invalidate && j->ioengine != FIO_ENGINE_NULL &&
		    R->file[jr->world_file[f]].dev == FIO_DEV_BLOCK)
			fio_run_file_syscall(M_SYS_IOCTL, &(struct m_sys_args){
				.file = jr->files[f],
				.flags = KM_BLKFLSBUF });
		else if (j->invalidate && j->ioengine != FIO_ENGINE_NULL &&
			 R->file[jr->world_file[f]].dev == FIO_DEV_NONE)
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
