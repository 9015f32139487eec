#!/bin/sh
# tests/scenarios/listed.sh SRC - every scenarios/**/*.litmus is in the
# scenario_files list of tests/scenarios/meson.build (TAP).
src=$1
list="$src/tests/scenarios/meson.build"
files=$(cd "$src" && find scenarios -name '*.litmus' | sort)
n=$(printf '%s\n' "$files" | grep -c .)
echo "TAP version 13"
echo "1..$n"
i=0
fail=0
for f in $files; do
	i=$((i + 1))
	if grep -q "'${f#scenarios/}'" "$list"; then
		echo "ok $i - $f is run by meson test"
	else
		echo "not ok $i - $f is missing from tests/scenarios/meson.build"
		fail=1
	fi
done
exit $fail
