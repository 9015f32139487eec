/* SPDX-License-Identifier: MIT */
/*
 * tools/fio/internal.h - what the fio front end's files share: the
 * option table, value parsers and error helpers.  Not for callers.
 */
#ifndef WPSIM_TOOLS_FIO_INTERNAL_H
#define WPSIM_TOOLS_FIO_INTERNAL_H

#include "tools/fio/fio.h"

#include <stdarg.h>

/* How an option's value is read. */
enum fio_opt_type {
	OPT_U32,	/* fio INT: integer, size suffixes allowed */
	OPT_U64,	/* fio STR_VAL / ULL */
	OPT_SIZE,	/* bytes, N% allowed: struct fio_size */
	OPT_TIME_S,	/* time, plain number = seconds; stored ns */
	OPT_BOOL,	/* 0 or 1, value required (fio BOOL) */
	OPT_FLAG,	/* bare = 1, or =N (fio STR_SET) */
	OPT_ENUM,	/* one of names[] */
	OPT_PATH,	/* string, FIO_PATH_LEN_MAX */
	OPT_CUSTOM,	/* parse() does it */
};

struct fio_optdef;

/* A value being applied: where it is, for errors. */
struct fio_optval {
	const char *text;	/* NULL when given bare */
	struct fio_pos pos;	/* of the value's first byte (or the key) */
};

typedef int (*fio_opt_parse_fn)(struct fio_job *job,
				const struct fio_optdef *def,
				const struct fio_optval *v,
				struct fio_error *err);

struct fio_optdef {
	const char *name;
	const char *alias;
	enum fio_opt_type type;
	size_t offset;			/* into struct fio_job */
	uint64_t min;
	uint64_t max;			/* 0 = the type's maximum */
	const char *const *names;	/* OPT_ENUM: NULL-terminated */
	const int *values;		/* OPT_ENUM: names[i] -> values[i] */
	fio_opt_parse_fn parse;		/* OPT_CUSTOM */
	const char *what;		/* docs: what it does in wpsim */
};

extern const struct fio_optdef fio_optdefs[];
extern const size_t fio_optdef_count;

const struct fio_optdef *fio_optdef_find(const char *name);

/* Errors. */
void fio_error_set(struct fio_error *err, const struct fio_pos *pos,
		   const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void fio_error_vset(struct fio_error *err, const struct fio_pos *pos,
		    const char *fmt, va_list ap);

/* Positions @off bytes further along the same line. */
struct fio_pos fio_pos_add(const struct fio_pos *pos, size_t off);

/* Quote a value for a message: 'text', or "end of value". */
void fio_found(char *buf, size_t len, const char *text);

/*
 * Value parsers (fio 3.33 parse.c semantics, stricter: trailing text
 * fio would ignore is an error).  On error *bad is the byte offset in
 * @text where the value stops making sense.
 */
int fio_parse_size(const char *text, uint32_t kb_base, bool percent_ok,
		   uint64_t *bytes, uint32_t *percent, size_t *bad);
int fio_parse_time(const char *text, uint64_t default_unit_us,
		   uint64_t *ns, size_t *bad);

/* fio_job_defaults() - fio's defaults for every modelled option. */
void fio_job_defaults(struct fio_job *job);

/* Apply one option to @job; the caller found @def. */
int fio_opt_apply(struct fio_job *job, const struct fio_optdef *def,
		  const struct fio_optval *v, struct fio_error *err);

/* The table's size bound; options.c checks the table against it. */
#define FIO_OPTDEFS_MAX		256

/* Index of @def in fio_optdefs[]. */
size_t fio_optdef_index(const struct fio_optdef *def);

/* options-pace.c: the pacing, flow, distribution and noted options. */
int fio_parse_rate_triple(struct fio_job *job, const struct fio_optdef *def,
			  const struct fio_optval *v, struct fio_error *err);
int fio_parse_time_us(struct fio_job *job, const struct fio_optdef *def,
		      const struct fio_optval *v, struct fio_error *err);
int fio_parse_thinktime_blocks(struct fio_job *job,
			       const struct fio_optdef *def,
			       const struct fio_optval *v,
			       struct fio_error *err);
int fio_parse_flow_sleep(struct fio_job *job, const struct fio_optdef *def,
			 const struct fio_optval *v, struct fio_error *err);
int fio_parse_rand_dist(struct fio_job *job, const struct fio_optdef *def,
			const struct fio_optval *v, struct fio_error *err);
int fio_parse_latency(struct fio_job *job, const struct fio_optdef *def,
		      const struct fio_optval *v, struct fio_error *err);
int fio_parse_noted(struct fio_job *job, const struct fio_optdef *def,
		    const struct fio_optval *v, struct fio_error *err);
/* options-ss.c: steadystate's criterion and threshold. */
int fio_parse_steadystate(struct fio_job *job, const struct fio_optdef *def,
			  const struct fio_optval *v, struct fio_error *err);
/* prio, prioclass; cmdprio_percentage, cmdprio_class, cmdprio,
 * cmdprio_bssplit. */
int fio_parse_ioprio(struct fio_job *job, const struct fio_optdef *def,
		     const struct fio_optval *v, struct fio_error *err);
int fio_parse_cmdprio(struct fio_job *job, const struct fio_optdef *def,
		      const struct fio_optval *v, struct fio_error *err);
/* The steadystate fields of @a and @b are equal. */
bool fio_ss_jobs_equal(const struct fio_job *a, const struct fio_job *b);
/* The pacing fields of @a and @b are equal (fio_jobs_equal's part). */
bool fio_pace_jobs_equal(const struct fio_job *a, const struct fio_job *b);
/* options-err.c: continue_on_error, ignore_error. */
int fio_parse_continue_on_error(struct fio_job *job,
				const struct fio_optdef *def,
				const struct fio_optval *v,
				struct fio_error *err);
int fio_parse_ignore_error(struct fio_job *job, const struct fio_optdef *def,
			   const struct fio_optval *v, struct fio_error *err);
bool fio_err_jobs_equal(const struct fio_job *a, const struct fio_job *b);

#endif /* WPSIM_TOOLS_FIO_INTERNAL_H */
