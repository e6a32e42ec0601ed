#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# tests/truth/qemu_tlb.pl SOCKET LOG: while qemu runs, ask its monitor (a
# unix socket) for "info jit" once a second and append a line to LOG:
#
#   t=SECONDS full=N part=N elided=N
#
# qemu's counts of flushes of its software TLB since it started (TCG only):
# full, a flush of every MMU mode at once; part, the modes flushed whole by
# a flush of some of them (a guest CR3 write, WRPKRU or an XRSTOR that
# changes PKRU flushes the modes in use, counted here); elided, the modes
# such a flush had nothing in. A guest's INVLPG is not counted. The whole
# of the last answer (the translated code's counts too) goes to LOG.last.
# Ends when the socket goes away after answering once, or after 60 s
# without one.
use strict;
use warnings;
use IO::Socket::UNIX;
use Time::HiRes qw(time sleep);

@ARGV == 2 or die "usage: $0 SOCKET LOG\n";
my ($sock, $log) = @ARGV;
open(my $out, '>', $log) or die "$0: $log: $!\n";
$out->autoflush(1);
my $t0 = time;
my $answered = 0;
while (1) {
	my $s = IO::Socket::UNIX->new(Peer => $sock);
	if (!$s) {
		last if $answered || time - $t0 > 60;
		sleep 0.2;
		next;
	}
	print $s "info jit\n";
	$s->blocking(0);
	my ($buf, $end) = ('', time + 5);
	while (time < $end) {
		my $n = sysread($s, my $b, 65536);
		if (!defined $n) {
			sleep 0.02;
		} elsif ($n == 0) {
			last;
		} else {
			$buf .= $b;
			last if $buf =~ /TLB elided flushes\s+\d+/;
		}
	}
	close $s;
	if ($buf =~ /TLB full flushes\s+(\d+).*TLB partial flushes\s+(\d+).*TLB elided flushes\s+(\d+)/s) {
		printf $out "t=%.1f full=%s part=%s elided=%s\n",
			time - $t0, $1, $2, $3;
		$answered = 1;
		# The whole of the last answer, beside the log.
		if (open(my $last, '>', "$log.last")) {
			$buf =~ s/\r//g;
			print $last $buf;
			close $last;
		}
	}
	sleep 1;
}
