#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A Debian build root for kernels whose kbuild tools need a newer libc and
# gcc than the host's (Debian 12): made with mmdebstrap from the suite the
# kernel comes from, with that kernel's linux-headers (which bring its
# linux-kbuild, gcc-N-for-host and pahole), make and binutils (gcc-N-for-host
# brings only the triplet-named assembler; kbuild calls `as`).  Cached by kernel
# version in $VX_CACHE/buildroot/<kver>; made again when missing.
#
#   buildroot.sh KVER SUITE        make it if needed, print its directory
#   buildroot.sh --packages DEST SUITE COMPONENTS PKG...
#                                  the same code path for another root:
#                                  SUITE's COMPONENTS ("main contrib
#                                  non-free") with PKG... in it, cached in
#                                  DEST (scripts/cuda-gdb.sh); prints DEST/root
#   buildroot.sh --run ROOT CMD... run CMD chrooted in ROOT, with /dev,
#                                  /proc and $VX_BIND (a directory, seen at
#                                  the same path inside) mounted in a
#                                  private mount namespace
#   buildroot.sh --enter ROOT CMD...
#                                  the same namespace, CMD run outside the
#                                  chroot: it runs `chroot ROOT ...` as
#                                  often as it likes, the mounts made once
#
# SUITE is where the kernel was found (kernel.sh's entry/suite): for
# trixie-backports the root is trixie with trixie-backports beside it,
# for sid it is sid.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
vx_usage 2 "$@"

if [ "${1:-}" = --run ] || [ "${1:-}" = --enter ]; then
	root=$2
	if [ "$1" = --enter ]; then
		shift 2
	else
		set -- chroot "$root" "${@:3}"
	fi
	# shellcheck disable=SC2016  # expanded by the inner shell
	exec unshare --mount --propagation private sh -ec '
		root=$1 bind=$2
		shift 2
		mount --rbind /dev "$root/dev"
		mount -t proc proc "$root/proc"
		if [ -n "$bind" ]; then
			mkdir -p "$root$bind"
			mount --bind "$bind" "$root$bind"
		fi
		exec "$@"' sh "$root" "${VX_BIND:-}" "$@"
fi

if [ "${1:-}" = --packages ]; then
	[ $# -ge 5 ] || vx_die "usage: buildroot.sh --packages DEST SUITE COMPONENTS PKG..."
	dest=$2 suite=$3 components=$4
	shift 4
	include=$(IFS=,; echo "$*")
	what="a $suite root with $*"
	log=$VX_LOGS/buildroot-${dest##*/}.log
	check=
else
	[ $# -eq 2 ] || vx_die "usage: buildroot.sh KVER SUITE | --packages DEST SUITE COMPONENTS PKG... | --run|--enter ROOT CMD..."
	kver=$1 suite=$2 components=main
	dest=$VX_CACHE/buildroot/$kver
	include=make,binutils,linux-headers-$kver
	what="a ${suite%-backports} build root for $kver"
	log=$VX_LOGS/buildroot-$kver.log
	check=usr/src/linux-headers-$kver/Makefile
fi
if vx_cached "$dest"; then
	echo "$dest/root"
	exit 0
fi
command -v mmdebstrap > /dev/null || vx_die "mmdebstrap is missing (scripts/host-deps.sh installs it)"

mirror=http://deb.debian.org/debian
base=${suite%-backports}
# mmdebstrap into DIR/root: SUITE (the base release by one of its names)
# and the kernel's suite beside it.
mmdeb() {	# DIR SUITE
	local lists=("deb $mirror $2 $components")
	[ "$suite" = "$base" ] || lists+=("deb $mirror $suite $components")
	mmdebstrap --variant=minbase --include="$include" \
		--aptopt='Acquire::Languages "none"' --dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
		"$2" "$1/root" "${lists[@]}"
}

make_root() {	# DIR
	mmdeb "$1" "$base" 2>&1 | tee "$1/mmdebstrap.log" && return 0
	# Some mirrors' trixie indices were seen to fail apt's size check
	# ('File has unexpected size'); the same release by its alias works.
	[ "$base" = trixie ] && grep -q 'File has unexpected size' "$1/mmdebstrap.log" || return 1
	echo "vx: trixie's indices failed apt's size check; again as 'stable'"
	rm -rf "$1/root"
	mmdeb "$1" stable
}

mkdir -p "${dest%/*}"
tmp=$(mktemp -d "${dest%/*}/.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
vx_run "$log" "making $what (mmdebstrap)" make_root "$tmp"
rm -f "$tmp/mmdebstrap.log"
[ -z "$check" ] || [ -f "$tmp/root/$check" ] ||
	vx_die "no headers for $kver in the build root (log: $log)"
trap - EXIT
vx_publish "$tmp" "$dest"
echo "$dest/root"
