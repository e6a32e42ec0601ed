#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Run test programs JOBS at a time and report them in the order given.
# Usage: tests/run-suites.sh JOBS WRAPPER PROGRAM...
#   WRAPPER  what goes before each program, split on spaces ("" for
#            nothing): "valgrind -q", "qemu-i386 -L /", "env NAME=VALUE"
# Each program's output goes to PROGRAM.log and its exit status to
# PROGRAM.rc; once all ran, each log is shown under "== PROGRAM", and a
# program that exited non-zero or printed a sanitizer report is named
# "FAILED: PROGRAM (exit N)". The last line says how many passed; the exit
# status is 1 if any failed. The multi-threaded suites end on counts, not
# the clock, so running them side by side slows them and fails none.
# Used by make's reliability targets (RL_RUN) and by make check32.
set -u

[ $# -ge 2 ] || { echo "usage: $0 JOBS WRAPPER PROGRAM..." >&2; exit 2; }
jobs=$1
wrap=$2
shift 2
[ $# -gt 0 ] || exit 0

for t in "$@"; do
	rm -f "$t.rc"
done
# The inner shell's $0 is the wrapper, unquoted: its words, or none.
# shellcheck disable=SC2016
printf '%s\n' "$@" | xargs -P "$jobs" -n 1 sh -c \
	'$0 "$1" >"$1.log" 2>&1; echo $? >"$1.rc"' "$wrap"

failed=0
for t in "$@"; do
	echo "== $t"
	cat "$t.log" 2>/dev/null
	rc=$(cat "$t.rc" 2>/dev/null || echo "not run")
	if [ "$rc" != 0 ] ||
		grep -Eq '(ERROR|WARNING): [A-Za-z]+Sanitizer|runtime error:' \
			"$t.log"; then
		echo "FAILED: $t (exit $rc)"
		failed=$((failed + 1))
	fi
done
echo "$(($# - failed)) of $# passed"
[ $failed = 0 ]
