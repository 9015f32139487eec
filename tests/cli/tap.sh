# tests/cli/tap.sh - TAP helpers the CLI test scripts source.  The caller
# sets wpsim (the binary) and out (a scratch file); n and fail count.
n=0
fail=0

# The ASan build (make sanitize, ucontext) warns on stderr about
# swapcontext and about stacks it does not know (==PID==WARNING: ASan
# ..., and the two lines that follow the second); drop those lines so
# outputs compare as in a plain build.  An ASan
# error (==PID==ERROR) stays.
asan_quiet() {
	sed -i -E -e "/^==[0-9]+==WARNING: ASan /d" \
		-e "/^False positive error reports may follow$/d" \
		-e "/^For details see https:\/\/github.com\/google\/sanitizers\/issues\/189$/d" \
		"$1"
}

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
