#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/dpor/test-missed-double-count.sh - the model scenario on which DPOR
# once printed a false "Never ... exhaustive" (the file says how): under
# dontcache=v11 break=clear_dirty_no_mkclean, unbounded DPOR must reach
# every final state that DFS within two preemptions reaches, and find the
# double count (Sometimes) when DFS does (with invariant 11 in the model).
# TAP output.
#
# usage: test-missed-double-count.sh WPSIM SOURCE_DIR
set -u
wpsim=$1
file=$2/tests/dpor/missed-double-count.litmus
variant="--variant dontcache=v11 --variant break=clear_dirty_no_mkclean"
tmp=${TMPDIR:-/tmp}/wpsim-missed.$$

# shellcheck disable=SC2086
"$wpsim" check "$file" $variant --exhaustive --format json >"$tmp.dpor"
# shellcheck disable=SC2086
"$wpsim" check "$file" $variant --strategy dfs --preemptions 2 \
	--format json >"$tmp.dfs"

echo "TAP version 13"
echo "1..3"
python3 - "$tmp.dpor" "$tmp.dfs" <<'PY'
import json, sys
dpor = json.load(open(sys.argv[1]))
dfs = json.load(open(sys.argv[2]))
n = bad = 0
def tap(ok, what):
    global n, bad
    n += 1
    bad += not ok
    print("%s %d - %s" % ("ok" if ok else "not ok", n, what))
tap(dpor["strategy"] == "dpor" and dpor["complete"],
    "dpor explored everything (%d executions)" % dpor["executions"])
# The double count ends in invariant 11 (m_dontcache_account); with a
# model without it neither strategy sees the state, and only the final
# states are compared.
tap(dfs["observation"] != "Sometimes" or dpor["observation"] == "Sometimes",
    "dpor finds what dfs finds: dfs %s %d %d, dpor %s %d %d" %
    (dfs["observation"], dfs["positive"], dfs["negative"],
     dpor["observation"], dpor["positive"], dpor["negative"]))
a = set(s["state"] for s in dfs["states"])
b = set(s["state"] for s in dpor["states"])
tap(dfs["complete"] and a <= b,
    "dpor reaches the %d final states dfs reaches within 2 preemptions "
    "(missing: %s)" % (len(a), sorted(a - b) or "none"))
sys.exit(1 if bad else 0)
PY
status=$?
rm -f "$tmp.dpor" "$tmp.dfs"
exit $status
