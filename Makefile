# ddx — plain GNU Make.  `make` builds build/ddx, `make check` runs every test,
# `make bench` runs the benchmarks.  `make SAN=1` builds into build-san/ with
# AddressSanitizer and UndefinedBehaviorSanitizer.

PKGS    := zlib libzstd libpcre2-8 sqlite3
CC      ?= cc
OPT     ?= -O2
CFLAGS  ?= -g
CFLAGS  += $(OPT) -std=c17 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread \
           $(shell pkg-config --cflags $(PKGS))
LDLIBS  += $(shell pkg-config --libs $(PKGS)) -lm -pthread

ifeq ($(SAN),1)
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

$(BUILD):
	mkdir -p $(BUILD)

check: $(BUILD)/ddx $(UNITS) $(HELPERS)
	tests/run $(BUILD)

bench: $(BUILD)/ddx
	bench/run $(BUILD)

clean:
	rm -rf build build-san

.PHONY: all check bench clean
