/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A bad header for tests/headers/selftest.sh. expect: defines the macro _TIERPOL_RESERVED_GUARD_H outside TP_/tp_ */
#ifndef _TIERPOL_RESERVED_GUARD_H
#define _TIERPOL_RESERVED_GUARD_H
struct tp_x { int tp_v; };
#endif
