#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/calibrate/sitting.sh - calibrate and validate in one sitting, round
# by round (issue 32; session 24).
#
# Why: this VM's kernel moves by 20% and more within tens of minutes
# (docs/validation.md, sessions 23 and 24: the kernel 1.20x faster at 18:00
# than at 16:40; at 19:08 the device changed mode during the calibration
# itself).  `make calibrate` then `make validate` measure the calibration
# set and the grid in two windows one after the other, so a grid row's
# error holds whatever the machine did between them.  Here the two sets
# alternate: round i runs every calibration benchmark once
# (`calibrate.py --only default --reps 1`), then every grid row once
# (`validate.py run --reps 1 --profiles none --anchor-reps 0`, the real
# side only; no drift anchors: the calibration rounds around each grid
# round measure the same benchmarks); the
# rounds are pooled (`calibrate.py --pool`, `validate.py pool`), so a
# figure and a row are each the median over the same stretch of time.
# Still two sets: the profile is written from the calibration rounds
# alone (calibrate.py refuses the grid's directory), then the pooled grid
# is modelled with it (`validate.py remodel`) and reported.
#
# Usage: tools/calibrate/sitting.sh [--rounds N] [--name NAME]
#          [--without B1,B2] [--accept-mode-change] [--rows RE]
#          [--build DIR] [--loop DIR] [--out DIR] [--profiles DIR]
# Files: OUT/calibrate-KERNEL-STAMP-rI.json (each round's raw),
# OUT/validate-KERNEL-STAMP-rI.json (each round's real side) and
# OUT/validate-KERNEL-STAMP.json (pooled, modelled); the profile
# PROFILES/NAME.{cpu,dev}.  When the pooled calibration fails the mode
# check (calibrate.py's MODE_RATIO) and --accept-mode-change is not given,
# no profile is written, the grid is pooled but not modelled, and the
# script exits 1 after saying so (as for any other failure of the
# profile's calibrate.py run, whose own message says what it was).
# Bad options (a count that is not a positive number, an --out with a
# space) exit 2.
#
# CALIBRATE_PY and VALIDATE_PY (default: the two scripts beside this one)
# name the commands run, for tests/calibrate/test-calibrate.sh.
set -eu

here=$(dirname "$0")
CALIBRATE_PY=${CALIBRATE_PY:-"python3 $here/calibrate.py"}
VALIDATE_PY=${VALIDATE_PY:-"python3 $here/validate.py"}
rounds=3
name=virtio-vm-cal
without=
accept=
rows=
build=build
loop=/var/tmp/wpsim-loop
out=traces/real-kernel
profiles=profiles/calibrated

need() {
	[ $# -ge 2 ] || { echo "sitting.sh: $1 needs a value" >&2; exit 2; }
}
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) need "$@"; rounds=$2; shift 2 ;;
	--name) need "$@"; name=$2; shift 2 ;;
	--without) need "$@"; without=$2; shift 2 ;;
	--accept-mode-change) accept=--accept-mode-change; shift ;;
	--rows) need "$@"; rows=$2; shift 2 ;;
	--build) need "$@"; build=$2; shift 2 ;;
	--loop) need "$@"; loop=$2; shift 2 ;;
	--out) need "$@"; out=$2; shift 2 ;;
	--profiles) need "$@"; profiles=$2; shift 2 ;;
	*) echo "sitting.sh: unknown option '$1' (see the header)" >&2
	   exit 2 ;;
	esac
done
case $rounds in
''|*[!0-9]*) rounds_ok= ;;
*) rounds_ok=$rounds; [ "$rounds" -ge 1 ] || rounds_ok= ;;
esac
if [ -z "$rounds_ok" ]; then
	echo "sitting.sh: --rounds: expected a positive count, found" \
	     "'$rounds'" >&2
	exit 2
fi
# The round files are passed on as lists: a directory with a space
# would split them.
case $out in
*[[:space:]]*) echo "sitting.sh: --out: expected a directory without" \
		"spaces, found '$out'" >&2; exit 2 ;;
esac

stamp=$(date -u +%Y-%m-%dT%H%M)
base=$(uname -r)-$stamp
mkdir -p "$out"
cal_files=
val_files=
i=1
while [ "$i" -le "$rounds" ]; do
	echo "sitting: round $i/$rounds: calibration set" \
	     "$(date -u +%H:%M:%S), load $(cut -d' ' -f1 /proc/loadavg)" >&2
	c=$out/calibrate-$base-r$i.json
	$CALIBRATE_PY --wpsim-build "$build" --loop "$loop" --only default \
		--reps 1 --out-raw "$c"
	cal_files="$cal_files $c"
	echo "sitting: round $i/$rounds: grid (real side)" \
	     "$(date -u +%H:%M:%S), load $(cut -d' ' -f1 /proc/loadavg)" >&2
	v=$out/validate-$base-r$i.json
	if [ -n "$rows" ]; then
		$VALIDATE_PY run --wpsim "$build/wpsim" --loop "$loop" \
			--reps 1 --profiles none --anchor-reps 0 \
			--rows "$rows" --out "$v"
	else
		$VALIDATE_PY run --wpsim "$build/wpsim" --loop "$loop" \
			--reps 1 --profiles none --anchor-reps 0 --out "$v"
	fi
	val_files="$val_files $v"
	i=$((i + 1))
done
echo "sitting: rounds done $(date -u +%H:%M:%S)," \
     "load $(cut -d' ' -f1 /proc/loadavg)" >&2

grid=$out/validate-$base.json
if [ "$rounds" -eq 1 ]; then
	cp "$v" "$grid"		# one round: nothing to pool
else
	# shellcheck disable=SC2086
	$VALIDATE_PY pool "$grid" $val_files
fi
first=${cal_files# }
first=${first%% *}
pool=${cal_files# }
pool=${pool#"$first"}
set -- --from-raw "$first" --name "$name" --profiles "$profiles"
[ -n "$pool" ] && set -- "$@" --pool $pool
[ -n "$without" ] && set -- "$@" --without "$without"
[ -n "$accept" ] && set -- "$@" "$accept"
if ! $CALIBRATE_PY "$@"; then
	echo "sitting: calibrate.py wrote no profile from the calibration" \
	     "rounds ($first and the rest: its message above says why);" \
	     "the grid's real side is in $grid, not modelled" >&2
	exit 1
fi
# The model's side of the pooled grid with the new profile (by name when it
# is in profiles/calibrated, else by its absolute path: validate.py runs
# the model in the grid's directory).
prof=$name
case $profiles in
profiles/calibrated|./profiles/calibrated) ;;
*) prof=$(cd "$profiles" && pwd)/$name ;;
esac
$VALIDATE_PY remodel "$grid" --wpsim "$build/wpsim" --profiles "$prof"
