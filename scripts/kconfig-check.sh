#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The driver as it drops into a kernel tree (Kconfig): a copy of the Kconfig
# files of Debian's linux-source-6.12 (extracted into the cache, keyed by
# its version) gets drivers/accel/vortex with our Kconfig and Kbuild, and
# its x86_64 defconfig with DRM_ACCEL=y and DRM_ACCEL_VORTEX=m must resolve
# to a configuration that has what the module uses: DRM_SCHED, DRM_GPUVM,
# DEV_COREDUMP, ZLIB_DEFLATE (modinfo's depends: drm, drm_gpuvm, gpu-sched;
# the dump's devcoredump and zlib).  Prints findings as lint.sh does,
# "Kconfig:LINE: kconfig:KIND: message"; nothing when it resolves.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$VX_TOP"
tarball=/usr/src/linux-source-6.12.tar.xz
ver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null) ||
	vx_die "linux-source-6.12 is not installed (scripts/host-deps.sh)"
entry=$VX_CACHE/kconfig/$ver
if ! vx_cached "$entry"; then
	mkdir -p "$VX_CACHE/kconfig"
	tmp=$(mktemp -d "$VX_CACHE/kconfig/.tmp.XXXXXX")
	# shellcheck disable=SC2064  # $tmp is fixed now
	trap "rm -rf '$tmp'" EXIT
	vx_run "$VX_LOGS/kconfig-tree.log" "extracting the Kconfig files of linux-source-6.12" \
		tar -C "$tmp" -xvf "$tarball" --strip-components=1 --wildcards \
		'linux-source-6.12/Makefile' 'linux-source-6.12/scripts/*' '*Kconfig*' \
		'linux-source-6.12/arch/x86/Makefile*' 'linux-source-6.12/arch/x86/configs/*' \
		'linux-source-6.12/arch/x86/tools/*' 'linux-source-6.12/arch/x86/entry/syscalls/*'
	trap - EXIT
	vx_publish "$tmp" "$entry"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/vx-kconfig.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -r "$entry" "$work/src"
mkdir -p "$work/src/drivers/accel/vortex"
cp Kconfig Kbuild "$work/src/drivers/accel/vortex/"
echo 'source "drivers/accel/vortex/Kconfig"' >> "$work/src/drivers/accel/Kconfig"
k() { make -s -C "$work/src" ARCH=x86_64 O="$work/out" "$@" > "$work/make.log" 2>&1; }
if ! k defconfig; then
	sed 's/^/Kconfig:1: kconfig:PARSE: /' "$work/make.log"
	exit 0
fi
"$work/src/scripts/config" --file "$work/out/.config" -e MODULES -e PCI -e DRM \
	-e DRM_ACCEL -m DRM_ACCEL_VORTEX
if ! k olddefconfig; then
	sed 's/^/Kconfig:1: kconfig:PARSE: /' "$work/make.log"
	exit 0
fi
grep -q '^CONFIG_DRM_ACCEL_VORTEX=m$' "$work/out/.config" ||
	echo "Kconfig:1: kconfig:RESOLVE: DRM_ACCEL_VORTEX=m did not stay set"
for s in DRM_SCHED DRM_GPUVM DEV_COREDUMP ZLIB_DEFLATE; do
	grep -qE "^CONFIG_$s=(y|m)$" "$work/out/.config" ||
		echo "Kconfig:1: kconfig:SELECT: CONFIG_$s is not set with DRM_ACCEL_VORTEX=m"
done
