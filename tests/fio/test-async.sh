#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-async.sh WPSIM SOURCE-ROOT - verify_async, t0009's
# combination and SPRandom (TAP; issue 29, the last in-scope fio job
# files that errored: examples/enospc-pressure.fio's verifier,
# t/jobs/t0009-f8b0bd10.fio, examples/sprandom.fio).
#
# verify_async=N (fio 3.33 verify.c verify_io_u_async,
# verify_async_thread): a completed verify read is handed to N verifier
# threads, which check it and free its io_u.  The model's check takes no
# time (no CPU is charged for verifying, inline or not), so the io_u is
# free at the completion instant and what is issued is what an inline
# check gives; fio 3.33's counts for these jobs are the same with and
# without it (measured on this machine, 2026-12-06: a psync write of
# 1 MiB, 256 writes and 256 reads; a direct libaio randrw at iodepth 16
# with verify_backlog, the same counts and depths for 0 and 4).  What
# changes is the error's origin: fio's verifier thread reports a
# failure as func=async_verify at verify.c:1441 (fio 3.33, measured:
# "fio: pid=P, err=84/file:verify.c:1441, func=async_verify, ...").
wpsim=$1
root=$2
cd "$root" || exit 2
out=$(mktemp)
out2=$(mktemp)
err=$(mktemp)
dir=$(mktemp -d)
trap 'rm -rf "$out" "$out2" "$err" "$dir"' EXIT
. tests/lib/tap.sh
tap_diag="$out $err"
tap_diag_lines=30
w=$(cd "$(dirname "$wpsim")" && pwd)/$(basename "$wpsim")
cd "$dir" || exit 2

# issued rwts of a normal output.
issued() {
	grep -o 'issued rwts: total=[0-9,]*' "$1"
}

# 1. A psync write with verify: fio 3.33 256 writes, 256 reads, with or
#    without verify_async.
job="--name=v --filename=f --rw=write --bs=4k --size=1m --verify=crc32c"
# shellcheck disable=SC2086 # $job is a list of options
"$w" fio $job >"$out" 2>"$err"
a=$?
# shellcheck disable=SC2086
"$w" fio $job --verify_async=2 >"$out2" 2>>"$err"
b=$?
asan_quiet "$err"
if [ "$a" = 0 ] && [ "$b" = 0 ] && [ ! -s "$err" ] &&
   [ "$(issued "$out")" = "issued rwts: total=256,256,0,0" ] &&
   [ "$(issued "$out2")" = "issued rwts: total=256,256,0,0" ]; then
	ok "verify_async=2 on a psync write: 256 writes, 256 reads, as inline and as fio 3.33"
else
	not_ok "verify_async=2 on a psync write (exit $a, $b)"
fi

# 2. enospc-pressure.fio's verifier (direct randrw libaio, verify_fatal,
#    verify_dump, verify_backlog=1024) on 8 MiB, without its
#    create_on_open: the same JSON with verify_async=4 as with 0, but the
#    options' echo (fio 3.33: 2048 reads with either; the writes are the
#    draws', splitmix64's here).
vjob="--name=aio-dio-verifier --ioengine=libaio --iodepth=128 --filename=adv
 --size=8m --verify=crc32c-intel --verify_fatal=1
 --verify_dump=1 --verify_backlog=1024 --direct=1 --bs=4k --rw=randrw
 --output-format=json"
# shellcheck disable=SC2086
"$w" fio $vjob --verify_async=0 >"$out" 2>"$err"
a=$?
rm -f adv
# shellcheck disable=SC2086
"$w" fio $vjob --verify_async=4 >"$out2" 2>>"$err"
b=$?
asan_quiet "$err"
sed -i '/"verify_async"/d' "$out" "$out2"
if [ "$a" = 0 ] && [ "$b" = 0 ] && [ ! -s "$err" ] &&
   grep -q '"total_ios" : 2048,' "$out" && cmp -s "$out" "$out2"; then
	ok "enospc-pressure's verifier on 8 MiB: the same JSON with verify_async=4 as inline (2048 reads: the workload's and the verify's, as fio 3.33)"
else
	not_ok "enospc-pressure's verifier with verify_async=4 (exit $a, $b)"
fi

# 2b. enospc-pressure.fio's verifier as it is (create_on_open=1): fio
#    lays nothing out, and a read past the new file's end returns 0
#    bytes, counted as a block of no bytes (fio 3.33: 2048 reads issued,
#    8172 KiB read, err 0).  With psync an error (fio: "full resid").
rm -f adv
# shellcheck disable=SC2086
"$w" fio $vjob --create_on_open=1 --verify_async=4 >"$out" 2>"$err"
a=$?
asan_quiet "$err"
rb=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; print(j["read"]["total_ios"], j["read"]["io_bytes"], j["error"])' "$out" 2>/dev/null)
set -- $rb
if [ "$a" = 0 ] && [ ! -s "$err" ] && [ "${1:-}" = 2048 ] &&
   [ "${2:-0}" -lt 8388608 ] && [ "${2:-0}" -gt 8000000 ] &&
   [ $(( ${2:-1} % 4096 )) = 0 ] && [ "${3:-}" = 0 ]; then
	ok "create_on_open=1 on the verifier: 2048 reads issued, $2 bytes read (the reads past the new file's end count no bytes), err 0"
else
	not_ok "create_on_open=1 on the verifier (exit $a; $rb)"
fi
"$w" fio --name=c --filename=c --size=64k --rw=randrw --create_on_open=1 \
	>"$out" 2>"$err"
got=$?
if [ "$got" = 2 ] && grep -q "full resid" "$err"; then
	ok "create_on_open=1 on a psync randrw: an error naming fio's full resid"
else
	not_ok "create_on_open=1 on a psync randrw (exit $got)"
fi

# 3. A lost write (break=writeback_skips_eof_folio, as test-verify-break)
#    found by the verifier thread: fio 3.33's async_verify line.
# shellcheck disable=SC2086
"$w" fio --name=v --filename=f --rw=write --bs=4k --size=64k --verify=crc32c \
	--verify_async=2 --variant break=writeback_skips_eof_folio \
	>"$out" 2>"$err"
got=$?
asan_quiet "$err"
if [ "$got" = 1 ] &&
   grep -q "^verify: bad magic header 0, wanted acca at file f offset 61440," "$err" &&
   grep -q "^fio: pid=1, err=84/file:verify.c:1441, func=async_verify, error=Invalid or incomplete multibyte or wide character$" "$err" &&
   grep -q "^v: (groupid=0, jobs=1): err=84 (file:verify.c:1441, func=async_verify," "$out"; then
	ok "a lost write under verify_async: fio 3.33's func=async_verify at verify.c:1441, exit 1"
else
	not_ok "a lost write under verify_async (exit $got)"
fi

# 4. Bad values: fio's int.
"$w" fio --name=v --filename=f --rw=write --size=64k --verify=crc32c \
	--verify_async=x >"$out" 2>"$err"
got=$?
if [ "$got" = 2 ] && grep -q "verify_async" "$err"; then
	ok "verify_async=x: an error naming it, exit 2"
else
	not_ok "verify_async=x (exit $got)"
fi

# 4b. t/jobs/t0009-f8b0bd10.fio's combination (null engine, iodepth=170,
#    iodepth_batch=4, iodepth_batch_complete=4, gtod_reduce,
#    randrepeat=0, norandommap, verify=crc32c-intel, verify_backlog=1m,
#    verify_async=6, verify_async_cpus, cpus_allowed split, time_based,
#    two jobs) on a runtime of 2 s: it runs (fio's io_u life cycle,
#    tools/wpsim/fio-nullv.c; tests/fio/test-nullv.sh compares its pieces
#    with fio 3.33's runs): both jobs write and read back (verify_backlog:
#    the reads start when 1m pieces are logged, and each do_io ends at
#    twice size issued), reads never more than writes; with --cpus 2,
#    fio 3.33's own refusal on this 2-CPU machine.
cat >t9.fio <<'T9'
[global]
direct=1
ioengine=null
size=20g
norandommap
randrepeat=0
bs=4096
iodepth=170
numjobs=1
time_based=1
group_reporting=1
thread
gtod_reduce=1
iodepth_batch=4
iodepth_batch_complete=4
cpus_allowed=0-3
cpus_allowed_policy=split
rw=randwrite
verify=crc32c-intel
verify_backlog=1m
do_verify=1
verify_async=6
verify_async_cpus=0-3
runtime=2

[4_KiB_RR_drive_r]

[4_KiB_RR_drive_s]
T9
"$w" fio t9.fio >"$out" 2>"$err"
got=$?
set -- $(issued "$out" | tr -c '0-9\n' ' ')
if [ "$got" = 0 ] && [ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ] &&
   [ "$1" -le "$2" ] && grep -q "groupid=0, jobs=2" "$out"; then
	ok "t0009's combination runs: $1 verify reads, $2 writes issued in 2 s (two jobs)"
else
	not_ok "t0009's combination (exit $got)"
fi
"$w" fio --cpus 2 t9.fio >"$out" 2>"$err"
got=$?
if [ "$got" = 2 ] && grep -q "fio: CPU 2 too large (max=1)" "$err"; then
	ok "t0009's combination with --cpus 2: fio 3.33's refusal on a 2-CPU machine"
else
	not_ok "t0009's combination with --cpus 2 (exit $got)"
fi

# 5. SPRandom (fio 3.41's sprandom.c, fio-spr.c): the write_iolog
#    offsets, the issued count and the bytes done against fio 3.42's,
#    recorded in tests/fio/sprandom/*.fio342 (each file says how).
#    sprandom-4m: fio's examples/sprandom.fio (its options given here on
#    the command line; the corpus copy is not in the project) on 4 MiB:
#    1111 writes issued, and 1048 done: SPRandom's end is fio's
#    td->done, after which fio reaps none of the 63 in flight.
spr=$root/tests/fio/sprandom
spr_check() {
	name=$1
	shift
	rm -f ./*.log ./*.dat
	"$w" fio "$@" >"$out" 2>"$err"
	got=$?
	asan_quiet "$err"
	awk '$3 == "write" { print $2, $4, $5 }' ./*.log >"$out2"
	want_issued=$(sed -n 's/^# *\(issued rwts: total=[0-9,]*\).*/\1/p' \
		"$spr/$name.fio342" | tr '\n' ' ')
	want_io=$(grep '^# *WRITE:' "$spr/$name.fio342" |
		grep -o 'io=[0-9.]*[KMG]iB' | tr '\n' ' ')
	have_issued=$(grep -o 'issued rwts: total=[0-9,]*' "$out" |
		tr '\n' ' ')
	have_io=$(grep '^ *WRITE:' "$out" | grep -o 'io=[0-9.]*[KMG]iB' |
		tr '\n' ' ')
	if [ "$got" = 0 ] &&
	   grep -v '^#' "$spr/$name.fio342" | cmp -s - "$out2" &&
	   [ "$want_issued" = "$have_issued" ] && [ "$want_io" = "$have_io" ]
	then
		ok "sprandom $name: fio 3.42's $(wc -l <"$out2") write offsets, $have_issued, $have_io"
	else
		echo "# issued: want '$want_issued' have '$have_issued'; io: want '$want_io' have '$have_io'"
		not_ok "sprandom $name: fio 3.42's offsets and counts (exit $got)"
	fi
}
spr_check sprandom-4m --name=preconditioning --filename=spr.dat --size=4m \
	--write_iolog=spr2.log --ioengine=libaio --rw=randwrite --bs=4096 \
	--blockalign=4096 --direct=1 --norandommap=1 --iodepth=64 \
	--sprandom=1 --spr_op=0.15 --spr_num_regions=100
if grep -qx "fio: sprandom sets random_generator=lfsr" "$err" &&
   ! grep -q "sets norandommap" "$err"; then
	ok "sprandom: fio's note that it sets random_generator=lfsr (norandommap was given)"
else
	not_ok "sprandom: fio's note on random_generator"
fi
spr_check spr-cache --filename_format='$jobname.dat' \
	--write_iolog=spr-cache.log "$spr/spr-cache.fio"
spr_check spr-two --filename_format='$jobname.dat' \
	--write_iolog=spr-two.log "$spr/spr-two.fio"

# 5b. randrepeat=0: fio's seeds come from the system's random source
#    unless randseed= is given; here from the run's --seed (the same
#    offsets for the same --seed, others for another), and with
#    randseed= given fio's own (those of randrepeat=1).
sj="--name=s --filename=s.dat --size=1m --rw=randwrite --bs=4k --sprandom=1
 --spr_num_regions=4"
spr_offsets() {
	rm -f s.log s.dat
	# shellcheck disable=SC2086 # $sj is a list of options
	"$w" fio $sj --write_iolog=s.log "$@" >/dev/null 2>&1
	awk '$3 == "write" { print $4 }' s.log | md5sum
}
r1=$(spr_offsets --randrepeat=0 --seed=7001)
r2=$(spr_offsets --randrepeat=0 --seed=7001)
r3=$(spr_offsets --randrepeat=0 --seed=7002)
r4=$(spr_offsets --randrepeat=0 --randseed=1234 --seed=7002)
r5=$(spr_offsets --randseed=1234)
if [ "$r1" = "$r2" ] && [ "$r1" != "$r3" ] && [ "$r4" = "$r5" ]; then
	ok "sprandom with randrepeat=0: the run's --seed decides, reproducibly; with randseed= fio's seeds"
else
	not_ok "sprandom with randrepeat=0 ($r1 $r2 $r3 $r4 $r5)"
fi

# 6. SPRandom's refusals, as fio 3.41's fixup_options words them.
"$w" fio --name=s --filename=f --size=1m --rw=randread --sprandom=1 \
	>"$out" 2>"$err"
got=$?
if [ "$got" = 2 ] && grep -q "sprandom requires random write" "$err"; then
	ok "sprandom on rw=randread: fio's refusal, exit 2"
else
	not_ok "sprandom on rw=randread (exit $got)"
fi
"$w" fio --name=s --filename=f --size=1m --rw=randwrite --sprandom=1 \
	--random_generator=tausworthe >"$out" 2>"$err"
got=$?
if [ "$got" = 2 ] && grep -q "sprandom requires random_generator=lfsr" "$err"; then
	ok "sprandom with random_generator=tausworthe: fio's refusal, exit 2"
else
	not_ok "sprandom with random_generator=tausworthe (exit $got)"
fi
"$w" fio --name=s --filename=f --size=1m --rw=randwrite --sprandom=1 \
	--spr_op=2 >"$out" 2>"$err"
got=$?
if [ "$got" = 2 ] && grep -q "spr_op" "$err"; then
	ok "spr_op=2 (fio asserts the write amplification above 1): an error, exit 2"
else
	not_ok "spr_op=2 (exit $got)"
fi

# 6b. verify on ioengine=null (fio's FIO_FAKEIO: each logged block read
#     back and passed), without backlog or batches: fio 3.33's counts
#     and write_iolog, measured on 16 writes of 4 KiB (iodepth=1: the
#     writes, close, open, the reads in order, close; iodepth=16: each
#     I/O but the first twice, null's FIO_Q_BUSY requeue, below).
nv_log() {
	rm -f v.log
	"$w" fio --name=n --ioengine=null --rw=write --bs=4k --size=64k \
		--verify=crc32c --write_iolog=v.log "$@" >"$out" 2>"$err"
	awk 'NR > 3 { if ($3 == "open") s = "O"; else if ($3 == "close") s = "C"
	     else s = substr($3, 1, 1) $4 / 4096; printf "%s,", s }' v.log
}
a=$(nv_log --iodepth=1)
a_ok=$(grep -c 'issued rwts: total=16,16,0,0' "$out")
b=$(nv_log --iodepth=16)
b_ok=$(grep -c 'issued rwts: total=16,16,0,0' "$out")
wa="w0,w1,w2,w3,w4,w5,w6,w7,w8,w9,w10,w11,w12,w13,w14,w15,C,O,r0,r1,r2,r3,r4,r5,r6,r7,r8,r9,r10,r11,r12,r13,r14,r15,C,"
wb="w0,w1,w1,w2,w2,w3,w3,w4,w4,w5,w5,w6,w6,w7,w7,w8,w8,w9,w9,w10,w10,w11,w11,w12,w12,w13,w13,w14,w14,w15,w15,C,O,r0,r1,r1,r2,r2,r3,r3,r4,r4,r5,r5,r6,r6,r7,r7,r8,r8,r9,r9,r10,r10,r11,r11,r12,r12,r13,r13,r14,r14,r15,r15,C,"
if [ "$a" = "$wa" ] && [ "$b" = "$wb" ] && [ "$a_ok" = 1 ] && [ "$b_ok" = 1 ]; then
	ok "verify on null: fio 3.33's 16 writes and 16 reads, and its write_iolog at iodepth 1 and 16"
else
	not_ok "verify on null ($a / $b)"
fi

# 7. Found on the way: fio 3.33's write_iolog on ioengine=null with
#    iodepth > 1 logs an I/O twice when it finds the last commit's events
#    pending (null_queue's FIO_Q_BUSY: do_io requeues it, reaps, queues
#    it again, and td_io_queue logs it each time).  Measured with fio
#    3.33 on 16 writes of 4 KiB: iodepth=16, 31 lines (every write but
#    the first twice); iodepth=16 iodepth_batch=4, 19 (each batch's first
#    but the first batch's); iodepth=4 iodepth_batch=4 (the commit fills
#    the queue, reaped at once) and iodepth=1, 16.
null_log() {
	rm -f n.log
	"$w" fio --name=n --ioengine=null --rw=write --bs=4k --size=64k \
		--write_iolog=n.log "$@" >/dev/null 2>&1
	awk 'NR > 3 && $3 == "write" { printf "%d,", $4 / 4096 }' n.log
}
a=$(null_log --iodepth=16)
b=$(null_log --iodepth=16 --iodepth_batch=4)
c=$(null_log --iodepth=4 --iodepth_batch=4)
d=$(null_log --iodepth=1)
if [ "$a" = "0,1,1,2,2,3,3,4,4,5,5,6,6,7,7,8,8,9,9,10,10,11,11,12,12,13,13,14,14,15,15," ] &&
   [ "$b" = "0,1,2,3,4,4,5,6,7,8,8,9,10,11,12,12,13,14,15," ] &&
   [ "$c" = "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15," ] && [ "$c" = "$d" ]; then
	ok "null's write_iolog with iodepth > 1: fio 3.33's lines, the requeued I/Os twice"
else
	not_ok "null's write_iolog with iodepth > 1 ($a / $b / $c / $d)"
fi
# 8. ioengine=null at iodepth 1 is fio's FIO_SYNCIO: no submission or
#    reap is marked (fio 3.33 prints 0 % in every submit and complete
#    bucket; measured).
"$w" fio --name=n --ioengine=null --rw=write --bs=4k --size=64k \
	--output-format=json >"$out" 2>"$err"
sub=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; print(sum(j["iodepth_submit"].values()), sum(j["iodepth_complete"].values()), j["write"]["total_ios"])' "$out" 2>/dev/null)
if [ "$sub" = "0.0 0.0 16" ]; then
	ok "null at iodepth 1: no submit or complete bucket, as fio 3.33"
else
	not_ok "null at iodepth 1: submit and complete ($sub)"
fi
tap_end
