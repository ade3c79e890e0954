/* SPDX-License-Identifier: MIT */
/*
 * libvortex-debug: a debugger API for the Vortex card, shaped after the
 * CUDA Debugger API (shared/specs/cuda-debugger-api.txt) where it fits.
 *
 * Addressing is CUDA's: a device (one per session, index 0), its SMs (a
 * Vortex core: sm = cluster x cores + core), the warps of an SM (warp
 * within the core), the lanes of a warp.  Every call returns a
 * vxdbg_result whose values are CUDBGResult's; docs/debugging.md has the
 * table of which calls exist, which differ and which do not apply, and how
 * each driver errno maps to a result.
 *
 * Under the API sits one small backend interface (vxdbg_backend.h) with
 * two backends: the driver's session ioctls (vxdbg_ioctl_*) and, on the
 * host, the simulator core in-process (vxdbg_sim.h).
 *
 * Typical use:
 *
 *	vxdbg_ioctl_attach_pid(pid, &be);
 *	vxdbg_initialize(be, &d);
 *	vxdbg_lookup_symbol(d, "vx_kernel_main", &pc);   (after a KERNEL_READY)
 *	vxdbg_set_breakpoint(d, 0, pc);
 *	vxdbg_get_next_event(d, &ev, 10000);             (VXDBG_EVENT_HALTED)
 *	vxdbg_read_register(d, 0, sm, wp, ln, VXDBG_REG_X(10), &a0);
 *	vxdbg_finalize(d);                               (resumes everything)
 *
 * A handle is not thread safe.  Nothing here prints.
 */
#ifndef VXDBG_H
#define VXDBG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct vxdbg;
struct vxdbg_backend;

/* CUDBGResult, value for value (CUDBG_ERROR_x is VXDBG_ERROR_x). */
typedef enum {
	VXDBG_SUCCESS				= 0x0000,
	VXDBG_ERROR_UNKNOWN			= 0x0001,
	VXDBG_ERROR_BUFFER_TOO_SMALL		= 0x0002,
	VXDBG_ERROR_UNKNOWN_FUNCTION		= 0x0003,
	VXDBG_ERROR_INVALID_ARGS		= 0x0004,
	VXDBG_ERROR_UNINITIALIZED		= 0x0005,
	VXDBG_ERROR_INVALID_COORDINATES		= 0x0006,
	VXDBG_ERROR_INVALID_MEMORY_SEGMENT	= 0x0007,
	VXDBG_ERROR_INVALID_MEMORY_ACCESS	= 0x0008,
	VXDBG_ERROR_MEMORY_MAPPING_FAILED	= 0x0009,
	VXDBG_ERROR_INTERNAL			= 0x000a,
	VXDBG_ERROR_INVALID_DEVICE		= 0x000b,
	VXDBG_ERROR_INVALID_SM			= 0x000c,
	VXDBG_ERROR_INVALID_WARP		= 0x000d,
	VXDBG_ERROR_INVALID_LANE		= 0x000e,
	VXDBG_ERROR_SUSPENDED_DEVICE		= 0x000f,
	VXDBG_ERROR_RUNNING_DEVICE		= 0x0010,
	VXDBG_ERROR_INVALID_ADDRESS		= 0x0012,
	VXDBG_ERROR_INCOMPATIBLE_API		= 0x0013,
	VXDBG_ERROR_INITIALIZATION_FAILURE	= 0x0014,
	VXDBG_ERROR_INVALID_GRID		= 0x0015,
	VXDBG_ERROR_NO_EVENT_AVAILABLE		= 0x0016,
	VXDBG_ERROR_COMMUNICATION_FAILURE	= 0x001c,
	VXDBG_ERROR_INVALID_MODULE		= 0x0021,
	VXDBG_ERROR_OS_RESOURCES		= 0x0025,
	VXDBG_ERROR_NO_DEVICE_AVAILABLE		= 0x0027,
	VXDBG_ERROR_ATTACH_NOT_POSSIBLE		= 0x0028,
	VXDBG_ERROR_WARP_RESUME_NOT_POSSIBLE	= 0x0029,
	VXDBG_ERROR_INVALID_WARP_MASK		= 0x002a,
	VXDBG_ERROR_NOT_SUPPORTED		= 0x002e,
} vxdbg_result;

/** vxdbg_result_name() - "VXDBG_ERROR_INVALID_WARP", ... */
const char *vxdbg_result_name(vxdbg_result r);

/** vxdbg_result_from_errno() - the result a driver errno means (table in docs/debugging.md) */
vxdbg_result vxdbg_result_from_errno(int err);

/* Register numbers: the uapi's (DRM_VORTEX_DEBUG_REG_*). */
#define VXDBG_REG_X(n)		(n)		/* x0..x31 */
#define VXDBG_REG_F(n)		(0x20 + (n))	/* f0..f31 */
#define VXDBG_REG_CSR(n)	(0x1000 + (n))	/* CSR n */
/**
 * define VXDBG_REG_PC - the warp's PC, as a register number
 *
 * DRM_VORTEX_DEBUG_REG_PC.  Every lane of a warp shares it: reading it
 * from any lane gives the virtual PC (a device address, what
 * vxdbg_read_virtual_pc() gives); writing it through any lane sets the
 * PC of the whole warp, all of its lanes.  The warp must be halted
 * (RUNNING_DEVICE otherwise).  Nobody checks the value: a PC the warp
 * cannot fetch from (misaligned, unmapped) faults when the warp runs.
 */
#define VXDBG_REG_PC		0x2000
#define VXDBG_NUM_REGS		64		/* x and f: getNumRegisters */

#define VXDBG_MAX_BREAKPOINTS	256	/* the driver's limit */
#define VXDBG_MAX_LANES		128
#define VXDBG_LANE_WORDS	(VXDBG_MAX_LANES / 32)

/** A lane mask: bit l of word l / 32 (CUDA's are one uint32_t). */
struct vxdbg_lanes {
	uint32_t w[VXDBG_LANE_WORDS];
};

struct vxdbg_dim3 {
	uint32_t x, y, z;
};

/*
 * CUDBGException_t, for the causes this card has: hw/vortex_causes.h maps
 * them, for this library and the crash dump's ELF alike.
 */
typedef enum {
	VXDBG_EXCEPTION_NONE				= 0,
	VXDBG_EXCEPTION_LANE_ILLEGAL_ADDRESS		= 1,	/* LOAD/STORE(_PAGE)_FAULT */
	VXDBG_EXCEPTION_DEVICE_HARDWARE_STACK_OVERFLOW	= 3,	/* no longer reported */
	VXDBG_EXCEPTION_WARP_ILLEGAL_INSTRUCTION	= 4,	/* ILLEGAL_INSTR, ECALL, EBREAK, BARRIER,
							   DIVERGENT_BRANCH */
	VXDBG_EXCEPTION_WARP_INVALID_PC			= 8,	/* FETCH(_PAGE)_FAULT, MISALIGNED_FETCH */
	VXDBG_EXCEPTION_WARP_HARDWARE_STACK_OVERFLOW	= 9,	/* DIVERGENCE */
	VXDBG_EXCEPTION_LANE_MISALIGNED_ADDRESS		= 11,	/* MISALIGNED_* */
	VXDBG_EXCEPTION_WARP_ASSERT			= 12,	/* ASSERT */
	VXDBG_EXCEPTION_DEVICE_ILLEGAL_BARRIER		= 0x100, /* no longer reported */
	VXDBG_EXCEPTION_UNKNOWN				= 0xffffffff,	/* BAD_PACKET, others */
} vxdbg_exception;

/** vxdbg_exception_from_cause() - the exception of a VX_ERR_* cause */
vxdbg_exception vxdbg_exception_from_cause(uint32_t cause);

/* Halt causes (VX_HACAUSE_*), as read for a halted warp. */
#define VXDBG_HALT_NONE		0
#define VXDBG_HALT_EBREAK	1	/* a breakpoint */
#define VXDBG_HALT_REQUEST	2	/* suspendDevice */
#define VXDBG_HALT_STEP		3
#define VXDBG_HALT_AT_START	4	/* halted before its first instruction */

/**
 * struct vxdbg_warp_state - CUDBGWarpState, for one warp of one SM
 * @valid: the warp has a context (runs, or is halted)
 * @halted: it is debug-halted (only then is the rest filled)
 * @broken: halted on a breakpoint
 * @halt_cause: VXDBG_HALT_*
 * @grid_id: the job (SUBMIT seqno) it runs
 * @block_idx: its block
 * @warp_in_block: its warp index within the block
 * @virtual_pc: its PC, a device address (all lanes share it)
 * @pc: the PC as an address of its code object's ELF (0 if none)
 * @valid_lanes: lanes that hold a thread of the block
 * @active_lanes: lanes of the current thread mask
 * @error_pc: PC of the exception the card froze on, if @error_pc_valid
 * @error_pc_valid: this warp raised the exception
 */
struct vxdbg_warp_state {
	bool valid;
	bool halted;
	bool broken;
	uint32_t halt_cause;
	uint64_t grid_id;
	struct vxdbg_dim3 block_idx;
	uint32_t warp_in_block;
	uint64_t virtual_pc;
	uint64_t pc;
	struct vxdbg_lanes valid_lanes;
	struct vxdbg_lanes active_lanes;
	uint64_t error_pc;
	bool error_pc_valid;
};

/* CUDBGEventKind values where one fits; Vortex's own from 0x100. */
typedef enum {
	VXDBG_EVENT_INVALID		= 0x000,
	VXDBG_EVENT_ELF_IMAGE_LOADED	= 0x001,	/* a code object, first seen */
	VXDBG_EVENT_KERNEL_READY	= 0x002,	/* a job went on the card */
	VXDBG_EVENT_KERNEL_FINISHED	= 0x003,	/* it ended */
	VXDBG_EVENT_INTERNAL_ERROR	= 0x004,	/* events were lost */
	VXDBG_EVENT_HALTED		= 0x100,	/* warps halted */
	VXDBG_EVENT_EXCEPTION		= 0x101,	/* the card froze on a fault */
	VXDBG_EVENT_KERNEL_TIMEOUT	= 0x102,	/* the job timed out */
	VXDBG_EVENT_ELF_IMAGE_UNLOADED	= 0x103,	/* a code object is gone */
} vxdbg_event_kind;

/**
 * struct vxdbg_event - CUDBGEvent
 * @kind: VXDBG_EVENT_*
 * @seqno: the driver's event number (gaps only after INTERNAL_ERROR)
 * @grid_id: the job it concerns (SUBMIT seqno), 0 if none
 * @u: per kind
 */
struct vxdbg_event {
	vxdbg_event_kind kind;
	uint64_t seqno;
	uint64_t grid_id;
	union {
		struct {		/* ELF_IMAGE_LOADED */
			uint64_t handle;	/* code object id */
			uint64_t size;		/* bytes of the ELF file */
			uint64_t load_addr;	/* device address of ELF address 0 */
			uint64_t load_size;
			bool replayed;		/* registered before the attach */
		} elf_image_loaded;
		struct {		/* ELF_IMAGE_UNLOADED */
			uint64_t handle;	/* the id ELF_IMAGE_LOADED gave */
		} elf_image_unloaded;
		struct {		/* KERNEL_READY */
			struct vxdbg_dim3 grid_dim;
			struct vxdbg_dim3 block_dim;
			uint64_t function_entry;
			uint64_t module;	/* code object id, 0 if none */
		} kernel_ready;
		struct {		/* KERNEL_FINISHED */
			int32_t status;		/* 0, -ETIMEDOUT, -EIO, -ECANCELED */
		} kernel_finished;
		struct {		/* INTERNAL_ERROR */
			vxdbg_result error_type;
			uint32_t dropped;	/* events lost */
		} internal_error;
		struct {		/* HALTED */
			uint32_t cause;		/* VXDBG_HALT_* of @sm/@wp */
			uint32_t count;		/* warps halted now */
			uint32_t sm, wp;	/* the first of them */
			uint64_t pc;		/* its PC */
		} halted;
		struct {		/* EXCEPTION */
			uint32_t cause;		/* VX_ERR_* */
			vxdbg_exception exception;
			uint32_t sm, wp, ln;	/* lowest faulting lane */
			struct vxdbg_lanes lanes;	/* every faulting lane */
			uint64_t pc;
			uint64_t addr;		/* bad address or instruction word */
			/*
			 * DIVERGENT_BRANCH: the lanes that take the branch
			 * and those that do not (@lanes: the active ones);
			 * empty for other causes, or from a driver without
			 * them (EXCEPTION version 1)
			 */
			struct vxdbg_lanes taken, not_taken;
		} exception;
		struct {		/* KERNEL_TIMEOUT */
			uint32_t ran_ms;
		} kernel_timeout;
	} u;
};

/* --------------------------------------------------------- lifetime */

/**
 * vxdbg_initialize() - start the API over an attached backend
 * @be: from vxdbg_ioctl_attach_*() or vxdbg_sim_backend(); owned from now on
 * @out: receives the handle
 *
 * Return: VXDBG_SUCCESS; INVALID_ARGS for a NULL argument (@be is then
 * closed if given); OS_RESOURCES without memory.
 */
vxdbg_result vxdbg_initialize(struct vxdbg_backend *be, struct vxdbg **out);

/**
 * vxdbg_finalize() - detach: remove every breakpoint, resume every warp,
 * close the backend and free @d.  NULL is UNINITIALIZED.
 */
vxdbg_result vxdbg_finalize(struct vxdbg *d);

/* ------------------------------------------------ device properties */

vxdbg_result vxdbg_get_num_devices(struct vxdbg *d, uint32_t *num);
vxdbg_result vxdbg_get_num_sms(struct vxdbg *d, uint32_t dev, uint32_t *num);
vxdbg_result vxdbg_get_num_warps(struct vxdbg *d, uint32_t dev, uint32_t *num);
vxdbg_result vxdbg_get_num_lanes(struct vxdbg *d, uint32_t dev, uint32_t *num);
vxdbg_result vxdbg_get_num_registers(struct vxdbg *d, uint32_t dev, uint32_t *num);
/* Strings: BUFFER_TOO_SMALL if @sz cannot hold them with their NUL. */
vxdbg_result vxdbg_get_device_name(struct vxdbg *d, uint32_t dev, char *buf, uint32_t sz);
vxdbg_result vxdbg_get_device_type(struct vxdbg *d, uint32_t dev, char *buf, uint32_t sz);
vxdbg_result vxdbg_get_sm_type(struct vxdbg *d, uint32_t dev, char *buf, uint32_t sz);

/* -------------------------------------------------- execution control */

/** vxdbg_suspend_device() - halt every warp (SUCCESS when nothing runs) */
vxdbg_result vxdbg_suspend_device(struct vxdbg *d, uint32_t dev);

/**
 * vxdbg_resume_device() - resume every halted warp
 *
 * Warps on a breakpoint first execute its instruction once.  On a card
 * frozen on an exception this ends the job (KERNEL_FINISHED, -EIO).
 */
vxdbg_result vxdbg_resume_device(struct vxdbg *d, uint32_t dev);

/**
 * vxdbg_halt_at_start() - make every warp of the target's next job halt
 * before its first instruction (Vortex's own; CUDA has launch
 * notifications instead).  @on false cancels.
 */
vxdbg_result vxdbg_halt_at_start(struct vxdbg *d, uint32_t dev, bool on);

/* What the target's launches do (vxdbg_set_launch_halt()) */
enum vxdbg_launch_halt {
	VXDBG_LAUNCH_RUN,		/* run at once */
	VXDBG_LAUNCH_HALT_NEXT,		/* the next one halts at its start */
	VXDBG_LAUNCH_HALT_EVERY,	/* every one does, until changed */
};

/**
 * vxdbg_set_launch_halt() - whether the target's launches halt at their
 * first instruction: none, the next one, or every one
 *
 * With VXDBG_LAUNCH_HALT_EVERY each of the target's jobs stands halted at
 * its start (a HALTED event, cause VXDBG_HALT_AT_START, after its
 * KERNEL_READY) until the debugger resumes it, its hang timeout paused:
 * a debugger inserts its pending breakpoints into each launch's code
 * before any of it runs (AMD's persistent wave launch mode HALT; CUDA's
 * setKernelLaunchNotificationMode() only defers the notification).
 * VXDBG_ERROR_INVALID_ARGS for another @mode.
 */
vxdbg_result vxdbg_set_launch_halt(struct vxdbg *d, uint32_t dev,
				   enum vxdbg_launch_halt mode);

/**
 * vxdbg_get_launch_halt() - what the target's launches do, as this session set
 * it: VXDBG_LAUNCH_HALT_NEXT is VXDBG_LAUNCH_RUN again once a launch's
 * KERNEL_READY has been read (RUN for a NULL @d)
 */
enum vxdbg_launch_halt vxdbg_get_launch_halt(const struct vxdbg *d);

/**
 * vxdbg_read_console() - what the target's kernels printed, not yet read
 * @d: the session
 * @dev: the device
 * @rec: receives records, DRM_VORTEX_CONSOLE_CHAR() and _HART() of each
 * @count: in: room in @rec; out: records given, 0 when nothing is new
 * @skipped: receives how many records the target read before the session
 *	saw them (may be NULL)
 *
 * Vortex's own (CUDA's device printf reaches the host at the next
 * synchronisation only): each record once per session, the job's output
 * so far even while it stands halted, and the target still reads all of
 * it.  NOT_SUPPORTED on a backend without a console.
 */
vxdbg_result vxdbg_read_console(struct vxdbg *d, uint32_t dev, uint32_t *rec,
				uint32_t *count, uint64_t *skipped);

/* One line a thread printed: its mhartid, the text without the newline. */
typedef void (*vxdbg_console_fn)(void *arg, uint32_t hart, const char *text, size_t len);

/**
 * vxdbg_console_lines() - vxdbg_read_console() a line at a time
 * @d: the session
 * @dev: the device
 * @emit: called for each line, each thread's in order; a line the stop
 *	cut short comes as far as it goes
 * @arg: for @emit
 * @skipped: receives the records the target read before the session saw
 *	them
 *
 * Return: SUCCESS (also when nothing is new), or vxdbg_read_console()'s
 * error (NOT_SUPPORTED on a backend without a console).
 */
vxdbg_result vxdbg_console_lines(struct vxdbg *d, uint32_t dev, vxdbg_console_fn emit,
				 void *arg, uint64_t *skipped);

/**
 * vxdbg_resume_warps_until_pc() - resume warps of one SM until @virt_pc
 *
 * A temporary breakpoint at @virt_pc (unless one is set there already)
 * is removed by the next HALTED event, suspend or resume.
 * INVALID_WARP_MASK for an empty mask or warps past the SM.
 */
vxdbg_result vxdbg_resume_warps_until_pc(struct vxdbg *d, uint32_t dev, uint32_t sm,
					 uint64_t warp_mask, uint64_t virt_pc);

/**
 * vxdbg_single_step_warp() - @nsteps instructions of one halted warp
 * @warp_mask: receives the warps that moved (only @wp on this card)
 *
 * Stops early at a breakpoint, an exception or the warp's end.
 * RUNNING_DEVICE if the warp is not halted.
 */
vxdbg_result vxdbg_single_step_warp(struct vxdbg *d, uint32_t dev, uint32_t sm,
				    uint32_t wp, uint32_t nsteps, uint64_t *warp_mask);

/* ------------------------------------------------------ breakpoints */

vxdbg_result vxdbg_set_breakpoint(struct vxdbg *d, uint32_t dev, uint64_t addr);
vxdbg_result vxdbg_unset_breakpoint(struct vxdbg *d, uint32_t dev, uint64_t addr);

/**
 * vxdbg_breakpoints() - the breakpoints set through this handle
 * @addrs: receives up to @max of them
 * Return: how many are set (may exceed @max).
 */
uint32_t vxdbg_breakpoints(struct vxdbg *d, uint64_t *addrs, uint32_t max);

/* ------------------------------------------------- state inspection */

/** vxdbg_read_pc() - the PC as an ELF address of the warp's code object */
vxdbg_result vxdbg_read_pc(struct vxdbg *d, uint32_t dev, uint32_t sm, uint32_t wp,
			   uint32_t ln, uint64_t *pc);
/** vxdbg_read_virtual_pc() - the PC as a device address */
vxdbg_result vxdbg_read_virtual_pc(struct vxdbg *d, uint32_t dev, uint32_t sm,
				   uint32_t wp, uint32_t ln, uint64_t *pc);
/**
 * vxdbg_read_register() - register @regno of one lane of a halted warp
 * @regno: VXDBG_REG_X(), VXDBG_REG_F(), VXDBG_REG_CSR() or VXDBG_REG_PC
 *	(the warp's virtual PC, the same from every lane)
 */
vxdbg_result vxdbg_read_register(struct vxdbg *d, uint32_t dev, uint32_t sm, uint32_t wp,
				 uint32_t ln, uint32_t regno, uint32_t *val);
vxdbg_result vxdbg_read_register_range(struct vxdbg *d, uint32_t dev, uint32_t sm,
				       uint32_t wp, uint32_t ln, uint32_t index,
				       uint32_t n, uint32_t *regs);
/**
 * vxdbg_write_register() - set register @regno of one lane of a halted warp
 * @regno: as for vxdbg_read_register(); writing x0 has no effect.
 *	VXDBG_REG_PC moves the whole warp: whichever lane @ln names, every
 *	lane of warp @wp continues from @val.
 */
vxdbg_result vxdbg_write_register(struct vxdbg *d, uint32_t dev, uint32_t sm, uint32_t wp,
				  uint32_t ln, uint32_t regno, uint32_t val);

/**
 * vxdbg_read_warp_registers() - registers @index..@index+@n-1 of many lanes
 * @lanes: the lanes
 * @vals: @n rows of one value per lane set in @lanes, lowest lane first
 *
 * One driver call for all of it (Vortex's own: the fast way to show a
 * whole warp).
 */
vxdbg_result vxdbg_read_warp_registers(struct vxdbg *d, uint32_t dev, uint32_t sm,
				       uint32_t wp, const struct vxdbg_lanes *lanes,
				       uint32_t index, uint32_t n, uint32_t *vals);

vxdbg_result vxdbg_read_global_memory(struct vxdbg *d, uint64_t addr, void *buf,
				      uint32_t sz);
vxdbg_result vxdbg_write_global_memory(struct vxdbg *d, uint64_t addr, const void *buf,
				       uint32_t sz);

/* Warp masks of one SM: bit wp.  NOT_SUPPORTED past 64 warps per core. */
vxdbg_result vxdbg_read_valid_warps(struct vxdbg *d, uint32_t dev, uint32_t sm,
				    uint64_t *mask);
vxdbg_result vxdbg_read_broken_warps(struct vxdbg *d, uint32_t dev, uint32_t sm,
				     uint64_t *mask);
vxdbg_result vxdbg_read_valid_lanes(struct vxdbg *d, uint32_t dev, uint32_t sm,
				    uint32_t wp, struct vxdbg_lanes *mask);
vxdbg_result vxdbg_read_active_lanes(struct vxdbg *d, uint32_t dev, uint32_t sm,
				     uint32_t wp, struct vxdbg_lanes *mask);
vxdbg_result vxdbg_read_warp_state(struct vxdbg *d, uint32_t dev, uint32_t sm,
				   uint32_t wp, struct vxdbg_warp_state *state);
vxdbg_result vxdbg_read_lane_exception(struct vxdbg *d, uint32_t dev, uint32_t sm,
				       uint32_t wp, uint32_t ln, vxdbg_exception *ex);
vxdbg_result vxdbg_read_thread_idx(struct vxdbg *d, uint32_t dev, uint32_t sm,
				   uint32_t wp, uint32_t ln, struct vxdbg_dim3 *idx);
vxdbg_result vxdbg_read_block_idx(struct vxdbg *d, uint32_t dev, uint32_t sm,
				  uint32_t wp, struct vxdbg_dim3 *idx);
vxdbg_result vxdbg_read_grid_id(struct vxdbg *d, uint32_t dev, uint32_t sm,
				uint32_t wp, uint64_t *grid_id);

/* ----------------------------------------------------------- events */

/**
 * vxdbg_get_next_event() - the oldest event
 * @timeout_ms: how long to wait for one; 0 polls, -1 waits for ever
 *
 * Return: SUCCESS, or NO_EVENT_AVAILABLE when none came in time.
 */
vxdbg_result vxdbg_get_next_event(struct vxdbg *d, struct vxdbg_event *ev, int timeout_ms);

/** vxdbg_acknowledge_events() - nothing waits for acknowledgement here: SUCCESS */
vxdbg_result vxdbg_acknowledge_events(struct vxdbg *d);

/**
 * vxdbg_generate_coredump() - a crash dump of the target's job now, published
 * by the driver in /sys/class/devcoredump (INVALID_WARP without a job on the
 * card; NOT_SUPPORTED on the simulator backend; @filename is not used yet)
 */
vxdbg_result vxdbg_generate_coredump(struct vxdbg *d, const char *filename, uint32_t flags);

/* ---------------------------------------------------- code objects */

/**
 * vxdbg_lookup_symbol() - device address of a symbol of the current code
 * object (the one the last KERNEL_READY named; lookupDeviceCodeSymbol)
 *
 * Return: SUCCESS; UNKNOWN_FUNCTION no such symbol; INVALID_MODULE no
 * code object known.
 */
vxdbg_result vxdbg_lookup_symbol(struct vxdbg *d, const char *name, uint64_t *addr);

/**
 * vxdbg_symbolize() - "name+0xoff" for a device address of a known code
 * object; UNKNOWN_FUNCTION if none holds it.
 */
vxdbg_result vxdbg_symbolize(struct vxdbg *d, uint64_t addr, char *buf, uint32_t sz);

/** vxdbg_get_elf_image() - the current code object's ELF (getElfImage, unrelocated) */
vxdbg_result vxdbg_get_elf_image(struct vxdbg *d, const void **elf, uint64_t *size,
				 uint64_t *load_addr);

/**
 * vxdbg_add_code_object() - make an ELF known without an event (a tool
 * that loaded the image itself); it becomes the current one.
 */
vxdbg_result vxdbg_add_code_object(struct vxdbg *d, const void *elf, uint64_t size,
				   uint64_t load_addr, uint64_t load_size);

/** vxdbg_backend_of() - the backend, for its own calls (benchmarks) */
struct vxdbg_backend *vxdbg_backend_of(struct vxdbg *d);

#ifdef __cplusplus
}
#endif

#endif /* VXDBG_H */
