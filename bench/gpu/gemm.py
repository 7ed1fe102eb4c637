#!/usr/bin/env python3
"""bf16 GEMM on a GPU (issue 18): C = A @ B, A (M, K) and B (K, N) row-major
bfloat16, f32 accumulation, C bfloat16. TirX's examples/python/gemm.py
(cp.async pipeline, ldmatrix, mma.sync m16n8k16) against torch.matmul
(cuBLAS) and Triton's tiled matmul (the tutorial's algorithm: grouped
program order, tl.dot, autotuned over its configurations), in one process,
timed as stream.py times (CUDA events, median of 20 after 5 warm-ups, each
run queued behind a sleep kernel). TFLOP/s = 2 M N K / time.

Shapes: 4096^3 and 8192^3 (the issue's) and (M, N, K) = (8192, 11008,
4096) (LLaMA-7B's MLP up-projection over 8192 tokens). TirX variants,
each a row named by (BM x BN x BK, warps M x N, stages): the four below,
chosen on 8192^3 in earlier runs among 14 tried (bench/RESULTS.md says
which); none is chosen from this run. Triton autotunes over its
configurations (the same chance: its best is reported). A variant that
fails to compile or launch is reported (which, and why: FAIL: and its
traceback, and a line under its shape's table), the others are still
measured, and the exit status is 1.

Every implementation first runs into an output poisoned with NaN and is
checked against float64: |C - A@B| <= 2^-7 |A@B| + 2^-17 (|A|@|B|)
(examples/python/gemm.py). Usage: gemm.py EXAMPLES_DIR [RESULTS.md]"""
import sys

import torch

from gemm_report import (describe_device, first_run, gemm_inputs, measure, publish,
                         shape_table)
from triton_matmul import triton_matmul_factory

sys.path.insert(0, sys.argv[1])
import gemm as tirx_gemm  # noqa: E402

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (8192, 11008, 4096)]
VARIANTS = [
    dict(BM=128, BN=256, BK=32, WARPS_M=2, WARPS_N=4, STAGES=4),
    dict(BM=256, BN=128, BK=32, WARPS_M=4, WARPS_N=2, STAGES=4),
    dict(BM=128, BN=256, BK=64, WARPS_M=2, WARPS_N=4, STAGES=3),
    dict(BM=128, BN=128, BK=32, WARPS_M=2, WARPS_N=2, STAGES=4),
]


def variant_name(v):
    return "TirX %dx%dx%d, %dx%d warps, %d stages" % (
        v["BM"], v["BN"], v["BK"], v["WARPS_M"], v["WARPS_N"], v["STAGES"])


def main(results=None):
    triton_impl, triton_version = triton_matmul_factory()
    describe_device(triton_version)
    lines, failures = [], []
    for M, N, K in SHAPES:
        a, b, c, expected, tflop = gemm_inputs(M, N, K, tirx_gemm.reference)
        entries = [("torch.matmul (cuBLAS)", lambda: torch.matmul(a, b, out=c))]
        if triton_impl:
            triton_run = triton_impl[0]
            entries.append(("Triton %s" % triton_version, lambda: triton_run(a, b, c)))
        not_run = []
        for variant in VARIANTS:
            label = variant_name(variant)

            def run(variant=variant):
                tirx_gemm.gemm(a, b, c, **variant)
                return c
            why = first_run(label, run, failures)
            if why:
                not_run.append(why)
            else:
                entries.append((label, run))
        measured = measure(entries, c, lambda out: tirx_gemm.check(a, b, out, expected),
                           failures, tflop, triton_impl and (lambda: triton_impl[1](M, N, K)))
        triton_ms = measured[1][1] if triton_impl else None
        lines += shape_table("bf16 GEMM %d x %d x %d (M x N x K)" % (M, N, K), measured,
                             tflop, triton_ms)
        lines += ["Not measured: " + why for why in not_run] + ([""] if not_run else [])
    publish(lines, results)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[2] if len(sys.argv) > 2 else None))
