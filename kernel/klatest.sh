#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# make klatest: tierpol on the newest kernel Debian ships, built and run
# where the machine's own packages are older (Debian 12 here, whose kernel
# is 6.1): the KUnit suite on UML built from that kernel's linux-source,
# and the modules (tierpol.ko, tierpol_test.ko, the example both ways)
# built against its linux-headers and loaded in its own image under qemu
# (make kcheck). This is where the branches for Linux 6.13 and later
# (Kbuild: the namespace as a string, hrtimer_setup()) are compiled and run.
#
# The packages are Debian's, fetched from the mirror without installing
# them (nothing under /usr changes) and unpacked into build/klatest/:
# linux-source-X.Y, linux-headers-<abi>-{amd64,common}, linux-kbuild-<abi>
# and linux-binary-<abi>-amd64 (the vmlinuz), all of the same version, the
# newest linux-source of the suite. Their kbuild tools were linked against
# a newer C library and their headers name a newer gcc, so:
#  - objtool and modpost are rebuilt from that linux-source for this
#    machine (with the headers' .config) when the shipped ones do not run;
#  - the headers' compiler (gcc-14 for Debian 13) is this machine's gcc
#    when it is missing, through a wrapper that spells the one option gcc
#    12 lacks (-fmin-function-alignment=N) as -falign-functions=N. The
#    modules are then built by another gcc than the kernel was: kbuild
#    allows it, and every case must still pass in the kernel.
#
#   KLATEST_SUITE   the suite to take the kernel from (trixie-backports)
#   KLATEST_MIRROR  the Debian mirror (http://deb.debian.org/debian)
#   KLATEST_STEPS   "kunit kcheck" (default), or one of them
#   JOBS            parallel build jobs
# Needs curl, xz, dpkg-deb, libelf-dev (objtool), and what make kunit and
# make kcheck need. Fails when a package cannot be fetched (the caller
# decides whether that fails a run: .ci/klatest.sh).
set -eu

cd "$(dirname "$0")/.."
root=$(pwd)
suite=${KLATEST_SUITE:-trixie-backports}
mirror=${KLATEST_MIRROR:-http://deb.debian.org/debian}
steps=${KLATEST_STEPS:-kunit kcheck}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
base=$root/build/klatest
mkdir -p "$base"

die() {
	echo "klatest: FAILED: $*" >&2
	exit 1
}
for tool in curl xz dpkg-deb; do
	command -v $tool >/dev/null || die "$tool is missing"
done
kunit='' kcheck=''
for step in $steps; do
	case $step in
	kunit) kunit=y ;;
	kcheck) kcheck=y ;;
	*) die "unknown step $step (kunit, kcheck)" ;;
	esac
done

index() { # <binary-all|binary-amd64>: the suite's Packages, cached a day
	f=$base/Packages-$suite-$1
	if [ ! -s "$f" ] || [ -n "$(find "$f" -mmin +1440)" ]; then
		curl -fsS -m 120 "$mirror/dists/$suite/main/$1/Packages.xz" |
			xz -dc >"$f.tmp" || die "cannot fetch $suite's $1 index"
		mv "$f.tmp" "$f"
	fi
	echo "$f"
}
all=$(index binary-all)
amd64=$(index binary-amd64)

# "<package> <version> <filename>" for every stanza of an index.
stanzas() {
	awk '/^Package: /{p = $2} /^Version: /{v = $2}
		/^Filename: /{print p, v, $2}' "$1"
}
# The newest linux-source-X.Y, and its version.
newest=$(stanzas "$all" | awk '$1 ~ /^linux-source-[0-9]+\.[0-9]+$/' |
	sort -k2,2V | tail -n 1)
[ -n "$newest" ] || die "no linux-source in $suite"
src_pkg=${newest%% *}
version=${newest#* }
version=${version%% *}
# The ABI name the binary packages of that version carry (7.2.11+deb13).
abi=$(stanzas "$amd64" |
	awk -v v="$version" '$2 == v && $1 ~ /^linux-kbuild-/ {
		sub(/^linux-kbuild-/, "", $1); print $1; exit }')
[ -n "$abi" ] || die "no linux-kbuild of $version in $suite"
echo "klatest: $src_pkg $version (ABI $abi) from $suite"

dir=$base/$abi
mkdir -p "$dir/deb" "$dir/root"
fetch() { # <index> <package>: download and unpack it once
	[ -f "$dir/deb/$2.done" ] && return 0
	file=$(stanzas "$1" | awk -v p="$2" -v v="$version" \
		'$1 == p && $2 == v { print $3; exit }')
	[ -n "$file" ] || die "no $2 $version in $suite"
	curl -fsS -m 600 -o "$dir/deb/$2.deb" "$mirror/$file" ||
		die "cannot fetch $mirror/$file"
	dpkg-deb -x "$dir/deb/$2.deb" "$dir/root"
	rm -f "$dir/deb/$2.deb"
	touch "$dir/deb/$2.done"
}
r=$dir/root
hdr=$r/usr/src/linux-headers-$abi-amd64
kbuild=$r/usr/lib/linux-kbuild-$abi

# The source for both steps: kcheck rebuilds host tools from it.
fetch "$all" "$src_pkg"
if [ -n "$kcheck" ]; then
	fetch "$all" "linux-headers-$abi-common"
	fetch "$amd64" "linux-headers-$abi-amd64"
	fetch "$amd64" "linux-kbuild-$abi"
	fetch "$amd64" "linux-binary-$abi-amd64"
fi

# The source tree, extracted once (kernel/ksrc.sh adds lib/tierpol to it;
# make kunit builds in build/kunit/linux-source-X.Y/).
tarball=$(ls "$r"/usr/src/linux-source-*.tar.xz)
ksrc=$dir/$(basename "$tarball" .tar.xz)
if [ ! -f "$ksrc/Makefile" ]; then
	echo "klatest: extracting $(basename "$tarball")"
	rm -rf "$ksrc"
	tar -xJf "$tarball" -C "$dir"
fi

if [ -n "$kunit" ]; then
	echo "klatest: make kunit on $abi's source"
	KSRC=$ksrc JOBS=$jobs sh kernel/kunit.sh
fi
[ -n "$kcheck" ] || exit 0

# The headers name their siblings by absolute /usr/src paths: point them at
# build/klatest/ instead.
sed -i "s|\([ =]\)/usr/src/|\1$r/usr/src/|g" "$hdr/Makefile"

# Host tools that do not run here are rebuilt from the source, for this
# machine's C library, with the headers' configuration.
runs() {
	out=$("$@" 2>&1) || [ $? -ne 127 ] || return 1
	! printf '%s\n' "$out" | grep -q 'GLIBC_.* not found'
}
objtool=$kbuild/tools/objtool/objtool.real-x86
[ -e "$objtool" ] || objtool=$kbuild/tools/objtool/objtool
if ! runs "$objtool" --help; then
	echo "klatest: rebuilding objtool for this machine"
	make -s -C "$ksrc/tools/objtool" -j"$jobs" >"$dir/objtool.log" 2>&1 ||
		die "objtool does not build ($dir/objtool.log; libelf-dev?)"
	cp "$ksrc/tools/objtool/objtool" "$objtool"
fi
modpost=$kbuild/scripts/mod/modpost.real-lsb-64
[ -e "$modpost" ] || modpost=$kbuild/scripts/mod/modpost
if ! runs "$modpost" -h; then
	echo "klatest: rebuilding modpost for this machine"
	mkdir -p "$dir/host"
	cp "$hdr/.config" "$dir/host/.config"
	(cd "$ksrc" && make -s O="$dir/host" olddefconfig &&
		make -s O="$dir/host" -j"$jobs" scripts/mod/) \
		>"$dir/modpost.log" 2>&1 ||
		die "modpost does not build ($dir/modpost.log)"
	cp "$dir/host/scripts/mod/modpost" "$modpost"
fi

# The compiler the headers name, or this machine's gcc in its place.
cc=$(sed -n 's/^CC = .*(CROSS_COMPILE)\(.*\)$/\1/p' \
	"$hdr/.kernelvariables")
cross=$(sed -n 's/^override CROSS_COMPILE = \(.*\)$/\1/p' \
	"$hdr/.kernelvariables")
bin=$dir/bin
mkdir -p "$bin"
if [ -n "$cc" ] && ! command -v "$cross$cc" >/dev/null; then
	host=$(command -v "${cross}gcc" || command -v gcc)
	echo "klatest: $cross$cc is missing: $host ($("$host" -dumpversion))" \
		"in its place"
	cat >"$bin/$cross$cc" <<EOF
#!/bin/sh
# $cross$cc for the modules of $abi: $host, with the one option it lacks
# spelled the way older kernels did (see kernel/klatest.sh).
for a do
	case \$a in
	-fmin-function-alignment=*) a="-falign-functions=\${a#*=}" ;;
	esac
	set -- "\$@" "\$a"
	shift
done
exec "$host" "\$@"
EOF
	chmod +x "$bin/$cross$cc"
fi

echo "klatest: make kcheck against $abi's headers and image"
PATH=$bin:$PATH make kcheck KDIR="$hdr" \
	VMLINUZ="$r/usr/lib/modules/$abi-amd64/vmlinuz"
