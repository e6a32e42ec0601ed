#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# The tables README.md quotes from `make run` are what tiersim's default
# suite prints now (make check-readme-run):
#
#   tests/docs/readme-run.sh TIERSIM README.md [JOBS]
#
# Runs the default suite, then checks every indented line of README.md's
# "What `make run` shows" between "Two of the tables" and "(Columns
# trimmed": a set's header lines ("== ...", and the indented ones under it)
# must be printed as they are, and each row's cells must equal the printed
# row's in the columns README.md keeps (it trims some, so the columns are
# matched by name). Prints each difference; exit status 1 if any.
set -u

[ $# -ge 2 ] || { echo "usage: $0 TIERSIM README.md [JOBS]" >&2; exit 2; }
T=$1
readme=$2
jobs=${3:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$T" --suite default --outdir "$tmp/run" -j "$jobs" >"$tmp/out" 2>"$tmp/err" ||
	{ echo "readme-run: tiersim failed: $(cat "$tmp/err")" >&2; exit 1; }

awk '
# Column names of more than one word, as one token.
function norm(s) {
	gsub(/lat ns/, "lat_ns", s); gsub(/thr ms/, "thr_ms", s)
	gsub(/burst M\/s/, "burst_M/s", s); gsub(/burst pr/, "burst_pr", s)
	return s
}
function trim(s) { sub(/^ +/, "", s); sub(/ +$/, "", s); gsub(/  +/, " ", s); return s }
FNR == 1 { file++ }
# The suite output: header lines, and each row by set, policy and column.
file == 1 && /^== / { set = $2; hdr[trim($0)] = 1; next }
file == 1 && /^   [^ ]/ { hdr[trim($0)] = 1; next }
file == 1 && /^policy / { nc = split(norm($0), col, / +/); next }
file == 1 && nc && NF == nc {
	for (i = 2; i <= nc; i++)
		val[set, $1, col[i]] = $i
	next
}
# README.md: its quoted block.
file == 2 && /^Two of the tables/ { on = 1; next }
file == 2 && /^\(Columns trimmed/ { on = 0; next }
file == 2 && on && /^    / {
	line = substr($0, 5)
	if (line ~ /^== /) {
		split(line, w, / +/); rset = w[2]; rows[rset] = 0
		if (!(trim(line) in hdr)) { print "README header not printed: " line; bad++ }
		next
	}
	if (line ~ /^   [^ ]/) {
		if (!(trim(line) in hdr)) { print "README header not printed: " line; bad++ }
		next
	}
	if (line ~ /^policy /) { rn = split(norm(line), rcol, / +/); next }
	n = split(line, f, / +/)
	if (n != rn) { print "README row with " n " cells, header " rn ": " line; bad++; next }
	checked++
	for (i = 2; i <= n; i++) {
		if (!((rset, f[1], rcol[i]) in val)) {
			print "README: " rset " " f[1] " " rcol[i] ": no such row or column printed"
			bad++
		} else if (val[rset, f[1], rcol[i]] != f[i]) {
			print "README: " rset " " f[1] " " rcol[i] ": " f[i] ", printed " val[rset, f[1], rcol[i]]
			bad++
		}
	}
}
END {
	if (!checked) { print "README: no quoted table rows found"; bad++ }
	if (bad) exit 1
	print "readme-run: " checked " rows of README.md as tiersim prints them"
}' "$tmp/out" "$readme"
