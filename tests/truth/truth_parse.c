// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * truth parse CONSOLE OUTDIR
 *	Turns the console of one guest run (tests/truth/boot.sh) into
 *	OUTDIR/kernel.json, in tiersim's JSON format plus a few fields (the
 *	superset is described in docs/FIDELITY.md), and, with the machine
 *	truth_fit.c derives from it, OUTDIR/tiersim.args and tiersim.cpu: the
 *	tiersim options, one a line, that describe the measured machine and
 *	run the same workload under the mainline preset.
 */
#define _GNU_SOURCE
#include "truth.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- console lines: "TRUTH kind key=value key=value ..." ---------------- */

void kvl_parse(struct kvl *l, char *s)
{
	char *tok, *save = NULL;

	l->n = 0;
	for (tok = strtok_r(s, " \t\n", &save); tok && l->n < MAX_KV;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq)
			continue;
		*eq = 0;
		l->k[l->n] = tok;
		l->v[l->n] = eq + 1;
		l->n++;
	}
}

const char *kv_str(const struct kvl *l, const char *key)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->k[i], key))
			return l->v[i];
	return NULL;
}

double kv_num(const struct kvl *l, const char *key, double def)
{
	const char *s = kv_str(l, key);

	return s && *s ? strtod(s, NULL) : def;
}

double kv_req(const struct kvl *l, const char *key, const char *what)
{
	const char *s = kv_str(l, key);

	if (!s || !*s)
		die("the console's %s line has no %s", what, key);
	return strtod(s, NULL);
}
static char *keep(struct krun *k, const char *s)
{
	char *d = strdup(s);

	if (!d || k->nbuf == (int)(sizeof(k->buf) / sizeof(k->buf[0])))
		die("out of memory or too many lines");
	k->buf[k->nbuf++] = d;
	return d;
}

/* A kprobe entry waiting for its return, per task. */
struct pending {
	int pid;
	int valid;
	double t_ms;
	double start, end;
};

#define MAX_PENDING	16

struct raw_scan {
	double t_ms, dur_us;
	int pid;
};

/* The pending entry of (@pid, @kind): found, or a free one; NULL if full. */
static struct pending *pending_of(struct pending *p, int pid)
{
	int i;

	for (i = 0; i < MAX_PENDING; i++)
		if (p[i].valid && p[i].pid == pid)
			return &p[i];
	for (i = 0; i < MAX_PENDING; i++)
		if (!p[i].valid)
			return &p[i];
	return NULL;
}

/*
 * A progress line, "t_ms=T acc=A numa_hint_faults=F pgpromote_success=P"
 * and kswapd's "pgscan_kswapd= pgrefill= pgdemote_kswapd= kswapd_cpu_ms="
 * (truth-guest --prog-ms); one without a time or a count is skipped, one
 * without kswapd's counters (the guest's first kind) has them -1.
 */
static void parse_prog(struct krun *k, char *line)
{
	static struct kvl l;
	struct prog *p = &k->prog[k->nr_prog];
	double scan, refill;

	kvl_parse(&l, line);
	p->t_ms = kv_num(&l, "t_ms", -1);
	p->acc = kv_num(&l, "acc", -1);
	p->faults = kv_num(&l, "numa_hint_faults", -1);
	p->promo = kv_num(&l, "pgpromote_success", -1);
	scan = kv_num(&l, "pgscan_kswapd", -1);
	refill = kv_num(&l, "pgrefill", -1);
	p->kdemoted = kv_num(&l, "pgdemote_kswapd", -1);
	p->kcpu_ms = kv_num(&l, "kswapd_cpu_ms", -1);
	p->klooks = scan >= 0 && refill >= 0 ? scan + refill : -1;
	if (p->klooks < 0 || p->kdemoted < 0 || p->kcpu_ms < 0)
		p->klooks = p->kdemoted = p->kcpu_ms = -1;
	if (p->t_ms >= 0 && p->acc >= 0 && p->faults >= 0 && p->promo >= 0)
		k->nr_prog++;
}

/*
 * The trace instance's lines (absolute mono seconds; converted to program
 * time once the start line is known):
 *   "truth-guest-109 [001] ..... 49.09: tnw: (task_numa_work+0x0/0x..)"
 *   "truth-guest-109 [001] ..... 49.30: tnwr: (... <- task_numa_work)"
 *   "... cpn: (change_prot_numa+0x0/..) start=0x7f.. end=0x7f.."
 *   "... cpnr: (... <- change_prot_numa) ret=1234"
 * Entries and returns pair up per task: the workload's and the sampler's
 * events interleave.
 */
static void parse_kprobe(struct krun *k, const char *line,
			 struct pending *tnw, struct pending *cpn,
			 struct raw_scan *raw, int *nraw)
{
	const char *p = strstr(line, " [");
	const char *q, *ev;
	struct pending *pe;
	double t;
	int pid;

	if (!p)
		return;
	while (p > line && p[-1] == ' ')
		p--;
	for (q = p; q > line && q[-1] >= '0' && q[-1] <= '9'; q--)
		;
	if (q == p || q == line || q[-1] != '-')
		return;
	pid = atoi(q);
	ev = strstr(p, ": tnw");
	if (!ev)
		ev = strstr(p, ": cpn");
	if (!ev)
		return;
	for (q = ev; q > line && q[-1] != ' '; q--)
		;
	t = strtod(q, NULL) * 1e3;
	if (!strncmp(ev, ": tnw:", 6) || !strncmp(ev, ": cpn:", 6)) {
		pe = pending_of(ev[4] == 'w' ? tnw : cpn, pid);
		if (!pe)
			return;
		pe->pid = pid;
		pe->valid = 1;
		pe->t_ms = t;
		q = strstr(ev, "start=");
		pe->start = q ? (double)strtoull(q + 6, NULL, 0) : 0;
		q = strstr(ev, "end=");
		pe->end = q ? (double)strtoull(q + 4, NULL, 0) : 0;
		return;
	}
	pe = pending_of(ev[4] == 'w' ? tnw : cpn, pid);
	if (!pe || !pe->valid)
		return;
	pe->valid = 0;
	if (ev[4] == 'w') {
		if (*nraw == MAX_SCANS)
			return;
		raw[*nraw].t_ms = pe->t_ms;
		raw[*nraw].dur_us = (t - pe->t_ms) * 1e3;
		raw[*nraw].pid = pid;
		(*nraw)++;
	} else if (k->nr_chunks < MAX_CHUNKS) {
		struct chunk *c = &k->chunks[k->nr_chunks++];

		c->t_ms = pe->t_ms;
		c->dur_us = (t - pe->t_ms) * 1e3;
		c->start = pe->start;
		c->end = pe->end;
		q = strstr(ev, "ret=");
		c->updated = q ? strtod(q + 4, NULL) : 0;
	}
}

/* @tid is one of the workload's threads (TRUTH thread lines). */
static int is_worker(const struct krun *k, int tid)
{
	int i;

	for (i = 0; i < k->nr_tids; i++)
		if (k->tid[i] == tid)
			return 1;
	return 0;
}

void read_console(const char *path, struct krun *k)
{
	FILE *f = fopen(path, "r");
	char line[8192];
	static struct pending tnw[MAX_PENDING], cpn[MAX_PENDING];
	double t0_us = 0;
	int pid = -1, i;
	struct raw_scan *raw;
	int nraw = 0;

	if (!f)
		die("%s: %s", path, strerror(errno));
	raw = calloc(MAX_SCANS, sizeof(*raw));
	if (!raw)
		die("out of memory");
	memset(k, 0, sizeof(*k));
	memset(tnw, 0, sizeof(tnw));
	memset(cpn, 0, sizeof(cpn));
	while (fgets(line, sizeof(line), f)) {
		char *s;

		if (strncmp(line, "TRUTH ", 6))
			continue;
		s = line + 6;
		if (!strncmp(s, "machine ", 8)) {
			kvl_parse(&k->machine, keep(k, s + 8));
			k->have_machine = 1;
		} else if (!strncmp(s, "start ", 6)) {
			kvl_parse(&k->start, keep(k, s + 6));
			k->have_start = 1;
		} else if (!strncmp(s, "done ", 5)) {
			kvl_parse(&k->done, keep(k, s + 5));
			k->have_done = 1;
		} else if (!strncmp(s, "host ", 5)) {
			kvl_parse(&k->host, keep(k, s + 5));
			k->have_host = 1;
		} else if (!strncmp(s, "thread ", 7) &&
			   k->nr_tids < MAX_TIDS) {
			k->tid[k->nr_tids++] = atoi(strstr(s, "tid=") ?
						    strstr(s, "tid=") + 4 : "-1");
		} else if (!strncmp(s, "bind ", 5)) {
			kvl_parse(&k->bind, keep(k, s + 5));
			k->have_bind = 1;
		} else if (!strncmp(s, "phase ", 6) &&
			   k->nr_phases < MAX_PHASES) {
			kvl_parse(&k->phase[k->nr_phases++], keep(k, s + 6));
		} else if (!strncmp(s, "sample ", 7) &&
			   k->nr_samples < MAX_SAMPLES) {
			kvl_parse(&k->sample[k->nr_samples++], keep(k, s + 7));
		} else if (!strncmp(s, "prog ", 5) && k->nr_prog < MAX_PROG) {
			parse_prog(k, s + 5);
		} else if (!strncmp(s, "init release ", 13)) {
			snprintf(k->release, sizeof(k->release), "%.60s",
				 s + 13);
			k->release[strcspn(k->release, "\n")] = 0;
		} else if (!strncmp(s, "kprobe ", 7)) {
			parse_kprobe(k, s + 7, tnw, cpn, raw, &nraw);
		}
	}
	fclose(f);
	if (!k->have_machine || !k->have_start || !k->have_done ||
	    k->nr_samples < 2 || !k->nr_phases)
		die("%s: incomplete run (machine %d, start %d, done %d, %d "
		    "samples, %d phases)", path, k->have_machine,
		    k->have_start, k->have_done, k->nr_samples, k->nr_phases);
	t0_us = kv_req(&k->start, "mono_t0_us", "start");
	pid = (int)kv_num(&k->start, "pid", -1);
	for (i = 0; i < nraw; i++) {
		if (raw[i].pid >= 0 && pid >= 0 && raw[i].pid != pid &&
		    !is_worker(k, raw[i].pid)) {
			k->nr_other_scans++;
			continue;
		}
		k->scans[k->nr_scans].t_ms = raw[i].t_ms - t0_us / 1e3;
		k->scans[k->nr_scans].dur_us = raw[i].dur_us;
		k->nr_scans++;
	}
	free(raw);
	for (i = 0; i < k->nr_chunks; i++)
		k->chunks[i].t_ms -= t0_us / 1e3;
}

/* ---- parse: kernel.json and tiersim.args ------------------------------- */

static const char *const counters[] = {
	"numa_hint_faults", "numa_pte_updates", "pgpromote_candidate",
	"pgpromote_success", "pgdemote_kswapd", "pgdemote_direct",
	"numa_pages_migrated", "pgmigrate_success", "pgmigrate_fail",
	"pgsteal_kswapd", "pgscan_kswapd", "pgrefill", "numa_hint_faults_local",
	"kswapd_low_wmark_hit_quickly", "kswapd_high_wmark_hit_quickly",
	"pageoutrun", "allocstall_movable", "allocstall_dma32",
};

#define NR_COUNTERS	(sizeof(counters) / sizeof(counters[0]))

/* The counter's increase from the first sample to sample @i. */
double delta(const struct krun *k, int i, const char *key)
{
	return kv_num(&k->sample[i], key, 0) - kv_num(&k->sample[0], key, 0);
}

/* Workload RSS (pages) at program time @t_ms, from the samples. */
double rss_at(const struct krun *k, double t_ms)
{
	int i;

	for (i = 1; i < k->nr_samples; i++) {
		double t1 = kv_num(&k->sample[i], "t_ms", 0);

		if (t1 >= t_ms) {
			const struct kvl *a = &k->sample[i - 1];
			const struct kvl *b = &k->sample[i];
			double t0 = kv_num(a, "t_ms", 0), x, ra, rb;

			ra = kv_num(a, "ws0", 0) + kv_num(a, "ws1", 0);
			rb = kv_num(b, "ws0", 0) + kv_num(b, "ws1", 0);
			x = t1 > t0 ? (t_ms - t0) / (t1 - t0) : 1;
			return ra + (rb - ra) * x;
		}
	}
	return kv_num(&k->sample[k->nr_samples - 1], "ws0", 0) +
	       kv_num(&k->sample[k->nr_samples - 1], "ws1", 0);
}

static void json_series(FILE *f, const struct krun *k, const char *name,
			const char *key, int is_delta, double scale)
{
	int i;

	fprintf(f, "%s\"%s\": [", strcmp(name, "t_s") ? ", " : "", name);
	for (i = 0; i < k->nr_samples; i++) {
		double v = is_delta ? delta(k, i, key) :
			   kv_num(&k->sample[i], key, 0);

		fprintf(f, "%s%.10g", i ? ", " : "", v * scale);
	}
	fprintf(f, "]");
}

static void write_kernel_json(const char *path, const struct krun *k,
			      const struct derived *d)
{
	const struct kvl *st = &k->start, *m = &k->machine;
	const int last = k->nr_samples - 1;
	FILE *f = fopen(path, "w");
	char phases[512];
	double dem;
	int i;

	if (!f)
		die("%s: %s", path, strerror(errno));
	snprintf(phases, sizeof(phases), "%s", kv_str(st, "phases") ?: "");
	fprintf(f, "{\n  \"tiersim\": \"kernel-truth\",\n  \"kernel\": "
		"\"%s\",\n  \"sets\": [\n   {\n", k->release);
	fprintf(f, "    \"source\": {\"name\": \"%s\", \"kind\": \"workload\", "
		"\"pages\": %s, \"accesses\": %.0f, \"threads\": %s, "
		"\"seed\": %s, \"measured_accesses\": %.0f, \"init\": %s, "
		"\"write_frac\": %s, \"sigma_frac\": %s, \"hot_frac\": %s, "
		"\"hot_prob\": %s, \"shift_at\": %s, \"burst_pages\": %s, "
		"\"init_fast\": %s, \"phases\": [",
		kv_str(st, "kind"), kv_str(st, "pages"), d->acc_total,
		kv_str(st, "threads"), kv_str(st, "seed"), d->acc_measured,
		kv_str(st, "init"), kv_str(st, "write_frac"),
		kv_str(st, "sigma"), kv_str(st, "hot_frac"),
		kv_str(st, "hot_prob"), kv_str(st, "shift_at"),
		kv_str(st, "burst_pages"), kv_str(st, "init_fast") ?: "0");
	for (i = 0; i < k->nr_phases; i++)
		fprintf(f, "%s\"%s\"", i ? ", " : "",
			kv_str(&k->phase[i], "name"));
	fprintf(f, "]},\n");
	fprintf(f, "    \"machine\": {\"profile\": \"qemu-tcg\", \"cpu_ns\": "
		"%.1f, \"alloc_ns\": %.1f, \"scan_pte_ns\": %.1f, "
		"\"reclaim_ns\": %.1f, \"demote_ns\": %.1f, "
		"\"scan_update_ns\": %.1f, "
		"\"fault_ns\": %.1f, \"migrate_ns\": %.1f, "
		"\"fast_pages\": %.0f, \"slow_pages\": %.0f, \"wmark_min\": "
		"%.0f, \"wmark_low\": %.0f, \"wmark_high\": %.0f, "
		"\"wmark_promo\": %.0f, \"thp\": %s, \"node0_managed\": %s, "
		"\"node1_managed\": %s, \"access_rate\": %.0f, "
		"\"qemu\": \"%s\", \"host_loadavg\": %s, \"wall_s\": %s},\n",
		d->cpu_ns, d->alloc_ns, d->scan_pte_ns, d->reclaim_ns,
		d->demote_ns, d->scan_update_ns, d->fault_ns, d->migrate_ns, d->fast_pages,
		d->slow_pages, d->wm[0], d->wm[1], d->wm[2], d->wm[3],
		kv_num(st, "thp", 0) ? "true" : "false",
		kv_str(m, "n0_managed"), kv_str(m, "n1_managed") ?: "0",
		d->rate, kv_str(&k->host, "qemu") ?: "",
		kv_str(&k->host, "loadavg") ?: "0",
		kv_str(&k->host, "wall_s") ?: "0");
	fprintf(f, "    \"kernel\": {\"scan_delay_ms\": %s, "
		"\"scan_period_min_ms\": %s, \"scan_period_max_ms\": %s, "
		"\"scan_size_mb\": %s, \"hot_threshold_ms\": %s, "
		"\"rate_limit_mbps\": %s, \"numa_balancing\": %s, "
		"\"demotion_enabled\": \"%s\", \"sample_ms\": %s},\n",
		kv_str(m, "scan_delay_ms"), kv_str(m, "scan_period_min_ms"),
		kv_str(m, "scan_period_max_ms"), kv_str(m, "scan_size_mb"),
		kv_str(m, "hot_threshold_ms"),
		kv_str(m, "promote_rate_limit_mbps"),
		kv_str(m, "numa_balancing"), kv_str(m, "demotion_enabled"),
		kv_str(st, "sample_ms"));
	dem = delta(k, last, "pgdemote_kswapd") +
	      delta(k, last, "pgdemote_direct");
	fprintf(f, "    \"runs\": [\n      {\"policy\": \"linux-%s\", "
		"\"accesses\": %.0f, \"measured_accesses\": %.0f, "
		"\"sim_time_s\": %.3f, \"measured_time_s\": %.3f, "
		"\"promotions\": %.0f, \"demotions\": %.0f, "
		"\"demotions_kswapd\": %.0f, \"demotions_direct\": %.0f, "
		"\"hint_faults\": %.0f, \"pte_updates\": %.0f, "
		"\"pgpromote_candidate\": %.0f, \"numa_pages_migrated\": %.0f, "
		"\"scan_passes\": %d, \"scan_time_s\": %.3f, "
		"\"fast_used_end\": %.0f, \"slow_used_end\": %.0f,\n",
		k->release, d->acc_total, d->acc_measured,
		(d->t_end_ms - d->t_start_ms) / 1e3,
		(d->t_end_ms - d->t_main_ms) / 1e3,
		delta(k, last, "pgpromote_success"), dem,
		delta(k, last, "pgdemote_kswapd"),
		delta(k, last, "pgdemote_direct"),
		delta(k, last, "numa_hint_faults"),
		delta(k, last, "numa_pte_updates"),
		delta(k, last, "pgpromote_candidate"),
		delta(k, last, "numa_pages_migrated"), d->scan_passes,
		(d->scan_ms_init + d->scan_ms_main) / 1e3,
		kv_num(&k->sample[last], "ws0", 0),
		kv_num(&k->sample[last], "ws1", 0));
	fprintf(f, "       \"phases\": [");
	for (i = 0; i < k->nr_phases; i++) {
		double t0 = kv_num(&k->phase[i], "t_ms", 0);
		double a0 = kv_num(&k->phase[i], "acc", 0);
		double t1 = i + 1 < k->nr_phases ?
			kv_num(&k->phase[i + 1], "t_ms", 0) : d->t_end_ms;
		double a1 = i + 1 < k->nr_phases ?
			kv_num(&k->phase[i + 1], "acc", 0) : d->acc_total;

		fprintf(f, "%s{\"name\": \"%s\", \"accesses\": %.0f, "
			"\"start_s\": %.3f, \"time_s\": %.3f}", i ? ", " : "",
			kv_str(&k->phase[i], "name"), a1 - a0, t0 / 1e3,
			(t1 - t0) / 1e3);
	}
	fprintf(f, "],\n       \"vmstat\": {");
	for (i = 0; i < (int)NR_COUNTERS; i++)
		fprintf(f, "%s\"%s\": %.0f", i ? ", " : "", counters[i],
			delta(k, last, counters[i]));
	fprintf(f, "},\n       \"scans\": {\"t_s\": [");
	for (i = 0; i < k->nr_scans; i++)
		fprintf(f, "%s%.3f", i ? ", " : "", k->scans[i].t_ms / 1e3);
	fprintf(f, "], \"duration_ms\": [");
	for (i = 0; i < k->nr_scans; i++)
		fprintf(f, "%s%.3f", i ? ", " : "", k->scans[i].dur_us / 1e3);
	fprintf(f, "]},\n       \"series\": {");
	json_series(f, k, "t_s", "t_ms", 0, 1e-3);
	json_series(f, k, "accesses", "acc", 0, 1);
	json_series(f, k, "promotions", "pgpromote_success", 1, 1);
	json_series(f, k, "demotions", "pgdemote_kswapd", 1, 1);
	json_series(f, k, "demotions_direct", "pgdemote_direct", 1, 1);
	json_series(f, k, "hint_faults", "numa_hint_faults", 1, 1);
	json_series(f, k, "pgpromote_candidate", "pgpromote_candidate", 1, 1);
	json_series(f, k, "pte_updates", "numa_pte_updates", 1, 1);
	json_series(f, k, "fast_used", "ws0", 0, 1);
	json_series(f, k, "slow_used", "ws1", 0, 1);
	json_series(f, k, "node0_free", "n0_free", 0, 1);
	json_series(f, k, "node0_boost", "n0_boost", 0, 1);
	json_series(f, k, "scan_seq", "seq", 0, 1);
	fprintf(f, "}}\n    ]\n   }\n  ]\n}\n");
	if (fclose(f))
		die("%s: %s", path, strerror(errno));
}


int cmd_parse(int argc, char **argv)
{
	static struct krun k;
	struct derived d;
	char path[4096], cpath[4096];

	if (argc != 3)
		die("usage: truth parse CONSOLE OUTDIR");
	read_console(argv[1], &k);
	derive(&k, &d);
	snprintf(path, sizeof(path), "%s/kernel.json", argv[2]);
	write_kernel_json(path, &k, &d);
	snprintf(cpath, sizeof(cpath), "%s/tiersim.cpu", argv[2]);
	write_cpu_file(cpath, &k, &d);
	snprintf(path, sizeof(path), "%s/tiersim.args", argv[2]);
	write_args(path, cpath, &k, &d);
	printf("truth: %s: %.1fM accesses in %.1f s (%.2fM/s), %d scan passes "
	       "(%.2f s), cpu %.0f ns, alloc %.0f ns, scan %.0f ns/PTE + %.0f "
	       "ns/change (%d fitted), "
	       "kswapd %.0f ns/look + %.0f ns/demotion (%d fitted), "
	       "fault %.0f ns, promotion %.0f ns (%d "
	       "fitted), fast tier %.0f pages; "
	       "per M accesses: %.0f hint faults, %.0f candidates, %.0f "
	       "promotions, %.0f demotions\n", argv[2], d.acc_total / 1e6,
	       (d.t_end_ms - d.t_start_ms) / 1e3, d.rate / 1e6,
	       d.scan_passes, (d.scan_ms_init + d.scan_ms_main) / 1e3,
	       d.cpu_ns, d.alloc_ns, d.scan_pte_ns, d.scan_update_ns,
	       d.scan_fit, d.reclaim_ns, d.demote_ns, d.kswapd_fit,
	       d.fault_ns, d.migrate_ns,
	       d.cost_fit, d.fast_pages,
	       delta(&k, k.nr_samples - 1, "numa_hint_faults") * 1e6 /
	       d.acc_total,
	       delta(&k, k.nr_samples - 1, "pgpromote_candidate") * 1e6 /
	       d.acc_total,
	       delta(&k, k.nr_samples - 1, "pgpromote_success") * 1e6 /
	       d.acc_total,
	       (delta(&k, k.nr_samples - 1, "pgdemote_kswapd") +
		delta(&k, k.nr_samples - 1, "pgdemote_direct")) * 1e6 /
	       d.acc_total);
	return 0;
}

