// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/schema.c - what a scenario may say about the model: the ops
 * its threads call, the kinds and keys of the initial state, the variant
 * keys, and the reference paths of conditions.  The tables here are the
 * single source for the parser's checks, `wpsim list` and the docs
 * (docs/scenario-language.md "Ops", "Paths", "Variants").
 */
#include "tools/wpsim/scenario.h"

#include <ctype.h>
#include <string.h>

#include "model/linux/backing-dev.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define V_INT		LITMUS_VALUE_INT
#define V_NAME		LITMUS_VALUE_IDENT
#define V_FLAGS		(LITMUS_VALUE_INT | LITMUS_VALUE_IDENT | \
			 LITMUS_VALUE_FLAGS)
#define V_RANGE		(LITMUS_VALUE_INT | LITMUS_VALUE_RANGE)

/* ---- ops ----------------------------------------------------------------- */

/* Indexed by enum wpsim_op. */
static const struct litmus_schema_op ops[WPSIM_OP_COUNT] = {
	[WPSIM_OP_PWRITE] = { "pwrite", 3, 3,
		"pwrite(f, off, len): buffered write of len bytes at off "
		"(xfs_file_write_iter); returns bytes or -errno",
		{ V_NAME, V_INT, V_INT } },
	[WPSIM_OP_PWRITEV2] = { "pwritev2", 4, 5,
		"pwritev2(f, off, len, RWF_A|RWF_B|0 [, fault_after]): write "
		"with per-call flags; the user copy faults after fault_after "
		"bytes",
		{ V_NAME, V_INT, V_INT, V_FLAGS, V_INT } },
	[WPSIM_OP_PREAD] = { "pread", 3, 4,
		"pread(f, off, len [, RWF_NOWAIT|RWF_DONTCACHE]): buffered "
		"read (filemap_read), preadv2 with IOCB_NOWAIT and "
		"IOCB_DONTCACHE (dropbehind folios) when flagged; "
		"returns bytes or -errno",
		{ V_NAME, V_INT, V_INT, V_FLAGS } },
	[WPSIM_OP_FSYNC] = { "fsync", 1, 1,
		"fsync(f): xfs_file_fsync over the whole file; returns 0 or "
		"the writeback error not yet seen through this file",
		{ V_NAME } },
	[WPSIM_OP_FDATASYNC] = { "fdatasync", 1, 1,
		"fdatasync(f): xfs_file_fsync with datasync=1",
		{ V_NAME } },
	[WPSIM_OP_SYNC_FILE_RANGE] = { "sync_file_range", 4, 4,
		"sync_file_range(f, off, len, SYNC_FILE_RANGE_WAIT_BEFORE|"
		"WRITE|WAIT_AFTER): len 0 means to the end",
		{ V_NAME, V_INT, V_INT, V_FLAGS } },
	[WPSIM_OP_MMAP_STORE] = { "mmap_store", 3, 3,
		"mmap_store(f, off, len): user store through the shared "
		"mapping (write fault if the PTE is not writable); 0 or "
		"-EFAULT beyond EOF",
		{ V_NAME, V_INT, V_INT } },
	[WPSIM_OP_MUNMAP] = { "munmap", 1, 1,
		"munmap(f): unmap the shared mapping; dirty PTEs dirty their "
		"folios (zap_present_folio_ptes); returns 0",
		{ V_NAME } },
	[WPSIM_OP_WRITEBACK] = { "writeback", 1, 2,
		"writeback(f [, WB_SYNC_NONE|WB_SYNC_ALL]): one flusher pass "
		"over the inode (do_writepages; SYNC_ALL also waits)",
		{ V_NAME, V_NAME } },
	[WPSIM_OP_TRUNCATE] = { "truncate", 2, 2,
		"truncate(f, size): xfs_setattr_size or ext4_setattr; "
		"returns 0",
		{ V_NAME, V_INT } },
	[WPSIM_OP_FALLOCATE] = { "fallocate", 3, 4,
		"fallocate(f, off, len [, FALLOC_FL_KEEP_SIZE]): reserve "
		"unwritten blocks",
		{ V_NAME, V_INT, V_INT, V_FLAGS } },
	[WPSIM_OP_PUNCH_HOLE] = { "punch_hole", 3, 3,
		"punch_hole(f, off, len): fallocate(PUNCH_HOLE|KEEP_SIZE): "
		"drop the page cache range, make the blocks holes",
		{ V_NAME, V_INT, V_INT } },
	[WPSIM_OP_IO_URING_WRITE] = { "io_uring_write", 4, 4,
		"io_uring_write(f, off, len, RWF_A|0): io_uring buffered write "
		"(io_write): inline with IOCB_NOWAIT, -EAGAIN or a short write "
		"punts (the rest) to an io-wq worker task; returns the CQE res",
		{ V_NAME, V_INT, V_INT, V_FLAGS } },
	[WPSIM_OP_OPEN] = { "open", 1, 1,
		"open(g): open fd item g's file again (do_dentry_open: a new "
		"description whose f_wb_err samples wb_err now); returns 0",
		{ V_NAME } },
	[WPSIM_OP_AIO_PWRITE] = { "aio_pwrite", 3, 4,
		"aio_pwrite(f, off, len [, RWF_A|0]): io_submit of one "
		"IOCB_CMD_PWRITE, then io_getevents for it; an O_DIRECT write "
		"completes in a kworker, after the submitter dropped its "
		"locks; returns the event's res",
		{ V_NAME, V_INT, V_INT, V_FLAGS } },
};

/* ---- initial state ------------------------------------------------------- */

static const struct litmus_schema_key file_keys[] = {
	{ "size", V_INT, "i_size in bytes (default 16K); at most 256K" },
	{ "bsize", V_INT, "block size, 1024..65536, a power of two "
	  "(default 4096)" },
	{ "folio", V_INT, "folio size of the page cache, 4096..65536, a "
	  "power of two (default 4096)" },
	{ "layout", V_NAME, "block states from block 0: H hole, U "
	  "unwritten, W written, D delalloc (default W up to size)" },
	{ "cached", V_RANGE, "pages in the page cache, clean and uptodate: "
	  "N or first-last" },
	{ "dirty", V_RANGE, "pages cached and dirty (content id "
	  "1000*(n+1)+1)" },
	{ "mapped", V_RANGE, "pages mapped read-only by the file's shared "
	  "VMA" },
	{ "dropbehind", V_RANGE, "cached pages with PG_dropbehind set (as an "
	  "RWF_DONTCACHE write leaves them)" },
	{ "fs", V_NAME, "xfs (default; buffered I/O, O_DIRECT aligned "
	  "writes) or ext4 (O_DIRECT writes: pwrite, pwritev2; needs "
	  "open=O_DIRECT|...; pread through a buffered fd)" },
	{ "open", V_FLAGS, "O_RDWR|O_WRONLY|O_RDONLY|O_DSYNC|O_SYNC|"
	  "O_APPEND|O_DIRECT (on XFS: block-aligned writes only)" },
	{ "stable", V_INT, "1: AS_STABLE_WRITES (writers wait for "
	  "writeback)" },
	{ "nosec", V_INT, "1: S_NOSEC set" },
	{ "stale_times", V_INT, "1: mtime/ctime need an update "
	  "(inode_needs_update_time: the next write updates them; "
	  "kiocb_modified under IOCB_NOWAIT answers -EAGAIN)" },
	{ "advice", V_NAME, "NORMAL (default) or RANDOM: posix_fadvise "
	  "on the file's description at setup (RANDOM: FMODE_RANDOM, "
	  "readahead reads only the pages asked; needs read_ahead_kb)" },
	{ "large_folios", V_INT, "1: XFS's large folios (a write's folio "
	  "as large as the write asks, fgf_set_order; writeback merges "
	  "contiguous folios into one bio); XFS files only" },
};

static const struct litmus_schema_key device_keys[] = {
	{ "fail_bio", V_INT, "the Nth bio submitted (1-based) completes "
	  "with -EIO" },
	{ "fail_sectors", V_RANGE, "any bio touching these device sectors "
	  "fails (file n starts at sector 512*n)" },
	{ "read_ahead_kb", V_INT, "the queue's read_ahead_kb (bdi->ra_pages; "
	  "default 0: no readahead, a read reads only the folio it needs)" },
	{ "free_blocks", V_INT, "the XFS filesystem's free blocks at mount "
	  "(m_fdblocks, blocks of the files' one bsize): reservations and "
	  "allocations take from it, -ENOSPC past it; absent: no count "
	  "(dev.free_blocks reads it)" },
};

static const struct litmus_schema_key bound_keys[] = {
	{ "steps", V_INT, "steps per execution before 'stuck' (default "
	  "4096, at most 65536)" },
	{ "preemptions", V_INT, "preemption bound of --strategy dfs" },
};

static const struct litmus_schema_key wb_keys[] = {
	{ "dirty_limit", V_INT, "the dirty limit in pages (thresh N, "
	  "bg_thresh N / 2; 0: none)" },
};

static const struct litmus_schema_key fd_keys[] = {
	{ "file", V_NAME, "the file (a file item) this description opens" },
	{ "open", V_FLAGS, "O_RDWR|O_WRONLY|O_RDONLY|O_DSYNC|O_SYNC|"
	  "O_APPEND|O_DIRECT (on XFS: block-aligned writes only)" },
	{ "advice", V_NAME, "NORMAL (default) or RANDOM: posix_fadvise "
	  "on this description when it is opened (also by open(NAME))" },
};

static const struct litmus_schema_kind kinds[] = {
	{ "file", LITMUS_NAME_REQUIRED, file_keys, ARRAY_SIZE(file_keys),
	  "a file (up to 4) on XFS (buffered) or ext4 (O_DIRECT)" },
	{ "device", LITMUS_NAME_FORBIDDEN, device_keys,
	  ARRAY_SIZE(device_keys), "the block device: error injection" },
	{ "bound", LITMUS_NAME_FORBIDDEN, bound_keys, ARRAY_SIZE(bound_keys),
	  "exploration bounds" },
	{ "wb", LITMUS_NAME_FORBIDDEN, wb_keys, ARRAY_SIZE(wb_keys),
	  "the bdi_writeback: dirty throttling" },
	{ "fd", LITMUS_NAME_REQUIRED, fd_keys, ARRAY_SIZE(fd_keys),
	  "another open file description of a file (up to 8), opened at "
	  "setup; ops take its name in place of the file's" },
};

/* ---- variants ------------------------------------------------------------ */

/*
 * The model's variant registry (include/model/variant.h) as the scenario
 * schema and the front end's tables want it: each key's value names, in
 * the registry's order.  Generated from its rows; nothing to edit here
 * for a new variant.
 */
#define VALUE_NAME(c, name, alias, help) name,
#define VALUE_NAMES(id, key, type, field, values, help)			\
	static const char *const field##_names[] = { values(VALUE_NAME) };
M_VARIANT_KEYS(VALUE_NAMES)

#define FRONT_END_KEY(id, key, type, field, values, help)		\
	[id] = { key, help, field##_names, ARRAY_SIZE(field##_names) },
const struct wpsim_variant_key wpsim_variant_keys[] = {
	M_VARIANT_KEYS(FRONT_END_KEY)
};
const size_t wpsim_variant_keys_count = ARRAY_SIZE(wpsim_variant_keys);

#define SCHEMA_VARIANT(id, key, type, field, values, help)		\
	{ key, field##_names, ARRAY_SIZE(field##_names), help },
static const struct litmus_schema_variant schema_variants[] = {
	M_VARIANT_KEYS(SCHEMA_VARIANT)
};

int wpsim_variant_key_find(const char *key)
{
	return m_variant_key_find(key);
}

int wpsim_variant_value_find(size_t key, const char *value)
{
	return m_variant_value_find((enum m_variant_key)key, value);
}

void wpsim_variant_apply(struct m_world_config *config,
			 const struct wpsim_variant *v)
{
	for (size_t k = 0; k < M_VARIANT_KEYS_COUNT; k++)
		m_variant_apply(config, (struct m_variant_choice){
			.key = (enum m_variant_key)k,
			.value = (unsigned int)v->value[k],
		});
}

void wpsim_variant_format(char *buf, size_t size,
			  const struct wpsim_variant *v,
			  const struct wpsim_variant *base, const char *sep)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < wpsim_variant_keys_count && len < size; k++) {
		if (base && base->value[k] == v->value[k])
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s%s=%s",
					len ? sep : "",
					wpsim_variant_keys[k].key,
					wpsim_variant_keys[k].values[
						v->value[k]]);
	}
}

/* ---- reference paths ----------------------------------------------------- */

/*
 * wb.<stat> and node.<stat>: the model's counter names without their
 * prefix, in lower case (WB_DONTCACHE_DIRTY -> wb.dontcache_dirty).
 */
static bool stat_name_is(const char *model_name, const char *prefix,
			 const char *name)
{
	size_t plen = strlen(prefix);

	if (strncmp(model_name, prefix, plen) != 0)
		return false;
	model_name += plen;
	for (; *model_name && *name; model_name++, name++)
		if (tolower((unsigned char)*model_name) != *name)
			return false;
	return !*model_name && !*name;
}

int wpsim_wb_stat_find(const char *name)
{
	for (int i = 0; i < NR_WB_STAT_ITEMS; i++)
		if (stat_name_is(m_wb_stat_name(i), "WB_", name))
			return i;
	return -1;
}

int wpsim_node_stat_find(const char *name)
{
	for (int i = 0; i < NR_NODE_STAT_ITEMS; i++)
		if (stat_name_is(m_node_stat_name(i), "NR_", name))
			return i;
	return -1;
}

static void stat_lower(char *buf, size_t size, const char *model_name,
		       const char *prefix)
{
	size_t i = 0;

	model_name += strlen(prefix);
	for (; model_name[i] && i + 1 < size; i++)
		buf[i] = (char)tolower((unsigned char)model_name[i]);
	buf[i] = '\0';
}

const char *const wpsim_folio_flag_names[] = {
	"locked", "writeback", "referenced", "uptodate", "dirty", "lru",
	"head", "waiters", "active", "workingset", "owner_priv_1", "reclaim",
	"dropbehind", "private",
};
_Static_assert(ARRAY_SIZE(wpsim_folio_flag_names) == KM_NR_PAGEFLAGS,
	       "folio flag names out of step with enum km_pageflags");

static const char *const folio_extra[] = { "present", "mapped", "index",
					   "pages" };
static const char *const mark_names[] = { "dirty", "writeback", "towrite" };
static const char *const pte_names[] = { "present", "write", "dirty" };
static const char *const dev_names[] = { "reads", "writes", "bios",
					  "free_blocks" };
static const char *const file_scalars[] = { "i_size", "nrpages", "wb_err",
					    "lost_sectors", "stale_times" };

static int name_index(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return (int)i;
	return -1;
}

/* The folio sub-path: flag | present | mapped | marks.M | pte.P. */
int wpsim_folio_field(const struct litmus_path_seg *segs, size_t n,
		      int *kind, int *which)
{
	int i;

	if (n == 1 && segs[0].index < 0) {
		i = name_index(wpsim_folio_flag_names, KM_NR_PAGEFLAGS,
			       segs[0].name);
		if (i >= 0) {
			*kind = WPSIM_FOLIO_FLAG;
			*which = i;
			return 0;
		}
		i = name_index(folio_extra, ARRAY_SIZE(folio_extra),
			       segs[0].name);
		if (i >= 0) {
			*kind = WPSIM_FOLIO_PRESENT + i;
			*which = 0;
			return 0;
		}
		return -1;
	}
	if (n == 2 && segs[0].index < 0 && segs[1].index < 0) {
		if (strcmp(segs[0].name, "marks") == 0) {
			i = name_index(mark_names, ARRAY_SIZE(mark_names),
				       segs[1].name);
			*kind = WPSIM_FOLIO_MARK;
			*which = i;
			return i < 0 ? -1 : 0;
		}
		if (strcmp(segs[0].name, "pte") == 0) {
			i = name_index(pte_names, ARRAY_SIZE(pte_names),
				       segs[1].name);
			*kind = WPSIM_FOLIO_PTE;
			*which = i;
			return i < 0 ? -1 : 0;
		}
	}
	return -1;
}

/* Marks in bit order of PAGECACHE_TAG_* for the evaluator. */
int wpsim_mark_bit(int which)
{
	static const int bits[] = { PAGECACHE_TAG_DIRTY,
				    PAGECACHE_TAG_WRITEBACK,
				    PAGECACHE_TAG_TOWRITE };
	return bits[which];
}

int wpsim_dev_field(const char *name)
{
	return name_index(dev_names, ARRAY_SIZE(dev_names), name);
}

/* f.block[B].<state>: the extent states (enum m_extent_state). */
static const char *const block_state_names[] = { "hole", "unwritten",
						  "written", "delalloc" };
static const char block_state_letters[] = { M_EXT_HOLE, M_EXT_UNWRITTEN,
					    M_EXT_WRITTEN, M_EXT_DELALLOC };

int wpsim_block_state(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(block_state_names); i++)
		if (strcmp(block_state_names[i], name) == 0)
			return block_state_letters[i];
	return -1;
}

int wpsim_file_scalar(const char *name)
{
	return name_index(file_scalars, ARRAY_SIZE(file_scalars), name);
}

/* Indexed by enum wpsim_thread_field. */
const char *const wpsim_thread_field_names[WPSIM_THREAD_FIELD_COUNT] = {
	"dio_writes", "issued", "shared", "exclusive", "dio_wait",
	"force_wait", "needs_zeroing", "restarts", "zero_bios",
	"uring_requests", "punted", "handoffs", "inline_attempts",
	"worker_attempts", "inline_bytes",
};

/* Indexed by enum wpsim_uring_field. */
const char *const wpsim_uring_field_names[WPSIM_URING_FIELD_COUNT] = {
	"requests", "inline_done", "punted", "handoffs", "inline_attempts",
	"worker_attempts", "cqes", "inline_bytes",
};

int wpsim_thread_field(const char *name)
{
	return name_index(wpsim_thread_field_names, WPSIM_THREAD_FIELD_COUNT,
			  name);
}

int wpsim_uring_field(const char *name)
{
	return name_index(wpsim_uring_field_names, WPSIM_URING_FIELD_COUNT,
			  name);
}

int wpsim_thread_root(const char *name)
{
	long t = 0;

	if (name[0] != 'P' || !name[1] || strlen(name) > 3)
		return -1;
	for (const char *p = name + 1; *p; p++) {
		if (!isdigit((unsigned char)*p))
			return -1;
		t = t * 10 + (*p - '0');
	}
	if (name[1] == '0' && name[2])	/* P00 */
		return -1;
	return t < LITMUS_THREADS_MAX ? (int)t : -1;
}

static bool is_root(const char *name)
{
	return strcmp(name, "wb") == 0 || strcmp(name, "node") == 0 ||
	       strcmp(name, "dev") == 0 || strcmp(name, "folio") == 0 ||
	       strcmp(name, "uring") == 0 || wpsim_thread_root(name) >= 0;
}

bool wpsim_path_root_reserved(const char *name)
{
	return is_root(name);
}

#define WHY(...) (snprintf(why, why_size, __VA_ARGS__), 1)

static int check_folio_sub(const struct litmus_path_seg *segs, size_t n,
			   char *why, size_t why_size)
{
	int kind, which;

	if (wpsim_folio_field(segs, n, &kind, &which) == 0)
		return 0;
	return WHY("a folio has %s, present, mapped, index, pages, "
		   "marks.dirty|writeback|towrite, pte.present|write|dirty",
		   "locked, writeback, uptodate, dirty, dropbehind, "
		   "referenced, private (the PG_ flags)");
}

static int check_path(const struct litmus_schema *schema,
		      const struct litmus_expr *path, bool in_count,
		      char *why, size_t why_size)
{
	const struct litmus_path_seg *s = path->segs;
	size_t n = path->segs_count;

	(void)schema;
	if (strcmp(s[0].name, "wb") == 0 || strcmp(s[0].name, "node") == 0) {
		bool wb = s[0].name[0] == 'w';

		if (n != 2 || s[0].index >= 0 || s[1].index >= 0)
			return WHY("expected %s.<counter>", s[0].name);
		if (wb && strcmp(s[1].name, "dirty_limit") == 0)
			return 0;
		if ((wb ? wpsim_wb_stat_find(s[1].name) :
		     wpsim_node_stat_find(s[1].name)) >= 0)
			return 0;
		return WHY("see 'wpsim list paths' for the %s counters",
			   s[0].name);
	}
	if (strcmp(s[0].name, "uring") == 0) {
		if (n == 2 && s[0].index < 0 && s[1].index < 0 &&
		    wpsim_uring_field(s[1].name) >= 0)
			return 0;
		return WHY("expected uring.requests, inline_done, punted, "
			   "handoffs, inline_attempts, worker_attempts, cqes "
			   "or inline_bytes");
	}
	if (wpsim_thread_root(s[0].name) >= 0) {
		if (n == 2 && s[0].index < 0 && s[1].index < 0 &&
		    wpsim_thread_field(s[1].name) >= 0)
			return 0;
		return WHY("expected %s.<field>: dio_writes, issued, shared, "
			   "exclusive, dio_wait, force_wait, needs_zeroing, "
			   "restarts, zero_bios (its last O_DIRECT write), "
			   "uring_requests, punted, handoffs, "
			   "inline_attempts, worker_attempts, inline_bytes "
			   "(its last io_uring request)", s[0].name);
	}
	if (strcmp(s[0].name, "dev") == 0) {
		if (n == 2 && s[0].index < 0 && s[1].index < 0 &&
		    wpsim_dev_field(s[1].name) >= 0)
			return 0;
		return WHY("expected dev.reads, dev.writes, dev.bios or "
			   "dev.free_blocks");
	}
	if (strcmp(s[0].name, "folio") == 0) {
		if (!in_count)
			return WHY("'folio' without an index is the folio of "
				   "count(...); outside it write f.folio[P]");
		if (s[0].index >= 0)
			return WHY("inside count(...) write folio.<field>");
		return check_folio_sub(s + 1, n - 1, why, why_size);
	}
	/* <file>.<...>: the file name is checked against the scenario. */
	if (s[0].index >= 0 || n < 2)
		return WHY("expected <file>.<field>, wb.<counter>, "
			   "node.<counter>, dev.<counter>, uring.<counter>, "
			   "P<n>.<field> or folio.<field>");
	if (n == 2 && s[1].index < 0 && wpsim_file_scalar(s[1].name) >= 0)
		return 0;
	if (n == 2 && (strcmp(s[1].name, "disk") == 0 ||
		       strcmp(s[1].name, "cache") == 0 ||
		       strcmp(s[1].name, "uptodate") == 0)) {
		if (s[1].index < 0)
			return WHY("expected %s[SECTOR]", s[1].name);
		if (s[1].index >= (long)(m_file_pages_max * SECTORS_PER_PAGE))
			return WHY("a file has sectors 0..%lu (--max-pages "
				   "%lu)", m_file_pages_max * SECTORS_PER_PAGE -
				   1, m_file_pages_max);
		return 0;
	}
	if (strcmp(s[1].name, "block") == 0) {
		/* Blocks of 1 KiB at the smallest: 4 per page. */
		if (n != 3 || s[1].index < 0 || s[2].index >= 0 ||
		    wpsim_block_state(s[2].name) < 0)
			return WHY("expected %s.block[B].hole, .unwritten, "
				   ".written or .delalloc", s[0].name);
		if (s[1].index >= (long)(m_file_pages_max * 4))
			return WHY("a file has blocks 0..%lu at most "
				   "(--max-pages %lu)",
				   m_file_pages_max * 4 - 1, m_file_pages_max);
		return 0;
	}
	if (strcmp(s[1].name, "folio") == 0) {
		if (s[1].index < 0 && !in_count)
			return WHY("expected %s.folio[PAGE] (without an "
				   "index only inside count)", s[0].name);
		if (s[1].index >= (long)m_file_pages_max)
			return WHY("a file has pages 0..%lu (--max-pages %lu)",
				   m_file_pages_max - 1, m_file_pages_max);
		return check_folio_sub(s + 2, n - 2, why, why_size);
	}
	return WHY("a file has i_size, nrpages, wb_err, lost_sectors, "
		   "stale_times, disk[S], cache[S], block[B].<state>, "
		   "folio[P].<field>");
}

const struct litmus_schema wpsim_schema = {
	.ops = ops,
	.ops_count = WPSIM_OP_COUNT,
	.kinds = kinds,
	.kinds_count = ARRAY_SIZE(kinds),
	.variants = schema_variants,
	.variants_count = ARRAY_SIZE(schema_variants),
	.check_path = check_path,
};

/* ---- wpsim list ---------------------------------------------------------- */

void wpsim_list_ops(FILE *out)
{
	for (size_t i = 0; i < WPSIM_OP_COUNT; i++)
		fprintf(out, "%-16s %s\n", ops[i].name, ops[i].help);
}

void wpsim_list_kinds(FILE *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		fprintf(out, "%s%s: %s\n", kinds[i].name,
			kinds[i].name_rule == LITMUS_NAME_REQUIRED ? " NAME" :
			"", kinds[i].help);
		for (size_t k = 0; k < kinds[i].keys_count; k++)
			fprintf(out, "  %-14s %s\n", kinds[i].keys[k].name,
				kinds[i].keys[k].help);
	}
}

void wpsim_list_variants(FILE *out)
{
	m_variant_list(out);
}

void wpsim_list_paths(FILE *out)
{
	char name[32];

	fprintf(out, "T:rK                       register K of thread T (0 "
		"until assigned)\n");
	for (int i = 0; i < NR_WB_STAT_ITEMS; i++) {
		stat_lower(name, sizeof(name), m_wb_stat_name(i), "WB_");
		fprintf(out, "wb.%-23s %s\n", name, m_wb_stat_name(i));
	}
	fprintf(out, "wb.%-23s %s\n", "dirty_limit",
		"the dirty limit (thresh) in pages");
	for (int i = 0; i < NR_NODE_STAT_ITEMS; i++) {
		stat_lower(name, sizeof(name), m_node_stat_name(i), "NR_");
		fprintf(out, "node.%-21s %s\n", name, m_node_stat_name(i));
	}
	fprintf(out,
"dev.reads, dev.writes      4 KiB page reads / writes completed\n"
"dev.bios                   bios submitted\n"
"dev.free_blocks            the filesystem's free blocks (m_fdblocks; needs\n"
"                           device: free_blocks=N)\n"
"f.i_size                   i_size of file f\n"
"f.nrpages                  pages in f's page cache\n"
"f.wb_err                   errno recorded in f's mapping->wb_err (-EIO), "
"0 if none\n"
"f.lost_sectors             sectors inside EOF whose cached data differs "
"from what a read\n"
"                           of the disk finds (device data in written "
"blocks, zeroes\n"
"                           elsewhere), in uptodate blocks of a folio "
"neither dirty nor\n"
"                           mapped by a dirty PTE\n"
"f.stale_times              1 while f's mtime/ctime need an update "
"(stale_times=1 at setup)\n"
"f.disk[S]                  write id on the device at f's sector S (512 "
"bytes)\n"
"f.cache[S]                 write id in the page cache at sector S; -1 "
"without a folio\n"
"f.block[B].hole|unwritten|written|delalloc\n"
"                           1 if block B of f (bsize bytes) is in that "
"extent state\n"
"f.folio[P].F               field F of the folio caching page P (0 "
"without a folio):\n"
"                           PG_ flags locked writeback referenced "
"uptodate dirty lru\n"
"                           head waiters active workingset owner_priv_1 "
"reclaim\n"
"                           dropbehind private; present; mapped "
"(mapcount); index;\n"
"                           pages; marks.dirty marks.writeback "
"marks.towrite (xarray);\n"
"                           pte.present pte.write pte.dirty (the shared "
"VMA's PTE)\n"
"count(e)                   folios in any page cache for which e holds; "
"inside it\n"
"                           folio.F is the current folio, f.folio.F the "
"same if it is f's (else 0)\n"
"Pn.dio_writes               O_DIRECT writes thread Pn made on ext4 files; "
"of the last one:\n"
"Pn.issued                   1: the checks passed and iomap_dio_rw ran\n"
"Pn.shared, Pn.exclusive     1: it did its I/O under i_rwsem shared / "
"exclusive\n"
"Pn.dio_wait                 1: it called inode_dio_wait\n"
"Pn.force_wait               1: IOMAP_DIO_FORCE_WAIT\n"
"Pn.needs_zeroing            1: the decision said the DIO layer would "
"zero a\n"
"                           partial block (patch2: ext4_dio_needs_zeroing)\n"
"Pn.restarts                 shared -> exclusive upgrades (drop, retake, "
"restart)\n"
"Pn.zero_bios                head/tail zeroing bios it submitted\n"
"Pn.uring_requests           io_uring requests Pn submitted; of the last "
"one:\n"
"Pn.punted                   1: punted to an io-wq worker\n"
"Pn.handoffs                 task hand-offs (0 inline; 2 punted: "
"submitter -> worker\n"
"                           -> submitter)\n"
"Pn.inline_attempts, Pn.worker_attempts  issues inline (NOWAIT) / by "
"the worker\n"
"Pn.inline_bytes             bytes the inline attempt wrote (short "
"write)\n"
"uring.requests              io_uring requests submitted (all threads)\n"
"uring.inline_done           of them completed inline, never punted\n"
"uring.punted                of them punted to io-wq\n"
"uring.handoffs, uring.inline_attempts, uring.worker_attempts, "
"uring.inline_bytes\n"
"                           sums over the requests\n"
"uring.cqes                  CQEs posted (one per completed request)\n"
"deadlock, stuck, violation the execution's outcome (1 or 0)\n"
"Write ids: statement i (0-based) of thread Pt writes (t+1)*100+i; file n "
"(0-based)\n"
"starts with 1000*(n+1) on disk and 1000*(n+1)+1 in pages set up dirty.\n");
}

void wpsim_list_invariants(FILE *out)
{
	fprintf(out,
"After every step (a failure is the outcome 'violation'):\n"
"  model 1   no node or wb counter is negative\n"
"  model 2   PG_writeback <=> the WRITEBACK mark, whenever xa_lock is "
"free\n"
"  model 3   a TOWRITE mark only with a DIRTY mark or under writeback\n"
"  device 1  page writes never exceed what the submitted bios carry\n"
"  rwsem     the i_rwsem of each file is consistent (model/kernel/"
"rwsem.c)\n"
"  always    each always (e) clause of the scenario\n"
"At the end of a complete execution (m_world_quiescent_check):\n"
"  model 4   NR_FILE_DIRTY == WB_RECLAIMABLE == pages of PG_dirty folios\n"
"  model 5   NR_WRITEBACK == WB_WRITEBACK == pages under writeback (0)\n"
"  model 6   NR_ZONE_WRITE_PENDING == NR_FILE_DIRTY + NR_WRITEBACK\n"
"  model 7   PG_dirty => DIRTY mark; a DIRTY mark without PG_dirty only "
"beyond EOF\n"
"  model 8   dontcache >= v7_3: WB_DONTCACHE_DIRTY == dirty dropbehind "
"pages\n"
"  model 9   no folio locked, no direct I/O in flight\n"
"  model 10  a folio mapped writable is dirty (PG_dirty)\n"
"  model 12  refcount == the references held (1 cached, 0 not); mapcount\n"
"            == PTE present; no folio locked or under writeback\n"
"  model 13  every bio submitted ended once\n"
"  model 14  NR_FILE_PAGES == nrpages == cached pages; entries name their\n"
"            folios; NR_DIRTIED == WB_DIRTIED, NR_WRITTEN == WB_WRITTEN\n"
"At each add to WB_DONTCACHE_DIRTY (dontcache >= v11):\n"
"  model 11  a folio enters the counter at most once until it leaves it\n"
"(model/world.c has the authoritative list.)\n");
}
