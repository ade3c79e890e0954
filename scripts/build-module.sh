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
# modules may compile through ccache.  Another KDIR's too when its kernel
# was built by the host's gcc (CONFIG_CC_VERSION_TEXT, the command's name
# aside: Debian's headers name gcc-12), else it keeps its own CC.
cc=()
[ -z "$VX_CCACHE" ] || cc=(CC="$VX_CCACHE gcc")
gcc_version=$(gcc --version 2> /dev/null | head -n 1)
host_gcc() {
	local kcc
	kcc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$1/.config" 2> /dev/null)
	[ -n "$kcc" ] && [ "${kcc#* }" = "${gcc_version#* }" ]
}
# module_sources: what the module is built from, sorted, relative to the
# checkout.
module_sources() {
	(cd "$VX_TOP" && find Kbuild driver uapi hw dbgcore -name Kbuild -o -name '*.[ch]') | LC_ALL=C sort
}

# The module is cached by what it is built from: the sources' contents,
# the kernel's cache entry (its version and config), the compiler (the
# host's, or the build root's packages) and the options.  A fresh clone
# of a commit built before takes it as it is (issue 34: the newest
# kernel's module was 52 s of a warm make check's serial start, and
# ccache cannot serve a fresh clone's in-tree objects: Kbuild compiles
# them by a path that names the checkout).
# module_cached ENTRY COMPILER-ID: sets $cached, the module's entry;
# true if it holds the module.
module_cached() {
	local key
	key=$({ echo "recipe 1 $series ${kbuild[*]}"; readlink -f "$1"; echo "$2"
		module_sources | (cd "$VX_TOP" && xargs sha256sum); } | sha256sum | cut -c1-16)
	cached=$VX_CACHE/module/$(basename "$(readlink -f "$1/modules")")-$key
	[ -f "$cached/vortex.ko" ]
}
# module_take DIR: the cached module as DIR's vortex.ko.
module_take() {
	cp "$cached/vortex.ko" "$1/vortex.ko"
	# The objects there may be another tree's: the next build relinks.
	rm -f "$1/vortex.o"
	touch "$cached"
}
# module_keep DIR: DIR's vortex.ko into the cache.
module_keep() {
	local tmp
	mkdir -p "$VX_CACHE/module"
	tmp=$(mktemp -d "$cached.XXXXXX")
	cp "$1/vortex.ko" "$tmp/vortex.ko"
	# Another run may have stored the same module meanwhile.
	mv -T "$tmp" "$cached" 2> /dev/null || rm -rf "$tmp"
	# Entries no run has used for a week are another tree's past.
	find "$VX_CACHE/module" -mindepth 1 -maxdepth 1 -mtime +7 -exec rm -rf {} +
}

if [ "$series" = 6.12 ]; then
	# Another kernel tree is built as asked, never from the cache.
	if [ -n "${KDIR:-}" ]; then
		host_gcc "$KDIR" || cc=()
		make -C "$KDIR" M="$VX_TOP" $jobs "${kbuild[@]}" "${cc[@]}" >&2
		exit 0
	fi
	entry=$("$VX_TOP/scripts/kernel.sh")
	if module_cached "$entry" "$gcc_version"; then
		module_take "$VX_TOP"
		exit 0
	fi
	make -C "$entry/headers" M="$VX_TOP" $jobs "${kbuild[@]}" "${cc[@]}" >&2
	module_keep "$VX_TOP"
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
module_sources > "$dir/.sources.new"
if [ -f "$dir/.sources" ]; then
	LC_ALL=C comm -23 "$dir/.sources" "$dir/.sources.new" | (cd "$dir" && xargs -r rm -f)
fi
mv "$dir/.sources.new" "$dir/.sources"
(cd "$VX_TOP" && xargs cp -p --parents -u -t "$dir") < "$dir/.sources"
if [ "$series" = debug ]; then
	compiler=$gcc_version
else
	root=$("$VX_TOP/scripts/buildroot.sh" "$kver" "$(cat "$entry/suite")")
	compiler=$(sha256sum < "$root/var/lib/dpkg/status")
fi
if module_cached "$entry" "$compiler"; then
	module_take "$dir"
	echo "$dir"
	exit 0
fi
if [ "$series" = debug ]; then
	make -C "$entry/headers" M="$dir" ${jobs:+"$jobs"} "${kbuild[@]}" "${cc[@]}" >&2
else
	VX_BIND=$dir "$VX_TOP/scripts/buildroot.sh" --run "$root" \
		make -C "/usr/src/linux-headers-$kver" M="$dir" ${jobs:+"$jobs"} "${kbuild[@]}" >&2
fi
module_keep "$dir"
echo "$dir"
