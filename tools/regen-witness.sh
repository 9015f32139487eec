#!/bin/sh
# tools/regen-witness.sh [BUILD] - regenerate the kept witness pages and
# KUnit skeletons under docs/witness/ by running the very commands the docs
# show (`build/wpsim run ... --html docs/witness/...` or `--emit-kunit
# docs/witness/...`).  Those outputs carry the model hash and the function
# nesting, so a model change makes `doc-commands` ask for this.
set -eu
cd "$(dirname "$0")/.."
build="${1:-build}"
grep -h -o 'build/wpsim run [^`]*--\(html\|emit-kunit\) docs/witness/[^ `]*' \
	docs/*.md docs/*/*.md | sort -u | while read -r cmd; do
	# A witness run exits 1 (the failure it shows); anything else is wrong.
	set +e
	eval "$build/wpsim ${cmd#build/wpsim }" >/dev/null 2>&1
	rc=$?
	set -e
	if [ "$rc" -gt 1 ]; then
		echo "regen-witness: exit $rc: $cmd" >&2
		exit 1
	fi
	echo "regenerated: ${cmd##* }"
done
# The pinned timed figures of tests/fio/timed-golden/ (test
# fio-timed-golden) move with the model's timing as the witness pages
# move with its hash: regenerated here too.
python3 tests/fio/test-timed-golden.py "$build/wpsim" . --regen
python3 tests/scenarios/test-timed-pins.py "$build/wpsim" . --regen | tail -1
