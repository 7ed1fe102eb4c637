#!/usr/bin/env python3
"""Runtime sizes on a GPU (issue 15, docs/sizes.md): the persistent
grid-stride affine-ReLU of examples/python/affine_relu_persistent.py, one
kernel compiled once for every n, against a device-to-device copy of the same
bytes, eager PyTorch and torch.compile, in one process, timed as stream.py
times (CUDA events, median of 20 after 5 warm-ups, each run queued behind a
sleep kernel). Sizes: 1 and 4 GiB of input, and the same plus 3 floats (a
partial last chunk). The dynamic rows (make_dynamic_kernel) take chunks
from an atomic counter that every launch leaves at zero (checked after each
size). Every implementation first runs into an output poisoned with NaN and
is compared bit for bit with a float64 reference rounded once.

--explain (instead of the table): hand-written CUDA C++ kernels of the same
chunk (256 threads x 4 x 16 B, CuPy NVRTC, checked bit for bit, timed the
same way) that separate what the persistent kernel loses: a static
grid-stride walk against a dynamic one (each CTA takes its next chunk from
an atomic counter) against one pass, each with a thread's loads of a step
issued first or one vector at a time; then the per-SM timeline of the static
and dynamic walks (%globaltimer and %smid at each CTA's end).
--profile (for ncu): each of the main TirX kernels (the dynamic one too)
and the CUDA ones once at 1 GiB, e.g. ncu --set full -k regex:'affine_relu|^ref_' python3 sizes.py
EXAMPLES_DIR --profile.
Usage: sizes.py EXAMPLES_DIR [RESULTS.md] [--explain | --profile]"""
import statistics
import sys

import torch

import tirx

from stream import bit_exact, checked, timed

FLAGS = [a for a in sys.argv[1:] if a.startswith("--")]
ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
sys.path.insert(0, ARGS[0])
from affine_relu_persistent import (counter_for, make_dynamic_kernel, make_kernel,  # noqa
                                    make_one_pass_kernel, make_pipelined_kernel)

# TirX variants, each its own row: (threads per CTA, 16-byte vectors per
# thread per step, CTAs per SM, load, store, loads first). The first is the
# example's default; the second was its default until 2026-12-01. Loads
# first: a thread's loads of a step all issue before its first store;
# otherwise load, compute, store one vector at a time.
# Grids of 4..8 CTAs per SM are what is resident at once (persistent); 64 and
# more per SM are more than that (the hardware hands a CTA to an SM as one
# finishes, so a faster SM takes more CTAs: bench/RESULTS.md, runtime sizes).
V4 = ("ld.global.v4.b32", "st.global.v4.b32")
NC_CS = ("ld.global.nc.L1::no_allocate.v4.b32", "st.global.cs.v4.b32")
VARIANTS = [(256, 4, 8) + V4 + (False,),
            (256, 4, 8) + V4 + (True,),
            (512, 4, 4) + V4 + (True,),
            (128, 2, 16) + V4 + (True,),
            (256, 4, 8) + NC_CS + (True,),
            (256, 4, 8) + NC_CS + (False,),
            (512, 4, 4) + V4 + (False,),
            (256, 4, 4) + V4 + (False,),
            (256, 4, 64) + V4 + (False,),
            (256, 4, 256) + V4 + (False,),
            (128, 2, 1024) + V4 + (True,),
            (128, 2, 1024) + V4 + (False,)]
# Software-pipelined persistent variants (make_pipelined_kernel): (threads,
# vectors per thread per step, CTAs per SM); 4 per SM is what its 59
# registers let be resident.
PIPELINED = [(256, 4, 4)]
# Dynamically scheduled persistent variants (make_dynamic_kernel: chunks
# taken from an atomic counter, which every launch leaves at zero): (threads,
# vectors per thread per step, CTAs per SM, barriers per chunk, loads first).
DYNAMIC = [(256, 4, 8, 2, False), (256, 4, 8, 1, False), (256, 4, 8, 1, True),
           (256, 4, 4, 2, False)]
# One-pass variants (make_one_pass_kernel): (threads per CTA, vectors per thread).
ONE_PASS = [(256, 4), (128, 2)]


def main(results=None):
    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    sms = props.multi_processor_count
    print("device: %s (%d SMs), torch %s" % (props.name, sms, torch.__version__))
    kernels = []
    for threads, unroll, per_sm, load, store, loads_first in VARIANTS:
        hints = " nc/cs" if ".nc" in load else ""
        label = "TirX persistent %d CTAs (%d/SM) x %d thr, %d x 16 B/thread/step, %s%s" % (
            per_sm * sms, per_sm, threads, unroll,
            "loads first" if loads_first else "one vector at a time", hints)
        kernels.append((label, tirx.compile(make_kernel(sms, threads, unroll, per_sm, load,
                                                        store, loads_first), target="cuda")))
    for threads, unroll, per_sm in PIPELINED:
        kernels.append(("TirX pipelined %d CTAs (%d/SM) x %d thr, %d x 16 B/thread/step" % (
            per_sm * sms, per_sm, threads, unroll),
            tirx.compile(make_pipelined_kernel(sms, threads, unroll, per_sm), target="cuda")))
    counter = counter_for(torch.device("cuda"))
    for threads, unroll, per_sm, barriers, loads_first in DYNAMIC:
        compiled = tirx.compile(make_dynamic_kernel(sms, threads, unroll, per_sm,
                                                    barriers=barriers, loads_first=loads_first),
                                target="cuda")
        kernels.append(("TirX dynamic (atomic counter) %d CTAs (%d/SM) x %d thr, %d x 16 B/thread"
                        "/step, %d barrier%s/chunk, %s" % (
                            per_sm * sms, per_sm, threads, unroll, barriers,
                            "s" if barriers > 1 else "",
                            "loads first" if loads_first else "one vector at a time"),
                        lambda a, b, k=compiled: k(a, b, counter)))
    for threads, unroll in ONE_PASS:
        kernels.append(("TirX one pass, ceil(n / %d) CTAs x %d thr, %d x 16 B/thread" % (
            threads * 4 * unroll, threads, unroll),
            tirx.compile(make_one_pass_kernel(threads, unroll), target="cuda")))
    eager = lambda a: torch.clamp_min(a * 2 + 1, 0)
    compiled_torch = torch.compile(eager)
    rows, failures = [], []
    for gib in (1, 4):
        for extra in (0, 3):
            n = gib * (1 << 28) + extra
            a = torch.randn(n, device="cuda")
            b = torch.empty_like(a)
            reference = torch.clamp_min(a.double() * 2 + 1, 0).float()
            impls = [("device copy (same bytes)", lambda: b.copy_(a), None)]
            impls += [(label, lambda k=k: k(a, b), bit_exact) for label, k in kernels]
            impls += [
                ("torch eager", lambda: eager(a), bit_exact),
                ("torch.compile", lambda: compiled_torch(a), bit_exact),
            ]
            times = {}
            for who, run, compare in impls:
                if compare is not None:
                    ok, detail = checked(who, run, b, reference, compare)
                    if not ok:
                        failures.append("%s at n = %d: %s" % (who, n, detail))
                        print("FAIL: %s at n = %d: %s" % (who, n, detail))
                        continue
                times[who] = timed(run)
            # Every launch (checked and timed) left the counter at zero.
            if counter.item() != 0:
                failures.append("dynamic kernels at n = %d: the counter is %d after the runs"
                                % (n, counter.item()))
                print("FAIL: " + failures[-1])
            copy_ms = times["device copy (same bytes)"]
            for who, ms in times.items():
                tbps = 2 * 4 * n / (ms * 1e-3) / 1e12
                rows.append("| %d GiB%s | %s | %.3f | %.2f | %.1f %% |" % (
                    gib, " + 3 floats" if extra else "", who, ms, tbps, 100 * copy_ms / ms))
            del a, b, reference
            torch.cuda.empty_cache()
    table = ["| input | implementation | ms | TB/s (read + write) | % of copy |",
             "|---|---|---|---|---|"] + rows
    print("\n".join(table))
    if results:
        with open(results, "a") as out:
            out.write("\n".join(table) + "\n")
    return 1 if failures else 0


# Reference kernels for --explain / --profile: 16 KB chunks of 1024 float4,
# 256 threads, thread t moving float4 t, t + 256, t + 512, t + 768. Loads and
# stores are volatile asm so that nvcc keeps the order written.
CUDA = r"""
__device__ __forceinline__ float4 f(float4 v) {
  v.x = fmaxf(fmaf(v.x, 2.f, 1.f), 0.f); v.y = fmaxf(fmaf(v.y, 2.f, 1.f), 0.f);
  v.z = fmaxf(fmaf(v.z, 2.f, 1.f), 0.f); v.w = fmaxf(fmaf(v.w, 2.f, 1.f), 0.f);
  return v;
}
__device__ __forceinline__ float4 ldv(const float4 *p) { float4 v;
  asm volatile("ld.global.v4.f32 {%0,%1,%2,%3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p) : "memory"); return v; }
__device__ __forceinline__ void stv(float4 *p, float4 v) {
  asm volatile("st.global.v4.f32 [%0], {%1,%2,%3,%4};"
               :: "l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w) : "memory"); }
template <bool FIRST> __device__ __forceinline__ void chunk(const float4 *a, float4 *b, long c) {
  long base = c * 1024 + threadIdx.x;
  if (FIRST) {
    float4 v[4];
#pragma unroll
    for (int u = 0; u < 4; u++) v[u] = ldv(a + base + u * 256);
#pragma unroll
    for (int u = 0; u < 4; u++) stv(b + base + u * 256, f(v[u]));
  } else {
#pragma unroll
    for (int u = 0; u < 4; u++) stv(b + base + u * 256, f(ldv(a + base + u * 256)));
  }
}
__device__ __forceinline__ unsigned long long now() {
  unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
// stamps[3 b ...]: CTA b's start and end (ns) and its SM | chunks << 32.
__device__ __forceinline__ void stamp(unsigned long long *stamps, unsigned long long start, int chunks) {
  if (stamps && threadIdx.x == 0) {
    unsigned sm; asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    stamps[3 * blockIdx.x] = start; stamps[3 * blockIdx.x + 1] = now();
    stamps[3 * blockIdx.x + 2] = sm | ((unsigned long long)chunks << 32);
  }
}
template <bool FIRST> __device__ void walk(const float4 *a, float4 *b, long n4, unsigned long long *stamps) {
  unsigned long long start = now();
  long nc = n4 / 1024; int done = 0;
  for (long c = blockIdx.x; c < nc; c += gridDim.x, done++) chunk<FIRST>(a, b, c);
  __syncthreads(); stamp(stamps, start, done);
}
// Chunks blockIdx.x, then gridDim.x + atomicAdd(counter, 1), fetched one chunk ahead.
template <bool FIRST> __device__ void dynamic(const float4 *a, float4 *b, long n4, unsigned *counter,
                                              unsigned long long *stamps) {
  __shared__ long next[2];
  unsigned long long start = now();
  long nc = n4 / 1024, c = blockIdx.x; int k = 0, done = 0;
  if (threadIdx.x == 0) next[0] = gridDim.x + (long)atomicAdd(counter, 1u);
  __syncthreads();
  while (c < nc) {
    long following = next[k];
    if (threadIdx.x == 0) next[k ^ 1] = gridDim.x + (long)atomicAdd(counter, 1u);
    chunk<FIRST>(a, b, c);
    __syncthreads();
    c = following; k ^= 1; done++;
  }
  stamp(stamps, start, done);
}
#define K extern "C" __global__ void __launch_bounds__(256)
K ref_walk_first(const float4 *a, float4 *b, long n4, unsigned long long *s) { walk<true>(a, b, n4, s); }
K ref_walk_one(const float4 *a, float4 *b, long n4, unsigned long long *s) { walk<false>(a, b, n4, s); }
K ref_dynamic_first(const float4 *a, float4 *b, long n4, unsigned *c, unsigned long long *s) { dynamic<true>(a, b, n4, c, s); }
K ref_dynamic_one(const float4 *a, float4 *b, long n4, unsigned *c, unsigned long long *s) { dynamic<false>(a, b, n4, c, s); }
K ref_one_pass_first(const float4 *a, float4 *b) { chunk<true>(a, b, blockIdx.x); }
K ref_one_pass_one(const float4 *a, float4 *b) { chunk<false>(a, b, blockIdx.x); }
"""


def references(sms, a, b):
    """The CUDA reference kernels on a, b (n a multiple of 4096): (label,
    launch(stamps or None)) pairs; a dynamic kernel takes a fresh zeroed
    counter at every launch."""
    import cupy as cp
    module = cp.RawModule(code=CUDA, options=("-std=c++17",))
    k = {name: module.get_function("ref_" + name) for name in
         ("walk_first", "walk_one", "dynamic_first", "dynamic_one", "one_pass_first",
          "one_pass_one")}
    n4 = a.numel() // 4
    A, B, N4 = cp.asarray(a), cp.asarray(b), cp.int64(n4)
    counters, used = cp.zeros(1 << 16, dtype=cp.uint32), [0]
    null = cp.uint64(0)

    def counter():
        used[0] += 1
        return counters[used[0]:]
    refs = []
    for order, tag in (("first", "loads first"), ("one", "one vector at a time")):
        refs.append(("CUDA static grid-stride 8/SM, %s" % tag,
                     lambda s=None, o=order: k["walk_" + o]((8 * sms,), (256,),
                                                             (A, B, N4, null if s is None else s))))
        refs.append(("CUDA dynamic (atomic counter) 8/SM, %s" % tag,
                     lambda s=None, o=order: k["dynamic_" + o](
                         (8 * sms,), (256,), (A, B, N4, counter(), null if s is None else s))))
        refs.append(("CUDA one pass, %s" % tag,
                     lambda s=None, o=order: k["one_pass_" + o]((n4 // 1024,), (256,), (A, B))))
    return refs


def explain():
    import cupy as cp
    sms = torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count
    failures = 0
    for gib in (1, 4):
        n = gib << 28
        a = torch.randn(n, device="cuda")
        b = torch.empty_like(a)
        reference = torch.clamp_min(a.double() * 2 + 1, 0).float()
        impls = [("device copy (same bytes)", lambda: b.copy_(a))] + references(sms, a, b)
        times = {}
        for who, run in impls:
            if who.startswith("CUDA"):
                ok, detail = checked(who, run, b, reference, bit_exact)
                if not ok:
                    failures += 1
                    print("FAIL: %s at n = %d: %s" % (who, n, detail))
                    continue
            times[who] = timed(run)
        for who, ms in times.items():
            print("| %d GiB | %s | %.3f | %.1f %% |" % (
                gib, who, ms, 100 * times["device copy (same bytes)"] / ms))
        # Per-SM timeline (median launch of 5 by span) of the walks that stamp.
        for who, run in impls[1:]:
            if "one pass" in who:
                continue
            launches = []
            for _ in range(5):
                stamps = cp.zeros(3 * 8 * sms, dtype=cp.uint64)
                run(stamps)
                torch.cuda.synchronize()
                s = stamps.get().reshape(-1, 3).tolist()
                origin = min(x[0] for x in s)
                ends = [(x[1] - origin) / 1e3 for x in s]
                launches.append((max(ends), ends, [x[2] & 0xffffffff for x in s],
                                 [x[2] >> 32 for x in s]))
            span, ends, sm, chunks = sorted(launches)[2]
            last, per_sm = {}, {}
            for e, m, c in zip(ends, sm, chunks):
                last[m] = max(last.get(m, 0.0), e)
                per_sm[m] = per_sm.get(m, 0) + c
            fast = sorted(m for m in per_sm if per_sm[m] > 1.2 * statistics.median(per_sm.values()))
            early = sorted(m for m in last if last[m] < 0.85 * span)
            print("  %d GiB, %s: last CTA ends %.0f us after the first starts; an SM's last CTA ends "
                  "min %.0f / median %.0f / max %.0f us; chunks per SM min %d / median %d / "
                  "max %d; SMs done before 85 %% of the span: %s; SMs with > 1.2 x the "
                  "median chunks: %s" % (
                      gib, who, span, min(last.values()), statistics.median(last.values()),
                      max(last.values()), min(per_sm.values()), statistics.median(per_sm.values()),
                      max(per_sm.values()), early or "none", fast or "none"))
        del a, b, reference
        torch.cuda.empty_cache()
    return 1 if failures else 0


def profile():
    """Each main kernel once at 1 GiB (under ncu), after a check run."""
    sms = torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count
    a = torch.randn(1 << 28, device="cuda")
    b = torch.empty_like(a)
    reference = torch.clamp_min(a.double() * 2 + 1, 0).float()
    runs = []
    for label, kernel in (
            ("TirX persistent 8/SM x 256 thr, one vector at a time (default)",
             make_kernel(sms, 256, 4, 8, loads_first=False)),
            ("TirX persistent 8/SM x 256 thr, loads first",
             make_kernel(sms, 256, 4, 8, loads_first=True)),
            ("TirX grid-stride 256/SM x 256 thr, one vector at a time",
             make_kernel(sms, 256, 4, 256, loads_first=False)),
            ("TirX one pass 256 thr", make_one_pass_kernel(256, 4))):
        compiled = tirx.compile(kernel, target="cuda")
        runs.append((label, lambda k=compiled: k(a, b)))
    dynamic = tirx.compile(make_dynamic_kernel(sms, 256, 4, 8), target="cuda")
    counter = counter_for(a.device)
    runs.append(("TirX dynamic (atomic counter) 8/SM x 256 thr, one vector at a time",
                 lambda: dynamic(a, b, counter)))
    runs += references(sms, a, b)
    failures = 0
    for i, (who, run) in enumerate(runs):
        ok, detail = checked(who, run, b, reference, bit_exact)
        failures += not ok
        print("launch %d: %s: %s" % (i, who, "ok" if ok else "FAIL: " + detail))
    return 1 if failures else 0


if __name__ == "__main__":
    if "--explain" in FLAGS:
        sys.exit(explain())
    if "--profile" in FLAGS:
        sys.exit(profile())
    sys.exit(main(ARGS[1] if len(ARGS) > 1 else None))
