#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-steady-prio.sh WPSIM SOURCE-ROOT - issue 29's steady
# state (tools/wpsim/fio-ss.c: fio's steadystate.c on the virtual clock;
# the JSON "steadystate" object and the normal line of fio 3.33's
# stat.c) and I/O priorities (tools/wpsim/fio-prio.c: prio, prioclass,
# cmdprio_*; the JSON "prios", the clat prio lines, the logs' prio
# column).  TAP.
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

# --- priorities: prio, prioclass, cmdprio_* (fio-prio.c) --------------------
# prio_of FILE: "bs prio" per line of a clat log (fio 3.33's columns).
aio="--name=p --ioengine=libaio --direct=1 --iodepth=8 --filename=dev
--size=16m"
# shellcheck disable=SC2086
js "cmdprio_percentage=20: fio 3.33's prios, default class first" \
	"[(p['prioclass'], p['prio']) for p in j['read']['prios']] ==
	 [(3, 0), (1, 0)] and sum(p['clat_ns']['N'] for p in
	 j['read']['prios']) == j['read']['total_ios'] and
	 0.1 < j['read']['prios'][1]['clat_ns']['N'] /
	 j['read']['total_ios'] < 0.3 and
	 list(j['read']['prios'][0]) == ['prioclass', 'prio', 'clat_ns'] and
	 'percentile' in j['read']['prios'][0]['clat_ns'] and
	 list(j['read']).index('prios') == list(j['read']).index('lat_ns') + 1" \
	-- $aio --rw=randread --bs=16k --prioclass=3 --cmdprio_percentage=20 \
	--cmdprio_class=1
# The log's prio column: 0x6000 and 0x2000 (log_prio=1) as many as the
# JSON's counts; without log_prio 1 for the RT class.
# shellcheck disable=SC2086
(cd "$scratch" && rm -f pl_clat.1.log && "$wpsim" fio --output-format=json \
	$aio --rw=randread --bs=16k --prioclass=3 --cmdprio_percentage=20 \
	--cmdprio_class=1 --write_lat_log=pl --log_prio=1 >o.json 2>"$out")
rt=$(python3 -c "
import json; t=open('$scratch/o.json').read(); d=json.loads(t[t.index('{'):])
print(d['jobs'][0]['read']['prios'][1]['clat_ns']['N'])" 2>>"$out")
got=$(awk -F', ' '$NF == "0x2000" { n++ } END { print n + 0 }' \
	"$scratch/pl_clat.1.log" 2>/dev/null)
other=$(awk -F', ' '$NF != "0x2000" && $NF != "0x6000"' \
	"$scratch/pl_clat.1.log" 2>/dev/null | wc -l)
if [ -n "$rt" ] && [ "$got" = "$rt" ] && [ "$other" -eq 0 ]; then
	ok "log_prio=1: each entry's ioprio, 0x2000 as often as prio 1/0 ($rt)"
else
	echo "json $rt, log $got, others $other" >>"$out"
	not_ok "log_prio=1: each entry's ioprio"
fi
# shellcheck disable=SC2086
(cd "$scratch" && rm -f pl_clat.1.log && "$wpsim" fio $aio --rw=randread \
	--bs=16k --prioclass=3 --cmdprio_percentage=20 --cmdprio_class=1 \
	--write_lat_log=pl >/dev/null 2>"$out")
got1=$(awk -F', ' '$NF == "1" { n++ } END { print n + 0 }' \
	"$scratch/pl_clat.1.log" 2>/dev/null)
if [ "$got1" = "$rt" ]; then
	ok "log_prio=0: the column is 1 for the RT class ($got1 entries)"
else
	echo "want $rt, got $got1" >>"$out"
	not_ok "log_prio=0: the column is 1 for the RT class"
fi
# cmdprio_bssplit: the 64k reads (100 %) at 1/0, the 1M ones (0 %) at
# the default; the clat log's bs and prio columns say which got which.
# shellcheck disable=SC2086
(cd "$scratch" && rm -f pl_clat.1.log && "$wpsim" fio $aio --rw=randread \
	--bssplit=64k/40:1024k/60 --cmdprio_bssplit=64k/100:1024k/0,1024k/0 \
	--write_lat_log=pl --log_prio=1 >/dev/null 2>"$out")
bad=$(awk -F', ' '($4 == 65536 && $NF != "0x2000") ||
	($4 == 1048576 && $NF != "0x0000")' "$scratch/pl_clat.1.log" \
	2>/dev/null | wc -l)
n64=$(awk -F', ' '$4 == 65536' "$scratch/pl_clat.1.log" 2>/dev/null | wc -l)
if [ -s "$scratch/pl_clat.1.log" ] && [ "$bad" -eq 0 ] && [ "$n64" -gt 0 ]
then
	ok "cmdprio_bssplit: 64k at 1/0 (cmdprio_class's RT), 1M at the default"
else
	head -5 "$scratch/pl_clat.1.log" >>"$out" 2>/dev/null
	not_ok "cmdprio_bssplit: 64k at 1/0, 1M at the default ($bad bad)"
fi
# The advanced form: 64k split 25/75 between 1/1 and 3/2 (0x2001,
# 0x6002), a default prioclass=2 prio=7 (0x4007) for the rest.
# shellcheck disable=SC2086
(cd "$scratch" && rm -f pl_clat.1.log && "$wpsim" fio $aio --rw=randread \
	--bssplit=64k/40:1024k/60 --prioclass=2 --prio=7 \
	--cmdprio_bssplit=64k/25/1/1:64k/75/3/2:1024k/0,1024k/0 \
	--write_lat_log=pl --log_prio=1 >/dev/null 2>"$out")
bad=$(awk -F', ' '($4 == 65536 && $NF != "0x2001" && $NF != "0x6002") ||
	($4 == 1048576 && $NF != "0x4007")' "$scratch/pl_clat.1.log" \
	2>/dev/null | wc -l)
if [ -s "$scratch/pl_clat.1.log" ] && [ "$bad" -eq 0 ]; then
	ok "cmdprio_bssplit bs/perc/class/level: 0x2001, 0x6002; default 0x4007"
else
	head -5 "$scratch/pl_clat.1.log" >>"$out" 2>/dev/null
	not_ok "cmdprio_bssplit bs/perc/class/level ($bad bad)"
fi
# Priorities are not acted on (no I/O scheduler in the model, v6.18's
# "none"): the same I/Os and latencies with and without cmdprio.
# shellcheck disable=SC2086
(cd "$scratch" && "$wpsim" fio --output-format=json $aio --rw=randread \
	--bs=16k >a.json 2>/dev/null)
# shellcheck disable=SC2086
(cd "$scratch" && "$wpsim" fio --output-format=json $aio --rw=randread \
	--bs=16k --cmdprio_percentage=50 >b.json 2>/dev/null)
if python3 - "$scratch/a.json" "$scratch/b.json" >"$out" 2>&1 <<'PY'
import json, sys
def load(p):
    t = open(p).read()
    return json.loads(t[t.index('{'):])['jobs'][0]['read']
a, b = load(sys.argv[1]), load(sys.argv[2])
same = a['clat_ns'] == b['clat_ns'] and a['total_ios'] == b['total_ios']
sys.exit(0 if same and 'prios' in b and 'prios' not in a else 1)
PY
then
	ok "cmdprio changes no latency (not acted on), only splits the output"
else
	not_ok "cmdprio changes no latency (not acted on)"
fi
# One priority with samples: no prios (fio prints them from two).
# shellcheck disable=SC2086
js "cmdprio_percentage=100: one priority with samples, no prios key" \
	"'prios' not in j['read']" \
	-- $aio --rw=randread --bs=16k --cmdprio_percentage=100
# group_reporting merges the priorities by value.
# shellcheck disable=SC2086
js "group_reporting: the members' priorities merged by value" \
	"len(jobs) == 1 and [(p['prioclass'], p['prio']) for p in
	 j['read']['prios']] == [(0, 0), (1, 0)] and
	 sum(p['clat_ns']['N'] for p in j['read']['prios']) ==
	 j['read']['total_ios']" \
	-- $aio --rw=randread --bs=16k --cmdprio_percentage=30 --numjobs=2 \
	--group_reporting
# The normal output's lines.
# shellcheck disable=SC2086
(cd "$scratch" && "$wpsim" fio $aio --rw=randread --bs=16k --prioclass=3 \
	--cmdprio_percentage=20 --cmdprio_class=1) >"$out" 2>&1
if grep -Eq '^    clat prio 3/0 \((n|u|m)sec\): min=' "$out" &&
	grep -Eq '^    clat prio 1/0 \([0-9.]+% of IOs\) percentiles \((n|u|m)sec\):$' "$out"
then
	ok "the normal output's clat prio lines (fio 3.33's format)"
else
	not_ok "the normal output's clat prio lines"
fi
# Errors: fio's.
expect "cmdprio_percentage with psync: libaio's and io_uring's option" 2 \
	"expected ioengine=libaio, io_uring for cmdprio_percentage" \
	-- --name=p --filename=f --size=1m --cmdprio_percentage=10
expect "cmdprio_percentage and cmdprio_bssplit: mutually exclusive" 2 \
	"cmdprio_percentage and cmdprio_bssplit options are mutually exclusive" \
	-- $aio --cmdprio_percentage=10 --cmdprio_bssplit=4k/10
expect "cmdprio_bssplit above 100 % for a bs: fio's refusal" 2 \
	"expected a total percentage of at most 100 per bs in cmdprio_bssplit, found 110 for bs 4096" \
	-- $aio --cmdprio_bssplit=4k/60/1/0:4k/50/2/0
expect "cmdprio_bssplit with a bad entry: an error at it" 2 \
	":7:19: error: expected a cmdprio_bssplit entry \(bs/perc\[/class/level\]\), found '4q/10'" \
	-- $aio --cmdprio_bssplit=4q/10
expect "cmdprio_class=0: fio's range 1..3" 2 \
	"expected an integer in 1..3 for cmdprio_class, found '0'" \
	-- $aio --cmdprio_class=0
expect "prio=8: fio's range 0..7" 2 \
	"expected an integer in 0..7 for prio, found '8'" \
	-- $aio --prio=8

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
