# copyscope - one non-recursive Makefile.
#
#   make            build build/copyscope (release flavour)
#   make run        install missing packages, build, run the default suite
#                   into the default database and print the results
#   make test       unit tests (also under ASan+UBSan) and smoke tests
#   make bench      harness-overhead benchmark (bench/)
#   make bench-inject  inject_ns asked against delivered on sys.null, by
#                   ab pairs (bench/inject_accuracy.sh)
#   make fuzz       libFuzzer harnesses (tests/fuzz/), FUZZ_TIME s each
#   make lint       the layering and size rules of docs/architecture.md
#   make man        man/copyscope.1's OPTIONS from the option tables
#                   (scripts/check-structure.py), cppcheck and clang-tidy
#   make static     build/copyscope-static: linked statically, without the
#                   PostgreSQL store (Debian ships no static libpq
#                   dependencies) and without `boot`; what `copyscope boot`
#                   puts into the guest's initramfs
#   make test-boot  boot Debian's kernel in qemu (TCG here) with and
#                   without clearcpuid=smap: tests/boot/test_boot.sh; and
#                   its arm64 kernel twice (with and without kpti=1):
#                   tests/boot/test_boot_arm64.sh
#   make aarch64    build/aarch64/copyscope: cross-compiled for arm64 with
#                   gcc-aarch64-linux-gnu against the arm64 multiarch
#                   libraries (scripts/install-deps.sh installs them);
#                   its BPF programs against the BTF inside Debian's
#                   arm64 kernel (fetched by scripts/fetch-kernel.sh
#                   --arch arm64), or without BPF (COPYSCOPE_NO_BPF) when
#                   that cannot be had
#   make static-aarch64  build/aarch64/copyscope-static, for arm64 guests
#                   (its libgsl.a from Debian's libgsl-dev:arm64, fetched
#                   by scripts/fetch-arm64-static.sh)
#   make test-aarch64  the unit tests and the smoke tests qemu-user can run,
#                   on the arm64 build (tests/run-tests-aarch64.sh)
#   make install    install the binary, man page and bash completion under
#                   $(DESTDIR)$(PREFIX) (PREFIX=/usr/local); make uninstall
#   make clean
#   V=1             show the commands
#   JOBS=N          build with N jobs (default: every CPU); the tests
#                   themselves run one at a time whatever JOBS is

# Every CPU builds unless JOBS says otherwise; set at the top level only,
# so that the recursive makes share its jobserver.
JOBS    ?= $(shell nproc 2>/dev/null || echo 1)
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(JOBS)
endif

CC      ?= gcc
PREFIX  ?= /usr/local
MANDIR  ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
BUILD   := build
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

# -Wno-format-truncation: messages are snprintf'ed into fixed buffers and
# cut short by design; gcc cannot see that and warns on every one.
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wformat=2 -Werror -Wno-format-truncation
# libpq (the PostgreSQL store): its header lives in its own directory.
PQ_CFLAGS := $(shell pkg-config --cflags libpq 2>/dev/null || \
	       echo -I/usr/include/postgresql)
# BPF programs (src/bpf/NAME.bpf.c): compiled by clang -target bpf
# against vmlinux.h, which bpftool dumps from the running kernel's BTF
# (CO-RE: the programs relocate to whichever kernel loads them), and
# embedded as libbpf skeletons, build/bpf/NAME.skel.h.  Without BTF on the
# build host there are no skeletons: COPYSCOPE_NO_BPF, and copyscope says
# at run time that it was built without BPF.
BTF_FILE  ?= /sys/kernel/btf/vmlinux
# The programs' target (bpf_tracing.h's registers): the build host's.
BPF_ARCH  ?= $(if $(filter aarch64 arm64,$(shell uname -m)),arm64,x86)
BPF_SRCS  := $(sort $(wildcard src/bpf/*.bpf.c))
ifneq ($(wildcard $(BTF_FILE)),)
BPF_SKELS := $(patsubst src/bpf/%.bpf.c,$(BUILD)/bpf/%.skel.h,$(BPF_SRCS))
BPF_DEFS  :=
else
BPF_SKELS :=
BPF_DEFS  := -DCOPYSCOPE_NO_BPF
endif
# libtraceevent (the kernel views' tracepoint records): its own directory.
TEP_CFLAGS := $(shell pkg-config --cflags libtraceevent 2>/dev/null || \
	       echo -I/usr/include/traceevent)
BASEFLAGS := -std=gnu11 -g $(WARN) -D_GNU_SOURCE -Isrc $(PQ_CFLAGS) \
           $(TEP_CFLAGS) -I$(BUILD)/bpf $(BPF_DEFS) \
           -DCOPYSCOPE_VERSION='"$(VERSION)"'
# -fno-omit-frame-pointer: the profile's user call chains (the kernel
# walks the user stack by its frame pointers; docs/kernel-views.md,
# "User call chains", measured it to cost nothing on sys.null)
CFLAGS_release  := -O2 -fno-omit-frame-pointer
CFLAGS_sanitize := -O1 -fno-omit-frame-pointer \
                   -fsanitize=address,undefined -fno-sanitize-recover=all
CFLAGS_static   := -O2 -fno-omit-frame-pointer -DCOPYSCOPE_STATIC
# libarchive: the initramfs of `copyscope boot` (a cpio archive);
# libtraceevent: run --kernel reads the kernel's tracepoint records.
# LIBS_PQ, LIBS_GSL: the aarch64 build links the arm64 runtime libraries
# by file name (libpq-dev and libgsl-dev are not multiarch co-installable:
# only their amd64 -dev packages are installed; the headers are shared).
LIBS_PQ  ?= -lpq
LIBS_GSL ?= -lgsl -lgslcblas
LIBS    := -lsqlite3 $(LIBS_PQ) -ljansson -ltraceevent $(LIBS_GSL) -larchive \
	   -lbpf -lelf -lz -lpthread -lm
# The static binary: no libpq (its static dependencies - Kerberos, LDAP -
# are not packaged as .a files) and no libarchive (boot is not in it).
LIBS_static := -static $(STATIC_LDIRS) -lsqlite3 -ljansson -ltraceevent -lgsl -lgslcblas \
	       -lbpf -lelf -lz -lpthread -lm

ifeq ($(V),1)
Q :=
else
Q := @
endif

SRCS      := $(filter-out src/bpf/%,$(sort $(wildcard src/*.c src/*/*.c)))
# Generated: the HTML report's JavaScript as a C array (see below).
GEN_SRCS  := $(BUILD)/gen/report_bundle.c $(BUILD)/gen/syscall_names.c
LIB_SRCS  := $(filter-out src/main.c,$(SRCS)) $(GEN_SRCS)
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))

# $(call objs,flavour,sources)
objs = $(patsubst %.c,$(BUILD)/$(1)/%.o,$(2))

BIN            := $(BUILD)/copyscope
BIN_SANITIZE   := $(BUILD)/copyscope-sanitize
BIN_STATIC     := $(BUILD)/copyscope-static
# What the static binary leaves out (see LIBS_static).
STATIC_SRCS    := $(filter-out src/store/db_pg.c src/cli/boot.c src/boot/%.c \
		  src/session/boot_ab%.c,\
		  $(SRCS)) $(GEN_SRCS)
UNIT_BINS      := $(patsubst tests/unit/%.c,$(BUILD)/release/unit/%,$(UNIT_SRCS))
UNIT_BINS_SAN  := $(patsubst tests/unit/%.c,$(BUILD)/sanitize/unit/%,$(UNIT_SRCS))
BENCH_BINS     := $(patsubst bench/%.c,$(BUILD)/bench/%,$(wildcard bench/*.c))

.PHONY: all static aarch64 aarch64-btf static-aarch64 test-aarch64 test-boot run test unit unit-sanitize smoke bench bench-inject lint install uninstall \
	clean deps fuzz fuzz-build web-deps man

all: $(BIN)

# The compile flags as one file, rewritten only when they change (BPF on
# or off, a new -f flag), so that every object is rebuilt then and not
# linked as it was compiled before.
FLAGS_STAMP := $(BUILD)/cflags.stamp
FLAGS_NOW   := $(BASEFLAGS) | $(CFLAGS_release) | $(CFLAGS_sanitize) | $(CFLAGS_static)
$(shell mkdir -p $(BUILD) && { printf '%s\n' '$(FLAGS_NOW)' | \
	cmp -s - $(FLAGS_STAMP) || printf '%s\n' '$(FLAGS_NOW)' >$(FLAGS_STAMP); })

# Objects of one flavour; the flavour's flags are baked into each object.
define flavour_rules
$(BUILD)/$(1)/%.o: %.c $(FLAGS_STAMP) | $(BPF_SKELS)
	@mkdir -p $$(@D)
	@$(if $(Q),echo "  CC [$(1)] $$<")
	$(Q)$$(CC) $(BASEFLAGS) $(CFLAGS_$(1)) \
		-DCOPYSCOPE_BUILD_FLAVOUR='"$(1)"' \
		-DCOPYSCOPE_CFLAGS='"$(strip $(CFLAGS_$(1)))"' \
		-MMD -MP -c $$< -o $$@

$(BUILD)/$(1)/unit/%: tests/unit/%.c $(call objs,$(1),$(LIB_SRCS))
	@mkdir -p $$(@D)
	@$(if $(Q),echo "  LD [$(1)] $$@")
	$(Q)$$(CC) $(BASEFLAGS) $(CFLAGS_$(1)) -Itests/unit $$^ -o $$@ \
		$(LIBS) -lcmocka
endef
$(eval $(call flavour_rules,release))
$(eval $(call flavour_rules,sanitize))
$(eval $(call flavour_rules,static))

$(BIN): $(call objs,release,$(SRCS) $(GEN_SRCS))
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(BASEFLAGS) $(CFLAGS_release) $^ -o $@ $(LIBS)

# The linker warns that sqlite3 calls dlopen (for extensions, which
# copyscope never loads): expected in a static binary.
$(BIN_STATIC): $(call objs,static,$(STATIC_SRCS))
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(BASEFLAGS) $(CFLAGS_static) $^ -o $@ $(LIBS_static)

static: $(BIN_STATIC)

# The arm64 build: the same rules under build/aarch64/ with the cross
# compiler.  The running kernel's BTF is x86's, so the arm64 one is cut
# out of Debian's arm64 kernel Image (scripts/kernel-btf.py, after
# scripts/fetch-kernel.sh --arch arm64: apt-get download, no root) into
# build/aarch64/vmlinux.btf, the programs are compiled with
# -D__TARGET_ARCH_arm64 against the vmlinux.h dumped from it, and CO-RE
# relocates them to whichever arm64 kernel loads them.  Where that BTF
# cannot be had (no network to Debian's archive, no arm64 architecture in
# dpkg), the binary is built without BPF, and says so at run time.
AARCH64_CC    ?= aarch64-linux-gnu-gcc
AARCH64_BUILD := build/aarch64
AARCH64_BTF   := $(AARCH64_BUILD)/vmlinux.btf
AARCH64_MAKE  = $(MAKE) --no-print-directory BUILD=$(AARCH64_BUILD) \
		CC=$(AARCH64_CC) BPF_ARCH=arm64 BTF_FILE=$(AARCH64_BTF) \
		LIBS_PQ=-l:libpq.so.5 \
		LIBS_GSL="-l:libgsl.so.27 -l:libgslcblas.so.0"
aarch64-btf:
	$(Q)mkdir -p $(AARCH64_BUILD)
	$(Q)[ -e $(AARCH64_BTF) ] || { \
	  k=$$(sh scripts/fetch-kernel.sh --arch arm64 2>$(AARCH64_BUILD)/btf.log) && \
	  python3 scripts/kernel-btf.py "$$k" $(AARCH64_BTF) 2>>$(AARCH64_BUILD)/btf.log && \
	  echo "  BTF     $(AARCH64_BTF) (from $$k)"; } || \
	{ echo "make aarch64: no arm64 BTF, so no BPF in the arm64 build:" \
	  "$$(tail -n 1 $(AARCH64_BUILD)/btf.log)" >&2; }
aarch64: aarch64-btf
	@command -v $(AARCH64_CC) >/dev/null 2>&1 || { echo "$(AARCH64_CC)" \
		"is missing: run scripts/install-deps.sh (make deps)" >&2; \
		exit 1; }
	+$(Q)$(AARCH64_MAKE) $(AARCH64_BUILD)/copyscope

# The static arm64 binary links libgsl.a and libgslcblas.a from Debian's
# libgsl-dev:arm64, unpacked into build/aarch64/static-lib/ (that package
# cannot be installed beside the amd64 one); the other .a files are in
# the arm64 -dev packages install-deps installs.
AARCH64_SLIB := $(AARCH64_BUILD)/static-lib
$(AARCH64_SLIB)/libgsl.a:
	$(Q)sh scripts/fetch-arm64-static.sh $(AARCH64_SLIB)

static-aarch64: $(AARCH64_SLIB)/libgsl.a aarch64-btf
	+$(Q)$(AARCH64_MAKE) STATIC_LDIRS=-L$(AARCH64_SLIB) \
		$(AARCH64_BUILD)/copyscope-static

# The unit tests and the smoke tests that qemu-user can run, on the arm64
# build (tests/run-tests-aarch64.sh); needs qemu-user-static.
test-aarch64: aarch64
	+$(Q)$(AARCH64_MAKE) unit
	$(Q)tests/run-tests-aarch64.sh

$(BIN_SANITIZE): $(call objs,sanitize,$(SRCS) $(GEN_SRCS))
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(BASEFLAGS) $(CFLAGS_sanitize) $^ -o $@ $(LIBS)

# The HTML report's charting library comes from the npm registry, pinned
# by web/package-lock.json (npm ci: exactly the locked versions, checked
# against their integrity hashes), at build time only.  Its minified
# files and our glue (src/report/html_charts.js) become one script,
# embedded into the binary as a C array: an installed copyscope needs
# neither the source tree nor the network to write a report.  npm sets
# old mtimes on what it unpacks, so a stamp says when npm ci ran; it
# takes what npm's cache (~/.npm) already holds without asking the
# registry (--prefer-offline: the lock's integrity hashes still checked),
# so a new lock builds offline where its packages were fetched once.  The
# flame graphs of the profile view are a second script from the same
# npm ci: d3-flame-graph with the d3 modules it needs (their UMD builds
# in dependency order: each adds itself to one global d3), then our glue
# (src/report/html_flame.js); a report embeds it only where it draws a
# flame graph.
WEB_STAMP := web/node_modules/.copyscope-npm-ci
REPORT_JS := web/node_modules/chart.js/dist/chart.umd.min.js \
	     web/node_modules/chartjs-chart-matrix/dist/chartjs-chart-matrix.min.js \
	     src/report/html_charts.js
D3_MODULES := array color dispatch ease format interpolate selection timer \
	      time time-format scale hierarchy transition
FLAME_JS := $(foreach m,$(D3_MODULES),web/node_modules/d3-$(m)/dist/d3-$(m).min.js) \
	    web/node_modules/d3-flame-graph/dist/d3-flamegraph.umd.min.js \
	    src/report/html_flame.js

$(WEB_STAMP): web/package.json web/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "npm is missing:" \
		"run scripts/install-deps.sh (make deps)" >&2; exit 1; }
	@$(if $(Q),echo "  NPM     web/ (npm ci)")
	$(Q)cd web && npm ci --prefer-offline --ignore-scripts --no-audit \
		--no-fund --loglevel=error >/dev/null
	$(Q)touch $@

$(BUILD)/gen/report_bundle.c: $(WEB_STAMP) src/report/html_charts.js \
		src/report/html_flame.js
	@mkdir -p $(@D)
	@$(if $(Q),echo "  GEN     $@")
	$(Q){ echo "/* report_bundle.c - generated by the Makefile from" \
		"web/package-lock.json's Chart.js and chartjs-chart-matrix" \
		"and src/report/html_charts.js (report_bundle), and its" \
		"d3 modules and d3-flame-graph and src/report/html_flame.js" \
		"(flame_bundle); do not edit. */"; \
	  echo '#include "report/bundle.h"'; \
	  echo 'const unsigned char report_bundle[] = {'; \
	  for f in $(REPORT_JS); do sed '/sourceMappingURL=/d' "$$f"; \
		echo; done | xxd -i; \
	  echo ', 0x00 };'; \
	  echo 'const size_t report_bundle_len = sizeof(report_bundle) - 1;'; \
	  echo 'const unsigned char flame_bundle[] = {'; \
	  for f in $(FLAME_JS); do sed '/sourceMappingURL=/d' "$$f"; \
		echo; done | xxd -i; \
	  echo ', 0x00 };'; \
	  echo 'const size_t flame_bundle_len = sizeof(flame_bundle) - 1;'; \
	} >$@.tmp && mv $@.tmp $@

# The system call names of this architecture, for the syscall kernel
# view, from the C library's <sys/syscall.h> (its __NR_ macros).
$(BUILD)/gen/syscall_names.c: Makefile
	@mkdir -p $(@D)
	@$(if $(Q),echo "  GEN     $@")
	$(Q){ echo "/* syscall_names.c - generated by the Makefile from" \
		"<sys/syscall.h>; do not edit. */"; \
	  echo 'extern const char *const kview_syscall_names[];'; \
	  echo 'extern const int kview_nsyscall_names;'; \
	  echo 'const char *const kview_syscall_names[] = {'; \
	  printf '#include <sys/syscall.h>\n' | $(CC) -dM -E - | \
		sed -n 's/^#define __NR_\([a-z0-9_]*\) \([0-9][0-9]*\)$$/\t[\2] = "\1",/p' | \
		sort -t'[' -k2 -n; \
	  echo '};'; \
	  echo 'const int kview_nsyscall_names = (int)(sizeof(kview_syscall_names) /'; \
	  echo '	sizeof(kview_syscall_names[0]));'; \
	} >$@.tmp && mv $@.tmp $@

web-deps: $(WEB_STAMP)

$(BUILD)/bpf/vmlinux.h:
	@mkdir -p $(@D)
	@$(if $(Q),echo "  BTF     $@")
	$(Q)bpftool btf dump file $(BTF_FILE) format c >$@.tmp && mv $@.tmp $@

$(BUILD)/bpf/%.bpf.o: src/bpf/%.bpf.c $(BUILD)/bpf/vmlinux.h $(wildcard src/bpf/*.h)
	@$(if $(Q),echo "  BPF     $<")
	$(Q)clang -g -O2 -Wall -target bpf -D__TARGET_ARCH_$(BPF_ARCH) \
		-I$(BUILD)/bpf -Isrc/bpf -c $< -o $@

$(BUILD)/bpf/%.skel.h: $(BUILD)/bpf/%.bpf.o
	@$(if $(Q),echo "  SKEL    $@")
	$(Q)bpftool gen skeleton $< name $(subst -,_,$*) >$@.tmp && mv $@.tmp $@

$(BUILD)/bench/%: bench/%.c
	@mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 -O2 -D_GNU_SOURCE $(WARN) $< -o $@ -lpthread

# libFuzzer harnesses: the library built with clang, ASan and UBSan and
# coverage for the fuzzer; warnings are gcc's business (clang's set
# differs), so no -Werror here.
FUZZ_CC    ?= clang
FUZZ_TIME  ?= 60
FUZZ_FLAGS := -std=gnu11 -g -O1 -D_GNU_SOURCE -Isrc $(PQ_CFLAGS) $(TEP_CFLAGS) \
	      -I$(BUILD)/bpf $(BPF_DEFS) \
	      -DCOPYSCOPE_VERSION='"fuzz"' -DCOPYSCOPE_BUILD_FLAVOUR='"fuzz"' \
	      -DCOPYSCOPE_CFLAGS='"fuzz"' -fno-omit-frame-pointer \
	      -fsanitize=address,undefined
FUZZ_SRCS  := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS  := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRCS))

$(BUILD)/fuzz/obj/%.o: %.c | $(BPF_SKELS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC [fuzz] $<")
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -MMD -MP \
		-c $< -o $@

$(BUILD)/fuzz/fuzz_%: $(BUILD)/fuzz/obj/tests/fuzz/fuzz_%.o \
		$(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(LIB_SRCS))
	@$(if $(Q),echo "  LD [fuzz] $@")
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer $^ -o $@ $(LIBS)

fuzz-build: deps
	$(Q)$(MAKE) --no-print-directory $(FUZZ_BINS)

# Each harness for FUZZ_TIME seconds from its seed corpus (tests/fuzz/
# corpus/NAME, read only); what it learns goes to build/fuzz/corpus-NAME,
# a crash to build/fuzz/crash-NAME-*.
fuzz: fuzz-build
	$(Q)tests/fuzz/run-fuzz.sh $(FUZZ_TIME) $(FUZZ_BINS)

deps:
	$(Q)scripts/install-deps.sh

unit: $(UNIT_BINS)
unit-sanitize: $(UNIT_BINS_SAN)

test: deps
	$(Q)$(MAKE) --no-print-directory $(BIN) $(BIN_SANITIZE) $(BIN_STATIC) \
		unit unit-sanitize $(FUZZ_BINS)
	$(Q)tests/run-tests.sh

# Four real boots of Debian's kernel in qemu (TCG here: about 25 s each
# with the quick suite; BOOT_WORK=sys.null for a faster try), then two
# boots of Debian's arm64 kernel in qemu-system-aarch64 with the static
# aarch64 copyscope, one a side (perf_user_access and kpti=1 against the
# defaults; sys.null --quick: about 6 s a boot under TCG); the kernels
# are fetched into build/kernel/ and build/kernel-arm64/ by
# scripts/fetch-kernel.sh.
BOOT_TIMEOUT ?= 900
test-boot: deps
	$(Q)$(MAKE) --no-print-directory $(BIN) $(BIN_STATIC) static-aarch64
	$(Q)timeout -k 10 $(BOOT_TIMEOUT) sh tests/boot/test_boot.sh
	$(Q)timeout -k 10 $(BOOT_TIMEOUT) sh tests/boot/test_boot_arm64.sh

# copyscope exits 4 when a row withheld its headline (disturbed samples)
# or could not be judged: the results are printed all the same, so
# `make run` says so and succeeds; any other failure fails it.
run: deps
	$(Q)$(MAKE) --no-print-directory $(BIN)
	$(Q)rc=0; $(BIN) run default || rc=$$?; \
	if [ $$rc -eq 4 ]; then \
		echo "make run: copyscope exited 4: a row withheld its" \
			"headline; the note under it says why" \
			"(docs/reliability.md)"; \
		exit 0; \
	fi; exit $$rc

bench: deps
	$(Q)$(MAKE) --no-print-directory $(BIN) $(BENCH_BINS)
	$(Q)bench/run-bench.sh

bench-inject: deps
	$(Q)$(MAKE) --no-print-directory $(BIN)
	$(Q)bench/inject_accuracy.sh

# The man page's OPTIONS section, written from the option tables (commit
# the result; tests/smoke/test_help.sh fails while it is not current).
man: $(BIN)
	$(Q)scripts/man-options.sh $(BIN) man/copyscope.1

# clang-tidy runs once per file: given several files in one invocation,
# clang-tidy 14's valist checker carries state from one file to the next
# and reports "uninitialized va_list" on correct va_start/vfprintf code.
# Checks are chosen in .clang-tidy; it also runs in parallel this way.
# The "N warnings generated." chatter (diagnostics in system headers,
# already filtered out) is dropped; the exit status is clang-tidy's.
LINT_JOBS  ?= $(shell nproc 2>/dev/null || echo 2)
TIDY_SRCS  := $(SRCS) $(UNIT_SRCS)
TIDY_FLAGS := -std=gnu11 -D_GNU_SOURCE -Isrc -Itests/unit $(PQ_CFLAGS) $(TEP_CFLAGS) \
              -I$(BUILD)/bpf $(BPF_DEFS) \
              -DCOPYSCOPE_VERSION='"lint"' -DCOPYSCOPE_BUILD_FLAVOUR='"lint"' \
              -DCOPYSCOPE_CFLAGS='""'

# (cppcheck leaves out src/bpf: BPF programs are C for clang -target bpf,
# their SEC() and map macros come from libbpf's BPF headers.)
lint: $(BPF_SKELS) $(call objs,release,$(SRCS))
	$(Q)python3 scripts/check-structure.py
	$(Q)python3 scripts/check-links.py $(BUILD)/release/src
	$(Q)cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability \
		--inline-suppr --std=c11 -D_GNU_SOURCE -Isrc $(PQ_CFLAGS) \
		--suppress=missingIncludeSystem -isrc/bpf src tests/unit bench
	$(Q)printf '%s\n' $(TIDY_SRCS) | xargs -P $(LINT_JOBS) -I{} sh -c \
		'o=$$(clang-tidy --quiet "$$0" -- "$$@" 2>&1); r=$$?; \
		 o=$$(printf "%s\n" "$$o" | grep -v "warnings\{0,1\} generated\.$$"); \
		 [ -z "$$o" ] || printf "%s\n" "$$o"; exit $$r' {} $(TIDY_FLAGS)

# The binary (the report's script inside it), copyscope(1) and the bash
# completion; DESTDIR for staging, PREFIX for where it will live.  The
# static binary goes to libexec, where `copyscope boot` looks for the
# one it puts into its guests (../libexec/copyscope/ from the binary);
# so does the static aarch64 one, as copyscope-static-aarch64, when make
# static-aarch64 has built it (for arm64 guests).
install: $(BIN) $(BIN_STATIC)
	install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/copyscope
	install -D -m 0755 $(BIN_STATIC) \
		$(DESTDIR)$(PREFIX)/libexec/copyscope/copyscope-static
	if [ -e $(AARCH64_BUILD)/copyscope-static ]; then \
		install -D -m 0755 $(AARCH64_BUILD)/copyscope-static \
		$(DESTDIR)$(PREFIX)/libexec/copyscope/copyscope-static-aarch64; \
	fi
	install -D -m 0644 man/copyscope.1 $(DESTDIR)$(MANDIR)/man1/copyscope.1
	install -D -m 0644 completion/copyscope.bash \
		$(DESTDIR)$(BASHCOMPDIR)/copyscope

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/copyscope \
		$(DESTDIR)$(PREFIX)/libexec/copyscope/copyscope-static \
		$(DESTDIR)$(PREFIX)/libexec/copyscope/copyscope-static-aarch64 \
		$(DESTDIR)$(MANDIR)/man1/copyscope.1 \
		$(DESTDIR)$(BASHCOMPDIR)/copyscope

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
.SECONDARY:
