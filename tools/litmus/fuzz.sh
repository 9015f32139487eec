#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/litmus/fuzz.sh [seconds] - fuzz the scenario-language front end.
#
# Builds tests/litmus/fuzz_litmus.c with the front end's sources using
# clang -fsanitize=fuzzer,address,undefined into build-fuzz/litmus/,
# seeds a working corpus from scenarios/**/*.litmus and
# tests/litmus/corpus/, and runs libFuzzer for the given number of
# seconds (default 60).  The seed directories are never written to.
# A crash leaves its input in build-fuzz/litmus/artifacts/ and the
# script exits nonzero; replay it with
#   build-fuzz/litmus/fuzz-litmus build-fuzz/litmus/artifacts/crash-...
set -eu

seconds=${1:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${FUZZ_DIR:-$root/build-fuzz/litmus}
cc=${CLANG:-clang}
flags='-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined'

mkdir -p "$out/corpus" "$out/artifacts"
# shellcheck disable=SC2086
"$cc" -std=gnu17 -g -O1 -Wall -Wextra -D_GNU_SOURCE $flags \
	-I"$root/include" -I"$root" \
	"$root/tests/litmus/fuzz_litmus.c" \
	"$root/tools/litmus/check.c" "$root/tools/litmus/common.c" \
	"$root/tools/litmus/expr.c" "$root/tools/litmus/lexer.c" \
	"$root/tools/litmus/parser.c" "$root/tools/litmus/print.c" \
	-o "$out/fuzz-litmus"

seeds=0
for f in $(find "$root/scenarios" "$root/tests/litmus/corpus" \
		-type f -name '*.litmus' 2>/dev/null | sort); do
	name=$(printf '%s' "${f#"$root"/}" | tr '/' '_')
	cp "$f" "$out/corpus/seed-$name"
	seeds=$((seeds + 1))
done
echo "fuzz.sh: $seeds seeds, $seconds s, corpus $out/corpus"

ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
"$out/fuzz-litmus" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
	-rss_limit_mb=2048 -print_final_stats=1 \
	-dict="$root/tools/litmus/fuzz.dict" \
	-artifact_prefix="$out/artifacts/" "$out/corpus"
