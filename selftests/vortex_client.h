/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One client of the card, for every suite that opens a file with a code
 * and a data buffer: the file, both buffers made and mapped, listed for
 * SUBMIT (code read-only, data as the suite asks) and one job of one warp
 * at the code's start with the data as its argument (vx_submit_init()).
 * The suites keep their own programs and change the job as they need.
 *
 * A fixture that is a client plus its own fields starts with
 * VX_CLIENT_MEMBERS: the client's fields are then the fixture's own
 * (self->fd, self->code_map, ...) and &self->client is the client.
 */
#ifndef VORTEX_CLIENT_H
#define VORTEX_CLIENT_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vortex_accel.h"
#include "vortex_test_ioctl.h"

#define VX_CLIENT_FIELDS						\
	int fd;								\
	uint32_t code, data;						\
	uint64_t code_addr, data_addr;					\
	uint64_t code_size, data_size;					\
	uint32_t *code_map;						\
	volatile uint32_t *data_map;					\
	/* code, data and one more a test may add */			\
	struct drm_vortex_submit_bo bos[3];				\
	struct drm_vortex_submit sub;

/**
 * struct vx_client - an open file of the card with a code and a data
 *	buffer, both mapped, and a job that uses them
 * @fd: the file, or -1
 * @code: the code buffer's handle, at @code_addr, @code_size bytes
 * @data: the data buffer's handle, at @data_addr, @data_size bytes
 *	(0: no data buffer)
 * @code_map: the code buffer's CPU mapping
 * @data_map: the data buffer's CPU mapping
 * @bos: the job's buffers: code, data, and room for one more
 * @sub: the job: one warp at @code_addr, its argument @data_addr
 */
struct vx_client {
	VX_CLIENT_FIELDS
};

/* A fixture's first member: the client, its fields named directly. */
#define VX_CLIENT_MEMBERS						\
	union {								\
		struct vx_client client;				\
		struct { VX_CLIENT_FIELDS };				\
	}

/* One buffer of @size bytes, made and mapped whole: 0 or -errno. */
static inline int vx_client_bo(int fd, uint64_t size, uint32_t *handle,
			       uint64_t *addr, void **map)
{
	uint64_t mapped;
	int ret;

	ret = _vx_bo_create(fd, size, 0, handle, addr);
	if (ret)
		return ret;
	*map = vx_bo_map(fd, *handle, &mapped);
	if (!*map)
		return -ENOMEM;
	return mapped == size ? 0 : -ERANGE;
}

/**
 * _vx_client_open() - open the node and make the client's buffers
 * @c: the client
 * @code_size: bytes of code buffer
 * @data_size: bytes of data buffer, 0 for none
 * @data_flags: DRM_VORTEX_SUBMIT_BO_* of the data buffer in the job
 *
 * Both sizes are whole pages: a buffer whose mapping is not the size
 * asked for is -ERANGE (BO_CREATE rounds up to pages and nothing less).
 *
 * Return: 0 or -errno; the client holds what was made either way
 * (vx_client_close() releases it).
 */
static inline int _vx_client_open(struct vx_client *c, uint64_t code_size,
				  uint64_t data_size, uint32_t data_flags)
{
	void *map = NULL;
	int ret;

	memset(c, 0, sizeof(*c));
	c->fd = open(VX_NODE, O_RDWR | O_CLOEXEC);
	if (c->fd < 0)
		return -errno;
	c->code_size = code_size;
	ret = vx_client_bo(c->fd, code_size, &c->code, &c->code_addr, &map);
	c->code_map = map;
	if (ret)
		return ret;
	c->bos[0] = (struct drm_vortex_submit_bo){ c->code, DRM_VORTEX_SUBMIT_BO_READ };
	if (data_size) {
		c->data_size = data_size;
		map = NULL;
		ret = vx_client_bo(c->fd, data_size, &c->data, &c->data_addr, &map);
		c->data_map = map;
		if (ret)
			return ret;
		c->bos[1] = (struct drm_vortex_submit_bo){ c->data, data_flags };
	}
	vx_submit_init(&c->sub, c->code_addr, c->data_addr, 1, c->bos, data_size ? 2 : 1);
	return 0;
}

/* The client opened, or the test stops. */
#define vx_client_open(c, code_size, data_size, data_flags)		\
	ASSERT_EQ(0, _vx_client_open(c, code_size, data_size, data_flags))

/**
 * vx_client_close() - unmap and close: the file's release needs its
 *	mappings gone too
 * @c: the client, opened even in part by _vx_client_open()
 */
static inline void vx_client_close(struct vx_client *c)
{
	if (c->code_map)
		munmap(c->code_map, c->code_size);
	if (c->data_map)
		munmap((void *)c->data_map, c->data_size);
	c->code_map = NULL;
	c->data_map = NULL;
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

#endif /* VORTEX_CLIENT_H */
