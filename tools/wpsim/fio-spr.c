// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/fio-spr.c - `wpsim fio`'s SPRandom (sprandom=1, spr_op,
 * spr_num_regions, spr_cs; fio 3.41 and later, sprandom.c): fio's own
 * offset generator for a random write job that preconditions a flash
 * drive into its steady state, reproduced draw for draw so that a job's
 * write_iolog offsets are fio's (checked against fio 3.42's,
 * tests/fio/test-async.sh).
 *
 * What it models, read from fio 3.42 (f5344384) and written again here:
 * - fio's seeds (init.c setup_random_seeds with randrepeat: randseed
 *   multiplied by 0x9e370001 four times, then seed x thread_number + i
 *   per stream, the seed multiplied again after each), the block
 *   stream's LFSR (lib/lfsr.c lfsr_init, lfsr_next: the taps of the
 *   smallest LFSR above the block count, spin 0, seeded with the
 *   FIO_RAND_BLOCK_OFF seed) and the SPRandom stream's 32-bit
 *   Tausworthe (lib/rand.c __init_rand32, __rand32, rand32_upto, seeded
 *   with the FIO_RAND_SPRANDOM_OFF seed);
 * - sprandom.c: the validity curve (Desnoyers' i x f(i) = k, the write
 *   amplification 0.5 / op + 0.7, resampled on equal region sizes and
 *   reversed), each region's invalidation percentage (in 1/10000), the
 *   physical size (logical + ceil(logical x op), a multiple of bs) that
 *   becomes the job's io_size, the regions' write counts, the two-phase
 *   buffer of offsets to write again (pcbuf.h) and
 *   sprandom_get_next_offset's order: the previous region's saved
 *   offsets first, then new LFSR blocks, each saved with the region's
 *   probability for the next (with spr_cs, the saved offsets are
 *   written at the end of the next region instead).
 * Leaves out: fio's --debug=sprandom lines; the buffer's overflow, which
 * asserts in fio (its capacity is six standard deviations above the
 * expected count), is an error here.  The arithmetic is IEEE double as
 * in fio (fio builds with -ffast-math; the one value that could differ
 * in its last bit, a percentage, is rounded to 1/10000 first).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/wpsim/fio-run.h"

/* ---- fio's 32-bit Tausworthe (lib/rand.c, L'Ecuyer's taus88) -------- */

struct spr_taus {
	uint32_t s1, s2, s3;
};

static uint32_t taus_next(struct spr_taus *t)
{
	t->s1 = ((t->s1 & 0xfffffffeu) << 12) ^ (((t->s1 << 13) ^ t->s1) >> 19);
	t->s2 = ((t->s2 & 0xfffffff8u) << 4) ^ (((t->s2 << 2) ^ t->s2) >> 25);
	t->s3 = ((t->s3 & 0xfffffff0u) << 17) ^ (((t->s3 << 3) ^ t->s3) >> 11);
	return t->s1 ^ t->s2 ^ t->s3;
}

/* __init_rand32: an LCG from a fixed start (fio writes it
 * (2^31) + (2^17) + (2^7), C's XORs: 29 + 19 + 5 = 53), each state at
 * least its taus88 minimum, then six draws thrown away. */
static void taus_seed(struct spr_taus *t, uint32_t seed)
{
	uint32_t x = 53u * 69069u ^ seed;

	t->s1 = x < 1 ? x + 1 : x;
	x = t->s1 * 69069u ^ seed;
	t->s2 = x < 7 ? x + 7 : x;
	x = t->s2 * 69069u ^ seed;
	t->s3 = x < 15 ? x + 15 : x;
	for (int i = 0; i < 6; i++)
		taus_next(t);
}

/* rand_between(state, 0, end) on a 32-bit state: rand32_upto. */
static uint32_t taus_upto(struct spr_taus *t, uint32_t end)
{
	uint32_t r = taus_next(t);

	return (uint32_t)(int)((double)(end + 1) *
			       (r / (1.0 * (1ull << 32))));
}

/* ---- fio's LFSR (lib/lfsr.c) ---------------------------------------- */

/*
 * Tap positions of a maximal-length LFSR of each width (3 to 63 bits;
 * Xilinx XAPP052's table, as fio's lfsr_taps lists them).
 */
static const uint8_t lfsr_taps[64][6] = {
	[3] = { 3, 2 }, [4] = { 4, 3 }, [5] = { 5, 3 }, [6] = { 6, 5 },
	[7] = { 7, 6 }, [8] = { 8, 6, 5, 4 }, [9] = { 9, 5 },
	[10] = { 10, 7 }, [11] = { 11, 9 }, [12] = { 12, 6, 4, 1 },
	[13] = { 13, 4, 3, 1 }, [14] = { 14, 5, 3, 1 }, [15] = { 15, 14 },
	[16] = { 16, 15, 13, 4 }, [17] = { 17, 14 }, [18] = { 18, 11 },
	[19] = { 19, 6, 2, 1 }, [20] = { 20, 17 }, [21] = { 21, 19 },
	[22] = { 22, 21 }, [23] = { 23, 18 }, [24] = { 24, 23, 22, 17 },
	[25] = { 25, 22 }, [26] = { 26, 6, 2, 1 }, [27] = { 27, 5, 2, 1 },
	[28] = { 28, 25 }, [29] = { 29, 27 }, [30] = { 30, 6, 4, 1 },
	[31] = { 31, 28 }, [32] = { 32, 31, 29, 1 }, [33] = { 33, 20 },
	[34] = { 34, 27, 2, 1 }, [35] = { 35, 33 }, [36] = { 36, 25 },
	[37] = { 37, 5, 4, 3, 2, 1 }, [38] = { 38, 6, 5, 1 },
	[39] = { 39, 35 }, [40] = { 40, 38, 21, 19 }, [41] = { 41, 38 },
	[42] = { 42, 41, 20, 19 }, [43] = { 43, 42, 38, 37 },
	[44] = { 44, 43, 18, 17 }, [45] = { 45, 44, 42, 41 },
	[46] = { 46, 45, 26, 25 }, [47] = { 47, 42 },
	[48] = { 48, 47, 21, 20 }, [49] = { 49, 40 },
	[50] = { 50, 49, 24, 23 }, [51] = { 51, 50, 36, 35 },
	[52] = { 52, 49 }, [53] = { 53, 52, 38, 37 },
	[54] = { 54, 53, 18, 17 }, [55] = { 55, 31 },
	[56] = { 56, 55, 35, 34 }, [57] = { 57, 50 }, [58] = { 58, 39 },
	[59] = { 59, 58, 38, 37 }, [60] = { 60, 59 },
	[61] = { 61, 60, 46, 45 }, [62] = { 62, 61, 6, 5 }, [63] = { 63, 62 },
};

struct spr_lfsr {
	uint64_t xormask, last, top, max, count;
	uint64_t cycle;		/* fio's cycle_length (spin 0: 1, then 0) */
};

/* lfsr_init(fl, blocks, seed, spin 0).  Return: 0, or -1 (no LFSR, or
 * the seed is the all-ones state). */
static int lfsr_setup(struct spr_lfsr *l, uint64_t blocks, uint64_t seed)
{
	unsigned int w = 3;

	while (w < 64 && (1ull << w) <= blocks)
		w++;
	if (w == 64)
		return -1;
	l->max = blocks - 1;
	l->xormask = 0;
	for (int i = 0; i < 6 && lfsr_taps[w][i]; i++)
		l->xormask |= 1ull << (lfsr_taps[w][i] - 1);
	l->top = 1ull << (lfsr_taps[w][0] - 1);
	/* prepare_spin(0): no cycle, then the first call's increment. */
	l->cycle = 1;
	l->count = 0;
	l->last = seed & ((l->top << 1) - 1);
	return l->last == (l->top << 1) - 1 ? -1 : 0;
}

static void lfsr_step(struct spr_lfsr *l)
{
	l->last = ((l->last >> 1) | l->top) ^
		  (((l->last & 1ull) - 1ull) & l->xormask);
}

/* lfsr_next: each value below blocks once.  Return: false when spent. */
static bool lfsr_take(struct spr_lfsr *l, uint64_t *v)
{
	if (l->count++ > l->max)
		return false;
	do {
		/* spin 0: the cycle's end steps spin + 1 + 1 times (fio's
		 * first call), every other call once. */
		if (l->cycle && !--l->cycle) {
			lfsr_step(l);
			lfsr_step(l);
		} else {
			lfsr_step(l);
		}
	} while (l->last > l->max);
	*v = l->last;
	return true;
}

/* ---- sprandom.c ---------------------------------------------------- */

#define SPR_PCT_PRECISION 10000

struct fio_spr {
	struct spr_lfsr lfsr;
	struct spr_taus taus;
	uint32_t num_regions;
	uint64_t cache_sz;
	uint32_t *invalid_pct;
	/* pcbuf.h's two-phase ring */
	uint64_t *ring;
	uint64_t cap, commit, staging, tail;
	uint64_t invalid_count[2];
	uint32_t region, phase;
	uint64_t region_writes, remaining;
};

/* linspace(start, end, n) into @a. */
static void linspace(double *a, double start, double end, unsigned int n)
{
	double step;

	if (n == 1) {
		a[0] = start;
		return;
	}
	step = (end - start) / ((double)n - 1.0);
	for (unsigned int i = 0; i < n; i++)
		a[i] = start + (double)i * step;
}

/* linear_interp: within [x0, x(n-1)] by the segment that holds it. */
static double interp(double nx, const double *x, const double *y,
		     unsigned int n)
{
	if (n == 1 || nx <= x[0])
		return y[0];
	if (nx >= x[n - 1])
		return y[n - 1];
	for (unsigned int i = 0; i + 1 < n; i++)
		if (nx >= x[i] && nx <= x[i + 1]) {
			if (fabs(x[i + 1] - x[i]) < 1e-9)
				return y[i];
			return y[i] + (y[i + 1] - y[i]) *
				      ((nx - x[i]) / (x[i + 1] - x[i]));
		}
	return 0.0;
}

/*
 * compute_validity_dist: @n validities from 1 down to the GC block's
 * (1 - 1 / WA), each region's size 1 / validity, resampled at equal
 * sizes, reversed.  Return: 0, or -1 (@why set).
 */
static int validity(double *v, unsigned int n, double op, const char **why)
{
	double waf = 0.5 / op + 0.7;
	double *br = calloc(n, sizeof(double)), *x = calloc(n, sizeof(double));
	double *nx = calloc(n, sizeof(double)), *ny = calloc(n, sizeof(double));
	double acc = 0.0;
	int rc = 0;

	if (!br || !x || !nx || !ny) {
		*why = "out of memory";
		rc = -1;
		goto out;
	}
	linspace(v, 1.0, 1.0 - 1.0 / waf, n);
	for (unsigned int i = 0; i < n; i++)
		br[i] = 1.0 / v[i];
	for (unsigned int i = 0; i < n; i++) {
		x[i] = acc + br[i];
		acc = x[i];
	}
	/* sample_curve_equally_on_x: the x are already in order; fio
	 * refuses two equal ones. */
	for (unsigned int i = 0; i + 1 < n; i++)
		if (x[i + 1] <= x[i]) {
			*why = "fio: x-values must be strictly increasing";
			rc = -1;
			goto out;
		}
	linspace(nx, x[0], x[n - 1], n);
	for (unsigned int i = 0; i < n; i++)
		ny[i] = interp(nx[i], x, v, n);
	for (unsigned int i = 0; i < n; i++)
		v[n - 1 - i] = ny[i];
out:
	free(br);
	free(x);
	free(nx);
	free(ny);
	return rc;
}

/* sprandom_physical_size: logical + ceil(logical x op), down to bs. */
static uint64_t physical_size(double op, uint64_t logical, uint64_t bs)
{
	uint64_t size = logical + (uint64_t)ceil((double)logical * op);

	return size - size % bs;
}

uint64_t fio_spr_physical_size(const struct fio_job *j, uint64_t logical)
{
	return physical_size(j->spr_op, logical, j->bs[FIO_DDIR_WRITE]);
}

/* estimate_inv_capacity: the expected count plus six sigmas. */
static uint64_t inv_capacity(uint64_t count, double valid)
{
	double sigma = sqrt((double)count * valid * (1.0 - valid));

	return (uint64_t)ceil(count * (1.0 - valid) + 6.0 * sigma);
}

/* fio's seed of stream @stream for job number @thread (randrepeat). */
static uint64_t stream_seed(uint64_t randseed, uint32_t thread,
			    unsigned int stream)
{
	uint64_t seed = randseed;

	for (int i = 0; i < 4; i++)
		seed *= 0x9e370001ull;
	for (unsigned int i = 0; i < stream; i++)
		seed *= 0x9e370001ull;
	return seed * thread + stream;
}

#define SPR_FIO_RAND_BLOCK_OFF		6	/* fio.h's enum */
#define SPR_FIO_RAND_SPRANDOM_OFF	22

struct fio_spr *fio_spr_new(const struct fio_job *j, uint64_t randseed,
			    uint32_t thread, uint64_t logical,
			    uint64_t blocks, const char **why)
{
	struct fio_spr *s = calloc(1, sizeof(*s));
	uint64_t bs = j->bs[FIO_DDIR_WRITE];
	uint64_t phys, region_sz;
	double *v = NULL;

	*why = "out of memory";
	if (!s)
		return NULL;
	s->num_regions = j->spr_num_regions;
	s->cache_sz = j->spr_cs;
	if (lfsr_setup(&s->lfsr, blocks,
		       stream_seed(randseed, thread,
				   SPR_FIO_RAND_BLOCK_OFF))) {
		*why = "fio: failed initializing LFSR";
		goto fail;
	}
	taus_seed(&s->taus, (uint32_t)stream_seed(randseed, thread,
						  SPR_FIO_RAND_SPRANDOM_OFF));
	phys = physical_size(j->spr_op, logical, bs);
	v = calloc(s->num_regions, sizeof(double));
	/* One more: fio's last region is number num_regions (the check
	 * comes before the increment), whose percentage fio reads past its
	 * array; what it saves there is never committed, so only the draw
	 * counts.  0 here. */
	s->invalid_pct = calloc(s->num_regions + 1, sizeof(uint32_t));
	if (!v || !s->invalid_pct)
		goto fail;
	if (validity(v, s->num_regions, j->spr_op, why))
		goto fail;
	for (uint32_t i = 0; i < s->num_regions; i++)
		s->invalid_pct[i] = (uint32_t)(int)round((1.0 - v[i]) *
							(double)SPR_PCT_PRECISION);
	region_sz = phys / s->num_regions;
	s->region_writes = region_sz / bs;
	if (s->cache_sz && s->cache_sz > region_sz) {
		*why = "spr_cs must be smaller than a region (fio: \"sprandom: "
		       "spr_cs [N] must be smaller than region_sz\")";
		goto fail;
	}
	s->cap = inv_capacity(s->region_writes, v[0]) * (s->cache_sz ? 2 : 1);
	s->ring = calloc(s->cap ? s->cap : 1, sizeof(uint64_t));
	if (!s->ring)
		goto fail;
	s->remaining = s->region_writes;
	free(v);
	return s;
fail:
	free(v);
	fio_spr_free(s);
	return NULL;
}

void fio_spr_free(struct fio_spr *s)
{
	if (!s)
		return;
	free(s->invalid_pct);
	free(s->ring);
	free(s);
}

/* pcbuf.h */
static uint64_t ring_used(const struct fio_spr *s)
{
	uint64_t committed = s->commit >= s->tail ? s->commit - s->tail :
			     s->cap - s->tail + s->commit;
	uint64_t staged = s->staging >= s->commit ? s->staging - s->commit :
			  s->cap - s->commit + s->staging;

	return committed + staged;
}

static bool ring_pop(struct fio_spr *s, uint64_t *v)
{
	if (s->tail == s->commit)
		return false;
	*v = s->ring[s->tail];
	s->tail = (s->tail + 1) % s->cap;
	return true;
}

/* sprandom_add_with_probability.  Return: -1 when the ring is full
 * (fio asserts). */
static int save_maybe(struct fio_spr *s, uint64_t block, unsigned int phase)
{
	uint32_t v = taus_upto(&s->taus, SPR_PCT_PRECISION);

	if (v > s->invalid_pct[s->region])
		return 0;
	if (s->cap < 2 || ring_used(s) >= s->cap - 1)
		return -1;
	/* pcb_push_staged (never full here: checked above) */
	s->ring[s->staging] = block;
	s->staging = (s->staging + 1) % s->cap;
	s->invalid_count[phase]++;
	return 0;
}

int fio_spr_next(struct fio_spr *s, uint64_t *block)
{
	uint32_t phase = s->phase;
	uint64_t b;

	if (!s->cache_sz && ring_pop(s, &b))
		goto saved;
	if (!s->remaining) {
		if (s->cache_sz && ring_pop(s, &b))
			goto saved;
		if (s->region >= s->num_regions)
			return 1;
		s->invalid_count[phase] = 0;
		s->region++;
		phase ^= 1;
		s->remaining = s->region_writes - s->invalid_count[phase];
		s->phase = phase;
		s->commit = s->staging;		/* pcb_commit */
	}
	if (!lfsr_take(&s->lfsr, &b)) {
		if (s->cache_sz && ring_pop(s, &b)) {
			*block = b;
			return 0;
		}
		return 1;
	}
	if (s->remaining)
		s->remaining--;
saved:
	if (save_maybe(s, b, phase ^ 1))
		return -1;
	*block = b;
	return 0;
}
