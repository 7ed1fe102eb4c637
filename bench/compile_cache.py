#!/usr/bin/python3
"""The compile cache and threaded compiles, from Python (docs/python.md),
on this machine's CPU (no GPU: target sm_90):

  * cold: tirx.compile of the seed's affine-ReLU with TIRX_CACHE=0 (trace,
    the C API's pipeline, ptxas -v when a toolkit is found), median of N;
  * memory hit: tirx.compile of the same kernel again, median of 1000;
  * disk hit in a new process: N fresh `python3` processes, each timing
    its one tirx.compile call (trace, key, load), median;
  * the C API's per-compile MLIRContext: tirxCompile of the seed's IR with
    an unknown option (the context is made, the dialects the IR names are
    loaded and it is parsed, then it stops; the lowering's own dialects are
    loaded later and not counted), median of N;
  * 16 threads x 3 kernels against the same 48 compiles in one thread
    (TIRX_CACHE=0), wall time.

Usage: TIRX_LIBRARY=build/lib bench/compile_cache.py [--runs N]. Markdown to
stdout. Standard library only.
"""
import argparse
import atexit
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "python"), os.path.join(ROOT, "examples", "python")]
TARGET = {"kind": "cuda", "arch": "sm_90"}

NEW_PROCESS = """
import sys, time
sys.path[:0] = [%r, %r]
import tirx, affine_relu
start = time.perf_counter()
c = tirx.compile(affine_relu.affine_relu, target={"kind": "cuda", "arch": "sm_90"})
print(time.perf_counter() - start, c.cache)
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=21)
    runs = parser.parse_args().runs
    os.environ["TIRX_CACHE_DIR"] = tempfile.mkdtemp(prefix="tirx-bench-cache-")
    atexit.register(shutil.rmtree, os.environ["TIRX_CACHE_DIR"], True)
    import tirx
    from tirx import _capi
    import affine_relu
    import silu
    import to_float16
    kernel = affine_relu.affine_relu

    os.environ["TIRX_CACHE"] = "0"
    cold = []
    for _ in range(runs):
        start = time.perf_counter()
        tirx.compile(kernel, target=TARGET)
        cold.append(time.perf_counter() - start)
    os.environ["TIRX_CACHE"] = "1"
    first = tirx.compile(kernel, target=TARGET)  # fills memory and disk
    hits = []
    for _ in range(1000):
        start = time.perf_counter()
        assert tirx.compile(kernel, target=TARGET) is first
        hits.append(time.perf_counter() - start)
    disk = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", NEW_PROCESS % (
            os.path.join(ROOT, "python"), os.path.join(ROOT, "examples", "python"))],
            capture_output=True, text=True, check=True, env=dict(os.environ)).stdout.split()
        assert out[1] == "disk", out
        disk.append(float(out[0]))
    context = []
    empty = first.source_ir.encode()
    for _ in range(runs):
        start = time.perf_counter()
        result = _capi.lib.tirxCompile(empty, len(empty), b"<bench>", b"no-such-option=1", 0)
        context.append(time.perf_counter() - start)
        _capi.lib.tirxCompileResultDestroy(result)

    os.environ["TIRX_CACHE"] = "0"
    kernels = [affine_relu.affine_relu, silu.affine_relu, to_float16.to_float16]
    start = time.perf_counter()
    for _ in range(16):
        for k in kernels:
            tirx.compile(k, target=TARGET)
    serial = time.perf_counter() - start

    def work():
        for k in kernels:
            tirx.compile(k, target=TARGET)
    threads = [threading.Thread(target=work) for _ in range(16)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    threaded = time.perf_counter() - start

    ms = lambda values: "%.2f ms" % (statistics.median(values) * 1e3)
    print("| what | time |")
    print("|---|---|")
    print("| cold compile (TIRX_CACHE=0), median of %d | %s |" % (runs, ms(cold)))
    print("| memory hit, median of 1000 (first: %.1f µs) | %.1f µs |"
          % (hits[0] * 1e6, statistics.median(hits) * 1e6))
    print("| disk hit in a new process, median of %d (min %.2f, max %.2f ms) | %s |"
          % (runs, min(disk) * 1e3, max(disk) * 1e3, ms(disk)))
    print("| tirxCompile's own MLIRContext + parse of the seed's IR, median of %d | %s |"
          % (runs, ms(context)))
    print("| 48 compiles (16 x 3 kernels), one thread | %.2f s |" % serial)
    print("| the same 48 from 16 threads (%d CPU cores) | %.2f s |"
          % (os.cpu_count(), threaded))


if __name__ == "__main__":
    main()
