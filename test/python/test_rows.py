"""tirx.rows (docs/library.md, "Rows"): a Strip's chunk loads put each
column in the thread and register its definition says, its reductions
combine every value of a thread exactly once (kernels traced and run by
ir_interpreter.py, which takes owners and registers from the layouts), its
masked accesses are predicated, its dot product and value chains emit the
instructions they name; misuse is a DSLError at the kernel's line."""
import re

import numpy as np
import pytest

import helpers
import ir_interpreter

import tirx
from tirx._function import Module
from tirx.layout import TileLayout
from tirx.rows import Strip
from tirx.script import tirx as T

TARGET = {"kind": "cuda", "arch": "sm_90"}


def reduce_kernel(strip, op, rows=2, warps_per_row=1):
    """Each thread's reduction of its values of row `row`, written to
    B[row, thread]: a CTA per row (a CTA strip), or `warps_per_row` warps
    per row, warp w taking part w of each chunk (a one-warp strip)."""
    cols = strip.capacity() * warps_per_row
    block = 32 * (strip.warps or warps_per_row)

    @T.function
    def reduce(X: T.Tensor((rows, cols), "float32", align=16),
               B: T.Tensor((rows, block), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=rows, block=block))
        row = T.cuda.block_idx("x")
        if strip.warps:
            x = strip.load("ld.global.v4.b32", X, row, masked=False)
            out = B.sub[row, :].view(strip.warps, 32, 1)
        else:
            warp = T.cuda.thread_idx("x") // 32
            x = strip.load("ld.global.v4.b32", X, row, masked=False, offset=warp * 128)
            out = B.sub[row, warp * 32:warp * 32 + 32].view(32, 1)
        strip.apply("st.global.b32", out, strip.reduce(strip.values(x), op))
    return reduce


def columns_of(strip, thread, warps_per_row=1):
    """The definition: the columns thread `thread` holds, r * stride +
    offset + 4 t + (0..3), t its index among the strip's threads."""
    stride = strip.stride or strip.columns()
    offset, t = (0, thread) if strip.warps else (thread // 32 * 128, thread % 32)
    return sorted(r * stride + offset + 4 * t + k for r in range(strip.chunks) for k in range(4))


@pytest.mark.parametrize("strip, warps_per_row", [
    (Strip(1, warps=2), 1), (Strip(2, warps=2), 1), (Strip(4, warps=1), 1),
    (Strip(2, stride=256), 2), (Strip(4, stride=256), 2)])
@pytest.mark.parametrize("op", ["add.rn.f32", "max.f32"])
def test_reduce_combines_each_threads_columns_once(strip, warps_per_row, op):
    trace = reduce_kernel(strip, op, warps_per_row=warps_per_row).trace_kernel(Module("r"))
    run = ir_interpreter.interpret(trace, {"X": True, "B": None}, symbolic=True)
    counts = run.globals["B"]
    rows, cols = 2, strip.capacity() * warps_per_row
    block = counts.shape[0] // rows
    for row in range(rows):
        for thread in range(block):
            got = counts[row * block + thread]
            want = np.zeros_like(got)
            for c in columns_of(strip, thread, warps_per_row):
                want[run.tags.index(("X", row * cols + c))] = 1
            assert np.array_equal(got, want), (row, thread)


def test_reduce_values():
    """The numeric run: sums and maxima of each thread's values."""
    strip = Strip(2, warps=2)
    x = np.random.default_rng(0).standard_normal((2, 512)).astype(np.float32)
    for op, combine in (("max.f32", np.max), ("add.rn.f32", np.sum)):
        trace = reduce_kernel(strip, op).trace_kernel(Module("r"))
        got = ir_interpreter.interpret(trace, {"X": x, "B": None}).globals["B"]
        got = got.view(np.float32).reshape(2, 64)
        for row in range(2):
            for t in range(64):
                want = combine(x[row, [c for c in columns_of(strip, t)]])
                assert np.isclose(got[row, t], want, rtol=1e-5, atol=1e-6), (op, row, t)


def masked_kernel(dtype, load, store, multiple, chunks=2, words=4):
    strip = Strip(chunks, warps=4, words=words)
    rows = T.dynamic("rows")
    cols = T.dynamic("cols", multiple_of=multiple, at_most=strip.capacity(dtype))
    fill = T.float32(0) if dtype == "float32" else T.uint32(0)

    @T.function
    def copy(X: T.Tensor((rows, cols), dtype, align=16),
             Y: T.Tensor((rows, cols), dtype, align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=rows, block=128))
        row = T.cuda.block_idx("x")
        x = strip.load(load, X, row, fill=fill)
        strip.copy(store, Y, x, row)
    return copy


@pytest.mark.parametrize("dtype, load, store, accesses", [
    ("float32", "ld.global.v4.b32", "st.global.v4.b32", 1),
    ("float32", "ld.global.v2.b32", "st.global.v2.b32", 2),
    ("float32", "ld.global.b32", "st.global.b32", 4),
    ("bfloat16", "ld.global.v4.b32", "st.global.v4.b32", 1),
    ("bfloat16", "ld.global.b32", "st.global.b32", 4),
    ("bfloat16", "ld.global.b16", "st.global.b16", 8)])
def test_masked_chunks_are_predicated(dtype, load, store, accesses):
    """A row of any multiple of an access's elements: each access of each
    chunk predicated, the carrier views chosen by the access's width."""
    multiple = 16 // (2 if dtype == "bfloat16" else 4) // accesses
    ptx = tirx.compile(masked_kernel(dtype, load, store, multiple), target=TARGET).ptx
    assert ".local" not in ptx
    # chunks x accesses per thread and chunk, each load and store masked.
    for spelling in (load, store):
        assert len(re.findall(r"@%tirx_p " + re.escape(spelling) + " ", ptx)) == 2 * accesses
    assert len(re.findall(r"mov\.b32 %r\d+, 0x00000000;", ptx)) >= 1  # the fill


def arithmetic_kernel(chunks):
    strip = Strip(chunks, warps=1)

    @T.function
    def dot(X: T.Tensor((strip.capacity(),), "float32", align=16),
            Y: T.Tensor((32,), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        x = strip.load("ld.global.v4.b32", X, masked=False)
        total = strip.dot(strip.values(x), strip.values(x))
        strip.each(strip.values(x), ("mul.rn.f32", total), ("ex2.approx.ftz.f32",))
        strip.copy("st.global.v4.b32", X, x, masked=False)
        strip.apply("st.global.b32", Y.view(1, 32, 1), total)
    return dot


@pytest.mark.parametrize("chunks", [2, 4, 8])
def test_dot_and_each(chunks):
    ptx = tirx.compile(arithmetic_kernel(chunks), target=TARGET).ptx
    values = chunks * 4
    count = lambda spelling: len(re.findall(r"\b%s " % re.escape(spelling), ptx))
    # 8 partial products, an fma per further value, a tree of 4 + 2 + 1
    # adds; then mul and ex2 once per value.
    assert count("fma.rn.f32") == values - 8
    assert count("add.rn.f32") == 7
    assert count("mul.rn.f32") == 8 + values
    assert count("ex2.approx.ftz.f32") == values
    order = re.findall(r"\b(mul\.rn\.f32|ex2\.approx\.ftz\.f32) ", ptx)[8:]
    assert order == ["mul.rn.f32", "ex2.approx.ftz.f32"] * values  # value by value


def test_convert_and_pack():
    """bf16 rows widened to float32 one element at a time, and packed back
    two to a word (the high half's source first, as PTX takes it)."""
    strip = Strip(2, warps=2)

    @T.function
    def widen(X: T.Tensor((strip.capacity("bfloat16"),), "bfloat16", align=16),
              Y: T.Tensor((strip.capacity("bfloat16"),), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        raw = strip.load("ld.global.v4.b32", X, masked=False)
        x = strip.convert("cvt.f32.bf16", raw.view("bfloat16"))
        assert tuple(x.shape) == (2, 32, 16, 1) and x.dtype.name == "float32"
        strip.copy("st.global.v4.b32", Y, strip.pack("cvt.rn.bf16x2.f32", x), masked=False)
    ptx = tirx.compile(widen, target=TARGET).ptx
    assert len(re.findall(r"\bcvt\.f32\.bf16 ", ptx)) == 16
    packs = re.findall(r"cvt\.rn\.bf16x2\.f32 %r\d+, (%r\d+), (%r\d+);", ptx)
    assert len(packs) == 8


def test_layouts_and_sizes():
    strip = Strip(4, warps=8)
    assert strip.layout(4, 1) == TileLayout("S[(8, 32, 4, 1) : (1@warpid, 1@laneid, 1, 1)]")
    assert strip.layout(4, 4) == TileLayout("S[(8, 32, 4, 4) : (1@warpid, 1@laneid, 4, 1)]")
    assert (strip.columns(), strip.columns("bfloat16"), strip.capacity()) == (1024, 2048, 4096)
    warp = Strip(2, stride=512)
    assert (warp.threads, warp.scope, warp.capacity()) == ((32,), "warp", 256)
    assert warp.layout(2) == TileLayout("S[(32, 2) : (1@laneid, 1)]")


def misuse_kernel(case):
    @T.function
    def misuse(X: T.Tensor((4, 1024), "float32", align=16),
               Y: T.Tensor((4, 1024), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=4, block=256))
        strip = Strip(1, warps=8)
        if case == "chunks":
            Strip(0, warps=8)  # MARK-chunks
        elif case == "stride":
            Strip(1, stride=-128)  # MARK-stride
        elif case == "width":
            Strip(1, warps=8, words=2).load("ld.global.v4.b32", X, 0)  # MARK-width
        elif case == "not global":
            strip.load("ld.shared.v4.b32", X, 0)  # MARK-not-global
        elif case == "shared row":
            tile = strip.alloc()
            strip.copy("ld.global.v4.b32", tile, T.alloc_shared((1024,), "float32"))  # MARK-row
        elif case == "values":
            strip.values(T.alloc_local((4, 32, 4), "float32"))  # MARK-values
        elif case == "reduce":
            strip.reduce(strip.local((1, 1)), "max.f32")  # MARK-reduce
        elif case == "pack":
            strip.pack("cvt.rn.bf16x2.f32", strip.values(strip.alloc()))  # MARK-pack
        elif case == "dot":
            x = strip.values(strip.alloc())
            strip.dot(x, x, width=8)  # MARK-dot
    return misuse


@pytest.mark.parametrize("case, marker, message", [
    ("chunks", "MARK-chunks", "Strip: chunks must be a positive int, got 0"),
    ("stride", "MARK-stride", "Strip: stride must be a positive int (columns from a chunk to "
                              "the next) or None, got -128"),
    ("width", "MARK-width", "Strip: ld.global.v4.b32 accesses 4 elements; a thread's 2 words "
                            "are 2 of them, no multiple"),
    ("not global", "MARK-not-global", "Strip: 'ld.shared.v4.b32' is no global load or store"),
    ("shared row", "MARK-row", "Strip: the row must be a global tensor"),
    ("values", "MARK-values", "Strip: values needs a tile of the strip (registers led by "
                              "(8, 32))"),
    ("reduce", "MARK-reduce", "Strip.reduce needs a values() tile of at least 2 values per "
                              "thread, got shape (8, 32, 1, 1)"),
    ("pack", "MARK-pack", "Strip.pack: 4 values per thread do not fill the strip's 4 words "
                          "two to a word"),
    ("dot", "MARK-dot", "Strip.dot: 4 values per thread are no multiple of 8 partial sums"),
])
def test_misuse_is_located(case, marker, message):
    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(misuse_kernel(case), target=TARGET)
    assert helpers.line_of(__file__, marker).rstrip(": ") + ":" in str(error.value), str(error.value)
    assert message in str(error.value)


@pytest.mark.parametrize("section", ["## Rows", "## Streams", "## Row-wise operators"])
def test_docs_library_blocks_run(section):
    """docs/library.md's blocks for tirx.rows, tirx.stream and tirx.ops run
    as written (their asserts are the page's claims)."""
    import os
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    text = open(os.path.join(root, "docs", "library.md")).read()
    start = text.index("\n" + section + "\n")
    end = text.find("\n## ", start + 1)
    blocks = re.findall(r"```python\n(.*?)```", text[start:end], re.S)
    assert len(blocks) == 1
    exec(compile(blocks[0], "docs/library.md", "exec"), {})


def whole_kernel(dtype, hand, chunks=2):
    """A copy of rows of whole chunks (cols declared a multiple of the
    chunk): through the strip, or (hand) written as the examples were before
    they took every shape, each chunk's access predicated `r * chunk < cols`."""
    strip = Strip(chunks, warps=4)
    chunk = strip.columns(dtype)
    rows = T.dynamic("rows")
    cols = T.dynamic("cols", multiple_of=chunk, at_most=strip.capacity(dtype))
    fill = T.float32(0) if dtype == "float32" else T.uint32(0)

    @T.function
    def copy(X: T.Tensor((rows, cols), dtype, align=16),
             Y: T.Tensor((rows, cols), dtype, align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=rows, block=128))
        row = T.cuda.block_idx("x")
        if not hand:
            x = strip.load("ld.global.v4.b32", X, row, fill=fill)
            strip.copy("st.global.v4.b32", Y, x, row)
            return
        x = strip.alloc(fill.dtype.name, fill)

        def words(tensor, r):
            region = tensor.sub[row, r * chunk:(r + 1) * chunk]
            return (region.view("uint32") if dtype != "float32" else region).view(4, 32, 4)
        for r in T.unroll(chunks):
            strip.apply("ld.global.v4.b32", x.sub[:, :, r, :], words(X, r), pred=r * chunk < cols)
        for r in T.unroll(chunks):
            strip.apply("st.global.v4.b32", words(Y, r), x.sub[:, :, r, :], pred=r * chunk < cols)
    return copy


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
@pytest.mark.parametrize("chunks", [1, 2, 4])
def test_whole_chunks_are_predicated_a_chunk_at_a_time(dtype, chunks):
    """A row declared whole chunks: each chunk's load and store on one
    predicate, `r * chunk < cols`, byte for byte the hand-written kernel's
    PTX (no per-thread column bound, no row bound)."""
    ptx = tirx.compile(whole_kernel(dtype, False, chunks), target=TARGET).ptx
    assert ptx == tirx.compile(whole_kernel(dtype, True, chunks), target=TARGET).ptx
    assert "and.pred" not in ptx
    assert len(re.findall(r"@%tirx_p ld\.global\.v4\.b32 ", ptx)) == chunks
    assert len(re.findall(r"@%tirx_p st\.global\.v4\.b32 ", ptx)) == chunks


def test_which_rows_are_whole_chunks():
    """Strip.whole_chunks: a size variable whose multiple_of is one of the
    chunks' stride, and a chunk (from `offset`) that stays within the
    stride; a traced offset is left to the bounds proof."""
    found = {}

    def kernel(name, strip, multiple, dtype="float32", static=None, offset=0):
        rows = T.dynamic("rows")
        cols = static or T.dynamic("cols", multiple_of=multiple)

        @T.function
        def probe(X: T.Tensor((rows, cols), dtype, align=16)):
            T.device_entry(launch=T.cuda.LaunchConfig(grid=rows, block=128))
            at = T.cuda.thread_idx("x") // 32 * 128 if offset == "traced" else offset
            found[name] = strip.whole_chunks(X, at)
        probe.trace_kernel(Module(name))

    cta, warp = Strip(2, warps=4), Strip(2, stride=256)
    kernel("chunk", cta, 512)
    kernel("two chunks", cta, 1024)
    kernel("half a chunk", cta, 256)
    kernel("static", cta, 1, static=1024)
    kernel("bf16 chunk", cta, 1024, "bfloat16")
    kernel("bf16 half", cta, 512, "bfloat16")
    kernel("past the stride", cta, 512, offset=128)
    kernel("warp part", warp, 256, offset=128)
    kernel("warp past", warp, 256, offset=256)
    kernel("warp traced", warp, 256, offset="traced")
    kernel("warp's own chunk", warp, 128)
    assert found == {"chunk": True, "two chunks": True, "half a chunk": False,
                     "static": False, "bf16 chunk": True, "bf16 half": False,
                     "past the stride": False, "warp part": True, "warp past": False,
                     "warp traced": True, "warp's own chunk": False}


def test_whole_chunks_need_rows_inside_the_tensor():
    """Whole chunks are accessed through unmasked regions: a row index the
    bounds proof cannot keep inside the tensor (two rows to a CTA of a row
    count not declared even) is refused, where masked chunks took it."""
    strip = Strip(2, stride=256)

    def kernel(rows_multiple):
        rows = T.dynamic("rows", multiple_of=rows_multiple)
        cols = T.dynamic("cols", multiple_of=256, at_most=512)

        @T.function
        def copy(X: T.Tensor((rows, cols), "float32", align=16),
                 Y: T.Tensor((rows, cols), "float32", align=16)):
            T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=128))
            warp = T.cuda.thread_idx("x") // 32
            row = T.cuda.block_idx("x") * 2 + warp // 2
            x = strip.load("ld.global.v4.b32", X, row, fill=T.float32(0),
                           offset=warp % 2 * 128)
            strip.copy("st.global.v4.b32", Y, x, row, offset=warp % 2 * 128)
        return copy
    ptx = tirx.compile(kernel(2), target=TARGET).ptx
    assert "and.pred" not in ptx
    with pytest.raises(tirx.CompileError, match="may read index"):
        tirx.compile(kernel(1), target=TARGET)
