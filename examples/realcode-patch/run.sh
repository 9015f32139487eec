#!/bin/sh
# examples/realcode-patch/run.sh [KERNEL_TREE] - "your patch, under DPOR"
# (docs/realcode.md), end to end, from the wpsim source tree:
#
#   1. copy the real-code tier's files (realcode/kernel-files.txt) of a
#      Linux 6.12 tree (default: build/linux-src, which tools/bootstrap.sh
#      unpacks from Debian's linux-source-6.12) into a scratch tree;
#   2. apply "a patch": here the 2024 mark-split regression, put back by
#      the project's own script (realcode/tools/) - in real life,
#      `git am` or `patch -p1` with your change;
#   3. configure and build wpsim's tier on the scratch tree
#      (-Dkernel_src=...), and run the xa-split race under DPOR: the
#      patched xarray fails, with a replay line;
#   4. the same search on the unpatched tree: exhaustive and clean.
#
# Exit 0 when both answers are the expected ones.  Takes a meson setup
# and a build (a few minutes on a busy machine); WORK=DIR keeps the
# scratch trees there (default: a temporary directory, removed).
set -eu
src=${1:-build/linux-src}
[ -f "$src/lib/xarray.c" ] || {
	echo "run.sh: no lib/xarray.c in $src (run make, or give a tree)" >&2
	exit 2
}
work=${WORK:-$(mktemp -d)}
[ -n "${WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/linux"
# 1. the files the tier reads
sed -e '/^#/d' realcode/kernel-files.txt | while read -r f; do
	mkdir -p "$work/linux/$(dirname "$f")"
	cp "$src/$f" "$work/linux/$f"
done
# 2. the patch under test
python3 realcode/tools/reintroduce-split-marks-bug.py \
	"$work/linux/lib/xarray.c" "$work/xarray.c"
sed -e '1,2d' "$work/xarray.c" >"$work/linux/lib/xarray.c"
# 3. wpsim's tier on the patched tree
meson setup "$work/build" -Dkernel_src="$work/linux" >/dev/null
ninja -C "$work/build" realcode/wpsim-realcode >/dev/null
rc=0
"$work/build/realcode/wpsim-realcode" check xa-split || rc=$?
[ $rc = 1 ] || { echo "run.sh: the patched xarray was not caught" >&2; exit 1; }
# 4. the unpatched tree, same search
cp "$src/lib/xarray.c" "$work/linux/lib/xarray.c"
ninja -C "$work/build" realcode/wpsim-realcode >/dev/null
"$work/build/realcode/wpsim-realcode" check xa-split
