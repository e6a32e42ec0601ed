// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * truth-guest's command line (see guest_opts.h): the options, --help and
 * the parse.
 */
#include "guest_opts.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void __attribute__((noreturn)) usage(int code)
{
	fprintf(code ? stderr : stdout,
"Usage: truth-guest [OPTIONS]\n"
"Runs a tiersim workload on real memory and prints the kernel's counters.\n"
"  -w, --workload NAME   pmbench, phase-shift, cold-burst, ... [pmbench]\n"
"      --pages N         footprint, 4 KiB pages [the workload's]\n"
"      --accesses N      accesses after the initialisation pass\n"
"      --seed N, --write-frac F, --sigma F, --zipf-s S, --hot-frac F,\n"
"      --hot-prob F, --shift-at F, --burst-pages N, --threads N, --no-init\n"
"                        as tiersim's options of the same name\n"
"      --sample-ms N     counter sampling interval [2000]\n"
"      --prog-ms N       between samples, the accesses, hint faults,\n"
"                        promotions, candidates and kswapd's work and CPU\n"
"                        time every N ms (TRUTH prog lines) [0: none]\n"
"      --max-seconds N   stop early after N seconds [0: never]\n"
"      --thp             allow transparent huge pages [4 KiB pages]\n"
"      --init-fast F     the initialisation pass allocates on node 1 once F of\n"
"                        the pages are touched (tiersim's --init-fast) [0: off]\n"
"      --rate-limit-mbps N  set numa_balancing_promote_rate_limit_MBps first\n"
"      --scan-period-max-ms N  set numa_balancing scan_period_max_ms first (the\n"
"                        threshold controller's period)\n"
"      --runtime SRC     have the tierpol runtime place the memory, its hint\n"
"                        faults from mprotect or uffd (make runtime-truth)\n"
"      --node-map        print which pages are on node 0 in each sample\n"
"      --cpu N           run the workload (and the runtime's threads, which\n"
"                        inherit it) on CPU N; the sampler stays unpinned\n"
"      --signal-hz N     an empty signal handler run N times a second in\n"
"                        the workload's process (what signals alone cost)\n"
"      --signal-self     with --signal-hz: the workload's thread raises them\n"
"                        itself, synchronously as a fault's signal comes,\n"
"                        not a timer (one thread only)\n"
"      --tlb-flush-ms N  the workload's thread empties its CPU's TLB every\n"
"                        N ms (two mprotect(2) calls over 64 pages of its\n"
"                        own; one thread only): what the emulator's TLB\n"
"                        does with a flush now and then\n"
"      --rt-block N      the runtime's block, pages [its default]\n"
"      --rt-cpus-all     with --cpu: the runtime's threads on every CPU\n"
"      --rt-cpus-other   with --cpu: the runtime's threads on every CPU but\n"
"                        the program's\n"
"      --rt-decide D     what a hint fault decides: page, block or fault\n"
"                        [the runtime's default]\n"
"      --rt-ring         the runtime's latencies from the scan ring\n"
"      --rt-no-defer     drop the pages refused for want of room [default]\n"
"      --rt-defer        keep them for the migrator (clears TPRT_F_NO_DEFER)\n"
"      --rt-defer-shift N  keep those within the threshold / 2^N (implies\n"
"                        --rt-defer unless --rt-no-defer is given)\n"
"      --rt-batch N      pages per move_pages(2) call at most\n"
"      --rt-victims      the runtime chooses the pages it demotes\n"
"      --rt-recheck      the runtime measures a block again (TPRT_F_RECHECK),\n"
"                        at any time\n"
"      --rt-recheck-fill  only while the fast node fills (TPRT_F_RECHECK_FILL)\n"
"                        [default]\n"
"      --rt-no-recheck   never (clears both)\n"
"      --rt-sweep-fill   a pass scans all it may while the fast node fills\n"
"                        (TPRT_F_SWEEP_FILL) [default]\n"
"      --rt-no-sweep-fill  a pass scans --scan-size-mb only (clears it)\n"
"      --rt-sample-shift N  with it, sample one fast block in 2^N a sweep\n"
"      --rt-room-batches N  a nudge makes room for at most N batches of\n"
"                        refused pages (0-64) [the runtime's default: 0]\n"
"      --rt-clock C      the runtime's latency clock: cpu or wall [its\n"
"                        default]\n"
"  Each thread runs its own stream (wl.c's wl_thread_*), phases end at a\n"
"  barrier; each VMA of the workload is a mapping of its own (with\n"
"  --runtime, each registered as a region of its own).\n");
	exit(code);
}

static double arg_dbl(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (!*s || *end) {
		fprintf(stderr, "truth-guest: not a number: %s\n", s);
		usage(2);
	}
	return v;
}

static uint64_t arg_u64(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	if (!*s || *end) {
		fprintf(stderr, "truth-guest: not an integer: %s\n", s);
		usage(2);
	}
	return v;
}

/* An integer from 1 to @max, else the usage (exit 2). */
static unsigned int arg_count(const char *s, unsigned int max)
{
	uint64_t v = arg_u64(s);

	if (!v || v > max)
		usage(2);
	return (unsigned int)v;
}

enum {
	O_PAGES = 256, O_ACC, O_SEED, O_WRITE, O_SIGMA, O_ZIPF, O_HOTF,
	O_HOTP, O_SHIFT, O_BURST, O_THREADS, O_NOINIT, O_SAMPLE, O_PROG,
	O_MAXS, O_THP, O_INITF, O_RATE, O_PMAX, O_SMALL, O_RUNTIME, O_NODEMAP,
	O_CPU,
	O_RTBLOCK, O_RTCPUS, O_RTCPUSOTHER, O_SIGHZ, O_SIGSELF, O_FLUSH,
	O_RTDECIDE, O_RTRING, O_RTCLOCK, O_RTNODEFER, O_RTDEFER, O_RTBATCH,
	O_RTVICTIMS, O_RTSAMPLE, O_RTRECHECK, O_RTRECHECKFILL, O_RTKEEP,
	O_RTNORECHECK, O_RTROOM, O_RTSWEEPFILL, O_RTNOSWEEPFILL,
};

static const struct option longopts[] = {
	{ "workload", required_argument, NULL, 'w' },
	{ "pages", required_argument, NULL, O_PAGES },
	{ "accesses", required_argument, NULL, O_ACC },
	{ "seed", required_argument, NULL, O_SEED },
	{ "write-frac", required_argument, NULL, O_WRITE },
	{ "sigma", required_argument, NULL, O_SIGMA },
	{ "zipf-s", required_argument, NULL, O_ZIPF },
	{ "hot-frac", required_argument, NULL, O_HOTF },
	{ "hot-prob", required_argument, NULL, O_HOTP },
	{ "shift-at", required_argument, NULL, O_SHIFT },
	{ "burst-pages", required_argument, NULL, O_BURST },
	{ "threads", required_argument, NULL, O_THREADS },
	{ "no-init", no_argument, NULL, O_NOINIT },
	{ "sample-ms", required_argument, NULL, O_SAMPLE },
	{ "prog-ms", required_argument, NULL, O_PROG },
	{ "max-seconds", required_argument, NULL, O_MAXS },
	{ "thp", no_argument, NULL, O_THP },
	{ "init-fast", required_argument, NULL, O_INITF },
	{ "rate-limit-mbps", required_argument, NULL, O_RATE },
	{ "scan-period-max-ms", required_argument, NULL, O_PMAX },
	{ "small-frac", required_argument, NULL, O_SMALL },
	{ "runtime", required_argument, NULL, O_RUNTIME },
	{ "node-map", no_argument, NULL, O_NODEMAP },
	{ "cpu", required_argument, NULL, O_CPU },
	{ "rt-block", required_argument, NULL, O_RTBLOCK },
	{ "rt-cpus-all", no_argument, NULL, O_RTCPUS },
	{ "rt-cpus-other", no_argument, NULL, O_RTCPUSOTHER },
	{ "signal-hz", required_argument, NULL, O_SIGHZ },
	{ "signal-self", no_argument, NULL, O_SIGSELF },
	{ "tlb-flush-ms", required_argument, NULL, O_FLUSH },
	{ "rt-decide", required_argument, NULL, O_RTDECIDE },
	{ "rt-ring", no_argument, NULL, O_RTRING },
	{ "rt-no-defer", no_argument, NULL, O_RTNODEFER },
	{ "rt-defer", no_argument, NULL, O_RTKEEP },
	{ "rt-defer-shift", required_argument, NULL, O_RTDEFER },
	{ "rt-victims", no_argument, NULL, O_RTVICTIMS },
	{ "rt-recheck", no_argument, NULL, O_RTRECHECK },
	{ "rt-recheck-fill", no_argument, NULL, O_RTRECHECKFILL },
	{ "rt-no-recheck", no_argument, NULL, O_RTNORECHECK },
	{ "rt-sweep-fill", no_argument, NULL, O_RTSWEEPFILL },
	{ "rt-no-sweep-fill", no_argument, NULL, O_RTNOSWEEPFILL },
	{ "rt-sample-shift", required_argument, NULL, O_RTSAMPLE },
	{ "rt-room-batches", required_argument, NULL, O_RTROOM },
	{ "rt-batch", required_argument, NULL, O_RTBATCH },
	{ "rt-clock", required_argument, NULL, O_RTCLOCK },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

void guest_opts_parse(struct guest_opts *o, int argc, char **argv)
{
	int c, kind = WL_PMBENCH;
	size_t i;

	*o = (struct guest_opts){
		.sample_ms = 2000, .rate = -1, .pmax = -1, .cpu = -1,
		.rt = { .nodefer = -1, .defer_shift = -1, .recheck = -1,
			.sweep_fill = -1,
			.sample_shift = -1, .room_batches = -1,
			.program_cpu = -1 },
	};
	/* The kind first: its defaults, then the options on top. */
	for (i = 1; i + 1 < (size_t)argc; i++)
		if (!strcmp(argv[i], "-w") || !strcmp(argv[i], "--workload"))
			kind = wl_kind_parse(argv[i + 1]);
	if (kind < 0) {
		fprintf(stderr, "truth-guest: unknown workload\n");
		usage(2);
	}
	wl_defaults(&o->p, (uint32_t)kind);
	while ((c = getopt_long(argc, argv, "w:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'w':
			break;
		case O_PAGES:
			o->p.pages = arg_u64(optarg);
			break;
		case O_ACC:
			o->p.accesses = arg_u64(optarg);
			break;
		case O_SEED:
			o->p.seed = arg_u64(optarg);
			break;
		case O_WRITE:
			o->p.write_frac = arg_dbl(optarg);
			break;
		case O_SIGMA:
			o->p.sigma_frac = arg_dbl(optarg);
			break;
		case O_ZIPF:
			o->p.zipf_s = arg_dbl(optarg);
			break;
		case O_HOTF:
			o->p.hot_frac = arg_dbl(optarg);
			break;
		case O_HOTP:
			o->p.hot_prob = arg_dbl(optarg);
			break;
		case O_SHIFT:
			o->p.shift_at = arg_dbl(optarg);
			break;
		case O_BURST:
			o->p.burst_pages = arg_u64(optarg);
			break;
		case O_THREADS:
			o->p.threads = (uint32_t)arg_u64(optarg);
			break;
		case O_NOINIT:
			o->p.init = 0;
			break;
		case O_SAMPLE:
			o->sample_ms = (unsigned int)arg_u64(optarg);
			if (!o->sample_ms)
				usage(2);
			break;
		case O_PROG:
			if (arg_u64(optarg) > 60000)
				usage(2);
			o->prog_ms = (unsigned int)arg_u64(optarg);
			break;
		case O_MAXS:
			o->max_ms = arg_u64(optarg) * 1000;
			break;
		case O_THP:
			o->thp = 1;
			break;
		case O_INITF:
			o->init_fast = arg_dbl(optarg);
			if (o->init_fast < 0 || o->init_fast > 1)
				usage(2);
			break;
		case O_RATE:
			o->rate = (long long)arg_u64(optarg);
			break;
		case O_PMAX:
			o->pmax = (long long)arg_u64(optarg);
			break;
		case O_SMALL:
			o->p.small_frac = arg_dbl(optarg);
			break;
		case O_RUNTIME:
			o->rt.source = optarg;
			break;
		case O_NODEMAP:
			o->node_map = 1;
			break;
		case O_CPU:
			o->cpu = (int)arg_u64(optarg);
			break;
		case O_RTBLOCK:
			o->rt.block = (unsigned int)arg_u64(optarg);
			break;
		case O_RTDECIDE:
			o->rt.decide = optarg;
			break;
		case O_RTRING:
			o->rt.ring = 1;
			break;
		case O_RTNODEFER:
			o->rt.nodefer = 1;
			break;
		case O_RTKEEP:
			o->rt.nodefer = 0;
			break;
		case O_RTDEFER:
			o->rt.defer_shift = (int)arg_u64(optarg);
			break;
		case O_RTBATCH:
			o->rt.batch = (unsigned int)arg_u64(optarg);
			break;
		case O_RTVICTIMS:
			o->rt.victims = 1;
			break;
		case O_RTRECHECK:
			o->rt.recheck = 1;
			break;
		case O_RTRECHECKFILL:
			o->rt.recheck = 2;
			break;
		case O_RTNORECHECK:
			o->rt.recheck = 0;
			break;
		case O_RTSWEEPFILL:
			o->rt.sweep_fill = 1;
			break;
		case O_RTNOSWEEPFILL:
			o->rt.sweep_fill = 0;
			break;
		case O_RTSAMPLE:
			o->rt.sample_shift = (int)arg_u64(optarg);
			break;
		case O_RTROOM:
			o->rt.room_batches = (int)arg_u64(optarg);
			break;
		case O_RTCLOCK:
			o->rt.clock = optarg;
			break;
		case O_RTCPUS:
			o->rt.all_cpus = 1;
			break;
		case O_RTCPUSOTHER:
			o->rt.all_cpus = 2;
			break;
		case O_SIGSELF:
			o->signal_self = 1;
			break;
		case O_FLUSH:
			o->flush_ms = arg_count(optarg, 60000);
			break;
		case O_SIGHZ:
			o->signal_hz = arg_count(optarg, 100000);
			break;
		case 'h':
			usage(0);
		default:
			usage(2);
		}
	}
	if (optind != argc ||
	    (o->signal_self && (!o->signal_hz || o->p.threads > 1)) ||
	    (o->flush_ms && o->p.threads > 1))
		usage(2);
}
