// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim's command line, read: the values of the options of opt_defs[]
 * (opts.c) checked against their ranges, and the errors, one line each
 * and "see tiersim --help", exit status 2.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OPT_MAX		OPTS_MAX_DEFS	/* rows of opt_defs[] */

const char *prog = "tiersim";

void die_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nsee %s --help\n", prog);
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

/* Close an output (stdout: flush it); a write error exits 1. */
void close_out(FILE *f, const char *path)
{
	if (f == stdout) {
		if (fflush(f) || ferror(f))
			die(1, "stdout: write error");
		return;
	}
	if (fclose(f))
		die(1, "%s: write error", path);
}

const char *opt_name(const struct opt_def *d)
{
	return d->name ? d->name : d->tab[d->field].name;
}

/* "1 to 4294967295", "above 0, up to 0.5", ... */
void opt_range(char *b, size_t n, const struct opt_def *d)
{
	if (d->kind != OPT_DBL || (d->tab == wl_opts &&
				   wl_opts[d->field].kind != FIELD_DBL)) {
		snprintf(b, n, "%llu to %llu", d->ilo, d->ihi);
		return;
	}
	if (isinf(d->hi))
		snprintf(b, n, "%s %g", d->flags & OPT_ABOVE ? "above" :
			 "at least", d->lo);
	else if (d->flags & (OPT_ABOVE | OPT_BELOW))
		snprintf(b, n, "%s %g, %s %g", d->flags & OPT_ABOVE ? "above" :
			 "from", d->lo, d->flags & OPT_BELOW ? "below" :
			 "up to", d->hi);
	else
		snprintf(b, n, "%g to %g", d->lo, d->hi);
}

/* @arg is out of @d's range: say so, and why 0 is not allowed. */
static void __attribute__((noreturn))
out_of_range(const struct opt_def *d, const char *arg, int large)
{
	char r[96];

	opt_range(r, sizeof(r), d);
	die_usage("--%s: %s is too %s (allowed: %s%s%s)", opt_name(d), arg,
		  large ? "large" : "small", r, d->why && !large &&
		  strtod(arg, NULL) == 0 ? "; " : "",
		  d->why && !large && strtod(arg, NULL) == 0 ? d->why : "");
}

unsigned long long parse_whole(const struct opt_def *d, const char *arg)
{
	unsigned long long v;
	const char *p = arg;
	char *end;

	while (*p == ' ')
		p++;
	if (*p == '-' && p[1] >= '0' && p[1] <= '9') {
		strtoull(p + 1, &end, 10);
		if (!*end)
			out_of_range(d, arg, 0);
	}
	if (*p < '0' || *p > '9')
		die_usage("--%s: \"%s\" is not a whole number", opt_name(d),
			  arg);
	errno = 0;
	v = strtoull(p, &end, 10);
	if (*end)
		die_usage("--%s: \"%s\" is not a whole number", opt_name(d),
			  arg);
	if (errno == ERANGE || v > d->ihi)
		out_of_range(d, arg, 1);
	if (v < d->ilo)
		out_of_range(d, arg, 0);
	return v;
}

static double parse_real(const struct opt_def *d, const char *arg)
{
	char r[96], *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (!*arg || *end || isnan(v) || end == arg)
		die_usage("--%s: \"%s\" is not a number", opt_name(d), arg);
	/* inf, or beyond a double (strtod() gives HUGE_VAL) */
	if (v > d->hi || (v == d->hi && d->flags & OPT_BELOW) ||
	    (errno == ERANGE && fabs(v) > 1) || (isinf(v) && v > 0))
		out_of_range(d, arg, 1);
	/* underflow: 1e-400 would be read as 0 (or a denormal) */
	if (errno == ERANGE && signbit(v) && d->lo >= 0)
		out_of_range(d, arg, 0);
	if (errno == ERANGE) {
		opt_range(r, sizeof(r), d);
		die_usage("--%s: %s is too small to tell from 0 (allowed: %s; "
			  "the least above 0 is %g)", opt_name(d), arg, r,
			  DBL_MIN);
	}
	if (v < d->lo || (v == d->lo && d->flags & OPT_ABOVE))
		out_of_range(d, arg, 0);
	return v;
}

/*
 * Where the unit of size @s starts (none, %, K, k, M or G, to the end),
 * after decimal digits and an optional fraction ("2048", "1.5M"), or NULL:
 * strtod() would take a sign, blanks, hexadecimal, an exponent, "inf" and
 * "nan", which no other count takes.
 */
static const char *size_unit(const char *s)
{
	if (*s < '0' || *s > '9')
		return NULL;
	while (*s >= '0' && *s <= '9')
		s++;
	if (*s == '.') {
		if (*++s < '0' || *s > '9')
			return NULL;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return !*s || (strchr("%KkMG", *s) && !s[1]) ? s : NULL;
}

void parse_size(const char *opt, const char *s, struct size_opt *o)
{
	const char *unit = size_unit(s);
	char *end;
	double v, pages;

	if (*s == '-' && size_unit(s + 1))
		die_usage("%s: %s is too small (allowed: 0 or more)", opt, s);
	if (!unit)
		die_usage("%s: \"%s\" is not a size (decimal pages, K/M/G "
			  "bytes, or N%%)", opt, s);
	/* digits only: beyond a double is the only error left */
	v = strtod(s, &end);
	if (end != unit || isinf(v))
		die_usage("%s: %s is too large (allowed: up to %llu pages, "
			  "4 PiB)", opt, s, WL_PAGE_MASK);
	o->set = 1;
	o->frac = 0;
	o->arg = s;
	if (!strcmp(end, "%")) {
		o->frac = v / 100;
		if (o->frac <= 0)
			o->pages = 0;
		return;
	}
	if (!*end)
		pages = v;
	else if (!strcmp(end, "K") || !strcmp(end, "k"))
		pages = v * 1024 / 4096;
	else if (!strcmp(end, "M"))
		pages = v * 256;
	else	/* "G" */
		pages = v * 262144;
	/* Checked before the conversion, which would wrap or be undefined. */
	if (pages >= (double)WL_PAGE_MASK + 1)
		die_usage("%s: %s is too large (allowed: up to %llu pages, "
			  "4 PiB)", opt, s, WL_PAGE_MASK);
	/* 5.5 or 6K (1.5 pages) was cut to 5 or 1 page, unsaid */
	if (pages != floor(pages))
		die_usage("%s: %s is not a whole number of pages (4 KiB "
			  "each)", opt, s);
	o->pages = (u64)pages;
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

/* Store the value of option @d. */
static void take(struct opts *o, const struct opt_def *d, const char *arg)
{
	char *p = (char *)o + d->off;

	switch (d->kind) {
	case OPT_FLAG:
		*(int *)p = 1;
		break;
	case OPT_INT:
		*(int *)p = (int)parse_whole(d, arg);
		break;
	case OPT_LL:
		*(long long *)p = (long long)parse_whole(d, arg);
		break;
	case OPT_U64:
		*(u64 *)p = parse_whole(d, arg);
		if (d->off == offsetof(struct opts, seed))
			o->seed_set = 1;
		break;
	case OPT_DBL:
		*(double *)p = d->tab == wl_opts &&
			       wl_opts[d->field].kind != FIELD_DBL ?
			       (double)parse_whole(d, arg) :
			       parse_real(d, arg);
		break;
	case OPT_STR:
		*(const char **)p = arg;
		break;
	default:
		d->fn(o, d, arg);
		break;
	}
}

/* Edit distance of @a and @b, at most 3 (enough to catch a typo). */
static int distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int row[64], prev, tmp;

	if (la >= 64 || lb >= 64)
		return 3;
	for (j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = (int)i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			row[j] = prev + (a[i - 1] != b[j - 1]);
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (tmp + 1 < row[j])
				row[j] = tmp + 1;
			prev = tmp;
		}
	}
	return row[lb] < 3 ? row[lb] : 3;
}

/*
 * A prefix of several options (getopt_long() takes a prefix of one, as
 * "--pag" for --pages): say which, not the closest name.
 */
static void ambiguous(const char *name)
{
	char list[512] = "";
	unsigned int i, n = 0;
	size_t len = strlen(name);

	if (!len)
		return;
	for (i = 0; i < nr_opt_defs; i++) {
		if (strncmp(opt_name(&opt_defs[i]), name, len))
			continue;
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s--%s", n++ ? ", " : "", opt_name(&opt_defs[i]));
	}
	if (n > 1)
		die_usage("ambiguous option \"--%s\", could be: %s", name, list);
}

/* An unknown option: name the closest known one, if one is close. */
static void __attribute__((noreturn)) unknown(const char *arg)
{
	char name[64];
	const char *best = NULL;
	int bd = 3, k;
	unsigned int i;

	if (arg[0] != '-' || arg[1] != '-')
		die_usage("unknown option \"%s\"", arg);
	snprintf(name, sizeof(name), "%s", arg + 2);
	name[strcspn(name, "=")] = 0;
	ambiguous(name);
	for (i = 0; i < nr_opt_defs; i++) {
		k = distance(name, opt_name(&opt_defs[i]));
		if (k < bd) {
			bd = k;
			best = opt_name(&opt_defs[i]);
		}
	}
	if (best)
		die_usage("unknown option \"--%s\" (did you mean --%s?)", name,
			  best);
	die_usage("unknown option \"--%s\"", name);
}

/*
 * The options that do not apply to the source: the generator's with a
 * trace, another workload's shape, the trace's without one. A suite's
 * items are several workloads: their shape options stay.
 */
static void check_source(const struct opts *o)
{
	const struct opt_def *d;
	unsigned int i;
	int kind;

	for (i = 0; i < nr_opt_defs; i++) {
		if (!o->given[i])
			continue;
		d = &opt_defs[i];
		if (o->trace && d->sec == SEC_WORKLOAD)
			die_usage("--%s does not apply to a trace (-t), only "
				  "to a generated workload (-w)", opt_name(d));
		/* --format, --lackey-instr */
		if (!o->trace && d->sec == SEC_SOURCE &&
		    strcmp(opt_name(d), "workload") &&
		    strcmp(opt_name(d), "trace"))
			die_usage("--%s needs a trace (-t)", opt_name(d));
		if (!o->trace && !o->suite && d->kinds) {
			kind = wl_kind_parse(o->workload ? o->workload :
					     "pmbench");
			if (kind >= 0 && !(d->kinds & (1U << kind)))
				die_usage("--%s does not apply to workload %s",
					  opt_name(d), wl_kind_name((u32)kind));
		}
	}
}

void parse_args(struct opts *o, int argc, char **argv)
{
	static struct option lo[OPT_MAX + 1];
	char shorts[2 * OPT_MAX + 2], *sp;
	const struct opt_def *d;
	unsigned int i;
	int c, idx;

	if (nr_opt_defs > OPT_MAX)
		die(1, "opt_defs[] holds more than %d options", OPT_MAX);
	sp = shorts;
	*sp++ = ':';
	for (i = 0; i < nr_opt_defs; i++) {
		d = &opt_defs[i];
		lo[i].name = opt_name(d);
		lo[i].has_arg = d->arg ? required_argument : no_argument;
		lo[i].flag = NULL;
		lo[i].val = 256 + (int)i;
		if (d->key) {
			*sp++ = (char)d->key;
			if (d->arg)
				*sp++ = ':';
		}
	}
	*sp = 0;
	memset(&lo[i], 0, sizeof(lo[i]));
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, lo, &idx)) != -1) {
		if (c == ':') {
			if (optopt >= 256)
				die_usage("--%s needs a value (%s)",
					  opt_name(&opt_defs[optopt - 256]),
					  opt_defs[optopt - 256].arg);
			die_usage("-%c needs a value", optopt);
		}
		if (c == '?') {
			if (optopt > 0 && optopt < 256)
				die_usage("unknown option \"-%c\"", optopt);
			if (optopt >= 256)
				die_usage("--%s takes no value (\"%s\")",
					  opt_name(&opt_defs[optopt - 256]),
					  argv[optind - 1]);
			unknown(argv[optind - 1]);
		}
		if (c >= 256) {
			d = &opt_defs[c - 256];
		} else {
			for (i = 0; opt_defs[i].key != c; i++)
				;
			d = &opt_defs[i];
		}
		/* a second value would silently replace the first */
		if (o->given[d - opt_defs] && d->key != 'p')
			die_usage("--%s is given twice (only -p takes several)",
				  opt_name(d));
		o->given[d - opt_defs] = 1;
		take(o, d, optarg);
	}
	if (optind < argc)
		die_usage("unexpected argument \"%s\"", argv[optind]);
	if (o->workload && o->trace)
		die_usage("--workload and --trace exclude each other");
	check_source(o);
}
