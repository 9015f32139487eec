// SPDX-License-Identifier: MIT
/*
 * tools/diff-kernel/race-probe.c - two interleavings the sequential
 * oracle cannot ask, forced on the running kernel (issue 30, Build item
 * 3), each compared with a scenario's Sometimes/Never.
 *
 *   race-probe dontcache-read DIR N
 *	Item 8 (tests/fidelity/item08-read-keeps-dropbehind.litmus).  N
 *	rounds on a one-page file in DIR: thread W writes the page with
 *	pwritev2(RWF_DONTCACHE) (its writeback starts at once) and raises
 *	a flag; thread R, spinning on the flag, reads the page at once.
 *	Then writeback is waited for and cachestat(2) says whether the
 *	page is still cached.  Counted: rounds where the read returned
 *	the write's bytes and the page was dropped anyway (the read found
 *	the dropbehind folio and did not keep it: v6.18 filemap_read never
 *	clears PG_dropbehind), and the other outcomes.
 *
 *   race-probe nowait-ilock DIR N
 *	Item 6 (tests/fidelity/item06-nowait-ilock.litmus).  Thread F
 *	keeps the XFS ILOCK busy without the IOLOCK: stores through a
 *	shared mapping dirty every other page of a fresh MiB of a second
 *	region (the write fault reserves delalloc under the ILOCK and
 *	takes no IOLOCK) and sync_file_range writes them back
 *	(xfs_map_blocks, xfs_bmapi_convert_delalloc: the ILOCK).  Thread N makes
 *	N RWF_NOWAIT buffered overwrites of a cached written page of the
 *	first region (the IOLOCK is free: only N takes it).  Counted:
 *	-EAGAIN answers, with F running and, as a control, without it.
 *
 * Not a test (the kernel may differ; the machine is shared, so the
 * counts are a witness that an outcome exists, not a rate).  Exit 0, 2
 * on bad usage or a setup failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x08
#endif
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x80
#endif
#ifndef __NR_cachestat
#define __NR_cachestat 451
#endif

struct cs_range { uint64_t off, len; };
struct cs { uint64_t nr_cache, nr_dirty, nr_writeback, a, b; };

static int fd;
static atomic_int go, stop;
static char wbuf[4096] __attribute__((aligned(4096)));
static char rbuf[4096] __attribute__((aligned(4096)));
static long read_ret;

static void die(const char *what)
{
	fprintf(stderr, "race-probe: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void *reader(void *arg)
{
	struct iovec iov = { rbuf, sizeof(rbuf) };

	(void)arg;
	while (!atomic_load(&go))
		;
	read_ret = preadv2(fd, &iov, 1, 0, 0);
	return NULL;
}

static int dontcache_read(const char *dir, long n)
{
	char path[4096];
	long dropped_after_read = 0, kept = 0, read_old = 0, dropped = 0;

	snprintf(path, sizeof(path), "%s/race-dontcache", dir);
	for (long i = 0; i < n; i++) {
		struct iovec iov = { wbuf, sizeof(wbuf) };
		struct cs_range r = { 0, 0 };
		struct cs c;
		pthread_t t;
		int byte = 1 + (int)(i % 250);

		unlink(path);
		fd = open(path, O_RDWR | O_CREAT, 0600);
		if (fd < 0)
			die("open");
		memset(wbuf, 0xff, sizeof(wbuf));
		if (pwrite(fd, wbuf, 4096, 0) != 4096 || fsync(fd) ||
		    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
			die("setup");
		memset(wbuf, byte, sizeof(wbuf));
		atomic_store(&go, 0);
		if (pthread_create(&t, NULL, reader, NULL))
			die("thread");
		if (pwritev2(fd, &iov, 1, 0, RWF_DONTCACHE) != 4096)
			die("pwritev2");
		atomic_store(&go, 1);
		pthread_join(t, NULL);
		sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE);
		usleep(1000);
		if (syscall(__NR_cachestat, fd, &r, &c, 0))
			die("cachestat");
		if (read_ret != 4096)
			die("read");
		if (rbuf[0] != byte)
			read_old++;
		else if (c.nr_cache == 0)
			dropped_after_read++;
		else
			kept++;
		dropped += c.nr_cache == 0;
		close(fd);
	}
	unlink(path);
	printf("dontcache-read %ld rounds: read the write's data and the page "
	       "dropped %ld, read the write's data and the page kept %ld, "
	       "read the old data %ld (dropped in all %ld)\n", n,
	       dropped_after_read, kept, read_old, dropped);
	return 0;
}

#define MAP_MIB 512
static char *map;

static void *flusher(void *arg)
{
	long k = 0;

	(void)arg;
	while (!atomic_load(&stop)) {
		/* Every other page of the next MiB of the second region:
		 * 128 delalloc extents, each its own allocation at
		 * writeback.  No IOLOCK on this side (no write(2), no
		 * truncate, no fallocate). */
		off_t base = ((off_t)1 << 20) * (1 + k % (MAP_MIB - 1));

		for (int p = 0; p < 256; p += 2)
			map[base + p * 4096] = (char)(k + 1);
		sync_file_range(fd, base, 256 * 4096,
				SYNC_FILE_RANGE_WRITE |
				SYNC_FILE_RANGE_WAIT_AFTER);
		k++;
	}
	return NULL;
}

static long nowait_round(long n)
{
	struct iovec iov = { wbuf, sizeof(wbuf) };
	long eagain = 0;

	for (long i = 0; i < n; i++) {
		long r;

		futimens(fd, NULL);	/* a NOWAIT write must not update times */
		r = pwritev2(fd, &iov, 1, 0, RWF_NOWAIT);
		if (r < 0 && errno == EAGAIN)
			eagain++;
		else if (r != 4096)
			die("nowait pwritev2");
	}
	return eagain;
}

static int nowait_ilock(const char *dir, long n)
{
	char path[4096];
	pthread_t t;
	long control, busy;

	snprintf(path, sizeof(path), "%s/race-ilock", dir);
	unlink(path);
	fd = open(path, O_RDWR | O_CREAT, 0600);
	if (fd < 0)
		die("open");
	memset(wbuf, 7, sizeof(wbuf));
	if (ftruncate(fd, (off_t)MAP_MIB << 20) || pwrite(fd, wbuf, 4096, 0) != 4096 ||
	    fsync(fd))
		die("setup");
	map = mmap(NULL, (size_t)MAP_MIB << 20, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die("mmap");
	control = nowait_round(n);
	atomic_store(&stop, 0);
	if (pthread_create(&t, NULL, flusher, NULL))
		die("thread");
	busy = nowait_round(n);
	atomic_store(&stop, 1);
	pthread_join(t, NULL);
	printf("nowait-ilock %ld NOWAIT overwrites: -EAGAIN %ld with the "
	       "ILOCK busy (writeback allocating), %ld without (control)\n",
	       n, busy, control);
	munmap(map, (size_t)MAP_MIB << 20);
	close(fd);
	unlink(path);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: race-probe dontcache-read|nowait-ilock "
			"DIR N\n");
		return 2;
	}
	if (!strcmp(argv[1], "dontcache-read"))
		return dontcache_read(argv[2], atol(argv[3]));
	if (!strcmp(argv[1], "nowait-ilock"))
		return nowait_ilock(argv[2], atol(argv[3]));
	fprintf(stderr, "race-probe: unknown probe '%s'\n", argv[1]);
	return 2;
}
