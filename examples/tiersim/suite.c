// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim's built-in suites (--suite): several workloads under the main
 * policies, one set each, with their tables on stdout and their JSON, CSV
 * and SVG under --outdir. The results suite's items are in results.c.
 */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/*
 * The main policies. The mainline preset's 65536 MB/s never limits, so the
 * limiter variants are compared at 64 MB/s, where they do.
 */
#define MAIN_POLICIES \
	"none,promote-all,rfc2020,mainline,mainline-bypass-off," \
	"mainline:rate=64,token-bucket:rate=64," GOAL_POLICY ",oracle"


/*
 * The default suite: machines of 4 GiB (1 Mi pages) and 4 threads, run as
 * 1/16 scale models (--scale 16: each page and access of the stream stands
 * for 16) for 6-15 simulated seconds (12-15 s for the policies that adapt
 * the threshold). The hot-threshold controller's
 * period is scaled from 60 s to 2 s (--thresh-period-ms; the tables say
 * so), so the runs hold 5-7 of its periods.
 */
#define MACHINE4G(w) \
	.label = w, .workload = w, .pages = 1 << 16, .threads = 4, \
	.scale = 16, .thresh_period_ms = 2000, .rate_limit_mbps = -1, \
	.policies = MAIN_POLICIES

#define DISJOINT_POLICIES \
	"none,mainline,mainline:vma=pid,mainline:vma=disjoint," \
	"mainline:vma=mainline," GOAL_POLICY ",oracle"

static const struct item suite_default[] = {
	{ MACHINE4G("pmbench"), .accesses = 26000000 },
	{ MACHINE4G("zipf"), .accesses = 26000000 },
	{ MACHINE4G("gups-hotset"), .accesses = 20000000 },
	{ MACHINE4G("phase-shift"), .accesses = 26000000 },
	/* Redis: one thread, 8 GiB on CXL, 7 us a request. */
	{ .label = "cold-burst", .workload = "cold-burst", .pages = 2 << 20,
	  .accesses = 3000000, .policies = MAIN_POLICIES,
	  .thresh_period_ms = 2000, .rate_limit_mbps = -1 },
	/* The 2023 RFC's case: 8 threads, a 64 MiB and a 1 GiB VMA. */
	{ .label = "disjoint-vma", .workload = "disjoint-vma",
	  .pages = 17 << 8, .scale = 64, .accesses = 100000000,
	  .thresh_period_ms = 2000,
	  .policies = DISJOINT_POLICIES, .rate_limit_mbps = -1 },
};

/*
 * The results suite: results.c's items, then the default suite's again
 * with the policies past Linux 6.1 added (results61.c reads them).
 */
static const char *const past61_policies[] = {
	MAIN_POLICIES PAST61_POLICIES, DISJOINT_POLICIES PAST61_POLICIES,
};

/* CI: every workload kind of the claims, small; well under a minute. */
static const struct item suite_short[] = {
	{ .label = "pmbench", .workload = "pmbench", .pages = 1 << 14,
	  .threads = 4, .scale = 16, .thresh_period_ms = 2000,
	  .accesses = 3000000,
	  .policies = "none,rfc2020,mainline,token-bucket:rate=16,"
		      GOAL_POLICY ",oracle",
	  .rate_limit_mbps = -1 },
	{ .label = "phase-shift", .workload = "phase-shift", .pages = 1 << 14,
	  .threads = 4, .scale = 16, .accesses = 3000000,
	  .policies = "none,rfc2020,mainline,oracle",
	  .rate_limit_mbps = -1 },
	{ .label = "cold-burst", .workload = "cold-burst", .pages = 2 << 20,
	  .accesses = 400000,
	  .policies = "none,mainline,mainline-bypass-off,oracle",
	  .rate_limit_mbps = -1 },
	{ .label = "disjoint-vma", .workload = "disjoint-vma",
	  .pages = 17 << 8, .scale = 64, .accesses = 30000000,
	  .policies = "mainline:vma=pid,mainline:vma=disjoint",
	  .rate_limit_mbps = -1 },
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

/* The default items the results suite runs again at longer lengths. */
static const struct {
	const char *label;
	u32 factor;
} lengths[] = {
	{ "pmbench", 2 }, { "pmbench", 4 },
	{ "cold-burst", 2 }, { "cold-burst", 4 },
};

#define NR_LENGTHS	(sizeof(lengths) / sizeof(lengths[0]))

/* The seeds the results suite runs every default item with again. */
static const u64 seeds[] = { 2, 3, 4, 5 };

#define NR_SEEDS	(sizeof(seeds) / sizeof(seeds[0]))

static const struct item *default_item(const char *label)
{
	u32 i;

	for (i = 0; i < sizeof(suite_default) / sizeof(suite_default[0]); i++)
		if (!strcmp(suite_default[i].label, label))
			return &suite_default[i];
	return NULL;
}

/*
 * results.c's items, "past61-<label>" for each default item, then
 * "length-<label>-x<factor>" for each of lengths[], then
 * "seed-<label>-s<seed>" for each default item and seed of seeds[] (its
 * default policies): one allocation, the labels after the items.
 */
static struct item *results_suite(u32 *nr)
{
	const u32 nd = sizeof(suite_default) / sizeof(suite_default[0]);
	const u32 nl = nd + NR_LENGTHS + nd * NR_SEEDS;
	const u32 n = results_nr_items + nl;
	struct item *it = calloc(1, n * sizeof(*it) + nl * 48);
	char *label = (char *)(it + n);
	const struct item *d;
	struct item *x;
	u32 i, k;

	if (!it)
		return NULL;
	for (i = 0; i < results_nr_items; i++)
		it[i] = results_items[i];
	for (i = 0; i < nd; i++, label += 48) {
		it[results_nr_items + i] = suite_default[i];
		snprintf(label, 48, "%s%s", RESULTS61_PREFIX,
			 suite_default[i].label);
		it[results_nr_items + i].label = label;
		it[results_nr_items + i].policies =
			past61_policies[!strcmp(suite_default[i].policies,
						DISJOINT_POLICIES)];
	}
	for (i = 0; i < NR_LENGTHS; i++, label += 48) {
		d = default_item(lengths[i].label);
		if (!d)
			die(1, "results suite: no default item \"%s\"",
			    lengths[i].label);
		it[results_nr_items + nd + i] = *d;
		it[results_nr_items + nd + i].accesses *= lengths[i].factor;
		snprintf(label, 48, "%s%s-x%u", RESULTS_LEN_PREFIX, d->label,
			 lengths[i].factor);
		it[results_nr_items + nd + i].label = label;
	}
	x = &it[results_nr_items + nd + NR_LENGTHS];
	for (i = 0; i < nd; i++) {
		for (k = 0; k < NR_SEEDS; k++, x++, label += 48) {
			*x = suite_default[i];
			x->seed = seeds[k];
			snprintf(label, 48, "%s%s-s%llu", RESULTS_SEED_PREFIX,
				 suite_default[i].label,
				 (unsigned long long)seeds[k]);
			x->label = label;
		}
	}
	*nr = n;
	return it;
}

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

int run_suite(const struct opts *o)
{
	const struct suite *su = NULL;
	const struct item *items;
	struct item *all = NULL;
	const char *dir = o->outdir ? o->outdir : "build/run";
	struct set *sets;
	u32 i, nr, warned = 0;
	double t0 = now_s();

	for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		if (!strcmp(o->suite, suites[i].name))
			su = &suites[i];
	if (!su)
		die_usage("unknown suite \"%s\" (default, short, results)",
			  o->suite);
	if (o->workload || o->trace || o->have_policies)
		die_usage("--suite runs its own workloads and policies");
	items = su->items;
	nr = su->nr;
	if (!nr) {
		items = all = results_suite(&nr);
		if (!all)
			die(1, "out of memory");
	}
	if (mkdir_p(dir))
		die(EXIT_USAGE, "--outdir %s: %s", dir, strerror(errno));
	sets = calloc(nr, sizeof(*sets));
	if (!sets)
		die(1, "out of memory");
	for (i = 0; i < nr; i++)
		build_set(&sets[i], o, &items[i]);
	run_sets(sets, nr, o->jobs, progress_mode(o));
	for (i = 0; i < nr; i++) {
		if (!o->quiet)
			out_table(stdout, &sets[i].rs);
		warned += warn_set(stderr, &sets[i], o->strict);
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
	close_out(stdout, "-");	/* the tables' write error, if any */
	for (i = 0; i < nr; i++)
		free_set(&sets[i]);
	free(sets);
	free(all);
	return o->strict && warned ? EXIT_USAGE : 0;
}

