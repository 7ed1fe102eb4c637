#!/usr/bin/env bash
# GPU checks of the examples. On the build machine (has tirx-opt):
#   test/gpu/run.sh --build OUT_DIR     compile the examples' PTX into OUT_DIR
# On the GPU machine (cupy + numpy, no MLIR):
#   test/gpu/run.sh OUT_DIR             run them and compare with references
# `make gpu-bundle` packs this script with a static tirx-runner and the
# runtime; in the bundle, `bash run.sh` runs everything.
# (cupy + numpy; run_math.py also torch)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = "--build" ]; then
  out=${2:?output directory}
  tirx_opt=${TIRX_OPT:-$here/../../build/bin/tirx-opt}
  mkdir -p "$out"
  for example in affine_relu to_float16 silu affine_relu_large; do
    "$tirx_opt" "$here/../../examples/$example.mlir" \
      --tirx-to-ptx="ptx-output=$out/$example.ptx" -o /dev/null
  done
  for example in silu gelu softplus; do
    "$tirx_opt" "$here/../../examples/$example.mlir" \
      --tirx-to-ptx="ptx-output=$out/$example.precise.ptx" -o /dev/null
    "$tirx_opt" "$here/../../examples/$example.mlir" \
      --tirx-to-ptx="fast-math=1 ptx-output=$out/$example.fast.ptx" -o /dev/null
  done
  cp "$here/run_examples.py" "$here/run_math.py" "$out/"
  echo "PTX written to $out"
  exit 0
fi
# In a bundle made by scripts/make-gpu-bundle.sh, this folder also holds the
# runner, the runtime and the lowered host programs of test/gpu.
dir=${1:-$here/ptx}
status=0
if [ -d "$here/tests" ]; then
  python3 "$here/unpack.py" "$here/bin" "$here/lib"
  passed=0; failed=0
  for test in "$here"/tests/*.llvm.mlir; do
    name=$(basename "$test" .llvm.mlir)
    if "$here/bin/tirx-runner" "$test" --e main --entry-point-result=void \
         > "$here/tests/$name.out" 2>&1 &&
       python3 "$here/filecheck.py" "$here/tests/$name.mlir" < "$here/tests/$name.out"; then
      echo "PASS: gpu/$name.mlir (tirx-runner)"; passed=$((passed + 1))
    else
      echo "FAIL: gpu/$name.mlir (tirx-runner)"; cat "$here/tests/$name.out"
      failed=$((failed + 1)); status=1
    fi
  done
  echo "tirx-runner tests: $passed passed, $failed failed"
  # The runtime's error paths, checked against test/Runtime/gpu.test.
  if "$here/bin/tirx-runtime-check" "$dir/affine_relu.ptx" > "$here/tests/runtime-check.out" 2>/dev/null &&
     python3 "$here/filecheck.py" "$here/tests/runtime-check.test" < "$here/tests/runtime-check.out"; then
    echo "PASS: Runtime/gpu.test (tirx-runtime-check)"
  else
    echo "FAIL: Runtime/gpu.test (tirx-runtime-check)"; cat "$here/tests/runtime-check.out"; status=1
  fi
  # The C++ embedding example: compiles the IR in-process, then runs it.
  "$here/bin/run-affine-relu" "$here/examples/affine_relu.mlir" || status=1
fi
python3 "$here/run_examples.py" "$dir" || status=1
python3 "$here/run_math.py" "$dir" || status=1
# The numerics suite: every register form against nvcc's inline asm, bit for bit.
if [ -d "$here/numerics" ]; then
  # The reference is rebuilt by this machine's nvcc when it has one (the
  # bundle's cubin comes from the build machine's CUDA 13 nvcc otherwise).
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  if [ -x "$nvcc" ]; then
    "$nvcc" -arch=sm_90 -cubin -o "$here/numerics/reference.cubin" "$here/numerics/reference.cu" \
      && echo "numerics: reference kernels compiled here by $("$nvcc" --version | tail -2 | head -1)"
  fi
  python3 "$here/numerics/run.py" "$here/numerics" "${NUMERICS_RESULTS:-$here/numerics/RESULTS.md}" \
    || status=1
fi
# The seed's examples, verbatim but for the imports, through the Python package.
if [ -d "$here/python/tirx" ]; then
  for example in "$here"/examples/python/*.py; do
    PYTHONPATH="$here/python" TIRX_LIBRARY="$here/lib" python3 "$example" || status=1
  done
  PYTHONPATH="$here/python" TIRX_LIBRARY="$here/lib" \
    python3 "$here/run_malformed.py" "$here/examples/python" || status=1
  PYTHONPATH="$here/python" TIRX_LIBRARY="$here/lib" python3 "$here/run_huge.py" || status=1
fi
exit $status
