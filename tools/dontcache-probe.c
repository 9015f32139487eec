// SPDX-License-Identifier: MIT
/*
 * tools/dontcache-probe.c - ask the running kernel what RWF_DONTCACHE
 * writes of packed records do to the page cache and the device.
 *
 * This is the real-kernel witness for the pre-fix DONTCACHE behaviour
 * (issue 6, seed 003): on a kernel without the series (v6.14 .. v7.3
 * mainline), a dropbehind folio is dropped when its writeback ends
 * (folio_end_dropbehind), also when a write covered only part of it, so
 * the next record that starts in that page must read it back from the
 * device before it can copy in (the "reading back shared pages" of the
 * seed's title).  The model predicts, for dontcache=v6_18 and a writer
 * whose writeback completes between writes (mode "wait"), one device
 * page read per record whose start is not page-aligned; for v12, none.
 *
 * For each record size R and mode: a fresh file in DIR; N records of R
 * bytes written back to back with pwritev2(..., RWF_DONTCACHE).  Mode
 * "wait" waits for each record's writeback (sync_file_range WAIT_BEFORE |
 * WRITE | WAIT_AFTER) before the next write; mode "async" does not (the
 * kernel's own writeback kick races with the next write, as under load).
 * Device reads come from /proc/self/io read_bytes (block/blk-core.c
 * accounts read bios to the submitting task); pages left in the page
 * cache from cachestat(2) after an fsync.  One line per case:
 *   record_bytes mode records reads_per_write pages_cached_after
 *
 * Usage: dontcache-probe DIR [RECORDS]     (default 1000 records)
 * Exit: 0 done, 2 bad usage or a step failed (it says which).
 * Not a test: CI's kernel may differ; run it by hand (make probe-dontcache).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080
#endif
#ifndef __NR_cachestat
#define __NR_cachestat 451
#endif

#define PAGE 4096

struct cachestat_range {
	uint64_t off, len;
};

struct cachestat {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted,
		 nr_recently_evicted;
};

static int fail(const char *what, const char *path)
{
	fprintf(stderr, "dontcache-probe: %s %s: %s\n", what, path,
		strerror(errno));
	return 2;
}

/* read_bytes of /proc/self/io, or -1. */
static long long read_bytes(void)
{
	FILE *f = fopen("/proc/self/io", "r");
	char line[128];
	long long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "read_bytes: %lld", &v) == 1)
			break;
	fclose(f);
	return v;
}

static int probe(const char *dir, size_t record, bool wait, long records)
{
	char path[4096];
	char *buf = malloc(record);
	struct cachestat_range range = { 0, 0 };
	struct cachestat cs = { 0 };
	long long before, after;
	int fd;

	if (!buf)
		return fail("malloc", "");
	memset(buf, 'r', record);
	snprintf(path, sizeof(path), "%s/dontcache-probe.dat", dir);
	unlink(path);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return fail("open", path);
	before = read_bytes();
	if (before < 0)
		return fail("read", "/proc/self/io");
	for (long i = 0; i < records; i++) {
		struct iovec v = { buf, record };
		off_t off = (off_t)i * (off_t)record;

		if (pwritev2(fd, &v, 1, off, RWF_DONTCACHE) != (ssize_t)record)
			return fail("pwritev2 RWF_DONTCACHE", path);
		if (wait && sync_file_range(fd, off, (off_t)record,
					    SYNC_FILE_RANGE_WAIT_BEFORE |
					    SYNC_FILE_RANGE_WRITE |
					    SYNC_FILE_RANGE_WAIT_AFTER) != 0)
			return fail("sync_file_range", path);
	}
	if (fsync(fd) != 0)
		return fail("fsync", path);
	after = read_bytes();
	if (syscall(__NR_cachestat, fd, &range, &cs, 0) != 0)
		cs.nr_cache = (uint64_t)-1;
	printf("%8zu %-5s %6ld %8.4f %6lld\n", record, wait ? "wait" : "async",
	       records, (double)(after - before) / PAGE / (double)records,
	       cs.nr_cache == (uint64_t)-1 ? -1LL : (long long)cs.nr_cache);
	close(fd);
	unlink(path);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 47008, 6000, 4096 };
	long records = 1000;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: dontcache-probe DIR [RECORDS]\n");
		return 2;
	}
	if (argc == 3) {
		char *end;

		records = strtol(argv[2], &end, 10);
		if (*end || records < 1) {
			fprintf(stderr, "dontcache-probe: RECORDS: expected a "
				"number >= 1, found '%s'\n", argv[2]);
			return 2;
		}
	}
	printf("# record_bytes mode records reads_per_write pages_cached_after\n");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (int wait = 1; wait >= 0; wait--) {
			int rc = probe(argv[1], sizes[i], wait, records);

			if (rc)
				return rc;
		}
	return 0;
}
