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
after the first launch. TirX runs with TIRX_CACHE=0 and Triton with a new
TRITON_CACHE_DIR per process. TirX is timed twice: as shipped (the cubin
of its one ptxas run is loaded: no JIT), and with `.cubin` removed before
the first call, which makes the driver JIT-compile the PTX (the second
compilation the cubin saves). Median of RUNS (5 unless set) processes per
row; the first result of each is checked against torch.
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


def measure(script, runs=RUNS):
    """The median time of `script` over `runs` new processes, whether every
    first result was right, and what the script says of the cubin."""
    times, right, cubin = [], True, None
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="first-launch-") as cache:
            env = dict(os.environ, TIRX_CACHE="0", TRITON_CACHE_DIR=cache)
            run = subprocess.run([sys.executable, "-c", script], capture_output=True,
                                 text=True, env=env)
        if run.returncode != 0:
            print(run.stdout + run.stderr)
            return None, False, None
        elapsed, ok, cubin = json.loads(run.stdout.strip().splitlines()[-1])
        times.append(elapsed)
        right &= ok
    return statistics.median(times), right, cubin


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
    for kernel, compiler, script in rows:
        seconds, right, _ = measure(script)
        failed |= seconds is None or not right
        lines.append("| %s | %s | %s | %s |" % (
            kernel, compiler, "FAILED" if seconds is None else "%.3f" % seconds,
            "yes" if right else "NO"))
    return finish(lines, results, failed)


if __name__ == "__main__":
    sys.exit(main(sys.argv[2] if len(sys.argv) > 2 else None))
