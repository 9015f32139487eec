// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/fio-job.c - `wpsim fio`, the job-run loop: the program's
 * setup (the world, each job's state, its files opened with the job's
 * flags), one task per job that issues its I/O with fio's semantics
 * (offsets: sequential as fio computes them, tools/fio/offsets.c, random
 * from splitmix64 with fio's random map; rwmixread; loops=N with fio's
 * clear_io_state; number_ios, io_size, runtime, time_based, ramp_time,
 * startdelay), stonewall waves, and what each counted I/O records: its
 * latencies (fio's slat, clat, lat), the statistics logs and the bw/iops
 * samples on their own clocks, the write_iolog lines.
 *
 * Leaves out: fio's tausworthe generator (offsets come from splitmix64
 * seeded by randseed and the job's number in the run, fio's
 * thread_number: fio_run_stream_start, docs/fio.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/block/fops.h"
#include "model/drivers/mem.h"
#include "model/kernel/rwsem.h"
#include "model/linux/fadvise.h"
#include "model/linux/syscalls.h"
#include "model/world.h"
#include "sim/arena.h"
#include "sim/clock.h"
#include "sim/engine.h"
#include "tools/wpsim/fio-run.h"
#include "tools/wpsim/signals.h"
#include "wpsim/trace.h"

/* ---- randomness ----------------------------------------------------- */

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The largest bs of the job's directions: a read's buffer. */
static uint64_t job_bs_max(const struct fio_job *j)
{
	uint64_t bs = 0;

	for (unsigned int d = 0; d < FIO_DDIR_COUNT; d++) {
		if (j->bs[d] > bs)
			bs = j->bs[d];
		if (j->bs_max[d] > bs)
			bs = j->bs_max[d];
	}
	/* read_iolog: the log's largest entry (fio's max_bs). */
	if (fio_iolog_runner(j) && fio_iolog_len_max() > bs)
		bs = fio_iolog_len_max();
	return bs;
}

/* The direction draws its sizes (bsrange, bssplit with two sizes). */
static bool bs_varies(const struct fio_job *j, enum fio_ddir d)
{
	return j->bs_min[d] && j->bs_min[d] != j->bs_max[d];
}

/* Draws of a size before fio_next_buflen gives up (none fits). */
#define BUFLEN_DRAWS_MAX	(1u << 16)

/*
 * fio's get_next_buflen (io_u.c, fio 3.33) for direction @d of a job
 * whose sizes vary, for an I/O at @pos that must end by @end (fio's
 * io_u_fits): a size from min_bs to max_bs, or from bssplit's sizes by
 * their percentages (sorted, cumulative), aligned down to min_bs and
 * drawn again until it fits.  A 32-bit draw from the job's own
 * sequence (bs_rng) stands for fio's bsrange_state, whose rand_max is
 * 2^32 - 1 too.  Return: the size, or 0 when min_bs does not fit.
 * Divergence: after BUFLEN_DRAWS_MAX draws none of which fits (a split
 * whose every size with a share is too large), 0, where fio loops on.
 */
static uint64_t next_buflen(struct job_run *jr, enum fio_ddir d,
			    uint64_t pos, uint64_t end)
{
	const struct fio_job *j = jr->job;
	const uint64_t frand_max = UINT32_MAX;
	uint64_t minbs = j->bs_min[d], maxbs = j->bs_max[d], buflen = 0;
	bool power_2 = !(minbs & (minbs - 1));

	if (pos + minbs > end)
		return 0;
	for (unsigned int draw = 0; draw < BUFLEN_DRAWS_MAX; draw++) {
		uint64_t r = splitmix64(d == FIO_DDIR_TRIM &&
					is_trimwrite(j->rw) ?
					&jr->bs_rng_trim : &jr->bs_rng) >> 32;

		if (!j->bssplit_nr[d]) {
			buflen = minbs + (uint64_t)((double)maxbs *
						    ((double)r /
						     ((double)frand_max + 1.0)));
		} else {
			uint64_t perc = 0;

			for (uint32_t i = 0; i < j->bssplit_nr[d]; i++) {
				const struct fio_bssplit *bsp =
					&j->bssplit[d][i];

				if (!bsp->perc)
					continue;
				buflen = bsp->bs;
				perc += bsp->perc;
				if (r / perc <= frand_max / 100 &&
				    pos + buflen <= end)
					break;
			}
		}
		if (power_2)
			buflen &= ~(minbs - 1);
		else
			buflen -= buflen % minbs;
		if (buflen > maxbs)
			buflen = maxbs;
		if (pos + buflen <= end)
			return buflen;
	}
	return 0;
}

/*
 * A varying size for the I/O at @pos of a sequential job (fio's
 * fill_io_u: the offset first, then get_next_buflen within io_size and
 * the file).  Return: false when none fits (the pass ends).
 */
static bool seq_buflen(struct job_run *jr, struct fio_seq_offsets *s,
		       enum fio_ddir d, uint64_t pos, uint64_t *bs)
{
	uint64_t len = next_buflen(jr, d, pos, s->io_size + s->start);

	if (!len || pos + len > s->real_file_size)
		return false;
	fio_seq_offsets_resize(s, pos, *bs, len);
	*bs = len;
	return true;
}

/*
 * The random map: a bit per block (fio's axmap), so that a large file's
 * map is an eighth of a byte map (issue 28: memory not the file's).
 */
static size_t randmap_bytes(const struct job_run *jr)
{
	/* Only a random job with fio's random map (or its LFSR) draws
	 * from it (next_offset); fio keeps no axmap for the others, and a
	 * sequential job on a large device would otherwise clear a bit per
	 * block of it at each loop (cross-stripe-verify.fio: 29 MB per job
	 * on 3.72 TB). */
	if (!is_random(jr->job->rw) || !fio_run_once_per_pass(jr->job))
		return sizeof(uint64_t);
	return (size_t)((jr->map_bits + 63) / 64) * sizeof(uint64_t);
}

static bool randmap_test(const struct job_run *jr, uint64_t block)
{
	return (jr->randmap[block / 64] >> (block % 64)) & 1;
}

static void randmap_set(struct job_run *jr, uint64_t block)
{
	jr->randmap[block / 64] |= 1ULL << (block % 64);
	jr->randmap_used++;
}

/* The first free block in [@from, @to), or @to. */
static uint64_t randmap_next_free(const struct job_run *jr, uint64_t from,
				  uint64_t to)
{
	while (from < to) {
		uint64_t free = ~jr->randmap[from / 64] >> (from % 64);

		if (free) {
			from += (uint64_t)__builtin_ctzll(free);
			return from < to ? from : to;
		}
		from = (from / 64 + 1) * 64;
	}
	return to;
}

/*
 * A varying size for the I/O at block @block of a random job: drawn to
 * fit the region, then, with the random map, cut at the first block
 * already used (fio's mark_random_map with axmap_set_nr).
 */
static bool rand_buflen(struct job_run *jr, enum fio_ddir d, uint64_t block,
			uint64_t *bs)
{
	uint64_t minbs = *bs, pos = jr->region_start + block * jr->job->ba[d];
	uint64_t len = next_buflen(jr, d, pos, jr->region_start +
				   jr->region_bytes);
	uint64_t nr = 1;

	if (!len)
		return false;
	if (fio_run_once_per_pass(jr->job)) {
		/* mark_random_map: bits from offset / min_bs[ddir], which
		 * is @block (ba is min_bs where the map is kept). */
		while (nr < (len + minbs - 1) / minbs &&
		       block + nr < jr->map_bits &&
		       !randmap_test(jr, block + nr)) {
			randmap_set(jr, block + nr);
			nr++;
		}
		if (nr * minbs < len)
			len = nr * minbs;
	}
	*bs = len;
	return true;
}

/*
 * fio 3.33's last_block (io_u.c) for direction @d: the file's bytes
 * (min(real_file_size, io_size)) less what min_bs exceeds ba by, in ba
 * units (fio-plan.c's jr->blocks for the job's planned direction).
 */
static uint64_t rand_lastb(const struct job_run *jr, enum fio_ddir d)
{
	const struct fio_job *j = jr->job;
	uint64_t bytes = jr->rand_file_bytes;

	if (j->bs[d] > j->ba[d])
		bytes -= bytes < j->bs[d] - j->ba[d] ? bytes :
			 j->bs[d] - j->ba[d];
	return bytes / j->ba[d];
}

/*
 * fio 3.33's loop_cache_invalidate (io_u.c): when a time_based job wraps
 * to the start of its file (get_next_seq_offset, one file only) or
 * its random map is spent and reset (get_next_rand_block), fio drops the
 * file's cache with file_invalidate_cache (filesetup.c:
 * posix_fadvise(fd, file_offset, io_size, POSIX_FADV_DONTNEED)) unless
 * invalidate=0 or direct=1; the null engine is diskless (no call).  The
 * model's fadvise starts writeback of the range and evicts its clean
 * folios (model/mm/fadvise.c).
 */
static void loop_cache_invalidate(struct job_run *jr)
{
	const struct fio_job *j = jr->job;

	/* A memory device: fio's __file_invalidate_cache does nothing
	 * for FIO_TYPE_CHAR; on a block device it is ioctl(BLKFLSBUF)
	 * (filesetup.c blockdev_invalidate_cache). */
	if (!j->invalidate || j->direct || j->ioengine == FIO_ENGINE_NULL)
		return;
	if (R->file[jr->world_file[jr->cur_file]].dev == FIO_DEV_BLOCK) {
		fio_run_file_syscall(M_SYS_IOCTL, &(struct m_sys_args){
			.file = jr->files[jr->cur_file],
			.flags = KM_BLKFLSBUF });
		return;
	}
	if (R->file[jr->world_file[jr->cur_file]].dev != FIO_DEV_NONE)
		return;
	fio_run_file_syscall(M_SYS_FADVISE64, &(struct m_sys_args){
		.file = jr->files[jr->cur_file],
		.pos = (loff_t)jr->region_start,
		.len = (size_t)jr->region_bytes,
		.flags = KM_POSIX_FADV_DONTNEED });
}

/*
 * The next offset, and with bsrange/bssplit the I/O's size in *@bs
 * (given: the direction's bs, min_bs then); false when a sequential
 * job is at its end.
 */
static bool next_offset(struct job_run *jr, enum fio_ddir d, uint64_t *bsp,
			uint64_t *pos)
{
	uint64_t block, bs = *bsp, lastb;

	if (!is_random(jr->job->rw)) {
		/* trimwrite: the trims' offsets are their own (fio's
		 * last_pos[DDIR_TRIM]). */
		struct fio_seq_offsets *s = d == FIO_DDIR_TRIM &&
			is_trimwrite(jr->job->rw) ? &jr->seq_trim : &jr->seq;
		uint32_t wraps = s->time_wraps;

		if (fio_seq_offsets_next(s, bs, pos))
			return false;
		/* get_next_seq_offset wraps a time_based job of one file
		 * and invalidates its cache. */
		if (s->time_wraps != wraps && jr->nfiles <= 1)
			loop_cache_invalidate(jr);
		return !bs_varies(jr->job, d) ||
		       seq_buflen(jr, s, d, *pos, bsp);
	}
	/* SPRandom (fio 3.41 io_u.c __get_next_rand_offset_sprandom): its
	 * block, or the job's end (td->done). */
	if (jr->spr && d == FIO_DDIR_WRITE) {
		int rc = fio_spr_next(jr->spr, &block);

		/* fio asserts there (the job's process aborts); here
		 * the job ends with EINVAL and says why. */
		if (rc < 0) {
			(void)fio_run_job_error(jr->job, "sprandom: its buffer "
					"of offsets to write again is full "
					"(fio: \"pcb buffer would be "
					"overriten\", then an assert)");
			jr->error = EINVAL;
		}
		if (rc) {
			jr->spr_done = true;
			return false;
		}
		*pos = jr->region_start + block * jr->job->ba[d];
		return true;
	}
	if (jr->job->rand_dist == FIO_RAND_DIST_SEQUENCE) {
		if (!fio_pace_sequence_block(jr, d, &block))
			return false;
		*pos = jr->region_start + block * jr->rand_unit;
		return !bs_varies(jr->job, d) ||
		       rand_buflen(jr, d, block, bsp);
	}
	/* Every block used: fio's get_next_rand_block ends the pass (the
	 * file is done) unless time_based; io_size above size starts the
	 * next (keep_running). */
	if (fio_run_once_per_pass(jr->job) &&
	    jr->randmap_used == jr->map_bits && !jr->job->time_based &&
	    !jr->job->io_size.set)
		return false;
	/* fio's last_block for the direction (its LFSR spans the map). */
	lastb = fio_run_lfsr(jr->job) ? jr->map_bits : rand_lastb(jr, d);
	if (!lastb)
		return false;
	/* random_distribution (fio-rate.c), else uniform. */
	if (!fio_pace_rand_block(jr, d, lastb, &block)) {
		if (jr->error)
			return false;
		block = splitmix64(&jr->rng) % lastb;
	}
	if (fio_run_once_per_pass(jr->job)) {
		/* fio's random map: each block once per pass; a block
		 * already used gives the next free one after it.  Under
		 * random_generator=lfsr the same map stands for fio's
		 * LFSR, which draws each block once in its own order
		 * (docs/fio.md). */
		if (jr->randmap_used == jr->map_bits) {
			memset(jr->randmap, 0, randmap_bytes(jr));
			jr->randmap_used = 0;
			/* get_next_rand_block: fio_file_reset, then
			 * loop_cache_invalidate (time_based). */
			if (jr->job->time_based)
				loop_cache_invalidate(jr);
		}
		if (randmap_test(jr, block)) {
			/* The next free one at or after it, wrapping (a
			 * word at a time: a linear probe cost 16 % of a
			 * random run's host CPU as the map fills). */
			uint64_t at = randmap_next_free(jr, block,
							jr->map_bits);

			block = at < jr->map_bits ? at :
				randmap_next_free(jr, 0, block);
		}
		/* A free block past the direction's last one (another
		 * direction's smaller bs sized the map): fio's
		 * get_next_offset and fill_io_u find the offset past
		 * io_size or the I/O past the file's end, and the file
		 * is done (set_io_u_file); it marks no block then. */
		if (block * jr->job->ba[d] >= jr->rand_file_bytes ||
		    block * jr->job->ba[d] + bs > jr->region_bytes)
			return false;
		randmap_set(jr, block);
	}
	*pos = jr->region_start + block * jr->job->ba[d];
	return !bs_varies(jr->job, d) || rand_buflen(jr, d, block, bsp);
}

bool fio_run_next_offset(struct job_run *jr, enum fio_ddir d, uint64_t *bs,
			 uint64_t *pos)
{
	return next_offset(jr, d, bs, pos);
}

/* Make file @f's offsets and random map the current ones. */
static void select_file(struct job_run *jr, unsigned int f)
{
	if (f == jr->seq_file)
		return;
	jr->seq_files[jr->seq_file] = jr->seq;
	jr->randmap_used_f[jr->seq_file] = jr->randmap_used;
	jr->seq = jr->seq_files[f];
	jr->randmap = jr->randmap_all +
		      (size_t)f * (randmap_bytes(jr) / sizeof(uint64_t));
	jr->randmap_used = jr->randmap_used_f[f];
	jr->seq_file = f;
}

static bool file_is_done(const struct job_run *jr, uint64_t f)
{
	return jr->files_done[f / 64] >> (f % 64) & 1;
}

/* The current file's offsets are spent (fio's get_next_offset failed:
 * the file is done).  Return: true when every file is. */
static bool file_done(struct job_run *jr)
{
	uint64_t bit = 1ull << (jr->cur_file % 64);

	if (!(jr->files_done[jr->cur_file / 64] & bit)) {
		jr->files_done[jr->cur_file / 64] |= bit;
		jr->nfiles_done++;
	}
	return jr->nfiles_done == jr->nfiles;
}

/*
 * The next I/O of a job that trims (fio 3.33 io_u.c): rw=trim and
 * randtrim trim as write and randwrite write; trimwrite and
 * randtrimwrite trim when the file's last write started where its last
 * trim did (set_rw_ddir: last_start[DDIR_WRITE] == last_start[DDIR_TRIM],
 * both -1 at first), else write; randtrimwrite's write is at the last
 * trim's offset with its length, outside the random map (get_next_block,
 * get_next_buflen), and a trim drawn where the last one was moves the
 * write's last_start so that a write still follows (get_next_offset).
 * Return: false at the job's end; *@trim, *@bs and *@pos set.
 */
static bool trim_next(struct job_run *jr, bool *trim, uint64_t *bs,
		      uint64_t *pos)
{
	const struct fio_job *j = jr->job;
	uint64_t *ls = jr->tw_start;
	enum fio_ddir d = FIO_DDIR_TRIM;

	if (is_trimwrite(j->rw) && ls[FIO_DDIR_WRITE] != ls[FIO_DDIR_TRIM])
		d = FIO_DDIR_WRITE;
	*trim = d == FIO_DDIR_TRIM;
	*bs = j->bs[d];
	if (j->rw == FIO_RW_RANDTRIMWRITE && d == FIO_DDIR_WRITE) {
		*pos = ls[FIO_DDIR_TRIM];
		*bs = jr->tw_trim_len;
	} else if (!next_offset(jr, d, bs, pos)) {
		return false;
	}
	if (j->rw == FIO_RW_RANDTRIMWRITE && d == FIO_DDIR_TRIM &&
	    ls[FIO_DDIR_TRIM] == *pos)
		ls[FIO_DDIR_WRITE]--;
	ls[d] = *pos;
	if (d == FIO_DDIR_TRIM)
		jr->tw_trim_len = *bs;
	return true;
}

/* Virtual ms since the job's epoch (fio's mtime_since_now(&td->epoch)). */
static uint64_t job_elapsed_ms(const struct job_run *jr, uint64_t now)
{
	return (now - jr->stats_start_ns) / 1000000;
}

/*
 * fio's calc_log_samples() for one job, up to @now: a bw and an iops
 * sample on their own clocks (__add_samples), into the write_bw_log and
 * write_iops_log windows when they are averaged (bs logged when the job
 * has one bs for the direction, offset 0).
 */
static void job_samples(struct job_run *jr, uint64_t now)
{
	struct fio_result *r = jr->result;
	uint64_t rate[FIO_DDIR_COUNT];
	unsigned int mask;

	while (jr->bw_avg_ns && now >= jr->next_bw_ns) {
		mask = fio_result_sample_bw(r, (jr->next_bw_ns -
						jr->last_bw_ns) / 1000000, rate);
		for (unsigned int d = 0; d < FIO_DDIR_COUNT; d++)
			if (mask & (1u << d))
				fio_log_add(&jr->logs[FIO_LOGF_BW],
					    job_elapsed_ms(jr, jr->next_bw_ns),
					    rate[d], (enum fio_ddir)d,
					    bs_varies(jr->job,
						      (enum fio_ddir)d) ? 0 :
					    jr->job->bs[d], 0, 0);
		jr->last_bw_ns = jr->next_bw_ns;
		jr->next_bw_ns += jr->bw_avg_ns;
	}
	while (jr->iops_avg_ns && now >= jr->next_iops_ns) {
		mask = fio_result_sample_iops(r, (jr->next_iops_ns -
						  jr->last_iops_ns) / 1000000,
					      rate);
		for (unsigned int d = 0; d < FIO_DDIR_COUNT; d++)
			if (mask & (1u << d))
				fio_log_add(&jr->logs[FIO_LOGF_IOPS],
					    job_elapsed_ms(jr,
							   jr->next_iops_ns),
					    rate[d], (enum fio_ddir)d,
					    bs_varies(jr->job,
						      (enum fio_ddir)d) ? 0 :
					    jr->job->bs[d], 0, 0);
		jr->last_iops_ns = jr->next_iops_ns;
		jr->next_iops_ns += jr->iops_avg_ns;
	}
}

/*
 * td_io_open_file's fadvise_hint (ioengines.c, fio 3.33; the default,
 * F_ADV_TYPE): POSIX_FADV_RANDOM for a random job, else
 * POSIX_FADV_SEQUENTIAL (the file's readahead: FMODE_RANDOM, or twice
 * read_ahead_kb).  Given when the job reads through the page cache
 * (@reads); elsewhere it changes no path the model runs, only a
 * syscall's cost, and is left out.
 */
void fio_run_fadvise_hint(struct job_run *jr, unsigned int f, bool reads)
{
	const struct fio_job *j = jr->job;

	/* fio gives the hint to regular files and block devices only
	 * (ioengines.c td_io_open_file: FIO_TYPE_BLOCK, FIO_TYPE_FILE);
	 * the block device is direct=1 here (fio-plan.c). */
	if (!reads || j->direct || j->ioengine == FIO_ENGINE_NULL ||
	    R->file[jr->world_file[f]].dev != FIO_DEV_NONE)
		return;
	fio_run_file_syscall(M_SYS_FADVISE64, &(struct m_sys_args){
		.file = jr->files[f], .pos = (loff_t)jr->region_start,
		.len = (size_t)jr->region_bytes,
		.flags = is_random(j->rw) ? KM_POSIX_FADV_RANDOM :
					    KM_POSIX_FADV_SEQUENTIAL });
}

/*
 * The statistics logs of one completed I/O (fio's account_io_completion:
 * add_lat_sample, add_clat_sample, add_slat_sample at issue for async
 * engines, and per I/O the bw sample bytes x 10^6 / clat_ns and the iops
 * sample 1 when those logs are not averaged).
 */
static void log_io(struct job_run *jr, enum fio_ddir d, uint64_t bytes,
		   uint64_t offset, uint64_t start, uint64_t issue,
		   uint64_t done)
{
	struct fio_result *r = jr->result;
	uint64_t ms = job_elapsed_ms(jr, done);
	/* log_issue_time's column: ntime_since(&td->epoch, issue_time),
	 * 0 for an I/O issued before the epoch (ramp_time resets it). */
	uint64_t issue_ns = issue > jr->stats_start_ns ?
			    issue - jr->stats_start_ns : 0;

	/* the prio column: this I/O's ioprio (fio-prio.c) */
	for (unsigned int l = 0; l < FIO_LOGF_COUNT; l++)
		jr->logs[l].cur_prio = jr->io_ioprio;

	if (r->record_slat)
		fio_log_add(&jr->logs[FIO_LOGF_SLAT],
			    job_elapsed_ms(jr, issue), issue - start, d,
			    bytes, offset, issue_ns);
	fio_log_add(&jr->logs[FIO_LOGF_LAT], ms, done - start, d, bytes,
		    offset, 0);
	fio_log_add(&jr->logs[FIO_LOGF_CLAT], ms, done - issue, d, bytes,
		    offset, issue_ns);
	if (jr->logs[FIO_LOGF_BW].on && !jr->bw_avg_ns) {
		uint64_t rate = done > issue ? bytes * 1000000ull /
					       (done - issue) : 0;

		fio_stat_add(&r->ddir[d].bw, rate);
		r->ddir[d].sampled_bytes = r->ddir[d].io_bytes;
		fio_log_add(&jr->logs[FIO_LOGF_BW], ms, rate, d, bytes,
			    offset, 0);
	}
	if (jr->logs[FIO_LOGF_IOPS].on && !jr->iops_avg_ns) {
		fio_stat_add(&r->ddir[d].iops, 1);
		r->ddir[d].sampled_ios = r->ddir[d].total_ios;
		fio_log_add(&jr->logs[FIO_LOGF_IOPS], ms, 1, d, bytes, offset,
			    0);
	}
}

void fio_run_record_io(struct job_run *jr, enum fio_ddir d, uint64_t bytes,
		      uint64_t offset, uint64_t start, uint64_t issue,
		      uint64_t done)
{
	struct fio_result *r = jr->result;

	fio_pace_completed(jr, d, bytes);	/* fio-rate.c */
	fio_lat_target_done(jr, d, done - start, offset, bytes);
	if (!jr->ramped)
		return;
	if (!r->total_submit || start < jr->first_start_ns)
		jr->first_start_ns = start;
	if (done > jr->last_done_ns)
		jr->last_done_ns = done;
	fio_result_add_io(r, d, bytes, start, issue, done);
	fio_prio_record(jr, d, done - issue);	/* fio-prio.c */
	r->total_submit++;
	r->total_complete++;
	log_io(jr, d, bytes, offset, start, issue, done);
	job_samples(jr, done);
}

/*
 * An I/O issued and never reaped (read_iolog's end: fio-iolog.c): fio
 * counted it at issue (total_io_u, its slat sample and slat log line at
 * submission) and never completes it (no bytes, clat, lat or their
 * logs).
 */
void fio_run_record_unreaped(struct job_run *jr, enum fio_ddir d,
			     uint64_t bytes, uint64_t offset, uint64_t start,
			     uint64_t issue)
{
	struct fio_result *r = jr->result;
	uint64_t issue_ns = issue > jr->stats_start_ns ?
			    issue - jr->stats_start_ns : 0;

	if (!jr->ramped)
		return;
	r->ddir[d].total_ios++;
	r->total_submit++;
	if (!r->record_slat || r->gtod_reduce)
		return;
	fio_lat_add(&r->ddir[d].slat, issue - start);
	jr->logs[FIO_LOGF_SLAT].cur_prio = jr->io_ioprio;
	fio_log_add(&jr->logs[FIO_LOGF_SLAT], job_elapsed_ms(jr, issue),
		    issue - start, d, bytes, offset, issue_ns);
}

static void progress(void)
{
	if (++R->ios_total < R->progress_next)
		return;
	R->progress_next += PROGRESS_IOS;
	if (R->progress)
		fprintf(stderr, "wpsim fio: %" PRIu64 " I/Os, virtual %.3f s\n",
			R->ios_total, (double)sim_now() / 1e9);
}

unsigned int fio_run_file_index(const struct job_run *jr,
				const struct km_file *file)
{
	unsigned int f = 0;

	if (file && jr->cur_file < jr->nfiles &&
	    jr->files[jr->cur_file] == file)
		return jr->cur_file;
	while (f + 1 < jr->nfiles && jr->files[f] != file)
		f++;
	return f;
}

/* write_iolog: one line of the job's log (tools/trace/iolog.c keeps
 * them). */
void fio_run_iolog_note(struct job_run *jr, struct km_file *file,
		       const char *action, bool io, uint64_t off, uint64_t len)
{
	unsigned int f;
	bool *closed;

	if (!jr->job->write_iolog[0])
		return;
	/*
	 * fio 3.33 logs a file's close only when it is open
	 * (close_files, close_and_free_files: fio_file_open), and opens a
	 * file clear_io_state closed at the next I/O on it
	 * (get_next_file -> td_io_open_file, which logs the open).
	 */
	closed = &jr->iolog_closed[jr->job->ioengine == FIO_ENGINE_NULL ?
				   jr->cur_file : fio_run_file_index(jr, file)];
	if (!strcmp(action, "close")) {
		if (*closed)
			return;
		*closed = true;
	} else if (!strcmp(action, "open")) {
		*closed = false;
	} else if (io && *closed) {
		fio_run_iolog_note(jr, file, "open", false, 0, 0);
	}
	if (jr->job->ioengine == FIO_ENGINE_NULL) {
		/* No world file: fio still logs its name. */
		char name[FIO_PATH_LEN_MAX + 1];

		if (fio_job_file_name(jr->job, jr->cur_file, name,
				      sizeof(name)))
			name[0] = '\0';
		trace_iolog_writer_note(jr->index, sim_now(), name, action,
					io, off, len);
		return;
	}
	f = fio_run_file_index(jr, file);
	trace_iolog_writer_note(jr->index, sim_now(),
			 R->file[jr->world_file[f]].name, action, io, off,
			 len);
}

static bool job_more(struct job_run *jr, uint64_t start_ns,
		     uint64_t end_ns)
{
	const struct fio_job *j = jr->job;

	if (jr->error || wpsim_stop_signal())	/* signals.h: a stop */
		return false;
	if (jr->lat.done)			/* latency_target's end */
		return false;
	/* exitall, steadystate's end (fio-rate.c, fio-ss.c) */
	if (fio_pace_terminated(jr))
		return false;
	/* trimwrite: fio's do_io doubles number_ios (and the bytes). */
	if (j->number_ios && jr->ios >= j->number_ios *
	    (is_trimwrite(j->rw) ? 2 : 1))
		return false;
	if (end_ns && sim_now() >= end_ns)
		return false;
	/* fio's io_bytes_exceeded: a trimwrite job counts its writes
	 * (td_write); do_io stops it too when the bytes it queued reach
	 * twice the size (total_bytes += total_io_size), but counts them
	 * only for an I/O the engine queues (io_queue_event's
	 * FIO_Q_QUEUED): engines/null.c queues with iodepth > 1 and
	 * completes at once (FIO_SYNCIO) with iodepth 1 (fio 3.33). */
	if (!j->time_based && is_trimwrite(j->rw))
		return jr->tw_write_bytes < jr->budget_bytes &&
		       (j->iodepth == 1 ||
			jr->bytes_done < 2 * jr->budget_bytes);
	/* fio 3.33's io_bytes_exceeded: the bytes issued since the job
	 * started (every loop's) against io_size (or size) x loops, so a
	 * loop over a region larger than io_size goes on past io_size and
	 * the later loops have less or nothing left (a loop also ends at
	 * the region's end: file_done).  A job that only reads with
	 * verify runs one loop (above), against its size. */
	if (!j->time_based &&
	    jr->loops_bytes + jr->bytes_done >= jr->budget_bytes *
	    (jr->read_verify || !j->loops ? 1 : j->loops))
		return false;
	(void)start_ns;
	return true;
}

/* The statistics start now: at the end of ramp_time, and at
 * latency_target's final run. */
static void job_stats_start(struct job_run *jr)
{
	jr->stats_start_ns = sim_now();
	jr->cpu_start_ns = sim_task_cpu_ns(sim_task_current());
	jr->usr_start_ns = jr->usr_ns;
	jr->last_bw_ns = jr->last_iops_ns = jr->stats_start_ns;
	jr->next_bw_ns = jr->stats_start_ns + jr->bw_avg_ns;
	jr->next_iops_ns = jr->stats_start_ns + jr->iops_avg_ns;
}

static void job_ramp_check(struct job_run *jr, uint64_t ramp_end)
{
	if (jr->ramped || sim_now() < ramp_end)
		return;
	jr->ramped = true;
	job_stats_start(jr);
}

/*
 * latency_target's final run (fio 3.33 io_u.c lat_target_success:
 * reset_all_stats and reset_io_stats): the job's results start again,
 * and its epoch (td->epoch, td->start: the logs' times, the runtime,
 * the bw/iops sample clocks) moves to now.  What fio's reset leaves
 * alone stays: the bytes issued (io_issue_bytes, the job's end), the
 * logs written so far.
 */
void fio_run_stats_reset(struct job_run *jr)
{
	uint32_t pid = jr->result->pid;

	free(jr->result);
	jr->result = fio_result_alloc(jr->job);
	jr->result->pid = pid;
	fio_prio_attach(jr);
	jr->first_start_ns = 0;
	jr->last_done_ns = 0;
	if (jr->ramped)
		job_stats_start(jr);
}

static void job_task(void *arg);

/* Start the jobs of @wave: fio's stonewall, the jobs before have ended. */
void fio_run_spawn_wave(unsigned int wave)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < R->njobs; i++)
		n += R->jobs[i].wave == wave;
	sim_word_write(R->wave_alive, n);
	for (unsigned int i = 0; i < R->njobs; i++)
		if (R->jobs[i].wave == wave)
			sim_task_spawn("fio", job_task, &R->jobs[i]);
}

/* The job's results once it has ended; the next wave, the last job's. */
static void job_finish(struct job_run *jr)
{
	jr->end_ns = sim_now();
	fio_ss_job_exit(jr);
	if (jr->done)
		sim_completion_complete_all(jr->done);	/* wait_for's */
	if (!jr->ramped) {
		jr->stats_start_ns = jr->end_ns;
		jr->cpu_start_ns = sim_task_cpu_ns(sim_task_current());
		jr->usr_start_ns = jr->usr_ns;
	}
	jr->cpu_ns = sim_task_cpu_ns(sim_task_current()) - jr->cpu_start_ns;
	/* fio's finalize_logs() at the job's exit. */
	for (unsigned int l = 0; l < FIO_LOGF_COUNT; l++)
		fio_log_finalize(&jr->logs[l], job_elapsed_ms(jr, jr->end_ns));
	if (sim_word_add(R->wave_alive, -1) == 0 && jr->wave + 1 < R->waves)
		fio_run_spawn_wave(jr->wave + 1);
	if (sim_word_add(R->jobs_alive, -1) == 0) {
		R->wb_stats = m_world()->wb;
		R->reclaimed_pages = m_world()->reclaimed_pages;
		m_blkdev_timed_stats(&R->dev_stats);
		R->dev_reads = sim_word_peek(&m_world()->dev.reads);
		R->wb_allocs = m_world()->xfs_wb_allocs;
		R->unwritten_converts = m_world()->xfs_unwritten_converts;
		R->unwritten_runs = m_world()->xfs_unwritten_runs;
		R->unwritten_splits = m_world()->xfs_unwritten_splits;
		for (unsigned int c = 0; c < R->cpus && c < FIO_CPU_BUSY_MAX;
		     c++)
			R->cpu_busy_ns[c] = sim_cpu_busy_ns(c);
		R->jobs_end_ns = sim_now();
		for (unsigned int f = 0; f < m_world()->nr_files; f++) {
			const struct m_rwsem_grants *g = m_rwsem_grants(
				&m_world()->inodes[f]->i_rwsem);

			R->rwsem_contended += g->contended;
			R->rwsem_passed += g->passed;
			R->rwsem_handoffs += g->handoffs;
			R->rwsem_spins += g->spins;
			R->rwsem_spin_takes += g->spin_takes;
			R->rwsem_spin_polls += g->spin_polls;
		}
	}
}

static void job_loop_reset(struct job_run *jr);
static void job_offsets_init(struct job_run *jr);

/*
 * create_serialize=0 (fio 3.33 backend.c thread_main: setup_files in
 * the job's thread, at its start): a job whose files are a fill_device
 * job's takes its size from them now (fio's stat: i_size), not from the
 * plan (fio-plan.c fill_check); a sequential reader, whole blocks.
 */
static void job_size_at_start(struct job_run *jr)
{
	const struct fio_job *j = jr->job;
	uint64_t bs = j->bs[FIO_DDIR_READ], total = 0, per_file;

	for (unsigned int f = 0; f < jr->nfiles; f++)
		total += (uint64_t)km_i_size_read(jr->files[f]->f_inode);
	per_file = total / jr->nfiles;
	jr->start_file_size = per_file;
	jr->region_bytes = per_file / bs * bs;
	jr->blocks = jr->region_bytes / bs;
	if (!j->io_size.set)
		jr->budget_bytes = jr->region_bytes * jr->nfiles;
	job_offsets_init(jr);
}

/* One pass of the job's workload (one of loops=N). */
static void job_one_loop(struct job_run *jr, uint64_t start_ns,
			 uint64_t ramp_end, uint64_t end_ns,
			 uint32_t *data_seqp)
{
	const struct fio_job *j = jr->job;
	uint32_t data_seq = *data_seqp;

	fio_lat_target_init(jr);	/* fio's do_io: lat_target_init */
	while (job_more(jr, start_ns, end_ns)) {
		int due;
		bool read, trim = false;
		uint64_t bs;
		struct km_file *file;
		uint64_t pos;
		uint32_t data_id;
		int vrc;

		/* fio's do_io: held back by the job's flow (fio-rate.c). */
		if (fio_pace_flow_held(jr)) {
			if (jr->error)
				break;
			continue;
		}
		/* fio's get_io_u: a verify_backlog read first. */
		if (fio_run_verify_backlog(jr)) {
			if (jr->error)
				break;
			continue;
		}
		due = fio_run_sync_due(jr);
		/* get_next_file's round robin skips the files done. */
		while (file_is_done(jr, jr->file_rr % jr->nfiles))
			jr->file_rr++;
		file = jr->files[jr->file_rr % jr->nfiles];
		jr->cur_file = (unsigned int)(jr->file_rr % jr->nfiles);
		select_file(jr, jr->cur_file);

		/* A sync takes the next file in the round robin, as fio's
		 * get_io_u does. */
		jr->file_rr++;
		if (due) {
			jr->error = fio_run_job_sync(jr, file, due - 1, true);
			if (jr->error)
				break;
			continue;
		}
		read = is_read(j->rw) ||
		       ((j->rw == FIO_RW_RW || j->rw == FIO_RW_RANDRW) &&
			splitmix64(&jr->rng) % 100 < j->rwmixread);
		/* Trims (no pacing: fio-plan.c). */
		if (is_trim(j->rw)) {
			if (!trim_next(jr, &trim, &bs, &pos)) {
				if (jr->error || file_done(jr))
					break;
				continue;
			}
			goto issue;
		}
		/* fio's rate_ddir: wait for the rate (fio-rate.c). */
		if (!fio_pace_ddir(jr, &read, end_ns))
			break;
		bs = j->bs[read ? FIO_DDIR_READ : FIO_DDIR_WRITE];
		if (!next_offset(jr, read ? FIO_DDIR_READ : FIO_DDIR_WRITE,
				 &bs, &pos)) {
			/* This file is done; the job when all are. */
			if (jr->error || file_done(jr))
				break;
			continue;
		}
issue:
		data_id = ((uint32_t)(jr->index + 1) << 20) |
			  (++data_seq & 0xfffffu);
		if (!data_id)
			data_id = 1;
		/* verify_state_load: fio's verify_state_should_stop ends
		 * the job at a block its writer had not completed. */
		if (read && jr->read_verify && fio_vstate_should_stop(jr, pos))
			break;
		job_ramp_check(jr, ramp_end);
		jr->last_offset = pos;
		if (read || trim)
			jr->last_was_write = false;
		else
			fio_run_note_write(jr, pos, bs);
		if (!read && !trim && jr->vmap.keys &&
		    (vrc = fio_verify_note(&jr->vmap,
				    fio_verify_key(pos, jr->cur_file),
				    data_id, (uint32_t)bs))) {
			if (vrc == -2)
				snprintf(jr->verify_msg,
					 sizeof(jr->verify_msg), "wpsim fio: "
					 "verify: out of memory for the "
					 "blocks waiting to be read back");
			else
				snprintf(jr->verify_msg,
					 sizeof(jr->verify_msg), "wpsim fio: "
					 "verify: more blocks than planned "
					 "(%" PRIu64 ")", jr->vmap.max);
			jr->error = KM_EIO;
			break;
		}
		jr->ios++;
		jr->bytes_done += bs;
		if (!trim && !read)
			jr->tw_write_bytes += bs;
		progress();
		if (trim)
			jr->error = fio_run_issue_trim(jr, file, pos, bs);
		else
			jr->error = fio_run_issue(jr, file, read, pos, bs,
						  data_id);
		/* libaio, io_uring: checked when reaped (fio-verify.c). */
		if (read && jr->read_verify && !jr->error &&
		    !fio_run_async(j))
			fio_run_read_verify(jr, pos, bs);
		jr->last_done_read = read;
		if (jr->error)
			break;
		/* fio-rate.c: the rate clock, thinktime, rate_min. */
		fio_pace_issued(jr, read, bs);
		jr->error = fio_pace_after_io(jr, read, end_ns);
		if (jr->error)
			break;
		/* latency_target (fio-rate.c): not in ramp time. */
		if (jr->ramped && (jr->error = fio_lat_target_check(jr)))
			break;
	}
	*data_seqp = data_seq;
}

static void job_task(void *arg)
{
	struct job_run *jr = arg;
	const struct fio_job *j = jr->job;
	uint64_t start_ns, ramp_end, end_ns = 0, written = 0;
	uint32_t data_seq = 0;

	if (j->startdelay_ns)
		sim_sleep_ns(j->startdelay_ns);
	/* wait_for (fio's run_threads creates a job once its start delay
	 * has passed and waitee_running() is false): every job of that
	 * name ended.  fio looks again every 100 ms or so; here the job
	 * starts when the last waitee ends. */
	for (unsigned int k = 0; j->wait_for[0] && k < R->njobs; k++)
		if (!strcmp(R->jobs[k].job->name, j->wait_for) &&
		    strcmp(j->name, j->wait_for))
			sim_completion_wait(R->jobs[k].done);
	if (jr->size_at_start)
		job_size_at_start(jr);
	start_ns = sim_now();
	fio_pace_start(jr, start_ns);	/* fio-rate.c: the epoch, the flow */
	fio_ss_job_start(jr);		/* fio-ss.c: its epoch */
	for (unsigned int f = 0; f < jr->nfiles; f++) {
		fio_run_iolog_note(jr, jr->files[f], "add", false, 0, 0);
		fio_run_iolog_note(jr, jr->files[f], "open", false, 0, 0);
		fio_run_fadvise_hint(jr, f, !is_write(j->rw));
	}
	ramp_end = start_ns + j->ramp_time_ns;
	if (j->runtime_ns)
		end_ns = ramp_end + j->runtime_ns;
	job_ramp_check(jr, ramp_end);
	/* A job that only reads, with verify=: fio 3.33 counts its reads
	 * as verified, not done (io_u.c io_u_update_bytes_done in
	 * TD_VERIFYING), so do_io ends it after one pass ("stop job if we
	 * failed doing any IO", backend.c): loops=N reads once (measured,
	 * docs/fio.md; later fio reads N times). */
	jr->exp_verified = 0;
	/* read_iolog (fio-iolog.c): the log's entries, once. */
	if (fio_iolog_runner(j))
		fio_iolog_run(jr, &data_seq);
	/* ioengine=null with verify and a backlog, time_based or
	 * batches: fio's io_u life cycle (fio-nullv.c), the whole job. */
	if (fio_nullv_job(j)) {
		fio_nullv_run(jr, end_ns);
		fio_pace_exit(jr);
		job_finish(jr);
		return;
	}
	for (uint32_t loop = 0; !fio_iolog_runner(j) &&
	     loop < (j->time_based || jr->read_verify ? 1 : j->loops) &&
	     !jr->error; loop++) {
		if (loop) {
			/* experimental_verify: fio 3.33's keep_running
			 * counts the verify reads in the job's bytes, so
			 * the loops end when writes and reads reach
			 * size x loops (measured: t0026's job1, loops=8,
			 * writes 1792 blocks and reads 256). */
			if (j->experimental_verify && jr->verify &&
			    written + jr->exp_verified >=
			    jr->budget_bytes * j->loops)
				break;
			job_loop_reset(jr);
			if (!job_more(jr, start_ns, end_ns))
				break;
		}
		job_one_loop(jr, start_ns, ramp_end, end_ns, &data_seq);
		written += jr->bytes_done;
		jr->loops_bytes += jr->bytes_done;
		/* fio's do_verify after each do_io but the last
		 * (fio-verify.c). */
		if (!j->time_based && loop + 1 < j->loops)
			fio_run_job_verify_pass(jr, false);
	}
	fio_run_job_drain(jr);	/* clears fill_device's FIO_RUN_FILLED */
	/* fio 3.33's do_io marks the job terminated when its runtime is
	 * exceeded (fio_mark_td_terminate), and thread_main then leaves
	 * before do_verify: a time_based job, or one that runtime= ends,
	 * reads nothing back (measured: --rw=write --time_based
	 * --runtime=1 --size=1m --verify=md5 writes 16271 blocks and reads
	 * none; with rw=randrw and experimental_verify=1 the reads are the
	 * workload's). */
	/* fill_device's ENOSPC marks it terminated as well (backend.c
	 * do_io, fio_mark_td_terminate): no verify phase (fio-err.c). */
	if (!(end_ns && sim_now() >= end_ns) && !jr->filled)
		fio_run_job_verify(jr);
	fio_pace_exit(jr);
	job_finish(jr);
}

/* Where the job's offsets start: at its start, and each loop. */
static void job_offsets_init(struct job_run *jr)
{
	const struct fio_job *j = jr->job;
	uint64_t fsize;

	/* ioengine=null has no world file: its size is the job's; a
	 * block device's is the device's (fio's real_file_size), a
	 * memory device's the job's region (it has none). */
	if (j->file_append || j->ioengine == FIO_ENGINE_NULL ||
	    R->file[jr->world_file[0]].dev == FIO_DEV_NULL ||
	    R->file[jr->world_file[0]].dev == FIO_DEV_ZERO)
		fsize = jr->region_start + jr->region_bytes;
	else if (R->file[jr->world_file[0]].dev == FIO_DEV_BLOCK)
		fsize = R->dev_bytes;
	else if (jr->size_at_start)
		fsize = jr->start_file_size;	/* 0 until it starts */
	else
		fsize = (uint64_t)R->file[jr->world_file[0]].layout_size;
	fio_seq_offsets_init(&jr->seq, j, jr->region_bytes, fsize);
	/* fio_file_reset: last_pos at the start, last_start -1. */
	jr->seq_trim = jr->seq;
	for (unsigned int d = 0; d < FIO_DDIR_COUNT; d++)
		jr->tw_start[d] = UINT64_MAX;
	if (j->file_append)
		jr->seq.start = jr->seq.file_offset = jr->seq.last_pos =
			jr->region_start;
	/* Each file starts alike (fio_file_reset); file 0 current. */
	for (unsigned int f = 0; f < jr->nfiles; f++)
		jr->seq_files[f] = jr->seq;
	memset(jr->randmap_all, 0, randmap_bytes(jr) * jr->nfiles);
	memset(jr->randmap_used_f, 0, jr->nfiles * sizeof(uint64_t));
	jr->randmap = jr->randmap_all;
	jr->randmap_used = 0;
	jr->seq_file = 0;
	memset(jr->files_done, 0, (jr->nfiles + 63) / 64 *
	       sizeof(*jr->files_done));
	jr->nfiles_done = 0;
}

/*
 * loops=N, the next loop (fio's clear_io_state): the files closed (the
 * next I/O on each opens it again: fio_run_iolog_note), offsets from
 * the start, the random map empty, the random sequence from its seed
 * again when randrepeat=1; the writes issued (for fsync=N) keep
 * counting.  Divergence: fio's td_io_open_file at that next I/O also
 * drops the file's clean cache (invalidate=1) and gives its fadvise
 * hint; the model's file stays open and neither is done here (the
 * verify pass's open does both, fio-verify.c).
 */
static void job_loop_reset(struct job_run *jr)
{
	/* do_io's end reaped null's pending events (io_u_queued_complete). */
	jr->null_events = false;
	for (unsigned int f = 0; f < jr->nfiles; f++)
		fio_run_iolog_note(jr, jr->files[f], "close", false, 0, 0);
	fio_run_offsets_reset(jr);
}

void fio_run_offsets_reset(struct job_run *jr)
{
	job_offsets_init(jr);	/* every file's offsets and map */
	if (jr->job->randrepeat) {
		jr->rng = jr->rng_start;
		jr->bs_rng = jr->rng_start ^ 0xb5b5b5b5b5b5b5b5ull;
		jr->bs_rng_trim = jr->bs_rng;
	}
	jr->bytes_done = 0;
	jr->tw_write_bytes = 0;
	jr->file_rr = 0;
	for (unsigned int f = 0; f < jr->nfiles; f++)
		jr->engine_pos[f] = UINT64_MAX;
}

/*
 * The job's open(2) of run file @f: a regular file of the world, the
 * raw block device (model/block/fops.c m_bdev_open: def_blk_fops) or a
 * memory device (model/drivers/char/mem.c).  fio-plan.c checked that
 * the open succeeds (O_DIRECT on a memory device is refused there).
 */
static struct km_file *open_file(unsigned int f, unsigned int flags)
{
	struct km_file *file = NULL;

	switch (R->file[f].dev) {
	case FIO_DEV_BLOCK:
		return m_bdev_open(flags);
	case FIO_DEV_NULL:
	case FIO_DEV_ZERO:
		if (m_chrdev_mem_open(R->file[f].dev == FIO_DEV_NULL ?
				      KM_MEM_MINOR_NULL : KM_MEM_MINOR_ZERO,
				      flags, &file))
			sim_fail(SIM_FAIL_ASSERT, "fio: open of %s failed",
				 R->file[f].name);
		return file;
	default:
		return m_file_open(m_world()->inodes[f], flags);
	}
}

static void run_setup(void *unused)
{
	(void)unused;
	timed_run_setup(&R->world, &R->profile, R->cpus, R->seed);
	/* The blocks an earlier run left (fio-vstate.c). */
	fio_vstate_lay();
	R->jobs_alive = sim_arena_alloc(sizeof(*R->jobs_alive));
	sim_word_init(R->jobs_alive, R->njobs, "fio.jobs_alive");
	R->ios_total = 0;
	R->progress_next = PROGRESS_IOS;
	trace_iolog_writer_reset(R->njobs);
	for (unsigned int i = 0; i < R->njobs; i++) {
		struct job_run *jr = &R->jobs[i];
		const struct fio_job *j = jr->job;
		struct fio_result *r = jr->result;
		unsigned int flags = 0;

		free(r);
		jr->result = r = fio_result_alloc(j);
		r->pid = i + 1;
		/* randrepeat=0: fio seeds from the clock; here a fresh
		 * sequence from the run's --seed, still reproducible. */
		jr->rng = fio_run_stream_start(j->randseed, i);
		if (!j->randrepeat) {
			uint64_t mix = R->seed ^ 0x5deece66dull;

			jr->rng ^= splitmix64(&mix);
		}
		jr->rng_start = jr->rng;
		jr->bs_rng = jr->rng ^ 0xb5b5b5b5b5b5b5b5ull;
		jr->bs_rng_trim = jr->bs_rng;
		fio_pace_setup(jr, i == 0);	/* fio-rate.c */
		/* A job some other job waits for (wait_for=): its end. */
		jr->done = NULL;
		for (unsigned int k = 0; k < R->njobs; k++)
			if (!strcmp(R->jobs[k].job->wait_for, j->name) &&
			    !jr->done) {
				jr->done = sim_arena_alloc(sizeof(*jr->done));
				sim_completion_init(jr->done, "fio.job%u.done",
						    i);
			}
		jr->seq_files = sim_arena_alloc(jr->nfiles *
						sizeof(*jr->seq_files));
		jr->randmap_all = sim_arena_alloc(randmap_bytes(jr) *
						  jr->nfiles);
		jr->randmap_used_f = sim_arena_alloc(jr->nfiles *
						     sizeof(uint64_t));
		if (j->write_iolog[0]) {
			jr->iolog_closed = sim_arena_alloc(jr->nfiles *
						sizeof(*jr->iolog_closed));
			memset(jr->iolog_closed, 0, jr->nfiles *
			       sizeof(*jr->iolog_closed));
		}
		job_offsets_init(jr);
		jr->read_buf = sim_arena_alloc(
			(size_t)(job_bs_max(j) + 511) / 512 * sizeof(uint32_t));
		if (j->ioengine == FIO_ENGINE_IO_URING ||
		    j->ioengine == FIO_ENGINE_LIBAIO ||
		    fio_run_posix_queue(j)) {
			if (j->ioengine == FIO_ENGINE_IO_URING)
				jr->reqs = sim_arena_alloc(j->iodepth *
							   sizeof(*jr->reqs));
			else
				jr->aio = sim_arena_alloc(j->iodepth *
							  sizeof(*jr->aio));
			if (jr->aio) {
				sim_completion_init(&jr->ring, "aio.ring");
				for (unsigned int k = 0; k < j->iodepth; k++)
					jr->aio[k].ring = &jr->ring;
			}
			jr->req_start_ns = sim_arena_alloc(j->iodepth *
							   sizeof(uint64_t));
			jr->req_issue_ns = sim_arena_alloc(j->iodepth *
							   sizeof(uint64_t));
			jr->req_busy = sim_arena_alloc(j->iodepth);
			jr->req_bs = sim_arena_alloc(j->iodepth *
						     sizeof(uint64_t));
			jr->req_pos = sim_arena_alloc(j->iodepth *
						      sizeof(uint64_t));
			jr->req_read = sim_arena_alloc(j->iodepth);
			jr->req_data = sim_arena_alloc(j->iodepth *
						       sizeof(uint32_t));
			jr->req_verify = sim_arena_alloc(j->iodepth);
			jr->req_file = sim_arena_alloc(j->iodepth *
						       sizeof(unsigned int));
			jr->req_buf_sectors = 0;
			jr->req_buf = NULL;
			/* Reads need a buffer per slot: a job that
			 * reads, or a verify's reads. */
			if (!is_write(j->rw) || jr->verify ||
			    (fio_iolog_runner(j) && fio_iolog_reads())) {
				jr->req_buf_sectors = (size_t)(job_bs_max(j) +
							       511) / 512;
				jr->req_buf = sim_arena_alloc(j->iodepth *
					jr->req_buf_sectors *
					sizeof(uint32_t));
			}
		}
		jr->req_head = 0;
		jr->req_inflight = 0;
		jr->issue_verify = false;
		jr->writes_issued = 0;
		jr->last_was_write = false;
		jr->last_offset = 0;
		jr->sfr_first = UINT64_MAX;
		jr->sfr_last = 0;
		jr->file_rr = 0;
		for (unsigned int f = 0; f < jr->nfiles; f++)
			jr->engine_pos[f] = UINT64_MAX;
		fio_verify_map_reset(&jr->vmap);
		jr->verify_msg[0] = '\0';
		jr->verify_head = 0;
		jr->verify_batch_left = 0;
		jr->last_done_read = false;
		jr->ios = 0;
		jr->bytes_done = 0;
		jr->tw_write_bytes = 0;
		jr->ramped = false;
		jr->error = 0;
		memset(&jr->lat, 0, sizeof(jr->lat));
		jr->lat.qd = j->iodepth;
		/* fio's add_job: a write_bw_log/write_iops_log sets the
		 * sampling clock to log_avg_msec (0: per I/O). */
		fio_log_setup(jr->logs, j, i + 1);
		jr->bw_avg_ns = jr->logs[FIO_LOGF_BW].on ?
				j->log_avg_msec * 1000000ull : SAMPLE_NS;
		jr->iops_avg_ns = jr->logs[FIO_LOGF_IOPS].on ?
				  j->log_avg_msec * 1000000ull : SAMPLE_NS;
		if (j->direct)
			flags |= KM_O_DIRECT;
		if (j->sync == FIO_SYNC_DSYNC)
			flags |= KM_O_DSYNC;
		if (j->sync == FIO_SYNC_SYNC)
			flags |= KM_O_SYNC;
		for (unsigned int f = 0; f < jr->nfiles; f++)
			jr->files[f] = j->ioengine == FIO_ENGINE_NULL ? NULL :
				open_file(jr->world_file[f], flags);
	}
	fio_run_files_idle();
	memset(&R->dev_stats, 0, sizeof(R->dev_stats));
	R->wave_alive = sim_arena_alloc(sizeof(*R->wave_alive));
	sim_word_init(R->wave_alive, 0, "fio.wave_alive");
	fio_ss_setup();		/* fio-ss.c: steadystate's helper */
	fio_prio_setup();	/* fio-prio.c: priorities */
	if (fio_run_layout_needed())
		sim_task_spawn("fio", fio_run_layout_task, NULL);
	else
		fio_run_spawn_wave(0);
	if (R->buffered)
		timed_run_spawn_flusher(R->jobs_alive);
}

const struct sim_program fio_run_program = {
	.name = "fio",
	.description = "wpsim fio: fio jobs against the model",
	.setup = run_setup,
};
