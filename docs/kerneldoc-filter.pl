#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Doxygen INPUT_FILTER: turns the kernel-doc comments of tierpol's public
# headers into Doxygen markup, so one set of comments serves both
# scripts/kernel-doc and Doxygen.
#
#   "name() - summary" / "struct x - summary"  ->  @brief summary
#   "@arg: text" in a function comment         ->  @param arg text
#   "@member: text" in a struct/enum comment   ->  moved after the member as
#                                                   a trailing comment
#   "Return:" / "Context:"                     ->  @return / @par Context:
#   "&struct x" / "&enum x"                     ->  x
#   "@arg" in running text                     ->  @p arg
#
# Non-header files pass through unchanged.
use strict;
use warnings;

my $file = $ARGV[0];
open(my $fh, '<', $file) or die "$file: $!";
my @lines = <$fh>;
close($fh);

if ($file !~ /\.h$/) {
	print @lines;
	exit 0;
}

my $out = "/** \@file */\n";
my $in_doc = 0;
my $kind = '';		# 'func' or 'aggr'
my %members;		# member name -> description (aggregate docs)
my $pending = 0;	# an aggregate doc was seen; its body follows
my $depth = 0;		# brace depth inside the documented aggregate
my $last_member;	# name of the member whose description continues

sub body_text {
	my ($t, $k) = @_;
	$t =~ s/&(?:struct|enum|union)\s+(\w+)/$1/g;
	if ($k eq 'func') {
		$t =~ s/(?<![\w\@])\@(\w+)/\@p $1/g;
	} else {
		$t =~ s/(?<![\w\@])\@(\w+(?:\.\w+)*)/\@c $1/g;
	}
	return $t;
}

for my $line (@lines) {
	if (!$in_doc && $line =~ m{^\s*/\*\*\s*$}) {
		$in_doc = 1;
		$kind = '';
		$last_member = undef;
		$out .= $line;
		next;
	}
	if ($in_doc) {
		if ($line =~ m{^\s*\*/}) {
			$in_doc = 0;
			$pending = 1 if $kind eq 'aggr';
			$out .= $line;
			next;
		}
		my ($pre, $text) = $line =~ m{^(\s*\* ?)(.*)$}s;
		if (!defined $pre) {
			$out .= $line;
			next;
		}
		chomp $text;
		if ($kind eq '') {
			if ($text =~ /^(?:struct|enum|union)\s+\w+\s+-\s+(.*)$/) {
				$kind = 'aggr';
				%members = ();
				$out .= "$pre\@brief " . body_text($1, 'aggr') . "\n";
				next;
			}
			if ($text =~ /^\w+\(\)\s+-\s+(.*)$/) {
				$kind = 'func';
				$out .= "$pre\@brief " . body_text($1, 'func') . "\n";
				next;
			}
			$kind = 'text';
		}
		if ($text =~ /^\@(\w+(?:\.\w+)*):\s*(.*)$/) {
			my ($name, $desc) = ($1, $2);
			if ($kind eq 'aggr') {
				my $leaf = $name;
				$leaf =~ s/.*\.//;
				$members{$leaf} = body_text($desc, 'aggr');
				$last_member = $leaf;
				next;
			}
			$out .= "$pre\@param $name " . body_text($desc, 'func') . "\n";
			next;
		}
		if ($kind eq 'aggr' && defined $last_member && $text =~ /^\s+\S/) {
			$members{$last_member} .= ' ' . body_text($text, 'aggr');
			next;
		}
		$last_member = undef;
		if ($text =~ /^Return:\s*(.*)$/) {
			$out .= "$pre\@return " . body_text($1, $kind) . "\n";
			next;
		}
		if ($text =~ /^Context:\s*(.*)$/) {
			$out .= "$pre\@par Context:\n$pre" . body_text($1, $kind) . "\n";
			next;
		}
		$out .= $pre . body_text($text, $kind) . "\n";
		next;
	}
	if ($pending) {
		my $opens = () = $line =~ /\{/g;
		my $closes = () = $line =~ /\}/g;
		$depth += $opens - $closes;
		chomp(my $l = $line);
		my $name;
		if ($l =~ /^\s*(?:__attribute__\s*\(\(.*?\)\)\s*)?
			   (?:[\w\s\*]+?)\b(\w+)\s*(?:\[[^\]]*\])?\s*
			   (?:(?:[A-Z][A-Z0-9_]*|__attribute__\s*\(\(.*?\)\))\s*)*
			   ;\s*$/x) {
			$name = $1;	# a member, maybe with an attribute
					# before it, or one or a macro after
					# it (TP_CACHELINE_ALIGNED)
		} elsif ($l =~ /^\s*\}\s*(\w+)\s*;\s*$/) {
			$name = $1;		# "} bucket;" of a nested aggregate
		} elsif ($l =~ /^\s*([A-Z][A-Z0-9_]*)\s*(?:=[^,]*)?,?\s*$/) {
			$name = $1;		# an enum constant
		}
		if (defined $name && exists $members{$name} && $depth >= 0) {
			$l .= " /**< $members{$name} */";
			delete $members{$name};
		}
		$out .= "$l\n";
		$pending = 0 if $depth <= 0 && $l =~ /;\s*(?:\/\*\*<.*\*\/)?\s*$/ &&
			$l =~ /^\s*\}/;
		next;
	}
	$out .= $line;
}
print $out;
