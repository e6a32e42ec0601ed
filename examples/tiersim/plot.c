// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim's plot (--svg, and one per set of a suite): the fast-tier share
 * of the accesses, the promotion rate and the hot threshold over simulated
 * time, one series per policy.
 *
 * The time series are summed into buckets of one round width (at most
 * MAX_BUCKETS over the runs' length): a bucket's rate is its promotions
 * over its time, its share its fast-tier accesses over its accesses, its
 * threshold the one at its end. Each axis has a label with its unit and
 * ticks on round numbers; time ends where the longest run ends, the rate
 * and threshold axes where their data do (the threshold's starts there
 * too).
 *
 * Up to four policies share each panel, told apart by colour, dash pattern
 * and marker (identical series stay visible: their markers sit at
 * different places, and the legend says which equals which). More than
 * four get small multiples: a row per policy and a column per quantity,
 * each cell drawing its policy in colour over the others in grey.
 *
 * The elements carry classes a test can check (tests/svgcheck.c): a
 * "panel" group per set of axes with its "xlabel" and "ylabel" texts, its
 * "tick" texts and "series" polylines (or a "nodata" text), a "policy"
 * text per policy.
 */
#include "out.h"
#include "plot_int.h"
#include "svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OVERLAY	4	/* policies that share a panel */

/* Tableau's ten, with dark indigo for its grey: the other runs are grey. */
static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
	"#e377c2", "#393b79", "#bcbd22", "#17becf",
};

static const char *const dashes[MAX_OVERLAY] = {
	NULL, "8,3", "2,2.5", "10,3,2,3",
};

/* What each quantity is called on its axis, and how it is drawn. */
static const char *const q_label[NR_Q] = {
	"fast-tier accesses (%)", "promotion rate (MB/s)", "hot threshold (ms)",
};

struct plot {
	const struct run_set *rs;
	double tmax;			/* the end of the longest run, s */
	double width;			/* of a bucket, s */
	struct series *s;		/* [policy * NR_Q + quantity] */
	struct axis x, y[NR_Q];
	int same[SIM_MAX_POLICIES];	/* an earlier identical run, or -1 */
	int has[NR_Q];			/* some policy has data */
};

/* ---- data ----------------------------------------------------------------- */

static double t_s(const struct sim_sample *m)
{
	return (double)m->t_ns / 1e9;
}

/*
 * The buckets of run @r: for each bucket of @width seconds that holds a
 * sample, the change since the last sample of the previous bucket.
 */
void bucket(const struct sim_result *r, double width, struct series *s)
{
	const struct sim_sample *a = NULL, *b;
	long cur = -1, k;
	u32 j, q;

	for (q = 0; q < NR_Q; q++)
		s[q].n = 0;
	if (!r->nr_samples)
		return;
	a = &r->sample[0];
	for (j = 1; j <= r->nr_samples; j++) {
		k = j < r->nr_samples ? (long)(t_s(&r->sample[j]) / width) : -2;
		if (j < r->nr_samples && (cur < 0 || k == cur)) {
			cur = k;
			continue;
		}
		/* sample j - 1 ends bucket cur */
		b = &r->sample[j - 1];
		if (b != a && s[0].n < MAX_BUCKETS) {
			double dt = t_s(b) - t_s(a), mid = (t_s(a) + t_s(b)) / 2;
			u32 n = s[0].n;

			for (q = 0; q < NR_Q; q++) {
				s[q].t[n] = q == 2 ? t_s(b) : mid;
				s[q].ok[n] = 0;
				s[q].n = n + 1;
			}
			if (b->acc > a->acc) {
				s[0].v[n] = 100.0 * (double)(b->fast - a->fast) /
					    (double)(b->acc - a->acc);
				s[0].ok[n] = 1;
			}
			if (dt > 0) {
				s[1].v[n] = (double)(b->promo - a->promo) *
					    4096.0 / 1048576.0 / dt;
				s[1].ok[n] = 1;
			}
			if (r->has_threshold && !r->th_faults) {
				s[2].v[n] = (double)b->thresh / 1e6;
				s[2].ok[n] = 1;
			}
		}
		a = b;
		cur = k;
	}
}

int same_series(const struct sim_result *a, const struct sim_result *b)
{
	return a->nr_samples == b->nr_samples &&
	       a->has_threshold == b->has_threshold &&
	       !memcmp(a->sample, b->sample,
		       a->nr_samples * sizeof(a->sample[0]));
}

/* An axis from @lo to @hi in at most @steps round steps, ending at them. */
void fit(struct axis *a, double lo, double hi, int steps)
{
	if (hi <= lo) {
		double d = hi > 0 ? hi / 2 : 1;

		lo = hi - d > 0 ? hi - d : 0;
		hi += d;
	}
	a->step = svg_nice_step(hi - lo, steps);
	a->lo = floor(lo / a->step + 1e-9) * a->step;
	a->hi = ceil(hi / a->step - 1e-9) * a->step;
}

static int prepare(struct plot *p, int steps)
{
	const struct run_set *rs = p->rs;
	double lo[NR_Q], hi[NR_Q], span = 0;
	u32 i, j, q;

	p->tmax = 0;
	for (i = 0; i < rs->nr; i++) {
		const struct sim_result *r = &rs->res[i];

		if (r->nr_samples && t_s(&r->sample[r->nr_samples - 1]) > p->tmax)
			p->tmax = t_s(&r->sample[r->nr_samples - 1]);
		for (j = 1; j < r->nr_samples; j++)
			if (t_s(&r->sample[j]) - t_s(&r->sample[j - 1]) > span)
				span = t_s(&r->sample[j]) - t_s(&r->sample[j - 1]);
	}
	if (p->tmax <= 0)
		p->tmax = 1;
	/* A round width, at least the sampling interval. */
	p->width = svg_nice_step(p->tmax, MAX_BUCKETS - 2);
	while (p->width < span * 0.999)
		p->width = svg_nice_step(p->width * 1.01, 1);
	p->s = calloc((size_t)rs->nr * NR_Q, sizeof(*p->s));
	if (!p->s)
		return -1;
	for (q = 0; q < NR_Q; q++) {
		lo[q] = INFINITY;
		hi[q] = -INFINITY;
		p->has[q] = 0;
	}
	for (i = 0; i < rs->nr; i++) {
		p->same[i] = -1;
		for (j = 0; j < i && p->same[i] < 0; j++)
			if (same_series(&rs->res[i], &rs->res[j]))
				p->same[i] = (int)j;
		bucket(&rs->res[i], p->width, &p->s[i * NR_Q]);
		for (q = 0; q < NR_Q; q++) {
			const struct series *s = &p->s[i * NR_Q + q];

			for (j = 0; j < s->n; j++) {
				if (!s->ok[j])
					continue;
				p->has[q] = 1;
				if (s->v[j] < lo[q])
					lo[q] = s->v[j];
				if (s->v[j] > hi[q])
					hi[q] = s->v[j];
			}
		}
	}
	p->x.lo = 0;
	p->x.hi = p->tmax;
	p->x.step = svg_nice_step(p->tmax, 6);
	p->y[0].lo = 0;
	p->y[0].hi = 100;
	p->y[0].step = steps > 3 ? 25 : 50;
	fit(&p->y[1], 0, p->has[1] && hi[1] > 0 ? hi[1] : 1, steps);
	if (p->has[2] && hi[2] > lo[2]) {
		/* the lines off the frame: 5 % of their span around them */
		span = (hi[2] - lo[2]) / 20;
		fit(&p->y[2], lo[2] - span > 0 ? lo[2] - span : 0,
		    hi[2] + span, steps);
	} else if (p->has[2])
		fit(&p->y[2], lo[2], hi[2], steps);
	else
		fit(&p->y[2], 0, 1000, steps);
	return 0;
}

/* ---- drawing -------------------------------------------------------------- */

/* A tick's label: "0", "2.5", "1500", "0.05". */
void tick_text(char *b, size_t n, double v, double step)
{
	int d = 0;

	while (d < 4 && fabs(step * pow(10, d) - floor(step * pow(10, d) +
						       0.5)) > 1e-6)
		d++;
	snprintf(b, n, "%.*f", d, fabs(v) < step * 1e-6 ? 0.0 : v);
}

struct box {
	double x, y, w, h;
};

static double px(const struct box *b, const struct axis *a, double v)
{
	return b->x + b->w * (v - a->lo) / (a->hi - a->lo);
}

static double py(const struct box *b, const struct axis *a, double v)
{
	if (v < a->lo)
		v = a->lo;
	if (v > a->hi)
		v = a->hi;
	return b->y + b->h - b->h * (v - a->lo) / (a->hi - a->lo);
}

/*
 * The frame, the grid and the ticks of one set of axes: y tick labels
 * on the left, x tick labels below when @xlabels.
 */
static void axes(FILE *f, const struct box *b, const struct axis *x,
		 const struct axis *y, int xlabels)
{
	/* a small box labels every other of more than three steps */
	int every = b->h < 100 && (y->hi - y->lo) / y->step > 3.5 ? 2 : 1, k;
	char t[32];
	double v;

	for (v = y->lo, k = 0; v <= y->hi + y->step * 1e-6; v += y->step, k++) {
		svg_rule(f, b->x, py(b, y, v), b->x + b->w, py(b, y, v), "#e4e4e4",
			 "");
		if (k % every)
			continue;
		tick_text(t, sizeof(t), v, y->step);
		svg_text(f, b->x - 5, py(b, y, v) + 4,
			 "class=\"tick\" text-anchor=\"end\"", t);
	}
	for (v = x->lo; v <= x->hi + x->step * 1e-6; v += x->step) {
		svg_rule(f, px(b, x, v), b->y, px(b, x, v), b->y + b->h,
			 "#e4e4e4", "");
		if (!xlabels)
			continue;
		tick_text(t, sizeof(t), v, x->step);
		svg_text(f, px(b, x, v), b->y + b->h + 15,
			 "class=\"tick\" text-anchor=\"middle\"", t);
	}
	svg_frame(f, (int)b->x, (int)b->y, (int)b->w, (int)b->h, "#888");
}

/* A marker of shape @k centred at (@x, @y). */
static void marker(FILE *f, int k, double x, double y, const char *color)
{
	switch (k % MAX_OVERLAY) {
	case 0:
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" "
			"fill=\"%s\"/>\n", x, y, color);
		break;
	case 1:
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"7\" "
			"fill=\"white\" stroke=\"%s\" stroke-width=\"1.5\"/>\n",
			x - 3.5, y - 3.5, color);
		break;
	case 2:
		fprintf(f, "<path d=\"M%.1f,%.1fl4.5,8h-9z\" fill=\"%s\"/>\n",
			x, y - 5, color);
		break;
	default:
		fprintf(f, "<path d=\"M%.1f,%.1fl4.5,4.5l-4.5,4.5l-4.5,-4.5z\" "
			"fill=\"white\" stroke=\"%s\" stroke-width=\"1.5\"/>\n",
			x, y - 4.5, color);
		break;
	}
}

/*
 * Series @s in box @b: a polyline (steps for the threshold, @q 2), in
 * @attrs; with @mark >= 0, markers of that shape at every @every-th
 * point from @phase on.
 */
static void draw(FILE *f, const struct plot *p, const struct box *b, int q,
		 const struct series *s, const char *attrs, const char *policy,
		 int mark, const char *color, u32 every, u32 phase)
{
	char a[512];
	double ly = 0;
	int open = 0;
	u32 j;

	snprintf(a, sizeof(a), "class=\"series\" data-policy=\"%s\" %s",
		 policy, attrs);
	for (j = 0; j < s->n; j++) {
		double x = px(b, &p->x, s->t[j]), y;

		if (!s->ok[j]) {
			if (open)
				svg_poly_end(f);
			open = 0;
			continue;
		}
		y = py(b, &p->y[q], s->v[j]);
		if (!open) {
			svg_poly_open(f, a);
			if (q == 2)	/* the threshold holds from the start */
				svg_poly_point(f, b->x, y, 1);
			else
				svg_poly_point(f, x, y, 1);
		} else if (q == 2) {
			svg_poly_point(f, x, ly, 0);
		}
		if (open || q == 2)
			svg_poly_point(f, x, y, 0);
		open = 1;
		ly = y;
	}
	if (open)
		svg_poly_end(f);
	if (mark < 0 || !every)
		return;
	for (j = phase; j < s->n; j += every)
		if (s->ok[j])
			marker(f, mark, px(b, &p->x, s->t[j]),
			       py(b, &p->y[q], s->v[j]), color);
}

static void title(FILE *f, const struct run_set *rs)
{
	char t[512], sc[48] = "";
	u32 k = rs->cfg->scale ? rs->cfg->scale : 1;

	if (k > 1)
		snprintf(sc, sizeof(sc), ", a 1/%u scale model", k);
	snprintf(t, sizeof(t), "tiersim: %s (%s, fast tier %.0f %%%s)",
		 rs->title, rs->cfg->costs.name,
		 100.0 * (double)rs->cfg->fast_pages / (double)rs->src->pages,
		 sc);
	svg_text(f, 16, 24, "class=\"title\" font-size=\"15\"", t);
}

static void xlabel(FILE *f, const struct plot *p, const struct box *b)
{
	(void)p;
	svg_text(f, b->x + b->w / 2, b->y + b->h + 32,
		 "class=\"xlabel\" text-anchor=\"middle\"",
		 "simulated time (s)");
}

/* The rate's label says over how long each point is the mean. */
static void qlabel(char *t, size_t n, const struct plot *p, int q)
{
	char w[32];

	if (q != 1) {
		snprintf(t, n, "%s", q_label[q]);
		return;
	}
	tick_text(w, sizeof(w), p->width, p->width);
	snprintf(t, n, "promotion rate (MB/s, means over %s s)", w);
}

/* ---- up to four policies: three panels, one above the other --------------- */

#define OV_W		960
#define OV_L		70
#define OV_R		250
#define OV_T		56
#define OV_H		170
#define OV_GAP		74

static void overlay(FILE *f, const struct plot *p)
{
	const struct run_set *rs = p->rs;
	const u32 nr = rs->nr;
	char a[256], t[160];
	int q;
	u32 i, every;

	/* About 8 markers per series, shifted by a quarter per policy. */
	every = p->s[0].n / 8 ? p->s[0].n / 8 : 1;
	for (q = 0; q < NR_Q; q++) {
		struct box b = { OV_L, OV_T + q * (OV_H + OV_GAP),
				 OV_W - OV_L - OV_R, OV_H };

		fprintf(f, "<g class=\"panel\" data-quantity=\"%d\">\n", q);
		axes(f, &b, &p->x, &p->y[q], 1);
		qlabel(t, sizeof(t), p, q);
		svg_text(f, b.x, b.y - 8, "class=\"ylabel\"", t);
		xlabel(f, p, &b);
		if (!p->has[q])
			svg_text(f, b.x + b.w / 2, b.y + b.h / 2,
				 "class=\"nodata\" text-anchor=\"middle\" "
				 "fill=\"#666\"", q == 2 ?
				 "no policy here has a hot threshold" :
				 "no data");
		for (i = 0; i < nr; i++) {
			snprintf(a, sizeof(a), "stroke=\"%s\" stroke-width=\"%s\""
				 "%s%s%s", palette[i % 10], i ? "1.6" : "2.2",
				 dashes[i] ? " stroke-dasharray=\"" : "",
				 dashes[i] ? dashes[i] : "",
				 dashes[i] ? "\"" : "");
			draw(f, p, &b, q, &p->s[i * NR_Q + q], a,
			     rs->res[i].policy, (int)i, palette[i % 10], every,
			     (u32)(every * i / nr));
		}
		fputs("</g>\n", f);
	}
	/* The legend: line, dash and marker as drawn, and what equals what. */
	fputs("<g class=\"legend\">\n", f);
	for (i = 0; i < nr; i++) {
		double y = OV_T + 8 + i * 40, x = OV_W - OV_R + 16;

		snprintf(a, sizeof(a), "stroke-width=\"2\"%s%s%s",
			 dashes[i] ? " stroke-dasharray=\"" : "",
			 dashes[i] ? dashes[i] : "", dashes[i] ? "\"" : "");
		svg_rule(f, x, y, x + 36, y, palette[i % 10], a);
		marker(f, (int)i, x + 18, y, palette[i % 10]);
		svg_text(f, x + 44, y + 4, "class=\"policy\"",
			 rs->res[i].policy);
		if (p->same[i] >= 0) {
			snprintf(t, sizeof(t), "same as %s",
				 rs->res[p->same[i]].policy);
			svg_text(f, x + 44, y + 19, "class=\"same\" fill=\"#666\"",
				 t);
		}
	}
	fputs("</g>\n", f);
}

/* ---- more: small multiples, a row per policy ------------------------------ */

#define SM_L		178	/* the policies' names: at least this wide */
#define SM_CHAR_W	7.2	/* a bold 11 px character, about */
#define SM_COL		272	/* a column: y ticks, cell, gap */
#define SM_TICKS	44
#define SM_CW		200
#define SM_T		70
#define SM_CH		62
#define SM_GAP		12

static int sm_height(u32 nr)
{
	return SM_T + (int)nr * (SM_CH + SM_GAP) + 44;
}

/* The names' column: SM_L, or wider so that the longest name fits. */
static int sm_left(const struct run_set *rs)
{
	int w = SM_L;
	u32 i;

	for (i = 0; i < rs->nr; i++) {
		int n = 24 + (int)(SM_CHAR_W *
				   (double)strlen(rs->res[i].policy) + 0.5);

		w = n > w ? n : w;
	}
	return w;
}

static void small_multiples(FILE *f, const struct plot *p)
{
	const struct run_set *rs = p->rs;
	const u32 nr = rs->nr;
	const int left = sm_left(rs);
	char t[160];
	u32 i, j;
	int q;

	for (q = 0; q < NR_Q; q++) {
		double x0 = left + q * SM_COL + SM_TICKS;
		struct box last = { x0, 0, SM_CW, SM_CH };

		fprintf(f, "<g class=\"panel\" data-quantity=\"%d\">\n", q);
		qlabel(t, sizeof(t), p, q);
		svg_text(f, x0, SM_T - 12, "class=\"ylabel\"", t);
		for (i = 0; i < nr; i++) {
			struct box b = { x0, SM_T + i * (SM_CH + SM_GAP), SM_CW,
					 SM_CH };
			const struct series *own = &p->s[i * NR_Q + q];
			int has = 0;

			fprintf(f, "<g class=\"cell\" data-policy=\"");
			svg_esc(f, rs->res[i].policy);
			fputs("\">\n", f);
			axes(f, &b, &p->x, &p->y[q], i + 1 == nr);
			/* the others in grey, under it */
			for (j = 0; j < nr; j++)
				if (j != i)
					draw(f, p, &b, q, &p->s[j * NR_Q + q],
					     "stroke=\"#c8c8c8\" "
					     "stroke-width=\"1\"",
					     rs->res[j].policy, -1, NULL, 0, 0);
			snprintf(t, sizeof(t), "stroke=\"%s\" stroke-width=\"2\"",
				 palette[i % 10]);
			draw(f, p, &b, q, own, t, rs->res[i].policy, -1, NULL,
			     0, 0);
			for (j = 0; j < own->n; j++)
				has |= own->ok[j];
			if (!has) {
				fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" "
					"width=\"110\" height=\"18\" "
					"fill=\"white\" fill-opacity=\"0.85\"/>\n",
					b.x + b.w / 2 - 55, b.y + b.h / 2 - 9);
				svg_text(f, b.x + b.w / 2, b.y + b.h / 2 + 4,
					 "class=\"nodata\" text-anchor=\"middle\" "
					 "fill=\"#555\"", q != 2 ? "no data" :
					 rs->res[i].th_faults ?
					 "threshold in faults" :
					 "no hot threshold");
			}
			fputs("</g>\n", f);
			last = b;
		}
		xlabel(f, p, &last);
		fputs("</g>\n", f);
	}
	for (i = 0; i < nr; i++) {
		double y = SM_T + i * (SM_CH + SM_GAP) + SM_CH / 2.0;

		snprintf(t, sizeof(t), "class=\"policy\" fill=\"%s\" "
			 "font-weight=\"bold\"", palette[i % 10]);
		svg_text(f, 12, y, t, rs->res[i].policy);
		if (p->same[i] >= 0) {
			snprintf(t, sizeof(t), "same as %s",
				 rs->res[p->same[i]].policy);
			svg_text(f, 12, y + 15, "class=\"same\" fill=\"#666\"", t);
		}
	}
	svg_text(f, left + SM_TICKS, 42, "class=\"note\" fill=\"#666\"",
		 "each row: its policy in colour, the others in grey");
}

int out_svg(const char *path, const struct run_set *rs)
{
	struct plot p = { .rs = rs };
	int many = rs->nr > MAX_OVERLAY;
	FILE *f;

	if (prepare(&p, many ? 3 : 5))
		return -1;
	f = many ? svg_open(path, sm_left(rs) + NR_Q * SM_COL,
			    sm_height(rs->nr), 11) :
		   svg_open(path, OV_W, OV_T + NR_Q * (OV_H + OV_GAP), 12);
	if (!f) {
		free(p.s);
		return -1;
	}
	title(f, rs);
	if (many)
		small_multiples(f, &p);
	else
		overlay(f, &p);
	free(p.s);
	return svg_close(f);
}
