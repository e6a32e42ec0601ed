/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tiersim's command line: shared by its files (see docs/tiersim.md)
 *
 *   opts.c   the options: opt_defs[], one row per option
 *   parse.c  reading the command line with the table; usage errors
 *   help.c   --help, written from the table
 *   set.c    a set: one source under several policies, built from the
 *            options and a suite item
 *   suite.c  the built-in suites and their output files
 *   main.c   the job pool and main()
 *   progress.c  the progress line
 *   warn.c   warnings: results that cannot mean what they seem
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
	const char *arg;	/* the value as given, for messages */
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

/* The most rows opt_defs[] can have. */
#define OPTS_MAX_DEFS	128

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
	int progress;
	int strict;
	const char *suite;
	const char *outdir;
	const char *results_md;
	/* the rows of opt_defs[] given on the command line */
	unsigned char given[OPTS_MAX_DEFS];
};

/* How an option's value is read (&struct opt_def). */
enum opt_kind {
	OPT_FLAG,	/* no value: the int at @off becomes 1 */
	OPT_INT,	/* a whole number into the int at @off */
	OPT_LL,		/* a whole number into the long long at @off */
	OPT_U64,	/* a whole number into the u64 at @off */
	OPT_DBL,	/* a number into the double at @off */
	OPT_STR,	/* the string itself into the const char * at @off */
	OPT_FN,		/* read by @fn */
};

/* The sections of --help, in order. */
enum {
	SEC_SOURCE, SEC_POLICY, SEC_WORKLOAD, SEC_MACHINE, SEC_KERNEL,
	SEC_OUTPUT, SEC_SUITE, SEC_INFO,
	SEC_NR,
};

#define OPT_ABOVE	0x1	/* the range excludes its minimum */
#define OPT_BELOW	0x2	/* the range excludes its maximum */

/**
 * struct opt_def - one command-line option: a row of opt_defs[]
 * @name: the long option without "--"; NULL: @tab[@field].name
 * @key: the short option, or 0
 * @sec: the section of --help
 * @kind: &enum opt_kind
 * @arg: the value's name in --help ("N", "FILE"); NULL: a flag
 * @off: where the value goes in &struct opts
 * @tab: the cost, kernel and workload-shape options: their field table
 *	(their value goes to o->cost[], o->kern[] or o->wl[] at @field)
 * @field: the index in @tab
 * @ilo: the smallest whole number allowed (OPT_INT, OPT_LL, OPT_U64)
 * @ihi: the largest
 * @lo: the range of a number (OPT_DBL), see @flags
 * @hi: its end (INFINITY: none)
 * @flags: OPT_ABOVE, OPT_BELOW
 * @kinds: the workloads (1 << &enum wl_kind) a workload option applies to;
 *	0: all (--help shows their defaults)
 * @zero: a range that holds 0: what 0 means (--help says it)
 * @why: a range without 0: why (said when 0 is given)
 * @help: the text of --help ('\n' breaks the line)
 * @dflt: the default, shown in brackets (NULL: @dflt_fn's, if any)
 * @dflt_fn: writes the default, computed from the model's own tables
 * @more: writes what follows the option in --help (a list of names)
 * @fn: reads the value of an OPT_FN option; exits 2 on a bad one
 */
struct opt_def {
	const char *name;
	int key;
	int sec;
	int kind;
	const char *arg;
	size_t off;
	const struct field_opt *tab;
	int field;
	unsigned long long ilo, ihi;
	double lo, hi;
	unsigned int flags;
	unsigned int kinds;
	const char *zero;
	const char *why;
	const char *help;
	const char *dflt;
	void (*dflt_fn)(FILE *f, const struct opt_def *d);
	void (*more)(FILE *f);
	void (*fn)(struct opts *o, const struct opt_def *d, const char *arg);
};

extern const struct opt_def opt_defs[];
extern const unsigned int nr_opt_defs;

/* opts.c: the values of --lru, --kswapd, --clock (@field), off then on */
extern const char *const opt_choices[3][2];

/* parse.c */
void opts_init(struct opts *o);
void parse_args(struct opts *o, int argc, char **argv);
void parse_size(const char *opt, const char *s, struct size_opt *o);
const char *opt_name(const struct opt_def *d);
void opt_range(char *b, size_t n, const struct opt_def *d);
unsigned long long parse_whole(const struct opt_def *d, const char *arg);
/* "tiersim: MESSAGE" and "see tiersim --help" on stderr, exit 2 */
void __attribute__((noreturn, format(printf, 1, 2)))
die_usage(const char *fmt, ...);
/* "tiersim: MESSAGE" on stderr, exit @code */
void __attribute__((noreturn, format(printf, 2, 3)))
die(int code, const char *fmt, ...);
/* close an output (stdout: flush it); a write error exits 1 */
void close_out(FILE *f, const char *path);

/* help.c: --help, and the defaults it shows, from the model's tables */
void usage(FILE *f);
void help_workloads(FILE *f);
void help_profiles(FILE *f);
void dflt_wl(FILE *f, const struct opt_def *d);
void dflt_machine(FILE *f, const struct opt_def *d);
void dflt_cost(FILE *f, const struct opt_def *d);
void dflt_kern(FILE *f, const struct opt_def *d);
void dflt_choice(FILE *f, const struct opt_def *d);
void dflt_tlb(FILE *f, const struct opt_def *d);
void dflt_policies(FILE *f, const struct opt_def *d);

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
extern const char *const default_policies;
void build_set(struct set *s, const struct opts *o, const struct item *it);
void free_set(struct set *s);

/* main.c: run every policy of every set, @jobs at a time */
void run_sets(struct set *sets, u32 nr_sets, int jobs, int progress);
FILE *open_out(const char *path);

/* progress.c: the progress line on stderr */
enum { PROGRESS_OFF, PROGRESS_TTY, PROGRESS_LOG };

struct progress {
	int mode;
	double t0, last;
	int shown;
};

double now_s(void);
/* PROGRESS_TTY on a terminal (unless -q), PROGRESS_LOG with --progress */
int progress_mode(const struct opts *o);
void progress_begin(struct progress *p, int mode);
/* A line when one is due; @frac of the work done gives the time left. */
void __attribute__((format(printf, 3, 4)))
progress_update(struct progress *p, double frac, const char *fmt, ...);
/* A line at once on a terminal (what is being done), none in a log. */
void __attribute__((format(printf, 2, 3)))
progress_note(struct progress *p, const char *fmt, ...);
/* Clear the line on a terminal. */
void progress_clear(struct progress *p);
/* Clear the line on a terminal; a last line in a log. */
void __attribute__((format(printf, 2, 3)))
progress_end(struct progress *p, const char *fmt, ...);
double progress_elapsed(const struct progress *p);
/* @v in at most 3 digits and a unit: "412000", "20.9 M", "2.19 G" */
const char *progress_count(char *b, size_t n, double v);

/* suite.c: returns the exit status */
int run_suite(const struct opts *o);

/*
 * warn.c: the warnings of set @s's results on @f, one line each ("error"
 * with @strict); returns how many.
 */
u32 warn_set(FILE *f, const struct set *s, int strict);

#endif /* _TIERSIM_CLI_H */
