#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Reliability CI (issue 7): sanitizers, ThreadSanitizer, the concurrency
# stress test, a fuzzing smoke run, valgrind, the TP_DEBUG contract checks
# and coverage, with their figures. Runs on a clean clone; as root on a
# fresh Debian machine it installs what it needs first. Every step runs even
# when an earlier one failed; the summary at the end names the failures and
# the exit status is 1 if there was any.
#
# Environment: FUZZ_SECONDS (default 20, per fuzz target), FUZZ_JOBS (the
# targets fuzzed at once; default all of them, sharing the CPUs, so the
# step takes FUZZ_SECONDS and not a multiple of it), STRESS_ARGS, JOBS
# (parallel compile jobs, default: online CPUs).
set -uo pipefail

cd "$(dirname "$0")/.." || exit 2
export DEBIAN_FRONTEND=noninteractive
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
FUZZ_SECONDS=${FUZZ_SECONDS:-20}
targets=(tests/fuzz/fuzz_*.c)
export FUZZ_JOBS=${FUZZ_JOBS:-${#targets[@]}}
STRESS_ARGS=${STRESS_ARGS:-}
logdir=build/reliability
start_all=$(date +%s)

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"
	elif command -v sudo >/dev/null; then sudo "$@"
	else return 1
	fi
}

# A mirror mid-sync can fail one index file: retry, then go on with the
# cached lists (a missing package then fails its install loudly).
apt_update() {
	local i
	[ "${TP_CI_APT_UPDATED:-}" = 1 ] && return 0 # .ci/apt.sh
	for i in 1 2 3; do
		as_root apt-get update -qq && return 0
		sleep $((i * 5))
	done
	echo "warning: apt-get update failed 3 times; using the cached lists" >&2
}

apt_install() {
	as_root apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# Can clang build and link a libFuzzer + ASan + UBSan program?
clang_fuzzer_ok() {
	local t
	t=$(mktemp -d) || return 1
	printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)\n{ return d && n ? d[0] - 1 : 0; }\n' >"$t/f.c"
	clang -fsanitize=fuzzer,address,undefined "$t/f.c" -o "$t/f" \
		>/dev/null 2>&1
	local rc=$?
	rm -rf "$t"
	return $rc
}

install_tools() {
	local need=() v
	command -v cc >/dev/null || need+=(build-essential)
	command -v make >/dev/null || need+=(make)
	command -v gcc >/dev/null || need+=(gcc)
	command -v gcov >/dev/null || need+=(gcc)
	command -v clang >/dev/null || need+=(clang)
	command -v valgrind >/dev/null || need+=(valgrind)
	command -v perl >/dev/null || need+=(perl)
	printf '#include <stdarg.h>\n#include <stddef.h>\n#include <setjmp.h>\n#include <cmocka.h>\n' |
		cc -E -x c - >/dev/null 2>&1 || need+=(libcmocka-dev)
	if [ ${#need[@]} -gt 0 ] || ! clang_fuzzer_ok; then
		if ! as_root true; then
			echo "missing tools (${need[*]:-clang runtime}); run as root to install them" >&2
			return 0
		fi
		apt_update
		[ ${#need[@]} -eq 0 ] || apt_install "${need[@]}" ||
			echo "warning: could not install ${need[*]}" >&2
		if ! clang_fuzzer_ok; then
			# The sanitizer and libFuzzer runtimes of the installed clang.
			v=$(clang -dumpversion 2>/dev/null | cut -d. -f1)
			apt_install "libclang-rt-$v-dev" 2>/dev/null ||
				apt_install libclang-rt-dev ||
				echo "warning: no clang runtime package found" >&2
		fi
	fi
}

declare -a names=() results=() times=()
failed=0

step() { # name command...
	local name=$1 t0 rc
	shift
	echo
	echo "=== $name ($(($(date +%s) - start_all)) s)"
	echo "+ $*"
	t0=$(date +%s)
	"$@" 2>&1 | tee "$logdir/$name.log"
	rc=${PIPESTATUS[0]}
	names+=("$name")
	times+=("$(($(date +%s) - t0))")
	if [ "$rc" = 0 ]; then
		results+=(ok)
	else
		results+=("FAILED ($rc)")
		failed=1
	fi
}

echo "=== tools ($(($(date +%s) - start_all)) s)"
install_tools
mkdir -p "$logdir"
for tool in gcc clang valgrind gcov; do
	printf '  %-9s %s\n' "$tool" "$($tool --version 2>&1 | head -n 1)"
done

step sanitize make -s -j"$JOBS" sanitize
step tsan make -s -j"$JOBS" tsan
step stress make -s -j"$JOBS" stress STRESS_ARGS="$STRESS_ARGS"
step fuzz make -s -j"$JOBS" fuzz FUZZ_SECONDS="$FUZZ_SECONDS"
step valgrind make -s -j"$JOBS" valgrind
step check-debug make -s -j"$JOBS" check-debug
step coverage make -s -j"$JOBS" coverage

echo
echo "=== summary ($(($(date +%s) - start_all)) s in all)"
for i in "${!names[@]}"; do
	printf '  %-12s %-12s %4s s\n' "${names[$i]}" "${results[$i]}" "${times[$i]}"
done
echo "--- figures"
grep -hE '^(ring|limiter|threshold|decide|signal) ' "$logdir/stress.log" 2>/dev/null |
	sed 's/^/  stress: /'
grep -HE "^stress:" "$logdir/stress.log" "$logdir/tsan.log" 2>/dev/null |
	sed 's/^/  /'
grep -hE '^  fuzz_[a-z_]+ ' "$logdir/fuzz.log" 2>/dev/null | sed 's/^ */  fuzz: /'
grep -hE '^  (lib/|TOTAL)' "$logdir/coverage.log" 2>/dev/null |
	sed 's/^ */  coverage: /'
grep -hE '^coverage (OK|BELOW)' "$logdir/coverage.log" 2>/dev/null |
	sed 's/^/  /'
for s in sanitize valgrind check-debug; do
	n=$(grep -ch '^\[  PASSED  \]' "$logdir/$s.log" 2>/dev/null || echo 0)
	t=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$logdir/$s.log" 2>/dev/null |
		awk '{ s += $1 } END { print s + 0 }')
	echo "  $s: $n suite runs passed, $t test cases"
done
if [ $failed = 0 ]; then
	echo "=== reliability CI passed"
else
	echo "=== reliability CI FAILED"
fi
exit $failed
