#!/bin/sh
# realcode/tools/shim-lines.sh KERNEL_SRC - the shim lines each kernel
# file of the tier is compiled against (docs/realcode.md): the headers of
# realcode/shim and realcode/include that gcc -H reports for it, with
# their line counts, and the runtime realcode/rt.c (shared by all).
set -eu
src=$1
here=$(cd "$(dirname "$0")/.." && pwd)
for f in lib/xarray.c kernel/locking/rwsem.c; do
	[ -f "$src/$f" ] || continue
	hdrs=$(gcc -E -I"$here/shim" -I"$here/include" -I"$src/include" \
		-D__KERNEL__ -H "$src/$f" -o /dev/null 2>&1 |
		sed -n 's/^\.* //p' | grep "^$here/" | sort -u)
	# shellcheck disable=SC2086
	lines=$(cat $hdrs | wc -l)
	n=$(echo "$hdrs" | wc -l)
	echo "$f: $(wc -l <"$src/$f") lines, unchanged; shim headers: $n files, $lines lines"
done
echo "realcode/rt.c (runtime, shared): $(wc -l <"$here/rt.c") lines"
