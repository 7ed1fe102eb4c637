#!/usr/bin/env bash
# GPU checks of the examples. On the build machine (has tirx-opt):
#   test/gpu/run.sh --build OUT_DIR     compile the examples' PTX into OUT_DIR
# On the GPU machine (cupy + numpy, no MLIR):
#   test/gpu/run.sh OUT_DIR             run them and compare with references
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
dir=${1:-.}
status=0
python3 "$here/run_examples.py" "$dir" || status=1
python3 "$here/run_math.py" "$dir" || status=1
exit $status
