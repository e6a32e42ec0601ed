/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tierpol version, and the names of its errors.
 *
 * The major number is the shared library's soname version and changes when
 * the ABI does; docs/ABI.md states what may change within a major version.
 */
#ifndef TP_VERSION_H
#define TP_VERSION_H

#include <tierpol/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Major version: incompatible ABI changes. */
#define TP_VERSION_MAJOR	1
/** Minor version: compatible additions. */
#define TP_VERSION_MINOR	0
/** Patch version: fixes. */
#define TP_VERSION_PATCH	0

/** The version as one number, MAJOR * 10000 + MINOR * 100 + PATCH. */
#define TP_VERSION_NUMBER	(TP_VERSION_MAJOR * 10000 + \
				 TP_VERSION_MINOR * 100 + TP_VERSION_PATCH)

/** The version as a string literal, "MAJOR.MINOR.PATCH". */
#define TP_VERSION_STRING	"1.0.0"

/**
 * tp_version() - the version of the library actually linked
 * Context: Any context, wait-free.
 * Return: %TP_VERSION_NUMBER of the library binary, which may differ from
 * the header a program was compiled with.
 */
TP_API uint32_t tp_version(void);

/**
 * tp_version_string() - the version string of the library actually linked
 * Context: Any context, wait-free.
 * Return: "MAJOR.MINOR.PATCH", a static string.
 */
TP_API const char *tp_version_string(void);

/**
 * tp_strerror() - what an error returned by tierpol means
 * @err: a return value of a tierpol function: 0, or a negative errno
 *	(-EINVAL, -ERANGE, -ENOENT, -EBUSY); a positive errno is taken as its
 *	negative
 *
 * Freestanding: no libc, no locale; the kernel and userspace get the same
 * text.
 *
 * Context: Any context, wait-free.
 * Return: a static string, e.g. "invalid argument" for -EINVAL; "unknown
 * error" for a value tierpol never returns.
 */
TP_API const char *tp_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* TP_VERSION_H */
