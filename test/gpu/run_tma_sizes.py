"""GPU truth of TMA boxes of runtime-sized tensors (docs/sizes.md,
docs/hopper.md), through the Python package and its launcher: one kernel per
element type, compiled once, copies an (M, K) tensor A box by box
(`A[r:r + BM, k:k + BK]`, one CTA per box, M and K size variables): one
thread loads the box into shared memory (mbarrier + expect_tx + try_wait)
and stores the image to B at the same coordinates (clipped to B's real
extents) and to C, an (MP, KP) tensor padded to whole boxes (the load's
zero fill past A's real extents). The launcher encodes each tensor map from
the tensor's real extents and strides on every call. The same compiled
kernel runs on several shapes; each result is compared with a host model
bit for bit. A shape whose row stride is not a multiple of 16 bytes must be
refused by the launcher, naming the parameter, before anything runs.
Prints PASS:/FAIL: per case; exit 1 on any failure.
Usage: run_tma_sizes.py [--only=TEXT...] (torch, CUDA GPU)."""
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "python"))
import tirx  # noqa: E402
from tirx.script import tirx as T  # noqa: E402

TORCH = {"bfloat16": torch.bfloat16, "float32": torch.float32}
BYTES = {"bfloat16": 2, "float32": 4}
LOAD = "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"

ONLY = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--only=")]


def kernel(dtype, bm, bk):
    M, K = T.dynamic("M"), T.dynamic("K")
    MP, KP = T.dynamic("MP", multiple_of=bm), T.dynamic("KP", multiple_of=bk)
    nbytes = bm * bk * BYTES[dtype]

    @T.function
    def tma_sizes(A: T.Tensor((M, K), dtype, align=16), B: T.Tensor((M, K), dtype, align=16),
                  C: T.Tensor((MP, KP), dtype, align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=(T.ceildiv(M, bm), T.ceildiv(K, bk)),
                                                  block=32))
        img = T.alloc_shared((bm, bk), dtype, align=128)
        bar = T.alloc_shared((1,), "uint64", align=8)
        r, k = T.cuda.block_idx("x") * bm, T.cuda.block_idx("y") * bk
        with T.If(T.cuda.thread_idx("x") == 0):
            with T.Then():
                T.ptx.mbarrier.init(bar.data, 1)
                T.ptx.fence.proxy.async_.shared__cta()
                T.ptx.mbarrier.arrive.expect_tx(bar.data, nbytes)
                T.cuda.tile.apply(T.ptx[LOAD], img, A[r:r + bm, k:k + bk], bar, scope="thread")
                T.ptx.mbarrier.try_wait(bar.data, 0)
                T.cuda.tile.apply(T.ptx[STORE], B[r:r + bm, k:k + bk], img, scope="thread")
                T.cuda.tile.apply(T.ptx[STORE], C[r:r + bm, k:k + bk], img, scope="thread")
                T.cuda.tile.apply(T.ptx["cp.async.bulk.commit_group"], scope="thread")
                T.cuda.tile.apply(T.ptx["cp.async.bulk.wait_group"], T.int32(0), scope="thread")
    return tma_sizes


def bits(t):
    return t.contiguous().view(torch.uint8).cpu().numpy()


# (dtype, box, shapes (M, K)): K keeps rows at whole 16-byte multiples;
# shapes smaller than a box, not a multiple of it, and many boxes.
CASES = [
    ("bfloat16", (128, 64), [(128, 64), (300, 200), (1, 8), (257, 72), (512, 1024), (1000, 8)]),
    ("float32", (64, 32), [(64, 32), (70, 36), (3, 4), (513, 260)]),
]
# Rows of 2·65 = 130 bytes: no tensor map describes them.
BAD = ("bfloat16", (128, 64), (300, 65),
       "parameter 'A': its TMA tensor map (box 128x64) needs the stride of dimension 0 to be a "
       "multiple of 16 bytes, got 2 bytes * 65 = 130 bytes (the extents inside it must "
       "multiply to a multiple of 8)")

passed = failed = 0
gen = torch.Generator(device="cpu").manual_seed(0)


def report(ok, name):
    global passed, failed
    print("%s: %s" % ("PASS" if ok else "FAIL", name))
    passed += ok
    failed += not ok


for dtype, (bm, bk), shapes in CASES:
    compiled = tirx.compile(kernel(dtype, bm, bk), target="cuda")  # once for every shape
    for m, k in shapes:
        name = "tma sizes %s box %dx%d of %dx%d" % (dtype, bm, bk, m, k)
        if ONLY and not any(o in name for o in ONLY):
            continue
        mp, kp = -(-m // bm) * bm, -(-k // bk) * bk
        a = torch.randn((m, k), generator=gen).to(TORCH[dtype])
        A = a.cuda()
        B = torch.zeros_like(A)
        C = torch.full((mp, kp), 7, dtype=TORCH[dtype], device="cuda")
        compiled(A, B, C)
        torch.cuda.synchronize()
        want_c = torch.zeros((mp, kp), dtype=TORCH[dtype])
        want_c[:m, :k] = a
        report(np.array_equal(bits(B), bits(a)) and np.array_equal(bits(C), bits(want_c)), name)

dtype, (bm, bk), (m, k), message = BAD
name = "tma sizes %s box %dx%d of %dx%d refused" % (dtype, bm, bk, m, k)
if not ONLY or any(o in name for o in ONLY):
    compiled = tirx.compile(kernel(dtype, bm, bk), target="cuda")
    A = torch.zeros((m, k), dtype=TORCH[dtype], device="cuda")
    C = torch.zeros((bm * 3, bk * 2), dtype=TORCH[dtype], device="cuda")
    try:
        compiled(A, torch.zeros_like(A), C)
        torch.cuda.synchronize()
        report(False, name + " (it launched)")
    except ValueError as error:
        report(str(error) == message, name + ("" if str(error) == message else ": " + str(error)))
print("tma sizes: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
