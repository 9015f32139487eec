// SPDX-License-Identifier: MIT
/*
 * tools/fio/verify.c - fio's verify, on the model's data: what each
 * block of a job was last written with, kept sparsely, and the check of
 * what a read returns, reported in fio 3.33's words.
 *
 * The model keeps a write id per 512-byte sector (model/mm: a read
 * returns them), not bytes.  A job's write of a block writes one id to
 * all its sectors; fio's verify (verify.c, fio 3.33, read, not copied)
 * reads the block back and checks its header, then its checksum.  On
 * ids that is: every sector 0 (never written: fio finds no header) is
 * "bad magic header 0"; every sector one older id (a lost write: an
 * earlier block with a valid header and checksum) is "bad header
 * rand_seed"; ids that differ within the block (a torn write) fail the
 * checksum, "<kind>: verify failed".  Every verify= kind (crc32c, md5,
 * sha256, meta, pattern ...) checks the same thing here: whether the
 * block holds the job's last write of it.
 *
 * The expected id per block is an open-addressing hash map keyed by the
 * block's offset, sized from the job's blocks at plan time (malloc
 * before the run, reset for each execution), never an array of the
 * file's size; the blocks are kept in first-write order for fio's
 * verify list, or sorted by offset as fio's rbtree (norandommap).
 * Under verify_backlog a job's map may instead start small, grow, and
 * forget each block once its verify read is checked (drop mode: fio
 * 3.33 frees the io_piece get_next_verify hands out, so its history is
 * the backlog and the reads in flight); deletion shifts the probe run
 * back (linear probing, no tombstones).
 *
 * Also fio's pattern syntax (buffer_pattern, verify_pattern), below.
 *
 * Leaves out: the "Expected CRC"/"Received CRC" lines (no bytes to sum),
 * verify_dump files, verify_interval below bs, verify_offset, the
 * verify state file (verify_state_save/load: tools/wpsim/fio-verify.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/fio/verify.h"

int fio_verify_map_init(struct fio_verify_map *m, uint64_t max_blocks)
{
	uint64_t cap = 16;

	memset(m, 0, sizeof(*m));
	while (cap < max_blocks * 2)
		cap <<= 1;
	m->cap = cap;
	m->max = max_blocks;
	m->keys = calloc(cap, sizeof(*m->keys));
	m->ids = calloc(cap, sizeof(*m->ids));
	m->lens = calloc(cap, sizeof(*m->lens));
	m->order = calloc(max_blocks ? max_blocks : 1, sizeof(*m->order));
	m->order_cap = max_blocks ? max_blocks : 1;
	if (!m->keys || !m->ids || !m->lens || !m->order) {
		fio_verify_map_free(m);
		return -1;
	}
	return 0;
}

#define DROP_START	64

int fio_verify_map_drop(struct fio_verify_map *m)
{
	uint64_t max = m->max;

	fio_verify_map_free(m);
	if (fio_verify_map_init(m, DROP_START / 2 < max ? DROP_START / 2 :
				max))
		return -1;
	m->max = max;
	m->drop = true;
	return 0;
}

void fio_verify_map_reset(struct fio_verify_map *m)
{
	if (!m->keys)
		return;
	memset(m->keys, 0, m->cap * sizeof(*m->keys));
	m->count = 0;
	m->live = 0;
	m->dropped = 0;
}

void fio_verify_map_free(struct fio_verify_map *m)
{
	free(m->keys);
	free(m->ids);
	free(m->lens);
	free(m->order);
	memset(m, 0, sizeof(*m));
}

static uint64_t slot_of(const struct fio_verify_map *m, uint64_t offset)
{
	uint64_t h = offset * 0x9e3779b97f4a7c15ull;

	return (h ^ (h >> 29)) & (m->cap - 1);
}

/* Drop mode: the table at twice its slots, every entry placed again. */
static int grow_table(struct fio_verify_map *m)
{
	struct fio_verify_map n = *m;

	n.cap = m->cap * 2;
	n.keys = calloc(n.cap, sizeof(*n.keys));
	n.ids = calloc(n.cap, sizeof(*n.ids));
	n.lens = calloc(n.cap, sizeof(*n.lens));
	if (!n.keys || !n.ids || !n.lens) {
		free(n.keys);
		free(n.ids);
		free(n.lens);
		return -1;
	}
	for (uint64_t s = 0; s < m->cap; s++) {
		uint64_t t;

		if (!m->keys[s])
			continue;
		t = slot_of(&n, m->keys[s] - 1);
		while (n.keys[t])
			t = (t + 1) & (n.cap - 1);
		n.keys[t] = m->keys[s];
		n.ids[t] = m->ids[s];
		n.lens[t] = m->lens[s];
	}
	free(m->keys);
	free(m->ids);
	free(m->lens);
	*m = n;
	return 0;
}

int fio_verify_note(struct fio_verify_map *m, uint64_t offset, uint32_t id,
		    uint32_t len)
{
	uint64_t s;

	if (m->drop && (m->live + 1) * 2 > m->cap && grow_table(m))
		return -2;
	s = slot_of(m, offset);
	while (m->keys[s] && m->keys[s] != offset + 1)
		s = (s + 1) & (m->cap - 1);
	if (!m->keys[s]) {
		if (m->drop ? m->live == m->max : m->count == m->max)
			return -1;
		if (m->count == m->order_cap) {
			uint64_t *o = realloc(m->order, 2 * m->order_cap *
					      sizeof(*o));

			if (!o)
				return -2;
			m->order = o;
			m->order_cap *= 2;
		}
		m->keys[s] = offset + 1;
		m->live++;
		m->order[m->count++] = offset;
	}
	m->ids[s] = id;
	m->lens[s] = len;
	return 0;
}

bool fio_verify_expected_len(const struct fio_verify_map *m, uint64_t offset,
			     uint32_t *id, uint32_t *len)
{
	uint64_t s = slot_of(m, offset);

	while (m->keys[s]) {
		if (m->keys[s] == offset + 1) {
			*id = m->ids[s];
			*len = m->lens[s];
			return true;
		}
		s = (s + 1) & (m->cap - 1);
	}
	return false;
}

void fio_verify_forget(struct fio_verify_map *m, uint64_t offset)
{
	uint64_t mask = m->cap - 1, s = slot_of(m, offset), t;

	if (!m->drop)
		return;
	while (m->keys[s] && m->keys[s] != offset + 1)
		s = (s + 1) & mask;
	if (!m->keys[s])
		return;
	/* Backward shift: each later entry of the probe run whose home is
	 * not between the hole and it moves into the hole. */
	for (t = (s + 1) & mask; m->keys[t]; t = (t + 1) & mask) {
		uint64_t home = slot_of(m, m->keys[t] - 1);

		if (((t - home) & mask) < ((t - s) & mask))
			continue;
		m->keys[s] = m->keys[t];
		m->ids[s] = m->ids[t];
		m->lens[s] = m->lens[t];
		s = t;
	}
	m->keys[s] = 0;
	m->live--;
	m->dropped++;
}

uint64_t fio_verify_compact(struct fio_verify_map *m, uint64_t head,
			    uint64_t keep)
{
	uint64_t shift;

	if (!m->drop || head <= keep || head > m->count)
		return 0;
	shift = head - keep;
	if (shift < DROP_START || shift * 2 < m->count)
		return 0;
	memmove(m->order, m->order + shift,
		(m->count - shift) * sizeof(*m->order));
	m->count -= shift;
	return shift;
}

bool fio_verify_expected(const struct fio_verify_map *m, uint64_t offset,
			 uint32_t *id)
{
	uint32_t len;

	return fio_verify_expected_len(m, offset, id, &len);
}

/* fio's rbtree order (iolog.c log_io_piece): by file, then offset; a
 * key is fio_verify_key(offset, file). */
static int cmp_file_offset(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	unsigned int fx = fio_verify_key_file(x), fy = fio_verify_key_file(y);

	if (fx != fy)
		return fx < fy ? -1 : 1;
	return x < y ? -1 : x > y;
}

void fio_verify_sort(struct fio_verify_map *m, uint64_t from)
{
	if (from < m->count)
		qsort(m->order + from, m->count - from, sizeof(*m->order),
		      cmp_file_offset);
}

int fio_verify_check(const char *kind, const char *file, uint64_t offset,
		     uint64_t len, uint32_t expected, const uint32_t *got,
		     char *msg, size_t msg_len)
{
	uint64_t sectors = len / 512;
	bool uniform = true;

	for (uint64_t i = 0; i < sectors; i++) {
		if (got[i] != got[0])
			uniform = false;
	}
	if (uniform && sectors && got[0] == expected)
		return 0;
	if (uniform && got[0] == 0)
		snprintf(msg, msg_len, "verify: bad magic header 0, wanted "
			 "acca at file %s offset %" PRIu64 ", length %" PRIu64
			 " (requested block: offset=%" PRIu64 ", length=%"
			 PRIu64 ")", file, offset, len, offset, len);
	else if (uniform)
		snprintf(msg, msg_len, "verify: bad header rand_seed %" PRIu32
			 ", wanted %" PRIu32 " at file %s offset %" PRIu64
			 ", length %" PRIu64 " (requested block: offset=%"
			 PRIu64 ", length=%" PRIu64 ")", got[0], expected,
			 file, offset, len, offset, len);
	else
		snprintf(msg, msg_len, "%.8s: verify failed at file %s offset "
			 "%" PRIu64 ", length %" PRIu64 " (requested block: "
			 "offset=%" PRIu64 ", length=%" PRIu64 ")", kind, file,
			 offset, len, offset, len);
	return -1;
}

/*
 * fio 3.33's pattern syntax (lib/pattern.c parse_and_fill_pattern, read,
 * not copied), for buffer_pattern and verify_pattern: a sequence of
 * elements with nothing between them: "string" (the bytes between the
 * quotes), 'file' (the file's bytes, read relative to the working
 * directory as fio opens it), 0x hex digits (bytes in the order
 * written; an odd count reads the first digit alone; "0xff0x14" is two
 * elements), a decimal integer in int's range (its bytes, least
 * significant first, as many as it needs; 0 is one zero byte; fio looks
 * ahead to the next "0x" so "-120xdead" is -12 then 0xdead), and, in
 * verify_pattern only, the format %o (the block's offset, 8 bytes).
 * At most FIO_PATTERN_MAX bytes.  Where fio 3.33 accepts what would
 * abort it (an empty string or file fails its assert(filled)), wpsim
 * gives an error.
 */
static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int put(struct fio_pattern *p, uint8_t b)
{
	if (p->len == FIO_PATTERN_MAX)
		return -1;
	p->bytes[p->len++] = b;
	return 0;
}

int fio_pattern_parse(const char *s, bool formats, struct fio_pattern *p,
		      size_t *bad_at, const char **what)
{
	const char *b = s;

	memset(p, 0, sizeof(*p));
	*what = "a pattern: \"string\", 'file', 0x hex, a decimal integer";
	if (!*s)
		goto bad;
	while (*b) {
		const char *start = b;

		if (*b == '"' || *b == '\'') {
			const char *e = strchr(b + 1, *b);

			if (!e || e == b + 1) {
				*what = *b == '"' ? "a non-empty \"string\" "
					"closed by a quote" : "a non-empty "
					"'file' name closed by a quote";
				goto bad;
			}
			if (*b == '"') {
				for (const char *q = b + 1; q < e; q++)
					if (put(p, (uint8_t)*q))
						goto too_long;
			} else {
				char name[4096];
				FILE *f;
				int c;
				size_t before = p->len;

				if ((size_t)(e - b - 1) >= sizeof(name))
					goto bad;
				memcpy(name, b + 1, (size_t)(e - b - 1));
				name[e - b - 1] = '\0';
				f = fopen(name, "rb");
				if (!f) {
					*what = "'file' naming a readable file "
						"(fio reads the pattern from it)";
					goto bad;
				}
				/* fio reads at most the pattern's size. */
				while (p->len < FIO_PATTERN_MAX &&
				       (c = fgetc(f)) != EOF)
					put(p, (uint8_t)c);
				fclose(f);
				if (p->len == before) {
					*what = "'file' naming a non-empty file";
					goto bad;
				}
			}
			b = e + 1;
		} else if (*b == '%') {
			if (!formats || strncmp(b, "%o", 2)) {
				*what = formats ? "a format fio knows (%o)" :
					"no format in buffer_pattern (fio 3.33 "
					"knows %o in verify_pattern only)";
				goto bad;
			}
			p->offset_format = true;
			for (int i = 0; i < 8; i++)
				if (put(p, 0))
					goto too_long;
			b += 2;
		} else if (b[0] == '0' && (b[1] == 'x' || b[1] == 'X') &&
			   hexval(b[2]) >= 0) {
			const char *d = b + 2, *e = d;
			size_t n;

			while (hexval(*e) >= 0)
				e++;
			/* "0xff0x14": the last 0 starts the next element. */
			if ((*e == 'x' || *e == 'X') && e[-1] == '0' &&
			    e - 1 > d)
				e--;
			n = (size_t)(e - d);
			for (size_t i = 0; i < n; ) {
				int v;

				if (n % 2 && i == 0) {
					v = hexval(d[0]);
					i = 1;
				} else {
					v = hexval(d[i]) << 4 | hexval(d[i + 1]);
					i += 2;
				}
				if (put(p, (uint8_t)v))
					goto too_long;
			}
			b = e;
		} else {
			const char *x = strstr(b, "0x"), *X = strstr(b, "0X");
			const char *stop;
			char num[32], *end;
			long long v;
			unsigned int u;

			if (!x || (X && X < x))
				x = X;
			stop = x && x > b ? x : b + strlen(b);
			if ((size_t)(stop - b) >= sizeof(num))
				stop = b + sizeof(num) - 1;
			memcpy(num, b, (size_t)(stop - b));
			num[stop - b] = '\0';
			v = strtoll(num, &end, 10);
			if (end == num || v > INT32_MAX || v < INT32_MIN) {
				*what = "a pattern element: \"string\", "
					"'file', 0x hex, a decimal integer "
					"in int's range, or %o";
				goto bad;
			}
			u = (unsigned int)(int)v;
			if (!u && put(p, 0))
				goto too_long;
			for (; u; u >>= 8)
				if (put(p, (uint8_t)(u & 0xff)))
					goto too_long;
			b += end - num;
		}
		if (b == start)
			goto bad;
	}
	return 0;
too_long:
	*what = "a pattern of at most 512 bytes";
bad:
	*bad_at = (size_t)(b - s);
	return -1;
}
