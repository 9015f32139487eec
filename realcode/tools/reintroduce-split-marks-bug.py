#!/usr/bin/env python3
"""realcode/tools/reintroduce-split-marks-bug.py IN OUT [DEPFILE]

Writes OUT, a copy of lib/xarray.c (IN) with the bug fixed by "XArray:
set the marks correctly when splitting an entry" (2024, regression test
xfstests generic/751) put back: when xas_split() fills a new child node,
node_set_marks() marks every slot of the child (node_mark_all), sibling
slots included, instead of only the slots that start an entry
(node_mark_slots).  Fails (exit 1) if the tree does not have the fixed
line, so a changed tree is not silently tested unchanged.
"""
import sys

FIXED = "node_mark_slots(child, sibs, mark);"
BUGGY = "node_mark_all(child, mark);"


def main():
    src, out = sys.argv[1], sys.argv[2]
    text = open(src, encoding="utf-8").read()
    if text.count(FIXED) != 1:
        sys.stderr.write("%s: expected one '%s' (the fixed xas_split), "
                         "found %d\n" % (src, FIXED, text.count(FIXED)))
        return 1
    text = text.replace(FIXED, BUGGY)
    text = ("/* realcode: %s with the mark-split fix reverted by "
            "reintroduce-split-marks-bug.py */\n#line 1 \"xarray.c\"\n"
            % src) + text
    open(out, "w", encoding="utf-8").write(text)
    if len(sys.argv) > 3:
        open(sys.argv[3], "w", encoding="utf-8").write(
            "%s: %s\n" % (out, src))
    return 0


if __name__ == "__main__":
    sys.exit(main())
