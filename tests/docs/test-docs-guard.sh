#!/bin/sh
# tests/docs/test-docs-guard.sh WPSIM SRC - the guards that keep docs true
# (TAP): the documented-command runner fails on a stale command and on a
# stale kept output, and a schedule names the model it came from.
wpsim="$1"
src="$2"
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp)
tmp=$(mktemp -d)
trap 'rm -rf "$out" "$tmp"' EXIT
. "$src/tests/cli/tap.sh"
cd "$src" || exit 1

# A fake tree: one good command, one that diverges, one stale output.
mkdir -p "$tmp/docs/examples"
cp docs/examples/write-vs-flusher-redirty.litmus "$tmp/docs/examples/"
echo stale >"$tmp/docs/examples/x.txt"
cat >"$tmp/README.md" <<'MD'
```sh
wpsim list kinds
wpsim run docs/examples/write-vs-flusher-redirty.litmus --schedule 0*9.5
wpsim check docs/examples/write-vs-flusher-redirty.litmus > docs/examples/x.txt
wpsim check FILE.litmus
```
MD
"$here/doc-commands.py" "$wpsim" "$tmp" >"$out" 2>&1
check "the runner fails when a documented command is stale" \
	test $? -ne 0
check "a good command passes" grep -q "^ok 1 - README.md:2: wpsim list kinds" "$out"
check "a diverging replay fails" \
	grep -q "^not ok 2 - .*--schedule 0\*9.5 (prints 'diverged')" "$out"
check "a stale kept output fails" \
	grep -q "^not ok 3 - .*(output differs from docs/examples/x.txt" "$out"
check "a syntax line is skipped, not run" grep -q "^1\.\.3$" "$out"

# Schedules carry the model hash that --version prints.
hash=$("$wpsim" --version | sed -n 's/.*(model \([0-9a-f]*\))$/\1/p')
expect "--version names the model" 0 "^wpsim .* (model [0-9a-f]\{12\})$" -- \
	--version
expect "a witness's schedule starts with the model hash" 0 \
	"schedule: $hash:0\*10\.1$" -- check \
	docs/examples/write-vs-flusher-redirty.litmus
expect "a schedule from another model that replays says so" 0 \
	"recorded by model 0123abcd; this is model $hash.*replays here all the same" \
	-- run docs/examples/write-vs-flusher-redirty.litmus --schedule 0123abcd:0*9.1
expect "a schedule from another model that diverges says the model changed" \
	1 "the schedule was recorded by model 0123abcd and this is model $hash: the model's steps changed since" \
	-- run docs/examples/write-vs-flusher-redirty.litmus --schedule 0123abcd:0*9.5
expect "a bad origin is a usage error" 2 "bad schedule at column 1" -- \
	run docs/examples/write-vs-flusher-redirty.litmus --schedule xyz:0*9.1
echo "1..$n"
[ "$fail" -eq 0 ]
