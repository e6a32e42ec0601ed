// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim's sets: one source (a workload or a trace) under several
 * policies, on one machine. A set is built from the workload's defaults
 * (wl_defaults(), wl_machine_defaults()), then a suite item's settings,
 * then the command line's options on top: the options override a suite's
 * settings field by field (the tables in opts.c).
 */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *const default_policies =
	"none,promote-all,rfc2020,mainline,mainline-bypass-off,oracle";

static void set_fail(struct set *s, const char *what, const char *err)
{
	die(EXIT_USAGE, "%s: %s", what ? what : s->label, err);
}

/*
 * One whole number of a --cpu-ns-file line ("@what NS") at *@p, named
 * @name, at most @hi: 0 and the value (*@p after it), or -1 with the
 * reason in @why.
 */
static int pair_field(const char **p, const char *name, unsigned long long hi,
		      unsigned long long *v, const char *what, char *why,
		      size_t n)
{
	const char *s = *p + strspn(*p, " \t\r"), *e, *more;
	char *end;
	int len;

	e = s + strcspn(s, " \t\r");
	/* A value is quoted up to 24 characters. */
	len = e - s > 24 ? 24 : (int)(e - s);
	more = e - s > 24 ? "..." : "";
	if (s == e) {
		snprintf(why, n, "%s missing (expected \"%s NS\")", name, what);
		return -1;
	}
	if (*s == '-' && s[1] >= '0' && s[1] <= '9' &&
	    s + 1 + strspn(s + 1, "0123456789") == e) {
		snprintf(why, n, "%s %.*s%s is too small (allowed: 0 to %llu)",
			 name, len, s, more, hi);
		return -1;
	}
	if (*s < '0' || *s > '9' || s + strspn(s, "0123456789") != e) {
		snprintf(why, n, "%s \"%.*s%s\" is not a whole number", name,
			 len, s, more);
		return -1;
	}
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno == ERANGE || *v > hi) {
		snprintf(why, n, "%s %.*s%s is too large (allowed: 0 to %llu)",
			 name, len, s, more, hi);
		return -1;
	}
	*p = e;
	return 0;
}

/*
 * --cpu-ns-file: "ACCESS NS" lines, the first column ascending and scaled
 * by @key_scale ('#' starts a comment), lines of any length. The arrays
 * live until exit.
 */
static void load_pairs(const char *path, u32 *nr, const u64 **key,
		       const u32 **val, u64 key_scale, const char *what)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, why[160];
	size_t lcap = 0;
	u64 *at = NULL;
	u32 *ns = NULL, n = 0, cap = 0;
	unsigned long long ln = 0;
	struct stat st;

	if (!f)
		die(EXIT_USAGE, "%s: %s", path, strerror(errno));
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode))
		die(EXIT_USAGE, "%s: %s", path, strerror(EISDIR));
	errno = 0;
	while (getline(&line, &lcap, f) >= 0) {
		unsigned long long a, v;
		const char *p = line;

		ln++;
		line[strcspn(line, "#\n")] = 0;
		if (!line[strspn(line, " \t\r")])
			continue;
		if (pair_field(&p, what, UINT64_MAX / key_scale, &a, what, why,
			       sizeof(why)) ||
		    pair_field(&p, "NS", UINT32_MAX, &v, what, why,
			       sizeof(why)))
			die(EXIT_USAGE, "%s:%llu: %s", path, ln, why);
		if (p[strspn(p, " \t\r")])
			die(EXIT_USAGE, "%s:%llu: garbage after \"%s NS\"",
			    path, ln, what);
		a *= key_scale;
		if (n && a <= at[n - 1])
			die(EXIT_USAGE, "%s:%llu: %s must ascend", path, ln,
			    what);
		if (n == UINT32_MAX)
			die(EXIT_USAGE, "%s:%llu: more than %u lines", path,
			    ln, UINT32_MAX);
		if (n == cap) {
			cap = cap ? (cap > UINT32_MAX / 2 ? UINT32_MAX :
				     2 * cap) : 256;
			at = realloc(at, cap * sizeof(*at));
			ns = realloc(ns, cap * sizeof(*ns));
			if (!at || !ns)
				die(1, "out of memory");
		}
		at[n] = a;
		ns[n] = (u32)v;
		n++;
	}
	if (ferror(f))
		die(EXIT_USAGE, "%s: %s", path, strerror(errno ? errno : EIO));
	free(line);
	fclose(f);
	if (!n)
		die(EXIT_USAGE, "%s: no \"%s NS\" line", path, what);
	*nr = n;
	*key = at;
	*val = ns;
}

/* The progress line while a trace is read. */
struct read_progress {
	struct progress pr;
	const char *path;
	u64 bytes;
};

static void read_progress(void *arg, u64 done, u64 total)
{
	struct read_progress *rp = arg;
	double el = progress_elapsed(&rp->pr), mb = (double)done / 1e6;
	const char *name = strrchr(rp->path, '/');

	name = name ? name + 1 : rp->path;
	rp->bytes = done;
	if (total)
		progress_update(&rp->pr, (double)done / (double)total,
				"reading %.24s: %.0f %% of %.0f MB, %.0f MB/s",
				name, 100.0 * (double)done / (double)total,
				(double)total / 1e6, el > 0 ? mb / el : 0.0);
	else
		progress_update(&rp->pr, -1, "reading %.24s: %.0f MB, %.0f MB/s",
				name, mb, el > 0 ? mb / el : 0.0);
}

/* Whether @c with a fast tier of @fast pages and watermarks @w fits @src. */
static int fits(const struct sim_cfg *c, const struct sim_src *src,
		u64 fast, const u64 w[4])
{
	struct sim_cfg t = *c;
	char err[SIM_ERRLEN];

	t.fast_pages = fast;
	memcpy(t.wmark, w, sizeof(t.wmark));
	return !sim_validate(&t, src, err, sizeof(err));
}

/* The smallest fast tier from @from pages up to the footprint that fits. */
static u64 smallest_fast(const struct sim_cfg *c, const struct sim_src *src,
			 u64 from, const u64 w[4])
{
	u64 lo = from ? from : 1, hi = src->pages - 1;

	if (src->pages < 2 || lo > hi || !fits(c, src, hi, w))
		return 0;
	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;

		if (fits(c, src, mid, w))
			hi = mid;
		else
			lo = mid + 1;
	}
	return fits(c, src, lo, w) ? lo : 0;
}

/*
 * Whether @c fails sim_validate() on the capacities and watermarks alone:
 * with a fast tier that holds everything and small watermarks it would
 * pass. Otherwise (--thp on a trace, --scale on one, ...) the footprint is
 * not the problem, and fit_hint() has nothing to say.
 */
static int capacity_error(const struct sim_cfg *c, const struct sim_src *src)
{
	static const u64 small[4] = { 1, 2, 3, 4 };
	struct sim_cfg t = *c;
	char err[SIM_ERRLEN];

	t.fast_pages = (src->pages > 4096 ? src->pages : 4096) * 2;
	t.slow_pages = src->pages ? src->pages : 1;
	t.allow_no_pressure = 1;
	memcpy(t.wmark, small, sizeof(t.wmark));
	return !sim_validate(&t, src, err, sizeof(err));
}

/*
 * The defaults do not fit a small source (a fast tier of 25 % of a few
 * pages has none; Linux's watermarks, at least 128 KiB, do not fit under
 * it): add to @err the options that do, each checked with sim_validate():
 * a larger --fast, or small watermarks and the --fast they need.
 */
static void fit_hint(const struct sim_cfg *c, const struct sim_src *src,
		     char *err, size_t errlen)
{
	static const u64 computed[4], small[4] = { 1, 2, 3, 4 };
	static const u64 tiny[4] = { 0, 0, 1, 1 };
	size_t n = strlen(err);
	u64 f;

	f = smallest_fast(c, src, c->fast_pages, computed);
	if (fits(c, src, c->fast_pages, small)) {
		n += (size_t)snprintf(err + n, errlen - n, "; a footprint of "
				      "%llu pages fits --wmark 1,2,3,4",
				      (unsigned long long)src->pages);
		if (f && n < errlen)
			snprintf(err + n, errlen - n, ", or --fast %llu with "
				 "Linux's watermarks", (unsigned long long)f);
		return;
	}
	if (f) {
		snprintf(err + n, errlen - n, "; a footprint of %llu pages "
			 "fits --fast %llu", (unsigned long long)src->pages,
			 (unsigned long long)f);
		return;
	}
	f = smallest_fast(c, src, c->fast_pages, small);
	if (f) {
		snprintf(err + n, errlen - n, "; a footprint of %llu pages "
			 "fits --fast %llu --wmark 1,2,3,4",
			 (unsigned long long)src->pages, (unsigned long long)f);
		return;
	}
	/* a few pages: the smallest watermarks that leave room to promote */
	f = smallest_fast(c, src, c->fast_pages, tiny);
	if (f)
		snprintf(err + n, errlen - n, "; a footprint of %llu pages "
			 "fits --fast %llu --wmark 0,0,1,1",
			 (unsigned long long)src->pages, (unsigned long long)f);
	else
		snprintf(err + n, errlen - n, "; a footprint of %llu page%s is "
			 "too small for two tiers",
			 (unsigned long long)src->pages,
			 src->pages == 1 ? "" : "s");
}

/*
 * Whether the slow tier is one sim_validate() refuses: none at all, or too
 * small to hold the footprint beside the fast tier.
 */
static int slow_short(const struct sim_cfg *c, const struct sim_src *src)
{
	return !c->slow_pages || c->fast_pages + c->slow_pages < src->pages;
}

/*
 * The slow tier --slow @arg gave is too small (slow_short()): add to @err
 * the option and the smallest --slow that holds the footprint beside the
 * fast tier, and set @t's slow tier to it. With it @t passes
 * sim_validate(), and leaving --slow out is said to do as well, or @t is
 * refused for something else (a fast tier of none), which fit_hint() can
 * then fit. (fit_hint() alone made the fast tier larger, or called the
 * footprint too small for two tiers.)
 */
static void slow_hint(struct sim_cfg *t, const struct sim_src *src,
		      const char *arg, char *err, size_t errlen)
{
	struct sim_cfg v;
	char e[SIM_ERRLEN];
	size_t n = strlen(err);
	u64 need = src->pages > t->fast_pages ? src->pages - t->fast_pages : 1;

	t->slow_pages = need;
	v = *t;
	snprintf(err + n, errlen - n, "; --slow %s is too small: beside a fast "
		 "tier of %llu pages, a footprint of %llu pages needs --slow "
		 "%llu or more%s", arg, (unsigned long long)t->fast_pages,
		 (unsigned long long)src->pages, (unsigned long long)need,
		 sim_validate(&v, src, e, sizeof(e)) ? "" :
		 " (or no --slow: the whole footprint)");
}

/* Set the field @f describes in @base to @v. */
static void set_field(void *base, const struct field_opt *f, double v)
{
	char *p = (char *)base + f->off;

	switch (f->kind) {
	case FIELD_U32:
		*(u32 *)p = (u32)v;
		break;
	case FIELD_S64:
		*(s64 *)p = (s64)v;
		break;
	case FIELD_U64:
		*(u64 *)p = (u64)v;
		break;
	default:
		*(double *)p = v;
		break;
	}
}

/*
 * cold-burst's burst is cold keys outside the hot set: name the option,
 * its value and the range the footprint allows (wl_init() says it only
 * in the generator's words).
 */
static void check_burst(const struct wl_params *p, int given)
{
	u64 hot = wl_hot_pages(p), room;

	room = p->pages > hot ? p->pages - hot : 0;
	if (p->burst_pages && p->burst_pages <= room)
		return;
	if (!room)
		die_usage("cold-burst: --pages %llu leaves no page outside the "
			  "hot set for the burst", (unsigned long long)p->pages);
	die_usage("cold-burst: --burst-pages %llu%s is too large for --pages "
		  "%llu (allowed: 1 to %llu, the pages outside the hot set of "
		  "%llu)", (unsigned long long)p->burst_pages,
		  given ? "" : " (the default)", (unsigned long long)p->pages,
		  (unsigned long long)room, (unsigned long long)hot);
}

/* The workload: its defaults, the suite item's shape, the options. */
static void build_workload(struct set *s, const struct opts *o,
			   const struct item *it, struct wl_machine *m)
{
	const char *wname = it ? it->workload : o->workload;
	char err[SIM_ERRLEN] = "";
	int kind = wl_kind_parse(wname ? wname : "pmbench"), i, rc;

	wl_defaults(&s->wp, (u32)kind);
	wl_machine_defaults((u32)kind, m);
	s->wp.seed = it && it->seed ? it->seed : o->seed;
	if (it && it->pages)
		s->wp.pages = it->pages;
	if (it && it->accesses)
		s->wp.accesses = it->accesses;
	if (it && it->hot_frac > 0)
		s->wp.hot_frac = it->hot_frac;
	if (it && it->hot_prob > 0)
		s->wp.hot_prob = it->hot_prob;
	if (it && it->threads)
		s->wp.threads = it->threads;
	if (o->pages)
		s->wp.pages = o->pages;
	if (o->accesses)
		s->wp.accesses = o->accesses;
	if (o->no_init)
		s->wp.init = 0;
	for (i = 0; i < W_NR; i++)
		if (o->wl[i] >= 0)
			set_field(&s->wp, &wl_opts[i], o->wl[i]);
	if (kind == WL_COLD_BURST)
		check_burst(&s->wp, o->wl[W_BURST] >= 0);
	rc = wl_init(&s->wl, &s->wp, err, sizeof(err));
	/* a resource failure (exit 1), not bad usage */
	if (rc == -ENOMEM)
		die(1, "workload %s: %s", wl_kind_name(kind), err);
	if (rc)
		die_usage("workload %s: %s", wl_kind_name(kind), err);
	s->has_wl = 1;
	if (sim_src_workload(&s->src, &s->wl))
		die(1, "out of memory");
	snprintf(s->label, sizeof(s->label), "%s",
		 it && it->label ? it->label : wl_kind_name(kind));
}

/* A policy list with an empty entry ("mainline,", "none,,oracle"). */
static void check_list(const char *list)
{
	const char *p = list, *q;

	if (!list[strspn(list, " \t")])
		return;		/* "no policy named" */
	for (;;) {
		q = p + strspn(p, " \t");
		if (!*q || *q == ',')
			die_usage("-p \"%s\": an empty entry in the list (a "
				  "comma at an end, or two in a row)", list);
		p = strchr(q, ',');
		if (!p)
			return;
		p++;
	}
}

/* @frac of a footprint of @pages, as a tier's pages; exits 2 on too many. */
static u64 frac_pages(const char *opt, double frac, u64 pages)
{
	double v = frac * (double)pages;

	if (v >= (double)WL_PAGE_MASK + 1)
		die_usage("%s: %g%% of a footprint of %llu pages is too large "
			  "(allowed: up to %llu pages, 4 PiB)", opt, frac * 100,
			  (unsigned long long)pages, WL_PAGE_MASK);
	return (u64)v;
}

/* Build one set from the options and an optional suite item. */
void build_set(struct set *s, const struct opts *o, const struct item *it)
{
	struct sim_cfg *c = &s->cfg;
	const char *pols;
	char err[SIM_ERRLEN] = "", buf[4096], *tok, *save;
	const char *names[SIM_MAX_POLICIES];
	struct size_opt fast = o->fast, slow = o->slow;
	struct wl_machine m;
	u32 j;
	int i;

	memset(s, 0, sizeof(*s));
	sim_cfg_defaults(c);
	if (!o->trace || it) {
		build_workload(s, o, it, &m);
	} else {
		struct read_progress rp = { .path = o->trace };

		progress_begin(&rp.pr, progress_mode(o));
		if (trace_open_progress(&s->tr, o->trace, o->format, o->instr,
					read_progress, &rp, err, sizeof(err)))
			die(EXIT_USAGE, "%s", err);
		progress_end(&rp.pr, "read %s: %.1f MB in %.1f s", o->trace,
			     (double)rp.bytes / 1e6,
			     progress_elapsed(&rp.pr));
		if (o->instr && s->tr.format != TRACE_LACKEY)
			die_usage("%s: --lackey-instr needs a lackey trace "
				  "(this is tiersim's format: no instruction "
				  "fetches)", o->trace);
		if (s->tr.has_time && (o->cost[C_CPU] >= 0 || o->cpu_file))
			die_usage("%s: %s does not apply to a trace with "
				  "timestamps (the gap between them is the "
				  "CPU time)", o->trace, o->cpu_file ?
				  "--cpu-ns-file" : "--cpu-ns");
		s->has_tr = 1;
		if (sim_src_trace(&s->src, &s->tr))
			die(1, "out of memory");
		snprintf(s->label, sizeof(s->label), "%s", o->trace);
		wl_machine_defaults(WL_NR_KINDS, &m);
	}

	/* The machine: the workload's, the suite item's, the options. */
	c->costs = *sim_profile(it && it->profile ? it->profile :
				o->profile ? o->profile : m.profile);
	c->init_fast = m.init_fast;
	if (it && it->cpu_ns)
		c->costs.cpu_ns = it->cpu_ns;
	if (it && it->mlp)
		c->costs.mlp = it->mlp;
	for (i = 0; i < C_NR; i++)
		if (o->cost[i] >= 0)
			set_field(&c->costs, &cost_opts[i], (double)o->cost[i]);
	if (it && it->fast)
		parse_size("suite --fast", it->fast, &fast);
	if (!fast.set) {
		fast.set = 1;
		fast.frac = m.fast_frac;
	}
	c->fast_pages = fast.frac > 0 ?
			frac_pages("--fast", fast.frac, s->src.pages) :
			fast.pages;
	c->slow_pages = slow.set ? (slow.frac > 0 ?
				    frac_pages("--slow", slow.frac,
					       s->src.pages) :
				    slow.pages) : s->src.pages;
	memcpy(c->wmark, o->wmark, sizeof(c->wmark));
	c->thp = o->thp;

	/* The kernel's settings: the suite item's, then the options. */
	if (it && it->scan_size_mb)
		c->scan_size_mb = it->scan_size_mb;
	if (it && it->scan_period_min_ms)
		c->scan_period_min_ms = it->scan_period_min_ms;
	if (it && it->scan_period_max_ms > 0)
		c->scan_period_max_ms = (u32)it->scan_period_max_ms;
	if (it && it->rate_limit_mbps >= 0)
		c->rate_limit_mbps = it->rate_limit_mbps;
	if (it && it->thresh_period_ms)
		c->thresh_period_ms = it->thresh_period_ms;
	for (i = 0; i < K_NR; i++)
		if (o->kern[i] >= 0)
			set_field(c, &kern_opts[i], (double)o->kern[i]);
	if (o->init_fast >= 0)
		c->init_fast = o->init_fast;
	if (o->sample_ms >= 0)
		c->sample_ms = (u32)o->sample_ms;
	if (o->pingpong_ms >= 0)
		c->pingpong_ms = (u32)o->pingpong_ms;
	c->allow_no_pressure = o->allow_no_pressure;
	if (o->cpu_file)
		load_pairs(o->cpu_file, &c->nr_cpu, &c->cpu_at, &c->cpu_ns, 1,
			   "ACCESS");
	/* --cpu-ns is the time of the accesses before the profile's first */
	if (o->cost[C_CPU] >= 0 && c->nr_cpu && !c->cpu_at[0])
		die_usage("%s: --cpu-ns does nothing with a --cpu-ns-file "
			  "profile from access 0 (its first line sets the CPU "
			  "time of every access)", o->cpu_file);

	if (o->lru_two_list >= 0)
		c->lru_two_list = o->lru_two_list;
	if (o->kswapd_rounds >= 0)
		c->kswapd_rounds = o->kswapd_rounds;
	if (o->serial_clock >= 0)
		c->serial_clock = o->serial_clock;
	/*
	 * One thread's clock is the same either way (a suite's items vary),
	 * and a trace, whatever its thread ids, runs as one thread.
	 */
	if (o->serial_clock > 0 && !it && s->has_tr)
		die_usage("%s: --clock serial does nothing with a trace (it "
			  "is one stream in its recorded order, whatever its "
			  "thread ids)", s->label);
	if (o->serial_clock > 0 && !it && s->src.nr_threads < 2)
		die_usage("%s: --clock serial does nothing with one thread "
			  "(--threads 2 or more share a clock)", s->label);
	if (o->tlb_entries >= 0)
		c->tlb_entries = (u32)o->tlb_entries;
	if (it && it->scale)
		c->scale = it->scale;
	if (o->scale >= 0)
		c->scale = (u32)o->scale;
	if (sim_validate(c, &s->src, err, sizeof(err))) {
		struct sim_cfg t = *c, v;
		char e[SIM_ERRLEN];

		/* the options' watermarks: sim_validate() computes them in @c */
		memcpy(t.wmark, o->wmark, sizeof(t.wmark));
		if (slow.set && slow_short(c, &s->src))
			slow_hint(&t, &s->src, slow.arg, err, sizeof(err));
		v = t;
		if (!o->fast.set && !(it && it->fast) && !o->wmark[0] &&
		    !o->wmark[1] && !o->wmark[2] && !o->wmark[3] &&
		    sim_validate(&v, &s->src, e, sizeof(e)) &&
		    capacity_error(&t, &s->src))
			fit_hint(&t, &s->src, err, sizeof(err));
		set_fail(s, NULL, err);
	}

	pols = it ? it->policies : o->have_policies ? o->policies :
	       default_policies;
	snprintf(buf, sizeof(buf), "%s", pols);
	check_list(buf);
	/* commas, and blanks as in --help's "none, mainline" */
	for (tok = strtok_r(buf, ", \t", &save); tok;
	     tok = strtok_r(NULL, ", \t", &save)) {
		struct sim_policy *p = &s->pol[s->nr_pol];

		if (s->nr_pol == SIM_MAX_POLICIES)
			die_usage("at most %d policies", SIM_MAX_POLICIES);
		/* two runs of one spec under one name: the same numbers */
		for (j = 0; j < s->nr_pol; j++)
			if (!strcmp(names[j], tok))
				die_usage("-p \"%s\": %s is named twice (its "
					  "runs would be the same)", pols, tok);
		names[s->nr_pol] = tok;
		if (sim_policy_parse(tok, p, err, sizeof(err)))
			die_usage("%s", err);
		if (sim_policy_finalize(p, c, err, sizeof(err)))
			die(EXIT_USAGE, "%s", err);
		/* ... or under two (an alias, a number spelt two ways) */
		for (j = 0; j < s->nr_pol; j++)
			if (sim_policy_same(&s->pol[j], p))
				die_usage("-p \"%s\": %s and %s are the same "
					  "policy (their runs would be the "
					  "same)", pols, names[j], tok);
		if (p->oracle && !s->src.oracle_count) {
			struct progress pn;

			progress_begin(&pn, progress_mode(o));
			if (s->has_wl)
				progress_note(&pn, "%s: counting the accesses "
					      "for the oracle", s->label);
			if (sim_src_count(&s->src, err, sizeof(err)))
				die(1, "%s", err);
			progress_clear(&pn);
		}
		s->nr_pol++;
	}
	if (!s->nr_pol)
		die_usage("no policy named");
	s->rs.title = s->label;
	s->rs.cfg = c;
	s->rs.src = &s->src;
	s->rs.wp = s->has_wl ? &s->wp : NULL;
	s->rs.seed = it && it->seed ? it->seed : o->seed;
	s->rs.nr = s->nr_pol;
	s->rs.res = calloc(s->nr_pol, sizeof(*s->rs.res));
	if (!s->rs.res)
		die(1, "out of memory");
}

void free_set(struct set *s)
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

