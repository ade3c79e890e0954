// SPDX-License-Identifier: GPL-2.0
/* Copyright 2026 The Vortex driver authors */

/**
 * DOC: Vortex accel driver: device node, files and PCI glue
 *
 * This file only wires things together: the module parameters, the ioctl
 * table, per-file open/close, &struct drm_driver and PCI probe/remove.  The
 * card is a DRM accel device (/dev/accel/accelN); the logic lives in
 * vortex_device.c (registers, reset, IRQ), vortex_gem.c (VRAM buffers),
 * vortex_job.c (ring, scheduler, recovery), vortex_core_ioctl.c (which DRM
 * core ioctls the node accepts), vortex_debugfs.c and vortex_fdinfo.c.
 *
 * Remove is a real hot-unplug (QEMU device_del) with files possibly open:
 * the buffers' CPU mappings are cut first, before anything can see the
 * device node go (vortex_gem_unplug()), then drm_dev_unplug(), so every
 * later ioctl and job sees the device gone, then the card is quietened and
 * its job failed.  What the files still hold is released with the DRM
 * device, after the last close.
 */

#include <linux/module.h>
#include <linux/pci.h>
#include <linux/string_helpers.h>
#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_print.h>

#include "vortex_compat.h"
#include "vortex_accel.h"
#include "vortex_code_object.h"
#include "vortex_fault.h"
#include "vortex_core_ioctl.h"
#include "vortex_debug.h"
#include "vortex_debugfs.h"
#include "vortex_device.h"
#include "vortex_dump.h"
#include "vortex_fdinfo.h"
#include "vortex_gem.h"
#include "vortex_job.h"
#include "vortex_user.h"
#include "vortex_vm.h"

#define VORTEX_TIMEOUT_MIN_MS	10
#define VORTEX_TIMEOUT_MAX_MS	60000

/* A value out of range fails the module load (or the write) with -EINVAL. */
static int vortex_timeout_param_set(const char *val, const struct kernel_param *kp)
{
	int ret = param_set_uint_minmax(val, kp, VORTEX_TIMEOUT_MIN_MS,
					VORTEX_TIMEOUT_MAX_MS);

	if (ret)
		pr_err("vortex: job_timeout_ms=%s refused: it must be %u..%u\n",
		       val, VORTEX_TIMEOUT_MIN_MS, VORTEX_TIMEOUT_MAX_MS);
	return ret;
}

static const struct kernel_param_ops vortex_timeout_param_ops = {
	.set = vortex_timeout_param_set,
	.get = param_get_uint,
};

unsigned int vortex_job_timeout_ms = 2000;
module_param_cb(job_timeout_ms, &vortex_timeout_param_ops,
		&vortex_job_timeout_ms, 0644);
MODULE_PARM_DESC(job_timeout_ms,
		 "Time a job may hold the card before it is stopped with -ETIMEDOUT, in ms (default 2000, 10..60000; a change applies from each job's next check)");

static int vortex_get_param_ioctl(struct drm_device *drm, void *data,
				  struct drm_file *file)
{
	struct vortex_device *vdev = to_vortex_device(drm);
	struct drm_vortex_get_param *args = data;

	if (args->pad) {
		drm_dbg(drm, "GET_PARAM pad not zero\n");
		return -EINVAL;
	}

	switch (args->param) {
	case DRM_VORTEX_PARAM_DEVICE_VERSION:
		args->value = vdev->version;
		break;
	case DRM_VORTEX_PARAM_PLATFORM:
		args->value = vdev->platform;
		break;
	case DRM_VORTEX_PARAM_NUM_CLUSTERS:
		args->value = vdev->num_clusters;
		break;
	case DRM_VORTEX_PARAM_NUM_CORES:
		args->value = vdev->num_cores;
		break;
	case DRM_VORTEX_PARAM_NUM_WARPS:
		args->value = vdev->num_warps;
		break;
	case DRM_VORTEX_PARAM_NUM_THREADS:
		args->value = vdev->num_threads;
		break;
	case DRM_VORTEX_PARAM_VRAM_SIZE:
		args->value = vdev->vram_size;
		break;
	case DRM_VORTEX_PARAM_VRAM_DEVADDR:
		args->value = vdev->devaddr;
		break;
	case DRM_VORTEX_PARAM_CAPABILITIES:
		args->value = DRM_VORTEX_CAP_SUBMIT | DRM_VORTEX_CAP_SYNCOBJ |
			      DRM_VORTEX_CAP_DUMP;
		if (vortex_debug_enable)
			args->value |= DRM_VORTEX_CAP_DEBUG;
		if (vortex_job_fast_lane(vdev))
			args->value |= DRM_VORTEX_CAP_FAST_LANE;
		args->value |= DRM_VORTEX_CAP_VM | DRM_VORTEX_CAP_BO_ACCESS |
			       DRM_VORTEX_CAP_CORES | DRM_VORTEX_CAP_VM_BIND |
			       DRM_VORTEX_CAP_BO_LABEL | DRM_VORTEX_CAP_BO_NO_DUMP |
			       DRM_VORTEX_CAP_FAULT;
		if (vdev->caps & VX_CAPS_CONSOLE)
			args->value |= DRM_VORTEX_CAP_CONSOLE;
		break;
	case DRM_VORTEX_PARAM_JOB_TIMEOUT_MS:
		args->value = vortex_job_timeout_ms;
		break;
	case DRM_VORTEX_PARAM_MAX_JOBS_IN_FLIGHT:
		args->value = VORTEX_MAX_JOBS_IN_FLIGHT;
		break;
	default:
		drm_dbg(drm, "GET_PARAM: unknown param %u\n", args->param);
		return -EINVAL;
	}
	return 0;
}

static void vortex_file_release(struct kref *ref)
{
	struct vortex_file *vfile = container_of(ref, struct vortex_file, ref);

	/* Its jobs are gone too: nothing can use the space any more. */
	vortex_vm_destroy(vfile->vm);
	vortex_job_file_release(vfile);
	vortex_console_file_release(vfile);
	vortex_user_put(vfile->user);
	put_pid(vfile->pid);
	kfree(vfile->cmdline);
	kfree(vfile);
}

/**
 * vortex_file_put() - drop a reference to a file's state
 * @vfile: the file
 *
 * The last one frees it.
 */
void vortex_file_put(struct vortex_file *vfile)
{
	kref_put(&vfile->ref, vortex_file_release);
}

static int vortex_open(struct drm_device *drm, struct drm_file *file)
{
	struct vortex_file *vfile;
	int ret;

	vfile = kzalloc(sizeof(*vfile), GFP_KERNEL_ACCOUNT);
	if (!vfile)
		return -ENOMEM;

	vfile->vdev = to_vortex_device(drm);
	kref_init(&vfile->ref);
	mutex_init(&vfile->lock);
	vortex_code_object_init(vfile);

	vfile->user = vortex_user_get(vfile->vdev);
	if (IS_ERR(vfile->user)) {
		ret = PTR_ERR(vfile->user);
		goto err_free;
	}
	ret = vortex_user_open(vfile->user);
	if (ret)
		goto err_user_put;
	vfile->vm = vortex_vm_create(vfile->vdev);
	if (IS_ERR(vfile->vm)) {
		ret = PTR_ERR(vfile->vm);
		goto err_user_close;
	}
	ret = vortex_console_file_open(vfile);
	if (ret)
		goto err_vm;
	ret = vortex_job_file_open(vfile);
	if (ret)
		goto err_console;
	vfile->pid = get_task_pid(current, PIDTYPE_TGID);
	get_task_comm(vfile->comm, current);
	vfile->cmdline = kstrdup_quotable_cmdline(current, GFP_KERNEL_ACCOUNT);
	vortex_dump_file_open(vfile);
	vortex_fault_file_open(vfile);

	file->driver_priv = vfile;
	return 0;

err_console:
	vortex_console_file_release(vfile);
err_vm:
	vortex_vm_destroy(vfile->vm);
err_user_close:
	vortex_user_close(vfile->user);
err_user_put:
	vortex_user_put(vfile->user);
err_free:
	kfree(vfile);
	return ret;
}

static void vortex_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct vortex_file *vfile = file->driver_priv;

	vortex_job_file_close(vfile);
	vortex_console_file_close(vfile);
	vortex_code_object_fini(vfile);
	/* DRM released the file's syncobjs before this. */
	vortex_user_syncobj_del(vfile->user, atomic_read(&vfile->syncobjs));
	vortex_user_close(vfile->user);
	/* Jobs still alive keep their own reference. */
	vortex_file_put(vfile);
}

static const struct drm_ioctl_desc vortex_ioctls[] = {
#define VORTEX_IOCTL(n, func) \
	DRM_IOCTL_DEF_DRV(VORTEX_##n, func, 0)
	VORTEX_IOCTL(GET_PARAM, vortex_get_param_ioctl),
	VORTEX_IOCTL(BO_CREATE, vortex_gem_bo_create_ioctl),
	VORTEX_IOCTL(BO_INFO, vortex_gem_bo_info_ioctl),
	VORTEX_IOCTL(SUBMIT, vortex_job_submit_ioctl),
	VORTEX_IOCTL(WAIT, vortex_job_wait_ioctl),
	VORTEX_IOCTL(VM_BIND, vortex_vm_bind_ioctl),
	VORTEX_IOCTL(DCR, vortex_dcr_ioctl),
	VORTEX_IOCTL(CONSOLE, vortex_console_ioctl),
	VORTEX_IOCTL(BO_SET_LABEL, vortex_gem_bo_set_label_ioctl),
	VORTEX_IOCTL(FAULT, vortex_fault_ioctl),
	VORTEX_IOCTL(DEBUG_ATTACH, vortex_debug_attach_ioctl),
	VORTEX_IOCTL(CODE_OBJECT, vortex_code_object_ioctl),
	VORTEX_IOCTL(DUMP_CONFIG, vortex_dump_config_ioctl),
#undef VORTEX_IOCTL
};

/* DRM_ACCEL_FOPS, with the core ioctls filtered (vortex_core_ioctl.c). */
static const struct file_operations vortex_fops = {
	.owner = THIS_MODULE,
	.open = accel_open,
	.release = drm_release,
	.unlocked_ioctl = vortex_accel_ioctl,
	.compat_ioctl = vortex_accel_compat_ioctl,
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
	.mmap = drm_gem_mmap,
	.fop_flags = FOP_UNSIGNED_OFFSET,
	.show_fdinfo = drm_show_fdinfo,
};

static const struct drm_driver vortex_drm_driver = {
	.driver_features = DRIVER_COMPUTE_ACCEL | DRIVER_GEM | DRIVER_SYNCOBJ |
			   VORTEX_DRIVER_GEM_GPUVA,
	.open = vortex_open,
	.postclose = vortex_postclose,
	.show_fdinfo = vortex_fdinfo_show,
	.ioctls = vortex_ioctls,
	.num_ioctls = ARRAY_SIZE(vortex_ioctls),
	.fops = &vortex_fops,
	.name = "vortex",
	.desc = "Vortex RISC-V SIMT GPGPU",
	VORTEX_DRIVER_DATE
	.major = 1,
	.minor = 0,
};

static int vortex_pci_map(struct vortex_device *vdev)
{
	struct pci_dev *pdev = vdev->pdev;
	int ret;

	vdev->mmio = pcim_iomap_region(pdev, VX_BAR_MMIO, KBUILD_MODNAME);
	if (IS_ERR(vdev->mmio))
		return PTR_ERR(vdev->mmio);
	if (pci_resource_len(pdev, VX_BAR_MMIO) < VX_MMIO_SIZE)
		return -ENODEV;

	ret = pcim_request_region(pdev, VX_BAR_VRAM, KBUILD_MODNAME);
	if (ret)
		return ret;
	/* Also registers the BAR as write-combining for the user mappings. */
	vdev->vram_bus = pci_resource_start(pdev, VX_BAR_VRAM);
	vdev->vram = devm_ioremap_wc(&pdev->dev, vdev->vram_bus,
				     pci_resource_len(pdev, VX_BAR_VRAM));
	return vdev->vram ? 0 : -ENOMEM;
}

static int vortex_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct vortex_device *vdev;
	int ret, idx;

	vdev = devm_drm_dev_alloc(&pdev->dev, &vortex_drm_driver,
				  struct vortex_device, drm);
	if (IS_ERR(vdev))
		return PTR_ERR(vdev);
	vdev->pdev = pdev;
	pci_set_drvdata(pdev, vdev);

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;

	ret = vortex_pci_map(vdev);
	if (ret)
		return ret;

	/* MSI is a memory write from the card: it needs bus mastering. */
	pci_set_master(pdev);

	ret = vortex_device_init(vdev);
	if (ret)
		return ret;

	ret = vortex_gem_init(vdev);
	if (ret)
		goto err_device_fini;
	ret = vortex_user_init(vdev);
	if (ret)
		goto err_device_fini;
	ret = vortex_vm_init(vdev);
	if (ret)
		goto err_device_fini;

	ret = vortex_job_init(vdev);
	if (ret)
		goto err_device_fini;
	ret = vortex_fence_wb_init(vdev);
	if (ret)
		goto err_device_fini;
	ret = vortex_dump_init(vdev);
	if (ret)
		goto err_device_fini;
	ret = vortex_console_init(vdev);
	if (ret)
		goto err_device_fini;
	vortex_debugfs_init(vdev);

	/* Not registered yet: nobody else can be in here. */
	if (drm_dev_enter(&vdev->drm, &idx)) {
		vortex_device_reset(vdev);
		/* The clock survives resets: count jobs' cycles from here. */
		vortex_job_clock_start(vdev);
		drm_dev_exit(idx);
	}

	ret = drm_dev_register(&vdev->drm, 0);
	if (ret)
		goto err_device_fini;

	return 0;

err_device_fini:
	vortex_device_fini(vdev);
	return ret;
}

static void vortex_pci_remove(struct pci_dev *pdev)
{
	struct vortex_device *vdev = pci_get_drvdata(pdev);

	/* No process reads VRAM once unplug has begun. */
	vortex_gem_unplug(vdev);
	vortex_gate_pass(&vdev->unplug_gate);
	/* From here on ioctls and run_job see the device gone. */
	drm_dev_unplug(&vdev->drm);
	vortex_dump_fini(vdev);
	vortex_device_fini(vdev);
	vortex_job_unplug(vdev);
}

static const struct pci_device_id vortex_pci_ids[] = {
	{ PCI_DEVICE(VX_PCI_VENDOR_ID, VX_PCI_DEVICE_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, vortex_pci_ids);

static struct pci_driver vortex_pci_driver = {
	.name = KBUILD_MODNAME,
	.id_table = vortex_pci_ids,
	.probe = vortex_pci_probe,
	.remove = vortex_pci_remove,
};
module_pci_driver(vortex_pci_driver);

MODULE_AUTHOR("The Vortex driver authors");
MODULE_DESCRIPTION("DRM accel driver for the Vortex RISC-V SIMT GPGPU");
MODULE_LICENSE("GPL");
