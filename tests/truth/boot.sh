#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# tests/truth/boot.sh: one run of one workload on the real kernel's memory
# tiering (make kernel-truth, docs/FIDELITY.md). Boots Debian's 6.1 kernel
# under qemu-system-x86_64 with two NUMA nodes: node 0, DRAM with the CPUs,
# and node 1, an emulated NVDIMM onlined as system RAM through device-dax and
# kmem, which the kernel puts in a lower memory tier. Then NUMA balancing
# mode 2 (memory tiering) promotes and demotes for real while truth-guest
# (tests/truth/guest.c, built from tiersim's own workload generator) runs
# the workload and prints the kernel's counters.
#
#   boot.sh OUTDIR -- GUEST-ARGS...
#
# Writes OUTDIR/console.log (raw), OUTDIR/console.txt (without CRs). Fails
# if the memory tiers are not set up, the guest program fails, the kernel
# splats, or qemu times out. The environment:
#
#   VMLINUZ          kernel image (default /boot/vmlinuz-$TRUTH_RELEASE)
#   TRUTH_RELEASE    kernel release (default 6.1.0-57-amd64, or the newest
#                    installed 6.1 one)
#   TRUTH_GUEST      the static guest program (default build/truth/truth-guest)
#   TRUTH_DRAM_MB    node 0 size (default 768)
#   TRUTH_PMEM_MB    node 1 size (default 1024)
#   TRUTH_TIMEOUT    seconds before qemu is killed (default 600)
#   TRUTH_ACCEL      qemu accelerator (default tcg: software emulation)
#   TRUTH_NUMA_BALANCING  kernel.numa_balancing in the guest (default 2:
#                    memory tiering; 0 for the runtime comparison)
#   TRUTH_CPU        qemu's -cpu model (default max)
#   TRUTH_TLB_STATS  non-empty: count qemu's flushes of its software TLB
#                    (tests/truth/qemu_tlb.pl on qemu's monitor socket, into
#                    OUTDIR/qemu-tlb.log; the last count as qemu_tlb_flushes
#                    on the TRUTH host line)
#   TRUTH_TLB_HIST   non-empty: histograms of the guest kernel's own TLB
#                    flushes (the tlb_flush tracepoint by reason and size,
#                    and the call chains of whole flushes), printed as
#                    "TRUTH tlbhist" lines
#   TRUTH_PROF       N: a profile of the guest's kernel: at each timer tick
#                    (250 Hz a busy CPU) the interrupted thread's name and
#                    kernel call chain, counted in a histogram, one per
#                    window of N seconds (0: one for the whole run), printed
#                    as "TRUTH prof" lines after the run. A tick that
#                    interrupted user mode shows the interrupt's frames only.
#                    tests/truth/prof.pl sums them.
#   TRUTH_KPROBES    non-empty: trace the THP hint faults
#                    (do_huge_pmd_numa_page(), with the fault address), the
#                    result of each migrate_misplaced_page(), kswapd's
#                    wakeups and sleeps and every migrate_pages() batch, and
#                    the workload's access count every 2 ms (the guest
#                    writes it to the trace's marker), all on one clock,
#                    printed as "TRUTH ktrace" lines after the run
#   BUSYBOX          a static busybox (default /bin/busybox)
set -eu

cd "$(dirname "$0")/../.."
root=$(pwd)
[ $# -ge 2 ] && [ "$2" = "--" ] || {
	echo "usage: $0 OUTDIR -- GUEST-ARGS..." >&2
	exit 2
}
out=$1
shift 2

die() {
	echo "truth: FAILED: $*" >&2
	exit 1
}

release=${TRUTH_RELEASE:-}
if [ -z "$release" ]; then
	release=6.1.0-57-amd64
	if [ ! -d "/lib/modules/$release/kernel" ]; then
		release=$(ls -d /lib/modules/6.1.*-amd64/kernel 2>/dev/null |
			sort -V | tail -n 1 | cut -d/ -f4)
	fi
fi
[ -n "$release" ] || die "no Debian 6.1 kernel modules in /lib/modules" \
	"(apt-get install linux-image-6.1.0-57-amd64)"
vmlinuz=${VMLINUZ:-/boot/vmlinuz-$release}
moddir=/lib/modules/$release
guest=${TRUTH_GUEST:-$root/build/truth/truth-guest}
dram=${TRUTH_DRAM_MB:-768}
pmem=${TRUTH_PMEM_MB:-1024}
timeout_s=${TRUTH_TIMEOUT:-600}
accel=${TRUTH_ACCEL:-tcg}
busybox=${BUSYBOX:-/bin/busybox}
numa_balancing=${TRUTH_NUMA_BALANCING:-2}

[ -r "$vmlinuz" ] || die "no kernel image $vmlinuz" \
	"(apt-get install linux-image-$release)"
[ -d "$moddir/kernel" ] || die "no modules in $moddir"
command -v qemu-system-x86_64 >/dev/null ||
	die "qemu-system-x86_64 is missing (apt-get install qemu-system-x86)"
command -v cpio >/dev/null || die "cpio is missing (apt-get install cpio)"
for t in ndctl daxctl; do
	command -v $t >/dev/null || die "$t is missing (apt-get install $t)"
done
[ -x "$busybox" ] || die "$busybox is missing (apt-get install busybox-static)"
if readelf -l "$busybox" 2>/dev/null | grep -q INTERP; then
	die "$busybox is dynamically linked (apt-get install busybox-static)"
fi
[ -x "$guest" ] || die "$guest is missing (make kernel-truth builds it)"

# ---- the initramfs --------------------------------------------------------
mkdir -p "$out"
rfs=$out/root
rm -rf "$rfs"
mkdir -p "$rfs/bin" "$rfs/dev" "$rfs/proc" "$rfs/sys" "$rfs/run" \
	"$rfs/tmp" "$rfs/etc" "$rfs/lib/modules/$release"
cp "$busybox" "$rfs/bin/busybox"
cp "$guest" "$rfs/bin/truth-guest"

# Debian's ndctl and daxctl with their shared libraries (ldd) and loader.
for t in ndctl daxctl; do
	bin=$(command -v $t)
	cp "$bin" "$rfs/bin/$t"
	ldd "$bin" | awk '/=> \// { print $3 } /^\t\/[^ ]+ \(/ { print $1 }' |
		while read -r lib; do
			mkdir -p "$rfs$(dirname "$lib")"
			cp -L "$lib" "$rfs$lib"
		done
done
# /lib64 -> the loader's real directory, as on Debian (merged /usr).
if [ -L /lib64 ] && [ ! -e "$rfs/lib64" ]; then
	ln -s "$(readlink /lib64)" "$rfs/lib64"
fi

# The modules and their dependencies (modinfo's "depends", recursively),
# with the module index files busybox's modprobe and libkmod read.
mods="nfit nd_pmem dax_pmem device_dax kmem"
need=""
add_mod() {
	case " $need " in *" $1 "*) return ;; esac
	for d in $(modinfo -k "$release" -F depends "$1" | tr ',' ' '); do
		add_mod "$d"
	done
	need="$need $1"
}
for m in $mods; do
	add_mod "$m"
done
for m in $need; do
	f=$(modinfo -k "$release" -F filename "$m")
	mkdir -p "$rfs$(dirname "$f")"
	cp "$f" "$rfs$f"
done
cp "$moddir"/modules.* "$rfs/lib/modules/$release/"

cat >"$rfs/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc none /proc
mount -t sysfs none /sys
mount -t devtmpfs none /dev
mount -t debugfs none /sys/kernel/debug
mount -t tmpfs none /run
say() { echo "TRUTH init \$*"; }
fail() { echo "TRUTH fail \$*"; poweroff -f; }
for m in $mods; do
	modprobe \$m || fail "modprobe \$m"
done
ndctl create-namespace -f -e namespace0.0 -m devdax --map=mem >/run/ns.json ||
	fail "ndctl create-namespace"
daxctl reconfigure-device --mode=system-ram dax0.0 >/run/dax.json ||
	fail "daxctl reconfigure-device"
echo 1 >/sys/kernel/mm/numa/demotion_enabled || fail demotion_enabled
echo $numa_balancing >/proc/sys/kernel/numa_balancing || fail numa_balancing
for t in /sys/devices/virtual/memory_tiering/memory_tier*; do
	say "tier \${t##*/} nodes \$(cat \$t/nodelist)"
done
# Every run of the NUMA scanner (task_numa_work) and every chunk it marks
# (change_prot_numa: its range and the PTEs it changed), as kprobe events in
# a trace instance of their own, on the CLOCK_MONOTONIC time base the guest
# program uses. No function tracer: it would patch every function.
T=/sys/kernel/tracing
mount -t tracefs none \$T
I=\$T/instances/truth
mkdir \$I
echo mono >\$I/trace_clock
{ echo 'p:truth/tnw task_numa_work'
  echo 'r:truth/tnwr task_numa_work'
  echo 'p:truth/cpn change_prot_numa start=%si:x64 end=%dx:x64'
  echo 'r:truth/cpnr change_prot_numa ret=\$retval:u64'; } >>\$T/kprobe_events &&
echo 1 >\$I/events/truth/enable || say "no kprobe events"
if [ -n "${TRUTH_KPROBES:-}" ]; then
	# Diagnostic (TRUTH_KPROBES=1): the THP hint faults, their
	# migrations' results, kswapd's wakeups and sleeps, and every
	# migrate_pages() batch (promotions and demotions).
	echo 8192 >\$I/buffer_size_kb
	grep -E ' (do_huge_pmd_numa_page|do_numa_page|migrate_misplaced_page|numamigrate_isolate_page|migrate_balanced_pgdat|wakeup_kswapd|should_numa_migrate_memory|numa_migrate_prep)\$' /proc/kallsyms |
		sed 's/^/TRUTH init kallsyms /'
	for e in 'p:truth/hpmd do_huge_pmd_numa_page addr=+24(%di):x64' \
		 'r:truth/hpmdr do_huge_pmd_numa_page' \
		 'p:truth/dnp do_numa_page addr=+24(%di):x64' \
		 'p:truth/mmp migrate_misplaced_page node=%dx:s32' \
		 'r:truth/mmpr migrate_misplaced_page ret=\$retval:s32' \
		 'r:truth/nipr numamigrate_isolate_page ret=\$retval:s32'; do
		echo "\$e" >>\$T/kprobe_events || say "no kprobe \$e"
	done
	echo 1 >\$I/events/truth/enable
	for e in vmscan/mm_vmscan_wakeup_kswapd vmscan/mm_vmscan_kswapd_wake \
		 vmscan/mm_vmscan_kswapd_sleep migrate/mm_migrate_pages; do
		echo 1 >\$I/events/\$e/enable || say "no event \$e"
	done
fi
grep -E '^(numa_promotion_adjust_threshold|should_numa_migrate_memory|numa_hint_fault_latency) ' \$T/available_filter_functions |
	sed 's/^/TRUTH init traceable /'
if [ -n "${TRUTH_TLB_HIST:-}" ]; then
	E=\$T/events/tlb/tlb_flush
	echo 'hist:keys=reason,pages:sort=hitcount' >>\$E/trigger &&
	echo 'hist:keys=stacktrace:sort=hitcount if pages == 18446744073709551615' >>\$E/trigger ||
		say "no tlb_flush histograms"
fi
if [ -n "${TRUTH_PROF:-}" ]; then
	P=\$T/events/timer/hrtimer_expire_entry
	echo 'hist:keys=common_pid.execname,stacktrace:sort=hitcount:size=16384' \
		>>\$P/trigger || say "no profile"
	if [ "${TRUTH_PROF:-0}" -gt 0 ]; then
		( i=0
		  while :; do
			sleep ${TRUTH_PROF:-0}
			{ echo "window up=\$(cut -d' ' -f1 /proc/uptime)"
			  cat \$P/hist; } >/run/prof.\$i
			echo 'hist:keys=common_pid.execname,stacktrace:sort=hitcount:size=16384:clear' \
				>>\$P/trigger
			i=\$((i + 1))
		  done ) &
		profiler=\$!
	fi
fi
say "release \$(uname -r)"
say "guest start up=\$(cut -d' ' -f1 /proc/uptime)"
if [ -n "${TRUTH_KPROBES:-}" ]; then
	TRUTH_MARKER=\$I/trace_marker /bin/truth-guest $*
else
	/bin/truth-guest $*
fi
say "guest rc=\$?"
echo 0 >\$I/tracing_on
grep -E ' (tnwr?|cpnr?): ' \$I/trace | sed 's/^/TRUTH kprobe /'
if [ -n "${TRUTH_KPROBES:-}" ]; then
	grep -v '^#' \$I/trace | grep -v -E ' (tnwr?|cpnr?): ' |
		sed 's/^/TRUTH ktrace /'
	sed 's/^/TRUTH ktrace-stats /' \$I/per_cpu/cpu0/stats \$I/per_cpu/cpu1/stats
fi
[ -z "${TRUTH_TLB_HIST:-}" ] || sed 's/^/TRUTH tlbhist /' \$T/events/tlb/tlb_flush/hist
if [ -n "${TRUTH_PROF:-}" ]; then
	[ -z "\${profiler:-}" ] || kill \$profiler
	for f in \$(ls /run/prof.* 2>/dev/null | sort -t. -k2 -n); do
		sed 's/^/TRUTH prof /' \$f
	done
	echo "window up=\$(cut -d' ' -f1 /proc/uptime)" | sed 's/^/TRUTH prof /'
	sed 's/^/TRUTH prof /' \$P/hist
fi
say "done tainted=\$(cat /proc/sys/kernel/tainted)"
poweroff -f
INIT
chmod +x "$rfs/init"
(cd "$rfs" && find . | sort | cpio -o -H newc --quiet -R 0:0) |
	gzip -1 >"$out/initramfs.cpio.gz"

# ---- boot -------------------------------------------------------------------
echo "truth: booting $vmlinuz under qemu (accel $accel, node0 ${dram}M" \
	"DRAM + 2 CPUs, node1 ${pmem}M NVDIMM, timeout ${timeout_s}s):" \
	"truth-guest $*"
t0=$(date +%s)
# The children's CPU time (cutime + cstime, in ticks): qemu's is the rise.
cpu0=$(awk '{print $16 + $17}' /proc/$$/stat)
rc=0
mon=
poller=
rm -f "$out/qemu-mon.sock" "$out/qemu-tlb.log"
if [ -n "${TRUTH_TLB_STATS:-}" ]; then
	mon="-monitor unix:$out/qemu-mon.sock,server=on,wait=off"
	perl "$root/tests/truth/qemu_tlb.pl" "$out/qemu-mon.sock" \
		"$out/qemu-tlb.log" &
	poller=$!
fi
# shellcheck disable=SC2086
timeout -k 5 "$timeout_s" qemu-system-x86_64 -nographic -no-reboot $mon \
	-accel "$accel" -cpu "${TRUTH_CPU:-max}" -smp 2 -nodefaults -serial stdio \
	-machine pc,nvdimm=on -m "${dram}M,slots=2,maxmem=8G" \
	-object "memory-backend-ram,id=ram0,size=${dram}M" \
	-numa node,nodeid=0,cpus=0-1,memdev=ram0 \
	-numa node,nodeid=1 \
	-object "memory-backend-ram,id=pmem1,size=${pmem}M" \
	-device nvdimm,id=nvdimm1,memdev=pmem1,node=1 \
	-kernel "$vmlinuz" -initrd "$out/initramfs.cpio.gz" \
	-append "console=ttyS0 panic=-1 loglevel=${TRUTH_LOGLEVEL:-4} printk.time=0 mitigations=off" \
	</dev/null >"$out/console.log" 2>&1 || rc=$?
t1=$(date +%s)
[ -z "$poller" ] || wait "$poller" || true
rm -f "$out/qemu-mon.sock"
tlb=
if [ -s "$out/qemu-tlb.log" ]; then
	# "t=S full=N part=N elided=N": full + part.
	tlb=$(tail -n 1 "$out/qemu-tlb.log" |
		awk -F '[ =]' '{ print " qemu_tlb_flushes=" $4 + $6 }')
fi
cpu1=$(awk '{print $16 + $17}' /proc/$$/stat)
tr -d '\r' <"$out/console.log" >"$out/console.txt"
echo "TRUTH host qemu=$(qemu-system-x86_64 --version | sed -n 's/.*version \([^ ]*\).*/\1/p;q')" \
	"wall_s=$((t1 - t0)) loadavg=$(cut -d' ' -f1 /proc/loadavg)" \
	"cpus=$(nproc)" "cpu_model=${TRUTH_CPU:-max}" \
	"qemu_cpu_s=$(((cpu1 - cpu0) / $(getconf CLK_TCK)))$tlb" >>"$out/console.txt"
echo "truth: qemu exited $rc after $((t1 - t0))s, console: $out/console.txt"
echo "$((t1 - t0))" >"$out/wall_s"
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	tail -n 30 "$out/console.txt" >&2
	die "timeout after ${timeout_s}s"
fi

fail=0
bad() {
	echo "truth: $*" >&2
	fail=1
}
f=$(sed -n 's/^TRUTH fail //p' "$out/console.txt" | head -n 1)
[ -z "$f" ] || bad "guest setup failed: $f"
grep -q '^TRUTH init guest rc=0$' "$out/console.txt" ||
	bad "truth-guest failed or did not run"
grep -q '^TRUTH done ' "$out/console.txt" || bad "no TRUTH done line"
# node0 and node1 each alone in a memory tier (node0 the upper one: the
# lower tier has the larger abstract distance, hence the larger tier id).
t0=$(sed -n 's/^TRUTH init tier memory_tier\([0-9]*\) nodes 0$/\1/p' "$out/console.txt")
t1=$(sed -n 's/^TRUTH init tier memory_tier\([0-9]*\) nodes 1$/\1/p' "$out/console.txt")
[ -n "$t0" ] && [ -n "$t1" ] && [ "$t0" -lt "$t1" ] ||
	bad "node0 and node1 are not in two memory tiers, node0 above node1"
splats='Oops|BUG:|kernel BUG|WARNING:|Call Trace|Kernel panic|RIP: '
splats="$splats|general protection fault|soft lockup|hung_task|Out of memory"
splat=$(grep -n -E "$splats" "$out/console.txt" || true)
[ -z "$splat" ] || bad "kernel splat in the console log:
$splat"
if [ $fail -ne 0 ]; then
	tail -n 40 "$out/console.txt" >&2
	die "see $out/console.txt"
fi
rm -rf "$rfs"
