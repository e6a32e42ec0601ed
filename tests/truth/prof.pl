#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# tests/truth/prof.pl: sums the guest kernel's profile of a run made with
# TRUTH_PROF (tests/truth/boot.sh): the timer ticks each thread took, and
# where a thread's ticks were.
#
#   prof.pl [--thread NAME] [--depth N] [--from S] [--to S] [--top N]
#           CONSOLE.TXT
#
#   --thread  the thread whose ticks are broken down (default truth-guest,
#             the workload's; tprt-migrate and tprt-scan are the runtime's)
#   --depth   N > 0: the N innermost frames of a tick's kernel call chain
#             (where the time went); N < 0: the -N outermost (which system
#             call or fault it was in); default -3
#   --from, --to  only the windows inside this span, in seconds from the
#             guest program's start (its mono_t0_us); TRUTH_PROF=N makes
#             windows of N seconds, 0 one window for the whole run
#   --top     lines to print (default 30)
#
# A tick that interrupted user mode has no kernel frames of its own: it is
# counted as "(user)". The interrupt's own frames are left out.
# tests/truth/prof_test.sh tests it; .ci/runtime.sh runs that, and reads
# the profile of make runtime-truth-ci's two runs back.
use strict;
use warnings;
use Getopt::Long;

my ($thread, $depth, $from, $to, $top) = ('truth-guest', -3, -1e9, 1e9, 30);
GetOptions('thread=s' => \$thread, 'depth=i' => \$depth,
	   'from=f' => \$from, 'to=f' => \$to, 'top=i' => \$top)
	and @ARGV == 1 and $depth != 0
	or die "usage: $0 [--thread NAME] [--depth N] [--from S] [--to S]" .
	       " [--top N] CONSOLE.TXT\n";
my $file = $ARGV[0];
open(my $in, '<', $file) or die "$0: $file: $!\n";

my %irq = map { $_ => 1 } qw(hrtimer_interrupt __sysvec_apic_timer_interrupt
	sysvec_apic_timer_interrupt asm_sysvec_apic_timer_interrupt);
my ($t0, $prev, $win, $comm, @frames);
my @wins;	# [start, end, [[comm, [frames], hits], ...]]
while (my $l = <$in>) {
	$t0 = $1 / 1e6 if $l =~ /^TRUTH start .*\bmono_t0_us=(\d+)/;
	$prev = $1 if $l =~ /^TRUTH init guest start up=([\d.]+)/;
	next unless $l =~ s/^TRUTH prof //;
	chomp $l;
	if ($l =~ /^window up=([\d.]+)/) {
		$win = [$prev, $1, []];
		push @wins, $win;
		$prev = $1;
	} elsif ($l =~ /^\{ common_pid: (\S+)\s+\[\s*\d+\], stacktrace:/) {
		($comm, @frames) = ($1);
	} elsif ($l =~ /^\} hitcount:\s+(\d+)/ && defined $comm && $win) {
		push @{$win->[2]}, [$comm, [@frames], $1];
		undef $comm;
	} elsif (defined $comm && $l =~ /^\s+([\w.]+)\+/) {
		push @frames, $1 unless $irq{$1};
	}
}
close $in;
die "$0: $file: no profile (TRUTH_PROF unset?)\n" unless @wins;
die "$0: $file: no TRUTH start line\n" unless defined $t0;

my (%by_thread, %by_chain, $total, $span0, $span1);
for my $w (@wins) {
	my ($a, $b, $ents) = @$w;
	next unless defined $a;		# ticks before the first window's start
	next if $a - $t0 < $from - 0.001 || $b - $t0 > $to + 0.001;
	$span0 = $a - $t0 unless defined $span0;
	$span1 = $b - $t0;
	for my $e (@$ents) {
		my ($c, $f, $n) = @$e;
		$by_thread{$c} += $n;
		next unless $c eq $thread;
		my $key = '(user)';
		if (@$f) {
			my @k = $depth > 0 ? @$f[0 .. min($depth, 0 + @$f) - 1] :
				(reverse @$f)[0 .. min(-$depth, 0 + @$f) - 1];
			$key = join($depth > 0 ? ' < ' : ' > ', @k);
		}
		$by_chain{$key} += $n;
		$total += $n;
	}
}
sub min { $_[0] < $_[1] ? $_[0] : $_[1] }
die "$0: $file: no window inside $from..$to s\n" unless defined $span0;
die "$0: $file: no ticks of $thread\n" unless $total;
printf "windows %.1f to %.1f s from the program's start\n", $span0 < 0 && $span0 > -0.05 ? 0 : $span0, $span1;
print "ticks by thread:";
my $i = 0;
for my $c (sort { $by_thread{$b} <=> $by_thread{$a} || $a cmp $b } keys %by_thread) {
	last if $i++ == 8;
	print " $c=$by_thread{$c}";
}
print "\n";
print "$thread: $total ticks\n";
$i = 0;
for my $k (sort { $by_chain{$b} <=> $by_chain{$a} || $a cmp $b } keys %by_chain) {
	last if $i++ == $top;
	printf "%7d %5.1f%% %s\n", $by_chain{$k}, 100 * $by_chain{$k} / $total, $k;
}
