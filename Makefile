# TirX — two commands do everything on a fresh Debian 12 machine:
#   make run     build, then show what the compiler does with the seed's
#                affine-ReLU kernel: the layout views of its register tile, then its PTX
#   make check   build, then run every suite; the last line is
#                "N passed, N failed, N skipped"

BUILD_DIR ?= build
BUILD_TYPE ?= Release
CMAKE_FLAGS ?=

STATIC_BUILD_DIR ?= build-static

.PHONY: all deps configure build run check check-sanitize docs static gpu-bundle wheel bench fuzz clean

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD_DIR)/build.ninja:
	@bash scripts/install-deps.sh
	cmake -G Ninja -S . -B $(BUILD_DIR) \
	  -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
	  -DLLVM_USE_LINKER=lld $(CMAKE_FLAGS)

configure: $(BUILD_DIR)/build.ninja

build: deps configure
	cmake --build $(BUILD_DIR) --target tirx-opt tirx-layout tirx-test-depends TirXUnitTests tirx-doc

run: build
	@echo "== The register tile of examples/affine_relu.mlir (tensor and thread views)"
	$(BUILD_DIR)/bin/tirx-opt examples/affine_relu.mlir --tirx-print-layouts -o /dev/null
	@echo "== Its PTX (tirx-opt --tirx-to-ptx)"
	$(BUILD_DIR)/bin/tirx-opt examples/affine_relu.mlir --tirx-to-ptx=ptx-output=- -o /dev/null

check: build
	@bash scripts/check.sh $(BUILD_DIR)

# The whole project built with ASan + UBSan (clang-22) in its own folder,
# then every suite of `make check` run against it (docs/testing.md).
SANITIZE_BUILD_DIR ?= build-sanitize
check-sanitize: deps
	@test -f $(SANITIZE_BUILD_DIR)/build.ninja || cmake -G Ninja -S . -B $(SANITIZE_BUILD_DIR) \
	  -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
	  -DLLVM_USE_LINKER=lld "-DLLVM_USE_SANITIZER=Address;Undefined" $(CMAKE_FLAGS)
	cmake --build $(SANITIZE_BUILD_DIR) --target tirx-opt tirx-layout tirx-test-depends TirXUnitTests
	@bash scripts/check.sh $(SANITIZE_BUILD_DIR)

# A statically linked, stripped tirx-opt (libc/libm only): ~3x faster to
# start, and what goes to machines without LLVM.
static: deps
	@test -f $(STATIC_BUILD_DIR)/build.ninja || cmake -G Ninja -S . -B $(STATIC_BUILD_DIR) \
	  -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
	  -DLLVM_USE_LINKER=lld -DTIRX_LINK_MLIR_DYLIB=OFF $(CMAKE_FLAGS)
	cmake --build $(STATIC_BUILD_DIR) --target tirx-opt tirx-layout tirx-runner tirx-runtime-check run-affine-relu TirXCAPI TirXFastLaunch
	/usr/lib/llvm-22/bin/llvm-strip $(STATIC_BUILD_DIR)/bin/tirx-opt $(STATIC_BUILD_DIR)/bin/tirx-layout

# One folder (build-static/gpu-bundle) that runs the GPU checks on a machine
# with only an NVIDIA driver and Python: `bash run.sh` there.
gpu-bundle: static
	bash scripts/make-gpu-bundle.sh $(STATIC_BUILD_DIR)

# dist/tirx-<version>-cp311-abi3-manylinux_X_Y_x86_64.whl: the Python package
# with the static build's libraries (tirx/lib/); test/wheel/check-wheel.sh
# installs and tries it (docs/python.md).
wheel: static
	bash scripts/make-wheel.sh $(STATIC_BUILD_DIR) dist

# Compile-time and code-quality benchmarks (bench/RESULTS.md), static tools.
bench: static
	TIRX_OPT=$(STATIC_BUILD_DIR)/bin/tirx-opt sh bench/run.sh

docs: configure
	cmake --build $(BUILD_DIR) --target tirx-doc
	bash scripts/build-docs.sh $(BUILD_DIR)

# libFuzzer + ASan/UBSan builds of the fuzzers (fuzz/), then each runs for
# FUZZ_SECONDS (docs/testing.md); FUZZERS="tirx-ir-fuzzer ..." picks some.
FUZZ_BUILD_DIR ?= build-fuzz
FUZZ_SECONDS ?= 60
fuzz: deps
	@test -f $(FUZZ_BUILD_DIR)/build.ninja || cmake -G Ninja -S . -B $(FUZZ_BUILD_DIR) \
	  -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
	  -DLLVM_USE_LINKER=lld -DTIRX_ENABLE_FUZZERS=ON \
	  "-DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -g"
	cmake --build $(FUZZ_BUILD_DIR) --target tirx-layout-fuzzer tirx-ptx-spelling-fuzzer tirx-ir-fuzzer tirx-capi-fuzzer
	bash scripts/run-fuzzers.sh $(FUZZ_BUILD_DIR) $(FUZZ_SECONDS) $(FUZZERS)

clean:
	rm -rf $(BUILD_DIR) $(STATIC_BUILD_DIR) $(FUZZ_BUILD_DIR) $(SANITIZE_BUILD_DIR)
