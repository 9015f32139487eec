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
#define IOMAP_F_SIZE_CHANGED	(1u << 8)

/* iomap_iter flags */
#define IOMAP_WRITE	(1u << 0)
#define IOMAP_DIRECT	(1u << 4)
#define IOMAP_NOWAIT	(1u << 5)
#define IOMAP_DONTCACHE	(1u << 10)
#define IOMAP_WRITETHROUGH (1u << 11)	/* seed 000, RFC v3 4/11 */

struct km_iomap {
	loff_t offset;		/* file offset of the mapping */
	loff_t length;
	unsigned int type;	/* IOMAP_* */
	unsigned int flags;	/* IOMAP_F_* */
};

struct km_iomap_wt_ctx;

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
long km_iomap_file_buffered_write(struct km_kiocb *iocb,
				  struct km_iov_iter *from);
long km_iomap_write_iter(struct km_iomap_iter *iter, struct km_iov_iter *from);
/* Buffered read and read_folio */
int km_iomap_read_folio(struct km_folio *folio);
bool km_iomap_release_folio(struct km_folio *folio);
long km_filemap_read(struct km_kiocb *iocb, size_t count, uint32_t *out);
/* Writeback */
int km_iomap_writepages(struct km_address_space *mapping,
			struct km_writeback_control *wbc);
/* Shared mapping write fault */
vm_fault_ret_t km_iomap_page_mkwrite(struct km_folio *folio);

extern const struct km_address_space_operations m_iomap_aops;

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
	unsigned int nr_bios;
	bool aio;			/* ki_complete set: return -EIOCBQUEUED */
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
bool m_writethrough_folio_busy(const struct km_folio *folio);

#endif
