// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim trace replay: lackey and tiersim text formats (see trace.h).
 */
#define _GNU_SOURCE
#include "trace.h"
#include "wl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PAGE_SHIFT_4K	12
#define MAX_TID		65535U

/* One parsed line. */
struct tline {
	int kind;		/* 0: no access, 1: access */
	uint64_t addr;
	int write;
	uint32_t tid;
	int has_time;
	uint64_t time;
	char why[96];		/* a reason that names the value */
};

const char *trace_format_name(int format)
{
	switch (format) {
	case TRACE_LACKEY:
		return "lackey";
	case TRACE_TIERSIM:
		return "tiersim";
	default:
		return "auto";
	}
}

int trace_format_parse(const char *name)
{
	if (!strcmp(name, "auto"))
		return TRACE_AUTO;
	if (!strcmp(name, "lackey"))
		return TRACE_LACKEY;
	if (!strcmp(name, "tiersim"))
		return TRACE_TIERSIM;
	return -1;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Parse a hex number at *p; returns 0 and advances, or -1. */
static int parse_hex(const char **p, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	int n = 0, d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	while ((d = hexval((unsigned char)*s)) >= 0) {
		if (n == 16)
			return -1;	/* more than 64 bits */
		if (n || d)
			n++;
		v = (v << 4) | (uint64_t)d;
		s++;
	}
	if (s == *p || (s - *p == 2 && hexval((unsigned char)s[-1]) < 0))
		return -1;
	*out = v;
	*p = s;
	return 0;
}

/* Parse a decimal number at *p; returns 0 and advances, -1, or -2 when
 * it does not fit 64 bits. */
static int parse_dec(const char **p, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0, d;

	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9') {
		d = (uint64_t)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -2;
		v = v * 10 + d;
		s++;
	}
	*out = v;
	*p = s;
	return 0;
}

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/*
 * The end of a line: its newline, a CRLF's carriage return, or the end of
 * a last line without one. A carriage return inside a line is not: what
 * follows it would be dropped unseen.
 */
static int is_eol(const char *s)
{
	return !*s || *s == '\n' || (*s == '\r' && (!s[1] || s[1] == '\n'));
}

static int at_eol(const char *s)
{
	return is_eol(skip_ws(s));
}

/*
 * The end of a tiersim line's fields: its end, or a comment after a blank
 * ("R 7f00 # x", as --cpu-ns-file takes them; "R 7f00#x" is garbage after
 * the address).
 */
static int at_end(const char *s)
{
	const char *p = skip_ws(s);

	return is_eol(p) || (p != s && *p == '#');
}

/* Lackey: "I  addr,size", " L addr,size", " S ...", " M ...", "==pid== ..." */
/* A lackey access's largest size, bytes (an XSAVE area is a few KiB). */
#define LACKEY_MAX_SIZE		65536

static int parse_lackey(const char *s, int instr, struct tline *l,
			const char **why)
{
	uint64_t addr, size;
	const char *p;
	int op, ret;

	l->kind = 0;
	if ((s[0] == '=' && s[1] == '=') || (s[0] == '-' && s[1] == '-'))
		return 0;	/* valgrind's own messages */
	/* Blank and comment lines as detect() sees them, indented too. */
	if (at_eol(s) || *skip_ws(s) == '#')
		return 0;
	if (s[0] == 'I' && s[1] == ' ' && s[2] == ' ') {
		op = 'I';
		p = s + 3;
	} else if (s[0] == ' ' && (s[1] == 'L' || s[1] == 'S' ||
				   s[1] == 'M') && s[2] == ' ') {
		op = s[1];
		p = s + 3;
	} else {
		*why = "not a lackey line (expected \"I  ADDR,SIZE\" or "
		       "\" L|S|M ADDR,SIZE\")";
		return -1;
	}
	if (parse_hex(&p, &addr)) {
		*why = "bad hexadecimal address";
		return -1;
	}
	if (*p++ != ',' || (ret = parse_dec(&p, &size)) == -1 ||
	    (!ret && !at_eol(p))) {
		*why = "expected \",SIZE\" after the address";
		return -1;
	}
	if (ret || !size || size > LACKEY_MAX_SIZE) {
		*why = "size out of range (allowed: 1 to 65536 bytes)";
		return -1;
	}
	if (op == 'I' && !instr)
		return 0;
	l->kind = 1;
	l->addr = addr;
	l->write = op == 'S' || op == 'M';
	l->tid = 0;
	l->has_time = 0;
	return 0;
}

/* -1, "garbage after the @what" (and why, for a "#" against it). */
static int garbage(struct tline *l, const char *p, const char *what,
		   const char **why)
{
	snprintf(l->why, sizeof(l->why), "garbage after the %s%s", what,
		 *p == '#' ? " (a # comment needs a blank before it)" : "");
	*why = l->why;
	return -1;
}

static int parse_tiersim(const char *s, struct tline *l, const char **why)
{
	const char *p = skip_ws(s), *q;
	uint64_t v;
	size_t n;
	int op, r;

	l->kind = 0;
	if (*p == '#' || is_eol(p))
		return 0;
	op = *p++;
	switch (op) {
	case 'R': case 'r': case 'L':
		l->write = 0;
		break;
	case 'W': case 'w': case 'S': case 'M':
		l->write = 1;
		break;
	default:
		*why = "unknown operation (expected R or W)";
		return -1;
	}
	if (*p != ' ' && *p != '\t') {
		*why = "expected a space after the operation";
		return -1;
	}
	p = skip_ws(p);
	if (parse_hex(&p, &l->addr)) {
		*why = "bad hexadecimal address";
		return -1;
	}
	l->tid = 0;
	l->has_time = 0;
	if (!at_end(p)) {
		if (*p != ' ' && *p != '\t')
			return garbage(l, p, "address", why);
		p = skip_ws(p);
		if (parse_dec(&p, &v) || v > MAX_TID) {
			*why = "bad thread id (decimal, below 65536)";
			return -1;
		}
		l->tid = (uint32_t)v;
		if (!at_end(p)) {
			if (*p != ' ' && *p != '\t')
				return garbage(l, p, "thread id", why);
			p = skip_ws(p);
			q = p;
			r = parse_dec(&p, &l->time);
			if (r == -1) {
				*why = "bad timestamp (decimal nanoseconds)";
				return -1;
			}
			if (r == -2 || l->time > TRACE_MAX_TIME_NS) {
				n = strspn(q, "0123456789");
				snprintf(l->why, sizeof(l->why), "timestamp "
					 "%.*s%s ns is too large (allowed: 0 "
					 "to %llu ns)", n > 24 ? 24 : (int)n, q,
					 n > 24 ? "..." : "",
					 (unsigned long long)TRACE_MAX_TIME_NS);
				*why = l->why;
				return -1;
			}
			l->has_time = 1;
			if (!at_end(p))
				return garbage(l, p, "timestamp", why);
		}
	}
	l->kind = 1;
	return 0;
}

/*
 * The format of a trace from its first line that is not blank or a
 * comment. " L 7f00" is an indented tiersim line as well as the start of
 * a lackey one: it is lackey only if it is not a whole tiersim line (a
 * lackey access has ",SIZE" after the address, which tiersim refuses).
 */
static int detect(const char *s)
{
	const char *p = skip_ws(s), *why;
	struct tline l;

	if ((s[0] == '=' && s[1] == '=') || (s[0] == '-' && s[1] == '-'))
		return TRACE_LACKEY;
	if (s[0] == 'I' && s[1] == ' ' && s[2] == ' ')
		return TRACE_LACKEY;
	if (s[0] == ' ' && (s[1] == 'L' || s[1] == 'S' || s[1] == 'M') &&
	    s[2] == ' ')
		return parse_tiersim(s, &l, &why) ? TRACE_LACKEY :
						    TRACE_TIERSIM;
	if (*p == '#' || is_eol(p))
		return TRACE_AUTO;	/* undecided */
	return TRACE_TIERSIM;
}

static int parse_line(const struct trace *t, const char *s, struct tline *l,
		      const char **why)
{
	if (t->format == TRACE_LACKEY)
		return parse_lackey(s, t->instr, l, why);
	return parse_tiersim(s, l, why);
}

static inline uint64_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

/* Insert or find @vpn; *@slot gets its position. Grows as needed. */
static int hash_add(struct trace *t, uint64_t vpn, uint64_t *slot)
{
	uint64_t key = vpn + 1, i;

	if ((t->nr_pages + 1) * 2 > t->hmask + 1) {
		uint64_t ncap = (t->hmask + 1) * 2, j;
		uint64_t *nk = calloc(ncap, sizeof(*nk));
		uint32_t *nv = calloc(ncap, sizeof(*nv));

		if (!nk || !nv) {
			free(nk);
			free(nv);
			return -1;
		}
		for (j = 0; j <= t->hmask; j++) {
			if (!t->hkeys[j])
				continue;
			i = hash64(t->hkeys[j]) & (ncap - 1);
			while (nk[i])
				i = (i + 1) & (ncap - 1);
			nk[i] = t->hkeys[j];
			nv[i] = t->hvals[j];
		}
		free(t->hkeys);
		free(t->hvals);
		t->hkeys = nk;
		t->hvals = nv;
		t->hmask = ncap - 1;
	}
	i = hash64(key) & t->hmask;
	while (t->hkeys[i] && t->hkeys[i] != key)
		i = (i + 1) & t->hmask;
	if (!t->hkeys[i]) {
		t->hkeys[i] = key;
		t->hvals[i] = 0;
		t->nr_pages++;
	}
	*slot = i;
	return 0;
}

int64_t trace_page_index(const struct trace *t, uint64_t vpn)
{
	uint64_t key = vpn + 1, i = hash64(key) & t->hmask;

	while (t->hkeys[i]) {
		if (t->hkeys[i] == key)
			return t->hvals[i];
		i = (i + 1) & t->hmask;
	}
	return -1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int index_pages(struct trace *t)
{
	uint64_t i, n = 0;
	uint32_t *cnt;

	t->vpn = malloc((t->nr_pages ? t->nr_pages : 1) * sizeof(*t->vpn));
	cnt = malloc((t->nr_pages ? t->nr_pages : 1) * sizeof(*cnt));
	if (!t->vpn || !cnt)
		goto nomem;
	/* The hash values hold counts during the first pass. */
	for (i = 0; i <= t->hmask; i++)
		if (t->hkeys[i])
			t->vpn[n++] = t->hkeys[i] - 1;
	qsort(t->vpn, n, sizeof(*t->vpn), cmp_u64);
	for (i = 0; i < n; i++) {
		uint64_t key = t->vpn[i] + 1, j = hash64(key) & t->hmask;

		while (t->hkeys[j] != key)
			j = (j + 1) & t->hmask;
		cnt[i] = t->hvals[j];
		t->hvals[j] = (uint32_t)i;
	}
	t->count = cnt;

	/* VMAs: runs of pages closer than TRACE_VMA_GAP. */
	t->nr_vmas = 0;
	for (i = 0; i < n; i++)
		if (!i || t->vpn[i] - t->vpn[i - 1] > TRACE_VMA_GAP)
			t->nr_vmas++;
	t->vma = calloc(t->nr_vmas ? t->nr_vmas : 1, sizeof(*t->vma));
	if (!t->vma)
		goto nomem;
	t->nr_vmas = 0;
	for (i = 0; i < n; i++) {
		if (!i || t->vpn[i] - t->vpn[i - 1] > TRACE_VMA_GAP) {
			t->vma[t->nr_vmas].first = i;
			t->nr_vmas++;
		}
		t->vma[t->nr_vmas - 1].pages++;
	}
	return 0;
nomem:
	if (t->count != cnt)
		free(cnt);
	return -1;
}

/*
 * A trace is read twice (indexed, then replayed per run): a pipe or a FIFO
 * would be empty the second time, or block for ever waiting for a writer.
 * stat(), not fopen() then fstat(): opening a FIFO blocks until a writer
 * comes.
 */
static int regular_file(const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (stat(path, &st)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", path, strerror(EISDIR));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file (a trace is read "
			 "twice: once to index it, once per run to replay it; "
			 "save a pipe's output to a file first)", path);
		return -1;
	}
	return 0;
}

int trace_open(struct trace *t, const char *path, int format, int instr,
	       char *err, size_t errlen)
{
	return trace_open_progress(t, path, format, instr, NULL, NULL, err,
				   errlen);
}

int trace_open_progress(struct trace *t, const char *path, int format,
			int instr, trace_progress_fn progress, void *arg,
			char *err, size_t errlen)
{
	struct tline l = { 0 };
	const char *why = NULL;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	uint64_t line = 0, slot, threads = 0, prev_time = 0, prev_line = 0;
	uint64_t first_time = 0, first_line = 0, nr_instr = 0;
	uint64_t bytes = 0, size = 0;
	struct stat st;
	int time_state = -1;	/* -1 unknown, 0 none, 1 all */
	FILE *f;

	memset(t, 0, sizeof(*t));
	t->path = path;
	t->format = format;
	t->instr = instr;
	if (regular_file(path, err, errlen))
		return -1;
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	/* replaced since regular_file() looked: no size, no progress */
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode))
		size = (uint64_t)st.st_size;
	t->hmask = 1023;
	t->hkeys = calloc(t->hmask + 1, sizeof(*t->hkeys));
	t->hvals = calloc(t->hmask + 1, sizeof(*t->hvals));
	t->tidmap = calloc(MAX_TID + 1, sizeof(*t->tidmap));
	if (!t->hkeys || !t->hvals || !t->tidmap) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	while ((len = getline(&buf, &cap, f)) >= 0) {
		line++;
		bytes += (uint64_t)len;
		if (progress && !(line & 0xffff))
			progress(arg, bytes, size);
		if ((size_t)len != strlen(buf)) {
			snprintf(err, errlen, "%s:%llu: NUL byte in the line",
				 path, (unsigned long long)line);
			goto fail;
		}
		if (t->format == TRACE_AUTO) {
			t->format = detect(buf);
			if (t->format == TRACE_AUTO)
				continue;
		}
		if (parse_line(t, buf, &l, &why)) {
			snprintf(err, errlen, "%s:%llu: %s", path,
				 (unsigned long long)line, why);
			goto fail;
		}
		if (!l.kind) {
			if (t->format == TRACE_LACKEY && buf[0] == 'I' &&
			    buf[1] == ' ')
				nr_instr++;
			continue;
		}
		/* all or none first: the order below compares timestamps */
		if (time_state < 0)
			time_state = l.has_time;
		else if (time_state != l.has_time) {
			snprintf(err, errlen, "%s:%llu: %s", path,
				 (unsigned long long)line, time_state ?
				 "timestamp missing (earlier accesses have one)" :
				 "unexpected timestamp (earlier accesses have none)");
			goto fail;
		}
		if (l.has_time && l.time < prev_time) {
			snprintf(err, errlen, "%s:%llu: timestamp %llu ns is "
				 "before the previous access's, %llu ns on line "
				 "%llu (timestamps must not decrease)", path,
				 (unsigned long long)line,
				 (unsigned long long)l.time,
				 (unsigned long long)prev_time,
				 (unsigned long long)prev_line);
			goto fail;
		}
		if (l.has_time && !first_line) {
			first_time = l.time;
			first_line = line;
		}
		if (l.has_time && l.time - first_time > TRACE_MAX_SPAN_NS) {
			snprintf(err, errlen, "%s:%llu: timestamp %llu ns is "
				 "more than %d days after the first access's, "
				 "%llu ns on line %llu (a trace spans at most "
				 "%d days of simulated time; are two clocks "
				 "mixed?)", path, (unsigned long long)line,
				 (unsigned long long)l.time,
				 TRACE_MAX_SPAN_DAYS,
				 (unsigned long long)first_time,
				 (unsigned long long)first_line,
				 TRACE_MAX_SPAN_DAYS);
			goto fail;
		}
		if (l.has_time) {
			prev_time = l.time;
			prev_line = line;
		}
		if (!t->tidmap[l.tid]) {
			if (threads == WL_MAX_THREADS) {
				snprintf(err, errlen,
					 "%s:%llu: more than %d distinct thread ids",
					 path, (unsigned long long)line,
					 WL_MAX_THREADS);
				goto fail;
			}
			t->tidmap[l.tid] = (uint16_t)++threads;
		}
		if (hash_add(t, l.addr >> PAGE_SHIFT_4K, &slot)) {
			snprintf(err, errlen, "%s: out of memory", path);
			goto fail;
		}
		if (t->hvals[slot] != UINT32_MAX)
			t->hvals[slot]++;
		t->nr_accesses++;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error: %s", path,
			 strerror(errno));
		goto fail;
	}
	if (progress)
		progress(arg, bytes, size);
	free(buf);
	buf = NULL;
	fclose(f);
	f = NULL;
	if (!t->nr_accesses) {
		if (!line)	/* an empty file: no line to name */
			snprintf(err, errlen, "%s: an empty file: no memory "
				 "accesses", path);
		else
			snprintf(err, errlen, "%s:%llu: no memory accesses in "
				 "the trace%s", path, (unsigned long long)line,
				 nr_instr ? " (only lackey instruction fetches, "
				 "\"I\" lines: --lackey-instr counts them as "
				 "reads)" : "");
		goto fail;
	}
	if (t->format == TRACE_AUTO)
		t->format = TRACE_TIERSIM;
	t->has_time = time_state == 1;
	t->nr_threads = (uint32_t)threads;
	if (index_pages(t)) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	return 0;
fail:
	free(buf);
	if (f)
		fclose(f);
	trace_close(t);
	return -1;
}

void trace_close(struct trace *t)
{
	free(t->vpn);
	free(t->count);
	free(t->vma);
	free(t->hkeys);
	free(t->hvals);
	free(t->tidmap);
	t->vpn = NULL;
	t->count = NULL;
	t->vma = NULL;
	t->hkeys = NULL;
	t->hvals = NULL;
	t->tidmap = NULL;
}

int trace_stream_open(struct trace_stream *s, const struct trace *t,
		      char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->t = t;
	s->f = fopen(t->path, "r");
	if (!s->f) {
		snprintf(err, errlen, "%s: %s", t->path, strerror(errno));
		return -1;
	}
	return 0;
}

long trace_stream_fill(struct trace_stream *s, uint64_t *buf, uint64_t *gap,
		       size_t n, char *err, size_t errlen)
{
	const struct trace *t = s->t;
	const char *why = NULL;
	struct tline l;
	size_t got = 0;
	ssize_t len;
	int64_t idx;

	while (got < n && (len = getline(&s->buf, &s->cap, s->f)) >= 0) {
		s->line++;
		if (parse_line(t, s->buf, &l, &why))
			goto changed;
		if (!l.kind)
			continue;
		if (s->done == t->nr_accesses)
			goto changed;	/* lines added since */
		idx = trace_page_index(t, l.addr >> PAGE_SHIFT_4K);
		if (idx < 0 || !t->tidmap[l.tid] || l.has_time != t->has_time)
			goto changed;
		buf[got] = WL_MAKE((uint64_t)idx, l.write,
				   t->tidmap[l.tid] - 1U);
		if (gap) {
			gap[got] = s->done && l.time > s->prev_time ?
				   l.time - s->prev_time : 0;
			s->prev_time = l.time;
		}
		got++;
		s->done++;
	}
	if (ferror(s->f)) {
		snprintf(err, errlen, "%s: read error", t->path);
		return -1;
	}
	if (!got && s->done != t->nr_accesses) {
		snprintf(err, errlen, "%s: the trace changed since it was "
			 "indexed (%llu accesses instead of %llu)", t->path,
			 (unsigned long long)s->done,
			 (unsigned long long)t->nr_accesses);
		return -1;
	}
	return (long)got;
changed:
	snprintf(err, errlen, "%s:%llu: the trace changed since it was indexed",
		 t->path, (unsigned long long)s->line);
	return -1;
}

void trace_stream_close(struct trace_stream *s)
{
	if (s->f)
		fclose(s->f);
	free(s->buf);
	s->f = NULL;
	s->buf = NULL;
}
