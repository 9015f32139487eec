#!/usr/bin/env python3
# tests/cli/test-estimate.py WPSIM [SRC] - `wpsim check --estimate N` on
# DPOR: the estimate from a sample of N executions is within 10x of the
# count the whole search then runs (executions plus redundant ones), on
# small model scenarios whose search is longer than the sample; a sample
# that covers the whole tree is exact; one that does not gives a lower
# bound the count meets ("at_least") and an estimate not below it, the
# same every run.  And the progress line: --progress
# prints on stderr when it is not a terminal, --quiet prints nothing, and
# SIGINT ends a long check with the partial report (TAP).
import json
import os
import re
import signal
import subprocess
import sys
import time

# The sanitizer build (make sanitize) writes ASan's swapcontext warning
# on stderr before anything else: not wpsim's output.
ASAN_NOTE = re.compile(r"^(==[0-9]+==WARNING: ASan |False positive error "
                       r"reports may follow$|For details see https://"
                       r"github.com/google/sanitizers/issues/189$)")


def asan_quiet(text):
    return "".join(l for l in text.splitlines(True)
                   if not ASAN_NOTE.match(l.rstrip("\n")))

wpsim = sys.argv[1]
src = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..")
os.chdir(src)

SAMPLE = 100
CASES = [
    ("scenarios/mm/write-vs-flusher.litmus", []),
    ("scenarios/mm/truncate-vs-writeback.litmus", []),
    ("scenarios/mm/truncate-vs-writeback.litmus",
     ["--variant", "break=truncate_no_wait"]),
    ("scenarios/mm/fault-vs-clear-dirty-for-io.litmus",
     ["--variant", "break=clear_dirty_no_mkclean"]),
    ("scenarios/mm/unmap-vs-writeback.litmus",
     ["--variant", "break=clear_dirty_no_mkclean"]),
    ("scenarios/io_uring/nowait-vs-writer.litmus", []),
]

n = 0
failed = 0


def result(ok, name, detail=""):
    global n, failed
    n += 1
    print(("ok" if ok else "not ok") + " %d - %s" % (n, name))
    if not ok:
        failed += 1
        for line in detail.splitlines():
            print("# " + line)


for path, extra in CASES:
    name = "%s %s" % (os.path.basename(path), " ".join(extra))
    p = subprocess.run([wpsim, "check", path, "--estimate", str(SAMPLE),
                        "--exhaustive", "--format", "json"] + extra,
                       capture_output=True, text=True)
    try:
        d = json.loads(p.stdout.splitlines()[0])
    except (IndexError, ValueError):
        result(False, name + ": JSON report", p.stdout + p.stderr)
        continue
    whole = d["executions"] + d["redundant"]
    est = d["estimate"]["executions"]
    if whole <= SAMPLE:
        result(est == whole, "%s: a sample of the whole tree is exact "
               "(%d, estimate %g)" % (name, whole, est))
    else:
        result(whole / 10 <= est <= whole * 10,
               "%s: estimate %g within 10x of %d" % (name, est, whole),
               p.stdout)
        e = d["estimate"]
        result(e.get("at_least", whole + 1) <= whole,
               "%s: at least %s, a true lower bound of %d" %
               (name, e.get("at_least"), whole))
        result(est >= e.get("at_least", 0),
               "%s: the estimate is not below the lower bound" % name)

# The same sample, the same estimate: the subtrees are drawn from a
# fixed seed.
runs = [subprocess.run([wpsim, "check", "scenarios/mm/write-write-sync.litmus",
                        "--estimate", "50", "--executions", "1"],
                       capture_output=True, text=True).stdout
        for _ in range(2)]
result(runs[0] == runs[1] and "Estimate: ~" in runs[0] and
       "at least 50 (" in runs[0] and "Knuth's estimate over the top"
       in runs[0], "--estimate: the same output every run, the lower "
       "bound and the sample's estimate", runs[0] + runs[1])

# A search of many seconds (writethrough/noserial-overlap under v3,
# ~590 000 executions; ext4/partials-written-middle-unwritten under
# patch2 was used until the read sections' reduction made it 1 014): a
# progress line every second on a pipe; none with --quiet.
longer = "scenarios/writethrough/noserial-overlap.litmus"
VARIANT = "writethrough=v3"
p = subprocess.run([wpsim, "check", longer, "--variant", VARIANT,
                    "--exhaustive", "--executions", "4000", "--progress",
                    "1"], capture_output=True, text=True)
result(p.returncode == 3 and "Exploration dpor: 4000 executions"
       in p.stdout, "--progress: the report is unchanged", p.stdout)
p = subprocess.run([wpsim, "check", longer, "--variant", VARIANT,
                    "--exhaustive", "--executions", "4000", "--quiet"],
                   capture_output=True, text=True)
result(asan_quiet(p.stderr) == "", "--quiet: nothing on stderr", p.stderr)

# SIGINT once a progress line is out: the partial report, exit 3.
proc = subprocess.Popen([wpsim, "check", longer, "--variant",
                         VARIANT, "--exhaustive", "--progress",
                         "1"],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                        text=True)
line = proc.stderr.readline()
while line and ASAN_NOTE.match(line):	# the sanitizer build's warning
    line = proc.stderr.readline()
proc.send_signal(signal.SIGINT)
out, err = proc.communicate(timeout=120)
result(" executions (+" in line and " redundant), " in line,
       "--progress: a line on a pipe (%s)" % line.strip(), line + err)
result(proc.returncode in (0, 3) and "States " in out and
       ("stopped by SIGINT after" in out or "exhaustive" in out),
       "SIGINT after a progress line: the partial report, with its "
       "states", out)
print("1..%d" % n)
sys.exit(1 if failed else 0)
