#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/public-headers.py ROOT HEADER... - the headers libwpsim installs.

Prints, one a line relative to ROOT/include, HEADER (given relative to
ROOT/include) and every header of ROOT/include it includes, directly or
not ("model/world.h" style includes).  The public entry points are the
HEADERs tools/harness/meson.build names (<wpsim/harness.h> and the
model's entry points a race test calls); the rest is installed because
they need it (docs/HACKING.md, "Public headers").  Exits 1 if a HEADER
does not exist.
"""
import os
import re
import sys


def closure(root, headers):
    seen = set()
    todo = list(headers)
    while todo:
        h = todo.pop()
        if h in seen:
            continue
        path = os.path.join(root, 'include', h)
        if not os.path.exists(path):
            sys.exit('public-headers.py: %s: no such header' % path)
        seen.add(h)
        with open(path) as f:
            for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', f.read(),
                                 re.M):
                if os.path.exists(os.path.join(root, 'include', m.group(1))):
                    todo.append(m.group(1))
    return sorted(seen)


if __name__ == '__main__':
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip().splitlines()[0])
    print('\n'.join(closure(sys.argv[1], sys.argv[2:])))
