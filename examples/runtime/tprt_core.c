// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tprt core: start and stop, regions, pins, statistics.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <linux/userfaultfd.h>
#include <sys/syscall.h>
#include <fcntl.h>

#include "tprt_impl.h"

static struct tprt_rt rt_storage;
struct tprt_rt *tprt_rt;
_Atomic uint64_t tprt_inflight;
_Atomic uint64_t tprt_retired;
_Atomic uint32_t tprt_gen;
/*
 * The last generation given to a registration (struct tprt_region.gen):
 * outside the runtime, which tprt_init() clears, so none is given twice.
 * Registrations are serialized (prot_lock, and tprt_init() runs alone).
 */
static uint64_t region_gen;

uint64_t tprt_now_ns(void)
{
	struct tprt_rt *rt = __atomic_load_n(&tprt_rt, __ATOMIC_ACQUIRE);
	struct timespec t;

	if (rt && rt->hooks.now)
		return rt->hooks.now();
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * TPRT_NS_PER_SEC + (uint64_t)t.tv_nsec;
}

uint64_t tprt_lat_now(const struct tprt_rt *rt)
{
	struct rusage ru;

	if (rt->hooks.now || rt->cfg.clock == TPRT_CLOCK_WALL ||
	    getrusage(RUSAGE_SELF, &ru))
		return tprt_now_ns();
	return (uint64_t)ru.ru_utime.tv_sec * TPRT_NS_PER_SEC +
	       (uint64_t)ru.ru_utime.tv_usec * 1000;
}

/* The seams the next tprt_init() starts with (tests; never changed live). */
static struct tprt_hooks next_hooks;

void tprt_set_hooks(const struct tprt_hooks *h)
{
	next_hooks = *h;
}

static void region_arrays_free(struct tprt_region *r)
{
	if (r->arrays)
		munmap(r->arrays, r->arrays_len);
	r->arrays = NULL;
	r->slow = NULL;
	r->blk = NULL;
	r->pin = NULL;
	r->chunk_est = NULL;
	r->stamp = NULL;
}

/* Wait until no handler runs (they are short and never block). */
static void inflight_drain(struct tprt_rt *rt)
{
	(void)rt;
	while (atomic_load(&tprt_inflight))
		sched_yield();
}

int tprt_init(const struct tprt_cfg *cfg)
{
	struct tprt_cfg def;
	struct tprt_rt *rt = &rt_storage;
	struct tprt_mem m;
	uint64_t now;
	int ret, i;

	if (!cfg) {
		tprt_cfg_default(&def);
		cfg = &def;
	}
	/*
	 * Every setting, tierpol's too, is checked before anything changes:
	 * a rejected init leaves the last run's state (its statistics) and
	 * the signal actions as they were.
	 */
	ret = tprt_cfg_check(cfg);
	if (ret)
		return ret;
	if (tprt_rt && atomic_load(&tprt_rt->running))
		return -EBUSY;
	ret = tprt_signal_install();
	if (ret)
		return ret;

	/*
	 * Nothing of ours is in flight (shutdown drained): start afresh.
	 * tprt_rt is stored with release, as the handler loads it with
	 * acquire (a plain store racing that load was a data race).
	 */
	__atomic_store_n(&tprt_rt, NULL, __ATOMIC_RELEASE);
	for (i = 0; i < TPRT_MAX_REGIONS; i++)
		region_arrays_free(&rt->region[i]);
	tprt_tp_free(rt);
	memset(rt, 0, sizeof(*rt));
	atomic_fetch_add(&tprt_gen, 1);
	rt->cfg = *cfg;
	rt->hooks = next_hooks;
	rt->uffd = -1;
	atomic_store(&rt->slow_node, -1);
	rt->page_size = (size_t)sysconf(_SC_PAGESIZE);
	rt->page_shift = (unsigned int)__builtin_ctzl(rt->page_size);
	rt->fast_node = tprt_cfg_fast_node(cfg);
	rt->vma_cap = tprt_cfg_vma_cap(cfg);
	rt->zone_scale = 10;
	pthread_mutex_init(&rt->prot_lock, NULL);

	now = tprt_now_ns();
	ret = tprt_tp_init(rt, now);
	if (ret)
		return ret;
	ret = tprt_queue_init(&rt->q, cfg->queue_pages);
	if (ret)
		goto out_tp;
	ret = tprt_queue_init(&rt->dq, TPRT_DEFER_PAGES);
	if (!ret) {
		ret = tprt_queue_init(&rt->rq, TPRT_RECHECK_BLOCKS);
		if (ret)
			tprt_queue_free(&rt->dq);
	}
	if (ret) {
		tprt_queue_free(&rt->q);
		goto out_tp;
	}
	/* Handlers decide from the first fault on: a snapshot now. */
	if (tprt_mem_sample(rt, &m))
		memset(&m, 0, sizeof(m));
	tprt_mem_publish(rt, &m, 0);

	/* Published: a handler that loads it sees the state set above. */
	__atomic_store_n(&tprt_rt, rt, __ATOMIC_RELEASE);
	atomic_store(&rt->running, 1);
	ret = tprt_migrate_start(rt);
	if (!ret)
		ret = tprt_scan_start(rt);
	if (!ret)
		return 0;
	atomic_store(&rt->running, 0);
	tprt_migrate_stop(rt);
	tprt_queue_free(&rt->q);
	tprt_queue_free(&rt->dq);
	tprt_queue_free(&rt->rq);
out_tp:
	tprt_tp_free(rt);
	return ret;
}

/*
 * The live (or dying) region holding @addr; with @dead, else a dead one.
 * A dead slot keeps its range until it is reused, and the same range may
 * be registered again in another slot (tprt_register() takes a free slot
 * before a dead one; memory unmapped and mapped again at the same place):
 * the live region is the one that counts. @gen: the generation of the
 * region found, read before its range (acquire: a range read after the
 * generation of a registration is that registration's).
 *
 * The state is loaded seq_cst: with the handler's seq_cst increment of
 * tprt_inflight before it, against the drains' seq_cst store of the state
 * (DEAD, FREE) then seq_cst load of the count, either the drain sees the
 * handler counted or the handler sees the new state. An acquire load
 * could be satisfied before the increment is visible (store buffering:
 * C11 allows it, ARMv8.3's LDAPR and POWER do it): the drain read 0 and
 * the handler went on with the region alive, in a range the program owned
 * again and arrays about to be freed (tests/model/region.pml, mutant 5).
 */
struct tprt_region *tprt_region_find(struct tprt_rt *rt, uintptr_t addr,
				     bool dead, uint64_t *gen)
{
	struct tprt_region *gone = NULL;
	uint64_t gone_gen = 0;
	int i;

	for (i = 0; i < TPRT_MAX_REGIONS; i++) {
		struct tprt_region *r = &rt->region[i];
		int st = atomic_load(&r->state);	/* seq_cst: above */
		uint64_t g;

		if (st == TPRT_R_FREE || (st == TPRT_R_DEAD && (!dead || gone)))
			continue;
		g = atomic_load_explicit(&r->gen, memory_order_acquire);
		if (addr < atomic_load_explicit(&r->start,
						memory_order_relaxed) ||
		    addr >= atomic_load_explicit(&r->end, memory_order_relaxed))
			continue;
		if (st != TPRT_R_DEAD) {
			*gen = g;
			return r;
		}
		gone = r;
		gone_gen = g;
	}
	*gen = gone_gen;
	return gone;
}

struct tprt_region *tprt_region_of(struct tprt_rt *rt, uintptr_t addr,
				   bool dead)
{
	uint64_t gen;

	return tprt_region_find(rt, addr, dead, &gen);
}

static int uffd_open(struct tprt_rt *rt)
{
	struct uffdio_api api = { .api = UFFD_API,
				  .features = UFFD_FEATURE_SIGBUS };
	int fd;

	if (rt->uffd >= 0)
		return 0;
	/*
	 * User-mode faults only: all the runtime needs, and allowed without
	 * privilege whatever vm.unprivileged_userfaultfd says (5.11+).
	 */
	fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK |
			  UFFD_USER_MODE_ONLY);
	if (fd < 0)
		fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -ENOSYS;
	if (ioctl(fd, UFFDIO_API, &api) ||
	    !(api.features & UFFD_FEATURE_PAGEFAULT_FLAG_WP)) {
		close(fd);
		return -ENOSYS;
	}
	rt->uffd = fd;
	return 0;
}

static int region_fill(struct tprt_rt *rt, struct tprt_region *r,
		       uintptr_t start, size_t len, unsigned int source)
{
	uint64_t npages = len >> rt->page_shift;
	uint64_t nblocks = (npages + rt->cfg.block_pages - 1) /
			   rt->cfg.block_pages;
	uint64_t nchunks = (npages + rt->cfg.chunk_pages - 1) /
			   rt->cfg.chunk_pages;
	size_t slow = (npages + 63) / 64 * 8, blk = (nblocks + 7) & ~7ULL;
	size_t pin = (nblocks * 2 + 7) & ~7ULL, est = nchunks * 4;
	size_t stamp = nblocks * 4;
	unsigned char *a;

	r->arrays_len = slow + blk + pin + est + stamp;
	a = mmap(NULL, r->arrays_len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED) {
		r->arrays = NULL;
		return -ENOMEM;
	}
	r->arrays = a;
	r->slow = (_Atomic uint64_t *)a;
	r->blk = (_Atomic uint8_t *)(a + slow);
	r->pin = (_Atomic uint16_t *)(a + slow + blk);
	r->chunk_est = (_Atomic uint32_t *)(a + slow + blk + pin);
	r->stamp = (uint32_t *)(a + slow + blk + pin + est);
	r->source = source;
	r->npages = npages;
	r->nblocks = nblocks;
	r->nchunks = nchunks;
	atomic_store(&r->broken, 0);
	atomic_store(&r->start, start);
	atomic_store(&r->end, start + len);
	return 0;
}

/*
 * [@a, @end) is mapped, and every mapping in it is read-write without exec
 * (private and anonymous for the uffd source): the protection each
 * restore gives back is then the program's own. 0, -EFAULT (a hole),
 * -EINVAL (other rights, or a shared or file mapping for uffd). Without
 * /proc, nothing can be checked: 0.
 */
static int range_plain_rw(uintptr_t a, uintptr_t end, unsigned int source)
{
	unsigned long lo, hi, ino;
	char perm[5], line[512];
	uintptr_t at = a;
	int ret = 0;
	FILE *f;

	f = fopen("/proc/self/maps", "re");
	if (!f)
		return 0;
	while (at < end && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %4s %*x %*x:%*x %lu", &lo, &hi, perm,
			   &ino) != 4)
			continue;
		if (hi <= at)
			continue;
		if (lo > at) {
			ret = -EFAULT;	/* a hole before this mapping */
			break;
		}
		if (strcmp(perm, "rw-p") &&
		    (source == TPRT_SRC_UFFD_WP || strcmp(perm, "rw-s"))) {
			ret = -EINVAL;
			break;
		}
		if (source == TPRT_SRC_UFFD_WP && ino) {
			ret = -EINVAL;	/* a file's pages */
			break;
		}
		at = hi;
	}
	if (!ret && at < end)
		ret = -EFAULT;
	fclose(f);
	return ret;
}

int tprt_register(void *addr, size_t len, unsigned int source)
{
	struct tprt_rt *rt = tprt_rt;
	uintptr_t a = (uintptr_t)addr;
	struct tprt_region *r = NULL;
	int i, ret;

	if (!rt || !atomic_load(&rt->running))
		return -ESRCH;
	if (!len || (a | len) & (rt->page_size - 1) || a + len < a ||
	    a + len > TPRT_ADDR_LIMIT || source > TPRT_SRC_UFFD_WP)
		return -EINVAL;
	ret = range_plain_rw(a, a + len, source);
	if (ret)
		return ret;
	pthread_mutex_lock(&rt->prot_lock);
	for (i = 0; i < TPRT_MAX_REGIONS; i++) {
		struct tprt_region *q = &rt->region[i];
		int st = atomic_load(&q->state);

		if (st == TPRT_R_LIVE || st == TPRT_R_DYING) {
			if (a < q->end && q->start < a + len) {
				ret = -EINVAL;
				goto out;
			}
		} else if (!r || (atomic_load(&r->state) == TPRT_R_DEAD &&
				  st == TPRT_R_FREE)) {
			r = q;
		}
	}
	ret = -ENOSPC;
	if (!r)
		goto out;
	if (atomic_load(&r->state) == TPRT_R_DEAD) {
		/*
		 * A handler that found the dead region may still be looking
		 * at it: FREE tells it the slot is not its region any more
		 * (it retries without touching the old range, which may be
		 * the program's own again), and the arrays go only when no
		 * handler runs. A second guard: region_retire()'s drain has
		 * waited for every handler that saw the region alive, and
		 * region_state() turns a later one away (the range stored
		 * before the generation, the generation checked); each
		 * guard alone suffices (tests/model/region.pml).
		 */
		atomic_store(&r->state, TPRT_R_FREE);
		inflight_drain(rt);
		region_arrays_free(r);
	}
	if (source == TPRT_SRC_UFFD_WP) {
		struct uffdio_register reg = {
			.range = { .start = a, .len = len },
			.mode = UFFDIO_REGISTER_MODE_WP,
		};

		ret = uffd_open(rt);
		if (ret)
			goto out;
		if (ioctl(rt->uffd, UFFDIO_REGISTER, &reg)) {
			/* EBUSY: the program's own userfaultfd has it */
			ret = errno == EINVAL || errno == EBUSY ? -errno :
			      -ENOSYS;
			goto out;
		}
	}
	ret = region_fill(rt, r, a, len, source);
	if (ret) {
		if (source == TPRT_SRC_UFFD_WP) {
			struct uffdio_range range = { .start = a, .len = len };

			ioctl(rt->uffd, UFFDIO_UNREGISTER, &range);
		}
		goto out;
	}
	/*
	 * A new generation, published after the range and the arrays (a
	 * handler that reads it reads them): a handler that found the slot
	 * before it was reused tells its region from this one.
	 */
	atomic_store_explicit(&r->gen, ++region_gen, memory_order_release);
	atomic_store_explicit(&r->state, TPRT_R_LIVE, memory_order_release);
out:
	pthread_mutex_unlock(&rt->prot_lock);
	return ret;
}

/* Under prot_lock: give a live region back (access restored everywhere). */
static void region_retire(struct tprt_rt *rt, struct tprt_region *r)
{
	size_t len = r->end - r->start;
	uint64_t c;

	atomic_store(&r->state, TPRT_R_DYING);
	if (rt->pend.r == r)
		rt->pend.r = NULL;	/* the scanner's run in it */
	if (r->source == TPRT_SRC_UFFD_WP) {
		struct uffdio_range range = { .start = r->start, .len = len };

		tprt_uffd_wp(rt, r->start, len, false);
		ioctl(rt->uffd, UFFDIO_UNREGISTER, &range);
	} else {
		mprotect((void *)r->start, len, PROT_READ | PROT_WRITE);
	}
	/* Access is restored: a fault from here on is retried (gone()). */
	atomic_fetch_add(&tprt_retired, 1);
	atomic_store(&r->state, TPRT_R_DEAD);
	inflight_drain(rt);
	/* No handler can reserve in it any more: give its VMAs back. */
	for (c = 0; c < r->nchunks; c++)
		tprt_est_set(rt, r, c, 0);
}

int tprt_unregister(void *addr)
{
	struct tprt_rt *rt = tprt_rt;
	int i, ret = -ENOENT;

	if (!rt || !atomic_load(&rt->running))
		return -ESRCH;
	pthread_mutex_lock(&rt->prot_lock);
	for (i = 0; i < TPRT_MAX_REGIONS; i++) {
		struct tprt_region *r = &rt->region[i];

		if (atomic_load(&r->state) == TPRT_R_LIVE &&
		    r->start == (uintptr_t)addr) {
			region_retire(rt, r);
			ret = 0;
			break;
		}
	}
	pthread_mutex_unlock(&rt->prot_lock);
	return ret;
}

/*
 * Apply @delta (+1 or -1) to the pin counts of the blocks of every live
 * region that [a, a + len) touches; all or nothing.
 */
static int pin_range(struct tprt_rt *rt, uintptr_t a, size_t len, int delta)
{
	int i, pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < TPRT_MAX_REGIONS; i++) {
			struct tprt_region *r = &rt->region[i];
			uintptr_t s, e;
			uint64_t b, b0, b1, bsz;

			if (atomic_load(&r->state) != TPRT_R_LIVE ||
			    a >= r->end || a + len <= r->start)
				continue;
			bsz = (uint64_t)rt->cfg.block_pages << rt->page_shift;
			s = a > r->start ? a : r->start;
			e = a + len < r->end ? a + len : r->end;
			b0 = (s - r->start) / bsz;
			b1 = (e - r->start + bsz - 1) / bsz;
			for (b = b0; b < b1; b++) {
				uint16_t n = atomic_load(&r->pin[b]);

				if (!pass && delta > 0 && n == UINT16_MAX)
					return -EOVERFLOW;
				if (!pass && delta < 0 && !n)
					return -EINVAL;
				if (pass)
					atomic_store(&r->pin[b],
						     (uint16_t)(n + delta));
			}
			if (pass && delta > 0)
				tprt_restore_blocks(rt, r, b0, b1);
			if (pass)
				atomic_fetch_add(&rt->pins,
					(uint64_t)(int64_t)delta *
					(b1 - b0) * rt->cfg.block_pages);
		}
	}
	return 0;
}

/* tprt_pin() and tprt_unpin(): @delta +1 or -1. */
static int pin_call(const void *addr, size_t len, int delta)
{
	struct tprt_rt *rt = tprt_rt;
	uintptr_t a = (uintptr_t)addr;
	int ret;

	if (!len || a + len < a)
		return -EINVAL;
	if (!rt || !atomic_load(&rt->running))
		return 0;
	pthread_mutex_lock(&rt->prot_lock);
	ret = pin_range(rt, a, len, delta);
	pthread_mutex_unlock(&rt->prot_lock);
	return ret;
}

int tprt_pin(const void *addr, size_t len)
{
	return pin_call(addr, len, 1);
}

int tprt_unpin(const void *addr, size_t len)
{
	return pin_call(addr, len, -1);
}

#define LD(x)	atomic_load_explicit(&(x), memory_order_relaxed)

void tprt_stats(struct tprt_stats *s)
{
	struct tprt_rt *rt = tprt_rt;
	struct tprt_mem m;
	uint32_t i, n, v;

	memset(s, 0, sizeof(*s));
	if (!rt)
		return;
	n = LD(rt->nr_slots);
	if (n > TPRT_MAX_SLOTS)
		n = TPRT_MAX_SLOTS;
	for (i = 0; i < n; i++) {
		struct tprt_slot *sl = &rt->slot[i];

		s->faults += LD(sl->faults);
		s->faults_write += LD(sl->faults_write);
		s->faults_stale += LD(sl->faults_stale);
		s->chained += LD(sl->chained);
		s->restore_block += LD(sl->restore_block);
		s->restore_chunk += LD(sl->restore_chunk);
		s->restore_region += LD(sl->restore_region);
		s->restore_fail += LD(sl->restore_fail);
		for (v = 0; v < TPRT_NR_VERDICTS; v++) {
			s->verdict[v] += LD(sl->verdict[v]);
			s->verdict_others[v] += LD(sl->verdict_others[v]);
		}
		s->queued += LD(sl->queued);
		s->queue_full += LD(sl->queue_full);
		s->deferred += LD(sl->deferred);
		s->deferred_full += LD(sl->deferred_full);
		s->sample_faults += LD(sl->sample_faults);
	}
	s->deferred_moved = LD(rt->deferred_moved);
	s->moved = LD(rt->moved);
	s->move_calls = LD(rt->move_calls);
	for (v = 0; v < TPRT_NR_MOVE_FAIL; v++)
		s->move_fail[v] = LD(rt->move_fail[v]);
	s->passes = LD(rt->passes);
	s->passes_fill = LD(rt->passes_fill);
	s->seq = LD(rt->seq);
	/* No lock: a forked child may call this (RUNTIME.md). */
	s->scan_period_ms = atomic_load(&rt->period_ms);
	s->scan_pages = LD(rt->scan_pages);
	s->blocks_protected = LD(rt->blocks_protected);
	s->scan_cpu_ns = LD(rt->scan_cpu_ns);
	s->scan_query_ns = LD(rt->scan_query_ns);
	s->scan_calls = LD(rt->scan_calls);
	s->scan_calls_wide = LD(rt->scan_calls_wide);
	s->vma_est = LD(rt->vma_total);
	s->vma_cap = rt->vma_cap;
	s->nudges = LD(rt->nudges);
	s->nudge_pages = LD(rt->nudge_pages);
	tprt_mem_read(rt, &m);
	s->mem_free = m.free;
	s->pins = LD(rt->pins);
	s->victims_found = LD(rt->victims_found);
	s->rechecks = LD(rt->rechecks);
	s->recheck_full = LD(rt->recheck_full);
	s->demoted = LD(rt->demoted);
	s->demote_calls = LD(rt->demote_calls);
	s->demote_fail = LD(rt->demote_fail);
	if (rt->tp)
		tprt_tp_stats(rt->tp, n, s);
}

int tprt_shutdown(void)
{
	struct tprt_rt *rt = tprt_rt;
	int i;

	if (!rt || !atomic_load(&rt->running))
		return -ESRCH;
	tprt_scan_stop(rt);
	pthread_mutex_lock(&rt->prot_lock);
	for (i = 0; i < TPRT_MAX_REGIONS; i++)
		if (atomic_load(&rt->region[i].state) == TPRT_R_LIVE)
			region_retire(rt, &rt->region[i]);
	pthread_mutex_unlock(&rt->prot_lock);
	/* From here on a handler only looks at the regions' ranges. */
	atomic_store(&rt->running, 0);
	inflight_drain(rt);
	tprt_migrate_stop(rt);
	tprt_scan_free(rt);
	tprt_queue_free(&rt->q);
	tprt_queue_free(&rt->dq);
	tprt_queue_free(&rt->rq);
	/* tierpol's state stays for tprt_stats(): the next tprt_init() frees it. */
	if (rt->uffd >= 0)
		close(rt->uffd);
	rt->uffd = -1;
	return 0;
}


static const char *const move_fail_names[TPRT_NR_MOVE_FAIL] = {
	"enoent", "ebusy", "enomem", "eacces", "efault", "other",
};

const char *tprt_verdict_name(unsigned int v)
{
	const char *name = tprt_tp_verdict_name(v);

	if (name)
		return name;
	if (v == TPRT_V_ERROR)
		return "error";
	if (v == TPRT_V_SLOT_BUSY)
		return "slot-busy";
	return "?";
}

const char *tprt_move_fail_name(unsigned int r)
{
	return r < TPRT_NR_MOVE_FAIL ? move_fail_names[r] : "?";
}
