#!/usr/bin/env python3
"""Row softmax, float32, on a GPU (issue 17): TirX's examples/python/softmax.py
against a device-to-device copy of the same bytes (read x, write y), eager
torch.softmax, torch.compile of it, and Triton 3's fused-softmax tutorial
kernel (one program per row, BLOCK_SIZE = next power of two of the row) at
every num_warps in {4, 8, 16, 32}, in one process, timed as stream.py times
(CUDA events, median of 20 after 5 warm-ups, each run queued behind a sleep
kernel) in ROUNDS interleaved rounds (rowwise.py; 5 unless set). Shapes: 32768 x 4096 and 8192 x 16384 (the issue's). Bandwidth is
2 x rows x cols x 4 bytes (read once, write once) over the time.

TirX variants, each its own row, named by (threads per CTA, 16-byte chunks
per thread, rows per CTA where the CTA holds more than one, and "one
barrier" for the online statistics): all written before this run; none is
chosen from it. Triton
gets the same chance (every num_warps); torch.compile runs in its default
mode and in mode="max-autotune".

Every implementation first runs into an output poisoned with NaN and is
checked against float64 torch.softmax: relative error at most 5e-6 per
element (the bound examples/python/softmax.py derives for |x - max| < 64;
torch, torch.compile and Triton meet it too). Usage: softmax.py EXAMPLES_DIR [RESULTS.md]"""
import sys

import torch

import tirx

from rowwise import finish, into, measure_table
from triton_softmax import triton_softmax_factory

sys.path.insert(0, sys.argv[1])
import softmax as tirx_softmax  # noqa: E402

SHAPES = [(32768, 4096), (8192, 16384)]
# (threads, chunks, rows per CTA, online statistics) per row length:
# threads / rows per CTA x 4 x chunks = the row (kernel_for: make_kernel for
# one row per CTA with two barriers, make_grouped_kernel otherwise). The
# first of each is softmax(x)'s choice. Every row is whole chunks and the
# row counts whole CTAs (whole=True: the kernels softmax(x) runs for them).
VARIANTS = {4096: [(1024, 2, 2, False), (1024, 2, 2, True), (1024, 4, 4, False),
                   (512, 2, 1, False), (256, 4, 1, False), (1024, 1, 1, False),
                   (128, 8, 1, False)],
            16384: [(1024, 4, 1, False), (512, 8, 1, False),
                    (256, 16, 1, False), (1024, 8, 2, False)]}
RTOL = tirx_softmax.RTOL  # the bound examples/python/softmax.py derives


def inputs(rows, cols):
    """x (seeded, |x - max| < 64 in practice), an output, float64
    torch.softmax of x, and the gigabytes a pass moves (read x, write y)."""
    torch.manual_seed(0)
    x = torch.randn(rows, cols, device="cuda") * 4
    return x, torch.empty_like(x), torch.softmax(x.double(), dim=-1), 2 * x.numel() * 4 / 1e9


def main(results=None):
    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    triton_run, triton_version = triton_softmax_factory()
    print("device: %s (%d SMs), torch %s, triton %s"
          % (props.name, props.multi_processor_count, torch.__version__, triton_version))
    compiled_default = torch.compile(lambda x: torch.softmax(x, dim=-1))
    compiled_max = torch.compile(lambda x: torch.softmax(x, dim=-1), mode="max-autotune")
    lines, failed = [], False
    for rows, cols in SHAPES:
        x, y, reference, gbytes = inputs(rows, cols)
        entries = []  # (label, run): run() returns the output
        entries.append(("device copy (anchor)", lambda: y.copy_(x)))
        entries.append(("torch.softmax (eager)", lambda: torch.softmax(x, dim=-1)))
        for threads, chunks, per_cta, online in VARIANTS[cols]:
            label = "TirX %d thr x %d chunks" % (threads, chunks)
            if per_cta > 1:
                label += ", %d rows per CTA" % per_cta
            label += ", one barrier (online)" if online else ""
            kernel = tirx.compile(tirx_softmax.kernel_for(threads, chunks, per_cta, online,
                                                          whole=True),
                                  target="cuda")
            entries.append((label, into(y, lambda kernel=kernel: kernel(x, y))))
        if triton_run:
            for warps in (4, 8, 16, 32):
                entries.append(("Triton num_warps=%d" % warps,
                                into(y, lambda warps=warps: triton_run(x, y, warps))))
        entries.append(("torch.compile", lambda: compiled_default(x)))
        entries.append(("torch.compile max-autotune", lambda: compiled_max(x)))
        table, bad = measure_table("softmax f32 %d x %d" % (rows, cols), entries, x, y,
                                   reference, RTOL, gbytes)
        lines += table
        failed |= bad
    return finish(lines, results, failed)


if __name__ == "__main__":
    sys.exit(main(sys.argv[2] if len(sys.argv) > 2 else None))
