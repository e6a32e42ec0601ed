/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * truth-guest's part for the runtime comparison (make runtime-truth,
 * docs/RUNTIME-RESULTS.md): the tierpol runtime placing the workload's
 * memory, and the map of which of its pages are on node 0.
 */
#ifndef TRUTH_GUEST_RT_H
#define TRUTH_GUEST_RT_H

#include <stdint.h>
#include <sys/types.h>

/* One line, one write() (guest.c). */
void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The runtime's settings that truth-guest's options change. */
struct grt_opts {
	const char *source;	/* "mprotect" or "uffd" */
	unsigned int block;	/* pages; 0: the default */
	const char *decide;	/* "page", "block", "fault"; NULL: the default */
	int ring;		/* latencies from the scan ring */
	int nodefer;		/* TPRT_F_NO_DEFER: 1 set, 0 clear, -1 default */
	int defer_shift;	/* tprt_cfg.defer_shift; -1: the default */
	unsigned int batch;	/* tprt_cfg.batch; 0: the default */
	const char *clock;	/* "cpu", "wall"; NULL: the default */
	int victims;		/* TPRT_F_VICTIMS */
	int recheck;		/* TPRT_F_RECHECK: 0 off, 1 always, 2 with
				 * _FILL, -1 the default */
	int sweep_fill;		/* TPRT_F_SWEEP_FILL: 1 set, 0 clear, -1 the
				 * default */
	int sample_shift;	/* tprt_cfg.sample_shift; -1: the default */
	int room_batches;	/* tprt_cfg.room_batches; -1: the default */
	int all_cpus;		/* --rt-cpus-all: the threads on every CPU;
				 * 2, --rt-cpus-other: on every CPU but the
				 * program's */
	int program_cpu;	/* --cpu: the program's CPU; -1 not pinned */
};

/* Start the runtime over the workload's @nvma VMAs (VMA v: @pages[v]
 * pages at @base[v], each registered as a region of its own); 0, or -1
 * with a message printed. */
int grt_start(const struct grt_opts *o, uint32_t nvma, void *const *base,
	      const uint64_t *pages);
/* TRUTH rt t_ms= acc= and the runtime's counters. */
void grt_report(uint64_t t_ms, uint64_t acc);
void grt_stop(uint64_t t_ms, uint64_t acc);

/* TRUTH nodemap t_ms= n0=HEX: bit i of the hex string (page i of the
 * workload, 4 pages a digit, lowest first) set if the page is on node 0,
 * from /proc/PID/pagemap (tprt_page_nodes(): it sees pages the scanner
 * has protected; it takes the mmap lock 512 pages at a time). The
 * workload's pages are its @nvma VMAs in order (VMA v: @pages[v] pages at
 * @base[v]). ws[0] and ws[1] get the pages on node 0 and on node 1. */
void nodemap_print(pid_t pid, uint32_t nvma, void *const *base,
		   const uint64_t *pages, uint64_t t_ms, uint64_t ws[2]);

#endif /* TRUTH_GUEST_RT_H */
