// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tpdaemon - tierpol used the way a userspace tiering daemon would use it.
 *
 * A daemon that samples accesses to a process's memory (idle page tracking,
 * perf/IBS/PEBS samples, or NUMA hint faults forwarded from the kernel)
 * needs the same decisions the kernel makes: how recently was this page
 * scanned, is it hot, is promotion within budget, is there room. This
 * program shows the whole flow on a stream of events:
 *
 *   scan <time_ms> <start_hex> <end_hex>   a scan pass marked [start, end)
 *   fault <time_ms> <addr_hex> <r|w> <young 0|1> [pages]
 *   mem <free_pages>                        the fast node's free pages
 *
 * It keeps one scan-history ring (the 2020 RFC's) for latency, one per-node state
 * for the fast node, a real clock in nanosecond ticks, and prints every
 * decision and the node statistics at the end.
 *
 * Usage: tpdaemon [--preset rfc2020|linux61] [FILE]   (no FILE: a built-in demo)
 * Errors name the file, the line and the reason, and exit with status 2.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tierpol/tierpol.h>

#define TICKS_PER_SEC	1000000000U	/* nanoseconds */
#define TICKS_PER_MS	((uint64_t)1000000)

static const char *const demo[] = {
	"mem 300000",
	"scan 1000 0x10000000 0x20000000",
	"fault 1040 0x10001000 r 1",		/* 40 ms after its scan: hot */
	"fault 1900 0x1fff0000 w 1",
	"scan 2000 0x20000000 0x30000000",
	"mem 12000",				/* no more bypass */
	"fault 2100 0x10002000 r 1",		/* 1100 ms: cold */
	"fault 2150 0x10003000 w 1",		/* hot only if writes double */
	"fault 2200 0x20004000 r 0",		/* not young */
	"fault 2300 0x20008000 r 1 512",	/* a THP */
	"scan 3000 0x30000000 0x40000000",
	"fault 3500 0x12345000 w 1",		/* 2500 ms even for writes */
	"mem 6145",				/* just above the high watermark */
	"fault 3600 0x30001000 r 1",
	NULL,
};


struct daemon {
	struct tp_policy pol;
	struct tp_node node;
	struct tp_node_cpu cpu;		/* this thread's counters */
	struct tp_scan_ring ring;
	struct tp_scan_pass hist[TP_DEFAULT_RING_DEPTH];
	struct tp_node_mem mem;
	unsigned long decisions;
};

static void __attribute__((noreturn))
die_input(const char *file, unsigned long line, const char *why)
{
	fprintf(stderr, "%s:%lu: %s\n", file, line, why);
	exit(2);
}

static int parse_u64(const char *s, int base, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, base);
	return errno || end == s || *end ? -1 : 0;
}

static void handle(struct daemon *d, char *buf, const char *file,
		   unsigned long lineno)
{
	char *tok[6];
	int n = 0, ret, lret;
	uint64_t t = 0, a = 0, b = 0, lat = 0;
	struct tp_fault f = { 0 };

	for (char *p = strtok(buf, " \t\n"); p && n < 6; p = strtok(NULL, " \t\n"))
		tok[n++] = p;
	if (!n || tok[0][0] == '#')
		return;

	if (!strcmp(tok[0], "mem")) {
		if (n != 2 || parse_u64(tok[1], 10, &a))
			die_input(file, lineno, "expected: mem <free_pages>");
		d->mem.free = a;
		return;
	}
	if (!strcmp(tok[0], "scan")) {
		if (n != 4 || parse_u64(tok[1], 10, &t) ||
		    parse_u64(tok[2], 16, &a) || parse_u64(tok[3], 16, &b) ||
		    b <= a)
			die_input(file, lineno,
				  "expected: scan <time_ms> <start_hex> <end_hex> with end > start");
		tp_scan_ring_record(&d->ring, a, t * TICKS_PER_MS);
		tp_scan_ring_advance(&d->ring, b);
		printf("%8" PRIu64 " ms  scan  [%#" PRIx64 ", %#" PRIx64 ")\n",
		       t, a, b);
		return;
	}
	if (strcmp(tok[0], "fault"))
		die_input(file, lineno, "unknown event (expected scan, fault or mem)");

	if (n < 5 || n > 6 || parse_u64(tok[1], 10, &t) ||
	    parse_u64(tok[2], 16, &a) || strlen(tok[3]) != 1 ||
	    (tok[3][0] != 'r' && tok[3][0] != 'w') ||
	    (strcmp(tok[4], "0") && strcmp(tok[4], "1")))
		die_input(file, lineno,
			  "expected: fault <time_ms> <addr_hex> <r|w> <0|1> [pages]");
	f.nr_pages = 1;
	if (n == 6 && (parse_u64(tok[5], 10, &f.nr_pages) || !f.nr_pages))
		die_input(file, lineno, "pages must be a positive number");

	lret = tp_scan_ring_latency(&d->ring, a, t * TICKS_PER_MS, &lat);
	f.latency = lret < 0 ? TP_LATENCY_UNKNOWN : lat;
	if (tok[3][0] == 'w')
		f.flags |= TP_FAULT_WRITE;
	if (tok[4][0] == '1')
		f.flags |= TP_FAULT_YOUNG;

	ret = tp_decide(&d->pol, &d->node, &d->cpu, &f, &d->mem,
			t * TICKS_PER_MS);
	if (ret < 0)
		die_input(file, lineno, "tp_decide rejected the fault");
	d->decisions++;
	if (f.latency == TP_LATENCY_UNKNOWN)
		printf("%8" PRIu64 " ms  fault %#" PRIx64 " latency unknown -> %s\n",
		       t, a, tp_verdict_name(ret));
	else
		printf("%8" PRIu64 " ms  fault %#" PRIx64 " latency %" PRIu64
		       " ms%s -> %s\n", t, a, f.latency / TICKS_PER_MS,
		       lret == TP_LAT_OLDEST ? " (older than the history)" : "",
		       tp_verdict_name(ret));
	if (ret == TP_REFUSE_NOSPACE)
		printf("           demotion target: %" PRIu64 " free pages\n",
		       tp_demotion_target(&d->pol, &d->mem));
}

int main(int argc, char **argv)
{
	static struct daemon d;
	struct tp_policy_cfg cfg;
	struct tp_scan_ring_cfg rcfg = { .sz = sizeof(rcfg),
					 .depth = TP_DEFAULT_RING_DEPTH };
	struct tp_node_stats st;
	const char *file = NULL;
	unsigned int preset = TP_PRESET_LINUX61;
	char buf[512];
	int i, ret;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--preset") && i + 1 < argc) {
			i++;
			if (!strcmp(argv[i], "rfc2020"))
				preset = TP_PRESET_RFC2020;
			else if (!strcmp(argv[i], "linux61"))
				preset = TP_PRESET_LINUX61;
			else
				goto usage;
		} else if ((argv[i][0] == '-' && argv[i][1]) || file) {
			goto usage;
		} else {
			file = argv[i];
		}
	}

	/* The sysctls, then one node of 1 GiB of DRAM with 4 KiB pages. */
	if (tp_policy_preset(&cfg, preset, TICKS_PER_SEC) ||
	    tp_policy_init(&d.pol, &cfg)) {
		fprintf(stderr, "tpdaemon: bad policy configuration\n");
		return 1;
	}
	d.mem = (struct tp_node_mem){
		.free = 300000, .wmark_min = 4096, .wmark_low = 5120,
		.wmark_high = 6144, .present = 262144 * 2,
	};
	d.mem.wmark_promo = tp_wmark_promo(d.mem.wmark_min, d.mem.wmark_high,
					   d.mem.present, 10);
	ret = tp_node_init(&d.node, &d.pol, 0);
	if (!ret)
		ret = tp_scan_ring_init(&d.ring, &rcfg, d.hist,
					TP_DEFAULT_RING_DEPTH);
	if (ret) {
		fprintf(stderr, "tpdaemon: init failed: %d\n", ret);
		return 1;
	}

	printf("tierpol %s, preset %s\n", tp_version_string(),
	       preset == TP_PRESET_RFC2020 ? "the 2020 RFC (v2)" : "Linux 6.1");
	if (!file) {
		for (i = 0; demo[i]; i++) {
			snprintf(buf, sizeof(buf), "%s", demo[i]);
			handle(&d, buf, "<demo>", i + 1);
		}
	} else {
		FILE *fp = strcmp(file, "-") ? fopen(file, "r") : stdin;
		unsigned long lineno = 0;

		if (!fp) {
			fprintf(stderr, "%s: %s\n", file, strerror(errno));
			return 2;
		}
		while (fgets(buf, sizeof(buf), fp)) {
			lineno++;
			if (!strchr(buf, '\n') && !feof(fp))
				die_input(file, lineno, "line too long");
			handle(&d, buf, file, lineno);
		}
		if (fp != stdin)
			fclose(fp);
	}

	/* One slot: this program decides on one thread. */
	tp_node_stats_read(&d.pol, &d.node, &st);
	tp_node_stats_add(&st, &d.cpu);
	printf("\n%lu decisions, %" PRIu64 " pages: promoted %" PRIu64
	       " (%" PRIu64 " via bypass), candidates %" PRIu64
	       ", refused cold %" PRIu64 ", not young %" PRIu64
	       ", rate limited %" PRIu64 ", no space %" PRIu64
	       "; threshold %" PRIu64 " ms\n",
	       d.decisions, st.decided, st.success,
	       st.verdict[TP_PROMOTE_NRL], st.candidate,
	       st.verdict[TP_REFUSE_COLD], st.verdict[TP_REFUSE_NOT_YOUNG],
	       st.verdict[TP_REFUSE_RATELIMIT], st.verdict[TP_REFUSE_NOSPACE],
	       st.threshold / TICKS_PER_MS);
	return 0;

usage:
	fprintf(stderr, "usage: %s [--preset rfc2020|linux61] [FILE|-]\n", argv[0]);
	return 2;
}
