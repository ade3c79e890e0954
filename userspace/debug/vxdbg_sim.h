/* SPDX-License-Identifier: MIT */
/*
 * The simulator backend of libvortex-debug (host only): the simulator
 * core (qemu-device/sim) in-process, with a small runtime around it that
 * plays libvortex and the driver: it loads kernel ELFs into VRAM and
 * registers them as code objects, queues jobs on the card's ring, and
 * gives a debugger the session the driver would (vxdbg_backend.h), with
 * the driver's semantics: halt-at-start, breakpoints with step-over,
 * registers by injection, events, exceptions held for the debugger.
 *
 * Time only passes when someone runs the card: vxdbg_sim_run(),
 * vxdbg_sim_wait(), or a debugger waiting for an event.  So tests are
 * deterministic and need no threads.  There are no job timeouts.
 */
#ifndef VXDBG_SIM_H
#define VXDBG_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "vxdbg_backend.h"

struct vxdbg_sim;

/** Slots a debugger's wait of one millisecond lets the card run. */
#define VXDBG_SIM_SLOTS_PER_MS	20000

/**
 * vxdbg_sim_new() - a card in its power-on state, ring programmed
 * @topo: clusters, cores, warps, threads; vram_size (a power of two,
 *	16 MiB or more); vram_devaddr is filled in
 * @out: receives the card
 *
 * Return: 0, -EINVAL for a topology the card refuses, -ENOMEM.
 */
int vxdbg_sim_new(struct vxdbg_topology *topo, struct vxdbg_sim **out);

/** vxdbg_sim_free() - the card, its VRAM and any session; NULL ok. */
void vxdbg_sim_free(struct vxdbg_sim *s);

/**
 * vxdbg_sim_alloc() - zeroed VRAM, page aligned (no free: a bump allocator)
 * Return: 0 and the device address in @addr, or -ENOMEM.
 */
int vxdbg_sim_alloc(struct vxdbg_sim *s, uint64_t bytes, uint64_t *addr);

/** vxdbg_sim_ptr() - host pointer to device address @addr (NULL if outside VRAM). */
void *vxdbg_sim_ptr(struct vxdbg_sim *s, uint64_t addr);

/**
 * vxdbg_sim_load() - load a kernel ELF as libvortex does, and register it
 * as a code object (the ELF's bytes copied into VRAM too)
 * @base: receives the device address of ELF address 0
 * @entry: receives the entry PC
 *
 * Return: 0, -ENOEXEC, -ENOMEM.
 */
int vxdbg_sim_load(struct vxdbg_sim *s, const void *elf, size_t len,
		   uint64_t *base, uint64_t *entry);

/**
 * vxdbg_sim_unload() - unregister the newest code object whose image
 * holds @addr, as libvortex's vx_kernel_free() does (its memory stays)
 *
 * Return: 0, -ENOENT.
 */
int vxdbg_sim_unload(struct vxdbg_sim *s, uint64_t addr);

/**
 * struct vxdbg_sim_launch - one job
 * @entry: entry PC
 * @arg: argument pointer (a0; mscratch with VX_LAUNCH_FLAG_CORES)
 * @grid: blocks (0 counts as 1)
 * @block: threads per block (0 counts as 1)
 * @flags: VX_LAUNCH_FLAG_*: with CORES, Vortex's launch model (warp 0
 *	lane 0 of every core), @grid and @block unused
 * @satp: the LAUNCH's address space (VX_SATP_*), 0 untranslated
 */
struct vxdbg_sim_launch {
	uint64_t entry;
	uint64_t arg;
	uint32_t grid[3];
	uint32_t block[3];
	uint32_t flags;
	uint32_t satp;
};

/**
 * vxdbg_sim_launch() - queue a job; it starts when the card is free
 * @seqno: receives its number (what events call the job)
 *
 * Return: 0, -EBUSY when 64 jobs are queued.
 */
int vxdbg_sim_launch(struct vxdbg_sim *s, const struct vxdbg_sim_launch *l,
		     uint64_t *seqno);

/**
 * vxdbg_sim_run() - let the card run at most @budget slots
 * Return: slots used; 0 when nothing can run (idle, or all halted).
 */
uint64_t vxdbg_sim_run(struct vxdbg_sim *s, uint64_t budget);

/**
 * vxdbg_sim_wait() - run until job @seqno ends
 * @budget: slots at most
 * @status: receives 0, -EIO (exception) or -ECANCELED
 *
 * Return: 0 when it ended; -ETIME when it did not within @budget or can
 * no longer make progress (halted by a debugger); -ENOENT unknown seqno.
 */
int vxdbg_sim_wait(struct vxdbg_sim *s, uint64_t seqno, uint64_t budget, int *status);

/**
 * vxdbg_sim_attach() - a debug session on this card, as DEBUG_ATTACH gives
 * @out: receives the backend; its close() detaches (breakpoints restored,
 *	warps resumed, a frozen job ended)
 *
 * Return: 0, or -EBUSY if a session is attached.
 */
int vxdbg_sim_attach(struct vxdbg_sim *s, struct vxdbg_backend **out);

#endif /* VXDBG_SIM_H */
