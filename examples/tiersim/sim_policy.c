// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim policy specs: a named base, then switches and settings.
 *
 *	BASE { +SWITCH | -SWITCH } { :KEY=VALUE }
 *
 * (switches before keys: a value may hold '-', as "window-rfc2020")
 *
 * e.g. "mainline", "rfc2020-p6", "mainline-bypass-off", "mainline+young",
 * "rfc2020:lat=atime:rate=64", "mainline:vma=disjoint". Every combination of the
 * tierpol policy API (preset, TP_POL_* switches, variants, rate, threshold,
 * period, burst) and of the simulator's choices (latency source, VMA
 * filter, demotion) can be named. The bases and what they set are in
 * sim_preset.c.
 */
#include "sim.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SW_SCAN_TOP	0x10000U	/* mode |= NORMAL: scan the top tier */

struct sw {
	const char *name;
	u32 bit;
};

static const struct sw switches[] = {
	{ "hotness", TP_POL_HOTNESS },
	{ "bypass", TP_POL_FREE_BYPASS },
	{ "young", TP_POL_YOUNG },
	{ "write-double", TP_POL_WRITE_DOUBLE },
	{ "adaptive", TP_POL_ADAPTIVE },
	{ "hot-strict", TP_POL_HOT_STRICT },
	{ "rl-wmark", TP_POL_RL_WMARK_DEFAULT },
	{ "bypass-reset", TP_POL_BYPASS_RESET },
	{ "scan-top", SW_SCAN_TOP },
};

/* The numeric keys: their range, unit, and why 0 is refused. */
static const struct {
	const char *key;
	u32 lo, hi;
	const char *unit;
	const char *why;
} num_keys[] = {
	/* TP_RATE_MAX 4 KiB pages a second, in MB/s */
	{ "rate", 0, (u32)(TP_RATE_MAX >> 8), " MB/s", NULL },
	{ "hot", 1, UINT32_MAX, " ms",
	  "0 is the sysctl's threshold of 0, which only a latency of 0 "
	  "meets" },
	{ "period", 1, UINT32_MAX, " ms",
	  "0 would close a threshold period at every tick" },
	{ "burst", 0, UINT32_MAX, " pages", NULL },
	{ "mode", 0, TP_MODE_NORMAL | TP_MODE_TIERING, "", NULL },
	{ "demote", 0, 1, "", NULL },
	{ "hot-faults", 1, UINT32_MAX, " faults",
	  "0 would select the default of 1000000" },
	{ "target", 1, 10000, " parts per 10000", NULL },
	{ "ctl", 1, UINT32_MAX, " ms", "the control period cannot be 0" },
	{ "rate-min", 1, (u32)(TP_RATE_MAX >> 8), " MB/s",
	  "the goal controller's output is at least 1" },
	{ "rate-max", 1, (u32)(TP_RATE_MAX >> 8), " MB/s",
	  "the goal controller's output is at least 1" },
	{ "freq", 1, 7, " accesses", "0 would select the default of 2" },
	{ "window", 1, 16000, " ms", "0 would select the default of 3000 ms" },
	{ "abit", 1, UINT32_MAX, " ms", "the scanner's period cannot be 0" },
	{ "room-record", 0, 1, "", NULL },
	{ "promo-max", 0, UINT32_MAX, " pages", NULL },
};

/*
 * @val of key @k: 0 and the number, or -1 with the reason ("rate=X is too
 * large (allowed: 0 to 16777216 MB/s)").
 */
static int parse_key_num(unsigned int k, const char *val, u32 *out,
			 char *err, size_t errlen)
{
	const char *key = num_keys[k].key;
	unsigned long long v;
	char *end;
	int neg = *val == '-';

	errno = 0;
	v = strtoull(val + neg, &end, 10);
	if (val[neg] < '0' || val[neg] > '9' || *end) {
		snprintf(err, errlen, "%s=%s is not a whole number", key, val);
		return -1;
	}
	if (!neg && errno != ERANGE && v >= num_keys[k].lo &&
	    v <= num_keys[k].hi) {
		*out = (u32)v;
		return 0;
	}
	snprintf(err, errlen, "%s=%s is too %s (allowed: %u to %u%s%s%s)", key,
		 val, neg || v < num_keys[k].lo ? "small" : "large",
		 num_keys[k].lo, num_keys[k].hi, num_keys[k].unit,
		 !neg && !v && num_keys[k].why ? "; " : "",
		 !neg && !v && num_keys[k].why ? num_keys[k].why : "");
	return -1;
}


static int set_key(struct sim_policy *p, const char *key, const char *val,
		   char *err, size_t errlen)
{
	struct tp_policy_cfg *c = &p->cfg;
	unsigned int k;
	u32 v;

	for (k = 0; k < sizeof(num_keys) / sizeof(num_keys[0]); k++)
		if (!strcmp(key, num_keys[k].key))
			break;
	if (k < sizeof(num_keys) / sizeof(num_keys[0])) {
		if (parse_key_num(k, val, &v, err, errlen))
			return -1;
		if (!strcmp(key, "rate")) {
			c->rate_limit_mbps = v;
			p->set |= SPEC_RATE;
		} else if (!strcmp(key, "hot")) {
			c->hot_threshold_ms = v;
			p->set |= SPEC_HOT;
		} else if (!strcmp(key, "period")) {
			c->scan_period_max_ms = v;
			p->set |= SPEC_PERIOD;
		} else if (!strcmp(key, "burst")) {
			c->burst_pages = v;
		} else if (!strcmp(key, "mode")) {
			c->mode = v;
		} else if (!strcmp(key, "demote")) {
			p->demote = !!v;
		} else if (!strcmp(key, "hot-faults")) {
			c->hot_threshold_faults = v;
		} else if (!strcmp(key, "target")) {
			p->goal.target = v;
		} else if (!strcmp(key, "ctl")) {
			p->goal.ctl_ms = v;
		} else if (!strcmp(key, "rate-min")) {
			p->goal.rate_min = v;
		} else if (!strcmp(key, "rate-max")) {
			p->goal.rate_max = v;
		} else if (!strcmp(key, "freq")) {
			p->hot.freq = v;
		} else if (!strcmp(key, "window")) {
			p->hot.window_ms = v;
		} else if (!strcmp(key, "room-record")) {
			p->hot.room = (int)v;
		} else if (!strcmp(key, "promo-max")) {
			p->hot.promo_max = v;
		} else {
			p->hot.abit_ms = v;
		}
		return 0;
	}
	if (!strcmp(key, "migrate")) {
		if (!strcmp(val, "fault"))
			p->migrate = MIG_FAULT;
		else if (!strcmp(val, "kmigrated"))
			p->migrate = MIG_KMIGRATED;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "goal")) {
		static const char *const names[] = {
			[GOAL_NONE] = "none", [GOAL_USED] = "used",
			[GOAL_FREE] = "free", [GOAL_PINGPONG] = "pingpong",
		};

		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (!strcmp(val, names[k]))
				break;
		if (k == sizeof(names) / sizeof(names[0]))
			goto bad;
		p->goal.metric = (int)k;
		return 0;
	}
	if (!strcmp(key, "feedback")) {
		if (!strcmp(val, "tierpol"))
			p->damon.feedback = DAMON_FB_TIERPOL;
		else if (!strcmp(val, "damos"))
			p->damon.feedback = DAMON_FB_DAMOS;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "quota-start")) {
		if (!strcmp(val, "cap"))
			p->damon.start_min = 0;
		else if (!strcmp(val, "min"))
			p->damon.start_min = 1;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "goal-out")) {
		if (!strcmp(val, "rate"))
			p->goal.out = GOAL_OUT_RATE;
		else if (!strcmp(val, "threshold"))
			p->goal.out = GOAL_OUT_THRESHOLD;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "record")) {
		if (!strcmp(val, "none"))
			p->hot.record = REC_NONE;
		else if (!strcmp(val, "byte"))
			p->hot.record = REC_BYTE;
		else if (!strcmp(val, "precise"))
			p->hot.record = REC_PRECISE;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "src")) {
		if (!strcmp(val, "hint"))
			p->hot.sources = SRC_HINT;
		else if (!strcmp(val, "abit"))
			p->hot.sources = SRC_ABIT;
		else if (!strcmp(val, "both"))
			p->hot.sources = SRC_HINT | SRC_ABIT;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "limiter")) {
		if (!strcmp(val, "bucket"))
			c->limiter_variant = TP_LIMITER_BUCKET;
		else if (!strcmp(val, "window-rfc2020"))
			c->limiter_variant = TP_LIMITER_WINDOW_RFC2020;
		else if (!strcmp(val, "window-mainline"))
			c->limiter_variant = TP_LIMITER_WINDOW_LINUX61;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "thresh") && !strcmp(val, "histogram")) {
		c->thresh_variant = TP_THRESH_HISTOGRAM;
		return 0;
	}
	if (!strcmp(key, "thresh") || !strcmp(key, "wmark")) {
		if (strcmp(val, "rfc2020") && strcmp(val, "mainline"))
			goto bad;
		v = !strcmp(val, "mainline");
		if (!strcmp(key, "thresh"))
			c->thresh_variant = v ? TP_THRESH_LINUX61 :
					    TP_THRESH_RFC2020;
		else
			c->wmark_variant = v ? TP_WMARK_LINUX61 :
					   TP_WMARK_RFC2020;
		return 0;
	}
	if (!strcmp(key, "lat")) {
		if (!strcmp(val, "ring"))
			p->lat_src = LAT_RING;
		else if (!strcmp(val, "atime"))
			p->lat_src = LAT_ATIME;
		else if (!strcmp(val, "faults"))
			p->lat_src = LAT_FAULTS;
		else
			goto bad;
		if (p->lat_src == LAT_FAULTS)
			c->flags |= TP_POL_LAT_FAULTS;
		else
			c->flags &= ~TP_POL_LAT_FAULTS;
		return 0;
	}
	if (!strcmp(key, "vma")) {
		if (!strcmp(val, "none"))
			p->vma_filter = VMAF_NONE;
		else if (!strcmp(val, "disjoint"))
			p->vma_filter = VMAF_DISJOINT;
		else if (!strcmp(val, "mainline"))
			p->vma_filter = VMAF_MAINLINE;
		else if (!strcmp(val, "pid"))
			p->vma_filter = VMAF_PID;
		else
			goto bad;
		return 0;
	}
	snprintf(err, errlen, "unknown key \"%s\"", key);
	return -1;
bad:
	snprintf(err, errlen, "%s=%s: unknown value", key, val);
	return -1;
}

/*
 * The length of the longest switch name at @s that ends there or at one
 * of @ends, 0 if none: a switch name may contain '-'. The switch in *@sw
 * if @sw is not NULL.
 */
static size_t switch_at(const char *s, const char *ends,
			const struct sw **sw)
{
	size_t len, best = 0;
	unsigned int i;

	for (i = 0; i < sizeof(switches) / sizeof(switches[0]); i++) {
		len = strlen(switches[i].name);
		if (!strncmp(s, switches[i].name, len) &&
		    (!s[len] || strchr(ends, s[len])) && len > best) {
			best = len;
			if (sw)
				*sw = &switches[i];
		}
	}
	return best;
}

/*
 * The keys that set NUMA balancing's tierpol policy: with NUMA balancing
 * off (none, oracle, damon, or mode=0) nothing reads them.
 */
static int nb_key(const char *key, size_t n, int goal)
{
	static const char *const keys[] = {
		"rate", "hot", "period", "burst", "hot-faults", "limiter",
		"thresh", "wmark", "lat", "vma",
		/*
		 * Not for damon, which refuses them with reasons of its own.
		 * The goal controller's: it retunes NUMA balancing's limit.
		 * The hotness record's and kmigrated's: what a source records
		 * and kmigrated moves, tierpol first admits (or, mode=0,
		 * refuses every page). kswapd's demotion: nothing wakes it.
		 */
		"goal", "target", "ctl", "rate-min", "rate-max", "goal-out",
		"record", "src", "freq", "window", "abit", "room-record",
		"migrate", "demote",
	};
	unsigned int i, nr = sizeof(keys) / sizeof(keys[0]) - (goal ? 0 : 14);

	for (i = 0; i < nr; i++)
		if (strlen(keys[i]) == n && !strncmp(key, keys[i], n))
			return 1;
	return 0;
}

/*
 * A switch or NUMA-balancing key (@mod, the first in the spec) on a policy
 * with NUMA balancing off would be ignored, and the row would be the plain
 * base's: refuse it.
 */
static int check_off(const struct sim_policy *p, const char *base,
		     const char *mod, char *err, size_t errlen)
{
	size_t n;

	if (!mod || p->cfg.mode != TP_MODE_DISABLED)
		return 0;
	if (*mod == ':')
		n = strcspn(mod + 1, ":");
	else
		n = switch_at(mod + 1, "+-:", NULL) + 1;	/* and the '+' or '-' */
	snprintf(err, errlen, "policy \"%s\": %.*s does nothing with NUMA "
		 "balancing off (%s%s): no scanning, no hint faults", p->name,
		 (int)n, *mod == ':' ? mod + 1 : mod,
		 strcmp(base, "none") && strcmp(base, "oracle") &&
		 strcmp(base, "damon") ? "mode=0 of " : "base ", base);
	return -1;
}

/*
 * The keys that only tiering mode reads: with mode=1 (NUMA balancing's
 * scanning without TP_MODE_TIERING) tp_decide() refuses every hint fault
 * (TP_REFUSE_MODE) before it reads a setting, tp_demotion_target() answers
 * the high watermark, and kthread_setup() starts no goal controller,
 * hotness record, accessed-bit scanner or kmigrated. The scanner still
 * runs: vma=, demote= (the allocator's kswapd wakeup) and mode= are read;
 * feedback= and quota-start= are damon's (check_needs() says so). Every
 * other key set_key() takes is tiering's.
 */
static int tiering_key(const char *key)
{
	static const char *const read_untiered[] = {
		"mode", "demote", "vma", "feedback", "quota-start",
	};
	unsigned int i;

	for (i = 0; i < sizeof(read_untiered) / sizeof(read_untiered[0]); i++)
		if (!strcmp(key, read_untiered[i]))
			return 0;
	return 1;
}

/*
 * With mode=1 a switch but scan-top or a tiering_key() (@mod, the first in
 * the spec) would be ignored, and so would the base's hotness record or
 * kmigrated (a hint fault would record into a record never set up): refuse
 * them. damon and the oracle refuse a mode other than 0 themselves.
 */
static int check_untiered(const struct sim_policy *p, const char *mod,
			  char *err, size_t errlen)
{
	const char *why = "without tiering (mode=1) tierpol refuses every "
			  "hint fault (TP_REFUSE_MODE)";
	size_t n;

	if (p->cfg.mode != TP_MODE_NORMAL || p->damon.on || p->oracle)
		return 0;
	if (mod) {
		if (*mod == ':')
			n = strcspn(mod + 1, ":");
		else
			n = switch_at(mod + 1, "+-:", NULL) + 1;
		snprintf(err, errlen, "policy \"%s\": %.*s does nothing: %s",
			 p->name, (int)n, *mod == ':' ? mod + 1 : mod, why);
		return -1;
	}
	if (p->hot.record != REC_NONE || p->migrate != MIG_FAULT) {
		snprintf(err, errlen, "policy \"%s\": mode=1 leaves the "
			 "hotness record and kmigrated nothing to do: without "
			 "tiering tierpol admits no page", p->name);
		return -1;
	}
	return 0;
}

/*
 * A switch in the value @val of a key ("64+young"): where it starts, or
 * NULL. The grammar takes switches before keys only, as a value may hold
 * '-' ("window-rfc2020").
 */
static const char *switch_in(const char *val, int *n)
{
	const char *s;
	size_t len;

	for (s = val + 1; *s; s++) {
		if (*s != '+' && *s != '-')
			continue;
		len = switch_at(s + 1, "+-", NULL);
		if (len) {
			*n = (int)len + 1;
			return s;
		}
	}
	*n = 0;
	return NULL;
}

/* The keys that are not numbers (set_key() knows them all). */
static const char *const str_keys[] = {
	"migrate", "goal", "feedback", "quota-start", "goal-out", "record",
	"src", "limiter", "thresh", "wmark", "lat", "vma",
};

#define NR_NUM_KEYS	(sizeof(num_keys) / sizeof(num_keys[0]))
#define NR_STR_KEYS	(sizeof(str_keys) / sizeof(str_keys[0]))

/*
 * A bit for each key: @key is one set_key() took. A key missing from both
 * tables (a new one set_key() takes) gets the spare last bit rather than
 * reading past them.
 */
unsigned int key_index(const char *key)
{
	unsigned int k;

	for (k = 0; k < NR_NUM_KEYS; k++)
		if (!strcmp(key, num_keys[k].key))
			return k;
	for (k = 0; k < NR_STR_KEYS; k++)
		if (!strcmp(key, str_keys[k]))
			return (unsigned int)NR_NUM_KEYS + k;
	return (unsigned int)(NR_NUM_KEYS + NR_STR_KEYS);
}

_Static_assert(NR_NUM_KEYS + NR_STR_KEYS < 32,
	       "a u32 holds a bit per key, and a spare one");

const unsigned int policy_nr_keys = NR_NUM_KEYS + NR_STR_KEYS;

/*
 * Keys that only a setting the spec lacks reads: the row would be the same
 * without them. @given: key_index()'s bits of the keys in the spec.
 */
static int check_needs(const struct sim_policy *p, u32 given, char *err,
		       size_t errlen)
{
	struct key_why {
		const char *key;
		const char *why;
	};
	static const struct key_why goal_keys[] = {
		{ "target", "a goal (goal=used|free|pingpong)" },
		{ "ctl", "a goal (goal=used|free|pingpong)" },
		{ "rate-min", "a goal (goal=used|free|pingpong)" },
		{ "rate-max", "a goal (goal=used|free|pingpong)" },
		{ "goal-out", "a goal (goal=used|free|pingpong)" },
	};
	/* damon's own reasons, whatever the value (a default one too) */
	static const struct key_why damon_keys[] = {
		{ "goal", "damon sets its quotas with its own goals" },
		{ "target", "damon sets its quotas with its own goals" },
		{ "ctl", "damon sets its quotas with its own goals" },
		{ "rate-min", "damon sets its quotas with its own goals" },
		{ "rate-max", "damon sets its quotas with its own goals" },
		{ "goal-out", "damon sets its quotas with its own goals" },
		{ "record", "damon keeps no hotness record" },
		{ "src", "damon keeps no hotness record" },
		{ "abit", "damon keeps no hotness record" },
		{ "migrate", "damon's kdamonds migrate" },
	};
	static const char no_hot[] = "hot-page selection (+hotness): without "
				     "it no latency is judged";
	static const char abit_only[] = "hint faults to time (src=hint|both): "
					"the accessed-bit scanner's pages are "
					"hot or not";
	const char *key = NULL, *why = NULL;
	unsigned int i;

#define GIVEN(k)	(given & 1U << key_index(k))
	for (i = 0; p->damon.on &&
	     i < sizeof(damon_keys) / sizeof(damon_keys[0]); i++)
		if (GIVEN(damon_keys[i].key)) {
			snprintf(err, errlen, "policy \"%s\": %s (%s=)",
				 p->name, damon_keys[i].why,
				 damon_keys[i].key);
			return -1;
		}
	for (i = 0; i < sizeof(goal_keys) / sizeof(goal_keys[0]); i++)
		if (GIVEN(goal_keys[i].key) && p->goal.metric == GOAL_NONE &&
		    !p->damon.on) {
			key = goal_keys[i].key;
			why = goal_keys[i].why;
			break;
		}
	if (key)
		;
	else if (p->goal.out == GOAL_OUT_THRESHOLD &&
		 (GIVEN("rate-min") || GIVEN("rate-max"))) {
		key = GIVEN("rate-min") ? "rate-min" : "rate-max";
		why = "goal-out=rate (with goal-out=threshold the goal sets "
		      "the threshold, between 2 x hot / 16 and 2 x hot ms)";
	} else if (GIVEN("hot") && !(p->cfg.flags & TP_POL_HOTNESS)) {
		/* tp_decide() compares a latency with hot= only under it */
		key = "hot";
		why = no_hot;
	} else if ((GIVEN("thresh") || GIVEN("period")) &&
		   !(p->cfg.flags & TP_POL_ADAPTIVE)) {
		/*
		 * The threshold controller's variant and period: only the
		 * adaptive threshold runs it (a fixed one is hot= or
		 * hot-faults=).
		 */
		key = GIVEN("thresh") ? "thresh" : "period";
		why = p->goal.out == GOAL_OUT_THRESHOLD ?
		      "the adaptive threshold (+adaptive): with goal-out="
		      "threshold the goal sets the threshold" :
		      p->cfg.flags & TP_POL_HOTNESS ?
		      "the adaptive threshold (+adaptive): without it the "
		      "threshold is fixed" :
		      "the adaptive threshold (+hotness+adaptive): without "
		      "them no latency is judged";
	} else if (GIVEN("hot") && p->hot.record != REC_NONE &&
		   !(p->hot.sources & SRC_HINT) &&
		   !(p->cfg.flags & TP_POL_ADAPTIVE) &&
		   p->goal.out != GOAL_OUT_THRESHOLD) {
		/*
		 * The scanner's ready pages come with a latency of 0 (or
		 * none): no threshold refuses them. (The adaptive threshold
		 * and goal-out=threshold read hot= for their bounds.)
		 */
		key = "hot";
		why = abit_only;
	} else if (GIVEN("hot") && p->lat_src == LAT_FAULTS) {
		key = "hot";
		why = "a latency in time (lat=ring|atime): with lat=faults "
		      "the threshold is hot-faults=";
	} else if (GIVEN("hot-faults") && p->lat_src != LAT_FAULTS) {
		key = "hot-faults";
		why = "lat=faults (the threshold counted in hint faults)";
	} else if (GIVEN("burst") &&
		   p->cfg.limiter_variant != TP_LIMITER_BUCKET) {
		key = "burst";
		why = "the token-bucket limiter (limiter=bucket); a window "
		      "limiter has no burst";
	} else if (p->hot.record == REC_NONE && !p->damon.on &&
		   (GIVEN("freq") || GIVEN("window") || GIVEN("room-record") ||
		    (GIVEN("src") && !(p->hot.sources & SRC_ABIT)))) {
		/* src=abit|both: sim_policy_check() says "src=abit needs" */
		key = GIVEN("freq") ? "freq" : GIVEN("window") ? "window" :
		      GIVEN("src") ? "src" : "room-record";
		why = "a hotness record (record=byte|precise)";
	} else if (p->damon.on && (GIVEN("freq") || GIVEN("window") ||
				   GIVEN("room-record"))) {
		key = GIVEN("freq") ? "freq" : GIVEN("window") ? "window" :
		      "room-record";
		why = "a hotness record, which damon does not keep";
	} else if (GIVEN("abit") && !(p->hot.sources & SRC_ABIT)) {
		key = "abit";
		why = "the accessed-bit scanner (src=abit|both)";
	} else if (GIVEN("lat") && !p->damon.on &&
		   p->cfg.mode != TP_MODE_DISABLED &&
		   !(p->cfg.flags & TP_POL_HOTNESS)) {
		key = "lat";
		why = no_hot;
	} else if (GIVEN("lat") && p->hot.record != REC_NONE &&
		   !(p->hot.sources & SRC_HINT)) {
		key = "lat";
		why = abit_only;
	}
#undef GIVEN
	if (!key)
		return 0;
	snprintf(err, errlen, "policy \"%s\": %s= needs %s", p->name, key,
		 why);
	return -1;
}

int sim_policy_parse(const char *spec, struct sim_policy *p, char *err,
		     size_t errlen)
{
	size_t best;
	const char *s, *nb_mod = NULL, *tier_mod = NULL;
	char base[32], key[32], val[64];
	u32 given = 0, sw_given = 0;
	unsigned int k, nr_keys = 0;
	const char *key_at[NR_NUM_KEYS + NR_STR_KEYS + 1];
	struct sim_policy b;

	memset(p, 0, sizeof(*p));
	if (strlen(spec) >= sizeof(p->name)) {
		snprintf(err, errlen, "policy \"%.40s...\": too long (at most %zu characters)",
			 spec, sizeof(p->name) - 1);
		return -1;
	}
	snprintf(p->name, sizeof(p->name), "%s", spec);
	best = sim_preset_match(spec);
	if (!best) {
		snprintf(err, errlen, "unknown policy \"%s\"", spec);
		return -1;
	}
	memcpy(base, spec, best);
	base[best] = 0;
	if (sim_preset_set(base, p)) {
		snprintf(err, errlen, "unknown policy \"%s\"", spec);
		return -1;
	}
	s = spec + best;
	while (*s) {
		char op = *s++;
		size_t n = strcspn(s, "+-:");

		/* The first switch or NUMA-balancing key, for check_off(). */
		if (!nb_mod && (op == '+' || op == '-' ||
				nb_key(s, strcspn(s, ":="), !p->damon.on)))
			nb_mod = s - 1;

		/* A switch name may contain '-': take the longest known. */
		if (op == '+' || op == '-') {
			const struct sw *sw;
			size_t bl = switch_at(s, "+-:", &sw);

			if (!bl && op == '-' && s == spec + best + 1) {
				/* "rfc2020-p9": a base's name mistyped */
				snprintf(err, errlen, "unknown policy \"%.*s\" "
					 "(nor is \"-%.*s\" a switch of %s; "
					 "tiersim --help lists the policies "
					 "and switches)", (int)(best + 1 + n),
					 spec, (int)n, s, base);
				return -1;
			}
			if (!bl) {
				snprintf(err, errlen, "policy \"%s\": unknown "
					 "switch \"%.*s\"", spec, (int)n, s);
				return -1;
			}
			if (sw_given & 1U << (sw - switches)) {
				snprintf(err, errlen, "policy \"%s\": the "
					 "switch %s is given twice (the last "
					 "one, %c%s, would win)", spec,
					 sw->name, op, sw->name);
				return -1;
			}
			sw_given |= 1U << (sw - switches);
			if (!tier_mod && sw->bit != SW_SCAN_TOP)
				tier_mod = s - 1;
			/*
			 * A switch the base already has (+) or lacks (-)
			 * would leave the row the base's. (With NUMA
			 * balancing off, check_off() says why.)
			 */
			if (p->cfg.mode != TP_MODE_DISABLED &&
			    (op == '+') == (sw->bit == SW_SCAN_TOP ?
					    !!(p->cfg.mode & TP_MODE_NORMAL) :
					    !!(p->cfg.flags & sw->bit))) {
				snprintf(err, errlen, "policy \"%s\": %c%s "
					 "changes nothing: %s %s it", spec, op,
					 sw->name, base, op == '+' ?
					 "has" : "does not have");
				return -1;
			}
			if (sw->bit == SW_SCAN_TOP) {
				if (op == '+')
					p->cfg.mode |= TP_MODE_NORMAL;
				else
					p->cfg.mode &= ~TP_MODE_NORMAL;
			} else if (op == '+') {
				p->cfg.flags |= sw->bit;
			} else {
				p->cfg.flags &= ~sw->bit;
			}
			s += bl;
			continue;
		}
		/* ':' KEY=VALUE up to the next ':' or end */
		n = strcspn(s, ":");
		{
			const char *eq = memchr(s, '=', n);

			if (!eq || eq == s || (size_t)(eq - s) >= sizeof(key) ||
			    n - (size_t)(eq - s) - 1 >= sizeof(val)) {
				snprintf(err, errlen, "policy \"%s\": expected "
					 ":KEY=VALUE", spec);
				return -1;
			}
			memcpy(key, s, (size_t)(eq - s));
			key[eq - s] = 0;
			memcpy(val, eq + 1, n - (size_t)(eq - s) - 1);
			val[n - (size_t)(eq - s) - 1] = 0;
		}
		/* the switches come first: the base with them, for its keys */
		if (!nr_keys)
			b = *p;
		if (set_key(p, key, val, err, errlen)) {
			char tmp[SIM_ERRLEN];
			int swn;
			const char *sw = switch_in(val, &swn);

			if (sw)
				snprintf(err, errlen, "%s=%s: %.*s after a key "
					 "(switches come before the keys: "
					 "BASE{+SWITCH|-SWITCH}{:KEY=VALUE})",
					 key, val, swn, sw);
			snprintf(tmp, sizeof(tmp), "policy \"%s\": %s", spec,
				 err);
			snprintf(err, errlen, "%s", tmp);
			return -1;
		}
		k = key_index(key);
		if (given & 1U << k) {
			snprintf(err, errlen, "policy \"%s\": %s= is given "
				 "twice (the last one, %s=%s, would win)", spec,
				 key, key, val);
			return -1;
		}
		given |= 1U << k;
		key_at[nr_keys++] = s;
		if (!tier_mod && tiering_key(key))
			tier_mod = s - 1;
		s += n;
	}
	if (check_off(p, base, nb_mod, err, errlen) ||
	    check_untiered(p, tier_mod, err, errlen))
		return -1;
	/* mode= sets the whole mode: a scan-top switch before it is lost */
	if ((given & 1U << key_index("mode")) &&
	    (sw_given & 1U << (sizeof(switches) / sizeof(switches[0]) - 1))) {
		/* scan-top, the last of switches[] */
		snprintf(err, errlen, "policy \"%s\": scan-top does nothing "
			 "with mode= (which sets the scan of the fast tier: "
			 "mode=1 or 3 scans it)", spec);
		return -1;
	}
	/* a key nothing reads says so first */
	if (check_needs(p, given, err, errlen))
		return -1;
	return sim_policy_unchanged(p, &b, base, key_at, nr_keys, err, errlen);
}
