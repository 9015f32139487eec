#!/bin/sh
# tools/install-check.sh [BUILD-DIR] - the install, tested: `meson
# install --destdir` of BUILD-DIR (default build) into a staging
# directory, then examples/ configured, built and tested against it
# through pkg-config (PKG_CONFIG_PATH, PKG_CONFIG_SYSROOT_DIR), with the
# staged wpsim on PATH; a static link of the example through
# `pkg-config --static`; and the files every install must hold.
# `make install-check` runs it; so does CI (.ci/run).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-build}" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

meson install -C "$build" --destdir "$stage" --quiet
opt() {
	meson introspect "$build" --buildoptions |
		python3 -c 'import json, sys
print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == sys.argv[1]))' "$1"
}
prefix=$(opt prefix)
libdir=$(opt libdir)
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
root=$stage$prefix
lib=$stage$libdir
fail=0
need() {
	if [ -e "$1" ]; then
		echo "install-check: ok: ${1#"$stage"}"
	else
		echo "install-check: MISSING: ${1#"$stage"}" >&2
		fail=1
	fi
}
need "$root/bin/wpsim"
need "$lib/libwpsim.a"
need "$lib/libwpsim.so.0"
need "$lib/pkgconfig/wpsim.pc"
need "$root/include/wpsim/wpsim/harness.h"
need "$root/include/wpsim/sim/engine.h"
need "$root/include/wpsim/model/world.h"
need "$root/include/wpsim/model/fs/ext4.h"
need "$root/include/wpsim/model/io_uring/rw.h"
# Internal headers stay out (docs/HACKING.md, "Public headers").
for h in tools/litmus/litmus.h sim/ctx.h sim/search.h wpsim/trace.h; do
	if [ -e "$root/include/wpsim/$h" ]; then
		echo "install-check: installed, but internal: $h" >&2
		fail=1
	fi
done
need "$root/share/man/man1/wpsim.1"
need "$root/share/man/man5/wpsim-scenario.5"
need "$root/share/bash-completion/completions/wpsim"
need "$root/share/wpsim/scenarios/dontcache/sashiko-double-count.litmus"
need "$root/share/wpsim/profiles/devices"
soname=$(readelf -d "$lib/libwpsim.so.0" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = libwpsim.so.0 ] || { echo "install-check: soname '$soname'" >&2; fail=1; }
[ $fail -eq 0 ] || exit 1

export PKG_CONFIG_PATH="$lib/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$stage"
export PATH="$root/bin:$PATH"
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "install-check: $(wpsim --version), pkg-config wpsim $(pkg-config --modversion wpsim)"
# The staged binary runs outside the tree: from its data directory.
(cd "$root/share/wpsim" && wpsim list scenarios >/dev/null)

# Each public entry header compiles on its own from the staged include
# root: what it includes was installed with it.
for h in wpsim/harness.h model/fs/ext4.h model/io_uring/rw.h; do
	printf '#include <%s>\n' "$h" |
		cc -std=gnu17 -D_GNU_SOURCE -fsyntax-only -Wall -Wextra \
			-I"$root/include/wpsim" -x c - ||
		{ echo "install-check: <$h> does not compile alone" >&2; exit 1; }
done
echo "install-check: ok: the public headers compile alone"

meson setup "$stage/example" "$src/examples" >"$stage/setup.log" ||
	{ cat "$stage/setup.log"; exit 1; }
ninja -C "$stage/example" >/dev/null
meson test -C "$stage/example" --print-errorlogs

# The static library links on its own (pkg-config --static).
# shellcheck disable=SC2046
cc -o "$stage/race-static" "$src/examples/race_write_vs_flusher.c" \
	-DWPSIM_PC_VERSION="\"$(pkg-config --modversion wpsim)\"" \
	$(pkg-config --cflags wpsim criterion) "$lib/libwpsim.a" \
	$(pkg-config --libs --static wpsim | sed 's/-lwpsim//') \
	$(pkg-config --libs criterion)
env -u LD_LIBRARY_PATH "$stage/race-static" --jobs=1 >/dev/null 2>&1 ||
	{ echo "install-check: the statically linked example failed" >&2; exit 1; }
! ldd "$stage/race-static" | grep -q libwpsim ||
	{ echo "install-check: race-static links libwpsim.so" >&2; exit 1; }
echo "install-check: ok: examples/ against the staged install, shared and static"
