#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Shows that tests/headers/check.sh catches what it should: every header
# in tests/headers/bad/tierpol/ breaks one rule and names, in its second
# line ("expect: ..."), the failure the check must report; good.h breaks
# none and must pass. Run by make check-headers, one header at a time (the
# headers are judged in parallel).
#
#   tests/headers/selftest.sh [NAME...]
#
# NAME is a header of tests/headers/bad/tierpol/ (leak_macro.h); none: all
# of them.
set -u

here=$(dirname "$0")
dir=$here/bad
fail=0
n=0

if [ $# = 0 ]; then
	for f in "$dir"/tierpol/*.h; do
		set -- "$@" "$(basename "$f")"
	done
fi
for b in "$@"; do
	f=$dir/tierpol/$b
	h=tierpol/$b
	[ -f "$f" ] || { echo "FAIL selftest: $f: no such header"; fail=1; continue; }
	want=$(sed -n '2s/.*expect: \(.*\) \*\/$/\1/p' "$f")
	out=$(sh "$here/check.sh" -I "$dir" "$h" 2>&1)
	rc=$?
	n=$((n + 1))
	if [ -z "$want" ]; then
		if [ $rc != 0 ]; then
			echo "FAIL selftest: $h should pass:"
			printf '%s\n' "$out" | sed 's/^/    /'
			fail=1
		fi
	elif [ $rc = 0 ]; then
		echo "FAIL selftest: $h passed; expected \"$want\""
		fail=1
	elif ! printf '%s\n' "$out" | grep -qF -- "$want"; then
		echo "FAIL selftest: $h: expected \"$want\", got:"
		printf '%s\n' "$out" | sed 's/^/    /'
		fail=1
	fi
done
[ $fail = 0 ] && [ $# -gt 1 ] &&
	echo "header check self-test: $n bad and good headers judged right"
exit $fail
