#!/bin/sh
# tests/fidelity/test-reach.sh - diff-kernel.py reach against the model
# alone (no kernel): a kernel answer that only a later execution gives
# (class Q) is "reachable", an answer no execution gives "unreachable".
# Usage: test-reach.sh WPSIM SRCDIR
wpsim=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; fail=$((fail + 1)); }

python3 "$src/tools/diff-kernel/diff-kernel.py" --wpsim "$wpsim" reach \
	"$src/tests/fidelity/reach/q-dontcache-rewrite.txt" \
	--keep "$tmp/keep.txt" >"$tmp/out" 2>"$tmp/err"
rc=$?
sed 's/^/# /' "$tmp/out"
[ "$rc" -eq 0 ] && ok "reach exits 0" || notok "reach exits 0 (got $rc)"
if grep -Eq '^xfs-4k +2 +0 +1 +1 +0$' "$tmp/out"; then
	ok "one reachable, one unreachable, none agreeing with the first execution"
else
	notok "one reachable, one unreachable, none agreeing with the first execution"
fi
if grep -q '^# case not-an-answer: .*(unreachable: [0-9]* executions)$' \
	"$tmp/keep.txt" && ! grep -q '^# case Q' "$tmp/keep.txt"; then
	ok "--keep holds the unreachable one only, with its execution count"
else
	notok "--keep holds the unreachable one only, with its execution count"
fi
echo "1..$n"
[ "$fail" -eq 0 ]
