// SPDX-License-Identifier: MIT
/*
 * tools/wpsim/scenario.c - a scenario file as an engine program.
 *
 * Loading: tools/litmus parses the file against wpsim_schema; then the
 * checks only the model can make, each at its source position: file
 * names in ops and paths, flag names, sizes and ranges against the
 * model's bounds (--max-pages, M_FILES_MAX), layouts.  The initial
 * state becomes a struct m_world_config; each statement a struct
 * wpsim_stmt with its numbers resolved.
 *
 * Running: setup calls m_world_setup() and spawns P0..Pn; a task calls
 * the model's entry points in order (the model's own primitives are the
 * scheduling points) and keeps return values in its registers; `always`
 * clauses are a registered check, so they run after every step; the
 * program's final step runs m_world_quiescent_check().  Registers live
 * outside the arena: only their own task writes them, and conditions read
 * them after the execution.
 *
 * Evaluating: after an execution the arena still holds its world, so the
 * condition is evaluated there, with sim_word_peek() (no scheduling
 * points), and the final state is formatted from the condition's leaves.
 */
#include "tools/wpsim/scenario.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/fs/ext4.h"
#include "model/fs/xfs.h"
#include "model/linux/syscalls.h"
#include "model/observe.h"
#include "model/io_uring/rw.h"
#include "model/linux/mm.h"
#include "model/linux/pagemap.h"
#include "model/linux/writeback.h"
#include "sim/clock.h"
#include "sim/shared.h"
#include "sim/snapshot.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define FILE_BYTES_MAX	((int64_t)m_file_pages_max * (int64_t)PAGE_SIZE)
#define DEV_SECTORS	((int64_t)M_DEV_FILES * (int64_t)m_file_pages_max * \
			 (int64_t)SECTORS_PER_PAGE)
#define ERRORS_SHOWN_MAX 16

struct flag_name {
	const char *name;
	unsigned int value;
};

static const struct flag_name open_flags[] = {
	{ "O_RDONLY", 0 }, { "O_WRONLY", 0 }, { "O_RDWR", 0 },
	{ "O_DSYNC", KM_O_DSYNC }, { "O_SYNC", KM_O_SYNC },
	{ "O_APPEND", KM_O_APPEND }, { "O_DIRECT", KM_O_DIRECT },
};

static const struct flag_name rwf_flags[] = {
	{ "RWF_HIPRI", RWF_HIPRI }, { "RWF_DSYNC", RWF_DSYNC },
	{ "RWF_SYNC", RWF_SYNC }, { "RWF_NOWAIT", RWF_NOWAIT },
	{ "RWF_APPEND", RWF_APPEND }, { "RWF_DONTCACHE", RWF_DONTCACHE },
	{ "RWF_WRITETHROUGH", RWF_WRITETHROUGH },
	{ "RWF_NOSERIAL", RWF_NOSERIAL }, { "RWF_ATOMIC", RWF_ATOMIC },
};

/* preadv2: the read flags the model has (IOCB_NOWAIT, IOCB_DONTCACHE). */
static const struct flag_name read_rwf_flags[] = {
	{ "RWF_NOWAIT", RWF_NOWAIT }, { "RWF_DONTCACHE", RWF_DONTCACHE },
};

static const struct flag_name sfr_flags[] = {
	{ "SYNC_FILE_RANGE_WAIT_BEFORE", KM_SYNC_FILE_RANGE_WAIT_BEFORE },
	{ "SYNC_FILE_RANGE_WRITE", KM_SYNC_FILE_RANGE_WRITE },
	{ "SYNC_FILE_RANGE_WAIT_AFTER", KM_SYNC_FILE_RANGE_WAIT_AFTER },
};

static const struct flag_name falloc_flags[] = {
	{ "FALLOC_FL_KEEP_SIZE", KM_FALLOC_FL_KEEP_SIZE },
};

static const struct flag_name wb_modes[] = {
	{ "WB_SYNC_NONE", WB_SYNC_NONE }, { "WB_SYNC_ALL", WB_SYNC_ALL },
};

/* ---- loading ------------------------------------------------------------- */

struct load_error {
	struct litmus_pos pos;
	char text[LITMUS_MESSAGE_MAX + 128];
};

/*
 * Warnings: a scenario that means what it says but most likely not what
 * its author intended (docs/model/fidelity.md, "The scenario language:
 * rejections and warnings").  Printed before anything runs, one line
 * each, "FILE:LINE:COL: warning: ..."; the exit status does not change.
 */
#define WARNINGS_SHOWN_MAX 16

/*
 * Errors of the front end and of the model's checks are gathered and
 * printed together, in source order, so that one run shows them all.
 */
struct loader {
	struct wpsim_scenario *sc;
	FILE *err;
	unsigned int errors;
	struct load_error list[ERRORS_SHOWN_MAX];
	size_t count;
	struct load_error warnings[WARNINGS_SHOWN_MAX];
	size_t warnings_count;
};

static void add_error(struct loader *l, struct litmus_pos pos,
		      const char *text)
{
	l->errors++;
	if (l->count == ERRORS_SHOWN_MAX)
		return;
	l->list[l->count].pos = pos;
	snprintf(l->list[l->count].text, sizeof(l->list[0].text), "%s", text);
	l->count++;
}

static void report(struct loader *l, struct litmus_pos pos, const char *fmt,
		   ...) __attribute__((format(printf, 3, 4)));

static void report(struct loader *l, struct litmus_pos pos, const char *fmt,
		   ...)
{
	char message[LITMUS_MESSAGE_MAX], text[LITMUS_MESSAGE_MAX + 128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	snprintf(text, sizeof(text), "%s:%u:%u: error: %s", l->sc->path,
		 pos.line, pos.col, message);
	add_error(l, pos, text);
}

static void warn(struct loader *l, struct litmus_pos pos, const char *fmt,
		 ...) __attribute__((format(printf, 3, 4)));

static void warn(struct loader *l, struct litmus_pos pos, const char *fmt,
		 ...)
{
	char message[LITMUS_MESSAGE_MAX];
	struct load_error *w;
	va_list ap;

	if (l->warnings_count == WARNINGS_SHOWN_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	w = &l->warnings[l->warnings_count++];
	w->pos = pos;
	snprintf(w->text, sizeof(w->text), "%s:%u:%u: warning: %s",
		 l->sc->path, pos.line, pos.col, message);
}

static int error_cmp(const void *a, const void *b)
{
	const struct load_error *x = a, *y = b;

	if (x->pos.line != y->pos.line)
		return x->pos.line < y->pos.line ? -1 : 1;
	if (x->pos.col != y->pos.col)
		return x->pos.col < y->pos.col ? -1 : 1;
	return 0;
}

/* Does @v have a kind @mask allows?  (The front end reported it if not.) */
static bool kind_ok(const struct litmus_value *v, unsigned int mask)
{
	return mask == LITMUS_VALUE_ANY || (mask & (unsigned int)v->kind);
}

static void known_flags(char *buf, size_t size, const struct flag_name *t,
			size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					i ? ", " : "", t[i].name);
}

static bool flag_lookup(const struct flag_name *t, size_t n,
			const char *name, unsigned int *value)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(t[i].name, name) == 0) {
			*value = t[i].value;
			return true;
		}
	}
	return false;
}

/*
 * A flag value: a name, A|B, or (when @allow_int) a number.  Unknown
 * names are reported with the known ones.
 */
static bool flags_value(struct loader *l, const struct litmus_value *v,
			const struct flag_name *t, size_t n, const char *what,
			bool allow_int, unsigned int *out)
{
	char known[512];
	bool ok = true;

	*out = 0;
	if (!kind_ok(v, LITMUS_VALUE_INT | LITMUS_VALUE_IDENT |
		     LITMUS_VALUE_FLAGS))
		return false;
	if (v->kind == LITMUS_VALUE_INT) {
		if (allow_int && v->number >= 0 && v->number <= UINT_MAX) {
			*out = (unsigned int)v->number;
			return true;
		}
		known_flags(known, sizeof(known), t, n);
		report(l, v->pos, "expected %s flags (%s)%s, found '%lld'",
		       what, known, allow_int ? " or a number >= 0" : "",
		       (long long)v->number);
		return false;
	}
	for (size_t i = 0; i < (v->kind == LITMUS_VALUE_FLAGS ?
				v->flags_count : 1); i++) {
		const char *name = v->kind == LITMUS_VALUE_FLAGS ?
				   v->flags[i] : v->text;
		unsigned int bit;

		if (flag_lookup(t, n, name, &bit)) {
			*out |= bit;
			continue;
		}
		known_flags(known, sizeof(known), t, n);
		report(l, v->pos, "unknown %s flag '%s'; known: %s", what,
		       name, known);
		ok = false;
	}
	return ok;
}

static bool int_value(struct loader *l, const struct litmus_value *v,
		      const char *what, int64_t min, int64_t max,
		      int64_t *out)
{
	if (v->kind != LITMUS_VALUE_INT)
		return false;	/* the front end said so */
	if (v->number < min || v->number > max) {
		/* Past the largest file: say which option raises it. */
		report(l, v->pos, "expected %s in %lld..%lld%s, found '%lld'",
		       what, (long long)min, (long long)max,
		       max == FILE_BYTES_MAX && v->number > max ?
		       " (the model's largest file; raise --max-pages)" : "",
		       (long long)v->number);
		return false;
	}
	*out = v->number;
	return true;
}

/* advice=NORMAL|RANDOM: posix_fadvise's two read modes a scenario may
 * give a description at setup (RANDOM sets FMODE_RANDOM). */
static void advice_value(struct loader *l, const struct litmus_value *v,
			 bool *random)
{
	if (v->kind != LITMUS_VALUE_IDENT)
		return;	/* the front end said so */
	if (strcmp(v->text, "RANDOM") == 0)
		*random = true;
	else if (strcmp(v->text, "NORMAL") == 0)
		*random = false;
	else
		report(l, v->pos, "expected advice NORMAL or RANDOM, found "
		       "'%s'", v->text);
}

static int log2_exact(int64_t n)
{
	int k = 0;

	if (n <= 0 || (n & (n - 1)))
		return -1;
	while ((1LL << k) < n)
		k++;
	return k;
}

/* A page range "N" or "first-last" within the file's pages. */
static void page_range(struct loader *l, const struct litmus_value *v,
		       const char *key, long pages, long *first, long *last)
{
	int64_t a = v->kind == LITMUS_VALUE_RANGE ? v->range_first : v->number;
	int64_t b = v->kind == LITMUS_VALUE_RANGE ? v->range_last : v->number;

	if (!kind_ok(v, LITMUS_VALUE_INT | LITMUS_VALUE_RANGE) || a < 0)
		return;
	if (b >= pages && pages == 0) {
		report(l, v->pos, "expected no %s pages (the file has size "
		       "0, so no pages), found '%lld'", key, (long long)b);
		return;
	}
	if (b >= pages) {
		report(l, v->pos, "expected %s pages in 0..%ld (the file has "
		       "%ld), found '%lld'", key, pages - 1, pages,
		       (long long)b);
		return;
	}
	*first = (long)a;
	*last = (long)b;
}

/*
 * fs=xfs|ext4 and what each supports: the XFS model is buffered only, the
 * ext4 model has O_DIRECT writes only (model/fs/ext4/file.c), so an ext4
 * file must be opened O_DIRECT, an XFS file must not, and an ext4 file
 * starts with no page-cache state but clean cached pages (which a DIO
 * write invalidates, or refuses with -EAGAIN under RWF_NOWAIT).
 */
static void load_file_fs(struct loader *l, const struct litmus_item *it,
			 const struct m_file_config *fc)
{
	struct wpsim_scenario *sc = l->sc;
	unsigned int f = sc->nr_files - 1;
	const struct litmus_value *fs = litmus_item_value(it, "fs");
	const struct litmus_value *open = litmus_item_value(it, "open");
	static const char *const page_keys[] = { "dirty", "mapped",
						 "dropbehind" };
	const struct litmus_value *v;

	sc->fs[f] = WPSIM_FS_XFS;
	if (fs && fs->kind == LITMUS_VALUE_IDENT) {
		if (strcmp(fs->text, "ext4") == 0)
			sc->fs[f] = WPSIM_FS_EXT4;
		else if (strcmp(fs->text, "xfs") != 0)
			report(l, fs->pos, "expected fs xfs or ext4, found "
			       "'%s'", fs->text);
	}
	(void)open;
	if (sc->fs[f] == WPSIM_FS_XFS)
		return;		/* O_DIRECT: block-aligned writes only */
	if (!(fc->open_flags & KM_O_DIRECT))
		report(l, open ? open->pos : fs->pos, "expected "
		       "open=O_DIRECT|... for an ext4 file (the ext4 model has "
		       "O_DIRECT writes only; buffered I/O on ext4 is not "
		       "modelled), found %s", open ? "no O_DIRECT" :
		       "no open key");
	for (size_t i = 0; i < ARRAY_SIZE(page_keys); i++)
		if ((v = litmus_item_value(it, page_keys[i])))
			report(l, v->pos, "expected only clean 'cached' "
			       "pages on an ext4 file (the ext4 model has no "
			       "buffered path), found '%s'", page_keys[i]);
	if (fc->layout) {
		const char *d = strchr(fc->layout, 'D');

		v = litmus_item_value(it, "layout");
		if (d) {
			struct litmus_pos p = v->pos;

			p.col += (uint32_t)(d - fc->layout);
			report(l, p, "expected a block state H, U or W on an "
			       "ext4 file (delalloc comes from buffered "
			       "writes), found 'D'");
		}
	}
}

/*
 * Every page of a file costs an exploration two shared objects (slot and
 * marks) and every block one: say which option to lower, at the file
 * that does not fit, before the engine's object bound would.
 */
static void objects_fit(struct loader *l, const struct litmus_item *it)
{
	const struct wpsim_scenario *sc = l->sc;
	unsigned long objects = 0;

	for (unsigned int f = 0; f < sc->nr_files; f++)
		objects += 2 * m_file_pages_max +
			   ((m_file_pages_max * PAGE_SIZE) >>
			    sc->base.files[f].blkbits);
	if (objects >= SIM_OBJECTS_MAX)
		report(l, it->pos, "expected files that fit an exploration's "
		       "%d shared objects, found %u file(s) of --max-pages "
		       "%lu pages needing %lu (lower --max-pages)",
		       SIM_OBJECTS_MAX, sc->nr_files, m_file_pages_max,
		       objects);
}

/* A file item's name: present, one more file fits, short, not a root. */
static bool file_item_ok(struct loader *l, const struct litmus_item *it)
{
	struct wpsim_scenario *sc = l->sc;

	/* A file without a name: the schema check reported it already. */
	if (!it->name)
		return false;
	if (sc->nr_files == M_FILES_MAX) {
		report(l, it->pos, "expected at most %d files "
		       "(M_FILES_MAX), found file '%s'", M_FILES_MAX,
		       it->name);
		return false;
	}
	if (strlen(it->name) >= sizeof(sc->file_names[0])) {
		report(l, it->pos, "expected a file name of at most %zu "
		       "characters, found '%s'",
		       sizeof(sc->file_names[0]) - 1, it->name);
		return false;
	}
	if (wpsim_path_root_reserved(it->name)) {
		report(l, it->pos, "'%s' names a counter group; choose "
		       "another file name", it->name);
		return false;
	}
	return true;
}

static void load_file(struct loader *l, const struct litmus_item *it)
{
	struct wpsim_scenario *sc = l->sc;
	struct m_file_config *fc;
	const struct litmus_value *v;
	int64_t n;
	long pages;
	int order_bits = PAGE_SHIFT;

	if (!file_item_ok(l, it))
		return;
	snprintf(sc->file_names[sc->nr_files], sizeof(sc->file_names[0]),
		 "%s", it->name);
	fc = &sc->base.files[sc->nr_files];
	/* The model's defaults (page ranges empty), whatever fields it has. */
	{
		struct m_world_config def;

		m_world_config_default(&def);
		*fc = def.files[0];
	}
	fc->name = sc->file_names[sc->nr_files];
	fc->size = 4 * (loff_t)PAGE_SIZE;
	fc->blkbits = 12;
	sc->nr_files++;

	if ((v = litmus_item_value(it, "size")) &&
	    int_value(l, v, "size", 0, FILE_BYTES_MAX, &n))
		fc->size = n;
	if ((v = litmus_item_value(it, "bsize")) &&
	    int_value(l, v, "bsize", 1024, 65536, &n)) {
		if (log2_exact(n) < 0)
			report(l, v->pos, "expected bsize a power of two, "
			       "found '%lld'", (long long)n);
		else
			fc->blkbits = (unsigned int)log2_exact(n);
	}
	if ((v = litmus_item_value(it, "folio")) &&
	    int_value(l, v, "folio", (int64_t)PAGE_SIZE,
		      (int64_t)PAGE_SIZE << M_FOLIO_ORDER_MAX, &n)) {
		if (log2_exact(n) < 0) {
			report(l, v->pos, "expected folio a power of two, "
			       "found '%lld'", (long long)n);
		} else {
			order_bits = log2_exact(n);
			fc->folio_order = (unsigned int)(order_bits -
							 PAGE_SHIFT);
		}
	}
	if ((int)fc->blkbits > order_bits)
		report(l, it->pos, "expected folio >= bsize (a folio holds "
		       "whole blocks), found folio=%d bsize=%d",
		       1 << order_bits, 1 << fc->blkbits);
	if ((v = litmus_item_value(it, "layout")) &&
	    v->kind == LITMUS_VALUE_IDENT) {
		size_t len = strlen(v->text);
		size_t blocks = (size_t)(FILE_BYTES_MAX >> fc->blkbits);

		if (len > blocks)
			report(l, v->pos, "expected a layout of at most %zu "
			       "blocks, found %zu", blocks, len);
		for (size_t i = 0; i < len; i++) {
			if (!strchr("HUWD", v->text[i])) {
				struct litmus_pos p = v->pos;

				p.col += (uint32_t)i;
				report(l, p, "expected a block state H, U, W "
				       "or D, found '%c'", v->text[i]);
				break;
			}
		}
		fc->layout = v->text;
	}
	pages = (long)((fc->size + (loff_t)PAGE_SIZE - 1) >> PAGE_SHIFT);
	if ((v = litmus_item_value(it, "cached")))
		page_range(l, v, "cached", pages, &fc->cached_first,
			   &fc->cached_last);
	if ((v = litmus_item_value(it, "dirty")))
		page_range(l, v, "dirty", pages, &fc->dirty_first,
			   &fc->dirty_last);
	if ((v = litmus_item_value(it, "mapped")))
		page_range(l, v, "mapped", pages, &fc->mapped_first,
			   &fc->mapped_last);
	if ((v = litmus_item_value(it, "dropbehind")))
		page_range(l, v, "dropbehind", pages, &fc->dropbehind_first,
			   &fc->dropbehind_last);
	if ((v = litmus_item_value(it, "open")))
		flags_value(l, v, open_flags, ARRAY_SIZE(open_flags), "open",
			    false, &fc->open_flags);
	if ((v = litmus_item_value(it, "stable")) &&
	    int_value(l, v, "stable", 0, 1, &n))
		fc->stable_writes = n;
	if ((v = litmus_item_value(it, "nosec")) &&
	    int_value(l, v, "nosec", 0, 1, &n))
		fc->nosec = n;
	if ((v = litmus_item_value(it, "stale_times")) &&
	    int_value(l, v, "stale_times", 0, 1, &n))
		fc->stale_times = n;
	if ((v = litmus_item_value(it, "advice")))
		advice_value(l, v, &fc->advice_random);
	/*
	 * large_folios=1: the mapping takes folios up to the order a write
	 * asks for (fs/xfs/xfs_icache.c xfs_setup_inode's
	 * mapping_set_large_folios, v6.18; iomap_get_folio's fgf_set_order),
	 * as wpsim fio's XFS files do.  Writes only: the model's readahead
	 * still makes minimum-order folios (docs/model/fidelity.md).
	 */
	if ((v = litmus_item_value(it, "large_folios")) &&
	    int_value(l, v, "large_folios", 0, 1, &n))
		fc->large_folios = n;
	load_file_fs(l, it, fc);
	if (fc->large_folios && l->sc->fs[l->sc->nr_files - 1] ==
	    WPSIM_FS_EXT4)
		report(l, litmus_item_value(it, "large_folios")->pos,
		       "expected large_folios only on an XFS file (the model "
		       "has no ext4 buffered write path), found fs=ext4");
	fc->fs = l->sc->fs[l->sc->nr_files - 1] == WPSIM_FS_EXT4 ?
		 M_FS_EXT4 : M_FS_XFS;
	objects_fit(l, it);
}

static int file_index(const struct wpsim_scenario *sc, const char *name);
static int fd_index(const struct wpsim_scenario *sc, const char *name);
static void known_files(const struct wpsim_scenario *sc, char *buf,
			size_t size);

/*
 * fd NAME: file=F, open=FLAGS;  another open file description of F's
 * inode (m_file_open: do_dentry_open's f_wb_err sample), opened at setup
 * after the files' own.  The same rules as the file's own description:
 * O_DIRECT on ext4 only, and an ext4 description must be O_DIRECT.
 */
static void load_fd(struct loader *l, const struct litmus_item *it)
{
	struct wpsim_scenario *sc = l->sc;
	const struct litmus_value *file = litmus_item_value(it, "file");
	const struct litmus_value *open = litmus_item_value(it, "open");
	const struct litmus_value *v;
	unsigned int flags = 0;
	char known[256];
	int f;

	if (!it->name)
		return;
	if (sc->nr_fds == WPSIM_FDS_MAX) {
		report(l, it->pos, "expected at most %d fd items "
		       "(WPSIM_FDS_MAX), found fd '%s'", WPSIM_FDS_MAX,
		       it->name);
		return;
	}
	if (strlen(it->name) >= sizeof(sc->fd_names[0]) ||
	    wpsim_path_root_reserved(it->name) ||
	    file_index(sc, it->name) >= 0 || fd_index(sc, it->name) >= 0) {
		report(l, it->pos, "expected a new name of at most %zu "
		       "characters for the fd (not a file's, a counter "
		       "group's or another fd's), found '%s'",
		       sizeof(sc->fd_names[0]) - 1, it->name);
		return;
	}
	if (!file || file->kind != LITMUS_VALUE_IDENT) {
		report(l, it->pos, "expected file=NAME in fd '%s', found %s",
		       it->name, file ? "another value" : "no file key");
		return;
	}
	f = file_index(sc, file->text);
	if (f < 0) {
		known_files(sc, known, sizeof(known));
		report(l, file->pos, "unknown file '%s'; known: %s",
		       file->text, known);
		return;
	}
	if (open && !flags_value(l, open, open_flags, ARRAY_SIZE(open_flags),
				 "open", false, &flags))
		return;
	snprintf(sc->fd_names[sc->nr_fds], sizeof(sc->fd_names[0]), "%s",
		 it->name);
	sc->fd_file[sc->nr_fds] = (unsigned int)f;
	sc->fd_flags[sc->nr_fds] = flags;
	sc->fd_advice_random[sc->nr_fds] = false;
	if ((v = litmus_item_value(it, "advice")))
		advice_value(l, v, &sc->fd_advice_random[sc->nr_fds]);
	sc->nr_fds++;
}

static void load_items(struct loader *l)
{
	struct wpsim_scenario *sc = l->sc;
	const struct litmus_scenario *scn = sc->scn;
	const struct litmus_value *v;
	int64_t n;

	for (size_t i = 0; i < scn->items_count; i++) {
		const struct litmus_item *it = &scn->items[i];

		if (strcmp(it->kind, "file") == 0) {
			load_file(l, it);
		} else if (strcmp(it->kind, "device") == 0) {
			if ((v = litmus_item_value(it, "fail_bio")) &&
			    int_value(l, v, "fail_bio", 0, UINT32_MAX, &n))
				sc->base.fail_nth_bio = (uint32_t)n;
			if ((v = litmus_item_value(it, "fail_sectors")) &&
			    kind_ok(v, LITMUS_VALUE_INT |
				    LITMUS_VALUE_RANGE)) {
				int64_t a = v->kind == LITMUS_VALUE_RANGE ?
					    v->range_first : v->number;
				int64_t b = v->kind == LITMUS_VALUE_RANGE ?
					    v->range_last : v->number;

				if (b >= DEV_SECTORS)
					report(l, v->pos, "expected device "
					       "sectors in 0..%lld, found "
					       "'%lld'",
					       (long long)DEV_SECTORS - 1,
					       (long long)b);
				sc->base.fail_range = true;
				sc->base.fail_sector_first = (sector_t)a;
				sc->base.fail_sector_last = (sector_t)b;
			}
			/* read_ahead_kb: the queue's, which the bdi's
			 * ra_pages follows (blk_apply_bdi_limits). */
			if ((v = litmus_item_value(it, "read_ahead_kb")) &&
			    int_value(l, v, "read_ahead_kb", 0, 65536, &n))
				sc->base.ra_pages = (unsigned int)
					((n * 1024) >> PAGE_SHIFT);
			/* free_blocks: the filesystem's free-space count
			 * (model/fs/xfs/xfs_mount.c). */
			if ((v = litmus_item_value(it, "free_blocks")) &&
			    int_value(l, v, "free_blocks", 0, 1 << 30, &n)) {
				sc->base.fs_free_counted = true;
				sc->base.fs_free_blocks = (uint64_t)n;
			}
		} else if (strcmp(it->kind, "bound") == 0) {
			if ((v = litmus_item_value(it, "steps")) &&
			    int_value(l, v, "steps", 1, SIM_STEPS_LIMIT, &n))
				sc->steps_max = (uint32_t)n;
			if ((v = litmus_item_value(it, "preemptions")) &&
			    int_value(l, v, "preemptions", 0, 1 << 20, &n))
				sc->preemptions = n;
		} else if (strcmp(it->kind, "wb") == 0) {
			if ((v = litmus_item_value(it, "dirty_limit")) &&
			    int_value(l, v, "dirty_limit", 0, 1 << 20, &n))
				sc->base.dirty_limit_pages = (long)n;
		}
	}
	sc->base.nr_files = sc->nr_files;
	for (size_t i = 0; i < scn->items_count; i++)
		if (strcmp(scn->items[i].kind, "fd") == 0)
			load_fd(l, &scn->items[i]);
	if (!sc->nr_files)
		report(l, scn->pos, "expected at least one 'file NAME: ...;' "
		       "in the initial state, found none");
	for (size_t k = 0; k < wpsim_variant_keys_count; k++) {
		char buf[64];
		const char *text = litmus_variant_default(
			scn, wpsim_variant_keys[k].key, buf, sizeof(buf));
		int i = text ? wpsim_variant_value_find(k, text) : -1;

		sc->defaults.value[k] = i >= 0 ? (size_t)i : 0;
	}
}

static int file_index(const struct wpsim_scenario *sc, const char *name)
{
	for (unsigned int i = 0; i < sc->nr_files; i++)
		if (strcmp(sc->file_names[i], name) == 0)
			return (int)i;
	return -1;
}

static int fd_index(const struct wpsim_scenario *sc, const char *name)
{
	for (unsigned int i = 0; i < sc->nr_fds; i++)
		if (strcmp(sc->fd_names[i], name) == 0)
			return (int)i;
	return -1;
}

static void known_files(const struct wpsim_scenario *sc, char *buf,
			size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < sc->nr_files && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					i ? ", " : "", sc->file_names[i]);
	for (unsigned int i = 0; i < sc->nr_fds && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, ", %s (fd)",
					sc->fd_names[i]);
}

/* Byte ranges an op may touch: within the model's largest file. */
static bool range_ok(struct loader *l, const struct litmus_value *off,
		     const struct litmus_value *len, int64_t len_min,
		     int64_t *o, int64_t *n)
{
	if (!int_value(l, off, "an offset", 0, FILE_BYTES_MAX, o) ||
	    !int_value(l, len, "a length", len_min, FILE_BYTES_MAX, n))
		return false;
	if (*o + *n > FILE_BYTES_MAX) {
		report(l, len->pos, "expected offset + length <= %lld (the "
		       "model's largest file; raise --max-pages), found %lld",
		       (long long)FILE_BYTES_MAX, (long long)(*o + *n));
		return false;
	}
	return true;
}

/* pread(f, off, len [, FLAGS]): the range, and RWF_NOWAIT,
 * RWF_DONTCACHE or 0. */
static void load_read(struct loader *l, const struct litmus_stmt *st,
		      struct wpsim_stmt *ws)
{
	const struct litmus_value *a = st->args;
	unsigned int flags = 0;
	int64_t o = 0, n = 0;

	if (range_ok(l, &a[1], &a[2], 0, &o, &n)) {
		ws->arg[0] = o;
		ws->arg[1] = n;
	}
	ws->arg[2] = 0;
	if (st->args_count > 3 &&
	    flags_value(l, &a[3], read_rwf_flags, ARRAY_SIZE(read_rwf_flags),
			"pread RWF_", true, &flags)) {
		if (flags & ~(unsigned int)(RWF_NOWAIT | RWF_DONTCACHE))
			report(l, a[3].pos, "expected pread flags RWF_NOWAIT, "
			       "RWF_DONTCACHE or 0 (the read path models "
			       "IOCB_NOWAIT and IOCB_DONTCACHE only), "
			       "found %u", flags);
		ws->arg[2] = flags;
	}
}

/*
 * A statement on an ext4 file: pwrite or pwritev2, routed to
 * m_ext4_pwritev2_direct (O_DIRECT).  Offsets and lengths are multiples
 * of 512, the device's logical block size (iomap returns -EINVAL
 * otherwise; the content model is per sector).
 */
static const struct flag_name dio_rwf_flags[] = {
	{ "RWF_HIPRI", RWF_HIPRI }, { "RWF_DSYNC", RWF_DSYNC },
	{ "RWF_SYNC", RWF_SYNC }, { "RWF_NOWAIT", RWF_NOWAIT },
	{ "RWF_APPEND", RWF_APPEND }, { "RWF_ATOMIC", RWF_ATOMIC },
};

static void load_stmt_ext4(struct loader *l, const struct litmus_stmt *st,
			   struct wpsim_stmt *ws)
{
	const struct litmus_value *a = st->args;
	unsigned int flags = 0;
	int64_t o = 0, n = 0;

	/* The file's own description must be O_DIRECT (load_file_fs says
	 * so if it is not); an fd item may be buffered. */
	bool direct = ws->fd < 0 || (l->sc->fd_flags[ws->fd] & KM_O_DIRECT);

	if (ws->op != WPSIM_OP_PREAD && !direct) {
		report(l, st->op_pos, "expected only pread through a "
		       "buffered description of an ext4 file (ext4's "
		       "buffered write path is not modelled), found '%s'",
		       st->op);
		return;
	}
	if (ws->op == WPSIM_OP_PREAD) {
		load_read(l, st, ws);
		return;
	}
	if (ws->op == WPSIM_OP_TRUNCATE) {
		int64_t size;

		if (int_value(l, &a[1], "a size", 0, FILE_BYTES_MAX, &size))
			ws->arg[0] = size;
		return;
	}
	if (ws->op != WPSIM_OP_PWRITE && ws->op != WPSIM_OP_PWRITEV2 &&
	    ws->op != WPSIM_OP_AIO_PWRITE) {
		report(l, st->op_pos, "expected pwrite, pwritev2, aio_pwrite, "
		       "truncate or pread on ext4 file '%s' (the ext4 model "
		       "has O_DIRECT writes, truncate and buffered reads "
		       "only), found '%s'", a[0].text, st->op);
		return;
	}
	if (range_ok(l, &a[1], &a[2], 0, &o, &n)) {
		if (o % 512)
			report(l, a[1].pos, "expected an O_DIRECT offset that "
			       "is a multiple of 512, found %lld",
			       (long long)o);
		else if (n % 512)
			report(l, a[2].pos, "expected an O_DIRECT length that "
			       "is a multiple of 512, found %lld",
			       (long long)n);
		ws->arg[0] = o;
		ws->arg[1] = n;
	}
	if (ws->op == WPSIM_OP_PWRITE ||
	    (ws->op == WPSIM_OP_AIO_PWRITE && st->args_count < 4))
		return;
	if (flags_value(l, &a[3], dio_rwf_flags, ARRAY_SIZE(dio_rwf_flags),
			"O_DIRECT ext4 RWF_", true, &flags))
		ws->arg[2] = flags;
	if (st->args_count > 4)
		report(l, a[4].pos, "expected no fault_after on an O_DIRECT "
		       "write (the DIO model pins no user pages), found %s",
		       "a fifth argument");
}

/*
 * A statement through an O_DIRECT description of an XFS file: writes go
 * to xfs_file_dio_write (km_xfs_file_dio_write), reads to
 * xfs_file_dio_read; io_uring is not modelled, nor RWF flags that make
 * no sense for O_DIRECT.  The other
 * ops (fsync, mmap, truncate, ...) do not depend on O_DIRECT.
 */
static void load_stmt_xfs(struct loader *l, const struct litmus_stmt *st,
			  struct wpsim_stmt *ws);

static void load_stmt_xfs_direct(struct loader *l,
				 const struct litmus_stmt *st,
				 const struct wpsim_stmt *ws, int f)
{
	const struct litmus_value *a = st->args;
	int64_t bs = (int64_t)1 << l->sc->base.files[f].blkbits;
	static const unsigned int no_dio = RWF_DONTCACHE | RWF_WRITETHROUGH |
					   RWF_NOSERIAL;
	unsigned int flags = 0;

	switch (ws->op) {
	case WPSIM_OP_PREAD:
		return;		/* xfs_file_dio_read: load_read's checks */
	case WPSIM_OP_IO_URING_WRITE:
		report(l, st->op_pos, "expected no %s through an O_DIRECT "
		       "description of an XFS file (io_uring O_DIRECT is not "
		       "modelled), found it", st->op);
		return;
	case WPSIM_OP_PWRITE:
	case WPSIM_OP_PWRITEV2:
	case WPSIM_OP_AIO_PWRITE:
		break;
	default:
		return;
	}
	/*
	 * Position or length not a multiple of the sector size:
	 * xfs_file_dio_write's -EINVAL; sector but not block aligned:
	 * xfs_file_dio_write_unaligned.  Both modelled.
	 */
	(void)bs;
	if (ws->op == WPSIM_OP_PWRITEV2 && st->args_count > 4)
		report(l, a[4].pos, "expected no fault_after on an O_DIRECT "
		       "write (the DIO model pins no user pages), found %s",
		       "a fifth argument");
	if (ws->op == WPSIM_OP_PWRITEV2 && a[3].kind != LITMUS_VALUE_INT) {
		for (size_t i = 0; i < (a[3].kind == LITMUS_VALUE_FLAGS ?
					a[3].flags_count : 1); i++) {
			const char *name = a[3].kind == LITMUS_VALUE_FLAGS ?
					   a[3].flags[i] : a[3].text;
			unsigned int bit;

			if (flag_lookup(rwf_flags, ARRAY_SIZE(rwf_flags),
					name, &bit))
				flags |= bit;
		}
		if (flags & no_dio)
			report(l, a[3].pos, "expected RWF_ flags without "
			       "RWF_DONTCACHE, RWF_WRITETHROUGH or "
			       "RWF_NOSERIAL on an O_DIRECT write "
			       "(buffered-only flags), found one");
	}
}

/*
 * Issue 30 item 9: a pwrite through an O_DIRECT description of an XFS
 * file is a direct write (xfs_file_write_iter sends IOCB_DIRECT to
 * xfs_file_dio_write), which is what the scenario says; but when the
 * scenario also declares a buffered description of the same file, its
 * author most likely meant a buffered write through one of them, and
 * the answers differ (a direct write flushes and invalidates the cache,
 * a buffered one dirties it).  Only a write through the file's own
 * description, which every op names by default: a write through an fd
 * item declared O_DIRECT is meant to be direct.  Not on ext4: the ext4 model's writes are
 * all direct and its reads all buffered (load_stmt_ext4), so the mix is
 * the only way to write such a scenario.
 */
static void warn_direct_write(struct loader *l, const struct litmus_stmt *st,
			      const struct wpsim_stmt *ws)
{
	const struct wpsim_scenario *sc = l->sc;
	const char *own = sc->file_names[ws->file];
	const char *buffered = NULL;

	bool read = ws->op == WPSIM_OP_PREAD;

	if (ws->op != WPSIM_OP_PWRITE && ws->op != WPSIM_OP_PWRITEV2 &&
	    ws->op != WPSIM_OP_AIO_PWRITE && !read)
		return;
	/* An fd item declared O_DIRECT says its author means direct I/O
	 * through it; the file's own description is every op's default. */
	if (ws->fd >= 0)
		return;
	for (unsigned int i = 0; i < sc->nr_fds && !buffered; i++)
		if (sc->fd_file[i] == ws->file &&
		    !(sc->fd_flags[i] & KM_O_DIRECT))
			buffered = sc->fd_names[i];
	if (buffered)
		warn(l, st->op_pos, "%s through '%s' (opened O_DIRECT) is a "
		     "direct %s; '%s' is a buffered description of the "
		     "same file (declare the direct one as an fd item with "
		     "O_DIRECT to say it is meant)", st->op, own,
		     read ? "read" : "write", buffered);
}

/*
 * Build item 4: a pread through an O_DIRECT description of an ext4 file
 * is a direct read in the kernel (ext4_file_read_iter ->
 * ext4_dio_read_iter, v6.18), but the ext4 model has no direct read: it
 * reads through the page cache (load_stmt_ext4).  The answer can differ
 * (a buffered read leaves the folio cached, and reads a dirty cache
 * where a direct read writes it back first); say so.  A read through an
 * fd item opened without O_DIRECT is what the model reads.
 */
static void warn_ext4_direct_read(struct loader *l,
				  const struct litmus_stmt *st,
				  const struct wpsim_stmt *ws)
{
	if (ws->op != WPSIM_OP_PREAD ||
	    (ws->fd >= 0 && !(l->sc->fd_flags[ws->fd] & KM_O_DIRECT)))
		return;
	warn(l, st->op_pos, "pread through '%s' (opened O_DIRECT) is a "
	     "buffered read in the model: the ext4 model has no O_DIRECT "
	     "read (ext4_dio_read_iter); read through an fd item opened "
	     "without O_DIRECT to say a buffered read is meant",
	     st->args[0].text);
}

/*
 * Build item 4: an XFS punch whose range, rounded in to whole blocks, is
 * empty is legal: xfs_free_file_space frees nothing and zeroes the range
 * through the page cache (fallocate(2)).  A test of hole punching that
 * punches no hole is probably not the test intended.
 */
static void warn_punch_frees_nothing(struct loader *l,
				     const struct litmus_stmt *st,
				     const struct wpsim_stmt *ws)
{
	int64_t bs = (int64_t)1 << l->sc->base.files[ws->file].blkbits;
	int64_t o = ws->arg[0], n = ws->arg[1];

	if (n <= 0 || (o + bs - 1) / bs * bs + bs <= o + n)
		return;
	warn(l, st->op_pos, "punch_hole(%s, %lld, %lld) covers no whole "
	     "block of %lld bytes: it frees nothing and zeroes [%lld, %lld) "
	     "through the page cache", st->args[0].text, (long long)o,
	     (long long)n, (long long)bs, (long long)o, (long long)(o + n));
}

/*
 * Build item 4: an XFS O_DIRECT write whose position or length is not a
 * multiple of the sector size (the model's logical block, 512 bytes) is
 * refused by the kernel with -EINVAL before any I/O (xfs_file_dio_write,
 * v6.18).  The model gives that answer; the scenario is legal (a test of
 * the refusal, xfs/dio-not-sector-aligned), but a write that can only
 * fail is more often a mistake.  ext4's loader refuses such a write.
 */
static void warn_direct_unaligned(struct loader *l,
				  const struct litmus_stmt *st,
				  const struct wpsim_stmt *ws)
{
	int64_t o = ws->arg[0], n = ws->arg[1];

	if (ws->op != WPSIM_OP_PWRITE && ws->op != WPSIM_OP_PWRITEV2 &&
	    ws->op != WPSIM_OP_AIO_PWRITE)
		return;
	if (o % 512 == 0 && n % 512 == 0)
		return;
	warn(l, st->op_pos, "%s(%s, %lld, %lld) is an O_DIRECT write not "
	     "aligned to the 512-byte sector: XFS refuses it with -EINVAL "
	     "before any I/O (xfs_file_dio_write)", st->op, st->args[0].text,
	     (long long)o, (long long)n);
}

static void load_stmt(struct loader *l, int thread, size_t index,
		      const struct litmus_stmt *st, struct wpsim_stmt *ws)
{
	struct wpsim_scenario *sc = l->sc;
	const struct litmus_value *a = st->args;
	char known[256];
	int f;

	/* Only what the front end accepted: known op, arity, kinds. */
	if (st->op_index < 0 || st->op_index >= WPSIM_OP_COUNT)
		return;
	{
		const struct litmus_schema_op *op =
			&wpsim_schema.ops[st->op_index];

		if (st->args_count < op->args_min ||
		    st->args_count > op->args_max)
			return;
		for (size_t i = 0; i < st->args_count; i++)
			if (!kind_ok(&a[i], op->arg_kinds[i]))
				return;
	}
	ws->op = (enum wpsim_op)st->op_index;
	ws->reg = st->reg;
	ws->fd = -1;
	ws->repeat = st->repeat;
	ws->repeat_len = st->repeat_len;
	ws->data_id = (uint32_t)((thread + 1) * 100 + (int)index);
	{
		size_t len = 0;
		char *buf = NULL;
		FILE *m = open_memstream(&buf, &len);

		if (!m)
			abort();
		if (st->reg >= 0)
			fprintf(m, "r%d = ", st->reg);
		fprintf(m, "%s(", st->op);
		for (size_t i = 0; i < st->args_count; i++) {
			fprintf(m, "%s", i ? ", " : "");
			litmus_value_print(m, &a[i]);
		}
		fprintf(m, ")");
		fclose(m);
		snprintf(ws->text, sizeof(ws->text), "%s", buf);
		free(buf);
	}
	/* Argument 0 is the file or an fd item, by the schema a name. */
	ws->fd = fd_index(sc, a[0].text);
	f = ws->fd >= 0 ? (int)sc->fd_file[ws->fd] : file_index(sc, a[0].text);
	if (f < 0) {
		known_files(sc, known, sizeof(known));
		report(l, a[0].pos, "unknown file '%s'; known: %s", a[0].text,
		       known);
		return;
	}
	ws->file = (unsigned int)f;
	if (ws->op == WPSIM_OP_OPEN) {
		if (ws->fd < 0)
			report(l, a[0].pos, "expected an fd item for open "
			       "(open(g) opens fd g again), found file '%s'",
			       a[0].text);
		return;
	}
	if (sc->fs[f] == WPSIM_FS_EXT4) {
		load_stmt_ext4(l, st, ws);
		warn_ext4_direct_read(l, st, ws);
		return;
	}
	if ((ws->fd >= 0 ? sc->fd_flags[ws->fd] :
	     sc->base.files[f].open_flags) & KM_O_DIRECT) {
		load_stmt_xfs_direct(l, st, ws, f);
		warn_direct_write(l, st, ws);
	}
	load_stmt_xfs(l, st, ws);
	if ((ws->fd >= 0 ? sc->fd_flags[ws->fd] :
	     sc->base.files[f].open_flags) & KM_O_DIRECT)
		warn_direct_unaligned(l, st, ws);
	if (ws->op == WPSIM_OP_PUNCH_HOLE)
		warn_punch_frees_nothing(l, st, ws);
}

/* A statement on an XFS file: its numbers and flags. */
static void load_stmt_xfs(struct loader *l, const struct litmus_stmt *st,
			  struct wpsim_stmt *ws)
{
	struct wpsim_scenario *sc = l->sc;
	const struct litmus_value *a = st->args;
	unsigned int flags = 0;
	int64_t o = 0, n = 0;
	unsigned int f = ws->file;

	switch (ws->op) {
	case WPSIM_OP_PREAD:
		load_read(l, st, ws);
		break;
	case WPSIM_OP_PWRITE:
		if (range_ok(l, &a[1], &a[2], 0, &o, &n)) {
			ws->arg[0] = o;
			ws->arg[1] = n;
		}
		break;
	case WPSIM_OP_AIO_PWRITE:
		if (range_ok(l, &a[1], &a[2], 0, &o, &n)) {
			ws->arg[0] = o;
			ws->arg[1] = n;
		}
		if (st->args_count > 3 &&
		    flags_value(l, &a[3], rwf_flags, ARRAY_SIZE(rwf_flags),
				"RWF_", true, &flags))
			ws->arg[2] = flags;
		break;
	case WPSIM_OP_PWRITEV2:
	case WPSIM_OP_IO_URING_WRITE:
		if (range_ok(l, &a[1], &a[2], 0, &o, &n)) {
			ws->arg[0] = o;
			ws->arg[1] = n;
		}
		if (flags_value(l, &a[3], rwf_flags, ARRAY_SIZE(rwf_flags),
				"RWF_", true, &flags))
			ws->arg[2] = flags;
		if (st->args_count > 4 &&
		    int_value(l, &a[4], "fault_after (bytes copied before "
			      "the user buffer faults)", 1, FILE_BYTES_MAX,
			      &n))
			ws->arg[3] = n;
		break;
	case WPSIM_OP_SYNC_FILE_RANGE:
		if (range_ok(l, &a[1], &a[2], 0, &o, &n)) {
			ws->arg[0] = o;
			ws->arg[1] = n;
		}
		if (flags_value(l, &a[3], sfr_flags, ARRAY_SIZE(sfr_flags),
				"sync_file_range", true, &flags)) {
			if (flags > 7)
				report(l, a[3].pos, "expected "
				       "sync_file_range flags in 0..7, found "
				       "%u", flags);
			ws->arg[2] = flags;
		}
		break;
	case WPSIM_OP_MMAP_STORE: {
		int64_t fsize = (int64_t)PAGE_SIZE <<
				sc->base.files[f].folio_order;

		if (!range_ok(l, &a[1], &a[2], 1, &o, &n))
			break;
		if (o % fsize + n > fsize) {
			report(l, a[2].pos, "expected a store within one "
			       "%lld-byte folio, found %lld bytes at %lld",
			       (long long)fsize, (long long)n, (long long)o);
			break;
		}
		ws->arg[0] = o;
		ws->arg[1] = n;
		break;
	}
	case WPSIM_OP_WRITEBACK:
		ws->arg[0] = WB_SYNC_NONE;
		if (st->args_count > 1 &&
		    flags_value(l, &a[1], wb_modes, ARRAY_SIZE(wb_modes),
				"writeback sync mode", false, &flags)) {
			if (a[1].kind == LITMUS_VALUE_FLAGS)
				report(l, a[1].pos, "expected one of "
				       "WB_SYNC_NONE, WB_SYNC_ALL, found a "
				       "flag set");
			ws->arg[0] = flags;
		}
		break;
	case WPSIM_OP_TRUNCATE:
		if (int_value(l, &a[1], "a size", 0, FILE_BYTES_MAX, &n))
			ws->arg[0] = n;
		break;
	case WPSIM_OP_FALLOCATE:
		if (range_ok(l, &a[1], &a[2], 1, &o, &n)) {
			ws->arg[0] = o;
			ws->arg[1] = n;
		}
		if (st->args_count > 3 &&
		    flags_value(l, &a[3], falloc_flags,
				ARRAY_SIZE(falloc_flags), "fallocate mode",
				false, &flags))
			ws->arg[2] = flags;
		break;
	case WPSIM_OP_PUNCH_HOLE:
		if (range_ok(l, &a[1], &a[2], 1, &o, &n)) {
			ws->arg[0] = o;
			ws->arg[1] = n;
		}
		break;
	case WPSIM_OP_FSYNC:
	case WPSIM_OP_FDATASYNC:
	case WPSIM_OP_MUNMAP:
	case WPSIM_OP_OPEN:
	case WPSIM_OP_COUNT:
		break;
	}
}

/*
 * The calls of a thread with its repeat blocks unrolled.  io_uring_write
 * keeps per-statement request counters (uring.*, Pn.*), so it may not be
 * repeated.
 */
static void load_runs(struct loader *l, const struct litmus_thread *th,
		      struct wpsim_thread *wt)
{
	size_t n = 0;

	for (size_t pass = 0; pass < 2; pass++) {
		n = 0;
		for (size_t i = 0; i < wt->count; ) {
			unsigned int times = wt->stmts[i].repeat ?
					     wt->stmts[i].repeat : 1;
			size_t len = wt->stmts[i].repeat ?
				     wt->stmts[i].repeat_len : 1;

			for (unsigned int r = 0; r < times; r++)
				for (size_t j = i; j < i + len; j++) {
					if (pass)
						wt->run_stmt[n] = (uint32_t)j;
					n++;
				}
			if (!pass && wt->stmts[i].repeat)
				for (size_t j = i; j < i + len; j++)
					if (wt->stmts[j].op ==
					    WPSIM_OP_IO_URING_WRITE)
						report(l, th->stmts[j].op_pos,
						       "expected no "
						       "io_uring_write in a "
						       "repeat block (its "
						       "counters are per "
						       "statement), found "
						       "one");
			i += len;
		}
		if (!pass) {
			wt->run_stmt = calloc(n ? n : 1, sizeof(uint32_t));
			if (!wt->run_stmt)
				abort();
		}
	}
	wt->runs = n;
}

/*
 * Build item 4, class A: an XFS RWF_NOWAIT write (pwritev2 or
 * aio_pwrite, buffered or direct) that starts past i_size is -EAGAIN in
 * v6.18 before anything is written (xfs_file_write_checks ->
 * xfs_file_write_zero_eof: the gap would have to be zeroed).  When the
 * write starts past the initial i_size and no statement that can grow
 * the file runs before it (none earlier in its thread, none in another
 * thread, the write not in a repeat block), the answer is always
 * -EAGAIN: legal (a test of that refusal), but more often a mistake.
 * Every op that is not a read, a sync, a store, an unmap, a punch or an
 * open counts as one that can grow the file (fallocate with KEEP_SIZE
 * too: the check stays simple and never claims "always" wrongly).
 */
static bool stmt_may_grow(const struct wpsim_stmt *ws, unsigned int file)
{
	if (ws->file != file)
		return false;
	switch (ws->op) {
	case WPSIM_OP_PREAD:
	case WPSIM_OP_FSYNC:
	case WPSIM_OP_FDATASYNC:
	case WPSIM_OP_SYNC_FILE_RANGE:
	case WPSIM_OP_MMAP_STORE:
	case WPSIM_OP_MUNMAP:
	case WPSIM_OP_WRITEBACK:
	case WPSIM_OP_PUNCH_HOLE:
	case WPSIM_OP_OPEN:
		return false;
	default:
		return true;
	}
}

static void warn_nowait_past_eof(struct loader *l)
{
	struct wpsim_scenario *sc = l->sc;

	for (size_t t = 0; t < sc->threads_count; t++) {
		const struct wpsim_thread *wt = &sc->threads[t];

		size_t block_end = 0;	/* past the repeat block */

		for (size_t i = 0; i < wt->count; i++) {
			const struct wpsim_stmt *ws = &wt->stmts[i];
			const struct litmus_stmt *st =
				&sc->scn->threads[t].stmts[i];
			unsigned int f = ws->file;
			bool grown = false;

			if (ws->repeat)
				block_end = i + ws->repeat_len;
			if (i < block_end ||
			    (ws->op != WPSIM_OP_PWRITEV2 &&
			     ws->op != WPSIM_OP_AIO_PWRITE) ||
			    sc->fs[f] != WPSIM_FS_XFS ||
			    !(ws->arg[2] & RWF_NOWAIT) ||
			    (ws->arg[2] & RWF_APPEND) ||
			    ws->arg[0] <= sc->base.files[f].size)
				continue;
			for (size_t u = 0; u < sc->threads_count && !grown;
			     u++) {
				const struct wpsim_thread *wu = &sc->threads[u];
				size_t n = u == t ? i : wu->count;

				for (size_t k = 0; k < n && !grown; k++)
					grown = stmt_may_grow(&wu->stmts[k], f);
			}
			if (grown)
				continue;
			warn(l, st->op_pos, "%s(%s, %lld, %lld, RWF_NOWAIT) "
			     "starts past i_size %lld and nothing in the "
			     "scenario can grow the file before it: XFS "
			     "always answers -EAGAIN "
			     "(xfs_file_write_zero_eof)", st->op,
			     st->args[0].text, (long long)ws->arg[0],
			     (long long)ws->arg[1],
			     (long long)sc->base.files[f].size);
		}
	}
}

static void load_threads(struct loader *l)
{
	struct wpsim_scenario *sc = l->sc;
	const struct litmus_scenario *scn = sc->scn;

	sc->threads_count = scn->threads_count;
	for (size_t t = 0; t < scn->threads_count; t++) {
		const struct litmus_thread *th = &scn->threads[t];
		struct wpsim_thread *wt = &sc->threads[t];

		wt->count = th->stmts_count;
		wt->stmts = calloc(th->stmts_count ? th->stmts_count : 1,
				   sizeof(*wt->stmts));
		if (!wt->stmts)
			abort();
		for (size_t i = 0; i < th->stmts_count; i++)
			load_stmt(l, (int)t, i, &th->stmts[i], &wt->stmts[i]);
		load_runs(l, th, wt);
	}
}

static char *expr_text(const struct litmus_expr *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		abort();
	litmus_expr_print(m, e);
	fclose(m);
	return buf;
}

static void add_leaf(struct wpsim_scenario *sc, const struct litmus_expr *e)
{
	char *text = expr_text(e);

	for (size_t i = 0; i < sc->leaves_count; i++) {
		if (strcmp(sc->leaves[i].text, text) == 0) {
			free(text);
			return;
		}
	}
	sc->leaves = realloc(sc->leaves, (sc->leaves_count + 1) *
			     sizeof(*sc->leaves));
	if (!sc->leaves)
		abort();
	sc->leaves[sc->leaves_count].expr = e;
	sc->leaves[sc->leaves_count].text = text;
	sc->leaves_count++;
}

/* Files named by paths, outcome atoms, and the leaves of the state. */
static void walk_expr(struct loader *l, const struct litmus_expr *e,
		      bool leaves, bool in_count)
{
	struct wpsim_scenario *sc = l->sc;

	if (!e)
		return;
	switch (e->kind) {
	case LITMUS_EXPR_REG:
		if (leaves && !in_count)
			add_leaf(sc, e);
		return;
	case LITMUS_EXPR_PATH: {
		const char *root = e->segs[0].name;
		char known[256];

		char why[256];

		if (wpsim_thread_root(root) >= 0 &&
		    (size_t)wpsim_thread_root(root) >= sc->threads_count)
			report(l, e->pos, "expected a thread P0..P%zu, found "
			       "'%s'", sc->threads_count - 1, root);
		if (!wpsim_path_root_reserved(root) &&
		    file_index(sc, root) < 0 &&
		    wpsim_schema.check_path(&wpsim_schema, e, in_count, why,
					    sizeof(why)) == 0) {
			known_files(sc, known, sizeof(known));
			report(l, e->pos, "unknown file '%s'; known: %s%s",
			       root, known, ", and the groups wb, node, "
			       "dev, folio");
		}
		if (leaves && !in_count)
			add_leaf(sc, e);
		return;
	}
	case LITMUS_EXPR_COUNT:
		if (leaves && !in_count)
			add_leaf(sc, e);
		walk_expr(l, e->left, false, true);
		return;
	case LITMUS_EXPR_OUTCOME:
		if (leaves)
			sc->mentions[e->outcome] = true;
		return;
	case LITMUS_EXPR_AT:
		if (!leaves)
			return;		/* the front end reported it */
		if (sc->ats_count == WPSIM_ATS_MAX) {
			report(l, e->pos, "expected at most %d at(...) "
			       "(WPSIM_ATS_MAX), found more", WPSIM_ATS_MAX);
			return;
		}
		sc->ats[sc->ats_count++] = e;
		if (!in_count)
			add_leaf(sc, e);
		walk_expr(l, e->left, false, false);
		return;
	default:
		walk_expr(l, e->left, leaves, in_count);
		walk_expr(l, e->right, leaves, in_count);
		return;
	}
}

static void load_conditions(struct loader *l)
{
	struct wpsim_scenario *sc = l->sc;
	const struct litmus_scenario *scn = sc->scn;
	static const char *const quant[] = { "", "exists", "~exists",
					     "forall" };

	if (scn->condition.quantifier != LITMUS_QUANT_NONE) {
		char *body = expr_text(scn->condition.expr);
		size_t len = strlen(body) + 16;

		sc->body_text = body;
		sc->condition_text = malloc(len);
		if (!sc->condition_text)
			abort();
		snprintf(sc->condition_text, len, "%s (%s)",
			 quant[scn->condition.quantifier], body);
		walk_expr(l, scn->condition.expr, true, false);
	} else {
		sc->mentions[LITMUS_OUTCOME_VIOLATION] = true;
	}
	sc->always_text = calloc(scn->always_count + 1, sizeof(char *));
	if (!sc->always_text)
		abort();
	for (size_t i = 0; i < scn->always_count; i++) {
		sc->always_text[i] = expr_text(scn->always[i]);
		walk_expr(l, scn->always[i], false, false);
	}
	/* Without a condition, the state shows every register assigned. */
	if (scn->condition.quantifier == LITMUS_QUANT_NONE) {
		for (size_t t = 0; t < scn->threads_count; t++) {
			const struct litmus_thread *th = &scn->threads[t];

			for (size_t i = 0; i < th->stmts_count; i++) {
				struct litmus_expr *e;

				if (th->stmts[i].reg < 0)
					continue;
				e = calloc(1, sizeof(*e));
				if (!e)
					abort();
				e->kind = LITMUS_EXPR_REG;
				e->pos = th->stmts[i].pos;
				e->depth = 1;
				e->reg_thread = (int)t;
				e->reg = th->stmts[i].reg;
				add_leaf(sc, e);
				sc->leaves[sc->leaves_count - 1].expr = e;
			}
		}
	}
}

/* Parse @text (or, when NULL, the file at @path), then every check. */
static struct wpsim_scenario *scenario_load(const char *path,
					    const char *text, size_t len,
					    FILE *err)
{
	struct litmus_errors errors = { 0 };
	struct wpsim_scenario *sc = calloc(1, sizeof(*sc));
	struct loader l = { .sc = sc, .err = err };

	if (!sc)
		abort();
	sc->path = path;
	sc->preemptions = -1;
	/* Syntax first (the first syntax error stops), then every check. */
	sc->scn = text ? litmus_parse(path, text, len, NULL, &errors) :
		  litmus_parse_file(path, NULL, &errors);
	if (!sc->scn) {
		litmus_errors_print(err, &errors);
		free(sc);
		return NULL;
	}
	litmus_validate(sc->scn, &wpsim_schema, &errors);
	for (size_t i = 0; i < errors.count; i++)
		add_error(&l, errors.list[i].pos, errors.list[i].text);
	m_world_config_default(&sc->base);
	sc->base.nr_files = 0;
	load_items(&l);
	load_threads(&l);
	if (!l.errors)
		warn_nowait_past_eof(&l);
	load_conditions(&l);
	qsort(l.warnings, l.warnings_count, sizeof(l.warnings[0]), error_cmp);
	for (size_t i = 0; i < l.warnings_count; i++)
		fprintf(err, "%s\n", l.warnings[i].text);
	if (l.errors) {
		qsort(l.list, l.count, sizeof(l.list[0]), error_cmp);
		for (size_t i = 0; i < l.count; i++)
			fprintf(err, "%s\n", l.list[i].text);
		if (errors.truncated || l.errors > l.count)
			fprintf(err, "(more errors not shown)\n");
		wpsim_scenario_free(sc);
		return NULL;
	}
	return sc;
}

struct wpsim_scenario *wpsim_scenario_load(const char *path, FILE *err)
{
	return scenario_load(path, NULL, 0, err);
}

struct wpsim_scenario *wpsim_scenario_load_text(const char *name,
						const char *text, size_t len,
						FILE *err)
{
	return scenario_load(name, text, len, err);
}

void wpsim_scenario_free(struct wpsim_scenario *sc)
{
	if (!sc)
		return;
	for (size_t t = 0; t < sc->threads_count; t++) {
		free(sc->threads[t].stmts);
		free(sc->threads[t].run_stmt);
	}
	for (size_t i = 0; i < sc->leaves_count; i++) {
		if (sc->scn->condition.quantifier == LITMUS_QUANT_NONE)
			free((void *)sc->leaves[i].expr);
		free(sc->leaves[i].text);
	}
	free(sc->leaves);
	if (sc->always_text)
		for (size_t i = 0; i < sc->scn->always_count; i++)
			free(sc->always_text[i]);
	free(sc->always_text);
	free(sc->condition_text);
	free(sc->body_text);
	litmus_free(sc->scn);
	free(sc);
}

/* ---- running ------------------------------------------------------------- */

struct task_arg {
	struct wpsim_exec *x;
	int thread;
};

static struct task_arg task_args[LITMUS_THREADS_MAX];

/* The step the running task is in: that of the last event recorded. */
static uint32_t current_step(void)
{
	const struct sim_event *events;
	uint32_t n = sim_exec_events(&events);

	return n ? events[n - 1].step : 0;
}

/*
 * The statements that are syscalls, one row each: the model's syscall
 * (include/model/linux/syscalls.h) and how the statement's numbers map to
 * its arguments: arg[0] is the offset (the size for truncate), arg[1] the
 * length, arg[2] the flags (RWF_*, FALLOC_FL_*, SYNC_FILE_RANGE_*) unless
 * the row fixes them, arg[3] the fault_after of a write.  The file's
 * f_op (XFS or ext4) decides the rest.  docs/HACKING.md "Add a syscall".
 */
static const struct {
	bool syscall;
	enum m_sys nr;
	bool fixed;		/* the flags are @flags, not arg[2] */
	unsigned int flags;
} op_syscalls[WPSIM_OP_COUNT] = {
	[WPSIM_OP_PWRITE] = { true, M_SYS_PWRITE64, true, 0 },
	[WPSIM_OP_PWRITEV2] = { true, M_SYS_PWRITEV2, false, 0 },
	[WPSIM_OP_PREAD] = { true, M_SYS_PREADV2, false, 0 },
	[WPSIM_OP_FSYNC] = { true, M_SYS_FSYNC, true, 0 },
	[WPSIM_OP_FDATASYNC] = { true, M_SYS_FDATASYNC, true, 0 },
	[WPSIM_OP_SYNC_FILE_RANGE] = { true, M_SYS_SYNC_FILE_RANGE, false, 0 },
	[WPSIM_OP_MUNMAP] = { true, M_SYS_MUNMAP, true, 0 },
	[WPSIM_OP_TRUNCATE] = { true, M_SYS_FTRUNCATE, true, 0 },
	[WPSIM_OP_FALLOCATE] = { true, M_SYS_FALLOCATE, false, 0 },
	[WPSIM_OP_PUNCH_HOLE] = { true, M_SYS_FALLOCATE, true,
				  KM_FALLOC_FL_PUNCH_HOLE |
				  KM_FALLOC_FL_KEEP_SIZE },
	[WPSIM_OP_OPEN] = { true, M_SYS_OPEN, true, 0 },
	[WPSIM_OP_AIO_PWRITE] = { true, M_SYS_IO_SUBMIT, false, 0 },
};

/* A statement that is no syscall: a store, the flusher, io_uring. */
static int64_t do_model_op(struct wpsim_exec *x, int thread, size_t index,
			   const struct wpsim_stmt *st, struct km_file *file)
{
	switch (st->op) {
	case WPSIM_OP_MMAP_STORE:
		return m_mmap_store(file, st->arg[0], (size_t)st->arg[1],
				    st->data_id);
	case WPSIM_OP_WRITEBACK:
		return m_writeback_inode(file->f_inode, (int)st->arg[0]);
	case WPSIM_OP_IO_URING_WRITE: {
		struct m_io_uring_req *req = sim_arena_alloc(sizeof(*req));

		m_io_uring_req_init(req, file, st->arg[0], (size_t)st->arg[1],
				    (unsigned int)st->arg[2], st->data_id);
		x->uring[thread][index] = req;
		x->uring_last[thread] = req;
		x->uring_requests[thread]++;
		return m_io_uring_write(req);
	}
	default:
		break;
	}
	sim_fail(SIM_FAIL_ASSERT, "unknown op %d", (int)st->op);
}

static int64_t do_op(struct wpsim_exec *x, int thread, size_t index,
		     const struct wpsim_stmt *st)
{
	struct m_world *w = m_world();
	struct km_file *file = st->fd >= 0 ? x->fds[st->fd] :
			       w->files[st->file];
	struct m_sys_args args = {
		.file = file, .pos = st->arg[0], .len = (size_t)st->arg[1],
		.flags = (unsigned int)st->arg[2], .data_id = st->data_id,
		.fault_after = (size_t)st->arg[3], .out = x->read_buf,
		.decision = &x->dio[thread],
	};

	if (!op_syscalls[st->op].syscall)
		return do_model_op(x, thread, index, st, file);
	if (op_syscalls[st->op].fixed)
		args.flags = op_syscalls[st->op].flags;
	if (st->op == WPSIM_OP_OPEN) {
		/* The fd item's description is closed (its ->release),
		 * then a new one of the file opened, as the fd item says. */
		m_syscall(M_SYS_CLOSE, &(struct m_sys_args){
			.file = x->fds[st->fd] });
		args.file = w->files[st->file];
		args.flags = x->sc->fd_flags[st->fd];
		args.opened = &x->fds[st->fd];
	}
	if (st->op == WPSIM_OP_AIO_PWRITE) {
		/* io_submit, then io_getevents for this one request. */
		struct m_aio_req *req = sim_arena_alloc(sizeof(*req));
		long ret;

		memset(req, 0, sizeof(*req));
		args.aio = req;
		/* A write: the io_submit row reads when it is given a
		 * buffer to read into (IOCB_CMD_PREAD). */
		args.out = NULL;
		ret = m_syscall(M_SYS_IO_SUBMIT, &args);
		if (ret < 0 && ret != -KM_EIOCBQUEUED)
			return ret;
		return m_aio_wait(req);
	}
	if (st->op == WPSIM_OP_PREAD &&
	    x->read_buf_pages < m_file_pages_max)
		sim_fail(SIM_FAIL_BOUND, "the read buffer holds %lu pages, "
			 "the file %lu", x->read_buf_pages, m_file_pages_max);
	if (st->op == WPSIM_OP_OPEN) {
		long ret = m_syscall(op_syscalls[st->op].nr, &args);

		/* The fd item's advice on the new description, in the
		 * open's last step (posix_fadvise right after open(2); no
		 * other task holds the description yet). */
		if (ret >= 0 && x->fds[st->fd] &&
		    x->sc->fd_advice_random[st->fd])
			x->fds[st->fd]->f_mode |= FMODE_RANDOM;
		return ret;
	}
	return m_syscall(op_syscalls[st->op].nr, &args);
}

static struct litmus_env make_env(struct wpsim_exec *x);

/*
 * Statement i of thread t returned: evaluate each at(L, e) whose L it
 * is on the state of this moment (peeks, no scheduling point), as the
 * always clauses are evaluated after a step.
 */
/*
 * No evaluation error kept: errors_vadd() writes every field of an entry
 * it adds and readers stop at .count, so its 9.2 KB list is not zeroed
 * in every evaluation (issue 28 M9b, session 21: docs/performance.md).
 */
static void eval_errors_clear(struct wpsim_exec *x)
{
	x->eval_errors.count = 0;
	x->eval_errors.truncated = false;
}

static void at_snapshot(struct wpsim_exec *x, int t, size_t i)
{
	const struct wpsim_scenario *sc = x->sc;

	for (size_t k = 0; k < sc->ats_count; k++) {
		const struct litmus_expr *e = sc->ats[k];
		struct litmus_env env;
		int64_t v;

		if (e->at_thread != t || e->at_stmt != (int)i)
			continue;
		env = make_env(x);
		eval_errors_clear(x);
		x->kind = SIM_OK;
		v = litmus_eval(e->left, &env);
		if (litmus_eval_failed(&env))
			sim_fail(SIM_FAIL_INVARIANT, "at(%s, ...) at %u:%u: %s",
				 e->label, e->pos.line, e->pos.col,
				 x->eval_errors.count ?
				 x->eval_errors.list[0].message : "error");
		x->at_value[k] = v;
		x->at_done[k] = true;
	}
}

static void thread_fn(void *arg)
{
	struct task_arg *ta = arg;
	struct wpsim_exec *x = ta->x;
	const struct wpsim_thread *th = &x->sc->threads[ta->thread];

	for (size_t k = 0; k < th->runs; k++) {
		size_t i = th->run_stmt[k];
		const struct wpsim_stmt *st = &th->stmts[i];
		struct wpsim_span *span = x->trace ?
			&x->spans[ta->thread][k] : NULL;
		int64_t v;

		if (span) {
			span->started = true;
			span->start_step = current_step();
			span->start_ns = sim_now();
			span->task = sim_task_current();
		}
		v = do_op(x, ta->thread, i, st);
		if (st->reg >= 0)
			x->regs[ta->thread][st->reg] = v;
		if (span) {
			span->done = true;
			span->end_step = current_step();
			span->end_ns = sim_now();
			span->ret = v;
		}
		at_snapshot(x, ta->thread, i);
	}
}

static void always_check(void *arg)
{
	struct wpsim_exec *x = arg;
	const struct litmus_scenario *scn = x->sc->scn;

	for (size_t i = 0; i < scn->always_count; i++) {
		struct litmus_env env = make_env(x);
		int64_t v;

		eval_errors_clear(x);
		x->kind = SIM_OK;
		v = litmus_eval(scn->always[i], &env);
		if (litmus_eval_failed(&env))
			sim_fail(SIM_FAIL_INVARIANT, "always (%s) at %u:%u: "
				 "%s", x->sc->always_text[i],
				 scn->always_pos[i].line,
				 scn->always_pos[i].col,
				 x->eval_errors.count ?
				 x->eval_errors.list[0].message : "error");
		if (!v)
			sim_fail(SIM_FAIL_INVARIANT, "always (%s) does not "
				 "hold (%s:%u:%u)", x->sc->always_text[i],
				 x->sc->path, scn->always_pos[i].line,
				 scn->always_pos[i].col);
	}
}

static void hook_check(void *arg)
{
	struct wpsim_exec *x = arg;

	x->step_hook(x->step_hook_ctx);
}

/*
 * What scenario_setup writes outside the arena, for the snapshot after
 * setup (include/sim/snapshot.h): the registers and the other per-thread
 * records it resets, the fds it opens, the tasks' arguments.
 */
static void scenario_setup_statics(struct wpsim_exec *x)
{
	size_t threads = x->sc->threads_count;

	/* Rows of threads that do not exist stay zero: only those used. */
	sim_setup_static(x->regs, threads * sizeof(x->regs[0]),
			 "scenario.regs");
	sim_setup_static(x->at_value, sizeof(x->at_value), "scenario.at_value");
	sim_setup_static(x->at_done, sizeof(x->at_done), "scenario.at_done");
	sim_setup_static(x->dio, threads * sizeof(x->dio[0]), "scenario.dio");
	sim_setup_static(x->uring, threads * sizeof(x->uring[0]),
			 "scenario.uring");
	sim_setup_static(x->uring_last, threads * sizeof(x->uring_last[0]),
			 "scenario.uring_last");
	sim_setup_static(x->uring_requests,
			 threads * sizeof(x->uring_requests[0]),
			 "scenario.uring_requests");
	sim_setup_static(x->fds, sizeof(x->fds), "scenario.fds");
	sim_setup_static(task_args, threads * sizeof(task_args[0]),
			 "scenario.task_args");
	if (x->trace)
		for (size_t t = 0; t < threads; t++)
			sim_setup_static(x->spans[t], x->sc->threads[t].runs *
					 sizeof(struct wpsim_span),
					 "scenario.spans");
}

static void scenario_setup(void *config)
{
	struct wpsim_exec *x = config;

	scenario_setup_statics(x);
	memset(x->regs, 0, sizeof(x->regs));
	memset(x->at_value, 0, sizeof(x->at_value));
	memset(x->at_done, 0, sizeof(x->at_done));
	memset(x->dio, 0, sizeof(x->dio));
	memset(x->uring, 0, sizeof(x->uring));
	memset(x->uring_last, 0, sizeof(x->uring_last));
	memset(x->uring_requests, 0, sizeof(x->uring_requests));
	if (x->trace)
		for (size_t t = 0; t < x->sc->threads_count; t++)
			memset(x->spans[t], 0, x->sc->threads[t].runs *
			       sizeof(struct wpsim_span));
	/* First, so that it sees every step even if a later check fails. */
	if (x->step_hook)
		sim_check_register("trace", hook_check, NULL, x);
	m_world_setup(&x->config);
	memset(x->fds, 0, sizeof(x->fds));
	for (unsigned int i = 0; i < x->sc->nr_fds; i++) {
		x->fds[i] = m_file_open(m_world()->inodes[x->sc->fd_file[i]],
					x->sc->fd_flags[i]);
		/* The fd's advice, before any task runs. */
		if (x->sc->fd_advice_random[i])
			x->fds[i]->f_mode |= FMODE_RANDOM;
	}
	if (x->sc->scn->always_count)
		sim_check_register("always", always_check, NULL, x);
	for (size_t t = 0; t < x->sc->threads_count; t++) {
		char name[8];

		snprintf(name, sizeof(name), "P%zu", t);
		task_args[t].x = x;
		task_args[t].thread = (int)t;
		sim_task_spawn(name, thread_fn, &task_args[t]);
	}
}

static void scenario_final(void *config)
{
	char why[256];

	(void)config;
	if (!m_world_quiescent_check(why, sizeof(why)))
		sim_fail(SIM_FAIL_INVARIANT, "at quiescence: %s", why);
}

void wpsim_exec_init(struct wpsim_exec *x, const struct wpsim_scenario *sc,
		     const struct wpsim_variant *variant)
{
	char v[256];

	memset(x, 0, sizeof(*x));
	x->sc = sc;
	x->variant = *variant;
	x->config = sc->base;
	wpsim_variant_apply(&x->config, variant);
	wpsim_variant_format(v, sizeof(v), variant, &sc->defaults, " ");
	snprintf(x->name, sizeof(x->name), "%s%s%s", sc->scn->name,
		 v[0] ? " " : "", v);
	x->program = (struct sim_program){
		.name = x->name,
		.description = sc->scn->description,
		.setup = scenario_setup,
		.final = scenario_final,
		.config = x,
	};
	sim_setup_snapshot_allow(scenario_setup);
	for (size_t t = 0; t < sc->threads_count; t++) {
		x->spans[t] = calloc(sc->threads[t].runs + 1,
				     sizeof(struct wpsim_span));
		if (!x->spans[t])
			abort();
	}
	/* pread's destination, a sector each (no malloc in a task). */
	x->read_buf_pages = m_file_pages_max;
	x->read_buf = malloc((m_file_pages_max * SECTORS_PER_PAGE + 1) *
			     sizeof(*x->read_buf));
	if (!x->read_buf)
		abort();
}

void wpsim_exec_fini(struct wpsim_exec *x)
{
	for (size_t t = 0; t < LITMUS_THREADS_MAX; t++)
		free(x->spans[t]);
	free(x->read_buf);
	memset(x, 0, sizeof(*x));
}

void wpsim_replay_command(char *buf, size_t size, const struct wpsim_exec *x,
			  const char *schedule)
{
	size_t len;

	len = (size_t)snprintf(buf, size, "wpsim run %s", x->sc->path);
	for (size_t k = 0; k < wpsim_variant_keys_count && len < size; k++) {
		if (x->variant.value[k] == x->sc->defaults.value[k])
			continue;
		len += (size_t)snprintf(buf + len, size - len,
					" --variant %s=%s",
					wpsim_variant_keys[k].key,
					wpsim_variant_keys[k].values[
						x->variant.value[k]]);
	}
	if (sim_clock_config()->cpus != SIM_CPUS_DEFAULT && len < size)
		len += (size_t)snprintf(buf + len, size - len, " --cpus %u",
					sim_clock_config()->cpus);
	if (m_file_pages_max != M_FILE_PAGES_DEFAULT && len < size)
		len += (size_t)snprintf(buf + len, size - len,
					" --max-pages %lu", m_file_pages_max);
	if (x->steps_option && len < size)
		len += (size_t)snprintf(buf + len, size - len, " --steps %u",
					x->steps_option);
	if (schedule && len < size)
		snprintf(buf + len, size - len, " --schedule %s", schedule);
}

/* ---- evaluating ---------------------------------------------------------- */

int wpsim_outcome_atom(enum sim_failure_kind kind)
{
	switch (kind) {
	case SIM_OK:
		return -1;
	case SIM_FAIL_DEADLOCK:
		return LITMUS_OUTCOME_DEADLOCK;
	case SIM_FAIL_STUCK:
		return LITMUS_OUTCOME_STUCK;
	case SIM_FAIL_ASSERT:
	case SIM_FAIL_INVARIANT:
	case SIM_FAIL_PROPERTY:
		return LITMUS_OUTCOME_VIOLATION;
	default:
		return -2;
	}
}

/*
 * f.folio[i].<field>, folio.<field>: the path's field (schema.c) as the
 * model's (observe.c), the mark and PTE names as their bits.
 */
static int64_t folio_field(const struct km_folio *folio,
			   const struct litmus_path_seg *segs, size_t n)
{
	static const enum m_folio_field fields[] = {
		[WPSIM_FOLIO_FLAG] = M_FOLIO_FIELD_FLAG,
		[WPSIM_FOLIO_PRESENT] = M_FOLIO_FIELD_PRESENT,
		[WPSIM_FOLIO_MAPPED] = M_FOLIO_FIELD_MAPPED,
		[WPSIM_FOLIO_INDEX] = M_FOLIO_FIELD_INDEX,
		[WPSIM_FOLIO_PAGES] = M_FOLIO_FIELD_PAGES,
		[WPSIM_FOLIO_MARK] = M_FOLIO_FIELD_MARK,
		[WPSIM_FOLIO_PTE] = M_FOLIO_FIELD_PTE,
	};
	static const unsigned int pte_bits[] = { M_PTE_PRESENT, M_PTE_WRITE,
						 M_PTE_DIRTY };
	int kind, which;

	if (wpsim_folio_field(segs, n, &kind, &which) != 0 ||
	    (unsigned int)kind >= sizeof(fields) / sizeof(fields[0]))
		return 0;
	if (kind == WPSIM_FOLIO_MARK)
		which = wpsim_mark_bit(which);
	else if (kind == WPSIM_FOLIO_PTE)
		which = (int)pte_bits[which];
	return m_folio_field(folio, fields[kind], (unsigned int)which);
}

/* Pn.<field>: the thread's last O_DIRECT write and io_uring request. */
static int64_t thread_field(const struct wpsim_exec *x, int t, int field)
{
	const struct m_ext4_dio_decision *d = &x->dio[t];
	const struct m_io_uring_req *req = x->uring_last[t];

	switch (field) {
	case WPSIM_TF_DIO_WRITES:
		return d->writes;
	case WPSIM_TF_ISSUED:
		return d->issued;
	case WPSIM_TF_SHARED:
		return d->issued && d->shared;
	case WPSIM_TF_EXCLUSIVE:
		return d->issued && !d->shared;
	case WPSIM_TF_DIO_WAIT:
		return d->dio_wait;
	case WPSIM_TF_FORCE_WAIT:
		return d->force_wait;
	case WPSIM_TF_NEEDS_ZEROING:
		return d->needs_zeroing;
	case WPSIM_TF_RESTARTS:
		return d->restarts;
	case WPSIM_TF_ZERO_BIOS:
		return d->zero_bios;
	case WPSIM_TF_URING_REQUESTS:
		return x->uring_requests[t];
	}
	if (!req)
		return 0;
	switch (field) {
	case WPSIM_TF_PUNTED:
		return m_io_uring_req_field(req, M_URING_FIELD_PUNTED);
	case WPSIM_TF_HANDOFFS:
		return m_io_uring_req_field(req, M_URING_FIELD_HANDOFFS);
	case WPSIM_TF_INLINE_ATTEMPTS:
		return m_io_uring_req_field(req,
					    M_URING_FIELD_INLINE_ATTEMPTS);
	case WPSIM_TF_WORKER_ATTEMPTS:
		return m_io_uring_req_field(req,
					    M_URING_FIELD_WORKER_ATTEMPTS);
	case WPSIM_TF_INLINE_BYTES:
		return m_io_uring_req_field(req, M_URING_FIELD_INLINE_BYTES);
	default:
		return 0;
	}
}

/* uring.<field>: sums over every request submitted so far. */
static int64_t uring_field(const struct wpsim_exec *x, int field)
{
	static const enum m_uring_field fields[] = {
		[WPSIM_UF_INLINE_DONE] = M_URING_FIELD_INLINE_DONE,
		[WPSIM_UF_PUNTED] = M_URING_FIELD_PUNTED,
		[WPSIM_UF_HANDOFFS] = M_URING_FIELD_HANDOFFS,
		[WPSIM_UF_INLINE_ATTEMPTS] = M_URING_FIELD_INLINE_ATTEMPTS,
		[WPSIM_UF_WORKER_ATTEMPTS] = M_URING_FIELD_WORKER_ATTEMPTS,
		[WPSIM_UF_CQES] = M_URING_FIELD_CQES,
		[WPSIM_UF_INLINE_BYTES] = M_URING_FIELD_INLINE_BYTES,
	};
	int64_t sum = 0;

	for (size_t t = 0; t < x->sc->threads_count; t++) {
		for (size_t i = 0; i < x->sc->threads[t].count; i++) {
			const struct m_io_uring_req *req = x->uring[t][i];

			if (!req)
				continue;
			if (field == WPSIM_UF_REQUESTS)
				sum++;
			else
				sum += m_io_uring_req_field(req,
							    fields[field]);
		}
	}
	return sum;
}

static int eval_path(const struct litmus_env *env,
		     const struct litmus_expr *ref, int64_t *value)
{
	struct wpsim_exec *x = env->ctx;
	struct m_world *w = m_world();
	const struct litmus_path_seg *s = ref->segs;
	size_t n = ref->segs_count;
	const char *root = s[0].name;
	struct km_inode *inode;
	int f, i;

	if (!w) {
		litmus_eval_fail(env, ref, "no world to evaluate in");
		return -1;
	}
	if (strcmp(root, "wb") == 0) {
		if (strcmp(s[1].name, "dirty_limit") == 0) {
			*value = (int64_t)sim_word_peek(&w->wb.dirty_limit);
			return 0;
		}
		i = wpsim_wb_stat_find(s[1].name);
		*value = (int64_t)sim_word_peek(&w->wb.stat[i]);
		return 0;
	}
	if (strcmp(root, "node") == 0) {
		i = wpsim_node_stat_find(s[1].name);
		*value = (int64_t)sim_word_peek(&w->node.stat[i]);
		return 0;
	}
	if (strcmp(root, "dev") == 0) {
		static const size_t off[] = {
			offsetof(struct m_blkdev, reads),
			offsetof(struct m_blkdev, writes),
			offsetof(struct m_blkdev, bios_submitted),
		};

		i = wpsim_dev_field(s[1].name);
		if (i == 3) {	/* free_blocks: m_fdblocks */
			if (!w->fdblocks_counted) {
				litmus_eval_fail(env, ref, "dev.free_blocks: "
						 "no free-space count (give "
						 "'device: free_blocks=N;')");
				return -1;
			}
			*value = (int64_t)sim_word_peek(&w->fdblocks);
			return 0;
		}
		*value = (int64_t)sim_word_peek((const struct sim_word *)
			((const char *)&w->dev + off[i]));
		return 0;
	}
	if (strcmp(root, "folio") == 0) {
		*value = folio_field(x->count_folio, s + 1, n - 1);
		return 0;
	}
	if (strcmp(root, "uring") == 0) {
		*value = uring_field(x, wpsim_uring_field(s[1].name));
		return 0;
	}
	if (wpsim_thread_root(root) >= 0) {
		*value = thread_field(x, wpsim_thread_root(root),
				      wpsim_thread_field(s[1].name));
		return 0;
	}
	f = file_index(x->sc, root);
	if (f < 0 || (unsigned int)f >= w->nr_files) {
		litmus_eval_fail(env, ref, "unknown file '%s'", root);
		return -1;
	}
	inode = w->inodes[f];
	if (strcmp(s[1].name, "folio") == 0) {
		const struct km_folio *folio;

		if (s[1].index >= 0)
			folio = m_world_folio_at(inode, s[1].index);
		else	/* inside count: the current folio if it is f's */
			folio = x->count_folio &&
				x->count_folio->owner->host == inode ?
				x->count_folio : NULL;
		*value = folio_field(folio, s + 2, n - 2);
		return 0;
	}
	if (strcmp(s[1].name, "disk") == 0) {
		*value = m_dev_data(&w->dev, m_inode_sector(inode, s[1].index <<
						    SECTOR_SHIFT));
		return 0;
	}
	if (strcmp(s[1].name, "block") == 0) {
		*value = m_extent_peek(inode, (unsigned long)s[1].index) ==
			 wpsim_block_state(s[2].name);
		return 0;
	}
	if (strcmp(s[1].name, "uptodate") == 0) {
		/* The sector's block is uptodate in its folio (PG_uptodate
		 * or the block's bit in iomap_folio_state); -1 without a
		 * folio. */
		const struct km_folio *folio = m_world_folio_at(inode, s[1].index /
							(int64_t)
							SECTORS_PER_PAGE);

		*value = !folio ? -1 : m_folio_block_uptodate(folio, inode,
			(size_t)((s[1].index << SECTOR_SHIFT) -
				 km_folio_pos(folio)));
		return 0;
	}
	if (strcmp(s[1].name, "cache") == 0) {
		const struct km_folio *folio = m_world_folio_at(inode, s[1].index /
							(int64_t)
							SECTORS_PER_PAGE);

		if (!folio) {
			*value = -1;
			return 0;
		}
		*value = m_folio_sector(folio, (size_t)
					(((s[1].index << SECTOR_SHIFT) -
					  km_folio_pos(folio)) >> SECTOR_SHIFT));
		return 0;
	}
	switch (wpsim_file_scalar(s[1].name)) {
	case 0:		/* i_size */
		*value = (int64_t)sim_word_peek(&inode->i_size);
		return 0;
	case 1:		/* nrpages */
		*value = (int64_t)sim_word_peek(&inode->i_data.nrpages);
		return 0;
	case 2:		/* wb_err: the errno part of the errseq_t */
		*value = -(int64_t)(sim_word_peek(&inode->i_data.wb_err) &
				    0xfff);
		return 0;
	case 3:
		*value = m_world_lost_sectors(inode, NULL);
		return 0;
	case 4:		/* stale_times: file_modified would act */
		*value = (int64_t)sim_word_peek(&inode->time_needs_update);
		return 0;
	default:
		litmus_eval_fail(env, ref, "unknown file field '%s'",
				 s[1].name);
		return -1;
	}
}

static int eval_reg(const struct litmus_env *env,
		    const struct litmus_expr *ref, int64_t *value)
{
	struct wpsim_exec *x = env->ctx;

	*value = x->regs[ref->reg_thread][ref->reg];
	return 0;
}

static int eval_count(const struct litmus_env *env,
		      const struct litmus_expr *count, int64_t *value)
{
	struct wpsim_exec *x = env->ctx;
	struct m_world *w = m_world();
	int64_t n = 0;

	for (uint32_t id = 1; w && id <= w->nr_folios; id++) {
		const struct km_folio *folio = w->folios[id];
		int64_t v;

		if (!sim_word_peek(&folio->mapping))
			continue;
		x->count_folio = folio;
		v = litmus_eval(count->left, env);
		x->count_folio = NULL;
		if (litmus_eval_failed(env))
			return -1;
		n += v != 0;
	}
	*value = n;
	return 0;
}

static int eval_outcome(const struct litmus_env *env,
			enum litmus_outcome outcome, int64_t *value)
{
	struct wpsim_exec *x = env->ctx;

	*value = wpsim_outcome_atom(x->kind) == (int)outcome;
	return 0;
}

static int eval_at(const struct litmus_env *env, const struct litmus_expr *at,
		   int64_t *value)
{
	struct wpsim_exec *x = env->ctx;

	for (size_t k = 0; k < x->sc->ats_count; k++) {
		if (x->sc->ats[k] != at)
			continue;
		if (!x->at_done[k]) {
			litmus_eval_fail(env, at, "at(%s, ...): the statement "
					 "labelled %s never returned in this "
					 "execution (test 'stuck' or "
					 "'deadlock' first)", at->label,
					 at->label);
			return -1;
		}
		*value = x->at_value[k];
		return 0;
	}
	litmus_eval_fail(env, at, "at(%s, ...) outside the condition",
			 at->label);
	return -1;
}

static struct litmus_env make_env(struct wpsim_exec *x)
{
	return (struct litmus_env){
		.at = eval_at,
		.ctx = x,
		.file = x->sc->path,
		.reg = eval_reg,
		.path = eval_path,
		.count = eval_count,
		.outcome = eval_outcome,
		.errors = &x->eval_errors,
	};
}

/*
 * A leaf's value as a final state shows it: a register (an op's return)
 * and f.wb_err are -errno when negative ("-EIO"); f.cache[S] is -1 when
 * no folio caches sector S, which says so ("-1 (no folio)"), not -EPERM;
 * anything else is its number.
 */
/*
 * Append @text to @buf (@size bytes) at *@len as snprintf(buf + *len,
 * size - *len, "%s", text) does, *@len growing by strlen(@text) even
 * past what fits: the state is made per execution, printf is slow.
 */
static void state_append(char *buf, size_t size, size_t *len,
			 const char *text)
{
	size_t n = strlen(text);

	if (*len < size) {
		size_t room = size - *len - 1;
		size_t k = n < room ? n : room;

		memcpy(buf + *len, text, k);
		buf[*len + k] = '\0';
	}
	*len += n;
}

static void leaf_value_text(char *buf, size_t size,
			    const struct litmus_expr *e, int64_t v)
{
	const char *last = e->kind == LITMUS_EXPR_PATH && e->segs_count ?
			   e->segs[e->segs_count - 1].name : NULL;
	bool errno_valued = e->kind == LITMUS_EXPR_REG ||
			    (last && strcmp(last, "wb_err") == 0);
	const char *name = errno_valued && v < 0 && v >= -4095 ?
			   litmus_errno_name((int)-v) : NULL;
	char digits[24], *d = digits + sizeof(digits);
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	size_t len = 0;

	buf[0] = '\0';
	if (name) {
		state_append(buf, size, &len, "-");
		state_append(buf, size, &len, name);
		return;
	}
	if (last && strcmp(last, "cache") == 0 && v == -1) {
		state_append(buf, size, &len, "-1 (no folio)");
		return;
	}
	/* "%lld" */
	*--d = '\0';
	do
		*--d = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--d = '-';
	state_append(buf, size, &len, d);
}

int wpsim_exec_evaluate(struct wpsim_exec *x, enum sim_failure_kind kind,
			char *state, size_t state_size)
{
	const struct litmus_scenario *scn = x->sc->scn;
	struct litmus_env env = make_env(x);
	int atom = wpsim_outcome_atom(kind);
	size_t len = 0;
	int64_t body;

	eval_errors_clear(x);
	x->kind = kind;
	x->count_folio = NULL;
	state[0] = '\0';
	for (size_t i = 0; i < x->sc->leaves_count && len < state_size;
	     i++) {
		const struct litmus_expr *e = x->sc->leaves[i].expr;
		int64_t v = litmus_eval(e, &env);
		char text[64];

		if (litmus_eval_failed(&env))
			return -1;
		leaf_value_text(text, sizeof(text), e, v);
		/* snprintf(state + len, .., "%s%s=%s;", ...) */
		{
			size_t at = len;

			len = 0;
			state_append(state + at, state_size - at, &len,
				     at ? " " : "");
			state_append(state + at, state_size - at, &len,
				     x->sc->leaves[i].text);
			state_append(state + at, state_size - at, &len, "=");
			state_append(state + at, state_size - at, &len, text);
			state_append(state + at, state_size - at, &len, ";");
			len += at;
		}
	}
	if (atom != -1 && len < state_size)
		snprintf(state + len, state_size - len, "%s%s", len ? " " : "",
			 atom >= 0 ? litmus_outcome_name(
				 (enum litmus_outcome)atom) :
			 sim_failure_kind_name(kind));
	if (scn->condition.quantifier == LITMUS_QUANT_NONE)
		return atom == LITMUS_OUTCOME_VIOLATION;
	body = litmus_eval(scn->condition.expr, &env);
	if (litmus_eval_failed(&env))
		return -1;
	return body != 0;
}
