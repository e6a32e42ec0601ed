#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# tiersim as a user meets it (make check-tiersim, part of make check):
#
#   tests/tiersim_cli.sh TIERSIM SVGCHECK COMPLETION
#
# usage errors (one line, "see tiersim --help", exit status 2, the exact
# words), --help (every option, every default) and -V here; then, in
# tests/tiersim_ux.sh, which it sources: the messages about a trace, the
# model at its edges, the warnings and --strict, the table's simulated
# time, the progress line in a log, the plots of both layouts and the bash
# completion. About ten seconds. Prints each failure; exits 1 if there is
# one.
set -u

[ $# = 3 ] || { echo "usage: $0 TIERSIM SVGCHECK COMPLETION" >&2; exit 2; }
T=$1
SVGCHECK=$2
COMPLETION=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
checks=0

bad() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# run CMD...: its exit status in $rc, its output in $tmp/out and $tmp/err
run() {
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	checks=$((checks + 1))
}

# error WANT ARGS...: exit 2, nothing on stdout, and stderr exactly WANT
error() {
	printf '%s\n' "$1" >"$tmp/want"
	shift
	run "$T" "$@"
	[ "$rc" = 2 ] || bad "exit $rc, not 2: tiersim $*"
	[ ! -s "$tmp/out" ] || bad "output on stdout: tiersim $*"
	cmp -s "$tmp/want" "$tmp/err" ||
		bad "tiersim $*: stderr is \"$(cat "$tmp/err")\", not \"$(cat "$tmp/want")\""
}

# usage MESSAGE ARGS...: "tiersim: MESSAGE" and "see tiersim --help"
usage() {
	msg=$1
	shift
	error "$(printf 'tiersim: %s\nsee tiersim --help' "$msg")" "$@"
}

# input MESSAGE ARGS...: bad input, "tiersim: MESSAGE" alone
input() {
	msg=$1
	shift
	error "tiersim: $msg" "$@"
}

# stderr_is PATTERN: $tmp/err is one line matching the shell PATTERN
stderr_is() {
	[ "$(wc -l <"$tmp/err")" = 1 ] ||
		{ bad "stderr is not one line: $(cat "$tmp/err")"; return; }
	case $(cat "$tmp/err") in
	$1) ;;
	*) bad "stderr \"$(cat "$tmp/err")\" does not match \"$1\"" ;;
	esac
}

# ---- usage errors: one line and "see tiersim --help" ------------------------

usage '--pages: -5 is too small (allowed: 16 to 1099511627775)' --pages -5
usage '--pages: 0 is too small (allowed: 16 to 1099511627775)' --pages 0
usage '--pages: "4k" is not a whole number' --pages 4k
usage '--fast: 5.5 is not a whole number of pages (4 KiB each)' --fast 5.5
usage '--slow: 6K is not a whole number of pages (4 KiB each)' --slow 6K
usage '--pages: 99999999999999999999 is too large (allowed: 16 to 1099511627775)' \
	--pages 99999999999999999999
usage "--hot-threshold-ms: 0 is too small (allowed: 1 to 4294967295; 0 would select the policy's default of 1000 ms, not the kernel's 0, with which no page is hot)" \
	--hot-threshold-ms 0
usage "--scan-period-max-ms: 0 is too small (allowed: 1 to 4294967295; 0 would select the policy's default of 60000 ms)" \
	--scan-period-max-ms 0
usage "--cpu-ns: 0 is too small (allowed: 1 to 4294967295; 0 would select the workload's default)" \
	--cpu-ns 0
usage '--rate-limit-mbps: 16777217 is too large (allowed: 0 to 16777216)' \
	--rate-limit-mbps 16777217
usage '--write-frac: 1.5 is too large (allowed: 0 to 1)' --write-frac 1.5
# strtod() underflows to 0 (ERANGE): 1e-400 was taken as 0, unsaid; an
# infinite exponent sent every access to one page.
usage '--write-frac: 1e-400 is too small to tell from 0 (allowed: 0 to 1; the least above 0 is 2.22507e-308)' \
	--write-frac 1e-400
usage '--write-frac: -1e-400 is too small (allowed: 0 to 1)' --write-frac -1e-400
usage '--zipf-s: inf is too large (allowed: above 0)' -w zipf --zipf-s inf
usage '--sigma: 0 is too small (allowed: above 0, up to 10)' --sigma 0
# A Gaussian so wide that the generator's rejection loop never ended.
for s in 1e6 1e308 10.5; do
	usage "--sigma: $s is too large (allowed: above 0, up to 10)" --sigma $s
done
run timeout 60 "$T" --pages 4096 --accesses 20000 -q -p none --sigma 10
[ "$rc" = 0 ] || bad "--sigma 10: exit $rc, $(cat "$tmp/err")"
usage '--small-frac: 1 is too large (allowed: above 0, below 1)' --small-frac 1
usage 'workload disjoint-vma: --small-frac 0.999 of 300 pages leaves the large VMA no page (the small one rounds to 300)' \
	-w disjoint-vma --small-frac 0.999 --pages 300
usage '--threads: 65 is too large (allowed: 1 to 64)' --threads 65
usage '--jobs: 0 is too small (allowed: 1 to 256)' -j 0
usage '--tlb-entries: 3 is not a power of 2 (allowed: 0, or a power of 2 up to 16777216)' \
	--tlb-entries 3
usage '--lru: clock or two-list, not "lfu"' --lru lfu
usage '--fast: "3Q" is not a size (decimal pages, K/M/G bytes, or N%)' --fast 3Q
# Decimal, as every count: strtod() took these (0x800 was 2048 pages).
for v in 0x800 1e2 +2048 ' 2048' '2048 ' .5 5. inf nan 1.5e3K -0x1; do
	usage "--slow: \"$v\" is not a size (decimal pages, K/M/G bytes, or N%)" \
		--slow "$v"
done
usage '--fast: -5% is too small (allowed: 0 or more)' --fast -5%
for o in --fast --slow; do
	usage "$o: 18446744073709551615 is too large (allowed: up to 1099511627775 pages, 4 PiB)" \
		$o 18446744073709551615
done
usage '--fast: 18446744073709551616K is too large (allowed: up to 1099511627775 pages, 4 PiB)' \
	--fast 18446744073709551616K
usage '--fast: 1099511627776 is too large (allowed: up to 1099511627775 pages, 4 PiB)' \
	--pages 4096 --fast 1099511627776 --allow-no-pressure
# A tier in range whose page state no machine holds: exit 1, the size said
# (before any allocation: with overcommit malloc() would grant it).
run "$T" --pages 4096 --fast 1099511627775 --allow-no-pressure -p none
[ "$rc" = 1 ] || bad "a 4 PiB fast tier: exit $rc, not 1"
stderr_is 'tiersim: out of memory: the page state of 4096 pages (a fast tier of 1099511627775) takes 20971521 MiB, the machine has * MiB'
# A workload's table that does not fit in memory is a resource failure,
# exit 1 (it was a usage error, "see tiersim --help", exit 2).
# shellcheck disable=SC3045 # dash, bash and busybox sh have ulimit -v
if (ulimit -v 1000000) 2>/dev/null; then
	# shellcheck disable=SC3045
	run sh -c 'ulimit -v 1000000 && exec "$0" "$@"' "$T" -q -p none \
		-w zipf --pages 100000000
	[ "$rc" = 1 ] || bad "the zipf table out of memory: exit $rc, not 1"
	stderr_is 'tiersim: workload zipf: out of memory for the zipf table of 100000000 pages (2289 MiB while it is built)'
fi
usage '--wmark: "1,2" is not MIN,LOW,HIGH,PROMO (four page counts)' --wmark 1,2
# All 0 was silently replaced by the computed watermarks.
usage '--wmark: 0,0,0,0 is too small (allowed: MIN <= LOW <= HIGH <= PROMO, PROMO at least 1; all 0 would select the computed watermarks: leave --wmark out)' \
	--wmark 0,0,0,0
usage '--pages needs a value (N)' --pages
usage 'unknown option "--acesses" (did you mean --accesses?)' --acesses 5
usage 'unknown option "-x"' -x
# A value to a flag, a prefix of several options, a mistyped base: these
# named the wrong thing ('unknown option "--help" (did you mean --help?)').
usage '--help takes no value ("--help=foo")' --help=foo
usage '--no-init takes no value ("--no-init=1")' --no-init=1
usage 'ambiguous option "--slow-r", could be: --slow-read-ns, --slow-read-mbps' --slow-r 5
usage 'unknown policy "rfc2020-p9" (nor is "-p9" a switch of rfc2020; tiersim --help lists the policies and switches)' \
	-p rfc2020-p9
# A prefix of one option is that option, as getopt_long() takes it.
run "$T" -q -p none --pag 100 --acc 10
[ "$rc" = 0 ] || bad "--pag, --acc: exit $rc, $(cat "$tmp/err")"
usage 'unexpected argument "pmbench"' pmbench
usage 'unknown workload "gups" (pmbench, zipf, gups-hotset, phase-shift, cold-burst, disjoint-vma, uniform)' \
	-w gups
usage 'policy "mainline:rate=99999999999": rate=99999999999 is too large (allowed: 0 to 16777216 MB/s)' \
	-p mainline:rate=99999999999
usage 'policy "mainline:hot=0": hot=0 is too small (allowed: 1 to 4294967295 ms; 0 is the sysctl'\''s threshold of 0, which only a latency of 0 meets)' \
	-p mainline:hot=0
usage 'policy "mainline:rate=x": rate=x is not a whole number' -p mainline:rate=x
# Options that do not apply to the source.
printf 'R 1000\n' >"$tmp/one.trace"
usage '--pages does not apply to a trace (-t), only to a generated workload (-w)' \
	-t "$tmp/one.trace" --accesses 5 --pages 100000 --threads 4
usage '--seed does not apply to a trace (-t), only to a generated workload (-w)' \
	-t "$tmp/one.trace" --seed 2
usage '--sigma does not apply to workload zipf' -w zipf --sigma 0.3
usage '--zipf-s does not apply to workload pmbench' --zipf-s 1.2
# Each shape option against each workload: these were silently ignored.
usage '--hot-frac does not apply to workload pmbench' -w pmbench --hot-frac 0.3
usage '--hot-frac does not apply to workload uniform' -w uniform --hot-frac 0.3
usage '--hot-prob does not apply to workload zipf' -w zipf --hot-prob 0.5
usage '--shift-at does not apply to workload gups-hotset' -w gups-hotset --shift-at 0.3
usage '--shift-at does not apply to workload pmbench' --shift-at 0.3
# phase-shift with no access on one side of the shift: "resp s" read
# 0.00 or "never", the oracle's too.
usage 'workload phase-shift: --shift-at 0 of 1000 accesses leaves none before the shift (the hot set never moves: no response time to measure)' \
	-w phase-shift --accesses 1000 --shift-at 0
usage 'workload phase-shift: --shift-at 1 of 1000 accesses leaves none after the shift (the hot set never moves: no response time to measure)' \
	-w phase-shift --accesses 1000 --shift-at 1
usage 'workload phase-shift: --shift-at 0.0001 of 1000 accesses leaves none before the shift (the hot set never moves: no response time to measure)' \
	-w phase-shift --accesses 1000 --shift-at 0.0001
for w in gups-hotset phase-shift cold-burst disjoint-vma; do
	run "$T" -q -p none --accesses 1000 -w $w --hot-frac 0.2 --hot-prob 0.8
	[ "$rc" = 0 ] || bad "-w $w --hot-frac --hot-prob: exit $rc, $(cat "$tmp/err")"
done
for w in phase-shift cold-burst disjoint-vma; do
	run "$T" -q -p none --accesses 1000 -w $w --shift-at 0.3
	[ "$rc" = 0 ] || bad "-w $w --shift-at: exit $rc, $(cat "$tmp/err")"
done
usage '--lackey-instr needs a trace (-t)' --lackey-instr
# cold-burst's default burst on a small footprint: the option, its value
# and the range (it said only "burst pages must be in [1, pages - hot set]").
usage 'cold-burst: --burst-pages 65536 (the default) is too large for --pages 4096 (allowed: 1 to 3687, the pages outside the hot set of 409)' \
	-w cold-burst --pages 4096
usage 'cold-burst: --burst-pages 5000 is too large for --pages 4096 (allowed: 1 to 3687, the pages outside the hot set of 409)' \
	-w cold-burst --pages 4096 --burst-pages 5000
# Options that were silently ignored.
usage '--trace is given twice (only -p takes several)' -t "$tmp/one.trace" -t "$tmp/one.trace"
usage '--workload is given twice (only -p takes several)' -w pmbench -w zipf
usage '--pages is given twice (only -p takes several)' --pages 100 --pages 200
usage '--outdir needs --suite (one run writes only the files --json, --csv and --svg name)' \
	-w zipf --outdir "$tmp/od"
usage '--svg does not apply to a suite (it writes a plot per workload under --outdir)' \
	--suite short --outdir "$tmp/od" --svg "$tmp/s.svg"
usage "$tmp/one.trace: --lackey-instr needs a lackey trace (this is tiersim's format: no instruction fetches)" \
	-t "$tmp/one.trace" --format tiersim --lackey-instr
printf 'R 1000 0 5\nR 2000 0 9\n' >"$tmp/ts.trace"
usage "$tmp/ts.trace: --cpu-ns does not apply to a trace with timestamps (the gap between them is the CPU time)" \
	-t "$tmp/ts.trace" --cpu-ns 50
run "$T" -q -p none,mainline -p oracle -t "$tmp/one.trace" --wmark 1,2,3,4 --fast 5 --allow-no-pressure
[ "$rc" != 2 ] || bad "-p twice refused: $(cat "$tmp/err")"
usage '--format needs a trace (-t)' --format lackey
# damon's rate at the end is its promotion quota, the series' last rate
# (it was NUMA balancing's rate limit, which damon does not use).
run "$T" -q -p damon -w zipf --pages 4096 --accesses 400000 --cpu-ns 8000 \
	--json "$tmp/damon.json"
last=$(tr -d '\n' <"$tmp/damon.json" |
	sed -n 's/.*"rate_mbps": \[[0-9, ]*[, ]\([0-9][0-9]*\)\].*/\1/p')
end=$(sed -n 's/.*"rate_end_mbps": \([0-9]*\).*/\1/p' "$tmp/damon.json")
[ -n "$last" ] && [ "$end" = "$last" ] && [ "$end" != 65536 ] ||
	bad "damon: rate_end_mbps $end, the series ends at $last"
# phase-shift's response time when the phase before the shift is shorter
# than five sampling intervals (here 10 ms against about 25 ms): the level
# before comes from the last interval sampled, not "never" recovered; the
# oracle's ratio does not drop at the shift.
run "$T" -q -p oracle -w phase-shift --pages 16384 --accesses 500000 \
	--json "$tmp/shift.json"
grep -q '"response_ms": 0,' "$tmp/shift.json" ||
	bad "phase-shift, oracle, short phases: $(grep -o '"response_ms": [^,]*' "$tmp/shift.json")"
# A trace's name is whatever bytes its path has, but the JSON and the SVG
# must be UTF-8 (and the SVG XML, which has no control characters): a byte
# of another encoding and a control character are written as U+FFFD.
odd="$tmp/$(printf 'x\377\001y').trace"
printf 'R 1000\nR 2000\nR 3000\nR 4000\n' >"$odd"
run "$T" -q -p none -t "$odd" --fast 2 --wmark 0,0,0,1 \
	--json "$tmp/odd.json" --svg "$tmp/odd.svg"
[ "$rc" = 0 ] || bad "a trace whose name is not UTF-8: exit $rc, $(cat "$tmp/err")"
command -v iconv >/dev/null &&
	for f in "$tmp/odd.json" "$tmp/odd.svg"; do
		iconv -f UTF-8 -t UTF-8 "$f" >/dev/null 2>&1 ||
			bad "$f: not UTF-8 for a trace whose name is not"
	done
! LC_ALL=C grep -q "$(printf '\001')" "$tmp/odd.svg" ||
	bad "the SVG of a trace whose name has a control character has it"
grep -q 'x\\ufffd\\u0001y.trace' "$tmp/odd.json" ||
	bad "the JSON names the trace $(grep -o '"name": "[^"]*' "$tmp/odd.json")"
# A scale model's JSON gives the machine's pages everywhere: the source,
# the tiers and the VMAs as the used pages at the end (K x the stream's).
run "$T" -q -p none -w zipf --pages 4096 --accesses 40000 --scale 4 \
	--json "$tmp/scale.json"
for want in '"kind": "workload", "pages": 16384,' '"fast_pages": 4096,' \
	'"slow_pages": 16384,' '"vmas": \[{"pages": 16384,' \
	'"accesses": 44096, "threads": 1'; do
	grep -q "$want" "$tmp/scale.json" ||
		bad "--scale 4 --json: no $want"
done
used=$(sed -n 's/.*"fast_used_end": \([0-9]*\).*/\1/p' "$tmp/scale.json")
[ -n "$used" ] && [ "$used" -gt 1024 ] && [ "$used" -le 4096 ] ||
	bad "--scale 4 --json: fast_used_end $used, not in (1024, 4096]"
# cold-burst's burst adds to --accesses: the source says what the runs
# measured (it said 100000 where each run measured 101000).
run "$T" -q -p none -w cold-burst --pages 16384 --burst-pages 1000 \
	--accesses 100000 --json "$tmp/cb.json"
[ "$(grep -o '"measured_accesses": [0-9]*' "$tmp/cb.json" | sort -u)" = \
  '"measured_accesses": 101000' ] ||
	bad "cold-burst: measured_accesses $(grep -o '"measured_accesses": [0-9]*' "$tmp/cb.json" | tr '\n' ' ')"
# A trace with timestamps has no CPU time per access (its gaps are).
printf 'R 1000 0 5\nR 2000 0 9\nR 3000 0 12\nR 4000 0 15\n' >"$tmp/ts4.trace"
run "$T" -q -p none -t "$tmp/ts4.trace" --wmark 0,0,1,1 --fast 2 \
	--allow-no-pressure --json "$tmp/ts.json"
grep -q '"machine": {"profile": "pmem", "cpu_ns": null, ' "$tmp/ts.json" ||
	bad "timestamped trace --json: cpu_ns is not null: $(grep -o '"cpu_ns": [^,]*' "$tmp/ts.json")"
run "$T" -q -p none -t "$tmp/one.trace" --wmark 0,0,1,1 --fast 5 \
	--allow-no-pressure --json "$tmp/ts.json"
grep -q '"machine": {"profile": "pmem", "cpu_ns": 25, ' "$tmp/ts.json" ||
	bad "trace without timestamps --json: cpu_ns is not 25: $(grep -o '"cpu_ns": [^,]*' "$tmp/ts.json")"
# The CSV has the table's workload columns: cold-burst's burst M/s and
# disjoint-vma's bigVMA up (empty for the other workloads).
run "$T" -p none -w cold-burst --pages 16384 --burst-pages 1000 \
	--accesses 100000 --csv "$tmp/cb.csv"
tab=$(awk '$1 == "none" { print $(NF-1) }' "$tmp/out")
csv=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ printf "%.4f %s", $c["burst_throughput_macc_s"],
	  $c["large_vma_pte_updates"] == "" ? "-" : "x" }' "$tmp/cb.csv")
[ -n "$tab" ] && [ "$csv" = "$tab -" ] ||
	bad "cold-burst --csv: burst throughput \"$csv\", the table's \"$tab\""
# A trace has no seed (nothing in its run is random); a workload has one.
run "$T" -q -p none -t "$tmp/one.trace" --wmark 0,0,1,1 --fast 5 \
	--allow-no-pressure --json "$tmp/seed.json"
[ "$rc" = 0 ] || bad "trace --json: exit $rc, $(cat "$tmp/err")"
grep -q '"kind": "trace", "pages": 1,' "$tmp/seed.json" ||
	bad "trace --json: no trace source in $(head -c 300 "$tmp/seed.json")"
! grep -q '"seed"' "$tmp/seed.json" || bad "trace --json: a seed in the JSON"
run "$T" -q -p none -w zipf --accesses 1000 --seed 7 --json "$tmp/seed.json"
grep -q '"vmas": [0-9]*, "seed": 7, ' "$tmp/seed.json" ||
	bad "-w zipf --seed 7 --json: no seed 7 in the JSON"

# Switches after a key: the grammar takes them before.
usage 'policy "mainline:rate=64+young": rate=64+young: +young after a key (switches come before the keys: BASE{+SWITCH|-SWITCH}{:KEY=VALUE})' \
	-p mainline:rate=64+young
run "$T" -q -w zipf --accesses 1000 -p mainline+young:rate=64
[ "$rc" = 0 ] || bad "mainline+young:rate=64: exit $rc, $(cat "$tmp/err")"

# --cpu-ns-file: signs, ranges, long lines, a directory.
cpu() { # CONTENT MESSAGE: --cpu-ns-file with CONTENT fails with MESSAGE
	printf '%s\n' "$1" >"$tmp/cpu.txt"
	input "$tmp/cpu.txt:$2" -w zipf -p none --cpu-ns-file "$tmp/cpu.txt"
}
cpu '-5 50' '1: ACCESS -5 is too small (allowed: 0 to 18446744073709551615)'
cpu '0 50
9 99999999999' '2: NS 99999999999 is too large (allowed: 0 to 4294967295)'
cpu '0 99999999999999999999' '1: NS 99999999999999999999 is too large (allowed: 0 to 4294967295)'
cpu '0 -5' '1: NS -5 is too small (allowed: 0 to 4294967295)'
cpu '0 50 7' '1: garbage after "ACCESS NS"'
cpu "# $(printf '%0300d' 0)
0 50
5 x" '3: NS "x" is not a whole number'
input "$tmp: Is a directory" -w zipf -p none --cpu-ns-file "$tmp"
# A profile from access 0 sets every access's time: --cpu-ns would set
# none (it was taken, and written as the JSON's cpu_ns); from access 100
# on, it is the time of the 100 before.
printf '0 30\n1000 40\n' >"$tmp/cpu0.txt"
usage "$tmp/cpu0.txt: --cpu-ns does nothing with a --cpu-ns-file profile from access 0 (its first line sets the CPU time of every access)" \
	-w zipf -p none --cpu-ns 20 --cpu-ns-file "$tmp/cpu0.txt"
run "$T" -q -w zipf --accesses 1000 -p none --cpu-ns-file "$tmp/cpu0.txt" \
	--json "$tmp/cpu0.json"
grep -q '"machine": {"profile": "pmem", "cpu_ns": null, ' "$tmp/cpu0.json" ||
	bad "--cpu-ns-file from access 0: cpu_ns is not null: $(grep -o '"cpu_ns": [^,]*' "$tmp/cpu0.json")"
printf '100 30\n' >"$tmp/cpu100.txt"
run "$T" -q -w zipf --accesses 1000 -p none --cpu-ns 20 \
	--cpu-ns-file "$tmp/cpu100.txt" --json "$tmp/cpu100.json"
grep -q '"machine": {"profile": "pmem", "cpu_ns": 20, ' "$tmp/cpu100.json" ||
	bad "--cpu-ns 20 with a profile from access 100: exit $rc, $(grep -o '"cpu_ns": [^,]*' "$tmp/cpu100.json")"

# Modifiers a policy with NUMA balancing off would ignore; empty entries.
for spec in none:rate=1:hot=5 none+young oracle+young oracle-bypass \
	damon:rate=1 damon+young damon:hot=5; do
	base=${spec%%[:+-]*}
	mod=${spec#"$base"}
	mod=${mod#:}
	mod=${mod%%:*}
	usage "policy \"$spec\": $mod does nothing with NUMA balancing off (base $base): no scanning, no hint faults" \
		-p "$spec"
done
# Keys nothing reads without another setting; keys and switches twice.
usage 'policy "mainline:target=5000": target= needs a goal (goal=used|free|pingpong)' \
	-p mainline:target=5000
usage 'policy "mainline:burst=5": burst= needs the token-bucket limiter (limiter=bucket); a window limiter has no burst' \
	-p mainline:burst=5
usage 'policy "mainline:rate=4:rate=8": rate= is given twice (the last one, rate=8, would win)' \
	-p mainline:rate=4:rate=8
usage 'policy "pghot:lat=ring": lat= needs hot-page selection (+hotness): without it no latency is judged' \
	-p pghot:lat=ring
usage 'policy "pghot-abit:lat=ring": lat= needs hint faults to time (src=hint|both): the accessed-bit scanner'"'"'s pages are hot or not' \
	-p pghot-abit:lat=ring
# hot= without hot-page selection, or with a record only the scanner feeds;
# thresh= and period= without the adaptive threshold (its controller's)
usage 'policy "promote-all:hot=1": hot= needs hot-page selection (+hotness): without it no latency is judged' \
	-p promote-all:hot=1
usage 'policy "pghot-abit:hot=50": hot= needs hint faults to time (src=hint|both): the accessed-bit scanner'"'"'s pages are hot or not' \
	-p pghot-abit:hot=50
usage 'policy "rfc2020-p6:rate=1000:hot=50:thresh=mainline": thresh= needs the adaptive threshold (+adaptive): without it the threshold is fixed' \
	-p rfc2020-p6:rate=1000:hot=50:thresh=mainline
usage 'policy "promote-all:period=100": period= needs the adaptive threshold (+hotness+adaptive): without them no latency is judged' \
	-p promote-all:period=100
usage 'policy "goal-threshold:period=100": period= needs the adaptive threshold (+adaptive): with goal-out=threshold the goal sets the threshold' \
	-p goal-threshold:period=100
# ... and where they are read, they are taken
for spec in rfc2020-p6:hot=50 rfc2020-p6+adaptive:thresh=mainline:period=100 \
	pghot-abit:src=both:hot=50 goal-threshold:hot=500; do
	run "$T" -q -w zipf --accesses 1000 -p "$spec"
	[ "$rc" = 0 ] || bad "-p $spec: exit $rc, $(cat "$tmp/err")"
done
# mode=1: tierpol refuses every hint fault; what only tiering reads is refused
usage 'policy "mainline:mode=1:rate=64": rate=64 does nothing: without tiering (mode=1) tierpol refuses every hint fault (TP_REFUSE_MODE)' \
	-p mainline:mode=1:rate=64
usage 'policy "pghot:mode=1": mode=1 leaves the hotness record and kmigrated nothing to do: without tiering tierpol admits no page' \
	-p pghot:mode=1
run "$T" -q -w zipf --accesses 1000 -p mainline:mode=1:vma=pid:demote=0
[ "$rc" = 0 ] || bad "-p mainline:mode=1:vma=pid:demote=0: exit $rc, $(cat "$tmp/err")"
usage 'policy "mainline-young": -young changes nothing: mainline does not have it' \
	-p mainline-young
usage 'policy "mainline+hotness": +hotness changes nothing: mainline has it' \
	-p mainline+hotness
# ... and a key that sets what the base has, or its default
usage 'policy "mainline:thresh=mainline": thresh=mainline changes nothing: mainline has it' \
	-p mainline:thresh=mainline
usage 'policy "mainline:goal=used:target=9970": target=9970 changes nothing: with the other keys it is the default' \
	-p mainline:goal=used:target=9970
usage 'zipf: --clock serial does nothing with one thread (--threads 2 or more share a clock)' \
	-w zipf --clock serial
run "$T" -q -w zipf --threads 2 --accesses 1000 --clock serial -p none
[ "$rc" = 0 ] || bad "--clock serial with 2 threads: exit $rc, $(cat "$tmp/err")"
# A trace runs as one thread whatever its thread ids (two were taken).
printf 'R 1000 1\nW 2000 2\nR 3000 1\n' >"$tmp/tids.trace"
printf 'R 1000 1\nW 2000 1\nR 3000 1\n' >"$tmp/tid.trace"
for tr in tids tid; do
	usage "$tmp/$tr.trace: --clock serial does nothing with a trace (it is one stream in its recorded order, whatever its thread ids)" \
		-t "$tmp/$tr.trace" --fast 2 --wmark 0,0,1,1 --clock serial -p none
done
usage 'policy "mainline+young:mode=0": +young does nothing with NUMA balancing off (mode=0 of mainline): no scanning, no hint faults' \
	-p mainline+young:mode=0
for list in mainline, none,,oracle; do
	usage "-p \"$list\": an empty entry in the list (a comma at an end, or two in a row)" \
		-p "$list"
done
usage 'no policy named' -p ''
# A spec named twice: two runs under one name, the same numbers.
usage '-p "mainline,mainline": mainline is named twice (its runs would be the same)' \
	-p mainline,mainline
usage '-p "mainline,none, mainline": mainline is named twice (its runs would be the same)' \
	-p mainline -p "none, mainline"
run "$T" -q -w zipf --accesses 1000 -p mainline,mainline:rate=64
[ "$rc" = 0 ] || bad "-p mainline,mainline:rate=64: exit $rc, $(cat "$tmp/err")"
# ... and one policy under two specs: an alias, a number spelt two ways, a
# pinned value that is the one the run has anyway (the rows were the same).
usage '-p "rfc2020,rfc2020-p8": rfc2020 and rfc2020-p8 are the same policy (their runs would be the same)' \
	-p rfc2020,rfc2020-p8
usage '-p "mainline:rate=64,none,mainline:rate=064": mainline:rate=64 and mainline:rate=064 are the same policy (their runs would be the same)' \
	-p mainline:rate=64,none,mainline:rate=064
usage '-p "mainline,mainline:rate=65536": mainline and mainline:rate=65536 are the same policy (their runs would be the same)' \
	-p mainline,mainline:rate=65536
run "$T" -q -w zipf --accesses 1000 --rate-limit-mbps 100 \
	-p mainline,mainline:rate=65536
[ "$rc" = 0 ] || bad "-p mainline,mainline:rate=65536 --rate-limit-mbps 100: exit $rc, $(cat "$tmp/err")"

# The policies past Linux 6.1: ranges, and the combinations that cannot work.
usage 'policy "goal-bucket:target=0": target=0 is too small (allowed: 1 to 10000 parts per 10000)' \
	-p goal-bucket:target=0
usage 'policy "goal-bucket:goal=speed": goal=speed: unknown value' \
	-p goal-bucket:goal=speed
input 'policy "goal-bucket:rate-min=300": rate-min is above rate-max' \
	-w zipf -p goal-bucket:rate-min=300
input 'policy "pghot-abit:mode=0": mode=0 leaves the hotness record and kmigrated nothing to do: with NUMA balancing off tierpol admits no page' \
	-p pghot-abit:mode=0
input 'policy "oracle+young:mode=2:rate=1": the oracle pins its pages and scans nothing (mode=0): its NUMA balancing would be ignored' \
	-p oracle+young:mode=2:rate=1
input 'policy "pghot:src=abit:migrate=fault": src=abit needs migrate=kmigrated (a scanner is no fault to migrate in)' \
	-w zipf -p pghot:src=abit:migrate=fault
input 'policy "pghot:freq=4": freq is above what the record counts (byte: 3, precise: 7)' \
	-w zipf -p pghot:freq=4

# Outputs that cannot be written: refused before any simulation.
input '--svg /nonexistent/x.svg: directory /nonexistent: No such file or directory' \
	-w zipf --json "$tmp/ok.json" --svg /nonexistent/x.svg
[ ! -e "$tmp/ok.json" ] || bad "--json written though --svg cannot be"
: >"$tmp/afile"
input "--outdir $tmp/afile: Not a directory" --suite short --outdir "$tmp/afile"
input "--json $tmp/afile/x.json: Not a directory" \
	-w zipf --json "$tmp/afile/x.json"
input "--svg $tmp: Is a directory" -w zipf --svg "$tmp"
usage '--json - and --csv - both write to stdout (give one of them a file)' \
	-w zipf --json - --csv -
usage '--svg: "-" is no file (the plot cannot go to stdout)' -w zipf --svg -
# An empty name; procfs (as root its files open for writing and failed only
# after the simulation, exit 1); a suite's directory, named.
usage '--json: an empty file name' -w zipf --json ''
usage '--outdir: an empty directory name' --suite short --outdir ''
if [ -d /proc/self ]; then
	input '--json /proc/version: a file of procfs, not one to write results to' \
		-w zipf --json /proc/version
	input '--outdir /proc/x: /proc is procfs: no directory can be created there' \
		--suite short --outdir /proc/x
	# an existing one: the suite ran, then its first write failed
	input '--outdir /proc is procfs: no file can be created there' \
		--suite short --outdir /proc
fi
# Two outputs to one file: the second overwrote the first.
usage "--json $tmp/o.json and --csv $tmp/o.json are the same file (one would overwrite the other)" \
	-w zipf --json "$tmp/o.json" --csv "$tmp/o.json"
usage "--json $tmp/o.json and --svg $tmp/./o.json are the same file (one would overwrite the other)" \
	-w zipf --json "$tmp/o.json" --svg "$tmp/./o.json"
: >"$tmp/real.csv"
ln -s real.csv "$tmp/link.csv"
usage "--json $tmp/link.csv and --csv $tmp/real.csv are the same file (one would overwrite the other)" \
	-w zipf --json "$tmp/link.csv" --csv "$tmp/real.csv"
# A link to a file not there yet: the SVG overwrote the JSON.
ln -s new.json "$tmp/dangling.json"
usage "--json $tmp/new.json and --svg $tmp/dangling.json are the same file (one would overwrite the other)" \
	-w zipf --json "$tmp/new.json" --svg "$tmp/dangling.json"
mkdir "$tmp/sub"
ln -s ../new.json "$tmp/sub/up.json"
usage "--csv $tmp/sub/up.json and --svg $tmp/dangling.json are the same file (one would overwrite the other)" \
	-w zipf --csv "$tmp/sub/up.json" --svg "$tmp/dangling.json"
[ ! -e "$tmp/new.json" ] || bad "an output written through a dangling link"
[ ! -e "$tmp/o.json" ] || bad "an output written though two are the same file"
# An output onto an input: the trace or the CPU profile was overwritten.
printf 'r 1000 8\nw 2000 8\n' >"$tmp/in.tr"
cp "$tmp/in.tr" "$tmp/in.keep"
usage "--csv $tmp/./in.tr and --trace $tmp/in.tr are the same file (the output would overwrite the input)" \
	-t "$tmp/in.tr" -p none --csv "$tmp/./in.tr"
printf '0 100\n' >"$tmp/cpu.txt"
usage "--json $tmp/cpu.txt and --cpu-ns-file $tmp/cpu.txt are the same file (the output would overwrite the input)" \
	-w zipf --cpu-ns-file "$tmp/cpu.txt" --json "$tmp/cpu.txt"
cmp -s "$tmp/in.tr" "$tmp/in.keep" && [ "$(cat "$tmp/cpu.txt")" = "0 100" ] ||
	bad "an input overwritten by an output"
# A full stdout is a write error, not a result.
if [ -w /dev/full ]; then
	for out in "" "--json -" "--csv -"; do
		# shellcheck disable=SC2086 # $out is two words or none
		"$T" -w zipf --accesses 1000 -p none $out >/dev/full 2>"$tmp/err"
		rc=$?
		checks=$((checks + 1))
		[ "$rc" = 1 ] && grep -qx 'tiersim: stdout: write error' "$tmp/err" ||
			bad "stdout full (${out:-the table}): exit $rc, $(cat "$tmp/err")"
	done
	for out in --help -V; do
		"$T" $out >/dev/full 2>"$tmp/err"
		rc=$?
		checks=$((checks + 1))
		[ "$rc" = 1 ] && grep -qx 'tiersim: stdout: write error' "$tmp/err" ||
			bad "stdout full ($out): exit $rc, $(cat "$tmp/err")"
	done
fi
run "$T" -q -w zipf --accesses 1000 -p none --json /dev/null --csv /dev/null
[ "$rc" = 0 ] || bad "--json /dev/null --csv /dev/null: exit $rc, $(cat "$tmp/err")"

# ---- --help, -V -------------------------------------------------------------

run "$T" -V
[ "$rc" = 0 ] && grep -q '^tiersim [0-9.]* (tierpol [0-9.]*)$' "$tmp/out" ||
	bad "-V: exit $rc, \"$(cat "$tmp/out")\""
cp "$tmp/out" "$tmp/v"
run "$T" --version
cmp -s "$tmp/out" "$tmp/v" || bad "-V and --version differ"

run "$T" --help
[ "$rc" = 0 ] && [ ! -s "$tmp/err" ] || bad "--help: exit $rc or stderr"
cp "$tmp/out" "$tmp/help"
# Every option with a value shows its default in brackets: the option's
# lines up to the next option.
awk '
	/^  (-[a-zA-Z], |    )--[a-z]/ {
		if (name != "" && val && !dflt) print name
		name = $0; sub(/^ *(-[a-zA-Z], )?/, "", name)
		val = name ~ /^--[a-z0-9-]+ [A-Z]/ || name ~ /^--[a-z0-9-]+ [a-z]+\|/
		sub(/ .*/, "", name); dflt = 0
	}
	/^[A-Z]/ { if (name != "" && val && !dflt) print name; name = "" }
	name != "" && /\[/ { dflt = 1 }
	END { if (name != "" && val && !dflt) print name }
' "$tmp/help" >"$tmp/nodflt"
[ ! -s "$tmp/nodflt" ] || bad "--help shows no default for: $(cat "$tmp/nodflt")"
n=$(grep -c '^Policies' "$tmp/help")
[ "$n" = 1 ] || bad "--help has $n headings \"Policies...\""
n=$(grep -cE '^  (-[a-zA-Z], |    )--[a-z]' "$tmp/help")
[ "$n" -gt 70 ] || bad "--help lists $n options"
for o in --strict --progress --scan-delay-ms --thresh-period-ms --mlp; do
	grep -qe "^  .*$o" "$tmp/help" || bad "--help lacks $o"
done

# What tiersim says about its input and its runs: the other half.
# shellcheck source=tests/tiersim_ux.sh
. "$(dirname "$0")/tiersim_ux.sh"

if [ $fails = 0 ]; then
	echo "tiersim command line: $checks runs checked, all as expected"
else
	echo "tiersim command line: $fails of the checks failed"
	exit 1
fi
