// SPDX-License-Identifier: MIT
/*
 * tools/fio/options.c - the fio job options wpsim models: their names and
 * aliases, fio's defaults, value syntax and checks, after fio 3.33
 * (options.c for the table, parse.c for sizes, times and booleans,
 * init.c fixup_options() for the combinations it rejects).
 *
 * Value rules kept from fio: size suffixes k/m/g/t/p with kb_base=1024
 * meaning powers of 1024 and the "i" forms (KiB, MiB) powers of 1000 --
 * fio's inversion "for compatibility" -- and the reverse with
 * kb_base=1000; "ki"/"mi" without the "b" read as "k"/"m" (fio 3.33's
 * code, not its HOWTO); b/B is bytes; 0x hex; N% where fio takes a
 * percentage; times in d/h/m/s/ms/msec/us/usec, plain numbers in the
 * option's default unit.
 *
 * Leaves out (each an error, never ignored): fio's arithmetic
 * expressions "(1+2)*4k", its bc math, zone units "10z", ranges and
 * split lists (bsrange, bssplit, bs=4k-16k), fractional values, and
 * every fio option not in the table below.  Where fio silently ignores
 * trailing text ("4kfoo" = 4k, "10sec" = 10 us) wpsim gives an error.
 */
#include "tools/fio/internal.h"
#include "tools/fio/verify.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Errors                                                              */

void fio_error_vset(struct fio_error *err, const struct fio_pos *pos,
		    const char *fmt, va_list ap)
{
	if (!err || err->set)
		return;
	err->set = true;
	snprintf(err->file, sizeof(err->file), "%s",
		 pos && pos->file ? pos->file : "<input>");
	err->line = pos ? pos->line : 0;
	err->col = pos ? pos->col : 0;
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	snprintf(err->text, sizeof(err->text), "%s:%u:%u: error: %s",
		 err->file, err->line, err->col, err->message);
}

void fio_error_set(struct fio_error *err, const struct fio_pos *pos,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fio_error_vset(err, pos, fmt, ap);
	va_end(ap);
}

struct fio_pos fio_pos_add(const struct fio_pos *pos, size_t off)
{
	struct fio_pos p = *pos;

	p.col += (uint32_t)off;
	return p;
}

void fio_found(char *buf, size_t len, const char *text)
{
	if (!text || !*text)
		snprintf(buf, len, "end of value");
	else
		snprintf(buf, len, "'%.*s'", 200, text);
}

/* ------------------------------------------------------------------ */
/* Values                                                              */

static bool mul_ok(uint64_t a, uint64_t b, uint64_t *out)
{
	if (a && b > UINT64_MAX / a)
		return false;
	*out = a * b;
	return true;
}

/* The multiplier of a size suffix, or 0 when @s is not one. */
static uint64_t size_suffix(const char *s, uint32_t kb_base)
{
	static const char prefixes[] = "kmgtp";
	char low[8];
	size_t n = strlen(s), i;
	const char *hit;
	uint64_t base = kb_base, mult = 1;
	int pow;

	if (n == 0)
		return 1;
	if (n >= sizeof(low))
		return 0;
	for (i = 0; i < n; i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	low[n] = '\0';
	if (!strcmp(low, "b"))
		return 1;
	hit = strchr(prefixes, low[0]);
	if (!hit || low[0] == '\0')
		return 0;
	pow = (int)(hit - prefixes) + 1;
	if (!strcmp(low + 1, "") || !strcmp(low + 1, "b") ||
	    !strcmp(low + 1, "i")) {
		/* k, kb, and "ki": fio 3.33 reads "ki" as "k". */
	} else if (!strcmp(low + 1, "ib")) {
		base = kb_base == 1024 ? 1000 : 1024;
	} else {
		return 0;
	}
	while (pow--)
		if (!mul_ok(mult, base, &mult))
			return 0;
	return mult;
}

int fio_parse_size(const char *text, uint32_t kb_base, bool percent_ok,
		   uint64_t *bytes, uint32_t *percent, size_t *bad)
{
	const char *p = text;
	uint64_t v = 0, mult;
	bool hex = false;

	*percent = 0;
	*bad = 0;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		hex = true;
		p += 2;
		if (!isxdigit((unsigned char)*p)) {
			*bad = (size_t)(p - text);
			return -1;
		}
	} else if (!isdigit((unsigned char)*p)) {
		return -1;
	}
	while (hex ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p)) {
		unsigned int d;

		if (isdigit((unsigned char)*p))
			d = (unsigned int)(*p - '0');
		else
			d = (unsigned int)(tolower((unsigned char)*p) -
					   'a' + 10);
		if (v > (UINT64_MAX - d) / (hex ? 16 : 10)) {
			*bad = 0;
			return -1;
		}
		v = v * (hex ? 16 : 10) + d;
		p++;
	}
	if (*p == '%' && percent_ok && !hex && p[1] == '\0') {
		if (v < 1 || v > 100) {
			*bad = 0;
			return -1;
		}
		*percent = (uint32_t)v;
		*bytes = 0;
		return 0;
	}
	/* fio ignores a suffix after hex digits; wpsim refuses it. */
	mult = hex ? (*p ? 0 : 1) : size_suffix(p, kb_base);
	if (!mult || !mul_ok(v, mult, bytes)) {
		*bad = mult ? 0 : (size_t)(p - text);
		return -1;
	}
	return 0;
}

int fio_parse_time(const char *text, uint64_t default_unit_us,
		   uint64_t *ns, size_t *bad)
{
	static const struct {
		const char *suffix;
		uint64_t us;
	} units[] = {
		{ "us", 1 }, { "usec", 1 }, { "ms", 1000 }, { "msec", 1000 },
		{ "s", 1000000 }, { "m", 60000000ull },
		{ "h", 3600000000ull }, { "d", 86400000000ull },
	};
	const char *p = text;
	uint64_t v = 0, unit = 0, us;
	char low[8];
	size_t n, i;

	*bad = 0;
	if (!isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p)) {
		unsigned int d = (unsigned int)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
		p++;
	}
	n = strlen(p);
	if (n == 0) {
		unit = default_unit_us;
	} else if (n < sizeof(low)) {
		for (i = 0; i < n; i++)
			low[i] = (char)tolower((unsigned char)p[i]);
		low[n] = '\0';
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcmp(low, units[i].suffix))
				unit = units[i].us;
	}
	if (!unit || !mul_ok(v, unit, &us) || !mul_ok(us, 1000, ns)) {
		*bad = unit ? 0 : (size_t)(p - text);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Enumerations                                                        */

static const char *const engine_names[] = {
	"psync", "sync", "pvsync2", "libaio", "io_uring", "null", "vsync",
	"pvsync", "posixaio", "mmap", NULL,
};
static const int engine_values[] = {
	FIO_ENGINE_PSYNC, FIO_ENGINE_SYNC, FIO_ENGINE_PVSYNC2,
	FIO_ENGINE_LIBAIO, FIO_ENGINE_IO_URING, FIO_ENGINE_NULL,
	FIO_ENGINE_VSYNC, FIO_ENGINE_PVSYNC, FIO_ENGINE_POSIXAIO,
	FIO_ENGINE_MMAP,
};

static const char *const rw_names[] = {
	"read", "write", "rw", "readwrite", "randread", "randwrite",
	"randrw", "trim", "randtrim", "trimwrite", "randtrimwrite", NULL,
};
static const int rw_values[] = {
	FIO_RW_READ, FIO_RW_WRITE, FIO_RW_RW, FIO_RW_RW, FIO_RW_RANDREAD,
	FIO_RW_RANDWRITE, FIO_RW_RANDRW, FIO_RW_TRIM, FIO_RW_RANDTRIM,
	FIO_RW_TRIMWRITE, FIO_RW_RANDTRIMWRITE,
};

static const char *const sync_names[] = {
	"none", "0", "sync", "1", "dsync", NULL,
};
static const int sync_values[] = {
	FIO_SYNC_NONE, FIO_SYNC_NONE, FIO_SYNC_SYNC, FIO_SYNC_SYNC,
	FIO_SYNC_DSYNC,
};

static const char *const submit_names[] = { "inline", "offload", NULL };
static const int submit_values[] = {
	FIO_SUBMIT_INLINE, FIO_SUBMIT_OFFLOAD,
};

static const char *const zonemode_names[] = { "none", "strided", NULL };
static const int zonemode_values[] = {
	FIO_ZONEMODE_NONE, FIO_ZONEMODE_STRIDED,
};

static const char *const fallocate_names[] = {
	"none", "native", "posix", "keep", "truncate", NULL,
};
static const int fallocate_values[] = {
	FIO_FALLOCATE_NONE, FIO_FALLOCATE_NATIVE, FIO_FALLOCATE_POSIX,
	FIO_FALLOCATE_KEEP, FIO_FALLOCATE_TRUNCATE,
};

static const char *const randgen_names[] = {
	"tausworthe", "lfsr", "tausworthe64", NULL,
};
static const int randgen_values[] = {
	FIO_RANDGEN_TAUSWORTHE, FIO_RANDGEN_LFSR, FIO_RANDGEN_TAUSWORTHE64,
};

/* Pacing (options-pace.c). */
static const char *const rate_process_names[] = {
	"linear", "poisson", NULL,
};
static const int rate_process_values[] = {
	FIO_RATE_LINEAR, FIO_RATE_POISSON,
};
static const char *const exit_what_names[] = {
	"group", "stonewall", "all", NULL,
};
static const int exit_what_values[] = {
	FIO_EXIT_GROUP, FIO_EXIT_STONEWALL, FIO_EXIT_ALL,
};
static const char *const thinktime_type_names[] = {
	"complete", "issue", NULL,
};
static const int thinktime_type_values[] = {
	FIO_THINKTIME_COMPLETE, FIO_THINKTIME_ISSUE,
};

static const char *const kb_base_names[] = { "1024", "1000", NULL };
static const int kb_base_values[] = { 1024, 1000 };

const char *fio_rw_name(enum fio_rw rw)
{
	static const char *const names[] = {
		[FIO_RW_READ] = "read", [FIO_RW_WRITE] = "write",
		[FIO_RW_RW] = "rw", [FIO_RW_RANDREAD] = "randread",
		[FIO_RW_RANDWRITE] = "randwrite", [FIO_RW_RANDRW] = "randrw",
		[FIO_RW_TRIM] = "trim", [FIO_RW_RANDTRIM] = "randtrim",
		[FIO_RW_TRIMWRITE] = "trimwrite",
		[FIO_RW_RANDTRIMWRITE] = "randtrimwrite",
	};

	return (unsigned int)rw <= FIO_RW_RANDTRIMWRITE ? names[rw] : "?";
}

const char *fio_engine_name(enum fio_engine engine)
{
	return (unsigned int)engine <= FIO_ENGINE_MMAP ?
		engine_names[engine] : "?";
}

static void names_list(char *buf, size_t len, const char *const *names)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; names[i] && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? ", " : "", names[i]);
}

static int enum_lookup(const struct fio_optdef *def, const char *text,
		       int *value)
{
	for (size_t i = 0; def->names[i]; i++)
		if (!strcmp(def->names[i], text)) {
			*value = def->values[i];
			return 0;
		}
	return -1;
}

static int enum_error(const struct fio_optdef *def,
		      const struct fio_optval *v, const char *text,
		      struct fio_error *err)
{
	char list[512], found[256];

	names_list(list, sizeof(list), def->names);
	fio_found(found, sizeof(found), text);
	fio_error_set(err, &v->pos, "expected %s value (%s), found %s",
		      def->name, list, found);
	return -1;
}

/* ------------------------------------------------------------------ */
/* Typed fields                                                        */

#define FIELD(job, def, type) ((type *)((char *)(job) + (def)->offset))

static int need_value(const struct fio_optdef *def,
		      const struct fio_optval *v, struct fio_error *err)
{
	if (v->text && *v->text)
		return 0;
	fio_error_set(err, &v->pos, "expected a value for %s (%s=...), "
		      "found %s", def->name, def->name,
		      v->text ? "an empty value" : "none");
	return -1;
}

static int size_error(const struct fio_optdef *def,
		      const struct fio_optval *v, size_t bad, bool pct,
		      struct fio_error *err)
{
	char found[256];
	struct fio_pos p = fio_pos_add(&v->pos, bad);

	fio_found(found, sizeof(found), v->text + bad);
	fio_error_set(err, &p, "expected %s for %s (digits or 0x hex, "
		      "then k/m/g/t/p with optional b or ib%s), found %s",
		      pct ? "a size or a percentage 1%..100%" : "an integer",
		      def->name, pct ? "" : "", found);
	return -1;
}

static int parse_u64(const struct fio_optdef *def, const struct fio_job *job,
		     const struct fio_optval *v, uint64_t *out,
		     struct fio_error *err)
{
	uint32_t pct;
	size_t bad;
	uint64_t max = def->max ? def->max : UINT64_MAX;

	if (need_value(def, v, err))
		return -1;
	if (fio_parse_size(v->text, job->kb_base, false, out, &pct, &bad))
		return size_error(def, v, bad, false, err);
	if (*out < def->min || *out > max) {
		fio_error_set(err, &v->pos, "expected %s in %llu..%llu, "
			      "found %llu", def->name,
			      (unsigned long long)def->min,
			      (unsigned long long)max,
			      (unsigned long long)*out);
		return -1;
	}
	return 0;
}

static int parse_bool(const struct fio_optdef *def,
		      const struct fio_optval *v, bool bare_ok, bool *out,
		      struct fio_error *err)
{
	char found[256];

	if (!v->text) {
		if (bare_ok) {
			*out = true;
			return 0;
		}
		fio_error_set(err, &v->pos, "expected %s=0 or %s=1 (fio "
			      "requires the value of a bool option), "
			      "found %s alone", def->name, def->name,
			      def->name);
		return -1;
	}
	if (!strcmp(v->text, "0") || !strcmp(v->text, "1")) {
		*out = v->text[0] == '1';
		return 0;
	}
	fio_found(found, sizeof(found), v->text);
	fio_error_set(err, &v->pos, "expected 0 or 1 for %s, found %s",
		      def->name, found);
	return -1;
}

int fio_opt_apply(struct fio_job *job, const struct fio_optdef *def,
		  const struct fio_optval *v, struct fio_error *err)
{
	uint64_t u;
	uint32_t pct;
	size_t bad;
	int e;

	switch (def->type) {
	case OPT_U32:
		if (parse_u64(def, job, v, &u, err))
			return -1;
		*FIELD(job, def, uint32_t) = (uint32_t)u;
		return 0;
	case OPT_U64:
		if (parse_u64(def, job, v, &u, err))
			return -1;
		*FIELD(job, def, uint64_t) = u;
		return 0;
	case OPT_SIZE: {
		struct fio_size *s = FIELD(job, def, struct fio_size);

		if (need_value(def, v, err))
			return -1;
		/* fio takes offset=0% (the start of the file): 0 bytes. */
		if ((def->offset == offsetof(struct fio_job, offset) ||
		     def->offset == offsetof(struct fio_job, offset_increment)) &&
		    !strcmp(v->text, "0%")) {
			*s = (struct fio_size){ .set = true };
			return 0;
		}
		if (fio_parse_size(v->text, job->kb_base, true, &u, &pct,
				   &bad))
			return size_error(def, v, bad, true, err);
		s->set = true;
		s->bytes = u;
		s->percent = pct;
		return 0;
	}
	case OPT_TIME_S: {
		char found[256];

		if (need_value(def, v, err))
			return -1;
		if (fio_parse_time(v->text, 1000000, &u, &bad)) {
			struct fio_pos p = fio_pos_add(&v->pos, bad);

			fio_found(found, sizeof(found), v->text + bad);
			fio_error_set(err, &p, "expected a time for %s "
				      "(digits, then d, h, m, s, ms, msec, us "
				      "or usec; seconds if none), found %s",
				      def->name, found);
			return -1;
		}
		*FIELD(job, def, uint64_t) = u;
		return 0;
	}
	case OPT_BOOL:
		return parse_bool(def, v, false, FIELD(job, def, bool), err);
	case OPT_FLAG: {
		bool *b = FIELD(job, def, bool);

		if (!v->text) {
			*b = true;
			return 0;
		}
		if (parse_u64(def, job, v, &u, err))
			return -1;
		*b = u != 0;
		return 0;
	}
	case OPT_ENUM:
		if (need_value(def, v, err))
			return -1;
		if (enum_lookup(def, v->text, &e))
			return enum_error(def, v, v->text, err);
		*FIELD(job, def, int) = e;
		return 0;
	case OPT_PATH:
		if (need_value(def, v, err))
			return -1;
		if (strlen(v->text) > FIO_PATH_LEN_MAX) {
			fio_error_set(err, &v->pos, "expected a path of at "
				      "most %d bytes (FIO_PATH_LEN_MAX) for "
				      "%s, found %zu bytes", FIO_PATH_LEN_MAX,
				      def->name, strlen(v->text));
			return -1;
		}
		snprintf(FIELD(job, def, char), FIO_PATH_LEN_MAX + 1, "%s",
			 v->text);
		return 0;
	case OPT_CUSTOM:
		return def->parse(job, def, v, err);
	}
	return -1;
}

/* ------------------------------------------------------------------ */
/* Options with their own syntax                                       */

/* rw=randwrite:8 (new offset every 8 I/Os) or rw=write:4k (skip 4k). */
static int parse_rw(struct fio_job *job, const struct fio_optdef *def,
		    const struct fio_optval *v, struct fio_error *err)
{
	char head[64];
	const char *colon;
	size_t n;
	int e;

	if (need_value(def, v, err))
		return -1;
	colon = strchr(v->text, ':');
	n = colon ? (size_t)(colon - v->text) : strlen(v->text);
	if (n >= sizeof(head))
		n = sizeof(head) - 1;
	memcpy(head, v->text, n);
	head[n] = '\0';
	if (enum_lookup(def, head, &e))
		return enum_error(def, v, head, err);
	job->rw = (enum fio_rw)e;
	job->rw_seq_nr = 1;
	job->rw_seq_add = 0;
	if (colon) {
		struct fio_optval sub = {
			.text = colon + 1,
			.pos = fio_pos_add(&v->pos, n + 1),
		};
		static const struct fio_optdef nr = {
			.name = "rw=...:N", .min = 1, .max = UINT32_MAX,
		};
		static const struct fio_optdef add = {
			.name = "rw=...:N", .min = 0, .max = INT64_MAX,
		};
		bool random = job->rw == FIO_RW_RANDREAD ||
			      job->rw == FIO_RW_RANDWRITE ||
			      job->rw == FIO_RW_RANDRW ||
			      job->rw == FIO_RW_RANDTRIM ||
			      job->rw == FIO_RW_RANDTRIMWRITE;
		bool back = !random && colon[1] == '-';
		uint64_t u;

		/* Sequential: a signed skip, negative for backwards I/O
		 * (fio's str_rw_cb: ddir_seq_add is a long long). */
		if (back) {
			sub.text = colon + 2;
			sub.pos = fio_pos_add(&v->pos, n + 2);
		}
		if (parse_u64(random ? &nr : &add, job, &sub, &u, err))
			return -1;
		if (random)
			job->rw_seq_nr = (uint32_t)u;
		else
			job->rw_seq_add = back ? -(int64_t)u : (int64_t)u;
	}
	return 0;
}

/* bs=4k, or bs=R,W[,T] as fio allows; a range is refused.  Also ba
 * (blockalign): the same per-direction list (fio 3.33 FIO_OPT_ULL with
 * off1..off3). */
static int parse_bs(struct fio_job *job, const struct fio_optdef *def,
		    const struct fio_optval *v, struct fio_error *err)
{
	char part[128];
	const char *p;
	size_t off = 0;
	int i = 0;
	uint64_t *dst = strcmp(def->name, "ba") ? job->bs : job->ba;

	if (need_value(def, v, err))
		return -1;
	p = v->text;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		struct fio_optval sub = {
			.text = part, .pos = fio_pos_add(&v->pos, off),
		};
		uint64_t u;
		char *sep;

		if (i == FIO_DDIR_COUNT) {
			fio_error_set(err, &sub.pos, "expected at most 3 "
				      "block sizes (read,write,trim) for %s, "
				      "found a fourth", def->name);
			return -1;
		}
		if (n >= sizeof(part))
			n = sizeof(part) - 1;
		memcpy(part, p, n);
		part[n] = '\0';
		sep = strpbrk(part, "-:");
		if (sep) {
			struct fio_pos q = fio_pos_add(&sub.pos,
						       (size_t)(sep - part));

			fio_error_set(err, &q, "expected a block size or a "
				      "read,write pair for %s (a range is "
				      "bsrange's), found '%s'", def->name, part);
			return -1;
		}
		/* fio allows the first to be empty: bs=,8k. */
		if (n || i > 0 || !comma) {
			if (parse_u64(def, job, &sub, &u, err))
				return -1;
			dst[i] = u;
			/* Later directions default to this one. */
			for (int j = i + 1; j < FIO_DDIR_COUNT; j++)
				dst[j] = u;
		}
		i++;
		if (!comma)
			break;
		off += n + 1;
		p = comma + 1;
		if (!*p)
			break;
	}
	return 0;
}

static int parse_buffered(struct fio_job *job, const struct fio_optdef *def,
			  const struct fio_optval *v, struct fio_error *err)
{
	bool b;

	if (parse_bool(def, v, false, &b, err))
		return -1;
	job->direct = !b;
	return 0;
}

/*
 * name= inside a job file's section: the job's name (fio's "name"
 * option; a section's header gives it first).  In [global] it is
 * overridden by each job's header, as in fio.
 */
static int parse_name(struct fio_job *job, const struct fio_optdef *def,
		      const struct fio_optval *v, struct fio_error *err)
{
	if (need_value(def, v, err))
		return -1;
	if (!*v->text || strlen(v->text) > FIO_NAME_LEN_MAX) {
		fio_error_set(err, &v->pos, "expected a job name of 1..%d "
			      "bytes (FIO_NAME_LEN_MAX), found %zu bytes",
			      FIO_NAME_LEN_MAX, strlen(v->text));
		return -1;
	}
	snprintf(job->name, sizeof(job->name), "%s", v->text);
	return 0;
}

/* filesize=S: each file's size (a range lo-hi is refused: fio draws a
 * size in it at random). */
/*
 * spr_op=F (fio 3.41's FIO_OPT_FLOAT_LIST of one value): a decimal
 * number; above 0 (fio divides by it) and below 5/3 (fio asserts that
 * the write amplification 0.5 / op + 0.7 is above 1).
 */
static int parse_spr_op(struct fio_job *job, const struct fio_optdef *def,
			const struct fio_optval *v, struct fio_error *err)
{
	char *end;
	double f;

	if (need_value(def, v, err))
		return -1;
	f = strtod(v->text, &end);
	if (*end || end == v->text || !(f > 0.0) || !(0.5 / f + 0.7 > 1.0)) {
		char found[256];

		fio_found(found, sizeof(found), v->text);
		fio_error_set(err, &v->pos, "expected a number above 0 and "
			      "below 5/3 for spr_op (fio 3.41 divides by it "
			      "and asserts that 0.5 / spr_op + 0.7 is above "
			      "1), found %s", found);
		return -1;
	}
	job->spr_op = f;
	return 0;
}

static int parse_filesize(struct fio_job *job, const struct fio_optdef *def,
			  const struct fio_optval *v, struct fio_error *err)
{
	uint64_t u;
	uint32_t pct;
	size_t bad;

	if (need_value(def, v, err))
		return -1;
	if (strchr(v->text, '-') || strchr(v->text, ':')) {
		char found[256];

		fio_found(found, sizeof(found), v->text);
		fio_error_set(err, &v->pos, "expected one size for filesize "
			      "(a range draws sizes at random; wpsim takes "
			      "one), found %s", found);
		return -1;
	}
	if (fio_parse_size(v->text, job->kb_base, false, &u, &pct, &bad) ||
	    !u)
		return size_error(def, v, bad, false, err);
	job->filesize = u;
	return 0;
}

/*
 * write_bw_log, write_lat_log, write_iops_log: bare, or =name (fio's
 * make_log_name: "" is the job's name).  The kind is the option's place
 * in log_kind_opts.
 */
static const char *const log_kind_opts[FIO_LOG_KINDS] = {
	[FIO_LOG_BW] = "write_bw_log",
	[FIO_LOG_LAT] = "write_lat_log",
	[FIO_LOG_IOPS] = "write_iops_log",
};

static int parse_log(struct fio_job *job, const struct fio_optdef *def,
		     const struct fio_optval *v, struct fio_error *err)
{
	const char *name = v->text ? v->text : "";
	unsigned int k = 0;

	while (k < FIO_LOG_KINDS && strcmp(log_kind_opts[k], def->name))
		k++;
	if (k == FIO_LOG_KINDS)
		return -1;
	if (strlen(name) > FIO_PATH_LEN_MAX) {
		fio_error_set(err, &v->pos, "expected a path of at most %d "
			      "bytes (FIO_PATH_LEN_MAX) for %s, found %zu "
			      "bytes", FIO_PATH_LEN_MAX, def->name,
			      strlen(name));
		return -1;
	}
	job->logs |= 1u << k;
	snprintf(job->log_file[k], sizeof(job->log_file[k]), "%s", name);
	return 0;
}

/* verify=KIND: fio's checksum kinds, meta, pattern, null; 0 = none. */
static int parse_verify(struct fio_job *job, const struct fio_optdef *def,
			const struct fio_optval *v, struct fio_error *err)
{
	static const char *const kinds[] = {
		"0", "md5", "crc64", "crc32c", "crc32c-intel", "crc32",
		"crc16", "crc7", "xxhash", "sha512", "sha384", "sha256",
		"sha1", "sha3-224", "sha3-256", "sha3-384", "sha3-512",
		"meta", "pattern", "null", NULL,
	};

	if (need_value(def, v, err))
		return -1;
	for (size_t i = 0; kinds[i]; i++)
		if (!strcmp(kinds[i], v->text)) {
			snprintf(job->verify, sizeof(job->verify), "%s",
				 i ? kinds[i] : "");
			job->verify_given = true;
			return 0;
		}
	{
		char found[256], list[512];

		fio_found(found, sizeof(found), v->text);
		names_list(list, sizeof(list), kinds);
		fio_error_set(err, &v->pos, "expected verify to be one of "
			      "%s, found %s", list, found);
	}
	return -1;
}

static int parse_rwmixwrite(struct fio_job *job, const struct fio_optdef *def,
			    const struct fio_optval *v, struct fio_error *err)
{
	uint64_t u;

	if (parse_u64(def, job, v, &u, err))
		return -1;
	job->rwmixread = 100 - (uint32_t)u;
	return 0;
}

/* sync_file_range=wait_before,write:16 */
static int parse_sfr(struct fio_job *job, const struct fio_optdef *def,
		     const struct fio_optval *v, struct fio_error *err)
{
	static const char *const flag_names[] = {
		"wait_before", "write", "wait_after", NULL,
	};
	const char *colon;
	size_t head, off = 0;
	uint32_t flags = 0;

	if (need_value(def, v, err))
		return -1;
	colon = strchr(v->text, ':');
	head = colon ? (size_t)(colon - v->text) : strlen(v->text);
	for (;;) {
		const char *p = v->text + off;
		size_t n = strcspn(p, ",:");
		struct fio_pos q = fio_pos_add(&v->pos, off);
		int k = -1;

		for (int i = 0; flag_names[i]; i++)
			if (strlen(flag_names[i]) == n &&
			    !strncmp(flag_names[i], p, n))
				k = i;
		if (k < 0) {
			char list[128], found[256], word[128];

			names_list(list, sizeof(list), flag_names);
			snprintf(word, sizeof(word), "%.*s",
				 (int)(n < 120 ? n : 120), p);
			fio_found(found, sizeof(found), word);
			fio_error_set(err, &q, "expected sync_file_range "
				      "flags (%s, comma-separated, then "
				      "optional :N), found %s", list, found);
			return -1;
		}
		flags |= 1u << k;
		off += n;
		if (off >= head)
			break;
		off++;		/* the ',' */
	}
	job->sfr_flags = flags;
	job->sfr_nr = 1;
	if (colon) {
		struct fio_optval sub = {
			.text = colon + 1,
			.pos = fio_pos_add(&v->pos,
					   (size_t)(colon - v->text) + 1),
		};
		static const struct fio_optdef nr = {
			.name = "sync_file_range=...:N", .min = 1,
			.max = UINT32_MAX,
		};
		uint64_t u;

		if (parse_u64(&nr, job, &sub, &u, err))
			return -1;
		job->sfr_nr = (uint32_t)u;
	}
	return 0;
}

/* filename=a:b:c, '\:' a literal colon (fio's escape). */
static int parse_filename(struct fio_job *job, const struct fio_optdef *def,
			  const struct fio_optval *v, struct fio_error *err)
{
	uint32_t count = 1;

	if (need_value(def, v, err))
		return -1;
	if (strlen(v->text) > FIO_PATH_LEN_MAX) {
		fio_error_set(err, &v->pos, "expected file names of at most "
			      "%d bytes (FIO_PATH_LEN_MAX), found %zu bytes",
			      FIO_PATH_LEN_MAX, strlen(v->text));
		return -1;
	}
	for (const char *p = v->text; *p; p++) {
		if (p[0] == '\\' && p[1] == ':') {
			p++;
			continue;
		}
		if (*p == ':') {
			struct fio_pos q = fio_pos_add(&v->pos,
						       (size_t)(p - v->text));

			if (p[1] == '\0' || p == v->text || p[-1] == ':') {
				fio_error_set(err, &q, "expected a file name "
					      "on each side of ':' in "
					      "filename, found an empty one");
				return -1;
			}
			count++;
		}
	}
	if (count > FIO_FILES_MAX) {
		fio_error_set(err, &v->pos, "expected at most %d files "
			      "(FIO_FILES_MAX) in filename, found %u",
			      FIO_FILES_MAX, count);
		return -1;
	}
	snprintf(job->filename, sizeof(job->filename), "%s", v->text);
	job->filename_count = count;
	return 0;
}

static int parse_directory(struct fio_job *job, const struct fio_optdef *def,
			   const struct fio_optval *v, struct fio_error *err)
{
	const char *colon;

	if (need_value(def, v, err))
		return -1;
	colon = strchr(v->text, ':');
	if (colon) {
		struct fio_pos q = fio_pos_add(&v->pos,
					       (size_t)(colon - v->text));

		fio_error_set(err, &q, "expected one directory (several, "
			      "':'-separated, are not modelled), found ':'");
		return -1;
	}
	if (strlen(v->text) > FIO_PATH_LEN_MAX) {
		fio_error_set(err, &v->pos, "expected a path of at most %d "
			      "bytes for directory, found %zu bytes",
			      FIO_PATH_LEN_MAX, strlen(v->text));
		return -1;
	}
	snprintf(job->directory, sizeof(job->directory), "%s", v->text);
	return 0;
}

/*
 * bsrange=A-B[,C-D[,E-F]] (fio 3.33 parse.c FIO_OPT_RANGE): a range per
 * direction, '-' or ':' between its ends, swapped when reversed; one
 * range is every direction's, two give read and write (trim the
 * second's).
 */
static int parse_bsrange(struct fio_job *job, const struct fio_optdef *def,
			 const struct fio_optval *v, struct fio_error *err)
{
	const char *p;
	size_t off = 0;
	int i = 0;

	if (need_value(def, v, err))
		return -1;
	p = v->text;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		char a[128], b[128];
		struct fio_optval sa = { .text = a, .pos = fio_pos_add(&v->pos,
								  off) };
		struct fio_optval sb = { .text = b };
		uint64_t lo, hi;
		const char *sep;

		if (i == FIO_DDIR_COUNT) {
			fio_error_set(err, &sa.pos, "expected at most 3 ranges "
				      "(read,write,trim) for bsrange, found a "
				      "fourth");
			return -1;
		}
		if (n >= sizeof(a))
			n = sizeof(a) - 1;
		memcpy(a, p, n);
		a[n] = '\0';
		sep = strchr(a, '-');
		if (!sep)
			sep = strchr(a, ':');
		if (!sep) {
			fio_error_set(err, &sa.pos, "expected a range MIN-MAX "
				      "for bsrange, found '%s'", a);
			return -1;
		}
		snprintf(b, sizeof(b), "%s", sep + 1);
		sb.pos = fio_pos_add(&sa.pos, (size_t)(sep - a) + 1);
		a[sep - a] = '\0';
		if (parse_u64(def, job, &sa, &lo, err) ||
		    parse_u64(def, job, &sb, &hi, err))
			return -1;
		if (!lo || !hi) {
			fio_error_set(err, &sa.pos, "expected block sizes of at "
				      "least 1 for bsrange, found 0");
			return -1;
		}
		if (lo > hi) {
			uint64_t t = lo;

			lo = hi;
			hi = t;
		}
		for (int d = i; d < FIO_DDIR_COUNT; d++) {
			job->bs_min[d] = lo;
			job->bs_max[d] = hi;
		}
		i++;
		if (!comma || !comma[1])
			break;
		off += n + 1;
		p = comma + 1;
	}
	return 0;
}

/* One direction's bssplit (fio 3.33 options.c bssplit_ddir). */
static int bssplit_ddir(struct fio_job *job, const struct fio_optdef *def,
			int d, const char *text, struct fio_pos pos,
			struct fio_error *err)
{
	struct fio_bssplit *bsp = job->bssplit[d];
	uint32_t nr = 0, perc = 0, missing = 0;
	uint64_t lo = UINT64_MAX, hi = 0;
	const char *p = text;

	while (*p && *p != ',') {
		size_t n = strcspn(p, ":,");
		char entry[128];
		struct fio_optval sv = { .text = entry, .pos = pos };
		char *slash;
		uint64_t bs;
		uint32_t pc = UINT32_MAX;

		if (!n)
			break;		/* fio: an empty entry ends the list */
		if (nr == FIO_BSSPLIT_MAX) {
			fio_error_set(err, &pos, "expected at most %d sizes "
				      "for bssplit, found more",
				      FIO_BSSPLIT_MAX);
			return -1;
		}
		if (n >= sizeof(entry))
			n = sizeof(entry) - 1;
		memcpy(entry, p, n);
		entry[n] = '\0';
		slash = strchr(entry, '/');
		if (slash) {
			/* fio: atoi; above 100 is 100, 0 is "missing". */
			long v = atol(slash + 1);

			*slash = '\0';
			pc = v > 100 ? 100 : v <= 0 ? UINT32_MAX : (uint32_t)v;
		}
		if (parse_u64(def, job, &sv, &bs, err))
			return -1;
		bsp[nr].bs = bs;
		bsp[nr].perc = pc;
		if (bs > hi)
			hi = bs;
		if (bs < lo)
			lo = bs;
		nr++;
		p += n;
		pos = fio_pos_add(&pos, n + (*p == ':'));
		if (*p == ':')
			p++;
	}
	if (!nr)
		return 0;
	for (uint32_t i = 0; i < nr; i++) {
		if (bsp[i].perc == UINT32_MAX)
			missing++;
		else
			perc += bsp[i].perc;
	}
	if (perc > 100 && missing > 1) {
		fio_error_set(err, &pos, "expected bssplit percentages adding "
			      "to at most 100%%, found %u%%", perc);
		return -1;
	}
	if (missing) {
		if (missing == 1 && nr == 1)
			perc = 100;
		for (uint32_t i = 0; i < nr; i++)
			if (bsp[i].perc == UINT32_MAX)
				bsp[i].perc = perc > 100 ? 0 :
					      (100 - perc) / missing;
	}
	/* fio sorts by percentage (qsort; glibc's is a stable merge
	 * sort for a list this small): insertion sort, stable. */
	for (uint32_t i = 1; i < nr; i++) {
		struct fio_bssplit t = bsp[i];
		uint32_t k = i;

		while (k && bsp[k - 1].perc > t.perc) {
			bsp[k] = bsp[k - 1];
			k--;
		}
		bsp[k] = t;
	}
	job->bssplit_nr[d] = nr;
	job->bs_min[d] = lo;
	job->bs_max[d] = hi;
	return 0;
}

/*
 * bssplit=SPLIT[,SPLIT[,SPLIT]] (fio 3.33 str_split_parse): one split is
 * every direction's; two are read and write, trim taking the second.
 */
static int parse_bssplit(struct fio_job *job, const struct fio_optdef *def,
			 const struct fio_optval *v, struct fio_error *err)
{
	const char *w, *t;

	if (need_value(def, v, err))
		return -1;
	w = strchr(v->text, ',');
	if (!w)
		return bssplit_ddir(job, def, FIO_DDIR_WRITE, v->text, v->pos,
				    err) ||
		       bssplit_ddir(job, def, FIO_DDIR_TRIM, v->text, v->pos,
				    err) ||
		       bssplit_ddir(job, def, FIO_DDIR_READ, v->text, v->pos,
				    err) ? -1 : 0;
	t = strchr(w + 1, ',');
	return bssplit_ddir(job, def, FIO_DDIR_TRIM, t ? t + 1 : w + 1,
			    fio_pos_add(&v->pos, (size_t)((t ? t : w) + 1 -
							   v->text)), err) ||
	       bssplit_ddir(job, def, FIO_DDIR_WRITE, w + 1,
			    fio_pos_add(&v->pos, (size_t)(w + 1 - v->text)),
			    err) ||
	       bssplit_ddir(job, def, FIO_DDIR_READ, v->text, v->pos, err) ?
	       -1 : 0;
}

/*
 * buffer_pattern=, verify_pattern= (fio 3.33 options.c
 * str_buffer_pattern_cb, str_verify_pattern_cb; the syntax of
 * lib/pattern.c, tools/fio/verify.c): kept as given.  verify_pattern
 * takes %o; given without verify=, it sets fio's VERIFY_PATTERN (a
 * header and the pattern: "pattern_hdr" here) unless verify= is given
 * in the same job (fio_option_is_set).
 */
static int parse_pattern(struct fio_job *job, const struct fio_optdef *def,
			 const struct fio_optval *v, struct fio_error *err)
{
	bool verify = !strcmp(def->name, "verify_pattern");
	struct fio_pattern pat;
	const char *what;
	size_t at;

	if (need_value(def, v, err))
		return -1;
	if (fio_pattern_parse(v->text, verify, &pat, &at, &what)) {
		char found[256];
		struct fio_pos pos = fio_pos_add(&v->pos, at);

		fio_found(found, sizeof(found), v->text + at);
		fio_error_set(err, &pos, "expected %s for %s, found %s", what,
			      def->name, found);
		return -1;
	}
	if (verify) {
		snprintf(job->verify_pattern, sizeof(job->verify_pattern),
			 "%s", v->text);
		job->verify_pattern_offset = pat.offset_format;
	} else {
		snprintf(job->buffer_pattern, sizeof(job->buffer_pattern),
			 "%s", v->text);
	}
	return 0;
}

/* dedupe_mode=repeat|working_set (fio 3.33 options.c). */
static const char *const dedupe_mode_names[] = {
	"repeat", "working_set", NULL,
};
static const int dedupe_mode_values[] = { 0, 1 };

/* log_window_value=avg|max|both, 0 and 1 the former bool's values
 * (fio 3.42 options.c; 3.33's log_max_value took 0 and 1 only). */
static const char *const log_window_names[] = {
	"avg", "max", "both", "0", "1", NULL,
};
static const int log_window_values[] = {
	FIO_LOG_WINDOW_AVG, FIO_LOG_WINDOW_MAX, FIO_LOG_WINDOW_BOTH,
	FIO_LOG_WINDOW_AVG, FIO_LOG_WINDOW_MAX,
};

/* ------------------------------------------------------------------ */
/* The table                                                           */

#define OFF(field) offsetof(struct fio_job, field)
#define ENUMS(n) .names = n##_names, .values = n##_values

const struct fio_optdef fio_optdefs[] = {
	{ "rw", "readwrite", OPT_CUSTOM, 0, 0, 0, ENUMS(rw),
	  .parse = parse_rw, .what = "I/O pattern; :N suffix" },
	{ "rwmixread", NULL, OPT_U32, OFF(rwmixread), 0, 100,
	  .what = "% reads of a mixed workload" },
	{ "rwmixwrite", NULL, OPT_CUSTOM, 0, 0, 100,
	  .parse = parse_rwmixwrite, .what = "% writes (100 - rwmixread)" },
	{ "bs", "blocksize", OPT_CUSTOM, 0, 1, 1ull << 40,
	  .parse = parse_bs, .what = "block size, or read,write[,trim]" },
	{ "ba", "blockalign", OPT_CUSTOM, 0, 1, 1ull << 40, .parse = parse_bs,
	  .what = "random offsets' alignment, or read,write[,trim]" },
	{ "bsrange", "blocksize_range", OPT_CUSTOM, 0, 1, 1ull << 40,
	  .parse = parse_bsrange, .what = "block size range MIN-MAX" },
	{ "bssplit", NULL, OPT_CUSTOM, 0, 1, 1ull << 40,
	  .parse = parse_bssplit, .what = "block sizes and their %" },
	{ "size", NULL, OPT_SIZE, OFF(size), .what = "bytes per job (or %)" },
	{ "io_size", "io_limit", OPT_SIZE, OFF(io_size),
	  .what = "bytes of I/O (or % of size)" },
	{ "filesize", NULL, OPT_CUSTOM, 0, .parse = parse_filesize,
	  .what = "each file's size" },
	{ "loops", NULL, OPT_U32, OFF(loops), 1, UINT32_MAX,
	  .what = "run the workload N times" },
	{ "verify", NULL, OPT_CUSTOM, 0, .parse = parse_verify,
	  .what = "read back and check what was written" },
	{ "do_verify", NULL, OPT_BOOL, OFF(do_verify),
	  .what = "run the verify phase (1)" },
	{ "verify_fatal", NULL, OPT_BOOL, OFF(verify_fatal),
	  .what = "end every job at a verify failure" },
	{ "verify_write_sequence", NULL, OPT_BOOL,
	  OFF(verify_write_sequence),
	  .what = "check the header's write sequence number (1; fio 3.38+)" },
	{ "verify_backlog", NULL, OPT_U32, OFF(verify_backlog),
	  .what = "verify after every N writes" },
	{ "verify_backlog_batch", NULL, OPT_U32, OFF(verify_batch),
	  .what = "reads per backlog verify (N)" },
	{ "verify_dump", NULL, OPT_BOOL, OFF(verify_dump),
	  .what = "dump a failed block (with no verify read: none)" },
	{ "verify_async", NULL, OPT_U32, OFF(verify_async),
	  .what = "verifier threads (0: each read checked inline)" },
	{ "verify_interval", NULL, OPT_U64, OFF(verify_interval), 0, 0,
	  .what = "a verify header every N bytes" },
	/* The verify family and the written bytes (docs/fio.md). */
	{ "verify_pattern", NULL, OPT_CUSTOM, 0, .parse = parse_pattern,
	  .what = "the pattern verify checks (%o: the offset)" },
	{ "buffer_pattern", NULL, OPT_CUSTOM, 0, .parse = parse_pattern,
	  .what = "the bytes written (no effect: write ids)" },
	{ "experimental_verify", NULL, OPT_BOOL, OFF(experimental_verify),
	  .what = "verify by replaying the writes' offsets" },
	{ "verify_state_save", NULL, OPT_BOOL, OFF(verify_state_save),
	  .what = "fio's verify state file (none written)" },
	{ "verify_state_load", NULL, OPT_BOOL, OFF(verify_state_load),
	  .what = "load fio's verify state file (an error)" },
	{ "buffer_compress_percentage", NULL, OPT_U32,
	  OFF(buffer_compress_percentage), 0, 100,
	  .what = "compressible % of a buffer (no effect)" },
	{ "dedupe_percentage", NULL, OPT_U32, OFF(dedupe_percentage), 0, 100,
	  .what = "% of writes repeating a buffer (no effect)" },
	{ "dedupe_mode", NULL, OPT_ENUM, OFF(dedupe_mode), ENUMS(dedupe_mode),
	  .what = "repeat or working_set (no effect)" },
	{ "dedupe_global", NULL, OPT_BOOL, OFF(dedupe_global),
	  .what = "dedupe across jobs (no effect)" },
	{ "dedupe_working_set_percentage", NULL, OPT_U32,
	  OFF(dedupe_working_set_percentage), 0, 100,
	  .what = "the dedupe working set % (no effect)" },
	{ "refill_buffers", NULL, OPT_FLAG, OFF(refill_buffers),
	  .what = "new buffer contents each write (no effect)" },
	{ "description", NULL, OPT_PATH, OFF(description),
	  .what = "the job's description (output)" },
	{ "io_submit_mode", NULL, OPT_ENUM, OFF(io_submit_mode),
	  ENUMS(submit), .what = "inline, or offload (ioengine=null)" },
	{ "serialize_overlap", NULL, OPT_BOOL, OFF(serialize_overlap),
	  .what = "no overlapping I/O in flight" },
	{ "gtod_reduce", NULL, OPT_BOOL, OFF(gtod_reduce),
	  .what = "no latency statistics" },
	{ "name", NULL, OPT_CUSTOM, 0, .parse = parse_name,
	  .what = "the job's name (job files)" },
	{ "number_ios", NULL, OPT_U64, OFF(number_ios),
	  .what = "stop after N I/Os" },
	{ "numjobs", NULL, OPT_U32, OFF(numjobs), 1, FIO_NUMJOBS_MAX,
	  .what = "clones of the job" },
	{ "iodepth", NULL, OPT_U32, OFF(iodepth), 1, 65536,
	  .what = "I/Os in flight (async engines)" },
	{ "iodepth_batch", "iodepth_batch_submit", OPT_U32,
	  OFF(iodepth_batch), 0, 65536,
	  .what = "I/Os per submission (ioengine=null)" },
	{ "iodepth_batch_complete_min", "iodepth_batch_complete", OPT_U32,
	  OFF(iodepth_batch_complete_min), 0, 65536,
	  .what = "least I/Os per reap (no effect on null)" },
	{ "iodepth_batch_complete_max", NULL, OPT_U32,
	  OFF(iodepth_batch_complete_max), 0, 65536,
	  .what = "most I/Os per reap (no effect on null)" },
	{ "iodepth_low", NULL, OPT_U32, OFF(iodepth_low), 0, 65536,
	  .what = "reap down to N (no effect on null)" },
	{ "ioengine", NULL, OPT_ENUM, OFF(ioengine), ENUMS(engine),
	  .what = "psync, sync, pvsync2, libaio, io_uring, null, vsync, "
		  "pvsync, posixaio, mmap" },
	{ "direct", NULL, OPT_BOOL, OFF(direct), .what = "O_DIRECT" },
	{ "buffered", NULL, OPT_CUSTOM, 0, .parse = parse_buffered,
	  .what = "!direct" },
	{ "sync", NULL, OPT_ENUM, OFF(sync), ENUMS(sync),
	  .what = "O_SYNC (sync, 1) or O_DSYNC (dsync)" },
	{ "fsync", NULL, OPT_U32, OFF(fsync_blocks),
	  .what = "fsync(2) every N writes" },
	{ "fdatasync", NULL, OPT_U32, OFF(fdatasync_blocks),
	  .what = "fdatasync(2) every N writes" },
	{ "sync_file_range", NULL, OPT_CUSTOM, 0, .parse = parse_sfr,
	  .what = "sync_file_range(2) flags:N" },
	{ "end_fsync", NULL, OPT_BOOL, OFF(end_fsync),
	  .what = "fsync at the end" },
	{ "file_append", NULL, OPT_BOOL, OFF(file_append),
	  .what = "I/O starts at end of file" },
	{ "overwrite", NULL, OPT_BOOL, OFF(overwrite),
	  .what = "lay the file out first" },
	{ "filename", NULL, OPT_CUSTOM, 0, .parse = parse_filename,
	  .what = "file(s), ':'-separated" },
	{ "filename_format", NULL, OPT_PATH, OFF(filename_format),
	  .what = "$jobname, $jobnum, $filenum" },
	{ "directory", NULL, OPT_CUSTOM, 0, .parse = parse_directory,
	  .what = "prefix of relative names" },
	{ "nrfiles", "nr_files", OPT_U32, OFF(nrfiles), 1, FIO_FILES_MAX,
	  .what = "files per job" },
	{ "offset", "fileoffset", OPT_SIZE, OFF(offset),
	  .what = "start offset (or %)" },
	{ "offset_increment", NULL, OPT_SIZE, OFF(offset_increment),
	  .what = "offset += jobnum * this" },
	{ "zonemode", NULL, OPT_ENUM, OFF(zonemode), ENUMS(zonemode),
	  .what = "none or strided" },
	{ "zonesize", NULL, OPT_U64, OFF(zonesize),
	  .what = "bytes of I/O per zone" },
	{ "zoneskip", NULL, OPT_U64, OFF(zoneskip),
	  .what = "bytes skipped after a zone" },
	{ "zonerange", NULL, OPT_U64, OFF(zonerange),
	  .what = "zone size (default zonesize)" },
	{ "runtime", "timeout", OPT_TIME_S, OFF(runtime_ns),
	  .what = "virtual run time" },
	{ "time_based", NULL, OPT_FLAG, OFF(time_based),
	  .what = "run for runtime, repeating" },
	{ "ramp_time", NULL, OPT_TIME_S, OFF(ramp_time_ns),
	  .what = "virtual time before measuring" },
	{ "startdelay", NULL, OPT_TIME_S, OFF(startdelay_ns),
	  .what = "virtual delay before start" },
	{ "uncached", NULL, OPT_U32, OFF(uncached),
	  .what = "RWF_DONTCACHE (pvsync2, io_uring)" },
	{ "writethrough", NULL, OPT_BOOL, OFF(writethrough),
	  .what = "RWF_WRITETHROUGH: NOT upstream fio (seed 000)" },
	{ "hipri", NULL, OPT_FLAG, OFF(hipri),
	  .what = "RWF_HIPRI / polled (pvsync2, io_uring)" },
	{ "nowait", NULL, OPT_BOOL, OFF(nowait),
	  .what = "RWF_NOWAIT (pvsync2, libaio, io_uring)" },
	{ "atomic", NULL, OPT_BOOL, OFF(atomic),
	  .what = "RWF_ATOMIC writes (pvsync2, libaio, io_uring; fio 3.38+)" },
	{ "group_reporting", NULL, OPT_FLAG, OFF(group_reporting),
	  .what = "report per group" },
	{ "randseed", NULL, OPT_U64, OFF(randseed),
	  .what = "random seed (0x89)" },
	{ "randrepeat", NULL, OPT_BOOL, OFF(randrepeat),
	  .what = "same random sequence each run" },
	{ "norandommap", NULL, OPT_FLAG, OFF(norandommap),
	  .what = "random offsets may repeat" },
	{ "random_generator", NULL, OPT_ENUM, OFF(random_generator),
	  ENUMS(randgen), .what = "tausworthe, lfsr, tausworthe64" },
	/* SPRandom: fio 3.41's (a later fio than the one the output
	 * matches; docs/fio.md). */
	{ "sprandom", NULL, OPT_BOOL, OFF(sprandom),
	  .what = "SPRandom's offsets (fio 3.41)" },
	{ "spr_op", NULL, OPT_CUSTOM, 0, .parse = parse_spr_op,
	  .what = "SPRandom's over-provisioning (0.15)" },
	{ "spr_num_regions", NULL, OPT_U32, OFF(spr_num_regions), 1,
	  UINT32_MAX, .what = "SPRandom's regions (100)" },
	{ "spr_cs", NULL, OPT_U64, OFF(spr_cs),
	  .what = "SPRandom's cache size, bytes (0)" },
	{ "thread", NULL, OPT_FLAG, OFF(thread),
	  .what = "threads, not processes" },
	{ "fallocate", NULL, OPT_ENUM, OFF(fallocate), ENUMS(fallocate),
	  .what = "how files are laid out" },
	{ "create_on_open", NULL, OPT_BOOL, OFF(create_on_open),
	  .what = "create files at open" },
	{ "invalidate", NULL, OPT_BOOL, OFF(invalidate),
	  .what = "drop the file's cache first" },
	{ "write_iolog", NULL, OPT_PATH, OFF(write_iolog),
	  .what = "parsed only (trace replay)" },
	{ "read_iolog", NULL, OPT_PATH, OFF(read_iolog),
	  .what = "parsed only (trace replay)" },
	{ "replay_no_stall", NULL, OPT_BOOL, OFF(replay_no_stall),
	  .what = "parsed only (trace replay)" },
	{ "replay_time_scale", NULL, OPT_U32, OFF(replay_time_scale), 1,
	  UINT32_MAX, .what = "parsed only (trace replay)" },
	{ "wait_for", NULL, OPT_PATH, OFF(wait_for),
	  .what = "start when the named job has ended" },
	{ "stonewall", "wait_for_previous", OPT_FLAG, OFF(stonewall),
	  .what = "wait for the jobs before; new group" },
	{ "new_group", NULL, OPT_FLAG, OFF(new_group),
	  .what = "start a new reporting group" },
	{ "kb_base", NULL, OPT_ENUM, OFF(kb_base), ENUMS(kb_base),
	  .what = "1024 or 1000" },
	{ "write_bw_log", NULL, OPT_CUSTOM, 0, .parse = parse_log,
	  .what = "a bandwidth log, fio's name_bw.N.log" },
	{ "write_lat_log", NULL, OPT_CUSTOM, 0, .parse = parse_log,
	  .what = "latency logs, name_{lat,slat,clat}.N.log" },
	{ "write_iops_log", NULL, OPT_CUSTOM, 0, .parse = parse_log,
	  .what = "an IOPS log, name_iops.N.log" },
	{ "log_avg_msec", NULL, OPT_U64, OFF(log_avg_msec), 0, 0,
	  .what = "log a window's average every N ms" },
	{ "log_window_value", "log_max_value", OPT_ENUM,
	  OFF(log_window_value), ENUMS(log_window),
	  .what = "a window's avg, max or both" },
	{ "per_job_logs", NULL, OPT_BOOL, OFF(per_job_logs),
	  .what = "the job number in log names (1)" },
	{ "log_offset", NULL, OPT_BOOL, OFF(log_offset),
	  .what = "each log entry's offset" },
	{ "log_issue_time", NULL, OPT_BOOL, OFF(log_issue_time),
	  .what = "each log entry's issue time (ns)" },
	/* Pacing, flow, distributions (options-pace.c, fio-rate.c). */
	{ "rate", NULL, OPT_CUSTOM, 0, 0, 0,
	  .parse = fio_parse_rate_triple,
	  .what = "bytes/s per direction (R,W,T)" },
	{ "rate_min", "ratemin", OPT_CUSTOM, 0, 0, 0,
	  .parse = fio_parse_rate_triple,
	  .what = "bytes/s the job must keep (or it fails)" },
	{ "rate_iops", NULL, OPT_CUSTOM, 0, 0, UINT32_MAX,
	  .parse = fio_parse_rate_triple, .what = "I/Os per second" },
	{ "rate_iops_min", NULL, OPT_CUSTOM, 0, 0, UINT32_MAX,
	  .parse = fio_parse_rate_triple,
	  .what = "I/Os per second the job must keep" },
	{ "rate_process", NULL, OPT_ENUM, OFF(rate_process),
	  ENUMS(rate_process), .what = "linear or poisson" },
	{ "rate_cycle", "ratecycle", OPT_U64, OFF(rate_cycle_ms), 0,
	  UINT32_MAX, .what = "the rate_min window (ms)" },
	{ "rate_ignore_thinktime", NULL, OPT_BOOL,
	  OFF(rate_ignore_thinktime),
	  .what = "rated I/O catches up after a thinktime" },
	{ "thinktime", NULL, OPT_CUSTOM, 0, .parse = fio_parse_time_us,
	  .what = "idle time between I/Os (us)" },
	{ "thinktime_spin", NULL, OPT_CUSTOM, 0, .parse = fio_parse_time_us,
	  .what = "the part of thinktime fio spins" },
	{ "thinktime_blocks", NULL, OPT_CUSTOM, 0, 1, UINT32_MAX,
	  .parse = fio_parse_thinktime_blocks,
	  .what = "I/Os between thinktimes (1)" },
	{ "thinktime_blocks_type", NULL, OPT_ENUM,
	  OFF(thinktime_blocks_type), ENUMS(thinktime_type),
	  .what = "complete or issue" },
	{ "thinktime_iotime", NULL, OPT_TIME_S, OFF(thinktime_iotime_ns),
	  .what = "I/O time between thinktimes" },
	{ "flow_id", NULL, OPT_U32, OFF(flow_id), 0, UINT32_MAX,
	  .what = "the flow the job shares" },
	{ "flow", NULL, OPT_U32, OFF(flow), 0, 1000,
	  .what = "the job's weight in its flow" },
	{ "flow_sleep", NULL, OPT_CUSTOM, 0, 0, UINT32_MAX,
	  .parse = fio_parse_flow_sleep,
	  .what = "us to sleep when held back by the flow" },
	{ "flow_watermark", NULL, OPT_CUSTOM, 0, .parse = fio_parse_noted,
	  .what = "deprecated in fio 3.33: a note, no effect" },
	{ "random_distribution", NULL, OPT_CUSTOM, 0,
	  .parse = fio_parse_rand_dist,
	  .what = "random, zipf, pareto, normal, zoned, zoned_abs, "
		  "sequence" },
	{ "random_sequence_stride", NULL, OPT_BOOL, OFF(rand_seq_stride),
	  .what = "sequence: a moving block group" },
	{ "log_prio", NULL, OPT_BOOL, OFF(log_prio),
	  .what = "the logs' prio column: the I/O's ioprio" },
	{ "cpus_allowed", NULL, OPT_CUSTOM, 0, .parse = fio_parse_noted,
	  .what = "a note, no effect (the model's tasks are not pinned)" },
	{ "cpus_allowed_policy", NULL, OPT_CUSTOM, 0,
	  .parse = fio_parse_noted,
	  .what = "a note, no effect (the model's tasks are not pinned)" },
	{ "cpumask", NULL, OPT_CUSTOM, 0, .parse = fio_parse_noted,
	  .what = "a note, no effect (the model's tasks are not pinned)" },
	{ "verify_async_cpus", NULL, OPT_CUSTOM, 0, .parse = fio_parse_noted,
	  .what = "a note, no effect (the model's tasks are not pinned)" },
	{ "numa_cpu_nodes", NULL, OPT_CUSTOM, 0, .parse = fio_parse_noted,
	  .what = "a note, no effect (no NUMA in the model)" },
	{ "numa_mem_policy", NULL, OPT_CUSTOM, 0, .parse = fio_parse_noted,
	  .what = "a note, no effect (no NUMA in the model)" },
	{ "threads", NULL, OPT_CUSTOM, 0, .parse = fio_parse_noted,
	  .what = "tiobench profile's: a note, no effect" },
	{ "exitall", NULL, OPT_FLAG, OFF(exitall),
	  .what = "a job's end ends others (exit_what)" },
	{ "exit_what", NULL, OPT_ENUM, OFF(exit_what), ENUMS(exit_what),
	  .what = "group, stonewall or all" },
	{ "exitall_on_error", NULL, OPT_FLAG, OFF(exitall_on_error),
	  .what = "exitall when the job fails" },
	/* Errors and ENOSPC (options-err.c, tools/wpsim/fio-err.c). */
	{ "continue_on_error", NULL, OPT_CUSTOM, 0,
	  .parse = fio_parse_continue_on_error,
	  .what = "go on after the errors of ignore_error" },
	{ "ignore_error", NULL, OPT_CUSTOM, 0,
	  .parse = fio_parse_ignore_error,
	  .what = "non-fatal errors: read,write,verify lists" },
	{ "error_dump", NULL, OPT_BOOL, OFF(error_dump),
	  .what = "print each I/O error, non-fatal too (1)" },
	{ "fill_device", "fill_fs", OPT_BOOL, OFF(fill_device),
	  .what = "write until ENOSPC (needs --fs-size)" },
	{ "create_serialize", NULL, OPT_BOOL, OFF(create_serialize),
	  .what = "lay files out before the jobs start (1)" },
	{ "latency_target", NULL, OPT_CUSTOM, 0, .parse = fio_parse_latency,
	  .what = "ramp the queue depth to keep latencies within it (us)" },
	{ "latency_window", NULL, OPT_CUSTOM, 0, .parse = fio_parse_latency,
	  .what = "the window latency_target checks over (us)" },
	{ "latency_percentile", NULL, OPT_CUSTOM, 0,
	  .parse = fio_parse_latency,
	  .what = "% of I/Os within latency_target (100)" },
	{ "latency_run", NULL, OPT_BOOL, OFF(latency_run),
	  .what = "keep adjusting the depth to latency_target" },
	/* Steady state (options-ss.c, tools/wpsim/fio-ss.c). */
	{ "steadystate", "ss", OPT_CUSTOM, 0, .parse = fio_parse_steadystate,
	  .what = "end the job at steady state (iops:10%, bw_slope:1%...)" },
	{ "steadystate_duration", "ss_dur", OPT_TIME_S, OFF(ss_dur_ns),
	  .what = "the steady state window (s)" },
	{ "steadystate_ramp_time", "ss_ramp", OPT_TIME_S, OFF(ss_ramp_ns),
	  .what = "time before the steady state data (s)" },
	{ "steadystate_check_interval", "ss_interval", OPT_TIME_S,
	  OFF(ss_check_ns), .what = "the steady state check interval (1 s)" },
	/* I/O priorities (options-ss.c, tools/wpsim/fio-prio.c). */
	{ "prio", NULL, OPT_CUSTOM, 0, 0, 7, .parse = fio_parse_ioprio,
	  .what = "the job's I/O priority level (ioprio_set)" },
	{ "prioclass", NULL, OPT_CUSTOM, 0, 0, 3, .parse = fio_parse_ioprio,
	  .what = "the job's I/O priority class (ioprio_set)" },
	{ "cmdprio_percentage", NULL, OPT_CUSTOM, 0, 0, 100,
	  .parse = fio_parse_cmdprio,
	  .what = "% of I/Os at the cmdprio priority (R,W)" },
	{ "cmdprio_class", NULL, OPT_CUSTOM, 0, 1, 3,
	  .parse = fio_parse_cmdprio, .what = "cmdprio's class (R,W)" },
	{ "cmdprio", NULL, OPT_CUSTOM, 0, 0, 7, .parse = fio_parse_cmdprio,
	  .what = "cmdprio's level (R,W)" },
	{ "cmdprio_bssplit", NULL, OPT_CUSTOM, 0, .parse = fio_parse_cmdprio,
	  .what = "priorities per block size (bs/perc[/class/level])" },
};

const size_t fio_optdef_count = sizeof(fio_optdefs) / sizeof(fio_optdefs[0]);

const struct fio_optdef *fio_optdef_find(const char *name)
{
	for (size_t i = 0; i < fio_optdef_count; i++)
		if (!strcmp(fio_optdefs[i].name, name) ||
		    (fio_optdefs[i].alias &&
		     !strcmp(fio_optdefs[i].alias, name)))
			return &fio_optdefs[i];
	return NULL;
}

_Static_assert(sizeof(fio_optdefs) / sizeof(fio_optdefs[0]) <=
	       FIO_OPTDEFS_MAX, "FIO_OPTDEFS_MAX too small");

size_t fio_optdef_index(const struct fio_optdef *def)
{
	return (size_t)(def - fio_optdefs);
}

const char *fio_modelled_options(void)
{
	static char list[4096];

	if (!list[0]) {
		size_t used = 0;

		for (size_t i = 0; i < fio_optdef_count; i++)
			used += (size_t)snprintf(list + used,
						 sizeof(list) - used, "%s%s",
						 i ? ", " : "",
						 fio_optdefs[i].name);
	}
	return list;
}

void fio_job_defaults(struct fio_job *job)
{
	memset(job, 0, sizeof(*job));
	job->rw = FIO_RW_READ;
	job->rw_seq_nr = 1;
	job->rwmixread = 50;
	for (int i = 0; i < FIO_DDIR_COUNT; i++)
		job->bs[i] = 4096;
	job->numjobs = 1;
	job->loops = 1;
	job->do_verify = true;
	job->verify_write_sequence = true;
	job->iodepth = 1;
	job->iodepth_batch = 1;
	job->iodepth_batch_complete_min = 1;
	job->ioengine = FIO_ENGINE_PSYNC;
	job->sync = FIO_SYNC_NONE;
	snprintf(job->filename_format, sizeof(job->filename_format),
		 "$jobname.$jobnum.$filenum");
	job->nrfiles = 1;
	job->zonemode = FIO_ZONEMODE_NONE;
	job->randseed = 0x89;
	job->randrepeat = true;
	job->random_generator = FIO_RANDGEN_TAUSWORTHE;
	job->spr_num_regions = 100;
	job->spr_op = 0.15;
	job->fallocate = FIO_FALLOCATE_NATIVE;
	job->invalidate = true;
	job->replay_time_scale = 100;
	job->kb_base = 1024;
	job->per_job_logs = true;
	job->verify_state_save = true;
	job->dedupe_working_set_percentage = 5;
	/* Pacing (options-pace.c): fio 3.33's defaults. */
	job->rate_cycle_ms = 1000;
	job->thinktime_blocks = 1;
	job->rand_dist_center = -1;
	job->latency_percentile = 100.0;
	/* steadystate's default, "iops_slope:0.01%" (off: ss_dur 0). */
	job->ss_state = FIO_SS_IOPS | FIO_SS_SLOPE | FIO_SS_PCT;
	job->ss_limit = 0.01;
	job->ss_check_ns = 1000000000ull;
	/* init.c def_thread: error_dump = 1; options.c: create_serialize
	 * 1. */
	job->error_dump = true;
	job->create_serialize = true;
}
