// SPDX-License-Identifier: MIT
/*
 * model/hw/nvme.c - the storage device, timed: controller overhead, an
 * optional firmware server, a link bandwidth server per direction, P
 * media units with busy-until times, a write cache of page slots
 * (volatile, or power-loss protected), FLUSH and FUA, read-modify-write
 * of writes not aligned to the physical sector, seeded jitter (a READ's
 * own when the profile gives one: read_jitter_ns, read_tail_*; a FLUSH's
 * own: flush_jitter_ns).
 *
 * Not a kernel file: this is the hardware below drivers/nvme/host (and
 * below virtio_blk for the virtio profile).  It follows the simulators'
 * common core (docs/model/nvme.md): NVMeVirt's busy-until units and
 * "flush = every unit idle", FEMU's firmware and link servers and its
 * write buffer, NVMeVirt's early completion with FUA waiting for NAND.
 *
 * For a loop device (profiles/calibrated/), what a FLUSH costs when the
 * backing file changed since the last one (flush_commit_ns: its fsync
 * commits the host filesystem's journal), and the serial flush
 * (flush_serial).  For the virtio disk below it, a firmware time per
 * direction (fw_write_ns), a write's time per data segment
 * (seg_write_ns), and completion by pass (pass_complete): the
 * VMM's virtio-blk device (Firecracker's VirtioBlock::process_queue)
 * executes the requests of a queue notification one after another,
 * taking those that arrive meanwhile too, and publishes them all with
 * one used-ring index update and one interrupt when the queue is empty;
 * the guest's driver (drivers/block/virtio_blk.c virtblk_done, v6.18)
 * completes every used request of that interrupt: a pass's data commands
 * complete at one instant, and their jitter is the pass's (since session
 * 14: hw_nvme_pass_done).
 *
 * Leaves out: the FTL (mapping, garbage collection, wear levelling,
 * over-provisioning), partial physical sectors found in the write cache
 * (a read-modify-write always reads the media), per-page-type (LSB/CSB/MSB) latencies, erase,
 * program/erase suspend, channel buses separate from units, read hits in
 * the write cache, SQ arbitration between queues (commands are served in
 * arrival order), the data itself (content and error injection stay in
 * model/block/bio.c's m_blkdev), DISCARD's effect on later commands,
 * power, temperature; for a pass, a FLUSH's own completion (it ends at
 * its own time; only data commands are held to the pass's end) and the
 * in-flight count of a held command (it leaves the count at its own
 * time: the count serves only -EBUSY, which blk-mq's tags prevent), the
 * VMM's rate limiter and its asynchronous (io_uring) engine, a spread of
 * the commands within one pass (the jitter is drawn per pass); for the backing file, the journal's own periodic
 * commit (jbd2's commit interval, 5 s) and a commit's cost growing with
 * what it holds (every commit costs flush_commit_ns).  A read goes to the unit its LBA stripes to; a
 * program goes to the round-robin write pointer (log-structured), so a
 * read of a written page may be charged to another unit than the one
 * that programmed it.
 */
#include <errno.h>
#include <string.h>

#include "model/hw/nvme.h"

#define NO_PAGE		UINT32_MAX

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint32_t cache_slots(const struct hw_nvme_profile *p)
{
	return p->cache_bytes ? (uint32_t)(p->cache_bytes / p->page_bytes) : 0;
}

static uint32_t inflight_slots(const struct hw_nvme_profile *p)
{
	return p->nr_hw_queues * p->queue_depth;
}

bool hw_nvme_volatile_cache(const struct hw_nvme_profile *p)
{
	return p->cache_bytes && !p->plp;
}

bool hw_nvme_native_fua(const struct hw_nvme_profile *p)
{
	return hw_nvme_volatile_cache(p) && p->fua;
}

size_t hw_nvme_mem_size(const struct hw_nvme_profile *p)
{
	if (hw_nvme_profile_check(p, NULL, 0))
		return 0;
	return (size_t)p->units * sizeof(struct hw_nvme_unit) +
	       (size_t)cache_slots(p) * sizeof(struct hw_nvme_page) +
	       (size_t)inflight_slots(p) * sizeof(uint64_t) +
	       (p->pass_complete ? 2 * HW_NVME_PASS_RING * sizeof(uint64_t) :
				   0);
}

int hw_nvme_init(struct hw_nvme *dev, const struct hw_nvme_profile *p,
		 uint64_t seed, void *mem)
{
	char *m = mem;

	if (hw_nvme_profile_check(p, NULL, 0) || !mem)
		return -EINVAL;
	memset(dev, 0, sizeof(*dev));
	dev->prof = *p;
	dev->rng = seed;
	/* Units first: their 8-byte fields keep the rest aligned. */
	dev->unit = (struct hw_nvme_unit *)m;
	m += (size_t)p->units * sizeof(*dev->unit);
	dev->slots = cache_slots(p);
	dev->pool = (struct hw_nvme_page *)m;
	m += (size_t)dev->slots * sizeof(*dev->pool);
	dev->inflight = (uint64_t *)m;
	dev->inflight_max = inflight_slots(p);
	m += (size_t)dev->inflight_max * sizeof(*dev->inflight);
	if (p->pass_complete) {
		dev->pass_end = (uint64_t *)m;
		memset(dev->pass_end, 0, HW_NVME_PASS_RING * sizeof(uint64_t));
		m += HW_NVME_PASS_RING * sizeof(uint64_t);
		dev->pass_pub = (uint64_t *)m;
		memset(dev->pass_pub, 0, HW_NVME_PASS_RING * sizeof(uint64_t));
	}
	for (uint32_t u = 0; u < p->units; u++) {
		dev->unit[u] = (struct hw_nvme_unit){
			.head = NO_PAGE, .tail = NO_PAGE,
		};
	}
	for (uint32_t i = 0; i < dev->slots; i++)
		dev->pool[i].next = i + 1 < dev->slots ? i + 1 : NO_PAGE;
	dev->pool_free = dev->slots ? 0 : NO_PAGE;
	dev->backing_mtime_tick = UINT64_MAX;	/* the first write moves it */
	return 0;
}

/* ns to move @bytes at @rate bytes/s, rounded up. */
static uint64_t xfer_ns(uint64_t bytes, uint64_t rate)
{
	unsigned __int128 n = (unsigned __int128)bytes * 1000000000u;

	return (uint64_t)((n + rate - 1) / rate);
}

/* One FIFO bandwidth server: the transfer starts at @t or when free. */
static uint64_t link_transfer(uint64_t *free_ns, uint64_t t, uint64_t bytes,
			      uint64_t rate)
{
	uint64_t start = max64(t, *free_ns);

	*free_ns = start + xfer_ns(bytes, rate);
	return *free_ns;
}

/* Jitter: uniform in [0, jitter_ns), or with tail_ppm a tail of mean
 * tail_ns.  The tail is tail_ns * (G + U) / 1.5 with G geometric
 * (P(G = k) = 2^-(k+1), the trailing zeros of a random word) and U
 * uniform in [0, 1): E = tail_ns, P(delay > k * tail_ns / 1.5) ~ 2^-k. */
static uint64_t jitter_of(struct hw_nvme *dev, uint64_t jitter_ns,
			  uint32_t tail_ppm, uint64_t tail_ns)
{
	uint64_t pick = splitmix64(&dev->rng);
	uint64_t r = splitmix64(&dev->rng);
	uint32_t ppm = (uint32_t)(((pick >> 32) * 1000000u) >> 32);

	if (ppm < tail_ppm) {
		uint64_t g = (uint64_t)__builtin_ctzll(r | (1ULL << 62));
		uint64_t u = splitmix64(&dev->rng) >> 32;
		unsigned __int128 x = ((unsigned __int128)g << 33) + 2 * u;

		dev->stats.tails++;
		return (uint64_t)(x * tail_ns / (3ULL << 32));
	}
	if (!jitter_ns)
		return 0;
	return (uint64_t)(((unsigned __int128)r * jitter_ns) >> 64);
}

static uint64_t jitter(struct hw_nvme *dev)
{
	const struct hw_nvme_profile *p = &dev->prof;

	return jitter_of(dev, p->jitter_ns, p->tail_ppm, p->tail_ns);
}

/* Whether a READ has its own jitter (read_jitter_ns, read_tail_*). */
static bool read_jitter_own(const struct hw_nvme_profile *p)
{
	return p->read_jitter_ns || p->read_tail_ppm;
}

/* A READ's jitter: its own when the profile gives one, else the
 * device's.  The draws are the same as jitter()'s, so a profile without
 * the read keys sees the same sequence as before them. */
static uint64_t read_jitter(struct hw_nvme *dev)
{
	const struct hw_nvme_profile *p = &dev->prof;

	if (!read_jitter_own(p))
		return jitter(dev);
	return jitter_of(dev, p->read_jitter_ns, p->read_tail_ppm,
			 p->read_tail_ns);
}

/* A FLUSH's jitter: its own when the profile gives one (uniform, no
 * tail: flush_jitter_ns), else the device's.  The same draws as
 * jitter()'s, so a profile without the key sees the same sequence. */
static uint64_t flush_jitter(struct hw_nvme *dev)
{
	const struct hw_nvme_profile *p = &dev->prof;

	if (!p->flush_jitter_ns)
		return jitter(dev);
	return jitter_of(dev, p->flush_jitter_ns, 0, 0);
}

/* Unit @u does one media operation of @cost ns at LBA @lba, not before
 * @t; returns its end.  A non-sequential access pays seek_ns. */
static uint64_t unit_op(struct hw_nvme *dev, uint32_t u, uint64_t t,
			uint64_t cost, uint64_t lba, uint64_t end_lba)
{
	struct hw_nvme_unit *un = &dev->unit[u];
	uint64_t start = max64(t, un->busy_until_ns);

	if (dev->prof.seek_ns && lba != un->next_lba) {
		cost += dev->prof.seek_ns;
		dev->stats.seeks++;
	}
	un->next_lba = end_lba;
	un->busy_until_ns = start + cost;
	return un->busy_until_ns;
}

/* Free the slot of unit @u's oldest cached page. */
static void cache_pop(struct hw_nvme *dev, uint32_t u)
{
	struct hw_nvme_unit *un = &dev->unit[u];
	uint32_t i = un->head;

	un->head = dev->pool[i].next;
	if (un->head == NO_PAGE)
		un->tail = NO_PAGE;
	dev->pool[i].next = dev->pool_free;
	dev->pool_free = i;
	dev->slots_used--;
}

/* Free the slots of every cached page released by @t. */
static void cache_retire(struct hw_nvme *dev, uint64_t t)
{
	for (uint32_t u = 0; u < dev->prof.units; u++) {
		struct hw_nvme_unit *un = &dev->unit[u];

		while (un->head != NO_PAGE &&
		       dev->pool[un->head].release_ns <= t)
			cache_pop(dev, u);
	}
}

/*
 * Take a cache slot at @a or, if the cache is full, when one frees: the
 * oldest page of some unit releases first (each unit's pages end in
 * order), so one scan of the units finds it.  A full cache holds only
 * closed pages (a slot is taken only with no page open), so one exists.
 */
static uint64_t cache_take_slot(struct hw_nvme *dev, uint64_t a)
{
	if (dev->slots_used == dev->slots) {
		uint64_t best = UINT64_MAX;
		uint32_t best_u = 0;

		for (uint32_t u = 0; u < dev->prof.units; u++) {
			uint32_t h = dev->unit[u].head;

			if (h != NO_PAGE && dev->pool[h].release_ns < best) {
				best = dev->pool[h].release_ns;
				best_u = u;
			}
		}
		if (best > a) {
			dev->stats.cache_waits++;
			dev->stats.cache_wait_ns += best - a;
			a = best;
		}
		cache_pop(dev, best_u);
	}
	dev->slots_used++;
	return a;
}

/* Program the open page on the write pointer's unit, at @a at the
 * earliest; its slot is released when the program ends. */
static uint64_t page_close(struct hw_nvme *dev, uint64_t a)
{
	const struct hw_nvme_profile *p = &dev->prof;
	uint32_t u = dev->write_unit;
	struct hw_nvme_unit *un = &dev->unit[u];
	uint64_t cost = p->program_ns + dev->open_seeks * p->seek_ns;
	uint64_t end;
	uint32_t i;

	dev->write_unit = (u + 1) % p->units;
	dev->stats.seeks += dev->open_seeks;
	if (p->page_merge && dev->open_bytes < p->page_bytes)
		dev->stats.partial_programs++;
	dev->stats.page_programs++;
	end = unit_op(dev, u, a, cost, dev->open_first_lba,
		      dev->open_next_lba);
	un->program_last_end_ns = end;
	dev->open = false;
	if (!dev->slots)
		return end;
	i = dev->pool_free;
	dev->pool_free = dev->pool[i].next;
	dev->pool[i] = (struct hw_nvme_page){ .release_ns = end,
					      .next = NO_PAGE };
	if (un->tail == NO_PAGE)
		un->head = i;
	else
		dev->pool[un->tail].next = i;
	un->tail = i;
	return end;
}

/* Append [lba, lba + bytes) to the open page at @a. */
static void page_append(struct hw_nvme *dev, uint64_t lba, uint32_t bytes)
{
	if (!dev->open_bytes) {
		dev->open_first_lba = lba;
	} else if (lba != dev->open_next_lba) {
		dev->open_seeks++;
	}
	dev->open_bytes += bytes;
	dev->open_next_lba = lba + bytes / HW_NVME_SECTOR_BYTES;
}

/*
 * Read-modify-write: a WRITE that does not start or end on a physical
 * sector needs the old contents of each partial one before its data can
 * be merged, so the device reads the media page holding it (read_ns on
 * the unit it stripes to, after read_delay_ns), starting at @t when the
 * command is parsed.  Returns when the last of those reads ends (@t if
 * there are none).  Partial sectors in one page cost one read.
 */
static uint64_t rmw_read(struct hw_nvme *dev, const struct hw_nvme_cmd *cmd,
			 uint64_t t)
{
	const struct hw_nvme_profile *p = &dev->prof;
	uint64_t ps = p->physical_sector_bytes;
	uint64_t start = cmd->lba * HW_NVME_SECTOR_BYTES;
	uint64_t end = start + cmd->bytes, done = t;
	uint64_t sector[2], last_page = UINT64_MAX;
	unsigned int n = 0;

	if (ps <= HW_NVME_SECTOR_BYTES)
		return t;
	if (start % ps)
		sector[n++] = start - start % ps;
	if (end % ps && (!n || end - end % ps != sector[0]))
		sector[n++] = end - end % ps;
	for (unsigned int i = 0; i < n; i++) {
		uint64_t page = sector[i] / p->page_bytes;
		uint32_t u = (uint32_t)(page % p->units);
		uint64_t lba = sector[i] / HW_NVME_SECTOR_BYTES;

		if (page == last_page)
			continue;
		last_page = page;
		dev->stats.rmw_reads++;
		done = max64(done, unit_op(dev, u, t + p->read_delay_ns,
					   p->read_ns, lba,
					   lba + ps / HW_NVME_SECTOR_BYTES));
	}
	return done;
}

/* A WRITE whose data has crossed the link at @t; returns its ack. */
static uint64_t do_write(struct hw_nvme *dev, const struct hw_nvme_cmd *cmd,
			 uint64_t t)
{
	const struct hw_nvme_profile *p = &dev->prof;
	bool fua = cmd->flags & HW_NVME_CMD_FUA;
	uint64_t lba = cmd->lba, durable = 0;
	uint32_t left = cmd->bytes;
	uint64_t a = max64(t, dev->admit_last_ns);

	while (left) {
		uint32_t take;

		if (!dev->open) {
			if (dev->slots)
				a = cache_take_slot(dev, a);
			dev->open = true;
			dev->open_bytes = 0;
			dev->open_seeks = 0;
		}
		take = p->page_bytes - dev->open_bytes;
		if (take > left)
			take = left;
		page_append(dev, lba, take);
		lba += take / HW_NVME_SECTOR_BYTES;
		left -= take;
		if (dev->open_bytes == p->page_bytes || !p->page_merge ||
		    !dev->slots)
			durable = max64(durable, page_close(dev, a));
	}
	dev->admit_last_ns = a;
	if (!dev->slots)
		return durable;		/* write-through: done when programmed */
	if (fua && !p->plp) {
		/* FUA: its own data on media; close the page holding its
		 * tail. */
		if (dev->open)
			durable = max64(durable, page_close(dev, a));
		return max64(a + p->cache_ack_ns, durable);
	}
	return a + p->cache_ack_ns;
}

static uint64_t do_read(struct hw_nvme *dev, const struct hw_nvme_cmd *cmd,
			uint64_t t)
{
	const struct hw_nvme_profile *p = &dev->prof;
	uint64_t byte = cmd->lba * HW_NVME_SECTOR_BYTES;
	uint32_t u = (uint32_t)((byte / p->page_bytes) % p->units);
	uint32_t pages = (cmd->bytes + p->page_bytes - 1) / p->page_bytes;
	uint64_t lba = cmd->lba, done;

	t += p->read_delay_ns;
	done = t;
	for (uint32_t i = 0; i < pages; i++) {
		uint32_t take = cmd->bytes - i * p->page_bytes;
		uint64_t end_lba;

		if (take > p->page_bytes)
			take = p->page_bytes;
		end_lba = lba + take / HW_NVME_SECTOR_BYTES;
		done = max64(done, unit_op(dev, u, t, p->read_ns, lba,
					   end_lba));
		lba = end_lba;
		u = (u + 1) % p->units;
	}
	dev->stats.page_reads += pages;
	return link_transfer(&dev->link_read_free_ns, done, cmd->bytes,
			     p->link_read_bytes_per_sec);
}

/*
 * A write reaches the backing file at @t (flush_commit_ns): the write
 * moves the file's mtime when the coarse clock's tick differs from the
 * one its mtime holds, and that dirties the inode in the backing
 * filesystem's running transaction (fs/inode.c file_update_time ->
 * inode_needs_update_time, v6.18; ext4_dirty_inode).
 */
static void backing_write(struct hw_nvme *dev, uint64_t t)
{
	uint64_t tick = t / HW_NVME_BACKING_TICK_NS;

	if (tick == dev->backing_mtime_tick)
		return;
	dev->backing_mtime_tick = tick;
	dev->backing_dirty = true;
}

static uint64_t do_flush(struct hw_nvme *dev, uint64_t t)
{
	uint64_t done = t;

	if (!hw_nvme_volatile_cache(&dev->prof))
		return t;
	if (dev->open)
		page_close(dev, max64(t, dev->admit_last_ns));
	for (uint32_t u = 0; u < dev->prof.units; u++)
		done = max64(done, dev->unit[u].program_last_end_ns);
	done += dev->prof.flush_ns;
	/* flush_commit_ns: the loop device's flush is vfs_fsync of its
	 * backing file (drivers/block/loop.c lo_req_flush, v6.18); with the
	 * inode dirtied since the last one, the fsync commits the journal
	 * transaction holding it (ext4_sync_file -> ext4_fsync_journal ->
	 * jbd2_complete_transaction), and with nothing to commit it only
	 * flushes the disk below (flush_ns). */
	if (dev->prof.flush_commit_ns && dev->backing_dirty) {
		dev->backing_dirty = false;
		dev->stats.flush_commits++;
		done += dev->prof.flush_commit_ns;
	}
	return done;
}

static void heap_push(struct hw_nvme *dev, uint64_t v)
{
	uint32_t i = dev->inflight_nr++;

	while (i) {
		uint32_t parent = (i - 1) / 2;

		if (dev->inflight[parent] <= v)
			break;
		dev->inflight[i] = dev->inflight[parent];
		i = parent;
	}
	dev->inflight[i] = v;
}

static void heap_pop(struct hw_nvme *dev)
{
	uint64_t v = dev->inflight[--dev->inflight_nr];
	uint32_t i = 0, n = dev->inflight_nr;

	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && dev->inflight[c + 1] < dev->inflight[c])
			c++;
		if (v <= dev->inflight[c])
			break;
		dev->inflight[i] = dev->inflight[c];
		i = c;
	}
	if (n)
		dev->inflight[i] = v;
}

uint32_t hw_nvme_inflight(struct hw_nvme *dev, uint64_t now_ns)
{
	while (dev->inflight_nr && dev->inflight[0] <= now_ns)
		heap_pop(dev);
	return dev->inflight_nr;
}

uint64_t hw_nvme_cache_used_bytes(struct hw_nvme *dev, uint64_t now_ns)
{
	if (now_ns >= dev->now_last_ns)
		cache_retire(dev, now_ns);
	return (uint64_t)dev->slots_used * dev->prof.page_bytes;
}

uint64_t hw_nvme_destage_done_ns(const struct hw_nvme *dev)
{
	uint64_t done = 0;

	for (uint32_t u = 0; u < dev->prof.units; u++)
		done = max64(done, dev->unit[u].program_last_end_ns);
	return done;
}

static bool cmd_valid(const struct hw_nvme *dev, const struct hw_nvme_cmd *c)
{
	uint64_t sectors = dev->prof.capacity_bytes / HW_NVME_SECTOR_BYTES;

	if (c->op >= HW_NVME_OP_NR)
		return false;
	if (c->flags & ~HW_NVME_CMD_FUA)
		return false;
	if ((c->flags & HW_NVME_CMD_FUA) && c->op != HW_NVME_WRITE)
		return false;
	if (c->op == HW_NVME_FLUSH)
		return c->bytes == 0 && c->lba == 0;
	/* A DISCARD moves no data: no transfer limit (Dataset
	 * Management ranges hold 2^32 blocks). */
	if (!c->bytes || (c->bytes > HW_NVME_CMD_BYTES_MAX &&
			  c->op != HW_NVME_DISCARD) ||
	    c->bytes % HW_NVME_SECTOR_BYTES)
		return false;
	return c->lba <= sectors &&
	       c->bytes / HW_NVME_SECTOR_BYTES <= sectors - c->lba;
}

/* seg_write_ns for each segment of a WRITE's data beyond the first. */
static uint64_t seg_cost(const struct hw_nvme_profile *p,
			 const struct hw_nvme_cmd *cmd)
{
	if (cmd->op != HW_NVME_WRITE || !p->seg_write_ns || cmd->segs <= 1)
		return 0;
	return (uint64_t)(cmd->segs - 1) * p->seg_write_ns;
}

/*
 * The firmware server's time for @cmd: fw_ns, a WRITE's fw_write_ns
 * when set, and seg_write_ns for each segment of a WRITE's data beyond
 * the first.  For the virtio disk the server is the VMM's thread
 * executing the request (Firecracker's Sync engine: a blocking host
 * file call per request); a request's data comes as one descriptor per
 * segment of the guest's scatterlist (drivers/block/virtio_blk.c
 * virtblk_map_data -> blk_rq_map_sg, v6.18: physically contiguous
 * pieces merged, one entry each), and on this guest a 1 MiB write from
 * 4 KiB pages ran at 0.52-0.65x the rate of the same write from huge
 * pages at QD 8 (docs/model/nvme.md "The segments of a write": the
 * measurement; where in the VMM or host the time goes is not seen from
 * the guest).
 */
static uint64_t fw_cost(const struct hw_nvme_profile *p,
			const struct hw_nvme_cmd *cmd)
{
	uint64_t cost = p->fw_ns;

	if (cmd->op != HW_NVME_WRITE)
		return cost;
	if (p->fw_write_ns)
		cost = p->fw_write_ns;
	return cost + seg_cost(p, cmd);
}

/*
 * Where a WRITE's data starts across the link, its server's service
 * ending at @fw_end: after the whole service, or with seg_write_overlap
 * after its first segment (fw_end less the segments' time), so that the
 * link's transfer and the segments beyond the first overlap and the
 * write's data is in at the later of the two ends (the caller).  What
 * the guest sees of it (drivers/block/virtio_blk.c, v6.18):
 * virtio_queue_rq -> virtblk_prep_rq -> virtblk_map_data maps the
 * request to a scatterlist (blk_rq_map_sg) and virtblk_add_req ->
 * virtqueue_add_sgs makes its descriptors, on the guest's CPU, before
 * the notification; from the kick to the used-ring entry the host's
 * work on the descriptors and on the bytes is one time the guest cannot
 * divide.  On this guest a 1 MiB direct write at QD1 took 1.3 us a
 * 4 KiB page more than a 64 KiB one from user pages and 1.1 us a 4 KiB
 * from huge pages, where the segments then the link (seg_write_ns from
 * dev.seq-write at QD 8, link_write from dev.writeback) added to twice
 * it (docs/model/nvme.md "The link under the segments").
 * Divergences: the guest's CPU per segment is not charged here; the
 * overlap is within a command (the link stays one FIFO across
 * commands).
 */
static uint64_t write_link_start(const struct hw_nvme_profile *p,
				 const struct hw_nvme_cmd *cmd,
				 uint64_t fw_end)
{
	if (!p->seg_write_overlap)
		return fw_end;
	return fw_end - seg_cost(p, cmd);
}

/*
 * The firmware server takes a command arriving at @t: a new pass when
 * the server is idle (pass_complete: the last one's end kept), else the
 * command joins the pass being served.  Returns its service's end.
 */
static uint64_t fw_serve(struct hw_nvme *dev, uint64_t t, uint64_t cost)
{
	if (t >= dev->fw_free_ns) {
		if (dev->pass_end && dev->pass_seq)
			dev->pass_end[dev->pass_seq % HW_NVME_PASS_RING] =
				dev->fw_free_ns;
		dev->pass_seq++;
		dev->stats.passes++;
		if (dev->pass_pub) {
			dev->pass_pub[dev->pass_seq % HW_NVME_PASS_RING] = 0;
			dev->pass_jitter_ns = jitter(dev);
			/* A pass's READs take a jitter of their own,
			 * drawn with the pass's (read_jitter_own). */
			if (read_jitter_own(&dev->prof))
				dev->pass_read_jitter_ns = read_jitter(dev);
		}
	}
	dev->fw_free_ns = max64(t, dev->fw_free_ns) + cost;
	return dev->fw_free_ns;
}

/*
 * A pass is published once, when every command of it is done: the VMM
 * adds each executed request to the used ring and advances the used
 * index, with one interrupt, only when the queue is empty (Firecracker's
 * VirtioBlock::process_queue), and the guest's virtblk_done completes
 * every used request of that interrupt in one go.  So every command of a
 * pass completes at one instant, the latest own completion (service,
 * link, cache or media, the jitter) of its commands, and the pass's
 * commands come back to the host together (at depth q in a closed loop,
 * one pass of q commands a cycle, as the interrupt count on this
 * machine's disk shows: docs/model/nvme.md).  The jitter (the profile's
 * body spread and tail, measured at QD1, where a pass is one command) is
 * the pass's: drawn once when the pass begins (fw_serve), the same for
 * each of its data commands; the spread of commands within one pass is
 * not measured and not modelled.  While the pass is still being served
 * it can grow: the command is held to the current end of its service and
 * asked again then.
 */
uint64_t hw_nvme_pass_done(struct hw_nvme *dev, const struct hw_nvme_ticket *tk,
			   uint64_t due_ns)
{
	uint64_t at;

	if (!dev->prof.pass_complete || !tk->pass)
		return due_ns;
	if (dev->pass_seq - tk->pass >= HW_NVME_PASS_RING) {
		dev->stats.pass_ring_misses++;
		return due_ns;
	}
	at = dev->pass_pub[tk->pass % HW_NVME_PASS_RING];
	if (tk->pass == dev->pass_seq && dev->fw_free_ns > due_ns)
		at = max64(at, dev->fw_free_ns);	/* may still grow */
	if (at <= due_ns)
		return due_ns;
	dev->stats.pass_holds++;
	return at;
}

int hw_nvme_submit(struct hw_nvme *dev, const struct hw_nvme_cmd *cmd,
		   uint64_t now_ns, uint64_t *done_ns)
{
	return hw_nvme_submit_ticket(dev, cmd, now_ns, done_ns, NULL);
}

int hw_nvme_submit_ticket(struct hw_nvme *dev, const struct hw_nvme_cmd *cmd,
			  uint64_t now_ns, uint64_t *done_ns,
			  struct hw_nvme_ticket *tk)
{
	const struct hw_nvme_profile *p = &dev->prof;
	uint64_t t, done, rmw, fw_end = 0, pass = 0;

	if (!cmd_valid(dev, cmd))
		return -EINVAL;
	if (now_ns < dev->now_last_ns) {
		dev->stats.late_submits++;
		now_ns = dev->now_last_ns;
	}
	dev->now_last_ns = now_ns;
	if (hw_nvme_inflight(dev, now_ns) == dev->inflight_max) {
		dev->stats.busy_rejects++;
		return -EBUSY;
	}
	dev->stats.cmds[cmd->op]++;
	/* t0, then the firmware server. */
	t = now_ns + p->cmd_ns;
	if (p->fw_ns) {
		t = fw_serve(dev, t, fw_cost(p, cmd));
		fw_end = t;
		pass = dev->pass_seq;
	} else if (p->flush_serial) {
		t = max64(t, dev->fw_free_ns);
	}
	switch (cmd->op) {
	case HW_NVME_WRITE:
		if (cmd->flags & HW_NVME_CMD_FUA)
			dev->stats.fua_writes++;
		if (p->flush_commit_ns)
			backing_write(dev, t);
		rmw = rmw_read(dev, cmd, t);
		t = max64(t, link_transfer(&dev->link_write_free_ns,
					   write_link_start(p, cmd, t),
					   cmd->bytes,
					   p->link_write_bytes_per_sec));
		done = do_write(dev, cmd, max64(t, rmw));
		break;
	case HW_NVME_READ:
		done = do_read(dev, cmd, t);
		break;
	case HW_NVME_FLUSH:
		done = do_flush(dev, t);
		/* flush_serial: nothing behind it starts before it ends. */
		if (p->flush_serial)
			dev->fw_free_ns = max64(dev->fw_free_ns, done);
		break;
	default:
		done = t;	/* DISCARD: the mapping only, no media work */
		break;
	}
	/* pass_complete: a data command's jitter is its pass's, drawn once
	 * when the pass begins (hw_nvme_pass_done's comment). */
	if (p->pass_complete && pass && cmd->op != HW_NVME_FLUSH)
		done += cmd->op == HW_NVME_READ && read_jitter_own(p) ?
			dev->pass_read_jitter_ns : dev->pass_jitter_ns;
	else if (cmd->op == HW_NVME_FLUSH)
		done += flush_jitter(dev);
	else
		done += cmd->op == HW_NVME_READ ? read_jitter(dev) :
			jitter(dev);
	if (done <= now_ns)
		done = now_ns + 1;
	heap_push(dev, done);
	*done_ns = done;
	if (p->pass_complete && pass && cmd->op != HW_NVME_FLUSH) {
		uint64_t *pub = &dev->pass_pub[pass % HW_NVME_PASS_RING];

		*pub = max64(*pub, done);
	}
	if (tk) {
		/* A FLUSH is not held (see the file's comment). */
		*tk = (struct hw_nvme_ticket){
			.pass = p->pass_complete && cmd->op != HW_NVME_FLUSH ?
				pass : 0,
			.fw_end_ns = fw_end,
			.post_ns = done - fw_end,
		};
	}
	return 0;
}

void hw_nvme_dump(const struct hw_nvme *dev, FILE *out)
{
	const struct hw_nvme_stats *s = &dev->stats;

	fprintf(out,
		"nvme %s: now %llu ns, in flight %u, cache %u/%u slots%s, "
		"destaged by %llu ns; reads %llu writes %llu (fua %llu) "
		"flushes %llu discards %llu; page reads %llu programs %llu "
		"(partial %llu), rmw reads %llu, seeks %llu, cache waits "
		"%llu (%llu ns), tails %llu, late %llu, busy %llu\n",
		dev->prof.name, (unsigned long long)dev->now_last_ns,
		dev->inflight_nr, dev->slots_used, dev->slots,
		dev->open ? " (one open)" : "",
		(unsigned long long)hw_nvme_destage_done_ns(dev),
		(unsigned long long)s->cmds[HW_NVME_READ],
		(unsigned long long)s->cmds[HW_NVME_WRITE],
		(unsigned long long)s->fua_writes,
		(unsigned long long)s->cmds[HW_NVME_FLUSH],
		(unsigned long long)s->cmds[HW_NVME_DISCARD],
		(unsigned long long)s->page_reads,
		(unsigned long long)s->page_programs,
		(unsigned long long)s->partial_programs,
		(unsigned long long)s->rmw_reads,
		(unsigned long long)s->seeks,
		(unsigned long long)s->cache_waits,
		(unsigned long long)s->cache_wait_ns,
		(unsigned long long)s->tails,
		(unsigned long long)s->late_submits,
		(unsigned long long)s->busy_rejects);
	if (dev->prof.pass_complete)
		fprintf(out, "nvme %s: passes %llu, completions held to a "
			"pass's end %llu, ring misses %llu\n", dev->prof.name,
			(unsigned long long)s->passes,
			(unsigned long long)s->pass_holds,
			(unsigned long long)s->pass_ring_misses);
	if (dev->prof.flush_commit_ns)
		fprintf(out, "nvme %s: backing file: flushes that committed "
			"%llu, dirty since the last %s\n", dev->prof.name,
			(unsigned long long)s->flush_commits,
			dev->backing_dirty ? "yes" : "no");
}
