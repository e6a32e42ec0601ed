#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Instructions per operation, tierpol against its baseline, for every
# single-thread comparison of the benchmark: a count that noise cannot move,
# to cross-check the timings (docs/PERFORMANCE.md). Runs the benchmark with
# --instr under callgrind, which dumps each side's instructions (loop
# included, the same loop on both sides) over N calls.
# Usage: bench/instr.sh BENCH N [BENCH-ARGS...]   (make bench-instr)
set -eu

bench=$1
n=$2
shift 2
command -v valgrind >/dev/null || {
	echo "valgrind is missing. Run: sudo apt-get install valgrind" >&2
	exit 1
}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
valgrind -q --tool=callgrind --callgrind-out-file="$dir/cg" \
	"$bench" --instr "$n" "$@" >/dev/null
# Each dump cg.K: "desc: Trigger: Client Request: side|section|row|calls"
# and "totals: Ir"; they come in pairs, tierpol then the baseline.
ls "$dir" | grep '^cg\.[0-9]*$' | sort -t. -k2 -n | sed "s|^|$dir/|" |
	xargs awk -F'|' '
	BEGIN { printf "%-8s %-36s %10s %10s %8s\n", "section", "operation",
		"tierpol", "baseline", "base/tp"
		printf "%-8s %-36s %10s %10s %8s\n", "", "", "Ir/op", "Ir/op", "" }
	FNR == 1 { l = "" }
	/^desc: Trigger: Client Request: / {
		l = $0; sub(/^desc: Trigger: Client Request: /, "", l) }
	/^totals:/ && l != "" {
		split(l, f, "|"); split($0, t, " ")
		if (f[1] == "tp") { tp = t[2] / f[4]; next }
		b = t[2] / f[4]
		printf "%-8s %-36s %10.1f %10.1f %7.2fx\n", f[2], f[3], tp, b,
			b / tp }'
