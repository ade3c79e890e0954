#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetches Debian's 6.12 kernel image and its matching headers into the cache
# (dpkg -x, nothing is installed on the host) and prints the cache entry.
# The version is the newest 6.12.N+deb12 for which apt has both the image
# and the headers; VX_KERNEL_VERSION=6.12.N+deb12 pins one.
#
#   kernel.sh            fetch if needed, print the entry directory
#   kernel.sh --version  print the version that would be used
#
# Entry layout: vmlinuz, modules/ (lib/modules/<kver>), headers/ (a KDIR).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

pick_version() {
	if [ -n "${VX_KERNEL_VERSION:-}" ]; then
		echo "$VX_KERNEL_VERSION"
		return
	fi
	local images headers
	images=$(apt-cache pkgnames linux-image-6.12. | sed -n 's/^linux-image-\(6\.12\.[0-9]*+deb12[.0-9]*\)-amd64$/\1/p')
	headers=$(apt-cache pkgnames linux-headers-6.12. | sed -n 's/^linux-headers-\(6\.12\.[0-9]*+deb12[.0-9]*\)-amd64$/\1/p')
	comm -12 <(sort -u <<<"$images") <(sort -u <<<"$headers") | sort -V | tail -n 1
}

ver=$(pick_version)
[ -n "$ver" ] || vx_die "no linux-image-6.12.*+deb12-amd64 with matching headers in apt (run scripts/apt-sources.sh)"
if [ "${1:-}" = --version ]; then
	echo "$ver"
	exit 0
fi

kver=$ver-amd64
entry=$VX_CACHE/kernel/$kver
if vx_cached "$entry"; then
	echo "$entry"
	exit 0
fi

# Downloads the image, the headers with their -common half and the kbuild
# tools of the same upstream version, and unpacks them into DIR/root.
fetch() {	# DIR
	local kbuild common deb name
	kbuild=$(apt-cache depends "linux-headers-$kver" | sed -n 's/.*Depends: \(linux-kbuild-6\.12[^ ]*\).*/\1/p' | head -n 1)
	common=$(apt-cache depends "linux-headers-$kver" | sed -n 's/.*Depends: \(linux-headers-[^ ]*-common\).*/\1/p' | head -n 1)
	vx_apt_download "$1" download "linux-image-$kver" "linux-headers-$kver" "$common" "$kbuild"
	mkdir "$1/root"
	for deb in "$1"/*.deb; do
		name=${deb##*/}
		echo "vx: unpacking ${name%%_*}"
		dpkg -x "$deb" "$1/root"
	done
}

mkdir -p "$VX_CACHE/kernel"
tmp=$(mktemp -d "$VX_CACHE/kernel/.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
vx_run "$VX_LOGS/kernel.log" "fetching Debian kernel $kver" fetch "$tmp"
r=$tmp/root
hdr=usr/src/linux-headers-$kver
common=$(cd "$r/usr/src" && ls -d linux-headers-*-common)
# Debian's headers Makefile includes its -common half by absolute path;
# make it relative (kbuild runs make with the headers as its directory)
# so the entry works wherever the cache lives.
sed -i "s|^include /usr/src/$common/|include ../$common/|" "$r/$hdr/Makefile"
grep -q "^include ../$common/Makefile" "$r/$hdr/Makefile" ||
	vx_die "unexpected layout of $hdr/Makefile"
if find "$r/usr/src" -lname '/*' | grep -q .; then
	vx_die "absolute symlinks in the headers: $(find "$r/usr/src" -lname '/*' | head -n 3)"
fi
ln -s "root/$hdr" "$tmp/headers"
ln -s "root/lib/modules/$kver" "$tmp/modules"
ln -s "root/boot/vmlinuz-$kver" "$tmp/vmlinuz"
# The package leaves modules.dep to depmod at install time.
depmod -b "$r" "$kver"
rm -f "$r/lib/modules/$kver/build" "$r/lib/modules/$kver/source" "$tmp"/*.deb
echo "$ver" > "$tmp/version"
trap - EXIT
vx_publish "$tmp" "$entry"
echo "$entry"
