# copyscope - one non-recursive Makefile.
#
#   make            build build/copyscope (release flavour)
#   make run        install missing packages, build, run the default suite
#                   into the default database and print the results
#   make test       unit tests (also under ASan+UBSan) and smoke tests
#   make bench      harness-overhead benchmark (bench/)
#   make fuzz       libFuzzer harnesses (tests/fuzz/), FUZZ_TIME s each
#   make lint       cppcheck and clang-tidy
#   make install    install to $(PREFIX)/bin (PREFIX=/usr/local)
#   make clean
#   V=1             show the commands

CC      ?= gcc
PREFIX  ?= /usr/local
BUILD   := build
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

# -Wno-format-truncation: messages are snprintf'ed into fixed buffers and
# cut short by design; gcc cannot see that and warns on every one.
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wformat=2 -Werror -Wno-format-truncation
BASEFLAGS := -std=gnu11 -g $(WARN) -D_GNU_SOURCE -Isrc \
           -DCOPYSCOPE_VERSION='"$(VERSION)"'
CFLAGS_release  := -O2
CFLAGS_sanitize := -O1 -fno-omit-frame-pointer \
                   -fsanitize=address,undefined -fno-sanitize-recover=all
LIBS    := -lsqlite3 -ljansson -lgsl -lgslcblas -lpthread -lm

ifeq ($(V),1)
Q :=
else
Q := @
endif

SRCS      := $(sort $(wildcard src/*.c src/*/*.c))
LIB_SRCS  := $(filter-out src/main.c,$(SRCS))
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))

# $(call objs,flavour,sources)
objs = $(patsubst %.c,$(BUILD)/$(1)/%.o,$(2))

BIN            := $(BUILD)/copyscope
BIN_SANITIZE   := $(BUILD)/copyscope-sanitize
UNIT_BINS      := $(patsubst tests/unit/%.c,$(BUILD)/release/unit/%,$(UNIT_SRCS))
UNIT_BINS_SAN  := $(patsubst tests/unit/%.c,$(BUILD)/sanitize/unit/%,$(UNIT_SRCS))
BENCH_BINS     := $(patsubst bench/%.c,$(BUILD)/bench/%,$(wildcard bench/*.c))

.PHONY: all run test unit unit-sanitize smoke bench lint install clean deps \
	fuzz fuzz-build

all: $(BIN)

# Objects of one flavour; the flavour's flags are baked into each object.
define flavour_rules
$(BUILD)/$(1)/%.o: %.c
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

$(BIN): $(call objs,release,$(SRCS))
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(BASEFLAGS) $(CFLAGS_release) $^ -o $@ $(LIBS)

$(BIN_SANITIZE): $(call objs,sanitize,$(SRCS))
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(BASEFLAGS) $(CFLAGS_sanitize) $^ -o $@ $(LIBS)

$(BUILD)/bench/%: bench/%.c
	@mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 -O2 -D_GNU_SOURCE $(WARN) $< -o $@ -lpthread

# libFuzzer harnesses: the library built with clang, ASan and UBSan and
# coverage for the fuzzer; warnings are gcc's business (clang's set
# differs), so no -Werror here.
FUZZ_CC    ?= clang
FUZZ_TIME  ?= 60
FUZZ_FLAGS := -std=gnu11 -g -O1 -D_GNU_SOURCE -Isrc \
	      -DCOPYSCOPE_VERSION='"fuzz"' -DCOPYSCOPE_BUILD_FLAVOUR='"fuzz"' \
	      -DCOPYSCOPE_CFLAGS='"fuzz"' -fno-omit-frame-pointer \
	      -fsanitize=address,undefined
FUZZ_SRCS  := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS  := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRCS))

$(BUILD)/fuzz/obj/%.o: %.c
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
	$(Q)$(MAKE) --no-print-directory $(BIN) $(BIN_SANITIZE) unit unit-sanitize \
		$(FUZZ_BINS)
	$(Q)tests/run-tests.sh

run: deps
	$(Q)$(MAKE) --no-print-directory $(BIN)
	$(Q)$(BIN) run default

bench: deps
	$(Q)$(MAKE) --no-print-directory $(BIN) $(BENCH_BINS)
	$(Q)bench/run-bench.sh

# clang-tidy runs once per file: given several files in one invocation,
# clang-tidy 14's valist checker carries state from one file to the next
# and reports "uninitialized va_list" on correct va_start/vfprintf code.
# Checks are chosen in .clang-tidy; it also runs in parallel this way.
# The "N warnings generated." chatter (diagnostics in system headers,
# already filtered out) is dropped; the exit status is clang-tidy's.
LINT_JOBS  ?= $(shell nproc 2>/dev/null || echo 2)
TIDY_SRCS  := $(SRCS) $(UNIT_SRCS)
TIDY_FLAGS := -std=gnu11 -D_GNU_SOURCE -Isrc -Itests/unit \
              -DCOPYSCOPE_VERSION='"lint"' -DCOPYSCOPE_BUILD_FLAVOUR='"lint"' \
              -DCOPYSCOPE_CFLAGS='""'

lint:
	$(Q)cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability \
		--inline-suppr --std=c11 -D_GNU_SOURCE -Isrc \
		--suppress=missingIncludeSystem src tests/unit bench
	$(Q)printf '%s\n' $(TIDY_SRCS) | xargs -P $(LINT_JOBS) -I{} sh -c \
		'o=$$(clang-tidy --quiet "$$0" -- "$$@" 2>&1); r=$$?; \
		 o=$$(printf "%s\n" "$$o" | grep -v "warnings\{0,1\} generated\.$$"); \
		 [ -z "$$o" ] || printf "%s\n" "$$o"; exit $$r' {} $(TIDY_FLAGS)

install: $(BIN)
	install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/copyscope

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
.SECONDARY:
