#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The cuda-gdb lane (issue 38): NVIDIA's cuda-gdb, as Debian 13 (trixie)
# ships it in non-free (nvidia-cuda-gdb 12.4, installed in its cached
# root by scripts/cuda-gdb.sh), opens the CUDA ELF of every dump given in
# batch mode, and scripts/cuda-gdb-check.py checks what it reads against
# the dump's text, lane by lane (docs/driver.md, "The CUDA ELF's device
# row").
#
#   cuda-gdb-lane.sh OUT.tap INPUT...
#
# INPUT: a dump (a .devcd file), or a guest boot's dumps.log: the dumps
# its tests read, which run-guest.sh --keep-dumps has the guest send.
# Writes TAP to OUT.tap, its exit status to OUT.tap.rc (scripts/tap.py
# --host=NAME=OUT.tap), and cuda-gdb's sessions to OUT.d/.  A cuda-gdb
# that cannot be installed fails the lane: it is not skipped.
set -uo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
vx_usage 2 "$@"
out=$(realpath -m "$1")
shift
mkdir -p "$(dirname "$out")"
tool=${VX_COREDUMP:-$VX_TOP/${O:-build}/host/userspace/vortex-coredump}

# fail WHY: the lane's one result.
fail() {
	printf 'TAP version 13\n1..1\nnot ok 1 %s\n' "$1" > "$out"
	echo 1 > "$out.rc"
	vx_log "cuda-gdb lane: $1"
	exit 1
}

[ -x "$tool" ] || fail "no vortex-coredump at $tool (make $tool)"
inputs=()
for i in "$@"; do
	case $i in
	*=*) inputs+=("$i") ;;
	*.devcd) inputs+=("$(basename "$i" .devcd)=$(realpath "$i")") ;;
	*) inputs+=("$(realpath -m "$i")") ;;
	esac
done
if ! ver=$("$VX_TOP/scripts/cuda-gdb.sh" --version 2> "$out.log") ||
   ! root=$("$VX_TOP/scripts/cuda-gdb.sh" 2>> "$out.log"); then
	fail "cuda-gdb from Debian trixie non-free (nvidia-cuda-gdb) could not be installed: $(tail -n 1 "$out.log")"
fi
rm -rf "$out.d"
mkdir -p "$out.d"
# cuda-gdb runs chrooted in its root: the ELFs and the session files are
# bound at the same path there, once for every dump (buildroot.sh --enter:
# a namespace and its mounts per dump cost 0.2 s of each dump's 0.7).
VX_BIND=$out.d "$VX_TOP/scripts/buildroot.sh" --enter "$root" \
	"$VX_TOP/scripts/cuda-gdb-check.py" --coredump "$tool" \
	--gdb "chroot $root cuda-gdb" --dir "$out.d" "${inputs[@]}" > "$out.tmp"
rc=$?
{ head -n 2 "$out.tmp"; echo "# cuda-gdb $ver (Debian trixie non-free, $root)"
  tail -n +3 "$out.tmp"; } > "$out"
rm -f "$out.tmp"
echo $rc > "$out.rc"
vx_log "cuda-gdb $ver: $(grep -c '^ok' "$out") checks passed, $(grep -c '^not ok' "$out") failed ($out)"
exit $rc
