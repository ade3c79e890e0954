// SPDX-License-Identifier: MIT
/*
 * vxdbg's line editor: raw mode only while a line is being read (so a
 * program's output and signals behave normally in between), a redraw of
 * the whole line after every key (lines are short), VT100 escapes that
 * any terminal emulator and the Linux console understand.
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "vx_lineedit.h"

#define LINE_MAX_LEN	1024
#define HISTORY		100

struct vx_lineedit {
	int in, out;
	bool tty;
	struct termios saved;
	char buf[LINE_MAX_LEN];
	size_t len, pos;
	char *history[HISTORY];
	int nhist, hpos;
	FILE *in_file;		/* without a tty */
	char *line;		/* getline's buffer */
	size_t line_cap;
	void (*complete)(void *arg, const char *line, size_t pos,
			 void (*add)(void *ctx, const char *word), void *ctx);
	void *complete_arg;
	bool tabbed;		/* the last key was a Tab that listed nothing */
	int watch_fd;
	int (*watch)(void *arg);
	void *watch_arg;
	const char *prompt;
};

/* Candidates of one Tab. */
struct candidates {
	char words[64][96];
	int n;
};

struct vx_lineedit *vx_lineedit_new(int in_fd, int out_fd)
{
	struct vx_lineedit *le = calloc(1, sizeof(*le));

	if (!le)
		return NULL;
	le->in = in_fd;
	le->out = out_fd;
	le->watch_fd = -1;
	le->tty = isatty(in_fd) && isatty(out_fd) && !tcgetattr(in_fd, &le->saved);
	if (!le->tty)
		le->in_file = fdopen(dup(in_fd), "r");
	return le;
}

void vx_lineedit_free(struct vx_lineedit *le)
{
	if (!le)
		return;
	for (int i = 0; i < le->nhist; i++)
		free(le->history[i]);
	if (le->in_file)
		fclose(le->in_file);
	free(le->line);
	free(le);
}

static void put(struct vx_lineedit *le, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(le->out, s, n);

		if (w <= 0 && errno != EINTR)
			return;
		if (w > 0) {
			s += w;
			n -= w;
		}
	}
}

static void redraw(struct vx_lineedit *le, const char *prompt)
{
	char seq[32];

	put(le, "\r", 1);
	put(le, prompt, strlen(prompt));
	put(le, le->buf, le->len);
	put(le, "\x1b[K", 3);
	if (le->pos < le->len) {
		snprintf(seq, sizeof(seq), "\x1b[%zuD", le->len - le->pos);
		put(le, seq, strlen(seq));
	}
}

static void set_line(struct vx_lineedit *le, const char *s)
{
	le->len = strlen(s) < LINE_MAX_LEN - 1 ? strlen(s) : LINE_MAX_LEN - 1;
	memcpy(le->buf, s, le->len);
	le->pos = le->len;
}

static void history_add(struct vx_lineedit *le, const char *s)
{
	if (!*s || (le->nhist && !strcmp(le->history[le->nhist - 1], s)))
		return;
	if (le->nhist == HISTORY) {
		free(le->history[0]);
		memmove(le->history, le->history + 1, (HISTORY - 1) * sizeof(char *));
		le->nhist--;
	}
	le->history[le->nhist] = strdup(s);
	if (le->history[le->nhist])
		le->nhist++;
}

/* Up (-1) or Down (+1) through the history; past the newest is empty. */
static void history_move(struct vx_lineedit *le, int dir)
{
	int h = le->hpos + dir;

	if (h < 0 || h > le->nhist)
		return;
	le->hpos = h;
	set_line(le, h == le->nhist ? "" : le->history[h]);
}

static void insert(struct vx_lineedit *le, char c)
{
	if (le->len >= LINE_MAX_LEN - 1)
		return;
	memmove(le->buf + le->pos + 1, le->buf + le->pos, le->len - le->pos);
	le->buf[le->pos++] = c;
	le->len++;
}

static void delete_at(struct vx_lineedit *le, size_t at, size_t n)
{
	memmove(le->buf + at, le->buf + at + n, le->len - at - n);
	le->len -= n;
	if (le->pos > at)
		le->pos = le->pos - at >= n ? le->pos - n : at;
}

/* The watched descriptor has something: it goes above the line. */
static void show_watched(struct vx_lineedit *le)
{
	put(le, "\r\x1b[K", 4);
	if (le->watch(le->watch_arg))
		le->watch_fd = -1;
	redraw(le, le->prompt);
}

static int read_byte(struct vx_lineedit *le)
{
	struct pollfd p[2] = { { le->in, POLLIN, 0 }, { le->watch_fd, POLLIN, 0 } };
	unsigned char c;
	ssize_t n;

	for (;;) {
		p[1].fd = le->watch_fd;
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (p[1].revents) {
			show_watched(le);
			continue;
		}
		n = read(le->in, &c, 1);
		if (n < 0 && errno == EINTR)
			continue;
		return n == 1 ? c : -1;
	}
}

static void add_candidate(void *ctx, const char *word)
{
	struct candidates *k = ctx;

	if (k->n < (int)(sizeof(k->words) / sizeof(k->words[0])))
		snprintf(k->words[k->n++], sizeof(k->words[0]), "%s", word);
}

/* Tab: complete the word before the cursor, or list what could follow. */
static void tab(struct vx_lineedit *le)
{
	struct candidates *k = calloc(1, sizeof(*k));
	size_t start = le->pos, common;

	if (!le->complete || !k) {
		free(k);
		return;
	}
	le->buf[le->len] = 0;
	le->complete(le->complete_arg, le->buf, le->pos, add_candidate, k);
	while (start && le->buf[start - 1] != ' ')
		start--;
	common = k->n ? strlen(k->words[0]) : 0;
	for (int i = 1; i < k->n; i++)
		for (size_t j = 0; j < common; j++)
			if (k->words[i][j] != k->words[0][j])
				common = j;
	for (size_t j = le->pos - start; j < common; j++)
		insert(le, k->words[0][j]);
	if (k->n == 1)
		insert(le, ' ');
	else if (k->n > 1 && common == le->pos - start && le->tabbed) {
		put(le, "\r\n", 2);		/* a second Tab: the list */
		for (int i = 0; i < k->n; i++) {
			put(le, k->words[i], strlen(k->words[i]));
			put(le, i + 1 < k->n ? "  " : "\r\n", 2);
		}
	}
	le->tabbed = k->n > 1 && common == le->pos - start;
	free(k);
}

/* ESC [ ... : arrows, Home/End, Delete. */
static void escape(struct vx_lineedit *le)
{
	int a = read_byte(le), b;

	if (a != '[' && a != 'O')
		return;
	b = read_byte(le);
	if (b >= '0' && b <= '9') {
		if (read_byte(le) != '~')
			return;
		if (b == '3' && le->pos < le->len)
			delete_at(le, le->pos, 1);
		else if (b == '1' || b == '7')
			le->pos = 0;
		else if (b == '4' || b == '8')
			le->pos = le->len;
		return;
	}
	switch (b) {
	case 'A': history_move(le, -1); break;
	case 'B': history_move(le, 1); break;
	case 'C': if (le->pos < le->len) le->pos++; break;
	case 'D': if (le->pos) le->pos--; break;
	case 'H': le->pos = 0; break;
	case 'F': le->pos = le->len; break;
	}
}

/* One key; 1 when the line is done, -1 at end of input, 0 to go on. */
static int key(struct vx_lineedit *le, int c)
{
	switch (c) {
	case -1:
		return -1;
	case '\r':
	case '\n':
		return 1;
	case 4:		/* Ctrl-D */
		if (!le->len)
			return -1;
		if (le->pos < le->len)
			delete_at(le, le->pos, 1);
		return 0;
	case 3:		/* Ctrl-C */
		le->len = le->pos = 0;
		return 1;
	case 127:
	case 8:
		if (le->pos)
			delete_at(le, le->pos - 1, 1);
		return 0;
	case 1: le->pos = 0; return 0;
	case 5: le->pos = le->len; return 0;
	case 11: le->len = le->pos; return 0;
	case 21: delete_at(le, 0, le->pos); return 0;
	case 23: {	/* Ctrl-W: the word before the cursor */
		size_t at = le->pos;

		while (at && le->buf[at - 1] == ' ')
			at--;
		while (at && le->buf[at - 1] != ' ')
			at--;
		delete_at(le, at, le->pos - at);
		return 0;
	}
	case 27:
		escape(le);
		return 0;
	case '\t':
		tab(le);
		return 0;
	}
	if (c >= 32 && c < 127)
		insert(le, c);
	return 0;
}

static const char *read_tty(struct vx_lineedit *le, const char *prompt)
{
	struct termios raw = le->saved;
	int done = 0;

	raw.c_iflag &= ~(ICRNL | IXON | BRKINT | INPCK | ISTRIP);
	raw.c_lflag &= ~(ECHO | ICANON | ISIG | IEXTEN);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	/* TCSANOW: what was typed ahead (during a `wait`) is kept */
	tcsetattr(le->in, TCSANOW, &raw);
	le->len = le->pos = 0;
	le->hpos = le->nhist;
	le->prompt = prompt;
	le->tabbed = false;
	redraw(le, prompt);
	while (!done) {
		int c = read_byte(le);

		if (c != '\t')
			le->tabbed = false;
		done = key(le, c);
		if (!done)
			redraw(le, prompt);
	}
	tcsetattr(le->in, TCSADRAIN, &le->saved);
	put(le, "\r\n", 2);
	if (done < 0)
		return NULL;
	le->buf[le->len] = 0;
	history_add(le, le->buf);
	return le->buf;
}

void vx_lineedit_set_complete(struct vx_lineedit *le,
			      void (*fn)(void *arg, const char *line, size_t pos,
					 void (*add)(void *ctx, const char *word), void *ctx),
			      void *arg)
{
	le->complete = fn;
	le->complete_arg = arg;
}

void vx_lineedit_watch(struct vx_lineedit *le, int fd, int (*fn)(void *arg), void *arg)
{
	le->watch_fd = fn ? fd : -1;
	le->watch = fn;
	le->watch_arg = arg;
}

const char *vx_lineedit_read(struct vx_lineedit *le, const char *prompt)
{
	ssize_t n;

	if (le->tty)
		return read_tty(le, prompt);
	if (!le->in_file)
		return NULL;
	n = getline(&le->line, &le->line_cap, le->in_file);
	if (n < 0)
		return NULL;
	le->line[strcspn(le->line, "\r\n")] = 0;
	return le->line;
}
