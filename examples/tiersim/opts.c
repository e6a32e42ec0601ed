// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim's options: opt_defs[], one row per option (its name, value,
 * range, what 0 means, its text and default for --help), and the readers
 * of the options whose values are not plain numbers or strings. parse.c
 * reads the command line with the table, help.c writes --help from it.
 * The cost, kernel and workload-shape options each set one field of a
 * struct: one table each (cost_opts, kern_opts, wl_opts) names the option
 * and the field, and set.c applies them with one loop.
 *
 * A new option is a row of opt_defs[] (and, if its value is not a number
 * or a string, a reader).
 */
#define _GNU_SOURCE
#include "cli.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define COST(nm, field) { nm, offsetof(struct sim_costs, field), FIELD_U32 }

const struct field_opt cost_opts[C_NR] = {
	[C_CPU] = COST("cpu-ns", cpu_ns),
	[C_FAST_R] = COST("fast-read-ns", lat[2]),
	[C_FAST_W] = COST("fast-write-ns", lat[3]),
	[C_SLOW_R] = COST("slow-read-ns", lat[0]),
	[C_SLOW_W] = COST("slow-write-ns", lat[1]),
	[C_FAULT] = COST("fault-ns", fault_ns),
	[C_MIGR] = COST("migrate-ns", migrate_ns),
	[C_MIGR_BW] = COST("migrate-mbps", migrate_mbps),
	[C_SCAN] = COST("scan-pte-ns", scan_pte_ns),
	[C_ALLOC] = COST("alloc-ns", alloc_ns),
	[C_RECLAIM] = COST("reclaim-ns", reclaim_ns),
	[C_SCAN_UPD] = COST("scan-update-ns", scan_update_ns),
	[C_DEMOTE] = COST("demote-ns", demote_ns),
	[C_BW_SR] = COST("slow-read-mbps", bw_mbps[0]),
	[C_BW_SW] = COST("slow-write-mbps", bw_mbps[1]),
	[C_BW_FR] = COST("fast-read-mbps", bw_mbps[2]),
	[C_BW_FW] = COST("fast-write-mbps", bw_mbps[3]),
	[C_GRAN_S] = COST("slow-gran", gran[0]),
	[C_GRAN_F] = COST("fast-gran", gran[1]),
	[C_Q_S] = COST("slow-queue-ns", queue_ns[0]),
	[C_Q_F] = COST("fast-queue-ns", queue_ns[1]),
	[C_MLP] = COST("mlp", mlp),
	[C_TLB] = COST("tlb-ns", tlb_ns),
	[C_IPI] = COST("ipi-ns", ipi_ns),
};

#define KERN(nm, field, k) { nm, offsetof(struct sim_cfg, field), k }

const struct field_opt kern_opts[K_NR] = {
	[K_DELAY] = KERN("scan-delay-ms", scan_delay_ms, FIELD_U32),
	[K_PERIOD] = KERN("scan-period-ms", scan_period_ms, FIELD_U32),
	[K_PERIOD_MIN] = KERN("scan-period-min-ms", scan_period_min_ms,
			      FIELD_U32),
	[K_SIZE] = KERN("scan-size-mb", scan_size_mb, FIELD_U32),
	[K_PERIOD_MAX] = KERN("scan-period-max-ms", scan_period_max_ms,
			      FIELD_U32),
	[K_HOT] = KERN("hot-threshold-ms", hot_threshold_ms, FIELD_U32),
	[K_RATE] = KERN("rate-limit-mbps", rate_limit_mbps, FIELD_S64),
	[K_THRESH] = KERN("thresh-period-ms", thresh_period_ms, FIELD_U32),
};

#define WLP(nm, field, k) { nm, offsetof(struct wl_params, field), k }

const struct field_opt wl_opts[W_NR] = {
	[W_WRITE] = WLP("write-frac", write_frac, FIELD_DBL),
	[W_SIGMA] = WLP("sigma", sigma_frac, FIELD_DBL),
	[W_ZIPF] = WLP("zipf-s", zipf_s, FIELD_DBL),
	[W_HOT_FRAC] = WLP("hot-frac", hot_frac, FIELD_DBL),
	[W_HOT_PROB] = WLP("hot-prob", hot_prob, FIELD_DBL),
	[W_SHIFT] = WLP("shift-at", shift_at, FIELD_DBL),
	[W_BURST] = WLP("burst-pages", burst_pages, FIELD_U64),
	[W_SMALL] = WLP("small-frac", small_frac, FIELD_DBL),
	[W_THREADS] = WLP("threads", threads, FIELD_U32),
};

/* ---- the values of OPT_FN options ---------------------------------------- */

static void fn_workload(struct opts *o, const struct opt_def *d,
			const char *arg)
{
	char names[256] = "";
	u32 k;

	(void)d;
	if (wl_kind_parse(arg) < 0) {
		for (k = 0; k < WL_NR_KINDS; k++)
			snprintf(names + strlen(names), sizeof(names) -
				 strlen(names), "%s%s", k ? ", " : "",
				 wl_kind_name(k));
		die_usage("unknown workload \"%s\" (%s)", arg, names);
	}
	o->workload = arg;
}

static void fn_format(struct opts *o, const struct opt_def *d,
		      const char *arg)
{
	(void)d;
	o->format = trace_format_parse(arg);
	if (o->format < 0)
		die_usage("--format: unknown trace format \"%s\" (auto, lackey "
			  "or tiersim)", arg);
}

static void fn_policy(struct opts *o, const struct opt_def *d,
		      const char *arg)
{
	(void)d;
	if (strlen(o->policies) + strlen(arg) + 2 > sizeof(o->policies))
		die_usage("-p: too many policies (at most %zu characters in "
			  "all)", sizeof(o->policies) - 1);
	if (o->policies[0])
		strcat(o->policies, ",");
	strcat(o->policies, arg);
	o->have_policies = 1;
}

static void fn_size(struct opts *o, const struct opt_def *d, const char *arg)
{
	char name[64];

	snprintf(name, sizeof(name), "--%s", d->name);
	parse_size(name, arg, (struct size_opt *)((char *)o + d->off));
}

static void fn_wmark(struct opts *o, const struct opt_def *d,
		     const char *arg)
{
	unsigned long long w[4];
	char tail;

	(void)d;
	if (sscanf(arg, "%llu,%llu,%llu,%llu%c", &w[0], &w[1], &w[2], &w[3],
		   &tail) != 4 || strchr(arg, '-'))
		die_usage("--wmark: \"%s\" is not MIN,LOW,HIGH,PROMO (four "
			  "page counts)", arg);
	/* all 0 is the model's "unset": Linux's computed watermarks */
	if (!w[0] && !w[1] && !w[2] && !w[3])
		die_usage("--wmark: %s is too small (allowed: MIN <= LOW <= "
			  "HIGH <= PROMO, PROMO at least 1; all 0 would select "
			  "the computed watermarks: leave --wmark out)", arg);
	o->wmark[0] = w[0];
	o->wmark[1] = w[1];
	o->wmark[2] = w[2];
	o->wmark[3] = w[3];
}

static void fn_profile(struct opts *o, const struct opt_def *d,
		       const char *arg)
{
	(void)d;
	if (!sim_profile(arg))
		die_usage("--profile: unknown profile \"%s\" (pmem or cxl)",
			  arg);
	o->profile = arg;
}

/* The two-way options: their two values, off (0) then on (1). */
const char *const opt_choices[3][2] = {
	{ "clock", "two-list" },	/* --lru */
	{ "simple", "rounds" },		/* --kswapd */
	{ "threads", "serial" },	/* --clock */
};

static void fn_choice(struct opts *o, const struct opt_def *d,
		      const char *arg)
{
	const char *const *c = opt_choices[d->field];

	if (strcmp(arg, c[0]) && strcmp(arg, c[1]))
		die_usage("--%s: %s or %s, not \"%s\"", d->name, c[0], c[1],
			  arg);
	*(int *)((char *)o + d->off) = !strcmp(arg, c[1]);
}

static void fn_tlb(struct opts *o, const struct opt_def *d, const char *arg)
{
	o->tlb_entries = (long long)parse_whole(d, arg);
	if (o->tlb_entries & (o->tlb_entries - 1))
		die_usage("--tlb-entries: %s is not a power of 2 (allowed: 0, "
			  "or a power of 2 up to %llu)", arg, d->ihi);
}

static void fn_help(struct opts *o, const struct opt_def *d, const char *arg)
{
	(void)o;
	(void)d;
	(void)arg;
	usage(stdout);
	close_out(stdout, "-");	/* --help >/dev/full: exit 1 */
	exit(0);
}

static void fn_version(struct opts *o, const struct opt_def *d,
		       const char *arg)
{
	(void)o;
	(void)d;
	(void)arg;
	printf("tiersim %s (tierpol %s)\n", TP_VERSION_STRING,
	       tp_version_string());
	close_out(stdout, "-");
	exit(0);
}

/* ---- the table ------------------------------------------------------------ */

#define U32MAX		4294967295ULL
/* TP_RATE_MAX pages of 4 KiB a second, in MB/s */
#define RATE_MAX_MBPS	(TP_RATE_MAX >> 8)

#define OFF(field)	offsetof(struct opts, field)

#define O_FLAG(nm, k, sec_, field, h) \
	{ .name = nm, .key = k, .sec = sec_, .kind = OPT_FLAG, \
	  .off = OFF(field), .help = h }
#define O_STR(nm, k, sec_, a, field, h, d) \
	{ .name = nm, .key = k, .sec = sec_, .kind = OPT_STR, .arg = a, \
	  .off = OFF(field), .help = h, .dflt = d }
#define O_FN(nm, k, sec_, a, f, h) \
	{ .name = nm, .key = k, .sec = sec_, .kind = OPT_FN, .arg = a, \
	  .fn = f, .help = h }
/* The field tables' options: costs (u32), kernel settings. */
#define O_COST(i, h) \
	{ .sec = SEC_MACHINE, .kind = OPT_LL, .arg = "N", .tab = cost_opts, \
	  .field = i, .off = OFF(cost[i]), .ilo = 0, .ihi = U32MAX, \
	  .help = h, .dflt_fn = dflt_cost }
/* A cost option whose 0 is refused (@why), with its default printer. */
#define O_COST1(i, why_, df, h) \
	{ .sec = SEC_MACHINE, .kind = OPT_LL, .arg = "N", .tab = cost_opts, \
	  .field = i, .off = OFF(cost[i]), .ilo = 1, .ihi = U32MAX, \
	  .why = why_, .help = h, .dflt_fn = df }
#define O_KERN(i, lo_, hi_, h) \
	{ .sec = SEC_KERNEL, .kind = OPT_LL, .arg = "N", .tab = kern_opts, \
	  .field = i, .off = OFF(kern[i]), .ilo = lo_, .ihi = hi_, .help = h }
#define O_WLD(i, lo_, hi_, fl, h) O_WLK(i, lo_, hi_, fl, 0, h)
#define O_WLK(i, lo_, hi_, fl, k, h) \
	{ .sec = SEC_WORKLOAD, .kind = OPT_DBL, .arg = "F", .tab = wl_opts, \
	  .field = i, .off = OFF(wl[i]), .lo = lo_, .hi = hi_, .flags = fl, \
	  .kinds = k, .help = h, .dflt_fn = dflt_wl }
#define O_WLN(i, lo_, hi_, k, h) \
	{ .sec = SEC_WORKLOAD, .kind = OPT_DBL, .arg = "N", .tab = wl_opts, \
	  .field = i, .off = OFF(wl[i]), .ilo = lo_, .ihi = hi_, .kinds = k, \
	  .help = h, .dflt_fn = dflt_wl }
#define KIND(k)		(1U << (k))
/* The workloads with a hot set. */
#define HOT_KINDS	(KIND(WL_GUPS_HOTSET) | KIND(WL_PHASE_SHIFT) | \
			 KIND(WL_COLD_BURST) | KIND(WL_DISJOINT_VMA))

const struct opt_def opt_defs[] = {
	/* the source */
	{ .name = "workload", .key = 'w', .sec = SEC_SOURCE, .kind = OPT_FN,
	  .arg = "NAME", .fn = fn_workload, .help = "a synthetic workload",
	  .dflt = "pmbench", .more = help_workloads },
	O_STR("trace", 't', SEC_SOURCE, "FILE", trace,
	    "replay a trace (read twice: docs/tiersim-io.md, \"Traces\")",
	    "none: the workload"),
	{ .name = "format", .sec = SEC_SOURCE, .kind = OPT_FN,
	  .arg = "FMT", .fn = fn_format, .help = "auto, lackey or tiersim",
	  .dflt = "auto" },
	O_FLAG("lackey-instr", 0, SEC_SOURCE, instr,
	     "count lackey's instruction fetches as reads (by default only "
	     "its data accesses count)"),

	/* the policies */
	{ .name = "policy", .key = 'p', .sec = SEC_POLICY, .kind = OPT_FN,
	  .arg = "LIST", .fn = fn_policy,
	  .help = "comma-separated policies (repeatable)",
	  .dflt_fn = dflt_policies, .more = sim_policy_help },

	/* the workload's shape */
	{ .name = "pages", .sec = SEC_WORKLOAD, .kind = OPT_U64, .arg = "N",
	  .off = OFF(pages), .ilo = 16, .ihi = WL_PAGE_MASK,
	  .help = "footprint in 4 KiB pages", .dflt_fn = dflt_wl },
	{ .name = "accesses", .sec = SEC_WORKLOAD, .kind = OPT_U64,
	  .arg = "N", .off = OFF(accesses), .ilo = 1, .ihi = 1ULL << 48,
	  .help = "accesses after the initialisation pass",
	  .dflt_fn = dflt_wl },
	{ .name = "seed", .sec = SEC_WORKLOAD, .kind = OPT_U64, .arg = "N",
	  .off = OFF(seed), .ilo = 0, .ihi = ~0ULL, .help = "random seed",
	  .dflt = "1" },
	O_FLAG("no-init", 0, SEC_WORKLOAD, no_init,
	     "no initialisation pass: pages are allocated where the access "
	     "pattern first touches them"),
	O_WLD(W_WRITE, 0, 1, 0, "the share of writes"),
	O_WLK(W_SIGMA, 0, WL_SIGMA_MAX, OPT_ABOVE, KIND(WL_PMBENCH),
	    "pmbench: standard deviation / pages, at most 10 (already "
	    "within 0.2 % of uniform: -w uniform)"),
	O_WLK(W_ZIPF, 0, INFINITY, OPT_ABOVE, KIND(WL_ZIPF),
	    "zipf: the exponent (for 0, uniform addresses: -w uniform)"),
	O_WLK(W_HOT_FRAC, 0, 0.5, OPT_ABOVE, HOT_KINDS,
	    "gups-hotset, phase-shift, cold-burst, disjoint-vma: hot set / "
	    "pages (disjoint-vma: of the large VMA)"),
	O_WLK(W_HOT_PROB, 0, 1, 0, HOT_KINDS, "gups-hotset, phase-shift, "
	    "cold-burst, disjoint-vma: the share of accesses to the hot set"),
	O_WLK(W_SHIFT, 0, 1, 0, KIND(WL_PHASE_SHIFT) | KIND(WL_COLD_BURST) |
	    KIND(WL_DISJOINT_VMA), "phase-shift, cold-burst, disjoint-vma: "
	    "where the shift, the burst or the second group's start happens, "
	    "a fraction of the accesses"),
	O_WLN(W_BURST, 1, WL_PAGE_MASK, KIND(WL_COLD_BURST),
	    "cold-burst: cold pages in the burst, each read once on top of "
	    "--accesses (at most the pages outside the hot set)"),
	O_WLK(W_SMALL, 0, 1, OPT_ABOVE | OPT_BELOW, KIND(WL_DISJOINT_VMA),
	    "disjoint-vma: small VMA / pages"),
	O_WLN(W_THREADS, 1, WL_MAX_THREADS, 0, "threads"),

	/* the machine */
	{ .name = "profile", .sec = SEC_MACHINE, .kind = OPT_FN,
	  .arg = "NAME", .fn = fn_profile, .help = "cost profile",
	  .dflt_fn = dflt_machine, .more = help_profiles },
	{ .name = "fast", .sec = SEC_MACHINE, .kind = OPT_FN, .arg = "SIZE",
	  .off = OFF(fast), .fn = fn_size,
	  .help = "fast tier: pages, K/M/G bytes or N% of the footprint",
	  .dflt_fn = dflt_machine },
	{ .name = "slow", .sec = SEC_MACHINE, .kind = OPT_FN, .arg = "SIZE",
	  .off = OFF(slow), .fn = fn_size, .help = "slow tier, as --fast",
	  .dflt = "the whole footprint" },
	{ .name = "wmark", .sec = SEC_MACHINE, .kind = OPT_FN,
	  .arg = "MIN,LOW,HIGH,PROMO", .fn = fn_wmark,
	  .help = "fast-tier watermarks in pages",
	  .dflt = "computed as Linux does from min_free_kbytes" },
	O_FLAG("thp", 0, SEC_MACHINE, thp,
	     "2 MiB folios instead of 4 KiB pages"),
	{ .name = "init-fast", .sec = SEC_MACHINE, .kind = OPT_DBL,
	  .arg = "F", .off = OFF(init_fast), .lo = 0, .hi = 1,
	  .help = "first touch stops using the fast tier once it holds F "
		  "of the footprint (cold-burst: 85 % of the data starts on "
		  "the slow tier)",
	  .zero = "only the low watermark stops it",
	  .dflt_fn = dflt_machine },
	O_COST1(C_CPU, "0 would select the workload's default", dflt_machine,
		"CPU time per access"),
	{ .name = "cpu-ns-file", .sec = SEC_MACHINE, .kind = OPT_STR,
	  .arg = "FILE", .off = OFF(cpu_file),
	  .help = "CPU time per access over the stream: lines \"ACCESS NS\", "
		  "from access ACCESS on each access costs NS (a measured "
		  "machine's speed; make kernel-truth writes them)",
	  .dflt = "none: --cpu-ns throughout" },
	O_COST(C_FAST_R, "fast tier's idle read latency"),
	O_COST(C_FAST_W, "fast tier's idle write latency"),
	O_COST(C_SLOW_R, "slow tier's idle read latency"),
	O_COST(C_SLOW_W, "slow tier's idle write latency"),
	O_COST(C_FAULT, "a NUMA hint fault (trap, PTE fix-up, decision)"),
	O_COST(C_MIGR, "CPU time to migrate a 4 KiB page"),
	O_COST1(C_MIGR_BW, "migrations need a bandwidth", dflt_cost,
		"migration bandwidth cap, MB/s, shared by promotions and "
		"demotions"),
	O_COST(C_SCAN, "the NUMA scanner's cost per PTE it looks at"),
	O_COST(C_SCAN_UPD, "the scanner's cost per PTE it changes, on top "
	     "of --scan-pte-ns"),
	O_COST(C_ALLOC, "a first-touch page fault (allocation, zeroing)"),
	O_COST(C_RECLAIM, "kswapd's cost per page it examines"),
	O_COST1(C_DEMOTE, "0 would select --migrate-ns's value", dflt_cost,
		"kswapd's cost per page it demotes"),
	{ .name = "lru", .sec = SEC_MACHINE, .kind = OPT_FN,
	  .arg = "clock|two-list", .off = OFF(lru_two_list), .field = 0,
	  .fn = fn_choice, .help = "kswapd picks pages with a CLOCK, or from "
	  "6.1's active and inactive lists", .dflt_fn = dflt_choice },
	{ .name = "kswapd", .sec = SEC_MACHINE, .kind = OPT_FN,
	  .arg = "simple|rounds", .off = OFF(kswapd_rounds), .field = 1,
	  .fn = fn_choice, .help = "kswapd stops as soon as the demotion "
	  "target is met, or works in 6.1's balance_pgdat() rounds "
	  "(lru >> priority pages, the watermark checked between rounds)",
	  .dflt_fn = dflt_choice },
	O_COST1(C_MLP, "0 would select the workload's default", dflt_machine,
		"misses a thread keeps in flight: an access stalls it for its "
		"latency / N"),
	O_COST(C_BW_SR, "slow tier's read bandwidth, 10^6 bytes/s"),
	O_COST(C_BW_SW, "slow tier's write bandwidth"),
	O_COST(C_BW_FR, "fast tier's read bandwidth"),
	O_COST(C_BW_FW, "fast tier's write bandwidth"),
	O_COST1(C_GRAN_S, "an access moves at least a byte", dflt_cost,
		"bytes the slow tier's media moves per access"),
	O_COST1(C_GRAN_F, "an access moves at least a byte", dflt_cost,
		"bytes the fast tier's media moves per access"),
	O_COST(C_Q_S, "slow tier's loaded latency: idle + N x u/(1-u) at "
	     "utilisation u"),
	O_COST(C_Q_F, "fast tier's loaded latency, as --slow-queue-ns"),
	O_COST(C_TLB, "a TLB shootdown's cost to its initiator"),
	O_COST(C_IPI, "a TLB shootdown's cost to each other CPU running "
	     "the process"),
	{ .name = "tlb-entries", .sec = SEC_MACHINE, .kind = OPT_FN,
	  .arg = "N", .fn = fn_tlb, .ilo = 0, .ihi = 1ULL << 24,
	  .help = "each thread's TLB (direct-mapped, a power of 2): the "
	  "accessed bit is set on a TLB fill",
	  .zero = "on every access", .dflt_fn = dflt_tlb },
	{ .name = "scale", .sec = SEC_MACHINE, .kind = OPT_LL, .arg = "K",
	  .off = OFF(scale), .ilo = 1, .ihi = 4096,
	  .help = "a 1/K scale model of a machine K times larger: each page "
	  "and access stands for K, costs and settings are the large "
	  "machine's", .dflt = "1" },
	{ .name = "clock", .sec = SEC_MACHINE, .kind = OPT_FN,
	  .arg = "threads|serial", .off = OFF(serial_clock), .field = 2,
	  .fn = fn_choice, .help = "a clock per thread, the threads run in "
	  "time order; or one clock they share, access by access",
	  .dflt_fn = dflt_choice },

	/* the kernel's settings */
	{ .sec = SEC_KERNEL, .kind = OPT_LL, .arg = "N", .tab = kern_opts,
	  .field = K_DELAY, .off = OFF(kern[K_DELAY]), .ilo = 0,
	  .ihi = U32MAX, .help = "numa_balancing_scan_delay_ms: the first "
	  "scan pass", .dflt_fn = dflt_kern },
	{ .sec = SEC_KERNEL, .kind = OPT_LL, .arg = "N", .tab = kern_opts,
	  .field = K_PERIOD, .off = OFF(kern[K_PERIOD]), .ilo = 0,
	  .ihi = U32MAX, .help = "a fixed scan period",
	  .zero = "the kernel's adaptive period", .dflt_fn = dflt_kern },
	{ .sec = SEC_KERNEL, .kind = OPT_LL, .arg = "N", .tab = kern_opts,
	  .field = K_PERIOD_MIN, .off = OFF(kern[K_PERIOD_MIN]), .ilo = 0,
	  .ihi = U32MAX, .help = "numa_balancing_scan_period_min_ms",
	  .zero = "only the 2560 MB/s scan cap bounds the period",
	  .dflt_fn = dflt_kern },
	{ .sec = SEC_KERNEL, .kind = OPT_LL, .arg = "N", .tab = kern_opts,
	  .field = K_SIZE, .off = OFF(kern[K_SIZE]), .ilo = 1, .ihi = U32MAX,
	  .help = "numa_balancing_scan_size_mb",
	  .why = "a scan pass covers at least 1 MB", .dflt_fn = dflt_kern },
	{ .sec = SEC_KERNEL, .kind = OPT_LL, .arg = "N", .tab = kern_opts,
	  .field = K_PERIOD_MAX, .off = OFF(kern[K_PERIOD_MAX]), .ilo = 1,
	  .ihi = U32MAX, .help = "numa_balancing_scan_period_max_ms, also "
	  "the threshold controller's period",
	  .why = "0 would select the policy's default of 60000 ms",
	  .dflt = "the policy's: 60000" },
	{ .sec = SEC_KERNEL, .kind = OPT_LL, .arg = "N", .tab = kern_opts,
	  .field = K_HOT, .off = OFF(kern[K_HOT]), .ilo = 1, .ihi = U32MAX,
	  .help = "numa_balancing_hot_threshold_ms",
	  .why = "0 would select the policy's default of 1000 ms, not the "
	  "kernel's 0, with which no page is hot", .dflt = "the policy's: 1000" },
	{ .sec = SEC_KERNEL, .kind = OPT_LL, .arg = "N", .tab = kern_opts,
	  .field = K_RATE, .off = OFF(kern[K_RATE]), .ilo = 0,
	  .ihi = RATE_MAX_MBPS,
	  .help = "numa_balancing_promote_rate_limit_MBps",
	  .zero = "as the kernel's, no promotion passes the limiter; with "
	  "rl-wmark (rfc2020) the fast node's high watermark per second",
	  .dflt = "the policy's: rfc2020 0, mainline 65536" },
	{ .sec = SEC_KERNEL, .kind = OPT_LL, .arg = "N", .tab = kern_opts,
	  .field = K_THRESH, .off = OFF(kern[K_THRESH]), .ilo = 0,
	  .ihi = U32MAX, .help = "the hot-threshold controller's period "
	  "alone (the scanner keeps --scan-period-max-ms)",
	  .zero = "--scan-period-max-ms's value", .dflt = "0" },

	/* the output */
	O_STR("json", 0, SEC_OUTPUT, "FILE|-", json, "JSON (byte-identical for "
	    "the same seed and options)", "none"),
	O_STR("csv", 0, SEC_OUTPUT, "FILE|-", csv, "CSV with the same fields",
	    "none"),
	O_STR("svg", 0, SEC_OUTPUT, "FILE", svg, "plot of the fast-tier "
	    "accesses, promotion rate and hot threshold over simulated time",
	    "none"),
	{ .name = "sample-ms", .sec = SEC_OUTPUT, .kind = OPT_LL, .arg = "N",
	  .off = OFF(sample_ms), .ilo = 1, .ihi = U32MAX,
	  .help = "the time series' sampling interval; it doubles whenever "
	  "the series holds 1024 samples",
	  .why = "the series needs an interval", .dflt = "10" },
	{ .name = "pingpong-ms", .sec = SEC_OUTPUT, .kind = OPT_LL,
	  .arg = "N", .off = OFF(pingpong_ms), .ilo = 0, .ihi = U32MAX,
	  .help = "a page demoted within N ms of its promotion is ping-pong",
	  .zero = "nothing counts", .dflt = "10000" },
	O_FLAG("quiet", 'q', SEC_OUTPUT, quiet,
	       "no table, no progress line (warnings stay)"),
	O_FLAG("progress", 0, SEC_OUTPUT, progress,
	       "a progress line on stderr even when it is not a terminal (a "
	       "line every 5 s and one at the end), and with -q"),
	O_FLAG("strict", 0, SEC_OUTPUT, strict,
	       "warnings are errors: exit status 2 once the output is "
	       "written"),
	{ .name = "jobs", .key = 'j', .sec = SEC_OUTPUT, .kind = OPT_INT,
	  .arg = "N", .off = OFF(jobs), .ilo = 1, .ihi = 256,
	  .help = "policies simulated in parallel", .dflt = "online CPUs" },
	O_FLAG("allow-no-pressure", 0, SEC_MACHINE, allow_no_pressure,
	     "accept a fast tier that holds the whole footprint"),

	/* the suites */
	O_STR("suite", 0, SEC_SUITE, "NAME", suite, "default, short or "
	    "results: several workloads x the main policies; their tables "
	    "on stdout, their JSON, CSV and SVG under --outdir",
	    "none: one run"),
	O_STR("outdir", 0, SEC_SUITE, "DIR", outdir, "where suites write",
	    "build/run"),
	O_STR("results-md", 0, SEC_SUITE, "FILE", results_md, "with --suite "
	    "results: write the sources' comparison page", "none"),

	O_FN("help", 'h', SEC_INFO, NULL, fn_help, "this text"),
	O_FN("version", 'V', SEC_INFO, NULL, fn_version, "the version"),
};

const unsigned int nr_opt_defs = sizeof(opt_defs) / sizeof(opt_defs[0]);
