# bench.mk - `make bench`: ballcast against brute force, Bullet and Embree
# (included by the Makefile). See BENCHMARKS.md.
#   make bench                 the full run (long: see BENCHMARKS.md), rewrites BENCHMARKS.md
#   make bench BENCH_QUICK=1   meshes up to ~80k triangles, 10k trajectories, a minute or two;
#                              its report goes to tests/bench/work/quick/BENCHMARKS.md
# Bullet (libbullet-dev) and Embree (libembree-dev) are optional: installed
# here when missing if apt-get allows, otherwise their columns say n/a.

BENCH_BIN := $(BUILD)/bench
BENCH_MODE := $(if $(BENCH_QUICK),quick,full)
BENCH_PEER_PACKAGES := libbullet-dev libembree-dev
BENCH_CXX ?= $(if $(filter clang,$(CC)),clang++,g++)
BULLET_CFLAGS = $(shell $(PKG_CONFIG) --cflags bullet 2>/dev/null)
BULLET_LIBS = $(shell $(PKG_CONFIG) --libs bullet 2>/dev/null || echo -lBulletCollision -lLinearMath)
EMBREE_LIBS := -lembree3

BENCH_CORE := $(BENCH_BIN)/genwork $(BENCH_BIN)/cast_bench $(BENCH_BIN)/seeds_bench $(BENCH_BIN)/runstat \
	$(BENCH_BIN)/numfmt_bench $(BENCH_BIN)/query_bench $(BENCH_BIN)/records_bench
BENCH_PEERS := $(BENCH_BIN)/bullet_sweep $(BENCH_BIN)/embree_rays
BENCH_FLAGS = $(ALL_CPPFLAGS) -Itests/bench -Itests/support $(ALL_CFLAGS)

.PHONY: bench bench-tools bench-peers bench-peer-packages bench-grade bench-grade-infer bench-polygon bench-mesh-read

# Reading each mesh format, CPU seconds of bcMesh_Load without the
# hierarchy (tests/bench/mesh_read.c; notes.md, issue 32).
bench-mesh-read: $(BENCH_BIN)/mesh_read
	sh tests/bench/mesh_formats.sh $(BENCH_BIN)/mesh_read

# One polygon of 10^3 to 10^6 corners into triangles (lib/polygon.c): convex,
# star, comb and spiral, cut and read from an OBJ (tests/bench/notes.md).
bench-polygon: $(BENCH_BIN)/polygon_bench
	@mkdir -p tests/bench/work
	$(BENCH_BIN)/polygon_bench tests/bench/work

# `ballcast grade` alone: 100 submissions of 10,000 records in under 10 s.
bench-grade: all
	sh tests/bench/grade_bench.sh $(BUILD)/ballcast tests/bench/work/grade

# `ballcast grade` reading a class of 30 files in 20 shapes (10 of them
# wrong) of 1000 throws on a 20,000-triangle scan: under 10 s.
bench-grade-infer: all
	sh tests/bench/grade_infer_bench.sh $(BUILD)/ballcast tests/bench/work/grade-infer

bench: all bench-tools
	-@$(MAKE) --no-print-directory bench-peer-packages
	-@$(MAKE) --no-print-directory -k bench-peers
	sh tests/bench/run.sh $(BENCH_MODE) $(BUILD) $(BENCH_BIN) tests/bench/work/$(BENCH_MODE)

bench-tools: $(BENCH_CORE)

bench-peers: $(BENCH_PEERS)

# Quietly, and only when missing; a failure leaves the peers' columns n/a.
bench-peer-packages:
	@missing=""; for p in $(BENCH_PEER_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi; \
		echo "bench: installing$$missing (optional peers)" >&2; \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -q $$missing >/dev/null 2>&1 || \
		{ DEBIAN_FRONTEND=noninteractive $$sudo apt-get update -q >/dev/null 2>&1 && \
		  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -q $$missing >/dev/null 2>&1; } || \
		echo "bench: could not install$$missing; those columns will say n/a" >&2; \
	fi

$(BENCH_BIN)/benchutil.o: tests/bench/benchutil.c tests/bench/benchutil.h lib/ballcast.h
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_FLAGS) -c $< -o $@

$(BENCH_BIN)/genwork: tests/bench/genwork.c $(BENCH_BIN)/benchutil.o tests/support/meshgen.c tests/support/meshgen.h \
		$(BUILD)/libballcast.a
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_FLAGS) -o $@ $< $(BENCH_BIN)/benchutil.o tests/support/meshgen.c $(BUILD)/libballcast.a \
		$(ALL_LDFLAGS) $(GMP_LIBS) -lm

$(BENCH_BIN)/cast_bench: tests/bench/cast_bench.c $(BENCH_BIN)/benchutil.o lib/bvh.h $(BUILD)/libballcast.a
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_FLAGS) -o $@ $< $(BENCH_BIN)/benchutil.o $(BUILD)/libballcast.a $(ALL_LDFLAGS) $(GMP_LIBS) -lm

$(BENCH_BIN)/query_bench: tests/bench/query_bench.c $(BENCH_BIN)/benchutil.o $(BUILD)/libballcast.a
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_FLAGS) -o $@ $< $(BENCH_BIN)/benchutil.o $(BUILD)/libballcast.a $(ALL_LDFLAGS) $(GMP_LIBS) -lm

$(BENCH_BIN)/seeds_bench: tests/bench/seeds_bench.c $(BENCH_BIN)/benchutil.o tests/support/meshgen.c \
		tests/support/meshgen.h $(BUILD)/libballcast.a
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_FLAGS) -o $@ $< $(BENCH_BIN)/benchutil.o tests/support/meshgen.c $(BUILD)/libballcast.a \
		$(ALL_LDFLAGS) $(GMP_LIBS) -lm

$(BENCH_BIN)/polygon_bench: tests/bench/polygon_bench.c $(BENCH_BIN)/benchutil.o tests/support/polygen.c \
		tests/support/polygen.h tests/support/meshgen.c lib/polygon.h $(BUILD)/libballcast.a
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_FLAGS) -o $@ $< $(BENCH_BIN)/benchutil.o tests/support/polygen.c tests/support/meshgen.c \
		$(BUILD)/libballcast.a $(ALL_LDFLAGS) $(GMP_LIBS) -lm

$(BENCH_BIN)/mesh_read: tests/bench/mesh_read.c $(BUILD)/libballcast.a
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_FLAGS) -o $@ $< $(BUILD)/libballcast.a \
		-Wl,--wrap=bcBvh_CreateWithThreads,--wrap=bcBvh_Destroy $(ALL_LDFLAGS) $(GMP_LIBS) -lm

$(BENCH_BIN)/runstat: tests/bench/runstat.c
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_FLAGS) -o $@ $< $(ALL_LDFLAGS)

$(BENCH_BIN)/numfmt_bench: tests/bench/numfmt_bench.c cli/numfmt.c cli/numfmt.h
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_FLAGS) -o $@ $< cli/numfmt.c $(ALL_LDFLAGS) $(GMP_LIBS) -lm

# The record reader alone (tests/bench/notes.md, issue 29): the CLI's readers and the library.
BENCH_READER_OBJS := $(addprefix $(BUILD)/cli/,input.o json_stream.o csv.o records.o sniff.o)
$(BENCH_BIN)/records_bench: tests/bench/records_bench.c $(BENCH_READER_OBJS) $(BUILD)/libballcast.a
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_FLAGS) -o $@ $< $(BENCH_READER_OBJS) $(BUILD)/libballcast.a $(ALL_LDFLAGS) $(CJSON_LIBS) \
		$(GMP_LIBS) -lm

$(BENCH_BIN)/bullet_sweep: tests/bench/bullet_sweep.cpp $(BENCH_BIN)/benchutil.o $(BUILD)/libballcast.a
	@mkdir -p $(dir $@)
	$(BENCH_CXX) -std=c++11 -O2 -Wall -Wextra $(ALL_CPPFLAGS) -Itests/bench $(BULLET_CFLAGS) -o $@ $< \
		$(BENCH_BIN)/benchutil.o $(BUILD)/libballcast.a $(BULLET_LIBS) $(ALL_LDFLAGS) $(GMP_LIBS) -lm

$(BENCH_BIN)/embree_rays: tests/bench/embree_rays.c $(BENCH_BIN)/benchutil.o $(BUILD)/libballcast.a
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_FLAGS) -o $@ $< $(BENCH_BIN)/benchutil.o $(BUILD)/libballcast.a $(EMBREE_LIBS) $(ALL_LDFLAGS) $(GMP_LIBS) -lm
