#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Header hygiene of tierpol's public headers (make check-headers).
#
#   tests/headers/check.sh [-I DIR] HEADER...
#
# HEADER is a name as a program includes it (tierpol/policy.h), found under
# DIR (default: include). For each header:
#
#  1. It compiles on its own, and included twice, as C99 and C11 with every
#     compiler of HDR_CCS (gcc clang) and as C++11 and C++17 with every one
#     of HDR_CXXS (g++ clang++), with -Wall -Wextra -pedantic -Werror and
#     the further warnings below (with clang, -Wdocumentation too: the
#     kernel-doc comments are read by a user's clang as Doxygen).
#  2. It defines no macro outside TP_ and tp_, and changes or removes none
#     that the program had: the macros of a program that includes
#     <stdbool.h> and <stdint.h> (the two headers tierpol includes; in C
#     before C23, <stdbool.h> defines bool, true and false) are compared with those of the same program after
#     "#include <HEADER>" (cc -dM -E), as C and as C++. Include guards
#     are no exception: TP_<NAME>_H (a _TIERPOL_ guard would take a name
#     reserved to the implementation).
#  3. It declares no name outside tp_ and TP_ (functions, variables,
#     typedefs, struct, union and enum tags, enum constants), and its
#     inline functions name their parameters and locals in tp_ too (a
#     program's global of the same name, declared first, would be shadowed:
#     -Wshadow): the same two programs compared through clang's AST
#     (tests/headers/names.pl), as C and as C++; and in C++ every function
#     it declares has C linkage (extern "C"), so that a C++ program links
#     against the C library.
#
# Prints one line per failure and exits 1 if any; tests/headers/selftest.sh
# shows that each rule catches what it should.
set -u

inc=include
if [ "${1:-}" = "-I" ]; then
	inc=$2
	shift 2
fi
[ $# -gt 0 ] || { echo "usage: $0 [-I DIR] HEADER..." >&2; exit 2; }

HDR_CCS=${HDR_CCS:-gcc clang}
HDR_CXXS=${HDR_CXXS:-g++ clang++}
NAMES_CC=${NAMES_CC:-clang}
NAMES_CXX=${NAMES_CXX:-clang++}
here=$(dirname "$0")

W="-Wall -Wextra -pedantic -Werror -Wconversion -Wsign-conversion -Wundef \
-Wcast-qual"
WC="$W -Wshadow -Wstrict-prototypes -Wmissing-prototypes"
# C++ programs often build with these; g++ does not warn of an old-style
# cast inside extern "C" (the headers' inline functions), clang++ does.
WCXX="$W -Wold-style-cast -Wzero-as-null-pointer-constant"

# docw COMPILER: clang's check of the comments as Doxygen (its
# -Wdocumentation-unknown-command would flag kernel-doc's @member: lines).
docw() {
	case $1 in
	*clang*) echo -Wdocumentation ;;
	esac
}
BASE='#include <stdbool.h>
#include <stdint.h>'

for c in $HDR_CCS $HDR_CXXS $NAMES_CC $NAMES_CXX; do
	command -v "$c" >/dev/null || {
		echo "check-headers: $c is missing (Debian: apt-get install" \
			"gcc g++ clang)" >&2
		exit 2
	}
done
perl -MJSON::PP -e 1 2>/dev/null || {
	echo "check-headers: perl with JSON::PP is missing (apt-get install perl)" >&2
	exit 2
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

bad() {
	echo "FAIL $*"
	fail=1
}

# compile LANG COMPILER STD FLAGS TEXT: syntax-check TEXT; errors on stdout.
compile() {
	# shellcheck disable=SC2086 # FLAGS: the options, split
	printf '%s\n' "$5" | $2 -x "$1" -std="$3" $4 -I"$inc" -fsyntax-only - \
		>"$tmp/out" 2>&1 && return 0
	sed 's/^/    /' "$tmp/out" | head -20
	return 1
}

# alone_and_twice LANG COMPILER STD FLAGS: the header ($one) compiles on
# its own and included twice ($two). $two is $one followed by the header
# again, and a compiler reads a unit in order: whatever $one is told (an
# error, or a warning made one) $two is told as well, so $one is compiled
# only when $two fails, to say which of the two rules the header breaks.
alone_and_twice() {
	compile "$1" "$2" "$3" "$4" "$two" >"$tmp/twice" && return 0
	if ! compile "$1" "$2" "$3" "$4" "$one"; then
		bad "$h: does not compile on its own ($2 -std=$3)"
	fi
	cat "$tmp/twice"
	bad "$h: cannot be included twice ($2 -std=$3)"
}

# macros LANG COMPILER TEXT: the macro definitions of TEXT, sorted.
macros() {
	printf '%s\n' "$3" | $2 -x "$1" -I"$inc" -dM -E - | LC_ALL=C sort
}

# names LANG COMPILER STD TEXT: "NAME KIND LINKAGE" of TEXT, sorted.
names() {
	printf '%s\n' "$4" | $2 -x "$1" -std="$3" -I"$inc" -fsyntax-only \
		-Xclang -ast-dump=json - | perl "$here/names.pl" | LC_ALL=C sort
}

for h in "$@"; do
	[ -f "$inc/$h" ] || { bad "$h: not found under $inc"; continue; }
	one="#include <$h>"
	two="$one
$one"

	# 1. On its own, and twice, in every language and compiler.
	for cc in $HDR_CCS; do
		for std in c99 c11; do
			alone_and_twice c "$cc" "$std" "$WC $(docw "$cc")"
		done
	done
	for cxx in $HDR_CXXS; do
		for std in c++11 c++17; do
			alone_and_twice c++ "$cxx" "$std" "$WCXX $(docw "$cxx")"
		done
	done

	for lang in c c++; do
		if [ $lang = c ]; then
			cc=$NAMES_CC std=c11
		else
			cc=$NAMES_CXX std=c++17
		fi

		# 2. Macros: new, changed or removed ones.
		macros $lang "$cc" "$BASE" >"$tmp/m0" || { bad "$h: $cc -E failed"; continue; }
		macros $lang "$cc" "$BASE
$one" >"$tmp/m1" || { bad "$h: $cc -E failed"; continue; }
		LC_ALL=C comm -13 "$tmp/m0" "$tmp/m1" |
			sed -n 's/^#define \([A-Za-z0-9_]*\).*/\1/p' >"$tmp/new"
		LC_ALL=C comm -23 "$tmp/m0" "$tmp/m1" |
			sed -n 's/^#define \([A-Za-z0-9_]*\).*/\1/p' >"$tmp/gone"
		while read -r m; do
			case $m in
			TP_*|tp_*) ;;
			*)
				if grep -qx "$m" "$tmp/gone"; then
					bad "$h: changes the macro $m ($lang)"
				else
					bad "$h: defines the macro $m outside TP_/tp_ ($lang)"
				fi
				;;
			esac
		done <"$tmp/new"
		while read -r m; do
			grep -qx "$m" "$tmp/new" ||
				bad "$h: undefines the macro $m ($lang)"
		done <"$tmp/gone"

		# 3. Declared names, and C linkage of the functions in C++.
		names $lang "$cc" $std "$BASE" >"$tmp/n0" || { bad "$h: $cc AST failed"; continue; }
		names $lang "$cc" $std "$BASE
$one" >"$tmp/n1" || { bad "$h: $cc AST failed"; continue; }
		LC_ALL=C comm -13 "$tmp/n0" "$tmp/n1" >"$tmp/new"
		while read -r name kind linkage; do
			case $name in
			TP_*|tp_*) ;;
			*) bad "$h: declares $name ($kind) outside tp_/TP_ ($lang)" ;;
			esac
			if [ $lang = c++ ] && [ "$kind" = FunctionDecl ] &&
			   [ "$linkage" != C ]; then
				bad "$h: $name has C++ linkage (no extern \"C\")"
			fi
		done <"$tmp/new"
	done
done

exit $fail
