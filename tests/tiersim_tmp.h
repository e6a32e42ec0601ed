/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A temporary directory for the tiersim tests that write files (traces):
 * made by the group's setup, removed by its teardown. Include after
 * cmocka.h.
 */
#ifndef TP_TIERSIM_TMP_H
#define TP_TIERSIM_TMP_H

static char tmpdir[] = "/tmp/test_tiersim.XXXXXX";

static int group_setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int group_teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Write @text to a new file in the temporary directory; returns its path. */
static const char *write_file(const char *name, const char *text)
{
	static char path[8][256];
	static int n;
	char *p = path[n++ % 8];
	FILE *f;

	snprintf(p, 256, "%s/%s", tmpdir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	return p;
}

#endif /* TP_TIERSIM_TMP_H */
