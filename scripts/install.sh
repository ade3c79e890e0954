#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Installs what `make all` built: the module, the tools, the libraries with
# their headers and pkg-config files, the sample kernels.  `make install`
# runs it after building; it builds nothing itself.
#
#   install.sh [--prefix DIR] [--destdir DIR] [--kdir DIR] [--no-module]
#   install.sh --dkms [--destdir DIR]
#     --prefix DIR   where the tools and libraries go (default /usr/local)
#     --destdir DIR  a staging root prepended to every path (packaging)
#     --kdir DIR     the kernel build tree vortex.ko was built against
#                    (default: the cached Debian headers, scripts/kernel.sh);
#                    the module goes to DESTDIR/lib/modules/RELEASE/updates
#     --no-module    leave the module out (install it with DKMS instead:
#                    README, "Installing")
#     --dkms         only the module's sources, to DESTDIR/usr/src/vortex-V,
#                    registered with DKMS (dkms.conf), which builds and
#                    installs it for every installed kernel that has headers
#                    and again at each kernel update; without --destdir it
#                    runs `dkms install`
#
# Layout under PREFIX:
#   bin/            vxdbg vortex-run vortex-gdbserver vortex-dmserver
#                   vortex-coredump vortex-dump-collector elf2vxbin
#   include/vortex/vortex.h            Vortex's runtime API (libvortexrt)
#   include/libvortex.h                the project's runtime API (libvortex)
#   include/libvortex-debug/vxdbg.h    the debugger library
#   include/drm/vortex_accel.h         the ioctl ABI
#   lib/lib{vortexrt,vortex,vortex-debug}.a
#   lib/pkgconfig/{vortexrt,libvortex,libvortex-debug}.pc
#   share/vortex/kernels/              the sample kernels (.elf, .vxbin)
# and DESTDIR/etc/udev/rules.d/70-vortex-coredump.rules, the collector's.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
vx_usage 0 "$@"

prefix=/usr/local destdir= kdir= module=1 dkms=0
while [ $# -gt 0 ]; do
	case $1 in
	--prefix) prefix=$2; shift 2 ;;
	--prefix=*) prefix=${1#*=}; shift ;;
	--destdir) destdir=$2; shift 2 ;;
	--destdir=*) destdir=${1#*=}; shift ;;
	--kdir) kdir=$2; shift 2 ;;
	--no-module) module=0; shift ;;
	--dkms) dkms=1; shift ;;
	-h|--help) vx_help; exit 0 ;;
	*) vx_die "unknown option $1 (see --help)" ;;
	esac
done
case $prefix in /*) ;; *) vx_die "--prefix wants an absolute path, not $prefix" ;; esac
O=${O:-build}
b=$VX_TOP/$O
root=$destdir$prefix
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$VX_TOP/dkms.conf")

# The module's sources for DKMS: what Kbuild reads, nothing built.
install_dkms() {
	local src=$destdir/usr/src/vortex-$version
	rm -rf "$src"
	install -d "$src"
	(cd "$VX_TOP" && cp -r --parents Kbuild Kconfig dkms.conf driver/*.[ch] \
		uapi/*.h hw/*.h dbgcore/*.[ch] "$src/")
	echo "module sources for DKMS in $src"
	[ -z "$destdir" ] || return 0
	command -v dkms >/dev/null || vx_die "dkms is not installed (apt-get install dkms)"
	dkms remove "vortex/$version" --all >/dev/null 2>&1 || true
	# Every kernel whose headers are installed (what Debian's kernel hook,
	# /etc/kernel/postinst.d/dkms, then does for each new one).
	local k n=0
	for k in /lib/modules/*/build; do
		k=${k%/build}
		k=${k##*/}
		[ "$(make -s --no-print-directory -C "/lib/modules/$k/build" kernelrelease 2>/dev/null)" = "$k" ] || continue
		# one copy: DKMS's replaces what `make install` put there
		rm -f "/lib/modules/$k/updates/vortex.ko"
		dkms install "vortex/$version" -k "$k"
		n=$((n + 1))
	done
	[ $n -gt 0 ] || vx_die "no kernel headers in /lib/modules/*/build: install linux-headers-$(uname -r)"
}
[ $dkms -eq 0 ] || { install_dkms; exit 0; }

need() {
	local f
	for f; do
		[ -e "$f" ] || vx_die "$f is missing: run make all first"
	done
}

bins=("$b"/guest/{vxdbg,vortex-run,vortex-gdbserver,vortex-dmserver,vortex-coredump,vortex-dump-collector}
      "$b/host/elf2vxbin")
libs=("$b"/userspace/lib{vortexrt,vortex,vortex-debug}.a)
need "${bins[@]}" "${libs[@]}"

install -d "$root"/{bin,lib/pkgconfig,include/vortex,include/libvortex-debug,include/drm,share/vortex/kernels}
install -m 755 "${bins[@]}" "$root/bin/"
install -m 644 "${libs[@]}" "$root/lib/"
install -m 644 "$VX_TOP/userspace/vxrt/include/vortex/vortex.h" "$root/include/vortex/"
install -m 644 "$VX_TOP/userspace/include/libvortex.h" "$root/include/"
install -m 644 "$VX_TOP/userspace/debug/vxdbg.h" "$root/include/libvortex-debug/"
install -m 644 "$VX_TOP/uapi/vortex_accel.h" "$root/include/drm/"
install -m 644 "$b"/riscv/*.elf "$b"/riscv/*.vxbin "$root/share/vortex/kernels/"
# The reference collector's udev rule: each crash dump saved to
# /var/crash/vortex, the card's slot freed (README, "Crash dumps").
install -d "$destdir/etc/udev/rules.d"
sed "s|@BINDIR@|$prefix/bin|" "$VX_TOP/userspace/tools/70-vortex-coredump.rules" \
	> "$destdir/etc/udev/rules.d/70-vortex-coredump.rules"

# pc NAME DESCRIPTION INCDIR LIBS [REQUIRES]
pc() {
	cat > "$root/lib/pkgconfig/$1.pc" <<-PC
	prefix=$prefix
	libdir=\${prefix}/lib
	includedir=\${prefix}/include

	Name: $1
	Description: $2
	Version: $version
	Cflags: -I\${includedir}/$3
	Libs: -L\${libdir} $4
	${5:+Requires.private: $5}
	PC
}
pc vortexrt "Vortex's runtime API (<vortex.h>) over the Vortex accel driver" vortex -lvortexrt
pc libvortex "The Vortex driver's own runtime library" "" -lvortex
pc libvortex-debug "Debugger library for Vortex cards (CUDA Debugger API shaped)" \
	libvortex-debug "-lvortex-debug -lvortex" libvortex
echo "installed the tools and libraries under $root"

[ $module -eq 1 ] || exit 0
kdir=${kdir:-$("$VX_TOP/scripts/kernel.sh")/headers}
need "$VX_TOP/vortex.ko"
release=$(make -s --no-print-directory -C "$kdir" kernelrelease 2>/dev/null) || vx_die "no kernel build tree at $kdir"
install -D -m 644 "$VX_TOP/vortex.ko" "$destdir/lib/modules/$release/updates/vortex.ko"
if [ -z "$destdir" ]; then
	depmod -a "$release"
elif [ -e "/lib/modules/$release/modules.dep" ]; then
	depmod -b "$destdir" "$release"
fi
echo "installed vortex.ko for $release under $destdir/lib/modules/$release/updates"
