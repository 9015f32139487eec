#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/test-corpus.sh WPSIM SOURCE-ROOT [TIMEOUT [quick|deep]] - fio's own job
# files (examples/*.fio, t/jobs/*.fio of a copy of fio's repository,
# never part of this project) through `wpsim fio`, each as it is, with
# only the substitutions tools/fio/corpus.py lists: every file gives
# the result docs/fio-corpus.md records for it (runs, or one clear
# error line), and none gives anything else (a crash, a time-out,
# several lines).  With "quick", the files the table lists as long
# (past the table's time-out) are left out; with "deep" (`make deep`)
# only they run, and each must run within TIMEOUT (a long one that
# times out again fails).  TAP; skipped when the corpus is not there.
wpsim=$1
root=$2
timeout=${3:-60}
skip=
[ "${4:-}" = quick ] && skip=--skip-long
[ "${4:-}" = deep ] && skip="--only-long --long-must-run"
corpus=${FIO_CORPUS:-}
if [ -z "$corpus" ] || [ ! -d "$corpus/examples" ]; then
	echo "1..0 # SKIP fio's job files not found: git clone https://github.com/axboe/fio and set FIO_CORPUS to it"
	exit 0
fi
echo "1..1"
if out=$(python3 "$root/tools/fio/corpus.py" --wpsim "$wpsim" \
	--corpus "$corpus" --timeout "$timeout" $skip \
	--expect "$root/docs/fio-corpus.md" 2>&1); then
	echo "ok 1 - fio's job files give the results docs/fio-corpus.md lists ($(echo "$out" | tail -1))"
else
	echo "not ok 1 - fio's job files against docs/fio-corpus.md"
	echo "$out" | sed 's/^/# /'
fi
