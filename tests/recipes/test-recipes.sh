#!/bin/sh
# tests/recipes/test-recipes.sh WPSIM SRC LIBWPSIM CC - the tree is as
# docs/HACKING.md's recipes leave it (TAP): every variant value is in
# docs/scenario-language.md and every variant key is named by a scenario
# or a test; every break= value is named by a scenario's expect line or
# a test; every scenario parses and says at most `// tier: deep`; every
# device profile is listed and documented; and the harness recipe's C
# block compiles against LIBWPSIM (libwpsim.a) and passes.
wpsim=$1
src=$2
lib=$3
cc=${4:-cc}
# The build's -Db_sanitize (make sanitize: address,undefined): the recipe
# links against a library built with it, so it is compiled with it too.
sanitize=${5:-none}
san_flags=
[ "$sanitize" != none ] && san_flags="-fsanitize=$sanitize"
# The build's -Db_coverage (make coverage): the library's objects call
# gcov's runtime, so the recipe links with --coverage.
[ "${6:-false}" = true ] && san_flags="$san_flags --coverage"
out=$(mktemp)
tmp=$(mktemp -d)
trap 'rm -rf "$out" "$tmp"' EXIT
. "$src/tests/cli/tap.sh"
cd "$src" || exit 1

"$wpsim" list variants | sed -n 's/^  \([a-z0-9_]*\)=\([^ ]*\) .*/\1 \2/p' |
	grep -v '[-.][^ ]*$' >"$tmp/variants"
documented() {
	: >"$out"
	while read -r key value; do
		grep "^| \`$key\` |" docs/scenario-language.md |
			grep -q "\`$value\`" ||
			echo "docs/scenario-language.md: no $key=$value" >>"$out"
	done <"$tmp/variants"
	test ! -s "$out"
}
check "variant: every value is in docs/scenario-language.md" documented
named() {
	: >"$out"
	for key in $(cut -d' ' -f1 "$tmp/variants" | sort -u); do
		[ "$key" = break ] && continue
		grep -rqs -e "$key=" -e "[.>]$key = " scenarios tests \
			--include='*.litmus' --include='*.c' --include='*.sh' \
			--include='*.py' ||
			echo "no scenario or test names $key=" >>"$out"
	done
	test ! -s "$out"
}
check "variant: every key is named by a scenario or a test" named
caught() {
	: >"$out"
	for value in $(awk '$1 == "break" && $2 != "none" {print $2}' \
			"$tmp/variants"); do
		upper=M_BREAK_$(echo "$value" | tr a-z A-Z)
		grep -rqs "^expect.*break=$value" scenarios ||
			grep -rqs -e "$upper" -e "break=$value" tests \
				--include='*.c' --include='*.sh' ||
			echo "break=$value: no scenario expect line, no test" >>"$out"
	done
	test ! -s "$out"
}
check "break=: every switch is caught by a scenario or a test" caught

"$wpsim" list scenarios >"$out" 2>&1
check "scenario: every scenario parses" sh -c "! grep -q 'does not parse' '$out'"
tiers() {
	grep -rn '^ *// *tier:' scenarios | grep -v ':// tier: deep$' >"$out"
	test ! -s "$out"
}
check "scenario: tier lines say '// tier: deep'" tiers

profiles() {
	"$wpsim" list devices >"$tmp/devices" 2>&1
	: >"$out"
	for f in profiles/devices/*.dev; do
		dev=$(sed -n 's/^name *= *//p' "$f")
		grep -q "^$dev " "$tmp/devices" ||
			echo "$f: $dev not in wpsim list devices" >>"$out"
		grep -q "^| \`$dev\`" docs/model/nvme.md ||
			echo "$f: no row for $dev in docs/model/nvme.md" >>"$out"
	done
	test ! -s "$out"
}
check "device profile: every profile is listed and documented" profiles

# "Add a syscall": every row of the model's table is named by a front
# end's table (the entry-only rows, which touch no model state, aside),
# and ftruncate runs through each front end.
syscall_rows() {
	: >"$out"
	for row in $(sed -n 's/^\t\(M_SYS_[A-Z0-9_]*\),.*/\1/p' \
		     include/model/linux/syscalls.h); do
		grep -q "\[$row\] = {" model/fs/syscalls.c ||
			echo "model/fs/syscalls.c: no row for $row" >>"$out"
		grep -q "\[$row\] = { \"[a-z0-9_]*\", sys_entry_only }" \
			model/fs/syscalls.c && continue
		grep -qs "$row" tools/wpsim/scenario.c tools/wpsim/replay.c \
			tools/wpsim/fio*.c ||
			echo "$row: no front end's table names it" >>"$out"
	done
	test ! -s "$out"
}
check "syscall: every row of the model's table has a front end" syscall_rows
ftruncate_rows() {
	grep -q '\[WPSIM_OP_TRUNCATE\] = { true, M_SYS_FTRUNCATE' \
		tools/wpsim/scenario.c &&
	grep -q '\[TRACE_OP_FTRUNCATE\] = { true, M_SYS_FTRUNCATE }' \
		tools/wpsim/replay.c &&
	grep -q '{ FIO_FALLOCATE_TRUNCATE, M_SYS_FTRUNCATE }' \
		tools/wpsim/fio-plan.c &&
	grep -q '\[M_SYS_FTRUNCATE\] = { "ftruncate", sys_ftruncate }' \
		model/fs/syscalls.c
}
check "syscall: ftruncate has its row in the model and each front end" \
	ftruncate_rows
cat >"$tmp/t.litmus" <<'LITMUS'
wpsim truncate-recipe
"a scenario's truncate is ftruncate(2) through the syscall table"

{
  file f: size=8K, layout=WW, open=O_RDWR;
}

P0 {
  r0 = truncate(f, 4096);
}

forall (~violation /\ 0:r0 == 0 /\ f.i_size == 4096)
expect: Always
LITMUS
check "syscall: a scenario's truncate is ftruncate(2)" \
	"$wpsim" check "$tmp/t.litmus"
cat >"$tmp/t.strace" <<'STRACE'
100 1796126768.100000 openat(AT_FDCWD</tmp>, "/tmp/t.dat", O_RDWR|O_CREAT, 0600) = 3</tmp/t.dat> <0.000010>
100 1796126768.100100 pwrite64(3</tmp/t.dat>, "abcd"..., 8192, 0) = 8192 <0.000010>
100 1796126768.100200 ftruncate(3</tmp/t.dat>, 4096) = 0 <0.000010>
100 1796126768.100300 close(3</tmp/t.dat>) = 0 <0.000001>
STRACE
replay_ftruncate() {
	"$wpsim" replay "$tmp/t.strace" >"$out" 2>&1 &&
	grep -q '^  ftruncate  *1 .* same$' "$out"
}
check "syscall: a trace's ftruncate is replayed, same result" \
	replay_ftruncate
# The run's steps and event-log hash.  Since session 19 (h19-prealloc)
# the writes of fallocate=none extend the file and look for extents past
# EOF (the speculative preallocation), steps the ftruncated file's writes
# inside EOF do not take: the two step counts can be equal (748 both),
# so the executions are told apart by their event logs.
fio_steps() {
	"$wpsim" fio --name=t --rw=write --bs=4k --size=64k \
		--ioengine=psync --fallocate="$1" --replayable 2>&1 \
		>/dev/null |
		sed -n 's/^wpsim fio: \([0-9]*\) steps.*hash \([0-9a-f]*\)$/\1 \2/p'
}
fio_ftruncate() {
	a=$(fio_steps truncate) && b=$(fio_steps none) &&
	test -n "$a" && test -n "$b" && test "$a" != "$b"
}
check "syscall: fio's fallocate=truncate issues ftruncate(2)" fio_ftruncate

# The harness recipe: the first C block after its heading.
awk '/^### Write a race test with the harness/ {s = 1}
	s && /^```c$/ {p = 1; next}
	p && /^```$/ {exit}
	p' docs/HACKING.md >"$tmp/recipe.c"
harness() {
	test -s "$tmp/recipe.c" &&
	# shellcheck disable=SC2086 # san_flags is empty or words
	"$cc" -std=gnu17 -Wall -Wextra -Werror -D_GNU_SOURCE $san_flags \
		-I"$src/include" -I"$src" -o "$tmp/recipe" "$tmp/recipe.c" \
		"$lib" $(pkg-config --libs criterion jemalloc 2>/dev/null ||
			 echo -lcriterion) -lm >"$out" 2>&1 &&
	"$tmp/recipe" --jobs=1 >"$out" 2>&1
}
check "harness: the recipe's race test compiles and passes" harness

echo "1..$n"
[ "$fail" -eq 0 ]
