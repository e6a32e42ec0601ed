#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# CI: the tierpol runtime (issue 17). Its unit tests already ran in "make
# check"; here they run under ASan + UBSan and TSan (make runtime-sanitize,
# about 15 s), then the comparison with the kernel's NUMA balancing in its
# short version (make runtime-truth-ci, about 3 minutes: the kernel's mode 2
# and the runtime, 20 s each, on the kernel-truth qemu machine), and the
# report's table over the rounds on those two runs, and the guest's
# profile of them (TRUTH_PROF, tests/truth/prof.pl, which
# tests/truth/prof_test.sh tests first). Fails if the harness breaks,
# never on the figures. As root on Debian it installs
# what it needs first (the packages of .ci/kernel-truth.sh, clang and
# CMocka).
set -eu

cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
release=${TRUTH_RELEASE:-6.1.0-57-amd64}

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "runtime: installing the packages"
	apt-get install -y -qq --no-install-recommends gcc clang make \
		libc6-dev libcmocka-dev qemu-system-x86 busybox-static cpio \
		ndctl daxctl kmod >/dev/null || {
		apt-get update -qq || true
		apt-get install -y -qq --no-install-recommends gcc clang make \
			libc6-dev libcmocka-dev qemu-system-x86 busybox-static \
			cpio ndctl daxctl kmod >/dev/null
	}
	[ -e "/boot/vmlinuz-$release" ] ||
		apt-get install -y -qq --no-install-recommends \
			"linux-image-$release" >/dev/null
fi

make -s runtime-sanitize
TRUTH_PROF=0 TRUTH_RELEASE=$release make -s runtime-truth-ci

# truth-guest --signal-hz (the kernel's runs with empty signals): bad
# values refused with the usage (exit 2); on this machine, a short run
# reports as many signals as its timer can have sent, and some.
for bad in "--signal-hz 0" "--signal-hz x" "--signal-hz 100001" \
	   "--signal-hz 4294967297" "--signal-self" \
	   "--signal-self --signal-hz 10 --threads 2" "--tlb-flush-ms 0" \
	   "--tlb-flush-ms 60001" "--tlb-flush-ms 10 --threads 2"; do
	# shellcheck disable=SC2086 # the options, split
	if build/truth/truth-guest $bad >/dev/null 2>&1 || [ $? -ne 2 ]; then
		echo "runtime: truth-guest $bad not refused" >&2
		exit 1
	fi
done
sig_out=${RT_TRUTH_OUT:-build/runtime-truth}/signals.txt
build/truth/truth-guest -w pmbench --pages 4096 --accesses 400000000 \
	--max-seconds 1 --signal-hz 1000 >"$sig_out"
build/truth/truth-guest -w pmbench --pages 4096 --accesses 400000000 \
	--max-seconds 1 --signal-hz 1000 --signal-self >>"$sig_out"
# Both runs (a timer's, then the workload's own): each line checked.
awk '/^TRUTH signals / { split($4, v, "="); n[++k] = v[2] }
     /^TRUTH done / { split($3, t, "="); ms[++d] = t[2] }
     END {
	for (i = 1; i <= 2; i++)
		if (k != 2 || d != 2 || n[i] < 1 || n[i] > ms[i] + 1) {
			print "runtime: --signal-hz 1000, run " i ": " n[i] \
			      " signals in " ms[i] " ms"
			exit 1
		}
	print "runtime: --signal-hz 1000: " n[1] " and " n[2] \
	      " signals in " ms[1] " and " ms[2] " ms"
     }' "$sig_out"

# --tlb-flush-ms 100 for 3 s: one kick every 100 ms after the first touch
# (the setup, 200 ms and more on a busy host, counts in the 3 s).
build/truth/truth-guest -w pmbench --pages 4096 --accesses 400000000 \
	--max-seconds 3 --tlb-flush-ms 100 >"$sig_out.flush"
awk '/^TRUTH tlbflush / { split($4, v, "="); n = v[2]; k++ }
     /^TRUTH done / { split($3, t, "="); ms = t[2] }
     END {
	if (k != 1 || n < 1 || n > ms / 100 + 1) {
		print "runtime: --tlb-flush-ms 100: " n " kicks in " ms " ms"
		exit 1
	}
	print "runtime: --tlb-flush-ms 100: " n " kicks in " ms " ms"
     }' "$sig_out.flush"

ci=${RT_TRUTH_OUT:-build/runtime-truth}/ci
# The default scanner sweeps while node 0 fills (TPRT_F_SWEEP_FILL): the
# short run starts with node 0 empty, so its first pass is such a pass.
awk '/^TRUTH runtime / { for (i = 2; i <= NF; i++) if ($i ~ /^sweep_fill=/)
				sf = substr($i, 12) }
     /^TRUTH rt / { for (i = 3; i <= NF; i++) if ($i ~ /^passes_fill=/)
			pf = substr($i, 13) }
     END {
	if (sf != "1" || pf + 0 < 1) {
		print "runtime: the CI run: sweep_fill=" sf ", passes_fill=" pf
		exit 1
	}
	print "runtime: the CI run swept " pf " pass(es) while node 0 filled"
     }' "$ci/mprotect/console.txt"

# rtreport's table over the rounds: the short comparison's two runs given
# as two identical rounds must give one line, for mprotect, over 2 rounds,
# each mean equal to its median, each goal met in 0 or 2 rounds, and the
# intervals of the means of no width, at the means.
build/truth/rtreport kernel-1="$ci/kernel" mprotect-1="$ci/mprotect" \
	kernel-2="$ci/kernel" mprotect-2="$ci/mprotect" >"$ci/rounds.txt"
awk -F'|' '
	$2 ~ /^ (kernel|mprotect) $/ && $3 ~ /^ [0-9]+ $/ {
		n++
		if ($2 != " mprotect " || $3 != " 2 ")
			bad = bad " wrong line: " $0
		for (i = 4; i <= 7; i++) {
			split($i, v, ", ")
			if (v[1] + 0 != v[2] + 0)
				bad = bad " mean and median differ: " $i
		}
		split($8, m, ", ")
		for (i = 1; i <= 4; i++)
			if (m[i] + 0 != 0 && m[i] + 0 != 2)
				bad = bad " a goal met in " m[i] " of 2 rounds"
		# "0.73x to 0.73x, +11.1 to +11.1" against the means
		if (split($9, ci, /x to |x, | to /) != 4)
			bad = bad " no interval: " $9
		split($4, rate, ", ")
		split($5, share, ", ")
		if (ci[1] + 0 != ci[2] + 0 || ci[1] + 0 != rate[1] + 0 ||
		    ci[3] + 0 != ci[4] + 0 || ci[3] + 0 != share[1] + 0)
			bad = bad " interval not at the mean: " $9
	}
	END {
		if (n != 1 || bad != "") {
			print "runtime: rtreport over the rounds:" bad \
			      " (" n + 0 " lines)"
			exit 1
		}
		print "runtime: rtreport over the rounds: one line, as expected"
	}' "$ci/rounds.txt"

# The interval with a spread: three rounds whose second gives the kernel's
# run as mprotect's (1.00x): the interval must be the mean +- Student's t
# (4.303 at two degrees of freedom) x s / sqrt(3), from the per-run ratios
# the same report prints (two decimals, so to within 0.02).
build/truth/rtreport kernel-1="$ci/kernel" mprotect-1="$ci/mprotect" \
	kernel-2="$ci/kernel" mprotect-2="$ci/kernel" \
	kernel-3="$ci/kernel" mprotect-3="$ci/mprotect" >"$ci/spread.txt"
awk -F'|' '
	$2 ~ /^ mprotect-[123] $/ { r[n++] = $4 + 0 }
	$2 == " mprotect " && $3 == " 3 " { split($9, ci, /x to |x, | to /) }
	END {
		if (n != 3 || !(1 in ci)) {
			print "runtime: rtreport with a spread: " n \
			      " runs, interval \"" ci[1] "\"" ; exit 1
		}
		m = (r[0] + r[1] + r[2]) / 3
		for (i = 0; i < 3; i++)
			ss += (r[i] - m) ^ 2
		h = 4.303 * sqrt(ss / 2 / 3)
		d1 = ci[1] - (m - h); d2 = ci[2] - (m + h)
		if (d1 < -0.02 || d1 > 0.02 || d2 < -0.02 || d2 > 0.02) {
			printf "runtime: rtreport interval %s to %s, " \
			       "expected %.2f to %.2f\n", ci[1], ci[2], \
			       m - h, m + h; exit 1
		}
		printf "runtime: rtreport interval %.2f to %.2f as " \
		       "expected\n", ci[1], ci[2]
	}' "$ci/spread.txt"

# The guest's profile (TRUTH_PROF=0: one histogram for the whole run, set
# for the short comparison above): tests/truth/prof.pl on a made-up
# console, then on the runs' own: ticks of the workload's thread in both,
# page faults (the first touch at least) among them.
sh tests/truth/prof_test.sh
for run in kernel mprotect; do
	perl tests/truth/prof.pl "$ci/$run/console.txt" >"$ci/prof-$run.txt"
	grep -q '^truth-guest: [1-9][0-9]* ticks$' "$ci/prof-$run.txt" &&
		grep -q 'asm_exc_page_fault' "$ci/prof-$run.txt" || {
		echo "runtime: prof.pl on the $run run:" >&2
		cat "$ci/prof-$run.txt" >&2
		exit 1
	}
done
echo "runtime: the guest's profile read back from both runs"
