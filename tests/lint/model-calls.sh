#!/bin/sh
# tests/lint/model-calls.sh - model code touches shared state only through
# the engine: no threads, atomics, clocks, randomness, raw allocation or
# pointer printing in model/ (STYLE.md, "Shared state goes through the
# engine").  TAP output, one line per rule.
top="$1"
n=0
fail=0
check() {
	n=$((n + 1))
	# Comment lines (" * ...", "/* ...", "// ...") do not count.
	hits=$(grep -rnE "$2" "$top/model" "$top/include/model" 2>/dev/null |
	       grep -vE '^[^:]+:[0-9]+:[[:space:]]*(\*|/\*|//)')
	if [ -n "$hits" ]; then
		echo "not ok $n - $1"
		echo "$hits" | sed 's/^/# /'
		fail=1
	else
		echo "ok $n - $1"
	fi
}
echo "TAP version 13"
echo "1..7"
check "no pthreads" '\bpthread_[a-z_]+\s*\('
check "no C11 atomics" '_Atomic|\batomic_[a-z_]+\s*\(|__atomic_|__sync_'
check "no clocks or sleeps" '\b(time|clock_gettime|gettimeofday|usleep|nanosleep|sleep)\s*\('
check "no randomness" '\b(rand|srand|random|drand48)\s*\('
check "no raw allocation" '\b(malloc|calloc|realloc|free)\s*\('
check "no pointers printed" '%p'
check "no file reading (tools/profiles.c reads profiles)" '\b(fopen|fdopen|opendir|readdir|fread)\s*\('
exit $fail
