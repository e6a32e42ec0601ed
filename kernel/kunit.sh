#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# make kunit: tierpol's KUnit suite (kernel/tierpol_kunit.c: the shared
# vectors of tests/selftest/ and the kernel cases of kernel/kcases.h) with
# the kernel's own runner, tools/testing/kunit/kunit.py, on UML (the kernel
# as a Linux program) built from Debian's linux-source with tierpol
# vendored as lib/tierpol/ (kernel/ksrc.sh) and kernel/.kunitconfig: KUnit,
# the suite, and the debug options that watch it (DEBUG_VM makes the
# library's contract checks WARN, PROVE_LOCKING has lockdep follow the
# seqcounts; UML cannot preempt, so no DEBUG_ATOMIC_SLEEP).
#
#   KUNIT_ARCH     um (default), or an architecture kunit.py runs under qemu:
#                  i386 is the 32-bit kernel (make kunit32), with 2 CPUs
#   KUNIT_ACCEL    qemu's accelerator for those (default tcg; kvm)
#   KUNIT_TIMEOUT  seconds for the tests to run (default 600)
#   JOBS           parallel build jobs (default: the number of CPUs)
#   TP_ST_SKIP     vector files of tests/selftest/ to leave out (skipped)
#   KSRC           a kernel source tree instead of Debian's (kernel/ksrc.sh)
#
# Fails when kunit.py fails (a build error, a failed case, a crash) or the
# kernel log shows a WARNING, BUG, lockdep report or Oops while the suite
# runs; then builds lib/tierpol/ once more with W=1 and sparse (C=2) for
# the same architecture, in tree, and fails on any warning in its files.
# The build stays in build/kunit/<tree>/<arch>/ for the next run (<tree>
# is the source tree's directory name, linux-source-6.1 for Debian's, so
# two kernels do not rebuild each other); the log is test.log there.
set -eu

cd "$(dirname "$0")/.."
root=$(pwd)
arch=${KUNIT_ARCH:-um}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

command -v python3 >/dev/null ||
	{ echo "kunit: python3 is missing (apt-get install python3)" >&2; exit 1; }
t0=$(date +%s)
src=$(sh kernel/ksrc.sh)
out=$root/build/kunit/$(basename "$src")/$arch
mkdir -p "$out"

kconf=$root/kernel/.kunitconfig
if [ "$arch" != um ]; then
	# The options past "UML only" exist on UML alone (kunit.py refuses a
	# "not set" line its .config does not have).
	kconf=$out/kunitconfig
	sed '/^# UML only/,$d' "$root/kernel/.kunitconfig" >"$kconf"
fi
set -- run --kunitconfig="$kconf" --build_dir="$out" \
	--jobs="$jobs" --timeout="${KUNIT_TIMEOUT:-600}"
if [ "$arch" != um ]; then
	# A 32-bit x86 kernel: SMP, so the smp and irq cases run on 2 CPUs.
	# Software emulation by default: KVM inside a virtual machine (nested)
	# hung at boot here; KUNIT_ACCEL=kvm where it works.
	set -- "$@" --arch="$arch" --kconfig_add CONFIG_SMP=y \
		--qemu_args="-smp 2 -accel ${KUNIT_ACCEL:-tcg}"
fi
[ -n "${TP_ST_SKIP:-}" ] && set -- "$@" --make_options "TP_ST_SKIP=$TP_ST_SKIP"

echo "kunit: kunit.py $* (in $src)"
rc=0
(cd "$src" && python3 tools/testing/kunit/kunit.py "$@") || rc=$?
t1=$(date +%s)

log=$out/test.log
if [ $rc -eq 0 ] && [ -f "$log" ]; then
	# From the suite's start to its result: the kernel's own boot is
	# not ours to judge.
	splats='WARNING:|BUG:|Oops|Call Trace|Kernel panic|UBSAN|KASAN'
	splats="$splats|possible recursive locking|inconsistent lock state"
	splats="$splats|possible circular locking|lockdep|sleeping function"
	splat=$(awk '/# Subtest: tierpol$/ { on = 1 }
		on { print NR ": " $0 }
		on && /^ *(not )?ok [0-9]+ tierpol$/ { exit }' "$log" |
		grep -E "$splats" || true)
	if [ -n "$splat" ]; then
		echo "kunit: FAILED: the kernel log ($log) shows:" >&2
		printf '%s\n' "$splat" >&2
		rc=1
	fi
fi
# tierpol's own directory once more with W=1 and sparse (C=2 checks every
# file), in tree and for this architecture: no warning in its files.
if [ $rc -eq 0 ] && command -v sparse >/dev/null; then
	karch=$arch
	[ "$arch" = um ] || karch=$(sed -n 's/^CONFIG_\(X86_32\)=y$/i386/p' \
		"$out/.config")
	(cd "$src" && make ARCH="${karch:-$arch}" O="$out" W=1 C=2 \
		-j"$jobs" lib/tierpol/) >"$out/tierpol-w1.log" 2>&1 || rc=$?
	warn=$(grep -E 'lib/tierpol/.*(warning|error)' "$out/tierpol-w1.log" ||
		true)
	if [ $rc -ne 0 ] || [ -n "$warn" ]; then
		echo "kunit: FAILED: W=1 C=2 on lib/tierpol/ ($out/tierpol-w1.log)" >&2
		printf '%s\n' "$warn" >&2
		rc=1
	elif grep -q 'sparse is not available or not up to date' \
		"$out/tierpol-w1.log"; then
		# Newer kernels refuse an older sparse (Linux 7.2 that of
		# Debian 12); make kstyle runs it on Debian's own kernel.
		echo "kunit: lib/tierpol/ in tree for $arch: W=1 clean;" \
			"this kernel finds sparse $(sparse --version) too old:" \
			"no sparse pass"
	else
		echo "kunit: lib/tierpol/ in tree for $arch: W=1 and sparse clean" \
			"($(grep -c '^  CHECK .*lib/tierpol/' "$out/tierpol-w1.log")" \
			"files)"
	fi
elif [ $rc -eq 0 ]; then
	echo "kunit: sparse is missing (apt-get install sparse): no W=1 C=2 pass"
fi
t1=$(date +%s)
if [ $rc -ne 0 ]; then
	echo "kunit: FAILED ($arch, $((t1 - t0)) s)" >&2
	exit 1
fi
echo "kunit: passed on $arch in $((t1 - t0)) s (build and run; $jobs jobs)"
