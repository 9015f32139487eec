#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-bdev.sh WPSIM SOURCE-ROOT - `wpsim fio` on fio's /dev/
# targets (TAP; issue 29, item 4): filename=/dev/NAME runs on the model's
# raw block device (model/block/fops.c: O_DIRECT to blk-mq), its size
# without size= the device's (--dev-size); the trims go through
# ioctl(BLKDISCARD) (model/fs/ioctl.c, model/block/ioctl.c), -ENOTTY on a
# regular file (fio's err=25); /dev/null and /dev/zero are the memory
# devices (model/drivers/char/mem.c).  The expected counts, offsets and
# errors are fio 3.33's, measured on a loop device and a loop-mounted XFS
# on this machine (2026-12-06, docs/fio.md "The raw block device").
# Seconds.
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

# iolog NAME WANT -- ARGS: the job's write_iolog (its read, write and
# trim lines as "action offset length;") is WANT.
iolog() {
	name=$1 want=$2
	shift 3
	rm -f "$scratch/io.log"
	(cd "$scratch" && "$wpsim" fio --write_iolog=io.log "$@") >"$out" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ]; then
		not_ok "$name (exit $rc)"
		return
	fi
	got=$(awk '$3 == "read" || $3 == "write" || $3 == "trim" {
		printf "%s %s %s;", $3, $4, $5 }' "$scratch/io.log")
	if [ "$got" = "$want" ]; then
		ok "$name"
	else
		echo "got:  $got" >"$out"
		echo "want: $want" >>"$out"
		not_ok "$name"
	fi
}

# seq START STEP N ACTION LEN: fio's sequential iolog lines.
seq_lines() {
	awk -v s="$1" -v d="$2" -v n="$3" -v a="$4" -v l="$5" 'BEGIN {
		for (i = 0; i < n; i++) printf "%s %d %d;", a, s + i * d, l }'
}

# --- O_DIRECT on the block device ------------------------------------------
# fio 3.33 on /dev/loop7 (rw=write bs=64k libaio iodepth=16): its writes
# in order; here 1 MiB of them.
iolog "direct libaio writes: fio's offsets, on the device" \
	"$(seq_lines 0 65536 16 write 65536)" -- --name=w \
	--filename=/dev/sdb --rw=write --bs=64k --direct=1 \
	--ioengine=libaio --iodepth=16 --size=1m
expect "direct psync reads: issued 16 reads" 0 "issued rwts: total=16,0,0,0" \
	-- --name=r --filename=/dev/sdb --rw=read --bs=64k --direct=1 \
	--size=1m
# No size=: the device's (fio's BLKGETSIZE64), --dev-size here.
expect "no size: the job is the device's 8 MiB" 0 \
	"issued rwts: total=0,8,0,0" -- --name=s --filename=/dev/nvme0n1 \
	--rw=write --bs=1m --direct=1 --dev-size=8m
expect "no size past offset=: the device less the offset" 0 \
	"issued rwts: total=0,6,0,0" -- --name=s --filename=/dev/nvme0n1 \
	--rw=write --bs=1m --direct=1 --dev-size=8m --offset=2m
# examples/basic-verify.fio's job at 4 MiB: every write read back and
# checked (fio 3.33 on a 1 GiB loop device: 262144 and 262144).
expect "verify=crc32c on the device: 1024 writes read back" 0 \
	"issued rwts: total=1024,1024,0,0" -- --name=v --filename=/dev/XXX \
	--rw=randwrite --bs=4k --direct=1 --ioengine=libaio --iodepth=16 \
	--verify=crc32c --dev-size=4m
grep -q "err= 0" "$out" && ok "verify on the device: no error" ||
	not_ok "verify on the device: an error"

# --- trims: ioctl(BLKDISCARD) --------------------------------------------
# fio 3.33 on /dev/loop7, bs=64k size=1m: trim's 16 trims in order;
# trimwrite's trim then write at each offset.
iolog "rw=trim on the device: fio's 16 trims" \
	"$(seq_lines 0 65536 16 trim 65536)" -- --name=t --filename=/dev/sdb \
	--rw=trim --bs=64k --direct=1 --size=1m
want=$(awk 'BEGIN { for (i = 0; i < 16; i++)
	printf "trim %d 65536;write %d 65536;", i * 65536, i * 65536 }')
iolog "rw=trimwrite on the device: fio's trim, write pairs" "$want" -- \
	--name=t --filename=/dev/sdb --rw=trimwrite --bs=64k --direct=1 \
	--size=1m
expect "rw=randtrim on the device: 16 trims (fio 3.33)" 0 \
	'"total_ios" : 16' -- --output-format=json --name=t \
	--filename=/dev/sdb --rw=randtrim --bs=64k --direct=1 --size=1m
expect "rw=randtrimwrite on libaio: 16 trims, 16 writes" 0 \
	"issued rwts: total=0,16,16,0" -- --name=t --filename=/dev/sdb \
	--rw=randtrimwrite --bs=64k --direct=1 --size=1m --ioengine=libaio \
	--iodepth=4
# A regular file: -ENOTTY (fio 3.33 on XFS: err=25, the trim issued,
# exit 1).
expect "rw=randtrim on an XFS file: fio's err=25 at td_io_queue" 1 \
	"err=25/file:ioengines.c:399, func=td_io_queue, error=Inappropriate ioctl for device" \
	-- --name=t --filename=f --rw=randtrim --bs=4k --size=1m
grep -q "issued rwts: total=0,0,1,0" "$out" &&
	ok "rw=randtrim on an XFS file: one trim issued" ||
	not_ok "rw=randtrim on an XFS file: issued counts"
expect "a trim's ENOTTY with continue_on_error=write: every trim issued" 0 \
	"issued rwts: total=0,0,256,0" -- --name=t --filename=f \
	--rw=randtrim --bs=4k --size=1m --continue_on_error=write \
	--ignore_error=,ENOTTY

# --- /dev/null and /dev/zero (drivers/char/mem.c) ------------------------
# fio 3.33: 128 writes of 128 KiB to /dev/null, 256 reads of /dev/zero;
# no size= on either: "you need to specify size="; O_DIRECT: EINVAL.
iolog "/dev/null: fio's 128 writes" \
	"$(seq_lines 0 131072 128 write 131072)" -- --name=n \
	--filename=/dev/null --rw=write --bs=128k --size=16m
expect "/dev/zero: 256 random reads" 0 "issued rwts: total=256,0,0,0" -- \
	--name=z --filename=/dev/zero --rw=randread --bs=4k --size=1m
expect "/dev/zero without size: fio's words" 2 \
	"you need to specify size=" -- --name=z --filename=/dev/zero \
	--rw=randread --bs=4k
expect "/dev/zero with direct=1: EINVAL at open" 2 \
	"O_DIRECT is EINVAL on a memory device" -- --name=z \
	--filename=/dev/zero --rw=read --bs=4k --size=1m --direct=1

# --- what is refused ------------------------------------------------------
# Buffered I/O on the device goes through its page cache (the bdev
# inode's mapping, model/block/fops.c): written back at the last close,
# and a verify pass reads back after fio's BLKFLSBUF (sync_blockdev,
# invalidate_bdev) through the device.
expect "buffered writes on the block device run (its page cache)" 0 \
	"issued rwts: total=0,16,0,0" -- --name=x --filename=/dev/sdb \
	--rw=write --size=64k --dev-size=1g
expect "buffered randwrite with verify on the block device passes" 0 \
	"issued rwts: total=256,256,0,0" -- --name=x --filename=/dev/sdb \
	--rw=randwrite --bs=4k --size=1m --verify=crc32c --dev-size=1g
expect "buffered libaio reads on the block device run" 0 \
	"issued rwts: total=64,0,0,0" -- --name=x --filename=/dev/sdb \
	--rw=read --bs=16k --size=1m --ioengine=libaio --iodepth=4 \
	--dev-size=1g
expect "two block device names: one device in the model" 2 \
	"the model has one block device" -- --name=a --filename=/dev/sdb \
	--rw=write --direct=1 --size=64k --name=b --filename=/dev/sdc \
	--rw=write --direct=1 --size=64k
expect "a block device and a file in one run: refused" 2 \
	"the model's filesystem lives on its one device" -- --name=a \
	--filename=/dev/sdb --rw=write --direct=1 --size=64k --name=b \
	--filename=f --rw=write --size=64k
expect "I/O past the device's end: refused" 2 \
	"reaches byte 16777216 of the block device, which has 8388608" -- \
	--name=a --filename=/dev/sdb --rw=write --direct=1 --size=16m \
	--dev-size=8m
expect "io_uring on the block device: not modelled, said" 2 \
	"ioengine=io_uring on it is not modelled" -- --name=a \
	--filename=/dev/sdb --rw=write --direct=1 --size=64k \
	--ioengine=io_uring
expect "--dev-size below 4k: file:line:col, what was expected" 2 \
	"<command line>:1:12: error: expected --dev-size SIZE" -- \
	--dev-size=1000 --name=a --filename=/dev/sdb --rw=write --direct=1
expect "a tmpfs path under /dev/shm: refused" 2 "is a tmpfs file" -- \
	--name=a --filename=/dev/shm/x --rw=write --size=64k
tap_end
