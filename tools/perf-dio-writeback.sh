#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/perf-dio-writeback.sh DIR - measure, on this machine's kernel,
# the CPU of the O_DIRECT write path above the bio and of writeback
# submission (profiles/cpu/default.cpu: ext4_dio_write_ns ...
# writepage_map_ns).  Not a test: it needs perf, fio and a local ext4 DIR
# (the root is), and another machine's kernel differs.  Two fio 3.33 jobs
# of 6 s each run under `perf record -a -g` (cpu-clock, 4 kHz): psync 4
# KiB random O_DIRECT overwrites of a 256 MiB file, then psync 4 KiB
# random buffered overwrites with sync_file_range=write:1.  For each it
# prints the writes fio issued, the sample period, and the inclusive
# samples of the fio task in each kernel function named below; the cost
# table's figures are differences of these (per write: samples x period /
# writes), as default.cpu shows.
dir=${1:?usage: perf-dio-writeback.sh DIR}
mkdir -p "$dir" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

inclusive() {	# inclusive PERF.DATA COMM SYM,SYM...
	perf script -i "$1" -F comm,ip,sym 2>/dev/null | python3 -c '
import collections, sys
comm, syms = sys.argv[1], sys.argv[2].split(",")
inc, cur, frames = collections.Counter(), None, set()
def flush():
	if cur == comm:
		for f in frames:
			inc[f] += 1
for line in sys.stdin:
	if not line.strip():
		flush(); cur, frames = None, set()
	elif not line[0].isspace():
		cur = line.split()[0]
	else:
		p = line.split()
		if p:
			frames.add(p[-1])
flush()
for s in syms:
	print("  %-32s %7d" % (s, inc[s]))' "$2" "$3"
}

run() {	# run NAME SYMS FIO-ARGS...
	name=$1 syms=$2
	shift 2
	perf record -a -g -o "$tmp/$name.data" -- fio --name="$name" \
		--time_based=1 --runtime=6 --bs=4k --ioengine=psync \
		--rw=randwrite --output-format=json --output="$tmp/$name.json" \
		"$@" >/dev/null 2>&1 || exit 1
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print("%s: %d writes" % (sys.argv[2], d["jobs"][0]["write"]["total_ios"]))' \
		"$tmp/$name.json" "$name"
	perf report -i "$tmp/$name.data" --header-only 2>/dev/null |
		grep -o 'name = cpu-clock[^,]*\|sample_freq } = [0-9]*'
	inclusive "$tmp/$name.data" fio "$syms"
}

fio --name=pre --filename="$dir/dio" --size=256m --rw=write --bs=1m \
	--direct=1 >/dev/null 2>&1 || exit 1
run dio ext4_file_write_iter,iomap_dio_rw,blk_finish_plug,submit_bio_noacct_nocheck,io_schedule_timeout,iomap_dio_complete,iomap_dio_bio_end_io,try_to_wake_up \
	--filename="$dir/dio" --size=256m --direct=1
fio --name=pre --filename="$dir/wb" --size=64m --rw=write --bs=1m \
	>/dev/null 2>&1 || exit 1
run wb filemap_fdatawrite_wbc,ext4_do_writepages,blk_finish_plug,submit_bio_noacct_nocheck,__folio_start_writeback,ext4_bio_write_folio \
	--filename="$dir/wb" --size=64m --sync_file_range=write:1
rm -f "$dir/dio" "$dir/wb"
