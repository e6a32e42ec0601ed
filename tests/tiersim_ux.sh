# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# The second half of tests/tiersim_cli.sh, which sources it after the
# usage errors and --help: what tiersim says about its input and its runs.
# The messages about a trace (timestamps that go back, a trace too small
# for the defaults), the model at its edges, the warnings and --strict, the
# table's simulated time, the progress line in a log, the plots of both
# layouts (and svgcheck itself on broken ones), and the bash completion.
# It uses tiersim_cli.sh's helpers (run, bad, error, usage, input,
# stderr_is), variables (T, SVGCHECK, COMPLETION, tmp) and $tmp/help.
# shellcheck shell=sh disable=SC2154

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
stderr_is "tiersim: warning: uniform: none: the slow tier's loaded latency was at its cap (utilisation 0.95) for * % of the measured run: the demand reached its bandwidth, which the model meets with that latency, not with a queue, so the throughput may be above what the bandwidth allows; fewer threads or more bandwidth (--slow-read-mbps, --slow-write-mbps) keep the run inside the model"
run "$T" -q -w uniform --pages 65536 --threads 64 --accesses 4000000 -p none \
	--slow-read-mbps 390000 --slow-write-mbps 130000
[ "$rc" = 0 ] && [ ! -s "$tmp/err" ] ||
	bad "ten times the bandwidth still warns: exit $rc, $(cat "$tmp/err")"
# Capped through the whole measured phase, which is short beside first
# touch's unmeasured pass: the share is the measured phases' (it was of
# the whole run, 4 %, and the run passed --strict at the cap's 1674 ns).
run "$T" -q -j 1 -w uniform --pages 65536 --accesses 6000000 --threads 64 \
	--cpu-ns 1 --mlp 16 -p none --strict
[ "$rc" = 2 ] || bad "capped through the measured phase: exit $rc, not 2"
stderr_is "tiersim: error: uniform: none: the slow tier's loaded latency was at its cap (utilisation 0.95) for 100 % of the measured run: *"

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
stderr_is "tiersim: warning: pmbench: pghot-abit, damon: the footprint's 128 folios fit each thread's TLB (128 entries: --tlb-entries 2048 at --scale 16) and no NUMA scan flushes it: an accessed bit, cleared without a flush as x86 clears it, is set again only by a TLB fill, so after the first clear no access was seen (but to a migrated folio, or after kswapd's look at a young folio flushed the TLB); --tlb-entries 1024 or less, no --thp, or --tlb-entries 0 (the bit set by every access) lets accesses be seen"
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
