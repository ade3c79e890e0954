// SPDX-License-Identifier: MIT
/*
 * The GDB Remote Serial Protocol byte layer (userspace/gdbstub/rsp.c):
 * framing and checksums against hand-computed frames, escapes and
 * run-length encoding both ways (every byte value, every run length), and
 * hostile streams fed byte by byte: truncated and oversized packets, bad
 * and non-hex checksums, junk between packets, 0x03 inside and outside a
 * packet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "rsp.h"

/* Feeds @s (@len bytes); records every event but NONE into @ev. */
static int feed(struct rsp_parser *p, const void *s, size_t len, enum rsp_event *ev, int max)
{
	const uint8_t *b = s;
	int n = 0;

	for (size_t i = 0; i < len; i++) {
		enum rsp_event e = rsp_parser_feed(p, b[i]);

		if (e != RSP_EV_NONE && n < max)
			ev[n++] = e;
	}
	return n;
}

/* Frames @len bytes, parses the frame back, decodes it: the bytes again. */
static ssize_t round_trip(const void *data, size_t len, bool rle, uint8_t *out, size_t cap,
			  char *frame, size_t fcap)
{
	struct rsp_parser p;
	enum rsp_event ev[4];
	ssize_t n = rsp_frame(data, len, rle, frame, fcap);

	if (n < 0)
		return -2;
	rsp_parser_init(&p);
	if (feed(&p, frame, n, ev, 4) != 1 || ev[0] != RSP_EV_PACKET)
		return -3;
	return rsp_decode(p.buf, p.len, out, cap);
}

TEST(checksum_and_frame_match_hand_computed)
{
	char f[32];

	ASSERT_EQ(0x9a, rsp_checksum("OK", 2));
	ASSERT_EQ(6, rsp_frame("OK", 2, true, f, sizeof(f)));
	ASSERT_STREQ("$OK#9a", f);
	ASSERT_EQ(4, rsp_frame("", 0, true, f, sizeof(f)));
	ASSERT_STREQ("$#00", f);
	/* too small a buffer is an error, not an overflow */
	ASSERT_EQ(-1, rsp_frame("OK", 2, true, f, 5));
}

TEST(special_bytes_are_escaped_on_the_way_out)
{
	const char in[] = "a}b#c$d*e";
	char f[64];
	ssize_t n = rsp_frame(in, strlen(in), false, f, sizeof(f));

	ASSERT_GT(n, 0);
	/* '}' ^ 0x20 = ']', '#' ^ 0x20 = 0x03, '$' ^ 0x20 = 0x04, '*' ^ 0x20 = '\n' */
	ASSERT_EQ(0, memcmp(f, "$a}]b}\x03" "c}\x04" "d}\ne#", n - 2));
	/* nothing between '$' and '#' may be '$', '#' or an unescaped '*' */
	for (ssize_t i = 1; i < n - 3; i++) {
		ASSERT_NE('$', f[i]);
		ASSERT_NE('#', f[i]);
		ASSERT_NE('*', f[i]);
	}
}

TEST(escapes_are_undone_on_the_way_in)
{
	uint8_t out[16];

	ASSERT_EQ(4, rsp_decode("}]}\x03}\x04}\n", 8, out, sizeof(out)));
	ASSERT_EQ(0, memcmp(out, "}#$*", 4));
	/* an escape with nothing after it is malformed */
	ASSERT_EQ(-1, rsp_decode("ab}", 3, out, sizeof(out)));
}

TEST(every_byte_value_survives_a_binary_round_trip)
{
	uint8_t in[256], out[300];
	char f[RSP_FRAME_MAX];

	for (int i = 0; i < 256; i++)
		in[i] = i;
	for (int rle = 0; rle < 2; rle++) {
		ASSERT_EQ(256, round_trip(in, 256, rle, out, sizeof(out), f, sizeof(f)));
		ASSERT_EQ(0, memcmp(in, out, 256));
	}
}

TEST(run_length_encoding_compresses_and_decodes)
{
	char f[64];
	uint8_t out[64];

	/* ten '0': '0' then '*' and 9 + 29 = '&' */
	ASSERT_EQ(7, rsp_frame("0000000000", 10, true, f, sizeof(f)));
	ASSERT_EQ(0, memcmp(f, "$0*&#", 5));
	ASSERT_EQ(10, rsp_decode(f + 1, 3, out, sizeof(out)));
	ASSERT_EQ(0, memcmp(out, "0000000000", 10));
	/* three are cheaper as they are */
	ASSERT_EQ(7, rsp_frame("000", 3, true, f, sizeof(f)));
	ASSERT_STREQ("$000#90", f);
}

TEST(every_run_length_round_trips_without_forbidden_counts)
{
	uint8_t in[300], out[300];
	char f[RSP_FRAME_MAX];

	for (size_t len = 1; len <= sizeof(in); len++) {
		ssize_t n;

		memset(in, 'x', len);
		in[len - 1] = 'y';
		n = rsp_frame(in, len, true, f, sizeof(f));
		ASSERT_GT(n, 0);
		/* '#' and '$' never appear as a count (6 and 7 repeats) */
		ASSERT_EQ(NULL, memchr(f + 1, '#', n - 4));
		ASSERT_EQ(NULL, memchr(f + 1, '$', n - 4));
		ASSERT_EQ((ssize_t)len, round_trip(in, len, true, out, sizeof(out), f, sizeof(f)));
		ASSERT_EQ(0, memcmp(in, out, len));
	}
}

TEST(malformed_run_lengths_are_refused)
{
	uint8_t out[8];

	ASSERT_EQ(-1, rsp_decode("*&", 2, out, sizeof(out)));	/* nothing to repeat */
	ASSERT_EQ(-1, rsp_decode("a*", 2, out, sizeof(out)));	/* no count */
	ASSERT_EQ(-1, rsp_decode("a*\x10", 3, out, sizeof(out)));	/* count below ' ' */
	ASSERT_EQ(-1, rsp_decode("a*~", 3, out, sizeof(out)));	/* 97 repeats: too long */
	ASSERT_EQ(4, rsp_decode("a* ", 3, out, sizeof(out)));	/* 3 repeats */
}

TEST(packets_acks_and_junk_in_one_stream)
{
	static const char s[] = "xyz\r\n+$qC#b4-garbage$?#3f+";
	enum rsp_event ev[8];
	struct rsp_parser p;

	rsp_parser_init(&p);
	ASSERT_EQ(5, feed(&p, s, strlen(s), ev, 8));
	EXPECT_EQ(RSP_EV_ACK, ev[0]);
	EXPECT_EQ(RSP_EV_PACKET, ev[1]);
	EXPECT_EQ(RSP_EV_NAK, ev[2]);
	EXPECT_EQ(RSP_EV_PACKET, ev[3]);
	EXPECT_EQ(RSP_EV_ACK, ev[4]);
	EXPECT_STREQ("?", p.buf);
}

TEST(bad_checksums_are_refused)
{
	enum rsp_event ev[4];
	struct rsp_parser p;

	rsp_parser_init(&p);
	ASSERT_EQ(1, feed(&p, "$qC#b5", 6, ev, 4));
	EXPECT_EQ(RSP_EV_BAD_CHECKSUM, ev[0]);
	ASSERT_EQ(1, feed(&p, "$qC#zz", 6, ev, 4));
	EXPECT_EQ(RSP_EV_BAD_CHECKSUM, ev[0]);
	/* upper-case checksum digits are fine */
	ASSERT_EQ(1, feed(&p, "$qC#B4", 6, ev, 4));
	EXPECT_EQ(RSP_EV_PACKET, ev[0]);
}

TEST(a_truncated_packet_is_dropped_for_the_next)
{
	enum rsp_event ev[4];
	struct rsp_parser p;

	rsp_parser_init(&p);
	ASSERT_EQ(1, feed(&p, "$m0,4$qC#b4", 11, ev, 4));
	EXPECT_EQ(RSP_EV_PACKET, ev[0]);
	EXPECT_STREQ("qC", p.buf);
	/* a packet cut off for good yields nothing */
	ASSERT_EQ(0, feed(&p, "$m0,4#", 6, ev, 4));
}

TEST(oversized_packets_are_refused_at_the_limit)
{
	size_t len = RSP_PACKET_MAX + 1;
	char *s = malloc(len + 5), *data = s + 1;
	enum rsp_event ev[4];
	struct rsp_parser p;

	ASSERT_NE(NULL, s);
	s[0] = '$';
	memset(data, 'a', len);
	/* exactly PacketSize data bytes is fine */
	sprintf(data + len - 1, "#%02x", rsp_checksum(data, len - 1));
	rsp_parser_init(&p);
	ASSERT_EQ(1, feed(&p, s, len + 3, ev, 4));
	EXPECT_EQ(RSP_EV_PACKET, ev[0]);
	EXPECT_EQ((size_t)RSP_PACKET_MAX, p.len);
	/* one more is refused, and the parser goes on with what follows */
	data[len - 1] = 'a';
	sprintf(data + len, "#%02x", rsp_checksum(data, len));
	ASSERT_EQ(1, feed(&p, s, len + 4, ev, 4));
	EXPECT_EQ(RSP_EV_OVERSIZE, ev[0]);
	ASSERT_EQ(1, feed(&p, "$qC#b4", 6, ev, 4));
	EXPECT_EQ(RSP_EV_PACKET, ev[0]);
	free(s);
}

TEST(interrupt_byte_outside_a_packet_only)
{
	uint8_t x[11] = { '$', 'X', '0', ',', '1', ':', 0x03, '#' };
	enum rsp_event ev[4];
	struct rsp_parser p;

	sprintf((char *)x + 8, "%02x", rsp_checksum(x + 1, 6));
	rsp_parser_init(&p);
	ASSERT_EQ(1, feed(&p, "\x03", 1, ev, 4));
	EXPECT_EQ(RSP_EV_INTERRUPT, ev[0]);
	/* inside X data, 0x03 is a data byte */
	ASSERT_EQ(1, feed(&p, x, 10, ev, 4));
	EXPECT_EQ(RSP_EV_PACKET, ev[0]);
	EXPECT_EQ(6, p.len);
	EXPECT_EQ(0x03, (uint8_t)p.buf[5]);
}

TEST(x_packet_payload_with_escapes_decodes_to_its_bytes)
{
	/* X1000,4: the bytes 7d 23 24 2a, as gdb escapes them */
	const char raw[] = "X1000,4:}]}\x03}\x04}\n";
	uint8_t out[32];
	ssize_t n = rsp_decode(raw, strlen(raw), out, sizeof(out));

	ASSERT_EQ(12, n);
	ASSERT_EQ(0, memcmp(out, "X1000,4:}#$*", 12));
}

TEST(hex_helpers)
{
	uint8_t b[4];
	char h[9];
	const char *s;
	uint64_t v;
	uint32_t u;

	rsp_hex_encode("\x01\xab\xff", 3, h);
	ASSERT_STREQ("01abff", h);
	ASSERT_EQ(2, rsp_hex_decode("0aFf", 2, b));
	ASSERT_EQ(0x0a, b[0]);
	ASSERT_EQ(0xff, b[1]);
	ASSERT_EQ(-1, rsp_hex_decode("0g", 1, b));
	ASSERT_EQ(-1, rsp_hex_decode("0", 1, b));	/* half a byte */
	s = "80001000,4";
	ASSERT_TRUE(rsp_parse_hex(&s, &v));
	ASSERT_EQ(0x80001000ull, v);
	ASSERT_EQ(',', *s);
	s = ",4";
	ASSERT_FALSE(rsp_parse_hex(&s, &v));
	s = "11112222333344445";		/* 17 digits: refused */
	ASSERT_FALSE(rsp_parse_hex(&s, &v));
	rsp_hex_u32le(0x800110d4, h);
	ASSERT_STREQ("d4100180", h);
	ASSERT_TRUE(rsp_parse_u32le("d4100180", &u));
	ASSERT_EQ(0x800110d4u, u);
	ASSERT_FALSE(rsp_parse_u32le("d41001", &u));
}

TEST_HARNESS_MAIN
