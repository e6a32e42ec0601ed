#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# CI: the CMocka suites as 32-bit programs under qemu-i386 (make check32).
# As root on Debian it installs gcc-multilib, qemu-user and, with the i386
# architecture added, libcmocka-dev:i386 first.
set -eu

cd "$(dirname "$0")/.."
. .ci/apt.sh
export DEBIAN_FRONTEND=noninteractive

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "check32: installing the 32-bit toolchain"
	# Lists that have no i386 packages yet need an update whatever
	# .ci/run did.
	if ! dpkg --print-foreign-architectures | grep -qx i386; then
		dpkg --add-architecture i386
		TP_CI_APT_UPDATED=
	fi
	ci_apt_update
	apt-get install -y -qq --no-install-recommends gcc make gcc-multilib \
		qemu-user libcmocka-dev:i386 >/dev/null
fi

make check32
