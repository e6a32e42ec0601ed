/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A bad header for tests/headers/selftest.sh. expect: changes the macro NULL */
#ifndef TP_REDEFINE_H
#define TP_REDEFINE_H
#include <stddef.h>
#undef NULL
#define NULL 0
#endif
