# bf16 GEMM on the tensor cores, before Hopper's wgmma: C = A @ B with A
# (M, K) and B (K, N) row-major bfloat16, f32 accumulation, C bfloat16.
# Every instruction is named (docs/matrix.md, docs/async-copies.md):
#
#   cp.async.cg.shared.global     global -> shared, 16 bytes per thread,
#                                  STAGES tiles in flight (commit_group /
#                                  wait_group STAGES-2, then a barrier);
#   ldmatrix...x4.shared.b16       shared -> mma's A fragments;
#   ldmatrix...x4.trans.shared.b16 shared -> mma's B fragments (B is
#                                  row-major, the fragment column-major);
#   mma.sync...m16n8k16.row.col.f32.bf16.bf16.f32;
#   cvt.rn.bf16x2.f32, stmatrix...x4.shared.b16 into a shared tile of C,
#                                  then ld.shared.v4.b32 + st.global.v4.b32
#                                  (EPILOGUE "global": st.global.b32 from
#                                  the registers).
#
# The CTA computes a BM x BN tile of C with WARPS_M x WARPS_N warps, each a
# WM x WN tile (WM / 16 x WN / 8 mma accumulators). Shared rows are stored
# unpadded with their 16-byte chunks XOR-swizzled by the row index, so that
# both the 8 row addresses of each ldmatrix and each warp's cp.async writes
# fall in distinct banks. Everything is in layouts: which thread copies
# which 16-byte chunk, which shared row each lane addresses, which register
# holds which fragment word — tirx.gemm.WarpTiledMMA builds them from the
# atoms below and the tile sizes (docs/gemm.md walks through them).
import sys

from tirx.atoms import Atom
from tirx.gemm import TileScheduler, WarpTiledMMA
from tirx.pipeline import CpAsyncPipeline
from tirx.script import tirx as T
from tirx.testing import as_float64

MMA = Atom("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")
LDMATRIX = Atom("ldmatrix.sync.aligned.m8n8.x4.shared.b16")
LDMATRIX_T = Atom("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16")

# Accuracy check: |C - C_f64| <= 2^-7 |C_f64| + 2^-17 sum |a b|. The first
# term covers the bf16 rounding of C (half an ulp is at most 2^-8 of |C|);
# the second the f32 accumulation, whose worst case is K * 2^-24 * sum |a b|
# (2^-17 at K = 128, 2^-11 at K = 8192), but whose rounding errors on random
# N(0, 1) inputs cancel like a random walk (~sqrt(K) * 2^-24): a check for
# such test data, not a bound for every input.
RTOL = 2.0 ** -7
ATOL_PER_ABSSUM = 2.0 ** -17


def make_kernel(M, N, K, BM=128, BN=128, BK=32, WARPS_M=2, WARPS_N=2, STAGES=4,
                GROUP_M=8, EPILOGUE="shared"):
    """A kernel for static (M, N, K), each a multiple of its block size."""
    assert M % BM == 0 and N % BN == 0 and K % BK == 0 and STAGES >= 2
    # BK % 32: an even number (>= 2) of k16 steps per stage, so the
    # fragments of the next stage's first step go to buffer 0 after the last
    # mma batch read buffer 1, and the wait + barrier (after the
    # second-to-last step) exist.
    assert K // BK >= STAGES - 1 and (BM // WARPS_M) % 16 == 0 and (BN // WARPS_N) % 16 == 0
    assert BK % 32 == 0 and ((M // BM) % GROUP_M == 0 or M // BM < GROUP_M)
    assert EPILOGUE in ("shared", "global")
    # The CTA's BM x BN tile over WARPS_M x WARPS_N warps: the atoms'
    # fragments tiled over the warps, the shared rows XOR-swizzled.
    tiled = WarpTiledMMA(MMA, LDMATRIX, LDMATRIX_T, WARPS_M, WARPS_N, BM, BN, BK)
    tiles = TileScheduler(M // BM, N // BN, GROUP_M)

    @T.function
    def gemm(A: T.Tensor((M, K), "bfloat16", align=16),
             B: T.Tensor((K, N), "bfloat16", align=16),
             C: T.Tensor((M, N), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=tiles.tiles, block=tiled.warps * 32))
        # Grouped order: GROUP_M row tiles share their B columns in L2.
        bm, bn = tiles.coordinates(T.cuda.block_idx("x"))
        Aw, Bw, Cw = A.view("uint32"), B.view("uint32"), C.view("uint32")
        stages = tiled.alloc_stages(STAGES)
        sc = T.alloc_shared((BM * BN // 2,), "uint32", align=128) if EPILOGUE == "shared" else None
        pipe = CpAsyncPipeline(STAGES)

        def load(stage, kb, pred):
            """K block kb into `stage` (when `pred` holds; None: always),
            one commit group per block: wait_group counts blocks."""
            tiled.copy_stage("cp.async.cg.shared.global", stages, stage, Aw, Bw, bm, bn, kb,
                             chunk_bytes=16, pred=pred)
            pipe.commit()

        acc = tiled.accumulator()
        tiled.mainloop(pipe, stages, acc, K // BK, load)
        # C as bf16x2 words, through the shared tile or straight out.
        tiled.store(acc, Cw, bm, bn, sc)

    return gemm


_compiled = {}


def gemm(a, b, out=None, max_registers=0, **config):
    """a @ b for contiguous bfloat16 CUDA matrices (shapes multiples of the
    block sizes); `max_registers` caps ptxas's registers per thread (0: its
    choice), e.g. 128 so that two 256-thread CTAs share an SM."""
    import torch
    M, K = a.shape
    N = b.shape[1]
    out = torch.empty((M, N), dtype=torch.bfloat16, device=a.device) if out is None else out
    compiled(M, N, K, max_registers, **config)(a, b, out)
    return out


def compiled(M, N, K, max_registers=0, **config):
    """The kernel gemm() launches for this shape and configuration,
    compiled once."""
    import tirx
    key = (M, N, K, max_registers, tuple(sorted(config.items())))
    if key not in _compiled:
        target = {"kind": "cuda", "max_registers": max_registers} if max_registers else "cuda"
        _compiled[key] = tirx.compile(make_kernel(M, N, K, **config), target=target)
    return _compiled[key]


def reference(a, b):
    """(A@B, |A|@|B|) in float64: what `check` compares against (torch
    tensors or numpy arrays)."""
    a, b = as_float64(a), as_float64(b)
    return a @ b, abs(a) @ abs(b)


def check(a, b, c, expected=None):
    """Max of |c - A@B| / (RTOL |A@B| + ATOL_PER_ABSSUM |A|@|B|), in float64
    (<= 1 passes; NaN, an unwritten element of a poisoned output, fails);
    `expected` is `reference(a, b)` when already computed."""
    want, abs_sum = expected or reference(a, b)
    error = abs(as_float64(c) - want) / (RTOL * abs(want) + ATOL_PER_ABSSUM * abs_sum)
    return error.max().item()


CASES = ((256, 256, 128), (512, 384, 1024), (1024, 1024, 4096))  # __main__'s (M, N, K)


def inputs(M, N, K, seed=0):
    """__main__'s A (M, K) and B (K, N): N(0, 1) truncated to bfloat16 (the
    low 16 bits of the float32 cleared), float32 numpy arrays."""
    import numpy
    rng = numpy.random.default_rng(seed)
    a, b = (rng.standard_normal(shape).astype(numpy.float32) for shape in ((M, K), (K, N)))
    return tuple((v.view(numpy.uint32) & 0xFFFF0000).view(numpy.float32) for v in (a, b))


if __name__ == "__main__":
    import torch

    for M, N, K in CASES:
        a, b = (torch.from_numpy(v).cuda().to(torch.bfloat16) for v in inputs(M, N, K))
        c = gemm(a, b, torch.full((M, N), float("nan"), device="cuda", dtype=torch.bfloat16))
        ratio = check(a, b, c)
        if not ratio <= 1:
            print("FAIL: gemm %dx%dx%d: error %.3g of the bound" % (M, N, K, ratio))
            sys.exit(1)
        print("gemm %d x %d x %d: error %.3g of the bf16 bound: OK" % (M, N, K, ratio))
