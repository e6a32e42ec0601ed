#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# CI: tierpol's KUnit suite on UML (make kunit): Debian's linux-source
# extracted into build/ksrc/ with tierpol vendored as lib/tierpol/, built
# for ARCH=um and run by tools/testing/kunit/kunit.py. As root on Debian it
# installs what the kernel build and kunit.py need first: the compiler,
# make, flex, bison, bc, python3, xz-utils, sparse and linux-source. make kstyle,
# later in the same run, takes its checkpatch.pl from the extracted tree.
set -eu

cd "$(dirname "$0")/.."
. .ci/apt.sh
export DEBIAN_FRONTEND=noninteractive

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "kunit: installing the UML build's packages"
	ci_apt_update
	pkgs="gcc make libc6-dev flex bison bc python3 xz-utils perl sparse"
	ls /usr/src/linux-source-*.tar.xz >/dev/null 2>&1 ||
		pkgs="$pkgs linux-source"
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $pkgs >/dev/null
fi

make kunit
