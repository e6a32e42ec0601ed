// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * svgcheck: is each SVG well-formed XML, and (with --tiersim) a tiersim
 * plot a person can read? make run checks every plot it wrote with it,
 * and tests/tiersim_cli.sh the plots of both layouts.
 *
 *   svgcheck [--tiersim] FILE...
 *
 * Well-formed: one root <svg> element with the SVG namespace, tags that
 * nest and close, quoted attribute values without a duplicate, known
 * entity references, nothing after the root but comments and blanks.
 *
 * A tiersim plot (plot.c): three "panel" groups, one per quantity
 * (data-quantity 0, 1, 2), each with an "xlabel" text naming simulated
 * time in seconds, a "ylabel" text with its unit ("(%)", "(MB/s",
 * "(ms)"), at least two numeric "tick" texts, and "series" polylines (or a
 * "nodata" text) whose points lie inside the picture; a "policy" text per
 * policy drawn; where several policies share a set of axes (up to four),
 * no two of them drawn alike (colour and dash pattern); where each has
 * its own cells, one cell per policy in each panel.
 *
 * Prints "FILE: ok (...)" per file, or "FILE:LINE: reason" and exits 1.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH	64
#define MAX_ATTRS	32
#define MAX_NAMES	64

struct attr {
	char name[64];
	char *val;
};

struct elem {
	char name[32];
	int nattr;
	struct attr attr[MAX_ATTRS];
	char text[256];		/* the character data of a <text> */
	int line;
	int panel;		/* the enclosing panel's index, or -1 */
};

/* What a tiersim plot holds, gathered while parsing. */
struct facts {
	double width, height;
	int panels;
	int quantity_seen[3];
	int xlabel[3], ylabel[3], ticks[3], series[3], nodata[3], cells[3];
	char ylabel_text[3][256];
	char xlabel_text[3][256];
	int nr_policies;
	char policy[MAX_NAMES][256];
	/* per panel: the look of each policy's first series */
	int nr_looks[3];
	char look_policy[3][MAX_NAMES][96];
	char look[3][MAX_NAMES][160];
	int bad_point_line;
};

static const char *file;
static int line;

static int fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static const char *get(const struct elem *e, const char *name)
{
	int i;

	for (i = 0; i < e->nattr; i++)
		if (!strcmp(e->attr[i].name, name))
			return e->attr[i].val;
	return NULL;
}

static int has_class(const struct elem *e, const char *cls)
{
	const char *c = get(e, "class");

	return c && !strcmp(c, cls);
}

/* Advance over @p's text up to @end, counting lines. */
static void count_lines(const char *p, const char *end)
{
	for (; p < end; p++)
		if (*p == '\n')
			line++;
}

/* Decode the entities of @s (in place); -1 on an unknown one. */
static int decode(char *s)
{
	static const struct {
		const char *ent;
		char c;
	} ents[] = {
		{ "&lt;", '<' }, { "&gt;", '>' }, { "&amp;", '&' },
		{ "&quot;", '"' }, { "&apos;", '\'' },
	};
	char *w = s;
	unsigned int i;

	while (*s) {
		if (*s != '&') {
			*w++ = *s++;
			continue;
		}
		for (i = 0; i < sizeof(ents) / sizeof(ents[0]); i++)
			if (!strncmp(s, ents[i].ent, strlen(ents[i].ent)))
				break;
		if (i < sizeof(ents) / sizeof(ents[0])) {
			*w++ = ents[i].c;
			s += strlen(ents[i].ent);
		} else if (s[1] == '#' && strchr(s, ';')) {
			*w++ = '?';
			s = strchr(s, ';') + 1;
		} else {
			return -1;
		}
	}
	*w = 0;
	return 0;
}

static int name_char(int c)
{
	return isalnum(c) || c == '-' || c == '_' || c == ':' || c == '.';
}

/* Parse the start tag at @p (after '<'); sets *@end past '>'. */
static int start_tag(char *p, char **end, struct elem *e, int *empty)
{
	size_t n = 0;
	int i;

	memset(e, 0, sizeof(*e));
	e->line = line;
	while (name_char((unsigned char)*p) && n + 1 < sizeof(e->name))
		e->name[n++] = *p++;
	if (!n)
		return fail("bad element name");
	for (;;) {
		char *q, *v;
		size_t an = 0;
		char quote;

		while (isspace((unsigned char)*p)) {
			if (*p == '\n')
				line++;
			p++;
		}
		if (*p == '>' || (*p == '/' && p[1] == '>')) {
			*empty = *p == '/';
			*end = p + (*empty ? 2 : 1);
			return 0;
		}
		if (!*p)
			return fail("<%s> not closed", e->name);
		if (e->nattr == MAX_ATTRS)
			return fail("<%s>: too many attributes", e->name);
		while (name_char((unsigned char)*p) &&
		       an + 1 < sizeof(e->attr[0].name))
			e->attr[e->nattr].name[an++] = *p++;
		if (!an || *p != '=')
			return fail("<%s>: bad attribute", e->name);
		p++;
		quote = *p;
		if (quote != '"' && quote != '\'')
			return fail("<%s>: attribute %s not quoted", e->name,
				    e->attr[e->nattr].name);
		q = strchr(p + 1, quote);
		if (!q)
			return fail("<%s>: attribute not closed", e->name);
		v = strndup(p + 1, (size_t)(q - p - 1));
		if (!v || strchr(v, '<') || decode(v)) {
			free(v);
			return fail("<%s>: bad character in attribute %s",
				    e->name, e->attr[e->nattr].name);
		}
		for (i = 0; i < e->nattr; i++)
			if (!strcmp(e->attr[i].name, e->attr[e->nattr].name)) {
				free(v);
				return fail("<%s>: attribute %s twice",
					    e->name, e->attr[i].name);
			}
		e->attr[e->nattr++].val = v;
		p = q + 1;
		if (!isspace((unsigned char)*p) && *p != '>' && *p != '/')
			return fail("<%s>: no space between attributes",
				    e->name);
	}
}

static void free_elem(struct elem *e)
{
	int i;

	for (i = 0; i < e->nattr; i++)
		free(e->attr[i].val);
	e->nattr = 0;
}

static int add_policy(struct facts *fa, const char *name)
{
	int i;

	for (i = 0; i < fa->nr_policies; i++)
		if (!strcmp(fa->policy[i], name))
			return 0;
	if (fa->nr_policies == MAX_NAMES)
		return fail("too many policies");
	snprintf(fa->policy[fa->nr_policies++], sizeof(fa->policy[0]), "%s",
		 name);
	return 0;
}

/* A "series" polyline: its points inside the picture, its look. */
static int series(struct facts *fa, const struct elem *e)
{
	const char *pts = get(e, "points"), *pol = get(e, "data-policy");
	const char *stroke = get(e, "stroke"), *dash = get(e, "stroke-dasharray");
	int pn = e->panel, i;
	double x, y;
	int k;

	if (!pts || !pol || !stroke)
		return fail("series without points, data-policy or stroke");
	while (*pts) {
		if (sscanf(pts, "%lf,%lf%n", &x, &y, &k) != 2)
			return fail("series: bad point \"%.20s\"", pts);
		if (x < -0.5 || y < -0.5 || x > fa->width + 0.5 ||
		    y > fa->height + 0.5)
			return fail("series %s: point %.1f,%.1f outside the "
				    "picture", pol, x, y);
		pts += k;
		while (*pts == ' ')
			pts++;
	}
	if (pn < 0)
		return fail("series outside a panel");
	fa->series[pn]++;
	if (!strcmp(stroke, "#c8c8c8"))
		return 0;	/* the others, in grey */
	for (i = 0; i < fa->nr_looks[pn]; i++)
		if (!strcmp(fa->look_policy[pn][i], pol))
			return 0;
	if (fa->nr_looks[pn] == MAX_NAMES)
		return fail("too many series");
	snprintf(fa->look_policy[pn][fa->nr_looks[pn]], 96, "%s", pol);
	snprintf(fa->look[pn][fa->nr_looks[pn]], 160, "%s %s", stroke,
		 dash ? dash : "solid");
	fa->nr_looks[pn]++;
	return 0;
}

/* An element has opened (or is empty): what it tells about the plot. */
static int note(struct facts *fa, struct elem *e, int depth)
{
	const char *q;

	if (!depth) {
		if (strcmp(e->name, "svg") ||
		    !get(e, "xmlns") ||
		    strcmp(get(e, "xmlns"), "http://www.w3.org/2000/svg"))
			return fail("the root is not <svg> in the SVG namespace");
		fa->width = get(e, "width") ? atof(get(e, "width")) : 0;
		fa->height = get(e, "height") ? atof(get(e, "height")) : 0;
		if (fa->width <= 0 || fa->height <= 0)
			return fail("<svg> without a width and a height");
	}
	if (!strcmp(e->name, "g") && has_class(e, "panel")) {
		q = get(e, "data-quantity");
		if (!q || strlen(q) != 1 || q[0] < '0' || q[0] > '2')
			return fail("panel without data-quantity 0, 1 or 2");
		if (fa->quantity_seen[q[0] - '0']++)
			return fail("two panels of quantity %s", q);
		fa->panels++;
		e->panel = q[0] - '0';
	}
	if (!strcmp(e->name, "g") && has_class(e, "cell") && e->panel >= 0)
		fa->cells[e->panel]++;
	if (!strcmp(e->name, "polyline") && has_class(e, "series"))
		return series(fa, e);
	return 0;
}

/* A <text> has closed, with its character data. */
static int text_done(struct facts *fa, const struct elem *e)
{
	int pn = e->panel;
	char *end;

	if (has_class(e, "policy"))
		return add_policy(fa, e->text);
	if (pn < 0)
		return 0;
	if (has_class(e, "xlabel")) {
		fa->xlabel[pn]++;
		memcpy(fa->xlabel_text[pn], e->text, sizeof(e->text));
	} else if (has_class(e, "ylabel")) {
		fa->ylabel[pn]++;
		memcpy(fa->ylabel_text[pn], e->text, sizeof(e->text));
	} else if (has_class(e, "tick")) {
		strtod(e->text, &end);
		if (!e->text[0] || *end)
			return fail("tick \"%s\" is not a number", e->text);
		fa->ticks[pn]++;
	} else if (has_class(e, "nodata")) {
		fa->nodata[pn]++;
	}
	return 0;
}

static int parse(char *doc, struct facts *fa)
{
	static struct elem stack[MAX_DEPTH];
	int depth = 0, roots = 0;
	char *p = doc, *q = NULL;

	line = 1;
	while (*p) {
		if (*p != '<') {
			q = strchr(p, '<');
			if (!q)
				q = p + strlen(p);
			{
				char *txt = strndup(p, (size_t)(q - p));
				size_t k;

				if (!txt || decode(txt)) {
					free(txt);
					return fail("bad entity in character "
						    "data");
				}
				for (k = 0; txt[k]; k++)
					if (!isspace((unsigned char)txt[k]))
						break;
				if (txt[k] && !depth) {
					free(txt);
					return fail("text outside the root");
				}
				if (depth && !strcmp(stack[depth - 1].name,
						     "text"))
					strncat(stack[depth - 1].text, txt,
						sizeof(stack[0].text) -
						strlen(stack[depth - 1].text) -
						1);
				free(txt);
			}
			count_lines(p, q);
			p = q;
			continue;
		}
		if (!strncmp(p, "<!--", 4)) {
			q = strstr(p + 4, "-->");
			if (!q)
				return fail("comment not closed");
			count_lines(p, q);
			p = q + 3;
			continue;
		}
		if (!strncmp(p, "<?", 2)) {
			q = strstr(p, "?>");
			if (!q || depth || roots)
				return fail("misplaced <?...?>");
			count_lines(p, q);
			p = q + 2;
			continue;
		}
		if (p[1] == '/') {
			size_t n = strcspn(p + 2, ">");

			if (!depth)
				return fail("</%.*s> without a start tag",
					    (int)n, p + 2);
			if (strlen(stack[depth - 1].name) != n ||
			    strncmp(stack[depth - 1].name, p + 2, n))
				return fail("</%.*s> closes <%s> of line %d",
					    (int)n, p + 2,
					    stack[depth - 1].name,
					    stack[depth - 1].line);
			if (p[2 + n] != '>')
				return fail("end tag not closed");
			depth--;
			if (!strcmp(stack[depth].name, "text") &&
			    text_done(fa, &stack[depth]))
				return -1;
			free_elem(&stack[depth]);
			p += 3 + n;
			continue;
		}
		{
			struct elem e;
			int empty = 0;

			if (start_tag(p + 1, &q, &e, &empty))
				return -1;
			if (!depth && roots++)
				return fail("a second root element <%s>", e.name);
			e.panel = depth ? stack[depth - 1].panel : -1;
			if (note(fa, &e, depth)) {
				free_elem(&e);
				return -1;
			}
			p = q;
			if (empty) {
				if (!strcmp(e.name, "text") && text_done(fa, &e)) {
					free_elem(&e);
					return -1;
				}
				free_elem(&e);
				continue;
			}
			if (depth == MAX_DEPTH) {
				free_elem(&e);
				return fail("nested too deep");
			}
			stack[depth++] = e;
		}
	}
	if (depth)
		return fail("<%s> of line %d never closed", stack[depth - 1].name,
			    stack[depth - 1].line);
	if (!roots)
		return fail("no root element");
	return 0;
}

/* The checks of a tiersim plot, once the whole document is read. */
static int tiersim_plot(const struct facts *fa, char *summary, size_t n)
{
	static const char *const unit[3] = { "(%)", "(MB/s", "(ms)" };
	int q, i, j, overlay = 1;

	if (fa->panels != 3)
		return fail("%d panels, not 3", fa->panels);
	if (!fa->nr_policies)
		return fail("no policy named");
	for (q = 0; q < 3; q++) {
		if (!fa->xlabel[q] || !strstr(fa->xlabel_text[q], "time") ||
		    !strstr(fa->xlabel_text[q], "(s)"))
			return fail("panel %d: no x axis label with its unit "
				    "(got \"%s\")", q, fa->xlabel_text[q]);
		if (!fa->ylabel[q] || !strstr(fa->ylabel_text[q], unit[q]))
			return fail("panel %d: no y axis label with %s (got "
				    "\"%s\")", q, unit[q], fa->ylabel_text[q]);
		if (fa->ticks[q] < 4)
			return fail("panel %d: %d ticks", q, fa->ticks[q]);
		if (!fa->series[q] && !fa->nodata[q])
			return fail("panel %d: no series and no \"no data\"",
				    q);
		if (fa->cells[q])
			overlay = 0;
	}
	for (q = 0; q < 3 && !overlay; q++)
		if (fa->cells[q] != fa->nr_policies)
			return fail("panel %d: %d cells for %d policies", q,
				    fa->cells[q], fa->nr_policies);
	for (q = 0; q < 3 && overlay; q++)
		for (i = 0; i < fa->nr_looks[q]; i++)
			for (j = 0; j < i; j++)
				if (!strcmp(fa->look[q][i], fa->look[q][j]))
					return fail("panel %d: %s and %s drawn "
						    "alike (%s)", q,
						    fa->look_policy[q][i],
						    fa->look_policy[q][j],
						    fa->look[q][i]);
	snprintf(summary, n, "3 panels, %d policies, %s", fa->nr_policies,
		 overlay ? "shared axes" : "small multiples");
	return 0;
}

static int check(const char *path, int tiersim)
{
	struct facts fa;
	char *doc = NULL, summary[128] = "well-formed";
	size_t cap = 0;
	ssize_t len;
	FILE *f;
	int ret;

	file = path;
	line = 1;
	f = fopen(path, "r");
	if (!f)
		return fail("%s", strerror(errno));
	len = getdelim(&doc, &cap, '\0', f);
	fclose(f);
	if (len <= 0) {
		free(doc);
		return fail("empty");
	}
	if ((size_t)len != strlen(doc)) {
		free(doc);
		return fail("NUL byte");
	}
	memset(&fa, 0, sizeof(fa));
	ret = parse(doc, &fa);
	if (!ret && tiersim)
		ret = tiersim_plot(&fa, summary, sizeof(summary));
	free(doc);
	if (!ret)
		printf("%s: ok (%s)\n", path, summary);
	return ret;
}

int main(int argc, char **argv)
{
	int i = 1, tiersim = 0, bad = 0;

	if (i < argc && !strcmp(argv[i], "--tiersim")) {
		tiersim = 1;
		i++;
	}
	if (i == argc) {
		fprintf(stderr, "usage: svgcheck [--tiersim] FILE...\n");
		return 2;
	}
	for (; i < argc; i++)
		bad |= check(argv[i], tiersim) != 0;
	return bad;
}
