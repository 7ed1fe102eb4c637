"""GPU truth of the TMA reduction and tensor prefetch (docs/hopper.md),
through the Python package and its launcher (which encodes a reduction's
tensor map with the tensor's element type): one thread loads a box of S
into shared memory (TMA, mbarrier), having prefetched it into L2
(cp.async.bulk.prefetch.tensor), and reduces the image into the box of D at
the same coordinates with cp.reduce.async.bulk.tensor (add, min, max, and,
or, xor over float32, bfloat16, float16 and int32 tensors, min and max over
int64; 2-D and 3-D boxes); D outside the box keeps its values. Compared with a host model
bit for bit: each element of the box becomes `old op s`, rounded once to
the type (the inputs are N(0, 1) and small integers, so float64 holds
every exact sum). Prints PASS:/FAIL: per case; exit 1 on any failure.
Usage: run_tma_reduce.py [--case=N...] [--no-prefetch] (torch, CUDA GPU).
test/python/test_interpreter.py runs the same kernels and CASES on the CPU
interpreter."""
import os
import sys

import numpy as np

try:
    import torch
except ImportError:  # the kernels and CASES only: the interpreter's test
    torch = None

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "python"))
import tirx  # noqa: E402
from tirx.script import tirx as T  # noqa: E402

if torch is not None:
    TORCH = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16,
             "int32": torch.int32, "int64": torch.int64}
BYTES = {"float32": 4, "bfloat16": 2, "float16": 2, "int32": 4, "int64": 8}


PREFETCH = "--no-prefetch" not in sys.argv
ONLY = [int(a.split("=", 1)[1]) for a in sys.argv[1:] if a.startswith("--case=")]


def kernel(shape, box, dtype, op, coords):
    rank = len(shape)
    nbytes = int(np.prod(box)) * BYTES[dtype]
    load = ("cp.async.bulk.tensor.%dd.shared::cluster.global.tile."
            "mbarrier::complete_tx::bytes" % rank)
    prefetch = "cp.async.bulk.prefetch.tensor.%dd.L2.global.tile" % rank
    reduce = "cp.reduce.async.bulk.tensor.%dd.global.shared::cta.%s.tile.bulk_group" % (rank, op)

    @T.function
    def tma_reduce(S: T.Tensor(shape, dtype, align=16), D: T.Tensor(shape, dtype, align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        img = T.alloc_shared(box, dtype, align=128)
        bar = T.alloc_shared((1,), "uint64", align=8)
        zero = T.cuda.block_idx("x")
        where = tuple(slice(zero + c, zero + c + b) for c, b in zip(coords, box))
        with T.If(T.cuda.thread_idx("x") == 0):
            with T.Then():
                if PREFETCH:
                    T.cuda.tile.apply(T.ptx[prefetch], S[where], scope="thread")
                T.ptx.mbarrier.init(bar.data, 1)
                T.ptx.fence.proxy.async_.shared__cta()
                T.ptx.mbarrier.arrive.expect_tx(bar.data, nbytes)
                T.cuda.tile.apply(T.ptx[load], img, S[where], bar, scope="thread")
                T.ptx.mbarrier.try_wait(bar.data, 0)
                T.cuda.tile.apply(T.ptx[reduce], D[where], img, scope="thread")
                T.cuda.tile.apply(T.ptx["cp.async.bulk.commit_group"], scope="thread")
                T.cuda.tile.apply(T.ptx["cp.async.bulk.wait_group"], T.int32(0),
                                  scope="thread")
    return tma_reduce


def model(d, s, box, coords, op, dtype):
    """D after the reduction, on the host (torch on the CPU)."""
    out = d.clone()
    where = tuple(slice(c, c + b) for c, b in zip(coords, box))
    old, new = d[where], s[where]
    if dtype in ("float32", "bfloat16", "float16"):
        wide = {"add": old.double() + new.double(), "min": torch.minimum(old, new).double(),
                "max": torch.maximum(old, new).double()}[op]
        out[where] = wide.to(TORCH[dtype])
    else:
        out[where] = {"add": old + new, "min": torch.minimum(old, new),
                      "max": torch.maximum(old, new), "and": old & new, "or": old | new,
                      "xor": old ^ new}[op]
    return out


def bits(t):
    return t.view({2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()])


CASES = [
    ((128, 64), (32, 32), "float32", "add", (32, 0)),
    ((128, 64), (32, 32), "bfloat16", "add", (64, 32)),
    ((128, 64), (32, 32), "float16", "add", (0, 32)),
    ((128, 64), (64, 16), "bfloat16", "max", (0, 16)),
    ((128, 64), (64, 16), "float16", "min", (32, 48)),
    ((128, 64), (16, 16), "int32", "add", (16, 16)),
    ((128, 64), (16, 16), "int32", "min", (0, 0)),
    ((128, 64), (16, 16), "int32", "max", (48, 32)),
    ((128, 64), (16, 16), "int32", "xor", (16, 0)),
    ((8, 32, 64), (2, 8, 16), "int32", "or", (2, 8, 16)),
    ((8, 32, 64), (2, 8, 16), "int32", "and", (4, 0, 32)),
    ((8, 32, 64), (2, 8, 16), "int64", "max", (2, 16, 16)),
    ((8, 32, 64), (2, 8, 16), "int64", "min", (6, 8, 48)),
    ((8, 32, 64), (2, 8, 32), "float32", "add", (2, 16, 32)),
]


def main():
    failures = 0
    generator = torch.Generator().manual_seed(0)
    for index, (shape, box, dtype, op, coords) in enumerate(CASES):
        if ONLY and index not in ONLY:
            continue
        label = "%s %s box %s at %s of %s" % (op, dtype, box, coords, shape)
        if dtype.startswith("int"):
            s = torch.randint(-1000, 1000, shape, generator=generator).to(TORCH[dtype])
            d = torch.randint(-1000, 1000, shape, generator=generator).to(TORCH[dtype])
        else:
            s = torch.randn(shape, generator=generator).to(TORCH[dtype])
            d = torch.randn(shape, generator=generator).to(TORCH[dtype])
        compiled = tirx.compile(kernel(shape, box, dtype, op, coords),
                                target={"kind": "cuda", "arch": "sm_90a"})
        declared = compiled.tensor_map_types
        gs, gd = s.cuda(), d.cuda()
        compiled(gs, gd)
        torch.cuda.synchronize()
        got, want = gd.cpu(), model(d, s, box, coords, op, dtype)
        wrong = int((bits(got) != bits(want)).sum())
        if wrong:
            failures += 1
            print("FAIL: %s: %d elements differ from the host model (maps %s)"
                  % (label, wrong, declared))
        else:
            print("PASS: %s: bit-exact (maps declare %s)" % (label, declared))
    print("tma reduce: %d failed" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
