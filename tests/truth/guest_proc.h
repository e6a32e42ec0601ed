/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * truth-guest's readers of what the kernel shows in procfs and sysfs:
 * the zones' free pages and watermarks, a task's pages per node, its
 * NUMA scan sequence and CPU times, kswapd0's pid, the machine line and
 * the vmstat counters (guest_proc.c). A file that cannot be read leaves
 * zeros or -1, never an error: the sample goes on.
 */
#ifndef TRUTH_GUEST_PROC_H
#define TRUTH_GUEST_PROC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MAX_NODES	4

/* Sums over the zones of each node, from /proc/zoneinfo. */
struct zinfo {
	uint64_t free[MAX_NODES], min[MAX_NODES], low[MAX_NODES];
	uint64_t high[MAX_NODES], managed[MAX_NODES], present[MAX_NODES];
	uint64_t boost[MAX_NODES];
	int nr_nodes;
};

/* The first line of @path, stripped; "" if unreadable. */
void read_line(const char *path, char *buf, size_t len);
/* The number on the first line of @path; -1 if unreadable. */
long long read_num(const char *path);
/*
 * Sum the zones of each node. With @detail, also print each populated
 * zone: its size, watermarks and lowmem reserves if @machine, else its
 * free pages.
 */
void read_zoneinfo(struct zinfo *z, FILE *detail, int machine);
/* Task @pid's resident pages per node in the mappings at @vbase. */
void read_numa_maps(int pid, uint32_t nvma, char *const *vbase,
		    uint64_t ws[MAX_NODES]);
/* The pid of kswapd0 (node 0's kswapd), or -1. */
int find_kswapd0(void);
/*
 * mm->numa_scan_seq and se.sum_exec_runtime (ms) of task @pid; -1 each if
 * unreadable.
 */
void read_sched(int pid, long long *seq, double *cpu_ms);
/* utime and stime of task @pid, ms; -1 each if unreadable. */
void read_times(int pid, double *user_ms, double *sys_ms);
/* TRUTH machine: node sizes, zone watermarks, the NUMA settings, tiers. */
void print_machine(void);

/* The /proc/vmstat counters a sample prints, in its order. */
#define NR_VMSTAT	26
extern const char *const vmstat_keys[];
/*
 * /proc/vmstat's counters named in vmstat_keys[] into @vals (left as they
 * were if it cannot be read); returns 0, or -1 if it cannot.
 */
int read_vmstat(unsigned long long *vals);
/* The value of vmstat_keys[]'s @key in @vals. */
unsigned long long vmstat_val(const unsigned long long *vals, const char *key);

#endif /* TRUTH_GUEST_PROC_H */
