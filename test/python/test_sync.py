"""Hopper synchronization from Python (docs/synchronization.md): TIRx's raw
spellings (T.ptx.mbarrier.init.shared.b64(bar.ptr_to([0]), T.uint32(1)),
T.ptx.fence.proxy.async_.shared__cta(), the T.ptx.mbarrier.init /
try_wait shorthands), the same forms through T.cuda.tile.apply, elect.sync,
setmaxnreg and wgmma's fences at sm_90a, the bulk async-groups, and each
misuse as a located CompileError."""
import re

import pytest

import helpers

import tirx
from tirx.script import tirx as T
from tirx.layout import S
from tirx.cuda.axis import laneid, warpid

SM90 = {"kind": "cuda", "arch": "sm_90"}
SM90A = {"kind": "cuda", "arch": "sm_90a"}


def raises(message):
    return pytest.raises(tirx.CompileError, match=re.escape(message))


def line_of(marker):
    return helpers.line_of(__file__, marker)


def test_tma_guide_spellings():
    # The TIRx TMA guide's barrier protocol: one thread initializes the
    # barrier and expects the bytes, everyone waits for phase 0.
    @T.function
    def k(A: T.Tensor((128,), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
        mbar = T.alloc_shared((1,), "uint64", align=8)
        tx = T.cuda.thread_idx("x")
        with T.If(tx == 0):
            with T.Then():
                T.ptx.mbarrier.init.shared.b64(mbar.ptr_to([0]), T.uint32(1))
                T.ptx.fence.proxy.async_.shared__cta()
                T.ptx.fence.mbarrier_init.release.cluster()
                T.ptx.mbarrier.arrive.expect_tx.shared.b64(mbar.ptr_to([0]), T.uint32(1024))
        T.cuda.cta_sync()
        T.ptx.mbarrier.try_wait(mbar.data, 0)
        T.ptx.mbarrier.try_wait.parity.acquire.cta.shared__cta.b64(mbar.data, 1)
        # One thread invalidates it, once no thread uses it any more (the
        # race proof refuses an inval by every thread: each would race with
        # the others' waits).
        T.cuda.cta_sync()
        with T.If(tx == 0):
            with T.Then():
                T.ptx.mbarrier.inval.shared__cta.b64(mbar.data)
    ptx = tirx.compile(k, target=SM90).ptx
    assert re.search(r"mbarrier\.init\.shared\.b64 \[%rd\d+\], 0x00000001;", ptx)
    assert "fence.proxy.async.shared::cta;" in ptx
    assert "fence.mbarrier_init.release.cluster;" in ptx
    assert re.search(r"mbarrier\.arrive\.expect_tx\.shared\.b64 _, \[%rd\d+\], 0x00000400;", ptx)
    loop = (r"\{\s*\.reg \.pred %%tirx_w;\s*tirx_retry:\s*mbarrier\.try_wait\.parity\.%s"
            r"shared::cta\.b64 %%tirx_w, \[%%rd\d+\], 0x0000000%d;\s*@!%%tirx_w bra tirx_retry;\s*\}")
    assert re.search(loop % ("", 0), ptx)
    assert re.search(loop % (r"acquire\.cta\.", 1), ptx)
    assert re.search(r"mbarrier\.inval\.shared::cta\.b64 \[%rd\d+\];", ptx)


def test_tirx_shorthands():
    @T.function
    def k(phase: T.int32):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        bar = T.alloc_shared((1,), "uint64", align=8)
        T.ptx.mbarrier.init(bar.data, 32)
        T.ptx.mbarrier.arrive.expect_tx(bar.data, 0)
        T.ptx.mbarrier.arrive(bar.data)
        T.ptx.mbarrier.try_wait(bar.data, phase)
    ptx = tirx.compile(k, target=SM90).ptx
    assert re.search(r"mbarrier\.init\.shared::cta\.b64 \[%rd\d+\], 0x00000020;", ptx)
    assert re.search(r"mbarrier\.arrive\.expect_tx\.shared::cta\.b64 _, \[%rd\d+\], "
                     r"0x00000000;", ptx)
    assert re.search(r"mbarrier\.arrive\.shared::cta\.b64 _, \[%rd\d+\];", ptx)
    assert re.search(r"tirx_retry:\s*mbarrier\.try_wait\.parity\.shared::cta\.b64 %tirx_w, "
                     r"\[%rd\d+\], %r\d+;\s*@!%tirx_w bra tirx_retry;", ptx)


def test_apply_forms_and_phases():
    # Two phases of a barrier every thread arrives on: states, one try into
    # a predicate tile, a runtime parity.
    @T.function
    def k(parity: T.int32):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        bar = T.alloc_shared((2,), "uint64", align=8)
        state = T.alloc_local((1,), "uint64")
        done = T.alloc_local((1,), "bool")
        tx = T.cuda.thread_idx("x")
        T.cuda.tile.apply(T.ptx["mbarrier.init.shared::cta.b64"], bar.view(2, 1), T.int32(64),
                          pred=tx == 0)
        T.cuda.cta_sync()
        T.cuda.tile.apply(T.ptx["mbarrier.arrive.shared::cta.b64"], state, bar[0:1])
        T.cuda.tile.apply(T.ptx["mbarrier.test_wait.parity.shared::cta.b64"], done, bar[0:1],
                          T.int32(0))
        T.cuda.tile.apply(T.ptx["mbarrier.try_wait.parity.shared::cta.b64"], done, bar[1:2],
                          parity)
        T.cuda.tile.apply(T.ptx["mbarrier.arrive.release.cta.shared::cta.b64"], bar[1:2])
    ptx = tirx.compile(k, target=SM90).ptx
    # Two barriers: one init per repeat, 8 bytes apart.
    assert re.search(r"mbarrier\.init\.shared::cta\.b64 \[(%rd\d+)\], 0x00000040;", ptx)
    assert re.search(r"mbarrier\.init\.shared::cta\.b64 \[%rd\d+\+8\], 0x00000040;", ptx)
    assert re.search(r"mbarrier\.arrive\.shared::cta\.b64 %rd\d+, \[%rd\d+\];", ptx)
    assert re.search(r"mbarrier\.test_wait\.parity\.shared::cta\.b64 %p\d+, \[%rd\d+\], "
                     r"0x00000000;", ptx)
    assert re.search(r"mbarrier\.try_wait\.parity\.shared::cta\.b64 %p\d+, \[%rd\d+\], %r\d+;", ptx)
    assert re.search(r"mbarrier\.arrive\.release\.cta\.shared::cta\.b64 _, \[%rd\d+\];", ptx)


def test_elect_setmaxnreg_and_wgmma_fences():
    @T.function
    def k(out: T.Tensor((4, 32), "uint32", align=4)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
        lanes = S[(4, 32) : (1@warpid, 1@laneid)]
        leader = T.alloc_local((4, 32), "uint32", layout=lanes)
        elected = T.alloc_local((4, 32), "bool", layout=lanes)
        T.cuda.tile.apply(T.ptx["elect.sync"], leader, elected, T.int32(-1), scope="cta")
        T.cuda.tile.apply(T.ptx["elect.sync"], elected, T.int32(-1), scope="cta")
        T.cuda.tile.apply(T.ptx["setmaxnreg.dec.sync.aligned.u32"], T.int32(40), scope="warpgroup")
        T.cuda.tile.apply(T.ptx["wgmma.fence.sync.aligned"], scope="warpgroup")
        T.cuda.tile.apply(T.ptx["wgmma.commit_group.sync.aligned"], scope="warpgroup")
        T.cuda.tile.apply(T.ptx["wgmma.wait_group.sync.aligned"], T.int32(0), scope="warpgroup")
        T.ptx.cp.async_.bulk.commit_group()
        T.ptx.cp.async_.bulk.wait_group.read(0)
        T.cuda.tile.apply(T.ptx["st.global.b32"], out.view(4, 32, 1),
                          leader.view(4, 32, 1, layout=S[(4, 32, 1) : (1@warpid, 1@laneid, 1)]),
                          scope="cta")
    ptx = tirx.compile(k, target=SM90A).ptx
    assert ".target sm_90a" in ptx
    assert re.search(r"elect\.sync %r\d+\|%p\d+, 0xFFFFFFFF;", ptx)
    assert re.search(r"elect\.sync _\|%p\d+, 0xFFFFFFFF;", ptx)
    for line in ("setmaxnreg.dec.sync.aligned.u32 0x00000028;", "wgmma.fence.sync.aligned;",
                 "wgmma.commit_group.sync.aligned;", "wgmma.wait_group.sync.aligned 0x00000000;",
                 "cp.async.bulk.commit_group;", "cp.async.bulk.wait_group.read 0x00000000;"):
        assert line in ptx


def test_arch_specific_form_on_sm90_is_located():
    @T.function
    def k():
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
        T.cuda.tile.apply(T.ptx["setmaxnreg.inc.sync.aligned.u32"], T.int32(232), scope="warpgroup")  # SM90A
    with raises("%serror: 'tile.apply' op 'setmaxnreg.inc.sync.aligned.u32' is an arch-specific "
                "sm_90a instruction, but the target is sm_90 (compile with chip=sm_90a)"
                % line_of("# SM90A")):
        tirx.compile(k, target=SM90)


def test_mbarrier_count_out_of_range_is_located():
    @T.function
    def k():
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        bar = T.alloc_shared((1,), "uint64", align=8)
        T.ptx.mbarrier.init.shared.b64(bar.data, 1 << 20)  # COUNT
    with raises("%serror: 'tile.apply' op operand #1 (count) of 'mbarrier.init.shared.b64': an "
                "mbarrier arrival count is 1 to 1048575 (2^20-1), got 1048576"
                % line_of("# COUNT")):
        tirx.compile(k, target=SM90)


def test_ptr_to_needs_one_index_per_dimension():
    @T.function
    def k():
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        bar = T.alloc_shared((2, 2), "uint64", align=8)
        T.ptx.mbarrier.inval.shared.b64(bar.ptr_to([0]))
    with raises("ptr_to needs 2 indices (one per dimension), got 1"):
        tirx.compile(k, target=SM90)


def proxy_store(fenced):
    """Every thread stores one element of a shared image, a CTA barrier
    hands it to thread 0, whose TMA store reads it through the async
    proxy: with the writers' fence.proxy.async before the barrier, or
    without."""
    @T.function
    def store(A: T.Tensor((32, 256), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
        image = T.alloc_shared((32, 4), "float32", align=128)
        tid = T.cuda.thread_idx("x")
        r = T.alloc_local((1, 1), "float32")
        T.cuda.tile.apply(T.ptx["mov.b32"], r, T.float32(1.0), scope="thread")
        T.cuda.tile.apply(T.ptx["st.shared.b32"],  # MARK-proxy-write
                          image[tid % 32, tid // 32], r, scope="thread")
        if fenced:
            T.ptx.fence.proxy.async_.shared__cta()
        T.cuda.cta_sync()  # MARK-proxy-handover
        with T.If(tid == 0):
            with T.Then():
                T.cuda.tile.apply(  # MARK-proxy-read
                    T.ptx["cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"],
                    A[0:32, 32:36], image, scope="thread")
                T.ptx.cp.async_.bulk.commit_group()
                T.ptx.cp.async_.bulk.wait_group.read(0)
    return store


def test_missing_proxy_fence_is_refused_at_the_write():
    # docs/races.md, "Proxies": a generic write the async proxy reads needs
    # the writer's fence.proxy.async before the barrier that hands it over.
    # Fenced, the kernel is proven race-free: the store reads the image
    # until its bulk wait_group.
    tirx.compile(proxy_store(fenced=True), target=dict(SM90, strict_races=True))
    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(proxy_store(fenced=False), target=SM90)
    message = str(error.value)
    assert line_of("MARK-proxy-write") + (
        "error: 'tile.apply' op writes shared memory that the async proxy reads (the op "
        "noted below), but no fence.proxy.async follows the write in its thread") in message
    assert line_of("MARK-proxy-read") + (
        "note: the async proxy reads the shared tensor here") in message
    assert line_of("MARK-proxy-handover") + (
        "note: the bytes may be handed over here, unfenced") in message
