#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-layout-empty.sh WPSIM SOURCE-ROOT - fallocate=none on a
# write job without overwrite starts the file empty (TAP; session 16,
# h16-dc, docs/validation.md).
#
# fio 3.33's extend_file (filesetup.c): a write job without overwrite
# unlinks the file and creates it again; fallocate_file does nothing for
# fallocate=none, and the ftruncate to the job's size is only for a new
# layout (a read job, overwrite=1).  So the file is empty when the jobs
# start, as the DONTCACHE grid rows' real side
# (tools/dontcache-interleaved-probe.c, O_TRUNC) has it.  A write that
# starts past EOF then zeroes from the old EOF (xfs_file_write_zero_eof
# -> iomap_zero_range): the old EOF page, still dirty or under
# writeback, is dirtied again by a lookup without FGP_DONTCACHE (no
# longer dropbehind), so the neighbour record's write finds it cached
# and does not read it.  fallocate=truncate (ftruncate to the size
# first, the model's layout for fallocate=none until session 16) has no
# write past EOF.  Seed 003's writer, 4 jobs x 200 records of 47 008 B.
wpsim=$1
root=$2
cd "$root" || exit 2
err=$(mktemp)
dir=$(mktemp -d)
trap 'rm -rf "$err" "$dir"' EXIT
. tests/lib/tap.sh
tap_diag="$err"


reads() {	# FALLOCATE -> "ios reads"
	(cd "$dir" && "$wpsim" fio --name=r --ioengine=pvsync2 --uncached=1 \
		--fallocate="$1" --rw=write --bs=47008 --zonemode=strided \
		--zonesize=47008 --zoneskip=141024 --offset_increment=47008 \
		--size=37465376 --io_size=9401600 --numjobs=4 --thread \
		--filename=lay --group_reporting --group-spans \
		--variant dontcache=v6_18 --cpus=2 --device=virtio-vm \
		2>"$err" >/dev/null) || return 1
	awk '/group 0/ { ios = $6 } /device page reads/ { r = $NF }
	     END { print ios, r }' "$err"
}
set -- $(reads none) x x
none_ios=$1 none_r=$2
set -- $(reads truncate) x x
trunc_ios=$1 trunc_r=$2
if [ "$none_ios" = 800 ] && [ "$trunc_ios" = 800 ] &&
   [ "$none_r" -lt "$trunc_r" ] 2>/dev/null; then
	ok "fallocate=none starts the file empty: $none_r page reads against $trunc_r with fallocate=truncate (800 writes each): the zeroing past EOF keeps old EOF pages cached"
else
	not_ok "fallocate=none against truncate ($none_ios/$none_r, $trunc_ios/$trunc_r)"
fi
a=$(reads none)
if [ "$a" = "$none_ios $none_r" ]; then
	ok "the same run gives the same reads ($a)"
else
	not_ok "two runs differ ($a against $none_ios $none_r)"
fi
tap_end
