#!/usr/bin/env python3
"""Runs the PTX of the TirX examples on a GPU and checks the results.

Usage: run_examples.py PTX_DIR
PTX_DIR holds affine_relu.ptx, to_float16.ptx, silu.ptx and
affine_relu_large.ptx as produced by `tirx-opt --tirx-to-ptx` (see
test/gpu/run.sh). Needs cupy and numpy; no MLIR. Exits non-zero on any
mismatch.
"""
import os
import sys

import cupy as cp
import numpy as np

failures = 0


def kernel(ptx_dir, name, entry=None):
    module = cp.RawModule(path=os.path.join(ptx_dir, name + ".ptx"))
    return module.get_function(entry or name)


def report(name, ok, detail):
    global failures
    failures += 0 if ok else 1
    print("%s: example %-18s %s" % ("PASS" if ok else "FAIL", name, detail))


def ulp_distance(x, y):
    """Distance in units of the last place between float32 arrays."""
    xi = x.view(np.int32).astype(np.int64)
    yi = y.view(np.int32).astype(np.int64)
    xi = np.where(xi < 0, -(xi & 0x7FFFFFFF), xi)
    yi = np.where(yi < 0, -(yi & 0x7FFFFFFF), yi)
    return np.abs(xi - yi)


def main(ptx_dir):
    device = cp.cuda.Device()
    props = cp.cuda.runtime.getDeviceProperties(device.id)
    print("device: %s (sm_%d%d), driver %d" % (
        props["name"].decode(), props["major"], props["minor"],
        cp.cuda.runtime.driverGetVersion()))

    # The seed's input: 256 floats in [-4, 4].
    a = cp.linspace(-4, 4, 256, dtype=cp.float32).reshape(2, 32, 4)

    # affine-ReLU: B = max(2A + 1, 0). 2A is exact, so one rounding either way.
    b = cp.empty_like(a)
    kernel(ptx_dir, "affine_relu")((1,), (64,), (a, b))
    expected = cp.maximum(a * 2 + 1, 0)
    report("affine_relu", bool(cp.array_equal(b, expected)),
           "bit-exact vs cupy, 256 floats")

    # to_float16: round-to-nearest-even conversion.
    h = cp.empty(a.shape, dtype=cp.float16)
    kernel(ptx_dir, "to_float16")((1,), (64,), (a, h))
    report("to_float16", bool(cp.array_equal(h.view(cp.uint16),
                                            a.astype(cp.float16).view(cp.uint16))),
           "bit-exact vs astype(float16)")

    # SiLU: A / (1 + exp(-A)), compared in ulp against a float64 reference.
    s = cp.empty_like(a)
    kernel(ptx_dir, "silu", "silu_kernel")((1,), (64,), (a, s))
    a64 = cp.asnumpy(a).astype(np.float64)
    reference = (a64 / (1.0 + np.exp(-a64))).astype(np.float32)
    ulps = int(ulp_distance(cp.asnumpy(s), reference).max())
    report("silu", ulps <= 4, "max %d ulp vs float64 reference" % ulps)

    # Multi-CTA affine-ReLU over 2^26 floats.
    n = 1 << 26
    big = cp.random.standard_normal(n, dtype=cp.float32)
    out = cp.empty_like(big)
    large = kernel(ptx_dir, "affine_relu_large")
    large((16384,), (256,), (big, out))
    ok = bool(cp.array_equal(out, cp.maximum(big * 2 + 1, 0)))
    # Bandwidth: median of 20 timed launches after warm-up.
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(25):
        start.record()
        large((16384,), (256,), (big, out))
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    ms = float(np.median(times[5:]))
    gbps = 2 * n * 4 / (ms * 1e-3) / 1e9
    report("affine_relu_large", ok,
           "bit-exact, 2^26 floats, %.3f ms median = %.0f GB/s" % (ms, gbps))

    print("%d passed, %d failed" % (4 - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
