#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/seed-plots.py DATA-DIR OUT-DIR [PROBE-FILE]

Draws the tables that bench/seed-tables.py --out DATA-DIR wrote, with
gnuplot (Debian's gnuplot-nox), as OUT-DIR/NAME.png and OUT-DIR/NAME.svg:
left, the seed's figures per variant (solid) against the model's
(dashed); right, the ratio column, seed against model.  With PROBE-FILE
(a traces/real-kernel/probe-fio-*.txt of make probe-fio) it also draws
OUT-DIR/witness.{png,svg}: the model against this machine's kernel.
Rows the model could not run are gaps.  Exit 2 without gnuplot.
"""
import os
import shutil
import subprocess
import sys

S002_VARIANTS = {
    'seed002-test1': ['base', '+patch 1', '+patch 1+2'],
    'seed002-test2': ['base', '+patch 1', '+patch 1+2'],
    'seed002-patch1': ['base', '+patch 1'],
    'seed002-patch2': ['base', '+patch 1+2'],
}
PAIR = {  # name: (before, after, unit, ratio label, row labels)
    'seed000-t1': ('buffered', 'writethrough', 'MiB/s', 'writethrough / buffered', None),
    'seed000-t2': ('buffered', 'writethrough', 'MiB/s', 'writethrough / buffered', None),
    'seed000-t3': ('buffered', 'writethrough', 'MiB/s', 'writethrough / buffered', None),
    'seed000-t4': ('buffered', 'writethrough', 'MiB/s', 'writethrough / buffered', None),
    'seed003': ('before 5/7', 'after (v12)', 'MiB/s', 'after / before',
                ['47008', '47008 dsync', '6000', '6000 dsync']),
    'seed004-seq': ('before (punt)', 'after (inline)', '', 'after / before',
                    ['MiB/s', 'IOPS', 'slat', 'clat', 'CPU']),
    'seed004-rand': ('before (punt)', 'after (inline)', '', 'after / before',
                     ['MiB/s', 'IOPS', 'slat', 'clat', 'CPU']),
}


def read_dat(path):
    title, rows = '', []
    for line in open(path):
        if line.startswith('#'):
            title = line[1:].strip()
        elif line.strip():
            rows.append(line.split())
    return title, rows


def terminals(out, name):
    for term, ext in (('pngcairo size 1100,440 font ",10"', 'png'),
                      ('svg size 1100,440 font ",10" dynamic', 'svg')):
        yield ('set terminal %s\nset output "%s"\n'
               % (term, os.path.join(out, name + '.' + ext)))


def xtics(labels):
    return 'set xtics (%s)\n' % ', '.join(
        '"%s" %d' % (l, i) for i, l in enumerate(labels))


def plot_seed002(name, title, dat, out):
    v = S002_VARIANTS[name]
    k = len(v)
    body = ('set multiplot layout 1,2 title "%s"\n' % title.replace('"', "'")
            + 'set logscale x 2\nset xlabel "JOBS"\nset ylabel "IOPS"\n'
            'set key top left\nset grid\nset offsets 0, 0, graph 0.1, 0\n')
    body += 'plot ' + ', '.join(
        ['"%s" u 1:%d w lp lt %d dt 1 t "seed %s"' % (dat, 2 + i, i + 1, v[i])
         for i in range(k)] +
        ['"%s" u 1:%d w lp lt %d dt 2 t "model %s"'
         % (dat, 2 + k + i, i + 1, v[i]) for i in range(k)]) + '\n'
    body += ('set ylabel "speedup (%s / base)"\n' % v[-1]
             + 'plot "%s" u 1:%d w lp lt 1 dt 1 t "seed", '
             '"%s" u 1:%d w lp lt 1 dt 2 t "model"\n'
             % (dat, 2 + 2 * k, dat, 3 + 2 * k) + 'unset multiplot\n')
    return body


def plot_pair(name, title, dat, out, nrows):
    before, after, unit, ratio, labels = PAIR[name]
    body = ('set multiplot layout 1,2 title "%s"\n' % title.replace('"', "'")
            + 'set grid\nset key top left\nset offsets 0, 0, graph 0.1, 0\n')
    if labels:
        body += xtics(labels[:nrows]) + 'set xrange [-0.5:%f]\n' % (nrows - 0.5)
        x = '0'
    else:
        body += 'set logscale x 2\nset xlabel "numjobs"\n'
        x = '1'
    if name.startswith('seed004'):
        body += 'set logscale y\nset ylabel "value (MiB/s, IOPS, ns, CPU percent)"\n'
    else:
        body += 'set ylabel "%s"\n' % unit
    body += ('plot "%s" u %s:2 w lp lt 1 dt 1 t "seed %s", '
             '"%s" u %s:3 w lp lt 1 dt 2 t "model %s", '
             '"%s" u %s:4 w lp lt 2 dt 1 t "seed %s", '
             '"%s" u %s:5 w lp lt 2 dt 2 t "model %s"\n'
             % (dat, x, before, dat, x, before, dat, x, after,
                dat, x, after))
    body += ('set logscale y\nset ylabel "%s"\n' % ratio
             + 'plot "%s" u %s:6 w lp lt 1 dt 1 t "seed", '
             '"%s" u %s:7 w lp lt 1 dt 2 t "model"\nunset multiplot\n'
             % (dat, x, dat, x))
    return body


def plot_witness(probe, out, data_dir):
    rows = []
    for line in open(probe):
        if line.startswith('#') or line.startswith('row '):
            continue
        w = line.split()
        # name words..., real IOPS, model, err, real clat, model, err
        if len(w) < 7:
            continue
        try:
            nums = [float(w[-6]), float(w[-5]), float(w[-3]), float(w[-2])]
        except ValueError:
            continue
        rows.append((' '.join(w[:-6]), nums))
    if not rows:
        return None
    dat = os.path.join(data_dir, 'witness.dat')
    with open(dat, 'w') as f:
        for i, (n, v) in enumerate(rows):
            f.write('%d %s\n' % (i, ' '.join('%g' % x for x in v)))
    body = ('set multiplot layout 1,2 title "model (virtio-vm) vs this '
            'machine\'s kernel: %s"\n' % os.path.basename(probe)
            + xtics([n for n, _ in rows]) + 'set xtics rotate by -20\n'
            'set xrange [-0.5:%f]\nset grid\nset logscale y\n'
            'set key top right\nset style data linespoints\n' % (len(rows) - 0.5))
    body += ('set ylabel "IOPS"\nplot "%s" u 1:2 t "real", "%s" u 1:3 dt 2 '
             't "model"\n' % (dat, dat))
    body += ('set ylabel "mean clat (ns)"\nplot "%s" u 1:4 t "real", '
             '"%s" u 1:5 dt 2 t "model"\nunset multiplot\n' % (dat, dat))
    return body


def draw(script, out, name):
    for term in terminals(out, name):
        p = subprocess.run(['gnuplot'], input=term + script, text=True,
                           capture_output=True)
        if p.returncode != 0:
            sys.stderr.write('seed-plots: gnuplot failed for %s: %s\n'
                             % (name, p.stderr.strip()))
            return False
    return True


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    if not shutil.which('gnuplot'):
        sys.stderr.write('seed-plots: gnuplot not found (Debian package '
                         'gnuplot-nox: tools/bootstrap.sh bench)\n')
        return 2
    data_dir, out = argv[1], argv[2]
    os.makedirs(out, exist_ok=True)
    ok = True
    for f in sorted(os.listdir(data_dir)):
        if not f.endswith('.dat') or f == 'witness.dat':
            continue
        name = f[:-4]
        dat = os.path.join(data_dir, f)
        title, rows = read_dat(dat)
        if name in S002_VARIANTS:
            script = plot_seed002(name, title, dat, out)
        elif name in PAIR:
            script = plot_pair(name, title, dat, out, len(rows))
        else:
            continue
        ok &= draw(script, out, name)
    if len(argv) > 3:
        script = plot_witness(argv[3], out, data_dir)
        if script:
            ok &= draw(script, out, 'witness')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
