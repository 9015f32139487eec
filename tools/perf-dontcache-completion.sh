#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/perf-dontcache-completion.sh DIR [PROBE] - measure, on this
# machine's kernel, the CPU of writeback completion and of delalloc
# blocks (profiles/cpu/default.cpu: writeback_end_ns, folio_drop_ns,
# unwritten_convert_ns, writeback_alloc_ns, delalloc_reserve_ns).  Not a
# test: it needs perf, root (perf record -a) and a local ext4 DIR, and
# another machine's kernel differs.  PROBE is tools/dontcache-
# interleaved-probe.c built (default build/dontcache-interleaved-probe,
# which `make probe-fio` builds).
#
# One thread writes 60,000 RWF_DONTCACHE 4 KiB records into a fresh file
# under `perf record -a -g` (cpu-clock, 4 kHz).  ext4 allocates the
# delalloc blocks at writeback as unwritten extents, so every ioend
# completes in the ext4-rsv-conversion kworker, in task context, where
# folio_end_writeback drops the folio.  Printed: for each function, the
# samples in every task whose call chain holds it, and those x 250 us /
# 60,000 (ns per write); for ext4_map_blocks, only the samples where
# ext4_do_writepages called it (the allocation at writeback, not the
# completion's conversion).  The cost table takes the median of three
# runs.
dir=${1:?usage: perf-dontcache-completion.sh DIR [PROBE]}
probe=${2:-build/dontcache-interleaved-probe}
writes=60000
[ -x "$probe" ] || { echo "$probe: not built (make probe-fio)" >&2; exit 2; }
mkdir -p "$dir" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rm -f "$dir/dontcache-interleaved.dat"
perf record -a -g -F 4000 -o "$tmp/dc.data" -- \
	"$probe" "$dir" 1 4096 "$writes" >/dev/null 2>&1 || exit 1
rm -f "$dir/dontcache-interleaved.dat"
perf script -i "$tmp/dc.data" -F comm,ip,sym 2>/dev/null | python3 -c '
import collections, sys
n = int(sys.argv[1])
syms = ["folio_end_writeback_no_dropbehind", "folio_unmap_invalidate",
        "ext4_convert_unwritten_io_end_vec", "ext4_da_get_block_prep"]
inc, called, stack = collections.Counter(), 0, []
def flush():
	global called
	for s in set(stack):
		inc[s] += 1
	if "ext4_do_writepages" in stack:
		i = stack.index("ext4_do_writepages")
		if i > 0 and stack[i - 1] == "ext4_map_blocks":
			called += 1
for line in sys.stdin:
	if not line.strip():
		flush(); stack = []
	elif not line[0].isspace():
		stack = []
	else:
		p = line.split()
		if p:
			stack.append(p[-1])
flush()
for s in syms:
	print("  %-40s %7d %7.0f ns/write" % (s, inc[s], inc[s] * 250000.0 / n))
print("  %-40s %7d %7.0f ns/write" % ("ext4_map_blocks <- ext4_do_writepages",
      called, called * 250000.0 / n))' "$writes"
