#!/bin/sh
# tools/cross-aarch64.sh - build the engine and the demo for aarch64 and run
# them under qemu-user: checks the hand-written aarch64 context switch on
# an x86-64 machine.  Needs Debian's gcc-aarch64-linux-gnu,
# libc6-dev-arm64-cross and qemu-user (installed when missing, as root).
set -eu
cd "$(dirname "$0")/.."
need=""
for p in gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		need="$need $p"
done
if [ -n "$need" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "run: sudo apt-get install -y$need" >&2
		exit 1
	fi
	apt-get install -y -qq $need
fi
out=build-aarch64
mkdir -p "$out"
cc="aarch64-linux-gnu-gcc -O2 -static -D_GNU_SOURCE -Iinclude -I."
$cc -o "$out/ctx-selftest" tools/ctx-selftest.c sim/ctx.c sim/ctx-aarch64.S
$cc -o "$out/wpsim" $(ls sim/*.c) $(find model -name "*.c" | sort) \
	sim/ctx-aarch64.S \
	tools/programs/engine-demos.c tools/wpsim/main.c
qemu-aarch64 "$out/ctx-selftest"
qemu-aarch64 "$out/wpsim" demo | tail -1
