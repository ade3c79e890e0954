#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of scripts/tap.py, the judge of every other test (prints TAP).

Each case feeds tap.py a small host TAP file or guest results/console log
and checks the verdict line and the exit status: a verdict that a crash,
a short plan, a missing end of boot, a kernel warning, or a suite the run
was expected to contain but never reported cannot turn into a failure
would hide real failures in `make check`.
"""
import os
import subprocess
import sys
import tempfile

TAP = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tap.py')
DMESG_OK = '@@vx-dmesg-begin\n[ 1.0] vortex: loaded\n@@vx-dmesg-end\n'


def host(tmp, text, rc):
    path = os.path.join(tmp, 'h.tap')
    with open(path, 'w') as f:
        f.write(text)
    with open(path + '.rc', 'w') as f:
        f.write(f'{rc}\n')
    return ['--host=h=' + path]


def guest(tmp, results, console=''):
    r, c = os.path.join(tmp, 'results.log'), os.path.join(tmp, 'console.log')
    with open(r, 'w') as f:
        f.write(results)
    with open(c, 'w') as f:
        f.write(console)
    return ['--guest', f'g={r},{c}']


def qemu_log(tmp, text):
    with open(os.path.join(tmp, 'qemu.log'), 'w') as f:
        f.write(text)
    return []


def boot(body, rc=0, done=True, dmesg=DMESG_OK):
    text = '@@vx-begin modules\nloaded: vortex\n@@vx-end modules rc=0\n'
    text += f'@@vx-begin t\n{body}@@vx-end t rc={rc}\n'
    text += '@@vx-begin unload\nvortex unloaded\n@@vx-end unload rc=0\n'
    text += dmesg
    return text + ('@@vx-done\n' if done else '')


CASES = [
    # name, make args, passed, failed, skipped[, text shown, text not shown]
    ('all pass', lambda t: host(t, '1..2\nok 1 a\nok 2 b\n', 0), 2, 0, 0),
    ('not ok fails', lambda t: host(t, '1..2\nok 1 a\nnot ok 2 b\n', 1), 1, 1, 0),
    ('skip counted', lambda t: host(t, '1..2\nok 1 a\nok 2 b # SKIP no card\n', 0), 1, 0, 1),
    ('todo is no failure', lambda t: host(t, '1..1\nnot ok 1 a # TODO later\n', 0), 1, 0, 0),
    ('short plan fails', lambda t: host(t, '1..3\nok 1 a\n', 0), 1, 1, 0),
    ('crash fails', lambda t: host(t, '1..1\nok 1 a\n', 139), 1, 1, 0),
    ('no output fails', lambda t: host(t, '', 0), 0, 1, 0),
    ('empty plan fails', lambda t: host(t, '1..0\n', 0), 0, 1, 0),
    ('clean boot', lambda t: guest(t, boot('1..1\nok 1 a\n')), 5, 0, 0),
    ('unfinished boot fails', lambda t: guest(t, boot('1..1\nok 1 a\n', done=False)), 4, 1, 0),
    ('warning in dmesg fails', lambda t: guest(t, boot('1..1\nok 1 a\n', dmesg=(
        '@@vx-dmesg-begin\n[ 2.0] WARNING: CPU: 0 PID: 1 at x.c:1\n@@vx-dmesg-end\n'))), 4, 1, 0),
    ('oops on the console fails', lambda t: guest(t, boot('1..1\nok 1 a\n'),
                                                  '[ 3.0] Oops: 0000 [#1]\n'), 4, 1, 0),
    # the debug kernel's reports (docs/debug-kernel.md)
    ('KASAN report fails', lambda t: guest(t, boot('1..1\nok 1 a\n'),
                                           '[ 9.0] BUG: KASAN: slab-use-after-free in f+0x1/0x2\n'),
     4, 1, 0, ['BUG: KASAN: slab-use-after-free']),
    ('lockdep report fails', lambda t: guest(t, boot('1..1\nok 1 a\n', dmesg=(
        '@@vx-dmesg-begin\n[ 5.0] WARNING: possible circular locking dependency detected\n'
        '@@vx-dmesg-end\n'))), 4, 1, 0),
    ('hung task fails', lambda t: guest(t, boot('1..1\nok 1 a\n'),
                                        '[ 130.0] INFO: task t:80 blocked for more than 120 seconds.\n'),
     4, 1, 0),
    ('RCU stall fails', lambda t: guest(t, boot('1..1\nok 1 a\n'),
                                        '[ 30.0] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n'),
     4, 1, 0),
    ('kmemleak line is no report', lambda t: guest(t, boot('1..1\nok 1 a\n'),
        '[ 0.1] kmemleak: Kernel memory leak detector initialized (mempool available: 31000)\n'),
     5, 0, 0),
    # the guest's kmemleak section (scripts/guest/init): a leak shows the
    # first object, its task and its frame in the module
    ('kmemleak leak fails', lambda t: guest(t, boot(
        '1..1\n# unreferenced object 0xffff8880 (size 64):\n#   comm "t", pid 80\n'
        '#   backtrace (crc d394490b):\n#     kmemleak_alloc+0x28/0x30\n'
        '#     __kmalloc_cache_noprof+0x207/0x390\n#     0xffffffffa000040f\n'
        '# first: unreferenced object 0xffff8880 (size 64):\n#   comm "t", pid 80\n'
        '#     0xffffffffa000040f\n'
        'not ok 1 kmemleak: 1 unreferenced objects after rmmod\n', rc=0)), 4, 1, 0,
     ['# first: unreferenced object 0xffff8880', '0xffffffffa000040f']),
    # not finished, modules and unload never reported, t cut off and short
    ('test cut off fails', lambda t: guest(t, '@@vx-begin t\n1..2\nok 1 a\n'), 2, 5, 0),
    # a boot that never finished says what it left (qemu.log, each
    # channel's last line): the end of a CI log is all one may see
    ('unstarted boot shows why', lambda t: guest(t, '', '') + qemu_log(
        t, "qemu-system-x86_64: -qmp unix:/x/qmp.sock: UNIX socket path '/x' is too long\n"
           'run-guest: QEMU exited with 1 after 0 s; 5G free where it writes, 900 MiB available\n'),
     1, 3, 0, ["qemu.log: qemu-system-x86_64: -qmp unix:/x/qmp.sock: UNIX socket path",
               'run-guest: QEMU exited with 1 after 0 s', 'last results line: (empty)']),
    ('boot hung in a test shows its last lines', lambda t: guest(
        t, '@@vx-begin modules\nloaded: vortex\n@@vx-end modules rc=0\n@@vx-begin t\n1..2\nok 1 a\n',
        '[ 2.0] vortex 0000:00:02.0: [drm] job timed out\n\n'),
     3, 4, 0, ['last results line: ok 1 a', 'last console line: [ 2.0] vortex 0000:00:02.0',
               'qemu.log: none (QEMU never started?)']),
    ('module load failure fails', lambda t: guest(t, boot('1..1\nok 1 a\n').replace(
        'modules rc=0', 'modules rc=1')), 4, 1, 0),
    # --expect: what a run must contain (scripts/check.sh lists it)
    ('expected suites present', lambda t: guest(t, boot('1..1\nok 1 a\n'))
     + ['--expect', 'g', '--expect', 'g/t'], 5, 0, 0),
    ('expected host suite present', lambda t: host(t, '1..1\nok 1 a\n', 0)
     + ['--expect', 'h'], 1, 0, 0),
    ('expected host suite missing fails', lambda t: host(t, '1..1\nok 1 a\n', 0)
     + ['--expect', 'h', '--expect', 'host/gone'], 1, 1, 0),
    ('expected program never started fails', lambda t: guest(t, boot('1..1\nok 1 a\n'))
     + ['--expect', 'g/t', '--expect', 'g/vortex_bar_test'], 5, 1, 0),
    ('expected boot missing fails', lambda t: guest(t, boot('1..1\nok 1 a\n'))
     + ['--expect', 'g', '--expect', 'g2', '--expect', 'g2/t'], 5, 2, 0),
    # a failure shows the harness's assertion, not only the test's name
    ('failure shows its assertion', lambda t: host(t, (
        '1..2\n# RUN f.a\n# x.c:12:a:not this test\nok 1 f.a\n# RUN f.b\n'
        '# x.c:40:b:Expected 1 (1) == got (2)\n# x.c:41:b:round 7\nnot ok 2 f.b\n'), 1),
     1, 1, 0, ['FAIL h: f.b (# x.c:40:b:Expected 1 (1) == got (2)', '# x.c:41:b:round 7)'],
     ['not this test']),
]


def main():
    print('TAP version 13')
    print(f'1..{len(CASES)}')
    failed = 0
    for i, (name, make, p, f, s, *text) in enumerate(CASES, 1):
        shown, hidden = text + [[], []][len(text):]
        with tempfile.TemporaryDirectory() as tmp:
            r = subprocess.run([sys.executable, TAP] + make(tmp),
                               capture_output=True, text=True)
        want = f'{p} passed, {f} failed, {s} skipped'
        last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ''
        ok = last == want and r.returncode == (1 if f else 0)
        if not ok:
            print(f'# want "{want}" exit {1 if f else 0}, got "{last}" exit {r.returncode}')
        for t in shown + hidden:
            if (t in r.stdout) != (t in shown):
                ok = False
                print(f'# "{t}" should {"" if t in shown else "not "}be in:\n# '
                      + r.stdout.replace('\n', '\n# '))
        failed += not ok
        print(f'{"ok" if ok else "not ok"} {i} {name}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
