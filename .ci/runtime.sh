#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# CI: the tierpol runtime (issue 17). Its unit tests already ran in "make
# check"; here they run under ASan + UBSan and TSan (make runtime-sanitize,
# about 15 s), then the comparison with the kernel's NUMA balancing in its
# short version (make runtime-truth-ci, about 3 minutes: the kernel's mode 2
# and the runtime, 20 s each, on the kernel-truth qemu machine). Fails if
# the harness breaks, never on the figures. As root on Debian it installs
# what it needs first (the packages of .ci/kernel-truth.sh, clang and
# CMocka).
set -eu

cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
release=${TRUTH_RELEASE:-6.1.0-57-amd64}

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "runtime: installing the packages"
	apt-get install -y -qq --no-install-recommends gcc clang make \
		libc6-dev libcmocka-dev qemu-system-x86 busybox-static cpio \
		ndctl daxctl kmod >/dev/null || {
		apt-get update -qq || true
		apt-get install -y -qq --no-install-recommends gcc clang make \
			libc6-dev libcmocka-dev qemu-system-x86 busybox-static \
			cpio ndctl daxctl kmod >/dev/null
	}
	[ -e "/boot/vmlinuz-$release" ] ||
		apt-get install -y -qq --no-install-recommends \
			"linux-image-$release" >/dev/null
fi

make -s runtime-sanitize
TRUTH_RELEASE=$release make -s runtime-truth-ci
