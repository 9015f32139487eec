#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-copy-fresh.sh WPSIM SOURCE-ROOT - the copy of a buffered
# write into a fresh folio (copy_fresh_ns_per_4k, model/cost.c, charged
# in model/fs/iomap/buffered-io.c's copy; docs/timed-mode.md), TAP:
#   1. fresh sequential 64 KiB writes of a 1 MiB file (one new 64 KiB
#      folio each, the page cache under the LLC, so the copy is otherwise
#      hot): with copy_fresh_ns_per_4k = 1000 each write's clat is
#      16 x (1000 - copy_hot_ns_per_4k) ns longer than without, exactly;
#   2. a job writing a new file and one after it rewriting each block
#      once: the first pays 1000 - copy_hot_ns_per_4k more per 4 KiB
#      write, the second (cached, uptodate folios) the same as without;
#   3. a profile without the key runs as default.cpu (0: off).
wpsim=$1
root=$2
cd "$root" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/tap.sh
tap_diag="$tmp/err"
printf 'copy_fresh_ns_per_4k = 1000\n' >"$tmp/fresh.cpu"
hot=$(sed -n 's/^copy_hot_ns_per_4k = \([0-9]*\).*/\1/p' profiles/cpu/default.cpu)

clat() {	# clat mean of a JSON run
	python3 -c 'import json,sys; print("%.3f" % json.load(sys.stdin)["jobs"][0]["write"]["clat_ns"]["mean"])'
}
seq="--name=w --rw=write --bs=64k --size=1m --output-format=json"
if "$wpsim" fio $seq >"$tmp/off.json" 2>"$tmp/err" &&
   "$wpsim" fio --cpu-profile="$tmp/fresh.cpu" $seq >"$tmp/on.json" \
	2>>"$tmp/err"; then
	off=$(clat <"$tmp/off.json") on=$(clat <"$tmp/on.json")
	want=$((16 * (1000 - hot)))
	if python3 -c "import sys; sys.exit(abs($on - $off - $want) > 0.001)"; then
		ok "fresh 64 KiB writes: clat +$want ns with copy_fresh_ns_per_4k 1000 ($off -> $on)"
	else
		echo "clat $off -> $on, expected +$want" >>"$tmp/err"
		not_ok "fresh 64 KiB writes: the copy_fresh charge"
	fi
else
	not_ok "fresh 64 KiB writes: wpsim fio failed"
fi

# Job a writes a new 1 MiB file (fresh folios); job b, after it, rewrites
# every block once (no wrap: no cache drop), into the cached folios a
# left uptodate.
two="--filename=f --bs=4k --size=1m --name=a --rw=write --name=b --stonewall --rw=randwrite --output-format=json"
jobs() {	# "a-clat b-clat" of a JSON run
	python3 -c 'import json,sys; print(" ".join("%.3f" % j["write"]["clat_ns"]["mean"] for j in json.load(sys.stdin)["jobs"]))'
}
if (cd "$tmp" && "$wpsim" fio $two >off2.json 2>>err &&
    "$wpsim" fio --cpu-profile="$tmp/fresh.cpu" $two >on2.json 2>>err); then
	set -- $(jobs <"$tmp/off2.json") $(jobs <"$tmp/on2.json")
	want=$((1000 - hot))
	if [ "$2" = "$4" ] &&
	   python3 -c "import sys; sys.exit(abs($3 - $1 - $want) > 0.001)"; then
		ok "4 KiB writes: +$want ns into new folios ($1 -> $3), none into cached ones ($2 = $4)"
	else
		echo "job a $1 -> $3 (expected +$want), job b $2 -> $4" >>"$tmp/err"
		not_ok "copy_fresh charged on the wrong folios"
	fi
else
	not_ok "two jobs: wpsim fio failed"
fi

printf 'syscall_ns = 205\n' >"$tmp/none.cpu"
if "$wpsim" fio --cpu-profile="$tmp/none.cpu" $seq >"$tmp/n.json" 2>"$tmp/err" &&
   cmp -s "$tmp/n.json" "$tmp/off.json"; then
	ok "a profile without the key: as default.cpu (off)"
else
	not_ok "a profile without copy_fresh_ns_per_4k differs from the default"
fi
tap_end
