/* SPDX-License-Identifier: MIT */
/*
 * sim_arena: the per-execution allocator.
 *
 * All model memory of one execution comes from here and is released at
 * once when the next execution starts.  Two backends: a bump region
 * (default: reset is one store) and a jemalloc arena reset with
 * "arena.<i>.reset" (when built with jemalloc; --allocator=jemalloc).
 */
#ifndef WPSIM_SIM_ARENA_H
#define WPSIM_SIM_ARENA_H

#include <stdbool.h>
#include <stddef.h>

enum sim_arena_backend {
	SIM_ARENA_BUMP,
	SIM_ARENA_JEMALLOC,
};

/* Select the backend; false when it is not built in. */
bool sim_arena_select(enum sim_arena_backend backend);
enum sim_arena_backend sim_arena_backend(void);
const char *sim_arena_backend_name(enum sim_arena_backend backend);

/* Zeroed memory, 16-byte aligned, valid until the next sim_arena_reset. */
void *sim_arena_alloc(size_t bytes);
char *sim_arena_strdup(const char *text);
/*
 * sim_arena_alloc, but a block given back earlier (sim_arena_free) and
 * handed out again has only its first @head bytes zeroed; the rest holds
 * what it held.  For a table whose every entry is written before it is
 * read (the kernel's slab memory is not zeroed either).
 */
void *sim_arena_alloc_head(size_t bytes, size_t head);
/*
 * Give back @bytes at @p (as allocated) for reuse by a later allocation
 * of the same size class (16-byte classes up to SIM_ARENA_RECYCLE_MAX
 * bytes, 1 KiB classes above it up to 16 KiB; larger blocks are not
 * reused before the reset).  For long timed runs whose
 * objects come and go, so memory follows what is alive.
 */
void sim_arena_free(void *p, size_t bytes);
#define SIM_ARENA_RECYCLE_MAX	4096
/* Release everything allocated since the last reset. */
void sim_arena_reset(void);

/*
 * @bytes of zeroed address space for a table that grows with a long
 * run (indexed by object id): pages are committed when first touched,
 * so it costs what is used and is never copied.  Outside the arena;
 * never freed.  NULL when the mapping fails.
 */
void *sim_reserve_zeroed(size_t bytes);

/*
 * The snapshot after setup (sim/engine.c): save the arena as it is (its
 * bytes and offsets; false under jemalloc or without memory), put it
 * back, count the bytes that differ from it (verification), drop it.
 */
bool sim_arena_setup_save(void);
void sim_arena_setup_restore(void);
size_t sim_arena_setup_diff(size_t *first);	/* @first: its offset */
void sim_arena_setup_drop(void);
size_t sim_arena_setup_bytes(void);

/* Accounting, for tests and benchmarks. */
size_t sim_arena_bytes_in_use(void);	/* since the last reset */
size_t sim_arena_bytes_reserved(void);	/* held from the system */

#endif /* WPSIM_SIM_ARENA_H */
