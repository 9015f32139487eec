#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/diff-kernel/diff-kernel.py - the running kernel as a differential
oracle for the model's sequential semantics (issue 30; make diff-kernel,
not CI: CI's kernel may differ).

fsx-style: seeded random sequences of the operations wpsim models run on
the real kernel (tools/diff-kernel/runner.c, on XFS and ext4 loop
filesystems at 1 KiB and 4 KiB blocks) and in the model (a one-thread
scenario, `wpsim run --schedule -`, under the variants that match v6.18:
the defaults).  Compared: every return value, i_size, the extent map of
the window (FIEMAP: hole, unwritten, written, delalloc vs
f.block[B].<state>), the page cache (cachestat: pages cached and dirty vs
f.nrpages and count(f.folio.dirty)) and the file's bytes per 512-byte
sector (the model's data resolution: its write ids).  A disagreement is
shrunk (statements dropped while it stays) and printed with both sides.

  diff-kernel.py run [--configs xfs-1k,xfs-4k,ext4-1k,ext4-4k] [--n N]
                     [--seed S] [--seconds T] [--keep FILE]
  diff-kernel.py replay SEQ...       one sequence, both sides
  diff-kernel.py model SEQ...        the model's answer alone
  diff-kernel.py corpus-make CASES OUT [--keep KEPT...]
                                     the kernel's answers to CASES, and
                                     kept sequences the model agrees
                                     with, as a corpus
  diff-kernel.py corpus-check FILE   the model against a kept corpus
                                     (no kernel needed; the quick test)

Exit: 0 no disagreement outside the known classes, 1 some, 2 usage, 77
cannot mount (not root, no loop device, no mkfs.xfs).
"""

import argparse
import json
import shutil
import signal
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

CONFIGS = {
    "xfs-1k": ("xfs", 1024),
    "xfs-4k": ("xfs", 4096),
    "ext4-1k": ("ext4", 1024),
    "ext4-4k": ("ext4", 4096),
}

PAGE = 4096


# ---- sequences ------------------------------------------------------------

class Seq:
    """fs, bsize, window, initial size and layout, statements (lists)."""

    def __init__(self, fs, bsize, window, size, layout, ops):
        self.fs, self.bsize, self.window = fs, bsize, window
        self.size, self.layout, self.ops = size, layout, ops

    def text(self):
        lines = ["fs %s" % self.fs, "bsize %d" % self.bsize,
                 "window %d" % self.window,
                 "init %d %s" % (self.size, self.layout or "-")]
        lines += [" ".join(str(a) for a in op) for op in self.ops]
        return "\n".join(lines) + "\n"

    @staticmethod
    def parse(text):
        fs, bsize, window, size, layout, ops = "xfs", 4096, 65536, 0, "", []
        for line in text.splitlines():
            w = line.split()
            if not w or w[0].startswith("#"):
                continue
            if w[0] == "fs":
                fs = w[1]
            elif w[0] == "bsize":
                bsize = int(w[1])
            elif w[0] == "window":
                window = int(w[1])
            elif w[0] == "init":
                size = int(w[1])
                layout = "" if w[2] == "-" else w[2]
            else:
                ops.append([w[0]] + [int(a) if re.fullmatch(r"-?\d+", a)
                                     else a for a in w[1:]])
        return Seq(fs, bsize, window, size, layout, ops)


def gen(rng, fs, bsize, nops):
    """A random sequence: sector-granular offsets and lengths (the
    model's data resolution), inside a window of 16 blocks (1 KiB) or
    8 (4 KiB)."""
    window = 16 * 1024 if bsize == 1024 else 32 * 1024
    nblk = rng.randint(0, window // bsize // 2)
    # Block-aligned: the model's initial written blocks carry data past
    # EOF, where a real file has zeroes (truncate and writeback zero it).
    size = nblk * bsize
    layout = "".join(rng.choice("WWUH") for _ in range(-(-size // bsize)))
    ops = []

    def sect(lo, hi):
        return rng.randrange(lo, hi + 1, 512)

    def blk(lo, hi):
        return rng.randrange(lo, hi + 1, bsize)

    def rwflags(choices):
        fl = [c for c in choices if rng.random() < 0.25]
        return "|".join(fl) if fl else "0"

    for _ in range(nops):
        if fs == "ext4":
            k = rng.choice(["dwrite", "dwrite", "dwrite", "pread"])
        else:
            k = rng.choice(["pwrite"] * 6 + ["dwrite"] * 2 +
                           ["pread"] * 2 + ["mstore"] * 2 +
                           ["munmap", "truncate", "truncate", "falloc",
                            "falloc", "punch", "punch", "fsync",
                            "fdatasync", "sfr", "reopen"])
        if k == "pwrite":
            off = sect(0, window - 512)
            ln = sect(512, min(8192, window - off))
            ops.append([k, off, ln, rwflags(["NOWAIT", "DSYNC",
                                             "DONTCACHE"])])
        elif k == "dwrite":
            if fs == "ext4":
                off = sect(0, window - 512)
                ln = sect(512, min(8192, window - off))
            else:
                off = blk(0, window - bsize)
                ln = blk(bsize, min(8192, window - off))
            ops.append([k, off, ln, rwflags(["NOWAIT", "DSYNC"])])
        elif k == "pread":
            off = sect(0, window - 512)
            ln = sect(512, min(8192, window - off))
            ops.append([k, off, ln, rwflags(["NOWAIT"])])
        elif k == "mstore":
            page = rng.randrange(0, window // PAGE)
            o = sect(0, PAGE - 512)
            ln = sect(512, PAGE - o)
            ops.append([k, page * PAGE + o, ln])
        elif k == "munmap":
            ops.append([k])
        elif k == "truncate":
            ops.append([k, sect(0, window)])
        elif k == "falloc":
            off = sect(0, window - 512)
            ops.append([k, off, sect(512, window - off),
                        1 if rng.random() < 0.5 else 0])
        elif k == "punch":
            off = sect(0, window - 512)
            ops.append([k, off, sect(512, window - off)])
        elif k == "sfr":
            off = sect(0, window - 512)
            ops.append([k, off, rng.choice([0, sect(512, window - off)]),
                        rng.choice([2, 3, 6, 7])])
        else:
            ops.append([k])
    return Seq(fs, bsize, window, size, layout, ops)


# ---- the kernel side -----------------------------------------------------

def parse_answer(text):
    ans = {"ret": [], "size": None, "map": "", "cache": None, "data": []}
    for line in text.splitlines():
        w = line.split()
        if not w:
            continue
        if w[0] == "ret":
            ans["ret"].append(int(w[2]))
        elif w[0] == "size":
            ans["size"] = int(w[1])
        elif w[0] == "map":
            ans["map"] = w[1]
        elif w[0] == "cache":
            ans["cache"] = (int(w[1]), int(w[2]))
        elif w[0] == "data":
            ans["data"] = [x if x == "?" else int(x) for x in w[1:]]
        elif w[0] == "outcome":
            ans["outcome"] = " ".join(w[1:])
    return ans


class Kernel:
    """One long-running runner per mount (runner.c reading sequences from
    its stdin): no process start, mkfs or mount per sequence; each
    sequence gets a fresh file on the configuration's one filesystem.
    Sequences go to it in batches (run_many: a writer thread feeds them
    while the answers are read, so the runner never waits for this
    process between two sequences)."""

    def __init__(self, runner, mounts, init="fsync", name="t"):
        self.runner, self.mounts, self.init = runner, mounts, init
        self.name = name
        self.procs = {}

    def proc(self, key):
        p = self.procs.get(key)
        if p is None or p.poll() is not None:
            cmd = [self.runner]
            if self.init == "fsync":
                cmd += ["--init", "fsync"]
            p = subprocess.Popen(cmd + ["-",
                                        os.path.join(self.mounts[key], self.name)],
                                 stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True)
            self.procs[key] = p
        return p

    def run_many(self, seqs):
        """The runner's raw answer to each of @seqs, in order."""
        out = [None] * len(seqs)
        by = {}
        for i, seq in enumerate(seqs):
            by.setdefault((seq.fs, seq.bsize), []).append(i)
        for key, idx in by.items():
            p = self.proc(key)
            text = "".join(seqs[i].text() + "end\n" for i in idx)

            def feed(p=p, text=text):
                try:
                    p.stdin.write(text)
                    p.stdin.flush()
                except (BrokenPipeError, ValueError):
                    pass
            th = threading.Thread(target=feed)
            th.start()
            cur, k = [], 0
            for line in p.stdout:
                if line == "end\n":
                    out[idx[k]] = "".join(cur)
                    cur = []
                    k += 1
                    if k == len(idx):
                        break
                else:
                    cur.append(line)
            th.join()
            if k < len(idx):
                p.wait()
                raise RuntimeError("runner exited %s" % p.returncode)
        return out

    def run_once(self, seq):
        return self.run_many([seq])[0]

    def close(self):
        for p in self.procs.values():
            if p.poll() is None:
                p.stdin.close()
                p.wait()
        self.procs = {}

    def settle_many(self, seqs, firsts):
        """Given one answer each, run each again; a third time those
        whose two answers differ.  Per sequence the answer two runs
        agree on, or None (unstable: a clock tick, the flusher, another
        user of the machine)."""
        seconds = self.run_many(seqs)
        out = [None] * len(seqs)
        again = []
        for i, (a, b) in enumerate(zip(firsts, seconds)):
            if a == b:
                out[i] = parse_answer(a)
            else:
                again.append(i)
        if again:
            thirds = self.run_many([seqs[i] for i in again])
            for i, c in zip(again, thirds):
                if c in (firsts[i], seconds[i]):
                    out[i] = parse_answer(c)
        return out

    def settle(self, seq, a):
        return self.settle_many([seq], [a])[0]

    def run_all(self, seqs):
        """Each twice; a third time when they differ; None if still
        unstable."""
        return self.settle_many(seqs, self.run_many(seqs))

    def run(self, seq):
        return self.run_all([seq])[0]


# ---- the model side ------------------------------------------------------

FLAGS = {"NOWAIT": "RWF_NOWAIT", "DSYNC": "RWF_DSYNC",
         "DONTCACHE": "RWF_DONTCACHE"}
SFR = {2: "SYNC_FILE_RANGE_WRITE",
       3: "SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE",
       6: "SYNC_FILE_RANGE_WRITE|SYNC_FILE_RANGE_WAIT_AFTER",
       7: "SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE|"
          "SYNC_FILE_RANGE_WAIT_AFTER"}


def rwf(s):
    s = str(s)
    return "0" if s == "0" else "|".join(FLAGS[x] for x in s.split("|"))


def stmt(op, ext4):
    k = op[0]
    if k in ("pwrite", "dwrite"):
        fd = "f" if ext4 or k == "pwrite" else "d"
        return "pwritev2(%s, %d, %d, %s)" % (fd, op[1], op[2], rwf(op[3]))
    if k == "pread":
        fd = "g" if ext4 else "f"
        if str(op[3]) == "0":
            return "pread(%s, %d, %d)" % (fd, op[1], op[2])
        # Every flag the runner passes (before, any flags became
        # RWF_NOWAIT: a DONTCACHE read was a NOWAIT one here).
        return "pread(%s, %d, %d, %s)" % (fd, op[1], op[2], rwf(op[3]))
    if k == "mstore":
        return "mmap_store(f, %d, %d)" % (op[1], op[2])
    if k == "munmap":
        return "munmap(f)"
    if k == "truncate":
        return "truncate(f, %d)" % op[1]
    if k == "falloc":
        if op[3]:
            return "fallocate(f, %d, %d, FALLOC_FL_KEEP_SIZE)" % (op[1],
                                                                  op[2])
        return "fallocate(f, %d, %d)" % (op[1], op[2])
    if k == "punch":
        return "punch_hole(f, %d, %d)" % (op[1], op[2])
    if k in ("fsync", "fdatasync"):
        return "%s(f)" % k
    if k == "sfr":
        return "sync_file_range(f, %d, %d, %s)" % (op[1], op[2], SFR[op[3]])
    if k == "reopen":
        return "open(g)"
    raise ValueError(k)


def balanced(terms):
    """a + b + ... as a balanced tree (the language's depth limit)."""
    if len(terms) == 1:
        return terms[0]
    mid = len(terms) // 2
    return "(%s + %s)" % (balanced(terms[:mid]), balanced(terms[mid:]))


_FORALL = {}


def forall_of(terms):
    """The forall line over @terms (cached: it depends only on the
    number of statements, the window and the block size)."""
    key = tuple(terms)
    got = _FORALL.get(key)
    if got is None:
        got = _FORALL[key] = "forall (%s == -1)" % balanced(list(terms))
    return got


def terms_of(seq):
    terms = ["0:r%d" % i for i in range(len(seq.ops))]
    terms += ["f.i_size", "f.nrpages"]
    for b in range(seq.window // seq.bsize):
        terms += ["f.block[%d].unwritten" % b, "f.block[%d].written" % b,
                  "f.block[%d].delalloc" % b]
    for p in range(seq.window // PAGE):
        terms.append("f.folio[%d].uptodate" % p)
        # cachestat counts the pages of a dirty folio (mm/filemap.c
        # filemap_cachestat, v6.18): a page's own term, so a large
        # folio counts every page it holds.
        terms.append("f.folio[%d].dirty" % p)
    for s in range(seq.window // 512):
        terms += ["f.cache[%d]" % s, "f.disk[%d]" % s,
                  "f.uptodate[%d]" % s]
    return terms


def chunks(terms, budget=14000):
    """The state wpsim prints is at most STATE_BYTES (16 KiB,
    tools/wpsim/check.h): one scenario per chunk of paths that fits
    (one chunk for every window the generator makes)."""
    out, cur, used = [], [], 0
    for t in terms:
        if cur and used + len(t) + 22 > budget:
            out.append(cur)
            cur, used = [], 0
        cur.append(t)
        used += len(t) + 22
    if cur:
        out.append(cur)
    return out


def litmus(seq, terms=None):
    ext4 = seq.fs == "ext4"
    lay = seq.layout
    head = "size=%d, bsize=%d, folio=4096, nosec=1" % (seq.size, seq.bsize)
    if lay:
        head += ", layout=%s" % lay
    out = ["wpsim diff-kernel", '"one sequence of tools/diff-kernel"', "{"]
    # The runner's loop device reads ahead (read_ahead_kb 128, the
    # loop driver's default) and every descriptor has POSIX_FADV_RANDOM
    # (runner.c open_fd): a read miss reads the pages asked, as the
    # model does with the same two settings.
    out.append("  device: read_ahead_kb=128;")
    if ext4:
        out.append("  file f: fs=ext4, %s, open=O_DIRECT|O_RDWR, "
                   "advice=RANDOM;" % head)
        out.append("  fd g: file=f, open=O_RDWR, advice=RANDOM;")
    else:
        # v6.18 gives every XFS regular file large folios
        # (xfs_setup_inode, fs/xfs/xfs_icache.c): a write's folio is
        # as large as the write asks (iomap_get_folio).
        out.append("  file f: %s, open=O_RDWR, advice=RANDOM, "
                   "large_folios=1;" % head)
        out.append("  fd d: file=f, open=O_RDWR|O_DIRECT, advice=RANDOM;")
        out.append("  fd g: file=f, open=O_RDWR, advice=RANDOM;")
    out.append("}")
    out.append("P0 {")
    for i, op in enumerate(seq.ops):
        out.append("  r%d = %s;" % (i, stmt(op, ext4)))
    out.append("}")
    if terms is None:
        terms = terms_of(seq)
    out.append(forall_of(terms))
    return "\n".join(out) + "\n"


ITEM_RE = re.compile(r"([\w.\[\]():]+)=(-?\w+)(?: \([^)]*\))?;")
ERRNO = {"EAGAIN": 11, "EINVAL": 22, "EFAULT": 14, "EIO": 5, "EFBIG": 27,
         "EOPNOTSUPP": 95, "ENOSPC": 28, "EBUSY": 16, "ENOTBLK": 15}
ERR_RE = re.compile(r"^(\S+?\.litmus):\d+:\d+: error: (.*)$", re.M)


def model_batch(wpsim, seqs):
    """One `wpsim check` over every chunk of every sequence: the first
    (default) execution of each, the model's sequential answer."""
    tmp = tempfile.mkdtemp(prefix="wpsim-dk-", dir=image_dir())
    owner = {}
    try:
        for i, seq in enumerate(seqs):
            for j, ch in enumerate(chunks(terms_of(seq))):
                name = os.path.join(tmp, "s%05d-c%02d.litmus" % (i, j))
                with open(name, "w") as fl:
                    fl.write(litmus(seq, ch))
                owner[name] = i
        results = [{"vals": {}, "outcome": "ok"} for _ in seqs]
        names = sorted(owner)
        for g in range(0, len(names), FILES_PER_CHECK):
            group = {n: owner[n] for n in names[g:g + FILES_PER_CHECK]
                     if "error" not in results[owner[n]]}
            check_files(wpsim, group, results)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return [answer_of(seq, r) for seq, r in zip(seqs, results)]


# `wpsim check` takes at most 4096 files (ARGS_MAX, tools/wpsim/main.c)
# and leaves out the rest without a word: a batch is checked in groups.
FILES_PER_CHECK = 2048


def check_files(wpsim, owner, results):
    """One `wpsim check` over the files of @owner (file -> sequence
    index), their answers into @results; a file the loader rejects marks
    its sequence's error and the rest is checked again."""
    while owner:
        p = subprocess.run([wpsim, "check", "--format", "json",
                            "--strategy", "dfs", "--executions", "1"] +
                           sorted(owner), capture_output=True,
                           text=True)
        if p.returncode == 2:
            bad = ERR_RE.findall(p.stderr)
            if not bad:
                raise RuntimeError("wpsim check: " + p.stderr[-400:])
            for name, msg in bad:
                if name in owner:
                    i = owner[name]
                    results[i]["error"] = msg
                    for n in [n for n, o in owner.items() if o == i]:
                        del owner[n]
            continue
        seen = set()
        for line in p.stdout.splitlines():
            if not line.startswith("{"):
                continue
            d = json.loads(line)
            seen.add(d["file"])
            i = owner[d["file"]]
            r = results[i]
            if d.get("error"):
                r["error"] = d["error"]
            st = d["states"][0]["state"] if d["states"] else ""
            for k, v in ITEM_RE.findall(st):
                r["vals"][k] = -ERRNO.get(v[1:], 999) \
                    if v.startswith("-E") else int(v)
            oc = [k for k, v in d["outcomes"].items() if v]
            if d.get("unexpected"):
                u = d["unexpected"]
                r["outcome"] = "%s: %s" % (u["kind"], u["message"][:200])
            elif oc:
                r["outcome"] = oc[0]
        if len(seen) != len(owner):
            raise RuntimeError("wpsim check answered %d of %d files" %
                               (len(seen), len(owner)))
        break


def model_run(wpsim, seq):
    return model_batch(wpsim, [seq])[0]


def answer_of(seq, r):
    if "error" in r:
        return {"error": r["error"]}
    vals = r["vals"]
    ans = {"outcome": r["outcome"]}
    ans["ret"] = [vals.get("0:r%d" % i, 0) for i in range(len(seq.ops))]
    size = vals.get("f.i_size", 0)
    ans["size"] = size
    ans["cache"] = (vals.get("f.nrpages", 0),
                    sum(vals.get("f.folio[%d].dirty" % p, 0)
                        for p in range(seq.window // PAGE)))
    nblk = seq.window // seq.bsize
    letters = []
    for b in range(nblk):
        if vals.get("f.block[%d].delalloc" % b):
            letters.append("D")
        elif vals.get("f.block[%d].unwritten" % b):
            letters.append("U")
        elif vals.get("f.block[%d].written" % b):
            letters.append("W")
        else:
            letters.append("H")
    ans["map"] = "".join(letters)
    # What a read finds: the cache where a folio holds the sector (a
    # written block's sector that is not uptodate, neither PG_uptodate
    # nor its iomap_folio_state bit, and that the cache has as 0 was
    # never read: the disk's), else the disk in a written block, else
    # zeroes.
    data = []
    for s in range(-(-min(size, seq.window) // 512)):
        b = s * 512 // seq.bsize
        c = vals.get("f.cache[%d]" % s, -1)
        dsk = vals.get("f.disk[%d]" % s, 0)
        upt = vals.get("f.uptodate[%d]" % s, 0)
        if c != -1 and not (upt == 0 and c == 0 and letters[b] == "W"):
            data.append(c)
        elif letters[b] == "W":
            data.append(dsk)
        else:
            data.append(0)
    ans["data"] = data
    return ans


# ---- comparison ----------------------------------------------------------

def compare(seq, k, m):
    """The fields where kernel answer k and model answer m differ."""
    if "error" in m:
        return ["model-rejects"]
    diffs = []
    if m.get("outcome", "ok") != "ok":
        diffs.append("model-outcome")
    for i, (a, b) in enumerate(zip(k["ret"], m["ret"])):
        if a != b:
            diffs.append("ret:%d" % i)
    if k["size"] != m["size"]:
        diffs.append("size")
    # Blocks past EOF: XFS may keep speculative preallocation there
    # (its own class, compared inside EOF only).
    eof_blk = -(-max(k["size"], m["size"]) // seq.bsize)
    if k["map"][:eof_blk] != m["map"][:eof_blk]:
        diffs.append("map")
    elif k["map"] != m["map"]:
        diffs.append("map-past-eof")
    if k["cache"] != m["cache"]:
        diffs.append("cache")
    if k["data"] != m["data"]:
        diffs.append("data")
    return diffs


def op_name(op):
    if op[0] in ("pwrite", "dwrite", "pread") and str(op[3]) != "0":
        return "%s[%s]" % (op[0], op[3])
    if op[0] == "falloc" and op[3]:
        return "falloc[KEEP]"
    return op[0]


def klass(seq, diffs):
    """A class: the fields that differ and the ops of the (shrunk)
    sequence, with flags; the statement named by a ret: difference."""
    fields = sorted({d.split(":")[0] for d in diffs})
    rets = [int(d.split(":")[1]) for d in diffs if d.startswith("ret:")
            and int(d.split(":")[1]) < len(seq.ops)]
    focus = op_name(seq.ops[rets[0]]) if rets else \
        (op_name(seq.ops[-1]) if seq.ops else "init")
    return "%s %s: %s @ %s" % (seq.fs, seq.bsize, "+".join(fields), focus)


def shrink_many(items, kern, wpsim):
    """Shrink each (seq, diffs) of @items: drop statements, then simplify
    the initial state, while the sequence still disagrees in the same
    first field (both sides run again).  Each round tries every single
    deletion of every sequence still shrinking at once (one kernel
    batch, one wpsim process) and keeps, per sequence, the deletion of
    the last statement that still disagrees.  Returns per item the
    smallest sequence and its (kernel answer, model answer, differing
    fields), or None for those if no smaller one disagrees."""
    firsts = [d[0].split(":")[0] for _, d in items]
    best = [seq for seq, _ in items]
    got = [None] * len(items)

    def still_many(cands):
        """cands: [(item index, sequence)]; per candidate the result or
        None."""
        seqs = [t for _, t in cands]
        ks = kern.run_all(seqs)
        ms = model_batch(wpsim, seqs)
        out = []
        for (i, t), k, m in zip(cands, ks, ms):
            d = compare(t, k, m) if k is not None else []
            out.append((k, m, d) if d and d[0].split(":")[0] == firsts[i]
                       else None)
        return out

    def round_of(cands):
        res = still_many(cands)
        moved = set()
        for (i, t), r in zip(cands, res):
            if r and i not in moved:
                best[i], got[i] = t, r
                moved.add(i)
        return moved

    active = set(i for i in range(len(items)) if best[i].ops)
    while active:
        cands = []
        for i in sorted(active):
            b = best[i]
            cands += [(i, Seq(b.fs, b.bsize, b.window, b.size, b.layout,
                              b.ops[:j] + b.ops[j + 1:]))
                      for j in range(len(b.ops) - 1, -1, -1)]
        active = set(i for i in round_of(cands) if best[i].ops)
    cands = []
    for i, b in enumerate(best):
        for size, layout in ((0, ""), (b.size, "H" * len(b.layout)),
                             (b.size, "W" * len(b.layout))):
            if (size, layout) != (b.size, b.layout):
                cands.append((i, Seq(b.fs, b.bsize, b.window, size, layout,
                                     b.ops)))
    if cands:
        round_of(cands)
    return list(zip(best, got))


def show(seq, k, m, diffs, out):
    print("---- disagreement: %s" % ", ".join(diffs), file=out)
    print(seq.text().rstrip(), file=out)
    print("  kernel: ret %s size %s map %s cache %s" %
          (k["ret"], k["size"], k["map"], k["cache"]), file=out)
    print("          data %s" % " ".join(map(str, k["data"])), file=out)
    if "error" in m:
        print("  model:  %s" % m["error"], file=out)
        return
    print("  model:  ret %s size %s map %s cache %s outcome %s" %
          (m["ret"], m["size"], m["map"], m["cache"], m["outcome"]),
          file=out)
    print("          data %s" % " ".join(map(str, m["data"])), file=out)


# ---- mounts --------------------------------------------------------------

def mount_all(tmp, names):
    mounts = {}
    for name in names:
        fs, bs = CONFIGS[name]
        img = os.path.join(tmp, name + ".img")
        mnt = os.path.join(tmp, name)
        os.makedirs(mnt, exist_ok=True)
        with open(img, "wb") as fimg:
            fimg.truncate(512 << 20)
        mkfs = (["mkfs.xfs", "-q", "-f", "-b", "size=%d" % bs] if fs == "xfs"
                else ["mkfs.ext4", "-q", "-F", "-b", str(bs)])
        if subprocess.run(mkfs + [img]).returncode != 0 or \
           subprocess.run(["mount", "-o", "loop,noatime", img,
                           mnt]).returncode != 0:
            raise OSError("cannot make or mount " + name)
        mounts[fs, bs] = mnt
    return mounts


def umount_all(mounts):
    for mnt in mounts.values():
        subprocess.run(["umount", mnt])


def build_runner(out):
    src = os.path.join(HERE, "runner.c")
    subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-D_GNU_SOURCE", "-o",
                    out, src], check=True)


# ---- commands ------------------------------------------------------------

def image_dir():
    """Where the loop images live: tmpfs when there is one (the device
    is then memory: a sequence's fsyncs cost microseconds, not a
    virtual disk's flush), else the temporary directory."""
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        return "/dev/shm"
    return None


def cmd_run(args):
    if os.geteuid() != 0:
        print("diff-kernel: needs root (loop mounts)")
        return 77
    names = args.configs.split(",")
    if len(names) > 1 and args.jobs > 1:
        return run_parallel(args, names)
    tmp = tempfile.mkdtemp(prefix="wpsim-diff-kernel-",
                           dir=args.images or image_dir())
    runner = os.path.join(tmp, "runner")
    build_runner(runner)
    try:
        mounts = mount_all(tmp, names)
    except OSError as e:
        print("diff-kernel: %s" % e)
        shutil.rmtree(tmp, ignore_errors=True)
        return 77
    kern = Kernel(runner, mounts, args.init)
    stats = {}
    classes = {}
    shrunk = {}
    keep = open(args.keep, "a") if args.keep else None
    differ = open(args.keep_differ, "a") if args.keep_differ else None
    log = open(args.log, "a") if args.log else sys.stdout
    t0 = time.time()
    deadline = t0 + args.seconds if args.seconds else None
    spent = {"kernel": 0.0, "model": 0.0, "settle": 0.0, "shrink": 0.0}
    for name in names:
        stats[name] = {"seq": 0, "ops": 0, "unstable": 0, "agree": 0,
                       "differ": 0, "settled": 0}
    try:
        n = 0
        while n < args.n:
            if deadline and time.time() > deadline:
                break
            batch = []
            for name in names:
                fs, bs = CONFIGS[name]
                for j in range(n, min(n + args.batch, args.n)):
                    rng = random.Random("%d-%s-%d" % (args.seed, name, j))
                    batch.append((name, j,
                                  gen(rng, fs, bs,
                                      rng.randint(1, args.max_ops))))
            n += args.batch
            seqs = [b[2] for b in batch]
            t = time.time()
            firsts = kern.run_many(seqs)
            spent["kernel"] += time.time() - t
            t = time.time()
            models = model_batch(args.wpsim, seqs)
            spent["model"] += time.time() - t
            # Only a disagreement is run again: an answer is kept when
            # two runs give it (Kernel.settle_many), all of a batch's
            # disagreements in one go.
            ks = [parse_answer(a) for a in firsts]
            dis = [i for i, (seq, k, m) in enumerate(zip(seqs, ks, models))
                   if compare(seq, k, m)]
            if dis:
                t = time.time()
                got = kern.settle_many([seqs[i] for i in dis],
                                       [firsts[i] for i in dis])
                spent["settle"] += time.time() - t
                for i, k in zip(dis, got):
                    ks[i] = k
                    stats[batch[i][0]]["settled"] += 1
            pend = []
            for (name, j, seq), k, m in zip(batch, ks, models):
                st = stats[name]
                if k is None:
                    st["unstable"] += 1
                    continue
                diffs = compare(seq, k, m)
                st["seq"] += 1
                st["ops"] += len(seq.ops)
                if keep and j % args.keep_every == 0:
                    keep.write("# seed %d %s %d\n%s%s\n" % (
                        args.seed, name, j, seq.text(), answer_text(k)))
                if not diffs:
                    st["agree"] += 1
                    continue
                st["differ"] += 1
                if differ:
                    differ.write("# seed %d %s %d: %s\n%s%s\n" % (
                        args.seed, name, j, ", ".join(diffs), seq.text(),
                        answer_text(k)))
                sig = "+".join(sorted({d.split(":")[0] for d in diffs}))
                sig = "%s %s" % (name, sig)
                shrunk[sig] = shrunk.get(sig, 0) + 1
                if shrunk[sig] > args.shrink_max:
                    c = "%s %s: %s (not shrunk)" % (seq.fs, seq.bsize,
                                                   sig.split(" ", 1)[1])
                    classes.setdefault(c, [0, seq])[0] += 1
                    continue
                pend.append((name, j, seq, k, m, diffs))
            if pend:
                t = time.time()
                if args.shrink:
                    shrunk_to = shrink_many([(p[2], p[5]) for p in pend],
                                            kern, args.wpsim)
                else:
                    shrunk_to = [(p[2], None) for p in pend]
                spent["shrink"] += time.time() - t
                for (name, j, seq, k, m, diffs), (small, got) in \
                        zip(pend, shrunk_to):
                    ks_, ms, ds = got if got is not None else (k, m, diffs)
                    c = klass(small, ds)
                    if c not in classes:
                        classes[c] = [0, small]
                        print("==== new class: %s (seed %d %s #%d)" %
                              (c, args.seed, name, j), file=log)
                        show(small, ks_, ms, ds, log)
                        log.flush()
                    classes[c][0] += 1
            if args.progress:
                el = time.time() - t0
                done = sum(st["seq"] + st["unstable"]
                           for st in stats.values())
                print("progress %s %.0fs: %s sequences (%.2f/s); "
                      "kernel %.0fs model %.0fs settle %.0fs shrink %.0fs"
                      % (time.strftime("%H:%M:%S", time.gmtime()), el,
                         " ".join("%s %d" % (nm, stats[nm]["seq"])
                                  for nm in names),
                         done / el if el else 0, spent["kernel"],
                         spent["model"], spent["settle"], spent["shrink"]),
                      file=log)
                log.flush()
    except KeyboardInterrupt:
        print("\n==== stopped by a signal", file=log)
    finally:
        kern.close()
        umount_all(mounts)
        shutil.rmtree(tmp, ignore_errors=True)
        if keep:
            keep.close()
        if differ:
            differ.close()
    elapsed = time.time() - t0
    spent["cpu"] = cpu_seconds()
    if args.summary:
        with open(args.summary, "w") as fsum:
            json.dump({"stats": stats, "spent": spent, "elapsed": elapsed,
                       "classes": {c: [v[0], v[1].text()]
                                   for c, v in classes.items()}}, fsum)
    print_summary(args, names, stats, {c: v[0] for c, v in classes.items()},
                  spent, elapsed, log)
    return 1 if classes else 0


def cpu_seconds():
    """User and system CPU time of this process and its waited-for
    children (the runner and every wpsim): what a loaded machine lets
    one measure.  The kernel's own threads (the loop device, the log)
    are not in it."""
    s = resource.getrusage(resource.RUSAGE_SELF)
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def print_summary(args, names, stats, classes, spent, elapsed, log):
    print("\n==== summary (seed %d, kernel %s, %s, %.0f s)" %
          (args.seed, os.uname().release,
           time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), elapsed),
          file=log)
    for name in names:
        st = stats.get(name, {})
        print("%-8s sequences %d ops %d agree %d differ %d unstable %d "
              "(run again: %d)" %
              (name, st.get("seq", 0), st.get("ops", 0), st.get("agree", 0),
               st.get("differ", 0), st.get("unstable", 0),
               st.get("settled", 0)), file=log)
    print("time: kernel %.0f s, model %.0f s, kernel again for "
          "disagreements %.0f s, shrinking %.0f s (summed over jobs)" %
          (spent["kernel"], spent["model"], spent["settle"],
           spent["shrink"]), file=log)
    nseq = sum(st.get("seq", 0) + st.get("unstable", 0)
               for st in stats.values())
    if spent.get("cpu"):
        print("cpu: %.1f s (this tool, the runners and wpsim; kernel "
              "threads not counted), %.2f ms per sequence; load average "
              "%s" % (spent["cpu"], 1000.0 * spent["cpu"] / max(nseq, 1),
                      " ".join(open("/proc/loadavg").read().split()[:3])),
              file=log)
    for c, count in sorted(classes.items(), key=lambda x: -x[1]):
        print("%6d  %s" % (count, c), file=log)
    log.flush()


def run_parallel(args, names):
    """One child run per configuration, in parallel (each its own loop
    filesystem, runner and model batches); the summaries merged."""
    tmp = tempfile.mkdtemp(prefix="wpsim-diff-kernel-jobs-")
    base = args.log or os.path.join(tmp, "run.log")
    kids = []
    for name in names:
        cmd = [sys.executable, os.path.abspath(__file__), "--wpsim",
               args.wpsim, "run", "--configs", name, "--n", str(args.n),
               "--seed", str(args.seed), "--seconds", str(args.seconds),
               "--max-ops", str(args.max_ops), "--batch", str(args.batch),
               "--shrink-max", str(args.shrink_max), "--jobs", "1",
               "--init", args.init,
               "--log", "%s.%s" % (base, name),
               "--summary", os.path.join(tmp, name + ".json")]
        if args.keep:
            cmd += ["--keep", "%s.%s" % (args.keep, name),
                    "--keep-every", str(args.keep_every)]
        if args.keep_differ:
            cmd += ["--keep-differ", "%s.%s" % (args.keep_differ, name)]
        if not args.shrink:
            cmd.append("--no-shrink")
        if args.progress:
            cmd.append("--progress")
        if args.images:
            cmd += ["--images", args.images]
        kids.append(subprocess.Popen(cmd))
    try:
        for kid in kids:
            kid.wait()
    except KeyboardInterrupt:
        for kid in kids:
            kid.send_signal(signal.SIGTERM)
        for kid in kids:
            kid.wait()
    stats, classes, elapsed = {}, {}, 0.0
    spent = {"kernel": 0.0, "model": 0.0, "settle": 0.0, "shrink": 0.0,
             "cpu": 0.0}
    for name in names:
        path = os.path.join(tmp, name + ".json")
        if not os.path.exists(path):
            continue
        d = json.load(open(path))
        stats.update(d["stats"])
        elapsed = max(elapsed, d["elapsed"])
        for key in spent:
            spent[key] += d["spent"].get(key, 0.0)
        for c, (count, _) in d["classes"].items():
            classes[c] = classes.get(c, 0) + count
    shutil.rmtree(tmp, ignore_errors=True)
    log = open(args.log, "a") if args.log else sys.stdout
    print_summary(args, names, stats, classes, spent, elapsed, log)
    print("per configuration: %s.<config>" % base, file=log)
    return 1 if classes else 0


def answer_text(k):
    lines = ["ret %d %d" % (i, r) for i, r in enumerate(k["ret"])]
    lines.append("size %d" % k["size"])
    lines.append("map %s" % k["map"])
    lines.append("cache %d %d" % k["cache"])
    lines.append("data %s" % " ".join(map(str, k["data"])))
    return "\n".join(lines) + "\n"


def read_corpus(path):
    """Entries: '# ...' header, a sequence, the kernel's answer lines."""
    entries, cur = [], None
    for line in open(path):
        if line.startswith("# seed") or line.startswith("# case"):
            cur = {"title": line[2:].strip(), "seq": [], "ans": [],
                   "expect": None}
            entries.append(cur)
        elif line.startswith("# expect-differ"):
            cur["expect"] = line.split(None, 2)[2].strip()
        elif cur is None or line.startswith("#") or not line.strip():
            continue
        elif line.split()[0] in ("ret", "size", "map", "cache", "data"):
            cur["ans"].append(line)
        else:
            cur["seq"].append(line)
    return entries


def cmd_stats(args):
    """The model against kept sequences with the kernel's answers (no
    kernel needed): agreement per fs x block size and the fields that
    differ."""
    entries = [e for path in args.files for e in read_corpus(path)]
    seqs = [Seq.parse("".join(e["seq"])) for e in entries]
    models = model_batch(args.wpsim, seqs)
    per, fields = {}, {}
    for e, seq, m in zip(entries, seqs, models):
        k = parse_answer("".join(e["ans"]))
        d = compare(seq, k, m)
        key = "%s-%dk" % (seq.fs, seq.bsize // 1024)
        st = per.setdefault(key, [0, 0, 0])
        st[0] += 1
        st[1] += len(seq.ops)
        if d:
            st[2] += 1
            f = "%s %s" % (key, "+".join(sorted({x.split(":")[0]
                                                  for x in d})))
            fields[f] = fields.get(f, 0) + 1
    for key in sorted(per):
        n, ops, bad = per[key]
        print("%-8s sequences %d ops %d agree %d differ %d" %
              (key, n, ops, n - bad, bad))
    for f, c in sorted(fields.items(), key=lambda x: -x[1]):
        print("%6d  %s" % (c, f))
    return 0


def cmd_corpus_check(args):
    bad = 0
    n = 0
    xfail = 0
    entries = [e for path in args.files for e in read_corpus(path)]
    seqs = [Seq.parse("".join(e["seq"])) for e in entries]
    models = model_batch(args.wpsim, seqs)
    for e, seq, m in zip(entries, seqs, models):
        if True:
            k = parse_answer("".join(e["ans"]))
            diffs = compare(seq, k, m)
            n += 1
            if e["expect"]:
                if diffs:
                    xfail += 1
                    print("xfail %s: %s (%s)" % (e["title"], e["expect"],
                                                 ", ".join(diffs)))
                else:
                    bad += 1
                    print("XPASS %s: %s now agrees: remove its "
                          "expect-differ line" % (e["title"], e["expect"]))
                continue
            if diffs:
                bad += 1
                show(seq, k, m, diffs, sys.stdout)
                print("FAIL %s: %s" % (e["title"], ", ".join(diffs)))
    print("%d sequences: %d agree, %d expected to differ (known "
          "divergences), %d wrong" % (n, n - xfail - bad, xfail, bad))
    return 1 if bad else 0


# ---- reachability: is the kernel's answer one of the model's? -----------

# The oracle compares with the model's first execution, which runs the
# sequence's thread ahead of every I/O completion.  The kernel's loop
# device completes I/O between two syscalls or not, as it happens
# (class Q, docs/model/fidelity.md): its answer is then one of the
# model's other executions.  `reach` explores each disagreeing sequence
# exhaustively (DPOR, at most --executions executions) and looks for the
# kernel's answer among the distinct final states.
STATES_KEPT_MAX = 4096      # tools/wpsim/check.h: states a check keeps


def reach_batch(wpsim, seqs, kerns, cap, progress=False):
    """For each (seq, kernel answer): 'reachable', 'unreachable' (every
    execution explored, the answer in none of them) or 'not decided'
    (with the reason).  Sequences whose terms do not fit one scenario's
    printed state are not decided (their chunks' states cannot be
    joined)."""
    tmp = tempfile.mkdtemp(prefix="wpsim-dk-reach-", dir=image_dir())
    verdicts = [None] * len(seqs)
    owner = {}
    try:
        for i, seq in enumerate(seqs):
            ch = chunks(terms_of(seq))
            if len(ch) != 1:
                verdicts[i] = ("not decided", "state over one scenario")
                continue
            name = os.path.join(tmp, "r%05d.litmus" % i)
            with open(name, "w") as fl:
                fl.write(litmus(seq, ch[0]))
            owner[name] = i
        names = sorted(owner)
        # First the exhaustive search (the only one that can say
        # "unreachable"); then, for what it left undecided, searches
        # that cover less but reach other corners (a found state is
        # proof whatever found it): one preemption, random walks, and
        # PCT (random priorities with a few change points: it reaches
        # an I/O completion that comes before a later syscall, which
        # the other two rarely did; twelfth session, three of 23).
        passes = [["--exhaustive"], ["--strategy", "dpor",
                                     "--preemptions", "1"],
                  ["--strategy", "random", "--seed", "1"],
                  ["--strategy", "pct", "--seed", "1"]]
        for pi, how in enumerate(passes):
            if pi:
                names = [n for n in sorted(owner)
                         if verdicts[owner[n]][0] == "not decided"]
            for g in range(0, len(names), 64):
                group = names[g:g + 64]
                if progress:
                    print("reach: pass %d, %d of %d sequences" %
                          (pi + 1, g, len(names)), file=sys.stderr,
                          flush=True)
                reach_group(wpsim, group, how, cap, pi, owner, seqs,
                            kerns, verdicts)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return verdicts


def reach_group(wpsim, group, how, cap, pi, owner, seqs, kerns, verdicts):
    """One `wpsim check` of @group with the search @how; pass @pi > 0
    only turns "not decided" into "reachable"."""
    p = subprocess.run([wpsim, "check", "--format", "json",
                        "--executions", str(cap)] + how
                       + group, capture_output=True, text=True)
    for line in p.stdout.splitlines():
        if not line.startswith("{"):
            continue
        d = json.loads(line)
        i = owner.get(d["file"])
        if i is None:
            continue
        if d.get("error"):
            if not pi:
                verdicts[i] = ("not decided", "model error")
            continue
        found = False
        for st in d["states"]:
            r = {"vals": {}, "outcome": "ok"}
            for k, v in ITEM_RE.findall(st["state"]):
                r["vals"][k] = -ERRNO.get(v[1:], 999) \
                    if v.startswith("-E") else int(v)
            if not compare(seqs[i], kerns[i], answer_of(seqs[i], r)):
                found = True
                break
        if found:
            verdicts[i] = ("reachable", "%s, %d executions" %
                           (" ".join(how), d["executions"]))
        elif pi:
            continue
        elif not d["complete"]:
            verdicts[i] = ("not decided", "%d executions, not "
                           "complete" % d["executions"])
        elif len(d["states"]) >= STATES_KEPT_MAX:
            verdicts[i] = ("not decided", "states over %d" %
                           STATES_KEPT_MAX)
        else:
            verdicts[i] = ("unreachable", "%d executions" %
                           d["executions"])
    for n in group:
        if verdicts[owner[n]] is None:
            verdicts[owner[n]] = ("not decided", "no answer")


def cmd_reach(args):
    """Kept disagreements (differ files, corpus files): the model's first
    execution against the kernel, then, where they differ, whether the
    kernel's answer is among the model's executions."""
    entries = [e for path in args.files for e in read_corpus(path)]
    seqs = [Seq.parse("".join(e["seq"])) for e in entries]
    kerns = [parse_answer("".join(e["ans"])) for e in entries]
    firsts = model_batch(args.wpsim, seqs)
    todo = [i for i, (seq, k, m) in enumerate(zip(seqs, kerns, firsts))
            if compare(seq, k, m)]
    verdicts = reach_batch(args.wpsim, [seqs[i] for i in todo],
                           [kerns[i] for i in todo], args.executions,
                           progress=True)
    per = {}
    for i, seq in enumerate(seqs):
        key = "%s-%dk" % (seq.fs, seq.bsize // 1024)
        per.setdefault(key, {"sequences": 0, "agree": 0, "reachable": 0,
                             "unreachable": 0, "not decided": 0})
        per[key]["sequences"] += 1
        if i not in todo:
            per[key]["agree"] += 1
    out = open(args.keep, "w") if args.keep else None
    for i, (v, why) in zip(todo, verdicts):
        seq = seqs[i]
        key = "%s-%dk" % (seq.fs, seq.bsize // 1024)
        per[key][v] += 1
        if out and v != "reachable":
            out.write("# %s (%s: %s)\n" % (entries[i]["title"], v, why))
            out.write(seq.text() + answer_text(kerns[i]) + "\n")
    if out:
        out.close()
    print("%-8s %9s %7s %9s %11s %11s" % ("config", "sequences", "agree",
                                          "reachable", "unreachable",
                                          "not decided"))
    for key in sorted(per):
        c = per[key]
        print("%-8s %9d %7d %9d %11d %11d" % (
            key, c["sequences"], c["agree"], c["reachable"],
            c["unreachable"], c["not decided"]))
    return 0


def cmd_replay(args):
    tmp = tempfile.mkdtemp(prefix="wpsim-diff-kernel-")
    runner = os.path.join(tmp, "runner")
    build_runner(runner)
    seqs = [Seq.parse(open(p).read()) for p in args.files]
    names = sorted({"%s-%dk" % (s.fs, s.bsize // 1024) for s in seqs})
    mounts = mount_all(tmp, names)
    try:
        kern = Kernel(runner, mounts)
        for s in seqs:
            k = kern.run(s)
            m = model_run(args.wpsim, s)
            diffs = compare(s, k, m) if k else ["kernel-unstable"]
            if k:
                show(s, k, m, diffs or ["none"], sys.stdout)
    finally:
        kern.close()
        umount_all(mounts)
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


def cmd_model(args):
    seqs = [Seq.parse(open(p).read()) for p in args.files]
    for s, m in zip(seqs, model_batch(args.wpsim, seqs)):
        if "error" in m:
            print("model: %s" % m["error"])
            continue
        print("model: ret %s size %s map %s cache %s outcome %s" %
              (m["ret"], m["size"], m["map"], m["cache"], m["outcome"]))
        print("       data %s" % " ".join(map(str, m["data"])))
    return 0


def cmd_corpus_make(args):
    """Cases (sequences with titles and expect-differ labels, no answers)
    run on the kernel, plus kept random sequences the model agrees with
    (at most --agree-max per fs x block size), into one corpus file."""
    if os.geteuid() != 0:
        print("diff-kernel: needs root (loop mounts)")
        return 77
    cases = read_corpus(args.cases)
    kept = [e for path in args.keep for e in read_corpus(path)]
    tmp = tempfile.mkdtemp(prefix="wpsim-diff-kernel-")
    runner = os.path.join(tmp, "runner")
    build_runner(runner)
    mounts = mount_all(tmp, sorted(CONFIGS))
    out = ["# tools/diff-kernel corpus: sequences and the kernel's answers",
           "# kernel %s, %s; XFS and ext4 loop filesystems (mkfs "
           "defaults but -b size), mount -o noatime" %
           (os.uname().release, time.strftime("%Y-%m-%d", time.gmtime())),
           "# Checked against the model by tests/fidelity (fidelity-corpus)"
           "; `# expect-differ` marks a known divergence (the issue item "
           "or class of docs/model/fidelity.md)", ""]
    try:
        kern = Kernel(runner, mounts)
        for e in cases:
            seq = Seq.parse("".join(e["seq"]))
            k = kern.run(seq)
            if k is None:
                print("unstable: %s" % e["title"])
                continue
            out.append("# %s" % e["title"])
            if e["expect"]:
                out.append("# expect-differ %s" % e["expect"])
            out.append(seq.text() + answer_text(k))
    finally:
        kern.close()
        umount_all(mounts)
        shutil.rmtree(tmp, ignore_errors=True)
    seqs = [Seq.parse("".join(e["seq"])) for e in kept]
    models = model_batch(args.wpsim, seqs)
    per = {}
    for e, seq, m in zip(kept, seqs, models):
        k = parse_answer("".join(e["ans"]))
        key = (seq.fs, seq.bsize)
        if compare(seq, k, m) or per.get(key, 0) >= args.agree_max:
            continue
        per[key] = per.get(key, 0) + 1
        out.append("# %s" % e["title"])
        out.append(seq.text() + "".join(e["ans"]))
    with open(args.out, "w") as f:
        f.write("\n".join(out))
    print("%d cases, agreeing random sequences: %s" %
          (len(cases), ", ".join("%s %d: %d" % (k[0], k[1], v)
                                 for k, v in sorted(per.items()))))
    return 0


def cmd_init_check(args):
    """The runner's two ways of making the initial file (O_DIRECT writes
    and fallocate, no fsync: the default; buffered writes, fsync and
    POSIX_FADV_DONTNEED: --init fsync, the old one) against each other
    on the same random sequences and on kept corpora: every answer both
    give stably must be the same."""
    if os.geteuid() != 0:
        print("diff-kernel: needs root (loop mounts)")
        return 77
    names = args.configs.split(",")
    tmp = tempfile.mkdtemp(prefix="wpsim-diff-kernel-", dir=image_dir())
    runner = os.path.join(tmp, "runner")
    build_runner(runner)
    mounts = mount_all(tmp, names)
    new = Kernel(runner, mounts, "direct", "t")
    old = Kernel(runner, mounts, "fsync", "u")
    per = {}
    try:
        seqs = []
        for path in args.corpus:
            seqs += [Seq.parse("".join(e["seq"])) for e in read_corpus(path)
                     if "%s-%dk" % (Seq.parse("".join(e["seq"])).fs,
                                    Seq.parse("".join(e["seq"])).bsize
                                    // 1024) in names]
        for name in names:
            fs, bs = CONFIGS[name]
            for j in range(args.n):
                rng = random.Random("%d-%s-%d" % (args.seed, name, j))
                seqs.append(gen(rng, fs, bs, rng.randint(1, 8)))
        for i in range(0, len(seqs), 200):
            part = seqs[i:i + 200]
            a = new.run_all(part)
            b = old.run_all(part)
            for seq, x, y in zip(part, a, b):
                key = "%s-%dk" % (seq.fs, seq.bsize // 1024)
                st = per.setdefault(key, [0, 0, 0])
                if x is None or y is None:
                    st[2] += 1
                    continue
                st[0] += 1
                if x != y:
                    st[1] += 1
                    print("---- the two initial files answer differently")
                    print(seq.text().rstrip())
                    print("  direct: %s" % answer_text(x).replace(
                        "\n", "; "))
                    print("  fsync:  %s" % answer_text(y).replace(
                        "\n", "; "))
    finally:
        new.close()
        old.close()
        umount_all(mounts)
        shutil.rmtree(tmp, ignore_errors=True)
    bad = 0
    for key in sorted(per):
        same, differ, unstable = per[key]
        bad += differ
        print("%-8s sequences %d same %d differ %d unstable %d" %
              (key, same + differ, same, differ, unstable))
    return 1 if bad else 0


def interrupted(signum, frame):
    raise KeyboardInterrupt


def main():
    # SIGTERM and SIGINT (ignored in a background job) stop a run
    # cleanly: the loop filesystems are unmounted and the summary printed.
    signal.signal(signal.SIGTERM, interrupted)
    signal.signal(signal.SIGINT, interrupted)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wpsim", default=os.path.join(ROOT, "build", "wpsim"))
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--configs", default="xfs-1k,xfs-4k,ext4-1k,ext4-4k")
    r.add_argument("--n", type=int, default=200)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--seconds", type=int, default=0)
    r.add_argument("--max-ops", type=int, default=8)
    r.add_argument("--keep", help="append kept sequences and answers here")
    r.add_argument("--keep-every", type=int, default=1)
    r.add_argument("--keep-differ", help="append every disagreeing "
                   "sequence and the kernel's answer here (to check a "
                   "fixed model against them: stats)")
    r.add_argument("--batch", type=int, default=500,
                   help="sequences per configuration sent to the kernel "
                   "and to one wpsim process at once")
    r.add_argument("--log")
    r.add_argument("--no-shrink", dest="shrink", action="store_false")
    r.add_argument("--shrink-max", type=int, default=8,
                   help="disagreements shrunk per config and field set")
    r.add_argument("--jobs", type=int, default=4,
                   help="configurations run in parallel (one process each)")
    r.add_argument("--summary", help="the run's counts as JSON")
    r.add_argument("--progress", action="store_true",
                   help="a progress line per batch in the log")
    r.add_argument("--init", choices=["fsync", "direct"], default="fsync",
                   help="how the runner makes the initial file: buffered "
                   "writes, fsync and POSIX_FADV_DONTNEED (default), or "
                   "O_DIRECT writes and fallocate (see init-check)")
    r.add_argument("--images", help="where the loop images go "
                   "(default /dev/shm)")
    c = sub.add_parser("corpus-check")
    c.add_argument("files", nargs="+")
    p = sub.add_parser("replay")
    p.add_argument("files", nargs="+")
    cm = sub.add_parser("corpus-make")
    cm.add_argument("cases")
    cm.add_argument("out")
    cm.add_argument("--keep", nargs="*", default=[])
    cm.add_argument("--agree-max", type=int, default=40)
    ic = sub.add_parser("init-check")
    ic.add_argument("--configs", default="xfs-1k,xfs-4k,ext4-1k,ext4-4k")
    ic.add_argument("--n", type=int, default=500)
    ic.add_argument("--seed", type=int, default=1)
    ic.add_argument("corpus", nargs="*")
    stt = sub.add_parser("stats")
    stt.add_argument("files", nargs="+")
    mo = sub.add_parser("model")
    mo.add_argument("files", nargs="+")
    re_ = sub.add_parser("reach", help="kept disagreements: is the "
                         "kernel's answer among the model's executions")
    re_.add_argument("files", nargs="+")
    re_.add_argument("--executions", type=int, default=20000,
                     help="executions per sequence before 'not decided'")
    re_.add_argument("--keep", help="write the sequences whose answer "
                     "is not reachable (or not decided) here")
    args = ap.parse_args()
    return {"run": cmd_run, "corpus-check": cmd_corpus_check,
            "replay": cmd_replay, "model": cmd_model,
            "corpus-make": cmd_corpus_make,
            "stats": cmd_stats, "init-check": cmd_init_check,
            "reach": cmd_reach}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
