/* SPDX-License-Identifier: MIT */
/*
 * struct bio and the block device of the model (include/linux/blk_types.h,
 * block/bio.c, block/blk-core.c), v6.18, untimed.
 *
 * A bio is submitted, then completes as an engine event whose order
 * against every task step is explored.  The transfer itself happens in
 * the completion event: a write copies the folio's sector ids to the
 * device at that moment (as DMA would read the page while the I/O is in
 * flight), a read copies the device's into the folio.
 */
#ifndef WPSIM_MODEL_LINUX_BIO_H
#define WPSIM_MODEL_LINUX_BIO_H

#include "model/linux/mm_types.h"
#include "model/linux/types.h"
#include "sim/shared.h"

#define M_BIO_VECS_MAX	16

enum km_req_op { REQ_OP_READ, REQ_OP_WRITE };

#define REQ_SYNC	(1u << 0)
#define REQ_IDLE	(1u << 1)
#define REQ_FUA		(1u << 2)

struct km_bio_vec {
	struct km_folio *folio;
	size_t offset;		/* bytes into the folio */
	size_t len;
};

struct km_bio;
typedef void (*km_bio_end_io_t)(struct km_bio *bio);

struct km_bio {
	enum km_req_op op;
	unsigned int opf;	/* REQ_* */
	sector_t sector;	/* device sector of the first byte */
	struct km_bio_vec vec[M_BIO_VECS_MAX];
	unsigned int vcnt;
	int status;		/* 0 or -errno, set at completion */
	uint32_t index;		/* submission order, for error injection */
	km_bio_end_io_t end_io;
	void *private;
	struct sim_completion done;	/* submit_bio_wait */
	/* A write of zeroes without a folio (DIO head/tail zeroing). */
	size_t zero_len;
	uint32_t data_id;	/* DIO: the id written, no folio */
	size_t dio_len;
};

struct m_blkdev {
	sector_t nr_sectors;
	uint32_t *data;			/* write id per sector */
	struct sim_word data_version;	/* identity of the content */
	struct sim_word bios_submitted;
	struct sim_word reads;		/* 4 KiB-page reads completed */
	struct sim_word writes;
	/* Error injection: fail the Nth bio (1-based, 0 = off), and any bio
	 * touching [fail_sector_first, fail_sector_last]. */
	uint32_t fail_nth_bio;
	bool fail_range;
	sector_t fail_sector_first, fail_sector_last;
};

void m_blkdev_init(struct m_blkdev *dev, sector_t nr_sectors);
void m_blkdev_check(void *dev);
void m_blkdev_dump(void *dev, FILE *out);

struct km_bio *km_bio_alloc(enum km_req_op op, unsigned int opf,
			    sector_t sector);
/* Add a folio range; false when the bio is full. */
bool km_bio_add_folio(struct km_bio *bio, struct km_folio *folio, size_t len,
		      size_t offset);
size_t m_bio_size(const struct km_bio *bio);
void km_submit_bio(struct km_bio *bio);
int km_submit_bio_wait(struct km_bio *bio);

#endif
