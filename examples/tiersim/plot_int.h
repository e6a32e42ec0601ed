/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tiersim: the buckets and axes of the plot (plot.c), for plot.c and its
 * tests (tests/test_tiersim_ui.c); the rest of tiersim draws a plot with
 * out_svg() (out.h).
 */
#ifndef _TIERSIM_PLOT_INT_H
#define _TIERSIM_PLOT_INT_H

#include "sim.h"

#include <stddef.h>

#define MAX_BUCKETS	200
#define NR_Q		3	/* quantities: fast share, rate, threshold */

/* One policy's buckets of one quantity. */
struct series {
	u32 n;
	double t[MAX_BUCKETS];		/* where it is drawn, s */
	double v[MAX_BUCKETS];
	u8 ok[MAX_BUCKETS];		/* has a value */
};

struct axis {
	double lo, hi, step;
};

/* For the tests: no other file calls these. */
void bucket(const struct sim_result *r, double width, struct series *s);
int same_series(const struct sim_result *a, const struct sim_result *b);
void fit(struct axis *a, double lo, double hi, int steps);
void tick_text(char *b, size_t n, double v, double step);

#endif /* _TIERSIM_PLOT_INT_H */
