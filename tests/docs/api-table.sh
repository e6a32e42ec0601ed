#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# docs/mainpage.md's object table is where a user finds the API: every
# function a public header exports (declared TP_API) must be named there
# (make check-api-table):
#
#   tests/docs/api-table.sh docs/mainpage.md include/tierpol/*.h
#
# Prints the functions the page lacks and exits 1 if any.
set -u

[ $# -ge 2 ] || { echo "usage: $0 PAGE.md HEADER.h..." >&2; exit 2; }
page=$1
shift
fail=0
n=0

# A declaration starts "TP_API <type> tp_name(" on one line.
for f in $(grep -hoE '^TP_API [^(]*\btp_[a-z0-9_]+\(' "$@" |
	grep -oE 'tp_[a-z0-9_]+\($' | tr -d '(' | LC_ALL=C sort -u); do
	n=$((n + 1))
	grep -q "\\b$f()" "$page" ||
		{ echo "FAIL: $page does not name $f(), exported by tierpol"; fail=1; }
done
[ "$n" -gt 0 ] || { echo "FAIL: no TP_API function found in $*"; exit 1; }
[ $fail -eq 0 ] && echo "API TABLE PASSED: $page names all $n exported functions"
exit $fail
