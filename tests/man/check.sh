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
# names under --workload) must have an entry (".B name") in MANPAGE, and an
# option's text may not start with a name capitalised (a policy, a workload,
# a profile, a sysctl, a value: "Numa_balancing_scan_size_mb", "Auto, lackey
# or tiersim"). With groff installed, the page must also format without a
# warning (groff -man -ww). Prints what is missing; exits 1 if anything is.
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

# Names keep their case where an option's paragraph starts with one
# ("zipf: the exponent", not "Zipf: ..."), as in --help: the policies,
# workloads and profiles --help lists, its identifiers with an underscore
# (the sysctls), the values of a description that is a list of them
# ("auto, lackey or tiersim") and Linux's kernel threads. (The other
# sections are prose: "Uniform addresses" describes -w uniform.)
# shellcheck disable=SC2086 # the names, one a word
names=$( {
	printf '%s\n' $policies $workloads kswapd kmigrated kdamond
	printf '%s\n' "$help" | sed -n 's/^                            \([a-z][a-z0-9-]*\) .*/\1/p'
	printf '%s\n' "$help" | grep -oE '[A-Za-z0-9]*_[A-Za-z0-9_]*'
	printf '%s\n' "$help" | sed -nE 's/^  (-[a-zA-Z], |    )--[a-z0-9-]+( [^ ]+)?  +(([a-z][a-z0-9-]*, )+[a-z][a-z0-9-]* or [a-z][a-z0-9-]*).*/\3/p' |
		sed 's/,//g; s/ or / /' | tr ' ' '\n'
} | LC_ALL=C sort -u | tr '\n' ' ')
capitalised=$(printf '%s\n' "$text" | sed -n '/^\.SH OPTIONS/,/^\.SH [^O]/p' |
	awk -v names="$names" '
	BEGIN { n = split(names, a, " "); for (i = 1; i <= n; i++) name[a[i]] = 1 }
	/^\.TP/ { tp = 1; next }
	tp == 1 { tp = 2; next }
	tp == 2 {
		tp = 0
		if (/^\./)
			next
		w = $1
		sub(/[,:;.]+$/, "", w)
		sub(/\047s$/, "", w)
		if (w ~ /^[A-Z]/ && (tolower(substr(w, 1, 1)) substr(w, 2)) in name)
			print
	}')
[ -z "$capitalised" ] || {
	echo "FAIL: $page capitalises a name at the start of an option's text:"
	printf '%s\n' "$capitalised" | sed 's/^/  /'
	fail=1
}

if command -v groff >/dev/null; then
	w=$(groff -man -ww -z "$page" 2>&1)
	[ -z "$w" ] || { echo "FAIL: groff warns about $page:"; echo "$w"; fail=1; }
fi

[ $fail = 0 ] && echo "man page in step with $prog --help:" \
	"$(printf '%s\n' "$help" | opts | wc -l) options," \
	"$(echo $policies | wc -w) policies, $(echo $workloads | wc -w) workloads"
exit $fail
