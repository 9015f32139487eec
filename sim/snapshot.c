// SPDX-License-Identifier: MIT
/*
 * sim/snapshot.c - the regions outside the arena that a program's setup
 * writes (include/sim/snapshot.h), and the verification of a restore.
 *
 * Models: nothing of the kernel.  The engine (sim/engine.c) takes the
 * snapshot after the first setup of a search and restores it before
 * every later execution; this file keeps the statics that setup
 * registered (sim_setup_static), with a copy of each.
 *
 * Verification compares, after a restore and after a real setup from
 * the same start, every registered region and the whole static data of
 * the program (from __data_start to _end: every file-scope and
 * function-local static of the engine, the model and the program, but
 * this file's own state), so that a static setup writes and nobody
 * registered is found by a test, not by a wrong result.
 *
 * Leaves out: memory that setup mallocs (the model may not: STYLE.md
 * "Shared state goes through the engine"); a program that does must not
 * set setup_snapshot.
 */
#include "sim/snapshot-internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct region {
	void *addr;
	size_t bytes;
	const char *name;
	void *copy;		/* as setup left it */
	void *seen;		/* verification: as the restore left it */
	bool left_out;		/* sim_setup_snapshot_leave_out: saved, not
				 * restored */
};

/* The program's static data, from the ELF linker's symbols. */
extern char __data_start[] __attribute__((weak));
extern char _end[] __attribute__((weak));

static struct {
	bool disabled;
	bool verify;
	bool taking;
	const char *leave_out;
	struct region *r;
	uint32_t n, cap;
	unsigned long restores;
	bool ids_low_set;	/* sim_snapshot_id_written: ids_low is */
	uint32_t ids_low;	/* the lowest id written (else 0: all) */
	char *data;		/* verification's copy of the static data */
	size_t data_bytes;
	void (*allowed[8])(void *config);
} S;

void sim_setup_snapshot_allow(void (*setup)(void *config))
{
	for (unsigned int i = 0; i < 8; i++) {
		if (S.allowed[i] == setup)
			return;
		if (!S.allowed[i]) {
			S.allowed[i] = setup;
			return;
		}
	}
}

bool sim_setup_snapshot_allowed(void (*setup)(void *config))
{
	for (unsigned int i = 0; i < 8 && S.allowed[i]; i++)
		if (S.allowed[i] == setup)
			return true;
	return false;
}

void sim_setup_static(void *addr, size_t bytes, const char *name)
{
	struct region *r;

	if (!S.taking || !bytes)
		return;
	for (uint32_t i = 0; i < S.n; i++)
		if (S.r[i].addr == addr) {
			if (S.r[i].bytes < bytes)
				S.r[i].bytes = bytes;
			return;
		}
	if (S.n == S.cap) {
		uint32_t cap = S.cap ? 2 * S.cap : 32;

		r = realloc(S.r, cap * sizeof(*r));
		if (!r) {
			fprintf(stderr, "wpsim: snapshot: out of memory\n");
			exit(2);
		}
		S.r = r;
		S.cap = cap;
	}
	S.r[S.n++] = (struct region){ addr, bytes, name, NULL, NULL, false };
}

void sim_setup_snapshot_enable(bool on)
{
	S.disabled = !on;
}

bool sim_setup_snapshot_enabled(void)
{
	return !S.disabled;
}

void sim_setup_snapshot_verify(bool on)
{
	S.verify = on;
}

void sim_setup_snapshot_leave_out(const char *name)
{
	S.leave_out = name;
}

unsigned long sim_setup_snapshot_restores(void)
{
	return S.restores;
}

bool sim_snapshot_verifying(void)
{
	return S.verify;
}

bool sim_snapshot_left_out(const char *name)
{
	return S.leave_out && strcmp(S.leave_out, name) == 0;
}

void sim_snapshot_id_written(uint32_t id)
{
	if (id < S.ids_low)
		S.ids_low = id;
}

uint32_t sim_snapshot_ids_written_from(void)
{
	uint32_t low = S.ids_low_set ? S.ids_low : 0;

	S.ids_low_set = true;
	S.ids_low = UINT32_MAX;
	return low;
}

void sim_snapshot_counted_restore(void)
{
	S.restores++;
}

void sim_snapshot_regions_clear(void)
{
	for (uint32_t i = 0; i < S.n; i++) {
		free(S.r[i].copy);
		free(S.r[i].seen);
	}
	S.n = 0;
	S.taking = false;
}

void sim_snapshot_regions_taking(bool on)
{
	S.taking = on;
}

bool sim_snapshot_regions_save(void)
{
	for (uint32_t i = 0; i < S.n; i++) {
		struct region *r = &S.r[i];

		free(r->copy);
		r->copy = malloc(r->bytes);
		if (!r->copy)
			return false;
		memcpy(r->copy, r->addr, r->bytes);
		r->left_out = S.leave_out && strcmp(r->name, S.leave_out) == 0;
	}
	return true;
}

void sim_snapshot_regions_restore(void)
{
	for (uint32_t i = 0; i < S.n; i++)
		if (!S.r[i].left_out)
			memcpy(S.r[i].addr, S.r[i].copy, S.r[i].bytes);
}

bool sim_snapshot_regions_seen(void)
{
	for (uint32_t i = 0; i < S.n; i++) {
		struct region *r = &S.r[i];

		if (!r->seen)
			r->seen = malloc(r->bytes);
		if (!r->seen)
			return false;
		memcpy(r->seen, r->addr, r->bytes);
	}
	return true;
}

size_t sim_snapshot_regions_diff(char *why, size_t size)
{
	size_t differ = 0;

	for (uint32_t i = 0; i < S.n; i++) {
		const struct region *r = &S.r[i];
		const unsigned char *now = r->addr, *seen = r->seen;
		size_t here = 0;

		for (size_t b = 0; b < r->bytes; b++)
			here += now[b] != seen[b];
		if (here && !differ)
			snprintf(why, size, "static %s (%zu of %zu bytes)",
				 r->name, here, r->bytes);
		differ += here;
	}
	return differ;
}

/* AddressSanitizer poisons the red zones between globals: the static
 * data cannot be read whole (gcc's __SANITIZE_ADDRESS__; clang's
 * feature test). */
#if defined(__SANITIZE_ADDRESS__)
#define DATA_VERIFIED false
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DATA_VERIFIED false
#endif
#endif
#ifndef DATA_VERIFIED
#define DATA_VERIFIED true
#endif

bool sim_setup_snapshot_data_verified(void)
{
	return DATA_VERIFIED;
}

static bool data_range(char **from, size_t *bytes)
{
	if (!DATA_VERIFIED)
		return false;
	if (!__data_start || !_end ||
	    (uintptr_t)_end <= (uintptr_t)__data_start)
		return false;
	*from = __data_start;
	*bytes = (size_t)(_end - __data_start);
	return true;
}

/* This file's own state is not the program's. */
static bool own(size_t offset, const char *base)
{
	const char *p = base + offset;

	return p >= (const char *)&S && p < (const char *)(&S + 1);
}

bool sim_snapshot_data_take(void)
{
	char *from;
	size_t bytes;

	if (!data_range(&from, &bytes))
		return false;
	if (S.data_bytes != bytes) {
		free(S.data);
		S.data = malloc(bytes);
		S.data_bytes = S.data ? bytes : 0;
		if (!S.data)
			return false;
	}
	memcpy(S.data, from, bytes);
	return true;
}

size_t sim_snapshot_data_diff(char *why, size_t size)
{
	char *from;
	size_t bytes, differ = 0;

	if (!data_range(&from, &bytes) || bytes != S.data_bytes)
		return 0;
	for (size_t b = 0; b < bytes; b++) {
		if ((b & 4095) == 0 && bytes - b >= 4096 &&
		    memcmp(from + b, S.data + b, 4096) == 0) {
			b += 4095;	/* a page the same: skip it */
			continue;
		}
		if (from[b] == S.data[b] || own(b, from))
			continue;
		if (!differ)
			snprintf(why, size, "static data at __data_start+%#zx "
				 "(%p; nm -n the binary)", b,
				 (void *)(from + b));
		differ++;
	}
	return differ;
}
