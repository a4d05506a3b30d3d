# bash completion for wqctl; every word comes from wqctl itself (wqctl __complete).
_wqctl()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local cmd="" sub="" i nargs=0 w
	local -a pre=()

	# global options that change what is listed, passed on to __complete
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--sysroot|--profile-dir|--kernel)
			pre+=("$w" "${COMP_WORDS[i+1]}"); i=$((i + 1)); continue ;;
		--sysroot=*|--profile-dir=*|--kernel=*) pre+=("$w"); continue ;;
		-o|--output|--profile|--workqueue|--scope|--cpus|--max-active|--min-active|--from|-i|--interval|-c|--count|-b|--buffer-size)
			i=$((i + 1)); continue ;;
		-*) continue ;;
		esac
		if [[ -z $cmd ]]; then cmd=$w; elif [[ -z $sub ]]; then sub=$w; nargs=$((nargs + 1)); else nargs=$((nargs + 1)); fi
	done
	_wqctl_words() { wqctl "${pre[@]}" __complete "$@" 2>/dev/null | cut -d' ' -f1; }

	case $prev in
	--sysroot|--profile-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	--kernel|--max-active|--min-active|--cpus|--from|-i|--interval|-c|--count|-b|--buffer-size) COMPREPLY=(); return ;;
	-o|--output) COMPREPLY=($(compgen -W "$(_wqctl_words columns "${cmd:-show}")" -- "${cur##*,}")); return ;;
	--profile) COMPREPLY=($(compgen -W "$(_wqctl_words profiles)" -- "$cur")); return ;;
	--workqueue) COMPREPLY=($(compgen -W "$(_wqctl_words workqueues)" -- "$cur")); return ;;
	--scope) COMPREPLY=($(compgen -W "$(_wqctl_words scopes)" -- "$cur")); return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_wqctl_words options "$cmd")" -- "$cur"))
		return
	fi
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "$(_wqctl_words commands)" -- "$cur"))
		return
	fi
	case $cmd in
	show|check|snapshot|explain|monitor)
		COMPREPLY=($(compgen -W "$(_wqctl_words workqueues)" -- "$cur")) ;;
	owner)
		[[ -z $sub ]] && COMPREPLY=($(compgen -W "$(_wqctl_words workqueues)" -- "$cur")) ;;
	get)
		if [[ -z $sub ]]; then COMPREPLY=($(compgen -W "$(_wqctl_words workqueues)" -- "$cur"))
		else COMPREPLY=($(compgen -W "$(_wqctl_words attributes)" -- "$cur")); fi ;;
	set)
		local a
		COMPREPLY=($(compgen -W "$(_wqctl_words workqueues) $(for a in $(_wqctl_words attributes); do echo "$a="; done)" -- "$cur"))
		compopt -o nospace 2>/dev/null ;;
	knob)
		COMPREPLY=($(compgen -W "$(_wqctl_words knobs)" -- "$cur")) ;;
	profile)
		if [[ -z $sub ]]; then COMPREPLY=($(compgen -W "list show use current off" -- "$cur"))
		else COMPREPLY=($(compgen -W "$(_wqctl_words profiles)" -- "$cur")); fi ;;
	dump)
		COMPREPLY=($(compgen -d -- "$cur")) ;;
	esac
}
complete -F _wqctl wqctl
