#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# CI: the real-kernel ground truth, one short scenario end to end (make
# kernel-truth-ci, about 2 minutes): boots Debian's 6.1 kernel under qemu
# with a DRAM node and an NVDIMM node in a lower memory tier, runs a tiersim
# workload there and on tiersim's mainline preset, and compares them. Fails
# if the harness breaks, never on fidelity (make kernel-truth measures that
# and writes docs/FIDELITY.md). As root on Debian it installs what it needs
# first: the compiler, static libc (libc6-dev), qemu-system-x86,
# busybox-static, cpio, ndctl, daxctl and linux-image-$TRUTH_RELEASE.
set -eu

cd "$(dirname "$0")/.."
. .ci/apt.sh
export DEBIAN_FRONTEND=noninteractive
release=${TRUTH_RELEASE:-6.1.0-57-amd64}

apt_ok() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; }
install() {
	apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

if apt_ok; then
	echo "kernel-truth: installing the packages"
	ci_apt_update
	install gcc make libc6-dev qemu-system-x86 busybox-static cpio ndctl \
		daxctl kmod
	if [ ! -e "/boot/vmlinuz-$release" ]; then
		echo "kernel-truth: installing linux-image-$release"
		install "linux-image-$release"
	fi
fi

TRUTH_RELEASE=$release make kernel-truth-ci
