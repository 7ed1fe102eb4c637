# RMSNorm of a bfloat16 (rows, cols) tensor with a bfloat16 weight, float32
# statistics: y = x / sqrt(mean(x^2) + eps) * w, rounded to bfloat16 once.
# Both extents are known at run time: `rows` is the grid, `cols` any
# multiple of the chunk (threads x 8) up to the kernel's capacity
# (threads x 8 x chunks, declared as the size variable's at_most: the
# launcher refuses a longer row); `rms_norm(x, w)` picks a compiled kernel
# whose capacity covers the row.
#
# One CTA per row; warp w, lane l holds, in chunk r, the eight columns
# r*C + 256 w + 8 l + (0..7) (C = threads x 8): one 16-byte load per thread
# and chunk, coalesced across the CTA, widened to float32 by one
# cvt.f32.bf16 per element. Chunks past `cols` are not loaded (a predicate
# every thread shares) and keep 0, adding nothing to the sum of squares, and
# are not stored. The sum is float32 fmas into 8 partial sums per thread,
# added as a tree, then
# T.cuda.cta_reduce (warp butterflies + one shared-memory exchange); the
# scale is rsqrt.approx.f32 of sum / cols + eps; the result is packed two
# elements at a time by cvt.rn.bf16x2.f32.
#
# Accuracy (checked element by element by `check`, here and in
# bench/gpu/rmsnorm.py): before the final rounding y is float32 within
# 2^-20.4 relative of the float64 result, so y is that result rounded to
# bfloat16, except within 2^-20 of a rounding boundary, where it may be the
# other neighbour. With u = 2^-24 (float32 rounding), for inputs in bfloat16:
# - x^2 is exact in float32 (8 significant bits squared); a term of the sum
#   of squares then passes through at most (chunks - 1) fmas, the 3 adds
#   of the tree, 5 + log2(warps) butterfly adds: 14 roundings at most
#   (chunks 4, 8 warps; every configuration of make_kernel that rms_norm
#   or bench/gpu/rmsnorm.py runs is at most 14), and a sum of nonnegative
#   terms each rounded at most d times is within d u relative: 14 u;
# - / cols (exact divisor) and + eps: 2 u more (eps's own float32 rounding
#   is 2^-24 eps, negligible against a mean square near 1), so the argument
#   of rsqrt is within 16 u;
# - rsqrt halves that (8 u) and rsqrt.approx.f32 adds at most 2^-22.9
#   (PTX ISA);
# - x * scale and * w: 2 u.
# Total: 10 u + 2^-22.9 = 7.2e-7 < 2^-20 = 9.5e-7. A reduction that drops
# one thread's partial sum (1 of 256) moves the scale by about 2^-9, which
# changes the rounding of many elements; the one-ulp (2^-7 relative) bound
# this replaces accepted it.
import sys

from tirx.script import tirx as T
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, warpid

EPS = 1e-6
ACCURACY = 2.0 ** -20  # y before its bfloat16 rounding, relative (see Accuracy above)
CASES = ((1, 2048), (3, 4096), (7, 6144), (5, 8192))  # __main__'s (rows, cols)


def make_kernel(threads=256, chunks=2, eps=EPS):
    """An RMSNorm kernel for rows of up to threads * 8 * chunks columns."""
    warps = threads // 32
    chunk = threads * 8
    rows = T.dynamic("rows")
    # Longer rows do not fit the registers: the launcher refuses them.
    cols = T.dynamic("cols", multiple_of=chunk, at_most=chunk * chunks)
    # 16 bytes per thread and chunk: warp w, lane l, chunk r, word k.
    words = TileLayout(S[(warps, 32, chunks, 4) : (1 @ warpid, 1 @ laneid, 4, 1)])
    # The same elements as float32, one register each.
    floats = TileLayout(S[(warps, 32, chunks * 8, 1) : (1 @ warpid, 1 @ laneid, 1, 1)])
    lanes = TileLayout(S[(warps, 32, 1) : (1 @ warpid, 1 @ laneid, 1)])

    def per_thread(k):
        return TileLayout(S[(warps, 32, k, 1) : (1 @ warpid, 1 @ laneid, 1, 1)])

    def apply(name, *operands, **kwargs):
        T.cuda.tile.apply(T.ptx[name], *operands, scope="cta", **kwargs)

    def load_floats(source, present):
        """The row's chunks of `source` (a bf16 row) as float32 registers."""
        raw = T.alloc_local((warps, 32, chunks, 4), "uint32", layout=words)
        apply("mov.b32", raw.view(warps, 32, chunks * 4, 1), T.uint32(0))
        for r in T.unroll(chunks):
            apply("ld.global.v4.b32", raw.sub[:, :, r, :],
                  source(r).view("uint32").view(warps, 32, 4), pred=present(r))
        values = T.alloc_local((warps, 32, chunks * 8, 1), "float32", layout=floats)
        apply("cvt.f32.bf16", values, raw.view("bfloat16").view(warps, 32, chunks * 8, 1))
        return values

    @T.function
    def rms_norm(X: T.Tensor((rows, cols), "bfloat16", align=16),
                 W: T.Tensor((cols,), "bfloat16", align=16),
                 Y: T.Tensor((rows, cols), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=rows, block=threads))
        row = T.cuda.block_idx("x")

        def present(r):
            return r * chunk < cols
        x = load_floats(lambda r: X.sub[row, r * chunk:(r + 1) * chunk], present)
        w = load_floats(lambda r: W[r * chunk:(r + 1) * chunk], present)
        # Sum of squares, per thread then over the CTA: 8 partial sums (a
        # slice of 8 values at a time), then a tree, so the chain of
        # dependent steps is n / 8 + 3 long rather than n.
        partial = T.alloc_local((warps, 32, 8, 1), "float32", layout=per_thread(8))
        apply("mul.rn.f32", partial, x.sub[:, :, 0:8, :], x.sub[:, :, 0:8, :])
        for start in range(8, chunks * 8, 8):
            part = x.sub[:, :, start:start + 8, :]
            apply("fma.rn.f32", partial, part, part, partial)
        for width in (4, 2):
            apply("add.rn.f32", partial.sub[:, :, 0:width, :], partial.sub[:, :, 0:width, :],
                  partial.sub[:, :, width:2 * width, :])
        total = T.alloc_local((warps, 32, 1), "float32", layout=lanes)
        apply("add.rn.f32", total, partial.sub[:, :, 0, :], partial.sub[:, :, 1, :])
        T.cuda.cta_reduce(total, "sum")
        apply("div.rn.f32", total, total, T.float32(cols.value()))
        apply("add.rn.f32", total, total, T.float32(eps))
        apply("rsqrt.approx.f32", total, total)
        for i in range(chunks * 8):
            element = x.sub[:, :, i, :]
            apply("mul.rn.f32", element, element, total)
        apply("mul.rn.f32", x, x, w)
        # Pack pairs: element 2i in the low half, 2i + 1 in the high half.
        out = T.alloc_local((warps, 32, chunks * 4, 1), "uint32", layout=words)
        pairs = x.view(warps, 32, chunks * 4, 2)
        apply("cvt.rn.bf16x2.f32", out, pairs[:, :, :, 1:2], pairs[:, :, :, 0:1])
        packed = out.view(warps, 32, chunks, 4)
        for r in T.unroll(chunks):
            apply("st.global.v4.b32",
                  Y.sub[row, r * chunk:(r + 1) * chunk].view("uint32").view(warps, 32, 4),
                  packed.sub[:, :, r, :], pred=present(r))

    return rms_norm


_compiled = {}


def config_for(cols, threads=None):
    """(threads, chunks) of the kernel rms_norm runs for rows of `cols`."""
    threads = threads or (512 if cols >= 8192 else 256)
    chunk = threads * 8
    if cols % chunk:
        raise ValueError("rms_norm: the row length %d is not a multiple of %d" % (cols, chunk))
    return threads, 1 << max(0, (cols // chunk - 1).bit_length())  # chunks >= cols / chunk


def rms_norm(x, weight, out=None, threads=None, eps=EPS):
    """RMSNorm over the last dimension of a contiguous bfloat16 CUDA matrix
    whose row length is a multiple of 2048 (or of threads x 8)."""
    import tirx
    import torch
    threads, chunks = config_for(x.shape[-1], threads)
    key = (threads, chunks, eps)
    if key not in _compiled:
        _compiled[key] = tirx.compile(make_kernel(threads, chunks, eps), target="cuda")
    out = torch.empty_like(x) if out is None else out
    _compiled[key](x, weight, out)
    return out


def _float64(values):
    """A numpy array or torch tensor as float64."""
    if hasattr(values, "double"):
        return values.double()
    import numpy
    return numpy.asarray(values, dtype=numpy.float64)


def reference(x, weight, eps=EPS):
    """float64 RMSNorm of the bfloat16 inputs (rounding left to the caller):
    numpy arrays or torch tensors (bfloat16, or float holding bfloat16
    values)."""
    xd, wd = _float64(x), _float64(weight)
    return xd * ((xd * xd).sum(-1)[..., None] / xd.shape[-1] + eps) ** -0.5 * wd


def round_to_bfloat16(values):
    """float64 `values` (numpy or torch) rounded to the nearest bfloat16,
    ties to even, as float64: the low 45 of float64's 52 fraction bits
    rounded away. bfloat16's normal range (and 0), where RMSNorm's results
    lie; overflow rounds to inf as it should."""
    if hasattr(values, "double"):
        import torch
        bits = values.view(torch.int64)
    else:
        import numpy
        bits = values.view(numpy.int64)
    bits = (bits + ((1 << 44) - 1) + ((bits >> 45) & 1)) & -(1 << 45)
    return bits.view(values.dtype)


def check(y, want):
    """The number of elements of `y` (the kernel's bfloat16 output) that are
    not the bfloat16 rounding of `want` (reference(), float64), where want
    lies farther than ACCURACY |want| from a rounding boundary, or not one
    of the two neighbours, where it lies closer: 0 passes. numpy or torch;
    NaN (an unwritten element of a poisoned output) never passes."""
    y = _float64(y)
    low = round_to_bfloat16(want - abs(want) * ACCURACY)
    high = round_to_bfloat16(want + abs(want) * ACCURACY)
    return int(((y != low) & (y != high)).sum())


def inputs(rows, cols, seed=0):
    """__main__'s inputs: x ~ N(0, 1) and weight ~ U(0.5, 1.5), rounded to
    bfloat16, as float32 numpy arrays (exact bfloat16 values)."""
    import numpy
    rng = numpy.random.default_rng(seed)
    x = round_to_bfloat16(rng.standard_normal((rows, cols)))
    weight = round_to_bfloat16(rng.random(cols) + 0.5)
    return x.astype(numpy.float32), weight.astype(numpy.float32)


if __name__ == "__main__":
    import torch

    for rows, cols in CASES:
        x, weight = inputs(rows, cols)
        want = reference(x, weight)
        x, weight = (torch.from_numpy(v).cuda().to(torch.bfloat16) for v in (x, weight))
        y = rms_norm(x, weight, out=torch.full_like(x, float("nan")))
        wrong = check(y.float().cpu().numpy(), want)
        if wrong:
            print("FAIL: rms_norm %d x %d: %d of %d elements are not the float64 result "
                  "rounded to bfloat16 (2^-20 from a boundary: either neighbour)"
                  % (rows, cols, wrong, rows * cols))
            sys.exit(1)
        print("rms_norm %d x %d: the float64 result rounded to bfloat16, every element: OK"
              % (rows, cols))
