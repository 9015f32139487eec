#!/bin/sh
# realcode/tools/stage3-surface.sh FILE.c - what a kernel file needs
# beyond this tier's shims (docs/realcode.md, "Where the line is"): its
# includes the shims do not provide are replaced by empty headers, and
# gcc -fsyntax-only counts what is then missing.  Prints the counts and
# the names.  Needs the file's directory for its own "..." includes only
# if they are among the missing ones (they are stubbed too).
set -eu
file=$1
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
total=0
missing=0
for h in $(sed -n 's/^#include [<"]\(.*\)[>"].*/\1/p' "$file"); do
	total=$((total + 1))
	if [ ! -f "$here/shim/$h" ]; then
		missing=$((missing + 1))
		mkdir -p "$tmp/stub/$(dirname "$h")"
		: >"$tmp/stub/$h"
	fi
done
cp "$file" "$tmp/f.c"
gcc -fsyntax-only -fmax-errors=0 -Wimplicit-function-declaration \
	-I"$here/shim" -I"$here/include" -I"$tmp/stub" -D__KERNEL__ \
	"$tmp/f.c" >/dev/null 2>"$tmp/errs" || true
fns=$(grep -oE "implicit declaration of function ‘[A-Za-z_0-9]+’" "$tmp/errs" |
	sed -E 's/.*‘(.*)’/\1/' | sort -u)
ids=$(grep -oE "‘[A-Za-z_0-9]+’ undeclared" "$tmp/errs" |
	sed -E 's/‘(.*)’.*/\1/' | sort -u)
structs=$(grep -oE "(invalid use of undefined type|dereferencing pointer to incomplete type) ‘struct [a-z_0-9]+’" "$tmp/errs" |
	sed -E 's/.*struct ([a-z_0-9]+).*/\1/' | sort -u)
types=$(grep -oE "unknown type name ‘[A-Za-z_0-9]+’" "$tmp/errs" |
	sed -E 's/.*‘(.*)’/\1/' | sort -u)
count() { printf '%s\n' "$1" | grep -c . || true; }
echo "$file: $total includes, $missing not in the shims"
echo "functions without a declaration: $(count "$fns")"
echo "undeclared identifiers: $(count "$ids")"
echo "structures used by their fields: $(count "$structs"): $(echo $structs)"
echo "unknown type names: $(count "$types"): $(echo $types)"
