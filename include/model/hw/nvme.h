/* SPDX-License-Identifier: MIT */
/*
 * model/hw/nvme: the storage device itself, timed, in virtual ns.
 *
 * A pure, deterministic discrete-event model with no engine dependency:
 * hw_nvme_submit() takes a command and the virtual time it reaches the
 * device and returns the virtual time it completes.  The stages
 * (docs/model/nvme.md has the equations and the sources):
 *
 *   t0 (cmd_ns)  a fixed per-command delay: doorbell, fetch, parse, the
 *                completion path;
 *   firmware     optionally one FIFO server of fw_ns per command (a write
 *                fw_write_ns when set, plus seg_write_ns a segment beyond
 *                the first), which caps the command rate at
 *                1 / fw_ns; with pass_complete the commands it serves
 *                back to back (a pass) complete together when the pass
 *                ends (hw_nvme_pass_done);
 *   link         one FIFO bandwidth server per direction (host to device
 *                for writes, device to host for reads);
 *   media        P units, each with a busy-until time: a page read costs
 *                read_ns (after a read_delay_ns firmware delay), a page
 *                program program_ns (plus seek_ns when a unit's access is
 *                not sequential); a write that does not start and
 *                end on a physical sector (physical_sector_bytes) first
 *                reads the page of each partial one (read-modify-write);
 *   write cache  cache_bytes of page slots: a write completes when its
 *                data is in the cache (plus cache_ack_ns) and is
 *                programmed in the background; a full cache makes the
 *                write wait for a slot; FLUSH completes when every cached
 *                write is programmed (plus flush_ns); FUA waits for its
 *                own program.  With plp the cache is durable: FLUSH and
 *                FUA cost only the command overhead;
 *   jitter       a seeded splitmix64 stream adds a small uniform delay to
 *                most completions and a long tail to a fraction.
 *
 * The same model serves the NVMe profiles, this machine's virtio disk and
 * seed 002's disk: the files in profiles/devices/.
 *
 * Submissions must come in non-decreasing now_ns (the timed engine runs
 * events in time order); an earlier one is treated as at the latest time
 * seen and counted in stats.late_submits.
 *
 * Memory: the caller allocates hw_nvme_mem_size(profile) bytes (from the
 * arena inside an execution, malloc outside) and passes them to
 * hw_nvme_init(); the device allocates nothing.  Every operation is O(P)
 * or better, plus O(log Q) for the in-flight heap (Q = queue slots).
 */
#ifndef WPSIM_MODEL_HW_NVME_H
#define WPSIM_MODEL_HW_NVME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Bounds, with units. */
#define HW_NVME_NAME_BYTES	48		/* profile name, with NUL */
#define HW_NVME_DESC_BYTES	160		/* description, with NUL */
#define HW_NVME_SECTOR_BYTES	512		/* the LBA unit */
#define HW_NVME_CMD_BYTES_MAX	(32u << 20)	/* data of one command */
#define HW_NVME_UNITS_MAX	4096		/* media units */
#define HW_NVME_CACHE_SLOTS_MAX	(1u << 22)	/* cache_bytes / page_bytes */
#define HW_NVME_INFLIGHT_MAX	(1u << 20)	/* queues x depth */

/* A device profile: every figure is a named parameter (profile files). */
struct hw_nvme_profile {
	char name[HW_NVME_NAME_BYTES];
	char description[HW_NVME_DESC_BYTES];
	uint64_t capacity_bytes;
	/* Controller. */
	uint64_t cmd_ns;		/* t0, every command, a pure delay */
	uint64_t fw_ns;			/* one firmware server, 0 = none */
	uint64_t fw_write_ns;		/* its time for a WRITE, 0 = fw_ns */
	/* Its time for each data segment of a WRITE beyond the first
	 * (0 = none): a segment is a physically contiguous piece of the
	 * data, a virtio descriptor each (hw_nvme_cmd.segs), and the VMM's
	 * serial work grows with them (docs/model/nvme.md "The segments of
	 * a write").  Needs fw_ns. */
	uint64_t seg_write_ns;
	/* A WRITE's data crosses the link while the server takes its
	 * segments beyond the first (0 = after its whole service): the
	 * write's time after its setup is the longer of the two, not their
	 * sum (docs/model/nvme.md "The segments of a write").  Needs
	 * fw_ns. */
	bool seg_write_overlap;
	/* The firmware server completes the commands of a pass (served
	 * back to back, from idle to idle) together at the pass's end: a
	 * virtio-blk device whose VMM executes every request of a queue
	 * notification in turn and publishes them with one used-ring
	 * update and one interrupt (docs/model/nvme.md).  Needs fw_ns. */
	bool pass_complete;
	/* Link, one FIFO server per direction. */
	uint64_t link_write_bytes_per_sec;	/* host to device */
	uint64_t link_read_bytes_per_sec;	/* device to host */
	/* Media. */
	uint32_t units;			/* P */
	uint32_t page_bytes;		/* S: the unit of media work */
	bool page_merge;		/* pack writes into pages (flash) */
	uint64_t read_delay_ns;		/* firmware read path, a pure delay */
	uint64_t read_ns;		/* tR per page */
	uint64_t program_ns;		/* tPROG per page */
	uint64_t seek_ns;		/* per non-sequential media access */
	/* Write cache. */
	uint64_t cache_bytes;		/* C; 0 = none (write-through) */
	uint64_t cache_ack_ns;		/* cache insertion, before the ack */
	bool plp;			/* the cache is power-loss protected */
	uint64_t flush_ns;		/* fixed cost of a volatile flush */
	bool fua;			/* FUA natively (with a volatile cache) */
	/* What the host's block layer sees. */
	uint32_t nr_hw_queues;		/* I/O queues the controller offers */
	uint32_t queue_depth;		/* tags per hardware queue */
	bool rotational;
	/* Jitter, added to every completion. */
	uint64_t jitter_ns;		/* uniform in [0, jitter_ns) */
	uint32_t tail_ppm;		/* commands per million with a tail */
	uint64_t tail_ns;		/* mean of the tail delay */
	/* A READ's own jitter, when any of the three is set (else a READ
	 * takes the device's above): measured on reads, so a read's body
	 * is not the remainder of its QD1 mean less the writes' jitter. */
	uint64_t read_jitter_ns;
	uint32_t read_tail_ppm;
	uint64_t read_tail_ns;
	/* A FLUSH's own jitter, uniform in [0, flush_jitter_ns), when set
	 * (else a FLUSH takes the device's above): measured on bare
	 * flushes, so a flush's body (flush_ns) is not charged the writes'
	 * QD1 spread and tail on top of a flush's own p50. */
	uint64_t flush_jitter_ns;
	/* The media's sector: a write that does not start and end on it is
	 * read-modify-written (0 or 512 = the LBA unit, no such writes). */
	uint32_t physical_sector_bytes;
	/* The queue's writeback throttling target (queue/wbt_lat_usec;
	 * 0 = off: model/block/blk-wbt.c). */
	uint64_t wbt_lat_usec;
	/* A FLUSH holds the device's command processing until it ends:
	 * commands that arrive meanwhile start after it (0 = flushes run
	 * beside other commands).  The loop device's worker runs a flush
	 * as a synchronous fsync of its backing file (docs/model/nvme.md). */
	bool flush_serial;
	/* What a FLUSH costs beyond flush_ns when the device's backing
	 * store changed since the last one: a loop device's flush is an
	 * fsync of its backing file, which commits the host filesystem's
	 * journal when the file's inode was dirtied, and a write dirties
	 * it once per tick of the coarse clock (its mtime;
	 * HW_NVME_BACKING_TICK_NS).  0 = none (docs/model/nvme.md). */
	uint64_t flush_commit_ns;
	/* The device is a loop device whose worker (drivers/block/loop.c,
	 * a kworker of its unbound workqueue) takes every command in turn
	 * and submits it into the backing file: its CPU per command
	 * (loop_worker_ns), per data segment beyond the first
	 * (loop_seg_ns), per run of its work item (loop_run_ns, since
	 * session 22: a run takes every command queued meanwhile), all
	 * charged by the worker before the command reaches the figures
	 * above, and per completion (loop_complete_ns, lo_rw_aio_complete
	 * -> the loop request's end), charged in the device's completion
	 * on its CPU, not by the worker (model/drivers/block/loop.c,
	 * docs/model/loop.md).  All 0 = no worker: the command goes
	 * straight to the device, as before. */
	uint64_t loop_worker_ns;
	uint64_t loop_seg_ns;
	uint64_t loop_complete_ns;
	uint64_t loop_run_ns;
	/* The virtio disk below a loop device (since session 24,
	 * h24-merge; docs/model/blk-mq.md "The virtio ring"): its ring's
	 * descriptors (virtio_ring_descs: without indirect descriptors a
	 * request takes 2 + its data segments, drivers/block/virtio_blk.c
	 * virtblk_add_req, v6.18; a request that does not fit waits, its
	 * queue stopped, in the disk's I/O scheduler, where an adjacent
	 * one merges into it) and that disk's own queue limits, which
	 * bound a merge (virtio_max_sectors_kb, virtio_max_segments:
	 * block/blk-merge.c ll_back_merge_fn).  All 0 = no ring: every
	 * command goes to the device as it comes, as before. */
	uint32_t virtio_ring_descs;
	uint32_t virtio_max_sectors_kb;
	uint32_t virtio_max_segments;
	/* Atomic writes (docs/model/atomic-write.md): the Identify fields
	 * the NVMe driver reads (0's based counts of LBAs: awupf of the
	 * controller, nawupf/nabspf of the namespace when nsfeat_atomics,
	 * nabo), all absent = 0 = one LBA; no_atomic_writes: a device whose
	 * driver sets no atomic limits (virtio-blk). */
	uint32_t awupf;
	uint32_t nawupf;
	uint32_t nabspf;
	uint32_t nabo;
	bool nsfeat_atomics;
	bool no_atomic_writes;
	/* The queue limits bios are split at (queue/max_hw_sectors_kb,
	 * max_sectors_kb, max_segments, max_segment_size, and
	 * no_virt_boundary for a virt_boundary_mask of 0), the driver's
	 * (model/block/blk-settings.c); each absent = 0 = the NVMe
	 * driver's (m_queue_limits_default: 8 MiB, 4 MiB, 256, no limit, a
	 * 4 KiB boundary). */
	uint32_t max_hw_sectors_kb;
	uint32_t max_sectors_kb;
	uint32_t max_segments;
	uint32_t max_segment_size;
	bool no_virt_boundary;
	/* The CPU the device's completion interrupt is routed to (the
	 * request vectors' /proc/irq/N/effective_affinity_list, one CPU):
	 * its completion events, and the work they queue on a per-CPU
	 * workqueue, run there (model/block/bio.c, model/kernel/
	 * workqueue.c).  Optional: absent (irq_cpu_set false), a
	 * completion interrupts the CPU its submitter last ran on and a
	 * worker takes a free CPU, as before it (2026-12-07, session 21). */
	uint32_t irq_cpu;
	bool irq_cpu_set;		/* irq_cpu was given */
};

/* The coarse clock of a loop device's backing filesystem, which moves a
 * file's mtime (current_time: one jiffy at CONFIG_HZ=250, this
 * machine's kernel; fs/inode.c inode_needs_update_time, v6.18). */
#define HW_NVME_BACKING_TICK_NS	4000000ull

enum hw_nvme_op {
	HW_NVME_READ,
	HW_NVME_WRITE,
	HW_NVME_FLUSH,
	HW_NVME_DISCARD,
	HW_NVME_OP_NR,
};

#define HW_NVME_CMD_FUA		(1u << 0)	/* WRITE: force unit access */

struct hw_nvme_cmd {
	enum hw_nvme_op op;
	unsigned int flags;		/* HW_NVME_CMD_* */
	uint64_t lba;			/* first 512-byte sector */
	uint32_t bytes;			/* 0 for FLUSH */
	/* The data's segments (physically contiguous pieces: a page-cache
	 * folio, a page of user memory); 0 = one.  Only seg_write_ns
	 * reads it. */
	uint32_t segs;
};

struct hw_nvme_stats {
	uint64_t cmds[HW_NVME_OP_NR];
	uint64_t fua_writes;
	uint64_t page_reads;
	uint64_t page_programs;
	uint64_t partial_programs;	/* pages closed early by FLUSH/FUA */
	uint64_t rmw_reads;		/* page reads for partial sectors */
	uint64_t seeks;
	uint64_t cache_waits;		/* writes that waited for a slot */
	uint64_t cache_wait_ns;		/* their total wait */
	uint64_t tails;			/* completions with a tail delay */
	uint64_t late_submits;		/* now_ns before an earlier submit */
	uint64_t busy_rejects;		/* -EBUSY: every queue slot in use */
	uint64_t flush_commits;		/* flushes that paid flush_commit_ns */
	uint64_t passes;		/* pass_complete: passes begun */
	uint64_t pass_holds;		/* completions held to a pass's end */
	uint64_t pass_ring_misses;	/* a pass too old for the ring */
};

/* pass_complete: the ends and the publication times of the last
 * HW_NVME_PASS_RING passes. */
#define HW_NVME_PASS_RING	4096u

/* What a command needs to find its pass's end (hw_nvme_pass_done). */
struct hw_nvme_ticket {
	uint64_t pass;			/* its pass, 0 = none */
	uint64_t fw_end_ns;		/* its own service's end */
	uint64_t post_ns;		/* its completion after that end */
};

/* One media unit (opaque to callers). */
struct hw_nvme_unit {
	uint64_t busy_until_ns;
	uint64_t program_last_end_ns;	/* for FLUSH */
	uint64_t next_lba;		/* sequential successor, for seeks */
	uint32_t head, tail;		/* its cached pages, oldest first */
};

/* A cached page: its slot is freed when its program ends. */
struct hw_nvme_page {
	uint64_t release_ns;
	uint32_t next;
};

struct hw_nvme {
	struct hw_nvme_profile prof;
	uint64_t rng;			/* splitmix64 state */
	uint64_t now_last_ns;		/* latest submit time seen */
	uint64_t fw_free_ns;
	uint64_t pass_seq;		/* the current (last begun) pass */
	uint64_t *pass_end;		/* [HW_NVME_PASS_RING], pass_complete */
	uint64_t *pass_pub;		/* [HW_NVME_PASS_RING]: the latest own
					 * completion of a pass's commands */
	uint64_t pass_jitter_ns;	/* the current pass's jitter */
	uint64_t pass_read_jitter_ns;	/* its READs' (read_jitter_ns set) */
	uint64_t link_write_free_ns, link_read_free_ns;
	struct hw_nvme_unit *unit;	/* [prof.units] */
	uint32_t write_unit;		/* round-robin write pointer */
	/* Cache: slots of page_bytes; one may be the open page. */
	uint32_t slots, slots_used;
	struct hw_nvme_page *pool;	/* [slots] */
	uint32_t pool_free;
	uint64_t admit_last_ns;		/* cache admission is FIFO */
	bool open;
	uint32_t open_bytes;
	uint64_t open_first_lba, open_next_lba;
	uint32_t open_seeks;
	/* In flight: a min-heap of completion times. */
	uint64_t *inflight;		/* [inflight_max] */
	uint32_t inflight_nr, inflight_max;
	/* The backing file (flush_commit_ns): the coarse-clock tick of its
	 * last mtime change, and whether it changed since the last FLUSH. */
	uint64_t backing_mtime_tick;
	bool backing_dirty;
	struct hw_nvme_stats stats;
};

/* Bytes of memory hw_nvme_init() needs for @p (0 if @p is invalid). */
size_t hw_nvme_mem_size(const struct hw_nvme_profile *p);

/*
 * Start a device at virtual time 0 with its jitter stream seeded by @seed.
 * @mem: hw_nvme_mem_size(p) bytes, 8-byte aligned, owned by the caller.
 * Return: 0, or -EINVAL when the profile is invalid (hw_nvme_profile_check).
 */
int hw_nvme_init(struct hw_nvme *dev, const struct hw_nvme_profile *p,
		 uint64_t seed, void *mem);

/*
 * Submit @cmd at @now_ns; *@done_ns gets its completion time (> now).
 * Return: 0; -EINVAL for a malformed command (zero or oversized data,
 * beyond the capacity, data on FLUSH, a flag on a non-write); -EBUSY
 * when nr_hw_queues x queue_depth commands are in flight at @now_ns.
 */
int hw_nvme_submit(struct hw_nvme *dev, const struct hw_nvme_cmd *cmd,
		   uint64_t now_ns, uint64_t *done_ns);

/*
 * hw_nvme_submit(), and *@tk for hw_nvme_pass_done() (@tk may be NULL).
 * With pass_complete, *@done_ns is the command's completion if its pass
 * ends with it; commands that join the pass later move it.
 */
int hw_nvme_submit_ticket(struct hw_nvme *dev, const struct hw_nvme_cmd *cmd,
			  uint64_t now_ns, uint64_t *done_ns,
			  struct hw_nvme_ticket *tk);

/*
 * pass_complete: when a command submitted with @tk, whose completion was
 * due at @due_ns, completes: the end of its pass as known now plus its
 * own time after its service (at least @due_ns).  The caller holds the
 * completion until then and asks again (a pass still being served can
 * grow).  Without pass_complete: @due_ns.
 */
uint64_t hw_nvme_pass_done(struct hw_nvme *dev, const struct hw_nvme_ticket *tk,
			   uint64_t due_ns);

/* Commands submitted and not yet complete at @now_ns. */
uint32_t hw_nvme_inflight(struct hw_nvme *dev, uint64_t now_ns);

/*
 * Cache slots in use, in bytes (page_bytes each; the open page counts
 * whole), as of @now_ns, counting admissions already decided.
 */
uint64_t hw_nvme_cache_used_bytes(struct hw_nvme *dev, uint64_t now_ns);

/* Virtual time at which every cached write is programmed. */
uint64_t hw_nvme_destage_done_ns(const struct hw_nvme *dev);

/* The queue features the driver advertises (BLK_FEAT_*, docs). */
bool hw_nvme_volatile_cache(const struct hw_nvme_profile *p);
bool hw_nvme_native_fua(const struct hw_nvme_profile *p);

/* Deterministic one-line dump: times, cache, in-flight, counters. */
void hw_nvme_dump(const struct hw_nvme *dev, FILE *out);

/*
 * Profiles (model/hw/nvme-profile.c).  A profile is "key = value"
 * lines with '#' comments; docs/model/nvme.md lists the keys.
 */

/* Validate: 0, or -EINVAL with "key: expected ..., found ..." in @msg. */
int hw_nvme_profile_check(const struct hw_nvme_profile *p, char *msg,
			  size_t msg_bytes);

/*
 * Parse @text (named @filename in messages) into @p.
 * Return: 0, or -EINVAL with "file:line:col: error: expected X, found Y"
 * in @err (callers print it and exit 2).
 */
int hw_nvme_profile_parse(const char *text, const char *filename,
			  struct hw_nvme_profile *p, char *err,
			  size_t err_bytes);

/* Reading, finding and listing profile files: tools/profiles.h (the
 * model does no file I/O). */

#endif
