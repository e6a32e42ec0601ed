// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim's named policies (presets): the bases a policy spec starts from
 * and the settings each stands for, their help, and the hotness record a
 * policy selects. sim_policy.c parses the switches and keys that modify
 * them.
 */
#include "sim.h"

#include <string.h>

struct base {
	const char *name;
	const char *help;
};

static const struct base bases[] = {
	{ "none", "first touch only: no scanning, no promotion, no demotion" },
	{ "promote-all", "tiering mode, every hinted slow page promoted when "
	  "there is room (no hot-page selection), kswapd demotion" },
	{ "rfc2020-p3", "the 2020 RFC, patches 1-3: tiering mode, rate limit "
	  "(window, high watermark per s), free-space bypass, kswapd "
	  "demotion; scans the fast tier too" },
	{ "rfc2020-p4", "rfc2020-p3 + 4/8: skip scanning the fast tier" },
	{ "rfc2020-p5", "rfc2020-p4 + 5/8: promote only pages accessed twice "
	  "(young)" },
	{ "rfc2020-p6", "rfc2020-p5 + 6/8: hot-page selection, scan-ring "
	  "latency vs 1000 ms threshold" },
	{ "rfc2020-p7", "rfc2020-p6 + 7/8: double threshold for write faults "
	  "(the RFC's fixed-threshold step); alias rfc2020-fixed" },
	{ "rfc2020-p8", "rfc2020-p7 + 8/8: automatic threshold (the RFC "
	  "preset); aliases rfc2020, rfc2020-auto" },
	{ "rfc2020-fixed", NULL },
	{ "rfc2020-auto", NULL },
	{ "rfc2020", NULL },
	{ "mainline", "Linux 6.1+ preset: access-time stamp latency, adaptive "
	  "threshold, 65536 MB/s window limiter, promo watermark, bypass" },
	{ "mainline-bypass-off", "mainline with the bypass knob (2026) off: "
	  "no free-space bypass" },
	{ "token-bucket", "mainline with the token-bucket limiter in place of "
	  "the per-second window" },
	{ "oracle", "static optimum: pins the most-accessed pages of the whole "
	  "stream in the fast tier; no scanning or migration" },
	{ "goal-bucket", "token bucket whose rate the DAMOS goal controller "
	  "retunes every second from the fast tier's use (goal 99.7 %, 1 to "
	  "200 MB/s)" },
	{ "histogram", "mainline with the capacity-fitted (histogram) hot "
	  "threshold: fits the candidates to the rate limit each period" },
	{ "goal-histogram", "goal-bucket with the histogram threshold: the "
	  "goal sets the rate, the threshold fits the candidates to it" },
	{ "goal-threshold", "mainline whose hot threshold the goal controller "
	  "sets every second instead of the 2022 controller: the longest that "
	  "keeps the promoted pages' ping-pong at 10 % (125 to 2000 ms)" },
	{ "pghot", "pghot's one-byte hotness record from hint faults: ready "
	  "after 2 accesses within 3 s, promoted by kmigrated (batches of 512 "
	  "pages, 100 ms sleep)" },
	{ "pghot-precise", "pghot's four-byte record (5 s window)" },
	{ "pghot-abit", "pghot's records fed by an accessed-bit scanner every "
	  "20 ms instead of hint faults: hot when seen accessed in 7 "
	  "consecutive scans; with room, 2 accesses within 3 s (free-space "
	  "bypass); kmigrated" },
	{ "damon", "DAMON-based tiering as Linux's mtier sample sets it up: "
	  "NUMA balancing off; a kdamond a node samples regions of its "
	  "frames; each second the slow node's promotes young pages of "
	  "accessed regions (goal: fast node 99.7 % used), the fast node's "
	  "demotes old pages of idle ones (goal: 0.5 % free), at most 200 "
	  "MiB/s each" },
	{ "fault-clock", "mainline with latencies and the threshold counted in "
	  "hint faults (1000000 faults)" },
};

void sim_preset_help(FILE *f)
{
	unsigned int i;

	for (i = 0; i < sizeof(bases) / sizeof(bases[0]); i++)
		if (bases[i].help)
			fprintf(f, "  %-20s %s\n", bases[i].name, bases[i].help);
}

size_t sim_preset_match(const char *spec)
{
	size_t best = 0, len;
	unsigned int i;

	/* The longest base name followed by the end or a modifier. */
	for (i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		len = strlen(bases[i].name);
		if (!strncmp(spec, bases[i].name, len) &&
		    (!spec[len] || spec[len] == '+' || spec[len] == '-' ||
		     spec[len] == ':') && len > best)
			best = len;
	}
	return best;
}

int sim_preset_set(const char *b, struct sim_policy *p)
{
	struct tp_policy_cfg *c = &p->cfg;
	u32 step = 0;

	p->demote = 1;
	p->oracle = 0;
	p->damon = (struct sim_damon_cfg){ 0 };
	p->vma_filter = VMAF_NONE;
	p->migrate = MIG_FAULT;
	p->goal = (struct sim_goal_cfg){ .metric = GOAL_NONE, .ctl_ms = 1000,
					 .rate_min = 1, .rate_max = 200 };
	p->hot = (struct sim_hot_cfg){ .record = REC_NONE, .sources = SRC_HINT,
				       .abit_ms = 2000 };
	if (!strcmp(b, "none") || !strcmp(b, "oracle")) {
		tp_policy_preset(c, TP_PRESET_LINUX61, SIM_TPS);
		c->mode = TP_MODE_DISABLED;
		c->flags = 0;
		p->demote = 0;
		p->oracle = !strcmp(b, "oracle");
		p->lat_src = LAT_ATIME;
		return 0;
	}
	if (!strcmp(b, "damon")) {
		/*
		 * NUMA balancing off (no scanning, no hint faults), kswapd's
		 * demotion on; the kdamonds migrate (sim_damon.c).
		 */
		tp_policy_preset(c, TP_PRESET_LINUX61, SIM_TPS);
		c->mode = TP_MODE_DISABLED;
		c->flags = 0;
		p->lat_src = LAT_ATIME;
		p->damon.on = 1;
		return 0;
	}
	if (!strcmp(b, "promote-all")) {
		tp_policy_preset(c, TP_PRESET_LINUX61, SIM_TPS);
		c->flags = TP_POL_FREE_BYPASS;
		p->lat_src = LAT_ATIME;
		return 0;
	}
	if (!strcmp(b, "goal-bucket") || !strcmp(b, "goal-histogram")) {
		/*
		 * DAMON's tiering goal (samples/damon/mtier.c): promote until
		 * the fast node is 99.7 % used, at most 200 MB/s, the quota
		 * retuned every second.
		 */
		tp_policy_preset(c, TP_PRESET_LINUX61, SIM_TPS);
		p->lat_src = LAT_ATIME;
		c->limiter_variant = TP_LIMITER_BUCKET;
		c->rate_limit_mbps = p->goal.rate_max;
		p->goal.metric = GOAL_USED;
		if (!strcmp(b, "goal-histogram"))
			c->thresh_variant = TP_THRESH_HISTOGRAM;
		return 0;
	}
	if (!strcmp(b, "goal-threshold")) {
		/*
		 * The goal controller in place of the 2022 one: it sets the
		 * hot threshold every second (a sysctl write), so the
		 * threshold is fixed between its writes.
		 */
		tp_policy_preset(c, TP_PRESET_LINUX61, SIM_TPS);
		p->lat_src = LAT_ATIME;
		c->flags &= ~(TP_POL_ADAPTIVE | TP_POL_BYPASS_RESET);
		p->goal.metric = GOAL_PINGPONG;
		p->goal.out = GOAL_OUT_THRESHOLD;
		return 0;
	}
	if (!strcmp(b, "histogram") || !strcmp(b, "fault-clock")) {
		tp_policy_preset(c, TP_PRESET_LINUX61, SIM_TPS);
		p->lat_src = LAT_ATIME;
		if (!strcmp(b, "histogram")) {
			c->thresh_variant = TP_THRESH_HISTOGRAM;
		} else {
			p->lat_src = LAT_FAULTS;
			c->flags |= TP_POL_LAT_FAULTS;
		}
		return 0;
	}
	if (!strcmp(b, "pghot-abit")) {
		/*
		 * Hot: seen accessed in 7 consecutive scans of an accessed-bit
		 * scanner every 20 ms (pghot's precise record with a window of
		 * 1.6 scans); with room, pghot's default record through the
		 * free-space bypass; kmigrated migrates.
		 */
		tp_policy_preset(c, TP_PRESET_LINUX61, SIM_TPS);
		c->flags = TP_POL_HOTNESS | TP_POL_FREE_BYPASS;
		p->lat_src = LAT_ATIME;
		p->migrate = MIG_KMIGRATED;
		p->hot = (struct sim_hot_cfg){
			.record = REC_PRECISE, .sources = SRC_ABIT, .freq = 7,
			.window_ms = 32, .abit_ms = 20, .room = 1,
		};
		return 0;
	}
	if (!strcmp(b, "pghot") || !strcmp(b, "pghot-precise")) {
		/*
		 * The record decides (no latency test, no free-space bypass);
		 * kmigrated migrates what tierpol admits.
		 */
		tp_policy_preset(c, TP_PRESET_LINUX61, SIM_TPS);
		c->flags = 0;
		p->lat_src = LAT_ATIME;
		p->migrate = MIG_KMIGRATED;
		p->hot.record = strcmp(b, "pghot") ? REC_PRECISE : REC_BYTE;
		return 0;
	}
	if (!strcmp(b, "mainline") || !strcmp(b, "mainline-bypass-off") ||
	    !strcmp(b, "token-bucket")) {
		tp_policy_preset(c, TP_PRESET_LINUX61, SIM_TPS);
		p->lat_src = LAT_ATIME;
		if (!strcmp(b, "mainline-bypass-off"))
			c->flags &= ~(TP_POL_FREE_BYPASS | TP_POL_BYPASS_RESET);
		if (!strcmp(b, "token-bucket"))
			c->limiter_variant = TP_LIMITER_BUCKET;
		return 0;
	}
	if (!strcmp(b, "rfc2020") || !strcmp(b, "rfc2020-auto"))
		step = 8;
	else if (!strcmp(b, "rfc2020-fixed"))
		step = 7;
	else if (!strncmp(b, "rfc2020-p", 9) && b[9] >= '3' && b[9] <= '8' &&
		 !b[10])
		step = (u32)(b[9] - '0');
	else
		return -1;
	tp_policy_preset(c, TP_PRESET_RFC2020, SIM_TPS);
	p->lat_src = LAT_RING;
	c->flags = TP_POL_FREE_BYPASS | TP_POL_RL_WMARK_DEFAULT;
	if (step < 4)
		c->mode |= TP_MODE_NORMAL;
	if (step >= 5)
		c->flags |= TP_POL_YOUNG;
	if (step >= 6)
		c->flags |= TP_POL_HOTNESS;
	if (step >= 7)
		c->flags |= TP_POL_WRITE_DOUBLE;
	if (step >= 8)
		c->flags |= TP_POL_ADAPTIVE;
	return 0;
}

/* The spec's grammar, switches and keys, after the bases (--help). */
void sim_policy_help(FILE *f)
{
	sim_preset_help(f);
	fprintf(f,
"  Any base can be modified: BASE{+SWITCH|-SWITCH}{:KEY=VALUE}, switches\n"
"    before keys, e.g. mainline+young, rfc2020-p8:lat=atime,\n"
"    mainline+young:vma=disjoint:rate=256.\n"
"  With NUMA balancing off (none, oracle, damon, mode=0) a switch, rate=,\n"
"    hot=, period=, burst=, hot-faults=, limiter=, thresh=, wmark=, lat=,\n"
"    vma=, a goal key or (but for damon) a record key, migrate= or\n"
"    demote= would do nothing, and is refused; with mode=1 (scanning,\n"
"    no tiering: tierpol refuses every hint fault) so is a switch but\n"
"    scan-top, any of those keys but vma= and demote= (promo-max= too),\n"
"    and a base's hotness record or kmigrated; so is scan-top with\n"
"    mode=, a key that only a setting the spec lacks reads (target=\n"
"    without goal=, burst= without limiter=bucket, freq= without\n"
"    record=, hot= without +hotness, thresh= and period= without\n"
"    +adaptive, ...), a switch the base already has (+) or lacks (-),\n"
"    a key that sets what the base has or the default the other keys\n"
"    pick (mainline:thresh=mainline, goal=used:target=9970; rate=, hot=\n"
"    and period= keep their value against the options), and a key or\n"
"    switch given twice. A spec named twice in -p's lists is refused\n"
"    too (mainline,mainline; mainline and mainline:rate=64 are two).\n"
"  Switches (TP_POL_*): hotness bypass young write-double adaptive\n"
"    hot-strict rl-wmark bypass-reset, and scan-top (mode |= NORMAL: the\n"
"    scanner marks fast-tier pages too).\n"
"  Keys: rate=MB/s (0: see --rate-limit-mbps) hot=ms period=ms (the\n"
"    adaptive threshold's period) burst=pages (0: one second of the rate)\n"
"    limiter=bucket|window-rfc2020|window-mainline\n"
"    thresh=rfc2020|mainline|histogram wmark=rfc2020|mainline\n"
"    lat=ring|atime|faults hot-faults=N (threshold in hint faults)\n"
"    vma=none|pid|disjoint|mainline mode=0..3 demote=0|1\n"
"    migrate=fault|kmigrated (in the hint fault, or by kmigrated)\n"
"    goal=none|used|free|pingpong target=1..10000 (parts per 10000)\n"
"    ctl=ms (control period) rate-min=MB/s rate-max=MB/s\n"
"    goal-out=rate|threshold (what the goal sets; the threshold: with\n"
"    the adaptive switch off)\n"
"    record=none|byte|precise src=hint|abit|both freq=1..7 window=ms\n"
"    abit=ms (the accessed-bit scanner's period) room-record=0|1 (pghot's\n"
"    default record for the free-space bypass)\n"
"    promo-max=pages (kmigrated stops after that many: an experiment's\n"
"    budget for one run, not a policy)\n"
"    feedback=tierpol|damos quota-start=cap|min (damon: what sets its\n"
"    schemes' quotas, and where they start)\n");
}

/* The hotness record a policy's record keys select. */
void sim_hot_cfg(const struct sim_policy *p, struct tp_hot_cfg *hc)
{
	memset(hc, 0, sizeof(*hc));
	hc->sz = sizeof(*hc);
	hc->format = p->hot.record == REC_PRECISE ? TP_HOT_PRECISE :
		     TP_HOT_BYTE;
	hc->tps = SIM_TPS;
	hc->freq_threshold = p->hot.freq;
	/* pghot's precise mode keeps 5 s, the byte record about 3 s */
	hc->window_ms = p->hot.window_ms ? p->hot.window_ms :
			p->hot.record == REC_PRECISE ? 5000 : 0;
}
