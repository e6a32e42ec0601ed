/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A small SVG writer: the document, escaped text, panel frames, lines,
 * polylines and the steps of an axis. tiersim's plots (out.c) and the ground truth's comparison
 * plots (tests/truth/) draw with it. libc only, no tierpol.
 */
#ifndef _TIERSIM_SVG_H
#define _TIERSIM_SVG_H

#include <stdio.h>

/*
 * Create @path and write the document's start: the licence comment, the
 * <svg> element (@width x @height, sans-serif at @font_size) and a white
 * background. NULL on error (errno set).
 */
FILE *svg_open(const char *path, int width, int height, int font_size);

/* End the document and close the file: 0, or -1 on a write error. */
int svg_close(FILE *f);

/* @s as SVG character data or attribute value ('<', '>', '&', '"' escaped). */
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
