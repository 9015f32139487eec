#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/cli/test-signals.sh WPSIM SRCDIR - a stopped `wpsim check`,
# `wpsim fio` or `wpsim replay` still prints its report when the signal
# comes twice or more at once, as GNU timeout(1) sends it (to wpsim, then
# to its process group): a signal within a second of the first is taken
# as the same request (tools/wpsim/signals.c, stop_handler, one handler
# for the three commands).  Each command runs under timeout(1) itself,
# without --foreground.  TAP.
set -u
wpsim="$1"
src="$2"
. "$src/tests/lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_diag="$tmp/out"
long="$src/scenarios/writethrough/noserial-overlap.litmus"

# Two SIGTERMs back to back, a second into a search of minutes.
"$wpsim" check "$long" --variant writethrough=v3 --exhaustive \
	>"$tmp/out" 2>&1 &
pid=$!
sleep 1
kill -TERM "$pid"
kill -TERM "$pid"
wait "$pid"
rc=$?
if [ "$rc" -ne 143 ] && grep -q 'stopped by SIGTERM' "$tmp/out" &&
   grep -q 'scenario x variant check' "$tmp/out"; then
	ok "two SIGTERMs at once: the report is printed (exit $rc)"
else
	not_ok "two SIGTERMs at once: the report is printed (exit $rc)"
fi

# GNU timeout itself, without --foreground: wpsim and its group.
if command -v timeout >/dev/null 2>&1; then
	timeout 2 "$wpsim" check "$long" --variant writethrough=v3 \
		--exhaustive >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" -eq 124 ] && grep -q 'stopped by SIGTERM' "$tmp/out"; then
		ok "timeout 2 wpsim check: the report is printed"
	else
		not_ok "timeout 2 wpsim check: the report is printed (exit $rc)"
	fi
fi

# wpsim replay: a long replay stopped by timeout(1) (SIGTERM to wpsim,
# then to its group) prints the report of the calls that ran.  Two
# million writes with a sync after every 64: about 8 s of CPU on the
# 2-core Intel guest (2026-12-06); the same writes without the syncs
# took under 2 s there once the engine's solo steps covered spinners,
# and the replay ran to its end before timeout(1) fired.
awk 'BEGIN { print "fio version 2 iolog"; print "/r add"; print "/r open"
	for (i = 0; i < 2000000; i++) {
		printf "/r write %d 4096\n", (i % 4096) * 4096
		if (i % 64 == 63) print "/r sync 0 0"
	}
	print "/r close" }' >"$tmp/long.iolog"
if command -v timeout >/dev/null 2>&1; then
	timeout 2 "$wpsim" replay "$tmp/long.iolog" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 124 ] && grep -q 'stopped by SIGTERM after' "$tmp/err" &&
	   grep -q '^validation' "$tmp/out" && grep -q '^replay: 1 threads' "$tmp/out"; then
		ok "timeout 2 wpsim replay: the partial report is printed"
	else
		not_ok "timeout 2 wpsim replay: the partial report is printed (exit $rc)"
	fi
fi
"$wpsim" replay "$tmp/long.iolog" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 1
kill -INT "$pid"
kill -INT "$pid"
wait "$pid"
rc=$?
if [ "$rc" -eq 3 ] && grep -q 'stopped by SIGINT after' "$tmp/err" &&
   grep -q '^validation' "$tmp/out"; then
	ok "two SIGINTs at once: wpsim replay prints its partial report (exit 3)"
else
	not_ok "two SIGINTs at once: wpsim replay (exit $rc)"
fi

# wpsim fio: a sequential buffered write of minutes, stopped by timeout(1):
# fio's report of the I/O issued before the stop, then the stop on stderr.
fio_job="--name=j --ioengine=psync --rw=write --bs=4k --size=16g"
if command -v timeout >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	timeout 2 "$wpsim" fio $fio_job >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 124 ] && grep -q 'stopped by SIGTERM' "$tmp/err" &&
	   grep -q '^  write: IOPS=' "$tmp/out" &&
	   grep -q '^Run status group 0' "$tmp/out"; then
		ok "timeout 2 wpsim fio: the partial report is printed"
	else
		not_ok "timeout 2 wpsim fio: the partial report is printed (exit $rc)"
	fi
fi
# Three SIGTERMs at once: still one request, exit 3 (incomplete).
# shellcheck disable=SC2086
"$wpsim" fio $fio_job >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 1
kill -TERM "$pid"
kill -TERM "$pid"
kill -TERM "$pid"
wait "$pid"
rc=$?
if [ "$rc" -eq 3 ] && grep -q 'stopped by SIGTERM' "$tmp/err" &&
   grep -q '^  write: IOPS=' "$tmp/out"; then
	ok "three SIGTERMs at once: wpsim fio prints its partial report (exit 3)"
else
	not_ok "three SIGTERMs at once: wpsim fio (exit $rc)"
fi

tap_end
