#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# The documentation's example programs compile and do what it says
# (make check-doc-examples):
#
#   tests/docs/examples.sh LIBRARY FILE.md...
#
# Every fenced ```c block of FILE that defines main() is compiled as C99
# and as C11 with -Wall -Wextra -pedantic -Werror against LIBRARY (the
# static library) and run; it must exit 0. If the next fenced block is a
# ```text block, it is the output the page promises: the program's
# standard output must be exactly that. Fragments (no main()) are left
# alone. CC is the compiler (cc).
set -u

[ $# -ge 2 ] || { echo "usage: $0 LIBRARY FILE.md..." >&2; exit 2; }
lib=$1
shift
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

for md in "$@"; do
	rm -f "$tmp"/blk*
	# blk<N>.c for each C block, blk<N>.out for a text block right after it.
	awk -v dir="$tmp" '
	/^```c$/ { blk++; f = dir "/blk" blk ".c"; kind = "c"; inb = 1; next }
	/^```text$/ { if (last_c && last_c == blk) out = dir "/blk" blk ".out";
		      else out = ""; kind = "text"; inb = 1; next }
	/^```/ && inb { inb = 0; if (kind == "c") last_c = blk; else last_c = 0;
			next }
	/^```/ { inb = 1; kind = "other"; last_c = 0; next }
	inb && kind == "c" { print > f; next }
	inb && kind == "text" && out != "" { print > out; next }
	' "$md"
	for c in "$tmp"/blk*.c; do
		[ -f "$c" ] || continue
		grep -q 'main(' "$c" || continue
		n=$((n + 1))
		b=${c%.c}
		for std in c99 c11; do
			if ! $CC -std=$std -Wall -Wextra -pedantic -Werror -Iinclude \
				"$c" "$lib" -o "$b" 2>"$b.err"; then
				echo "FAIL $md: example $(basename "$b") does not compile ($CC -std=$std):"
				sed 's/^/    /' "$b.err" | head -20
				fail=1
				continue
			fi
			if ! "$b" >"$b.got" 2>&1; then
				echo "FAIL $md: example $(basename "$b") exits non-zero:"
				sed 's/^/    /' "$b.got"
				fail=1
			elif [ -f "$b.out" ] && ! cmp -s "$b.out" "$b.got"; then
				echo "FAIL $md: example $(basename "$b") prints something else than the page says:"
				diff "$b.out" "$b.got" | sed 's/^/    /'
				fail=1
			fi
		done
	done
done
[ $fail = 0 ] && echo "documentation examples: $n program(s) compile as C99 and C11, run, and print what the pages say"
exit $fail
