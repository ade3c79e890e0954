#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""vortex-dmserver end to end: a scripted client of its DM line protocol, TAP.

Without arguments it starts vortex-dmserver-sim itself (port 0,
--halt-at-start -n 64 vecadd.elf) and also checks what the server logs;
with --connect HOST:PORT it talks to a server already running the same way
(the guest's, through its virtio-serial port: suite dmserver_guest).

Everything the client learns it learns through the Debug Module alone, as a
JTAG-level tool would (and vxdbg_session() talks exactly as Vortex's own
debugger does, one access per line, dm_line_client.py): the topology from PLATFORM, halted warps from
WSTATUS, registers and memory by injecting instructions and moving values
through the selected lane's DSCRATCH registers.  The expected values come
from docs/hardware.md ("Launch ABI"): a0 = mscratch = the argument block,
sp = stack_base + (mhartid + 1) x stack_size, mhartid = (core x warps +
warp) x threads + lane.
"""
import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import dm_line_client as line  # noqa: E402
from dm_line_client import csrr, csrw, lw, sw  # noqa: E402  (RV32 encodings)

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.realpath(__file__)), '..', '..', '..'))
O = os.path.join(TOP, os.environ.get('O', 'build'))
SERVER = os.path.join(O, 'host', 'userspace', 'vortex-dmserver-sim')
KERNEL = os.path.join(O, 'riscv', 'vecadd.elf')
N = 64
VRAM = 0x80000000

# Debug Module registers and bits (hw/vortex_regs.h)
PLATFORM, DCONFIG, DSELECT, WMASK, WACTIVE, WSTATUS, DCTRL, DPC, INJECT = range(9)
DSCRATCH = [9, 10, 11, 12]
DMACTIVE, HALTREQ, RESUMEREQ, INJECTREQ = 1 << 31, 1 << 0, 1 << 1, 1 << 6
INJECTERR, ANYHALTED = 1 << 12, 1 << 28
HACAUSE_RESETHALTREQ = 4
CSR_DSCRATCH = [0x7b2, 0x7b3, 0x7b4, 0x7b5]
CSR_MSCRATCH, CSR_MHARTID = 0x340, 0xf14
A0, SP, T0, T1 = 10, 2, 5, 6

results = []


def check(name, ok, diag=''):
    results.append((name, bool(ok), diag))
    return bool(ok)


class Protocol(Exception):
    pass


class Client:
    """One connection; every line sent gets its reply line back."""

    def __init__(self, host, port, timeout=30):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.buf = b''

    def send(self, data):
        self.sock.sendall(data)

    def line(self):
        while b'\n' not in self.buf:
            got = self.sock.recv(4096)
            if not got:
                raise Protocol('the server closed the connection')
            self.buf += got
        line, self.buf = self.buf.split(b'\n', 1)
        return line.decode('ascii', 'replace')

    def cmd(self, line):
        self.send(line.encode() + b'\n')
        return self.line()

    def ok(self, line):
        reply = self.cmd(line)
        if not reply.startswith('+'):
            raise Protocol(f'{line!r} -> {reply!r}')
        return reply[1:]

    def read(self, *regs):
        reply = self.ok('R' + ','.join(f'{r:x}' for r in regs))
        return [int(v, 16) for v in reply.split(',')]

    def write(self, *pairs):
        self.ok('W' + ','.join(f'{r:x}' for r, _ in pairs) + ':' +
                ','.join(f'{v:x}' for _, v in pairs))

    def close(self):
        self.sock.close()


class Card:
    """The card as seen through the DM: topology, warps, injection."""

    def __init__(self, c):
        self.c = c
        p = c.read(PLATFORM)[0]
        self.platform = p
        self.threads = 1 << (p & 7)
        self.warps = p >> 3 & 0x1ff
        self.cores = p >> 12 & 0x1ff
        self.clusters = p >> 21 & 0x7f
        self.pid = p >> 28
        self.total = self.clusters * self.cores * self.warps
        self.windows = (self.total + 31) // 32

    def bits(self, reg):
        """WACTIVE or WSTATUS over every window, as one integer."""
        v = 0
        for win in range(self.windows):
            self.c.write((DSELECT, win << 22))
            v |= self.c.read(reg)[0] << (32 * win)
        return v

    def select(self, warp, lane):
        self.c.write((DSELECT, warp << 7 | lane))

    def inject(self, insn):
        """Runs @insn in the selected lane; False if it faulted."""
        self.c.write((INJECT, insn), (DCTRL, DMACTIVE | INJECTREQ))
        return not self.c.read(DCTRL)[0] & INJECTERR

    def must(self, insn):
        if not self.inject(insn):
            raise Protocol(f'injected {insn:08x} faulted')

    def gpr(self, warp, lane, reg):
        self.select(warp, lane)
        self.must(csrw(CSR_DSCRATCH[0], reg))
        return self.c.read(DSCRATCH[0])[0]

    def csr(self, warp, lane, csr):
        """A CSR through t0, which is saved in DSCRATCH3 and put back."""
        self.select(warp, lane)
        self.must(csrw(CSR_DSCRATCH[3], T0))
        try:
            self.must(csrr(T0, csr))
            self.must(csrw(CSR_DSCRATCH[0], T0))
            return self.c.read(DSCRATCH[0])[0]
        finally:
            self.must(csrr(T0, CSR_DSCRATCH[3]))

    def _memop(self, warp, lane, addr, insns, value=0):
        """t0 = @addr, t1 = @value, then @insns; t0/t1 saved and put back."""
        self.select(warp, lane)
        self.must(csrw(CSR_DSCRATCH[2], T0))
        self.must(csrw(CSR_DSCRATCH[3], T1))
        try:
            self.c.write((DSCRATCH[0], addr), (DSCRATCH[1], value))
            self.must(csrr(T0, CSR_DSCRATCH[0]))
            self.must(csrr(T1, CSR_DSCRATCH[1]))
            return all([self.inject(i) for i in insns])
        finally:
            self.must(csrr(T0, CSR_DSCRATCH[2]))
            self.must(csrr(T1, CSR_DSCRATCH[3]))

    def load(self, warp, lane, addr):
        if not self._memop(warp, lane, addr, [lw(T1, T0), csrw(CSR_DSCRATCH[1], T1)]):
            return None
        return self.c.read(DSCRATCH[1])[0]

    def store(self, warp, lane, addr, value):
        return self._memop(warp, lane, addr, [sw(T1, T0)], value)

    def launched_warps(self):
        """Warps the server's vecadd launch holds: a block fills a core."""
        block = self.warps * self.threads
        grid = (N + block - 1) // block
        return min(grid, self.clusters * self.cores) * self.warps

    def wait_bits(self, reg, pred, timeout):
        end = time.monotonic() + timeout
        while True:
            v = self.bits(reg)
            if pred(v) or time.monotonic() > end:
                return v
            time.sleep(0.05)

    def resume_all(self):
        for win in range(self.windows):
            self.c.write((DSELECT, win << 22), (WMASK, 0xffffffff))
        self.c.write((DCTRL, DMACTIVE | RESUMEREQ))


class Server:
    """vortex-dmserver-sim, started here with @args (default: --halt-at-start
    -n 64 vecadd.elf); its stderr collected."""

    def __init__(self, args=None):
        args = args or ['--halt-at-start', '-n', str(N), KERNEL]
        self.p = subprocess.Popen([SERVER, '--listen', '127.0.0.1:0'] + args,
                                  stderr=subprocess.PIPE, text=True)
        self.log = []
        first = self.p.stderr.readline()
        self.log.append(first)
        m = re.search(r'listening on tcp ([\d.]+):(\d+)', first)
        self.addr = (m[1], int(m[2])) if m else None
        threading.Thread(target=self._collect, daemon=True).start()

    def _collect(self):
        for line in self.p.stderr:
            self.log.append(line)

    def text(self):
        return ''.join(self.log)

    def stop(self):
        """SIGTERM; the exit status, None if it had to be killed."""
        self.p.send_signal(signal.SIGTERM)
        try:
            return self.p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            return None

    def wait_log(self, pattern, count=1, timeout=30):
        end = time.monotonic() + timeout
        while len(re.findall(pattern, self.text())) < count and time.monotonic() < end:
            time.sleep(0.05)
        return len(re.findall(pattern, self.text())) >= count


BAD_LINES = [
    b'', b'\r', b'x', b'P', b'px', b'p ', b' p', b'p\r\r', b'p\0', b'\0',
    b'r', b'rd', b'r10', b'r0x0', b'r000000000', b'r1,2', b'r1:2', b'r0 ',
    b'w1', b'w1:', b'w:1', b'w1:100000000', b'w3:1,2', b'w3:1\rx',
    b'R' + b','.join(b'0' for _ in range(9)), b'R0,', b'R,0', b'R0,,1', b'R0,d',
    b'W3,3:1', b'W3:1,2', b'W3,3', b'W3,3:1,2,', b'Wd:0',
    b'r' + b'0' * 300,
]


def protocol(c, card, sim):
    check('handshake: p -> +P', c.cmd('p') == '+P')
    expect = 0x10202023 if sim else None     # 1 cluster, 2 cores, 4 warps, 8 threads
    topo_ok = card.pid == 1 and card.clusters >= 1 and card.cores >= 1 and \
        card.warps >= 1 and card.threads <= 128 and card.total <= 32768
    check('PLATFORM: platform id 1 and a topology', topo_ok and
          (expect is None or card.platform == expect), f'PLATFORM {card.platform:#010x}')

    # W runs in order: the last write to a register wins; R reads in order.
    # DSCRATCH0 of warp 0 lane 0 holds any 32 bits (WMASK keeps only warps
    # that exist).
    d0 = DSCRATCH[0]
    c.write((DSELECT, 0), (d0, 1), (d0, 2), (d0, 0x5a5a0001))
    r = c.read(d0, PLATFORM, d0, DSELECT, PLATFORM, PLATFORM, PLATFORM, PLATFORM)
    check('R/W batches of 8 run in order', r == [0x5a5a0001, card.platform, 0x5a5a0001, 0] +
          [card.platform] * 4, str(r))
    upper = c.cmd('W2,9:0,ABCDEF01')
    check('upper-case hex accepted, replies are lower-case 8 digits',
          upper == '+' and c.cmd('r9') == '+abcdef01' and c.cmd('w9:0') == '+', upper)

    bad = []
    for line in BAD_LINES:
        reply = c.cmd(line.decode('latin-1'))
        if reply != '-':
            bad.append(f'{line[:20]!r} -> {reply!r}')
    check(f'{len(BAD_LINES)} malformed lines each get one "-"', not bad, '\n'.join(bad))
    check('after them the connection still works', c.cmd('p') == '+P')
    c.send(b'r0\r\n')
    check('CR LF accepted', c.line() == f'+{card.platform:08x}')
    c.send(b'p\nr0\nbad\nw9:7\nr9\n')
    got = [c.line() for _ in range(5)]
    check('pipelined lines answered in order, one reply each',
          got == ['+P', f'+{card.platform:08x}', '-', '+', '+00000007'], str(got))
    c.write((d0, 0))


def halted(c, card, sim, server):
    check('s starts the staged kernel', c.cmd('s') == '+')
    check('a second s while the job runs gets "-"', c.cmd('s') == '-')
    want = card.launched_warps()
    st = card.wait_bits(WSTATUS, lambda v: bin(v).count('1') >= want, 60)
    act = card.bits(WACTIVE)
    ok = check('every warp of the job halts at its start (WSTATUS = WACTIVE)',
               bin(st).count('1') == want and st == act,
               f'WSTATUS {st:#x}, WACTIVE {act:#x}, expected {want} warps')
    if not ok:
        return None
    warps = [w for w in range(card.total) if st >> w & 1]
    pcs, causes = set(), set()
    for w in warps:
        card.select(w, 0)
        dctrl, pc = c.read(DCTRL, DPC)
        pcs.add(pc)
        causes.add(dctrl >> 9 & 7)
    pc = pcs.pop() if len(pcs) == 1 else None
    check('halted warps: cause RESETHALTREQ, all on the same entry PC in VRAM',
          causes == {HACAUSE_RESETHALTREQ} and pc is not None and pc >= VRAM and pc % 4 == 0,
          f'causes {causes}, PCs {pcs}')
    return warps


def registers(c, card, warps):
    w0, w1 = warps[0], warps[-1]
    last = card.threads - 1
    lanes = [(w0, 0), (w0, last), (w1, 0)]
    a0 = [card.gpr(w, l, A0) for w, l in lanes]
    msc = card.csr(w0, 0, CSR_MSCRATCH)
    check('a0 = mscratch = one argument block in VRAM, in every lane',
          len(set(a0)) == 1 and a0[0] == msc and a0[0] >= VRAM and a0[0] % 4 == 0,
          f'a0 {[hex(v) for v in a0]}, mscratch {msc:#x}')
    arg = a0[0]
    words = [card.load(w0, 0, arg + 4 * i) for i in range(4)]
    ptrs = words[:3]
    check(f'the argument block holds vecadd_args: n = {N}, a/b/c distinct VRAM buffers',
          words[3] == N and None not in ptrs and len(set(ptrs)) == 3 and
          all(p >= VRAM and p % 4 == 0 for p in ptrs), str(words))

    hart = [card.csr(w, l, CSR_MHARTID) for w, l in lanes]
    sp = [card.gpr(w, l, SP) for w, l in lanes]
    check('mhartid = global warp x threads + lane',
          hart == [w * card.threads + l for w, l in lanes], f'{hart} for {lanes}')
    size = (sp[1] - sp[0]) // (hart[1] - hart[0]) if hart[1] != hart[0] else \
        (sp[2] - sp[0]) // (hart[2] - hart[0])
    base = [s - (h + 1) * size for s, h in zip(sp, hart)]
    check('sp = stack_base + (mhartid + 1) x stack_size, one stack area for all',
          size > 0 and size % 16 == 0 and len(set(base)) == 1 and base[0] >= VRAM,
          f'sp {[hex(v) for v in sp]}, mhartid {hart}, stack size {size}')
    return ptrs[2]


def memory(c, card, warps, out):
    w0, w1 = warps[0], warps[-1]
    lane = 1 if card.threads > 1 else 0
    before = card.load(w1, 0, out + 4)
    stored = card.store(w0, lane, out, 0x5a5aa5a5)
    back = card.load(w1, 0, out)
    after = card.load(w1, 0, out + 4)
    check('an injected store to the output buffer is read back by another warp',
          stored and back == 0x5a5aa5a5 and after == before == 0,
          f'stored {stored}, c[0] {back}, c[1] {before} -> {after}')
    t0 = card.gpr(w0, lane, T0)
    faulted = not card.inject(lw(T1, 0))       # x0 + 0: address 0 faults
    still = card.bits(WSTATUS) >> w0 & 1
    check('an injected load from address 0 sets injecterr; the warp stays halted '
          'and t0 is put back', faulted and still and card.inject(csrw(CSR_DSCRATCH[0], 0))
          and t0 == 0, f'faulted {faulted}, halted {still}, t0 {t0:#x}')


def resume(c, card, sim, server):
    card.resume_all()
    act = card.wait_bits(WACTIVE, lambda v: v == 0, 60)
    dctrl = c.read(DCTRL)[0]
    check('resumed: every warp ends (WACTIVE 0, none halted)', act == 0 and
          not dctrl & ANYHALTED, f'WACTIVE {act:#x}, DCTRL {dctrl:#x}')
    if sim:
        check('server log: the job ended ok and its result checked out',
              server.wait_log(r'job ended: ok\n.*vecadd result checked: 64 of 64 elements exact'),
              server.text())


def start_again(c):
    end = time.monotonic() + 10
    reply = c.cmd('s')
    while reply != '+' and time.monotonic() < end:  # until the server sees the end
        time.sleep(0.1)
        reply = c.cmd('s')
    return reply == '+'


def vxdbg_session(c, card, sim, server):
    """What a person does with vxdbg, line by line as vxdbg sends it: the
    selection of a warp other than 0 kept across steps (the spec: "All
    subsequent step and instruction injection commands then use the
    selected warp/thread pair"), a software breakpoint on another warp,
    reset --halt (the kernel starts again, every warp halted at its entry),
    then "halt all" and "continue all" polled while a warp has no context
    (allhalted/allrunning from the halted bits, docs/hardware.md)."""
    v = line.Vxdbg(c, card.total, card.threads)
    want = card.launched_warps()
    checked = len(re.findall(r'vecadd result checked: 64 of 64', server.text())) if sim else 0
    ok = start_again(c)
    v.setup()
    st = v.wait_bits(line.WSTATUS, lambda b: bin(b).count('1') >= want)
    if not check('vxdbg: s again, every warp of the job halted at its start',
                 ok and bin(st).count('1') == want, f's {ok}, WSTATUS {st:#x}'):
        return
    warps = [w for w in range(card.total) if st >> w & 1]
    w = 3 if 3 in warps else warps[-1]
    lane = min(3, card.threads - 1)
    other = [x for x in warps if x not in (0, w)][-1]
    sel = w << 7 | lane

    # Steps: vxdbg selects once (w2:183 for warp 3 lane 3), then steps.
    v.select(w, lane)
    entry = v.rd(line.DPC)
    pcs, sels, done = [entry], [], []
    for _ in range(3):
        done.append(v.step())
        sels.append(v.rd(line.DSELECT))
        pcs.append(v.rd(line.DPC))
    cause = v.rdfield('hacause')
    check(f'3 steps of warp {w} lane {lane}: DSELECT reads {sel:#x} after each',
          sels == [sel] * 3 and all(done), f'DSELECT {[hex(x) for x in sels]}, steps {done}')
    check(f'each step moved warp {w} one instruction on, hacause STEP',
          len(set(pcs)) == 4 and cause == line.HACAUSE_STEP,
          f'PCs {[hex(x) for x in pcs]}, hacause {cause}')
    hart = v.read_csr(CSR_MHARTID)
    check(f'injection after the steps runs in warp {w} lane {lane} (mhartid)',
          hart == w * card.threads + lane, f'mhartid {hart}, expected {w * card.threads + lane}')

    # A software breakpoint, as vxdbg sets one: ebreak written by injection.
    bp = pcs[3]
    orig = v.load(bp)
    planted = orig is not None and v.store(bp, line.EBREAK)
    v.request_warps('resumereq', [other])
    st = v.wait_bits(line.WSTATUS, lambda b: b >> other & 1)
    cause, pc = v.where(other)
    check(f'a breakpoint planted by warp {w} halts warp {other} on it, hacause EBREAK',
          planted and st >> other & 1 and cause == line.HACAUSE_EBREAK and pc == bp,
          f'planted {planted}, WSTATUS {st:#x}, hacause {cause}, PC {pc:#x}, bp {bp:#x}')
    v.select(w, lane)
    restored = v.store(bp, orig or 0) and v.load(bp) == orig

    # reset --halt: the kernel again from its entry, every warp halted there.
    reset = v.reset_halt()
    if not sim:
        time.sleep(3)   # a person's pause, past the guest's 2 s job timeout
    v.setup()
    st = v.wait_bits(line.WSTATUS, lambda b: bin(b).count('1') >= want)
    act = v.warp_bits(line.WACTIVE)
    pcs, causes = set(), set()
    for x in warps:
        v.select(x, 0)
        pcs.add(v.rd(line.DPC))
        causes.add(v.rdfield('hacause'))
    allhalted = v.rdfield('allhalted')
    check('reset --halt: the kernel starts again, every warp halted at its entry',
          restored and reset and bin(st).count('1') == want and st == act and
          pcs == {entry} and causes <= {line.HACAUSE_RESETHALTREQ, line.HACAUSE_HALTREQ}
          and allhalted, f'restored {restored}, ndmreset polled {reset}, WSTATUS {st:#x}, '
          f'WACTIVE {act:#x}, PCs {[hex(x) for x in pcs]}, causes {causes}, allhalted {allhalted}')
    if sim:
        check('server log: the halted job cancelled, the kernel started again',
              server.wait_log(r'job ended: Operation canceled\n.*ndmreset: started job'),
              server.text())

    # One warp runs to its end; then "halt all" and "continue all".
    v.request_warps('resumereq', [other])
    act = v.wait_bits(line.WACTIVE, lambda b: not b >> other & 1)
    v.request_warps('haltreq')
    halted = v.poll('allhalted', 1)
    check(f'halt all: allhalted, though warp {other} has ended (no context)',
          not act >> other & 1 and halted, f'WACTIVE {act:#x}, allhalted polled {halted}')
    v.request_warps('resumereq')
    running = v.poll('allrunning', 1)
    act = v.wait_bits(line.WACTIVE, lambda b: b == 0)
    check('continue all: allrunning, and the job runs to its end',
          running and act == 0, f'allrunning polled {running}, WACTIVE {act:#x}')
    if sim:
        check('server log: the restarted job ended ok and checked out',
              server.wait_log(r'vecadd result checked: 64 of 64', checked + 1), server.text())

    # reset (no --halt) on an idle card: the kernel runs again, to its end.
    reset = v.wrfield('ndmreset', 1) or v.poll('ndmreset', 0)
    st = v.warp_bits(line.WSTATUS)
    act = v.wait_bits(line.WACTIVE, lambda b: b == 0)
    ok = reset and st == 0 and act == 0
    if sim:
        ok = ok and server.wait_log(r'ndmreset: started job \d+: [^\n]*entry[^\n;]*\n') and \
            server.wait_log(r'vecadd result checked: 64 of 64', checked + 2)
    check('reset on an idle card: the kernel runs again, none halted, to its end', ok,
          f'ndmreset polled {reset}, WSTATUS {st:#x}, WACTIVE {act:#x}\n' +
          (server.text() if sim else ''))


def disconnect_halted(c, card, addr, sim, server):
    checked = len(re.findall(r'vecadd result checked: 64 of 64', server.text())) if sim else 0
    ok = start_again(c)
    want = card.launched_warps()
    st = card.wait_bits(WSTATUS, lambda v: bin(v).count('1') >= want, 60)
    check('s again after the job ended: its warps halt again',
          ok and bin(st).count('1') == want, f's {ok}, WSTATUS {st:#x}')
    c.close()               # no q, warps halted
    time.sleep(1)
    c = Client(*addr)
    card.c = c
    check('a new client is served after the last one vanished', c.cmd('p') == '+P')
    act = card.wait_bits(WACTIVE, lambda v: v == 0, 60)
    check('the vanished client left the card resumed: the job completed', act == 0,
          f'WACTIVE {act:#x}')
    if sim:
        check('server log: session detached, then the second job checked out',
              server.wait_log(r'session detached', 1) and
              server.wait_log(r'vecadd result checked: 64 of 64', checked + 1), server.text())
    return c


def quit_closes(c):
    c.send(b'q\n')
    c.sock.settimeout(2)
    try:
        got = c.sock.recv(100)
        closed = got == b''
    except socket.timeout:
        got, closed = b'', False
    if closed:
        return check('q: the server closes the connection, no reply', True)
    # A virtio-serial port stays open on the host side: the server only
    # hung up its end and serves the next "client" on the same link.
    c.sock.settimeout(30)
    check('q: no reply, and the server serves the link again', got == b'' and
          c.cmd('p') == '+P', f'{got!r}')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--connect', metavar='HOST:PORT',
                    help='a running server (vortex-dmserver --halt-at-start -n 64 vecadd.elf)')
    args = ap.parse_args()
    server = None
    sim = args.connect is None
    if sim:
        server = Server()
        addr = server.addr
        check('the server says where it listens', addr and addr[1] != 0, server.text())
    else:
        host, port = args.connect.rsplit(':', 1)
        addr = (host, int(port))
    c = None
    try:
        if addr:
            c = Client(*addr)
            card = Card(c)
            protocol(c, card, sim)
            warps = halted(c, card, sim, server)
            if warps:
                out = registers(c, card, warps)
                memory(c, card, warps, out)
                resume(c, card, sim, server)
                vxdbg_session(c, card, sim, server)
                c = disconnect_halted(c, card, addr, sim, server)
                quit_closes(c)
    except (Protocol, OSError) as e:
        check('the conversation went through', False, f'{type(e).__name__}: {e}')
    if c:
        c.close()
    if server:
        rc = server.stop()
        check('SIGTERM: the server leaves with status 0', rc == 0, f'{rc}\n{server.text()}')
    return tap()


def tap():
    """Prints the results as TAP; the exit status."""
    print('TAP version 13')
    print(f'1..{len(results)}')
    for n, (name, ok, diag) in enumerate(results, 1):
        print(f'{"ok" if ok else "not ok"} {n} {name}')
        if not ok:
            for line in str(diag).splitlines()[:20]:
                print(f'# {line}')
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == '__main__':
    sys.exit(main())
