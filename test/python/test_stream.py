"""tirx.stream (docs/library.md, "Streams"): steps() runs whole steps in a
loop kept on the GPU and the rest once, masked; ElementwiseMap's schedules
emit the named accesses (a vector per thread and unroll step, the tail
element by element) with the width taken from the load; DynamicChunks
takes its items from the counter (one atomic per step, one or two
barriers); counter_for keeps one zeroed counter per device; misuse is a
DSLError at the kernel's line."""
import re
import sys
import types

import pytest

import helpers

import tirx
from tirx.script import tirx as T
from tirx.stream import DynamicChunks, ElementwiseMap, counter_for, steps

TARGET = {"kind": "cuda", "arch": "sm_90"}


def count(ptx, spelling):
    return len(re.findall(r"\b%s " % re.escape(spelling), ptx))


def test_steps_loop_then_masked_rest():
    calls = []
    rows = T.dynamic("rows")

    @T.function
    def sums(A: T.Tensor((rows, 128), "float32", align=16),
             B: T.Tensor((128,), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        acc = T.alloc_local((32, 4), "float32", layout="S[(32, 4) : (1@laneid, 1)]")
        T.cuda.tile.apply(T.ptx["mov.b32"], acc.view(32, 4, 1), T.float32(0), scope="warp")

        def add(first, masked):
            calls.append((type(first).__name__, masked))
            row = T.alloc_local((32, 4), "float32", layout="S[(32, 4) : (1@laneid, 1)]")
            T.cuda.tile.apply(T.ptx["mov.b32"], row.view(32, 4, 1), T.float32(0), scope="warp")
            source = (A.masked if masked else A).sub[first, :].view(32, 4)
            T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], row, source, scope="warp")
            T.cuda.tile.apply(T.ptx["add.rn.f32"], acc.view(32, 4, 1), acc.view(32, 4, 1),
                              row.view(32, 4, 1), scope="warp")
        steps(rows, 1, add)
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B.view(32, 4), acc, scope="warp")
    ptx = tirx.compile(sums, target=TARGET).ptx
    # The loop's index, then the first row of the rest (rows // 1 * 1).
    assert calls == [("ScalarValue", False), ("GridExpr", True)]
    assert ptx.count('.pragma "nounroll"') == 1  # the loop kept on the GPU
    assert len(re.findall(r"@%tirx_p ld\.global\.v4\.b32 ", ptx)) == 1  # the rest, masked


def test_steps_over_a_traced_int():
    """A stop known while tracing: no empty loop, no empty rest."""
    for stop, want in ((10, [("ScalarValue", False), ("int", True)]),
                       (8, [("ScalarValue", False)]), (3, [("int", True)])):
        calls = []

        @T.function
        def kernel(A: T.Tensor((16,), "float32")):
            T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
            steps(stop, 4, lambda first, masked: calls.append((type(first).__name__, masked)))
        tirx.compile(kernel, target=TARGET)
        assert calls == want, stop


def relu(regs):
    scalars = regs.view(regs.shape[0], 1)
    T.cuda.tile.apply(T.ptx["max.f32"], scalars, scalars, T.float32(0), scope="thread")


def map_kernel(schedule, threads=128, unroll=2, load="ld.global.v4.b32",
               store="st.global.v4.b32", **options):
    n = T.dynamic("n")
    walk = ElementwiseMap(n, relu, threads, unroll, load, store,
                          loads_first=options.pop("loads_first", False))
    grid = 8 if schedule != "one_pass" else T.ceildiv(n, walk.chunk)

    @T.function
    def walk_kernel(A: T.Tensor((n,), "float32", align=16),
                    B: T.Tensor((n,), "float32", align=16),
                    counter: T.Tensor((1,), "int32", align=4)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=grid, block=threads))
        if schedule == "persistent":
            walk.persistent(A, B, 8)
        elif schedule == "one_pass":
            walk.one_pass(A, B)
        elif schedule == "pipelined":
            walk.pipelined(A, B, 8)
        else:
            walk.dynamic(A, B, counter, 8, **options)
    return walk, walk_kernel


@pytest.mark.parametrize("schedule, vectors", [
    # A full chunk's unroll vectors, then the partial chunk's (each
    # vector_or_tail: a vector, or the tail element by element).
    ("persistent", 2 + 2), ("one_pass", 2),
    # The first chunk, the next full chunk, and the partial chunk's.
    ("pipelined", 2 + 2 + 2)])
def test_schedules_emit_the_named_accesses(schedule, vectors):
    walk, kernel = map_kernel(schedule)
    assert (walk.vector, walk.chunk) == (4, 128 * 4 * 2)
    ptx = tirx.compile(kernel, target=TARGET).ptx
    assert count(ptx, "ld.global.v4.b32") == vectors
    # The tail loop of each of the partial chunk's two vectors.
    assert count(ptx, "ld.global.b32") == count(ptx, "st.global.b32") == 2
    assert count(ptx, "max.f32") == 4 * count(ptx, "st.global.v4.b32") + count(
        ptx, "st.global.b32")


def test_loads_first_and_vector_width():
    _, kernel = map_kernel("persistent", loads_first=True)
    ptx = tirx.compile(kernel, target=TARGET).ptx
    accesses = re.findall(r"\b(ld|st)\.global\.v4\.b32 ", ptx)
    assert accesses[:4] == ["ld", "ld", "st", "st"]  # both loads before the first store
    walk, kernel = map_kernel("persistent", load="ld.global.v2.b32", store="st.global.v2.b32")
    assert (walk.vector, walk.chunk) == (2, 128 * 2 * 2)
    assert count(tirx.compile(kernel, target=TARGET).ptx, "ld.global.v2.b32") == 4


@pytest.mark.parametrize("barriers, grabs", [(2, 1), (1, 2)])
def test_dynamic_chunks(barriers, grabs):
    _, kernel = map_kernel("dynamic", barriers=barriers)
    ptx = tirx.compile(kernel, target=TARGET).ptx
    assert count(ptx, "atom.global.inc.u32") == grabs  # thread 0's grab per step
    assert ptx.count("bar.sync") + ptx.count("barrier.sync") == 2
    assert count(ptx, "ld.global.v4.b32") == 4 * grabs  # a chunk per step


def misuse_kernel(case):
    n = T.dynamic("n")

    @T.function
    def misuse(A: T.Tensor((n,), "float32", align=16),
               B: T.Tensor((n,), "float32", align=16),
               counter: T.Tensor((1,), "float32", align=4)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=8, block=128))
        if case == "load":
            ElementwiseMap(n, relu, 128, load="ld.shared.v4.b32")  # MARK-load
        elif case == "threads":
            ElementwiseMap(n, relu, 0)  # MARK-threads
        elif case == "body":
            ElementwiseMap(n, None, 128)  # MARK-body
        elif case == "counter":
            DynamicChunks(counter, T.ceildiv(n, 512), 8)  # MARK-counter
        elif case == "barriers":
            DynamicChunks(counter, T.ceildiv(n, 512), 8, barriers=3)  # MARK-barriers
        elif case == "step":
            steps(n, 0, lambda first, masked: None)  # MARK-step
    return misuse


@pytest.mark.parametrize("case, marker, message", [
    ("load", "MARK-load", "ElementwiseMap: load must be a global load of 32-bit elements, "
                          "got 'ld.shared.v4.b32'"),
    ("threads", "MARK-threads", "ElementwiseMap: threads must be a positive int, got 0"),
    ("body", "MARK-body", "ElementwiseMap: body must be a function of a register tile, "
                          "got None"),
    ("counter", "MARK-counter", "DynamicChunks: the counter must be a global (1,) int32 tensor"),
    ("barriers", "MARK-barriers", "DynamicChunks: barriers is 1 or 2, got 3"),
    ("step", "MARK-step", "steps: step must be a positive int, got 0"),
])
def test_misuse_is_located(case, marker, message):
    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(misuse_kernel(case), target=TARGET)
    assert helpers.line_of(__file__, marker).rstrip(": ") + ":" in str(error.value)
    assert message in str(error.value)


def test_counter_for_keeps_one_zeroed_counter_per_device(monkeypatch):
    made = []

    class Device:
        def __init__(self, kind, index=None):
            if isinstance(kind, Device):
                kind, index = kind.type, kind.index
            elif ":" in kind:
                kind, index = kind.split(":")[0], int(kind.split(":")[1])
            self.type, self.index = kind, index

        def __eq__(self, other):
            return (self.type, self.index) == (other.type, other.index)

        def __hash__(self):
            return hash((self.type, self.index))

    def zeros(size, dtype, device):
        made.append((size, dtype, device.index))
        return object()
    fake = types.SimpleNamespace(device=Device, zeros=zeros, int32="int32",
                                 cuda=types.SimpleNamespace(current_device=lambda: 1))
    monkeypatch.setitem(sys.modules, "torch", fake)
    monkeypatch.setattr("tirx.stream._COUNTERS", {})
    first = counter_for("cuda")
    assert counter_for("cuda:1") is first and counter_for(Device("cuda", 1)) is first
    assert counter_for("cuda:0") is not first
    assert made == [(1, "int32", 1), (1, "int32", 0)]
