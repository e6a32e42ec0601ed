// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The kernel-truth harness's speed profile (tests/truth/truth_fit.c,
 * write_cpu_file()): the guest's time per access that tiersim's
 * --cpu-ns-file gets, from a kernel run's samples and progress lines, and
 * the fit of kswapd's costs over them. The harness's sources are compiled
 * into this test; a made-up run stands for a guest's.
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
 * A made-up guest run of @threads threads into @k and @d: 1000 ms from
 * t = 0, 10 M accesses in all, 2000 hint faults and 300 promotions in
 * the interval, no scans; each fault costs @fault_ns, each promotion
 * @migrate_ns.
 */
static void made_up_run(struct krun *k, struct derived *d, int threads,
			double fault_ns, double migrate_ns)
{
	static char buf[3][256];
	char line[256];

	memset(k, 0, sizeof(*k));
	memset(d, 0, sizeof(*d));
	snprintf(line, sizeof(line), "acc=0 t_ms=0 threads=%d", threads);
	kv(&k->phase[0], buf[0], sizeof(buf[0]), line);
	k->nr_phases = 1;
	kv(&k->sample[0], buf[1], sizeof(buf[1]),
	   "t_ms=0 acc=0 numa_hint_faults=0 pgpromote_success=0");
	kv(&k->sample[1], buf[2], sizeof(buf[2]),
	   "t_ms=1000 acc=10000000 numa_hint_faults=2000 "
	   "pgpromote_success=300");
	k->nr_samples = 2;
	d->t_start_ms = 0;
	d->t_end_ms = 1000;
	d->acc_total = 10000000;
	d->fault_ns = fault_ns;
	d->migrate_ns = migrate_ns;
}

/*
 * The profile write_cpu_file() writes for @k and @d: up to @max lines
 * "access time-per-access" into @acc and @ns; returns how many.
 */
static int profile(const struct krun *k, const struct derived *d,
		   double *acc, double *ns, int max)
{
	char path[] = "/tmp/test_truth_fit.XXXXXX", line[256];
	int fd, n = 0;
	FILE *f;

	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	write_cpu_file(path, k, d);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#' && n < max) {
			assert_int_equal(sscanf(line, "%lf %lf", &acc[n],
						&ns[n]), 2);
			n++;
		}
	fclose(f);
	unlink(path);
	return n;
}

/* The time per access made_up_run() gives: one interval. */
static double cpu_ns(int threads, double fault_ns, double migrate_ns)
{
	static struct krun k;
	struct derived d;
	double acc[2], ns[2];

	made_up_run(&k, &d, threads, fault_ns, migrate_ns);
	assert_int_equal(profile(&k, &d, acc, ns, 2), 1);
	assert_true(acc[0] == 0);
	return ns[0];
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

/*
 * Progress lines between the samples (truth-guest --prog-ms): the run of
 * made_up_run() with a line at 500 ms, when 1 M accesses, all the hint faults
 * and all the promotions were done. The profile follows the line: the
 * first half (500 ms less 0.26 s, over 1 M accesses) 240 ns an access,
 * the second (500 ms over 9 M) 56. With TRUTH_PROG=off, or before the
 * lines, one interval of 74 ns.
 */
static void test_cpu_prog(void **state)
{
	static struct krun k;
	struct derived d;
	char line[256];
	double acc[4], ns[4];

	(void)state;
	made_up_run(&k, &d, 1, 100000, 200000);
	snprintf(line, sizeof(line), "t_ms=500 acc=1000000 "
		 "numa_hint_faults=2000 pgpromote_success=300 more=1");
	parse_prog(&k, line);
	snprintf(line, sizeof(line), "t_ms=700 acc=3000000");
	parse_prog(&k, line);	/* no counters: skipped */
	assert_int_equal(k.nr_prog, 1);

	assert_int_equal(profile(&k, &d, acc, ns, 4), 2);
	assert_true(acc[0] == 0 && ns[0] == 240);
	assert_true(acc[1] == 1000000 && ns[1] == 56);

	setenv("TRUTH_PROG", "off", 1);
	assert_int_equal(profile(&k, &d, acc, ns, 4), 1);
	assert_true(acc[0] == 0 && ns[0] == 74);
	unsetenv("TRUTH_PROG");
}

/*
 * Fitted costs that take more than their interval: the progress line at
 * 100 ms has 1 M accesses and all the faults and promotions (0.26 s of
 * fitted cost in 0.1 s). That interval gets 1 ns an access, and the
 * 0.161 s it lacks come out of the next: (900 - 161) ms over 9 M
 * accesses, 82 ns. The run keeps its 1000 ms less the 0.26 s; without
 * the carry the second interval had 100 ns and the run 0.16 s more.
 */
static void test_cpu_prog_carry(void **state)
{
	static struct krun k;
	struct derived d;
	char line[256];
	double acc[4], ns[4];

	(void)state;
	made_up_run(&k, &d, 1, 100000, 200000);
	snprintf(line, sizeof(line), "t_ms=100 acc=1000000 "
		 "numa_hint_faults=2000 pgpromote_success=300");
	parse_prog(&k, line);

	assert_int_equal(profile(&k, &d, acc, ns, 4), 2);
	assert_true(acc[0] == 0 && ns[0] == 1);
	assert_true(acc[1] == 1000000 && ns[1] == 82);
}

/*
 * kswapd's costs (fit_kswapd_cost()): made up at 4 us a look and 120 us a
 * demotion over ten 100 ms intervals, with a different mix of looks and
 * demotions in each. The two samples at 0 and 1000 ms alone are one
 * interval: no fit. With the progress lines between them, the fit finds
 * both costs over the ten. A line of the guest's first kind (no kswapd
 * counters) is left out of the fit, and so are all of them with
 * TRUTH_PROG=off.
 */
static void test_kswapd_fit_prog(void **state)
{
	static struct krun k;
	static char sbuf[2][512];
	struct derived d;
	double looks = 0, dem = 0, cpu_ms = 0;
	char line[512];
	int j;

	(void)state;
	memset(&k, 0, sizeof(k));
	kv(&k.sample[0], sbuf[0], sizeof(sbuf[0]),
	   "t_ms=0 pgscan_kswapd=0 pgrefill=0 pgdemote_kswapd=0 "
	   "kswapd_cpu_ms=0");
	for (j = 1; j <= 10; j++) {
		double x = 1000.0 * j, y = 5 + 10 * (j % 3);

		looks += x;
		dem += y;
		cpu_ms += (4000 * x + 120000 * y) / 1e6;
		snprintf(line, sizeof(line), "t_ms=%d acc=%d "
			 "numa_hint_faults=0 pgpromote_success=0 "
			 "pgscan_kswapd=%.0f pgrefill=%.0f "
			 "pgdemote_kswapd=%.0f kswapd_cpu_ms=%.6f", 100 * j,
			 1000 * j, looks - 7 * j, 7.0 * j, dem, cpu_ms);
		if (j < 10)
			parse_prog(&k, line);
		else
			kv(&k.sample[1], sbuf[1], sizeof(sbuf[1]), line);
	}
	k.nr_samples = 2;
	/* An older line, with no kswapd counters and a wrong time. */
	snprintf(line, sizeof(line), "t_ms=150 acc=1500 numa_hint_faults=0 "
		 "pgpromote_success=0");
	parse_prog(&k, line);
	assert_int_equal(k.nr_prog, 10);
	assert_true(k.prog[9].kcpu_ms == -1 && k.prog[9].klooks == -1);
	assert_true(k.prog[0].klooks == 1000);

	memset(&d, 0, sizeof(d));
	assert_int_equal(fit_kswapd_cost(&k, &d), 0);
	assert_int_equal(d.kswapd_fit, 10);
	assert_true(d.reclaim_ns > 3999.99 && d.reclaim_ns < 4000.01);
	assert_true(d.demote_ns > 119999.9 && d.demote_ns < 120000.1);

	setenv("TRUTH_PROG", "off", 1);
	memset(&d, 0, sizeof(d));
	assert_int_equal(fit_kswapd_cost(&k, &d), -1);
	assert_int_equal(d.kswapd_fit, 0);
	unsetenv("TRUTH_PROG");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_one_thread),
		cmocka_unit_test(test_cpu_two_threads),
		cmocka_unit_test(test_cpu_prog),
		cmocka_unit_test(test_cpu_prog_carry),
		cmocka_unit_test(test_kswapd_fit_prog),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
