// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim - trace-driven two-tier memory simulator on tierpol's public API.
 *
 * Command line, the built-in suites, the job pool (one policy run per job,
 * --jobs at a time) and the progress line. See docs/tiersim.md.
 */
#define _GNU_SOURCE
#include "out.h"
#include "results.h"
#include "sim.h"
#include "trace.h"
#include "wl.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define EXIT_USAGE	2

static const char *prog = "tiersim";

/* ---- options -------------------------------------------------------------- */

/* A capacity: pages, bytes with K/M/G, or a percentage of the footprint. */
struct size_opt {
	int set;
	double frac;		/* > 0: fraction of the footprint */
	u64 pages;
};

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
	/* cost overrides, -1: unset */
	long long cost[13];
	/* kernel settings, -1: unset */
	long long kern[7];
	double init_fast;
	const char *cpu_file;
	int lru_two_list;
	int kswapd_rounds;
	/* workload shape, < 0: unset */
	double write_frac, sigma, zipf_s, hot_frac, hot_prob, shift_at,
	       small_frac;
	long long burst_pages, threads;
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

enum {
	C_CPU, C_FAST_R, C_FAST_W, C_SLOW_R, C_SLOW_W, C_FAULT, C_MIGR,
	C_MIGR_BW, C_SCAN, C_ALLOC, C_RECLAIM, C_SCAN_UPD, C_DEMOTE,
	C_NR,
};

enum {
	K_DELAY, K_PERIOD, K_PERIOD_MIN, K_SIZE, K_PERIOD_MAX, K_HOT, K_RATE,
};

enum {
	O_FORMAT = 256, O_INSTR, O_PAGES, O_ACCESSES, O_SEED, O_FAST, O_SLOW,
	O_WMARK, O_THP, O_PROFILE, O_COST, O_KERN = O_COST + C_NR,
	O_INIT_FAST = O_KERN + 7, O_WRITE, O_SIGMA, O_ZIPF, O_HOT_FRAC,
	O_HOT_PROB, O_SHIFT, O_BURST, O_SMALL, O_THREADS, O_NO_INIT,
	O_SAMPLE, O_PINGPONG, O_NO_PRESSURE, O_JSON, O_CSV, O_SVG, O_SUITE,
	O_OUTDIR, O_RESULTS, O_VERSION, O_CPU_FILE, O_LRU, O_KSWAPD,
};

static const struct option longopts[] = {
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
	{ "cpu-ns", required_argument, NULL, O_COST + C_CPU },
	{ "fast-read-ns", required_argument, NULL, O_COST + C_FAST_R },
	{ "fast-write-ns", required_argument, NULL, O_COST + C_FAST_W },
	{ "slow-read-ns", required_argument, NULL, O_COST + C_SLOW_R },
	{ "slow-write-ns", required_argument, NULL, O_COST + C_SLOW_W },
	{ "fault-ns", required_argument, NULL, O_COST + C_FAULT },
	{ "migrate-ns", required_argument, NULL, O_COST + C_MIGR },
	{ "migrate-mbps", required_argument, NULL, O_COST + C_MIGR_BW },
	{ "scan-pte-ns", required_argument, NULL, O_COST + C_SCAN },
	{ "alloc-ns", required_argument, NULL, O_COST + C_ALLOC },
	{ "cpu-ns-file", required_argument, NULL, O_CPU_FILE },
	{ "lru", required_argument, NULL, O_LRU },
	{ "kswapd", required_argument, NULL, O_KSWAPD },
	{ "reclaim-ns", required_argument, NULL, O_COST + C_RECLAIM },
	{ "scan-update-ns", required_argument, NULL, O_COST + C_SCAN_UPD },
	{ "demote-ns", required_argument, NULL, O_COST + C_DEMOTE },
	{ "scan-delay-ms", required_argument, NULL, O_KERN + K_DELAY },
	{ "scan-period-ms", required_argument, NULL, O_KERN + K_PERIOD },
	{ "scan-period-min-ms", required_argument, NULL,
	  O_KERN + K_PERIOD_MIN },
	{ "scan-size-mb", required_argument, NULL, O_KERN + K_SIZE },
	{ "scan-period-max-ms", required_argument, NULL,
	  O_KERN + K_PERIOD_MAX },
	{ "hot-threshold-ms", required_argument, NULL, O_KERN + K_HOT },
	{ "rate-limit-mbps", required_argument, NULL, O_KERN + K_RATE },
	{ "init-fast", required_argument, NULL, O_INIT_FAST },
	{ "write-frac", required_argument, NULL, O_WRITE },
	{ "sigma", required_argument, NULL, O_SIGMA },
	{ "zipf-s", required_argument, NULL, O_ZIPF },
	{ "hot-frac", required_argument, NULL, O_HOT_FRAC },
	{ "hot-prob", required_argument, NULL, O_HOT_PROB },
	{ "shift-at", required_argument, NULL, O_SHIFT },
	{ "burst-pages", required_argument, NULL, O_BURST },
	{ "small-frac", required_argument, NULL, O_SMALL },
	{ "threads", required_argument, NULL, O_THREADS },
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
	{ NULL, 0, NULL, 0 },
};

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
"                            pmbench      Gaussian addresses, 80:20 read/write (seed 000)\n"
"                            zipf         Zipf-distributed pages (--zipf-s)\n"
"                            gups-hotset  90 %% of updates to a hot set (HeMem GUPS)\n"
"                            phase-shift  a hot set that moves (--shift-at): response time\n"
"                            cold-burst   10 %% hot keys, fast tier with room, then a burst\n"
"                                         to cold keys (seed 002)\n"
"                            disjoint-vma two thread groups on two VMAs of very different\n"
"                                         sizes (seed 004)\n"
"                            uniform      uniform addresses\n"
"  -t, --trace FILE        replay a trace (streamed twice; see docs/tiersim.md)\n"
"      --format FMT        auto|lackey|tiersim (default auto)\n"
"      --lackey-instr      count lackey instruction fetches as reads (default: data only)\n"
"\n"
"Policies:\n"
"  -p, --policy LIST       comma-separated (repeatable); default:\n"
"                          none,promote-all,seed,mainline,mainline-bypass-off,oracle\n",
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
"      --reclaim-ns N      kswapd's cost per page it examines [0]\n"
"      --demote-ns N       kswapd's cost per page it demotes [--migrate-ns]\n"
"      --lru clock|two-list  kswapd picks pages with a CLOCK, or from 6.1's\n"
"                          active and inactive lists [clock]\n"
"      --kswapd simple|rounds  kswapd stops as soon as the demotion target is\n"
"                          met, or works in 6.1's balance_pgdat() rounds\n"
"                          (lru >> priority pages, watermark checked between\n"
"                          rounds) [simple]\n"
"      --scan-update-ns N  the scanner's cost per PTE it changes, on top of\n"
"                          --scan-pte-ns [0]\n"
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
"                          seed 0 = high watermark/s, mainline 65536]\n"
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
"      --results-md FILE   with --suite results: write the seed comparison page\n"
"\n"
"  -h, --help              this text\n"
"      --version           version\n"
"\n"
"Exit status: 0 success, 1 simulation or I/O failure, 2 bad usage, bad input\n"
"or an impossible configuration.\n");
}

static void __attribute__((noreturn, format(printf, 1, 2)))
die_usage(const char *fmt, ...)
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

static void __attribute__((noreturn, format(printf, 2, 3)))
die(int code, const char *fmt, ...)
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

static void parse_size(const char *opt, const char *s, struct size_opt *o)
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

static void opts_init(struct opts *o)
{
	int i;

	memset(o, 0, sizeof(*o));
	o->seed = 1;
	for (i = 0; i < C_NR; i++)
		o->cost[i] = -1;
	for (i = 0; i < 7; i++)
		o->kern[i] = -1;
	o->init_fast = -1;
	o->write_frac = o->sigma = o->zipf_s = o->hot_frac = -1;
	o->hot_prob = o->shift_at = o->small_frac = -1;
	o->burst_pages = o->threads = -1;
	o->sample_ms = o->pingpong_ms = -1;
	o->jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (o->jobs < 1)
		o->jobs = 1;
}

static void parse_args(struct opts *o, int argc, char **argv)
{
	int c, idx;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":w:t:p:j:qh", longopts,
				&idx)) != -1) {
		if (c >= O_COST && c < O_COST + C_NR) {
			o->cost[c - O_COST] = (long long)parse_u64(
				longopts[idx].name, optarg);
			continue;
		}
		if (c >= O_KERN && c < O_KERN + 7) {
			o->kern[c - O_KERN] = (long long)parse_u64(
				longopts[idx].name, optarg);
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
		case O_WRITE:
			o->write_frac = parse_dbl("--write-frac", optarg);
			break;
		case O_SIGMA:
			o->sigma = parse_dbl("--sigma", optarg);
			break;
		case O_ZIPF:
			o->zipf_s = parse_dbl("--zipf-s", optarg);
			break;
		case O_HOT_FRAC:
			o->hot_frac = parse_dbl("--hot-frac", optarg);
			break;
		case O_HOT_PROB:
			o->hot_prob = parse_dbl("--hot-prob", optarg);
			break;
		case O_SHIFT:
			o->shift_at = parse_dbl("--shift-at", optarg);
			break;
		case O_BURST:
			o->burst_pages = (long long)parse_u64("--burst-pages",
							      optarg);
			break;
		case O_SMALL:
			o->small_frac = parse_dbl("--small-frac", optarg);
			break;
		case O_THREADS:
			o->threads = (long long)parse_u64("--threads", optarg);
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

/* ---- sets: one source under several policies ------------------------------ */

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

static const char *const default_policies =
	"none,promote-all,seed,mainline,mainline-bypass-off,oracle";

static void set_fail(struct set *s, const char *what, const char *err)
{
	die(EXIT_USAGE, "%s: %s", what ? what : s->label, err);
}

/*
 * --cpu-ns-file: "ACCESS NS" lines, the first column ascending and scaled
 * by @key_scale ('#' starts a comment). The arrays live until exit.
 */
static void load_pairs(const char *path, u32 *nr, const u64 **key,
		       const u32 **val, u64 key_scale, const char *what)
{
	FILE *f = fopen(path, "r");
	char line[256];
	u64 *at = NULL;
	u32 *ns = NULL, n = 0, cap = 0, ln = 0;

	if (!f)
		die(EXIT_USAGE, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, v;
		char tail;
		int k;

		ln++;
		line[strcspn(line, "#\n")] = 0;
		k = sscanf(line, "%llu %llu %c", &a, &v, &tail);
		if (k <= 0)
			continue;
		if (k != 2 || v > UINT32_MAX)
			die(EXIT_USAGE, "%s:%u: expected \"%s NS\"", path, ln,
			    what);
		a *= key_scale;
		if (n && a <= at[n - 1])
			die(EXIT_USAGE, "%s:%u: %s must ascend", path, ln, what);
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			at = realloc(at, cap * sizeof(*at));
			ns = realloc(ns, cap * sizeof(*ns));
			if (!at || !ns)
				die(1, "out of memory");
		}
		at[n] = a;
		ns[n] = (u32)v;
		n++;
	}
	fclose(f);
	if (!n)
		die(EXIT_USAGE, "%s: no \"%s NS\" line", path, what);
	*nr = n;
	*key = at;
	*val = ns;
}

/* Build one set from the options and an optional suite item. */
static void build_set(struct set *s, const struct opts *o,
		      const struct item *it)
{
	struct sim_cfg *c = &s->cfg;
	const char *wname = it ? it->workload : o->workload;
	const char *pols;
	char err[SIM_ERRLEN] = "", buf[4096], *tok, *save;
	const struct sim_costs *prof;
	struct size_opt fast = o->fast, slow = o->slow;
	int kind;

	memset(s, 0, sizeof(*s));
	sim_cfg_defaults(c);
	if (!o->trace || it) {
		kind = wl_kind_parse(wname ? wname : "pmbench");
		wl_defaults(&s->wp, (u32)kind);
		s->wp.seed = o->seed;
		if (o->pages)
			s->wp.pages = o->pages;
		if (o->accesses)
			s->wp.accesses = o->accesses;
		if (it && it->pages)
			s->wp.pages = it->pages;
		if (it && it->accesses)
			s->wp.accesses = it->accesses;
		if (it && it->hot_frac > 0)
			s->wp.hot_frac = it->hot_frac;
		if (it && it->hot_prob > 0)
			s->wp.hot_prob = it->hot_prob;
		if (o->no_init)
			s->wp.init = 0;
		if (o->write_frac >= 0)
			s->wp.write_frac = o->write_frac;
		if (o->sigma >= 0)
			s->wp.sigma_frac = o->sigma;
		if (o->zipf_s >= 0)
			s->wp.zipf_s = o->zipf_s;
		if (o->hot_frac >= 0)
			s->wp.hot_frac = o->hot_frac;
		if (o->hot_prob >= 0)
			s->wp.hot_prob = o->hot_prob;
		if (o->shift_at >= 0)
			s->wp.shift_at = o->shift_at;
		if (o->burst_pages >= 0)
			s->wp.burst_pages = (u64)o->burst_pages;
		if (o->small_frac >= 0)
			s->wp.small_frac = o->small_frac;
		if (o->threads >= 0)
			s->wp.threads = (u32)o->threads;
		if (wl_init(&s->wl, &s->wp, err, sizeof(err)))
			die(EXIT_USAGE, "workload %s: %s", wl_kind_name(kind),
			    err);
		s->has_wl = 1;
		if (sim_src_workload(&s->src, &s->wl))
			die(1, "out of memory");
		snprintf(s->label, sizeof(s->label), "%s",
			 it && it->label ? it->label : wl_kind_name(kind));
		if (kind == WL_COLD_BURST) {
			if (!fast.set) {
				fast.set = 1;
				fast.frac = 0.5;
			}
			c->costs = *sim_profile("cxl");
			c->init_fast = 0.15;
		}
	} else {
		if (trace_open(&s->tr, o->trace, o->format, o->instr, err,
			       sizeof(err)))
			die(EXIT_USAGE, "%s", err);
		s->has_tr = 1;
		if (sim_src_trace(&s->src, &s->tr))
			die(1, "out of memory");
		snprintf(s->label, sizeof(s->label), "%s", o->trace);
	}
	prof = sim_profile(it && it->profile ? it->profile :
			   o->profile ? o->profile : c->costs.name);
	c->costs = *prof;
	if (it && it->cpu_ns)
		c->costs.cpu_ns = it->cpu_ns;
	if (o->cost[C_CPU] >= 0)
		c->costs.cpu_ns = (u32)o->cost[C_CPU];
	if (o->cost[C_SLOW_R] >= 0)
		c->costs.lat[0] = (u32)o->cost[C_SLOW_R];
	if (o->cost[C_SLOW_W] >= 0)
		c->costs.lat[1] = (u32)o->cost[C_SLOW_W];
	if (o->cost[C_FAST_R] >= 0)
		c->costs.lat[2] = (u32)o->cost[C_FAST_R];
	if (o->cost[C_FAST_W] >= 0)
		c->costs.lat[3] = (u32)o->cost[C_FAST_W];
	if (o->cost[C_FAULT] >= 0)
		c->costs.fault_ns = (u32)o->cost[C_FAULT];
	if (o->cost[C_MIGR] >= 0)
		c->costs.migrate_ns = (u32)o->cost[C_MIGR];
	if (o->cost[C_MIGR_BW] >= 0)
		c->costs.migrate_mbps = (u32)o->cost[C_MIGR_BW];
	if (o->cost[C_SCAN] >= 0)
		c->costs.scan_pte_ns = (u32)o->cost[C_SCAN];
	if (o->cost[C_ALLOC] >= 0)
		c->costs.alloc_ns = (u32)o->cost[C_ALLOC];
	if (o->cost[C_RECLAIM] >= 0)
		c->costs.reclaim_ns = (u32)o->cost[C_RECLAIM];
	if (o->cost[C_SCAN_UPD] >= 0)
		c->costs.scan_update_ns = (u32)o->cost[C_SCAN_UPD];
	if (o->cost[C_DEMOTE] >= 0)
		c->costs.demote_ns = (u32)o->cost[C_DEMOTE];

	if (it && it->fast)
		parse_size("suite --fast", it->fast, &fast);
	if (!fast.set) {
		fast.set = 1;
		fast.frac = 0.25;
	}
	c->fast_pages = fast.frac > 0 ?
			(u64)(fast.frac * (double)s->src.pages) : fast.pages;
	c->slow_pages = slow.set ? (slow.frac > 0 ?
				    (u64)(slow.frac * (double)s->src.pages) :
				    slow.pages) : s->src.pages;
	memcpy(c->wmark, o->wmark, sizeof(c->wmark));
	c->thp = o->thp;
	if (o->kern[K_DELAY] >= 0)
		c->scan_delay_ms = (u32)o->kern[K_DELAY];
	if (o->kern[K_PERIOD] >= 0)
		c->scan_period_ms = (u32)o->kern[K_PERIOD];
	if (o->kern[K_PERIOD_MIN] >= 0)
		c->scan_period_min_ms = (u32)o->kern[K_PERIOD_MIN];
	if (it && it->scan_size_mb)
		c->scan_size_mb = it->scan_size_mb;
	if (it && it->scan_period_min_ms)
		c->scan_period_min_ms = it->scan_period_min_ms;
	if (o->kern[K_SIZE] >= 0)
		c->scan_size_mb = (u32)o->kern[K_SIZE];
	if (o->kern[K_PERIOD_MAX] >= 0)
		c->scan_period_max_ms = (u32)o->kern[K_PERIOD_MAX];
	if (it && it->scan_period_max_ms > 0)
		c->scan_period_max_ms = (u32)it->scan_period_max_ms;
	if (o->kern[K_HOT] >= 0)
		c->hot_threshold_ms = (u32)o->kern[K_HOT];
	if (o->kern[K_RATE] >= 0)
		c->rate_limit_mbps = o->kern[K_RATE];
	if (it && it->rate_limit_mbps >= 0)
		c->rate_limit_mbps = it->rate_limit_mbps;
	if (o->init_fast >= 0)
		c->init_fast = o->init_fast;
	if (o->sample_ms >= 0)
		c->sample_ms = (u32)o->sample_ms;
	if (o->pingpong_ms >= 0)
		c->pingpong_ms = (u32)o->pingpong_ms;
	/* A fixed period: task_scan_min() of the footprint, no adaptation. */
	if (it && it->scan_fixed && !c->scan_period_ms)
		c->scan_period_ms = sim_scan_period_ms(c, s->src.pages);
	c->allow_no_pressure = o->allow_no_pressure;
	if (o->cpu_file)
		load_pairs(o->cpu_file, &c->nr_cpu, &c->cpu_at, &c->cpu_ns, 1,
			   "ACCESS");

	c->lru_two_list = o->lru_two_list;
	c->kswapd_rounds = o->kswapd_rounds;
	if (sim_validate(c, &s->src, err, sizeof(err)))
		set_fail(s, NULL, err);

	pols = it ? it->policies : o->have_policies ? o->policies :
	       default_policies;
	snprintf(buf, sizeof(buf), "%s", pols);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		struct sim_policy *p = &s->pol[s->nr_pol];

		if (s->nr_pol == SIM_MAX_POLICIES)
			die_usage("at most %d policies", SIM_MAX_POLICIES);
		if (sim_policy_parse(tok, p, err, sizeof(err)))
			die_usage("%s", err);
		if (sim_policy_finalize(p, c, err, sizeof(err)))
			die(EXIT_USAGE, "%s", err);
		if (p->oracle && sim_src_count(&s->src, err, sizeof(err)))
			die(1, "%s", err);
		s->nr_pol++;
	}
	if (!s->nr_pol)
		die_usage("no policy named");
	s->rs.title = s->label;
	s->rs.cfg = c;
	s->rs.src = &s->src;
	s->rs.wp = s->has_wl ? &s->wp : NULL;
	s->rs.seed = o->seed;
	s->rs.nr = s->nr_pol;
	s->rs.res = calloc(s->nr_pol, sizeof(*s->rs.res));
	if (!s->rs.res)
		die(1, "out of memory");
}

static void free_set(struct set *s)
{
	u32 i;

	for (i = 0; i < s->rs.nr; i++)
		sim_result_free(&s->rs.res[i]);
	free(s->rs.res);
	sim_src_free(&s->src);
	if (s->has_wl)
		wl_free(&s->wl);
	if (s->has_tr)
		trace_close(&s->tr);
}

/* ---- the job pool ------------------------------------------------------- */

struct job {
	struct set *set;
	u32 pol;
	_Atomic u64 progress;
};

struct pool {
	struct job *jobs;
	u32 nr;
	_Atomic u32 next;
	_Atomic u32 done;
};

static void *worker(void *arg)
{
	struct pool *pl = arg;
	u32 i;

	while ((i = atomic_fetch_add(&pl->next, 1)) < pl->nr) {
		struct job *j = &pl->jobs[i];
		struct set *s = j->set;

		sim_run(&s->cfg, &s->pol[j->pol], &s->src,
			&s->rs.res[j->pol], &j->progress);
		atomic_fetch_add(&pl->done, 1);
	}
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void run_sets(struct set *sets, u32 nr_sets, int jobs, int quiet)
{
	struct pool pl;
	pthread_t th[256];
	u32 i, k, n = 0;
	u64 total = 0;
	int nth, show = !quiet && isatty(STDERR_FILENO), shown = 0;
	double t0 = now_s();

	for (i = 0; i < nr_sets; i++)
		n += sets[i].nr_pol;
	memset(&pl, 0, sizeof(pl));
	pl.jobs = calloc(n, sizeof(*pl.jobs));
	if (!pl.jobs)
		die(1, "out of memory");
	for (i = 0; i < nr_sets; i++)
		for (k = 0; k < sets[i].nr_pol; k++) {
			pl.jobs[pl.nr].set = &sets[i];
			pl.jobs[pl.nr].pol = k;
			pl.nr++;
			total += sets[i].src.total;
		}
	nth = jobs < (int)n ? jobs : (int)n;
	for (i = 0; i < (u32)nth; i++)
		if (pthread_create(&th[i], NULL, worker, &pl))
			die(1, "pthread_create failed");
	while (atomic_load(&pl.done) < pl.nr) {
		usleep(200000);
		if (show && now_s() - t0 > 2) {
			u64 acc = 0;

			for (i = 0; i < pl.nr; i++)
				acc += atomic_load_explicit(&pl.jobs[i].progress,
							    memory_order_relaxed);
			fprintf(stderr, "\r\033[K%s: %u/%u runs, %.0f %% of the "
				"accesses, %.1f M accesses/s, %.0f s", prog,
				atomic_load(&pl.done), pl.nr,
				100.0 * (double)acc / (double)total,
				(double)acc / 1e6 / (now_s() - t0), now_s() - t0);
			shown = 1;
		}
	}
	for (i = 0; i < (u32)nth; i++)
		pthread_join(th[i], NULL);
	if (shown)
		fprintf(stderr, "\r\033[K");
	free(pl.jobs);
	for (i = 0; i < nr_sets; i++)
		for (k = 0; k < sets[i].nr_pol; k++)
			if (sets[i].rs.res[k].failed)
				die(1, "%s", sets[i].rs.res[k].err);
}

static FILE *open_out(const char *path)
{
	FILE *f;

	if (!strcmp(path, "-"))
		return stdout;
	f = fopen(path, "w");
	if (!f)
		die(1, "%s: %s", path, strerror(errno));
	return f;
}

static void close_out(FILE *f, const char *path)
{
	if (f == stdout) {
		fflush(f);
		return;
	}
	if (fclose(f))
		die(1, "%s: write error", path);
}

/* ---- suites -------------------------------------------------------------- */

/*
 * The main policies. The mainline preset's 65536 MB/s never limits, so the
 * limiter variants are compared at 64 MB/s, where they do.
 */
#define MAIN_POLICIES \
	"none,promote-all,seed,mainline,mainline-bypass-off,mainline:rate=64," \
	"token-bucket:rate=64,oracle"

static const struct item suite_default[] = {
	{ .label = "pmbench", .workload = "pmbench", .pages = 1 << 20,
	  .accesses = 20000000, .policies = MAIN_POLICIES,
	  .rate_limit_mbps = -1 },
	{ .label = "zipf", .workload = "zipf", .pages = 1 << 20,
	  .accesses = 15000000, .policies = MAIN_POLICIES,
	  .rate_limit_mbps = -1 },
	{ .label = "gups-hotset", .workload = "gups-hotset", .pages = 1 << 20,
	  .accesses = 15000000, .policies = MAIN_POLICIES,
	  .rate_limit_mbps = -1 },
	{ .label = "phase-shift", .workload = "phase-shift", .pages = 1 << 20,
	  .accesses = 20000000, .policies = MAIN_POLICIES,
	  .rate_limit_mbps = -1 },
	{ .label = "cold-burst", .workload = "cold-burst", .pages = 2 << 20,
	  .accesses = 3000000, .policies = MAIN_POLICIES,
	  .rate_limit_mbps = -1 },
	/*
	 * A fixed scan period (the kernel's minimum for this footprint): with
	 * the adaptive one the period grows to 60 s in tiering mode and a run
	 * of this length sees too few scan sequences for the VMA filters to
	 * differ (docs/tiersim.md, "Scan period").
	 */
	{ .label = "disjoint-vma", .workload = "disjoint-vma",
	  .accesses = 20000000,
	  .policies = "none,mainline,mainline:vma=base65,mainline:vma=seed,"
		      "mainline:vma=mainline,oracle",
	  .rate_limit_mbps = -1, .scan_fixed = 1 },
};

/* CI: every workload kind of the claims, small; well under a minute. */
static const struct item suite_short[] = {
	{ .label = "pmbench", .workload = "pmbench", .pages = 1 << 18,
	  .accesses = 4000000,
	  .policies = "none,seed,mainline,token-bucket:rate=16,oracle",
	  .rate_limit_mbps = -1 },
	{ .label = "phase-shift", .workload = "phase-shift", .pages = 1 << 18,
	  .accesses = 4000000, .policies = "none,seed,mainline,oracle",
	  .rate_limit_mbps = -1 },
	{ .label = "cold-burst", .workload = "cold-burst", .pages = 2 << 20,
	  .accesses = 400000,
	  .policies = "none,mainline,mainline-bypass-off,oracle",
	  .rate_limit_mbps = -1 },
	{ .label = "disjoint-vma", .workload = "disjoint-vma",
	  .accesses = 24000000,
	  .policies = "mainline:vma=base65,mainline:vma=seed",
	  .rate_limit_mbps = -1, .scan_fixed = 1 },
};

struct suite {
	const char *name;
	const struct item *items;
	u32 nr;
};

static const struct suite suites[] = {
	{ "default", suite_default,
	  sizeof(suite_default) / sizeof(suite_default[0]) },
	{ "short", suite_short, sizeof(suite_short) / sizeof(suite_short[0]) },
	{ "results", results_items, 0 },
};

static int mkdir_p(const char *path)
{
	char tmp[1024], *p;

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return -1;
	return 0;
}

static void write_set_files(const struct set *s, const char *dir)
{
	char path[1200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.json", dir, s->label);
	f = open_out(path);
	out_json(f, &s->rs, 1);
	close_out(f, path);
	snprintf(path, sizeof(path), "%s/%s.csv", dir, s->label);
	f = open_out(path);
	out_csv(f, &s->rs, 1);
	close_out(f, path);
	snprintf(path, sizeof(path), "%s/%s.svg", dir, s->label);
	if (out_svg(path, &s->rs))
		die(1, "%s: %s", path, strerror(errno));
}

static int run_suite(const struct opts *o)
{
	const struct suite *su = NULL;
	const struct item *items;
	const char *dir = o->outdir ? o->outdir : "build/run";
	struct set *sets;
	u32 i, nr;
	double t0 = now_s();

	for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		if (!strcmp(o->suite, suites[i].name))
			su = &suites[i];
	if (!su)
		die_usage("unknown suite \"%s\" (default, short, results)",
			  o->suite);
	items = su->items;
	nr = su->nr ? su->nr : results_nr_items;
	if (o->workload || o->trace || o->have_policies)
		die_usage("--suite runs its own workloads and policies");
	if (mkdir_p(dir))
		die(1, "%s: %s", dir, strerror(errno));
	sets = calloc(nr, sizeof(*sets));
	if (!sets)
		die(1, "out of memory");
	for (i = 0; i < nr; i++)
		build_set(&sets[i], o, &items[i]);
	run_sets(sets, nr, o->jobs, o->quiet);
	for (i = 0; i < nr; i++) {
		if (!o->quiet)
			out_table(stdout, &sets[i].rs);
		write_set_files(&sets[i], dir);
	}
	if (o->json || o->csv) {
		struct run_set *rs = calloc(nr, sizeof(*rs));
		FILE *f;

		if (!rs)
			die(1, "out of memory");
		for (i = 0; i < nr; i++)
			rs[i] = sets[i].rs;
		if (o->json) {
			f = open_out(o->json);
			out_json(f, rs, nr);
			close_out(f, o->json);
		}
		if (o->csv) {
			f = open_out(o->csv);
			out_csv(f, rs, nr);
			close_out(f, o->csv);
		}
		free(rs);
	}
	if (o->results_md) {
		struct run_set *rs = calloc(nr, sizeof(*rs));

		if (!rs)
			die(1, "out of memory");
		for (i = 0; i < nr; i++)
			rs[i] = sets[i].rs;
		if (results_write(o->results_md, rs, nr))
			die(1, "%s: %s", o->results_md, strerror(errno));
		free(rs);
	}
	if (!o->quiet)
		printf("\n%s: suite \"%s\": %u workloads, tables above; JSON, CSV "
		       "and SVG plots in %s/ (%.1f s)\n", prog, su->name, nr,
		       dir, now_s() - t0);
	for (i = 0; i < nr; i++)
		free_set(&sets[i]);
	free(sets);
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o;
	struct set *s;
	FILE *f;

	opts_init(&o);
	parse_args(&o, argc, argv);
	if (o.results_md && (!o.suite || strcmp(o.suite, "results")))
		die_usage("--results-md needs --suite results");
	if (o.suite)
		return run_suite(&o);

	s = calloc(1, sizeof(*s));
	if (!s)
		die(1, "out of memory");
	build_set(s, &o, NULL);
	run_sets(s, 1, o.jobs, o.quiet);
	if (!o.quiet && !(o.json && !strcmp(o.json, "-")) &&
	    !(o.csv && !strcmp(o.csv, "-")))
		out_table(stdout, &s->rs);
	if (o.json) {
		f = open_out(o.json);
		out_json(f, &s->rs, 1);
		close_out(f, o.json);
	}
	if (o.csv) {
		f = open_out(o.csv);
		out_csv(f, &s->rs, 1);
		close_out(f, o.csv);
	}
	if (o.svg && out_svg(o.svg, &s->rs))
		die(1, "%s: %s", o.svg, strerror(errno));
	free_set(s);
	free(s);
	return 0;
}
