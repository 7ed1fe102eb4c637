#!/usr/bin/env bash
# GPU checks of the examples. On the build machine (has tirx-opt):
#   test/gpu/run.sh --build OUT_DIR     compile the examples' PTX into OUT_DIR
# On the GPU machine (cupy + numpy, no MLIR):
#   test/gpu/run.sh OUT_DIR             run them and compare with references
# `make gpu-bundle` packs this script with a static tirx-runner and the
# runtime; in the bundle, `bash run.sh` runs everything.
# (cupy + numpy; run_math.py also torch)
# Every check prints a line starting with PASS:, FAIL: or SKIP:. A check's
# exit status is its verdict (tally.sh): 0 passed, 77 skipped (a script
# whose every check needs what this machine lacks, e.g. run_multi_gpu.py on
# one GPU, run_huge.py below 70 GiB; its last output line is the reason),
# anything else failed. Above the last line every skip is listed with its
# reason; the last line is "gpu checks: N passed, N failed, N skipped" and
# the exit status is 1 on any failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/tally.sh"
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
# TIRX_GPU_PART=checks runs the checks only, =sanitizers the compute-sanitizer
# passes only (each fits one 10-minute device command); unset, both.
part=${TIRX_GPU_PART:-all}
case $part in all|checks|sanitizers) ;; *) echo "TIRX_GPU_PART=$part: not all, checks or sanitizers" >&2; exit 2;; esac
# The bundle ships bin/ and lib/ xz-compressed: unpack them for either part
# (the sanitizer passes run the same programs and import tirx too).
if [ -d "$here/tests" ]; then
  python3 "$here/unpack.py" "$here/bin" "$here/lib"
fi
if [ "$part" != sanitizers ]; then
runner_test() {  # a test/gpu host program: tirx-runner, then its CHECK lines
  local name=$1
  "$here/bin/tirx-runner" "$here/tests/$name.llvm.mlir" --e main --entry-point-result=void \
    > "$here/tests/$name.out" 2>&1 &&
  python3 "$here/filecheck.py" "$here/tests/$name.mlir" < "$here/tests/$name.out" ||
  { cat "$here/tests/$name.out"; return 1; }
}
if [ -d "$here/tests" ]; then
  for test in "$here"/tests/*.llvm.mlir; do
    name=$(basename "$test" .llvm.mlir)
    check "gpu/$name.mlir (tirx-runner)" runner_test "$name"
  done
  # The runtime's error paths, checked against test/Runtime/gpu.test.
  runtime_check() {
    "$here/bin/tirx-runtime-check" "$dir/affine_relu.ptx" > "$here/tests/runtime-check.out" 2>/dev/null &&
    python3 "$here/filecheck.py" "$here/tests/runtime-check.test" < "$here/tests/runtime-check.out" ||
    { cat "$here/tests/runtime-check.out"; return 1; }
  }
  check "Runtime/gpu.test (tirx-runtime-check)" runtime_check
  # test/Runtime/tensor-map.test's GPU line: a valid tensor map encodes.
  # (Printed, then searched: `tee /dev/stderr` would reopen, and truncate,
  # a log file that run.sh's output is redirected to.)
  tensor_maps() {
    local out
    out=$("$here/bin/tirx-runtime-check" --tensor-maps 2>&1) || true
    printf '%s\n' "$out"
    grep -q "^map-valid: SUCCESS" <<< "$out"
  }
  check "Runtime/tensor-map.test (tirx-runtime-check --tensor-maps)" tensor_maps
  # The prepared launches of the C ABI (what the Python launcher uses),
  # checked against test/Runtime/prepared-launch-gpu.test.
  prepared_check() {
    python3 "$here/prepared_launch.py" "$here/lib/libTirXRuntime.so" "$dir/affine_relu.ptx" \
      > "$here/tests/prepared-launch.out" 2>&1 &&
    python3 "$here/filecheck.py" "$here/tests/prepared-launch-gpu.test" \
      < "$here/tests/prepared-launch.out" ||
    { cat "$here/tests/prepared-launch.out"; return 1; }
  }
  check "Runtime/prepared-launch-gpu.test (prepared_launch.py)" prepared_check
  # The C++ embedding example: compiles the IR in-process, then runs it.
  check "run-affine-relu (C++ embedding example)" \
    "$here/bin/run-affine-relu" "$here/examples/affine_relu.mlir"
fi
check "run_examples.py" python3 "$here/run_examples.py" "$dir"
check "run_math.py" python3 "$here/run_math.py" "$dir"
# The numerics suite: every register form against nvcc's inline asm, bit for
# bit, and the immediate forms.
if [ -d "$here/numerics" ]; then
  # The reference is rebuilt by this machine's nvcc when it has one (the
  # bundle's cubin comes from the build machine's CUDA 13 nvcc otherwise).
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  if [ -x "$nvcc" ]; then
    "$nvcc" -arch=sm_90 -cubin -o "$here/numerics/reference.cubin" "$here/numerics/reference.cu" \
      && echo "numerics: reference kernels compiled here by $("$nvcc" --version | tail -2 | head -1)"
  fi
  # GOLDEN_DIR=DIR records the GPU's outputs for the interpreter's
  # bit-for-bit comparison (DIR/numerics.npz; test/gpu/numerics/suite.py).
  check "numerics/run.py" python3 "$here/numerics/run.py" "$here/numerics" \
    "${NUMERICS_RESULTS:-$here/numerics/RESULTS.md}" \
    ${GOLDEN_DIR:+--record "$GOLDEN_DIR/numerics.npz"}
fi
# wgmma (issue 19, item 4; test/gpu/wgmma): wgmma.mma_async m64nNk16 (N 8,
# 64, 128, 256; bf16, f16; A from shared memory or registers; K- and
# MN-major B; scale-d 0 and 1) against nvcc's inline asm with hand-built
# descriptors, bit for bit, and nvcc against a float64 GEMM.
if [ -d "$here/wgmma" ]; then
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  if [ -x "$nvcc" ]; then
    "$nvcc" -arch=sm_90a -cubin -o "$here/wgmma/reference.cubin" "$here/wgmma/reference.cu" \
      && echo "wgmma: reference kernels compiled here by $("$nvcc" --version | tail -2 | head -1)"
  fi
  # GOLDEN_DIR=DIR records A, B, C and TirX's D of each launch for the
  # interpreter's comparison (DIR/wgmma.npz; matrix/mma_golden.py's format).
  check "wgmma/run.py" python3 "$here/wgmma/run.py" "$here/wgmma" \
    "${WGMMA_RESULTS:-$here/wgmma/RESULTS.md}" ${GOLDEN_DIR:+"--record=$GOLDEN_DIR/wgmma.npz"}
fi
# --- The generated truth suites --------------------------------------------
# collectives (issue 17; test/gpu/collectives): every warp-collective form
# (shfl/vote/redux/bar.warp.sync; named barriers, activemask, setp/selp)
# against nvcc's inline asm, bit for bit.
# matrix (issue 18; test/gpu/matrix): every mma.sync form tile.apply accepts
# (m16n8k16 and m16n8k8, f16/bf16 in, f32 or f16 accumulators; m16n8k8 tf32
# and m16n8k32 e4m3/e5m2 (PTX 8.4) into f32; scope warp, cta with repeats,
# warpgroup) against nvcc's inline asm, bit for bit, on random and special
# inputs (NaN, inf, subnormals, large exponents); ldmatrix/stmatrix
# (.x1/.x2/.x4, .trans; padded and interleaved shared layouts) and cp.async
# (.ca 4/8/16 and .cg 16 bytes, .L2::128B, zero fill at src-size 0 / partial
# / full, commit/wait_group 0 and 1, wait_all) against nvcc and against a
# host model of the PTX ISA, bit for bit.
# run.py prints a PASS:/FAIL: line per form group. The reference is rebuilt
# here when this machine has nvcc (the fp8 forms need nvcc 12.4 or newer,
# PTX 8.4; when it fails the bundle's cubin stays); RESULTS.md (or
# $COLLECTIVES_RESULTS / $MATRIX_RESULTS) gets the table.
for suite in collectives matrix; do
  [ -d "$here/$suite" ] || continue
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  if [ -x "$nvcc" ]; then
    "$nvcc" -arch=sm_90 -cubin -o "$here/$suite/reference.cubin" \
      "$here/$suite/reference.cu" \
      && echo "$suite: reference kernels compiled here by $("$nvcc" --version | tail -2 | head -1)"
  fi
  results=$(echo "$suite" | tr a-z A-Z)_RESULTS
  # GOLDEN_DIR=DIR records the launches' inputs and outputs for the
  # interpreter's comparison (DIR/collectives.npz: every launch's first 4
  # warps, collectives/collectives_golden.py; DIR/matrix.npz: the mma forms,
  # matrix/mma_golden.py).
  record=${GOLDEN_DIR:+--record=$GOLDEN_DIR/$suite.npz}
  check "$suite/run.py" python3 "$here/$suite/run.py" "$here/$suite" \
    "${!results:-$here/$suite/RESULTS.md}" ${record:+"$record"}
done
# sync (issue 19; test/gpu/sync): mbarrier init/arrive (state, sink, count,
# expect_tx)/try_wait (the retry loop and single tries)/test_wait/inval over
# six phases, elect.sync, setmaxnreg and the wgmma, proxy and bulk fences,
# against nvcc's inline asm (sm_90a) and the expected words.
if [ -d "$here/sync" ]; then
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  if [ -x "$nvcc" ]; then
    "$nvcc" -arch=sm_90a -cubin -o "$here/sync/reference.cubin" "$here/sync/reference.cu" \
      && echo "sync: reference kernels compiled here by $("$nvcc" --version | tail -2 | head -1)"
  fi
  # A barrier protocol that never completes hangs its kernel: time it out.
  check "sync/run.py" timeout 300 python3 "$here/sync/run.py" "$here/sync" \
    "${SYNC_RESULTS:-$here/sync/RESULTS.md}"
fi
# The seed's examples, verbatim but for the imports, through the Python package.
with_tirx() { PYTHONPATH="$here/python" TIRX_LIBRARY="$here/lib" "$@"; }
if [ -d "$here/python/tirx" ]; then
  for example in "$here"/examples/python/*.py; do
    check "examples/python/$(basename "$example")" with_tirx python3 "$example"
  done
  check "run_malformed.py" with_tirx python3 "$here/run_malformed.py" "$here/examples/python"
  check "run_huge.py" with_tirx python3 "$here/run_huge.py"
  # mma.sync's (M, N, K) repeats: the k steps accumulate into D.
  [ -f "$here/mma_repeats.ptx" ] && check "run_mma_repeats.py" \
    with_tirx python3 "$here/run_mma_repeats.py" "$here/mma_repeats.ptx"
  # TMA copies (issue 19): every rank, boxes inside and overhanging the
  # tensor, the launcher's tensor maps, against a host model bit for bit.
  check "run_tma.py" with_tirx python3 "$here/run_tma.py"
  check "run_tma_sizes.py" with_tirx python3 "$here/run_tma_sizes.py"
  # The TMA reduction (typed tensor maps) and tensor prefetch, bit for bit.
  check "run_tma_reduce.py" with_tirx python3 "$here/run_tma_reduce.py"
  # Masked regions: tiles overhanging the tensor's end, outputs inside
  # sentinel-guarded buffers, and a skipped load keeping its registers.
  check "run_masked.py" with_tirx python3 "$here/run_masked.py"
  # Thread-block clusters: barrier.cluster and TMA multicast into every CTA
  # of a cluster of 2, 4 and 8.
  check "run_cluster.py" with_tirx python3 "$here/run_cluster.py"
  # Kernels the race proof proves through mbarrier rings, TMA and wgmma
  # (docs/races.md), against host references; the sanitizer passes below
  # run them under racecheck and synccheck.
  check "run_race_proof.py" with_tirx python3 "$here/run_race_proof.py"
  # The reduction helpers (cta_reduce, warp_reduce, group_reduce,
  # group_exchange): every op x dtype x width/group against numpy.
  check "run_reductions.py" with_tirx python3 "$here/run_reductions.py"
  # 16-bit ewise results packed two to a word (cvt.rn.bf16x2.f32 /
  # cvt.rn.f16x2.f32) against 16-bit stores and numpy, bit for bit.
  check "run_ewise_pack.py" with_tirx python3 "$here/run_ewise_pack.py"
  # The launch path with PyTorch: as_torch_op under torch.compile and CUDA
  # graphs, DLPack-only objects, streams, the tensors' device.
  check "run_torch.py" with_tirx python3 "$here/run_torch.py" "$here/examples/python"
  # Two GPUs (issue #20): kernels on the tensors' device (cuda:1 while cuda:0
  # is current, its current stream), mixed devices refused, one kernel
  # alternating between devices, a 2-rank NCCL job sharing the disk compile
  # cache, graph capture on cuda:1. With fewer than 2 GPUs every check is
  # skipped and it exits 77: counted as skipped.
  check "run_multi_gpu.py" with_tirx python3 "$here/run_multi_gpu.py" "$here/examples/python"
fi
# The wheel: pip install --no-deps --target into a clean folder, then the
# seed's example with only that folder on PYTHONPATH (no TIRX_LIBRARY).
if [ -d "$here/wheel" ]; then
  python3 "$here/unpack.py" "$here/wheel"
  wheel_example() {
    rm -rf /tmp/tirx-wheel
    python3 -m pip install --no-deps --no-index --target /tmp/tirx-wheel "$here"/wheel/tirx-*.whl \
      > "$here/wheel/pip.log" 2>&1 || { cat "$here/wheel/pip.log"; return 1; }
    (cd / && env -u TIRX_LIBRARY PYTHONPATH=/tmp/tirx-wheel \
      python3 "$here/examples/python/affine_relu.py")
  }
  check "wheel: pip install --target /tmp/tirx-wheel $(cd "$here/wheel" && ls tirx-*.whl), examples/python/affine_relu.py" wheel_example
fi

else
  skip "the checks: TIRX_GPU_PART=sanitizers runs the compute-sanitizer passes only"
fi  # end of the checks (TIRX_GPU_PART)

# compute-sanitizer over the examples: each tool must report 0 errors (its
# summary line is printed) and the program must still pass. racecheck's
# summary is "RACECHECK SUMMARY: ... (N errors, ...)", the others' "ERROR
# SUMMARY: N errors" (sanitizer_summary.py reads both).
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
sanitize() {  # sanitize TOOL NAME COMMAND...
  local tool=$1 name=$2; shift 2
  local log
  log=$here/sanitizer-$tool-$(printf '%s' "$name" | tr -c 'A-Za-z0-9_.-' _).log
  local rc=0 ok=1 summary
  "$sanitizer" --tool "$tool" --error-exitcode 86 "$@" > "$log" 2>&1 || rc=$?
  summary=$(python3 "$here/sanitizer_summary.py" "$log") || ok=0
  if [ "$rc" -eq 86 ]; then
    ok=0; summary="$summary (exit status 86: the tool found errors)"
  elif [ "$rc" -ne 0 ]; then
    ok=0; summary="$summary (exit status $rc: the program failed)"
  fi
  if [ "$ok" -eq 1 ]; then
    pass "sanitizer $tool $name: $summary"
  else
    fail "sanitizer $tool $name: $summary (log: $log)"; tail -40 "$log"
  fi
}
if [ "$part" = checks ]; then
  skip "compute-sanitizer passes: TIRX_GPU_PART=checks runs the checks only"
elif [ ! -x "$sanitizer" ]; then
  fail "compute-sanitizer not found (looked on PATH and in /usr/local/cuda/bin): no sanitizer pass"
else
  echo "sanitizer: $("$sanitizer" --version | tail -1)"
  for tool in memcheck racecheck synccheck initcheck; do
    if [ -d "$here/tests" ]; then
      for test in "$here"/tests/*.llvm.mlir; do
        name=$(basename "$test" .llvm.mlir)
        sanitize $tool "gpu/$name.mlir" "$here/bin/tirx-runner" "$test" \
          --e main --entry-point-result=void
      done
      sanitize $tool run-affine-relu "$here/bin/run-affine-relu" "$here/examples/affine_relu.mlir"
    fi
    if [ -d "$here/python/tirx" ]; then
      for example in "$here"/examples/python/*.py; do
        sanitize $tool "examples/python/$(basename "$example")" \
          env PYTHONPATH="$here/python" TIRX_LIBRARY="$here/lib" \
          TIRX_EXAMPLE_MAX_N=1048579 python3 "$example"
      done
      sanitize $tool run_masked.py env PYTHONPATH="$here/python" TIRX_LIBRARY="$here/lib" \
        python3 "$here/run_masked.py"
    fi
  done
fi

# --- The wgmma suite under compute-sanitizer: memcheck over one kernel of
# each A source and the largest N.
if [ "$part" != checks ] && [ -x "$sanitizer" ] && [ -d "$here/wgmma" ]; then
  for kernel in wgmma_n256_bf16_smem_k_sd1 wgmma_n256_bf16_reg_k_sd1; do
    sanitize memcheck "wgmma/run.py $kernel" python3 "$here/wgmma/run.py" "$here/wgmma" \
      --only=$kernel --exit-zero
  done
fi
# --- The collectives suite under compute-sanitizer: one launch of one
# kernel per form group (run.py --quick); synccheck for the .sync
# collectives and barriers, racecheck for the named barriers' shared memory.
if [ "$part" != checks ] && [ -x "$sanitizer" ] && [ -d "$here/collectives" ]; then
  for tool in memcheck synccheck racecheck; do
    sanitize $tool collectives/run.py python3 "$here/collectives/run.py" \
      "$here/collectives" --quick --exit-zero
  done
fi
# --- end of the collectives suite ------------------------------------------

# --- The matrix suite under compute-sanitizer: memcheck over one launch of
# one mma kernel (scope cta, 4 warps x (2, 2) repeats: every operand's words
# through the per-lane views); memcheck, racecheck and synccheck over every
# data set of one ldmatrix, one stmatrix and one cp.async kernel (4 warps,
# shared memory written and read by other threads across barriers; two
# cp.async groups in flight, zero fill).
if [ "$part" != checks ] && [ -x "$sanitizer" ] && [ -d "$here/matrix" ]; then
  sanitize memcheck matrix/run.py python3 "$here/matrix/run.py" "$here/matrix" \
    --quick --only=m16n8k16_f32_bf16_cta_2x2 --exit-zero
  for kernel in ldmatrix_x4_trans_cta_2x2 stmatrix_x4_trans_cta_2x2 \
                cp_async_cg_16_L2_128B_zfill_cta_2groups; do
    for tool in memcheck racecheck synccheck; do
      sanitize $tool "matrix/run.py $kernel" python3 "$here/matrix/run.py" "$here/matrix" \
        --only=$kernel --exit-zero
    done
  done
fi
# --- end of the matrix suite -----------------------------------------------

# --- The sync suite under compute-sanitizer: memcheck and synccheck over
# the mbarrier and elect.sync cases. Not the warpgroups case: its empty
# wgmma group (wgmma.commit_group with no wgmma) is assembled by ptxas as a
# dummy HGMMA whose descriptor reads 2048 bytes at shared address 0, which
# memcheck reports in a kernel without shared memory (seen on the H200; the
# case itself passes). Not racecheck: whether it tracks the mbarrier
# protocol is unverified; run it by hand before adding it.
if [ "$part" != checks ] && [ -x "$sanitizer" ] && [ -d "$here/sync" ]; then
  for tool in memcheck synccheck; do
    for case in mbarrier_phases elect; do
      sanitize $tool "sync/run.py $case" timeout 600 python3 "$here/sync/run.py" \
        "$here/sync" --only=$case --exit-zero
    done
  done
fi
# --- TMA copies under compute-sanitizer (memcheck).
if [ "$part" != checks ] && [ -x "$sanitizer" ] && [ -d "$here/python/tirx" ]; then
  sanitize memcheck run_tma.py env PYTHONPATH="$here/python" TIRX_LIBRARY="$here/lib" \
    python3 "$here/run_tma.py"
  sanitize memcheck run_cluster.py env PYTHONPATH="$here/python" TIRX_LIBRARY="$here/lib" \
    python3 "$here/run_cluster.py"
  sanitize memcheck run_tma_reduce.py env PYTHONPATH="$here/python" TIRX_LIBRARY="$here/lib" \
    python3 "$here/run_tma_reduce.py"
  # What the race proof proves, the sanitizers must not contradict.
  for tool in memcheck racecheck synccheck; do
    sanitize $tool run_race_proof.py env PYTHONPATH="$here/python" TIRX_LIBRARY="$here/lib" \
      python3 "$here/run_race_proof.py"
  done
fi
# --- end of the sync suite -------------------------------------------------

tally_summary
