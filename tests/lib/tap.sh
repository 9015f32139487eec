# SPDX-License-Identifier: MIT
#
# tests/lib/tap.sh - TAP helpers for a shell test: `. tests/lib/tap.sh`,
# then ok NAME / not_ok NAME per test and tap_end last (the plan; its
# status is the test's).  not_ok shows the first $tap_diag_lines (20)
# lines of the files named by $tap_diag (words), if set, as TAP comments.
n=0
fail=0

ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}

not_ok() {
	n=$((n + 1))
	fail=$((fail + 1))
	echo "not ok $n - $1"
	if [ -n "${tap_diag:-}" ]; then
		# shellcheck disable=SC2086 # $tap_diag is a list of files
		sed 's/^/# /' $tap_diag 2>/dev/null | head -"${tap_diag_lines:-20}"
	fi
}

tap_end() {
	echo "1..$n"
	[ "$fail" -eq 0 ]
}

# The ASan build (make sanitize, ucontext) warns on stderr about
# swapcontext and about stacks it does not know (==PID==WARNING: ASan
# ..., and the two lines that follow the second); asan_quiet FILE drops
# those lines so outputs compare as in a plain build (the PID differs
# from run to run).  An ASan error (==PID==ERROR) stays.
asan_quiet() {
	sed -i -E -e "/^==[0-9]+==WARNING: ASan /d" \
		-e "/^False positive error reports may follow$/d" \
		-e "/^For details see https:\/\/github.com\/google\/sanitizers\/issues\/189$/d" \
		"$1"
}
