/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * truth: the host side of the real-kernel ground truth (docs/FIDELITY.md),
 * shared by its files:
 *
 *   truth.c         main(): the two commands
 *   truth_parse.c   "truth parse": a guest's console into the kernel run
 *                   (struct krun) and kernel.json
 *   truth_fit.c     the machine tiersim is given, fitted on the kernel run
 *                   (struct derived): tiersim.args and tiersim.cpu
 *   truth_report.c  "truth report": the side-by-side tables and plots
 */
#ifndef _TRUTH_H
#define _TRUTH_H

#include "json.h"

#include <stdio.h>

#define MAX_KV		512
#define MAX_SAMPLES	4096
#define MAX_SCANS	8192
#define MAX_PHASES	8
#define MAX_RUNS	8

extern const char *prog;

void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...);

/* One console line's key=value pairs. */
struct kvl {
	int n;
	char *k[MAX_KV];
	char *v[MAX_KV];
};

void kvl_parse(struct kvl *l, char *s);
const char *kv_str(const struct kvl *l, const char *key);
double kv_num(const struct kvl *l, const char *key, double def);
double kv_req(const struct kvl *l, const char *key, const char *what);

struct scan {
	double t_ms;		/* program time */
	double dur_us;
};

/* One change_prot_numa() call: a chunk of a NUMA scan pass. */
struct chunk {
	double t_ms;		/* program time of the call */
	double dur_us;
	double start, end;	/* addresses */
	double updated;		/* PTEs changed (its return value) */
};

#define MAX_CHUNKS	16384
#define MAX_TIDS	64
#define MAX_PROG	16384

/*
 * A progress line (truth-guest --prog-ms): the counters at program time.
 * kswapd's (pages it looked at, pgscan_kswapd + pgrefill; pages it
 * demoted; its CPU time) are -1 on a line without them (the guest's first
 * progress lines had none).
 */
struct prog {
	double t_ms, acc, faults, promo;
	double klooks, kdemoted, kcpu_ms;
};

struct krun {
	char *buf[MAX_SAMPLES + 64];
	int nbuf;
	struct kvl machine, start, done, host, bind;
	int have_machine, have_start, have_done, have_host, have_bind;
	char release[64];
	int nr_phases;
	struct kvl phase[MAX_PHASES];
	int nr_samples;
	struct kvl sample[MAX_SAMPLES];
	int nr_scans;
	struct scan scans[MAX_SCANS];
	int nr_other_scans;
	int nr_chunks;
	struct chunk chunks[MAX_CHUNKS];
	int nr_tids;		/* the workload's threads (several) */
	int tid[MAX_TIDS];
	int nr_prog;		/* progress lines, between the samples */
	struct prog prog[MAX_PROG];
};

/* truth_parse.c */
void read_console(const char *path, struct krun *k);
double delta(const struct krun *k, int i, const char *key);
double rss_at(const struct krun *k, double t_ms);
int cmd_parse(int argc, char **argv);

/* What the parse derives: the machine as tiersim takes it. */
struct derived {
	double acc_total, acc_init, acc_measured;
	double t_start_ms, t_main_ms, t_end_ms;
	double scan_ms_init, scan_ms_main, scan_ptes;
	int scan_passes;
	double cpu_ns, alloc_ns, scan_pte_ns, rate, reclaim_ns;
	double scan_update_ns;
	int scan_fit;		/* scan costs fitted on the chunks */
	double fault_ns, migrate_ns;
	int cost_fit;		/* intervals the fault costs were fitted on */
	double demote_ns;
	int kswapd_fit;		/* intervals kswapd's costs were fitted on */
	double fast_pages, slow_pages, wm[4];
};

/* truth_fit.c */
void derive(const struct krun *k, struct derived *d);
void write_cpu_file(const char *path, const struct krun *k,
		    const struct derived *d);
void write_args(const char *path, const char *cpu_path, const struct krun *k,
		const struct derived *d);

/* truth_report.c */
int cmd_report(int argc, char **argv);

#endif /* _TRUTH_H */
