#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug kernel lane's guest (docs/debug-kernel.md): vortex.ko built
# against the debug kernel (scripts/debug-kernel.sh, built if missing) in
# a copy of the sources under OUT, so the main build's vortex.ko stays, and
# an initramfs with it and the usual guest files.  Prints the kernel entry.
#   debug-guest.sh OUT      then boot it with
#     VX_KERNEL=$(scripts/debug-kernel.sh) VX_INITRD=OUT/initramfs.cpio.gz \
#         scripts/run-guest.sh ...
# The guest tests and files must be built already (make all).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
mkdir -p "$1/module"
out=$(cd "$1" && pwd)
mod=$out/module
entry=$("$VX_TOP/scripts/debug-kernel.sh")
cd "$VX_TOP"
# Only changed files are copied, so kbuild rebuilds only what changed.
cp -ru Kbuild driver uapi hw "$mod/"
jobs=-j$(nproc)
[ -n "${MAKELEVEL:-}" ] && jobs=
vx_run "$VX_LOGS/debug-module.log" "building vortex.ko for the debug kernel" \
	make -C "$entry/headers" M="$mod" $jobs W="${W:-1}" modules
# shellcheck disable=SC2046  # one word per test and file
scripts/initramfs.sh "$out/initramfs.cpio.gz" "$entry" "$mod/vortex.ko" \
	$(make -s print-GUEST_TESTS) -- $(make -s print-GUEST_FILES)
echo "$entry"
