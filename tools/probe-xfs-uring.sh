#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/probe-xfs-uring.sh WPSIM OUT - the real kernel's XFS as a timing
# witness for the inline io_uring buffered write (seed 004's path; make
# probe-xfs, not a test: another machine's kernel differs).  This
# machine's root is ext4, which punts every io_uring buffered write to
# io-wq; XFS writes inline (FOP_BUFFER_WASYNC).  So the script makes a
# 2 GiB sparse XFS image in /tmp, loop-mounts it (root, xfsprogs:
# tools/bootstrap.sh --bench), and runs fio's QD1 4 KiB random buffered
# overwrites of a cached 16 MiB file through psync and through io_uring,
# three interleaved pairs of 2 s runs (with a third, io_uring on the
# root's ext4, which punts), then the same jobs in the model
# (--fs xfs --device virtio-vm --cpu-profile virtio-vm; uring=merged and
# uring=punt).  Medians, not means: the machine is shared, and a
# preempted write moves the mean, not the median.  Writes a table to OUT
# headed by `uname -r`, the date and the load average.  Exit 77 when it
# cannot mount (not root, no loop device, no mkfs.xfs).
wpsim=$1 out=$2
[ "$(id -u)" -eq 0 ] || { echo "probe-xfs: needs root (mount)"; exit 77; }
command -v mkfs.xfs >/dev/null ||
	{ echo "probe-xfs: no mkfs.xfs (tools/bootstrap.sh --bench)"; exit 77; }
tmp=$(mktemp -d)
img=$tmp/xfs.img mnt=$tmp/mnt
cleanup() {
	umount "$mnt" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$mnt"
truncate -s 2G "$img" && mkfs.xfs -q -f "$img" &&
	mount -o loop "$img" "$mnt" ||
	{ echo "probe-xfs: cannot loop-mount an XFS image"; exit 77; }

job="--name=w --rw=randwrite --bs=4k --size=16m --iodepth=1"

# median FILE...: the median of the numbers in the files' lines.
median() {
	sort -n "$@" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# real ENGINE [DIR [TAG]]: one 2 s run in DIR (default: the XFS mount);
# appends slat p50 + clat p50 to TAG.p50 (default ENGINE.p50).
real() {
	# shellcheck disable=SC2086 # $job is words
	fio --directory="${2:-$mnt}" $job --ioengine="$1" --slat_percentiles=1 \
		--time_based --runtime=2 --output-format=json \
		>"$tmp/real.json" 2>/dev/null || { echo "fio $1 failed"; exit 1; }
	python3 -c '
import json, sys
w = json.load(open(sys.argv[1]))["jobs"][0]["write"]
s = w["slat_ns"].get("percentile", {}).get("50.000000", 0)
print(s + w["clat_ns"]["percentile"]["50.000000"])' "$tmp/real.json" \
		>>"$tmp/${3:-$1}.p50"
}

# model ENGINE VARIANT: slat + clat p50 of the model's run.  The model
# prints no slat percentiles (wpsim fio has no slat_percentiles): its
# slat is the mean, in which the first write of each of the 4 096 folios
# (an allocation: the model's fio does not lay the file out in the page
# cache) is one write in twenty over 200 ms.
model() {
	# shellcheck disable=SC2086
	"$wpsim" fio --fs=xfs --device=virtio-vm --cpu-profile=virtio-vm \
		--variant "uring=$2" $job --ioengine="$1" --time_based \
		--runtime=200ms --output-format=json >"$tmp/model.json" ||
		{ echo "wpsim fio $1 failed"; exit 1; }
	python3 -c '
import json, sys
w = json.load(open(sys.argv[1]))["jobs"][0]["write"]
print(round(w["slat_ns"]["mean"] + w["clat_ns"]["percentile"]["50.000000"]))
' "$tmp/model.json"
}

mkdir -p "$tmp/ext4"
for i in 1 2 3; do
	real psync
	real io_uring
	real io_uring "$tmp/ext4" ext4	# the root's ext4 punts to io-wq
done
rp=$(median "$tmp/psync.p50")
ru=$(median "$tmp/io_uring.p50")
rpunt=$(median "$tmp/ext4.p50")
mp=$(model psync merged)
mu=$(model io_uring merged)
mpunt=$(model io_uring punt)
{
	echo "# make probe-xfs: $(uname -r), $(date -u +%Y-%m-%dT%H:%MZ), fio $(fio --version), load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "# real: XFS on a loop device in /tmp; model: --fs xfs --device virtio-vm --cpu-profile virtio-vm"
	echo "# QD1 4 KiB random buffered overwrites of a cached 16 MiB file; latency = slat p50 + clat p50, ns"
	echo "# real runs (psync / io_uring / io_uring on ext4, interleaved): $(tr '\n' ' ' <"$tmp/psync.p50")/ $(tr '\n' ' ' <"$tmp/io_uring.p50")/ $(tr '\n' ' ' <"$tmp/ext4.p50")"
	echo "# the punted row's real run is on this machine's ext4 root (ext4 punts every io_uring buffered write to io-wq); the model's is XFS with uring=punt"
	printf '%-40s %10s %10s %8s\n' row "real" "model" err
	python3 -c '
import sys
rp, ru, rpunt, mp, mu, mpunt = map(float, sys.argv[1:])
e = lambda m, r: "%+.1f%%" % (100 * (m - r) / r)
print("%-40s %10.0f %10.0f %8s" % ("psync write", rp, mp, e(mp, rp)))
print("%-40s %10.0f %10.0f %8s" % ("io_uring QD1, inline (uring=merged)", ru,
      mu, e(mu, ru)))
print("%-40s %10.0f %10.0f %8s" % ("io_uring over psync", ru - rp, mu - mp,
      e(mu - mp, ru - rp)))
print("%-40s %10.0f %10.0f %8s" % ("io_uring QD1, punted (uring=punt)",
      rpunt, mpunt, e(mpunt, rpunt)))' "$rp" "$ru" "$rpunt" "$mp" "$mu" \
		"$mpunt"
} >"$out"
cat "$out"
