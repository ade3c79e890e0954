#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug kernel lane's guest (docs/debug-kernel.md): vortex.ko built
# against the debug kernel (scripts/debug-kernel.sh, built if missing) by
# `build-module.sh --series debug`, from a copy of the sources in
# $O/module/<kver>, so the main build's vortex.ko stays; and an initramfs
# OUT/initramfs.cpio with it and the usual guest files.  Prints the
# kernel entry.
#   debug-guest.sh OUT      then boot it with
#     VX_KERNEL=$(scripts/debug-kernel.sh) VX_INITRD=OUT/initramfs.cpio \
#         scripts/run-guest.sh ...
# The guest tests and files must be built already (make all).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
vx_usage 1 "$@"
mkdir -p "$1"
out=$(cd "$1" && pwd)
entry=$("$VX_TOP/scripts/debug-kernel.sh")
cd "$VX_TOP"
vx_run "$VX_LOGS/debug-module.log" "building vortex.ko for the debug kernel" \
	scripts/build-module.sh --series debug
mod=$(tail -n 1 "$VX_LOGS/debug-module.log")	# the directory it printed
# shellcheck disable=SC2046  # one word per test and file
scripts/initramfs.sh "$out/initramfs.cpio" "$entry" "$mod/vortex.ko" \
	$(vx_make_var GUEST_TESTS) -- $(vx_make_var GUEST_FILES)
echo "$entry"
