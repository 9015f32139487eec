#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-reads.sh WPSIM SOURCE-ROOT - `wpsim fio` reads (TAP):
# ioengine=io_uring runs read, randread and a 70/30 randrw
# (model/io_uring/rw.c km_io_read), and a sequential buffered read reads
# ahead (model/mm/readahead.c): every page of the file is read from the
# device once, and the readahead never reads past EOF.  No timing is
# asserted.
wpsim=$1
root=$2
cd "$root" || exit 2
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
. tests/lib/tap.sh
tap_diag="$out $err"
tap_diag_lines=30

# issued JOB-OPTIONS...: fio's "issued rwts: total=R,W" of one job.
issued() {
	"$wpsim" fio --name=r --filename=f --bs=4k "$@" >"$out" 2>"$err" &&
	sed -n 's/.*issued rwts: total=\([0-9]*\),\([0-9]*\),.*/\1 \2/p' "$out"
}

for rw in read randread; do
	got=$(issued --rw=$rw --size=256k --ioengine=io_uring --iodepth=8)
	if [ "$got" = "64 0" ] && grep -q "err= 0:" "$out"; then
		ok "io_uring rw=$rw: 64 reads"
	else
		not_ok "io_uring rw=$rw (issued '$got')"
	fi
done
got=$(issued --rw=randrw --rwmixread=70 --size=256k --ioengine=io_uring \
	--iodepth=8)
r=${got% *} w=${got#* }
if [ -n "$got" ] && [ $((r + w)) = 64 ] && [ "$r" -gt "$w" ] &&
   grep -q "err= 0:" "$out"; then
	ok "io_uring randrw 70/30: $r reads, $w writes"
else
	not_ok "io_uring randrw 70/30 (issued '$got')"
fi

# Readahead: a 100 KiB file (25 pages) read 4 KiB at a time: 25 reads,
# the device reads each of its 25 pages once (the windows are clamped to
# the page holding the last byte).
"$wpsim" fio --name=r --filename=f --bs=4k --rw=read --size=100k \
	--group-spans >"$out" 2>"$err"
if grep -q "issued rwts: total=25,0," "$out" &&
   grep -q "^wpsim fio: device page reads 25$" "$err"; then
	ok "sequential buffered read: 25 pages read once, none past EOF"
else
	not_ok "sequential buffered read with readahead"
fi
tap_end
