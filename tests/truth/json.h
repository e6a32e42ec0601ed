/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A small JSON reader for the ground-truth report (tests/truth/truth.c):
 * enough of RFC 8259 to read tiersim's JSON and the harness's own.
 */
#ifndef _TRUTH_JSON_H
#define _TRUTH_JSON_H

#include <stddef.h>

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

/**
 * struct jv - a JSON value
 * @type: &enum jtype
 * @num: J_NUM and J_BOOL
 * @str: J_STR (NUL-terminated, escapes decoded)
 * @n: J_ARR, J_OBJ: number of members
 * @kid: the members
 * @key: J_OBJ: their keys
 */
struct jv {
	int type;
	double num;
	char *str;
	size_t n;
	struct jv *kid;
	char **key;
};

/* Parse @text; NULL with a message in @err on a syntax error. */
struct jv *json_parse(const char *text, char *err, size_t errlen);
/* Read and parse a file; NULL with a message in @err. */
struct jv *json_load(const char *path, char *err, size_t errlen);
void json_free(struct jv *v);

/* Member @key of an object, element @i of an array; NULL if absent. */
const struct jv *json_get(const struct jv *o, const char *key);
const struct jv *json_at(const struct jv *a, size_t i);
/* A path of keys separated by '.', numbers index arrays: "sets.0.runs". */
const struct jv *json_path(const struct jv *v, const char *path);
/* The number at @path, or @def if absent or not a number. */
double json_num(const struct jv *v, const char *path, double def);

#endif /* _TRUTH_JSON_H */
