#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Keeps tiersim's man page in step with the program (make check-man):
#
#   tests/man/check.sh TIERSIM MANPAGE
#
# Every long option of "TIERSIM --help" must appear in MANPAGE, and every
# long option of MANPAGE's OPTIONS section must be one of --help's; every policy --help lists
# (the "Policies (-p, comma-separated):" table) and every workload (the
# names under --workload) must have an entry (".B name") in MANPAGE. With groff installed,
# the page must also format without a warning (groff -man -ww). Prints what
# is missing; exits 1 if anything is.
set -u

[ $# = 2 ] || { echo "usage: $0 TIERSIM MANPAGE" >&2; exit 2; }
prog=$1
page=$2
fail=0

help=$("$prog" --help) || { echo "FAIL: $prog --help failed"; exit 1; }
# The page as text: roff's \- is a hyphen, font changes go.
text=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g' "$page")

opts() {
	grep -oE -- '--[a-z][a-z0-9-]*[a-z0-9]' | LC_ALL=C sort -u
}

for o in $(printf '%s\n' "$help" | opts); do
	printf '%s\n' "$text" | grep -qe "$o\([^a-z0-9-]\|$\)" ||
		{ echo "FAIL: $page lacks $o (in $prog --help)"; fail=1; }
done
# The page's own options: those of its OPTIONS section (EXAMPLES and
# TRACES may quote other programs' options).
for o in $(printf '%s\n' "$text" | sed -n '/^\.SH OPTIONS/,/^\.SH [^O]/p' | opts); do
	printf '%s\n' "$help" | grep -qe "$o\([^a-z0-9-]\|$\)" ||
		{ echo "FAIL: $page has $o, which $prog --help does not"; fail=1; }
done

# Policies: the two-space-indented names of the table after its heading.
policies=$(printf '%s\n' "$help" | awk '
	/^Policies \(-p/ { on = 1; next }
	on && /^  [a-z][a-z0-9-]+ +[A-Za-z]/ { print $1; next }
	on && !/^  / { on = 0 }')
# Workloads: the names indented under --workload, up to the next option.
workloads=$(printf '%s\n' "$help" | awk '
	/--workload/ { on = 1; next }
	on && /^ +-/ { on = 0 }
	on && /^                            [a-z][a-z0-9-]+ / { print $1 }')
[ -n "$policies" ] && [ -n "$workloads" ] ||
	{ echo "FAIL: cannot find the policies or workloads in --help"; fail=1; }
# Each has its own entry: a ".B name" tag of a .TP paragraph.
for n in $policies $workloads; do
	printf '%s\n' "$text" | grep -qx "\.B $n" ||
		{ echo "FAIL: $page has no entry for $n (in $prog --help)"; fail=1; }
done

if command -v groff >/dev/null; then
	w=$(groff -man -ww -z "$page" 2>&1)
	[ -z "$w" ] || { echo "FAIL: groff warns about $page:"; echo "$w"; fail=1; }
fi

[ $fail = 0 ] && echo "man page in step with $prog --help:" \
	"$(printf '%s\n' "$help" | opts | wc -l) options," \
	"$(echo $policies | wc -w) policies, $(echo $workloads | wc -w) workloads"
exit $fail
