#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What cuda-gdb reads from a dump's CUDA ELF, checked against the dump's text.

  cuda-gdb-check.py --coredump TOOL --gdb 'CMD...' --dir DIR [-j N]
                    [--cuda-layout r400] INPUT...

INPUT is NAME=DUMP, or what a guest boot sent of the dumps its tests read
(its dumps.log with run-guest.sh --keep-dumps, else its results.log:
scripts/guest/init), the dumps named after the boot's directory; a boot
that sent none fails.

For each DUMP (a crash dump's text), TOOL (vortex-coredump) writes the
CUDA ELF (--extract-elf) into DIR, which CMD (a cuda-gdb command line,
e.g. scripts/buildroot.sh --run ROOT cuda-gdb) must see at the same path;
cuda-gdb then reads its commands from stdin, not from a terminal (unlike
-batch -x, a failing command does not end the session), and prints, lane
by lane, what the text says too.  The expectations come from the text:
the card's shape from its Debug Module PLATFORM register, each lane's PC
and registers (TOOL --registers), the fault and the buffers (TOOL --json,
TOOL --bo), mapped onto CUDA's SMs, warps and lanes as docs/driver.md
says (.note.vortex.split); only the grid and block come from the ELF's
grid row (TOOL's summary), and a stack top no captured buffer holds from
its .cudbg.local section (the driver's copy, not in the text).  Prints
TAP, a few tests per dump; a cuda-gdb that aborts, or reads any value
other than these, fails them.
"""
import argparse
import array
import collections
import concurrent.futures
import json
import os
import re
import shlex
import struct
import subprocess
import sys
import threading

CUDA_LANES, CUDA_WARPS = 32, 64
MEM_WORDS = 1024          # words of each buffer read one by one
BULK_WORDS = 64           # words read at once, inside a buffer's data section
ABORT = re.compile(r'Fatal signal|internal-error|terminate called|unknown sm_type|'
                   r'A fatal error internal to GDB|This is a bug')
results = threading.local()


def check(name, ok, diag=''):
    results.list.append((name, bool(ok), diag))


def tool(args, *argv):
    r = subprocess.run([args.coredump, *argv], capture_output=True, text=True, errors='replace')
    if r.returncode:
        raise RuntimeError(f'vortex-coredump {" ".join(argv)}: {r.stderr}')
    return r.stdout


class Card:
    """The card's shape, from the text's PLATFORM register, and where each
    of its lanes is in the CUDA ELF (driver/vortex_dump_elf.c, elf_split)."""

    def __init__(self, text):
        m = re.search(r'name: platform, value: (0x[0-9a-f]+)', text)
        v = int(m[1], 16)
        self.threads = 1 << (v & 7)
        self.warps = (v >> 3) & 0x1ff
        self.cores = ((v >> 12) & 0x1ff) * ((v >> 21) & 0x7f)
        self.parts = -(-self.threads // CUDA_LANES)
        self.lanes = min(self.threads, CUDA_LANES)
        self.per_sm = min(self.warps * self.parts, CUDA_WARPS)
        self.spc = -(-self.warps * self.parts // CUDA_WARPS)
        self.sms = self.cores * self.spc

    def place(self, warp_id, lane):
        """(sm, warp, lane) in the ELF of a lane of the card's warp_id."""
        core, wic = divmod(warp_id, self.warps)
        v = wic * self.parts + lane // CUDA_LANES
        return core * self.spc + v // self.per_sm, v % self.per_sm, lane % CUDA_LANES


Section = collections.namedtuple('Section', 'addr entsize data')


def elf_sections(buf):
    """{name: Section} of an ELF64, read with struct alone (also
    userspace/coredump/tests/test_coredump.py's reader)."""
    shoff, = struct.unpack_from('<Q', buf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', buf, 0x3a)
    zero = struct.unpack_from('<IIQQQQIIQQ', buf, shoff)
    # ELF's extended numbering, past 0xff00 sections: in section 0
    shnum = shnum or zero[5]
    shstrndx = zero[6] if shstrndx == 0xffff else shstrndx
    hdrs = [struct.unpack_from('<IIQQQQIIQQ', buf, shoff + i * shentsize) for i in range(shnum)]
    stroff = hdrs[shstrndx][4]
    out = {}
    for h in hdrs[1:]:
        name = buf[stroff + h[0]:buf.index(b'\0', stroff + h[0])].decode()
        out[name] = Section(h[3], h[9], buf[h[4]:h[4] + h[5]])
    return out


def elf_locals(path):
    """{(sm, warp, lane): (addr, words)} of the ELF's .cudbg.local sections:
    where each lane's stack top is, and its last four words."""
    out = {}
    for name, sec in elf_sections(open(path, 'rb').read()).items():
        m = re.fullmatch(r'\.cudbg\.local\.dev0\.sm(\d+)\.cta\d+\.wp(\d+)\.ln(\d+)', name)
        if m and len(sec.data) >= 16:
            out[tuple(int(g) for g in m.groups())] = (
                sec.addr + len(sec.data) - 16, list(struct.unpack('<4I', sec.data[-16:])))
    return out


def expectations(args, name, dump):
    """What cuda-gdb must show, from the text; the ELF written to DIR."""
    text = open(dump, errors='replace').read()
    elf = os.path.join(args.dir, name + '.elf')
    tool(args, '--extract-elf', elf, *(['--cuda-layout', args.layout] if args.layout else []), dump)
    rep = json.loads(tool(args, '--json', dump))
    card = Card(text)
    lanes = {}
    for line in tool(args, '--registers', dump).splitlines():
        f = line.split()
        warp, lane = int(f[0]), int(f[1])
        lanes[card.place(warp, lane)] = {'card': (warp, lane), 'pc': int(f[2], 16),
                                         'regs': [int(x, 16) for x in f[3:67]]}
    bufs = []
    for b in rep['buffers']:
        if not b['has_data']:
            continue
        path = os.path.join(args.dir, f'{name}.bo{b["index"]}')
        tool(args, '--bo', str(b['iova']), '-o', path, dump)
        data = open(path, 'rb').read()
        os.unlink(path)
        # An array, not a tuple: a buffer's words are not Python ints
        # until one is looked at (a 16 MiB buffer is 4 million of them).
        words = array.array('I', data[:len(data) // 4 * 4])
        if sys.byteorder != 'little':
            words.byteswap()
        # The ELF's data section ends where the text's block did: at the
        # last non-zero word (the zero tail is a section of its own).
        nz = (len(data.rstrip(b'\0')) + 3) // 4
        # Version 1 dumps (drivers before the zero tails) hold no more, nor
        # do dumps whose buffers were cut at dump_max_mb (the text does
        # not say where).
        if rep['dump_version'] < 2 or 'buffer contents past' in (rep['not_captured'] or ''):
            words = words[:nz]
        if words:
            bufs.append({'iova': b['iova'], 'words': words, 'data_words': nz})
    # The grid and block as vortex-coredump reads the ELF's grid row (the
    # text has no launch; vortex_dump_content_test checks the row against it).
    grid = re.search(r'^grid: +(\d+) x (\d+) x (\d+) blocks of (\d+) x (\d+) x (\d+) threads',
                     tool(args, dump), re.M)
    return {'elf': elf, 'card': card, 'lanes': lanes, 'fault': rep['fault'],
            'bufs': bufs, 'locals': elf_locals(elf), 'grid': grid and grid.groups()}


def buffer_word(want, addr):
    for b in want['bufs']:
        if b['iova'] <= addr < b['iova'] + 4 * len(b['words']):
            return b['words'][(addr - b['iova']) // 4]
    return None


def commands(want):
    """The batch session: each command's output after an '@@' marker."""
    card, cmds = want['card'], []

    def mark(*what):
        cmds.append('echo @@' + ' '.join(str(w) for w in what) + '\\n')

    cmds += ['set pagination off', 'set width 0', 'set print repeats unlimited',
             'set print elements unlimited', 'set confirm off']
    mark('open')
    cmds.append(f'target cudacore {want["elf"]}')
    mark('devices')
    cmds.append('info cuda devices')
    mark('kernels')
    cmds.append('info cuda kernels')
    for sm in sorted({s for s, _, _ in want['lanes']}):
        mark('warps', sm)
        cmds.append(f'info cuda warps sm {sm}')
    for sm, wp in sorted({(s, w) for s, w, _ in want['lanes']}):
        mark('lanes', sm, wp)
        cmds.append(f'info cuda lanes sm {sm} warp {wp}')
    regs = ', '.join(f'$R{i}' for i in range(64))
    for sm, wp, ln in sorted(want['lanes']):
        mark('lane', sm, wp, ln)
        cmds += [f'cuda sm {sm} warp {wp} lane {ln}', f'p/x {{{regs}}}', 'p/x $pc']
        local = want['locals'].get((sm, wp, ln))
        if local:
            mark('local', sm, wp, ln, local[0])
            cmds.append(f'x/4xw (@local unsigned *){local[0]:#x}')
    for b in want['bufs']:
        n = min(len(b['words']), MEM_WORDS)
        mark('mem', b['iova'], n)
        cmds.append(f'x/{n}xw (@global unsigned *){b["iova"]:#x}')
        last = b['iova'] + 4 * (len(b['words']) - 1)
        mark('mem', last, 1)
        cmds.append(f'x/1xw (@global unsigned *){last:#x}')
        k = min(b['data_words'], BULK_WORDS)
        if k:
            mark('bulk', b['iova'], k)
            cmds.append(f'p/x *(@global unsigned *){b["iova"]:#x}@{k}')
    mark('end')
    return cmds


def sections(out):
    """{marker: text} of the session's output (commands read from stdin:
    each prompt precedes its command's output)."""
    got, key = {}, None
    for line in out.splitlines():
        while line.startswith('(cuda-gdb) '):
            line = line[len('(cuda-gdb) '):]
        if line.startswith('@@'):
            key = line[2:].strip()
            got[key] = []
        elif key is not None:
            got[key].append(line + '\n')
    return {k: ''.join(v) for k, v in got.items()}


def hexes(s):
    return [int(x, 16) for x in re.findall(r'0x[0-9a-f]+', s)]


def check_open(name, want, out, rc, got):
    bad = [line for line in out.splitlines() if ABORT.search(line)]
    check(f'{name}: cuda-gdb opens the ELF and ends on its own (exit {rc})',
          rc == 0 and not bad and 'end' in got and 'Opening GPU coredump' in got.get('open', ''),
          '\n'.join(bad[:4]) or out[-600:])
    f = want['fault']
    text = got.get('open', '')
    if f and f['cuda_exception']:
        sm, wp, ln = want['card'].place(f['warp'], f['lane'])
        # cuda-gdb 12.4 names warp exceptions ("CUDA Exception: NAME", an
        # assert as "Assertion failed."), not lane ones; info cuda lanes
        # names every lane's (check_tables).
        m = re.search(r'The exception was triggered at PC (0x[0-9a-f]+)', text)
        said = re.search(r'CUDA Exception: (.*)|(Assertion failed)\.', text)
        said = said and (said[1] or 'Warp Assert').strip()
        focus = re.search(r'Current focus set to .* sm (\d+), warp (\d+), lane (\d+)\]', text)
        check(f'{name}: the exception at {f["pc"]:#x}, focus on sm {sm} warp {wp} lane {ln}'
              f'{", named " + said if said else ""}',
              m and int(m[1], 16) == f['pc'] and said in (None, f['cuda_exception_name']) and
              focus and tuple(int(g) for g in focus.groups()) == (sm, wp, ln), text[-400:])
    else:
        check(f'{name}: no exception', 'CUDA Exception:' not in text and
              'The exception was triggered' not in text, text[-400:])


def check_tables(name, want, got):
    card = want['card']
    m = re.search(r'^\*?\s+0\s+\S+\s+Vortex\s+vortex\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)',
                  got.get('devices', ''), re.M)
    check(f'{name}: info cuda devices: sm_75, {card.sms} SMs x {card.per_sm} warps x '
          f'{card.lanes} lanes, 255 registers',
          m and m.groups() == ('sm_75', str(card.sms), str(card.per_sm), str(card.lanes), '255'),
          got.get('devices', ''))
    k = re.search(r'^\*\s+0\s+-\s+0\s+\d+\s+Active\s+0x[0-9a-f]+\s+\((\d+),(\d+),(\d+)\)\s+'
                  r'\((\d+),(\d+),(\d+)\)', got.get('kernels', ''), re.M)
    check(f'{name}: info cuda kernels: one active kernel, grid and block as vortex-coredump '
          f'reads them {want["grid"]}', k and k.groups() == want['grid'], got.get('kernels', ''))
    # Each warp: the mask of the lanes the text lists, and their PC.
    warps, bad = {}, []
    for (sm, wp, ln), lane in want['lanes'].items():
        w = warps.setdefault((sm, wp), [0, lane['pc']])
        w[0] |= 1 << ln
    for (sm, wp), (mask, pc) in sorted(warps.items()):
        row = re.search(rf'^\*?\s+{wp}\s+(0x[0-9a-f]+)\s+0x[0-9a-f]+\s+(0x[0-9a-f]+)\s',
                        got.get(f'warps {sm}', ''), re.M)
        if not row or (int(row[1], 16), int(row[2], 16)) != (mask, pc):
            bad.append(f'sm {sm} warp {wp}: {row.groups() if row else None} vs '
                       f'({mask:#x}, {pc:#x})')
    check(f'{name}: info cuda warps: {len(warps)} warps\' active masks and PCs', not bad,
          '\n'.join(bad[:6]))
    # Each lane: its PC and exception.
    bad, exc = [], want['fault']
    for (sm, wp, ln), lane in sorted(want['lanes'].items()):
        row = re.search(rf'^\*?\s+{ln}\s+active\s+(0x[0-9a-f]+)\s+\(\d+,\d+,\d+\)\s+(.*?)\s*$',
                        got.get(f'lanes {sm} {wp}', ''), re.M)
        name_ = 'None'
        if exc and exc['cuda_exception'] and lane['card'] == (exc['warp'], exc['lane']):
            name_ = exc['cuda_exception_name']
        if not row or int(row[1], 16) != lane['pc'] or row[2] != name_:
            bad.append(f'sm {sm} warp {wp} lane {ln}: {row.groups() if row else None} vs '
                       f'({lane["pc"]:#x}, {name_})')
    check(f'{name}: info cuda lanes: {len(want["lanes"])} lanes\' PCs and exceptions', not bad,
          '\n'.join(bad[:6]))


def check_lanes(name, want, got):
    bad, local_bad, text_words, elf_words = [], [], 0, 0
    for (sm, wp, ln), lane in sorted(want['lanes'].items()):
        text = got.get(f'lane {sm} {wp} {ln}', '')
        m = re.search(r'^\$\d+ = \{([^}]*)\}\n\$\d+ = (0x[0-9a-f]+)', text, re.M)
        regs = hexes(m[1]) if m else None
        if not m or regs != lane['regs'] or int(m[2], 16) != lane['pc']:
            diff = [f'R{i} {g:#x} vs {w:#x}' for i, (g, w) in
                    enumerate(zip(regs or [], lane['regs'])) if g != w]
            bad.append(f'sm {sm} warp {wp} lane {ln} (card warp {lane["card"][0]} lane '
                       f'{lane["card"][1]}): ' + (', '.join(diff[:4]) if m else text[-200:]))
        local = want['locals'].get((sm, wp, ln))
        if local:
            # The text's bytes where a captured buffer holds the stack; else
            # the driver's copy from the warps, which only the ELF carries.
            exp = [buffer_word(want, local[0] + 4 * i) for i in range(4)]
            if None in exp:
                exp, elf_words = local[1], elf_words + 1
            else:
                text_words += 1
            body = got.get(f'local {sm} {wp} {ln} {local[0]}', '')
            if hexes(body.split(':', 1)[-1]) != exp:
                local_bad.append(f'sm {sm} warp {wp} lane {ln} @local {local[0]:#x}: '
                                 f'{body.strip()} vs {[hex(x) for x in exp]}')
    check(f'{name}: R0-R63 and pc of {len(want["lanes"])} lanes equal the text\'s x0-x31, '
          'f0-f31, pc', want['lanes'] and not bad, '\n'.join(bad[:6]))
    check(f'{name}: @local reads of the stack tops of {text_words + elf_words} lanes equal '
          f'the text\'s buffer ({text_words}) or the ELF\'s section ({elf_words})',
          not local_bad, '\n'.join(local_bad[:6]))


def check_memory(name, want, got):
    bad, n = [], 0
    for key, body in got.items():
        kind, *what = key.split()
        if kind not in ('mem', 'bulk'):
            continue
        addr, count = int(what[0]), int(what[1])
        exp = [buffer_word(want, addr + 4 * i) for i in range(count)]
        vals = hexes(body.split('=', 1)[1]) if kind == 'bulk' else \
            [v for line in body.splitlines() for v in hexes(line.split(':', 1)[-1])]
        n += count
        if vals != exp:
            at = next((i for i, (g, w) in enumerate(zip(vals, exp)) if g != w), len(vals))
            bad.append(f'{kind} {addr:#x} x{count}: word {at} of {len(vals)} read: '
                       f'{body.strip()[:160]}')
    check(f'{name}: @global reads of {len(want["bufs"])} buffers ({n} words) equal the text\'s '
          'bytes', not bad, '\n'.join(bad[:6]))


def kept_dumps(log, dir_):
    """[(name, path)] of the dumps in a boot's results channel, each
    between "@@vx-dump NAME" and "@@vx-dump-end", written to @dir_."""
    boot = os.path.basename(os.path.dirname(os.path.abspath(log)))
    out, f = [], None
    for raw in open(log, errors='replace'):
        line = raw.rstrip('\n').rstrip('\r')
        if line.startswith('@@vx-dump '):
            name = f'{boot}.{line.split(" ", 1)[1]}'
            out.append((name, os.path.join(dir_, name + '.devcd')))
            f = open(out[-1][1], 'w')
        elif line.endswith('@@vx-dump-end') and f:
            f.write(line[:-len('@@vx-dump-end')])
            f.close()
            f = None
        elif f:
            f.write(line + '\n')
    if f:
        f.close()       # cut short: the checks say what is missing
    check(f'{boot}: the boot sent the dumps its tests read ({len(out)})', out, log)
    return out


def run_one(args, name, dump):
    """The checks of one dump: [(name, ok, diag)]."""
    results.list = []
    try:
        want = expectations(args, name, dump)
    except (RuntimeError, OSError, ValueError, TypeError) as e:
        check(f'{name}: the dump is read', False, str(e))
        return results.list
    cmdfile = os.path.join(args.dir, name + '.gdb')
    with open(cmdfile, 'w') as f:
        f.write('\n'.join(commands(want)) + '\n')
    # From stdin, not -x: a command that fails does not end the session.
    with open(cmdfile) as f:
        r = subprocess.run(shlex.split(args.gdb) + ['-nx', '-q'], stdin=f, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors='replace')
    out = r.stdout
    with open(os.path.join(args.dir, name + '.out'), 'w') as f:
        f.write(out)
    got = sections(out)
    check_open(name, want, out, r.returncode, got)
    check_tables(name, want, got)
    check_lanes(name, want, got)
    check_memory(name, want, got)
    return results.list


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--coredump', required=True, help='vortex-coredump')
    ap.add_argument('--gdb', required=True, help='the cuda-gdb command line')
    ap.add_argument('--dir', required=True, help='where the ELFs go (seen by cuda-gdb)')
    ap.add_argument('--cuda-layout', dest='layout', help='r400: the rows cuda-gdb 11.8 reads')
    ap.add_argument('-j', '--jobs', type=int, default=os.cpu_count(),
                    help='dumps checked at once (default: the CPUs)')
    ap.add_argument('inputs', nargs='+', metavar='INPUT')
    args = ap.parse_args()
    out, dumps = [], []
    for spec in args.inputs:
        results.list = out
        dumps += [spec.split('=', 1)] if '=' in spec else kept_dumps(spec, args.dir)
    # One cuda-gdb per dump (12.4 crashes on a second "target cudacore").
    with concurrent.futures.ThreadPoolExecutor(max(args.jobs, 1)) as pool:
        for found in pool.map(lambda d: run_one(args, *d), dumps):
            out += found
    print('TAP version 13')
    print(f'1..{len(out)}')
    for n, (name, ok, diag) in enumerate(out, 1):
        print(f'{"ok" if ok else "not ok"} {n} {name}')
        for line in diag.splitlines() if not ok else []:
            print(f'# {line}')
    return 1 if any(not ok for _, ok, _ in out) else 0


if __name__ == '__main__':
    sys.exit(main())
