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
configurations (the same chance: its best is reported).

Every implementation first runs into an output poisoned with NaN and is
checked against float64: |C - A@B| <= 2^-7 |A@B| + 2^-17 (|A|@|B|)
(examples/python/gemm.py). Usage: gemm.py EXAMPLES_DIR [RESULTS.md]"""
import sys

import torch

from stream import timed

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


def triton_matmul_factory():
    try:
        import triton
        import triton.language as tl
    except ImportError:
        return None, None
    configs = []
    for bm, bn, bk, stages, warps in [(128, 256, 64, 3, 8), (64, 256, 32, 4, 4),
                                      (128, 128, 32, 4, 4), (128, 64, 32, 4, 4),
                                      (64, 128, 32, 4, 4), (128, 32, 32, 4, 4),
                                      (256, 128, 64, 3, 8), (128, 128, 64, 4, 4)]:
        configs.append(triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk,
                                      "GROUP_M": 8}, num_stages=stages, num_warps=warps))

    @triton.autotune(configs=configs, key=["M", "N", "K"])
    @triton.jit
    def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                      stride_bn, stride_cm, stride_cn, BLOCK_M: tl.constexpr,
                      BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
        pid = tl.program_id(0)
        tiles_m = tl.cdiv(M, BLOCK_M)
        tiles_n = tl.cdiv(N, BLOCK_N)
        in_group = GROUP_M * tiles_n
        first_m = (pid // in_group) * GROUP_M
        group_rows = min(tiles_m - first_m, GROUP_M)
        pid_m = first_m + (pid % in_group) % group_rows
        pid_n = (pid % in_group) // group_rows
        rows = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
        cols = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
        ks = tl.arange(0, BLOCK_K)
        a = a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak
        b = b_ptr + ks[:, None] * stride_bk + cols[None, :] * stride_bn
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_K)):
            acc = tl.dot(tl.load(a), tl.load(b), acc)
            a += BLOCK_K * stride_ak
            b += BLOCK_K * stride_bk
        out_rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        out_cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        c = c_ptr + out_rows[:, None] * stride_cm + out_cols[None, :] * stride_cn
        tl.store(c, acc.to(tl.bfloat16), mask=(out_rows[:, None] < M) & (out_cols[None, :] < N))

    def run(a, b, c):
        M, K = a.shape
        N = b.shape[1]
        grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)
        matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                            b.stride(1), c.stride(0), c.stride(1))
        return c

    def best(M, N, K):
        config = matmul_kernel.best_config
        return "%dx%dx%d, %d warps, %d stages" % (
            config.kwargs["BLOCK_M"], config.kwargs["BLOCK_N"], config.kwargs["BLOCK_K"],
            config.num_warps, config.num_stages)
    return (run, best), triton.__version__


def checked(label, run, a, b, c, expected, failures):
    c.fill_(float("nan"))
    out = run()
    torch.cuda.synchronize()
    ratio = tirx_gemm.check(a, b, out, expected)
    if not ratio <= 1:
        print("FAIL: %s: error %.3g of the bf16 bound" % (label, ratio))
        failures.append(label)
    return ratio


def main(results=None):
    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    triton_impl, triton_version = triton_matmul_factory()
    print("device: %s (%d SMs), torch %s, triton %s"
          % (props.name, props.multi_processor_count, torch.__version__, triton_version))
    lines, failures = [], []
    for M, N, K in SHAPES:
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        tflop = 2 * M * N * K / 1e12
        expected = tirx_gemm.reference(a, b)
        entries = [("torch.matmul (cuBLAS)", lambda: torch.matmul(a, b, out=c))]
        if triton_impl:
            triton_run, best = triton_impl
            entries.append(("Triton %s" % triton_version, lambda: triton_run(a, b, c)))
        for variant in VARIANTS:
            label = variant_name(variant)
            try:
                tirx_gemm.gemm(a, b, c, **variant)
            except Exception as error:  # a variant that does not fit this shape
                print("%s: %s" % (label, str(error).splitlines()[0]))
                continue

            def run(variant=variant):
                tirx_gemm.gemm(a, b, c, **variant)
                return c
            entries.append((label, run))
        measured = []
        for label, run in entries:
            ratio = checked(label, run, a, b, c, expected, failures)
            ms = timed(run)
            if label.startswith("Triton"):
                label += " (best: %s)" % best(M, N, K)
            measured.append((label, ms, ratio))
        cublas_ms = measured[0][1]
        triton_ms = measured[1][1] if triton_impl else None
        lines += ["### bf16 GEMM %d x %d x %d (M x N x K)" % (M, N, K), "",
                  "| implementation | ms | TFLOP/s | % of cuBLAS | % of Triton | error / bound |",
                  "|---|---|---|---|---|---|"]
        for label, ms, ratio in measured:
            lines.append("| %s | %.4f | %.0f | %.1f | %s | %.3g |" % (
                label, ms, tflop / ms * 1e3, 100 * cublas_ms / ms,
                "%.1f" % (100 * triton_ms / ms) if triton_ms else "-", ratio))
        lines.append("")
    text = "\n".join(lines)
    print(text)
    if results:
        with open(results, "w") as out:
            out.write(text + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[2] if len(sys.argv) > 2 else None))
