#!/bin/sh
# realcode/tests/test-realcode.sh RC RC_SPLITBUG SRC - the real-code tier
# (docs/realcode.md), TAP: the real lib/xarray.c under DPOR: the clean
# programs exhaustive and clean, the two reintroduced bugs found with a
# replay string that reproduces them, and the fixed code clean under the
# same search.
rc=$1
bug=$2
src=$3
n=0
fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT

ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		sed 's/^/# /' "$out"
		fail=1
	fi
}

# expect_clean BIN PROGRAM ARGS...: exhaustive, no failure (exit 0).
expect_clean() {
	b=$1
	shift
	"$b" check "$@" >"$out" 2>&1
	r=$?
	grep -q "no failure, exhaustive" "$out" && [ $r = 0 ]
	ok $? "$(basename "$b") check $* is exhaustive and clean"
}

# expect_found BIN PROGRAM ARGS...: a failure (exit 1) whose replay line
# reproduces it.
expect_found() {
	b=$1
	shift
	"$b" check "$@" >"$out" 2>&1
	r=$?
	grep -q "FAILED" "$out" && grep -q "replayed:    same outcome" "$out" &&
		[ $r = 1 ]
	ok $? "$(basename "$b") check $* finds the bug"
	line=$(sed -n 's/^  replay:      [^ ]* run //p' "$out")
	# shellcheck disable=SC2086
	"$b" run $line >"$out" 2>&1
	[ $? = 1 ]
	ok $? "its replay ($line) fails again"
}

# Every `build/realcode/wpsim-realcode` command of docs/realcode.md runs
# (exit 0, 1 or 3: clean, a failure shown, not decided).
docs=$(sed -n 's|^build/realcode/wpsim-realcode \(.*\)$|\1|p' \
	"$src/docs/realcode.md" | sed 's/ *#.*$//')
ndocs=$(printf '%s\n' "$docs" | grep -c .)
echo "1..$((16 + ndocs))"
expect_clean "$rc" xa-basic
expect_clean "$rc" xa-tagwalk
expect_clean "$rc" xa-tagwalk --no-prove-rcu
expect_clean "$rc" xa-split
expect_clean "$rc" xa-shrink
# lib/xarray.c queues a node with call_rcu before it unpublishes it
# (xas_delete_node, under xa_lock): with grace periods counted from the
# call, a reader that loads the pointer in between sees it freed.
"$rc" check xa-shrink --rcu-gp-from-call >"$out" 2>&1
[ $? = 1 ] && grep -q "use after free" "$out"
ok $? "xa-shrink with grace periods from the call: a use after free"
# The proof of concept's bug: lockdep-RCU flags it at once; without it,
# DPOR finds the TOWRITE mark left on an erased slot.
expect_found "$rc" xa-tagwalk-nolock
expect_found "$rc" xa-tagwalk-nolock --no-prove-rcu
grep -q "on an empty slot" "$out"
ok $? "the replayed failure is a mark on an empty slot"
# The 2024 mark-split bug, put back by realcode/tools/: found; the tree's
# fixed xarray.c is clean under the same search (xa-split above).
expect_found "$bug" xa-split
grep -q "on a sibling slot" "$out"
ok $? "the replayed failure is a mark on a sibling slot"
# Two processes, one failure: the same event-log hash (values that point
# into the kernel heap are recorded as offsets).
h1=$("$rc" check xa-tagwalk-nolock --no-prove-rcu | sed -n 's/.*event-log hash //p')
h2=$("$rc" check xa-tagwalk-nolock --no-prove-rcu | sed -n 's/.*event-log hash //p')
[ -n "$h1" ] && [ "$h1" = "$h2" ]
ok $? "the failure's event-log hash is the same in two processes ($h1)"
"$rc" check xa-tagwalk --strategy pct --executions 200 --seed 7 >"$out" 2>&1
[ $? = 3 ] && grep -q "not decided" "$out"
ok $? "PCT on the clean tag walk: no failure, not decided (sampled)"
printf '%s\n' "$docs" | {
	while read -r args; do
		[ -n "$args" ] || continue
		# shellcheck disable=SC2086
		"$rc" $args >"$out" 2>&1
		r=$?
		n=$((n + 1))
		case $r in
		0|1|3) echo "ok $n - docs/realcode.md: wpsim-realcode $args" ;;
		*) echo "not ok $n - docs/realcode.md: wpsim-realcode $args (exit $r)"
		   sed 's/^/# /' "$out"; fail=1 ;;
		esac
	done
	exit $fail
}
