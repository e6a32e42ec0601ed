#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# tests/truth/runtime.sh: the tierpol runtime against Linux 6.1's own NUMA
# balancing (make runtime-truth, make runtime-truth-ci;
# docs/RUNTIME-RESULTS.md).
# On the machine of make kernel-truth (tests/truth/boot.sh: Debian's 6.1
# kernel under qemu, node 0 DRAM with the CPUs, node 1 an emulated NVDIMM
# in a lower memory tier), the same workload runs three times, one at a
# time:
#
#   kernel      kernel.numa_balancing=2 (memory tiering), no runtime
#   mprotect    kernel.numa_balancing=0, the runtime with mprotect hint faults
#   uffd        kernel.numa_balancing=0, the runtime with userfaultfd-wp
#
# and, with --only, variants of the runtime's settings, joined with "+"
# (mprotect+block+wall, say): page, block or fault (what a hint fault
# decides), cpu or wall (the latency clock), ring (latencies from the scan
# ring), bN (blocks of N pages), pinned (the runtime's threads on the
# program's CPU; by default they run on every CPU, as a daemon's would),
# other (on every CPU but the program's),
# nodefer (drop the pages refused for want of room: the default), defer
# (keep them for the migrator), dN (keep those within the hot threshold /
# 2^N), qN (move_pages(2) batches of N pages), victims (the runtime
# demotes the cold blocks it found itself), sN (with it, one fast block in
# 2^N sampled a sweep), rN (a nudge makes room for at most N batches of
# refused pages; 0 by default), recheck (a block whose other pages look cold
# protected again with a fresh stamp, at any time), rfill (that only while
# the fast node fills: the default), norecheck (never), sfill (a pass
# sweeps all it may while the fast node fills: the default), nosfill (it
# does not), nopku (an emulated CPU without protection keys); and for the
# kernel's run sigN (an empty signal handler run N times a second in the
# workload's process, from a timer), selfN (the same signals raised by the
# workload itself) and nopku; for both, flushN (the workload's thread
# empties its CPU's TLB every N ms: what the emulator's TLB does with a
# flush now and then).
# The runtime before its defaults changed is mprotect+defer+norecheck+nosfill,
# before the sweeping fill mprotect+nosfill, and the comparison before
# December 2026 was mprotect+pinned.
#
# then tests/truth/rtreport compares them (the first is the baseline).
#
#   runtime.sh [--ci] [--runs N] [--only "CONFIG ..."] [--md FILE] [--reuse]
#
#   --ci      a short workload (20 s), kernel and mprotect, one run each;
#             the report goes to build/runtime-truth/ci/. Fails if the
#             harness breaks, never on the figures.
#   --runs N  runs of each configuration (default 1), interleaved
#   --only    a subset of the configurations
#   --md      the file whose generated section is rewritten (default
#             docs/RUNTIME-RESULTS.md; its plots go to docs/runtime/)
#   --reuse   keep the runs already there (their console.txt): report only
#
# Expects build/truth/truth-guest and build/truth/rtreport (the Makefile
# builds them).
set -eu

cd "$(dirname "$0")/../.."
root=$(pwd)
out=${RT_TRUTH_OUT:-$root/build/runtime-truth}
guest=${TRUTH_GUEST:-$root/build/truth/truth-guest}
report=${RT_REPORT:-$root/build/truth/rtreport}
runs=1
ci=0
reuse=0
only="kernel mprotect uffd"
md=$root/docs/RUNTIME-RESULTS.md

while [ $# -gt 0 ]; do
	case $1 in
	--ci) ci=1 ;;
	--runs) runs=$2; shift ;;
	--only) only=$2; shift ;;
	--md) md=$2; shift ;;
	--reuse) reuse=1 ;;
	*) echo "usage: $0 [--ci] [--runs N] [--only LIST] [--md FILE] [--reuse]" >&2
	   exit 2 ;;
	esac
	shift
done

for f in "$guest" "$report"; do
	[ -x "$f" ] || { echo "runtime-truth: $f is missing (make runtime-truth)" >&2; exit 1; }
done

# 600 MiB, a Gaussian over the pages (sigma = pages / 8, 25 % writes), on
# 512 MiB of DRAM; the first touch puts all but the first 0.1 % on node 1.
# The workload runs on CPU 0 in every configuration; the runtime's threads
# run on both CPUs (pinned: on CPU 0 with it); the sampler and kswapd have
# CPU 1.
dram=512
pmem=1024
args="-w pmbench --pages 153600 --accesses 1000000000 --write-frac 0.25"
args="$args --sigma 0.125 --init-fast 0.001 --max-seconds 90"
args="$args --sample-ms 3000 --node-map --cpu 0"
svgdir=$(dirname "$md")/runtime
svgref=runtime/
if [ $ci -eq 1 ]; then
	out=$out/ci
	only="kernel mprotect"
	runs=1
	dram=384
	args="-w pmbench --pages 65536 --accesses 1000000000 --write-frac 0.25"
	args="$args --sigma 0.125 --init-fast 0.001 --max-seconds 20"
	args="$args --sample-ms 2000 --node-map --cpu 0"
	md=$out/RUNTIME.md
	svgdir=$out/runtime
fi
# The emulated CPU: qemu's "max" (RT_CPU for every run; the nopku variant
# takes protection keys out for one configuration). With them the guest
# kernel writes PKRU on each signal it delivers, and qemu answers with a
# whole flush of its software TLB: the runtime's hint faults pay it, the
# kernel's take no signal (docs/RUNTIME-SPEED.md, "qemu's software TLB").
cpu_model=${RT_CPU:-max}
# RT_GUEST_ARGS: more truth-guest options for every run (--cpu 0, say).
args="$args ${RT_GUEST_ARGS:-}"
mkdir -p "$out"
[ $ci -eq 0 ] || : >"$md"

boot() {
	d=$1
	nb=$2
	shift 2
	TRUTH_NUMA_BALANCING=$nb TRUTH_DRAM_MB=$dram TRUTH_PMEM_MB=$pmem \
		TRUTH_CPU=$cpu TRUTH_TLB_STATS=1 TRUTH_GUEST="$guest" \
		tests/truth/boot.sh "$d" -- "$@" && return 0
	echo "runtime-truth: the boot failed (console kept as $d.failed.txt)" >&2
	cp "$d/console.txt" "$d.failed.txt" 2>/dev/null || true
	return 1
}

t_start=$(date +%s)
list=""
i=1
while [ $i -le "$runs" ]; do
	for c in $only; do
		cpu=$cpu_model
		case $c in
		kernel) nb=2; extra="" ;;
		kernel+*)
			# The kernel's run with variants: sigN, an empty
			# signal handler run N times a second (what signals
			# alone cost); selfN, the same signals raised by the
			# workload itself; flushN (below); nopku.
			nb=2; extra=""
			for o in $(echo "${c#kernel+}" | tr '+' ' '); do
				case $o in
				sig*[!0-9]*|sig|self*[!0-9]*|self|flush*[!0-9]*|flush)
					echo "runtime-truth: unknown variant $o of $c" >&2
					exit 2 ;;
				flush*) extra="$extra --tlb-flush-ms ${o#flush}" ;;
				sig*) extra="$extra --signal-hz ${o#sig}" ;;
				self*) extra="$extra --signal-hz ${o#self}"
				       extra="$extra --signal-self" ;;
				nopku) cpu=$cpu_model,-pku ;;
				*) echo "runtime-truth: unknown variant $o of $c" >&2
				   exit 2 ;;
				esac
			done ;;
		mprotect*|uffd*)
			nb=0
			extra="--runtime ${c%%+*}"
			cpus="--rt-cpus-all"
			# Variants: mprotect+block+wall, say (runtime.sh's header).
			rest=${c#"${c%%+*}"}
			for o in $(echo "$rest" | tr '+' ' '); do
				case $o in
				page|block|fault) extra="$extra --rt-decide $o" ;;
				cpu|wall) extra="$extra --rt-clock $o" ;;
				ring) extra="$extra --rt-ring" ;;
				nodefer) extra="$extra --rt-no-defer" ;;
				defer) extra="$extra --rt-defer" ;;
				victims) extra="$extra --rt-victims" ;;
				recheck) extra="$extra --rt-recheck" ;;
				rfill) extra="$extra --rt-recheck-fill" ;;
				norecheck) extra="$extra --rt-no-recheck" ;;
				sfill) extra="$extra --rt-sweep-fill" ;;
				nosfill) extra="$extra --rt-no-sweep-fill" ;;
				s[0-9]*) extra="$extra --rt-sample-shift ${o#s}" ;;
				d[0-9]*) extra="$extra --rt-defer-shift ${o#d}" ;;
				r[0-9]*) extra="$extra --rt-room-batches ${o#r}" ;;
				q[0-9]*) extra="$extra --rt-batch ${o#q}" ;;
				free) cpus="--rt-cpus-all" ;;
				pinned) cpus="" ;;
				other) cpus="--rt-cpus-other" ;;
				b[0-9]*) extra="$extra --rt-block ${o#b}" ;;
				flush[0-9]*) extra="$extra --tlb-flush-ms ${o#flush}" ;;
				nopku) cpu=$cpu_model,-pku ;;
				*) echo "runtime-truth: unknown variant $o of $c" >&2
				   exit 2 ;;
				esac
			done
			extra="$extra $cpus"
			case ${c%%+*} in
			mprotect|uffd) ;;
			*) echo "runtime-truth: unknown configuration $c" >&2
			   exit 2 ;;
			esac ;;
		*) echo "runtime-truth: unknown configuration $c" >&2; exit 2 ;;
		esac
		label=$c
		[ "$runs" -eq 1 ] || label=$c-$i
		d=$out/$label
		echo "runtime-truth: == $label =="
		if [ $reuse -eq 0 ] || [ ! -s "$d/console.txt" ]; then
			rm -rf "$d"
			# shellcheck disable=SC2086 # options, no spaces
			boot "$d" $nb $args $extra || boot "$d" $nb $args $extra
		fi
		list="$list $label=$d"
	done
	i=$((i + 1))
done

# The plots show the first round; the table every run.
# shellcheck disable=SC2086 # labels and directories, no spaces
"$report" --md "$md" --svg-dir "$svgdir" --svg-ref "$svgref" \
	--plot "$(echo $only | wc -w)" $list
echo "runtime-truth: done in $(($(date +%s) - t_start))s; report: $md"
