# Makefile — the README's two commands: `make run` (set up, build, run the flagship sample) and
# `make test` (set up, build, run every test, then the sanitizer tests and a short fuzz run). Everything else is CMake in build/.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release

SAN_BUILD ?= build-sanitize
FUZZ_SECONDS ?= 30

.PHONY: setup build run test test-release test-sanitize bench clean

setup:
	@bash scripts/setup.sh

$(BUILD)/CMakeCache.txt: | setup
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

build: setup $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

run: build
	bash scripts/run_flagship.sh $(BUILD)

# Every test of the Release build, then the unit and golden tests under ASan + UBSan (and, with clang,
# each fuzz target for FUZZ_SECONDS): scripts/test_sanitize.sh.
test: test-release test-sanitize

test-release: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-sanitize: setup
	bash scripts/test_sanitize.sh $(SAN_BUILD) $(JOBS) $(FUZZ_SECONDS)

# bench: tcpi vs numpy and tcpc --check times against issue 13's targets, then the Google Benchmarks.
bench: build
	python3 benchmarks/bench.py --bin $(BUILD)/bin
	$(BUILD)/benchmarks/tcp_benchmarks

clean:
	rm -rf $(BUILD)
