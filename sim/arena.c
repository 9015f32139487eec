// SPDX-License-Identifier: MIT
/*
 * sim/arena.c - the per-execution allocator.
 *
 * Models: nothing of the kernel.  Gives every execution a clean heap that
 * is thrown away in O(1) when the next execution starts, so an execution
 * abandoned midway (a failure, a pruned DPOR branch) leaks nothing.
 *
 * Bump backend: a list of 1 MiB chunks held across executions; reset
 * rewinds to the first chunk.  The chunks are the engine's own memory,
 * taken with malloc() outside any execution.
 * jemalloc backend: one explicitly created arena, allocations with
 * MALLOCX_TCACHE_NONE, "arena.<i>.reset" between executions.
 *
 * sim_arena_free: a block given back goes on a free list of its 16-byte
 * size class (up to SIM_ARENA_RECYCLE_MAX bytes) and is handed out again,
 * zeroed, by the next allocation of that class; the lists are emptied by
 * the reset.  Long timed runs use it for objects that come and go.
 *
 * Leaves out: returning memory to the system before the reset, and
 * recycling blocks larger than SIM_ARENA_RECYCLE_MAX.
 */
#include "sim/arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef WPSIM_HAVE_JEMALLOC
#include <jemalloc/jemalloc.h>
#endif

#define CHUNK_BYTES	(1024 * 1024)
#define CHUNKS_MAX	4096	/* 4 GiB: past that an execution is broken */
#define CLASSES		(SIM_ARENA_RECYCLE_MAX / 16)

struct chunk {
	char *base;
	size_t size_bytes;
};

static struct {
	enum sim_arena_backend backend;
	struct chunk chunks[CHUNKS_MAX];
	unsigned int chunk_count;
	unsigned int chunk_current;
	size_t offset;
	size_t in_use_bytes;
	size_t reserved_bytes;
	void *free_list[CLASSES + 1];	/* by (bytes + 15) / 16 */
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

static void *bump_alloc(size_t bytes)
{
	struct chunk *chunk;

	bytes = (bytes + 15) & ~(size_t)15;
	for (;;) {
		if (A.chunk_current < A.chunk_count) {
			chunk = &A.chunks[A.chunk_current];
			if (A.offset + bytes <= chunk->size_bytes) {
				void *p = chunk->base + A.offset;

				A.offset += bytes;
				return p;
			}
			A.chunk_current++;
			A.offset = 0;
			continue;
		}
		if (A.chunk_count == CHUNKS_MAX) {
			fprintf(stderr, "wpsim: arena: more than %u chunks of "
				"%u bytes in one execution\n", CHUNKS_MAX,
				CHUNK_BYTES);
			abort();
		}
		chunk = &A.chunks[A.chunk_count];
		chunk->size_bytes = bytes > CHUNK_BYTES ? bytes : CHUNK_BYTES;
		chunk->base = aligned_alloc(16, chunk->size_bytes);
		if (!chunk->base) {
			fprintf(stderr, "wpsim: arena: out of memory\n");
			abort();
		}
		A.reserved_bytes += chunk->size_bytes;
		A.chunk_count++;
	}
}

void *sim_arena_alloc(size_t bytes)
{
	size_t class;
	void *p;

	if (bytes == 0)
		bytes = 1;
	class = (bytes + 15) / 16;
	if (A.freed && class <= CLASSES && A.free_list[class]) {
		p = A.free_list[class];
		A.free_list[class] = *(void **)p;
		memset(p, 0, class * 16);
		A.in_use_bytes += bytes;
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
		A.in_use_bytes += bytes;
		return p;
	}
#endif
	p = bump_alloc(bytes);
	memset(p, 0, bytes);
	A.in_use_bytes += bytes;
	return p;
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
	if (class > CLASSES)
		return;
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
