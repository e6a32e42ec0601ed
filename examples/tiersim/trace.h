/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tiersim trace replay: valgrind lackey --trace-mem=yes output and
 * tiersim's own compact text format, both streamed.
 *
 * A trace is read twice. The first pass (trace_open()) streams the file
 * once, collects the distinct 4 KiB pages it touches with their access
 * counts, the threads and the length, and validates every line: a
 * malformed line is reported as "FILE:LINE: reason" before any simulation
 * starts. The pages are numbered densely in address order, and runs of pages
 * closer than TRACE_VMA_GAP apart form one VMA. The second pass
 * (trace_stream_*) streams the file again per simulation and yields the
 * accesses in the same encoding as the workload generators (wl.h). Memory
 * is proportional to the distinct pages, never to the trace length.
 *
 * tiersim format, one access per line ('#' starts a comment):
 *
 *	OP ADDR [TID [TIME_NS]]
 *
 * OP is R (read) or W (write) (also r, w, and L, S, M as in lackey, M
 * counting as a write); ADDR is hexadecimal, with or without 0x; TID a
 * decimal thread id below 65536; TIME_NS a decimal timestamp in
 * nanoseconds. Either every access has a timestamp or none has, and they
 * do not decrease from one access to the next (in the file's order, all
 * threads together): a timestamp before the previous one is an error.
 * Timestamps are at most TRACE_MAX_TIME_NS (a signed 64-bit clock's) and
 * span at most TRACE_MAX_SPAN_DAYS days from the first access's: the
 * simulated time drives the run time, and a larger span is most likely
 * two clocks mixed (a run of 30 days takes under a second at the shortest
 * scan period).
 */
#ifndef _TIERSIM_TRACE_H
#define _TIERSIM_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum trace_format {
	TRACE_AUTO = 0,
	TRACE_LACKEY = 1,
	TRACE_TIERSIM = 2,
};

/* The largest timestamp, and the longest span of a trace's timestamps. */
#define TRACE_MAX_TIME_NS	9223372036854775807ULL
#define TRACE_MAX_SPAN_DAYS	30
#define TRACE_MAX_SPAN_NS	\
	(TRACE_MAX_SPAN_DAYS * 86400ULL * 1000000000ULL)

/* Pages closer than this (in pages, 2 MiB) belong to the same VMA. */
#define TRACE_VMA_GAP		512

struct trace_vma {
	uint64_t first;		/* first dense page index */
	uint64_t pages;		/* pages in the VMA */
};

/**
 * struct trace - a validated trace (read-only after trace_open())
 * @path: the file
 * @format: &enum trace_format, resolved
 * @instr: lackey: instruction fetches count as reads
 * @nr_accesses: accesses in the trace
 * @nr_pages: distinct pages
 * @nr_threads: distinct thread ids (at least 1)
 * @has_time: every access has a timestamp
 * @vpn: page numbers (address >> 12) by dense index, ascending
 * @count: accesses per dense page
 * @nr_vmas: VMAs
 * @vma: the VMAs, ascending
 * @hkeys: hash table keys (vpn + 1; 0 = empty)
 * @hvals: hash table values (dense index)
 * @hmask: hash table size - 1
 * @tidmap: thread id -> dense thread index + 1 (0 = unseen)
 */
struct trace {
	const char *path;
	int format;
	int instr;
	uint64_t nr_accesses;
	uint64_t nr_pages;
	uint32_t nr_threads;
	int has_time;
	uint64_t *vpn;
	uint32_t *count;
	uint32_t nr_vmas;
	struct trace_vma *vma;
	uint64_t *hkeys;
	uint32_t *hvals;
	uint64_t hmask;
	uint16_t *tidmap;
};

/**
 * struct trace_stream - one replay of a trace
 * @t: the trace
 * @f: the open file
 * @line: current line number
 * @buf: line buffer (getline())
 * @cap: its capacity
 * @prev_time: previous timestamp
 * @done: accesses yielded
 */
struct trace_stream {
	const struct trace *t;
	FILE *f;
	uint64_t line;
	char *buf;
	size_t cap;
	uint64_t prev_time;
	uint64_t done;
};

/*
 * First pass: open, detect the format (@format TRACE_AUTO), validate and
 * index. Returns 0, or -1 with "FILE:LINE: reason" (or "FILE: reason") in
 * @err.
 */
int trace_open(struct trace *t, const char *path, int format, int instr,
	       char *err, size_t errlen);

/*
 * A trace_open() that calls @progress(@arg, bytes read, file size or 0
 * if unknown) every 65536 lines of the first pass, and at its end.
 */
typedef void (*trace_progress_fn)(void *arg, uint64_t done, uint64_t total);
int trace_open_progress(struct trace *t, const char *path, int format,
			int instr, trace_progress_fn progress, void *arg,
			char *err, size_t errlen);
void trace_close(struct trace *t);

/* Dense index of a page number, or -1 if the trace never touches it. */
int64_t trace_page_index(const struct trace *t, uint64_t vpn);

/* Second pass. */
int trace_stream_open(struct trace_stream *s, const struct trace *t,
		      char *err, size_t errlen);
/*
 * Up to @n accesses into @buf (wl.h encoding) and, when the trace has
 * timestamps and @gap is not NULL, the time since the previous access in
 * @gap (0 for the first). Returns the count, 0 at the end, -1 on a read
 * error or a file that changed since the first pass (@err says which).
 */
long trace_stream_fill(struct trace_stream *s, uint64_t *buf, uint64_t *gap,
		       size_t n, char *err, size_t errlen);
void trace_stream_close(struct trace_stream *s);

/* Name of a format, and the format of a name (-1 if unknown). */
const char *trace_format_name(int format);
int trace_format_parse(const char *name);

#endif /* _TIERSIM_TRACE_H */
