/* SPDX-License-Identifier: MIT */
/*
 * Vortex PCIe card: hardware register map.
 *
 * The single source of truth for offsets and bit fields, shared by the QEMU
 * device model, the kernel driver and the host tools.  Offsets and field
 * macros only: no types, no functions, nothing that depends on who includes
 * it.  docs/hardware.md describes the behaviour behind every name here.
 */
#ifndef VORTEX_REGS_H
#define VORTEX_REGS_H

/* Bit helpers that work in the kernel, in QEMU and in plain C. */
#define VX_BIT(n)		(1u << (n))
#define VX_MASK(hi, lo)		((~0u >> (31 - (hi))) & ~((1u << (lo)) - 1u))
#define VX_GET(v, hi, lo)	(((v) & VX_MASK(hi, lo)) >> (lo))
#define VX_PUT(x, hi, lo)	(((unsigned int)(x) << (lo)) & VX_MASK(hi, lo))

/* ------------------------------------------------------------------ PCI */
#define VX_PCI_VENDOR_ID	0x1234
#define VX_PCI_DEVICE_ID	0x7658
#define VX_PCI_CLASS		0x1200	/* processing accelerator */
#define VX_PCI_REVISION		0x01

#define VX_BAR_MMIO		0	/* registers, 64 KiB */
#define VX_BAR_VRAM		2	/* VRAM, 64-bit prefetchable */
#define VX_MMIO_SIZE		0x10000

/* ------------------------------------------------- device memory map */
/* A kernel sees VRAM offset x at device address VX_VRAM_DEVADDR + x.   */
#define VX_VRAM_DEVADDR		0x80000000u
#define VX_VRAM_MAX_SIZE	0x80000000u	/* 2 GiB */
#define VX_VRAM_MIN_SIZE	0x01000000u	/* 16 MiB */

/* ------------------------------------------------ identification */
#define VX_REG_ID		0x0000	/* RO: VX_ID_MAGIC */
#define   VX_ID_MAGIC		0x58545256u	/* "VRTX" little endian */
#define VX_REG_VERSION		0x0004	/* RO: major[31:16] minor[15:0] */
#define   VX_VERSION_MAJOR(v)	VX_GET(v, 31, 16)
#define   VX_VERSION_MINOR(v)	VX_GET(v, 15, 0)
#define   VX_VERSION_CURRENT	0x00010000u	/* 1.0 */
#define VX_REG_CAPS		0x0008	/* RO: feature bits */
#define   VX_CAPS_DM		VX_BIT(0)	/* Debug Module present */
#define   VX_CAPS_RING		VX_BIT(1)	/* command processor and ring */
#define   VX_CAPS_FPU		VX_BIT(2)	/* RV32F */
/*
 * DOORBELL takes the new RING_TAIL as its value, and the write itself runs
 * an idle card for a small budget: a FENCE executed then is in FENCE_SEQNO
 * when the write returns, and raises no interrupt (docs/hardware.md).
 */
#define   VX_CAPS_FAST_DOORBELL	VX_BIT(3)
/* Sv32 translation: LAUNCH's SATP dword and the TLB registers below. */
#define   VX_CAPS_MMU		VX_BIT(4)
/* Byte stores to IO_COUT are kept in the CONS_* ring below. */
#define   VX_CAPS_CONSOLE	VX_BIT(5)
/* Per-core local memory at VX_LMEM_BASE_ADDR, LMEM_SIZE bytes. */
#define   VX_CAPS_LMEM		VX_BIT(6)
#define VX_REG_VRAM_SIZE_LO	0x0010	/* RO: VRAM bytes, low word */
#define VX_REG_VRAM_SIZE_HI	0x0014	/* RO: VRAM bytes, high word */
#define VX_REG_VRAM_DEVADDR	0x0018	/* RO: VX_VRAM_DEVADDR */
#define VX_REG_LMEM_SIZE	0x001c	/* RO: local memory bytes per core */

/* --------------------------------------------------- control, status */
#define VX_REG_RESET		0x0020	/* W: VX_RESET_KEY resets cores+CP */
#define   VX_RESET_KEY		0x52535421u	/* "!TSR": stray writes do nothing */
#define VX_REG_STATUS		0x0024	/* RO */
#define   VX_STATUS_CP_BUSY	VX_BIT(0)	/* a packet is being executed */
#define   VX_STATUS_ERROR	VX_BIT(1)	/* stopped on an error, needs reset */
#define   VX_STATUS_WARPS_ACTIVE VX_BIT(2)	/* at least one warp has a context */
#define   VX_STATUS_HALTED	VX_BIT(3)	/* at least one warp debug-halted */
#define VX_REG_IRQ_STATUS	0x0030	/* RW1C: pending causes */
#define VX_REG_IRQ_ENABLE	0x0034	/* RW: causes that assert the interrupt */
#define   VX_IRQ_FENCE		VX_BIT(0)	/* a FENCE packet asked for it */
#define   VX_IRQ_ERROR		VX_BIT(1)	/* exception or bad packet */
#define   VX_IRQ_DEBUG		VX_BIT(2)	/* a warp entered debug halt */
#define   VX_IRQ_ALL		(VX_IRQ_FENCE | VX_IRQ_ERROR | VX_IRQ_DEBUG)
#define VX_REG_CLOCK_LO		0x0038	/* RO: device cycles, low word */
#define VX_REG_CLOCK_HI		0x003c	/* RO: high word (latched on LO read) */

/* -------------------------------------------------- command ring */
#define VX_REG_RING_BASE	0x0040	/* RW: device address, size-aligned */
#define VX_REG_RING_SIZE	0x0044	/* RW: bytes, power of 2 */
#define   VX_RING_SIZE_MIN	0x1000u
#define   VX_RING_SIZE_MAX	0x1000000u
#define VX_REG_RING_HEAD	0x0048	/* RO: byte offset the CP reads next */
#define VX_REG_RING_TAIL	0x004c	/* RW: byte offset past the last packet */
#define VX_REG_RING_CTRL	0x0050	/* RW */
#define   VX_RING_CTRL_ENABLE	VX_BIT(0)
#define VX_REG_DOORBELL		0x0054	/* W: CP samples TAIL; see CAPS_FAST_DOORBELL */
#define VX_REG_FENCE_SEQNO	0x0060	/* RO: seqno of the last FENCE */

/* ----------------------------------------- error capture (sticky) */
#define VX_REG_ERR_CAUSE	0x0080	/* RO: VX_ERR_*, 0 = none */
#define VX_REG_ERR_WARP		0x0084	/* RO: global warp id */
#define VX_REG_ERR_THREAD	0x0088	/* RO: lowest faulting lane */
#define VX_REG_ERR_PC		0x008c	/* RO: PC of the faulting instruction */
#define VX_REG_ERR_TMASK(n)	(0x0090 + 4 * (n))	/* RO: n = 0..3, lanes 32n..32n+31 */
#define VX_REG_ERR_ADDR		0x00a0	/* RO: bad address or instruction */
#define VX_REG_ERR_INFO(n)	(0x00a4 + 4 * (n))	/* RO: n = 0..3, assert a0..a3 */
#define VX_REG_ERR_PKT		0x00b4	/* RO: ring offset of the packet */

#define VX_ERR_NONE		0
#define VX_ERR_ILLEGAL_INSTR	1
#define VX_ERR_MISALIGNED_LOAD	2
#define VX_ERR_MISALIGNED_STORE	3
#define VX_ERR_LOAD_FAULT	4	/* load outside device memory */
#define VX_ERR_STORE_FAULT	5	/* store outside device memory */
#define VX_ERR_FETCH_FAULT	6	/* fetch outside VRAM or misaligned */
#define VX_ERR_EBREAK		7	/* ebreak while DCONFIG.ebreakh = 0 */
#define VX_ERR_ASSERT		8	/* VX_TRAP_ASSERT, see docs */
#define VX_ERR_ECALL		9
#define VX_ERR_DIVERGENCE	10	/* IPDOM stack overflow or bad join */
#define VX_ERR_BAD_PACKET	11	/* CP could not parse or run a packet */
#define VX_ERR_BARRIER		12	/* bar with an impossible warp count */
#define VX_ERR_MISALIGNED_FETCH	13	/* taken jump or branch to a PC not 4-aligned */
/* Sv32 translation refused the access; ERR_ADDR is the virtual address. */
#define VX_ERR_FETCH_PAGE_FAULT	14
#define VX_ERR_LOAD_PAGE_FAULT	15
#define VX_ERR_STORE_PAGE_FAULT	16
/* a conditional branch whose active lanes disagree, outside split/join */
#define VX_ERR_DIVERGENT_BRANCH	17

/* ------------------------------------------------- upstream's memory map */
/*
 * Addresses a Vortex kernel uses whatever its page tables say: upstream
 * Vortex's defaults for RV32 (hw/rtl/VX_config.vh, docs/hardware.md
 * "Upstream's memory map").  Local memory and IO_COUT are decided on the
 * address a lane computes, before translation; the stack and the rest of
 * the I/O area are ordinary memory, there when a page table maps them.
 */
#define VX_STACK_BASE_ADDR	0xffff0000u	/* stacks grow down from here */
#define VX_LMEM_BASE_ADDR	0xffff0000u	/* = STACK_BASE_ADDR upstream */
#define VX_LMEM_LOG_SIZE	14
#define VX_LMEM_SIZE		(1u << VX_LMEM_LOG_SIZE)	/* per core */
#define VX_IO_BASE_ADDR		0x00000040u
#define VX_IO_END_ADDR		0x00010000u	/* USER_BASE_ADDR */
#define VX_IO_COUT_ADDR		VX_IO_BASE_ADDR	/* + (mhartid & 63) */
#define VX_IO_COUT_SIZE		64
#define VX_IO_MPM_ADDR		(VX_IO_COUT_ADDR + VX_IO_COUT_SIZE)

/* ------------------------------------------------------------ console */
/*
 * A ring of 4-byte records in VRAM that the card fills with the bytes
 * kernels store to IO_COUT and the driver drains (docs/hardware.md,
 * "Console").  Writes to BASE and SIZE are ignored while it is enabled.
 */
#define VX_REG_CONS_BASE	0x00d0	/* RW: device address, size-aligned */
#define VX_REG_CONS_SIZE	0x00d4	/* RW: bytes, power of 2 */
#define   VX_CONS_SIZE_MIN	0x1000u
#define   VX_CONS_SIZE_MAX	0x1000000u
#define VX_REG_CONS_HEAD	0x00d8	/* RW: byte offset the driver reads next */
#define VX_REG_CONS_TAIL	0x00dc	/* RO: byte offset the card writes next */
#define VX_REG_CONS_CTRL	0x00e0	/* RW */
#define   VX_CONS_CTRL_ENABLE	VX_BIT(0)
#define VX_REG_CONS_DROPPED	0x00e4	/* RO: bytes not kept since RESET */
/* A record: the byte, and the mhartid of the lane that stored it. */
#define VX_CONS_REC_SIZE	4
#define VX_CONS_REC_CHAR(r)	VX_GET(r, 7, 0)
#define VX_CONS_REC_HART(r)	VX_GET(r, 31, 8)
#define VX_CONS_REC_MAKE(hart, ch)	(VX_PUT(hart, 31, 8) | VX_PUT(ch, 7, 0))

/* ------------------------------------------ address translation (TLB) */
/*
 * Invalidation: write the ASID and the virtual address, then the command.
 * The same three values make a VX_PKT_TLB_INVAL packet, which the CP runs
 * in ring order (after the LAUNCH before it has finished).
 */
#define VX_REG_TLB_ASID		0x00c0	/* RW: ASID for TLB_INVAL, bits 8:0 */
#define VX_REG_TLB_VA		0x00c4	/* RW: virtual address for TLB_INVAL */
#define VX_REG_TLB_INVAL	0x00c8	/* W: VX_TLB_INVAL_*, reads 0 */
#define   VX_TLB_INVAL_ALL	1	/* every entry of every ASID */
#define   VX_TLB_INVAL_ASID	2	/* every entry of TLB_ASID */
#define   VX_TLB_INVAL_PAGE	3	/* TLB_ASID's entries for TLB_VA's page */

/* LAUNCH's SATP dword: RV32 satp's layout. MODE = 0: untranslated. */
#define VX_SATP_MODE		VX_BIT(31)
#define VX_SATP_ASID(v)		VX_GET(v, 30, 22)
#define VX_SATP_PPN(v)		VX_GET(v, 21, 0)
#define VX_SATP_MAKE(asid, ppn) \
	(VX_SATP_MODE | VX_PUT(asid, 30, 22) | VX_PUT(ppn, 21, 0))
#define VX_ASID_MAX		0x1ff

/* Sv32 page table entry (RISC-V privileged spec) */
#define VX_PTE_V		VX_BIT(0)
#define VX_PTE_R		VX_BIT(1)
#define VX_PTE_W		VX_BIT(2)
#define VX_PTE_X		VX_BIT(3)
#define VX_PTE_U		VX_BIT(4)
#define VX_PTE_G		VX_BIT(5)	/* ignored: no global entries */
#define VX_PTE_A		VX_BIT(6)
#define VX_PTE_D		VX_BIT(7)
#define VX_PTE_PPN(pte)		VX_GET(pte, 31, 10)	/* 22 bits */
#define VX_PTE_MAKE(ppn, flags)	(VX_PUT(ppn, 31, 10) | (flags))
#define VX_PAGE_SHIFT		12
#define VX_MEGAPAGE_SHIFT	22

/* ---------------------------------------------------- Debug Module */
/* DM register n lives at VX_DM_BASE + 4 * n.                          */
#define VX_DM_BASE		0x1000
#define VX_DM_REG(n)		(VX_DM_BASE + 4 * (n))
#define VX_DM_PLATFORM		0x0
#define VX_DM_DCONFIG		0x1
#define VX_DM_DSELECT		0x2
#define VX_DM_WMASK		0x3
#define VX_DM_WACTIVE		0x4
#define VX_DM_WSTATUS		0x5
#define VX_DM_DCTRL		0x6
#define VX_DM_DPC		0x7
#define VX_DM_INJECT		0x8
#define VX_DM_DSCRATCH(n)	(0x9 + (n))	/* n = 0..3 */
#define VX_DM_NREGS		0xd

/* PLATFORM (fields from bit 0 upward, as in vxdebug-spec.md) */
#define VX_PLATFORM_NUMTHREADS_LOG2(v)	VX_GET(v, 2, 0)
#define VX_PLATFORM_NUMWARPS(v)		VX_GET(v, 11, 3)
#define VX_PLATFORM_NUMCORES(v)		VX_GET(v, 20, 12)
#define VX_PLATFORM_NUMCLUSTERS(v)	VX_GET(v, 27, 21)
#define VX_PLATFORM_ID(v)		VX_GET(v, 31, 28)
#define VX_PLATFORM_MAKE(tlog2, warps, cores, clusters) \
	(VX_PUT(tlog2, 2, 0) | VX_PUT(warps, 11, 3) | VX_PUT(cores, 20, 12) | \
	 VX_PUT(clusters, 27, 21) | VX_PUT(VX_PLATFORM_ID_VORTEX, 31, 28))
#define VX_PLATFORM_ID_VORTEX		1

/* DCONFIG */
#define VX_DCONFIG_EBREAKH		VX_BIT(0)
#define VX_DCONFIG_RHC(v)		VX_GET(v, 28, 26)	/* log2 cycles */
#define VX_DCONFIG_NRC(v)		VX_GET(v, 31, 29)	/* log2 cycles */
#define VX_DCONFIG_RHC_PUT(x)		VX_PUT(x, 28, 26)
#define VX_DCONFIG_NRC_PUT(x)		VX_PUT(x, 31, 29)
#define VX_DCONFIG_WRITABLE		(VX_DCONFIG_EBREAKH | VX_MASK(31, 26))

/* DSELECT */
#define VX_DSELECT_THREADSEL(v)		VX_GET(v, 6, 0)
#define VX_DSELECT_WARPSEL(v)		VX_GET(v, 21, 7)
#define VX_DSELECT_WINSEL(v)		VX_GET(v, 31, 22)
#define VX_DSELECT_MAKE(winsel, warpsel, threadsel) \
	(VX_PUT(threadsel, 6, 0) | VX_PUT(warpsel, 21, 7) | VX_PUT(winsel, 31, 22))
#define VX_DM_MAX_WARPS			32768
#define VX_DM_MAX_THREADS		128

/* DCTRL */
#define VX_DCTRL_HALTREQ		VX_BIT(0)	/* W */
#define VX_DCTRL_RESUMEREQ		VX_BIT(1)	/* W */
#define VX_DCTRL_RESETHALTREQ		VX_BIT(2)	/* W */
#define VX_DCTRL_STEPREQ		VX_BIT(3)	/* W */
#define VX_DCTRL_STEPSTATE(v)		VX_GET(v, 5, 4)	/* R */
#define VX_DCTRL_INJECTREQ		VX_BIT(6)	/* W */
#define VX_DCTRL_INJECTSTATE(v)		VX_GET(v, 8, 7)	/* R */
#define VX_DCTRL_HACAUSE(v)		VX_GET(v, 11, 9)	/* R */
/* Bits 12..19 are reserved by the spec; this implementation uses 12, 13. */
#define VX_DCTRL_INJECTERR		VX_BIT(12)	/* R: last inject faulted */
#define VX_DCTRL_INJECTWARP		VX_BIT(13)	/* W: inject into every thread */
#define VX_DCTRL_ANYUNAVAIL		VX_BIT(24)
#define VX_DCTRL_ALLUNAVAIL		VX_BIT(25)
#define VX_DCTRL_ANYRUNNING		VX_BIT(26)
#define VX_DCTRL_ALLRUNNING		VX_BIT(27)
#define VX_DCTRL_ANYHALTED		VX_BIT(28)
#define VX_DCTRL_ALLHALTED		VX_BIT(29)
#define VX_DCTRL_NDMRESET		VX_BIT(30)	/* RW */
#define VX_DCTRL_DMACTIVE		VX_BIT(31)	/* RW */

#define VX_REQSTATE_NONE		0
#define VX_REQSTATE_REQ			1
#define VX_REQSTATE_INFLIGHT		2

#define VX_HACAUSE_NONE			0
#define VX_HACAUSE_EBREAK		1
#define VX_HACAUSE_HALTREQ		2
#define VX_HACAUSE_STEP			3
#define VX_HACAUSE_RESETHALTREQ		4

/* -------------------------------------------------- ring packets */
/* Header dword: opcode[7:0], reserved[15:8] = 0, payload dwords[31:16]. */
#define VX_PKT_HDR(op, ndw)		(VX_PUT(op, 7, 0) | VX_PUT(ndw, 31, 16))
#define VX_PKT_OP(hdr)			VX_GET(hdr, 7, 0)
#define VX_PKT_NDW(hdr)			VX_GET(hdr, 31, 16)
#define VX_PKT_RSVD(hdr)		VX_GET(hdr, 15, 8)

#define VX_PKT_NOP			0x00	/* any payload, skipped */
#define VX_PKT_LAUNCH			0x01
#define VX_PKT_FENCE			0x02
#define VX_PKT_TLB_INVAL		0x03

/* LAUNCH payload, dword index after the header */
#define VX_LAUNCH_ENTRY			0	/* entry PC */
#define VX_LAUNCH_ARG			1	/* -> mscratch and a0 */
#define VX_LAUNCH_GRID_X		2
#define VX_LAUNCH_GRID_Y		3
#define VX_LAUNCH_GRID_Z		4
#define VX_LAUNCH_BLOCK_X		5
#define VX_LAUNCH_BLOCK_Y		6
#define VX_LAUNCH_BLOCK_Z		7
#define VX_LAUNCH_STACK_BASE		8	/* device address */
#define VX_LAUNCH_STACK_SIZE		9	/* bytes per hardware thread */
#define VX_LAUNCH_FLAGS			10	/* VX_LAUNCH_FLAG_* */
#define VX_LAUNCH_SATP			11	/* VX_SATP_*; 0 = untranslated */
#define VX_LAUNCH_RSVD			VX_LAUNCH_SATP	/* its old name */
#define VX_LAUNCH_NDW			12

/*
 * LAUNCH flags.  CORES: Vortex's own start (upstream's processor after its
 * STARTUP_ADDR/STARTUP_ARG DCR writes): warp 0 lane 0 of every core starts
 * at ENTRY with mscratch = ARG and every other register 0; GRID, BLOCK and
 * STACK_* must be 0.
 */
#define VX_LAUNCH_FLAG_CORES		(1u << 0)
#define VX_LAUNCH_FLAGS_ALL		VX_LAUNCH_FLAG_CORES

/* FENCE payload */
#define VX_FENCE_SEQNO			0
#define VX_FENCE_FLAGS			1
#define   VX_FENCE_FLAG_IRQ		VX_BIT(0)
#define VX_FENCE_NDW			2

/* TLB_INVAL payload: what TLB_INVAL, TLB_ASID, TLB_VA would hold */
#define VX_TLBI_CMD			0	/* VX_TLB_INVAL_* */
#define VX_TLBI_ASID			1
#define VX_TLBI_VA			2
#define VX_TLBI_NDW			3

/* ------------------------------------------------ core-visible CSRs */
#define VX_CSR_MSCRATCH			0x340	/* kernel argument pointer */
#define VX_CSR_MISA			0x301
#define VX_CSR_DSCRATCH(n)		(0x7b2 + (n))	/* per-thread, n = 0..3 */
#define VX_CSR_MHARTID			0xf14	/* global hardware thread id */
#define VX_CSR_THREAD_ID		0xcc0	/* lane within the warp */
#define VX_CSR_WARP_ID			0xcc1	/* warp within the core */
#define VX_CSR_CORE_ID			0xcc2	/* global core id */
#define VX_CSR_ACTIVE_WARPS		0xcc3	/* mask of the core's active warps */
#define VX_CSR_ACTIVE_THREADS		0xcc4	/* the warp's thread mask */
#define VX_CSR_NUM_THREADS		0xfc0	/* threads per warp */
#define VX_CSR_NUM_WARPS		0xfc1	/* warps per core */
#define VX_CSR_NUM_CORES		0xfc2	/* cores in the device */
#define VX_CSR_LOCAL_MEM_BASE		0xfc3	/* VX_LMEM_BASE_ADDR */
#define VX_CSR_BLOCK_IDX(d)		(0xcd0 + (d))	/* d = 0..2: x, y, z */
#define VX_CSR_BLOCK_DIM(d)		(0xcd3 + (d))
#define VX_CSR_GRID_DIM(d)		(0xcd6 + (d))
#define VX_CSR_THREAD_IDX(d)		(0xcd9 + (d))	/* within the block */
#define VX_CSR_WARP_IN_BLOCK		0xcdc	/* warp index within the block */

/*
 * Upstream Vortex's machine CSRs (hw/rtl/VX_types.vh): the ones a kernel
 * may touch that read 0 and ignore writes, and the counters.
 */
#define VX_CSR_SATP			0x180
#define VX_CSR_MSTATUS			0x300
#define VX_CSR_MEDELEG			0x302
#define VX_CSR_MIDELEG			0x303
#define VX_CSR_MIE			0x304
#define VX_CSR_MTVEC			0x305
#define VX_CSR_MEPC			0x341
#define VX_CSR_MCAUSE			0x342
#define VX_CSR_PMPCFG0			0x3a0
#define VX_CSR_PMPADDR0			0x3b0
#define VX_CSR_MNSTATUS			0x744
#define VX_CSR_MPM_BASE			0xb00	/* 0xb00..0xb1f, low halves */
#define VX_CSR_MPM_BASE_H		0xb80	/* 0xb80..0xb9f, high halves */
#define VX_CSR_MCYCLE			0xb00	/* the core's cycles */
#define VX_CSR_MCYCLE_H			0xb80
#define VX_CSR_MINSTRET			0xb02	/* the core's warp instructions */
#define VX_CSR_MINSTRET_H		0xb82
/* misa: MXL 1 (RV32), extensions A, F, I, M */
#define VX_MISA				0x40001121

/* --------------------------------------------- custom instructions */
/* custom-0 (opcode 0x0b), R-type, funct7 = 0: Vortex SIMT control      */
#define VX_OPCODE_CUSTOM0		0x0b
#define VX_F3_TMC			0
#define VX_F3_WSPAWN			1
#define VX_F3_SPLIT			2
#define VX_F3_JOIN			3
#define VX_F3_BAR			4
#define VX_F3_PRED			5
/* custom-1 (opcode 0x2b), R-type, funct7 = 0: traps of this device     */
#define VX_OPCODE_CUSTOM1		0x2b
#define VX_F3_TRAP_ASSERT		0	/* a0..a3 -> ERR_INFO0..3 */

#endif /* VORTEX_REGS_H */
