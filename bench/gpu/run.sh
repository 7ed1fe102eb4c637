#!/usr/bin/env bash
# Streaming benchmarks on a GPU (see stream.py; needs torch, cupy, nvrtc).
#   In a GPU bundle (make gpu-bundle):  bash bench/run.sh [--sizes|--softmax|--rmsnorm|--example-shapes|--first-launch|--gemm|--gemm-hopper] [RESULTS.md]
#   In a built checkout with a GPU:     bash bench/gpu/run.sh [--sizes|--softmax|--rmsnorm|--example-shapes|--first-launch|--gemm|--gemm-hopper] [RESULTS.md]
# --sizes runs sizes.py (runtime-sized persistent affine-ReLU) instead;
# --softmax runs softmax.py (row softmax against copy, torch, Triton);
# --rmsnorm runs rmsnorm.py (bf16 RMSNorm against copy, torch, Triton);
# --example-shapes runs example_shapes.py (softmax(x), rms_norm(x, w) on
#   every shape; BASELINE=dir with old_softmax.py/old_rmsnorm.py adds an A/B);
# --first-launch runs first_launch.py (cold compile + first launch, TirX
#   against Triton, a new process per run);
# --gemm runs gemm.py (bf16 GEMM against cuBLAS and Triton);
# --gemm-hopper runs gemm_hopper.py (the TMA/wgmma GEMM, the same anchors).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ -d "$here/../python/tirx" ] && [ -d "$here/../lib" ]; then
  root=$(cd "$here/.." && pwd)  # the bundle
  python3 "$root/unpack.py" "$root/lib"
  lib=$root/lib
else
  root=$(cd "$here/../.." && pwd)  # a checkout, built in build/
  lib=$root/build/lib
fi
export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
export TIRX_LIBRARY="${TIRX_LIBRARY:-$lib}"
if [ "${1:-}" = "--sizes" ]; then
  shift
  exec python3 "$here/sizes.py" "$root/examples/python" "$@"
fi
if [ "${1:-}" = "--rmsnorm" ]; then
  shift
  exec python3 "$here/rmsnorm.py" "$root/examples/python" "$@"
fi
if [ "${1:-}" = "--example-shapes" ]; then
  shift
  exec python3 "$here/example_shapes.py" "$root/examples/python" ${BASELINE:+"$BASELINE"} "$@"
fi
if [ "${1:-}" = "--first-launch" ]; then
  shift
  exec python3 "$here/first_launch.py" "$root/examples/python" "$@"
fi
if [ "${1:-}" = "--gemm" ]; then
  shift
  exec python3 "$here/gemm.py" "$root/examples/python" "$@"
fi
if [ "${1:-}" = "--gemm-hopper" ]; then
  shift
  exec python3 "$here/gemm_hopper.py" "$root/examples/python" "$@"
fi
if [ "${1:-}" = "--softmax" ]; then
  shift
  exec python3 "$here/softmax.py" "$root/examples/python" "$@"
fi
exec python3 "$here/stream.py" "$@"
