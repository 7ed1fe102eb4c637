"""The bounds proof from Python (docs/bounds.md): the two out-of-bounds
programs of issue 15 are CompileErrors at the user's line, with the witness;
their in-bounds versions compile."""
import re

import pytest

import helpers

import tirx
from tirx.script import tirx as T
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, warpid

TARGET = {"kind": "cuda", "arch": "sm_90"}
HERE = "test_bounds.py"
LAYOUT = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])
N = 4096


def raises(message):
    """pytest.raises(CompileError) expecting `message` verbatim."""
    return pytest.raises(tirx.CompileError, match=re.escape(message))


def line_of(marker):
    """'test_bounds.py:N: ' for the line of this file holding `marker`."""
    return helpers.line_of(__file__, marker)


def copy_kernel(grid, offset):
    """B.sub[bx + offset] = A.sub[bx + offset] over (N, 2, 32, 4) floats."""
    @T.function
    def k(A: T.Tensor((N, 2, 32, 4), "float32", align=16),
          B: T.Tensor((N, 2, 32, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=grid, block=64))
        bx = T.cuda.block_idx("x")
        row = bx + offset if offset else bx
        regs = T.alloc_local((2, 32, 4), "float32", layout=LAYOUT)
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], regs, A.sub[row, :, :, :], scope="cta")  # MARK-load
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B.sub[row, :, :, :], regs, scope="cta")
    return k


def test_in_bounds_copy_compiles():
    assert "ld.global.v4.b32" in tirx.compile(copy_kernel(N, 0), target=TARGET).ptx


def test_grid_twice_the_rows():
    with raises(line_of("MARK-load") + "error: 'tile.apply' op operand #1 (addr) of "
                "'ld.global.v4.b32' may read index 8191 of dimension 0 of kernel "
                "argument #0 (extent 4096): with block_idx.x = 8191"):
        tirx.compile(copy_kernel(2 * N, 0), target=TARGET)


def test_row_after_the_block():
    with raises(line_of("MARK-load") + "error: 'tile.apply' op operand #1 (addr) of "
                "'ld.global.v4.b32' may read index 4096 of dimension 0 of kernel "
                "argument #0 (extent 4096): with block_idx.x = 4095"):
        tirx.compile(copy_kernel(N, 1), target=TARGET)


def guarded_copy_kernel(in_then):
    """A grid of 2N blocks copying row bx where bx < N: in the T.Then block
    (proven) or, wrongly, in the T.Else block (refuted)."""
    @T.function
    def k(A: T.Tensor((N, 2, 32, 4), "float32", align=16),
          B: T.Tensor((N, 2, 32, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=2 * N, block=64))
        bx = T.cuda.block_idx("x")
        regs = T.alloc_local((2, 32, 4), "float32", layout=LAYOUT)

        def copy():
            T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], regs, A.sub[bx, :, :, :], scope="cta")  # MARK-guarded
            T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B.sub[bx, :, :, :], regs, scope="cta")
        with T.If(bx < N):
            with T.Then():
                if in_then:
                    copy()
            with T.Else():
                if not in_then:
                    copy()
    return k


def test_t_if_is_a_guard():
    assert "ld.global.v4.b32" in tirx.compile(guarded_copy_kernel(True), target=TARGET).ptx
    with raises(line_of("MARK-guarded") + "error: 'tile.apply' op operand #1 (addr) of "
                "'ld.global.v4.b32' may read index"):
        tirx.compile(guarded_copy_kernel(False), target=TARGET)


def int32_offset_kernel(constant):
    """Rows T.index(T.int32(bx) + constant) - constant: the sum is an i32."""
    @T.function
    def k(A: T.Tensor((1024, 4), "float32", align=16),
          B: T.Tensor((1024, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1024, block=1))
        bx = T.cuda.block_idx("x")
        shifted = T.int32(bx) + T.int32(constant)  # MARK-int32-add
        row = T.index(shifted) - constant
        regs = T.alloc_local((4,), "float32")
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], regs, A.sub[row, :], scope="thread")  # MARK-int32-load
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B.sub[row, :], regs, scope="thread")
    return k


def test_int32_sum_that_fits_compiles():
    # 1023 + 1000 fits an i32: the row is bx.
    assert "ld.global.v4.b32" in tirx.compile(int32_offset_kernel(1000), target=TARGET).ptx


def test_int32_sum_that_wraps_is_refuted():
    # 1023 + 2147483000 wraps in i32 (add.s32): widened and shifted back in
    # 64 bits, the row is 2^32 below where exact arithmetic puts it.
    with pytest.raises(tirx.CompileError) as info:
        tirx.compile(int32_offset_kernel(2147483000), target=TARGET)
    for line in (line_of("MARK-int32-load") + "error: 'tile.apply' op operand #1 (addr) of "
                 "'ld.global.v4.b32' may read index -4294966273 of dimension 0 of kernel "
                 "argument #0 (extent 1024): with block_idx.x = 1023",
                 line_of("MARK-int32-load") + "note: the region is here",
                 line_of("MARK-int32-add") + "note: this 'arith.addi' wraps around in "
                 "i32: 1023 + 2147483000 = -2147483273"):
        assert line in str(info.value)
