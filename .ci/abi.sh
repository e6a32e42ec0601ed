#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# CI: the shared library's ABI against the committed baseline
# (make abi-check, docs/ABI.md). As root on Debian it installs gcc, make and
# abigail-tools (abidw, abidiff) first.
set -eu

cd "$(dirname "$0")/.."
. .ci/apt.sh
export DEBIAN_FRONTEND=noninteractive

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "abi: installing abigail-tools"
	ci_apt_update
	apt-get install -y -qq --no-install-recommends gcc make libc6-dev \
		abigail-tools >/dev/null
fi

make abi-check
