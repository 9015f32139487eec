#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-enospc.sh WPSIM SOURCE-ROOT - a full filesystem through
# `wpsim fio` (issue 29; docs/model/enospc.md, tools/wpsim/fio-err.c):
# --fs-size gives the model's XFS a free-space count, fill_device writes
# until ENOSPC and ends without an error (fio 3.33 backend.c do_io),
# continue_on_error/ignore_error make ENOSPC non-fatal and count it
# (total_err, first_error), error_dump prints or hides each error, and a
# job after the fill job takes its size from the file when it starts
# (create_serialize=0).  Each count is what real fio 3.33 printed for the
# same job on a loop XFS of the same free space (docs/fio.md "fill_device
# against real fio").  TAP.
wpsim=$1
root=$2
cd "$root" || exit 2
out=$(mktemp)
scratch=$(mktemp -d)
trap 'rm -f "$out"; rm -rf "$scratch"' EXIT
. tests/lib/tap.sh
tap_diag="$out"
tap_diag_lines=30

. tests/lib/fio-expect.sh

# has NAME PATTERN: the last run's output has a line matching PATTERN.
has() {
	if grep -Eq -- "$2" "$out"; then
		ok "$1"
	else
		not_ok "$1 (no '$2')"
	fi
}
# hasnt NAME PATTERN: it has none.
hasnt() {
	if grep -Eq -- "$2" "$out"; then
		not_ok "$1 ('$2' found)"
	else
		ok "$1"
	fi
}
run() {
	rm -f "$scratch"/*
	(cd "$scratch" && "$wpsim" fio "$@") >"$out" 2>&1
	rc=$?
	asan_quiet "$out"
	return $rc
}

# --- the options' values ---------------------------------------------------
expect "fill_device without --fs-size: an error naming it" 2 \
	"error: job 'w': fill_device needs the filesystem's size: --fs-size" -- \
	--name=w --filename=d --rw=write --bs=64k --direct=1 --fill_device=1
expect "continue_on_error=maybe: an error naming the values" 2 \
	"expected a value of continue_on_error \(none, read, write, io, verify, all, 0 or 1\), found 'maybe'" -- \
	--name=w --filename=d --rw=write --size=64k --continue_on_error=maybe
expect "ignore_error=,EDQUOT: fio 3.33 does not know the name" 2 \
	"fio 3.33 knows the names EPERM..ERANGE \(errno 1..34\) only" -- \
	--name=w --filename=d --rw=write --size=64k --ignore_error=,EDQUOT
expect "ignore_error with four lists: an error" 2 \
	"at most three lists" -- \
	--name=w --filename=d --rw=write --size=64k --ignore_error=5,5,5,5
expect "a written layout larger than --fs-size: fio's ENOSPC on laying out" 2 \
	"ENOSPC on laying out file, stopping" -- \
	--fs-size=1m --name=w --filename=d --rw=read --size=2m

# --- fill_device -----------------------------------------------------------
# 1 MiB free, 64 KiB O_DIRECT writes: 16 written, the 17th ENOSPC (fio
# counts it issued), the job's err 0, exit 0; fio prints the error.
run --fs-size=1m --name=w --filename=d --rw=write --bs=64k --direct=1 \
	--ioengine=sync --fill_device=1
if [ $rc -eq 0 ]; then ok "fill_device: exit 0"; else not_ok "fill_device: exit $rc"; fi
has "fill_device: 17 writes issued, 16 written" "issued rwts: total=0,17,0,0"
has "fill_device: 1024 KiB written" "WRITE: bw=.*io=1024KiB"
has "fill_device: the job ends without an error" "^w: \(groupid=0, jobs=1\): err= 0"
has "fill_device: fio's line for the ENOSPC" \
	"^fio: io_u error on file d: No space left on device: write offset=1048576, buflen=65536$"
hasnt "fill_device: no 'errors' line without continue_on_error" "errors    :"

# ext4 (model/fs/ext4/balloc.c): the same fill on --fs=ext4.
run --fs=ext4 --fs-size=1m --name=w --filename=d --rw=write --bs=64k \
	--direct=1 --fill_device=1
if [ $rc -eq 0 ]; then ok "ext4 fill_device: exit 0"; else not_ok "ext4 fill_device: exit $rc"; fi
has "ext4 fill_device: 17 issued" "issued rwts: total=0,17,0,0"
has "ext4 fill_device: ENOSPC at 1 MiB" \
	"^fio: io_u error on file d: No space left on device: write offset=1048576, buflen=65536$"

# A fill-then-verify pair of jobs in the shape of fio's
# examples/surface-scan.fio (the corpus runs that file itself): the
# verify job reads the 16 blocks the fill job wrote, sized from the
# file when it starts (create_serialize=0).
cat >"$scratch/ss.fio.in" <<'JOB'
[global]
thread
bs=64k
direct=1
ioengine=sync
verify=meta
verify_pattern=0xaa555aa5
verify_interval=512

[fill]
filename=scan.dat
rw=write
fill_device=1
do_verify=0

[check]
stonewall
create_serialize=0
filename=scan.dat
rw=read
do_verify=1
JOB
ss_run() {
	cp "$scratch/ss.fio.in" "$scratch/ss.fio"
	[ -n "${1:-}" ] && sed -i "$1" "$scratch/ss.fio"
	(cd "$scratch" && "$wpsim" fio --fs-size=1m ss.fio) >"$out" 2>&1
	rc=$?
	asan_quiet "$out"
}
ss_run
if [ $rc -eq 0 ]; then ok "fill then verify: exit 0"; else not_ok "fill then verify: exit $rc"; fi
has "fill then verify: the fill job, 17 issued" "issued rwts: total=0,17,0,0"
has "fill then verify: the verify job, 16 reads" "issued rwts: total=16,0,0,0"
has "fill then verify: no error" "^check: \(groupid=1, jobs=1\): err= 0"
ss_run 's/^create_serialize=0$/create_serialize=1/'
if [ $rc -eq 2 ] && grep -q "which create_serialize=1 sets up before that job has written it" "$out"; then
	ok "sized by the fill job's file with create_serialize=1: an error"
else
	not_ok "sized by the fill job's file with create_serialize=1: exit $rc"
fi

# --- continue_on_error, ignore_error, error_dump ------------------------------
# 2 MiB of writes on 1 MiB: 16 written, 16 ENOSPC counted and ignored.
cont="--fs-size=1m --name=w --filename=d --rw=write --bs=64k --direct=1
--size=2m --continue_on_error=write --ignore_error=,ENOSPC"
# shellcheck disable=SC2086 # $cont is a list of options
run $cont --error_dump=0
if [ $rc -eq 0 ]; then ok "continue_on_error: exit 0"; else not_ok "continue_on_error: exit $rc"; fi
has "continue_on_error: 32 issued" "issued rwts: total=0,32,0,0"
has "continue_on_error: the errors line" \
	"errors    : total=16, first_error=28/<No space left on device>"
# fio 3.33 (measured): with the line not printed, the sync engine's own
# td_verror names the place (engines/sync.c:126, "xfer").
has "continue_on_error, error_dump=0: the job's first error, sync.c's place" \
	"^w: \(groupid=0, jobs=1\): err=28 \(file:engines/sync.c:126, func=xfer, error=No space left on device\)"
hasnt "error_dump=0: no io_u error line" "^fio: io_u error"
hasnt "continue_on_error: no fio: pid= line (no fatal error)" "^fio: pid="
# shellcheck disable=SC2086
run $cont --error_dump=1
errs=$(grep -c "^fio: io_u error on file d: No space left on device" "$out")
if [ "$errs" = 16 ]; then ok "error_dump=1: 16 io_u error lines"; else not_ok "error_dump=1: $errs io_u error lines"; fi
has "error_dump=1: the place is __io_u_log_error's" \
	"^w: \(groupid=0, jobs=1\): err=28 \(file:io_u.c:1876, func=io_u error, error=No space left on device\)"
has "error_dump=1: the first line at the first block past the space" \
	"^fio: io_u error on file d: No space left on device: write offset=1048576, buflen=65536$"
# libaio: no engine td_verror, so the place is empty: "err=28 ()".
run --fs-size=1m --name=w --filename=d --rw=write --bs=64k --direct=1 \
	--size=2m --ioengine=libaio --iodepth=4 --continue_on_error=write \
	--ignore_error=,ENOSPC --error_dump=0
has "libaio, error_dump=0: err=28 () as fio 3.33 prints it" \
	"^w: \(groupid=0, jobs=1\): err=28 \(\): pid="
has "libaio: 32 issued, 16 errors" "issued rwts: total=0,32,0,0"
has "libaio: the errors line" "errors    : total=16, first_error=28/<No space left on device>"
# shellcheck disable=SC2086
run $cont --error_dump=0 --output-format=json
has "continue_on_error: JSON total_err" '"total_err" : 16'
has "continue_on_error: JSON first_error" '"first_error" : 28'
# ignore_error before continue_on_error: fio's order (the later
# continue_on_error=none replaces what ignore_error turned on).
run --fs-size=1m --name=w --filename=d --rw=write --bs=64k --direct=1 \
	--size=2m --ignore_error=,ENOSPC --continue_on_error=none
if [ $rc -eq 1 ]; then ok "a fatal ENOSPC: exit 1 (fio 3.33's)"; else not_ok "a fatal ENOSPC: exit $rc"; fi
has "continue_on_error=none after ignore_error: ENOSPC is fatal" \
	"^fio: pid=1, err=28/file:io_u.c:1876, func=io_u error, error=No space left on device"
has "...and the job stops at the 17th write" "issued rwts: total=0,17,0,0"
# ignore_error alone turns continue_on_error on for its type.
run --fs-size=1m --name=w --filename=d --rw=write --bs=64k --direct=1 \
	--size=2m --ignore_error=,ENOSPC --error_dump=0
has "ignore_error alone: ENOSPC non-fatal" \
	"errors    : total=16, first_error=28/<No space left on device>"

tap_end
