#!/usr/bin/env python3
"""tests/docs/doc-commands.py WPSIM SRC [--list] - every documented
command runs (TAP).

The commands are the `wpsim ...` (or `build/wpsim ...`) lines of README.md
and docs/**/*.md: in fenced code blocks (a leading `$ ` is dropped, `\\`
continues a line) and in inline code spans.  A command is run unless it
is a syntax line: one with a placeholder (an upper-case word such as FILE
or S, `...`, `…`, `[`, `|`, `<`), which is counted and skipped; an inline
span that only names a subcommand or an option in prose (`wpsim check
--iterative`: no operand) is not a command.  Each
runnable command runs from SRC with WPSIM for `wpsim`; it must exit 0, 1
(a failure found, which a documented replay may show) or 3 (not decided:
a sampled or capped search that says so), and print
neither "diverged" nor "ENGINE BUG" nor "MISMATCH".  A command whose
output goes to a file of the tree (`> docs/examples/X`, `--perfetto X`)
(or `--html X`, `--emit-kunit X`)
is run with that output sent to a scratch file instead, and the scratch
file must equal the file in the tree, so the examples cannot go stale
(the model hash in front of a schedule, "HASH:", is not compared: it
moves with every edit of the source).
A fenced block right after the line `<!-- doc-commands: deep -->` holds
commands too long for the quick tier: they run when WPSIM_DOC_DEEP=1
(the deep tier).  Set WPSIM_DOC_TIMEOUT (seconds per command, default
300).
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

PLACEHOLDER = re.compile(r"(\b[A-Z][A-Z_]*[A-Z]\b|\bS\b|\.\.\.|…|\[|\||<)")


def doc_files(src):
    yield "README.md"
    for root, _, files in os.walk(os.path.join(src, "docs")):
        for f in sorted(files):
            if f.endswith(".md"):
                yield os.path.relpath(os.path.join(root, f), src)


def commands(src, path):
    """(line number, command text) of every wpsim command in @path."""
    text = open(os.path.join(src, path), encoding="utf-8").read()
    lines = text.split("\n")
    fence = False
    deep = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            fence = not fence
            # A block right after "<!-- doc-commands: deep -->" holds
            # commands too long for the quick tier.
            deep = fence and i > 0 and \
                lines[i - 1].strip() == "<!-- doc-commands: deep -->"
            i += 1
            continue
        if fence:
            s = line.strip()
            if s.startswith("$ "):
                s = s[2:]
            if s.startswith("wpsim ") or s.startswith("build/wpsim "):
                start = i + 1
                cmd = re.sub(r"\s+#.*$", "", s)
                while cmd.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    cmd = cmd[:-1].rstrip() + " " + \
                        re.sub(r"\s+#.*$", "", lines[i].strip())
                yield start, cmd, "deep" if deep else False
            i += 1
            continue
        i += 1
    # Inline code spans (they may wrap across lines).
    flat = re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"),
                  text, flags=re.S)
    for m in re.finditer(r"`((?:build/)?wpsim [^`]+)`", flat):
        start = flat.count("\n", 0, m.start()) + 1
        yield start, " ".join(m.group(1).split()), True


SUBCOMMANDS = ("check", "run", "list", "demo", "ext4-nowait", "fio",
               "replay", "where", "--version", "--help")


def runnable(cmd, inline):
    """A complete command without placeholders.  Inline spans such as
    `wpsim check --iterative` name a subcommand or an option in prose:
    they are commands only with an operand (or for demo, list, --version)."""
    words = cmd.split()
    if len(words) < 2 or words[1] not in SUBCOMMANDS:
        return False
    if PLACEHOLDER.search(" ".join(words[1:])):
        return False
    if inline and words[1] not in ("demo", "list", "--version", "--help"):
        return any(not w.startswith("-") for w in words[2:])
    return True


ORIGIN = re.compile(r"\b[0-9a-f]{6,16}:(?=[-0-9])")


def normal(text, subs):
    """What must match: the model hash a schedule carries names the
    source text and moves with every edit, so it is left out; a scratch
    file's name stands for the file of the tree it replaces."""
    for made, kept in subs:
        text = text.replace(made, kept)
    return ORIGIN.sub("", text)


def main():
    wpsim, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    listing = "--list" in sys.argv
    timeout = int(os.environ.get("WPSIM_DOC_TIMEOUT", "300"))
    os.chdir(src)
    found, skipped, seen = [], 0, set()
    deep_tier = os.environ.get("WPSIM_DOC_DEEP") == "1"
    deferred = 0
    for path in doc_files(src):
        for line, cmd, inline in commands(src, path):
            if not runnable(cmd, inline is True):
                skipped += 1
                continue
            if inline == "deep" and not deep_tier:
                deferred += 1
                continue
            if cmd in seen:
                continue
            seen.add(cmd)
            found.append((path, line, cmd))
    if listing:
        for path, line, cmd in found:
            print("%s:%d: %s" % (path, line, cmd))
        print("# %d runnable, %d syntax lines skipped" % (len(found),
                                                          skipped))
        return 0
    print("TAP version 13")
    print("1..%d" % len(found))
    print("# %d syntax lines (placeholders) skipped" % skipped)
    print("# %d commands marked <!-- doc-commands: deep --> left to the "
          "deep tier (WPSIM_DOC_DEEP=1)" % deferred)
    fail = 0
    scratch = tempfile.mkdtemp()
    for n, (path, line, cmd) in enumerate(found, 1):
        name = "%s:%d: %s" % (path, line, cmd)
        try:
            words = shlex.split(cmd)
        except ValueError as e:
            print("not ok %d - %s (not shell words: %s)" % (n, name, e))
            fail += 1
            continue
        words[0] = wpsim
        compare = []
        out_file = None
        if ">" in words:
            k = words.index(">")
            out_file = words[k + 1]
            del words[k:k + 2]
        for opt in ("--perfetto", "--html", "--emit-kunit"):
            if opt in words:
                k = words.index(opt) + 1
                tmp = os.path.join(scratch, "%s-%d%s" % (
                    opt[2:], n, os.path.splitext(words[k])[1]))
                compare.append((words[k], tmp))
                words[k] = tmp
        name = "%s:%d: %s" % (path, line, cmd)
        try:
            r = subprocess.run(words, capture_output=True, text=True,
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            print("not ok %d - %s (timed out after %d s)" % (n, name,
                                                             timeout))
            fail += 1
            continue
        out = r.stdout + r.stderr
        bad = None
        if r.returncode not in (0, 1, 3):
            bad = "exit %d" % r.returncode
        else:
            for word in ("diverged", "ENGINE BUG", "MISMATCH"):
                if word in out:
                    bad = "prints '%s'" % word
        if out_file and not bad:
            tmp = os.path.join(scratch, "out-%d.txt" % n)
            with open(tmp, "w") as fh:
                fh.write(r.stdout)
            compare.append((out_file, tmp))
        subs = [(made, kept) for kept, made in compare]
        for kept, made in compare:
            if bad:
                break
            if not os.path.exists(kept):
                bad = "%s is not in the tree" % kept
            elif normal(open(kept).read(), subs) != \
                    normal(open(made).read(), subs):
                bad = "output differs from %s (regenerate it with the " \
                      "command)" % kept
        if bad:
            print("not ok %d - %s (%s)" % (n, name, bad))
            for l in out.splitlines()[-15:]:
                print("# " + l)
            fail += 1
        else:
            print("ok %d - %s" % (n, name))
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
