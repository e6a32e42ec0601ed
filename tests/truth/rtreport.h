/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rtreport (tests/truth/rtreport.c): the runs it reads, and its plots
 * (rtreport_svg.c).
 */
#ifndef TRUTH_RTREPORT_H
#define TRUTH_RTREPORT_H

#include <stdint.h>

#define MAX_SAMPLES	4096

struct sample {
	double t;		/* s since the guest's start */
	double acc;		/* accesses so far */
	double promo;		/* promotions so far */
	double demo;		/* demotions so far */
	double faults;		/* hint faults so far */
	double share;		/* share of accesses on node 0, -1 unknown */
	double oracle;		/* the same number of pages, hottest first */
	double resid;		/* hot-page residency */
	double on0;		/* workload pages on node 0 */
};

struct run {
	char label[64];
	char dir[512];
	int balancing;		/* kernel.numa_balancing */
	char source[16];	/* the runtime's source, "" for none */
	int signal_hz;		/* truth-guest --signal-hz; 0: none */
	int flush_ms;		/* truth-guest --tlb-flush-ms; 0: none */
	double main_t, main_acc;	/* the measured phase's start */
	double end_t, end_acc;
	uint64_t pages;
	struct sample s[MAX_SAMPLES];
	int n;
	/* totals over the run (first to last sample) */
	double promo, demo, faults, rate, share, oracle, resid, on0;
	double rt_moved, rt_queue_full, rt_nudges, rt_passes, rt_cold;
	double rt_passes_fill;
	double rt_nudge_pages;	/* the pages the nudges allocated */
	double rt_deferred_moved, rt_nospace, rt_demoted, rt_rechecks;
	double rt_calls, rt_calls_wide;	/* the scanner's protection calls */
	int rt_defer;		/* refused pages kept (-1: not printed) */
	int rt_sweep_fill;	/* TPRT_F_SWEEP_FILL: 1, 0; -1 unknown */
	int rt_recheck;		/* 0 off, 1 always, 2 while filling; -1 */
	int rt_room;		/* room_batches (-1: not printed) */
	char rt_threads[16];	/* the runtime's threads: "all" CPUs or the
				 * "program"'s (empty: not printed) */
	double cpu_prog;	/* the program's thread's CPU, s (-1: unknown) */
	double cpu_migrate, cpu_scan;	/* the runtime's threads' (-1) */
	double cpu_proc;	/* the process's CPU, all threads, s (-1) */
	double host_load;	/* the host's load average when qemu ended */
	double qemu_cpu;	/* the host CPU time qemu took, s (0: unknown) */
	double tlb_flushes;	/* qemu's software-TLB flushes (-1: unknown) */
	char cpu_model[32];	/* qemu's -cpu (empty: unknown) */
	char decide[16];	/* the runtime's decision unit */
	char latency[16];	/* where its latencies came from */
	char clock[16];		/* their clock */
};

/* What a plot shows (rt_plot()). */
enum { Y_SHARE, Y_RESID, Y_PROMO, Y_DEMO, Y_RATE, Y_FAULTS };

/*
 * One panel of the first @nr_plot of @runs: @what of each run (solid), and
 * @dashed of the first (-1: none), written to @path as SVG.
 * Return: 0, or -1 if @path cannot be written (errno set).
 */
int rt_plot(const char *path, const char *title, const char *ylabel,
	    int what, int dashed, const struct run *runs, int nr_plot);

#endif /* TRUTH_RTREPORT_H */
