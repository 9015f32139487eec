#!/bin/sh
# tests/cli/test-cli.sh - the wpsim command as a user runs it (TAP).
# Exit codes: 0 clean, 1 failure found, 2 bad usage or input.
wpsim="$1"
n=0
fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# expect NAME EXIT-CODE PATTERN -- ARGS...
expect() {
	name=$1 code=$2 pattern=$3
	shift 4
	n=$((n + 1))
	"$wpsim" "$@" >"$out" 2>&1
	got=$?
	if [ "$got" -ne "$code" ]; then
		echo "not ok $n - $name (exit $got, want $code)"
		sed 's/^/# /' "$out"
		fail=$((fail + 1))
	elif ! grep -q -- "$pattern" "$out"; then
		echo "not ok $n - $name (no '$pattern' in output)"
		sed 's/^/# /' "$out"
		fail=$((fail + 1))
	else
		echo "ok $n - $name"
	fi
}

echo "TAP version 13"
echo "1..11"
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
expect "unknown strategy" 2 "expected dfs, dpor, random or pct" -- \
	check engine/racy-counter --strategy bfs
[ "$fail" -eq 0 ]
