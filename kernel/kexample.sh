#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# make kmod-example: build the example out-of-tree module examples/kmod/
# (tpdemo.ko) both ways docs/kernel.md describes, against the kernel that
# make kmod used (build/kmod/kdir), with W=1:
#
#   vendored  tierpol's lib/*.c compiled into the module from its
#             subdirectory tierpol/; the module needs no other, exports
#             nothing and imports no namespace
#   module    against tierpol.ko: TIERPOL_MODULE=1 and
#             KBUILD_EXTRA_SYMBOLS=build/kmod/Module.symvers; tierpol's
#             functions stay undefined in tpdemo.ko, resolved by modpost
#             from tierpol.ko's exports, and the namespace TIERPOL is
#             imported
#
# Each is built in build/kmod-example/<way>/, a tree of symbolic links laid
# out as a module author's directory (tpdemo_main.c, Kbuild, tierpol/), so
# that kbuild's objects stay out of the sources. Fails on any warning or a
# failed check. Copies the modules to build/kmod/tpdemo.ko (module) and
# build/kmod/tpdemo-vendored.ko, which make kcheck loads.
set -eu

cd "$(dirname "$0")/.."
root=$(pwd)
kmod=$root/build/kmod
out=$root/build/kmod-example

KDIR=$(cat "$kmod/kdir" 2>/dev/null || true)
if [ -z "$KDIR" ] || [ ! -f "$kmod/Module.symvers" ]; then
	echo "kmod-example: run make kmod first (build/kmod/kdir," \
		"build/kmod/Module.symvers)" >&2
	exit 1
fi

status=0
fail() {
	echo "kmod-example: FAILED: $*" >&2
	status=1
}

for way in vendored module; do
	tree=$out/$way
	rm -rf "$tree"
	mkdir -p "$tree/tierpol"
	ln -s "$root/examples/kmod/Kbuild" "$root/examples/kmod/tpdemo_main.c" \
		"$tree/"
	ln -s "$root/include" "$tree/tierpol/include"
	set -- -C "$KDIR" M="$tree" W=1 CONFIG_DEBUG_INFO_BTF_MODULES= \
		-j"$(nproc 2>/dev/null || echo 2)"
	if [ $way = vendored ]; then
		# Real directories, linked files: the objects land in the tree.
		mkdir "$tree/tierpol/lib"
		for f in "$root"/lib/*.c "$root"/lib/*.h; do
			ln -s "$f" "$tree/tierpol/lib/"
		done
	else
		set -- "$@" TIERPOL_MODULE=1 \
			KBUILD_EXTRA_SYMBOLS="$kmod/Module.symvers"
	fi
	rc=0
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make "$@" modules \
		>"$tree/build.log" 2>&1 || rc=$?
	grep -v -e 'make\[[0-9]*\]: \(Entering\|Leaving\) directory' \
		-e '^make: \(Entering\|Leaving\) directory' "$tree/build.log" |
		sed "s|^|  |" || true
	if [ $rc -ne 0 ]; then
		fail "$way: kbuild exit $rc (log: $tree/build.log)"
		continue
	fi
	# Every warning fails, but kbuild's notice that the pahole in PATH is
	# not the one the kernel was built with (it builds no BTF here).
	warn=$(grep -E -i 'warning|error' "$tree/build.log" |
		grep -v 'pahole version differs from the one used to build' ||
		true)
	[ -z "$warn" ] || fail "$way: warnings:
$warn"

	ko=$tree/tpdemo.ko
	undef=$(nm -u "$ko" | awk '$2 ~ /^tp_/ { print $2 }' | sort)
	ns=$(modinfo -F import_ns "$ko" 2>/dev/null || true)
	if [ $way = vendored ]; then
		[ -z "$undef" ] || fail "vendored: needs tierpol.ko for:" $undef
		! nm "$ko" | grep -q ' __ksymtab_' ||
			fail "vendored: tpdemo.ko exports symbols"
		[ -z "$ns" ] || fail "vendored: imports the namespace $ns"
		cp "$ko" "$kmod/tpdemo-vendored.ko"
	else
		echo "$undef" | grep -qx tp_decide ||
			fail "module: tp_decide is not taken from tierpol.ko"
		[ "$ns" = TIERPOL ] || fail "module: imports '$ns', not TIERPOL"
		cp "$ko" "$kmod/tpdemo.ko"
	fi
	[ $status -ne 0 ] || echo "kmod-example: $way: $ko" \
		"($(echo "$undef" | grep -c . || true) functions from tierpol.ko)"
done
exit $status
