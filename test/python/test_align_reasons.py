"""A vector access whose region is less aligned than the tensor it selects
from is refused at the user's line with the reason: the size variable that
lacks a multiple_of (and the T.dynamic that fixes it), or the offset, not
"declare align" on a tensor that declares it (docs/sizes.md; the IR-level
cases are test/Dialect/Tile/align-reason-invalid.mlir)."""
import pytest

import tirx
from tirx.script import tirx as T

SM90 = {"kind": "cuda", "arch": "sm_90"}


def row_kernel(multiple_of=1, start=0, runtime_column=False):
    """Each CTA loads 4 floats of its row of X (rows, cols) with one
    ld.global.v4.b32; `start`: the first column; runtime_column: a static
    (64, 64) tensor read at column thread_idx instead."""
    rows = T.dynamic("rows")
    cols = T.dynamic("cols", multiple_of=multiple_of)

    @T.function
    def row_load(X: T.Tensor((rows, cols), "float32", align=16),
                 Z: T.Tensor((64, 64), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=rows, block=16))
        row = T.cuda.block_idx("x")
        tx = T.cuda.thread_idx("x")
        r = T.alloc_local((1, 4), "float32")
        if runtime_column:
            source = Z.sub[tx, tx:tx + 4]
        else:
            source = X.sub[row, start:start + 4]
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, source.view(1, 4), scope="thread")  # LOAD

    return row_load


def load_line():
    import inspect
    lines, first = inspect.getsourcelines(row_kernel)
    return first + next(i for i, text in enumerate(lines) if "# LOAD" in text)


def compile_error(kernel):
    with pytest.raises(tirx.CompileError) as info:
        tirx.compile(kernel, target=SM90)
    message = str(info.value)
    assert "%s:%d: error:" % (__file__, load_line()) in message
    assert "declare align" not in message
    return message


@pytest.mark.parametrize("multiple_of, known, declared", [
    (1, 4, "is not declared a multiple of 4"),
    (2, 8, "is declared a multiple of 2 only"),
])
def test_size_variable_without_multiple(multiple_of, known, declared):
    message = compile_error(row_kernel(multiple_of=multiple_of))
    assert ("each access is a 16-byte vector, but this region of a tensor declared align "
            "= 16 is only known to be %d-byte aligned: its offset in dimension 0 moves it "
            "by strides of cols elements of 4 bytes, and cols %s; declare cols a multiple "
            "of 4: T.dynamic(\"cols\", multiple_of=4) in Python" % (known, declared)) in message
    assert "note: the region is here" in message


def test_multiple_of_4_compiles():
    assert "ld.global.v4.b32" in tirx.compile(row_kernel(multiple_of=4), target=SM90).ptx


def test_static_offset():
    message = compile_error(row_kernel(multiple_of=4, start=1))
    assert ("is only known to be 4-byte aligned: its offset 1 in dimension 1 moves it by "
            "1 x 4 bytes, not a multiple of 16; start the region at a multiple of 4 in that "
            "dimension") in message


def test_runtime_offset():
    message = compile_error(row_kernel(runtime_column=True))
    assert ("is only known to be 4-byte aligned: its runtime offset in dimension 1 is not "
            "known to be a multiple of 4 (each step moves the base by 4 bytes); compute it "
            "as a multiple of 4 (e.g. i * 4 in Python)") in message
