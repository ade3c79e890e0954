#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Builds vortex.ko with the top-level Kbuild.  KDIR defaults to the cached
# Debian headers the guest boots with (scripts/kernel.sh); any other kernel
# tree works too: KDIR=/path/to/linux make module.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
if [ -z "${KDIR:-}" ]; then
	KDIR=$("$VX_TOP/scripts/kernel.sh")/headers
fi
# Under make, the parent's jobserver sets the parallelism.
jobs=-j$(nproc)
[ -n "${MAKELEVEL:-}" ] && jobs=
make -C "$KDIR" M="$VX_TOP" $jobs W="${W:-1}" modules >&2
