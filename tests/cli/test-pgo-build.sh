#!/bin/sh
# tests/cli/test-pgo-build.sh WPSIM [SRC] - tools/pgo-build.sh builds a
# profile-guided wpsim, and it gives the same results as WPSIM (the
# default build of the same source): a DPOR search's JSON (executions,
# observations, final states, the witness), a DFS search's, and timed fio
# JSON, byte for byte (TAP; the deep tier: two builds of the command).
wpsim="$1"
src=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$src" || exit 1
n=0
fail=0
echo "1..5"
n=$((n + 1))
if sh tools/pgo-build.sh "$dir/b" >"$dir/log" 2>&1; then
	echo "ok $n - tools/pgo-build.sh builds $dir/b/wpsim"
else
	echo "not ok $n - tools/pgo-build.sh failed"
	sed 's/^/# /' "$dir/log"
	exit 1
fi
pgo="$dir/b/wpsim"
same() {
	name=$1
	shift
	n=$((n + 1))
	"$wpsim" "$@" >"$dir/a" 2>&1
	"$pgo" "$@" >"$dir/p" 2>&1
	if cmp -s "$dir/a" "$dir/p" && [ -s "$dir/a" ]; then
		echo "ok $n - $name: the same output"
	else
		echo "not ok $n - $name: the outputs differ"
		diff "$dir/a" "$dir/p" | head -20 | sed 's/^/# /'
		fail=$((fail + 1))
	fi
}
same "noserial-overlap's DPOR search (not trained on)" \
	check scenarios/writethrough/noserial-overlap.litmus --format json
same "fsync-vs-punch-hole's DPOR search" \
	check scenarios/mm/fsync-vs-punch-hole.litmus --executions 5000 \
	--format json
same "write-vs-flusher under DFS" \
	check scenarios/mm/write-vs-flusher.litmus --strategy dfs \
	--executions 2000 --format json
same "a timed buffered fio job" \
	fio --name=seq --rw=write --bs=4k --size=256m --output-format=json
[ "$fail" -eq 0 ]
