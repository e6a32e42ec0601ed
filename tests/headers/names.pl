#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# The names a translation unit declares at file scope, from clang's AST
# (clang -Xclang -ast-dump=json -fsyntax-only) on stdin, one per line:
#
#   NAME KIND LINKAGE
#
# KIND is clang's declaration kind (FunctionDecl, TypedefDecl, RecordDecl,
# EnumDecl, EnumConstantDecl, VarDecl, ...). LINKAGE is "C" for a
# declaration inside extern "C" { }, "-" otherwise. Enum constants are
# listed (they are file-scope names in C and C++), and so are structs and
# enums declared inside a struct (file scope in C). So are the parameters
# and locals of a function defined in the header (an inline function),
# as KIND InlineParmVarDecl and InlineVarDecl: a program's global declared
# before the header is shadowed by them (-Wshadow). A prototype's
# parameters and struct members are not listed.
#
# Used by tests/headers/check.sh to compare what a header adds to what a
# program had before including it. JSON::PP is part of Debian's perl.
use strict;
use warnings;
use JSON::PP;

my %named = map { $_ => 1 } qw(FunctionDecl VarDecl TypedefDecl TypeAliasDecl
	RecordDecl CXXRecordDecl EnumDecl EnumConstantDecl NamespaceDecl
	FunctionTemplateDecl ClassTemplateDecl VarTemplateDecl
	TypeAliasTemplateDecl UsingDecl);
my %descend = map { $_ => 1 } qw(LinkageSpecDecl EnumDecl RecordDecl
	CXXRecordDecl);
my %seen;

sub emit {
	my ($name, $kind, $linkage) = @_;
	my $line = "$name $kind $linkage";
	print "$line\n" unless $seen{$line}++;
}

# The parameters and locals of a function with a body.
sub locals {
	my ($node, $linkage) = @_;
	for my $d (@{ $node->{inner} // [] }) {
		my $kind = $d->{kind} // '';
		if (($kind eq 'ParmVarDecl' || $kind eq 'VarDecl') &&
		    defined $d->{name} && $d->{name} ne '') {
			emit($d->{name}, "Inline$kind", $linkage);
		}
		locals($d, $linkage);
	}
}

sub has_body {
	my ($fn) = @_;
	return grep { ($_->{kind} // '') eq 'CompoundStmt' }
		@{ $fn->{inner} // [] };
}

sub walk {
	my ($node, $linkage) = @_;
	for my $d (@{ $node->{inner} // [] }) {
		my $kind = $d->{kind} // '';
		my $l = $linkage;
		$l = $d->{language} // '-' if $kind eq 'LinkageSpecDecl';
		if ($named{$kind} && defined $d->{name} && $d->{name} ne '') {
			emit($d->{name}, $kind, $l);
		}
		locals($d, $l) if $kind eq 'FunctionDecl' && has_body($d);
		walk($d, $l) if $descend{$kind};
	}
}

# clang prints one member a line, indented, and most of the text is the
# source locations and types of every node, which the walk does not read:
# they are dropped before decoding (a sixth of the text is left, decoded
# in a quarter of the time). A string cannot span lines,
# so an object opened at the end of a line closes on the first line with
# its indentation; dropping a last member leaves a trailing comma, which
# the relaxed decoder allows.
my ($skip, $ind, $text) = (0, '', '');
while (my $line = <STDIN>) {
	if ($skip) {
		$skip = 0 if $line =~ /^\Q$ind\E\}/;
		next;
	}
	if ($line =~ /^(\s*)"(?:loc|range|type)": \{\s*$/) {
		($ind, $skip) = ($1, 1);
		next;
	}
	$text .= $line;
}
walk(JSON::PP->new->relaxed->decode($text), '-');
