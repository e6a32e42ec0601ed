/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A small SVG writer: the document, escaped text, panel frames, lines,
 * polylines and the steps of an axis. tiersim's plots (out.c) and the ground truth's comparison
 * plots (tests/truth/) draw with it. libc only, no tierpol.
 */
#ifndef _TIERSIM_SVG_H
#define _TIERSIM_SVG_H

#include <stddef.h>
#include <stdio.h>

/*
 * The length of the UTF-8 character @s starts with (1 to 4 bytes), or 0
 * where its bytes are not one (a byte of another encoding, a sequence cut
 * short, overlong or past U+10FFFF, a surrogate). The JSON and the SVG
 * must be UTF-8, and a trace's name is whatever bytes its path has.
 */
static inline size_t utf8_len(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (u[0] < 0x80)
		return 1;
	if (u[0] >= 0xc2 && u[0] <= 0xdf)
		n = 2;
	else if (u[0] >= 0xe0 && u[0] <= 0xef)
		n = 3;
	else if (u[0] >= 0xf0 && u[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (u[0] == 0xe0)
		lo = 0xa0;
	else if (u[0] == 0xed)
		hi = 0x9f;
	else if (u[0] == 0xf0)
		lo = 0x90;
	else if (u[0] == 0xf4)
		hi = 0x8f;
	if (u[1] < lo || u[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (u[i] < 0x80 || u[i] > 0xbf)
			return 0;
	return n;
}

/*
 * Create @path and write the document's start: the licence comment, the
 * <svg> element (@width x @height, sans-serif at @font_size) and a white
 * background. NULL on error (errno set).
 */
FILE *svg_open(const char *path, int width, int height, int font_size);

/* End the document and close the file: 0, or -1 on a write error. */
int svg_close(FILE *f);

/*
 * @s as SVG character data or attribute value ('<', '>', '&', '"' escaped;
 * a byte that is not UTF-8 and a control character XML does not allow
 * written as U+FFFD).
 */
void svg_esc(FILE *f, const char *s);

/*
 * A text at (@x, @y): @attrs are written into the element as they are
 * (class="tick" text-anchor="end"), @text escaped.
 */
void svg_text(FILE *f, double x, double y, const char *attrs,
	      const char *text);

/* A straight line of colour @stroke (and @attrs, may be ""). */
void svg_rule(FILE *f, double x1, double y1, double x2, double y2,
	      const char *stroke, const char *attrs);

/* An unfilled rectangle: a panel's frame. */
void svg_frame(FILE *f, int x, int y, int w, int h, const char *stroke);

/*
 * A polyline: begin with its colour (@dash: a stroke-dasharray, NULL for a
 * solid line), then its points, then end it.
 */
void svg_poly_begin(FILE *f, const char *color, const char *dash);
/* A polyline with its attributes as they are (stroke, width, class...). */
void svg_poly_open(FILE *f, const char *attrs);
void svg_poly_point(FILE *f, double x, double y, int first);
void svg_poly_end(FILE *f);

/*
 * The step of an axis over @span with at most @max_steps steps: the
 * smallest of 1, 2, 2.5 and 5 times a power of ten that needs no more.
 */
double svg_nice_step(double span, int max_steps);

#endif /* _TIERSIM_SVG_H */
