#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/fio/nullv-digest.py JSON IOLOG MODE - what tests/fio/nullv/*.fio333
keep of an fio run (fio 3.33's, or wpsim fio's to compare): the issued
reads and writes, the IO depth distributions, and the write_iolog as the
runs of its actions ("write 19", "read 17", "close 1", ...) with the
sha256 of its lines (action, offset, length; without the time and file name).

MODE: exact (every line), actions (the actions only: a random job's
offsets are the model's generator's), prefix (a time_based run: its
first 4000 I/O lines, up to its end), count (the counts only).
"""
import hashlib
import json
import sys


def main():
    text = open(sys.argv[1]).read()
    mode = sys.argv[3]
    # fio prints notes before its JSON on stdout
    job = json.loads(text[text.index("{"):])["jobs"][0]
    print("issued", job["read"]["total_ios"], job["write"]["total_ios"])
    if mode == "count":
        return
    for k in ("iodepth_level", "iodepth_submit", "iodepth_complete"):
        if mode == "prefix":
            break
        print(k, " ".join("%s=%s" % (a, b) for a, b in job[k].items()))
    lines = [l.split()[2:] for l in open(sys.argv[2]).read().splitlines()[1:]]
    if mode == "prefix":
        lines = [l for l in lines if l[0] in ("read", "write")][:4000]
    if mode == "actions":
        lines = [l[:1] for l in lines]
    runs = []
    for l in lines:
        if runs and runs[-1][0] == l[0]:
            runs[-1][1] += 1
        else:
            runs.append([l[0], 1])
    h = hashlib.sha256("\n".join(" ".join(l) for l in lines).encode())
    print("iolog", len(lines), "lines, sha256", h.hexdigest())
    for i in range(0, len(runs), 10):
        print("runs", " ".join("%s:%d" % (a, n) for a, n in runs[i:i + 10]))


main()
