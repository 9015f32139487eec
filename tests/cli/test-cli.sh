#!/bin/sh
# tests/cli/test-cli.sh WPSIM [SRC] - the wpsim command as a user runs it
# (TAP).  Exit codes: 0 clean, 1 failure found, 2 bad usage or input.
# SRC is the source tree (default: two levels above this script); the
# scenario checks run from there, so paths read scenarios/...
wpsim="$1"
here=$(cd "$(dirname "$0")" && pwd)
src=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
out=$(mktemp)
tmp=$(mktemp -d)
trap 'rm -rf "$out" "$tmp"' EXIT
cd "$src" || exit 1

. "$here/tap.sh"

# Small scenarios for the error paths: every error names file:line:col.
printf '%s\n' 'wpsim good' '"a write and a flusher on a clean cached page"' \
	'{ file f: size=4K, cached=0; }' \
	'P0 { r0 = pwrite(f, 0, 4096); }' \
	'P1 { r0 = writeback(f, WB_SYNC_NONE); }' \
	'forall (f.folio[0].dirty)' 'expect: Always' >"$tmp/good.litmus"
printf '%s\n' 'wpsim bad' '"x"' '{ file f: size=4K }' \
	'P0 { r0 = pwrite(f, 0, 4096); }' >"$tmp/syntax.litmus"
printf '%s\n' 'wpsim bad' '"x"' '{ file f: size=4K; }' \
	'P0 { r0 = pwrite(g, 0, 4096); }' >"$tmp/badfile.litmus"
printf '%s\n' 'wpsim bad' '"x"' '{ file f: size=4K; }' \
	'P0 { r0 = pwrit(f, 0, 4096); }' >"$tmp/badop.litmus"
printf '%s\n' 'wpsim bad' '"x"' '{ file f: size=4K, open=O_RDWR|O_DIRECT; }' \
	'P0 { r0 = pwritev2(f, 0, 4096, RWF_DSYNC|RWF_BOGUS); }' \
	'exists (f.i_sz == 0)' >"$tmp/badflag.litmus"
printf '%s\n' 'wpsim bad' '"x"' '{ file f: size=4K; }' \
	'P0 { r0 = pread(f, 0, 4096, RWF_DSYNC); r1 = pread(f, 0, 4096, 4); }' \
	>"$tmp/badread.litmus"
printf '%s\n' 'wpsim bad' '"x"' '{ file f: size=4K; }' \
	'P0 { r0 = pread(f, 0, 4096); }' \
	'forall (f.block[0].unwritn)' >"$tmp/badblock.litmus"
printf '%s\n' 'wpsim bad' '"x"' \
	'{ file f: size=4K; fd g: file=h; fd f: file=f; }' \
	'P0 { r0 = open(f); r1 = fsync(k); }' >"$tmp/badfd.litmus"
printf '%s\n' 'wpsim xfsdio' '"an unaligned O_DIRECT write, then an O_DIRECT read"' \
	'{ file f: size=8K, layout=WW, open=O_RDWR|O_DIRECT; }' \
	'P0 { r0 = pwrite(f, 512, 4096); r1 = pread(f, 0, 8192); }' \
	'forall (0:r0 == 4096 /\ 0:r1 == 8192 /\ f.disk[0] == 1000 /\ f.disk[1] == 100 /\ f.disk[9] == 1000)' \
	'expect: Always' >"$tmp/xfsdio.litmus"

# ext4 O_DIRECT files.
printf '%s\n' 'wpsim bad' '"x"' \
	'{ file f: fs=ext4, size=8K, open=O_RDWR; file g: fs=ext3; }' \
	'P0 { r0 = fsync(f); r1 = pwrite(f, 100, 512); }' \
	'P1 { r0 = pwritev2(f, 0, 512, RWF_DONTCACHE); }' \
	'exists (P2.shared \/ P0.sharde)' >"$tmp/ext4bad.litmus"
# Readahead settings: a bad advice and read_ahead_kb out of range.
printf '%s\n' 'wpsim rabad' '"x"' \
	'{ device: read_ahead_kb=70000; file f: size=8K, advice=SEQUENTIAL; }' \
	'P0 { r0 = pread(f, 0, 4096, RWF_NOWAIT); }' \
	'exists (0:r0 == 4096)' >"$tmp/rabad.litmus"
# large_folios: XFS only; on XFS a write's folio is as large as it asks.
printf '%s\n' 'wpsim lfbad' '"x"' \
	'{ file f: fs=ext4, size=8K, open=O_DIRECT|O_RDWR, large_folios=1; }' \
	'P0 { r0 = pwrite(f, 0, 4096); }' \
	'exists (0:r0 == 4096)' >"$tmp/lfbad.litmus"
printf '%s\n' 'wpsim lf' '"an 8 KiB write makes one 8 KiB folio"' \
	'{ file f: size=0, open=O_RDWR, large_folios=1; file g: size=0, open=O_RDWR; }' \
	'P0 { r0 = pwrite(f, 8192, 8192); r1 = pwrite(g, 8192, 8192); }' \
	'forall (f.folio[2].pages == 2 /\ f.folio[3].pages == 2 /\ g.folio[2].pages == 1 /\ f.nrpages == 2)' \
	>"$tmp/lf.litmus"
printf '%s\n' 'wpsim ext4-one' '"one aligned overwrite of a written block"' \
	'{ file f: fs=ext4, size=8K, layout=WW, open=O_DIRECT|O_RDWR, nosec=1; }' \
	'P0 { r0 = pwritev2(f, 0, 4096, RWF_NOWAIT); }' \
	'forall (0:r0 == 4096 /\ P0.shared /\ P0.dio_writes == 1 /\ f.disk[0] == 100)' \
	'expect: Always' >"$tmp/ext4one.litmus"
# A table row the model answers differently, and a malformed one.
printf '%s\n' '# wrong on purpose' 'WWWW 0 8192 -EAGAIN' >"$tmp/differ.txt"
printf '%s\n' '# layout offset length result' 'WUWW 0 8192 -EAGAIN' \
	'WUXW 0 8192 -EAGAIN' >"$tmp/badrow.txt"
printf '%s\n' 'WWWW 0 4096 -EWHAT' >"$tmp/badres.txt"

echo "TAP version 13"
expect "list programs" 0 "engine/racy-counter" -- list
expect "racy counter found by random" 1 "replay:      wpsim run engine/racy-counter --schedule" -- \
	check engine/racy-counter --strategy random --seed 1 --executions 100
expect "locked counter exhaustive" 0 "exhaustive" -- check engine/locked-counter
expect "lock inversion deadlock" 1 "FAIL deadlock" -- check engine/lock-inversion
expect "livelock stuck" 1 "FAIL stuck" -- check engine/livelock --steps 50
expect "replay of a witness fails again" 1 "lost update" -- \
	run engine/racy-counter --schedule 0.1.1.0 --explain
expect "determinism self-check" 1 "replay reproduced the event-log hash" -- \
	check engine/racy-counter --strategy pct --seed 2 --verify-determinism
expect "unknown program lists known ones" 2 "engine/locked-counter" -- check no/such
expect "bad option value" 2 "expected a non-negative integer, found 'x'" -- \
	check engine/racy-counter --seed x
expect "bad schedule names the column" 2 "bad schedule at column 3" -- \
	run engine/racy-counter --schedule '0.?'
expect "unknown strategy" 2 "expected dfs, dpor, random, pct or timed" -- \
	check engine/racy-counter --strategy bfs

# Timed mode (docs/timed-mode.md): one schedule in virtual time.
expect "timed strategy runs one schedule: found nothing, not decided" 3 \
	"engine/primitives: timed, 1 executions, 0 failing, seed 3, the last ends at" -- \
	check engine/primitives --strategy timed --seed 3
expect "a timed witness replays with its --cpus" 1 \
	"replay:      wpsim run engine/racy-counter --cpus 2 --schedule [0-9a-f]*:0.0.1.1.0" -- \
	check engine/racy-counter --strategy timed --seed 1 --cpus 2
expect "run --explain shows virtual time" 1 "virtual time: ends at" -- \
	run engine/racy-counter --cpus 2 --schedule 0.0.1.1.0 --explain
check "run --explain prints each event's time and CPU" \
	grep -q "^      4         0.002    0  P0         write     counter = 1" "$out"
expect "--cpus out of range" 2 "--cpus: expected 1..256, found '0'" -- \
	check engine/racy-counter --strategy timed --cpus 0

# Scenarios: listing.
expect "list ops has every op with its help" 0 \
	"^mmap_store .*shared mapping" -- list ops
expect "list variants names the default" 0 \
	"dontcache=v6_18 .*(default)" -- list variants
expect "list invariants" 0 "NR_FILE_DIRTY == WB_RECLAIMABLE" -- \
	list invariants
expect "list scenarios" 0 "scenarios/mm/write-vs-flusher.litmus" -- \
	list scenarios
expect "list devices names each profile" 0 \
	"^enterprise-plp .*PM173x-class" -- list devices

# Scenarios: check.
expect "scenario check prints the Observation" 0 \
	"^Observation unmap-vs-writeback Never 0 " -- \
	check scenarios/mm/unmap-vs-writeback.litmus
expect "scenario check runs each variant of the expect lines" 0 \
	"variant break=clear_dirty_no_mkclean" -- \
	check scenarios/mm/unmap-vs-writeback.litmus
expect "a missed expectation exits 1" 1 "^Expected Always: NOT OK" -- \
	check "$tmp/good.litmus"
expect "the missed expectation shows a counterexample to replay" 1 \
	"replay:   wpsim run .*good.litmus --schedule" -- \
	check "$tmp/good.litmus"
expect "syntax error: file:line:col: expected X, found Y" 2 \
	"syntax.litmus:3:19: error: expected ',' or ';', found '}'" -- \
	check "$tmp/syntax.litmus"
expect "unknown file in an op" 2 \
	"badfile.litmus:4:18: error: unknown file 'g'; known: f" -- \
	check "$tmp/badfile.litmus"
expect "unknown op lists the known ones" 2 \
	"badop.litmus:4:11: error: unknown op 'pwrit' (did you mean 'pwrite'?); known: pwrite, pwritev2" -- \
	check "$tmp/badop.litmus"
expect "unknown flag lists the known ones" 2 \
	"badflag.litmus:4:32: error: unknown RWF_ flag 'RWF_BOGUS'; known:" -- \
	check "$tmp/badflag.litmus"
expect "pread takes RWF_NOWAIT and RWF_DONTCACHE only" 2 \
	"badread.litmus:4:29: error: unknown pread RWF_ flag 'RWF_DSYNC'; known: RWF_NOWAIT, RWF_DONTCACHE" -- \
	check "$tmp/badread.litmus"
check "a read flag the model lacks is an error, not ignored" grep -q \
	"badread.litmus:4:64: error: expected pread flags RWF_NOWAIT, RWF_DONTCACHE or 0 (the read path models IOCB_NOWAIT and IOCB_DONTCACHE only), found 4" "$out"
expect "a block's extent state names the states" 2 \
	"badblock.litmus:5:9: error: unknown reference 'f.block\[0\].unwritn': expected f.block\[B\].hole, .unwritten, .written or .delalloc" -- \
	check "$tmp/badblock.litmus"
expect "an unaligned O_DIRECT write and an O_DIRECT read on xfs run" 0 \
	"^Expected Always: ok" -- \
	check "$tmp/xfsdio.litmus"
expect "unknown path names the fields" 2 \
	"badflag.litmus:5:9: error: unknown reference 'f.i_sz'" -- \
	check "$tmp/badflag.litmus"
expect "an fd of an unknown file names the files" 2 \
	"badfd.litmus:3:31: error: unknown file 'h'; known: f" -- \
	check "$tmp/badfd.litmus"
check "an fd may not take a file's name" grep -q \
	"badfd.litmus:3:34: error: expected a new name .* found 'f'" "$out"
check "open() takes an fd item, not a file" grep -q \
	"badfd.litmus:4:16: error: expected an fd item for open" "$out"
expect "fsync through two descriptions: each reports the error" 0 \
	"^Observation fsync-eio-per-description Always [0-9]* 0" -- \
	check scenarios/mm/fsync-eio-per-description.litmus
expect "missing scenario file" 2 "nope.litmus:1:1: error: cannot open" -- \
	check "$tmp/nope.litmus"
expect "unknown variant value lists the known ones" 2 \
	"wpsim: --variant: expected one of v6_18, v7_3, v11, v12 for dontcache, found 'v13'" -- \
	check scenarios/mm/fsync-eio-once.litmus --variant dontcache=v13
expect "unknown variant key lists the known ones" 2 \
	"expected one of dontcache, break, ext4_dio, writethrough, rwsem, uring, sync_tag as the variant key, found 'dontcach'" -- \
	check scenarios/mm/fsync-eio-once.litmus --variant dontcach=v11
expect "list variants shows the command-line spellings" 0 \
	"ext4_dio=unsafe-shared  *same as ext4_dio=unsafe_shared" -- list variants
check "list variants: dontcache=6.18 is v6_18" \
	grep -q "dontcache=6.18  *same as dontcache=v6_18" "$out"
expect "--variant takes the issue's spelling (unsafe-shared)" 0 \
	"variant .*ext4_dio=unsafe_shared" -- \
	check scenarios/ext4/unaligned-zeroing-race.litmus \
	--variant ext4_dio=unsafe-shared
check "unsafe_shared: zeroing destroys a completed write (Sometimes)" \
	grep -q "^Observation unaligned-zeroing-race Sometimes" "$out"

expect "read_ahead_kb out of range is refused at the value" 2 \
	"rabad.litmus:3:25: error: expected read_ahead_kb in 0..65536, found '70000'" -- \
	check "$tmp/rabad.litmus"
check "advice names its two values" \
	grep -q "rabad.litmus:3:56: error: expected advice NORMAL or RANDOM, found 'SEQUENTIAL'" "$out"

expect "large_folios is refused on an ext4 file, at its value" 2 \
	"lfbad.litmus:3:64: error: expected large_folios only on an XFS file" -- \
	check "$tmp/lfbad.litmus"
expect "large_folios=1: an 8 KiB write is one folio of two pages (order 0 without)" 0 \
	"every expectation holds" -- check "$tmp/lf.litmus"

# ext4 O_DIRECT scenarios: errors at their positions, the decision paths.
expect "buffered I/O on ext4 is refused" 2 \
	"ext4bad.litmus:3:34: error: expected open=O_DIRECT|... for an ext4 file" -- \
	check "$tmp/ext4bad.litmus"
check "an unknown fs names the known ones" \
	grep -q "ext4bad.litmus:3:53: error: expected fs xfs or ext4, found 'ext3'" "$out"
check "an op the ext4 model lacks is refused at the op" \
	grep -q "ext4bad.litmus:4:11: error: expected pwrite, pwritev2, aio_pwrite, truncate or pread on ext4 file 'f'" "$out"
check "an O_DIRECT offset must be a multiple of 512" \
	grep -q "ext4bad.litmus:4:36: error: expected an O_DIRECT offset that is a multiple of 512, found 100" "$out"
check "RWF_DONTCACHE is not an O_DIRECT ext4 flag" \
	grep -q "ext4bad.litmus:5:31: error: unknown O_DIRECT ext4 RWF_ flag 'RWF_DONTCACHE'" "$out"
check "a thread path must name a thread" \
	grep -q "ext4bad.litmus:6:9: error: expected a thread P0..P1, found 'P2'" "$out"
check "a thread path names its fields" \
	grep -q "ext4bad.litmus:6:22: error: unknown reference 'P0.sharde'" "$out"
expect "an O_DIRECT ext4 write runs m_ext4_pwritev2_direct: shared, on disk" 0 \
	"Observation ext4-one Always [0-9]* 0" -- check "$tmp/ext4one.litmus"
expect "run prints the DIO decision" 0 \
	"ext4 DIO: P0's last O_DIRECT write: I/O under i_rwsem shared" -- \
	run "$tmp/ext4one.litmus" --schedule -
expect "run prints the io_uring cost per request" 0 \
	"io_uring: P0 r0 = io_uring_write(f, 0, 4608, 0): inline attempts 1, worker attempts 1, punted yes, hand-offs 2" -- \
	run scenarios/io_uring/nowait-vs-writer.litmus --schedule -

# wpsim ext4-nowait: the RWF_NOWAIT answer per variant, and the real
# kernel's table (tools/ext4-dio-nowait-probe) row by row under base.
table=traces/real-kernel/ext4-dio-nowait-6.18.txt
rows=$(grep -v '^#' "$table" | grep -c .)
check "the real-kernel table has 13 rows" test "$rows" -eq 13
grep -v '^#' "$table" | grep . >"$tmp/rows"
while read -r layout off len result; do
	expect "ext4-nowait base agrees with Linux 6.18: $layout $off+$len -> $result" \
		0 "^base  *$result " -- \
		ext4-nowait "$layout" "$off" "$len" --variant ext4_dio=base
done <"$tmp/rows"
expect "ext4-nowait --check: 13 of 13 rows agree" 0 \
	"13 of 13 rows agree" -- ext4-nowait --check "$table"
expect "ext4-nowait: seed 002 test 1 shares under patch1 and patch2" 0 \
	"^patch2  *8192  *shared " -- ext4-nowait WUWW 0 8192
check "ext4-nowait: base takes it exclusive (restart)" \
	grep -q "^base  *-EAGAIN  *exclusive  *no  *no  *1 " "$out"
expect "ext4-nowait: seed 002 test 2: patch2 shared, base exclusive + inode_dio_wait" 0 \
	"^patch2  *14336  *shared" -- ext4-nowait WUUW 512 14336
check "ext4-nowait: seed 002 test 2 under base" \
	grep -q "^base  *-EAGAIN  *exclusive  *yes  *yes" "$out"
expect "ext4-nowait --check exits 1 on a row the model answers differently" 1 \
	"WWWW  *0  *8192  -EAGAIN  8192  *DIFFER" -- \
	ext4-nowait --check "$tmp/differ.txt"
expect "ext4-nowait --check: a bad row is file:line:col" 2 \
	"badrow.txt:3:3: error: expected a block state H, U or W, found 'X'" -- \
	ext4-nowait --check "$tmp/badrow.txt"
expect "ext4-nowait --check: a bad result is file:line:col" 2 \
	"badres.txt:1:13: error: expected a result (a byte count or -ERRNO such as -EAGAIN), found '-EWHAT'" -- \
	ext4-nowait --check "$tmp/badres.txt"
expect "ext4-nowait: a bad layout argument names argument and column" 2 \
	"ext4-nowait:1:3: error: expected a block state H, U or W, found 'Z'" -- \
	ext4-nowait WWZ 0 4096
expect "ext4-nowait: an unaligned offset is refused" 2 \
	"ext4-nowait:2:1: error: expected OFFSET a multiple of 512" -- \
	ext4-nowait WWWW 100 4096
expect "ext4-nowait: missing arguments" 2 \
	"error: expected LAYOUT OFFSET LENGTH, found 2 of them" -- \
	ext4-nowait WWWW 0
expect "ext4-nowait: only the ext4_dio variant key" 2 \
	"ext4-nowait:5:1: error: expected ext4_dio=base|patch1|patch2|unsafe_shared, found 'dontcache=v11'" -- \
	ext4-nowait WWWW 0 4096 --variant dontcache=v11

# Scenarios: output formats.
expect "tap: one result line per scenario x variant" 0 \
	"^ok 2 truncate-vs-writeback break=truncate_no_wait" -- \
	check --format tap scenarios/mm/truncate-vs-writeback.litmus
check "tap's first line is the version line meson reads" \
	test "$(head -n 1 "$out")" = "TAP version 14"
expect "json: independent-4 is one complete execution under dpor" 0 \
	'"complete":true,"executions":1,' -- \
	check --strategy dpor --format json scenarios/engine/independent-4.litmus
check "json has the documented fields" python3 -c '
import json, sys
o = json.loads(open(sys.argv[1]).read())
need = ["name", "variant", "strategy", "complete", "executions",
        "observation", "positive", "negative", "expected", "ok", "witness"]
sys.exit(0 if all(k in o for k in need) and o["ok"] else 1)' "$out"
expect "json: the witness has a schedule and a replay command" 0 \
	'"witness":{"schedule":"[0-9a-f]*:[-0-9.*]*","replay":"wpsim run' -- \
	check --format json scenarios/mm/truncate-vs-writeback.litmus \
	--variant break=truncate_no_wait
# The witness replays to the same final state and event-log hash.
sched=$(sed -n 's/.*"witness":{"schedule":"\([^"]*\)".*/\1/p' "$out")
hash=$(sed -n 's/.*"hash":"\([0-9a-f]*\)".*/\1/p' "$out")
state=$(sed -n 's/.*"witness":{[^}]*"state":"\([^"]*\)".*/\1/p' "$out")
expect "run replays the witness: same event-log hash" 1 \
	"event-log hash $hash" -- \
	run scenarios/mm/truncate-vs-writeback.litmus \
	--variant break=truncate_no_wait --schedule "$sched"
check "run replays the witness: same final state" \
	grep -q -F "Final state: $state" "$out"

# Scenarios: run.
expect "run --explain tells the steps in kernel terms" 0 \
	"folio1.flags:PG_dirty" -- \
	run "$tmp/good.litmus" --schedule - --explain
check "run --explain marks the kernel calls" \
	grep -q -e "---- P0 calls r0 = pwrite(f, 0, 4096)" "$out"
check "run --explain shows state changes after a step" \
	grep -q "| f page 0 folio 1: flags +dirty" "$out"
expect "run --perfetto writes a trace" 0 "Perfetto trace:" -- \
	run "$tmp/good.litmus" --schedule 1.0 --perfetto "$tmp/t.json"
check "the perfetto trace is JSON with call slices and counters" \
	python3 -c '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
ok = any(e["ph"] == "C" for e in ev) and any(e["ph"] == "X" and
     e.get("cat") == "kernel call" for e in ev)
sys.exit(0 if ok else 1)' "$tmp/t.json"

# Scenarios: several at once.
"$wpsim" check --jobs 1 scenarios/mm/unmap-vs-writeback.litmus \
	scenarios/mm/fault-vs-clear-dirty-for-io.litmus >"$tmp/j1" 2>&1
asan_quiet "$tmp/j1"
expect "--jobs 2 runs scenario x variant pairs in parallel" 0 \
	"4 of 4 scenario x variant" -- \
	check --jobs 2 scenarios/mm/unmap-vs-writeback.litmus \
	scenarios/mm/fault-vs-clear-dirty-for-io.litmus
check "--jobs 2 prints what --jobs 1 prints" cmp -s "$out" "$tmp/j1"
expect "a directory stands for the scenarios under it" 0 \
	"Test independent-4" -- check scenarios/engine
# Files beyond 64 pages: --max-pages raises the bound; without it the
# error names the option.
printf '%s\n' 'wpsim big' '"a write past 64 pages and a flusher"' \
	'{ file f: size=1M, cached=254-255; }' \
	'P0 { r0 = pwrite(f, 1044480, 4096); }' \
	'P1 { r0 = writeback(f, WB_SYNC_NONE); }' \
	'forall (f.folio[255].dirty \/ ~f.folio[255].dirty)' \
	'expect: Always' >"$tmp/big.litmus"
expect "a file past 64 pages names --max-pages" 2 \
	"raise --max-pages" -- check "$tmp/big.litmus"
expect "--max-pages 256 holds it" 0 "Observation big Always" -- \
	check "$tmp/big.litmus" --max-pages 256
expect "--max-pages past what an exploration holds says so" 2 \
	"lower --max-pages" -- check "$tmp/big.litmus" --max-pages 4096
expect "--max-pages out of range" 2 "--max-pages: expected 1..268435456" -- \
	check "$tmp/big.litmus" --max-pages 0
echo "1..$n"
[ "$fail" -eq 0 ]
