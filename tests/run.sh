#!/bin/bash
# Run test tiers and count TAP results.
#   tests/run.sh [-j N] TIER...  tiers: unit bats style docs valgrind fuzz live vm e2e package
#   tests/run.sh summary         total of every tier run so far (TAPDIR)
# Each tier's TAP goes to $TAPDIR/TIER.tap; the last line printed is
# "N passed, N failed, N skipped".
# The tiers that share nothing (unit bats style docs valgrind fuzz) are cut
# into jobs (a bats file each, the man pages, the meta tests, the terminal
# tests, a whole tier for the others) that run N at a time (-j, RUN_JOBS,
# default the CPUs), the longest first; live, vm, e2e and package change the
# machine or fill it, and run alone, one after another, after them.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
TAPDIR=${TAPDIR:-$top/build-san/tap}
WQCTL=${WQCTL:-$top/build-san/wqctl}
UNITDIR=${UNITDIR:-$top/build-san/tests}
export WQCTL TOP=$top
mkdir -p "$TAPDIR"

count() { # file -> "pass fail skip"
	awk '/^ok .*# [Ss][Kk][Ii][Pp]/ { s++; next } /^ok / { p++ } /^not ok / { f++ }
	     END { printf "%d %d %d\n", p, f, s }' "$@"
}

tier_unit() {
	local t rc=0
	for t in "$UNITDIR"/test-*; do
		[ -x "$t" ] || continue
		echo "# $(basename "$t")"
		"$t" | grep -E '^(not )?ok ' || rc=1
	done
	return $rc
}

# The bats files, the longest first (their measured order on a 2-core VM,
# 2026-12-05: bad-trees 81 s, scale 98 s, profiles 71 s ... knob 7 s), so
# that the pool does not end on one long file.
BATS_SLOW="scale bad-trees profiles bad-values experiment topology bad-profiles real bad-experiment bad-state"
bats_files() {
	local f
	for f in $BATS_SLOW; do [ -f "$top/tests/bats/$f.bats" ] && echo "$f"; done
	for f in "$top"/tests/bats/*.bats; do
		f=$(basename "$f" .bats)
		case " $BATS_SLOW " in *" $f "*) ;; *) echo "$f" ;; esac
	done
}

# one bats file; as root in a mount namespace of its own, so that the overlay
# trees helpers.bash mounts cannot outlive it
job_bats() { # FILE
	local ns=()
	[ "$(id -u)" = 0 ] && unshare -m --propagation private true 2>/dev/null && ns=(unshare -m --propagation private)
	"${ns[@]}" bats --tap "$1"
}

# the bats tier from its jobs' output: each file numbers its own tests (the tiers
# count ok lines), its plan line left out, then its wall time
tier_bats_report() {
	local f list="" total=0 c rc=0
	for f in "$top"/tests/bats/*.bats; do
		f=$(basename "$f" .bats)
		grep -v '^1\.\.' "$jobdir/bats-$f.out"
		echo "# $f: $(cat "$jobdir/bats-$f.time") s"
		[ "$(cat "$jobdir/bats-$f.rc")" = 0 ] || rc=1
	done
	# the bad-input catalogue: one file per area (issue 11)
	for f in "$top"/tests/bats/bad-*.bats; do
		c=$(bats --count "$f")
		total=$((total + c))
		f=${f##*/bad-}
		list+="${list:+, }${f%.bats} $c"
	done
	echo "# bad-input catalogue: $total cases ($list)"
	return $rc
}
# (a fresh machine may not have tracefs mounted yet: what monitor's tests need)
tier_live() {
	mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
	bats --tap "$top/tests/live"
}
# every libFuzzer harness over its kept regression and seed inputs (deterministic;
# time-boxed random fuzzing is make fuzz)
tier_fuzz() { FUZZ_SECONDS=${FUZZ_SECONDS:-0} "$top/tests/fuzz/run.sh" cpuset kver value profile sysfs saved metric when hist joins; }
tier_vm() { "$top/tests/vm/run.sh" "${WQCTL_PLAIN:-$top/build/wqctl}"; }
tier_e2e() {
	local deb
	deb=$(ls "$top"/build/deb/wqctl_*_*.deb 2>/dev/null | head -1)
	[ -n "$deb" ] || { echo "not ok 1 - e2e: no build/deb/wqctl_*.deb (make deb)"; return 1; }
	"$top/tests/vm/e2e/run.sh" "$deb"
}

# The plain (non-sanitized) build under valgrind, on the live tree and a fixture.
tier_valgrind() {
	local plain=${WQCTL_PLAIN:-$top/build/wqctl} n=0 tree args
	tree=$(mktemp -d)
	"$top/tests/fixtures/mktree.sh" x86_64-64cpu 6.18.0 "$tree" >/dev/null || return 1
	"$top/tests/fixtures/mkowners.sh" "$tree" || return 1
	while IFS= read -r args; do
		n=$((n + 1))
		# the lines are split as the shell would (quotes group words: experiment's --set)
		local -a a
		eval "a=($args)"
		if valgrind -q --suppressions="$top/tests/valgrind.supp" --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
			"$plain" "${a[@]}" >/dev/null 2>"$tree/vg.log" || [ $? -ne 99 ]; then
			if grep -q '^==[0-9]*== ' "$tree/vg.log"; then
				echo "not ok $n - valgrind wqctl $args"
				sed 's/^/#   /' "$tree/vg.log" | head -30
				continue
			fi
			echo "ok $n - valgrind wqctl $args"
		else
			echo "not ok $n - valgrind wqctl $args"
			sed 's/^/#   /' "$tree/vg.log" | head -30
		fi
	done <<-EOF
		show -J
		explain writeback
		topology -J
		check
		knob
		--sysroot $tree show -o +EFFECTIVE_CPUS,PATH
		--sysroot $tree explain writeback --max-active 10 --cpus node:0+node:2
		--sysroot $tree topology
		--sysroot $tree check
		--sysroot $tree set writeback max_active=64 cpumask=0-3 affinity_scope=numa nice=-5
		--sysroot $tree knob cpumask=housekeeping watchdog_thresh=10
		--sysroot $tree set writeback nice=99
		--sysroot $tree --profile-dir $top/profiles apply --profile legacy-numa --profile cpu-partitioning
		--sysroot $tree --profile-dir $top/profiles verify --profile legacy-numa
		--sysroot $tree --profile-dir $top/profiles check --profile storage-sane-limits
		--sysroot $tree --profile-dir $top/profiles profile show legacy-numa
		--sysroot $tree revert
		--sysroot $tree snapshot
		--sysroot $tree snapshot --all writeback
		--sysroot $tree dump $tree/dump
		--sysroot $tree show -o NAME,OWNER,OWNER_NODE
		--sysroot $tree device-props /devices/virtual/block/dm-0
		--sysroot $tree owner kcryptd-253:1-1
		--sysroot $tree -J owner iscsi_q_5
		device-props /sys/devices/virtual/workqueue/writeback
		monitor -J -i 0.3 -c 2
		experiment --set 'writeback max_active=16,32' --runs 1 --seed 1 -- /bin/true
		--sysroot $tree experiment --set 'writeback max_active=16,32' --set 'writeback nice=0,-5' --runs 2 --seed 1 -- /bin/true
		--sysroot $tree experiment --set 'writeback max_active=16,32' --runs 2 --save vg -J -- $top/tests/bats/workloads/fakefio.sh $tree /dev/null
		--sysroot $tree experiment --compare vg --plot $tree/vg.svg
		--sysroot $tree experiment --set 'writeback max_active=16' --metric 're:(' -- /bin/true
		check --isolation --cpus 1 -i 0.5 -J
		check --isolation --cpus 0-1 -i 0.5
		metrics --sample 0.5
		--sysroot $tree --profile-dir $top/profiles metrics --textfile $tree
		--sysroot $tree show --outside
		--sysroot $tree experiment --set 'writeback max_active=16' --watch 'btrfs-*' --watch kblockd --runs 1 --seed 1 -- /bin/true
	EOF
	rm -rf "$tree"
}

# Man pages render without warnings; the meta-test ties commands, help, man
# page and completions; the terminal tests type into real shells.
job_docs_man() {
	local n=0 m out mandir=${MANDIR_BUILD:-$top/build/man}
	for m in "$mandir"/wqctl.8 "$mandir"/wqctl.profile.5; do
		n=$((n + 1))
		if [ -s "$m" ] && out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$m" 2>&1 >/dev/null) && [ -z "$out" ]; then
			echo "ok $n - man --warnings $(basename "$m")"
		else
			echo "not ok $n - man --warnings $(basename "$m")"
			echo "$out" | head -10 | sed 's/^/#   /'
		fi
	done
}
job_docs_meta() { MANDIR_BUILD=${MANDIR_BUILD:-$top/build/man} bats --tap "$top/tests/meta/meta.bats"; }
job_docs_tmux() { MANDIR_BUILD=${MANDIR_BUILD:-$top/build/man} bats --tap "$top/tests/meta/tmux-completion.bats"; }
tier_docs_report() {
	local j rc=0
	for j in man meta tmux; do
		grep -v '^1\.\.' "$jobdir/docs-$j.out"
		[ "$(cat "$jobdir/docs-$j.rc")" = 0 ] || rc=1
	done
	return $rc
}

# The Debian package: build, lintian, install, run, remove, purge; the RPM and the file lists.
tier_package() {
	local n=0 out deb
	t() { # description command...
		local d=$1
		shift
		n=$((n + 1))
		if out=$("$@" 2>&1); then
			echo "ok $n - $d"
		else
			echo "not ok $n - $d"
			echo "$out" | tail -25 | sed 's/^/#   /'
		fi
	}
	cd "$top" || return 1
	t "make deb" make deb
	deb=$(ls build/deb/wqctl_*.deb 2>/dev/null | head -1)
	t "lintian: no errors or warnings" lintian --fail-on error,warning "$deb"
	t "dpkg -i" dpkg -i "$deb"
	t "installed wqctl --version" bash -c '/usr/sbin/wqctl --version | grep -qx "wqctl [0-9.]*"'
	t "installed wqctl show" /usr/sbin/wqctl show
	t "installed files in their standard places" bash -c 'for f in /usr/sbin/wqctl /usr/lib/wqctl/profiles/numa-local.conf \
		/lib/udev/rules.d/60-wqctl.rules /lib/systemd/system/wqctl.service /lib/systemd/system/wqctl-metrics.service \
		/lib/systemd/system/wqctl-metrics.timer /usr/share/man/man8/wqctl.8.gz \
		/usr/share/man/man5/wqctl.profile.5.gz /usr/share/bash-completion/completions/wqctl \
		/usr/share/zsh/vendor-completions/_wqctl /usr/share/fish/vendor_completions.d/wqctl.fish \
		/usr/share/doc/wqctl/examples/randwrite-4k.fio /usr/share/doc/wqctl/examples/btrfs-seqwrite-fsync.fio \
		/usr/share/doc/wqctl/examples/dmcrypt-rw-mix.fio; do
		test -e "$f" || { echo "missing $f"; exit 1; }; done; grep -q "/usr/sbin/wqctl apply --udev" /lib/udev/rules.d/60-wqctl.rules'
	t "man wqctl renders from the package" bash -c 'MANWIDTH=80 man wqctl | grep -q "inspect and tune"'
	# a dump has no vendor profiles: --sysroot keeps the package's own
	t "installed wqctl: --sysroot of a dump still lists the package's profiles" bash -c '
		d=$(mktemp -d) && /usr/sbin/wqctl dump "$d/dump" >/dev/null && [ ! -e "$d/dump/usr/lib/wqctl" ] &&
		out=$(/usr/sbin/wqctl --sysroot "$d/dump" profile list -r -n -o NAME,SOURCE) && rm -rf "$d" &&
		echo "$out" | grep -qx "numa-local /usr/lib/wqctl/profiles/numa-local.conf"'
	t "systemd-analyze verify: the installed unit" systemd-analyze verify /lib/systemd/system/wqctl.service
	t "systemd-analyze verify: the metrics service and timer (issue 46)" systemd-analyze verify \
		/lib/systemd/system/wqctl-metrics.service /lib/systemd/system/wqctl-metrics.timer
	# issue 60 item 18: uid 0 without capabilities still wrote /proc/sys and sysfs by file mode (4.0 before)
	t "systemd-analyze security: the metrics service keeps kernel tunables, modules, cgroups and devices from it, exposure at most 3.0" bash -c '
		out=$(systemd-analyze security --offline=true /lib/systemd/system/wqctl-metrics.service 2>&1) || exit 1
		for d in ProtectKernelTunables ProtectKernelModules ProtectControlGroups PrivateDevices; do
			grep -q "✓ $d=" <<<"$out" || { echo "$d is not set"; exit 1; }
		done
		e=$(sed -n "s/.*Overall exposure level for wqctl-metrics.service: \([0-9.]*\).*/\1/p" <<<"$out")
		awk -v e="$e" "BEGIN { exit !(e != \"\" && e + 0 <= 3.0) }" || { echo "exposure $e"; exit 1; }'
	t "the boot unit is enabled, the metrics timer only installed (the administrator enables it)" bash -c '
		test -L /etc/systemd/system/sysinit.target.wants/wqctl.service &&
		! test -e /etc/systemd/system/timers.target.wants/wqctl-metrics.timer'
	# the service's command line as installed, run by hand: Debian's node_exporter directory gets a valid file
	t "wqctl-metrics.service's ExecStart writes node_exporter's textfile that promtool accepts" bash -c '
		had=$(test -e /var/lib/prometheus/node-exporter/wqctl.prom && echo 1)
		cmd=$(sed -n "s/^ExecStart=//p" /lib/systemd/system/wqctl-metrics.service) &&
		[ "$cmd" = "/usr/sbin/wqctl metrics --syslog --textfile /var/lib/prometheus/node-exporter" ] &&
		mkdir -p /var/lib/prometheus/node-exporter && $cmd &&
		out=$(promtool check metrics </var/lib/prometheus/node-exporter/wqctl.prom 2>&1) && [ -z "$out" ] &&
		grep -q "^wqctl_workqueue_max_active{workqueue=\"writeback\"} " /var/lib/prometheus/node-exporter/wqctl.prom
		rc=$?; [ -n "$had" ] || rm -f /var/lib/prometheus/node-exporter/wqctl.prom; exit $rc'
	# udevadm test simulates the rules (it runs no RUN program and needs no udevd)
	t "udevadm test: a workqueue add event runs the installed wqctl" bash -c '
		udevadm test --action=add /sys/devices/virtual/workqueue/writeback 2>&1 |
			grep -q "60-wqctl.rules:[0-9]* RUN .*/usr/sbin/wqctl apply --udev --syslog"'
	# (a simulated block event writes /run/udev/data: removed again if it was not there)
	t "udevadm test: a block device that is not dm-crypt does not" bash -c '
		[ -d /run/udev ] && had=1
		for d in /sys/class/block/loop0 /sys/class/block/*; do
			case $(basename "$d") in dm-*) continue ;; esac
			[ -e "$d" ] || continue
			out=$(udevadm test --action=add "$d" 2>&1)
			[ -n "${had:-}" ] || pgrep -x systemd-udevd >/dev/null || rm -rf /run/udev
			grep -q "60-wqctl.rules" <<<"$out" || { echo "rules not read"; exit 1; }
			! grep -q "RUN .*wqctl" <<<"$out"
			exit
		done
		echo "no block device"; exit 1'
	# the installed page's EXAMPLES, word for word (one TAP line each, folded into one here)
	t "wqctl(8) EXAMPLES typed word for word after a fresh install" bash -c "PATH=/usr/sbin:/usr/bin:/bin '$top/tests/package/examples.sh'"
	t "the package owns /etc/wqctl/profiles (the man page's examples put profiles there)" bash -c '
		test -d /etc/wqctl/profiles && dpkg -S /etc/wqctl/profiles | grep -q "^wqctl: /etc/wqctl/profiles$"'
	# state the tool writes: the active set, and /run/wqctl (lock, journal) from a set and its revert
	t "installed wqctl: profile use, set, revert leave their state files" bash -c '
		/usr/sbin/wqctl profile use numa-local 2>/dev/null && test -s /etc/wqctl/active-profiles &&
		/usr/sbin/wqctl set writeback nice=1 && /usr/sbin/wqctl revert 2>/dev/null &&
		test "$(cat /sys/devices/virtual/workqueue/writeback/nice)" = 0 && test -d /run/wqctl'
	t "the package ships the README (issue 45)" bash -c 'ls /usr/share/doc/wqctl/README.md* >/dev/null &&
		zcat -f /usr/share/doc/wqctl/README.md* | grep -q "^# wqctl"'
	t "the installed Prometheus rules pass their own tests, as the README runs them (issue 61)" bash -c '
		command -v promtool >/dev/null || { echo "no promtool"; exit 1; }
		cd /usr/share/wqctl/prometheus && promtool test rules wqctl.rules.test.yml | grep -q SUCCESS'
	# every installed path the README names is installed (issue 61)
	t "the README names only installed documents: /usr/share/doc/wqctl/kernel.md is there" bash -c '
		zcat -f /usr/share/doc/wqctl/kernel.md* | grep -q "^## §5 Affinity scopes" &&
		for p in $(zcat -f /usr/share/doc/wqctl/README.md* | grep -o "/usr/share/doc/wqctl/[A-Za-z0-9._/-]*[A-Za-z0-9]" | sort -u); do
			ls "$p" "$p.gz" 2>/dev/null | grep -q . || { echo "README names $p, not installed"; exit 1; }
		done'
	t "lintian -I: the build uses the fortified functions (CPPFLAGS honoured)" bash -c '
		! lintian -I "'"$deb"'" | grep hardening-no-fortify-functions'
	t "the package names its maintainer, no placeholder" bash -c '
		! dpkg-deb -f "'"$deb"'" Maintainer Homepage | grep -i "example\.org"'
	# a saved baseline: purge removes it with the rest of wqctl's state
	mkdir -p /var/lib/wqctl/experiments && echo '{}' >/var/lib/wqctl/experiments/purge-test.json
	t "apt-get remove" apt-get remove -y -qq wqctl
	t "dpkg --purge leaves nothing: not the active set, not /run/wqctl, not the saved experiments" bash -c 'dpkg --purge wqctl >/dev/null && ! test -e /usr/sbin/wqctl && ! dpkg -s wqctl 2>/dev/null | grep -q "^Status: install" &&
		! test -e /etc/wqctl/active-profiles && ! test -e /run/wqctl && ! test -e /etc/wqctl && ! test -e /var/lib/wqctl'
	t "make rpm" make rpm
	# files only (rpm --dump mode 040... is a directory; dpkg-deb -c marks them with a trailing /)
	t "the RPM installs the same files as the .deb, and owns /etc/wqctl/profiles too" bash -c '
		rpm -qlp build/rpm/RPMS/*/wqctl-*.rpm 2>/dev/null | grep -qx /etc/wqctl/profiles || { echo "rpm: no /etc/wqctl/profiles"; exit 1; }
		r=$(rpm -qp --dump build/rpm/RPMS/*/wqctl-*.rpm 2>/dev/null | awk "\$5 !~ /^040/ { print \$1 }" | grep -v "/\.build-id" | grep -v "/doc/" | grep -v "/licenses/" | sed "s|^/usr/lib/udev|/lib/udev|; s|^/usr/lib/systemd|/lib/systemd|" | grep -E "/(sbin|wqctl|rules.d|system|man[58]|completions|vendor|site-functions)" | sed "s/\.gz$//" | xargs -n1 basename | sort -u)
		d=$(dpkg-deb -c build/deb/wqctl_*.deb | awk "{print \$6}" | grep -vE "/$|/doc/" | sed "s/\.gz$//" | xargs -n1 basename | sort -u)
		diff <(echo "$r") <(echo "$d")'
	t "the RPM: LICENSE as %license, README as %doc, zsh completion in site-functions" bash -c '
		l=$(rpm -qlp build/rpm/RPMS/*/wqctl-*.rpm 2>/dev/null) &&
		grep -Eqx "/usr/share/licenses/wqctl(-[0-9.]+)?/LICENSE" <<<"$l" &&
		grep -Eqx "/usr/share/doc/wqctl(-[0-9.]+)?/README.md" <<<"$l" &&
		grep -Eqx "/usr/share/doc/wqctl(-[0-9.]+)?/kernel.md" <<<"$l" &&
		grep -qx /usr/share/zsh/site-functions/_wqctl <<<"$l"'
	t "the RPM: systemd scriptlets for the boot unit" bash -c '
		s=$(rpm -qp --scripts build/rpm/RPMS/*/wqctl-*.rpm 2>/dev/null) && ! grep -q "%" <<<"$s" &&
		grep -q "preset wqctl.service" <<<"$s" && grep -q "disable --now wqctl.service" <<<"$s" &&
		grep -q "try-restart wqctl.service" <<<"$s" && grep -q "preset wqctl.service wqctl-metrics.timer" <<<"$s"'
}

tier_style() {
	local n=0 f out
	for f in $(cd "$top" && { find src -name "*.[ch]" | sort; ls tests/unit/*.[ch] tests/shim/*.c tests/fuzz/*.[ch] bench/*.[ch]; }); do
		n=$((n + 1))
		if out=$(cd "$top" && clang-format --dry-run --Werror "$f" 2>&1); then
			echo "ok $n - clang-format $f"
		else
			echo "not ok $n - clang-format $f"
			echo "$out" | head -20 | sed 's/^/#   /'
		fi
	done
	# a script that stops at the first failing pipeline (set -e with pipefail) has no reader
	# that quits early (head, grep -q, awk's exit) after a pipe: with SIGPIPE at its default,
	# as in any terminal, the writer dies of it and the script stops (issue 60 item 12)
	for f in $(cd "$top" && grep -lE '^set -e[a-z]* *pipefail|^set -euo pipefail' .ci/run tests/*.sh tests/*/*.sh tests/vm/e2e/*.sh bench/*.sh 2>/dev/null); do
		n=$((n + 1))
		if out=$(cd "$top" && grep -nE '(^|[^|])\|[^|#]*(\bhead\b|\bgrep +-[a-zA-Z]*q|awk .*\bexit\b)' "$f" | grep -v '# sigpipe-safe'); then
			echo "not ok $n - $f: no pipeline reader that quits early under set -e and pipefail"
			echo "$out" | head -10 | sed 's/^/#   /'
		else
			echo "ok $n - $f: no pipeline reader that quits early under set -e and pipefail"
		fi
	done
	# every file opens with the licence and a comment that says what it holds (issue 44)
	for f in $(cd "$top" && { find src -name "*.[ch]" | sort; ls tests/unit/*.[ch] tests/shim/*.c tests/fuzz/*.[ch] bench/*.[ch]; }); do
		n=$((n + 1))
		if sed -n 1p "$top/$f" | grep -q 'SPDX-License-Identifier' &&
			sed -n 2,3p "$top/$f" | tr '\n' ' ' | grep -Eq '^/\* +(\* )?[A-Za-z`]'; then
			echo "ok $n - opening comment $f"
		else
			echo "not ok $n - opening comment $f: line 1 the SPDX licence, line 2 a comment saying what the file holds"
			sed -n 1,3p "$top/$f" | sed 's/^/#   /'
		fi
	done
	# src is layered (issues 44, 63): no include circle, no folder including one above it
	# (lib/util < lib/core < lib/obs < cli), no command file calling another's functions
	n=$((n + 1))
	if out=$("$top/tests/layers.sh" check 2>&1); then
		echo "ok $n - layers: no include circle, no folder includes one above it, no command calls another's functions"
	else
		echo "not ok $n - layers: no include circle, no folder includes one above it, no command calls another's functions"
		echo "$out" | sed 's/^/#   /'
	fi
	# each rule, broken on purpose in a copy of src, is found and named
	local plant
	plant() { # NAME EXPECTED-LINE FILE TEXT [FILE TEXT]
		local name=$1 want=$2 t
		shift 2
		t=$(mktemp -d)
		cp -r "$top/src" "$t/"
		while [ $# -gt 1 ]; do
			printf '%s\n' "$2" >>"$t/src/$1"
			shift 2
		done
		n=$((n + 1))
		if out=$("$top/tests/layers.sh" check "$t/src" 2>&1); then
			echo "not ok $n - layers: $name is found"
		elif grep -qF -- "$want" <<<"$out"; then
			echo "ok $n - layers: $name is found"
		else
			echo "not ok $n - layers: $name is found, naming it ($want)"
			echo "$out" | sed 's/^/#   /'
		fi
		rm -rf "$t"
	}
	plant "a circle (core/ctx.h includes check.h)" "  lib/core/check" lib/core/ctx.h '#include "check.h"'
	plant "the core including observation (core/wq.h includes ../obs/monitor.h)" \
		"lib/core/wq includes lib/obs/monitor: lib/core sits below lib/obs" lib/core/wq.h '#include "../obs/monitor.h"'
	plant "the library including the command line" "lib/util/text includes cli/cli: lib/util sits below cli" \
		lib/util/text.h '#include "../../cli/cli.h"'
	plant "a command calling another command's function" "cmd_show.c calls get_shared() of cmd_get.c" \
		cli/cmd_get.c 'int get_shared(void) { return 0; }' cli/cmd_show.c 'static int x(void) { return get_shared(); }'
	# wqctl's own files (run/wqctl, etc/wqctl but its profiles, var/lib/wqctl) are named as paths in
	# core/state.[ch] only, the one module that opens them (issue 63); messages may mention them
	local ownfiles='"(run|etc|var/lib)/wqctl(/[A-Za-z0-9_.-]*)*"'
	n=$((n + 1))
	if out=$(cd "$top" && grep -rnE "$ownfiles" src | grep -v '^src/lib/core/state\.[ch]:' | grep -v '/profiles"'); then
		echo "not ok $n - only core/state.[ch] names wqctl's own files as paths"
		echo "$out" | sed 's/^/#   /'
	else
		echo "ok $n - only core/state.[ch] names wqctl's own files as paths"
	fi
	n=$((n + 1))
	if echo 'static const char *j = "run/wqctl/journal";' | grep -qE "$ownfiles"; then
		echo "ok $n - only core/state.[ch] names wqctl's own files: a journal path planted elsewhere would be found"
	else
		echo "not ok $n - only core/state.[ch] names wqctl's own files: a journal path planted elsewhere would be found"
	fi
	# the command line parses and prints: a function there longer than that is policy to move or split (issue 63)
	n=$((n + 1))
	if out=$(cd "$top" && awk 'FNR == 1 { start = 0 }
		/^[a-z].*\(/ { name = $0 } /^\{$/ { start = FNR } /^\}$/ && start {
		if (FNR - start + 1 > 110) printf "%s: %s: %d lines\n", FILENAME, name, FNR - start + 1; start = 0 }' src/cli/*.c) && [ -z "$out" ]; then
		echo "ok $n - src/cli: no function over 110 lines"
	else
		echo "not ok $n - src/cli: no function over 110 lines"
		echo "$out" | sed 's/^/#   /'
	fi
	n=$((n + 1))
	if out=$(diff <("$top/tests/layers.sh" layers) \
		<(sed -n '/^<!-- layers: tests\/layers.sh layers -->$/,/^<!-- end layers -->$/p' "$top/ARCHITECTURE.md" |
			sed '1,2d;$d' | sed '$d')); then
		echo "ok $n - layers: ARCHITECTURE.md draws the folders and their layers as they are"
	else
		echo "not ok $n - layers: ARCHITECTURE.md draws the folders and their layers as they are (< the includes, > the document)"
		echo "$out" | sed 's/^/#   /'
	fi
	n=$((n + 1))
	# The BPF programs (obs/kbpf.bpf.c, clang's BPF target) are left to the
	# kernel's verifier, which checks them at every load (the VM tier loads them).
	# cppcheck does not model __attribute__((cleanup)): its memleak reports on
	# _cleanup_ variables are false; leaks are caught by ASan in this same run.
	if out=$(cd "$top" && cppcheck --quiet --error-exitcode=1 --enable=warning,portability,performance \
		--suppress=memleak --inline-suppr --std=c11 -I src/lib -i src/lib/obs/kbpf.bpf.c src 2>&1); then
		echo "ok $n - cppcheck src"
	else
		echo "not ok $n - cppcheck src"
		echo "$out" | head -40 | sed 's/^/#   /'
	fi
}

summary() {
	local files=("$TAPDIR"/*.tap)
	[ -e "${files[0]}" ] || { echo "0 passed, 0 failed"; return 1; }
	read -r p f s < <(count "${files[@]}")
	echo "${p} passed, ${f} failed, ${s} skipped"
	[ "$f" -eq 0 ]
}

if [ "${1:-}" = summary ]; then
	summary
	exit
fi
jobs=${RUN_JOBS:-$(nproc)}
if [ "${1:-}" = -j ]; then
	jobs=$2
	shift 2
fi
jobdir=$(mktemp -d)
trap 'rm -rf "$jobdir"' EXIT
export jobdir

# the pooled tiers' jobs, longest first: NAME FUNCTION [ARG]
pooled=()
for tier in "$@"; do
	case $tier in unit | bats | style | docs | valgrind | fuzz) pooled+=("$tier") ;; esac
done
joblist() {
	local t f
	for t in "${pooled[@]}"; do [ "$t" = bats ] && bats_files | head -2 | sed 's/.*/bats-& job_bats &/'; done
	for t in "${pooled[@]}"; do [ "$t" = docs ] && echo "docs-tmux job_docs_tmux"; done
	for t in "${pooled[@]}"; do [ "$t" = bats ] && bats_files | sed 1,2d | sed 's/.*/bats-& job_bats &/'; done
	for t in "${pooled[@]}"; do
		case $t in
		bats) ;;
		docs) echo "docs-meta job_docs_meta" && echo "docs-man job_docs_man" ;;
		*) echo "$t tier_$t" ;;
		esac
	done
}
run_job() { # NAME FUNCTION [ARG]
	local s
	s=$(date +%s.%N)
	case $2 in job_bats) "$2" "$top/tests/bats/$3.bats" ;; *) "$2" ;; esac >"$jobdir/$1.out" 2>&1
	echo $? >"$jobdir/$1.rc"
	awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f\n", e - s }' >"$jobdir/$1.time"
}
if [ ${#pooled[@]} -gt 0 ]; then
	pool_start=$(date +%s)
	export -f run_job job_bats job_docs_man job_docs_meta job_docs_tmux tier_unit tier_style tier_valgrind tier_fuzz
	export top TAPDIR WQCTL UNITDIR
	joblist | sed 's/^/run_job /' | xargs -P "$jobs" -I{} bash -c '{}'
	echo "# ${pooled[*]}: $(($(date +%s) - pool_start)) s, $jobs jobs at a time"
fi

status=0
for tier in "$@"; do
	echo "== tier: $tier"
	case $tier in
	bats | docs) "tier_${tier}_report" >"$TAPDIR/$tier.tap" 2>&1 ;;
	unit | style | valgrind | fuzz)
		cat "$jobdir/$tier.out" >"$TAPDIR/$tier.tap"
		echo "# $tier: $(cat "$jobdir/$tier.time") s" >>"$TAPDIR/$tier.tap"
		;;
	*) "tier_$tier" >"$TAPDIR/$tier.tap" 2>&1 ;;
	esac
	cat "$TAPDIR/$tier.tap"
	read -r p f s < <(count "$TAPDIR/$tier.tap")
	# a tier that ran nothing, or whose runner failed without a "not ok", is a failure
	if [ $((p + f + s)) -eq 0 ]; then
		echo "not ok 1 - tier $tier ran no test" >>"$TAPDIR/$tier.tap"
		f=1
	fi
	echo "# $tier: ${p} passed, ${f} failed, ${s} skipped"
	[ "$f" -eq 0 ] || status=1
done
files=()
for tier in "$@"; do files+=("$TAPDIR/$tier.tap"); done
read -r p f s < <(count "${files[@]}")
echo "${p} passed, ${f} failed, ${s} skipped"
exit $status
