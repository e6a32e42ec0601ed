// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#include "tp_seam.h"
#include <tierpol/version.h>

u32 tp_version(void)
{
	return TP_VERSION_NUMBER;
}

const char *tp_version_string(void)
{
	return TP_VERSION_STRING;
}
