// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The measuring loops over libtierpol.a, called out of line as any user
 * program calls them (the lib_ runners; see bench.h and cases.h).
 */
#include "bench.h"

#define CASE(name)	lib_##name
#define RUNNER_ATTR

#include "cases.h"
