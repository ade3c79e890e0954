#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boots the Debian kernel under QEMU (TCG) with the Vortex card and the
# bench initramfs, always under a timeout.
#
#   run-guest.sh [options]
#     --topology C,K,W,T   clusters, cores/cluster, warps/core, threads/warp
#                          (default 1,2,4,8)
#     --vram BYTES         VRAM size (default 268435456)
#     --smp N              guest CPUs (default 1); with N > 1 QEMU runs one
#                          host thread per vCPU (MTTCG), so races between
#                          ioctls and the driver's work items really overlap
#     --device-props K=V,...  more properties of the vortex device, e.g.
#                          fast-doorbell=off
#     --mode MODE          test (default), demo, shell (interactive), debug
#                          (interactive, with the debug servers listening) or
#                          debugtest (the servers, for scripts/debug-e2e.sh)
#     --debug-ports G,D,C[,V]  host TCP ports (127.0.0.1) of the guest's
#                          virtio-serial ports vortex.gdb (vortex-gdbserver),
#                          vortex.dm (vortex-dmserver), vortex.ctl (the
#                          host tells a debugtest guest to finish) and,
#                          optionally, vortex.gdbvx (vortex-gdbserver on a
#                          Vortex binary launched in Vortex's model); needed
#                          by the debug modes
#     --tests A,B          run only these test programs
#     --keep-dumps         the tests keep every crash dump they read
#                          (vxtest.keep_dumps=1) and the guest sends them
#                          to DIR/dumps.log after them (a virtio-serial
#                          port, vortex.dumps), for scripts/cuda-gdb-lane.sh
#     --timeout SEC        kill QEMU after SEC seconds (default 900)
#     --out DIR            where console.log, results.log, qmp.sock go;
#                          qemu.log keeps what QEMU and this script said
#                          of a boot that did not finish (tap.py quotes it)
#     --append ARGS        more kernel command-line arguments
#     --profile            sample the vCPUs' registers 100 times a second
#                          into DIR/profile (scripts/guest-prof.py: a
#                          second QMP socket, DIR/prof.sock); read it with
#                          guest-prof.py report DIR/profile (the guest
#                          sends its /proc/kallsyms to results.log at the
#                          end)
#
# Needs VX_QEMU (entry of scripts/qemu.sh), VX_KERNEL (entry of
# scripts/kernel.sh) and VX_INITRD; computes any that is unset.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
vx_usage 0 "$@"

topology=1,2,4,8 vram=268435456 smp=1 mode=test tests= timeout=900 out= append= dports=
props= keep_dumps= profile=
while [ $# -gt 0 ]; do
	case $1 in
	--topology) topology=$2; shift 2 ;;
	--vram) vram=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--device-props) props=$2; shift 2 ;;
	--mode) mode=$2; shift 2 ;;
	--tests) tests=$2; shift 2 ;;
	--keep-dumps) keep_dumps=1; shift ;;
	--profile) profile=1; shift ;;
	--timeout) timeout=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--debug-ports) dports=$2; shift 2 ;;
	-h|--help) vx_help; exit 0 ;;
	*) vx_die "unknown option $1 (see --help)" ;;
	esac
done
IFS=, read -r clusters cores warps threads <<<"$topology"
[ -n "$threads" ] || vx_die "--topology wants C,K,W,T"

VX_QEMU=${VX_QEMU:-$("$VX_TOP/scripts/qemu.sh")}
VX_KERNEL=${VX_KERNEL:-$("$VX_TOP/scripts/kernel.sh")}
VX_INITRD=${VX_INITRD:-$VX_TOP/${O:-build}/guest/initramfs.cpio}
[ -f "$VX_INITRD" ] || vx_die "no initramfs at $VX_INITRD (make check builds it)"
out=${out:-$(mktemp -d)}
mkdir -p "$out"
rm -f "$out/console.log" "$out/results.log" "$out/qmp.sock" "$out/dumps.log" \
	"$out/prof.sock" "$out/profile" "$out/qemu.log"

cmdline="console=ttyS0 quiet loglevel=4 panic=-1 vx.mode=$mode"
cmdline+=" vxtest.topology=$topology vxtest.vram=$vram"
[ -n "$tests" ] && cmdline+=" vx.tests=$tests"
[ -n "$append" ] && cmdline+=" $append"
[ -n "$keep_dumps" ] && cmdline+=" vxtest.keep_dumps=1"
# The profile's RIPs are read against the guest's /proc/kallsyms, sent at
# the end (scripts/guest/init).
[ -n "$profile" ] && cmdline+=" vx.kallsyms=1"

qemu=(
	"$VX_QEMU/bin/qemu-system-x86_64" -L "$VX_QEMU/share"
	-machine pc -accel tcg,thread=multi -smp "$smp" -m 512 -nodefaults -nographic -no-reboot
	-kernel "$VX_KERNEL/vmlinuz" -initrd "$VX_INITRD" -append "$cmdline"
	-device "vortex,id=vx0,clusters=$clusters,cores=$cores,warps=$warps,threads=$threads,vram=$vram${props:+,$props}"
	-qmp "unix:$out/qmp.sock,server=on,wait=off"
)
# The debug servers in the guest are reached through virtio-serial ports,
# each a TCP server socket of QEMU on the host (docs/debugging.md).  The
# Debian kernel has virtio_console built in, so the guest needs no module.
case $mode in
debug|debugtest)
	IFS=, read -r gdb_port dm_port ctl_port gdbvx_port <<<"$dports"
	[ -n "$ctl_port" ] || vx_die "--mode $mode needs --debug-ports G,D,C[,V]"
	qemu+=(-device virtio-serial-pci,id=vxser)
	for p in gdb:$gdb_port dm:$dm_port ctl:$ctl_port ${gdbvx_port:+gdbvx:$gdbvx_port}; do
		qemu+=(-chardev "socket,id=vx${p%%:*},host=127.0.0.1,port=${p#*:},server=on,wait=off"
		       -device "virtserialport,bus=vxser.0,chardev=vx${p%%:*},name=vortex.${p%%:*}")
	done
	;;
esac
# The dumps the tests kept (scripts/guest/init): megabytes, which the
# serial port would take minutes over.
if [ -n "$keep_dumps" ]; then
	qemu+=(-device virtio-serial-pci,id=vxdumpser -chardev "file,id=vxdumps,path=$out/dumps.log"
	       -device virtserialport,bus=vxdumpser.0,chardev=vxdumps,name=vortex.dumps)
fi
if [ "$mode" = shell ] || [ "$mode" = debug ]; then
	exec "${qemu[@]}" -serial mon:stdio -serial "file:$out/results.log"
fi
# Guest tests ask the host for things like a hot-unplug (scripts/qmp-watch.py).
"$VX_TOP/scripts/qmp-watch.py" "$out/results.log" "$out/qmp.sock" &
watcher=$!
if [ -n "$profile" ]; then
	qemu+=(-qmp "unix:$out/prof.sock,server=on,wait=off")
	"$VX_TOP/scripts/guest-prof.py" sample "$out/prof.sock" "$out/results.log" "$out/profile" &
fi
rc=0
start=$(date +%s)
# QEMU's own messages (a device that failed to realize, a signal) go to
# the terminal and to qemu.log, which tap.py quotes for a boot that never
# finished: a CI log shows only its end.
timeout --kill-after=10 "$timeout" "${qemu[@]}" \
	-chardev "file,id=con,path=$out/console.log" -serial chardev:con \
	-chardev "file,id=res,path=$out/results.log" -serial chardev:res \
	-monitor none < /dev/null 2> >(tee -a "$out/qemu.log" >&2) || rc=$?
kill $watcher 2>/dev/null || true
wait $watcher 2>/dev/null || true
grep -q '^@@vx-done' "$out/results.log" 2>/dev/null && exit $rc
case $rc in
124|137) why="did not finish within ${timeout}s" ;;
0) why="QEMU exited without the guest's @@vx-done" ;;
*) why="QEMU exited with $rc$( [ $rc -le 128 ] || echo " (signal $((rc - 128)))")" ;;
esac
why+=" after $(( $(date +%s) - start )) s; $(df -h --output=avail "$out" | tail -n 1 | tr -d ' ') free"
why+=" where it writes, $(awk '/^MemAvailable:/ { printf "%d MiB", $2 / 1024 }' /proc/meminfo) available"
echo "run-guest: $why" >> "$out/qemu.log"
vx_log "guest $why"
exit 1
