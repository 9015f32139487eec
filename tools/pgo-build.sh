#!/bin/sh
# SPDX-License-Identifier: MIT
# tools/pgo-build.sh [BUILD] - a profile-guided build of the wpsim command
# (gcc's -fprofile-generate / -fprofile-use through meson's b_pgo), for
# measuring what code layout and branch order cost (issue 28 M9b,
# docs/performance.md, session 22).  Not the default build.
#
# Steps, from the source tree: configure BUILD (default build-pgo) with
# b_pgo=generate, build wpsim, train it, reconfigure with b_pgo=use and
# build again.  The training runs every scenario of scenarios/ (3 000
# executions each, --format json) except writethrough/noserial-overlap,
# the scenario M9b is measured on, so that the figure is of code not
# trained on it; and two short timed fio jobs, so that the timed path is
# not laid out as cold code.  The profile changes code layout and
# inlining, never results (tests/cli/test-pgo-build.sh compares outputs).
set -e
B=${1:-build-pgo}
if [ -d "$B/meson-private" ]; then
	meson configure "$B" -Db_pgo=generate
else
	meson setup "$B" --buildtype=debugoptimized -Dtests=disabled \
		-Db_pgo=generate >/dev/null
fi
ninja -C "$B" -j2 wpsim >/dev/null
find "$B" -name '*.gcda' -exec rm -f {} +
for f in $(find scenarios -name '*.litmus' | grep -v 'writethrough/noserial-overlap' | sort); do
	# A scenario may find its failure (exit 1) or be capped (3): trained all the same.
	"$B/wpsim" check "$f" --executions 3000 --format json >/dev/null 2>&1 || true
done
"$B/wpsim" fio --name=seq --rw=write --bs=4k --size=64m >/dev/null
"$B/wpsim" fio --name=rnd --rw=randwrite --bs=4k --size=64m --direct=1 \
	--io_size=16m >/dev/null
meson configure "$B" -Db_pgo=use
ninja -C "$B" -j2 wpsim >/dev/null
echo "$B/wpsim: profile-guided"
