#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests of vortex-coredump on real dumps (userspace/tests/data), TAP.

The decoder's bytes are checked against independent readers: python's
base64.a85decode (fed one group per 32-bit word, each word's bytes then
reversed: the dump's words are little-endian) and binutils' readelf.
Malformed copies of a dump must fail with the line and field named, and
the gdb core of the assert dump must show the backtrace with source lines.
"""
import base64
import importlib.util
import json
import os
import re
import struct
import shutil
import subprocess
import sys
import tempfile
import zlib

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
O = os.environ.get('O', 'build')
TOOL = os.path.join(TOP, O, 'host', 'userspace', 'vortex-coredump')
DATA = os.path.join(TOP, 'userspace', 'tests', 'data')
KDIR = os.path.join(TOP, O, 'riscv')
DUMPS = ['hang', 'fault_illegal', 'fault_assert']
results = []
sys.dont_write_bytecode = True         # no __pycache__ in scripts/
_spec = importlib.util.spec_from_file_location(
    'cuda_gdb_check', os.path.join(TOP, 'scripts', 'cuda-gdb-check.py'))
CUDA_GDB_CHECK = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(CUDA_GDB_CHECK)


def check(name, ok, diag=''):
    results.append((name, ok, diag))


def run(*args):
    return subprocess.run([TOOL, *args], capture_output=True, text=True)


def a85_words(block):
    """Bytes of an ascii85 block, decoded by python, words little-endian."""
    out = bytearray()
    groups = re.findall(r'z|[!-u]{5}', ''.join(block.split()))
    for g in groups:
        word = b'\0\0\0\0' if g == 'z' else base64.a85decode(g)
        out += word[::-1]
    return bytes(out)


def section(text, header, indent):
    """(size, block) of the section that starts with line @header."""
    lines = text.split('\n')
    i = lines.index(header)
    size = int(lines[i + 1].split(': ')[1], 0)
    j = i + 1
    while not lines[j].strip().startswith('data: !!ascii85'):
        j += 1
    block = []
    for line in lines[j + 1:]:
        if len(line) - len(line.lstrip(' ')) <= indent:
            break
        block.append(line)
    return size, '\n'.join(block)


def test_dump(tmp, name):
    path = os.path.join(DATA, name + '.devcd')
    text = open(path).read()
    r = run(path)
    want = {'hang': 'HUNG', 'fault_illegal': 'cause 1 (illegal instruction)',
            'fault_assert': '"i < arg->n" failed at'}[name]
    check(f'{name}: summary', r.returncode == 0 and want in r.stdout, r.stdout + r.stderr)
    # PCs are named from the kernel image the dump carries.
    named = re.search(r'\n +\d+ at 0x[0-9a-f]{8} <vx_kernel_main\+0x[0-9a-f]+>  \(warp 0;', r.stdout)
    check(f'{name}: warp 0 named in vx_kernel_main', r.returncode == 0 and named, r.stdout)

    elf = os.path.join(tmp, name + '.elf')
    r = run('--extract-elf', elf, path)
    size, block = section(text, 'cuda-coredump:', 2)
    ref = a85_words(block)[:size]
    got = open(elf, 'rb').read() if r.returncode == 0 else b''
    check(f'{name}: --extract-elf equals python a85decode, the device row as cuda-gdb 12.4 '
          'reads it', got == cuda_gdb_row(ref) and got != ref and len(ref) == size,
          f'{len(got)} vs {len(ref)} bytes, size {size}')
    re_ = subprocess.run(['readelf', '-S', '-W', elf], capture_output=True, text=True)
    check(f'{name}: readelf reads the ELF', re_.returncode == 0 and '.cudbg.devtbl' in re_.stdout
          and not re_.stderr, re_.stderr)

    r4 = os.path.join(tmp, name + '.r400.elf')
    run('--extract-elf', r4, '--cuda-layout', 'r400', path)
    re4 = subprocess.run(['readelf', '-S', '-W', r4], capture_output=True, text=True)
    es = {m[0]: int(m[1], 16) for m in
          re.findall(r'\] (\.cudbg\.(?:grid|cta|wp)tbl)\S*\s+\S+\s+\S+\s+\S+\s+\S+\s+(\S+)', re4.stdout)}
    check(f'{name}: r400 rows are 104/24/32 bytes', re4.returncode == 0 and not re4.stderr and
          es == {'.cudbg.gridtbl': 0x68, '.cudbg.ctatbl': 0x18, '.cudbg.wptbl': 0x20},
          re4.stderr + str(es))

    rows = r400_rows(open(elf, 'rb').read(), open(r4, 'rb').read()) if os.path.exists(r4) else {}
    many = any(n > 1 for n, _ in rows.values())
    check(f'{name}: r400 tables keep every row, each the r550 row cut short',
          rows and many and all(ok for _, ok in rows.values()), str(rows))

    m = re.search(r'  - iova: (0x[0-9a-f]+)\n    size: (\d+)\n(?:    .*\n)*?    data: !!ascii85 \|\n((?:      .*\n)+)', text)
    bo = os.path.join(tmp, name + '.bo')
    r = run('--bo', m[1], '-o', bo, path)
    ref = a85_words(m[3]).ljust(int(m[2]), b'\0')
    got = open(bo, 'rb').read() if r.returncode == 0 else b''
    check(f'{name}: --bo {m[1]} equals python a85decode', got == ref, f'{len(got)} vs {len(ref)}')


def elf_sections(buf):
    """{name: (entsize, bytes)} of an ELF64, read with struct alone (the
    cuda-gdb lane's reader, scripts/cuda-gdb-check.py)."""
    return {n: (sec.entsize, sec.data) for n, sec in CUDA_GDB_CHECK.elf_sections(buf).items()}


def cuda_gdb_row(elf):
    """@elf with the device row drivers write since issue 38 (what
    --extract-elf does to an older driver's ELF): smType "rv32imf" becomes
    "sm_75" in its own bytes, numRegsPerLane 255, smMajor 7, smMinor 5."""
    buf = bytearray(elf)
    shoff, = struct.unpack_from('<Q', buf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', buf, 0x3a)
    hdrs = [struct.unpack_from('<IIQQQQIIQQ', buf, shoff + i * shentsize) for i in range(shnum)]
    stroff = hdrs[shstrndx][4]
    dev = next(h[4] for h in hdrs[1:] if buf[stroff + h[0]:].startswith(b'.cudbg.devtbl\0'))
    sm, = struct.unpack_from('<Q', buf, dev + 16)
    if buf[stroff + sm:stroff + sm + 8] == b'rv32imf\0':
        buf[stroff + sm:stroff + sm + 8] = b'sm_75\0\0\0'
        struct.pack_into('<I', buf, dev + 48, 255)
        struct.pack_into('<II', buf, dev + 56, 7, 5)
    return bytes(buf)


def r400_rows(r550, r400):
    """{table: (rows, each r400 row the start of its r550 row)}"""
    new, old = elf_sections(r550), elf_sections(r400)
    out = {}
    for name, (es, data) in new.items():
        if not re.match(r'\.cudbg\.(grid|cta|wp)tbl', name) or name not in old:
            continue
        es4, data4 = old[name]
        n = len(data) // es
        out[name] = (n, len(data4) == n * es4 and all(
            data4[i * es4:(i + 1) * es4] == data[i * es:i * es + es4] for i in range(n)))
    return out


def malformed(tmp, name, edit, _line, field):
    """A copy of the assert dump changed by @edit must fail at @line, @field."""
    lines = open(os.path.join(DATA, 'fault_assert.devcd')).read().split('\n')
    lines, want_line = edit(lines)
    path = os.path.join(tmp, 'bad.devcd')
    open(path, 'w').write('\n'.join(lines))
    r = run('--check', path)
    want = f'{path}:{want_line}: {field}'
    check(f'malformed: {name} reported at line {want_line}',
          r.returncode != 0 and r.stderr.startswith(want), r.stderr.strip())


def idx(lines, pred):
    return next(i for i, line in enumerate(lines) if pred(line))


def truncated(lines):
    start = idx(lines, lambda s: s == 'cuda-coredump:') + 5
    i, at = next((k, 4 + m.start()) for k in range(start, len(lines))
                 for m in re.finditer(r'z|[!-u]{5}', lines[k][4:]) if m[0] != 'z')
    lines[i] = lines[i][:at + 2]	# 2 of a 5-character group, then the end
    return lines[:i + 1], i + 1


def bad_char(lines):
    i = idx(lines, lambda s: s.startswith('      J,iCG'))
    lines[i] = lines[i][:8] + '~' + lines[i][9:]
    return lines, i + 1


def missing(lines):
    i = idx(lines, lambda s: s.startswith('job: '))
    lines = lines[:i] + lines[i + 1:]
    return lines, len(lines) - 1	# the text ends with a newline


def size_mismatch(lines):
    i = idx(lines, lambda s: s == 'cuda-coredump:') + 1
    lines[i] = '  size: 4'
    return lines, i + 1


def a85_block(data, indent):
    """@data as the driver writes a block: a group per little-endian word."""
    data += b'\0' * (-len(data) % 4)
    groups = [base64.a85encode(data[i:i + 4][::-1]).decode() for i in range(0, len(data), 4)]
    return '\n'.join(' ' * indent + ''.join(groups[i:i + 16]) for i in range(0, len(groups), 16))


def compress_elf(lines, mangle=bytes, encoding='zlib'):
    """The assert dump with its ELF zlib-compressed, as COMPRESS_ELF makes
    it; @mangle may change the stream first."""
    text = '\n'.join(lines)
    size, block = section(text, 'cuda-coredump:', 2)
    elf = a85_words(block)[:size]
    stream = mangle(zlib.compress(elf))
    i = idx(lines, lambda s: s == 'cuda-coredump:')
    j = i + 3
    while j < len(lines) and lines[j].startswith('    '):
        j += 1
    sec = ['cuda-coredump:', f'  size: {size}', f'  encoding: {encoding}',
           f'  stored-size: {len(stream)}', '  data: !!ascii85 |', a85_block(stream, 4)]
    return lines[:i] + sec + lines[j:], elf, i


def compressed(tmp):
    """A zlib ELF comes out inflated, byte for byte; a bad one is refused."""
    lines = open(os.path.join(DATA, 'fault_assert.devcd')).read().split('\n')
    new, elf, _ = compress_elf(lines)
    path, out = os.path.join(tmp, 'z.devcd'), os.path.join(tmp, 'z.elf')
    open(path, 'w').write('\n'.join(new))
    r = run('--extract-elf', out, path)
    got = open(out, 'rb').read() if r.returncode == 0 else b''
    check('compressed: --extract-elf inflates to the ELF', got == cuda_gdb_row(elf), r.stderr)


def extended_numbering(tmp):
    """An ELF whose section count and string table index are in section 0
    (ELF's extended numbering, which the driver writes past 0xff00
    sections: a 4,8,32,32 card's ELF has 66640) is read as any other: its
    sections found, its r400 rewrite keeping section 0 as it is."""
    lines = open(os.path.join(DATA, 'fault_illegal_v3.devcd')).read().split('\n')
    text = '\n'.join(lines)
    size, block = section(text, 'cuda-coredump:', 2)
    elf = bytearray(a85_words(block)[:size])
    shoff, = struct.unpack_from('<Q', elf, 0x28)
    shnum, shstrndx = struct.unpack_from('<HH', elf, 0x3c)
    struct.pack_into('<HH', elf, 0x3c, 0, 0xffff)
    struct.pack_into('<Q', elf, shoff + 32, shnum)         # section 0's sh_size
    struct.pack_into('<I', elf, shoff + 40, shstrndx)      # and sh_link
    i = idx(lines, lambda s: s == 'cuda-coredump:')
    j = i + 3
    while j < len(lines) and lines[j].startswith('    '):
        j += 1
    path = os.path.join(tmp, 'xnum.devcd')
    open(path, 'w').write('\n'.join(lines[:i + 2] + ['  data: !!ascii85 |', a85_block(bytes(elf), 4)]
                                    + lines[j:]))
    r = run(path)
    check('extended numbering: the summary finds the grid and the device',
          'grid:    32 x 1 x 1 blocks' in r.stdout and 'CUDA ELF: sm_75, 2 SMs' in r.stdout,
          r.stdout + r.stderr)
    out = os.path.join(tmp, 'xnum.r400.elf')
    r = run('--extract-elf', out, '--cuda-layout', 'r400', path)
    got = open(out, 'rb').read() if r.returncode == 0 else b''
    secs = elf_sections(got) if got else {}
    check('extended numbering: the r400 rewrite keeps it and every section',
          got and struct.unpack_from('<HH', got, 0x3c) == (0, 0xffff) and
          len(secs) == shnum - 1 and secs['.cudbg.wptbl.dev0.sm0.cta0'][0] == 32, r.stderr)


def corrupt_stream(lines):
    def flip(stream):
        return stream[:len(stream) // 2] + bytes([stream[len(stream) // 2] ^ 0xff]) + \
            stream[len(stream) // 2 + 1:]
    new, _, i = compress_elf(lines, flip)
    return new, i + 5


def unknown_encoding(lines):
    new, _, i = compress_elf(lines, encoding='lz4')
    return new, i + 3


def gdb_core(tmp):
    """The lane's backtrace, and its f registers and fcsr, through gdb."""
    kernel = os.path.join(KDIR, 'fault_assert.elf')
    core = os.path.join(tmp, 'assert.core')
    # Lane 0 given f0 = 1.0, f1 = pi and fcsr = 0x21, so zeros cannot pass.
    text = open(os.path.join(DATA, 'fault_assert.devcd')).read()
    text = text.replace('      - lane: 0\n', '@lane0\n', 1)
    head, tail = text.split('@lane0\n')
    tail = re.sub(r'f: \[0x0, 0x0, ', 'f: [0x3f800000, 0x40490fdb, ', tail, count=1)
    tail = re.sub(r'fcsr: 0x0\n', 'fcsr: 0x21\n', tail, count=1)
    path = os.path.join(tmp, 'fp.devcd')
    open(path, 'w').write(head + '      - lane: 0\n' + tail)
    r = run('--gdb-core', '0', '-o', core, path)
    if not shutil.which('gdb-multiarch'):
        results.append(('gdb-multiarch: backtrace from --gdb-core', None, 'no gdb-multiarch'))
        return
    g = subprocess.run(['gdb-multiarch', '-nx', '-batch', '-ex', 'bt',
                        '-ex', 'info registers ft0 ft1 fcsr', kernel, core],
                       capture_output=True, text=True, timeout=120)
    check('gdb-multiarch: backtrace from --gdb-core', r.returncode == 0 and
          re.search(r'#1 .*vx_kernel_main .* at userspace/kernels/fault_assert.c:11', g.stdout)
          and 'warning' not in g.stdout + g.stderr, g.stdout + g.stderr)
    check('gdb-multiarch: f registers and fcsr from --gdb-core',
          re.search(r'ft0 +1\s+\(raw 0x3f800000\)', g.stdout) and
          re.search(r'ft1 +3\.14159\d*\s+\(raw 0x40490fdb\)', g.stdout) and
          re.search(r'fcsr +0x21\b', g.stdout), g.stdout + g.stderr)


def printable(text):
    return all(c == '\n' or ' ' <= c <= '~' for c in text)


def misuse(tmp):
    """What a person gets wrong: the wrong file, a cut dump, a bad option."""
    elf = os.path.join(KDIR, 'vecadd.elf')
    r = run(elf)
    check('not a dump: an ELF is named as one, in printable text',
          r.returncode == 1 and 'an ELF file, not a Vortex crash dump' in r.stderr and
          printable(r.stderr), repr(r.stderr))
    junk = os.path.join(tmp, 'junk.bin')
    open(junk, 'wb').write(bytes(range(256)) * 4)
    r = subprocess.run([TOOL, junk], capture_output=True)
    err = r.stderr.decode('latin1')
    check('not a dump: binary data is named as such, no raw bytes echoed',
          r.returncode == 1 and 'binary data, not a Vortex crash dump' in err and
          printable(err), repr(err))
    text = open(os.path.join(DATA, 'hang.devcd')).read()
    cut = os.path.join(tmp, 'cut.devcd')
    open(cut, 'w').write(text[:3000])
    last = text[:3000].count('\n') + 1
    r = run('--check', cut)
    check('a dump cut mid-line is reported truncated, at its last line',
          r.returncode == 1 and r.stderr.startswith(f'{cut}:{last}: ') and
          'the dump is truncated' in r.stderr, r.stderr)
    core = os.path.join(tmp, 'xy.core')
    dump = os.path.join(DATA, 'hang.devcd')
    r = run('--gdb-core', 'x.y', '-o', core, dump)
    check('--gdb-core x.y is refused, nothing written',
          r.returncode == 1 and '--gdb-core wants [WARP.]LANE' in r.stderr and
          not os.path.exists(core), r.stderr)
    r = run('--gdb-core', '1', dump)
    check('a missing -o is named, not the whole usage',
          r.returncode == 1 and '-o FILE' in r.stderr and 'usage:' not in r.stderr, r.stderr)
    r = run('--bo', '0x1000zz', '-o', core, dump)
    check('--bo with a bad number is refused',
          r.returncode == 1 and '--bo wants an IOVA' in r.stderr, r.stderr)


def core_signals(buf):
    """pr_cursig of each NT_PRSTATUS note of an ELF32 core, read with struct alone."""
    phoff, = struct.unpack_from('<I', buf, 0x1c)
    phentsize, phnum = struct.unpack_from('<HH', buf, 0x2a)
    sigs = []
    for i in range(phnum):
        ptype, off, _, _, filesz = struct.unpack_from('<IIIII', buf, phoff + i * phentsize)
        if ptype != 4:          # PT_NOTE
            continue
        at = off
        while at + 12 <= off + filesz:
            namesz, descsz, ntype = struct.unpack_from('<III', buf, at)
            desc = at + 12 + ((namesz + 3) & ~3)
            if ntype == 1:      # NT_PRSTATUS: elf_siginfo (12 bytes), then pr_cursig
                sigs.append(struct.unpack_from('<h', buf, desc + 12)[0])
            at = desc + ((descsz + 3) & ~3)
    return sigs


def core_signal_per_cause(tmp):
    """--gdb-core's signal is the one the gdb stub reports for the same stop
    (docs/debugging.md's table; gdb's numbers, include/gdb/signals.def):
    page faults and misaligned fetches are SIGSEGV, not SIGILL; a hang is
    SIGALRM, an assert SIGABRT."""
    text = open(os.path.join(DATA, 'fault_illegal.devcd')).read()
    cases = [('hang', None, 14), ('fault_assert', None, 6), ('fault_illegal', None, 4)]
    cases += [('fault_illegal', (c, w), 11) for c, w in
              [(13, 'jump to a misaligned target'), (14, 'page fault on fetch'),
               (15, 'page fault on load'), (16, 'page fault on store')]]
    cases += [('fault_illegal', (2, 'misaligned load'), 10)]
    cases += [('fault_illegal', (17, 'divergent branch'), 4)]
    for name, cause, want in cases:
        path = os.path.join(DATA, name + '.devcd')
        label = name
        if cause:
            path = os.path.join(tmp, f'cause{cause[0]}.devcd')
            open(path, 'w').write(text.replace('  - cause: 1 (illegal instruction)',
                                               f'  - cause: {cause[0]} ({cause[1]})', 1))
            label = f'cause {cause[0]} ({cause[1]})'
        core = os.path.join(tmp, 'sig.core')
        r = run('--gdb-core', '0', '-o', core, path)
        sigs = core_signals(open(core, 'rb').read()) if r.returncode == 0 else []
        check(f'--gdb-core of {label}: signal {want}', sigs and all(s == want for s in sigs),
              f'{sigs} {r.stderr}')


def cuda_exception_per_cause(tmp):
    """The summary names the CUDA exception cuda-gdb shows for the ELF's
    faulting lane, from hw/vortex_causes.h's one table (CUDBGException_t,
    cudadebugger.h; cuda-gdb's CUDA_EXCEPTION_n names): a page fault is
    Lane Illegal Address, as the debugger's exception events say."""
    text = open(os.path.join(DATA, 'fault_illegal.devcd')).read()
    cases = [(1, 'illegal instruction', 4, 'Warp Illegal Instruction'),
             (4, 'load outside device memory', 1, 'Lane Illegal Address'),
             (10, 'divergence stack', 9, 'Warp Hardware Stack Overflow'),
             (12, 'impossible barrier', 4, 'Warp Illegal Instruction'),
             (15, 'page fault on load', 1, 'Lane Illegal Address'),
             (16, 'page fault on store', 1, 'Lane Illegal Address'),
             (3, 'misaligned store', 11, 'Lane Misaligned Address'),
             (14, 'page fault on fetch', 8, 'Warp Invalid PC'),
             (17, 'divergent branch', 4, 'Warp Illegal Instruction')]
    for cause, words, exc, name in cases:
        path = os.path.join(tmp, f'cuda{cause}.devcd')
        open(path, 'w').write(text.replace('  - cause: 1 (illegal instruction)',
                                           f'  - cause: {cause} ({words})', 1))
        r = run(path)
        want = f'cuda:    CUDA_EXCEPTION_{exc}, {name}'
        check(f'summary of cause {cause}: {want}', r.returncode == 0 and want in r.stdout,
              r.stdout + r.stderr)


def divergent_branch(tmp):
    """A branch whose lanes disagree outside split/join (cause 17): the
    summary names it and says which lanes take it, to where, and which do
    not, from fault-info's lanes-taken and lanes-not-taken (the driver's
    lane lists); --json gives the cause's name and both lists."""
    text = open(os.path.join(DATA, 'fault_illegal.devcd')).read()
    text = text.replace('  - cause: 1 (illegal instruction)', '  - cause: 17 (divergent branch)', 1)
    text = text.replace('    address: 0x00000000\n', '    address: 0x800000cc\n'
                        '    lanes-taken: 0-2,5\n    lanes-not-taken: 3-4,6-7\n', 1)
    path = os.path.join(tmp, 'branch.devcd')
    open(path, 'w').write(text)
    r = run(path)
    for want in ['fault:   cause 17 (divergent branch) in warp',
                 'cuda:    CUDA_EXCEPTION_4, Warp Illegal Instruction',
                 'branch:  lanes 0-2,5 take it to 0x800000cc, lanes 3-4,6-7 do not']:
        check(f'summary of a divergent branch: {want}', r.returncode == 0 and want in r.stdout,
              r.stdout + r.stderr)
    r = run('--json', path)
    try:
        f = json.loads(r.stdout).get('fault') or {}
    except ValueError:
        f = {}
    check('--json of a divergent branch: its name and both sides',
          (f.get('cause'), f.get('cause_name'), f.get('cuda_exception'), f.get('branch')) ==
          (17, 'DIVERGENT_BRANCH', 4, {'lanes_taken': '0-2,5', 'lanes_not_taken': '3-4,6-7'}),
          r.stdout[:400] + r.stderr)
    errs = schema_errors(json.loads(r.stdout), json.load(open(SCHEMA))) if f else ['no JSON']
    check('--json of a divergent branch matches the schema', not errs, '\n'.join(errs[:10]))


def fault_buffer(tmp):
    """The summary marks the buffer of the fault address as Mesa's crashdec
    does: the buffer holding it, else the one ending nearest below it.  A
    store one word past the last word of bo2 (0x10000 bytes at 0x80015000)
    overruns it; an address inside bo1 is in bo1; below every buffer,
    nothing is named.  A label (BO_SET_LABEL) is shown with it."""
    text = open(os.path.join(DATA, 'fault_illegal.devcd')).read()
    text = text.replace('  - cause: 1 (illegal instruction)', '  - cause: 16 (page fault on store)', 1)
    text = text.replace('    name: bo2\n', '    name: bo2\n    label: "out"\n', 1)
    cases = [(0x80025000, 'buffer:  0x80025000 overruns bo2 at +0x10000 '
                          '(0x10000 bytes at 0x80015000, label "out")'),
             (0x80005010, 'buffer:  0x80005010 is in bo1 at +0x10 (0x10000 bytes at 0x80005000)'),
             (0x1000, None)]
    for addr, want in cases:
        path = os.path.join(tmp, f'fb{addr:x}.devcd')
        open(path, 'w').write(text.replace('    address: 0x00000000', f'    address: 0x{addr:08x}', 1))
        r = run(path)
        if want:
            check(f'fault at 0x{addr:x}: {want}', r.returncode == 0 and want in r.stdout,
                  r.stdout + r.stderr)
        else:
            check(f'fault at 0x{addr:x}: no buffer named',
                  r.returncode == 0 and 'buffer:  ' not in r.stdout, r.stdout + r.stderr)


def header_fields(tmp):
    """The summary names the pid, the card-wide job number and the dump's
    format version (driver/vortex_dump_state.h VORTEX_DUMP_VERSION); a
    dump from before dump-version is format 1."""
    path = os.path.join(DATA, 'fault_illegal.devcd')
    r = run(path)
    want = 'process: pid ?, card job ?, dump format 1'
    check(f'a version 1 dump: {want}', r.returncode == 0 and want in r.stdout, r.stdout + r.stderr)
    text = open(path).read().replace('job: 1\n', 'job: 1\ncard-job: 17\npid: 42\n', 1)
    text = text.replace('\ntime: ', '\ndump-version: 2\ntime: ', 1)
    path = os.path.join(tmp, 'v2.devcd')
    open(path, 'w').write(text)
    r = run(path)
    want = 'process: pid 42, card job 17, dump format 2'
    check(f'a version 2 dump: {want}', r.returncode == 0 and want in r.stdout, r.stdout + r.stderr)


SCHEMA = os.path.join(TOP, 'userspace', 'coredump', 'vortex-coredump-report.schema.json')
JSON_TYPES = {'object': dict, 'array': list, 'string': str, 'boolean': bool, 'null': type(None)}


def schema_errors(value, schema, path='$'):
    """The ways @value breaks @schema: the JSON Schema keywords the report's
    schema uses (type, const, enum, properties, required,
    additionalProperties, items, minItems, maxItems, minimum, oneOf),
    checked as draft 2020-12 defines them."""
    errs = []

    def is_type(v, t):
        if t == 'integer':
            return isinstance(v, int) and not isinstance(v, bool)
        if t == 'number':
            return isinstance(v, (int, float)) and not isinstance(v, bool)
        return isinstance(v, JSON_TYPES[t]) and not (t != 'boolean' and isinstance(v, bool))

    if 'type' in schema:
        types = schema['type'] if isinstance(schema['type'], list) else [schema['type']]
        if not any(is_type(value, t) for t in types):
            return [f'{path}: {value!r} is not {types}']
    if 'const' in schema and value != schema['const']:
        errs.append(f'{path}: {value!r} is not {schema["const"]!r}')
    if 'enum' in schema and value not in schema['enum']:
        errs.append(f'{path}: {value!r} not in {schema["enum"]}')
    if 'oneOf' in schema:
        ok = [s for s in schema['oneOf'] if not schema_errors(value, s, path)]
        if len(ok) != 1:
            errs.append(f'{path}: {len(ok)} of oneOf match {value!r:.80}')
    if 'minimum' in schema and is_type(value, 'number') and value < schema['minimum']:
        errs.append(f'{path}: {value} < {schema["minimum"]}')
    if isinstance(value, dict):
        for k in schema.get('required', []):
            if k not in value:
                errs.append(f'{path}: no {k}')
        props = schema.get('properties', {})
        for k, v in value.items():
            if k in props:
                errs += schema_errors(v, props[k], f'{path}.{k}')
            elif schema.get('additionalProperties') is False:
                errs.append(f'{path}: unexpected {k}')
    if isinstance(value, list):
        if len(value) < schema.get('minItems', 0):
            errs.append(f'{path}: fewer than {schema["minItems"]} items')
        if 'maxItems' in schema and len(value) > schema['maxItems']:
            errs.append(f'{path}: more than {schema["maxItems"]} items')
        for i, v in enumerate(value):
            errs += schema_errors(v, schema.get('items', {}), f'{path}[{i}]')
    return errs


def json_report(tmp):
    """--json prints one JSON object that the repository's schema
    (vortex-coredump-report.schema.json) accepts, for every fixture, with
    the dump's values: pid, card job, vm-log, the fault and its buffer.
    The schema check is this file's own validator, and python's jsonschema
    too where it is installed; a report with a field removed or mistyped
    must fail it."""
    schema = json.load(open(SCHEMA))
    try:
        import jsonschema
    except ImportError:
        jsonschema = None
    text = open(os.path.join(DATA, 'fault_illegal.devcd')).read()
    text = text.replace('  - cause: 1 (illegal instruction)', '  - cause: 16 (page fault on store)', 1)
    text = text.replace('    address: 0x00000000', '    address: 0x80025000', 1)
    text = text.replace('    name: bo2\n', '    name: bo2\n    label: "in \\"x\\""\n', 1)
    text = text.replace('\nringbuffer:', '\npgtable-fault-info:\n  - satp: 0x80400123\n    asid: 1\n'
                        '    root: 0x00123000\n    va: 0x80025000\n    ptes: 00048c01 00000000\n'
                        'vm-log:\n  - map:0: 0x0000000080025000-0x0000000080026000\n'
                        '  - unmap:3: 0x0000000080025000-0x0000000080026000\nringbuffer:', 1)
    crafted = os.path.join(tmp, 'pf.devcd')
    open(crafted, 'w').write(text)
    paths = [os.path.join(DATA, n + '.devcd') for n in DUMPS + ['fault_illegal_v2']] + [crafted]
    reports = {}
    for path in paths:
        name = os.path.basename(path)
        r = run('--json', path)
        try:
            rep = json.loads(r.stdout)
        except ValueError as e:
            check(f'--json of {name} is JSON', False, f'{e}: {r.stdout[:300]} {r.stderr}')
            continue
        errs = schema_errors(rep, schema)
        check(f'--json of {name} matches the schema', r.returncode == 0 and not errs,
              '\n'.join(errs[:10]))
        if jsonschema:
            try:
                jsonschema.validate(rep, schema)
                ok, why = True, ''
            except jsonschema.ValidationError as e:
                ok, why = False, str(e)[:500]
            check(f'--json of {name}: jsonschema agrees', ok, why)
        reports[name] = rep
    v2 = reports.get('fault_illegal_v2.devcd', {})
    check('--json v2: pid, card job, dump version',
          (v2.get('pid'), v2.get('card_job'), v2.get('dump_version'), v2.get('job')) == (165, 2, 2, 1),
          json.dumps(v2)[:300])
    check('--json v2: vm-log as the text has it',
          (v2.get('vm_log') or [None])[0] == {'op': 'map', 'job': 0, 'start': 0x8fff0000, 'end': 0x8fff1000},
          json.dumps(v2.get('vm_log'))[:300])
    old = reports.get('hang.devcd', {})
    check('--json of a version 1 dump: dump_version 1, pid and card_job null',
          (old.get('dump_version'), old.get('pid'), old.get('card_job'), old.get('error'))
          == (1, None, None, 'timeout'), json.dumps(old)[:300])
    pf = reports.get('pf.devcd', {})
    f = pf.get('fault') or {}
    check('--json of a store page fault: cause, CUDA exception, walk, overrun buffer',
          (f.get('cause'), f.get('cause_name'), f.get('cuda_exception'), f.get('address'),
           f.get('ptes'), f.get('buffer')) ==
          (16, 'STORE_PAGE_FAULT', 1, 0x80025000, [0x48c01, 0],
           {'index': 2, 'offset': 0x10000, 'overrun': True}), json.dumps(f))
    check('--json: a label unescaped, the vm-log unmap after the map',
          pf.get('buffers', [{}] * 3)[2].get('label') == 'in "x"' and
          [e['op'] for e in pf.get('vm_log', [])] == ['map', 'unmap'] and
          pf['vm_log'][1]['job'] == 3, json.dumps(pf.get('buffers'))[:400])
    if not v2:
        return
    # The validator is not vacuous: each of these breaks the schema.
    for what, mutate in [('pid a string', lambda r: r.update(pid='167')),
                         ('no warps', lambda r: r.pop('warps', None)),
                         ('an unknown field', lambda r: r.update(extra=1)),
                         ('a vm-log op', lambda r: r.setdefault('vm_log', []).append(
                             {'op': 'remap', 'job': 0, 'start': 0, 'end': 1}))]:
        bad = json.loads(json.dumps(v2))
        mutate(bad)
        check(f'the schema refuses a report with {what}', bool(schema_errors(bad, schema)))


def zero_tails(tmp):
    """A version 2 dump's ELF keeps each buffer's zero tail in a
    .cudbg.global.N.tail section, the tails sharing one run of zeros in
    the file: every buffer's captured bytes are covered (the text's block,
    zero padded to the buffer's size), and the r400 rewrite gives each
    section its own bytes, equal to the r550's."""
    path = os.path.join(DATA, 'fault_illegal_v2.devcd')
    text = open(path).read()
    elf, r400 = os.path.join(tmp, 'v2.elf'), os.path.join(tmp, 'v2r400.elf')
    r = run('--extract-elf', elf, path)
    secs = elf_sections(open(elf, 'rb').read()) if r.returncode == 0 else {}
    r = run('--extract-elf', r400, '--cuda-layout', 'r400', path)
    check('--cuda-layout r400 of a dump with zero tails', r.returncode == 0, r.stderr)
    old = elf_sections(open(r400, 'rb').read()) if r.returncode == 0 else {}
    check('r400 keeps every global section byte for byte',
          bool(secs) and all(old.get(n, (0, None))[1] == d for n, (_, d) in secs.items()
                             if n.startswith('.cudbg.global')), sorted(old)[:5])
    for m in re.finditer(r'  - iova: (0x[0-9a-f]+)\n    size: (\d+)\n(?:    (?!data).*\n)*'
                         r'(?:    data: !!ascii85 \|\n((?:      .*\n)+))?', text):
        iova, size = int(m[1], 16), int(m[2])
        want = a85_words(m[3] or '').ljust(size, b'\0')
        got = bytearray(size)
        seen = 0
        hdrs = elf_headers(open(elf, 'rb').read()) if secs else []
        for name, addr, data in hdrs:
            if name.startswith('.cudbg.global') and iova <= addr < iova + size:
                got[addr - iova:addr - iova + len(data)] = data
                seen += len(data)
        check(f'ELF global sections cover bo at 0x{iova:x}: {size} bytes',
              seen == size and bytes(got) == want, f'{seen} of {size}')


def elf_headers(buf):
    """[(name, sh_addr, bytes)] of an ELF64's sections, read with struct alone."""
    shoff, = struct.unpack_from('<Q', buf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', buf, 0x3a)
    hdrs = [struct.unpack_from('<IIQQQQIIQQ', buf, shoff + i * shentsize) for i in range(shnum)]
    stroff = hdrs[shstrndx][4]
    return [(buf[stroff + h[0]:buf.index(b'\0', stroff + h[0])].decode(), h[3], buf[h[4]:h[4] + h[5]])
            for h in hdrs[1:]]


def parses_version_2(tmp):
    """A version 2 dump (userspace/tests/data/fault_illegal_v2.devcd, taken
    from the guest with capture-dumps.sh) parses: vm-log's "op:job: range"
    entries are msm's, and its keys hold a ':'."""
    path = os.path.join(DATA, 'fault_illegal_v2.devcd')
    r = run('--check', path)
    check('a version 2 dump with a vm-log checks clean', r.returncode == 0 and not r.stderr,
          r.stderr)


def summary_fixes(tmp):
    """The summary's warp groups give every thread mask among them (with
    how many warps have it when they differ), each warp as cuda-gdb names
    it too ("sm C warp W": C the ELF's SM, cluster * cores + core, from the
    device table's warps per SM), mark a list they cut ("... and N more"),
    and the time as UTC beside the raw epoch."""
    import datetime
    path = os.path.join(DATA, 'hang.devcd')
    text = open(path).read()
    r = run(path)
    epoch = re.search(r'^time: (\d+)\.(\d+)$', text, re.M)
    utc = datetime.datetime.fromtimestamp(int(epoch[1]), datetime.timezone.utc)
    want = f'at {utc:%Y-%m-%d %H:%M:%S} UTC ({epoch[1]}.{epoch[2]})'
    check(f'summary time: {want}', want in r.stdout, r.stdout)
    want = ('(warps 1 2 3 4 5 6 7; sm 0 warp 1, sm 0 warp 2, sm 0 warp 3, sm 1 warp 0, '
            'sm 1 warp 1, sm 1 warp 2, sm 1 warp 3; thread mask 0x000000ff)')
    check('summary names warps as cuda-gdb does', want in r.stdout, r.stdout)

    # Warp 3 runs on half its lanes, warp 6 on a quarter.
    for wid, m in [(3, '0x0000000f'), (6, '0x00000003')]:
        at = text.index(f'  - id: {wid}\n')
        at = text.index('    thread-mask: 0x000000ff', at)
        text = text[:at] + f'    thread-mask: {m}' + text[at + len('    thread-mask: 0x000000ff'):]
    path = os.path.join(tmp, 'masks.devcd')
    open(path, 'w').write(text)
    r = run(path)
    want = 'thread masks 0x000000ff (5), 0x0000000f (1), 0x00000003 (1))'
    check(f'summary gives every mask of a group: {want}', want in r.stdout, r.stdout)

    # 200 warps at one PC: the lists are cut, and say so.
    head = text[:text.index('\nwarps:\n') + 1]
    nxt = re.compile(r'\n[a-z-]+:(\n| )').search(text, text.index('\nwarps:\n') + 1)
    tail = text[nxt.start():]
    warps = ''.join(f'  - id: {i}\n    cluster: 0\n    core: {i // 4}\n    warp-in-core: {i % 4}\n'
                    f'    halted: yes\n    halt-cause: 2\n    pc: 0x800000d8\n'
                    f'    thread-mask: 0x000000ff\n    block: [0, 0, 0]\n' for i in range(200))
    path = os.path.join(tmp, 'many.devcd')
    open(path, 'w').write(head + 'warps:\n' + warps + tail.lstrip('\n'))
    r = run(path)
    line = [l for l in r.stdout.split('\n') if ' at 0x800000d8' in l]
    check('a cut warp list says how many it left out',
          len(line) == 1 and bool(re.search(r'\(warps 0 1 2 .* \.\.\. and \d+ more; sm 0 warp 0, .*'
                                            r' \.\.\. and \d+ more; thread mask 0x000000ff\)',
                                            line[0])),
          r.stdout + r.stderr)
    if line:
        shown = re.search(r'\(warps ([\d ]+) \.\.\. and (\d+) more;', line[0])
        check('the cut list and its count add up to 200',
              bool(shown) and len(shown[1].split()) + int(shown[2]) == 200, line[0])


def lane_regs(text, warp, lane):
    """x0-x31 and f0-f31 of @lane of @warp in a dump's text."""
    at = text.index(f'  - id: {warp}\n', text.index('\nwarps:\n'))
    at = text.index(f'      - lane: {lane}\n', at)
    x = re.search(r'x: \[([^\]]*)\]', text[at:])[1]
    f = re.search(r'f: \[([^\]]*)\]', text[at:])[1]
    return [int(v, 0) for v in x.split(', ')] + [int(v, 0) for v in f.split(', ')]


def wide_card(tmp):
    """A card past cuda-gdb's limits (userspace/tests/data/hang_64lanes.devcd:
    a hang on a 1,1,2,64 card, captured as capture-dumps.sh says): its ELF
    is CUDA-sized, 32 lanes per warp, each 64-lane warp two virtual warps
    (docs/driver.md, .note.vortex.split); every lane row holds the lane's
    own registers, lanes 32-63 included; the summary names the warps as
    cuda-gdb does ("sm 0 warps 0-1"); --gdb-core gives lane 40 its own
    registers.  cuda-gdb stops at more than 32 lanes per warp or 64 warps
    per SM ("internal-error: ... m_num_lanes <= CUDBG_MAX_LANES")."""
    path = os.path.join(DATA, 'hang_64lanes.devcd')
    text = open(path).read()
    r = run(path)
    check('64-lane card: the summary names warps as cuda-gdb does',
          '(warp 0; sm 0 warps 0-1;' in r.stdout and '(warp 1; sm 0 warps 2-3;' in r.stdout,
          r.stdout)
    elf = os.path.join(tmp, 'wide.elf')
    r = run('--extract-elf', elf, path)
    secs = elf_sections(open(elf, 'rb').read()) if r.returncode == 0 else {}
    dev = secs.get('.cudbg.devtbl', (0, b''))[1]
    note = secs.get('.note.vortex.split', (0, b''))[1]
    check('64-lane card: the device table is CUDA-sized (1 SM, 4 warps of 32 lanes)',
          len(dev) >= 48 and struct.unpack_from('<III', dev, 36) == (1, 4, 32), dev[36:48])
    check('64-lane card: .note.vortex.split says 2 parts of 32 lanes, 4 per SM, 1 SM per core',
          len(note) == 44 and note[12:19] == b'Vortex\0' and
          struct.unpack_from('<6I', note, 20) == (2, 32, 4, 1, 2, 64), note)
    parts, _, per_sm, spc, warps, _ = struct.unpack_from('<6I', note, 20) if len(note) == 44 \
        else (1, 0, 1, 1, 1, 0)
    rows, bad = 0, []
    for name, (_, regs) in secs.items():
        m = re.match(r'\.cudbg\.regs\.dev0\.sm(\d+)\.cta(\d+)\.wp(\d+)\.ln(\d+)$', name)
        if not m:
            continue
        sm, cta, wp, n = map(int, m.groups())
        lnrow = secs[f'.cudbg.lntbl.dev0.sm{sm}.cta{cta}.wp{wp}'][1][48 * n:48 * n + 48]
        wprow = secs[f'.cudbg.wptbl.dev0.sm{sm}.cta{cta}'][1][40 * wp:40 * wp + 40]
        ln, = struct.unpack_from('<I', lnrow, 16)
        v, = struct.unpack_from('<I', wprow, 8)
        v += sm % spc * per_sm      # the core's virtual warp
        warp, lane = sm // spc * warps + v // parts, v % parts * 32 + ln
        if list(struct.unpack('<64I', regs)) != lane_regs(text, warp, lane):
            bad.append((warp, lane))
        rows += 1
    listed = len(re.findall(r'^      - lane: ', text, re.M))
    check(f'64-lane card: every lane row ({rows}) holds its lane\'s registers, lanes 32-63 too',
          rows == listed and rows > 64 and not bad, f'{rows} rows, {listed} lanes, bad {bad[:5]}')
    core = os.path.join(tmp, 'wide.core')
    r = run('--gdb-core', '1.40', '-o', core, path)
    buf = open(core, 'rb').read() if r.returncode == 0 else b''
    at = buf.find(b'CORE\0')
    want = lane_regs(text, 1, 40)
    # NT_PRSTATUS's desc after "CORE\0" padded to 8: pr_reg at 72, pc then x1-x31
    got = list(struct.unpack_from('<32I', buf, at + 8 + 72)) if at >= 0 else []
    check('64-lane card: --gdb-core 1.40 has lane 40\'s x1-x31',
          got[1:] == want[1:32], f'{r.stderr} {got[:4]} vs {want[:4]}')


def registers_and_device(tmp):
    """--registers prints every lane the text lists, with the text's x, f
    and fcsr; the summary names the card's ISA beside the CUDA ELF's
    smType, and says what --extract-elf does to an older driver's."""
    for name in ('fault_illegal_v2', 'hang_64lanes'):
        path = os.path.join(DATA, name + '.devcd')
        text = open(path).read()
        r = run('--registers', path)
        lines = [line.split() for line in r.stdout.splitlines()]
        bad = [line[:2] for line in lines if len(line) != 68 or
               [int(v, 0) for v in line[3:67]] != lane_regs(text, int(line[0]), int(line[1]))]
        check(f'{name}: --registers has every listed lane\'s registers, as the text has them',
              r.returncode == 0 and len(lines) == text.count('      - lane: ') and not bad,
              f'{r.stderr} {len(lines)} lines, bad {bad[:4]}')
    r = run(os.path.join(DATA, 'hang_64lanes.devcd'))
    check('summary: the ISA and the CUDA ELF\'s device, an older smType named',
          'device:  rv32imf; CUDA ELF: rv32imf, 1 SMs x 4 warps x 32 lanes (--extract-elf '
          'writes sm_75 for cuda-gdb)' in r.stdout, r.stdout)
    # A dump of a driver that writes sm_75 (issue 38): its ELF comes out
    # byte for byte, and the ISA is the note's.
    path = os.path.join(DATA, 'fault_illegal_v3.devcd')
    text = open(path).read()
    elf = os.path.join(tmp, 'v3.elf')
    r = run('--extract-elf', elf, path)
    size, block = section(text, 'cuda-coredump:', 2)
    ref = a85_words(block)[:size]
    got = open(elf, 'rb').read() if r.returncode == 0 else b''
    secs = elf_sections(ref)
    dev = secs.get('.cudbg.devtbl', (0, b''))[1]
    check('v3: the driver\'s device row (sm_75 7.5, 255 registers), written byte for byte',
          got == ref and cuda_gdb_row(ref) == ref and len(dev) == 80 and
          struct.unpack_from('<IIII', dev, 48) == (255, 0, 7, 5), f'{len(got)} vs {len(ref)}')
    note = secs.get('.note.vortex.isa', (0, b''))[1]
    check('v3: .note.vortex.isa holds the revision and "rv32imf"',
          note[12:19] == b'Vortex\0' and struct.unpack_from('<I', note, 8)[0] == 3 and
          note[20:32] == struct.pack('<I', 0x10000) + b'rv32imf\0', note)
    r = run(path)
    check('v3: the summary names the ISA from the note',
          'device:  rv32imf (revision 0x00010000); CUDA ELF: sm_75, 2 SMs x 4 warps x 8 lanes'
          in r.stdout, r.stdout)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        for name in DUMPS:
            test_dump(tmp, name)
        core_signal_per_cause(tmp)
        cuda_exception_per_cause(tmp)
        divergent_branch(tmp)
        fault_buffer(tmp)
        header_fields(tmp)
        parses_version_2(tmp)
        zero_tails(tmp)
        summary_fixes(tmp)
        wide_card(tmp)
        registers_and_device(tmp)
        json_report(tmp)
        malformed(tmp, 'truncated block', truncated, None, 'cuda-coredump.data')
        malformed(tmp, 'bad character', bad_char, None, 'bos[2].data')
        malformed(tmp, 'missing field', missing, None, 'job')
        malformed(tmp, 'size mismatch', size_mismatch, None, 'cuda-coredump.size')
        compressed(tmp)
        extended_numbering(tmp)
        malformed(tmp, 'corrupt zlib stream', corrupt_stream, None, 'cuda-coredump.data')
        malformed(tmp, 'unknown encoding', unknown_encoding, None, 'cuda-coredump.encoding')
        gdb_core(tmp)
        misuse(tmp)
    print('TAP version 13')
    print(f'1..{len(results)}')
    for n, (name, ok, diag) in enumerate(results, 1):
        if ok is None:
            print(f'ok {n} {name} # SKIP {diag}')
            continue
        print(f'{"ok" if ok else "not ok"} {n} {name}')
        if not ok:
            for line in str(diag).splitlines()[:10]:
                print(f'# {line}')
    return 0 if all(ok is not False for _, ok, _ in results) else 1


if __name__ == '__main__':
    sys.exit(main())
