#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-loop-invalidate.sh WPSIM SOURCE-ROOT - fio 3.33's
# loop_cache_invalidate in `wpsim fio` (TAP; tools/wpsim/fio-job.c): a
# time_based job that wraps to the start of its file (sequential) or
# spends its random map (random) drops the file's cache with
# posix_fadvise(POSIX_FADV_DONTNEED), unless invalidate=0 or direct=1.
# Seen as: the same time_based buffered job is slower with fio's default
# invalidate=1 than with invalidate=0 (every wrap writes the file back and
# its next writes allocate folios again), and not without time_based (no
# wrap).  A time_based job on a file far smaller than its run allocates
# a folio per write after each wrap: the folios invalidated out of the
# cache are freed at their last reference (model/mm/filemap.c
# km_folio_put), so the run ends instead of failing the model's folio
# bound (it did before); so are the folios two readers of one file lose
# to each other's filemap_add_folio (the run failed before).  Figures are
# virtual time: exact, no wall time.
wpsim=$1
root=$2
cd "$root" || exit 2
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
. tests/lib/tap.sh
tap_diag="$err $out"
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3

# iops ARGS...: the write IOPS of a 256 KiB XFS job (JSON), or "fail".
iops() {
	if "$wpsim" fio --name=w --bs=4k --size=256k --fs=xfs \
		--output-format=json "$@" >"$out" 2>"$err"; then
		$py -c 'import json,sys
print(json.load(open(sys.argv[1]))["jobs"][0]["write"]["iops"])' "$out"
	else
		echo fail
	fi
}

# slower NAME A B: A < B (numbers; "fail" is not a number).
slower() {
	if $py -c 'import sys; a, b = sys.argv[1:3]
sys.exit(0 if float(a) < float(b) else 1)' "$2" "$3" 2>/dev/null; then
		ok "$1 ($2 < $3 IOPS)"
	else
		not_ok "$1 ($2, $3)"
	fi
}

for rw in randwrite write; do
	a=$(iops --rw=$rw --time_based --runtime=20ms)
	b=$(iops --rw=$rw --time_based --runtime=20ms --invalidate=0)
	slower "$rw, time_based over 20 ms of a 256 KiB file: each wrap \
invalidates the cache (invalidate=1, the default) and runs slower than \
invalidate=0" "$a" "$b"
	[ "$a" != fail ] && ok "$rw: the run ends (the invalidated folios \
are freed; no folio bound)" || not_ok "$rw: the run failed"
done

# Without time_based a job does one pass: no wrap, invalidate changes
# nothing.
a=$(iops --rw=randwrite)
b=$(iops --rw=randwrite --invalidate=0)
if [ "$a" = "$b" ] && [ "$a" != fail ]; then
	ok "one pass (no time_based): invalidate=0 and 1 give the same IOPS ($a)"
else
	not_ok "one pass: $a against $b"
fi

# Two time_based jobs reading one small file race for each folio after
# every wrap's invalidation: the folio that loses filemap_add_folio's race
# (-EEXIST) is freed at its last put, as km_folio_put frees in a long run
# (model/mm/filemap.c, readahead.c); before, it was freed only with --mem
# and the run stopped at the folio bound (fio's t/jobs/t0033, t0034).
if "$wpsim" fio --output-format=json --name=a --rw=read --filename=f \
	--size=8k --time_based --runtime=1s --name=b --rw=read --filename=f \
	--size=8k --time_based --runtime=1s >"$out" 2>"$err"; then
	reads=$($py -c 'import json,sys
j = json.load(open(sys.argv[1]))["jobs"]
print(j[0]["read"]["total_ios"], j[1]["read"]["total_ios"])' "$out")
	ok "two time_based readers of one file: the run ends ($reads reads)"
else
	not_ok "two time_based readers of one file: the run failed"
fi

tap_end
