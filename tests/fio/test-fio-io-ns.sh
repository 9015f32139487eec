#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-fio-io-ns.sh WPSIM SOURCE-ROOT - fio's own work per I/O
# on a real engine (the CPU profile's fio_io_ns, charged as user time
# before each I/O by tools/wpsim/fio-engines.c fio_run_issue; docs/fio.md),
# TAP:
#   1. a psync job of 2000 cached 4 KiB overwrites: with fio_io_ns = 1000
#      the run is 2000 x 1000 ns longer, exactly, every I/O's lat the
#      same as without (the work is outside it), and usr_cpu above 0;
#   2. io_uring and libaio at depth 1: the same 1000 ns per I/O;
#   3. ioengine=null is not charged it (its own FIO_NULL_IO_NS stands);
#   4. a profile without the key runs as default.cpu (0: off).
wpsim=$1
root=$2
cd "$root" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/tap.sh
tap_diag="$tmp/err"
printf 'fio_io_ns = 1000\n' >"$tmp/on.cpu"

# "end_ns lat_mean usr_cpu" of a JSON run: the job's run time in ns from
# its I/O count and IOPS (fio's runtime is whole ms), its mean lat.
fig() {
	python3 -c '
import json, sys
j = json.load(sys.stdin)["jobs"][0]
d = j["write"]
print("%.0f %.3f %s" % (d["total_ios"] / d["iops"] * 1e9 if d["iops"] else 0,
                        d["lat_ns"]["mean"], j["usr_cpu"]))'
}
for engine in psync io_uring libaio; do
	job="--name=w --rw=randwrite --bs=4k --size=16m --overwrite=1 --number_ios=2000 --ioengine=$engine --output-format=json"
	if "$wpsim" fio $job >"$tmp/off.json" 2>"$tmp/err" &&
	   "$wpsim" fio --cpu-profile="$tmp/on.cpu" $job >"$tmp/on.json" 2>>"$tmp/err"; then
		set -- $(fig <"$tmp/off.json") $(fig <"$tmp/on.json")
		# IOPS is computed from whole ms: the run's length within 1 ms.
		tol=0
		[ "$engine" = psync ] || tol=0.01
		if python3 -c "import sys; sys.exit(not (abs($4 - $1 - 2000 * 1000) < 1e6 and abs($5 - $2) <= $tol * $2 and $6 > 0))"; then
			ok "$engine: +1000 ns of user time per I/O ($1 -> $4 ns), lat mean $2 -> $5, usr_cpu $6"
		else
			echo "$engine: run $1 -> $4 (expected +2000000), lat $2 -> $5, usr $3 -> $6" >>"$tmp/err"
			not_ok "$engine: fio_io_ns charged wrongly"
		fi
	else
		not_ok "$engine: wpsim fio failed"
	fi
done

# same PROFILE DESC JOB...: the job's output with PROFILE is the same
# bytes as without one.
same() {
	profile=$1 desc=$2
	shift 2
	if "$wpsim" fio "$@" >"$tmp/a.json" 2>"$tmp/err" &&
	   "$wpsim" fio --cpu-profile="$profile" "$@" >"$tmp/b.json" 2>>"$tmp/err" &&
	   cmp -s "$tmp/a.json" "$tmp/b.json"; then
		ok "$desc (the same output)"
	else
		not_ok "$desc: the output differs"
	fi
}
same "$tmp/on.cpu" "ioengine=null: not charged fio_io_ns" \
	--name=n --ioengine=null --rw=write --bs=4k --size=4m --output-format=json
printf 'syscall_ns = 205\n' >"$tmp/none.cpu"
same "$tmp/none.cpu" "a profile without the key: as default.cpu (off)" \
	--name=w --rw=randwrite --bs=4k --size=16m --overwrite=1 \
	--number_ios=2000 --output-format=json
tap_end
