#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-verify-break.sh WPSIM SOURCE-ROOT - fio's verify as a
# whole-workload data-loss check (TAP; issue 29, "Must show"): one
# verify=crc32c job passes under every released variant, and reports a
# verify failure as fio 3.33 does under break=writeback_skips_eof_folio,
# which loses the write of the file's last folio.
#
# The interleaving: the job writes 16 blocks of 4 KiB (buffered, psync);
# at its end fio closes the file and, for the verify pass, opens it again:
# invalidate=1 (fio's default) runs posix_fadvise(POSIX_FADV_DONTNEED),
# which starts writeback of the dirty folios (WB_SYNC_NONE) and evicts the
# clean ones (model/mm/fadvise.c).  Then each block is read back.
# - What must hold: every block reads back the job's last write of it
#   (the folios under writeback stay cached; those already written come
#   from the device).
# - The bug (iomap_writeback_handle_eof takes the folio holding the last
#   byte for one wholly beyond EOF): writeback_iter clears the last
#   folio's dirty flag, no writeback starts, DONTNEED evicts the clean
#   folio, and the read finds the device's zeroes: fio's "bad magic
#   header 0" at offset 61440, err=84 (EILSEQ), exit 1.
# Kernel: mm/fadvise.c, mm/truncate.c, fs/iomap/buffered-io.c, v6.18;
# fio 3.33 backend.c do_verify, ioengines.c td_io_open_file.
wpsim=$1
root=$2
cd "$root" || exit 2
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
. tests/lib/tap.sh
tap_diag="$out $err"
tap_diag_lines=30

job="--name=v --filename=f --rw=write --bs=4k --size=64k --verify=crc32c"
# Every released variant: each KEY=VALUE that `wpsim list variants`
# lists, but break= and the values marked "test only".
variants=$("$wpsim" list variants | awk '
	/^--variant also takes/ { exit }
	/^  [a-z_0-9]+=[a-z_0-9]+ / && $1 !~ /^break=/ && !/test only/ {
		print $1 }')
if [ -z "$variants" ]; then
	not_ok "wpsim list variants lists the variants"
fi
for v in $variants; do
	# The path each key changes: RWF_DONTCACHE and RWF_WRITETHROUGH
	# writes (pvsync2), ext4 O_DIRECT; uring= changes io_uring writes,
	# which verify cannot read back yet (an error in wpsim fio), so its
	# values run the psync job; rwsem= and sync_tag= change every path.
	case $v in
	dontcache=*) path="--ioengine=pvsync2 --uncached=1" ;;
	writethrough=*) path="--ioengine=pvsync2 --writethrough=1" ;;
	ext4_dio=*) path="--direct=1 --fs=ext4" ;;
	*) path= ;;
	esac
	# shellcheck disable=SC2086 # $job and $path are lists of options
	"$wpsim" fio $job $path --variant "$v" >"$out" 2>"$err"
	got=$?
	asan_quiet "$err"
	if [ "$got" = 0 ] && grep -q "^v: (groupid=0, jobs=1): err= 0:" "$out" &&
	   grep -q "issued rwts: total=16,16,0,0 " "$out" && [ ! -s "$err" ]; then
		ok "verify=crc32c passes under $v${path:+ ($path)}: 16 blocks written, read back, verified"
	else
		not_ok "verify=crc32c under $v (exit $got)"
	fi
done

# The lost write: fio's verify failure, in fio 3.33's words.
# shellcheck disable=SC2086
"$wpsim" fio $job --variant break=writeback_skips_eof_folio >"$out" 2>"$err"
got=$?
asan_quiet "$err"
want="verify: bad magic header 0, wanted acca at file f offset 61440, length 4096 (requested block: offset=61440, length=4096)"
if [ "$got" = 1 ] && [ "$(head -1 "$err")" = "$want" ] &&
   grep -q "^fio: pid=1, err=84/file:io_u.c:2152, func=io_u_sync_complete" "$err" &&
   grep -q "^v: (groupid=0, jobs=1): err=84 " "$out"; then
	ok "break=writeback_skips_eof_folio: verify failure at offset 61440, err=84, exit 1"
else
	not_ok "break=writeback_skips_eof_folio: a verify failure (exit $got)"
fi
tap_end
