#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# CI: the modules built against the newest kernel Debian ships
# (trixie-backports) and run in its image under qemu: make klatest with
# KLATEST_STEPS=kcheck (kernel/klatest.sh). The KUnit suite on that kernel
# (KLATEST_STEPS=kunit, 6 minutes of UML build) runs by hand; CI's KUnit
# run is on Debian's 6.1 (.ci/kunit.sh). As root on Debian it installs what
# the fetch, objtool's rebuild and make kcheck need first.
set -eu

cd "$(dirname "$0")/.."
. .ci/apt.sh
export DEBIAN_FRONTEND=noninteractive

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "klatest: installing the fetch and build packages"
	ci_apt_update
	apt-get install -y -qq --no-install-recommends curl ca-certificates \
		xz-utils gcc make libc6-dev libelf-dev flex bison bc \
		busybox-static cpio qemu-system-x86 >/dev/null
fi

KLATEST_STEPS=${KLATEST_STEPS:-kcheck} make klatest
