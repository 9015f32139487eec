#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-more.sh WPSIM SOURCE-ROOT - more of fio's job files in
# `wpsim fio` (TAP; issue 29, fifth part): random_generator=lfsr, the trims
# on ioengine=null (trim, randtrim, trimwrite, randtrimwrite), verify with
# libaio, jobs on several files (each file's own offsets and random map,
# verify's order by file then offset), and wait_for.  The expected sequences are
# fio 3.33's own, recorded on this machine (2026-12-05, docs/fio.md "Fifth
# part").  Seconds.
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

# iolog NAME WANT -- ARGS: the job's write_iolog (its read, write and trim
# lines as "file action offset length;") is WANT.
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
		printf "%s %s %s %s;", $2, $3, $4, $5 }' "$scratch/io.log")
	if [ "$got" = "$want" ]; then
		ok "$name"
	else
		echo "got:  $got" >"$out"
		echo "want: $want" >>"$out"
		not_ok "$name"
	fi
}

# --- random_generator=lfsr ------------------------------------------------
# fio 3.33 (t/jobs/t0021.fio): 256 reads, each 4 KiB block of 1 MiB once,
# norandommap or not.
rm -f "$scratch/io.log"
(cd "$scratch" && "$wpsim" fio --write_iolog=io.log --name=t --ioengine=null \
	--filesize=1m --rw=randread --norandommap --random_generator=lfsr) \
	>"$out" 2>&1
nr=$(awk '$3 == "read"' "$scratch/io.log" | wc -l)
nu=$(awk '$3 == "read" { print $4 }' "$scratch/io.log" | sort -u | wc -l)
if [ "$nr" -eq 256 ] && [ "$nu" -eq 256 ]; then
	ok "lfsr with norandommap: 256 reads, every block once (as fio 3.33)"
else
	not_ok "lfsr with norandommap: $nr reads, $nu blocks (want 256, 256)"
fi
expect "lfsr with bsrange: an error naming it" 2 \
	"error: job 't': random_generator=lfsr with bsrange or bssplit" -- \
	--name=t --ioengine=null --filesize=1m --rw=randread \
	--random_generator=lfsr --bsrange=4k-16k
expect "tausworthe64: still an error" 2 \
	"random_generator: wpsim draws offsets from splitmix64" -- \
	--name=t --ioengine=null --filesize=1m --rw=randread \
	--random_generator=tausworthe64

# --- trims on ioengine=null -----------------------------------------------
# fio 3.33: trimwrite with bs=4k,4k,8k trims 8k and writes 4k, each
# direction its own offsets (set_rw_ddir's last_start rule).
iolog "trimwrite bs=4k,4k,8k: fio 3.33's sequence" \
	"a.0.0 trim 0 8192;a.0.0 write 0 4096;a.0.0 trim 8192 8192;a.0.0 write 4096 4096;a.0.0 write 8192 4096;" \
	-- --name=a --ioengine=null --rw=trimwrite --filesize=16k --bs=4k,4k,8k
iolog "trimwrite: each block trimmed, then written (fio 3.33)" \
	"a.0.0 trim 0 4096;a.0.0 write 0 4096;a.0.0 trim 4096 4096;a.0.0 write 4096 4096;" \
	-- --name=a --ioengine=null --rw=trimwrite --filesize=8k
rm -f "$scratch/io.log"
(cd "$scratch" && "$wpsim" fio --write_iolog=io.log --name=a --ioengine=null \
	--rw=randtrimwrite --filesize=1m --bsrange=512-4k --norandommap) \
	>"$out" 2>&1
bad=$(awk '$3 == "trim" { t = $4 " " $5; c++ }
	$3 == "write" { if ($4 " " $5 != t) b++; w++ }
	END { print (c == w && c > 0) ? b + 0 : "count " c "/" w }' \
	"$scratch/io.log")
if [ "$bad" = "0" ]; then
	ok "randtrimwrite: each write at its trim's offset, with its length"
else
	not_ok "randtrimwrite: each write at its trim's offset ($bad)"
fi
expect "randtrim: the JSON trim counts (256 of 4 KiB)" 0 \
	'"total_ios" : 256' -- --output-format=json --name=a \
	--ioengine=null --rw=randtrim --filesize=1m
# A trim on a regular file: ioctl(BLKDISCARD) is -ENOTTY (fio 3.33 on
# XFS: err=25 at td_io_queue, the trim counted as issued, exit 1).
expect "trim on psync on a regular file: fio's err=25" 1 \
	"err=25/file:ioengines.c:399, func=td_io_queue, error=Inappropriate ioctl for device" -- \
	--name=a --rw=trim --filename=tr --size=64k

# --- verify with libaio ---------------------------------------------------
# fio 3.33 (buffered, iodepth 4): 16 writes, then 16 reads in their order.
want=""
for o in 0 4096 8192 12288 16384 20480 24576 28672 32768 36864 40960 \
	45056 49152 53248 57344 61440; do
	want="${want}vq write $o 4096;"
done
w2=$(echo "$want" | sed 's/ write / read /g')
iolog "verify with libaio: fio 3.33's sequence of writes and reads" \
	"$want$w2" -- --name=v --filename=vq --rw=write --bs=4k --size=64k \
	--ioengine=libaio --iodepth=4 --verify=crc32c
expect "verify with libaio, a lost write: fio's failure at io_u_queued_complete" 1 \
	"err=84/file:io_u.c:2190, func=io_u_queued_complete" -- \
	--name=v --filename=vb --rw=write --bs=4k --size=64k \
	--ioengine=libaio --iodepth=4 --verify=crc32c \
	--variant break=writeback_skips_eof_folio

# --- several files ---------------------------------------------------------
# fio 3.33: each file its own offsets, round robin; loops=2 twice over.
iolog "two files, loops=2: each file's own offsets (fio 3.33)" \
	"a1 write 0 8192;a2 write 0 8192;a1 write 8192 8192;a2 write 8192 8192;a1 write 0 8192;a2 write 0 8192;a1 write 8192 8192;a2 write 8192 8192;" \
	-- --name=job --filename=a1:a2 --size=32k --loops=2 --rw=write --bs=8k
rm -f "$scratch/io.log"
(cd "$scratch" && "$wpsim" fio --write_iolog=io.log --name=job \
	--filename=r1:r2 --size=32k --rw=randwrite --bs=8k) >"$out" 2>&1
got=$(awk '$3 == "write" { print $2, $4 }' "$scratch/io.log" | sort |
	tr '\n' ';')
if [ "$got" = "r1 0;r1 8192;r2 0;r2 8192;" ]; then
	ok "two files, randwrite: each file's blocks once (fio 3.33: 4 writes)"
else
	not_ok "two files, randwrite: got '$got'"
fi
iolog "two files, verify: the reads by file, then offset (fio 3.33's rbtree)" \
	"f1 write 0 8192;f2 write 0 8192;f1 write 8192 8192;f2 write 8192 8192;f1 read 0 8192;f1 read 8192 8192;f2 read 0 8192;f2 read 8192 8192;" \
	-- --name=v --filename=f1:f2 --size=32k --rw=write --bs=8k --verify=md5

# --- --group-spans' writeback counts (session 25, h25-rand) --------------
# Four random 64 KiB writes into a fresh 1 MiB file (fio's layout for a
# write job: fallocate, one unwritten extent), then end_fsync.  The
# model's offsets are blocks 7, 2, 3 and 11 (its write_iolog, checked
# below): three dirty runs, {2,3}, {7}, {11}, so writeback builds three
# ioends, one bio each (64 KiB, 128 KiB, 64 KiB), and each completion
# converts its run: three xfs_iomap_write_unwritten calls, each run
# inside the unwritten extent, so each splits it; the fsync's log write
# is the fourth bio (4 KiB).  The same job on the kernel (2026-12-07,
# loop XFS) gave one bio and one conversion per run too, on fio's own
# offsets (docs/validation.md, session 25 h25-rand).
rm -f "$scratch/gs" "$scratch/gs.log"
(cd "$scratch" && "$wpsim" fio --group-spans --cpus=2 --name=a --filename=gs \
	--size=1m --bs=64k --rw=randwrite --number_ios=4 --end_fsync=1 \
	--write_iolog=gs.log) >/dev/null 2>"$out"
offs=$(awk '$3 == "write" { printf "%d ", $4 / 65536 }' "$scratch/gs.log")
if [ "$offs" = "7 2 3 11 " ] &&
	grep -qx "wpsim fio: unwritten conversions 3, runs 3, splits 3" \
		"$out" &&
	grep -qx "wpsim fio: write bios 4, bytes 266240: 4k 1 64k 2 128k 1" \
		"$out" &&
	grep -q "^wpsim fio: CPU busy to the jobs' end at [0-9]* ns: cpu0 [0-9]* cpu1 [0-9]*$" \
		"$out"; then
	ok "group-spans: one conversion and one bio per dirty run, the CPUs' busy time"
else
	echo "offsets: $offs" >>"$out"
	not_ok "group-spans: one conversion and one bio per dirty run, the CPUs' busy time"
fi

# --- wait_for -----------------------------------------------------------
# fio 3.33 (waitee_running): b starts when a has ended, so it reads a's
# pages from the cache (no device read); without wait_for they overlap.
(cd "$scratch" && rm -f wf && "$wpsim" fio --group-spans --name=a \
	--filename=wf --size=64k --rw=write --name=b --new_group --wait_for=a \
	--filename=wf --rw=read --size=64k) >/dev/null 2>"$out"
if grep -q "device page reads 0" "$out"; then
	ok "wait_for: the reader starts after the writer has ended"
else
	not_ok "wait_for: the reader starts after the writer has ended"
fi
expect "wait_for itself: fio 3.33's refusal" 2 \
	"error: job 'a': a job cannot wait for itself" -- \
	--name=a --size=64k --wait_for=a
expect "wait_for an unknown job: fio 3.33's refusal" 2 \
	"error: job 'a': wait_for names no job" -- \
	--name=a --size=64k --wait_for=zz

# No size and no file to take it from (examples/butterfly.fio): fio 3.33
# refuses it, "forward: you need to specify size=" (exit 2, measured);
# wpsim says fio's words.
expect "no size: fio 3.33's words" 2 \
	"error: job 'forward': you need to specify size= \\(fio 3.33's words" -- \
	--name=forward --filename=bf --bs=4k --direct=1 --rw=read --flow=2

# --- each job its own random sequence ---------------------------------------
# fio 3.33 seeds each job's generators from randseed and its
# thread_number (init.c setup_random_seeds): 16 clones and a second
# section on one 1 GiB file, 16 random writes each (of 262144 blocks),
# draw 272 different offsets but for a chance collision (expected 0.14
# pairs).  Before session 16, 12 of the 16 clones drew another clone's
# offsets a few draws apart and the second section the first clone's
# (docs/seed-tables.md, session 16): 176 different offsets.
rm -f "$scratch/io.log"
(cd "$scratch" && "$wpsim" fio --write_iolog=io.log --ioengine=null \
	--filename=r.dat --size=1g --io_size=64k --bs=4k --rw=randwrite \
	--name=a --numjobs=16 --name=b) >"$out" 2>&1
nr=$(awk '$3 == "write"' "$scratch/io.log" | wc -l)
nu=$(awk '$3 == "write" { print $4 }' "$scratch/io.log" | sort -u | wc -l)
if [ "$nr" -eq 272 ] && [ "$nu" -ge 270 ]; then
	ok "17 random jobs on one file: $nu different offsets of $nr writes"
else
	not_ok "17 random jobs on one file: $nu different offsets of $nr writes (want 272, at least 270)"
fi
tap_end
