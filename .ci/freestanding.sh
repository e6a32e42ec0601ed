#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Prove that lib/ is freestanding:
#  - every lib/*.c compiles with -ffreestanding -nostdlib, and the linked
#    objects reference nothing but memcpy/memset/memmove/memcmp;
#  - -mgeneral-regs-only compiles (no floating point, no SIMD registers);
#  - a -m32 build references no libgcc 64-bit division helpers (nor anything
#    else outside the allowed four).
# Usage: .ci/freestanding.sh [CC...]   (default: gcc and clang if present)
set -eu

compilers="${*:-}"
[ -n "$compilers" ] || for c in gcc clang; do
	command -v "$c" >/dev/null && compilers="$compilers $c"
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
allowed='^(memcpy|memset|memmove|memcmp)$'
flags="-std=gnu11 -O2 -Wall -Wextra -Werror -ffreestanding -nostdlib -fno-builtin -Iinclude -Ilib"
status=0

check() { # name cc extra-flags ld-emulation
	name=$1 cc=$2 extra=$3 emul=$4
	rm -f "$tmp"/*.o
	for f in lib/*.c; do
		# shellcheck disable=SC2086
		$cc $flags $extra -c "$f" -o "$tmp/$(basename "$f" .c).o"
	done
	ld $emul -r "$tmp"/*.o -o "$tmp/all.r"
	undef=$(nm -u "$tmp/all.r" | awk '{print $2}' | grep -Ev "$allowed" || true)
	if [ -n "$undef" ]; then
		echo "FAIL $name: undefined symbols: $(echo $undef)"
		status=1
	else
		echo "ok   $name: undefined symbols: $(nm -u "$tmp/all.r" | awk '{print $2}' | tr '\n' ' ')"
	fi
}

for cc in $compilers; do
	check "$cc x86-64 -ffreestanding -nostdlib" "$cc" "" ""
	check "$cc -mgeneral-regs-only" "$cc" "-mgeneral-regs-only" ""
	if echo 'int x;' | $cc -m32 -x c -c - -o "$tmp/probe.o" 2>/dev/null; then
		check "$cc -m32 (no libgcc division)" "$cc" "-m32 -fno-pic" "-m elf_i386"
	else
		echo "FAIL $cc -m32: the compiler cannot build 32-bit objects (install gcc-multilib)"
		status=1
	fi
done
exit $status
