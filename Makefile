# Makefile — the README's two commands: `make run` (set up, build, run the flagship sample) and
# `make test` (set up, build, run every test). Everything else is CMake in build/.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release

.PHONY: setup build run test bench clean

setup:
	@bash scripts/setup.sh

$(BUILD)/CMakeCache.txt: | setup
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

build: setup $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

run: build
	bash scripts/run_flagship.sh $(BUILD)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# bench: tcpi vs numpy and tcpc --check times against issue 13's targets, then the Google Benchmarks.
bench: build
	python3 benchmarks/bench.py --bin $(BUILD)/bin
	$(BUILD)/benchmarks/tcp_benchmarks

clean:
	rm -rf $(BUILD)
