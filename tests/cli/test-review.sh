#!/bin/sh
# tests/cli/test-review.sh WPSIM SRC - the reviewer's tools (TAP):
# run --html (content, and in headless Chromium: the lanes, the failing
# invariant, the filters' script ran, a screenshot), --emit-kunit (the
# skeleton's segments follow the witness's schedule and check the double
# count), `wpsim where` (finds the marker in the sashiko scenario, names
# the statement, rejects an unknown function), claims (errors at
# file:line:col, the witness replays), and the claim syntax is in both
# documents.  The browser part is skipped, with a message, when
# chromium is not installed (tools/bootstrap.sh installs it as root).
wpsim=$1
src=$2
out=$(mktemp)
tmp=$(mktemp -d)
trap 'rm -rf "$out" "$tmp"' EXIT
. "$src/tests/cli/tap.sh"
cd "$src" || exit 1

sashiko="scenarios/dontcache/sashiko-double-count.litmus --variant dontcache=v11 --variant break=clear_dirty_no_mkclean"
# Sashiko's own order (docs/algorithms/dontcache.md, route 1).
sched='1*77.0*10.1*28.2*16.1*28.0'

# ---- run --html -----------------------------------------------------------
# shellcheck disable=SC2086
expect "run --html writes the page and says so" 1 "HTML witness: $tmp/s.html" \
	-- run $sashiko --schedule "$sched" --html "$tmp/s.html"
page() { grep -q -- "$1" "$tmp/s.html"; }
check "the page has a lane per task" sh -c \
	"grep -q 'data-lane=\"0\">P0<' '$tmp/s.html' &&
	 grep -q 'data-lane=\"1\">P1<' '$tmp/s.html' &&
	 grep -q 'data-lane=\"2\">bio-write<' '$tmp/s.html'"
check "the page marks the failing invariant" page \
	'class="fail-box" id="failure">FAIL invariant at step [0-9]*: invariant 11'
check "the page shows kernel function nesting" page \
	'km_zap_present_folio_ptes</span> &gt; <span class="fn"'
check "the page highlights state changes" page \
	'class="chg">f page 0 folio 1: flags'
check "the page highlights the counter going 1->2" page \
	'wb.dontcache_dirty 1-&gt;2'
check "the page loads nothing (no src= or href=, no link tag)" sh -c \
	"! grep -Eq '(src|href)=|<link' '$tmp/s.html'"
# shellcheck disable=SC2086
"$wpsim" run $sashiko --schedule "$sched" --html "$tmp/s2.html" >/dev/null 2>&1
check "the page is deterministic" cmp "$tmp/s.html" "$tmp/s2.html"

browser=
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
if [ -z "$browser" ]; then
	n=$((n + 1))
	echo "ok $n - headless browser checks # SKIP chromium is not installed (tools/bootstrap.sh installs it as root)"
else
	dom() {
		timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
			--dump-dom "file://$tmp/s.html$1" 2>/dev/null
	}
	dom "" >"$tmp/dom"
	cp "$tmp/dom" "$out"
	check "chromium: the script ran (every row shown)" sh -c \
		"grep -Eq '>([0-9]+) of \\1 rows shown<' '$tmp/dom'"
	check "chromium: the lanes and the failing invariant are in the DOM" \
		sh -c "grep -q 'data-lane=\"1\">P1<' '$tmp/dom' &&
		       grep -q 'invariant 11: folio 1 entered' '$tmp/dom'"
	dom "#fn=folio_mark_dropbehind" >"$tmp/dom-fn"
	cp "$tmp/dom-fn" "$out"
	shown() { sed -n 's/.*>\([0-9]*\) of \([0-9]*\) rows shown<.*/\1 \2/p' "$1"; }
	filtered() {
		set -- $(shown "$tmp/dom-fn")
		[ -n "$1" ] && [ "$1" -gt 0 ] && [ "$1" -lt "$2" ]
	}
	check "chromium: the function filter keeps the marker's rows only" filtered
	dom "#hide=1" >"$tmp/dom-hide"
	cp "$tmp/dom-hide" "$out"
	hidden() {
		set -- $(shown "$tmp/dom-hide")
		[ -n "$1" ] && [ "$1" -lt "$2" ]
	}
	check "chromium: hiding task P1 hides its rows" hidden
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
		--window-size=1400,1000 --screenshot="$tmp/s.png" \
		"file://$tmp/s.html" >"$out" 2>&1
	png() { [ "$(head -c 4 "$tmp/s.png" | od -An -c | tr -d ' ')" = '211PNG' ] &&
		[ "$(wc -c <"$tmp/s.png")" -gt 20000 ]; }
	check "chromium: a screenshot of the page" png
fi

# ---- --emit-kunit ---------------------------------------------------------
# shellcheck disable=SC2086
expect "run --emit-kunit writes the skeleton" 1 "KUnit skeleton: $tmp/k.c" \
	-- run $sashiko --schedule "$sched" --emit-kunit "$tmp/k.c"
cp "$tmp/k.c" "$out"
segments() {
	want=$(echo "$sched" | tr '.' '\n' | wc -l)
	grep -q "^#define WPSIM_SEGMENTS $want\$" "$tmp/k.c" &&
	[ "$(grep -c 'wait_for_completion(&ctx->go\[' "$tmp/k.c")" -eq "$want" ]
}
check "one segment per run of the schedule" segments
order() {
	got=$(sed -n 's/^\t\/\* Segment [0-9]*: \([^,]*\), steps.*/\1/p' \
		"$tmp/k.c" | tr '\n' ' ')
	[ "$got" = "P1 P0 P1 bio-write P1 P0 " ]
}
check "the test case releases the segments in the witness's order" order
check "it checks the double count" grep -q \
	'WPSIM_EXPECT_WB(test, WB_DONTCACHE_DIRTY, 2);' "$tmp/k.c"
check "it checks the folio flags" grep -q \
	'KUNIT_EXPECT_TRUE(test, folio_test_dirty(wpsim_folio(ctx, "f", 0)));' \
	"$tmp/k.c"
check "it names the kernel functions a segment enters" grep -q \
	'calls km_folio_mark_dropbehind' "$tmp/k.c"
check "it registers a KUnit case and suite" sh -c \
	"grep -q 'KUNIT_CASE(sashiko_double_count_test)' '$tmp/k.c' &&
	 grep -q 'kunit_test_suite(sashiko_double_count_suite);' '$tmp/k.c'"
balanced() {
	[ "$(tr -cd '{' <"$tmp/k.c" | wc -c)" -eq \
	  "$(tr -cd '}' <"$tmp/k.c" | wc -c)" ]
}
check "its braces balance" balanced

# ---- wpsim where ------------------------------------------------------------
expect "where finds the marker in the sashiko scenario" 0 \
	"P1 r2 = pwritev2(f, 0, 4096, RWF_DONTCACHE)" \
	-- where folio_mark_dropbehind scenarios/dontcache
check "... under v11 with the dirtier" grep -q \
	"variant dontcache=v11 break=clear_dirty_no_mkclean" "$out"
check "... and counts the scenarios" grep -q \
	"^[1-9][0-9]* of 4 scenarios reach it" "$out"
expect "where names the bio completion that ends writeback" 0 \
	"bio-write (device completion" \
	-- where folio_end_writeback scenarios/dontcache/sashiko-double-count.litmus
expect "where: a function no scenario here reaches" 0 \
	"^0 of 1 scenarios reach it" \
	-- where ext4_dio_write_iter scenarios/dontcache/sashiko-double-count.litmus
expect "where: two functions (a KCSAN pair) in one execution" 0 \
	"km_zap_present_folio_ptes: P0 munmap(f)" \
	-- where folio_clear_dirty_for_io zap_present_folio_ptes \
	scenarios/dontcache/sashiko-double-count.litmus
check "... each call charged to its statement" grep -q \
	"km_folio_clear_dirty_for_io: P1 r1 = writeback(f, WB_SYNC_ALL)" "$out"
check "... v11's completion unmaps the folio it drops, v12's does not" sh -c \
	"grep -A4 'variant dontcache=v11:' '$out' | grep -q 'km_zap_present_folio_ptes: bio-write' &&
	 ! grep -A3 'variant dontcache=v12:' '$out' | grep -q 'km_zap_present_folio_ptes: bio-write'"
expect "where: an unknown function is an error" 2 \
	"expected a kernel function of the model, found 'no_such_fn'" \
	-- where no_such_fn

# ---- claims -------------------------------------------------------------------
mk() {
	cat >"$tmp/$1.litmus" <<EOF
wpsim $1
"a claim"
{
  file f: size=4K, bsize=4096, folio=4096, layout=W, cached=0, mapped=0;
}
P0 {
  munmap(f);
}
P1 {
  w: r0 = mmap_store(f, 0, 4096);
}
$2
~exists (violation)
EOF
}
mk bad-fn 'claim (P0:ret(no_such_fn) -> call(w))'
expect "claim: an unknown function, at its position" 2 \
	"bad-fn.litmus:12:8: error: expected a kernel function of the model, found 'no_such_fn'" \
	-- check "$tmp/bad-fn.litmus"
mk bad-arrow 'claim (P0:ret(zap_present_folio_ptes) > call(w))'
expect "claim: a syntax error, at its position" 2 \
	"bad-arrow.litmus:12:39: error: expected '->', found '>'" \
	-- check "$tmp/bad-arrow.litmus"
mk bad-label 'claim (call(v) -> call(w))'
expect "claim: an unknown label" 2 \
	"bad-label.litmus:12:8: error: expected a label or Pn:call(FUNCTION), found 'v'" \
	-- check "$tmp/bad-label.litmus"
mk bad-thread 'claim (P1:call(w) -> P0:call(w))'
expect "claim: a label of another thread" 2 \
	"expected P1 (label 'w' is P1's), found 'P0'" \
	-- check "$tmp/bad-thread.litmus"
mk ok-claim 'claim (P0:ret(zap_present_folio_ptes) -> call(w))'
expect "claim: the zap before the store: decided over the traces that honour it" 0 \
	"Proved: no execution of the model honours the claim" \
	-- check "$tmp/ok-claim.litmus"
expect "the sashiko claim reaches the double count under v11 with the dirtier" 0 \
	"Expected Sometimes: ok" -- check scenarios/claims/sashiko-v11-double-count.litmus \
	--variant dontcache=v11 --variant break=clear_dirty_no_mkclean
replay=$(sed -n 's/^  replay:   wpsim //p' "$out")
check "... with a witness that replays" test -n "$replay"
# shellcheck disable=SC2086
expect "... to invariant 11, the double count" 1 \
	"invariant 11: folio 1 entered WB_DONTCACHE_DIRTY while already counted" \
	-- $replay
expect "the sashiko claim is proved unreachable under v12" 0 \
	"Proved: no execution of the model honours the claim" \
	-- check scenarios/claims/sashiko-v11-double-count.litmus \
	--variant dontcache=v12 --variant break=clear_dirty_no_mkclean
expect "claims: a sampled search is refused, nothing runs" 2 \
	"a scenario with a claim is checked by dpor" \
	-- check scenarios/claims/sashiko-v11-double-count.litmus --strategy pct
check "... not even the claim-less check" sh -c "! grep -q Observation '$out'"
expect "claims: json is refused" 2 "reports as text or tap" \
	-- check scenarios/claims/sashiko-v11-double-count.litmus --format json
expect "claims report as tap" 0 "^ok 1 sashiko-v11-double-count" \
	-- check scenarios/claims/sashiko-v11-double-count.litmus \
	--variant dontcache=v12 --variant break=clear_dirty_no_mkclean \
	--format tap
documented() {
	for w in '"claim"' '"call"' '"ret"' '"->"'; do
		grep -q "$w" docs/scenario-language.md || return 1
	done
	for w in '"claim"' '"call"' '"ret"' '"\->"'; do
		grep -qF "$w" man/wpsim-scenario.5 || return 1
	done
}
check "the claim keywords are in docs/scenario-language.md and wpsim-scenario(5)" \
	documented

echo "1..$n"
[ "$fail" -eq 0 ]
