/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A bad header for tests/headers/selftest.sh. expect: declares page (RecordDecl) outside tp_/TP_ */
#ifndef TP_LEAK_TAG_H
#define TP_LEAK_TAG_H
struct tp_x { struct page { int n; } p; };
#endif
