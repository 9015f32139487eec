/* SPDX-License-Identifier: MIT */
/*
 * Inode, address_space, file and kiocb of the model (include/linux/fs.h),
 * v6.18, with the ext4 fields the DIO work needs (i_disksize, i_data_sem).
 */
#ifndef WPSIM_MODEL_LINUX_FS_H
#define WPSIM_MODEL_LINUX_FS_H

#include "model/kernel/rwsem.h"
#include "model/linux/backing-dev.h"
#include "model/linux/mm_types.h"
#include "model/linux/types.h"
#include "sim/shared.h"

/* xarray marks of the page cache (include/linux/fs.h). */
#define PAGECACHE_TAG_DIRTY	0
#define PAGECACHE_TAG_WRITEBACK	1
#define PAGECACHE_TAG_TOWRITE	2

/* address_space flags (include/linux/pagemap.h, enum mapping_flags). */
#define AS_EIO			0
#define AS_ENOSPC		1
#define AS_STABLE_WRITES	7

/* inode->i_flags */
#define S_NOSEC			(1u << 0)
/* inode->i_state */
#define I_DIRTY_PAGES		(1u << 0)
#define __I_SYNC		1	/* writeback of the inode under way */
#define I_SYNC			(1u << __I_SYNC)

/* A long run's block map: groups from @first_group on (to the next
 * run's) were laid out in @fill (an m_extent_state). */
struct m_extent_layout {
	unsigned long first_group;
	uint8_t fill;
};

/*
 * A long run's block map: the pointers and fills (0: the layout's) of
 * the groups of M_EXT_LEAF (1 GiB of 4 KiB blocks) that changed.  Sparse
 * while at most M_EXT_LEAF_SPARSE_MAX groups of it differ from their
 * layout: those groups' places (@key, ascending), pointers and fills, 11
 * bytes a group, capacity doubled from 4; then dense (@cap ==
 * M_EXT_LEAF: every group at its place, 9 bytes a group, 4.6 KiB).
 * Session 17's leaves were all dense: 4.6 KiB per GiB of file with one
 * block written (issue 28, session 18).
 */
#define M_EXT_LEAF_SHIFT	9
#define M_EXT_LEAF		(1UL << M_EXT_LEAF_SHIFT)
#define M_EXT_LEAF_SPARSE_MAX	256
struct m_extent_leaf {
	uint16_t n;			/* a sparse leaf's groups */
	uint16_t cap;			/* M_EXT_LEAF: dense */
	struct sim_word **group;	/* [cap] */
	uint8_t *fill;			/* [cap] */
	uint16_t *key;			/* [cap]: a sparse leaf's places */
};

/* Extent states of a block (ext4/xfs mapping, as the model keeps it). */
enum m_extent_state {
	M_EXT_HOLE = 'H',
	M_EXT_UNWRITTEN = 'U',
	M_EXT_WRITTEN = 'W',
	M_EXT_DELALLOC = 'D',
};

#define M_EXT_GROUP_SHIFT	9
#define M_EXT_GROUP		(1UL << M_EXT_GROUP_SHIFT)

/* Blocks per file at most (1 KiB blocks at least). */
#define M_BLOCKS_MAX	(m_file_pages_max * 4)

/* One page-cache slot: the entry (folio id, 0 = empty) and its marks. */
struct km_xa_slot {
	struct sim_word entry;
	struct sim_word marks;	/* bit PAGECACHE_TAG_* */
};

/*
 * An exploration's page cache: slots in blocks of M_XA_BLOCK (4)
 * consecutive indices (the kernel's xa_node has XA_CHUNK_SIZE = 64
 * slots), every block made at setup and every slot a named object,
 * found by block number in a table hashed with linear probing (struct
 * m_xa_blocks).  A long run keeps a word per index instead (struct
 * m_xa_words, model/lib/xarray.c).
 */
#define M_XA_BLOCK_SHIFT	2
#define M_XA_BLOCK		(1UL << M_XA_BLOCK_SHIFT)

/*
 * The blocks of a page cache by block number: open addressing, linear
 * probing, at most half full (it doubles).  A key's home is its number
 * modulo the table's size mixed with its higher bits, so that the
 * blocks of a small file sit at their own numbers (one probe) and a
 * large file's strides spread; no key sits further than probe_max past
 * its home, so an absent block's search stops there.
 */
struct m_xa_blocks {
	/* Block numbers: below 2^26 (M_FILE_PAGES_LIMIT / M_XA_BLOCK), 4
	 * bytes (issue 28, bytes per cached page). */
	uint32_t *keys;
	struct km_xa_slot **blocks;	/* NULL: a free entry */
	unsigned long mask;		/* entries - 1 (a power of 2) */
	unsigned long count;
	unsigned long probe_max;
};

_Static_assert(M_FILE_PAGES_LIMIT / M_XA_BLOCK <= (1UL << 32),
	       "a page-cache block number fits the table's 4-byte keys");

/* Home of key @b in a table of @mask + 1 entries (a power of 2). */
static inline unsigned long m_xa_home(unsigned long mask, unsigned long b)
{
	/* log2 of the size: ctz inlines (bsf), where popcount without
	 * -mpopcnt is a libgcc call, 3 % of a buffered run's host time. */
	unsigned long bits = (unsigned long)__builtin_ctzl(mask + 1);

	return (b + (b >> bits) * 0x9e3779b1UL) & mask;
}

/* Block @b of @t, or NULL: at most probe_max past its home. */
static inline struct km_xa_slot *m_xa_block(const struct m_xa_blocks *t,
					    unsigned long b)
{
	unsigned long h = m_xa_home(t->mask, b);

	for (unsigned long n = 0; n <= t->probe_max; n++) {
		if (!t->blocks[h])
			return NULL;
		if (t->keys[h] == b)
			return t->blocks[h];
		h = (h + 1) & t->mask;
	}
	return NULL;
}

/*
 * A long run's page cache: one 8-byte word per index that holds an
 * entry or a mark (M_XA_WORD: the entry, a folio id, in bits 0-31; the
 * index in bits 32-59; the marks in bits 60-62; 0: a free word), in a
 * table hashed by index (open addressing, linear probing, at most 3/4
 * full, a removal shifting the run after it back as far as probe_max),
 * so that the page cache's memory is about 11-21 bytes per cached
 * folio however the folios are scattered over the file (issue 28: a
 * block of 4 slots was 96 bytes and a folio alone in its block a slot
 * of 32 and a table entry, so random writes over a large file cost
 * twice what sequential ones did).  All the entries are one object and
 * all the marks another: an access reads and writes the mapping's
 * stand-in slot (xa_hole), loaded from the word at the access and
 * stored back by the write (model/lib/xarray.c).  The kernel's xarray
 * keeps a node of 64 slots wherever an entry is (576 bytes).
 */
struct m_xa_words {
	uint64_t *w;			/* [mask + 1] */
	unsigned long mask, count, probe_max;
	/* The cell the last look-up found (a hint, checked against the
	 * word's index before it is used: a host cache, no state). */
	unsigned long last;
};

#define M_XA_WORD_INDEX_SHIFT	32
#define M_XA_WORD_MARKS_SHIFT	60
#define M_XA_WORD_INDEX_MASK	((1ULL << 28) - 1)
#define M_XA_WORD_ID_MASK	((1ULL << 32) - 1)

_Static_assert(M_FILE_PAGES_LIMIT <= M_XA_WORD_INDEX_MASK + 1,
	       "a page index fits a long run's page-cache word");

/*
 * A long run's index of one mark: the indices that have it, as 32-bit
 * words (struct m_xa_mword: the word's number, index / 32, and a bit per
 * index of it; a word is kept only while not zero) in sorted chunks of
 * at most M_XA_MCHUNK_MAX words (struct m_xa_mchunk: a chunk split in
 * two when full, merged with a neighbour when under a quarter), found by
 * a directory of the chunks' first words' numbers (binary search).  Its
 * memory is 8 bytes per word, about 8-16 per marked index when the marks
 * are scattered and about 0.3-0.5 when they are packed, whatever the
 * file's size; the next marked index from any index is two binary
 * searches (model/lib/xarray.c).  Session 15's tree of hashed words kept
 * a word per mark at its two lowest levels and more levels the larger
 * the file when the marks were scattered (the dirty limit's 26 000 DIRTY
 * marks: 0.14 MB over a 1 GiB file, 0.80 MB over 64 GiB; issue 28,
 * session 18).  The kernel keeps marks in the xarray's nodes, which exist
 * only where entries are, and finds the next one down from the nodes'
 * summaries of their children.
 */
#define M_XA_MCHUNK_MAX		127	/* a chunk of 1 KiB at most */
#define M_XA_MCHUNK_FIRST	3	/* a mapping's first chunk: 32 bytes */

struct m_xa_mword {
	uint32_t key;			/* index / 32 */
	uint32_t bits;			/* bit index % 32; never 0 */
};

struct m_xa_mchunk {
	uint32_t n, cap;
	struct m_xa_mword w[];		/* [cap]: n of them, keys ascending */
};

struct m_xa_markset {
	uint32_t *first;		/* [dir_cap]: chunk[c]->w[0].key */
	struct m_xa_mchunk **chunk;	/* [dir_cap] */
	uint32_t chunks, dir_cap;
	unsigned long count;		/* indices with the mark */
};

_Static_assert(M_FILE_PAGES_LIMIT / 32 <= 1ULL << 32,
	       "a page index's word number fits the marks index's 32 bits");

struct km_inode;
struct km_file;
struct km_kiocb;
struct km_iov_iter;
struct km_writeback_control;
struct m_ext4_dio_decision;

struct km_readahead_control;		/* model/linux/readahead.h */

struct km_address_space_operations {
	bool (*dirty_folio)(struct km_address_space *mapping,
			    struct km_folio *folio);
	int (*writepages)(struct km_address_space *mapping,
			  struct km_writeback_control *wbc);
	int (*read_folio)(struct km_folio *folio);
	/* Start reads of the ractl's locked folios (NULL: read_pages
	 * calls read_folio for each); the reads unlock them. */
	void (*readahead)(struct km_readahead_control *rac);
	bool (*release_folio)(struct km_folio *folio);
	/* Are the blocks of [@from, @from + @count) of a folio that is not
	 * uptodate uptodate?  (NULL: never; filemap_range_uptodate.) */
	bool (*is_partially_uptodate)(struct km_folio *folio, size_t from,
				      size_t count);
};

struct km_vm_operations_struct;		/* model/linux/mm.h */

struct km_address_space {
	struct km_inode *host;
	const struct km_address_space_operations *a_ops;
	/*
	 * The vm_ops of the file's one shared VMA (the kernel keeps them on
	 * the VMA, set by f_op->mmap; the model has one VMA per file).
	 */
	const struct km_vm_operations_struct *vm_ops;
	struct sim_spinlock xa_lock;		/* i_pages lock */
	/*
	 * m_file_pages_max slots: an exploration's by block of M_XA_BLOCK
	 * (i_pages, every block made at setup), a long run's (xa_sparse) a
	 * word per used index (i_words).  Read slots with m_xa_slot() (a
	 * peek) or the functions of model/lib/xarray.c.
	 */
	struct m_xa_blocks i_pages;
	bool xa_sparse;
	struct m_xa_words i_words;
	/* The slots' ids; a long run's stand-in slot for every access
	 * (loaded from its word, stored back by a write); an exploration's
	 * slot past the file (0). */
	struct km_xa_slot xa_hole;
	/* A long run's stand-in for peeks (m_xa_slot). */
	struct km_xa_slot *xa_peek;
	/*
	 * Long runs only (marks_indexed): per mark, the indices that have
	 * it (struct m_xa_markset), kept with the marks, so that a walk of
	 * a large file finds the next marked index without reading every
	 * slot (the kernel's xarray keeps marks in its inner nodes).
	 */
	bool marks_indexed;
	struct m_xa_markset mark_index[3];
	struct sim_word nrpages;
	/*
	 * One past the highest index ever stored: the xarray's extent, which
	 * bounds a walk of the marks as the tree's height does in the kernel.
	 */
	struct sim_word xa_extent;
	struct sim_word flags;			/* AS_* */
	struct sim_word wb_err;			/* errseq_t */
	struct sim_word writeback_index;
	struct km_rw_semaphore invalidate_lock;
	struct sim_spinlock ptl;		/* the one VMA's PTE lock */
	struct sim_word mmapped;		/* a shared VMA exists */
	/* Seed 000 RFC v3 1/11: writes in flight that need stable pages. */
	struct sim_word nr_stable_writes;
	/*
	 * The orders of the mapping's folios (mapping_set_folio_order_range,
	 * include/linux/pagemap.h v6.18): folio_order is the minimum (the
	 * order of every folio unless the mapping allows large folios),
	 * max_folio_order the largest a write may ask for
	 * (__filemap_get_folio, fgf_set_order); equal unless the file's
	 * config opts in to large folios (struct m_file_config).
	 */
	unsigned int folio_order;
	unsigned int max_folio_order;
	/*
	 * Model-only: writeback appends contiguous folio ranges to the open
	 * ioend's bio (iomap_add_to_ioend, model/fs/iomap/ioend.c), as
	 * v6.18 always does; else one bio per run of dirty blocks of a
	 * folio, which every scenario's exploration was built on.  Set with
	 * large folios (struct m_file_config).
	 */
	bool ioend_merge;
};

/*
 * The fields of struct xfs_inode_log_item (fs/xfs/xfs_inode_item.h,
 * v6.18) the model keeps: the checkpoint sequence of the inode's last
 * logged change (ili_commit_seq) and of its last change fdatasync needs
 * (ili_datasync_seq), 0 when unpinned; and the model's own: the size the
 * inode last logged (the size transaction's test) and its mtime as the
 * coarse clock's jiffy (0: before the run).
 */
struct m_xfs_inode_log_item {
	uint64_t ili_commit_seq;
	uint64_t ili_datasync_seq;
	loff_t logged_size;
	uint64_t mtime_jiffy;
};

struct m_ioend;
struct km_inode {
	unsigned long i_ino;
	char name[16];
	struct km_rw_semaphore i_rwsem;
	struct sim_spinlock i_lock;
	struct sim_word i_size;
	/* The on-disk size: ext4's ei->i_disksize, XFS's ip->i_disk_size
	 * (raised by ioend completion, set by truncate). */
	struct sim_word i_disksize;
	struct sim_word i_flags;		/* S_NOSEC */
	struct sim_word i_state;		/* I_DIRTY_PAGES, I_SYNC */
	struct sim_waitq sync_wait;	/* inode_bit_waitqueue(__I_SYNC) */
	struct sim_word time_needs_update;	/* file_modified() would act */
	unsigned int i_blkbits;
	/* Direct I/O in flight (inode_dio_begin/end/wait). */
	struct sim_word i_dio_count;
	struct sim_waitq dio_wait;
	/*
	 * Block map, one state (enum m_extent_state) per block, under
	 * i_data_sem, by group of M_EXT_GROUP blocks: extent[g] is group
	 * g's words, or NULL while each block of it is in state
	 * extent_fill[g] (a long run makes a group when a block of it
	 * changes; an exploration makes them all, each word named).  A
	 * long run keeps no table of the file's groups: extent_dir[d] is
	 * the leaf of groups d * M_EXT_LEAF to d * M_EXT_LEAF +
	 * M_EXT_LEAF - 1 (the pointers and fills of those that changed,
	 * sparse or dense), made when one of them changes; a group not in
	 * a leaf, or whose fill byte is 0,
	 * is in its layout's state (extent_layout: the runs of groups that
	 * setup laid out in one state).  Issue 28: the table of the file,
	 * 9 bytes per 2 MiB, was 4.7 MB at 1 TiB.  Read and write with
	 * m_extent_read/m_extent_write/m_extent_peek
	 * (model/fs/xfs/xfs_iomap.c).
	 */
	struct km_rw_semaphore i_data_sem;
	struct sim_word **extent;		/* an exploration's */
	uint8_t *extent_fill;			/* an exploration's */
	struct m_extent_leaf **extent_dir;	/* a long run's */
	struct m_extent_layout *extent_layout;	/* [extent_layout_count] */
	unsigned int extent_layout_count, extent_layout_cap;
	struct sim_word extent_hole;	/* an absent group's block, read */
	unsigned int nr_blocks;
	/*
	 * One past the last block ever not a hole (a bound: a block of the
	 * map set to any other state raises it, a hole never lowers it).
	 * Bookkeeping of the model's map, no kernel field: XFS's "is there
	 * an extent at or after this block" (xfs_iext_lookup_extent's eof,
	 * model/fs/xfs/xfs_iomap.c) looks only below it.
	 */
	unsigned int i_ext_end;
	/* XFS's XFS_DIFLAG_PREALLOC (ip->i_diflags): set by fallocate's
	 * allocation (xfs_alloc_file_space), under the IOLOCK and ILOCK
	 * exclusive; read under the IOLOCK exclusive
	 * (xfs_can_free_eofblocks).  Plain memory: both hold the IOLOCK. */
	bool i_xfs_diflag_prealloc;
	struct km_address_space i_data;
	struct km_bdi_writeback *wb;
	/* The filesystem's tables (set at setup: xfs or ext4). */
	const struct km_inode_operations *i_op;
	const struct km_file_operations *i_fop;
	/*
	 * The namespace (model/fs/namei.c, wpsim replay's unlink and
	 * rename): links (1 at setup) and the open file references the
	 * syscall rows count (open, dup: +1; close: -1), the kernel's
	 * i_nlink and the i_count its files' dentries hold.  Plain
	 * bookkeeping without a scheduling point: only a traced thread's
	 * own open/close/unlink/rename change them, and the scenario
	 * language has no unlink, rename or close.
	 */
	unsigned int i_nlink;
	unsigned int i_openers;
	/* The first device sector of the inode's room (model/world.c
	 * allocates room for m_file_pages_max pages per inode at setup). */
	sector_t i_sector_base;
	bool i_evicted;		/* evict() ran: a later O_CREAT makes it anew */
	/* XFS ip->i_flags (fs/xfs/xfs_inode.h), under i_lock (the model's
	 * i_flags_lock): XFS_ITRUNCATED only; registered at its first use
	 * (m_xfs_iflags). */
	struct sim_word i_xfs_iflags;
	/* Model bookkeeping, not a kernel field: a truncate down set
	 * XFS_ITRUNCATED in this execution (m_xfs_iflags_clear_truncated). */
	bool i_xfs_itruncated_set;
	/*
	 * XFS's inode log item (ip->i_itemp, struct xfs_inode_log_item,
	 * fs/xfs/xfs_inode_item.h, v6.18) as fsync reads it
	 * (model/fs/xfs/xfs_inode_item.c): every inode's, made with the
	 * inode (the kernel's xfs_inode_item_init, at its first
	 * xfs_trans_ijoin).  Used on the timed device only (the log).
	 */
	struct m_xfs_inode_log_item i_itemp;
	/*
	 * XFS's buffered ioend completion (ip->i_ioend_lock, i_ioend_list
	 * and i_ioend_work, fs/xfs/xfs_inode.h, v6.18): the ioends of the
	 * timed device that xfs_end_bio queued, in completion order, and
	 * the work item's state (M_XFS_IOEND_WORK_*), both under
	 * i_ioend_lock, which is registered at its first use
	 * (model/fs/xfs/xfs_aops.c).
	 */
	struct sim_spinlock i_ioend_lock;
	struct m_ioend *i_ioend_list;
	unsigned int i_ioend_work;
};

/* Slot @index of an exploration's @t, or NULL (past the file). */
static inline struct km_xa_slot *
m_xa_slot_find(const struct m_xa_blocks *t, unsigned long index)
{
	struct km_xa_slot *block = m_xa_block(t, index >> M_XA_BLOCK_SHIFT);

	return block ? block + (index & (M_XA_BLOCK - 1)) : NULL;
}

/* A long run's slot @index, a peek: the mapping's xa_peek, loaded. */
struct km_xa_slot *m_xa_words_peek(const struct km_address_space *mapping,
				   unsigned long index);

/* Slot @index of @mapping for a peek (checks, dumps): a stand-in in a
 * long run, valid until the next peek; not past the file. */
static inline struct km_xa_slot *
m_xa_slot(const struct km_address_space *mapping, unsigned long index)
{
	struct km_xa_slot *slot;

	if (mapping->xa_sparse)
		return m_xa_words_peek(mapping, index);
	slot = m_xa_slot_find(&mapping->i_pages, index);
	return slot ? slot : (struct km_xa_slot *)&mapping->xa_hole;
}

/*
 * The block map of struct km_inode (model/fs/xfs/xfs_iomap.c keeps the
 * representation): a peek is no point, a read or write one each.
 */
char m_extent_peek(const struct km_inode *inode, unsigned long block);
/* Group @g's words or a long run's tagged group (NULL: one state), and
 * the state of its blocks then (for tests). */
struct sim_word *m_extent_group(const struct km_inode *inode,
				unsigned long g);
char m_extent_group_fill(const struct km_inode *inode, unsigned long g);
/* The first block from @block on that is not a hole (no point; a group
 * of holes skipped whole), inode->nr_blocks when none. */
unsigned long m_extent_next_mapped(const struct km_inode *inode,
				   unsigned long block);
/* The block map's words (struct km_inode): one point each. */
char m_extent_read(struct km_inode *inode, unsigned long block);
void m_extent_write(struct km_inode *inode, unsigned long block, char state);

static inline struct km_address_space *km_inode_mapping(struct km_inode *i)
{
	return &i->i_data;
}

/* open(2) flags the model knows. */
#define KM_O_DIRECT	(1u << 0)
#define KM_O_DSYNC	(1u << 1)
#define KM_O_SYNC	(1u << 2)
#define KM_O_APPEND	(1u << 3)

/* ioctl commands (include/uapi/linux/fs.h, v6.18): the block device's
 * BLKFLSBUF _IO(0x12,97), BLKGETSIZE64 _IOR(0x12,114,size_t) and
 * BLKDISCARD _IO(0x12,119). */
#define KM_BLKFLSBUF	0x1261u
#define KM_BLKGETSIZE64	0x80081272u
#define KM_BLKDISCARD	0x1277u

/*
 * struct file_operations (include/linux/fs.h, v6.18): the entries the
 * model's syscall layer (model/fs/read_write.c, sync.c, open.c, aio.c)
 * calls.  The model's read carries its destination as (count, out)
 * rather than an iov_iter.  A NULL entry is an operation the model does
 * not have for that filesystem (ext4's buffered write, fsync,
 * fallocate): the layer fails the execution as a model bound (never a
 * made-up errno), see m_vfs_not_modelled().
 */
/* file_operations->fop_flags (include/linux/fs.h, v6.18): the one the
 * model reads. */
#define FOP_DONTCACHE		(1u << 7)	/* RWF_DONTCACHE supported */

/*
 * struct super_operations (include/linux/fs.h, v6.18): ->sync_fs only,
 * for syncfs(2) (model/fs/sync.c km_sync_filesystem).  The model has no
 * struct super_block: a file system's superblock is named by one of its
 * inodes (the inodes of one superblock are those with the same i_fop),
 * and ->sync_fs takes none (the one log or journal is the world's).
 */
struct km_super_operations {
	const char *name;
	int (*sync_fs)(int wait);
};

struct km_file_operations {
	const char *name;		/* the filesystem, for model errors */
	/* The file system's superblock operations (d_sb->s_op: the model
	 * keeps them with the file operations, see above); NULL: a file
	 * system whose syncfs the model does not have. */
	const struct km_super_operations *s_op;
	unsigned int fop_flags;		/* FOP_* */
	long (*write_iter)(struct km_kiocb *iocb, struct km_iov_iter *from);
	long (*read_iter)(struct km_kiocb *iocb, size_t count,
			  uint32_t *out);
	int (*fsync)(struct km_file *file, loff_t start, loff_t end,
		     int datasync);
	int (*fallocate)(struct km_file *file, int mode, loff_t offset,
			 loff_t len);
	/* __fput of the description (close(2)); NULL: nothing to do. */
	int (*release)(struct km_inode *inode, struct km_file *file);
	/* do_dentry_open's ->open: sets the file's f_mode bits (no shared
	 * access); NULL: nothing to do. */
	int (*open)(struct km_inode *inode, struct km_file *file);
	/* ioctl(2) (fs/ioctl.c vfs_ioctl); @arg stands for the user
	 * memory the command reads or writes.  NULL: -ENOTTY. */
	long (*unlocked_ioctl)(struct km_file *file, unsigned int cmd,
			       uint64_t *arg);
};

/*
 * struct inode_operations (include/linux/fs.h, v6.18): ->setattr, for
 * ATTR_SIZE only (truncate).  The model passes the file (its setattr
 * implementations take the file) and the new size instead of
 * (idmap, dentry, iattr).
 */
struct km_inode_operations {
	const char *name;
	int (*setattr_size)(struct km_file *file, loff_t newsize);
};

/* struct file_ra_state (include/linux/fs.h): a file's readahead window
 * (model/mm/readahead.c). */
struct km_file_ra_state {
	pgoff_t start;			/* where the window starts */
	unsigned int size;		/* pages in the window */
	unsigned int async_size;	/* the async tail: PG_readahead at
					 * start + size - async_size */
	unsigned int ra_pages;		/* the maximum window (read_ahead_kb) */
	loff_t prev_pos;		/* the last read's last byte */
};

struct km_file {
	struct km_inode *f_inode;
	const struct km_file_operations *f_op;	/* f_inode->i_fop at open */
	unsigned int f_flags;
	struct sim_word f_wb_err;	/* errseq sample of this description */
	struct sim_spinlock f_lock;	/* protects f_wb_err's advance */
	/* file_ra_state_init at open: ra_pages from the world's
	 * read_ahead_kb (m_world_config.ra_pages; 0 in exploration). */
	struct km_file_ra_state f_ra;
	/* FMODE_RANDOM only (POSIX_FADV_RANDOM); set under f_lock, read
	 * unlocked by readahead, as in the kernel: plain memory, no
	 * scheduling point (only wpsim fio's timed runs give advice). */
	unsigned int f_mode;
	char name[16];
};

/* file->f_mode (include/linux/fs.h): the bits the model keeps (its own
 * values).  FMODE_CAN_ATOMIC_WRITE is set at open by the filesystem or
 * the block device when RWF_ATOMIC can be honoured (xfs_file_open,
 * ext4_file_open, blkdev_open). */
#define FMODE_RANDOM	(1u << 12)
#define FMODE_CAN_ATOMIC_WRITE	(1u << 13)

/* iocb->ki_flags (include/linux/fs.h) */
#define IOCB_HIPRI	(1u << 0)
#define IOCB_DSYNC	(1u << 1)
#define IOCB_SYNC	(1u << 2)
#define IOCB_WRITE	(1u << 3)
#define IOCB_APPEND	(1u << 4)
#define IOCB_DIRECT	(1u << 5)
#define IOCB_NOWAIT	(1u << 6)
#define IOCB_DONTCACHE	(1u << 7)
#define IOCB_WRITETHROUGH (1u << 8)	/* seed 000, RFC v3 */
#define IOCB_NOSERIAL	(1u << 9)	/* seed 000, RFC v3 */
#define IOCB_ATOMIC	(1u << 10)	/* RWF_ATOMIC */

struct km_kiocb {
	struct km_file *ki_filp;
	loff_t ki_pos;
	unsigned int ki_flags;
	/* AIO: called once with the result (NULL: a synchronous kiocb). */
	void (*ki_complete)(struct km_kiocb *iocb, long ret);
	void *private;
};

/* The user buffer of a write: @count bytes that carry @data_id. */
struct km_iov_iter {
	size_t count;
	uint32_t data_id;
	/* The copy stops short after this many bytes (0 = never): models a
	 * fault in the user buffer. */
	size_t fault_after;
	size_t copied_total;
	/* Model instrumentation, not kernel state: an ext4 O_DIRECT write
	 * records its lock decision here (NULL: nowhere). */
	struct m_ext4_dio_decision *decision;
	/* A read's destination (ITER_DEST, iov_iter_rw() == READ): one
	 * write id per sector.  NULL: the iterator is a write's source. */
	uint32_t *out;
	/* The user's iovecs: 0 or 1 is one segment (import_iovec makes a
	 * single iovec an ITER_UBUF, iter_is_ubuf); 2 or more an
	 * ITER_IOVEC.  Only RWF_ATOMIC's check reads it. */
	unsigned int nr_segs;
};

/* RWF_* (include/uapi/linux/fs.h, values from v6.18 + seed 000). */
#define RWF_HIPRI	0x00000001
#define RWF_DSYNC	0x00000002
#define RWF_SYNC	0x00000004
#define RWF_NOWAIT	0x00000008
#define RWF_APPEND	0x00000010
#define RWF_NOAPPEND	0x00000020
#define RWF_ATOMIC	0x00000040
#define RWF_DONTCACHE	0x00000080
#define RWF_WRITETHROUGH 0x00000100	/* seed 000; value is the model's */
#define RWF_NOSERIAL	0x00000200	/* seed 000 patches 8-9; value is the model's */

/* fallocate(2) modes (include/uapi/linux/falloc.h) the model has. */
#define KM_FALLOC_FL_KEEP_SIZE	0x01
#define KM_FALLOC_FL_PUNCH_HOLE	0x02

/* sync_file_range(2) flags (include/uapi/linux/fs.h). */
#define KM_SYNC_FILE_RANGE_WAIT_BEFORE	1
#define KM_SYNC_FILE_RANGE_WRITE	2
#define KM_SYNC_FILE_RANGE_WAIT_AFTER	4

/* The ext4 and XFS tables (fs/ext4/file.c, fs/xfs/xfs_file.c and
 * xfs_iops.c). */
extern const struct km_file_operations km_xfs_file_operations;
extern const struct km_file_operations km_ext4_file_operations;
extern const struct km_inode_operations km_xfs_inode_operations;
extern const struct km_inode_operations km_ext4_inode_operations;
extern const struct km_super_operations km_xfs_super_operations;

/* READ / WRITE (include/linux/kernel.h), for kiocb_set_rw_flags. */
#define KM_READ		0
#define KM_WRITE	1

/* include/linux/fs.h kiocb_set_rw_flags (model/fs/read_write.c). */
int km_kiocb_set_rw_flags(struct km_kiocb *ki, unsigned int flags,
			  int rw_type);
/* fs/read_write.c generic_atomic_write_valid (model/fs/read_write.c). */
int km_generic_atomic_write_valid(struct km_kiocb *iocb,
				  struct km_iov_iter *iter);
/* include/linux/fs.h init_sync_kiocb, with iocb_flags(). */
void km_init_sync_kiocb(struct km_kiocb *kiocb, struct km_file *filp);

/* fs/read_write.c */
long km_vfs_write(struct km_file *file, struct km_iov_iter *from,
		  loff_t *pos);
long km_vfs_read(struct km_file *file, size_t count, uint32_t *out,
		 loff_t *pos);
long km_vfs_writev(struct km_file *file, struct km_iov_iter *from,
		   loff_t *pos, unsigned int flags);
long km_vfs_readv(struct km_file *file, size_t count, uint32_t *out,
		  loff_t *pos, unsigned int flags);

/* fs/sync.c */
int km_vfs_fsync_range(struct km_file *file, loff_t start, loff_t end,
		       int datasync);
int km_vfs_fsync(struct km_file *file, int datasync);
int km_sync_file_range(struct km_file *file, loff_t offset, loff_t nbytes,
		       unsigned int flags);

/* fs/open.c */
int km_do_truncate(struct km_file *filp, loff_t length);
int km_vfs_fallocate(struct km_file *file, int mode, loff_t offset,
		     loff_t len);

/*
 * A NULL file or inode operation: the model lacks it for @fs (not the
 * kernel: both filesystems have it there).  Fails the execution as a
 * model bound naming @op and @fs; returns -EOPNOTSUPP for the compiler.
 */
long m_vfs_not_modelled(const char *fs, const char *op);

static inline loff_t km_i_size_read(struct km_inode *inode)
{
	return (loff_t)sim_word_read(&inode->i_size);
}

static inline void km_i_size_write(struct km_inode *inode, loff_t size)
{
	sim_word_write(&inode->i_size, (uint64_t)size);
}

/* inode_lock family (include/linux/fs.h): wrappers over i_rwsem. */
static inline void km_inode_lock(struct km_inode *inode)
{
	km_down_write(&inode->i_rwsem);
}

static inline void km_inode_unlock(struct km_inode *inode)
{
	km_up_write(&inode->i_rwsem);
}

static inline void km_inode_lock_shared(struct km_inode *inode)
{
	km_down_read(&inode->i_rwsem);
}

static inline void km_inode_unlock_shared(struct km_inode *inode)
{
	km_up_read(&inode->i_rwsem);
}

static inline int km_inode_trylock(struct km_inode *inode)
{
	return km_down_write_trylock(&inode->i_rwsem);
}

static inline int km_inode_trylock_shared(struct km_inode *inode)
{
	return km_down_read_trylock(&inode->i_rwsem);
}

/* lib/errseq.c */
typedef struct sim_word km_errseq_t;
uint64_t km_errseq_set(km_errseq_t *eseq, int err);
uint64_t km_errseq_sample(km_errseq_t *eseq);
int km_errseq_check(km_errseq_t *eseq, uint64_t since);
int km_errseq_check_and_advance(km_errseq_t *eseq, struct sim_word *since);

/* fs/inode.c: inode_dio_begin/end/wait (include/linux/fs.h inlines). */
void km_inode_dio_begin(struct km_inode *inode);
void km_inode_dio_end(struct km_inode *inode);
void km_inode_dio_wait(struct km_inode *inode);

/* fs/fs-writeback.c */
void km___mark_inode_dirty(struct km_inode *inode, unsigned int flags);

/*
 * generic_write_sync (include/linux/fs.h): O_DSYNC/O_SYNC or the
 * DONTCACHE kick after a write (defined in model/fs/xfs/xfs_file.c).
 */
long km_generic_write_sync(struct km_kiocb *iocb, long count);

/* ioctl(2) through the file's ->unlocked_ioctl (model/fs/ioctl.c). */
long km_vfs_ioctl(struct km_file *filp, unsigned int cmd, uint64_t *arg);

#endif
