#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# make abi-check: a field appended to a configuration struct (tp_*_cfg) must
# start at or after the struct's size in the baseline. abidiff's "inserted
# at the end" passes a field placed in a released struct's tail padding or
# hole, whose size does not change, and there the library could not tell an
# older caller's padding bytes from the new field (docs/ABI.md). A member
# named reserved* or __reserved* may fill the padding: it makes the padding
# explicit, and the library never reads it.
#
# Usage: cfg-append.pl BASELINE.abi CURRENT.abi; exits 1 on a violation.
use strict;
use warnings;

# name => [ size in bits, { member => offset in bits } ] of every tp_*_cfg
sub cfgs {
	my ($path) = @_;
	my (%c, $cur);

	open(my $f, '<', $path) or die "$path: $!\n";
	while (my $l = <$f>) {
		if ($l =~ /<class-decl name='(tp_[a-z0-9_]*_cfg)' size-in-bits='(\d+)'/) {
			$cur = $1;
			$c{$cur} //= [ $2, {} ];
		} elsif ($l =~ /<\/class-decl>/) {
			undef $cur;
		} elsif ($cur && $l =~ /layout-offset-in-bits='(\d+)'/) {
			my $off = $1;
			my $n = <$f>;
			$c{$cur}[1]{$1} = $off if $n && $n =~ /var-decl name='([^']+)'/;
		}
	}
	close($f);
	return \%c;
}

die "usage: $0 BASELINE.abi CURRENT.abi\n" unless @ARGV == 2;
my ($base, $now) = (cfgs($ARGV[0]), cfgs($ARGV[1]));
my $bad = 0;
for my $s (sort keys %$base) {
	next unless $now->{$s};
	my ($size, $old) = @{$base->{$s}};
	my $new = $now->{$s}[1];
	for my $m (sort { $new->{$a} <=> $new->{$b} } keys %$new) {
		next if exists $old->{$m} || $m =~ /^(__)?reserved/;
		next if $new->{$m} >= $size;
		printf "FAILED: struct %s: new field '%s' at byte %d, inside the " .
		       "released struct's %d bytes (its padding): start it at " .
		       "byte %d (docs/ABI.md)\n", $s, $m, $new->{$m} / 8,
		       $size / 8, $size / 8;
		$bad = 1;
	}
}
exit $bad;
