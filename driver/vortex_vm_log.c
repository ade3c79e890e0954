// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: VM log
 *
 * Each address space keeps its last %VORTEX_VM_LOG map and unmap
 * operations, as msm's ``vm-log`` does (msm_gem_vma.c): a buffer's handle
 * mapping made or let go (BO_CREATE, a PRIME import, GEM_CLOSE), and each
 * VM_BIND map and unmap, with the range and the file's newest job number
 * at the time.  They are logged where the PTEs are written or cleared
 * (vortex_vm_map_range(), vortex_vm_clear_range()), so an unmap appears
 * when the mapping really went, not when its handle was closed while
 * jobs still used it.  A crash dump copies the log (``vm-log:``), so a
 * kernel that faults on a buffer its program freed just before shows the
 * unmap of that range.
 */

#include <linux/spinlock.h>
#include <linux/string.h>

#include "vortex_vm.h"
#include "vortex_vm_internal.h"

/**
 * vortex_vm_log() - record a map or unmap of @vm
 * @vm: the space, its @lock held
 * @op: VORTEX_VM_LOG_MAP or VORTEX_VM_LOG_UNMAP
 * @va: first address
 * @range: bytes
 */
void vortex_vm_log(struct vortex_vm *vm, u8 op, u64 va, u64 range)
{
	struct vortex_vm_log_entry *e;
	unsigned long flags;

	spin_lock_irqsave(&vm->log_lock, flags);
	e = &vm->log[vm->log_count++ % VORTEX_VM_LOG];
	e->op = op;
	e->va = va;
	e->range = range;
	e->job = READ_ONCE(vm->job_seq);
	spin_unlock_irqrestore(&vm->log_lock, flags);
}

/**
 * vortex_vm_log_copy() - the space's logged operations, oldest first
 * @vm: the space
 * @out: receives up to %VORTEX_VM_LOG entries
 *
 * Takes only a spinlock, so recovery may call it with the card frozen.
 *
 * Return: the entries copied.
 */
u32 vortex_vm_log_copy(struct vortex_vm *vm, struct vortex_vm_log_entry *out)
{
	unsigned long flags;
	u64 first;
	u32 n, i;

	spin_lock_irqsave(&vm->log_lock, flags);
	n = min_t(u64, vm->log_count, VORTEX_VM_LOG);
	first = vm->log_count - n;
	for (i = 0; i < n; i++)
		out[i] = vm->log[(first + i) % VORTEX_VM_LOG];
	spin_unlock_irqrestore(&vm->log_lock, flags);
	return n;
}
