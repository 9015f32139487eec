#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-unwritten-extend.sh WPSIM SOURCE-ROOT - an unwritten
# conversion costs unwritten_convert_ns when it inserts an extent record
# and unwritten_extend_ns when it does not (TAP; session 17, h17-dc,
# docs/validation.md).
#
# xfs_bmap_add_extent_unwritten_real (fs/xfs/libxfs/xfs_bmap.c, v6.18):
# converting a block in the middle of an unwritten extent inserts two
# records (case 0), the block that follows written ones extends the
# written extent and inserts none (LEFT_FILLING | LEFT_CONTIG).  fio lays
# a write job's file out without overwrite as one unwritten extent
# (fallocate=native), so O_DIRECT 4 KiB writes in order convert by
# extending (the first write, at the extent's start with a hole on its
# left, inserts one record), and random ones split.  A CPU profile with
# unwritten_convert_ns = 2 ms and unwritten_extend_ns = 1 ns: most
# random writes pay the 2 ms (the completion converts in the writer's
# context; one that lands next to a written block extends it), the
# writes in order do not, but the first (2 ms over 16 writes).
wpsim=$1
root=$2
cd "$root" || exit 2
err=$(mktemp)
dir=$(mktemp -d)
trap 'rm -rf "$err" "$dir"' EXIT
. tests/lib/tap.sh
tap_diag="$err"

{ grep -v '^unwritten_' profiles/cpu/default.cpu
  echo "unwritten_convert_ns = 2000000"
  echo "unwritten_extend_ns = 1"; } >"$dir/p.cpu"
lat() {	# RW -> the write clat mean in ns (integer)
	(cd "$dir" && "$wpsim" fio --name=u --rw="$1" --bs=4k --direct=1 \
		--ioengine=psync --size=1m --io_size=64k --filename=u.dat \
		--cpu-profile="$dir/p.cpu" --device=virtio-vm \
		--output-format=json 2>"$err") |
		python3 -c 'import json,sys; print(int(json.load(sys.stdin)["jobs"][0]["write"]["clat_ns"]["mean"]))'
}
seq=$(lat write)
rand=$(lat randwrite)
if [ -n "$seq" ] && [ -n "$rand" ] && [ "$rand" -gt 1000000 ] &&
   [ "$seq" -lt 500000 ] 2>/dev/null; then
	ok "16 random writes into an unwritten file split it (clat mean $rand ns: most pay unwritten_convert_ns); 16 in order extend the written extent (mean $seq ns: the first write's split only)"
else
	not_ok "conversion costs: random mean '$rand', in order '$seq' ns"
fi
tap_end
