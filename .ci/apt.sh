# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Sourced by the .ci scripts that install packages (POSIX sh). ci_apt_update
# brings the package lists up to date, retrying once when a mirror is mid-sync
# and then going on with what there is (a missing package fails its install
# loudly). .ci/run updates them once at its start and exports
# TP_CI_APT_UPDATED=1, so the scripts it calls do not update them again: a
# second update of a mirror mid-sync fails twice more, at a few seconds each.
# A script run on its own updates them itself.

ci_apt_update() {
	[ "${TP_CI_APT_UPDATED:-}" = 1 ] && return 0
	apt-get update -qq || apt-get update -qq || true
}
