#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# docs/BAD_INPUT.md names a test case for every row; this checks that each
# one exists in the bad-input suites (make check-bad-input-doc):
#
#   tests/docs/bad-input-rows.sh docs/BAD_INPUT.md tests/test_bad_input*.c
#
# "<struct>.<field> = *" needs at least one ROW()/ROW_B() of that struct
# and field; a call_* or c_* name needs that identifier, in any of the
# suites. Prints the rows the suites lack and exits 1 if any.
set -u

[ $# -ge 2 ] || { echo "usage: $0 BAD_INPUT.md SUITE.c..." >&2; exit 2; }
doc=$1
shift
suite="$*"
fail=0
n=0

fields=$(grep -oE '`tp_[a-z0-9_]+_cfg\.[a-z_]+ = \*`' "$doc" | tr -d '`' |
	sed 's/ = \*$//' | sort -u)
# "<struct>.sz = *" stands for the size rows of every configuration.
if grep -q '`<struct>.sz = \*`' "$doc"; then
	fields="$fields
$(grep -oE 'struct tp_[a-z0-9_]+_cfg`: `tp_' "$doc" |
	sed 's/struct \(tp_[a-z0-9_]*_cfg\).*/\1.sz/' | sort -u)"
fi
for f in $fields; do
	n=$((n + 1))
	s=${f%.*}
	m=${f#*.}
	# shellcheck disable=SC2086
	grep -Eq "ROW(_B)?\([A-Z]+, *$s, *$m," $suite ||
		{ echo "FAIL: $doc names $f = *, $suite has no such row"; fail=1; }
done
for c in $(grep -oE '`(call|c)_[a-z0-9_]+`' "$doc" | tr -d '`' | sort -u); do
	n=$((n + 1))
	# shellcheck disable=SC2086
	grep -Eq "\\b$c\\b" $suite ||
		{ echo "FAIL: $doc names $c, $suite has no such case"; fail=1; }
done
[ $fail = 0 ] && echo "$doc: all $n test names found in $suite"
exit $fail
