/* SPDX-License-Identifier: MIT */
/*
 * The model's cost table (model/cost.c): what the kernel work the model
 * names costs, in ns, charged where the kernel does it (timed mode,
 * docs/timed-mode.md), and the CPU profile that sets it with the
 * engine's machine costs (struct sim_cpu_costs).
 */
#ifndef WPSIM_MODEL_COST_H
#define WPSIM_MODEL_COST_H

#include <stdio.h>

#include "sim/clock.h"

/*
 * Named work the model charges where the kernel does it.  The defaults
 * (m_cost_default) are profiles/cpu/default.cpu's.
 */
struct m_cost_table {
	uint64_t syscall_ns;		/* entry + exit */
	uint64_t uring_req_ns;		/* an io_uring request's own work
					 * beyond io_uring_enter: SQE prep
					 * and reaping, io_submit_sqes,
					 * io_init_req, the CQE */
	uint64_t folio_alloc_ns;	/* allocating and charging a folio */
	uint64_t write_call_ns;		/* a buffered write(2) above the
					 * folios: VFS, checks, timestamps,
					 * ->iomap_begin, dirty ratelimit */
	uint64_t folio_write_ns;	/* a buffered write per folio: lookup,
					 * write_begin/end, mark dirty */
	uint64_t bio_submit_ns;		/* a bio into blk-mq and the driver */
	uint64_t bio_complete_ns;	/* a device completion: interrupt,
					 * blk_mq_end_request, bio_endio */
	uint64_t ext4_dio_write_ns;	/* ext4_dio_write_iter's own work:
					 * checks, file_modified, mapping
					 * lookups */
	uint64_t dio_submit_ns;		/* __iomap_dio_rw above the block
					 * layer: iomap_iter, ->iomap_begin,
					 * the dio and bio, page pinning */
	uint64_t dio_complete_ns;	/* iomap_dio_complete, in the
					 * submitter */
	uint64_t writeback_call_ns;	/* do_writepages: the wbc, the
					 * a_ops call */
	uint64_t writeback_folio_ns;	/* per folio written back: the
					 * tagged lookup, lock, clear dirty,
					 * folio_start_writeback */
	uint64_t writepage_map_ns;	/* per folio: the fs maps it into a
					 * bio (iomap_writepage_map) */
	uint64_t writeback_end_ns;	/* per folio, folio_end_writeback:
					 * the writeback tag, counters, wake */
	uint64_t folio_drop_ns;		/* folio_unmap_invalidate: out of
					 * the cache and freed */
	uint64_t unwritten_convert_ns;	/* an ioend's unwritten extents
					 * converted: a transaction that
					 * inserts an extent record (a
					 * split) */
	uint64_t unwritten_extend_ns;	/* the same, inserting no record:
					 * the converted blocks join their
					 * written neighbour or fill their
					 * unwritten extent */
	uint64_t ext4_map_handle_ns;	/* ext4: a journal handle around
					 * ext4_map_blocks with i_data_sem
					 * held for write: a direct write's
					 * split of an unwritten extent (or a
					 * hole's allocation) in
					 * ext4_iomap_alloc, and each run of
					 * its conversion at completion
					 * (ext4_convert_unwritten_extents) */
	uint64_t writeback_alloc_ns;	/* writeback allocating delalloc
					 * blocks: a transaction */
	uint64_t delalloc_reserve_ns;	/* a write reserving delalloc
					 * blocks over a hole */
	uint64_t copy_fresh_ns_per_4k;	/* a buffered write's copy into a
					 * folio that is not uptodate yet
					 * (created for the write: its
					 * memory not cached), per 4 KiB;
					 * 0 = charged as any copy (the
					 * LLC share, sim_cpu_copy_to_cache) */
	uint64_t fio_io_ns;		/* not the kernel's: fio's own
					 * user-space work per I/O on a real
					 * engine, between one I/O's end and
					 * the next one's issue (get_io_u,
					 * the random map, the latency
					 * accounting); 0 = not charged
					 * (ioengine=null has its own,
					 * FIO_NULL_IO_NS) */
	uint64_t log_write_ns;		/* an XFS iclog write's time beyond
					 * a 4 KiB data write's and its
					 * flushes: the log record's own
					 * shape on the device and the
					 * log's work-queue hand-offs
					 * (xlog_cil_push_work,
					 * xlog_ioend_work); a wait, not
					 * CPU; 0 = not charged */
	uint64_t log_convert_bytes;	/* not a time: the bytes an
					 * unwritten conversion that splits
					 * an extent adds to its CIL
					 * checkpoint's log record (the
					 * bmbt records it logs and their
					 * share of the headers); a
					 * checkpoint larger than an iclog
					 * spans iclogs; 0 = the model's
					 * checkpoints fit one iclog */
};

/* A CPU profile: the engine's machine costs and the model's table. */
struct m_cost_profile {
	struct sim_cpu_costs clock;
	struct m_cost_table model;
};

/* The compiled-in defaults: equal to profiles/cpu/default.cpu (a test
 * checks that they are). */
extern const struct m_cost_profile m_cost_default;

/*
 * The model's table every following execution charges.  Process-wide,
 * like the engine's clock configuration (sim_clock_configure), which a
 * front end sets from the same profile; the default is m_cost_default's.
 */
void m_cost_configure(const struct m_cost_table *table);
const struct m_cost_table *m_cost_config(void);

/*
 * Read a CPU cost profile from @text: lines "name = value" (value an
 * integer number of ns), '#' comments, blank lines.  Fields not named
 * keep the values already in @profile.  Errors go to @err as
 * "name:line:col: error: expected X, found Y" (@name stands for the
 * file); returns 0 or -EINVAL, and @profile is unchanged on error.
 */
int m_cost_profile_parse(const char *name, const char *text,
			 struct m_cost_profile *profile, FILE *err);
/* Write @profile: every field, "name = value" lines. */
void m_cost_profile_write(FILE *out, const struct m_cost_profile *profile);

/* ---- Charges, inside an execution (sim_cpu_spend of the figure) --------- */

/* A syscall's entry and exit: syscall_ns. */
void m_cost_syscall(void);
/* An io_uring request's work besides the syscall: uring_req_ns. */
void m_cost_uring_req(void);
/* Allocating a folio: folio_alloc_ns. */
void m_cost_folio_alloc(void);
/* A buffered write call's work above its folios: write_call_ns. */
void m_cost_write_call(void);
/* A buffered write's work per folio besides the copy: folio_write_ns. */
void m_cost_folio_write(void);
/* Submitting a bio to the device (blk-mq, driver): bio_submit_ns. */
void m_cost_bio_submit(void);
/* A device completion's interrupt-side work: bio_complete_ns. */
void m_cost_bio_complete(void);
/* ext4_dio_write_iter's work besides iomap: ext4_dio_write_ns. */
void m_cost_ext4_dio_write(void);
/* Setting up a direct-I/O write above the bios: dio_submit_ns. */
void m_cost_dio_submit(void);
/* Completing a direct-I/O write in its submitter: dio_complete_ns. */
void m_cost_dio_complete(void);
/* Starting writeback of a mapping (do_writepages): writeback_call_ns. */
void m_cost_writeback_call(void);
/* One folio taken for writeback (writeback_iter): writeback_folio_ns. */
void m_cost_writeback_folio(void);
/* One folio mapped into a writeback bio by the fs: writepage_map_ns. */
void m_cost_writepage_map(void);
/* One folio's writeback ended (folio_end_writeback): writeback_end_ns. */
void m_cost_writeback_end(void);
/* One clean folio dropped from the cache: folio_drop_ns. */
void m_cost_folio_drop(void);
/* Converting an I/O's unwritten extents with a split of the unwritten
 * extent (a record inserted): unwritten_convert_ns. */
void m_cost_unwritten_convert(void);
/* The same without a record inserted (the written neighbour extended,
 * or the whole unwritten extent converted): unwritten_extend_ns. */
void m_cost_unwritten_extend(void);
/* ext4: one journal handle around ext4_map_blocks under i_data_sem held
 * for write (ext4_iomap_alloc; each run of
 * ext4_convert_unwritten_extents): ext4_map_handle_ns. */
void m_cost_ext4_map_handle(void);
/* Writeback allocating delalloc blocks: writeback_alloc_ns. */
void m_cost_writeback_alloc(void);
/* A write reserving delalloc blocks: delalloc_reserve_ns. */
void m_cost_delalloc_reserve(void);
/* A buffered write's copy of @bytes into a folio not yet uptodate:
 * copy_fresh_ns_per_4k per 4 KiB (callers charge it only when the figure
 * is set, else the copy as any other). */
void m_cost_copy_fresh(uint64_t bytes);
/* An XFS iclog write's time beyond its device commands as the model
 * issues them: log_write_ns, slept (the task waits; no CPU is used);
 * nothing at 0. */
void m_cost_log_write(void);
/* log_convert_bytes: bytes, not a charge (model/fs/xfs/xfs_iomap.c). */
uint64_t m_cost_log_convert_bytes(void);

#endif
