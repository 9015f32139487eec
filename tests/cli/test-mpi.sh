#!/bin/sh
# tests/cli/test-mpi.sh WPSIM [SRC] - with -Dmpi=enabled, `mpirun -np N
# wpsim check ...` runs the items of a split search on every rank (rank 0
# also coordinates) and prints, byte for byte, the report the single
# process prints with --jobs; rank 0 alone prints.  2, 3 and 4 ranks (4
# on this 2-core machine: oversubscribed, so a rank that waits must not
# spin).  Registered only when MPI is built.  TAP.
wpsim="$1"
here=$(cd "$(dirname "$0")" && pwd)
src=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
out=$(mktemp)
tmp=$(mktemp -d)
trap 'rm -rf "$out" "$tmp"' EXIT
cd "$src" || exit 1

. "$here/tap.sh"

mpi() {
	np=$1
	shift
	timeout 300 mpirun --oversubscribe --allow-run-as-root -np "$np" \
		"$wpsim" "$@"
}

for args in \
	"--exhaustive scenarios/mm/unmap-vs-writeback.litmus scenarios/mm/write-vs-flusher.litmus" \
	"scenarios/mm/unmap-vs-writeback.litmus" \
	"--format json scenarios/engine/independent-4.litmus" \
	"--format ktap scenarios/mm/truncate-vs-writeback.litmus scenarios/xfs/dio-vs-buffered-read.litmus" \
	"--preemptions 1 --accept-incomplete scenarios/mm/unmap-vs-writeback.litmus"; do
	# shellcheck disable=SC2086
	"$wpsim" check --jobs 2 $args >"$tmp/one" 2>&1
	c0=$?
	asan_quiet "$tmp/one"
	for np in 2 3 4; do
		# shellcheck disable=SC2086
		mpi "$np" check $args >"$out" 2>&1
		c1=$?
		asan_quiet "$out"
		check "mpirun -np $np check $args: the report of --jobs 2 (exit $c0, $c1)" \
			sh -c '[ "$1" = "$2" ] && cmp -s "$3" "$4"' sh "$c0" "$c1" \
			"$tmp/one" "$out"
	done
done

"$wpsim" check --exhaustive --jobs 2 scenarios/mm/unmap-vs-writeback.litmus \
	>"$tmp/one" 2>&1
check "the split runs there (a Split line)" grep -q "^Split: " "$tmp/one"

# A node's cores shared out between its ranks (WPSIM_MPI_CORES=N: at most
# N of a node's ranks run units at once; -1: its CPUs, when it has more
# ranks; by default no sharing): 2 and 3 ranks on one "core", 4 on two
# and on the node's CPUs, the same report as --jobs 2, and the ranks
# count their waits for one (--progress's lines).
args="--exhaustive scenarios/mm/unmap-vs-writeback.litmus scenarios/mm/write-vs-flusher.litmus"
# shellcheck disable=SC2086
"$wpsim" check --jobs 2 $args >"$tmp/one" 2>&1
for c in "2 1" "3 1" "4 2" "4 -1"; do
	set -- $c
	# shellcheck disable=SC2086
	WPSIM_MPI_CORES=$2 mpi "$1" check $args >"$out" 2>&1
	asan_quiet "$out"
	check "WPSIM_MPI_CORES=$2 mpirun -np $1: the report of --jobs 2" \
		cmp -s "$tmp/one" "$out"
done
# shellcheck disable=SC2086
WPSIM_MPI_CORES=1 mpi 3 check --progress 60 $args >"$out" 2>"$tmp/err"
check "WPSIM_MPI_CORES=1 mpirun -np 3: the ranks share one core" \
	grep -q "rank 2: .*waited [0-9.]* s for a core in [0-9]* waits" \
	"$tmp/err"
WPSIM_MPI_CORES=two mpi 2 check $args >"$out" 2>&1
check "WPSIM_MPI_CORES=two: an error naming what it expects" \
	grep -q "WPSIM_MPI_CORES: expected how many ranks of a node" "$out"

# Rank 0 handing out the first queued unit (WPSIM_MPI_ORDER=fifo)
# instead of the queued unit first in merge order (the default, which
# the runs above use): the same report.
for np in 2 3; do
	# shellcheck disable=SC2086
	WPSIM_MPI_ORDER=fifo mpi "$np" check $args >"$out" 2>&1
	asan_quiet "$out"
	check "WPSIM_MPI_ORDER=fifo mpirun -np $np: the report of --jobs 2" \
		cmp -s "$tmp/one" "$out"
done
WPSIM_MPI_ORDER=lifo mpi 2 check $args >"$out" 2>&1
check "WPSIM_MPI_ORDER=lifo: an error naming what it expects" \
	grep -q "WPSIM_MPI_ORDER: expected merge or fifo" "$out"

echo "1..$n"
[ "$fail" -eq 0 ]
