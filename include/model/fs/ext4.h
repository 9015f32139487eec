/* SPDX-License-Identifier: MIT */
/*
 * ext4 direct-I/O writes (fs/ext4/file.c, fs/ext4/inode.c) of the model,
 * v6.18, with the lock decision of seed 002 in four variants.
 */
#ifndef WPSIM_MODEL_FS_EXT4_H
#define WPSIM_MODEL_FS_EXT4_H

#include "model/fs/iomap.h"
#include "model/world.h"

/* enum m_ext4_dio_variant (--variant ext4_dio=…) is in model/variant.h;
 * the model reads the world's (m_world()->ext4_dio). */

/* ext4_map_blocks (fs/ext4/inode.c): a lookup or an allocation.  The
 * m_flags bits are the model's; the EXT4_GET_BLOCKS_* values are
 * fs/ext4/ext4.h's (v6.18). */
#define EXT4_MAP_NEW		(1u << 0)
#define EXT4_MAP_MAPPED		(1u << 1)
#define EXT4_MAP_UNWRITTEN	(1u << 2)
#define EXT4_GET_BLOCKS_CREATE		0x0001
#define EXT4_GET_BLOCKS_UNWRIT_EXT	0x0002
#define EXT4_GET_BLOCKS_CREATE_UNWRIT_EXT (EXT4_GET_BLOCKS_UNWRIT_EXT | \
					   EXT4_GET_BLOCKS_CREATE)
#define EXT4_GET_BLOCKS_PRE_IO		0x0008
#define EXT4_GET_BLOCKS_CONVERT		0x0010
/* ext4_iomap_alloc inside i_size: allocate unwritten, split before I/O */
#define EXT4_GET_BLOCKS_IO_CREATE_EXT	(EXT4_GET_BLOCKS_PRE_IO | \
					 EXT4_GET_BLOCKS_CREATE_UNWRIT_EXT)
/* ext4_convert_unwritten_extents: convert after the I/O */
#define EXT4_GET_BLOCKS_IO_CONVERT_EXT	(EXT4_GET_BLOCKS_CONVERT | \
					 EXT4_GET_BLOCKS_CREATE_UNWRIT_EXT)
/* ext4_iomap_alloc's cap on one mapping (fs/ext4/ext4.h DIO_MAX_BLOCKS) */
#define EXT4_DIO_MAX_BLOCKS	4096

struct km_ext4_map_blocks {
	unsigned long m_lblk;
	unsigned int m_len;
	unsigned int m_flags;
};

int km_ext4_map_blocks(struct km_inode *inode, struct km_ext4_map_blocks *map,
		       int flags);
/* fs/ext4/extents.c (model/fs/ext4/extents.c): the extent under
 * i_data_sem, and the direct write's conversion at completion. */
int km_ext4_ext_map_blocks(struct km_inode *inode,
			   struct km_ext4_map_blocks *map, int flags);
int km_ext4_convert_unwritten_extents(struct km_inode *inode, loff_t offset,
				      loff_t len);
/* truncate(2): ext4_setattr's ATTR_SIZE part (->setattr_size). */
int km_ext4_setattr(struct km_file *file, loff_t newsize);
/* The free-cluster count (model/fs/ext4/balloc.c), when the world keeps
 * one (m_ext4_clusters_counted). */
bool km_ext4_has_free_clusters(int64_t nclusters, unsigned int flags);
int km_ext4_claim_free_clusters(int64_t nclusters, unsigned int flags);
bool km_ext4_should_retry_alloc(int *retries);
void m_ext4_clusters_freed(unsigned long n);
bool m_ext4_clusters_counted(void);
/* ext4_iomap_begin (m_ext4_dio_fs's, ext4_iomap_ops) and
 * ext4_iomap_overwrite_begin (ext4_iomap_overwrite_ops). */
int km_ext4_iomap_begin(struct km_inode *inode, loff_t pos, loff_t len,
			unsigned int flags, struct km_iomap *iomap);
int km_ext4_iomap_overwrite_begin(struct km_inode *inode, loff_t pos,
				  loff_t len, unsigned int flags,
				  struct km_iomap *iomap);

/* struct m_ext4_dio_decision is in model/fs/iomap.h (iomap_dio_rw fills
 * it too). */

bool km_ext4_dio_needs_zeroing(struct km_inode *inode, loff_t pos,
			       loff_t len);
bool km_ext4_overwrite_io(struct km_inode *inode, loff_t pos, loff_t len,
			  bool *unwritten);
/* The lock decision is the world's --variant ext4_dio. */
long km_ext4_dio_write_iter(struct km_kiocb *iocb, struct km_iov_iter *from,
			    struct m_ext4_dio_decision *decision);
long km_ext4_file_write_iter(struct km_kiocb *iocb, struct km_iov_iter *from);
int km_ext4_file_open(struct km_inode *inode, struct km_file *file);
long km_ext4_dio_read_iter(struct km_kiocb *iocb, size_t count, uint32_t *out);
long km_ext4_file_read_iter(struct km_kiocb *iocb, size_t count,
			    uint32_t *out);
/* pread(2) of an ext4 file through its (buffered) read path. */
long m_ext4_pread(struct km_file *file, loff_t pos, size_t len, uint32_t *out);
/* preadv2(2) of it: RWF_NOWAIT (IOCB_NOWAIT) is the only flag it takes. */
long m_ext4_preadv2(struct km_file *file, loff_t pos, size_t len,
		    unsigned int rwf, uint32_t *out);
long m_ext4_pwritev2_direct(struct km_file *file, loff_t pos, size_t len,
			    unsigned int rwf, uint32_t data_id,
			    struct m_ext4_dio_decision *decision);
struct m_aio_req;
/* io_submit(2) of an O_DIRECT write: -EIOCBQUEUED or the result. */
long m_aio_ext4_pwritev2_direct(struct m_aio_req *req, struct km_file *file,
				loff_t pos, size_t len, unsigned int rwf,
				uint32_t data_id);

extern const struct m_iomap_dio_fs m_ext4_dio_fs;	/* ext4_iomap_ops */
/* ext4_iomap_overwrite_ops with ext4_dio_write_ops (fs/ext4/file.c). */
extern const struct m_iomap_dio_fs m_ext4_dio_overwrite_fs;

const char *m_ext4_dio_variant_name(enum m_ext4_dio_variant v);

#endif
