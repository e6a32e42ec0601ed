/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * truth-guest's command line (guest_opts.c): the workload's parameters,
 * the sampling, the kernel settings to write first, the CPU to run on and
 * the runtime's settings, each option on top of its default; --help.
 */
#ifndef TRUTH_GUEST_OPTS_H
#define TRUTH_GUEST_OPTS_H

#include <stdint.h>

#include "wl.h"
#include "guest_rt.h"

/* What the options ask for. */
struct guest_opts {
	struct wl_params p;	/* the workload: its kind's defaults, then
				 * the options */
	unsigned int sample_ms;	/* --sample-ms; 2000 */
	unsigned int prog_ms;	/* --prog-ms; 0: none */
	uint64_t max_ms;	/* --max-seconds, in ms; 0: never */
	int thp;		/* --thp */
	double init_fast;	/* --init-fast; 0: off */
	long long rate;		/* --rate-limit-mbps; -1: left as it is */
	long long pmax;		/* --scan-period-max-ms; -1: left as it is */
	int node_map;		/* --node-map */
	int cpu;		/* --cpu; -1: not pinned */
	unsigned int signal_hz;	/* --signal-hz; 0: none */
	int signal_self;	/* --signal-self: raised by the workload */
	unsigned int flush_ms;	/* --tlb-flush-ms; 0: none */
	struct grt_opts rt;	/* --runtime (rt.source; NULL: no runtime)
				 * and the --rt-* options */
};

/*
 * Fill @o from the command line. --help prints the usage and exits 0; an
 * unknown workload or option, a bad value or an argument left over print
 * it to stderr and exit 2.
 */
void guest_opts_parse(struct guest_opts *o, int argc, char **argv);

#endif /* TRUTH_GUEST_OPTS_H */
