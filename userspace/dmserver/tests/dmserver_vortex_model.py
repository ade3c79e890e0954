#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A DM-bridge client debugging a job launched in Vortex's model, TAP.

Without arguments it writes an argument file (one word, n = 8 tasks) and
starts vortex-dmserver-sim --halt-at-start vxs_hello.vxbin ARGFILE itself,
on the simulator's 1,2,4,8 card.  With --connect HOST:PORT it drives a
server already running the same way in the guest:
    vortex-dmserver --listen vport:NAME --halt-at-start \\
        /vortex/kernels/vxs_hello.vxbin ARGFILE
or, with --attached, one that started the program itself and holds its
first job (no `s`):
    vortex-dmserver --listen vport:NAME -- \\
        vortex-run --timeout 86400000 /vortex/kernels/vxs_hello.vxbin ARGFILE

What must hold, from upstream Vortex: its processor starts warp 0 lane 0
of each core at STARTUP_ADDR (hw/rtl/VX_config.vh: 0x80000000) with
mscratch = STARTUP_ARG (sim/simx/emulator.cpp; kernel/src/vx_start.S
reads the argument from mscratch), as vortex-run starts a .vxbin
(docs/runtime.md).  The client, one DM access per line as Vortex's own
debugger talks (dm_line_client.py), finds warp 0 of every core halted
there, then on the last core (core 1 of 1,2,4,8): mhartid, mscratch and
the argument block by injection, three steps, the warp run on alone (it
spawns its core's other warps, which halt at their start, and waits for
them at the core's barrier) and halted there by haltreq; reset --halt (not
--attached: the server relaunches only what it staged); "continue all"
until the job has ended.
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import dm_line_client as line  # noqa: E402
import dmserver_e2e as e2e  # noqa: E402
from dmserver_e2e import check  # noqa: E402

VXBIN = os.path.join(e2e.O, 'riscv', 'vxs_hello.vxbin')
STARTUP_ADDR = 0x80000000
CSR_MSCRATCH, CSR_MHARTID = 0x340, 0xf14


def halted_at_start(c, card, v, attached):
    if not attached:
        check('s starts the Vortex binary', c.cmd('s') == '+')
    cores = card.clusters * card.cores
    firsts = sum(1 << (k * card.warps) for k in range(cores))
    st = v.wait_bits(line.WSTATUS, lambda b: b == firsts)
    act = v.warp_bits(line.WACTIVE)
    causes, pcs = (set(x) for x in zip(*[v.where(k * card.warps) for k in range(cores)]))
    return check(f'warp 0 of each of the {cores} cores, and no other, halted at '
                 f'STARTUP_ADDR {STARTUP_ADDR:#x}', st == firsts and act == firsts and
                 pcs == {STARTUP_ADDR} and
                 causes <= {line.HACAUSE_RESETHALTREQ, line.HACAUSE_HALTREQ},
                 f'WSTATUS {st:#x}, WACTIVE {act:#x}, expected {firsts:#x}; PCs '
                 f'{[hex(p) for p in pcs]}, causes {causes}')


def registers(card, v, w, tasks):
    v.select(w, 0)
    hart = v.read_csr(CSR_MHARTID)
    arg = v.read_csr(CSR_MSCRATCH)
    n = v.load(arg) if arg is not None else None
    check(f'warp {w} (core {w // card.warps}) lane 0: mhartid {w * card.threads}, '
          f'mscratch the argument block, whose word is n = {tasks}',
          hart == w * card.threads and arg and n == tasks,
          f'mhartid {hart}, mscratch {arg}, word {n}')


def steps(card, v, w):
    sel = w << 7
    v.select(w, 0)
    pcs, sels, done = [v.rd(line.DPC)], [], []
    for _ in range(3):
        done.append(v.step())
        sels.append(v.rd(line.DSELECT))
        pcs.append(v.rd(line.DPC))
    cause = v.rdfield('hacause')
    check(f'3 steps of warp {w}: each moves it on from {STARTUP_ADDR:#x}, hacause STEP, '
          f'DSELECT still {sel:#x}', all(done) and pcs[0] == STARTUP_ADDR and
          len(set(pcs)) == 4 and sels == [sel] * 3 and cause == line.HACAUSE_STEP,
          f'PCs {[hex(p) for p in pcs]}, DSELECT {[hex(s) for s in sels]}, hacause {cause}')
    v.select(0, 0)
    pc0 = v.rd(line.DPC)
    check(f'core 0\'s warp 0 has not moved: {STARTUP_ADDR:#x}', pc0 == STARTUP_ADDR,
          f'{pc0:#x}')


def run_and_halt(card, v, w):
    """Warp w alone runs on: it spawns its core's warps (they halt at their
    start) and waits for them at the core's barrier, where haltreq halts it."""
    others = sum(1 << (w + i) for i in range(1, card.warps))
    v.request_warps('resumereq', [w])
    st = v.wait_bits(line.WSTATUS, lambda b: b & others == others)
    act = v.warp_bits(line.WACTIVE)
    check(f'warp {w} resumed alone spawns its core\'s warps, which halt at their start, '
          f'and runs on', st & others == others and not st >> w & 1 and act >> w & 1,
          f'WSTATUS {st:#x}, WACTIVE {act:#x}')
    v.request_warps('haltreq', [w])
    st = v.wait_bits(line.WSTATUS, lambda b: b >> w & 1)
    cause, pc = v.where(w)
    check(f'haltreq halts warp {w} where it runs, hacause HALTREQ',
          st >> w & 1 and cause == line.HACAUSE_HALTREQ and pc != STARTUP_ADDR,
          f'WSTATUS {st:#x}, hacause {cause}, PC {pc:#x}')


def reset_halt(card, v):
    """reset --halt, as Vortex's debugger resets: the binary again from
    STARTUP_ADDR, warp 0 of every core halted there."""
    firsts = sum(1 << (k * card.warps) for k in range(card.clusters * card.cores))
    reset = v.reset_halt()
    st = v.wait_bits(line.WSTATUS, lambda b: b == firsts)
    pcs = {v.where(w)[1] for w in range(card.total) if firsts >> w & 1}
    check('reset --halt: the binary starts again, warp 0 of every core halted at '
          'STARTUP_ADDR', reset and st == firsts and pcs == {STARTUP_ADDR},
          f'ndmreset polled {reset}, WSTATUS {st:#x}, PCs {[hex(p) for p in pcs]}')


def continue_all(v):
    """The warps the kernel spawns halt at their start too: resume until done."""
    for _ in range(50):
        v.request_warps('resumereq')
        act = v.wait_bits(line.WACTIVE, lambda b: b == 0 or v.warp_bits(line.WSTATUS))
        if act == 0:
            break
    check('continue all, as often as warps halt at their start: the job ends',
          act == 0, f'WACTIVE {act:#x}')


def session(c, tasks, attached):
    card = e2e.Card(c)
    v = line.Vxdbg(c, card.total, card.threads)
    v.setup()
    if not halted_at_start(c, card, v, attached):
        return
    w = (card.clusters * card.cores - 1) * card.warps
    registers(card, v, w, tasks)
    steps(card, v, w)
    run_and_halt(card, v, w)
    if not attached:
        reset_halt(card, v)
    continue_all(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--connect', metavar='HOST:PORT', help='a running server')
    ap.add_argument('--attached', action='store_true',
                    help='the server started the program (`--`): no `s`')
    ap.add_argument('--tasks', type=int, default=8, help='the argument file\'s n (8)')
    a = ap.parse_args()
    server = argfile = c = None
    if a.connect:
        host, port = a.connect.rsplit(':', 1)
        addr = (host, int(port))
    else:
        with tempfile.NamedTemporaryFile('wb', suffix='.args', delete=False) as f:
            f.write(a.tasks.to_bytes(4, 'little'))
            argfile = f.name
        server = e2e.Server(['--halt-at-start', VXBIN, argfile])
        addr = server.addr
        check('the server stages the .vxbin and says where it listens', addr, server.text())
    try:
        if addr:
            c = e2e.Client(*addr)
            session(c, a.tasks, a.attached)
    except (e2e.Protocol, OSError) as e:
        check('the conversation went through', False, f'{type(e).__name__}: {e}')
    if c:
        c.close()
    if server:
        check('server log: started in Vortex\'s model at STARTUP_ADDR, cancelled by the '
              'reset, started again, ended ok',
              server.wait_log(r'started job 1: \S*vxs_hello\.vxbin at 0x80000000, argument '
                              r'block at 0x[0-9a-f]+, in Vortex\'s model[^\n]*\n(.*\n)*'
                              r'.*job ended: Operation canceled\n.*ndmreset: started job 2: '
                              r'[^\n]*\n(.*\n)*.*job ended: ok'), server.text())
        rc = server.stop()
        check('SIGTERM: the server leaves with status 0', rc == 0, f'{rc}\n{server.text()}')
        os.unlink(argfile)
    return e2e.tap()


if __name__ == '__main__':
    sys.exit(main())
