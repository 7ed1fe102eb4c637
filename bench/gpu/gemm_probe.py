#!/usr/bin/env python3
"""TirX's mma.sync GEMM beside Triton's at the same tile (issue 18): for
each TirX variant, the driver's resident CTAs per SM
(cuOccupancyMaxActiveBlocksPerMultiprocessor) and its time with the default
shared-memory carveout and with carveout 100 (cuFuncSetAttribute
PREFERRED_SHARED_MEMORY_CARVEOUT); Triton's kernel (triton_matmul.py) at
fixed configurations with DISABLE_MMA_V3=1, so on mma.sync, its registers
and shared bytes, and its PTX and cubin written to OUT_DIR for reading.
Usage: gemm_probe.py EXAMPLES_DIR OUT_DIR"""
import ctypes
import os
import sys

os.environ.setdefault("DISABLE_MMA_V3", "1")
import torch  # noqa: E402

from gemm_report import checked, cublas_ms, gemm_inputs  # noqa: E402
from stream import timed  # noqa: E402
from triton_matmul import instruction_of, triton_matmul_fixed  # noqa: E402

sys.path.insert(0, sys.argv[1])
import gemm as tirx_gemm  # noqa: E402

OUT = sys.argv[2]
cuda = ctypes.CDLL("libcuda.so.1")
CARVEOUT = 9  # CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT
NUM_REGS = 4  # CU_FUNC_ATTRIBUTE_NUM_REGS


def prepared_launch(config, M, N, K):
    """The TirX kernel's prepared launch on the current device (its
    CUfunction and dynamic shared bytes), after one gemm() call."""
    launcher = tirx_gemm.compiled(M, N, K, **config)._launcher
    return launcher._prepared[torch.cuda.current_device()]


def occupancy(function, threads, smem):
    blocks, regs = ctypes.c_int(), ctypes.c_int()
    assert cuda.cuOccupancyMaxActiveBlocksPerMultiprocessor(
        ctypes.byref(blocks), ctypes.c_void_p(function), threads, ctypes.c_size_t(smem)) == 0
    cuda.cuFuncGetAttribute(ctypes.byref(regs), NUM_REGS, ctypes.c_void_p(function))
    return blocks.value, regs.value


def main():
    variants = [dict(BM=128, BN=128, BK=32, WARPS_M=2, WARPS_N=2, STAGES=4),
                dict(BM=128, BN=256, BK=32, WARPS_M=2, WARPS_N=4, STAGES=4)]
    failures = []
    for M, N, K in [(8192, 11008, 4096), (8192, 8192, 8192)]:
        a, b, c, expected, tflop = gemm_inputs(M, N, K, tirx_gemm.reference)
        error_of = lambda out: tirx_gemm.check(a, b, out, expected)  # noqa: E731
        cublas_ms(a, b, c, tflop)
        for bm, bn, bk, warps, stages in [(128, 128, 32, 4, 4), (128, 128, 64, 4, 4)]:
            run, launched = triton_matmul_fixed(bm, bn, bk, warps, stages)
            error = checked("Triton", lambda: run(a, b, c), c, error_of, failures)
            ms = timed(lambda: run(a, b, c))
            kernel = launched["kernel"]
            print("  Triton %dx%dx%d, %d warps, %d stages: %.0f TFLOP/s, error %.3f, "
                  "%d registers, %d shared bytes, %s" % (
                      bm, bn, bk, warps, stages, tflop / ms * 1e3, error, kernel.n_regs,
                      kernel.metadata.shared, instruction_of(kernel)))
            name = os.path.join(OUT, "triton_%dx%dx%d" % (bm, bn, bk))
            with open(name + ".ptx", "w") as out:
                out.write(kernel.asm["ptx"])
            with open(name + ".cubin", "wb") as out:
                out.write(kernel.asm["cubin"])
        for config in variants:
            threads = config["WARPS_M"] * config["WARPS_N"] * 32
            error = checked("TirX", lambda: tirx_gemm.gemm(a, b, c, **config), c, error_of,
                            failures)
            launch = prepared_launch(config, M, N, K)
            blocks, regs = occupancy(launch.function, threads, launch.sharedMemBytes)
            name = "%dx%dx%d" % (config["BM"], config["BN"], config["BK"])
            ms = timed(lambda: tirx_gemm.gemm(a, b, c, **config))
            print("  TirX %s: %.0f TFLOP/s, error %.3f, %d registers, %d shared bytes, "
                  "%d CTAs/SM" % (name, tflop / ms * 1e3, error, regs, launch.sharedMemBytes,
                                  blocks))
            assert cuda.cuFuncSetAttribute(ctypes.c_void_p(launch.function), CARVEOUT, 100) == 0
            ms = timed(lambda: tirx_gemm.gemm(a, b, c, **config))
            blocks, regs = occupancy(launch.function, threads, launch.sharedMemBytes)
            print("  TirX %s, carveout 100: %.0f TFLOP/s, %d CTAs/SM"
                  % (name, tflop / ms * 1e3, blocks))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
