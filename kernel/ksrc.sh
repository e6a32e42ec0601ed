#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Prints the path of a kernel source tree with tierpol vendored in it as
# lib/tierpol/, as docs/kernel.md tells a kernel developer to do, for the
# builds that need a whole kernel (make kunit, make kbuild32):
#
#   KSRC   a kernel source tree to use as it is (it is modified: lib/tierpol
#          is added, see below). Default: Debian's newest
#          /usr/src/linux-source-*.tar.xz (apt-get install linux-source),
#          extracted once into build/ksrc/ and reused while the tarball is
#          the same.
#
# Vendoring: lib/tierpol is a symbolic link to this repository (the kernel
# then builds the very same files), lib/Makefile gets
# "obj-$(CONFIG_TIERPOL) += tierpol/" and lib/Kconfig
# 'source "lib/tierpol/kernel/Kconfig"'. Builds must use O= so that the
# tree stays clean.
set -eu

cd "$(dirname "$0")/.."
root=$(pwd)

if [ -n "${KSRC:-}" ]; then
	src=$KSRC
else
	tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V |
		tail -n 1)
	if [ -z "$tarball" ]; then
		echo "ksrc: no /usr/src/linux-source-*.tar.xz. Run:" \
			"apt-get install linux-source (or set KSRC=)" >&2
		exit 1
	fi
	top=$(basename "$tarball" .tar.xz)
	base=$root/build/ksrc
	src=$base/$top
	stamp="$(stat -c '%s %Y' "$tarball") $tarball"
	if [ ! -f "$base/$top.stamp" ] ||
		[ "$(cat "$base/$top.stamp")" != "$stamp" ]; then
		echo "ksrc: extracting $tarball into $base/" >&2
		rm -rf "$src" "$base/$top.stamp"
		mkdir -p "$base"
		t0=$(date +%s)
		tar -xJf "$tarball" -C "$base"
		printf '%s\n' "$stamp" >"$base/$top.stamp"
		echo "ksrc: extracted in $(($(date +%s) - t0)) s" >&2
	fi
fi
if [ ! -f "$src/Makefile" ] || [ ! -f "$src/lib/Kconfig" ]; then
	echo "ksrc: $src is not a kernel source tree" >&2
	exit 1
fi

# tierpol as lib/tierpol/ (idempotent).
if [ ! -L "$src/lib/tierpol" ] ||
	[ "$(readlink "$src/lib/tierpol")" != "$root" ]; then
	rm -rf "$src/lib/tierpol"
	ln -s "$root" "$src/lib/tierpol"
fi
grep -q '^obj-$(CONFIG_TIERPOL) += tierpol/$' "$src/lib/Makefile" ||
	printf '\nobj-$(CONFIG_TIERPOL) += tierpol/\n' >>"$src/lib/Makefile"
grep -q '^source "lib/tierpol/kernel/Kconfig"$' "$src/lib/Kconfig" ||
	printf '\nsource "lib/tierpol/kernel/Kconfig"\n' >>"$src/lib/Kconfig"
echo "$src"
