// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim's options: the table of long options, their parsing and --help.
 * The cost, kernel and workload-shape options each set one field of a
 * struct: one table each (cost_opts, kern_opts, wl_opts) names the option
 * and the field, and set.c applies them with one loop.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *prog = "tiersim";

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

/* The other options; the tables above add theirs (parse_args()). */
enum {
	O_FORMAT = 256, O_INSTR, O_PAGES, O_ACCESSES, O_SEED, O_FAST, O_SLOW,
	O_WMARK, O_THP, O_PROFILE, O_INIT_FAST, O_NO_INIT, O_SAMPLE,
	O_PINGPONG, O_NO_PRESSURE, O_JSON, O_CSV, O_SVG, O_SUITE, O_OUTDIR,
	O_RESULTS, O_VERSION, O_CPU_FILE, O_LRU, O_KSWAPD, O_CLOCK, O_TLB, O_SCALE,
	O_COST = 512, O_KERN = O_COST + C_NR, O_WL = O_KERN + K_NR,
	O_END = O_WL + W_NR,
};

static const struct option base_opts[] = {
	{ "workload", required_argument, NULL, 'w' },
	{ "trace", required_argument, NULL, 't' },
	{ "format", required_argument, NULL, O_FORMAT },
	{ "lackey-instr", no_argument, NULL, O_INSTR },
	{ "policy", required_argument, NULL, 'p' },
	{ "pages", required_argument, NULL, O_PAGES },
	{ "accesses", required_argument, NULL, O_ACCESSES },
	{ "seed", required_argument, NULL, O_SEED },
	{ "fast", required_argument, NULL, O_FAST },
	{ "slow", required_argument, NULL, O_SLOW },
	{ "wmark", required_argument, NULL, O_WMARK },
	{ "thp", no_argument, NULL, O_THP },
	{ "profile", required_argument, NULL, O_PROFILE },
	{ "cpu-ns-file", required_argument, NULL, O_CPU_FILE },
	{ "lru", required_argument, NULL, O_LRU },
	{ "kswapd", required_argument, NULL, O_KSWAPD },
	{ "clock", required_argument, NULL, O_CLOCK },
	{ "tlb-entries", required_argument, NULL, O_TLB },
	{ "scale", required_argument, NULL, O_SCALE },
	{ "init-fast", required_argument, NULL, O_INIT_FAST },
	{ "no-init", no_argument, NULL, O_NO_INIT },
	{ "sample-ms", required_argument, NULL, O_SAMPLE },
	{ "pingpong-ms", required_argument, NULL, O_PINGPONG },
	{ "allow-no-pressure", no_argument, NULL, O_NO_PRESSURE },
	{ "json", required_argument, NULL, O_JSON },
	{ "csv", required_argument, NULL, O_CSV },
	{ "svg", required_argument, NULL, O_SVG },
	{ "jobs", required_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "suite", required_argument, NULL, O_SUITE },
	{ "outdir", required_argument, NULL, O_OUTDIR },
	{ "results-md", required_argument, NULL, O_RESULTS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, O_VERSION },
};

#define NR_BASE_OPTS	(sizeof(base_opts) / sizeof(base_opts[0]))

static struct option longopts[NR_BASE_OPTS + C_NR + K_NR + W_NR + 1];

/* base_opts, then one option per entry of the field tables. */
static void build_longopts(void)
{
	const struct {
		const struct field_opt *t;
		int n, val;
	} tabs[] = {
		{ cost_opts, C_NR, O_COST },
		{ kern_opts, K_NR, O_KERN },
		{ wl_opts, W_NR, O_WL },
	};
	size_t n = 0, i;
	int k;

	for (i = 0; i < NR_BASE_OPTS; i++)
		longopts[n++] = base_opts[i];
	for (i = 0; i < sizeof(tabs) / sizeof(tabs[0]); i++)
		for (k = 0; k < tabs[i].n; k++) {
			longopts[n].name = tabs[i].t[k].name;
			longopts[n].has_arg = required_argument;
			longopts[n].flag = NULL;
			longopts[n].val = tabs[i].val + k;
			n++;
		}
	memset(&longopts[n], 0, sizeof(longopts[n]));
}

static void usage(FILE *f)
{
	unsigned int i;

	fprintf(f,
"Usage: %s [OPTIONS]\n"
"Trace-driven two-tier memory simulator: replays a workload or a trace under\n"
"tierpol's page-placement policies and compares them.\n"
"\n"
"Source (one of):\n"
"  -w, --workload NAME     synthetic workload (default pmbench):\n"
"                            pmbench      Gaussian addresses, 80:20 read/write (the 2020 RFC)\n"
"                            zipf         Zipf-distributed pages (--zipf-s)\n"
"                            gups-hotset  90 %% of updates to a hot set (HeMem GUPS)\n"
"                            phase-shift  a hot set that moves (--shift-at): response time\n"
"                            cold-burst   10 %% hot keys, fast tier with room, then a burst\n"
"                                         to cold keys (the bypass knob, 2026)\n"
"                            disjoint-vma two thread groups on two VMAs of very different\n"
"                                         sizes (the 2023 RFC)\n"
"                            uniform      uniform addresses\n"
"  -t, --trace FILE        replay a trace (streamed twice; see docs/tiersim.md)\n"
"      --format FMT        auto|lackey|tiersim (default auto)\n"
"      --lackey-instr      count lackey instruction fetches as reads (default: data only)\n"
"\n"
"Policies:\n"
"  -p, --policy LIST       comma-separated (repeatable); default:\n"
"                          none,promote-all,rfc2020,mainline,mainline-bypass-off,oracle\n",
		prog);
	sim_policy_help(f);
	fprintf(f,
"\n"
"Workload (defaults in brackets; per workload where noted):\n"
"      --pages N           footprint in 4 KiB pages [1048576; cold-burst 2097152;\n"
"                          disjoint-vma 278528]\n"
"      --accesses N        accesses after the initialisation pass [40000000]\n"
"      --seed N            random seed [1]\n"
"      --no-init           no initialisation pass (pages are allocated where\n"
"                          first touched by the access pattern)\n"
"      --write-frac F      writes [0.2; gups-hotset 1.0; cold-burst 0.1]\n"
"      --sigma F           pmbench standard deviation / pages [0.125]\n"
"      --zipf-s S          zipf exponent [0.99]\n"
"      --hot-frac F        hot set size / pages [0.1; disjoint-vma 0.25 of the large VMA]\n"
"      --hot-prob F        accesses to the hot set [0.9; cold-burst 1.0]\n"
"      --shift-at F        phase-shift / cold-burst: where the shift or burst\n"
"                          happens, fraction of the accesses [0.5; cold-burst 0.8]\n"
"      --burst-pages N     cold-burst: cold pages in the burst [65536 = 256 MiB]\n"
"      --small-frac F      disjoint-vma: small VMA / pages [1/17: 64 MiB + 1 GiB]\n"
"      --threads N         threads [1; disjoint-vma 8]\n"
"\n"
"Machine:\n"
"      --profile NAME      cost profile [pmem; cold-burst cxl]:\n");
	for (i = 0; i < sim_nr_profiles; i++) {
		const struct sim_costs *c = &sim_profiles[i];

		fprintf(f, "                            %-5s slow r/w %u/%u ns, fast r/w "
			"%u/%u ns, fault %u ns, migrate %u ns + %u MB/s cap\n",
			c->name, c->lat[0], c->lat[1], c->lat[2], c->lat[3],
			c->fault_ns, c->migrate_ns, c->migrate_mbps);
	}
	fprintf(f,
"      --fast SIZE         fast tier: pages, K/M/G bytes or N%% of the footprint\n"
"                          [25%%; cold-burst 50%%]\n"
"      --slow SIZE         slow tier [the whole footprint]\n"
"      --wmark MIN,LOW,HIGH,PROMO  fast-tier watermarks in pages [computed as\n"
"                          Linux does from min_free_kbytes]\n"
"      --thp               2 MiB folios instead of 4 KiB pages\n"
"      --init-fast F       first touch stops using the fast tier once it holds\n"
"                          F of the footprint [0 = only the low watermark;\n"
"                          cold-burst 0.15: 85 %% of the data starts on the slow tier]\n"
"      --cpu-ns N          CPU time per access [25; cold-burst 7000; disjoint-vma 100]\n"
"      --fast-read-ns N, --fast-write-ns N, --slow-read-ns N, --slow-write-ns N,\n"
"      --fault-ns N, --migrate-ns N, --migrate-mbps N, --scan-pte-ns N,\n"
"      --alloc-ns N        override the profile's costs\n"
"      --reclaim-ns N      kswapd's cost per page it examines [500]\n"
"      --demote-ns N       kswapd's cost per page it demotes [pmem 6000, cxl 3000]\n"
"      --lru clock|two-list  kswapd picks pages with a CLOCK, or from 6.1's\n"
"                          active and inactive lists [two-list]\n"
"      --kswapd simple|rounds  kswapd stops as soon as the demotion target is\n"
"                          met, or works in 6.1's balance_pgdat() rounds\n"
"                          (lru >> priority pages, watermark checked between\n"
"                          rounds) [rounds]\n"
"      --scan-update-ns N  the scanner's cost per PTE it changes, on top of\n"
"                          --scan-pte-ns [10]\n"
"      --mlp N             misses a thread keeps in flight: an access stalls it\n"
"                          for latency / N [the workload's: 4; cold-burst and\n"
"                          traces 1]\n"
"      --slow-read-mbps N, --slow-write-mbps N, --fast-read-mbps N,\n"
"      --fast-write-mbps N media bandwidth, 10^6 bytes/s; 0: unlimited [pmem\n"
"                          39000/13000/100000/60000, cxl 30000/30000/...]\n"
"      --slow-gran N, --fast-gran N  bytes the media moves per access [pmem\n"
"                          256/64, cxl 64/64]\n"
"      --slow-queue-ns N, --fast-queue-ns N  loaded latency: idle + N x u/(1-u)\n"
"                          at utilisation u [pmem 100/12, cxl 30/12]\n"
"      --tlb-ns N, --ipi-ns N  a TLB shootdown's cost to its initiator and to\n"
"                          each other CPU running the process [3000/1000]\n"
"      --tlb-entries N     each thread's TLB (direct-mapped, a power of 2): the\n"
"                          accessed bit is set on a TLB fill; 0: on every\n"
"                          access [2048]\n"
"      --scale K           a 1/K scale model of a machine K times larger: each\n"
"                          page and access stands for K, costs and settings\n"
"                          are the large machine's [1]\n"
"      --clock threads|serial  a clock per thread, the threads run in time\n"
"                          order; or one clock they share, access by access\n"
"                          [threads]\n"
"      --cpu-ns-file FILE  CPU time per access over the stream: lines\n"
"                          \"ACCESS NS\", from access ACCESS on each access\n"
"                          costs NS (a measured machine's speed; make\n"
"                          kernel-truth writes them) [--cpu-ns throughout]\n"
"\n"
"Kernel settings (sysctls):\n"
"      --scan-delay-ms N   numa_balancing_scan_delay_ms [1000]\n"
"      --scan-period-ms N  fixed scan period [0: the kernel's adaptive period]\n"
"      --scan-period-min-ms N  numa_balancing_scan_period_min_ms [1000]\n"
"      --scan-size-mb N    numa_balancing_scan_size_mb [256]\n"
"      --scan-period-max-ms N  numa_balancing_scan_period_max_ms, the threshold\n"
"                          controller's period [the policy's: 60000]\n"
"      --hot-threshold-ms N  numa_balancing_hot_threshold_ms [the policy's: 1000]\n"
"      --rate-limit-mbps N numa_balancing_promote_rate_limit_MBps [the policy's:\n"
"                          rfc2020 0 = high watermark/s, mainline 65536]\n"
"      --thresh-period-ms N  the hot-threshold controller's period alone (the\n"
"                          scanner keeps --scan-period-max-ms) [that value]\n"
"\n"
"Output:\n"
"      --json FILE|-       JSON (byte-identical for the same seed and options)\n"
"      --csv FILE|-        CSV with the same fields\n"
"      --svg FILE          plot of fast-tier ratio, promotion rate and hot\n"
"                          threshold over simulated time, one line per policy\n"
"      --sample-ms N       time-series sampling interval; it doubles whenever\n"
"                          the series holds 1024 samples [10]\n"
"      --pingpong-ms N     promoted then demoted within N ms is ping-pong [10000]\n"
"  -q, --quiet             no table, no progress line\n"
"  -j, --jobs N            policies simulated in parallel [online CPUs]\n"
"      --allow-no-pressure accept a fast tier that holds the whole footprint\n"
"\n"
"Suites:\n"
"      --suite NAME        default | short | results: several workloads x the\n"
"                          main policies; tables on stdout, JSON, CSV and SVG\n"
"                          per workload under --outdir\n"
"      --outdir DIR        where suites write [build/run]\n"
"      --results-md FILE   with --suite results: write the sources' comparison page\n"
"\n"
"  -h, --help              this text\n"
"      --version           version\n"
"\n"
"Exit status: 0 success, 1 simulation or I/O failure, 2 bad usage, bad input\n"
"or an impossible configuration.\n");
}

void die_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	usage(stderr);
	exit(EXIT_USAGE);
}

void die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(code);
}

static u64 parse_u64(const char *opt, const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (!*s || *s == '-')
		die_usage("%s: not a non-negative integer: \"%s\"", opt, s);
	v = strtoull(s, &end, 0);
	if (*end || errno)
		die_usage("%s: not a non-negative integer: \"%s\"", opt, s);
	return v;
}

/* A two-way option: 0 for @off, 1 for @on, exit 2 for anything else. */
static int parse_choice(const char *opt, const char *arg, const char *off,
			const char *on)
{
	if (!strcmp(arg, on))
		return 1;
	if (strcmp(arg, off))
		die_usage("%s: %s or %s", opt, off, on);
	return 0;
}

static double parse_dbl(const char *opt, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || v != v)
		die_usage("%s: not a number: \"%s\"", opt, s);
	return v;
}

void parse_size(const char *opt, const char *s, struct size_opt *o)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || errno || v < 0 || v != v)
		die_usage("%s: bad size \"%s\"", opt, s);
	o->set = 1;
	o->frac = 0;
	if (!strcmp(end, "%")) {
		o->frac = v / 100;
		if (o->frac <= 0)
			o->pages = 0;
		return;
	}
	if (!*end)
		o->pages = (u64)v;
	else if (!strcmp(end, "K") || !strcmp(end, "k"))
		o->pages = (u64)(v * 1024 / 4096);
	else if (!strcmp(end, "M"))
		o->pages = (u64)(v * 256);
	else if (!strcmp(end, "G"))
		o->pages = (u64)(v * 262144);
	else
		die_usage("%s: bad size \"%s\" (pages, K/M/G, or N%%)", opt, s);
}

void opts_init(struct opts *o)
{
	int i;

	memset(o, 0, sizeof(*o));
	o->seed = 1;
	for (i = 0; i < C_NR; i++)
		o->cost[i] = -1;
	for (i = 0; i < K_NR; i++)
		o->kern[i] = -1;
	for (i = 0; i < W_NR; i++)
		o->wl[i] = -1;
	o->init_fast = -1;
	o->sample_ms = o->pingpong_ms = -1;
	o->lru_two_list = o->kswapd_rounds = -1;
	o->serial_clock = -1;
	o->tlb_entries = -1;
	o->scale = -1;
	o->jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (o->jobs < 1)
		o->jobs = 1;
}

void parse_args(struct opts *o, int argc, char **argv)
{
	char name[64];
	int c, idx;

	build_longopts();
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":w:t:p:j:qh", longopts,
				&idx)) != -1) {
		if (c >= O_COST && c < O_COST + C_NR) {
			o->cost[c - O_COST] = (long long)parse_u64(
				longopts[idx].name, optarg);
			continue;
		}
		if (c >= O_KERN && c < O_KERN + K_NR) {
			o->kern[c - O_KERN] = (long long)parse_u64(
				longopts[idx].name, optarg);
			continue;
		}
		if (c >= O_WL && c < O_END) {
			snprintf(name, sizeof(name), "--%s", longopts[idx].name);
			o->wl[c - O_WL] = wl_opts[c - O_WL].kind == FIELD_DBL ?
					  parse_dbl(name, optarg) :
					  (double)parse_u64(name, optarg);
			continue;
		}
		switch (c) {
		case 'w':
			o->workload = optarg;
			break;
		case 't':
			o->trace = optarg;
			break;
		case O_FORMAT:
			o->format = trace_format_parse(optarg);
			if (o->format < 0)
				die_usage("unknown trace format \"%s\"", optarg);
			break;
		case O_INSTR:
			o->instr = 1;
			break;
		case 'p':
			if (strlen(o->policies) + strlen(optarg) + 2 >
			    sizeof(o->policies))
				die_usage("too many policies");
			if (o->policies[0])
				strcat(o->policies, ",");
			strcat(o->policies, optarg);
			o->have_policies = 1;
			break;
		case O_PAGES:
			o->pages = parse_u64("--pages", optarg);
			break;
		case O_ACCESSES:
			o->accesses = parse_u64("--accesses", optarg);
			if (!o->accesses)
				die_usage("--accesses must be positive");
			break;
		case O_SEED:
			o->seed = parse_u64("--seed", optarg);
			o->seed_set = 1;
			break;
		case O_FAST:
			parse_size("--fast", optarg, &o->fast);
			break;
		case O_SLOW:
			parse_size("--slow", optarg, &o->slow);
			break;
		case O_WMARK: {
			unsigned long long a, b, d, e;
			char tail;

			if (sscanf(optarg, "%llu,%llu,%llu,%llu%c", &a, &b, &d,
				   &e, &tail) != 4)
				die_usage("--wmark: expected MIN,LOW,HIGH,PROMO");
			o->wmark[0] = a;
			o->wmark[1] = b;
			o->wmark[2] = d;
			o->wmark[3] = e;
			break;
		}
		case O_THP:
			o->thp = 1;
			break;
		case O_PROFILE:
			if (!sim_profile(optarg))
				die_usage("unknown profile \"%s\"", optarg);
			o->profile = optarg;
			break;
		case O_INIT_FAST:
			o->init_fast = parse_dbl("--init-fast", optarg);
			if (o->init_fast < 0 || o->init_fast > 1)
				die_usage("--init-fast must be in [0, 1]");
			break;
		case O_NO_INIT:
			o->no_init = 1;
			break;
		case O_SAMPLE:
			o->sample_ms = (long long)parse_u64("--sample-ms",
							    optarg);
			break;
		case O_PINGPONG:
			o->pingpong_ms = (long long)parse_u64("--pingpong-ms",
							      optarg);
			break;
		case O_NO_PRESSURE:
			o->allow_no_pressure = 1;
			break;
		case O_JSON:
			o->json = optarg;
			break;
		case O_CPU_FILE:
			o->cpu_file = optarg;
			break;
		case O_LRU:
			o->lru_two_list = parse_choice("--lru", optarg,
						       "clock", "two-list");
			break;
		case O_KSWAPD:
			o->kswapd_rounds = parse_choice("--kswapd", optarg,
							"simple", "rounds");
			break;
		case O_CLOCK:
			o->serial_clock = parse_choice("--clock", optarg,
						       "threads", "serial");
			break;
		case O_SCALE:
			o->scale = (long long)parse_u64("--scale", optarg);
			if (o->scale < 1 || o->scale > 4096)
				die_usage("--scale must be in [1, 4096]");
			break;
		case O_TLB:
			o->tlb_entries = (long long)parse_u64("--tlb-entries",
							      optarg);
			if (o->tlb_entries & (o->tlb_entries - 1) ||
			    o->tlb_entries > (1 << 24))
				die_usage("--tlb-entries must be 0 or a power "
					  "of 2 up to 2^24");
			break;
		case O_CSV:
			o->csv = optarg;
			break;
		case O_SVG:
			o->svg = optarg;
			break;
		case 'j':
			o->jobs = (int)parse_u64("--jobs", optarg);
			if (o->jobs < 1 || o->jobs > 256)
				die_usage("--jobs must be in [1, 256]");
			break;
		case 'q':
			o->quiet = 1;
			break;
		case O_SUITE:
			o->suite = optarg;
			break;
		case O_OUTDIR:
			o->outdir = optarg;
			break;
		case O_RESULTS:
			o->results_md = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case O_VERSION:
			printf("tiersim %s (tierpol %s)\n", TP_VERSION_STRING,
			       tp_version_string());
			exit(0);
		case ':':
			die_usage("option %s needs a value", argv[optind - 1]);
		default:
			die_usage("unknown option \"%s\"", argv[optind - 1]);
		}
	}
	if (optind < argc)
		die_usage("unexpected argument \"%s\"", argv[optind]);
	if (o->workload && o->trace)
		die_usage("--workload and --trace exclude each other");
	if (o->workload && wl_kind_parse(o->workload) < 0)
		die_usage("unknown workload \"%s\"", o->workload);
}

