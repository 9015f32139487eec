// SPDX-License-Identifier: MIT
/*
 * model/block/bio.c - bios and the block device, untimed.
 *
 * Models block/bio.c (bio_alloc, bio_add_folio, submit_bio_wait,
 * bio_endio) and block/blk-core.c (submit_bio) of v6.18 for what the write
 * path observes: a bio is submitted, then completes later, in any order
 * against everything else.  Completion is an engine event
 * (sim_event_post): the strategy decides when it runs, like an interrupt.
 * The device keeps one write id per 512-byte sector; a completion records
 * the sector range it reads or writes (sim_word_touch_range), so DPOR
 * sees transfers to disjoint sectors as independent.  A write's data is
 * copied from its folios when the completion runs (DMA reads the page
 * while the I/O is in flight, so a folio changed during writeback can
 * reach the disk — the stable-pages hazard).  Reads count 4 KiB device
 * page reads.
 *
 * Error injection: the Nth bio submitted (1-based), or any bio touching
 * a sector range, completes with -EIO and transfers nothing.
 *
 * Leaves out: queues, merging, plugging, latency (wave 2: the NVMe
 * model), partial completion, FUA/flush semantics (a completed write is
 * durable), bio splitting (callers keep bios within M_BIO_VECS_MAX).
 */
#include <string.h>

#include "model/linux/bio.h"
#include "model/world.h"

void m_blkdev_init(struct m_blkdev *dev, sector_t nr_sectors)
{
	dev->nr_sectors = nr_sectors;
	dev->data = sim_arena_alloc(nr_sectors * sizeof(uint32_t));
	sim_word_init(&dev->data_version, 0, "dev.data");
	sim_word_init(&dev->bios_submitted, 0, "dev.bios");
	sim_word_init(&dev->reads, 0, "dev.reads");
	sim_word_init(&dev->writes, 0, "dev.writes");
}

/*
 * m_blkdev_check - invariants of the device, after every step.
 *  1. reads and writes never exceed the bios submitted.
 * Not checked: content (the model's cross-module checks compare it).
 */
void m_blkdev_check(void *arg)
{
	struct m_blkdev *dev = arg;
	uint64_t bios = sim_word_peek(&dev->bios_submitted);

	SIM_CHECK(sim_word_peek(&dev->writes) <= bios * M_BIO_VECS_MAX * 16,
		  "device: %llu page writes from %llu bios",
		  (unsigned long long)sim_word_peek(&dev->writes),
		  (unsigned long long)bios);
}

void m_blkdev_dump(void *arg, FILE *out)
{
	struct m_blkdev *dev = arg;
	sector_t used = 0;

	for (sector_t s = 0; s < dev->nr_sectors; s++)
		if (dev->data[s])
			used = s + 1;
	fprintf(out, "device: %llu bios, %llu page reads, %llu page writes\n",
		(unsigned long long)sim_word_peek(&dev->bios_submitted),
		(unsigned long long)sim_word_peek(&dev->reads),
		(unsigned long long)sim_word_peek(&dev->writes));
	for (sector_t s = 0; s < used; s += SECTORS_PER_PAGE) {
		fprintf(out, "  sector %4llu:", (unsigned long long)s);
		for (sector_t k = s; k < s + SECTORS_PER_PAGE && k < used; k++)
			fprintf(out, " %u", dev->data[k]);
		fputc('\n', out);
	}
}

/**
 * km_bio_alloc - a new bio.
 * Kernel: block/bio.c bio_alloc, v6.18.  Never fails in the model.
 */
struct km_bio *km_bio_alloc(enum km_req_op op, unsigned int opf,
			    sector_t sector)
{
	struct km_bio *bio = sim_arena_alloc(sizeof(*bio));

	bio->op = op;
	bio->opf = opf;
	bio->sector = sector;
	sim_completion_init(&bio->done, "bio.done");
	return bio;
}

/**
 * km_bio_add_folio - add a folio range to a bio.
 * Kernel: block/bio.c bio_add_folio, v6.18.
 * Return: false when the bio has no room.
 */
bool km_bio_add_folio(struct km_bio *bio, struct km_folio *folio, size_t len,
		      size_t offset)
{
	if (bio->vcnt == M_BIO_VECS_MAX)
		return false;
	bio->vec[bio->vcnt++] = (struct km_bio_vec){ folio, offset, len };
	return true;
}

size_t m_bio_size(const struct km_bio *bio)
{
	size_t bytes = bio->zero_len + bio->dio_len;

	for (unsigned int i = 0; i < bio->vcnt; i++)
		bytes += bio->vec[i].len;
	return bytes;
}

static bool bio_fails(struct m_blkdev *dev, const struct km_bio *bio)
{
	sector_t last = bio->sector + (m_bio_size(bio) >> SECTOR_SHIFT) - 1;

	if (dev->fail_nth_bio && bio->index == dev->fail_nth_bio)
		return true;
	return dev->fail_range && bio->sector <= dev->fail_sector_last &&
	       last >= dev->fail_sector_first;
}

/* The completion: transfer, status, then bi_end_io (an engine event). */
static void bio_complete(void *arg)
{
	struct km_bio *bio = arg;
	struct m_blkdev *dev = &m_world()->dev;
	sector_t sector = bio->sector;
	sector_t last = sector + (m_bio_size(bio) >> SECTOR_SHIFT) - 1;

	SIM_ASSERT_MSG(m_bio_size(bio) >= SECTOR_SIZE, "empty bio");
	size_t pages = (m_bio_size(bio) + PAGE_SIZE - 1) >> PAGE_SHIFT;

	if (bio_fails(dev, bio)) {
		bio->status = -KM_EIO;
	} else if (bio->op == REQ_OP_WRITE) {
		/*
		 * The DMA, one step: sectors [sector, last] change and the
		 * bio's folios are read, all at this point.
		 */
		sim_word_touch_range(&dev->data_version, SIM_ACCESS_WRITE,
				     (uint32_t)sector, (uint32_t)last);
		if (bio->zero_len || bio->dio_len) {
			size_t n = (bio->zero_len + bio->dio_len) >>
				   SECTOR_SHIFT;

			for (size_t k = 0; k < n; k++)
				dev->data[sector + k] =
					bio->zero_len ? 0 : bio->data_id;
			sector += n;
		}
		for (unsigned int i = 0; i < bio->vcnt; i++) {
			const struct km_bio_vec *v = &bio->vec[i];

			sim_word_read_also(&v->folio->data_version);
			memcpy(&dev->data[sector],
			       &v->folio->data[v->offset >> SECTOR_SHIFT],
			       (v->len >> SECTOR_SHIFT) * sizeof(uint32_t));
			sector += v->len >> SECTOR_SHIFT;
		}
		sim_word_add_nr(&dev->writes, (int64_t)pages);
	} else {
		/* The DMA, one step: the sectors are read, the folios
		 * written. */
		sim_word_touch_range(&dev->data_version, SIM_ACCESS_READ,
				     (uint32_t)sector, (uint32_t)last);
		for (unsigned int i = 0; i < bio->vcnt; i++) {
			const struct km_bio_vec *v = &bio->vec[i];

			sim_word_add_also(&v->folio->data_version, 1);
			memcpy(&v->folio->data[v->offset >> SECTOR_SHIFT],
			       &dev->data[sector],
			       (v->len >> SECTOR_SHIFT) * sizeof(uint32_t));
			sector += v->len >> SECTOR_SHIFT;
		}
		sim_word_add_nr(&dev->reads, (int64_t)pages);
	}
	if (bio->end_io)
		bio->end_io(bio);
}

/**
 * km_submit_bio - submit a bio; it completes later, as an event.
 * Kernel: block/blk-core.c submit_bio, v6.18.
 * Context: any task context.
 */
void km_submit_bio(struct km_bio *bio)
{
	struct m_blkdev *dev = &m_world()->dev;

	SIM_ASSERT_MSG(bio->sector + (m_bio_size(bio) >> SECTOR_SHIFT) <=
		       dev->nr_sectors, "bio beyond the device");
	/*
	 * The bio's number matters only to "fail the Nth bio"; without that
	 * injection the count is an add nobody reads back, so submissions
	 * commute for DPOR (model bookkeeping, not kernel state).
	 */
	if (dev->fail_nth_bio)
		bio->index = (uint32_t)sim_word_add(&dev->bios_submitted, 1);
	else
		sim_word_add_nr(&dev->bios_submitted, 1);
	sim_event_post(bio->op == REQ_OP_WRITE ? "bio-write" : "bio-read",
		       bio_complete, bio);
}

static void submit_bio_wait_endio(struct km_bio *bio)
{
	sim_completion_complete(&bio->done);
}

/**
 * km_submit_bio_wait - submit a bio and wait for its completion.
 * Kernel: block/bio.c, v6.18.
 * Return: the bio's status.
 */
int km_submit_bio_wait(struct km_bio *bio)
{
	bio->end_io = submit_bio_wait_endio;
	km_submit_bio(bio);
	sim_completion_wait(&bio->done);
	return bio->status;
}
