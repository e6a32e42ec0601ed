/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A bad header for tests/headers/selftest.sh. expect: tp_f has C++ linkage */
#ifndef TP_NO_EXTERN_C_H
#define TP_NO_EXTERN_C_H
int tp_f(void);
#endif
