# SPDX-License-Identifier: MIT
#
# tests/lib/fio-expect.sh - `expect` for the fio shell tests that run
# `wpsim fio` in a scratch directory (tests/fio/test-more.sh,
# test-verify-family.sh).  The sourcing test sets wpsim, out and scratch
# and has sourced tests/lib/tap.sh.

# expect NAME CODE PATTERN -- ARGS: exit CODE, a line matching PATTERN
# (grep -E), run in the scratch directory.
expect() {
	name=$1 code=$2 pattern=$3
	shift 4
	(cd "$scratch" && "$wpsim" fio "$@") >"$out" 2>&1
	got=$?
	if [ "$got" -ne "$code" ]; then
		not_ok "$name (exit $got, want $code)"
	elif ! grep -Eq -- "$pattern" "$out"; then
		not_ok "$name (no '$pattern')"
	else
		ok "$name"
	fi
}
