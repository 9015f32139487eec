#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/fuzz.sh BUILD SECONDS [TARGET...] - run the libFuzzer targets of
# tests/fuzz (built in BUILD with -Dfuzz=true: `make fuzz`) for SECONDS
# each (FUZZ_JOBS at a time, default the CPUs online), every target
# when none is named, and print per target one line
#   fuzz NAME: N executions in S s (R/s), C crashes, corpus K inputs
# then the totals.  Exit 1 if any target crashed (or found a leak, a
# timeout, an out-of-memory), else 0.
#
# Each target starts from a working corpus BUILD/fuzz/NAME/corpus seeded
# from tests/fuzz/NAME/corpus/ and the directories listed in
# tests/fuzz/NAME/seed-dirs; the seed directories are never written to.
# tests/fuzz/NAME/dict, if present, is the libFuzzer dictionary.  A crash
# leaves its input in BUILD/fuzz/NAME/artifacts/ and the log in
# BUILD/fuzz/NAME/log; replay it with
#   BUILD/tests/fuzz/fuzz-NAME BUILD/fuzz/NAME/artifacts/crash-...
set -eu

[ $# -ge 2 ] || { echo "usage: tools/fuzz.sh BUILD SECONDS [TARGET...]" >&2
	exit 2; }
build=$1
seconds=$2
shift 2
case "$seconds" in
''|*[!0-9]*) echo "tools/fuzz.sh: SECONDS: expected a number, found" \
	"'$seconds'" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
targets=$*
if [ -z "$targets" ]; then
	for exe in "$build"/tests/fuzz/fuzz-*; do
		[ -f "$exe" ] && [ -x "$exe" ] || continue
		targets="$targets ${exe##*/fuzz-}"
	done
fi
[ -n "$targets" ] || { echo "tools/fuzz.sh: no fuzz targets in" \
	"$build/tests/fuzz (configure with -Dfuzz=true: make fuzz)" >&2
	exit 2; }

# One target: its run, then its line (and the crash's first report
# lines) in $work/summary, and "RUNS CRASHES" in $work/counts.
run_one() {
	name=$1
	exe=$build/tests/fuzz/fuzz-$name
	seeds=$root/tests/fuzz/$name
	work=$build/fuzz/$name
	mkdir -p "$work/corpus" "$work/artifacts"
	dirs="$seeds/corpus"
	if [ -f "$seeds/seed-dirs" ]; then
		while read -r d; do
			[ -n "$d" ] && dirs="$dirs $root/$d"
		done <"$seeds/seed-dirs"
	fi
	# shellcheck disable=SC2086 # the directories are words
	find $dirs -type f | while read -r f; do
		cp "$f" "$work/corpus/seed-$(printf '%s' "${f#"$root"/}" |
			tr '/' '_')"
	done
	before=$(find "$work/artifacts" -type f | wc -l)
	dict=
	[ -f "$seeds/dict" ] && dict=-dict=$seeds/dict
	rc=0
	# shellcheck disable=SC2086 # $dict is empty or one word
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:handle_segv=1} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1} \
	"$exe" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 $dict \
		-artifact_prefix="$work/artifacts/" "$work/corpus" \
		>"$work/log" 2>&1 || rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" |
		tail -n 1)
	secs=$(sed -n 's/^stat::slowest_unit_time_sec.*//; s/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' \
		"$work/log" | tail -n 1)
	runs=${runs:-0}
	secs=${secs:-$seconds}
	after=$(find "$work/artifacts" -type f | wc -l)
	crashes=$((after - before))
	[ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ] && crashes=1
	inputs=$(find "$work/corpus" -type f | wc -l)
	rate=0
	[ "$secs" -gt 0 ] && rate=$((runs / secs))
	{
		echo "fuzz $name: $runs executions in $secs s ($rate/s)," \
			"$crashes crashes, corpus $inputs inputs"
		if [ "$crashes" -ne 0 ]; then
			echo "fuzz $name: see $work/log and $work/artifacts/"
			grep -m 3 -E "ERROR|runtime error|check failed" \
				"$work/log" | sed "s/^/fuzz $name:   /" || true
		fi
	} >"$work/summary"
	echo "$runs $crashes" >"$work/counts"
}

for name in $targets; do
	if [ ! -x "$build/tests/fuzz/fuzz-$name" ]; then
		echo "tools/fuzz.sh: no target '$name'" \
			"($build/tests/fuzz/fuzz-$name)" >&2
		exit 2
	fi
	rm -f "$build/fuzz/$name/summary" "$build/fuzz/$name/counts"
done

# FUZZ_JOBS targets at a time (default: the CPUs online), each for the
# whole SECONDS; the lines come out in the targets' order.
jobs=${FUZZ_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case "$jobs" in
''|*[!0-9]*|0) echo "tools/fuzz.sh: FUZZ_JOBS: expected a positive" \
	"number, found '$jobs'" >&2; exit 2 ;;
esac
running=0
for name in $targets; do
	run_one "$name" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait

total_runs=0
total_crashes=0
for name in $targets; do
	work=$build/fuzz/$name
	cat "$work/summary"
	read -r runs crashes <"$work/counts"
	total_runs=$((total_runs + runs))
	total_crashes=$((total_crashes + crashes))
done
echo "fuzz: $total_runs executions, $total_crashes crashes"
[ "$total_crashes" -eq 0 ]
