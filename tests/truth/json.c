// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * A small recursive-descent JSON reader (see json.h). \u escapes outside
 * ASCII are replaced by '?': the harness only reads numbers and ASCII names.
 */
#include "json.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH	64

struct parser {
	const char *p;
	const char *start;
	char *err;
	size_t errlen;
	int failed;
};

static void fail(struct parser *ps, const char *what)
{
	if (ps->failed)
		return;
	ps->failed = 1;
	snprintf(ps->err, ps->errlen, "JSON: %s at offset %ld", what,
		 (long)(ps->p - ps->start));
}

static void skip_ws(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' ||
	       *ps->p == '\r')
		ps->p++;
}

static char *parse_string(struct parser *ps)
{
	const char *q = ++ps->p;	/* past the quote */
	size_t len = 0;
	char *s, *o;

	while (*q && *q != '"') {
		if (*q == '\\' && q[1])
			q++;
		q++;
		len++;
	}
	if (*q != '"') {
		fail(ps, "unterminated string");
		return NULL;
	}
	s = malloc(len + 1);
	if (!s) {
		fail(ps, "out of memory");
		return NULL;
	}
	for (o = s; *ps->p != '"'; ps->p++) {
		char c = *ps->p;

		if (c == '\\') {
			c = *++ps->p;
			switch (c) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case 'r':
				c = '\r';
				break;
			case 'b':
				c = '\b';
				break;
			case 'f':
				c = '\f';
				break;
			case 'u': {
				unsigned int u = 0;
				int i;

				for (i = 0; i < 4 && isxdigit((unsigned char)
							      ps->p[1]); i++) {
					char h = *++ps->p;

					u = u * 16 + (unsigned int)(isdigit(
						(unsigned char)h) ? h - '0' :
						(tolower((unsigned char)h) -
						 'a' + 10));
				}
				c = u < 128 ? (char)u : '?';
				break;
			}
			default:
				break;
			}
		}
		*o++ = c;
	}
	*o = 0;
	ps->p++;
	return s;
}

static void parse_value(struct parser *ps, struct jv *v, int depth);

static void add_kid(struct parser *ps, struct jv *v, char *key, int depth)
{
	struct jv *k = realloc(v->kid, (v->n + 1) * sizeof(*k));

	if (!k) {
		free(key);
		fail(ps, "out of memory");
		return;
	}
	v->kid = k;
	if (v->type == J_OBJ) {
		char **kk = realloc(v->key, (v->n + 1) * sizeof(*kk));

		if (!kk) {
			free(key);
			fail(ps, "out of memory");
			return;
		}
		v->key = kk;
		v->key[v->n] = key;
	}
	memset(&v->kid[v->n], 0, sizeof(v->kid[0]));
	v->n++;
	parse_value(ps, &v->kid[v->n - 1], depth + 1);
}

static void parse_value(struct parser *ps, struct jv *v, int depth)
{
	char *end;

	memset(v, 0, sizeof(*v));
	if (depth > MAX_DEPTH) {
		fail(ps, "nested too deeply");
		return;
	}
	skip_ws(ps);
	switch (*ps->p) {
	case '{':
	case '[': {
		char close = *ps->p == '{' ? '}' : ']';

		v->type = close == '}' ? J_OBJ : J_ARR;
		ps->p++;
		skip_ws(ps);
		if (*ps->p == close) {
			ps->p++;
			return;
		}
		for (;;) {
			char *key = NULL;

			skip_ws(ps);
			if (v->type == J_OBJ) {
				if (*ps->p != '"') {
					fail(ps, "expected a key");
					return;
				}
				key = parse_string(ps);
				if (!key)
					return;
				skip_ws(ps);
				if (*ps->p != ':') {
					free(key);
					fail(ps, "expected ':'");
					return;
				}
				ps->p++;
			}
			add_kid(ps, v, key, depth);
			if (ps->failed)
				return;
			skip_ws(ps);
			if (*ps->p == ',') {
				ps->p++;
				continue;
			}
			if (*ps->p == close) {
				ps->p++;
				return;
			}
			fail(ps, "expected ',' or a closing bracket");
			return;
		}
	}
	case '"':
		v->type = J_STR;
		v->str = parse_string(ps);
		return;
	case 't':
	case 'f':
	case 'n':
		if (!strncmp(ps->p, "true", 4)) {
			v->type = J_BOOL;
			v->num = 1;
			ps->p += 4;
		} else if (!strncmp(ps->p, "false", 5)) {
			v->type = J_BOOL;
			ps->p += 5;
		} else if (!strncmp(ps->p, "null", 4)) {
			v->type = J_NULL;
			ps->p += 4;
		} else {
			fail(ps, "unexpected word");
		}
		return;
	default:
		v->type = J_NUM;
		v->num = strtod(ps->p, &end);
		if (end == ps->p)
			fail(ps, "unexpected character");
		ps->p = end;
		return;
	}
}

static void free_kids(struct jv *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		free_kids(&v->kid[i]);
		if (v->key)
			free(v->key[i]);
	}
	free(v->kid);
	free(v->key);
	free(v->str);
}

void json_free(struct jv *v)
{
	if (!v)
		return;
	free_kids(v);
	free(v);
}

struct jv *json_parse(const char *text, char *err, size_t errlen)
{
	struct parser ps = { text, text, err, errlen, 0 };
	struct jv *v = calloc(1, sizeof(*v));

	if (!v) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	parse_value(&ps, v, 0);
	skip_ws(&ps);
	if (!ps.failed && *ps.p)
		fail(&ps, "trailing characters");
	if (ps.failed) {
		json_free(v);
		return NULL;
	}
	return v;
}

struct jv *json_load(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, msg[256];
	size_t len = 0, cap = 0, n;
	struct jv *v;

	if (!f) {
		snprintf(err, errlen, "%s: cannot open", path);
		return NULL;
	}
	for (;;) {
		if (cap - len < 65536) {
			char *b = realloc(buf, cap + 65536 + 1);

			if (!b) {
				free(buf);
				fclose(f);
				snprintf(err, errlen, "%s: out of memory", path);
				return NULL;
			}
			buf = b;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len, f);
		if (!n)
			break;
		len += n;
	}
	fclose(f);
	buf[len] = 0;
	v = json_parse(buf, msg, sizeof(msg));
	free(buf);
	if (!v)
		snprintf(err, errlen, "%s: %s", path, msg);
	return v;
}

const struct jv *json_get(const struct jv *o, const char *key)
{
	size_t i;

	if (!o || o->type != J_OBJ)
		return NULL;
	for (i = 0; i < o->n; i++)
		if (!strcmp(o->key[i], key))
			return &o->kid[i];
	return NULL;
}

const struct jv *json_at(const struct jv *a, size_t i)
{
	if (!a || (a->type != J_ARR && a->type != J_OBJ) || i >= a->n)
		return NULL;
	return &a->kid[i];
}

const struct jv *json_path(const struct jv *v, const char *path)
{
	char part[128];

	while (v && *path) {
		size_t n = strcspn(path, ".");

		if (n >= sizeof(part))
			return NULL;
		memcpy(part, path, n);
		part[n] = 0;
		if (v->type == J_ARR && isdigit((unsigned char)part[0]))
			v = json_at(v, (size_t)strtoul(part, NULL, 10));
		else
			v = json_get(v, part);
		path += n;
		if (*path == '.')
			path++;
	}
	return v;
}

double json_num(const struct jv *v, const char *path, double def)
{
	const struct jv *x = json_path(v, path);

	return x && x->type == J_NUM ? x->num : def;
}
