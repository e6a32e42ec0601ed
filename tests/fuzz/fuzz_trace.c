// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * libFuzzer target: tiersim's trace parsers (examples/tiersim/trace.c) on
 * arbitrary bytes (issue 7).
 *
 * The first input byte picks the format (auto, lackey, tiersim) and whether
 * lackey instruction fetches count; the rest is the trace file. tiersim
 * reads traces by path (trace_open() streams the file, and every replay
 * opens it again), so the bytes go to a memfd and the parser gets
 * /proc/self/fd/N: no disk I/O. Checked on every input:
 *
 *  - a rejected trace has a "PATH: reason" or "PATH:LINE: reason" message;
 *  - an accepted trace is consistent: at least one access, pages strictly
 *    ascending and each found by trace_page_index(), counts summing to the
 *    accesses, VMAs covering the pages in order, 1..64 threads;
 *  - replaying it (trace_stream_*) yields exactly nr_accesses accesses, each
 *    on a known page and thread, and no error: the second pass must accept
 *    what the first pass validated.
 *
 * Without examples/tiersim/trace.c in the tree the target prints SKIPPED
 * and exits 0 (.ci/fuzz-run.sh reports it).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if __has_include("../../examples/tiersim/trace.c")
#include "../../examples/tiersim/trace.c"
#define HAVE_TRACE 1
#else
#define HAVE_TRACE 0
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FAIL(...) do {							\
	fprintf(stderr, "fuzz_trace: ");				\
	fprintf(stderr, __VA_ARGS__);					\
	fputc('\n', stderr);						\
	abort();							\
} while (0)

static int fd = -1;
static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!HAVE_TRACE) {
		printf("SKIPPED fuzz_trace: examples/tiersim/trace.c is not in this tree\n");
		exit(0);
	}
	fd = memfd_create("fuzz_trace", 0);
	if (fd < 0) {
		perror("memfd_create");
		exit(1);
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return 0;
}

#if HAVE_TRACE
static void check_trace(const struct trace *t)
{
	struct trace_stream s;
	uint64_t buf[7], gap[7], i, sum = 0, pages = 0, total = 0;
	char err[512];
	long n;

	if (!t->nr_accesses || !t->nr_pages || t->nr_pages > t->nr_accesses)
		FAIL("%llu accesses on %llu pages",
		     (unsigned long long)t->nr_accesses,
		     (unsigned long long)t->nr_pages);
	if (t->nr_threads < 1 || t->nr_threads > WL_MAX_THREADS)
		FAIL("%u threads", t->nr_threads);
	for (i = 0; i < t->nr_pages; i++) {
		if (i && t->vpn[i] <= t->vpn[i - 1])
			FAIL("pages not ascending at %llu",
			     (unsigned long long)i);
		if (trace_page_index(t, t->vpn[i]) != (int64_t)i)
			FAIL("page %llu not found", (unsigned long long)i);
		sum += t->count[i];
	}
	if (sum != t->nr_accesses)	/* counts saturate at 2^32 - 1 only */
		FAIL("counts sum to %llu, %llu accesses",
		     (unsigned long long)sum,
		     (unsigned long long)t->nr_accesses);
	for (i = 0; i < t->nr_vmas; i++) {
		if (t->vma[i].first != pages || !t->vma[i].pages)
			FAIL("vma %llu", (unsigned long long)i);
		pages += t->vma[i].pages;
	}
	if (pages != t->nr_pages)
		FAIL("VMAs cover %llu of %llu pages",
		     (unsigned long long)pages,
		     (unsigned long long)t->nr_pages);

	/* The second pass accepts what the first validated. */
	if (trace_stream_open(&s, t, err, sizeof(err)))
		FAIL("replay open: %s", err);
	while ((n = trace_stream_fill(&s, buf, t->has_time ? gap : NULL, 7,
				      err, sizeof(err))) > 0) {
		for (i = 0; i < (uint64_t)n; i++) {
			if (WL_PAGE(buf[i]) >= t->nr_pages ||
			    WL_TID(buf[i]) >= t->nr_threads)
				FAIL("access %#llx out of range",
				     (unsigned long long)buf[i]);
		}
		total += (uint64_t)n;
	}
	if (n < 0)
		FAIL("replay of a validated trace failed: %s", err);
	if (total != t->nr_accesses)
		FAIL("replayed %llu of %llu accesses",
		     (unsigned long long)total,
		     (unsigned long long)t->nr_accesses);
	trace_stream_close(&s);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#if HAVE_TRACE
	static const int formats[3] = { TRACE_AUTO, TRACE_LACKEY,
					 TRACE_TIERSIM };
	struct trace t;
	char err[512];
	int format, instr;

	if (!size)
		return 0;
	format = formats[data[0] % 3];
	instr = (data[0] >> 2) & 1;
	if (ftruncate(fd, 0) || pwrite(fd, data + 1, size - 1, 0) !=
	    (ssize_t)(size - 1)) {
		perror("memfd");
		abort();
	}
	err[0] = 0;
	if (trace_open(&t, path, format, instr, err, sizeof(err))) {
		if (strncmp(err, path, strlen(path)) ||
		    err[strlen(path)] != ':')
			FAIL("error without \"PATH:\": \"%s\"", err);
		return 0;
	}
	check_trace(&t);
	trace_close(&t);
#else
	(void)data;
	(void)size;
#endif
	return 0;
}
