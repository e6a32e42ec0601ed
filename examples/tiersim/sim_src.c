// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim: sources (a workload generator or a trace), the stream reader
 * the main loop replays, and the oracle's per-page access counts.
 */
#include "sim_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int sim_src_workload(struct sim_src *s, struct wl *w)
{
	struct wl_machine m;
	u32 i;

	memset(s, 0, sizeof(*s));
	s->name = wl_kind_name(w->p.kind);
	s->wl = w;
	s->pages = w->p.pages;
	s->total = w->total;
	s->nr_threads = w->p.threads;
	s->nr_vmas = w->nr_vmas;
	s->vma = calloc(w->nr_vmas, sizeof(*s->vma));
	if (!s->vma)
		return -1;
	for (i = 0; i < w->nr_vmas; i++) {
		s->vma[i].first = w->vma[i].first;
		s->vma[i].pages = w->vma[i].pages;
	}
	s->nr_phases = w->nr_phases;
	for (i = 0; i < w->nr_phases; i++) {
		s->phase_name[i] = w->phase[i].name;
		s->phase_measured[i] = w->phase[i].measured;
	}
	s->needs_pressure = 1;
	wl_machine_defaults(w->p.kind, &m);
	s->cpu_ns = m.cpu_ns;
	s->mlp = m.mlp;
	return 0;
}

int sim_src_trace(struct sim_src *s, struct trace *t)
{
	struct wl_machine m;
	u32 i;

	memset(s, 0, sizeof(*s));
	s->name = t->path;
	s->tr = t;
	s->pages = t->nr_pages;
	s->total = t->nr_accesses;
	s->nr_threads = t->nr_threads;
	s->nr_vmas = t->nr_vmas;
	s->vma = calloc(t->nr_vmas, sizeof(*s->vma));
	if (!s->vma)
		return -1;
	for (i = 0; i < t->nr_vmas; i++) {
		s->vma[i].first = t->vma[i].first;
		s->vma[i].pages = t->vma[i].pages;
	}
	s->nr_phases = 1;
	s->phase_name[0] = "trace";
	s->phase_measured[0] = 1;
	s->needs_pressure = 0;
	wl_machine_defaults(WL_NR_KINDS, &m);	/* no workload's own */
	s->cpu_ns = m.cpu_ns;
	s->mlp = 1;		/* a trace's accesses as recorded, in series */
	return 0;
}

void sim_src_free(struct sim_src *s)
{
	free(s->vma);
	free(s->oracle_count);
	s->vma = NULL;
	s->oracle_count = NULL;
}


int reader_open(struct reader *rd, const struct sim_src *src,
		       char *err, size_t errlen)
{
	memset(rd, 0, sizeof(*rd));
	rd->src = src;
	if (src->wl) {
		/* Shares the template's read-only tables. */
		rd->wl = *src->wl;
		wl_rewind(&rd->wl);
		return 0;
	}
	return trace_stream_open(&rd->ts, src->tr, err, errlen);
}

/* Returns the count (0 at the end) and the phase, or -1. */
long reader_fill(struct reader *rd, u64 *buf, u64 *gap, size_t n,
			u32 *phase, char *err, size_t errlen)
{
	long got;

	if (rd->src->wl) {
		got = (long)wl_fill(&rd->wl, buf, n);
		*phase = wl_phase(&rd->wl);
		return got;
	}
	*phase = 0;
	return trace_stream_fill(&rd->ts, buf, rd->src->tr->has_time ? gap :
				 NULL, n, err, errlen);
}

void reader_close(struct reader *rd)
{
	if (!rd->src->wl)
		trace_stream_close(&rd->ts);
}

int sim_src_count(struct sim_src *s, char *err, size_t errlen)
{
	struct reader rd;
	u64 *buf, *gap;
	u32 phase;
	long got, i;

	if (s->oracle_count)
		return 0;
	s->oracle_count = calloc(s->pages, sizeof(*s->oracle_count));
	if (!s->oracle_count) {
		snprintf(err, errlen, "out of memory for the oracle's counts");
		return -1;
	}
	if (s->tr) {
		memcpy(s->oracle_count, s->tr->count,
		       s->pages * sizeof(*s->oracle_count));
		return 0;
	}
	buf = malloc(BATCH * sizeof(*buf));
	gap = malloc(BATCH * sizeof(*gap));
	if (!buf || !gap || reader_open(&rd, s, err, errlen)) {
		free(buf);
		free(gap);
		if (!*err)
			snprintf(err, errlen, "out of memory");
		return -1;
	}
	while ((got = reader_fill(&rd, buf, gap, BATCH, &phase, err,
				  errlen)) > 0)
		for (i = 0; i < got; i++) {
			u32 *c = &s->oracle_count[WL_PAGE(buf[i])];

			if (*c != UINT32_MAX)
				(*c)++;
		}
	reader_close(&rd);
	free(buf);
	free(gap);
	return got < 0 ? -1 : 0;
}

