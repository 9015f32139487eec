#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/fio/record-nullv.sh [FIO] - record fio 3.33's runs of
# tests/fio/nullv/cases (ioengine=null with verify and verify_backlog,
# time_based or iodepth_batch: tools/wpsim/fio-nullv.c) into
# tests/fio/nullv/NAME.fio333, as tests/fio/nullv-digest.py keeps them:
# the issued reads and writes, the IO depth distributions, the
# write_iolog's runs of actions and the sha256 of its lines.  Run on a
# machine with fio (Debian's fio 3.33 is /usr/bin/fio), not in CI; no
# root needed (the null engine opens no file).
set -e
fio=${1:-fio}
src=$(cd "$(dirname "$0")/../.." && pwd)
cd "$src/tests/fio/nullv"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' cases | while read -r name mode args; do
	# shellcheck disable=SC2086
	rm -f "$tmp/log"
	(cd "$tmp" && "$fio" --name=j --ioengine=null --bs=4096 \
		--verify=crc32c --do_verify=1 --thread $args \
		--output-format=json --write_iolog=log >json)
	{
		echo "# $("$fio" --version) on $(uname -n), Linux $(uname -r), $(date -u +%Y-%m-%d), load $(cut -d' ' -f1 /proc/loadavg): fio --name=j --ioengine=null --bs=4096 --verify=crc32c --do_verify=1 --thread $args --output-format=json --write_iolog=LOG"
		"$src/tests/fio/nullv-digest.py" "$tmp/json" "$tmp/log" "$mode"
	} >"$name.fio333"
	echo "$name: $(sed -n 2p "$name.fio333")"
done
