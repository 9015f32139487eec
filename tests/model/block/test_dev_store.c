// SPDX-License-Identifier: MIT
/*
 * tests/model/block/test_dev_store.c - the device's content store
 * (model/block/bio.c: m_dev_data, m_dev_data_set, m_dev_data_write,
 * m_dev_data_read, m_dev_data_read_folio's reads).
 *
 * Not a kernel function: the model's memory of what each sector holds
 * (a write id), which every check of lost or stale data reads.  The
 * store keeps runs of blocks with one id (a file's layout, zeroes), a
 * table of the blocks written since, hashed by block number, and in a
 * long run a block of one 4 KiB chunk in its table entry, then a list
 * of chunks, then an id per chunk, then (a write of part of a chunk) an
 * id per sector (issue 28: memory that follows the
 * blocks written, not the device's size).  Pseudo-random writes of one
 * id (whole blocks, many blocks: runs; chunks; parts of a chunk) and of
 * an id per sector, over a device of 75 blocks, in both layouts (long
 * run and exploration), with the table indexed by block number (a
 * small device's) and hashed (a large one's: m_dev_direct_max lowered),
 * are compared after each with a shadow array of every sector, read
 * back one sector at a time and as ranges; then every chunk of one block
 * written alone, and part of one chunk.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "model/linux/bio.h"
#include "model/world.h"
#include "sim/arena.h"
#include "wpsim/harness.h"

#define STORE_PAGES	1200UL

static struct wpsim_race T;

static uint64_t rng_next(uint64_t *rng)
{
	*rng = *rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return *rng >> 17;
}

static void store_compare(const struct m_blkdev *dev, const uint32_t *shadow,
			  sector_t sectors, uint64_t *rng)
{
	uint32_t buf[2048];
	sector_t s, n;

	for (s = 0; s < sectors; s++)
		if (m_dev_data(dev, s) != shadow[s])
			sim_fail(SIM_FAIL_ASSERT, "sector %llu holds %u, not "
				 "%u", (unsigned long long)s,
				 m_dev_data(dev, s), shadow[s]);
	s = rng_next(rng) % sectors;
	n = 1 + rng_next(rng) % 2048;
	if (s + n > sectors)
		n = sectors - s;
	m_dev_data_read(dev, s, buf, n);
	SIM_ASSERT(memcmp(buf, shadow + s, n * sizeof(*buf)) == 0);
}

static void store_task(void *arg)
{
	struct m_blkdev *dev = &m_world()->dev;
	sector_t sectors = dev->nr_sectors;
	uint32_t *shadow = sim_arena_alloc(sectors * sizeof(*shadow));
	uint32_t *ids = sim_arena_alloc(4096 * sizeof(*ids));
	uint64_t rng = 0x853c49e6748fea9bULL;
	uint32_t next_id = 1000;

	dev->sparse = arg != NULL;
	m_dev_data_read(dev, 0, shadow, sectors);
	for (int op = 0; op < 400; op++) {
		uint64_t kind = rng_next(&rng) % 8;
		sector_t s, n;

		switch (kind) {
		case 0:		/* many whole blocks: runs */
			s = (rng_next(&rng) % dev->blocks) << M_DEV_BLOCK_SHIFT;
			n = (16 + rng_next(&rng) % 40) << M_DEV_BLOCK_SHIFT;
			break;
		case 1:		/* a few whole blocks */
			s = (rng_next(&rng) % dev->blocks) << M_DEV_BLOCK_SHIFT;
			n = (1 + rng_next(&rng) % 3) << M_DEV_BLOCK_SHIFT;
			break;
		case 2:		/* part of a chunk */
			s = rng_next(&rng) % sectors;
			n = 1 + rng_next(&rng) % 7;
			break;
		default:	/* 4 KiB chunks, a few */
			s = (rng_next(&rng) % (sectors / M_DEV_CHUNK)) *
			    M_DEV_CHUNK;
			n = (1 + rng_next(&rng) % 4) * M_DEV_CHUNK;
			break;
		}
		if (s + n > sectors)
			n = sectors - s;
		/* Now and then the id a block held, or zeroes. */
		next_id++;
		if (kind != 0 && rng_next(&rng) % 4 == 0) {
			uint32_t id = rng_next(&rng) % 2 ? 0 : shadow[s];

			m_dev_data_set(dev, s, n, id);
			for (sector_t k = 0; k < n; k++)
				shadow[s + k] = id;
		} else if (kind >= 3 && n <= 4096 && rng_next(&rng) % 3 == 0) {
			/* An id per sector, chunks of one id among them. */
			for (sector_t k = 0; k < n; k++)
				ids[k] = next_id + (k / M_DEV_CHUNK) *
					 (rng_next(&rng) % 2);
			m_dev_data_write(dev, s, ids, n);
			memcpy(shadow + s, ids, n * sizeof(*ids));
			next_id += (uint32_t)(n / M_DEV_CHUNK) + 1;
		} else {
			m_dev_data_set(dev, s, n, next_id);
			for (sector_t k = 0; k < n; k++)
				shadow[s + k] = next_id;
		}
		store_compare(dev, shadow, sectors, &rng);
	}
	/* Every chunk of block 3 written alone, an id each (a long run:
	 * one, a list, then an id per chunk), every other one again by
	 * m_dev_data_write; then part of a chunk (an id per sector). */
	for (sector_t c = 0; c < M_DEV_BLOCK / M_DEV_CHUNK; c++) {
		sector_t first = 3 * M_DEV_BLOCK + c * M_DEV_CHUNK;

		m_dev_data_set(dev, first, M_DEV_CHUNK, ++next_id);
		for (sector_t k = 0; k < M_DEV_CHUNK; k++)
			shadow[first + k] = next_id;
		if (c % 2) {
			for (sector_t k = 0; k < M_DEV_CHUNK; k++)
				ids[k] = next_id + 7;
			m_dev_data_write(dev, first - M_DEV_CHUNK, ids,
					 M_DEV_CHUNK);
			memcpy(shadow + first - M_DEV_CHUNK, ids,
			       M_DEV_CHUNK * sizeof(*ids));
		}
		store_compare(dev, shadow, sectors, &rng);
	}
	m_dev_data_set(dev, 3 * M_DEV_BLOCK + 5 * M_DEV_CHUNK + 2, 3,
		       ++next_id);
	for (sector_t k = 0; k < 3; k++)
		shadow[3 * M_DEV_BLOCK + 5 * M_DEV_CHUNK + 2 + k] = next_id;
	store_compare(dev, shadow, sectors, &rng);
}

static void store_run(bool long_run, bool hashed)
{
	unsigned long saved = m_file_pages_max;
	struct sim_outcome o;

	m_file_pages_max = STORE_PAGES;
	m_dev_direct_max = hashed ? 0 : M_DEV_DIRECT_MAX;
	wpsim_race_init(&T, "dev-store");
	T.skip_quiescent_check = true;
	T.skip_lost_data_check = true;
	/* A file of written blocks: the layout's run. */
	T.world.files[0].size = 600 * 4096;
	wpsim_race_task(&T, "P0", store_task, long_run ? &T : NULL);
	wpsim_race_replay(&T, "-", &o);
	m_file_pages_max = saved;
	m_dev_direct_max = M_DEV_DIRECT_MAX;
	cr_assert_eq(o.kind, SIM_OK, "%s: %s", sim_failure_kind_name(o.kind),
		     o.message);
}

Test(dev_store, long_run_layout_reads_what_was_written)
{
	store_run(true, false);
}

Test(dev_store, exploration_layout_reads_what_was_written)
{
	store_run(false, false);
}

/* The same through the hashed table of a large device. */
Test(dev_store, long_run_layout_hashed_reads_what_was_written)
{
	store_run(true, true);
}

Test(dev_store, exploration_layout_hashed_reads_what_was_written)
{
	store_run(false, true);
}
