#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/probe-throttle.sh WPSIM DIR OUT - dirty throttling, the real
# kernel as a witness (not a test: it needs root and changes two vm
# sysctls for a few seconds).  Runs a 1 GiB buffered 4 KiB sequential
# psync write with end_fsync=1 in DIR (ext4 on this machine's virtio
# disk) twice on this kernel: with its own limits (20 / 10 % of ~24 GiB,
# never reached by 1 GiB), and with vm.dirty_bytes = 16 MiB and
# vm.dirty_background_bytes = 8 MiB (restored afterwards, also on
# interrupt), sampling nr_dirty + nr_writeback from /proc/vmstat every
# 50 ms; then the model, --device virtio-vm --cpu-profile virtio-vm, with
# the same limits (--dirty_bytes 16m --dirty_background_bytes 8m; its page
# cache is --mem 20m and its file 64 MiB written 16 times: the model's
# object bound).  Writes the rows to OUT
# (traces/real-kernel/), headed by `uname -r` and the date.
wpsim=$1 dir=$2 out=$3
mkdir -p "$dir" || exit 2
tmp=$(mktemp -d)
old_bytes=$(cat /proc/sys/vm/dirty_bytes)
old_bg=$(cat /proc/sys/vm/dirty_background_bytes)
old_ratio=$(cat /proc/sys/vm/dirty_ratio)
old_bgratio=$(cat /proc/sys/vm/dirty_background_ratio)
restore() {
	# Writing a ratio clears the bytes and the reverse: put back what was.
	if [ "$old_bytes" -ne 0 ]; then
		echo "$old_bytes" >/proc/sys/vm/dirty_bytes
	else
		echo "$old_ratio" >/proc/sys/vm/dirty_ratio
	fi
	if [ "$old_bg" -ne 0 ]; then
		echo "$old_bg" >/proc/sys/vm/dirty_background_bytes
	else
		echo "$old_bgratio" >/proc/sys/vm/dirty_background_ratio
	fi
}
trap 'restore; rm -rf "$tmp" "$dir/probe.dat"' EXIT INT TERM

fio_real() {	# fio_real OUT.json
	rm -f "$dir/probe.dat"
	sync
	fio --output-format=json --filename="$dir/probe.dat" --name=b \
		--rw=write --bs=4k --size=1g --ioengine=psync --end_fsync=1 \
		>"$1" 2>/dev/null
}

sample() {	# sample OUT: nr_dirty + nr_writeback every 50 ms until killed
	while :; do
		awk '$1 == "nr_dirty" { d = $2 } $1 == "nr_writeback" { w = $2 }
		     END { print d + w }' /proc/vmstat
		sleep 0.05
	done >"$1"
}

summary() {	# summary JSON: MiB/s, mean and max clat (us), runtime (ms)
	python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
w = j["write"]
print("%.0f MiB/s, clat mean %.1f us, max %.0f us, %d ms" % (
    w["bw_bytes"] / 2**20, w["clat_ns"]["mean"] / 1e3,
    w["clat_ns"]["max"] / 1e3, j["job_runtime"]))' "$1"
}

{
	echo "# tools/probe-throttle.sh: $(uname -r), $(date -u +%Y-%m-%dT%H:%MZ), fio $(fio --version)"
	echo "# real: $(df -T "$dir" | awk 'NR==2 {print $2, $1}'), $(awk '/MemTotal/ {print $2 " kB"}' /proc/meminfo) RAM; model: --device virtio-vm --cpu-profile virtio-vm"
	echo "# 1 GiB buffered 4 KiB sequential psync write, end_fsync=1"
	fio_real "$tmp/real-default.json" &&
		echo "real, own limits ($old_ratio / $old_bgratio %):     $(summary "$tmp/real-default.json")"
	echo 16777216 >/proc/sys/vm/dirty_bytes
	echo 8388608 >/proc/sys/vm/dirty_background_bytes
	sample "$tmp/samples" &
	sampler=$!
	fio_real "$tmp/real-16m.json"
	kill "$sampler"
	wait "$sampler" 2>/dev/null
	restore
	echo "real, dirty_bytes 16m / background 8m: $(summary "$tmp/real-16m.json")"
	python3 -c '
import sys
s = [int(x) for x in open(sys.argv[1]) if x.strip()]
busy = [x for x in s if x > 1024]
busy.sort()
if busy:
    print("  nr_dirty + nr_writeback while > 4 MiB: %d samples, median %d, "
          "p90 %d, max %d pages (thresh 4096, bg 2048, freerun 3072, "
          "setpoint 3584)" % (len(busy), busy[len(busy) // 2],
                              busy[len(busy) * 9 // 10], busy[-1]))' \
		"$tmp/samples"
	"$wpsim" fio --name=b --rw=write --bs=4k --size=64m --io_size=1g \
		--ioengine=psync --end_fsync=1 --mem 20m --dirty_bytes 16m \
		--dirty_background_bytes 8m --device virtio-vm \
		--cpu-profile virtio-vm --output-format=json \
		>"$tmp/model.json" 2>"$tmp/model.err" &&
		echo "model, dirty_bytes 16m / background 8m: $(summary "$tmp/model.json")"
	sed 's/^wpsim fio: /  /' "$tmp/model.err"
} >"$out"
cat "$out"
