#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of scripts/guest-prof.py, the guest's sampling profiler (prints TAP).

`sample` is run against a fake QMP server that answers "info registers -a"
as QEMU 10 prints it (two vCPUs: one in the kernel, one halted or in user
space, one in real mode), while a results log says which program runs;
`report` then must attribute each sample to the right program and to the
function the guest's kallsyms (sent in the results log) puts its RIP in.
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading

PROF = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'guest-prof.py')
results = []


def check(ok, name, diag=''):
    results.append((ok, name, diag))


def cpu(n, rip, cpl, hlt, long_mode=True):
    ip = f'RIP={rip:016x} RFL=00000246' if long_mode else f'EIP={rip:08x} EFL=00000002'
    return (f'CPU#{n}\r\nRAX=0000000000000000 RBX=0000000000000000\r\n'
            f'{ip} [---Z-P-] CPL={cpl} II=0 A20=1 SMM=0 HLT={hlt}\r\n'
            'ES =0000 0000000000000000 ffffffff 00c00000\r\n')


# What each of the server's answers says, in turn: (vCPU 0, vCPU 1).
ANSWERS = [
    cpu(0, 0xfff0, 0, 0, long_mode=False) + cpu(1, 0xfff0, 0, 1, long_mode=False),
    cpu(0, 0xffffffff81000020, 0, 0) + cpu(1, 0, 0, 1),
    cpu(0, 0xffffffff81000010, 0, 0) + cpu(1, 0x401000, 3, 0),
    cpu(0, 0xffffffffc0001008, 0, 0) + cpu(1, 0, 0, 1),
    cpu(0, 0xffffffff81000110, 0, 0) + cpu(1, 0xffffffff81000010, 0, 0),
]
KALLSYMS = ('ffffffff81000000 T memcpy_orig\n'
            'ffffffff81000100 t io_serial_out\n'
            'ffffffffc0001000 t vortex_job_emit\t[vortex]\n')


def serve(path, results_log, ready):
    """Answers ANSWERS in turn.  The sampler reads the results log before
    each request, so the line that tags answer K+1 is written before
    answer K goes out."""
    # the second line in two writes: a sample between them is not the
    # program's yet (nor one named by the line's first half)
    lines = ['', '@@vx-begin vortex_a', '_test\n', '#  RUN           a.one ...\n',
             '@@vx-end vortex_a_test rc=0\n']
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(1)
    ready.set()
    conn, _ = srv.accept()
    f = conn.makefile('rw')
    f.write(json.dumps({'QMP': {'version': {}}}) + '\n')
    f.flush()
    answered = 0
    for line in f:
        req = json.loads(line)
        if req['execute'] == 'qmp_capabilities':
            f.write('{"return": {}}\n')
        else:
            if answered + 1 < len(lines):
                with open(results_log, 'a') as r:
                    r.write(lines[answered + 1])
            f.write(json.dumps({'event': 'RESUME'}) + '\n')
            f.write(json.dumps({'return': ANSWERS[answered]}) + '\n')
            answered += 1
        f.flush()
        if answered == len(ANSWERS):
            break
    conn.close()
    srv.close()


def main():
    with tempfile.TemporaryDirectory() as tmp:
        sock, log, out = (os.path.join(tmp, n) for n in ('prof.sock', 'results.log', 'profile'))
        open(log, 'w').close()
        ready = threading.Event()
        t = threading.Thread(target=serve, args=(sock, log, ready))
        t.start()
        ready.wait()
        r = subprocess.run([sys.executable, PROF, 'sample', sock, log, out, '1000'],
                           capture_output=True, text=True, timeout=60)
        t.join()
        check(r.returncode == 0, 'sample ends with 0 when QEMU goes away', r.stderr)
        rows = [line.split() for line in open(out)]
        got = [tuple(x[1:]) for x in rows]
        want = [('0', '0', '0000fff0', '(boot)', '-'),
                ('1', '0', 'H', '(boot)', '-'),
                ('0', '0', 'ffffffff81000020', '(boot)', '-'),
                ('1', '0', 'H', '(boot)', '-'),
                ('0', '0', 'ffffffff81000010', 'vortex_a_test', '-'),
                ('1', '3', '0000000000401000', 'vortex_a_test', '-'),
                ('0', '0', 'ffffffffc0001008', 'vortex_a_test', 'a.one'),
                ('1', '0', 'H', 'vortex_a_test', 'a.one'),
                ('0', '0', 'ffffffff81000110', '(between)', '-'),
                ('1', '0', 'ffffffff81000010', '(between)', '-')]
        check(got == want, 'a line per vCPU and answer: CPL, RIP (EIP in real mode) or H when '
              'halted, the program the results log names (a line still being written: not yet), '
              'the harness test it runs ("#  RUN", "-" before the first)', f'{got}')
        with open(log, 'a') as f:
            f.write('@@vx-kallsyms-begin\n' + KALLSYMS + '@@vx-kallsyms-end\n')
        r = subprocess.run([sys.executable, PROF, 'report', out], capture_output=True,
                           text=True, timeout=60)
        rep = r.stdout
        check(r.returncode == 0, 'report ends with 0', r.stderr)
        section = rep[rep.index('vortex_a_test:'):].split('\n(')[0] if 'vortex_a_test:' in rep else ''
        check('vortex_a_test: 4 vCPU samples, 3 busy' in rep, 'report: samples and busy ones per '
              'program', rep)
        for what in ('memcpy_orig', 'vortex:vortex_job_emit', '(user)', '(idle)'):
            check(any(x.strip().endswith(f'1  25.0%  {what}') for x in section.splitlines()), f'report: {what} has one of vortex_a_test\'s '
                  'four samples', section)
        check('(between): 2 vCPU samples, 2 busy' in rep and '50.0%  io_serial_out' in rep,
              'report: a RIP inside a function is that function, by kallsyms order', rep)
        r = subprocess.run([sys.executable, PROF, 'report', out, '--by-test'],
                           capture_output=True, text=True, timeout=60)
        check('vortex_a_test: 2 vCPU samples, 2 busy' in r.stdout and
              'vortex_a_test/a.one: 2 vCPU samples, 1 busy' in r.stdout,
              'report --by-test: the samples of a program before its first test and of each '
              'test apart', r.stdout)
    print('TAP version 13')
    print(f'1..{len(results)}')
    for n, (ok, name, diag) in enumerate(results, 1):
        print(f'{"ok" if ok else "not ok"} {n} {name}')
        for line in ('' if ok else diag).splitlines():
            print(f'# {line}')
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == '__main__':
    sys.exit(main())
