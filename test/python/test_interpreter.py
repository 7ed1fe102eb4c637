"""The CPU interpreter from Python (docs/interpreter.md): tirx.compile(f,
target="interpret") and TIRX_INTERPRET=1 run kernels on NumPy arrays; the
examples' numbers against independent references (float64, the examples'
own checkers); seeded bugs (a missing barrier, a wrong shuffle offset,
unwritten shared memory) found at the user's line; every message of
python/tirx/_interpret.py and of the C entry point tirxInterpret."""
import math
import os
import re

import numpy
import pytest

import helpers

import tirx
from tirx import _capi
from tirx._dsl import CompileError, DSLError
from tirx.script import tirx as T
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, warpid
from tirx.testing import max_relative_error

INTERPRET = "interpret"
HERE = os.path.basename(__file__)


def raises(exception, message):
    """pytest.raises expecting `message` verbatim (not as a regex)."""
    return pytest.raises(exception, match=re.escape(message))


def line_of(marker):
    """'test_interpreter.py:N: ' for the line of this file holding `marker`."""
    return helpers.line_of(__file__, marker)


def line_number(marker):
    return int(line_of(marker).split(":")[1])


def assert_located(error, marker, message):
    """`error` (an InterpreterError or CompileError) is an error at this
    file's line holding `marker` whose message contains `message`."""
    severity, file, line, column, text = error.diagnostics[0]
    assert severity == 0, error.diagnostics
    assert os.path.basename(file) == HERE, error.diagnostics
    assert line == line_number(marker), error.diagnostics
    assert message in text, text
    assert str(error).startswith("%s:%d: error: " % (file, line))


def interpret(f):
    compiled = tirx.compile(f, target=INTERPRET)
    assert isinstance(compiled, tirx.Interpreted)
    return compiled


def bits(array):
    """`array`'s bits, for bit-exact comparisons (NaN payloads and -0.0
    included)."""
    return array.view({2: numpy.uint16, 4: numpy.uint32, 8: numpy.uint64}[array.itemsize])


#===------------------------------------------------------------------------===#
# The seed examples: exact against NumPy
#===------------------------------------------------------------------------===#

def seed_input(seed=0, scale=4.0):
    a = (numpy.random.default_rng(seed).standard_normal((2, 32, 4)) * scale).astype(
        numpy.float32)
    a.flat[:4] = [0.0, -0.0, 1e-40, -1e-40]  # zeros and subnormals
    return a


def test_affine_relu_is_exact():
    from affine_relu import affine_relu
    compiled = interpret(affine_relu)
    for a in (numpy.linspace(-4, 4, 256, dtype=numpy.float32).reshape(2, 32, 4),
              seed_input()):
        b = numpy.full_like(a, numpy.nan)
        compiled(a, b)
        # fma.rn.f32 rounds 2a + 1 once: float64 holds it exactly.
        want = numpy.maximum((a.astype(numpy.float64) * 2 + 1).astype(numpy.float32),
                             numpy.float32(0))
        assert numpy.array_equal(bits(b), bits(want))


def test_to_float16_is_exact():
    from to_float16 import to_float16
    compiled = interpret(to_float16)
    a = seed_input(scale=3000.0)
    # Overflow to inf, the largest half, the tie at 65520, a subnormal half,
    # an underflow to zero, NaN.
    a.flat[4:10] = [70000.0, 65504.0, 65520.0, 3e-6, 1e-9, numpy.nan]
    b = numpy.zeros(a.shape, numpy.float16)
    compiled(a, b)
    with numpy.errstate(over="ignore"):
        want = a.astype(numpy.float16)
    # NaN becomes the canonical NaN of the PTX ISA (0x7FFF), where NumPy
    # keeps the quiet bit (0x7E00).
    want.view(numpy.uint16)[numpy.isnan(a)] = 0x7FFF
    assert numpy.array_equal(bits(b), bits(want))


def test_silu_matches_the_modelled_rounding():
    """math.exp is double-precision libm rounded once to f32 and each arith
    op rounds to f32 (docs/interpreter.md): emulated here element by element
    (Python's math.exp is libm's), the result is bit-identical."""
    from silu import affine_relu as silu_kernel
    compiled = interpret(silu_kernel)
    for a in (numpy.linspace(-4, 4, 256, dtype=numpy.float32).reshape(2, 32, 4),
              seed_input(scale=30.0)):
        b = numpy.full_like(a, numpy.nan)
        compiled(a, b)
        with numpy.errstate(over="ignore"):  # exp(-x) beyond float32: inf
            e = numpy.array([math.exp(-float(v)) for v in a.flat]).astype(numpy.float32)
        want = a / (numpy.float32(1) + e.reshape(a.shape))  # float32 add and divide
        assert numpy.array_equal(bits(b), bits(want))


#===------------------------------------------------------------------------===#
# Softmax, RMSNorm, column sums: the examples' own bounds and checkers
#===------------------------------------------------------------------------===#

@pytest.mark.parametrize("rows, cols", [
    (3, 100),    # masked tail, two rows per CTA (the second CTA's last row masked)
    (5, 1024),   # whole chunks, one row per CTA
    (4, 4100),   # masked tail of 8 chunks, one row per CTA
    (7, 33),     # 4-byte accesses, four rows per CTA
    (2, 2048),   # whole chunks and CTAs, two rows per CTA
    (4, 8192),   # online statistics (one barrier)
])
def test_softmax(rows, cols):
    import softmax
    config = softmax.config_for(rows, cols)
    compiled = interpret(softmax.kernel_for(*config))
    x = softmax.inputs(rows, cols, seed=rows)
    y = numpy.full_like(x, numpy.nan)
    compiled(x, y)
    error = max_relative_error(y, softmax.reference(x))
    assert error <= softmax.RTOL, (config, error)


def test_softmax_masked_entries():
    """-inf entries (attention masks) give exact zeros."""
    import softmax
    x = softmax.inputs(6, 4096, "every 7th")
    compiled = interpret(softmax.kernel_for(*softmax.config_for(6, 4096)))
    y = numpy.full_like(x, numpy.nan)
    compiled(x, y)
    assert max_relative_error(y, softmax.reference(x)) <= softmax.RTOL
    assert not y[numpy.isinf(x)].any()


def as_bfloat16_bits(values):
    """float32 values that are exact bfloat16s, as their uint16 bits."""
    values = numpy.ascontiguousarray(values, dtype=numpy.float32)
    assert not (values.view(numpy.uint32) & 0xFFFF).any()
    return (values.view(numpy.uint32) >> 16).astype(numpy.uint16)


def from_bfloat16_bits(words):
    return (words.astype(numpy.uint32) << 16).view(numpy.float32)


@pytest.mark.parametrize("rows, cols", [(2, 2048), (3, 3000), (2, 1026), (2, 777), (1, 1)])
def test_rmsnorm(rows, cols):
    import rmsnorm
    threads, chunks, vector, whole = rmsnorm.config_for(cols)
    compiled = interpret(rmsnorm.make_kernel(threads, chunks, rmsnorm.EPS, vector, whole))
    x, weight = rmsnorm.inputs(rows, cols, seed=cols)
    y = numpy.full((rows, cols), 0x7FC0, numpy.uint16)  # bfloat16 NaN
    compiled(as_bfloat16_bits(x), as_bfloat16_bits(weight), y)
    assert rmsnorm.check(from_bfloat16_bits(y), rmsnorm.reference(x, weight)) == 0


@pytest.mark.parametrize("rows", [1, 4, 6, 13])
def test_column_sums_bit_exact(rows):
    import column_sums
    compiled = interpret(column_sums.column_sums)
    a = column_sums.inputs(rows, seed=rows)
    b = numpy.full(column_sums.COLUMNS, numpy.nan, numpy.float32)
    compiled(a, b)
    assert column_sums.mismatches(b, a).size == 0


def affine_relu_reference(a):
    return numpy.maximum((a.astype(numpy.float64) * 2 + 1).astype(numpy.float32),
                         numpy.float32(0))


def run_persistent(compiled, n, *extra):
    a = numpy.random.default_rng(n).standard_normal(n).astype(numpy.float32)
    b = numpy.full_like(a, numpy.nan)
    compiled(a, b, *extra)
    assert numpy.array_equal(bits(b), bits(affine_relu_reference(a))), n


@pytest.mark.parametrize("variant", ["persistent", "loads_first", "one_pass"])
def test_affine_relu_persistent(variant):
    import affine_relu_persistent as example
    f = {"persistent": lambda: example.make_kernel(2),
         "loads_first": lambda: example.make_kernel(2, loads_first=True),
         "one_pass": lambda: example.make_one_pass_kernel()}[variant]()
    compiled = interpret(f)
    # A vector tail, a single-float tail, whole chunks of several CTAs.
    for n in (1, 3, 255, 257, 4096 * 5 + 7):
        run_persistent(compiled, n)


def test_affine_relu_pipelined():
    """Sizes where every CTA has no full chunk or at least two (see the
    xfail below for one)."""
    import affine_relu_persistent as example
    compiled = interpret(example.make_pipelined_kernel(1))  # 4 CTAs
    for n in (5, 4096 * 8 + 7):
        run_persistent(compiled, n)
    # With the check off, a CTA of one full chunk computes the right numbers.
    a = numpy.random.default_rng(0).standard_normal(4096).astype(numpy.float32)
    b = numpy.full_like(a, numpy.nan)
    compiled(a, b, uninitialized=False)
    assert numpy.array_equal(bits(b), bits(affine_relu_reference(a)))


@pytest.mark.xfail(strict=True, raises=tirx.InterpreterError, reason=(
    "a kernel bug the interpreter finds, not an interpreter bug: "
    "tirx.stream.ElementwiseMap.pipelined moves `nxt` into `cur` after every full "
    "chunk, also after a CTA's last one, where `nxt` was never loaded: a CTA with "
    "exactly one full chunk reads registers nothing wrote (the value is dead)"))
def test_affine_relu_pipelined_one_full_chunk_per_cta():
    import affine_relu_persistent as example
    try:
        run_persistent(interpret(example.make_pipelined_kernel(1)), 4096)
    except tirx.InterpreterError as error:  # the xfail: only this error
        assert "reads byte 0 of the register tensor allocated at" in str(error)
        assert "which no thread has written" in str(error)
        raise


def test_affine_relu_dynamic():
    import affine_relu_persistent as example
    compiled = interpret(example.make_dynamic_kernel(1))
    counter = numpy.zeros(1, numpy.int32)
    for n in (3, 4096 * 5 + 7):
        run_persistent(compiled, n, counter)
        assert counter[0] == 0


#===------------------------------------------------------------------------===#
# Seeded bugs, found at the user's line
#===------------------------------------------------------------------------===#

OWN = TileLayout(S[(2, 32, 1) : (1 @ warpid, 1 @ laneid, 1)])
TRANSPOSED = TileLayout(S[(2, 32, 1) : (1, 2, 1)])


def make_transpose(sync):
    """B[w, l] = A.flat[2 l + w] through shared memory: warp w stores its
    row, then reads the transposed view, which holds the other warp's
    values too."""
    @T.function
    def transpose(A: T.Tensor((2, 32, 1), "float32"), B: T.Tensor((2, 32, 1), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        r = T.alloc_local((2, 32, 1), "float32", layout=OWN)
        T.cuda.tile.apply(T.ptx["ld.global.f32"], r, A, scope="cta")
        s = T.alloc_shared((64,), "float32")  # MARK-smem
        T.cuda.tile.apply(T.ptx["st.shared.f32"], s.view(2, 32, 1), r, scope="cta")  # MARK-st
        if sync:
            T.cuda.cta_sync()
        T.cuda.tile.apply(T.ptx["ld.shared.f32"], r, s.view(2, 32, 1, layout=TRANSPOSED),  # MARK-ld
                          scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.f32"], B, r, scope="cta")
    return transpose


def transpose_input():
    return numpy.random.default_rng(1).standard_normal((2, 32, 1)).astype(numpy.float32)


def transposed(a):
    return a.reshape(32, 2).T.reshape(2, 32, 1)


def test_transpose_with_barrier():
    a = transpose_input()
    b = numpy.full_like(a, numpy.nan)
    interpret(make_transpose(sync=True))(a, b)
    assert numpy.array_equal(b, transposed(a))


def test_transpose_without_barrier_is_a_race():
    a = transpose_input()
    with pytest.raises(tirx.InterpreterError) as error:
        interpret(make_transpose(sync=False))(a, numpy.zeros_like(a))
    # Warp 0 runs first and reads element 32 (byte 128) before warp 1 writes it.
    assert_located(error.value, "MARK-st",
                   "data race on byte 128 of the shared tensor allocated at ")
    assert ("this write by block (0, 0, 0) thread 32 (warp 1, lane 0) and an earlier read "
            "by block (0, 0, 0) thread 16 (warp 0, lane 16) are not ordered by any "
            "synchronization") in str(error.value)
    assert '"%s":%d:' % (__file__, line_number("MARK-smem")) in str(error.value)
    note = error.value.diagnostics[1]
    assert (note[0], os.path.basename(note[1]), note[2], note[4]) == \
        (2, HERE, line_number("MARK-ld"), "the earlier access")


def test_transpose_without_barrier_is_refused_by_the_race_proof():
    # The static proof (docs/races.md) refuses at compile time, with a
    # witness the interpreter's run above confirms: the same two accesses.
    with pytest.raises(CompileError) as error:
        tirx.compile(make_transpose(sync=False), target={"kind": "cuda", "arch": "sm_90a"})
    assert_located(error.value, "MARK-ld",
                   "data race on byte 4 of the shared tensor allocated at ")
    assert ("this read by thread 32 (warp 1, lane 0) and the write by thread 1 (warp 0, "
            "lane 1) at the op noted below can run with no CTA barrier between them"
            in str(error.value))
    notes = [(os.path.basename(note[1]), note[2], note[4])
             for note in error.value.diagnostics[1:]]
    assert notes == [
        (HERE, line_number("MARK-st"),
         "the other access: the write of byte 4 by thread 1 (warp 0, lane 1)"),
        (HERE, line_number("MARK-smem"), "the shared tensor is allocated here")]
    # With the barrier, the proof accepts it.
    tirx.compile(make_transpose(sync=True), target={"kind": "cuda", "arch": "sm_90a"})


def make_transpose_loop(barriers):
    """make_transpose's exchange repeated in a T.serial loop, with one
    barrier per iteration (after the stores) or two (after the loads too)."""
    @T.function
    def transpose_loop(A: T.Tensor((2, 32, 1), "float32"), B: T.Tensor((2, 32, 1), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        r = T.alloc_local((2, 32, 1), "float32", layout=OWN)
        T.cuda.tile.apply(T.ptx["ld.global.f32"], r, A, scope="cta")
        s = T.alloc_shared((64,), "float32")
        for i in T.serial(3):  # MARK-loop
            T.cuda.tile.apply(T.ptx["st.shared.f32"], s.view(2, 32, 1), r,  # MARK-loop-st
                              scope="cta")
            T.cuda.cta_sync()
            T.cuda.tile.apply(T.ptx["ld.shared.f32"], r,  # MARK-loop-ld
                              s.view(2, 32, 1, layout=TRANSPOSED), scope="cta")
            if barriers == 2:
                T.cuda.cta_sync()
        T.cuda.tile.apply(T.ptx["st.global.f32"], B, r, scope="cta")
    return transpose_loop


def test_loop_back_edge_race_is_refused_and_found_by_the_interpreter():
    target = {"kind": "cuda", "arch": "sm_90a"}
    with pytest.raises(CompileError) as error:
        tirx.compile(make_transpose_loop(barriers=1), target=target)
    assert_located(error.value, "MARK-loop-st",
                   "data race on byte 128 of the shared tensor allocated at ")
    assert ("this write by thread 32 (warp 1, lane 0) and the read by thread 16 (warp 0, "
            "lane 16) at the op noted below can run with no CTA barrier between them; here "
            "loop #0's index = 1, there loop #0's index = 0" in str(error.value))
    loop_note = [note for note in error.value.diagnostics if note[2] == line_number("MARK-loop")]
    assert loop_note and loop_note[0][4] == (
        "the write runs in the iteration of this loop after the read's, and no CTA barrier "
        "lies on the way from one to the other")
    # The interpreter, which skips the static proof, sees a race of the
    # same two ops happen.
    a = transpose_input()
    with pytest.raises(tirx.InterpreterError) as run:
        interpret(make_transpose_loop(barriers=1))(a, numpy.zeros_like(a))
    assert "data race on byte" in str(run.value)
    lines = {run.value.diagnostics[0][2], run.value.diagnostics[1][2]}
    assert lines == {line_number("MARK-loop-st"), line_number("MARK-loop-ld")}
    # Two barriers: proven, and the interpreter agrees.
    tirx.compile(make_transpose_loop(barriers=2), target=target)
    b = numpy.full_like(a, numpy.nan)
    interpret(make_transpose_loop(barriers=2))(a, b)
    assert not numpy.isnan(b).any()


def test_transpose_without_barrier_and_race_check():
    a = transpose_input()
    compiled = interpret(make_transpose(sync=False))
    # races=0: the race goes unreported, so warp 0's read of what warp 1
    # has not written yet is (docs/interpreter.md: shared memory's
    # uninitialized read is reported when no race explains it).
    with pytest.raises(tirx.InterpreterError) as error:
        compiled(a, numpy.zeros_like(a), races=False)
    assert_located(error.value, "MARK-ld",
                   "reads byte 128 of the shared tensor allocated at ")
    assert ("which no thread has written (block (0, 0, 0) thread 16 (warp 0, lane 16))"
            in str(error.value))
    # Both checks off, it runs: warp 1 (second) reads both warps' writes,
    # warp 0 read its own half only.
    b = numpy.full_like(a, numpy.nan)
    compiled(a, b, races=False, uninitialized=False)
    assert numpy.array_equal(b[1], transposed(a)[1])
    assert numpy.array_equal(b[0, :16], transposed(a)[0, :16])
    assert not numpy.array_equal(b[0, 16:], transposed(a)[0, 16:])


WARP = TileLayout(S[(32, 1) : (1 @ laneid, 1)])


def make_warp_sum(offsets):
    """Every lane gets the sum of A's 32 values: butterfly shuffles."""
    @T.function
    def warp_sum(A: T.Tensor((32, 1), "int32"), B: T.Tensor((32, 1), "int32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        value = T.alloc_local((32, 1), "int32", layout=WARP)
        other = T.alloc_local((32, 1), "int32", layout=WARP)
        T.cuda.tile.apply(T.ptx["ld.global.b32"], value, A, scope="warp")
        for offset in offsets:
            T.cuda.tile.apply(T.ptx["shfl.sync.bfly.b32"], other.view(32), value.view(32),
                              T.int32(offset), T.int32(31), T.int32(-1), scope="warp")
            T.cuda.tile.apply(T.ptx["add.s32"], value, value, other, scope="warp")
        T.cuda.tile.apply(T.ptx["st.global.b32"], B, value, scope="warp")
    return warp_sum


def test_warp_sum_and_a_wrong_shuffle_offset():
    a = numpy.random.default_rng(2).integers(-1000, 1000, (32, 1)).astype(numpy.int32)
    total = int(a.astype(numpy.int64).sum())
    b = numpy.zeros_like(a)
    interpret(make_warp_sum((16, 8, 4, 2, 1)))(a, b)
    assert (b == total).all()
    # Offset 2 twice instead of 1: lanes add their pair's values twice and
    # never their neighbour's.
    wrong = numpy.zeros_like(a)
    interpret(make_warp_sum((16, 8, 4, 2, 2)))(a, wrong)
    assert (wrong != total).any()
    # What the wrong butterflies compute, in NumPy.
    v = a[:, 0].astype(numpy.int64)
    for offset in (16, 8, 4, 2, 2):
        v = v + v[numpy.arange(32) ^ offset]
    assert numpy.array_equal(wrong[:, 0], v)


def test_unwritten_shared_memory():
    @T.function
    def reads_nothing(B: T.Tensor((32, 1), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        r = T.alloc_local((32, 1), "float32", layout=WARP)
        s = T.alloc_shared((32, 1), "float32")
        T.cuda.tile.apply(T.ptx["ld.shared.f32"], r, s, scope="warp")  # MARK-unwritten
        T.cuda.tile.apply(T.ptx["st.global.f32"], B, r, scope="warp")
    with pytest.raises(tirx.InterpreterError) as error:
        interpret(reads_nothing)(numpy.zeros((32, 1), numpy.float32))
    assert_located(error.value, "MARK-unwritten", "reads byte 0 of the shared tensor")
    assert "which no thread has written (block (0, 0, 0) thread 0 (warp 0, lane 0))" in \
        str(error.value)
    # Off, it runs.
    interpret(reads_nothing)(numpy.zeros((32, 1), numpy.float32), uninitialized=False)


def test_unwritten_registers():
    @T.function
    def stores_nothing(B: T.Tensor((32, 1), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        r = T.alloc_local((32, 1), "float32", layout=WARP)
        T.cuda.tile.apply(T.ptx["st.global.f32"], B, r, scope="warp")  # MARK-regs
    with pytest.raises(tirx.InterpreterError) as error:
        interpret(stores_nothing)(numpy.zeros((32, 1), numpy.float32))
    assert_located(error.value, "MARK-regs", "reads byte 0 of the register tensor allocated "
                   "at ")


def test_atom_into_a_fresh_register():
    @T.function
    def grab(C: T.Tensor((1,), "uint32", align=4), D: T.Tensor((32,), "uint32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        tx = T.cuda.thread_idx("x")
        old = T.alloc_local((1,), "uint32")
        T.cuda.tile.apply(T.ptx["atom.global.inc.u32"], old, C[0:1], T.uint32(100),  # MARK-atom
                          scope="thread")
        T.cuda.tile.apply(T.ptx["st.global.b32"], D[tx:tx + 1], old, scope="thread")
    c = numpy.array([5], numpy.uint32)
    d = numpy.zeros(32, numpy.uint32)
    interpret(grab)(c, d)  # the destination is written, not read
    assert c[0] == 37 and list(d) == list(range(5, 37))  # lanes in order


def test_register_element_as_an_index():
    @T.function
    def gather(I: T.Tensor((1,), "uint32"), A: T.Tensor((8,), "float32"),
               B: T.Tensor((1,), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        i = T.alloc_local((1,), "uint32")
        x = T.alloc_local((1,), "float32")
        T.cuda.tile.apply(T.ptx["ld.global.b32"], i, I, scope="thread")
        k = T.index(i[0])  # MARK-slot
        with T.If(k < 8):
            with T.Then():
                T.cuda.tile.apply(T.ptx["ld.global.b32"], x, A[k:k + 1], scope="thread")
                T.cuda.tile.apply(T.ptx["st.global.b32"], B, x, scope="thread",
                                  pred=T.cuda.thread_idx("x") == 0)
    b = numpy.zeros(1, numpy.float32)
    interpret(gather)(numpy.array([5], numpy.uint32), numpy.arange(8, dtype=numpy.float32), b)
    assert b[0] == 5.0


#===------------------------------------------------------------------------===#
# Every argument check of Interpreted.__call__ (python/tirx/_interpret.py)
#===------------------------------------------------------------------------===#

@pytest.fixture(scope="module")
def seed_kernel():
    from affine_relu import affine_relu
    return interpret(affine_relu)


def seed_array(dtype=numpy.float32, shape=(2, 32, 4)):
    return numpy.zeros(shape, dtype)


class FakeCuda:
    """A stand-in for a CUDA tensor: just __cuda_array_interface__."""

    def __init__(self, shape=(2, 32, 4), typestr="<f4"):
        self.__cuda_array_interface__ = dict(shape=shape, typestr=typestr,
                                             data=(0x10000, False), strides=None, version=3)


class FakeTorchDtype:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name


class FakeTorch:
    """A stand-in for a PyTorch tensor over a NumPy array's memory (no
    __array_interface__: what the interpreter reads of a torch tensor)."""

    def __init__(self, array, dtype="torch.float32", contiguous=True, is_cuda=False):
        self.array, self.dtype, self.contiguous = array, FakeTorchDtype(dtype), contiguous
        self.shape, self.is_cuda = array.shape, is_cuda

    def data_ptr(self):
        return self.array.ctypes.data

    def is_contiguous(self):
        return self.contiguous

    def numel(self):
        return self.array.size

    def element_size(self):
        return self.array.itemsize


def test_argument_count(seed_kernel):
    with raises(TypeError, "kernel 'affine_relu' takes 2 arguments, got 1"):
        seed_kernel(seed_array())
    with raises(TypeError, "kernel 'affine_relu' takes 2 arguments, got 3"):
        seed_kernel(seed_array(), seed_array(), seed_array())


def test_gpu_objects_are_refused(seed_kernel):
    gpu = ("parameter 'B' is in GPU memory, but the interpreter runs on host memory: pass a "
           "CPU tensor (.cpu()) or a NumPy array")
    with raises(TypeError, gpu):
        seed_kernel(seed_array(), FakeCuda())
    with raises(TypeError, gpu):
        seed_kernel(seed_array(), FakeTorch(seed_array(), is_cuda=True))


def test_cpu_tensors_run(seed_kernel):
    """A CPU tensor (data_ptr, is_contiguous, dtype: torch's interface) is
    read and written in place."""
    a = seed_input()
    b = numpy.full_like(a, numpy.nan)
    seed_kernel(FakeTorch(a), FakeTorch(b))
    assert numpy.array_equal(bits(b), bits(affine_relu_reference(a)))
    with raises(TypeError, "parameter 'A' expects float32 elements, got <f8"):
        seed_kernel(FakeTorch(numpy.zeros((2, 32, 4)), "torch.float64"), FakeTorch(b))
    with raises(TypeError, "parameter 'A' expects float32 elements, got torch.complex64"):
        seed_kernel(FakeTorch(a, "torch.complex64"), FakeTorch(b))


def test_wrong_element_type(seed_kernel):
    with raises(TypeError, "parameter 'A' expects float32 elements, got <f8"):
        seed_kernel(seed_array(numpy.float64), seed_array())
    with raises(TypeError, "parameter 'B' expects float32 elements, got <i4"):
        seed_kernel(seed_array(), seed_array(numpy.int32))


def test_wrong_rank_and_shape(seed_kernel):
    with raises(ValueError, "parameter 'A' expects a tensor of rank 3, got shape (64, 4)"):
        seed_kernel(seed_array(shape=(64, 4)), seed_array())
    with raises(ValueError, "parameter 'B' expects shape (2, 32, 4), got (2, 32, 8)"):
        seed_kernel(seed_array(), seed_array(shape=(2, 32, 8)))


def test_non_contiguous_and_read_only(seed_kernel):
    contiguous = "parameter 'A' must be contiguous (row-major)"
    with raises(ValueError, contiguous):
        seed_kernel(seed_array(shape=(2, 32, 8))[:, :, ::2], seed_array())
    with raises(ValueError, contiguous):
        seed_kernel(numpy.asfortranarray(seed_array()), seed_array())
    with raises(ValueError, contiguous):
        seed_kernel(FakeTorch(seed_array(), contiguous=False), seed_array())
    frozen = seed_array()
    frozen.setflags(write=False)
    with raises(ValueError, "parameter 'B' is read-only; the kernel may write it"):
        seed_kernel(seed_array(), frozen)


def test_non_arrays(seed_kernel):
    message = "parameter '%s' expects a NumPy array, a CPU tensor or a DLPack CPU array, got %s"
    with raises(TypeError, message % ("A", "list")):
        seed_kernel([[[0.0] * 4] * 32] * 2, seed_array())
    with raises(TypeError, message % ("B", "NoneType")):
        seed_kernel(seed_array(), None)


class DLPackOnly:
    """A producer with nothing but the DLPack protocol (as JAX's or a C
    library's arrays), over a NumPy array's memory; `device` overrides
    what __dlpack_device__ says."""

    def __init__(self, array, device=None):
        self.array, self.device = array, device

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.device or self.array.__dlpack_device__()


def test_dlpack_producers_run(seed_kernel):
    """A DLPack-only CPU array is read and written in place, with the same
    checks as NumPy's (type, shape, contiguity, device)."""
    a = seed_input()
    b = numpy.full_like(a, numpy.nan)
    seed_kernel(DLPackOnly(a), DLPackOnly(b))
    assert numpy.array_equal(bits(b), bits(affine_relu_reference(a)))
    # An offset view: its byte_offset or data pointer moved.
    wide = numpy.full((3, 32, 4), numpy.nan, numpy.float32)
    seed_kernel(DLPackOnly(a), DLPackOnly(wide[1:]))
    assert numpy.array_equal(bits(wide[1:]), bits(affine_relu_reference(a)))
    assert numpy.isnan(wide[0]).all()
    with raises(TypeError, "parameter 'A' expects float32 elements, got <f8"):
        seed_kernel(DLPackOnly(numpy.zeros((2, 32, 4))), DLPackOnly(b))
    with raises(ValueError, "parameter 'B' expects shape (2, 32, 4), got (2, 32, 8)"):
        seed_kernel(DLPackOnly(a), DLPackOnly(seed_array(shape=(2, 32, 8))))
    with raises(ValueError, "parameter 'A' must be contiguous (row-major)"):
        seed_kernel(DLPackOnly(seed_array(shape=(2, 32, 8))[:, :, ::2]), DLPackOnly(b))
    with raises(TypeError, "parameter 'B' is on DLPack device type 2, but the interpreter runs "
                           "on host memory: pass a CPU array"):
        seed_kernel(DLPackOnly(a), DLPackOnly(b, device=(2, 0)))
    with raises(TypeError, "parameter 'A': DLPack element type (code 5, 64 bits, 1 lanes) has "
                           "no TirX type"):
        seed_kernel(DLPackOnly(numpy.zeros((2, 32, 4), numpy.complex64)), DLPackOnly(b))


n_var = T.dynamic("n", multiple_of=4, at_most=64)


@T.function
def copy_n(X: T.Tensor((n_var,), "float32"), Y: T.Tensor((n_var,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    tx = T.cuda.thread_idx("x")
    for i in T.serial(tx, n_var.value(), 32):
        r = T.alloc_local((1,), "float32")
        T.cuda.tile.apply(T.ptx["ld.global.b32"], r, X[i:i + 1], scope="thread")
        T.cuda.tile.apply(T.ptx["st.global.b32"], Y[i:i + 1], r, scope="thread")


def test_size_variables():
    compiled = interpret(copy_n)
    x = numpy.arange(40, dtype=numpy.float32)
    y = numpy.zeros_like(x)
    compiled(x, y)
    assert numpy.array_equal(x, y)
    with raises(ValueError, "parameter 'Y': size variable 'n' is 44 here but 40 in an "
                            "earlier parameter"):
        compiled(x, numpy.zeros(44, numpy.float32))
    not_allowed = "size variable 'n' is %d, which its declaration does not allow"
    for extent in (6, 68, 0):  # not a multiple of 4, above 64, empty
        with raises(ValueError, not_allowed % extent):
            compiled(numpy.zeros(extent, numpy.float32), numpy.zeros(extent, numpy.float32))


@T.function
def store_scalars(N: T.Tensor((1,), "int32"), X: T.Tensor((1,), "float32"),
                  H: T.Tensor((1,), "uint16"), n: T.int32, x: T.float32, u: T.uint8,
                  h: T.bfloat16):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    first = T.cuda.thread_idx("x") == 0
    rn = T.alloc_local((1,), "int32")
    rx = T.alloc_local((1,), "float32")
    rh = T.alloc_local((1,), "uint16")
    T.cuda.tile.apply(T.ptx["mov.b32"], rn, n, scope="thread")
    T.cuda.tile.apply(T.ptx["mov.b32"], rx, x, scope="thread")
    T.cuda.tile.apply(T.ptx["mov.b16"], rh, h, scope="thread")
    T.cuda.tile.apply(T.ptx["st.global.b32"], N, rn, scope="thread", pred=first)
    T.cuda.tile.apply(T.ptx["st.global.b32"], X, rx, scope="thread", pred=first)
    T.cuda.tile.apply(T.ptx["st.global.b16"], H, rh, scope="thread", pred=first)


def run_scalars(n=0, x=0.0, u=0, h=0.0):
    outputs = numpy.zeros(1, numpy.int32), numpy.zeros(1, numpy.float32), \
        numpy.zeros(1, numpy.uint16)
    interpret(store_scalars)(*outputs, n, x, u, h)
    return int(outputs[0][0]), outputs[1][0], int(outputs[2][0])


def test_scalars():
    assert run_scalars(n=-2 ** 31, x=1.5, u=255)[:2] == (-2 ** 31, 1.5)
    assert run_scalars(n=2 ** 31 - 1, x=-0.1)[:2] == (2 ** 31 - 1, numpy.float32(-0.1))
    assert run_scalars(x=3)[1] == 3.0  # an int where a float is expected
    with raises(TypeError, "parameter 'x' expects a float, got 'a'"):
        run_scalars(x="a")
    with raises(TypeError, "parameter 'h' expects a float, got True"):
        run_scalars(h=True)
    with raises(TypeError, "parameter 'n' expects an int, got 1.5"):
        run_scalars(n=1.5)
    with raises(TypeError, "parameter 'u' expects an int, got False"):
        run_scalars(u=False)
    with raises(ValueError, "parameter 'n' (int32) cannot hold 2147483648"):
        run_scalars(n=2 ** 31)
    with raises(ValueError, "parameter 'n' (int32) cannot hold -2147483649"):
        run_scalars(n=-2 ** 31 - 1)
    with raises(ValueError, "parameter 'u' (uint8) cannot hold -1"):
        run_scalars(u=-1)
    with raises(ValueError, "parameter 'u' (uint8) cannot hold 256"):
        run_scalars(u=256)


@pytest.mark.parametrize("value, want", [
    (1.0, 0x3F80), (-2.5, 0xC020), (0.0, 0x0000), (-0.0, 0x8000),
    (1 + 2 ** -8, 0x3F80),                 # a tie: to even (down)
    (1 + 3 * 2 ** -8, 0x3F82),             # a tie: to even (up)
    (1 + 2 ** -8 + 2 ** -16, 0x3F81),      # above the tie
    (3.3895313892515355e38, 0x7F7F),       # the largest bfloat16
    (3.3961775292304974e38, 0x7F80),       # half an ulp above it: to inf
    (float("inf"), 0x7F80), (float("-inf"), 0xFF80),
    (1e-40, 0x0001),                        # a subnormal float32: 0x000116C2 rounds to 1
])
def test_bfloat16_scalar_bits(value, want):
    assert run_scalars(h=value)[2] == want


def test_bfloat16_scalar_nan():
    assert (run_scalars(h=float("nan"))[2] & 0x7FC0) == 0x7FC0


def test_float_scalar_beyond_float32():
    with raises(ValueError, "parameter 'x' (float32) cannot hold 1e+39"):
        run_scalars(x=1e39)


#===------------------------------------------------------------------------===#
# The C entry point, tirxInterpret, through ctypes
#===------------------------------------------------------------------------===#

def interpret_raw(compiled, arguments, options=b"", kernel=None):
    """tirxInterpret on `compiled`'s IR: (succeeded, stages, [messages])."""
    args = (_capi.InterpretArgument * max(len(arguments), 1))()
    for slot, argument in zip(args, arguments):
        if isinstance(argument, int):
            slot.scalar = argument
        elif isinstance(argument, tuple):  # (array, bytes claimed)
            slot.data, slot.bytes = argument[0].ctypes.data, argument[1]
        elif argument is not None:
            slot.data, slot.bytes = argument.ctypes.data, argument.nbytes
    data = compiled.source_ir.encode()
    result = _capi.lib.tirxInterpret(data, len(data), b"<test>",
                                     compiled.name.encode() if kernel is None else kernel,
                                     args, len(arguments), options)
    try:
        from tirx._compile import result_diagnostics
        messages = [message for *_, message in result_diagnostics(result)]
        return (bool(_capi.lib.tirxCompileResultSucceeded(result)),
                _capi.lib.tirxCompileResultGetNumStages(result), messages)
    finally:
        _capi.lib.tirxCompileResultDestroy(result)


def test_c_api_runs(seed_kernel):
    a = seed_input()
    b = numpy.full_like(a, numpy.nan)
    assert interpret_raw(seed_kernel, [a, b]) == (True, 1, [])
    assert numpy.array_equal(bits(b), bits(affine_relu_reference(a)))
    # NULL: the module's only kernel.
    b[:] = numpy.nan
    assert interpret_raw(seed_kernel, [a, b], kernel=None)[0]
    assert interpret_raw(seed_kernel, [a, b], kernel=b"")[0]
    assert numpy.array_equal(bits(b), bits(affine_relu_reference(a)))


def test_c_api_buffer_too_small(seed_kernel):
    a = seed_input()
    ok, stages, messages = interpret_raw(seed_kernel, [a, (numpy.zeros(1, numpy.float32), 4)])
    assert (ok, stages) == (False, 1)
    assert messages == ["argument #1 holds 4 bytes, but '!tirx.tensor<2x32x4xf32, global, "
                        "align = 16>' needs 1024"]
    # No storage at all.
    ok, stages, messages = interpret_raw(seed_kernel, [None, a])
    assert messages == ["argument #0 holds 0 bytes, but '!tirx.tensor<2x32x4xf32, global, "
                        "align = 16>' needs 1024"]


def test_c_api_size_variables():
    """A dynamic tensor's size comes from its size variable's argument."""
    compiled = interpret(copy_n)
    x = numpy.arange(40, dtype=numpy.float32)
    y = numpy.zeros_like(x)
    ok, stages, messages = interpret_raw(compiled, [x, (y, 100), 40])
    assert messages == ["argument #1 holds 100 bytes, but '!tirx.tensor<?xf32, global, "
                        "sizes = [n]>' needs 160"]
    assert interpret_raw(compiled, [x, y, 40]) == (True, 1, [])
    assert numpy.array_equal(x, y)


def test_c_api_invalid_options(seed_kernel):
    a, b = seed_input(), seed_array()
    for options, word in ((b"x=1", "x=1"), (b"races=0 x=1", "x=1"), (b"races=yes", "races=yes"),
                          (b"block", "block")):
        ok, stages, messages = interpret_raw(seed_kernel, [a, b], options)
        assert (ok, stages) == (False, 0)
        assert messages == ["invalid interpreter options '%s': '%s' is not one of races=0|1, "
                            "uninitialized=0|1, block=N, trace=0|1"
                            % (options.decode(), word)]


def test_c_api_race_check_off():
    compiled = interpret(make_transpose(sync=False))
    a = transpose_input()
    ok, stages, messages = interpret_raw(compiled, [a, numpy.zeros_like(a)])
    assert not ok and messages[0].startswith("data race on byte 128 of the shared tensor")
    assert interpret_raw(compiled, [a, numpy.zeros_like(a)],
                         b"races=0 uninitialized=0") == (True, 1, [])
    # races=0 alone: the read the race explained is an uninitialized one.
    ok, stages, messages = interpret_raw(compiled, [a, numpy.zeros_like(a)], b"races=0")
    assert not ok and "which no thread has written" in messages[0]


def test_c_api_one_block():
    """block=N runs only CTA N: the other rows keep their values."""
    import softmax
    compiled = interpret(softmax.kernel_for(*softmax.config_for(3, 1024)))
    x = softmax.inputs(3, 1024)
    y = numpy.full_like(x, numpy.nan)
    assert interpret_raw(compiled, [x, y, 3, 1024], b"block=1") == (True, 1, [])
    assert numpy.isnan(y[0]).all() and numpy.isnan(y[2]).all()
    assert max_relative_error(y[1], softmax.reference(x)[1]) <= softmax.RTOL


#===------------------------------------------------------------------------===#
# TIRX_INTERPRET=1 and compile errors
#===------------------------------------------------------------------------===#

def test_environment_selects_the_interpreter(monkeypatch):
    monkeypatch.setenv("TIRX_INTERPRET", "1")
    from silu import affine_relu as silu_kernel
    compiled = tirx.compile(silu_kernel, target="cuda")
    assert isinstance(compiled, tirx.Interpreted) and compiled.ptx is None
    assert "tirx.kernel @affine_relu" in compiled.mlir["input"]
    a = numpy.linspace(-4, 4, 256, dtype=numpy.float32).reshape(2, 32, 4)
    b = numpy.full_like(a, numpy.nan)
    compiled(a, b)
    e = numpy.array([math.exp(-float(v)) for v in a.flat]).astype(numpy.float32)
    assert numpy.array_equal(bits(b), bits(a / (numpy.float32(1) + e.reshape(a.shape))))
    # A target dict asks for it too; without the variable, "cuda" does not.
    monkeypatch.setenv("TIRX_INTERPRET", "0")
    assert isinstance(tirx.compile(silu_kernel, target={"kind": "interpret"}),
                      tirx.Interpreted)
    assert not isinstance(tirx.compile(silu_kernel, target={"kind": "cuda", "arch": "sm_90"}),
                          tirx.Interpreted)


def test_kernel_that_does_not_verify_is_a_compile_error():
    @T.function
    def out_of_bounds(A: T.Tensor((64,), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        i = T.cuda.thread_idx("x") + 40
        r = T.alloc_local((1,), "float32")
        T.cuda.tile.apply(T.ptx["ld.global.f32"], r, A[i:i + 1], scope="thread")  # MARK-oob
    compiled = interpret(out_of_bounds)  # tracing succeeds; the run verifies first
    with pytest.raises(tirx.CompileError) as error:
        compiled(numpy.zeros(64, numpy.float32))
    assert not isinstance(error.value, tirx.InterpreterError)
    assert_located(error.value, "MARK-oob", "may read index 71 of dimension 0")


#===------------------------------------------------------------------------===#
# The GEMMs on the interpreter: mma.sync + cp.async (examples/python/gemm.py),
# TMA + mbarriers + wgmma (examples/python/gemm_hopper.py), against their
# own checkers; seeded bugs in the library's pipelines, found at the example's
# line
#===------------------------------------------------------------------------===#

BFLOAT16_NAN = 0x7FC0  # a poisoned output: an element the kernel skips fails check


def example_line(example, marker):
    """(path, line) of the line of examples/python/<example>.py holding
    `marker` (what the interpreter's diagnostics name: the first frame outside
    the tirx package)."""
    module = __import__(example)
    path = module.__file__
    return path, int(helpers.line_of(path, marker).split(":")[1])


def assert_at(diagnostic, severity, example, marker, message):
    """`diagnostic` is a (severity, file, line, column, text) at the line of
    `example` holding `marker`, its text containing `message`."""
    path, line = example_line(example, marker)
    assert (diagnostic[0], os.path.abspath(diagnostic[1]), diagnostic[2]) == \
        (severity, os.path.abspath(path), line), diagnostic
    assert message in diagnostic[4], diagnostic


def run_mma_sync_gemm(M, N, K, **config):
    """gemm.py's kernel on its inputs: (a, b, c) as float32."""
    import gemm
    compiled = interpret(gemm.make_kernel(M, N, K, **config))
    a, b = gemm.inputs(M, N, K, seed=M + K)
    c = numpy.full((M, N), BFLOAT16_NAN, numpy.uint16)
    compiled(as_bfloat16_bits(a), as_bfloat16_bits(b), c)
    return a, b, from_bfloat16_bits(c)


@pytest.mark.parametrize("M, N, K, config", [
    (128, 128, 128, {}),                       # one CTA, 4 K blocks: the prologue's 3 + 1
    (256, 128, 256, {}),                       # two CTAs, 8 K blocks (stages reused)
    (128, 256, 128, {"EPILOGUE": "global"}),   # st.global epilogue, two CTAs along N
])
def test_mma_sync_gemm(M, N, K, config):
    import gemm
    a, b, c = run_mma_sync_gemm(M, N, K, **config)
    assert gemm.check(a, b, c) <= 1


def test_mma_sync_gemm_of_stages_minus_one_k_blocks_numbers():
    """K = (STAGES - 1) BK, the fewest K blocks make_kernel allows: with the
    check of unwritten memory off, the numbers are right (see the xfail
    below for the check)."""
    import gemm
    compiled = interpret(gemm.make_kernel(128, 256, 96))
    a, b = gemm.inputs(128, 256, 96)
    c = numpy.full((128, 256), BFLOAT16_NAN, numpy.uint16)
    compiled(as_bfloat16_bits(a), as_bfloat16_bits(b), c, uninitialized=False)
    assert gemm.check(a, b, from_bfloat16_bits(c)) <= 1


@pytest.mark.xfail(strict=True, raises=tirx.InterpreterError, reason=(
    "a kernel bug the interpreter finds, not an interpreter bug: "
    "tirx.gemm.WarpTiledMMA.mainloop loads the fragments of the next K block's first k16 "
    "step during the last block too (ldmatrix of stage k_steps % STAGES); with K // BK == "
    "STAGES - 1 that stage is never copied into (its cp.async has pred false), so the "
    "ldmatrix reads shared memory nothing wrote (the fragments are dead)"))
def test_mma_sync_gemm_of_stages_minus_one_k_blocks():
    try:
        run_mma_sync_gemm(128, 256, 96)
    except tirx.InterpreterError as error:  # the xfail: only this error, at the ldmatrix
        path, line = example_line("gemm", "tiled.alloc_stages(")
        assert_at(error.diagnostics[0], 0, "gemm", "tiled.mainloop(",
                  'reads byte 24576 of the shared tensor allocated at loc("%s":%d:'
                  % (path, line))
        assert "which no thread has written (block (0, 0, 0) thread 0 (warp 0, lane 0))" in \
            str(error)
        raise


def run_hopper_gemm(compiled, M, N, K, seed=0):
    """gemm_hopper's kernel `compiled` on its inputs: (a, w, c) as float32."""
    import gemm_hopper
    a, w = gemm_hopper.inputs(M, N, K, seed=seed)
    c = numpy.full((M, N), BFLOAT16_NAN, numpy.uint16)
    compiled(as_bfloat16_bits(a), as_bfloat16_bits(w), c)
    return a, w, from_bfloat16_bits(c)


@pytest.mark.parametrize("M, N, K, config", [
    (128, 256, 64, {}),                                    # one CTA per tile, one K step
    (256, 512, 320, {"num_sms": 2}),                       # persistent: 2 tiles a CTA, 5 steps
    (128, 256, 64, {"STORE": "global"}),                   # st.global.b32 epilogue
    (256, 512, 320, {"num_sms": 2, "STORE": "global"}),    # deferred words across tiles
])
def test_hopper_gemm(M, N, K, config):
    import gemm_hopper
    compiled = interpret(gemm_hopper.make_kernel(M, N, K, **config))
    a, w, c = run_hopper_gemm(compiled, M, N, K)
    assert gemm_hopper.check(a, w, c) <= 1


@pytest.fixture(scope="module")
def hopper_runtime_sized():
    import gemm_hopper
    return interpret(gemm_hopper.runtime_sized(2))


@pytest.mark.parametrize("M, N, K", [
    (200, 312, 136),   # tails of M, N and K (TMA's zero fill and clipping), 4 tiles
    (1, 8, 8),         # one row, one K step of 8: one CTA without a tile
    (130, 264, 72),    # tails past one tile in M and N; K a step and a tail of 8
])
def test_hopper_gemm_runtime_sized(hopper_runtime_sized, M, N, K):
    import gemm_hopper
    a, w, c = run_hopper_gemm(hopper_runtime_sized, M, N, K, seed=M)
    assert gemm_hopper.check(a, w, c) <= 1


def hopper_error(M=128, N=256, K=64, **config):
    """The InterpreterError of gemm_hopper's kernel (as patched) on its inputs."""
    import gemm_hopper
    compiled = interpret(gemm_hopper.make_kernel(M, N, K, **config))
    with pytest.raises(tirx.InterpreterError) as error:
        run_hopper_gemm(compiled, M, N, K)
    return error.value


PRODUCE = "produce_k_loop(pipe, KT"    # gemm_hopper.py's producer K loop
CONSUME = "mma.mainloop(pipe, d"       # its consumers' K loop


def test_hopper_producer_parity_off_by_one_is_a_deadlock(monkeypatch):
    """The producer waits for a stage to be free on the parity of its use
    instead of the one before (1 - phase): on a fresh `empty` barrier it
    waits for a phase no consumer can complete before the stage is full.
    Every warp still running waits: the producer for `empty`, the 8
    consumer warps for `full`; the producer warpgroup's 3 other warps have
    finished."""
    import tirx.pipeline
    monkeypatch.setattr(tirx.pipeline.PipelineState, "producer_phase",
                        property(lambda state: state.step // state.stages % 2))
    error = hopper_error()
    assert str(error).startswith("%s:%d: error: deadlock in block (0, 0, 0): every warp still "
                                 "running waits for another" % example_line("gemm_hopper",
                                                                            PRODUCE))
    assert_at(error.diagnostics[0], 0, "gemm_hopper", PRODUCE, "deadlock in block (0, 0, 0)")
    notes = error.diagnostics[1:13]
    assert [note[4] for note in notes] == \
        ["warp 0 waits here"] + ["warp %d has finished the kernel" % w for w in (1, 2, 3)] + \
        ["warp %d waits here" % w for w in range(4, 12)]
    assert_at(notes[0], 2, "gemm_hopper", PRODUCE, "warp 0 waits here")
    for note in notes[4:]:
        assert_at(note, 2, "gemm_hopper", CONSUME, "waits here")
    # Then what each of the 8 mbarriers (4 stages' full and empty) waits for,
    # all in their first phase: `full` for the producer's arrival, `empty`
    # for the 8 consumer warps'.
    phases = sorted(note[4] for note in error.diagnostics[13:])
    assert phases == sorted(
        ["the mbarrier initialized here is in phase 0, which still waits for %s" % waits
         for waits in ["1 arrival(s) of 1"] * 4 + ["8 arrival(s) of 8"] * 4]), phases


def test_hopper_consumer_parity_flipped_reads_the_stage_too_early(monkeypatch):
    """Consumers waiting on parity 1 where 0 is due is no deadlock: a fresh
    mbarrier counts the phase before its first as complete (the producer's
    first wait relies on it), so the consumers read the stage before TMA
    has written it."""
    import tirx.pipeline
    monkeypatch.setattr(tirx.pipeline.PipelineState, "phase",
                        property(lambda state: 1 - state.step // state.stages % 2))
    error = hopper_error()
    assert_at(error.diagnostics[0], 0, "gemm_hopper", CONSUME,
              "of the shared tensor allocated at ")
    assert "which no thread has written" in str(error)
    # Over several tiles, the producer's next TMA load of a stage races with
    # the consumers' early read of it.
    error = hopper_error(256, 512, 320, num_sms=2)
    assert_at(error.diagnostics[0], 0, "gemm_hopper", "stage.load(sa[stage.index]",
              "data race on byte 0 of the shared tensor allocated at ")
    assert_at(error.diagnostics[1], 2, "gemm_hopper", CONSUME, "the earlier access")


def test_hopper_accumulators_read_before_wait_group(monkeypatch):
    """WarpgroupMMA.mainloop without its final wgmma.wait_group 0: the
    epilogue's cvt reads accumulators the tile's last wgmma group still
    writes."""
    import tirx.gemm
    wait = tirx.gemm.WarpgroupMMA.wait
    monkeypatch.setattr(tirx.gemm.WarpgroupMMA, "wait",
                        lambda mma, pending: None if pending == 0 else wait(mma, pending))
    error = hopper_error()
    assert_at(error.diagnostics[0], 0, "gemm_hopper", "out.tile_done(tile)",
              "reads registers a wgmma still accumulates into (block (0, 0, 0) thread 128 "
              "(warp 4, lane 0)): wait for its group with wgmma.wait_group first")
    assert_at(error.diagnostics[1], 2, "gemm_hopper", CONSUME, "the wgmma")


def test_hopper_stage_released_before_its_wgmma_group_completes(monkeypatch):
    import gemm_hopper
    import tirx.gemm
    wait = tirx.gemm.WarpgroupMMA.wait
    monkeypatch.setattr(tirx.gemm.WarpgroupMMA, "wait",
                        lambda mma, pending: None if pending == 1 else wait(mma, pending))
    # 5 K steps over 4 stages: step 4's TMA load overwrites stage 0 while the
    # groups of steps 0 .. 3 are still in flight (only wait_group 0 is left):
    # reported at the load, with the wgmma that may still read the stage.
    M, N, K = 128, 256, 320
    compiled = interpret(gemm_hopper.make_kernel(M, N, K))
    with pytest.raises(tirx.InterpreterError) as error:
        run_hopper_gemm(compiled, M, N, K)
    assert_at(error.value.diagnostics[0], 0, "gemm_hopper", "stage.load(sa[stage.index]",
              "while a wgmma issued before it may still read it (block (0, 0, 0) thread 0 "
              "(warp 0, lane 0)): the wgmma's group must complete (wgmma.wait_group) before "
              "its operands are written")
    assert_at(error.value.diagnostics[1], 2, "gemm_hopper", "mma.mainloop(", "the wgmma")


def test_mma_sync_gemm_without_the_stage_barrier_is_a_race(monkeypatch):
    """CpAsyncPipeline.consumer_wait without its bar.sync: a thread waits
    for its own cp.async groups only. Warp 0 runs on to the epilogue's
    barrier, its ldmatrix reading rows of stage 0 that warp 1 copies (K
    block 0, in the prologue) only when it runs next: the copy is reported
    at the write, the ldmatrix as the earlier access."""
    import tirx.pipeline
    monkeypatch.setattr(tirx.pipeline.CpAsyncPipeline, "consumer_wait",
                        lambda pipe: T.ptx.cp.async_.wait_group(pipe.stages - 2))
    with pytest.raises(tirx.InterpreterError) as error:
        run_mma_sync_gemm(128, 128, 128)
    path, stages_line = example_line("gemm", "tiled.alloc_stages(")
    assert_at(error.value.diagnostics[0], 0, "gemm", "tiled.copy_stage(",
              "data race on byte 512 of the shared tensor allocated at "
              'loc("%s":%d:' % (path, stages_line))
    assert ("this write by block (0, 0, 0) thread 32 (warp 1, lane 0) and an earlier read by "
            "block (0, 0, 0) thread 8 (warp 0, lane 8) are not ordered by any "
            "synchronization") in str(error.value)
    assert_at(error.value.diagnostics[1], 2, "gemm", "tiled.mainloop(", "the earlier access")


def test_mma_sync_gemm_with_a_wrong_a_fragment(monkeypatch):
    """ldmatrix's row addresses of A with the roles of the matrix index's two
    bits exchanged: mma register a1 gets rows 0-7, k 8-15 of each 16 x 16
    block, a2 rows 8-15, k 0-7. Nothing is unsynchronized or unwritten, so
    only the numbers show it: wrong against A B, right against A' B, A's
    16 x 16 blocks with their off-diagonal 8 x 8 quadrants swapped."""
    import gemm
    import tirx.gemm
    from tirx.gemm import strided

    def rows(tiled, ks, operand):
        if operand != "a":
            return right(tiled, ks, operand)
        return strided((tiled.warps_m, tiled.warps_n, tiled.mi, 2, 2, 8, 4),
                       (tiled.wm * tiled.arow, 0, 16 * tiled.arow, 8 * tiled.arow, 4,
                        tiled.arow, 1), 8 * ks, tiled.a_swizzle)
    right = tirx.gemm.WarpTiledMMA._rows
    monkeypatch.setattr(tirx.gemm.WarpTiledMMA, "_rows", rows)
    M, N, K = 128, 128, 128
    a, b, c = run_mma_sync_gemm(M, N, K)
    assert not gemm.check(a, b, c) <= 1
    swapped = a.reshape(M // 16, 2, 8, K // 16, 2, 8).swapaxes(1, 4).reshape(M, K)
    assert gemm.check(swapped, b, c) <= 1


def test_hopper_gemm_with_a_wrong_lane_map(monkeypatch):
    """AccumulatorStore's st.global lane map transposed within each quad
    block: lane l stores the words of row l / 4, word l % 4 of an 8 x 4 block
    at row l % 8, word l / 8. The output is exactly the right one with each
    8-row x 4-word block permuted that way."""
    import gemm_hopper
    import tirx.gemm
    init = tirx.gemm.AccumulatorStore.__init__

    def wrong_lanes(store, mma, *args, **kwargs):
        init(store, mma, *args, **kwargs)
        row_words = store.C.shape[1] // 2
        store.global_words = TileLayout(S[(4, 4, 8, mma.n // 8, 2, 1) :
                                          (16 * row_words, 1, row_words, 4, 8 * row_words, 1)])
    M, N, K = 128, 256, 64
    compiled = interpret(gemm_hopper.make_kernel(M, N, K, STORE="global"))
    a, w, c = run_hopper_gemm(compiled, M, N, K)  # unpatched
    assert gemm_hopper.check(a, w, c) <= 1
    monkeypatch.setattr(tirx.gemm.AccumulatorStore, "__init__", wrong_lanes)
    compiled = interpret(gemm_hopper.make_kernel(M, N, K, STORE="global"))
    _, _, wrong = run_hopper_gemm(compiled, M, N, K)
    assert not gemm_hopper.check(a, w, wrong) <= 1
    # Words of C: blocks (M / 8, 8 rows, N / 8, 4 words); lane l = 4 r + q.
    right, got = (as_bfloat16_bits(x).view(numpy.uint32).reshape(M // 8, 8, N // 8, 4)
                  for x in (c, wrong))
    lane = numpy.arange(32)
    assert numpy.array_equal(got[:, lane % 8, :, lane // 8], right[:, lane // 4, :, lane % 4])


#===------------------------------------------------------------------------===#
# T.print: printf from the executing threads
#===------------------------------------------------------------------------===#

def test_print_on_the_interpreter(capfd):
    @T.function
    def hello(A: T.Tensor((4,), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        tx = T.cuda.thread_idx("x")
        r = T.alloc_local((1,), "float32")
        T.cuda.tile.apply(T.ptx["ld.global.f32"], r, A[0:1], scope="thread")
        with T.If(tx % 32 < 2):
            with T.Then():
                T.print("thread %ld: a[0] = %.2f, %d \"q\" 50%%\n", tx, T.float32(r[0]),
                        T.int32(-7))
    interpret(hello)(numpy.array([1.5, 2, 3, 4], numpy.float32))
    assert capfd.readouterr().out == "".join(
        'thread %d: a[0] = 1.50, -7 "q" 50%%\n' % t for t in (0, 1, 32, 33))
    # On the GPU: one vprintf call.
    ptx = tirx.compile(hello, target={"kind": "cuda", "arch": "sm_90"}).ptx
    assert ptx.count("call.uni (retval0), vprintf,") == 1


def test_print_misuse():
    with raises(DSLError, "T.print takes its format string first, got 3"):
        @T.function
        def first(A: T.Tensor((4,), "float32")):
            T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
            T.print(3)
        interpret(first)
    with raises(DSLError, "T.print value #1 must be a traced scalar or a typed constant "
                          "(T.int32(5)), got 2.5; write a Python value into the format"):
        @T.function
        def second(A: T.Tensor((4,), "float32")):
            T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
            T.print("%ld %f\n", T.cuda.thread_idx("x"), 2.5)
        interpret(second)
    with pytest.raises(CompileError, match="'tirx.print' op the format has 2 conversion"):
        @T.function
        def third(A: T.Tensor((4,), "float32")):
            T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
            T.print("%ld %ld\n", T.cuda.thread_idx("x"))
        interpret(third)(numpy.zeros(4, numpy.float32))


#===------------------------------------------------------------------------===#
# The GPU suites' programs on the interpreter
#===------------------------------------------------------------------------===#

def round_to_bfloat16_bits(values):
    """float64 values rounded to nearest even bfloat16, as uint16 bits (NaN
    and overflow do not occur in these tests)."""
    words = numpy.asarray(values, numpy.float64).astype(numpy.float32).view(numpy.uint32)
    # float32 holds the sums of two bfloat16s of N(0, 1) exactly (exponents
    # apart by at most 15), so one more rounding is the only one.
    rounded = words + 0x7FFF + ((words >> 16) & 1)
    return (rounded >> 16).astype(numpy.uint16)


TMA_REDUCE = helpers.load_gpu_script("run_tma_reduce.py")


@pytest.mark.parametrize("case", range(len(TMA_REDUCE.CASES)),
                         ids=lambda c: "%d-%s-%s" % ((c,) + TMA_REDUCE.CASES[c][2:4]))
def test_tma_reduce_cases(case):
    """test/gpu/run_tma_reduce.py's kernels (TMA load, prefetch, reduction
    into global memory, bulk group wait) on the interpreter, bit for bit
    against the host model of that script: each element of the box becomes
    `old op s`, rounded once; D outside the box is unchanged."""
    shape, box, dtype, op, coords = TMA_REDUCE.CASES[case]
    compiled = tirx.compile(TMA_REDUCE.kernel(shape, box, dtype, op, coords), target=INTERPRET)
    rng = numpy.random.default_rng(100 + case)
    if dtype.startswith("int"):
        s, d = (rng.integers(-1000, 1000, shape).astype(dtype) for _ in range(2))
        values = s, d
    else:
        values = [rng.standard_normal(shape) for _ in range(2)]
        if dtype == "bfloat16":
            values = [from_bfloat16_bits(round_to_bfloat16_bits(v)) for v in values]
            s, d = (as_bfloat16_bits(v) for v in values)
        else:
            values = [v.astype(dtype) for v in values]
            s, d = (v.copy() for v in values)
    where = tuple(slice(c, c + b) for c, b in zip(coords, box))
    old, new = values[1][where], values[0][where]
    want = d.copy()
    if dtype.startswith("int"):
        want[where] = {"add": old + new, "min": numpy.minimum(old, new),
                       "max": numpy.maximum(old, new), "and": old & new, "or": old | new,
                       "xor": old ^ new}[op]
    else:
        exact = {"add": old.astype(numpy.float64) + new, "min": numpy.minimum(old, new),
                 "max": numpy.maximum(old, new)}[op]
        want[where] = (round_to_bfloat16_bits(exact) if dtype == "bfloat16"
                       else numpy.asarray(exact).astype(dtype))
    compiled(s, d)
    assert numpy.array_equal(bits(d), bits(want))
    if op == "add":
        # The comparison sees a reduction that stored instead of adding.
        assert not numpy.array_equal(bits(d[where]), bits(s[where]))


CLUSTER = helpers.load_gpu_script("run_cluster.py")


@pytest.mark.parametrize("cluster, clusters", [(2, 2), (4, 1)])
def test_cluster_multicast(cluster, clusters):
    """test/gpu/run_cluster.py's multicast kernel on the interpreter: every
    CTA of a cluster loads its share of the cluster's rows with one TMA load
    multicast to all of them (ctaMask all ones), meeting at the cluster
    barrier; each CTA then stores all the cluster's rows: C[b] = A[rows of
    b's cluster], bit for bit."""
    compiled = tirx.compile(CLUSTER.kernel(cluster, clusters), target=INTERPRET)
    rows = CLUSTER.SHARE * cluster
    a = numpy.random.default_rng(cluster).integers(0, 1 << 16, (rows * clusters, CLUSTER.COLS),
                                                   dtype=numpy.uint16)
    c = numpy.full((rows * cluster * clusters, CLUSTER.COLS), 0x7FC1, numpy.uint16)
    compiled(a, c)
    want = numpy.repeat(a.reshape(clusters, 1, rows, CLUSTER.COLS), cluster, axis=1)
    assert numpy.array_equal(c, want.reshape(-1, CLUSTER.COLS))


@pytest.mark.parametrize("cluster, clusters", [(2, 3), (4, 2), (8, 1)])
def test_cluster_remote_arrivals(cluster, clusters):
    """run_cluster.py's remote arrivals: each CTA's thread 0 arrives on every
    other CTA's mbarrier (mapa), waits on its own, then writes its block
    index."""
    compiled = tirx.compile(CLUSTER.remote_arrive_kernel(cluster, clusters), target=INTERPRET)
    out = numpy.full(cluster * clusters, -1, numpy.int32)
    compiled(out)
    assert out.tolist() == list(range(cluster * clusters))


def test_cluster_lost_remote_arrival_is_a_deadlock():
    """Seeded bug: each CTA arrives on one peer only, while its own
    mbarrier expects one arrival from each of the cluster's 3 others."""
    cluster = 4

    @T.function
    def one_arrival(out: T.Tensor((cluster,), "int32", align=4)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=cluster, block=32, cluster=cluster))
        bar = T.alloc_shared((1,), "uint64", align=8)
        tx = T.cuda.thread_idx("x")
        bx = T.cuda.block_idx("x")
        CLUSTER.init_barrier(bar, cluster - 1, tx)
        with T.If(tx == 0):
            with T.Then():
                T.ptx.mbarrier.arrive.release.cluster.shared__cluster.b64(
                    bar.data, T.int32((bx + 1) % cluster))
                T.ptx.mbarrier.try_wait.parity.acquire.cluster.shared__cta.b64(bar.data, 0)  # MARK-w
        CLUSTER.leave_cluster()

    compiled = tirx.compile(one_arrival, target=INTERPRET)
    with pytest.raises(tirx.InterpreterError) as error:
        compiled(numpy.zeros(cluster, numpy.int32))
    assert_located(error.value, "MARK-w", "deadlock in the cluster of blocks (0, 0, 0) to "
                   "(3, 0, 0): every warp still running waits for another")
    assert "which still waits for 2 arrival(s) of 3" in str(error.value)


def remote_arrival_kernel(target, meet=True, mask=None):
    """A cluster of 2: thread 0 of each CTA arrives on the mbarrier of CTA
    `target(bx)` (meeting the cluster after the init unless `meet` is
    False), or, with `mask`, issues a multicast load to those CTAs."""
    rows = CLUSTER.SHARE

    @T.function
    def remote(A: T.Tensor((rows, CLUSTER.COLS), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=2, block=32, cluster=2))
        img = T.alloc_shared((rows, CLUSTER.COLS), "bfloat16", align=128)
        bar = T.alloc_shared((1,), "uint64", align=8)
        tx = T.cuda.thread_idx("x")
        bx = T.cuda.block_idx("x")
        with T.If(tx == 0):
            with T.Then():
                T.ptx.mbarrier.init(bar.data, 1)
                T.ptx.fence.mbarrier_init.release.cluster()
        if meet:
            T.cuda.tile.apply(T.ptx["barrier.cluster.arrive.aligned"], scope="cta")
            T.cuda.tile.apply(T.ptx["barrier.cluster.wait.aligned"], scope="cta")
        with T.If(tx == 0):
            with T.Then():
                if mask is None:
                    T.ptx.mbarrier.arrive.release.cluster.shared__cluster.b64(  # MARK-ra
                        bar.data, T.int32(target(bx)))
                else:
                    T.cuda.tile.apply(T.ptx[CLUSTER.LOAD], img, A, bar, T.int16(mask),  # MARK-mask
                                      scope="thread")
        CLUSTER.leave_cluster()

    return tirx.compile(remote, target=INTERPRET)


def test_cluster_multicast_before_peer_init_is_found():
    """Seeded bug: the cluster barrier after mbarrier.init dropped, so one
    CTA's multicast completes on a peer's mbarrier before the peer has
    initialized it."""
    a = numpy.zeros((CLUSTER.SHARE, CLUSTER.COLS), numpy.uint16)
    with pytest.raises(tirx.InterpreterError) as error:
        remote_arrival_kernel(None, meet=False, mask=0x3)(a)
    assert_located(error.value, "MARK-mask", "a TMA load completes on an mbarrier CTA 1 has not "
                   "initialized (block (0, 0, 0) thread 0 (warp 0, lane 0))")


def test_cluster_remote_arrival_errors():
    a = numpy.zeros((CLUSTER.SHARE, CLUSTER.COLS), numpy.uint16)
    with pytest.raises(tirx.InterpreterError) as error:
        remote_arrival_kernel(lambda bx: bx * 4)(a)
    message = "arrives on the mbarrier of CTA 4 of a cluster of 2 CTAs (block (1, 0, 0)"
    assert_located(error.value, "MARK-ra", message)
    with pytest.raises(tirx.InterpreterError) as error:
        remote_arrival_kernel(lambda bx: 1 - bx, meet=False)(a)
    message = "arrives on an mbarrier CTA 1 has not initialized (block (0, 0, 0) thread 0"
    assert_located(error.value, "MARK-ra", message)
    assert "(warp 0, lane 0), byte 0 of the shared tensor allocated at" in str(error.value)
    # An immediate ctaMask past the cluster is refused before anything runs
    # (test/Interpreter/clusters.mlir runs a computed one).
    with pytest.raises(CompileError) as error:
        remote_arrival_kernel(None, mask=0x7)(a)
    message = "the ctaMask 0x7 of '%s' must name one or more CTAs" % CLUSTER.LOAD
    assert_located(error.value, "MARK-mask", message)
    # The twin without the bugs runs: each CTA arrives on the other's.
    remote_arrival_kernel(lambda bx: 1 - bx)(a)


TMA = helpers.load_gpu_script("run_tma.py")
NUMPY_TYPE = {"uint8": numpy.uint8, "bfloat16": numpy.uint16, "float32": numpy.float32,
              "float64": numpy.float64}


def tma_input(shape, dtype, seed):
    """Random bits of `dtype` (finite floats: N(0, 1); bfloat16 as bits)."""
    rng = numpy.random.default_rng(seed)
    if dtype == "uint8":
        return rng.integers(0, 256, shape, dtype=numpy.uint8)
    values = rng.standard_normal(shape)
    if dtype == "bfloat16":
        return round_to_bfloat16_bits(values)
    return values.astype(dtype)


def as_bytes(array):
    return numpy.ascontiguousarray(array).view(numpy.uint8)


@pytest.mark.parametrize("shape, box, dtype, coords", [
    (shape, box, dtype, coords) for shape, box, dtype, sets in TMA.CASES for coords in sets])
def test_tma_copies(shape, box, dtype, coords):
    """test/gpu/run_tma.py's TMA copies (ranks 1-5, boxes inside the tensor
    and overhanging it) on the interpreter, against that script's host
    model bit for bit: C is the box with zero fill, B the box's in-bounds
    part stored back at its coordinates."""
    compiled = tirx.compile(TMA.kernel(shape, box, dtype, coords), target=INTERPRET)
    a = tma_input(shape, dtype, len(shape))
    b = numpy.zeros(shape, NUMPY_TYPE[dtype])
    c = numpy.full(box, 7, NUMPY_TYPE[dtype])
    compiled(a, b, c)
    width = TMA.BYTES[dtype]
    want_c, want_b = TMA.model(as_bytes(a).reshape(shape[:-1] + (shape[-1] * width,)),
                               tuple(box[:-1]) + (box[-1] * width,),
                               tuple(coords[:-1]) + (coords[-1] * width,))
    assert numpy.array_equal(as_bytes(c).reshape(want_c.shape), want_c)
    assert numpy.array_equal(as_bytes(b).reshape(want_b.shape), want_b)


@pytest.mark.parametrize("shape, box, dtype, coords, mode", TMA.SWIZZLE_CASES)
def test_tma_swizzles(shape, box, dtype, coords, mode):
    """run_tma.py's swizzled images: the box stored back through the swizzle
    (C) and through a plain view of the image (R: the bytes where the
    hardware puts them), against the script's model of the swizzle."""
    compiled = tirx.compile(TMA.swizzle_kernel(shape, box, dtype, coords, mode),
                            target=INTERPRET)
    a = tma_input(shape, dtype, mode)
    c = numpy.full(box, 7, NUMPY_TYPE[dtype])
    r = numpy.full(box, 7, NUMPY_TYPE[dtype])
    compiled(a, c, r)
    width = TMA.BYTES[dtype]
    flat, want_r = TMA.swizzle_model(as_bytes(a).reshape(shape[:-1] + (shape[-1] * width,)),
                                     box, coords, dtype, mode)
    assert numpy.array_equal(as_bytes(c).reshape(-1), flat)
    assert numpy.array_equal(as_bytes(r).reshape(-1), want_r)
    assert not numpy.array_equal(want_r, flat)


SYNC = helpers.load_gpu_script("sync/run.py")


def sync_suite():
    """test/gpu/sync/gen.py's cases and modules, generated into a temporary
    folder: ({case name: case}, {case name: module text}, phases)."""
    import json
    import subprocess
    import sys
    import tempfile
    with tempfile.TemporaryDirectory(prefix="tirx-sync-") as out:
        subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "..", "gpu",
                                                     "sync", "gen.py"), out],
                       check=True, stdout=subprocess.DEVNULL)
        spec = json.load(open(os.path.join(out, "cases.json")))
        modules = {case["name"]: open(os.path.join(out, case["name"].replace("_", "-") +
                                                   ".mlir")).read()
                   for case in spec["cases"]}
    return {case["name"]: case for case in spec["cases"]}, modules, spec["phases"]


SYNC_CASES, SYNC_MODULES, SYNC_PHASES = sync_suite()


@pytest.mark.parametrize("name", sorted(SYNC_CASES))
@pytest.mark.parametrize("seed", SYNC.SEEDS)
def test_sync_suite(name, seed):
    """test/gpu/sync's programs on the interpreter (mbarrier phases with
    their waits and single tries across warps, elect.sync, setmaxnreg
    between warpgroups with wgmma and bulk-group fences), against what that
    suite's run.py requires of the GPU: its expected words (the election:
    one lane per warp, the same in every lane's d)."""
    case = SYNC_CASES[name]
    rng = numpy.random.default_rng(seed)
    inputs = rng.integers(0, 1 << 32, case["in_words"], dtype=numpy.uint64).astype(numpy.uint32)
    out = numpy.full(case["out_words"], SYNC.POISON, numpy.uint32)
    helpers.interpret_ir(SYNC_MODULES[name], name, [out, inputs], "sync.mlir")
    if name == "elect":
        assert SYNC.elect_ok(out) == ""
    else:
        assert numpy.array_equal(out, SYNC.expected(case, inputs, SYNC_PHASES))
