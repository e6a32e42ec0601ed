/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A bad header for tests/headers/selftest.sh. expect: defines the macro min outside TP_/tp_ */
#ifndef TP_LEAK_MACRO_H
#define TP_LEAK_MACRO_H
#define min(a, b)	((a) < (b) ? (a) : (b))
#endif
