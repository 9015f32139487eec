# tests/cli/tap.sh - TAP helpers the CLI test scripts source.  The caller
# sets wpsim (the binary) and out (a scratch file); n and fail count.
n=0
fail=0

# asan_quiet FILE: tests/lib/tap.sh (the callers set src, the source
# root, or here, this folder).
. "${src:-$here/../..}/tests/lib/tap.sh"

# expect NAME EXIT-CODE PATTERN -- ARGS...: run wpsim ARGS, want the exit
# code and a line matching PATTERN (grep) in its output.
expect() {
	name=$1 code=$2 pattern=$3
	shift 4
	n=$((n + 1))
	"$wpsim" "$@" >"$out" 2>&1
	got=$?
	asan_quiet "$out"
	if [ "$got" -ne "$code" ]; then
		echo "not ok $n - $name (exit $got, want $code)"
		sed 's/^/# /' "$out"
		fail=$((fail + 1))
	elif ! grep -q -- "$pattern" "$out"; then
		echo "not ok $n - $name (no '$pattern' in output)"
		sed 's/^/# /' "$out"
		fail=$((fail + 1))
	else
		echo "ok $n - $name"
	fi
}

# check NAME COMMAND...: a test of what the last wpsim command printed.
check() {
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		sed 's/^/# /' "$out"
		fail=$((fail + 1))
	fi
}
