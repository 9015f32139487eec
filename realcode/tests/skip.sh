#!/bin/sh
# realcode/tests/skip.sh WHY - the tier's tests when it is not built
# (no kernel tree, a sanitizer build, not gcc): a TAP skip that says why.
echo "1..0 # SKIP realcode: $*"
