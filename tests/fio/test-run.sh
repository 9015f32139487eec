#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-run.sh WPSIM SOURCE-ROOT - `wpsim fio`, the runner (TAP):
# options the model lacks are errors that name them (exit 2), size bounds
# say the bound, the same command twice prints the same JSON bytes, a
# --replayable run's schedule replays to the same event-log hash and
# output, and what each job does shows in fio's fields (I/O counts,
# fsync counts, slat only for io_uring, flushes costing time).  No timing
# is asserted: the figures are the model's, virtual, and bench/ has them.
wpsim=$1
root=$2
cd "$root" || exit 2
out=$(mktemp)
out2=$(mktemp)
err=$(mktemp)
scratch=$(mktemp -d)
trap 'rm -f "$out" "$out2" "$err"; rm -rf "$scratch"' EXIT
. tests/lib/tap.sh
tap_diag="$out"
tap_diag_lines=40

# expect NAME CODE PATTERN -- ARGS: exit CODE, a line matching PATTERN.
expect() {
	name=$1 code=$2 pattern=$3
	shift 4
	"$wpsim" fio "$@" >"$out" 2>&1
	got=$?
	if [ "$got" -ne "$code" ]; then
		not_ok "$name (exit $got, want $code)"
	elif ! grep -q -- "$pattern" "$out"; then
		not_ok "$name (no '$pattern')"
	else
		ok "$name"
	fi
}

# json_field FILE EXPR: print a value of the JSON (python3 expression
# over j, the parsed document).
json() {
	python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"
}

expect "--help lists the modelled options" 0 "^Modelled job options: rw" -- \
	--help
# JSON goes to $out and stderr apart (an ASan build warns there).
# libaio reads: the front end sends IOCB_CMD_PREAD through io_submit
# when the model has it (km_aio_read; meson.build detects it), and says
# the model lacks it otherwise.  Either way the 70/30 randrw job is not
# refused by the front end.
"$wpsim" fio --name=x --rw=randrw --rwmixread=70 --size=64k \
	--ioengine=libaio --iodepth=8 --output-format=json >"$out" 2>"$out.err"
got=$?
if [ "$got" = 2 ] && grep -q "the model's io_submit has no IOCB_CMD_PREAD" "$out.err"; then
	ok "libaio randrw 70/30: this build's model has no IOCB_CMD_PREAD, said so"
elif [ "$got" = 0 ] && [ "$(json "$out" "j['jobs'][0]['read']['total_ios'] + j['jobs'][0]['write']['total_ios']")" = 16 ]; then
	ok "libaio randrw 70/30 runs: 16 I/Os"
else
	not_ok "libaio randrw 70/30 (exit $got)"
fi
expect "libaio O_DIRECT on ext4 runs: io_submit queues, a kworker completes" 0 \
	'"total_ios" : 256,' -- --output-format=json --fs=ext4 --name=x \
	--rw=randwrite --size=256k --io_size=1m --ioengine=libaio \
	--iodepth=32 --direct=1
# A relation between two of the model's own (virtual, deterministic)
# results, not a timing: 32 libaio requests in flight keep the device as
# busy as 32 psync jobs, because io_getevents takes whichever request
# completes first.  Waiting for the oldest slot, as the runner did before,
# gave 0.43 of the psync figure on this profile.
iops() {
	"$wpsim" fio --fs=ext4 --name=a --rw=randwrite --bs=4k --size=16m \
		--io_size=4m --direct=1 --overwrite=1 --device=virtio-vm \
		--output-format=json "$@" | python3 -c '
import json, sys
print(int(sum(j["write"]["iops"] for j in json.load(sys.stdin)["jobs"])))'
}
aio=$(iops --ioengine=libaio --iodepth=32)
sync32=$(iops --ioengine=psync --numjobs=32 --filename=f --group_reporting)
if [ "${aio:-0}" -ge $(( ${sync32:-1} * 3 / 4 )) ]; then
	ok "libaio QD 32 keeps the device as busy as 32 psync jobs ($aio vs $sync32 IOPS)"
else
	not_ok "libaio QD 32: $aio IOPS against $sync32 for 32 psync jobs"
fi
expect "libaio buffered writes run: slat is the submission" 0 \
	'"slat_ns"' -- --output-format=json --name=x --rw=randwrite \
	--size=64k --io_size=256k --ioengine=libaio --iodepth=8 --sync=dsync
expect "writethrough with libaio runs (seed 000), past 8 writes in flight" 0 \
	'"total_ios" : 1024,' -- --output-format=json --name=x \
	--rw=randwrite --size=256k --io_size=1m --ioengine=libaio \
	--iodepth=32 --writethrough=1 --overwrite=1 --numjobs=4 \
	--filename=f --group_reporting
expect "file_append writes past the laid-out size" 0 \
	'"total_ios" : 16,' -- --output-format=json --name=x --rw=write \
	--size=64k --file_append=1 --ioengine=pvsync2
expect "direct=1 on xfs runs (xfs_file_dio_write)" 0 \
	'"total_ios" : 16,' -- --output-format=json --name=x --rw=write \
	--size=64k --direct=1
expect "O_DIRECT reads on xfs run (iomap_dio_rw), libaio" 0 \
	'"total_ios" : 16,' -- --output-format=json --name=x --rw=randread \
	--size=64k --direct=1 --ioengine=libaio --iodepth=4
expect "bs=1m with direct=1 runs" 0 \
	'"total_ios" : 4,' -- --output-format=json --name=x --rw=write \
	--size=4m --bs=1m --direct=1
expect "bs=16m with direct=1 runs (the block layer splits the bio)" 0 \
	'"total_ios" : 2,' -- --output-format=json --name=x --rw=write \
	--size=32m --bs=16m --direct=1
expect "bs=16m buffered runs" 0 \
	'"total_ios" : 2,' -- --output-format=json --name=x --rw=write \
	--size=32m --bs=16m
expect "buffered ext4 is an error" 2 \
	"buffered I/O on ext4 is not modelled" -- \
	--name=x --rw=write --size=64k --fs=ext4
expect "a file beyond 64 pages runs (the bound follows --size)" 0 \
	"write: IOPS=" -- \
	--name=x --rw=write --size=1m
expect "a 64 MiB file dirtied whole: past 65 535 live objects (ids are 24 bits)" 0 \
	'"total_ios" : 16384,' -- --output-format=json --name=x --rw=write \
	--size=64m
expect "a file beyond M_FILE_PAGES_LIMIT says the bound" 2 \
	"the model holds at most 268435456 pages per file (M_FILE_PAGES_LIMIT" -- \
	--name=x --rw=write --size=2t
expect "a job of more files than FIO_FILES_MAX says the bound" 2 \
	"65536" -- --name=x --rw=write --size=16m --nrfiles=65537
expect "folios beyond 2 x M_FILE_PAGES_LIMIT say the bound" 2 \
	"at most 536870912 folios (2 x M_FILE_PAGES_LIMIT" -- \
	--name=x --rw=write --size=1t --numjobs=5
expect "an unknown device is an error" 2 "no-such-disk" -- \
	--name=x --rw=write --size=64k --device no-such-disk
expect "--mem below 256k is an error" 2 \
	"--mem: expected a page-cache limit of at least 256k" -- \
	--name=x --rw=write --size=64k --mem 64k
expect "--mem: a 1 MiB file through a 256 KiB page cache (reclaim)" 0 \
	"write: IOPS=" -- \
	--name=x --rw=randwrite --size=1m --io_size=4m --fsync=8 --mem 256k
expect "an option fio has and wpsim does not: the parser's error" 2 \
	"found '--gtod_cpu' (wpsim never ignores an option)" -- \
	--name=x --gtod_cpu=1

# Buffered psync: 64 writes of 4 KiB, looping 4x over a 64 KiB file.
"$wpsim" fio --name=w --rw=write --bs=4k --size=64k --io_size=256k \
	--output-format=json >"$out" 2>"$err"
if [ "$(json "$out" "j['jobs'][0]['write']['total_ios']")" = 64 ] &&
   [ "$(json "$out" "j['jobs'][0]['write']['slat_ns']['N']")" = 0 ] &&
   [ "$(json "$out" "j['jobs'][0]['write']['clat_ns']['N']")" = 64 ]; then
	ok "psync: io_size loops over the file, clat per I/O, no slat"
else
	not_ok "psync: io_size loops over the file, clat per I/O, no slat"
fi

# The same command twice: the same bytes.
"$wpsim" fio --name=w --rw=randwrite --bs=4k --size=64k --io_size=1m \
	--fsync=4 --numjobs=2 --filename=f --output-format=json >"$out2" 2>>"$err"
"$wpsim" fio --name=w --rw=randwrite --bs=4k --size=64k --io_size=1m \
	--fsync=4 --numjobs=2 --filename=f --output-format=json >"$out" 2>>"$err"
if cmp -s "$out" "$out2"; then
	ok "the same command twice gives byte-identical JSON"
else
	not_ok "the same command twice gives byte-identical JSON"
fi
# 256 writes: fio 3.33 syncs before the next I/O when the writes issued
# are a multiple of 4, so none after the last write: 63 (checked with
# fio 3.33: a 32 KiB job with fsync=4 issues 1, a 36 KiB one 2).
if [ "$(json "$out" "j['jobs'][1]['sync']['total_ios']")" = 63 ]; then
	ok "fsync=4: one fsync before every write after a 4th, as fio 3.33"
else
	not_ok "fsync=4: one fsync before every write after a 4th, as fio 3.33"
fi
# fdatasync and sync_file_range go where fio 3.33 counts them: read's
# and write's short_ios (its total_io_u[] indexed past the end).
"$wpsim" fio --name=w --rw=write --bs=4k --size=36k --fdatasync=4 \
	--filename=f --output-format=json >"$out" 2>>"$err"
if [ "$(json "$out" "(j['jobs'][0]['sync']['total_ios'], j['jobs'][0]['sync']['lat_ns']['N'], j['jobs'][0]['read']['short_ios'])")" = "(0, 2, 2)" ]; then
	ok "fdatasync=4 on 9 writes: 2 syncs, counted as fio 3.33 counts them"
else
	not_ok "fdatasync=4 on 9 writes: 2 syncs, counted as fio 3.33 counts them"
fi

# io_uring: slat and clat; the punt variant hands every write to io-wq.
for v in merged punt; do
	"$wpsim" fio --name=u --rw=write --bs=4k --size=64k --io_size=256k \
		--ioengine=io_uring --variant uring=$v \
		--output-format=json >"$out" 2>>"$err"
	if [ "$(json "$out" "j['jobs'][0]['write']['slat_ns']['N']")" = 64 ]; then
		ok "io_uring uring=$v: slat and clat per I/O"
	else
		not_ok "io_uring uring=$v: slat and clat per I/O"
	fi
	eval "clat_$v=\$(json \"\$out\" \"j['jobs'][0]['write']['clat_ns']['mean']\")"
done
if python3 -c "import sys; sys.exit(not float(sys.argv[1]) > float(sys.argv[2]))" \
	"$clat_punt" "$clat_merged"; then
	ok "io_uring: a punted write's clat exceeds an inline one's"
else
	not_ok "io_uring: punted clat $clat_punt, inline $clat_merged"
fi

# Flushes cost time on a volatile-cache device: sync=dsync is slower.
"$wpsim" fio --name=d --rw=write --bs=4k --size=64k --device consumer-vwc \
	--output-format=json >"$out" 2>>"$err"
"$wpsim" fio --name=d --rw=write --bs=4k --size=64k --device consumer-vwc \
	--sync=dsync --output-format=json >"$out2" 2>>"$err"
if python3 -c "import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); sys.exit(not b['jobs'][0]['write']['clat_ns']['mean'] > 100 * a['jobs'][0]['write']['clat_ns']['mean'])" "$out" "$out2"; then
	ok "sync=dsync pays for a flush per write (consumer-vwc)"
else
	not_ok "sync=dsync pays for a flush per write (consumer-vwc)"
fi

# O_DIRECT on ext4 through the device; numjobs is the queue depth.
"$wpsim" fio --name=o --rw=randwrite --bs=4k --size=64k --io_size=512k \
	--direct=1 --fs=ext4 --overwrite=1 --filename=f --numjobs=4 \
	--group_reporting --output-format=json >"$out" 2>>"$err"
if [ "$(json "$out" "j['jobs'][0]['write']['total_ios']")" = 512 ] &&
   [ "$(json "$out" "len(j['jobs'])")" = 1 ]; then
	ok "direct=1 --fs=ext4, 4 jobs, group_reporting: 512 writes, one result"
else
	not_ok "direct=1 --fs=ext4, 4 jobs, group_reporting: 512 writes"
fi

# A replayable run: its schedule replays to the same hash and output.
"$wpsim" fio --name=r --rw=randwrite --bs=4k --size=32k --io_size=64k \
	--fsync=2 --replayable --output-format=json >"$out2" 2>"$err"
sched=$(sed -n 's/^wpsim fio: schedule //p' "$err")
hash1=$(sed -n 's/.*event-log hash //p' "$err")
"$wpsim" fio --name=r --rw=randwrite --bs=4k --size=32k --io_size=64k \
	--fsync=2 --schedule "$sched" --output-format=json >"$out" 2>"$err"
hash2=$(sed -n 's/.*event-log hash //p' "$err")
if [ -n "$sched" ] && [ -n "$hash1" ] && [ "$hash1" = "$hash2" ] &&
   cmp -s "$out" "$out2"; then
	ok "a --replayable run replays by --schedule: same hash, same JSON"
else
	not_ok "replay: schedule '$sched' hash $hash1 vs $hash2"
fi

# Normal output: fio's layout.
expect "normal output has fio's job and Run status lines" 0 \
	"^Run status group 0 (all jobs):" -- \
	--name=w --rw=write --bs=4k --size=64k

# Strided zones and rw=write:N: the I/O count fio's offsets give.  Four
# jobs of 6000-byte records interleaved in one 96000-byte region each
# write 4 records (the region holds 16, each job every fourth); a job
# with rw=write:2048 and bs=14336 at +512 writes one record per 16 KiB.
expect "zonemode=strided runs: interleaved records, 4 per job" 0 \
	'"total_ios" : 16,' -- --fs=ext4 --output-format=json \
	--name=r --direct=1 --rw=write --bs=6144 --zonemode=strided \
	--zonesize=6144 --zoneskip=18432 --offset_increment=6144 \
	--size=98304 --io_size=24576 --numjobs=4 --filename=z \
	--group_reporting
expect "rw=write:2048 skips to the next 16 KiB stripe's +512" 0 \
	'"total_ios" : 4,' -- --fs=ext4 --output-format=json \
	--name=s --direct=1 --rw=write:2048 --bs=14336 --offset=512 \
	--size=65536 --filename=s
expect "zonemode=strided with random I/O is an error" 2 \
	"sequential only" -- --name=r --rw=randwrite --zonemode=strided \
	--zonesize=4k --size=64k
# stonewall: the second job starts when the first has ended.
"$wpsim" fio --output-format=json --name=a --rw=write --bs=4k --size=64k \
	--name=b --stonewall --rw=write --bs=4k --size=64k >"$out" 2>&1
if grep -q '"groupid" : 1,' "$out"; then
	ok "stonewall runs the next job after the ones before it"
else
	not_ok "stonewall: no second group"
fi

# uncached: seed 003's interleaved 6000-byte records, one round of 32
# jobs; before the series (v7.3) partially covered pages are read back,
# after it (v12) none.
reads() {
	REC=6000 SKIP=186000 SYNC=none SIZE=6000 IOSIZE=6000 THREADS=32 "$wpsim" fio \
		--cpus=32 --variant dontcache=$1 experiments/seed003.fio \
		--group-spans 2>&1 >/dev/null |
		sed -n 's/^wpsim fio: device page reads //p'
}
r73=$(reads v7_3)
r12=$(reads v12)
if [ -n "$r73" ] && [ "$r73" -gt 0 ] && [ "$r12" = 0 ]; then
	ok "uncached: v7.3 reads shared pages back ($r73), v12 none"
else
	not_ok "uncached reads: v7.3 '$r73', v12 '$r12'"
fi

# Issue 29: fio as people write it.  Each expectation was checked with
# fio 3.33 on this machine (the iolog offsets, the sync counts).
# rw=read:-8k: backwards, fio's wrap to the end of the region.
"$wpsim" fio --name=x --filename=f --rw=read:-8k --bs=4k --size=64k \
	--write_iolog="$scratch"/iolog-back >/dev/null 2>&1
got=$(awk 'NR>3 && $3 == "read" {print $4}' "$scratch"/iolog-back | tr '\n' ' ')
if [ "$got" = "0 57344 53248 49152 45056 40960 36864 32768 28672 24576 20480 16384 12288 8192 4096 0 " ]; then
	ok "rw=read:-8k: fio 3.33's backwards offsets"
else
	not_ok "rw=read:-8k offsets: $got"
fi
rm -f "$scratch"/iolog-back
expect "offset=0% is the start of the file" 0 "issued rwts: total=16,0" -- \
	--name=x --filename=f --rw=read --size=64k --offset=0%
expect "filename=/dev/... buffered runs on the device's page cache" 0 \
	"issued rwts: total=0,16,0,0" -- \
	--name=x --filename=/dev/sdb --rw=write --size=64k --dev-size=1g
expect "invalidate=0 on a laid-out file is a clear error" 2 \
	"invalidate=0 with a file fio lays out" -- --name=x --filename=f \
	--rw=read --size=64k --invalidate=0
# write_iolog with libaio logs every write.
"$wpsim" fio --name=x --filename=f --rw=write --bs=4k --size=16k \
	--ioengine=libaio --iodepth=4 --write_iolog="$scratch"/iolog-aio >/dev/null 2>&1
if [ "$(grep -c ' write ' "$scratch"/iolog-aio)" = 4 ]; then
	ok "write_iolog with libaio logs its 4 writes"
else
	not_ok "write_iolog with libaio: $(grep -c ' write ' "$scratch"/iolog-aio) writes"
fi
rm -f "$scratch"/iolog-aio
# randrepeat=0: another sequence, the same one for the same --seed.
for r in 0 1; do
	"$wpsim" fio --name=x --filename=f --rw=randwrite --size=64k \
		--randrepeat=$r --write_iolog="$scratch"/iolog-r$r >/dev/null 2>&1
done
"$wpsim" fio --name=x --filename=f --rw=randwrite --size=64k \
	--randrepeat=0 --write_iolog="$scratch"/iolog-r2 >/dev/null 2>&1
if ! cmp -s "$scratch"/iolog-r0 "$scratch"/iolog-r1 && cmp -s "$scratch"/iolog-r0 "$scratch"/iolog-r2; then
	ok "randrepeat=0: a fresh sequence, reproducible from --seed"
else
	not_ok "randrepeat=0"
fi
rm -f "$scratch"/iolog-r0 "$scratch"/iolog-r1 "$scratch"/iolog-r2
# loops=2: close, open, the same random sequence again, fsync=3
# counting on (fio 3.33: 8 writes, 2 syncs).
"$wpsim" fio --name=x --filename=f --rw=randwrite --bs=4k --size=16k \
	--loops=2 --fsync=3 --output-format=json >"$out" 2>"$out.err"
if [ "$(json "$out" "(j['jobs'][0]['write']['total_ios'], j['jobs'][0]['sync']['total_ios'])")" = "(8, 2)" ]; then
	ok "loops=2 with fsync=3: 8 writes, 2 syncs, as fio 3.33"
else
	not_ok "loops=2 with fsync=3"
fi
# name= and filesize in a job file; a later job takes its size from the
# file the first one made.
cat >"$scratch"/jobs-29.fio <<'EOF2'
[w]
name=writer
filename=f29
filesize=64k
rw=write
[r]
stonewall
filename=f29
rw=read
EOF2
"$wpsim" fio --output-format=json "$scratch"/jobs-29.fio >"$out" 2>"$out.err"
if [ "$(json "$out" "(j['jobs'][0]['jobname'], j['jobs'][0]['write']['io_bytes'], j['jobs'][1]['read']['io_bytes'])")" = "('writer', 65536, 65536)" ]; then
	ok "name= renames the job; filesize; size from an earlier job's file"
else
	not_ok "name=, filesize, size from a file"
fi
rm -f "$scratch"/jobs-29.fio
# The engines: each through its row of syscalls.
for e in null pvsync vsync posixaio sync; do
	"$wpsim" fio --name=x --filename=f --rw=randrw --size=64k \
		--ioengine=$e --output-format=json >"$out" 2>"$out.err"
	if [ "$(json "$out" "j['jobs'][0]['read']['total_ios'] + j['jobs'][0]['write']['total_ios']")" = 16 ]; then
		ok "ioengine=$e runs a randrw job"
	else
		not_ok "ioengine=$e"
	fi
done
expect "ioengine=mmap is a clear error" 2 "ioengine=mmap is not modelled" -- \
	--name=x --filename=f --rw=write --size=64k --ioengine=mmap
# verify=crc32c: every block read back and checked, counted as reads.
"$wpsim" fio --name=x --filename=f --rw=randwrite --bs=4k --size=32k \
	--verify=crc32c --output-format=json >"$out" 2>"$out.err"
if [ "$(json "$out" "(j['jobs'][0]['error'], j['jobs'][0]['read']['total_ios'], j['jobs'][0]['write']['total_ios'])")" = "(0, 8, 8)" ]; then
	ok "verify=crc32c: 8 writes read back and verified"
else
	not_ok "verify=crc32c"
fi

# Statistics logs in fio 3.33's format (checked against fio 3.33's own
# files, traces/real-kernel/fio-corpus-compare-*): names
# name_{bw,lat,slat,clat,iops}.N.log, "time, value, ddir, bs, offset,
# prio" lines, an entry per I/O without log_avg_msec, an empty slat log
# for a sync engine, and the per-I/O bw samples in the JSON.
( cd "$scratch" && rm -f ./*.log && cat >logs.fio <<'JOB'
[jj]
rw=write
bs=4k
size=64k
filename=ff
write_bw_log
write_lat_log=foo
write_iops_log
log_offset=1
JOB
"$wpsim" fio logs.fio --output-format=json >"$out" 2>"$out.err" &&
ls *.log | tr '\n' ' ' && wc -l <foo_slat.1.log && wc -l <jj_bw.1.log &&
sed -n 2p foo_clat.1.log | sed 's/^[0-9]*, [0-9]*,/T, V,/' &&
sed -n 3p jj_iops.1.log | sed 's/^[0-9]*,/T,/' ) >"$out2" 2>&1
want="foo_clat.1.log foo_lat.1.log foo_slat.1.log jj_bw.1.log jj_iops.1.log 0
16
T, V, 1, 4096, 4096, 0
T, 1, 1, 4096, 8192, 0"
if [ "$(cat "$out2")" = "$want" ] &&
   [ "$(json "$out" "(j['jobs'][0]['write']['bw_samples'], j['jobs'][0]['write']['iops_min'])")" = "(16, 1)" ]; then
	ok "write_bw_log, write_lat_log, write_iops_log, log_offset: fio's files"
else
	not_ok "statistics logs: $(cat "$out2")"
fi
( cd "$scratch" && rm -f ./*.log && cat >logs2.fio <<'JOB'
[jj]
rw=write
bs=4k
size=64k
filename=ff
numjobs=2
write_lat_log=x
per_job_logs=0
log_avg_msec=1000
JOB
"$wpsim" fio logs2.fio >/dev/null 2>&1 && ls *.log | tr '\n' ' ' &&
wc -l <x_lat.log && cut -d, -f3- x_lat.log | sort -u ) >"$out2" 2>&1
want="x_clat.log x_lat.log x_slat.log 2
 1, 0, 0"
if [ "$(cat "$out2")" = "$want" ]; then
	ok "per_job_logs=0: one file, appended; log_avg_msec: a window entry, bs 0"
else
	not_ok "per_job_logs=0: $(cat "$out2")"
fi

# Issue 29, third part: each expectation checked with fio 3.33 on this
# machine (2026-12-05).  verify_backlog=2: two writes, their two reads
# (check_get_verify), and the last two reads in the verify phase after
# the files are closed and opened again.
( cd "$scratch" && "$wpsim" fio --name=v --filename=vf --rw=write --bs=4k \
	--size=16k --verify=crc32c --verify_backlog=2 \
	--write_iolog=vb.log >/dev/null 2>&1 &&
  awk 'NR>1 {print $3, $4}' vb.log | tr '\n' ' ' ) >"$out2" 2>&1
want="add  open  write 0 write 4096 read 0 read 4096 write 8192 write 12288 close  open  read 8192 read 12288 close  "
if [ "$(cat "$out2")" = "$want" ]; then
	ok "verify_backlog=2: fio 3.33's reads between the writes and after"
else
	not_ok "verify_backlog=2: $(cat "$out2")"
fi
# bsrange, sequential: sizes from 1k to 4k until the file's io_size
# (20000 rounded down to min_bs: 19456 bytes, fio's end).
"$wpsim" fio --output-format=json --name=b --ioengine=null --rw=read \
	--bsrange=1k-4k --size=20000 >"$out" 2>"$err"
got=$(json "$out" "j['jobs'][0]['read']['io_bytes']")
# A random job ends when its random map is full (fio's
# get_next_rand_block): 19 blocks of 1k, not a 20th.
"$wpsim" fio --output-format=json --name=b --ioengine=null \
	--rw=randread --bs=1k --size=20000 >"$out2" 2>"$err"
got2=$(json "$out2" "j['jobs'][0]['read']['total_ios']")
if [ "$got" = 19456 ] && [ "$got2" = 19 ]; then
	ok "bsrange ends at fio's io_size; a full random map ends the job"
else
	not_ok "bsrange/random map: $got bytes, $got2 I/Os"
fi
# bssplit=4k/50:64k/50,16k: reads split, writes all 16k (fio's
# str_split_parse); description= is fio's "desc".
"$wpsim" fio --output-format=json --name=s --ioengine=null --rw=write \
	--bssplit=4k/50:64k/50,16k --size=1m --description="a b" \
	>"$out" 2>"$err"
if [ "$(json "$out" "(j['jobs'][0]['write']['total_ios'], j['jobs'][0]['desc'])")" = "(64, 'a b')" ]; then
	ok "bssplit per direction; description is fio's desc"
else
	not_ok "bssplit/description: $(head -c 300 "$out")"
fi
expect "io_submit_mode=offload: ioengine=null, or a rate" 2 \
	"io_submit_mode=offload is modelled for ioengine=null, and for libaio and io_uring with rate" -- \
	--name=x --filename=f --rw=write --size=64k --io_submit_mode=offload
expect "verify_dump with a verify read phase that passes: no dump" 0 \
	"err= 0" -- --name=x --filename=f \
	--rw=write --size=64k --verify=md5 --verify_dump=1

# gtod_reduce=1: the I/Os counted, no latency sample (JSON keys as fio
# 3.33's for the same null job).
"$wpsim" fio --output-format=json --name=g --ioengine=null --rw=randread \
	--size=1m --gtod_reduce=1 >"$out" 2>"$err"
if [ "$(json "$out" "(j['jobs'][0]['read']['total_ios'], j['jobs'][0]['read']['clat_ns']['N'], 'percentile' in j['jobs'][0]['read']['clat_ns'])")" = "(256, 0, False)" ]; then
	ok "gtod_reduce=1: counts, no latency samples"
else
	not_ok "gtod_reduce: $(head -c 300 "$out")"
fi

tap_end
