#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# make kcheck: boot Debian's kernel under qemu with a busybox initramfs that
# loads tierpol.ko and tierpol_test.ko, then check the self-test's KTAP.
# When make kmod-example built them (make kcheck does), the example module
# is loaded both ways first: tpdemo-vendored.ko alone, before tierpol.ko
# (it needs nothing else), removed, then tpdemo.ko after tierpol.ko (it
# takes tierpol's functions from it); each must report its decisions.
# Run "make kmod" first (make kcheck does). Fails on any "not ok", a missing
# plan or summary, a plan/result mismatch, a failed insmod, an Oops, BUG,
# WARNING, Call Trace or panic, a taint other than the expected O (out-of-tree)
# and E (unsigned module), or the timeout.
#
#   VMLINUZ         kernel image (default /boot/vmlinuz-<the modules' release>)
#   KCHECK_TIMEOUT  seconds before qemu is killed (default 100)
#   KCHECK_ACCEL    qemu accelerator (default tcg: software emulation)
#   BUSYBOX         a static busybox (default /bin/busybox)
# Writes build/kcheck/{initramfs.cpio.gz,console.log,ktap.txt}.
set -eu

cd "$(dirname "$0")/.."
root=$(pwd)
out=$root/build/kcheck
release=$(cat "$root/build/kmod/release" 2>/dev/null || true)
timeout_s=${KCHECK_TIMEOUT:-100}
accel=${KCHECK_ACCEL:-tcg}
busybox=${BUSYBOX:-/bin/busybox}

die() {
	echo "kcheck: FAILED: $*" >&2
	exit 1
}

for ko in tierpol.ko tierpol_test.ko; do
	[ -f "$root/build/kmod/$ko" ] || die "$ko is missing: run make kmod"
done
[ -n "$release" ] || die "build/kmod/release is missing: run make kmod"
vmlinuz=${VMLINUZ:-/boot/vmlinuz-$release}
[ -r "$vmlinuz" ] || die "no kernel image $vmlinuz for the modules' release" \
	"$release (Debian: apt-get install linux-image-$release)"
command -v qemu-system-x86_64 >/dev/null ||
	die "qemu-system-x86_64 is missing (Debian: apt-get install qemu-system-x86)"
command -v cpio >/dev/null || die "cpio is missing (apt-get install cpio)"
[ -x "$busybox" ] || die "$busybox is missing (apt-get install busybox-static)"
if readelf -l "$busybox" 2>/dev/null | grep -q INTERP; then
	die "$busybox is dynamically linked (apt-get install busybox-static)"
fi

# ---- the initramfs --------------------------------------------------------
rm -rf "$out"
mkdir -p "$out/root/bin" "$out/root/dev" "$out/root/proc" "$out/root/sys"
cp "$busybox" "$out/root/bin/busybox"
steps="tierpol tierpol_test"
if [ -f "$root/build/kmod/tpdemo.ko" ] &&
	[ -f "$root/build/kmod/tpdemo-vendored.ko" ]; then
	steps="tpdemo-vendored rmmod:tpdemo tierpol tierpol_test tpdemo"
fi
for m in $steps; do
	case $m in
	rmmod:*) ;;
	*) cp "$root/build/kmod/$m.ko" "$out/root/" ;;
	esac
done
echo "$steps" >"$out/root/steps"
cat >"$out/root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc none /proc
mount -t sysfs none /sys
mount -t devtmpfs none /dev
log() { echo "tierpol-kcheck: $*" >/dev/kmsg; }
log "boot tainted=$(cat /proc/sys/kernel/tainted)"
for m in $(cat /steps); do
	case $m in
	rmmod:*)
		rmmod "${m#rmmod:}"
		log "rmmod ${m#rmmod:} rc=$?"
		;;
	*)
		log "insmod $m.ko"
		insmod /$m.ko
		log "insmod $m.ko rc=$?"
		;;
	esac
done
log "done tainted=$(cat /proc/sys/kernel/tainted)"
poweroff -f
INIT
chmod +x "$out/root/init"
(cd "$out/root" && find . | sort | cpio -o -H newc --quiet -R 0:0) |
	gzip -1 >"$out/initramfs.cpio.gz"

# ---- boot -------------------------------------------------------------------
echo "kcheck: booting $vmlinuz ($release) under qemu-system-x86_64" \
	"(accel $accel, timeout ${timeout_s}s)"
t0=$(date +%s)
rc=0
timeout -k 5 "$timeout_s" qemu-system-x86_64 -nographic -no-reboot \
	-accel "$accel" -cpu max -smp 2 -m 512M -nodefaults -serial stdio \
	-kernel "$vmlinuz" -initrd "$out/initramfs.cpio.gz" \
	-append "console=ttyS0 panic=-1 loglevel=7 printk.time=0 mitigations=off" \
	</dev/null >"$out/console.log" 2>&1 || rc=$?
t1=$(date +%s)
tr -d '\r' <"$out/console.log" >"$out/console.txt"
echo "kcheck: qemu exited $rc after $((t1 - t0))s, console: $out/console.log"
[ $rc -eq 124 ] || [ $rc -eq 137 ] && {
	tail -n 30 "$out/console.txt" >&2
	die "timeout after ${timeout_s}s"
}

# ---- parse --------------------------------------------------------------------
# The self-test's output: after the insmod of tierpol_test.ko, from the
# version line to the first summary (busybox's insmod retries a module whose
# init failed with init_module(), which would print the results twice).
awk '/tierpol-kcheck: insmod tierpol_test.ko$/ { on = 1; next }
	on && /^KTAP version / { ktap = 1 }
	ktap && /^(KTAP version|[0-9]+\.\.[0-9]+$|(not )?ok [0-9]+ |#)/ { print }
	ktap && /^# Totals: / { exit }' "$out/console.txt" >"$out/ktap.txt"
cat "$out/ktap.txt"

fail=0
bad() {
	echo "kcheck: $*" >&2
	fail=1
}
grep -q '^KTAP version 1$' "$out/ktap.txt" || bad "no 'KTAP version 1' line"
plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$out/ktap.txt" | head -n 1)
[ -n "$plan" ] || bad "no plan line"
nok=$(grep -c '^ok [0-9]' "$out/ktap.txt" || true)
nnot=$(grep -c '^not ok [0-9]' "$out/ktap.txt" || true)
nskip=$(grep -c '^ok [0-9][0-9]* - .* # SKIP' "$out/ktap.txt" || true)
[ "$nnot" -eq 0 ] || bad "$nnot cases not ok"
[ -n "$plan" ] && [ "$((nok + nnot))" -ne "$plan" ] &&
	bad "plan 1..$plan but $((nok + nnot)) results"
# Results numbered 1, 2, 3, ... in order.
awk '/^(not )?ok [0-9]/ { n++; id = $1 == "ok" ? $2 : $3;
	if (id != n) { print "kcheck: result " n " is numbered " id; bad = 1 } }
	END { exit bad }' "$out/ktap.txt" >&2 || fail=1
totals=$(grep '^# Totals: ' "$out/ktap.txt" || true)
want="pass:$((nok - nskip)) fail:$nnot xfail:0 xpass:0 skip:$nskip error:0"
if [ -z "$totals" ]; then
	bad "no '# Totals:' summary line"
elif [ "$totals" != "# Totals: $want" ]; then
	bad "summary '$totals' does not match $nok ok ($nskip skipped), $nnot not ok"
fi
for m in $steps; do
	case $m in
	rmmod:*)
		grep -q "tierpol-kcheck: rmmod ${m#rmmod:} rc=0$" \
			"$out/console.txt" || bad "rmmod ${m#rmmod:} failed"
		;;
	*)
		grep -q "tierpol-kcheck: insmod $m.ko rc=0$" \
			"$out/console.txt" || bad "insmod $m.ko failed or did not run"
		;;
	esac
done
case $steps in
*tpdemo*)
	for how in vendored tierpol.ko; do
		line=$(grep "tpdemo: tierpol .* ($how): [1-9][0-9]* pages" \
			"$out/console.txt" || true)
		if [ -z "$line" ]; then
			bad "the example module ($how) reported no decisions"
		else
			echo "kcheck: example: ${line#*tpdemo: }"
		fi
	done
	;;
esac
splats='Oops|BUG:|kernel BUG|WARNING:|Call Trace|Kernel panic|RIP: '
splats="$splats|general protection fault|UBSAN|KASAN|stack-protector"
splats="$splats|soft lockup|hung_task|Hardware Error"
splat=$(grep -n -E "$splats" "$out/console.txt" || true)
[ -z "$splat" ] || bad "kernel splat in the console log:
$splat"
# Taint: only O (4096, out-of-tree) and E (8192, unsigned module) expected.
taint=$(sed -n 's/.*tierpol-kcheck: done tainted=\([0-9]*\)$/\1/p' \
	"$out/console.txt" | head -n 1)
if [ -z "$taint" ]; then
	bad "the init script did not finish"
elif [ $((taint & ~(4096 | 8192))) -ne 0 ]; then
	bad "kernel tainted=$taint (beyond O/E: 4096/8192)"
fi
grep -q 'reboot: Power down' "$out/console.txt" || bad "no clean power-off"

if [ $fail -ne 0 ]; then
	echo "kcheck: FAILED (console: $out/console.log)" >&2
	exit 1
fi
[ "$nskip" -eq 0 ] || echo "kcheck: $nskip vector files skipped (TP_ST_SKIP):" \
	"$(sed -n 's/^ok [0-9]* - \(.*\) # SKIP.*/\1/p' "$out/ktap.txt" | tr '\n' ' ')"
echo "kcheck: $((nok - nskip))/$plan passed in-kernel ($release, tainted=$taint," \
	"$((t1 - t0))s in qemu)"
