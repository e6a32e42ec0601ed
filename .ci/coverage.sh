#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Line and branch coverage of lib/ from gcc --coverage data, without gcovr.
# Usage: .ci/coverage.sh OBJDIR MIN_LINES MIN_BRANCHES [GCOV]
#
# Runs "gcov -t -b -c" (annotated source on stdout, nothing written) on
# every lib/*.c with the .gcno/.gcda files of OBJDIR, merges the sections
# of each source over all objects (the inline helpers of lib/tp_seam.h are
# compiled into several), and prints per file and in total the executed
# lines and the branches taken at least once, then every uncovered line and
# every line with an untaken branch. The total counts lib/ only (lib/*.c and
# lib/tp_seam.h); the public headers' inline functions are shown apart.
# Exit status 1 when the total is below MIN_LINES % of lines or
# MIN_BRANCHES % of branches.
set -eu

[ $# -ge 3 ] || { echo "usage: $0 OBJDIR MIN_LINES MIN_BRANCHES [GCOV]" >&2; exit 2; }
objdir=$1
min_lines=$2
min_branches=$3
gcov=${4:-gcov}
command -v "$gcov" >/dev/null || { echo "$gcov is missing" >&2; exit 2; }

for src in lib/*.c; do
	"$gcov" -t -b -c -o "$objdir" "$src" 2>/dev/null
done | awk -v min_lines="$min_lines" -v min_branches="$min_branches" '
function pct(a, b) { return b ? 100 * a / b : 100 }
# " 9 3 4 5" -> "3-5,9"
function ranges(list,    n, a, i, j, t, out, lo, hi) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	out = ""
	for (i = 1; i <= n; i++) {
		lo = hi = a[i] + 0
		while (i < n && a[i + 1] + 0 == hi + 1) { i++; hi++ }
		out = out (out == "" ? "" : ",") (lo == hi ? lo : lo "-" hi)
	}
	return out
}
/^ *-: *0:Source:/ { sub(/.*Source:/, ""); file = $0; files[file] = 1; next }
/^branch / {
	key = file SUBSEP line SUBSEP $2
	taken = ($3 == "taken" && $4 + 0 > 0)
	if (!(key in br) || taken)
		br[key] = taken
	next
}
/^ *([0-9]+\*?|#####|=====|-): *[0-9]+:/ {
	split($0, fld, ":")
	cnt = fld[1]; gsub(/ /, "", cnt)
	line = fld[2] + 0
	if (line == 0 || cnt == "-")
		next
	key = file SUBSEP line
	hit = (cnt !~ /^(#####|=====)$/)
	if (!(key in ln) || hit)
		ln[key] = hit
	next
}
END {
	for (k in ln) {
		split(k, p, SUBSEP)
		lt[p[1]]++
		if (ln[k]) lh[p[1]]++
		else miss[p[1]] = miss[p[1]] " " p[2]
	}
	for (k in br) {
		split(k, p, SUBSEP)
		bt[p[1]]++
		if (br[k]) bh[p[1]]++
		else bmiss[p[1] SUBSEP p[2]]++
	}
	n = 0
	for (f in files) names[++n] = f
	for (i = 2; i <= n; i++)	# insertion sort: lib/ first, by name
		for (j = i; j > 1 && (names[j - 1] !~ /^lib\// && names[j] ~ /^lib\// ||
		     (names[j - 1] ~ /^lib\//) == (names[j] ~ /^lib\//) &&
		     names[j - 1] > names[j]); j--) {
			t = names[j]; names[j] = names[j - 1]; names[j - 1] = t
		}
	printf "%-34s %18s %20s\n", "coverage (unit tests)", "lines", "branches"
	for (i = 1; i <= n; i++) {
		f = names[i]
		in_lib = f ~ /^lib\//
		if (!in_lib && !shown_hdr++)
			printf "public headers, inline functions (not in the total):\n"
		printf "  %-32s %6.2f%% %4d/%-4d %6.2f%% %4d/%-4d\n", f,
		       pct(lh[f], lt[f]), lh[f], lt[f],
		       pct(bh[f], bt[f]), bh[f], bt[f]
		if (in_lib) { tl += lt[f]; tlh += lh[f]; tb += bt[f]; tbh += bh[f] }
	}
	printf "  %-32s %6.2f%% %4d/%-4d %6.2f%% %4d/%-4d\n", "TOTAL lib/",
	       pct(tlh, tl), tlh, tl, pct(tbh, tb), tbh, tb
	for (i = 1; i <= n; i++) {
		f = names[i]
		if (miss[f] != "")
			printf "uncovered lines    %s: %s\n", f, ranges(miss[f])
		bl = ""
		for (k in bmiss) {
			split(k, p, SUBSEP)
			if (p[1] == f)
				bl = bl " " p[2]
		}
		if (bl != "") {
			m = split(bl, arr, " ")
			for (a = 2; a <= m; a++)	# sort numerically
				for (b = a; b > 1 && arr[b - 1] + 0 > arr[b] + 0; b--) {
					t = arr[b]; arr[b] = arr[b - 1]; arr[b - 1] = t
				}
			out = ""
			for (a = 1; a <= m; a++)
				out = out (a > 1 ? "," : "") arr[a] "(" bmiss[f SUBSEP arr[a]] ")"
			printf "untaken branches   %s: line(count) %s\n", f, out
		}
	}
	ok = pct(tlh, tl) >= min_lines && pct(tbh, tb) >= min_branches
	printf "coverage %s: lib/ lines %.2f%% (min %s%%), branches %.2f%% (min %s%%)\n",
	       ok ? "OK" : "BELOW THE BAR", pct(tlh, tl), min_lines,
	       pct(tbh, tb), min_branches
	exit ok ? 0 : 1
}'
