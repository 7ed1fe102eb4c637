#!/usr/bin/env python3
"""Streaming benchmarks on a GPU: TirX kernels (through the Python package)
against a device-to-device copy of the same bytes, eager PyTorch,
torch.compile (Triton) and hand-written CUDA C++ (compiled with NVRTC by
CuPy), all in one process, timed with CUDA events (tirx.testing.do_bench:
median of 20 runs after 5 warm-ups; each run queued behind a sleep kernel
so that host launch overhead is not timed). Usage: stream.py [RESULTS.md]

Every TirX configuration is its own row, named by its configuration
(threads per CTA, 16-byte words per thread, cache hints); none is reported
as plain "TirX". The last column divides by TirX_BASE, a configuration
fixed here, not the best of this run. The CUDA C++ grid is 8 CTAs of 256
threads per SM of this device. Before timing, every implementation (TirX,
copy, eager torch, torch.compile, CUDA C++) runs once into an output poisoned
with NaN and is checked against a float64 reference computed with torch on
the GPU: affine-ReLU and f16 bit for bit, precise SiLU within 4 ulp
(|error| <= 2^-21 |ref|), fast SiLU within 1e-5 + 2^-20 |ref|
(docs/math.md), the copies byte for byte. A failed check prints FAIL:, marks
the row, and makes the exit status 1."""
import time
import sys

import cupy as cp
import torch

import tirx
from tirx.cuda.axis import laneid, warpid
from tirx.testing import do_bench
from tirx.layout import S, TileLayout
from tirx.script import tirx as T

REPEATS, WARMUP = 20, 5
SLEEP_CYCLES = 2_000_000
# TirX configurations: (warps per CTA, repeats per thread, load, store). A
# thread moves `repeats` 16-byte words; the cache-hinted one streams past L1
# (.nc loads that do not allocate) and marks stores evict-first (.cs).
CONFIGS = [(4, 2, "ld.global.v4.b32", "st.global.v4.b32"),
           (8, 4, "ld.global.v4.b32", "st.global.v4.b32"),
           (8, 16, "ld.global.v4.b32", "st.global.v4.b32"),
           (8, 4, "ld.global.nc.L1::no_allocate.v4.b32", "st.global.cs.v4.b32"),
           (4, 4, "ld.global.v4.b32", "st.global.v4.b32"),
           (16, 4, "ld.global.v4.b32", "st.global.v4.b32"),
           (32, 1, "ld.global.v4.b32", "st.global.v4.b32")]


def config_name(warps, repeats, load, store):
    hints = " nc/cs" if ".nc" in load or ".cs" in store else ""
    return "TirX %d thr x%d%s" % (32 * warps, repeats, hints)


VARIANTS = [(config_name(*c),) + c for c in CONFIGS]
# The configuration the last column divides by: fixed here (the fastest of
# the run of 2026-11-30), not chosen from this run's times.
TIRX_BASE = VARIANTS[0][0]


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
    """Median ms of REPEATS calls after WARMUP, as every bench/gpu script
    times. Each call is queued behind a ~1 ms sleep kernel, so the events
    time the kernel and not the host's launch path (Python launchers differ
    by tens of microseconds); no L2 flush, as bench/RESULTS.md's numbers were
    measured (with operands larger than L2 a flush would only leave it full
    of dirty lines for the timed kernel to write back)."""
    return do_bench(fn, return_mode="median", flush_l2=False, sleep_cycles=SLEEP_CYCLES,
                    n_warmup=WARMUP, n_repeat=REPEATS)


def host_us(fn, calls=50, sleep_cycles=0):
    """Host time per call (launch path only: the GPU runs behind). With
    sleep_cycles, the calls queue behind a sleep kernel that long, so that
    the GPU cannot be what the host waits for."""
    fn()  # compile (torch.compile) and load everything first
    torch.cuda.synchronize()
    if sleep_cycles:
        torch.cuda._sleep(sleep_cycles)
    begin = time.perf_counter()
    for _ in range(calls):
        fn()
    elapsed = time.perf_counter() - begin
    torch.cuda.synchronize()
    return elapsed / calls * 1e6


CHUNK = 1 << 26  # elements compared at a time (float64 temporaries)


def ulp_bound(rtol, atol=0.0):
    """A check that result is within atol + rtol * |reference| (both
    float32; the reference float64 rounded once) with NaN/inf agreeing."""
    def check(result, reference):
        beyond, special, worst = 0, 0, 0.0
        for start in range(0, reference.numel(), CHUNK):
            r = result[start:start + CHUNK].double()
            f = reference[start:start + CHUNK].double()
            finite = torch.isfinite(f)
            # NaN or inf where the reference is finite (an unwritten NaN),
            # or a reference NaN/inf not matched.
            special += int((finite & ~torch.isfinite(r)).sum())
            special += int((torch.isnan(f) & ~torch.isnan(r)).sum())
            special += int((torch.isinf(f) & (r != f)).sum())
            both = finite & torch.isfinite(r)
            error = (r[both] - f[both]).abs()
            beyond += int((error > atol + rtol * f[both].abs()).sum())
            if error.numel():
                worst = max(worst, float(error.max()))
        return beyond == 0 and special == 0, \
            "%d beyond bound, %d NaN/inf/unwritten, max abs error %.3g" % (beyond, special, worst)
    return check


def bit_exact(result, reference):
    mismatched = int((result.view(-1) != reference.view(-1)).sum())
    return mismatched == 0, "bit-exact: %d mismatches" % mismatched


def checked(who, run, output, reference, compare):
    """Runs one implementation once into its output poisoned with NaN (an
    element it does not write fails) and compares. `run` returns a tensor
    (eager torch, torch.compile) or writes `output`."""
    output.view(-1).fill_(float("nan"))
    returned = run()
    result = returned if isinstance(returned, torch.Tensor) else output
    torch.cuda.synchronize()
    try:
        ok, detail = compare(result.reshape(-1), reference)
    except Exception as error:  # a shape or dtype the check cannot read
        ok, detail = False, "check failed: %s" % error
    return ok, detail


def main(results=None):
    name = torch.cuda.get_device_name()
    sms = torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count
    print("device: %s (%d SMs), torch %s" % (name, sms, torch.__version__))
    module = cp.RawModule(code=CUDA, options=("-std=c++17",))
    target = {"kind": "cuda", "arch": "sm_90"}
    fast = dict(target, backend_config={"cuda": {"nvrtc": ["--use_fast_math"]}})
    # CUDA C++: 8 CTAs of 256 threads per SM (2048 threads, full occupancy).
    grid, block = (8 * sms,), (256,)
    cuda_name = "CUDA C++ %d thr x %d CTAs" % (block[0], grid[0])
    rows, host, failures, checks = [], [], [], 0
    for gib in (1, 4):
        n = gib * (1 << 28)  # floats in the input
        a = torch.randn(n, device="cuda")
        b = torch.empty_like(a)
        h = torch.empty(n, device="cuda", dtype=torch.float16)
        flat, out, hflat = a.view(-1), b.view(-1), h.view(-1)
        # The references: float64 on the GPU, rounded once.
        a64 = flat.double()
        references = {
            "affine": torch.clamp_min(a64 * 2 + 1, 0).float(),
            "half": a64.half(),
            "silu": (a64 / (1 + torch.exp(-a64))).float(),
        }
        del a64
        compare = {"affine": bit_exact, "half": bit_exact,
                   "silu": ulp_bound(2.0 ** -21, 1e-38),
                   "silu_fast": ulp_bound(2.0 ** -20, 1e-5)}
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
        cuda = {k: module.get_function(k) for k in ("affine_relu", "to_half", "silu")}
        cp_a, cp_b, cp_h = cp.asarray(flat), cp.asarray(out), cp.asarray(hflat)
        torch_affine = torch.compile(lambda x: torch.clamp_min(x * 2 + 1, 0))
        torch_half = torch.compile(lambda x: x.half())
        torch_silu = torch.compile(torch.nn.functional.silu)
        three = n * 3  # bytes the f32 -> f16 copy moves each way

        def bytes_copied(result, reference):
            return bit_exact(out.view(torch.uint8)[:three], flat.view(torch.uint8)[:three])

        def copied(result, reference):
            return bit_exact(out, flat)

        # (label, bytes per float, reference key, output, runs); a run is
        # (who, fn) or (who, fn, compare) when it is not checked against the
        # reference (the copies: byte for byte against the input).
        cases = [
            ("affine-ReLU f32", 8, "affine", out, [
                *variants["affine"],
                ("copy", lambda: out.copy_(flat), copied),
                ("eager torch", lambda: torch.clamp_min(flat * 2 + 1, 0)),
                ("torch.compile", lambda: torch_affine(flat)),
                (cuda_name, lambda: cuda["affine_relu"](grid, block, (cp_a, cp_b, cp.int64(n // 4))))]),
            ("f32 -> f16", 6, "half", hflat, [
                *variants["half"],
                # Reads and writes 3 bytes per float: the same 6 bytes of traffic.
                ("copy", lambda: out.view(torch.uint8)[:three].copy_(flat.view(torch.uint8)[:three]),
                 bytes_copied),
                ("eager torch", lambda: flat.half()),
                ("torch.compile", lambda: torch_half(flat)),
                (cuda_name, lambda: cuda["to_half"](grid, block, (cp_a, cp_h, cp.int64(n // 4))))]),
            ("SiLU precise", 8, "silu", out, [
                *variants["silu"],
                ("copy", lambda: out.copy_(flat), copied),
                ("eager torch", lambda: torch.nn.functional.silu(flat)),
                ("torch.compile", lambda: torch_silu(flat)),
                (cuda_name, lambda: cuda["silu"](grid, block, (cp_a, cp_b, cp.int64(n // 4))))]),
            ("SiLU fast math", 8, "silu_fast", out, [
                *variants["silu_fast"],
                ("copy", lambda: out.copy_(flat), copied)]),
        ]
        for label, bytes_per_float, key, output, runs in cases:
            reference = references["silu" if key == "silu_fast" else key]
            for run in runs:
                who, fn = run[0], run[1]
                checks += 1
                copy_output = out if who == "copy" else output
                try:
                    ok, detail = checked(who, fn, copy_output, reference,
                                         run[2] if len(run) > 2 else compare[key])
                    print("%s: check %-16s %d GiB %-22s %s" % (
                        "PASS" if ok else "FAIL", label, gib, who, detail))
                    if gib == 1 and label == "affine-ReLU f32" and \
                            who in (TIRX_BASE, "copy", "eager torch", "torch.compile", cuda_name):
                        host.append((who, host_us(fn)))
                    ms = timed(fn)
                except Exception as error:  # e.g. torch.compile without a host compiler
                    print("FAIL: %-16s %d GiB %-22s failed to run: %s" % (label, gib, who, error))
                    failures.append((label, gib, who))
                    continue
                if not ok:
                    failures.append((label, gib, who))
                gbps = n * bytes_per_float / (ms * 1e-3) / 1e9
                rows.append((label, gib, who, ms, gbps, "yes" if ok else "**FAIL**"))
                print("%-16s %d GiB %-22s %8.3f ms %7.0f GB/s" % (label, gib, who, ms, gbps))
        del a, b, h, cp_a, cp_b, cp_h, flat, out, hflat, variants, references
        torch.cuda.empty_cache()
    lines = ["| kernel | input | implementation | median ms | GB/s | %% of copy | "
             "this ms / %s ms | output checked |" % TIRX_BASE,
             "|---|---:|---|---:|---:|---:|---:|---|"]

    def row_ms(label, gib, who):
        return next((r[3] for r in rows if r[:3] == (label, gib, who)), float("nan"))

    for label, gib, who, ms, gbps, ok in rows:
        lines.append("| %s | %d GiB | %s | %.3f | %.0f | %.1f | %.3f | %s |" % (
            label, gib, who, ms, gbps, 100 * row_ms(label, gib, "copy") / ms,
            ms / row_ms(label, gib, TIRX_BASE), ok))
    lines += ["", "Host time per call, affine-ReLU 1 GiB (launch path; not in the GPU times above):", "",
              "| implementation | µs per call |", "|---|---:|"]
    lines += ["| %s | %.1f |" % (who, us) for who, us in host]
    text = "device: %s (%d SMs), torch %s\n\n" % (name, sms, torch.__version__) + "\n".join(lines)
    if results:
        open(results, "w").write(text + "\n")
    print("stream.py: %d implementations checked, %d failed%s" % (
        checks, len(failures), "".join("\nFAIL: %s %d GiB %s" % f for f in failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
