#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""DCTRL's summary bits as the reference RTL computes them, through the bridge, TAP.

A third-party debugger's view, one DM access per line (dm_line_client.py),
against vortex-dmserver-sim -t 1,2,4,8 hang.elf, started here: `s` puts
one block on core 0, so warps 0-3 run and warps 4-7 (core 1) have no
context.  The reference RTL (saursin/vortex 4c27d128,
hw/rtl/VX_debug_module.sv, "// Summary bits") computes allhalted,
anyhalted, allrunning and anyrunning over the halted bit of every warp of
the card, whatever DSELECT and WMASK say; a haltreq sets the halted bit
and the cause HALTREQ of every selected warp, halted already or not, with
a context or not (hw/rtl/core/VX_schedule.sv, "// halt request from
debugger"); docs/hardware.md, "Summary bits".
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import dm_line_client as line  # noqa: E402
import dmserver_e2e as e2e  # noqa: E402
from dmserver_e2e import check  # noqa: E402

HANG = os.path.join(e2e.O, 'riscv', 'hang.elf')
RUNNING = 0x0f          # warps 0-3: hang's one block on core 0
SUMMARY = ('allhalted', 'anyhalted', 'allrunning', 'anyrunning')


def summary(v):
    """The four bits, from one DCTRL read: (allhalted, anyhalted, allrunning, anyrunning)."""
    dctrl = v.rd(line.DCTRL)
    return tuple(dctrl >> line.FIELDS[name][1] & 1 for name in SUMMARY)


def show(bits):
    return ' '.join(f'{n}={b}' for n, b in zip(SUMMARY, bits))


def cases(c):
    v = line.Vxdbg(c, 8, 8)
    check('s starts hang.elf', c.cmd('s') == '+')
    act = v.wait_bits(line.WACTIVE, lambda b: b == RUNNING)
    check('warps 0-3 run, 4-7 have no context (WACTIVE 0x0f)', act == RUNNING, f'{act:#x}')
    v.setup()

    v.request_warps('haltreq', [1, 2])
    st, bits = v.warp_bits(line.WSTATUS), summary(v)
    check('halting warps 1 and 2 of the four running reads allhalted=0 anyhalted=1 '
          'allrunning=0 anyrunning=1 (every warp counts, not the selection)',
          st == 0x06 and bits == (0, 1, 0, 1), f'WSTATUS {st:#x}, {show(bits)}')

    v.select(1, 0)
    stepped = v.step() and v.rdfield('hacause') == line.HACAUSE_STEP
    v.request_warps('haltreq', [1, 2])
    cause = v.rdfield('hacause')
    check('haltreq on a halted warp (warp 1, just stepped) makes its cause HALTREQ',
          stepped and cause == line.HACAUSE_HALTREQ, f'stepped {stepped}, hacause {cause}')

    v.request_warps('haltreq')
    st, bits = v.warp_bits(line.WSTATUS), summary(v)
    check('halt all, warps 4-7 without a context: allhalted=1 anyhalted=1 allrunning=0 '
          'anyrunning=0', bits == (1, 1, 0, 0), f'WSTATUS {st:#x}, {show(bits)}')
    check('WSTATUS still names only the halted warps that have a context',
          st == RUNNING, f'WSTATUS {st:#x}')
    cause = v.where(5)[0]
    check('warp 5, no context, reads hacause HALTREQ after halt all, as the RTL\'s',
          cause == line.HACAUSE_HALTREQ, f'hacause {cause}')

    v.select_warps([])
    bits = summary(v)
    check('nothing selected, every warp halted: allhalted=1 anyhalted=1 allrunning=0 '
          'anyrunning=0', bits == (1, 1, 0, 0), show(bits))

    v.request_warps('resumereq')
    running = v.poll('allrunning', 1)
    v.select_warps([])
    bits = summary(v)
    act = v.warp_bits(line.WACTIVE)
    check('continue all, then nothing selected: allhalted=0 anyhalted=0 allrunning=1 '
          'anyrunning=1, and the job runs on', running and bits == (0, 0, 1, 1) and
          act == RUNNING, f'allrunning polled {running}, {show(bits)}, WACTIVE {act:#x}')


def main():
    server = e2e.Server(['-t', '1,2,4,8', HANG])
    c = None
    if check('the server says where it listens', server.addr, server.text()):
        try:
            c = e2e.Client(*server.addr)
            cases(c)
        except (e2e.Protocol, OSError) as e:
            check('the conversation went through', False, f'{type(e).__name__}: {e}')
    if c:
        c.close()
    rc = server.stop()
    check('SIGTERM: the server leaves with status 0', rc == 0, f'{rc}\n{server.text()}')
    return e2e.tap()


if __name__ == '__main__':
    sys.exit(main())
