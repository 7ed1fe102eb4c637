"""tirx.gemm's misuse diagnostics, each triggered through a small kernel as a
user would write it and expected with its whole text (test_gemm.py locates
a few of them; these spell them out): schedules without tiles or with a bad
group, a persistent walk of a one-tile-per-CTA schedule, operands that are
no 128-byte swizzled shared regions, spellings and peels WarpgroupMMA does
not take, AccumulatorStore's store kinds, tensors, buffers, deferred words
and chunks, and the mma.sync pieces' row swizzles, chunk tiles and warp
tilings."""
import pytest

import tirx
from tirx.atoms import Atom
from tirx.gemm import (AccumulatorStore, ChunkTile, TileScheduler, WarpTiledMMA, WarpgroupMMA,
                       alloc_swizzled, k_slice, row_swizzle)
from tirx.pipeline import NamedBarriers
from tirx.script import tirx as T

TARGET = {"kind": "cuda", "arch": "sm_90a"}
WGMMA = "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16"
MMA_SYNC = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
MMA = Atom(MMA_SYNC)
LDMATRIX = Atom("ldmatrix.sync.aligned.m8n8.x4.shared.b16")
LDMATRIX_T = Atom("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16")


def origin(tile):
    return 0, 0


def barrier():
    return NamedBarriers(1, threads=128, first=1)


# Each case: the body of a one-warpgroup kernel over C (64 x 128 bf16) that
# misuses one piece.
def group_m_zero(C):
    TileScheduler(2, 2, group_m=0)


def no_tiles(C):
    TileScheduler(0, 2)


def partial_group(C):
    TileScheduler(4, 2, group_m=3)


def walk_without_first(C):
    tiles = TileScheduler(2, 2)
    for tile in tiles.loop():
        pass


def narrow_swizzled_rows(C):
    alloc_swizzled((64, 32))


def slice_of_global(C):
    k_slice(C, 0)


def mma_sync_spelling(C):
    WarpgroupMMA(MMA_SYNC)


def peel_zero(C):
    mma = WarpgroupMMA(WGMMA)
    mma.mainloop(None, mma.accumulator(), lambda s: (None, None), 4, peel=0)


def store_kind(C):
    mma = WarpgroupMMA(WGMMA)
    AccumulatorStore(mma, mma.accumulator(), C, origin, store="shared")


def shared_C(C):
    mma = WarpgroupMMA(WGMMA)
    AccumulatorStore(mma, mma.accumulator(), alloc_swizzled((64, 64)), origin)


def too_many_deferred(C):
    mma = WarpgroupMMA(WGMMA)
    AccumulatorStore(mma, mma.accumulator(), C, origin, deferred=40)


def tma_without_buffer(C):
    mma = WarpgroupMMA(WGMMA)
    AccumulatorStore(mma, mma.accumulator(), C, origin, store="tma")


def buffer_of_one_box_shape(C):
    mma = WarpgroupMMA(WGMMA)
    AccumulatorStore(mma, mma.accumulator(), C, origin, store="tma",
                     buffer=alloc_swizzled((64, 64)), barrier=barrier(), barrier_id=0)


def more_words_than_boxes(C):
    mma = WarpgroupMMA(WGMMA)
    out = AccumulatorStore(mma, mma.accumulator(), C, origin, store="tma",
                           buffer=alloc_swizzled((1, 64, 64)), barrier=barrier(), barrier_id=0)
    out.tile_done(0)      # 32 words, two boxes, into a buffer of one


def chunk_out_of_range(C):
    mma = WarpgroupMMA(WGMMA)
    out = AccumulatorStore(mma, mma.accumulator(), C, origin, deferred=8)
    out.store_deferred(0, chunk=2, chunks=2)


def uneven_chunks(C):
    mma = WarpgroupMMA(WGMMA)
    out = AccumulatorStore(mma, mma.accumulator(), C, origin, deferred=8)
    out.store_deferred(0, chunk=0, chunks=3)


def finish_without_tiles(C):
    mma = WarpgroupMMA(WGMMA)
    out = AccumulatorStore(mma, mma.accumulator(), C, origin, deferred=8)
    out.finish()


def odd_row_swizzle(C):
    row_swizzle(12)


def chunks_threads_cannot_split(C):
    ChunkTile(3, 16, 4)


def zero_warps(C):
    WarpTiledMMA(MMA, LDMATRIX, LDMATRIX_T, 0, 2, 128, 128, 32)


def odd_k_block(C):
    WarpTiledMMA(MMA, LDMATRIX, LDMATRIX_T, 2, 2, 128, 128, 48)


CASES = [
    (group_m_zero, "TileScheduler: group_m must be a positive int, got 0"),
    (no_tiles, "TileScheduler: 0 x 2 tiles: a GEMM has at least one tile"),
    (partial_group, "TileScheduler: 4 row tiles are no multiple of group_m = 3 (a runtime "
                    "extent may leave a partial group; a static one may not)"),
    (walk_without_first, "TileScheduler.loop: this schedule is one tile per CTA (first=None); "
                         "a persistent CTA's walk needs first (its block index) and stride "
                         "(the grid)"),
    (narrow_swizzled_rows, "swizzled_128b: the 128-byte swizzle takes rows of 64 16-bit "
                           "elements (128 bytes), got shape (64, 32)"),
    (slice_of_global, "k_slice: the operand must be a (rows, columns) region of a shared "
                      "tile, got "),
    (mma_sync_spelling, "WarpgroupMMA takes a wgmma.mma_async spelling, got "
                        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 (executed by a "
                        "warp)"),
    (peel_zero, "WarpgroupMMA.mainloop: peel must be a positive int, got 0"),
    (store_kind, "AccumulatorStore: store must be \"global\" or \"tma\", got 'shared'"),
    (shared_C, "AccumulatorStore: C must be a 2-D global tensor, got "),
    (too_many_deferred, "AccumulatorStore: deferred = 40 words is not one of 0 .. 32"),
    (tma_without_buffer, "AccumulatorStore: store=\"tma\" needs buffer (the warpgroup's "
                         "shared boxes), barrier and barrier_id"),
    (buffer_of_one_box_shape, "AccumulatorStore: the buffer must be a shared (boxes, 64, 64) "
                              "tile, got "),
    (more_words_than_boxes, "AccumulatorStore: words 0 .. 32 are not whole boxes of the "
                            "buffer's 1 (16 words per thread each)"),
    (chunk_out_of_range, "AccumulatorStore: chunk 2 of 2 chunks"),
    (uneven_chunks, "AccumulatorStore: 8 deferred words do not split into 3 chunks"),
    (finish_without_tiles, "AccumulatorStore.finish: deferred words need the TileScheduler "
                           "(finish(tiles)) to find the CTA's last tile"),
    (odd_row_swizzle, "row_swizzle: rows of 12 words; the swizzle needs a power of two of at "
                      "least 8 (two 16-byte chunks)"),
    (chunks_threads_cannot_split, "ChunkTile: 3 rows of 16 words are no whole number of "
                                  "16-byte chunks per thread of 4 warps (a row must be 1 .. "
                                  "32 chunks, a divisor of 32)"),
    (zero_warps, "WarpTiledMMA: warps_m must be a positive int, got 0"),
    (odd_k_block, "WarpTiledMMA: a 128 x 128 tile over 2 x 2 warps, K blocks of 48: each "
                  "warp needs a multiple of 16 rows and 16 columns, a K block an even number "
                  "of k16 steps"),
]


@pytest.mark.parametrize("body, message", CASES, ids=[body.__name__ for body, _ in CASES])
def test_misuse_message(body, message):
    @T.function
    def kernel(C: T.Tensor((64, 128), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
        body(C)
    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(kernel, target=TARGET)
    assert message in str(error.value), str(error.value)


def test_shapes_in_operand_and_buffer_messages():
    """The computed tails: the operand's and the buffer's shapes."""
    @T.function
    def operand(C: T.Tensor((64, 128), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
        k_slice(C, 0)
    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(operand, target=TARGET)
    assert " of shape (64, 128)" in str(error.value), str(error.value)

    @T.function
    def buffer(C: T.Tensor((64, 128), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
        mma = WarpgroupMMA(WGMMA)
        AccumulatorStore(mma, mma.accumulator(), C, origin, store="tma",
                         buffer=alloc_swizzled((2, 64, 64)), barrier=barrier(), barrier_id=0,
                         slot=0)
    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(buffer, target=TARGET)
    assert ("AccumulatorStore: the buffer must be a shared (warpgroups, boxes, 64, 64) "
            "(slot: the warpgroup's) tile, got ") in str(error.value), str(error.value)
    assert " of shape (2, 64, 64)" in str(error.value), str(error.value)


def test_global_store_of_runtime_sized_C():
    N = T.dynamic("N", multiple_of=8)

    @T.function
    def kernel(C: T.Tensor((64, N), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
        mma = WarpgroupMMA(WGMMA)
        AccumulatorStore(mma, mma.accumulator(), C, origin)
    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(kernel, target=TARGET)
    assert ("AccumulatorStore: store=\"global\" needs C's extents known while tracing (a "
            "runtime-sized C goes through store=\"tma\", whose boxes TMA clips)") \
        in str(error.value), str(error.value)


def test_global_store_of_runtime_sized_C_through_tma_compiles():
    """The same C through store="tma" is no misuse (the message's advice)."""
    N = T.dynamic("N", multiple_of=8)

    @T.function
    def kernel(C: T.Tensor((64, N), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
        mma = WarpgroupMMA(WGMMA)
        AccumulatorStore(mma, mma.accumulator(), C, origin, store="tma",
                         buffer=alloc_swizzled((2, 64, 64)), barrier=barrier(), barrier_id=0)
    tirx.compile(kernel, target=TARGET)
