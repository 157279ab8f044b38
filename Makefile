# ddx — plain GNU Make.  `make` builds build/ddx, `make check` runs every test,
# `make bench` runs the benchmarks.  `make SAN=1` builds into build-san/ with
# AddressSanitizer and UndefinedBehaviorSanitizer.  `make fuzz` builds the
# libFuzzer targets fuzz/fuzz_*.c with clang into build-fuzz/ and runs each
# for FUZZ_TIME seconds (see fuzz/run).

PKGS    := zlib libzstd libpcre2-8 sqlite3
# libpq's header only: src/keep/db_pg.c loads the library (dlopen) when a
# PostgreSQL store is first opened, so a ddx that never opens one never
# loads it and the twenty libraries it needs.
DLPKGS  := libpq
CC      ?= cc
OPT     ?= -O2
CFLAGS  ?= -g
CFLAGS  += $(OPT) -std=c17 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread \
           $(shell pkg-config --cflags $(PKGS) $(DLPKGS))
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
# src/LAYER/*.c: one folder per layer (README, "How it works"); a file
# includes its own layer's headers and those below by name alone.
LAYERS  := base line log across keep live out run cmd
SRCS    := $(wildcard $(LAYERS:%=src/%/*.c))
HDRS    := $(wildcard $(LAYERS:%=src/%/*.h))
INCS    := $(LAYERS:%=-Isrc/%)
RULES   := $(sort $(wildcard rules/*.rules))
CAUSES  := $(sort $(wildcard causes/*.rules))
OBJS    := $(patsubst src/%.c,$(BUILD)/%.o,$(SRCS)) $(BUILD)/rules_builtin.o \
           $(BUILD)/causes_builtin.o
# Unit tests link the stages, not the command layer (src/cmd/).
LIBOBJS := $(filter-out $(BUILD)/cmd/%,$(OBJS))
UNITS   := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c))
HELPERS := $(patsubst tests/helpers/%.c,$(BUILD)/tests/%,$(wildcard tests/helpers/*.c))
FUZZERS := $(patsubst fuzz/%.c,$(BUILD)/fuzz/%,$(wildcard fuzz/fuzz_*.c))
FUZZ_TIME ?= 600

all: $(BUILD)/ddx

$(BUILD)/ddx: $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: src/%.c $(HDRS) VERSION | $(BUILD)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(INCS) -DDDX_VERSION='"$(VERSION)"' -c -o $@ $<

# The milestone rule files, compiled in (see rules/embed.awk).
$(BUILD)/rules_builtin.c: $(RULES) rules/embed.awk | $(BUILD)
	awk -f rules/embed.awk $(RULES) >$@.tmp && mv $@.tmp $@

$(BUILD)/rules_builtin.o: $(BUILD)/rules_builtin.c $(HDRS)
	$(CC) $(CFLAGS) $(INCS) -c -o $@ $<

# The catalogue of known causes, compiled in the same way (causes.h).
$(BUILD)/causes_builtin.c: $(CAUSES) rules/embed.awk | $(BUILD)
	awk -v name=causes -v header=causes.h -f rules/embed.awk $(CAUSES) >$@.tmp && mv $@.tmp $@

$(BUILD)/causes_builtin.o: $(BUILD)/causes_builtin.c $(HDRS)
	$(CC) $(CFLAGS) $(INCS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c tests/unit/test.h $(LIBOBJS) | $(BUILD)
	@mkdir -p $(BUILD)/tests
	$(CC) $(CFLAGS) $(INCS) $(LDFLAGS) -o $@ $< $(LIBOBJS) $(LDLIBS)

$(BUILD)/tests/%: tests/helpers/%.c | $(BUILD)
	@mkdir -p $(BUILD)/tests
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LDLIBS)

# fuzz_cmd, fuzz_store_sql and fuzz_names run the commands, so they link
# main.c with main renamed.
$(BUILD)/main_fuzz.o: src/cmd/main.c $(HDRS) VERSION | $(BUILD)
	$(CC) $(CFLAGS) $(INCS) -DDDX_VERSION='"$(VERSION)"' -Dmain=ddx_main -c -o $@ $<

$(BUILD)/fuzz/fuzz_cmd $(BUILD)/fuzz/fuzz_store_sql $(BUILD)/fuzz/fuzz_names: $(filter-out $(BUILD)/cmd/main.o,$(OBJS)) $(BUILD)/main_fuzz.o
$(BUILD)/fuzz/%: fuzz/%.c fuzz/fuzz.h fuzz/fuzz_run.h $(LIBOBJS) | $(BUILD)
	@mkdir -p $(BUILD)/fuzz
	$(CC) $(CFLAGS) $(INCS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $< $(filter %.o,$^) $(LDLIBS)

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

# `make install PREFIX=... DESTDIR=...`: the binary, the man pages, the
# JSON Schema of --json (ddx-json(5), FILES) and the shell completions,
# where bash-completion, zsh and fish look for them.
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
INSTALLED := $(BINDIR)/ddx $(MANDIR)/man1/ddx.1 $(MANDIR)/man5/ddx-json.5 \
	$(MANDIR)/man5/ddx-causes.5 $(DATADIR)/ddx/ddx-json.schema.json \
	$(DATADIR)/bash-completion/completions/ddx $(DATADIR)/zsh/site-functions/_ddx \
	$(DATADIR)/fish/vendor_completions.d/ddx.fish

install: $(BUILD)/ddx
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(DATADIR)/ddx \
		$(DESTDIR)$(DATADIR)/bash-completion/completions \
		$(DESTDIR)$(DATADIR)/zsh/site-functions $(DESTDIR)$(DATADIR)/fish/vendor_completions.d
	install -m 755 $(BUILD)/ddx $(DESTDIR)$(BINDIR)/ddx
	install -m 644 docs/ddx.1 $(DESTDIR)$(MANDIR)/man1/ddx.1
	install -m 644 docs/ddx-json.5 $(DESTDIR)$(MANDIR)/man5/ddx-json.5
	install -m 644 docs/ddx-json.schema.json $(DESTDIR)$(DATADIR)/ddx/ddx-json.schema.json
	install -m 644 docs/ddx-causes.5 $(DESTDIR)$(MANDIR)/man5/ddx-causes.5
	install -m 644 completions/ddx.bash $(DESTDIR)$(DATADIR)/bash-completion/completions/ddx
	install -m 644 completions/_ddx $(DESTDIR)$(DATADIR)/zsh/site-functions/_ddx
	install -m 644 completions/ddx.fish $(DESTDIR)$(DATADIR)/fish/vendor_completions.d/ddx.fish

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))

clean:
	rm -rf build build-san build-fuzz

.PHONY: all check bench clean fuzz fuzz-build install uninstall
