// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * CMocka: focused cases for lines of lib/ that no component suite reaches
 * (make coverage lists what is left).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <tierpol/tierpol.h>

/* The linked library's version matches the headers it was built with. */
static void test_version(void **state)
{
	(void)state;
	assert_int_equal(tp_version(), TP_VERSION_NUMBER);
	assert_string_equal(tp_version_string(), TP_VERSION_STRING);
	assert_int_equal(TP_VERSION_NUMBER, TP_VERSION_MAJOR * 10000 +
			 TP_VERSION_MINOR * 100 + TP_VERSION_PATCH);
}

/* Pages of 1 MiB and more: MB/s shift right, beyond 2^84 nothing is left. */
static void test_policy_huge_pages(void **state)
{
	struct tp_policy_cfg cfg;
	struct tp_policy pol;

	(void)state;
	assert_int_equal(tp_policy_preset(&cfg, TP_PRESET_LINUX61, 1000), 0);
	cfg.page_shift = 20;
	assert_int_equal(tp_policy_init(&pol, &cfg), 0);
	cfg.page_shift = 30;
	cfg.rate_limit_mbps = 0xffffffffU;
	assert_int_equal(tp_policy_init(&pol, &cfg), 0);
	assert_true(tp_mbps_to_pages(1024, 30) == 1);
	assert_true(tp_mbps_to_pages(1023, 30) == 0);
	assert_true(tp_mbps_to_pages(~0ULL, 83) == 1);
	assert_true(tp_mbps_to_pages(~0ULL, 84) == 0);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_policy_huge_pages),
	};

	return cmocka_run_group_tests_name("coverage_gaps", tests, NULL, NULL);
}
