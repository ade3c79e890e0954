#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every script of scripts/ answers --help, and a call without its
arguments, with its usage, printing TAP.

`scripts/initramfs.sh --help` printed "line 12: $2: unbound variable";
other scripts would have started their work (a QEMU build, the debug
kernel's) on --help.  Each executable shell script must call
`vx_usage MIN "$@"` (scripts/lib.sh) as its first command after sourcing
lib.sh; then that prologue, the script's own lines up to vx_usage, is run
with --help (exit 0, the header comment on stdout, nothing on stderr) and,
when the script wants arguments, with none (exit 1, the usage on stderr,
no unbound variable).  Only the prologue runs, so a script whose vx_usage
did not exit still starts no work here.  The Python scripts are run as
they are: nothing they do comes before their argument checks.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
SCRIPTS = os.path.join(TOP, 'scripts')
SOURCE_LIB = '. "$(dirname "$0")/lib.sh"'
results = []


def check(ok, name, diag=''):
    results.append((ok, name, diag))


def prologue(path):
    """(the script's lines up to its vx_usage call, MIN), or None."""
    lines = open(path).read().splitlines(True)
    for i, line in enumerate(lines):
        if line.strip() == SOURCE_LIB:
            for j in range(i + 1, len(lines)):
                s = lines[j].strip()
                if s and not s.startswith('#'):
                    m = re.fullmatch(r'vx_usage (\d+) "\$@"', s)
                    return (''.join(lines[:j + 1]), int(m.group(1))) if m else None
    return None


def run(cmd, **kw):
    return subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=30, **kw)


def shell_script(name, scratch):
    p = prologue(os.path.join(SCRIPTS, name))
    check(p is not None, f'{name} calls vx_usage first, after lib.sh')
    if p is None:
        return
    text, need = p
    path = os.path.join(scratch, name)
    with open(path, 'w') as f:
        f.write(text)
    env = dict(os.environ, VX_CACHE=os.path.join(scratch, 'cache'))
    r = run(['bash', path, '--help'], cwd=scratch, env=env)
    lines = r.stdout.splitlines()
    first = lines[0] if lines else ''
    check(r.returncode == 0 and first and not any(ln.startswith('#') for ln in lines) and
          not r.stderr,
          f'{name} --help: its usage on stdout, exit 0', r.stdout[:300] + r.stderr)
    if need:
        r = run(['bash', path], cwd=scratch, env=env)
        check(r.returncode == 1 and r.stderr.startswith(first) and 'unbound' not in r.stderr,
              f'{name} without its {need} argument(s): its usage on stderr, exit 1',
              r.stderr[-300:])


def python_script(name, needs_args):
    path = os.path.join(SCRIPTS, name)
    r = run([sys.executable, path, '--help'])
    check(r.returncode == 0 and 'usage' in r.stdout.lower() and not r.stderr,
          f'{name} --help: its usage on stdout, exit 0', r.stdout[:300] + r.stderr)
    if needs_args:
        r = run([sys.executable, path])
        check(r.returncode != 0 and 'usage' in r.stderr.lower() and 'Traceback' not in r.stderr,
              f'{name} without arguments: its usage on stderr', r.stderr[-300:])


def main():
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copy(os.path.join(SCRIPTS, 'lib.sh'), scratch)
        for name in sorted(os.listdir(SCRIPTS)):
            path = os.path.join(SCRIPTS, name)
            # lib.sh defines vx_usage; the others without x are sourced.
            if name.endswith('.sh') and name != 'lib.sh' and os.access(path, os.X_OK):
                shell_script(name, scratch)
    python_script('tap.py', False)
    python_script('qmp-watch.py', True)
    python_script('guest-prof.py', True)
    print('TAP version 13')
    print(f'1..{len(results)}')
    for i, (ok, name, diag) in enumerate(results, 1):
        print(f'{"ok" if ok else "not ok"} {i} {name}')
        if not ok:
            for line in diag.splitlines()[-8:]:
                print(f'# {line}')
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == '__main__':
    sys.exit(main())
