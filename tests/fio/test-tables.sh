#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-tables.sh WPSIM SOURCE-ROOT - bench/seed-tables.py, cut
# down to two small tables (TAP): every experiments/ job file parses with
# wpsim's fio front end, the tables print the seed's and the model's
# columns with a summary, seed000-t3's 8-file row runs, and two
# runs print identical bytes (make tables' determinism, cheaply), and
# --seed002-engine runs seed 002's rows with another engine, and
# --seed004-size seed 004's with another file.  The
# figures themselves are the bench tier's (docs/seed-tables.md).
wpsim=$1
root=$2
cd "$root" || exit 2
a=$(mktemp)
b=$(mktemp)
trap 'rm -f "$a" "$b"' EXIT
. tests/lib/tap.sh

for f in experiments/*.fio; do
	if JOBS=2 WT=0 SIZE=64k REGION=64k REGION2=64000 REGION3=52k \
	   WARMUP=1m REC=6000 SKIP=186000 SYNC=none IOSIZE=6000 RUNTIME=1 THREADS=2 \
	   ENGINE=psync \
	   "$wpsim" fio --parse-only "$f" >"$a" 2>&1; then
		ok "$f parses"
	else
		not_ok "$f parses: $(tail -1 "$a")"
	fi
done

run() {
	python3 bench/seed-tables.py "$wpsim" . --jobs 1,2 \
		--table seed002-patch1 --table seed000-t3 >"$1" 2>&1
}
if run "$a" && run "$b"; then
	ok "seed-tables.py runs twice"
else
	not_ok "seed-tables.py failed: $(tail -3 "$a")"
fi
if cmp -s "$a" "$b"; then
	ok "two runs print identical tables"
else
	not_ok "two runs differ"
fi
if grep -q '^summary seed002-patch1: 2 rows; ratio within +-20%: [0-2]/2; same winner: [0-2]/2; not run: 0$' "$a" &&
   grep -q '^   1     42,322 ' "$a"; then
	ok "a table prints the seed's column and its summary"
else
	not_ok "no seed column or summary for seed002-patch1"
fi
# The scored count (docs/seed-tables.md, session 20): seed 002's 2-job
# row, whose speedup is inside the seed's own spread, is named and kept
# out of it.
if grep -q "^  note: JOBS=2: the seed's ratio 1.032x is within its own spread" "$a" &&
   grep -q '^scored seed002-patch1: 1 rows (less 0 a figure was derived from, 1 the seed does not decide); ' "$a" &&
   grep -q '^scored: ' "$a"; then
	ok "the scored count leaves out the row the seed does not decide"
else
	not_ok "no scored count for seed002-patch1"
fi
# --seed002-engine: seed 002's measured writes with another fio engine
# (docs/seed-tables.md, session 19); the title says which, and the rows
# run.
if python3 bench/seed-tables.py "$wpsim" . --jobs 2 --table seed002-patch1 \
	--seed002-engine libaio >"$b" 2>&1 &&
   grep -q '(ioengine=libaio, not the default psync)$' "$b" &&
   grep -q '^summary seed002-patch1: 1 rows; .*not run: 0$' "$b"; then
	ok "--seed002-engine libaio runs seed 002's rows"
else
	not_ok "--seed002-engine libaio: $(tail -3 "$b")"
fi
# --seed004-size: seed 004's file at another size (docs/seed-tables.md,
# session 21); the title says which, the note counts the passes over the
# file (4 blocks), and the rows run.
if python3 bench/seed-tables.py "$wpsim" . --table seed004-seq \
	--seed004-size 16k >"$b" 2>&1 &&
   grep -q '(a 16k file, not the default 256k)$' "$b" &&
   grep -q '^  note: the file (16k, 4 blocks; the seed gives no size) is written [0-9,.]* and [0-9,.]* times over' "$b" &&
   grep -q '^summary seed004-seq: 3 rows; .*not run: 0$' "$b"; then
	ok "--seed004-size 16k runs seed 004's rows"
else
	not_ok "--seed004-size 16k: $(tail -3 "$b")"
fi
# --seed000-t4-iosize: table 4 at another length per job (the seed's
# is 5 GiB; docs/seed-tables.md, session 25); the title says which and
# every row runs.
if python3 bench/seed-tables.py "$wpsim" . --table seed000-t4 \
	--seed000-t4-iosize 16k >"$b" 2>&1 &&
   grep -q '(16k per job, not 64 MiB over the jobs)$' "$b" &&
   grep -q '^summary seed000-t4: 5 rows; .*not run: 0$' "$b"; then
	ok "--seed000-t4-iosize 16k runs table 4's rows"
else
	not_ok "--seed000-t4-iosize 16k: $(tail -3 "$b")"
fi
# seed000-t3's 8-job row needs 8 files: it runs since the model holds
# 16 (M_FILES_MAX), and the table counts no row as not run.
if grep -q '^      8 ' "$a" &&
   grep -q "^summary seed000-t3: .*not run: 0" "$a"; then
	ok "seed000-t3's 8-file row runs"
else
	not_ok "seed000-t3's 8-file row did not run"
fi

# Seed 000's drive (profiles/devices/seed000-pm173x.dev) repeats
# enterprise-plp's figures, a profile having no includes, and adds only
# the kernel's default queue (blk-wbt): every other key = value line is
# the same in both files (docs/seed-tables.md, session 25).
figures() {
	grep -v '^#' "$1" | sed 's/[[:space:]]*#.*//' |
		grep -v '^[[:space:]]*$' |
		grep -v '^\(name\|description\|wbt_lat_usec\) *='
}
if figures profiles/devices/enterprise-plp.dev >"$a" &&
   figures profiles/devices/seed000-pm173x.dev >"$b" &&
   test -s "$a" && cmp -s "$a" "$b" &&
   grep -q '^wbt_lat_usec = 2000$' profiles/devices/seed000-pm173x.dev; then
	ok "seed000-pm173x is enterprise-plp's figures with blk-wbt at 2 ms"
else
	not_ok "seed000-pm173x and enterprise-plp differ: $(diff "$a" "$b" | head -3)"
fi
# bench/seed-tables.py runs seed 000 on that drive with the seed's 62 GiB.
if grep -q "^SEED000_DEVICE = 'seed000-pm173x'$" bench/seed-tables.py &&
   grep -q "^SEED000_RAM = '62g'$" bench/seed-tables.py; then
	ok "seed 000's tables run on seed000-pm173x with --ram 62g"
else
	not_ok "bench/seed-tables.py does not name seed 000's drive and memory"
fi

tap_end
