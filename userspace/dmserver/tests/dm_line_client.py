# SPDX-License-Identifier: GPL-2.0
"""A Debug Module client that talks as Vortex's own debugger does.

vxdbg (saursin/vxdebug, src/backend.cpp) drives the RTL debug server one
register access per line: every field it sets is a read-modify-write of
its register (Backend::dmreg_wrfield: `r` then `w`), every request is
followed by polling a DCTRL field (Backend::dmreg_pollfield), the warp and
lane it selects stay selected until it selects others
(Backend::select_warp_thread writes warpsel, then threadsel), and
registers are read by injection through DSCRATCH.  Nothing here writes
DSELECT "just in case" before an access: a server that moves the
selection behind the client shows up as wrong values.
"""
import time

# Debug Module registers (shared/specs/vxdebug-spec.md, hw/vortex_regs.h)
PLATFORM, DCONFIG, DSELECT, WMASK, WACTIVE, WSTATUS, DCTRL, DPC, INJECT = range(9)
DSCRATCH = [9, 10, 11, 12]

# name: (register, lsb, width), as the spec's register tables
FIELDS = {
    'ebreakh': (DCONFIG, 0, 1),
    'threadsel': (DSELECT, 0, 7), 'warpsel': (DSELECT, 7, 15), 'winsel': (DSELECT, 22, 10),
    'mask': (WMASK, 0, 32),
    'haltreq': (DCTRL, 0, 1), 'resumereq': (DCTRL, 1, 1), 'resethaltreq': (DCTRL, 2, 1),
    'stepreq': (DCTRL, 3, 1), 'stepstate': (DCTRL, 4, 2), 'injectreq': (DCTRL, 6, 1),
    'injectstate': (DCTRL, 7, 2), 'hacause': (DCTRL, 9, 3), 'injecterr': (DCTRL, 12, 1),
    'anyunavail': (DCTRL, 24, 1), 'allunavail': (DCTRL, 25, 1),
    'anyrunning': (DCTRL, 26, 1), 'allrunning': (DCTRL, 27, 1),
    'anyhalted': (DCTRL, 28, 1), 'allhalted': (DCTRL, 29, 1),
    'ndmreset': (DCTRL, 30, 1), 'dmactive': (DCTRL, 31, 1),
}
HACAUSE_EBREAK, HACAUSE_HALTREQ, HACAUSE_STEP, HACAUSE_RESETHALTREQ = 1, 2, 3, 4
EBREAK = 0x00100073
CSR_DSCRATCH = 0x7b2
T0, T1 = 5, 6


def csrw(csr, rs1):
    return csr << 20 | rs1 << 15 | 1 << 12 | 0x73


def csrr(rd, csr):
    return csr << 20 | 2 << 12 | rd << 7 | 0x73


def lw(rd, rs1, imm=0):
    return imm << 20 | rs1 << 15 | 2 << 12 | rd << 7 | 0x03


def sw(rs2, rs1, imm=0):
    return (imm >> 5) << 25 | rs2 << 20 | rs1 << 15 | 2 << 12 | (imm & 31) << 7 | 0x23


class Vxdbg:
    """vxdbg's backend, over a Client of dmserver_e2e.py (one line, one reply)."""

    def __init__(self, c, total, threads, polls=400, delay=0.005):
        self.c = c
        self.total = total
        self.threads = threads
        self.windows = (total + 31) // 32
        self.polls = polls
        self.delay = delay

    # -- one access per line
    def rd(self, reg):
        return int(self.c.ok(f'r{reg:x}'), 16)

    def wr(self, reg, value):
        self.c.ok(f'w{reg:x}:{value:x}')

    def rdfield(self, name):
        reg, lsb, width = FIELDS[name]
        return self.rd(reg) >> lsb & ((1 << width) - 1)

    def wrfield(self, name, value):
        reg, lsb, width = FIELDS[name]
        mask = ((1 << width) - 1) << lsb
        self.wr(reg, (self.rd(reg) & ~mask) | (value << lsb & mask))

    def poll(self, name, want):
        """Backend::dmreg_pollfield: True once @name reads @want."""
        for _ in range(self.polls):
            if self.rdfield(name) == want:
                return True
            time.sleep(self.delay)
        return False

    # -- Backend's operations
    def setup(self):
        """Backend::setup_dm: ebreak halts, warp 0 lane 0, window 0."""
        self.wrfield('ebreakh', 1)
        self.wr(DSELECT, 0)

    def select(self, warp, lane):
        self.wrfield('warpsel', warp)
        self.wrfield('threadsel', lane)

    def select_warps(self, wids=None):
        """Backend::select_warps: every warp (None) or @wids, window by window."""
        for win in range(self.windows):
            bits = 0xffffffff if wids is None else \
                sum(1 << (w % 32) for w in wids if w // 32 == win)
            self.wrfield('winsel', win)
            self.wrfield('mask', bits)

    def warp_bits(self, reg):
        """WACTIVE or WSTATUS of every window, as one integer."""
        v = 0
        for win in range(self.windows):
            self.wrfield('winsel', win)
            v |= self.rd(reg) << (32 * win)
        return v

    def wait_bits(self, reg, pred):
        for _ in range(self.polls):
            v = self.warp_bits(reg)
            if pred(v):
                return v
            time.sleep(self.delay)
        return v

    def request(self, name, state=None):
        """A request bit set, then its state polled back to NONE."""
        self.wrfield(name, 1)
        return self.poll(state, 0) if state else True

    def request_warps(self, name, wids=None):
        """@name (haltreq, resumereq) for every warp (None) or @wids."""
        self.select_warps(wids)
        return self.request(name)

    def where(self, warp):
        """Warp @warp selected (lane 0): its hacause and DPC."""
        self.select(warp, 0)
        return self.rdfield('hacause'), self.rd(DPC)

    def step(self):
        return self.request('stepreq', 'stepstate')

    def inject(self, insn):
        """Backend::inject_instruction; False if the card set injecterr."""
        self.wr(INJECT, insn)
        return self.request('injectreq', 'injectstate') and not self.rdfield('injecterr')

    def read_csr(self, csr):
        """Backend::read_csr: through t0, saved in DSCRATCH and put back."""
        ok = self.inject(csrw(CSR_DSCRATCH, T0))
        t0 = self.rd(DSCRATCH[0])
        ok = ok and self.inject(csrr(T0, csr)) and self.inject(csrw(CSR_DSCRATCH, T0))
        value = self.rd(DSCRATCH[0])
        self.wr(DSCRATCH[0], t0)
        ok = self.inject(csrr(T0, CSR_DSCRATCH)) and ok
        return value if ok else None

    def _memop(self, addr, insns, value=0):
        """t0 = @addr, t1 = @value, then @insns; t0 and t1 put back."""
        saved = []
        for reg in (T0, T1):
            self.inject(csrw(CSR_DSCRATCH, reg))
            saved.append(self.rd(DSCRATCH[0]))
        ok = True
        for reg, v in ((T0, addr), (T1, value)):
            self.wr(DSCRATCH[0], v)
            ok = self.inject(csrr(reg, CSR_DSCRATCH)) and ok
        ok = all([self.inject(i) for i in insns]) and ok
        result = self.rd(DSCRATCH[0])
        for reg, v in zip((T0, T1), saved):
            self.wr(DSCRATCH[0], v)
            ok = self.inject(csrr(reg, CSR_DSCRATCH)) and ok
        return ok, result

    def load(self, addr):
        ok, v = self._memop(addr, [lw(T1, T0), csrw(CSR_DSCRATCH, T1)])
        return v if ok else None

    def store(self, addr, value):
        return self._memop(addr, [sw(T1, T0)], value)[0]

    def reset_halt(self):
        """Backend::reset_platform(halt_warps=true): every warp selected,
        resethaltreq, ndmreset, ndmreset polled back to 0."""
        self.select_warps()
        self.wrfield('resethaltreq', 1)
        self.wrfield('ndmreset', 1)
        return self.poll('ndmreset', 0)
