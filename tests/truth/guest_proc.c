// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * truth-guest's readers of procfs and sysfs (guest_proc.h).
 */
#define _GNU_SOURCE
#include "guest_proc.h"
#include "guest_rt.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The first line of @path, stripped; "" if unreadable. */
void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
}

long long read_num(const char *path)
{
	char buf[64];

	read_line(path, buf, sizeof(buf));
	return buf[0] ? atoll(buf) : -1;
}


/*
 * Sum the zones of each node. With @detail, also print each populated
 * zone: its size, watermarks and lowmem reserves if @machine, else its
 * free pages.
 */
void read_zoneinfo(struct zinfo *z, FILE *detail, int machine)
{
	char line[256], zone[32] = "";
	FILE *f = fopen("/proc/zoneinfo", "r");
	int node = -1;
	unsigned long long v, zfree = 0;

	memset(z, 0, sizeof(*z));
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int n;
		char zn[32], *pr;

		if (sscanf(line, "Node %d, zone %31s", &n, zn) == 2) {
			node = n < MAX_NODES ? n : -1;
			snprintf(zone, sizeof(zone), "%s", zn);
			if (node >= z->nr_nodes)
				z->nr_nodes = node + 1;
			continue;
		}
		if (node < 0)
			continue;
		if (sscanf(line, " pages free %llu", &v) == 1) {
			z->free[node] += v;
			zfree = v;
		} else if (sscanf(line, " boost %llu", &v) == 1) {
			z->boost[node] += v;
		} else if (sscanf(line, " min %llu", &v) == 1) {
			z->min[node] += v;
			if (detail && machine)
				fprintf(detail, " z%d_%s_min=%llu", node, zone,
					v);
		} else if (sscanf(line, " low %llu", &v) == 1) {
			z->low[node] += v;
			if (detail && machine)
				fprintf(detail, " z%d_%s_low=%llu", node, zone,
					v);
		} else if (sscanf(line, " high %llu", &v) == 1) {
			z->high[node] += v;
			if (detail && machine)
				fprintf(detail, " z%d_%s_high=%llu", node,
					zone, v);
		} else if (sscanf(line, " present %llu", &v) == 1) {
			z->present[node] += v;
		} else if (sscanf(line, " managed %llu", &v) == 1) {
			z->managed[node] += v;
			if (detail && machine)
				fprintf(detail, " z%d_%s_managed=%llu", node,
					zone, v);
			else if (detail && v)
				fprintf(detail, " z%d_%s_free=%llu", node,
					zone, zfree);
		} else if (detail && machine &&
			   strstr(line, "protection: (")) {
			pr = strstr(line, "protection: (") + 13;
			pr[strcspn(pr, ")")] = 0;
			for (n = 0; pr[n]; n++)
				if (pr[n] == ' ')
					pr[n] = '_';
			fprintf(detail, " z%d_%s_protection=%s", node, zone,
				pr);
		}
	}
	fclose(f);
}

/*
 * Task @pid's resident pages per node in its mappings that start at one of
 * the @nvma addresses @vbase (their numa_maps lines).
 */
void read_numa_maps(int pid, uint32_t nvma, char *const *vbase,
		    uint64_t ws[MAX_NODES])
{
	char line[1024], key[64];
	FILE *f;
	unsigned long addr;
	int i;

	for (i = 0; i < MAX_NODES; i++)
		ws[i] = 0;
	snprintf(key, sizeof(key), "/proc/%d/numa_maps", pid);
	f = fopen(key, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p;

		uint32_t v;

		if (sscanf(line, "%lx", &addr) != 1)
			continue;
		for (v = 0; v < nvma; v++)
			if (addr == (unsigned long)vbase[v])
				break;
		if (v == nvma)
			continue;
		for (i = 0; i < MAX_NODES; i++) {
			char tag[8];

			snprintf(tag, sizeof(tag), " N%d=", i);
			p = strstr(line, tag);
			if (p)
				ws[i] += strtoull(p + strlen(tag), NULL, 10);
		}
		/* Drain an over-long line. */
		while (!strchr(line, '\n') && fgets(line, sizeof(line), f))
			;
	}
	fclose(f);
}

/* The pid of kswapd0 (node 0's kswapd), or -1. */
int find_kswapd0(void)
{
	struct dirent *de;
	char path[300], comm[64];
	DIR *d = opendir("/proc");
	int pid = -1;

	while (d && (de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		read_line(path, comm, sizeof(comm));
		if (!strcmp(comm, "kswapd0")) {
			pid = atoi(de->d_name);
			break;
		}
	}
	if (d)
		closedir(d);
	return pid;
}

/* mm->numa_scan_seq and se.sum_exec_runtime (ms) of task @pid. */
void read_sched(int pid, long long *seq, double *cpu_ms)
{
	char path[64], line[256];
	FILE *f;

	*seq = -1;
	*cpu_ms = -1;
	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');

		if (!c)
			continue;
		if (!strncmp(line, "mm->numa_scan_seq", 17))
			*seq = atoll(c + 1);
		else if (!strncmp(line, "se.sum_exec_runtime", 19))
			*cpu_ms = atof(c + 1);
	}
	fclose(f);
}

/* utime and stime of task @pid, ms (/proc/PID/stat, USER_HZ ticks). */
void read_times(int pid, double *user_ms, double *sys_ms)
{
	char path[64], line[1024], *p;
	unsigned long long ut = 0, st = 0;
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f;

	*user_ms = *sys_ms = -1;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return;
	p = fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
	/*
	 * After "(comm)": state ppid pgrp session tty tpgid flags minflt
	 * cminflt majflt cmajflt utime stime.
	 */
	if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
			"%llu %llu", &ut, &st) == 2 && hz > 0) {
		*user_ms = (double)ut * 1000.0 / (double)hz;
		*sys_ms = (double)st * 1000.0 / (double)hz;
	}
	fclose(f);
}

/* The machine as the kernel sees it: node sizes, watermarks, settings. */
void print_machine(void)
{
	static const char *const dbg[] = {
		"scan_delay_ms", "scan_period_min_ms", "scan_period_max_ms",
		"scan_size_mb", "hot_threshold_ms",
	};
	char buf[4096], path[512], line[256];
	struct zinfo z;
	struct dirent *de;
	DIR *d;
	FILE *m;
	size_t off, i;
	int n;

	m = fmemopen(buf, sizeof(buf), "w");
	if (!m)
		return;
	fprintf(m, "TRUTH machine");
	read_zoneinfo(&z, m, 1);
	for (n = 0; n < z.nr_nodes; n++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/node/node%d/cpulist", n);
		read_line(path, line, sizeof(line));
		fprintf(m, " n%d_present=%llu n%d_managed=%llu n%d_min=%llu"
			" n%d_low=%llu n%d_high=%llu n%d_cpus=%s", n,
			(unsigned long long)z.present[n], n,
			(unsigned long long)z.managed[n], n,
			(unsigned long long)z.min[n], n,
			(unsigned long long)z.low[n], n,
			(unsigned long long)z.high[n], n,
			line[0] ? line : "none");
	}
	for (i = 0; i < sizeof(dbg) / sizeof(dbg[0]); i++) {
		snprintf(path, sizeof(path),
			 "/sys/kernel/debug/sched/numa_balancing/%s", dbg[i]);
		fprintf(m, " %s=%lld", dbg[i], read_num(path));
	}
	fprintf(m, " promote_rate_limit_mbps=%lld numa_balancing=%lld"
		" demotion_enabled=",
		read_num("/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps"),
		read_num("/proc/sys/kernel/numa_balancing"));
	read_line("/sys/kernel/mm/numa/demotion_enabled", line, sizeof(line));
	fprintf(m, "%s watermark_scale_factor=%lld min_free_kbytes=%lld"
		" watermark_boost_factor=%lld", line,
		read_num("/proc/sys/vm/watermark_scale_factor"),
		read_num("/proc/sys/vm/min_free_kbytes"),
		read_num("/proc/sys/vm/watermark_boost_factor"));
	read_line("/sys/kernel/mm/transparent_hugepage/enabled", line,
		  sizeof(line));
	for (off = 0; line[off]; off++)
		if (line[off] == ' ')
			line[off] = '_';
	fprintf(m, " thp=%s", line[0] ? line : "none");
	d = opendir("/sys/devices/virtual/memory_tiering");
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "memory_tier", 11))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/virtual/memory_tiering/%s/nodelist",
			 de->d_name);
		read_line(path, line, sizeof(line));
		fprintf(m, " tier%s_nodes=%s", de->d_name + 11, line);
	}
	if (d)
		closedir(d);
	fclose(m);
	buf[sizeof(buf) - 1] = 0;
	out("%s\n", buf);
}

const char *const vmstat_keys[] = {
	"numa_hint_faults", "numa_hint_faults_local", "numa_pte_updates",
	"numa_pages_migrated", "pgpromote_candidate", "pgpromote_success",
	"pgdemote_kswapd", "pgdemote_direct", "pgmigrate_success",
	"pgmigrate_fail", "pgsteal_kswapd", "pgscan_kswapd", "pgrefill",
	"kswapd_low_wmark_hit_quickly",
	"kswapd_high_wmark_hit_quickly", "pageoutrun", "allocstall_movable",
	"allocstall_normal", "allocstall_dma32", "numa_foreign", "numa_miss",
	"pgalloc_dma32", "pgalloc_normal", "pgalloc_movable",
	"thp_migration_success", "thp_fault_alloc",
};

_Static_assert(sizeof(vmstat_keys) / sizeof(vmstat_keys[0]) == NR_VMSTAT,
	       "NR_VMSTAT counts vmstat_keys[]");

/*
 * /proc/vmstat's counters named in vmstat_keys[] into @vals (left as they
 * were if it cannot be read); returns 0, or -1 if it cannot.
 */
int read_vmstat(unsigned long long *vals)
{
	char line[256], k[64];
	unsigned long long v;
	FILE *f = fopen("/proc/vmstat", "r");
	size_t i;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %llu", k, &v) != 2)
			continue;
		for (i = 0; i < NR_VMSTAT; i++)
			if (!strcmp(k, vmstat_keys[i]))
				vals[i] = v;
	}
	fclose(f);
	return 0;
}

/* The value of vmstat_keys[]'s @key in @vals. */
unsigned long long vmstat_val(const unsigned long long *vals, const char *key)
{
	size_t i;

	for (i = 0; i < NR_VMSTAT; i++)
		if (!strcmp(key, vmstat_keys[i]))
			return vals[i];
	return 0;
}
