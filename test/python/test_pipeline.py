"""tirx.pipeline (docs/library.md, "Pipelines"): a TMA pipeline derives its
mbarrier init counts, phase parities and expect-tx bytes, and the kernel's
PTX shows them; its misuse — loads that do not bring a stage's bytes, a
consumer that never releases, a buffer that is not staged — is a DSLError
at the user's line."""
import re

import pytest

import helpers

import tirx
from tirx.pipeline import TmaPipeline
from tirx.script import tirx as T

TARGET = {"kind": "cuda", "arch": "sm_90a"}


def pipeline_kernel(stages=2, release="warp", loads=("a", "b"), consume=True, releases=True,
                    buffers="both", pipeline_stages=None, consumers=1):
    """A producer thread streams K steps of A (64 x 64) and B (128 x 64) bf16
    boxes through `stages` stages; one consumer warpgroup waits for each,
    adds one element of it and releases it."""
    @T.function
    def stream(A: T.Tensor((64, 512), "bfloat16", align=16),
               B: T.Tensor((128, 512), "bfloat16", align=16),
               out: T.Tensor((128,), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
        sa = T.alloc_shared((stages, 64, 64), "bfloat16", align=128)
        sb = T.alloc_shared((stages, 128, 64), "bfloat16", align=128)
        staged = (sa, sb) if buffers == "both" else buffers(sa, sb)
        pipe = TmaPipeline(pipeline_stages or stages, buffers=staged, consumers=consumers,
                           release=release)
        tid = T.cuda.thread_idx("x")
        with T.If(tid == 0):
            with T.Then():
                pipe.init()
        T.cuda.cta_sync()
        with T.If(tid < 128):
            with T.Then():
                if consume:
                    for kb in T.serial(0, 8):
                        pipe.consumer_wait(kb)  # the wait
                        if releases:
                            pipe.consumer_release(kb)
            with T.Else():
                with T.If(tid == 128):
                    with T.Then():
                        for kb in T.serial(0, 8):
                            with pipe.produce(kb) as stage:  # the step
                                k = kb * 64
                                if "a" in loads:
                                    stage.load(sa[stage.index], A[0:64, k:k + 64])
                                if "b" in loads:
                                    stage.load(sb[stage.index], B[0:128, k:k + 64])
                                if "a2" in loads:
                                    stage.load(sa[stage.index], A[0:64, k:k + 64])
                                if "to_global" in loads:
                                    stage.load(A[0:64, k:k + 64], A[0:64, k:k + 64])
                                if "from_shared" in loads:
                                    stage.load(sa[stage.index], sb[stage.index, 0:64, :])
    return stream


def test_counts_and_parities_are_derived():
    ptx = tirx.compile(pipeline_kernel(), target=TARGET).ptx
    # full: one arrival (the producer's expect_tx); empty: one per consumer
    # warp (4); the stage's bytes 64 * 64 * 2 + 128 * 64 * 2.
    inits = re.findall(r"mbarrier\.init\.shared::cta\.b64 \[%rd\d+\], (0x[0-9a-f]+);", ptx)
    assert [int(n, 16) for n in inits] == [1, 4, 1, 4], inits
    assert re.search(r"mbarrier\.arrive\.expect_tx\.shared::cta\.b64 _, \[%rd\d+\], 0x00006000;",
                     ptx)  # 24576 bytes
    assert ptx.count("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
                     "mbarrier::complete_tx::bytes") == 2
    assert "fence.proxy.async.shared::cta" in ptx
    # Consumer threads release: one arrival per thread, 128 per stage.
    ptx = tirx.compile(pipeline_kernel(release="thread"), target=TARGET).ptx
    inits = re.findall(r"mbarrier\.init\.shared::cta\.b64 \[%rd\d+\], (0x[0-9a-f]+);", ptx)
    assert [int(n, 16) for n in inits] == [1, 128, 1, 128], inits


def test_state_of_a_step():
    from tirx.pipeline import PipelineState
    state = PipelineState(4, 13)
    assert (state.index, state.phase, state.producer_phase) == (1, 1, 0)
    assert [PipelineState(3, i).phase for i in range(7)] == [0, 0, 0, 1, 1, 1, 0]


def test_loads_that_contradict_the_stage_bytes():
    expected = {
        ("a",): "TmaPipeline: this step's loads bring 8192 bytes (8192), but each stage expects "
                "24576 (%sa 8192 + %sb 16384): the full barrier would never (or too early) "
                "complete",
        ("a", "b", "a2"): "TmaPipeline: this step's loads bring 32768 bytes (8192, 16384, "
                          "8192), but each stage expects 24576",
    }
    for loads, text in expected.items():
        with pytest.raises(tirx.CompileError) as error:
            tirx.compile(pipeline_kernel(loads=loads), target=TARGET)
        message = re.sub(r"%\w+ (\d+)", lambda m: "%s " + m.group(1), str(error.value))
        assert helpers.line_of(__file__, "# the step").rstrip(": ") in message
        assert text.replace("%sa", "%s").replace("%sb", "%s") in message, message


def test_a_consumer_that_never_releases():
    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(pipeline_kernel(releases=False), target=TARGET)
    message = str(error.value)
    assert helpers.line_of(__file__, "# the wait").rstrip(": ") in message
    assert ("TmaPipeline: the consumers wait for stages (here) but never release one "
            "(consumer_release): the producer would wait forever for a free stage") in message


def test_misuse_of_the_constructor():
    cases = (
        (dict(pipeline_stages=-1), "TmaPipeline: stages must be a positive int, got -1"),
        (dict(release="lane"), 'TmaPipeline: release must be "warp" or "thread", got \'lane\''),
        (dict(buffers=lambda sa, sb: (sa[0],)),
         "TmaPipeline buffers: %region has shape (1, 64, 64); its first dimension must be the 2 "
         "stages"),
        (dict(buffers=lambda sa, sb: ()),
         "TmaPipeline: buffers must name the shared tensors a stage fills"),
        (dict(buffers=lambda sa, sb: (5,)),
         "TmaPipeline buffers must be shared tensors (T.alloc_shared), got 5"),
        (dict(buffers=lambda sa, sb: (T.alloc_shared((2, 1024, 512), "bfloat16"),)),
         "TmaPipeline: a stage of 1048576 bytes exceeds an mbarrier's transaction count "
         "(2^20 - 1)"),
        (dict(consumers=0), "TmaPipeline: consumers (warpgroups) must be a positive int, got 0"),
        (dict(loads=("to_global",)), "TmaPipeline.load: the destination must be a stage of one "
                                     "of the pipeline's shared buffers, got "),
        (dict(loads=("from_shared",)), "TmaPipeline.load: the source must be a box of a global "
                                       "tensor, got "),
    )
    for arguments, expected in cases:
        with pytest.raises(tirx.CompileError) as error:
            tirx.compile(pipeline_kernel(**arguments), target=TARGET)
        assert expected in re.sub(r"%region\d+", "%region", str(error.value))


def test_cp_async_pipeline_and_named_barriers():
    from tirx.pipeline import CpAsyncPipeline, NamedBarriers

    @T.function
    def staged(A: T.Tensor((64, 128), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
        pipe = CpAsyncPipeline(3)
        groups = NamedBarriers(2, threads=128)
        pipe.commit()
        pipe.consumer_wait()
        groups.sync(T.cuda.thread_idx("x") // 128 + 1)
        groups.sync(2)
        pipe.drain()

    ptx = tirx.compile(staged, target=TARGET).ptx
    assert "cp.async.commit_group;" in ptx and "cp.async.wait_group 0x00000001;" in ptx
    assert "cp.async.wait_all;" in ptx and "bar.sync \t0;" in ptx
    assert re.search(r"bar\.sync \t%r\d+, 128;", ptx) and "bar.sync \t2, 128;" in ptx


def test_cp_async_pipeline_and_named_barrier_misuse():
    from tirx.pipeline import CpAsyncPipeline, NamedBarriers
    here = r"test_pipeline.py:[0-9]+: "
    cases = (
        (lambda: CpAsyncPipeline(1), "CpAsyncPipeline: stages must be an int >= 2 (one stage "
                                     "read while the others load), got 1"),
        (lambda: NamedBarriers(0, threads=128), "NamedBarriers: count must be a positive int, "
                                                "got 0"),
        (lambda: NamedBarriers(2, threads=100), "NamedBarriers: threads must be a positive "
                                                "multiple of 32 (whole warps), got 100"),
        (lambda: NamedBarriers(4, threads=128, first=13), "NamedBarriers: ids 13 .. 16 are "
                                                          "outside 1 .. 15 (0 is the CTA's "
                                                          "barrier)"),
        (lambda: NamedBarriers(2, threads=128).sync(3), "NamedBarriers: barrier 3 is not one "
                                                        "of ids 1 .. 2"),
    )
    for make, expected in cases:
        with pytest.raises(tirx.CompileError, match=here + re.escape(expected)):
            make()


def cp_async_stages(handover):
    """A three-stage CpAsyncPipeline over a T.serial loop: step i + 2 loads
    while step i is read, each warp reading rows the other warp copied;
    without the handover (the barrier of consumer_wait) the read races with
    the copy its wait completed in the issuing thread only."""
    from tirx.cuda.axis import laneid, warpid
    from tirx.layout import S, TileLayout
    from tirx.pipeline import CpAsyncPipeline
    own = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])
    across = TileLayout(S[(2, 32, 4) : (4, 8, 1)])

    @T.function
    def staged(A: T.Tensor((64, 32, 4), "float32", align=16),
               B: T.Tensor((2, 32, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        s = T.alloc_shared((6, 32, 4), "float32", align=16)  # the stages
        r = T.alloc_local((2, 32, 4), "float32", layout=own)
        pipe = CpAsyncPipeline(3)

        def load(step, stage):
            T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"],  # the copy
                              s[2 * stage:2 * stage + 2], A[2 * step:2 * step + 2],
                              chunk_bytes=16, scope="cta")
            pipe.commit()
        load(0, 0)
        load(1, 1)
        for i in T.serial(0, 30):
            load(i + 2, (i + 2) % 3)
            if handover:
                pipe.consumer_wait()
            else:
                T.ptx.cp.async_.wait_group(1)  # wait without handover
            stage = i % 3
            T.cuda.tile.apply(T.ptx["ld.shared.v4.b32"], r,  # read the stage
                              s[2 * stage:2 * stage + 2].view(2, 32, 4, layout=across),
                              scope="cta")
            T.cuda.cta_sync()
        pipe.drain()
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, r, scope="cta")
    return staged


def test_cp_async_pipeline_is_proven_or_refused_at_the_users_line():
    # docs/races.md: a pipeline's copy completes at the wait of a later
    # iteration (or, before the loop, of one of its first), and the barrier
    # after that wait hands it to the other threads.
    tirx.compile(cp_async_stages(handover=True), target=dict(TARGET, strict_races=True))
    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(cp_async_stages(handover=False), target=TARGET)
    message = str(error.value)
    assert helpers.line_of(__file__, "# read the stage") + (
        "error: 'tile.apply' op data race on byte 16 of the shared tensor allocated at ") \
        in message, message
    assert ("this read by thread 32 (warp 1, lane 0) and the write by thread 1 (warp 0, "
            "lane 1) at the op noted below can run with no CTA barrier between them; here "
            "loop #0's index = 0") in message
    assert helpers.line_of(__file__, "# the copy") + (
        "note: the other access: the write of byte 16 by thread 1 (warp 0, lane 1)") in message
    assert helpers.line_of(__file__, "# wait without handover") + (
        "note: the copy's write is complete in its thread only after this wait, in the "
        "loop's iteration #0 (counting from 0), and no CTA barrier follows it before the "
        "read") in message
    assert helpers.line_of(__file__, "# the stages") + (
        "note: the shared tensor is allocated here") in message


def tma_stages(waits):
    """A TmaPipeline of two stages over a T.serial loop: thread 128 loads
    each step's box, the 128 consumer threads read their element of the
    stage and each release it (release="thread": an arrival orders its own
    thread's reads only); without `waits`, the consumers read before the
    stage's full barrier says the load completed."""
    @T.function
    def stream(A: T.Tensor((32, 256), "float32", align=16),
               out: T.Tensor((128,), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=160))
        staged = T.alloc_shared((2, 32, 32), "float32", align=128)  # the TMA stages
        pipe = TmaPipeline(2, buffers=(staged,), consumers=1, release="thread")
        tid = T.cuda.thread_idx("x")
        with T.If(tid == 0):
            with T.Then():
                pipe.init()
        T.cuda.cta_sync()
        with T.If(tid < 128):
            with T.Then():
                r = T.alloc_local((1, 1, 1), "float32")
                for kb in T.serial(0, 8):
                    s = pipe.consumer_wait(kb) if waits else kb % 2
                    T.cuda.tile.apply(T.ptx["ld.shared.b32"], r,  # read a TMA stage
                                      staged[s, tid % 32, tid // 32], scope="thread")
                    pipe.consumer_release(kb)
            with T.Else():
                with T.If(tid == 128):
                    with T.Then():
                        for kb in T.serial(0, 8):
                            with pipe.produce(kb) as stage:  # wait for a free TMA stage
                                stage.load(staged[stage.index],  # load a TMA stage
                                           A[0:32, kb * 32:kb * 32 + 32])
    return stream


def test_tma_pipeline_is_proven_or_refused_at_the_users_line():
    # docs/races.md, "mbarrier pipelines": a stage's load completes on its
    # full barrier's phase, which the consumer's wait orders its read after;
    # the consumers' arrivals on the empty barrier order their reads before
    # the producer's next load into the stage.
    tirx.compile(tma_stages(waits=True), target=dict(TARGET, strict_races=True))
    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(tma_stages(waits=False), target=TARGET)
    message = str(error.value)
    assert helpers.line_of(__file__, "# load a TMA stage") + (
        "error: 'tile.apply' op data race on byte 0 of the shared tensor allocated at ") \
        in message, message
    assert ("this write by thread 128 (warp 4, lane 0) and the read by thread 0 (warp 0, "
            "lane 0) at the op noted below can run with no CTA barrier between them and no "
            "mbarrier phase orders them; here loop #0's index = 0, there loop #0's index = 0") \
        in message, message
    assert helpers.line_of(__file__, "# read a TMA stage") + (
        "note: the other access: the read of byte 0 by thread 0 (warp 0, lane 0)") in message
    assert helpers.line_of(__file__, "# wait for a free TMA stage") + (
        "note: this wait is for phase -1 (the one before the first: it returns at once) of "
        "mbarrier #0 of the allocation at ") in message, message
    assert helpers.line_of(__file__, "# the TMA stages") + (
        "note: the shared tensor is allocated here") in message
    # race_proof=False skips the proof: the refused kernel compiles (to run
    # it under compute-sanitizer, or past a false positive).
    compiled = tirx.compile(tma_stages(waits=False), target=dict(TARGET, race_proof=False))
    assert "cp.async.bulk.tensor" in compiled.ptx


def test_race_proof_target_option_is_checked():
    with pytest.raises(ValueError, match="target race_proof must be True or False, got 0"):
        tirx.compile(tma_stages(waits=True), target=dict(TARGET, race_proof=0))
    with pytest.raises(ValueError, match="target strict_races=True needs the race proof: "
                                         "race_proof=False skips it"):
        tirx.compile(tma_stages(waits=True),
                     target=dict(TARGET, race_proof=False, strict_races=True))


def test_gpu_race_proof_stream_runs_on_the_interpreter():
    """test/gpu/run_race_proof.py's stream, which the GPU runs under
    racecheck: proven, and it copies A through the stages on the
    interpreter; without the consumers' wait, the interpreter reports the
    race the proof refuses."""
    import numpy as np

    script = helpers.load_gpu_script("run_race_proof.py")
    tirx.compile(script.stream(True), target=dict(TARGET, strict_races=True))
    a = np.arange(32 * 32 * script.STEPS, dtype=np.float32).reshape(32, -1)
    out = np.full((script.STEPS, 32, 32), np.nan, dtype=np.float32)
    tirx.compile(script.stream(True), target="interpret")(a, out)
    assert np.array_equal(out, a.reshape(32, script.STEPS, 32).transpose(1, 0, 2))
    with pytest.raises(tirx.InterpreterError, match="data race on byte 0 of the shared tensor"):
        tirx.compile(script.stream(False), target="interpret")(a, out)
