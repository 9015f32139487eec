#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/golden/make-golden.sh - record the golden outputs of real fio
# (Debian's fio 3.33) that tests/fio/test-golden.py compares wpsim's
# printers with.  Not run by the tests (fio is not a build dependency);
# rerun by hand with fio installed, from the repository root:
#   sh tests/fio/golden/make-golden.sh
# Each case NAME has NAME.args (the fio arguments, one per line) and
# NAME.out (what fio printed: the JSON+ object, then the normal text).
set -eu
dir=tests/fio/golden
scratch=/tmp/wpsim-fio-golden
rm -rf "$scratch"
mkdir -p "$scratch"
fio --version | grep -q '^fio-3.33$'

run() {
	name=$1
	shift
	printf '%s\n' "$@" >"$dir/$name.args"
	fio "$@" --output-format=normal,json+ >"$dir/$name.out"
}

run a --name=w --filename=$scratch/f.dat --rw=randwrite --bs=4k \
	--size=256k --ioengine=psync --fdatasync=8
run b --name=aio --filename=$scratch/aio.dat --rw=randwrite --bs=4k \
	--size=16m --ioengine=libaio --iodepth=8 --direct=1 \
	--runtime=1500ms --time_based
run c --name=g --directory=$scratch --rw=write --bs=64k --size=32m \
	--numjobs=2 --group_reporting --fsync=64
run d --name=r --filename=$scratch/r.dat --rw=read --bs=128k --size=8m \
	--name=w2 --filename=$scratch/w2.dat --rw=write --bs=1m --size=16m \
	--direct=1 --ioengine=pvsync2
run e tests/fio/jobs/golden-e.fio
echo "recorded on $(uname -r), $(date -u +%Y-%m-%d), $(fio --version)" \
	>"$dir/RECORDED"
