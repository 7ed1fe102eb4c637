#!/usr/bin/env python3
"""Cold compile plus first launch (issue 34): the time from a kernel's
source to its first result, in a new process with empty caches, for TirX
against Triton's cold compile and first launch of the same kernel class:

- the Hopper GEMM 4096^3 (bf16, examples/python/gemm_hopper.py) against
  Triton's matmul tutorial kernel at one configuration (128 x 256 x 64,
  8 warps, 3 stages: no autotuning, so one compile);
- the row softmax of 8192 x 16384 float32 (examples/python/softmax.py)
  against Triton's fused-softmax tutorial kernel (num_warps=16).

Each row is its own process (python3 -c), timed inside it: the CUDA
context and the inputs are made first, then `perf_counter` runs from
`tirx.compile(...)` (or Triton's first call) to `torch.cuda.synchronize()`
after the first launch. Every cache is cold in every process: TirX runs
with TIRX_CACHE=0, Triton with a new TRITON_CACHE_DIR, both with the
driver's JIT cache off (CUDA_CACHE_DISABLE=1). TirX is timed twice: as
shipped (the cubin of its one ptxas run is loaded: no JIT), and with
`.cubin` removed before the first call, which makes the driver JIT-compile
the PTX (the second compilation the cubin saves). Median of RUNS (5 unless
set) processes per row, the rows' processes interleaved; the first result
of each is checked against torch.
Usage: first_launch.py EXAMPLES_DIR [RESULTS.md]"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

from rowwise import finish

RUNS = int(os.environ.get("RUNS", "5"))
HERE = os.path.dirname(os.path.abspath(__file__))

COMMON = r"""
import json, os, sys, time
sys.path[:0] = [%(examples)r, %(here)r]
import torch
torch.cuda.init()
torch.zeros(1, device="cuda")
"""

TIRX_GEMM = COMMON + r"""
import tirx, gemm_hopper
torch.manual_seed(0)
a = torch.randn(4096, 4096, device="cuda").to(torch.bfloat16)
w = torch.randn(4096, 4096, device="cuda").to(torch.bfloat16)
c = torch.empty(4096, 4096, device="cuda", dtype=torch.bfloat16)
sms = torch.cuda.get_device_properties(0).multi_processor_count
torch.cuda.synchronize()
start = time.perf_counter()
k = tirx.compile(gemm_hopper.make_kernel(4096, 4096, 4096, num_sms=sms), target=gemm_hopper.TARGET)
if %(jit)s:
    k.cubin = None
k(a, w, c)
torch.cuda.synchronize()
elapsed = time.perf_counter() - start
error = (c.float() - (a.float() @ w.float().T)).abs().max().item()
print(json.dumps([elapsed, error < 1.0, k.cubin is not None]))
"""

TRITON_GEMM = COMMON + r"""
import triton, triton_matmul
torch.manual_seed(0)
a = torch.randn(4096, 4096, device="cuda").to(torch.bfloat16)
b = torch.randn(4096, 4096, device="cuda").to(torch.bfloat16)
c = torch.empty(4096, 4096, device="cuda", dtype=torch.bfloat16)
run, _ = triton_matmul.triton_matmul_fixed(128, 256, 64, 8, 3)
torch.cuda.synchronize()
start = time.perf_counter()
run(a, b, c)
torch.cuda.synchronize()
elapsed = time.perf_counter() - start
error = (c.float() - (a.float() @ b.float())).abs().max().item()
print(json.dumps([elapsed, error < 1.0, None]))
"""

TIRX_SOFTMAX = COMMON + r"""
import tirx, softmax
torch.manual_seed(0)
x = torch.randn(8192, 16384, device="cuda")
y = torch.empty_like(x)
torch.cuda.synchronize()
start = time.perf_counter()
k = tirx.compile(softmax.kernel_for(*softmax.config_for(8192, 16384)), target="cuda")
if %(jit)s:
    k.cubin = None
k(x, y)
torch.cuda.synchronize()
elapsed = time.perf_counter() - start
error = (y - torch.softmax(x, dim=-1)).abs().max().item()
print(json.dumps([elapsed, error < 1e-5, k.cubin is not None]))
"""

TRITON_SOFTMAX = COMMON + r"""
from triton_softmax import triton_softmax_factory
run, _ = triton_softmax_factory()
torch.manual_seed(0)
x = torch.randn(8192, 16384, device="cuda")
y = torch.empty_like(x)
torch.cuda.synchronize()
start = time.perf_counter()
run(x, y, 16)
torch.cuda.synchronize()
elapsed = time.perf_counter() - start
error = (y - torch.softmax(x, dim=-1)).abs().max().item()
print(json.dumps([elapsed, error < 1e-5, None]))
"""


def run_once(script):
    """(seconds, right) of one new process running `script`, or None (its
    output printed) when it failed. Every cache is cold: TirX's (TIRX_CACHE=0),
    Triton's (a new TRITON_CACHE_DIR) and the driver's JIT cache
    (CUDA_CACHE_DISABLE=1), so that the JIT row compiles the PTX each time
    instead of finding the previous process's result."""
    with tempfile.TemporaryDirectory(prefix="first-launch-") as cache:
        env = dict(os.environ, TIRX_CACHE="0", TRITON_CACHE_DIR=cache, CUDA_CACHE_DISABLE="1")
        run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                             env=env)
    if run.returncode != 0:
        print(run.stdout + run.stderr)
        return None
    elapsed, ok, _ = json.loads(run.stdout.strip().splitlines()[-1])
    return elapsed, ok


def measure_interleaved(scripts, runs=RUNS):
    """Per script, (median seconds or None, every first result right): the
    scripts' processes alternate (run 1 of each, then run 2, ...), so that a
    drift of the machine (clocks, page cache) falls on every row alike."""
    times = [[] for _ in scripts]
    right = [True] * len(scripts)
    broken = [False] * len(scripts)
    for _ in range(runs):
        for index, script in enumerate(scripts):
            if broken[index]:
                continue
            result = run_once(script)
            if result is None:
                broken[index], right[index] = True, False
                continue
            times[index].append(result[0])
            right[index] &= result[1]
    return [(None if broken[i] else statistics.median(times[i]), right[i])
            for i in range(len(scripts))]


def main(results=None):
    examples = os.path.abspath(sys.argv[1])
    fields = {"examples": examples, "here": HERE}
    rows = [
        ("Hopper GEMM 4096^3 bf16", "TirX (cubin loaded)", TIRX_GEMM % dict(fields, jit=False)),
        ("Hopper GEMM 4096^3 bf16", "TirX, PTX JIT-compiled by the driver",
         TIRX_GEMM % dict(fields, jit=True)),
        ("Hopper GEMM 4096^3 bf16", "Triton matmul tutorial, 128x256x64, 8 warps, 3 stages",
         TRITON_GEMM % fields),
        ("softmax 8192 x 16384 f32", "TirX (cubin loaded)", TIRX_SOFTMAX % dict(fields, jit=False)),
        ("softmax 8192 x 16384 f32", "TirX, PTX JIT-compiled by the driver",
         TIRX_SOFTMAX % dict(fields, jit=True)),
        ("softmax 8192 x 16384 f32", "Triton fused-softmax tutorial, 16 warps",
         TRITON_SOFTMAX % fields),
    ]
    lines = ["### Cold compile + first launch (new process each, median of %d)" % RUNS, "",
             "| kernel | compiler | source to first result (s) | first result right |",
             "|---|---|---:|:---:|"]
    failed = False
    measured = measure_interleaved([script for _, _, script in rows])
    for (kernel, compiler, _), (seconds, right) in zip(rows, measured):
        failed |= seconds is None or not right
        lines.append("| %s | %s | %s | %s |" % (
            kernel, compiler, "FAILED" if seconds is None else "%.3f" % seconds,
            "yes" if right else "NO"))
    return finish(lines, results, failed)


if __name__ == "__main__":
    sys.exit(main(sys.argv[2] if len(sys.argv) > 2 else None))
