// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rtreport's plots (rtreport.h): one SVG panel per figure over the runs'
 * time, the first run's oracle dashed where asked.
 */
#include <stdio.h>
#include <string.h>

#include "rtreport.h"

#define W	760
#define H	280
#define PL	70
#define PR	20
#define PT	40
#define PB	50

static const char *const colors[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
};

static double yval(const struct run *r, int i, int what)
{
	const struct sample *s = &r->s[i];

	switch (what) {
	case Y_SHARE:
		return s->share * 100;
	case Y_RESID:
		return s->resid * 100;
	case Y_PROMO:
		return s->promo;
	case Y_DEMO:
		return s->demo;
	case Y_FAULTS:
		return s->faults;
	default:
		/* Not across the last, short interval after the run. */
		if (!i || s->t < r->s[i - 1].t + 0.5)
			return -1;
		return (s->acc - r->s[i - 1].acc) / (s->t - r->s[i - 1].t) / 1e6;
	}
}

/* The smallest 1, 2, 2.5 or 5 times a power of ten at or above @v. */
static double nice_ceil(double v)
{
	static const double step[] = { 1, 2, 2.5, 5, 10 };
	double p = 1;
	int i;

	while (p * 10 <= v)
		p *= 10;
	while (p > v && p > 1e-9)
		p /= 10;
	for (i = 0; i < 5; i++)
		if (step[i] * p >= v)
			return step[i] * p;
	return 10 * p;
}

int rt_plot(const char *path, const char *title, const char *ylabel,
	    int what, int dashed, const struct run *runs, int nr_plot)
{
	FILE *f = fopen(path, "w");
	double tmax = 1, ymax = 0, sx, sy;
	int k, i, j;

	if (!f)
		return -1;
	for (k = 0; k < nr_plot; k++)
		for (i = 0; i < runs[k].n; i++) {
			if (runs[k].s[i].t > tmax)
				tmax = runs[k].s[i].t;
			if (yval(&runs[k], i, what) > ymax)
				ymax = yval(&runs[k], i, what);
			if (dashed >= 0 && runs[k].s[i].oracle >= 0 &&
			    yval(&runs[k], i, dashed) > ymax)
				ymax = yval(&runs[k], i, dashed);
		}
	if (what == Y_SHARE || what == Y_RESID)
		ymax = 100;
	if (ymax <= 0)
		ymax = 1;
	ymax = nice_ceil(ymax);
	tmax = nice_ceil(tmax);
	sx = (W - PL - PR) / tmax;
	sy = (H - PT - PB) / ymax;
	fprintf(f, "<!-- SPDX-License-Identifier: GPL-2.0-only OR "
		"BSD-2-Clause -->\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
		"font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" "
		"fill=\"white\"/>\n<text x=\"%d\" y=\"20\" font-size=\"13\" "
		"font-weight=\"bold\">%s</text>\n<rect x=\"%d\" y=\"%d\" "
		"width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>\n",
		W, H, PL, title, PL, PT, W - PL - PR, H - PT - PB);
	for (j = 0; j <= 4; j++) {
		double yv = ymax * j / 4, tv = tmax * j / 4;

		fprintf(f, yv >= 1000 ? "<text x=\"%d\" y=\"%.1f\" "
			"text-anchor=\"end\">%.0f</text>\n" :
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.3g"
			"</text>\n", PL - 5, H - PB - yv * sy + 4, yv);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">"
			"%.0f s</text>\n", PL + tv * sx, H - PB + 15, tv);
	}
	fprintf(f, "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" "
		"text-anchor=\"middle\">%s</text>\n", (H - PB + PT) / 2,
		(H - PB + PT) / 2, ylabel);
	for (k = 0; k < nr_plot; k++) {
		const struct run *r = &runs[k];
		int pass;

		for (pass = 0; pass < 2; pass++) {
			int w = pass ? dashed : what, started = 0;

			if (w < 0 || (pass && k))
				continue;
			for (i = 0; i < r->n; i++) {
				double y = pass ? r->s[i].oracle * 100 :
					   yval(r, i, w);

				if (y < 0)
					continue;
				fprintf(f, "%s%.1f,%.1f", started ? " " :
					"<polyline fill=\"none\" stroke-width=\"1.6\""
					" points=\"", PL + r->s[i].t * sx,
					H - PB - y * sy);
				started = 1;
			}
			if (started)
				fprintf(f, "\" stroke=\"%s\"%s/>\n",
					pass ? "#777" : colors[k % 6],
					pass ? " stroke-dasharray=\"5,3\"" : "");
		}
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\">", PL, H - 12);
	for (k = 0; k < nr_plot; k++)
		fprintf(f, "<tspan fill=\"%s\">%s</tspan>%s", colors[k % 6],
			runs[k].label, k + 1 < nr_plot || dashed >= 0 ? ", " : "");
	if (dashed >= 0)
		fprintf(f, "<tspan fill=\"#777\">oracle for %s's node-0 pages "
			"(dashed)</tspan>", runs[0].label);
	fprintf(f, "</text>\n</svg>\n");
	return fclose(f);
}
