/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A bad header for tests/headers/selftest.sh. expect:  */
#ifndef TP_GOOD_H
#define TP_GOOD_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
#define TP_GOOD_MAX	1U
enum tp_good { TP_GOOD_A = 0 };
struct tp_good_cfg { uint32_t sz; };
int tp_good_init(struct tp_good_cfg *cfg);
static inline uint32_t tp_good_sz(const struct tp_good_cfg *tp_cfg)
{
	return tp_cfg->sz;
}
#ifdef __cplusplus
}
#endif
#endif
