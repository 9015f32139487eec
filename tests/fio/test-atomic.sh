#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-atomic.sh WPSIM SOURCE-ROOT - fio 3.38+'s atomic=1
# (RWF_ATOMIC on writes: engines/sync.c pvsync2, libaio.c aio_rw_flags,
# io_uring.c sqe->rw_flags; init.c refuses other engines) and
# verify_write_sequence (issue 29), on the model's v6.18 atomic write
# path (docs/model/atomic-write.md).  TAP.
#
# The default device (enterprise-plp: AWUPF 0, a one-LBA unit) gives an
# XFS file of 4 KiB blocks no atomic writes, as this machine's kernel
# (6.18.44) answered for XFS made with -m reflink=0 on a device without
# a 4 KiB unit (traces/real-kernel/atomic-write-6.18.44-2026-12-06.txt):
# fio 3.42 there printed "fio: io_u error on file ...: Operation not
# supported" for pvsync2 and "err=95/file:ioengines.c:519, func=io
# commit" for libaio (io_submit's own refusal); wpsim gives fio 3.33's
# places (io_u.c:1876, ioengines.c:496).  A profile with AWUPF 7 (4 KiB)
# lets the same jobs run; fio's examples/atomic-verify.fio (10 jobs on
# one file) then fails verify with "bad header rand_seed", as fio 3.42
# did on a real XFS file here (the jobs overwrite each other's blocks).
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

# A device whose namespace writes 8 LBAs (4 KiB) atomically.
sed -e 's/^awupf = 0$/awupf = 7/' -e 's/^name = enterprise-plp$/name = atomic4k/' \
	profiles/devices/enterprise-plp.dev >"$scratch/atomic4k.dev"
dev4k="--device=$scratch/atomic4k.dev"
job="--name=a --filename=f --size=64k --bs=4k --rw=randwrite --direct=1"

# shellcheck disable=SC2086 # $job is a list of options
expect "pvsync2, no atomic unit: EOPNOTSUPP as an io_u error" 1 \
	"^fio: io_u error on file f: Operation not supported: write offset=[0-9]+, buflen=4096$" \
	-- $job --ioengine=pvsync2 --atomic=1
grep -Eq "issued rwts: total=0,1,0,0" "$out" && ok "pvsync2: one write issued" \
	|| not_ok "pvsync2: one write issued"
# shellcheck disable=SC2086
expect "libaio, no atomic unit: io_submit's refusal is fio's io commit error" 1 \
	"err=95/file:ioengines.c:496, func=io commit, error=Operation not supported" \
	-- $job --ioengine=libaio --iodepth=4 --atomic=1
if grep -q "io_u error" "$out"; then
	not_ok "libaio: no io_u error line"
else
	ok "libaio: no io_u error line"
fi
# shellcheck disable=SC2086
expect "psync: the engine has no atomic writes" 2 \
	"engine does not support atomic writes" -- $job --ioengine=psync \
	--atomic=1
# shellcheck disable=SC2086
expect "buffered io_uring: EOPNOTSUPP" 1 "Operation not supported" \
	-- --name=a --filename=f --size=64k --bs=4k --rw=randwrite \
	--ioengine=io_uring --iodepth=4 --atomic=1
# A job that does not write: fio clears atomic (init.c).
expect "a read job: atomic ignored, as fio does" 0 \
	"issued rwts: total=16,0,0,0" -- --name=a --filename=f --size=64k \
	--bs=4k --rw=read --direct=1 --ioengine=pvsync2 --atomic=1

# With a 4 KiB atomic unit: XFS and ext4 take one-block atomic writes.
# shellcheck disable=SC2086
expect "libaio, 4 KiB unit, XFS: every write done" 0 \
	"issued rwts: total=0,16,0,0" -- $job --ioengine=libaio --iodepth=4 \
	--atomic=1 "$dev4k"
# shellcheck disable=SC2086
expect "libaio, 4 KiB unit, ext4: every write done" 0 \
	"issued rwts: total=0,16,0,0" -- $job --ioengine=libaio --iodepth=4 \
	--atomic=1 --fs=ext4 "$dev4k"
# shellcheck disable=SC2086
expect "pvsync2, 4 KiB unit, verify=crc64: verified" 0 \
	"issued rwts: total=16,16,0,0" -- $job --ioengine=pvsync2 \
	--atomic=1 --verify=crc64 --verify_write_sequence=0 "$dev4k"
# 8 KiB is above XFS's unit (one fs block without reflink): EINVAL.
expect "pvsync2, 8 KiB on a 4 KiB unit: EINVAL" 1 \
	"^fio: io_u error on file f: Invalid argument: write offset=[0-9]+, buflen=8192$" \
	-- --name=a --filename=f --size=64k --bs=8k --rw=randwrite \
	--direct=1 --ioengine=pvsync2 --atomic=1 "$dev4k"

# verify_write_sequence (fio 3.38+, default 1): both values run.
for v in 0 1; do
	expect "verify_write_sequence=$v runs" 0 "issued rwts: total=16,16" \
		-- --name=v --filename=f --size=64k --rw=write \
		--verify=crc32c --verify_write_sequence=$v
done
expect "verify_write_sequence is a boolean" 2 "verify_write_sequence" \
	-- --name=v --filename=f --size=64k --verify_write_sequence=maybe

# fio's examples/atomic-verify.fio as it is (its /dev/XXX a file of the
# model's XFS, size 16m): on the default device every job's first
# io_submit is refused; with the 4 KiB unit the jobs write and verify,
# and a block another job overwrote fails verify (fio 3.42 on XFS here:
# "verify: bad header rand_seed ...").
if [ -n "${FIO_CORPUS:-}" ] && [ -f "$FIO_CORPUS/examples/atomic-verify.fio" ]; then
	sed 's#/dev/XXX#wpsim-dev-0#' "$FIO_CORPUS/examples/atomic-verify.fio" \
		>"$scratch/av.fio"
	echo "size=16m" >>"$scratch/av.fio"
	expect "atomic-verify.fio, no atomic unit: io commit EOPNOTSUPP" 1 \
		"^fio: pid=10, err=95/file:ioengines.c:496, func=io commit" \
		-- av.fio
	expect "atomic-verify.fio, 4 KiB unit: verify fails across jobs" 1 \
		"^verify: bad header rand_seed [0-9]+, wanted [0-9]+ at file wpsim-dev-0" \
		-- av.fio "$dev4k"
else
	ok "atomic-verify.fio # SKIP FIO_CORPUS not set"
	ok "atomic-verify.fio with a 4 KiB unit # SKIP FIO_CORPUS not set"
fi

tap_end
