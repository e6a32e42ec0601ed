// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * tiersim's progress line on stderr: on a terminal one line rewritten in
 * place (from half a second on, five times a second) and cleared at the
 * end; for a log (--progress when stderr is not a terminal) a line every
 * five seconds and one at the end. Each gives the rate and, when the
 * total is known, the time left at that rate.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TTY_FIRST	0.5	/* s before the first line on a terminal */
#define TTY_EVERY	0.2
#define LOG_EVERY	5.0

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int progress_mode(const struct opts *o)
{
	int tty = isatty(STDERR_FILENO);

	if (o->progress)
		return tty ? PROGRESS_TTY : PROGRESS_LOG;
	return !o->quiet && tty ? PROGRESS_TTY : PROGRESS_OFF;
}

void progress_begin(struct progress *p, int mode)
{
	memset(p, 0, sizeof(*p));
	p->mode = mode;
	p->t0 = now_s();
	p->last = p->t0;
}

const char *progress_count(char *b, size_t n, double v)
{
	if (v < 1e6)
		snprintf(b, n, "%.0f", v);
	else if (v < 1e9)
		snprintf(b, n, "%.3g M", v / 1e6);
	else
		snprintf(b, n, "%.3g G", v / 1e9);
	return b;
}

/* "12 s", "3:05", "1:02:03": the time left. */
static void left(char *b, size_t n, double s)
{
	unsigned long t = (unsigned long)(s + 0.5);

	if (t < 60)
		snprintf(b, n, "%lu s", t);
	else if (t < 3600)
		snprintf(b, n, "%lu:%02lu", t / 60, t % 60);
	else
		snprintf(b, n, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
}

static void vline(struct progress *p, double frac, const char *fmt,
		  va_list ap)
{
	double el = now_s() - p->t0;
	char eta[32];

	fprintf(stderr, "%s%s: ", p->mode == PROGRESS_TTY ? "\r\033[K" : "",
		prog);
	vfprintf(stderr, fmt, ap);
	if (frac > 0.001 && frac < 1 && el > 0) {
		left(eta, sizeof(eta), el * (1 - frac) / frac);
		fprintf(stderr, ", %s left", eta);
	}
	if (p->mode == PROGRESS_LOG)
		fputc('\n', stderr);
	fflush(stderr);
	p->shown = 1;
}

void progress_update(struct progress *p, double frac, const char *fmt, ...)
{
	double t = now_s();
	va_list ap;

	if (p->mode == PROGRESS_OFF)
		return;
	if (p->mode == PROGRESS_TTY ?
	    t - p->t0 < TTY_FIRST || t - p->last < TTY_EVERY :
	    t - p->last < LOG_EVERY)
		return;
	p->last = t;
	va_start(ap, fmt);
	vline(p, frac, fmt, ap);
	va_end(ap);
}

void progress_note(struct progress *p, const char *fmt, ...)
{
	va_list ap;

	if (p->mode != PROGRESS_TTY)
		return;
	va_start(ap, fmt);
	vline(p, -1, fmt, ap);
	va_end(ap);
}

void progress_clear(struct progress *p)
{
	if (p->mode == PROGRESS_TTY && p->shown)
		fputs("\r\033[K", stderr);
	p->shown = 0;
}

void progress_end(struct progress *p, const char *fmt, ...)
{
	va_list ap;

	progress_clear(p);
	if (p->mode != PROGRESS_LOG)
		return;
	va_start(ap, fmt);
	vline(p, 1, fmt, ap);
	va_end(ap);
}

double progress_elapsed(const struct progress *p)
{
	return now_s() - p->t0;
}
