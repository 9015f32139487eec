#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/calibrate/loopfs.sh up|down|status [DIR] - the filesystems every
# real-kernel row of `make calibrate` and `make validate` runs on: an XFS
# and an ext4 filesystem, each on a loop device (direct I/O to its backing
# file: `losetup --direct-io=on`, so the backing file adds no second page
# cache) over an image file on this machine's root (ext4 on the virtio
# disk).  The model's buffered path is XFS only; running the real side on
# XFS too keeps buffered rows like for like (docs/validation.md).  The
# images are written out once (zeros, O_DIRECT) so that the backing
# file's extents are written and a write through the loop device is an
# overwrite on the root, not an unwritten-extent conversion.
#
# up     make (once) and mount DIR/xfs.img on DIR/xfs, DIR/ext4.img on
#        DIR/ext4 (default DIR /var/tmp/wpsim-loop); prints the mounts.
# down   unmount both and detach their loop devices (the images stay).
# status the mounts, or exit 1 when they are not up.
# Exit 77 when it cannot (not root, no mkfs.xfs, no loop device).
# Not a test: real kernel, root only.
set -u
cmd=${1:-status} dir=${2:-/var/tmp/wpsim-loop}
XFS_GIB=${XFS_GIB:-14} EXT4_GIB=${EXT4_GIB:-3}

mounted() { findmnt -n -o SOURCE "$1" 2>/dev/null; }

up_one() {	# up_one FS GIB
	fs=$1 gib=$2 img=$dir/$1.img mnt=$dir/$1
	mkdir -p "$mnt"
	[ -n "$(mounted "$mnt")" ] && return 0
	if [ ! -f "$img.ready" ]; then
		rm -f "$img"
		echo "loopfs: writing $img ($gib GiB of zeros, once)" >&2
		dd if=/dev/zero of="$img" bs=16M count=$((gib * 64)) \
			oflag=direct status=none || return 1
		touch "$img.ready"
	fi
	dev=$(losetup --direct-io=on --find --show "$img") || return 1
	if [ ! -f "$img.mkfs" ]; then
		case $fs in
		xfs) mkfs.xfs -q -f "$dev" ;;
		ext4) mkfs.ext4 -q -F "$dev" ;;
		esac || { losetup -d "$dev"; return 1; }
		touch "$img.mkfs"
	fi
	mount "$dev" "$mnt" || { losetup -d "$dev"; return 1; }
}

case $cmd in
up)
	[ "$(id -u)" -eq 0 ] || { echo "loopfs: needs root" >&2; exit 77; }
	command -v mkfs.xfs >/dev/null ||
		{ echo "loopfs: no mkfs.xfs (apt-get install xfsprogs)" >&2; exit 77; }
	mkdir -p "$dir"
	up_one xfs "$XFS_GIB" && up_one ext4 "$EXT4_GIB" ||
		{ echo "loopfs: cannot make the loop filesystems" >&2; exit 77; }
	for fs in xfs ext4; do
		echo "$fs $dir/$fs $(mounted "$dir/$fs")"
	done ;;
down)
	for fs in xfs ext4; do
		dev=$(mounted "$dir/$fs")
		[ -n "$dev" ] || continue
		umount "$dir/$fs" && losetup -d "$dev"
	done ;;
status)
	for fs in xfs ext4; do
		dev=$(mounted "$dir/$fs")
		[ -n "$dev" ] || exit 1
		echo "$fs $dir/$fs $dev"
	done ;;
*)
	echo "usage: loopfs.sh up|down|status [DIR]" >&2; exit 2 ;;
esac
