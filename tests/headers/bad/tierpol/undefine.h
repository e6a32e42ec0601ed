/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A bad header for tests/headers/selftest.sh. expect: undefines the macro bool */
#ifndef TP_UNDEFINE_H
#define TP_UNDEFINE_H
#undef bool
#endif
