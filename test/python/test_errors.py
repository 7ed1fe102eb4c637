"""Each class of program error is a tirx.CompileError at the user's line."""
import inspect

import pytest

import tirx
from tirx.script import tirx as T
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, warpid

TARGET = {"kind": "cuda", "arch": "sm_90"}
LAYOUT = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


def line_of(marker):
    """The line of this file that contains `marker`."""
    for number, text in enumerate(open(__file__), 1):
        if marker in text and "line_of" not in text:
            return number
    raise AssertionError(marker)


def compile_error(kernel):
    with pytest.raises(tirx.CompileError) as info:
        tirx.compile(kernel, target=TARGET)
    return str(info.value)


def test_illegal_spelling():
    @T.function
    def k(A: T.Tensor((2, 32, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        r = T.alloc_local((2, 32, 4, 1), "float32", layout=LAYOUT)
        T.cuda.tile.apply(T.ptx["fma.f32"], r, r, r, r, scope="cta")  # MARK-spelling
    message = compile_error(k)
    assert "test_errors.py:%d: error:" % line_of("MARK-spelling") in message
    assert "missing required rounding modifier" in message


def test_operand_mismatch():
    @T.function
    def k(A: T.Tensor((2, 32, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        r = T.alloc_local((2, 32, 4), "float32", layout=LAYOUT)
        T.cuda.tile.apply(T.ptx["add.rn.f32"], r, r, scope="cta")  # MARK-count
    message = compile_error(k)
    assert "test_errors.py:%d: error:" % line_of("MARK-count") in message
    assert "expects 3 operands, got 2" in message


def test_unaligned_atom():
    @T.function
    def k(A: T.Tensor((2, 32, 4), "float32", align=4)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        r = T.alloc_local((2, 32, 4), "float32", layout=LAYOUT)
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, A, scope="cta")  # MARK-align
    message = compile_error(k)
    assert "test_errors.py:%d: error:" % line_of("MARK-align") in message
    assert "aligned to 4 byte(s) but each access is a 16-byte vector" in message


def test_ewise_type_mismatch():
    @T.function(private=True)
    def half(value: T.float16) -> T.float16:
        return value

    @T.function
    def k(A: T.Tensor((2, 32, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        r = T.alloc_local((2, 32, 4), "float32", layout=LAYOUT)
        T.cuda.tile.ewise(half, r, r, scope="cta")  # MARK-ewise
    message = compile_error(k)
    assert "test_errors.py:%d: error:" % line_of("MARK-ewise") in message
    assert "ewise performs no implicit casts" in message


def test_bad_layout_for_tensor():
    @T.function
    def k(A: T.Tensor((2, 32, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        T.alloc_local((2, 32, 2), "float32", layout=LAYOUT)  # MARK-layout
    message = compile_error(k)
    assert "test_errors.py:%d: error:" % line_of("MARK-layout") in message
    assert "has 256 elements but the shape has 128" in message


def test_ownership():
    swapped = TileLayout(S[(2, 32, 4) : (1 @ laneid, 2 @ laneid, 1)])

    @T.function
    def k(A: T.Tensor((2, 32, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        r = T.alloc_local((2, 32, 4, 1), "float32", layout=swapped)
        T.cuda.tile.apply(T.ptx["abs.f32"], r, r, scope="cta")  # MARK-owner
    message = compile_error(k)
    assert "test_errors.py:%d: error:" % line_of("MARK-owner") in message
    assert "is owned by laneid=2" in message


def test_untyped_scalar_is_reported_at_its_line():
    @T.function
    def k(A: T.Tensor((2, 32, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        r = T.alloc_local((2, 32, 4, 1), "float32", layout=LAYOUT)
        T.cuda.tile.apply(T.ptx["max.f32"], r, r, 0.0, scope="cta")  # MARK-untyped
    message = compile_error(k)
    assert "test_errors.py:%d:" % line_of("MARK-untyped") in message
    assert "needs a type: write e.g. T.float32(0.0)" in message


def test_missing_device_entry():
    @T.function
    def k(A: T.Tensor((4,), "float32")):
        pass
    assert "never calls T.device_entry" in compile_error(k)
