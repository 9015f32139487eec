// SPDX-License-Identifier: MIT
/*
 * tools/ext4-dio-nowait-probe.c - ask the running kernel what an O_DIRECT
 * pwritev2(..., RWF_NOWAIT) returns for a block layout and a range.
 *
 * This is the real-kernel witness for the ext4 DIO lock decision (issue
 * 7): with RWF_NOWAIT, ext4_dio_write_iter returns -EAGAIN wherever it
 * would need the exclusive i_rwsem (or to wait for DIO), so the return
 * value shows the lock decision of the kernel that runs here.
 *
 * For each case: make a file in DIR whose blocks follow LAYOUT (W written
 * with pwrite + fsync, U unwritten with fallocate, H hole), sized to the
 * layout; drop its page cache (fsync + POSIX_FADV_DONTNEED); do one
 * blocking O_DIRECT overwrite of a written block (so S_NOSEC is set and
 * the timestamps are current: file_modified() then has nothing to do),
 * then the RWF_NOWAIT write.  Prints one line per case:
 *   layout offset length result
 * where result is the byte count or -EAGAIN/-errno.  The model's
 * `wpsim` answer for the same case must agree under ext4_dio=base.
 *
 * Usage: ext4-dio-nowait-probe DIR                 (the built-in table)
 *        ext4-dio-nowait-probe DIR LAYOUT OFF LEN   (one case)
 * Exit: 0 done, 2 bad usage or a setup step failed (it says which).
 * Not a test: CI's kernel may differ; run it by hand (docs/HACKING.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif

#define BS 4096

static int fail(const char *what, const char *path)
{
	fprintf(stderr, "ext4-dio-nowait-probe: %s %s: %s\n", what, path,
		strerror(errno));
	return 2;
}

/* Build the layout; return an open O_DIRECT fd or -1 (errno set). */
static int make_file(const char *path, const char *layout, void *buf)
{
	size_t nblocks = strlen(layout);
	int fd;

	unlink(path);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)(nblocks * BS)) != 0)
		return -1;
	for (size_t b = 0; b < nblocks; b++) {
		if (layout[b] == 'W') {
			memset(buf, 'a' + (int)(b % 26), BS);
			if (pwrite(fd, buf, BS, (off_t)(b * BS)) != BS)
				return -1;
		} else if (layout[b] == 'U') {
			if (fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)(b * BS),
				      BS) != 0)
				return -1;
		} else if (layout[b] != 'H') {
			errno = EINVAL;
			return -1;
		}
	}
	if (fsync(fd) != 0)
		return -1;
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	return open(path, O_RDWR | O_DIRECT);
}

static int probe(const char *dir, const char *layout, long off, long len)
{
	char path[4096];
	void *buf;
	struct iovec iov;
	const char *w = strchr(layout, 'W');
	ssize_t ret;
	int fd;

	snprintf(path, sizeof(path), "%s/wpsim-probe.%d", dir, (int)getpid());
	if (posix_memalign(&buf, BS, (size_t)len + 2 * BS))
		return fail("allocating a buffer for", path);
	fd = make_file(path, layout, buf);
	if (fd < 0)
		return fail("making the layout in", path);
	if (w) {
		/* The blocking warm-up: an aligned overwrite in place. */
		off_t wpos = (off_t)(w - layout) * BS;

		memset(buf, 'w', BS);
		if (pwrite(fd, buf, BS, wpos) != BS)
			return fail("warm-up write to", path);
	}
	memset(buf, 'z', (size_t)len);
	iov.iov_base = buf;
	iov.iov_len = (size_t)len;
	ret = pwritev2(fd, &iov, 1, off, RWF_NOWAIT);
	if (ret < 0)
		printf("%-8s %6ld %6ld %s\n", layout, off, len,
		       errno == EAGAIN ? "-EAGAIN" : strerror(errno));
	else
		printf("%-8s %6ld %6ld %zd\n", layout, off, len, ret);
	close(fd);
	unlink(path);
	free(buf);
	return 0;
}

struct probe_case {
	const char *layout;
	long off, len;
	const char *why;
};

static const struct probe_case cases[] = {
	/* The seed's test 1: aligned 8 KiB over written + unwritten. */
	{ "WUWW", 0, 8192, "seed 002 test 1: aligned, written+unwritten" },
	/* The seed's test 2: 14336 bytes at +512 over [W][U][U][W]. */
	{ "WUUW", 512, 14336, "seed 002 test 2: unaligned, partial on W" },
	{ "WWWW", 0, 8192, "aligned pure overwrite" },
	{ "WWWW", 512, 1024, "unaligned inside one written block" },
	{ "WWWW", 512, 8192, "unaligned over written blocks" },
	{ "WUWW", 512, 1024, "unaligned inside a written block, U later" },
	{ "UWWW", 512, 1024, "unaligned inside an unwritten block" },
	{ "WHWW", 4096, 4096, "aligned over a hole" },
	{ "WHWW", 4608, 1024, "unaligned inside a hole" },
	{ "WWHW", 512, 8192, "unaligned, tail partial on a hole" },
	{ "WWWW", 16384, 4096, "aligned, extending" },
	{ "WWWW", 15872, 1024, "unaligned, extending" },
	{ "WUUW", 0, 16384, "aligned, whole file, mixed" },
};

int main(int argc, char **argv)
{
	struct stat st;

	if (argc != 2 && argc != 5) {
		fprintf(stderr, "usage: ext4-dio-nowait-probe DIR "
			"[LAYOUT OFFSET LENGTH]\n");
		return 2;
	}
	if (stat(argv[1], &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "ext4-dio-nowait-probe: %s: not a directory\n",
			argv[1]);
		return 2;
	}
	if (argc == 5) {
		char *end;
		long off = strtol(argv[3], &end, 0), len;

		if (*end || off < 0) {
			fprintf(stderr, "ext4-dio-nowait-probe: OFFSET: expected "
				"a non-negative integer, found '%s'\n", argv[3]);
			return 2;
		}
		len = strtol(argv[4], &end, 0);
		if (*end || len <= 0 || len > (1L << 24)) {
			fprintf(stderr, "ext4-dio-nowait-probe: LENGTH: expected "
				"1..16777216, found '%s'\n", argv[4]);
			return 2;
		}
		return probe(argv[1], argv[2], off, len);
	}
	printf("# layout offset length result   (block size %d)\n", BS);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc;

		printf("# %s\n", cases[i].why);
		rc = probe(argv[1], cases[i].layout, cases[i].off,
			   cases[i].len);
		if (rc)
			return rc;
	}
	return 0;
}
