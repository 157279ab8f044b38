# bash completion for ddx: commands, their options, and the names of the
# stored baselines (from `ddx baselines --names`) after --baseline and the
# baselines subcommands that take one.  Installed by `make install`.
_ddx_commands="diff phases templates parse proc watch learn check baselines failures help"

# The long options of a command, read from its help, so they never drift.
_ddx_options()
{
	ddx help "$1" 2>/dev/null | grep -oE -- '--[a-z][a-z-]*' | sort -u
	echo --color --no-pager --help
}

_ddx()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local i cmd= store=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--store) store=${COMP_WORDS[i+1]} ;;
		-*) ;;
		*) [ -z "$cmd" ] && cmd=${COMP_WORDS[i]} ;;
		esac
	done
	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--version --help --color --no-pager" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$_ddx_commands" -- "$cur"))
		fi
		return
	fi
	local names=0
	case $prev in
	--baseline) names=1 ;;
	show | cat | rm | export) [ "$cmd" = baselines ] && names=1 ;;
	--store | --rules | --causes | --html | --ref | --proc-root)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--label | --now | -j | --jobs | --sample | --factor | --min-silence | --timeout | \
	--interval | --stack-timeout | --since)
		return ;;
	esac
	if [ $names = 1 ]; then
		local IFS=$'\n'
		COMPREPLY=($(compgen -W "$(ddx baselines ${store:+--store "$store"} --names 2>/dev/null)" -- "$cur"))
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_ddx_options "$cmd")" -- "$cur"))
	elif [ "$cmd" = help ]; then
		COMPREPLY=($(compgen -W "$_ddx_commands" -- "$cur"))
	elif [ "$cmd" = baselines ] && [ "$prev" = baselines ]; then
		COMPREPLY=($(compgen -W "list show cat rm export import" -- "$cur"))
	elif [ "$cmd" = failures ] && [ "$prev" = failures ]; then
		COMPREPLY=($(compgen -W "list fix export import" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}
complete -o filenames -o bashdefault -F _ddx ddx
