# exact.mk - `make check-exact`: `ballcast cast` against an exact rational
# reference at exact degeneracies (tests/exact/README.md); included by the
# Makefile.  Python 3 standard library only.
#   make check-exact                          100,000 casts, seed 1
#   make check-exact EXACT_COUNT=5000 EXACT_SEED=7 EXACT_FLAGS="--class fan-apex --keep /tmp/fails"
# `make check` runs it too (tests/run-suites.sh; BALLCAST_EXACT=0 skips it).

EXACT_COUNT ?= 100000
EXACT_SEED ?= 1
EXACT_FLAGS ?=

.PHONY: check-exact

check-exact: all
	python3 tests/exact/test_reference.py
	python3 tests/exact/run.py --ballcast ./ballcast --count $(EXACT_COUNT) --seed $(EXACT_SEED) $(EXACT_FLAGS)
