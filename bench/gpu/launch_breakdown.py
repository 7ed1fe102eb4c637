"""Where a launch's host time goes, on the GPU machine. For each call it
measures (a) 10,000 calls then one synchronize, as launch.py does, (b) 400
calls queued behind a long sleep kernel, so the GPU cannot be what the host
waits for (pure host cost), and (c) the GPU's own rate for the kernel, from a
CUDA graph of 1000 launches replayed.
Usage: NOOP_LIB=noop.so PYTHONPATH=python TIRX_LIBRARY=lib python3 launch_breakdown.py EXAMPLES_DIR
(noop.so: `int noop(const void *p) { return 0; }` built with any C compiler)"""
import ctypes
import os
import statistics
import sys

import torch

import tirx
from launch_common import affine_relu_kernel, per_call_us
from stream import host_us
from tirx import runtime
from tirx.testing import do_bench

sys.path.insert(0, sys.argv[1])
from affine_relu import affine_relu  # noqa: E402

a = torch.linspace(-4, 4, 256, device="cuda").reshape(2, 32, 4)
b = torch.empty_like(a)
compiled = tirx.compile(affine_relu, target="cuda")
compiled(a, b)
compiled(a, b)
launcher = compiled._launcher
prepared = launcher._prepared[a.get_device()]
lib = runtime._runtime()
launch_prepared = lib.tirxLaunchPrepared
libc = ctypes.CDLL(None)
strlen = libc.strlen
empty = b""

import cupy as cp  # noqa: E402
kernel = affine_relu_kernel()
ca, cb = cp.asarray(a), cp.asarray(b)

# The launch paths' own cost: the same launchers with a C function that
# returns 0 in place of tirxLaunchPrepared (NOOP_LIB, a one-line C library
# built on the GPU machine), so only the checks, slots and stream lookup run.
noop = ctypes.CDLL(os.environ["NOOP_LIB"]).noop
noop.argtypes = [ctypes.c_void_p]
device = a.get_device()
c_checks = runtime.Launcher(compiled.name, compiled.ptx, compiled.params, compiled.launch.grid,
                            compiled.launch.block, native=True)
c_checks((a, b))
c_checks._native.set_prepared(device, ctypes.addressof(c_checks._prepared[device]),
                              ctypes.cast(noop, ctypes.c_void_p).value)
native_launch = compiled._launcher.launch

rows = [
    ("ctypes no-op strlen(b'')", lambda: strlen(empty)),
    ("C path's checks alone (no-op launch), `launcher((a, b))`", lambda: c_checks((a, b))),
    ("C path, `compiled._launch((a, b))` (no Compiled.__call__)", lambda: native_launch((a, b))),
    ("tirxLaunchPrepared alone", lambda: launch_prepared(prepared)),
    ("TirX compiled(a, b)", lambda: compiled(a, b)),
    ("CuPy RawKernel", lambda: kernel((1,), (64,), (ca, cb))),
    ("torch.add(a, 1, out=b)", lambda: torch.add(a, 1, out=b)),
    ("python: a.data_ptr() x2, a.dtype x2, a.shape x2, is_contiguous x2, get_device x2",
     lambda: (a.data_ptr(), b.data_ptr(), a.dtype, b.dtype, a.shape, b.shape,
              a.is_contiguous(), b.is_contiguous(), a.get_device(), b.get_device())),
    ("torch._C._cuda_getCurrentRawStream(0)", lambda: torch._C._cuda_getCurrentRawStream(0)),
]


results = {name: ([], []) for name, _ in rows}
for _ in range(7):
    for name, fn in rows:
        results[name][0].append(per_call_us(fn, 10000))
        results[name][1].append(host_us(fn, 400, sleep_cycles=50_000_000))
print("| call | 10,000 calls + sync (µs/call) | 400 calls behind a sleep kernel (µs/call, host only) |")
print("|---|---:|---:|")
for name, (full, host) in results.items():
    print("| %s | %.2f (%.2f–%.2f) | %.2f (%.2f–%.2f) |" % (
        name, statistics.median(full), min(full), max(full),
        statistics.median(host), min(host), max(host)))

# The GPU's rate: a graph of 1000 launches, replayed.
for name, fn in (("TirX compiled(a, b)", lambda: compiled(a, b)),
                 ("torch.add", lambda: torch.add(a, 1, out=b))):
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        fn()
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, stream=stream):
            for _ in range(1000):
                fn()
    # One replay, then 7 timed (no flush: the graph's 1000 launches are the
    # measure).
    times = [ms * 1e3 / 1000 for ms in do_bench(graph.replay, return_mode="all",
                                                 flush_l2=False, n_warmup=0, n_repeat=7)]
    print("GPU rate, graph of 1000 %s: %.2f µs per kernel (%.2f–%.2f)" % (
        name, statistics.median(times), min(times), max(times)))
print(torch.cuda.get_device_name(), torch.__version__, sys.version.split()[0])
