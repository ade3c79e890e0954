#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Builds vortex.ko with the top-level Kbuild.
#
#   build-module.sh                  against the cached Debian 6.12 headers
#                                    the guest boots with (scripts/kernel.sh),
#                                    in-tree: ./vortex.ko; any other kernel
#                                    tree works too: KDIR=/path/to/linux
#   build-module.sh --series newest  against Debian's newest kernel, in its
#                                    build root (scripts/buildroot.sh), from
#                                    a copy of the sources in
#                                    $O/module/<kver>; prints that directory
#                                    (its vortex.ko)
#   build-module.sh --series debug   the same against the debug kernel
#                                    (scripts/debug-kernel.sh), on the host
#
# CONFIG_DRM_ACCEL_VORTEX_DEBUG=y|n (environment; y unless set, as the
# guests, tests and benchmarks want): whether vortex.ko has the test hooks
# (Kconfig's DRM_ACCEL_VORTEX_DEBUG, the debugfs gates).  `make install`
# sets n.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
vx_usage 0 "$@"
series=6.12
if [ "${1:-}" = --series ]; then
	series=$2
fi
debug=${CONFIG_DRM_ACCEL_VORTEX_DEBUG:-y}
case $debug in
y|n) ;;
*) vx_die "CONFIG_DRM_ACCEL_VORTEX_DEBUG is y or n, not $debug" ;;
esac
kbuild=(W="${VX_KBUILD_W:-1}" CONFIG_DRM_ACCEL_VORTEX_DEBUG="$debug" modules)
# Under make, the parent's jobserver sets the parallelism.
jobs=-j$(nproc)
[ -n "${MAKELEVEL:-}" ] && jobs=

# The cached 6.12 and debug kernels were built by the host's gcc: their
# modules may compile through ccache.  Another KDIR keeps its own CC.
cc=()
[ -z "$VX_CCACHE" ] || cc=(CC="$VX_CCACHE gcc")
if [ "$series" = 6.12 ]; then
	if [ -n "${KDIR:-}" ]; then
		cc=()
	else
		KDIR=$("$VX_TOP/scripts/kernel.sh")/headers
	fi
	make -C "$KDIR" M="$VX_TOP" $jobs "${kbuild[@]}" "${cc[@]}" >&2
	exit 0
fi

if [ "$series" = debug ]; then
	entry=$("$VX_TOP/scripts/debug-kernel.sh")
else
	entry=$("$VX_TOP/scripts/kernel.sh" --series "$series")
fi
kver=$(basename "$(readlink -f "$entry/modules")")
out=${O:-build}
[[ $out = /* ]] || out=$VX_TOP/$out
dir=$out/module/$kver
# The module's sources, copied (with their times, so make rebuilds only
# what changed) beside their own objects: the in-tree 6.12 objects in the
# checkout would otherwise be taken for this kernel's.
mkdir -p "$dir"
(cd "$VX_TOP" && find Kbuild driver uapi hw dbgcore -name Kbuild -o -name '*.[ch]') | sort > "$dir/.sources.new"
if [ -f "$dir/.sources" ]; then
	comm -23 "$dir/.sources" "$dir/.sources.new" | (cd "$dir" && xargs -r rm -f)
fi
mv "$dir/.sources.new" "$dir/.sources"
(cd "$VX_TOP" && xargs cp -p --parents -u -t "$dir") < "$dir/.sources"
if [ "$series" = debug ]; then
	make -C "$entry/headers" M="$dir" ${jobs:+"$jobs"} "${kbuild[@]}" "${cc[@]}" >&2
else
	root=$("$VX_TOP/scripts/buildroot.sh" "$kver" "$(cat "$entry/suite")")
	VX_BIND=$dir "$VX_TOP/scripts/buildroot.sh" --run "$root" \
		make -C "/usr/src/linux-headers-$kver" M="$dir" ${jobs:+"$jobs"} "${kbuild[@]}" >&2
fi
echo "$dir"
