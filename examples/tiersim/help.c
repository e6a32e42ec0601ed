// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim --help, written from opt_defs[] (opts.c): each option with its
 * text, what 0 means where the range holds it, and its default in
 * brackets. The defaults that come from the model (the workloads', the
 * profiles', the kernel's) are read from the model's own tables, so the
 * text cannot drift from them.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <stddef.h>
#include <string.h>

#define HELP_COL	26	/* where the text of an option starts */
#define HELP_WIDTH	79

static const char *const sec_titles[SEC_NR] = {
	[SEC_SOURCE] = "Source (one of)",
	[SEC_POLICY] = "Policies (-p, comma-separated)",
	[SEC_WORKLOAD] = "Workload (defaults per workload where they differ)",
	[SEC_MACHINE] = "Machine",
	[SEC_KERNEL] = "Kernel settings (sysctls)",
	[SEC_OUTPUT] = "Output",
	[SEC_SUITE] = "Suites",
	[SEC_INFO] = "Information",
};

/* What each workload is; the names are wl.c's. */
static const char *const wl_help[WL_NR_KINDS] = {
	[WL_PMBENCH] = "Gaussian addresses, 80:20 read/write (the 2020 RFC)",
	[WL_ZIPF] = "Zipf-distributed pages (--zipf-s)",
	[WL_GUPS_HOTSET] = "90 % of updates to a hot set (HeMem GUPS)",
	[WL_PHASE_SHIFT] = "a hot set that moves (--shift-at): response time",
	[WL_COLD_BURST] = ("10 % hot keys, fast tier with room, then a burst "
			   "to cold keys (the bypass knob, 2026)"),
	[WL_DISJOINT_VMA] = ("two thread groups on two VMAs of very different "
			     "sizes (the 2023 RFC)"),
	[WL_UNIFORM] = "uniform addresses",
};

/*
 * Write @text from column @col on, wrapped at HELP_WIDTH, continuation
 * lines at column @indent; '\n' in @text breaks the line.
 */
static void wrap(FILE *f, const char *text, int col, int indent)
{
	const char *p = text;
	int first = 1;

	while (*p) {
		size_t w = strcspn(p, " \n");

		if (!first && col + 1 + (int)w > HELP_WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		first = 0;
		fwrite(p, 1, w, f);
		col += (int)w;
		p += w;
		if (*p == '\n') {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
			first = 1;
		}
		while (*p == ' ' || *p == '\n')
			p++;
	}
	fputc('\n', f);
}

void help_workloads(FILE *f)
{
	u32 k;

	for (k = 0; k < WL_NR_KINDS; k++) {
		fprintf(f, "%*s%-12s ", HELP_COL + 2, "", wl_kind_name(k));
		wrap(f, wl_help[k] ? wl_help[k] : "", HELP_COL + 15,
		     HELP_COL + 15);
	}
}

void help_profiles(FILE *f)
{
	char b[256];
	u32 i;

	for (i = 0; i < sim_nr_profiles; i++) {
		const struct sim_costs *c = &sim_profiles[i];

		snprintf(b, sizeof(b), "slow r/w %u/%u ns, fast r/w %u/%u ns, "
			 "fault %u ns, migrate %u ns + %u MB/s cap", c->lat[0],
			 c->lat[1], c->lat[2], c->lat[3], c->fault_ns,
			 c->migrate_ns, c->migrate_mbps);
		fprintf(f, "%*s%-5s ", HELP_COL + 2, "", c->name);
		wrap(f, b, HELP_COL + 8, HELP_COL + 8);
	}
}

/* ---- defaults from the model's tables ------------------------------------ */

/*
 * Each workload's value of @d (and a trace's, kind WL_NR_KINDS, with
 * @traces): the first's, then those of the workloads where it differs;
 * only the workloads of @d->kinds if it names some.
 */
static void per_kind(FILE *f, const struct opt_def *d, int traces,
		     void (*val)(char *b, size_t n, u32 kind,
				 const struct opt_def *d))
{
	char first[64] = "", b[64];
	u32 k;

	for (k = 0; k < WL_NR_KINDS + (traces ? 1 : 0); k++) {
		if (d->kinds && (k >= WL_NR_KINDS || !(d->kinds & 1U << k)))
			continue;
		val(b, sizeof(b), k, d);
		if (!first[0]) {
			snprintf(first, sizeof(first), "%s", b);
			fputs(first, f);
		} else if (strcmp(b, first))
			fprintf(f, "; %s %s", k < WL_NR_KINDS ?
				wl_kind_name(k) : "traces", b);
	}
}

static void val_wl(char *b, size_t n, u32 kind, const struct opt_def *d)
{
	struct wl_params p;
	const char *v;
	size_t off;

	wl_defaults(&p, kind);
	if (d->tab != wl_opts) {
		snprintf(b, n, "%llu", (unsigned long long)
			 (d->off == offsetof(struct opts, pages) ? p.pages :
			  p.accesses));
		return;
	}
	off = wl_opts[d->field].off;
	v = (const char *)&p + off;
	switch (wl_opts[d->field].kind) {
	case FIELD_U32:
		snprintf(b, n, "%u", *(const u32 *)v);
		break;
	case FIELD_U64:
		snprintf(b, n, "%llu", (unsigned long long)*(const u64 *)v);
		break;
	default:
		snprintf(b, n, "%.3g", *(const double *)v);
		break;
	}
}

static void val_machine(char *b, size_t n, u32 kind, const struct opt_def *d)
{
	struct wl_machine m;

	wl_machine_defaults(kind, &m);
	if (!strcmp(opt_name(d), "profile"))
		snprintf(b, n, "%s", m.profile);
	else if (!strcmp(opt_name(d), "fast"))
		snprintf(b, n, "%g%%", 100 * m.fast_frac);
	else if (!strcmp(opt_name(d), "init-fast"))
		snprintf(b, n, "%g", m.init_fast);
	else if (d->tab == cost_opts && d->field == C_CPU)
		snprintf(b, n, "%u", m.cpu_ns);
	else	/* a trace's accesses are as recorded, in series */
		snprintf(b, n, "%u", kind < WL_NR_KINDS ? m.mlp : 1);
}

void dflt_wl(FILE *f, const struct opt_def *d)
{
	per_kind(f, d, 0, val_wl);
}

void dflt_machine(FILE *f, const struct opt_def *d)
{
	per_kind(f, d, d->tab == cost_opts, val_machine);
}

/* A cost: the profiles' values, one if they agree. */
void dflt_cost(FILE *f, const struct opt_def *d)
{
	u32 v[8] = { 0 }, i, same = 1;

	for (i = 0; i < sim_nr_profiles && i < 8; i++) {
		memcpy(&v[i], (const char *)&sim_profiles[i] +
		       cost_opts[d->field].off, sizeof(v[i]));
		same &= v[i] == v[0];
	}
	if (same) {
		fprintf(f, "%u", v[0]);
		return;
	}
	for (i = 0; i < sim_nr_profiles && i < 8; i++)
		fprintf(f, "%s%s %u", i ? ", " : "", sim_profiles[i].name,
			v[i]);
}

void dflt_kern(FILE *f, const struct opt_def *d)
{
	struct sim_cfg c;
	u32 v;

	sim_cfg_defaults(&c);
	memcpy(&v, (const char *)&c + kern_opts[d->field].off, sizeof(v));
	fprintf(f, "%u", v);
}

void dflt_choice(FILE *f, const struct opt_def *d)
{
	struct sim_cfg c;

	sim_cfg_defaults(&c);
	fputs(opt_choices[d->field][d->field == 0 ? c.lru_two_list :
				    d->field == 1 ? c.kswapd_rounds :
				    c.serial_clock], f);
}

void dflt_tlb(FILE *f, const struct opt_def *d)
{
	struct sim_cfg c;

	(void)d;
	sim_cfg_defaults(&c);
	fprintf(f, "%u", c.tlb_entries);
}

/* The default policies, a blank after each comma so that --help can wrap. */
void dflt_policies(FILE *f, const struct opt_def *d)
{
	const char *p;

	(void)d;
	for (p = default_policies; *p; p++)
		fputs(*p == ',' ? ", " : (char[2]){ *p, 0 }, f);
}

/* ---- usage --------------------------------------------------------------- */

static void help_opt(FILE *f, const struct opt_def *d)
{
	char lhs[80], dv[512] = "", text[1024];
	FILE *mf;
	int n;

	n = snprintf(lhs, sizeof(lhs), "  %c%c%s--%s%s%s", d->key ? '-' : ' ',
		     d->key ? d->key : ' ', d->key ? ", " : "  ", opt_name(d),
		     d->arg ? " " : "", d->arg ? d->arg : "");
	fputs(lhs, f);
	n += fprintf(f, "%*s", n + 2 <= HELP_COL ? HELP_COL - n : 2, "");
	if (d->dflt) {
		snprintf(dv, sizeof(dv), "%s", d->dflt);
	} else if (d->dflt_fn) {
		mf = fmemopen(dv, sizeof(dv) - 1, "w");
		if (mf) {
			d->dflt_fn(mf, d);
			fclose(mf);
		}
	}
	snprintf(text, sizeof(text), "%s%s%s%s%s%s", d->help,
		 d->zero ? "; 0: " : "", d->zero ? d->zero : "",
		 dv[0] ? " [" : "", dv, dv[0] ? "]" : "");
	wrap(f, text, n, HELP_COL);
	if (d->more)
		d->more(f);
}

void usage(FILE *f)
{
	unsigned int i;
	int sec;

	fprintf(f,
"Usage: %s [OPTIONS]\n"
"Trace-driven two-tier memory simulator: replays a workload or a trace under\n"
"tierpol's page-placement policies and compares them.\n", prog);
	for (sec = 0; sec < SEC_NR; sec++) {
		fprintf(f, "\n%s:\n", sec_titles[sec]);
		for (i = 0; i < nr_opt_defs; i++)
			if (opt_defs[i].sec == sec)
				help_opt(f, &opt_defs[i]);
	}
	fprintf(f,
"\n"
"Warnings (stderr, one line each) flag results that cannot mean what they\n"
"seem, and name the option that changes them: a run that ended before the\n"
"first scan pass or before an adaptive policy's first threshold period, a\n"
"policy that scans but saw no hint fault, a trace shorter than a scan pass,\n"
"an accessed-bit policy whose footprint fits the TLB, a fast tier whose read\n"
"or write latency is above the slow tier's.\n"
"\n"
"Suites set their own workloads, policies and settings (their tables say\n"
"which); the options above override their settings, and -w, -t and -p are\n"
"refused with a suite.\n"
"\n"
"Exit status: 0 success, 1 simulation, I/O or out-of-memory failure, 2 bad\n"
"usage, bad input, an impossible configuration, or a warning with --strict.\n");
}
