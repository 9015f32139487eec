#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/seed-tables.py WPSIM SOURCE-ROOT [--table NAME]... [--out DIR]
                       [--jobs N,N...] [--seed002-engine ENGINE]
                       [--seed004-size SIZE] [--seed000-t4-iosize SIZE]

The seeds' performance tables (/work/shared/seeds, docs/seed-tables.md)
run in the model: every row of every table under each variant the seed
compares, through `wpsim fio` on the job files in experiments/, with the
device and CPU profile of the seed's hardware.  Prints, per table, the
seed's column beside the model's, every ratio column (speedup, %, after/
before) with its error, and a summary: rows whose ratio is within +-20%
of the seed's, rows with the seed's winner.  A row the model cannot run
prints wpsim's own error (the missing path or bound).  A second count,
"scored", leaves out the rows a profile figure was derived from (FITTED)
and those whose winner the seed's own spread does not decide (seed 002:
two columns that run the same code; seed002_spread), each named in a
note (docs/seed-tables.md, session 20).

--seed002-engine runs seed 002's measured writes with another fio
ioengine (default psync; the seed names none: docs/seed-tables.md,
session 19, measures libaio at fio's default iodepth of 1).

--seed004-size gives seed 004's file another size (fio's size=, default
256k; the seed gives none: docs/seed-tables.md, session 21, shows how
the model's ratio turns on it through fio's wrap).

--seed000-t4-iosize gives each job of seed 000's table 4 that many bytes
to write (fio's io_size=) in place of the default 64 MiB over the row's
jobs; the seed's own is its --size=5G per job (docs/seed-tables.md,
session 25, shows how the model's columns settle with the run's length).

With --out DIR it also writes DIR/NAME.dat (gnuplot data) per table;
bench/seed-plots.gp draws them.  No wall clock, no randomness beyond
wpsim's seeded runs: two runs print the same bytes.
"""
import json
import os
import subprocess
import sys

# The scaled-down file of a table's runs (the model's default 64 pages:
# short runs; wpsim fio raises the model's bounds for larger files).
FILE_BYTES = 256 * 1024

SEED002_JOBS = [1, 2, 4, 8, 16, 32]
# Seed 002's measured writes: the seed gives no engine; psync unless
# --seed002-engine (docs/seed-tables.md, session 19).
SEED002_ENGINE = 'psync'
# Seed 000's machine (its cover letter: "Memory : 62Gi", "Storage :
# Samsung PM173-series Enterprise NVMe SSD"): --ram is the memory the
# dirty limits are taken from (wpsim fio's default 16g is no seed's), and
# the drive is enterprise-plp's figures with the queue the kernel sets up
# on an NVMe namespace by default, blk-wbt at 2 ms
# (profiles/devices/seed000-pm173x.dev; docs/seed-tables.md, session 25).
SEED000_DEVICE = 'seed000-pm173x'
SEED000_RAM = '62g'
# Seed 004's file: the seed gives no size; 256 KiB since round 1
# (--seed004-size, docs/seed-tables.md, session 21).
SEED004_SIZE = '256k'


def t002(name, job, variants, seed_rows, ratio_of, title):
    return dict(name=name, kind='seed002', job=job, variants=variants,
                rows=seed_rows, ratio_of=ratio_of, title=title)


# Seed 002 (cover letter and patches): IOPS per variant.
S002_T1 = {1: (42322, 43329, 43087), 2: (68516, 70677, 66958),
           4: (62489, 97072, 101468), 8: (58701, 110819, 113679),
           16: (58569, 116392, 115272), 32: (60860, 117244, 119621)}
S002_T2 = {1: (15547, 15975, 17381), 2: (15910, 14808, 34172),
           4: (15014, 14828, 57567), 8: (15022, 14648, 81947),
           16: (14586, 14262, 99126), 32: (14047, 13809, 92519)}
# Seed 000: MiB/s buffered, write-through.
S000 = {
    't1': {1: (133, 133), 2: (179, 243), 4: (253, 358), 8: (366, 376),
           16: (474, 449)},
    't2': {1: (131, 391), 2: (377, 791), 4: (695, 1591), 8: (1217, 1846),
           16: (1197, 1844)},
    't3': {1: (187, 389), 2: (373, 781), 4: (706, 1568), 8: (1222, 1796)},
    't4': {1: (1323, 1275), 2: (1779, 2434), 4: (2092, 2519),
           8: (2272, 2517), 16: (2328, 2525)},
}
# The seed's own percentage column, as printed (the check that it is
# computed from the integer MiB/s above: tests/fio/test-seed-tie.py).
S000_PCT = {
    't1': {1: 0.0, 2: 35.8, 4: 41.5, 8: 2.7, 16: -5.3},
    't2': {1: 198.5, 2: 109.8, 4: 128.9, 8: 51.7, 16: 54.1},
    't3': {1: 108.0, 2: 109.4, 4: 122.1, 8: 47.0},
    't4': {1: -3.6, 2: 36.8, 4: 20.4, 8: 10.8, 16: 8.5},
}
S000_TITLE = {
    't1': 'Table 1: extending writes, libaio + O_DSYNC, one file',
    't2': 'Table 2: random overwrites, libaio + O_DSYNC, one file',
    't3': 'Table 3: random overwrites, libaio + O_DSYNC, a file each',
    't4': 'Table 4: random 16K overwrites + sync_file_range:16, one file',
}
# Seed 003: (record, flags) -> (reads/write before, after, MiB/s before,
# after).
S003 = [(47008, 'none', 0.97, 0.0005, 831, 2281),
        (47008, 'dsync', 0.99, 0.0005, 601, 1227),
        (6000, 'none', 0.97, 0.0001, 121, 488),
        (6000, 'dsync', 0.99, 0.0002, 90, 206)]
# Seed 004: before/after: MiB/s, IOPS, slat ns, clat ns, CPU %.
S004 = {'seq': ((329, 82000, 2332, 9017, 37), (1032, 264000, 3340, 60, 78)),
        'rand': ((307, 76000, 2419, 9934, 57), (909, 227000, 3780, 59, 88))}


def run_wpsim(wpsim, root, env, args):
    e = dict(os.environ)
    e.update(env)
    p = subprocess.run([wpsim, 'fio', '--output-format=json',
                        '--group-spans'] + args, cwd=root, env=e,
                       capture_output=True, text=True)
    if p.returncode != 0:
        msg = (p.stderr.strip().splitlines() or ['exit %d' % p.returncode])
        return None, None, msg[-1]
    spans = {}
    for line in p.stderr.splitlines():
        # wpsim fio: group G (NAME): N I/Os, B bytes, span S ns
        if line.startswith('wpsim fio: group '):
            w = line.split()
            spans[w[4].strip('():')] = (int(w[5]), int(w[7]), int(w[10]))
        elif line.startswith('wpsim fio: device page reads '):
            spans['device page reads'] = int(line.split()[-1])
    return json.loads(p.stdout), spans, None


def pct(model, seed):
    if seed == 0:
        return 'n/a'
    return '%+.1f%%' % (100.0 * (model - seed) / abs(seed))


def within(model, seed):
    return seed != 0 and abs(model - seed) <= 0.2 * abs(seed)


def fmt(v, nd=0):
    if v is None:
        return '-'
    if nd == 0:
        return '{:,}'.format(int(round(v)))
    return ('%.' + str(nd) + 'f') % v


class Table:
    def __init__(self, name, title, header):
        self.name = name
        self.title = title
        self.header = header
        self.lines = []
        self.dat = []
        self.ratio_ok = 0
        self.winner_ok = 0
        self.rows = 0
        self.failed = 0
        self.notes = []
        # Rows kept out of the scored count (count()): a
        # profile figure derived from the row, or a seed margin below
        # the seed's own spread.  held: the counts over the others.
        self.out_fitted = 0
        self.out_undecided = 0
        self.held = [0, 0, 0]

    def row(self, cells, dat=None):
        self.lines.append(cells)
        if dat is not None:
            self.dat.append(dat)

    def count(self, seed_ratio, model_ratio, seed_winner, model_winner,
              fitted=False, undecided=False):
        """@fitted: a profile figure was derived from this row (FITTED);
        @undecided: the seed's margin is within its own spread
        (seed002_spread).  Both rows count in the table's summary as
        before and are kept out of the scored one."""
        self.rows += 1
        self.out_fitted += 1 if fitted else 0
        self.out_undecided += 1 if undecided and not fitted else 0
        held = not fitted and not undecided
        if held:
            self.held[0] += 1
        if model_ratio is None:
            self.failed += 1
            return
        if within(model_ratio, seed_ratio):
            self.ratio_ok += 1
            if held:
                self.held[1] += 1
        if seed_winner == model_winner:
            self.winner_ok += 1
            if held:
                self.held[2] += 1

    def print(self, out):
        out.write('== %s: %s\n' % (self.name, self.title))
        widths = [max(len(str(c)) for c in col)
                  for col in zip(self.header, *self.lines)]
        for cells in [self.header] + self.lines:
            out.write('  '.join(str(c).rjust(w)
                                for c, w in zip(cells, widths)).rstrip()
                      + '\n')
        for n in self.notes:
            out.write('  note: %s\n' % n)
        out.write('summary %s: %d rows; ratio within +-20%%: %d/%d; same '
                  'winner: %d/%d; not run: %d\n'
                  % (self.name, self.rows, self.ratio_ok, self.rows,
                     self.winner_ok, self.rows, self.failed))
        if self.out_fitted or self.out_undecided:
            out.write('scored %s: %d rows (less %d a figure was derived '
                      'from, %d the seed does not decide); ratio within '
                      '+-20%%: %d; same winner: %d\n'
                      % (self.name, self.held[0], self.out_fitted,
                         self.out_undecided, self.held[1], self.held[2]))
        out.write('\n')


def winner(ratio, tie=None):
    """'after', 'before' or 'tie'.  @tie: the (lo, hi) band of ratios
    that the seed's precision cannot tell from 1 (tie_band); a model
    ratio inside it is a tie.  Without it only a ratio of exactly 1 is."""
    if tie is not None and tie[0] <= ratio <= tie[1]:
        return 'tie'
    return 'after' if ratio > 1 else ('before' if ratio < 1 else 'tie')


def tie_band(before, after, unit=1):
    """A seed's tie: the two figures it prints are equal.  The seed
    reports each to a whole @unit (seed 000: whole MiB/s, 3 or 4
    significant figures; 133 MiB/s is 3), so each is known only to
    +-@unit/2 and its true ratio lies anywhere in
    [(after - u/2) / (before + u/2), (after + u/2) / (before - u/2)];
    at 133 = 133 that is 0.99251 .. 1.00755, +-0.75%.  The seed's %
    column adds nothing: it is computed from the rounded figures
    (every row reproduces, tests/fio/test-seed-tie.py).  So a model row
    has the seed's winner (none) only if its ratio is inside that band;
    None when the seed's figures differ (no tie: the rule is the plain
    side of 1).  docs/seed-tables.md, session 17."""
    if before != after:
        return None
    h = unit / 2.0
    return ((after - h) / (before + h), (after + h) / (before - h))


# Rows a profile figure was derived from (issue 32: a figure is never
# fitted to the row it is judged by; such rows are kept out of the
# scored rows).  profiles/devices/seed002-disk.dev: cmd_ns +
# cache_ack_ns = 9 us is the seed's base plateau under the exclusive
# lock from 4 jobs on (58.6-62.5 K IOPS, ~16 us a write, less 6.8 us of
# transfer): test 1's base column at 4-32 jobs, so every test 1 ratio
# row at those job counts (docs/seed-tables.md, session 20).  No other
# profile figure of a seed was derived from a seed row (enterprise-plp:
# spec, class and assumption; the CPU profiles: default.cpu's figures,
# measured on this machine).
FITTED = {'test1': (4, 8, 16, 32)}

# Seed 002's own spread: the two columns that run the same code for a
# test's writes (test 1's aligned writes: patch 2 changes only the
# unaligned path, so +patch 1 and +patch 1+2 are one kernel path; test
# 2's unaligned writes: patch 1 changes only the aligned one, so base
# and +patch 1 are; the cover letter: "patch 1 alone has no effect
# (slight noise)").
SEED002_SAME = {'test1': (1, 2), 'test2': (0, 1)}


def seed002_spread(seed, n, group):
    """The seed's run-to-run spread at @n jobs: the larger of the two
    same-code figures over the smaller, less 1 (test 1 at 2 jobs:
    70,677 / 66,958 - 1 = 5.6%)."""
    a, b = (seed[n][c] for c in SEED002_SAME[group])
    return max(a, b) / float(min(a, b)) - 1


def undecided(seed_ratio, spread):
    """A seed's winner its own precision does not decide: its ratio is
    within the spread of 1 (1/(1+s) .. 1+s)."""
    return 1 / (1 + spread) <= seed_ratio <= 1 + spread


def seed002(wpsim, root, name, job, group, seed, cols, title, jobs,
            engine=SEED002_ENGINE):
    """cols: indexes into the seed's (base, patch1, patch2) tuple;
    @engine: the measured group's fio ioengine (ENGINE in the job
    file)."""
    variants = ['base', 'patch1', 'patch2']
    names = ['base', '+patch 1', '+patch 1+2']
    hdr = ['JOBS']
    for c in cols:
        hdr += ['seed ' + names[c], 'model', 'err']
    hdr += ['seed speedup', 'model', 'err']
    if engine != SEED002_ENGINE:
        title += ' (ioengine=%s, not the default %s)' % (engine,
                                                         SEED002_ENGINE)
    t = Table(name, title, hdr)
    for n in jobs:
        region = FILE_BYTES // n
        if group == 'test2':
            # A 16 KiB [W][U][U][W] stripe per job at least: past 16
            # jobs the file grows beyond FILE_BYTES (wpsim fio sizes
            # the model's page cache to its files).
            region = max(16384, region - region % 16384)
        cells = [str(n)]
        got = []
        err = None
        for c in cols:
            env = {'JOBS': str(n), 'REGION': str(region),
                   'REGION3': str(region - 12288),
                   'REGION2': str(region - 512), 'WARMUP': '320m',
                   'ENGINE': engine}
            d, spans, e = run_wpsim(wpsim, root, env, [
                '--fs=ext4', '--device=seed002-disk',
                '--cpu-profile=seed002', '--cpus=32',
                '--variant', 'ext4_dio=' + variants[c], job])
            if d is None:
                err = e
                got.append(None)
                cells += [fmt(seed[n][c]), '-', '-']
                continue
            ios, _, span = spans[group]
            iops = ios * 1e9 / span if span else 0
            got.append(iops)
            cells += [fmt(seed[n][c]), fmt(iops), pct(iops, seed[n][c])]
        sr = seed[n][cols[-1]] / seed[n][cols[0]]
        mr = (got[-1] / got[0]) if got[0] and got[-1] else None
        cells += ['%.2fx' % sr, '%.2fx' % mr if mr else '-',
                  pct(mr, sr) if mr else '-']
        spread = seed002_spread(seed, n, group)
        und = undecided(sr, spread)
        fit = n in FITTED.get(group, ()) and 0 in cols
        t.count(sr, mr, winner(sr), winner(mr) if mr else None,
                fitted=fit, undecided=und)
        if und:
            t.notes.append('JOBS=%d: the seed\'s ratio %.3fx is within its '
                           'own spread (+-%.1f%%: two of its columns run the '
                           'same code for these writes): its winner is not '
                           'decided; kept out of the scored rows'
                           % (n, sr, 100 * spread))
        if fit:
            t.notes.append('JOBS=%d: the base figure is one seed002-disk\'s '
                           'cmd_ns + cache_ack_ns were derived from; kept '
                           'out of the scored rows' % n)
        if err:
            t.notes.append('JOBS=%d: %s' % (n, err))
        t.row(cells, [n] + [seed[n][c] for c in cols] +
              [g if g else 'NaN' for g in got] + [sr, mr if mr else 'NaN'])
    return t


def seed000(wpsim, root, key, t4_iosize=None):
    seed = S000[key]
    title = S000_TITLE[key]
    if key == 't4' and t4_iosize:
        title += ' (%s per job, not 64 MiB over the jobs)' % t4_iosize
    t = Table('seed000-' + key, title,
              ['numjobs', 'seed buffered', 'model', 'seed writethrough',
               'model', 'seed %', 'model %', 'err'])
    for n, (b, w) in sorted(seed.items()):
        got = []
        err = None
        # The model's sizes: t1 appends 4 MiB per job (the seed gives
        # no size).  128 KiB per job until session 20 (a bound of the
        # engine's live objects then): 32 appends a job, a run that the
        # jobs' common start at the frontier decides (8 jobs: 442 / 397
        # MiB/s there, 493 / 530 at 4 MiB); from 1 MiB to 8 MiB per job
        # no row's model winner changes and each column moves by about
        # 4% at most (docs/seed-tables.md, session 20: chosen by that,
        # not by the seed's rows).  t2-t4: each job writes its file once, as the
        # seed's command lines do (fio's io_size defaults to size, and
        # fio empties the file's page cache first, invalidate=1), so a
        # write meets an uncached folio as often as in the seed; the
        # file 4 MiB (t3: 16 MiB over the jobs' files), the most the
        # engine's 65,535 live objects allowed at 16 jobs.  t4: the
        # seed's own file, 5 GiB (its --size=5G), and every row writes
        # 64 MiB in all (64 MiB / numjobs per job), 16 times the
        # enterprise-plp profile's 4 MiB write cache: on the 4 MiB file
        # with 4 MiB per job, 16 jobs' 8 MiB of writes in flight
        # covered the file twice (the buffered rows at 4-16 jobs ran at
        # 4,897-6,949 MiB/s, above the device's 3.8 GB/s), and the
        # one-job run wrote no more than the device's cache takes at
        # link speed (docs/seed-tables.md, session 15).
        # t2/t3 at the seed's 2 GiB change no winner and cost ~160 CPU
        # s more (t3 runs in the quick suite): not adopted.
        size = {'t1': 4 << 20, 't2': 4 << 20, 't4': 5 << 30,
                't3': min(4 << 20, (16 << 20) // n)}[key]
        iosize = {'t1': 4 << 20, 't4': (64 << 20) // n}.get(key, size)
        if key == 't4' and t4_iosize:
            iosize = size_bytes(t4_iosize)
        for wt in (0, 1):
            env = {'JOBS': str(n), 'WT': str(wt), 'SIZE': str(size),
                   'IOSIZE': str(iosize)}
            d, spans, e = run_wpsim(wpsim, root, env, [
                '--device=' + SEED000_DEVICE,
                '--cpu-profile=seed000-power11', '--cpus=16',
                '--ram=' + SEED000_RAM, '--variant', 'writethrough=v3',
                'experiments/seed000-%s.fio' % key])
            if d is None:
                err = e
                got.append(None)
                continue
            _, nbytes, span = spans[key]
            got.append(nbytes / span * 1e9 / 2**20 if span else 0)
        sr = w / b
        mr = got[1] / got[0] if got[0] and got[1] else None
        band = tie_band(b, w)
        t.count(sr, mr, winner(sr), winner(mr, band) if mr else None)
        if band:
            t.notes.append('numjobs=%d: the seed ties (%d = %d MiB/s, whole '
                           'MiB/s): the model ties if its ratio is within '
                           '%.5f..%.5f; it is %s' % (
                               n, b, w, band[0], band[1],
                               '%.5f' % mr if mr else 'not run'))
        t.row([str(n), fmt(b), fmt(got[0]), fmt(w), fmt(got[1]),
               '%+.1f%%' % (100 * (sr - 1)),
               '%+.1f%%' % (100 * (mr - 1)) if mr else '-',
               pct(mr, sr) if mr else '-'],
              [n, b, got[0] or 'NaN', w, got[1] or 'NaN', sr,
               mr or 'NaN'])
        if err and err not in [x.split(': ', 1)[-1] for x in t.notes]:
            t.notes.append('numjobs=%d: %s' % (n, err))
    return t


def seed003(wpsim, root):
    t = Table('seed003', '32 threads, interleaved records, one XFS file',
              ['record', 'flags', 'seed reads/write before', 'model',
               'seed after', 'model', 'seed MiB/s before', 'model',
               'seed after', 'model', 'seed after/before', 'model', 'err'])
    for rec, sync, rb, ra, mb, ma in S003:
        got = []
        rpw = []
        err = None
        # Rounds: each job writes ROUNDS records (N, N+32, ...), the
        # file at most 8 MiB (16 rounds of 6000 B, 5 of 47008 B): the
        # long run's live objects stay below the engine's 65536.
        rounds = max(1, min(16, (8 << 20) // (32 * rec)))
        for v in ('v7_3', 'v12'):
            env = {'REC': str(rec), 'SKIP': str(31 * rec), 'SYNC': sync,
                   'THREADS': '32',
                   'SIZE': str((rounds - 1) * 32 * rec + rec),
                   'IOSIZE': str(rounds * rec)}
            d, spans, e = run_wpsim(wpsim, root, env, [
                '--device=enterprise-plp', '--cpu-profile=seed003',
                '--cpus=32', '--variant', 'dontcache=' + v,
                'experiments/seed003.fio'])
            if d is None:
                err = e
                got.append(None)
                continue
            ios, nbytes, span = spans['records']
            got.append(nbytes / span * 1e9 / 2**20 if span else 0)
            rpw.append(spans['device page reads'] / ios)
        sr = ma / mb
        mr = got[1] / got[0] if got[0] and got[1] else None
        t.count(sr, mr, winner(sr), winner(mr) if mr else None)
        t.row([str(rec), 'DONTCACHE' + ('|DSYNC' if sync == 'dsync'
                                        else ''),
               '%.2f' % rb, '%.2f' % rpw[0] if len(rpw) > 0 else '-',
               '%.4f' % ra, '%.4f' % rpw[1] if len(rpw) > 1 else '-',
               fmt(mb), fmt(got[0]), fmt(ma),
               fmt(got[1]), '%.2fx' % sr, '%.2fx' % mr if mr else '-',
               pct(mr, sr) if mr else '-'],
              [rec, mb, got[0] or 'NaN', ma, got[1] or 'NaN', sr,
               mr or 'NaN'])
        if err and not t.notes:
            t.notes.append(err)
    t.notes.append('each job writes 16 records of 6000 B, 5 of 47008 B '
                   '(a file of at most 8 MiB); reads per write are the '
                   'device\'s 4 KiB page reads over the writes')
    return t


def size_bytes(size):
    """fio's size= with k/m/g (powers of 2, as fio's kb_base=1024)."""
    mult = {'k': 2**10, 'm': 2**20, 'g': 2**30}
    if size and size[-1].lower() in mult:
        return int(size[:-1]) * mult[size[-1].lower()]
    return int(size)


def seed004(wpsim, root, group, size=SEED004_SIZE):
    before, after = S004[group]
    title = 'QD1 4 KiB %s buffered writes, io_uring' % (
        'sequential' if group == 'seq' else 'random')
    if size != SEED004_SIZE:
        title += ' (a %s file, not the default %s)' % (size, SEED004_SIZE)
    t = Table('seed004-' + group, title,
              ['metric', 'seed before', 'model', 'err', 'seed after',
               'model', 'err', 'seed after/before', 'model', 'err'])
    res = []
    ios = []
    for v in ('punt', 'merged'):
        d, spans, e = run_wpsim(wpsim, root, {'SIZE': size,
                                              'RUNTIME': '200ms'}, [
            '--device=enterprise-plp', '--cpu-profile=seed004', '--cpus=8',
            '--variant', 'uring=' + v, 'experiments/seed004.fio'])
        if d is None:
            t.notes.append(e)
            res.append(None)
            continue
        j = [x for x in d['jobs'] if x['jobname'] == group][0]
        w = j['write']
        res.append((w['bw_bytes'] / 2**20, w['iops'], w['slat_ns']['mean'],
                    w['clat_ns']['mean'], j['sys_cpu'] + j['usr_cpu']))
        ios.append(w['total_ios'])
    names = ['MiB/s', 'IOPS', 'slat ns', 'clat ns', 'CPU %']
    for i, m in enumerate(names):
        sb, sa = before[i], after[i]
        mb = res[0][i] if res[0] else None
        ma = res[1][i] if res[1] else None
        sr = sa / sb
        mr = ma / mb if mb and ma else None
        # The winner: more is better for throughput, less for latency.
        better = (lambda r: winner(r)) if i in (0, 1) else \
            (lambda r: winner(1 / r) if r else None)
        if i in (0, 1, 3):
            t.count(sr, mr, better(sr), better(mr) if mr else None)
        t.row([m, fmt(sb), fmt(mb), pct(mb, sb) if mb is not None else '-',
               fmt(sa), fmt(ma), pct(ma, sa) if ma is not None else '-',
               '%.3fx' % sr, '%.3fx' % mr if mr else '-',
               pct(mr, sr) if mr else '-'],
              [i, sb, mb if mb is not None else 'NaN', sa,
               ma if ma is not None else 'NaN', sr, mr or 'NaN'])
    t.notes.append('summary counts MiB/s, IOPS and clat (slat and CPU are '
                   'shown, not counted: the seed\'s slat grows with the '
                   'series because the write moved into the submission)')
    blocks = size_bytes(size) // 4096
    if len(ios) == 2 and blocks:
        t.notes.append('the file (%s, %d blocks; the seed gives no size) is '
                       'written %s and %s times over in 200 ms (before, '
                       'after): fio drops its cache at each wrap, and what '
                       'the drop finds under writeback stays cached '
                       '(docs/seed-tables.md, session 21)'
                       % (size, blocks, fmt(ios[0] / blocks, 1),
                          fmt(ios[1] / blocks, 1)))
    t.notes.append('the before column\'s clat is mostly two wake-ups onto '
                   'idle CPUs, the io-wq worker\'s and fio\'s (2 x '
                   'wake_idle_ns, default.cpu\'s 6.5 us: a KVM guest\'s); '
                   'the seed\'s machine is not stated (session 21)')
    return t


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    wpsim, root = os.path.abspath(argv[1]), argv[2]
    want, out_dir = [], None
    jobs = SEED002_JOBS
    engine = SEED002_ENGINE
    size004 = SEED004_SIZE
    t4_iosize = None
    i = 3
    while i < len(argv):
        if argv[i] == '--table':
            want.append(argv[i + 1])
            i += 2
        elif argv[i] == '--out':
            out_dir = argv[i + 1]
            i += 2
        elif argv[i] == '--seed002-engine':
            engine = argv[i + 1]
            i += 2
        elif argv[i] == '--seed004-size':
            size004 = argv[i + 1]
            i += 2
        elif argv[i] == '--seed000-t4-iosize':
            t4_iosize = argv[i + 1]
            i += 2
        elif argv[i] == '--jobs':
            jobs = [int(x) for x in argv[i + 1].split(',')]
            i += 2
        else:
            sys.stderr.write('seed-tables: unknown argument %s\n' % argv[i])
            return 2
    makers = [
        ('seed000-t1', lambda: seed000(wpsim, root, 't1')),
        ('seed000-t2', lambda: seed000(wpsim, root, 't2')),
        ('seed000-t3', lambda: seed000(wpsim, root, 't3')),
        ('seed000-t4', lambda: seed000(wpsim, root, 't4', t4_iosize)),
        ('seed002-test1', lambda: seed002(
            wpsim, root, 'seed002-test1', 'experiments/seed002-test1.fio',
            'test1', S002_T1, [0, 1, 2], 'cover letter test 1: aligned '
            '8K DIO over written+unwritten, IOPS', jobs, engine)),
        ('seed002-test2', lambda: seed002(
            wpsim, root, 'seed002-test2', 'experiments/seed002-test2.fio',
            'test2', S002_T2, [0, 1, 2], 'cover letter test 2: 14336 B '
            'at +512 in [W][U][U][W] stripes, IOPS', jobs, engine)),
        ('seed002-patch1', lambda: seed002(
            wpsim, root, 'seed002-patch1', 'experiments/seed002-test1.fio',
            'test1', S002_T1, [0, 1], 'patch 1/2: test 1, before/after',
            jobs, engine)),
        ('seed002-patch2', lambda: seed002(
            wpsim, root, 'seed002-patch2', 'experiments/seed002-test2.fio',
            'test2', S002_T2, [0, 2], 'patch 2/2: test 2, before/after',
            jobs, engine)),
        ('seed003', lambda: seed003(wpsim, root)),
        ('seed004-seq', lambda: seed004(wpsim, root, 'seq', size004)),
        ('seed004-rand', lambda: seed004(wpsim, root, 'rand', size004)),
    ]
    known = [n for n, _ in makers]
    for w in want:
        if w not in known:
            sys.stderr.write('seed-tables: no table %s (%s)\n'
                             % (w, ', '.join(known)))
            return 2
    total = [0, 0, 0, 0]
    held = [0, 0, 0, 0, 0]
    for name, make in makers:
        if want and name not in want:
            continue
        t = make()
        t.print(sys.stdout)
        sys.stdout.flush()
        total[0] += t.rows
        total[1] += t.ratio_ok
        total[2] += t.winner_ok
        total[3] += t.failed
        held = [held[0] + t.held[0], held[1] + t.held[1],
                held[2] + t.held[2], held[3] + t.out_fitted,
                held[4] + t.out_undecided]
        if out_dir:
            os.makedirs(out_dir, exist_ok=True)
            with open(os.path.join(out_dir, name + '.dat'), 'w') as f:
                f.write('# %s: %s\n' % (name, t.title))
                for d in t.dat:
                    f.write(' '.join(('%.6g' % x) if isinstance(x, float)
                                     else str(x) for x in d) + '\n')
    print('all tables: %d rows; ratio within +-20%%: %d; same winner: %d; '
          'not run: %d' % tuple(total))
    print('scored: %d rows (less %d a profile figure was derived from, '
          '%d whose winner the seed\'s own spread does not decide); ratio '
          'within +-20%%: %d; same winner: %d'
          % (held[0], held[3], held[4], held[1], held[2]))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
