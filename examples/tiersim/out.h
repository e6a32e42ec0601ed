/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tiersim output: the per-run table, JSON, CSV (the same fields) and the SVG
 * plot, all written by tiersim itself.
 */
#ifndef _TIERSIM_OUT_H
#define _TIERSIM_OUT_H

#include "sim.h"

/**
 * struct run_set - the runs of one workload (or trace) under several policies
 * @title: short name (workload or trace file)
 * @cfg: the machine and kernel settings
 * @src: the source
 * @wp: the workload's parameters (NULL for a trace)
 * @seed: the seed
 * @nr: runs
 * @res: results, in the order the policies were named
 */
struct run_set {
	const char *title;
	const struct sim_cfg *cfg;
	const struct sim_src *src;
	const struct wl_params *wp;
	u64 seed;
	u32 nr;
	struct sim_result *res;
};

void out_table(FILE *f, const struct run_set *rs);
void out_json(FILE *f, const struct run_set *rs, u32 nr_sets);
void out_csv(FILE *f, const struct run_set *rs, u32 nr_sets);
int out_svg(const char *path, const struct run_set *rs);

/* Helpers for results pages. */
double out_pct(double a, double b);	/* (a - b) / b in %, 0 if b == 0 */

#endif /* _TIERSIM_OUT_H */
