/* SPDX-License-Identifier: MIT */
/*
 * rsp: the GDB Remote Serial Protocol's byte level, with no I/O and no
 * state beyond one packet being received: framing ($data#cs), checksums,
 * the escapes (} then the byte XOR 0x20), run-length encoding (X*n: X
 * repeated n - 29 more times) and the hex helpers every packet uses.
 *
 * Decoding is gdb's order: a packet's raw bytes are run-length expanded,
 * then unescaped; encoding is the reverse.  gdb never sends run-length
 * encoded packets, but a client may, and gdb decodes it in every reply.
 */
#ifndef RSP_H
#define RSP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The PacketSize we advertise: the most raw data bytes (between $ and #)
 * a packet to us may carry.  Longer packets are discarded and NAKed.
 */
#define RSP_PACKET_MAX		4096

/* Bytes a framed reply of up to RSP_PACKET_MAX data bytes may need: all escaped. */
#define RSP_FRAME_MAX		(2 * RSP_PACKET_MAX + 4)

#define RSP_INTERRUPT_BYTE	0x03

/** enum rsp_event - what one received byte completed */
enum rsp_event {
	RSP_EV_NONE,		/* nothing yet (or junk outside a packet, dropped) */
	RSP_EV_PACKET,		/* a packet, checksum right: send '+' */
	RSP_EV_BAD_CHECKSUM,	/* a packet whose checksum is wrong: send '-' */
	RSP_EV_OVERSIZE,	/* a packet longer than RSP_PACKET_MAX: send '-' */
	RSP_EV_ACK,		/* '+' */
	RSP_EV_NAK,		/* '-': resend the last reply */
	RSP_EV_INTERRUPT,	/* 0x03 outside a packet */
};

/**
 * struct rsp_parser - one incoming packet, byte by byte
 * @state: where in a packet we are (rsp.c)
 * @sum: checksum of the data so far
 * @csum: the checksum's first hex digit, as received
 * @len: data bytes kept in @buf
 * @over: more than RSP_PACKET_MAX bytes came; the packet will be refused
 * @buf: the raw data of the packet, NUL-terminated once complete
 */
struct rsp_parser {
	int state;
	uint8_t sum;
	char csum;
	size_t len;
	bool over;
	char buf[RSP_PACKET_MAX + 1];
};

void rsp_parser_init(struct rsp_parser *p);

/**
 * rsp_parser_feed() - one received byte
 *
 * A '$' inside a packet starts a new one: the truncated packet is dropped
 * without a NAK (a NAK would make the client resend the new packet as
 * well).  After RSP_EV_PACKET, @p->buf holds the raw data (still escaped).
 */
enum rsp_event rsp_parser_feed(struct rsp_parser *p, uint8_t c);

/**
 * rsp_decode() - run-length expand, then unescape, @len raw bytes of @in
 * @out: receives the bytes (a NUL is added if there is room)
 * @cap: bytes @out holds
 *
 * Return: bytes decoded, or -1 for a malformed packet: a repeat with
 * nothing before it or a count outside ' '..'~', a '}' at the end, or
 * more than @cap bytes.
 */
ssize_t rsp_decode(const char *in, size_t len, uint8_t *out, size_t cap);

/**
 * rsp_frame() - "$data#cs" of @len bytes of @data into @out
 * @rle: compress runs of 4 or more equal bytes
 *
 * '$', '#', '}' and '*' are escaped, so any byte may be sent.
 * Return: bytes of the frame, or -1 if @cap is too small.
 */
ssize_t rsp_frame(const void *data, size_t len, bool rle, char *out, size_t cap);

/** rsp_checksum() - the modulo-256 sum of @len bytes */
uint8_t rsp_checksum(const void *data, size_t len);

/* ------------------------------------------------------------- hex */

/** rsp_hex_digit() - 0..15, or -1 for a byte that is not a hex digit */
int rsp_hex_digit(char c);

/** rsp_hex_encode() - 2 * @len lowercase hex digits of @len bytes, NUL-terminated */
void rsp_hex_encode(const void *bytes, size_t len, char *out);

/**
 * rsp_hex_decode() - @n hex digit pairs of @hex into bytes
 * Return: @n, or -1 at a character that is not a hex digit.
 */
ssize_t rsp_hex_decode(const char *hex, size_t n, uint8_t *out);

/**
 * rsp_parse_hex() - a hex number at *@s, of at most 16 digits
 * Return: true and *@s past it, or false (no digit, or too many).
 */
bool rsp_parse_hex(const char **s, uint64_t *v);

/** rsp_hex_u32le() - 8 hex digits of @v, little-endian byte order (registers) */
void rsp_hex_u32le(uint32_t v, char *out);

/** rsp_parse_u32le() - the reverse of rsp_hex_u32le(); false if not 8 hex digits */
bool rsp_parse_u32le(const char *s, uint32_t *v);

#endif /* RSP_H */
