/* SPDX-License-Identifier: MIT */
/*
 * iomap buffered I/O of the model (include/linux/iomap.h,
 * fs/iomap/buffered-io.c), v6.18.
 */
#ifndef WPSIM_MODEL_FS_IOMAP_H
#define WPSIM_MODEL_FS_IOMAP_H

#include "model/linux/fs.h"
#include "model/linux/mm.h"
#include "model/linux/writeback.h"

/* iomap types (include/linux/iomap.h) */
#define IOMAP_HOLE	0
#define IOMAP_DELALLOC	1
#define IOMAP_MAPPED	2
#define IOMAP_UNWRITTEN	3

#define IOMAP_F_NEW		(1u << 0)
/* The inode needs a log force for O_DSYNC: no FUA-only completion. */
#define IOMAP_F_DIRTY		(1u << 1)
#define IOMAP_F_SIZE_CHANGED	(1u << 8)

/* iomap_iter flags */
#define IOMAP_WRITE	(1u << 0)
#define IOMAP_DIRECT	(1u << 4)
#define IOMAP_NOWAIT	(1u << 5)
#define IOMAP_OVERWRITE_ONLY (1u << 6)	/* only pure overwrites allowed */
#define IOMAP_DONTCACHE	(1u << 10)
#define IOMAP_ATOMIC	(1u << 9)	/* an RWF_ATOMIC write */
#define IOMAP_WRITETHROUGH (1u << 11)	/* seed 000, RFC v3 4/11 */

struct km_iomap {
	loff_t offset;		/* file offset of the mapping */
	loff_t length;
	unsigned int type;	/* IOMAP_* */
	unsigned int flags;	/* IOMAP_F_* */
};

struct km_iomap_wt_ctx;

/*
 * The filesystem's side of an iomap operation (struct iomap_ops,
 * include/linux/iomap.h): ->iomap_begin maps [pos, pos + len) into
 * @iomap (for a write: reserving or allocating blocks); ->iomap_end
 * (NULL: none) runs after the range was processed.  XFS supplies its
 * tables (model/fs/xfs/xfs_iomap.c).
 */
struct km_iomap_ops {
	int (*iomap_begin)(struct km_inode *inode, loff_t pos, loff_t len,
			   unsigned int flags, struct km_iomap *iomap);
	int (*iomap_end)(struct km_inode *inode, loff_t pos, loff_t len,
			 long written, unsigned int flags,
			 struct km_iomap *iomap);
};

/*
 * ioend_flags (include/linux/iomap.h, v6.18): those the model has.
 * Different values of any of IOMAP_IOEND_NOMERGE_FLAGS keep two ranges
 * in different ioends.  No SHARED (reflink), BOUNDARY (realtime, zoned)
 * or DIRECT (the model's direct I/O has no ioend).
 */
#define IOMAP_IOEND_UNWRITTEN	(1u << 1)	/* unwritten blocks */
#define IOMAP_IOEND_DONTCACHE	(1u << 4)	/* a dropbehind folio */
#define IOMAP_IOEND_NOMERGE_FLAGS \
	(IOMAP_IOEND_UNWRITTEN | IOMAP_IOEND_DONTCACHE)

/*
 * The filesystem's side of writeback (struct iomap_writeback_ops, v6.18,
 * reduced to what the model's blocks need):
 * ->writeback_range maps the range about to be written (allocating
 * delalloc blocks) and returns the ioend flags the mapping gives
 * (IOMAP_IOEND_UNWRITTEN: the kernel's wpc->iomap.type, which
 * iomap_add_to_ioend turns into the flag);
 * ->ioend_needs_wq is ->writeback_submit's choice of completion context
 * for an ioend of [pos, pos + len) with @flags: true, its bi_end_io is
 * the filesystem's (XFS: xfs_end_bio, which queues the ioend to a
 * kworker) and ->ioend_done runs there, in task context; false, the bio
 * ends in iomap's ioend_writeback_end_bio, in the interrupt, and
 * ->ioend_done does not run;
 * ->ioend_done is the filesystem's completion of an ioend that completed
 * without error (XFS: xfs_end_ioend, converting unwritten blocks and
 * logging the on-disk size).
 * Any may be NULL: nothing to map, every bio ends in the interrupt
 * (the block device's own page cache, model/block/fops.c).
 */
struct m_ioend;
struct km_iomap_writeback_ops {
	unsigned int (*writeback_range)(struct km_inode *inode, loff_t pos,
					loff_t len);
	bool (*ioend_needs_wq)(struct km_inode *inode, loff_t pos, loff_t len,
			       unsigned int flags);
	void (*ioend_done)(struct km_inode *inode, loff_t pos, loff_t len,
			   unsigned int flags);
	/*
	 * ->end_bio (optional; the merging writeback of fs/iomap/ioend.c on
	 * the timed device only): the bi_end_io of an ioend ->ioend_needs_wq
	 * chose, run in the interrupt (XFS: xfs_end_bio, which queues the
	 * ioend on the inode's list for its one work item, xfs_end_io).
	 * Without it (and untimed) the bio's completion runs ->ioend_done
	 * and ends the ioend itself, in task context.
	 */
	void (*end_bio)(struct m_ioend *ioend);
};

struct km_iomap_iter {
	struct km_inode *inode;
	loff_t pos;
	loff_t len;		/* bytes left */
	unsigned int flags;
	struct km_iomap iomap;
	size_t processed;
	struct km_iomap_wt_ctx *wt;	/* IOMAP_WRITETHROUGH: the write's */
};

/* ifs (iomap_folio_state) helpers */
void km_ifs_alloc(struct km_inode *inode, struct km_folio *folio);
void km_iomap_set_range_uptodate(struct km_folio *folio, size_t off,
				 size_t len);
void km_iomap_set_range_dirty(struct km_folio *folio, size_t off, size_t len);
void km_iomap_clear_range_dirty(struct km_folio *folio, size_t off,
				size_t len);
bool km_iomap_dirty_folio(struct km_address_space *mapping,
			  struct km_folio *folio);

/* The buffered write path */
/* __iomap_write_begin: read (or zero) the blocks [pos, pos + len)
 * covers in part and that are not uptodate; iomap_zero_iter's too. */
int km___iomap_write_begin(struct km_iomap_iter *iter, loff_t pos,
			   size_t len, struct km_folio *folio);
long km_iomap_file_buffered_write(struct km_kiocb *iocb,
				  struct km_iov_iter *from,
				  const struct km_iomap_ops *ops);
long km_iomap_write_iter(struct km_iomap_iter *iter, struct km_iov_iter *from);
/*
 * A filesystem's punch of the delalloc blocks of [offset, offset +
 * length) (iomap_punch_t, include/linux/iomap.h v6.18): only delalloc
 * extents change.
 */
typedef void (*km_iomap_punch_t)(struct km_inode *inode, loff_t offset,
				 loff_t length, struct km_iomap *iomap);
void km_iomap_write_delalloc_release(struct km_inode *inode,
				     loff_t start_byte, loff_t end_byte,
				     unsigned int flags, struct km_iomap *iomap,
				     km_iomap_punch_t punch);
/* Buffered read and read_folio */
struct km_readahead_control;
void km_iomap_readahead(struct km_readahead_control *rac,
			const struct km_iomap_ops *ops);
int km_iomap_read_folio(struct km_folio *folio,
			const struct km_iomap_ops *ops);
bool km_iomap_release_folio(struct km_folio *folio);
bool km_iomap_is_partially_uptodate(struct km_folio *folio, size_t from,
				    size_t count);
/* Writeback */
int km_iomap_writepages(struct km_address_space *mapping,
			struct km_writeback_control *wbc,
			const struct km_iomap_writeback_ops *ops);
/*
 * The writeback context of one iomap_writepages call when the mapping
 * merges contiguous folios into one ioend (struct iomap_writepage_ctx,
 * include/linux/iomap.h v6.18, reduced): the open ioend (wb_ctx) and the
 * folios added since it was opened (nr_folios).  fs/iomap/ioend.c.
 */
struct m_iomap_wpc {
	struct km_inode *inode;
	const struct km_writeback_control *wbc;
	const struct km_iomap_writeback_ops *ops;
	struct m_ioend *wb_ctx;
	unsigned int nr_folios;
};

int km_iomap_add_to_ioend(struct m_iomap_wpc *wpc, struct km_folio *folio,
			  loff_t pos, loff_t end_pos, size_t len,
			  struct sim_word *pending, unsigned int map_flags);
int km_iomap_ioend_writeback_submit(struct m_iomap_wpc *wpc, int error);
void km_iomap_finish_folio_write(struct km_folio *folio,
				 struct sim_word *pending);

/*
 * An ioend as its completion sees it (struct iomap_ioend,
 * include/linux/iomap.h v6.18, reduced; fs/iomap/ioend.c).  Once its bio
 * has ended and the ioend went to the filesystem's ->end_bio, the bio is
 * gone: the folio ranges it carried are kept here (@nr_folios of them).
 * @io_list links the ioends queued on an inode (XFS's i_ioend_list) or,
 * after iomap_ioend_try_merge, the ioends merged into this one
 * (@io_merged, in file order).  @folio and @pending are @max_folios
 * long (the bio's bi_max_vecs, BIO_MAX_VECS: one slot a bvec),
 * allocated with the ioend.  @bio_size is the bio's bi_size (the bytes
 * added; io_size stops at EOF).
 */
struct m_ioend {
	struct km_bio *bio;
	struct km_inode *io_inode;
	const struct km_iomap_writeback_ops *ops;
	loff_t io_offset;
	size_t io_size;
	size_t bio_size;
	unsigned int io_flags;
	sector_t io_sector;	/* the first sector, kept from submission */
	int io_error;		/* the bio's status, once it ended */
	unsigned int nr_folios;
	unsigned int max_folios;
	struct km_folio **folio;
	struct sim_word **pending;
	struct m_ioend *io_list;
	struct m_ioend *io_merged;
};

/* fs/iomap/ioend.c, v6.18: the completion of ioends a filesystem queued
 * (XFS's xfs_end_io): sort a list by file offset, merge the ioends that
 * follow @ioend on @more (contiguous in the file and on the device, same
 * flags and status), end the writeback of @ioend and of every ioend
 * merged into it. */
void km_iomap_sort_ioends(struct m_ioend **list);
void km_iomap_ioend_try_merge(struct m_ioend *ioend, struct m_ioend **more);
void km_iomap_finish_ioends(struct m_ioend *ioend, int error);
/* Shared mapping write fault */
vm_fault_ret_t km_iomap_page_mkwrite(struct km_folio *folio,
				     const struct km_iomap_ops *ops);

/*
 * What the last ext4_dio_write_iter of a task decided (model-only
 * instrumentation for tests and `wpsim`; not kernel state).
 */
struct m_ext4_dio_decision {
	bool issued;		/* the checks passed: iomap_dio_rw was called */
	bool shared;		/* i_rwsem mode for the I/O (when issued) */
	bool dio_wait;		/* inode_dio_wait was called */
	bool force_wait;	/* IOMAP_DIO_FORCE_WAIT */
	bool needs_zeroing;	/* patch2's answer (or base's equivalent) */
	unsigned int restarts;	/* shared -> exclusive upgrades */
	unsigned int zero_bios;	/* head/tail zeroing bios issued */
	/* Kept across calls (last, not reset): the O_DIRECT writes made
	 * through ext4_file_write_iter with this record. */
	unsigned int writes;
};

/* Direct I/O (fs/iomap/direct-io.c, model/fs/iomap/direct-io.c) */
#define IOMAP_DIO_FORCE_WAIT	(1u << 0)
/* Only a pure overwrite, else -EAGAIN (xfs_file_dio_write_unaligned). */
#define IOMAP_DIO_OVERWRITE_ONLY (1u << 1)
/*
 * The filesystem's side of a direct write (iomap_dio_rw's iomap_ops and
 * iomap_dio_ops): map [pos, pos + len), allocating holes unwritten; at
 * completion convert unwritten blocks and extend i_size.
 */
struct m_iomap_dio_fs {	/* ext4: m_ext4_dio_fs, xfs: m_xfs_dio_fs */
	const char *name;
	int (*iomap_begin)(struct km_inode *inode, loff_t pos, loff_t len,
			   unsigned int flags, struct km_iomap *iomap);
	int (*end_io)(struct km_inode *inode, loff_t pos, loff_t size,
		      int error, bool unwritten);
};


long km_iomap_dio_rw(struct km_kiocb *iocb, struct km_iov_iter *from,
		     const struct m_iomap_dio_fs *fs, unsigned int dio_flags,
		     struct m_ext4_dio_decision *d);

/*
 * Buffered write-through (RWF_WRITETHROUGH), seed 000 RFC v3 and v2:
 * model/fs/iomap/writethrough.c, docs/model/writethrough.md.
 */

/*
 * A writethrough bio carries at most this many folios.  The kernel sizes
 * its bvec to the write; the model's bios hold one folio so that an
 * injected device error can fall after any folio of a write (the
 * "error after the first 4 KiB" case of the cover letter).
 */
#define M_WT_BIO_FOLIOS_MAX	1
#define M_WT_CTX_MAX		8	/* writethrough writes: first table */
#define M_WT_BIOS_MAX		32	/* writethrough bios: first table */
#define M_WT_CTX_LIMIT		4096	/* writes in flight at most */
#define M_WT_BIOS_LIMIT		4096	/* bios in flight at most */

/* One writethrough write (the kernel's writethrough context). */
struct km_iomap_wt_ctx {
	unsigned int id;		/* 1.., names its objects "wtN.*" */
	struct km_kiocb *iocb;
	struct km_inode *inode;
	loff_t pos;			/* ki_pos at entry */
	size_t written;			/* bytes copied and queued for I/O */
	int status;			/* the copy loop's error, if it stopped */
	struct sim_word ref;		/* the submitter's + one per bio */
	struct sim_word error;		/* first bio error, 0 or -errno */
	struct sim_word failed_kept_clean; /* last failed folio left clean */
	struct sim_completion done;	/* sync: the last reference dropped */
	struct km_bio *bio;		/* being built, not yet submitted */
	/* The filesystem's completion of a bio (unwritten conversion). */
	const struct km_iomap_writeback_ops *wb_ops;
	unsigned int nr_bios;
	bool aio;			/* ki_complete set: return -EIOCBQUEUED */
	bool force_wait;		/* v3: an AIO write that extends i_size
					 * is waited for, after the unlock
					 * (IOMAP_DIO_FORCE_WAIT's shape) */
	bool dsync;			/* IOCB_DSYNC */
	bool write_through;		/* DSYNC served by REQ_FUA alone */
	bool stable_held;		/* holds the stable-writes counter */
	long result;			/* set when the last reference drops */
	bool finished;
	bool released;			/* the write has its result: nothing
					 * uses the context any more (its
					 * slot may be reused, long runs) */
};

/* The entry (4/11), split like __iomap_dio_rw / iomap_dio_complete. */
long km___iomap_file_writethrough_write(struct km_kiocb *iocb,
					struct km_iov_iter *from,
					const struct km_iomap_ops *ops,
					const struct km_iomap_writeback_ops *wb_ops,
					struct km_iomap_wt_ctx **ctxp);
long km_iomap_writethrough_complete(struct km_iomap_wt_ctx *ctx);
/* Hooks of iomap_write_iter for IOMAP_WRITETHROUGH. */
void km_iomap_writethrough_repeating_folio(struct km_iomap_iter *iter,
					   loff_t pos);
void km_iomap_writethrough_queue_folio(struct km_iomap_iter *iter,
				       struct km_folio *folio, loff_t pos,
				       size_t written);
void km_iomap_writethrough_submit(struct km_iomap_wt_ctx *ctx);
/* fs: the in-flight stable-writes counter (1/11). */
void km_mapping_stable_write_begin(struct km_address_space *mapping);
void km_mapping_stable_write_end(struct km_address_space *mapping);

/* Model glue: state, check and dump (registered by m_world_setup). */
void m_writethrough_setup(void);
/* A file added after setup (m_world_file_add): its per-file entries. */
void m_writethrough_file_added(unsigned int f);
bool m_writethrough_folio_busy(const struct km_folio *folio);

#endif
