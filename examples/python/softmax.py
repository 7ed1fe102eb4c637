# Row softmax of a float32 (rows, cols) tensor: y = exp(x - max) / sum.
# Both extents are known at run time: `rows` is the grid, `cols` any length
# up to the kernel's capacity (threads x 4 x chunks, declared as the size
# variable's at_most: the launcher refuses a longer row); `softmax(x)` picks
# a compiled kernel whose capacity covers the row, as Triton's tutorial
# picks its block size, and takes any shape torch.softmax(x, -1) takes.
#
# One CTA per row; warp w, lane l holds, in chunk r, the four columns
# r*C + 128 w + 4 l + (0..3) (C = threads x 4): every chunk is one 16-byte
# load per thread, coalesced across the CTA (a tirx.rows.Strip,
# docs/library.md). The row's tiles are masked
# regions (X.masked.sub, docs/sizes.md): a thread's columns past `cols` are
# not loaded and keep -inf, so they add nothing to the max or the sum, and
# are not stored. A row whose length is not a multiple of 4 is not 16-byte
# aligned: its kernel (vector=2 or 1) loads 8 or 4 bytes at a time. A row
# of whole chunks (whole=True: `cols` declared a multiple of the chunk, and
# the grouped kernel's `rows` of its CTA's rows) has each chunk predicated
# as a whole, one predicate all threads share (Strip.whole_chunks): the
# PTX of the kernels measured before any length was taken.
#
# make_grouped_kernel (below) holds several adjacent rows per CTA, a group
# of warps each, written with `warp`-scope applies; softmax(x) takes it for
# rows of up to 4096 columns (a CTA then covers about 8192 columns), which
# moves the bytes as fast as a device copy on the H200. With online=True
# its statistics take one barrier (normalize_online): each warp
# exponentiates with its own max, and the warps exchange (max, sum) pairs
# (T.cuda.group_exchange) instead of meeting twice; softmax(x) takes that
# for rows of 8192 columns, one per CTA.
#
# Reductions (T.cuda.cta_reduce, docs/collectives.md): each thread reduces
# its registers (Strip.reduce: 8 partial values, then a tree, so the chain of
# dependent steps is short: it lies between the row's loads and its stores),
# the warp reduces by butterfly shuffles (shfl.sync.bfly, 5 steps), warps
# meet through shared memory: lane 0 of each warp stores its warp's value
# (`smem` seen as (warps, 32, 1) with lanes broadcast), one barrier, then
# lane l of every warp reads warp l % warps's value (the same row seen with
# warps broadcast) and log2(warps) more butterflies give every thread the
# CTA's result. exp is ex2.approx.ftz of
# (x - max) * log2(e), computed as one fma; the sum's reciprocal is
# rcp.rn.f32 and the result x * (1/sum).
#
# Accuracy: the exponent t = (x - max) log2 e is rounded once by the fma, an
# absolute error of at most 2^-24 |t|, i.e. a relative error of
# ln 2 * 2^-24 |t| in 2^t; ex2.approx.ftz.f32 adds at most 2^-22.5 (PTX ISA),
# the sum, reciprocal and product a few 2^-24. For the test data
# (|x - max| < 64) that is below 5e-6 relative to float64 softmax, the bound
# checked here and in bench/gpu/softmax.py (torch.softmax itself measured
# 2.4e-6, Triton 4.3e-6 on the benchmark shapes). The online statistics
# split the exponent in two, t1 = x log2 e - s_w (the fma) and
# t2 = s_w - s (one subtraction), with |t1| + |t2| = |t|: the same bound
# for the two roundings, plus one more ex2 and one more product (2^-22.5 +
# 2^-24), still below 5e-6. The shift s_w = -M_w log2 e is itself rounded,
# but s is one of the s_w and each warp's rounding enters its numerators
# and its term of the sum alike, so it cancels.
import math
import sys

from tirx.script import tirx as T
from tirx.ops import Kernels, chunks_for, row_operands
from tirx.rows import Strip
from tirx.testing import max_relative_error  # the check: passes when <= RTOL

LOG2E = math.log2(math.e)
# The load and store of `vector` float32 elements at a time.
ACCESS = {4: ("ld.global.v4.b32", "st.global.v4.b32"),
          2: ("ld.global.v2.b32", "st.global.v2.b32"),
          1: ("ld.global.b32", "st.global.b32")}
# The longest row a kernel holds in registers: 1024 threads x 4 x 8 chunks.
MAX_COLUMNS = 32768
FLT_MAX = 3.4028234663852886e38
RTOL = 5e-6  # see Accuracy above


def normalize(strip, values, reduce):
    """Softmax, in place, of the row whose elements `values` (a
    strip.values() tile, n >= 2 values per thread, a power of two) holds;
    `reduce(value, op)` combines a (threads..., 1) tile over the row's
    threads."""
    apply = strip.apply
    # Up to 8 partial values, shared by both statistics: a thread holding
    # 32 values stays within the register budget of a 1024-thread CTA.
    partial = strip.partial(values)
    top = strip.reduce(values, "max.f32", partial)
    reduce(top, "max")
    # e = 2^(x log2e - max log2e), summed.
    shift = strip.local((1, 1)).view(*strip.threads, 1)
    apply("mul.rn.f32", shift, top, T.float32(-LOG2E))
    strip.each(values, ("fma.rn.f32", T.float32(LOG2E), shift), ("ex2.approx.ftz.f32",))
    total = strip.reduce(values, "add.rn.f32", partial)
    reduce(total, "sum")
    apply("rcp.rn.f32", total, total)
    strip.each(values, ("mul.rn.f32", total))


def normalize_online(strip, values, group):
    """normalize() with one barrier instead of two, for a one-warp strip
    in groups of `group` warps per row. Each warp exponentiates with its own
    max M_w and sums (S_w) before meeting the others; the warps then
    exchange (s_w, S_w), s_w = -M_w log2 e, and with s = min s_w (the row's
    -max log2 e) each warp scales by 2^(s - s_w) / sum_w S_w 2^(s - s_w). A
    warp meets the others only once, and does its ex2 work while other
    warps' loads are still arriving."""
    apply = strip.apply
    partial = strip.partial(values)
    top = strip.reduce(values, "max.f32", partial)
    T.cuda.warp_reduce(top, "max")
    # (s_w, S_w), exchanged below. s_w is +inf for a warp whose values are
    # all -inf; capped at FLT_MAX (x log2 e + FLT_MAX is -inf there, and
    # 2^-inf = 0) it shifts the warp's own exponents.
    pair = strip.local((2,))
    shift, total = pair[:, 0:1], pair[:, 1:2]
    apply("mul.rn.f32", shift, top, T.float32(-LOG2E))
    capped = top  # the max is not needed any more
    apply("min.f32", capped, shift, T.float32(FLT_MAX))
    strip.each(values, ("fma.rn.f32", T.float32(LOG2E), capped), ("ex2.approx.ftz.f32",))
    strip.reduce(values, "add.rn.f32", partial, into=total.view(32, 1, 1))
    T.cuda.warp_reduce(total, "sum")
    # Lane l gets warp l mod group's pair; `partial` serves as scratch.
    T.cuda.group_exchange(pair, warps=group)
    row_shift, weight = partial.sub[:, 0, :], partial.sub[:, 1, :]
    apply("mov.b32", row_shift, shift)
    T.cuda.warp_reduce(row_shift, "min", width=group)
    # sum_w S_w 2^(s - s_w): 0 for a warp whose values are all -inf.
    apply("sub.rn.f32", weight, row_shift, shift)
    apply("ex2.approx.ftz.f32", weight, weight)
    apply("mul.rn.f32", weight, weight, total)
    T.cuda.warp_reduce(weight, "sum", width=group)
    # This warp's scale: 2^(s - s_w) / sum (s - FLT_MAX for an empty warp:
    # 2^ of it is 0 as well).
    apply("rcp.rn.f32", weight, weight)
    apply("sub.rn.f32", row_shift, row_shift, capped)
    apply("ex2.approx.ftz.f32", row_shift, row_shift)
    apply("mul.rn.f32", weight, weight, row_shift)
    strip.each(values, ("mul.rn.f32", weight))


def make_kernel(threads=256, chunks=4, vector=4, whole=False):
    """A softmax kernel for rows of up to threads * 4 * chunks columns, any
    multiple of `vector` (4, 2 or 1: the elements of one access), or with
    `whole` any multiple of a chunk (threads x 4), each chunk predicated as
    a whole (Strip.whole_chunks)."""
    strip = Strip(chunks, warps=threads // 32)  # 4 words per thread and chunk
    rows = T.dynamic("rows")
    # Longer rows do not fit the registers: the launcher refuses them.
    cols = T.dynamic("cols", multiple_of=strip.columns() if whole else vector,
                     at_most=strip.capacity())
    load, store = ACCESS[vector]

    @T.function
    def softmax(X: T.Tensor((rows, cols), "float32", align=16),
                Y: T.Tensor((rows, cols), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=rows, block=threads))
        row = T.cuda.block_idx("x")
        x = strip.load(load, X, row, fill=T.float32(-math.inf))
        normalize(strip, strip.values(x), T.cuda.cta_reduce)
        strip.copy(store, Y, x, row)

    return softmax


def make_grouped_kernel(threads=1024, chunks=2, rows_per_cta=2, online=True, vector=4,
                        whole=False):
    """A softmax kernel whose CTA holds `rows_per_cta` adjacent rows (the
    last CTA's rows past `rows` are masked; with `whole`, whole CTAs and
    chunks), each in a group of
    warps / rows_per_cta consecutive warps, for rows of up to
    threads / rows_per_cta * 4 * chunks columns.

    Warp w works on row first + w / group, lane l holding in chunk r the
    four columns r * C + 128 (w mod group) + 4 l + (0..3) (C = group x 128):
    the loads, stores and arithmetic are `warp`-scope applies whose regions
    start where the warp's row and part of it are. With `online`, the
    statistics take one barrier (normalize_online, T.cuda.group_exchange);
    without, two (normalize with T.cuda.group_reduce, one barrier each). On
    the H200, two rows of 4096 columns per CTA of 1024 threads move the
    bytes as fast as a device copy, where one row per CTA of 512 threads
    (the same registers per thread) reaches 99 % of it (bench/RESULTS.md)."""
    group = threads // 32 // rows_per_cta  # warps per row
    strip = Strip(chunks, stride=group * 128)  # one warp's part of each chunk
    rows = T.dynamic("rows", multiple_of=rows_per_cta if whole else 1)
    cols = T.dynamic("cols", multiple_of=group * 128 if whole else vector,
                     at_most=group * strip.capacity())
    load, store = ACCESS[vector]

    @T.function
    def softmax(X: T.Tensor((rows, cols), "float32", align=16),
                Y: T.Tensor((rows, cols), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, rows_per_cta),
                                                  block=threads))
        warp = T.cuda.thread_idx("x") // 32
        row = T.cuda.block_idx("x") * rows_per_cta + warp // group
        part = warp % group * 128  # the warp's first column in each chunk
        x = strip.load(load, X, row, fill=T.float32(-math.inf), offset=part)
        if online:
            normalize_online(strip, strip.values(x), group)
        else:
            normalize(strip, strip.values(x),
                      lambda value, op: T.cuda.group_reduce(value, op, warps=group))
        strip.copy(store, Y, x, row, offset=part)

    return softmax


def kernel_for(threads, chunks, rows_per_cta=1, online=False, vector=4, whole=False):
    """make_kernel for one row per CTA with two barriers, else
    make_grouped_kernel."""
    if rows_per_cta == 1 and not online:
        return make_kernel(threads, chunks, vector, whole)
    return make_grouped_kernel(threads, chunks, rows_per_cta, online, vector, whole)


kernels = Kernels(kernel_for)  # by kernel_for's arguments
GROUP_COLUMNS = 8192  # a CTA's columns, summed over its rows


def softmax(x, out=None, threads=None):
    """torch.softmax(x, dim=-1) for a float32 CUDA tensor of any shape whose
    rows (its last dimension) have at most MAX_COLUMNS elements: any row
    count and row length, masking the tails. A non-contiguous x is copied
    first, as torch.softmax reads it; `out`, if given, must be a contiguous
    float32 CUDA tensor of x's shape (ValueError otherwise). An empty x gives
    an empty result without a launch.

    Without `threads`, a CTA has 1024 threads and covers about 8192 columns
    (32 KB): rows of up to 4096 columns go several to a CTA
    (make_grouped_kernel: up to 8192 / cols rows, as the row count allows),
    longer rows one to a CTA. Rows that fit neither take 256 threads per row.
    One row of 8192 columns per CTA takes the online statistics (one
    barrier: make_grouped_kernel(1024, 2, 1)), which measured 0.5 points
    of the copy faster than two barriers; elsewhere their gain did not
    reproduce from run to run (2 rows of 4096), or they were slower (4 rows
    of 2048, one row of 16384), and the kernels take two barriers.
    bench/RESULTS.md has the measurements behind these choices."""
    out, rows, cols = row_operands("softmax", "float32", x, out)
    if rows:
        kernels(*config_for(rows, cols, threads=threads))(x.contiguous().view(rows, cols),
                                                          out.view(rows, cols))
    return out


def config_for(rows, cols, threads=None):
    """(threads, chunks, rows per CTA, online, vector, whole) of the kernel
    softmax(x) runs for a (rows, cols) x: kernel_for's arguments. Rows whose
    length is a multiple of 1024 (of threads x 4 with `threads`) take the
    kernels measured in bench/RESULTS.md; other lengths the same shapes of
    kernel, sized by the row, with 16-, 8- or 4-byte accesses as the length
    allows. `whole`: whole chunks (and whole CTAs of rows), predicated a
    chunk at a time, as the measured kernels were."""
    if cols > MAX_COLUMNS:
        raise ValueError("softmax: rows of %d columns are longer than the %d this example's "
                         "kernels hold in registers" % (cols, MAX_COLUMNS))
    if threads is not None and threads * 4 > MAX_COLUMNS:
        raise ValueError("softmax: %d threads take chunks of %d columns, more than %d"
                         % (threads, threads * 4, MAX_COLUMNS))
    measured = cols % (1024 if threads is None else threads * 4) == 0
    vector = 4 if cols % 4 == 0 else 2 if cols % 2 == 0 else 1
    for per_cta in (8, 4, 2) if threads is None else ():
        # A group of 32 / per_cta warps takes chunks of 4096 / per_cta
        # columns; measured lengths went several to a CTA only in whole
        # chunks and CTAs.
        whole = rows % per_cta == 0 and cols % (4096 // per_cta) == 0
        if cols * per_cta <= GROUP_COLUMNS and (whole if measured else rows >= per_cta):
            return 1024, chunks_for(cols, 4096 // per_cta), per_cta, False, vector, whole
    if threads is None:
        threads = 1024 if cols >= GROUP_COLUMNS and (cols % 4096 == 0 or not measured) else 256
    chunks = chunks_for(cols, threads * 4)
    return threads, chunks, 1, threads == 1024 and chunks <= 2, vector, cols % (threads * 4) == 0


# __main__'s cases (rows, cols, mask). One row per CTA: (1, 1024), (3, 4096)
# (an odd count), (64, 3072) (3072 is no multiple of 2048), (64, 6144),
# (5, 16384) and (4, 8192); several (make_grouped_kernel): (2, 2048) two,
# (6, 4096) two, (64, 2048) four, (40, 1024) eight, (24, 1024) eight. Then
# masked rows (-inf entries, as attention masks them): every 128-column part
# that warp 0 of a row holds, and one element of every 7, at 4096 (two rows
# per CTA) and 16384 columns (one).
CASES = [(rows, cols, None) for rows, cols in (
    (1, 1024), (3, 4096), (64, 3072), (64, 6144), (5, 16384), (4, 8192),
    (2, 2048), (6, 4096), (64, 2048), (40, 1024), (24, 1024),
    # Masked tails (any length; rows no multiple of a CTA's): 16-byte
    # accesses, then 8- and 4-byte ones.
    (3, 3000), (5, 1000), (9, 5000), (3, 32768), (2, 2), (3, 20002), (7, 7),
    (1, 1), (4, 12345), (1, 4095))]
CASES += [(rows, cols, mask) for rows, cols in ((6, 4096), (5, 16384))
          for mask in ("warp 0", "every 7th")]


def inputs(rows, cols, mask=None, seed=0):
    """__main__'s x, float32 with `mask`'s entries -inf: N(0, 1) in even
    rows, where every thread's share of the row's sum is above 10^-5 (a
    reduction that loses one thread's partial fails the check), N(0, 16) in
    odd rows (|x - max| up to about 40: the range of the bound)."""
    import numpy
    scale = numpy.where(numpy.arange(rows) % 2 == 0, 1.0, 4.0)[:, None]
    x = (numpy.random.default_rng(seed).standard_normal((rows, cols)) * scale).astype(
        numpy.float32)
    column = numpy.arange(cols)
    if mask == "warp 0":  # a chunk of a row is 128 x (warps per row) wide
        x[:, column % (128 * (16 if cols == 4096 else 32)) < 128] = -math.inf
    elif mask == "every 7th":
        x[:, column % 7 == 3] = -math.inf
    return x


def reference(x):
    """float64 softmax of the rows of x (numpy)."""
    import numpy
    e = numpy.exp(x.astype(numpy.float64) - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


if __name__ == "__main__":
    import torch

    for index, (rows, cols, mask) in enumerate(CASES):
        x = inputs(rows, cols, mask, seed=index)
        y = softmax(torch.from_numpy(x).cuda(),
                    out=torch.full((rows, cols), math.nan, device="cuda"))
        error = max_relative_error(y.cpu().numpy(), reference(x))
        what = "softmax %d x %d%s" % (rows, cols, ", masked: " + mask if mask else "")
        if not error <= RTOL:
            print("FAIL: %s: max relative error %.3g > %g" % (what, error, RTOL))
            sys.exit(1)
        print("%s: max relative error %.3g against float64: OK" % (what, error))
