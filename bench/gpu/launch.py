"""Host cost of one kernel call from Python, on the GPU machine: TirX's
launcher (argument checks, stream lookup, ctypes launch) against CuPy's
RawKernel launch and a one-kernel PyTorch op, on a 256-float affine-ReLU
where the GPU time is negligible. Median of 7 rounds of 2000 calls.
Usage: PYTHONPATH=python TIRX_LIBRARY=lib python3 launch.py EXAMPLES_DIR"""
import statistics
import sys
import time

import cupy as cp
import torch

import tirx
from tirx import runtime

sys.path.insert(0, sys.argv[1])
from affine_relu import affine_relu  # noqa: E402

CALLS, ROUNDS = 2000, 7


def per_call_us(fn):
    fn()
    torch.cuda.synchronize()
    rounds = []
    for _ in range(ROUNDS):
        begin = time.perf_counter()
        for _ in range(CALLS):
            fn()
        rounds.append((time.perf_counter() - begin) / CALLS * 1e6)
        torch.cuda.synchronize()
    return statistics.median(rounds)


a = torch.linspace(-4, 4, 256, device="cuda").reshape(2, 32, 4)
b = torch.empty_like(a)
compiled = tirx.compile(affine_relu, target="cuda")
compiled(a, b)
torch.testing.assert_close(b, torch.clamp_min(a * 2 + 1, 0))

kernel = cp.RawModule(code="""
extern "C" __global__ void affine_relu(const float4 *a, float4 *b) {
  float4 v = a[threadIdx.x];
  v.x = fmaxf(fmaf(v.x, 2.f, 1.f), 0.f); v.y = fmaxf(fmaf(v.y, 2.f, 1.f), 0.f);
  v.z = fmaxf(fmaf(v.z, 2.f, 1.f), 0.f); v.w = fmaxf(fmaf(v.w, 2.f, 1.f), 0.f);
  b[threadIdx.x] = v;
}""").get_function("affine_relu")
ca, cb = cp.asarray(a), cp.asarray(b)
rows = [
    ("TirX `compiled(a, b)` (torch tensors)", per_call_us(lambda: compiled(a, b))),
    ("TirX `compiled(a, b)` (CuPy arrays)", per_call_us(lambda: compiled(ca, cb))),
]
if hasattr(runtime, "Launcher"):
    checks = runtime.Launcher(compiled.name, compiled.ptx, compiled.params,
                              compiled.launch.grid, compiled.launch.block)._checks
    rows.append(("  of which: argument checks (torch)", per_call_us(
        lambda: [c(x) for c, x in zip(checks, (a, b))])))
rows += [
    ("  of which: stream lookup (torch)", per_call_us(lambda: runtime.current_stream((a, b)))),
    ("CuPy `RawKernel((1,), (64,), (a, b))`", per_call_us(
        lambda: kernel((1,), (64,), (ca, cb)))),
    ("PyTorch one-kernel op `b.copy_(a)`",
     per_call_us(lambda: b.copy_(a))),
]
print("device: %s, torch %s, cupy %s" % (torch.cuda.get_device_name(), torch.__version__,
                                         cp.__version__))
print("| call | µs per call (host) |")
print("|---|---:|")
for name, us in rows:
    print("| %s | %.1f |" % (name, us))
