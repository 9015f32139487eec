#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-steps.sh WPSIM SOURCE-ROOT - `wpsim fio`'s step bound
# (TAP): a run that reaches it fails "stuck" (exit 1) with a line that
# names the bound it reached and what moves it (wpsim fio --steps N; a
# long run's default and most is 10^11, SIM_STEPS_LONG_LIMIT; a
# --replayable or --schedule run's 65536, SIM_STEPS_LIMIT), never the
# engine's words for check and run; --steps out of its range is an
# error (exit 2); a bound the run does not reach changes nothing.
wpsim=$1
root=$2
cd "$root" || exit 2
out=$(mktemp)
out2=$(mktemp)
scratch=$(mktemp -d)
trap 'rm -f "$out" "$out2"; rm -rf "$scratch"' EXIT
. tests/lib/tap.sh
tap_diag="$out"

# expect NAME CODE PATTERN -- ARGS (grep -E: the parentheses are escaped).
. tests/lib/fio-expect.sh

# 1024 buffered writes take some 10^4 steps (a long run, the default).
job="--name=s --filename=s --rw=write --bs=4k --size=4m"
# shellcheck disable=SC2086 # $job is a list of words
expect "a long run's --steps reached: named, raise it up to 10^11" 1 \
	"^wpsim fio: the model failed \(stuck\): step bound reached: 2000 steps and tasks still running; the bound is --steps 2000: raise it \(at most 100000000000\) or look for a livelock$" -- \
	$job --steps 2000
if grep -q "raise --steps or look" "$out"; then
	not_ok "the engine's line for check and run is not printed"
else
	ok "the engine's line for check and run is not printed"
fi
# shellcheck disable=SC2086
expect "--steps=N spelled with =" 1 "the bound is --steps 3000: raise it" -- \
	$job --steps=3000
# shellcheck disable=SC2086
expect "a --replayable run at its 65536 steps: run without it" 1 \
	"^wpsim fio: the model failed \(stuck\): step bound reached: 65536 steps and tasks still running; that is the most a --replayable run keeps: run without it \(a long run, up to 100000000000 steps\) or look for a livelock$" -- \
	--name=s --filename=s --rw=write --bs=4k --size=1m --io_size=64m \
	--replayable
# shellcheck disable=SC2086
expect "--replayable with a lower --steps: at most 65536 there" 1 \
	"the bound is --steps 1000: raise it \(at most 65536 with --replayable or --schedule; a run without them is a long run\) or look for a livelock$" -- \
	$job --replayable --steps 1000
# shellcheck disable=SC2086
expect "--replayable --steps above 65536: an error" 2 \
	"^wpsim fio: error: --steps: a --replayable or --schedule run keeps at most 65536 steps$" -- \
	$job --replayable --steps 65537
for bad in 0 -1 x 100000000001 ""; do
	# shellcheck disable=SC2086
	expect "--steps '$bad': an error naming the range" 2 \
		"^wpsim fio: error: --steps: expected a step bound from 1 to 100000000000, found '$bad'$" -- \
		$job --steps "$bad"
done
# A bound the run does not reach: the same bytes as without it.
# shellcheck disable=SC2086
(cd "$scratch" && "$wpsim" fio $job --output-format=json) >"$out2" 2>/dev/null
# shellcheck disable=SC2086
(cd "$scratch" && "$wpsim" fio $job --output-format=json \
	--steps 100000000000) >"$out" 2>/dev/null
if [ -s "$out" ] && cmp -s "$out" "$out2"; then
	ok "--steps 100000000000 (the default): the same JSON"
else
	not_ok "--steps 100000000000 (the default): the same JSON"
fi
# A --replayable run's object bound: the pages come from the files'
# sizes (wpsim fio has no --max-pages); said so.
expect "a --replayable run past its objects: the sizes, not --max-pages" 1 \
	"^wpsim fio: the model failed \(bound\): 1 file\(s\) of 16384 pages need 49152 page-cache and block-map objects; an exploration holds 4096 shared objects \(wpsim fio sizes the pages from the jobs' files: a smaller size= or filesize= lowers them\)$" -- \
	--name=s --filename=s --rw=write --bs=4k --size=64m --replayable
tap_end
