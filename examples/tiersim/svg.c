// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * A small SVG writer (see svg.h). Coordinates of points are written with
 * one decimal, so a plot is the same bytes for the same data.
 */
#include "svg.h"

#include <math.h>

FILE *svg_open(const char *path, int width, int height, int font_size)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return NULL;
	fprintf(f, "<!-- SPDX-License-Identifier: GPL-2.0-only OR "
		"BSD-2-Clause -->\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
		"font-size=\"%d\">\n<rect width=\"100%%\" height=\"100%%\" "
		"fill=\"white\"/>\n", width, height, font_size);
	return f;
}

int svg_close(FILE *f)
{
	fputs("</svg>\n", f);
	return fclose(f) ? -1 : 0;
}

void svg_esc(FILE *f, const char *s)
{
	size_t n;

	for (; *s; s += n ? n : 1) {
		n = utf8_len(s);
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else if (!n || ((unsigned char)*s < 0x20 && *s != '\t' &&
				*s != '\n' && *s != '\r'))
			fputs("\xef\xbf\xbd", f);	/* U+FFFD */
		else
			fwrite(s, 1, n, f);
	}
}

void svg_text(FILE *f, double x, double y, const char *attrs,
	      const char *text)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"%s%s>", x, y, *attrs ? " " : "",
		attrs);
	svg_esc(f, text);
	fputs("</text>\n", f);
}

void svg_rule(FILE *f, double x1, double y1, double x2, double y2,
	      const char *stroke, const char *attrs)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"%s\"%s%s/>\n", x1, y1, x2, y2, stroke,
		*attrs ? " " : "", attrs);
}

double svg_nice_step(double span, int max_steps)
{
	static const double m[] = { 1, 2, 2.5, 5 };
	double step;
	int i, e;

	if (!(span > 0) || max_steps < 1)
		return 1;
	/*
	 * The power of ten as an integer exponent, and a step below 1 as a
	 * quotient (2.5 / 10, not 2.5 * 0.1): exact where the step is
	 * (0.25), whatever the floating point unit (x87 on i386 too).
	 */
	e = (int)floor(log10(span / max_steps));
	for (;; e++)
		for (i = 0; i < 4; i++) {
			step = e >= 0 ? m[i] * pow(10, e) : m[i] / pow(10, -e);
			if (span / step <= max_steps + 1e-9)
				return step;
		}
}

void svg_frame(FILE *f, int x, int y, int w, int h, const char *stroke)
{
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"fill=\"none\" stroke=\"%s\"/>\n", x, y, w, h, stroke);
}

void svg_poly_begin(FILE *f, const char *color, const char *dash)
{
	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"",
		color);
	if (dash)
		fprintf(f, " stroke-dasharray=\"%s\"", dash);
	fputs(" points=\"", f);
}

void svg_poly_open(FILE *f, const char *attrs)
{
	fprintf(f, "<polyline fill=\"none\" %s points=\"", attrs);
}

void svg_poly_point(FILE *f, double x, double y, int first)
{
	fprintf(f, "%s%.1f,%.1f", first ? "" : " ", x, y);
}

void svg_poly_end(FILE *f)
{
	fputs("\"/>\n", f);
}
