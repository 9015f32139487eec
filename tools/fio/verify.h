/* SPDX-License-Identifier: MIT */
/*
 * tools/fio/verify.h - fio's verify on the model's write ids
 * (tools/fio/verify.c; docs/fio.md "verify").
 */
#ifndef WPSIM_TOOLS_FIO_VERIFY_H
#define WPSIM_TOOLS_FIO_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* fio's error for a verify failure: EILSEQ. */
#define FIO_VERIFY_ERRNO	84

/*
 * A block's key in a job's map: its offset above the file's index in
 * the job (FIO_VERIFY_FILE_BITS bits, so a job has at most
 * 1 << FIO_VERIFY_FILE_BITS files: FIO_FILES_MAX, tools/fio/fio.h);
 * offsets below 2^(64 - FIO_VERIFY_FILE_BITS) bytes (the model's files
 * stop at 1 TiB, 2^40).
 */
#define FIO_VERIFY_FILE_BITS	16

static inline uint64_t fio_verify_key(uint64_t offset, unsigned int file)
{
	return offset << FIO_VERIFY_FILE_BITS | file;
}

static inline uint64_t fio_verify_key_offset(uint64_t key)
{
	return key >> FIO_VERIFY_FILE_BITS;
}

static inline unsigned int fio_verify_key_file(uint64_t key)
{
	return (unsigned int)(key & ((1ull << FIO_VERIFY_FILE_BITS) - 1));
}

/* The write id each block was last written with, by offset. */
struct fio_verify_map {
	uint64_t cap;		/* slots, a power of two */
	uint64_t max;		/* blocks at most (the plan's) */
	uint64_t *keys;		/* offset + 1; 0 = empty */
	uint32_t *ids;
	uint32_t *lens;		/* each block's write length (fio's header
				 * length: a bsrange/bssplit write's own) */
	uint64_t *order;	/* blocks in first-write order */
	uint64_t count;
	/*
	 * verify_backlog (fio_verify_map_drop): a block's entry goes when
	 * its verify read is checked (fio_verify_forget), as fio 3.33 frees
	 * an io_piece when get_next_verify hands it out; the table and the
	 * order grow on demand from a few slots, so memory follows the
	 * backlog and the reads in flight, not the job's blocks.
	 */
	bool drop;
	uint64_t live;		/* entries in the table */
	uint64_t order_cap;	/* order[]'s room */
	uint64_t dropped;	/* entries forgotten since the last reset */
};

/* Return: 0, or -1 out of memory.  Called before the run (malloc). */
int fio_verify_map_init(struct fio_verify_map *m, uint64_t max_blocks);
/* Switch an empty map to fio_verify_forget's mode (a small table that
 * grows).  Return: 0, or -1 out of memory. */
int fio_verify_map_drop(struct fio_verify_map *m);
/* Forget @offset's entry (its verify read checked); drop mode only. */
void fio_verify_forget(struct fio_verify_map *m, uint64_t offset);
/* Drop mode: order[] before @head less its last @keep entries shifted
 * out when that is at least half of it.  Return: the shift (the caller
 * lowers its own index into order[] by it). */
uint64_t fio_verify_compact(struct fio_verify_map *m, uint64_t head,
			    uint64_t keep);
void fio_verify_map_reset(struct fio_verify_map *m);
void fio_verify_map_free(struct fio_verify_map *m);
/* A write of @id, @len bytes, to the block at @offset.  Return: -1 past
 * max, -2 out of memory (drop mode's growth). */
int fio_verify_note(struct fio_verify_map *m, uint64_t offset, uint32_t id,
		    uint32_t len);
bool fio_verify_expected(const struct fio_verify_map *m, uint64_t offset,
			 uint32_t *id);
/* The same, and the write's length. */
bool fio_verify_expected_len(const struct fio_verify_map *m, uint64_t offset,
			     uint32_t *id, uint32_t *len);
/* fio's rbtree order (no axmap: sequential jobs, norandommap, lfsr):
 * the entries from @from on, by file, then offset. */
void fio_verify_sort(struct fio_verify_map *m, uint64_t from);

/*
 * fio_verify_check() - the block at @offset of @len bytes read back as
 * @got (one write id per 512-byte sector) against @expected.
 * Return: 0, or -1 with fio 3.33's message in @msg.
 */
int fio_verify_check(const char *kind, const char *file, uint64_t offset,
		     uint64_t len, uint32_t expected, const uint32_t *got,
		     char *msg, size_t msg_len);

/*
 * A buffer_pattern or verify_pattern, parsed as fio 3.33 does
 * (lib/pattern.c; tools/fio/verify.c).  %o (verify_pattern only) is the
 * block's offset: its 8 bytes are zero here and offset_format is set.
 */
#define FIO_PATTERN_MAX	512	/* fio's MAX_PATTERN_SIZE */
struct fio_pattern {
	uint8_t bytes[FIO_PATTERN_MAX];
	size_t len;
	bool offset_format;
};

/*
 * fio_pattern_parse() - @s as fio's pattern syntax; @formats allows %o.
 * Return: 0, or -1 with the byte where it failed in @bad_at and what
 * was expected in @what.
 */
int fio_pattern_parse(const char *s, bool formats, struct fio_pattern *p,
		      size_t *bad_at, const char **what);

#endif /* WPSIM_TOOLS_FIO_VERIFY_H */
