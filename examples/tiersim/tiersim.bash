# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# bash completion for tiersim (make install puts it where bash-completion
# finds it; or: source examples/tiersim/tiersim.bash).
#
# The options, workloads, policies and profiles come from "tiersim --help"
# of the tiersim being completed, so they are always that program's.

_tiersim_help()
{
	"$1" --help 2>/dev/null
}

# The names listed under a heading of --help: "workload", "profile" (the
# lines indented below the option) or "policy" (the policy table).
_tiersim_names()
{
	_tiersim_help "$1" | awk -v what="$2" '
		what == "policy" && /^Policies \(-p/ { on = 1; next }
		what == "policy" && on && /^  [a-z][a-z0-9-]+ +[A-Za-z]/ {
			print $1; next }
		what == "policy" && on && !/^  / { on = 0 }
		what != "policy" && $0 ~ "--" what " " { on = 1; next }
		what != "policy" && on && /^ +-/ { on = 0 }
		what != "policy" && on &&
			/^                            [a-z][a-z0-9-]+ / { print $1 }'
}

_tiersim()
{
	local prog=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD-1]} words head

	# --opt=value: complete the value of --opt
	if [[ $cur == --*=* ]]; then
		prev=${cur%%=*}
		cur=${cur#*=}
	fi
	case $prev in
	-w | --workload) words=$(_tiersim_names "$prog" workload) ;;
	--profile) words=$(_tiersim_names "$prog" profile) ;;
	--format) words="auto lackey tiersim" ;;
	--lru) words="clock two-list" ;;
	--kswapd) words="simple rounds" ;;
	--clock) words="threads serial" ;;
	--suite) words="default short results" ;;
	-t | --trace | --json | --csv | --svg | --cpu-ns-file | --results-md)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	--outdir)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	-p | --policy)
		# a comma-separated list: complete its last item
		head=
		[[ $cur == *,* ]] && head=${cur%,*},
		compopt -o nospace 2>/dev/null
		COMPREPLY=($(compgen -P "$head" \
			-W "$(_tiersim_names "$prog" policy)" -- "${cur##*,}"))
		return
		;;
	-j | --jobs | --[a-z]*-ms | --[a-z]*-ns | --[a-z]*-mbps | --pages | \
	--accesses | --seed | --fast | --slow | --wmark | --scale | \
	--tlb-entries | --init-fast | --[a-z]*-frac | --sigma | --zipf-s | \
	--hot-prob | --shift-at | --burst-pages | --threads | --mlp | \
	--[a-z]*-gran | --scan-size-mb)
		return	# a number: nothing to offer
		;;
	esac
	if [[ -n $words ]]; then
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
	fi
	if [[ $cur == -* ]]; then
		words=$(_tiersim_help "$prog" |
			grep -oE -- '(^|[ ,])--?[a-zA-Z][a-z0-9-]*' |
			sed 's/^[ ,]*//' | sort -u)
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
	fi
}

complete -F _tiersim tiersim
