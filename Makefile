# wqctl — inspect and tune Linux kernel workqueues
VERSION := 0.1.0

PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
DATADIR ?= $(PREFIX)/share
LIBDIR_WQCTL ?= $(PREFIX)/lib/wqctl
MANDIR ?= $(DATADIR)/man
DOCDIR ?= $(DATADIR)/doc/wqctl
SYSCONFDIR ?= /etc
RUNDIR ?= /run
DESTDIR ?=

CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS := libudev inih numa libnl-3.0 libnl-route-3.0 smartcols json-c libtracefs libtraceevent libbpf
# libudev, libnuma, libnl, libtracefs, libtraceevent, libbpf, libsmartcols and json-c (src/lib/util/dl.c)
# are dlopen()ed on first use: the udev hook path must not pay for loading them.
# Their headers still come from pkg-config.
LINK_PKGS := inih

BUILD ?= build
SAN ?=
# the check targets build with a job per CPU
NPROC := $(shell nproc 2>/dev/null || echo 2)

WARN := -Wall -Wextra -Wformat=2 -Wshadow -Wmissing-prototypes -Wstrict-prototypes -Wvla
CFLAGS ?= -O2 -g
ifneq ($(SAN),)
CFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif
ifneq ($(WERROR),)
WARN += -Werror
endif

# Evaluated only when building, so `make deps` works before the -dev packages exist.
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS))
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(LINK_PKGS)) -ldl -lm
ALL_CFLAGS = -std=gnu11 $(WARN) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP \
	-DWQCTL_VERSION='"$(VERSION)"' \
	-DWQCTL_SYSCONFDIR='"$(SYSCONFDIR)"' -DWQCTL_RUNDIR='"$(RUNDIR)"' \
	-DWQCTL_LIBDIR='"$(LIBDIR_WQCTL)"'

LIB_SRC := $(filter-out %.bpf.c,$(wildcard src/lib/*/*.c))
CLI_SRC := $(wildcard src/cli/*.c)
UNIT_SRC := $(wildcard tests/unit/test-*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

MAN_PAGES := $(BUILD)/man/wqctl.8 $(BUILD)/man/wqctl.profile.5
BASHCOMPDIR ?= $(shell $(PKG_CONFIG) --variable=completionsdir bash-completion 2>/dev/null || echo $(DATADIR)/bash-completion/completions)
ZSHCOMPDIR ?= $(DATADIR)/zsh/vendor-completions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d

.PHONY: all run check check-unit check-bats check-style check-docs check-valgrind check-live check-vm check-vm-e2e bench bench-monitor bench-scale bench-stats deps deps-build install uninstall clean
all: $(BUILD)/wqctl $(UNIT_BIN) man

.PHONY: man
man: $(MAN_PAGES)

# Release tarballs ship the generated pages (man/*.[58]), so packagers need no scdoc.
$(BUILD)/man/%: man/%.scd
	@mkdir -p $(dir $@)
	if [ -f man/$* ] && ! command -v scdoc >/dev/null; then cp man/$* $@; else scdoc <$< >$@; fi

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/libwq.a: $(LIB_OBJ)
	$(AR) rcs $@ $^

$(BUILD)/wqctl: $(CLI_OBJ) $(BUILD)/libwq.a
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(BUILD)/tests/%: tests/unit/%.c tests/unit/tap.h tests/unit/monrow.h $(BUILD)/libwq.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Isrc -DWQ_FIXTURES='"$(CURDIR)/tests/fixtures"' -o $@ $< $(BUILD)/libwq.a $(LDFLAGS) $(PKG_LIBS) $(UNIT_LIBS_$*)

# monitor's BPF programs (obs/kbpf.bpf.c), built by clang for the BPF target
# and linked into the program (obs/kbpf.c .incbin's the object)
CLANG ?= clang
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
$(BUILD)/kbpf.bpf.o: src/lib/obs/kbpf.bpf.c src/lib/obs/kbpf_shared.h
	@mkdir -p $(dir $@)
	$(CLANG) -O2 -g -target bpf -Wall $(if $(WERROR),-Werror) -I/usr/include/$(MULTIARCH) -Isrc/lib/obs -c -o $@ $<
$(BUILD)/src/lib/obs/kbpf.o: $(BUILD)/kbpf.bpf.o
$(BUILD)/src/lib/obs/kbpf.o: ALL_CFLAGS += -DWQ_KBPF_OBJECT='"$(BUILD)/kbpf.bpf.o"'

# test-kcount writes its fixture's BTF with libbpf's encoder (the program itself dlopen()s libbpf)
UNIT_LIBS_test-kcount := -lbpf

# LD_PRELOAD fault-injection shim for the tests (never sanitized: it runs inside the plain build)
$(BUILD)/tests/libfailwrite.so: tests/shim/failwrite.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(WARN) -O2 -g -shared -fPIC -o $@ $< -ldl

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)

# Debian packages: what the build needs (make run, install, dist: about 96
# packages, 333 MiB installed on a minimal Debian 12, measured with
# dpkg-query over their dependencies), and what the tests add (make check
# and the other tiers: about 515 more, 1.7 GiB: QEMU, clang, valgrind, Chromium,
# Prometheus, Ansible...). Missing ones are installed when root.
BUILD_PKGS := build-essential pkg-config libudev-dev libinih-dev libnuma-dev libnl-3-dev \
	libnl-route-3-dev libsmartcols-dev libjson-c-dev libtracefs-dev libtraceevent-dev libbpf-dev clang scdoc
TEST_PKGS := bats bats-assert bats-support cppcheck clang-format valgrind udev iproute2 man-db systemd zsh fish bash-completion tmux debhelper dpkg-dev lintian fakeroot rpm \
	qemu-system-x86 busybox-static pahole cpio clang libclang-rt-14-dev mmdebstrap e2fsprogs btrfs-progs xz-utils kmod fio gnuplot-nox \
	prometheus prometheus-node-exporter curl ansible-core chromium
DEB_PKGS := $(BUILD_PKGS) $(TEST_PKGS)
# $(call apt,PACKAGES,WHAT): install the missing ones when root, else name them
apt = @missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
		grep -q 'install ok installed' || echo $$p; done); \
	if [ -z "$$missing" ]; then echo "deps: all $(2) packages are installed"; exit 0; fi; \
	if [ "$$(id -u)" != 0 ]; then echo "deps: run as root, or: apt-get install $$missing" >&2; exit 1; fi; \
	echo "deps: installing the $(2) packages $$missing"; \
	export DEBIAN_FRONTEND=noninteractive; \
	apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing >/dev/null
deps-build:
	$(call apt,$(BUILD_PKGS),build)
deps:
	$(call apt,$(DEB_PKGS),build and test)

run: deps-build
	$(MAKE) $(BUILD)/wqctl
	./$(BUILD)/wqctl show

# Every tier that needs no extra set-up, built with ASan+UBSan.
check: deps
	$(MAKE) -j$(NPROC) BUILD=build-san SAN=1 WERROR=1 all
	$(MAKE) -j$(NPROC) WERROR=1 $(BUILD)/wqctl $(BUILD)/tests/libfailwrite.so man
	$(MAKE) -j$(NPROC) $(FUZZ_BIN)
	@WQCTL=$(CURDIR)/build-san/wqctl WQCTL_PLAIN=$(CURDIR)/$(BUILD)/wqctl UNITDIR=$(CURDIR)/build-san/tests \
		WQCTL_SHIM=$(CURDIR)/$(BUILD)/tests/libfailwrite.so MANDIR_BUILD=$(CURDIR)/$(BUILD)/man \
		FUZZDIR=$(CURDIR)/$(BUILD)/fuzz FUZZ_RUNS=$(FUZZ_SMOKE_RUNS) tests/run.sh unit bats style docs valgrind fuzz

check-unit check-bats check-style check-docs check-valgrind: deps
	$(MAKE) -j$(NPROC) BUILD=build-san SAN=1 WERROR=1 all
	$(MAKE) -j$(NPROC) WERROR=1 $(BUILD)/wqctl $(BUILD)/tests/libfailwrite.so man
	@WQCTL=$(CURDIR)/build-san/wqctl WQCTL_PLAIN=$(CURDIR)/$(BUILD)/wqctl UNITDIR=$(CURDIR)/build-san/tests \
		WQCTL_SHIM=$(CURDIR)/$(BUILD)/tests/libfailwrite.so MANDIR_BUILD=$(CURDIR)/$(BUILD)/man \
		tests/run.sh $(@:check-%=%)

# Real /sys of this machine; restores every value it changes.
check-live: deps
	$(MAKE) BUILD=build-san SAN=1 WERROR=1 all
	@WQCTL=$(CURDIR)/build-san/wqctl tests/run.sh live

# libFuzzer harnesses (tests/fuzz): the library built with clang, ASan and UBSan.
FUZZ_TARGETS := cpuset kver value profile sysfs saved metric when hist joins
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 600
# make check's smoke run: this many inputs per harness from a fixed seed
FUZZ_SMOKE_RUNS ?= 20000
FUZZ_BIN := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz-%)
# The library is compiled once for every harness (it was compiled again for
# each of the harnesses: 111 s of make check's build on 2 cores, now 20 s).
FUZZ_CFLAGS := -std=gnu11 -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-DWQCTL_VERSION='"$(VERSION)"' -DWQCTL_SYSCONFDIR='"$(SYSCONFDIR)"' -DWQCTL_RUNDIR='"$(RUNDIR)"' \
	-DWQCTL_LIBDIR='"$(LIBDIR_WQCTL)"'
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/fuzz/%.o)
$(BUILD)/fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(PKG_CFLAGS) -MMD -MP -c -o $@ $<
$(BUILD)/fuzz/src/lib/obs/kbpf.o: $(BUILD)/kbpf.bpf.o
$(BUILD)/fuzz/src/lib/obs/kbpf.o: FUZZ_CFLAGS += -DWQ_KBPF_OBJECT='"$(BUILD)/kbpf.bpf.o"'
$(BUILD)/fuzz/libwq-fuzz.a: $(FUZZ_LIB_OBJ)
	$(AR) rcs $@ $^
$(BUILD)/fuzz/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz.h $(BUILD)/fuzz/libwq-fuzz.a
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(PKG_CFLAGS) -Isrc/lib -o $@ $< $(BUILD)/fuzz/libwq-fuzz.a $(PKG_LIBS)
-include $(FUZZ_LIB_OBJ:.o=.d)

# Every harness for FUZZ_SECONDS (default 10 minutes) from the seeds; a finding
# is saved under build/fuzz/ and fails the target.
fuzz: deps
	$(MAKE) $(FUZZ_BIN)
	@FUZZDIR=$(CURDIR)/$(BUILD)/fuzz FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh $(FUZZ_TARGETS)

# Debian's own kernels (6.1, 6.12, the 6.18 LTS, 7.3 and 7.3 PREEMPT_RT) booted
# under QEMU with NUMA layouts; wqctl's figures against a probe module's measured
# concurrency, its pods against the kernel's strict pools (tests/vm). The plain
# build runs in the guest; kernels, headers and the trixie chroot that builds
# the probe for gcc-14 kernels are cached in VM_CACHE (build/vm by default).
check-vm: deps
	$(MAKE) WERROR=1 $(BUILD)/wqctl
	@WQCTL_PLAIN=$(CURDIR)/$(BUILD)/wqctl tests/run.sh vm

# End to end (issue 12, in progress): the .deb in a Debian guest booted with
# systemd on Debian's 6.12 kernel, 4 NUMA nodes; the boot path so far.
check-vm-e2e: deps deb
	@tests/run.sh e2e

# Speed and memory against floors measured in the same run; the plain build.
bench: deps
	$(MAKE) $(BUILD)/wqctl
	bench/hook.sh $(CURDIR)/$(BUILD)/wqctl
	bench/show.sh $(CURDIR)/$(BUILD)/wqctl

# monitor's cost on real kernels (issue 47): Debian's 6.12 and 7.3 under QEMU,
# the probe flooding a workqueue at 1k, 10k, 100k items/s and its most;
# wqctl's CPU time, per event and against monitor idle, events lost, and its
# counts against the probe's (tests/vm/benchtruth.sh; table in build/vm).
bench-monitor: deps
	$(MAKE) $(BUILD)/wqctl
	VM_KERNELS="C X" VM_BENCH=1 tests/vm/run.sh $(CURDIR)/$(BUILD)/wqctl

# Big machines and many devices (issue 15): 1,250 / 10,000 workqueues on
# 64 / 1,024 / 8,192 CPUs, every command against a floor on the same tree.
bench-scale: deps
	$(MAKE) $(BUILD)/wqctl
	bench/scale.sh $(CURDIR)/$(BUILD)/wqctl

# experiment's verdicts (issue 62): their error rates through the real
# --save/--compare path, a simulated workload, 200 seeded comparisons a cell.
bench-stats: deps
	$(MAKE) $(BUILD)/wqctl
	bench/stats.sh $(CURDIR)/$(BUILD)/wqctl

UDEVRULESDIR ?= $(shell $(PKG_CONFIG) --variable=udevdir udev 2>/dev/null || echo /usr/lib/udev)/rules.d
SYSTEMDUNITDIR ?= $(shell $(PKG_CONFIG) --variable=systemdsystemunitdir systemd 2>/dev/null || echo /usr/lib/systemd/system)

$(BUILD)/60-wqctl.rules: udev/60-wqctl.rules
	@mkdir -p $(dir $@)
	sed 's|@SBINDIR@|$(SBINDIR)|g' $< >$@

$(BUILD)/wqctl.service: systemd/wqctl.service.in
	@mkdir -p $(dir $@)
	sed 's|@SBINDIR@|$(SBINDIR)|g' $< >$@

# Debian's prometheus-node-exporter reads --collector.textfile.directory here
TEXTFILEDIR ?= /var/lib/prometheus/node-exporter
$(BUILD)/wqctl-metrics.service: systemd/wqctl-metrics.service.in
	@mkdir -p $(dir $@)
	sed 's|@SBINDIR@|$(SBINDIR)|g; s|@TEXTFILEDIR@|$(TEXTFILEDIR)|g' $< >$@

install: $(BUILD)/wqctl $(BUILD)/60-wqctl.rules $(BUILD)/wqctl.service $(BUILD)/wqctl-metrics.service $(MAN_PAGES)
	install -D -m 0755 $(BUILD)/wqctl $(DESTDIR)$(SBINDIR)/wqctl
	install -d $(DESTDIR)$(LIBDIR_WQCTL)/profiles
	# the administrator's profiles (wqctl.profile(5)): owned by the package, empty
	install -d -m 0755 $(DESTDIR)$(SYSCONFDIR)/wqctl/profiles
	install -m 0644 profiles/*.conf $(DESTDIR)$(LIBDIR_WQCTL)/profiles/
	install -D -m 0644 $(BUILD)/60-wqctl.rules $(DESTDIR)$(UDEVRULESDIR)/60-wqctl.rules
	install -D -m 0644 $(BUILD)/wqctl.service $(DESTDIR)$(SYSTEMDUNITDIR)/wqctl.service
	install -D -m 0644 $(BUILD)/wqctl-metrics.service $(DESTDIR)$(SYSTEMDUNITDIR)/wqctl-metrics.service
	install -D -m 0644 systemd/wqctl-metrics.timer $(DESTDIR)$(SYSTEMDUNITDIR)/wqctl-metrics.timer
	install -D -m 0644 $(BUILD)/man/wqctl.8 $(DESTDIR)$(MANDIR)/man8/wqctl.8
	install -D -m 0644 $(BUILD)/man/wqctl.profile.5 $(DESTDIR)$(MANDIR)/man5/wqctl.profile.5
	install -D -m 0644 completions/wqctl.bash $(DESTDIR)$(BASHCOMPDIR)/wqctl
	install -D -m 0644 completions/_wqctl $(DESTDIR)$(ZSHCOMPDIR)/_wqctl
	install -D -m 0644 completions/wqctl.fish $(DESTDIR)$(FISHCOMPDIR)/wqctl.fish
	# fio jobs for wqctl experiment (wqctl(8))
	install -d $(DESTDIR)$(DOCDIR)/examples
	install -m 0644 examples/*.fio $(DESTDIR)$(DOCDIR)/examples/
	# Prometheus rules for wqctl metrics, with their promtool tests (wqctl(8), metrics)
	install -d $(DESTDIR)$(DATADIR)/wqctl/prometheus
	install -m 0644 prometheus/wqctl.rules.yml prometheus/wqctl.rules.test.yml $(DESTDIR)$(DATADIR)/wqctl/prometheus/
	install -D -m 0644 prometheus/consoles/wqctl.html $(DESTDIR)$(DATADIR)/wqctl/prometheus/consoles/wqctl.html

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/wqctl
	rm -rf $(DESTDIR)$(LIBDIR_WQCTL)/profiles
	rm -f $(DESTDIR)$(UDEVRULESDIR)/60-wqctl.rules $(DESTDIR)$(SYSTEMDUNITDIR)/wqctl.service
	rm -f $(DESTDIR)$(SYSTEMDUNITDIR)/wqctl-metrics.service $(DESTDIR)$(SYSTEMDUNITDIR)/wqctl-metrics.timer
	rm -f $(DESTDIR)$(MANDIR)/man8/wqctl.8 $(DESTDIR)$(MANDIR)/man5/wqctl.profile.5
	rm -f $(DESTDIR)$(BASHCOMPDIR)/wqctl $(DESTDIR)$(ZSHCOMPDIR)/_wqctl $(DESTDIR)$(FISHCOMPDIR)/wqctl.fish
	rm -rf $(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(DATADIR)/wqctl/prometheus

# Release tarball: the tracked files plus the generated man pages (packagers need no scdoc).
DISTDIR := $(BUILD)/dist/wqctl-$(VERSION)
dist: $(MAN_PAGES)
	rm -rf $(BUILD)/dist && mkdir -p $(DISTDIR)
	git ls-files -z | xargs -0 cp --parents -t $(DISTDIR)
	cp $(MAN_PAGES) $(DISTDIR)/man/
	tar -C $(BUILD)/dist -czf $(BUILD)/wqctl-$(VERSION).tar.gz wqctl-$(VERSION)
	@echo "dist: $(BUILD)/wqctl-$(VERSION).tar.gz"

# Debian binary package, built from the release tarball in a temporary export.
deb: dist
	rm -rf $(BUILD)/deb && mkdir -p $(BUILD)/deb
	tar -C $(BUILD)/deb -xzf $(BUILD)/wqctl-$(VERSION).tar.gz
	cp -r packaging/debian $(BUILD)/deb/wqctl-$(VERSION)/debian
	cd $(BUILD)/deb/wqctl-$(VERSION) && dpkg-buildpackage -us -uc -b
	@ls $(BUILD)/deb/*.deb

# RPM from the same tarball (rpm's tools are Debian packages here; build
# dependencies are Fedora names, hence --nodeps).
rpm: dist
	rm -rf $(BUILD)/rpm && mkdir -p $(BUILD)/rpm/SOURCES
	cp $(BUILD)/wqctl-$(VERSION).tar.gz $(BUILD)/rpm/SOURCES/
	rpmbuild -bb --nodeps --define "_topdir $(CURDIR)/$(BUILD)/rpm" packaging/rpm/wqctl.spec
	@find $(BUILD)/rpm/RPMS -name '*.rpm'

# Build, lintian, install, run, remove and purge the .deb on this machine.
check-package: deps
	@tests/run.sh package

.PHONY: dist deb rpm check-package fuzz

clean:
	rm -rf build build-san
