#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-rwsem-grants.sh WPSIM SOURCE-ROOT - the i_rwsem grant
# statistics of `wpsim fio --group-spans` and the hand-over order of
# --variant rwsem=clock (TAP; session 19, h19-dsync, docs/model/rwsem.md
# "The clock rule", docs/validation.md).
#
# Seed 003's interleaved writer, 4 jobs x 200 records of 47 008 B on 2
# CPUs: every write takes the IOLOCK (i_rwsem) exclusive and most find it
# held.  Under summary (the engine's rwlock: whichever waiter the timed
# strategy runs first) most contended grants pass an earlier waiter; under
# clock (kernel/locking/rwsem.c v6.18: up_write wakes the first waiter,
# only a spinning newcomer can take the lock before it runs) few do.  One
# job never contends.  validate.py puts the grid's rwsem on the model's
# command line.
wpsim=$1
root=$2
cd "$root" || exit 2
err=$(mktemp)
dir=$(mktemp -d)
trap 'rm -rf "$err" "$dir"' EXIT
. tests/lib/tap.sh
tap_diag="$err"

grants() {	# RWSEM JOBS -> "ios contended passed spins"
	(cd "$dir" && "$wpsim" fio --name=r --ioengine=pvsync2 --uncached=1 \
		--rw=write --bs=47008 --zonemode=strided \
		--zonesize=47008 --zoneskip=$((47008 * ($2 - 1))) \
		--offset_increment=47008 --size=37465376 --io_size=9401600 \
		--numjobs="$2" --thread --filename=g --group_reporting \
		--group-spans --variant dontcache=v6_18 --variant rwsem="$1" \
		--cpus=2 --device=virtio-vm 2>"$err" >/dev/null) || return 1
	awk '/group 0/ { ios = $6 }
	     /i_rwsem write grants/ { gsub(/[,;()]/, " ");
		c = $7; p = $12; s = $16 }
	     END { print ios, c, p, s }' "$err"
}
set -- $(grants summary 4) x x x x
s_ios=$1 s_c=$2 s_p=$3
set -- $(grants clock 4) x x x x
c_ios=$1 c_c=$2 c_p=$3 c_s=$4
if [ "$s_ios" = 800 ] && [ "$c_ios" = 800 ] &&
   [ "$s_c" -gt 400 ] && [ "$c_c" -gt 400 ] &&
   [ "$s_p" -le "$s_c" ] && [ "$c_p" -le "$c_c" ] 2>/dev/null; then
	ok "4 jobs: $s_c / $c_c contended write grants of 800 (summary / clock), $s_p / $c_p past an earlier waiter"
else
	not_ok "4 jobs: the grant line ($s_ios $s_c $s_p; $c_ios $c_c $c_p)"
fi
if [ "$((c_p * 2))" -lt "$s_p" ] && [ "$c_p" -le "$c_s" ] 2>/dev/null; then
	ok "clock passes fewer waiters than summary ($c_p against $s_p), each pass a spinner's take ($c_s spins)"
else
	not_ok "clock's hand-over order ($c_p past, $c_s spins; summary $s_p)"
fi
set -- $(grants clock 1) x x x x
if [ "$1" = 200 ] && [ "$2" = 0 ] && [ "$3" = 0 ]; then
	ok "one job: no contended grant"
else
	not_ok "one job: $*"
fi
args=$(python3 -c 'import sys; sys.path.insert(0, "tools/calibrate")
import validate
print(" ".join(validate.rwsem_args(["--cpus=2"])),
      len(validate.rwsem_args(["--variant=rwsem=exact"])))')
if [ "$args" = "--variant=rwsem=clock 0" ]; then
	ok "validate.py runs the grid's model side with rwsem=clock"
else
	not_ok "validate.py's rwsem arguments: $args"
fi
tap_end
