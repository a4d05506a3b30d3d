# fish completion for wqctl; every word comes from wqctl itself (wqctl __complete).
function __wqctl_words
    wqctl __complete $argv 2>/dev/null | string split -f1 ' '
end
function __wqctl_cmd
    set -l skip 0
    for w in (commandline -opc)[2..-1]
        if test $skip -eq 1
            set skip 0
            continue
        end
        switch $w
            case --sysroot --profile-dir --kernel -o --output --profile --workqueue --scope --cpus --max-active --min-active --from -i --interval -c --count -b --buffer-size --backend --set --runs --warmup --seed --metric --better --save --compare --threshold --plot
                set skip 1
            case '-*'
            case '*'
                echo $w
                return
        end
    end
end
function __wqctl_needs_cmd
    test -z (__wqctl_cmd)
end
function __wqctl_using
    contains -- (__wqctl_cmd) $argv
end

complete -c wqctl -f
complete -c wqctl -n __wqctl_needs_cmd -a '(__wqctl_words commands)'
complete -c wqctl -l sysroot -r -a '(__fish_complete_directories)'
complete -c wqctl -l profile-dir -r -a '(__fish_complete_directories)'
complete -c wqctl -l kernel -r
# -o: the element after the last comma, with what is before it
function __wqctl_columns
    set -l tok (commandline -ct)
    set -l head (string match -r '^\+?(?:.*,)?' -- $tok)
    for c in (__wqctl_words columns (__wqctl_cmd; or echo show))
        echo "$head$c"
    end
end
# ATTR=VALUE and KNOB=VALUE: the values the kernel takes
function __wqctl_values
    set -l tok (commandline -ct)
    string match -q '*=*' -- $tok; or return
    set -l name (string split -m1 = -- $tok)[1]
    # the workqueues a set names: ATTR=local is offered only where one has an owner
    set -l wqs
    if __wqctl_using set
        set -l seen 0
        for w in (commandline -opc)[2..-1]
            if test $seen -eq 1; and not string match -q -- '-*' $w; and not string match -q -- '*=*' $w
                set -a wqs $w
            end
            test "$w" = set; and set seen 1
        end
    end
    for v in (__wqctl_words values $name $wqs)
        echo "$name=$v"
    end
end
complete -c wqctl -s o -l output -r -a '(__wqctl_columns)'
complete -c wqctl -s O -l output-all
complete -c wqctl -s J -l json
complete -c wqctl -s r -l raw
complete -c wqctl -s P -l pairs
complete -c wqctl -s n -l noheadings
complete -c wqctl -l list-columns
complete -c wqctl -s q -l quiet
complete -c wqctl -s v -l verbose
complete -c wqctl -l syslog
complete -c wqctl -s h -l help
complete -c wqctl -s V -l version
complete -c wqctl -n '__wqctl_using show get check snapshot explain set owner monitor' -a '(__wqctl_words workqueues)'
complete -c wqctl -n '__wqctl_using get' -a '(__wqctl_words attributes)'
complete -c wqctl -n '__wqctl_using set' -a '(__wqctl_words attributes | string replace -r \'$\' =)'
complete -c wqctl -n '__wqctl_using knob' -a '(__wqctl_words knobs) (__wqctl_words knobs writable | string replace -r \'$\' =)'
complete -c wqctl -n '__wqctl_using set knob' -a '(__wqctl_values)'
complete -c wqctl -n '__wqctl_using profile' -a 'list show use current off install remove cat (__wqctl_words profiles)'
complete -c wqctl -n '__wqctl_using apply verify check' -l profile -r -a '(__wqctl_words profiles)'
complete -c wqctl -n '__wqctl_using apply' -l workqueue -r -a '(__wqctl_words workqueues)'
complete -c wqctl -n '__wqctl_using apply' -l udev
complete -c wqctl -n '__wqctl_using apply' -l boot
complete -c wqctl -n '__wqctl_using set apply knob' -l dry-run
complete -c wqctl -n '__wqctl_using set' -l force
complete -c wqctl -n '__wqctl_using profile' -l now
complete -c wqctl -n '__wqctl_using monitor' -s i -l interval -r
complete -c wqctl -n '__wqctl_using monitor' -s c -l count -r
complete -c wqctl -n '__wqctl_using monitor' -s b -l buffer-size -r
complete -c wqctl -n '__wqctl_using monitor' -l backend -x -a 'auto bpf counters kernel stream'
complete -c wqctl -n '__wqctl_using get' -l hex
complete -c wqctl -n '__wqctl_using show' -l outside
complete -c wqctl -n '__wqctl_using metrics' -l textfile -x -a '(__fish_complete_directories)'
complete -c wqctl -n '__wqctl_using metrics' -l sample -x
complete -c wqctl -n '__wqctl_using check verify' -l strict
complete -c wqctl -n '__wqctl_using explain' -l max-active -r
complete -c wqctl -n '__wqctl_using explain' -l min-active -r
complete -c wqctl -n '__wqctl_using explain' -l cpus -r
complete -c wqctl -n '__wqctl_using explain' -l from -r
complete -c wqctl -n '__wqctl_using explain topology' -l scope -r -a '(__wqctl_words scopes)'
# experiment: axes, metric, baselines; after -- the workload is a command line of its own
function __wqctl_after_dashdash
    contains -- -- (commandline -opc)
end
function __wqctl_workload
    set -l args (commandline -opc)
    set -l i (contains -i -- -- $args)
    complete -C (string join ' ' -- (string escape -- $args[(math $i + 1)..-1]) (commandline -ct))
end
complete -c wqctl -n '__wqctl_using experiment; and __wqctl_after_dashdash' -f -a '(__wqctl_workload)'
complete -c wqctl -n '__wqctl_using experiment; and not __wqctl_after_dashdash' -l set -x -a '(__wqctl_words workqueues)'
complete -c wqctl -n '__wqctl_using experiment; and not __wqctl_after_dashdash' -l profile -x -a '(__wqctl_words profiles) none'
complete -c wqctl -n '__wqctl_using experiment; and not __wqctl_after_dashdash' -l runs -x
complete -c wqctl -n '__wqctl_using experiment; and not __wqctl_after_dashdash' -l warmup -x
complete -c wqctl -n '__wqctl_using experiment; and not __wqctl_after_dashdash' -l seed -x
complete -c wqctl -n '__wqctl_using experiment; and not __wqctl_after_dashdash' -l metric -x -a '(__wqctl_words metrics)'
complete -c wqctl -n '__wqctl_using experiment; and not __wqctl_after_dashdash' -l better -x -a 'higher lower'
complete -c wqctl -n '__wqctl_using experiment; and not __wqctl_after_dashdash' -l save -x -a '(__wqctl_words experiments)'
complete -c wqctl -n '__wqctl_using experiment; and not __wqctl_after_dashdash' -l compare -x -a '(__wqctl_words experiments)'
complete -c wqctl -n '__wqctl_using experiment; and not __wqctl_after_dashdash' -l threshold -x
complete -c wqctl -n '__wqctl_using experiment; and not __wqctl_after_dashdash' -l plot -r -F
complete -c wqctl -n '__wqctl_using experiment; and not __wqctl_after_dashdash' -l force
complete -c wqctl -n '__wqctl_using experiment; and not __wqctl_after_dashdash' -l no-monitor
complete -c wqctl -n '__wqctl_using experiment; and not __wqctl_after_dashdash' -l watch -x -a '(__wqctl_words workqueues)'
complete -c wqctl -n '__wqctl_using experiment; and not __wqctl_after_dashdash' -l backend -x -a 'auto bpf kernel stream'
complete -c wqctl -n '__wqctl_using check' -l isolation
complete -c wqctl -n '__wqctl_using check' -s i -l interval -x
complete -c wqctl -n '__wqctl_using check' -l cpus -x
