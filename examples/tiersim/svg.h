/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A small SVG writer: the document, escaped text, panel frames and
 * polylines. tiersim's plots (out.c) and the ground truth's comparison
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

/* @s as SVG character data ('<' and '&' escaped). */
void svg_esc(FILE *f, const char *s);

/* An unfilled rectangle: a panel's frame. */
void svg_frame(FILE *f, int x, int y, int w, int h, const char *stroke);

/*
 * A polyline: begin with its colour (@dash: a stroke-dasharray, NULL for a
 * solid line), then its points, then end it.
 */
void svg_poly_begin(FILE *f, const char *color, const char *dash);
void svg_poly_point(FILE *f, double x, double y, int first);
void svg_poly_end(FILE *f);

#endif /* _TIERSIM_SVG_H */
