"""GPU check of mma.sync's (M, N, K)-structured repeats: runs the PTX of
test/Pipeline/mma-repeats.mlir (one warp, D and C 2 x 2 m16n8 tiles, A 2 x 2
and B 2 x 2 k16 tiles: eight mma, the second k step accumulating into D) on
random bf16 inputs packed per the operands' layouts (the TirX layout API
says which lane and register holds each word) and compares D with
sum_k A(m, k) B(n, k) + C(m, n) in float64 (f32 accumulation: 1e-4 of the
largest |D|). Usage: run_mma_repeats.py MMA_MNK.ptx (cupy, numpy)."""
import os
import sys
import numpy as np
import cupy as cp
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "python"))
from tirx.layout import TileLayout

def owners(layout, shape):
    """(lane, slot) of every element of `shape`, row-major."""
    L = TileLayout(layout)
    out = []
    for flat in range(int(np.prod(shape))):
        coord = np.unravel_index(flat, shape)
        c = L.apply(*[int(x) for x in coord], shape=shape)
        out.append((c.get("laneid", 0), c["m"]))
    return out

ACC = "S[(2, 2, 2, 8, 4, 2) : (8, 4, 2, 4@laneid, 1@laneid, 1)]"
A_L = "S[(2, 2, 2, 8, 2, 4) : (8, 4, 1, 4@laneid, 2, 1@laneid)]"
B_L = "S[(2, 2, 8, 2, 4) : (4, 2, 4@laneid, 1, 1@laneid)]"
rng = np.random.default_rng(0)
def bf16(x):  # round to bf16, as uint16 bits and as float
    u = x.astype(np.float32).view(np.uint32)
    u = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return u, (u.astype(np.uint32) << 16).view(np.float32)
Am = rng.standard_normal((2, 2, 16, 16))   # (m, k, row, kcol)
Bm = rng.standard_normal((2, 2, 16, 8))    # (n, k, krow, col): B(k, n)
Cm = rng.standard_normal((2, 2, 16, 8)).astype(np.float32)
Au, Af = bf16(Am); Bu, Bf = bf16(Bm)
# A words (m, k, r, w): halves (r, 2w), (r, 2w+1); B words (n, k, col, w): (2w, col), (2w+1, col).
Aw = (Au[..., 0::2].astype(np.uint32) | (Au[..., 1::2].astype(np.uint32) << 16))
Bt = np.transpose(Bu, (0, 1, 3, 2))  # (n, k, col, krow)
Bw = (Bt[..., 0::2].astype(np.uint32) | (Bt[..., 1::2].astype(np.uint32) << 16))
def pack(words, layout, slots):
    g = np.zeros((32, slots), np.uint32)
    for (lane, slot), v in zip(owners(layout, words.shape), words.reshape(-1)):
        g[lane, slot] = v
    return g
Ag = pack(Aw, A_L, 16); Bg = pack(Bw, B_L, 8); Cg = pack(Cm.view(np.uint32), ACC, 16)
mod = cp.RawModule(path=sys.argv[1])
D = cp.full((32, 16), 0xFFFFFFFF, dtype=cp.uint32)
mod.get_function("mma_mnk")((1,), (32,), (cp.asarray(Ag), cp.asarray(Bg), cp.asarray(Cg), D))
Dg = cp.asnumpy(D)
got = np.zeros((2, 2, 16, 8), np.float32)
for (lane, slot), idx in zip(owners(ACC, (2, 2, 16, 8)), range(2 * 2 * 16 * 8)):
    got.reshape(-1)[idx] = Dg[lane, slot].view(np.float32)
want = np.zeros((2, 2, 16, 8))
for m in range(2):
    for n in range(2):
        want[m, n] = Cm[m, n] + sum(Af[m, k].astype(np.float64) @ Bf[n, k].astype(np.float64) for k in range(2))
err = np.abs(got - want).max()
scale = np.abs(want).max()
print("max |D - float64| = %.3g (|D| up to %.3g)" % (err, scale))
print("%s: mma (M, N, K) repeats, 2 x 2 x 2 tiles against float64" % (
    "PASS" if err <= 1e-4 * scale else "FAIL"))
sys.exit(0 if err <= 1e-4 * scale else 1)
