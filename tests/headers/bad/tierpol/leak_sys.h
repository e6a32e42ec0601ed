/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A bad header for tests/headers/selftest.sh. expect: declares printf */
#ifndef TP_LEAK_SYS_H
#define TP_LEAK_SYS_H
#include <stdio.h>
#endif
