#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Check tierpol's Promela models exhaustively with SPIN (make model).
#
#   tests/model/run.sh OUTDIR [NAME...]
#
# Every line of tests/model/checks lists a check: its name, the model, the
# kind of search, what must come out, and the model's -D options:
#
#   safety  every state of the model, assertions and invalid end states
#           (deadlock): pan compiled with -DSAFETY, run with a search depth
#           that the model never reaches
#   npc     non-progress cycles under weak fairness (pan -DNP, -l -f): no
#           infinite run where the processes' progress labels stop
#   pass    no error, and the search completed (not cut by depth or memory)
#   fail    an error found: the mutants, which put back a bug the model
#           guards against, must be caught
#
# NAMEs select checks (a prefix selects every check it begins). CC,
# MODEL_MEM (MB per check, default 1024) and MODEL_JOBS (checks run at
# once, default: online CPUs) are honoured. Each check runs in OUTDIR/NAME/,
# where pan's output (pan.out) and any trail stay. Exit 0 when every check
# came out as listed, 1 otherwise, 2 on bad usage or no spin.
set -u

here=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-cc}
MODEL_MEM=${MODEL_MEM:-1024}
DEPTH=2000000

now_ms() { date +%s%N | cut -c1-13; }

# --one OUTDIR NAME MODEL KIND EXPECT [DEFS...]: one check; its report line
# goes to OUTDIR/NAME/line, and "ok" or "bad" to OUTDIR/NAME/status.
if [ "${1:-}" = --one ]; then
	out=$2 name=$3 model=$4 kind=$5 expect=$6
	shift 6
	defs="$*"
	[ "$defs" = "-" ] && defs=
	dir=$out/$name
	rm -rf "$dir"
	mkdir -p "$dir"
	cp "$here/$model" "$dir/"
	# A mutant's search stops at its first error: compile it fast.
	opt=-O1
	[ "$expect" = fail ] && opt=-O0
	case $kind in
	safety) copt="-DSAFETY"; ropt="" ;;
	npc) copt="-DNP"; ropt="-l -f" ;;
	*) echo "$name: unknown search $kind" >&2; exit 2 ;;
	esac
	t0=$(now_ms)
	# shellcheck disable=SC2086
	if ! (cd "$dir" && spin -a $defs "$model" >spin.out 2>&1 &&
		$CC $opt -w $copt -DCOLLAPSE -DMEMLIM="$MODEL_MEM" -o pan pan.c \
			>cc.out 2>&1); then
		echo "$name: spin or $CC failed: see $dir" >"$dir/line"
		echo bad >"$dir/status"
		exit 0
	fi
	# shellcheck disable=SC2086
	(cd "$dir" && ./pan -m$DEPTH $ropt >pan.out 2>&1)
	t1=$(now_ms)
	errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$dir/pan.out" | head -n 1)
	states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$dir/pan.out" | head -n 1)
	trans=$(sed -n 's/^ *\([0-9.e+]*\) transitions.*/\1/p' "$dir/pan.out" | head -n 1)
	cut=
	grep -q 'max search depth too small' "$dir/pan.out" && cut="depth"
	grep -q 'reached -DMEMLIM bound' "$dir/pan.out" && cut="memory"
	what=$(grep -m 1 -E '^pan:[0-9]+: ' "$dir/pan.out" | sed 's/^pan:[0-9]*: //')
	ok=bad
	if [ -z "$errors" ]; then
		result="NO RESULT (see $dir/pan.out)"
	elif [ "$expect" = pass ]; then
		if [ "$errors" = 0 ] && [ -z "$cut" ]; then
			result="pass"
			ok=ok
		elif [ -n "$cut" ]; then
			result="INCOMPLETE: search cut by $cut"
		else
			result="FAILED: $what (trail in $dir)"
		fi
	elif [ "$errors" != 0 ]; then
		result="caught: $what"
		ok=ok
	else
		result="MUTANT NOT CAUGHT${cut:+ (search cut by $cut)}"
	fi
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1000 }')
	printf '%-16s %-6s %-8s %12s %12s %7s  %s\n' "$name" "$kind" "$expect" \
		"${states:-?}" "${trans:-?}" "$secs" "$result" >"$dir/line"
	echo $ok >"$dir/status"
	exit 0
fi

out=${1:?usage: run.sh OUTDIR [NAME...]}
shift
sel="$*"
if ! command -v spin >/dev/null 2>&1; then
	echo "spin is missing. Run: sudo apt-get install spin" >&2
	exit 2
fi
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
jobs=${MODEL_JOBS:-$(nproc 2>/dev/null || echo 2)}

# The selected lines of the list, comments and blank lines dropped.
grep -vE '^[[:space:]]*(#|$)' "$here/checks" | while read -r name rest; do
	if [ -z "$sel" ]; then
		echo "$name $rest"
		continue
	fi
	for w in $sel; do
		case $name in "$w"*) echo "$name $rest"; break ;; esac
	done
done >"$out/selected"
total=$(wc -l <"$out/selected")
if [ "$total" = 0 ]; then
	echo "no check matches: $sel" >&2
	exit 2
fi

t_all=$(now_ms)
xargs -P "$jobs" -L 1 sh "$0" --one "$out" <"$out/selected"
secs=$(awk -v a="$t_all" -v b="$(now_ms)" 'BEGIN { printf "%.1f", (b - a) / 1000 }')

printf '%-16s %-6s %-8s %12s %12s %7s  %s\n' check search expect states \
	transitions seconds result
fails=0
while read -r name rest; do
	cat "$out/$name/line" 2>/dev/null || echo "$name: no result"
	[ "$(cat "$out/$name/status" 2>/dev/null)" = ok ] || fails=$((fails + 1))
done <"$out/selected"
if [ $fails = 0 ]; then
	echo "MODEL PASSED: $total checks in $secs s, $jobs at a time ($(spin -V | head -n 1))"
	exit 0
fi
echo "MODEL FAILED: $fails of $total checks not as expected ($secs s)"
exit 1
