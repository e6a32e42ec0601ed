/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A bad header for tests/headers/selftest.sh. expect: declares NR_X (EnumConstantDecl) outside tp_/TP_ */
#ifndef TP_LEAK_ENUM_H
#define TP_LEAK_ENUM_H
enum tp_x { TP_X_A = 0, NR_X = 1 };
#endif
