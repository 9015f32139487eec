#!/bin/sh
# realcode/tests/skip.sh KERNEL_SRC - the tier's test when no kernel tree
# was found at configure time: a TAP skip that says why.
echo "1..0 # SKIP realcode: no kernel tree at $1 (give -Dkernel_src=PATH, or tools/bootstrap.sh unpacks Debian's linux-source-6.12)"
