"""Malformed input at every entry point of the Python layer: each raises one
clear Python exception that names the parameter or the user's source line
(never a crash inside ctypes)."""
import copy
import inspect
import pickle
import re

import numpy
import pytest

import helpers

import tirx
from tirx import runtime
from tirx.script import tirx as T
from tirx.layout import LayoutError, S, R, TileLayout
from tirx.cuda.axis import laneid, warpid
from affine_relu import affine_relu

TARGET = {"kind": "cuda", "arch": "sm_90"}
LAYOUT = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])
HERE = "test_malformed.py"


def raises(exception, message):
    """pytest.raises expecting `message` verbatim (not as a regex)."""
    return pytest.raises(exception, match=re.escape(message))


def line_of(marker):
    """'test_malformed.py:N: ' for the line of this file holding `marker`."""
    return helpers.line_of(__file__, marker)


def compile_kernel(kernel):
    return tirx.compile(kernel, target=TARGET)


def kernel_with(body):
    """A one-CTA kernel on A: (2, 32, 4) float32 running `body(A)`."""
    @T.function
    def k(A: T.Tensor((2, 32, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        body(A)
    return k


class FakeCuda:
    """A stand-in for a CUDA tensor: just __cuda_array_interface__."""

    def __init__(self, shape=(2, 32, 4), typestr="<f4", pointer=0x10000, strides=None,
                 **extra):
        self.__cuda_array_interface__ = dict(shape=shape, typestr=typestr,
                                             data=(pointer, False), strides=strides,
                                             version=3, **extra)


class Interface:
    def __init__(self, interface):
        self.__cuda_array_interface__ = interface


#===------------------------------------------------------------------------===#
# Calling a compiled kernel: every argument is checked before any ctypes call
#===------------------------------------------------------------------------===#

@pytest.fixture(scope="module")
def compiled():
    return tirx.compile(affine_relu, target=TARGET)


@T.function
def with_scalars(A: T.Tensor((2, 32, 4), "float32", align=16), n: T.int32, x: T.float32,
                 u: T.uint8):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))


@T.function
def with_half(A: T.Tensor((2, 32, 4), "float32", align=16), h: T.float16):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))


@pytest.fixture(scope="module")
def scalars():
    return tirx.compile(with_scalars, target=TARGET)


def test_too_few_and_too_many_arguments(compiled):
    with raises(TypeError, "affine_relu() takes 2 argument(s) (A, B), got 0"):
        compiled()
    with raises(TypeError, "affine_relu() takes 2 argument(s) (A, B), got 3"):
        compiled(FakeCuda(), FakeCuda(), FakeCuda())


def test_cpu_tensors(compiled):
    needs = ("parameter 'A' needs a CUDA tensor (an object with __cuda_array_interface__ "
             "or __dlpack__), got ")
    with raises(TypeError, needs + "ndarray on DLPack device cpu"):
        compiled(numpy.zeros((2, 32, 4), numpy.float32), FakeCuda())
    with raises(TypeError, needs + "list"):
        compiled([[0.0] * 4] * 64, FakeCuda())
    with raises(TypeError, needs + "NoneType"):
        compiled(None, FakeCuda())

    class CpuTensor:
        device = "cpu"
    with raises(TypeError, needs + "CpuTensor on cpu"):
        compiled(CpuTensor(), FakeCuda())


def test_wrong_rank_shape_and_dtype(compiled):
    with raises(ValueError, "parameter 'B' has rank 2, expected 3 (shape (2, 32, 4))"):
        compiled(FakeCuda(), FakeCuda((64, 4)))
    with raises(ValueError, "parameter 'A' has shape (2, 32, 8), expected (2, 32, 4)"):
        compiled(FakeCuda((2, 32, 8)), FakeCuda())
    with raises(TypeError, "parameter 'B' has element type <i4, expected <f4 (float32)"):
        compiled(FakeCuda(), FakeCuda(typestr="<i4"))


def test_unaligned_tensor(compiled):
    with raises(ValueError, "parameter 'B' is at address 0x10008, not aligned to the "
                            "declared 16 bytes"):
        compiled(FakeCuda(), FakeCuda(pointer=0x10008))


def test_non_contiguous_tensor(compiled):
    with raises(ValueError, "parameter 'A' is not contiguous (strides (512, 16, 8) bytes, "
                            "expected (512, 16, 4))"):
        compiled(FakeCuda(strides=(512, 16, 8)), FakeCuda())
    # A transposed view: the right strides, in the wrong order.
    with raises(ValueError, "parameter 'B' is not contiguous (strides (4, 8, 256) bytes"):
        compiled(FakeCuda(), FakeCuda(strides=(4, 8, 256)))


def test_stride_of_an_extent_one_dimension_is_free_but_others_are_checked():
    kind = T.Tensor((2, 1, 4), "float32").type
    assert runtime.check_argument("A", kind, FakeCuda((2, 1, 4), strides=(16, 999, 4)))
    with raises(ValueError, "parameter 'A' is not contiguous (strides (16, 16, 8) bytes, "
                            "expected (16, 16, 4))"):
        runtime.check_argument("A", kind, FakeCuda((2, 1, 4), strides=(16, 16, 8)))


def test_malformed_array_interface(compiled):
    malformed = ("parameter 'A' has a malformed __cuda_array_interface__ (it needs shape, "
                 "typestr and data)")
    for interface in ({}, {"shape": (2, 32, 4), "typestr": "<f4"}, "not a dict",
                      {"shape": None, "typestr": "<f4", "data": (0x10000, False)},
                      {"shape": (2, 32, 4), "typestr": "<f4", "data": ()}):
        with raises(TypeError, malformed):
            compiled(Interface(interface), FakeCuda())
    with raises(ValueError, "parameter 'A' has no device memory (data pointer None)"):
        compiled(FakeCuda(pointer=None), FakeCuda())
    with raises(ValueError, "parameter 'B' has no device memory (data pointer 0)"):
        compiled(FakeCuda(), FakeCuda(pointer=0))
    with raises(ValueError, "parameter 'A' is a masked array; pass the data without a mask"):
        compiled(FakeCuda(mask=FakeCuda()), FakeCuda())


def test_scalar_type_mismatches(scalars):
    good = FakeCuda()
    with raises(TypeError, "parameter 'n' is a int32 scalar, got float"):
        scalars(good, 1.5, 1.0, 1)
    with raises(TypeError, "parameter 'u' is a uint8 scalar, got float"):
        scalars(good, 1, 1.0, 2.0)
    with raises(TypeError, "parameter 'x' is a float32 scalar, got str"):
        scalars(good, 1, "1.0", 1)
    with raises(TypeError, "parameter 'x' is a float32 scalar, got FakeCuda"):
        scalars(good, 1, FakeCuda(), 1)
    with raises(TypeError, "parameter 'n' is a int32 scalar, got ndarray"):
        scalars(good, numpy.zeros(1, numpy.int32), 1.0, 1)
    with raises(TypeError, "parameter 'A' needs a CUDA tensor (an object with "
                           "__cuda_array_interface__ or __dlpack__), got int"):
        scalars(3, 1, 1.0, 1)


def test_scalar_out_of_range(scalars):
    good = FakeCuda()
    with raises(ValueError, "parameter 'n' = 2147483648 is out of range for int32"):
        scalars(good, 2 ** 31, 1.0, 1)
    with raises(ValueError, "parameter 'u' = -1 is out of range for uint8"):
        scalars(good, 1, 1.0, -1)
    with raises(ValueError, "parameter 'x' = 1e+39 is out of range for float32"):
        scalars(good, 1, 1e39, 1)


def test_scalar_conversions_that_are_accepted():
    # Python's numeric tower: an int is a float (exactly converted); a NumPy
    # integer is an int; infinities are floats.
    assert runtime.check_argument("x", T.float32, 2).value == 2.0
    assert runtime.check_argument("x", T.float32, float("inf")).value == float("inf")
    assert runtime.check_argument("n", T.int32, numpy.int64(-7)).value == -7
    assert runtime.check_argument("u", T.uint32, 2 ** 32 - 1).value == 2 ** 32 - 1


def test_half_scalars_cannot_be_passed():
    compiled = tirx.compile(with_half, target=TARGET)
    with raises(TypeError, "parameter 'h': float16 scalars cannot be passed yet"):
        compiled(FakeCuda(), 1.0)


#===------------------------------------------------------------------------===#
# tirx.compile: the kernel, the target, the pipeline
#===------------------------------------------------------------------------===#

def test_compile_needs_a_kernel():
    @T.function(private=True)
    def scalar(value: T.float32) -> T.float32:
        return value
    with raises(TypeError, "tirx.compile needs a @T.function kernel, got a private scalar "
                           "function"):
        tirx.compile(scalar, target=TARGET)
    with raises(TypeError, "tirx.compile needs a @T.function kernel, got 42"):
        tirx.compile(42, target=TARGET)


@pytest.mark.parametrize("target, message", [
    ({"kind": "rocm"}, "the target kind must be 'cuda' or 'interpret', got 'rocm'"),
    ("rocm", "target must be 'cuda', 'interpret' or {'kind': 'cuda', 'arch': 'sm_90'}, got "
             "'rocm'"),
    (["cuda"], "target must be 'cuda', 'interpret' or {'kind': 'cuda', 'arch': 'sm_90'}, got "
               "['cuda']"),
    ({"kind": "cuda", "arch": "sm_90", "arc": "sm_90"},
     "unknown target key(s) 'arc' (known: kind, arch, backend_config, fast_math, "
     "max_registers, strict_races, race_proof)"),
    ({"kind": "cuda", "arch": "sm_90", "max_registers": 256},
     "target max_registers must be an int from 1 to 255 (0 or absent: ptxas's choice), got 256"),
    ({"kind": "cuda", "arch": "sm_90", "max_registers": -1},
     "target max_registers must be an int from 1 to 255 (0 or absent: ptxas's choice), got -1"),
    ({"kind": "cuda", "arch": "sm_90", "max_registers": True},
     "target max_registers must be an int from 1 to 255 (0 or absent: ptxas's choice), got True"),
    ({"kind": "cuda", "arch": "sm_abc"},
     "target arch must be a chip name such as 'sm_90' or 'sm_90a', got 'sm_abc'"),
    ({"kind": "cuda", "arch": 90},
     "target arch must be a chip name such as 'sm_90' or 'sm_90a', got 90"),
    # Option text of the C API: a space would smuggle in another option.
    ({"kind": "cuda", "arch": "sm_90 fast-math=1"},
     "target arch must be a chip name such as 'sm_90' or 'sm_90a', got 'sm_90 fast-math=1'"),
    ({"kind": "cuda", "arch": "compute_90"},
     "target arch must be a chip name such as 'sm_90' or 'sm_90a', got 'compute_90'"),
    ({"kind": "cuda", "arch": "sm_90", "backend_config": {"cuda": {"nvrtc": "-O3"}}},
     "backend_config must look like {'cuda': {'nvrtc': ['--use_fast_math']}}, got"),
    ({"kind": "cuda", "arch": "sm_90", "backend_config": {"rocm": {}}},
     "backend_config must look like {'cuda': {'nvrtc': ['--use_fast_math']}}, got"),
    ({"kind": "cuda", "arch": "sm_90", "backend_config": {"cuda": {"nvcc": []}}},
     "backend_config must look like {'cuda': {'nvrtc': ['--use_fast_math']}}, got"),
    ({"kind": "cuda", "arch": "sm_90", "backend_config": ["--use_fast_math"]},
     "backend_config must look like {'cuda': {'nvrtc': ['--use_fast_math']}}, got"),
    ({"kind": "cuda", "arch": "sm_90", "backend_config": {"cuda": {"nvrtc": ["-lineinfo"]}}},
     "unsupported nvrtc flag '-lineinfo' in backend_config (supported: --use_fast_math)"),
])
def test_bad_target(target, message):
    with raises(ValueError, message):
        tirx.compile(affine_relu, target=target)


def test_bad_pipeline():
    with raises(ValueError, "pipeline must be 'default', got 'fast'"):
        tirx.compile(affine_relu, target=TARGET, pipeline="fast")


#===------------------------------------------------------------------------===#
# Kernel signatures and annotations
#===------------------------------------------------------------------------===#

def test_missing_annotation():
    @T.function  # MARK-no-annotation (errors in a signature point at its first line)
    def k(A):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    message = "parameter 'A' of @k needs an annotation: T.Tensor(...) or a scalar type"
    with raises(tirx.CompileError, line_of("MARK-no-annotation") + message):
        compile_kernel(k)


def test_bad_annotations():
    @T.function
    def k(A: 42):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    with raises(tirx.CompileError, "parameter 'A' of @k is annotated 42, not T.Tensor(...) "
                                   "or a scalar type"):
        compile_kernel(k)

    @T.function
    def k(A: "T.Tensor((4,), 'float32')"):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    with raises(tirx.CompileError, "not T.Tensor(...) or a scalar type (a string "
                                   "annotation: TirX needs evaluated annotations; remove "
                                   "`from __future__ import annotations`)"):
        compile_kernel(k)


def test_tensor_annotation_errors_at_their_line():
    where = line_of("MARK-shape")
    with raises(tirx.CompileError, where + "T.Tensor needs a shape of positive ints or size variables (T.dynamic), got (0, 4)"):
        T.Tensor((0, 4), "float32")  # MARK-shape
    for shape in [(-1, 4), (), 4, ("a",), (2.0,), (True,)]:
        with raises(tirx.CompileError, "T.Tensor needs a shape of positive ints or size variables (T.dynamic), got %r"
                    % (shape,)):
            T.Tensor(shape, "float32")
    for align in [3, 0, -4, 16.0]:
        with raises(tirx.CompileError, "T.Tensor: align must be a positive power of two, got %r"
                    % (align,)):
            T.Tensor((4,), "float32", align=align)
    with raises(tirx.CompileError, "unknown dtype 'float33'; expected one of float16, "
                                   "bfloat16, float32"):
        T.Tensor((4,), "float33")
    with raises(LayoutError, "invalid layout 'S[4 : 1@lane]'"):
        T.Tensor((4,), "float32", layout="S[4 : 1@lane]")


def test_compiler_errors_in_the_signature_name_the_parameter():
    # The layout is well formed but has 8 elements for a 4-element tensor:
    # the compiler's message comes back at the annotation's line.
    wrong = T.Tensor((4,), "float32", layout=S[8 : 1])  # MARK-annotation

    @T.function
    def k(B: T.Tensor((4,), "float32"), A: wrong):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    with raises(tirx.CompileError, line_of("MARK-annotation") + "error: parameter 'A': "
                "layout #tirx.layout<S[8 : 1]> has 8 elements but the shape has 4"):
        compile_kernel(k)


#===------------------------------------------------------------------------===#
# LaunchConfig and T.device_entry
#===------------------------------------------------------------------------===#

@pytest.mark.parametrize("grid, block, message", [
    ((1, 2, 3, 4), 64,
     "LaunchConfig grid= needs an int or 1 to 3 ints (x first) or size expressions such as "
     "T.ceildiv(n, 256), got (1, 2, 3, 4)"),
    ((), 64, "LaunchConfig grid= needs an int or 1 to 3 ints (x first) or size expressions such as "
     "T.ceildiv(n, 256), got ()"),
    ("a", 64, "LaunchConfig grid= needs an int or 1 to 3 ints (x first) or size expressions such as "
     "T.ceildiv(n, 256), got 'a'"),
    (None, 64, "LaunchConfig grid= needs an int or 1 to 3 ints (x first) or size expressions such as "
     "T.ceildiv(n, 256), got None"),
    (1, 1.5, "LaunchConfig block= needs an int or 1 to 3 ints (x first), got 1.5"),
    (1, (32, True), "LaunchConfig block= needs an int or 1 to 3 ints (x first), got (32, True)"),
])
def test_launch_config_types(grid, block, message):
    with raises(tirx.CompileError, line_of("MARK-launch-types") + message):
        T.cuda.LaunchConfig(grid=grid, block=block)  # MARK-launch-types


@pytest.mark.parametrize("grid, block, message", [
    (0, 64, "grid extent x = 0 is out of range [1, 2147483647]"),
    ((1, 65536), 64, "grid extent y = 65536 is out of range [1, 65535]"),
    (1, 2048, "block extent x = 2048 is out of range [1, 1024]"),
    (1, (32, 32, 2), "block has 2048 threads; at most 1024 are allowed"),
])
def test_launch_config_ranges_at_the_user_line(grid, block, message):
    @T.function
    def k(A: T.Tensor((4,), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=grid, block=block))  # MARK-range
    with raises(tirx.CompileError, line_of("MARK-range") + "error: "):
        compile_kernel(k)
    with raises(tirx.CompileError, message):
        compile_kernel(k)


def test_launch_config_options():
    with raises(tirx.CompileError, "LaunchConfig options not supported yet: preferred_cluster"):
        T.cuda.LaunchConfig(grid=1, block=64, preferred_cluster=2)
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'block'"):
        T.cuda.LaunchConfig(grid=1)


def device_entry_kernel(call):
    @T.function
    def k(A: T.Tensor((4,), "float32")):
        call()
    return k


@pytest.mark.parametrize("call, message", [
    (lambda: T.device_entry(),
     "T.device_entry needs launch=T.cuda.LaunchConfig(grid=..., block=...), got None"),
    (lambda: T.device_entry(launch={"grid": 1, "block": 64}),
     "T.device_entry needs launch=T.cuda.LaunchConfig(grid=..., block=...), got {'grid': 1"),
    (lambda: T.device_entry(T.cuda.LaunchConfig(grid=1, block=64)),
     "T.device_entry takes only launch=T.cuda.LaunchConfig(...), got a positional "
     "LaunchConfig"),
    (lambda: T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64), cluster=2),
     "T.device_entry takes only launch=T.cuda.LaunchConfig(...), got cluster="),
])
def test_device_entry_misuse(call, message):
    with raises(tirx.CompileError, message):
        compile_kernel(device_entry_kernel(call))


def test_device_entry_twice_and_never():
    @T.function
    def twice(A: T.Tensor((4,), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        T.device_entry(launch=T.cuda.LaunchConfig(grid=2, block=64))  # MARK-twice
    message = "T.device_entry is called twice; a kernel has one launch configuration"
    with raises(tirx.CompileError, line_of("MARK-twice") + message):
        compile_kernel(twice)

    @T.function
    def never(A: T.Tensor((4,), "float32")):
        pass
    first = inspect.getsourcelines(never.fn)[1]
    message = "@never never calls T.device_entry(launch=T.cuda.LaunchConfig(...))"
    with raises(tirx.CompileError, "%s:%d: %s" % (HERE, first, message)):
        compile_kernel(never)


#===------------------------------------------------------------------------===#
# Kernel bodies: instructions, operands, tiles, regions
#===------------------------------------------------------------------------===#

def test_unknown_instruction_spellings():
    def unknown(A):
        r = T.alloc_local((2, 32, 4, 1), "float32", layout=LAYOUT)
        T.cuda.tile.apply(T.ptx["frobnicate.f32"], r, r, scope="cta")  # MARK-unknown
    with raises(tirx.CompileError, line_of("MARK-unknown") + "error: 'tile.apply' op "
                "'frobnicate.f32': unknown instruction family 'frobnicate'"):
        compile_kernel(kernel_with(unknown))

    def attribute(A):
        r = T.alloc_local((2, 32, 4, 1), "float32", layout=LAYOUT)
        T.cuda.tile.apply(T.ptx.abs.f33, r, r, scope="cta")  # MARK-attribute
    with raises(tirx.CompileError, line_of("MARK-attribute") + "error: 'tile.apply' op "):
        compile_kernel(kernel_with(attribute))

    def quoted(A):
        r = T.alloc_local((2, 32, 4, 1), "float32", layout=LAYOUT)
        T.cuda.tile.apply(T.ptx['abs"f32'], r, r, scope="cta")  # MARK-quote
    # The spelling reaches the compiler intact (escaped in the IR).
    with raises(tirx.CompileError, line_of("MARK-quote") + "error: 'tile.apply' op "
                "'abs\"f32': invalid character '\"' in instruction spelling"):
        compile_kernel(kernel_with(quoted))

    def empty(A):
        r = T.alloc_local((2, 32, 4, 1), "float32", layout=LAYOUT)
        T.cuda.tile.apply(T.ptx[""], r, r, scope="cta")
    with raises(tirx.CompileError, "error: 'tile.apply' op '': empty instruction spelling"):
        compile_kernel(kernel_with(empty))


def test_instruction_that_is_not_a_spelling():
    def number(A):
        T.cuda.tile.apply(T.ptx[12], A, A, scope="cta")  # MARK-ptx-number
    message = 'T.ptx[...] needs a spelling string such as T.ptx["fma.rn.f32"], got 12'
    with raises(tirx.CompileError, line_of("MARK-ptx-number") + message):
        compile_kernel(kernel_with(number))

    def function(A):
        T.cuda.tile.apply(len, A, A, scope="cta")
    message = 'tile.apply needs an instruction such as T.ptx["fma.rn.f32"], got <built-in'
    with raises(tirx.CompileError, message):
        compile_kernel(kernel_with(function))


def test_apply_keywords():
    with raises(tirx.CompileError, "scope must be one of thread, warp, warpgroup, cta, "
                                   "got 'grid'"):
        compile_kernel(kernel_with(
            lambda A: T.cuda.tile.apply(T.ptx.abs.f32, A, A, scope="grid")))
    with raises(tirx.CompileError, "tile.apply has no parameter wait (it takes chunk_bytes, "
                                   "src_size, cache_policy)"):
        compile_kernel(kernel_with(
            lambda A: T.cuda.tile.apply(T.ptx.abs.f32, A, A, scope="cta", wait=True)))
    with raises(tirx.CompileError, "pred= needs a comparison (an i1 value)"):
        compile_kernel(kernel_with(lambda A: T.cuda.tile.apply(
            T.ptx.abs.f32, A, A, scope="cta", pred=T.cuda.thread_idx("x"))))


def test_bad_operands():
    with raises(tirx.CompileError, "unsupported operand [1]"):
        compile_kernel(kernel_with(
            lambda A: T.cuda.tile.apply(T.ptx.abs.f32, A, [1], scope="cta")))
    with raises(tirx.CompileError, "scalar operand 0 needs a type: write e.g. T.float32(0)"):
        compile_kernel(kernel_with(
            lambda A: T.cuda.tile.apply(T.ptx["max.f32"], A, A, 0, scope="cta")))


def test_operand_rank_and_dtype_at_the_user_line():
    def rank(A):
        r = T.alloc_local((64, 4), "float32", layout=S[(64, 4) : (1 @ laneid, 1)])
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, A, scope="cta")  # MARK-rank
    with raises(tirx.CompileError, line_of("MARK-rank") + "error: 'tile.apply' op operand #0 "
                "(d): shape (64, 4) has rank 2 but scope cta needs 2 group dimension(s) plus "
                "the atom"):
        compile_kernel(kernel_with(rank))

    def dtype(A):
        r = T.alloc_local((2, 32, 4, 1), "float16", layout=LAYOUT)
        T.cuda.tile.apply(T.ptx["abs.f32"], r, A.view(2, 32, 4, 1), scope="cta")  # MARK-dt
    with raises(tirx.CompileError, line_of("MARK-dt") + "error: 'tile.apply' op operand #0 "
                "(d) of 'abs.f32': needs f32, got 'f16'"):
        compile_kernel(kernel_with(dtype))

    def scalar(A):
        r = T.alloc_local((2, 32, 4, 1), "float32", layout=LAYOUT)
        T.cuda.tile.apply(T.ptx["max.f32"], r, r, T.int32(0), scope="cta")  # MARK-sdt
    with raises(tirx.CompileError, line_of("MARK-sdt") + "error: 'tile.apply' op operand #2 "
                "(b) of 'max.f32': needs f32, got 'i32'"):
        compile_kernel(kernel_with(scalar))


def test_overlapping_owners():
    """Four elements of each thread mapped to register slot 0."""
    overlapping = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 0)])

    def body(A):
        r = T.alloc_local((2, 32, 4), "float32", layout=overlapping)
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, A, scope="cta")  # MARK-overlap
    with raises(tirx.CompileError, line_of("MARK-overlap") + "error: 'tile.apply' op operand "
                "#0 (d): destination elements (0, 0, 0) and (0, 0, 1) share register slot 0 "
                "of one thread; destinations must be distinct across repeats"):
        compile_kernel(kernel_with(body))


def test_ewise_needs_a_scalar_function():
    message = "tile.ewise needs a @T.function(private=True) scalar function"
    with raises(tirx.CompileError, message):
        compile_kernel(kernel_with(lambda A: T.cuda.tile.ewise(len, A, A)))
    with raises(tirx.CompileError, message):
        compile_kernel(kernel_with(lambda A: T.cuda.tile.ewise(affine_relu, A, A)))

    @T.function(private=True)
    def same(value: T.float32) -> T.float32:
        return value
    with raises(tirx.CompileError, "scope must be one of thread, warp, warpgroup, cta, "
                                   "got 'block'"):
        compile_kernel(kernel_with(lambda A: T.cuda.tile.ewise(same, A, A, scope="block")))


def test_alloc_errors():
    with raises(tirx.CompileError, line_of("MARK-alloc") + "T.alloc_local needs a shape of "
                "positive ints, got (0, 4)"):
        compile_kernel(kernel_with(
            lambda A: T.alloc_local((0, 4), "float32")))  # MARK-alloc
    with raises(tirx.CompileError, "T.alloc_shared needs a shape of positive ints, got (-1,)"):
        compile_kernel(kernel_with(lambda A: T.alloc_shared((-1,), "float32")))
    with raises(tirx.CompileError, "T.alloc_local: align must be a positive power of two, "
                                   "got 12"):
        compile_kernel(kernel_with(lambda A: T.alloc_local((4,), "float32", align=12)))
    with raises(tirx.CompileError, "unknown dtype 'f32'; expected one of"):
        compile_kernel(kernel_with(lambda A: T.alloc_local((4,), "f32")))
    with raises(LayoutError, "invalid layout '42'"):
        compile_kernel(kernel_with(lambda A: T.alloc_local((4,), "float32", layout=42)))


def test_region_errors():
    with raises(tirx.CompileError, line_of("MARK-region") + "4 indices for a rank-3 tensor"):
        compile_kernel(kernel_with(lambda A: A[0, 0, 0, 0]))  # MARK-region
    with raises(tirx.CompileError, "stepped slices are not supported"):
        compile_kernel(kernel_with(lambda A: A[0:2:2]))
    with raises(tirx.CompileError, "a slice with a traced bound needs a static size: stop - "
                "start must be a constant, as in A[i*4:(i+1)*4]"):
        compile_kernel(kernel_with(lambda A: A[0:T.cuda.block_idx("x")]))
    message = "a region index must be an int or an index value (e.g. T.cuda.block_idx), got "
    for index in [1.5, "a", None]:
        with raises(tirx.CompileError, message + repr(index)):
            compile_kernel(kernel_with(lambda A: A[index]))
    with raises(tirx.CompileError, "region index 1180591620717411303424 is out of range"):
        compile_kernel(kernel_with(lambda A: A[2 ** 70]))
    # Out of bounds: the compiler's region check, at the user's line.
    with raises(tirx.CompileError, line_of("MARK-bounds") + "invalid region: dimension 0: "
                "region [-1, -1 + 1) is out of bounds [0, 2)"):
        compile_kernel(kernel_with(lambda A: A.sub[-1]))  # MARK-bounds
    with raises(tirx.CompileError, "invalid region: dimension 1: size 33 is out of range "
                                   "[1, 32]"):
        compile_kernel(kernel_with(lambda A: A[:, 0:33]))


def test_index_of_the_wrong_type():
    @T.function
    def k(A: T.Tensor((2, 32, 4), "float32", align=16), x: T.float32):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        A[x]  # MARK-float-index
    message = "expected an index (e.g. T.cuda.block_idx), got a float32"
    with raises(tirx.CompileError, line_of("MARK-float-index") + message):
        compile_kernel(k)
    with raises(tirx.CompileError, "unsupported operand [1]"):
        compile_kernel(kernel_with(lambda A: T.cuda.thread_idx("x") + [1]))
    with raises(tirx.CompileError, "dimension must be 'x', 'y' or 'z', got 'w'"):
        compile_kernel(kernel_with(lambda A: T.cuda.thread_idx("w")))


def test_view_errors():
    for args in [(-1, -1), (0, 256), (2.5,), (-2, -128)]:
        with raises(tirx.CompileError, "view needs a shape of positive ints, got %r"
                    % (args,)):
            compile_kernel(kernel_with(lambda A: A.view(*args)))
    with raises(tirx.CompileError, "'tirx.view' op a shape view keeps the element count"):
        compile_kernel(kernel_with(lambda A: A.view(3, 3)))
    with raises(tirx.CompileError, "unknown dtype 'float33'; expected one of"):
        compile_kernel(kernel_with(lambda A: A.view("float33")))
    with raises(tirx.CompileError, "cannot view float32 as float64: the innermost extent 3 "
                                   "is not divisible by 2"):
        compile_kernel(kernel_with(
            lambda A: T.alloc_local((4, 3), "float32").view("float64")))


def test_dsl_outside_a_kernel():
    message = "this must be called inside a @T.function being compiled"
    with raises(tirx.CompileError, line_of("MARK-outside") + message):
        T.alloc_local((4,), "float32")  # MARK-outside
    with raises(tirx.CompileError, message):
        T.cuda.cta_sync()
    message = "call a kernel through tirx.compile(affine_relu)(...)"
    with raises(tirx.CompileError, line_of("MARK-call-kernel") + message):
        affine_relu(FakeCuda(), FakeCuda())  # MARK-call-kernel
    message = "@T.function decorates a Python function, got 42"
    with raises(tirx.CompileError, line_of("MARK-decorate") + message):
        T.function(42)  # MARK-decorate


def test_file_names_are_escaped_in_the_ir():
    """A kernel from a file whose name has a quote and a backslash."""
    source = ("def k(A: T.Tensor((2, 32, 4), 'float32', align=16)):\n"
              "    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))\n"
              "    T.cuda.tile.apply(T.ptx['nope.f32'], A, A, scope='cta')\n")
    namespace = {"T": T}
    exec(compile(source, 'odd "dir\\name.py', "exec"), namespace)
    with raises(tirx.CompileError, 'odd "dir\\name.py:3: error: \'tile.apply\' op '
                "'nope.f32': unknown instruction family 'nope'"):
        compile_kernel(T.function(namespace["k"]))


#===------------------------------------------------------------------------===#
# Scalar functions (@T.function(private=True))
#===------------------------------------------------------------------------===#

def ewise_kernel(function):
    @T.function
    def k(A: T.Tensor((2, 32, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        r = T.alloc_local((2, 32, 4), "float32", layout=LAYOUT)
        T.cuda.tile.ewise(function, r, r, scope="cta")
    return k


def test_scalar_function_annotations():
    @T.function(private=True)  # MARK-no-param-type
    def untyped(value) -> T.float32:
        return value
    with raises(tirx.CompileError, line_of("MARK-no-param-type") + "parameter 'value' of "
                "@untyped needs a scalar type annotation such as T.float32"):
        compile_kernel(ewise_kernel(untyped))

    @T.function(private=True)
    def misspelled(value: "float33") -> T.float32:
        return value
    with raises(tirx.CompileError, "parameter 'value' of @misspelled needs a scalar type "
                                   "annotation such as T.float32, got 'float33'"):
        compile_kernel(ewise_kernel(misspelled))

    @T.function(private=True)  # MARK-no-return
    def no_return_type(value: T.float32):
        return value
    message = "@no_return_type needs a return type annotation such as -> T.float32"
    with raises(tirx.CompileError, line_of("MARK-no-return") + message):
        compile_kernel(ewise_kernel(no_return_type))


def test_scalar_function_results():
    @T.function(private=True)  # MARK-wrong-return
    def half(value: T.float32) -> T.float16:
        return value
    message = "@half returns f32 but is declared -> f16"
    with raises(tirx.CompileError, line_of("MARK-wrong-return") + message):
        compile_kernel(ewise_kernel(half))

    @T.function(private=True)
    def nothing(value: T.float32) -> T.float32:
        pass
    with raises(tirx.CompileError, "@nothing must return a scalar, got None"):
        compile_kernel(ewise_kernel(nothing))

    @T.function(private=True)
    def pair(value: T.float32) -> T.float32:
        return value, value
    with raises(tirx.CompileError, "@pair must return a scalar, got ("):
        compile_kernel(ewise_kernel(pair))


def test_scalar_function_calls():
    @T.function(private=True)
    def inner(value: T.float32) -> T.float32:
        return value

    @T.function(private=True)
    def outer(value: T.float32) -> T.float32:
        return inner(value, value)  # MARK-call-count
    with raises(tirx.CompileError, line_of("MARK-call-count") + "@inner takes 1 argument(s), "
                "got 2"):
        compile_kernel(ewise_kernel(outer))


def test_scalar_function_bodies():
    @T.function(private=True)
    def branch(value: T.float32) -> T.float32:
        if value > T.float32(0):  # MARK-truth
            return value
        return -value
    message = "a traced value has no Python truth value; use T.if_then_else"
    with raises(tirx.CompileError, line_of("MARK-truth") + message):
        compile_kernel(ewise_kernel(branch))

    @T.function(private=True)
    def condition(value: T.float32) -> T.float32:
        return T.if_then_else(value, value, value)
    with raises(tirx.CompileError, "T.if_then_else needs a comparison as its condition"):
        compile_kernel(ewise_kernel(condition))

    @T.function(private=True)
    def constants(value: T.float32) -> T.float32:
        return T.if_then_else(value > T.float32(0), 1.0, 2.0)
    with raises(tirx.CompileError, "T.if_then_else needs at least one traced value"):
        compile_kernel(ewise_kernel(constants))

    @T.function(private=True)
    def exp_of_constant(value: T.float32) -> T.float32:
        return T.exp(T.float32(1))
    with raises(tirx.CompileError, "T.exp needs a traced float value"):
        compile_kernel(ewise_kernel(exp_of_constant))

    @T.function(private=True)
    def mixed(value: T.float32, count: T.int32) -> T.float32:
        return value + count
    message = "operands of different types (f32 and i32); write the cast explicitly"
    with raises(tirx.CompileError, message):
        compile_kernel(ewise_kernel(mixed))

    @T.function(private=True)
    def mixed_constant(value: T.float32) -> T.float32:
        return value + T.float16(1)
    message = "constant of type float16 combined with f32; write the cast explicitly"
    with raises(tirx.CompileError, message):
        compile_kernel(ewise_kernel(mixed_constant))


def test_scalar_functions_sharing_a_name_stay_distinct():
    """Two closures named `scale`, and one named like the kernel, are three
    functions (before, the second silently reused the first)."""
    def make(factor):
        @T.function(private=True)
        def scale(value: T.float32) -> T.float32:
            return value * T.float32(factor)
        return scale
    twice, thrice = make(2), make(3)

    @T.function(private=True)
    def k(value: T.float32) -> T.float32:
        return value
    same_name = k

    @T.function
    def k(A: T.Tensor((2, 32, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        r = T.alloc_local((2, 32, 4), "float32", layout=LAYOUT)
        T.cuda.tile.ewise(twice, r, r, scope="cta")
        T.cuda.tile.ewise(thrice, r, r, scope="cta")
        T.cuda.tile.ewise(same_name, r, r, scope="cta")
    ir = compile_kernel(k).mlir["input"]
    assert "func.func private @scale(" in ir and "func.func private @scale_1(" in ir
    assert "func.func private @k_1(" in ir
    assert "tile.ewise @scale scope" in ir and "tile.ewise @scale_1 scope" in ir


#===------------------------------------------------------------------------===#
# The layout API (ctypes into the C++ layout library)
#===------------------------------------------------------------------------===#

def test_layout_notation_errors():
    where = line_of("MARK-extent")
    with raises(LayoutError, where + "an extent must be an int64, got 'a'"):
        S["a"]  # MARK-extent
    with raises(LayoutError, "an extent must be an int64, got 2.5"):
        S[2.5 : 1]
    with raises(LayoutError, "a stride must be an int64, got 1.5"):
        S[4 : 1.5 @ laneid]
    with raises(LayoutError, "a stride must be an int64, got 1.5"):
        S[4 : 1.5]
    with raises(LayoutError, "an offset must be an int64, got 18446744073709551616"):
        S[4 : 1] + 2 ** 64
    with raises(LayoutError, "invalid layout 'S[4:1]\\x00junk': it contains a NUL character"):
        TileLayout("S[4:1]\0junk")
    with raises(LayoutError, "invalid layout 'S[(2, 4) : 1]': shard term S[...] has 2 extents "
                             "but 1 strides"):
        TileLayout(S[(2, 4) : (1,)])


def test_layout_queries():
    layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])
    for axis in ["lane", 3]:
        with raises(LayoutError, "unknown axis %r; expected one of laneid, warpid" % (axis,)):
            layout.size(axis)
    with raises(LayoutError, "unknown axis 'bogus'; expected one of laneid"):
        layout.span("bogus")
    assert layout.size("laneid") == 32 and layout.span(warpid) == 2


def test_layout_apply_errors():
    layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])
    with raises(LayoutError, line_of("MARK-apply") + "apply with several coordinates needs shape="):
        layout.apply(0, 0)  # MARK-apply
    with raises(LayoutError, "2 coordinates for a rank-3 shape"):
        layout.apply(0, 0, shape=(2, 32, 4))
    # The C API's range check.
    with raises(LayoutError, "coordinate 5 is outside dimension 0 of extent 2"):
        layout.apply(5, 0, 0, shape=(2, 32, 4))
    with raises(LayoutError, "coordinate -1 is outside dimension 0 of extent 256"):
        layout.apply(-1)
    with raises(LayoutError, "coordinate 0 is outside dimension 1 of extent 0"):
        layout.apply(0, 0, shape=(256, 0))
    # Values ctypes would truncate or reject.
    with raises(LayoutError, "a coordinate must be an int64, got 1.5"):
        layout.apply(1.5)
    with raises(LayoutError, "a coordinate must be an int64, got 1180591620717411303424"):
        layout.apply(2 ** 70)
    with raises(LayoutError, "a shape dimension must be an int64, got '4'"):
        layout.apply(0, 0, 0, shape=(2, 32, "4"))


def test_layout_transform_errors():
    layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])
    with raises(LayoutError, "the factor must be an int64, got 2.0"):
        layout.pack(2.0)
    with raises(LayoutError, "pack factor must be positive, got 0"):
        layout.pack(0)
    with raises(LayoutError, "unpack factor must be positive, got -2"):
        layout.unpack(-2)
    with raises(LayoutError, "a shape dimension must be an int64, got None"):
        layout.thread_view((None,))
    with raises(LayoutError, "shape dimension 0 is -256; dimensions must be positive"):
        layout.tensor_view((-256,))


def test_layouts_copy_and_pickle_by_notation():
    """Copies own their C++ layout (a shared handle was freed twice)."""
    layout = TileLayout(S[(8, 2, 4, 2) : (4 @ laneid, 1 @ warpid, 1 @ laneid, 1)]
                        + R[2 : 4 @ warpid] + 5 @ warpid)
    for twin in (copy.copy(layout), copy.deepcopy(layout),
                 pickle.loads(pickle.dumps(layout))):
        assert twin == layout and twin._handle != layout._handle
        del twin
    assert layout.apply(7, 15, shape=(8, 16))["warpid"] == 6


def test_tensor_requiring_grad_is_checked_like_any_other(compiled):
    # PyTorch refuses __cuda_array_interface__ on such tensors; the check
    # looks at the data as detach() does, so its own message comes out.
    class Grad(FakeCuda):
        requires_grad = True

        def detach(self):
            return FakeCuda((2, 32, 2))
    with raises(ValueError, "parameter 'A' has shape (2, 32, 2), expected (2, 32, 4)"):
        compiled(Grad(), FakeCuda())
