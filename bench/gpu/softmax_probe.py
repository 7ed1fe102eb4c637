#!/usr/bin/env python3
"""Row softmax schedules written in CUDA C++ (softmax_probe.cu, built here
with nvcc -cubin -arch=sm_90a), timed in one process beside the device copy,
TirX's examples/python/softmax.py and Triton's tutorial kernel at its best
num_warps (issue 17): does splitting a row over a thread-block cluster move
the bytes faster than one CTA per row? Every kernel first runs into a
NaN-poisoned output and is checked against float64 torch.softmax (5e-6
relative, the bound of bench/gpu/softmax.py). Each entry is timed ROUNDS
times, interleaved (stream.timed: median of 20 after 5 warm-ups), and the
median of the rounds is reported, with its spread. With SCALING=1 it also
prints the time lost against the copy as the row count grows (a fixed cost
or a rate?). bench/RESULTS.md has what it found.
Usage: [ROUNDS=n] [PROBE_ALL=1] [SCALING=1] softmax_probe.py EXAMPLES_DIR"""
import ctypes
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile

import torch

import tirx

from stream import timed

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, sys.argv[1])
import softmax as tirx_softmax  # noqa: E402

spec = importlib.util.spec_from_file_location("bench_softmax", os.path.join(here, "softmax.py"))
bench_softmax = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_softmax)

ROUNDS = int(os.environ.get("ROUNDS", "3"))
cuda = ctypes.CDLL("libcuda.so.1")
NUM_REGS = 4
# softmax_probe.cu's kernels per row length (names: family_[rows or CTAs
# per row_]threads_chunks); PROBE_ALL=1 runs every one, else the best of each
# shape, the reference for TirX's kernel.
PROBES = {4096: ["multi_2_1024_2", "online_2_1024_2", "cs_512_2"],
          16384: ["multi_1_1024_4", "online_1_1024_4", "cs_1024_4"]}
PERSISTENT = ("loop_", "pipe_", "stage_")  # grid: as many CTAs as fit at once
ALL_PROBES = {
    4096: ["row_512_2", "row_256_4", "multi_1_512_2", "multi_2_1024_2", "multi_4_1024_4",
           "multi_2_512_4", "multi_4_512_8", "inter_1_1024_1", "inter_2_1024_1",
           "inter_2_512_2", "inter_4_1024_1", "l2pf_512_2", "bulk_128_8", "bulk_256_4",
           "bulk_512_2", "cluster_2_256_2", "cluster_2_512_1", "cluster_4_128_2",
           "cluster_4_256_1", "cluster_8_128_1", "parts_2_512_2", "parts_4_512_2",
           "pair_2_256_2", "nosync_2_256_2", "loop_512_2", "pipe_512_2", "stage_512_2",
           "stage_1024_1", "cs_512_2", "online_2_1024_2"],
    16384: ["row_1024_4", "row_512_8", "multi_1_1024_4", "multi_2_1024_8", "multi_2_512_16",
            "l2pf_1024_4", "bulk_256_16", "bulk_512_8", "bulk_1024_4", "cluster_2_512_4",
            "cluster_2_1024_2", "cluster_4_512_2", "cluster_4_256_4", "cluster_8_512_1",
            "cluster_8_256_2", "parts_2_1024_4", "parts_4_1024_4", "parts_8_1024_4",
            "parts_32_1024_4", "parts_2_512_8", "parts_4_512_8", "pair_2_1024_2",
            "nosync_2_1024_2", "pair_2_512_4", "nosync_2_512_4", "loop_1024_4", "pipe_1024_4",
            "stage_1024_4", "stage_512_8", "cs_1024_4", "online_1_1024_4"]}
if os.environ.get("PROBE_ALL"):
    PROBES = ALL_PROBES
# (threads, chunks, rows per CTA)
# TirX's examples/python/softmax.py (kernel_for: make_kernel for one row per
# CTA, make_grouped_kernel for several), on whole chunks and CTAs.
TIRX = {2048: [(256, 2, 1), (512, 1, 1), (1024, 1, 2), (1024, 2, 4), (512, 2, 2)],
        4096: [(512, 2, 1), (1024, 2, 2), (1024, 4, 4), (512, 4, 2)],
        8192: [(1024, 2, 1), (512, 4, 1), (1024, 4, 2), (1024, 8, 4)],
        16384: [(1024, 4, 1), (1024, 8, 2)]}
TRITON_WARPS = {2048: (4, 8, 16), 4096: (8, 16), 8192: (8, 16, 32), 16384: (16, 32)}
SHAPES = [(32768, 4096), (8192, 16384), (65536, 2048), (16384, 8192)]
if os.environ.get("PROBE_COLS"):  # e.g. PROBE_COLS=4096,16384
    SHAPES = [shape for shape in SHAPES
              if str(shape[1]) in os.environ["PROBE_COLS"].split(",")]


def check(result, what):
    if result != 0:
        raise RuntimeError("%s: CUresult %d" % (what, result))


def build():
    cubin = os.path.join(tempfile.mkdtemp(), "softmax_probe.cubin")
    subprocess.run(["nvcc", "-cubin", "-O3", "-arch=sm_90a", "-o", cubin,
                    os.path.join(here, "softmax_probe.cu")], check=True)
    module = ctypes.c_void_p()
    check(cuda.cuModuleLoadData(ctypes.byref(module), open(cubin, "rb").read()), "load")
    return module


def launcher(module, name, x, y):
    function = ctypes.c_void_p()
    check(cuda.cuModuleGetFunction(ctypes.byref(function), module, name.encode()), name)
    regs = ctypes.c_int()
    cuda.cuFuncGetAttribute(ctypes.byref(regs), NUM_REGS, function)
    parts = int(name.split("_")[1]) if name.startswith(("cluster_", "pair_", "nosync_")) else 1
    per_cta_rows = (int(name.split("_")[1]) if name.startswith(("multi_", "inter_", "online_"))
                    else 1)
    rows, cols = x.shape
    threads, chunks = int(name.split("_")[-2]), int(name.split("_")[-1])
    smem = cols * 4 if name.startswith("bulk_") else 0
    smem = threads * chunks * 16 if name.startswith("stage_") else smem
    if smem > 48 * 1024:
        check(cuda.cuFuncSetAttribute(function, 8, smem), "smem")
    values = [ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(y.data_ptr()), ctypes.c_int(cols)]
    grid = rows * parts // per_cta_rows
    if name.startswith(PERSISTENT):
        values.append(ctypes.c_int(rows))
        per_sm = ctypes.c_int()
        check(cuda.cuOccupancyMaxActiveBlocksPerMultiprocessor(
            ctypes.byref(per_sm), function, threads, ctypes.c_size_t(smem)), "occupancy")
        sms = torch.cuda.get_device_properties(0).multi_processor_count
        grid = min(rows, sms * per_sm.value)
    args = (ctypes.c_void_p * len(values))(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p)
                                             for v in values])

    def run():
        check(cuda.cuLaunchKernel(function, grid, 1, 1, threads, 1, 1, smem,
                                  ctypes.c_void_p(torch.cuda.current_stream().cuda_stream),
                                  args, None), "launch " + name)
        return y
    run.keep = values  # the argument slots must outlive the launches
    run.grid = grid
    return run, regs.value


def main():
    torch.empty(1, device="cuda")  # the primary context, current for the driver calls
    module = build()
    triton_run, triton_version = bench_softmax.triton_softmax_factory()
    props = torch.cuda.get_device_properties(0)
    print("device: %s (%d SMs), torch %s, triton %s, rounds %d"
          % (props.name, props.multi_processor_count, torch.__version__, triton_version,
             ROUNDS))
    failed = False
    for rows, cols in SHAPES:
        x, y, reference, gbytes = bench_softmax.inputs(rows, cols)
        entries = [("device copy", lambda: y.copy_(x), "")]
        for threads, chunks, nrows in TIRX[cols]:
            kernel = tirx.compile(tirx_softmax.kernel_for(threads, chunks, nrows, whole=True),
                                  target="cuda")
            entries.append(("TirX %d thr x %d chunks x %d rows" % (threads, chunks, nrows),
                            lambda kernel=kernel: (kernel(x, y), y)[1],
                            "regs %d" % kernel.registers))
        for warps in TRITON_WARPS[cols]:
            entries.append(("Triton num_warps=%d" % warps,
                            lambda warps=warps: (triton_run(x, y, warps), y)[1], ""))
        for name in PROBES.get(cols, ()):
            run, regs = launcher(module, name, x, y)
            entries.append(("CUDA " + name, run, "regs %d, grid %d" % (regs, run.grid)))
        for label, run, _ in entries[1:]:
            if "nosync_" in label:
                continue  # timing only: each CTA normalizes its half on its own
            y.fill_(float("nan"))
            out = run()
            torch.cuda.synchronize()
            error = ((out.double() - reference).abs()
                     / reference.abs().clamp_min(1e-30)).max().item()
            if not error <= bench_softmax.RTOL:
                print("FAIL: %s: max relative error %.3g" % (label, error))
                failed = True
        times = {label: [] for label, _, _ in entries}
        for _ in range(ROUNDS):
            for label, run, _ in entries:
                times[label].append(timed(run))
        copy_ms = statistics.median(times["device copy"])
        print("\n### softmax f32 %d x %d (copy %.0f GB/s)\n" % (rows, cols, gbytes / copy_ms * 1e3))
        print("| implementation | ms (median of rounds) | % of copy | rounds' % of copy | notes |")
        print("|---|---|---|---|---|")
        for label, _, notes in entries:
            ms = statistics.median(times[label])
            print("| %s | %.4f | %.1f | %s | %s |" % (
                label, ms, 100 * copy_ms / ms,
                " ".join("%.1f" % (100 * copy_ms / t) for t in times[label]), notes))
    if os.environ.get("SCALING"):
        scaling()
    return 1 if failed else 0


def scaling():
    """Time lost against the copy, in microseconds, as the row count grows:
    a constant loss is a fixed cost (launch, ramp, the last wave's tail),
    a loss that grows with the rows is a rate."""
    module = build()
    triton_run, _ = bench_softmax.triton_softmax_factory()
    for cols, kernels, warps in ((4096, ("row_512_2", "multi_2_1024_2"), 16),
                                 (16384, ("row_1024_4", "multi_2_1024_8"), 32)):
        print("\n### lost against the copy, %d columns (microseconds)\n" % cols)
        print("| rows | copy us | " + " | ".join(kernels) + " | Triton %d |" % warps)
        print("|---|---|" + "---|" * (len(kernels) + 1))
        base = 32768 if cols == 4096 else 8192
        for rows in (base // 4, base // 2, base, base * 2):
            x = torch.randn(rows, cols, device="cuda")
            y = torch.empty_like(x)
            runs = [lambda: y.copy_(x)] + [launcher(module, k, x, y)[0] for k in kernels]
            runs.append(lambda: triton_run(x, y, warps))
            times = [statistics.median([timed(run) for _ in range(ROUNDS)]) for run in runs]
            print("| %d | %.1f | " % (rows, times[0] * 1e3) + " | ".join(
                "%+.1f" % ((t - times[0]) * 1e3) for t in times[1:]) + " |")


if __name__ == "__main__":
    sys.exit(main())
