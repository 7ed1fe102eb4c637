"""Launch overhead of a TMA kernel against a plain kernel, on the GPU
machine (issue 35's goal: a TMA launch on the C path within 1 µs of a plain
kernel's). Both take two torch tensors and launch through `compiled(a, b)`:

- plain: the seed's affine-ReLU (examples/python/affine_relu.py, 256 floats);
- TMA: one thread loads a 64x64 bfloat16 box of A into shared memory through
  a tensor map (mbarrier, expect_tx) and stores it to B through another, so
  each launch passes two 128-byte CUtensorMaps after its arguments, which
  the launcher's C checker encodes (lib/Python/FastLaunch.c);
- TMA, new tensors each call: the same kernel alternating between two pairs
  of tensors, so both maps are re-encoded on every call (the cache's miss
  cost; the steady case encodes nothing).

Each is measured three ways, in microseconds per call, the kernels taking
turns round after round (median and range of ROUNDS rounds): (a) host time
of HOST_CALLS calls queued behind a long sleep kernel, so the GPU cannot be
what the host waits for (the launch path alone); (b) wall time of CALLS
calls then one synchronize; (c) CUDA events around the same CALLS calls.

Self-checking: every kernel's output is compared with its reference first
(poisoned output, bit-exact); the timed calls must all take the C fast path
(none reaches the general path) and the steady TMA loop must encode no map
(the cache), the alternating one two maps per call; any failure exits 1.
Prints one table and the goal's verdict.
Usage: PYTHONPATH=python TIRX_LIBRARY=build/lib python3 bench/gpu/launch_overhead.py
       [--examples=DIR] [CALLS [ROUNDS]]   (torch, a CUDA GPU of sm_90)"""
import os
import statistics
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
import tirx  # noqa: E402
from tirx.script import tirx as T  # noqa: E402

# The examples: --examples=DIR, else the checkout's (bench/gpu/../../examples)
# or the GPU bundle's (bench/../examples).
EXAMPLES = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--examples=")),
                next(d for d in (os.path.join(HERE, "..", "..", "examples", "python"),
                                 os.path.join(HERE, "..", "examples", "python"))
                     if os.path.isdir(d)))
sys.path.insert(0, EXAMPLES)
from affine_relu import affine_relu  # noqa: E402

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
CALLS = int(ARGS[0]) if ARGS else 10000
ROUNDS = int(ARGS[1]) if len(ARGS) > 1 else 7
HOST_CALLS = 400  # behind one sleep kernel: must all queue before it ends
SLEEP_CYCLES = 50_000_000
assert CALLS >= 10000, "launch overhead is measured over at least 10,000 calls"

LOAD = "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
BOX = (64, 64)


@T.function
def tma_copy(A: T.Tensor(BOX, "bfloat16", align=16), B: T.Tensor(BOX, "bfloat16", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    img = T.alloc_shared(BOX, "bfloat16", align=128)
    bar = T.alloc_shared((1,), "uint64", align=8)
    zero = T.cuda.block_idx("x")
    with T.If(T.cuda.thread_idx("x") == 0):
        with T.Then():
            T.ptx.mbarrier.init(bar.data, 1)
            T.ptx.fence.proxy.async_.shared__cta()
            T.ptx.mbarrier.arrive.expect_tx(bar.data, BOX[0] * BOX[1] * 2)
            T.cuda.tile.apply(T.ptx[LOAD], img, A[zero:zero + 64, 0:64], bar, scope="thread")
            T.ptx.mbarrier.try_wait(bar.data, 0)
            T.cuda.tile.apply(T.ptx[STORE], B[zero:zero + 64, 0:64], img, scope="thread")
            T.cuda.tile.apply(T.ptx["cp.async.bulk.commit_group"], scope="thread")
            T.cuda.tile.apply(T.ptx["cp.async.bulk.wait_group"], T.int32(0), scope="thread")


failures = []


def fail(message):
    print("FAIL: " + message)
    failures.append(message)


# The kernels and their tensors, checked once (bit-exact, poisoned output).
plain = tirx.compile(affine_relu, target="cuda")
pa = torch.linspace(-4, 4, 256, device="cuda").reshape(2, 32, 4)
pb = torch.empty_like(pa)
tma = tirx.compile(tma_copy, target="cuda")
if len(tma.tensor_maps) != 2:
    fail("the TMA kernel has %d tensor maps, expected 2" % len(tma.tensor_maps))
pairs = []
for seed in range(2):
    generator = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(BOX, device="cuda", generator=generator).to(torch.bfloat16)
    pairs.append((a, torch.empty_like(a)))


def check(name, run, output, expected):
    output.fill_(float("nan"))
    run()
    torch.cuda.synchronize()
    if not torch.equal(output, expected):
        fail("%s computed a wrong result" % name)


check("plain", lambda: plain(pa, pb), pb, torch.clamp_min(pa * 2 + 1, 0))
for a, b in pairs:
    check("TMA", lambda: tma(a, b), b, a)
# Both launchers are made and loaded now: later calls take the fast path.
plain(pa, pb)
(ta, tb), (ua, ub) = pairs
tma(ta, tb)
torch.cuda.synchronize()


def alternate():
    """TMA on new tensors each call: both maps re-encoded every call."""
    state = [0]

    def run():
        a, b = pairs[state[0] & 1]
        state[0] += 1
        tma(a, b)
    return run


rows = [("plain kernel (affine-ReLU, 2 tensors)", lambda: plain(pa, pb), None),
        ("TMA kernel (2 tensors, 2 maps, cached)", lambda: tma(ta, tb), "steady"),
        ("TMA kernel, other tensors each call (2 maps re-encoded)", alternate(), "alternate")]


def encodes():
    return sum(entry[3] for entry in tma._launcher._native.map_cache())


class Watch:
    """Counts the calls that reach the general path (the fast path's refusals)."""

    def __init__(self):
        self.calls = 0
        for compiled in (plain, tma):
            self._wrap(compiled._launcher._globals)

    def _wrap(self, g):
        general = g["_general"]

        def counted(args):
            self.calls += 1
            return general(args)
        g["_general"] = counted


watch = Watch()


def wall_us(fn, calls):
    torch.cuda.synchronize()
    begin = time.perf_counter()
    for _ in range(calls):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - begin) / calls * 1e6


def event_us(fn, calls):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    start.record()
    for _ in range(calls):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1e3 / calls


def host_us(fn, calls):
    torch.cuda.synchronize()
    torch.cuda._sleep(SLEEP_CYCLES)
    begin = time.perf_counter()
    for _ in range(calls):
        fn()
    elapsed = time.perf_counter() - begin
    torch.cuda.synchronize()
    return elapsed / calls * 1e6


times = {name: {"host": [], "wall": [], "events": []} for name, _, _ in rows}
for _ in range(ROUNDS):
    for name, fn, kind in rows:  # interleaved: every kernel each round
        # One call first: the previous row left other tensors' maps in the
        # cache, which this row's first call re-encodes (not counted).
        fn()
        before, general = encodes(), watch.calls
        times[name]["host"].append(host_us(fn, HOST_CALLS))
        times[name]["wall"].append(wall_us(fn, CALLS))
        times[name]["events"].append(event_us(fn, CALLS))
        calls = HOST_CALLS + 2 * CALLS
        if watch.calls != general:
            fail("%s: %d of %d calls took the general path" % (name, watch.calls - general,
                                                               calls))
        encoded = encodes() - before
        if kind == "steady" and encoded:
            fail("%s: %d maps encoded in a loop on the same tensors" % (name, encoded))
        if kind == "alternate" and encoded != 2 * calls:
            fail("%s: %d maps encoded for %d calls on alternating tensors (expected %d)"
                 % (name, encoded, calls, 2 * calls))
# The outputs after all the timed calls.
for a, b in pairs:
    check("TMA (after the timing)", lambda: tma(a, b), b, a)
check("plain (after the timing)", lambda: plain(pa, pb), pb, torch.clamp_min(pa * 2 + 1, 0))

print("device: %s, torch %s, CUDA %s, python %s" % (
    torch.cuda.get_device_name(), torch.__version__, torch.version.cuda,
    sys.version.split()[0]))
print("µs per call; median (min–max) of %d rounds; host: %d calls behind a sleep kernel; "
      "wall and events: %d calls then one synchronize" % (ROUNDS, HOST_CALLS, CALLS))
print()
print("| launch | host only | wall | CUDA events | host − plain's |")
print("|---|---:|---:|---:|---:|")
plain_host = statistics.median(times[rows[0][0]]["host"])


def cell(values):
    return "%.2f (%.2f–%.2f)" % (statistics.median(values), min(values), max(values))


for name, _, _ in rows:
    t = times[name]
    print("| %s | %s | %s | %s | %+.2f |" % (name, cell(t["host"]), cell(t["wall"]),
                                             cell(t["events"]),
                                             statistics.median(t["host"]) - plain_host))
gap = statistics.median(times[rows[1][0]]["host"]) - plain_host
print()
print("TMA launch (cached maps) %.2f µs over a plain kernel's, host only (goal: at most 1): %s"
      % (gap, "met" if gap <= 1.0 else "NOT met"))
if failures:
    print("%d check(s) failed" % len(failures))
    sys.exit(1)
print("PASS: outputs bit-exact, every timed call on the C fast path, maps encoded only on "
      "a change")
