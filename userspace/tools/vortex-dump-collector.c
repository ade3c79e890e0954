// SPDX-License-Identifier: GPL-2.0
/*
 * vortex-dump-collector: saves each Vortex crash dump to a file and frees
 * the card's dump slot (README, "Crash dumps"), the reference collector.
 *
 *   vortex-dump-collector --save /sys/class/devcoredump/devcdN [--dir DIR]
 *       one dump: what the udev rule runs for each new devcoredump
 *       (userspace/tools/70-vortex-coredump.rules)
 *   vortex-dump-collector --watch [--dir DIR] [--count N]
 *       the dumps already there, then each new one as its uevent comes
 *       (NETLINK_KOBJECT_UEVENT), for a machine without udev; ends after
 *       N dumps if --count is given
 *
 * A dump is a Vortex card's when its devcoredump's failing_device is bound
 * to the vortex driver; other drivers' dumps are left alone.  Its data is
 * read whole (a read waits until the driver has rendered it) into
 * DIR/vortex-CARD-TIME-devcdN.devcd, written under a temporary name, synced
 * and renamed, and only then discarded (a write to data), which frees the
 * card's slot for the next failure.  DIR defaults to /var/crash/vortex.
 *
 * Exit status: 0, 1 on a dump it could not save, 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <linux/netlink.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

#define DEVCD_CLASS	"/sys/class/devcoredump"
#define DEFAULT_DIR	"/var/crash/vortex"

static const char *prog = "vortex-dump-collector";

/* The last component of @path: a devcoredump directory's "devcdN", a link's target. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The last component of the symlink @dir/@link points to, into @out. */
static bool link_base(const char *dir, const char *link, char *out, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, link);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return false;
	target[n] = 0;
	base = base_name(target);
	if (strlen(base) >= len)
		return false;
	memcpy(out, base, strlen(base) + 1);
	return true;
}

/* Copies @in to @out to its end; 0 or -errno. */
static int copy_fd(int in, int out)
{
	char buf[65536];
	ssize_t n, w, off;

	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (off = 0; off < n; off += w) {
			w = write(out, buf + off, n - off);
			if (w < 0)
				return -errno;
		}
	}
	return 0;
}

/*
 * Saves the dump in devcoredump directory @devcd if it is a Vortex card's,
 * then discards it.  Returns 1 if saved, 0 if not Vortex's (or gone
 * before it could be read: another reader discarded it), -1 on an error.
 */
static int save_dump(const char *devcd, const char *dir)
{
	char driver[256], card[256], stamp[32], path[PATH_MAX], tmp[PATH_MAX + 8];
	char data[PATH_MAX];
	const char *name = base_name(devcd);
	time_t now = time(NULL);
	int in, out, ret;

	if (!link_base(devcd, "failing_device/driver", driver, sizeof(driver)) ||
	    strcmp(driver, "vortex"))
		return 0;
	if (!link_base(devcd, "failing_device", card, sizeof(card)))
		snprintf(card, sizeof(card), "card");
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", gmtime(&now));
	snprintf(path, sizeof(path), "%s/vortex-%s-%s-%s.devcd", dir, card, stamp, name);
	snprintf(tmp, sizeof(tmp), "%s.part", path);
	snprintf(data, sizeof(data), "%s/data", devcd);

	in = open(data, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		if (errno == ENOENT)
			return 0;
		fprintf(stderr, "%s: %s: %s\n", prog, data, strerror(errno));
		return -1;
	}
	out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, tmp, strerror(errno));
		close(in);
		return -1;
	}
	ret = copy_fd(in, out);
	close(in);
	if (!ret && fsync(out))
		ret = -errno;
	if (close(out) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		fprintf(stderr, "%s: saving %s: %s\n", prog, data, strerror(-ret));
		unlink(tmp);
		return -1;
	}
	/* Saved: the card's slot is free for the next failure. */
	out = open(data, O_WRONLY | O_CLOEXEC);
	if (out < 0 || write(out, "1", 1) != 1)
		fprintf(stderr, "%s: %s saved, but not discarded: %s\n", prog, data,
			strerror(errno));
	if (out >= 0)
		close(out);
	printf("%s\n", path);
	fflush(stdout);
	return 1;
}

/*
 * The devcdN names --watch saved lately: a dump that comes while the scan
 * runs is seen twice (the scan and its uevent), and its directory stays a
 * moment after the discard.  devcoredump never reuses a name.
 */
static char seen[64][32];
static unsigned int nseen;

static int save_once(const char *devcd, const char *dir)
{
	const char *name = base_name(devcd);
	unsigned int i;
	int r;

	for (i = 0; i < nseen && i < 64; i++)
		if (!strcmp(seen[i], name))
			return 0;
	r = save_dump(devcd, dir);
	if (r > 0)
		snprintf(seen[nseen++ % 64], sizeof(seen[0]), "%s", name);
	return r;
}

/* The dumps devcoredump holds now: how many were saved. */
static int save_present(const char *dir, int *errors)
{
	char devcd[PATH_MAX];
	struct dirent *e;
	int saved = 0, r;
	DIR *d = opendir(DEVCD_CLASS);

	if (!d)
		return 0;	/* no dump yet: the class directory may not exist */
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "devcd", 5))
			continue;
		snprintf(devcd, sizeof(devcd), DEVCD_CLASS "/%s", e->d_name);
		r = save_once(devcd, dir);
		saved += r > 0;
		*errors += r < 0;
	}
	closedir(d);
	return saved;
}

/* The value of @key in a uevent message of @len bytes, or NULL. */
static const char *uevent_get(const char *msg, size_t len, const char *key)
{
	size_t k = strlen(key), i;

	for (i = 0; i < len; i += strlen(msg + i) + 1)
		if (!strncmp(msg + i, key, k) && msg[i + k] == '=')
			return msg + i + k + 1;
	return NULL;
}

static int watch(const char *dir, long count)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	char msg[8192], devcd[PATH_MAX];
	const char *action, *subsys, *devpath;
	int fd, errors = 0, r;
	long saved;
	ssize_t n;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		fprintf(stderr, "%s: uevent socket: %s\n", prog, strerror(errno));
		return 1;
	}
	/* Listening first, so no dump falls between the scan and the events. */
	fprintf(stderr, "%s: watching for crash dumps, saving them in %s\n", prog, dir);
	saved = save_present(dir, &errors);
	while (count < 0 || saved < count) {
		n = recv(fd, msg, sizeof(msg) - 1, 0);
		if (n < 0) {
			if (errno == EINTR || errno == ENOBUFS)
				continue;	/* ENOBUFS: events lost; scan */
			fprintf(stderr, "%s: uevent socket: %s\n", prog, strerror(errno));
			break;
		}
		msg[n] = 0;
		action = uevent_get(msg, n, "ACTION");
		subsys = uevent_get(msg, n, "SUBSYSTEM");
		devpath = uevent_get(msg, n, "DEVPATH");
		if (!action || !subsys || !devpath || strcmp(action, "add") ||
		    strcmp(subsys, "devcoredump"))
			continue;
		snprintf(devcd, sizeof(devcd), "/sys%s", devpath);
		r = save_once(devcd, dir);
		saved += r > 0;
		errors += r < 0;
	}
	close(fd);
	return errors ? 1 : 0;
}

/* mkdir -p @dir (mode 0700 for what it makes); 0 or -1 with errno set. */
static int mkdir_p(const char *dir)
{
	char path[PATH_MAX];
	bool last;
	char *p;

	if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (p = path + 1; ; p++) {
		if (*p && *p != '/')
			continue;
		last = !*p;
		*p = 0;
		if (mkdir(path, 0700) && errno != EEXIST)
			return -1;
		if (last)
			return 0;
		*p = '/';
	}
}

static void usage(FILE *f)
{
	fprintf(f, "usage: %s --save /sys/class/devcoredump/devcdN [--dir DIR]\n"
		   "       %s --watch [--dir DIR] [--count N]\n"
		   "Saves each Vortex crash dump as DIR/vortex-CARD-TIME-devcdN.devcd (DIR\n"
		   "defaults to " DEFAULT_DIR "), then discards it, freeing the card's slot.\n",
		prog, prog);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "save", required_argument, NULL, 's' },
		{ "watch", no_argument, NULL, 'w' },
		{ "dir", required_argument, NULL, 'd' },
		{ "count", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *dir = DEFAULT_DIR, *devcd = NULL;
	bool watching = false;
	long count = -1;
	char *end;
	int c, r;

	while ((c = getopt_long(argc, argv, "s:wd:n:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': devcd = optarg; break;
		case 'w': watching = true; break;
		case 'd': dir = optarg; break;
		case 'n':
			count = strtol(optarg, &end, 10);
			if (*end || count < 1) {
				fprintf(stderr, "%s: --count wants a number above 0, not %s\n",
					prog, optarg);
				return 2;
			}
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc || !devcd == !watching) {
		usage(stderr);
		return 2;
	}
	if (mkdir_p(dir)) {
		fprintf(stderr, "%s: %s: %s\n", prog, dir, strerror(errno));
		return 1;
	}
	if (watching)
		return watch(dir, count);
	r = save_dump(devcd, dir);
	return r < 0 ? 1 : 0;
}
