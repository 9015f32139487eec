// SPDX-License-Identifier: MIT
/*
 * realcode/tests/differential.c - the model's XArray marks against the
 * real lib/xarray.c (TAP).
 *
 * The same operation programs (2-3 tasks of 1-3 operations on indices 0,
 * 1, 2 and 17: store, erase, set/clear/get a mark, find the first
 * marked index) run on both sides under exhaustive DPOR; the set of
 * outcomes (every operation's result and the final entries and marks)
 * must be the same.  Real side: realcode/xa.h over the unchanged
 * lib/xarray.c.  Model side: a struct km_address_space's i_pages with
 * the model's m_xa_set_mark, m_xa_clear_mark, m_xa_get_mark and
 * m_xa_next_marked (model/mm/filemap.c), each writing operation under
 * the mapping's xa_lock as the model's callers hold it; the store and
 * erase of a slot are the model's writes of the entry word (as
 * filemap_add_folio and page_cache_delete do them: an erase clears the
 * three marks, as xas_init_marks does).
 *
 * Usage: differential [RANDOM_PROGRAMS [SEED]] (default 40, 1).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/linux/pagemap.h"
#include "outcomes.h"
#include "realcode/rt.h"
#include "realcode/xa.h"
#include "sim/explore.h"
#include "sim/shared.h"
#include "sim/strategy.h"

enum { STORE, ERASE, SET, CLEAR, GET, FIND, OPS };
static const char *const op_name[OPS] = {
	"store", "erase", "set", "clear", "get", "find",
};
static const unsigned long idx[4] = { 0, 1, 2, 17 };

struct op {
	uint8_t kind, i, arg;	/* i: into idx[]; arg: value or mark */
};

struct dprog {
	int ntasks;
	int nops[3];
	struct op ops[3][3];
	uint8_t init_v[4], init_m[4];
};

static const struct dprog *P;
static unsigned long results[3][3];
static struct xarray *XA;
static struct km_address_space *M;

/* ---- the real side ------------------------------------------------------ */

static void real_task(void *arg)
{
	int t = (int)(intptr_t)arg;

	for (int k = 0; k < P->nops[t]; k++) {
		const struct op *o = &P->ops[t][k];
		unsigned long i = idx[o->i];

		switch (o->kind) {
		case STORE: results[t][k] = rcx_store(XA, i, o->arg); break;
		case ERASE: results[t][k] = rcx_erase(XA, i); break;
		case SET: rcx_set_mark(XA, i, o->arg); break;
		case CLEAR: rcx_clear_mark(XA, i, o->arg); break;
		case GET: results[t][k] = rcx_get_mark(XA, i, o->arg); break;
		case FIND:
			results[t][k] = rcx_find_marked(XA, i, 17, o->arg);
			break;
		}
	}
}

static void real_setup(void *config)
{
	(void)config;
	rc_begin();
	XA = rcx_new();
	memset(results, 0, sizeof(results));
	for (int k = 0; k < 4; k++) {
		if (P->init_v[k])
			rcx_store(XA, idx[k], P->init_v[k]);
		for (unsigned int m = 0; m < 3; m++)
			if (P->init_m[k] & 1u << m)
				rcx_set_mark(XA, idx[k], m);
	}
	for (int t = 0; t < P->ntasks; t++)
		sim_task_spawn("t", real_task, (void *)(intptr_t)t);
}

/* ---- the model side ----------------------------------------------------- */

static unsigned long model_entry(unsigned long i)
{
	return sim_word_read(&m_xa_slot(M, i)->entry);
}

static void model_task(void *arg)
{
	int t = (int)(intptr_t)arg;

	for (int k = 0; k < P->nops[t]; k++) {
		const struct op *o = &P->ops[t][k];
		unsigned long i = idx[o->i];
		unsigned long n;

		switch (o->kind) {
		case STORE:
			sim_spin_lock(&M->xa_lock);
			results[t][k] = model_entry(i);
			sim_word_write(&m_xa_slot(M, i)->entry, o->arg);
			sim_spin_unlock(&M->xa_lock);
			break;
		case ERASE:
			sim_spin_lock(&M->xa_lock);
			results[t][k] = model_entry(i);
			sim_word_write(&m_xa_slot(M, i)->entry, 0);
			for (int m = 0; m < 3; m++)
				m_xa_clear_mark(M, i, m);
			sim_spin_unlock(&M->xa_lock);
			break;
		case SET:
		case CLEAR:
			sim_spin_lock(&M->xa_lock);
			if (model_entry(i)) {
				if (o->kind == SET)
					m_xa_set_mark(M, i, o->arg);
				else
					m_xa_clear_mark(M, i, o->arg);
			}
			sim_spin_unlock(&M->xa_lock);
			break;
		case GET:
			results[t][k] = m_xa_get_mark(M, i, o->arg);
			break;
		case FIND:
			n = m_xa_next_marked(M, i, 17, 18, o->arg);
			results[t][k] = n > 17 ? RCX_NONE : n;
			break;
		}
	}
}

static void model_setup(void *config)
{
	(void)config;
	M = sim_arena_alloc(sizeof(*M));
	sim_spin_init(&M->xa_lock, "xa_lock");
	m_xa_init(M, "M", false);
	memset(results, 0, sizeof(results));
	for (int k = 0; k < 4; k++) {
		m_xa_slot(M, idx[k])->entry.value = P->init_v[k];
		m_xa_slot(M, idx[k])->marks.value = P->init_v[k] ?
						 P->init_m[k] : 0;
	}
	for (int t = 0; t < P->ntasks; t++)
		sim_task_spawn("t", model_task, (void *)(intptr_t)t);
}

/* ---- outcomes ------------------------------------------------------------- */

static void fmt_outcome(bool real)
{
	size_t n = 0;

	for (int t = 0; t < P->ntasks; t++)
		for (int k = 0; k < P->nops[t]; k++)
			n += (size_t)snprintf(rc_outcome_text + n,
					      sizeof(rc_outcome_text) - n, "%ld,",
					      (long)results[t][k]);
	for (int k = 0; k < 4; k++) {
		unsigned long v;
		unsigned int m;

		if (real) {
			v = rcx_peek(XA, idx[k], &m);
		} else {
			v = sim_word_peek(&m_xa_slot(M, idx[k])->entry);
			m = (unsigned int)sim_word_peek(
				&m_xa_slot(M, idx[k])->marks);
		}
		n += (size_t)snprintf(rc_outcome_text + n,
				      sizeof(rc_outcome_text) - n,
				      " %lu:%lu/%u", idx[k], v, m);
	}
}

static void real_final(void *c) { (void)c; fmt_outcome(true); }
static void model_final(void *c) { (void)c; fmt_outcome(false); }

static void describe(const struct dprog *p, char *buf, size_t size)
{
	size_t n = 0;

	n += (size_t)snprintf(buf + n, size - n, "init");
	for (int k = 0; k < 4; k++)
		if (p->init_v[k])
			n += (size_t)snprintf(buf + n, size - n, " %lu=%u/%u",
					      idx[k], p->init_v[k],
					      p->init_m[k]);
	for (int t = 0; t < p->ntasks; t++) {
		n += (size_t)snprintf(buf + n, size - n, " | T%d:", t);
		for (int k = 0; k < p->nops[t]; k++)
			n += (size_t)snprintf(buf + n, size - n, " %s(%lu,%u)",
					      op_name[p->ops[t][k].kind],
					      idx[p->ops[t][k].i],
					      p->ops[t][k].arg);
	}
}

static unsigned int tapn;
static uint64_t total_real, total_model, total_outcomes;

/* The outcome sets of the program being checked (large: static). */
static struct rc_diff D;

static bool check(const struct dprog *p)
{
	static const struct sim_program real = {
		"diff-real", NULL, real_setup, real_final, NULL };
	static const struct sim_program model = {
		"diff-model", NULL, model_setup, model_final, NULL };
	uint64_t er, em;
	bool ok;
	char d[512];

	P = p;
	rc_diff_run(&D, &real, &model);
	ok = D.ok;
	er = D.real_execs;
	em = D.model_execs;
	describe(p, d, sizeof(d));
	printf("%s %u - %s: %u outcomes, real %" PRIu64 " executions, model "
	       "%" PRIu64 "%s\n", ok ? "ok" : "not ok", ++tapn, d,
	       D.real.n, er, em, ok ? ", the same outcomes" : "");
	total_real += er;
	total_model += em;
	total_outcomes += D.real.n;
	rc_diff_finish(&D);
	return ok;
}

/* Hand-written programs: the races the page cache's users have. */
static const struct dprog fixed[] = {
	/* set vs erase of one index */
	{ 2, { 1, 1 }, { { { SET, 1, 0 } }, { { ERASE, 1, 0 } } },
	  { 5, 6, 0, 0 }, { 0, 0, 0, 0 } },
	/* a mark set while another task reads it */
	{ 2, { 2, 1 }, { { { SET, 0, 2 }, { CLEAR, 0, 0 } },
			 { { GET, 0, 2 } } },
	  { 5, 0, 0, 0 }, { 1, 0, 0, 0 } },
	/* find the first TOWRITE while another index gets it and one loses
	 * it: the walk is not atomic on either side */
	{ 2, { 1, 2 }, { { { FIND, 0, 2 } },
			 { { SET, 3, 2 }, { CLEAR, 1, 2 } } },
	  { 5, 6, 0, 7 }, { 0, 4, 0, 0 } },
	/* store into a hole vs set the mark there */
	{ 2, { 1, 1 }, { { { STORE, 2, 9 } }, { { SET, 2, 0 } } },
	  { 5, 0, 0, 0 }, { 0, 0, 0, 0 } },
	/* replacing an entry keeps its marks; erase drops them */
	{ 3, { 1, 1, 1 }, { { { STORE, 0, 8 } }, { { ERASE, 0, 0 } },
			    { { GET, 0, 0 } } },
	  { 5, 0, 0, 0 }, { 1, 0, 0, 0 } },
	/* a second-level index: erase 17 while marking 0 */
	{ 2, { 2, 1 }, { { { ERASE, 3, 0 }, { FIND, 0, 0 } },
			 { { SET, 0, 0 } } },
	  { 5, 0, 0, 7 }, { 0, 0, 0, 1 } },
};

static void random_prog(struct dprog *p, uint64_t *rng)
{
	memset(p, 0, sizeof(*p));
	p->ntasks = 2 + (int)(sim_rng_next(rng) % 2);
	for (int k = 0; k < 4; k++) {
		p->init_v[k] = sim_rng_next(rng) % 2 ? (uint8_t)(k + 1) : 0;
		p->init_m[k] = p->init_v[k] ? (uint8_t)(sim_rng_next(rng) % 8)
					   : 0;
	}
	for (int t = 0; t < p->ntasks; t++) {
		p->nops[t] = 1 + (int)(sim_rng_next(rng) % (p->ntasks == 3 ?
							    2 : 3));
		for (int k = 0; k < p->nops[t]; k++) {
			struct op *o = &p->ops[t][k];

			o->kind = (uint8_t)(sim_rng_next(rng) % OPS);
			o->i = (uint8_t)(sim_rng_next(rng) % 4);
			o->arg = o->kind == STORE ?
				 (uint8_t)(5 + sim_rng_next(rng) % 4) :
				 (uint8_t)(sim_rng_next(rng) % 3);
		}
	}
}

int main(int argc, char **argv)
{
	unsigned long nrandom = argc > 1 ? strtoul(argv[1], NULL, 10) : 40;
	uint64_t rng = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
	size_t nfixed = sizeof(fixed) / sizeof(fixed[0]);
	bool all = true;

	printf("1..%zu\n", nfixed + nrandom);
	for (size_t i = 0; i < nfixed; i++)
		all &= check(&fixed[i]);
	for (unsigned long i = 0; i < nrandom; i++) {
		struct dprog p;

		random_prog(&p, &rng);
		all &= check(&p);
	}
	printf("# %zu programs, %" PRIu64 " outcomes, %" PRIu64 " real and %"
	       PRIu64 " model executions (exhaustive DPOR)\n",
	       nfixed + nrandom, total_outcomes, total_real, total_model);
	return all ? 0 : 1;
}
