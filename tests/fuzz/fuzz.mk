# fuzz.mk - libFuzzer targets and the sanitized CLI suites (included by the
# Makefile; uses its variables).
#   make fuzz          each target for FUZZ_SECONDS (default 180) seconds in
#                      FUZZ_JOBS processes at once (default: every core,
#                      nproc), then the total executions over the targets
#   make fuzz-ci       replay tests/fuzz/regressions/, then each target for
#                      FUZZ_CI_RUNS inputs with seed 1 (reproducible)
#   make check-valgrind
#                      the bats CLI suite with ballcast under valgrind
#   make check-asan    the bats CLI suite with ballcast built with ASan+UBSan
#                      in build/asan (ASAN_BUILD=DIR builds it elsewhere)
# Nine targets: fuzz_obj (the OBJ reader), fuzz_stl, fuzz_ply and fuzz_off (the
# other mesh readers, tests/fuzz/fuzz_mesh.h), fuzz_records (trajectories and
# balls, every format), fuzz_query (the cast itself), fuzz_results (the
# results `compare` reads, every format), fuzz_scene (the scene of
# `simulate`) and fuzz_limits (the readers' limits: binary data, UTF-16,
# long values, lines and rows, memory; built with the limits made small,
# FUZZ_TARGET_FLAGS). They are built in $(BUILD)/fuzz/ with clang (FUZZ_CC),
# compiling lib/*.c and the CLI readers (cli/input.c, json_stream.c, csv.c,
# records.c with sniff.c, results_read.c with results_parse.c,
# results_json.c and results_csv.c, results_table.c with the table
# readers, scene.c, with output.c and numfmt.c that they write through)
# directly with
# the fuzzer and sanitizers; their growing corpora and crash files stay under
# $(BUILD)/fuzz/ too. Seeds are tests/fuzz/corpus/TARGET/, dictionaries
# tests/fuzz/TARGET.dict; inputs that once failed are
# tests/fuzz/regressions/TARGET/ and are replayed first.

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 180
FUZZ_CI_SECONDS := 120
FUZZ_TARGETS := fuzz_obj fuzz_records fuzz_query fuzz_results fuzz_scene fuzz_stl fuzz_ply fuzz_off \
	fuzz_limits
FUZZ_SAN_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# One source list for every target; what a target does not call costs
# nothing.
FUZZ_SRCS := $(LIB_SRCS) cli/input.c cli/json_stream.c cli/csv.c cli/records.c cli/results_read.c \
	cli/results_parse.c cli/results_json.c cli/results_csv.c cli/scene.c cli/output.c cli/exit_status.c cli/numfmt.c \
	cli/results_table.c cli/table.c cli/table_read.c cli/table_json.c cli/table_text.c cli/table_kv.c \
	cli/table_xml.c cli/table_infer.c cli/literal.c cli/field_names.c cli/cell_value.c cli/sniff.c
FUZZ_BINS := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/%)

VALGRIND ?= valgrind
VALGRIND_WRAPPER := $(VALGRIND) --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect -q

.PHONY: fuzz fuzz-ci fuzz-build check-valgrind check-asan

fuzz-build: $(FUZZ_BINS)

# fuzz_limits: a value and a CSV row of 1 KiB, reads of 256 bytes and a
# CSV header sniffed in its first 1 KiB (16 MiB, 64 KiB and 64 KiB
# otherwise), so that inputs many times a limit stay small.
$(BUILD)/fuzz/fuzz_limits: FUZZ_TARGET_FLAGS := -DCLI_JSON_MAX_VALUE='((size_t)1024)' \
	-DCLI_CSV_MAX_ROW='((size_t)1024)' -DCLI_INPUT_CHUNK='((size_t)256)' -DCLI_CSV_SNIFF_BYTES='((size_t)1024)'

$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h tests/fuzz/fuzz_mesh.h $(FUZZ_SRCS) $(wildcard lib/*.h cli/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(ALL_CPPFLAGS) -Itests/fuzz $(BC_CFLAGS) $(CJSON_CFLAGS) $(FUZZ_SAN_FLAGS) $(FUZZ_TARGET_FLAGS) -o $@ \
		$< $(FUZZ_SRCS) $(CJSON_LIBS) $(GMP_LIBS) -lm

# libFuzzer's -jobs=N -workers=N: N processes per target sharing its corpus.
FUZZ_JOBS ?= $(shell nproc 2>/dev/null || echo 1)

fuzz: $(FUZZ_BINS)
	FUZZ_JOBS=$(FUZZ_JOBS) sh tests/fuzz/run-fuzz.sh $(BUILD)/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# CI: a fixed number of executions with a fixed seed (about a minute each
# here), so that a red CI is reproducible with the same command.
# fuzz_limits reads inputs of up to 1 MiB, a few dozen a second: fewer.
FUZZ_CI_RUNS ?= 60000
FUZZ_CI_LIMITS_RUNS ?= 3000
fuzz-ci: $(FUZZ_BINS)
	FUZZ_JOBS=1 FUZZ_RUNS=$(FUZZ_CI_RUNS) FUZZ_RUNS_fuzz_limits=$(FUZZ_CI_LIMITS_RUNS) FUZZ_SEED=1 \
		sh tests/fuzz/run-fuzz.sh $(BUILD)/fuzz $(FUZZ_CI_SECONDS) $(FUZZ_TARGETS)

# Only $(BUILD)/ballcast is built (not `all`, which would repoint ./ballcast).
check-valgrind: $(BUILD)/ballcast
	BALLCAST="$(abspath $(BUILD))/ballcast" BALLCAST_WRAPPER="$(VALGRIND_WRAPPER)" bats tests/cli

# The CLI suite against ballcast built with ASan+UBSan (leaks included) in
# $(ASAN_BUILD), beside the objects `make check` builds there for the unit
# tests. A report fails the test that made it: the sanitizers exit with 86,
# which no command uses, and write on stderr, which the tests check. A test
# that cannot work under ASan (none today) may skip when BALLCAST_SANITIZED
# is 1, saying why.
ASAN_BUILD ?= build/asan
ASAN_SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
check-asan:
	$(MAKE) BUILD=$(ASAN_BUILD) SAN_FLAGS="$(ASAN_SAN_FLAGS)" $(ASAN_BUILD)/ballcast
	BALLCAST="$(abspath $(ASAN_BUILD))/ballcast" BALLCAST_SANITIZED=1 \
		ASAN_OPTIONS=detect_leaks=1:exitcode=86 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=86 \
		bats tests/cli
