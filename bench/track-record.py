#!/usr/bin/env python3
"""bench/track-record.py WPSIM [ROW...] - the figures of docs/track-record.md.

For each row (a real, fixed write-path bug reconstructed in the model):
the buggy variant under DPOR (the default search) and under PCT (seed 1,
depth 2, up to 100 000 executions): the execution at which the first
witness came and the wall seconds of a run stopped right after it
(--executions N, the load and process start included); the witness's
replay string; and the fixed variant's exhaustive DPOR count.  Prints a
Markdown table.  Wall seconds depend on the machine and its load: the
document says which.  Never fails on timing; exits 1 if a buggy variant
is not found or a fixed one is not exhaustive and clean.
"""
import re
import subprocess
import sys
import time

# name, file, buggy --variant list, fixed --variant list
ROWS = [
    # seed003-drift (scenarios/history/dontcache-drift-7-3.litmus) was
    # withdrawn: it re-found the model's own leak (issue 30 item 7).
    ("seed003-double-count", "scenarios/dontcache/sashiko-double-count.litmus",
     ["dontcache=v11", "break=clear_dirty_no_mkclean"],
     ["dontcache=v12", "break=clear_dirty_no_mkclean"]),
    ("seed003-read-back", "scenarios/dontcache/adjacent-records.litmus",
     ["dontcache=v6_18"], ["dontcache=v12"]),
    ("seed000-repeating-folio", "scenarios/writethrough/repeating-folio-deadlock.litmus",
     ["writethrough=v3_nofix"], ["writethrough=v3"]),
    ("osync-append-range", "scenarios/history/osync-append-range.litmus",
     ["break=sync_range_asked"], []),
    ("dontcache-kick-range", "scenarios/history/dontcache-kick-range.litmus",
     ["break=dontcache_kick_past"], []),
    ("sync-livelock", "scenarios/mm/fsync-vs-appender-livelock.litmus",
     ["sync_tag=dirty"], ["sync_tag=towrite"]),
    # h33 (issue 33): three more real fixes, each a break= switch.
    ("ext4-dio-end-io-warn",
     "scenarios/history/ext4-dio-end-io-vs-truncate-up.litmus",
     ["break=ext4_dio_end_io_warn"], []),
    ("errseq-open-after-error",
     "scenarios/history/errseq-open-after-error.litmus",
     ["break=errseq_sample_marks_seen"], []),
    ("fault-vs-clear-dirty",
     "scenarios/history/fault-vs-clear-dirty-race.litmus",
     ["break=fault_dirty_unlocked"], []),
]

WITNESS = re.compile(r"^Witness \(the condition (?:holds|does not hold)\): "
                     r"execution (\d+)", re.M)
REPLAY = re.compile(r"^  replay:   (wpsim run .*)$", re.M)
EXPLORED = re.compile(r"^Exploration (\w+): (\d+) executions.*?, (\S+)", re.M)
EXPECTED = re.compile(r"^Expected (\w+): (.*)$", re.M)


def run(wpsim, args):
    t0 = time.monotonic()
    r = subprocess.run([wpsim] + args, capture_output=True, text=True)
    return r.stdout + r.stderr, time.monotonic() - t0


def variant_args(vs):
    out = []
    for v in vs:
        out += ["--variant", v]
    return out


def main():
    wpsim = sys.argv[1]
    only = set(sys.argv[2:])
    bad = 0
    print("| row | DPOR: first witness at execution, s | PCT (seed 1): "
          "execution, s | replay | fixed: exhaustive executions |")
    print("|---|---|---|---|---|")
    for name, path, buggy, fixed in ROWS:
        if only and name not in only:
            continue
        out, s_dpor = run(wpsim, ["check", path] + variant_args(buggy))
        w = WITNESS.search(out)
        replay = REPLAY.search(out)
        if w:   # the time to the first witness: stop right there
            _, s_dpor = run(wpsim, ["check", path, "--executions",
                                    str(int(w.group(1)) + 1),
                                    "--accept-incomplete"] +
                            variant_args(buggy))
        pct = ["check", path, "--strategy", "pct", "--seed", "1",
               "--accept-incomplete"] + variant_args(buggy)
        out_pct, s_pct = run(wpsim, pct + ["--executions", "100000"])
        wp = WITNESS.search(out_pct)
        if wp:
            _, s_pct = run(wpsim, pct + ["--executions",
                                         str(int(wp.group(1)) + 1)])
        out_fix, _ = run(wpsim, ["check", path, "--exhaustive"] +
                         variant_args(fixed))
        e = EXPLORED.search(out_fix)
        x = EXPECTED.search(out_fix)
        fixed_ok = e and e.group(3).startswith("exhaustive") and x and \
            x.group(2) == "ok"
        if not w or not fixed_ok:
            bad = 1
        print("| %s | %s, %.2f | %s, %.2f | `%s` | %s%s |" % (
            name, int(w.group(1)) + 1 if w else "not found", s_dpor,
            int(wp.group(1)) + 1 if wp else "not found", s_pct,
            replay.group(1) if replay else "-",
            e.group(2) if e else "?", "" if fixed_ok else " (NOT OK)"))
    return bad


if __name__ == "__main__":
    sys.exit(main())
