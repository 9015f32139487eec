/* SPDX-License-Identifier: MIT */
/*
 * XFS file operations of the model (fs/xfs/xfs_file.c, xfs_iomap.c,
 * xfs_iops.c), v6.18.  The syscalls that reach them: model/linux/syscalls.h.
 */
#ifndef WPSIM_MODEL_FS_XFS_H
#define WPSIM_MODEL_FS_XFS_H

#include "model/fs/iomap.h"

/* Block mapping (model/fs/xfs/xfs_iomap.c, as the model keeps extents). */
int m_xfs_buffered_write_iomap_begin(struct km_inode *inode, loff_t pos,
				     loff_t len, unsigned int flags,
				     struct km_iomap *iomap);
int m_xfs_writethrough_iomap_begin(struct km_inode *inode, loff_t pos,
				   loff_t len, unsigned int flags,
				   struct km_iomap *iomap);
int m_xfs_reserve_delalloc(struct km_inode *inode, loff_t pos, loff_t len);
unsigned int m_xfs_writeback_allocate(struct km_inode *inode, loff_t pos,
				      loff_t len);
void m_xfs_end_ioend_convert(struct km_inode *inode, loff_t pos, loff_t len);
/* xfs_ioend_needs_wq_completion (model/fs/xfs/xfs_aops.c). */
bool km_xfs_ioend_needs_wq_completion(struct km_inode *inode, loff_t offset,
				      loff_t size, unsigned int io_flags);
void m_xfs_setfilesize(struct km_inode *inode, loff_t pos, loff_t len);
/* The block map's accessors (m_extent_peek, m_extent_read, ...) are in
 * model/linux/fs.h: every floor reads it. */
/* Setup: the map of @inode, every block in the state @state_of gives. */
void m_extent_init(struct km_inode *inode, const char *name, bool long_run,
		   char (*state_of)(const void *arg, unsigned long block),
		   const void *arg);
void m_extent_init_runs(struct km_inode *inode, const char *name,
			bool long_run,
			char (*state_of)(const void *arg, unsigned long block),
			unsigned long (*run_end)(const void *arg,
						 unsigned long block),
			const void *arg);
/* The word of @block (made if absent): for lockdep's rules. */
struct sim_word *m_extent_word(struct km_inode *inode, unsigned long block);
/* The iomap_ops XFS hands to iomap (model/fs/xfs/xfs_iomap.c). */
extern const struct km_iomap_ops m_xfs_buffered_write_iomap_ops;
extern const struct km_iomap_ops m_xfs_read_iomap_ops;
extern const struct km_iomap_ops m_xfs_page_mkwrite_iomap_ops;
extern const struct km_iomap_ops m_xfs_writethrough_iomap_ops;
/* The address_space operations and writeback ops (xfs_aops.c). */
extern const struct km_address_space_operations m_xfs_aops;
extern const struct km_iomap_writeback_ops *const m_xfs_writeback_ops;
unsigned long m_xfs_extent_set_range(struct km_inode *inode, loff_t pos,
				     loff_t len, char from, char to);

/* The direct write's iomap and completion (xfs_direct_write_iomap_ops,
 * xfs_dio_write_ops). */
extern const struct m_iomap_dio_fs m_xfs_dio_fs;
extern const struct m_iomap_dio_fs m_xfs_dio_read_fs;

/* The shared mapping's vm_ops (xfs_file_vm_ops). */
extern const struct km_vm_operations_struct m_xfs_file_vm_ops;

/* Entry points */
long km_xfs_file_dio_write_aligned(struct km_kiocb *iocb,
				   struct km_iov_iter *from);
long km_xfs_file_dio_write(struct km_kiocb *iocb, struct km_iov_iter *from);
bool km_xfs_zero_range(struct km_inode *inode, loff_t pos, loff_t len);
bool km_xfs_truncate_page(struct km_inode *inode, loff_t pos);
void m_xfs_unmap_blocks(struct km_inode *inode, loff_t pos, loff_t len);
/* xfs_bmap_punch_delalloc_range (model/fs/xfs/xfs_bmap_util.c) */
void km_xfs_bmap_punch_delalloc_range(struct km_inode *inode,
				      loff_t start_byte, loff_t end_byte);
/* xfs_direct_write_iomap_begin (model/fs/xfs/xfs_iomap.c). */
int km_xfs_direct_write_iomap_begin(struct km_inode *inode, loff_t pos,
				    loff_t len, unsigned int flags,
				    struct km_iomap *iomap);
int km_xfs_flush_unmap_range(struct km_inode *inode, loff_t offset,
			     loff_t len);
int km_xfs_alloc_file_space(struct km_inode *inode, loff_t offset,
			    loff_t len);
int km_xfs_free_file_space(struct km_inode *inode, loff_t offset, loff_t len);
long km_xfs_file_write_iter(struct km_kiocb *iocb, struct km_iov_iter *from);
long km_xfs_file_buffered_write(struct km_kiocb *iocb,
				struct km_iov_iter *from);
long km_xfs_file_dio_write_unaligned(struct km_kiocb *iocb,
				     struct km_iov_iter *from);
long km_xfs_file_dio_read(struct km_kiocb *iocb, size_t count, uint32_t *out);
long km_xfs_file_read_iter(struct km_kiocb *iocb, size_t count,
			   uint32_t *out);
int km_xfs_file_fsync(struct km_file *file, loff_t start, loff_t end,
		      int datasync);
int km_xfs_setattr_size(struct km_file *file, loff_t newsize);
/* fs/xfs/xfs_iops.c: the atomic write unit of an XFS file (bytes; 0:
 * none). */
unsigned int km_xfs_get_atomic_write_min(const struct km_inode *inode);
unsigned int km_xfs_get_atomic_write_max(const struct km_inode *inode);
long km_xfs_file_dio_write_atomic(struct km_kiocb *iocb,
				  struct km_iov_iter *from);
int km_xfs_file_open(struct km_inode *inode, struct km_file *file);
int m_xfs_setattr_size(struct km_inode *inode, loff_t newsize);
int km_xfs_file_release(struct km_inode *inode, struct km_file *file);
/*
 * The free-space count, m_fdblocks (model/fs/xfs/xfs_mount.c): kept
 * when the world's config asks (m_xfs_fdblocks_counted).
 */
int km_xfs_dec_freecounter(uint64_t delta, bool rsvd);
void km_xfs_add_freecounter(uint64_t delta);
bool m_xfs_fdblocks_counted(void);
/* Unmap the blocks of [@pos, @pos + @len), giving the mapped and
 * delalloc ones back to the count (model/fs/xfs/xfs_iomap.c); the caller
 * holds i_data_sem exclusive.  Return: the blocks freed (counted) or
 * changed (not counted). */
unsigned long m_xfs_extent_free_range(struct km_inode *inode, loff_t pos,
				      loff_t len);
/* ip->i_delayed_blks != 0 (model/fs/xfs/xfs_iomap.c): one point. */
bool m_xfs_has_delayed_blks(struct km_inode *inode);
bool m_xfs_has_extents(struct km_inode *inode);

/* ip->i_flags (fs/xfs/xfs_inode.h): the model's inode->i_xfs_iflags,
 * registered at its first use (model/fs/xfs/xfs_iops.c). */
struct sim_word *m_xfs_iflags(struct km_inode *inode);
void m_xfs_iflags_clear_truncated(struct km_inode *inode);
#define XFS_ITRUNCATED		(1u << 5)	/* truncated down: flush on close */
#define XFS_EOFBLOCKS_RELEASED	(1u << 6)	/* eofblocks freed in ->release */
/* Speculative preallocation past EOF (model/fs/xfs/xfs_iomap.c) and its
 * trim (model/fs/xfs/xfs_bmap_util.c). */
unsigned long km_xfs_iomap_prealloc_size(struct km_inode *inode,
					 loff_t offset);
bool km_xfs_can_free_eofblocks(struct km_inode *inode);
/* Is there an extent at or after @block? (the ILOCK held; one step) */
bool m_xfs_has_extent_from(struct km_inode *inode, unsigned long block);
bool m_xfs_has_delalloc_from(struct km_inode *inode, unsigned long block);
int km_xfs_free_eofblocks(struct km_inode *inode);
void m_xfs_blockgc_free_space(void);
int km_xfs_file_fallocate(struct km_file *file, int mode, loff_t offset,
			  loff_t len);

#endif
