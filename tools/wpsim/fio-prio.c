// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/fio-prio.c - fio's I/O priorities: prio and prioclass (fio
 * 3.33 backend.c: ioprio_set at the job's start, td->ioprio the default
 * of every io_u) and libaio's and io_uring's cmdprio_percentage,
 * cmdprio_class, cmdprio and cmdprio_bssplit (engines/cmdprio.c
 * fio_cmdprio_init, fio_cmdprio_parse_and_gen, fio_cmdprio_gen_perc,
 * fio_cmdprio_set_ioprio; options.c split_parse_prio_ddir,
 * parse_cmdprio_bssplit_entry), and what fio's output makes of them: the
 * per-priority clat statistics (stat.c clat_prio: index 0 the job's
 * default, then each distinct cmdprio value in the order met) and the
 * logs' prio column.
 *
 * fio's side is modelled exactly but for the draws: each I/O of a
 * direction with a cmdprio percentage draws a number in 0..99 (fio's
 * rand_between(&td->prio_state, 0, 99)) from a splitmix64 stream of the
 * job's own (seeded by randseed, as the offsets' stream), not fio's
 * tausworthe: the same distribution, another sequence.  Below the
 * direction's percentage (cmdprio_percentage, or the total of the bs's
 * entries in cmdprio_bssplit) the I/O takes the cmdprio value (the
 * entry whose running total first exceeds the draw), else the job's
 * default.
 *
 * The kernel side: the priority is not carried into the model.  v6.18
 * would put it in the kiocb (fs/aio.c aio_prep_rw: ki_ioprio from
 * aio_reqprio under IOCB_FLAG_IOPRIO; io_uring/rw.c from sqe->ioprio) and
 * the bio (fs/iomap/direct-io.c: bi_ioprio = ki_ioprio), where only an I/O
 * scheduler acts on it (block/mq-deadline.c's per-priority queues and
 * prio_aging_expire); the model's block layer issues directly, as
 * v6.18's "none" (the NVMe default; docs/model/blk-mq.md), whose path
 * and the NVMe driver do not read bi_ioprio.  So a priority changes no
 * timing in the model: the same run with and without cmdprio gives the
 * same I/Os and latencies, split by priority only in the output.
 *
 * Leaves out: cmdprio_bssplit's fifth field (later fio's priority hint,
 * hint << 3 in the ioprio): fio 3.33's sscanf reads four and ignores the
 * rest, and so does the model.
 */
#include "tools/wpsim/fio-run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PRIO_ENTRIES_MAX	64	/* fio's BSSPLIT_MAX */

struct prio_entry {
	uint64_t bs;
	uint32_t perc;
	int32_t prio;		/* -1: the implicit cmdprio */
	uint32_t idx;		/* clat_prio_index */
};

struct prio_bs {
	uint64_t bs;
	uint32_t tot_perc;
	unsigned int first, nr;	/* in entries[] */
};

enum { MODE_NONE, MODE_PERC, MODE_BSSPLIT };

struct prio_job {
	int mode;
	uint32_t ioprio;		/* td->ioprio */
	struct prio_entry perc[2];	/* MODE_PERC */
	struct prio_entry entries[2][PRIO_ENTRIES_MAX];
	unsigned int nr_entries[2];
	struct prio_bs bsp[2][PRIO_ENTRIES_MAX];
	unsigned int nr_bsp[2];
	uint64_t rng;			/* td->prio_state */
	uint32_t *slot_prio, *slot_idx;	/* [iodepth] */
	struct fio_prio_stats *stats;	/* NULL: no cmdprio */
};

static struct prio_job *prio_jobs;	/* [njobs] */
static unsigned int prio_njobs;
/* The groups' stores (group_reporting's merged results). */
static struct fio_prio_stats **group_stats;
static unsigned int group_nstats;

/* fio 3.33 os-linux.h ioprio_value: no class is BE. */
static uint32_t ioprio_value(uint32_t cls, uint32_t level)
{
	if (!cls)
		cls = FIO_IOPRIO_CLASS_BE;
	return cls << FIO_IOPRIO_CLASS_SHIFT | level;
}

/* The job's parsed cmdprio_bssplit (options-ss.c) as entries. */
static void copy_bssplit(const struct fio_job *j, struct prio_job *p)
{
	for (int d = 0; d < 2; d++) {
		p->nr_entries[d] = j->cmdprio_split_nr[d];
		for (uint32_t i = 0; i < j->cmdprio_split_nr[d]; i++)
			p->entries[d][i] = (struct prio_entry){
				.bs = j->cmdprio_split[d][i].bs,
				.perc = j->cmdprio_split[d][i].perc,
				.prio = j->cmdprio_split[d][i].prio };
	}
}

int fio_prio_check_job(const struct fio_job *j)
{
	bool pct = j->cmdprio_pct[0] || j->cmdprio_pct[1];
	char msg[FIO_NAME_LEN_MAX + 96];

	if (j->cmdprio_bssplit[0] && pct) {
		snprintf(msg, sizeof(msg), "%s: cmdprio_percentage and "
			 "cmdprio_bssplit options are mutually exclusive "
			 "(fio's)", j->name);
		return fio_run_job_error(j, msg);
	}
	return 0;
}

/* assign_clat_prio_index: @prio's index among the direction's values,
 * appended when new. */
static uint32_t prio_index(struct fio_prio_stats *st, int d, uint32_t prio)
{
	uint32_t i = 0;

	while (i < st->nr[d] && st->e[d][i].ioprio != prio)
		i++;
	if (i == st->nr[d]) {
		st->nr[d]++;
		st->e[d][i].ioprio = prio;
		fio_lat_init(&st->e[d][i].clat);
	}
	return i;
}

/* fio_cmdprio_parse_and_gen (and td->ioprio), for a job's start. */
static void prio_gen(struct job_run *jr, struct prio_job *p)
{
	const struct fio_job *j = jr->job;
	bool dir_on[2] = { !is_write(j->rw), !is_read(j->rw) };
	uint32_t cls[2], implicit;

	memset(p, 0, sizeof(*p));
	p->ioprio = j->ioprio_given ? ioprio_value(j->ioprio_class,
						   j->ioprio) : 0;
	p->rng = fio_run_stream_start(j->randseed ^ 0x7072696f5f737464ull,
				      (uint32_t)(jr - R->jobs));
	if (j->cmdprio_bssplit[0])
		p->mode = MODE_BSSPLIT;
	else if (j->cmdprio_pct[0] || j->cmdprio_pct[1])
		p->mode = MODE_PERC;
	if (p->mode == MODE_NONE)
		return;
	/* no cmdprio_class: the RT class */
	for (int d = 0; d < 2; d++)
		cls[d] = j->cmdprio_class[d] ? j->cmdprio_class[d] :
					       FIO_IOPRIO_CLASS_RT;
	p->stats = calloc(1, sizeof(*p->stats));
	if (!p->stats) {
		perror("wpsim fio: cmdprio");
		exit(1);
	}
	if (p->mode == MODE_BSSPLIT)
		copy_bssplit(j, p);
	for (int d = 0; d < 2; d++) {
		if (!dir_on[d])
			continue;
		implicit = ioprio_value(cls[d], j->cmdprio_level[d]);
		if (p->mode == MODE_PERC) {
			if (!j->cmdprio_pct[d])
				continue;
			prio_index(p->stats, d, p->ioprio);	/* index 0 */
			p->perc[d].perc = j->cmdprio_pct[d];
			p->perc[d].prio = (int32_t)implicit;
			p->perc[d].idx = prio_index(p->stats, d, implicit);
			continue;
		}
		if (!p->nr_entries[d])
			continue;
		prio_index(p->stats, d, p->ioprio);
		for (unsigned int i = 0; i < p->nr_entries[d]; i++) {
			struct prio_entry *e = &p->entries[d][i];
			struct prio_bs *b;

			if (e->prio == -1)
				e->prio = (int32_t)implicit;
			e->idx = prio_index(p->stats, d, (uint32_t)e->prio);
			if (!p->nr_bsp[d] ||
			    p->bsp[d][p->nr_bsp[d] - 1].bs != e->bs)
				p->bsp[d][p->nr_bsp[d]++] = (struct prio_bs){
					.bs = e->bs, .first = i };
			b = &p->bsp[d][p->nr_bsp[d] - 1];
			b->tot_perc += e->perc;
			b->nr++;
		}
	}
}

void fio_prio_setup(void)
{
	fio_prio_free();
	prio_njobs = R->njobs;
	prio_jobs = calloc(prio_njobs ? prio_njobs : 1, sizeof(*prio_jobs));
	if (!prio_jobs) {
		perror("wpsim fio: prio");
		exit(1);
	}
	for (unsigned int i = 0; i < R->njobs; i++) {
		struct job_run *jr = &R->jobs[i];
		struct prio_job *p = &prio_jobs[i];

		prio_gen(jr, p);
		if (p->stats) {
			p->slot_prio = calloc(jr->job->iodepth,
					      sizeof(uint32_t));
			p->slot_idx = calloc(jr->job->iodepth,
					     sizeof(uint32_t));
			if (!p->slot_prio || !p->slot_idx) {
				perror("wpsim fio: cmdprio");
				exit(1);
			}
		}
		jr->result->prio = p->stats;
		jr->io_ioprio = p->ioprio;
		jr->io_prio_idx = 0;
	}
}

void fio_prio_attach(struct job_run *jr)
{
	struct prio_job *p;

	if (!prio_jobs)
		return;
	p = &prio_jobs[jr->index];
	if (p->stats)
		for (int d = 0; d < 2; d++)
			for (uint32_t i = 0; i < p->stats->nr[d]; i++)
				fio_lat_init(&p->stats->e[d][i].clat);
	jr->result->prio = p->stats;
}

/* fio_cmdprio_set_ioprio for the I/O about to be issued in slot @s. */
void fio_prio_issue(struct job_run *jr, unsigned int s, bool read,
		    uint64_t bs)
{
	struct prio_job *p = &prio_jobs[jr->index];
	int d = read ? 0 : 1;
	uint32_t perc = 0, rnd, sum = 0;
	uint32_t prio = p->ioprio, idx = 0;
	const struct prio_bs *b = NULL;

	if (p->mode == MODE_PERC) {
		perc = p->perc[d].perc;
	} else if (p->mode == MODE_BSSPLIT) {
		for (unsigned int i = 0; i < p->nr_bsp[d]; i++)
			if (p->bsp[d][i].bs == bs) {
				b = &p->bsp[d][i];
				perc = b->tot_perc;
			}
	}
	if (perc) {
		/* rand_between(&td->prio_state, 0, 99) */
		p->rng += 0x9e3779b97f4a7c15ull;
		{
			uint64_t z = p->rng;

			z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
			z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
			rnd = (uint32_t)((z ^ (z >> 31)) % 100);
		}
		if (rnd < perc && p->mode == MODE_PERC) {
			prio = (uint32_t)p->perc[d].prio;
			idx = p->perc[d].idx;
		} else if (rnd < perc) {
			for (unsigned int i = 0; i < b->nr; i++) {
				const struct prio_entry *e =
					&p->entries[d][b->first + i];

				sum += e->perc;
				if (rnd < sum) {
					prio = (uint32_t)e->prio;
					idx = e->idx;
					break;
				}
			}
		}
	}
	if (p->slot_prio) {
		p->slot_prio[s] = prio;
		p->slot_idx[s] = idx;
	}
	jr->io_ioprio = prio;
	jr->io_prio_idx = idx;
}

void fio_prio_reaped(struct job_run *jr, unsigned int s)
{
	struct prio_job *p;

	if (!prio_jobs)
		return;
	p = &prio_jobs[jr->index];
	if (!p->slot_prio)
		return;
	jr->io_ioprio = p->slot_prio[s];
	jr->io_prio_idx = p->slot_idx[s];
}

void fio_prio_record(struct job_run *jr, enum fio_ddir d, uint64_t clat_ns)
{
	struct fio_prio_stats *st = jr->result->prio;

	/* add_clat_sample: into clat_prio when the direction has it
	 * (gtod_reduce: fio keeps no clat) */
	if (!st || jr->result->gtod_reduce || d > FIO_DDIR_WRITE || !st->nr[d] ||
	    jr->io_prio_idx >= st->nr[d])
		return;
	fio_lat_add(&st->e[d][jr->io_prio_idx].clat, clat_ns);
}

void fio_prio_group(struct fio_result *g, const struct job_run *first)
{
	bool any = false;
	struct fio_prio_stats *st, **grown;

	for (unsigned int i = first->index; prio_jobs && i < R->njobs &&
	     R->jobs[i].job->groupid == first->job->groupid; i++)
		any |= prio_jobs[i].stats != NULL;
	g->prio = NULL;
	if (!any)
		return;
	st = calloc(1, sizeof(*st));
	grown = realloc(group_stats, (group_nstats + 1) * sizeof(*grown));
	if (!st || !grown) {
		perror("wpsim fio: cmdprio");
		exit(1);
	}
	group_stats = grown;
	group_stats[group_nstats++] = st;
	/* the group's ts starts with the first member's default ioprio */
	if (first->result->prio)
		fio_prio_stats_merge(st, first->result->prio);
	g->prio = st;
}

void fio_prio_free(void)
{
	for (unsigned int i = 0; prio_jobs && i < prio_njobs; i++) {
		free(prio_jobs[i].stats);
		free(prio_jobs[i].slot_prio);
		free(prio_jobs[i].slot_idx);
	}
	free(prio_jobs);
	prio_jobs = NULL;
	prio_njobs = 0;
	for (unsigned int i = 0; i < group_nstats; i++)
		free(group_stats[i]);
	free(group_stats);
	group_stats = NULL;
	group_nstats = 0;
}
