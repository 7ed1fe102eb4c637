"""Host cost of one kernel call from Python, on the GPU machine: TirX's
launcher against a trivial @triton.jit kernel, CuPy's RawKernel and a
one-kernel PyTorch op, in one process, on a 256-float affine-ReLU whose GPU
time is below the launch cost. Each measurement is CALLS (>= 10,000) calls
then one synchronize, in microseconds per call; the implementations take
turns, round after round, and the table gives the median of ROUNDS rounds
(and the range). Every implementation's output is checked first.
Usage: PYTHONPATH=python TIRX_LIBRARY=lib python3 launch.py EXAMPLES_DIR [CALLS [ROUNDS]]"""
import statistics
import sys

import torch

import tirx
from launch_common import affine_relu_kernel, per_call_us
from tirx import runtime

sys.path.insert(0, sys.argv[1])
from affine_relu import affine_relu  # noqa: E402

CALLS = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 7
assert CALLS >= 10000, "launch overhead is measured over at least 10,000 calls"


a = torch.linspace(-4, 4, 256, device="cuda").reshape(2, 32, 4)
b = torch.empty_like(a)
expected = torch.clamp_min(a * 2 + 1, 0)


def checked(name, run, want=None):
    """Runs `run` once on a poisoned output b and compares b with the
    reference (`want`, default the affine-ReLU of a); returns `run`."""
    b.fill_(float("nan"))
    run()
    torch.cuda.synchronize()
    if not torch.equal(b, expected if want is None else want):
        raise SystemExit("%s computed a wrong result" % name)
    return run


compiled = tirx.compile(affine_relu, target="cuda")
rows = [("TirX `compiled(a, b)` (torch tensors)",
         checked("TirX", lambda: compiled(a, b)))]
# The same checks, every call on the general path (as TIRX_FAST_LAUNCH=0).
general_path = runtime.Launcher(compiled.name, compiled.ptx, compiled.params,
                                compiled.launch.grid, compiled.launch.block, native=False)
rows.append(("  the same on the general path (`TIRX_FAST_LAUNCH=0`)",
             checked("TirX general path", lambda: general_path((a, b)))))
op = compiled.as_torch_op(mutates_args=("B",))
rows.append(("TirX as a torch op, `op(a, b)` (torch.library)",
             checked("TirX op", lambda: op(a, b))))


class DLPackOnly:
    """An array API object: only __dlpack__ and __dlpack_device__."""

    def __init__(self, tensor):
        self._tensor = tensor

    def __dlpack__(self, **kwargs):
        return self._tensor.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._tensor.__dlpack_device__()


da, db = DLPackOnly(a), DLPackOnly(b)
rows.append(("TirX `compiled(a, b)` (DLPack-only objects)",
             checked("TirX DLPack", lambda: compiled(da, db))))

# The C launch alone: the prepared launch of the fast path, one ctypes call
# (after a fast-path call, which set its argument slots to a and b and its
# stream to PyTorch's current one).
assert compiled._launcher._native is not None, "the C fast path was not loaded"
compiled(a, b)
compiled(a, b)
launcher = compiled._launcher
prepared = launcher._prepared[a.get_device()]
assert [s.value for s in launcher._slots] == [a.data_ptr(), b.data_ptr()]
launch_prepared = runtime._runtime().tirxLaunchPrepared
rows.append(("  of which: `tirxLaunchPrepared` alone (one ctypes call)",
             lambda: launch_prepared(prepared)))

try:
    import triton
    import triton.language as tl

    @triton.jit
    def triton_affine_relu(a_ptr, b_ptr, BLOCK: tl.constexpr):
        offsets = tl.arange(0, BLOCK)
        x = tl.load(a_ptr + offsets)
        tl.store(b_ptr + offsets, tl.maximum(x * 2.0 + 1.0, 0.0))

    rows.append(("Triton `kernel[(1,)](a, b, BLOCK=256)`",
                 checked("Triton", lambda: triton_affine_relu[(1,)](a, b, BLOCK=256))))
    triton_version = triton.__version__
except ImportError as error:
    triton_version = "not installed (%s)" % error

try:
    import cupy as cp
    kernel = affine_relu_kernel()
    ca, cb = cp.asarray(a), cp.asarray(b)  # views of the same memory
    rows.append(("TirX `compiled(a, b)` (CuPy arrays)",
                 checked("TirX CuPy", lambda: compiled(ca, cb))))
    rows.append(("CuPy `RawKernel((1,), (64,), (a, b))`",
                 checked("CuPy", lambda: kernel((1,), (64,), (ca, cb)))))
    cupy_version = cp.__version__
except ImportError as error:
    cupy_version = "not installed (%s)" % error

rows.append(("PyTorch one-kernel op `torch.add(a, 1, out=b)`",
             checked("torch.add", lambda: torch.add(a, 1, out=b), a + 1)))

times = {name: [] for name, _ in rows}
for _ in range(ROUNDS):
    for name, fn in rows:  # interleaved: every implementation each round
        times[name].append(per_call_us(fn, CALLS))

anchor = next((name for name in times if name.startswith("CuPy")), None)
try:
    import subprocess
    driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                            capture_output=True, text=True).stdout.split("\n")[0].strip()
except OSError:
    driver = "?"
print("device: %s, driver %s, CUDA (torch) %s, torch %s, triton %s, cupy %s, python %s" % (
    torch.cuda.get_device_name(), driver, torch.version.cuda, torch.__version__,
    triton_version, cupy_version, sys.version.split()[0]))
print("%d calls per measurement, then one synchronize; median (min–max) of %d rounds"
      % (CALLS, ROUNDS))
print()
print("| call | µs per call (host) | range | vs CuPy RawKernel |")
print("|---|---:|---:|---:|")
for name, values in times.items():
    median = statistics.median(values)
    ratio = "%.2f×" % (median / statistics.median(times[anchor])) if anchor else "–"
    print("| %s | %.2f | %.2f–%.2f | %s |" % (name, median, min(values), max(values), ratio))
tirx_us = statistics.median(times[rows[0][0]])
print()
print("TirX on torch tensors: %.2f µs per call (goal: at most 5)" % tirx_us)
