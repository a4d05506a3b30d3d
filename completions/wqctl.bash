# bash completion for wqctl; every word comes from wqctl itself (wqctl __complete).
_wqctl()
{
	local cur prev words cword
	# '=' and ':' stay inside a word: ATTR=VALUE, kcryptd-253:0-1
	_init_completion -n =: || return
	local cmd="" sub="" i w
	local -a pre=() wqs=()

	# global options that change what is listed, passed on to __complete
	for ((i = 1; i < cword; i++)); do
		w=${words[i]}
		case $w in
		--sysroot|--profile-dir|--kernel)
			pre+=("$w" "${words[i+1]}"); i=$((i + 1)); continue ;;
		--sysroot=*|--profile-dir=*|--kernel=*) pre+=("$w"); continue ;;
		-o|--output|--profile|--workqueue|--scope|--cpus|--max-active|--min-active|--from|-i|--interval|-c|--count|-b|--buffer-size|--backend|\
		--set|--runs|--warmup|--seed|--metric|--better|--save|--compare|--threshold|--plot|--textfile|--watch|--sample)
			i=$((i + 1)); continue ;;
		--)
			# experiment's workload: complete it as a command line of its own
			if [[ $cmd == experiment ]]; then _command_offset $((i + 1)); return; fi
			continue ;;
		-*) continue ;;
		esac
		if [[ -z $cmd ]]; then cmd=$w; else
			[[ -z $sub ]] && sub=$w
			# the workqueues a set names: ATTR=local is offered only where one has an owner
			[[ $w != *=* ]] && wqs+=("$w")
		fi
	done
	_wqctl_words() { wqctl "${pre[@]}" __complete "$@" 2>/dev/null | cut -d' ' -f1; }
	# words with a trailing space, except those that end in '=' (a value follows)
	_wqctl_reply() {
		local c
		COMPREPLY=()
		for c in $(compgen -W "$1" -- "$2"); do
			[[ $c == *= ]] && COMPREPLY+=("$3$c") || COMPREPLY+=("$3$c ")
		done
		compopt -o nospace 2>/dev/null || true
	}

	case $prev in
	--sysroot|--profile-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	--kernel|--max-active|--min-active|--cpus|--from|-i|--interval|-c|--count|-b|--buffer-size) COMPREPLY=(); return ;;
	-o|--output)
		# complete the element after the last comma, keep what is before it (and a leading '+')
		local head="" last=$cur
		[[ $last == +* ]] && { head=+; last=${last#+}; }
		[[ $last == *,* ]] && { head+=${last%,*},; last=${last##*,}; }
		COMPREPLY=($(compgen -P "$head" -W "$(_wqctl_words columns "${cmd:-show}")" -- "$last"))
		compopt -o nospace 2>/dev/null || true
		return ;;
	--profile)
		if [[ $cmd == experiment ]]; then
			# a comma list of profiles and none: complete after the last comma
			local head=""
			[[ $cur == *,* ]] && head=${cur%,*},
			COMPREPLY=($(compgen -P "$head" -W "$(_wqctl_words profiles) none" -- "${cur##*,}"))
			compopt -o nospace 2>/dev/null || true
		else
			_wqctl_reply "$(_wqctl_words profiles)" "$cur" ""
		fi
		return ;;
	--set) _wqctl_reply "$(_wqctl_words workqueues)" "$cur" ""; __ltrim_colon_completions "$cur"; return ;;
	--metric) COMPREPLY=($(compgen -W "$(_wqctl_words metrics)" -- "$cur")); __ltrim_colon_completions "$cur"; return ;;
	--better) COMPREPLY=($(compgen -W "higher lower" -- "$cur")); return ;;
	--backend)
		# monitor also reads the kernel's own counters
		if [[ $cmd == monitor ]]; then COMPREPLY=($(compgen -W "auto bpf counters kernel stream" -- "$cur"))
		else COMPREPLY=($(compgen -W "auto bpf kernel stream" -- "$cur")); fi
		return ;;
	--save|--compare) COMPREPLY=($(compgen -W "$(_wqctl_words experiments)" -- "$cur")); return ;;
	--plot) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--textfile) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	--runs|--warmup|--seed|--threshold|--sample) COMPREPLY=(); return ;;
	--workqueue|--watch) _wqctl_reply "$(_wqctl_words workqueues)" "$cur" ""; __ltrim_colon_completions "$cur"; return ;;
	--scope) _wqctl_reply "$(_wqctl_words scopes)" "$cur" ""; return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_wqctl_words options "$cmd" | sort -u)" -- "$cur"))
		return
	fi
	if [[ -z $cmd ]]; then
		_wqctl_reply "$(_wqctl_words commands)" "$cur" ""
		return
	fi
	# ATTR=VALUE (set) and KNOB=VALUE (knob): the values the kernel takes
	if [[ $cur == *=* && ( $cmd == set || $cmd == knob ) ]]; then
		# readline replaces only what follows '=' when '=' breaks words (the default)
		local keep="${cur%%=*}="
		[[ $COMP_WORDBREAKS == *=* ]] && keep=""
		[[ $cmd == set ]] || wqs=()
		_wqctl_reply "$(_wqctl_words values "${cur%%=*}" "${wqs[@]}")" "${cur#*=}" "$keep"
		return
	fi
	case $cmd in
	show|check|snapshot|explain|monitor)
		_wqctl_reply "$(_wqctl_words workqueues)" "$cur" "" ;;
	owner)
		[[ -z $sub ]] && _wqctl_reply "$(_wqctl_words workqueues)" "$cur" "" ;;
	get)
		if [[ -z $sub ]]; then _wqctl_reply "$(_wqctl_words workqueues)" "$cur" ""
		else _wqctl_reply "$(_wqctl_words attributes)" "$cur" ""; fi ;;
	set)
		local a
		_wqctl_reply "$(_wqctl_words workqueues) $(for a in $(_wqctl_words attributes); do echo "$a="; done)" "$cur" "" ;;
	knob)
		local k
		_wqctl_reply "$(_wqctl_words knobs) $(for k in $(_wqctl_words knobs writable); do echo "$k="; done)" "$cur" "" ;;
	profile)
		if [[ -z $sub ]]; then _wqctl_reply "list show use current off install remove cat" "$cur" ""
		else _wqctl_reply "$(_wqctl_words profiles)" "$cur" ""; fi ;;
	dump)
		COMPREPLY=($(compgen -d -- "$cur")) ;;
	esac
	__ltrim_colon_completions "$cur"
}
complete -F _wqctl wqctl
