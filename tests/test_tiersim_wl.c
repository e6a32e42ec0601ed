// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim's inputs: the trace readers (errors with file, line and reason;
 * lackey's and tiersim's formats) and the workload generators
 * (determinism, shapes, threads, bad parameters).
 *
 * It links the generators' and the trace reader's objects, which every
 * build of the tests compiles, sanitizers included.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../examples/tiersim/sim.h"
#include "../examples/tiersim/trace.h"
#include "../examples/tiersim/wl.h"
#include "tiersim_tmp.h"

/* ---- traces ---------------------------------------------------------------- */

static void expect_trace_error(const char *name, const char *text, int fmt,
			       int line, const char *why)
{
	struct trace t;
	char err[SIM_ERRLEN], want[300];
	const char *path = write_file(name, text);

	assert_int_equal(trace_open(&t, path, fmt, 0, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:%d: ", path, line);
	if (strncmp(err, want, strlen(want))) {
		print_error("got \"%s\", want prefix \"%s\"\n", err, want);
		fail();
	}
	assert_non_null(strstr(err, why));
}

static void test_trace_errors(void **state)
{
	(void)state;
	expect_trace_error("bad1.txt", "R 1000\nW 2000\nX 3000\n",
			   TRACE_AUTO, 3, "unknown operation");
	expect_trace_error("bad2.txt", "# c\nR 1000\nR zz\n", TRACE_TIERSIM,
			   3, "bad hexadecimal address");
	expect_trace_error("bad3.txt", "R 1000 70000\n", TRACE_TIERSIM, 1,
			   "bad thread id");
	expect_trace_error("bad4.txt", "R 1000 1 5\nR 2000 1\n", TRACE_TIERSIM,
			   2, "timestamp missing");
	/* the other way round: no time, then one (its order was judged
	 * against a time never read, and said so) */
	expect_trace_error("bad4b.txt", "R 1000\nR 2000 0 5\n", TRACE_TIERSIM,
			   2, "unexpected timestamp (earlier accesses have "
			   "none)");
	/* a carriage return ends a line only as a CRLF's: what follows one
	 * inside a line was dropped unseen */
	expect_trace_error("cr1.txt", "R 1000\rjunk\nR 2000\n", TRACE_AUTO,
			   1, "garbage after the address");
	expect_trace_error("cr2.txt", "R 1000\nR 2000 3\rxx\n",
			   TRACE_TIERSIM, 2, "garbage after the thread id");
	expect_trace_error("cr3.txt", "R 1000\n\rjunk here\n", TRACE_TIERSIM,
			   2, "unknown operation");
	expect_trace_error("cr4.txt", " L 1000,8\rjunk\n", TRACE_LACKEY, 1,
			   "expected \",SIZE\"");
	expect_trace_error("cr5.txt", "I  0401ab70,3\n\rjunk\n", TRACE_AUTO,
			   2, "not a lackey line");
	expect_trace_error("bad5.txt", "R 1000 1 5 junk\n", TRACE_TIERSIM, 1,
			   "garbage after the timestamp");
	expect_trace_error("bad6.txt",
			   "==1== Lackey\nI  0401ab70,3\n L 1fff000708\n",
			   TRACE_AUTO, 3, "expected \",SIZE\"");
	expect_trace_error("bad7.txt", "I  0401ab70,3\nhello\n", TRACE_AUTO,
			   2, "not a lackey line");
	expect_trace_error("bad8.txt", "# only a comment\n\n", TRACE_AUTO, 2,
			   "no memory accesses");
	/* lackey sizes: an access of no bytes, or more than any is */
	expect_trace_error("bad10.txt", "I  0401ab70,3\n L 1ffefff8,0\n",
			   TRACE_AUTO, 2, "size out of range (allowed: 1 to "
			   "65536 bytes)");
	expect_trace_error("bad11.txt",
			   " L 1ffefff8,99999999999999999999999\n",
			   TRACE_LACKEY, 1, "size out of range");
	expect_trace_error("bad12.txt", " L 1ffefff8,65537\n", TRACE_LACKEY,
			   1, "size out of range");
	expect_trace_error("bad9.txt", "R 1000 1 5\nR 2000 2 5\nW 1000 1 4\n",
			   TRACE_TIERSIM, 3, "timestamp 4 ns is before the "
			   "previous access's, 5 ns on line 2 (timestamps "
			   "must not decrease)");
}

/*
 * A trace is read twice: a FIFO is refused before it is opened (opening
 * one blocks until a writer comes; reading it twice never ended), and a
 * file that changes between the two readings fails the second.
 */
static void test_trace_twice(void **state)
{
	struct trace t;
	struct trace_stream ts;
	char err[SIM_ERRLEN], fifo[256];
	uint64_t buf[16];
	const char *path;
	FILE *f;

	(void)state;
	snprintf(fifo, sizeof(fifo), "%s/fifo", tmpdir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(trace_open(&t, fifo, TRACE_AUTO, 0, err,
				    sizeof(err)), -1);
	assert_non_null(strstr(err, "fifo: not a regular file (a trace is "
			       "read twice"));
	assert_int_equal(trace_open(&t, tmpdir, TRACE_AUTO, 0, err,
				    sizeof(err)), -1);
	assert_non_null(strstr(err, ": Is a directory"));

	path = write_file("twice.txt", "R 1000\nR 2000\nR 3000\n");
	assert_int_equal(trace_open(&t, path, TRACE_AUTO, 0, err,
				    sizeof(err)), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("R 1000\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(trace_stream_open(&ts, &t, err, sizeof(err)), 0);
	assert_int_equal(trace_stream_fill(&ts, buf, NULL, 16, err,
					   sizeof(err)), 1);
	assert_int_equal(trace_stream_fill(&ts, buf, NULL, 16, err,
					   sizeof(err)), -1);
	assert_non_null(strstr(err, "the trace changed since it was indexed "
			       "(1 accesses instead of 3)"));
	trace_stream_close(&ts);
	trace_close(&t);

	/* grown: the lines added were replayed (or ignored) unseen */
	path = write_file("grown.txt", "R 1000\nR 2000\n");
	assert_int_equal(trace_open(&t, path, TRACE_AUTO, 0, err,
				    sizeof(err)), 0);
	f = fopen(path, "a");
	assert_non_null(f);
	fputs("# more\nR 1000\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(trace_stream_open(&ts, &t, err, sizeof(err)), 0);
	assert_int_equal(trace_stream_fill(&ts, buf, NULL, 16, err,
					   sizeof(err)), -1);
	assert_non_null(strstr(err, "grown.txt:4: the trace changed since it "
			       "was indexed"));
	trace_stream_close(&ts);
	trace_close(&t);
}

static const char lackey_text[] =
	"==5310== Lackey, an example Valgrind tool\n"
	"==5310== Command: /bin/true\n"
	"==5310== \n"
	"I  0401ab70,3\n"
	" S 1fff000708,8\n"
	"I  0401b770,1\n"
	" L 0401c000,8\n"
	" M 1fff000ff8,8\n"
	" L 7ff000001000,4\n"
	"I  0401b771,7\n"
	"==5310== Counted 0 calls to main()\n";

/* CRLF line ends, and a last line without one, are lines as any other. */
static void test_trace_crlf(void **state)
{
	struct trace t;
	char err[SIM_ERRLEN];
	const char *path = write_file("crlf.txt", "R 1000\r\nW 2000 1 5\r\n"
				      "# c\r\n\r\nR 3000 1 9\r");

	(void)state;
	assert_int_equal(trace_open(&t, path, TRACE_AUTO, 0, err, sizeof(err)),
			 -1);	/* the first line has no time */
	path = write_file("crlf2.txt", "R 1000 0 1\r\nW 2000 1 5\r\n"
			  "# c\r\n\r\nR 3000 1 9\r");
	assert_int_equal(trace_open(&t, path, TRACE_AUTO, 0, err, sizeof(err)),
			 0);
	assert_int_equal(t.format, TRACE_TIERSIM);
	assert_int_equal(t.nr_accesses, 3);
	assert_int_equal(t.nr_threads, 2);
	trace_close(&t);
	path = write_file("crlf3.txt", "==1== x\r\n L 1000,8\r\n\r\n"
			  " S 2000,4\r\n");
	assert_int_equal(trace_open(&t, path, TRACE_AUTO, 0, err, sizeof(err)),
			 0);
	assert_int_equal(t.format, TRACE_LACKEY);
	assert_int_equal(t.nr_accesses, 2);
	trace_close(&t);
}

static void test_lackey_parse(void **state)
{
	struct trace t;
	struct trace_stream ts;
	char err[SIM_ERRLEN];
	u64 buf[16];
	long n;
	const char *path = write_file("lk.txt", lackey_text);

	(void)state;
	assert_int_equal(trace_open(&t, path, TRACE_AUTO, 0, err, sizeof(err)),
			 0);
	assert_int_equal(t.format, TRACE_LACKEY);
	assert_int_equal(t.nr_accesses, 4);
	/* 0x1fff000 (S and M), 0x401c, 0x7ff000001 */
	assert_int_equal(t.nr_pages, 3);
	assert_int_equal(t.nr_threads, 1);
	assert_int_equal(t.has_time, 0);
	/* Address order: 0x401c, 0x1fff000, 0x7ff000001. */
	assert_int_equal(t.vpn[0], 0x401c);
	assert_int_equal(t.vpn[1], 0x1fff000);
	assert_int_equal(t.vpn[2], 0x7ff000001ULL);
	assert_int_equal(t.count[1], 2);
	assert_int_equal(t.nr_vmas, 3);

	assert_int_equal(trace_stream_open(&ts, &t, err, sizeof(err)), 0);
	n = trace_stream_fill(&ts, buf, NULL, 16, err, sizeof(err));
	assert_int_equal(n, 4);
	assert_int_equal(WL_PAGE(buf[0]), 1);
	assert_int_equal(WL_IS_WRITE(buf[0]), 1);	/* S */
	assert_int_equal(WL_PAGE(buf[1]), 0);
	assert_int_equal(WL_IS_WRITE(buf[1]), 0);	/* L */
	assert_int_equal(WL_PAGE(buf[2]), 1);
	assert_int_equal(WL_IS_WRITE(buf[2]), 1);	/* M */
	assert_int_equal(WL_PAGE(buf[3]), 2);
	assert_int_equal(trace_stream_fill(&ts, buf, NULL, 16, err,
					   sizeof(err)), 0);
	trace_stream_close(&ts);
	trace_close(&t);

	/* Instruction fetches count as reads on request. */
	assert_int_equal(trace_open(&t, path, TRACE_LACKEY, 1, err,
				    sizeof(err)), 0);
	assert_int_equal(t.nr_accesses, 7);
	assert_int_equal(t.nr_pages, 5);
	trace_close(&t);
}

static void test_tiersim_format(void **state)
{
	struct trace t;
	struct trace_stream ts;
	char err[SIM_ERRLEN];
	u64 buf[8], gap[8];
	const char *path = write_file("ts.txt",
		"# tiersim trace\nR 0x1000 3 100\nw 2008 7 150\n"
		"M 1000 3 400\n\nR 0x40000000 3 400\n");

	(void)state;
	assert_int_equal(trace_open(&t, path, TRACE_AUTO, 0, err, sizeof(err)),
			 0);
	assert_int_equal(t.format, TRACE_TIERSIM);
	assert_int_equal(t.nr_accesses, 4);
	assert_int_equal(t.nr_pages, 3);
	assert_int_equal(t.nr_threads, 2);
	assert_int_equal(t.has_time, 1);
	assert_int_equal(t.nr_vmas, 2);
	assert_int_equal(trace_stream_open(&ts, &t, err, sizeof(err)), 0);
	assert_int_equal(trace_stream_fill(&ts, buf, gap, 8, err, sizeof(err)),
			 4);
	assert_int_equal(WL_TID(buf[0]), 0);
	assert_int_equal(WL_TID(buf[1]), 1);
	assert_int_equal(WL_IS_WRITE(buf[1]), 1);
	assert_int_equal(WL_IS_WRITE(buf[2]), 1);
	assert_int_equal(gap[0], 0);
	assert_int_equal(gap[1], 50);
	assert_int_equal(gap[2], 250);
	assert_int_equal(gap[3], 0);
	trace_stream_close(&ts);
	trace_close(&t);

	/*
	 * Indented: " L 1000" starts as a lackey line does, but is a whole
	 * tiersim line (it was taken for lackey, then refused for a missing
	 * ",SIZE"); " L 1000,8" is lackey.
	 */
	path = write_file("ts-indent.txt", "# c\n L 1000 2 5\n\tW 2008 2 9\n"
			  "  S 0x3000 2 12\n");
	assert_int_equal(trace_open(&t, path, TRACE_AUTO, 0, err, sizeof(err)),
			 0);
	assert_int_equal(t.format, TRACE_TIERSIM);
	assert_int_equal(t.nr_accesses, 3);
	assert_int_equal(t.nr_pages, 3);
	trace_close(&t);
	path = write_file("ts-indent2.txt", " S 7f00\n");
	assert_int_equal(trace_open(&t, path, TRACE_AUTO, 0, err, sizeof(err)),
			 0);
	assert_int_equal(t.format, TRACE_TIERSIM);
	assert_int_equal(t.nr_accesses, 1);
	trace_close(&t);
	path = write_file("lk-indent.txt", " L 1000,8\n S 2000,4\n");
	assert_int_equal(trace_open(&t, path, TRACE_AUTO, 0, err, sizeof(err)),
			 0);
	assert_int_equal(t.format, TRACE_LACKEY);
	assert_int_equal(t.nr_accesses, 2);
	trace_close(&t);
	/* A broken lackey line still gets lackey's reason. */
	expect_trace_error("lk-bad.txt", " L 1000,0\n", TRACE_AUTO, 1,
			   "size out of range");

	/*
	 * A comment after the fields, past a blank, as --cpu-ns-file takes
	 * (it was "bad thread id"); "#" against a field is not one.
	 */
	path = write_file("ts-comment.txt", "R 1000 # x\nW 2000 5 # y z\n"
			  "R 0x3000 5\t#\n L 4000 # lackey's L\n");
	assert_int_equal(trace_open(&t, path, TRACE_AUTO, 0, err, sizeof(err)),
			 0);
	assert_int_equal(t.format, TRACE_TIERSIM);
	assert_int_equal(t.nr_accesses, 4);
	assert_int_equal(t.nr_pages, 4);
	assert_int_equal(t.nr_threads, 2);
	trace_close(&t);
	path = write_file("ts-comment-t.txt", "R 1000 1 5 # x\nW 2000 1 9 #\n");
	assert_int_equal(trace_open(&t, path, TRACE_AUTO, 0, err, sizeof(err)),
			 0);
	assert_int_equal(t.has_time, 1);
	assert_int_equal(t.nr_accesses, 2);
	trace_close(&t);
	expect_trace_error("ts-hash1.txt", "R 1000# x\n", TRACE_TIERSIM, 1,
			   "garbage after the address (a # comment needs a "
			   "blank before it)");
	expect_trace_error("ts-hash2.txt", "R 1000 1#\n", TRACE_TIERSIM, 1,
			   "garbage after the thread id");
	expect_trace_error("ts-hash3.txt", "R 1000 1 5#\n", TRACE_TIERSIM, 1,
			   "garbage after the timestamp");
}

/* ---- workloads -------------------------------------------------------------- */

static u64 stream_hash(struct wl *w, u64 *n)
{
	u64 buf[1000], h = 1469598103934665603ULL;
	size_t got, i;

	*n = 0;
	while ((got = wl_fill(w, buf, 1000)) > 0) {
		for (i = 0; i < got; i++)
			h = (h ^ buf[i]) * 1099511628211ULL;
		*n += got;
	}
	return h;
}

static void test_workload_determinism(void **state)
{
	static const u32 kinds[] = { WL_PMBENCH, WL_ZIPF, WL_GUPS_HOTSET,
				     WL_PHASE_SHIFT, WL_COLD_BURST,
				     WL_DISJOINT_VMA, WL_UNIFORM };
	struct wl_params p;
	struct wl a, b;
	char err[SIM_ERRLEN];
	u64 ha, hb, na, nb;
	u32 i;

	(void)state;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		wl_defaults(&p, kinds[i]);
		p.pages = 1 << 14;
		p.accesses = 50000;
		p.burst_pages = 1000;
		p.seed = 42;
		assert_int_equal(wl_init(&a, &p, err, sizeof(err)), 0);
		assert_int_equal(wl_init(&b, &p, err, sizeof(err)), 0);
		ha = stream_hash(&a, &na);
		hb = stream_hash(&b, &nb);
		assert_int_equal(ha, hb);
		assert_int_equal(na, a.total);
		assert_int_equal(na, nb);
		/* The same generator replays the same stream after a rewind. */
		wl_rewind(&a);
		assert_int_equal(stream_hash(&a, &na), ha);
		wl_free(&b);
		p.seed = 43;
		assert_int_equal(wl_init(&b, &p, err, sizeof(err)), 0);
		assert_int_not_equal(stream_hash(&b, &nb), ha);
		wl_free(&a);
		wl_free(&b);
	}
}

static void test_workload_shapes(void **state)
{
	struct wl_params p;
	struct wl w;
	char err[SIM_ERRLEN];
	u64 buf[4096], n = 0, writes = 0, hot = 0;
	double sum = 0, sq = 0, mean, sd;
	size_t got, i;

	(void)state;
	/* pmbench: mean pages / 2, sigma pages / 8, 20 % writes. */
	wl_defaults(&p, WL_PMBENCH);
	p.pages = 1 << 16;
	p.accesses = 400000;
	p.init = 0;
	assert_int_equal(wl_init(&w, &p, err, sizeof(err)), 0);
	while ((got = wl_fill(&w, buf, 4096)) > 0)
		for (i = 0; i < got; i++) {
			double x = (double)WL_PAGE(buf[i]);

			sum += x;
			sq += x * x;
			writes += WL_IS_WRITE(buf[i]);
			n++;
		}
	mean = sum / (double)n;
	sd = sqrt(sq / (double)n - mean * mean);
	assert_true(fabs(mean - 32768) < 100);
	assert_true(fabs(sd - 8192) < 80);
	assert_true(fabs((double)writes / (double)n - 0.2) < 0.005);
	wl_free(&w);

	/* The quantile function is accurate. */
	assert_true(fabs(wl_norm_quantile(0.975) - 1.959964) < 1e-6);
	assert_true(fabs(wl_norm_quantile(0.001) + 3.090232) < 1e-6);

	/* gups-hotset: 90 % of the accesses in the hot set. */
	wl_defaults(&p, WL_GUPS_HOTSET);
	p.pages = 1 << 16;
	p.accesses = 200000;
	p.init = 0;
	assert_int_equal(wl_init(&w, &p, err, sizeof(err)), 0);
	n = 0;
	while ((got = wl_fill(&w, buf, 4096)) > 0)
		for (i = 0; i < got; i++, n++)
			hot += wl_region(&w, WL_PAGE(buf[i])) == WL_REGION_HOT;
	assert_true(fabs((double)hot / (double)n - 0.9) < 0.01);
	wl_free(&w);

	/* cold-burst: the burst touches each of its pages once. */
	wl_defaults(&p, WL_COLD_BURST);
	p.pages = 1 << 16;
	p.accesses = 10000;
	p.burst_pages = 3000;
	p.init = 0;
	assert_int_equal(wl_init(&w, &p, err, sizeof(err)), 0);
	n = 0;
	while ((got = wl_fill(&w, buf, 4096)) > 0) {
		if (strcmp(w.phase[wl_phase(&w)].name, "burst"))
			continue;
		for (i = 0; i < got; i++, n++)
			assert_int_equal(wl_region(&w, WL_PAGE(buf[i])),
					 WL_REGION_BURST);
	}
	assert_int_equal(n, 3000);
	wl_free(&w);
}

/*
 * Per-thread streams: each phase's shares add up to the phase, only the
 * phase's threads take part, and wl_fill() yields exactly the threads'
 * streams one after the other.
 */
static void test_workload_threads(void **state)
{
	static const u32 kinds[] = { WL_PMBENCH, WL_COLD_BURST,
				     WL_DISJOINT_VMA };
	struct wl_params p;
	struct wl w;
	struct wl_thread t;
	char err[SIM_ERRLEN];
	u64 buf[512], ref[512], total, got, n, h_thr, h_fill;
	u32 i, k, ph;

	(void)state;
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		wl_defaults(&p, kinds[k]);
		p.pages = 1 << 14;
		p.accesses = 30001;
		p.burst_pages = 999;
		p.threads = 5;
		assert_int_equal(wl_init(&w, &p, err, sizeof(err)), 0);
		for (ph = 0; ph < w.nr_phases; ph++) {
			for (total = 0, i = 0; i < p.threads; i++) {
				n = wl_thread_quota(&w, ph, i);
				if (i < w.phase[ph].t_lo ||
				    i >= w.phase[ph].t_hi)
					assert_int_equal(n, 0);
				total += n;
			}
			assert_int_equal(total, w.phase[ph].count);
		}
		/* Phase by phase, thread by thread: wl_fill()'s order. */
		h_thr = 1;
		for (ph = 0; ph < w.nr_phases; ph++)
			for (i = 0; i < p.threads; i++) {
				/* Its earlier phases, then phase ph. */
				wl_thread_start(&w, &t, i);
				for (;;) {
					while ((got = wl_thread_fill(&w, &t, buf,
							512)) > 0) {
						u64 j;

						if (t.cur != ph)
							continue;
						for (j = 0; j < got; j++) {
							assert_int_equal(
								WL_TID(buf[j]),
								i);
							h_thr = (h_thr ^ buf[j]) *
								1099511628211ULL;
						}
					}
					if (t.cur == ph ||
					    !wl_thread_next(&w, &t))
						break;
				}
			}
		h_fill = 1;
		wl_rewind(&w);
		while ((got = wl_fill(&w, ref, 512)) > 0)
			for (n = 0; n < got; n++)
				h_fill = (h_fill ^ ref[n]) * 1099511628211ULL;
		assert_int_equal(h_thr, h_fill);
		wl_free(&w);
	}
}

static void test_workload_bad_params(void **state)
{
	struct wl_params p;
	struct wl w;
	char err[SIM_ERRLEN];

	(void)state;
	wl_defaults(&p, WL_PMBENCH);
	p.write_frac = 1.5;
	assert_int_equal(wl_init(&w, &p, err, sizeof(err)), -EINVAL);
	wl_defaults(&p, WL_DISJOINT_VMA);
	p.threads = 1;
	assert_int_equal(wl_init(&w, &p, err, sizeof(err)), -EINVAL);
	/* a sigma so wide that almost no draw lands inside: never ended */
	wl_defaults(&p, WL_PMBENCH);
	p.sigma_frac = 1e6;
	assert_int_equal(wl_init(&w, &p, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "sigma must be in (0, 10]");
	/* phase-shift with no access on a side of the shift: nothing moves */
	wl_defaults(&p, WL_PHASE_SHIFT);
	p.accesses = 1000;
	p.shift_at = 1;
	assert_int_equal(wl_init(&w, &p, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--shift-at 1 of 1000 accesses leaves none "
			    "after the shift (the hot set never moves: no "
			    "response time to measure)");
	p.shift_at = 0.0009;
	assert_int_equal(wl_init(&w, &p, err, sizeof(err)), -EINVAL);
	p.shift_at = 0.001;
	assert_int_equal(wl_init(&w, &p, err, sizeof(err)), 0);
	wl_free(&w);
	assert_int_equal(wl_kind_parse("nope"), -1);
	assert_int_equal(wl_kind_parse("gups-hotset"), WL_GUPS_HOTSET);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_errors),
		cmocka_unit_test(test_trace_twice),
		cmocka_unit_test(test_trace_crlf),
		cmocka_unit_test(test_lackey_parse),
		cmocka_unit_test(test_tiersim_format),
		cmocka_unit_test(test_workload_determinism),
		cmocka_unit_test(test_workload_shapes),
		cmocka_unit_test(test_workload_threads),
		cmocka_unit_test(test_workload_bad_params),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
