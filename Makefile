# ddx — plain GNU Make.  `make` builds build/ddx, `make check` runs every test,
# `make bench` runs the benchmarks.  `make SAN=1` builds into build-san/ with
# AddressSanitizer and UndefinedBehaviorSanitizer.  `make fuzz` builds the
# libFuzzer targets fuzz/fuzz_*.c with clang into build-fuzz/ and runs each
# for FUZZ_TIME seconds (see fuzz/run).

PKGS    := zlib libzstd libpcre2-8 sqlite3
CC      ?= cc
OPT     ?= -O2
CFLAGS  ?= -g
CFLAGS  += $(OPT) -std=c17 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread \
           $(shell pkg-config --cflags $(PKGS))
LDLIBS  += $(shell pkg-config --libs $(PKGS)) -lm -pthread

ifeq ($(FUZZ),1)
CC      := clang
BUILD   ?= build-fuzz
CFLAGS  += -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
else ifeq ($(SAN),1)
BUILD   ?= build-san
CFLAGS  += -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
else
BUILD   ?= build
endif

VERSION := $(shell cat VERSION)
SRCS    := $(wildcard src/*.c)
RULES   := $(sort $(wildcard rules/*.rules))
OBJS    := $(SRCS:src/%.c=$(BUILD)/%.o) $(BUILD)/rules_builtin.o
# Unit tests link the stages, not the commands (which need main.c).
LIBOBJS := $(filter-out $(BUILD)/main.o $(BUILD)/cmd_%.o,$(OBJS))
UNITS   := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c))
HELPERS := $(patsubst tests/helpers/%.c,$(BUILD)/tests/%,$(wildcard tests/helpers/*.c))
FUZZERS := $(patsubst fuzz/%.c,$(BUILD)/fuzz/%,$(wildcard fuzz/fuzz_*.c))
FUZZ_TIME ?= 600

all: $(BUILD)/ddx

$(BUILD)/ddx: $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: src/%.c src/*.h VERSION | $(BUILD)
	$(CC) $(CFLAGS) -DDDX_VERSION='"$(VERSION)"' -c -o $@ $<

# The milestone rule files, compiled in (see rules/embed.awk).
$(BUILD)/rules_builtin.c: $(RULES) rules/embed.awk | $(BUILD)
	awk -f rules/embed.awk $(RULES) >$@.tmp && mv $@.tmp $@

$(BUILD)/rules_builtin.o: $(BUILD)/rules_builtin.c src/rules.h src/template.h src/util.h
	$(CC) $(CFLAGS) -Isrc -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c tests/unit/test.h $(LIBOBJS) | $(BUILD)
	@mkdir -p $(BUILD)/tests
	$(CC) $(CFLAGS) -Isrc $(LDFLAGS) -o $@ $< $(LIBOBJS) $(LDLIBS)

$(BUILD)/tests/%: tests/helpers/%.c | $(BUILD)
	@mkdir -p $(BUILD)/tests
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LDLIBS)

# fuzz_cmd, fuzz_store_sql and fuzz_names run the commands, so they link
# main.c with main renamed.
$(BUILD)/main_fuzz.o: src/main.c src/*.h VERSION | $(BUILD)
	$(CC) $(CFLAGS) -DDDX_VERSION='"$(VERSION)"' -Dmain=ddx_main -c -o $@ $<

$(BUILD)/fuzz/fuzz_cmd $(BUILD)/fuzz/fuzz_store_sql $(BUILD)/fuzz/fuzz_names: $(filter-out $(BUILD)/main.o,$(OBJS)) $(BUILD)/main_fuzz.o
$(BUILD)/fuzz/%: fuzz/%.c fuzz/fuzz.h $(LIBOBJS) | $(BUILD)
	@mkdir -p $(BUILD)/fuzz
	$(CC) $(CFLAGS) -Isrc -fsanitize=fuzzer $(LDFLAGS) -o $@ $< $(filter %.o,$^) $(LDLIBS)

$(BUILD):
	mkdir -p $(BUILD)

# VALGRIND=1: run the suite under valgrind memcheck (see tests/run).
ifdef VALGRIND
export VALGRIND
endif
check: $(BUILD)/ddx $(UNITS) $(HELPERS)
	tests/run $(BUILD)

fuzz-build: $(FUZZERS)

fuzz:
	$(MAKE) FUZZ=1 fuzz-build
	fuzz/run --merge build-fuzz $(FUZZ_TIME)

bench: $(BUILD)/ddx
	bench/run $(BUILD)

clean:
	rm -rf build build-san build-fuzz

.PHONY: all check bench clean fuzz fuzz-build
