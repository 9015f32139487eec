// SPDX-License-Identifier: MIT
/*
 * model/lib/errseq.c - errseq_t: an error that each observer sees once.
 *
 * Models lib/errseq.c of v6.18: the low 12 bits hold the errno, bit 12 is
 * SEEN ("someone sampled this error"), the bits above are a counter bumped
 * when a new error is recorded after the last one was seen.
 * errseq_set, errseq_sample, errseq_check, errseq_check_and_advance.
 * break=errseq_sample_marks_seen puts back errseq_sample as it was
 * before v4.17 (docs/track-record.md).
 *
 * Leaves out: nothing of the algorithm; the cmpxchg loops are single
 * atomic steps here (each cmpxchg is one scheduling point, as in the
 * kernel each attempt is one atomic instruction).
 */
#include "model/linux/fs.h"
#include "model/world.h"

#define ERRSEQ_SHIFT	12	/* ilog2(MAX_ERRNO + 1) */
#define ERRNO_MASK	((1ULL << ERRSEQ_SHIFT) - 1)
#define ERRSEQ_SEEN	(1ULL << ERRSEQ_SHIFT)
#define ERRSEQ_CTR_INC	(1ULL << (ERRSEQ_SHIFT + 1))

/**
 * km_errseq_set - record a new error.
 * Kernel: lib/errseq.c, v6.18.
 * Return: the value found by the successful exchange.
 */
uint64_t km_errseq_set(km_errseq_t *eseq, int err)
{
	uint64_t cur, old;

	if (err >= 0 || -err > 4095)
		return sim_word_peek(eseq);
	old = sim_word_read(eseq);
	for (;;) {
		uint64_t new;

		new = (old & ~(ERRNO_MASK | ERRSEQ_SEEN)) | (uint64_t)-err;
		/* Only bump the counter if someone saw the last error. */
		if ((old & ERRSEQ_SEEN) && !m_broken(M_BREAK_ERRSEQ_NO_SEEN))
			new += ERRSEQ_CTR_INC;
		if (new == old) {
			cur = new;
			break;
		}
		cur = sim_word_cmpxchg(eseq, old, new);
		/* Success, or someone else stored the same value. */
		if (cur == old || cur == new)
			break;
		old = cur;
	}
	return cur;
}

/**
 * km_errseq_sample - the value to compare against later.
 * Kernel: lib/errseq.c, v6.18.
 * Return: 0 if the current error was never seen, else the value.
 * Divergences: with break=errseq_sample_marks_seen, the function as it
 * was from v4.13 to v4.16 (before b4678df184b3 "errseq: Always report a
 * writeback error once"): a recorded error is marked SEEN (cmpxchg) and
 * the marked value returned, so a description opened after an error
 * that nobody has reported yet never reports it
 * (scenarios/history/errseq-open-after-error.litmus).
 */
uint64_t km_errseq_sample(km_errseq_t *eseq)
{
	uint64_t old = sim_word_read(eseq);

	if (m_broken(M_BREAK_ERRSEQ_SAMPLE_MARKS_SEEN)) {
		uint64_t new = old;

		if (old != 0) {
			new |= ERRSEQ_SEEN;
			if (old != new)
				sim_word_cmpxchg(eseq, old, new);
		}
		return new;
	}
	if (!(old & ERRSEQ_SEEN))
		old = 0;
	return old;
}

/**
 * km_errseq_check - has an error been recorded since @since?
 * Kernel: lib/errseq.c, v6.18.
 */
int km_errseq_check(km_errseq_t *eseq, uint64_t since)
{
	uint64_t cur = sim_word_read(eseq);

	if (cur == since)
		return 0;
	return -(int)(cur & ERRNO_MASK);
}

/**
 * km_errseq_check_and_advance - report an error once and advance @since.
 * Kernel: lib/errseq.c, v6.18.
 * Return: 0 or -errno.
 */
int km_errseq_check_and_advance(km_errseq_t *eseq, struct sim_word *since)
{
	uint64_t old, new;
	int err = 0;

	old = sim_word_read(eseq);
	if (old != sim_word_read(since)) {
		/* Mark seen, so the next error bumps the counter. */
		new = old | ERRSEQ_SEEN;
		if (m_broken(M_BREAK_ERRSEQ_NO_SEEN))
			new = old;
		if (new != old)
			sim_word_cmpxchg(eseq, old, new);
		/* break=errseq_no_advance: the sample is not advanced. */
		if (!m_broken(M_BREAK_ERRSEQ_NO_ADVANCE))
			sim_word_write(since, new);
		err = -(int)(new & ERRNO_MASK);
	}
	return err;
}
