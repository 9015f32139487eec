// SPDX-License-Identifier: MIT
/*
 * tools/diff-kernel/runner.c - run one operation sequence of the
 * differential oracle on the running kernel and print what it answered.
 *
 * The sequence (tools/diff-kernel/README.md, "Sequence format") is read
 * from a file, or many from stdin ("-"), each ended by a line "end" (one
 * process for a whole run: no exec per sequence); the file under test is PATH on a mounted filesystem (XFS
 * or ext4, made by tools/diff-kernel/diff-kernel.py on a loop device).
 * Each operation is the system call the model's scenario op of the same
 * name stands for; statement i writes the byte i + 1 (the model's write
 * id 100 + i), the initial written blocks the byte 200 (id 1000).
 *
 * Printed, one line each:
 *   ret I VALUE          statement I's return value (bytes, 0, -errno)
 *   size N               i_size at the end (lseek SEEK_END: no fstat, so
 *                        the ctime stays coarse-grained)
 *   map LETTERS          one letter per block of the window: H hole,
 *                        U unwritten, W written, D delalloc (FIEMAP,
 *                        no FIEMAP_FLAG_SYNC)
 *   cache C D W          cachestat(2) over the file: pages cached, dirty,
 *                        under writeback (after waiting for the writeback
 *                        in flight, SYNC_FILE_RANGE_WAIT_BEFORE)
 *   data IDS             per 512-byte sector below i_size, the write id
 *                        its bytes carry (0 zeroes), '?' for a sector
 *                        whose bytes are not all one id
 *
 * Left out: everything the model's scenario language cannot express
 * (byte-granular data, O_DIRECT reads, drop_caches, zero range).  Before
 * each RWF_NOWAIT write the timestamps are made current (futimens): v6.18
 * XFS answers -EAGAIN when the write would update them
 * (kiocb_modified), which depends on the clock tick, and the model's
 * files start with current times.  Exit 0, or 2 on bad input or a setup
 * failure (it says which).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef RWF_DSYNC
#define RWF_DSYNC 0x02
#endif
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x08
#endif
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x80
#endif
#ifndef __NR_cachestat
#define __NR_cachestat 451
#endif

#define MAP_BYTES	(1 << 20)	/* the shared mapping's length */
#define WINDOW_MAX	(1 << 20)	/* the largest file a sequence makes */
#define INIT_BYTE	200		/* the initial written blocks (id 1000) */

struct kcachestat_range { uint64_t off, len; };
struct kcachestat {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted,
		 nr_recently_evicted;
};

static const char *path;
static int fs_ext4;
static long bsize = 4096;
static int f = -1, d = -1, g = -1;	/* buffered, O_DIRECT, second */
static char *map;
static sigjmp_buf fault_jmp;
static unsigned char *buf;

static void die(const char *what)
{
	fprintf(stderr, "diff-kernel-runner: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(fault_jmp, 1);
}

static int rwf_flags(const char *s)
{
	int flags = 0;

	if (strstr(s, "NOWAIT"))
		flags |= RWF_NOWAIT;
	if (strstr(s, "DSYNC"))
		flags |= RWF_DSYNC;
	if (strstr(s, "DONTCACHE"))
		flags |= RWF_DONTCACHE;
	return flags;
}

static long ret_of(long r)
{
	return r < 0 ? -errno : r;
}

/*
 * The initial file: i_size, then each run of written blocks with one
 * O_DIRECT write (allocated and written at once: nothing cached, nothing
 * dirty, nothing delayed) and each run of unwritten blocks with one
 * fallocate(KEEP_SIZE).  No fsync and no fadvise: the state every
 * operation sees (i_size, the extent map, an empty page cache, the
 * device's bytes) is the one a buffered write, an fsync and
 * POSIX_FADV_DONTNEED give (one extent per run of written blocks, as a
 * run of delalloc blocks allocated by one writeback); only the log's
 * copy on the device is older.  `runner --init fsync` builds it the old
 * way (buffered writes, fsync, DONTNEED), to check that the two give the
 * same answers (tools/diff-kernel/README.md).
 */
static int init_fsync;

static void make_file(long size, const char *layout)
{
	int fd, dfd;
	long n = layout[0] == '-' ? 0 : (long)strlen(layout);

	unlink(path);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die("create");
	if (ftruncate(fd, size) != 0)
		die("ftruncate");
	if (init_fsync) {
		memset(buf, INIT_BYTE, (size_t)bsize);
		for (long b = 0; b < n; b++) {
			if (layout[b] == 'W') {
				if (pwrite(fd, buf, (size_t)bsize, b * bsize) !=
				    bsize)
					die("pwrite layout");
			} else if (layout[b] == 'U') {
				if (fallocate(fd, FALLOC_FL_KEEP_SIZE,
					      b * bsize, bsize) != 0)
					die("fallocate layout");
			}
		}
		if (ftruncate(fd, size) != 0)
			die("ftruncate");
		if (fsync(fd) != 0)
			die("fsync");
		if (posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) != 0)
			die("fadvise");
		close(fd);
		return;
	}
	dfd = open(path, O_RDWR | O_DIRECT);
	if (dfd < 0)
		die("open O_DIRECT");
	for (long b = 0; b < n;) {
		long e = b + 1;

		while (e < n && layout[e] == layout[b])
			e++;
		if (layout[b] == 'W') {
			size_t len = (size_t)((e - b) * bsize);

			memset(buf, INIT_BYTE, len);
			if (pwrite(dfd, buf, len, b * bsize) != (ssize_t)len)
				die("O_DIRECT pwrite layout");
		} else if (layout[b] == 'U') {
			if (fallocate(fd, FALLOC_FL_KEEP_SIZE, b * bsize,
				      (e - b) * bsize) != 0)
				die("fallocate layout");
		}
		b = e;
	}
	close(dfd);
	close(fd);
}

static int open_fd(int flags)
{
	int fd = open(path, flags);

	if (fd < 0)
		die("open");
	/* No readahead: the model has none (only what is asked is read). */
	posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	return fd;
}

static long do_store(long off, long len, int byte)
{
	if (!map) {
		map = mmap(NULL, MAP_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED,
			   f, 0);
		if (map == MAP_FAILED)
			die("mmap");
		madvise(map, MAP_BYTES, MADV_RANDOM);
	}
	if (sigsetjmp(fault_jmp, 1))
		return -EFAULT;
	memset(map + off, byte, (size_t)len);
	return 0;
}

static long run_op(char *line, int byte)
{
	char op[32], a3[64] = "0";
	long a1 = 0, a2 = 0;
	struct iovec iov;
	int n = sscanf(line, "%31s %ld %ld %63s", op, &a1, &a2, a3);

	if (n < 1)
		return -EINVAL;
	iov.iov_base = buf;
	iov.iov_len = (size_t)a2;
	if (!strcmp(op, "pwrite") || !strcmp(op, "dwrite")) {
		int flags = rwf_flags(a3);
		int fd = op[0] == 'd' ? d : f;

		memset(buf, byte, (size_t)a2);
		if (flags & RWF_NOWAIT)
			futimens(fd, NULL);
		return ret_of(pwritev2(fd, &iov, 1, a1, flags));
	}
	if (!strcmp(op, "pread"))
		return ret_of(preadv2(fs_ext4 ? g : f, &iov, 1, a1,
				      rwf_flags(a3)));
	if (!strcmp(op, "mstore"))
		return do_store(a1, a2, byte);
	if (!strcmp(op, "munmap")) {
		if (map)
			munmap(map, MAP_BYTES);
		map = NULL;
		return 0;
	}
	if (!strcmp(op, "truncate"))
		return ret_of(ftruncate(f, a1));
	if (!strcmp(op, "falloc"))
		return ret_of(fallocate(f, atoi(a3) ? FALLOC_FL_KEEP_SIZE : 0,
					a1, a2));
	if (!strcmp(op, "punch"))
		return ret_of(fallocate(f, FALLOC_FL_PUNCH_HOLE |
					FALLOC_FL_KEEP_SIZE, a1, a2));
	if (!strcmp(op, "fsync"))
		return ret_of(fsync(f));
	if (!strcmp(op, "fdatasync"))
		return ret_of(fdatasync(f));
	if (!strcmp(op, "sfr"))
		return ret_of(sync_file_range(f, a1, a2,
					      (unsigned int)atoi(a3)));
	if (!strcmp(op, "reopen")) {
		close(g);
		g = open_fd(O_RDWR);
		return 0;
	}
	fprintf(stderr, "diff-kernel-runner: unknown op '%s'\n", op);
	exit(2);
}

static void print_map(long window)
{
	long nblocks = window / bsize;
	char *letters = malloc((size_t)nblocks + 1);
	size_t sz = sizeof(struct fiemap) + 256 * sizeof(struct fiemap_extent);
	struct fiemap *fm = calloc(1, sz);

	memset(letters, 'H', (size_t)nblocks);
	letters[nblocks] = 0;
	fm->fm_start = 0;
	fm->fm_length = FIEMAP_MAX_OFFSET;
	fm->fm_extent_count = 256;
	if (ioctl(f, FS_IOC_FIEMAP, fm) != 0)
		die("FIEMAP");
	for (unsigned int i = 0; i < fm->fm_mapped_extents; i++) {
		struct fiemap_extent *e = &fm->fm_extents[i];
		char c = 'W';

		if (e->fe_flags & FIEMAP_EXTENT_DELALLOC)
			c = 'D';
		else if (e->fe_flags & FIEMAP_EXTENT_UNWRITTEN)
			c = 'U';
		for (uint64_t p = e->fe_logical;
		     p < e->fe_logical + e->fe_length; p += (uint64_t)bsize)
			if ((long)(p / (uint64_t)bsize) < nblocks)
				letters[p / (uint64_t)bsize] = c;
	}
	printf("map %s\n", letters);
	free(letters);
	free(fm);
}

/*
 * One sequence from IN, up to its end (a line "end", or the end of the
 * input): its answer on stdout, then "end".  Everything a sequence
 * opened or mapped is closed and its file unlinked before the next.
 */
static int run_sequence(FILE *in)
{
	char line[256];
	long size = 0, window = 65536;
	char layout[1100] = "-";
	int i = 0, seen = 0;

	fs_ext4 = 0;
	bsize = 4096;
	f = d = g = -1;
	while (fgets(line, sizeof(line), in)) {
		char key[32];

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%31s", key) != 1)
			continue;
		seen = 1;
		if (!strcmp(key, "end")) {
			break;
		} else if (!strcmp(key, "fs")) {
			fs_ext4 = strstr(line, "ext4") != NULL;
		} else if (!strcmp(key, "bsize")) {
			bsize = atol(line + 6);
		} else if (!strcmp(key, "window")) {
			window = atol(line + 7);
		} else if (!strcmp(key, "init")) {
			if (sscanf(line, "init %ld %1099s", &size, layout) < 1)
				die("init");
			make_file(size, layout);
			f = open_fd(O_RDWR);
			d = open_fd(O_RDWR | O_DIRECT);
			g = open_fd(O_RDWR);
		} else {
			if (f < 0)
				die("a statement before init");
			printf("ret %d %ld\n", i, run_op(line, i + 1));
			i++;
		}
	}
	if (!seen)
		return 0;
	if (f < 0)
		die("a sequence without init");
	fflush(stdout);
	/* The end state: wait for writeback in flight, then look. */
	sync_file_range(f, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE);
	{
		off_t end = lseek(f, 0, SEEK_END);
		struct kcachestat_range r = { 0, 0 };
		struct kcachestat cs;

		printf("size %lld\n", (long long)end);
		print_map(window);
		if (syscall(__NR_cachestat, f, &r, &cs, 0) != 0)
			die("cachestat");
		printf("cache %llu %llu %llu\n",
		       (unsigned long long)cs.nr_cache,
		       (unsigned long long)cs.nr_dirty,
		       (unsigned long long)cs.nr_writeback);
		if (end > WINDOW_MAX)
			end = WINDOW_MAX;
		if (pread(f, buf, (size_t)end, 0) != end)
			die("final read");
		printf("data");
		for (off_t s = 0; s < end; s += 512) {
			off_t e = s + 512 < end ? s + 512 : end;
			int v = buf[s], mixed = 0;

			for (off_t b = s; b < e; b++)
				mixed |= buf[b] != v;
			if (mixed)
				printf(" ?");
			else
				printf(" %d", v == 0 ? 0 : v == INIT_BYTE ?
				       1000 : 99 + v);
		}
		printf("\n");
	}
	if (map)
		munmap(map, MAP_BYTES);
	map = NULL;
	close(f);
	close(d);
	close(g);
	unlink(path);
	printf("end\n");
	fflush(stdout);
	return 1;
}

int main(int argc, char **argv)
{
	FILE *in;
	struct sigaction sa = { .sa_handler = on_sigbus };

	if (argc == 5 && !strcmp(argv[1], "--init") &&
	    !strcmp(argv[2], "fsync")) {
		init_fsync = 1;
		argv += 2;
		argc -= 2;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: diff-kernel-runner [--init fsync] "
			"SEQUENCE|- PATH\n");
		return 2;
	}
	path = argv[2];
	in = strcmp(argv[1], "-") ? fopen(argv[1], "r") : stdin;
	if (!in)
		die(argv[1]);
	if (posix_memalign((void **)&buf, 4096, WINDOW_MAX))
		die("buffer");
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	/* One sequence from a file; from "-", sequences until the end. */
	while (run_sequence(in) && in == stdin)
		;
	return 0;
}
