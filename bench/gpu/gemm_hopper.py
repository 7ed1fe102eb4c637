#!/usr/bin/env python3
"""bf16 GEMM on Hopper (issue 19): C = A @ W^T, A (M, K) and W (N, K)
row-major bfloat16 (W as torch.nn.Linear keeps its weight), f32
accumulation, C bfloat16. TirX's examples/python/gemm_hopper.py (TMA,
mbarrier pipeline, warp-specialized wgmma) against torch.matmul(A, W.T)
(cuBLAS) and Triton's tiled matmul on the same operands (triton_matmul.py,
autotuned), in one process, timed as stream.py times (CUDA events, median
of 20 after 5 warm-ups, each run queued behind a sleep kernel). TFLOP/s =
2 M N K / time.

Shapes: 4096^3 and 8192^3 (the issue's) and (M, N, K) = (8192, 11008,
4096) (LLaMA-7B's MLP up-projection over 8192 tokens). TirX variants are
rows named by their parameters; none is chosen from this run.

Every implementation first runs into an output poisoned with NaN and is
checked against float64: |C - A W^T| <= 2^-7 |A W^T| + 2^-17 (|A| |W|^T)
(examples/python/gemm.py's bound). Before timing, small shapes (K steps
fewer than, equal to and not a multiple of the stages) are checked the same
way. A variant that does not fit a shape (the example's make_kernel
asserts its blocks divide it) is printed as skipped; one that fails to
compile or launch is a failure (FAIL: with its traceback, a line under the
shape's table, exit status 1), the others still measured.
Usage: gemm_hopper.py EXAMPLES_DIR [RESULTS.md] [--quick]
[--shapes=M,N,K;...] [--variants=INDEX,...] [--profile]

--profile (for ncu --profile-from-start off): cuBLAS and each chosen TirX
variant run once at the first shape between cudaProfilerStart/Stop, after
warm-up runs, and the names of the kernels each launched (torch.profiler)
are printed: e.g. ncu --profile-from-start off --clock-control none
--set full python3 gemm_hopper.py EXAMPLES_DIR --profile --variants=3"""
import sys

import torch

from gemm_report import checked, describe_device, first_run, measure, publish, shape_table
from triton_matmul import triton_matmul_factory

sys.path.insert(0, sys.argv[1])
import gemm_hopper as tirx_gemm  # noqa: E402

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (8192, 11008, 4096)]
SMALL = [(128, 256, 64), (256, 512, 192), (384, 768, 320), (1024, 1024, 4096)]
VARIANTS = [
    dict(persistent=False, DEFERRED=0, WARP_RELEASE=False, STORE="global"),
    dict(DEFERRED=0, WARP_RELEASE=False, STORE="global"),
    dict(DEFERRED=32, WARP_RELEASE=False, STORE="global"),
    dict(DEFERRED=32, STORE="global"),
    dict(DEFERRED=32, GROUP_M=16, STORE="global"),
    dict(DEFERRED=32, STORE="tma"),
    dict(DEFERRED=32, STORE="tma", GROUP_M=16),
    dict(DEFERRED=32, STORE="tma", GROUP_M=4),
    dict(DEFERRED=32, STORE="tma", dynamic=True),
]


def variant_name(v):
    return "TirX " + ", ".join("%s=%s" % (k, v[k]) for k in sorted(v))


def option(name):
    for arg in sys.argv[2:]:
        if arg.startswith("--%s=" % name):
            return arg.split("=", 1)[1]
    return None


def profile(shape, variants):
    """Each implementation once under the CUDA profiler (ncu's range), and
    the names of the kernels it launches."""
    M, N, K = shape
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(N, K, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    entries = [("cuBLAS", lambda: torch.matmul(a, w.T, out=c))]
    entries += [(variant_name(v), lambda v=v: tirx_gemm.gemm(a, w, c, **v)) for v in variants]
    for label, run in entries:
        for _ in range(3):
            run()
        torch.cuda.synchronize()
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            run()
            torch.cuda.synchronize()
        names = sorted({e.name for e in prof.events() if e.device_type.name == "CUDA"})
        print("%s at %dx%dx%d launches: %s" % (label, M, N, K, "; ".join(names)), flush=True)
        torch.cuda.cudart().cudaProfilerStart()
        run()
        torch.cuda.synchronize()
        torch.cuda.cudart().cudaProfilerStop()
    return 0


def main(results=None):
    triton_impl, triton_version = triton_matmul_factory()
    describe_device(triton_version)
    variants = VARIANTS
    if option("variants"):
        variants = [VARIANTS[int(i)] for i in option("variants").split(",")]
    shapes = SHAPES
    if option("shapes"):
        shapes = [tuple(int(x) for x in s.split(",")) for s in option("shapes").split(";")]
    if "--profile" in sys.argv:
        return profile(shapes[0], variants)
    failures = []
    for variant in variants:
        for M, N, K in SMALL:
            torch.manual_seed(1)
            a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
            w = torch.randn(N, K, device="cuda", dtype=torch.bfloat16)
            c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
            label = "%s at %dx%dx%d" % (variant_name(variant), M, N, K)
            run = lambda: tirx_gemm.gemm(a, w, c, **variant)
            if first_run(label, run, failures):
                continue  # does not fit (printed) or failed (printed, counted)
            ratio = checked(label, run, c, lambda out: tirx_gemm.check(a, w, out), failures)
            print("%s: %s, error %.3g of the bound" % (label, "OK" if ratio <= 1 else "FAIL",
                                                       ratio))
    if "--quick" in sys.argv:
        shapes = shapes[:2]
    lines = []
    for M, N, K in shapes:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        w = torch.randn(N, K, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        tflop = 2 * M * N * K / 1e12
        expected = tirx_gemm.reference(a, w)
        entries = [("torch.matmul(A, W.T) (cuBLAS)", lambda: torch.matmul(a, w.T, out=c))]
        if triton_impl:
            triton_run = triton_impl[0]
            entries.append(("Triton %s" % triton_version, lambda: triton_run(a, w.T, c)))
        not_run = []
        for variant in variants:
            label = variant_name(variant)

            def run(variant=variant):
                tirx_gemm.gemm(a, w, c, **variant)
                return c
            why = first_run(label, run, failures)
            if why:
                not_run.append(why)
            else:
                entries.append((label, run))
        measured = measure(entries, c, lambda out: tirx_gemm.check(a, w, out, expected),
                           failures, tflop, triton_impl and (lambda: triton_impl[1](M, N, K)))
        triton_ms = measured[1][1] if triton_impl else None
        lines += shape_table("bf16 GEMM %d x %d x %d (M x N x K), C = A W^T" % (M, N, K),
                             measured, tflop, triton_ms)
        lines += ["Not measured: " + why for why in not_run] + ([""] if not_run else [])
    publish(lines, results)
    return 1 if failures else 0


if __name__ == "__main__":
    positional = [a for a in sys.argv[2:] if not a.startswith("--")]
    sys.exit(main(positional[0] if positional else None))
