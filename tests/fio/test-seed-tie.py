#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/fio/test-seed-tie.py SOURCE-ROOT - bench/seed-tables.py's rule
for a seed's tie (TAP; docs/seed-tables.md, session 17).

Seed 000's table 1 prints 133 = 133 MiB/s at one job: no winner.  The
rule: the seed's figures are whole MiB/s, so each is known to +-0.5 and
the true ratio of a tie lies in [132.5/133.5, 133.5/132.5]; a model row
has the seed's "winner" (none) only if its own ratio is inside that
band, and is a wrong winner otherwise.  Checked here: that the seed's %
column carries no more precision than its MiB/s (every printed % is
computed from the two whole figures: if one were not, the band would
have to come from the % instead), the band's bounds, the model ratios
on either side of them, and that rows without a tie keep the plain rule.
"""
import importlib.util
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else '.'
spec = importlib.util.spec_from_file_location(
    'seed_tables', os.path.join(root, 'bench', 'seed-tables.py'))
st = importlib.util.module_from_spec(spec)
spec.loader.exec_module(st)

n = 0
fails = 0


def ok(cond, what):
    global n, fails
    n += 1
    if cond:
        print('ok %d - %s' % (n, what))
    else:
        fails += 1
        print('not ok %d - %s' % (n, what))


# 1. The seed's % column is its whole MiB/s figures' ratio, rounded to
# 0.1% (so it adds no precision to the tie: 133/133 prints +0.0%
# whatever the unrounded figures were).
bad = []
for t, rows in st.S000.items():
    for jobs, (b, w) in rows.items():
        if round(1000.0 * (w / b - 1)) / 10.0 != st.S000_PCT[t][jobs]:
            bad.append('%s/%d' % (t, jobs))
ok(not bad and sum(len(r) for r in st.S000_PCT.values()) == 19,
   "every seed 000 %% is computed from its whole MiB/s figures%s"
   % (': not ' + ', '.join(bad) if bad else ''))

# 2. The band of 133 = 133 at whole MiB/s.
lo, hi = st.tie_band(133, 133)
ok(abs(lo - 132.5 / 133.5) < 1e-12 and abs(hi - 133.5 / 132.5) < 1e-12,
   'the band of 133 = 133 is [132.5/133.5, 133.5/132.5] (%.5f..%.5f)'
   % (lo, hi))
ok(0.0074 < 1 - lo < 0.0075 and 0.0075 < hi - 1 < 0.0076,
   'that is +-0.75% around 1')

# 3. Model ratios: inside the band a tie (the seed's "winner"), outside
# a wrong winner, on both sides.
band = (lo, hi)
for r, want in ((1.0, 'tie'), (1.005, 'tie'), (0.993, 'tie'),
                (1.008, 'after'), (0.992, 'before'), (1.129, 'after'),
                (9.31, 'after')):
    ok(st.winner(r, band) == want,
       'model ratio %.3f against the tie: %s' % (r, want))
ok(st.winner(1.0) == 'tie' and st.winner(133 / 133) == 'tie',
   "the seed's own ratio of a tie is a tie")

# 4. No tie, no band: the plain side of 1, even for a close row.
ok(st.tie_band(366, 376) is None and st.tie_band(474, 449) is None,
   'rows whose figures differ have no band')
ok(st.winner(1.001) == 'after' and st.winner(0.999) == 'before',
   'without a band a ratio of 1.001 is after, 0.999 before')

# 5. A tie in other units: the band widens as the figures shrink.
lo2, hi2 = st.tie_band(13, 13)
ok(lo2 < lo and hi2 > hi, 'a tie at 13 = 13 has a wider band than at 133')

# 6. Seed 002's own spread (session 20): the two columns that run the
# same code for a test's writes.  Test 1 at 2 jobs: +patch 1 70,677 and
# +patch 1+2 66,958, 5.6% apart, and the seed's speedups there (0.977x,
# 1.032x) are inside it: not decided.  At 1 job (0.56%) and 4 jobs
# (4.5%, speedup 1.62x) they are.
s2 = st.seed002_spread(st.S002_T1, 2, 'test1')
ok(abs(s2 - (70677 / 66958.0 - 1)) < 1e-12,
   'test 1 at 2 jobs: the spread is 70677/66958 - 1 (%.4f)' % s2)
ok(st.undecided(66958 / 68516.0, s2) and st.undecided(70677 / 68516.0, s2),
   "test 1 at 2 jobs: both of the seed's speedups are within its spread")
ok(not st.undecided(43087 / 42322.0, st.seed002_spread(st.S002_T1, 1,
                                                       'test1')),
   'test 1 at 1 job: 1.018x is outside its 0.56% spread')
ok(not st.undecided(101468 / 62489.0, st.seed002_spread(st.S002_T1, 4,
                                                        'test1')),
   'test 1 at 4 jobs: 1.62x is decided')
s22 = st.seed002_spread(st.S002_T2, 2, 'test2')
ok(abs(s22 - (15910 / 14808.0 - 1)) < 1e-12 and
   not st.undecided(34172 / 15910.0, s22),
   'test 2 at 2 jobs: base and +patch 1 are the same-code pair; 2.15x '
   'is decided')
ok(st.undecided(1.0, 0.0) and not st.undecided(1.001, 0.0),
   'a zero spread decides every ratio but 1')

# 7. The scored count: a row a figure was derived from, or one the
# seed does not decide, counts in the table's summary and not in the
# scored one.
t = st.Table('x', 'x', ['a'])
t.count(1.62, 3.02, 'after', 'after', fitted=True)
t.count(0.977, 1.91, 'before', 'after', undecided=True)
t.count(1.02, 1.0, 'after', 'before')
t.count(2.15, 2.3, 'after', 'after')
ok((t.rows, t.winner_ok, t.ratio_ok) == (4, 2, 2) and
   t.held == [2, 2, 1] and (t.out_fitted, t.out_undecided) == (1, 1),
   'scored: 2 of 4 rows, 2 within +-20%%, 1 winner (%r)' % (t.held,))
ok(st.FITTED == {'test1': (4, 8, 16, 32)},
   "the rows seed002-disk's cmd_ns + cache_ack_ns were derived from: "
   "test 1's base at 4-32 jobs")

print('1..%d' % n)
sys.exit(1 if fails else 0)
