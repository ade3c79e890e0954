#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds the debug kernel (KASAN, lockdep, kmemleak, ...; docs/debug-kernel.md)
# from Debian's linux-source-6.12 into the cache and prints the cache entry.
# The config is `make tinyconfig` + scripts/debug-kernel.config +
# `make olddefconfig`.  The DRM helpers vortex.ko needs are hidden symbols
# that only a "select" turns on, so the repository's Kconfig goes in as
# drivers/accel/vortex/Kconfig with its symbol renamed DRM_ACCEL_VORTEX_DEPS
# (=y: its selects build them in).  Nothing builds the driver in-tree, and
# CONFIG_DRM_ACCEL_VORTEX stays unset, so `make -C ENTRY/headers M=...`
# builds vortex.ko as the module it is (Kbuild).
#
#   debug-kernel.sh           build if needed (24 min on two shared cores),
#                             print the entry directory
#   debug-kernel.sh --print   print it only if it is already there
#   debug-kernel.sh --key     print the cache key
#
# The build runs under nice 10 (VX_DEBUG_KERNEL_NICE=N another level):
# by hand it gives way to what a person does meanwhile; make check runs it
# at 0, its empty cache's longest path (scripts/check.sh).
#
# The key is the linux-source-6.12 package version and a hash of the
# fragment's settings and of the Kconfig's config/depends/select lines
# (comments and help texts do not cost a rebuild).
# Entry layout, as scripts/kernel.sh's: vmlinuz, modules/ (an empty
# lib/modules/<kver>), headers/ (a KDIR: the whole build tree, objects
# removed), plus vmlinux (symbols for reports) and config.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
vx_usage 0 "$@"
tarball=/usr/src/linux-source-6.12.tar.xz
frag=$VX_TOP/scripts/debug-kernel.config
kconfig=$VX_TOP/Kconfig

ver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null) ||
	vx_die "linux-source-6.12 is not installed (scripts/host-deps.sh)"
hash=$( { grep -E '^CONFIG_|^# CONFIG_.* is not set$' "$frag"
	  grep -E '^[[:space:]]*(config|depends|select)' "$kconfig"; } | sha256sum | cut -c1-12)
key=$ver-$hash
entry=$VX_CACHE/debug-kernel/$key
case ${1:-} in
--key) echo "$key"; exit 0 ;;
--print) vx_cached "$entry" || exit 1 ;;
esac
if vx_cached "$entry"; then
	echo "$entry"
	exit 0
fi

# Every line of the fragment must survive olddefconfig: a dropped option
# (an unmet dependency, a renamed symbol) would silently lose a checker.
check_config() {	# .config
	local line sym bad=0
	while IFS= read -r line; do
		case $line in
		CONFIG_*)
			grep -qxF "$line" "$1" && continue
			sym=${line%%=*} ;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }
			sym=${sym%% *}
			grep -q "^$sym=" "$1" || continue ;;
		*) continue ;;
		esac
		echo "config: wanted '$line', got '$(grep -E "^$sym=|^# $sym is not set" "$1" || echo nothing)'"
		bad=1
	done < "$frag"
	return $bad
}

build() {	# DIR
	local src=$1/src make=(nice -n "${VX_DEBUG_KERNEL_NICE:-10}" make -C "$1/src" -j2)
	echo "vx: extracting $(basename "$tarball")"
	tar -C "$1" -xf "$tarball"
	mv "$1/linux-source-6.12" "$src"
	mkdir "$src/drivers/accel/vortex"
	sed 's/\<DRM_ACCEL_VORTEX\>/DRM_ACCEL_VORTEX_DEPS/' "$kconfig" > "$src/drivers/accel/vortex/Kconfig"
	echo 'source "drivers/accel/vortex/Kconfig"' >> "$src/drivers/accel/Kconfig"
	echo "vx: configuring"
	"${make[@]}" tinyconfig
	(cd "$src" && scripts/kconfig/merge_config.sh -m .config "$frag")
	"${make[@]}" olddefconfig
	check_config "$src/.config"
	echo "vx: building"
	"${make[@]}" bzImage modules
	"${make[@]}" INSTALL_MOD_PATH="$1/root" modules_install
	# A KDIR needs the headers, scripts, tools and Module.symvers of the
	# tree, not its objects (~1 GB).
	echo "vx: pruning objects"
	find "$src" -name '*.o' ! -path "$src/scripts/*" ! -path "$src/tools/*" -delete
	rm -rf "$src/Documentation"
}

mkdir -p "$VX_CACHE/debug-kernel"
tmp=$(mktemp -d "$VX_CACHE/debug-kernel/.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS
vx_run "$VX_LOGS/debug-kernel.log" "building the debug kernel $key (KASAN, lockdep, kmemleak)" build "$tmp"
kver=$(cat "$tmp/src/include/config/kernel.release")
ln -s src "$tmp/headers"
ln -s "root/lib/modules/$kver" "$tmp/modules"
ln -s src/arch/x86/boot/bzImage "$tmp/vmlinuz"
ln -s src/vmlinux "$tmp/vmlinux"
ln -s src/.config "$tmp/config"
rm -f "$tmp/root/lib/modules/$kver/build" "$tmp/root/lib/modules/$kver/source"
echo "$ver debug ($kver)" > "$tmp/version"
echo "$((SECONDS - start))" > "$tmp/build-seconds"
trap - EXIT
vx_publish "$tmp" "$entry"
echo "$entry"
