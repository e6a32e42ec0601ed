#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# CI: the CMocka suites as 32-bit programs under qemu-i386 (make check32).
# As root on Debian it installs gcc-multilib, qemu-user and, with the i386
# architecture added, libcmocka-dev:i386 first.
set -eu

cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "check32: apt-get update; installing the 32-bit toolchain"
	dpkg --add-architecture i386
	apt-get update -qq || apt-get update -qq || true
	apt-get install -y -qq --no-install-recommends gcc make gcc-multilib \
		qemu-user libcmocka-dev:i386 >/dev/null
fi

make check32
