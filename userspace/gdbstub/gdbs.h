/* SPDX-License-Identifier: MIT */
/*
 * vortex-gdbserver's inside: one gdb client, one debug session
 * (libvortex-debug), all-stop.  Every (core, warp, lane) holding a thread
 * of a block is a gdb thread; thread id = 1 + global lane index =
 * mhartid + 1 = 1 + (sm * warps + warp) * lanes + lane.
 *
 * Files: gdbs_io.c (the client's byte stream), gdbs_server.c (packet
 * dispatch, queries), gdbs_threads.c (thread ids and the warp snapshot),
 * gdbs_regs.c, gdbs_mem.c (memory, breakpoints), gdbs_run.c (resume,
 * step, stop replies), gdbs_monitor.c, gdbs_target_xml.c.
 */
#ifndef GDBS_H
#define GDBS_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "rsp.h"
#include "vxdbg.h"

/* How long one wait for a card event lasts before the client is polled. */
#define GDBS_WAIT_MS		10

/* Write watchpoints (Z2): how many, and how many bytes each. */
#define GDBS_MAX_WATCH		4
#define GDBS_WATCH_MAX_LEN	64

/**
 * struct gdbs_watch - a write watchpoint
 * @addr: device address
 * @len: bytes
 * @old: their contents at the last look
 */
struct gdbs_watch {
	uint64_t addr;
	uint32_t len;
	uint8_t old[GDBS_WATCH_MAX_LEN];
};

/* Thread ids per qfThreadInfo/qsThreadInfo reply. */
#define GDBS_TIDS_PER_REPLY	128

/** enum gdbs_end - why a session ended */
enum gdbs_end {
	GDBS_END_NONE,
	GDBS_END_EXITED,	/* the job finished (W or X sent) */
	GDBS_END_DETACHED,	/* D */
	GDBS_END_KILLED,	/* k, vKill */
	GDBS_END_DISCONNECTED,	/* the client went away */
	GDBS_END_SIGNAL,	/* the server was told to stop */
	GDBS_END_ERROR,		/* the card stopped answering */
};

/** enum gdbs_io_ev - what gdbs_io_next() got */
enum gdbs_io_ev {
	GDBS_IO_NONE,		/* nothing within the timeout */
	GDBS_IO_PACKET,		/* a decoded packet */
	GDBS_IO_MALFORMED,	/* a packet that does not decode (acknowledged) */
	GDBS_IO_INTERRUPT,	/* 0x03 */
	GDBS_IO_EOF,		/* the client has gone (or a write failed) */
};

/**
 * struct gdbs_io - the client's byte stream
 * @fd: the connection
 * @noack: QStartNoAckMode in force
 * @gone: a read or write failed, or EOF
 * @parser: the packet being received
 * @in: bytes read, not yet parsed (@in_pos..@in_len)
 * @last: the last frame sent (@last_len bytes), resent on a NAK
 * @rejected: packets refused (checksum, size), for the log
 */
struct gdbs_io {
	int fd;
	bool noack;
	bool gone;
	struct rsp_parser parser;
	uint8_t in[4096];
	size_t in_pos, in_len;
	char last[RSP_FRAME_MAX];
	size_t last_len;
	unsigned int rejected;
};

void gdbs_io_init(struct gdbs_io *io, int fd);

/**
 * gdbs_io_next() - the next packet or interrupt, waiting @timeout_ms
 * @pkt: receives a packet's decoded bytes, NUL-terminated
 * @len: receives its length
 *
 * Acknowledges packets, NAKs bad ones, resends on NAKs, skips junk.
 */
enum gdbs_io_ev gdbs_io_next(struct gdbs_io *io, int timeout_ms, uint8_t *pkt,
			     size_t *len);

/** gdbs_io_send() - frame and send @len bytes; -EPIPE once the client has gone */
int gdbs_io_send(struct gdbs_io *io, const void *data, size_t len);

/**
 * struct gdbs_warp - a warp as the last stop left it
 * @valid: it has a context
 * @halted: it is debug-halted (only then is the rest known)
 * @broken: halted on a breakpoint
 * @pc: its PC (device address)
 * @lanes: its lanes holding a thread of the block
 */
struct gdbs_warp {
	bool valid, halted, broken;
	uint64_t pc;
	struct vxdbg_lanes lanes;
};

/**
 * struct gdbs - one client's session
 * @d: the debug session
 * @nsm: SMs (cores) of the card
 * @nwarps: warps per SM
 * @nlanes: lanes per warp
 * @io: the client
 * @base: device address of the code object's ELF address 0 (qOffsets)
 * @base_known: a code object is known
 * @g_tid: Hg: the thread registers are read from
 * @c_tid: Hc: the thread s steps (0 or -1: none chosen)
 * @resume_tid: the thread the last resume named; stops prefer it
 * @warps: the snapshot, @nsm * @nwarps, valid while @warps_fresh
 * @warps_fresh: @warps describes the card as it is now
 * @reported_pc: per warp (global id), the breakpoint PC a stop reply
 *	named it at, ~0 once it may have moved; warps on a breakpoint not
 *	reported yet (several hit at once) are reported by the next continue
 *	before anything runs
 * @list_cursor: global lane where the next qsThreadInfo goes on
 * @exc: the VX_ERR_* cause the last stop reported (for the exit signal)
 * @exc_seen: @exc is set
 * @timed_out: the job timed out (KERNEL_TIMEOUT)
 * @end: why the session is over, GDBS_END_NONE while it is not
 * @stop: set by a signal handler: leave at the next chance
 * @last_stop: the last stop reply, repeated for '?'
 * @watch: the write watchpoints (gdbs_watch.c), @nwatch of them
 * @tdesc: target.xml
 * @tdesc_len: its length
 * @pkt: the packet being handled, NUL-terminated (@pkt_len bytes)
 * @out: a reply being built
 */
struct gdbs {
	struct vxdbg *d;
	uint32_t nsm, nwarps, nlanes;
	struct gdbs_io io;
	uint64_t base;
	bool base_known;
	uint32_t g_tid, c_tid, resume_tid;
	struct gdbs_warp *warps;
	bool warps_fresh;
	uint64_t *reported_pc;
	uint32_t list_cursor;
	uint32_t exc;
	bool exc_seen;
	bool timed_out;
	enum gdbs_end end;
	volatile sig_atomic_t *stop;
	char last_stop[64];
	struct gdbs_watch watch[GDBS_MAX_WATCH];
	uint32_t nwatch;
	char *tdesc;
	size_t tdesc_len;
	uint8_t pkt[RSP_PACKET_MAX + 1];
	size_t pkt_len;
	char out[RSP_PACKET_MAX + 1];
};

/* gdbs_server.c */
/**
 * gdbs_init() - a session over @d, for the client on @fd
 * @stop: a flag a signal handler sets to end the session (may be NULL)
 * Return: 0 or -ENOMEM.
 */
int gdbs_init(struct gdbs *s, struct vxdbg *d, int fd, volatile sig_atomic_t *stop);
void gdbs_fini(struct gdbs *s);
/** gdbs_serve() - handle packets until the session ends; returns why */
enum gdbs_end gdbs_serve(struct gdbs *s);
int gdbs_reply(struct gdbs *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int gdbs_reply_bin(struct gdbs *s, const void *data, size_t len);
/** gdbs_reply_xfer() - the qXfer chunk @off,@len of @doc ('m'/'l' prefixed) */
int gdbs_reply_xfer(struct gdbs *s, const char *doc, size_t doc_len, const char *args);
/** gdbs_error() - "E" and two hex digits */
int gdbs_error(struct gdbs *s, unsigned int code);

/* gdbs_threads.c */
uint32_t gdbs_tid(const struct gdbs *s, uint32_t sm, uint32_t wp, uint32_t ln);
/** gdbs_tid_split() - a thread id's coordinates; false if it names no lane of the card */
bool gdbs_tid_split(const struct gdbs *s, uint32_t tid, uint32_t *sm, uint32_t *wp,
		    uint32_t *ln);
/** gdbs_snapshot() - the warps as they are now (read once per stop) */
const struct gdbs_warp *gdbs_snapshot(struct gdbs *s);
/** gdbs_thread_alive() - @tid is a lane holding a thread, of a halted warp */
bool gdbs_thread_alive(struct gdbs *s, uint32_t tid);
/** gdbs_first_thread() - lowest thread of warp @gw (global id), or of any warp if -1; 0 if none */
uint32_t gdbs_first_thread(struct gdbs *s, int64_t gw);
/** gdbs_resolve_tid() - a packet's thread id (0 any, -1 all) as one live thread; 0 if none */
uint32_t gdbs_resolve_tid(struct gdbs *s, int64_t tid);
int gdbs_thread_info(struct gdbs *s, bool first);
int gdbs_thread_extra_info(struct gdbs *s, const char *args);
int gdbs_threads_xfer(struct gdbs *s, const char *args);

/* gdbs_regs.c */
int gdbs_read_registers(struct gdbs *s);
int gdbs_write_registers(struct gdbs *s, const char *hex);
int gdbs_read_register(struct gdbs *s, const char *args);
int gdbs_write_register(struct gdbs *s, const char *args);
/**
 * gdbs_write_pc() - move the warp of thread @tid to @pc (all its lanes)
 * Return: 0, or the library's error.
 */
vxdbg_result gdbs_write_pc(struct gdbs *s, uint32_t tid, uint32_t pc);

/* gdbs_mem.c */
int gdbs_read_memory(struct gdbs *s, const char *args);
int gdbs_write_memory(struct gdbs *s, const char *args, size_t len, bool binary);
int gdbs_breakpoint(struct gdbs *s, const char *args, bool set);
bool gdbs_bp_is_set(struct gdbs *s, uint64_t addr);

/* gdbs_watch.c */
/** gdbs_watchpoint() - Z2/z2 ",ADDR,LEN": a write watchpoint set or removed */
int gdbs_watchpoint(struct gdbs *s, const char *args, bool set);
/** gdbs_watch_refresh() - take the watched bytes as they are now (before a run) */
void gdbs_watch_refresh(struct gdbs *s);
/**
 * gdbs_watch_changed() - a watchpoint whose bytes changed since the last look
 * @addr: receives its address
 * Return: its index, or -1.  The copies are brought up to date.
 */
int gdbs_watch_changed(struct gdbs *s, uint64_t *addr);

/* gdbs_run.c */
/**
 * gdbs_forget_state() - warps may have moved: drop the snapshot
 * @only_gw: the global warp whose reported breakpoint hit is forgotten
 *	(so standing on a breakpoint again is a new stop), -1 for every warp
 */
void gdbs_forget_state(struct gdbs *s, int64_t only_gw);
/** gdbs_stop_reason() - the reply to '?': the card is halted (all-stop) */
int gdbs_stop_reason(struct gdbs *s);
/**
 * gdbs_continue() - "c[ADDR]", "Csig[;ADDR]": resume the card
 * @pkt: the packet, from its letter on
 *
 * With ADDR the resumed thread's warp first moves there, as a 'P' of pc
 * would move it; the signal is not delivered (the card has none).
 */
int gdbs_continue(struct gdbs *s, const char *pkt);
/** gdbs_step() - "s[ADDR]", "Ssig[;ADDR]": one instruction of a warp, as gdbs_continue() */
int gdbs_step(struct gdbs *s, const char *pkt);
int gdbs_vcont(struct gdbs *s, const char *args);
/** gdbs_signal_of() - the gdb signal number of a card error cause (VX_ERR_*) */
int gdbs_signal_of(uint32_t cause);

/* gdbs_monitor.c */
int gdbs_monitor(struct gdbs *s, const char *hex);

/* gdbs_target_xml.c */
/** gdbs_target_xml() - target.xml for this card, malloc()ed; NULL without memory */
char *gdbs_target_xml(size_t *len);
/**
 * gdbs_regnum() - what gdb register number @n is
 * Return: a VXDBG_REG_* number (VXDBG_REG_PC for pc), or -1 if the target
 * description has no register @n.
 */
int64_t gdbs_regnum(uint32_t n);
#define GDBS_REG_PC		32	/* gdb's number of pc, and ours */
#define GDBS_NUM_GREGS		33	/* x0..x31, pc: what g carries */

#endif /* GDBS_H */
