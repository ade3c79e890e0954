#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make debug-shell`: boots the guest with the debug servers listening
# (vortex-gdbserver, which starts vecadd halted at its first instruction
# for each gdb that connects, and vortex-dmserver with vecadd staged),
# reachable from this machine on
# 127.0.0.1, and gives a shell on the guest's console.
# VX_GDB_PORT (1234), VX_DM_PORT (1235) and VX_CTL_PORT (1236) choose the
# host ports; VX_TOPOLOGY=C,K,W,T the card (1,2,4,8).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
vx_usage 0 "$@"
. "$VX_TOP/scripts/prepare.sh"
gdb_port=${VX_GDB_PORT:-1234} dm_port=${VX_DM_PORT:-1235} ctl_port=${VX_CTL_PORT:-1236}
cat >&2 <<MSG

  Debug the kernel from another terminal on this machine:
    gdb-multiarch $VX_TOP/$O/riscv/vecadd.elf -ex 'target remote 127.0.0.1:$gdb_port'
  then e.g.  break vecadd.c:11, continue, info threads, print i, continue.
  The Debug Module bridge (line protocol, docs/debugging.md):
    python3 -c 'import socket,sys; s=socket.create_connection(("127.0.0.1",$dm_port)); s.sendall(b"p\\n"); print(s.recv(64))'
  Every gdb that connects gets a new vecadd halted at its start.  One
  debugger holds the card at a time: the DM bridge gets it when no gdb
  session is on.  In the guest: poweroff -f to leave.

MSG
exec scripts/run-guest.sh --mode debug --topology "${VX_TOPOLOGY:-1,2,4,8}" \
	--out "$O/debug-shell" --timeout 86400 --debug-ports "$gdb_port,$dm_port,$ctl_port"
