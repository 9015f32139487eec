#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/fio/fuzz.sh [seconds] - fuzz the fio job-file parser.
#
# Builds tools/fio/fuzz-fio.c with the front end's sources using
# clang -fsanitize=fuzzer,address,undefined into build-fuzz/fio/, seeds
# a working corpus from tests/fio/jobs/*.fio and tests/fio/corpus/, and
# runs libFuzzer for the given number of seconds (default 60).  The seed
# directories are never written to.  A crash leaves its input in
# build-fuzz/fio/artifacts/ and the script exits nonzero; replay it with
#   build-fuzz/fio/fuzz-fio build-fuzz/fio/artifacts/crash-...
set -eu

seconds=${1:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${FUZZ_DIR:-$root/build-fuzz/fio}
cc=${CLANG:-clang}
flags='-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined'

if ! command -v "$cc" >/dev/null 2>&1; then
	echo "fuzz.sh: $cc not found; libFuzzer needs clang" >&2
	exit 2
fi
mkdir -p "$out/corpus" "$out/artifacts"
# shellcheck disable=SC2086
"$cc" -std=gnu17 -g -O1 -Wall -Wextra -D_GNU_SOURCE $flags \
	-I"$root/include" -I"$root" \
	"$root/tools/fio/fuzz-fio.c" \
	"$root/tools/fio/options.c" "$root/tools/fio/output.c" \
	"$root/tools/fio/parse.c" "$root/tools/fio/showcmd.c" \
	"$root/tools/fio/stat.c" -lm \
	-o "$out/fuzz-fio"

seeds=0
for f in $(find "$root/tests/fio/jobs" "$root/tests/fio/corpus" \
		-type f 2>/dev/null | sort); do
	name=$(printf '%s' "${f#"$root"/}" | tr '/' '_')
	cp "$f" "$out/corpus/seed-$name"
	seeds=$((seeds + 1))
done
echo "fuzz.sh: $seeds seeds, $seconds s, corpus $out/corpus"

ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
"$out/fuzz-fio" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
	-rss_limit_mb=2048 -print_final_stats=1 \
	-dict="$root/tools/fio/fuzz.dict" \
	-artifact_prefix="$out/artifacts/" "$out/corpus"
