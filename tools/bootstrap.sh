#!/bin/sh
# tools/bootstrap.sh - install what is missing, configure build/ if needed.
#
# Usage: tools/bootstrap.sh BUILD-DIR [meson setup options...]
#        tools/bootstrap.sh --deb   (also the packaging tools, for make deb)
#        tools/bootstrap.sh --bench (also gnuplot-nox and fio, for make
#                                    tables and make probe-fio)
# Debian packages only.  As root: `apt-get update` once, then
# `apt-get install -y` of the missing ones.  Otherwise it prints the exact
# command and stops.
set -eu
build=${1:-build}
[ $# -gt 0 ] && shift

packages="gcc pkg-config meson ninja-build libcriterion-dev libck-dev libjemalloc-dev lcov python3"
deb=false
if [ "$build" = --deb ]; then
	deb=true
	packages="$packages debhelper dpkg-dev fakeroot lintian devscripts"
fi
# The bench tier's plots and real-kernel witness (make tables, probe-fio;
# xfsprogs for probe-xfs's loop-mounted XFS).
if [ "$build" = --bench ]; then
	packages="$packages gnuplot-nox fio xfsprogs"
fi
# Fuzzing asked for (make fuzz: -Dfuzz=true): libFuzzer comes with clang.
# MPI asked for (-Dmpi=enabled: mpirun ranks as the workers of a split
# search): Open MPI.
for a in "$@"; do
	[ "$a" = "-Dfuzz=true" ] && packages="$packages clang"
	[ "$a" = "-Dmpi=enabled" ] && packages="$packages libopenmpi-dev openmpi-bin"
done
missing=""
for p in $packages; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$status" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done

if [ -n "$missing" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "wpsim: missing Debian packages:$missing" >&2
		echo "wpsim: run this, then the make command again:" >&2
		echo "  sudo sh -c 'apt-get update && apt-get install -y$missing'" >&2
		exit 1
	fi
	echo "wpsim: installing missing Debian packages:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq $missing
fi

if $deb || [ "$build" = --bench ]; then
	exit 0
fi
# The real-code tier (realcode/, docs/realcode.md) needs a few files of a
# Linux 6.12 tree: unless -Dkernel_src=PATH is given, they are unpacked
# from Debian's linux-source-6.12 into BUILD/linux-src (nothing from the
# kernel is committed).  Not root and no package: the tier is skipped.
need_kernel=true
for a in "$@"; do
	case "$a" in
	-Dkernel_src=*) need_kernel=false ;;
	# Sanitizer and fuzz builds skip the tier (realcode/meson.build).
	-Db_sanitize=*|-Dfuzz=true) need_kernel=false ;;
	esac
done
tarball=/usr/src/linux-source-6.12.tar.xz
if $need_kernel && [ ! -f "$build/linux-src/lib/xarray.c" ]; then
	if [ ! -f "$tarball" ] && [ "$(id -u)" -eq 0 ]; then
		echo "wpsim: installing linux-source-6.12 (the real-code tier)"
		export DEBIAN_FRONTEND=noninteractive
		apt-get install -y -qq linux-source-6.12 ||
			{ apt-get update -qq &&
			  apt-get install -y -qq linux-source-6.12; } ||
			echo "wpsim: linux-source-6.12 not installed: the real-code tier is skipped" >&2
	fi
	if [ -f "$tarball" ]; then
		echo "wpsim: unpacking the real-code tier's kernel files into $build/linux-src"
		mkdir -p "$build/linux-src"
		# shellcheck disable=SC2046
		tar -xJf "$tarball" -C "$build/linux-src" --strip-components=1 \
			--wildcards $(sed -e '/^#/d' -e 's|^|linux-source-6.12/|' \
				"$(dirname "$0")/../realcode/kernel-files.txt") ||
			echo "wpsim: unpacking failed: the real-code tier is skipped" >&2
		[ -f "$build/build.ninja" ] && meson setup --reconfigure "$build" >/dev/null
	else
		echo "wpsim: no $tarball: the real-code tier is skipped (docs/realcode.md)" >&2
	fi
fi
if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$@"
fi
