#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug servers end to end: boots a guest whose vortex-gdbserver and
# vortex-dmserver listen on virtio-serial ports (run-guest.sh --mode
# debugtest), then drives them from the host through QEMU's TCP sockets:
# gdb-multiarch against the stub (suite gdb_guest), the README's gdb session
# typed at human speed through a pty after a client that gave up (suite
# gdb_readme; the guest restarts the stub for every client), the scripted
# DM client against the bridge (suite dmserver_guest), in that order since
# the card has one debug session; last, gdb-multiarch on a Vortex binary
# launched in Vortex's model (suite gdb_vortex_model, a second stub).  Then tells the guest to finish, which reports how
# the servers ended, unloads the module and hands over its kernel log.
#
#   debug-e2e.sh OUTDIR     prints the tap.py arguments of the five suites
#
# Needs VX_QEMU, VX_KERNEL and VX_INITRD (scripts/prepare.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
vx_usage 1 "$@"
out=$1
mkdir -p "$out"
O=${O:-build}
gdb_e2e=$VX_TOP/userspace/gdbstub/tests/test_gdb.py
gdb_readme=$VX_TOP/userspace/gdbstub/tests/readme_gdb.py
dm_e2e=$VX_TOP/userspace/dmserver/tests/dmserver_e2e.py
ready_timeout=300

# Four free TCP ports of 127.0.0.1 (the kernel picks them; a race with
# another program binding one in between only fails this run, loudly).
read -r gdb_port dm_port ctl_port gdbvx_port < <(python3 -c '
import socket
ss = [socket.socket() for _ in range(4)]
for s in ss:
    s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')

"$VX_TOP/scripts/run-guest.sh" --mode debugtest --out "$out" --timeout 900 \
	--debug-ports "$gdb_port,$dm_port,$ctl_port,$gdbvx_port" > "$out/run-guest.log" 2>&1 &
guest=$!

waited=0
until grep -q '^@@vx-debug-ready' "$out/results.log" 2>/dev/null; do
	if ! kill -0 $guest 2>/dev/null || [ $waited -ge $ready_timeout ]; then
		vx_log "the debug guest never became ready (see $out)"
		break
	fi
	sleep 1
	waited=$((waited + 1))
done

# suite NAME CMD...: one host-driven suite, TAP in $out/NAME.tap.
suite() {
	local name=$1 rc=0
	shift
	timeout --kill-after=5 600 "$@" > "$out/$name.tap" 2>&1 || rc=$?
	echo $rc > "$out/$name.tap.rc"
	printf -- '--host=%s=%s\n' "$name" "$out/$name.tap"
}
suite gdb_guest "$gdb_e2e" --connect "127.0.0.1:$gdb_port" \
	--elf "$VX_TOP/$O/riscv/vecadd.elf"
suite gdb_readme "$gdb_readme" --readme "$VX_TOP/README.md" --top "$VX_TOP" \
	--elf "$VX_TOP/$O/riscv/vecadd.elf" --port "$gdb_port" --log "$out/gdb_readme.pty"
suite dmserver_guest "$dm_e2e" --connect "127.0.0.1:$dm_port"
suite gdb_vortex_model "$VX_TOP/userspace/gdbstub/tests/vortex_model_gdb.py" \
	--connect "127.0.0.1:$gdbvx_port"

# "finish" on the control port, held until the guest has read it (QEMU
# leaves it in the socket while the guest has the port closed, and the
# guest opens it every 0.2 s).  The socket takes one client at a time.
# Said again every second until the guest begins its report: once a
# make check's guest never read the first (all four suites had passed,
# and it waited out its 900 s): a line that reaches the port after its
# reader saw end-of-file (no host yet) and before it closed it is thrown
# away at the close (port_fops_release() calls discard_port_data(),
# drivers/char/virtio_console.c:1005 in 6.12).
python3 - "$ctl_port" "$out/results.log" <<'EOF' || vx_log "could not tell the guest to finish"
import socket, sys, time
port, results = int(sys.argv[1]), sys.argv[2]
def finishing():
    with open(results, errors="replace") as f:
        return "@@vx-begin debug-servers" in f.read()
for _ in range(50):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        break
    except OSError:
        time.sleep(0.2)
else:
    sys.exit(1)
for i in range(600):
    if finishing():
        break
    if i % 10 == 0:
        s.sendall(b"finish\n")
    time.sleep(0.1)
else:
    sys.exit(1)
s.close()
EOF
wait $guest || true
printf -- '--guest=guest[debug]=%s,%s\n' "$out/results.log" "$out/console.log"
