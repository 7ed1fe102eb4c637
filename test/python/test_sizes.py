"""Runtime sizes from Python (docs/sizes.md): T.dynamic extents, grids from
sizes, runtime loop bounds, alignment claims the verifier proves, and every
misuse with its message. Compiles for sm_90 without a GPU."""
import re

import pytest

import helpers

import tirx
from tirx.script import tirx as T

TARGET = {"kind": "cuda", "arch": "sm_90"}


def compile_(f):
    return tirx.compile(f, target=TARGET)


def affine_relu_kernel(n):
    @T.function
    def affine_relu_n(A: T.Tensor((n,), "float32", align=16),
                      B: T.Tensor((n,), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
        bx = T.cuda.block_idx("x")
        tx = T.cuda.thread_idx("x")
        off = bx * 512 + tx * 4
        with T.If(off + 4 <= n):
            with T.Then():
                r = T.alloc_local((4,), "float32")
                T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, A[off:off + 4], scope="thread")
                s = r.view(4, 1)
                T.cuda.tile.apply(T.ptx["fma.rn.f32"], s, s, T.float32(2), T.float32(1),
                                  scope="thread")
                T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[off:off + 4], r, scope="thread")
            with T.Else():
                for j in T.serial(off, n):
                    x = T.alloc_local((1,), "float32")
                    T.cuda.tile.apply(T.ptx["ld.global.b32"], x, A[j:j + 1], scope="thread")
                    T.cuda.tile.apply(T.ptx["st.global.b32"], B[j:j + 1], x, scope="thread")
    return affine_relu_n


def test_one_kernel_for_every_size():
    n = T.dynamic("n")
    compiled = compile_(affine_relu_kernel(n))
    assert compiled.size_vars == [n]
    ir = compiled.mlir["input"]
    assert 'index {tirx.size = "n"}' in ir
    assert re.search(r"launch\(grid = \[%\w+ ceildiv 512\], block = \[128\]\)", ir)
    # The vector tiles claim 16 bytes (proven), the tail's elements do not.
    assert re.search(r"tirx.region %\w+ \[%\w+\] \[4\] align 16", ir)
    assert re.search(r"tirx.region %\w+ \[%\w+\] \[1\] :", ir)
    ptx = compiled.ptx
    assert "\t.param .u64 affine_relu_n_param_2" in ptx
    assert "ld.global.v4.b32" in ptx and "st.global.v4.b32" in ptx
    assert "bra" in ptx  # the tail loop is a loop
    assert ".local" not in ptx
    assert compiled.launch.grid[0].evaluate({"n": 1025}) == 3


def test_rows_at_run_time_with_divisor():
    rows = T.dynamic("rows", multiple_of=2)

    @T.function
    def pairs(A: T.Tensor((rows, 32, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=rows // 2, block=32))
        bx = T.cuda.block_idx("x")
        for k in T.unroll(2):
            r = T.alloc_local((32, 4), "float32",
                              layout="S[(32, 4) : (1@laneid, 1)]")
            T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, A.sub[bx * 2 + k, :, :],
                              scope="warp")
    ir = compile_(pairs).mlir["input"]
    assert 'index {tirx.multiple_of = 2 : i64, tirx.size = "rows"}' in ir
    assert re.search(r"grid = \[%\w+ floordiv 2\]", ir)


def test_divisor_needed_and_missing():
    rows, cols = T.dynamic("rows"), T.dynamic("cols")

    @T.function
    def first_four(A: T.Tensor((rows, cols), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=rows, block=1))
        bx = T.cuda.block_idx("x")
        r = T.alloc_local((1, 4), "float32")
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, A[bx:bx + 1, 0:4], scope="thread")
    # The tensor declares align=16: the message names the missing multiple.
    with pytest.raises(tirx.CompileError,
                       match=r"only known to be 4-byte aligned: .* cols is not declared a multiple "
                             r"of 4; declare cols a multiple of 4: T\.dynamic\(\"cols\", "
                             r"multiple_of=4\)"):
        compile_(first_four)
    cols4 = T.dynamic("cols", multiple_of=4)

    @T.function
    def first_four_ok(A: T.Tensor((rows, cols4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=rows, block=1))
        bx = T.cuda.block_idx("x")
        r = T.alloc_local((1, 4), "float32")
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, A[bx:bx + 1, 0:4], scope="thread")
    assert "align 16" in compile_(first_four_ok).mlir["input"]


def test_unguarded_tail_is_refuted_with_witness():
    n = T.dynamic("n")

    @T.function
    def unguarded(A: T.Tensor((n,), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=32))
        off = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x") * 4
        r = T.alloc_local((4,), "float32")
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, A[off:off + 4], scope="thread")  # MARK-tail
    # The witness, exactly: block 1's last thread reads [252, 256) of 129.
    with pytest.raises(tirx.CompileError, match=re.escape(
            helpers.line_of(__file__, "MARK-tail") + "error: 'tile.apply' op operand #1 "
            "(addr) of 'ld.global.v4.b32' may read index 252 of dimension 0 of kernel "
            "argument #0 (extent n): with n = 129, block_idx.x = 1, thread_idx.x = 31")):
        compile_(unguarded)


def test_python_if_on_a_size():
    n = T.dynamic("n")

    @T.function
    def branchy(A: T.Tensor((n,), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        if n:
            pass
    with pytest.raises(tirx.CompileError,
                       match=r"a size variable has no value while tracing: `if n` cannot be "
                             r"decided in Python; use `with T.If\(...\)`"):
        compile_(branchy)


def test_size_as_python_int():
    n = T.dynamic("n")

    @T.function
    def ranged(A: T.Tensor((n,), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        for _ in range(n):
            pass
    with pytest.raises(tirx.CompileError, match="size variable n is a runtime value, not a "
                                                "Python int"):
        compile_(ranged)


def test_unroll_of_a_size():
    n = T.dynamic("n")

    @T.function
    def unrolled(A: T.Tensor((n,), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        for _ in T.unroll(n):
            pass
    with pytest.raises(tirx.CompileError, match="T.unroll needs static int bounds, got the "
                                                "size variable n as its stop"):
        compile_(unrolled)


def test_runtime_step():
    n = T.dynamic("n")

    @T.function
    def stepped(A: T.Tensor((n,), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        for _ in T.serial(0, 8, n):
            pass
    with pytest.raises(tirx.CompileError, match="T.serial needs static int bounds, got the size "
                                                "variable n as its step; a runtime step is "
                                                "not supported"):
        compile_(stepped)


def test_size_not_of_this_kernel():
    n, m = T.dynamic("n"), T.dynamic("m")

    @T.function
    def other(A: T.Tensor((n,), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(m, 32), block=32))
    with pytest.raises(tirx.CompileError, match="the grid uses size variable m, which is no "
                                                "extent of a parameter of @other"):
        compile_(other)

    @T.function
    def other_value(A: T.Tensor((n,), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        T.cuda.thread_idx("x") < m
    with pytest.raises(tirx.CompileError, match="size variable m is not an extent of any tensor "
                                                "parameter of the kernel being traced"):
        compile_(other_value)


def test_full_slice_of_a_runtime_extent():
    n = T.dynamic("n")

    @T.function
    def whole(A: T.Tensor((n,), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        A[:]
    with pytest.raises(tirx.CompileError, match="dimension 0 has the runtime extent n: a slice "
                                                "of it needs both bounds and a static size"):
        compile_(whole)


@pytest.mark.parametrize("args, message", [
    (("1n",), "T.dynamic needs an identifier as the size variable's name, got '1n'"),
    (("n", 0), r"T.dynamic\('n'\): multiple_of must be an int in \[1, 2\^30\], got 0"),
    (("n", 1, 0), r"T.dynamic\('n'\): at_most must be an int in \[1, 2\^62\], got 0"),
    (("n", 1, 4.0), r"T.dynamic\('n'\): at_most must be an int in \[1, 2\^62\], got 4.0"),
    (("n", 1, 1 << 63), r"T.dynamic\('n'\): at_most must be an int in \[1, 2\^62\], got "),
    (("n", 4, 66), r"T.dynamic\('n'\): at_most = 66 is not a multiple of multiple_of = 4"),
])
def test_bad_dynamic(args, message):
    with pytest.raises(tirx.CompileError, match=message):
        T.dynamic(*args)


def test_at_most_reaches_the_ir_and_the_bounds_proof():
    """T.dynamic(..., at_most=64): the kernel argument carries tirx.at_most,
    and a loop over n reads a 64-element tensor, proven only with it (at
    most 68 the proof is refuted with n = 68)."""
    def kernel(at_most):
        n = T.dynamic("n", multiple_of=4, at_most=at_most)

        @T.function
        def k(A: T.Tensor((n,), "float32", align=4), B: T.Tensor((64,), "float32", align=4)):
            T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=1))
            x = T.alloc_local((1,), "float32")
            for i in T.serial(0, n):
                T.cuda.tile.apply(T.ptx["ld.global.b32"], x, B[i:i + 1],  # MARK-most
                                  scope="thread")
        return k
    compiled = compile_(kernel(64))
    assert ('index {tirx.at_most = 64 : i64, tirx.multiple_of = 4 : i64, tirx.size = "n"}'
            in compiled.mlir["input"])
    assert [(v.name, v.multiple_of, v.at_most) for v in compiled.size_vars] == [("n", 4, 64)]
    assert repr(compiled.size_vars[0]) == "T.dynamic('n', multiple_of=4, at_most=64)"
    with pytest.raises(tirx.CompileError, match=re.escape(
            "may read index 67 of dimension 0 of kernel argument #1 (extent 64): with n = 68")):
        compile_(kernel(68))


def test_bad_shapes_and_grids():
    n = T.dynamic("n")
    with pytest.raises(tirx.CompileError, match="a size variable names two extents of one "
                                                "tensor"):
        T.Tensor((n, n), "float32")
    with pytest.raises(tirx.CompileError, match="a tensor with runtime extents is dense "
                                                "row-major and takes no layout"):
        T.Tensor((n,), "float32", layout="S[4 : 1]")
    with pytest.raises(tirx.CompileError, match="a grid expression divides by a positive int"):
        T.ceildiv(n, 0)
    with pytest.raises(tirx.CompileError, match="a grid expression multiplies by an int, not by "
                                                "another size"):
        n * n
    with pytest.raises(tirx.CompileError, match="a grid expression subtracts an int, not another "
                                                "size"):
        n - n
    with pytest.raises(tirx.CompileError, match="a grid expression combines size variables with "
                                                "ints"):
        n + 1.5
    with pytest.raises(tirx.CompileError, match="T.ceildiv needs ints, index values or size "
                                                "variables"):
        T.ceildiv(1.5, 2)
    assert T.ceildiv(7, 2) == 4
    assert (2 * n + 1).evaluate({"n": 5}) == 11
    assert ((n - 1) % 4 + n // 2).evaluate({"n": 10}) == 5 + 1


def test_two_sizes_one_name():
    a, b = T.dynamic("n", multiple_of=2), T.dynamic("n", multiple_of=4)

    @T.function
    def clash(A: T.Tensor((a,), "float32"), B: T.Tensor((b,), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    with pytest.raises(tirx.CompileError, match="two size variables named n declare different "
                                                "multiples"):
        compile_(clash)


def test_more_misuses():
    n = T.dynamic("n")
    with pytest.raises(tirx.CompileError, match="T.Tensor: a size variable names two extents of "
                                                "one tensor, got"):
        T.Tensor((n, n), "float32")
    with pytest.raises(tirx.CompileError, match="T.Tensor: a tensor with runtime extents is dense "
                                                "row-major and takes no layout"):
        T.Tensor((n,), "float32", layout="S[4 : 1]")
    with pytest.raises(tirx.CompileError, match="a grid expression divides by a positive int, "
                                                "got 0"):
        T.ceildiv(n, 0)
    with pytest.raises(tirx.CompileError, match="a grid expression combines size variables with "
                                                "ints, got 1.5"):
        n + 1.5
    with pytest.raises(tirx.CompileError, match="T.ceildiv needs ints, index values or size "
                                                "variables, got 1.5, 2"):
        T.ceildiv(1.5, 2)


def test_index_of_a_size():
    n = T.dynamic("n")
    with pytest.raises(tirx.CompileError, match=re.escape(
            "size variable n is a runtime value, not a Python int (use it in T.serial, region "
            "offsets, comparisons or a grid expression)")):
        [0, 1][n]


def test_full_slice_message():
    n = T.dynamic("n")

    @T.function
    def whole(A: T.Tensor((4, n), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        A[0:1, :]
    with pytest.raises(tirx.CompileError, match=re.escape(
            "dimension 1 has the runtime extent n: a slice of it needs both bounds and a static "
            "size, as in A[i*4:(i+1)*4]")):
        compile_(whole)


@pytest.mark.parametrize("first, second, message", [
    (dict(multiple_of=2), dict(multiple_of=4),
     "two size variables named n declare different multiples (2 and 4)"),
    (dict(at_most=64), dict(at_most=128),
     "two size variables named n declare different largest values (at_most 64 and 128)"),
])
def test_two_sizes_one_name_message(first, second, message):
    a, b = T.dynamic("n", **first), T.dynamic("n", **second)

    @T.function
    def clash(A: T.Tensor((a,), "float32"), B: T.Tensor((b,), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    with pytest.raises(tirx.CompileError, match=re.escape(message)):
        compile_(clash)


def test_persistent_example():
    # examples/python/affine_relu_persistent.py (the GPU check runs it for
    # n = 1 ... 2^31 + 5): a grid-stride loop kept as a loop, the vectors
    # proven 16-byte aligned, the size a 64-bit parameter, nothing in .local.
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples",
                                    "python"))
    from affine_relu_persistent import UNROLL, make_kernel
    compiled = compile_(make_kernel(132))
    ptx = compiled.ptx
    assert "\t.param .u64 affine_relu_persistent_param_2" in ptx
    assert ptx.count("ld.global.v4.b32") == 2 * UNROLL  # full chunk + tail vectors
    assert ptx.count("st.global.v4.b32") == 2 * UNROLL
    # The grid-stride loop, and one tail loop per unrolled vector.
    assert ptx.count('.pragma "nounroll";') == 1 + UNROLL
    assert ".local" not in ptx
    assert compiled.mlir["input"].count("align 16") == 4 * UNROLL
    assert compiled.spill_bytes == 0


def test_one_pass_example():
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples",
                                    "python"))
    from affine_relu_persistent import UNROLL, make_one_pass_kernel
    compiled = compile_(make_one_pass_kernel())
    assert compiled.launch.grid[0].evaluate({"n": 4097}) == 2
    assert re.search(r"launch\(grid = \[%\w+ ceildiv 4096\]", compiled.mlir["input"])
    assert compiled.ptx.count("ld.global.v4.b32") == UNROLL
    assert ".local" not in compiled.ptx


def test_compiled_kernel_through_the_launcher(monkeypatch):
    # The DSL's SizeVar and grid expression with the launcher (a recording
    # runtime library stands in for the GPU: test_launch.py).
    import sys
    import test_launch
    from tirx import runtime
    n = T.dynamic("n", multiple_of=2)
    compiled = compile_(affine_relu_kernel(n))
    torch = test_launch.fake_torch_module()
    monkeypatch.setitem(sys.modules, "torch", torch)
    made, library = test_launch.launcher(monkeypatch, compiled.params, compiled.launch.grid,
                                         compiled.launch.block, compiled.size_vars)
    for size in (2, 1026):
        made((torch.Tensor((size,), pointer=0x20000), torch.Tensor((size,), pointer=0x30000)))
        assert library.launches[-1]["args"] == [0x20000, 0x30000, size]
        assert library.launches[-1]["grid"] == (-(-size // 512), 1, 1)
    with pytest.raises(ValueError, match="parameter 'A': n = 7 is not a multiple of 2, as "
                                         "the size variable n declares"):
        made((torch.Tensor((7,), pointer=0x20000), torch.Tensor((7,), pointer=0x30000)))
    with pytest.raises(ValueError, match=re.escape("parameter 'B' has shape (8,), but n = 6 "
                                                   "from parameter 'A'")):
        made((torch.Tensor((6,), pointer=0x20000), torch.Tensor((8,), pointer=0x30000)))
