"""tirx.gemm (docs/library.md, "GEMM pieces"): the grouped tile order covers
every tile once; the swizzled operand layouts and wgmma's slices; a
warp-specialized wgmma GEMM and an mma.sync GEMM built from the pieces
compile to the instructions they name; misuse — a spelling that is no
wgmma, operands that do not match the atom, a schedule that does not
divide, words out of range, setmaxnreg counts, chunks that threads cannot
split, K loops shorter than their peeled or preloaded blocks — is a
DSLError at the user's line. The examples built on these pieces keep their
PTX (test_golden_ptx.py)."""
import os
import re

import pytest

import helpers

import tirx
from tirx.atoms import Atom
from tirx.gemm import (AccumulatorStore, ChunkTile, TileScheduler, WarpSpecialized,
                       WarpTiledMMA, WarpgroupMMA, alloc_swizzled, k_slice, produce_k_loop,
                       row_swizzle, swizzled_128b)
from tirx.pipeline import CpAsyncPipeline, NamedBarriers, TmaPipeline
from tirx.script import tirx as T

TARGET = {"kind": "cuda", "arch": "sm_90a"}
WGMMA = "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16"
MMA = Atom("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")
LDMATRIX = Atom("ldmatrix.sync.aligned.m8n8.x4.shared.b16")
LDMATRIX_T = Atom("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16")


def count(ptx, spelling):
    return len(re.findall(r"\b%s(?=[\s;])" % re.escape(spelling), ptx))


@pytest.mark.parametrize("tiles_m, tiles_n, group_m", [(8, 4, 8), (16, 3, 4), (4, 5, 8),
                                                        (6, 2, 3), (1, 7, 8)])
def test_grouped_order_covers_every_tile_once(tiles_m, tiles_n, group_m):
    schedule = TileScheduler(tiles_m, tiles_n, group_m)
    group = min(group_m, tiles_m)
    seen = [schedule.coordinates(t) for t in range(tiles_m * tiles_n)]
    assert sorted(seen) == [(m, n) for m in range(tiles_m) for n in range(tiles_n)]
    # Consecutive tiles walk the group's rows, then its next column.
    for t, (bm, bn) in enumerate(seen):
        assert bm // group == t // (group * tiles_n)
        assert bn == t % (group * tiles_n) // group


def test_swizzled_layouts_and_slices():
    assert str(swizzled_128b((4, 2, 64, 64))) == str(tirx.layout.TileLayout(
        "S[(4, 2, 64, 64) : (8192, 4096, 64, 1)] + Swizzle[3, 3, 3]"))
    assert row_swizzle(16).__class__.__name__ == "SwizzleLayout"
    chunks = ChunkTile(128, 16, 4)     # 128 rows of 16 words by 4 warps
    assert chunks.shape == (4, 32, 4, 4)


def wgmma_gemm(case=None, store="global", deferred=0):
    """A persistent warp-specialized GEMM: one consumer warpgroup, tiles of
    64 x 128, K blocks of 64 (docs/library.md's)."""
    M, N, K, BM, BN, BK, STAGES, GRID = 256, 256, 512, 64, 128, 64, 3, 2
    mma = WarpgroupMMA(WGMMA if case != "spelling" else  # MARK-spelling
                       "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")
    k_steps = K // BK

    @T.function
    def gemm(A: T.Tensor((M, K), "bfloat16", align=16),
             W: T.Tensor((N, K), "bfloat16", align=16),
             C: T.Tensor((M, N), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=GRID, block=256))
        bx = T.cuda.block_idx("x")
        tiles = TileScheduler(M // BM, N // BN, 3 if case == "group" else 2,  # MARK-group
                              first=None if case == "first" else bx, stride=GRID)
        sa, sw = alloc_swizzled((STAGES, BM, BK)), alloc_swizzled((STAGES, BN, BK))
        if case == "dtype":
            alloc_swizzled((2, 64, 64), "float32")  # MARK-dtype
        cbuf = alloc_swizzled((2, 64, 64))
        pipe = TmaPipeline(STAGES, buffers=(sa, sw), consumers=1)
        roles = WarpSpecialized(232, 41 if case == "registers" else 40)  # MARK-registers
        roles.init(pipe)

        def origin(tile):
            bm, bn = tiles.coordinates(tile)
            return bm * BM, bn

        def consumer(wg):
            d = mma.accumulator()
            out = AccumulatorStore(mma, d, C, origin, store, cbuf,
                                   NamedBarriers(1, threads=128, first=1), wg,
                                   deferred=deferred)
            for tile in tiles.loop():  # MARK-first
                operands = ((lambda s: (sw[s], sa[s])) if case == "operands" else
                            (lambda s: (sa[s], sw[s])))
                mma.mainloop(pipe, d, operands, k_steps,  # MARK-operands
                             tiles.k_step(tile, k_steps), peel=9 if case == "peel" else 2,
                             overlap=out.overlap(tiles, tile, 2))
                out.tile_done(tile)
                if case == "words":
                    out.convert(out.registers(4), 30, 4)  # MARK-words
            out.finish(None if case == "finish" else tiles)  # MARK-finish

        def producer():
            for tile in tiles.loop():
                bm, bn = tiles.coordinates(tile)

                def load(stage, kb):
                    stage.load(sa[stage.index], A[bm * BM:bm * BM + BM, kb * BK:kb * BK + BK])
                    if case != "bytes":
                        stage.load(sw[stage.index], W[bn * BN:bn * BN + BN, kb * BK:kb * BK + BK])
                produce_k_loop(pipe, k_steps, load, tiles.k_step(tile, k_steps))  # MARK-bytes
        roles.run(consumer, producer)
    return gemm


def test_warp_specialized_wgmma_gemm():
    ptx = tirx.compile(wgmma_gemm(), target=TARGET).ptx
    # Two K blocks peeled, the others in a loop: 4 k16 wgmmas each.
    assert count(ptx, WGMMA) == 12
    assert count(ptx, "wgmma.fence.sync.aligned") == 3
    assert count(ptx, "wgmma.commit_group.sync.aligned") == 3
    assert count(ptx, "cp.async.bulk.tensor.2d.shared::cluster.global.tile."
                      "mbarrier::complete_tx::bytes") == 2
    assert count(ptx, "st.global.b32") == 32      # 32 bf16x2 words per thread
    assert count(ptx, "cvt.rn.bf16x2.f32") == 32
    assert count(ptx, "setmaxnreg.inc.sync.aligned.u32") == 1
    assert count(ptx, "setmaxnreg.dec.sync.aligned.u32") == 1


def test_deferred_epilogue_through_tma():
    ptx = tirx.compile(wgmma_gemm(store="tma", deferred=16), target=TARGET).ptx
    # 16 words now (one box), 16 deferred: stored during the next tile's
    # first block (chunk 0 of 2) and after the CTA's last tile.
    assert count(ptx, "st.shared.b32") == 16 * 3
    assert count(ptx, "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group") == 3
    assert count(ptx, "cp.async.bulk.wait_group") == 1     # finish: before the CTA goes
    assert count(ptx, "cp.async.bulk.wait_group.read") == 3


@pytest.mark.parametrize("case, marker, message", [
    ("spelling", "MARK-spelling", "WarpgroupMMA takes a wgmma.mma_async spelling, got "
                                  "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"),
    ("group", "MARK-group", "TileScheduler: 4 row tiles are no multiple of group_m = 3"),
    ("first", "MARK-first", "TileScheduler.loop: this schedule is one tile per CTA"),
    ("dtype", "MARK-dtype", "alloc_swizzled: the 128-byte swizzle of 64-element rows takes a "
                            "16-bit dtype, got float32"),
    ("registers", "MARK-registers", "WarpSpecialized: producer_registers = 41; setmaxnreg "
                                    "takes a multiple of 8 in 24 .. 256"),
    ("operands", "MARK-operands", "WarpgroupMMA.k_block: wgmma.mma_async.sync.aligned."
                                  "m64n128k16.f32.bf16.bf16 takes a (64, BK) and b (128, BK), "
                                  "got (128, 64) and (64, 64)"),
    ("words", "MARK-words", "AccumulatorStore: words 30 .. 30 + 4 are outside the 32 words per "
                            "thread of the m64n128 accumulator"),
    ("finish", "MARK-finish", "AccumulatorStore.finish: deferred words need the TileScheduler"),
    ("bytes", "MARK-bytes", "TmaPipeline: this step's loads bring 8192 bytes"),
    ("peel", "MARK-operands", "WarpgroupMMA.mainloop: 8 K steps are fewer than the 9 peeled ones"),
])
def test_misuse_is_located(case, marker, message):
    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(wgmma_gemm(case, deferred=8), target=TARGET)
    assert helpers.line_of(__file__, marker).rstrip(": ") + ":" in str(error.value), \
        str(error.value)
    assert message in str(error.value), str(error.value)


def test_epilogue_misuse():
    mma = WarpgroupMMA(WGMMA)

    @T.function
    def k(C: T.Tensor((64, 128), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
        d = mma.accumulator()
        AccumulatorStore(mma, d, C, lambda tile: (0, 0), "tma", deferred=8)  # MARK-tma-words
    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(k, target=TARGET)
    assert helpers.line_of(__file__, "MARK-tma-words").rstrip(": ") in str(error.value)
    assert "deferred = 8 words is not one of 0 .. 32 in whole boxes" in str(error.value)

    @T.function
    def k2(C: T.Tensor((64, 128), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
        s = alloc_swizzled((128, 64))
        k_slice(s, 4)  # MARK-slice
    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(k2, target=TARGET)
    assert helpers.line_of(__file__, "MARK-slice").rstrip(": ") in str(error.value)
    assert "k_slice: slice 4 is not one of 0 .. 3" in str(error.value)


def mma_sync_gemm(case=None, epilogue="shared", M=256, N=256, K=256):
    BM, BN, BK, STAGES = 128, 128, 32, 3
    tiled = WarpTiledMMA(MMA, LDMATRIX, LDMATRIX_T, 2, 2, BM, BN,  # MARK-block
                         48 if case == "block" else BK)
    tiles = TileScheduler(M // BM, N // BN, 8)

    @T.function
    def gemm(A: T.Tensor((M, K), "bfloat16", align=16),
             B: T.Tensor((K, N), "bfloat16", align=16),
             C: T.Tensor((M, N), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=tiles.tiles, block=tiled.warps * 32))
        bm, bn = tiles.coordinates(T.cuda.block_idx("x"))
        Aw, Bw, Cw = A.view("uint32"), B.view("uint32"), C.view("uint32")
        stages = tiled.alloc_stages(STAGES)
        sc = T.alloc_shared((BM * BN // 2,), "uint32", align=128) if epilogue == "shared" else None
        pipe = CpAsyncPipeline(STAGES)

        def load(stage, kb, pred):
            tiled.copy_stage("cp.async.cg.shared.global", stages, stage, Aw, Bw, bm, bn, kb,
                             chunk_bytes=16, pred=pred)
            pipe.commit()
        acc = tiled.accumulator()
        tiled.mainloop(pipe, stages, acc, 1 if case == "short" else K // BK, load)  # MARK-short
        if case == "chunks":
            ChunkTile(3, 16, 4)  # MARK-chunks
        tiled.store(acc, Cw, bm, bn, sc)
    return gemm


@pytest.mark.parametrize("epilogue", ["shared", "global"])
def test_warp_tiled_mma_gemm(epilogue):
    ptx = tirx.compile(mma_sync_gemm(epilogue=epilogue), target=TARGET).ptx
    # Per K block of 2 k16 steps: 2 x (MI 4 x NI 8) mmas, its loop body
    # and the fragments of the first step loaded ahead.
    assert count(ptx, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32") == 2 * 4 * 8
    assert count(ptx, "ldmatrix.sync.aligned.m8n8.x4.shared.b16") == 3 * 4
    assert count(ptx, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16") == 3 * 4
    assert count(ptx, "cvt.rn.bf16x2.f32") == 4 * 16
    if epilogue == "shared":
        assert count(ptx, "stmatrix.sync.aligned.m8n8.x4.shared.b16") == 4 * 4
        # 128 rows of 64 words: 16 chunks per thread.
        assert count(ptx, "st.global.v4.b32") == 16
    else:
        assert count(ptx, "st.global.b32") == 4 * 16


@pytest.mark.parametrize("case, marker, message", [
    ("block", "MARK-block", "WarpTiledMMA: a 128 x 128 tile over 2 x 2 warps, K blocks of 48"),
    ("short", "MARK-short", "WarpTiledMMA.mainloop: 1 K blocks; the 3-stage pipeline loads 2 "
                            "ahead"),
    ("chunks", "MARK-chunks", "ChunkTile: 3 rows of 16 words are no whole number of 16-byte "
                              "chunks per thread of 4 warps"),
])
def test_warp_tiled_mma_misuse_is_located(case, marker, message):
    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(mma_sync_gemm(case), target=TARGET)
    assert helpers.line_of(__file__, marker).rstrip(": ") + ":" in str(error.value), \
        str(error.value)
    assert message in str(error.value), str(error.value)


def test_docs_library_block_runs():
    """docs/library.md's "GEMM pieces" block runs as written (its asserts are
    the page's claims)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    text = open(os.path.join(root, "docs", "library.md")).read()
    start = text.index("\n## GEMM pieces\n")
    end = text.find("\n## ", start + 1)
    blocks = re.findall(r"```python\n(.*?)```", text[start:end], re.S)
    assert len(blocks) == 1
    exec(compile(blocks[0], "docs/library.md", "exec"), {})
