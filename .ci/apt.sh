# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Sourced by the .ci scripts that install packages (POSIX sh). ci_apt_update
# brings the package lists up to date, trying once more after 5 s when a
# mirror is mid-sync and then going on with what there is (a missing package
# fails its install loudly). .ci/run updates the lists at its start and
# exports TP_CI_APT_UPDATED=1, so the scripts it calls do not update them
# again (with a mirror mid-sync each did twice, a few seconds each, for an
# index file the next minutes seldom fix). A script run on its own updates
# them itself.

ci_apt_update() {
	[ "${TP_CI_APT_UPDATED:-}" = 1 ] && return 0
	apt-get update -qq && return 0
	sleep 5
	apt-get update -qq || true
}
