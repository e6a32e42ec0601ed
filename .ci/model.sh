#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# The Promela models (issue 12): installs spin when it is missing (as root
# on Debian), then runs make model, which checks every model exhaustively
# and requires each mutant to be caught. About a minute and a half on two CPUs.
set -euo pipefail

cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"
	elif command -v sudo >/dev/null; then sudo "$@"
	else return 1
	fi
}

if ! command -v spin >/dev/null; then
	if ! as_root true; then
		echo "spin is missing; run as root to install it" >&2
		exit 1
	fi
	# A mirror mid-sync can fail one index file: retry.
	for i in 1 2 3; do
		[ "${TP_CI_APT_UPDATED:-}" != 1 ] || break # .ci/apt.sh
		as_root apt-get update -qq && break
		sleep $((i * 5))
	done
	as_root apt-get install -y -qq --no-install-recommends spin gcc make \
		>/dev/null
fi
spin -V
make -s model
