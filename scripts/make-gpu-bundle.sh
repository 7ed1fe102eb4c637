#!/usr/bin/env bash
# Builds the folder that runs TirX's GPU checks on a machine with an NVIDIA
# driver, Python 3 (numpy, cupy, torch) and nothing else: static stripped
# tirx-runner (gzip'ed), libTirXRuntime.so, tirx-runtime-check, the host
# programs of test/gpu lowered to the LLVM dialect with their CHECK lines,
# the examples' PTX and the Python checks, libTirXCAPI.so with the Python
# package and the seed's examples, the pip wheel. Big files are xz-compressed (run.sh
# unpacks them; `import tirx` decompresses lib/libTirXCAPI.so.xz by itself
# into its cache folder, docs/python.md). Run there: `bash run.sh`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
static=${1:-$root/build-static}
out=${2:-$static/gpu-bundle}
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/tests"
strip=/usr/lib/llvm-22/bin/llvm-strip
cp "$static/bin/tirx-runner" "$static/bin/tirx-runtime-check" \
   "$static/bin/run-affine-relu" "$out/bin/"
cp "$static/lib/libTirXRuntime.so" "$static/lib/libTirXCAPI.so" \
   "$static/lib/_fastlaunch.abi3.so" "$out/lib/"
$strip "$out/bin/tirx-runner" "$out/bin/tirx-runtime-check" \
  "$out/bin/run-affine-relu" "$out/lib/libTirXRuntime.so" "$out/lib/libTirXCAPI.so" \
  "$out/lib/_fastlaunch.abi3.so"
xz -9 -T2 "$out/bin/tirx-runner" "$out/bin/run-affine-relu" "$out/lib/libTirXCAPI.so"
# The Python package and the seed's examples (run with TIRX_LIBRARY=lib).
mkdir -p "$out/python" "$out/examples/python"
cp -r "$root/python/tirx" "$out/python/"
find "$out/python" -name __pycache__ -prune -exec rm -rf {} +
cp "$root"/examples/python/*.py "$out/examples/python/"
mkdir -p "$out/examples"
cp "$root/examples/affine_relu.mlir" "$out/examples/"
for test in "$root"/test/gpu/*.mlir; do
  name=$(basename "$test" .mlir)
  "$static/bin/tirx-opt" "$test" --tirx-to-llvm-host -o "$out/tests/$name.llvm.mlir"
  cp "$test" "$out/tests/$name.mlir"
done
cp "$root/test/Runtime/gpu.test" "$out/tests/runtime-check.test"
cp "$root/test/Runtime/prepared-launch-gpu.test" "$out/tests/"
cp "$root/test/Runtime/Inputs/prepared_launch.py" "$out/"
TIRX_OPT="$static/bin/tirx-opt" bash "$root/test/gpu/run.sh" --build "$out/ptx" > /dev/null
# The numerics suite: every register form, and the immediate forms, as TirX
# PTX and as an nvcc inline-asm reference (compiled here with the same CUDA
# 13 nvcc).
mkdir -p "$out/numerics"
/usr/bin/python3 "$root/test/gpu/numerics/gen.py" "$out/numerics" > /dev/null
for suite in numerics immediates; do
  "$static/bin/tirx-opt" "$out/numerics/$suite.mlir" \
    --tirx-to-ptx="features=+ptx81 ptx-output=$out/numerics/$suite.ptx" -o /dev/null
done
/usr/local/cuda/bin/nvcc -arch=sm_90 -cubin -o "$out/numerics/reference.cubin" \
  "$out/numerics/reference.cu"
cp "$root/test/gpu/numerics/run.py" "$root/test/gpu/numerics/suite.py" "$out/numerics/"
# wgmma (issue 19, item 4; test/gpu/wgmma): wgmma.mma_async m64nNk16 at
# sm_90a against nvcc's inline asm with hand-built descriptors. A module
# tirx-opt refuses is kept as wgmma.err for run.py to print.
mkdir -p "$out/wgmma"
/usr/bin/python3 "$root/test/gpu/wgmma/gen.py" "$out/wgmma" > /dev/null
if "$static/bin/tirx-opt" "$out/wgmma/wgmma.mlir" \
    --tirx-to-ptx="chip=sm_90a ptx-output=$out/wgmma/wgmma.ptx" -o /dev/null 2> "$out/wgmma/wgmma.err"; then
  rm -f "$out/wgmma/wgmma.err"
else
  rm -f "$out/wgmma/wgmma.ptx"
  echo "wgmma: wgmma.mlir did not compile (kept in the bundle as wgmma.err)" >&2
fi
/usr/local/cuda/bin/nvcc -arch=sm_90a -cubin -o "$out/wgmma/reference.cubin" "$out/wgmma/reference.cu"
# run.py --record writes matrix/mma_golden.py's format (copied below).
cp "$root/test/gpu/wgmma/run.py" "$out/wgmma/"
# --- The generated GPU truth suites ----------------------------------------
# collectives (issue 17): every warp-collective form (shfl/vote/redux/
# bar.warp.sync), the named barriers, activemask and the i1 helpers;
# matrix (issue 18): mma.sync, ldmatrix/stmatrix, cp.async. Each as TirX
# PTX, one module per form group so that a module tirx-opt refuses fails its
# group alone (its errors are kept in GROUP.err for run.py to print), and an
# nvcc inline-asm reference.
for suite in collectives matrix; do
  mkdir -p "$out/$suite"
  /usr/bin/python3 "$root/test/gpu/$suite/gen.py" "$out/$suite" > /dev/null
  for mlir in "$out/$suite"/*.mlir; do
    group=${mlir%.mlir}
    # The module's own PTX ISA (`tirx.ptx = 84` for fp8 mma), else 8.1.
    ptx=$(sed -n 's/.*tirx\.ptx = \([0-9]*\).*/\1/p' "$mlir" | head -1)
    if "$static/bin/tirx-opt" "$mlir" \
        --tirx-to-ptx="features=+ptx${ptx:-81} ptx-output=$group.ptx" -o /dev/null 2> "$group.err"; then
      rm -f "$group.err"
    else
      rm -f "$group.ptx"
      echo "$suite: $(basename "$mlir") did not compile (kept in the bundle as $(basename "$group").err)" >&2
    fi
  done
  /usr/local/cuda/bin/nvcc -arch=sm_90 -cubin -o "$out/$suite/reference.cubin" \
    "$out/$suite/reference.cu"
  cp "$root/test/gpu/$suite/run.py" "$out/$suite/"
  [ "$suite" != matrix ] || cp "$root/test/gpu/matrix/mma_golden.py" "$out/matrix/"
  [ "$suite" != collectives ] || cp "$root/test/gpu/collectives/collectives_golden.py" \
    "$out/collectives/"
done
# sync (issue 19): mbarrier phases, elect.sync, setmaxnreg and the wgmma,
# proxy and bulk fences; sm_90a modules (PTX 8.3, a register limit for
# setmaxnreg) and an sm_90a nvcc reference.
mkdir -p "$out/sync"
/usr/bin/python3 "$root/test/gpu/sync/gen.py" "$out/sync" > /dev/null
for mlir in "$out/sync"/*.mlir; do
  case=${mlir%.mlir}
  if "$static/bin/tirx-opt" "$mlir" \
      --tirx-to-ptx="chip=sm_90a features=+ptx83 max-registers=128 ptx-output=$case.ptx" \
      -o /dev/null 2> "$case.err"; then
    rm -f "$case.err"
  else
    rm -f "$case.ptx"
    echo "sync: $(basename "$mlir") did not compile (kept in the bundle as $(basename "$case").err)" >&2
  fi
done
/usr/local/cuda/bin/nvcc -arch=sm_90a -cubin -o "$out/sync/reference.cubin" "$out/sync/reference.cu"
cp "$root/test/gpu/sync/run.py" "$out/sync/"
# --- end of the generated suites -------------------------------------------
# The pip wheel (`make wheel`), built here from the same static folder,
# uncompressed inside and xz'ed whole (run.sh unpacks it, then pip-installs it).
mkdir -p "$out/wheel"
bash "$root/scripts/make-wheel.sh" --stored "$static" "$out/wheel" > /dev/null
xz -9 -T2 "$out"/wheel/tirx-*.whl
mkdir -p "$out/bench"
cp "$root"/bench/gpu/*.py "$root"/bench/gpu/*.cu "$root/bench/gpu/run.sh" "$out/bench/"
# The compile cache's timings (run there from the bundle's root, which has
# python/ and examples/python/ as the repository does).
cp "$root/bench/compile_cache.py" "$out/bench/"
cp "$root/test/gpu/run.sh" "$root/test/gpu/tally.sh" "$root/test/gpu/unpack.py" "$root/test/gpu/filecheck.py" \
   "$root/test/gpu/sanitizer_summary.py" \
   "$root/test/gpu/run_examples.py" "$root/test/gpu/run_malformed.py" \
   "$root/test/gpu/run_huge.py" "$root/test/gpu/run_torch.py" \
   "$root/test/gpu/run_multi_gpu.py" "$root/test/gpu/run_mma_repeats.py" \
   "$root/test/gpu/run_tma.py" "$root/test/gpu/run_tma_sizes.py" "$root/test/gpu/run_masked.py" \
   "$root/test/gpu/run_tma_reduce.py" \
   "$root/test/gpu/run_cluster.py" "$root/test/gpu/run_reductions.py" \
   "$root/test/gpu/run_ewise_pack.py" "$root/test/gpu/run_race_proof.py" \
   "$root/test/gpu/run_math.py" "$out/"
# mma.sync's (M, N, K)-structured repeats, run by run_mma_repeats.py.
"$static/bin/tirx-opt" "$root/test/Pipeline/mma-repeats.mlir" \
  --tirx-to-ptx="ptx-output=$out/mma_repeats.ptx" -o /dev/null
du -sh "$out"
