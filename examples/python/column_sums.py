# Column sums of a (rows, 1024) float32 tensor, rows known at run time: a
# loop-carried reduction, one compiled kernel for every row count.
# One CTA of 256 threads; thread t owns columns 4t..4t+3 and adds the rows
# into four registers, in row order 0, 1, ..., rows-1, so the result is
# bit for bit the sequential float32 sum. The rows are read by a `T.serial`
# loop (a real loop on the GPU, tirx.stream.steps) over groups of four, each group unrolled
# while tracing (`T.unroll(4)`): four independent loads in flight, then the
# four adds in row order. The last rows % 4 rows are one more group of
# masked rows (X.masked, docs/sizes.md): a row past `rows` is not read and
# its registers keep -0.0, which adds nothing to any sum (x + -0.0 = x, -0.0
# included), so the result stays the sequential sum bit for bit.
import sys

from tirx.script import tirx as T
from tirx.rows import Strip
from tirx.stream import steps

COLUMNS = 1024
GROUP = 4  # rows loaded before they are added
rows = T.dynamic("rows")
strip = Strip(1, warps=8)  # warp w, lane l, word k holds column 128 w + 4 l + k


@T.function
def column_sums(
    A: T.Tensor((rows, COLUMNS), "float32", align=16),
    B: T.Tensor((COLUMNS,), "float32", align=16),
):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
    acc = strip.alloc(fill=T.float32(0))
    sums = strip.values(acc)

    def add_group(first, masked):
        loaded = [strip.load("ld.global.v4.b32", A, first + j, masked=masked,
                             fill=T.float32(-0.0) if masked else None)
                  for j in T.unroll(GROUP)]
        for row in loaded:
            strip.apply("add.rn.f32", sums, sums, strip.values(row))
    steps(rows, GROUP, add_group)
    strip.copy("st.global.v4.b32", B, acc, masked=False)


def sequential_column_sums(a):
    """The float32 sums of `a`'s columns, row 0 first (numpy, on the host)."""
    import numpy
    acc = numpy.zeros(a.shape[1], dtype=numpy.float32)
    for row in a:
        acc += row  # one float32 rounding per add, as add.rn.f32
    return acc


def mismatches(got, a):
    """The check: the columns where `got` (float32, numpy) differs bit for
    bit from the sequential sums of `a`'s columns."""
    import numpy
    want = sequential_column_sums(a)
    return numpy.flatnonzero(got.view(numpy.uint32) != want.view(numpy.uint32))


ROW_COUNTS = (4, 1000, 4096, 1, 6, 1003)  # __main__'s cases


def inputs(row_count, seed=0):
    """__main__'s A: N(0, 1) float32 (numpy)."""
    import numpy
    return numpy.random.default_rng(seed).standard_normal((row_count, COLUMNS)).astype(
        numpy.float32)


if __name__ == "__main__":
    import torch
    import tirx

    compiled = tirx.compile(column_sums, target="cuda")
    for row_count in ROW_COUNTS:
        a = inputs(row_count)
        b = torch.full((COLUMNS,), float("nan"), device="cuda", dtype=torch.float32)
        compiled(torch.from_numpy(a).cuda(), b)
        torch.cuda.synchronize()
        got = b.cpu().numpy()
        want = sequential_column_sums(a)
        mismatch = mismatches(got, a)
        if mismatch.size:
            c = mismatch[0]
            print("FAIL: column_sums: %d rows: %d of %d columns differ from the sequential "
                  "sum; column %d: got %r, want %r"
                  % (row_count, mismatch.size, COLUMNS, c, got[c], want[c]))
            sys.exit(1)
        print("column_sums (%d x %d floats, bit-exact against the sequential sum): OK"
              % (row_count, COLUMNS))
    # A row length other than 1024: refused before the GPU.
    try:
        compiled(torch.zeros(6, COLUMNS + 4, device="cuda"), b)
    except ValueError as error:
        print("column_sums refuses rows of %d: %s" % (COLUMNS + 4, error))
    else:
        print("FAIL: column_sums accepted rows of %d" % (COLUMNS + 4))
        sys.exit(1)
