// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * truth: the host side of the real-kernel ground truth (make kernel-truth,
 * docs/FIDELITY.md): "truth parse" (truth_parse.c, with truth_fit.c) and
 * "truth report" (truth_report.c).
 */
#define _GNU_SOURCE
#include "truth.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *prog = "truth";

void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(1);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "parse"))
		return cmd_parse(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	fprintf(stderr, "usage: truth parse CONSOLE OUTDIR\n"
		"       truth report [--md FILE] [--svg-dir DIR] "
		"[--svg-ref PREFIX] [--notes FILE] SCENARIO-DIR...\n");
	return 2;
}

