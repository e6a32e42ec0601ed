#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# CI for tiersim (issue 4): the short suite, a lackey trace recorded on the
# spot from a real program and replayed, determinism, and bad input.
# Run from anywhere, on a machine with a C compiler, CMocka and valgrind
# (installed when missing and running as root on Debian). Well under a
# minute on 2 cores. Usage: .ci/tiersim.sh [BUILD_DIR]   (default build)
set -eu

cd "$(dirname "$0")/.."
O=${1:-build}
T=$O/examples/tiersim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)

step() {
	echo
	echo "=== tiersim: $* ($(($(date +%s) - start)) s)"
}

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

if ! command -v valgrind >/dev/null; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			valgrind >/dev/null
	else
		fail "valgrind is missing. Run: sudo apt-get install valgrind"
	fi
fi

step "build"
make -s O="$O" tiersim "$O/tests/test_tiersim" "$O/tests/test_tiersim_wl" \
	"$O/tests/test_tiersim_reclaim" "$O/tests/test_tiersim_kswapd" \
	"$O/tests/test_tiersim_scan"
"$O/tests/test_tiersim"
"$O/tests/test_tiersim_wl"
"$O/tests/test_tiersim_reclaim"
"$O/tests/test_tiersim_kswapd"
"$O/tests/test_tiersim_scan"

step "short suite (make run-short)"
make -s O="$O" run-short RUN_DIR="$O/ci-run" >"$tmp/suite.txt"
cat "$tmp/suite.txt"
for w in pmbench phase-shift cold-burst disjoint-vma; do
	for ext in json csv svg; do
		[ -s "$O/ci-run/$w.$ext" ] || fail "no $O/ci-run/$w.$ext"
	done
done
grep -q '^== cold-burst' "$tmp/suite.txt" || fail "no cold-burst table"

step "record a lackey trace of /bin/ls and replay it"
valgrind --tool=lackey --trace-mem=yes --log-file="$tmp/ls.lackey" \
	ls / >/dev/null
lines=$(grep -c '^ [LSM] ' "$tmp/ls.lackey")
echo "trace: $(wc -l <"$tmp/ls.lackey") lines, $lines data accesses"
[ "$lines" -gt 1000 ] || fail "the lackey trace is too short"
# The program runs for milliseconds: scan every millisecond to see policies
# act on it.
set -- -t "$tmp/ls.lackey" --scan-delay-ms 1 --scan-period-ms 1 \
	-p none,promote-all,rfc2020,mainline,oracle
"$T" "$@"
"$T" -q "$@" --json "$tmp/a.json" --csv "$tmp/a.csv" --svg "$tmp/a.svg"
grep -q "\"accesses\": $lines," "$tmp/a.json" ||
	fail "the replay does not count the trace's $lines accesses"
[ -s "$tmp/a.svg" ] || fail "no SVG"

step "determinism: same options, same JSON"
"$T" -q "$@" -j 1 --json "$tmp/b.json"
cmp "$tmp/a.json" "$tmp/b.json" || fail "JSON differs between runs"
"$T" -q -w zipf --pages 65536 --accesses 300000 --json "$tmp/c.json"
"$T" -q -w zipf --pages 65536 --accesses 300000 --json "$tmp/d.json" -j 1
cmp "$tmp/c.json" "$tmp/d.json" || fail "workload JSON differs"

step "bad input: exit 2 with the reason"
expect2() { # message-pattern command...
	pat=$1
	shift
	if "$@" >"$tmp/out" 2>"$tmp/err"; then
		fail "accepted: $*"
	else
		rc=$?
	fi
	[ "$rc" = 2 ] || fail "exit $rc instead of 2: $*"
	grep -q -- "$pat" "$tmp/err" || {
		cat "$tmp/err" >&2
		fail "no \"$pat\" in the error of: $*"
	}
	[ ! -s "$tmp/out" ] || fail "output printed for: $*"
}
head -n 2000 "$tmp/ls.lackey" >"$tmp/broken.lackey"
echo " L zz,8" >>"$tmp/broken.lackey"
expect2 "broken.lackey:2001: bad hexadecimal address" \
	"$T" -t "$tmp/broken.lackey"
printf 'R 1000\nW 2000 1\nX 3000\n' >"$tmp/bad.trace"
expect2 "bad.trace:3: unknown operation" "$T" -t "$tmp/bad.trace"
expect2 "unknown option" "$T" --no-such-option
expect2 "unknown workload" "$T" -w no-such-workload
expect2 "unknown policy" "$T" -p no-such-policy
expect2 "watermarks out of order" "$T" --wmark 9,8,7,6
expect2 "needs memory pressure" "$T" --fast 100%
expect2 "zero capacity" "$T" --fast 0
expect2 "--kswapd: simple or rounds" "$T" --kswapd fast
expect2 "--lru: clock or two-list" "$T" --lru mglru

step "README.md's tables from make run, as the default suite prints them"
sh tests/docs/readme-run.sh "$T" README.md "$(nproc 2>/dev/null || echo 2)"

echo
echo "=== tiersim CI passed in $(($(date +%s) - start)) s"
