/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tierpol version. The major number is the shared library's soname version
 * and changes when the ABI does.
 */
#ifndef _TIERPOL_VERSION_H
#define _TIERPOL_VERSION_H

#include <tierpol/types.h>

/** Major version: incompatible ABI changes. */
#define TP_VERSION_MAJOR	0
/** Minor version: compatible additions. */
#define TP_VERSION_MINOR	1
/** Patch version: fixes. */
#define TP_VERSION_PATCH	0

/** The version as one number, MAJOR * 10000 + MINOR * 100 + PATCH. */
#define TP_VERSION_NUMBER	(TP_VERSION_MAJOR * 10000 + \
				 TP_VERSION_MINOR * 100 + TP_VERSION_PATCH)

/** The version as a string literal, "MAJOR.MINOR.PATCH". */
#define TP_VERSION_STRING	"0.1.0"

/**
 * tp_version() - the version of the library actually linked
 * Context: Any context.
 * Return: %TP_VERSION_NUMBER of the library binary, which may differ from
 * the header a program was compiled with.
 */
TP_API u32 tp_version(void);

/**
 * tp_version_string() - the version string of the library actually linked
 * Context: Any context.
 * Return: "MAJOR.MINOR.PATCH", a static string.
 */
TP_API const char *tp_version_string(void);

#endif /* _TIERPOL_VERSION_H */
