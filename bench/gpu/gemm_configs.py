#!/usr/bin/env python3
"""Times configurations of examples/python/gemm.py on one shape beside
cuBLAS (issue 18): a sweep for choosing the benchmark's variants, each
output checked against float64 first, timed as stream.py times. Usage:
  gemm_configs.py EXAMPLES_DIR M N K CONFIG...
CONFIG is BMxBNxBK/WARPS_MxWARPS_N/STAGES[/GROUP_M][:EPILOGUE], e.g.
128x256x32/2x4/4 or 128x256x32/2x4/4:global (make_kernel's EPILOGUE)."""
import sys

from gemm_report import checked, cublas_ms, gemm_inputs
from stream import timed

sys.path.insert(0, sys.argv[1])
import gemm as tirx_gemm  # noqa: E402


def parse(text):
    text, _, epilogue = text.partition(":")
    parts = text.split("/")
    bm, bn, bk = (int(x) for x in parts[0].split("x"))
    wm, wn = (int(x) for x in parts[1].split("x"))
    config = dict(BM=bm, BN=bn, BK=bk, WARPS_M=wm, WARPS_N=wn, STAGES=int(parts[2]))
    if len(parts) > 3:
        config["GROUP_M"] = int(parts[3])
    if epilogue:
        config["EPILOGUE"] = epilogue
    return config


def main():
    M, N, K = (int(x) for x in sys.argv[2:5])
    a, b, c, expected, tflop = gemm_inputs(M, N, K, tirx_gemm.reference)
    cublas = cublas_ms(a, b, c, tflop)
    failures = []
    for text in sys.argv[5:]:
        config = parse(text)

        def run():
            return tirx_gemm.gemm(a, b, c, **config)
        error = checked(text, run, c, lambda out: tirx_gemm.check(a, b, out, expected),
                        failures)
        ms = timed(run)
        print("  %-20s %4.0f TFLOP/s, %.1f %% of cuBLAS, error %.3f%s" % (
            text, tflop / ms * 1e3, 100 * cublas / ms, error, "" if error <= 1 else " FAIL"),
            flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
