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
set -euo pipefail
. "$(dirname "$0")/lib.sh"
vx_usage 0 "$@"
series=6.12
if [ "${1:-}" = --series ]; then
	series=$2
fi
# Under make, the parent's jobserver sets the parallelism.
jobs=-j$(nproc)
[ -n "${MAKELEVEL:-}" ] && jobs=

if [ "$series" = 6.12 ]; then
	if [ -z "${KDIR:-}" ]; then
		KDIR=$("$VX_TOP/scripts/kernel.sh")/headers
	fi
	make -C "$KDIR" M="$VX_TOP" $jobs W="${VX_KBUILD_W:-1}" modules >&2
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
	make -C "$entry/headers" M="$dir" ${jobs:+"$jobs"} W="${VX_KBUILD_W:-1}" modules >&2
else
	root=$("$VX_TOP/scripts/buildroot.sh" "$kver" "$(cat "$entry/suite")")
	VX_BIND=$dir "$VX_TOP/scripts/buildroot.sh" --run "$root" \
		make -C "/usr/src/linux-headers-$kver" M="$dir" ${jobs:+"$jobs"} W="${VX_KBUILD_W:-1}" modules >&2
fi
echo "$dir"
