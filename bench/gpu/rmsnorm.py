#!/usr/bin/env python3
"""RMSNorm, bfloat16 in and out, float32 statistics, on a GPU (issue 17):
TirX's examples/python/rmsnorm.py against a device-to-device copy of the
same bytes (read x, write y), torch.nn.functional.rms_norm, torch.compile of
it (default mode and mode="max-autotune"), an eager float32 formula in
torch, and a Triton 3 kernel of the same algorithm (one program per row,
BLOCK = next power of two of the row, float32 statistics) at every
num_warps in {4, 8, 16, 32}, in one process, timed as stream.py times (CUDA
events, median of 20 after 5 warm-ups, each run queued behind a sleep
kernel) in ROUNDS interleaved rounds (rowwise.py; 5 unless set). Shapes: 32768 x 4096 and 16384 x 8192 (the issue's). Bandwidth is
2 x rows x cols x 2 bytes (x read once, y written once; the weight is one
row) over the time.

TirX variants, each its own row, named by (threads per CTA, 16-byte chunks
per thread): all written before this run; none is chosen from it.

Every implementation first runs into an output poisoned with NaN and is
checked against a float64 RMSNorm of the bfloat16 inputs: TirX's kernels
by examples/python/rmsnorm.py's `check` (every element the float64 result
rounded to bfloat16, either neighbour within 2^-20 of a rounding boundary:
the bound that example derives), the others, which compute in other orders
and may round intermediate results, within one bfloat16 ulp (2^-7
relative).
Usage: rmsnorm.py EXAMPLES_DIR [RESULTS.md]"""
import sys

import torch

import tirx

from rowwise import finish, into, measure_table

sys.path.insert(0, sys.argv[1])
import rmsnorm as tirx_rmsnorm  # noqa: E402

SHAPES = [(32768, 4096), (16384, 8192)]
# (threads, chunks) per row length; every row is whole chunks (whole=True:
# the kernel rms_norm(x, w) runs for these rows).
VARIANTS = {4096: [(256, 2), (512, 1), (128, 4)],
            8192: [(512, 2), (1024, 1), (256, 4)]}
EPS = tirx_rmsnorm.EPS
RTOL = 2.0 ** -7  # the implementations other than TirX's: one bfloat16 ulp


def triton_factory():
    try:
        import triton
        import triton.language as tl
    except ImportError:
        return None, None

    @triton.jit
    def rms_norm_kernel(y_ptr, x_ptr, w_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        offsets = tl.arange(0, BLOCK)
        mask = offsets < n_cols
        x = tl.load(x_ptr + row * stride + offsets, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
        mean_square = tl.sum(x * x, axis=0) / n_cols
        y = x * tl.rsqrt(mean_square + eps) * w
        tl.store(y_ptr + row * stride + offsets, y.to(tl.bfloat16), mask=mask)

    def run(x, w, y, num_warps):
        rows, cols = x.shape
        rms_norm_kernel[(rows,)](y, x, w, x.stride(0), cols, EPS,
                                 BLOCK=triton.next_power_of_2(cols), num_warps=num_warps)
    return run, triton.__version__


def eager_float32(x, w):
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + EPS) * w.float()).to(x.dtype)


def main(results=None):
    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    triton_run, triton_version = triton_factory()
    print("device: %s (%d SMs), torch %s, triton %s"
          % (props.name, props.multi_processor_count, torch.__version__, triton_version))
    rms = torch.nn.functional.rms_norm
    compiled_default = torch.compile(lambda x, w: rms(x, (x.shape[-1],), w, EPS))
    compiled_max = torch.compile(lambda x, w: rms(x, (x.shape[-1],), w, EPS),
                                 mode="max-autotune")
    lines, failed = [], False
    for rows, cols in SHAPES:
        torch.manual_seed(0)
        x = torch.randn(rows, cols, device="cuda").to(torch.bfloat16)
        w = (torch.rand(cols, device="cuda") + 0.5).to(torch.bfloat16)
        y = torch.empty_like(x)
        reference = tirx_rmsnorm.reference(x, w)
        gbytes = 2 * x.numel() * 2 / 1e9
        entries = [("device copy (anchor)", lambda: y.copy_(x)),
                   ("F.rms_norm (eager)", lambda: rms(x, (cols,), w, EPS)),
                   ("eager torch, float32 formula", lambda: eager_float32(x, w))]
        for threads, chunks in VARIANTS[cols]:
            kernel = tirx.compile(tirx_rmsnorm.make_kernel(threads, chunks, whole=True),
                                  target="cuda")
            entries.append(("TirX %d thr x %d chunks" % (threads, chunks),
                            into(y, lambda kernel=kernel: kernel(x, w, y)),
                            lambda out: tirx_rmsnorm.check(out, reference)))
        if triton_run:
            for warps in (4, 8, 16, 32):
                entries.append(("Triton num_warps=%d" % warps,
                                into(y, lambda warps=warps: triton_run(x, w, y, warps))))
        entries.append(("torch.compile", lambda: compiled_default(x, w)))
        entries.append(("torch.compile max-autotune", lambda: compiled_max(x, w)))
        table, bad = measure_table("RMSNorm bf16 %d x %d" % (rows, cols), entries, x, y,
                                   reference, RTOL, gbytes)
        lines += table
        failed |= bad
    return finish(lines, results, failed)


if __name__ == "__main__":
    sys.exit(main(sys.argv[2] if len(sys.argv) > 2 else None))
