// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * A region's slot reused under faulting threads, for real: the stress
 * side of tests/model/region.pml (which checks the protocol exhaustively;
 * test_hazards.c test_slot_reused puts the slot in each state by hand).
 */
#include "helpers.h"

/*
 * Threads read two ranges, page after page, while the main thread
 * registers one of them in the one free slot (the other slots are full,
 * so it is the same slot each time), scans it, unregisters it and makes
 * it read-only, as a program owning it again may. Each range spends a
 * round read-only, the program's, while the other is live and faulting:
 * a handler that acted on a range after tprt_unregister() returned (the
 * old region's, or the new one's with the old address) would open a block
 * of it, which /proc/self/maps shows. Reads only: a read-only page never
 * faults, so every fault is a protected block's. In a child process, with
 * a handler of its own, not cmocka's. About a second, whatever the rounds.
 *
 * Every fault is the runtime's, so none may be passed on. This test found
 * two that were: a fault on a protected block whose handler ran only after
 * tprt_unregister() restored the block and tprt_register() reused the
 * slot (no region found), and a thread whose retry of a fault that raced
 * an unregister raced the next one at the same address (one retry per
 * address); without a handler of the program's, the default action killed
 * the process. Such a fault is now retried when a region was retired since
 * the thread's last retry (tprt_fault.c, gone()). The program's own
 * handler (rs_prev(), installed before tprt_init()) counts what reaches it
 * and returns, so that a regression fails the test instead of killing it;
 * the same address passed on RS_PASSED_MAX times in a row would be a loop.
 */
#define RS_PAGES	256
#define RS_THREADS	3
#define RS_ROUNDS	20000
#define RS_MS		1000

#define RS_PASSED_MAX	100

static char *rs_range[2];
static _Atomic int rs_stop;
static _Atomic uint64_t rs_reads, rs_passed;
static __thread uintptr_t rs_last;
static __thread unsigned int rs_again;

/* The program's SIGSEGV handler: counts, and returns (the access again). */
static void rs_prev(int sig, siginfo_t *si, void *uc)
{
	static const char msg[] = "a fault passed on in a loop\n";
	uintptr_t a = (uintptr_t)si->si_addr;

	(void)sig;
	(void)uc;
	atomic_fetch_add(&rs_passed, 1);
	rs_again = a == rs_last ? rs_again + 1 : 0;
	rs_last = a;
	if (rs_again >= RS_PASSED_MAX) {
		wd_puts(msg);
		_exit(13);
	}
}

static void *rs_reader(void *arg)
{
	size_t i = (uintptr_t)arg * 97;
	uint64_t n = 0;
	unsigned int sum = 0;

	while (!atomic_load_explicit(&rs_stop, memory_order_relaxed)) {
		volatile char *b = rs_range[n & 1];

		sum += (unsigned char)b[(i % RS_PAGES) * PG];
		i += 17;
		/* The main thread's turn too, on a machine of two CPUs. */
		if (!(++n & 63))
			sched_yield();
	}
	atomic_fetch_add(&rs_reads, n);
	return (void *)(uintptr_t)sum;
}

static char *rs_map(size_t pages)
{
	char *p = mmap(NULL, pages * PG, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	madvise(p, pages * PG, MADV_NOHUGEPAGE);
	memset(p, 1, pages * PG);
	return p;
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000L +
	       (t.tv_nsec - t0->tv_nsec) / 1000000L;
}

/* The child of test_reuse_stress: 0 if all went well. */
static int child_reuse_stress(void)
{
	const size_t len = RS_PAGES * PG;
	char *fill[TPRT_MAX_REGIONS - 1], *cur, *old;
	struct tprt_region *slot = NULL, *r;
	pthread_t th[RS_THREADS];
	struct tprt_stats s;
	struct tprt_cfg cfg;
	struct timespec t0;
	struct sigaction sa;
	int i, it, ret = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = rs_prev;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL))
		return 2;
	/* As rt_start() (whose asserts are cmocka's: not in a child). */
	tprt_cfg_default(&cfg);
	cfg.fast_node = 0;
	cfg.flags = TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR | TPRT_F_NO_NUDGE;
	fast_lo = fast_hi = 0;
	tprt_set_hooks(&hooks);
	if (tprt_init(&cfg))
		return 2;
	mem_set(1ULL << 30, 1000);
	for (i = 0; i < TPRT_MAX_REGIONS - 1; i++) {
		fill[i] = rs_map(16);
		if (!fill[i] ||
		    tprt_register(fill[i], 16 * PG, TPRT_SRC_MPROTECT))
			return 3;
	}
	rs_range[0] = rs_map(RS_PAGES);
	rs_range[1] = rs_map(RS_PAGES);
	/* The second range is the program's, read-only, in round 0. */
	if (!rs_range[0] || !rs_range[1] ||
	    mprotect(rs_range[1], len, PROT_READ))
		return 4;
	for (i = 0; i < RS_THREADS; i++)
		if (pthread_create(&th[i], NULL, rs_reader,
				   (void *)(uintptr_t)i))
			return 5;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (it = 0; it < RS_ROUNDS && !ret && ms_since(&t0) < RS_MS; it++) {
		cur = rs_range[it & 1];
		old = rs_range[!(it & 1)];
		if (tprt_register(cur, len, TPRT_SRC_MPROTECT)) {
			ret = 6;
			break;
		}
		r = tprt_region_of(tprt_rt, (uintptr_t)cur, false);
		if (!slot)
			slot = r;
		if (r != slot) {
			fprintf(stderr, "round %d: another slot\n", it);
			ret = 7;
			break;
		}
		tprt_scan_now();
		/* One fault at least, in the first block. */
		(void)*(volatile char *)cur;
		/* The other range: the program's, read-only, all along. */
		if (!maps_perm(old, len, "r--p")) {
			fprintf(stderr, "round %d: the program's read-only "
				"range opened while another region is live\n",
				it);
			ret = 1;
		}
		/* Given back read-write, to be registered next round. */
		if (mprotect(old, len, PROT_READ | PROT_WRITE) ||
		    tprt_unregister(cur)) {
			ret = 8;
			break;
		}
		/* The program's now: read-only; no handler may open it. */
		if (mprotect(cur, len, PROT_READ)) {
			ret = 9;
			break;
		}
		sched_yield();
		if (!maps_perm(cur, len, "r--p")) {
			fprintf(stderr, "round %d: a block opened after "
				"tprt_unregister() returned\n", it);
			ret = 1;
		}
	}
	atomic_store(&rs_stop, 1);
	for (i = 0; i < RS_THREADS; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < TPRT_MAX_REGIONS - 1; i++)
		if (tprt_unregister(fill[i]))
			return 11;
	tprt_stats(&s);
	fprintf(stderr, "%d rounds, %lu reads, %lu faults, %lu stale, "
		"%lu passed on\n", it, (unsigned long)atomic_load(&rs_reads),
		(unsigned long)s.faults, (unsigned long)s.faults_stale,
		(unsigned long)s.chained);
	/*
	 * Every round's first block faulted once at least while live; no
	 * fault passed on; no restore failed; every VMA given back.
	 */
	if (!ret && (s.faults < (uint64_t)it || s.chained ||
		     atomic_load(&rs_passed) || s.restore_fail || s.vma_est)) {
		fprintf(stderr, "faults %lu in %d rounds, passed on %lu "
			"(the program's handler: %lu), restore_fail %lu, "
			"vma_est %lu\n", (unsigned long)s.faults, it,
			(unsigned long)s.chained,
			(unsigned long)atomic_load(&rs_passed),
			(unsigned long)s.restore_fail,
			(unsigned long)s.vma_est);
		ret = 10;
	}
	if (tprt_shutdown())
		return 12;
	return ret;
}

static void test_reuse_stress(void **state)
{
	int st;

	(void)state;
	st = child_status("--child-reuse-stress");
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		rt_test(test_reuse_stress),
	};

	if (argc == 2 && !strcmp(argv[1], "--child-reuse-stress"))
		return child_reuse_stress();
	self_path = argv[0];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
