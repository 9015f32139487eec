#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-steady-prio.sh WPSIM SOURCE-ROOT - issue 29's steady
# state (tools/wpsim/fio-ss.c: fio's steadystate.c on the virtual clock;
# the JSON "steadystate" object and the normal line of fio 3.33's
# stat.c).  TAP.
wpsim=$1
root=$2
cd "$root" || exit 2
out=$(mktemp)
scratch=$(mktemp -d)
trap 'rm -f "$out"; rm -rf "$scratch"' EXIT
. tests/lib/tap.sh
tap_diag="$out"
tap_diag_lines=30

. tests/lib/fio-expect.sh

# js NAME EXPR -- ARGS: run with JSON output; the Python expression EXPR
# over the first job (j) and all jobs (jobs) must be true.
js() {
	name=$1 expr=$2
	shift 3
	(cd "$scratch" && "$wpsim" fio --output-format=json "$@") \
		>"$scratch/o.json" 2>"$out"
	rc=$?
	if [ "$rc" -eq 0 ] && python3 - "$scratch/o.json" "$expr" \
		>>"$out" 2>&1 <<'PY'
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index('{'):])
jobs = d['jobs']
j = jobs[0]
ss = j.get('steadystate', {})
ok = eval('(' + sys.argv[2] + ')')
if not ok:
    print(json.dumps(ss, indent=1)[:1500])
    print('write runtime', j['write']['runtime'], 'read runtime',
          j['read']['runtime'])
sys.exit(0 if ok else 1)
PY
	then
		ok "$name"
	else
		echo "exit $rc" >>"$out"
		not_ok "$name"
	fi
}

# A null job at rate_iops=1000: every interval counts 1000 I/Os.
n1k="--name=s --ioengine=null --rw=write --bs=4k --size=1g --time_based
--runtime=20 --rate_iops=1000"

# --- deviation, the ramp, the window -------------------------------------
# The helper checks each second from the run's start, the job's epoch;
# ss_ramp=1: data from the check at 2 s (one interval after the ramp),
# 3 intervals: attained at the check of 4 s, where the job ends.
# shellcheck disable=SC2086
js "iops:10%: attained after the ramp and a full window (4000 ms)" \
	"ss['attained'] == 1 and j['write']['runtime'] == 4000 and
	 ss['data']['iops'] == [1000, 1000, 1000] and
	 ss['data']['bw'] == [4096000] * 3 and ss['duration'] == 3 and
	 ss['ss'] == 'iops:10.000000%' and ss['criterion'] == '0.000000%'" \
	-- $n1k --ss=iops:10% --ss_dur=3 --ss_ramp=1
# fio 3.33's keys, in its order (checked against fio 3.33's JSON).
# shellcheck disable=SC2086
js "the steadystate object has fio 3.33's keys in fio's order" \
	"list(ss) == ['ss', 'duration', 'attained', 'criterion',
	 'max_deviation', 'slope', 'data'] and list(ss['data']) ==
	 ['bw_mean', 'iops_mean', 'iops', 'bw'] and
	 list(j)[-1] == 'steadystate'" \
	-- $n1k --ss=iops:10% --ss_dur=3 --ss_ramp=1
# No ramp: the first check (1 s) already counts: attained at 3 s.
# shellcheck disable=SC2086
js "no ss_ramp: the first interval counts (3000 ms)" \
	"ss['attained'] == 1 and j['write']['runtime'] == 3000" \
	-- $n1k --ss=iops:10% --ss_dur=3
# A limit never met (a deviation is never below 0): the whole runtime,
# attained 0, the window the last 3 intervals.
# shellcheck disable=SC2086
js "a limit never met: the job runs its runtime, attained 0" \
	"ss['attained'] == 0 and j['write']['runtime'] == 20000 and
	 ss['data']['iops'] == [1000] * 3" \
	-- $n1k --ss=iops:0 --ss_dur=3
# Without steadystate_duration there is no steady state (fio: ss_dur 0).
# shellcheck disable=SC2086
js "ss without ss_dur: no steadystate object, the whole runtime" \
	"'steadystate' not in j and j['write']['runtime'] == 20000" \
	-- $n1k --ss=iops:10%
# ss_dur alone: fio's default criterion iops_slope:0.01%.
# shellcheck disable=SC2086
js "ss_dur alone: fio's default iops_slope:0.01%" \
	"ss['ss'] == 'iops_slope:0.010000%' and ss['attained'] == 1 and
	 ss['slope'] == 0.0" \
	-- $n1k --ss_dur=3

# --- the slope ------------------------------------------------------------
# A steady job's least-squares slope is 0: attained at the first full
# window.
# shellcheck disable=SC2086
js "bw_slope:1%: a steady job attains it, its slope 0" \
	"ss['attained'] == 1 and ss['ss'] == 'bw_slope:1.000000%' and
	 ss['slope'] == 0.0 and ss['data']['bw_mean'] == 4096000" \
	-- $n1k --ss=bw_slope:1% --ss_dur=4

# --- group_reporting: the group's figures, its last job's window ----------
# shellcheck disable=SC2086
js "group_reporting, numjobs=2: the group's IOPS (2 x 1000), one end" \
	"len(jobs) == 1 and ss['attained'] == 1 and
	 ss['data']['iops'] == [2000] * 3 and
	 j['write']['total_ios'] == 2 * 3000" \
	-- $n1k --ss=iops:10% --ss_dur=3 --numjobs=2 --group_reporting
# Without group_reporting each job has its own window.
# shellcheck disable=SC2086
js "numjobs=2 without group_reporting: each job its own window" \
	"len(jobs) == 2 and all(x['steadystate']['data']['iops'] ==
	 [1000] * 3 and x['steadystate']['attained'] == 1 for x in jobs)" \
	-- $n1k --ss=iops:10% --ss_dur=3 --numjobs=2

# --- the lat criterion (later fio's) and its keys ---------------------------
js "lat:50%: the lat_mean and lat_ns keys, a latency per interval" \
	"ss['ss'] == 'lat:50.000000%' and
	 list(ss['data']) == ['bw_mean', 'iops_mean', 'lat_mean', 'lat_ns',
	 'iops', 'bw'] and len(ss['data']['lat_ns']) == 2 and
	 all(x > 0 for x in ss['data']['lat_ns']) and ss['attained'] == 1" \
	-- --name=l --rw=write --bs=4k --size=1m --filename=f --time_based \
	--runtime=10 --rate_iops=200 --ss=lat:50% --ss_dur=2

# --- the normal output's line ----------------------------------------------
# shellcheck disable=SC2086
(cd "$scratch" && "$wpsim" fio $n1k --ss=iops:10% --ss_dur=3 --ss_ramp=1) \
	>"$out" 2>&1
if grep -q '^  steadystate  : attained=yes, bw=4000KiB/s (4000kB/s), iops=1000, iops mean dev=0.000%$' "$out"; then
	ok "the normal output's steadystate line (fio 3.33's format)"
else
	not_ok "the normal output's steadystate line (fio 3.33's format)"
fi

# --- errors ------------------------------------------------------------
expect "ss=foo: an error naming the criteria" 2 \
	"error: expected a criterion for steadystate \(iops, iops_slope, bw, bw_slope, lat, lat_slope" \
	-- --name=s --ioengine=null --size=1m --ss=foo:1%
expect "ss=iops without a threshold: fio's refusal" 2 \
	"error: expected a threshold after the criterion of steadystate" \
	-- --name=s --ioengine=null --size=1m --ss=iops
expect "ss_dur not a multiple of the check interval: later fio's check" 2 \
	"ss_duration 2500000us must be multiple of ss_check_interval 1000000us" \
	-- --name=s --ioengine=null --size=1m --ss=iops:1% --ss_dur=2500ms
expect "ss_dur of one interval: later fio's check" 2 \
	"must be multiple of ss_check_interval" \
	-- --name=s --ioengine=null --size=1m --ss=iops:1% --ss_dur=1
expect "ss with ramp_time: not modelled, said" 2 \
	"steadystate with ramp_time is not modelled" \
	-- --name=s --ioengine=null --size=1m --ss=iops:1% --ss_dur=2 \
	--ramp_time=1
expect "different ss options in one reporting group: fio's EINVAL" 2 \
	"steadystate options must be consistent within reporting groups" \
	-- --name=a --ioengine=null --size=1m --ss=iops:1% --ss_dur=2 \
	--name=b --ioengine=null --size=1m --ss=iops:2% --ss_dur=2
expect "lat with an absolute threshold: not modelled, said" 2 \
	"an absolute latency threshold is not modelled" \
	-- --name=s --ioengine=null --size=1m --ss=lat:100 --ss_dur=2

# --- determinism -----------------------------------------------------------
# shellcheck disable=SC2086
(cd "$scratch" && "$wpsim" fio --output-format=json $n1k --ss=iops:10% \
	--ss_dur=3 --numjobs=2 --group_reporting >a.json 2>/dev/null)
# shellcheck disable=SC2086
(cd "$scratch" && "$wpsim" fio --output-format=json $n1k --ss=iops:10% \
	--ss_dur=3 --numjobs=2 --group_reporting >b.json 2>/dev/null)
if cmp -s "$scratch/a.json" "$scratch/b.json"; then
	ok "a steadystate run twice: byte-identical"
else
	not_ok "a steadystate run twice: byte-identical"
fi

tap_end
