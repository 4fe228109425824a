# ballcast - build, test, install.
#   make            the library (static and shared) and the ballcast binary
#   make demo       install the build's missing Debian packages, build, run the samples
#   make check      install the test tools, then unit tests, CLI tests, the unit
#                   tests under ASan+UBSan, the Python package's tests
#   make python     the Python package in a virtual environment, $(BUILD)/python-venv
#   make bench      benchmarks (see BENCHMARKS.md)
#   make install    PREFIX=/usr/local DESTDIR= ; make clean
# CC, CFLAGS, CPPFLAGS and LDFLAGS are yours; the flags the code needs are added.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

CC ?= cc
CFLAGS ?= -O2 -g
PKG_CONFIG ?= pkg-config
BUILD ?= build

VERSION := $(shell sed -n 's/^\#define BC_VERSION_STRING "\(.*\)"/\1/p' lib/ballcast.h)
SOVERSION := 0

# -ffp-contract=off: no fused multiply-add, so answers do not change with the compiler.
BC_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wpedantic -Wmissing-prototypes \
	-Wshadow -Wstrict-prototypes -ffp-contract=off -fPIC -pthread
CJSON_CFLAGS := $(shell $(PKG_CONFIG) --cflags libcjson 2>/dev/null)
CJSON_LIBS := $(shell $(PKG_CONFIG) --libs libcjson 2>/dev/null || echo -lcjson)
GMP_CFLAGS := $(shell $(PKG_CONFIG) --cflags gmp 2>/dev/null)
GMP_LIBS := $(shell $(PKG_CONFIG) --libs gmp 2>/dev/null || echo -lgmp)
CHECK_CFLAGS := $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS := $(shell $(PKG_CONFIG) --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt)

ALL_CFLAGS = $(BC_CFLAGS) $(CJSON_CFLAGS) $(GMP_CFLAGS) $(CFLAGS) $(SAN_FLAGS)
ALL_CPPFLAGS = -Ilib -Icli $(CPPFLAGS)
ALL_LDFLAGS = $(LDFLAGS) $(SAN_FLAGS) -pthread

LIB_SRCS := $(wildcard lib/*.c)
CLI_SRCS := $(wildcard cli/*.c)
UNIT_SRCS := $(wildcard tests/unit/*.c)
SUPPORT_SRCS := $(wildcard tests/support/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o)
CLI_LIB_OBJS := $(filter-out $(BUILD)/cli/main.o,$(CLI_OBJS))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
# Scale tests: millions of queries; run in the optimised build only.
SCALE_SRCS := $(wildcard tests/scale/*.c)
SCALE_BINS := $(SCALE_SRCS:tests/scale/%.c=$(BUILD)/tests/scale_%)

.PHONY: all demo deps deps-build deps-test deps-python check check-unit check-cli check-python python install \
	uninstall clean lint-man

# ./ballcast points at the default build only; a build elsewhere (BUILD=...)
# leaves it alone.
all: $(BUILD)/ballcast $(BUILD)/libballcast.a $(BUILD)/libballcast.so $(if $(filter build,$(BUILD)),ballcast)

ballcast: build/ballcast
	ln -sf build/ballcast ballcast

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# The library's objects hide every symbol that ballcast.h does not mark
# BC_API: the shared library exports its interface and nothing else (the
# static library, which the command and the unit tests link, is unaffected).
$(LIB_OBJS): ALL_CFLAGS += -fvisibility=hidden

$(BUILD)/libballcast.a: $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/libballcast.so: $(LIB_OBJS)
	$(CC) -shared -Wl,-soname,libballcast.so.$(SOVERSION) $(ALL_LDFLAGS) -o $@ $^ $(GMP_LIBS) -lm

$(BUILD)/ballcast: $(CLI_OBJS) $(BUILD)/libballcast.a
	$(CC) $(ALL_LDFLAGS) -o $@ $(CLI_OBJS) $(BUILD)/libballcast.a $(CJSON_LIBS) $(GMP_LIBS) -lm

$(BUILD)/tests/%: tests/unit/%.c $(SUPPORT_SRCS) $(CLI_LIB_OBJS) $(BUILD)/libballcast.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CPPFLAGS) -Itests/unit -Itests/support $(ALL_CFLAGS) $(CHECK_CFLAGS) -o $@ $< $(SUPPORT_SRCS) $(CLI_LIB_OBJS) \
		$(BUILD)/libballcast.a $(ALL_LDFLAGS) $(CJSON_LIBS) $(GMP_LIBS) $(CHECK_LIBS) -lm

$(BUILD)/tests/scale_%: tests/scale/%.c $(SUPPORT_SRCS) $(BUILD)/libballcast.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CPPFLAGS) -Itests/unit -Itests/support $(ALL_CFLAGS) $(CHECK_CFLAGS) -o $@ $< $(SUPPORT_SRCS) \
		$(BUILD)/libballcast.a $(ALL_LDFLAGS) $(GMP_LIBS) $(CHECK_LIBS) -lm

# What the build needs (make demo), what the tests need too (make check),
# everything (.ci/run runs scripts/install-deps itself).
deps:
	@sh scripts/install-deps

deps-build:
	@sh scripts/install-deps build

deps-test:
	@sh scripts/install-deps test

deps-python:
	@sh scripts/install-deps python

demo: deps-build
	$(MAKE) all
	./ballcast cast samples/room.obj samples/throws.json

# Every suite, then one line that sums them all: "N passed, N failed".
# The scale leak suite (SCALE_BINS, about 80 s) runs here, in the optimised
# build; run-suites.sh fails for any binary built here that it did not run.
ASAN_UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=build/asan/tests/%)
check: deps-test
	$(MAKE) all
	$(MAKE) $(UNIT_BINS) $(SCALE_BINS) python $(BUILD)/bench/genwork
	$(MAKE) BUILD=build/asan SAN_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
		$(ASAN_UNIT_BINS)
	BALLCAST_PYTHON=$(PYTHON_VENV)/bin/python sh tests/run-suites.sh --expect "$(UNIT_BINS) $(SCALE_BINS) $(ASAN_UNIT_BINS)" \
		$(BUILD) build/asan

check-unit: $(UNIT_BINS)
	sh tests/run-suites.sh --unit-only --expect "$(UNIT_BINS)" $(BUILD)

check-cli: all
	bats tests/cli

# The Python package (python/, `import ballcast`): a virtual environment made
# from Debian's python3 with --system-site-packages (so numpy, cffi, dask and
# pytest come from install-deps), the package built and installed in it
# offline against $(BUILD)/libballcast.a. Use it with
# $(PYTHON_VENV)/bin/python, or `. $(PYTHON_VENV)/bin/activate`. PYTHON picks
# the interpreter: Debian's by default, whose site-packages hold those
# packages.
PYTHON ?= $(firstword $(wildcard /usr/bin/python3) python3)
PYTHON_VENV ?= $(BUILD)/python-venv

python: $(BUILD)/libballcast.a
	@test -x $(PYTHON_VENV)/bin/python || $(PYTHON) -m venv --system-site-packages $(PYTHON_VENV)
	BALLCAST_INCLUDE_DIR=$(CURDIR)/lib BALLCAST_LIBRARY=$(abspath $(BUILD)/libballcast.a) \
		$(PYTHON_VENV)/bin/python -m pip install --quiet --no-build-isolation --no-index ./python

# The Python package's tests alone (make check runs them with the rest).
check-python: all python $(BUILD)/bench/genwork
	PYTHONDONTWRITEBYTECODE=1 $(PYTHON_VENV)/bin/python -m pytest -q -p no:cacheprovider tests/python

lint-man:
	mandoc -Tlint -W warning man/ballcast.1

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(PKGCONFIGDIR)
	install -m 755 $(BUILD)/ballcast $(DESTDIR)$(BINDIR)/ballcast
	install -m 644 $(BUILD)/libballcast.a $(DESTDIR)$(LIBDIR)/libballcast.a
	install -m 755 $(BUILD)/libballcast.so $(DESTDIR)$(LIBDIR)/libballcast.so.$(VERSION)
	ln -sf libballcast.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libballcast.so.$(SOVERSION)
	ln -sf libballcast.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libballcast.so
	install -m 644 lib/ballcast.h $(DESTDIR)$(INCLUDEDIR)/ballcast.h
	install -m 644 man/ballcast.1 $(DESTDIR)$(MANDIR)/man1/ballcast.1
	install -d $(DESTDIR)$(DATADIR)/bash-completion/completions $(DESTDIR)$(DATADIR)/zsh/site-functions \
		$(DESTDIR)$(DATADIR)/fish/vendor_completions.d
	$(BUILD)/ballcast completion bash >$(DESTDIR)$(DATADIR)/bash-completion/completions/ballcast
	$(BUILD)/ballcast completion zsh >$(DESTDIR)$(DATADIR)/zsh/site-functions/_ballcast
	$(BUILD)/ballcast completion fish >$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/ballcast.fish
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(VERSION)|' ballcast.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/ballcast.pc

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/ballcast $(DESTDIR)$(LIBDIR)/libballcast.a $(DESTDIR)$(LIBDIR)/libballcast.so* \
		$(DESTDIR)$(INCLUDEDIR)/ballcast.h $(DESTDIR)$(MANDIR)/man1/ballcast.1 $(DESTDIR)$(PKGCONFIGDIR)/ballcast.pc \
		$(DESTDIR)$(DATADIR)/bash-completion/completions/ballcast $(DESTDIR)$(DATADIR)/zsh/site-functions/_ballcast \
		$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/ballcast.fish

clean:
	rm -rf build ballcast

# Benchmarks and fuzzing keep their rules beside their sources.
-include tests/bench/bench.mk
-include tests/fuzz/fuzz.mk
-include tests/exact/exact.mk

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d)
