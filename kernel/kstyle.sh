#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# make kstyle: the kernel's own checkers, zero findings required.
#  - scripts/checkpatch.pl --no-tree --strict -f on lib/, include/, kernel/
#    and Kbuild (tests/selftest/, built into the test modules, is reported
#    too, as advice: other files own it). The public headers include/tierpol/
#    are shared with userspace, so they are checked with the two types of
#    finding left out that checkpatch itself skips for the kernel's headers
#    shared with userspace (include/uapi/): PREFER_KERNEL_TYPES, because
#    they use <stdint.h>'s uint64_t and friends on purpose (the kernel's u64
#    does not exist in userspace and tierpol must not define it for its
#    users; <linux/xz.h>, shared with XZ Embedded, does the same; in the
#    kernel uint64_t is u64), and PREFER_DEFINED_ATTRIBUTE_MACRO, because
#    their userspace branch cannot use the kernel's __aligned(). The
#    library's sources, lib/, use u64 through lib/tp_seam.h and are checked
#    in full, but for a userspace-only lib/tp_seam_user.h;
#  - checkpatch --strict once more on the patch that vendors tierpol into a
#    tree (docs/kernel.md's files): a maintainer's run over a whole patch
#    carries what it learns from one file into the next;
#  - scripts/kernel-doc -none -v on the public headers (and kernel/*.c);
#  - sparse and W=1 on every file of both modules (make kmod C=2 W=1).
#
#   KSCRIPTS  a directory with checkpatch.pl, spelling.txt,
#             const_structs.checkpatch and kernel-doc. Default build/kscripts,
#             extracted from Debian's /usr/src/linux-source-*.tar.xz
#             (apt-get install linux-source) when missing.
set -eu

cd "$(dirname "$0")/.."
root=$(pwd)
kscripts=${KSCRIPTS:-$root/build/kscripts}
files="checkpatch.pl spelling.txt const_structs.checkpatch kernel-doc"

have_scripts() {
	for f in $files; do
		[ -f "$kscripts/$f" ] || return 1
	done
}
# A tree that make kunit extracted already (kernel/ksrc.sh) saves unpacking
# the tarball again.
if ! have_scripts && [ -z "${KSCRIPTS:-}" ]; then
	for d in "$root"/build/ksrc/linux-source-*/scripts; do
		[ -f "$d/checkpatch.pl" ] || continue
		mkdir -p "$kscripts"
		for f in $files; do
			cp "$d/$f" "$kscripts/"
		done
		echo "kstyle: took $files from $d"
		break
	done
fi
if ! have_scripts; then
	tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V |
		tail -n 1)
	if [ -z "$tarball" ]; then
		echo "kstyle: no checkpatch.pl in $kscripts and no" \
			"/usr/src/linux-source-*.tar.xz. Run:" \
			"sudo apt-get install linux-source (or set KSCRIPTS=)" >&2
		exit 1
	fi
	echo "kstyle: extracting $files from $tarball"
	top=$(basename "$tarball" .tar.xz)
	tmp=$(mktemp -d)
	# shellcheck disable=SC2046
	tar -xJf "$tarball" -C "$tmp" $(for f in $files; do
		echo "$top/scripts/$f"; done)
	mkdir -p "$kscripts"
	for f in $files; do
		cp "$tmp/$top/scripts/$f" "$kscripts/"
	done
	rm -rf "$tmp"
fi

status=0

# ---- checkpatch -------------------------------------------------------------
# checkpatch keeps a CamelCase cache file in its working directory (and
# deletes older ones there): run it from a scratch directory, not the tree.
cpdir=$(mktemp -d)
trap 'rm -rf "$cpdir"' EXIT
mkdir "$cpdir/include"
checkpatch() { # <label> <--ignore list or ""> <files...>: prints, sets $found
	label=$1
	ignore=$2
	shift 2
	found=0
	nfiles=0
	for f in "$@"; do
		[ -f "$f" ] || continue
		nfiles=$((nfiles + 1))
		# shellcheck disable=SC2086
		res=$(cd "$cpdir" && perl "$kscripts/checkpatch.pl" --no-tree \
			--root="$cpdir" --strict --terse --show-types \
			${ignore:+--ignore $ignore} --no-summary -f "$root/$f" \
			2>&1 | sed "s|$root/||g" || true)
		[ -n "$res" ] || continue
		printf '%s\n' "$res"
		found=$((found + $(printf '%s\n' "$res" |
			grep -c ': \(ERROR\|WARNING\|CHECK\):' || true)))
	done
	echo "kstyle: checkpatch --strict $label: $nfiles files, $found findings"
}
# lib/tp_seam_user.h, if the seam's userspace branch lives there, is never
# built in the kernel (kbuild never reads it): it is not checked.
checkpatch "lib/ kernel/ Kbuild examples/kmod/" "" lib/*.c \
	$(ls lib/*.h | grep -v '^lib/tp_seam_user\.h$') \
	kernel/*.c kernel/*.h kernel/Kconfig Kbuild kernel/*.sh \
	examples/kmod/*.c examples/kmod/Kbuild
cp_ours=$found
checkpatch "include/tierpol/ (shared with userspace, as include/uapi/)" \
	PREFER_KERNEL_TYPES,PREFER_DEFINED_ATTRIBUTE_MACRO include/tierpol/*.h
cp_ours=$((cp_ours + found))
[ "$cp_ours" -eq 0 ] || status=1
checkpatch "tests/selftest/ (advisory)" "" tests/selftest/*.h
cp_st=$found

# A maintainer runs checkpatch once over the patch that adds tierpol to a
# tree (docs/kernel.md's files, the tests aside), and what it learns in one
# file changes how it reads the next (a type name, say): the file-by-file
# runs above cannot see that. The headers' two shared-with-userspace types
# of finding are left out as above, and the notice that new files may need
# a MAINTAINERS entry.
vp=$cpdir/vendor
mkdir -p "$vp/a" "$vp/b/lib/tierpol"
for f in Kbuild kernel/Kconfig kernel/tierpol_main.c \
	$(ls lib/*.c lib/*.h | grep -v '^lib/tp_seam_user\.h$') \
	include/tierpol/*.h; do
	mkdir -p "$vp/b/lib/tierpol/$(dirname "$f")"
	cp "$f" "$vp/b/lib/tierpol/$f"
done
{
	printf 'From: kstyle <kstyle@localhost>\nSubject: [PATCH] lib: add tierpol\n\n'
	printf 'The files docs/kernel.md vendors, as one patch.\n\n'
	printf 'Signed-off-by: kstyle <kstyle@localhost>\n---\n'
	(cd "$vp" && diff -urN a b || true)
} >"$vp/vendor.patch"
res=$(cd "$cpdir" && perl "$kscripts/checkpatch.pl" --no-tree --root="$cpdir" \
	--strict --terse --show-types --no-summary \
	--ignore PREFER_KERNEL_TYPES,PREFER_DEFINED_ATTRIBUTE_MACRO,FILE_PATH_CHANGES \
	"$vp/vendor.patch" 2>&1 | sed "s|$vp/||g" || true)
[ -z "$res" ] || printf '%s\n' "$res"
found=$(printf '%s\n' "$res" | grep -c ': \(ERROR\|WARNING\|CHECK\):' || true)
echo "kstyle: checkpatch --strict on the vendoring patch: $found findings"
cp_ours=$((cp_ours + found))
[ "$cp_ours" -eq 0 ] || status=1

# ---- kernel-doc ---------------------------------------------------------------
kd=$(perl "$kscripts/kernel-doc" -none -v include/tierpol/*.h kernel/*.c 2>&1 |
	grep -v ': info: Scanning doc for ' || true)
nkd=$(printf '%s' "$kd" | grep -c . || true)
[ -z "$kd" ] || printf '%s\n' "$kd"
echo "kstyle: kernel-doc -none -v include/tierpol/*.h kernel/*.c:" \
	"$nkd warnings"
[ "$nkd" -eq 0 ] || status=1

# ---- sparse (and W=1) ---------------------------------------------------------
if command -v sparse >/dev/null; then
	if ! C=2 W=1 sh kernel/kmod.sh; then
		status=1
	fi
else
	echo "kstyle: sparse is missing. Run: sudo apt-get install sparse" >&2
	status=1
fi

if [ $status -eq 0 ]; then
	echo "kstyle: clean (checkpatch $cp_ours, kernel-doc $nkd, sparse 0;" \
		"tests/selftest/ advisory: $cp_st)"
else
	echo "kstyle: FAILED" >&2
fi
exit $status
