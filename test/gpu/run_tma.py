"""GPU truth of TMA copies (docs/hopper.md), through the Python package and
its launcher (which encodes the tensor maps): for every rank 1-5, several
element widths and swizzles, boxes inside the tensor and overhanging it
(negative and past-the-end coordinates), one thread loads the box into
shared memory (mbarrier + expect_tx + try_wait), then stores the image
twice: to C at the origin (C is the box: it shows the load's zero fill) and
to B at the box's own coordinates (clipped to the tensor; only when no
coordinate is negative: the H200 faults on a store at a negative
coordinate, docs/hopper.md). Innermost coordinates are multiples of 16
bytes (the H200 faults otherwise). Both are compared with a host model bit
for bit. Swizzled images (32, 64 and 128-byte modes): the box is stored back
through the swizzle (the round trip) and through a plain view of the image
(the bytes as the hardware arranged them, against a host model of the
swizzle). Prints PASS:/FAIL: per case; exit 1 on any failure.
Usage: run_tma.py [--only=TEXT...] [--no-stores|--no-store-b|--no-store-c]
(torch, CUDA GPU). test/python/test_interpreter.py runs the same kernels,
cases and models on the CPU interpreter."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "python"))
import tirx  # noqa: E402
from tirx.script import tirx as T  # noqa: E402
from tirx.layout import TileLayout  # noqa: E402

BYTES = {"uint8": 1, "bfloat16": 2, "float32": 4, "float64": 8}


ONLY = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--only=")]
STORES = "--no-stores" not in sys.argv
STORE_C = "--no-store-c" not in sys.argv
STORE_B = "--no-store-b" not in sys.argv


def swizzled_layout(box, dtype, mode):
    """The row-major box with TMA's `mode`-byte swizzle (docs/layouts.md)."""
    per_element = {1: 4, 2: 3, 4: 2, 8: 1}[BYTES[dtype]]
    strides, step = [], 1
    for extent in reversed(box):
        strides.insert(0, step)
        step *= extent
    return TileLayout("S[(%s) : (%s)] + Swizzle[%d, %d, 3]" % (
        ", ".join(map(str, box)), ", ".join(map(str, strides)), per_element,
        {32: 1, 64: 2, 128: 3}[mode]))


def load_box(img, box_region, bar, nbytes, rank):
    """Thread code: one TMA load of `box_region` into `img`, completing on
    the mbarrier `bar` (init, fence, expect_tx, the copy, the wait)."""
    load = ("cp.async.bulk.tensor.%dd.shared::cluster.global.tile."
            "mbarrier::complete_tx::bytes" % rank)
    T.ptx.mbarrier.init(bar.data, 1)
    T.ptx.fence.proxy.async_.shared__cta()
    T.ptx.mbarrier.arrive.expect_tx(bar.data, nbytes)
    T.cuda.tile.apply(T.ptx[load], img, box_region, bar, scope="thread")
    T.ptx.mbarrier.try_wait(bar.data, 0)


def store_spelling(rank):
    return "cp.async.bulk.tensor.%dd.global.shared::cta.tile.bulk_group" % rank


def box_regions(coords, box):
    """(where, origin): the box at runtime coordinates (block index 0 plus
    the case's: a box may then overhang the tensor, which only TMA's
    clipping allows), and the whole of a box-shaped tensor."""
    zero = T.cuda.block_idx("x")
    where = tuple(slice(zero + c, zero + c + b) for c, b in zip(coords, box))
    return where, tuple(slice(0, b) for b in box)


def finish_stores():
    """Thread code: commit the bulk stores and wait for their completion."""
    T.cuda.tile.apply(T.ptx["cp.async.bulk.commit_group"], scope="thread")
    T.cuda.tile.apply(T.ptx["cp.async.bulk.wait_group"], T.int32(0), scope="thread")


def swizzle_kernel(shape, box, dtype, coords, mode):
    """Loads the box into a `mode`-swizzled image, stores it back through
    the same swizzle to C (the round trip: C is the box) and through a
    plain view of the same bytes to R (R holds the image as the hardware
    arranged it, for the host model of the swizzle)."""
    rank = len(shape)
    store = store_spelling(rank)
    nbytes = int(np.prod(box)) * BYTES[dtype]

    @T.function
    def tma_swizzle(A: T.Tensor(shape, dtype, align=16), C: T.Tensor(box, dtype, align=16),
                    R: T.Tensor(box, dtype, align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        img = T.alloc_shared(box, dtype, align=1024, layout=swizzled_layout(box, dtype, mode))
        raw = img.view(box, layout=TileLayout("S[(%s) : (%s)]" % (
            ", ".join(map(str, box)),
            ", ".join(str(int(np.prod(box[i + 1:]))) for i in range(len(box))))))
        bar = T.alloc_shared((1,), "uint64", align=8)
        where, origin = box_regions(coords, box)
        with T.If(T.cuda.thread_idx("x") == 0):
            with T.Then():
                load_box(img, A[where], bar, nbytes, rank)
                T.cuda.tile.apply(T.ptx[store], C[origin], img, scope="thread")
                T.cuda.tile.apply(T.ptx[store], R[origin], raw, scope="thread")
                finish_stores()
    return tma_swizzle


def hardware_swizzle(byte_offset, mode):
    """TMA's swizzle of a byte offset from a period-aligned base (PTX ISA):
    bits [4, 4 + n) ^= bits [7, 7 + n), n = 3, 2, 1 for 128, 64, 32 bytes."""
    n = {128: 3, 64: 2, 32: 1}[mode]
    return byte_offset ^ (((byte_offset >> 7) & ((1 << n) - 1)) << 4)


def kernel(shape, box, dtype, coords):
    rank = len(shape)
    store = store_spelling(rank)
    nbytes = int(np.prod(box)) * BYTES[dtype]

    @T.function
    def tma_copy(A: T.Tensor(shape, dtype, align=16), B: T.Tensor(shape, dtype, align=16),
                 C: T.Tensor(box, dtype, align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        img = T.alloc_shared(box, dtype, align=128)
        bar = T.alloc_shared((1,), "uint64", align=8)
        where, origin = box_regions(coords, box)
        with T.If(T.cuda.thread_idx("x") == 0):
            with T.Then():
                load_box(img, A[where], bar, nbytes, rank)
                if STORES and STORE_C:
                    T.cuda.tile.apply(T.ptx[store], C[origin], img, scope="thread")
                if STORES and STORE_B and min(coords) >= 0:
                    T.cuda.tile.apply(T.ptx[store], B[where], img, scope="thread")
                finish_stores()
    return tma_copy


def model(a, box, coords):
    """(C, B): the box read with zero fill, and B = the box's in-bounds part."""
    c = np.zeros(box, a.dtype)
    b = np.zeros_like(a)
    src, dst = [], []
    store_b = min(coords) >= 0
    for coord, extent, size in zip(coords, box, a.shape):
        lo, hi = max(coord, 0), min(coord + extent, size)
        if lo >= hi:
            return c, b
        src.append(slice(lo, hi))
        dst.append(slice(lo - coord, hi - coord))
    c[tuple(dst)] = a[tuple(src)]
    if store_b:
        b[tuple(src)] = a[tuple(src)]
    return c, b


def bits(t):
    import torch
    return t.view(torch.uint8).cpu().numpy() if t.dtype != torch.uint8 else t.cpu().numpy()


CASES = [
    # (shape, box, dtype, coordinate sets)
    ((256,), (64,), "float32", [(0,), (96,), (224,), (-16,)]),
    ((40, 72), (16, 32), "bfloat16", [(0, 0), (8, 16), (32, 48), (-4, -8)]),
    ((6, 20, 48), (2, 8, 16), "uint8", [(0, 0, 0), (5, 16, 32), (-1, -3, -16)]),
    ((3, 4, 10, 32), (2, 2, 8, 4), "float32", [(0, 0, 0, 0), (2, 3, 5, 28)]),
    ((2, 3, 4, 6, 8), (1, 2, 2, 4, 2), "float64", [(0, 0, 0, 0, 0), (1, 2, 3, 4, 6)]),
    ((64, 64), (64, 64), "bfloat16", [(0, 0), (-32, 32)]),
]

# Swizzled images: (shape, box, dtype, coordinates, swizzle bytes). A box's
# rows are at most the swizzle's width; R's bytes at offset p are the box's
# at hardware_swizzle(p) (an involution), C is the box.
SWIZZLE_CASES = [
    ((64, 128), (16, 64), "bfloat16", (8, 32), 128),
    ((64, 128), (64, 64), "bfloat16", (0, 64), 128),
    ((40, 96), (16, 32), "bfloat16", (24, 48), 64),
    ((40, 96), (8, 16), "bfloat16", (4, 16), 32),
    ((32, 64), (8, 32), "float32", (8, 0), 128),
    ((16, 256), (16, 128), "uint8", (3, 128), 128),
    ((4, 16, 64), (2, 8, 32), "bfloat16", (1, 4, 16), 64),
]


def swizzle_model(a_bytes, box, coords, dtype, mode):
    """(C, R) of a swizzle case, as bytes: the box, and the image's bytes
    as the hardware arranged them."""
    want_c, _ = model(a_bytes, tuple(box[:-1]) + (box[-1] * BYTES[dtype],),
                      tuple(coords[:-1]) + (coords[-1] * BYTES[dtype],))
    flat = want_c.reshape(-1)
    return flat, np.array([flat[hardware_swizzle(p, mode)] for p in range(flat.size)], np.uint8)


def main():
    import torch
    TORCH = {"uint8": torch.uint8, "bfloat16": torch.bfloat16, "float32": torch.float32,
             "float64": torch.float64}
    passed = failed = 0
    gen = torch.Generator(device="cpu").manual_seed(0)
    for shape, box, dtype, coordinate_sets in CASES:
        for coords in coordinate_sets:
            compiled = tirx.compile(kernel(shape, box, dtype, coords), target="cuda")
            name = "tma %dd %s box %s at %s" % (len(shape), dtype, box, coords)
            if ONLY and not any(o in name for o in ONLY):
                continue
            if dtype == "uint8":
                a = torch.randint(0, 256, shape, dtype=torch.uint8, generator=gen)
            else:
                a = torch.randn(shape, generator=gen).to(TORCH[dtype])
            A = a.cuda()
            B = torch.zeros_like(A)
            C = torch.full(box, 7, dtype=TORCH[dtype], device="cuda")
            compiled(A, B, C)
            torch.cuda.synchronize()
            want_c, want_b = model(a.view(torch.uint8).numpy() if dtype != "uint8" else a.numpy(),
                                   tuple(box[:-1]) + (box[-1] * BYTES[dtype],),
                                   tuple(coords[:-1]) + (coords[-1] * BYTES[dtype],))
            ok = np.array_equal(bits(C).reshape(want_c.shape), want_c) and \
                np.array_equal(bits(B).reshape(want_b.shape), want_b)
            print("%s: %s" % ("PASS" if ok else "FAIL", name))
            passed += ok
            failed += not ok
    for shape, box, dtype, coords, mode in SWIZZLE_CASES:
        name = "tma swizzle %dB %dd %s box %s at %s" % (mode, len(shape), dtype, box, coords)
        if ONLY and not any(o in name for o in ONLY):
            continue
        compiled = tirx.compile(swizzle_kernel(shape, box, dtype, coords, mode), target="cuda")
        if dtype == "uint8":
            a = torch.randint(0, 256, shape, dtype=torch.uint8, generator=gen)
        else:
            a = torch.randn(shape, generator=gen).to(TORCH[dtype])
        C = torch.full(box, 7, dtype=TORCH[dtype], device="cuda")
        R = torch.full(box, 7, dtype=TORCH[dtype], device="cuda")
        compiled(a.cuda(), C, R)
        torch.cuda.synchronize()
        a_bytes = a.view(torch.uint8).numpy() if dtype != "uint8" else a.numpy()
        flat, want_r = swizzle_model(a_bytes, box, coords, dtype, mode)
        ok = np.array_equal(bits(C).reshape(-1), flat) and np.array_equal(bits(R).reshape(-1), want_r)
        # The swizzle must move something (else the case checks nothing).
        ok = ok and not np.array_equal(want_r, flat)
        print("%s: %s" % ("PASS" if ok else "FAIL", name))
        passed += ok
        failed += not ok
    print("tma: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
