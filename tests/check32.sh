#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# make check32: the CMocka suites as 32-bit (i386) programs, linked against a
# -m32 static libtierpol, run under qemu-i386 (the machines this runs on may
# not execute 32-bit binaries natively), so 32-bit jiffies wraps, u64
# arithmetic on a 32-bit ALU and 8-byte atomics with cmpxchg8b run for real.
# Also compiles the shared self-test vectors (tests/selftest/) freestanding
# with -m32 and -mgeneral-regs-only: no libc, no libgcc 64-bit division, no
# floating point, no VLA, as the kernel module needs them.
#
# Needs gcc-multilib, qemu-user and libcmocka-dev:i386; installs them when
# run as root on Debian, else prints the commands.
#   QEMU_I386   the emulator (default qemu-i386; "" runs the tests natively)
#   CHECK32_SKIP  suites to leave out, e.g. "test_tiersim" (said, not hidden)
# Builds in build/m32/.
set -eu

cd "$(dirname "$0")/.."
out=build/m32
cc=${CC:-gcc}
qemu=${QEMU_I386-qemu-i386}

have_m32() {
	printf 'int main(void) { return 0; }\n' |
		$cc -m32 -x c - -o /dev/null 2>/dev/null
}
have_cmocka32() {
	printf '%s\n' '#include <stdarg.h>' '#include <stddef.h>' \
		'#include <stdint.h>' '#include <setjmp.h>' '#include <cmocka.h>' \
		'int main(void) { return _cmocka_run_group_tests("", 0, 0, 0, 0); }' |
		$cc -m32 -x c - -lcmocka -o /dev/null 2>/dev/null
}
missing=
have_m32 || missing="$missing gcc-multilib"
[ -z "$qemu" ] || command -v "$qemu" >/dev/null || missing="$missing qemu-user"
have_cmocka32 || missing="$missing libcmocka-dev:i386"
if [ -n "$missing" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		echo "check32: installing$missing"
		case "$missing" in
		*:i386*) dpkg --add-architecture i386 ;;
		esac
		# A partly failed index update (a mirror syncing) is not fatal:
		# the install below says whether the packages were found.
		apt-get update -qq || true
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends $missing >/dev/null
	else
		echo "check32: missing:$missing. Run:" >&2
		echo "  sudo dpkg --add-architecture i386 && sudo apt-get update" >&2
		echo "  sudo apt-get install gcc-multilib qemu-user libcmocka-dev:i386" >&2
		exit 1
	fi
fi

# ---- the shared vectors, freestanding, 32-bit and 64-bit --------------------
mkdir -p "$out"
tu=$out/selftest_all.c
# Every vector file but those whose tp_st_<name>() another one calls (as
# Kbuild picks them for the kernel's test modules).
called=" $(sed -n 's/.*[^a-z0-9_]tp_st_\([a-z0-9_]*\)(st);.*/\1/p' \
	tests/selftest/*.h | tr '\n' ' ') "
suites=$(for h in tests/selftest/*.h; do
	n=$(basename "$h" .h)
	case "$called" in
	*" $n "*) ;;
	*) [ "$n" = selftest ] || echo "$n" ;;
	esac
done)
{
	echo '#include "selftest/selftest.h"'
	for n in $suites; do
		echo "#include \"selftest/$n.h\""
	done
	echo 'int tp_st_all(struct tp_st *st);'
	echo 'int tp_st_all(struct tp_st *st)'
	echo '{'
	echo '	return 0'
	for n in $suites; do
		echo "	       + tp_st_$n(st)"
	done
	echo '	;'
	echo '}'
} >"$tu"
status=0
for arch in "-m32 -fno-pic" "-m64"; do
	obj=$out/selftest_all$(echo "$arch" | cut -c3-4).o
	# shellcheck disable=SC2086
	if ! $cc -std=gnu11 -O2 -Wall -Wextra -Werror -Wvla -ffreestanding \
		-nostdlib -fno-builtin -mgeneral-regs-only $arch -Iinclude \
		-Itests -c "$tu" -o "$obj"; then
		echo "check32: FAILED: tests/selftest/*.h do not build freestanding ($arch)"
		status=1
		continue
	fi
	bad=$(nm -u "$obj" | awk '{ print $2 }' |
		grep -v -E '^(tp_[a-z0-9_]+|memcpy|memset|memmove|memcmp)$' || true)
	if [ -n "$bad" ]; then
		echo "check32: FAILED: tests/selftest/*.h ($arch) need:" $bad
		status=1
	else
		echo "check32: ok   tests/selftest/*.h freestanding $arch: no libc," \
			"no libgcc helpers, no FPU, no VLA"
	fi
done

# ---- the CMocka suites as i386 programs --------------------------------------
skip=" ${CHECK32_SKIP:-} "
tests=$(for t in tests/test_*.c; do
	n=$(basename "$t" .c)
	[ -e "$t" ] || continue
	case "$skip" in
	*" $n "*) echo "check32: skipping $n (CHECK32_SKIP)" >&2 ;;
	*) echo "$out/tests/$n" ;;
	esac
done)
if [ -z "$tests" ]; then
	echo "check32: FAILED: no tests/test_*.c"
	exit 1
fi
failed=0
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
# The userspace Makefile, with -m32 and its own output directory, every
# suite in one parallel make (-k: one that does not build is said below);
# CC/CFLAGS given to an outer make are replaced, not inherited.
m32make() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory \
		O="$out" CC="$cc" CFLAGS="-O2 -g -m32" LDFLAGS="-m32" "$@"
}
# shellcheck disable=SC2086
m32make -k -j"$jobs" $tests && built=1 || built=0
run=
for t in $tests; do
	# After a failed build, each suite is made on its own once more (its
	# errors are above): one that fails did not build, whatever older
	# program is there.
	if [ ! -x "$t" ] ||
		{ [ $built = 0 ] && ! m32make "$t" >/dev/null 2>&1; }; then
		echo "check32: FAILED: $t does not build with -m32"
		failed=$((failed + 1))
	elif ! readelf -h "$t" | grep -q 'Class: *ELF32'; then
		echo "check32: FAILED: $t is not a 32-bit program"
		failed=$((failed + 1))
	else
		run="$run $t"
	fi
done
echo "check32: the suites as i386 programs${qemu:+ under $qemu}:"
# shellcheck disable=SC2086
sh tests/run-suites.sh "$jobs" "$qemu${qemu:+ -L /}" $run ||
	failed=$((failed + 1))
if [ $failed -eq 0 ] && [ "$status" -eq 0 ]; then
	echo "check32: passed (32-bit, i386)"
	exit 0
fi
echo "check32: FAILED (32-bit, i386)"
exit 1
