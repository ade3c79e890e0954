#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Smoke test of the QEMU "vortex" device itself, without a guest (TAP).

Drives qemu-system-x86_64 through the qtest protocol (port I/O for PCI
config space, MMIO and VRAM accesses) and the HMP monitor, to check what
the host tests of the simulator cannot: properties and their validation,
BAR layout, the run thread (a looping kernel leaves MMIO responsive), INTx,
system_reset, and hot-unplug (device_del, acked through the PIIX4 ACPI
eject register) while a kernel loops.

usage: qtest_vortex.py [QEMU_BINARY [FIRMWARE_DIR]]
With no arguments it uses the bench's QEMU entry named by $VX_QEMU
(scripts/qemu.sh), as `make check` does.
"""
import os
import socket
import subprocess
import sys
import tempfile
import time

SLOT = 4
CFG = 0x80000000 | SLOT << 11
BAR0 = 0xfe000000
BAR2 = 0xc0000000
RING, CODE, DATA = 0x10000, 0x20000, 0x40000
DEV = 0x80000000
J_SELF, TMC0 = 0x0000006f, 0x0000000b
RESET_KEY = 0x52535421


class Qemu:
    def __init__(self, qemu, fw, extra=''):
        self.dir = tempfile.mkdtemp(prefix='vxqt')
        self.mon_path = os.path.join(self.dir, 'mon.sock')
        args = [qemu, '-machine', 'pc,accel=qtest', '-nodefaults',
                '-display', 'none', '-qtest', 'stdio',
                '-qtest-log', '/dev/null',
                '-monitor', 'unix:%s,server=on,wait=off' % self.mon_path,
                '-device', 'vortex,id=vx0,addr=%02x.0%s' % (SLOT, extra)]
        if fw:
            args[1:1] = ['-L', fw]
        self.p = subprocess.Popen(args, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, bufsize=1)
        self.mon = None
        self.events = []        # asynchronous lines: "IRQ raise 11"

    def qt(self, line):
        self.p.stdin.write(line + '\n')
        self.p.stdin.flush()
        while True:
            out = self.p.stdout.readline()
            if not out:
                raise RuntimeError('qemu went away')
            out = out.strip()
            if out.startswith(('OK', 'FAIL', 'ERR')):
                return out
            self.events.append(out)

    def hmp(self, line):
        if self.mon is None:
            for _ in range(50):
                try:
                    self.mon = socket.socket(socket.AF_UNIX)
                    self.mon.connect(self.mon_path)
                    break
                except OSError:
                    time.sleep(0.1)
            self.mon.settimeout(0.5)
        self.mon.sendall((line + '\n').encode())
        time.sleep(0.3)
        try:
            return self.mon.recv(1 << 16).decode(errors='replace')
        except socket.timeout:
            return ''

    def cfg_write(self, reg, val):
        self.qt('outl 0xcf8 0x%x' % (CFG | reg))
        self.qt('outl 0xcfc 0x%x' % val)

    def cfg_read(self, reg):
        self.qt('outl 0xcf8 0x%x' % (CFG | reg))
        return int(self.qt('inl 0xcfc').split()[1], 16)

    def rd(self, off):
        return int(self.qt('readl 0x%x' % (BAR0 + off)).split()[1], 16)

    def wr(self, off, val):
        self.qt('writel 0x%x 0x%x' % (BAR0 + off, val))

    def vram(self, off, val):
        self.qt('writel 0x%x 0x%x' % (BAR2 + off, val))

    def map_bars(self):
        self.cfg_write(0x10, BAR0)
        self.cfg_write(0x18, BAR2)
        self.cfg_write(0x1c, 0)
        self.cfg_write(0x04, 0x6)       # memory space, bus master

    def launch(self, insn, blocks, seqno=None):
        """One kernel of a single instruction, then maybe a FENCE."""
        self.vram(CODE, insn)
        self.wr(0x040, DEV + RING)
        self.wr(0x044, 0x1000)
        self.wr(0x050, 1)
        words = [0x000c0001, DEV + CODE, DEV + DATA, blocks, 1, 1, 8, 1, 1,
                 0, 0, 0, 0]
        if seqno is not None:
            words += [0x00020002, seqno, 1]
        for i, w in enumerate(words):
            self.vram(RING + 4 * i, w)
        self.wr(0x04c, 4 * len(words))
        self.wr(0x054, 1)

    def threads(self):
        return len(os.listdir('/proc/%d/task' % self.p.pid))

    def close(self):
        try:
            self.hmp('quit')
            self.p.wait(timeout=10)
        except Exception:
            self.p.kill()
            self.p.wait()
        return self.p.returncode


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, name):
        self.n += 1
        self.failed += not cond
        print('%s %d %s' % ('ok' if cond else 'not ok', self.n, name),
              flush=True)


def bad_property(qemu, fw, prop, word):
    args = [qemu, '-machine', 'pc', '-nodefaults', '-display', 'none',
            '-device', 'vortex,' + prop]
    if fw:
        args[1:1] = ['-L', fw]
    r = subprocess.run(args, capture_output=True, text=True, timeout=30)
    return r.returncode != 0 and word in r.stderr


def main():
    if len(sys.argv) > 1:
        qemu = sys.argv[1]
        fw = sys.argv[2] if len(sys.argv) > 2 else None
    elif os.environ.get('VX_QEMU'):
        qemu = os.path.join(os.environ['VX_QEMU'], 'bin', 'qemu-system-x86_64')
        fw = os.path.join(os.environ['VX_QEMU'], 'share')
    else:
        sys.exit(__doc__)
    t = Tap()
    print('TAP version 13\n1..13', flush=True)

    t.ok(bad_property(qemu, fw, 'threads=6', 'threads'),
         'threads=6 is refused, naming the property')
    t.ok(bad_property(qemu, fw, 'vram=8M', 'vram'),
         'vram=8M is refused, naming the property')

    q = Qemu(qemu, fw)
    t.ok(q.cfg_read(0) == 0x76581234 and q.cfg_read(8) >> 8 == 0x120000,
         'PCI IDs and class')
    q.map_bars()
    t.ok(q.cfg_read(0x18) & 0xf == 0xc, 'BAR2 is 64-bit prefetchable')
    t.ok(q.rd(0x000) == 0x58545256 and q.rd(0x010) == 256 << 20,
         'ID and default VRAM size through BAR0')

    q.launch(J_SELF, 4)
    time.sleep(0.2)
    c0 = q.rd(0x038)
    worst = 0
    for _ in range(200):
        start = time.monotonic()
        q.rd(0x024)
        worst = max(worst, time.monotonic() - start)
    time.sleep(0.05)
    t.ok(q.rd(0x038) != c0, 'a looping kernel runs on the device thread')
    # generous: the bound is one run slice, but the host may be loaded
    t.ok(worst < 0.1, 'MMIO stays responsive (worst %.2f ms)' % (worst * 1e3))

    q.wr(0x020, RESET_KEY)
    t.ok(q.rd(0x024) == 0, 'RESET stops the looping kernel')

    # INTx (MSI stays off without a guest): i440fx routes slot 4 INTA to
    # PIRQD, which PIIX3 register 0x63 sends to IRQ 11.
    q.qt('outl 0xcf8 0x%x' % (0x80000000 | 1 << 11 | 0x60))
    q.qt('outb 0xcff 0xb')
    q.qt('irq_intercept_in ioapic')
    q.wr(0x034, 1)
    q.launch(TMC0, 64, seqno=42)
    time.sleep(0.2)
    t.ok(q.rd(0x060) == 42 and q.rd(0x030) & 1, 'LAUNCH + FENCE complete')
    q.wr(0x030, 1)
    time.sleep(0.1)
    q.rd(0x030)
    t.ok(q.events == ['IRQ raise 11', 'IRQ lower 11'],
         'INTx follows IRQ_STATUS & IRQ_ENABLE (%s)' % q.events)

    q.wr(0x020, RESET_KEY)
    q.launch(J_SELF, 4)
    time.sleep(0.1)
    q.hmp('system_reset')
    time.sleep(0.3)
    q.map_bars()
    t.ok(q.rd(0x024) == 0 and q.rd(0x000) == 0x58545256,
         'system_reset resets the card')

    q.launch(J_SELF, 4)
    time.sleep(0.1)
    before = q.threads()
    q.hmp('device_del vx0')
    q.qt('outl 0xae10 0x0')             # PIIX4 ACPI hotplug: bus select 0
    q.qt('outl 0xae08 0x%x' % (1 << SLOT))  # the guest's eject
    time.sleep(0.5)
    gone = '7658' not in q.hmp('info pci')
    t.ok(gone and q.threads() == before - 1,
         'device_del while a kernel loops joins the run thread')
    t.ok(q.close() == 0, 'QEMU exits cleanly afterwards')
    return 1 if t.failed else 0


if __name__ == '__main__':
    sys.exit(main())
