#!/usr/bin/env python3
"""Streaming benchmarks on a GPU: TirX kernels (through the Python package)
against a device-to-device copy of the same bytes, eager PyTorch,
torch.compile (Triton) and hand-written CUDA C++ (compiled with NVRTC by
CuPy), all in one process, timed with CUDA events (median of 20 runs after
5 warm-ups). Usage: stream.py [RESULTS.md]"""
import statistics
import sys

import cupy as cp
import torch

import tirx
from tirx.cuda.axis import laneid, warpid
from tirx.layout import S, TileLayout
from tirx.script import tirx as T

REPEATS, WARMUP = 20, 5
REGS = TileLayout(S[(8, 32, 16) : (1 @ warpid, 1 @ laneid, 1)])


def chunk(ctas):
    # CTA b, warp w, lane l, repeat r, word k: float 4096 b + 1024 r + 128 w + 4 l + k.
    return TileLayout(S[(ctas, 8, 32, 4, 4) : (4096, 128, 4, 1024, 1)])


@T.function(private=True)
def silu(value: T.float32) -> T.float32:
    return value / (T.float32(1) + T.exp(-value))


def make_kernels(ctas):
    layout = chunk(ctas)

    @T.function
    def affine_relu(A: T.Tensor((ctas, 8, 32, 4, 4), "float32", align=16, layout=layout),
                    B: T.Tensor((ctas, 8, 32, 4, 4), "float32", align=16, layout=layout)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=ctas, block=256))
        bx = T.cuda.block_idx("x")
        r = T.alloc_local((8, 32, 4, 4), "float32", layout=REGS)
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, A.sub[bx, :, :, :, :], scope="cta")
        s = r.view(8, 32, 16, 1)
        T.cuda.tile.apply(T.ptx["fma.rn.f32"], s, s, T.float32(2), T.float32(1), scope="cta")
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(0), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B.sub[bx, :, :, :, :], r, scope="cta")

    @T.function
    def to_half(A: T.Tensor((ctas, 8, 32, 4, 4), "float32", align=16, layout=layout),
                B: T.Tensor((ctas, 8, 32, 4, 4), "float16", align=8, layout=layout)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=ctas, block=256))
        bx = T.cuda.block_idx("x")
        r = T.alloc_local((8, 32, 4, 4), "float32", layout=REGS)
        h = T.alloc_local((8, 32, 4, 4), "float16", layout=REGS)
        words = h.view("uint16")
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, A.sub[bx, :, :, :, :], scope="cta")
        T.cuda.tile.apply(T.ptx["cvt.rn.f16.f32"], words.view(8, 32, 16, 1),
                          r.view(8, 32, 16, 1), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b16"], B.sub[bx, :, :, :, :].view("uint16"),
                          words, scope="cta")

    @T.function
    def silu_kernel(A: T.Tensor((ctas, 8, 32, 4, 4), "float32", align=16, layout=layout),
                    B: T.Tensor((ctas, 8, 32, 4, 4), "float32", align=16, layout=layout)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=ctas, block=256))
        bx = T.cuda.block_idx("x")
        r = T.alloc_local((8, 32, 4, 4), "float32", layout=REGS)
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, A.sub[bx, :, :, :, :], scope="cta")
        T.cuda.tile.ewise(silu, r.view(8, 32, 16), r.view(8, 32, 16), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B.sub[bx, :, :, :, :], r, scope="cta")

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
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times)


def main(results=None):
    name = torch.cuda.get_device_name()
    print("device: %s, torch %s" % (name, torch.__version__))
    module = cp.RawModule(code=CUDA, options=("-std=c++17",))
    target = {"kind": "cuda", "arch": "sm_90"}
    fast = dict(target, backend_config={"cuda": {"nvrtc": ["--use_fast_math"]}})
    rows = []
    for gib in (1, 4):
        n = gib * (1 << 28)  # floats in the input
        ctas = n // 4096
        a = torch.randn(ctas, 8, 32, 4, 4, device="cuda")
        b = torch.empty_like(a)
        h = torch.empty(a.shape, device="cuda", dtype=torch.float16)
        affine, to_half_k, silu_k = make_kernels(ctas)
        compiled = {"affine": tirx.compile(affine, target=target),
                    "half": tirx.compile(to_half_k, target=target),
                    "silu": tirx.compile(silu_k, target=target),
                    "silu_fast": tirx.compile(silu_k, target=fast)}
        compiled["affine"](a, b)
        assert torch.equal(b, torch.clamp_min(a * 2 + 1, 0))
        compiled["half"](a, h)
        assert torch.equal(h, a.half())
        flat, out, hflat = a.view(-1), b.view(-1), h.view(-1)
        grid, block = (2048 * 132 // 256,), (256,)
        cuda = {k: module.get_function(k) for k in ("affine_relu", "to_half", "silu")}
        cp_a, cp_b, cp_h = cp.asarray(flat), cp.asarray(out), cp.asarray(hflat)
        torch_affine = torch.compile(lambda x: torch.clamp_min(x * 2 + 1, 0))
        torch_half = torch.compile(lambda x: x.half())
        torch_silu = torch.compile(torch.nn.functional.silu)
        cases = [
            ("affine-ReLU f32", 8, [
                ("TirX", lambda: compiled["affine"](a, b)),
                ("copy", lambda: out.copy_(flat)),
                ("eager torch", lambda: torch.clamp_min(flat * 2 + 1, 0)),
                ("torch.compile", lambda: torch_affine(flat)),
                ("CUDA C++", lambda: cuda["affine_relu"](grid, block, (cp_a, cp_b, cp.int64(n // 4))))]),
            ("f32 -> f16", 6, [
                ("TirX", lambda: compiled["half"](a, h)),
                ("copy", lambda: out.view(torch.uint8)[: n * 6].copy_(flat.view(torch.uint8)[: n * 6])),
                ("eager torch", lambda: flat.half()),
                ("torch.compile", lambda: torch_half(flat)),
                ("CUDA C++", lambda: cuda["to_half"](grid, block, (cp_a, cp_h, cp.int64(n // 4))))]),
            ("SiLU precise", 8, [
                ("TirX", lambda: compiled["silu"](a, b)),
                ("copy", lambda: out.copy_(flat)),
                ("eager torch", lambda: torch.nn.functional.silu(flat)),
                ("torch.compile", lambda: torch_silu(flat)),
                ("CUDA C++", lambda: cuda["silu"](grid, block, (cp_a, cp_b, cp.int64(n // 4))))]),
            ("SiLU fast math", 8, [
                ("TirX", lambda: compiled["silu_fast"](a, b))]),
        ]
        for label, bytes_per_float, runs in cases:
            for who, fn in runs:
                ms = timed(fn)
                gbps = n * bytes_per_float / (ms * 1e-3) / 1e9
                rows.append((label, gib, who, ms, gbps))
                print("%-16s %d GiB %-14s %8.3f ms %7.0f GB/s" % (label, gib, who, ms, gbps))
        del a, b, h, cp_a, cp_b, cp_h, flat, out, hflat
        torch.cuda.empty_cache()
    lines = ["| kernel | input | implementation | median ms | GB/s | TirX / this |",
             "|---|---:|---|---:|---:|---:|"]
    for label, gib, who, ms, gbps in rows:
        tirx_ms = next(r[3] for r in rows if r[0] == label and r[1] == gib and r[2] == "TirX")
        lines.append("| %s | %d GiB | %s | %.3f | %.0f | %.3f |" % (label, gib, who, ms, gbps,
                                                                    ms / tirx_ms if who != "TirX" else 1.0))
    text = "device: %s, torch %s\n\n" % (name, torch.__version__) + "\n".join(lines)
    if results:
        open(results, "w").write(text + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
