/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The machinery of the bad-input suites, one named CMocka case per row of
 * docs/BAD_INPUT.md: tests/test_bad_input.c (the scan ring, the limiter,
 * the access-time stamp, the VMA scan, the helpers),
 * tests/test_bad_input_thresh.c (the threshold controller),
 * tests/test_bad_input_policy.c (the policy, the nodes, the decision) and
 * tests/test_bad_input_algos.c (the goal controller, the hotness record,
 * the fault-count clock).
 *
 *  - config rows: one field of one public config struct (its size field
 *    included) set to a value at or beyond its documented range; init
 *    (and tune, where there is one) must return the documented code, and
 *    on error leave the object byte-for-byte unchanged; a tune must also
 *    keep the clock (tps) given at init;
 *  - call rows: bad per-call inputs and NULL arguments of the functions
 *    that return an error for them (init, tune, preset): plain CMocka
 *    tests;
 *  - contract rows: the functions whose NULL or uninitialised arguments are
 *    the caller's contract (TP_ASSERT in lib/tp_seam.h). Built with
 *    -DTP_DEBUG (make check-debug) each row forks a child that must die of
 *    SIGILL/SIGTRAP; in release builds the rows are skipped, since the
 *    violation is undefined there (a kernel build warns once with
 *    CONFIG_DEBUG_VM).
 */
#ifndef TP_TEST_BAD_INPUT_H
#define TP_TEST_BAD_INPUT_H

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <tierpol/tierpol.h>
#include "selftest/selftest.h"	/* u32, u64 */

#define U32_MAX_	0xffffffffULL
#define U64_MAX_	(~0ULL)
#define POISON		0xa5

/* ---- config rows ---------------------------------------------------------- */

/**
 * struct cfg_row - one field of a config struct set to one value
 * @name: "<struct>.<field> = <value>", the name docs/BAD_INPUT.md uses
 * @comp: which object (each suite's own enum)
 * @off: the field's offset
 * @size: the field's size (4 or 8 bytes)
 * @value: the value
 * @want: 0, -EINVAL or -ERANGE
 * @base: the base config the row starts from (component specific)
 */
struct cfg_row {
	const char *name;
	int comp;
	size_t off, size;
	u64 value;
	int want;
	u32 base;
};

#define ROW_B(comp, type, field, val, want, base) {			\
	#type "." #field " = " #val, comp, offsetof(struct type, field), \
	sizeof(((struct type *)0)->field), (u64)(val), want, base }
#define ROW(comp, type, field, val, want) \
	ROW_B(comp, type, field, val, want, 0)

/* A tune with the row's config: the clock must stay the init's. */
static inline int tune_want(const struct cfg_row *r, size_t tps_off, u32 tps)
{
	if (!r->want && r->off == tps_off && r->value != tps)
		return -EINVAL;
	return r->want;
}

static inline void set_field(void *cfg, const struct cfg_row *r)
{
	u32 v32 = (u32)r->value;

	if (r->size == sizeof(u32))
		memcpy((char *)cfg + r->off, &v32, sizeof(v32));
	else
		memcpy((char *)cfg + r->off, &r->value, sizeof(u64));
}

/* ---- contract rows: TP_ASSERT traps under -DTP_DEBUG ------------------------ */

struct contract_row {
	const char *name;
	void (*fn)(void);
};

#define CROW(fn, what)	{ #fn ": " what, fn }

static inline void run_contract_row(void **state)
{
#ifdef TP_DEBUG
	const struct contract_row *r = *state;
	struct rlimit no_core = { 0, 0 };
	int status, sig;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* The child dies of the trap itself, not of CMocka's handler. */
		signal(SIGILL, SIG_DFL);
		signal(SIGTRAP, SIG_DFL);
		signal(SIGSEGV, SIG_DFL);
		signal(SIGFPE, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		setrlimit(RLIMIT_CORE, &no_core);
		r->fn();
		_exit(0);	/* no trap: the parent fails the row */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	if (sig != SIGILL && sig != SIGTRAP)
		print_error("%s: child %s %d, want SIGILL or SIGTRAP\n", r->name,
			    sig ? "died of signal" : "exited with",
			    sig ? sig : WEXITSTATUS(status));
	assert_true(sig == SIGILL || sig == SIGTRAP);
#else
	(void)state;
	skip();	/* contract checks compile away without TP_DEBUG */
#endif
}

/* ---- the runner: one named CMocka case per row ------------------------------ */

/*
 * Run the config rows (each through @run_cfg), the call tests and the
 * contract rows as one CMocka group named @group.
 */
static inline int run_bad_input(const char *group, const struct cfg_row *cfg,
				size_t n_cfg, CMUnitTestFunction run_cfg,
				const struct CMUnitTest *call, size_t n_call,
				const struct contract_row *con, size_t n_con)
{
	struct CMUnitTest *tests;
	size_t i, n = 0;
	int ret;

	tests = calloc(n_cfg + n_call + n_con, sizeof(*tests));
	if (!tests)
		return 1;
	for (i = 0; i < n_cfg; i++) {
		tests[n].name = cfg[i].name;
		tests[n].test_func = run_cfg;
		tests[n].initial_state = (void *)&cfg[i];
		n++;
	}
	for (i = 0; i < n_call; i++)
		tests[n++] = call[i];
	for (i = 0; i < n_con; i++) {
		tests[n].name = con[i].name;
		tests[n].test_func = run_contract_row;
		tests[n].initial_state = (void *)&con[i];
		n++;
	}
	ret = _cmocka_run_group_tests(group, tests, n, NULL, NULL);
	free(tests);
	return ret;
}

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

#endif /* TP_TEST_BAD_INPUT_H */
