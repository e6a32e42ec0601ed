#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# CI: the kernel's checkers on tierpol (make kstyle): checkpatch.pl --strict
# and kernel-doc from Debian's linux-source tarball, sparse on both modules.
# As root on Debian it installs linux-source, sparse, perl, the compiler and
# linux-headers-amd64 first.
set -eu

cd "$(dirname "$0")/.."
. .ci/apt.sh
export DEBIAN_FRONTEND=noninteractive

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "kstyle: installing the checkers"
	ci_apt_update
	pkgs="gcc make libc6-dev linux-headers-amd64 sparse perl xz-utils"
	ls /usr/src/linux-source-*.tar.xz >/dev/null 2>&1 ||
		pkgs="$pkgs linux-source"
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $pkgs >/dev/null
fi

make kstyle
