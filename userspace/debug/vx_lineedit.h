/* SPDX-License-Identifier: MIT */
/*
 * A minimal line editor for vxdbg (why not libedit: docs/debugging.md).
 * On a terminal: cursor keys, Home/End, Ctrl-A/E/K/U/W, Backspace/Delete,
 * history on Up/Down, Tab completion, Ctrl-C drops the line, Ctrl-D on an
 * empty line is end of input; output of a watched descriptor (the
 * debugged program's) goes above the prompt while a line is edited.  Not
 * on a terminal: plain line reads, so scripts and pipes need no tty.
 */
#ifndef VX_LINEEDIT_H
#define VX_LINEEDIT_H

#include <stddef.h>

struct vx_lineedit;

/** vx_lineedit_new() - an editor reading @in_fd, echoing to @out_fd; NULL without memory */
struct vx_lineedit *vx_lineedit_new(int in_fd, int out_fd);

/**
 * vx_lineedit_read() - one line, without its newline
 * Return: the line (valid until the next call), "" after Ctrl-C, NULL at
 * end of input.  Non-empty lines go into the history.
 */
const char *vx_lineedit_read(struct vx_lineedit *le, const char *prompt);

/**
 * vx_lineedit_set_complete() - Tab calls @fn with the line and the cursor;
 * @fn gives each candidate word to @add.  One candidate is inserted with a
 * space, several insert their common prefix; a second Tab lists them.
 */
void vx_lineedit_set_complete(struct vx_lineedit *le,
			      void (*fn)(void *arg, const char *line, size_t pos,
					 void (*add)(void *ctx, const char *word), void *ctx),
			      void *arg);

/**
 * vx_lineedit_watch() - while a line is read, when @fd is readable (or hung
 * up) the line is cleared, @fn prints what it has, the line is redrawn;
 * @fn returns non-zero when @fd is done.  -1 stops watching.
 */
void vx_lineedit_watch(struct vx_lineedit *le, int fd, int (*fn)(void *arg), void *arg);

/** vx_lineedit_free() - restores the terminal; NULL ok */
void vx_lineedit_free(struct vx_lineedit *le);

#endif /* VX_LINEEDIT_H */
