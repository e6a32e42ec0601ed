// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * truth-guest: the workload program of the real-kernel ground truth
 * (make kernel-truth, docs/FIDELITY.md). It runs inside a qemu guest on
 * Debian's 6.1 kernel, built statically from tiersim's own workload
 * generator (examples/tiersim/wl.c, compiled a second time: one
 * implementation), and touches real memory with the access stream tiersim
 * simulates: access i of the guest is access i of tiersim.
 *
 * A sampler process (a child, so that it has its own mm and the kernel's
 * NUMA scanner never runs on its behalf over the workload's memory) prints
 * the kernel's counters every --sample-ms; the host side
 * (tests/truth/truth.c) turns the console log into JSON. Every line this
 * program prints starts with "TRUTH " and is key=value pairs:
 *
 *   TRUTH machine ...          node sizes, zone watermarks, scan settings
 *   TRUTH start ...            the workload and its phases
 *   TRUTH thread i=N tid=T      thread N of several is task T
 *   TRUTH phase i=N name=S t_ms=T acc=A threads=K  a phase begins (K of
 *                              the threads take part in it)
 *   TRUTH sample t_ms=T acc=A phase=N <vmstat> n0_free= n1_free= ws0= ws1=
 *   TRUTH prog t_ms=T acc=A numa_hint_faults=F pgpromote_success=P
 *     pgpromote_candidate= pgscan_kswapd= pgrefill= pgdemote_kswapd=
 *     kswapd_cpu_ms=
 *                              with --prog-ms, between the samples
 *   TRUTH done t_ms=T acc=A rate=R
 *   TRUTH signals hz=N n=K     with --signal-hz: K signals handled
 *   TRUTH tlbflush ms=N n=K    with --tlb-flush-ms: K flushes made
 *
 * With --runtime (make runtime-truth, docs/RUNTIME-RESULTS.md) also:
 *
 *   TRUTH runtime source=S ...  the tierpol runtime's settings
 *   TRUTH rt t_ms=T acc=A ...   its counters, every --sample-ms
 *   TRUTH nodemap t_ms=T n0=HEX with --node-map: the workload's pages on
 *                              node 0, one bit a page (guest_rt.h)
 *
 * acc counts every access of the stream, the initialisation pass included.
 * ws0/ws1 are the workload's resident pages on node 0/1 (numa_maps), seq
 * the mm's NUMA scan sequence and cpu_ms the workload's CPU time
 * (/proc/PID/sched), user_ms and sys_ms its user and system time
 * (/proc/PID/stat), cost_ms what taking the sample took.
 */
#define _GNU_SOURCE
#include "wl.h"
#include "guest_rt.h"
#include "guest_proc.h"
#include "guest_opts.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BATCH		4096
#define PAGE_SIZE	4096UL
#define MPOL_DEFAULT_	0	/* <linux/mempolicy.h>, without libnuma */
#define MPOL_BIND_	2
#define MPOL_F_NUMA_BALANCING_	(1 << 13)

/* Shared between the workload and the sampler process. */
struct shared {
	_Atomic uint64_t acc;		/* accesses done */
	_Atomic uint32_t phase;		/* phase of the last batch */
	_Atomic int stop;
};

static struct shared *g_sh;
static struct timespec g_t0;
static uint64_t *g_base;		/* the first VMA */
static uint64_t g_pages;
/* The workload's VMAs: each its own mapping, 2 MiB aligned. */
static uint32_t g_nvma;
static char *g_vbase[WL_MAX_VMAS];
static uint64_t g_vfirst[WL_MAX_VMAS], g_vpages[WL_MAX_VMAS];
static char *g_map;
static size_t g_map_len;
static pid_t g_pid;			/* the workload */
static unsigned int g_sample_ms;		/* --sample-ms */
static unsigned int g_prog_ms;		/* --prog-ms */
static int g_node_map;			/* --node-map */

/* Microseconds since the start. */
static uint64_t now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)(t.tv_sec - g_t0.tv_sec) * 1000000 +
	       (uint64_t)((t.tv_nsec - g_t0.tv_nsec) / 1000);
}

static uint64_t now_ms(void)
{
	return now_us() / 1000;
}

/* One line, one write(): the two processes' lines never interleave. */
void out(const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	if (write(STDOUT_FILENO, buf, (size_t)n) < 0)
		return;
}

static int g_kswapd = -1;

static void sample(void)
{
	char buf[4096];
	unsigned long long vals[NR_VMSTAT] = { 0 };
	uint64_t ws[MAX_NODES] = { 0 };
	struct zinfo z;
	size_t i, off = 0;
	uint64_t t, acc;
	long long seq, kseq;
	double cpu_ms, kcpu_ms, user_ms, sys_ms;
	char zbuf[512];
	FILE *zf;

	t = now_ms();
	acc = atomic_load_explicit(&g_sh->acc, memory_order_relaxed);
	read_vmstat(vals);
	zf = fmemopen(zbuf, sizeof(zbuf), "w");
	read_zoneinfo(&z, zf, 0);
	if (zf)
		fclose(zf);
	else
		zbuf[0] = 0;
	zbuf[sizeof(zbuf) - 1] = 0;
	read_sched((int)g_pid, &seq, &cpu_ms);
	read_sched(g_kswapd, &kseq, &kcpu_ms);
	read_times((int)g_pid, &user_ms, &sys_ms);
	off += snprintf(buf + off, sizeof(buf) - off,
			"TRUTH sample t_ms=%llu acc=%llu phase=%u seq=%lld"
			" cpu_ms=%.1f user_ms=%.0f sys_ms=%.0f"
			" kswapd_cpu_ms=%.3f",
			(unsigned long long)t, (unsigned long long)acc,
			atomic_load(&g_sh->phase), seq, cpu_ms, user_ms,
			sys_ms, kcpu_ms);
	for (i = 0; i < NR_VMSTAT; i++)
		off += snprintf(buf + off, sizeof(buf) - off, " %s=%llu",
				vmstat_keys[i], vals[i]);
	/*
	 * Last: they walk the workload's page tables. With --node-map the
	 * node map gives ws0 and ws1: numa_maps would hold the workload's
	 * mmap lock for the whole walk (seconds under emulation), stalling
	 * every mprotect() of the runtime's hint faults meanwhile.
	 */
	if (g_node_map)
		nodemap_print(g_pid, g_nvma, (void *const *)g_vbase, g_vpages,
			      t, ws);
	else
		read_numa_maps((int)g_pid, g_nvma, g_vbase, ws);
	for (i = 0; i < (size_t)z.nr_nodes && i < 2; i++)
		off += snprintf(buf + off, sizeof(buf) - off,
				" n%zu_free=%llu n%zu_boost=%llu ws%zu=%llu", i,
				(unsigned long long)z.free[i], i,
				(unsigned long long)z.boost[i], i,
				(unsigned long long)ws[i]);
	off += snprintf(buf + off, sizeof(buf) - off, "%s cost_ms=%llu",
			zbuf,
			(unsigned long long)(now_ms() - t));
	out("%s\n", buf);
}

/*
 * --prog-ms: between samples, the workload's progress and the two
 * counters whose costs the harness takes out of its time (hint faults,
 * promotions), the candidates (which pass's marks they follow), and
 * kswapd's work and CPU time (whose costs it fits), cheaply: no page-table
 * walk, one read of /proc/vmstat and one of kswapd0's /proc/PID/sched.
 */
static void prog_line(void)
{
	unsigned long long vals[NR_VMSTAT] = { 0 };
	uint64_t t = now_ms(), acc;
	long long kseq;
	double kcpu_ms;

	acc = atomic_load_explicit(&g_sh->acc, memory_order_relaxed);
	if (read_vmstat(vals))
		return;
	read_sched(g_kswapd, &kseq, &kcpu_ms);
	out("TRUTH prog t_ms=%llu acc=%llu numa_hint_faults=%llu "
	    "pgpromote_success=%llu pgpromote_candidate=%llu "
	    "pgscan_kswapd=%llu pgrefill=%llu pgdemote_kswapd=%llu "
	    "kswapd_cpu_ms=%.3f\n",
	    (unsigned long long)t, (unsigned long long)acc,
	    vmstat_val(vals, "numa_hint_faults"),
	    vmstat_val(vals, "pgpromote_success"),
	    vmstat_val(vals, "pgpromote_candidate"),
	    vmstat_val(vals, "pgscan_kswapd"), vmstat_val(vals, "pgrefill"),
	    vmstat_val(vals, "pgdemote_kswapd"), kcpu_ms);
}

/* Advance @next by @ms past @t (a late tick is not made up). */
static void tick_next(uint64_t *next, uint64_t t, unsigned int ms)
{
	*next += ms;
	if (*next <= t)
		*next = t + ms;
}

/*
 * The sampler process: a sample every g_sample_ms, and a progress line
 * every g_prog_ms between them, until told to stop.
 */
static void sampler(void)
{
	uint64_t next = g_sample_ms, next_prog = g_prog_ms;

	g_kswapd = find_kswapd0();
	sample();
	while (!atomic_load(&g_sh->stop)) {
		uint64_t t = now_ms(), wake = next;

		if (t >= next) {
			sample();
			tick_next(&next, t, g_sample_ms);
			/* The sample stands for a progress line due now. */
			if (g_prog_ms && next_prog <= t)
				tick_next(&next_prog, t, g_prog_ms);
			continue;
		}
		if (g_prog_ms && t >= next_prog) {
			prog_line();
			tick_next(&next_prog, t, g_prog_ms);
			continue;
		}
		if (g_prog_ms && next_prog < wake)
			wake = next_prog;
		usleep((useconds_t)((wake - t) * 1000 < 20000 ?
				    (wake - t) * 1000 : 20000));
	}
	sample();
	_exit(0);
}

/* Write @v to the file @path (a sysctl); complain if it fails. */
static void write_setting(const char *path, long long v)
{
	FILE *f = fopen(path, "w");

	if (!f || fprintf(f, "%lld\n", v) < 0 || fclose(f)) {
		fprintf(stderr, "truth-guest: cannot set %s\n", path);
		exit(1);
	}
}

/*
 * The workload's VMAs, each a mapping of its own: one PROT_NONE
 * reservation, then each VMA made accessible at a 2 MiB boundary with a
 * 2 MiB PROT_NONE gap before the next (the kernel would merge adjacent
 * anonymous mappings). @thp: transparent huge pages (MADV_HUGEPAGE), else
 * 4 KiB pages only (MADV_NOHUGEPAGE).
 */
static int map_vmas(const struct wl *w, int thp)
{
	const size_t huge = 2UL << 20;
	uint32_t v;
	char *at;

	g_nvma = w->nr_vmas;
	g_map_len = huge;
	for (v = 0; v < g_nvma; v++)
		g_map_len += w->vma[v].pages * PAGE_SIZE + 2 * huge;
	g_map = mmap(NULL, g_map_len, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (g_map == MAP_FAILED)
		return -1;
	at = (char *)(((uintptr_t)g_map + huge - 1) & ~(uintptr_t)(huge - 1));
	for (v = 0; v < g_nvma; v++) {
		size_t len = w->vma[v].pages * PAGE_SIZE;

		g_vbase[v] = at;
		g_vfirst[v] = w->vma[v].first;
		g_vpages[v] = w->vma[v].pages;
		if (mprotect(at, len, PROT_READ | PROT_WRITE))
			return -1;
		if (madvise(at, len, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE))
			fprintf(stderr, "truth-guest: madvise: %s\n",
				strerror(errno));
		at += (len + 2 * huge - 1) & ~(huge - 1);
	}
	g_base = (uint64_t *)g_vbase[0];
	return 0;
}

/* The word of page @page the workload touches. */
static inline volatile uint64_t *page_word(uint64_t page)
{
	uint32_t v = g_nvma - 1;

	while (v && page < g_vfirst[v])
		v--;
	return (volatile uint64_t *)(g_vbase[v] +
				     (page - g_vfirst[v]) * PAGE_SIZE);
}

/* Run the calling thread (and the threads it starts later) on @cpu. */
static void pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "truth-guest: --cpu %d: %s\n", cpu,
			strerror(errno));
}

/* --signal-hz: the signals the handler saw, printed at the end. */
static volatile sig_atomic_t g_signals;

static void on_alarm(int sig)
{
	(void)sig;
	g_signals++;
}

/*
 * SIGALRM @hz times a second (ITIMER_REAL), to an empty handler: what
 * signal delivery alone costs the program, beside the runtime's hint
 * faults (each is a signal too).
 */
static int start_signals(unsigned int hz, int self)
{
	struct sigaction sa;
	struct itimerval it;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	/* At most 100000 a second (guest_opts.c): 10 us or more. */
	it.it_interval.tv_sec = 0;
	it.it_interval.tv_usec = (suseconds_t)(1000000 / hz);
	it.it_value = it.it_interval;
	if (sigaction(SIGALRM, &sa, NULL) ||
	    (!self && setitimer(ITIMER_REAL, &it, NULL))) {
		fprintf(stderr, "truth-guest: --signal-hz: %s\n",
			strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * --tlb-flush-ms: 64 pages of the process's own, read once (the zero
 * page), whose protection the workload's thread takes away and gives back
 * every N ms: each mprotect(2) over more than 33 pages empties the TLB of
 * the CPU it runs on (x86's flush ceiling). NULL on failure.
 */
#define FLUSH_PAGES	64

static volatile char *flush_map(void)
{
	volatile char *p = mmap(NULL, FLUSH_PAGES * 4096, PROT_READ,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned int i;

	if (p == MAP_FAILED) {
		fprintf(stderr, "truth-guest: --tlb-flush-ms: %s\n",
			strerror(errno));
		return NULL;
	}
	for (i = 0; i < FLUSH_PAGES; i++)
		(void)p[i * 4096];
	return p;
}

static void flush_kick(volatile char *p)
{
	mprotect((void *)p, FLUSH_PAGES * 4096, PROT_NONE);
	mprotect((void *)p, FLUSH_PAGES * 4096, PROT_READ);
}

/* Every CPU the process may use but @cpu (none left: unchanged). */
static void unpin_cpu(int cpu)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	CPU_CLR(cpu, &set);
	if (CPU_COUNT(&set) && sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "truth-guest: --rt-cpus-other: %s\n",
			strerror(errno));
}

/* --runtime: its counters every --sample-ms (one thread calls this). */
static int g_runtime;
static uint64_t g_next_rt;

static void rt_tick(uint64_t acc)
{
	uint64_t t;

	if (!g_runtime)
		return;
	t = now_ms();
	if (t >= g_next_rt) {
		grt_report(t, acc);
		g_next_rt += g_sample_ms;
		if (g_next_rt <= t)
			g_next_rt = t + g_sample_ms;
	}
}

/* ---- several threads: each its own stream, a barrier between phases -- */

static struct wl *g_wl;
static pthread_barrier_t g_bar;
static _Atomic int g_over;
static uint64_t g_max_ms;

/* Phase @ph begins: its line (by one thread, at the barrier). */
static void phase_line(uint32_t ph, uint64_t acc)
{
	const struct wl_phase *p = &g_wl->phase[ph];

	atomic_store(&g_sh->phase, ph);
	out("TRUTH phase i=%u name=%s t_ms=%llu acc=%llu threads=%u\n", ph,
	    p->name, (unsigned long long)now_ms(), (unsigned long long)acc,
	    p->t_hi - p->t_lo);
}

/*
 * Diagnostic: with TRUTH_MARKER=FILE in the environment (a trace
 * instance's trace_marker), thread 0 writes its access count there every
 * 2 ms, so the trace shows the workload's progress between the
 * kernel's events on the same clock.
 */
static int g_marker = -1;
static uint64_t g_next_mark;

static void marker_tick(uint64_t acc)
{
	char b[48];
	uint64_t t;
	int n;

	if (g_marker < 0)
		return;
	t = now_us();
	if (t < g_next_mark)
		return;
	g_next_mark = t + 2000;
	n = snprintf(b, sizeof(b), "acc=%llu", (unsigned long long)acc);
	if (write(g_marker, b, (size_t)n) < 0)
		g_marker = -1;
}

static void *worker(void *arg)
{
	struct wl_thread t;
	uint64_t *buf = malloc(BATCH * sizeof(*buf)), sink = 0;
	uint32_t tid = (uint32_t)(uintptr_t)arg;
	size_t n, i;

	if (!buf)
		return NULL;
	/* The scanner runs in its threads' context: the host matches them. */
	out("TRUTH thread i=%u tid=%ld\n", tid, (long)syscall(SYS_gettid));
	wl_thread_start(g_wl, &t, tid);
	do {
		while ((n = wl_thread_fill(g_wl, &t, buf, BATCH)) > 0) {
			for (i = 0; i < n; i++) {
				volatile uint64_t *q = page_word(WL_PAGE(buf[i]));

				if (WL_IS_WRITE(buf[i]))
					*q = i;
				else
					sink += *q;
			}
			atomic_fetch_add_explicit(&g_sh->acc, n,
						  memory_order_relaxed);
			if (!tid) {
				rt_tick(atomic_load(&g_sh->acc));
				marker_tick(atomic_load(&g_sh->acc));
			}
		}
		if (pthread_barrier_wait(&g_bar) ==
		    PTHREAD_BARRIER_SERIAL_THREAD) {
			if (t.cur + 1 < g_wl->nr_phases &&
			    !(g_max_ms && now_ms() >= g_max_ms))
				phase_line(t.cur + 1, atomic_load(&g_sh->acc));
			else
				atomic_store(&g_over, 1);
		}
		pthread_barrier_wait(&g_bar);
	} while (!atomic_load(&g_over) && wl_thread_next(g_wl, &t));
	free(buf);
	return (void *)(uintptr_t)(sink & 1);
}

/* Run the workload's threads to the end; the accesses done. */
static uint64_t run_threads(struct wl *w)
{
	pthread_t th[WL_MAX_THREADS];
	uint32_t i;

	g_wl = w;
	if (pthread_barrier_init(&g_bar, NULL, w->p.threads)) {
		fprintf(stderr, "truth-guest: pthread_barrier_init failed\n");
		exit(1);
	}
	phase_line(0, 0);
	for (i = 0; i < w->p.threads; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)(uintptr_t)i)) {
			fprintf(stderr, "truth-guest: pthread_create failed\n");
			exit(1);
		}
	for (i = 0; i < w->p.threads; i++)
		pthread_join(th[i], NULL);
	return atomic_load(&g_sh->acc);
}

int main(int argc, char **argv)
{
	struct guest_opts o;
	struct wl w;
	pid_t child;
	int status;
	char err[256];
	uint64_t *buf, acc = 0, sink = 0, t;
	uint32_t phase = UINT32_MAX;
	int bound = 0;
	uint64_t fast_cap = 0, sig_period = 0, sig_next = 0;
	uint64_t flush_next = 0, flush_n = 0;
	volatile char *flush_p = NULL;
	size_t n, i;

	guest_opts_parse(&o, argc, argv);
	g_sample_ms = o.sample_ms;
	g_prog_ms = o.prog_ms;
	g_node_map = o.node_map;
	if (wl_init(&w, &o.p, err, sizeof(err))) {
		fprintf(stderr, "truth-guest: %s\n", err);
		return 2;
	}
	if (o.p.threads > 1 && o.init_fast > 0) {
		fprintf(stderr, "truth-guest: --init-fast needs one thread\n");
		return 2;
	}
	/* The kernel's settings the scenario asks for, before anything. */
	if (o.rate >= 0)
		write_setting("/proc/sys/kernel/"
			      "numa_balancing_promote_rate_limit_MBps", o.rate);
	if (o.pmax >= 0)
		write_setting("/sys/kernel/debug/sched/numa_balancing/"
			      "scan_period_max_ms", o.pmax);
	g_pages = o.p.pages;
	g_sh = mmap(NULL, sizeof(*g_sh), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	buf = malloc(BATCH * sizeof(*buf));
	if (map_vmas(&w, o.thp) || g_sh == MAP_FAILED || !buf) {
		fprintf(stderr, "truth-guest: cannot map %llu pages: %s\n",
			(unsigned long long)g_pages, strerror(errno));
		return 1;
	}

	clock_gettime(CLOCK_MONOTONIC, &g_t0);
	if (getenv("TRUTH_MARKER"))
		g_marker = open(getenv("TRUTH_MARKER"), O_WRONLY);
	print_machine();
	{
		char ph[256];
		size_t off = 0;

		ph[0] = 0;
		for (i = 0; i < w.nr_phases; i++)
			off += snprintf(ph + off, sizeof(ph) - off, "%s%s:%llu",
					i ? "," : "", w.phase[i].name,
					(unsigned long long)w.phase[i].count);
		out("TRUTH start kind=%s pages=%llu accesses=%llu seed=%llu"
		    " total=%llu init=%d write_frac=%g sigma=%g hot_frac=%g"
		    " hot_prob=%g shift_at=%g burst_pages=%llu threads=%u"
		    " thp=%d init_fast=%g cpu=%d sample_ms=%u prog_ms=%u"
		    " mono_t0_us=%llu pid=%d base=0x%lx small_frac=%g"
		    " vmas=%u phases=%s\n",
		    wl_kind_name(o.p.kind), (unsigned long long)o.p.pages,
		    (unsigned long long)o.p.accesses,
		    (unsigned long long)o.p.seed,
		    (unsigned long long)w.total, o.p.init, o.p.write_frac,
		    o.p.sigma_frac, o.p.hot_frac, o.p.hot_prob, o.p.shift_at,
		    (unsigned long long)o.p.burst_pages, o.p.threads, o.thp,
		    o.init_fast, o.cpu, g_sample_ms, g_prog_ms,
		    (unsigned long long)g_t0.tv_sec * 1000000 +
		    (unsigned long long)g_t0.tv_nsec / 1000, (int)getpid(),
		    (unsigned long)g_base, o.p.small_frac, w.nr_vmas, ph);
	}
	if (o.init_fast > 0 && o.p.init)
		fast_cap = (uint64_t)(o.init_fast * (double)o.p.pages);
	g_pid = getpid();
	child = fork();
	if (child < 0) {
		fprintf(stderr, "truth-guest: cannot start the sampler\n");
		return 1;
	}
	if (!child) {
		munmap(g_map, g_map_len);
		sampler();
	}
	/* Let the first sample see the workload before it starts. */
	usleep(200000);
	/*
	 * --rt-cpus-all: the runtime's threads start before the pin;
	 * --rt-cpus-other: from a mask without the program's CPU.
	 */
	o.rt.program_cpu = o.cpu;
	if (o.cpu >= 0 && !o.rt.all_cpus)
		pin_cpu(o.cpu);
	if (o.cpu >= 0 && o.rt.all_cpus == 2)
		unpin_cpu(o.cpu);
	if (o.rt.source) {
		if (grt_start(&o.rt, g_nvma, (void *const *)g_vbase, g_vpages))
			return 1;
		g_runtime = 1;
	}
	if (o.cpu >= 0 && o.rt.all_cpus)
		pin_cpu(o.cpu);

	if (o.signal_hz && start_signals(o.signal_hz, o.signal_self))
		return 1;
	if (o.signal_self) {
		sig_period = 1000000 / o.signal_hz;
		sig_next = now_us() + sig_period;
	}
	if (o.flush_ms) {
		flush_p = flush_map();
		if (!flush_p)
			return 1;
		flush_next = now_ms() + o.flush_ms;
	}
	g_max_ms = o.max_ms;
	if (o.p.threads > 1)
		acc = run_threads(&w);
	while (o.p.threads == 1) {
		/* Stop a batch exactly where --init-fast binds. */
		n = fast_cap && acc < fast_cap && fast_cap - acc < BATCH ?
		    fast_cap - acc : BATCH;
		n = wl_fill(&w, buf, n);
		if (!n)
			break;
		uint32_t ph = wl_phase(&w);

		/*
		 * --init-fast: the rest of the initialisation pass on node 1,
		 * as if reclaim had pushed it there (tiersim's --init-fast).
		 */
		if (fast_cap && !bound && acc >= fast_cap) {
			unsigned long mask = 1UL << 1;

			/*
			 * With MPOL_F_NUMA_BALANCING: a task policy without
			 * MPOL_F_MOF would make the NUMA scanner skip every
			 * VMA (vma_policy_mof()) while it is bound.
			 */
			if (syscall(SYS_set_mempolicy,
				    MPOL_BIND_ | MPOL_F_NUMA_BALANCING_, &mask,
				    sizeof(mask) * 8))
				fprintf(stderr, "truth-guest: set_mempolicy: "
					"%s\n", strerror(errno));
			bound = 1;
			out("TRUTH bind node=1 t_ms=%llu acc=%llu\n",
			    (unsigned long long)now_ms(),
			    (unsigned long long)acc);
		}
		if (bound == 1 && strcmp(w.phase[ph].name, "init")) {
			if (syscall(SYS_set_mempolicy, MPOL_DEFAULT_, NULL, 0))
				fprintf(stderr, "truth-guest: set_mempolicy: "
					"%s\n", strerror(errno));
			bound = 2;
		}
		if (ph != phase) {
			phase = ph;
			atomic_store(&g_sh->phase, ph);
			out("TRUTH phase i=%u name=%s t_ms=%llu acc=%llu "
			    "threads=1\n", ph, w.phase[ph].name,
			    (unsigned long long)now_ms(),
			    (unsigned long long)acc);
		}
		for (i = 0; i < n; i++) {
			volatile uint64_t *q = page_word(WL_PAGE(buf[i]));

			if (WL_IS_WRITE(buf[i]))
				*q = acc + i;
			else
				sink += *q;
		}
		acc += n;
		atomic_store_explicit(&g_sh->acc, acc, memory_order_relaxed);
		rt_tick(acc);
		marker_tick(acc);
		/* --signal-self: as many as the timer would have sent. */
		if (o.signal_self) {
			uint64_t us = now_us();

			while (us >= sig_next) {
				raise(SIGALRM);
				sig_next += sig_period;
			}
		}
		if (o.flush_ms && now_ms() >= flush_next) {
			flush_kick(flush_p);
			flush_n++;
			flush_next += o.flush_ms;
		}
		if (o.max_ms && now_ms() >= o.max_ms)
			break;
	}
	t = now_ms();
	if (o.flush_ms)
		out("TRUTH tlbflush ms=%u n=%llu\n", o.flush_ms,
		    (unsigned long long)flush_n);
	if (o.signal_hz) {
		struct itimerval off;

		memset(&off, 0, sizeof(off));
		setitimer(ITIMER_REAL, &off, NULL);
		out("TRUTH signals hz=%u n=%ld\n", o.signal_hz,
		    (long)g_signals);
	}
	if (g_runtime)
		grt_stop(t, acc);
	atomic_store(&g_sh->stop, 1);
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		fprintf(stderr, "truth-guest: the sampler failed\n");
	out("TRUTH done t_ms=%llu acc=%llu total=%llu rate=%.0f sink=%llu\n",
	    (unsigned long long)t, (unsigned long long)acc,
	    (unsigned long long)w.total, t ? (double)acc * 1000.0 / (double)t : 0,
	    (unsigned long long)(sink & 1));
	wl_free(&w);
	return 0;
}
