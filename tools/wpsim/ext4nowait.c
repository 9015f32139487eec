// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/ext4nowait.c - `wpsim ext4-nowait`: what an O_DIRECT
 * pwritev2(..., RWF_NOWAIT) on ext4 returns for a block layout and a
 * range, and which i_rwsem mode each variant of the seed 002 decision
 * takes.
 *
 *   wpsim ext4-nowait LAYOUT OFFSET LENGTH [--variant ext4_dio=V]...
 *   wpsim ext4-nowait --check TABLE [--variant ext4_dio=V]
 *
 * LAYOUT is one letter per 4096-byte block from block 0 (H hole, U
 * unwritten, W written); the file's i_size is the layout's length, as in
 * tools/ext4-dio-nowait-probe.c, whose output lines are the TABLE format
 * (`LAYOUT OFFSET LENGTH RESULT`, `#` comments).  The file starts as the
 * probe leaves it after its blocking warm-up write: S_NOSEC set,
 * timestamps current, no page cache.
 *
 * For each variant two single executions of the model run (one task, no
 * other contender, so the answer is the variant's decision alone): the
 * RWF_NOWAIT write, whose return is the answer, and the same write
 * blocking, whose lock mode, inode_dio_wait, IOMAP_DIO_FORCE_WAIT, upgrade
 * restarts and zeroing bios are the decision.  --check compares the
 * NOWAIT answers of every TABLE row with the model (base unless --variant
 * says otherwise) and exits 1 on any difference.
 *
 * Bad input is reported `WHERE:LINE:COL: error: expected X, found Y` —
 * for the TABLE its path, line and column; for the command line
 * `ext4-nowait:ARG:COL` with ARG the 1-based argument after the command —
 * and exits 2.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sim/arena.h"
#include "sim/explore.h"
#include "tools/wpsim/scenario.h"

#define BLOCK_BYTES	4096
#define LAYOUT_BLOCKS_MAX ((M_FILE_PAGES_DEFAULT * PAGE_SIZE) / BLOCK_BYTES)
#define FILE_BYTES_MAX	((long long)M_FILE_PAGES_DEFAULT * \
			 (long long)PAGE_SIZE)
#define TABLE_LINE_MAX	512
#define VARIANTS	4

/* One case: the input and, per variant, the model's answers. */
struct nowait_case {
	char layout[LAYOUT_BLOCKS_MAX + 1];
	long long pos, len;
};

struct answer {
	long nowait_ret;			/* the RWF_NOWAIT write */
	struct m_ext4_dio_decision nowait;
	long blocking_ret;			/* the same write, blocking */
	struct m_ext4_dio_decision blocking;
};

static const enum m_ext4_dio_variant variants[VARIANTS] = {
	M_EXT4_DIO_BASE, M_EXT4_DIO_PATCH1, M_EXT4_DIO_PATCH2,
	M_EXT4_DIO_UNSAFE,
};
_Static_assert(M_EXT4_DIO_UNSAFE + 1 == VARIANTS,
	       "a row per ext4_dio value (model/variant.h)");

/* ---- running the model ---------------------------------------------------- */

struct run {
	const struct nowait_case *c;
	enum m_ext4_dio_variant variant;
	unsigned int rwf;
	long ret;
	struct m_ext4_dio_decision d;
};

static void write_task(void *arg)
{
	struct run *r = arg;

	r->ret = m_ext4_pwritev2_direct(m_world()->files[0], r->c->pos,
					(size_t)r->c->len, r->rwf, 100, &r->d);
}

static void run_setup(void *arg)
{
	struct run *r = arg;
	struct m_world_config config;

	m_world_config_default(&config);
	config.nr_files = 1;
	config.files[0].name = "f";
	config.files[0].size = (loff_t)strlen(r->c->layout) * BLOCK_BYTES;
	config.files[0].blkbits = 12;
	config.files[0].layout = r->c->layout;
	config.files[0].open_flags = KM_O_DIRECT;
	config.files[0].nosec = true;	/* after the probe's warm-up */
	config.ext4_dio = r->variant;
	m_world_setup(&config);
	sim_task_spawn("P0", write_task, r);
}

static void run_final(void *arg)
{
	char why[256];

	(void)arg;
	if (!m_world_quiescent_check(why, sizeof(why)))
		sim_fail(SIM_FAIL_INVARIANT, "at quiescence: %s", why);
}

/* One execution; 0, or -1 with the engine's message on stderr. */
static int run_one(const struct nowait_case *c, enum m_ext4_dio_variant v,
		   unsigned int rwf, long *ret, struct m_ext4_dio_decision *d)
{
	struct run r = { .c = c, .variant = v, .rwf = rwf };
	struct sim_program program = {
		.name = "ext4-nowait",
		.description = "one O_DIRECT write on ext4",
		.setup = run_setup,
		.final = run_final,
		.config = &r,
	};
	struct sim_exec_options exec = { .steps_max = SIM_STEPS_LIMIT };
	struct sim_outcome o;

	sim_replay(&program, "-", &exec, &o);
	if (o.kind != SIM_OK) {
		fprintf(stderr, "wpsim ext4-nowait: the model failed (%s): "
			"%s\n", sim_failure_kind_name(o.kind), o.message);
		return -1;
	}
	*ret = r.ret;
	*d = r.d;
	return 0;
}

static int answer(const struct nowait_case *c, enum m_ext4_dio_variant v,
		  struct answer *a)
{
	if (run_one(c, v, RWF_NOWAIT, &a->nowait_ret, &a->nowait) != 0 ||
	    run_one(c, v, 0, &a->blocking_ret, &a->blocking) != 0)
		return -1;
	return 0;
}

/* ---- parsing -------------------------------------------------------------- */

static int input_error(const char *where, unsigned int line,
		       unsigned int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Where input errors go: stderr, or the FILE a row parse was given. */
static FILE *errors_out;

static int input_error(const char *where, unsigned int line,
		       unsigned int col, const char *fmt, ...)
{
	FILE *out = errors_out ? errors_out : stderr;
	va_list ap;

	fprintf(out, "%s:%u:%u: error: ", where, line, col);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
	return EXIT_USAGE;
}

/* LAYOUT: 1..LAYOUT_BLOCKS_MAX of H, U, W. */
static int parse_layout(const char *text, size_t len, struct nowait_case *c,
			const char *where, unsigned int line, unsigned int col)
{
	if (len == 0)
		return input_error(where, line, col, "expected a layout (H, U "
				   "or W per 4096-byte block), found nothing");
	if (len > LAYOUT_BLOCKS_MAX)
		return input_error(where, line, col, "expected a layout of at "
				   "most %d blocks, found %zu",
				   (int)LAYOUT_BLOCKS_MAX, len);
	for (size_t i = 0; i < len; i++)
		if (!text[i] || !strchr("HUW", text[i]))
			return input_error(where, line, col + (unsigned int)i,
					   "expected a block state H, U or W, "
					   "found '%c'", text[i]);
	memcpy(c->layout, text, len);
	c->layout[len] = '\0';
	return 0;
}

/* A byte count: decimal digits, optional K (x1024); a multiple of 512. */
static int parse_bytes(const char *text, size_t len, const char *what,
		       long long min, long long *out, const char *where,
		       unsigned int line, unsigned int col)
{
	long long v = 0;
	size_t i = 0;

	if (len == 0)
		return input_error(where, line, col, "expected %s (bytes), "
				   "found nothing", what);
	for (; i < len && text[i] >= '0' && text[i] <= '9'; i++) {
		v = v * 10 + (text[i] - '0');
		if (v > FILE_BYTES_MAX)
			break;
	}
	if (i == 0 || (i < len && !(i + 1 == len && text[i] == 'K' &&
				    v <= FILE_BYTES_MAX / 1024)))
		return input_error(where, line, col + (unsigned int)i,
				   "expected %s: bytes, a decimal number "
				   "with an optional K, at most %lld, found "
				   "'%.*s'", what, FILE_BYTES_MAX, (int)len,
				   text);
	if (i < len)
		v *= 1024;
	if (v < min || v > FILE_BYTES_MAX)
		return input_error(where, line, col, "expected %s in "
				   "%lld..%lld, found %lld", what, min,
				   FILE_BYTES_MAX, v);
	if (v % 512)
		return input_error(where, line, col, "expected %s a multiple "
				   "of 512 (O_DIRECT: the kernel returns "
				   "-EINVAL otherwise), found %lld", what, v);
	*out = v;
	return 0;
}

static int check_range(struct nowait_case *c, const char *where,
		       unsigned int line, unsigned int col)
{
	if (c->pos + c->len > FILE_BYTES_MAX)
		return input_error(where, line, col, "expected OFFSET + "
				   "LENGTH <= %lld (the model's largest "
				   "file), found %lld", FILE_BYTES_MAX,
				   c->pos + c->len);
	return 0;
}

/* A TABLE result: a byte count or -ERRNO. */
static int parse_result(const char *text, size_t len, long *out,
			const char *where, unsigned int line,
			unsigned int col)
{
	char name[32];
	char *end;
	long v;
	int e;

	if (len && text[0] == '-' && len - 1 < sizeof(name)) {
		memcpy(name, text + 1, len - 1);
		name[len - 1] = '\0';
		if (litmus_errno_value(name, &e) && e > 0) {
			*out = -(long)e;
			return 0;
		}
	} else if (len && text[0] >= '0' && text[0] <= '9') {
		errno = 0;
		v = strtol(text, &end, 10);
		if (!errno && end == text + len) {
			*out = v;
			return 0;
		}
	}
	return input_error(where, line, col, "expected a result (a byte "
			   "count or -ERRNO such as -EAGAIN), found '%.*s'",
			   (int)len, text);
}

/* --variant ext4_dio=V (only that key); sets @only, or returns 2. */
static int parse_variant(const char *text, unsigned int arg, int *only)
{
	const struct m_variant_key_info *vk =
		&m_variant_keys[M_VARIANT_EXT4_DIO];
	struct m_variant_choice c;
	char why[640], want[128];
	size_t len;

	if (m_variant_parse(text, &c, why, sizeof(why)) == 0 &&
	    c.key == M_VARIANT_EXT4_DIO) {
		*only = (int)c.value;
		return 0;
	}
	len = strlen(vk->key);
	if (strncmp(text, vk->key, len) == 0 && text[len] == '=')
		return input_error("ext4-nowait", arg, (unsigned int)len + 2,
				   "%s", why);
	len = (size_t)snprintf(want, sizeof(want), "%s=", vk->key);
	for (size_t i = 0; i < vk->values_count && len < sizeof(want); i++)
		len += (size_t)snprintf(want + len, sizeof(want) - len,
					"%s%s", i ? "|" : "",
					vk->values[i].name);
	return input_error("ext4-nowait", arg, 1, "expected %s, found '%s'",
			   want, text);
}

/* ---- output --------------------------------------------------------------- */

/* The variant's name as --variant and scenarios spell it. */
static const char *vname(int v)
{
	return m_variant_value_name(M_VARIANT_EXT4_DIO, (unsigned int)v);
}

static void ret_text(char *buf, size_t size, long ret)
{
	const char *name = ret < 0 ? litmus_errno_name((int)-ret) : NULL;

	if (name)
		snprintf(buf, size, "-%s", name);
	else
		snprintf(buf, size, "%ld", ret);
}

static const char *yes(bool b)
{
	return b ? "yes" : "no";
}

static void print_case(const struct nowait_case *c, int only,
		       const struct answer *answers)
{
	printf("ext4 O_DIRECT pwritev2(RWF_NOWAIT): layout %s (i_size %zu, "
	       "4096-byte blocks, S_NOSEC, no page cache), %lld bytes at "
	       "%lld\n", c->layout, strlen(c->layout) * BLOCK_BYTES, c->len,
	       c->pos);
	printf("%-14s %-8s %-10s %-9s %-10s %-8s %s\n", "variant", "nowait",
	       "lock", "dio_wait", "force_wait", "restarts", "zero_bios");
	for (int v = 0; v < VARIANTS; v++) {
		const struct answer *a = &answers[v];
		char ret[32];

		if (only >= 0 && v != only)
			continue;
		ret_text(ret, sizeof(ret), a->nowait_ret);
		printf("%-14s %-8s %-10s %-9s %-10s %-8u %u\n", vname(v),
		       ret,
		       !a->blocking.issued ? "-" :
		       a->blocking.shared ? "shared" : "exclusive",
		       yes(a->blocking.dio_wait), yes(a->blocking.force_wait),
		       a->blocking.restarts, a->blocking.zero_bios);
	}
	printf("nowait: what pwritev2(RWF_NOWAIT) returns; the other columns: "
	       "the same write without\nRWF_NOWAIT (the i_rwsem mode of its "
	       "I/O, inode_dio_wait, IOMAP_DIO_FORCE_WAIT,\nshared -> "
	       "exclusive restarts, head/tail zeroing bios).\n");
}

/* ---- --check TABLE -------------------------------------------------------- */

/* The next blank-separated field of @s from *@i: start and length. */
static size_t field(const char *s, size_t *i, size_t *start)
{
	while (s[*i] == ' ' || s[*i] == '\t')
		(*i)++;
	*start = *i;
	while (s[*i] && s[*i] != ' ' && s[*i] != '\t' && s[*i] != '\n' &&
	       s[*i] != '\r' && s[*i] != '#')
		(*i)++;
	return *i - *start;
}

/*
 * One TABLE line: 1 and the row in @c and @want, 0 for a blank or
 * comment line, or EXIT_USAGE after a "path:line:col: error:" message.
 */
static int parse_row(const char *line, const char *path,
		     unsigned int lineno, struct nowait_case *c, long *want)
{
	size_t i = 0, start, n;
	unsigned int col[4];
	int err;

	n = field(line, &i, &start);
	if (n == 0 && (line[i] == '#' || line[i] == '\n' ||
		       line[i] == '\r' || !line[i]))
		return 0;	/* a comment or a blank line */
	col[0] = (unsigned int)start + 1;
	err = parse_layout(line + start, n, c, path, lineno, col[0]);
	if (!err) {
		n = field(line, &i, &start);
		col[1] = (unsigned int)start + 1;
		err = parse_bytes(line + start, n, "OFFSET", 0, &c->pos, path,
				  lineno, col[1]);
	}
	if (!err) {
		n = field(line, &i, &start);
		col[2] = (unsigned int)start + 1;
		err = parse_bytes(line + start, n, "LENGTH", 512, &c->len,
				  path, lineno, col[2]);
	}
	if (!err)
		err = check_range(c, path, lineno, col[2]);
	if (!err) {
		n = field(line, &i, &start);
		col[3] = (unsigned int)start + 1;
		err = parse_result(line + start, n, want, path, lineno,
				   col[3]);
	}
	if (!err) {
		n = field(line, &i, &start);
		if (n)
			err = input_error(path, lineno,
					  (unsigned int)start + 1, "expected "
					  "the end of the row (or a # "
					  "comment), found '%.*s'", (int)n,
					  line + start);
	}
	return err ? err : 1;
}

int wpsim_ext4_nowait_parse_row(const char *line, const char *where,
				unsigned int lineno, FILE *err)
{
	struct nowait_case c;
	long want;
	int rc;

	errors_out = err;
	rc = parse_row(line, where, lineno, &c, &want);
	errors_out = NULL;
	return rc;
}

static int check_table(const char *path, int only)
{
	int vi = only >= 0 ? only : 0;
	enum m_ext4_dio_variant v = variants[vi];
	char line[TABLE_LINE_MAX];
	unsigned int lineno = 0, rows = 0, agree = 0;
	FILE *in = fopen(path, "r");
	int rc = EXIT_CLEAN;

	if (!in)
		return input_error(path, 1, 1, "cannot open: %s",
				   strerror(errno));
	printf("%-8s %6s %6s  %-8s %-8s ext4_dio=%s\n", "layout", "offset",
	       "length", "kernel", "model", vname(vi));
	while (fgets(line, sizeof(line), in)) {
		struct nowait_case c;
		struct answer a;
		long want = 0;
		char got_text[32], want_text[32];
		int err;

		lineno++;
		if (!strchr(line, '\n') && !feof(in)) {
			fclose(in);
			return input_error(path, lineno, TABLE_LINE_MAX,
					   "expected a line of at most %d "
					   "bytes, found a longer one",
					   TABLE_LINE_MAX - 1);
		}
		err = parse_row(line, path, lineno, &c, &want);
		if (err == 0)
			continue;
		if (err != 1) {
			fclose(in);
			return err;
		}
		if (answer(&c, v, &a) != 0) {
			fclose(in);
			return EXIT_USAGE;
		}
		rows++;
		ret_text(got_text, sizeof(got_text), a.nowait_ret);
		ret_text(want_text, sizeof(want_text), want);
		if (a.nowait_ret == want) {
			agree++;
		} else {
			rc = EXIT_FOUND;
		}
		printf("%-8s %6lld %6lld  %-8s %-8s %s\n", c.layout, c.pos,
		       c.len, want_text, got_text,
		       a.nowait_ret == want ? "agree" : "DIFFER");
	}
	fclose(in);
	printf("%u of %u rows agree (%s, model ext4_dio=%s)\n", agree, rows,
	       path, vname(vi));
	return rc;
}

/* ---- the command ---------------------------------------------------------- */

int wpsim_ext4_nowait_main(int argc, char **argv)
{
	const char *pos_args[3];
	const char *table = NULL;
	unsigned int pos_argn[3];
	int npos = 0, only = -1, rc;
	struct nowait_case c;
	struct answer answers[VARIANTS];

	for (int i = 0; i < argc; i++) {
		unsigned int argn = (unsigned int)i + 1;

		if (strcmp(argv[i], "--variant") == 0) {
			if (i + 1 == argc)
				return input_error("ext4-nowait", argn, 1,
						   "expected "
						   "--variant ext4_dio=V, "
						   "found the end of the "
						   "arguments");
			rc = parse_variant(argv[i + 1], argn + 1, &only);
			if (rc)
				return rc;
			i++;
		} else if (strcmp(argv[i], "--check") == 0) {
			if (i + 1 == argc)
				return input_error("ext4-nowait", argn, 1,
						   "expected --check TABLE, "
						   "found the end of the "
						   "arguments");
			table = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1] &&
			   !(argv[i][1] >= '0' && argv[i][1] <= '9')) {
			return input_error("ext4-nowait", argn, 1, "expected "
					   "LAYOUT OFFSET LENGTH, --variant "
					   "or --check, found '%s'", argv[i]);
		} else if (npos == 3) {
			return input_error("ext4-nowait", argn, 1, "expected "
					   "three arguments LAYOUT OFFSET "
					   "LENGTH, found a fourth: '%s'",
					   argv[i]);
		} else {
			pos_argn[npos] = argn;
			pos_args[npos++] = argv[i];
		}
	}
	if (table) {
		if (npos)
			return input_error("ext4-nowait", pos_argn[0], 1,
					   "expected --check TABLE alone, "
					   "found '%s'", pos_args[0]);
		return check_table(table, only);
	}
	if (npos < 3)
		return input_error("ext4-nowait", (unsigned int)argc + 1, 1,
				   "expected LAYOUT OFFSET LENGTH, found %d "
				   "of them", npos);
	memset(&c, 0, sizeof(c));
	rc = parse_layout(pos_args[0], strlen(pos_args[0]), &c,
			  "ext4-nowait", pos_argn[0], 1);
	if (!rc)
		rc = parse_bytes(pos_args[1], strlen(pos_args[1]), "OFFSET",
				 0, &c.pos, "ext4-nowait", pos_argn[1], 1);
	if (!rc)
		rc = parse_bytes(pos_args[2], strlen(pos_args[2]), "LENGTH",
				 512, &c.len, "ext4-nowait", pos_argn[2], 1);
	if (!rc)
		rc = check_range(&c, "ext4-nowait", pos_argn[2], 1);
	if (rc)
		return rc;
	for (int v = 0; v < VARIANTS; v++)
		if ((only < 0 || v == only) &&
		    answer(&c, variants[v], &answers[v]) != 0)
			return EXIT_USAGE;
	print_case(&c, only, answers);
	return EXIT_CLEAN;
}
