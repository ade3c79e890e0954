#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Smoke test of the QEMU "vortex" device itself, without a guest (TAP).

Drives qemu-system-x86_64 through the qtest protocol (port I/O for PCI
config space, MMIO and VRAM accesses) and the HMP monitor, to check what
the host tests of the simulator cannot: properties and their validation,
BAR layout, the run thread (a looping kernel leaves MMIO responsive), INTx,
the fast doorbell and fast-doorbell=off, system_reset, and hot-unplug (device_del, acked through the PIIX4 ACPI
eject register) while a kernel loops and interrupts come, then hot-plug.

Register offsets, values and packet layouts come from hw/vortex_regs.h,
the header the device model and the driver are built from.

usage: qtest_vortex.py [QEMU_BINARY [FIRMWARE_DIR]]
With no arguments it uses the bench's QEMU entry named by $VX_QEMU
(scripts/qemu.sh), as `make check` does.
"""
import os
import re
import select
import socket
import subprocess
import sys
import tempfile
import time
import types

REGS_H = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      '..', '..', 'hw', 'vortex_regs.h')


def c_expr(expr):
    """A C integer expression of the header as Python: casts to unsigned
    dropped, integer suffixes stripped, ~x a 32-bit complement."""
    expr = re.sub(r'\(\s*unsigned(\s+int)?\s*\)', '', expr)
    toks = [re.sub(r'^(0[xX][0-9a-fA-F]+|\d+)[uUlL]+$', r'\1', t) for t in
            re.findall(r'0[xX][0-9a-fA-F]+\w*|\d+\w*|\w+|<<|>>|\S', expr)]

    def close(i):
        """Index of the ')' matching the '(' at toks[i]."""
        depth = 0
        while True:
            depth += {'(': 1, ')': -1}.get(toks[i], 0)
            if depth == 0:
                return i
            i += 1

    def primary(i):
        """The operand (or operator) at toks[i] as Python, next index."""
        if toks[i] == '~':
            text, i = primary(i + 1)
            return '(0xffffffff ^ %s)' % text, i
        if toks[i] == '(':
            j = close(i)
            return '(%s)' % seq(i + 1, j), j + 1
        if re.match(r'\w', toks[i]) and toks[i + 1:i + 2] == ['(']:
            j = close(i + 1)
            return '%s(%s)' % (toks[i], seq(i + 2, j)), j + 1
        return toks[i], i + 1

    def seq(i, end):
        out = []
        while i < end:
            text, i = primary(i)
            out.append(text)
        return ' '.join(out)

    return seq(0, len(toks))


def read_regs(path=REGS_H):
    """Every #define of the register header whose body is an integer
    expression of earlier ones: object-like as ints, function-like as
    functions (VX_PKT_HDR(op, ndw), VX_DM_REG(n), ...)."""
    with open(path) as f:
        text = re.sub(r'/\*.*?\*/', ' ', f.read(), flags=re.S)
    text = text.replace('\\\n', ' ')
    ns = {'__builtins__': {}}
    for m in re.finditer(r'^#define[ \t]+(\w+)(\(([\w\s,]*)\))?[ \t]*(.*)$',
                         text, re.M):
        name, params, body = m.group(1), m.group(3), m.group(4).strip()
        if not body:
            continue
        try:
            if params is None:
                ns[name] = eval(c_expr(body), ns) & 0xffffffff
            else:
                ns[name] = eval('lambda %s: (%s) & 0xffffffff'
                                % (params, c_expr(body)), ns)
        except (SyntaxError, NameError, TypeError):
            pass                        # not an integer expression
    del ns['__builtins__']
    return types.SimpleNamespace(**ns)


R = read_regs()
SLOT = 4
CFG = 0x80000000 | SLOT << 11
BAR0 = 0xfe000000
BAR2 = 0xc0000000
RING, CODE, DATA = 0x10000, 0x20000, 0x40000
DEV = R.VX_VRAM_DEVADDR
J_SELF = 0x0000006f                     # jal x0, 0
TMC0 = R.VX_OPCODE_CUSTOM0 | R.VX_F3_TMC << 12      # tmc x0: the warp ends
COUNT = [0x00128293,                    # 1: addi t0, t0, 1
         0xffdff06f]                    # j 1b: never ends, never parks
FLAG_SPIN = [0x34002573,                # csrr a0, mscratch (DATA)
             0x00052283,                # 1: lw t0, 0(a0)
             0xfe028ee3,                # beqz t0, 1b
             TMC0]                      # the flag is set: the end
SPIN = [0x001002b7,                     # lui t0, 0x100
        0xfff28293,                     # 1: addi t0, t0, -1
        0xfe029ee3,                     # bnez t0, 1b
        TMC0]                           # 2^20 turns, then the end


class Hung(Exception):
    """QEMU stopped answering the qtest protocol: a deadlock, most likely."""


class Qemu:
    def __init__(self, qemu, fw, extra=''):
        self.dir = tempfile.mkdtemp(prefix='vxqt')
        self.mon_path = os.path.join(self.dir, 'mon.sock')
        args = [qemu, '-machine', 'pc,accel=qtest', '-nodefaults',
                '-name', 'vxqt,debug-threads=on',   # the run thread's name
                '-display', 'none', '-qtest', 'stdio',
                '-qtest-log', '/dev/null',
                '-monitor', 'unix:%s,server=on,wait=off' % self.mon_path,
                '-device', 'vortex,id=vx0,addr=%02x.0%s' % (SLOT, extra)]
        if fw:
            args[1:1] = ['-L', fw]
        self.p = subprocess.Popen(args, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        self.buf = b''          # qtest output not yet split into lines
        self.mon = None
        self.events = []        # asynchronous lines: "IRQ raise 11"

    def qt(self, line, timeout=30):
        """One qtest command; its reply.  A QEMU that does not answer in
        @timeout seconds is killed, and Hung raised."""
        self.p.stdin.write((line + '\n').encode())
        self.p.stdin.flush()
        end = time.monotonic() + timeout
        while True:
            while b'\n' not in self.buf:
                left = end - time.monotonic()
                if left <= 0 or not select.select([self.p.stdout], [], [],
                                                  left)[0]:
                    self.p.kill()
                    raise Hung('no answer to "%s" in %d s' % (line, timeout))
                chunk = os.read(self.p.stdout.fileno(), 4096)
                if not chunk:
                    raise RuntimeError('qemu went away')
                self.buf += chunk
            raw, self.buf = self.buf.split(b'\n', 1)
            out = raw.decode(errors='replace').strip()
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

    def ring(self, words, tail_reg=True):
        """A fresh ring at RING holding @words, and the doorbell, which
        carries the tail for a card with CAPS.FAST_DOORBELL; without
        @tail_reg only the doorbell has it."""
        self.wr(R.VX_REG_RING_BASE, DEV + RING)
        self.wr(R.VX_REG_RING_SIZE, R.VX_RING_SIZE_MIN)
        self.wr(R.VX_REG_RING_CTRL, R.VX_RING_CTRL_ENABLE)
        for i, w in enumerate(words):
            self.vram(RING + 4 * i, w)
        if tail_reg:
            self.wr(R.VX_REG_RING_TAIL, 4 * len(words))
        self.wr(R.VX_REG_DOORBELL, 4 * len(words))

    def launch(self, insn, blocks, seqno=None, tail_reg=True):
        """One kernel of a single instruction, then maybe a FENCE."""
        self.vram(CODE, insn)
        self.ring(launch_packet(DEV + CODE, blocks) +
                  ([] if seqno is None else fence_packet(seqno)), tail_reg)

    def put_spin(self, prog=SPIN):
        """@prog at CODE (SPIN: far longer than any doorbell budget)."""
        for i, w in enumerate(prog):
            self.vram(CODE + 4 * i, w)

    def sim_cpu_s(self):
        """CPU-seconds the card's run thread (vortex-sim) has used."""
        hz = os.sysconf('SC_CLK_TCK')
        for tid in os.listdir('/proc/%d/task' % self.p.pid):
            base = '/proc/%d/task/%s/' % (self.p.pid, tid)
            with open(base + 'comm') as f:
                if f.read().strip() != 'vortex-sim':
                    continue
            with open(base + 'stat') as f:
                st = f.read().rsplit(')', 1)[1].split()
            return (int(st[11]) + int(st[12])) / hz
        return None

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


def run_parked(t, q):
    """docs/hardware.md, "Parking": a `j .` parks the card, whose run
    thread then costs next to no CPU; a flag written through BAR2 wakes
    a card parked on it."""
    q.launch(J_SELF, 4)
    time.sleep(0.3)
    c0, cpu0, t0 = q.rd(R.VX_REG_CLOCK_LO), q.sim_cpu_s(), time.monotonic()
    time.sleep(1)
    share = (q.sim_cpu_s() - cpu0) / (time.monotonic() - t0)
    t.ok(q.rd(R.VX_REG_CLOCK_LO) == c0 and share <= 0.05,
         'a `j .` parks the card: its clock stands still, its run thread '
         'used %.3f CPU-s per s' % share)
    q.wr(R.VX_REG_RESET, R.VX_RESET_KEY)

    q.vram(DATA, 0)
    q.put_spin(FLAG_SPIN)
    q.ring(launch_packet(DEV + CODE, 1) + fence_packet(43))
    time.sleep(0.3)
    c0 = q.rd(R.VX_REG_CLOCK_LO)
    time.sleep(0.1)
    parked = q.rd(R.VX_REG_CLOCK_LO) == c0 and q.rd(R.VX_REG_FENCE_SEQNO) != 43
    q.vram(DATA, 1)                     # the host's write: BAR2, unseen
    time.sleep(0.1)
    t.ok(parked and q.rd(R.VX_REG_FENCE_SEQNO) == 43,
         'a flag written through BAR2 wakes the card parked on it')
    q.wr(R.VX_REG_RESET, R.VX_RESET_KEY)    # the ring from the start


def launch_packet(entry, blocks):
    """LAUNCH of @blocks blocks of 8 threads at @entry, no stack."""
    p = [0] * R.VX_LAUNCH_NDW
    p[R.VX_LAUNCH_ENTRY] = entry
    p[R.VX_LAUNCH_ARG] = DEV + DATA
    p[R.VX_LAUNCH_GRID_X:R.VX_LAUNCH_GRID_Z + 1] = [blocks, 1, 1]
    p[R.VX_LAUNCH_BLOCK_X:R.VX_LAUNCH_BLOCK_Z + 1] = [8, 1, 1]
    return [R.VX_PKT_HDR(R.VX_PKT_LAUNCH, R.VX_LAUNCH_NDW)] + p


def fence_packet(seqno):
    """FENCE @seqno that raises the FENCE interrupt."""
    p = [0] * R.VX_FENCE_NDW
    p[R.VX_FENCE_SEQNO] = seqno
    p[R.VX_FENCE_FLAGS] = R.VX_FENCE_FLAG_IRQ
    return [R.VX_PKT_HDR(R.VX_PKT_FENCE, R.VX_FENCE_NDW)] + p


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
    print('TAP version 13\n1..21', flush=True)
    try:
        run(t, qemu, fw)
    except Hung as e:
        t.ok(False, 'QEMU keeps answering (%s)' % e)
    return 1 if t.failed else 0


def run(t, qemu, fw):
    t.ok(bad_property(qemu, fw, 'threads=6', 'threads'),
         'threads=6 is refused, naming the property')
    t.ok(bad_property(qemu, fw, 'vram=8M', 'vram'),
         'vram=8M is refused, naming the property')
    t.ok(bad_property(qemu, fw, 'doorbell-budget=65537', 'doorbell'),
         'doorbell-budget=65537 is refused, naming the property')

    q = Qemu(qemu, fw)
    t.ok(q.cfg_read(0) == R.VX_PCI_DEVICE_ID << 16 | R.VX_PCI_VENDOR_ID and
         q.cfg_read(8) == R.VX_PCI_CLASS << 16 | R.VX_PCI_REVISION,
         'PCI IDs, class and revision')
    q.map_bars()
    t.ok(q.cfg_read(0x18) & 0xf == 0xc, 'BAR2 is 64-bit prefetchable')
    t.ok(q.rd(R.VX_REG_ID) == R.VX_ID_MAGIC and
         q.rd(R.VX_REG_VRAM_SIZE_LO) == 256 << 20,
         'ID and default VRAM size through BAR0')

    # a loop that does work: a `j .` would park the card (run_parked)
    q.put_spin(COUNT)
    q.ring(launch_packet(DEV + CODE, 4))
    time.sleep(0.2)
    c0 = q.rd(R.VX_REG_CLOCK_LO)
    worst = 0
    for _ in range(200):
        start = time.monotonic()
        q.rd(R.VX_REG_STATUS)
        worst = max(worst, time.monotonic() - start)
    time.sleep(0.05)
    t.ok(q.rd(R.VX_REG_CLOCK_LO) != c0,
         'a looping kernel runs on the device thread')
    # generous: the bound is one run slice, but the host may be loaded
    t.ok(worst < 0.1, 'MMIO stays responsive (worst %.2f ms)' % (worst * 1e3))

    q.wr(R.VX_REG_RESET, R.VX_RESET_KEY)
    t.ok(q.rd(R.VX_REG_STATUS) == 0, 'RESET stops the looping kernel')
    run_parked(t, q)

    # INTx (MSI stays off without a guest): i440fx routes slot 4 INTA to
    # PIRQD, which PIIX3 register 0x63 sends to IRQ 11.
    q.qt('outl 0xcf8 0x%x' % (0x80000000 | 1 << 11 | 0x60))
    q.qt('outb 0xcff 0xb')
    q.qt('irq_intercept_in ioapic')
    q.wr(R.VX_REG_IRQ_ENABLE, R.VX_IRQ_FENCE)
    q.put_spin()                        # past the budget: the run thread's
    q.ring(launch_packet(DEV + CODE, 1) + fence_packet(42))
    time.sleep(0.2)
    t.ok(q.rd(R.VX_REG_FENCE_SEQNO) == 42 and
         q.rd(R.VX_REG_IRQ_STATUS) & R.VX_IRQ_FENCE, 'LAUNCH + FENCE complete')
    q.wr(R.VX_REG_IRQ_STATUS, R.VX_IRQ_FENCE)
    time.sleep(0.1)
    q.rd(R.VX_REG_IRQ_STATUS)
    t.ok(q.events == ['IRQ raise 11', 'IRQ lower 11'],
         'INTx follows IRQ_STATUS & IRQ_ENABLE (%s)' % q.events)

    # qtest's writel returns when the MMIO write has: whatever the fast
    # doorbell ran inline is visible to the very next read.
    t.ok(q.rd(R.VX_REG_CAPS) & R.VX_CAPS_FAST_DOORBELL,
         'CAPS.FAST_DOORBELL is set by default')
    q.wr(R.VX_REG_RESET, R.VX_RESET_KEY)   # the ring starts over
    q.wr(R.VX_REG_IRQ_ENABLE, R.VX_IRQ_FENCE)
    q.events.clear()
    q.launch(TMC0, 64, seqno=43, tail_reg=False)
    seqno, irq = q.rd(R.VX_REG_FENCE_SEQNO), q.rd(R.VX_REG_IRQ_STATUS)
    time.sleep(0.1)
    q.rd(R.VX_REG_STATUS)               # collects the INTx events, if any
    t.ok(seqno == 43 and irq == 0 and not q.events,
         'an empty kernel and its FENCE(IRQ) end inside the DOORBELL write '
         'carrying TAIL, silently (SEQNO %d, IRQ_STATUS 0x%x, %s)'
         % (seqno, irq, q.events))

    q.wr(R.VX_REG_RESET, R.VX_RESET_KEY)
    q.launch(J_SELF, 4)
    time.sleep(0.1)
    q.hmp('system_reset')
    time.sleep(0.3)
    q.map_bars()
    t.ok(q.rd(R.VX_REG_STATUS) == 0 and q.rd(R.VX_REG_ID) == R.VX_ID_MAGIC,
         'system_reset resets the card')

    # Hot-unplug while the run thread raises interrupts: fences between
    # kernels that spin for some 10 ms, each acked as it comes so
    # that the next is a new edge for the thread to hand to the main loop,
    # up to the eject itself; then a kernel that never ends.  unrealize
    # runs under the BQL and joins the thread without dropping it: were
    # the thread ever to wait for the BQL, QEMU would hang here.
    before = q.threads()
    q.hmp('device_del vx0')             # only asks the guest
    q.qt('outl 0xae10 0x0')             # PIIX4 ACPI hotplug: bus select 0
    q.wr(R.VX_REG_RESET, R.VX_RESET_KEY)
    for i, w in enumerate(SPIN):
        q.vram(CODE + 4 * i, w)
    q.vram(CODE + 0x100, J_SELF)
    words = []
    for seqno in range(1, 61):
        words += launch_packet(DEV + CODE, 1) + fence_packet(seqno)
    q.wr(R.VX_REG_IRQ_ENABLE, R.VX_IRQ_FENCE)
    q.ring(words + launch_packet(DEV + CODE + 0x100, 4))
    acked, start = 0, time.monotonic()
    while (time.monotonic() - start < 0.2 or acked < 2) and \
            time.monotonic() - start < 3:
        if q.rd(R.VX_REG_IRQ_STATUS) & R.VX_IRQ_FENCE:
            q.wr(R.VX_REG_IRQ_STATUS, R.VX_IRQ_FENCE)
            acked += 1
    q.qt('outl 0xae08 0x%x' % (1 << SLOT))  # the guest's eject
    time.sleep(0.5)
    gone = '%04x' % R.VX_PCI_DEVICE_ID not in q.hmp('info pci')
    t.ok(acked >= 2 and gone and q.threads() == before - 1,
         'device_del while a kernel loops and raises interrupts joins '
         'the run thread (%d interrupts acked)' % acked)

    q.hmp('device_add vortex,id=vx1,addr=%02x.0' % SLOT)
    q.map_bars()
    q.launch(TMC0, 8, seqno=7)
    time.sleep(0.2)
    t.ok(q.rd(R.VX_REG_ID) == R.VX_ID_MAGIC and
         q.rd(R.VX_REG_FENCE_SEQNO) == 7,
         'a card plugged into the same slot again runs a LAUNCH')
    t.ok(q.close() == 0, 'QEMU exits cleanly afterwards')

    q = Qemu(qemu, fw, ',fast-doorbell=off')
    q.map_bars()
    caps = q.rd(R.VX_REG_CAPS)
    q.launch(TMC0, 8, seqno=5)
    time.sleep(0.2)
    seqno, irq = q.rd(R.VX_REG_FENCE_SEQNO), q.rd(R.VX_REG_IRQ_STATUS)
    t.ok(not caps & R.VX_CAPS_FAST_DOORBELL and seqno == 5 and
         irq == R.VX_IRQ_FENCE,
         'fast-doorbell=off: CAPS bit clear, an empty kernel\'s FENCE '
         'interrupts (CAPS 0x%x, SEQNO %d, IRQ_STATUS 0x%x)'
         % (caps, seqno, irq))
    t.ok(q.close() == 0, 'QEMU with fast-doorbell=off exits cleanly')


if __name__ == '__main__':
    sys.exit(main())
