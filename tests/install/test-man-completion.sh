#!/bin/bash
# tests/install/test-man-completion.sh WPSIM SRC - the man pages and the
# bash completion say what wpsim does (TAP): every subcommand and option
# of `wpsim --help` is in wpsim(1) and in the completion, and nothing
# else is; every variant key and value of `wpsim list variants` is in
# both man pages and is completed after --variant; the pages carry
# `wpsim --version`'s version and render without groff warnings; the
# scenario in wpsim-scenario(5)'s synopsis checks as it says.
wpsim=$1
src=$2
out=$(mktemp)
tmp=$(mktemp -d)
trap 'rm -rf "$out" "$tmp"' EXIT
. "$src/tests/cli/tap.sh"
cd "$src" || exit 1
man1=man/wpsim.1
man5=man/wpsim-scenario.5

"$wpsim" --help >"$tmp/help"
grep -o -- '--[a-z][a-z-]*' "$tmp/help" | sort -u >"$tmp/help-opts"
(cat "$tmp/help-opts"; echo --help; echo --version) | sort -u \
	>"$tmp/want-opts"
sed -n '1,/^\.SH EXIT STATUS/p' "$man1" | sed 's/\\-/-/g' |
	grep -o -- '--[a-z][a-z-]*' | sort -u >"$tmp/man-opts"
check "wpsim(1) has every option of --help (and --help, --version), no other" \
	diff "$tmp/want-opts" "$tmp/man-opts"
sed -n 's/^ *\(usage: \)\{0,1\}wpsim \([a-z][a-z0-9-]*\).*/\2/p' "$tmp/help" |
	sort -u >"$tmp/help-cmds"
sed -n 's/\\-/-/g; s/^\.B wpsim \([a-z][a-z0-9-]*\).*/\1/p' "$man1" |
	sort -u >"$tmp/man-cmds"
check "wpsim(1) has every subcommand of --help and no other" \
	diff "$tmp/help-cmds" "$tmp/man-cmds"

version=$("$wpsim" --version | sed -n 's/^wpsim \([^ ]*\) .*/\1/p')
check "the pages carry wpsim --version's version ($version)" \
	grep -q "\"wpsim $version\"" "$man1" "$man5"
check "wpsim-scenario(5) too" grep -q "\"wpsim $version\"" "$man5"
if command -v groff >/dev/null; then
	LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$man1" "$man5" >"$out" 2>&1
	check "the pages render without groff warnings" test ! -s "$out"
fi

"$wpsim" list variants | sed -n 's/^  \([a-z0-9_]*\)=\([^ ]*\) .*/\1 \2/p' \
	>"$tmp/variants"
variants_in() {
	for key in $(cut -d' ' -f1 "$tmp/variants" | sort -u); do
		line=$(sed 's/\\-/-/g; s/|\\://g' "$1" |
			grep "^\.BR $key = " | head -1)
		[ -n "$line" ] || { echo "$1: no line for $key" >"$out"; return 1; }
		# The identifier values (the aliases are spelled out apart).
		for v in $(awk -v k="$key" '$1 == k {print $2}' "$tmp/variants"); do
			case $v in *-* | *.*) continue ;; esac
			echo "$line" | grep -q " $v " || echo "$line" | grep -q " $v\( ,\| ;\|$\)" ||
				echo "$line" | grep -q "= $v " || {
				echo "$1: $key=$v missing from: $line" >"$out"
				return 1
			}
		done
		count=$(echo "$line" | sed 's/^\.BR [a-z0-9_]* = //; s/ [,;]$//' |
			tr -s ' ' '\n' | grep -vc '^[,;]*$')
		want=$(awk -v k="$key" '$1 == k && $2 !~ /[-.]/' "$tmp/variants" | wc -l)
		[ "$count" -eq "$want" ] || {
			echo "$1: $key has $count values, wpsim $want: $line" >"$out"
			return 1
		}
	done
}
check "wpsim(1) lists every variant value and no other" variants_in "$man1"
check "wpsim-scenario(5) lists every variant value and no other" \
	variants_in "$man5"

awk '/^\.SH SYNOPSIS/{s=1;next} s&&/^\.nf/{p=1;next} p&&/^\.fi/{exit} p' \
	"$man5" | sed 's/\\e/\\/g; s/\\f[RIB]//g; s/\\-/-/g' >"$tmp/synopsis.litmus"
expect "the synopsis scenario of wpsim-scenario(5) checks ok" 0 \
	"Expected Sometimes: ok" -- check "$tmp/synopsis.litmus"

# Completion, with the two bash-completion helpers it uses stubbed.
complete_words() {
	bash -c '
		_init_completion() { cur=${COMP_WORDS[COMP_CWORD]}
			prev=${COMP_WORDS[COMP_CWORD-1]}; words=("${COMP_WORDS[@]}")
			cword=$COMP_CWORD; }
		_filedir() { :; }
		. "$1/completion/wpsim"
		shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_wpsim
		printf "%s\n" "${COMPREPLY[@]}"' sh "$src" "$@" | sort -u
}
complete_words "$wpsim" "" >"$tmp/c-cmds"
(cat "$tmp/help-cmds"; echo --help; echo --version) | sort -u >"$tmp/want-cmds"
check "completes every subcommand" diff "$tmp/want-cmds" "$tmp/c-cmds"
complete_words "$wpsim" check -- >"$tmp/c-check"
sed -n '/^usage: wpsim demo/,/^ *wpsim run/p' "$tmp/help" | sed '$d' |
	grep -o -- '--[a-z][a-z-]*' | sort -u >"$tmp/want-check"
check "completes every option of check" diff "$tmp/want-check" "$tmp/c-check"
complete_words "$wpsim" run x.litmus -- >"$tmp/c-run"
sed -n '/^ *wpsim run/,/^ *wpsim list/p' "$tmp/help" | sed '$d' |
	grep -o -- '--[a-z][a-z-]*' | sort -u >"$tmp/want-run"
check "completes every option of run" diff "$tmp/want-run" "$tmp/c-run"
complete_words "$wpsim" check x.litmus --variant "" >"$tmp/c-var"
awk '{print $1 "=" $2}' "$tmp/variants" | sort -u >"$tmp/want-var"
check "completes every --variant KEY=VALUE of wpsim list variants" \
	diff "$tmp/want-var" "$tmp/c-var"
complete_words "$wpsim" list "" >"$tmp/c-list"
sed -n '/wpsim list/,/wpsim ext4/p' "$tmp/help" | sed '$d' |
	tr -d '[] \n' | sed 's/^wpsimlist//' | tr '|' '\n' | sort -u >"$tmp/want-list"
check "completes every section of wpsim list" diff "$tmp/want-list" "$tmp/c-list"

echo "1..$n"
[ "$fail" -eq 0 ]
