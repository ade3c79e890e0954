#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""gdb-multiarch against vortex-gdbserver, end to end, printing TAP.

Without --connect (suite gdb_sim) the script starts vortex-gdbserver-sim
itself (vecadd.elf, 64 elements in 2 blocks of 32 threads: what
`vortex-run vecadd.elf 64` launches on the guest's default 1x2x4x8 card)
and runs three parts: a source-level gdb session, a gdb session
interrupted with Ctrl-C (SIGINT to gdb, so gdb sends 0x03) on hang.elf with
the monitor commands and kill, and raw-socket hostile clients.

With --connect HOST:PORT --elf PATH (suite gdb_guest) the gdb session and
the watchpoint session run, against a server that the guest starts for
each session, e.g. (scripts/guest/init, in a loop):
    vortex-gdbserver --listen vport:vortex.gdb --on-connect -- \
        vortex-run --timeout 86400000 /vortex/kernels/vecadd.elf 64
Every value it asserts holds for any warp stopping first: expected values
are derived from the stopped lane's own CSRs and from the inputs both
vortex-run and the simulator generate (seed 1, testlib/vx_samples.c).
"""
import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

GDB = 'gdb-multiarch'
N = 64
results = []


def check(name, ok, diag=''):
    results.append((name, bool(ok), diag))


def report():
    print('TAP version 13')
    print(f'1..{len(results)}')
    for i, (name, ok, diag) in enumerate(results, 1):
        print(f'{"ok" if ok else "not ok"} {i} {name}')
        if not ok and diag:
            for line in str(diag).splitlines()[-40:]:
                print(f'# {line}')
    return 0 if all(ok for _, ok, _ in results) else 1


def vecadd_inputs(n, seed=1):
    """a and b as testlib/vx_samples.c fills them (xorshift32, interleaved)."""
    a, b, s = [], [], seed
    for _ in range(n):
        for dst in (a, b):
            s ^= (s << 13) & 0xffffffff
            s ^= s >> 17
            s ^= (s << 5) & 0xffffffff
            dst.append(s - (1 << 32) if s & 0x80000000 else s)
    return a, b


class Server:
    """vortex-gdbserver-sim on port 0; its stderr is the log."""

    def __init__(self, path, elf, *args):
        self.p = subprocess.Popen([path, *args, elf], stderr=subprocess.PIPE, text=True)
        line = self.p.stderr.readline()
        m = re.search(r'listening on tcp ([\d.]+):(\d+)', line)
        self.addr = (m.group(1), int(m.group(2))) if m else None
        self.first = line
        self.log = ''

    def finish(self, timeout=30):
        try:
            out = self.p.communicate(timeout=timeout)[1]
        except subprocess.TimeoutExpired:
            self.p.kill()
            out = self.p.communicate()[1]
        self.log = self.first + out
        return self.p.returncode


def run_gdb(elf, host, port, script, timeout=120, sigint_after=None):
    with tempfile.NamedTemporaryFile('w', suffix='.gdb', delete=False) as f:
        f.write('set pagination off\nset confirm off\nset width 0\n' + script)
    cmd = ['timeout', '-s', 'KILL', str(timeout), GDB, '-nx', '-batch',
           '-ex', f'target remote {host}:{port}', '-x', f.name, elf]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if sigint_after:
        time.sleep(sigint_after)
        # timeout(1) runs gdb in its own foreground: signal gdb itself
        for pid in subprocess.run(['pgrep', '-P', str(p.pid)], capture_output=True,
                                  text=True).stdout.split():
            os.kill(int(pid), signal.SIGINT)
    out = p.communicate()[0]
    os.unlink(f.name)
    return out


def section(out, name):
    """Output between 'echo @@name' and the next @@ mark."""
    m = re.search(r'@@' + name + r'\n(.*?)(?=@@|\Z)', out, re.S)
    return m.group(1) if m else ''


def value(text, num):
    """The value of gdb's '$num = VALUE' line, or None."""
    m = re.search(r'^\$' + str(num) + r' = (.*)$', text, re.M)
    return m.group(1).strip() if m else None


def ints(text):
    return [int(v, 0) for v in re.findall(r'^\$\d+ = (-?(?:0x[0-9a-f]+|\d+))', text, re.M)]


# ------------------------------------------------------- source level

SOURCE_SCRIPT = r'''
echo @@start\n
p/x $pc
p/x &_start
p/x &vx_kernel_main
info threads
echo @@kmain\n
break vx_kernel_main
continue
echo @@next\n
set scheduler-locking step
delete
next
next
next
next
set scheduler-locking off
echo @@hit\n
break vecadd.c:11
continue
echo @@where\n
p/x $pc
info registers pc
p $_thread
p $core_id
p $warp_id
p $thread_id
p $num_warps
p $num_threads
p i
p $block_idx_x * $block_dim_x + $thread_idx_x
p arg->n
p arg->a[i]
p arg->b[i]
thread
echo @@threads\n
info threads
echo @@sibling\n
set $orig = $_thread
set $lane = $thread_id
eval "thread %d", $_thread + ($thread_id < $num_threads - 1 ? 1 : -1)
p $thread_id - $lane
p i
eval "thread %d", $orig
echo @@stepi\n
set $bp = $pc
stepi
p/x $pc - $bp
echo @@setpc\n
set $after = $pc
set $pc = $pc + 4
maint flush register-cache
p/x $pc - $after
info registers pc
eval "thread %d", $_thread + ($thread_id < $num_threads - 1 ? 1 : -1)
p/x $pc - $after
eval "thread %d", $orig
set $pc = $after
maint flush register-cache
p/x $pc - $after
echo @@jump\n
jump vecadd.c:11
p/x $pc - $bp
p $_thread - $orig
echo @@bt\n
bt
echo @@step\n
delete
set scheduler-locking step
next
echo @@finish\n
finish
set scheduler-locking off
echo @@end\n
continue
'''


def test_source(elf, host, port, tag):
    out = run_gdb(elf, host, port, SOURCE_SCRIPT)
    start = section(out, 'start')
    pc, s_start, s_main = value(start, 1), value(start, 2), value(start, 3)
    check(f'{tag}: initial stop at _start, relocated (qOffsets)',
          pc and pc == s_start and int(s_start, 16) != 0 and
          int(s_main, 16) > int(s_start, 16), start)
    names = re.findall(r'\(core 0 warp 0 lane (\d)\)', start)
    check(f'{tag}: info threads names core 0 warp 0 lanes 0-7',
          sorted(set(names)) == [str(i) for i in range(8)], start)
    check(f'{tag}: break vx_kernel_main stops there',
          re.search(r'hit Breakpoint 1, vx_kernel_main \(arg=0x[0-9a-f]+\)',
                    section(out, 'kmain')), section(out, 'kmain'))
    nxt = section(out, 'next')
    lines = re.findall(r'^(\d+)\t', nxt, re.M)
    check(f'{tag}: next steps from VX_IF (line 10) into the if-body (line 11), one thread',
          '10' in lines and '11' in lines and lines.index('11') > lines.index('10') and
          'Switching' not in nxt, nxt)

    hit = section(out, 'hit')
    m = re.search(r'Breakpoint 2 at (0x[0-9a-f]+): file .*vecadd\.c, line 11\.', hit)
    bp = int(m.group(1), 16) if m else None
    m = re.search(r'Thread (\d+) "[\d.]+" hit Breakpoint 2, vx_kernel_main '
                  r'\(arg=0x[0-9a-f]+\) at .*vecadd\.c:11', hit)
    check(f'{tag}: break vecadd.c:11 and continue stop there', bp and m, hit)
    tid = int(m.group(1)) if m else -1
    where = section(out, 'where')
    v = ints(where)
    check(f'{tag}: pc is the breakpoint address (p $pc, info registers pc)',
          len(v) > 0 and v[0] == bp and
          re.search(r'^pc +0x%x\b' % (bp or 0), where, re.M), where)
    ok = len(v) >= 12
    if ok:
        _, gthread, core, warp, lane, nwarps, nthreads, i, gid, n, a, b = v[:12]
    threads = section(out, 'threads')
    check(f'{tag}: the stop names a thread whose name and id match its CSRs',
          ok and tid == 1 + (core * nwarps + warp) * nthreads + lane and
          re.search(r'Thread %d "%d\.%d\.%d" hit' % (tid, core, warp, lane), hit) and
          re.search(r'^\* +\d+ +Thread %d "%d\.%d\.%d" \(core %d warp %d lane %d\)' %
                    (tid, core, warp, lane, core, warp, lane), threads, re.M),
          hit + where + threads)
    ea, eb = vecadd_inputs(N)
    check(f'{tag}: print i is the lane global id', ok and i == gid and 0 <= i < N, where)
    check(f'{tag}: print arg->n, arg->a[i], arg->b[i] are the inputs',
          ok and n == N and 0 <= i < N and a == ea[i] and b == eb[i], where)
    check(f'{tag}: info threads lists the stopped thread as current',
          ok and re.search(r'^\* +\d+ +Thread %d "' % tid, threads, re.M), threads)
    sib = section(out, 'sibling')
    sv = ints(sib)
    check(f'{tag}: thread N switches to a sibling lane whose i differs by its lane',
          ok and 'Switching to thread' in sib and len(sv) >= 2 and sv[0] in (1, -1) and
          sv[1] == i + sv[0], sib)
    stepi = section(out, 'stepi')
    check(f'{tag}: stepi moves pc by 4', value(stepi, r'\d+') == '0x4', stepi)
    setpc = section(out, 'setpc')
    sv = ints(setpc)
    check(f'{tag}: set $pc = $pc + 4 reads back from the server, in a sibling lane too, '
          'and back', sv == [4, 4, 0] and bp is not None and
          re.search(r'^pc +0x%x\b' % (bp + 8), setpc, re.M), setpc)
    jump = section(out, 'jump')
    check(f'{tag}: jump vecadd.c:11 (back to the breakpoint) hits it again, same thread',
          re.search(r'Thread %d "[\d.]+" hit Breakpoint 2, vx_kernel_main .*vecadd\.c:11' %
                    tid, jump) and ints(jump) == [0, 0], jump)
    bt = section(out, 'bt')
    check(f'{tag}: bt shows vx_kernel_main and _start',
          re.search(r'^#0 .*vx_kernel_main', bt, re.M) and
          re.search(r'^#1 .*_start \(\)', bt, re.M), bt)
    step = section(out, 'step')
    check(f'{tag}: next from the if-body goes past VX_ENDIF, same thread',
          re.search(r'^1[23]\t', step, re.M) and 'Switching' not in step, step)
    fin = section(out, 'finish')
    check(f'{tag}: finish returns to _start', re.search(r'in _start \(\)', fin), fin)
    end = section(out, 'end')
    check(f'{tag}: continue runs the job to its end: exited normally',
          'exited normally' in end, end)
    return out


# ------------------------------------------------ interrupt, monitor

INTERRUPT_SCRIPT = r'''
echo @@run\n
continue
echo @@stopped\n
p/x $pc
p/x &vx_kernel_main
info threads
echo @@mon\n
monitor help
monitor warps
monitor dm
monitor coredump
monitor halt 0 0x1
monitor frobnicate
echo @@kill\n
kill
'''


def test_interrupt(server_path, kdir):
    srv = Server(server_path, os.path.join(kdir, 'hang.elf'))
    if not srv.addr:
        check('interrupt: server listens', False, srv.first)
        return
    out = run_gdb(os.path.join(kdir, 'hang.elf'), *srv.addr, INTERRUPT_SCRIPT,
                  sigint_after=1.5)
    rc = srv.finish()
    check('interrupt: Ctrl-C stops the card with SIGINT',
          re.search(r'Thread \d+ "[\d.]+" received signal SIGINT', section(out, 'run')), out)
    st = section(out, 'stopped')
    v = ints(st)
    check('interrupt: every thread is stopped, inside vx_kernel_main',
          len(v) == 2 and v[1] <= v[0] < v[1] + 0x100 and
          'running' not in st and '(core 0 warp 0 lane 7)' in st, st)
    mon = section(out, 'mon')
    check('monitor help lists the commands',
          all(w in mon for w in ('warps', 'halt SM MASK', 'resume SM MASK', 'dm', 'coredump')),
          mon)
    check('monitor warps shows core 0 warp 0 halted with its pc',
          re.search(r'core 0: valid 0x1 halted 0x1 broken 0x0', mon) and
          re.search(r'warp 0: pc 0x[0-9a-f]{8} <vx_kernel_main\+0x[0-9a-f]+>', mon), mon)
    check('monitor dm reads the DM registers and STATUS',
          re.search(r'PLATFORM +\(0x0\) = 0x[0-9a-f]{8}', mon) and
          re.search(r'WSTATUS +\(0x5\) = 0x00000001', mon) and
          'cause 2' in mon, mon)
    check('monitor coredump says the simulator has none',
          'not supported by this backend (sim)' in mon, mon)
    check('monitor halt and unknown commands answer', 'done' in mon and
          'unknown monitor command "frobnicate"' in mon, mon)
    check('kill ends the session, server exits 0',
          'killed' in section(out, 'kill') and rc == 0 and 'session over: killed' in srv.log,
          out + srv.log)


# ------------------------------------------------- raw-socket clients

class Raw:
    def __init__(self, addr):
        self.s = socket.create_connection(addr, timeout=10)
        self.buf = b''

    def send_raw(self, data):
        self.s.sendall(data)

    def send(self, data):
        if isinstance(data, str):
            data = data.encode('latin1')
        self.s.sendall(b'$' + data + b'#%02x' % (sum(data) & 0xff))

    def read_byte(self):
        if not self.buf:
            self.buf = self.s.recv(65536)
            if not self.buf:
                raise EOFError
        b, self.buf = self.buf[:1], self.buf[1:]
        return b

    def reply(self, ack=True):
        """The next packet, decoded; acks skipped ('+' sent unless ack is False)."""
        while self.read_byte() != b'$':
            pass
        raw = b''
        while (c := self.read_byte()) != b'#':
            raw += c
        cs = self.read_byte() + self.read_byte()
        assert int(cs, 16) == sum(raw) & 0xff, 'bad checksum from the server'
        if ack:
            self.s.sendall(b'+')
        out, i = bytearray(), 0
        while i < len(raw):             # run-length expansion first
            if raw[i] == 0x2a:
                out += bytes([out[-1]]) * (raw[i + 1] - 29)
                i += 2
            else:
                out.append(raw[i])
                i += 1
        res, i = bytearray(), 0
        while i < len(out):
            if out[i] == 0x7d:
                res.append(out[i + 1] ^ 0x20)
                i += 2
            else:
                res.append(out[i])
                i += 1
        return res.decode('latin1')

    def cmd(self, data):
        self.send(data)
        return self.reply()

    def ack_byte(self):
        """The first ack/nak byte the server sends next."""
        while (c := self.read_byte()) not in (b'+', b'-'):
            pass
        return c


def test_raw(server_path, kdir):
    vecadd = os.path.join(kdir, 'vecadd.elf')
    srv = Server(server_path, vecadd, '-n', '64', '-g', '2', '-b', '32')
    c = Raw(srv.addr)
    c.send_raw(b'$D#00')               # detach, with a wrong checksum
    check('raw: a bad checksum is NAKed', c.ack_byte() == b'-')
    c.send('?')
    check('raw: ... and not acted on (still stopped, T05 with a thread)',
          c.ack_byte() == b'+' and re.fullmatch(r'T05thread:[0-9a-f]+;', c.reply()))
    check('raw: unknown packets get the empty reply', c.cmd('qFrobnicate:1') == '' and
          c.cmd('vMustReplyEmpty') == '' and c.cmd('Z3,0,4') == '' and
          c.cmd('Z4,0,4') == '' and c.cmd('Z1,0,4') == '')
    c.send('m' + '0' * (5000))
    check('raw: an oversized packet is NAKed', c.ack_byte() == b'-')
    # every byte but the protocol's own ('$' starts a packet, '+'/'-' ack, 0x03)
    c.send_raw(bytes(b for b in range(256) if b not in b'$+-\x03'))
    check('raw: binary junk between packets is ignored', c.cmd('qAttached') == '1')
    check('raw: malformed arguments get E01', c.cmd('mzz,4') == 'E01' and
          c.cmd('Hgqq') == 'E01' and c.cmd('p') == 'E01')
    check('raw: a register the target has not is E02, a dead thread E02',
          c.cmd('p1000') == 'E02' and c.cmd('T7fffffff') == 'E02')
    sup = c.cmd('qSupported:multiprocess+;swbreak+;xmlRegisters=riscv')
    check('raw: qSupported advertises the features',
          all(f in sup for f in ('PacketSize=1000', 'qXfer:features:read+',
                                 'QStartNoAckMode+', 'swbreak+', 'vContSupported+')), sup)
    xml, part = '', 'm'
    while part[0] == 'm' and len(xml) < 100000:
        part = c.cmd('qXfer:features:read:target.xml:%x,200' % len(xml))
        xml += part[1:]
    check('raw: target.xml, in chunks, is riscv:rv32 with cpu, fpu and csr features',
          part[0] == 'l' and xml.endswith('</target>\n') and '<architecture>riscv:rv32</architecture>' in xml and
          all(f'org.gnu.gdb.riscv.{f}' in xml for f in ('cpu', 'fpu', 'csr')) and
          '<reg name="thread_idx_x" bitsize="32" type="int" regnum="3354" group="vortex"/>'
          in xml, xml[:300])
    check('raw: P writes a lane register, p reads it back',
          c.cmd('P6=78563412') == 'OK' and c.cmd('p6') == '78563412' and
          c.cmd('P6=0000') == 'E01')
    pc = c.cmd('p20')
    moved = (int.from_bytes(bytes.fromhex(pc), 'little') + 4).to_bytes(4, 'little').hex()
    check('raw: P writes pc (20), p reads it back; ft0 (21) is not pc',
          c.cmd('P20=' + moved) == 'OK' and c.cmd('p20') == moved and
          c.cmd('P20=' + pc) == 'OK' and c.cmd('p20') == pc and
          c.cmd('P21=0000803f') == 'OK' and c.cmd('p21') == '0000803f' and
          c.cmd('p20') == pc, pc)
    def pc_now():
        return int.from_bytes(bytes.fromhex(c.cmd('p20')), 'little')
    p0 = pc_now()
    s1, p1 = c.cmd('s'), pc_now()
    s2, p2 = c.cmd('s'), pc_now()
    check('raw: s steps the warp (_start: auipc, then the jump of its call)',
          s1.startswith('T05') and s2.startswith('T05') and p0 != p1 != p2 != p0,
          (s1, s2, p0, p1, p2))
    check('raw: malformed c/C/s/S addresses and signals get E01, nothing moves',
          all(c.cmd(bad) == 'E01' for bad in
              ('czz', 'c1ffffffff', 'C05;zz', 'C100', 'C05x', 'S;0', 's12g')) and
          pc_now() == p2)
    s3, p3 = c.cmd('s%x' % p0), pc_now()
    s4, p4 = c.cmd('S05;%x' % p1), pc_now()
    check('raw: s ADDR, S sig;ADDR move the warp to ADDR and step from there',
          s3.startswith('T05') and p3 == p1 and s4.startswith('T05') and p4 == p2,
          (s3, s4, p3, p4))
    g = c.cmd('g')
    a0 = int.from_bytes(bytes.fromhex(g[80:88]), 'little')
    cbuf = int.from_bytes(bytes.fromhex(c.cmd('m%x,4' % (a0 + 8))), 'little')
    # X with every byte gdb must escape
    payload = b'}#$*'
    c.send(b'X%x,4:' % cbuf + b''.join(b'}' + bytes([x ^ 0x20]) for x in payload))
    xr = c.reply()
    check('raw: X writes escaped binary, m reads it back',
          xr == 'OK' and c.cmd('m%x,4' % cbuf) == payload.hex(), xr)
    check('raw: QStartNoAckMode', c.cmd('QStartNoAckMode') == 'OK')
    c.send('qC')
    r = c.reply(ack=False)
    check('raw: no acks after QStartNoAckMode',
          r.startswith('QC') and not c.buf.startswith(b'+'), r)
    # Disconnect in the middle of a continue: the card is resumed and the
    # kernel completes (the server says so), the server exits 0.
    c.send('vCont;c')
    c.s.close()
    rc = srv.finish()
    check('raw: disconnect mid-continue: detached, kernel completes, exit 0',
          rc == 0 and ('client went away' in srv.log and
                       'kernel finished, status 0' in srv.log or
                       'session over: the job ended' in srv.log), srv.log)

    srv = Server(server_path, os.path.join(kdir, 'hang.elf'))
    c = Raw(srv.addr)
    c.cmd('?')
    c.send('vCont;c')
    time.sleep(0.3)
    c.send_raw(b'\x03')
    stop = c.reply()
    check('raw: 0x03 while running stops with T02 and a thread',
          re.fullmatch(r'T02thread:[0-9a-f]+;', stop), stop)
    c.send('k')                         # no reply: the server just goes
    rc = srv.finish()
    check('raw: k kills the simulated job, the server leaves, exit 0',
          rc == 0 and 'session over: killed' in srv.log and
          'kernel finished' not in srv.log, srv.log)

    srv = Server(server_path, vecadd, '-n', '64')
    c = Raw(srv.addr)
    c.cmd('?')
    check('raw: D on vecadd, the kernel then completes',
          c.cmd('D') == 'OK' and srv.finish() == 0 and
          'kernel finished, status 0' in srv.log, srv.log)


WATCH_SCRIPT = r'''
break vecadd.c:11
continue
delete
echo @@where\n
p i
p $_thread
set $c = &arg->c[i]
echo @@watch\n
watch -l arg->c[i]
continue
echo @@after\n
p *$c
p $_thread
delete
echo @@end\n
continue
'''


def test_watch(vecadd, host, port, srv=None):
    """`watch` as typed, no `set can-use-hw-watchpoints 0`: gdb makes it a
    hardware watchpoint (its remote target decides so from its own
    `remote hardware-watchpoint-limit`, gdb manual "Remote Configuration")
    and inserts it with Z2, which the stub keeps by single steps
    (gdbs_watch.c); the stop says watch:ADDR and gdb prints the change."""
    out = run_gdb(vecadd, host, port, WATCH_SCRIPT)
    rc, log = (srv.finish(), srv.log) if srv else (0, '')
    where, watch, after = section(out, 'where'), section(out, 'watch'), section(out, 'after')
    v = ints(where)
    ea, eb = vecadd_inputs(N)
    i, tid = (v + [None, None])[:2]
    want = None
    if i is not None and 0 <= i < N:
        want = (ea[i] + eb[i]) & 0xffffffff
        want = want - (1 << 32) if want & 0x80000000 else want
    check('watch: a write watchpoint is set without a workaround',
          re.search(r'^Hardware watchpoint 2: -location arg->c\[i\]', watch, re.M) and
          'Could not insert' not in out, out)
    check('watch: continue stops when the lane stores c[i], old 0, new a[i] + b[i], same thread',
          want is not None and
          re.search(r'Thread %d "[\d.]+" hit Hardware watchpoint 2: -location arg->c\[i\]' % tid,
                    watch) and
          re.search(r'Old value = 0\s+New value = %d\b' % want, watch) and
          ints(after) == [want, tid], out)
    check('watch: deleted, the job runs to its end',
          'exited normally' in section(out, 'end') and rc == 0, out + log)


def test_on_connect(server_path, kdir):
    """--on-connect: the target starts when the client comes; if it cannot,
    the client is told why (E.text, which gdb prints) instead of silence."""
    vecadd = os.path.join(kdir, 'vecadd.elf')
    srv = Server(server_path, vecadd, '--on-connect', '-n', '64')
    c = Raw(srv.addr)
    stop = c.cmd('?')
    check('on-connect: the target starts when the client comes, halted at its start',
          re.fullmatch(r'T05thread:[0-9a-f]+;', stop) and c.cmd('D') == 'OK' and
          srv.finish() == 0 and 'kernel finished, status 0' in srv.log, stop + srv.log)
    srv = Server(server_path, os.path.join(kdir, 'nosuch.elf'), '--on-connect')
    out = run_gdb(vecadd, *srv.addr, 'echo @@after\n', timeout=60) if srv.addr else ''
    rc = srv.finish()
    check('on-connect: a target that cannot start is told to gdb, the server exits 1',
          re.search(r"Remote failure reply: E\.vortex-gdbserver-sim: the target did not "
                    r"start: ", out) and rc == 1, out + srv.log)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--server', help='vortex-gdbserver-sim to start')
    ap.add_argument('--elf-dir', help='the kernel ELFs (build/riscv)')
    ap.add_argument('--connect', help='HOST:PORT of a server already listening')
    ap.add_argument('--elf', help='with --connect: the kernel ELF it runs')
    o = ap.parse_args()
    if o.connect:
        host, port = o.connect.rsplit(':', 1)
        test_source(o.elf, host, int(port), 'gdb')
        # the guest starts a server for every session (scripts/guest/init)
        test_watch(o.elf, host, int(port))
        return report()
    vecadd = os.path.join(o.elf_dir, 'vecadd.elf')
    srv = Server(o.server, vecadd, '-n', str(N), '-g', '2', '-b', '32')
    check('server: prints where it listens', srv.addr, srv.first)
    if srv.addr:
        out = test_source(vecadd, *srv.addr, 'gdb')
        rc = srv.finish()
        check('server: session over when the job ended, exit 0',
              rc == 0 and 'session over: the job ended' in srv.log, srv.log + out)
    test_interrupt(o.server, o.elf_dir)
    test_raw(o.server, o.elf_dir)
    test_on_connect(o.server, o.elf_dir)
    srv = Server(o.server, vecadd, '-n', str(N), '-g', '2', '-b', '32')
    if srv.addr:
        test_watch(vecadd, *srv.addr, srv)
    return report()


if __name__ == '__main__':
    sys.exit(main())
