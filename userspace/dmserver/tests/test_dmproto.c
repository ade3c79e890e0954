// SPDX-License-Identifier: MIT
/*
 * The DM line protocol of vortex-dmserver (dmproto.h), byte by byte:
 * every command, the limits of hex numbers and register indexes, hostile
 * lines (too long, too many addresses, counts that differ, NUL bytes,
 * stray CRs, junk), the line reader across arbitrary chunks, and the
 * exact replies.
 */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"

#include "dmproto.h"

/* Parses @line (a C string, or @len bytes when @len is not 0). */
static int parse(const char *line, size_t len, struct dmproto_req *req)
{
	return dmproto_parse(line, len ?: strlen(line), req);
}

static const char *reply(const struct dmproto_req *req, int err)
{
	static char buf[DMPROTO_REPLY_MAX];

	memset(buf, 0x55, sizeof(buf));
	dmproto_reply(req, err, buf);
	return buf;
}

TEST(commands_without_arguments)
{
	struct dmproto_req req;

	ASSERT_EQ(0, parse("p", 0, &req));
	EXPECT_EQ(DMPROTO_HELLO, req.op);
	EXPECT_STREQ("+P\n", reply(&req, 0));
	ASSERT_EQ(0, parse("s", 0, &req));
	EXPECT_EQ(DMPROTO_START, req.op);
	EXPECT_STREQ("+\n", reply(&req, 0));
	EXPECT_STREQ("-\n", reply(&req, -EBUSY));
	ASSERT_EQ(0, parse("q", 0, &req));
	EXPECT_EQ(DMPROTO_QUIT, req.op);
	EXPECT_EQ(0, dmproto_reply(&req, 0, (char[DMPROTO_REPLY_MAX]){ 0 }));
}

TEST(read_one)
{
	struct dmproto_req req;

	ASSERT_EQ(0, parse("r5", 0, &req));
	EXPECT_EQ(DMPROTO_READ, req.op);
	ASSERT_EQ(1, req.count);
	EXPECT_EQ(5, req.reg[0]);
	req.value[0] = 0xdeadbeef;
	EXPECT_STREQ("+deadbeef\n", reply(&req, 0));
	req.value[0] = 7;
	EXPECT_STREQ("+00000007\n", reply(&req, 0));
	EXPECT_STREQ("-\n", reply(&req, -EPERM));
}

TEST(write_one)
{
	struct dmproto_req req;

	ASSERT_EQ(0, parse("w6:80000001", 0, &req));
	EXPECT_EQ(DMPROTO_WRITE, req.op);
	ASSERT_EQ(1, req.count);
	EXPECT_EQ(6, req.reg[0]);
	EXPECT_EQ(0x80000001, req.value[0]);
	EXPECT_STREQ("+\n", reply(&req, 0));
}

TEST(read_many_in_order)
{
	struct dmproto_req req;

	ASSERT_EQ(0, parse("R0,c,5,5,1,2,3,4", 0, &req));
	EXPECT_EQ(DMPROTO_READ, req.op);
	ASSERT_EQ(8, req.count);
	EXPECT_EQ(0, req.reg[0]);
	EXPECT_EQ(0xc, req.reg[1]);
	EXPECT_EQ(5, req.reg[2]);
	EXPECT_EQ(4, req.reg[7]);
	for (int i = 0; i < 8; i++)
		req.value[i] = 0x11111111u * i;
	/* the longest reply there is fits DMPROTO_REPLY_MAX exactly */
	EXPECT_STREQ("+00000000,11111111,22222222,33333333,44444444,55555555,"
		     "66666666,77777777\n", reply(&req, 0));
	EXPECT_EQ(DMPROTO_REPLY_MAX - 1, strlen(reply(&req, 0)));
	ASSERT_EQ(0, parse("R9", 0, &req));
	EXPECT_EQ(1, req.count);
}

TEST(write_many_in_order)
{
	struct dmproto_req req;

	ASSERT_EQ(0, parse("W2,3,6:00400000,1,80000001", 0, &req));
	EXPECT_EQ(DMPROTO_WRITE, req.op);
	ASSERT_EQ(3, req.count);
	EXPECT_EQ(2, req.reg[0]);
	EXPECT_EQ(3, req.reg[1]);
	EXPECT_EQ(6, req.reg[2]);
	EXPECT_EQ(0x00400000, req.value[0]);
	EXPECT_EQ(1, req.value[1]);
	EXPECT_EQ(0x80000001, req.value[2]);
	ASSERT_EQ(0, parse("W0,1,2,3,4,5,6,7:8,9,a,b,c,d,e,f", 0, &req));
	EXPECT_EQ(8, req.count);
	EXPECT_EQ(7, req.reg[7]);
	EXPECT_EQ(0xf, req.value[7]);
}

TEST(hex_digits)
{
	struct dmproto_req req;

	/* either case, 1..8 digits, leading zeros count as digits */
	ASSERT_EQ(0, parse("wC:DeAdBeEf", 0, &req));
	EXPECT_EQ(0xc, req.reg[0]);
	EXPECT_EQ(0xdeadbeef, req.value[0]);
	ASSERT_EQ(0, parse("w0000000c:ffffffff", 0, &req));
	EXPECT_EQ(0xc, req.reg[0]);
	EXPECT_EQ(0xffffffff, req.value[0]);
	ASSERT_EQ(0, parse("w1:0", 0, &req));
	EXPECT_EQ(0, req.value[0]);
	EXPECT_EQ(-EINVAL, parse("r00000000c", 0, &req));	/* 9 digits */
	EXPECT_EQ(-EINVAL, parse("w1:100000000", 0, &req));
	EXPECT_EQ(-EINVAL, parse("w1:000000000", 0, &req));
	EXPECT_EQ(-EINVAL, parse("r0x5", 0, &req));		/* no 0x */
	EXPECT_EQ(-EINVAL, parse("w1:0x5", 0, &req));
	EXPECT_EQ(-EINVAL, parse("w1:-5", 0, &req));
	EXPECT_EQ(-EINVAL, parse("w1:+5", 0, &req));
	EXPECT_EQ(-EINVAL, parse("rg", 0, &req));
	EXPECT_EQ(-EINVAL, parse("r", 0, &req));
	EXPECT_EQ(-EINVAL, parse("w1:", 0, &req));
	EXPECT_EQ(-EINVAL, parse("w:1", 0, &req));
	EXPECT_EQ(DMPROTO_BAD, req.op);
	EXPECT_STREQ("-\n", reply(&req, 0));
}

TEST(register_bounds)
{
	struct dmproto_req req;

	EXPECT_EQ(0, parse("rc", 0, &req));
	EXPECT_EQ(-EINVAL, parse("rd", 0, &req));
	EXPECT_EQ(-EINVAL, parse("rffffffff", 0, &req));
	EXPECT_EQ(-EINVAL, parse("wd:0", 0, &req));
	/* one bad address rejects the whole batch: nothing is done */
	EXPECT_EQ(-EINVAL, parse("R0,1,d", 0, &req));
	EXPECT_EQ(-EINVAL, parse("W3,10:1,2", 0, &req));
}

TEST(counts)
{
	struct dmproto_req req;

	EXPECT_EQ(-EINVAL, parse("R0,1,2,3,4,5,6,7,8", 0, &req));	/* 9 addresses */
	EXPECT_EQ(-EINVAL, parse("W0,1,2,3,4,5,6,7,8:0,0,0,0,0,0,0,0,0", 0, &req));
	EXPECT_EQ(-EINVAL, parse("W1,2:3", 0, &req));			/* fewer values */
	EXPECT_EQ(-EINVAL, parse("W1:3,4", 0, &req));			/* more values */
	EXPECT_EQ(-EINVAL, parse("W1,2:3,4,5,6,7,8,9,a,b", 0, &req));
	EXPECT_EQ(-EINVAL, parse("r1,2", 0, &req));			/* r: one */
	EXPECT_EQ(-EINVAL, parse("w1,2:3,4", 0, &req));
	EXPECT_EQ(-EINVAL, parse("R", 0, &req));
	EXPECT_EQ(-EINVAL, parse("R1,", 0, &req));
	EXPECT_EQ(-EINVAL, parse("R,1", 0, &req));
	EXPECT_EQ(-EINVAL, parse("R1,,2", 0, &req));
	EXPECT_EQ(-EINVAL, parse("W1,2:3,", 0, &req));
}

TEST(colons)
{
	struct dmproto_req req;

	EXPECT_EQ(-EINVAL, parse("w1", 0, &req));		/* missing colon */
	EXPECT_EQ(-EINVAL, parse("w15", 0, &req));
	EXPECT_EQ(-EINVAL, parse("W1,2", 0, &req));
	EXPECT_EQ(-EINVAL, parse("r1:2", 0, &req));		/* a read has none */
	EXPECT_EQ(-EINVAL, parse("R1,2:3,4", 0, &req));
	EXPECT_EQ(-EINVAL, parse("w1::2", 0, &req));
	EXPECT_EQ(-EINVAL, parse("w1:2:3", 0, &req));
}

TEST(junk)
{
	struct dmproto_req req;

	EXPECT_EQ(-EINVAL, dmproto_parse("", 0, &req));		/* empty line */
	EXPECT_EQ(-EINVAL, parse("px", 0, &req));
	EXPECT_EQ(-EINVAL, parse("p ", 0, &req));
	EXPECT_EQ(-EINVAL, parse(" p", 0, &req));
	EXPECT_EQ(-EINVAL, parse("sq", 0, &req));
	EXPECT_EQ(-EINVAL, parse("quit", 0, &req));
	EXPECT_EQ(-EINVAL, parse("P", 0, &req));		/* letters are case-sensitive */
	EXPECT_EQ(-EINVAL, parse("S", 0, &req));
	EXPECT_EQ(-EINVAL, parse("x", 0, &req));
	EXPECT_EQ(-EINVAL, parse("r1 ", 0, &req));
	EXPECT_EQ(-EINVAL, parse("r 1", 0, &req));
	EXPECT_EQ(-EINVAL, parse("w1: 2", 0, &req));
	EXPECT_EQ(-EINVAL, parse("w1:2z", 0, &req));
	EXPECT_EQ(-EINVAL, parse("+P", 0, &req));
	EXPECT_EQ(-EINVAL, parse("-", 0, &req));
	EXPECT_EQ(-EINVAL, dmproto_parse(NULL, 300, &req));	/* over-long */
	EXPECT_EQ(DMPROTO_BAD, req.op);
}

TEST(nul_bytes)
{
	struct dmproto_req req;

	EXPECT_EQ(-EINVAL, dmproto_parse("p\0", 2, &req));
	EXPECT_EQ(-EINVAL, dmproto_parse("\0p", 2, &req));
	EXPECT_EQ(-EINVAL, dmproto_parse("r1\0", 3, &req));
	EXPECT_EQ(-EINVAL, dmproto_parse("w1:\0" "2", 4, &req));
	EXPECT_EQ(-EINVAL, dmproto_parse("\0", 1, &req));
}

TEST(carriage_returns)
{
	struct dmproto_req req;

	ASSERT_EQ(0, dmproto_parse("p\r", 2, &req));		/* CR LF */
	EXPECT_EQ(DMPROTO_HELLO, req.op);
	ASSERT_EQ(0, dmproto_parse("w2:1\r", 5, &req));
	EXPECT_EQ(1, req.value[0]);
	EXPECT_EQ(-EINVAL, dmproto_parse("\r", 1, &req));	/* lone CR: empty */
	EXPECT_EQ(-EINVAL, dmproto_parse("p\r\r", 3, &req));
	EXPECT_EQ(-EINVAL, dmproto_parse("\rp", 2, &req));
	EXPECT_EQ(-EINVAL, dmproto_parse("r1\r2", 4, &req));
	EXPECT_EQ(-EINVAL, dmproto_parse("w1\r:2", 5, &req));
}

/* Feeds @in in chunks of @chunk bytes; collects lines as "line|" ("!|" over-long). */
static void collect(const char *in, size_t n, size_t chunk, char *out)
{
	struct dmproto_lines l = { 0 };
	const char *line;
	size_t off = 0, len, end, used;

	*out = 0;
	while (off < n) {
		end = off + chunk < n ? off + chunk : n;
		while (off < end) {
			line = in;	/* sentinel: no line ended */
			used = dmproto_lines_feed(&l, in + off, end - off, &line, &len);
			off += used;
			if (line == in)
				continue;
			if (line)
				strncat(out, line, len);
			else
				strcat(out, "!");
			strcat(out, "|");
		}
	}
}

TEST(lines_in_chunks)
{
	static const char in[] = "p\nr1\r\nW1,2:3,4\n\nq\npartial";
	char out[256];

	for (size_t chunk = 1; chunk <= sizeof(in); chunk++) {
		collect(in, sizeof(in) - 1, chunk, out);
		ASSERT_STREQ("p|r1\r|W1,2:3,4||q|", out)
			TH_LOG("chunks of %zu bytes", chunk);
	}
}

TEST(overlong_line_discarded_to_newline)
{
	char in[1200], out[1300];
	struct dmproto_req req;
	size_t n;

	/* exactly DMPROTO_LINE_MAX bytes is a line; one more is not */
	memset(in, '0', sizeof(in));
	in[0] = 'r';
	in[DMPROTO_LINE_MAX] = '\n';
	memcpy(in + DMPROTO_LINE_MAX + 1, "r", 1);
	in[2 * DMPROTO_LINE_MAX + 2] = '\n';
	memcpy(in + 2 * DMPROTO_LINE_MAX + 3, "p\n", 2);
	n = 2 * DMPROTO_LINE_MAX + 5;
	for (size_t chunk = 1; chunk < n; chunk += 37) {
		collect(in, n, chunk, out);
		ASSERT_EQ(DMPROTO_LINE_MAX + 1 + 4, strlen(out));
		ASSERT_EQ(0, strcmp(out + DMPROTO_LINE_MAX, "|!|p|"))
			TH_LOG("chunks of %zu bytes: %s", chunk, out + DMPROTO_LINE_MAX);
	}
	/* 256 bytes of hex digits: a line, but not a valid command */
	EXPECT_EQ(-EINVAL, dmproto_parse(in, DMPROTO_LINE_MAX, &req));
}

TEST(longest_valid_line)
{
	static const char line[] = "W0000000c,0000000b,0000000a,00000009,00000008,"
		"00000007,00000006,00000005:ffffffff,fffffffe,fffffffd,fffffffc,"
		"fffffffb,fffffffa,fffffff9,fffffff8\r";
	struct dmproto_req req;

	ASSERT_LT(sizeof(line) - 1, DMPROTO_LINE_MAX);
	ASSERT_EQ(0, dmproto_parse(line, sizeof(line) - 1, &req));
	EXPECT_EQ(8, req.count);
	EXPECT_EQ(0xc, req.reg[0]);
	EXPECT_EQ(5, req.reg[7]);
	EXPECT_EQ(0xfffffff8, req.value[7]);
}

TEST_HARNESS_MAIN
