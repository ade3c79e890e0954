#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""gdb-multiarch on a job launched in Vortex's model, printing TAP (issue 24).

The guest's second stub (scripts/guest/init, gdbvx_serve) runs
    vortex-gdbserver --listen vport:vortex.gdbvx --on-connect -- \\
        vortex-run --timeout 86400000 /vortex/kernels/vxs_hello.vxbin /tmp/n8
where /tmp/n8 is the argument block: one word, n = 8 tasks.  What must hold,
from upstream Vortex: its processor starts warp 0 lane 0 of each core at
STARTUP_ADDR (hw/rtl/VX_config.vh: 0x80000000) with mscratch = STARTUP_ARG
(sim/simx/emulator.cpp, from the DCRs; kernel/src/vx_start.S reads the
argument from mscratch).  So gdb, connected before anything ran, sees
pc = 0x80000000, the word at mscratch is 8, a stepi moves to 0x80000004,
and continuing (warps the kernel spawns halt at their first instruction
too: the halt-at-start latch of the Debug Module, vxdebug-spec.md
"resethaltreq") runs the program to its end.  On the way gdb shows what
the kernel printed as it stops: the stub sends it as 'O' packets before a
stop reply (gdb's RSP documentation, "Stop Reply Packets": "O XX... The
program wrote output ... sent in response to a continue or step packet
before the final stop reply"), a line per thread, "[console] hart H: text".

    vortex_model_gdb.py --connect HOST:PORT
"""
import argparse
import re
import subprocess
import tempfile
import os

GDB = 'gdb-multiarch'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--connect', required=True, help='HOST:PORT of the stub')
    a = ap.parse_args()
    script = ('set pagination off\nset confirm off\nset width 0\n'
              'echo @@pc0\\n\np/x $pc\n'
              'echo @@arg\\n\nx/wx $mscratch\n'
              'echo @@step\\n\nstepi\np/x $pc\n'
              'echo @@end\\n\n' + 'continue\n' * 12)
    with tempfile.NamedTemporaryFile('w', suffix='.gdb', delete=False) as f:
        f.write(script)
    cmd = ['timeout', '-s', 'KILL', '300', GDB, '-nx', '-batch',
           '-ex', 'set architecture riscv:rv32', '-ex', f'target remote {a.connect}',
           '-x', f.name]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True).stdout
    os.unlink(f.name)

    def part(name):
        m = re.search(f'@@{name}\n(.*?)(?=@@|$)', out, re.S)
        return m.group(1) if m else ''

    checks = [
        ('gdb finds the job halted at Vortex\'s STARTUP_ADDR: pc = 0x80000000',
         re.search(r'^\$\d+ = 0x80000000$', part('pc0'), re.M)),
        ('the word at mscratch is the argument file\'s: n = 8',
         re.search(r':\s+0x00000008$', part('arg'), re.M)),
        ('stepi moves warp 0 lane 0 one instruction: pc = 0x80000004',
         re.search(r'^\$\d+ = 0x80000004$', part('step'), re.M)),
        ('continue runs the program to its end: exited normally',
         'exited normally' in part('end')),
        ('gdb shows the kernel\'s output at a stop: "[console] hart H: task 000N"',
         re.search(r'^\[console\] hart \d+: task 000\d$', part('end'), re.M)),
    ]
    print('TAP version 13')
    print(f'1..{len(checks)}')
    bad = 0
    for i, (name, ok) in enumerate(checks, 1):
        print(f'{"ok" if ok else "not ok"} {i} {name}')
        if not ok:
            bad += 1
            for line in out.splitlines()[-40:]:
                print(f'# {line}')
    return 1 if bad else 0


if __name__ == '__main__':
    raise SystemExit(main())
