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
 *
 * With a timed device (m_blkdev_attach_timed) the bio goes through blk-mq
 * and the NVMe model instead and completes at its virtual time; in a long
 * timed run it is freed once its bi_end_io returns (a waited bio: when
 * submit_bio_wait returns), so nothing may keep it (docs/timed-mode.md).
 */
#ifndef WPSIM_MODEL_LINUX_BIO_H
#define WPSIM_MODEL_LINUX_BIO_H

#include "model/linux/mm_types.h"
#include "model/linux/types.h"
#include "sim/shared.h"

struct hw_nvme_profile;
struct km_inode;

/*
 * A bio's bvec table (block/bio.c bio_alloc_bioset, v6.18): the caller
 * asks for nr_vecs, at most BIO_MAX_VECS (include/linux/bio.h); the
 * kernel keeps BIO_INLINE_VECS in the bio and takes a larger table from
 * the biovec slabs (bvec_alloc: 16, 64, 128, 256).  The model keeps
 * M_BIO_VECS_MAX in the bio (what km_bio_alloc gives: every bio but
 * iomap's writeback, whose ioend asks for BIO_MAX_VECS) and takes a
 * table of exactly nr_vecs from the arena for more (km_bio_alloc_bioset).
 */
#define M_BIO_VECS_MAX	16
#define BIO_MAX_VECS	256

enum km_req_op { REQ_OP_READ, REQ_OP_WRITE, REQ_OP_DISCARD };

#define REQ_SYNC	(1u << 0)
#define REQ_IDLE	(1u << 1)
#define REQ_FUA		(1u << 2)
#define REQ_PREFLUSH	(1u << 3)	/* include/linux/blk_types.h */
#define REQ_NOMERGE	(1u << 4)
#define REQ_NOWAIT	(1u << 5)
/* __REQ_BACKGROUND (include/linux/blk_types.h, v6.18): background
 * (kupdate or over-bg_thresh) writeback, set by wbc_to_write_flags;
 * read by blk-wbt's get_limit only. */
#define REQ_BACKGROUND	(1u << 6)
/* REQ_ATOMIC (include/linux/blk_types.h, v6.18): an RWF_ATOMIC direct
 * write's bio; never split (blk-merge.c), its size checked against the
 * queue's atomic write unit (blk-core.c submit_bio_noacct). */
#define REQ_ATOMIC	(1u << 7)

/*
 * The queue limits bio splitting reads (include/linux/blkdev.h struct
 * queue_limits, v6.18): the fields block/blk-merge.c uses for read,
 * write and discard bios.  Defaults (m_queue_limits_default): an NVMe
 * PCI controller without an MDTS limit, as drivers/nvme/host/pci.c and
 * core.c set them and blk_validate_limits completes them
 * (docs/model/block.md).
 */
struct km_queue_limits {
	unsigned int max_hw_sectors;
	unsigned int max_user_sectors;	/* sysfs max_sectors_kb * 2; 0 */
	unsigned int max_sectors;	/* derived: blk_validate_limits */
	unsigned int max_segments;
	unsigned int max_segment_size;
	unsigned int min_segment_size;	/* derived */
	unsigned long virt_boundary_mask;
	unsigned int logical_block_size;
	unsigned int physical_block_size;
	unsigned int chunk_sectors;
	unsigned int max_discard_sectors;
	unsigned int discard_granularity;	/* bytes */
	unsigned int discard_alignment;		/* bytes */
	/*
	 * Atomic writes (v6.18): BLK_FEAT_ATOMIC_WRITES in features, the
	 * driver's atomic_write_hw_* (bytes; the NVMe driver's from AWUPF,
	 * m_queue_limits_nvme_atomic), and what
	 * blk_validate_atomic_write_limits derives from them (all 0 when
	 * unsupported: bdev_can_atomic_write is then false).
	 */
	unsigned int features;
	unsigned int atomic_write_hw_max;
	unsigned int atomic_write_hw_unit_min;
	unsigned int atomic_write_hw_unit_max;
	unsigned int atomic_write_hw_boundary;
	unsigned int atomic_write_max_sectors;		/* derived */
	unsigned int atomic_write_unit_min;		/* derived, bytes */
	unsigned int atomic_write_unit_max;		/* derived, bytes */
	unsigned int atomic_write_boundary_sectors;	/* derived */
};

/* queue_limits.features (include/linux/blkdev.h, v6.18): the one the
 * model reads. */
#define BLK_FEAT_ATOMIC_WRITES	(1u << 0)

/*
 * bdev_can_atomic_write (include/linux/blkdev.h, v6.18): the queue has an
 * atomic write unit.  KM: no partitions (the start-sector alignment
 * check has nothing to check).
 */
static inline bool km_bdev_can_atomic_write(const struct km_queue_limits *lim)
{
	return lim->atomic_write_unit_min != 0;
}

/*
 * NVMe namespace identify fields for atomic writes (NVMe Base
 * Specification 2.0, Identify Namespace: NAWUPF, NABO, NABSPF; Identify
 * Controller: AWUPF), 0's based counts of logical blocks; @nsfeat_atomics
 * is NSFEAT bit 1 (NAWUPF and NABSPF are the namespace's).  @supported
 * false: a driver that sets no atomic limits (virtio-blk, v6.18).
 */
struct m_nvme_atomic_id {
	bool supported;
	bool nsfeat_atomics;
	unsigned int awupf, nawupf, nabspf, nabo;
};
void m_queue_limits_nvme_atomic(struct km_queue_limits *lim,
				const struct m_nvme_atomic_id *id);

struct km_bio_vec {
	struct km_folio *folio;
	size_t offset;		/* bytes into the folio */
	size_t len;
};

struct km_bio;
struct m_blk_mq_request;
/*
 * m_bio_iter_vec - bvec @k of the bio's data still to transfer
 * (bio_iter_iovec at bi_iter, then the following ones): vec[vec_idx + k],
 * the first one less the vec_done bytes already advanced past.
 */
struct km_bio_vec m_bio_iter_vec(const struct km_bio *bio, unsigned int k);
/* The number of bvecs m_bio_iter_vec gives. */
unsigned int m_bio_iter_vcnt(const struct km_bio *bio);
struct m_blk_timed;
typedef void (*km_bio_end_io_t)(struct km_bio *bio);

struct km_bio {
	enum km_req_op op;
	unsigned int opf;	/* REQ_* */
	sector_t sector;	/* device sector of the first byte */
	/*
	 * vec[0..vcnt): bi_io_vec, never changed once built: completion
	 * walks every folio of it (bio_for_each_folio_all), also after a
	 * split.  The data still to transfer starts at vec[vec_idx],
	 * vec_done bytes into it (bi_iter.bi_idx, bi_bvec_done: what
	 * bio_split advances); m_bio_iter_vec gives those bvecs.
	 */
	struct km_bio_vec *vec;	/* inline_vec, or the arena's table */
	unsigned int max_vecs;	/* bi_max_vecs */
	unsigned int vcnt;
	unsigned int vec_idx;
	size_t vec_done;
	int status;		/* 0 or -errno, set at completion */
	uint32_t index;		/* submission order, for error injection */
	km_bio_end_io_t end_io;
	void *private;
	struct sim_completion done;	/* submit_bio_wait */
	/* A write of zeroes without a folio (DIO head/tail zeroing). */
	size_t zero_len;
	uint32_t data_id;	/* DIO: the id written, no folio */
	size_t dio_len;
	uint32_t *dio_out;	/* DIO read: the user buffer, an id a sector */
	size_t discard_len;	/* REQ_OP_DISCARD: bi_size, no data */
	/*
	 * bio_chain (block/bio.c): a bio split off this one holds a
	 * reference on it; bi_end_io runs when every piece has ended
	 * (remaining, an engine word, made at the first split).
	 */
	bool chained;
	struct sim_word remaining;
	/*
	 * end_io_in_task: the filesystem wants bi_end_io run by a
	 * workqueue task, not in the completion interrupt (XFS's ioend
	 * workqueue: xfs_end_bio, set when xfs_ioend_needs_wq_completion,
	 * model/fs/xfs/xfs_aops.c).  Timed, a kworker task runs it (one per
	 * bio: the per-run writeback of model/fs/iomap/buffered-io.c; the
	 * merging writeback's XFS ioends end in the interrupt instead, in
	 * xfs_end_bio, which queues them for the inode's one work item,
	 * model/fs/iomap/ioend.c); untimed,
	 * the completion event does, in task context (km_in_task() true),
	 * where a bio without it runs bi_end_io in hardirq context.
	 * no_content (timed device only): a write that carries no file data
	 * (the XFS log): timed, not stored.
	 */
	bool end_io_in_task;
	bool no_content;
	bool ended;		/* check-only: bi_end_io has run */
	struct m_blk_mq_request *rq;	/* in flight: tag and plan */
	unsigned int rq_step;		/* plan step being executed */
	uint64_t submit_ns;
	struct km_bio_vec inline_vec[M_BIO_VECS_MAX];
};

/*
 * The device's content: a write id per sector (0 = zeroes), by block of
 * M_DEV_BLOCK sectors.  A block holds its run's id (struct m_dev_run: a
 * range of blocks laid out with one id, a file's initial content;
 * zeroes) until a write changes it: then it is an entry of a table
 * hashed by block number (struct m_dev_entry), a fill id of its own and
 * the ids of the sectors that differ (NULL: none), so the memory of a
 * large device follows the blocks written, not its size (issue 28: a
 * table of 12 bytes per block was 3 MiB at 64 GiB, 48 MiB at 1 TiB).
 * In a long run (sparse) a block is first one 4 KiB chunk (M_DEV_CHUNK
 * sectors) written whole with one id, held in the entry (M_DEV_ONE),
 * then a short list of such chunks (M_DEV_LIST), then an id per chunk
 * (M_DEV_CHUNKS); else (and after a write of part of a chunk) an id per
 * sector.  Read with m_dev_data() (model/block/bio.c).
 */
#define M_DEV_BLOCK_SHIFT	9	/* 512 sectors: 256 KiB of device */
#define M_DEV_BLOCK		((sector_t)1 << M_DEV_BLOCK_SHIFT)
#define M_DEV_CHUNK_SHIFT	3	/* 8 sectors: 4 KiB */
#define M_DEV_CHUNK		((sector_t)1 << M_DEV_CHUNK_SHIFT)

#define M_DEV_DIRECT_MAX	4096	/* blocks: 1 GiB, a 64 KiB table */
/* M_DEV_DIRECT_MAX, lowered by a test to use the hashed table. */
extern unsigned long m_dev_direct_max;

struct m_dev_run {
	uint64_t first;			/* block number: to the next run's */
	uint32_t id;
};

struct m_dev_entry {
	uint32_t key;			/* block number + 1; 0: free */
	uint32_t fill;			/* the id of sectors not in @ids */
	/* NULL; the address of M_DEV_BLOCK ids; a list's, tagged
	 * M_DEV_LIST; an id per chunk's, tagged M_DEV_CHUNKS; or one chunk
	 * in place: (id << 32) | (chunk << 8) | M_DEV_ONE */
	uintptr_t ids;
};

struct m_blkdev {
	sector_t nr_sectors;
	struct km_queue_limits limits;	/* model/block/blk-settings.c */
	uint64_t bios_split;		/* pieces split off (blk-merge.c) */
	/* The blocks that are not their run's id alone: open addressing,
	 * linear probing, at most 3/4 full; the runs in block order, the
	 * first at block 0. */
	struct m_dev_entry *data;	/* [data_mask + 1] */
	uint32_t data_mask, data_count;
	unsigned int data_shift;	/* 32 - log2(data_mask + 1) */
	/* A device of at most m_dev_direct_max blocks (every
	 * exploration's): block b's entry is data[b], no hashing. */
	bool data_direct;
	struct m_dev_run *runs;
	uint32_t nr_runs;
	uint64_t blocks;
	bool sparse;			/* a long run: sparse blocks first */
	struct sim_word data_version;	/* identity of the content */
	struct sim_word bios_submitted;
	struct sim_word reads;		/* 4 KiB-page reads completed */
	struct sim_word writes;
	/* Check-only (world invariant 13): bi_end_io calls so far. */
	uint64_t bios_ended;
	/* Error injection: fail the Nth bio (1-based, 0 = off), and any bio
	 * touching [fail_sector_first, fail_sector_last]. */
	uint32_t fail_nth_bio;
	bool fail_range;
	sector_t fail_sector_first, fail_sector_last;
	/* The timed device and blk-mq queue; NULL: untimed (the default). */
	struct m_blk_timed *timed;
	/*
	 * Called by m_blkdev_attach_timed with the device's capacity before
	 * it returns: the filesystem's mount-time setup of what it keeps on
	 * the device (the XFS log, m_xfs_log_mount), set by m_world_setup.
	 * The kernel mounts after the device exists; the model attaches the
	 * timed device to a world already set up.  NULL: nothing.
	 */
	void (*timed_attached)(struct m_blkdev *dev, uint64_t capacity_bytes);
};

/* The write id of sector @s (a peek: checks, dumps, the model's reads
 * inside a transfer's step). */
uint32_t m_dev_data(const struct m_blkdev *dev, sector_t s);

/* Sectors [@s, @s + @n) := @id; a whole block stays a fill value. */
void m_dev_data_set(struct m_blkdev *dev, sector_t s, sector_t n,
		    uint32_t id);
/* Sectors [@s, @s + @n) := @ids[0..n); and out into @ids. */
void m_dev_data_write(struct m_blkdev *dev, sector_t s, const uint32_t *ids,
		      sector_t n);
void m_dev_data_read(const struct m_blkdev *dev, sector_t s, uint32_t *ids,
		     sector_t n);
/* Sectors [@s, @s + @n) into sectors [@first, @first + @n) of @folio
 * (one id where they hold one: m_folio_fill). */
void m_dev_data_read_folio(const struct m_blkdev *dev, sector_t s,
			   struct km_folio *folio, size_t first, sector_t n);

void m_blkdev_init(struct m_blkdev *dev, sector_t nr_sectors);
/* Below submit_bio (model/block/blk-core.c): the untimed device's
 * completion event of @arg, a struct km_bio; the timed device's
 * submission (model/block/bio.c). */
void m_bio_device_complete(void *arg);
void m_blk_timed_submit_bio(struct m_blk_timed *t, struct km_bio *bio);
void m_blkdev_check(void *dev);
/* Registers m_blkdev_check with its watch (sim_check_register_watch). */
void m_blkdev_check_register(struct m_blkdev *dev);
void m_blkdev_dump(void *dev, FILE *out);

struct km_bio *km_bio_alloc(enum km_req_op op, unsigned int opf,
			    sector_t sector);
/* bio_alloc with nr_vecs (at most BIO_MAX_VECS). */
struct km_bio *km_bio_alloc_bioset(enum km_req_op op, unsigned int opf,
				   sector_t sector, unsigned int nr_vecs);
/* Add a folio range; false when the bio is full. */
bool km_bio_add_folio(struct km_bio *bio, struct km_folio *folio, size_t len,
		      size_t offset);
size_t m_bio_size(const struct km_bio *bio);
void km_submit_bio(struct km_bio *bio);
int km_submit_bio_wait(struct km_bio *bio);
/* bio_endio: one piece ended; bi_end_io runs when all have. */
void km_bio_endio(struct km_bio *bio);
struct km_bio *km_bio_split(struct km_bio *bio, unsigned int sectors);
void km_bio_chain(struct km_bio *bio, struct km_bio *parent);
struct km_bio *km_bio_chain_and_submit(struct km_bio *prev,
				       struct km_bio *new);

/* block/blk-merge.c (model/block/blk-merge.c). */
int km_bio_split_rw_at(struct km_bio *bio, const struct km_queue_limits *lim,
		       unsigned int *segs, unsigned int max_bytes);
struct km_bio *km___bio_split_to_limits(struct km_bio *bio,
					const struct km_queue_limits *lim,
					unsigned int *nr_segs);
struct km_bio *km_bio_split_to_limits(struct km_bio *bio);

struct km_bio *km_bio_split_discard(struct km_bio *bio,
				    const struct km_queue_limits *lim,
				    unsigned int *nsegs);

/* block/blk-lib.c (model/block/blk-lib.c): discard a range, waited. */
struct km_bio *km_blk_alloc_discard_bio(sector_t *sector, sector_t *nr_sects);
int km___blkdev_issue_discard(sector_t sector, sector_t nr_sects,
			      struct km_bio **biop);
int km_blkdev_issue_discard(sector_t sector, sector_t nr_sects);

/* block/blk-settings.c (model/block/blk-settings.c). */
void m_queue_limits_default(struct km_queue_limits *lim);
int km_blk_validate_limits(struct km_queue_limits *lim);
void km_blk_validate_atomic_write_limits(struct km_queue_limits *lim);
/*
 * The sysfs files a front end may write (block/blk-sysfs.c): 0 or
 * -EINVAL, the limits unchanged.  Call before the run starts.
 */
int m_blkdev_set_limits(struct m_blkdev *dev, unsigned int max_sectors_kb,
			unsigned int max_hw_sectors_kb,
			unsigned int max_segments,
			unsigned int logical_block_size);

/*
 * km_blkdev_issue_flush - an empty REQ_PREFLUSH bio, waited for.
 * Kernel: block/blk-flush.c blkdev_issue_flush, v6.18.
 * Untimed the device has no volatile write cache, so submit_bio_noacct
 * ends the bio at once: nothing is submitted (no step, no event).
 * Return: 0 or -EIO.
 */
int km_blkdev_issue_flush(void);

/*
 * The timed device (model/block/bio.c, docs/timed-mode.md): bios go
 * through blk-mq (model/block/blk-mq.c) to the device model
 * (model/hw/nvme.c) and complete at their virtual time.  Call from a
 * program's setup, after m_world_setup(), for @nr_cpus simulated CPUs;
 * @seed seeds the device's jitter.  Return: 0 or -EINVAL.
 */
int m_blkdev_attach_timed(struct m_blkdev *dev,
			  const struct hw_nvme_profile *profile,
			  unsigned int nr_cpus, uint64_t seed);
/* True when the current world's device is timed. */
bool m_blkdev_is_timed(void);
/*
 * bdev_write_cache and bdev_fua (include/linux/blkdev.h, v6.18): the
 * timed device's queue features; the untimed device has the oracle's
 * loop device's (a volatile write cache, no FUA: docs/model/fidelity.md,
 * "Eleventh session").
 */
bool km_bdev_write_cache(void);
bool km_bdev_fua(void);

/* What the timed device did, for reports (all zero untimed). */
struct m_blkdev_timed_stats {
	/* log_writes: writes without file data (no_content: the log's) */
	uint64_t bios, flushes, fua_writes, log_writes;
	uint64_t tag_waits;		/* submitters that slept for a tag */
	uint64_t device_cmds;		/* commands the device received */
	/* The bios submitted, as blktrace's Q events see them (wpsim
	 * replay --blkparse): REQ_PREFLUSH (with no data: empty), REQ_FUA,
	 * data writes by size (<4k, 4k, 8k .. 512k, >512k), the span. */
	uint64_t preflush_bios, empty_flush_bios, fua_bios;
	uint64_t write_bios, write_bytes, read_bios, discard_bios;
	uint64_t write_sizes[10];
	uint64_t first_submit_ns, last_submit_ns;
	/* The loop device's worker (loop_worker_ns; 0 without one):
	 * commands it handled, its runs, the CPU it charged; the loop
	 * requests' completions and their CPU, charged in the device's
	 * completion, not by the worker (since session 22). */
	uint64_t loop_cmds, loop_works, loop_busy_ns;
	uint64_t loop_completions, loop_complete_ns, loop_completions_shared;
};
void m_blkdev_timed_stats(struct m_blkdev_timed_stats *stats);

#endif
