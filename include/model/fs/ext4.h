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

/* ext4_map_blocks (fs/ext4/inode.c): a lookup or an allocation. */
#define EXT4_MAP_NEW		(1u << 0)
#define EXT4_MAP_MAPPED		(1u << 1)
#define EXT4_MAP_UNWRITTEN	(1u << 2)
#define EXT4_GET_BLOCKS_CREATE_UNWRIT_EXT 0x1

struct km_ext4_map_blocks {
	unsigned long m_lblk;
	unsigned int m_len;
	unsigned int m_flags;
};

int km_ext4_map_blocks(struct km_inode *inode, struct km_ext4_map_blocks *map,
		       int flags);
/* truncate(2): ext4_setattr's ATTR_SIZE part (->setattr_size). */
int km_ext4_setattr(struct km_file *file, loff_t newsize);
/* The free-cluster count (model/fs/ext4/balloc.c), when the world keeps
 * one (m_ext4_clusters_counted). */
bool km_ext4_has_free_clusters(int64_t nclusters, unsigned int flags);
int km_ext4_claim_free_clusters(int64_t nclusters, unsigned int flags);
bool km_ext4_should_retry_alloc(int *retries);
void m_ext4_clusters_freed(unsigned long n);
bool m_ext4_clusters_counted(void);
/* ext4_iomap_begin for a direct write (m_ext4_dio_fs's). */
int m_ext4_dio_iomap_begin(struct km_inode *inode, loff_t pos, loff_t len,
			   unsigned int flags, struct km_iomap *iomap);

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

const char *m_ext4_dio_variant_name(enum m_ext4_dio_variant v);

#endif
