// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The library's version, and the names of its errors.
 */
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

const char *tp_strerror(int err)
{
	if (err > 0)
		err = -err;
	switch (err) {
	case 0:
		return "success";
	case -EINVAL:
		return "invalid argument";
	case -ERANGE:
		return "value out of range";
	case -ENOENT:
		return "nothing recorded";
	case -EBUSY:
		return "busy: state kept changing, try again";
	default:
		return "unknown error";
	}
}
