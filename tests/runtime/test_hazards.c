// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka tests of the tierpol runtime, part 2: the hazards. The VMA bound
 * under adversarial fault orders (a small cap, and a cap from
 * vm.max_map_count with one-page blocks); the system-call path (EFAULT
 * without a pin, read(2)/write(2) with one, for both sources); shutdown
 * while threads fault; what tprt_register() takes; unregister while
 * threads fault; a dead region's slot reused under a handler; a
 * userfaultfd restore racing the unregistration. Signal chaining is in
 * test_signals.c. One NUMA node is enough (helpers.h).
 */
#include <sys/ioctl.h>
#include <linux/userfaultfd.h>

#include "helpers.h"

/* ---- the VMA bound ---------------------------------------------------------- */

static void cap16(struct tprt_cfg *c)
{
	c->vma_cap = 16;
}

/* Fault every other block, in an order that splits the most. */
static void test_vma_bound_small_cap(void **state)
{
	const size_t pages = 4096;	/* 8 chunks of 32 blocks */
	struct tprt_stats s;
	volatile char *p;
	char *m;
	size_t i, k, order[128];
	int max_seen = 0;

	(void)state;
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, cap16);
	mem_set(1ULL << 30, 1000);
	m = map_touched(pages);
	p = m;
	assert_int_equal(tprt_register(m, pages * PG, TPRT_SRC_MPROTECT), 0);
	tprt_scan_now();
	/* Even blocks of every chunk, chunks interleaved, in a shuffle. */
	for (i = 0; i < 128; i++)
		order[i] = (i % 8) * 32 + (i / 8) * 2;
	srand(17);
	for (i = 127; i > 0; i--) {
		size_t j = (size_t)rand() % (i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (k = 0; k < 128; k++) {
		int n;

		assert_int_equal(p[order[k] * 16 * PG + 7 * PG],
				 (char)(order[k] * 16 + 7));
		n = count_vmas(m, pages * PG);
		if (n > max_seen)
			max_seen = n;
		tprt_stats(&s);
		assert_true(s.vma_est <= 16);
		assert_true((uint64_t)n <= s.vma_est + 1);
	}
	tprt_stats(&s);
	assert_true(s.restore_chunk > 0);
	assert_int_equal(s.restore_fail, 0);
	assert_int_equal(s.restore_region, 0);
	assert_int_equal(s.chained, 0);
	assert_true(max_seen <= 17);
	/* Every page is still there and accessible. */
	for (i = 0; i < pages; i++)
		assert_int_equal(p[i * PG], (char)i);
	assert_int_equal(tprt_shutdown(), 0);
	munmap(m, pages * PG);
}

static void one_page_blocks(struct tprt_cfg *c)
{
	c->block_pages = 1;
	c->chunk_pages = 4096;
}

/*
 * One-page blocks over 72 Ki pages: every other page restored would need
 * 72 Ki VMAs, more than vm.max_map_count allows. The cap from the sysctl
 * turns that into chunk restores, and mprotect never fails.
 */
static void test_vma_bound_max_map_count(void **state)
{
	const size_t pages = 72 * 1024;
	struct tprt_stats s;
	volatile char *p;
	char *m;
	size_t i, c;
	long max = 65530;
	FILE *f = fopen("/proc/sys/vm/max_map_count", "r");

	(void)state;
	if (f) {
		if (fscanf(f, "%ld", &max) != 1)
			max = 65530;
		fclose(f);
	}
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, one_page_blocks);
	mem_set(1ULL << 30, 1000);
	m = map_touched(pages);
	p = m;
	assert_int_equal(tprt_register(m, pages * PG, TPRT_SRC_MPROTECT), 0);
	tprt_scan_now();
	tprt_scan_now();	/* scan_size 256 MiB: two passes for 288 */
	/* Odd pages, chunk by chunk from both ends. */
	for (c = 0; c < 18; c++) {
		size_t ch = c % 2 ? 17 - c / 2 : c / 2;

		for (i = 1; i < 4096; i += 2)
			assert_int_equal(p[(ch * 4096 + i) * PG],
					 (char)(ch * 4096 + i));
	}
	tprt_stats(&s);
	assert_true(s.vma_est <= s.vma_cap);
	assert_true(s.vma_cap < (uint64_t)max);
	assert_true(s.restore_chunk > 0);
	assert_int_equal(s.restore_fail, 0);
	assert_int_equal(s.chained, 0);
	assert_true(count_vmas(m, pages * PG) <= (int)s.vma_est + 1);
	assert_int_equal(tprt_shutdown(), 0);
	munmap(m, pages * PG);
}

/* ---- the system-call path (EFAULT hazard) ------------------------------ */

static void syscall_path(unsigned int source)
{
	char *m, buf[PG];
	int fds[2];
	ssize_t n;

	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, NULL);
	mem_set(1ULL << 30, 1000);
	m = map_touched(512);
	memset(m + 8 * PG, 'a', PG);
	assert_int_equal(tprt_register(m, 512 * PG, source), 0);
	assert_int_equal(pipe(fds), 0);
	tprt_scan_now();

	/* The hazard: the kernel's own access to a protected page fails. */
	if (source == TPRT_SRC_MPROTECT) {
		errno = 0;
		assert_int_equal(write(fds[1], m + 8 * PG, PG), -1);
		assert_int_equal(errno, EFAULT);
	}
	memset(buf, 'b', PG);
	assert_int_equal(write(fds[1], buf, PG), PG);
	errno = 0;
	assert_int_equal(read(fds[0], m + 40 * PG, PG), -1);
	assert_int_equal(errno, EFAULT);

	/* Pinned: both directions work, and a scan leaves the pages open. */
	assert_int_equal(tprt_pin(m + 8 * PG, PG), 0);
	assert_int_equal(tprt_pin(m + 40 * PG + 100, 10), 0);
	tprt_scan_now();
	assert_int_equal(write(fds[1], m + 8 * PG, PG), PG);
	n = read(fds[0], m + 40 * PG, PG);	/* the 'b' page */
	assert_int_equal(n, PG);
	assert_int_equal(m[40 * PG + PG - 1], 'b');
	n = read(fds[0], buf, PG);		/* the 'a' page */
	assert_int_equal(n, PG);
	assert_int_equal(buf[PG - 1], 'a');
	assert_int_equal(tprt_unpin(m + 8 * PG, PG), 0);
	assert_int_equal(tprt_unpin(m + 40 * PG + 100, 10), 0);

	/* Unpinned and scanned again: protected again. */
	tprt_scan_now();
	assert_int_equal(write(fds[1], buf, PG), PG);
	errno = 0;
	assert_int_equal(read(fds[0], m + 40 * PG, PG), -1);
	assert_int_equal(errno, EFAULT);
	close(fds[0]);
	close(fds[1]);
	assert_int_equal(tprt_shutdown(), 0);
	munmap(m, 512 * PG);
}

static void test_syscall_mprotect(void **state)
{
	(void)state;
	syscall_path(TPRT_SRC_MPROTECT);
}

/* userfaultfd-wp: write faults only; a read(2) into a page is a write. */
static void test_syscall_uffd(void **state)
{
	struct tprt_stats s;
	volatile char *p;
	char *m;

	(void)state;
	syscall_path(TPRT_SRC_UFFD_WP);

	/* And the source itself: writes fault, reads do not. */
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, NULL);
	mem_set(1ULL << 30, 1000);
	m = map_touched(512);
	p = m;
	assert_int_equal(tprt_register(m, 512 * PG, TPRT_SRC_UFFD_WP), 0);
	tprt_scan_now();
	assert_int_equal(p[30 * PG], 30);
	tprt_stats(&s);
	assert_int_equal(s.faults, 0);
	p[31 * PG] = 7;
	tprt_stats(&s);
	assert_int_equal(s.faults, 1);
	assert_int_equal(s.faults_write, 1);
	/* The page, then the rest of its block: 16 pages promoted. */
	assert_int_equal(verdicts(&s, TPRT_V_PROMOTE_NRL), 2);
	assert_int_equal(s.queued, 16);
	assert_int_equal(s.vma_est, 0);
	assert_int_equal(count_vmas(m, 512 * PG), 1);
	assert_int_equal(tprt_shutdown(), 0);
	munmap(m, 512 * PG);
}

/* ---- a range registered again ---------------------------------------------- */

/*
 * Unregistered and registered again: the dead slot keeps the range, the
 * new registration takes another slot (a free one first). A fault in the
 * new region is the live region's, not the dead one's (which would be
 * retried once and then passed on as not ours: the program killed).
 */
static void test_reregister(void **state)
{
	struct tprt_stats s;
	volatile char *p;
	char *m;

	(void)state;
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, NULL);
	mem_set(1ULL << 30, 1000);
	m = map_touched(512);
	p = m;
	assert_int_equal(tprt_register(m, 512 * PG, TPRT_SRC_MPROTECT), 0);
	tprt_scan_now();
	assert_int_equal(tprt_unregister(m), 0);
	assert_int_equal(tprt_register(m, 512 * PG, TPRT_SRC_MPROTECT), 0);
	assert_int_equal(tprt_rt->region[0].state, TPRT_R_DEAD);
	assert_int_equal(tprt_rt->region[1].state, TPRT_R_LIVE);
	tprt_scan_now();
	assert_int_equal(p[100 * PG], 100);
	assert_int_equal(p[300 * PG], (char)300);
	tprt_stats(&s);
	assert_int_equal(s.faults, 2);
	assert_int_equal(s.faults_stale, 0);
	assert_int_equal(s.chained, 0);

	/* Unmapped, mapped again at the same place, registered again. */
	assert_int_equal(tprt_unregister(m), 0);
	munmap(m, 512 * PG);
	m = mmap(m, 512 * PG, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	assert_true(m == (char *)p);
	memset(m, 7, 512 * PG);
	assert_int_equal(tprt_register(m, 512 * PG, TPRT_SRC_MPROTECT), 0);
	tprt_scan_now();
	assert_int_equal(p[200 * PG], 7);
	tprt_stats(&s);
	assert_int_equal(s.faults, 3);
	assert_int_equal(s.chained, 0);
	assert_int_equal(tprt_shutdown(), 0);
	munmap(m, 512 * PG);
}

/* ---- shutdown with faults in flight -------------------------------------- */

#define NT	4
#define SLICE	1024	/* pages per thread */

static char *sh_mem;
static _Atomic int sh_stop;

static void *hammer(void *arg)
{
	uintptr_t t = (uintptr_t)arg;
	volatile uint64_t *base = (volatile uint64_t *)(sh_mem + t * SLICE * PG);
	uint64_t x = 88172645463325252ULL + t, round = 1;
	size_t i;

	while (!atomic_load(&sh_stop)) {
		for (i = 0; i < 4096; i++) {
			size_t pg;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			pg = (size_t)(x % SLICE);
			/* Each page holds its index in the first word. */
			if (base[pg * (PG / 8)] != pg + t * SLICE)
				return (void *)1;
			base[pg * (PG / 8) + 1] = round;
		}
		round++;
	}
	return NULL;
}

static void fast_scans(struct tprt_cfg *c)
{
	c->scan_delay_ms = 5;
	c->scan_period_min_ms = 5;
	c->scan_period_max_ms = 20;
	c->scan_size_mb = 4;
	c->scan_cost_factor = 0;
}

static void test_shutdown_in_flight(void **state)
{
	pthread_t th[NT];
	struct tprt_stats s;
	void *ret;
	size_t i;
	uintptr_t t;

	(void)state;
	rt_start(0, fast_scans);
	sh_mem = map_touched(NT * SLICE);
	for (i = 0; i < NT * SLICE; i++)
		((uint64_t *)(sh_mem + i * PG))[0] = i;
	assert_int_equal(tprt_register(sh_mem, NT * SLICE * PG,
				       TPRT_SRC_MPROTECT), 0);
	atomic_store(&sh_stop, 0);
	for (t = 0; t < NT; t++)
		assert_int_equal(pthread_create(&th[t], NULL, hammer,
						(void *)t), 0);
	/* A few passes and faults (within 30 s even on a loaded machine). */
	for (i = 0; i < 3000; i++) {
		tprt_stats(&s);
		if (s.passes > 3 && s.faults > 0)
			break;
		sleep_ms(10);
	}
	assert_true(s.passes > 3);
	assert_true(s.faults > 0);
	assert_int_equal(tprt_shutdown(), 0);	/* while they run */
	sleep_ms(100);
	tprt_stats(&s);
	assert_int_equal(s.restore_fail, 0);
	assert_int_equal(s.chained, 0);
	atomic_store(&sh_stop, 1);
	for (t = 0; t < NT; t++) {
		assert_int_equal(pthread_join(th[t], &ret), 0);
		assert_null(ret);
	}
	assert_int_equal(count_vmas(sh_mem, NT * SLICE * PG), 1);
	munmap(sh_mem, NT * SLICE * PG);
}

/* ---- what tprt_register() takes ------------------------------------------ */

/*
 * Only mapped, read-write, non-exec memory: every restore gives back
 * read-write, so read-only memory became writable, a guard page open and
 * a code page looped in the handler for ever.
 */
static void test_register_rights(void **state)
{
	char *ro, *rwx, *m, *sh;

	(void)state;
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, NULL);
	ro = mmap(NULL, 4 * PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(ro != MAP_FAILED);
	assert_int_equal(tprt_register(ro, 4 * PG, TPRT_SRC_MPROTECT),
			 -EINVAL);
	assert_int_equal(tprt_register(ro, 4 * PG, TPRT_SRC_UFFD_WP),
			 -EINVAL);
	rwx = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE | PROT_EXEC,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (rwx != MAP_FAILED) {	/* a hardened kernel may refuse it */
		assert_int_equal(tprt_register(rwx, 4 * PG,
					       TPRT_SRC_MPROTECT), -EINVAL);
		munmap(rwx, 4 * PG);
	}
	/* A guard page inside, and a hole inside. */
	m = map_touched(8);
	assert_int_equal(mprotect(m + 4 * PG, PG, PROT_NONE), 0);
	assert_int_equal(tprt_register(m, 8 * PG, TPRT_SRC_MPROTECT),
			 -EINVAL);
	assert_int_equal(munmap(m + 4 * PG, PG), 0);
	assert_int_equal(tprt_register(m, 8 * PG, TPRT_SRC_MPROTECT),
			 -EFAULT);
	assert_int_equal(tprt_register(NULL, PG, TPRT_SRC_MPROTECT), -EFAULT);
	/* The plain part is taken; the guard page kept its rights. */
	assert_int_equal(tprt_register(m, 4 * PG, TPRT_SRC_MPROTECT), 0);
	assert_int_equal(tprt_unregister(m), 0);
	/* Shared anonymous memory: mprotect's, not userfaultfd's. */
	sh = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(sh != MAP_FAILED);
	assert_int_equal(tprt_register(sh, 4 * PG, TPRT_SRC_UFFD_WP),
			 -EINVAL);
	assert_int_equal(tprt_register(sh, 4 * PG, TPRT_SRC_MPROTECT), 0);
	assert_int_equal(tprt_unregister(sh), 0);
	assert_int_equal(tprt_shutdown(), 0);
	munmap(sh, 4 * PG);
	munmap(ro, 4 * PG);
	munmap(m, 4 * PG);
	munmap(m + 5 * PG, 3 * PG);
}

/* ---- unregister while threads fault: the VMA estimate ---------------------- */

static char *est_mem;
static _Atomic int est_stop;

static void *est_toucher(void *arg)
{
	unsigned int x = (unsigned int)(uintptr_t)arg;

	while (!atomic_load(&est_stop)) {
		x = x * 1103515245U + 12345U;
		(void)((volatile char *)est_mem)[(x >> 4) % (512 * PG)];
	}
	return NULL;
}

/*
 * A fault that raced tprt_unregister() reserved VMAs in the dying region
 * after its estimate was zeroed: the estimate grew with every race, with
 * no region registered, until protection stopped.
 */
static void test_unregister_estimate(void **state)
{
	pthread_t th[3];
	struct tprt_stats s;
	uintptr_t t;
	int i;

	(void)state;
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, NULL);
	mem_set(1ULL << 30, 1000);
	est_mem = map_touched(512);
	atomic_store(&est_stop, 0);
	for (t = 0; t < 3; t++)
		assert_int_equal(pthread_create(&th[t], NULL, est_toucher,
						(void *)(t + 1)), 0);
	for (i = 0; i < 300; i++) {
		assert_int_equal(tprt_register(est_mem, 512 * PG,
					       TPRT_SRC_MPROTECT), 0);
		tprt_scan_now();
		sleep_ms(0);
		assert_int_equal(tprt_unregister(est_mem), 0);
	}
	atomic_store(&est_stop, 1);
	for (t = 0; t < 3; t++)
		assert_int_equal(pthread_join(th[t], NULL), 0);
	tprt_stats(&s);
	assert_true(s.faults > 0);
	assert_int_equal(s.vma_est, 0);
	assert_int_equal(s.chained, 0);
	assert_int_equal(tprt_shutdown(), 0);
	munmap(est_mem, 512 * PG);
}

/* ---- userfaultfd: a restore that races the unregistration ----------------- */

/*
 * A handler found a live userfaultfd region; tprt_unregister() (or
 * tprt_shutdown()) marked it DYING, write-enabled it and unregistered it
 * from the userfaultfd; the handler's restore (UFFDIO_WRITEPROTECT) then
 * failed with ENOENT. The fault was passed on as not ours: to the previous
 * handler, or with none the signal reset to its default action for the
 * whole process, which the next hint fault killed. tprt_fault_at() is the
 * handler after its lookup: the test retires the region in between.
 */
static void test_uffd_restore_race(void **state)
{
	struct uffdio_range range;
	struct tprt_region *r;
	struct tprt_stats s;
	uint64_t gen;
	char *m;

	(void)state;
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, NULL);
	mem_set(1ULL << 30, 1000);
	m = map_touched(64);
	assert_int_equal(tprt_register(m, 64 * PG, TPRT_SRC_UFFD_WP), 0);
	tprt_scan_now();
	r = tprt_region_find(tprt_rt, (uintptr_t)m + 5 * PG, true, &gen);
	assert_non_null(r);
	/* region_retire() up to its UFFDIO_UNREGISTER. */
	atomic_store(&r->state, TPRT_R_DYING);
	assert_int_equal(tprt_uffd_wp(tprt_rt, (uintptr_t)m, 64 * PG, false),
			 0);
	range.start = (uintptr_t)m;
	range.len = 64 * PG;
	assert_int_equal(ioctl(tprt_rt->uffd, UFFDIO_UNREGISTER, &range), 0);
	assert_int_equal(tprt_fault_at(tprt_rt, r, gen, (uintptr_t)m + 5 * PG,
				       TPRT_K_UFFD, true, fake_now()),
			 TPRT_FR_RETRY);
	tprt_stats(&s);
	assert_int_equal(s.restore_fail, 0);
	assert_int_equal(s.faults_stale, 1);
	assert_int_equal(s.faults, 0);
	/*
	 * In a live region the same failure is the program's (it replaced
	 * the mapping, say): a retry would fault for ever; passed on.
	 */
	atomic_store(&r->state, TPRT_R_LIVE);
	assert_int_equal(tprt_fault_at(tprt_rt, r, gen, (uintptr_t)m + 40 * PG,
				       TPRT_K_UFFD, true, fake_now()),
			 TPRT_FR_NOT_OURS);
	tprt_stats(&s);
	assert_int_equal(s.restore_fail, 1);
	assert_int_equal(tprt_unregister(m), 0);
	((volatile char *)m)[5 * PG] = 1;
	assert_int_equal(tprt_shutdown(), 0);
	munmap(m, 64 * PG);
}

/*
 * The same race for real (uffd_race's reviewer): a thread writes while the
 * region is registered, protected and unregistered over and over. Without
 * the fix a child process failed within a second in each of 18 runs (128
 * pages: at most 0.13 s).
 */
#define UR_PAGES	128

static char *_Atomic ur_mem;
static _Atomic int ur_stop;

static void *ur_writer(void *arg)
{
	size_t i = 0;

	(void)arg;
	while (!atomic_load(&ur_stop)) {
		char *b = atomic_load(&ur_mem);

		b[(i % UR_PAGES) * PG] = 1;
		i += 17;
	}
	return NULL;
}

/* The child of test_uffd_unregister_race: 0 if no fault was passed on. */
static int child_uffd_race(void)
{
	struct sigaction ours, now;
	struct tprt_stats s;
	struct tprt_cfg cfg;
	struct timespec t0, t;
	pthread_t th;
	int it, ret = 0;
	char *m;

	m = mmap(NULL, UR_PAGES * PG, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 2;
	memset(m, 1, UR_PAGES * PG);
	/* As rt_start() (whose asserts are cmocka's: not in a child). */
	tprt_cfg_default(&cfg);
	cfg.fast_node = 0;
	cfg.flags = TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR | TPRT_F_NO_NUDGE;
	fast_lo = fast_hi = 0;
	tprt_set_hooks(&hooks);
	if (tprt_init(&cfg) || sigaction(SIGBUS, NULL, &ours))
		return 3;
	mem_set(1ULL << 30, 1000);
	atomic_store(&ur_mem, m);
	if (pthread_create(&th, NULL, ur_writer, NULL))
		return 4;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (it = 0; it < 100000 && !ret; it++) {
		if (tprt_register(m, UR_PAGES * PG, TPRT_SRC_UFFD_WP)) {
			ret = 5;
			break;
		}
		tprt_scan_now();
		tprt_unregister(m);
		tprt_stats(&s);
		sigaction(SIGBUS, NULL, &now);
		if (s.restore_fail || s.chained ||
		    now.sa_sigaction != ours.sa_sigaction) {
			fprintf(stderr, "round %d: restore_fail %lu chained "
				"%lu, SIGBUS %s\n", it,
				(unsigned long)s.restore_fail,
				(unsigned long)s.chained,
				now.sa_sigaction == ours.sa_sigaction ?
				"the runtime's" : "reset");
			ret = 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec >= 3)
			break;
	}
	atomic_store(&ur_stop, 1);
	pthread_join(th, NULL);
	tprt_stats(&s);
	fprintf(stderr, "%d rounds, %lu faults, %lu stale\n", it,
		(unsigned long)s.faults, (unsigned long)s.faults_stale);
	if (tprt_shutdown())
		return 6;
	return ret;
}

static void test_uffd_unregister_race(void **state)
{
	int st;

	(void)state;
	st = child_status("--child-uffd-race");
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* ---- a dead region's slot reused ------------------------------------------ */

struct fault_args {
	struct tprt_region *r;
	uint64_t gen;
	uintptr_t addr;
	int res;
};

/*
 * A fault on another thread, one it has not retried yet: the handler
 * after its lookup (tprt_fault_at() on @r), or with @r NULL the whole
 * handler (tprt_fault(), the lookup included).
 */
static void *fault_at_thread(void *arg)
{
	struct fault_args *a = arg;

	if (a->r)
		a->res = tprt_fault_at(tprt_rt, a->r, a->gen, a->addr,
				       TPRT_K_ACCERR, true, fake_now());
	else
		a->res = tprt_fault(tprt_rt, a->addr, TPRT_K_ACCERR, true,
				    fake_now());
	return NULL;
}

/*
 * A handler found a dead region, then tprt_register() reused its slot:
 * the slot FREE while the handlers drain, or (had it not drained) a new
 * region in it. The handler took FREE for alive: it opened a block of the
 * old range, which the program had made read-only since (it owns it again
 * once tprt_unregister() returns), and reserved 2 VMAs in arrays about to
 * be unmapped (the bound grew for good). tprt_fault_at() is the handler
 * after its lookup, so the test puts the slot in each state in between.
 */
static void test_slot_reused(void **state)
{
	char *fill[TPRT_MAX_REGIONS - 1], *m, *y;
	struct tprt_stats s0, s;
	struct fault_args fa;
	pthread_t th;
	struct tprt_region *r;
	uint64_t gen, b;
	int i;

	(void)state;
	rt_start(TPRT_F_NO_SCANNER | TPRT_F_NO_MIGRATOR, NULL);
	mem_set(1ULL << 30, 1000);
	for (i = 0; i < TPRT_MAX_REGIONS - 1; i++) {
		fill[i] = map_touched(16);
		assert_int_equal(tprt_register(fill[i], 16 * PG,
					       TPRT_SRC_MPROTECT), 0);
	}
	m = map_touched(64);
	y = map_touched(64);
	assert_int_equal(tprt_register(m, 64 * PG, TPRT_SRC_MPROTECT), 0);
	tprt_scan_now();
	assert_int_equal(tprt_unregister(m), 0);
	/* What the handler's lookup finds: the dead region. */
	r = tprt_region_find(tprt_rt, (uintptr_t)m + 5 * PG, true, &gen);
	assert_non_null(r);
	assert_int_equal(atomic_load(&r->state), TPRT_R_DEAD);
	assert_int_equal(mprotect(m, 64 * PG, PROT_READ), 0);

	/* tprt_register() reusing the slot, before its drain. */
	tprt_stats(&s0);
	atomic_store(&r->state, TPRT_R_FREE);
	assert_int_equal(tprt_fault_at(tprt_rt, r, gen, (uintptr_t)m + 5 * PG,
				       TPRT_K_ACCERR, true, fake_now()),
			 TPRT_FR_RETRY);
	atomic_store(&r->state, TPRT_R_DEAD);
	assert_true(maps_perm(m, 64 * PG, "r--p"));
	tprt_stats(&s);
	assert_int_equal(s.vma_est, s0.vma_est);
	assert_int_equal(s.restore_block + s.restore_chunk +
			 s.restore_region + s.restore_fail, 0);

	/*
	 * The slot reused for a new region: another generation. This
	 * thread's fault comes back with no region retired since it retried:
	 * the program's own (m is read-only), passed on. Another thread's
	 * first one is retried.
	 */
	assert_int_equal(tprt_register(y, 64 * PG, TPRT_SRC_MPROTECT), 0);
	assert_ptr_equal(tprt_region_of(tprt_rt, (uintptr_t)y, false), r);
	tprt_scan_now();
	tprt_stats(&s0);
	assert_int_equal(tprt_fault_at(tprt_rt, r, gen, (uintptr_t)m + 40 * PG,
				       TPRT_K_ACCERR, true, fake_now()),
			 TPRT_FR_NOT_OURS);
	fa = (struct fault_args){ r, gen, (uintptr_t)m + 40 * PG, -1 };
	assert_int_equal(pthread_create(&th, NULL, fault_at_thread, &fa), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(fa.res, TPRT_FR_RETRY);
	/* Its lookup finds no region of m's now: retried all the same. */
	fa = (struct fault_args){ NULL, 0, (uintptr_t)m + 41 * PG, -1 };
	assert_int_equal(pthread_create(&th, NULL, fault_at_thread, &fa), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(fa.res, TPRT_FR_RETRY);
	assert_int_equal(tprt_fault(tprt_rt, (uintptr_t)m + 41 * PG,
				    TPRT_K_ACCERR, true, fake_now()),
			 TPRT_FR_NOT_OURS);
	for (b = 0; b < r->nblocks; b++)
		assert_true(atomic_load(&r->blk[b]) & TPRT_BLK_PROT);
	assert_true(maps_perm(m, 64 * PG, "r--p"));
	assert_true(maps_perm(y, 64 * PG, "---p"));
	tprt_stats(&s);
	assert_int_equal(s.vma_est, s0.vma_est);
	assert_int_equal(s.faults + s.faults_stale, 0);
	/* The new region's own faults are its (the thread's retry is reset). */
	assert_int_equal(((volatile char *)y)[40 * PG], 40);
	tprt_stats(&s);
	assert_int_equal(s.faults, 1);
	assert_int_equal(s.chained, 0);
	assert_int_equal(tprt_shutdown(), 0);
	for (i = 0; i < TPRT_MAX_REGIONS - 1; i++)
		munmap(fill[i], 16 * PG);
	munmap(m, 64 * PG);
	munmap(y, 64 * PG);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		rt_test(test_vma_bound_small_cap),
		rt_test(test_vma_bound_max_map_count),
		rt_test(test_syscall_mprotect),
		rt_test(test_syscall_uffd),
		rt_test(test_reregister),
		rt_test(test_shutdown_in_flight),
		rt_test(test_register_rights),
		rt_test(test_unregister_estimate),
		rt_test(test_slot_reused),
		rt_test(test_uffd_restore_race),
		rt_test(test_uffd_unregister_race),
	};

	if (argc == 2 && !strcmp(argv[1], "--child-uffd-race"))
		return child_uffd_race();
	self_path = argv[0];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
