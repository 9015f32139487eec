#!/bin/sh
# tools/deb.sh [OUT-DIR] - the Debian packages (make deb): the tree's
# files (git ls-files: tracked and untracked, not ignored) copied to
# OUT-DIR/wpsim (default build-deb), `dpkg-buildpackage -us -uc -b`
# there, so the .deb, .changes and .buildinfo files land in OUT-DIR
# and not beside the checkout; then lintian, failing on errors.
# DEB_BUILD_OPTIONS defaults to nocheck (CI runs the suite itself).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-build-deb}
rm -rf "$out"
mkdir -p "$out/wpsim"
out=$(cd "$out" && pwd)
(cd "$src" && git ls-files -co --exclude-standard -z |
	xargs -0 cp --parents -t "$out/wpsim")
export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS-nocheck}"
(cd "$out/wpsim" && nice dpkg-buildpackage -us -uc -b)
version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
changes="$out/wpsim_${version}_$(dpkg --print-architecture).changes"
lintian --fail-on error "$changes"
ls "$out"/*.deb
