#!/usr/bin/env python3
"""Runtime sizes on a GPU (issue 15, docs/sizes.md): the persistent
grid-stride affine-ReLU of examples/python/affine_relu_persistent.py, one
kernel compiled once for every n, against a device-to-device copy of the same
bytes, eager PyTorch and torch.compile, in one process, timed as stream.py
times (CUDA events, median of 20 after 5 warm-ups, each run queued behind a
sleep kernel). Sizes: 1 and 4 GiB of input, and the same plus 3 floats (a
partial last chunk). Every implementation first runs into an output poisoned
with NaN and is compared bit for bit with a float64 reference rounded once.
Usage: sizes.py EXAMPLES_DIR [RESULTS.md]"""
import sys

import torch

import tirx

from stream import bit_exact, checked, timed

sys.path.insert(0, sys.argv[1])
from affine_relu_persistent import (make_kernel, make_one_pass_kernel,  # noqa
                                    make_pipelined_kernel)

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


if __name__ == "__main__":
    sys.exit(main(sys.argv[2] if len(sys.argv) > 2 else None))
