// SPDX-License-Identifier: MIT
/*
 * tools/fio/parse.c - fio 3.x command lines and job files into job
 * descriptions, after fio 3.33's init.c (parse_cmd_line(),
 * __parse_jobs_ini(), add_job()) and options.c (fio_option_dup_subs()).
 *
 * Kept from fio: --name starts a job, options before the first --name
 * are global (and apply to the jobs of job files named on the command
 * line, which are read after the command-line jobs); --name=global is a
 * global section; "--opt value" and "--opt=value"; job files with
 * [sections], [global] affecting the jobs below it, ';' and '#'
 * comments (anywhere on a line, as fio cuts them), "include FILE" (no
 * sections inside, relative to the including file if not found as
 * given), ${VAR} from the environment (empty if unset), $pagesize;
 * numjobs clones; a stonewall (and a new group) at the first job of
 * the second and later job files.
 *
 * Leaves out, each an error: option abbreviations (getopt_long_only's
 * unique prefixes), $ncpus and $mb_memory (they would be the host's,
 * not the model's), --section, terse output, client/server options.
 * One divergence: a command line
 * with options but no --name is one job named "fio" (fio 3.33 says
 * "No job(s) defined"); fio_config.implicit_job tells the caller.
 */
#include "tools/fio/internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CMDLINE_FILE	"<command line>"
#define JOBFILE_BYTES_MAX	(1024 * 1024)

struct jstate {
	struct fio_job job;
	struct fio_pos set_at[FIO_OPTDEFS_MAX];	/* .file NULL: unset */
};

struct fio_parse_state {
	struct jstate global;
	struct jstate cur;
	bool in_job;		/* cur is a job section being built */
	bool in_section;	/* options go somewhere */
	int32_t section;	/* current section's index */
	int32_t leading;	/* command-line options before --name */
	uint32_t groupid;
	uint32_t group_jobs;
	bool next_stonewall;
	uint32_t include_depth;
	uint32_t jobs_alloc;
	uint32_t sections_alloc;
};

/* ------------------------------------------------------------------ */
/* Config storage                                                      */

void fio_config_init(struct fio_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->output_format = FIO_OUTPUT_NORMAL;
}

static void state_free(struct fio_config *cfg)
{
	free(cfg->state);
	cfg->state = NULL;
}

void fio_config_free(struct fio_config *cfg)
{
	for (uint32_t i = 0; i < cfg->section_count; i++)
		for (uint32_t j = 0; j < cfg->sections[i].given_count; j++)
			free(cfg->sections[i].given[j].value);
	free(cfg->sections);
	free(cfg->jobs);
	for (uint32_t i = 0; i < cfg->string_count; i++)
		free(cfg->strings[i]);
	free(cfg->strings);
	state_free(cfg);
	memset(cfg, 0, sizeof(*cfg));
}

static const char *intern(struct fio_config *cfg, const char *s)
{
	char **strings;

	for (uint32_t i = 0; i < cfg->string_count; i++)
		if (!strcmp(cfg->strings[i], s))
			return cfg->strings[i];
	strings = realloc(cfg->strings,
			  (cfg->string_count + 1) * sizeof(*strings));
	if (!strings)
		abort();
	cfg->strings = strings;
	strings[cfg->string_count] = strdup(s);
	if (!strings[cfg->string_count])
		abort();
	return strings[cfg->string_count++];
}

static struct fio_parse_state *state_get(struct fio_config *cfg)
{
	struct fio_parse_state *st = cfg->state;

	if (st)
		return st;
	st = calloc(1, sizeof(*st));
	if (!st)
		abort();
	fio_job_defaults(&st->global.job);
	st->section = -1;
	st->leading = -1;
	cfg->state = st;
	return st;
}

static struct fio_section *section_new(struct fio_config *cfg,
				       const char *name, bool global,
				       bool from_cmdline,
				       const struct fio_pos *pos,
				       struct fio_error *err)
{
	struct fio_parse_state *st = state_get(cfg);
	struct fio_section *sec;

	if (cfg->section_count == FIO_SECTIONS_MAX) {
		fio_error_set(err, pos, "expected at most %d sections "
			      "(FIO_SECTIONS_MAX), found more",
			      FIO_SECTIONS_MAX);
		return NULL;
	}
	if (cfg->section_count == st->sections_alloc) {
		uint32_t n = st->sections_alloc ? st->sections_alloc * 2 : 4;
		struct fio_section *s = realloc(cfg->sections,
						n * sizeof(*s));

		if (!s)
			abort();
		cfg->sections = s;
		st->sections_alloc = n;
	}
	sec = &cfg->sections[cfg->section_count];
	memset(sec, 0, sizeof(*sec));
	snprintf(sec->name, sizeof(sec->name), "%s", name);
	sec->global = global;
	sec->from_cmdline = from_cmdline;
	st->section = (int32_t)cfg->section_count++;
	return sec;
}

static int job_push(struct fio_config *cfg, const struct fio_job *job,
		    const struct fio_pos *pos, struct fio_error *err)
{
	struct fio_parse_state *st = state_get(cfg);

	if (cfg->job_count == FIO_JOBS_MAX) {
		fio_error_set(err, pos, "expected at most %d jobs "
			      "(FIO_JOBS_MAX) after numjobs, found more",
			      FIO_JOBS_MAX);
		return -1;
	}
	if (cfg->job_count == st->jobs_alloc) {
		uint32_t n = st->jobs_alloc ? st->jobs_alloc * 2 : 4;
		struct fio_job *j = realloc(cfg->jobs, n * sizeof(*j));

		if (!j)
			abort();
		cfg->jobs = j;
		st->jobs_alloc = n;
	}
	cfg->jobs[cfg->job_count++] = *job;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Sections                                                            */

static const struct fio_pos *set_at(const struct jstate *js,
				    const char *name)
{
	const struct fio_optdef *def = fio_optdef_find(name);
	const struct fio_pos *p = &js->set_at[fio_optdef_index(def)];

	return p->file ? p : NULL;
}

/*
 * The combinations fio 3.33 refuses: an engine option of another
 * engine (fio does not know it: "unrecognized option"), and
 * fixup_options()'s zone rules.  Also fio's zone and nrfiles fix-ups.
 */
static int job_check(struct jstate *js, struct fio_error *err)
{
	static const struct {
		const char *name;
		unsigned int engines;	/* bit per enum fio_engine */
		const char *list;
	} engine_opts[] = {
		{ "hipri", 1u << FIO_ENGINE_PVSYNC2 | 1u << FIO_ENGINE_IO_URING,
		  "pvsync2, io_uring" },
		{ "uncached", 1u << FIO_ENGINE_PVSYNC2 |
		  1u << FIO_ENGINE_IO_URING, "pvsync2, io_uring" },
		{ "nowait", 1u << FIO_ENGINE_PVSYNC2 | 1u << FIO_ENGINE_LIBAIO |
		  1u << FIO_ENGINE_IO_URING, "pvsync2, libaio, io_uring" },
		{ "writethrough", 1u << FIO_ENGINE_PVSYNC2 |
		  1u << FIO_ENGINE_LIBAIO | 1u << FIO_ENGINE_IO_URING,
		  "pvsync2, libaio, io_uring" },
		/* engines/cmdprio.c: libaio's and io_uring's options */
		{ "cmdprio_percentage", 1u << FIO_ENGINE_LIBAIO |
		  1u << FIO_ENGINE_IO_URING, "libaio, io_uring" },
		{ "cmdprio_class", 1u << FIO_ENGINE_LIBAIO |
		  1u << FIO_ENGINE_IO_URING, "libaio, io_uring" },
		{ "cmdprio", 1u << FIO_ENGINE_LIBAIO |
		  1u << FIO_ENGINE_IO_URING, "libaio, io_uring" },
		{ "cmdprio_bssplit", 1u << FIO_ENGINE_LIBAIO |
		  1u << FIO_ENGINE_IO_URING, "libaio, io_uring" },
	};
	struct fio_job *job = &js->job;
	const struct fio_pos *p;

	for (size_t i = 0; i < sizeof(engine_opts) / sizeof(engine_opts[0]);
	     i++) {
		p = set_at(js, engine_opts[i].name);
		if (p && !(engine_opts[i].engines & 1u << job->ioengine)) {
			fio_error_set(err, p, "expected ioengine=%s for %s "
				      "(an option of those engines only), "
				      "found ioengine=%s", engine_opts[i].list,
				      engine_opts[i].name,
				      fio_engine_name(job->ioengine));
			return -1;
		}
	}
	p = set_at(js, "zonemode");
	if (p && job->zonemode == FIO_ZONEMODE_NONE && job->zonesize) {
		fio_error_set(err, p, "expected zonemode=strided with "
			      "zonesize (fio: --zonemode=none and --zonesize "
			      "are not compatible), found zonemode=none");
		return -1;
	}
	if (!p && job->zonesize)
		job->zonemode = FIO_ZONEMODE_STRIDED;
	if (job->zonemode == FIO_ZONEMODE_STRIDED && !job->zonesize) {
		fio_error_set(err, p, "expected zonesize with zonemode=strided"
			      " (fio: --zonesize must be specified), found "
			      "none");
		return -1;
	}
	if (job->zonemode == FIO_ZONEMODE_STRIDED && !job->zonerange)
		job->zonerange = job->zonesize;
	if (job->filename_count)
		job->nrfiles = job->filename_count;
	/* fio's fixup_options: bsrange/bssplit give min_bs, which is
	 * what bs is then. */
	for (int d = 0; d < FIO_DDIR_COUNT; d++)
		if (job->bs_min[d])
			job->bs[d] = job->bs_min[d];
	/* fixup_options: ba is min_bs where unset or the job is not
	 * random; any other turns the random map off ("fio: Any use of
	 * blockalign= turns off randommap", said by the runner). */
	for (int d = 0; d < FIO_DDIR_COUNT; d++)
		if (!job->ba[d] || !fio_rw_random(job->rw))
			job->ba[d] = job->bs[d];
	/* fio 3.41's fixup_options: SPRandom needs a random write job, the
	 * LFSR and no random map, and sets the two that are not given
	 * (its "fio: sprandom sets ..." lines: the runner prints them). */
	if (job->sprandom) {
		const struct fio_pos *g = set_at(js, "random_generator");
		const struct fio_pos *m = set_at(js, "norandommap");

		p = set_at(js, "sprandom");
		if (job->rw != FIO_RW_RANDWRITE && job->rw != FIO_RW_RANDRW &&
		    job->rw != FIO_RW_RANDTRIMWRITE) {
			fio_error_set(err, p, "expected a random write job for "
				      "sprandom (fio: sprandom requires random "
				      "write, random_generator=lfsr, "
				      "norandommap=1), found rw=%s",
				      fio_rw_name(job->rw));
			return -1;
		}
		if (g && job->random_generator != FIO_RANDGEN_LFSR) {
			fio_error_set(err, g, "expected random_generator=lfsr "
				      "with sprandom (fio: sprandom requires "
				      "random_generator=lfsr)");
			return -1;
		}
		if (m && !job->norandommap) {
			fio_error_set(err, m, "expected norandommap=1 with "
				      "sprandom (fio: sprandom requires "
				      "norandommap=1)");
			return -1;
		}
		job->spr_randseed_given = set_at(js, "randseed") != NULL;
		job->spr_set_lfsr = !g;
		job->spr_set_nomap = !m;
		job->random_generator = FIO_RANDGEN_LFSR;
		job->norandommap = true;
	}
	if ((job->ba[FIO_DDIR_READ] != job->bs[FIO_DDIR_READ] ||
	     job->ba[FIO_DDIR_WRITE] != job->bs[FIO_DDIR_WRITE] ||
	     job->ba[FIO_DDIR_TRIM] != job->bs[FIO_DDIR_TRIM]) &&
	    !job->norandommap) {
		job->norandommap = true;
		job->ba_norandommap = true;
	}
	return 0;
}

/* Close the current section: a job section becomes numjobs jobs. */
static int section_end(struct fio_config *cfg, struct fio_error *err)
{
	struct fio_parse_state *st = state_get(cfg);
	struct fio_job job;
	struct fio_pos pos = { CMDLINE_FILE, 1, 1 };
	const struct fio_pos *numjobs_pos;

	if (!st->in_job) {
		st->in_section = false;
		return 0;
	}
	st->in_job = false;
	st->in_section = false;
	if (job_check(&st->cur, err))
		return -1;
	numjobs_pos = set_at(&st->cur, "numjobs");
	if (numjobs_pos)
		pos = *numjobs_pos;
	job = st->cur.job;
	job.section = (uint32_t)st->section;
	if (st->next_stonewall) {
		job.stonewall = true;
		st->next_stonewall = false;
	}
	if ((job.stonewall || job.new_group) && st->group_jobs) {
		st->groupid++;
		st->group_jobs = 0;
	}
	job.groupid = st->groupid;
	st->group_jobs++;
	for (uint32_t i = 0; i < job.numjobs; i++) {
		struct fio_job clone = job;

		clone.jobnum = i;
		if (i)
			clone.stonewall = false;
		if (job_push(cfg, &clone, &pos, err))
			return -1;
	}
	return 0;
}

static int section_begin(struct fio_config *cfg, const char *name,
			 bool from_cmdline, const struct fio_pos *pos,
			 struct fio_error *err)
{
	struct fio_parse_state *st = state_get(cfg);
	bool global = !strcmp(name, "global");
	struct fio_section *sec;

	if (section_end(cfg, err))
		return -1;
	if (strlen(name) > FIO_NAME_LEN_MAX || !*name) {
		fio_error_set(err, pos, "expected a job name of 1..%d bytes "
			      "(FIO_NAME_LEN_MAX), found %zu bytes",
			      FIO_NAME_LEN_MAX, strlen(name));
		return -1;
	}
	sec = section_new(cfg, name, global, from_cmdline, pos, err);
	if (!sec)
		return -1;
	st->in_section = true;
	if (!global) {
		st->cur = st->global;
		snprintf(st->cur.job.name, sizeof(st->cur.job.name), "%s",
			 name);
		st->in_job = true;
	}
	return 0;
}

/* Command-line options of fio's own and wpsim's (not job options). */
static const char *const cmdline_only[] = {
	"output", "output-format", "showcmd", "parse-only", "variant",
	"device", "cpus", "fs", "fs-size", "dev-size", "mem", "ram", "dirty_ratio",
	"dirty_background_ratio", "dirty_bytes", "dirty_background_bytes",
	NULL,
};

static bool is_cmdline_only(const char *name)
{
	for (size_t i = 0; cmdline_only[i]; i++)
		if (!strcmp(cmdline_only[i], name))
			return true;
	return false;
}

/*
 * Options of a later fio than 3.33 (the version wpsim fio matches) that
 * fio's own job files use: fio 3.33 refuses them ("Bad option <KEY=VAL>"
 * in parse.c, then "fio: job NAME dropped"), and so does wpsim, in fio
 * 3.33's words.  The version that added each: `git describe --contains`
 * of its first options.c commit in fio's repository.
 */
static const struct {
	const char *name;
	const char *version;
	const char *what;
} later_fio[] = {
	/* none left: the corpus's later options (SPRandom's, fio 3.41;
	 * atomic and verify_write_sequence, fio 3.38) are modelled since
	 * session 11.  The end of the table: */
	{ NULL, NULL, NULL },
};

static int unknown_option(const char *key, const char *value,
			  const struct fio_pos *pos, bool cmdline,
			  struct fio_error *err)
{
	for (size_t i = 0; later_fio[i].name; i++) {
		if (strcmp(later_fio[i].name, key))
			continue;
		fio_error_set(err, pos, "expected an option of fio 3.33, "
			      "found '%s' (%s, fio %s and later; fio 3.33 "
			      "refuses it too: \"Bad option <%s=%s>\", the "
			      "job dropped)", key, later_fio[i].what,
			      later_fio[i].version, key, value ? value : "");
		return -1;
	}
	if (!cmdline && is_cmdline_only(key)) {
		fio_error_set(err, pos, "expected a job option, found "
			      "command-line option '%s' (give it as "
			      "--%s on the command line)", key, key);
		return -1;
	}
	fio_error_set(err, pos, "expected an option wpsim models (%s%s), "
		      "found '%s%s' (wpsim never ignores an option)",
		      fio_modelled_options(), cmdline ? "; command line: "
		      "--output, --output-format, --showcmd, --parse-only, "
		      "--variant, --device, --cpus, --fs, --mem, --ram, "
		      "--dirty_ratio, --dirty_background_ratio, --dirty_bytes, "
		      "--dirty_background_bytes" : "",
		      cmdline ? "--" : "", key);
	return -1;
}

/* One option of the current section (or the leading global one). */
static int section_option(struct fio_config *cfg, const char *key,
			  const char *value, const struct fio_pos *key_pos,
			  const struct fio_pos *val_pos, bool cmdline,
			  struct fio_error *err)
{
	struct fio_parse_state *st = state_get(cfg);
	const struct fio_optdef *def = fio_optdef_find(key);
	struct fio_optval v = { .text = value, .pos = *val_pos };
	struct jstate *js;
	struct fio_section *sec;
	struct fio_given *g;

	if (!def)
		return unknown_option(key, value, key_pos, cmdline, err);
	if (!st->in_section) {
		/* fio: options before --name go to a global section. */
		sec = section_new(cfg, "global", true, true, key_pos, err);
		if (!sec)
			return -1;
		st->leading = st->section;
		sec->leading = true;
		st->in_section = true;
	}
	sec = &cfg->sections[st->section];
	if (sec->given_count == FIO_SECTION_OPTS_MAX) {
		fio_error_set(err, key_pos, "expected at most %d options in "
			      "a section (FIO_SECTION_OPTS_MAX), found more",
			      FIO_SECTION_OPTS_MAX);
		return -1;
	}
	js = st->in_job ? &st->cur : &st->global;
	if (fio_opt_apply(&js->job, def, &v, err))
		return -1;
	js->set_at[fio_optdef_index(def)] = *key_pos;
	g = &sec->given[sec->given_count++];
	g->name = def->name;
	g->pos = *key_pos;
	g->value = NULL;
	if (value) {
		g->value = strdup(value);
		if (!g->value)
			abort();
	}
	return 0;
}

int fio_config_finish(struct fio_config *cfg, struct fio_error *err)
{
	struct fio_parse_state *st = state_get(cfg);
	struct fio_pos pos = { CMDLINE_FILE, 1, 1 };

	if (section_end(cfg, err))
		return -1;
	if (cfg->job_count == 0 && st->leading >= 0) {
		struct fio_section *sec = &cfg->sections[st->leading];

		/* No --name: the options are one job, "fio". */
		sec->global = false;
		sec->implicit = true;
		snprintf(sec->name, sizeof(sec->name), "fio");
		st->cur = st->global;
		snprintf(st->cur.job.name, sizeof(st->cur.job.name), "fio");
		st->in_job = true;
		st->section = st->leading;
		if (section_end(cfg, err))
			return -1;
		cfg->implicit_job = true;
	}
	if (cfg->job_count == 0) {
		fio_error_set(err, &pos, "expected a job (--name=NAME, job "
			      "options or a job file), found none");
		return -1;
	}
	state_free(cfg);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Job files                                                           */

static int read_file(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0;
	char *buf;

	if (!f)
		return -errno;
	buf = malloc(cap);
	if (!buf)
		abort();
	for (;;) {
		size_t got;

		if (n == cap) {
			if (cap >= JOBFILE_BYTES_MAX) {
				fclose(f);
				free(buf);
				return -EFBIG;
			}
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		got = fread(buf + n, 1, cap - n, f);
		if (!got)
			break;
		n += got;
	}
	fclose(f);
	*text = buf;
	*len = n;
	return 0;
}

/*
 * ${VAR} from the environment (empty if unset) and $pagesize, as
 * fio_option_dup_subs() and fio's keywords do.  $ncpus and $mb_memory
 * are refused.
 */
static int expand(const char *in, char *out, size_t cap,
		  const struct fio_pos *pos, struct fio_error *err)
{
	size_t o = 0;

	for (size_t i = 0; in[i];) {
		const char *add = NULL;
		size_t skip = 1, addlen = 0;
		char var[256];

		if (in[i] == '$' && in[i + 1] == '{') {
			const char *end = strchr(in + i + 2, '}');

			if (end && end > in + i + 2 &&
			    (size_t)(end - (in + i + 2)) < sizeof(var)) {
				size_t n = (size_t)(end - (in + i + 2));

				memcpy(var, in + i + 2, n);
				var[n] = '\0';
				add = getenv(var);
				if (!add)
					add = "";
				addlen = strlen(add);
				skip = n + 3;
			}
		} else if (!strncmp(in + i, "$pagesize", 9)) {
			add = "4096";
			addlen = 4;
			skip = 9;
		} else if (!strncmp(in + i, "$ncpus", 6) ||
			   !strncmp(in + i, "$mb_memory", 10)) {
			struct fio_pos p = fio_pos_add(pos, i);

			fio_error_set(err, &p, "expected a value that does not "
				      "depend on the host, found '%s' (give "
				      "the number; --cpus and --mem set the "
				      "model's)", in[i + 1] == 'n' ?
				      "$ncpus" : "$mb_memory");
			return -1;
		}
		if (!add) {
			add = in + i;
			addlen = 1;
		}
		if (o + addlen >= cap) {
			fio_error_set(err, pos, "expected a value of at most "
				      "%zu bytes after ${VAR} expansion "
				      "(FIO_VALUE_LEN_MAX), found more",
				      cap - 1);
			return -1;
		}
		memcpy(out + o, add, addlen);
		o += addlen;
		i += skip;
	}
	out[o] = '\0';
	return 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static int parse_text(struct fio_config *cfg, const char *file,
		      const char *text, size_t len, bool nested,
		      struct fio_error *err);

static int do_include(struct fio_config *cfg, const char *file,
		      const char *name, const struct fio_pos *pos,
		      struct fio_error *err)
{
	struct fio_parse_state *st = state_get(cfg);
	char path[FIO_PATH_LEN_MAX + 1];
	const char *slash = strrchr(file, '/');
	char *text;
	size_t len;
	int ret;

	if (st->include_depth == FIO_INCLUDE_DEPTH_MAX) {
		fio_error_set(err, pos, "expected includes nested at most %d "
			      "deep (FIO_INCLUDE_DEPTH_MAX), found deeper",
			      FIO_INCLUDE_DEPTH_MAX);
		return -1;
	}
	snprintf(path, sizeof(path), "%s", name);
	/* fio: a name not found as given is relative to the includer. */
	if (access(path, F_OK) && name[0] != '/' && slash)
		snprintf(path, sizeof(path), "%.*s%s",
			 (int)(slash - file + 1), file, name);
	ret = read_file(path, &text, &len);
	if (ret) {
		fio_error_set(err, pos, "expected a readable include file, "
			      "found '%s' (%s)", name, strerror(-ret));
		return -1;
	}
	st->include_depth++;
	ret = parse_text(cfg, intern(cfg, path), text, len, true, err);
	st->include_depth--;
	free(text);
	return ret;
}

static int parse_line(struct fio_config *cfg, const char *file, char *line,
		      uint32_t lineno, bool nested, struct fio_error *err)
{
	struct fio_parse_state *st = state_get(cfg);
	char value[FIO_VALUE_LEN_MAX + 1];
	struct fio_pos pos = { file, lineno, 1 }, vpos;
	char *p = line, *cut, *eq, *end, *key;

	while (is_blank(*p))
		p++;
	if (!*p || *p == ';' || *p == '#')
		return 0;
	/* fio's strip_blank_end() cuts at the first ';' or '#'. */
	cut = strpbrk(p, ";#");
	if (cut)
		*cut = '\0';
	end = p + strlen(p);
	while (end > p && is_blank(end[-1]))
		*--end = '\0';
	pos.col = (uint32_t)(p - line) + 1;

	if (*p == '[') {
		char *close = strchr(p, ']');

		if (nested) {
			fio_error_set(err, &pos, "expected options in an "
				      "include file, found a section (fio: no "
				      "new sections in included files)");
			return -1;
		}
		if (!close || close[1] != '\0' || close == p + 1) {
			struct fio_pos q = fio_pos_add(&pos, close ?
				(size_t)(close - p) : (size_t)(end - p));

			fio_error_set(err, &q, "expected '[NAME]' alone on "
				      "the line, found '%s'", p);
			return -1;
		}
		*close = '\0';
		return section_begin(cfg, p + 1, false, &pos, err);
	}
	if (!strncmp(p, "include", 7) && is_blank(p[7])) {
		char *name = p + 8;

		while (is_blank(*name))
			name++;
		vpos = fio_pos_add(&pos, (size_t)(name - p));
		if (!*name) {
			fio_error_set(err, &vpos, "expected a file name after "
				      "include, found end of line");
			return -1;
		}
		return do_include(cfg, file, name, &vpos, err);
	}
	if (!st->in_section) {
		fio_error_set(err, &pos, "expected a [section] before "
			      "options, found '%s'", p);
		return -1;
	}
	key = p;
	eq = strchr(p, '=');
	if (!eq) {
		vpos = pos;
		return section_option(cfg, key, NULL, &pos, &vpos, false,
				      err);
	}
	end = eq;
	while (end > key && is_blank(end[-1]))
		end--;
	*end = '\0';
	p = eq + 1;
	while (is_blank(*p))
		p++;
	vpos = fio_pos_add(&pos, (size_t)(p - key));
	if (expand(p, value, sizeof(value), &vpos, err))
		return -1;
	return section_option(cfg, key, value, &pos, &vpos, false, err);
}

static int parse_text(struct fio_config *cfg, const char *file,
		      const char *text, size_t len, bool nested,
		      struct fio_error *err)
{
	char line[FIO_LINE_LEN_MAX + 2];
	uint32_t lineno = 0;
	size_t i = 0;

	while (i < len) {
		size_t n = 0;

		lineno++;
		while (i < len && text[i] != '\n') {
			if (text[i] == '\0' || n > FIO_LINE_LEN_MAX) {
				struct fio_pos p = { file, lineno,
						     (uint32_t)n + 1 };

				if (text[i] == '\0')
					fio_error_set(err, &p, "expected text, "
						      "found a NUL byte");
				else
					fio_error_set(err, &p, "expected a "
						"line of at most %d bytes "
						"(FIO_LINE_LEN_MAX), found "
						"more", FIO_LINE_LEN_MAX);
				return -1;
			}
			line[n++] = text[i++];
		}
		i++;
		line[n] = '\0';
		if (parse_line(cfg, file, line, lineno, nested, err))
			return -1;
	}
	return 0;
}

int fio_parse_jobfile(const char *file, const char *text, size_t len,
		      struct fio_config *cfg, struct fio_error *err)
{
	struct fio_parse_state *st = state_get(cfg);
	int ret;

	if (section_end(cfg, err))
		return -1;
	/* fio separates job files by a stonewall. */
	if (cfg->job_count)
		st->next_stonewall = true;
	ret = parse_text(cfg, intern(cfg, file), text, len, false, err);
	if (!ret)
		ret = section_end(cfg, err);
	st->next_stonewall = false;
	return ret;
}

/* ------------------------------------------------------------------ */
/* The command line                                                    */

static int parse_output_format(struct fio_config *cfg, const char *value,
			       const struct fio_pos *pos,
			       struct fio_error *err)
{
	uint32_t fmt = 0;
	size_t off = 0;

	for (;;) {
		size_t n = strcspn(value + off, ",");
		const char *w = value + off;
		struct fio_pos q = fio_pos_add(pos, off);

		if (n == 6 && !strncmp(w, "normal", 6))
			fmt |= FIO_OUTPUT_NORMAL;
		else if (n == 4 && !strncmp(w, "json", 4))
			fmt |= FIO_OUTPUT_JSON;
		else if (n == 5 && !strncmp(w, "json+", 5))
			fmt |= FIO_OUTPUT_JSON | FIO_OUTPUT_JSON_PLUS;
		else {
			fio_error_set(err, &q, "expected output format normal, "
				      "json or json+ (comma-separated; terse "
				      "is not modelled), found '%.*s'",
				      (int)(n < 100 ? n : 100), w);
			return -1;
		}
		off += n;
		if (!value[off])
			break;
		off++;
	}
	cfg->output_format = fmt;
	return 0;
}

static int parse_cmdline_option(struct fio_config *cfg, const char *name,
				const char *value, const struct fio_pos *pos,
				struct fio_error *err)
{
	uint64_t u;
	uint32_t pct;
	size_t bad;

	if (!strcmp(name, "output-format"))
		return parse_output_format(cfg, value, pos, err);
	if (!strcmp(name, "output")) {
		if (strlen(value) > FIO_PATH_LEN_MAX || !*value) {
			fio_error_set(err, pos, "expected an output path of "
				      "1..%d bytes, found %zu bytes",
				      FIO_PATH_LEN_MAX, strlen(value));
			return -1;
		}
		snprintf(cfg->output, sizeof(cfg->output), "%s", value);
		return 0;
	}
	if (!strcmp(name, "variant")) {
		const char *eq = strchr(value, '=');

		if (!eq || eq == value || !eq[1]) {
			fio_error_set(err, pos, "expected --variant KEY=VALUE, "
				      "found '%s'", value);
			return -1;
		}
		if (cfg->variant_count == FIO_VARIANTS_MAX ||
		    strlen(value) > FIO_VALUE_LEN_MAX) {
			fio_error_set(err, pos, "expected at most %d variants "
				      "(FIO_VARIANTS_MAX) of at most %d bytes, "
				      "found more", FIO_VARIANTS_MAX,
				      FIO_VALUE_LEN_MAX);
			return -1;
		}
		snprintf(cfg->variants[cfg->variant_count++],
			 sizeof(cfg->variants[0]), "%s", value);
		return 0;
	}
	if (!strcmp(name, "device")) {
		if (!*value || strlen(value) > FIO_NAME_LEN_MAX) {
			fio_error_set(err, pos, "expected a device name of "
				      "1..%d bytes, found %zu bytes",
				      FIO_NAME_LEN_MAX, strlen(value));
			return -1;
		}
		snprintf(cfg->device, sizeof(cfg->device), "%s", value);
		return 0;
	}
	if (!strcmp(name, "cpus")) {
		if (fio_parse_size(value, 1024, false, &u, &pct, &bad) ||
		    u < 1 || u > 1024) {
			fio_error_set(err, pos, "expected --cpus 1..1024, "
				      "found '%s'", value);
			return -1;
		}
		cfg->cpus = (uint32_t)u;
		return 0;
	}
	if (!strcmp(name, "fs")) {
		if (!strcmp(value, "xfs"))
			cfg->fs = FIO_FS_XFS;
		else if (!strcmp(value, "ext4"))
			cfg->fs = FIO_FS_EXT4;
		else {
			fio_error_set(err, pos, "expected --fs xfs or ext4, "
				      "found '%s'", value);
			return -1;
		}
		return 0;
	}
	if (!strcmp(name, "fs-size")) {
		/* The filesystem's size: its free blocks at the start
		 * (model/fs/xfs/xfs_mount.c; docs/model/enospc.md). */
		if (fio_parse_size(value, 1024, false, &u, &pct, &bad) ||
		    u < 4096 || u > (1ull << 50)) {
			struct fio_pos q = fio_pos_add(pos, bad);

			fio_error_set(err, &q, "expected --fs-size SIZE, 4k..1p "
				      "(digits, then k/m/g/t/p), found '%s'",
				      value);
			return -1;
		}
		cfg->fs_bytes = u;
		return 0;
	}
	if (!strcmp(name, "dev-size")) {
		/* The block device's size (a /dev/ job's, fio's
		 * BLKGETSIZE64), on the 512-byte sector. */
		if (fio_parse_size(value, 1024, false, &u, &pct, &bad) ||
		    u < 4096 || u > (1ull << 50) || u % 512) {
			struct fio_pos q = fio_pos_add(pos, bad);

			fio_error_set(err, &q, "expected --dev-size SIZE, 4k..1p "
				      "and a multiple of 512 (digits, then "
				      "k/m/g/t/p), found '%s'", value);
			return -1;
		}
		cfg->dev_bytes = u;
		return 0;
	}
	if (!strcmp(name, "mem")) {
		if (fio_parse_size(value, 1024, false, &u, &pct, &bad) ||
		    u == 0) {
			struct fio_pos q = fio_pos_add(pos, bad);

			fio_error_set(err, &q, "expected --mem SIZE (digits, "
				      "then k/m/g/t), found '%s'", value);
			return -1;
		}
		cfg->mem_bytes = u;
		return 0;
	}
	if (!strcmp(name, "ram")) {
		if (fio_parse_size(value, 1024, false, &u, &pct, &bad) ||
		    u < (1ull << 20) || u > (1ull << 50)) {
			struct fio_pos q = fio_pos_add(pos, bad);

			fio_error_set(err, &q, "expected --ram SIZE, 1m..1p "
				      "(digits, then k/m/g/t/p), found '%s'",
				      value);
			return -1;
		}
		cfg->ram_bytes = u;
		return 0;
	}
	if (!strcmp(name, "dirty_ratio") ||
	    !strcmp(name, "dirty_background_ratio")) {
		/* vm.dirty_ratio's sysctl range is 0..100; 0 (no dirty
		 * page allowed at all) is not modelled: the model reads a
		 * threshold of 0 as "no limit". */
		char *end;

		errno = 0;
		u = strtoull(value, &end, 10);
		if (!isdigit((unsigned char)value[0]) || *end || errno ||
		    u < 1 || u > 100) {
			struct fio_pos q = fio_pos_add(pos, *end &&
						       isdigit((unsigned char)
							       value[0]) ?
						       (size_t)(end - value) : 0);

			fio_error_set(err, &q, "expected --%s 1..100 (a "
				      "percentage of the dirtyable memory), "
				      "found '%s'", name, value);
			return -1;
		}
		if (!strcmp(name, "dirty_ratio"))
			cfg->dirty_ratio = (uint32_t)u;
		else
			cfg->dirty_background_ratio = (uint32_t)u;
		return 0;
	}
	if (!strcmp(name, "dirty_bytes") ||
	    !strcmp(name, "dirty_background_bytes")) {
		/* vm.dirty_bytes: at least 2 pages (dirty_bytes_min);
		 * vm.dirty_background_bytes: at least 1. */
		bool fg = !strcmp(name, "dirty_bytes");
		uint64_t min = fg ? 2 * 4096 : 1;

		if (fio_parse_size(value, 1024, false, &u, &pct, &bad) ||
		    pct || u < min || u > (1ull << 50)) {
			struct fio_pos q = fio_pos_add(pos, bad);

			fio_error_set(err, &q, "expected --%s SIZE, %s..1p "
				      "(digits, then k/m/g/t/p), found '%s'",
				      name, min > 1 ? "8k" : "1", value);
			return -1;
		}
		if (fg)
			cfg->dirty_bytes = u;
		else
			cfg->dirty_background_bytes = u;
		return 0;
	}
	return -1;
}

int fio_parse_argv(int argc, char **argv, struct fio_config *cfg,
		   struct fio_error *err)
{
	struct fio_parse_state *st = state_get(cfg);
	const char *files[FIO_SECTIONS_MAX];
	struct fio_pos file_pos[FIO_SECTIONS_MAX];
	uint32_t nfiles = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		struct fio_pos pos = { CMDLINE_FILE, (uint32_t)i, 1 }, vpos;
		const struct fio_optdef *def;
		char name[128];
		const char *value, *eq;
		size_t dashes, n;
		bool takes_value = true;

		if (a[0] != '-' || a[1] == '\0') {
			if (nfiles == FIO_SECTIONS_MAX) {
				fio_error_set(err, &pos, "expected at most %d "
					      "job files, found more",
					      FIO_SECTIONS_MAX);
				return -1;
			}
			file_pos[nfiles] = pos;
			files[nfiles++] = a;
			continue;
		}
		dashes = a[1] == '-' ? 2 : 1;
		eq = strchr(a, '=');
		n = eq ? (size_t)(eq - a) - dashes : strlen(a) - dashes;
		if (n == 0 || n >= sizeof(name)) {
			fio_error_set(err, &pos, "expected --OPTION[=VALUE], "
				      "found '%s'", a);
			return -1;
		}
		memcpy(name, a + dashes, n);
		name[n] = '\0';
		value = eq ? eq + 1 : NULL;
		vpos = fio_pos_add(&pos, eq ? (size_t)(eq - a) + 1 : 0);

		if (!strcmp(name, "showcmd") || !strcmp(name, "parse-only")) {
			if (value) {
				fio_error_set(err, &vpos, "expected --%s "
					      "without a value, found '%s'",
					      name, value);
				return -1;
			}
			if (name[0] == 's')
				cfg->showcmd = true;
			else
				cfg->parse_only = true;
			continue;
		}
		def = fio_optdef_find(name);
		if (def && (def->type == OPT_FLAG))
			takes_value = false;
		if (!value && takes_value &&
		    (def || is_cmdline_only(name) || !strcmp(name, "name"))) {
			/* getopt's required_argument: the next one. */
			if (i + 1 >= argc) {
				fio_error_set(err, &pos, "expected a value "
					      "after %s, found end of command "
					      "line", a);
				return -1;
			}
			value = argv[++i];
			vpos = (struct fio_pos){ CMDLINE_FILE, (uint32_t)i,
						 1 };
		}
		if (!strcmp(name, "name")) {
			if (section_begin(cfg, value, true, &vpos, err))
				return -1;
			continue;
		}
		if (is_cmdline_only(name)) {
			if (parse_cmdline_option(cfg, name, value, &vpos, err))
				return -1;
			continue;
		}
		if (section_option(cfg, name, value, &pos, &vpos, true, err))
			return -1;
	}
	if (section_end(cfg, err))
		return -1;
	for (uint32_t f = 0; f < nfiles; f++) {
		char *text;
		size_t len;
		int ret = read_file(files[f], &text, &len);

		if (ret) {
			fio_error_set(err, &file_pos[f], "expected a readable "
				      "job file, found '%s' (%s)", files[f],
				      ret == -EFBIG ? "larger than 1 MiB" :
				      strerror(-ret));
			return -1;
		}
		ret = fio_parse_jobfile(files[f], text, len, cfg, err);
		free(text);
		if (ret)
			return -1;
		(void)st;
	}
	return fio_config_finish(cfg, err);
}

/* ------------------------------------------------------------------ */
/* Files of a job                                                      */

uint32_t fio_job_file_count(const struct fio_job *job)
{
	return job->filename_count ? job->filename_count : job->nrfiles;
}

static int put(char *buf, size_t len, size_t *o, const char *s, size_t n)
{
	if (*o + n >= len)
		return -1;
	memcpy(buf + *o, s, n);
	*o += n;
	buf[*o] = '\0';
	return 0;
}

int fio_job_file_name(const struct fio_job *job, uint32_t filenum,
		      char *buf, size_t len)
{
	char name[FIO_PATH_LEN_MAX + 1];
	size_t o = 0;

	if (!len)
		return -1;
	buf[0] = '\0';
	if (job->filename_count) {
		uint32_t k = 0;
		size_t n = 0;

		if (filenum >= job->filename_count)
			return -1;
		for (const char *p = job->filename; *p; p++) {
			if (p[0] == '\\' && p[1] == ':') {
				if (k == filenum)
					name[n++] = ':';
				p++;
				continue;
			}
			if (*p == ':') {
				k++;
				continue;
			}
			if (k == filenum)
				name[n++] = *p;
		}
		name[n] = '\0';
	} else {
		const char *f = job->filename_format;
		size_t n = 0;

		if (filenum >= job->nrfiles)
			return -1;
		while (*f) {
			char num[32];
			const char *add = NULL;
			size_t skip = 1;

			if (!strncmp(f, "$jobname", 8)) {
				add = job->name;
				skip = 8;
			} else if (!strncmp(f, "$jobnum", 7)) {
				snprintf(num, sizeof(num), "%u", job->jobnum);
				add = num;
				skip = 7;
			} else if (!strncmp(f, "$filenum", 8)) {
				snprintf(num, sizeof(num), "%u", filenum);
				add = num;
				skip = 8;
			}
			if (add) {
				size_t m = strlen(add);

				if (n + m >= sizeof(name))
					return -1;
				memcpy(name + n, add, m);
				n += m;
			} else {
				if (n + 1 >= sizeof(name))
					return -1;
				name[n++] = *f;
			}
			f += skip;
		}
		name[n] = '\0';
	}
	if (job->directory[0] && name[0] != '/') {
		if (put(buf, len, &o, job->directory, strlen(job->directory)) ||
		    put(buf, len, &o, "/", 1))
			return -1;
	}
	return put(buf, len, &o, name, strlen(name));
}
