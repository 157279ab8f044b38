# fish completion for ddx: commands, their options, and stored baseline
# names (`ddx baselines --names`).
set -l ddx_commands diff phases templates parse proc watch learn check baselines failures help
complete -c ddx -n "not __fish_seen_subcommand_from $ddx_commands" -f -a "$ddx_commands"
complete -c ddx -l version -d 'print the version'
complete -c ddx -l help -s h -d 'describe ddx or a command'
complete -c ddx -l color -x -a 'always never auto' -d 'colour the output'
complete -c ddx -l no-pager -d 'do not page the output'
for c in $ddx_commands
	for o in (ddx help $c 2>/dev/null | string match -ar -- '--[a-z][a-z-]*' | sort -u)
		complete -c ddx -n "__fish_seen_subcommand_from $c" -l (string sub -s 3 -- $o)
	end
end
complete -c ddx -n "__fish_seen_subcommand_from $ddx_commands" -l baseline -x -a '(ddx baselines --names 2>/dev/null)'
complete -c ddx -n "__fish_seen_subcommand_from baselines; and not __fish_seen_subcommand_from list show cat rm export import" -f -a 'list show cat rm export import'
complete -c ddx -n "__fish_seen_subcommand_from baselines; and __fish_seen_subcommand_from show cat rm export" -f -a '(ddx baselines --names 2>/dev/null)'
complete -c ddx -n "__fish_seen_subcommand_from failures; and not __fish_seen_subcommand_from list fix export import" -f -a 'list fix export import'
complete -c ddx -n "__fish_seen_subcommand_from help" -f -a "$ddx_commands"
