#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# tests/truth/run.sh: the real-kernel ground truth (make kernel-truth,
# make kernel-truth-ci). For each scenario and run: boot the guest
# (tests/truth/boot.sh), turn its console into kernel.json and the measured
# machine into tiersim options (truth parse), run tiersim's mainline preset
# on that machine (tiersim.json), then compare all of them (truth report).
#
#   run.sh [--ci] [--runs N] [--only "SCENARIO ..."] [--md FILE] [--reuse]
#
#   --ci      one short scenario (gaussian-ci), one run; the report goes to
#             build/truth/ci/FIDELITY.md. Fails if the harness breaks (boot,
#             guest, parse, tiersim, report), never on fidelity.
#   --runs N  runs per scenario (default 2)
#   --only    a subset of the scenarios (default: all but gaussian-ci)
#   --md      where the report goes (default docs/FIDELITY.md, its plots in
#             docs/fidelity/)
#   --reuse   keep the kernel runs already there (their console.txt): only
#             parse them again and rerun tiersim (after a model change)
#
# Expects build/truth/truth-guest, build/truth/truth and the tiersim binary
# ($TIERSIM, default build/examples/tiersim): the Makefile builds them.
# TRUTH_PROG_MS (default 100; 0: none) is the guest's --prog-ms: its
# progress between the 2 s samples, which the speed profile follows
# (TRUTH_PROG=off at the parse leaves the lines out of it).
set -eu

cd "$(dirname "$0")/../.."
root=$(pwd)
out=${TRUTH_OUT:-$root/build/truth}
tiersim=${TIERSIM:-$root/build/examples/tiersim}
truth=$out/truth
runs=2
ci=0
reuse=0
only=""
md=$root/docs/FIDELITY.md
prog_ms=${TRUTH_PROG_MS:-100}

while [ $# -gt 0 ]; do
	case $1 in
	--ci) ci=1 ;;
	--runs) runs=$2; shift ;;
	--only) only=$2; shift ;;
	--md) md=$2; shift ;;
	--reuse) reuse=1 ;;
	*) echo "usage: $0 [--ci] [--runs N] [--only LIST] [--md FILE]" >&2
	   exit 2 ;;
	esac
	shift
done

for f in "$out/truth-guest" "$truth" "$tiersim"; do
	[ -x "$f" ] || { echo "truth: $f is missing (make kernel-truth)" >&2; exit 1; }
done

# ---- the scenarios --------------------------------------------------------
# NAME|DRAM MiB|NVDIMM MiB|truth-guest (and tiersim) workload options|title
# then description lines in scenario_about().
scenarios() {
	cat <<'EOF'
gaussian|768|1024|-w pmbench --pages 179200 --accesses 80000000 --write-frac 0.25 --sigma 0.125|Gaussian (issue 8's reference run)
phase-shift|768|1024|-w phase-shift --pages 256000 --accesses 80000000 --hot-frac 0.1 --hot-prob 0.9 --shift-at 0.5 --write-frac 0.25|Hot set that moves half way through
cold-burst|2048|1024|-w cold-burst --pages 196608 --accesses 60000000 --hot-frac 0.1 --hot-prob 1.0 --shift-at 0.5 --burst-pages 65536 --write-frac 0.1 --init-fast 0.15|Cold burst after a steady hot phase (free-space bypass on)
rate-limit|768|1024|-w pmbench --pages 179200 --accesses 80000000 --write-frac 0.25 --sigma 0.125 --rate-limit-mbps 1 --scan-period-max-ms 10000|Gaussian with the promotion rate limit binding
two-vmas|768|1024|-w disjoint-vma --pages 278528 --accesses 80000000 --threads 2|Two threads on two VMAs
thp|768|1024|-w pmbench --pages 179200 --accesses 80000000 --write-frac 0.25 --sigma 0.125 --thp|Gaussian on transparent huge pages
gaussian-ci|768|1024|-w pmbench --pages 179200 --accesses 25000000 --write-frac 0.25 --sigma 0.125|Gaussian, short (CI)
EOF
}

scenario_about() {
	case $1 in
	gaussian) cat <<'EOF'
700 MiB with a Gaussian address distribution (sigma = pages / 8, 25 %
writes), first touched in address order: node 0 fills up, the upper tail
lands on node 1. Hint faults come from the slow tier's pages, promotions
are decided by the hot threshold and rate limit, and kswapd demotes to make
room: the steady state of a workload larger than the fast tier.
EOF
		;;
	phase-shift) cat <<'EOF'
1000 MiB, 90 % of the accesses to a 100 MiB hot set, the rest uniform; half
way through, the hot set moves to pages that the first touch put on node 1.
The first half is quiet (the hot set is on node 0); the second measures how
fast the kernel finds the new hot set and how much it demotes for it.
EOF
		;;
	cold-burst) cat <<'EOF'
768 MiB on a machine with 2 GiB of DRAM: 85 % of the data starts on node 1
(the initialisation pass binds to node 1 after 15 %, as if reclaimed there),
a steady phase reads only a 10 % hot key set, then a burst reads 256 MiB of
cold keys once each, then the hot phase resumes. Node 0 keeps more than
1 GiB free, so 6.1's free-space bypass (pgdat_free_space_enough()) promotes
every slow page that faults, the burst included: the bypass knob's
(2026) situation with the bypass on (6.1 has no knob to turn it off).
EOF
		;;
	rate-limit) cat <<'EOF'
The Gaussian scenario with numa_balancing_promote_rate_limit_MBps at 1
MB/s (256 pages a second), which the promotions would otherwise exceed, and
numa_balancing_scan_period_max_ms at 10 s, the adaptive threshold's period:
more candidates than the limit's share of a period lowers the hot
threshold a step (125 ms) every 10 s.
EOF
		;;
	two-vmas) cat <<'EOF'
Two threads, each in a VMA of its own (64 MiB and 1 GiB, the 2023 RFC's
shape): the first runs alone on the small VMA, then the second populates
the large one and both run, 90 % of the second's accesses to the last
quarter of its VMA. Each thread has its own clock in tiersim; in the guest
they share the two vCPUs with kswapd and the sampler.
EOF
		;;
	thp) cat <<'EOF'
The Gaussian scenario on transparent huge pages (MADV_HUGEPAGE): the
scanner marks, faults promote and kswapd demotes 2 MiB folios.
EOF
		;;
	gaussian-ci) cat <<'EOF'
The Gaussian scenario, shortened to 25 M accesses: CI's end-to-end check
that the harness works (it never fails on fidelity).
EOF
		;;
	esac
}

if [ $ci -eq 1 ]; then
	only=gaussian-ci
	runs=1
	md=$out/ci/FIDELITY.md
	svgdir=$out/ci/fidelity
	svgref=fidelity/
	[ $reuse -eq 1 ] || rm -rf "$out/ci"
	mkdir -p "$out/ci"
else
	[ -n "$only" ] || only="gaussian phase-shift cold-burst rate-limit two-vmas thp"
	svgdir=$(dirname "$md")/fidelity
	svgref=fidelity/
fi

boot() {
	d=$1
	dm=$2
	pm=$3
	shift 3
	TRUTH_DRAM_MB=$dm TRUTH_PMEM_MB=$pm TRUTH_GUEST="$out/truth-guest" \
		tests/truth/boot.sh "$d" -- "$@" && return 0
	echo "truth: the boot failed (console kept as $d.failed.txt)" >&2
	cp "$d/console.txt" "$d.failed.txt" 2>/dev/null || true
	return 1
}

t_start=$(date +%s)
dirs=""
for name in $only; do
	line=$(scenarios | grep "^$name|") || {
		echo "truth: unknown scenario $name" >&2
		exit 2
	}
	dram=$(echo "$line" | cut -d'|' -f2)
	pmem=$(echo "$line" | cut -d'|' -f3)
	args=$(echo "$line" | cut -d'|' -f4)
	title=$(echo "$line" | cut -d'|' -f5)
	sdir=$out/$name
	[ $ci -eq 0 ] || sdir=$out/ci/$name
	[ $reuse -eq 1 ] || rm -rf "$sdir"
	mkdir -p "$sdir"
	{ echo "$title"; scenario_about "$name"; } >"$sdir/scenario.txt"
	i=1
	while [ $i -le "$runs" ]; do
		rdir=$sdir/run$i
		echo "truth: == $name, run $i of $runs =="
		if [ $reuse -eq 0 ] || [ ! -s "$rdir/console.txt" ]; then
			# One retry: software emulation on a shared host has
			# hung once in many boots; a second failure is real.
			boot "$rdir" $dram $pmem $args --prog-ms $prog_ms ||
				boot "$rdir" $dram $pmem $args \
					--prog-ms $prog_ms
		fi
		"$truth" parse "$rdir/console.txt" "$rdir"
		# The CI run checks the guest's progress lines end to end:
		# there, with kswapd's figures (its pid found, its time read).
		if [ $ci -eq 1 ] && [ "$prog_ms" -gt 0 ] &&
			! grep -Eq '^TRUTH prog .* kswapd_cpu_ms=[0-9]' \
				"$rdir/console.txt"; then
			echo "truth: FAILED: no progress line with kswapd's" \
				"figures in $rdir/console.txt" >&2
			exit 1
		fi
		# shellcheck disable=SC2046 # one option a line, no spaces
		"$tiersim" $(cat "$rdir/tiersim.args") -q -j 1 \
			--json "$rdir/tiersim.json"
		i=$((i + 1))
	done
	dirs="$dirs $sdir"
done

mkdir -p "$(dirname "$md")"
# shellcheck disable=SC2086 # the scenario directories, no spaces
"$truth" report --md "$md" --svg-dir "$svgdir" --svg-ref "$svgref" \
	--notes tests/truth/notes.md $dirs
echo "truth: done in $(($(date +%s) - t_start))s; report: $md"
