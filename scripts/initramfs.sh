#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds the guest's initramfs: busybox-static, the Debian DRM modules that
# vortex.ko needs (decompressed, in dependency order), vortex.ko, and the
# guest files (tests, device kernels, tools).
#   initramfs.sh OUT.cpio KERNEL_ENTRY VORTEX_KO TESTS... -- FILES...
# The archive is not compressed and the programs carry no debug info: the
# kernel unpacks it before init runs, and the debug kernel's KASAN checks
# every byte its inflate reads and writes.  Gzipped (-1), that debug boot
# spent 24 s of its 56 s before init unpacking 21 MB into 46 (2026-11-30,
# an AVX2-only AMD EPYC: guest-prof.py put a third of those samples in
# inflate_fast and its KASAN checks).
# KERNEL_ENTRY is any scripts/kernel.sh entry (6.12 or the newest: only its
# modules/ is read), VORTEX_KO the module built for that kernel.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
vx_usage 3 "$@"
out=$1 kentry=$2 ko=$3
shift 3
tests=() files=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do tests+=("$1"); shift; done
[ $# -gt 0 ] && shift
files=("$@")

kver=$(basename "$(readlink -f "$kentry/modules")")
kover=$(modinfo -F vermagic "$ko" | cut -d' ' -f1)
[ "$kover" = "$kver" ] || vx_die "$ko was built for $kover, not for the entry's $kver"
moddir=$kentry/modules
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,dev,proc,sys,tmp,lib/modules,vortex/tests,vortex/kernels,vortex/bin}
cp /bin/busybox "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
install -m 755 "$VX_TOP/scripts/guest/init" "$root/init"
install -m 644 "$VX_TOP/scripts/guest/demo.sh" "$root/vortex/demo.sh"

# Dependencies of vortex.ko, depth first, from the image's modules.dep.
declare -A seen=()
order=()
add_dep() {	# module path relative to $moddir
	local rel=$1 d
	[ -n "${seen[$rel]:-}" ] && return
	seen[$rel]=1
	for d in $(sed -n "s|^$rel: *||p" "$moddir/modules.dep"); do
		add_dep "$d"
	done
	order+=("$rel")
}
for name in $(modinfo -F depends "$ko" | tr ',' ' '); do
	rel=$(grep -E "^[^:]*/$name\.ko(\.xz|\.zst)?:" "$moddir/modules.dep" | cut -d: -f1 | head -n 1)
	[ -n "$rel" ] || vx_die "module $name (needed by vortex.ko) not in $kver"
	add_dep "$rel"
done
: > "$root/vortex/modules.list"
for rel in "${order[@]}"; do
	base=${rel##*/}
	base=${base%.xz}
	base=${base%.zst}
	case $rel in
	*.xz) xz -dc "$moddir/$rel" ;;
	*.zst) zstd -qdc "$moddir/$rel" ;;
	*) cat "$moddir/$rel" ;;
	esac > "$root/lib/modules/$base"
	echo "$base" >> "$root/vortex/modules.list"
done
cp "$ko" "$root/lib/modules/vortex.ko"
echo vortex.ko >> "$root/vortex/modules.list"

# what install copied of a host program, without its debug info (the
# device kernels, *.elf and *.vxbin, keep theirs: the debuggers read it)
strip_debug() {
	[ "$(head -c 4 "$1")" != $'\x7fELF' ] || strip --strip-debug "$1"
}
for t in "${tests[@]}"; do
	install -m 755 "$t" "$root/vortex/tests/"
	strip_debug "$root/vortex/tests/$(basename "$t")"
done
for f in "${files[@]}"; do
	case $f in
	*.elf | *.vxbin) install -m 644 "$f" "$root/vortex/kernels/" ;;
	*.rules) install -m 644 "$f" "$root/vortex/" ;;
	*) install -m 755 "$f" "$root/vortex/bin/"
	   strip_debug "$root/vortex/bin/$(basename "$f")" ;;
	esac
done
(cd "$root" && find . | cpio -o -H newc --quiet) > "$out.tmp"
mv "$out.tmp" "$out"
