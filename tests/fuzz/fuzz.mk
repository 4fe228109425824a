# fuzz.mk - libFuzzer targets (included by the Makefile; uses its variables).
#   make fuzz          each target for FUZZ_SECONDS (default 180) seconds
#   make fuzz-ci       replay tests/fuzz/regressions/, then each target for
#                      FUZZ_CI_RUNS inputs with seed 1 (reproducible)
#   make check-valgrind
#                      the bats CLI suite with ballcast under valgrind
# The targets are built in $(BUILD)/fuzz/ with clang (FUZZ_CC), compiling
# lib/*.c and cli/records.c directly with the fuzzer and sanitizers; their
# growing corpora and crash files stay under $(BUILD)/fuzz/ too. Seeds are
# tests/fuzz/corpus/TARGET/; inputs that once failed are
# tests/fuzz/regressions/TARGET/ and are replayed first.

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 180
FUZZ_CI_SECONDS := 120
FUZZ_TARGETS := fuzz_obj fuzz_records fuzz_query
FUZZ_SAN_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_SRCS := $(LIB_SRCS) cli/records.c
FUZZ_BINS := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/%)

VALGRIND ?= valgrind
VALGRIND_WRAPPER := $(VALGRIND) --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect -q

.PHONY: fuzz fuzz-ci fuzz-build check-valgrind

fuzz-build: $(FUZZ_BINS)

$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(FUZZ_SRCS) $(wildcard lib/*.h) cli/records.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(ALL_CPPFLAGS) -Itests/fuzz $(BC_CFLAGS) $(CJSON_CFLAGS) $(FUZZ_SAN_FLAGS) -o $@ $< $(FUZZ_SRCS) \
		$(CJSON_LIBS) -lm

fuzz: $(FUZZ_BINS)
	sh tests/fuzz/run-fuzz.sh $(BUILD)/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# CI: a fixed number of executions with a fixed seed (about a minute each
# here), so that a red CI is reproducible with the same command.
FUZZ_CI_RUNS ?= 60000
fuzz-ci: $(FUZZ_BINS)
	FUZZ_RUNS=$(FUZZ_CI_RUNS) FUZZ_SEED=1 sh tests/fuzz/run-fuzz.sh $(BUILD)/fuzz $(FUZZ_CI_SECONDS) $(FUZZ_TARGETS)

# Only $(BUILD)/ballcast is built (not `all`, which would repoint ./ballcast).
check-valgrind: $(BUILD)/ballcast
	BALLCAST="$(abspath $(BUILD))/ballcast" BALLCAST_WRAPPER="$(VALGRIND_WRAPPER)" bats tests/cli
