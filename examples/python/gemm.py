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
# fall in distinct banks. Everything is in the layouts below: which thread
# copies which 16-byte chunk, which shared row each lane addresses, which
# register holds which fragment word.
import math
import sys

from tirx.atoms import Atom
from tirx.pipeline import CpAsyncPipeline
from tirx.script import tirx as T
from tirx.testing import as_float64
from tirx.layout import S, ComposeLayout, SwizzleLayout, TileLayout
from tirx.cuda.axis import laneid, warpid

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
    warps = WARPS_M * WARPS_N
    threads = warps * 32
    WM, WN = BM // WARPS_M, BN // WARPS_N
    MI, NI = WM // 16, WN // 8          # mma tiles per warp
    KS = BK // 16                       # k16 steps per BK
    KT = K // BK                        # BK steps
    assert M % BM == 0 and N % BN == 0 and K % BK == 0 and STAGES >= 2
    # BK % 32: an even number (>= 2) of k16 steps per stage, so the
    # fragments of the next stage's first step go to buffer 0 after the last
    # mma batch read buffer 1, and the wait + barrier (after the
    # second-to-last step) exist.
    assert KT >= STAGES - 1 and WM % 16 == 0 and WN % 16 == 0 and BK % 32 == 0
    assert (M // BM) % GROUP_M == 0 or M // BM < GROUP_M
    assert EPILOGUE in ("shared", "global")
    group_m = min(GROUP_M, M // BM)
    tiles_n = N // BN
    # Word (b32) extents: two bf16 per word.
    KW, NW = K // 2, N // 2
    AROW, BROW = BK // 2, BN // 2       # shared rows of A and B, in words
    A_STAGE, B_STAGE = BM * AROW, BK * BROW

    def row_swizzle(row_words):
        """The XOR swizzle of shared rows of `row_words` words (docs/gemm.md):
        a row's 16-byte chunk index ^= the row index's low bits, so that 8
        consecutive rows put one chunk column in 8 distinct groups of 4
        banks. Chunks never leave their row (or 128-byte half of it)."""
        chunk_bits = int(math.log2(row_words // 4))
        return SwizzleLayout(2, min(3, chunk_bits), max(3, chunk_bits))
    a_swizzle, b_swizzle = row_swizzle(AROW), row_swizzle(BROW)

    def layout(shape, stride, offset=0, swizzle=None):
        """S[shape : stride] + offset, then `swizzle` (words)."""
        tile = TileLayout(S[shape : stride] + offset if offset else S[shape : stride])
        return ComposeLayout(swizzle, tile) if swizzle else tile

    def chunks(rows, row_words):
        """cp.async's view of a tile of `rows` rows of `row_words` words,
        one 16-byte chunk per thread and repeat: chunk c = r * threads + t of
        thread t in repeat r is row c / (row_words / 4), chunk
        c % (row_words / 4). Shape (warps, 32, repeats, 4 words). Returns
        the repeats and layout(stride): the view whose rows are `stride`
        words apart (global: the matrix's row, shared: the padded one)."""
        per_row = row_words // 4
        assert per_row <= 32 and 32 % per_row == 0 and rows * per_row % threads == 0
        lane_rows = 32 // per_row
        reps = rows * per_row // threads

        def view(stride, swizzle=None):
            return layout((warps, lane_rows, per_row, reps, 4),
                          (lane_rows * stride, stride, 4, threads // per_row * stride, 1),
                          swizzle=swizzle)
        return reps, view

    a_reps, a_chunks = chunks(BM, AROW)
    a_global, a_shared = a_chunks(KW), a_chunks(AROW, a_swizzle)
    b_reps, b_chunks = chunks(BK, BROW)
    b_global, b_shared = b_chunks(NW), b_chunks(BROW, b_swizzle)

    # ldmatrix, A (per k16 step ks): warp (wm, wn), repeat mi, matrix m,
    # row r, word w reads shared row wm WM + 16 mi + 8 (m % 2) + r, word
    # 8 ks + 4 (m / 2) + w: matrix m is mma's A register m. The k16 step is
    # an offset inside the layout, before the swizzle (the stage's region
    # starts at a swizzle period).
    def a_rows(ks):
        return layout((WARPS_M, WARPS_N, MI, 2, 2, 8, 4),
                      (WM * AROW, 0, 16 * AROW, 4, 8 * AROW, AROW, 1), 8 * ks, a_swizzle)

    # ldmatrix.trans, B: repeat nj (a pair of n8 tiles), matrix m reads k
    # rows 16 ks + 8 (m % 2) + r, words wn WN/2 + 4 (2 nj + m / 2) + w:
    # registers (m / 2, m % 2) are B registers (n tile 2 nj + m / 2, m % 2).
    def b_rows(ks):
        return layout((WARPS_M, WARPS_N, NI // 2, 2, 2, 8, 4),
                      (0, WN // 2, 8, 4, 8 * BROW, BROW, 1), 16 * ks * BROW, b_swizzle)
    # Registers: the instructions' fragments (the PTX table's), repeated per
    # warp (MI or NI times, each repeat after the previous one's registers)
    # and over the warps. ldmatrix's: word (m, r, w) in lane 4 r + w,
    # register m; the same registers are mma's A (16 x 8 words) and B
    # (8 x 8 words). Accumulators: (mi, ni) tile's element (r, c) in register
    # 4 (mi NI + ni) + 2 (r / 8) + c % 2 of lane 4 (r % 8) + c / 2.
    ldm, _ = LDMATRIX.tile("d", MI, units=warps)
    ldm_b, _ = LDMATRIX_T.tile("d", NI // 2, units=warps)
    frag_a, _ = MMA.tile("a", MI, units=warps)
    frag_b, _ = MMA.tile("b", NI, units=warps)
    acc_layout, _ = MMA.tile("d", (MI, NI), units=warps)
    acc_regs = MI * NI * 4
    per_thread = TileLayout(S[(warps, 32, acc_regs, 1) : (1 @ warpid, 1 @ laneid, 1, 1)])
    pairs = TileLayout(S[(warps, 32, 2 * NI, 1) : (1 @ warpid, 1 @ laneid, 1, 1)])
    # EPILOGUE "shared": C's words stmatrix'd into a swizzled shared
    # tile of C (its rows are BN / 2 words), pair p = 4 j + m as matrix m of
    # repeat j (ldm_b's registers): row wm WM + 16 mi + 8 (m % 2) + r, word
    # wn WN/2 + 8 j + 4 (m / 2) + w; then copied out in 16-byte chunks.
    CROW = BN // 2
    c_swizzle = row_swizzle(CROW)

    def c_rows(mi):
        return layout((WARPS_M, WARPS_N, NI // 2, 2, 2, 8, 4),
                      (WM * CROW, WN // 2, 8, 4, 8 * CROW, CROW, 1), 16 * mi * CROW, c_swizzle)
    c_reps, c_chunks = chunks(BM, CROW)
    c_words = TileLayout(S[(warps, 32, min(c_reps, 4), 4) : (1 @ warpid, 1 @ laneid, 4, 1)])
    # EPILOGUE "global": C as words, one mi at a time: pair p = 2 ni + h of
    # lane l is row wm WM + 16 mi + 8 h + l / 4, word wn WN/2 + 4 ni + l % 4.
    c_global = TileLayout(S[(WARPS_M, WARPS_N, 8, 4, NI, 2, 1) :
                            (WM * NW, WN // 2, NW, 1, 4, 8 * NW, 1)])

    def apply(name, *operands, **kwargs):
        T.cuda.tile.apply(T.ptx[name], *operands, scope="cta", **kwargs)

    @T.function
    def gemm(A: T.Tensor((M, K), "bfloat16", align=16),
             B: T.Tensor((K, N), "bfloat16", align=16),
             C: T.Tensor((M, N), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=(M // BM) * tiles_n, block=threads))
        # Grouped order: GROUP_M row tiles share their B columns in L2.
        pid = T.cuda.block_idx("x")
        group = pid // (group_m * tiles_n)
        bm = group * group_m + pid % group_m
        bn = (pid % (group_m * tiles_n)) // group_m
        Aw, Bw, Cw = A.view("uint32"), B.view("uint32"), C.view("uint32")
        sa = T.alloc_shared((STAGES * A_STAGE,), "uint32", align=128)
        sb = T.alloc_shared((STAGES * B_STAGE,), "uint32", align=128)
        if EPILOGUE == "shared":
            sc = T.alloc_shared((BM * CROW,), "uint32", align=128)
        pipe = CpAsyncPipeline(STAGES)

        def load(stage, kb, pred):
            """Copies BK step kb into `stage` (when `pred` holds, None:
            always), then commits a group: one per step, so wait_group
            counts steps."""

            def copy(shared, global_tile, reps, shared_layout, global_layout):
                shape = (warps, 32, reps, 4)
                apply("cp.async.cg.shared.global", shared.view(shape, layout=shared_layout),
                      global_tile.view(shape, layout=global_layout), chunk_bytes=16,
                      pred=pred)

            copy(sa[stage * A_STAGE:stage * A_STAGE + A_STAGE],
                 Aw[bm * BM:bm * BM + BM, kb * (BK // 2):kb * (BK // 2) + BK // 2],
                 a_reps, a_shared, a_global)
            copy(sb[stage * B_STAGE:stage * B_STAGE + B_STAGE],
                 Bw[kb * BK:kb * BK + BK, bn * (BN // 2):bn * (BN // 2) + BN // 2],
                 b_reps, b_shared, b_global)
            pipe.commit()

        acc = T.alloc_local((warps, MI, NI, 16, 8), "float32", layout=acc_layout)
        apply("mov.b32", acc.view((warps, 32, acc_regs, 1), layout=per_thread),
              T.float32(0.0))
        # Fragments of two k16 steps: step ks + 1 loads while ks multiplies.
        a = [T.alloc_local((warps, MI, 16, 8), "uint32", layout=frag_a) for _ in range(2)]
        b = [T.alloc_local((warps, NI, 8, 8), "uint32", layout=frag_b) for _ in range(2)]

        def load_fragments(stage, ks):
            LDMATRIX(a[ks % 2].view((warps, MI, 4, 8, 4), layout=ldm),
                     sa[stage * A_STAGE:stage * A_STAGE + A_STAGE].view(
                         (warps, MI, 4, 8, 4), layout=a_rows(ks)), scope="cta")
            LDMATRIX_T(b[ks % 2].view((warps, NI // 2, 4, 8, 4), layout=ldm_b),
                       sb[stage * B_STAGE:stage * B_STAGE + B_STAGE].view(
                           (warps, NI // 2, 4, 8, 4), layout=b_rows(ks)), scope="cta")

        def multiply(ks):
            # One tile.apply for the warp tile: D (MI, NI) x A (MI, K=1) x
            # B (NI, K=1) repeats, one mma per (mi, ni) (docs/matrix.md).
            MMA(acc, a[ks % 2].view(warps, MI, 1, 16, 8), b[ks % 2].view(warps, NI, 1, 8, 8),
                acc, scope="cta")

        def step(kb, s):
            """BK step kb, whose tile is in stage s and whose first k16
            fragments are loaded. Fragments run one k16 step ahead of the
            mma, into the next stage at the last one: its tile is complete
            by then (wait_group, then the barrier, after the mma of the
            second-to-last k16 step), so the barrier's wait overlaps mma
            work instead of stalling before the first mma of a stage."""
            for ks in range(KS):
                if ks + 1 < KS:
                    load_fragments(s, ks + 1)
                else:
                    load_fragments((s + 1) % STAGES, 0)
                if ks == 0:
                    # The stage loaded now was last read before the previous
                    # step's barrier, which every thread has passed.
                    load((s + STAGES - 1) % STAGES, kb + (STAGES - 1),
                         kb + (STAGES - 1) < KT)
                multiply(ks)
                if ks == KS - 2:
                    pipe.consumer_wait()

        for kb in range(STAGES - 1):
            load(kb, kb, None)
        pipe.consumer_wait()
        load_fragments(0, 0)
        # The K loop, one BK step per iteration, its stage computed at run
        # time: each ldmatrix then keeps one set of swizzled row addresses
        # for every stage (a loop unrolled over static stages keeps one set
        # per stage and k16 step alive: 255 registers and spills).
        for kb in T.serial(0, KT):
            step(kb, kb % STAGES)
        pipe.drain()

        # C: pairs of accumulators (columns 2j, 2j + 1) as one bf16x2 word,
        # one row of mma tiles (mi) at a time to keep registers free.
        words = T.alloc_local((warps, 32, 2 * NI, 1), "uint32", layout=pairs)
        halves = acc.view((warps, 32, acc_regs, 1), layout=per_thread).view(
            warps, 32, acc_regs // 2, 2)
        if EPILOGUE == "shared":
            c_tile = Cw[bm * BM:bm * BM + BM, bn * (BN // 2):bn * (BN // 2) + BN // 2]
        for mi in range(MI):
            row = bm * BM + 16 * mi
            apply("cvt.rn.bf16x2.f32", words,
                  halves[:, :, 2 * NI * mi:2 * NI * (mi + 1), 1:2],
                  halves[:, :, 2 * NI * mi:2 * NI * (mi + 1), 0:1])
            if EPILOGUE == "shared":
                apply("stmatrix.sync.aligned.m8n8.x4.shared.b16",
                      sc.view((warps, NI // 2, 4, 8, 4), layout=c_rows(mi)),
                      words.view((warps, NI // 2, 4, 8, 4), layout=ldm_b))
            else:
                apply("st.global.b32",
                      Cw[row:row + BM - 16 * mi, bn * (BN // 2):bn * (BN // 2) + BN // 2]
                      .view((warps, 32, 2 * NI, 1), layout=c_global),
                      words)
        if EPILOGUE == "shared":
            # Every warp's rows are in shared memory; each thread then moves
            # whole 16-byte chunks, a warp whole rows of C.
            T.cuda.cta_sync()
            # (16 registers at a time: the accumulators' registers are
            # still counted against the budget.)
            group = min(c_reps, 4)
            out = T.alloc_local((warps, 32, group, 4), "uint32", layout=c_words)
            shape = (warps, 32, c_reps, 4)
            shared = sc.view(shape, layout=c_chunks(CROW, c_swizzle))
            tile = c_tile.view(shape, layout=c_chunks(NW))
            for g in range(0, c_reps, group):
                apply("ld.shared.v4.b32", out, shared[:, :, g:g + group, :])
                apply("st.global.v4.b32", tile[:, :, g:g + group, :], out)

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
