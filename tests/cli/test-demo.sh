#!/bin/sh
# tests/cli/test-demo.sh WPSIM SRC - `wpsim demo` (make demo) as a user
# runs it (TAP): it exits 0 only when v11 holds under v6.18's ordering,
# the double count is found, shrunk and explained, and v12 clears it; the
# explained run must end in the double count (the counter 1->2 and
# invariant 11), and every schedule it prints must replay.
wpsim="$1"
here=$(cd "$(dirname "$0")" && pwd)
src=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
out=$(mktemp)
demo=$(mktemp)
trap 'rm -f "$out" "$demo"' EXIT
cd "$src" || exit 1

. "$here/tap.sh"

expect "demo exits 0 and says what it found" 0 \
	"demo: v11's double count found, shrunk and explained" -- demo
cp "$out" "$demo"
check "step 1: v11 under v6.18's ordering is Never, exhaustive" \
	sh -c "grep -q 'variant dontcache=v11 break=none' '$demo' &&
	grep -q 'Observation sashiko-double-count Never 0 ' '$demo' &&
	grep -q 'executions (+[0-9]* redundant), exhaustive' '$demo'"
check "step 2: the witness is shrunk" grep -q "Shrunk:" "$demo"
check "step 3: the explained run ends in invariant 11" \
	grep -q "^Outcome: FAIL invariant: invariant 11:" "$demo"
check "step 3: the counter goes 1->2 in the explained run" \
	grep -q "| wb.dontcache_dirty 1->2" "$demo"
check "step 3: the story names both counts" \
	sh -c "grep -q '^  step .* 0->1 ' '$demo' && grep -q '^  step .* 1->2 ' '$demo'"
check "the demo never replays a schedule that diverged" \
	sh -c "! grep -q 'diverged\|ENGINE BUG\|MISMATCH' '$demo'"
# The explained command, as printed, replays to the same outcome.
cmd=$(sed -n 's/^\$ wpsim run //p' "$demo")
n=$((n + 1))
if [ -n "$cmd" ] && eval "\"\$wpsim\" run $cmd" >"$out" 2>&1; then
	echo "not ok $n - the printed replay command fails as the demo says"
	fail=$((fail + 1))
elif grep -q "^Outcome: FAIL invariant: invariant 11:" "$out"; then
	echo "ok $n - the printed replay command fails as the demo says"
else
	echo "not ok $n - the printed replay command fails as the demo says"
	sed 's/^/# /' "$out"
	fail=$((fail + 1))
fi
echo "1..$n"
[ "$fail" -eq 0 ]
