// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The kernel-truth harness's speed profile (tests/truth/truth_fit.c,
 * write_cpu_file()): the guest's time per access that tiersim's
 * --cpu-ns-file gets, from a kernel run's samples. The harness's sources
 * are compiled into this test; a made-up run stands for a guest's.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Before cmocka.h, whose fail() macro json.c's fail() would meet. */
#include "truth/truth_fit.c"
#include "truth/truth_parse.c"
#include "truth/json.c"

#include <cmocka.h>

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	fail();
	abort();
}

/* One key=value line into @l (its text kept in @buf). */
static void kv(struct kvl *l, char *buf, size_t n, const char *line)
{
	snprintf(buf, n, "%s", line);
	kvl_parse(l, buf);
}

/*
 * A guest run of @threads threads: 1000 ms from t = 0, 10 M accesses in
 * all, 2000 hint faults and 300 promotions in the interval, no scans.
 * Returns the time per access written for it.
 */
static double cpu_ns(int threads, double fault_ns, double migrate_ns)
{
	static struct krun k;
	static char buf[4][256];
	struct derived d;
	char path[] = "/tmp/test_truth_fit.XXXXXX", line[256];
	double acc = -1, ns = -1;
	FILE *f;
	int fd;

	memset(&k, 0, sizeof(k));
	memset(&d, 0, sizeof(d));
	snprintf(line, sizeof(line), "acc=0 t_ms=0 threads=%d", threads);
	kv(&k.phase[0], buf[0], sizeof(buf[0]), line);
	k.nr_phases = 1;
	kv(&k.sample[0], buf[1], sizeof(buf[1]),
	   "t_ms=0 acc=0 numa_hint_faults=0 pgpromote_success=0");
	kv(&k.sample[1], buf[2], sizeof(buf[2]),
	   "t_ms=1000 acc=10000000 numa_hint_faults=2000 "
	   "pgpromote_success=300");
	k.nr_samples = 2;
	d.t_start_ms = 0;
	d.t_end_ms = 1000;
	d.acc_total = 10000000;
	d.fault_ns = fault_ns;
	d.migrate_ns = migrate_ns;

	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	write_cpu_file(path, &k, &d);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#')
			assert_int_equal(sscanf(line, "%lf %lf", &acc, &ns), 2);
	fclose(f);
	unlink(path);
	assert_true(acc == 0);
	return ns;
}

/*
 * One thread: its 1000 ms less 2000 faults x 100 us and 300 promotions x
 * 200 us (0.26 s), over 10 M accesses: 74 ns an access.
 */
static void test_cpu_one_thread(void **state)
{
	(void)state;
	assert_true(cpu_ns(1, 100000, 200000) == 74);
	assert_true(cpu_ns(1, 0, 0) == 100);
}

/*
 * Two threads side by side: 2000 ms of their time, the faults and
 * promotions taken once (each ran in one thread), over 10 M accesses
 * (5 M each): (2000 - 260) ms / 10 M = 174 ns an access of a thread. The
 * harness took them from both threads' time until December 2026 (148).
 */
static void test_cpu_two_threads(void **state)
{
	(void)state;
	assert_true(cpu_ns(2, 100000, 200000) == 174);
	assert_true(cpu_ns(2, 0, 0) == 200);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_one_thread),
		cmocka_unit_test(test_cpu_two_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
