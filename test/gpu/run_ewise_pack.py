"""GPU truth of tile.ewise results of a 16-bit float type packed two to a
32-bit word (docs/lowering.md, "16-bit results share a word"): an f32 ⇒
bf16 / f16 ewise whose tile is stored through a uint32 view compiles to one
cvt.rn.{bf16x2|f16x2}.f32 per word (the higher element in the upper half)
instead of a conversion per element and shl/or. Here the packed kernel's
words are compared bit for bit with

- numpy's round-to-nearest-even of the same floats (NaNs: any NaN), for the
  plain conversion, over signed zeros, infinities, NaNs, subnormals, the
  largest finite values, halfway cases and random bit patterns;
- the same ewise stored 16 bits at a time (st.global.v4.b16: one scalar
  cvt.rn per element), NaNs included, for the conversion and for a SiLU
  computed in f32 and rounded to the 16-bit type.

A swapped pair of halves, a wrong rounding or a lost element fails.
Prints PASS:/FAIL: per case; exit 1 on any failure.
Usage: run_ewise_pack.py   (cupy, numpy, a CUDA GPU; run with the bundle's
python/ on PYTHONPATH and TIRX_LIBRARY=lib, as run.sh does)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "python"))
from tirx.script import tirx as T  # noqa: E402
from tirx.layout import S, TileLayout  # noqa: E402
from tirx.cuda.axis import laneid, warpid  # noqa: E402

WARPS = 4
PER_THREAD = 8  # floats per thread: two ld.global.v4.b32, four packed words
CHUNK = WARPS * 32 * PER_THREAD  # floats per CTA
DTYPES = ("bfloat16", "float16")


def convert(value, dtype):
    return getattr(T, dtype)(value)


def silu(value, dtype):
    return getattr(T, dtype)(value / (T.float32(1) + T.exp(-value)))


BODIES = {"convert": convert, "silu": silu}


def make_kernel(dtype, body, packed, ctas):
    """`ctas` CTAs of WARPS warps; thread (w, l) of CTA b converts the 8
    floats A[b, w, l, :] with `body` into a (WARPS, 32, 8) `dtype` register
    tile by tile.ewise, and stores them as four uint32 words (packed) or as
    eight uint16 halves, two st.global.v4.b16 (not packed)."""
    registers = TileLayout(S[(WARPS, 32, PER_THREAD) : (1 @ warpid, 1 @ laneid, 1)])

    @T.function(private=True)
    def scalar(value: T.float32) -> getattr(T, dtype):
        return body(value, dtype)

    out_shape = (ctas, WARPS, 32, PER_THREAD // 2 if packed else PER_THREAD)
    out_dtype = "uint32" if packed else "uint16"

    @T.function
    def ewise_pack(A: T.Tensor((ctas, WARPS, 32, PER_THREAD), "float32", align=16),
                   B: T.Tensor(out_shape, out_dtype, align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=ctas, block=WARPS * 32))
        bx = T.cuda.block_idx("x")
        x = T.alloc_local((WARPS, 32, PER_THREAD), "float32", layout=registers)
        halves = x.view(WARPS, 32, 2, 4)
        source = A.sub[bx, :, :, :].view(WARPS, 32, 2, 4)
        for half in range(2):
            T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], halves[:, :, half, :],
                              source[:, :, half, :], scope="cta")
        y = T.alloc_local((WARPS, 32, PER_THREAD), dtype, layout=registers)
        T.cuda.tile.ewise(scalar, y, x, scope="cta")
        if packed:
            T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B.sub[bx, :, :, :],
                              y.view("uint32"), scope="cta")
        else:
            bits = y.view("uint16").view(WARPS, 32, 2, 4)
            target = B.sub[bx, :, :, :].view(WARPS, 32, 2, 4)
            for half in range(2):
                T.cuda.tile.apply(T.ptx["st.global.v4.b16"], target[:, :, half, :],
                                  bits[:, :, half, :], scope="cta")

    return ewise_pack


def inputs():
    """float32 values, a whole number of CTAs' chunks: specials, halfway
    cases of both 16-bit types (and their neighbours), a sweep and random
    bits."""
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, -1.0,
                         65504.0, 65519.996, 65520.0, -65520.0, 6.1035156e-05,
                         5.9604645e-08, 2.9802322e-08, 1e-40, -1e-40,
                         3.3895314e38, 3.4028235e38, -3.4028235e38], dtype=np.float32)
    bits = np.array([0x7FC00000, 0xFFC00001, 0x7F800001, 0x7FFFFFFF,  # NaNs
                     0x00000001, 0x80000001, 0x007FFFFF, 0x00800000,  # subnormals, min normal
                     0x7F7FFFFF, 0x7F7F8000, 0x7F7F7FFF], dtype=np.uint32)
    # bf16 halfway points (low 16 bits 0x8000) with even and odd kept parts,
    # and f16 halfway points (13 dropped bits 0x1000), each with neighbours.
    base = np.array([0x3F800000, 0x3F810000, 0x40490000, 0xC0490000,
                     0x3F800000 | 0x2000, 0x3F800000 | 0x6000], dtype=np.uint32)
    halfway = np.concatenate([base | 0x8000, base | 0x1000])
    near = np.concatenate([halfway - 1, halfway, halfway + 1]).astype(np.uint32)
    sweep = np.linspace(-70000, 70000, 1 << 16, dtype=np.float32)
    rng = np.random.default_rng(7)
    random_bits = rng.integers(0, 1 << 32, 1 << 16, dtype=np.uint64).astype(np.uint32)
    values = np.concatenate([specials, bits.view(np.float32), near.view(np.float32),
                             sweep, random_bits.view(np.float32)])
    padded = -(-values.size // CHUNK) * CHUNK
    return np.resize(values, padded)


def round_to(values, dtype):
    """numpy's float32 ⇒ `dtype` with round-to-nearest-even, as uint16 bits
    (NaNs as 0x7FFF: only their NaN-ness is compared)."""
    values = np.asarray(values, np.float32)
    if dtype == "float16":
        with np.errstate(over="ignore"):  # to infinity, as cvt.rn does
            out = values.astype(np.float16).view(np.uint16).copy()
    else:
        bits = values.view(np.uint32).astype(np.uint64)
        out = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    out[np.isnan(values)] = 0x7FFF
    return out


def is_nan16(bits, dtype):
    bits = np.asarray(bits, np.uint16)
    if dtype == "float16":
        return (bits & 0x7C00 == 0x7C00) & (bits & 0x03FF != 0)
    return (bits & 0x7F80 == 0x7F80) & (bits & 0x007F != 0)


def unpack(words):
    """uint32 words as their uint16 halves in memory order (low half
    first): element 2k, then 2k + 1."""
    return np.asarray(words, np.uint32).reshape(-1).view(np.uint16)


def mismatches(got, expected, dtype, nan_exact):
    """Indices where the 16-bit results differ: bit for bit, except that
    with nan_exact=False a NaN matches any NaN."""
    got = np.asarray(got, np.uint16).reshape(-1)
    expected = np.asarray(expected, np.uint16).reshape(-1)
    differ = got != expected
    if not nan_exact:
        differ &= ~(is_nan16(got, dtype) & is_nan16(expected, dtype))
    return np.flatnonzero(differ)


def describe(index, values, got, expected):
    return "element %d: input %r (0x%08x) gave 0x%04x, expected 0x%04x" % (
        index, float(values[index]), int(values.view(np.uint32)[index]),
        int(got[index]), int(expected[index]))


def main():
    import cupy as cp

    import tirx

    values = inputs()
    ctas = values.size // CHUNK
    a = cp.asarray(values.reshape(ctas, WARPS, 32, PER_THREAD))
    failures = 0
    for dtype in DTYPES:
        for name, body in BODIES.items():
            results = {}
            for packed in (True, False):
                kernel = tirx.compile(make_kernel(dtype, body, packed, ctas), target="cuda")
                width = PER_THREAD // 2 if packed else PER_THREAD
                host = np.full((ctas, WARPS, 32, width), 0xFFFFFFFF if packed else 0xFFFF,
                               dtype=np.uint32 if packed else np.uint16)
                b = cp.asarray(host)
                kernel(a, b)
                got = cp.asnumpy(b)
                results[packed] = unpack(got) if packed else got.reshape(-1)
            checks = [("packed = 16-bit stores, bit for bit",
                       results[True], results[False], True)]
            if name == "convert":
                checks.append(("packed = numpy round-to-nearest-even",
                               results[True], round_to(values, dtype), False))
            for what, got, expected, nan_exact in checks:
                bad = mismatches(got, expected, dtype, nan_exact)
                label = "%s %s: %s (%d values)" % (name, dtype, what, values.size)
                if bad.size:
                    failures += 1
                    print("FAIL: %s: %d mismatches; first %s" % (
                        label, bad.size, describe(bad[0], values, got, expected)))
                else:
                    print("PASS: %s" % label)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
