"""Loops and branches in a kernel: T.serial (a loop kept down to PTX),
T.unroll (unrolled while tracing), T.If/T.Then/T.Else (an scf.if), loop and
block/thread indices in regions, arithmetic and predicates; and every misuse
with its message at the user's line."""
import re

import pytest

import helpers

import tirx
from tirx.script import tirx as T
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, warpid

TARGET = {"kind": "cuda", "arch": "sm_90"}
HERE = "test_control.py"
ROW = TileLayout(S[(8, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])  # 1024 floats, 256 threads
SMALL = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])  # 256 floats, 64 threads


def raises(message):
    """pytest.raises(CompileError) expecting `message` verbatim."""
    return pytest.raises(tirx.CompileError, match=re.escape(message))


def line_of(marker):
    """'test_control.py:N: ' for the line of this file holding `marker`."""
    return helpers.line_of(__file__, marker)


def compile_kernel(kernel):
    return tirx.compile(kernel, target=TARGET)


def kernel_ir(compiled):
    return compiled.source_ir


def small_kernel(body):
    """A 64-thread kernel over A, B: (8, 2, 32, 4) f32 calling body(A, B, regs)."""
    @T.function
    def k(A: T.Tensor((8, 2, 32, 4), "float32", align=16),
          B: T.Tensor((8, 2, 32, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=2, block=64))
        regs = T.alloc_local((2, 32, 4), "float32", layout=SMALL)
        body(A, B, regs)
    return k


def copy_row(A, B, regs, i, j=None):
    j = i if j is None else j
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], regs, A.sub[i, :, :, :], scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B.sub[j, :, :, :], regs, scope="cta")


def ptx_loops(ptx):
    """The number of backward branches' targets: labels that a `bra` jumps
    back to (a loop), and whether the PTX has local memory."""
    return len(re.findall(r"\bbra(?:\.uni)?\s", ptx)), ".local" in ptx


#===------------------------------------------------------------------------===#
# T.serial
#===------------------------------------------------------------------------===#

def test_serial_is_a_loop_in_ir_and_ptx():
    def body(A, B, regs):
        for i in T.serial(8):
            copy_row(A, B, regs, i)
    compiled = compile_kernel(small_kernel(body))
    ir = kernel_ir(compiled)
    assert re.search(r"%(c\d+) = arith.constant 0 : index", ir)
    assert re.search(r"scf.for %i\d+ = %c\d+ to %c\d+ step %c\d+ \{", ir)
    assert "{loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}" in ir
    assert ir.count("tirx.region %A[%i") == 1
    # One load and one store in the PTX, in a loop the backend did not unroll.
    assert compiled.ptx.count("ld.global.v4.b32") == 1
    assert compiled.ptx.count("st.global.v4.b32") == 1
    assert '.pragma "nounroll";' in compiled.ptx
    branches, local = ptx_loops(compiled.ptx)
    assert branches >= 1 and not local


def test_serial_bounds_forms():
    seen = []

    def body(A, B, regs):
        for i in T.serial(1, 7, 2):
            copy_row(A, B, regs, i)
        for i in T.serial(2, 8, step=3):
            copy_row(A, B, regs, i)
        for i in T.serial(3, 5):
            copy_row(A, B, regs, i)
        seen.append(True)
    ir = kernel_ir(compile_kernel(small_kernel(body)))
    constants = re.findall(r"arith.constant (\d+) : index", ir)
    assert constants[:9] == ["1", "7", "2", "2", "8", "3", "3", "5", "1"]
    assert ir.count("scf.for") == 3 and seen


def test_serial_nested_with_unroll_inside():
    def body(A, B, regs):
        for i in T.serial(0, 8, 4):
            for j in T.serial(2):
                for k in T.unroll(2):
                    copy_row(A, B, regs, i + j * 2 + k)
    compiled = compile_kernel(small_kernel(body))
    ir = kernel_ir(compiled)
    assert ir.count("scf.for") == 2
    assert ir.count("tile.apply \"ld.global.v4.b32\"") == 2
    assert compiled.ptx.count('.pragma "nounroll";') == 2
    assert compiled.ptx.count("ld.global.v4.b32") == 2
    assert not ptx_loops(compiled.ptx)[1]


def test_loop_carried_register_tile_stays_in_registers():
    @T.function
    def colsum(A: T.Tensor((64, 1024), "float32", align=16),
               B: T.Tensor((1024,), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
        acc = T.alloc_local((8, 32, 4), "float32", layout=ROW)
        sums = acc.view(8, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["mov.b32"], sums, T.float32(0), scope="cta")
        for i in T.serial(64):
            row = T.alloc_local((8, 32, 4), "float32", layout=ROW)
            T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], row, A.sub[i, :].view(8, 32, 4),
                              scope="cta")
            T.cuda.tile.apply(T.ptx["add.rn.f32"], sums, sums, row.view(8, 32, 4, 1),
                              scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B.view(8, 32, 4), acc, scope="cta")
    ptx = compile_kernel(colsum).ptx
    assert ptx.count("add.rn.f32") == 4 and ptx.count("ld.global.v4.b32") == 1
    assert ".local" not in ptx and '.pragma "nounroll";' in ptx


#===------------------------------------------------------------------------===#
# T.unroll
#===------------------------------------------------------------------------===#

def test_unroll_traces_each_iteration():
    indices = []

    def body(A, B, regs):
        for i in T.unroll(3):
            indices.append(i)
            copy_row(A, B, regs, i)
        for i in T.unroll(4, 8, 2):
            indices.append(i)
            copy_row(A, B, regs, i, i + 1)
        for i in T.unroll(1, 3, step=1):
            indices.append(i)
    compiled = compile_kernel(small_kernel(body))
    assert indices == [0, 1, 2, 4, 6, 1, 2]
    ir = kernel_ir(compiled)
    assert "scf.for" not in ir
    assert "tirx.region %A[4, 0, 0, 0]" in ir and "tirx.region %B[7, 0, 0, 0]" in ir
    assert compiled.ptx.count("ld.global.v4.b32") == 5
    assert ptx_loops(compiled.ptx) == (0, False)


#===------------------------------------------------------------------------===#
# Indices in regions, arithmetic and predicates
#===------------------------------------------------------------------------===#

def test_indices_in_regions_arithmetic_and_predicates():
    def body(A, B, regs):
        bx = T.cuda.block_idx("x")
        tx = T.cuda.thread_idx("x")
        for i in T.serial(2):
            # A traced slice: offset bx*4 + i*2, static size 2.
            tile = A[bx * 4 + i * 2:bx * 4 + (i + 1) * 2, :, :, :]
            # A tile allocated in the loop body (unused; a default layout
            # keeps all its elements in each thread, so it stays small to
            # fit the register budget of docs/registers.md).
            first = T.alloc_local((2, 4), "float32")
            assert tile.shape == (2, 2, 32, 4)
            T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], regs, tile.sub[1, :, :, :],
                              scope="cta", pred=(tx < 40) == (i != 1))
            T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B.sub[(i + bx) % 8, :, :, :], regs,
                              scope="cta", pred=i * 3 - 1 >= bx)
            del first
    compiled = compile_kernel(small_kernel(body))
    ir = kernel_ir(compiled)
    assert re.search(r"tirx.region %A\[%s\d+, 0, 0, 0\] \[2, 2, 32, 4\]", ir)
    assert re.search(r"arith.cmpi eq, %cmp\d+, %cmp\d+ : i1", ir)
    assert re.search(r"arith.cmpi ne, %i\d+, %c\d+ : index", ir)
    assert re.search(r"arith.remsi %s\d+, %c\d+ : index", ir)
    assert not ptx_loops(compiled.ptx)[1]


def test_index_arithmetic_is_signed():
    # An index is a signed 64-bit value: for i = 0, i - 1 >= 0 is false.
    def body(A, B, regs):
        for i in T.serial(4):
            copy_row(A, B, regs, i)
            T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B.sub[(i - 1) // 2, :, :, :], regs,
                              scope="cta", pred=i - 1 >= 0)
    compiled = compile_kernel(small_kernel(body))
    ir = kernel_ir(compiled)
    assert re.search(r"arith.cmpi sge, %s\d+, %c\d+ : index", ir)
    assert re.search(r"arith.divsi %s\d+, %c\d+ : index", ir)
    assert not ptx_loops(compiled.ptx)[1]


def test_traced_slice_sizes():
    def slice_of(make):
        def body(A, B, regs):
            for i in T.serial(2):
                assert make(A, i).shape[0] == 2
        return body
    for make in [lambda A, i: A[i * 2:i * 2 + 2],
                 lambda A, i: A[2 * i + 1:3 + i * 2],
                 lambda A, i: A[i - 1 + 1:i + 2],
                 lambda A, i: A[(i + 1) * 2 - 2:(i + 1) * 2]]:
        compile_kernel(small_kernel(slice_of(make)))
    message = ("a slice with a traced bound needs a static size: stop - start must be a "
               "constant, as in A[i*4:(i+1)*4]")
    for make in [lambda A, i: A[i:i * 2], lambda A, i: A[i:(i + 1) % 4],
                 lambda A, i: A[i * i:i * i + 1]]:
        with raises(message):
            compile_kernel(small_kernel(slice_of(make)))


#===------------------------------------------------------------------------===#
# T.If / T.Then / T.Else
#===------------------------------------------------------------------------===#

def test_if_then_else():
    def body(A, B, regs):
        tx = T.cuda.thread_idx("x")
        with T.If(tx < 32):
            with T.Then():
                copy_row(A, B, regs, 0)
            with T.Else():
                copy_row(A, B, regs, 1)
        for i in T.serial(4):
            with T.If(i % 2 == 0):
                with T.Then():
                    copy_row(A, B, regs, i)
    compiled = compile_kernel(small_kernel(body))
    ir = kernel_ir(compiled)
    assert re.search(r"\n    scf.if %cmp\d+ \{\n(      .*\n){6}    \} else \{\n(      .*\n){6}"
                     r"    \} loc\(", ir)
    assert ir.count("scf.if") == 2 and ir.count("} else {") == 1
    assert compiled.ptx.count("ld.global.v4.b32") == 3
    assert not ptx_loops(compiled.ptx)[1]


def test_cta_sync_in_thread_divergent_if_is_refused_with_a_witness():
    # The first warp only: thread 32 never arrives (docs/barriers.md).
    def first_warp(A, B, regs):
        tx = T.cuda.thread_idx("x")
        with T.If(tx < 32):  # MARK-divergent-if
            with T.Then():
                copy_row(A, B, regs, 0)
                T.cuda.cta_sync()  # MARK-divergent-sync
    with raises(line_of("MARK-divergent-sync") + "error: tirx.cta_sync is reached by only part of "
                "the CTA's threads: the condition around it depends on the thread index, and "
                "thread 0 (warp 0, lane 0) enters it while thread 32 (warp 1, lane 0) does "
                "not; a barrier of every thread must be reached by every thread (hoist it "
                "out, or guard only the work around it)") as refused:
        compile_kernel(small_kernel(first_warp))
    assert (line_of("MARK-divergent-if") + "note: the condition that depends on the thread"
            in str(refused.value))

    # The same with the barrier hoisted out of the branch is accepted, and so
    # is one under a condition every thread decides alike.
    def hoisted(A, B, regs):
        tx = T.cuda.thread_idx("x")
        with T.If(tx < 32):
            with T.Then():
                copy_row(A, B, regs, 0)
        T.cuda.cta_sync()
        with T.If(tx < 64):
            with T.Then():
                T.cuda.cta_sync()
    compiled = compile_kernel(small_kernel(hoisted))
    assert compiled.ptx.count("bar.sync") == 2


def test_cta_sync_under_a_size_condition_warns_at_its_line():
    n = T.dynamic("n")

    @T.function
    def k(A: T.Tensor((n,), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        with T.If(T.cuda.thread_idx("x") < n):
            with T.Then():
                T.cuda.cta_sync()  # MARK-size-sync
    with pytest.warns(tirx.ProofWarning,
                      match=re.escape("tirx.cta_sync may be reached by only part of the CTA's "
                                      "threads: the condition around it depends on the thread "
                                      "index together with values that are not constants"
                                      )) as record:
        compile_kernel(k)
    assert [(w.filename.endswith(HERE), w.lineno) for w in record] == [
        (True, int(line_of("MARK-size-sync").split(":")[1]))]


#===------------------------------------------------------------------------===#
# Misuse: each message, at the user's line
#===------------------------------------------------------------------------===#

def test_python_if_on_traced_value():
    def body(A, B, regs):
        if T.cuda.thread_idx("x") < 32:  # MARK-if
            copy_row(A, B, regs, 0)
    with raises(line_of("MARK-if") + "a Python `if` on a traced value cannot be decided "
                "while tracing; branch with `with T.If(cond):` and `with T.Then():` / "
                "`with T.Else():` blocks (or T.if_then_else for a value, pred= for one "
                "instruction)"):
        compile_kernel(small_kernel(body))

    def equal(A, B, regs):
        for i in T.serial(4):
            if i == 0:  # MARK-eq
                copy_row(A, B, regs, 0)
    with raises(line_of("MARK-eq") + "a Python `if` on a traced value"):
        compile_kernel(small_kernel(equal))

    def elif_(A, B, regs):
        if False:
            pass
        elif T.cuda.block_idx("x") != 0:  # MARK-elif
            copy_row(A, B, regs, 0)
    with raises(line_of("MARK-elif") + "a Python `if` on a traced value"):
        compile_kernel(small_kernel(elif_))


def test_python_while_and_truth_value():
    def body(A, B, regs):
        i = T.cuda.thread_idx("x")
        while i < 4:  # MARK-while
            i = i + 1
    with raises(line_of("MARK-while") + "a Python `while` on a traced value cannot be "
                "decided while tracing; loop with `for i in T.serial(start, stop, step)`, "
                "or `with T.DoWhile() as loop:` ... `loop.repeat_if(cond)` when the trip "
                "count is decided while the loop runs"):
        compile_kernel(small_kernel(body))

    message = ("a traced value has no Python truth value (bool(), and, or, not); branch "
               "with `with T.If(cond):` and `with T.Then():` / `with T.Else():` blocks, "
               "or use T.if_then_else for a value")
    for use in [lambda t: bool(t < 3), lambda t: (t < 3) and (t > 1), lambda t: not t]:
        def truth(A, B, regs, use=use):
            use(T.cuda.thread_idx("x"))
        with raises("%s:%d: %s" % (HERE, use.__code__.co_firstlineno, message)):
            compile_kernel(small_kernel(truth))


def test_python_range_of_traced_value():
    def body(A, B, regs):
        for i in range(T.cuda.block_idx("x")):  # MARK-range
            copy_row(A, B, regs, i)
    with raises(line_of("MARK-range") + "a traced value is not a Python int (range(), "
                "indexing a list); loop over a traced count with `for i in T.serial(...)`"):
        compile_kernel(small_kernel(body))


def test_unroll_of_traced_count():
    def body(A, B, regs):
        for i in T.unroll(T.cuda.block_idx("x")):  # MARK-unroll
            copy_row(A, B, regs, i)
    with raises(line_of("MARK-unroll") + "T.unroll needs static int bounds, got a traced "
                "value as its stop; use T.serial for a loop kept on the GPU"):
        compile_kernel(small_kernel(body))


def test_serial_bound_errors():
    cases = [
        (lambda: T.unroll(T.cuda.block_idx("x"), 8), "T.unroll needs static int bounds, got "
         "a traced value as its start; use T.serial for a loop kept on the GPU"),
        (lambda: T.serial(0, 8, T.cuda.thread_idx("x")), "T.serial needs static int bounds, "
         "got a traced value as its step; a runtime step is not supported"),
        (lambda: T.serial(2.5), "T.serial needs int bounds, got 2.5 as its stop"),
        (lambda: T.unroll(0, "4"), "T.unroll needs int bounds, got '4' as its stop"),
        (lambda: T.serial(1 << 63), "T.serial: stop 9223372036854775808 is out of range"),
        (lambda: T.serial(0, 8, 0), "T.serial needs a positive step, got 0"),
        (lambda: T.unroll(8, 0, -1), "T.unroll needs a positive step, got -1"),
        (lambda: T.serial(8, annotations={}), "T.serial options not supported yet: "
         "annotations"),
        (lambda: T.unroll(8, unroll=True, dtype="int32"), "T.unroll options not supported "
         "yet: dtype, unroll"),
    ]
    for make, message in cases:
        def body(A, B, regs, make=make):
            make()
        with raises("%s:%d: %s" % (HERE, make.__code__.co_firstlineno, message)):
            compile_kernel(small_kernel(body))


def test_serial_iterated_twice_and_left_early():
    def twice(A, B, regs):
        loop = T.serial(4)
        for i in loop:
            copy_row(A, B, regs, i)
        for i in loop:  # MARK-twice
            pass
    with raises(line_of("MARK-twice") + "a T.serial(...) loop can be iterated once"):
        compile_kernel(small_kernel(twice))

    message = ("the T.serial loop was left early (break or return), but it runs every "
               "iteration on the GPU; guard the body with T.If or pred= instead")

    def broken(A, B, regs):
        for i in T.serial(4):  # MARK-break
            copy_row(A, B, regs, i)
            break
        copy_row(A, B, regs, 0)
    with raises(line_of("MARK-break") + message):
        compile_kernel(small_kernel(broken))

    def returned(A, B, regs):
        for i in T.serial(4):  # MARK-return
            return
    with raises(line_of("MARK-return") + message):
        compile_kernel(small_kernel(returned))

    def inner_break(A, B, regs):
        for i in T.serial(4):
            with T.If(i < 2):
                with T.Then():
                    for j in T.serial(2):  # MARK-inner
                        break
    with raises(line_of("MARK-inner") + message):
        compile_kernel(small_kernel(inner_break))


def test_value_used_after_its_block():
    def after_loop(A, B, regs):
        for i in T.serial(4):  # MARK-loop-scope
            last = i
        A.sub[last, :, :, :]  # MARK-use-after
    with raises(line_of("MARK-use-after") + "a value traced inside the T.serial loop at line "
                "%s is used after it ended; compute or allocate it before"
                % line_of("MARK-loop-scope").split(":")[1]):
        compile_kernel(small_kernel(after_loop))

    def then_to_else(A, B, regs):
        with T.If(T.cuda.thread_idx("x") < 3):
            with T.Then():  # MARK-then-scope
                tile = T.alloc_local((2, 32, 4), "float32", layout=SMALL)
            with T.Else():
                T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], tile, A.sub[0, :, :, :],  # MARK-else-use
                                  scope="cta")
    with raises(line_of("MARK-else-use") + "a value traced inside the T.Then block at line "
                "%s is used after it ended" % line_of("MARK-then-scope").split(":")[1]):
        compile_kernel(small_kernel(then_to_else))


def test_if_frame_errors():
    tx = lambda: T.cuda.thread_idx("x")
    cases = []

    def not_a_comparison(A, B, regs):
        with T.If(True):  # MARK-frame
            pass
    cases.append((not_a_comparison, "T.If needs a traced comparison (an i1 value) as its "
                  "condition, got True; decide a Python value with a plain `if`"))

    def index_condition(A, B, regs):
        with T.If(tx()):  # MARK-frame
            pass
    cases.append((index_condition, "T.If needs a traced comparison (an i1 value) as its "
                  "condition, got <"))

    def statement_outside_branch(A, B, regs):
        with T.If(tx() < 3):
            T.cuda.cta_sync()  # MARK-frame
    cases.append((statement_outside_branch, "inside `with T.If(...)`, statements go in a "
                  "`with T.Then():` or `with T.Else():` block"))

    def no_then(A, B, regs):
        with T.If(tx() < 3):  # MARK-frame
            pass
    cases.append((no_then, "`with T.If(...)` needs a `with T.Then():` block inside it"))

    def then_outside(A, B, regs):
        with T.Then():  # MARK-frame
            pass
    cases.append((then_outside, "`with T.Then():` must be directly inside `with T.If(...)`"))

    def else_nested_in_then(A, B, regs):
        with T.If(tx() < 3):
            with T.Then():
                with T.Else():  # MARK-frame
                    pass
    cases.append((else_nested_in_then, "`with T.Else():` must be directly inside "
                  "`with T.If(...)`"))

    def else_first(A, B, regs):
        with T.If(tx() < 3):
            with T.Else():  # MARK-frame
                pass
    cases.append((else_first, "`with T.Else():` must follow the `with T.Then():` block of "
                  "its T.If, once"))

    def two_elses(A, B, regs):
        with T.If(tx() < 3):
            with T.Then():
                pass
            with T.Else():
                pass
            with T.Else():  # MARK-frame
                pass
    cases.append((two_elses, "`with T.Else():` must follow the `with T.Then():` block of "
                  "its T.If, once"))

    def two_thens(A, B, regs):
        with T.If(tx() < 3):
            with T.Then():
                pass
            with T.Then():  # MARK-frame
                pass
    cases.append((two_thens, "a T.If has one `with T.Then():` block, before its "
                  "`with T.Else():`"))

    def entered_twice(A, B, regs):
        frame = T.If(tx() < 3)
        with frame:
            with T.Then():
                pass
        with frame:  # MARK-frame
            pass
    cases.append((entered_twice, "a T.If(...) frame can be entered once"))

    for body, message in cases:
        marker = [number for number, text in enumerate(open(__file__), 1)
                  if "MARK-frame" in text and "def " not in text]
        with pytest.raises(tirx.CompileError) as info:
            compile_kernel(small_kernel(body))
        text = str(info.value)
        assert message in text, (message, text)
        line = re.search(r"%s:(\d+): " % HERE, text)
        assert line and int(line.group(1)) in marker, (message, text)


def test_scalar_function_keeps_its_message():
    # In a scalar function (one value per element) the branch is T.if_then_else.
    @T.function(private=True)
    def f(x: T.float32) -> T.float32:
        if x > T.float32(0):  # MARK-scalar
            return x
        return -x

    @T.function
    def k(A: T.Tensor((2, 32, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        regs = T.alloc_local((2, 32, 4, 1), "float32", layout=SMALL)
        T.cuda.tile.ewise(f, regs, regs, scope="cta")
    with raises(line_of("MARK-scalar") + "a traced value has no Python truth value; use "
                "T.if_then_else"):
        compile_kernel(k)


def test_outside_a_kernel():
    with raises("this must be called inside a @T.function being compiled"):
        T.serial(4)
    with raises("this must be called inside a @T.function being compiled"):
        T.If(None)


def test_typed_slice_bound():
    @T.function
    def k(A: T.Tensor((8, 2, 32, 4), "float32", align=16), n: T.int32):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        A[n:n + 1]  # MARK-typed
    with raises(line_of("MARK-typed") + "a slice bound must be an int or an index value, "
                "got a value of type int32"):
        compile_kernel(k)


def test_column_sums_example():
    # examples/python/column_sums.py (the GPU check runs it bit for bit).
    from column_sums import column_sums
    ptx = compile_kernel(column_sums).ptx
    loop = ptx[ptx.index('.pragma "nounroll";'):]
    loop = loop[:loop.index("bra")]
    assert ptx.count('.pragma "nounroll";') == 1
    assert loop.count("ld.global.v4.b32") == 4 and loop.count("add.rn.f32") == 16
    # The four loads come before the first add (they are in flight together).
    assert loop.rindex("ld.global.v4.b32") < loop.index("add.rn.f32")
    assert ".local" not in ptx
    # The last rows % 4 rows: one group of masked loads after the loop,
    # into registers holding -0.0 (adding nothing, bit for bit).
    tail = ptx[ptx.index("bra"):]
    assert tail.count("@%tirx_p ld.global.v4.b32") == 4
    assert "0x80000000" in tail


def test_sequential_reference():
    import numpy
    from column_sums import sequential_column_sums
    a = numpy.array([[1e8, 1.0], [1.0, 2.0], [-1e8, 3.0]], dtype=numpy.float32)
    # Row order matters: (1e8 + 1) - 1e8 is 0 in float32.
    assert sequential_column_sums(a).tolist() == [0.0, 6.0]


def test_not_in_a_scalar_function():
    @T.function(private=True)
    def looped(x: T.float32) -> T.float32:
        for i in T.serial(2):  # MARK-scalar-serial
            x = x + x
        return x

    @T.function(private=True)
    def branched(x: T.float32) -> T.float32:
        with T.If(x > T.float32(0)):  # MARK-scalar-if
            with T.Then():
                x = -x
        return x

    @T.function(private=True)
    def unrolled(x: T.float32) -> T.float32:
        for i in T.unroll(2):
            x = x + x
        return x

    def kernel(f):
        @T.function
        def k(A: T.Tensor((2, 32, 4), "float32", align=16)):
            T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
            regs = T.alloc_local((2, 32, 4, 1), "float32", layout=SMALL)
            T.cuda.tile.ewise(f, regs, regs, scope="cta")
        return k
    tail = (" is for kernels; a scalar function computes one value (use T.if_then_else, or "
            "a Python loop that unrolls)")
    with raises(line_of("MARK-scalar-serial") + "T.serial" + tail):
        compile_kernel(kernel(looped))
    with raises(line_of("MARK-scalar-if") + "T.If" + tail):
        compile_kernel(kernel(branched))
    assert compile_kernel(kernel(unrolled)).source_ir.count("arith.addf") == 2


def test_early_exit_from_a_branch():
    # A return, break or continue inside a traced branch would silently drop
    # the code after it for every thread: refused at its line, before tracing.
    def returns(A, B, regs):
        with T.If(T.cuda.thread_idx("x") < 16):
            with T.Then():
                return  # MARK-branch-return
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, regs, scope="cta")
    with raises(line_of("MARK-branch-return") + "`return` inside a T.If/T.Then/T.Else block cannot "
                "be traced: it would skip the rest of the function for every thread, not only "
                "where the condition holds; put that code in T.Else (or guard it with T.If)"):
        compile_kernel(small_kernel(returns))

    def continues(A, B, regs):
        for i in T.serial(4):
            with T.If(T.cuda.thread_idx("x") < i):
                with T.Else():
                    continue  # MARK-branch-continue
            T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, regs, scope="cta")
    with raises(line_of("MARK-branch-continue") + "`continue` inside a T.If/T.Then/T.Else block "
                "cannot be traced: it would skip the rest of the loop for every thread"):
        compile_kernel(small_kernel(continues))

    def breaks(A, B, regs):
        for i in T.unroll(2):
            with T.If(T.cuda.thread_idx("x") < i):
                with T.Then():
                    break  # MARK-branch-break
    with raises(line_of("MARK-branch-break") + "`break` inside a T.If/T.Then/T.Else block cannot "
                "be traced"):
        compile_kernel(small_kernel(breaks))

    # Loops inside the branch, and functions defined there, may exit freely.
    def fine(A, B, regs):
        with T.If(T.cuda.thread_idx("x") < 16):
            with T.Then():
                for u in T.unroll(4):
                    if u == 2:
                        break
                helper = lambda: 1  # noqa: E731
                def inner():
                    return helper()
                inner()
    compile_kernel(small_kernel(fine))


def test_early_exit_is_reported_every_time():
    def returns(A, B, regs):
        with T.If(T.cuda.thread_idx("x") < 16):
            with T.Then():
                return  # MARK-branch-return-again
    for _ in range(2):
        with raises(line_of("MARK-branch-return-again") + "`return` inside a T.If"):
            compile_kernel(small_kernel(returns))


def test_indices_and_sizes_as_numbers():
    """T.float32(index) / T.int32(index): a thread, block or loop index or a
    size as a number (signed, through i64: indices are never negative)."""
    n = T.dynamic("n")

    @T.function
    def k(A: T.Tensor((n,), "float32", align=4), B: T.Tensor((64, 1), "float32", align=4),
          C: T.Tensor((64, 1), "int32", align=4)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        tx = T.cuda.thread_idx("x")
        regs = T.alloc_local((1, 1), "float32")
        T.cuda.tile.apply(T.ptx["mov.b32"], regs, T.float32(n.value()), scope="thread")
        T.cuda.tile.apply(T.ptx["add.rn.f32"], regs, regs, T.float32(tx), scope="thread")
        T.cuda.tile.apply(T.ptx["st.global.b32"], B[tx:tx + 1, :], regs, scope="thread")
        ints = T.alloc_local((1, 1), "int32")
        T.cuda.tile.apply(T.ptx["mov.b32"], ints, T.int32(T.cuda.block_idx("x")),
                          scope="thread")
        T.cuda.tile.apply(T.ptx["st.global.b32"], C[tx:tx + 1, :], ints, scope="thread")
    compiled = compile_kernel(k)
    ir = kernel_ir(compiled)
    assert re.search(r"arith\.index_cast %\w+ : index to i64", ir)
    assert re.search(r"arith\.sitofp %\w+ : i64 to f32", ir)
    assert re.search(r"arith\.trunci %\w+ : i64 to i32", ir)
    assert re.search(r"cvt\.rn\.f32\.s64", compiled.ptx)


def test_kernel_beyond_the_race_proof_warns_or_with_strict_races_is_refused():
    # One mbarrier arrived on in every iteration of a loop is beyond the race
    # proof's model (docs/races.md: it models rings of mbarriers indexed by
    # a pipeline step): a ProofWarning at its line, or with strict_races an
    # error there.
    @T.function
    def k(A: T.Tensor((128,), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
        mbar = T.alloc_shared((1,), "uint64", align=8)
        tx = T.cuda.thread_idx("x")
        with T.If(tx == 0):
            with T.Then():
                T.ptx.mbarrier.init.shared.b64(mbar.ptr_to([0]), T.uint32(128))
        T.cuda.cta_sync()
        for i in T.serial(0, 4):
            T.ptx.mbarrier.arrive(mbar.ptr_to([0]))  # MARK-mbar
    message = ("the kernel's shared memory is not proven free of data races: "
               "'mbarrier.arrive.shared::cta.b64': it uses one mbarrier in every iteration "
               "of a loop: the race proof models rings of mbarriers whose index is "
               "`step % stages` of a pipeline step")
    with pytest.warns(tirx.ProofWarning, match=re.escape(message)) as record:
        tirx.compile(k, target={"kind": "cuda", "arch": "sm_90a"})
    assert [(w.filename.endswith(HERE), w.lineno) for w in record] == [
        (True, int(line_of("MARK-mbar").split(":")[1]))]
    with raises(line_of("MARK-mbar") + "error: " + message):
        tirx.compile(k, target={"kind": "cuda", "arch": "sm_90a", "strict_races": True})
    with pytest.raises(ValueError,
                       match=re.escape("target strict_races must be True or False, got 1")):
        tirx.compile(k, target={"kind": "cuda", "arch": "sm_90a", "strict_races": 1})
