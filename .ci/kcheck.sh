#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# CI: build tierpol.ko and tierpol_test.ko against Debian's kernel headers,
# boot the matching Debian kernel under qemu with both modules and check the
# in-kernel self-test (make kcheck). As root on Debian it installs what it
# needs first: the compiler, linux-headers-amd64, the linux-image package of
# the same release, busybox-static, cpio and qemu-system-x86.
set -eu

cd "$(dirname "$0")/.."
. .ci/apt.sh
export DEBIAN_FRONTEND=noninteractive

apt_ok() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; }
install() {
	apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

if apt_ok; then
	echo "kcheck: installing the build and boot packages"
	ci_apt_update
	install gcc make libc6-dev linux-headers-amd64 busybox-static cpio \
		qemu-system-x86
fi

make kmod

release=$(cat build/kmod/release)
if [ ! -e "/boot/vmlinuz-$release" ] && apt_ok; then
	echo "kcheck: installing linux-image-$release (matches the headers)"
	install "linux-image-$release"
fi

make kcheck
