# bf16 GEMM on Hopper's asynchronous path (docs/hopper-gemm.md): C = A @ W^T
# with A (M, K) and W (N, K) row-major bfloat16 (W as torch.nn.Linear keeps
# its weight), f32 accumulation, C (M, N) bfloat16. Persistent and
# warp-specialized: each CTA (one per SM) walks output tiles of 128 x 256
# with one producer warpgroup and two consumer warpgroups. Every
# instruction is named:
#
#   cp.async.bulk.tensor.2d...mbarrier::complete_tx::bytes   TMA: one thread
#       of the producer loads the A and W boxes of a K step (128 x 64 and
#       256 x 64) into one of STAGES shared stages, 128-byte swizzled,
#       completing on the stage's `full` mbarrier, which
#       mbarrier.arrive.expect_tx armed with the bytes;
#   mbarrier.try_wait.parity   consumers wait for a stage to be full, the
#       producer for it to be empty again (each consumer warp arrives on the
#       stage's `empty` mbarrier once its wgmma group has read the stage);
#   wgmma.mma_async...m64n256k16.f32.bf16.bf16   consumer c multiplies rows
#       64 c .. 64 c + 63 of the tile, A and W straight from the swizzled
#       stage through descriptors the compiler derives from the layouts;
#       wgmma.fence, commit_group, wait_group 1 (one group in flight);
#   setmaxnreg.{dec,inc}   the producer gives registers to the consumers,
#       whose 128 f32 accumulators each need them;
#   cvt.rn.bf16x2.f32, st.shared.b32, fence.proxy.async, bar.sync and
#       cp.async.bulk.tensor.2d.global.shared::cta   C through a 128-byte
#       swizzled shared buffer per consumer and TMA stores of 64 x 64 boxes,
#       half right after a tile's last wgmma group, half while the next
#       tile's first group runs (STORE="global": st.global.b32 instead).
# make_kernel(M, N, K) compiles one shape; runtime_sized(num_sms) one kernel
# for every shape (size variables; tails through TMA).
import sys

from tirx.gemm import (AccumulatorStore, TileScheduler, WarpgroupMMA, alloc_swizzled,
                       WarpSpecialized, produce_k_loop)
from tirx.pipeline import NamedBarriers, TmaPipeline
from tirx.script import tirx as T
from tirx.testing import as_float64

RTOL = 2.0 ** -7
ATOL_PER_ABSSUM = 2.0 ** -17


def make_kernel(M, N, K, BM=128, BN=256, BK=64, STAGES=4, CONSUMERS=2,
                PRODUCER_REGISTERS=40, CONSUMER_REGISTERS=232, GROUP_M=8, num_sms=None,
                DEFERRED=32, WARP_RELEASE=True, STORE="tma"):
    """A kernel for static (M, N, K), each a multiple of its block size,
    persistent over `num_sms` CTAs (each walks tiles bx, bx + grid, ...) or
    one CTA per tile when num_sms is None; or, when M, N, K are size
    variables (T.dynamic), one kernel for every shape: persistent over
    num_sms CTAs walking the tiles of the shape launched (ceil(M / BM) x
    ceil(N / BN)), the tails of M, N and K through TMA's zero fill (loads)
    and clipping (stores); STORE must be "tma". DEFERRED: words of C per
    thread stored during the next tile's first K steps (0..BN/4; 32 keeps
    ptxas from spilling at BN 256); WARP_RELEASE: one arrival per consumer
    warp on a stage's `empty` barrier, else one per thread. STORE: how C
    goes out: "global", st.global.b32 from the registers; "tma", through a
    128-byte swizzled shared buffer per consumer (st.shared.b32, then one
    thread's TMA store of each 64 x 64 box)."""
    dynamic = not all(isinstance(extent, int) for extent in (M, N, K))
    assert BK == 64, "one 128-byte swizzle row of bf16 per K step"
    assert BM == 64 * CONSUMERS and BN % 8 == 0 and 8 <= BN <= 256
    assert dynamic or (M % BM == 0 and N % BN == 0 and K % BK == 0)
    assert not dynamic or (num_sms and STORE == "tma")
    # K steps whose wgmma groups overlap the previous tile's stores of C
    # (a runtime K may be one step).
    PEEL = 1 if dynamic else max(p for p in (1, 2, 4, 8)
                                 if p <= K // BK and DEFERRED % p == 0)
    assert 0 <= DEFERRED <= BN // 4 and STORE in ("global", "tma")
    # STORE "tma": a consumer's C words go out in boxes of 64 columns (16
    # words per thread), through a buffer of the larger part's boxes.
    boxes = max(BN // 4 - DEFERRED, DEFERRED) // 16
    assert STORE == "global" or (DEFERRED % 16 == 0 and BN % 64 == 0)
    assert dynamic or (M // BM) % min(GROUP_M, M // BM) == 0
    mma = WarpgroupMMA("wgmma.mma_async.sync.aligned.m64n%dk16.f32.bf16.bf16" % BN)
    grid = num_sms if dynamic else min((M // BM) * (N // BN), num_sms or M * N // (BM * BN))

    @T.function
    def gemm(A: T.Tensor((M, K), "bfloat16", align=16),
             W: T.Tensor((N, K), "bfloat16", align=16),
             C: T.Tensor((M, N), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=grid, block=128 * (CONSUMERS + 1)))
        bx = T.cuda.block_idx("x")
        # The shape's K steps and tiles: ints, or index values of the sizes.
        extents = [e.value() if dynamic else e for e in (M, N, K)]
        KT = T.ceildiv(extents[2], BK)
        tiles = TileScheduler(T.ceildiv(extents[0], BM), T.ceildiv(extents[1], BN), GROUP_M,
                              first=bx, stride=grid)
        # A's stages are (STAGES, CONSUMERS, 64, 64): consumer c's rows
        # are a whole number of swizzle periods from the stage's start.
        sa = alloc_swizzled((STAGES, CONSUMERS, 64, BK))
        sw = alloc_swizzled((STAGES, BN, BK))
        cbuf = alloc_swizzled((CONSUMERS, boxes, 64, 64)) if STORE == "tma" else None
        # The stages' full/empty mbarriers: TMA fills a stage with its A
        # and W boxes, the consumer warps (or threads) release it.
        pipe = TmaPipeline(STAGES, buffers=(sa, sw), consumers=CONSUMERS,
                           release="warp" if WARP_RELEASE else "thread")
        roles = WarpSpecialized(CONSUMER_REGISTERS, PRODUCER_REGISTERS)
        roles.init(pipe)
        # The CTA's K steps are numbered on across its tiles (step = round
        # * KT + kb). A runtime K pads each tile's steps to KTP, a multiple
        # of 2 STAGES, with empty steps: step i's stage and parity are then
        # kb's (no product of two runtime values).
        KTP = T.ceildiv(KT, 2 * STAGES) * (2 * STAGES) if dynamic else None

        def step_of(tile):
            return (lambda kb: kb) if dynamic else tiles.k_step(tile, KT)

        def consumer(wg):
            # Warpgroup c = wg - 1 multiplies rows 64 c .. 64 c + 63 of each
            # tile.
            c = wg - 1
            d = mma.accumulator()

            def origin(tile):
                bm, bn = tiles.coordinates(tile)
                return bm * BM + c * 64, bn
            # C's words in two parts: all but DEFERRED right after the
            # tile's last wgmma group, the last DEFERRED (a chunk at a time)
            # while the next tile's first PEEL groups run.
            out = AccumulatorStore(mma, d, C, origin, STORE, cbuf,
                                   NamedBarriers(CONSUMERS, threads=128, first=1), wg, c,
                                   deferred=DEFERRED)
            for tile in tiles.loop():
                mma.mainloop(pipe, d, lambda s: (sa[s, c], sw[s]), KT, step_of(tile), PEEL,
                             out.overlap(tiles, tile, PEEL), KTP)
                out.tile_done(tile)
            out.finish(tiles)

        def producer():
            # One thread issues the TMA loads.
            for tile in tiles.loop():
                bm, bn = tiles.coordinates(tile)

                def load(stage, kb):
                    k = kb * BK
                    stage.load(sa[stage.index].view(BM, BK), A[bm * BM:bm * BM + BM, k:k + BK])
                    stage.load(sw[stage.index], W[bn * BN:bn * BN + BN, k:k + BK])
                produce_k_loop(pipe, KT, load, step_of(tile), KTP)
        roles.run(consumer, producer)

    return gemm


TARGET = {"kind": "cuda", "arch": "sm_90a"}
_compiled = {}


def runtime_sized(num_sms, **config):
    """The kernel for every (M, N, K) (size variables; the launcher takes
    them from the tensors): K and N multiples of 8 (16-byte rows for TMA;
    the launcher refuses others, naming the size)."""
    return make_kernel(T.dynamic("M"), T.dynamic("N", multiple_of=8),
                       T.dynamic("K", multiple_of=8), num_sms=num_sms, **config)


def gemm(a, w, out=None, persistent=True, dynamic=False, **config):
    """a @ w.T for contiguous bfloat16 CUDA matrices a (M, K), w (N, K);
    persistent: one CTA per SM of a's device walks the tiles; dynamic: one
    compiled kernel for every shape (any M; N, K multiples of 8), else one
    per shape (multiples of the blocks)."""
    import tirx
    import torch
    M, K = a.shape
    N = w.shape[0]
    if persistent or dynamic:
        config["num_sms"] = torch.cuda.get_device_properties(a.device).multi_processor_count
    key = (None if dynamic else (M, N, K), tuple(sorted(config.items())))
    if key not in _compiled:
        kernel = runtime_sized(**config) if dynamic else make_kernel(M, N, K, **config)
        _compiled[key] = tirx.compile(kernel, target=TARGET)
    out = torch.empty((M, N), dtype=torch.bfloat16, device=a.device) if out is None else out
    _compiled[key](a, w, out)
    return out


def reference(a, w):
    """(A W^T, |A| |W|^T) in float64: what `check` compares against (torch
    tensors or numpy arrays)."""
    a, w = as_float64(a), as_float64(w)
    return a @ w.T, abs(a) @ abs(w).T


def check(a, w, c, expected=None):
    """Max of |c - A W^T| / (RTOL |A W^T| + ATOL_PER_ABSSUM |A| |W|^T) in
    float64 (<= 1 passes; NaN, an unwritten element, fails;
    examples/python/gemm.py explains the bound)."""
    want, abs_sum = expected or reference(a, w)
    error = abs(as_float64(c) - want) / (RTOL * abs(want) + ATOL_PER_ABSSUM * abs_sum)
    return error.max().item()


# __main__'s (M, N, K): compiled per shape, then one runtime-sized kernel.
CASES = ((128, 256, 64), (256, 512, 320), (384, 768, 192), (1024, 1024, 4096))
DYNAMIC_CASES = ((128, 256, 64), (1, 8, 8), (200, 312, 136), (1000, 1000, 1000),
                 (384, 768, 192), (1024, 1024, 4096))


def inputs(M, N, K, seed=0):
    """__main__'s A (M, K) and W (N, K): N(0, 1) truncated to bfloat16 (the
    low 16 bits of the float32 cleared), float32 numpy arrays."""
    import numpy
    rng = numpy.random.default_rng(seed)
    a, w = (rng.standard_normal(shape).astype(numpy.float32) for shape in ((M, K), (N, K)))
    return tuple((v.view(numpy.uint32) & 0xFFFF0000).view(numpy.float32) for v in (a, w))


if __name__ == "__main__":
    import tirx
    import torch

    def on_gpu(M, N, K):
        return (torch.from_numpy(v).cuda().to(torch.bfloat16) for v in inputs(M, N, K))

    # Each shape one CTA per tile, over 3 CTAs (each walks several tiles:
    # the stage and phase numbering across tiles, the deferred stores of C),
    # and over the device's SMs; K = 64 is one K step, 320 not a multiple of
    # the stages.
    for M, N, K in CASES:
        a, w = on_gpu(M, N, K)
        expected = reference(a, w)
        for num_sms in (None, 3):
            kernel = tirx.compile(make_kernel(M, N, K, num_sms=num_sms), target=TARGET)
            c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.bfloat16)
            kernel(a, w, c)
            ratio = check(a, w, c, expected)
            label = "gemm_hopper %d x %d x %d over %s CTAs" % (
                M, N, K, num_sms or "one CTA per tile:")
            if not ratio <= 1:
                print("FAIL: %s: error %.3g of the bound" % (label, ratio))
                sys.exit(1)
            print("%s: error %.3g of the bf16 bound: OK" % (label, ratio))
        ratio = check(a, w, gemm(a, w, torch.full((M, N), float("nan"), device="cuda",
                                                  dtype=torch.bfloat16)), expected)
        if not ratio <= 1:
            print("FAIL: gemm_hopper %d x %d x %d persistent: error %.3g" % (M, N, K, ratio))
            sys.exit(1)
        print("gemm_hopper %d x %d x %d over the device's SMs: error %.3g: OK" % (M, N, K, ratio))
    # One runtime-sized kernel for every shape: tails of M, N and K (TMA's
    # zero fill and clipping), a K of one step, a shape of one tile (most
    # CTAs without a tile), and the shapes above.
    for M, N, K in DYNAMIC_CASES:
        a, w = on_gpu(M, N, K)
        c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.bfloat16)
        ratio = check(a, w, gemm(a, w, c, dynamic=True))
        label = "gemm_hopper runtime-sized kernel at %d x %d x %d" % (M, N, K)
        if not ratio <= 1:
            print("FAIL: %s: error %.3g of the bound" % (label, ratio))
            sys.exit(1)
        print("%s: error %.3g of the bf16 bound: OK" % (label, ratio))
