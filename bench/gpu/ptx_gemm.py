#!/usr/bin/env python3
"""Times GEMM kernels given as PTX or cubin files, outside TirX's runtime, so
that the code and the toolchain that assembled it can be compared apart
(issue 18): the same PTX loaded through the driver's JIT or as cubins from
different ptxas builds (TirX's `gemm(A, B, C)` entry, as examples/python/
gemm.py compiles it for the shape). Each kernel runs
into a NaN-poisoned C, is checked against float64 (examples/python/gemm.py's
bound), then timed as stream.py times. Usage:
  ptx_gemm.py EXAMPLES_DIR M N K FILE:BM:BN:THREADS:SHARED_BYTES... With
PTX_GEMM_PROFILE set, each kernel runs once, untimed, for a profiler."""
import ctypes
import os
import statistics
import sys

import torch

from gemm_report import checked, cublas_ms, gemm_inputs
from stream import timed

sys.path.insert(0, sys.argv[1])
import gemm as tirx_gemm  # noqa: E402

cuda = ctypes.CDLL("libcuda.so.1")
MAX_DYNAMIC_SHARED = 8  # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
NUM_REGS = 4


def check(result, what):
    if result != 0:
        raise RuntimeError("%s: CUresult %d" % (what, result))


def load(path, name):
    data = open(path, "rb").read()
    if path.endswith(".ptx"):
        data += b"\0"
    module, function = ctypes.c_void_p(), ctypes.c_void_p()
    check(cuda.cuModuleLoadData(ctypes.byref(module), ctypes.c_char_p(data)), "load " + path)
    check(cuda.cuModuleGetFunction(ctypes.byref(function), module, name.encode()), name)
    return function


def main():
    M, N, K = (int(x) for x in sys.argv[2:5])
    a, b, c, expected, tflop = gemm_inputs(M, N, K, tirx_gemm.reference)
    cublas_ms(a, b, c, tflop)
    failures = []
    for entry in sys.argv[5:]:
        path, bm, bn, threads, smem = entry.split(":")
        bm, bn, threads, smem = int(bm), int(bn), int(threads), int(smem)
        function = load(path, "gemm")
        if smem > 48 * 1024:
            check(cuda.cuFuncSetAttribute(function, MAX_DYNAMIC_SHARED, smem), "smem")
        regs = ctypes.c_int()
        cuda.cuFuncGetAttribute(ctypes.byref(regs), NUM_REGS, function)
        values = [ctypes.c_void_p(t.data_ptr()) for t in (a, b, c)]
        args = (ctypes.c_void_p * len(values))(
            *[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in values])
        grid = (M // bm) * (N // bn)

        def run():
            check(cuda.cuLaunchKernel(function, grid, 1, 1, threads, 1, 1, smem,
                                      ctypes.c_void_p(torch.cuda.current_stream().cuda_stream),
                                      args, None), "launch")
            return c
        error = checked(path, run, c, lambda out: tirx_gemm.check(a, b, out, expected),
                        failures)
        if os.environ.get("PTX_GEMM_PROFILE"):  # one launch each, for a profiler
            print("%s: regs %d, error %.3f" % (path, regs.value, error))
            continue
        times = [timed(run) for _ in range(3)]
        ms = statistics.median(times)
        print("%-40s %4.0f TFLOP/s (%.0f-%.0f), regs %d, error %.3f%s" % (
            path.split("/")[-1], tflop / ms * 1e3, tflop / max(times) * 1e3,
            tflop / min(times) * 1e3, regs.value, error, "" if error <= 1 else "  FAIL"),
            flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
