#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-files.sh WPSIM SOURCE-ROOT - `wpsim fio` beyond 16 files
# (TAP; issue 28): the run's files are the world's file table (any
# number), so a job of nrfiles=64, 32 jobs each with its own file, 4096
# files in one job and verify= over 100 files all run, each file getting
# its share: fio's size / nrfiles per file, written whole.  Before, each
# was an error ("more than 16 files (the model's M_FILES_MAX"), and
# nrfiles stopped at 64 (FIO_FILES_MAX); verify's key kept a job's file
# in 6 bits.  A job of more than FIO_FILES_MAX (65536) files is an error
# naming it.  Counts only, no timing.  Seconds.
wpsim=$1
root=$2
cd "$root" || exit 2
out=$(mktemp)
scratch=$(mktemp -d)
trap 'rm -f "$out"; rm -rf "$scratch"' EXIT
. tests/lib/tap.sh
tap_diag="$out"
tap_diag_lines=30

# json FILE EXPR: a value of the JSON (python3 over j, the document).
# (ASan's swapcontext warning on stderr, which the runs send to FILE too,
# is dropped first: `make sanitize`.)
json() {
	asan_quiet "$1"
	python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"
}

# per_file LOG: "FILES WRITES BYTES-MIN BYTES-MAX COVERED" of the iolog's
# writes: files written, writes, the least and most bytes a file got, and
# whether each file's writes cover [0, its bytes) once (yes/no).
per_file() {
	# fio's v3 lines: TIME FILE ACTION OFFSET LENGTH
	awk '$3 == "write" {
		n[$2]++; b[$2] += $5; w++
		if (($2, $4) in seen) dup = 1
		seen[$2, $4] = 1
		if ($4 + $5 > end[$2]) end[$2] = $4 + $5
	} END {
		min = -1; max = 0; cov = dup ? "no" : "yes"
		for (f in n) {
			files++
			if (min < 0 || b[f] < min) min = b[f]
			if (b[f] > max) max = b[f]
			if (end[f] != b[f]) cov = "no"
		}
		printf "%d %d %d %d %s\n", files, w, min, max, cov
	}' "$1"
}

# One job, nrfiles=64: 1 MiB over 64 files, 16 KiB each, 4 KiB writes.
rm -f "$scratch/a.log"
if (cd "$scratch" && "$wpsim" fio --name=a --rw=write --bs=4k --size=1m \
	--nrfiles=64 --write_iolog=a.log --output-format=json) >"$out" 2>&1 &&
   [ "$(per_file "$scratch/a.log")" = "64 256 16384 16384 yes" ]; then
	ok "nrfiles=64: 64 files of 16 KiB, 256 writes, each file written whole once"
else
	echo "per file: $(per_file "$scratch/a.log" 2>&1)" >>"$out"
	not_ok "nrfiles=64"
fi

# 32 jobs, each with its own file (numjobs: a.N.0), randwrite 32 KiB.
if "$wpsim" fio --name=b --rw=randwrite --bs=4k --size=32k --numjobs=32 \
	--output-format=json >"$out" 2>&1 &&
   [ "$(json "$out" "len(j['jobs']), sorted(set((x['write']['total_ios'], x['write']['io_bytes']) for x in j['jobs']))")" = "32 [(8, 32768)]" ]; then
	ok "numjobs=32, a file each: 32 jobs of 8 writes, 32 KiB each"
else
	not_ok "numjobs=32, a file each"
fi

# 4096 files in one job, a block each, with an end_fsync of every file.
rm -f "$scratch/c.log"
if (cd "$scratch" && "$wpsim" fio --name=c --rw=write --bs=4k --size=16m \
	--nrfiles=4096 --end_fsync=1 --write_iolog=c.log \
	--output-format=json) >"$out" 2>&1 &&
   [ "$(per_file "$scratch/c.log")" = "4096 4096 4096 4096 yes" ] &&
   [ "$(json "$out" "j['jobs'][0]['write']['total_ios']")" = 4096 ]; then
	ok "nrfiles=4096: 4096 files of one 4 KiB write each"
else
	echo "per file: $(per_file "$scratch/c.log" 2>&1)" >>"$out"
	not_ok "nrfiles=4096"
fi

# verify= over 100 files: file 64 and above have their own keys (a key
# held the file in 6 bits: file 64's blocks were file 0's).
if "$wpsim" fio --name=d --rw=randwrite --bs=4k --size=800k --nrfiles=100 \
	--verify=crc32c --output-format=json >"$out" 2>&1 &&
   [ "$(json "$out" "j['jobs'][0]['error'], j['jobs'][0]['write']['total_ios'], j['jobs'][0]['read']['total_ios']")" = "0 200 200" ]; then
	ok "verify=crc32c over 100 files: 200 writes, 200 reads verified"
else
	not_ok "verify=crc32c over 100 files"
fi

# Beyond a job's FIO_FILES_MAX: an error naming the bound.
if "$wpsim" fio --name=e --rw=write --size=64m --nrfiles=65537 \
	>"$out" 2>&1; then
	not_ok "nrfiles=65537 ran"
elif [ $? -eq 2 ] && grep -q "65536" "$out"; then
	ok "nrfiles=65537 is an error naming the bound (exit 2)"
else
	not_ok "nrfiles=65537: not the bound's error"
fi

tap_end
