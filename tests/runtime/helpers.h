/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The runtime suites' helpers (tests/runtime/test_*.c). They need one NUMA
 * node only: a test seam replaces the scanner's node query and says which
 * pages are on a slow node, so the real protection, the real handler,
 * tierpol's real decision and move_pages(2) (to the node the pages are on
 * already) all run on any Linux machine; another replaces the clock, so
 * the hot and cold verdicts do not depend on the machine's speed.
 */
#ifndef TPRT_TEST_HELPERS_H
#define TPRT_TEST_HELPERS_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "tprt_impl.h"

#define PG		4096UL

/* ---- the watchdog ----------------------------------------------------------- */

/*
 * A test that hangs fails instead of blocking CI: each test runs under an
 * alarm (TPRT_TEST_TIMEOUT seconds, 120 by default, 0: none). When it
 * fires, the handler names the test, prints every thread's backtrace with
 * gdb if there is one (TPRT_TEST_GDB=0: not), and aborts. Tests are listed
 * with rt_test(f) instead of cmocka_unit_test(f).
 */
#define WD_GDB		"/usr/bin/gdb"
#define WD_GDB_SECS	60

static const char *volatile wd_name;
static unsigned int wd_secs;
static bool wd_gdb;
static char wd_pid[16];

static void wd_puts(const char *s)
{
	ssize_t n = write(2, s, strlen(s));

	(void)n;
}

static void wd_putu(unsigned long v)
{
	char buf[24], *p = buf + sizeof(buf);

	*--p = 0;
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	wd_puts(p);
}

/* gdb's backtraces of every thread; at most WD_GDB_SECS. */
static void wd_backtraces(void)
{
	char *const argv[] = { WD_GDB, "-p", wd_pid, "-batch", "-nx",
			       "-ex", "thread apply all bt", NULL };
	struct timespec t = { 0, 100000000L };
	int i, st;
	pid_t pid;

	/* The child may trace its parent (Yama's ptrace_scope 1). */
	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	pid = fork();
	if (pid < 0)
		return;
	if (!pid) {
		dup2(2, 1);
		execv(WD_GDB, argv);
		_exit(127);
	}
	for (i = 0; i < WD_GDB_SECS * 10; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return;
		nanosleep(&t, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
}

static void wd_fire(int sig)
{
	const char *name = wd_name;

	(void)sig;
	wd_puts("\nwatchdog: ");
	wd_puts(name ? name : "?");
	wd_puts(" still running after ");
	wd_putu(wd_secs);
	wd_puts(" s: aborting\n");
	if (wd_gdb)
		wd_backtraces();
	signal(SIGABRT, SIG_DFL);
	abort();
}

/* The setup of every test: arm the alarm; @state holds the test's name. */
__attribute__((unused)) static int wd_arm(void **state)
{
	static bool once;
	struct sigaction sa;

	if (!once) {
		const char *e = getenv("TPRT_TEST_TIMEOUT");
		const char *g = getenv("TPRT_TEST_GDB");

		once = true;
		wd_secs = e ? (unsigned int)strtoul(e, NULL, 10) : 120;
		wd_gdb = (!g || strcmp(g, "0")) && !access(WD_GDB, X_OK);
		snprintf(wd_pid, sizeof(wd_pid), "%d", (int)getpid());
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = wd_fire;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGALRM, &sa, NULL);
	}
	wd_name = *state;
	alarm(wd_secs);
	return 0;
}

__attribute__((unused)) static int wd_disarm(void **state)
{
	(void)state;
	alarm(0);
	wd_name = NULL;
	return 0;
}

#define rt_test(f)	{ .name = #f, .test_func = f, .setup_func = wd_arm, \
			  .teardown_func = wd_disarm, .initial_state = (void *)#f }

/* ---- helpers ------------------------------------------------------------ */

/* Pages in [fast_lo, fast_hi) are on node 0, other present pages node 1. */
static uintptr_t fast_lo, fast_hi;

__attribute__((unused)) static int fake_query(void *const *pages, int *status, size_t n)
{
	size_t i;

	if (syscall(SYS_move_pages, 0, n, pages, NULL, status, 0) < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		uintptr_t a = (uintptr_t)pages[i];

		if (status[i] >= 0)
			status[i] = a >= fast_lo && a < fast_hi ? 0 : 1;
	}
	return 0;
}

/* A clock the tests move by hand (test_handler), 0: the real one. */
static _Atomic uint64_t fake_ns;

__attribute__((unused)) static uint64_t fake_now(void)
{
	uint64_t t = atomic_load(&fake_ns);
	struct timespec ts;

	if (t)
		return t;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static const struct tprt_hooks hooks = {
	.node_query = fake_query,
	.now = fake_now,
};

/* Start a runtime for a test: no threads unless asked, fake topology. */
__attribute__((unused)) static void rt_start(uint32_t flags, void (*tweak)(struct tprt_cfg *))
{
	struct tprt_cfg cfg;

	tprt_cfg_default(&cfg);
	cfg.fast_node = 0;
	cfg.flags = flags | TPRT_F_NO_NUDGE;
	if (tweak)
		tweak(&cfg);
	/* A failed test may have left one running. */
	if (tprt_rt && atomic_load(&tprt_rt->running))
		tprt_shutdown();
	fast_lo = fast_hi = 0;
	tprt_set_hooks(&hooks);
	assert_int_equal(tprt_init(&cfg), 0);
}

__attribute__((unused)) static char *map_touched(size_t pages)
{
	char *p = mmap(NULL, pages * PG, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t i;

	assert_true(p != MAP_FAILED);
	madvise(p, pages * PG, MADV_NOHUGEPAGE);
	for (i = 0; i < pages; i++)
		p[i * PG] = (char)i;
	return p;
}

/* Mappings that overlap [a, a + len), from /proc/self/maps. */
__attribute__((unused)) static int count_vmas(const void *a, size_t len)
{
	uintptr_t s = (uintptr_t)a, e = s + len;
	unsigned long lo, hi;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int n = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo < e && hi > s)
			n++;
	fclose(f);
	return n;
}

/*
 * Every mapping that overlaps [a, a + len) has rights @perm ("r--p"); false
 * if /proc/self/maps cannot be read. No cmocka assert: children call it.
 */
__attribute__((unused)) static bool maps_perm(const void *a, size_t len,
					      const char *perm)
{
	uintptr_t s = (uintptr_t)a, e = s + len;
	unsigned long lo, hi;
	char line[512], rights[5];
	FILE *f = fopen("/proc/self/maps", "r");
	bool ok = f != NULL;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, rights) == 3 &&
		    lo < e && hi > s && strcmp(rights, perm))
			ok = false;
	if (f)
		fclose(f);
	return ok;
}

__attribute__((unused)) static void mem_set(uint64_t free, uint64_t low)
{
	struct tprt_mem m = {
		.free = free, .wmark_min = low / 2, .wmark_low = low,
		.wmark_high = low * 2, .wmark_promo = low * 3,
		.present = 1ULL << 20,
	};

	/* Nothing in flight: every page pushed so far is handled. */
	tprt_mem_publish(tprt_rt, &m, atomic_load(&tprt_rt->mem.pushed));
}

__attribute__((unused)) static uint64_t verdicts(const struct tprt_stats *s, unsigned int v)
{
	return s->verdict[v];
}

/* argv[0], for the tests that run this program again as a child. */
static const char *self_path;

/* Run this program again as a child with @flag; its wait status. */
__attribute__((unused)) static int child_status(const char *flag)
{
	pid_t pid;
	int st;

	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		execl(self_path, self_path, flag, (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return st;
}

__attribute__((unused)) static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

#endif /* TPRT_TEST_HELPERS_H */
