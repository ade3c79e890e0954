/* SPDX-License-Identifier: MIT */
/*
 * dmproto: the Debug Module line protocol vortex-dmserver speaks, as
 * Vortex's RTL-simulation and FPGA runtimes do: newline-terminated ASCII
 * commands, one reply line each.  Pure code with no I/O, so the host test
 * feeds it anything.
 *
 *	p				+P		handshake
 *	rA				+VVVVVVVV | -	read DM register A
 *	wA:V				+ | -		write V to A
 *	RA1,A2,...			+V1,V2,... | -	up to 8 reads, in order
 *	WA1,A2,...:V1,V2,...		+ | -		up to 8 writes, in order
 *	s				+ | -		start the staged kernel
 *	q				(none)		close the connection
 *
 * What is accepted, exactly:
 *  - the command letter is case-sensitive and first on the line; nothing
 *    may follow `p`, `s` or `q`;
 *  - a number is 1 to 8 hex digits, either case, no `0x`, no sign, no
 *    spaces anywhere; replies use 8 lower-case digits;
 *  - an address is a DM register index, 0x0 (PLATFORM) to 0xc (DSCRATCH3);
 *    `W` needs as many values as addresses, 1 to 8 of each;
 *  - a line ends at `\n`; one `\r` just before it is dropped (CR LF);
 *  - a line longer than DMPROTO_LINE_MAX bytes (its `\r` counted, the `\n`
 *    not) is answered `-` once its `\n` comes, the rest being discarded;
 *  - anything else (an empty line, a NUL byte, a lone `\r`, junk after a
 *    command, an unknown letter) is answered `-`.
 * A `-` for a malformed line means nothing was done.
 */
#ifndef DMPROTO_H
#define DMPROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DMPROTO_LINE_MAX	256
#define DMPROTO_MAX_REGS	8
/* "+" and 8 values of 8 digits with commas, "\n", NUL */
#define DMPROTO_REPLY_MAX	(1 + DMPROTO_MAX_REGS * 9 + 1)

enum dmproto_op {
	DMPROTO_BAD,		/* malformed: reply "-" */
	DMPROTO_HELLO,		/* p */
	DMPROTO_READ,		/* r, R */
	DMPROTO_WRITE,		/* w, W */
	DMPROTO_START,		/* s */
	DMPROTO_QUIT,		/* q */
};

/**
 * struct dmproto_req - one parsed command line
 * @op: what it asks
 * @count: registers of a READ or WRITE, 1..DMPROTO_MAX_REGS
 * @reg: their DM register indexes, in the line's order
 * @value: a WRITE's values; a READ's results, for dmproto_reply()
 */
struct dmproto_req {
	enum dmproto_op op;
	unsigned int count;
	uint32_t reg[DMPROTO_MAX_REGS];
	uint32_t value[DMPROTO_MAX_REGS];
};

/**
 * struct dmproto_lines - cuts a byte stream into lines
 * @buf: the line so far (not NUL-terminated)
 * @len: bytes in @buf
 * @overlong: more than DMPROTO_LINE_MAX bytes came: discarding to '\n'
 */
struct dmproto_lines {
	char buf[DMPROTO_LINE_MAX];
	size_t len;
	bool overlong;
};

/**
 * dmproto_lines_feed() - take bytes up to the end of the next line
 * @l: the reader (zeroed to start)
 * @data: bytes received
 * @n: how many
 * @line: set when a line ended: its bytes, without the '\n', or NULL if
 *	it was over-long; valid until the next call
 * @len: set to the line's length
 *
 * Return: bytes of @data used; the caller feeds the rest again after
 * handling the line.  *@line is left untouched when no line ended.
 */
size_t dmproto_lines_feed(struct dmproto_lines *l, const char *data, size_t n,
			  const char **line, size_t *len);

/**
 * dmproto_parse() - parse one line (as dmproto_lines_feed() gave it)
 * @line: its bytes, or NULL for an over-long line
 * @len: its length
 * @req: receives the command; op DMPROTO_BAD when malformed
 *
 * Return: 0, or -EINVAL when malformed.
 */
int dmproto_parse(const char *line, size_t len, struct dmproto_req *req);

/**
 * dmproto_reply() - the reply line to @req
 * @req: the command, with a READ's results in @req->value
 * @err: 0 if it was done, else it failed (reply "-")
 * @buf: receives the line, '\n' and NUL included
 *
 * Return: its length without the NUL; 0 for QUIT, which has no reply.
 */
size_t dmproto_reply(const struct dmproto_req *req, int err, char buf[DMPROTO_REPLY_MAX]);

#endif /* DMPROTO_H */
