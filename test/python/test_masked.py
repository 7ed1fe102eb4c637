"""Masked regions from Python (docs/sizes.md, "Masked regions"): X.masked[...]
and X.masked.sub[...] are regions that may overhang the tensor's end; each
repeat of a tile op through them is predicated on its elements being inside
the tensor. Compiles for sm_90 without a GPU; the GPU bundle's run_masked.py
runs the same kernels against numpy."""
import math
import re

import pytest

import helpers

import tirx
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, warpid
from tirx.script import tirx as T

TARGET = {"kind": "cuda", "arch": "sm_90"}


def compile_(f):
    return tirx.compile(f, target=TARGET)


def row_copy_kernel(vector):
    """Y = X for any (rows, cols): one CTA of 128 threads per 512 columns of
    a row, 4 columns per thread (one v4 access, or four scalar ones)."""
    rows = T.dynamic("rows")
    cols = T.dynamic("cols", multiple_of=4 if vector else 1)
    layout = TileLayout(S[(4, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])
    scalar_layout = TileLayout(S[(4, 32, 4, 1) : (1 @ warpid, 1 @ laneid, 1, 1)])

    @T.function
    def row_copy(X: T.Tensor((rows, cols), "float32", align=16),
                 Y: T.Tensor((rows, cols), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=(rows, T.ceildiv(cols, 512)),
                                                  block=128))
        row = T.cuda.block_idx("x")
        c0 = T.cuda.block_idx("y") * 512
        if vector:
            r = T.alloc_local((4, 32, 4), "float32", layout=layout)
            T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r,
                              X.masked.sub[row, c0:c0 + 512].view(4, 32, 4), scope="cta")
            T.cuda.tile.apply(T.ptx["st.global.v4.b32"],
                              Y.masked.sub[row, c0:c0 + 512].view(4, 32, 4), r, scope="cta")
        else:
            r = T.alloc_local((4, 32, 4, 1), "float32", layout=scalar_layout)
            T.cuda.tile.apply(T.ptx["ld.global.b32"], r,
                              X.masked.sub[row, c0:c0 + 512].view(4, 32, 4, 1), scope="cta")
            T.cuda.tile.apply(T.ptx["st.global.b32"],
                              Y.masked.sub[row, c0:c0 + 512].view(4, 32, 4, 1), r, scope="cta")
    return row_copy


def test_vector_tail_is_masked():
    compiled = compile_(row_copy_kernel(vector=True))
    ir = compiled.mlir["input"]
    assert re.search(r"tirx.region %\w+ \[%\w+, %\w+\] \[1, 512\] masked align 16", ir)
    ptx = compiled.ptx
    # One predicate per thread for its vector, shared by the load and store.
    assert len(re.findall(r"@%tirx_p ld.global.v4.b32", ptx)) == 1
    assert len(re.findall(r"@%tirx_p st.global.v4.b32", ptx)) == 1
    assert re.search(r"setp.lt.s64\s+%p\d+, %rd\d+, %rd\d+;", ptx)
    assert compiled.launch.grid[1].evaluate({"rows": 3, "cols": 513}) == 2


def test_scalar_tail_is_masked_per_element():
    ptx = compile_(row_copy_kernel(vector=False)).ptx
    assert len(re.findall(r"@%tirx_p ld.global.b32", ptx)) == 4
    assert len(re.findall(r"@%tirx_p st.global.b32", ptx)) == 4


def test_vector_needs_a_multiple():
    rows = T.dynamic("rows")
    n = T.dynamic("n")

    @T.function
    def straddles(X: T.Tensor((rows, n), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=(rows, T.ceildiv(n, 4)), block=1))
        c0 = T.cuda.block_idx("y") * 4
        r = T.alloc_local((4,), "float32")
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r,
                          X.masked.sub[T.cuda.block_idx("x"), c0:c0 + 4],
                          scope="thread")  # MARK-straddles
    # Without multiple_of the row base is not provably aligned either; the
    # alignment message comes first and names the same fix.
    with pytest.raises(tirx.CompileError, match=r"multiple"):
        compile_(straddles)


def test_masked_region_of_a_1d_tensor_needs_multiple():
    n = T.dynamic("n")

    @T.function
    def straddles(X: T.Tensor((n,), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 4), block=1))
        off = T.cuda.block_idx("x") * 4
        r = T.alloc_local((4,), "float32")
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, X.masked[off:off + 4])  # MARK-1d
    with pytest.raises(tirx.CompileError, match=re.escape(
            helpers.line_of(__file__, "MARK-1d") + "error: 'tile.apply' op operand #1 "
            "(addr) accesses a masked region 4 of its elements at a time, so the tensor's "
            "innermost extent must be a multiple of 4 for no access to straddle its end; "
            "declare n a multiple of 4 (tirx.multiple_of = 4; in Python "
            "T.dynamic(\"n\", multiple_of=4)), or access it one element at a time")):
        compile_(straddles)


def test_masked_keeps_the_lower_bound():
    n = T.dynamic("n")

    @T.function
    def before_start(X: T.Tensor((n,), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=n, block=1))
        i = T.cuda.block_idx("x") - 1
        r = T.alloc_local((1,), "float32")
        T.cuda.tile.apply(T.ptx["ld.global.b32"], r, X.masked[i:i + 1])  # MARK-negative
    with pytest.raises(tirx.CompileError, match=re.escape(
            helpers.line_of(__file__, "MARK-negative") + "error: 'tile.apply' op operand "
            "#1 (addr) of 'ld.global.b32' may read index -1 of dimension 0")):
        compile_(before_start)


def test_masked_shared_is_refused():
    @T.function
    def shared_mask(X: T.Tensor((64,), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        s = T.alloc_shared((64,), "float32")
        s.masked[T.cuda.thread_idx("x"):T.cuda.thread_idx("x") + 1]  # MARK-shared
    with pytest.raises(tirx.CompileError, match=re.escape(
            "only a global tensor's regions can be masked (this tensor is in shared "
            "memory)")) as error:
        compile_(shared_mask)
    assert helpers.line_of(__file__, "MARK-shared") in str(error.value)


def test_masked_tile_of_a_static_tensor():
    """A 32x32 tile at the edge of a 1000x1000 tensor: both dimensions are
    masked, element by element."""
    layout = TileLayout(S[(4, 32, 8, 1) : (1 @ warpid, 1 @ laneid, 1, 1)])

    @T.function
    def tile_copy(X: T.Tensor((1000, 1000), "float32"), Y: T.Tensor((1000, 1000), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=(32, 32), block=128))
        r0 = T.cuda.block_idx("x") * 32
        c0 = T.cuda.block_idx("y") * 32
        r = T.alloc_local((4, 32, 8, 1), "float32", layout=layout)
        T.cuda.tile.apply(T.ptx["ld.global.b32"], r,
                          X.masked[r0:r0 + 32, c0:c0 + 32].view(4, 32, 8, 1), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.b32"],
                          Y.masked[r0:r0 + 32, c0:c0 + 32].view(4, 32, 8, 1), r, scope="cta")
    ptx = compile_(tile_copy).ptx
    assert len(re.findall(r"@%tirx_p ld.global.b32", ptx)) == 8
    # Unmasked, the same tile is refuted at the edge.
    @T.function
    def unmasked(X: T.Tensor((1000, 1000), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=(32, 32), block=128))
        r0 = T.cuda.block_idx("x") * 32
        c0 = T.cuda.block_idx("y") * 32
        r = T.alloc_local((4, 32, 8, 1), "float32", layout=layout)
        T.cuda.tile.apply(T.ptx["ld.global.b32"], r,
                          X[r0:r0 + 32, c0:c0 + 32].view(4, 32, 8, 1), scope="cta")
    with pytest.raises(tirx.CompileError, match=r"may read index 1000 of dimension"):
        compile_(unmasked)


def test_docs_example_compiles():
    """docs/python.md's masked-region block runs as written."""
    from test_docs_python import run_block, section_blocks
    (block,) = section_blocks("### Tiles that overhang the end: `X.masked[...]`")
    kernel = run_block(block)["row_copy"]
    ptx = compile_(kernel).ptx
    assert len(re.findall(r"@%tirx_p ld.global.v4.b32", ptx)) == 1


def runtime_tile_kernel(vector, masked=True):
    m, n = T.dynamic("m"), T.dynamic("n", multiple_of=4 if vector else 1)
    shape = (4, 32, 2, 4) if vector else (4, 32, 8, 1)
    layout = TileLayout(S[shape : (1 @ warpid, 1 @ laneid, shape[3], 1)])
    load = "ld.global.v4.b32" if vector else "ld.global.b32"

    @T.function
    def runtime_tiles(X: T.Tensor((m, n), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=(T.ceildiv(m, 32), T.ceildiv(n, 32)),
                                                  block=128))
        r0 = T.cuda.block_idx("x") * 32
        c0 = T.cuda.block_idx("y") * 32
        r = T.alloc_local(shape, "float32", layout=layout)
        tile = (X.masked if masked else X)[r0:r0 + 32, c0:c0 + 32]
        T.cuda.tile.apply(T.ptx[load], r, tile.view(*shape), scope="cta")  # MARK-rt
    return runtime_tiles


def test_masked_tile_of_a_runtime_sized_tensor():
    """A 32x32 tile of an (m, n) tensor: its rows are n apart (a runtime
    stride), each access addressed as row * n + column, masked at both ends."""
    ptx = compile_(runtime_tile_kernel(vector=True)).ptx
    assert len(re.findall(r"@%tirx_p ld.global.v4.b32", ptx)) == 2
    # Rows times n (the last parameter: sizes follow the tensors): the
    # tile's first row, then the thread's.
    n = re.search(r"ld\.param\.b64\s+(%rd\d+), \[runtime_tiles_param_2\];", ptx).group(1)
    assert re.search(r"mul\.lo\.s64\s+%%rd\d+, %s, %%rd\d+;" % n, ptx)
    ptx = compile_(runtime_tile_kernel(vector=False)).ptx
    assert len(re.findall(r"@%tirx_p ld.global.b32", ptx)) == 8


def test_unmasked_tile_of_a_runtime_sized_tensor_is_refuted_at_the_edge():
    with pytest.raises(tirx.CompileError, match=re.escape(
            helpers.line_of(__file__, "MARK-rt") + "error: 'tile.apply' op operand #1 "
            "(addr) of 'ld.global.b32' may read index")):
        compile_(runtime_tile_kernel(vector=False, masked=False))
