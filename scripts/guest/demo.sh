#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What `make demo` shows inside the guest.
dev=
for d in /sys/bus/pci/devices/*; do
	if [ "$(cat $d/vendor)" = 0x1234 ] && [ "$(cat $d/device)" = 0x7658 ]; then
		dev=$d
	fi
done
if [ -z "$dev" ]; then
	echo "no Vortex card on the PCI bus"
	exit 1
fi
echo "== The card on the PCI bus"
echo "$(basename $dev): Vortex GPGPU [1234:7658], driver $(basename $(readlink $dev/driver) 2>/dev/null)"
i=0
while read -r start end flags; do
	if [ "$start" != 0x0000000000000000 ]; then
		echo "  BAR$i: $start-$end ($(( (end - start + 1) / 1024 )) KiB)"
	fi
	i=$((i + 1))
done < $dev/resource
echo "== What the driver said"
dmesg | grep -i vortex | sed 's/^\[[ 0-9.]*\] /  /'
echo "== Device node"
ls -l /dev/accel/ | sed -n 's/^/  /; 2,$p'
if [ -x /vortex/bin/vortex-run ]; then
	echo "== Card topology (vortex-run --info)"
	vortex-run --info 2>&1 | sed 's/^/  /'
	if [ -f /vortex/kernels/vecadd.elf ]; then
		echo "== Running the vecadd kernel"
		vortex-run /vortex/kernels/vecadd.elf 2>&1 | sed 's/^/  /'
	fi
fi
if [ -x /vortex/bin/vortex-run ] && [ -f /vortex/kernels/hang.elf ]; then
	echo "== A kernel that never ends (hang.elf): the driver's timeout stops it"
	vortex-run /vortex/kernels/hang.elf > /tmp/hang.out 2>&1
	rc=$?
	sed 's/^/  /' /tmp/hang.out
	echo "  vortex-run exit status: $rc (3 = timed out)"
	echo "== What the driver logged"
	dmesg | grep -E 'job (timed out|failed)|crash dump' | tail -n 2 | sed 's/^\[[ 0-9.]*\] /  /'
	for cd in /sys/class/devcoredump/devcd*; do
		[ -f "$cd/data" ] || continue
		echo "== The crash dump: head -n 40 $cd/data"
		head -n 40 "$cd/data" | cut -c1-100 | sed 's/^/  /'
		echo "  ... ($(wc -c < "$cd/data") bytes; the warps section:)"
		sed -n '/^warps:/,/^      - lane: 1$/p' "$cd/data" | cut -c1-100 | sed 's/^/  /'
		if [ -x /vortex/bin/vortex-coredump ]; then
			echo "== The decoder's summary: vortex-coredump $cd/data"
			vortex-coredump "$cd/data" 2>&1 | sed 's/^/  /'
		fi
		echo "  (discarded with: echo 1 > $cd/data)"
		echo 1 > "$cd/data"
	done
	echo "== The card still works after the reset"
	vortex-run /vortex/kernels/vecadd.elf 2>&1 | sed 's/^/  /'
fi
