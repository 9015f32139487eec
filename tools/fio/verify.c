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
 *
 * Leaves out: the "Expected CRC"/"Received CRC" lines (no bytes to sum),
 * verify_dump files, verify_interval below bs, verify_offset,
 * experimental_verify, verify_state_save/load.
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
	m->order = calloc(max_blocks ? max_blocks : 1, sizeof(*m->order));
	if (!m->keys || !m->ids || !m->order) {
		fio_verify_map_free(m);
		return -1;
	}
	return 0;
}

void fio_verify_map_reset(struct fio_verify_map *m)
{
	if (!m->keys)
		return;
	memset(m->keys, 0, m->cap * sizeof(*m->keys));
	m->count = 0;
}

void fio_verify_map_free(struct fio_verify_map *m)
{
	free(m->keys);
	free(m->ids);
	free(m->order);
	memset(m, 0, sizeof(*m));
}

static uint64_t slot_of(const struct fio_verify_map *m, uint64_t offset)
{
	uint64_t h = offset * 0x9e3779b97f4a7c15ull;

	return (h ^ (h >> 29)) & (m->cap - 1);
}

int fio_verify_note(struct fio_verify_map *m, uint64_t offset, uint32_t id)
{
	uint64_t s = slot_of(m, offset);

	while (m->keys[s] && m->keys[s] != offset + 1)
		s = (s + 1) & (m->cap - 1);
	if (!m->keys[s]) {
		if (m->count == m->max)
			return -1;
		m->keys[s] = offset + 1;
		m->order[m->count++] = offset;
	}
	m->ids[s] = id;
	return 0;
}

bool fio_verify_expected(const struct fio_verify_map *m, uint64_t offset,
			 uint32_t *id)
{
	uint64_t s = slot_of(m, offset);

	while (m->keys[s]) {
		if (m->keys[s] == offset + 1) {
			*id = m->ids[s];
			return true;
		}
		s = (s + 1) & (m->cap - 1);
	}
	return false;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void fio_verify_sort(struct fio_verify_map *m)
{
	qsort(m->order, m->count, sizeof(*m->order), cmp_u64);
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
