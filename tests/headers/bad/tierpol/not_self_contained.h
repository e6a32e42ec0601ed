/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A bad header for tests/headers/selftest.sh. expect: does not compile on its own (gcc -std=c11) */
#ifndef TP_NOT_SELF_CONTAINED_H
#define TP_NOT_SELF_CONTAINED_H
struct tp_x { uint64_t v; };
#endif
