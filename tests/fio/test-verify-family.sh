#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-verify-family.sh WPSIM SOURCE-ROOT - fio's verify family
# and the options that set the bytes written, in `wpsim fio` (TAP; issue
# 29): verify_pattern and buffer_pattern in fio 3.33's pattern syntax
# (errors at the byte fio stops at, exit 2), a job that only reads with
# verify= checking what an earlier job of the run wrote (fio 3.33's
# messages, measured on this machine, docs/fio.md), experimental_verify,
# verify_state_save and verify_state_load (the state file carries the
# written blocks; --files-from), and the no-effect options said on
# stderr.  Seconds.
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

# Pattern syntax errors: where fio's parser stops, exit 2.
# fio's parse_number reads "0xzz" as the decimal 0, then fails at "xzz".
expect "verify_pattern: 0x without a hex digit" 2 \
	"^<command line>:2:19: error: expected a pattern element.* for verify_pattern, found 'xzz'" -- \
	--name=x --verify_pattern=0xzz
expect "verify_pattern: an unclosed string" 2 \
	"^<command line>:2:18: error: expected a non-empty \"string\" closed by a quote for verify_pattern" -- \
	--name=x '--verify_pattern="ab'
expect "buffer_pattern: %o is verify_pattern's only" 2 \
	"^<command line>:2:22: error: expected no format in buffer_pattern .* found '%o'" -- \
	--name=x '--buffer_pattern="ab"%o'
expect "buffer_pattern: a 'file' that is not there" 2 \
	"^<command line>:2:18: error: expected 'file' naming a readable file .* for buffer_pattern" -- \
	--name=x "--buffer_pattern='no-such-file'"
expect "verify_pattern: a decimal beyond int" 2 \
	"error: expected a pattern element.* found '4294967296'" -- \
	--name=x --verify_pattern=4294967296

# t0028's pattern ("abcd", then -12 before the 0x: fio's look-ahead) on
# the null engine: runs, the no-effect note on stderr.
expect "buffer_pattern runs on null, its no-effect said" 0 \
	"^wpsim fio: note: buffer_pattern, .* change no I/O of the run" -- \
	--name=t --size=16k --rw=write --ioengine=null \
	'--buffer_pattern="abcd"-120xdeadface'
expect "dedupe and compression: accepted, said" 0 \
	"^wpsim fio: note: .*dedupe_\\*" -- \
	--name=t --filename=d --size=16k --rw=write --dedupe_percentage=50 \
	--dedupe_mode=working_set --buffer_compress_percentage=50

# A job that only reads, with verify=, checks what an earlier job wrote
# (fio 3.33 on this machine: the same outcomes and lines).
expect "write then read-verify (md5): passes, loops=2 reads once (3.33)" 0 \
	'"total_ios" : 1,' -- --output-format=json \
	--name=w --filename=v1 --size=4k --rw=write --verify=md5 --do_verify=0 \
	--name=r --stonewall --filename=v1 --size=4k --rw=read --verify=md5 \
	--loops=2
expect "read-verify of blocks no job wrote: bad magic header" 1 \
	"^verify: bad magic header .*, wanted acca at file v2 offset 0, length 4096" -- \
	--name=r --filename=v2 --size=16k --rw=read --verify=crc32c
expect "read-verify with another kind: fio's lines (md5 2, crc32c 5)" 1 \
	"^fio: verify type mismatch \\(5 media, 2 given\\)" -- \
	--name=w --filename=v3 --size=16k --rw=write --verify=crc32c --do_verify=0 \
	--name=r --stonewall --filename=v3 --size=16k --rw=read --verify=md5
expect "read-verify with another kind: md5's failure line" 1 \
	"^md5: verify failed at file v3 offset 0, length 4096 \\(requested block: offset=0, length=4096, flags=8\\)" -- \
	--name=w --filename=v3 --size=16k --rw=write --verify=crc32c --do_verify=0 \
	--name=r --stonewall --filename=v3 --size=16k --rw=read --verify=md5
expect "read-verify with another bs: bad header length 8192, wanted 4096" 1 \
	"^verify: bad header length 8192, wanted 4096 at file v4 offset 0, length 4096" -- \
	--name=w --filename=v4 --size=16k --bs=8k --rw=write --verify=crc32c --do_verify=0 \
	--name=r --stonewall --filename=v4 --size=16k --bs=4k --rw=read --verify=crc32c
expect "verify=pattern over buffer_pattern: the same pattern passes" 0 \
	'"total_ios" : 4,' -- --output-format=json \
	--name=w --filename=v5 --size=16k --rw=write --buffer_pattern=0xab \
	--name=r --stonewall --filename=v5 --size=16k --rw=read --verify=pattern \
	--verify_pattern=0xab
expect "verify=pattern, another pattern: fio 3.33's got/wanted lines" 1 \
	"^fio: got pattern 'ab', wanted 'cd'. Bad bits 4$" -- \
	--name=w --filename=v6 --size=16k --rw=write --buffer_pattern=0xab \
	--name=r --stonewall --filename=v6 --size=16k --rw=read --verify=pattern \
	--verify_pattern=0xcd
expect "verify=pattern, another pattern: the header fields fio reads" 1 \
	"^pattern: verify failed at file v6 offset 0, length 2880154539 \\(requested block: offset=0, length=4096, flags=8\\)" -- \
	--name=w --filename=v6 --size=16k --rw=write --buffer_pattern=0xab \
	--name=r --stonewall --filename=v6 --size=16k --rw=read --verify=pattern \
	--verify_pattern=0xcd
expect "verify=meta with verify_pattern, written and read: passes" 0 \
	"err= 0" -- \
	--name=w --filename=v7 --size=16k --rw=write --verify=meta \
	--verify_pattern=0xaa555aa5 --do_verify=0 \
	--name=r --stonewall --filename=v7 --size=16k --rw=read --verify=meta \
	--verify_pattern=0xaa555aa5
expect "a write job's own verify with verify_pattern %o: passes" 0 \
	'"total_ios" : 8,' -- --output-format=json \
	--name=w --filename=v8 --size=32k --rw=randwrite --verify_pattern=%o
expect "read-verify with libaio: an earlier job's md5 writes pass, checked when reaped" 0 \
	"err= 0" -- \
	--name=w --filename=v9 --size=16k --rw=write --verify=md5 --do_verify=0 \
	--name=r --stonewall --filename=v9 --size=16k --rw=read --verify=md5 \
	--ioengine=libaio --iodepth=4
expect "read-verify with libaio on a laid-out file: fio's bad magic header at io_u_queued_complete" 1 \
	"err=84/file:io_u.c:2190, func=io_u_queued_complete" -- \
	--name=r --filename=v10 --size=16k --rw=read --verify=md5 \
	--ioengine=libaio --iodepth=4

# A write job with loops=N verifies after each loop (fio 3.33's
# thread_main: do_verify after each do_io; measured: 12 writes, 12 reads).
(cd "$scratch" && "$wpsim" fio --output-format=json --name=a --filename=lp \
	--size=16k --rw=write --verify=md5 --loops=3) >"$out" 2>"$scratch/loops.err"
rw=$(python3 -c "import json,sys; j=json.load(open(sys.argv[1]))['jobs'][0]
print(j['read']['total_ios'], j['write']['total_ios'])" "$out" 2>/dev/null)
if [ "$rw" = "12 12" ]; then
	ok "write job, loops=3, verify: each loop's blocks read back (12 reads, 12 writes)"
else
	not_ok "write job, loops=3, verify: each loop's blocks read back (got '$rw', want '12 12')"
fi

# experimental_verify: t0025's job (fio 3.33: 128 KiB read back).
expect "experimental_verify: the blocks read back" 0 \
	'"io_kbytes" : 128,' -- --output-format=json \
	--name=job --filename=e1 --size=128k --rw=write --verify=md5 \
	--experimental_verify=1
expect "experimental_verify with norandommap: an error naming it" 2 \
	"error: job 'job': experimental_verify is modelled where" -- \
	--name=job --filename=e2 --size=128k --rw=randwrite --verify=md5 \
	--experimental_verify=1 --norandommap
# verify_state_load: fio 3.33 stops when the state file is not there
# ("fio: open state file: No such file or directory", measured).  The
# jobs above named 'job' that write with verify= left one: removed.
rm -f "$scratch"/local-*-verify.state
expect "verify_state_load: a missing state file, named" 2 \
	"error: job 'job': verify_state_load=1: local-job-0-verify.state: No such file or directory" -- \
	--name=job --filename=s1 --size=16k --rw=read --verify=md5 \
	--verify_state_load=1
expect "verify_state_save=0: accepted" 0 \
	"err= 0" -- \
	--name=job --filename=s2 --size=16k --rw=write --verify=md5 \
	--verify_state_save=0
if [ -e "$scratch/local-job-0-verify.state" ]; then
	not_ok "verify_state_save=0: no state file"
else
	ok "verify_state_save=0: no state file"
fi
# verify_state_save (fio's default): t0036-pre's job writes fio 3.33's
# file name with fio's fields (measured with fio 3.33: numberio 128,
# depth 1, one file, its last write at 520192) and the blocks.
expect "verify_state_save: t0036-pre's writes" 0 "err= 0" -- \
	--name=job --filename=t36 --verify=md5 --size=512k --rw=write
st="$scratch/local-job-0-verify.state"
if grep -qx "numberio 128" "$st" && grep -qx "depth 1" "$st" &&
   grep -qx "nofiles 1" "$st" && grep -qx "comp 0 520192" "$st" &&
   [ "$(grep -c '^block 0 ' "$st")" -eq 128 ]; then
	ok "verify_state_save: fio's fields and 128 blocks"
else
	not_ok "verify_state_save: fio's fields and 128 blocks"
fi
# verify_state_load: t0036-post reads the blocks back from the files the
# state file describes (fio 3.33: 128 reads, err 0).
expect "verify_state_load: t0036-post reads the saved blocks" 0 \
	'"total_ios" : 128,' -- --output-format=json \
	--name=job --filename=t36 --verify=md5 --size=512k --rw=read \
	--verify_state_load=1
# A block the state file lost reads as data: the load is what the
# model's files hold (no state: no written blocks).
grep -v '^block 0 8192 ' "$st" > "$scratch/lost.state"
cp "$scratch/lost.state" "$st"
expect "verify_state_load: a block the state lost fails at it" 1 \
	"bad magic header .* at file t36 offset 8192" -- \
	--name=job --filename=t36 --verify=md5 --size=512k --rw=read \
	--verify_state_load=1
# --files-from: a post-job with no verify_state_load starts from the
# blocks too; without it, the model's files hold none of them.
expect "--files-from: the saved blocks, no verify_state_load" 1 \
	"bad magic header .* offset 8192" -- --files-from=local-job-0-verify.state \
	--name=r --filename=t36 --verify=md5 --size=512k --rw=read
expect "no --files-from: the first block fails" 1 \
	"bad magic header .* offset 0," -- \
	--name=r --filename=t36 --verify=md5 --size=512k --rw=read
printf 'wpsim-verify-state 1\nnofiles 1\nblock 0 0 100 1\n' > "$scratch/bad.state"
expect "--files-from: a bad line, file:line" 2 \
	"error: bad.state:3: expected .*LEN a multiple of 512" -- \
	--files-from=bad.state --name=r --filename=t36 --size=512k --rw=read
# t0037: four files, libaio iodepth 32, loops=4 (fio 3.33: numberio
# 512, depth 32, 4 files, 128 comps; the post-job reads 128 blocks).
expect "verify_state_save: t0037-pre" 0 "err= 0" -- \
	--name=job --filename=a:b:c:d --verify=md5 --ioengine=libaio \
	--iodepth=32 --size=512k --loops=4 --rw=write
if grep -qx "numberio 512" "$st" && grep -qx "depth 32" "$st" &&
   grep -qx "nofiles 4" "$st" && [ "$(grep -c '^comp ' "$st")" -eq 128 ]; then
	ok "verify_state_save: t0037's fields"
else
	not_ok "verify_state_save: t0037's fields"
fi
expect "verify_state_load: t0037-post" 0 '"total_ios" : 128,' -- \
	--output-format=json --name=job --filename=a:b:c:d --verify=md5 \
	--ioengine=libaio --iodepth=32 --size=512k --loops=4 --rw=read \
	--verify_state_load=1
# t0003's pre-job and post-job (fio 3.33 on this machine: the post-job
# fails at "verify: bad header length 512, wanted 1048576 at file foo
# offset 0, length 1048576 (requested block: offset=0, length=1048576)",
# then "hdr_fail data dumped as foo.0.hdr_fail", a 1 MiB file whose
# first bytes are fio's header: ca ac 02 00 00 02 00 00).
rm -f "$scratch"/local-*-verify.state
expect "verify_dump: t0003-pre's writers" 0 "err= 0" -- \
	--ioengine=libaio --direct=1 --filename=foo --iodepth=128 --size=1M \
	--rw=write --do_verify=0 --verify=md5 --verify_dump=1 \
	--name=small_writes --offset=0 --bs=512 \
	--name=large_writes --offset=1M --bs=1M
expect "verify_dump: t0003-post's header failure, fio's line" 1 \
	"^verify: bad header length 512, wanted 1048576 at file foo offset 0, length 1048576 \\(requested block: offset=0, length=1048576\\)" -- \
	--files-from=local-small_writes-0-verify.state,local-large_writes-1-verify.state \
	--ioengine=libaio --direct=1 --filename=foo --iodepth=128 --size=1M \
	--rw=read --verify=md5 --verify_fatal=1 --verify_dump=1 \
	--name=large_reads --offset=0 --bs=1M
if grep -q "^       hdr_fail data dumped as foo.0.hdr_fail$" "$out" &&
   [ "$(wc -c < "$scratch/foo.0.hdr_fail")" -eq 1048576 ] &&
   [ "$(od -A n -t x1 -N 8 "$scratch/foo.0.hdr_fail" | tr -d ' ')" = caac020000020000 ]; then
	ok "verify_dump: foo.0.hdr_fail, 1 MiB, fio's header bytes"
else
	not_ok "verify_dump: foo.0.hdr_fail, 1 MiB, fio's header bytes"
fi
expect "verify_dump: a 512-byte read of a 1 MiB write" 1 \
	"^verify: bad header length 1048576, wanted 512 at file foo offset 1048576, length 512" -- \
	--files-from=local-small_writes-0-verify.state,local-large_writes-1-verify.state \
	--ioengine=libaio --direct=1 --filename=foo --iodepth=128 --size=1M \
	--rw=read --verify=md5 --verify_dump=1 \
	--name=small_reads --offset=1M --bs=512
# bssplit writes and reads (t0002): fio's verify_interval is the
# smallest write size, a header every 512 bytes, so reads of any size
# drawn from the split pass.
rm -f "$scratch"/local-*-verify.state
expect "bssplit writes with verify=md5" 0 "err= 0" -- \
	--name=w --filename=bs2 --size=8m --rw=write --direct=1 \
	--bssplit=512/50:64k/50 --verify=md5 --do_verify=0
expect "verify on bssplit reads: passes (a header every 512 bytes)" 0 \
	'"total_ios" : ' -- --output-format=json \
	--files-from=local-w-0-verify.state --name=r --filename=bs2 \
	--size=8m --rw=read --direct=1 --bsrange=512-128k --verify=md5
# Two state files (two writers of one file, t0002's pre-job): each
# writer's blocks keep their own kind and interval whatever the order.
expect "two writers of one file" 0 "err= 0" -- \
	--filename=two --rw=write --verify=md5 --do_verify=0 --size=1m \
	--name=a --bs=4k --name=b --offset=1m --bssplit=512/50:8k/50
for order in local-a-0-verify.state,local-b-1-verify.state \
	     local-b-1-verify.state,local-a-0-verify.state; do
	expect "--files-from=$order: both writers' blocks pass" 0 "err= 0" -- \
		--files-from=$order --filename=two --rw=read --verify=md5 \
		--direct=1 --size=1m --name=ra --bs=4k \
		--name=rb --offset=1m --bsrange=512-8k
done
# A later run's file smaller than the writes (100 KiB of an 8 MiB file
# of 512-byte and 64 KiB writes): the blocks laid up to its end.
expect "--files-from: a smaller run's file, the last write cut at its end" 0 \
	"err= 0" -- --files-from=local-w-0-verify.state --name=r \
	--filename=bs2 --size=100k --rw=read --direct=1 --bs=512 --verify=md5
expect "a read whose interval is not the writes': bad header length" 1 \
	"bad header length 512, wanted 4096 at file bs2 offset 0" -- \
	--files-from=local-w-0-verify.state --name=r --filename=bs2 \
	--size=8m --rw=read --direct=1 --bs=4k --verify=md5
# verify_backlog=1 with loops=2 and rw=write:112k (cross-stripe-verify's
# shape; fio 3.33 on this machine with numjobs=2, io_size=16m: 4096
# writes, 4096 reads): each loop's writes read back as they go.
expect "verify_backlog with loops: each loop's writes read back" 0 \
	'"total_ios" : 128,' -- --output-format=json --name=v --filename=vb \
	--size=16m --io_size=1m --rw=write:112k --bs=16k --direct=1 \
	--verify=crc32c --verify_backlog=1 --loops=2
# loops=2 with io_size below the region: fio 3.33's do_io stops at
# io_size x loops issued since the job began (backend.c
# io_bytes_exceeded; io_issue_bytes is not reset between loops), so the
# first loop writes 128 blocks from 120 KiB to 16 MiB and the second
# none: the write offsets of fio 3.33's own iolog of the same shape
# (tests/fio/loops/).  Then the whole iolog but fio's µs: its add, open,
# close lines too (fio logs a close only for an open file, and opens a
# closed one at its next I/O: after the second loop's clear_io_state
# nothing opens it again; before session 13 wpsim logged one open/close
# pair more there).
"$wpsim" fio --name=v --filename=vl --size=16m --io_size=1m --offset=120k \
	--rw=write:112k --bs=16k --direct=1 --verify=crc32c --verify_backlog=1 \
	--loops=2 --write_iolog="$scratch/vl.iolog" >"$out" 2>&1
grep -v '^#' tests/fio/loops/xstripe-1m-write-offsets.txt >"$scratch/want"
awk '$3 == "write" { print $4 }' "$scratch/vl.iolog" >"$scratch/got" 2>/dev/null
if cmp -s "$scratch/want" "$scratch/got"; then
	ok "loops with io_size below the region: fio 3.33's write offsets"
else
	not_ok "loops with io_size below the region: fio 3.33's write offsets"
fi
grep -v '^#' tests/fio/loops/xstripe-1m-iolog-fio333.txt >"$scratch/want"
awk 'NR == 1 { print; next } { $1 = ""; sub(/^ /, ""); print }' \
	"$scratch/vl.iolog" >"$scratch/got" 2>/dev/null
if cmp -s "$scratch/want" "$scratch/got"; then
	ok "loops with io_size below the region: fio 3.33's whole iolog (opens, closes, reads)"
else
	diff "$scratch/want" "$scratch/got" | head -5 >"$out"
	not_ok "loops with io_size below the region: fio 3.33's whole iolog (opens, closes, reads)"
fi
# verify_backlog's map forgets each block once its read is checked (fio
# 3.33 frees the io_piece get_next_verify hands out): a random job whose
# batch (3) is below its backlog (8) lets the waiting blocks grow, so
# the map grows and deletes among collisions; every read must still
# find its block's write (a lost entry would read as a bad header).
expect "verify_backlog: the map forgets read blocks, every read passes" 0 \
	"issued rwts: total=1024,1024,0,0 " -- --name=vr --filename=vr \
	--size=4m --bs=4k --rw=randwrite --verify=crc32c --verify_backlog=8 \
	--verify_backlog_batch=3
# Its state file lists no block read back (fio 3.33's lists none: 192
# bytes for iodepth 1 and one file, traces/real-kernel/), and a later
# run cannot lay them: an error, not a false verify failure.
st="$scratch/local-vr-0-verify.state"
if grep -q '^forgotten 1024$' "$st" && ! grep -q '^block ' "$st" &&
   grep -q '^comp 0 ' "$st"; then
	ok "verify_backlog: the state file lists no block read back"
else
	not_ok "verify_backlog: the state file lists no block read back"
fi
expect "verify_backlog: loading a state whose blocks were forgotten" 2 \
	"local-vr-0-verify.state:[0-9]+: its writer's 1024 blocks read back under verify_backlog are not kept" -- \
	--files-from=local-vr-0-verify.state --name=r --filename=vr \
	--size=4m --rw=read --verify=crc32c
expect "verify_backlog on libaio: reads checked at reap, then forgotten" 0 \
	"issued rwts: total=1024,1024,0,0 " -- --name=va --filename=va \
	--size=4m --bs=4k --rw=write --ioengine=libaio --iodepth=8 \
	--direct=1 --verify=crc32c --verify_backlog=16 --verify_backlog_batch=5
# experimental_verify with loops=8 (t0026's job1; fio 3.33 on this
# machine: 1792 writes, 256 reads, its iolog write, close, open, read,
# then write passes only): fio never resets its bytes verified.
"$wpsim" fio --output-format=json --name=job1 --filename="$scratch/e26" \
	--size=1M --rw=randwrite --loops=8 --verify=md5 \
	--experimental_verify=1 >"$out" 2>&1
if grep -q '"total_ios" : 256,' "$out" && grep -q '"total_ios" : 1792,' "$out"; then
	ok "experimental_verify, loops=8: 1792 writes, 256 reads (fio 3.33's)"
else
	not_ok "experimental_verify, loops=8: 1792 writes, 256 reads (fio 3.33's)"
fi
# A time_based job has no verify phase in fio 3.33 (measured:
# --rw=write --time_based --runtime=1 --size=1m --verify=md5 reads
# nothing): its runtime ends it first.
(cd "$scratch" && "$wpsim" fio --output-format=json --name=t --filename=tb \
	--size=1m --rw=write --time_based --runtime=10ms --verify=md5) \
	>"$out" 2>"$scratch/tb.err"	# stderr apart: ASan warns there
if python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
sys.exit(0 if j["read"]["total_ios"] == 0 and j["write"]["total_ios"] > 256 else 1)' "$out"; then
	ok "time_based with verify: writes, no verify reads"
else
	not_ok "time_based with verify: writes, no verify reads"
fi
expect "experimental_verify on a time_based randrw job (t0026's job2)" 0 \
	"err= 0" -- --name=job2 --filename=tb2 --size=1M --rw=randrw \
	--time_based --runtime=10ms --verify=md5 --experimental_verify=1
tap_end
