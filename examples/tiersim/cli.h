/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tiersim's command line: shared by its files (see docs/tiersim.md)
 *
 *   opts.c   the options: table, parsing, --help
 *   set.c    a set: one source under several policies, built from the
 *            options and a suite item
 *   suite.c  the built-in suites and their output files
 *   main.c   the job pool and main()
 */
#ifndef _TIERSIM_CLI_H
#define _TIERSIM_CLI_H

#include "out.h"
#include "results.h"
#include "sim.h"
#include "trace.h"
#include "wl.h"

#define EXIT_USAGE	2

extern const char *prog;

/* A capacity: pages, bytes with K/M/G, or a percentage of the footprint. */
struct size_opt {
	int set;
	double frac;		/* > 0: fraction of the footprint */
	u64 pages;
};

/* The cost options, each overriding one field of the cost profile. */
enum {
	C_CPU, C_FAST_R, C_FAST_W, C_SLOW_R, C_SLOW_W, C_FAULT, C_MIGR,
	C_MIGR_BW, C_SCAN, C_ALLOC, C_RECLAIM, C_SCAN_UPD, C_DEMOTE,
	C_BW_SR, C_BW_SW, C_BW_FR, C_BW_FW, C_GRAN_S, C_GRAN_F, C_Q_S, C_Q_F,
	C_MLP, C_TLB, C_IPI,
	C_NR,
};

/* The kernel settings (sysctls), each one field of struct sim_cfg. */
enum {
	K_DELAY, K_PERIOD, K_PERIOD_MIN, K_SIZE, K_PERIOD_MAX, K_HOT, K_RATE,
	K_THRESH,
	K_NR,
};

/* The workload's shape, each one field of struct wl_params. */
enum {
	W_WRITE, W_SIGMA, W_ZIPF, W_HOT_FRAC, W_HOT_PROB, W_SHIFT, W_BURST,
	W_SMALL, W_THREADS,
	W_NR,
};

/**
 * struct field_opt - an option that sets one field of a struct
 * @name: the long option
 * @off: the field's offset
 * @kind: FIELD_U32, FIELD_S64, FIELD_U64 or FIELD_DBL
 */
struct field_opt {
	const char *name;
	size_t off;
	int kind;
};

enum { FIELD_U32, FIELD_S64, FIELD_U64, FIELD_DBL };

extern const struct field_opt cost_opts[C_NR];	/* struct sim_costs */
extern const struct field_opt kern_opts[K_NR];	/* struct sim_cfg */
extern const struct field_opt wl_opts[W_NR];	/* struct wl_params */

/* Settings from the command line; "set" flags tell what the user gave. */
struct opts {
	const char *workload;
	const char *trace;
	int format;
	int instr;
	char policies[4096];
	int have_policies;
	u64 seed;
	int seed_set;
	u64 pages, accesses;
	struct size_opt fast, slow;
	u64 wmark[4];
	int thp;
	const char *profile;
	/* cost overrides, kernel settings, workload shape; < 0: unset */
	long long cost[C_NR];
	long long kern[K_NR];
	double wl[W_NR];
	double init_fast;
	const char *cpu_file;
	/* the model's choices; < 0: unset */
	int lru_two_list;
	int kswapd_rounds;
	int serial_clock;
	long long tlb_entries;
	long long scale;
	int no_init;
	long long sample_ms, pingpong_ms;
	int allow_no_pressure;
	const char *json, *csv, *svg;
	int jobs;
	int quiet;
	const char *suite;
	const char *outdir;
	const char *results_md;
};

/* opts.c */
void opts_init(struct opts *o);
void parse_args(struct opts *o, int argc, char **argv);
void parse_size(const char *opt, const char *s, struct size_opt *o);
void __attribute__((noreturn, format(printf, 1, 2)))
die_usage(const char *fmt, ...);
void __attribute__((noreturn, format(printf, 2, 3)))
die(int code, const char *fmt, ...);

/* One source under several policies. */
struct set {
	struct run_set rs;
	struct sim_cfg cfg;
	struct wl_params wp;
	struct wl wl;
	struct trace tr;
	struct sim_src src;
	u32 nr_pol;
	struct sim_policy pol[SIM_MAX_POLICIES];
	char label[128];
	int has_wl, has_tr;
};

/* set.c */
void build_set(struct set *s, const struct opts *o, const struct item *it);
void free_set(struct set *s);

/* main.c */
void run_sets(struct set *sets, u32 nr_sets, int jobs, int quiet);
FILE *open_out(const char *path);
void close_out(FILE *f, const char *path);
double now_s(void);

/* suite.c */
int run_suite(const struct opts *o);

#endif /* _TIERSIM_CLI_H */
