/* SPDX-License-Identifier: MIT */
/*
 * A minimal line editor for vxdbg: the guest is busybox-only and static,
 * so no readline or libedit.  On a terminal: cursor keys, Home/End,
 * Ctrl-A/E/K/U/W, Backspace/Delete, history on Up/Down, Ctrl-C drops the
 * line, Ctrl-D on an empty line is end of input.  Not on a terminal: plain
 * line reads, so scripts and pipes need no tty.
 */
#ifndef VX_LINEEDIT_H
#define VX_LINEEDIT_H

struct vx_lineedit;

/** vx_lineedit_new() - an editor reading @in_fd, echoing to @out_fd; NULL without memory */
struct vx_lineedit *vx_lineedit_new(int in_fd, int out_fd);

/**
 * vx_lineedit_read() - one line, without its newline
 * Return: the line (valid until the next call), "" after Ctrl-C, NULL at
 * end of input.  Non-empty lines go into the history.
 */
const char *vx_lineedit_read(struct vx_lineedit *le, const char *prompt);

/** vx_lineedit_free() - restores the terminal; NULL ok */
void vx_lineedit_free(struct vx_lineedit *le);

#endif /* VX_LINEEDIT_H */
