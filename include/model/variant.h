/* SPDX-License-Identifier: MIT */
/*
 * The model's variants: the versions of a kernel algorithm a run selects
 * (`--variant KEY=VALUE`, a scenario's `variant` item and `expect` lines,
 * wpsim_race_variant()), and the test-only break= switches.
 *
 * This header is the registry: each key is one row of M_VARIANT_KEYS
 * below, and each of its values one row of the key's value list.  The
 * enums the model compares against (M_DC_V11, ...), the fields of struct
 * m_world_config and struct m_world (dontcache, ...), the spellings,
 * their one-line help and their aliases all come from these rows, so a
 * new variant is a value list and a key row here (docs/HACKING.md, "Add
 * a variant of a kernel function") and nothing else outside the model
 * code that reads it.  model/variant.c holds the one parser every front
 * end calls.
 *
 * A value row is X(ENUM, "name", "alias" or NULL, "help"): ENUM is the
 * constant the model reads, "name" the spelling (an identifier, as a
 * scenario file needs), "alias" a second spelling --variant also takes
 * ("6.18"), "help" one line for `wpsim list variants`.  The first value
 * of a key is its default.
 */
#ifndef WPSIM_MODEL_VARIANT_H
#define WPSIM_MODEL_VARIANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ---- the values of each key ------------------------------------------- */

/* --variant dontcache=...: RWF_DONTCACHE accounting (seed 003). */
#define M_DONTCACHE_VALUES(X)						\
	X(M_DC_6_18, "v6_18", "6.18",					\
	  "mainline v6.18: no WB_DONTCACHE_DIRTY")			\
	X(M_DC_7_3, "v7_3", "7.3",					\
	  "mainline v7.3 (88d6f128d06d): WB_DONTCACHE_DIRTY kept")	\
	X(M_DC_V11, "v11", NULL, "seed 003, v11 of the series")		\
	X(M_DC_V12, "v12", NULL, "seed 003, v12 of the series")

/*
 * --variant break=...: test-only switches that break the model on
 * purpose, so that a scenario or a test proves its check catches the
 * bug.  Never set outside tests.  ENUM is a bit of struct
 * m_world_config's breaks; the model tests it with m_broken(ENUM)
 * (model/world.h).  break=none, no bit, is the first value.
 */
#define M_BREAK_SWITCHES(X)						\
	X(M_BREAK_TAG_BEFORE_DIRTY_TEST, "tag_before_dirty_test", NULL,	\
	  "__folio_start_writeback clears the DIRTY mark even if PG_dirty") \
	X(M_BREAK_TRUNCATE_NO_WAIT, "truncate_no_wait", NULL,		\
	  "truncate removes folios without waiting for PG_writeback")	\
	X(M_BREAK_TRUNCATE_NO_DIO_WAIT, "truncate_no_dio_wait", NULL,	\
	  "XFS truncate skips inode_dio_wait: blocks are freed under "	\
	  "direct I/O in flight")					\
	X(M_BREAK_ERRSEQ_NO_SEEN, "errseq_no_seen", NULL,		\
	  "errseq_set forgets the SEEN flag")				\
	X(M_BREAK_CLEAR_DIRTY_NO_MKCLEAN, "clear_dirty_no_mkclean", NULL, \
	  "folio_clear_dirty_for_io skips folio_mkclean")		\
	X(M_BREAK_NO_REDIRTY_UNDER_WRITEBACK,				\
	  "no_redirty_under_writeback", NULL,				\
	  "a buffered write into a folio under writeback leaves it clean") \
	X(M_BREAK_DIO_NO_POST_INVALIDATE, "dio_no_post_invalidate", NULL, \
	  "a direct write skips kiocb_invalidate_post_direct_write")	\
	X(M_BREAK_DIO_UNALIGNED_SHARED, "dio_unaligned_shared", NULL,	\
	  "XFS: a direct write not aligned to the block size runs as an "\
	  "aligned one (shared IOLOCK, no serialised sub-block zeroing)") \
	X(M_BREAK_DIO_READ_NO_FLUSH, "dio_read_no_flush", NULL,	\
	  "a direct read skips kiocb_write_and_wait (reads the disk "	\
	  "under dirty folios)")					\
	X(M_BREAK_RWSEM_READ_IGNORES_WAITERS,				\
	  "rwsem_read_ignores_waiters", NULL,				\
	  "rwsem=exact: the read fast path ignores RWSEM_FLAG_WAITERS, " \
	  "so a new reader jumps a queued writer")			\
	X(M_BREAK_WRITETHROUGH_STABLE_END_EARLY,			\
	  "writethrough_stable_end_early", NULL,			\
	  "writethrough: the stable-writes hold ends at submission, "	\
	  "not at completion")						\
	X(M_BREAK_SYNC_RANGE_ASKED, "sync_range_asked", NULL,		\
	  "an O_SYNC write syncs from the position it was asked at, "	\
	  "not where it wrote (before v3.16, d311d79de305)")		\
	X(M_BREAK_DONTCACHE_KICK_PAST, "dontcache_kick_past", NULL,	\
	  "the DONTCACHE kick starts at ki_pos, past the write "	\
	  "(v6.14-rc1; fixed February 2025)")			\
	X(M_BREAK_ERRSEQ_SAMPLE_MARKS_SEEN, "errseq_sample_marks_seen",	\
	  NULL, "errseq_sample marks an unseen error SEEN and returns "	\
	  "it, so a later open misses it (v4.13-v4.16; b4678df184b3)") \
	X(M_BREAK_FAULT_DIRTY_UNLOCKED, "fault_dirty_unlocked", NULL,	\
	  "a shared write fault installs its dirty PTE and dirties the " \
	  "folio without the folio lock (before v2.6.22's "		\
	  "\"mm: fix clear_page_dirty_for_io vs fault race\")")	\
	X(M_BREAK_EXT4_DIO_END_IO_WARN, "ext4_dio_end_io_warn", NULL,	\
	  "ext4_dio_write_end_io WARNs if i_size < i_disksize and tests " \
	  "only i_disksize (v6.7-rc1; 619f75dae2cf)")			\
	X(M_BREAK_RWSEM_READ_IGNORES_WRITER,				\
	  "rwsem_read_ignores_writer", NULL,				\
	  "rwsem=exact: the read fast path ignores RWSEM_WRITER_LOCKED, " \
	  "so a reader enters beside a writer")				\
	X(M_BREAK_RWSEM_STEAL_IGNORES_WRITER,				\
	  "rwsem_steal_ignores_writer", NULL,				\
	  "rwsem=exact: a reader's optimistic steal ignores "		\
	  "RWSEM_WRITER_LOCKED")					\
	X(M_BREAK_RWSEM_STEAL_IGNORES_HANDOFF,				\
	  "rwsem_steal_ignores_handoff", NULL,				\
	  "rwsem=exact: a reader's optimistic steal ignores "		\
	  "RWSEM_FLAG_HANDOFF")						\
	X(M_BREAK_RWSEM_WRITE_TRYLOCK_SPLIT,				\
	  "rwsem_write_trylock_split", NULL,				\
	  "rwsem=exact: the write fast path tests and sets the count in " \
	  "two steps, not one cmpxchg")					\
	X(M_BREAK_ERRSEQ_NO_ADVANCE, "errseq_no_advance", NULL,	\
	  "errseq_check_and_advance reports an error without advancing " \
	  "the description's sample, so it reports it again")		\
	X(M_BREAK_NOWAIT_READ_NO_RECHECK, "nowait_read_no_recheck", NULL, \
	  "a NOWAIT read that trylocks a folio does not re-check "	\
	  "PG_uptodate under the lock and copies it")			\
	X(M_BREAK_WRITETHROUGH_DONTCACHE_MIX,				\
	  "writethrough_dontcache_mix", NULL,				\
	  "kiocb_set_rw_flags accepts RWF_WRITETHROUGH with "		\
	  "RWF_DONTCACHE (seed 000 refuses it)")			\
	X(M_BREAK_WRITEBACK_SKIPS_EOF_FOLIO,				\
	  "writeback_skips_eof_folio", NULL,				\
	  "iomap_writeback_handle_eof skips the folio holding the file's " \
	  "last byte as if wholly beyond EOF (an off-by-one at i_size): " \
	  "cleaned by writeback_iter, never written")			\
	X(M_BREAK_FDBLOCKS_LOST_UPDATE, "fdblocks_lost_update", NULL,	\
	  "xfs_dec_freecounter reads m_fdblocks and writes it back in "	\
	  "two steps, not one atomic add: two reservations can take "	\
	  "the last free block both")					\
	X(M_BREAK_FAULT_NO_MMAPLOCK, "fault_no_mmaplock", NULL,	\
	  "a page fault takes no invalidate_lock (the XFS MMAPLOCK): "	\
	  "not filemap_fault's, not __xfs_write_fault's around "	\
	  "->page_mkwrite (the model before session 13)")
#define M_BREAK_VALUES(X)						\
	X(M_BREAK_NONE, "none", NULL, "the model as it is")		\
	M_BREAK_SWITCHES(X)

/* --variant ext4_dio=...: the ext4 DIO i_rwsem decision (seed 002). */
#define M_EXT4_DIO_VALUES(X)						\
	X(M_EXT4_DIO_BASE, "base", NULL,				\
	  "mainline v6.18: ext4_overwrite_io for every write")		\
	X(M_EXT4_DIO_PATCH1, "patch1", NULL,				\
	  "seed 002 1/2: no overwrite check for aligned non-extending "	\
	  "writes")							\
	X(M_EXT4_DIO_PATCH2, "patch2", NULL,				\
	  "seed 002 1/2 + 2/2: ext4_dio_needs_zeroing")			\
	X(M_EXT4_DIO_UNSAFE, "unsafe_shared", "unsafe-shared",		\
	  "test only: shared for every non-extending write (unsafe-shared)")

/* --variant writethrough=...: RWF_WRITETHROUGH (seed 000, RFC v3). */
#define M_WRITETHROUGH_VALUES(X)					\
	X(M_WT_V3, "v3", NULL,						\
	  "seed 000 RFC v3 as the cover letter describes it")		\
	X(M_WT_V3_NOFIX, "v3_nofix", "v3-nofix",			\
	  "RFC v3 without patch 11, the repeating-folio fix (v3-nofix)") \
	X(M_WT_V2, "v2", NULL,						\
	  "RFC v2: exclusive lock, dirty/writeback cycle")

/*
 * --variant rwsem=...: how struct rw_semaphore runs.  exact is
 * model/kernel/rwsem.c step by step (count, owner, wait list), without
 * time: HANDOFF never set, one unqueued attempt for optimistic spinning;
 * clock is the same algorithm with the kernel's time-based rules on the
 * virtual clock (a waiter's RWSEM_WAIT_TIMEOUT, one jiffy, then
 * HANDOFF; a writer spins while the owner runs on a CPU); summary is
 * the engine's reader-writer lock (sim/shared.c sim_rwlock), whose shared
 * acquisitions commute for DPOR.  docs/model/rwsem.md says why summary
 * over-approximates exact, and tests/model/kernel checks it.
 */
#define M_RWSEM_VALUES(X)						\
	X(M_RWSEM_SUMMARY, "summary", NULL,				\
	  "the engine's reader-writer lock: shared acquisitions commute") \
	X(M_RWSEM_EXACT, "exact", NULL,					\
	  "model/kernel/rwsem.c step by step (count, owner, wait list)") \
	X(M_RWSEM_CLOCK, "clock", NULL,					\
	  "exact with the kernel's clock: RWSEM_WAIT_TIMEOUT hand-off, " \
	  "spinning while the owner runs")

/*
 * --variant uring=... (seed 004): merged is v6.18 (the series as merged
 * in v6.0: XFS buffered writes try IOCB_NOWAIT inline); punt is the
 * behaviour before it: a buffered write to a file without
 * FMODE_BUF_WASYNC is punted to io-wq at once (io_uring/rw.c io_write,
 * v5.19: "goto copy_iov"); v1 is the series as posted (2022, seed 004
 * patches 11-13): dirty throttling of an inline write does not fail it
 * but records a deadline in the task (bdp_pause), and the task's later
 * buffered writes wait on a pending list until a timer at the deadline
 * hands them to io-wq.
 */
#define M_URING_VALUES(X)						\
	X(M_URING_MERGED, "merged", NULL,				\
	  "v6.18: buffered writes try IOCB_NOWAIT inline (seed 004 merged)") \
	X(M_URING_PUNT, "punt", NULL,					\
	  "before seed 004: every buffered write punted to io-wq")	\
	X(M_URING_V1, "v1", NULL,					\
	  "seed 004 v1: throttled inline writes set a deadline; later "	\
	  "ones wait for a timer")

/*
 * --variant sync_tag=...: which xarray mark a data-integrity
 * (WB_SYNC_ALL) pass walks.  towrite is v6.18 (and every kernel since
 * v2.6.35, "mm: implement writeback livelock avoidance using page
 * tagging"): tag_pages_for_writeback marks the DIRTY pages TOWRITE at the
 * start and the pass walks TOWRITE; dirty is the walk before it: no
 * tagging, the pass walks DIRTY, so pages dirtied ahead of it during the
 * pass extend it (the sync livelock that change fixed).
 */
#define M_SYNC_TAG_VALUES(X)						\
	X(M_SYNC_TAG_TOWRITE, "towrite", NULL,				\
	  "v6.18 (since v2.6.35): a WB_SYNC_ALL pass tags the DIRTY pages " \
	  "TOWRITE first and walks TOWRITE")				\
	X(M_SYNC_TAG_DIRTY, "dirty", NULL,				\
	  "before v2.6.35: a WB_SYNC_ALL pass walks DIRTY, so pages "	\
	  "dirtied ahead of it extend it (the sync livelock)")

/* ---- the keys --------------------------------------------------------- */

/*
 * X(ID, "key", type, field, VALUES, "help"): the key's index
 * (enum m_variant_key), its spelling, the type and name of its field in
 * struct m_world_config and struct m_world, its value list, one line of
 * help.  The order is the order of `wpsim list variants`, of reports and
 * of replay commands.  break is the one key whose field is not an enum:
 * its values OR bits into `breaks`.
 */
#define M_VARIANT_KEYS(X)						\
	X(M_VARIANT_DONTCACHE, "dontcache", enum m_dontcache_variant,	\
	  dontcache, M_DONTCACHE_VALUES,				\
	  "RWF_DONTCACHE accounting (seed 003)")			\
	X(M_VARIANT_BREAK, "break", unsigned int, breaks, M_BREAK_VALUES, \
	  "a model bug switched on, to show that a scenario catches it " \
	  "(test only)")						\
	X(M_VARIANT_EXT4_DIO, "ext4_dio", enum m_ext4_dio_variant,	\
	  ext4_dio, M_EXT4_DIO_VALUES,					\
	  "the ext4 DIO i_rwsem decision (seed 002)")			\
	X(M_VARIANT_WRITETHROUGH, "writethrough",			\
	  enum m_writethrough_variant, writethrough,			\
	  M_WRITETHROUGH_VALUES, "RWF_WRITETHROUGH (seed 000)")		\
	X(M_VARIANT_RWSEM, "rwsem", enum m_rwsem_model, rwsem,		\
	  M_RWSEM_VALUES,						\
	  "how struct rw_semaphore runs (i_rwsem, i_data_sem)")		\
	X(M_VARIANT_URING, "uring", enum m_uring_variant, uring,	\
	  M_URING_VALUES, "io_uring buffered writes (seed 004)")	\
	X(M_VARIANT_SYNC_TAG, "sync_tag", enum m_sync_tag_variant,	\
	  sync_tag, M_SYNC_TAG_VALUES,					\
	  "the mark a WB_SYNC_ALL pass walks (TOWRITE since v2.6.35)")

/* ---- what the rows generate ------------------------------------------- */

#define M_VARIANT_ENUM_VALUE(c, name, alias, help) c,
enum m_dontcache_variant { M_DONTCACHE_VALUES(M_VARIANT_ENUM_VALUE) };
enum m_ext4_dio_variant { M_EXT4_DIO_VALUES(M_VARIANT_ENUM_VALUE) };
enum m_writethrough_variant { M_WRITETHROUGH_VALUES(M_VARIANT_ENUM_VALUE) };
enum m_rwsem_model { M_RWSEM_VALUES(M_VARIANT_ENUM_VALUE) };
enum m_uring_variant { M_URING_VALUES(M_VARIANT_ENUM_VALUE) };
enum m_sync_tag_variant { M_SYNC_TAG_VALUES(M_VARIANT_ENUM_VALUE) };

/* M_BREAK_*: one bit each, in the order of the rows. */
#define M_BREAK_ENUM_INDEX(c, name, alias, help) c##_BIT,
#define M_BREAK_ENUM_MASK(c, name, alias, help) c = 1u << c##_BIT,
enum m_break_bit { M_BREAK_SWITCHES(M_BREAK_ENUM_INDEX) M_BREAK_BITS };
enum m_break { M_BREAK_NONE = 0, M_BREAK_SWITCHES(M_BREAK_ENUM_MASK) };

#define M_VARIANT_ENUM_KEY(id, key, type, field, values, help) id,
enum m_variant_key { M_VARIANT_KEYS(M_VARIANT_ENUM_KEY) M_VARIANT_KEYS_COUNT };

/* The variant fields of struct m_world_config and struct m_world. */
#define M_VARIANT_FIELD(id, key, type, field, values, help) type field;

/* ---- the registry and its parser (model/variant.c) -------------------- */

struct m_world_config;

/* One value of a key. */
struct m_variant_value {
	const char *name;	/* the spelling, an identifier */
	const char *alias;	/* another spelling --variant takes, or NULL */
	const char *help;
	unsigned int code;	/* what goes into the field: the enum
				 * constant, or for break= its M_BREAK_ bit */
};

/* One key.  Its values: values[0..values_count), values[0] the default. */
struct m_variant_key_info {
	const char *key;
	const char *help;
	const struct m_variant_value *values;
	size_t values_count;
};

/* Indexed by enum m_variant_key. */
extern const struct m_variant_key_info m_variant_keys[M_VARIANT_KEYS_COUNT];

/* A key and one of its values, as indexes (what "key=value" names). */
struct m_variant_choice {
	enum m_variant_key key;
	unsigned int value;
};

/* The key spelled @key, or -1. */
int m_variant_key_find(const char *key);
/* The value of @key spelled @value (its name or its alias), or -1. */
int m_variant_value_find(enum m_variant_key key, const char *value);
/* The spelling of value @value of @key. */
const char *m_variant_value_name(enum m_variant_key key, unsigned int value);

/**
 * m_variant_parse - read "KEY=VALUE".
 * @text: the key and a value's name or alias, as --variant takes them.
 * @choice: set on success.
 * @why: on failure a message without position or prefix, e.g.
 *       "expected one of v6_18, v7_3, v11, v12 for dontcache, found 'v13'".
 * Return: 0, or -EINVAL.
 */
int m_variant_parse(const char *text, struct m_variant_choice *choice,
		    char *why, size_t why_size);

/*
 * Write @choice into @config: an enum key's field takes the value, a
 * break= value ORs its bit into config->breaks (break=none: no bit).
 */
void m_variant_apply(struct m_world_config *config,
		     struct m_variant_choice choice);

/* m_variant_parse() and m_variant_apply(): 0, or -EINVAL with @why. */
int m_variant_set(struct m_world_config *config, const char *text,
		  char *why, size_t why_size);

/*
 * The value of @key in @config (for break=, the first switch set, or
 * none).
 */
unsigned int m_variant_get(const struct m_world_config *config,
			   enum m_variant_key key);

/*
 * `wpsim list variants`: per key its help, then "  key=value  help" per
 * value, the default marked, then the aliases.
 */
void m_variant_list(FILE *out);

#endif /* WPSIM_MODEL_VARIANT_H */
