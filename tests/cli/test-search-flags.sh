#!/bin/sh
# tests/cli/test-search-flags.sh WPSIM [SRC] - wpsim check's search options
# (issue 5): --strategy dpor with --preemptions, --iterative, --shrink,
# --estimate, --compare-dfs, --wakeup-trees, --lock-aware, and their usage
# errors (TAP).
wpsim="$1"
here=$(cd "$(dirname "$0")" && pwd)
src=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
cd "$src" || exit 1

. "$here/tap.sh"

expect "independent-4: one dpor execution, complete" 0 \
	'"complete":true,"executions":1,' -- \
	check scenarios/engine/independent-4.litmus --strategy dpor \
	--format json
expect "dpor takes a preemption bound (then Never is not decided: exit 3)" 3 \
	'complete up to 1 preemptions' -- \
	check scenarios/mm/write-vs-flusher.litmus --strategy dpor \
	--preemptions 1
expect "iterative finds the lost update at bound 1, not 0" 1 \
	'iterative: bound 1: 2 executions, 1 failing' -- \
	check engine/racy-counter --iterative
expect "iterative on a scenario without a witness ends unbounded" 0 \
	'Iterative: bounds 0..2 found no witness; then unbounded' -- \
	check scenarios/mm/write-vs-flusher.litmus --iterative
expect "iterative stops at the simplest witness" 0 \
	'Iterative: stopped at bound 0 (the simplest witness' -- \
	check scenarios/mm/truncate-vs-writeback.litmus \
	--variant break=truncate_no_wait --iterative
expect "shrink reports on the witness" 0 \
	'Shrunk:' -- \
	check scenarios/mm/truncate-vs-writeback.litmus \
	--variant break=truncate_no_wait --shrink
expect "shrink turns a 3-preemption lost update into a 1-preemption one" 1 \
	'Shrunk: 1 preemptions' -- \
	run engine/racy-counter --schedule 0.1.1.0.1 --shrink
expect "estimate prints Knuth's estimate" 0 \
	'Estimate: ~' -- \
	check scenarios/mm/fsync-eio-once.litmus --estimate 50
expect "compare-dfs prints the ratio (bounded: not decided, exit 3)" 3 \
	'Compare: dfs [0-9]* executions' -- \
	check scenarios/mm/truncate-vs-writeback.litmus --preemptions 1 \
	--compare-dfs
expect "an expected Sometimes stops once decided" 0 \
	'stopped: Sometimes is decided' -- \
	check scenarios/mm/truncate-vs-writeback.litmus \
	--variant break=truncate_no_wait
expect "--exhaustive explores the rest" 0 \
	'executions (+[0-9]* redundant), exhaustive' -- \
	check scenarios/mm/truncate-vs-writeback.litmus \
	--variant break=truncate_no_wait --exhaustive
expect "--estimate 0 is a usage error" 2 \
	'--estimate: expected 1..10000000 probes' -- \
	check scenarios/mm/write-vs-flusher.litmus --estimate 0
expect "--iterative with random is a usage error" 2 \
	'--iterative deepens DPOR' -- \
	check scenarios/mm/write-vs-flusher.litmus --iterative \
	--strategy random

# --wakeup-trees (optimal DPOR): the same observation and final states as
# source-DPOR, and fewer redundant executions (write-write-sync: 378
# with source sets, 25 with wakeup trees; docs/performance.md).
src_run=$(mktemp)
opt_run=$(mktemp)
"$wpsim" check scenarios/mm/write-write-sync.litmus --exhaustive \
	--format json >"$src_run" 2>/dev/null
"$wpsim" check scenarios/mm/write-write-sync.litmus --exhaustive \
	--wakeup-trees --format json >"$opt_run" 2>/dev/null
field() { sed -n "s/.*\"$1\":\([^,]*\),.*/\1/p" "$2"; }
states() { sed 's/.*"states":\[\(.*\)\],"witness".*/\1/; s/"count":[0-9]*,//g' "$1"; }
check "--wakeup-trees: the same observation as source-DPOR" \
	sh -c '[ -n "$1" ] && [ "$1" = "$2" ]' sh \
	"$(field observation "$src_run")" "$(field observation "$opt_run")"
check "--wakeup-trees: the same final states" \
	sh -c '[ -n "$1" ] && [ "$1" = "$2" ]' sh \
	"$(states "$src_run")" "$(states "$opt_run")"
check "--wakeup-trees: complete, fewer redundant executions" \
	sh -c '[ "$1" = true ] && [ "$2" -lt "$3" ]' sh \
	"$(field complete "$opt_run")" "$(field redundant "$opt_run")" \
	"$(field redundant "$src_run")"

# --lock-aware plain|off (the reduction's folio-lock and read sections
# left out, or all of it): the same observation and final states, more
# executions (write-write-sync: 495 + 127 redundant with it all, more
# without its folio-lock sections).
"$wpsim" check scenarios/mm/write-write-sync.litmus --exhaustive \
	--lock-aware plain --format json >"$opt_run" 2>/dev/null
check "--lock-aware plain: the same observation" \
	sh -c '[ -n "$1" ] && [ "$1" = "$2" ]' sh \
	"$(field observation "$src_run")" "$(field observation "$opt_run")"
check "--lock-aware plain: the same final states" \
	sh -c '[ -n "$1" ] && [ "$1" = "$2" ]' sh \
	"$(states "$src_run")" "$(states "$opt_run")"
check "--lock-aware plain: complete, more executions" \
	sh -c '[ "$1" = true ] && [ "$2" -gt "$3" ]' sh \
	"$(field complete "$opt_run")" "$(field executions "$opt_run")" \
	"$(field executions "$src_run")"
"$wpsim" check scenarios/mm/write-write-sync.litmus --exhaustive \
	--lock-aware off --format json >"$opt_run" 2>/dev/null
check "--lock-aware off: the same final states" \
	sh -c '[ -n "$1" ] && [ "$1" = "$2" ]' sh \
	"$(states "$src_run")" "$(states "$opt_run")"
rm -f "$src_run" "$opt_run"
expect "--lock-aware takes all, plain or off" 2 \
	'--lock-aware: expected all, plain or off' -- \
	check scenarios/mm/write-vs-flusher.litmus --lock-aware some

echo "1..$n"
[ "$fail" -eq 0 ]
