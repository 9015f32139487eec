// SPDX-License-Identifier: MIT
/*
 * model/hw/nvme-profile.c - device profiles as text: parse and
 * validate.
 *
 * A profile is "key = value" lines; '#' starts a comment (every figure
 * carries its source in one).  Every key is required, once, but
 * wbt_lat_usec (a queue setting, absent = 0 = writeback throttling
 * off, as the profiles before it described no throttling),
 * flush_serial (absent = 0: flushes run beside other commands, as
 * before it) and flush_commit_ns (absent = 0: a flush costs the same
 * whether or not the backing store changed, as before it), fw_write_ns
 * (absent = 0: a write takes fw_ns, as before it), seg_write_ns
 * (absent = 0: a write's segments cost nothing, as before it),
 * seg_write_overlap (absent = 0: a write's data crosses the link after
 * its whole service, as before it), the loop worker's loop_worker_ns,
 * loop_seg_ns, loop_complete_ns and loop_run_ns (since session 22;
 * absent = 0: no worker, the command goes straight to the device, as
 * before them; loop_run_ns absent = a run costs its commands only) and
 * pass_complete (absent = 0: each command completes at its own time, as before it) and the
 * atomic write fields (awupf, nawupf, nabspf, nabo, nsfeat_atomics,
 * no_atomic_writes: absent = 0, an NVMe namespace whose atomic unit is
 * one LBA) and the queue limits (max_hw_sectors_kb, max_sectors_kb,
 * max_segments, max_segment_size, no_virt_boundary: absent = 0, the
 * NVMe driver's, checked when the device is attached,
 * model/block/bio.c), the virtio ring below a loop device
 * (virtio_ring_descs, virtio_max_sectors_kb, virtio_max_segments, since
 * session 24: absent = 0, no ring, as before them) and irq_cpu (the interrupt's CPU; absent: none,
 * irq_cpu_set false, a completion where its submitter ran); an unknown
 * key is an error that lists the known ones.  Integers take an optional
 * suffix: k, M, G, T (powers of 10^3) or Ki, Mi, Gi, Ti (of 2^10).
 * Booleans are 0/1, no/yes, false/true.  Errors read
 * "file:line:col: error: expected X, found Y" (callers exit 2).
 *
 * Not a kernel file.  Leaves out: includes between profiles, per-key
 * defaults (a profile states every figure), units other than the key's;
 * reading the files, finding and listing them (tools/profiles.c: the
 * model does no file I/O).  Runs at setup, never inside an execution:
 * it parses into the caller's struct and allocates nothing.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model/hw/nvme.h"


enum key_kind { K_STRING, K_U64, K_U32, K_BOOL };

struct key {
	const char *name;
	enum key_kind kind;
	size_t offset;
	size_t size;		/* K_STRING: buffer size */
	bool optional;		/* absent = 0 (a queue setting's "off") */
};

#define KEY(n, k) { #n, k, offsetof(struct hw_nvme_profile, n), \
		    sizeof(((struct hw_nvme_profile *)0)->n), false }
#define KEY_OPTIONAL(n, k) { #n, k, offsetof(struct hw_nvme_profile, n), \
			     sizeof(((struct hw_nvme_profile *)0)->n), true }

static const struct key keys[] = {
	KEY(name, K_STRING),
	KEY(description, K_STRING),
	KEY(capacity_bytes, K_U64),
	KEY(cmd_ns, K_U64),
	KEY(fw_ns, K_U64),
	KEY_OPTIONAL(fw_write_ns, K_U64),
	KEY_OPTIONAL(seg_write_ns, K_U64),
	KEY_OPTIONAL(seg_write_overlap, K_BOOL),
	KEY_OPTIONAL(pass_complete, K_BOOL),
	KEY(link_write_bytes_per_sec, K_U64),
	KEY(link_read_bytes_per_sec, K_U64),
	KEY(units, K_U32),
	KEY(page_bytes, K_U32),
	KEY(page_merge, K_BOOL),
	KEY(read_delay_ns, K_U64),
	KEY(read_ns, K_U64),
	KEY(program_ns, K_U64),
	KEY(seek_ns, K_U64),
	KEY(cache_bytes, K_U64),
	KEY(cache_ack_ns, K_U64),
	KEY(plp, K_BOOL),
	KEY(flush_ns, K_U64),
	KEY(fua, K_BOOL),
	KEY(nr_hw_queues, K_U32),
	KEY(queue_depth, K_U32),
	KEY(rotational, K_BOOL),
	KEY(jitter_ns, K_U64),
	KEY(tail_ppm, K_U32),
	KEY(tail_ns, K_U64),
	KEY_OPTIONAL(read_jitter_ns, K_U64),
	KEY_OPTIONAL(read_tail_ppm, K_U32),
	KEY_OPTIONAL(read_tail_ns, K_U64),
	KEY_OPTIONAL(flush_jitter_ns, K_U64),
	KEY(physical_sector_bytes, K_U32),
	KEY_OPTIONAL(wbt_lat_usec, K_U64),
	KEY_OPTIONAL(flush_serial, K_BOOL),
	KEY_OPTIONAL(flush_commit_ns, K_U64),
	KEY_OPTIONAL(loop_worker_ns, K_U64),
	KEY_OPTIONAL(loop_seg_ns, K_U64),
	KEY_OPTIONAL(loop_complete_ns, K_U64),
	KEY_OPTIONAL(loop_run_ns, K_U64),
	KEY_OPTIONAL(virtio_ring_descs, K_U32),
	KEY_OPTIONAL(virtio_max_sectors_kb, K_U32),
	KEY_OPTIONAL(virtio_max_segments, K_U32),
	KEY_OPTIONAL(awupf, K_U32),
	KEY_OPTIONAL(nawupf, K_U32),
	KEY_OPTIONAL(nabspf, K_U32),
	KEY_OPTIONAL(nabo, K_U32),
	KEY_OPTIONAL(nsfeat_atomics, K_BOOL),
	KEY_OPTIONAL(no_atomic_writes, K_BOOL),
	KEY_OPTIONAL(max_hw_sectors_kb, K_U32),
	KEY_OPTIONAL(max_sectors_kb, K_U32),
	KEY_OPTIONAL(max_segments, K_U32),
	KEY_OPTIONAL(max_segment_size, K_U32),
	KEY_OPTIONAL(no_virt_boundary, K_BOOL),
	KEY_OPTIONAL(irq_cpu, K_U32),
};

#define NR_KEYS	(sizeof(keys) / sizeof(keys[0]))

static int key_index(const char *name)
{
	for (size_t i = 0; i < NR_KEYS; i++)
		if (strcmp(keys[i].name, name) == 0)
			return (int)i;
	return -1;
}

static void msg_printf(char *msg, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (!msg || !size)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, size, fmt, ap);
	va_end(ap);
}

/*
 * The semantic rules.  On a violation: the offending key in *@bad and
 * "expected ..., found ..." in @msg.
 */
static int check(const struct hw_nvme_profile *p, const char **bad,
		 char *msg, size_t size)
{
	bool vwc = p->cache_bytes && !p->plp;

#define FAIL(k, ...) do {			\
		*bad = k;			\
		msg_printf(msg, size, __VA_ARGS__); \
		return -EINVAL;			\
	} while (0)

	if (!p->name[0])
		FAIL("name", "expected a name, found nothing");
	for (const char *c = p->name; *c; c++)
		if (!islower((unsigned char)*c) && !isdigit((unsigned char)*c)
		    && *c != '-' && *c != '_' && *c != '.')
			FAIL("name", "expected a name of [a-z0-9._-], "
			     "found '%s'", p->name);
	if (p->units < 1 || p->units > HW_NVME_UNITS_MAX)
		FAIL("units", "expected 1 to %u units, found %" PRIu32,
		     HW_NVME_UNITS_MAX, p->units);
	if (p->page_bytes < HW_NVME_SECTOR_BYTES ||
	    p->page_bytes % HW_NVME_SECTOR_BYTES ||
	    p->page_bytes > HW_NVME_CMD_BYTES_MAX)
		FAIL("page_bytes", "expected a multiple of 512 up to %u, "
		     "found %" PRIu32, HW_NVME_CMD_BYTES_MAX, p->page_bytes);
	if (p->capacity_bytes < p->page_bytes ||
	    p->capacity_bytes % HW_NVME_SECTOR_BYTES)
		FAIL("capacity_bytes", "expected a multiple of 512 of at "
		     "least page_bytes, found %" PRIu64, p->capacity_bytes);
	if (!p->link_write_bytes_per_sec)
		FAIL("link_write_bytes_per_sec", "expected a rate > 0, "
		     "found 0");
	if (!p->link_read_bytes_per_sec)
		FAIL("link_read_bytes_per_sec", "expected a rate > 0, "
		     "found 0");
	if (!p->read_ns)
		FAIL("read_ns", "expected a time > 0, found 0");
	if (!p->program_ns)
		FAIL("program_ns", "expected a time > 0, found 0");
	if (p->cache_bytes) {
		if (p->cache_bytes % p->page_bytes)
			FAIL("cache_bytes", "expected a multiple of "
			     "page_bytes (%" PRIu32 "), found %" PRIu64,
			     p->page_bytes, p->cache_bytes);
		if (p->cache_bytes / p->page_bytes < 2 ||
		    p->cache_bytes / p->page_bytes > HW_NVME_CACHE_SLOTS_MAX)
			FAIL("cache_bytes", "expected 2 to %u pages of "
			     "page_bytes, found %" PRIu64 " bytes",
			     HW_NVME_CACHE_SLOTS_MAX, p->cache_bytes);
	} else {
		if (p->plp)
			FAIL("plp", "expected 0 without a cache "
			     "(cache_bytes = 0), found 1");
		if (p->cache_ack_ns)
			FAIL("cache_ack_ns", "expected 0 without a cache "
			     "(cache_bytes = 0), found %" PRIu64,
			     p->cache_ack_ns);
	}
	if (!vwc && p->flush_ns)
		FAIL("flush_ns", "expected 0 without a volatile write cache, "
		     "found %" PRIu64, p->flush_ns);
	if (!vwc && p->flush_commit_ns)
		FAIL("flush_commit_ns", "expected 0 without a volatile write "
		     "cache, found %" PRIu64, p->flush_commit_ns);
	if (!p->fw_ns && p->fw_write_ns)
		FAIL("fw_write_ns", "expected 0 without a firmware server "
		     "(fw_ns = 0), found %" PRIu64, p->fw_write_ns);
	if (!p->fw_ns && p->seg_write_ns)
		FAIL("seg_write_ns", "expected 0 without a firmware server "
		     "(fw_ns = 0), found %" PRIu64, p->seg_write_ns);
	if (!p->fw_ns && p->seg_write_overlap)
		FAIL("seg_write_overlap", "expected 0 without a firmware "
		     "server (fw_ns = 0): it overlaps the server's segments, "
		     "found 1");
	if (!p->fw_ns && p->pass_complete)
		FAIL("pass_complete", "expected 0 without a firmware server "
		     "(fw_ns = 0): a pass is the commands it serves back to "
		     "back, found 1");
	if (!p->loop_worker_ns && (p->loop_seg_ns || p->loop_complete_ns ||
				   p->loop_run_ns))
		FAIL(p->loop_seg_ns ? "loop_seg_ns" :
		     p->loop_complete_ns ? "loop_complete_ns" : "loop_run_ns",
		     "expected 0 without a loop worker (loop_worker_ns = 0), "
		     "found %" PRIu64, p->loop_seg_ns ? p->loop_seg_ns :
		     p->loop_complete_ns ? p->loop_complete_ns :
		     p->loop_run_ns);
	if (p->virtio_ring_descs && (!p->virtio_max_sectors_kb ||
				     !p->virtio_max_segments))
		FAIL(p->virtio_max_sectors_kb ? "virtio_max_segments" :
		     "virtio_max_sectors_kb", "expected a value with "
		     "virtio_ring_descs (the disk's limits bound a merge), "
		     "found none");
	if (!p->virtio_ring_descs && (p->virtio_max_sectors_kb ||
				      p->virtio_max_segments))
		FAIL(p->virtio_max_sectors_kb ? "virtio_max_sectors_kb" :
		     "virtio_max_segments", "expected 0 without a virtio ring "
		     "(virtio_ring_descs = 0), found %" PRIu32,
		     p->virtio_max_sectors_kb ? p->virtio_max_sectors_kb :
		     p->virtio_max_segments);
	if (p->virtio_ring_descs &&
	    p->virtio_max_segments + 2 > p->virtio_ring_descs)
		FAIL("virtio_max_segments", "expected at most "
		     "virtio_ring_descs - 2 (%" PRIu32 ": a request of the most "
		     "segments must fit the ring), found %" PRIu32,
		     p->virtio_ring_descs - 2, p->virtio_max_segments);
	if (!vwc && p->fua)
		FAIL("fua", "expected 0 without a volatile write cache "
		     "(the driver advertises FUA with one), found 1");
	if (p->nr_hw_queues < 1)
		FAIL("nr_hw_queues", "expected at least 1, found 0");
	if (p->queue_depth < 1)
		FAIL("queue_depth", "expected at least 1, found 0");
	if ((uint64_t)p->nr_hw_queues * p->queue_depth > HW_NVME_INFLIGHT_MAX)
		FAIL("queue_depth", "expected nr_hw_queues x queue_depth up "
		     "to %u, found %" PRIu64, HW_NVME_INFLIGHT_MAX,
		     (uint64_t)p->nr_hw_queues * p->queue_depth);
	if (p->tail_ppm > 1000000)
		FAIL("tail_ppm", "expected 0 to 1000000, found %" PRIu32,
		     p->tail_ppm);
	if (!p->tail_ppm != !p->tail_ns)
		FAIL(p->tail_ppm ? "tail_ns" : "tail_ppm",
		     "expected tail_ppm and tail_ns both 0 or both > 0, "
		     "found %" PRIu32 " and %" PRIu64, p->tail_ppm,
		     p->tail_ns);
	if (p->read_tail_ppm > 1000000)
		FAIL("read_tail_ppm", "expected 0 to 1000000, found %" PRIu32,
		     p->read_tail_ppm);
	if (!p->read_tail_ppm != !p->read_tail_ns)
		FAIL(p->read_tail_ppm ? "read_tail_ppm" : "read_tail_ns",
		     "expected read_tail_ppm and read_tail_ns both 0 or both "
		     "> 0, found %" PRIu32 " and %" PRIu64, p->read_tail_ppm,
		     p->read_tail_ns);
	if (p->physical_sector_bytes &&
	    (p->physical_sector_bytes < HW_NVME_SECTOR_BYTES ||
	     p->physical_sector_bytes & (p->physical_sector_bytes - 1) ||
	     p->physical_sector_bytes > p->page_bytes))
		FAIL("physical_sector_bytes", "expected a power of two from "
		     "512 to page_bytes (%" PRIu32 "), found %" PRIu32,
		     p->page_bytes, p->physical_sector_bytes);
	return 0;
#undef FAIL
}

int hw_nvme_profile_check(const struct hw_nvme_profile *p, char *msg,
			  size_t msg_bytes)
{
	const char *bad = NULL;
	char m[256];
	int rc = check(p, &bad, m, sizeof(m));

	if (rc)
		msg_printf(msg, msg_bytes, "%s: %s", bad, m);
	return rc;
}

/* A word of the input for "found ...": up to the next blank, or EOL. */
static void found_word(const char *s, char *out, size_t size)
{
	size_t n = 0;

	if (!*s || *s == '\n') {
		snprintf(out, size, "end of line");
		return;
	}
	while (s[n] && !isspace((unsigned char)s[n]) && n + 1 < size - 2)
		n++;
	snprintf(out, size, "'%.*s'", (int)n, s);
}

struct parser {
	const char *file;
	char *err;
	size_t err_bytes;
	unsigned int line;
	const char *line_start;
};

static int perr(struct parser *ps, const char *at, const char *fmt, ...)
{
	char m[1536];	/* the key list of an unknown key fits */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	msg_printf(ps->err, ps->err_bytes, "%s:%u:%u: error: %s", ps->file,
		   ps->line, (unsigned int)(at - ps->line_start) + 1, m);
	return -EINVAL;
}

static void known_keys(char *out, size_t size)
{
	size_t n = 0;

	out[0] = '\0';
	for (size_t i = 0; i < NR_KEYS && n < size; i++)
		n += (size_t)snprintf(out + n, size - n, "%s%s",
				      i ? ", " : "", keys[i].name);
}

static int parse_u64(struct parser *ps, const char *v, const char *end,
		     uint64_t max, uint64_t *out)
{
	static const struct {
		const char *s;
		uint64_t mul;
	} suffix[] = {
		{ "Ki", 1ULL << 10 }, { "Mi", 1ULL << 20 },
		{ "Gi", 1ULL << 30 }, { "Ti", 1ULL << 40 },
		{ "k", 1000ULL }, { "M", 1000000ULL },
		{ "G", 1000000000ULL }, { "T", 1000000000000ULL },
	};
	const char *c = v;
	uint64_t x = 0, mul = 1;
	char w[64];

	if (c == end || !isdigit((unsigned char)*c)) {
		found_word(v, w, sizeof(w));
		return perr(ps, v, "expected an integer, found %s", w);
	}
	while (c < end && isdigit((unsigned char)*c)) {
		uint64_t d = (uint64_t)(*c++ - '0');

		/* x * 10 + d <= UINT64_MAX, exactly (2^64 - 1 parses). */
		if (x > (UINT64_MAX - d) / 10)
			return perr(ps, v, "expected an integer up to %"
				    PRIu64 ", found a larger one", max);
		x = x * 10 + d;
	}
	if (c < end) {
		size_t len = (size_t)(end - c);
		bool ok = false;

		for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++)
			if (strlen(suffix[i].s) == len &&
			    strncmp(c, suffix[i].s, len) == 0) {
				mul = suffix[i].mul;
				ok = true;
			}
		if (!ok) {
			found_word(c, w, sizeof(w));
			return perr(ps, c, "expected an integer with an "
				    "optional suffix k, M, G, T, Ki, Mi, Gi or Ti, "
				    "found %s", w);
		}
	}
	if (x && mul > max / x)
		return perr(ps, v, "expected an integer up to %" PRIu64
			    ", found a larger one", max);
	*out = x * mul;
	return 0;
}

static int parse_bool(struct parser *ps, const char *v, const char *end,
		      bool *out)
{
	static const char *const yes[] = { "1", "yes", "true" };
	static const char *const no[] = { "0", "no", "false" };
	size_t len = (size_t)(end - v);
	char w[64];

	for (int i = 0; i < 3; i++) {
		if (strlen(yes[i]) == len && strncmp(v, yes[i], len) == 0) {
			*out = true;
			return 0;
		}
		if (strlen(no[i]) == len && strncmp(v, no[i], len) == 0) {
			*out = false;
			return 0;
		}
	}
	found_word(v, w, sizeof(w));
	return perr(ps, v, "expected 0, 1, no, yes, false or true, found %s",
		    w);
}

int hw_nvme_profile_parse(const char *text, const char *filename,
			  struct hw_nvme_profile *p, char *err,
			  size_t err_bytes)
{
	struct parser ps = { .file = filename, .err = err,
			     .err_bytes = err_bytes, .line = 0 };
	unsigned int seen_line[NR_KEYS] = { 0 };
	unsigned int seen_col[NR_KEYS] = { 0 };
	const char *s = text;
	const char *bad = NULL;
	char m[256];

	memset(p, 0, sizeof(*p));
	while (*s) {
		const char *nl = strchr(s, '\n');
		const char *eol = nl ? nl : s + strlen(s);
		const char *c = s, *k, *v, *vend;
		char name[64], w[64];
		int ki;

		ps.line++;
		ps.line_start = s;
		while (c < eol && (*c == ' ' || *c == '\t'))
			c++;
		if (c == eol || *c == '#' || *c == '\r')
			goto next;
		k = c;
		while (c < eol && (islower((unsigned char)*c) ||
				   isdigit((unsigned char)*c) || *c == '_'))
			c++;
		if (c == k) {
			found_word(k, w, sizeof(w));
			return perr(&ps, k, "expected a key, found %s", w);
		}
		snprintf(name, sizeof(name), "%.*s", (int)(c - k), k);
		ki = key_index(name);
		if (ki < 0) {
			char list[1024];

			known_keys(list, sizeof(list));
			return perr(&ps, k, "expected a profile key (%s), "
				    "found '%s'", list, name);
		}
		if (seen_line[ki])
			return perr(&ps, k, "expected each key once, found "
				    "'%s' again (first on line %u)", name,
				    seen_line[ki]);
		while (c < eol && (*c == ' ' || *c == '\t'))
			c++;
		if (c == eol || *c != '=') {
			found_word(c, w, sizeof(w));
			return perr(&ps, c, "expected '=' after '%s', found %s",
				    name, w);
		}
		c++;
		while (c < eol && (*c == ' ' || *c == '\t'))
			c++;
		v = c;
		/* The value ends at a comment or the end of the line. */
		vend = v;
		while (vend < eol && *vend != '#')
			vend++;
		while (vend > v && isspace((unsigned char)vend[-1]))
			vend--;
		if (vend == v)
			return perr(&ps, v, "expected a value for '%s', found "
				    "%s", name, *v == '#' ? "a comment" :
				    "end of line");
		seen_line[ki] = ps.line;
		seen_col[ki] = (unsigned int)(v - s) + 1;
		{
			const struct key *key = &keys[ki];
			char *field = (char *)p + key->offset;
			uint64_t x = 0;
			bool b = false;

			switch (key->kind) {
			case K_STRING:
				if ((size_t)(vend - v) >= key->size)
					return perr(&ps, v, "expected at most "
						    "%zu characters, found %zu",
						    key->size - 1,
						    (size_t)(vend - v));
				memcpy(field, v, (size_t)(vend - v));
				field[vend - v] = '\0';
				break;
			case K_U64:
			case K_U32:
				/* Whitespace inside a number is an error. */
				for (const char *q = v; q < vend; q++)
					if (isspace((unsigned char)*q)) {
						found_word(v, w, sizeof(w));
						return perr(&ps, q, "expected "
							"the end of the value,"
							" found more after %s",
							w);
					}
				if (parse_u64(&ps, v, vend, key->kind == K_U32 ?
					      UINT32_MAX : UINT64_MAX, &x))
					return -EINVAL;
				if (key->kind == K_U32)
					*(uint32_t *)field = (uint32_t)x;
				else
					*(uint64_t *)field = x;
				break;
			case K_BOOL:
				if (parse_bool(&ps, v, vend, &b))
					return -EINVAL;
				*(bool *)field = b;
				break;
			}
		}
next:
		if (!nl)
			break;
		s = nl + 1;
	}
	for (size_t i = 0; i < NR_KEYS; i++) {
		if (seen_line[i] || keys[i].optional)
			continue;
		ps.line++;
		ps.line_start = s + strlen(s);
		return perr(&ps, ps.line_start, "expected key '%s', found end "
			    "of file", keys[i].name);
	}
	/* irq_cpu's 0 is a CPU: whether it was given is its own field. */
	p->irq_cpu_set = seen_line[key_index("irq_cpu")] != 0;
	if (check(p, &bad, m, sizeof(m))) {
		int ki = key_index(bad);

		ps.line = seen_line[ki];
		msg_printf(err, err_bytes, "%s:%u:%u: error: %s: %s", filename,
			   seen_line[ki], seen_col[ki], bad, m);
		return -EINVAL;
	}
	return 0;
}
