#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/lint/kernel-files.py TOP - the model mirrors the kernel tree.

TAP output.  Two checks (STYLE.md, "The tree shows the architecture";
issue 27 item 3):

1. Every km_ function defined in a model .c lives in the file its own
   kernel-doc names: the first path after "Kernel:" (fs/xfs/xfs_iomap.c)
   must be the .c's path under model/.  Allowed elsewhere:
   - a "Kernel:" naming a header (include/linux/fs.h): the kernel's
     function is a header inline, which the model puts beside its caller;
   - a function with "Patch:" and no "Kernel:": the code a seed patch adds
     lives with the code it patches, which only a reader can judge.
   A km_ function with neither line fails.
2. No include cycle crosses directories of model/.  A source belongs to
   its directory (model/fs/xfs/xfs_file.c: fs/xfs); a header to the
   directory of the sources it declares (include/model/fs/xfs.h and
   xfs_log.h: fs/xfs; iomap.h: fs/iomap); include/model/linux/ is the
   kernel's include/linux, which every floor shares.  The world's level
   (model/*.c and include/model/*.h: world, lockdep, cost, variant) is
   glue: every file reads its state and its setup and checks call every
   module, so it is left out of the graph (docs/model/world.md).  Cycles
   the kernel has too are listed in ALLOWED with the kernel's reason; any
   other strongly connected set of two or more directories fails.
3. No include runs from a lower floor of model/ to a higher one (FLOORS:
   lib, kernel, hw < block, drivers/char, drivers/block < mm < fs < fs/iomap < fs/xfs,
   fs/ext4 < io_uring) unless ALLOWED_UP lists it with the kernel's reason: a
   generic layer reaches a filesystem through its tables, not its
   header.
"""
import os
import re
import sys

top = sys.argv[1] if len(sys.argv) > 1 else '.'

# Directory cycles the kernel has as well: (a, b) -> why.  None today:
# include/model/linux/fs.h includes model/kernel/rwsem.h as the kernel's
# fs.h includes rwsem.h, but rwsem.c includes no linux/ header back.
ALLOWED = {}

# Kernel directories the model flattens: kernel/locking/rwsem.c is
# model/kernel/rwsem.c (one file of kernel/ is modelled).
MIRROR = {'kernel/locking/': 'kernel/'}

# Functions another change of issue 27 moves (the syscall layer, item 1):
# name -> where it goes.  Remove an entry once its move is merged.
PENDING = {
}

# Header -> the model directory whose sources it declares.
HEADER_DIRS = {
    'include/model/fs/xfs.h': 'fs/xfs',
    'include/model/fs/xfs_log.h': 'fs/xfs',
    'include/model/fs/iomap.h': 'fs/iomap',
    'include/model/fs/ext4.h': 'fs/ext4',
    'include/model/block/blk-mq.h': 'block',
    'include/model/block/fops.h': 'block',
    'include/model/drivers/mem.h': 'drivers/char',
    'include/model/drivers/loop.h': 'drivers/block',
    'include/model/drivers/virtio_blk.h': 'drivers/block',
    'include/model/block/blk-wbt.h': 'block',
    'include/model/hw/nvme.h': 'hw',
    'include/model/io_uring/rw.h': 'io_uring',
    'include/model/kernel/rwsem.h': 'kernel',
}
# Floors, low to high: a source may include the headers of its own floor
# and below.  include/model/linux/ (the kernel's include/linux: types and
# declarations every floor shares) and the world are outside the floors.
FLOORS = {
    'lib': 0, 'kernel': 0, 'hw': 0,
    'block': 1, 'drivers/char': 1, 'drivers/block': 1,
    'mm': 2,
    'fs': 3,
    'fs/iomap': 4,
    'fs/xfs': 5, 'fs/ext4': 5,
    'io_uring': 6,
}

# Upward includes the kernel has too: (from, to) -> why.
ALLOWED_UP = {
    # block/fops.c includes <linux/iomap.h>: blkdev_buffered_write calls
    # iomap_file_buffered_write with blkdev_iomap_ops, and def_blk_aops
    # (the !CONFIG_BUFFER_HEAD form the model follows) is iomap's
    # read_folio, readahead and writepages (v6.18).
    ('block', 'fs/iomap'): 'block/fops.c includes linux/iomap.h',
}

# The world's level: model/*.c and include/model/*.h (node_of).
GLUE_SOURCES = set()

tests = []


def files(root, ext):
    out = []
    for d, _, names in os.walk(os.path.join(top, root)):
        for n in names:
            if n.endswith(ext):
                out.append(os.path.relpath(os.path.join(d, n), top))
    return sorted(out)


# ---- 1. km_ functions in their kernel file ------------------------------

DEF = re.compile(r'^(?!static inline)[a-z][^;(]*\b(km_\w+)\(', re.M)
misplaced = []
for src in files('model', '.c'):
    text = open(os.path.join(top, src)).read()
    for m in DEF.finditer(text):
        # A definition: the declarator is followed by a body, not ";".
        rest = text[m.end():]
        close = rest.find(')')
        after = rest[close:close + 400]
        body = after.find('{')
        semi = after.find(';')
        if body < 0 or (0 <= semi < body):
            continue
        name = m.group(1)
        before = text[:m.start()].rstrip()
        doc = ''
        if before.endswith('*/'):
            start = before.rfind('/*')
            doc = before[start:]
        line = re.search(r'Kernel:(.*(?:\n[ \t]*\*[^\n]*){0,2})', doc)
        kernel = line and re.search(r'\b([\w+-]+(?:/[\w.+-]+)+\.[ch])\b',
                                    line.group(1))
        if line and not kernel:
            misplaced.append('%s: %s: no kernel file on its Kernel: line' %
                             (src, name))
        elif kernel:
            path = kernel.group(1)
            if path.startswith('include/') or path.endswith('.h'):
                continue
            for prefix, model_prefix in MIRROR.items():
                if path.startswith(prefix):
                    path = model_prefix + path[len(prefix):]
            if name in PENDING:
                continue
            if 'model/' + path != src:
                misplaced.append('%s: %s says Kernel: %s' %
                                 (src, name, path))
        elif 'Patch:' not in doc:
            misplaced.append('%s: %s has no Kernel: or Patch: line' %
                             (src, name))
tests.append(('every km_ function lives in the file its Kernel: line '
              'names', misplaced))

# ---- 2. include cycles across model/ directories ------------------------

INC = re.compile(r'^#include "(model/[^"]+)"', re.M)


def node_of(path):
    if path in GLUE_SOURCES:
        return 'GLUE'
    if path.startswith('include/model/linux/'):
        return 'linux'
    if path.startswith('include/'):
        if path.count('/') == 2:	# include/model/X.h: the world's level
            return 'GLUE'
        return HEADER_DIRS.get(path, 'UNKNOWN:' + path)
    return os.path.dirname(path)[len('model/'):] or 'GLUE'


edges = {}
unknown = []
upward = []
for src in files('model', '.c') + files('include/model', '.h'):
    a = node_of(src)
    if a.startswith('UNKNOWN'):
        unknown.append('%s: no model directory for this header (add it to '
                       'HEADER_DIRS)' % src)
        continue
    for inc in INC.findall(open(os.path.join(top, src)).read()):
        b = node_of('include/' + inc)
        if b.startswith('UNKNOWN'):
            unknown.append('%s: no model directory for %s' % (src, inc))
            continue
        if (a != b and FLOORS.get(a, 99) < FLOORS.get(b, 99) and
                (a, b) not in ALLOWED_UP and 'GLUE' not in (a, b) and
                'linux' not in (a, b)):
            upward.append('%s (%s) includes %s (%s)' % (src, a, inc, b))
        if a != b and 'GLUE' not in (a, b) and 'linux' not in (a, b):
            edges.setdefault(a, {}).setdefault(b, []).append(
                '%s -> %s' % (src, inc))

# Tarjan's strongly connected components.
index, low, stack, on, sccs = {}, {}, [], set(), []
nodes = sorted(set(edges) | {b for v in edges.values() for b in v})


def strong(v, counter=[0]):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in sorted(edges.get(v, {})):
        if w not in index:
            strong(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            sccs.append(sorted(comp))


for v in nodes:
    if v not in index:
        strong(v)
cycles = []
for comp in sccs:
    if tuple(comp) in ALLOWED:
        continue
    lines = ['cycle: %s' % ' '.join(comp)]
    for a in comp:
        for b in comp:
            for why in edges.get(a, {}).get(b, []):
                lines.append('  ' + why)
    cycles.append('\n'.join(lines))
tests.append(('no include cycle across model/ directories but the '
              'kernel\'s (%s)' % ('; '.join('%s-%s' % k for k in ALLOWED) or
                                  'none'), unknown + cycles))

tests.append(('no include from a lower floor of model/ to a higher one '
              '(lib, kernel, hw < block, drivers/char, drivers/block < mm < fs < fs/iomap < fs/xfs, '
              'fs/ext4 < io_uring) but the kernel\'s', upward))

print('TAP version 13')
print('1..%d' % len(tests))
fail = 0
for n, (what, problems) in enumerate(tests, 1):
    if problems:
        fail = 1
        print('not ok %d - %s' % (n, what))
        for p in problems:
            for line in p.split('\n'):
                print('# ' + line)
    else:
        print('ok %d - %s' % (n, what))
sys.exit(fail)
