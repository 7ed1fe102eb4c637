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

from tirx.atoms import Atom
from tirx.pipeline import NamedBarriers, TmaPipeline
from tirx.script import tirx as T
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, wid_in_wg

RTOL = 2.0 ** -7
ATOL_PER_ABSSUM = 2.0 ** -17

TMA_STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"


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
    threads = 128 * (CONSUMERS + 1)
    # K steps whose wgmma groups overlap the previous tile's stores of C
    # (a runtime K may be one step).
    PEEL = 1 if dynamic else max(p for p in (1, 2, 4, 8)
                                 if p <= K // BK and DEFERRED % p == 0)
    assert 0 <= DEFERRED <= BN // 4
    assert STORE in ("global", "tma")
    # STORE "tma": a consumer's C words go out in boxes of 64 columns (16
    # words per thread), through a buffer of the larger part's boxes.
    buffer_boxes = max(BN // 4 - DEFERRED, DEFERRED) // 16
    assert STORE == "global" or (DEFERRED % 16 == 0 and BN % 64 == 0)
    if not dynamic:
        group_m = min(GROUP_M, M // BM)
        assert (M // BM) % group_m == 0
    # The swizzled stages: row r of a box is 128 bytes (64 bf16), its
    # 16-byte chunks XOR-permuted by r % 8 (TMA's and wgmma's 128-byte
    # swizzle); a stage is a whole number of 1024-byte periods.
    sw = "Swizzle[3, 3, 3]"
    # A's stages are (STAGES, CONSUMERS, 64, 64): consumer c's rows are a
    # whole number of periods from the stage's start.
    a_stages = TileLayout("S[(%d, %d, 64, 64) : (%d, 4096, 64, 1)] + %s"
                          % (STAGES, CONSUMERS, BM * 64, sw))
    w_stages = TileLayout("S[(%d, %d, 64) : (%d, 64, 1)] + %s" % (STAGES, BN, BN * 64, sw))
    # wgmma's view of a stage: its 64 (A) or BN (W) rows, k16 slice kk.
    def k_slice(rows, kk):
        return TileLayout("S[(%d, 16) : (64, 1)] + %d + %s" % (rows, 16 * kk, sw))
    # The accumulator: wgmma m64nNk16's fragment, as the PTX table gives it
    # (docs/wgmma.md): S[(4, 2, 8, N / 8, 4, 2) : (1@wid_in_wg, 2, 4@laneid,
    # 4, 1@laneid, 1)].
    wgmma = Atom("wgmma.mma_async.sync.aligned.m64n%dk16.f32.bf16.bf16" % BN)
    acc, acc_shape = wgmma.tile("d")
    regs = BN // 2
    def per_thread(count):
        """count registers per thread of a warpgroup, in order."""
        return TileLayout(S[(4, 32, count, 1) : (1 @ wid_in_wg, 1 @ laneid, 1, 1)])
    # C as words: word q = 2 j + h of lane l in warp w is row 16 w + 8 h +
    # l / 4, word 4 j + l % 4 (registers 4 j + 2 h, +1 hold its columns).
    c_words = None if dynamic else TileLayout(
        S[(4, 8, 4, BN // 8, 2, 1) : (8 * N, N // 2, 1, 4, 4 * N, 1)])
    # The same words in a consumer's shared buffer of 64 x 64 boxes (32
    # words a row, 128-byte swizzled): word q = 16 b + 2 j + h is box b's
    # row 16 w + 8 h + l / 4, word 4 j + l % 4.
    buffer_words = TileLayout("S[(4, 8, 4, %d, 8, 2, 1) : (512, 32, 1, 2048, 4, 256, 1)]"
                              " + Swizzle[2, 3, 3]" % buffer_boxes)
    buffer_layout = TileLayout("S[(%d, %d, 64, 64) : (%d, 4096, 64, 1)] + %s" % (
        CONSUMERS, buffer_boxes, buffer_boxes * 4096, sw))

    if dynamic:
        grid = num_sms
    else:
        tiles = (M // BM) * (N // BN)
        grid = min(tiles, num_sms) if num_sms else tiles

    def tile_coordinates(tile, tiles_m, tiles_n):
        """Grouped order: GROUP_M row tiles share their W columns in L2 (a
        runtime shape's last group may have fewer rows)."""
        if not dynamic:
            group = tile // (group_m * tiles_n)
            bm = group * group_m + tile % group_m
            bn = (tile % (group_m * tiles_n)) // group_m
            return bm, bn
        first = tile // (GROUP_M * tiles_n) * GROUP_M
        rows = T.if_then_else(tiles_m - first < GROUP_M, tiles_m - first, GROUP_M)
        in_group = tile % (GROUP_M * tiles_n)
        return first + in_group % rows, in_group // rows

    @T.function
    def gemm(A: T.Tensor((M, K), "bfloat16", align=16),
             W: T.Tensor((N, K), "bfloat16", align=16),
             C: T.Tensor((M, N), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=grid, block=threads))
        bx = T.cuda.block_idx("x")
        # The shape's K steps and tiles: ints, or index values of the sizes.
        extents = [e.value() if dynamic else e for e in (M, N, K)]
        KT = T.ceildiv(extents[2], BK)
        tiles_m, tiles_n = T.ceildiv(extents[0], BM), T.ceildiv(extents[1], BN)
        tiles = tiles_m * tiles_n
        sa = T.alloc_shared((STAGES, CONSUMERS, 64, BK), "bfloat16", align=1024, layout=a_stages)
        sw_ = T.alloc_shared((STAGES, BN, BK), "bfloat16", align=1024, layout=w_stages)
        if STORE == "tma":
            cbuf = T.alloc_shared((CONSUMERS, buffer_boxes, 64, 64), "bfloat16", align=1024,
                                  layout=buffer_layout)
        # The stages' full/empty mbarriers: TMA fills a stage with its A
        # and W boxes, the consumer warps (or threads) release it.
        pipe = TmaPipeline(STAGES, buffers=(sa, sw_), consumers=CONSUMERS,
                           release="warp" if WARP_RELEASE else "thread")
        # Each consumer warpgroup's own barrier (ids 1 .. CONSUMERS, its wg).
        consumer_barriers = NamedBarriers(CONSUMERS, threads=128, first=1)
        tid = T.cuda.thread_idx("x")
        wg = tid // 128
        with T.If(tid == 0):
            with T.Then():
                pipe.init()
        T.cuda.cta_sync()

        # The CTA's tiles: bx, bx + grid, ... Its K steps are numbered on
        # across its tiles (step = round * KT + kb): producer and consumers
        # walk the same steps (the pipeline derives stage and parity). A
        # runtime K pads each tile's steps to KTP, a multiple of 2 STAGES,
        # with empty steps (an arrival on each barrier, no data): step i's
        # stage and parity are then kb's (no product of two runtime values).
        if dynamic:
            KTP = T.ceildiv(KT, 2 * STAGES) * (2 * STAGES)

        def step_of(tile, kb):
            return kb if dynamic else (tile - bx) // grid * KT + kb

        with T.If(wg >= 1):
            with T.Then():
                # The consumers: warpgroup c multiplies rows 64 c .. 64 c + 63
                # of each tile.
                T.cuda.tile.apply(T.ptx["setmaxnreg.inc.sync.aligned.u32"],
                                  T.int32(CONSUMER_REGISTERS), scope="warpgroup")
                c = wg - 1
                d = T.alloc_local(acc_shape, "float32", layout=acc)
                # C as bf16x2 words (pairs of accumulators), in two parts:
                # the first words - DEFERRED right after the tile's last
                # wgmma group, the last DEFERRED a chunk at a time while the
                # next tile's first PEEL groups run (none: the whole tile at
                # once).
                nwords = regs // 2
                now = nwords - DEFERRED
                deferred = T.alloc_local((4, 32, max(DEFERRED, 1), 1), "uint32",
                                         layout=per_thread(max(DEFERRED, 1)))
                Cw = None if dynamic else C.view("uint32")
                halves = d.view((4, 32, regs, 1), layout=per_thread(regs)).view(
                    4, 32, nwords, 2)

                def c_view(tile):
                    bm, bn = tile_coordinates(tile, tiles_m, tiles_n)
                    row = bm * BM + c * 64
                    return Cw[row:row + 64, bn * (BN // 2):bn * (BN // 2) + BN // 2].view(
                        (4, 32, nwords, 1), layout=c_words)

                def convert(out, first, count):
                    T.cuda.tile.apply(T.ptx["cvt.rn.bf16x2.f32"], out,
                                      halves[:, :, first:first + count, 1:2],
                                      halves[:, :, first:first + count, 0:1], scope="warpgroup")

                def store_through_shared(tile, words, first, count):
                    """Words first .. first + count of tile's C (registers
                    `words`) through the consumer's shared buffer: once the
                    buffer's previous TMA store has read it, every thread
                    writes its words, fences them for the async proxy, and
                    one thread stores each 64-column box."""
                    boss = tid % 128 == 0
                    with T.If(boss):
                        with T.Then():
                            T.cuda.tile.apply(T.ptx["cp.async.bulk.wait_group.read"],
                                              T.int32(0), scope="thread")
                    consumer_barriers.sync(wg)
                    buffer = cbuf[c].view("uint32").view((4, 32, buffer_boxes * 16, 1),
                                                         layout=buffer_words)
                    T.cuda.tile.apply(T.ptx["st.shared.b32"], buffer[:, :, 0:count, :], words,
                                      scope="warpgroup")
                    T.ptx.fence.proxy.async_.shared__cta()
                    consumer_barriers.sync(wg)
                    with T.If(boss):
                        with T.Then():
                            bm, bn = tile_coordinates(tile, tiles_m, tiles_n)
                            row = bm * BM + c * 64
                            for b in range(count // 16):
                                col = bn * BN + (first // 16 + b) * 64
                                T.cuda.tile.apply(T.ptx[TMA_STORE], C[row:row + 64, col:col + 64],
                                                  cbuf[c, b], scope="thread")
                            T.cuda.tile.apply(T.ptx["cp.async.bulk.commit_group"], scope="thread")

                def store_chunk(tile, chunk, chunks):
                    """Chunk `chunk` of `chunks` of tile's deferred words."""
                    if STORE == "tma":
                        if chunk == 0:
                            store_through_shared(tile, deferred[:, :, 0:DEFERRED, :], now,
                                                 DEFERRED)
                        return
                    size = DEFERRED // chunks
                    T.cuda.tile.apply(T.ptx["st.global.b32"],
                                      c_view(tile)[:, :, now + chunk * size:
                                                   now + (chunk + 1) * size, :],
                                      deferred[:, :, chunk * size:(chunk + 1) * size, :],
                                      scope="warpgroup")

                def k_step(tile, kb, first):
                    s = pipe.consumer_wait(step_of(tile, kb))
                    a_rows = sa[s, c]
                    w_rows = sw_[s]
                    T.cuda.tile.apply(T.ptx["wgmma.fence.sync.aligned"], scope="warpgroup")
                    for kk in range(BK // 16):
                        # The tile's first product overwrites D (scale-d 0).
                        wgmma(d, a_rows.view((64, 16), layout=k_slice(64, kk)),
                              w_rows.view((BN, 16), layout=k_slice(BN, kk)),
                              scale_d=0 if (first and kk == 0) else 1)
                    T.cuda.tile.apply(T.ptx["wgmma.commit_group.sync.aligned"],
                                      scope="warpgroup")

                def release_previous(tile, kb):
                    # One group in flight: once the previous step's group is
                    # complete, its stage goes back to the producer.
                    T.cuda.tile.apply(T.ptx["wgmma.wait_group.sync.aligned"], T.int32(1),
                                      scope="warpgroup")
                    pipe.consumer_release(step_of(tile, kb) - 1)

                for tile in T.serial(bx, tiles, grid):
                    # The first PEEL steps, unrolled: while their groups run,
                    # the previous tile's C goes out (none before the first).
                    for kb in range(PEEL):
                        k_step(tile, kb, kb == 0)
                        if DEFERRED:
                            with T.If(tile >= bx + grid):
                                with T.Then():
                                    store_chunk(tile - grid, kb, PEEL)
                        if kb >= 1:
                            release_previous(tile, kb)
                    for kb in T.serial(PEEL, KT):
                        k_step(tile, kb, False)
                        release_previous(tile, kb)
                    T.cuda.tile.apply(T.ptx["wgmma.wait_group.sync.aligned"], T.int32(0),
                                      scope="warpgroup")
                    pipe.consumer_release(step_of(tile, KT - 1))
                    if dynamic:
                        # The padding steps: their stages go straight back.
                        for kb in T.serial(KT, KTP):
                            pipe.consumer_wait(kb)
                            pipe.consumer_release(kb)
                    if now:
                        words = T.alloc_local((4, 32, now, 1), "uint32", layout=per_thread(now))
                        convert(words, 0, now)
                        if STORE == "tma":
                            store_through_shared(tile, words, 0, now)
                        else:
                            T.cuda.tile.apply(T.ptx["st.global.b32"], c_view(tile)[:, :, 0:now, :],
                                              words, scope="warpgroup")
                    if DEFERRED:
                        convert(deferred, now, DEFERRED)
                if DEFERRED:
                    # The CTA's last tile's deferred words (a runtime shape
                    # may leave a CTA without tiles).
                    last_tile = bx + (tiles - 1 - bx) // grid * grid
                    if dynamic:
                        with T.If(bx < tiles):
                            with T.Then():
                                store_chunk(last_tile, 0, 1)
                    else:
                        store_chunk(last_tile, 0, 1)
                if STORE == "tma":
                    # The buffer's last TMA stores complete before the CTA
                    # (and its shared memory) goes.
                    with T.If(tid % 128 == 0):
                        with T.Then():
                            T.cuda.tile.apply(T.ptx["cp.async.bulk.wait_group"], T.int32(0),
                                              scope="thread")
            with T.Else():
                # The producer: one thread issues the TMA loads.
                T.cuda.tile.apply(T.ptx["setmaxnreg.dec.sync.aligned.u32"],
                                  T.int32(PRODUCER_REGISTERS), scope="warpgroup")
                with T.If(tid == 0):
                    with T.Then():
                        for tile in T.serial(bx, tiles, grid):
                            bm, bn = tile_coordinates(tile, tiles_m, tiles_n)
                            for kb in T.serial(0, KT):
                                with pipe.produce(step_of(tile, kb)) as stage:
                                    k = kb * BK
                                    stage.load(sa[stage.index].view(BM, BK),
                                               A[bm * BM:bm * BM + BM, k:k + BK])
                                    stage.load(sw_[stage.index], W[bn * BN:bn * BN + BN, k:k + BK])
                            if dynamic:
                                # The padding steps: one arrival completes
                                # each (no bytes expected).
                                for kb in T.serial(KT, KTP):
                                    pipe.produce_empty(kb)

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


def _float64(values):
    """A torch tensor or numpy array as float64."""
    if hasattr(values, "double"):
        return values.double()
    import numpy
    return numpy.asarray(values, dtype=numpy.float64)


def reference(a, w):
    """(A W^T, |A| |W|^T) in float64: what `check` compares against (torch
    tensors or numpy arrays)."""
    a, w = _float64(a), _float64(w)
    return a @ w.T, abs(a) @ abs(w).T


def check(a, w, c, expected=None):
    """Max of |c - A W^T| / (RTOL |A W^T| + ATOL_PER_ABSSUM |A| |W|^T) in
    float64 (<= 1 passes; NaN, an unwritten element, fails;
    examples/python/gemm.py explains the bound)."""
    want, abs_sum = expected or reference(a, w)
    error = abs(_float64(c) - want) / (RTOL * abs(want) + ATOL_PER_ABSSUM * abs_sum)
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
