// SPDX-License-Identifier: MIT
/*
 * tools/litmus/common.c - what the litmus front end's stages share: the
 * pool an AST lives in, error lists and message building ("known: ...",
 * "did you mean"), the Linux errno table, and the look-up helpers of the
 * public API.
 *
 * Leaves out: freeing single AST nodes (a scenario is freed whole), and
 * errno values of other architectures (the table is asm-generic's, plus
 * the kernel-internal codes of include/linux/errno.h).
 */
#include "tools/litmus/internal.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Pool                                                                 */

#define POOL_CHUNK_BYTES	(16 * 1024)
#define POOL_ALIGN		16

struct pool_chunk {
	struct pool_chunk *next;
	size_t used;
	size_t size;
	alignas(POOL_ALIGN) unsigned char data[];
};

struct litmus_pool {
	struct pool_chunk *chunks;
};

struct litmus_pool *pool_create(void)
{
	return calloc(1, sizeof(struct litmus_pool));
}

void pool_destroy(struct litmus_pool *pool)
{
	struct pool_chunk *chunk, *next;

	if (!pool)
		return;
	for (chunk = pool->chunks; chunk; chunk = next) {
		next = chunk->next;
		free(chunk);
	}
	free(pool);
}

void *pool_alloc(struct litmus_pool *pool, size_t bytes)
{
	struct pool_chunk *chunk = pool->chunks;
	size_t need = (bytes + POOL_ALIGN - 1) & ~(size_t)(POOL_ALIGN - 1);
	void *p;

	if (bytes > LITMUS_SOURCE_BYTES_MAX * (size_t)16)
		return NULL;
	if (need == 0)
		need = POOL_ALIGN;
	if (!chunk || chunk->size - chunk->used < need) {
		size_t size = need > POOL_CHUNK_BYTES ? need : POOL_CHUNK_BYTES;

		chunk = calloc(1, sizeof(*chunk) + size);
		if (!chunk)
			return NULL;
		chunk->size = size;
		if (pool->chunks && need > POOL_CHUNK_BYTES) {
			/* A big block: keep filling the current chunk. */
			chunk->next = pool->chunks->next;
			pool->chunks->next = chunk;
		} else {
			chunk->next = pool->chunks;
			pool->chunks = chunk;
		}
	}
	p = chunk->data + chunk->used;
	chunk->used += need;
	return p;
}

char *pool_strndup(struct litmus_pool *pool, const char *text, size_t len)
{
	char *s = pool_alloc(pool, len + 1);

	if (s) {
		memcpy(s, text, len);
		s[len] = '\0';
	}
	return s;
}

/* ------------------------------------------------------------------ */
/* Messages                                                             */

void sb_init(struct strbuf *sb, char *buf, size_t size)
{
	sb->buf = buf;
	sb->size = size;
	sb->len = 0;
	sb->cut = false;
	if (size)
		buf[0] = '\0';
}

static void sb_vadd(struct strbuf *sb, const char *fmt, va_list ap)
{
	size_t room;
	int n;

	if (sb->cut || sb->size == 0)
		return;
	room = sb->size - sb->len;
	n = vsnprintf(sb->buf + sb->len, room, fmt, ap);
	if (n < 0) {
		sb->buf[sb->len] = '\0';
		return;
	}
	if ((size_t)n < room) {
		sb->len += (size_t)n;
		return;
	}
	/* Cut: end with "..." inside the buffer. */
	sb->cut = true;
	sb->len = sb->size - 1;
	if (sb->size >= 4)
		memcpy(sb->buf + sb->size - 4, "...", 4);
}

void sb_add(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vadd(sb, fmt, ap);
	va_end(ap);
}

#define QUOTE_SHOWN_MAX	40	/* source bytes shown in one quote */

void sb_add_quoted(struct strbuf *sb, const char *text, size_t len)
{
	size_t shown = len > QUOTE_SHOWN_MAX ? QUOTE_SHOWN_MAX : len;

	sb_add(sb, "'");
	for (size_t i = 0; i < shown; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '\\' || c == '\'')
			sb_add(sb, "\\%c", c);
		else if (c >= 0x20 && c < 0x7f)
			sb_add(sb, "%c", c);
		else if (c == '\n')
			sb_add(sb, "\\n");
		else if (c == '\t')
			sb_add(sb, "\\t");
		else
			sb_add(sb, "\\x%02x", c);
	}
	sb_add(sb, "%s'", shown < len ? "..." : "");
}

#define EDIT_DISTANCE_MAX	2	/* "did you mean" only this close */

/* Levenshtein distance, for names of at most LITMUS_NAME_LEN_MAX. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[LITMUS_NAME_LEN_MAX + 2];

	if (la > LITMUS_NAME_LEN_MAX || lb > LITMUS_NAME_LEN_MAX)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

static const char *name_at(const void *names, size_t i, size_t stride)
{
	const char *const *p = (const void *)((const char *)names + i * stride);

	return *p;
}

void sb_add_known(struct strbuf *sb, const char *wanted, const void *names,
		  size_t count, size_t stride)
{
	const char *best = NULL;
	size_t best_distance = EDIT_DISTANCE_MAX + 1;

	for (size_t i = 0; wanted && i < count; i++) {
		const char *name = name_at(names, i, stride);
		size_t d = name ? edit_distance(wanted, name) : (size_t)-1;

		if (d < best_distance && d < strlen(wanted)) {
			best = name;
			best_distance = d;
		}
	}
	if (best)
		sb_add(sb, " (did you mean '%s'?)", best);
	sb_add(sb, "; known: ");
	if (count == 0)
		sb_add(sb, "(none)");
	for (size_t i = 0; i < count; i++) {
		const char *name = name_at(names, i, stride);

		sb_add(sb, "%s%s", i ? ", " : "", name ? name : "(null)");
	}
}

void errors_vadd(struct litmus_errors *errors, const char *file,
		 struct litmus_pos pos, const char *fmt, va_list ap)
{
	struct litmus_error *e;
	struct strbuf sb;

	if (!errors)
		return;
	if (errors->count >= LITMUS_ERRORS_MAX) {
		errors->truncated = true;
		return;
	}
	e = &errors->list[errors->count++];
	e->pos = pos;
	sb_init(&sb, e->message, sizeof(e->message));
	sb_vadd(&sb, fmt, ap);
	sb_init(&sb, e->text, sizeof(e->text));
	sb_add(&sb, "%s:%u:%u: error: ", file ? file : "<input>", pos.line,
	       pos.col);
	sb_add(&sb, "%s", e->message);
}

void errors_add(struct litmus_errors *errors, const char *file,
		struct litmus_pos pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	errors_vadd(errors, file, pos, fmt, ap);
	va_end(ap);
}

void litmus_errors_print(FILE *out, const struct litmus_errors *errors)
{
	for (size_t i = 0; i < errors->count; i++)
		fprintf(out, "%s\n", errors->list[i].text);
	if (errors->truncated)
		fprintf(out, "(more errors not shown; at most %d are kept)\n",
			LITMUS_ERRORS_MAX);
}

/* ------------------------------------------------------------------ */
/* errno                                                                */

struct errno_entry {
	const char *name;
	int value;
};

/*
 * Linux values: include/uapi/asm-generic/errno-base.h and errno.h
 * (x86, arm64, riscv), then the kernel-internal codes of
 * include/linux/errno.h, which a model of kernel functions returns too
 * (-EIOCBQUEUED from iomap_dio_rw).  Aliases follow their canonical
 * name, so litmus_errno_name() finds the canonical one first.
 */
static const struct errno_entry errno_table[] = {
	{ "EPERM", 1 }, { "ENOENT", 2 }, { "ESRCH", 3 }, { "EINTR", 4 },
	{ "EIO", 5 }, { "ENXIO", 6 }, { "E2BIG", 7 }, { "ENOEXEC", 8 },
	{ "EBADF", 9 }, { "ECHILD", 10 }, { "EAGAIN", 11 },
	{ "EWOULDBLOCK", 11 }, { "ENOMEM", 12 }, { "EACCES", 13 },
	{ "EFAULT", 14 }, { "ENOTBLK", 15 }, { "EBUSY", 16 },
	{ "EEXIST", 17 }, { "EXDEV", 18 }, { "ENODEV", 19 },
	{ "ENOTDIR", 20 }, { "EISDIR", 21 }, { "EINVAL", 22 },
	{ "ENFILE", 23 }, { "EMFILE", 24 }, { "ENOTTY", 25 },
	{ "ETXTBSY", 26 }, { "EFBIG", 27 }, { "ENOSPC", 28 },
	{ "ESPIPE", 29 }, { "EROFS", 30 }, { "EMLINK", 31 }, { "EPIPE", 32 },
	{ "EDOM", 33 }, { "ERANGE", 34 }, { "EDEADLK", 35 },
	{ "EDEADLOCK", 35 }, { "ENAMETOOLONG", 36 }, { "ENOLCK", 37 },
	{ "ENOSYS", 38 }, { "ENOTEMPTY", 39 }, { "ELOOP", 40 },
	{ "ENOMSG", 42 }, { "EIDRM", 43 }, { "ENOSTR", 60 },
	{ "ENODATA", 61 }, { "ETIME", 62 }, { "ENOSR", 63 },
	{ "ENOLINK", 67 }, { "EPROTO", 71 }, { "EBADMSG", 74 },
	{ "EOVERFLOW", 75 }, { "EILSEQ", 84 }, { "EUSERS", 87 },
	{ "ENOTSOCK", 88 }, { "EMSGSIZE", 90 }, { "EOPNOTSUPP", 95 },
	{ "ENOTSUP", 95 }, { "EADDRINUSE", 98 }, { "ENETDOWN", 100 },
	{ "ECONNABORTED", 103 }, { "ECONNRESET", 104 }, { "ENOBUFS", 105 },
	{ "ENOTCONN", 107 }, { "ESHUTDOWN", 108 }, { "ETIMEDOUT", 110 },
	{ "ECONNREFUSED", 111 }, { "EHOSTDOWN", 112 }, { "EALREADY", 114 },
	{ "EINPROGRESS", 115 }, { "ESTALE", 116 }, { "EUCLEAN", 117 },
	{ "EREMOTEIO", 121 }, { "EDQUOT", 122 }, { "ENOMEDIUM", 123 },
	{ "EMEDIUMTYPE", 124 }, { "ECANCELED", 125 }, { "ENOKEY", 126 },
	{ "EKEYEXPIRED", 127 }, { "EKEYREVOKED", 128 },
	{ "EKEYREJECTED", 129 }, { "EOWNERDEAD", 130 },
	{ "ENOTRECOVERABLE", 131 }, { "ERFKILL", 132 }, { "EHWPOISON", 133 },
	/* include/linux/errno.h: never seen by user space */
	{ "ERESTARTSYS", 512 }, { "ERESTARTNOINTR", 513 },
	{ "ERESTARTNOHAND", 514 }, { "ENOIOCTLCMD", 515 },
	{ "ERESTART_RESTARTBLOCK", 516 }, { "EPROBE_DEFER", 517 },
	{ "EOPENSTALE", 518 }, { "ENOPARAM", 519 }, { "EBADHANDLE", 521 },
	{ "ENOTSYNC", 522 }, { "EBADCOOKIE", 523 }, { "ENOTSUPP", 524 },
	{ "ETOOSMALL", 525 }, { "ESERVERFAULT", 526 }, { "EBADTYPE", 527 },
	{ "EJUKEBOX", 528 }, { "EIOCBQUEUED", 529 },
	{ "ERECALLCONFLICT", 530 }, { "ENOGRACE", 531 },
};

static const struct errno_entry *errno_find(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(errno_table); i++) {
		const char *n = errno_table[i].name;

		if (strlen(n) == len && memcmp(n, name, len) == 0)
			return &errno_table[i];
	}
	return NULL;
}

bool litmus_errno_value(const char *name, int *value)
{
	const struct errno_entry *e = errno_find(name, strlen(name));

	if (e && value)
		*value = e->value;
	return e != NULL;
}

const char *litmus_errno_name(int value)
{
	for (size_t i = 0; i < ARRAY_SIZE(errno_table); i++)
		if (errno_table[i].value == value)
			return errno_table[i].name;
	return NULL;
}

/*
 * Looks like an errno name: 'E' and then capitals, digits or '_'.  Such
 * a name after '-' must be in the table.
 */
bool is_errno_name(const char *text, size_t len)
{
	if (len < 2 || text[0] != 'E')
		return false;
	for (size_t i = 1; i < len; i++) {
		char c = text[i];

		if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_'))
			return false;
	}
	return true;
}

int errno_lookup(const char *name, size_t len)
{
	const struct errno_entry *e = errno_find(name, len);

	return e ? e->value : 0;
}

/* ------------------------------------------------------------------ */
/* Names and look-ups                                                   */

const char *litmus_observation_name(enum litmus_observation observation)
{
	switch (observation) {
	case LITMUS_OBS_NEVER:
		return "Never";
	case LITMUS_OBS_SOMETIMES:
		return "Sometimes";
	case LITMUS_OBS_ALWAYS:
		return "Always";
	}
	return "?";
}

const char *litmus_outcome_name(enum litmus_outcome outcome)
{
	switch (outcome) {
	case LITMUS_OUTCOME_DEADLOCK:
		return "deadlock";
	case LITMUS_OUTCOME_STUCK:
		return "stuck";
	case LITMUS_OUTCOME_VIOLATION:
		return "violation";
	}
	return "?";
}

static bool same_name(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

const struct litmus_item *
litmus_find_item(const struct litmus_scenario *scenario, const char *kind,
		 const char *name)
{
	for (size_t i = 0; i < scenario->items_count; i++) {
		const struct litmus_item *item = &scenario->items[i];

		if (strcmp(item->kind, kind) == 0 &&
		    same_name(item->name, name))
			return item;
	}
	return NULL;
}

const struct litmus_value *litmus_item_value(const struct litmus_item *item,
					     const char *key)
{
	for (size_t i = 0; i < item->keyvals_count; i++)
		if (strcmp(item->keyvals[i].key, key) == 0)
			return &item->keyvals[i].value;
	return NULL;
}

const char *litmus_variant_default(const struct litmus_scenario *scenario,
				   const char *key, char *buf,
				   size_t buf_size)
{
	for (size_t i = 0; i < scenario->items_count; i++) {
		const struct litmus_item *item = &scenario->items[i];
		const struct litmus_value *v;

		if (strcmp(item->kind, "variant") != 0)
			continue;
		v = litmus_item_value(item, key);
		if (!v)
			continue;
		if (v->kind == LITMUS_VALUE_INT)
			snprintf(buf, buf_size, "%lld", (long long)v->number);
		else
			snprintf(buf, buf_size, "%s", v->text ? v->text : "");
		return buf;
	}
	return NULL;
}

const struct litmus_expect *
litmus_expect_find(const struct litmus_scenario *scenario,
		   const char *const *keys, const char *const *values,
		   size_t n)
{
	const struct litmus_expect *best = NULL;

	for (size_t i = 0; i < scenario->expects_count; i++) {
		const struct litmus_expect *x = &scenario->expects[i];
		bool all = true;

		for (size_t a = 0; a < x->assigns_count && all; a++) {
			bool found = false;

			for (size_t k = 0; k < n && !found; k++) {
				const struct litmus_assign *as = &x->assigns[a];

				found = strcmp(keys[k], as->key) == 0 &&
					strcmp(values[k], as->value) == 0;
			}
			all = found;
		}
		if (all && (!best || x->assigns_count > best->assigns_count))
			best = x;
	}
	return best;
}

void litmus_schema_print(FILE *out, const struct litmus_schema *schema)
{
	fprintf(out, "ops:\n");
	for (size_t i = 0; i < schema->ops_count; i++) {
		const struct litmus_schema_op *op = &schema->ops[i];

		fprintf(out, "  %-20s %u..%u args  %s\n", op->name,
			op->args_min, op->args_max, op->help ? op->help : "");
	}
	fprintf(out, "initial state:\n");
	for (size_t i = 0; i < schema->kinds_count; i++) {
		const struct litmus_schema_kind *k = &schema->kinds[i];

		fprintf(out, "  %s%s  %s\n", k->name,
			k->name_rule == LITMUS_NAME_REQUIRED ? " <name>:" :
			k->name_rule == LITMUS_NAME_OPTIONAL ? " [name]:" : ":",
			k->help ? k->help : "");
		for (size_t j = 0; j < k->keys_count; j++)
			fprintf(out, "    %-18s %s\n", k->keys[j].name,
				k->keys[j].help ? k->keys[j].help : "");
	}
	fprintf(out, "variants:\n");
	for (size_t i = 0; i < schema->variants_count; i++) {
		const struct litmus_schema_variant *v = &schema->variants[i];

		fprintf(out, "  %s=", v->key);
		for (size_t j = 0; j < v->values_count; j++)
			fprintf(out, "%s%s", j ? "|" : "", v->values[j]);
		fprintf(out, "  %s\n", v->help ? v->help : "");
	}
}
