# bf16 GEMM on Hopper's asynchronous path (docs/hopper-gemm.md): C = A @ W^T
# with A (M, K) and W (N, K) row-major bfloat16 (W as torch.nn.Linear keeps
# its weight), f32 accumulation, C (M, N) bfloat16. Every instruction is
# named:
#
#   cp.async.bulk.tensor.2d...mbarrier::complete_tx::bytes   TMA: one thread
#       of the producer warpgroup loads the A and W boxes of a K step into a
#       pipeline stage, 128-byte swizzled, completing on the stage's `full`
#       mbarrier (mbarrier.arrive.expect_tx arms it with the bytes);
#   mbarrier.try_wait.parity   the consumers wait for a stage to be full, the
#       producer for it to be empty (every consumer thread arrives on the
#       stage's `empty` mbarrier once its wgmma group has read it);
#   wgmma.mma_async...m64n256k16.f32.bf16.bf16   each of the two consumer
#       warpgroups multiplies its 64 rows of the CTA's 128 x 256 tile, A and
#       W straight from the swizzled stage through descriptors the compiler
#       derives from the layouts, with wgmma.fence / commit_group /
#       wait_group 1 (one group in flight);
#   setmaxnreg.{dec,inc}   the producer gives its registers to the consumers
#       (each holds 128 f32 accumulators);
#   cvt.rn.bf16x2.f32 + st.global.b32 for C.
import sys

from tirx.script import tirx as T
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, wid_in_wg

RTOL = 2.0 ** -7
ATOL_PER_ABSSUM = 2.0 ** -17

TMA_LOAD = ("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
            "mbarrier::complete_tx::bytes")


def make_kernel(M, N, K, BM=128, BN=256, BK=64, STAGES=4, CONSUMERS=2,
                PRODUCER_REGISTERS=40, CONSUMER_REGISTERS=232, GROUP_M=8):
    """A kernel for static (M, N, K), each a multiple of its block size."""
    assert BK == 64, "one 128-byte swizzle row of bf16 per K step"
    assert BM == 64 * CONSUMERS and M % BM == 0 and N % BN == 0 and K % BK == 0
    assert BN % 8 == 0 and 8 <= BN <= 256
    threads = 128 * (CONSUMERS + 1)
    KT = K // BK
    tiles_n = N // BN
    group_m = min(GROUP_M, M // BM)
    assert (M // BM) % group_m == 0
    stage_bytes = (BM + BN) * BK * 2
    NW = N // 2                         # C's row in b32 words
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
    # The accumulator: wgmma m64nNk16's fragment (docs/wgmma.md).
    acc = TileLayout(S[(4, 2, 8, BN // 8, 4, 2)
                       : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
    regs = BN // 2
    per_thread = TileLayout(S[(4, 32, regs, 1) : (1 @ wid_in_wg, 1 @ laneid, 1, 1)])
    words_layout = TileLayout(S[(4, 32, regs // 2, 1) : (1 @ wid_in_wg, 1 @ laneid, 1, 1)])
    # C as words: word q = 2 j + h of lane l in warp w is row 16 w + 8 h +
    # l / 4, word 4 j + l % 4 (registers 4 j + 2 h, +1 hold its columns).
    c_words = TileLayout(S[(4, 8, 4, BN // 8, 2, 1) : (16 * NW, NW, 1, 4, 8 * NW, 1)])

    @T.function
    def gemm(A: T.Tensor((M, K), "bfloat16", align=16),
             W: T.Tensor((N, K), "bfloat16", align=16),
             C: T.Tensor((M, N), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=(M // BM) * tiles_n, block=threads))
        # Grouped order: group_m row tiles share their W columns in L2.
        pid = T.cuda.block_idx("x")
        group = pid // (group_m * tiles_n)
        bm = group * group_m + pid % group_m
        bn = (pid % (group_m * tiles_n)) // group_m
        sa = T.alloc_shared((STAGES, CONSUMERS, 64, BK), "bfloat16", align=1024, layout=a_stages)
        sw_ = T.alloc_shared((STAGES, BN, BK), "bfloat16", align=1024, layout=w_stages)
        full = T.alloc_shared((STAGES,), "uint64", align=8)
        empty = T.alloc_shared((STAGES,), "uint64", align=8)
        tid = T.cuda.thread_idx("x")
        wg = tid // 128
        with T.If(tid == 0):
            with T.Then():
                for s in range(STAGES):
                    T.ptx.mbarrier.init(full.ptr_to([s]), 1)
                    T.ptx.mbarrier.init(empty.ptr_to([s]), 128 * CONSUMERS)
                T.ptx.fence.proxy.async_.shared__cta()
        T.cuda.cta_sync()

        # Warpgroup 0 produces, warpgroups 1.. consume (a comparison the
        # bounds proof reads in both branches).
        with T.If(wg >= 1):
            with T.Then():
                # The consumers: warpgroup c multiplies rows 64 c .. 64 c + 63.
                T.cuda.tile.apply(T.ptx["setmaxnreg.inc.sync.aligned.u32"],
                                  T.int32(CONSUMER_REGISTERS), scope="warpgroup")
                c = wg - 1
                d = T.alloc_local((64, BN), "float32", layout=acc)
                T.cuda.tile.apply(T.ptx["mov.b32"],
                                  d.view((4, 32, regs, 1), layout=per_thread),
                                  T.float32(0.0), scope="warpgroup")

                def consume(kb, s, parity):
                    T.ptx.mbarrier.try_wait(full.ptr_to([s]), parity)
                    a_rows = sa[s, c]
                    T.cuda.tile.apply(T.ptx["wgmma.fence.sync.aligned"], scope="warpgroup")
                    for kk in range(BK // 16):
                        T.cuda.tile.apply(
                            T.ptx["wgmma.mma_async.sync.aligned.m64n%dk16.f32.bf16.bf16" % BN],
                            d, a_rows.view((64, 16), layout=k_slice(64, kk)),
                            sw_[s].view((BN, 16), layout=k_slice(BN, kk)),
                            scale_d=1, scope="warpgroup")
                    T.cuda.tile.apply(T.ptx["wgmma.commit_group.sync.aligned"],
                                      scope="warpgroup")
                    T.cuda.tile.apply(T.ptx["wgmma.wait_group.sync.aligned"], T.int32(0),
                                      scope="warpgroup")
                    T.ptx.mbarrier.arrive(empty.ptr_to([s]))

                main = KT - KT % STAGES
                for kb0 in T.serial(0, main, STAGES):
                    parity = T.int32((kb0 // STAGES) % 2)
                    for s in range(STAGES):
                        consume(kb0 + s, s, parity)
                for s in range(KT % STAGES):
                    consume(main + s, s, (main // STAGES) % 2)

                # C: pairs of accumulators as bf16x2 words.
                words = T.alloc_local((4, 32, regs // 2, 1), "uint32", layout=words_layout)
                halves = d.view((4, 32, regs, 1), layout=per_thread).view(4, 32, regs // 2, 2)
                T.cuda.tile.apply(T.ptx["cvt.rn.bf16x2.f32"], words, halves[:, :, :, 1:2],
                                  halves[:, :, :, 0:1], scope="warpgroup")
                Cw = C.view("uint32")
                row = bm * BM + c * 64
                T.cuda.tile.apply(T.ptx["st.global.b32"],
                                  Cw[row:row + 64, bn * (BN // 2):bn * (BN // 2) + BN // 2]
                                  .view((4, 32, regs // 2, 1), layout=c_words),
                                  words, scope="warpgroup")

            with T.Else():
                # The producer.
                T.cuda.tile.apply(T.ptx["setmaxnreg.dec.sync.aligned.u32"],
                                  T.int32(PRODUCER_REGISTERS), scope="warpgroup")
                with T.If(tid == 0):
                    with T.Then():
                        def produce(kb, s, parity):
                            # Round 0 waits on parity 1: a fresh barrier's
                            # previous phase counts as complete.
                            T.ptx.mbarrier.try_wait(empty.ptr_to([s]), parity)
                            T.ptx.mbarrier.arrive.expect_tx(full.ptr_to([s]), stage_bytes)
                            k = kb * BK
                            T.cuda.tile.apply(T.ptx[TMA_LOAD], sa[s].view(BM, BK),
                                              A[bm * BM:bm * BM + BM, k:k + BK],
                                              full.ptr_to([s]), scope="thread")
                            T.cuda.tile.apply(T.ptx[TMA_LOAD], sw_[s],
                                              W[bn * BN:bn * BN + BN, k:k + BK],
                                              full.ptr_to([s]), scope="thread")
                        main = KT - KT % STAGES
                        for kb0 in T.serial(0, main, STAGES):
                            parity = T.int32(1 - (kb0 // STAGES) % 2)
                            for s in range(STAGES):
                                produce(kb0 + s, s, parity)
                        for s in range(KT % STAGES):
                            produce(main + s, s, 1 - (main // STAGES) % 2)
    return gemm


TARGET = {"kind": "cuda", "arch": "sm_90a"}
_compiled = {}


def gemm(a, w, out=None, **config):
    """a @ w.T for contiguous bfloat16 CUDA matrices a (M, K), w (N, K)."""
    import tirx
    import torch
    M, K = a.shape
    N = w.shape[0]
    key = (M, N, K, tuple(sorted(config.items())))
    if key not in _compiled:
        _compiled[key] = tirx.compile(make_kernel(M, N, K, **config), target=TARGET)
    out = torch.empty((M, N), dtype=torch.bfloat16, device=a.device) if out is None else out
    _compiled[key](a, w, out)
    return out


def reference(a, w):
    return a.double() @ w.double().T, a.double().abs() @ w.double().abs().T


def check(a, w, c, expected=None):
    want, abs_sum = expected or reference(a, w)
    error = (c.double() - want).abs() / (RTOL * want.abs() + ATOL_PER_ABSSUM * abs_sum)
    return error.max().item()


if __name__ == "__main__":
    import torch

    torch.manual_seed(0)
    for M, N, K in ((128, 256, 64), (256, 512, 1024), (1024, 1024, 4096)):
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        w = torch.randn(N, K, device="cuda", dtype=torch.bfloat16)
        c = gemm(a, w)
        ratio = check(a, w, c)
        if not ratio <= 1:
            print("FAIL: gemm %dx%dx%d: error %.3g of the bound" % (M, N, K, ratio))
            sys.exit(1)
        print("gemm %d x %d x %d: error %.3g of the bf16 bound: OK" % (M, N, K, ratio))
