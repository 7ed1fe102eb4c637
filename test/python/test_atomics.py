"""Atomics and values loaded at run time from Python (docs/atomics.md,
docs/sizes.md "Dynamic scheduling"): atom/red through T.cuda.tile.apply and
TIRx's raw spellings (T.ptx.atom.global_.add.u32(...)), a register tile
element as an index (T.index(regs[0]), T.int32(regs[0])) in region offsets,
loop bounds and guards, T.DoWhile, the dynamically scheduled affine-ReLU
example, and each misuse as a located CompileError."""
import os
import re
import sys

import pytest

import helpers

import tirx
from tirx.script import tirx as T
from tirx.layout import S
from tirx.cuda.axis import laneid

SM90 = {"kind": "cuda", "arch": "sm_90"}
n = T.dynamic("n")


def raises(message):
    return pytest.raises(tirx.CompileError, match=re.escape(message))


def line_of(marker):
    return helpers.line_of(__file__, marker)


def test_atom_and_red_forms():
    @T.function
    def k(C: T.Tensor((2,), "uint32", align=8), D: T.Tensor((1,), "uint64", align=8)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        tx = T.cuda.thread_idx("x")
        old = T.alloc_local((1,), "uint32")
        wide = T.alloc_local((1,), "uint64")
        shared = T.alloc_shared((1,), "uint32", align=4)
        T.cuda.tile.apply(T.ptx["atom.global.add.u32"], old, C[0:1], T.uint32(1), scope="thread")
        T.cuda.tile.apply(T.ptx["atom.acq_rel.gpu.global.inc.u32"], old, C[1:2], T.int32(7),
                          scope="thread", pred=tx == 0)
        T.cuda.tile.apply(T.ptx["atom.global.add.u64"], wide, D[0:1], T.uint64(3),
                          scope="thread")
        T.cuda.tile.apply(T.ptx["atom.shared.max.u32"], old, shared[0:1], old,
                          scope="thread")
        # TIRx's raw spellings: a call is the per-thread instruction.
        T.ptx.atom.relaxed.cta.shared.exch.b32(old, shared[0:1], 5)
        T.ptx.atom.global_.cas.b32(old, C[0:1], 0, 1)
        T.ptx.red.release.gpu.global_.add.u32(C[0:1], old)
    ptx = tirx.compile(k, target=SM90).ptx
    assert re.search(r"\tatom\.global\.add\.u32 %r\d+, \[%rd\d+\], 0x00000001;", ptx)
    assert re.search(r"@%tirx_p atom\.acq_rel\.gpu\.global\.inc\.u32 %r\d+, \[%rd\d+\], "
                     r"0x00000007;", ptx)
    assert re.search(r"atom\.global\.add\.u64 %rd\d+, \[%rd\d+\], 0x0000000000000003;", ptx)
    assert re.search(r"atom\.shared\.max\.u32 %r\d+, \[%rd\d+\], %r\d+;", ptx)
    assert re.search(r"atom\.relaxed\.cta\.shared\.exch\.b32 %r\d+, \[%rd\d+\], 0x00000005;",
                     ptx)
    assert re.search(r"atom\.global\.cas\.b32 %r\d+, \[%rd\d+\], 0x00000000, 0x00000001;", ptx)
    assert re.search(r"red\.release\.gpu\.global\.add\.u32 \[%rd\d+\], %r\d+;", ptx)


def one_thread_kernel(body, dtype="uint32"):
    """A kernel of one warp over a one-element global tensor C of `dtype`,
    whose body is body(C)."""
    return kernel_of((1,), dtype, body)


def test_cuda_atomic_add():
    # TIRx's T.cuda.atomic_add(res_addr, value): the old value as a scalar.
    @T.function
    def k(A: T.Tensor((n,), "float32", align=4), C: T.Tensor((2,), "uint32", align=4),
          F: T.Tensor((1,), "float32", align=4)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=4, block=32))
        smem = T.alloc_shared((1,), "int32", align=4)
        old = T.cuda.atomic_add(C.ptr_to([1]), 1)
        T.cuda.atomic_add(smem.data, T.int32(2))
        T.cuda.atomic_add(F.data, 0.5)
        i = T.index(old)
        with T.If(i < n):
            with T.Then():
                T.cuda.atomic_add(A.ptr_to([i]), T.float32(1))
    ptx = tirx.compile(k, target=SM90).ptx
    assert re.search(r"atom\.global\.add\.u32 (%r\d+), \[%rd\d+\], 0x00000001;", ptx)
    assert re.search(r"atom\.shared\.add\.s32 %r\d+, \[%rd\d+\], 0x00000002;", ptx)
    assert re.search(r"atom\.global\.add\.f32 %r\d+, \[%rd\d+\], 0f3F000000;", ptx)
    assert re.search(r"atom\.global\.add\.f32 %r\d+, \[%rd\d+\], 0f3F800000;", ptx)

    with raises("T.cuda.atomic_add needs one element of a global or shared tensor, such as "
                "buf.ptr_to([i]), got "):
        tirx.compile(one_thread_kernel(lambda C: T.cuda.atomic_add(
            T.alloc_local((1,), "uint32"), 1)), target=SM90)
    with raises("T.cuda.atomic_add adds to one element, such as buf.ptr_to([i]), got a "
                "region of shape (2)"):
        tirx.compile(kernel_of((2,), "uint32", lambda C: T.cuda.atomic_add(C, 1)),
                     target=SM90)
    with raises("T.cuda.atomic_add adds uint32, int32, uint64, float32, float64 elements "
                "(atom.add), got int64"):
        tirx.compile(kernel_of((1,), "int64", lambda C: T.cuda.atomic_add(C, 1)),
                     target=SM90)


def kernel_of(shape, dtype, body):
    @T.function
    def k(C: T.Tensor(shape, dtype, align=8)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        body(C)
    return k


def test_atom_type_and_space_errors():
    def inc_s32(C):
        old = T.alloc_local((1,), "int32")
        T.cuda.tile.apply(T.ptx["atom.global.inc.s32"], old, C[0:1], T.int32(1),  # MARK-inc
                          scope="thread")
    with raises(line_of("MARK-inc") + "error: 'tile.apply' op 'atom.global.inc.s32': .inc "
                "takes .u32, got .s32"):
        tirx.compile(one_thread_kernel(inc_s32, "int32"), target=SM90)

    def red_acquire(C):
        T.ptx.red.acquire.gpu.global_.add.u32(C[0:1], 1)  # MARK-red
    with raises(line_of("MARK-red") + "error: 'tile.apply' op 'red.acquire.gpu.global.add.u32'"
                ": unknown modifier .acquire"):
        tirx.compile(one_thread_kernel(red_acquire), target=SM90)

    def shared_space(C):
        old = T.alloc_local((1,), "uint32")
        T.ptx.atom.shared.add.u32(old, C[0:1], 1)  # MARK-space
    with raises(line_of("MARK-space") + "error: 'tile.apply' op operand #1 (addr) of "
                "'atom.shared.add.u32'"):
        tirx.compile(one_thread_kernel(shared_space), target=SM90)


def loaded_index_kernel(guarded):
    @T.function
    def k(A: T.Tensor((n,), "float32", align=16), B: T.Tensor((n,), "float32", align=16),
          C: T.Tensor((1,), "uint32", align=4)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=4, block=128))
        tx = T.cuda.thread_idx("x")
        got = T.alloc_local((1,), "uint32")
        T.ptx.atom.global_.add.u32(got, C[0:1], 1)
        c = T.index(got[0])
        off = c * 512 + tx * 4
        r = T.alloc_local((4,), "float32")
        if guarded:
            with T.If(c * 512 + 512 <= n):
                with T.Then():
                    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, A[off:off + 4],
                                      scope="thread")
                    # A loop whose bounds come from the loaded value.
                    for j in T.serial(c * 512, c * 512 + 4):
                        T.cuda.tile.apply(T.ptx["st.global.b32"], B[j:j + 1], r[0:1],
                                          scope="thread")
        else:
            T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, A[off:off + 4],  # MARK-unguarded
                              scope="thread")
    return k


def test_loaded_index_guarded():
    compiled = tirx.compile(loaded_index_kernel(True), target=SM90)
    assert "tirx.slot_load" in compiled.mlir["input"]
    assert "arith.index_castui" in compiled.mlir["input"]
    assert re.search(r"atom\.global\.add\.u32 (%r\d+), .*\n(.|\n)*mul\.wide\.u32\s+%rd\d+, \1,",
                     compiled.ptx)
    assert compiled.ptx.count("ld.global.v4.b32") == 1
    assert ".local" not in compiled.ptx


def test_loaded_index_unguarded_is_refused():
    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(loaded_index_kernel(False), target=SM90)
    text = str(error.value)
    assert (line_of("MARK-unguarded") + "error: 'tile.apply' op operand #1 (addr) of "
            "'ld.global.v4.b32' may read index ") in text
    assert "with loaded value #0 = " in text
    assert "this value is loaded from memory and has no bounds of its own" in text


def test_int32_of_an_element_and_an_index():
    @T.function
    def k(C: T.Tensor((4,), "int32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        regs = T.alloc_local((4,), "int32")
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], regs, C[0:4], scope="thread")
        x = T.int32(regs[2])  # slot 2 of the thread's storage
        i = T.index(x)
        with T.If(i < 4):
            with T.Then():
                with T.If(i >= 0):
                    with T.Then():
                        T.cuda.tile.apply(T.ptx["st.global.b32"], C[i:i + 1], regs[0:1],
                                          scope="thread")
    ir = tirx.compile(k, target=SM90).mlir["input"]
    # Slot 2 of the thread's storage, through the region regs[2].
    assert re.search(r"tirx.slot_load %\d+\[2\] : !tirx.tensor<1xi32, local, #layout\d*> -> i32",
                     ir)
    assert re.search(r"arith.index_cast %\d+ : i32 to index", ir)


def test_element_misuses():
    def kernel(body):
        @T.function
        def k(C: T.Tensor((4,), "uint32", align=16)):
            T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
            body(C)
        return k

    with raises("T.index reads an element of a register tile (T.alloc_local), got a global "
                "tensor; load it into registers first (ld.global)"):
        tirx.compile(kernel(lambda C: T.index(C[0:1])), target=SM90)
    with raises("T.index reads one element, such as regs[i], got a tile of shape (4)"):
        tirx.compile(kernel(lambda C: T.index(T.alloc_local((4,), "uint32"))), target=SM90)
    with raises("T.uint32(...) of a tensor element: traced integers are signless; read it as "
                "T.int32(...) (same bits) or T.index(...) (an unsigned tile's value, "
                "zero-extended)"):
        tirx.compile(kernel(lambda C: T.uint32(T.alloc_local((1,), "uint32")[0])),
                     target=SM90)
    with raises("T.index needs a traced signless integer or a register tile element, got 1.5"):
        tirx.compile(kernel(lambda C: T.index(1.5)), target=SM90)
    with raises("T.float16 of a float16 element is not supported; convert it in registers "
                "(cvt) first"):
        tirx.compile(kernel(lambda C: T.float16(T.alloc_local((1,), "float16")[0])),
                     target=SM90)
    with raises("T.index: the element lives in one thread (its layout is over laneid); only a "
                "tile whose layout is on m alone has it in every thread"):
        tirx.compile(kernel(lambda C: T.index(T.alloc_local(
            (32,), "uint32", layout=S[32:1 @ laneid])[0])), target=SM90)


def test_do_while():
    @T.function
    def k(C: T.Tensor((1,), "uint32", align=4)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        got = T.alloc_local((1,), "uint32")
        with T.DoWhile() as loop:
            T.ptx.atom.global_.add.u32(got, C[0:1], 1)
            loop.repeat_if(T.index(got[0]) < 100)
    compiled = tirx.compile(k, target=SM90)
    assert "scf.while : () -> () {" in compiled.mlir["input"]
    assert re.search(r"scf.condition\(%\d+\)", compiled.mlir["input"])
    assert "atom.global.add.u32" in compiled.ptx


def test_do_while_misuses():
    kernel = one_thread_kernel

    def no_condition(C):
        with T.DoWhile():  # MARK-nocond
            T.ptx.red.global_.add.u32(C[0:1], 1)
    with raises(line_of("MARK-nocond") + "a T.DoWhile body needs loop.repeat_if(cond): the "
                "condition to run it again"):
        tirx.compile(kernel(no_condition), target=SM90)

    def twice(C):
        with T.DoWhile() as loop:
            tx = T.cuda.thread_idx("x")
            loop.repeat_if(tx < 3)
            loop.repeat_if(tx < 3)
    with raises("a T.DoWhile loop has one repeat_if(...)"):
        tirx.compile(kernel(twice), target=SM90)

    def nested(C):
        with T.DoWhile() as loop:
            tx = T.cuda.thread_idx("x")
            with T.If(tx < 3):
                with T.Then():
                    loop.repeat_if(tx < 2)
    with raises("loop.repeat_if(...) belongs directly in its T.DoWhile body (not inside a "
                "T.If or an inner loop)"):
        tirx.compile(kernel(nested), target=SM90)

    def not_bool(C):
        with T.DoWhile() as loop:
            loop.repeat_if(T.cuda.thread_idx("x"))
    with raises("repeat_if needs a traced comparison (an i1 value), got "):
        tirx.compile(kernel(not_bool), target=SM90)

    def entered_twice(C):
        loop = T.DoWhile()
        with loop:
            loop.repeat_if(T.cuda.thread_idx("x") < 3)
        with loop:
            pass
    with raises("a T.DoWhile() frame can be entered once"):
        tirx.compile(kernel(entered_twice), target=SM90)

    def early_return(C):
        with T.DoWhile() as loop:
            loop.repeat_if(T.cuda.thread_idx("x") < 3)
            return  # MARK-return
    with raises(line_of("MARK-return") + "`return` inside a T.If/T.Then/T.Else block"):
        tirx.compile(kernel(early_return), target=SM90)


def test_collective_under_a_loaded_condition_is_refused():
    # Every lane reads the same shared value after a barrier, but the
    # verifier cannot prove it: a warp collective there is refused.
    @T.function
    def k(C: T.Tensor((1,), "uint32", align=4)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        got = T.alloc_local((1,), "uint32")
        T.ptx.atom.global_.add.u32(got, C[0:1], 1)
        flag = T.alloc_local((32,), "bool", layout=S[32:1 @ laneid])
        with T.If(T.index(got[0]) < 3):
            with T.Then():
                T.cuda.tile.apply(T.ptx["vote.sync.all.pred"], flag, flag,  # MARK-vote
                                  T.int32(-1), scope="warp")
    with raises(line_of("MARK-vote") + "error: 'tile.apply' op 'vote.sync.all.pred' is a "
                "warp-collective instruction: it is inside a branch whose condition may "
                "differ between the lanes of a warp"):
        tirx.compile(k, target=SM90)


def test_dynamic_example():
    # examples/python/affine_relu_persistent.py's make_dynamic_kernel (the
    # GPU check runs it for n = 1 ... 2^31 + 5, twice per size, and checks
    # the counter is back at zero).
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples",
                                    "python"))
    from affine_relu_persistent import UNROLL, make_dynamic_kernel
    compiled = tirx.compile(make_dynamic_kernel(132), target=SM90)
    ptx = compiled.ptx
    assert [p.split()[-1] for p in re.findall(r"\.param [^\n,]*", ptx)] == [
        "affine_relu_dynamic_param_%d" % i for i in range(4)]
    # Thread 0 takes the next chunk: atom.inc with the wrap limit, predicated.
    assert re.search(r"@%tirx_p atom\.global\.inc\.u32 %r\d+, \[%rd\d+\], %r\d+;", ptx)
    assert ptx.count("atom.global.inc.u32") == 1
    assert re.search(r"@%tirx_p st\.shared\.u32 \[%rd\d+\], %r\d+;", ptx)
    assert ptx.count("bar.sync \t0;") == 2
    assert re.search(r"add\.u32 %r\d+, %r\d+, 0x00000420;", ptx)  # + grid (1056)
    assert ptx.count("ld.global.v4.b32") == 2 * UNROLL  # full chunk + tail vectors
    assert ptx.count("st.global.v4.b32") == 2 * UNROLL
    assert ".local" not in ptx
    assert compiled.spill_bytes == 0
    ir = compiled.mlir["input"]
    assert "scf.while" in ir and "arith.index_castui" in ir
    # One barrier per chunk: the body traced twice over two shared slots.
    one = tirx.compile(make_dynamic_kernel(132, barriers=1), target=SM90)
    assert one.ptx.count("atom.global.inc.u32") == 2
    assert one.ptx.count("bar.sync \t0;") == 2
    assert ".shared .align 4 .b8 affine_relu_dynamic_smem0[8];" in one.ptx
    slots = re.findall(r"@%tirx_p st\.shared\.u32 \[(%rd\d+)\], %r\d+;", one.ptx)
    assert len(slots) == 2 and slots[0] != slots[1]
    assert ".local" not in one.ptx and one.spill_bytes == 0


def test_dynamic_example_through_the_launcher(monkeypatch):
    # The counter is the third argument, an int32 tensor of one element; the
    # size comes from A (a recording runtime library stands in for the GPU:
    # test_launch.py).
    import test_launch
    from affine_relu_persistent import make_dynamic_kernel
    compiled = tirx.compile(make_dynamic_kernel(132), target=SM90)
    torch = test_launch.fake_torch_module()
    monkeypatch.setitem(sys.modules, "torch", torch)
    made, library = test_launch.launcher(monkeypatch, compiled.params, compiled.launch.grid,
                                         compiled.launch.block, compiled.size_vars)
    counter = torch.Tensor((1,), "int32", pointer=0x50000)
    made((torch.Tensor((4097,), pointer=0x20000), torch.Tensor((4097,), pointer=0x30000),
          counter))
    assert library.launches[-1]["args"] == [0x20000, 0x30000, 0x50000, 4097]
    assert library.launches[-1]["grid"] == (132 * 8, 1, 1)
    with pytest.raises(TypeError, match=re.escape("parameter 'counter' has element type "
                                                  "<f4, expected <i4 (int32)")):
        made((torch.Tensor((8,), pointer=0x20000), torch.Tensor((8,), pointer=0x30000),
              torch.Tensor((1,), "float32", pointer=0x50000)))

