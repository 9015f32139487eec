// SPDX-License-Identifier: MIT
/*
 * sim/arena.c - the per-execution allocator.
 *
 * Models: nothing of the kernel.  Gives every execution a clean heap that
 * is thrown away in O(1) when the next execution starts, so an execution
 * abandoned midway (a failure, a pruned DPOR branch) leaks nothing.
 *
 * Bump backend: a list of chunks held across executions; reset rewinds
 * to the first chunk.  The chunks are the engine's own memory, mapped
 * anonymous (so zero when new): the first CHUNK_SMALL_COUNT are 1 MiB,
 * the later ones (a long timed run's) CHUNK_LARGE_BYTES with
 * transparent huge pages asked for (madvise), so that a run whose
 * memory grows takes a page fault per 2 MiB, not per 4 KiB.  Each chunk
 * remembers how far it was ever handed out (@used_bytes): memory past
 * that mark is still the kernel's zero fill and is not cleared again.
 * jemalloc backend: one explicitly created arena, allocations with
 * MALLOCX_TCACHE_NONE, "arena.<i>.reset" between executions.
 *
 * sim_arena_free: a block given back goes on a free list of its 16-byte
 * size class (up to SIM_ARENA_RECYCLE_MAX bytes), or of its BIG_GRAIN
 * (1 KiB) class up to BIG_MAX (16 KiB; since session 21), and is handed
 * out again, zeroed (sim_arena_alloc_head: only its first bytes), by the
 * next allocation of that class; the lists are emptied by the reset.  Long timed runs use it for objects that come
 * and go.  A larger block is not handed out again before the reset; the
 * bump backend gives its whole pages back to the host (MADV_DONTNEED).
 *
 * Leaves out: recycling blocks larger than BIG_MAX, and returning any
 * other memory to the system before the reset.
 */
#include "sim/arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef WPSIM_HAVE_JEMALLOC
#include <jemalloc/jemalloc.h>
#endif

#define CHUNK_BYTES	(1024 * 1024)
#define CHUNK_SMALL_COUNT 8	/* then CHUNK_LARGE_BYTES each */
#define CHUNK_LARGE_BYTES (64 * 1024 * 1024)
#define HUGE_PAGE_BYTES	(2 * 1024 * 1024)
#define CHUNKS_MAX	4096	/* past that an execution is broken */
#define CLASSES		(SIM_ARENA_RECYCLE_MAX / 16)
/*
 * Blocks past SIM_ARENA_RECYCLE_MAX up to BIG_MAX are recycled too, in
 * classes of BIG_GRAIN bytes (each such block is handed out rounded up
 * to its class), on the lists after the 16-byte classes' (issue 28,
 * session 21: a writeback bio's table of 256 bvecs, 6 KiB, came and went
 * per bio; past SIM_ARENA_RECYCLE_MAX each was left to the bump, so a
 * long run's memory grew with its bios: 7.3 GB for the 4 GiB iolog).
 */
#define BIG_GRAIN	1024
#define BIG_MAX		(16 * 1024)
#define BIG_CLASSES	((BIG_MAX - SIM_ARENA_RECYCLE_MAX) / BIG_GRAIN)
#define LISTS		(CLASSES + 1 + BIG_CLASSES)

/* The list of a block of @size bytes past SIM_ARENA_RECYCLE_MAX, up to
 * BIG_MAX, and its rounded size. */
static inline size_t big_list(size_t size)
{
	return CLASSES + (size - SIM_ARENA_RECYCLE_MAX + BIG_GRAIN - 1) /
			 BIG_GRAIN;
}

static inline size_t big_bytes(size_t size)
{
	return (size + BIG_GRAIN - 1) & ~(size_t)(BIG_GRAIN - 1);
}

struct chunk {
	char *base;
	size_t size_bytes;
	size_t used_bytes;	/* ever handed out: zero past it */
};

static struct {
	enum sim_arena_backend backend;
	struct chunk chunks[CHUNKS_MAX];
	unsigned int chunk_count;
	unsigned int chunk_current;
	size_t offset;
	size_t in_use_bytes;
	size_t reserved_bytes;
	/* by (bytes + 15) / 16; then big_list's */
	void *free_list[LISTS];
	bool freed;			/* a list may be non-empty */
#ifdef WPSIM_HAVE_JEMALLOC
	unsigned int je_arena;
	bool je_ready;
#endif
} A;

const char *sim_arena_backend_name(enum sim_arena_backend backend)
{
	return backend == SIM_ARENA_JEMALLOC ? "jemalloc" : "bump";
}

enum sim_arena_backend sim_arena_backend(void)
{
	return A.backend;
}

bool sim_arena_select(enum sim_arena_backend backend)
{
#ifdef WPSIM_HAVE_JEMALLOC
	if (backend == SIM_ARENA_JEMALLOC && !A.je_ready) {
		size_t size = sizeof(A.je_arena);

		if (mallctl("arenas.create", &A.je_arena, &size, NULL, 0) != 0)
			return false;
		A.je_ready = true;
	}
#else
	if (backend == SIM_ARENA_JEMALLOC)
		return false;
#endif
	sim_arena_reset();
	A.backend = backend;
	return true;
}

/* Anonymous memory (zero), at a huge-page boundary when it is large. */
static char *chunk_map(size_t bytes)
{
	size_t align = bytes >= HUGE_PAGE_BYTES ? HUGE_PAGE_BYTES : 0;
	char *p = mmap(NULL, bytes + align, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uintptr_t skip;

	if (p == MAP_FAILED)
		return NULL;
	if (!align)
		return p;
	skip = (align - (uintptr_t)p % align) % align;
	if (skip)
		munmap(p, skip);
	if (align - skip)
		munmap(p + skip + bytes, align - skip);
	p += skip;
#ifdef MADV_HUGEPAGE
	madvise(p, bytes, MADV_HUGEPAGE);
#endif
	return p;
}

/* @bytes (a multiple of 16) of the current chunk, zeroed. */
static void *bump_alloc(size_t bytes)
{
	struct chunk *chunk;

	for (;;) {
		if (A.chunk_current < A.chunk_count) {
			chunk = &A.chunks[A.chunk_current];
			if (A.offset + bytes <= chunk->size_bytes) {
				char *p = chunk->base + A.offset;
				size_t end = A.offset + bytes;

				/* Only what an earlier execution (or a
				 * block before the reset) touched. */
				if (A.offset < chunk->used_bytes)
					memset(p, 0, (end < chunk->used_bytes ?
						      end : chunk->used_bytes) -
						     A.offset);
				if (end > chunk->used_bytes)
					chunk->used_bytes = end;
				A.offset = end;
				return p;
			}
			A.chunk_current++;
			A.offset = 0;
			continue;
		}
		if (A.chunk_count == CHUNKS_MAX) {
			fprintf(stderr, "wpsim: arena: more than %u chunks "
				"in one execution\n", CHUNKS_MAX);
			abort();
		}
		chunk = &A.chunks[A.chunk_count];
		chunk->size_bytes = A.chunk_count < CHUNK_SMALL_COUNT ?
				    CHUNK_BYTES : CHUNK_LARGE_BYTES;
		if (bytes > chunk->size_bytes)
			chunk->size_bytes = (bytes + HUGE_PAGE_BYTES - 1) &
					    ~(size_t)(HUGE_PAGE_BYTES - 1);
		chunk->base = chunk_map(chunk->size_bytes);
		chunk->used_bytes = 0;
		if (!chunk->base) {
			fprintf(stderr, "wpsim: arena: out of memory\n");
			abort();
		}
		A.reserved_bytes += chunk->size_bytes;
		A.chunk_count++;
	}
}

void *sim_reserve_zeroed(size_t bytes)
{
	char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	/* Huge pages past the first 4 MiB (what exploration's few
	 * thousand ids use stays in small pages). */
	{
		uintptr_t from = ((uintptr_t)p + 2 * HUGE_PAGE_BYTES +
				  HUGE_PAGE_BYTES - 1) &
				 ~(uintptr_t)(HUGE_PAGE_BYTES - 1);

		if (from < (uintptr_t)p + bytes)
			madvise((void *)from, (uintptr_t)p + bytes - from,
				MADV_HUGEPAGE);
	}
#endif
	return p;
}

/*
 * sim_arena_alloc's path for all but a fresh block of the current bump
 * chunk: a recycled block, jemalloc, the next chunk.  Out of line, so
 * that the exploring executions' allocations run a few cache lines of
 * code (the model calls it between its own code; session 20).
 */
static __attribute__((noinline, cold)) void *arena_alloc_slow(size_t bytes,
								size_t head)
{
	size_t class = (bytes + 15) / 16, asked = bytes;
	void *p;

	if (bytes > SIM_ARENA_RECYCLE_MAX && bytes <= BIG_MAX) {
		size_t list = big_list(bytes), size = big_bytes(bytes);

		if (A.freed && A.free_list[list]) {
			p = A.free_list[list];
			A.free_list[list] = *(void **)p;
			memset(p, 0, head < size ? head : size);
			A.in_use_bytes += asked;
			return p;
		}
		class = size / 16;	/* what the bump hands out */
		bytes = size;
	}
	if (A.freed && class <= CLASSES && A.free_list[class]) {
		p = A.free_list[class];
		A.free_list[class] = *(void **)p;
		memset(p, 0, head < class * 16 ? head : class * 16);
		A.in_use_bytes += asked;
		return p;
	}
#ifdef WPSIM_HAVE_JEMALLOC
	if (A.backend == SIM_ARENA_JEMALLOC) {
		p = mallocx(bytes, MALLOCX_ARENA(A.je_arena) |
			    MALLOCX_TCACHE_NONE | MALLOCX_ZERO |
			    MALLOCX_ALIGN(16));
		if (!p) {
			fprintf(stderr, "wpsim: arena: out of memory\n");
			abort();
		}
		A.in_use_bytes += asked;
		return p;
	}
#endif
	p = bump_alloc(class * 16);
	A.in_use_bytes += asked;
	return p;
}

void *sim_arena_alloc(size_t bytes)
{
	struct chunk *chunk = &A.chunks[A.chunk_current];
	size_t size, end;
	char *p;

	if (bytes == 0)
		bytes = 1;
	size = (bytes + 15) & ~(size_t)15;
	end = A.offset + size;
	/* Not a block of big_list's, no block of its class to recycle,
	 * the bump backend, room in the chunk. */
	if (__builtin_expect(size > SIM_ARENA_RECYCLE_MAX ||
			     (A.freed && A.free_list[size / 16]) ||
			     A.backend != SIM_ARENA_BUMP ||
			     A.chunk_current >= A.chunk_count ||
			     end > chunk->size_bytes, 0))
		return arena_alloc_slow(bytes, SIZE_MAX);
	p = chunk->base + A.offset;
	/* Only what an earlier execution (or a block before the reset)
	 * touched is cleared (bump_alloc). */
	if (A.offset < chunk->used_bytes)
		memset(p, 0, (end < chunk->used_bytes ? end :
			      chunk->used_bytes) - A.offset);
	if (end > chunk->used_bytes)
		chunk->used_bytes = end;
	A.offset = end;
	A.in_use_bytes += bytes;
	return p;
}

/*
 * sim_arena_alloc whose recycled block has only its first @head bytes
 * cleared (issue 28, session 24): for an object whose caller sets its
 * header and writes each entry of its table before reading it, as the
 * kernel's slab objects are not zeroed (a bio's bvecs: bvec_alloc,
 * block/bio.c, v6.18).  A block of the bump is zeroed as
 * sim_arena_alloc's; the same block, the same size and the same counts
 * as sim_arena_alloc would give.  Without a freed block (every
 * exploration that recycles nothing) it is sim_arena_alloc.
 */
void *sim_arena_alloc_head(size_t bytes, size_t head)
{
	if (!A.freed)
		return sim_arena_alloc(bytes);
	return arena_alloc_slow(bytes ? bytes : 1, head);
}

/*
 * Pages [@from, @to) of a freed block leave a huge-page chunk's
 * transparent huge pages (MADV_NOHUGEPAGE): else the kernel's khugepaged
 * collapses each 2 MiB around the hole, with its live neighbours, into a
 * huge page again and fills the hole with zeroes, so that the RSS of a
 * long run grew with its run time, not with what it holds (issue 28: a
 * random run over a 1 GiB file, 6.8 MB more at 4 s than at 2 s, its live
 * bytes the same).  Each call may split the chunk's mapping, so at most
 * HUGE_OFF_MAX of them (the kernel's vm.max_map_count is 65 530); past
 * that a hole may be filled again.
 */
#define HUGE_OFF_MAX	4096
static void huge_off(uintptr_t from, uintptr_t to)
{
#ifdef MADV_NOHUGEPAGE
	static unsigned int calls;

	if (calls == HUGE_OFF_MAX)
		return;
	calls++;
	madvise((void *)from, to - from, MADV_NOHUGEPAGE);
#else
	(void)from;
	(void)to;
#endif
}

void sim_arena_free(void *p, size_t bytes)
{
	size_t class;

	if (!p)
		return;
	if (bytes == 0)
		bytes = 1;
	class = (bytes + 15) / 16;
	A.in_use_bytes -= bytes < A.in_use_bytes ? bytes : A.in_use_bytes;
	if (class > CLASSES && bytes <= BIG_MAX) {
		size_t list = big_list(bytes);

		*(void **)p = A.free_list[list];
		A.free_list[list] = p;
		A.freed = true;
		return;
	}
	if (class > CLASSES) {
		/* Never handed out again in this execution (the bump only
		 * goes on): give its whole pages back to the host, so a
		 * table that doubled does not keep its old copies resident
		 * (issue 28's bytes per cached page).  They read as zero
		 * again, and a later execution clears what it reuses. */
		if (A.backend == SIM_ARENA_BUMP) {
			uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
			uintptr_t from = ((uintptr_t)p + page - 1) &
					 ~(page - 1);
			uintptr_t to = ((uintptr_t)p + class * 16) &
				       ~(page - 1);

			if (to > from) {
				huge_off(from, to);
				madvise((void *)from, to - from,
					MADV_DONTNEED);
			}
		}
		return;
	}
	*(void **)p = A.free_list[class];
	A.free_list[class] = p;
	A.freed = true;
}

char *sim_arena_strdup(const char *text)
{
	size_t len = strlen(text) + 1;
	char *copy = sim_arena_alloc(len);

	memcpy(copy, text, len);
	return copy;
}

void sim_arena_reset(void)
{
#ifdef WPSIM_HAVE_JEMALLOC
	if (A.backend == SIM_ARENA_JEMALLOC && A.in_use_bytes) {
		char name[64];

		snprintf(name, sizeof(name), "arena.%u.reset", A.je_arena);
		if (mallctl(name, NULL, NULL, NULL, 0) != 0) {
			fprintf(stderr, "wpsim: arena: %s failed\n", name);
			abort();
		}
	}
#endif
	A.chunk_current = 0;
	A.offset = 0;
	A.in_use_bytes = 0;
	if (A.freed)
		memset(A.free_list, 0, sizeof(A.free_list));
	A.freed = false;
}

/*
 * The arena as setup left it (sim/engine.c's snapshot after setup): the
 * bytes handed out so far, kept once per search as runs of zero blocks
 * and of data (most of what setup allocates is zero: tables it sized),
 * and put back before each execution with the same offsets, so every
 * pointer setup stored (into the arena or into a static) is valid
 * again.  Bump backend only.
 */
#define SETUP_BLOCK	64	/* bytes: a run's granule */

struct setup_run {
	char *to;		/* in a chunk */
	size_t bytes;
	const char *from;	/* in setup_copy.data, NULL: zero */
};

static struct {
	bool taken;
	unsigned int chunk_current;
	size_t offset;
	size_t in_use_bytes;
	size_t bytes;		/* of the chunks' parts */
	char *data;		/* the runs' nonzero bytes */
	struct setup_run *runs;
	size_t run_count;
	void *free_list[LISTS];
	bool freed;
} setup_copy;

/* The length of chunk @i's part of the snapshot. */
static size_t setup_part(unsigned int i)
{
	return i < setup_copy.chunk_current ? A.chunks[i].size_bytes :
	       setup_copy.offset;
}

static bool block_zero(const char *p, size_t bytes)
{
	for (size_t b = 0; b < bytes; b++)
		if (p[b])
			return false;
	return true;
}

/* Add [p, p + bytes) to the runs (@count them only when !fill). */
static void setup_runs_add(char *p, size_t bytes, bool fill, size_t *runs,
			   size_t *data)
{
	for (size_t at = 0; at < bytes; at += SETUP_BLOCK) {
		size_t n = bytes - at < SETUP_BLOCK ? bytes - at : SETUP_BLOCK;
		bool zero = block_zero(p + at, n);
		struct setup_run *last = *runs ? &setup_copy.runs[*runs - 1] :
					 NULL;

		if (fill && last && last->to + last->bytes == p + at &&
		    (last->from == NULL) == zero) {
			last->bytes += n;
		} else if (fill) {
			setup_copy.runs[*runs] = (struct setup_run){
				p + at, n, zero ? NULL :
					   setup_copy.data + *data };
			++*runs;
		} else {
			++*runs;	/* at most one per block */
		}
		if (!zero) {
			if (fill)
				memcpy(setup_copy.data + *data, p + at, n);
			*data += n;
		}
	}
}

bool sim_arena_setup_save(void)
{
	size_t bytes = 0, runs = 0, data = 0;
	unsigned int last;

	sim_arena_setup_drop();
	if (A.backend != SIM_ARENA_BUMP)
		return false;
	setup_copy.chunk_current = A.chunk_current;
	setup_copy.offset = A.offset;
	if (A.chunk_current >= A.chunk_count)	/* nothing allocated */
		setup_copy.offset = 0;
	last = setup_copy.chunk_current < A.chunk_count ?
	       setup_copy.chunk_current + 1 : A.chunk_count;
	for (unsigned int i = 0; i < last; i++) {
		bytes += setup_part(i);
		setup_runs_add(A.chunks[i].base, setup_part(i), false, &runs,
			       &data);
	}
	setup_copy.runs = malloc((runs ? runs : 1) *
				 sizeof(*setup_copy.runs));
	setup_copy.data = malloc(data ? data : 1);
	if (!setup_copy.runs || !setup_copy.data) {
		sim_arena_setup_drop();
		return false;
	}
	runs = data = 0;
	for (unsigned int i = 0; i < last; i++)
		setup_runs_add(A.chunks[i].base, setup_part(i), true, &runs,
			       &data);
	setup_copy.run_count = runs;
	setup_copy.bytes = bytes;
	setup_copy.in_use_bytes = A.in_use_bytes;
	memcpy(setup_copy.free_list, A.free_list, sizeof(A.free_list));
	setup_copy.freed = A.freed;
	setup_copy.taken = true;
	return true;
}

void sim_arena_setup_restore(void)
{
	for (size_t r = 0; r < setup_copy.run_count; r++) {
		const struct setup_run *run = &setup_copy.runs[r];

		if (run->from)
			memcpy(run->to, run->from, run->bytes);
		else
			memset(run->to, 0, run->bytes);
	}
	A.chunk_current = setup_copy.chunk_current;
	A.offset = setup_copy.offset;
	A.in_use_bytes = setup_copy.in_use_bytes;
	/* The free lists (2 KiB): copied only when setup left a block on
	 * one, else emptied only when the execution put one there (all
	 * are empty while !A.freed). */
	if (setup_copy.freed)
		memcpy(A.free_list, setup_copy.free_list, sizeof(A.free_list));
	else if (A.freed)
		memset(A.free_list, 0, sizeof(A.free_list));
	A.freed = setup_copy.freed;
}

size_t sim_arena_setup_diff(size_t *first)
{
	size_t differ = 0, at = 0;

	*first = 0;
	if (A.chunk_current != setup_copy.chunk_current ||
	    A.offset != setup_copy.offset)
		return 1;
	for (size_t r = 0; r < setup_copy.run_count; r++) {
		const struct setup_run *run = &setup_copy.runs[r];

		for (size_t b = 0; b < run->bytes; b++) {
			char want = run->from ? run->from[b] : 0;

			if (run->to[b] == want)
				continue;
			if (!differ)
				*first = at + b;
			differ++;
		}
		at += run->bytes;
	}
	return differ;
}

void sim_arena_setup_drop(void)
{
	free(setup_copy.runs);
	free(setup_copy.data);
	setup_copy.runs = NULL;
	setup_copy.data = NULL;
	setup_copy.run_count = 0;
	setup_copy.taken = false;
}

size_t sim_arena_setup_bytes(void)
{
	return setup_copy.taken ? setup_copy.bytes : 0;
}

size_t sim_arena_bytes_in_use(void)
{
	return A.in_use_bytes;
}

size_t sim_arena_bytes_reserved(void)
{
#ifdef WPSIM_HAVE_JEMALLOC
	if (A.backend == SIM_ARENA_JEMALLOC && A.je_ready) {
		char name[64];
		size_t pactive = 0, size = sizeof(pactive);
		uint64_t epoch = 1;
		size_t esize = sizeof(epoch);

		mallctl("epoch", &epoch, &esize, &epoch, esize);
		snprintf(name, sizeof(name), "stats.arenas.%u.pactive",
			 A.je_arena);
		if (mallctl(name, &pactive, &size, NULL, 0) == 0)
			return pactive * 4096;
		return 0;
	}
#endif
	return A.reserved_bytes;
}
