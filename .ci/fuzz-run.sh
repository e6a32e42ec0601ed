#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Run libFuzzer targets for a bounded time each and print the executions.
# Usage: .ci/fuzz-run.sh BUILD_DIR SECONDS TARGET...
#
# Each target BUILD_DIR/bin/TARGET starts from its committed seed corpus
# tests/fuzz/corpus/TARGET (read only) plus BUILD_DIR/corpus/TARGET, where
# the new units go. A crash leaves its input under BUILD_DIR/artifacts/TARGET/
# and fails the run; replay it with "BUILD_DIR/bin/TARGET FILE" (the API
# fuzzer prints every step with FUZZ_API_TRACE=1). A target that prints
# "SKIPPED" and exits 0 (nothing to fuzz in this tree) is reported, not run.
# The targets run FUZZ_JOBS at a time (default: the CPUs), each on one CPU
# for SECONDS; their reports come in the order given.
set -u

[ $# -ge 2 ] || { echo "usage: $0 BUILD_DIR SECONDS TARGET..." >&2; exit 2; }
dir=$1
secs=$2
shift 2
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
status=0
[ $# -gt 0 ] || echo "fuzz: no targets"

# fuzz_one TARGET: run it, its exit status in $dir/TARGET.rc
fuzz_one() {
	mkdir -p "$dir/corpus/$1" "$dir/artifacts/$1/" "tests/fuzz/corpus/$1"
	"$dir/bin/$1" -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 \
		-max_len=8192 -print_final_stats=1 \
		-artifact_prefix="$dir/artifacts/$1/" \
		"$dir/corpus/$1" "tests/fuzz/corpus/$1" >"$dir/$1.log" 2>&1
	echo $? >"$dir/$1.rc"
}

n=0
for t in "$@"; do
	rm -f "$dir/$t.rc"
	fuzz_one "$t" &
	n=$((n + 1))
	if [ $n -ge "$jobs" ]; then
		wait
		n=0
	fi
done
wait

for t in "$@"; do
	work=$dir/corpus/$t
	art=$dir/artifacts/$t/
	seeds=tests/fuzz/corpus/$t
	log=$dir/$t.log
	rc=$(cat "$dir/$t.rc" 2>/dev/null || echo "not run")
	echo "== $t: $secs s"
	if [ "$rc" = 0 ] && grep -q '^SKIPPED' "$log"; then
		sed -n 's/^SKIPPED/  skipped/p' "$log"
		continue
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	cov=$(grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' "$log" | tail -n 1 |
		sed -n 's/.*cov: \([0-9]*\).*ft: \([0-9]*\).*/\1 edges, \2 features/p')
	units=$(find "$work" "$seeds" -type f | wc -l)
	if [ "$rc" != 0 ]; then
		tail -n 60 "$log"
		echo "FAILED: $t (exit $rc); inputs in $art"
		status=1
	fi
	printf '  %-12s %s executions (%s/s), %s, corpus %s units, %s\n' \
		"$t" "${execs:-?}" "${rate:-?}" "${cov:-? edges}" "$units" \
		"$([ "$rc" = 0 ] && echo ok || echo CRASH)"
done
exit $status
