// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tprt-demo: a program that has its memory placed by the tierpol runtime.
 *
 * It maps a buffer, touches it (on a machine with a slow tier, what does
 * not fit on the fast node lands there), registers it with the runtime and
 * runs tiersim's pmbench workload (a Gaussian over the pages) on it for a
 * while, printing the runtime's counters every second. On a machine with
 * one node nothing is slow and nothing moves: the demo then shows that the
 * runtime stays out of the way. It also writes part of the buffer to a
 * pipe between tprt_pin() and tprt_unpin(), as a program must for any
 * system call that touches registered memory.
 *
 * Usage: tprt-demo [--pages N] [--seconds S] [--source mprotect|uffd]
 *                  [--sigma F] [--write-frac F] [--off]
 * Bad options are reported with the reason, exit status 2.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "tprt.h"
#include "wl.h"

#define PAGE	4096UL
#define BATCH	4096

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void __attribute__((noreturn)) usage(const char *why)
{
	if (why)
		fprintf(stderr, "tprt-demo: %s\n", why);
	fprintf(why ? stderr : stdout,
		"Usage: tprt-demo [--pages N] [--seconds S] "
		"[--source mprotect|uffd] [--sigma F] [--write-frac F] [--off]\n");
	exit(why ? 2 : 0);
}

static double num(const char *opt, const char *s, double lo, double hi)
{
	char *end, msg[160];
	double v = strtod(s, &end);

	if (!*s || *end || v < lo || v > hi) {
		snprintf(msg, sizeof(msg), "%s: '%s' is not a number in "
			 "[%g, %g]", opt, s, lo, hi);
		usage(msg);
	}
	return v;
}

static void print_stats(double t, unsigned long long acc)
{
	struct tprt_stats s;

	tprt_stats(&s);
	printf("%6.1f s  %9.3f M acc  faults %llu (stale %llu)  promote %llu"
	       " cold %llu toptier %llu nospace %llu  moved %llu  passes %llu"
	       " period %llu ms  vma %llu/%llu\n", t, (double)acc / 1e6,
	       (unsigned long long)s.faults,
	       (unsigned long long)s.faults_stale,
	       (unsigned long long)(s.verdict[TPRT_V_PROMOTE] +
				    s.verdict[TPRT_V_PROMOTE_NRL]),
	       (unsigned long long)s.verdict[TPRT_V_REFUSE_COLD],
	       (unsigned long long)s.verdict[TPRT_V_REFUSE_TOPTIER],
	       (unsigned long long)s.verdict[TPRT_V_REFUSE_NOSPACE],
	       (unsigned long long)s.moved, (unsigned long long)s.passes,
	       (unsigned long long)s.scan_period_ms,
	       (unsigned long long)s.vma_est, (unsigned long long)s.vma_cap);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pages", required_argument, NULL, 'p' },
		{ "seconds", required_argument, NULL, 's' },
		{ "source", required_argument, NULL, 'S' },
		{ "sigma", required_argument, NULL, 'g' },
		{ "write-frac", required_argument, NULL, 'w' },
		{ "off", no_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int source = TPRT_SRC_MPROTECT;
	double seconds = 5, t0, next = 1;
	unsigned long long acc = 0, sink = 0;
	struct tprt_cfg cfg;
	struct wl_params p;
	struct wl w;
	char err[200];
	uint64_t *buf;
	int c, off = 0, fds[2], ret;
	char *mem;
	size_t len, i, n;

	wl_defaults(&p, WL_PMBENCH);
	p.pages = 32768;
	p.accesses = UINT64_MAX / 2;
	p.init = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			p.pages = (uint64_t)num("--pages", optarg, 64, 1 << 26);
			break;
		case 's':
			seconds = num("--seconds", optarg, 0, 86400);
			break;
		case 'S':
			if (!strcmp(optarg, "mprotect"))
				source = TPRT_SRC_MPROTECT;
			else if (!strcmp(optarg, "uffd"))
				source = TPRT_SRC_UFFD_WP;
			else
				usage("--source: mprotect or uffd");
			break;
		case 'g':
			p.sigma_frac = num("--sigma", optarg, 1e-4, 10);
			break;
		case 'w':
			p.write_frac = num("--write-frac", optarg, 0, 1);
			break;
		case 'o':
			off = 1;
			break;
		case 'h':
			usage(NULL);
		default:
			usage("unknown option");
		}
	}
	if (optind != argc)
		usage("unexpected argument");
	if (wl_init(&w, &p, err, sizeof(err))) {
		fprintf(stderr, "tprt-demo: %s\n", err);
		return 2;
	}
	len = p.pages * PAGE;
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	buf = malloc(BATCH * sizeof(*buf));
	if (mem == MAP_FAILED || !buf) {
		fprintf(stderr, "tprt-demo: cannot map %zu bytes\n", len);
		return 1;
	}
	madvise(mem, len, MADV_NOHUGEPAGE);
	memset(mem, 1, len);		/* first touch, in address order */

	if (!off) {
		tprt_cfg_default(&cfg);
		ret = tprt_init(&cfg);
		if (!ret)
			ret = tprt_register(mem, len, source);
		if (ret) {
			fprintf(stderr, "tprt-demo: the runtime: %s\n",
				strerror(-ret));
			return 1;
		}
	}
	printf("tprt-demo: %llu pages, %s, %.0f s\n",
	       (unsigned long long)p.pages,
	       off ? "no runtime" : source ? "userfaultfd-wp" : "mprotect",
	       seconds);

	t0 = now_s();
	while (now_s() - t0 < seconds) {
		n = wl_fill(&w, buf, BATCH);
		for (i = 0; i < n; i++) {
			volatile char *q = mem + WL_PAGE(buf[i]) * PAGE;

			if (WL_IS_WRITE(buf[i]))
				*q = (char)i;
			else
				sink += *q;
		}
		acc += n;
		if (now_s() - t0 >= next) {
			if (!off)
				print_stats(now_s() - t0, acc);
			next += 1;
		}
	}
	/* A system call on registered memory: pinned around it. */
	if (!pipe(fds)) {
		tprt_pin(mem, 16 * PAGE);
		ret = (int)write(fds[1], mem, 16 * PAGE);
		tprt_unpin(mem, 16 * PAGE);
		printf("tprt-demo: write(2) of 16 pinned pages: %s\n",
		       ret == (int)(16 * PAGE) ? "ok" : strerror(errno));
		close(fds[0]);
		close(fds[1]);
	}
	printf("tprt-demo: %.3f M accesses/s\n",
	       (double)acc / (now_s() - t0) / 1e6);
	if (!off) {
		print_stats(now_s() - t0, acc);
		tprt_shutdown();
	}
	wl_free(&w);
	return (int)(sink & 0);
}
