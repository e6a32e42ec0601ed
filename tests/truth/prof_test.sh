#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# tests/truth/prof_test.sh: tests/truth/prof.pl on a console made up here
# (two windows of a TRUTH_PROF run, what tests/truth/boot.sh prints), then
# on its bad input. Exits non-zero on the first difference.
set -eu

cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "prof_test: FAILED: $*" >&2
	exit 1
}

# The program starts at 10.0 s of uptime; windows end at 13.0 and 16.0 s.
cat >"$tmp/c.txt" <<'EOF'
TRUTH init guest start up=10.00
TRUTH start kind=pmbench pages=1 mono_t0_us=10000000 pid=1
TRUTH prof window up=13.00
TRUTH prof # event histogram
TRUTH prof { common_pid: truth-guest     [       109], stacktrace:
TRUTH prof          hrtimer_interrupt+0xf4/0x210
TRUTH prof          __sysvec_apic_timer_interrupt+0x5a/0x110
TRUTH prof          sysvec_apic_timer_interrupt+0x69/0x90
TRUTH prof          asm_sysvec_apic_timer_interrupt+0x16/0x20
TRUTH prof } hitcount:         30
TRUTH prof { common_pid: truth-guest     [       109], stacktrace:
TRUTH prof          hrtimer_interrupt+0xf4/0x210
TRUTH prof          asm_sysvec_apic_timer_interrupt+0x16/0x20
TRUTH prof          vma_merge+0x10/0x300
TRUTH prof          mprotect_fixup+0x10/0x300
TRUTH prof          do_mprotect_pkey+0x10/0x300
TRUTH prof          __x64_sys_mprotect+0x10/0x30
TRUTH prof          do_syscall_64+0x5d/0xb0
TRUTH prof          entry_SYSCALL_64_after_hwframe+0x6e/0xd8
TRUTH prof } hitcount:         10
TRUTH prof { common_pid: tprt-migrate    [       112], stacktrace:
TRUTH prof          asm_sysvec_apic_timer_interrupt+0x16/0x20
TRUTH prof          clear_page_erms+0x7/0x10
TRUTH prof } hitcount:          5
TRUTH prof window up=16.00
TRUTH prof { common_pid: truth-guest     [       109], stacktrace:
TRUTH prof          asm_sysvec_apic_timer_interrupt+0x16/0x20
TRUTH prof          change_protection+0x10/0x300
TRUTH prof          mprotect_fixup+0x10/0x300
TRUTH prof          do_mprotect_pkey+0x10/0x300
TRUTH prof          __x64_sys_mprotect+0x10/0x30
TRUTH prof          do_syscall_64+0x5d/0xb0
TRUTH prof          entry_SYSCALL_64_after_hwframe+0x6e/0xd8
TRUTH prof } hitcount:          6
TRUTH prof { common_pid: truth-guest     [       109], stacktrace:
TRUTH prof          asm_sysvec_apic_timer_interrupt+0x16/0x20
TRUTH prof } hitcount:          4
EOF

p="perl tests/truth/prof.pl"
out=$($p "$tmp/c.txt")
echo "$out" | grep -qx 'windows 0.0 to 6.0 s from the program.s start' ||
	fail "span: $out"
echo "$out" | grep -qx 'ticks by thread: truth-guest=50 tprt-migrate=5' ||
	fail "by thread: $out"
echo "$out" | grep -qx 'truth-guest: 50 ticks' || fail "total: $out"
# Outermost three frames: both mprotect chains are one line.
echo "$out" | grep -qx '     34  68.0% (user)' || fail "user: $out"
echo "$out" | grep -qx '     16  32.0% entry_SYSCALL_64_after_hwframe > do_syscall_64 > __x64_sys_mprotect' ||
	fail "outermost: $out"

# Innermost frame, the second window only.
out=$($p --depth 1 --from 3 "$tmp/c.txt")
echo "$out" | grep -qx 'windows 3.0 to 6.0 s from the program.s start' ||
	fail "--from span: $out"
echo "$out" | grep -qx '      6  60.0% change_protection' || fail "innermost: $out"
echo "$out" | grep -q 'vma_merge' && fail "--from kept the first window: $out"

out=$($p --thread tprt-migrate --depth 2 --to 3 "$tmp/c.txt")
echo "$out" | grep -qx '      5 100.0% clear_page_erms' || fail "--thread: $out"

# Bad input: each refused with a reason, none with output on stdout.
bad() {
	want=$1
	shift
	if $p "$@" >"$tmp/out" 2>"$tmp/err"; then
		fail "accepted: $*"
	fi
	[ ! -s "$tmp/out" ] || fail "output on stdout for: $*"
	grep -q "$want" "$tmp/err" || fail "no '$want' for $*: $(cat "$tmp/err")"
}
grep -v '^TRUTH prof' "$tmp/c.txt" >"$tmp/none.txt"
grep -v '^TRUTH start' "$tmp/c.txt" >"$tmp/nostart.txt"
bad 'no profile' "$tmp/none.txt"
bad 'no TRUTH start' "$tmp/nostart.txt"
bad 'no window inside' --from 100 "$tmp/c.txt"
bad 'no ticks of nobody' --thread nobody "$tmp/c.txt"
bad 'usage' --depth 0 "$tmp/c.txt"
bad 'usage' "$tmp/c.txt" "$tmp/c.txt"
bad 'No such file' "$tmp/missing.txt"
echo "prof_test: passed"
