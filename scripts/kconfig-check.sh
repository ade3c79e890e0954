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
vx_usage 0 "$@"
cd "$VX_TOP"
entry=$(vx_linux_source kconfig "the Kconfig files" --strip-components=1 --wildcards \
	'linux-source-6.12/Makefile' 'linux-source-6.12/scripts/*' '*Kconfig*' \
	'linux-source-6.12/arch/x86/Makefile*' 'linux-source-6.12/arch/x86/configs/*' \
	'linux-source-6.12/arch/x86/tools/*' 'linux-source-6.12/arch/x86/entry/syscalls/*')

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
