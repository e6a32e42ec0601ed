#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# tiersim as a user meets it (make check-tiersim, part of make check):
#
#   tests/tiersim_cli.sh TIERSIM SVGCHECK COMPLETION
#
# usage errors (one line, "see tiersim --help", exit status 2, the exact
# words), --help (every option, every default), -V, the messages about a
# trace (timestamps that go back, a trace too small for the defaults), the
# warnings and --strict, the table's simulated time, the progress line in a
# log, the plots of both layouts (and svgcheck itself on broken ones), and
# the bash completion. About ten seconds. Prints each failure; exits 1 if
# there is one.
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
usage '--fast: "3Q" is not a size (pages, K/M/G bytes, or N%)' --fast 3Q
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

# ---- traces: timestamps that go back, a trace too small -------------------

printf 'R 1000 1 5\nR 2000 2 7\nW 3000 1 6\n' >"$tmp/back.trace"
input "$tmp/back.trace:3: timestamp 6 ns is before the previous access's, 7 ns on line 2 (timestamps must not decrease)" \
	-t "$tmp/back.trace"

# A span beyond 30 days (two clocks mixed) and timestamps too large.
printf 'R 1000 1 0\nR 2000 1 1000000000000000000\n' >"$tmp/span.trace"
input "$tmp/span.trace:2: timestamp 1000000000000000000 ns is more than 30 days after the first access's, 0 ns on line 1 (a trace spans at most 30 days of simulated time; are two clocks mixed?)" \
	-t "$tmp/span.trace"
for ts in 18446744073709551615 99999999999999999999; do
	printf 'R 1000 1 %s\n' "$ts" >"$tmp/big.trace"
	input "$tmp/big.trace:1: timestamp $ts ns is too large (allowed: 0 to 9223372036854775807 ns)" \
		-t "$tmp/big.trace"
done

# A trace is read twice: a FIFO or a pipe is refused at once (it hung, or
# its second reading found nothing).
mkfifo "$tmp/fifo"
run timeout 20 "$T" -t "$tmp/fifo"
[ "$rc" = 2 ] || bad "a FIFO as the trace: exit $rc, not 2"
stderr_is "tiersim: $tmp/fifo: not a regular file (a trace is read twice: once to index it, once per run to replay it; save a pipe's output to a file first)"
input "$tmp: Is a directory" -t "$tmp"
: >"$tmp/empty.tr"
input "$tmp/empty.tr: an empty file: no memory accesses" -t "$tmp/empty.tr"

printf 'I  04000000,4\nI  04000004,4\n' >"$tmp/instr.lackey"
input "$tmp/instr.lackey:2: no memory accesses in the trace (only lackey instruction fetches, \"I\" lines: --lackey-instr counts them as reads)" \
	-t "$tmp/instr.lackey"
run "$T" -q -t "$tmp/instr.lackey" --lackey-instr
[ "$rc" = 2 ] && grep -q 'zero capacity' "$tmp/err" ||
	bad "--lackey-instr does not count I lines: exit $rc, $(cat "$tmp/err")"

pages() { # FILE N: a trace touching N pages, once each
	awk -v n="$2" 'BEGIN { for (i = 0; i < n; i++)
		printf "R %x\n", 268435456 + i * 4096 }' >"$1"
}
pages "$tmp/p3.trace" 3
input "$tmp/p3.trace: zero capacity: the fast tier has no pages; a footprint of 3 pages fits --fast 2 --wmark 0,0,1,1" \
	-t "$tmp/p3.trace"
run "$T" -q -t "$tmp/p3.trace" --fast 2 --wmark 0,0,1,1
[ "$rc" = 0 ] || bad "the suggested options do not fit: $(cat "$tmp/err")"
pages "$tmp/p1.trace" 1
input "$tmp/p1.trace: zero capacity: the fast tier has no pages; a footprint of 1 page is too small for two tiers" \
	-t "$tmp/p1.trace"
# Errors the footprint does not cause get no hint about it.
pages "$tmp/p5000.trace" 5000
input "$tmp/p5000.trace: --scale needs a synthetic workload (a trace's pages are the machine's)" \
	-t "$tmp/p5000.trace" --scale 4
input "$tmp/p5000.trace: --thp needs a synthetic workload (trace pages are not 2 MiB aligned)" \
	-t "$tmp/p5000.trace" --thp
input 'pmbench: --thp: VMA 0 is not a multiple of 2 MiB (use --pages a multiple of 512 per VMA)' \
	--pages 1000 --thp
pages "$tmp/p8.trace" 8
input "$tmp/p8.trace: the promo watermark (9 pages) is not below the fast tier's capacity (2 pages); a footprint of 8 pages fits --fast 5 --wmark 1,2,3,4" \
	-t "$tmp/p8.trace"
run "$T" -q -t "$tmp/p8.trace" --fast 5 --wmark 1,2,3,4
[ "$rc" = 0 ] || bad "the suggested options do not fit: $(cat "$tmp/err")"
pages "$tmp/p30.trace" 30
input "$tmp/p30.trace: the promo watermark (9 pages) is not below the fast tier's capacity (7 pages); a footprint of 30 pages fits --wmark 1,2,3,4, or --fast 23 with Linux's watermarks" \
	-t "$tmp/p30.trace"
for fix in "--wmark 1,2,3,4" "--fast 23"; do
	# shellcheck disable=SC2086
	run "$T" -q -p none -t "$tmp/p30.trace" $fix
	[ "$rc" = 0 ] || bad "$fix does not fit: $(cat "$tmp/err")"
done
# A --slow too small for the footprint is named, with the --slow that
# fits (the hint grew --fast, or called 4096 pages too small for two tiers).
input 'uniform: zero capacity: the slow tier has no pages; --slow 0 is too small: beside a fast tier of 1024 pages, a footprint of 4096 pages needs --slow 3072 or more (or no --slow: the whole footprint)' \
	-w uniform --pages 4096 --accesses 100000 --slow 0 -p none
input 'uniform: the footprint (4096 pages) does not fit in the two tiers (1024 + 409 pages); --slow 10% is too small: beside a fast tier of 1024 pages, a footprint of 4096 pages needs --slow 3072 or more (or no --slow: the whole footprint)' \
	-w uniform --pages 4096 --slow 10%
run "$T" -q -p none -w uniform --pages 4096 --accesses 1000 --slow 3072
[ "$rc" = 0 ] || bad "the suggested --slow does not fit: $(cat "$tmp/err")"
# ... and the fast tier's hint, when the defaults do not fit either
input "$tmp/p30.trace: zero capacity: the slow tier has no pages; --slow 0 is too small: beside a fast tier of 7 pages, a footprint of 30 pages needs --slow 23 or more; a footprint of 30 pages fits --wmark 1,2,3,4" \
	-t "$tmp/p30.trace" --slow 0
run "$T" -q -p none -t "$tmp/p30.trace" --slow 23 --wmark 1,2,3,4
[ "$rc" = 0 ] || bad "the suggested --slow and --wmark do not fit: $(cat "$tmp/err")"
# A fast tier so small a share of the machine that Linux's gap is 0: kswapd
# stops where no promotion finds room (the run promoted nothing).
input 'pmbench: the fast tier (100 pages) is too small for the computed watermarks to leave room for a promotion (min 3, low 3, high 3, promo 3): give --wmark or a larger --fast' \
	--pages 4096 --fast 100
run "$T" -q -w pmbench --pages 4096 --accesses 300000 --scan-delay-ms 1 \
	-p mainline --fast 100 --wmark 1,2,3,4 --json -
n=$(grep -o '"promotions": [0-9]*' "$tmp/out" | head -1)	# the run's
[ "$rc" = 0 ] && [ "${n#*: }" -gt 0 ] ||
	bad "a 100-page fast tier with --wmark 1,2,3,4: exit $rc, $n"

# ---- the model at its edges: folios, a full slow tier, kmigrated ----------

# With --thp a tier holds whole folios.
input 'uniform: --thp: the footprint (4096 pages) needs 8 folios of 512 pages, and the two tiers hold 4 + 3 whole ones' \
	-w uniform --pages 4096 --thp --fast 2100 --slow 2000 --wmark 1,2,3,4
# A fast tier whose promo watermark (281 pages) is below one folio: first
# touch leaves a folio's 512 pages free, above it, so kswapd counted the
# node balanced while every promotion (free > high + 512) was refused for
# room, and none ever happened. kswapd woken for a folio balances until it
# fits: each run (hint faults, the RFC's target, kmigrated) promotes.
run "$T" -q -w zipf --pages 131072 --accesses 2000000 --cpu-ns 2000 --thp \
	--scan-delay-ms 10 --thresh-period-ms 1000 --strict \
	-p mainline,rfc2020,pghot --csv -
n=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "promotions") c = i }
	NR > 1 && c && $c > 0' "$tmp/out" | wc -l)
[ "$rc" = 0 ] && [ "$n" = 3 ] ||
	bad "--thp, a promo watermark below a folio: exit $rc, $n of 3 promoted"
# kmigrated waiting for a folio's room that kswapd did not make (balanced
# at its promo watermark, before it balanced for the folio; given up): it
# sleeps, it does not retry at once for ever (these never ended).
run timeout 120 "$T" -q -w gups-hotset --pages 16384 --accesses 2000000 \
	--thp --scan-delay-ms 100 --cpu-ns 200 -p mainline:migrate=kmigrated
[ "$rc" = 0 ] || bad "kmigrated with folios: exit $rc: $(cat "$tmp/err")"
run timeout 120 "$T" -q -w pmbench --pages 17 --accesses 200000 --threads 2 \
	--fast 5 --wmark 1,2,3,4 --cpu-ns 20000 --scan-delay-ms 10 -p pghot
[ "$rc" = 0 ] || bad "kmigrated on 5 fast pages: exit $rc: $(cat "$tmp/err")"
# The slow tier full: kswapd stops demoting, nothing past its capacity; a
# page kmigrated promotes has a fresh PTE, no hint mark (no fast-tier
# faults without scan-top).
run "$T" -q -w pmbench --pages 4096 --accesses 2000000 --fast 1024 \
	--slow 3072 --scan-delay-ms 10 -p mainline,damon --json "$tmp/full.json"
[ "$rc" = 0 ] || bad "a full slow tier: exit $rc: $(cat "$tmp/err")"
run "$T" -q -w zipf --pages 8192 --accesses 2000000 --threads 3 \
	--cpu-ns 2000 --scan-delay-ms 50 --scan-period-ms 20 \
	-p pghot,mainline:migrate=kmigrated --json "$tmp/kmig.json"
[ "$rc" = 0 ] || bad "kmigrated's marks: exit $rc: $(cat "$tmp/err")"
n=$(grep -c '"slow_used_end": 3072,' "$tmp/full.json")
[ "$n" = 2 ] || bad "the slow tier (3072 pages) not full at the end of both runs"
n=$(grep -c '"hint_faults_fast": 0,' "$tmp/kmig.json")
[ "$n" = 2 ] || bad "hint faults on pages kmigrated promoted ($n runs of 2 without)"

# The room record, from hint faults too, only feeds the free-space bypass:
# on a fast tier that never has room it changes nothing but its byte a
# page (it promoted a third more here, judged by latency as if the
# policy's record were ready). Columns 3 to 63: all but the policy's name
# and state_bytes_per_page.
run "$T" -q -w zipf --pages 8192 --accesses 3000000 --threads 2 \
	--cpu-ns 2000 --scan-delay-ms 50 --scan-period-ms 20 --fast 2048 \
	-p pghot:freq=3,pghot:freq=3:room-record=1 --csv "$tmp/room.csv"
[ "$rc" = 0 ] || bad "the room record from hint faults: exit $rc"
n=$(cut -d, -f3-63 "$tmp/room.csv" | sed 1d | sort -u | wc -l)
[ "$n" = 1 ] || bad "the room record changed a run on a full fast tier"

# The threshold's series in its unit, as the scalar fields (the series
# said 1000 ms for none, and faults / 10^6 as ms with lat=faults), and a
# count of faults with every digit (it was 1.23457e+06).
run "$T" -q -w zipf --pages 4096 --accesses 1000 \
	-p none,mainline,fault-clock:hot-faults=1234567 --json "$tmp/th.json"
n=$(grep -c '"threshold_ms": null, "threshold_faults": null, "hint_faults"' "$tmp/th.json")
[ "$rc" = 0 ] && [ "$n" = 1 ] &&
	grep -q '"threshold_ms": \[1000, [0-9, ]*\], "threshold_faults": null' "$tmp/th.json" &&
	grep -q '"threshold_faults": 1234567,' "$tmp/th.json" &&
	grep -q '"threshold_ms": null, "threshold_faults": \[1234567, ' "$tmp/th.json" ||
	bad "the threshold's series and fields: exit $rc, $n none-like series"

# The JSON's kernel section: the values in effect, not the options' unset
# markers (it said scan_period_max_ms 0, hot_threshold_ms 0,
# rate_limit_mbps -1); where the policies differ, null and each run's own.
run "$T" -q -w zipf --pages 4096 --accesses 1000 -p mainline --json "$tmp/k.json"
grep -q '"scan_period_max_ms": 60000, "thresh_period_ms": 60000, "hot_threshold_ms": 1000, "rate_limit_mbps": 65536,' "$tmp/k.json" ||
	bad "the JSON's kernel section: $(grep '"kernel"' "$tmp/k.json")"
run "$T" -q -w zipf --pages 4096 --accesses 1000 -p mainline,rfc2020 \
	--hot-threshold-ms 500 --json "$tmp/k2.json"
grep -q '"hot_threshold_ms": 500, "rate_limit_mbps": null,' "$tmp/k2.json" &&
	grep -q '{"policy": "rfc2020", "kernel": {"thresh_period_ms": 60000, "hot_threshold_ms": 500, "rate_limit_mbps": 0}' "$tmp/k2.json" ||
	bad "the JSON's kernel values of two policies: $(grep '"kernel"' "$tmp/k2.json")"

# ---- warnings and --strict ----------------------------------------------------

set -- -w zipf --pages 65536 --accesses 300000 -p none,promote-all,mainline
run "$T" "$@"
[ "$rc" = 0 ] || bad "a warning changed the exit status ($rc)"
grep -q '^mainline ' "$tmp/out" || bad "no table with a warning"
stderr_is "tiersim: warning: zipf: promote-all, mainline: no scan pass ran: the run ended at * (the first pass is due 1000 ms in, at a thread's next access after that): nothing was scanned or promoted; a longer run (--accesses) or a shorter --scan-delay-ms changes that"
run "$T" "$@" --strict
[ "$rc" = 2 ] || bad "--strict: exit $rc, not 2"
grep -q '^mainline ' "$tmp/out" || bad "--strict: no table"
stderr_is "tiersim: error: zipf: promote-all, mainline: no scan pass ran: *"
run "$T" "$@" --strict --scan-delay-ms 1 --thresh-period-ms 5 --scan-period-ms 5
[ "$rc" = 0 ] && [ ! -s "$tmp/err" ] ||
	bad "a run that scans warns: exit $rc, $(cat "$tmp/err")"

run "$T" -q -w pmbench --accesses 300000 --scan-delay-ms 1 -p rfc2020
stderr_is "tiersim: warning: pmbench: rfc2020: the run ended at *, after * of the 16 scan windows of one pass over the footprint: part of it was never scanned; a longer run (--accesses) or a shorter --scan-period-ms changes that"

# One pass while first touch had placed a tenth: it saw 6473 PTEs, all on
# the fast tier, and the run looked scanned (no warning).
run "$T" -q -w pmbench --pages 65536 --accesses 5000000 --scan-delay-ms 10 \
	--thresh-period-ms 100 -p mainline
stderr_is "tiersim: warning: pmbench: mainline: the scanner's 1 pass looked at 6473 PTEs, fewer than the footprint's 65536 pages, and marked none: it ran while first touch had placed only part of it; a longer run (--accesses) or a shorter --scan-period-ms changes that"

# 64 threads on the slow tier: demand past its bandwidth, served anyway.
run "$T" -q -w uniform --pages 65536 --threads 64 --accesses 4000000 -p none
stderr_is "tiersim: warning: uniform: none: the slow tier's loaded latency was at its cap (utilisation 0.95) for * % of the run: the demand reached its bandwidth, which the model meets with that latency, not with a queue, so the throughput may be above what the bandwidth allows; fewer threads or more bandwidth (--slow-read-mbps, --slow-write-mbps) keep the run inside the model"
run "$T" -q -w uniform --pages 65536 --threads 64 --accesses 4000000 -p none \
	--slow-read-mbps 390000 --slow-write-mbps 130000
[ "$rc" = 0 ] && [ ! -s "$tmp/err" ] ||
	bad "ten times the bandwidth still warns: exit $rc, $(cat "$tmp/err")"

# A fast tier slower than the slow one runs, and says so (it ran
# without a word); one as fast does not warn.
run "$T" -w uniform --pages 4096 --accesses 1000 -p none --fast-read-ns 400
[ "$rc" = 0 ] && grep -q '^none ' "$tmp/out" ||
	bad "--fast-read-ns 400: exit $rc, or no table"
stderr_is "tiersim: warning: uniform: the fast tier's read latency (400 ns) is above the slow tier's (305 ns): a promotion makes no read faster; a --fast-read-ns below 305, or a larger --slow-read-ns, puts the tiers in order"
run "$T" -q -w uniform --pages 4096 --accesses 1000 -p none \
	--fast-read-ns 306 --fast-write-ns 400 --strict
[ "$rc" = 2 ] || bad "--strict, a fast tier slower: exit $rc, not 2"
stderr_is "tiersim: error: uniform: the fast tier's read and write latencies (306 and 400 ns) are above the slow tier's (305 and 305 ns): a promotion makes no access faster; --fast-read-ns and --fast-write-ns below those, or larger --slow-read-ns and --slow-write-ns, put the tiers in order"
run "$T" -q -w uniform --pages 4096 --accesses 1000 -p none \
	--fast-read-ns 305 --fast-write-ns 305 --strict
[ "$rc" = 0 ] && [ ! -s "$tmp/err" ] ||
	bad "--strict, a fast tier as fast as the slow one: exit $rc, $(cat "$tmp/err")"

# The default suite's machine with --thp: 128 folios, a TLB of 128 entries.
set -- -q -w pmbench --pages 65536 --threads 4 --scale 16 --accesses 2000000 \
	--thp -p pghot-abit,damon
run "$T" "$@"
stderr_is "tiersim: warning: pmbench: pghot-abit, damon: the footprint's 128 folios fit each thread's TLB (128 entries: --tlb-entries 2048 at --scale 16) and no NUMA scan flushes it: an accessed bit, cleared without a flush as x86 clears it, is set again only by a TLB fill, so after the first clear no access was seen (but to a migrated folio); --tlb-entries 1024 or less, no --thp, or --tlb-entries 0 (the bit set by every access) lets accesses be seen"
run "$T" "$@" --tlb-entries 1024
[ "$rc" = 0 ] && [ ! -s "$tmp/err" ] ||
	bad "folios that do not fit the TLB warn: exit $rc, $(cat "$tmp/err")"

run "$T" -q -w zipf --pages 65536 --accesses 300000 --scan-delay-ms 1 \
	--scan-period-ms 5 -p mainline
stderr_is "tiersim: warning: zipf: mainline: the run ended at *, before the hot-threshold controller's first full period (60000 ms after the 1 ms scan delay; the period that closes at the first fault, as 6.1's does, judges no candidates and can only raise the threshold a step): \"thr ms\" is never adapted to the run; --thresh-period-ms (below the run's length) or a longer run (--accesses) changes that"

# A trace: 40 pages, a scan at 1 ms, then only pages it could not mark.
awk 'BEGIN { for (i = 0; i < 40; i++)
		printf "R %x 0 %d\n", 268435456 + i * 4096, i * 1000
	printf "R %x 0 1000000\n", 268435456 + 40 * 4096
	printf "R %x 0 1001000\n", 268435456 + 41 * 4096 }' >"$tmp/nf.trace"
run "$T" -q -t "$tmp/nf.trace" --wmark 1,2,3,4 --scan-delay-ms 1 \
	--thresh-period-ms 1 -p mainline
stderr_is "tiersim: warning: $tmp/nf.trace: mainline: no NUMA hint fault in 1 scan pass (* PTEs marked): the trace ended at *, before an access touched a marked page; a shorter --scan-period-ms changes that"
pages "$tmp/p200.trace" 200
run "$T" -q -t "$tmp/p200.trace" -p promote-all
stderr_is "tiersim: warning: $tmp/p200.trace: promote-all: no scan pass ran: the trace ended at * (the first pass is due 1000 ms in, at a thread's next access after that): nothing was scanned or promoted; --scan-delay-ms 1 --scan-period-ms 1 scan within it"

# The default policies as --help writes them can be given back.
dflt=$(tr '\n' ' ' <"$tmp/help" | sed 's/  */ /g' |
	grep -o 'comma-separated policies (repeatable) \[[^]]*\]' |
	sed 's/.*\[//; s/\]//')
run "$T" -q --pages 65536 --accesses 100000 -p "$dflt"
[ "$rc" = 0 ] && [ -n "$dflt" ] ||
	bad "-p \"$dflt\" (--help's default): exit $rc, $(cat "$tmp/err")"

# ---- the table's simulated time: all the runs', whatever their order -------

set -- -w zipf --pages 65536 --accesses 2000000 --scan-delay-ms 1 \
	--thresh-period-ms 10
run "$T" "$@" -p none,mainline,oracle
h1=$(grep ' simulated$' "$tmp/out")
run "$T" "$@" -p oracle,mainline,none
h2=$(grep ' simulated$' "$tmp/out")
[ -n "$h1" ] && [ "$h1" = "$h2" ] ||
	bad "the header depends on the policies' order: \"$h1\", \"$h2\""
case $h1 in
*", "[0-9]*"s ("*") to "[0-9]*"s ("*") simulated") ;;
*) bad "the header gives no range of simulated times: $h1" ;;
esac

# Below a second: milliseconds, three digits, and a range where they differ
# (both runs were "0.0 s simulated"); a threshold period likewise.
run "$T" -w zipf --pages 4096 --accesses 200000 --thresh-period-ms 50 \
	-p none,oracle,rfc2020
h1=$(grep ' simulated$' "$tmp/out")
case $h1 in
*", "[0-9]*.[0-9]" ms (oracle) to "[0-9]*.[0-9]" ms (rfc2020) simulated") ;;
*) bad "short runs: no range in ms: $h1" ;;
esac
grep -q '^   threshold period scaled to 50 ms (from 60 s)$' "$tmp/out" ||
	bad "--thresh-period-ms 50: $(grep 'threshold period' "$tmp/out")"

# ---- progress: none in a log unless asked, then lines ---------------------

run "$T" -q -p none -t "$tmp/p200.trace"
grep -q 'runs\|read ' "$tmp/err" && bad "progress in a log without --progress"
run "$T" -q --progress -p none,oracle -t "$tmp/p200.trace"
grep -q "^tiersim: read $tmp/p200.trace: [0-9.]* MB in [0-9.]* s$" "$tmp/err" ||
	bad "--progress: no line for reading the trace: $(cat "$tmp/err")"
grep -q '^tiersim: simulated 2 runs: [0-9.]*[ MG]* accesses in [0-9.]* s ([0-9.]* M accesses/s)$' \
	"$tmp/err" || bad "--progress: no last line: $(cat "$tmp/err")"

# ---- plots: both layouts pass svgcheck; svgcheck fails broken ones --------

set -- -q -w zipf --pages 65536 --accesses 1000000 --scan-delay-ms 1 \
	--thresh-period-ms 20
run "$T" "$@" -p mainline,mainline-bypass-off --svg "$tmp/two.svg"
run "$SVGCHECK" --tiersim "$tmp/two.svg"
grep -q 'ok (3 panels, 2 policies, shared axes)' "$tmp/out" ||
	bad "svgcheck, two policies: $(cat "$tmp/out" "$tmp/err")"
grep -q '>same as mainline<' "$tmp/two.svg" ||
	bad "identical series not named in the legend"
run "$T" "$@" -p none,promote-all,rfc2020,mainline,token-bucket,oracle \
	--svg "$tmp/six.svg"
run "$SVGCHECK" --tiersim "$tmp/six.svg"
grep -q 'ok (3 panels, 6 policies, small multiples)' "$tmp/out" ||
	bad "svgcheck, six policies: $(cat "$tmp/out" "$tmp/err")"

# broken NAME REASON CONTENT: svgcheck fails CONTENT with REASON
broken() {
	printf '%s\n' "$3" >"$tmp/$1.svg"
	run "$SVGCHECK" "$tmp/$1.svg"
	[ "$rc" = 1 ] && grep -qF "$tmp/$1.svg:" "$tmp/err" &&
		grep -qF "$2" "$tmp/err" ||
		bad "svgcheck on $1: exit $rc, \"$(cat "$tmp/err")\""
}
svg='<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
broken unclosed "never closed" "$svg<g>"
broken crossed "</g> closes <text>" "$svg<g><text>x</g></text></svg>"
broken unquoted "not quoted" "$svg<rect width=5/></svg>"
broken twice "twice" "$svg<rect x=\"1\" x=\"2\"/></svg>"
broken entity "bad entity" "$svg<text>a &b</text></svg>"
broken roots "second root" "$svg</svg><svg/>"
broken ns "SVG namespace" '<svg width="1" height="1"></svg>'
run "$SVGCHECK" --tiersim "$tmp/unclosed.svg" "$tmp/two.svg"
[ "$rc" = 1 ] || bad "svgcheck: one bad file of two, exit $rc"
# A plot of the old kind: no axis labels.
sed -e 's/ class="xlabel"//' "$tmp/two.svg" >"$tmp/nolabel.svg"
run "$SVGCHECK" --tiersim "$tmp/nolabel.svg"
grep -q 'no x axis label' "$tmp/err" || bad "svgcheck misses a missing label"
# Two policies drawn alike on shared axes.
sed -e 's/stroke-dasharray="8,3"//' "$tmp/two.svg" >"$tmp/alike.svg"
sed -i -e 's/stroke="#d62728"/stroke="#1f77b4"/g' "$tmp/alike.svg"
run "$SVGCHECK" --tiersim "$tmp/alike.svg"
grep -q 'drawn alike' "$tmp/err" || bad "svgcheck misses look-alike series"

# ---- bash completion ------------------------------------------------------------

if command -v bash >/dev/null; then
	# complete WORDS...: what the completion offers for the last word
	complete_words() {
		bash -c '. "$1"; shift; COMP_WORDS=("$@");
			COMP_CWORD=$(($# - 1)); _tiersim;
			printf "%s\n" "${COMPREPLY[@]}"' - "$COMPLETION" "$@" |
			sort
	}
	complete_words "$T" --scan-delay > "$tmp/c"
	[ "$(cat "$tmp/c")" = "--scan-delay-ms" ] ||
		bad "completion of --scan-delay: $(cat "$tmp/c")"
	complete_words "$T" --lru "" > "$tmp/c"
	[ "$(echo $(cat "$tmp/c"))" = "clock two-list" ] ||
		bad "completion of --lru: $(cat "$tmp/c")"
	complete_words "$T" -w "" > "$tmp/c"
	[ "$(echo $(cat "$tmp/c"))" = "cold-burst disjoint-vma gups-hotset phase-shift pmbench uniform zipf" ] ||
		bad "completion of -w: $(echo $(cat "$tmp/c"))"
	complete_words "$T" --workload=ph > "$tmp/c"
	[ "$(cat "$tmp/c")" = "phase-shift" ] ||
		bad "completion of --workload=ph: $(cat "$tmp/c")"
	complete_words "$T" -p none,mainline-b > "$tmp/c"
	[ "$(cat "$tmp/c")" = "none,mainline-bypass-off" ] ||
		bad "completion of -p none,mainline-b: $(cat "$tmp/c")"
	# Every option --help lists, and no other.
	complete_words "$T" - > "$tmp/c"
	grep -oE -- '^  (-[a-zA-Z], |    )--[a-z][a-z0-9-]*' "$tmp/help" |
		sed 's/^ *//; s/, /\n/' | sort -u > "$tmp/h"
	comm -23 "$tmp/h" "$tmp/c" > "$tmp/missing"
	[ ! -s "$tmp/missing" ] ||
		bad "completion lacks: $(echo $(cat "$tmp/missing"))"
	comm -13 "$tmp/h" "$tmp/c" > "$tmp/extra"
	[ ! -s "$tmp/extra" ] ||
		bad "completion offers what --help lists as no option: $(echo $(cat "$tmp/extra"))"
fi

if [ $fails = 0 ]; then
	echo "tiersim command line: $checks runs checked, all as expected"
else
	echo "tiersim command line: $fails of the checks failed"
	exit 1
fi
