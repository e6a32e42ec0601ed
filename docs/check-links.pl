#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Dead-link check of the generated HTML (make docs):
#
#   perl docs/check-links.pl DIR
#
# For every local reference of every DIR/*.html (href, src, and the data
# of an <object>, which is how Doxygen shows an SVG), the file must exist
# under DIR and, for "file#anchor" or "#anchor", the target must have an
# element with that id or name. Links with a scheme (https:, mailto:, ...)
# are not followed. A Markdown link that Doxygen left as text ("[x](y)" in
# the page's text, as it does for a target without a path or extension)
# counts as dead too. Prints each dead link as FILE: LINK (why) and exits 1
# if there is any.
use strict;
use warnings;

my $dir = shift // die "usage: $0 DIR\n";
opendir(my $dh, $dir) or die "$dir: $!\n";
my @pages = sort grep { /\.html$/ } readdir($dh);
closedir($dh);

my (%anchors, %text);
sub slurp {
	my ($f) = @_;
	return $text{$f} if exists $text{$f};
	open(my $fh, '<', "$dir/$f") or return $text{$f} = undef;
	local $/;
	$text{$f} = <$fh>;
	close($fh);
	return $text{$f};
}
sub anchors {
	my ($f) = @_;
	return $anchors{$f} if $anchors{$f};
	my %a;
	my $t = slurp($f) // '';
	$a{$1} = 1 while $t =~ /\b(?:id|name)\s*=\s*"([^"]+)"/g;
	return $anchors{$f} = \%a;
}

my ($dead, $links) = (0, 0);
for my $page (@pages) {
	my $t = slurp($page) // next;
	while ($t =~ /<(?:a|img|link|script|object|iframe)\b[^>]*?\b(href|src|data)\s*=\s*"([^"]*)"/gi) {
		my $link = $2;
		next if $link =~ /^[a-z][a-z0-9+.-]*:/i;	# https:, mailto:, javascript:
		next if $link eq '' || $link eq '#';
		$links++;
		my ($path, $frag) = $link =~ /^([^#?]*)(?:\?[^#]*)?(?:#(.*))?$/;
		my $target = $path eq '' ? $page : $path;
		$target =~ s/%20/ /g;
		if (!-e "$dir/$target") {
			print "$page: $link (no file $target)\n";
			$dead++;
			next;
		}
		if (defined $frag && $frag ne '' && $target =~ /\.html$/ &&
		    !anchors($target)->{$frag}) {
			print "$page: $link (no anchor $frag in $target)\n";
			$dead++;
		}
	}
	# The page's text, without code: Markdown links that were not rendered.
	(my $plain = $t) =~ s/<pre\b.*?<\/pre>//gs;
	$plain =~ s/<div class="fragment">.*?<\/div><!-- fragment -->//gs;
	$plain =~ s/<code\b.*?<\/code>//gs;
	$plain =~ s/<[^>]*>//g;
	while ($plain =~ /(\[[^\]\n]*\]\([^)\s]*\))/g) {
		print "$page: $1 (a Markdown link left as text)\n";
		$dead++;
	}
}
printf "%s: %d local links in %d pages, %d dead\n", $dir, $links,
	scalar(@pages), $dead;
exit($dead ? 1 : 0);
