#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Benchmark smoke test (issues 6 and 12): the harness must build
# warning-free with gcc and clang and run every figure (3 repeats of ~3 ms,
# seconds in all). It never asserts a timing: it fails only if the benchmark
# does not build, crashes, or one of its correctness checks fails (a limiter
# admitting more than its stated bound, a ring latency that differs from the
# 2020 RFC's, decision statistics that differ from the verdicts returned).
# Usage: .ci/bench-smoke.sh   (from anywhere; run by CI)
set -eu

cd "$(dirname "$0")/.."
for cc in gcc clang; do
	command -v "$cc" >/dev/null || continue
	echo "== bench built with $cc"
	make -s CC="$cc" O="build/bench-$cc" "build/bench-$cc/bench/bench"
done
echo "== make bench-smoke"
make -s bench-smoke
