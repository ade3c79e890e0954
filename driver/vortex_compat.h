/* SPDX-License-Identifier: GPL-2.0 */
/* Copyright 2026 The Vortex driver authors */
#ifndef __VORTEX_COMPAT_H__
#define __VORTEX_COMPAT_H__

/*
 * The only place that knows kernel versions.  The driver targets 6.12;
 * Debian's 6.12.y took two drm_sched API changes from later kernels, at
 * 6.12.103 (the client id of drm_sched_job_init()) and 6.12.114 (struct
 * drm_sched_init_args).  Everything else calls the wrappers below.
 */

#include <linux/version.h>
#include <drm/drm_file.h>
#include <drm/gpu_scheduler.h>

static inline int vortex_sched_init(struct drm_gpu_scheduler *sched,
				    const struct drm_sched_backend_ops *ops,
				    struct workqueue_struct *submit_wq,
				    long timeout,
				    struct workqueue_struct *timeout_wq,
				    const char *name, struct device *dev)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 114)
	const struct drm_sched_init_args args = {
		.ops = ops,
		.submit_wq = submit_wq,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = 1,
		.timeout = timeout,
		.timeout_wq = timeout_wq,
		.name = name,
		.dev = dev,
	};

	return drm_sched_init(sched, &args);
#else
	return drm_sched_init(sched, ops, submit_wq, DRM_SCHED_PRIORITY_COUNT,
			      1, 0, timeout, timeout_wq, NULL, name, dev);
#endif
}

static inline int vortex_sched_job_init(struct drm_sched_job *job,
					struct drm_sched_entity *entity,
					struct drm_file *file)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 103)
	return drm_sched_job_init(job, entity, 1, NULL, file->client_id);
#else
	return drm_sched_job_init(job, entity, 1, NULL);
#endif
}

#endif /* __VORTEX_COMPAT_H__ */
