// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * truth-guest's part for the runtime comparison (see guest_rt.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest_rt.h"
#include "tprt.h"

static const char *const decide_names[] = {
	[TPRT_DECIDE_PAGE] = "page",
	[TPRT_DECIDE_BLOCK] = "block",
	[TPRT_DECIDE_FAULT] = "fault",
};

int grt_start(const struct grt_opts *o, uint32_t nvma, void *const *base,
	      const uint64_t *pages)
{
	struct tprt_cfg cfg;
	unsigned int src, d;
	uint32_t v;
	int ret;

	if (!strcmp(o->source, "mprotect")) {
		src = TPRT_SRC_MPROTECT;
	} else if (!strcmp(o->source, "uffd")) {
		src = TPRT_SRC_UFFD_WP;
	} else {
		out("TRUTH fail unknown runtime source %s\n", o->source);
		return -1;
	}
	tprt_cfg_default(&cfg);
	if (o->block)
		cfg.block_pages = o->block;
	if (o->ring)
		cfg.flags |= TPRT_F_RING_LATENCY;
	/* A defer shift keeps refused pages unless told to drop them. */
	if (o->nodefer == 1)
		cfg.flags |= TPRT_F_NO_DEFER;
	else if (!o->nodefer || o->defer_shift >= 0)
		cfg.flags &= ~TPRT_F_NO_DEFER;
	if (o->victims)
		cfg.flags |= TPRT_F_VICTIMS;
	if (o->recheck >= 0)
		cfg.flags &= ~(TPRT_F_RECHECK | TPRT_F_RECHECK_FILL);
	if (o->recheck > 0)
		cfg.flags |= TPRT_F_RECHECK;
	if (o->recheck == 2)
		cfg.flags |= TPRT_F_RECHECK_FILL;
	if (o->sweep_fill == 1)
		cfg.flags |= TPRT_F_SWEEP_FILL;
	else if (!o->sweep_fill)
		cfg.flags &= ~TPRT_F_SWEEP_FILL;
	if (o->sample_shift >= 0)
		cfg.sample_shift = (uint32_t)o->sample_shift;
	if (o->defer_shift >= 0)
		cfg.defer_shift = (uint32_t)o->defer_shift;
	if (o->room_batches >= 0)
		cfg.room_batches = (uint32_t)o->room_batches;
	if (o->batch)
		cfg.batch = o->batch;
	for (d = 0; o->decide && d < 3; d++)
		if (!strcmp(o->decide, decide_names[d]))
			break;
	if (d == 3) {
		out("TRUTH fail unknown --rt-decide %s\n", o->decide);
		return -1;
	}
	if (o->decide)
		cfg.decide = d;
	if (o->clock && strcmp(o->clock, "cpu") && strcmp(o->clock, "wall")) {
		out("TRUTH fail unknown --rt-clock %s\n", o->clock);
		return -1;
	}
	if (o->clock)
		cfg.clock = strcmp(o->clock, "cpu") ? TPRT_CLOCK_WALL :
			    TPRT_CLOCK_CPU;
	ret = tprt_init(&cfg);
	for (v = 0; !ret && v < nvma; v++)
		ret = tprt_register(base[v], pages[v] * 4096, src);
	if (ret) {
		out("TRUTH fail runtime: %s\n", strerror(-ret));
		return -1;
	}
	out("TRUTH runtime source=%s block_pages=%u chunk_pages=%u"
	    " scan_size_mb=%u batch=%u regions=%u decide=%s latency=%s"
	    " clock=%s defer=%d defer_shift=%u victims=%d sample_shift=%u"
	    " recheck=%d sweep_fill=%d room_batches=%u threads_cpu=%s\n",
	    o->source, cfg.block_pages, cfg.chunk_pages, cfg.scan_size_mb,
	    cfg.batch, nvma, decide_names[cfg.decide],
	    o->ring ? "ring" : "stamp",
	    cfg.clock == TPRT_CLOCK_CPU ? "cpu" : "wall",
	    !(cfg.flags & TPRT_F_NO_DEFER), cfg.defer_shift, o->victims,
	    cfg.sample_shift,
	    !(cfg.flags & TPRT_F_RECHECK) ? 0 :
	    (cfg.flags & TPRT_F_RECHECK_FILL) ? 2 : 1,
	    !!(cfg.flags & TPRT_F_SWEEP_FILL), cfg.room_batches,
	    o->program_cpu < 0 || o->all_cpus == 1 ? "all" :
	    o->all_cpus ? "other" : "program");
	return 0;
}

/* " csw_<comm>=voluntary+involuntary" context switches of thread @tid. */
static size_t ctxt_switches(const char *tid, const char *comm, char *buf,
			    size_t len)
{
	unsigned long long vol = 0, inv = 0;
	char path[300], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%s/status", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "voluntary_ctxt_switches: %llu", &vol);
		sscanf(line, "nonvoluntary_ctxt_switches: %llu", &inv);
	}
	fclose(f);
	return (size_t)snprintf(buf, len, " csw_%s=%llu+%llu", comm, vol, inv);
}

/*
 * " cpu_<comm>=user+sys ms csw_<comm>=voluntary+involuntary" of each of
 * this process's threads.
 */
static size_t thread_times(char *buf, size_t len)
{
	char path[300], line[512], comm[32];
	long hz = sysconf(_SC_CLK_TCK);
	struct dirent *de;
	size_t off = 0;
	DIR *d = opendir("/proc/self/task");

	while (d && (de = readdir(d)) && off < len) {
		unsigned long long ut, st;
		FILE *f;
		char *p;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/stat",
			 de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f) && (p = strrchr(line, ')')) &&
		    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u "
			   "%*u %llu %llu", &ut, &st) == 2 &&
		    sscanf(strchr(line, '(') + 1, "%31[^)]", comm) == 1 &&
		    hz > 0)
			off += (size_t)snprintf(buf + off, len - off,
				" cpu_%s=%llu+%llu", comm, ut * 1000 / hz,
				st * 1000 / hz);
		fclose(f);
		if (off < len)
			off += ctxt_switches(de->d_name, comm, buf + off,
					     len - off);
	}
	if (d)
		closedir(d);
	return off;
}

void grt_report(uint64_t t_ms, uint64_t acc)
{
	struct tprt_stats s;
	char buf[4096];
	size_t off;
	unsigned int i;

	tprt_stats(&s);
	off = (size_t)snprintf(buf, sizeof(buf),
		"TRUTH rt t_ms=%llu acc=%llu faults=%llu faults_write=%llu"
		" stale=%llu chained=%llu restore_chunk=%llu queued=%llu"
		" queue_full=%llu moved=%llu move_calls=%llu passes=%llu"
		" passes_fill=%llu seq=%llu period_ms=%llu scan_pages=%llu"
		" protected=%llu"
		" scan_cpu_ms=%llu scan_query_ms=%llu vma_est=%llu nudges=%llu nudge_pages=%llu"
		" mem_free=%llu deferred=%llu deferred_full=%llu"
		" deferred_moved=%llu sample_faults=%llu victims_found=%llu"
		" demoted=%llu demote_fail=%llu rechecks=%llu recheck_full=%llu"
		" scan_calls=%llu scan_calls_wide=%llu",
		(unsigned long long)t_ms, (unsigned long long)acc,
		(unsigned long long)s.faults,
		(unsigned long long)s.faults_write,
		(unsigned long long)s.faults_stale,
		(unsigned long long)s.chained,
		(unsigned long long)s.restore_chunk,
		(unsigned long long)s.queued,
		(unsigned long long)s.queue_full,
		(unsigned long long)s.moved,
		(unsigned long long)s.move_calls,
		(unsigned long long)s.passes,
		(unsigned long long)s.passes_fill, (unsigned long long)s.seq,
		(unsigned long long)s.scan_period_ms,
		(unsigned long long)s.scan_pages,
		(unsigned long long)s.blocks_protected,
		(unsigned long long)(s.scan_cpu_ns / 1000000),
		(unsigned long long)(s.scan_query_ns / 1000000),
		(unsigned long long)s.vma_est,
		(unsigned long long)s.nudges,
		(unsigned long long)s.nudge_pages,
		(unsigned long long)s.mem_free,
		(unsigned long long)s.deferred,
		(unsigned long long)s.deferred_full,
		(unsigned long long)s.deferred_moved,
		(unsigned long long)s.sample_faults,
		(unsigned long long)s.victims_found,
		(unsigned long long)s.demoted,
		(unsigned long long)s.demote_fail,
		(unsigned long long)s.rechecks,
		(unsigned long long)s.recheck_full,
		(unsigned long long)s.scan_calls,
		(unsigned long long)s.scan_calls_wide);
	/* v_: every decision; vo_: of them, a block's other pages. */
	for (i = 0; i < 2 * TPRT_NR_VERDICTS && off < sizeof(buf); i++) {
		unsigned int v = i % TPRT_NR_VERDICTS;
		bool others = i >= TPRT_NR_VERDICTS;
		size_t k = off + 3;

		off += (size_t)snprintf(buf + off, sizeof(buf) - off,
					" %s_%s=%llu", others ? "vo" : "v",
					tprt_verdict_name(v),
					(unsigned long long)(others ?
					s.verdict_others[v] : s.verdict[v]));
		/* Keys in snake case: v_refuse_cold. */
		for (; k < off && k < sizeof(buf) && buf[k] != '='; k++)
			if (buf[k] == '-')
				buf[k] = '_';
	}
	if (off < sizeof(buf))
		off += (size_t)snprintf(buf + off, sizeof(buf) - off,
			" tp_decided=%llu tp_candidate=%llu tp_promoted=%llu"
			" tp_threshold_ms=%llu tp_th_raised=%llu"
			" tp_th_lowered=%llu",
			(unsigned long long)s.tp_decided,
			(unsigned long long)s.tp_candidate,
			(unsigned long long)s.tp_promoted,
			(unsigned long long)s.tp_threshold_ms,
			(unsigned long long)s.tp_th_raised,
			(unsigned long long)s.tp_th_lowered);
	for (i = 0; i < TPRT_NR_MOVE_FAIL && off < sizeof(buf); i++)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off,
					" mf_%s=%llu", tprt_move_fail_name(i),
					(unsigned long long)s.move_fail[i]);
	if (off < sizeof(buf))
		thread_times(buf + off, sizeof(buf) - off);
	out("%s\n", buf);
}

void grt_stop(uint64_t t_ms, uint64_t acc)
{
	grt_report(t_ms, acc);
	tprt_shutdown();
}

void nodemap_print(pid_t pid, uint32_t nvma, void *const *base,
		   const uint64_t *pages, uint64_t t_ms, uint64_t ws[2])
{
	static const char hex[] = "0123456789abcdef";
	static int nodes[4096];
	uint64_t i, j, n, k = 0, all = 0, on0 = 0, on1 = 0;
	unsigned int nib = 0;
	uint32_t v;
	char *line;
	size_t off;

	for (v = 0; v < nvma; v++)
		all += pages[v];
	line = malloc(all / 4 + 128);
	if (!line)
		return;
	off = (size_t)sprintf(line, "TRUTH nodemap t_ms=%llu n0=",
			      (unsigned long long)t_ms);
	/* k: the workload's page index, across the VMAs. */
	for (v = 0; v < nvma; v++) {
		for (i = 0; i < pages[v]; i += n) {
			n = pages[v] - i < 4096 ? pages[v] - i : 4096;
			if (tprt_page_nodes((int)pid,
					    (const char *)base[v] + i * 4096,
					    n, nodes))
				memset(nodes, 0xff, sizeof(nodes));
			for (j = 0; j < n; j++, k++) {
				nib |= (unsigned int)(nodes[j] == 0) << (k % 4);
				on0 += nodes[j] == 0;
				on1 += nodes[j] == 1;
				if (k % 4 == 3 || k == all - 1) {
					line[off++] = hex[nib];
					nib = 0;
				}
			}
		}
	}
	off += (size_t)sprintf(line + off, " on0=%llu\n",
			       (unsigned long long)on0);
	ws[0] = on0;
	ws[1] = on1;
	if (write(STDOUT_FILENO, line, off) < 0)
		off = 0;
	free(line);
}
