#!/usr/bin/env python3
"""Streaming benchmarks on a GPU: TirX kernels (through the Python package)
against a device-to-device copy of the same bytes, eager PyTorch,
torch.compile (Triton) and hand-written CUDA C++ (compiled with NVRTC by
CuPy), all in one process, timed with CUDA events (median of 20 runs after
5 warm-ups; each run queued behind a sleep kernel so that host launch
overhead is not timed). Usage: stream.py [RESULTS.md]"""
import statistics
import time
import sys

import cupy as cp
import torch

import tirx
from tirx.cuda.axis import laneid, warpid
from tirx.layout import S, TileLayout
from tirx.script import tirx as T

REPEATS, WARMUP = 20, 5
SLEEP_CYCLES = 2_000_000
# TirX variants: (name, warps per CTA, repeats per thread, load, store).
# "TirX" (128 threads, two 16-byte words each: 1024 floats per CTA) is the
# fastest measured; the others show how much the choice matters.
# A thread moves `repeats` 16-byte words; the cache-hinted variant streams
# past L1 (.nc loads that do not allocate) and marks stores evict-first (.cs).
VARIANTS = [("TirX", 4, 2, "ld.global.v4.b32", "st.global.v4.b32"),
            ("TirX 256 thr x4", 8, 4, "ld.global.v4.b32", "st.global.v4.b32"),
            ("TirX 256 thr x16", 8, 16, "ld.global.v4.b32", "st.global.v4.b32"),
            ("TirX 256 thr x4 nc/cs", 8, 4, "ld.global.nc.L1::no_allocate.v4.b32",
             "st.global.cs.v4.b32"),
            ("TirX 128 thr x4", 4, 4, "ld.global.v4.b32", "st.global.v4.b32"),
            ("TirX 512 thr x4", 16, 4, "ld.global.v4.b32", "st.global.v4.b32"),
            ("TirX 1024 thr x1", 32, 1, "ld.global.v4.b32", "st.global.v4.b32")]


def chunk(ctas, warps, repeats):
    # CTA b, warp w, lane l, repeat r, word k: float 128 warps (repeats b + r) + 128 w + 4 l + k.
    return TileLayout(S[(ctas, warps, 32, repeats, 4) :
                        (128 * warps * repeats, 128, 4, 128 * warps, 1)])


@T.function(private=True)
def silu(value: T.float32) -> T.float32:
    return value / (T.float32(1) + T.exp(-value))


def make_kernels(ctas, warps=8, repeats=4, load="ld.global.v4.b32", store="st.global.v4.b32"):
    layout = chunk(ctas, warps, repeats)
    shape = (ctas, warps, 32, repeats, 4)
    regs = TileLayout(S[(warps, 32, 4 * repeats) : (1 @ warpid, 1 @ laneid, 1)])
    store16 = store.replace("b32", "b16")

    @T.function
    def affine_relu(A: T.Tensor(shape, "float32", align=16, layout=layout),
                    B: T.Tensor(shape, "float32", align=16, layout=layout)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=ctas, block=32 * warps))
        bx = T.cuda.block_idx("x")
        r = T.alloc_local(shape[1:], "float32", layout=regs)
        T.cuda.tile.apply(T.ptx[load], r, A.sub[bx, :, :, :, :], scope="cta")
        s = r.view(warps, 32, 4 * repeats, 1)
        T.cuda.tile.apply(T.ptx["fma.rn.f32"], s, s, T.float32(2), T.float32(1), scope="cta")
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(0), scope="cta")
        T.cuda.tile.apply(T.ptx[store], B.sub[bx, :, :, :, :], r, scope="cta")

    @T.function
    def to_half(A: T.Tensor(shape, "float32", align=16, layout=layout),
                B: T.Tensor(shape, "float16", align=8, layout=layout)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=ctas, block=32 * warps))
        bx = T.cuda.block_idx("x")
        r = T.alloc_local(shape[1:], "float32", layout=regs)
        h = T.alloc_local(shape[1:], "float16", layout=regs)
        words = h.view("uint16")
        T.cuda.tile.apply(T.ptx[load], r, A.sub[bx, :, :, :, :], scope="cta")
        T.cuda.tile.apply(T.ptx["cvt.rn.f16.f32"], words.view(warps, 32, 4 * repeats, 1),
                          r.view(warps, 32, 4 * repeats, 1), scope="cta")
        T.cuda.tile.apply(T.ptx[store16], B.sub[bx, :, :, :, :].view("uint16"),
                          words, scope="cta")

    @T.function
    def silu_kernel(A: T.Tensor(shape, "float32", align=16, layout=layout),
                    B: T.Tensor(shape, "float32", align=16, layout=layout)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=ctas, block=32 * warps))
        bx = T.cuda.block_idx("x")
        r = T.alloc_local(shape[1:], "float32", layout=regs)
        T.cuda.tile.apply(T.ptx[load], r, A.sub[bx, :, :, :, :], scope="cta")
        T.cuda.tile.ewise(silu, r.view(warps, 32, 4 * repeats), r.view(warps, 32, 4 * repeats),
                          scope="cta")
        T.cuda.tile.apply(T.ptx[store], B.sub[bx, :, :, :, :], r, scope="cta")

    return affine_relu, to_half, silu_kernel


CUDA = r"""
extern "C" __global__ void affine_relu(const float4 *__restrict__ a, float4 *__restrict__ b, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    float4 v = a[i];
    v.x = fmaxf(fmaf(v.x, 2.f, 1.f), 0.f); v.y = fmaxf(fmaf(v.y, 2.f, 1.f), 0.f);
    v.z = fmaxf(fmaf(v.z, 2.f, 1.f), 0.f); v.w = fmaxf(fmaf(v.w, 2.f, 1.f), 0.f);
    b[i] = v;
  }
}
#include <cuda_fp16.h>
extern "C" __global__ void to_half(const float4 *__restrict__ a, uint2 *__restrict__ b, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    float4 v = a[i];
    __half2 lo = __floats2half2_rn(v.x, v.y), hi = __floats2half2_rn(v.z, v.w);
    b[i] = make_uint2(*(unsigned *)&lo, *(unsigned *)&hi);
  }
}
extern "C" __global__ void silu(const float4 *__restrict__ a, float4 *__restrict__ b, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    float4 v = a[i];
    v.x = v.x / (1.f + expf(-v.x)); v.y = v.y / (1.f + expf(-v.y));
    v.z = v.z / (1.f + expf(-v.z)); v.w = v.w / (1.f + expf(-v.w));
    b[i] = v;
  }
}
"""


def timed(fn):
    for _ in range(WARMUP):
        fn()
    times = []
    for _ in range(REPEATS):
        start, stop = torch.cuda.Event(True), torch.cuda.Event(True)
        # Keep the GPU busy (~1 ms) while the host enqueues start, kernel and
        # stop, so the events time the kernel and not the host's launch path
        # (Python launchers differ by tens of microseconds).
        torch.cuda._sleep(SLEEP_CYCLES)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times)


def host_us(fn, calls=50):
    """Host time per call (launch path only: the GPU runs behind)."""
    fn()  # compile (torch.compile) and load everything first
    torch.cuda.synchronize()
    begin = time.perf_counter()
    for _ in range(calls):
        fn()
    elapsed = time.perf_counter() - begin
    torch.cuda.synchronize()
    return elapsed / calls * 1e6


def main(results=None):
    name = torch.cuda.get_device_name()
    print("device: %s, torch %s" % (name, torch.__version__))
    module = cp.RawModule(code=CUDA, options=("-std=c++17",))
    target = {"kind": "cuda", "arch": "sm_90"}
    fast = dict(target, backend_config={"cuda": {"nvrtc": ["--use_fast_math"]}})
    rows, host = [], []
    for gib in (1, 4):
        n = gib * (1 << 28)  # floats in the input
        a = torch.randn(n, device="cuda")
        b = torch.empty_like(a)
        h = torch.empty(n, device="cuda", dtype=torch.float16)
        variants = {"affine": [], "half": [], "silu": [], "silu_fast": []}
        for who, warps, repeats, load, store in VARIANTS:
            shape = (n // (128 * warps * repeats), warps, 32, repeats, 4)
            A, B, H = a.view(shape), b.view(shape), h.view(shape)
            affine, to_half_k, silu_k = make_kernels(shape[0], warps, repeats, load, store)
            kernels = {"affine": (tirx.compile(affine, target=target), (A, B)),
                       "half": (tirx.compile(to_half_k, target=target), (A, H)),
                       "silu": (tirx.compile(silu_k, target=target), (A, B)),
                       "silu_fast": (tirx.compile(silu_k, target=fast), (A, B))}
            for key, (kernel, args) in kernels.items():
                variants[key].append((who, lambda kernel=kernel, args=args: kernel(*args)))
            kernels["affine"][0](A, B)
            assert torch.equal(b, torch.clamp_min(a * 2 + 1, 0)), who
            kernels["half"][0](A, H)
            assert torch.equal(h, a.half()), who
            kernels["silu"][0](A, B)
            assert torch.equal(b, torch.nn.functional.silu(a)), who
            kernels["silu_fast"][0](A, B)
            assert (b - torch.nn.functional.silu(a)).abs().max().item() <= 1e-5, who
        flat, out, hflat = a.view(-1), b.view(-1), h.view(-1)
        grid, block = (2048 * 132 // 256,), (256,)
        cuda = {k: module.get_function(k) for k in ("affine_relu", "to_half", "silu")}
        cp_a, cp_b, cp_h = cp.asarray(flat), cp.asarray(out), cp.asarray(hflat)
        torch_affine = torch.compile(lambda x: torch.clamp_min(x * 2 + 1, 0))
        torch_half = torch.compile(lambda x: x.half())
        torch_silu = torch.compile(torch.nn.functional.silu)
        cases = [
            ("affine-ReLU f32", 8, [
                *variants["affine"],
                ("copy", lambda: out.copy_(flat)),
                ("eager torch", lambda: torch.clamp_min(flat * 2 + 1, 0)),
                ("torch.compile", lambda: torch_affine(flat)),
                ("CUDA C++", lambda: cuda["affine_relu"](grid, block, (cp_a, cp_b, cp.int64(n // 4))))]),
            ("f32 -> f16", 6, [
                *variants["half"],
                # Reads and writes 3 bytes per float: the same 6 bytes of traffic.
                ("copy", lambda: out.view(torch.uint8)[: n * 3].copy_(flat.view(torch.uint8)[: n * 3])),
                ("eager torch", lambda: flat.half()),
                ("torch.compile", lambda: torch_half(flat)),
                ("CUDA C++", lambda: cuda["to_half"](grid, block, (cp_a, cp_h, cp.int64(n // 4))))]),
            ("SiLU precise", 8, [
                *variants["silu"],
                ("copy", lambda: out.copy_(flat)),
                ("eager torch", lambda: torch.nn.functional.silu(flat)),
                ("torch.compile", lambda: torch_silu(flat)),
                ("CUDA C++", lambda: cuda["silu"](grid, block, (cp_a, cp_b, cp.int64(n // 4))))]),
            ("SiLU fast math", 8, [
                *variants["silu_fast"],
                ("copy", lambda: out.copy_(flat))]),
        ]
        if gib == 1:
            for who, fn in cases[0][2]:
                if who in ("TirX", "copy", "eager torch", "torch.compile", "CUDA C++"):
                    host.append((who, host_us(fn)))
        for label, bytes_per_float, runs in cases:
            for who, fn in runs:
                try:
                    ms = timed(fn)
                except Exception as error:  # e.g. torch.compile without a host compiler
                    print("%-16s %d GiB %-14s failed: %s" % (label, gib, who, error))
                    continue
                gbps = n * bytes_per_float / (ms * 1e-3) / 1e9
                rows.append((label, gib, who, ms, gbps))
                print("%-16s %d GiB %-14s %8.3f ms %7.0f GB/s" % (label, gib, who, ms, gbps))
        del a, b, h, cp_a, cp_b, cp_h, flat, out, hflat, variants
        torch.cuda.empty_cache()
    lines = ["| kernel | input | implementation | median ms | GB/s | % of copy | this ms / TirX ms |",
             "|---|---:|---|---:|---:|---:|---:|"]

    def row_ms(label, gib, who):
        return next((r[3] for r in rows if r[:3] == (label, gib, who)), float("nan"))

    for label, gib, who, ms, gbps in rows:
        lines.append("| %s | %d GiB | %s | %.3f | %.0f | %.1f | %.3f |" % (
            label, gib, who, ms, gbps, 100 * row_ms(label, gib, "copy") / ms,
            ms / row_ms(label, gib, "TirX")))
    lines += ["", "Host time per call, affine-ReLU 1 GiB (launch path; not in the GPU times above):", "",
              "| implementation | µs per call |", "|---|---:|"]
    lines += ["| %s | %.1f |" % (who, us) for who, us in host]
    text = "device: %s, torch %s\n\n" % (name, torch.__version__) + "\n".join(lines)
    if results:
        open(results, "w").write(text + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
