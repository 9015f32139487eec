// SPDX-License-Identifier: MIT
/*
 * tests/fio/fio-tool.c - a test driver for the fio front end
 * (tools/fio/), so shell and Python tests can run the parser and the
 * printers.  Not installed, not wpsim's command (the runner, `wpsim
 * fio`, is built on the same library).
 *
 *   fio-tool parse FIO-ARGS...    parse; print each job's fields, or the
 *                                 --showcmd line; errors as wpsim prints
 *                                 them, exit 2
 *   fio-tool print RESULTS FIO-ARGS...
 *                                 parse, read results (the format
 *                                 tests/fio/fiojson2result.py writes)
 *                                 and print the header and the output
 *                                 in the --output-format given
 *   fio-tool demo FIO-ARGS...     parse, then fill one result per job
 *                                 from a fixed pseudo-random latency
 *                                 sequence and print it (for JSON
 *                                 validity tests)
 *
 * Leaves out: running anything against the model.
 */
#include "tools/fio/fio.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int parse(int argc, char **argv, struct fio_config *cfg)
{
	struct fio_error err = { 0 };

	fio_config_init(cfg);
	if (fio_parse_argv(argc, argv, cfg, &err)) {
		fprintf(stderr, "%s\n", err.text);
		fio_config_free(cfg);
		return -1;
	}
	return 0;
}

static void dump_size(const char *name, const struct fio_size *s)
{
	if (!s->set)
		printf(" %s=-", name);
	else if (s->percent)
		printf(" %s=%u%%", name, s->percent);
	else
		printf(" %s=%" PRIu64, name, s->bytes);
}

static void dump_job(const struct fio_job *j)
{
	char file[FIO_PATH_LEN_MAX + 1];

	printf("job %s jobnum=%u group=%u stonewall=%d rw=%s:%u:%" PRIu64
	       " mix=%u bs=%" PRIu64 ",%" PRIu64 ",%" PRIu64, j->name,
	       j->jobnum, j->groupid, j->stonewall, fio_rw_name(j->rw),
	       j->rw_seq_nr, j->rw_seq_add, j->rwmixread, j->bs[0], j->bs[1],
	       j->bs[2]);
	dump_size("size", &j->size);
	dump_size("io_size", &j->io_size);
	printf(" number_ios=%" PRIu64 " numjobs=%u iodepth=%u ioengine=%s "
	       "direct=%d sync=%d fsync=%u fdatasync=%u sfr=%u:%u "
	       "end_fsync=%d append=%d overwrite=%d", j->number_ios,
	       j->numjobs, j->iodepth, fio_engine_name(j->ioengine),
	       j->direct, j->sync, j->fsync_blocks, j->fdatasync_blocks,
	       j->sfr_flags, j->sfr_nr, j->end_fsync, j->file_append,
	       j->overwrite);
	dump_size("offset", &j->offset);
	dump_size("offset_increment", &j->offset_increment);
	printf(" zone=%d:%" PRIu64 ":%" PRIu64 ":%" PRIu64 " runtime_ns=%"
	       PRIu64 " time_based=%d ramp_ns=%" PRIu64 " startdelay_ns=%"
	       PRIu64 " uncached=%u writethrough=%d hipri=%d nowait=%d "
	       "group_reporting=%d randseed=%" PRIu64 " randrepeat=%d "
	       "norandommap=%d randgen=%d thread=%d fallocate=%d "
	       "create_on_open=%d invalidate=%d write_iolog=%s "
	       "read_iolog=%s no_stall=%d time_scale=%u kb_base=%u",
	       j->zonemode, j->zonesize, j->zoneskip, j->zonerange,
	       j->runtime_ns, j->time_based, j->ramp_time_ns,
	       j->startdelay_ns, j->uncached, j->writethrough, j->hipri,
	       j->nowait, j->group_reporting, j->randseed, j->randrepeat,
	       j->norandommap, j->random_generator, j->thread, j->fallocate,
	       j->create_on_open, j->invalidate, j->write_iolog,
	       j->read_iolog, j->replay_no_stall, j->replay_time_scale,
	       j->kb_base);
	printf(" files=");
	for (uint32_t f = 0; f < fio_job_file_count(j); f++) {
		if (fio_job_file_name(j, f, file, sizeof(file)))
			snprintf(file, sizeof(file), "<too long>");
		printf("%s%s", f ? "," : "", file);
	}
	printf("\n");
}

static void print_all(const struct fio_config *cfg,
		      struct fio_result **results, size_t n)
{
	const struct fio_result **r = (const struct fio_result **)results;

	if (cfg->output_format & FIO_OUTPUT_JSON)
		fio_print_json(stdout, cfg, r, n,
			       cfg->output_format & FIO_OUTPUT_JSON_PLUS);
	if (cfg->output_format & FIO_OUTPUT_NORMAL)
		fio_print_normal(stdout, cfg, r, n);
}

static int read_u64s(char *rest, uint64_t *v, int n)
{
	for (int i = 0; i < n; i++) {
		char *end;

		v[i] = strtoull(rest, &end, 10);
		if (end == rest)
			return -1;
		rest = end;
	}
	return 0;
}

static struct fio_lat *lat_of(struct fio_result *r, const char *d,
			      const char *kind)
{
	int i = !strcmp(d, "read") ? 0 : !strcmp(d, "write") ? 1 : 2;

	if (!strcmp(d, "sync"))
		return &r->sync;
	if (!strcmp(kind, "slat"))
		return &r->ddir[i].slat;
	if (!strcmp(kind, "clat"))
		return &r->ddir[i].clat;
	return &r->ddir[i].lat;
}

static int ddir_of(const char *d)
{
	return !strcmp(d, "read") ? 0 : !strcmp(d, "write") ? 1 : 2;
}

/* One line of the results format; see tests/fio/fiojson2result.py. */
static int read_line(char *line, struct fio_result **cur,
		     struct fio_result **results, size_t *n)
{
	char word[64], d[16], kind[16], name[FIO_NAME_LEN_MAX + 1];
	uint64_t v[8];
	double mean, dev;
	int off = 0;
	struct fio_result *r = *cur;

	if (sscanf(line, "%63s %n", word, &off) != 1)
		return 0;
	if (!strcmp(word, "job")) {
		r = fio_result_alloc(NULL);
		if (sscanf(line + off, "%255s %" SCNu64 " %" SCNu64 " %"
			   SCNu64 " %" SCNu64, name, &v[0], &v[1], &v[2],
			   &v[3]) != 5)
			return -1;
		snprintf(r->name, sizeof(r->name), "%s", name);
		r->groupid = (uint32_t)v[0];
		r->members = (uint32_t)v[1];
		r->pid = (uint32_t)v[2];
		r->section = (uint32_t)v[3];
		results[(*n)++] = r;
		*cur = r;
		return 0;
	}
	if (!r)
		return -1;
	if (!strcmp(word, "ddir")) {
		int used = 0;

		if (sscanf(line + off, "%15s %n", d, &used) != 1 ||
		    read_u64s(line + off + used, v, 5))
			return -1;
		r->ddir[ddir_of(d)].io_bytes = v[0];
		r->ddir[ddir_of(d)].total_ios = v[1];
		r->ddir[ddir_of(d)].short_ios = v[2];
		r->ddir[ddir_of(d)].drop_ios = v[3];
		r->ddir[ddir_of(d)].runtime_ms = v[4];
		return 0;
	}
	if (!strcmp(word, "lat") || !strcmp(word, "stat")) {
		struct fio_stat *s;

		if (sscanf(line + off, "%15s %15s %" SCNu64 " %" SCNu64 " %"
			   SCNu64 " %lf %lf", d, kind, &v[0], &v[1], &v[2],
			   &mean, &dev) != 7)
			return -1;
		if (!strcmp(word, "lat"))
			s = &lat_of(r, d, kind)->stat;
		else if (!strcmp(kind, "bw"))
			s = &r->ddir[ddir_of(d)].bw;
		else
			s = &r->ddir[ddir_of(d)].iops;
		s->samples = v[0];
		s->min = v[1];
		s->max = v[2];
		s->mean = mean;
		s->m2 = v[0] > 1 ? dev * dev * (double)(v[0] - 1) : 0.0;
		return 0;
	}
	if (!strcmp(word, "bins")) {
		struct fio_lat *l;
		char *p;
		int used = 0;

		if (sscanf(line + off, "%15s %15s %n", d, kind, &used) != 2)
			return -1;
		l = lat_of(r, d, kind);
		p = line + off + used;
		while (*p) {
			char *end;
			uint64_t val = strtoull(p, &end, 10), count;

			if (end == p || *end != ':')
				break;
			count = strtoull(end + 1, &p, 10);
			l->plat[fio_plat_val_to_idx(val)] += count;
			while (*p == ' ')
				p++;
		}
		return 0;
	}
	if (!strcmp(word, "cpu")) {
		if (read_u64s(line + off, v, 7))
			return -1;
		r->total_run_time_ms = v[0];
		r->usr_time_ms = v[1];
		r->sys_time_ms = v[2];
		r->ctx = v[3];
		r->majf = v[4];
		r->minf = v[5];
		r->elapsed_s = v[6];
		return 0;
	}
	if (!strcmp(word, "sync_ios"))
		return read_u64s(line + off, &r->sync_ios, 1);
	if (!strcmp(word, "depth")) {
		uint64_t depth;

		if (read_u64s(line + off, &depth, 1))
			return -1;
		r->latency_depth = (uint32_t)depth;
		return 0;
	}
	if (!strcmp(word, "map"))
		return read_u64s(line + off, r->io_u_map, FIO_IODEPTH_BUCKETS);
	if (!strcmp(word, "submit") || !strcmp(word, "complete")) {
		bool submit = word[0] == 's';

		if (read_u64s(line + off, v, 1 + FIO_IODEPTH_BUCKETS))
			return -1;
		*(submit ? &r->total_submit : &r->total_complete) = v[0];
		memcpy(submit ? r->io_u_submit : r->io_u_complete, v + 1,
		       sizeof(r->io_u_submit));
		return 0;
	}
	if (!strcmp(word, "latn"))
		return read_u64s(line + off, r->lat_n, FIO_LAT_N_BUCKETS);
	if (!strcmp(word, "latu"))
		return read_u64s(line + off, r->lat_u, FIO_LAT_U_BUCKETS);
	if (!strcmp(word, "latm"))
		return read_u64s(line + off, r->lat_m, FIO_LAT_M_BUCKETS);
	return -1;
}

static int cmd_print(int argc, char **argv)
{
	struct fio_result *results[FIO_JOBS_MAX];
	struct fio_result *cur = NULL;
	struct fio_config cfg;
	char line[65536];
	size_t n = 0, lineno = 0;
	FILE *f;
	int ret = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: fio-tool print RESULTS FIO-ARGS...\n");
		return 2;
	}
	f = fopen(argv[1], "r");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	argv[1] = argv[0];
	if (parse(argc - 1, argv + 1, &cfg)) {
		fclose(f);
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (n == FIO_JOBS_MAX || read_line(line, &cur, results, &n)) {
			fprintf(stderr, "%s:%zu: bad results line\n",
				argv[0], lineno);
			ret = 2;
			break;
		}
	}
	fclose(f);
	/* A section of -1: the first job section of the job's name. */
	for (size_t i = 0; i < n; i++)
		for (uint32_t s = 0; results[i]->section >= cfg.section_count &&
		     s < cfg.section_count; s++)
			if (!cfg.sections[s].global &&
			    !strcmp(cfg.sections[s].name, results[i]->name))
				results[i]->section = s;
	if (!ret) {
		if (cfg.output_format & FIO_OUTPUT_NORMAL)
			fio_print_header(stdout, &cfg);
		print_all(&cfg, results, n);
	}
	for (size_t i = 0; i < n; i++)
		free(results[i]);
	fio_config_free(&cfg);
	return ret;
}

/* A fixed xorshift sequence: deterministic latencies for the demo. */
static uint64_t next_random(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

static int cmd_demo(int argc, char **argv)
{
	struct fio_result *results[FIO_JOBS_MAX];
	struct fio_config cfg;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	size_t n = 0;

	if (parse(argc, argv, &cfg))
		return 2;
	for (uint32_t i = 0; i < cfg.job_count; i++) {
		const struct fio_job *j = &cfg.jobs[i];
		struct fio_result *r = fio_result_alloc(j);
		uint64_t t = 0;
		int d = (j->rw == FIO_RW_READ || j->rw == FIO_RW_RANDREAD) ?
			FIO_DDIR_READ : FIO_DDIR_WRITE;

		r->pid = i + 1;
		for (int k = 0; k < 1000; k++) {
			uint64_t slat = 500 + next_random(&seed) % 2000;
			uint64_t clat = 1000 + next_random(&seed) % 200000;

			fio_result_add_io(r, (enum fio_ddir)d, j->bs[d], t,
					  t + slat, t + slat + clat);
			t += slat + clat;
			if (k % 100 == 99)
				fio_result_sample(r, 500);
		}
		r->ddir[d].runtime_ms = t / 1000000;
		r->total_run_time_ms = t / 1000000;
		r->sys_time_ms = t / 2000000;
		r->elapsed_s = t / 1000000000;
		n++;
		if (j->group_reporting && n > 1 &&
		    results[n - 2]->groupid == r->groupid &&
		    cfg.jobs[i - 1].group_reporting) {
			fio_result_merge(results[n - 2], r);
			free(r);
			n--;
			continue;
		}
		results[n - 1] = r;
	}
	print_all(&cfg, results, n);
	for (size_t i = 0; i < n; i++)
		free(results[i]);
	fio_config_free(&cfg);
	return 0;
}

int main(int argc, char **argv)
{
	struct fio_config cfg;

	if (argc >= 2 && !strcmp(argv[1], "print"))
		return cmd_print(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "demo"))
		return cmd_demo(argc - 1, argv + 1);
	if (argc < 2 || strcmp(argv[1], "parse")) {
		fprintf(stderr, "usage: fio-tool parse|print|demo ...\n");
		return 2;
	}
	if (parse(argc - 1, argv + 1, &cfg))
		return 2;
	if (cfg.showcmd) {
		fio_showcmd(stdout, &cfg);
	} else {
		if (cfg.implicit_job)
			printf("note: no --name: one job named \"fio\"\n");
		for (uint32_t i = 0; i < cfg.job_count; i++)
			dump_job(&cfg.jobs[i]);
	}
	fio_config_free(&cfg);
	return 0;
}
