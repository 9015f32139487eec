#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/probe-fio.sh WPSIM DIR OUT - the real kernel as a timing witness
# (make probe-fio; not a test: another machine's kernel differs).  Runs
# the same fio jobs on this machine's kernel (DIR on ext4: the root is)
# and in the model (--device virtio-vm --cpu-profile virtio-vm), each
# real run a second or less, and writes a side-by-side table with the
# error per row to OUT (traces/real-kernel/), headed by `uname -r` and the
# date.  Rows: 4 KiB buffered sequential overwrites of a cached file
# (psync: a 16 MiB file, under the dirty limits, and 1 GiB written, over
# them: balance_dirty_pages throttles it; the model's file is 256 KiB,
# its bound, and it has no dirty throttling; io_uring QD1,
# which ext4 punts to io-wq), O_DIRECT 4 KiB random writes at QD 1 and 4
# (psync x numjobs) and through libaio at QD 4 and 32 (the model's
# O_DIRECT is ext4's).  The model runs on
# XFS for buffered rows (its buffered path), ext4 for O_DIRECT.
wpsim=$1 dir=$2 out=$3
mkdir -p "$dir" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

metric() {	# metric FILE: IOPS and mean clat (ns) of the first job
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
w = d["jobs"][0]["write"]
iops = sum(j["write"]["iops"] for j in d["jobs"])
print("%.0f %.0f" % (iops, w["clat_ns"]["mean"]))' "$1"
}

row() {	# row NAME "REAL ARGS" "MODEL ARGS"
	name=$1
	# shellcheck disable=SC2086
	fio --output-format=json --filename="$dir/probe.dat" $2 \
		>"$tmp/real.json" 2>/dev/null || { echo "$name: fio failed"; return; }
	# shellcheck disable=SC2086
	"$wpsim" fio --output-format=json --device=virtio-vm \
		--cpu-profile=virtio-vm $3 >"$tmp/model.json" 2>"$tmp/err" ||
		{ echo "$name: wpsim: $(tail -1 "$tmp/err")"; return; }
	set -- $(metric "$tmp/real.json") $(metric "$tmp/model.json")
	python3 -c '
import sys
n, ri, rc, mi, mc = sys.argv[1], *map(float, sys.argv[2:])
e = lambda m, r: "%+.1f%%" % (100 * (m - r) / r) if r else "n/a"
print("%-34s %10.0f %10.0f %8s %10.0f %10.0f %8s" % (n, ri, mi, e(mi, ri),
      rc, mc, e(mc, rc)))' "$name" "$@"
}

{
	echo "# make probe-fio: $(uname -r), $(date -u +%Y-%m-%dT%H:%MZ), fio $(fio --version)"
	echo "# real: $(df -T "$dir" | awk 'NR==2 {print $2, $1}'); model: --device virtio-vm --cpu-profile virtio-vm"
	printf '%-34s %10s %10s %8s %10s %10s %8s\n' row "real IOPS" "model" err \
		"real clat" "model" err
	row "buffered 4k seq psync, 16M file" \
		"--name=b --rw=write --bs=4k --size=16m --io_size=256m --overwrite=1 --ioengine=psync" \
		"--name=b --rw=write --bs=4k --size=256k --io_size=64m --overwrite=1 --ioengine=psync"
	row "buffered 4k seq psync, 1G written" \
		"--name=b --rw=write --bs=4k --size=1g --overwrite=1 --ioengine=psync --end_fsync=1" \
		"--name=b --rw=write --bs=4k --size=256k --io_size=64m --overwrite=1 --ioengine=psync"
	row "buffered 4k seq io_uring QD1" \
		"--name=u --rw=write --bs=4k --size=256k --io_size=64m --overwrite=1 --ioengine=io_uring --iodepth=1" \
		"--name=u --rw=write --bs=4k --size=256k --io_size=16m --overwrite=1 --ioengine=io_uring --iodepth=1 --variant uring=punt"
	row "O_DIRECT 4k randwrite QD1" \
		"--name=d --rw=randwrite --bs=4k --size=256k --direct=1 --overwrite=1 --runtime=2 --time_based" \
		"--fs=ext4 --name=d --rw=randwrite --bs=4k --size=256k --direct=1 --overwrite=1 --runtime=500ms --time_based"
	row "O_DIRECT 4k randwrite 4 jobs" \
		"--name=d --rw=randwrite --bs=4k --size=256k --direct=1 --overwrite=1 --runtime=2 --time_based --numjobs=4 --thread" \
		"--fs=ext4 --name=d --rw=randwrite --bs=4k --size=256k --direct=1 --overwrite=1 --runtime=500ms --time_based --numjobs=4 --thread --filename=probe.dat"
	row "O_DIRECT 4k randwrite libaio QD4" \
		"--name=a --rw=randwrite --bs=4k --size=16m --direct=1 --overwrite=1 --runtime=2 --time_based --ioengine=libaio --iodepth=4" \
		"--fs=ext4 --name=a --rw=randwrite --bs=4k --size=16m --direct=1 --overwrite=1 --io_size=8m --ioengine=libaio --iodepth=4"
	row "O_DIRECT 4k randwrite libaio QD32" \
		"--name=a --rw=randwrite --bs=4k --size=16m --direct=1 --overwrite=1 --runtime=2 --time_based --ioengine=libaio --iodepth=32" \
		"--fs=ext4 --name=a --rw=randwrite --bs=4k --size=16m --direct=1 --overwrite=1 --io_size=8m --ioengine=libaio --iodepth=32"
	echo "# io_uring real row: ext4 punts every buffered write to io-wq; the"
	echo "# model row runs XFS with --variant uring=punt, the same path."
} >"$out"


# Seed 003's writer: THREADS threads, interleaved records, RWF_DONTCACHE
# (tools/dontcache-interleaved-probe on the kernel; experiments/seed003.fio
# in the model, as many rounds as its 64-page file holds (one at 32
# threads); dontcache=v6_18, this kernel's behaviour).
probe=$(dirname "$wpsim")/dontcache-interleaved-probe
{
	echo
	echo "# seed 003's interleaved DONTCACHE writer: reads per write (device"
	echo "# 4 KiB page reads / writes) and MiB/s; real: $probe, 2000 writes"
	echo "# per run (96 with dsync); model: as many rounds as fit its 256 KiB file"
	printf '%-7s %7s %-15s %9s %9s %9s %9s %9s\n' threads record flags \
		"real r/w" "model" "real MiB" "model" err
	for flags in none dsync; do
	for rec in 47008 6000 4096; do
	for t in 1 2 4 8 16 32; do
		[ "$flags" = dsync ] && [ "$t" -ne 32 ] && continue
		rounds=$((2000 / t))
		[ "$flags" = dsync ] && rounds=3
		set -- $("$probe" "$dir" "$t" "$rec" "$rounds" \
			$( [ "$flags" = dsync ] && echo dsync ) 2>/dev/null)
		real_rpw=${5:-fail} real_mib=${6:-fail}
		# As many rounds as the model's 256 KiB file holds.
		mr=$(( 262144 / (t * rec) ))
		[ "$mr" -lt 1 ] && mr=1
		REC=$rec SKIP=$(( (t - 1) * rec )) SYNC=$flags \
		SIZE=$(( (mr - 1) * t * rec + rec )) IOSIZE=$(( mr * rec )) \
		THREADS=$t "$wpsim" fio --device=virtio-vm \
			--cpu-profile=virtio-vm --cpus=2 \
			--variant dontcache=v6_18 experiments/seed003.fio \
			--group-spans --output-format=json >/dev/null \
			2>"$tmp/err"
		model=$(python3 -c '
import sys
ios = nbytes = span = reads = None
for line in open(sys.argv[1]):
    w = line.split()
    if line.startswith("wpsim fio: group "):
        ios, nbytes, span = int(w[5]), int(w[7]), int(w[10])
    elif line.startswith("wpsim fio: device page reads "):
        reads = int(w[-1])
if ios and span and reads is not None:
    print("%.4f %.1f" % (reads / ios, nbytes / span * 1e9 / 2**20))
else:
    print("- -")' "$tmp/err")
		set -- $model
		err=$(python3 -c '
import sys
r, m = sys.argv[1:3]
try:
    print("%+.1f%%" % (100 * (float(m) - float(r)) / float(r)))
except (ValueError, ZeroDivisionError):
    print("-")' "$real_mib" "$2")
		fl=DONTCACHE
		[ "$flags" = dsync ] && fl=DONTCACHE\|DSYNC
		printf '%-7s %7s %-15s %9s %9s %9s %9s %9s\n' "$t" "$rec" \
			"$fl" "$real_rpw" "$1" "$real_mib" "$2" "$err"
	done
	done
	done
	echo "# a model '-': the run is beyond the model's bounds (64 pages per file)"
} >>"$out"
tail -32 "$out"
