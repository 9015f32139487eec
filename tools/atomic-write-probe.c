// SPDX-License-Identifier: MIT
/*
 * tools/atomic-write-probe.c - ask the running kernel what RWF_ATOMIC
 * writes return on a file or a block device.
 *
 * The real-kernel witness for the model's atomic-write checks (issue 29,
 * docs/model/atomic-write.md): statx(STATX_WRITE_ATOMIC) of PATH (unit
 * min/max, segments max, unit max opt, the STATX_ATTR_WRITE_ATOMIC bit),
 * then one write per case, each on a fresh descriptor, and its result:
 * pwritev2 with RWF_ATOMIC (O_DIRECT and buffered, one iovec and two,
 * lengths and offsets), preadv2 with RWF_ATOMIC, and the same O_DIRECT
 * write through libaio (aio_rw_flags: the result is io_submit's when it
 * refuses, else the completion's res) and io_uring (IORING_OP_WRITE,
 * sqe->rw_flags: the completion's res).  A regular file is first filled
 * to 1 MiB with plain writes and fsync.
 *
 * Prints one line per case: "path-kind engine open len@off segs result"
 * where result is the byte count or -ERRNAME.  The model's answers for
 * the same cases are pinned in tests/model/test_atomic_write.c.
 *
 * Build: cc -O2 -o atomic-write-probe tools/atomic-write-probe.c -laio -luring
 * Usage: atomic-write-probe PATH file|bdev
 * Exit: 0 done, 2 bad usage or a setup step failed (it says which).
 * Not a test: CI's kernel may differ; run it by hand
 * (traces/real-kernel/atomic-write-*.txt has this machine's answers).
 * Careful: on a block device it writes the first MiB.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <liburing.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef RWF_ATOMIC
#define RWF_ATOMIC 0x00000040
#endif
#define PROBE_STATX_WRITE_ATOMIC 0x00010000U
#define PROBE_STATX_ATTR_WRITE_ATOMIC 0x00400000ULL

/* struct statx of include/uapi/linux/stat.h, v6.18 (the installed
 * header predates the atomic-write fields). */
struct probe_statx {
	uint32_t stx_mask;
	uint32_t stx_blksize;
	uint64_t stx_attributes;
	uint32_t stx_nlink, stx_uid, stx_gid;
	uint16_t stx_mode, spare0;
	uint64_t stx_ino, stx_size, stx_blocks, stx_attributes_mask;
	uint64_t stx_times[8];	/* atime btime ctime mtime: 16 bytes each */
	uint32_t stx_rdev_major, stx_rdev_minor;
	uint32_t stx_dev_major, stx_dev_minor;
	uint64_t stx_mnt_id;
	uint32_t stx_dio_mem_align, stx_dio_offset_align;
	uint64_t stx_subvol;
	uint32_t stx_atomic_write_unit_min;
	uint32_t stx_atomic_write_unit_max;
	uint32_t stx_atomic_write_segments_max;
	uint32_t stx_dio_read_offset_align;
	uint32_t stx_atomic_write_unit_max_opt;
	uint32_t spare2;
	uint64_t spare3[8];
};

#define FILL (1u << 20)

static char *buf;

static const char *errname(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EAGAIN: return "EAGAIN";
	case EIO: return "EIO";
	case ENOSPC: return "ENOSPC";
	case EFAULT: return "EFAULT";
	case ENOTBLK: return "ENOTBLK";
	default: return strerror(e);
	}
}

static void print_result(const char *kind, const char *engine,
			 const char *mode, size_t len, long off, int segs,
			 long ret)
{
	if (ret >= 0)
		printf("%s %s %s %zu@%ld %d %ld\n", kind, engine, mode, len,
		       off, segs, ret);
	else
		printf("%s %s %s %zu@%ld %d -%s\n", kind, engine, mode, len,
		       off, segs, errname((int)-ret));
}

static long do_psync(int fd, bool rd, size_t len, long off, int segs)
{
	struct iovec iov[2] = {
		{ buf, segs == 2 ? len / 2 : len },
		{ buf + len / 2, len / 2 },
	};
	ssize_t r = rd ? preadv2(fd, iov, segs, off, RWF_ATOMIC) :
			 pwritev2(fd, iov, segs, off, RWF_ATOMIC);

	return r < 0 ? -errno : r;
}

static long do_libaio(int fd, size_t len, long off)
{
	io_context_t ctx = 0;
	struct iocb cb, *cbs[1] = { &cb };
	struct io_event ev;
	long ret;
	int r;

	r = io_setup(1, &ctx);
	if (r < 0)
		return r;
	io_prep_pwrite(&cb, fd, buf, len, off);
	cb.aio_rw_flags = RWF_ATOMIC;
	r = io_submit(ctx, 1, cbs);
	if (r != 1) {
		io_destroy(ctx);
		return r < 0 ? r : -EIO;
	}
	r = io_getevents(ctx, 1, 1, &ev, NULL);
	ret = r == 1 ? (long)ev.res : -EIO;
	io_destroy(ctx);
	return ret;
}

static long do_uring(int fd, size_t len, long off)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	long ret;

	if (io_uring_queue_init(2, &ring, 0) < 0)
		return -EIO;
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_write(sqe, fd, buf, (unsigned int)len, (uint64_t)off);
	sqe->rw_flags = RWF_ATOMIC;
	io_uring_submit(&ring);
	if (io_uring_wait_cqe(&ring, &cqe) < 0) {
		io_uring_queue_exit(&ring);
		return -EIO;
	}
	ret = cqe->res;
	io_uring_cqe_seen(&ring, cqe);
	io_uring_queue_exit(&ring);
	return ret;
}

struct probe_case {
	const char *engine;	/* psync, psync-read, libaio, io_uring */
	int direct;
	size_t len;
	long off;
	int segs;
};

static const struct probe_case cases[] = {
	{ "psync", 1, 4096, 0, 1 },
	{ "psync", 1, 4096, 4096, 1 },
	{ "psync", 1, 512, 0, 1 },
	{ "psync", 1, 1024, 0, 1 },
	{ "psync", 1, 8192, 0, 1 },
	{ "psync", 1, 8192, 4096, 1 },
	{ "psync", 1, 12288, 0, 1 },
	{ "psync", 1, 16384, 0, 1 },
	{ "psync", 1, 65536, 0, 1 },
	{ "psync", 1, 131072, 0, 1 },
	{ "psync", 1, 1048576, 0, 1 },
	{ "psync", 1, 4096, 2048, 1 },
	{ "psync", 1, 4096, 0, 2 },
	{ "psync", 0, 4096, 0, 1 },
	{ "psync", 0, 4096, 0, 2 },
	{ "psync-read", 1, 4096, 0, 1 },
	{ "libaio", 1, 4096, 0, 1 },
	{ "libaio", 1, 8192, 0, 1 },
	{ "libaio", 1, 4096, 2048, 1 },
	{ "libaio", 0, 4096, 0, 1 },
	{ "io_uring", 1, 4096, 0, 1 },
	{ "io_uring", 1, 8192, 0, 1 },
	{ "io_uring", 1, 4096, 2048, 1 },
	{ "io_uring", 0, 4096, 0, 1 },
};

int main(int argc, char **argv)
{
	struct probe_statx stx;
	const char *path, *kind;
	int fd;

	if (argc != 3 || (strcmp(argv[2], "file") && strcmp(argv[2], "bdev"))) {
		fprintf(stderr, "usage: atomic-write-probe PATH file|bdev\n");
		return 2;
	}
	path = argv[1];
	kind = argv[2];
	if (posix_memalign((void **)&buf, 4096, 2 * FILL))
		return 2;
	memset(buf, 0x5a, 2 * FILL);
	if (!strcmp(kind, "file")) {
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || pwrite(fd, buf, FILL, 0) != FILL || fsync(fd)) {
			fprintf(stderr, "atomic-write-probe: fill %s: %s\n",
				path, strerror(errno));
			return 2;
		}
		close(fd);
	}
	memset(&stx, 0, sizeof(stx));
	if (syscall(SYS_statx, AT_FDCWD, path, 0, PROBE_STATX_WRITE_ATOMIC,
		    &stx)) {
		fprintf(stderr, "atomic-write-probe: statx %s: %s\n", path,
			strerror(errno));
		return 2;
	}
	printf("statx %s mask_has_write_atomic=%d attr_write_atomic=%d "
	       "unit_min=%u unit_max=%u segments_max=%u unit_max_opt=%u\n",
	       kind, !!(stx.stx_mask & PROBE_STATX_WRITE_ATOMIC),
	       !!(stx.stx_attributes & PROBE_STATX_ATTR_WRITE_ATOMIC),
	       stx.stx_atomic_write_unit_min, stx.stx_atomic_write_unit_max,
	       stx.stx_atomic_write_segments_max,
	       stx.stx_atomic_write_unit_max_opt);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct probe_case *c = &cases[i];
		int flags = O_RDWR | (c->direct ? O_DIRECT : 0);
		long ret;

		fd = open(path, flags);
		if (fd < 0) {
			fprintf(stderr, "atomic-write-probe: open %s: %s\n",
				path, strerror(errno));
			return 2;
		}
		if (!strcmp(c->engine, "psync"))
			ret = do_psync(fd, false, c->len, c->off, c->segs);
		else if (!strcmp(c->engine, "psync-read"))
			ret = do_psync(fd, true, c->len, c->off, c->segs);
		else if (!strcmp(c->engine, "libaio"))
			ret = do_libaio(fd, c->len, c->off);
		else
			ret = do_uring(fd, c->len, c->off);
		print_result(kind, c->engine, c->direct ? "direct" : "buffered",
			     c->len, c->off, c->segs, ret);
		close(fd);
	}
	return 0;
}
