#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# make kmod: build tierpol.ko and tierpol_test.ko out of tree, from the same
# lib/*.c as the userspace library (see Kbuild and docs/kernel.md).
#
#   KDIR   kernel build directory. Default: /lib/modules/$(uname -r)/build;
#          when the running kernel has no headers, the newest installed
#          /usr/src/linux-headers-*/ or /lib/modules/*/build (and says so).
#   C      1 or 2: run sparse (C=2 checks every file, not only rebuilt ones)
#   V      1: verbose kbuild
#   W      kbuild's extra warnings (W=1)
#   TP_ST_SKIP  vector files of tests/selftest/ to leave out of the test
#          modules, e.g. "ring policy" (they report them as skipped)
#
# Fails on any compiler or sparse warning in tierpol's own files, and when
# the module's exports differ from the global functions of lib/ (but the
# internal __tp_* ones, which are global for the objects of lib/ to share
# and not exported), or are not all GPL-only in the namespace TIERPOL.
# Writes build/kmod/{release,kdir,build.log,exports,lib-globals} and copies
# the modules to build/kmod/.
set -eu

cd "$(dirname "$0")/.."
root=$(pwd)
out=$root/build/kmod
mkdir -p "$out"

release_of() { # <kernel build dir>: its UTS_RELEASE
	sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
		"$1/include/generated/utsrelease.h" 2>/dev/null || true
}

KDIR=${KDIR:-}
running=$(uname -r)
if [ -n "$KDIR" ]; then
	why="given"
elif [ -f "/lib/modules/$running/build/Makefile" ]; then
	KDIR=/lib/modules/$running/build
	why="the running kernel's"
else
	# Candidates with the generated headers; /usr/src first, so that on a
	# tie (build is a symlink to it) the /usr/src path is the one shown.
	KDIR=$(for d in /usr/src/linux-headers-*/ /lib/modules/*/build/; do
		d=${d%/}
		[ -f "$d/Makefile" ] && [ -f "$d/include/generated/utsrelease.h" ] ||
			continue
		printf '%s %s\n' "$(release_of "$d")" "$d"
	done | sort -s -V -k1,1 | awk '{ r[$1] = r[$1] ? r[$1] : $2; last = $1 }
		END { if (last != "") print r[last] }')
	if [ -z "$KDIR" ]; then
		echo "kmod: no kernel headers: neither /lib/modules/$running/build" \
			"nor any /usr/src/linux-headers-*/ (Debian: apt-get install" \
			"linux-headers-amd64), or pass KDIR=" >&2
		exit 1
	fi
	why="no headers for the running kernel $running; newest installed"
fi
if [ ! -f "$KDIR/Makefile" ]; then
	echo "kmod: KDIR=$KDIR is not a kernel build directory" >&2
	exit 1
fi
release=$(release_of "$KDIR")
echo "kmod: KDIR=$KDIR ($why, release ${release:-unknown})"

# kbuild writes its objects beside the sources of an external module. Build
# in a tree of symlinks under build/kmod/tree so the sources stay clean: the
# compiler still reads the very same lib/*.c (no copies).
tree=$out/tree
rm -rf "$tree"
mkdir -p "$tree/lib" "$tree/kernel"
ln -s "$root/Kbuild" "$tree/Kbuild"
ln -s "$root/include" "$tree/include"
ln -s "$root/tests" "$tree/tests"
for f in "$root"/lib/*.c "$root"/lib/*.h; do
	ln -s "$f" "$tree/lib/"
done
for f in "$root"/kernel/*.c "$root"/kernel/*.h "$root"/kernel/Kconfig; do
	ln -s "$f" "$tree/kernel/"
done

# Command-line variables of the outer make (CC=, CFLAGS=, O=) are not meant
# for kbuild: drop MAKEFLAGS and pass what kbuild should see explicitly.
set -- -C "$KDIR" M="$tree" CONFIG_DEBUG_INFO_BTF_MODULES= \
	-j"$(nproc 2>/dev/null || echo 2)"
[ -n "${C:-}" ] && set -- "$@" C="$C"
[ "${V:-}" = 1 ] && set -- "$@" V=1
[ -n "${W:-}" ] && set -- "$@" W="$W"
[ -n "${TP_ST_SKIP:-}" ] && set -- "$@" TP_ST_SKIP="$TP_ST_SKIP"
rc=0
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make "$@" modules \
	>"$out/build.log" 2>&1 || rc=$?
grep -v -e '^make\[[0-9]*\]: \(Entering\|Leaving\) directory' \
	-e '^make: \(Entering\|Leaving\) directory' "$out/build.log" || true
if [ $rc -ne 0 ]; then
	echo "kmod: FAILED (kbuild exit $rc), log: $out/build.log" >&2
	exit $rc
fi
printf '%s\n' "$release" >"$out/release"
printf '%s\n' "$KDIR" >"$out/kdir"

status=0
our_files="^(($tree|$root)/)?(lib|include|kernel|tests)/"
ours=$(grep -E -e "$our_files[^:]*:[0-9]+:([0-9]+:)? (warning|error)" \
	-e '^(WARNING|ERROR): modpost: ' "$out/build.log" | sort -u || true)
others=$(grep -E ":[0-9]+:([0-9]+:)? (warning|error):" "$out/build.log" |
	grep -v -E "$our_files" | sort -u || true)
nours=$(printf '%s' "$ours" | grep -c . || true)
nothers=$(printf '%s' "$others" | grep -c . || true)
if [ "$nothers" -gt 0 ]; then
	echo "kmod: $nothers warnings from the kernel's own headers (not ours):"
	printf '%s\n' "$others" | sed 's/^/  /'
fi
if [ "$nours" -gt 0 ]; then
	echo "kmod: FAILED: $nours compiler/sparse/modpost warnings in tierpol files" >&2
	status=1
fi

# Every global function of lib/ but the internal __tp_* is exported, GPL-only
# in the namespace TIERPOL, and nothing else is.
nm --defined-only "$tree"/lib/*.o | awk '$2 == "T" && $3 !~ /^__tp_/ { print $3 }' |
	sort >"$out/lib-globals"
rm -f "$out"/*.ko
for ko in "$tree"/*.ko; do
	cp "$ko" "$out/"
done
cp "$tree/Module.symvers" "$out/"
nm "$out/tierpol.ko" | sed -n 's/^[0-9a-f]* [rR] __ksymtab_\(.*\)$/\1/p' |
	sort >"$out/exports"
if ! cmp -s "$out/lib-globals" "$out/exports"; then
	echo "kmod: FAILED: exports of kernel/tierpol_main.c differ from lib/:" >&2
	comm -23 "$out/lib-globals" "$out/exports" | sed 's/^/  not exported: /' >&2
	comm -13 "$out/lib-globals" "$out/exports" | sed 's/^/  not in lib\/: /' >&2
	status=1
fi
# Module.symvers: CRC, symbol, module, export type, namespace.
bad_ns=$(awk -F '\t' '$3 ~ /tierpol$/ &&
	($4 != "EXPORT_SYMBOL_GPL" || $5 != "TIERPOL") { print $2 }' \
	"$out/Module.symvers")
if [ -n "$bad_ns" ]; then
	echo "kmod: FAILED: not GPL-only in the namespace TIERPOL:" $bad_ns >&2
	status=1
fi

[ -n "${C:-}" ] && echo "kmod: sparse: $nours warnings in tierpol files"
echo "kmod: $out/tierpol.ko ($(wc -l <"$out/exports") exports, namespace" \
	"TIERPOL) and $(cd "$out" && ls *.ko | grep -v '^tierpol.ko$' |
	tr '\n' ' ')for $release"
exit $status
