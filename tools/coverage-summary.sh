#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/coverage-summary.sh BUILD-COV - line and branch coverage of sim/
# and model/ after the quick suite ran in BUILD-COV (make coverage), one
# line each:
#   coverage sim/: lines 93.1% (1234 of 1325), branches 80.2% (...)
# from lcov's counters (gcov data of BUILD-COV), and the goal (90% of
# lines) met or not.  Prints; exits 0 either way (a figure, not a gate),
# 2 if there is no coverage data.
set -eu
build=${1:-build-cov}
root=$(cd "$(dirname "$0")/.." && pwd)
info=$build/meson-logs/wpsim-coverage.info
rc="--rc lcov_branch_coverage=1"

# shellcheck disable=SC2086 # $rc is words
lcov --quiet $rc --capture --directory "$build" \
	--base-directory "$(cd "$build" && pwd)" \
	--output-file "$info" >/dev/null 2>&1 || {
	echo "coverage: no data in $build (run make coverage)" >&2
	exit 2
}
for dir in sim model; do
	part=$build/meson-logs/wpsim-coverage-$dir.info
	# shellcheck disable=SC2086
	lcov --quiet $rc --extract "$info" "$root/$dir/*" \
		--output-file "$part" >/dev/null 2>&1
	# shellcheck disable=SC2086
	lcov $rc --summary "$part" 2>&1 | awk -v dir="$dir/" '
		/lines\.*:/ { n = $3; gsub(/\(/, "", n)
			lines = $2 " (" n " of " $5 ")"; pct = $2 + 0 }
		/branches\.*:/ { n = $3; gsub(/\(/, "", n)
			branches = $2 " (" n " of " $5 ")" }
		END {
			goal = "below the 90% goal"
			if (pct >= 90)
				goal = "the 90% goal met"
			printf "coverage %s: lines %s, branches %s; %s\n",
				dir, lines, branches, goal
		}'
done
