#!/usr/bin/env python3
"""Runs the matrix suite on a GPU: every mma.sync, ldmatrix, stmatrix and
cp.async form's TirX kernels against their nvcc inline-asm references, on
the same inputs, compared bit for bit. Usage:

    run.py DIR [RESULTS.md] [--quick] [--exit-zero] [--only=NAME] [--dry]
           [--dry-break=KERNEL] [--record=GOLDEN.npz]

DIR comes from gen.py + tirx-opt + nvcc (test/gpu/run.sh, the GPU bundle):
FORM.mlir compiled to FORM.ptx (FORM.err when tirx-opt refused it),
reference.cu compiled to reference.cubin, cases.json. Every kernel runs 256
warps (gen.py's docstring: thread t holds W consecutive words of each
operand, its fragment registers, one fragment per repeat) and is launched
once per data set:

- normal:  A, B, C drawn from N(0, 1) (no subnormal inputs).
- wide:    N(0, 1) scaled by 2^e, e uniform in a range per type (f16 inputs
           2^-10..2^10, bf16 2^-40..2^40, C to match), no subnormal inputs:
           products of very different magnitudes, where the tensor cores'
           alignment and rounding show.
- special: eight kinds of fragment, fragment f of kind f % 8: NaN inputs
           (quiet, signaling, negative, with payloads) in A, B and C;
           +-inf; inf * 0 (A with infinities, B half zeros); signed zeros
           (A +-0, C +-0: the sign of a zero sum); subnormal f16/bf16 inputs
           (times large B) and subnormal C; large exponents (products and
           sums past the f16 / f32 range; C near the largest finite);
           cancellation (C = -A B, rounded); random bit patterns.

The tf32 and fp8 forms: tf32 inputs on the normal and wide data are exactly
tf32 (f32 words rounded to nearest even on bit 13, the low 13 bits zero),
so the model's reading is the hardware's whatever it does with those bits;
on the special data they are whole f32 words (every kind above, NaNs that
are NaN by their low bits alone, random words): TirX and nvcc must still
agree bit for bit, and the model reads the top 19 bits (truncation; a NOTE
where the hardware does otherwise). fp8 values are decoded per the OCP FP8
spec (e4m3: bias 7, largest 448, no infinity, S.1111.111 NaN; e5m2: bias
15, IEEE-like); wide: 2^-3..2^3 (e4m3), 2^-7..2^7 (e5m2); the special
data's "infinities" of e4m3 are its largest finite +-448 (0x7E, 0xFE), its
NaNs 0x7F / 0xFF.

A form group fails when, on any kernel and data set:
- its module did not compile (the .err file's first lines are printed);
- TirX and nvcc differ on any bit of any output word;
- an output word differs between two launches whose output was poisoned
  with different patterns (0xFFFFFFFF, then 0x7FBADBAD): a word a kernel
  never writes, TirX's or nvcc's;
- TirX's PTX for the kernel does not hold the mma exactly once per repeat;
- on the normal and wide data, nvcc's D differs from a float64 model of
  D = A B + C (unpacking every fragment word as the PTX ISA describes)
  beyond a tolerance: 2^-17 (f32 accumulators) or 2^-7 (f16) of
  sum |a b| + |c| (the ISA leaves accumulation order and rounding open);
  fp8 inputs 2^-9 (their accumulation keeps fewer bits).
  This is the check of this harness's own packing.
On the special data the model is not a verdict (the ISA leaves the handling
of subnormal inputs unspecified; overflowing partial sums are skipped): it
prints a NOTE line when nvcc's class (NaN, +-inf, finite) or value differs.

Sensitivity checks show each comparison can fail: one flipped bit of a TirX
result is seen; an nvcc kernel that skips one word of D is seen by the
poison check; a model with A's registers 1 and 2 swapped, B's halves
swapped, bf16 read as f16, or the cta_2x2 repeats in one order for every
operand, disagrees with nvcc; so do a tf32 model with A's registers 1
and 2 swapped, an fp8 model reading A's bytes in reverse order, and one
reading e4m3 x e5m2 as e5m2 x e4m3.

--quick launches the first kernel of each form group on the normal data
only, --only=NAME keeps the kernels whose name or form (file stem) is NAME,
and --exit-zero exits 0 whatever the comparisons say (run.sh runs one
kernel so under compute-sanitizer, whose verdict is then the tool's alone).
The moves (ldmatrix, stmatrix, cp.async; gen.py's docstring) run on
words: I is random bits (data set "random"), or every 16-bit half of a
CTA's region distinct ("halves": ldmatrix, stmatrix); a zero-fill cp.async
kernel runs once per src-size (data sets "src-size N": 0, partial, the
whole chunk; the PTX ISA asks for src-size < cp-size, but ptxas takes
0 .. cp-size and src-size = cp-size is what CUTLASS's zero-fill copies
pass). Each data set is launched
twice per implementation: O poisoned with 0xFFFFFFFF and shared memory with
P = 0xA5A5A5A5, then 0x7FBADBAD and 0x5AC3F00D. A move form group fails
when, on any kernel and data set:
- its module did not compile;
- TirX and nvcc differ on any bit of any word of O (either launch);
- a word of O changes with O's poison alone (unwritten);
- TirX's PTX lacks an expected instruction line as many times as
  expected (cases.json "ptx": the ldmatrix / stmatrix once per repeat,
  cp.async once per chunk with its cp-size and src-size operand, the
  commit_group / wait_group N / wait_all lines, the barriers);
- nvcc's O differs from the host model of the PTX ISA in any bit
  (matrix_model, cp_model: the fragment mapping of ldmatrix/stmatrix,
  .trans, the zero fill; shared words no instruction writes keep P).
Their sensitivity checks: models without .trans, with word (row, w) in
lane row + 8 w, with cta_2x2's register bases in coordinate order, a zero
fill that copies whole chunks, or one that ignores src-size 0 disagree with
nvcc; an nvcc kernel that leaves out one cp.async chunk differs from the
model in that chunk's words; one flipped bit is one mismatch.

--dry needs no GPU: both "kernels" are the model, rounded to the
accumulator type (checks this script's logic and the PTX text when DIR has
the .ptx files); --dry-break=KERNEL makes that kernel's dry "TirX" result
wrong in one bit of one word (its group must fail).

--record=GOLDEN.npz writes the first 4 warps' A, B, C and TirX's D of the
mma kernels' warp, warp_inplace and cta variants, on each data set where
TirX's D equalled nvcc's (mma_golden.py describes the file), for the
interpreter's comparison in `make check`
(test/python/test_interpreter_matrix.py).
"""
import json
import os
import re
import sys
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mma_golden  # noqa: E402

POISON, POISON2 = 0xFFFFFFFF, 0x7FBADBAD
KEEP = {"m16n8k16_f32_bf16_warp"}   # outputs kept for the sensitivity checks
FRAGMENTS_MAX = 1024   # 256 warps x 4 repeats (cta_2x2)

# ===----------------------------------------------------------------------===#
# The fragments (PTX ISA 9.7.14.5.8), written out independently of TirX's
# PTX table: g = lane / 4, t = lane % 4; for each operand kind, the matrix
# element (row, column) held by (lane, register, half), half 0 the low 16
# bits (the lower column of A and C/D, the lower k of B).
# ===----------------------------------------------------------------------===#

LANES = np.arange(32)
G, T = LANES // 4, LANES % 4


def element_map(kind, k=16):
    """(rows, cols, regs, halves, row[32, regs, halves], col[...]); halves:
    elements a word (1, 2, or 4: tf32 and fp8 in k16's registers)."""
    if kind in WIDE_KINDS:     # k16's registers, p elements a word (lowest k lowest)
        base, p = WIDE_KINDS[kind]
        e = np.arange(p)
        regs = np.arange(4 if base == "a" else 2)
        if base == "a":        # reg r: row g + 8 (r % 2), words t + 4 (r // 2)
            row = (G[:, None] + 8 * (regs[None, :] % 2))[:, :, None] + 0 * e
            col = (p * T[:, None] + 4 * p * (regs[None, :] // 2))[:, :, None] + e
            return 16, 8 * p, 4, p, row, col
        row = (p * T[:, None] + 4 * p * regs[None, :])[:, :, None] + e   # B: k x n
        col = G[:, None, None] + 0 * regs[None, :, None] + 0 * e
        return 8 * p, 8, 2, p, row, col
    if kind == "acc_f32":      # c0..c3: (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1)
        regs = np.arange(4)
        row = G[:, None] + 8 * (regs[None, :] // 2)
        col = 2 * T[:, None] + regs[None, :] % 2
        return 16, 8, 4, 1, row[:, :, None], col[:, :, None]
    h = np.arange(2)
    if kind == "acc_f16":      # c0c1: row g, c2c3: row g+8; columns 2t, 2t+1
        regs = np.arange(2)
        row = (G[:, None] + 8 * regs[None, :])[:, :, None] + 0 * h
        col = (2 * T[:, None, None] + h) + 0 * regs[None, :, None]
        return 16, 8, 2, 2, row, col
    if kind == "a_k16":        # a0a1 (g, 2t..), a2a3 (g+8, 2t..), a4a5 (g, 2t+8..), a6a7 (g+8, 2t+8..)
        regs = np.arange(4)
        row = (G[:, None] + 8 * (regs[None, :] % 2))[:, :, None] + 0 * h
        col = (2 * T[:, None] + 8 * (regs[None, :] // 2))[:, :, None] + h
        return 16, 16, 4, 2, row, col
    if kind == "a_k8":         # a0a1 (g, 2t..), a2a3 (g+8, 2t..)
        regs = np.arange(2)
        row = (G[:, None] + 8 * regs[None, :])[:, :, None] + 0 * h
        col = (2 * T[:, None, None] + h) + 0 * regs[None, :, None]
        return 16, 8, 2, 2, row, col
    if kind == "b_k16":        # B is k x n: b0b1 (2t.., g), b2b3 (2t+8.., g)
        regs = np.arange(2)
        row = (2 * T[:, None] + 8 * regs[None, :])[:, :, None] + h
        col = G[:, None, None] + 0 * regs[None, :, None] + 0 * h
        return 16, 8, 2, 2, row, col
    if kind == "b_k8":         # b0b1 (2t.., g)
        row = (2 * T[:, None, None] + h) + np.zeros((1, 1, 1), dtype=int)
        col = G[:, None, None] + 0 * h
        return 8, 8, 1, 2, row, col
    raise ValueError(kind)


# tf32 (one a word) and fp8 (four a word) in k16's A and B registers.
WIDE_KINDS = {"a_tf32": ("a", 1), "b_tf32": ("b", 1), "a_f8": ("a", 4), "b_f8": ("b", 4)}
FP8 = ("e4m3", "e5m2")


def input_types(itype):
    """(A's type, B's type): "e4m3.e5m2" names both, "f16" one for both."""
    types = itype.split(".")
    return types[0], types[-1]


def operand_kinds(k, acc, itype="f16"):
    ab = {"tf32": "tf32", "e4m3": "f8", "e5m2": "f8"}.get(input_types(itype)[0], "k%d" % k)
    return {"d": "acc_" + acc, "a": "a_" + ab, "b": "b_" + ab, "c": "acc_" + acc}


def kernel_kinds(kernel):
    return operand_kinds(kernel["k"], kernel["acc"], kernel["itype"])


def pack(matrix, kind, swap=None):
    """Matrix bits (F, rows, cols), uint16 (or uint32 for acc_f32), to
    fragment words (F, 32, regs). swap: (i, j) registers exchanged (a
    deliberately wrong packing, for the sensitivity checks), or "halves"."""
    rows, cols, regs, halves, row, col = element_map(kind)
    if swap not in (None, "halves", "bytes"):
        order = np.arange(regs)
        order[[swap[0], swap[1]]] = order[[swap[1], swap[0]]]
        row, col = row[:, order], col[:, order]
    values = matrix[:, row, col].astype(np.uint32)           # (F, 32, regs, halves)
    if halves == 1:
        return values[..., 0]
    if swap == "halves":
        return values[..., 1] | (values[..., 0] << 16)
    if halves == 4:
        order = [3, 2, 1, 0] if swap == "bytes" else [0, 1, 2, 3]
        return (values[..., order[0]] | (values[..., order[1]] << 8) |
                (values[..., order[2]] << 16) | (values[..., order[3]] << 24))
    return values[..., 0] | (values[..., 1] << 16)


def unpack(words, kind, swap=None):
    """Fragment words (F, 32, regs) to matrix bits (F, rows, cols)."""
    rows, cols, regs, halves, row, col = element_map(kind)
    if swap not in (None, "halves", "bytes"):
        order = np.arange(regs)
        order[[swap[0], swap[1]]] = order[[swap[1], swap[0]]]
        row, col = row[:, order], col[:, order]
    f = words.shape[0]
    dtype = {1: np.uint32, 2: np.uint16, 4: np.uint8}[halves]
    out = np.zeros((f, rows, cols), dtype=dtype)
    if halves == 1:
        out[:, row[..., 0], col[..., 0]] = words
    elif halves == 4:      # byte e of a word: the e-th lowest k (swap "bytes": reversed)
        for e in range(4):
            byte = 3 - e if swap == "bytes" else e
            out[:, row[..., e], col[..., e]] = ((words >> (8 * byte)) & 0xFF).astype(np.uint8)
    else:
        lo, hi = (1, 0) if swap == "halves" else (0, 1)
        out[:, row[..., lo], col[..., lo]] = (words & 0xFFFF).astype(np.uint16)
        out[:, row[..., hi], col[..., hi]] = (words >> 16).astype(np.uint16)
    return out


# ===----------------------------------------------------------------------===#
# Numbers: f16 / bf16 / tf32 / f32 / e4m3 / e5m2 bits <-> float64
# ===----------------------------------------------------------------------===#

def fp8_values(ty):
    """The float64 value of each of the 256 codes (OCP FP8: e4m3 bias 7, no
    infinities, S.1111.111 NaN, largest 448; e5m2 bias 15, IEEE-like, largest
    57344; both with subnormals)."""
    codes = np.arange(256)
    sign = np.where(codes >> 7, -1.0, 1.0)
    if ty == "e4m3":
        exp, man = (codes >> 3) & 0xF, codes & 0x7
        value = np.where(exp == 0, man / 8.0 * 2.0 ** -6, (1 + man / 8.0) * 2.0 ** (exp - 7.0))
        value = np.where((codes & 0x7F) == 0x7F, np.nan, value)
    else:
        exp, man = (codes >> 2) & 0x1F, codes & 0x3
        value = np.where(exp == 0, man / 4.0 * 2.0 ** -14, (1 + man / 4.0) * 2.0 ** (exp - 15.0))
        value = np.where(exp == 31, np.where(man == 0, np.inf, np.nan), value)
    return sign * value


FP8_VALUES = {ty: fp8_values(ty) for ty in FP8}


def fp8_bits(x, ty):
    """float64 values to fp8 codes, rounded to nearest even, finite values
    saturating at the largest finite (the suite clips first), NaN 0x7F."""
    x = np.asarray(x, dtype=np.float64)
    largest = 0x7E if ty == "e4m3" else 0x7B
    table = FP8_VALUES[ty][:largest + 1]                     # codes 0 .. largest, increasing
    mag = np.minimum(np.abs(np.nan_to_num(x, nan=0.0)), table[-1])
    hi = np.clip(np.searchsorted(table, mag), 1, largest)    # table[hi - 1] < mag <= table[hi]
    lo = hi - 1
    dlo, dhi = mag - table[lo], table[hi] - mag
    code = np.where((dhi < dlo) | ((dhi == dlo) & (hi % 2 == 0)), hi, lo)
    code = np.where(mag == 0, 0, code)
    if ty == "e5m2":
        code = np.where(np.isinf(x), 0x7C, code)
    code = code | np.where(np.signbit(x), 0x80, 0)
    return np.where(np.isnan(x), 0x7F, code).astype(np.uint8)


def to_bits(x, ty):
    """float64 values to bits of ty, rounded to nearest even (tf32: a b32
    word whose low 13 bits are zero)."""
    x = np.asarray(x, dtype=np.float64)
    if ty in FP8:
        return fp8_bits(x, ty)
    with np.errstate(over="ignore", invalid="ignore"):
        if ty == "f16":
            return x.astype(np.float16).view(np.uint16)
        if ty == "tf32":   # round the f32 bits to nearest even on bit 13 (no NaN here)
            f = x.astype(np.float32).view(np.uint32).astype(np.uint64)
            return ((f + 0xFFF + ((f >> 13) & 1)) & ~np.uint64(0x1FFF)).astype(np.uint32)
        f = x.astype(np.float32).view(np.uint32).astype(np.uint64)
        if ty == "f32":
            return f.astype(np.uint32)
        # bf16: round the f32 bits to nearest even on bit 16 (no NaN here).
        rounded = (f + 0x7FFF + ((f >> 16) & 1)) >> 16
        return rounded.astype(np.uint16)


def to_float(bits, ty):
    with np.errstate(invalid="ignore"):   # signaling NaNs are kept as NaN
        return _to_float(bits, ty)


def _to_float(bits, ty):
    if ty in FP8:
        return FP8_VALUES[ty][np.asarray(bits, dtype=np.uint8)]
    if ty == "tf32":   # the model reads the top 19 bits (the low 13 truncated)
        return (np.asarray(bits, dtype=np.uint32) & np.uint32(0xFFFFE000)).view(
            np.float32).astype(np.float64)
    if ty == "f16":
        return np.asarray(bits, dtype=np.uint16).view(np.float16).astype(np.float64)
    if ty == "bf16":
        return (np.asarray(bits, dtype=np.uint32) << 16).view(np.float32).astype(np.float64)
    return np.asarray(bits, dtype=np.uint32).view(np.float32).astype(np.float64)


MIN_NORMAL = {"f16": 2.0 ** -14, "bf16": 2.0 ** -126, "f32": 2.0 ** -126, "tf32": 2.0 ** -126,
              "e4m3": 2.0 ** -6, "e5m2": 2.0 ** -14}
MAX_FINITE = {"f16": 65504.0, "bf16": 3.3895313892515355e38, "f32": 3.4028234663852886e38,
              "tf32": 3.4011621342146535e38, "e4m3": 448.0, "e5m2": 57344.0}
# tf32's special data are whole f32 words (the low 13 bits too): its NaNs
# are f32's, some of them NaN by their low bits alone. e4m3 has no
# infinity: its "infinities" are the largest finite +-448 (0x7E, 0xFE), its
# NaNs 0x7F / 0xFF (what a saturating conversion would not give).
NANS = {"f16": [0x7E00, 0x7C01, 0xFE00, 0x7FFF, 0x7D23, 0xFC17],
        "bf16": [0x7FC0, 0x7F81, 0xFFC0, 0x7FFF, 0x7FA5, 0xFF83],
        "f32": [0x7FC00000, 0x7F800001, 0xFFC00000, 0x7FC00123, 0x7FFFFFFF, 0xFF800017],
        "tf32": [0x7FC00000, 0x7F800001, 0xFFC00000, 0x7FC00123, 0x7FFFFFFF, 0xFF802000],
        "e4m3": [0x7F, 0xFF], "e5m2": [0x7D, 0x7E, 0x7F, 0xFD, 0xFE, 0xFF]}
INFS = {"f16": [0x7C00, 0xFC00], "bf16": [0x7F80, 0xFF80], "f32": [0x7F800000, 0xFF800000],
        "tf32": [0x7F800000, 0xFF800000], "e4m3": [0x7E, 0xFE], "e5m2": [0x7C, 0xFC]}
SIGN = {"f16": 0x8000, "bf16": 0x8000, "f32": 0x80000000, "tf32": 0x80000000, "e4m3": 0x80,
        "e5m2": 0x80}
MANTISSA = {"f16": 0x3FF, "bf16": 0x7F, "f32": 0x7FFFFF, "tf32": 0x7FFFFF, "e4m3": 0x7,
            "e5m2": 0x3}
NTYPE = {"f16": np.uint16, "bf16": np.uint16, "f32": np.uint32, "tf32": np.uint32,
         "e4m3": np.uint8, "e5m2": np.uint8}
BITS = {"f16": 16, "bf16": 16, "f32": 32, "tf32": 32, "e4m3": 8, "e5m2": 8}
TOP_EXP = {"f16": 15, "bf16": 127, "f32": 127, "tf32": 127, "e4m3": 8, "e5m2": 15}
# The wide data's exponent range of the inputs (C: the two added, f32).
WIDE_EXP = {"f16": 10, "bf16": 40, "tf32": 40, "e4m3": 3, "e5m2": 7}
# Lowest exponent of the "large" inputs of the special data.
LARGE_EXP = {"f16": 12, "bf16": 100, "tf32": 100, "e4m3": 5, "e5m2": 12}


def normal_values(rng, shape, ty, scale_exp=0):
    """N(0, 1) * 2^e, e uniform in [-scale_exp, scale_exp], away from the
    subnormal range (magnitudes below the smallest normal become it)."""
    x = rng.standard_normal(shape)
    if scale_exp:
        x = x * 2.0 ** rng.integers(-scale_exp, scale_exp + 1, shape)
    tiny = np.abs(x) < MIN_NORMAL[ty] * 2
    x = np.where(tiny, np.copysign(MIN_NORMAL[ty] * 2, x), x)
    return to_bits(np.clip(x, -MAX_FINITE[ty], MAX_FINITE[ty]), ty)


def pick(rng, shape, choices, ty):
    return np.array(choices, dtype=np.uint64)[rng.integers(0, len(choices), shape)].astype(NTYPE[ty])


def sprinkle(rng, bits, density, choices, ty):
    mask = rng.random(bits.shape) < density
    return np.where(mask, pick(rng, bits.shape, choices, ty), bits)


def subnormals(rng, shape, ty):
    mantissa = rng.integers(1, MANTISSA[ty] + 1, shape, dtype=np.uint64)
    sign = rng.integers(0, 2, shape, dtype=np.uint64) * SIGN[ty]
    return (mantissa | sign).astype(NTYPE[ty])


def large(rng, shape, ty, low_exp):
    """+-2^e * U[1, 2) with e from low_exp up to the largest finite."""
    top = TOP_EXP[ty]
    x = 2.0 ** rng.integers(low_exp, top + 1, shape) * rng.uniform(1, 2, shape)
    x = np.minimum(x, MAX_FINITE[ty]) * rng.choice([-1.0, 1.0], shape)
    return to_bits(x, ty)


def random_bits(rng, shape, ty):
    return rng.integers(0, 1 << BITS[ty], shape, dtype=np.uint64).astype(NTYPE[ty])


def special_inputs(rng, f, k, ity, cty):
    """Fragment i of kind i % 8 (run.py's docstring). k: A's columns."""
    aty, bty = input_types(ity)
    # The model's types (to_float) and the generated ones: tf32 inputs as
    # whole f32 words (low 13 bits too).
    gaty, gbty = ("f32" if t == "tf32" else t for t in (aty, bty))
    a = normal_values(rng, (f, 16, k), gaty)
    b = normal_values(rng, (f, k, 8), gbty)
    c = normal_values(rng, (f, 16, 8), cty)
    kind = np.arange(f) % 8
    zeros = [0, SIGN[bty]]
    czeros = [0, SIGN[cty]]
    for i in range(f):
        s = kind[i]
        if s == 0:    # NaNs
            a[i] = sprinkle(rng, a[i], 1 / 96, NANS[aty], aty)
            b[i] = sprinkle(rng, b[i], 1 / 96, NANS[bty], bty)
            c[i] = sprinkle(rng, c[i], 1 / 32, NANS[cty], cty)
        elif s == 1:  # infinities (e4m3: the largest finite)
            a[i] = sprinkle(rng, a[i], 1 / 96, INFS[aty], aty)
            b[i] = sprinkle(rng, b[i], 1 / 96, INFS[bty], bty)
            c[i] = sprinkle(rng, c[i], 1 / 32, INFS[cty], cty)
        elif s == 2:  # inf * 0
            a[i] = sprinkle(rng, a[i], 1 / 32, INFS[aty], aty)
            b[i] = sprinkle(rng, b[i], 1 / 2, zeros, bty)
        elif s == 3:  # signed zeros: rows of A all -0, all +0 or mixed
            p = np.array([0.0, 0.5, 1.0])[rng.integers(0, 3, (16, 1))]
            a[i] = np.where(rng.random((16, k)) < p, SIGN[aty], 0).astype(NTYPE[aty])
            c[i] = pick(rng, (16, 8), czeros, cty)
        elif s == 4:  # subnormal inputs times large ones; subnormal C
            a[i] = np.where(rng.random((16, k)) < 0.5, subnormals(rng, (16, k), gaty), a[i])
            b[i] = np.where(rng.random((k, 8)) < 0.5, subnormals(rng, (k, 8), gbty),
                            large(rng, (k, 8), gbty,
                                  {"f16": 8, "bf16": 100, "f32": 100, "e4m3": 5,
                                   "e5m2": 12}[gbty]))
            c[i] = np.where(rng.random((16, 8)) < 0.5, subnormals(rng, (16, 8), cty), c[i])
        elif s == 5:  # large exponents: products and sums past the range
            a[i] = large(rng, (16, k), gaty, LARGE_EXP[aty])
            b[i] = large(rng, (k, 8), gbty, LARGE_EXP[bty])
            c[i] = np.where(rng.random((16, 8)) < 0.5,
                            large(rng, (16, 8), cty, {"f16": 12, "f32": 120}[cty]), c[i])
        elif s == 6:  # cancellation: C = -(A B) rounded to C's type
            exact = to_float(a[i], aty) @ to_float(b[i], bty)
            c[i] = to_bits(-exact, cty)
        else:         # random bit patterns
            a[i] = random_bits(rng, (16, k), aty)
            b[i] = random_bits(rng, (k, 8), bty)
            c[i] = random_bits(rng, (16, 8), cty)
    return a, b, c


def make_inputs(k, ity, cty, dataset):
    """(A, B, C) bits for FRAGMENTS_MAX fragments: A (F, 16, k), B (F, k, 8),
    C (F, 16, 8). tf32: A and B exactly tf32 on the normal and wide data
    (the low 13 bits zero), whole f32 words on the special data."""
    if ity in ("f16", "bf16"):
        seed = [8, 16].index(k) * 100 + ["f16", "bf16"].index(ity) * 10 + \
            ["f32", "f16"].index(cty)
    else:
        seed = 400 + ["tf32", "e4m3.e4m3", "e4m3.e5m2", "e5m2.e4m3", "e5m2.e5m2"].index(ity)
    seed = seed * 3 + DATASETS.index(dataset)
    rng = np.random.default_rng(1800 + seed)
    f = FRAGMENTS_MAX
    aty, bty = input_types(ity)
    if dataset == "normal":
        return (normal_values(rng, (f, 16, k), aty), normal_values(rng, (f, k, 8), bty),
                normal_values(rng, (f, 16, 8), cty))
    if dataset == "wide":
        ea, eb = (WIDE_EXP[aty], WIDE_EXP[bty]) if cty == "f32" else (5, 5)
        ce = ea + eb if cty == "f32" else 8
        return (normal_values(rng, (f, 16, k), aty, ea), normal_values(rng, (f, k, 8), bty, eb),
                normal_values(rng, (f, 16, 8), cty, ce))
    return special_inputs(rng, f, k, ity, cty)


DATASETS = ["normal", "wide", "special"]


# ===----------------------------------------------------------------------===#
# The model: D = A B + C in float64
# ===----------------------------------------------------------------------===#

def model(a, b, c, ity, cty):
    """(x, scale): x = sum_k a b + c in float64 (NaN and inf as IEEE),
    scale = sum |a b| + |c| (inf/NaN where an input is)."""
    aty, bty = input_types(ity)
    fa, fb, fc = to_float(a, aty), to_float(b, bty), to_float(c, cty)
    with np.errstate(invalid="ignore", over="ignore"):
        products = fa[:, :, :, None] * fb[:, None, :, :]     # (F, 16, k, 8)
        x = products.sum(axis=2) + fc
        scale = np.abs(products).sum(axis=2) + np.abs(fc)
    return x, scale


def round_to(x, cty):
    """The dry run's stand-in for the hardware: x rounded to C's type, NaN
    as the canonical 0x7FFFFFFF / 0x7FFF."""
    bits = to_bits(np.nan_to_num(x, nan=0.0, posinf=np.inf, neginf=-np.inf), cty)
    nan = np.isnan(x)
    return np.where(nan, 0x7FFFFFFF if cty == "f32" else 0x7FFF, bits).astype(NTYPE[cty])


TOLERANCE = {"f32": (2.0 ** -17, 2.0 ** -126), "f16": (2.0 ** -7, 2.0 ** -14)}
# fp8 inputs: the tensor cores' fp8 accumulation keeps fewer bits than f32
# (about 13-14 reported for Hopper's fp8 GEMMs), so 2^-9 of the scale: a
# wrong packing is off by the scale itself.
FP8_RELATIVE = 2.0 ** -9


def model_mismatches(d, x, scale, cty, itype=None):
    """(class differences, value differences, skipped), boolean masks over
    D's elements: d the hardware's D bits (F, 16, 8), x and scale the
    model's (model); itype: the kernel's input types (fp8: FP8_RELATIVE).
    The interpreter's check (test/python/test_interpreter_matrix.py) uses
    the same masks."""
    got = to_float(d, cty)
    rel, absolute = TOLERANCE[cty]
    if itype and input_types(itype)[0] in FP8:
        rel = FP8_RELATIVE
    limit = MAX_FINITE[cty]
    with np.errstate(invalid="ignore", over="ignore"):
        x_nan, x_inf = np.isnan(x), np.isinf(x)
        finite = ~x_nan & ~x_inf
        in_range = finite & (scale < limit)
        skipped = finite & ~in_range           # partial sums may overflow: no model
        class_bad = (x_nan & ~np.isnan(got)) | (x_inf & (got != x))
        value_bad = in_range & ~(np.abs(got - x) <= rel * scale + absolute)
    return class_bad, value_bad, skipped


def model_compare(d, x, scale, cty, itype=None):
    """(checked, class differences, value differences, skipped, examples):
    d the hardware's D bits (F, 16, 8); itype: the kernel's input types
    (fp8: FP8_RELATIVE)."""
    got = to_float(d, cty)
    class_bad, value_bad, skipped = model_mismatches(d, x, scale, cty, itype)
    bad = class_bad | value_bad
    examples = []
    for idx in np.argwhere(bad)[:3]:
        f, r, col = idx
        examples.append("fragment %d (%d, %d): nvcc %r, model %r (scale %.3g)" % (
            f, r, col, float(got[f, r, col]), float(x[f, r, col]), float(scale[f, r, col])))
    return (int((~skipped).sum()), int(class_bad.sum()), int(value_bad.sum()),
            int(skipped.sum()), examples)


# ===----------------------------------------------------------------------===#
# Thread words: fragments <-> what each thread loads and stores
# ===----------------------------------------------------------------------===#

def thread_words(frag_words, bases, warps):
    """Fragment words (warps * R, 32, N) to the flat per-thread words: thread
    (warp, lane) holds at q * N + j register j of its repeat whose base is q
    (bases[r] for repeat r)."""
    r = len(bases)
    n = frag_words.shape[2]
    per_repeat = frag_words.reshape(warps, r, 32, n)
    out = np.zeros((warps, 32, r * n), dtype=np.uint32)
    for i, q in enumerate(bases):
        out[:, :, q * n:(q + 1) * n] = per_repeat[:, i]
    return out.ravel()


def fragment_words(flat, bases, warps, n):
    """The inverse: (warps * R, 32, N) fragment words of D."""
    r = len(bases)
    words = flat.reshape(warps, 32, r * n)
    out = np.zeros((warps, r, 32, n), dtype=np.uint32)
    for i, q in enumerate(bases):
        out[:, i] = words[:, :, q * n:(q + 1) * n]
    return out.reshape(warps * r, 32, n)


class Data:
    """Each kernel's inputs per data set, as matrices and as thread words."""

    def __init__(self, warps):
        self.warps, self.cache = warps, {}

    def matrices(self, kernel, dataset):
        key = (kernel["k"], kernel["itype"], kernel["acc"], dataset)
        if key not in self.cache:
            self.cache[key] = make_inputs(kernel["k"], kernel["itype"], kernel["acc"], dataset)
        f = self.warps * len(kernel["coords"])
        return tuple(m[:f] for m in self.cache[key])

    def words(self, kernel, dataset, swap=None, bases=None):
        """{operand: flat uint32 words} of a, b, c; swap = {operand: swap}
        and bases = {operand: bases} override the packing (sensitivity)."""
        kinds = kernel_kinds(kernel)
        out = {}
        for x, m in zip("abc", self.matrices(kernel, dataset)):
            frags = pack(m, kinds[x], (swap or {}).get(x))
            out[x] = thread_words(frags, (bases or kernel["bases"])[x], self.warps)
        return out

    def d_matrix(self, kernel, flat, bases=None):
        kinds = kernel_kinds(kernel)
        frags = fragment_words(flat, (bases or kernel["bases"])["d"], self.warps,
                               kernel["regs"]["d"])
        return unpack(frags, kinds["d"])


# ===----------------------------------------------------------------------===#
# The moves: ldmatrix / stmatrix / cp.async (gen.py's second part)
# ===----------------------------------------------------------------------===#
#
# A move kernel's input I and output O are whole 32-bit words: per CTA,
# in_words of I and out_words of O (gen.py). Its host model is written
# from the PTX ISA, independently of TirX's PTX table:
# - ldmatrix (9.7.9.25): with the shared tile's offsets of word (m, row, w)
#   of matrix m (the 16-bit elements 2w, 2w + 1 of its row), lane 4 row + w
#   receives that word in register m (plus the repeat's register base);
#   .trans: the 8 x 8 matrix of 16-bit elements is transposed first.
# - stmatrix (9.7.9.26): the inverse; shared words no matrix covers keep
#   the poison P.
# - cp.async (9.7.9.25.3): each chunk's first src-size bytes from the
#   source, the rest of its cp-size bytes zero (src-size = cp-size without
#   the operand); shared words no chunk covers keep the poison P.

MOVES = ("ldmatrix", "stmatrix", "cp.async")


def offsets(shape, strides, base=0):
    """The offset of every coordinate of shape (an array of that shape)."""
    coords = np.indices(shape, dtype=np.int64)
    return base + sum(c * s for c, s in zip(coords, strides))


def transposed(words):
    """(..., 8, 4) words, row r holding 16-bit elements 2w (low half) and
    2w + 1 of word w, to the words of the transposed 8 x 8 matrix."""
    halves = np.empty(words.shape[:-1] + (8,), dtype=np.uint32)
    halves[..., 0::2] = words & 0xFFFF
    halves[..., 1::2] = words >> 16
    halves = np.swapaxes(halves, -1, -2)
    return (halves[..., 0::2] | (halves[..., 1::2] << 16)).astype(np.uint32)


def matrix_slots(kernel, lanes="isa", bases=None):
    """(register slots, shared offsets), both (G, R, count, 8, 4): the index
    in a CTA's thread words ((32 warp + lane) words + register) and the
    shared word of word w of row `row` of matrix m of repeat r of warp g.
    lanes="wrong" puts the word in lane row + 8 w (a sensitivity check);
    bases overrides the register bases of the repeats."""
    g_, c, w_ = kernel["warps"], kernel["count"], kernel["words"]
    r_ = len(kernel["coords"])
    g, r, m, row, w = np.indices((g_, r_, c, 8, 4))
    lane = 4 * row + w if lanes == "isa" else row + 8 * w
    q = np.array(bases or kernel["bases"])[r]
    regs = (32 * g + lane) * w_ + q * c + m
    shared = offsets(kernel["shared"]["shape"], kernel["shared"]["strides"])
    return regs, shared.reshape(g_, r_, c, 8, 4)


def matrix_model(kernel, inputs, poison, trans=None, lanes="isa", bases=None):
    """O of an ldmatrix / stmatrix kernel, flat."""
    grid = kernel["grid"]
    data = np.asarray(inputs, dtype=np.uint32).reshape(grid, kernel["in_words"])
    regs, shared = matrix_slots(kernel, lanes, bases)
    swap = kernel["trans"] if trans is None else trans
    if kernel["kind"] == "ldmatrix":
        words = data[:, shared]
        out = np.zeros((grid, kernel["out_words"]), dtype=np.uint32)
        out[:, regs] = transposed(words) if swap else words
    else:
        words = data[:, regs]
        out = np.full((grid, kernel["out_words"]), poison, dtype=np.uint32)
        out[:, shared] = transposed(words) if swap else words
    return out.ravel()


def chunk_words(kernel, copy):
    """(source, destination) word offsets of every chunk of a copy, flat in
    the order (group, lane, repeats): thread t's repeat r is t * R + r."""
    shape = copy["shape"][:-1]
    return (offsets(shape, copy["src"][:-1], copy["src_base"]).ravel(),
            offsets(shape, copy["dst"][:-1], copy["dst_base"]).ravel())


def cp_model(kernel, inputs, poison, n=None, honour_size=True, skip=None):
    """O of a cp.async kernel, flat. n: src-size (None: the whole chunk);
    honour_size=False copies whole chunks whatever n (a sensitivity check);
    skip = (copy, repeat, block, thread): that chunk is never copied (the
    mutation). Memory is little-endian: the first k bytes of a word are its
    low 8 k bits."""
    grid, size = kernel["grid"], kernel["chunk"]
    n = size if n is None or not honour_size else n
    data = np.asarray(inputs, dtype=np.uint32).reshape(grid, kernel["in_words"])
    shared = np.full((grid, kernel["shared_words"]), poison, dtype=np.uint32)
    j = np.arange(size // 4)
    kept = np.clip(n - 4 * j, 0, 4)                         # bytes of word j read
    mask = ((np.uint64(1) << (8 * kept).astype(np.uint64)) - np.uint64(1)).astype(np.uint32)
    for i, copy in enumerate(kernel["copies"]):
        src, dst = chunk_words(kernel, copy)
        into, outof = (dst[:, None] + j).ravel(), (src[:, None] + j).ravel()
        shared[:, into] = data[:, outof] & np.tile(mask, len(dst))
        if skip and skip[0] == i:
            nrep = len(src) // (32 * kernel["warps"])
            chunk = dst[skip[3] * nrep + skip[1]]
            shared[skip[2], chunk:chunk + size // 4] = poison
    return shared.ravel()


def move_inputs(kernel, dataset):
    """I of a move kernel, flat: random bits, or (halves) 16-bit half k of
    a CTA's region holding k, so every half of a region is distinct."""
    words = kernel["in_words"]
    if dataset == "halves":
        k = np.arange(2 * words, dtype=np.uint32)
        one = k[0::2] | (k[1::2] << 16)
        return np.tile(one, kernel["grid"])
    rng = np.random.default_rng(zlib.crc32(kernel["name"].encode()))
    return rng.integers(0, 1 << 32, words * kernel["grid"], dtype=np.uint64).astype(np.uint32)


def src_size(dataset):
    return int(dataset.split()[-1]) if dataset.startswith("src-size") else None


def move_model(kernel, inputs, poison, dataset):
    if kernel["kind"] == "cp.async":
        return cp_model(kernel, inputs, poison, src_size(dataset))
    return matrix_model(kernel, inputs, poison)


# ===----------------------------------------------------------------------===#
# Launching: cupy, or (--dry) the model standing in for both kernels
# ===----------------------------------------------------------------------===#

class DryArrays:
    """The few cupy calls this script makes, on host arrays."""
    full = staticmethod(np.full)

    @staticmethod
    def asarray(a):
        return np.array(a, copy=True)

    @staticmethod
    def asnumpy(a):
        return np.array(a, copy=True)


DRY_WORDS = {}   # the dry D words of the last inputs: {(kernel, crc of A, B, C): words}


class DryModule:
    """Kernels computed by the model (rounded to C's type): reads the words
    back through this script's own packing, writes every word of D (all
    but the mutation's skipped word)."""

    def __init__(self, kernels, data, mutation, broken=(), cp_mutation=None):
        self.kernels = {k["name"]: k for k in kernels}
        self.data, self.mutation, self.broken = data, mutation, set(broken)
        self.cp_mutation = cp_mutation

    def get_function(self, name):
        kernel = self.kernels.get(name)
        if name == self.mutation["name"]:
            kernel = self.kernels[self.mutation["like"]]
        if self.cp_mutation and name == self.cp_mutation["name"]:
            kernel = self.kernels[self.cp_mutation["like"]]
        if kernel is None:
            raise KeyError("no kernel %s" % name)
        if kernel.get("kind", "mma") != "mma":
            return self.move_function(name, kernel)

        def launch(grid, block, args):
            out, a, b, c = (np.asarray(x) for x in args)
            kinds = kernel_kinds(kernel)
            warps = self.data.warps
            # The four launches of a data set (two kernels, two poisons) on
            # the same words compute the model once.
            key = (kernel["name"],) + tuple(zlib.crc32(w.tobytes()) for w in (a, b, c))
            if key not in DRY_WORDS:
                mats = [unpack(fragment_words(w, kernel["bases"][x], warps, kernel["regs"][x]),
                               kinds[x]) for x, w in zip("abc", (a, b, c))]
                x, _ = model(*mats, kernel["itype"], "f32" if kernel["acc"] == "f32" else "f16")
                d = round_to(x, "f32" if kernel["acc"] == "f32" else "f16")
                frags = pack(d, kinds["d"])
                DRY_WORDS.clear()
                DRY_WORDS[key] = thread_words(frags, kernel["bases"]["d"], warps)
            words = DRY_WORDS[key].copy()
            if name == self.mutation["name"]:
                skip = self.mutation["skip"]
                words[skip] = out[skip]
            if name in self.broken:
                words[-1] ^= np.uint32(1 << 22)
            out[...] = words
        return launch

    def move_function(self, name, kernel):
        """A move kernel computed by its host model (the cp mutation
        leaves its chunk out)."""
        def launch(grid, block, args):
            out, inputs = np.asarray(args[0]), np.asarray(args[1])
            params = dict(zip(kernel["params"][2:], args[2:]))
            poison = int(params.get("P", 0))
            if kernel["kind"] == "cp.async":
                m = self.cp_mutation
                skip = (m["skip"][0], m["skip"][1], m["block"], m["thread"]) \
                    if m and name == m["name"] else None
                n = int(params["N"]) if "N" in params else None
                words = cp_model(kernel, inputs, poison, n, skip=skip)
            else:
                words = matrix_model(kernel, inputs, poison)
            if name in self.broken:
                words[-1] ^= np.uint32(1 << 22)
            out[...] = words
        return launch


def entries(ptx):
    """{kernel name: its PTX text}."""
    parts = re.split(r"^\.visible \.entry (\w+)\(", ptx, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def ctype(kernel):
    return "f32" if kernel["acc"] == "f32" else "f16"


class Suite:
    def __init__(self, directory, quick=False, dry=False, broken=(), only=None):
        self.directory, self.quick, self.dry, self.only = directory, quick, dry, only
        spec = json.load(open(os.path.join(directory, "cases.json")))
        self.warps, self.kernels, self.mutation = spec["warps"], spec["kernels"], spec["mutation"]
        self.cp_mutation = spec.get("cp_mutation")
        self.poisons = spec.get("shared_poisons", [0, 0])
        for k in self.kernels:
            k.setdefault("kind", "mma")
        if only:
            self.kernels = [k for k in self.kernels if only in (k["name"], k["form"])]
            if not self.kernels:
                raise SystemExit("run.py: no kernel or form named %s" % only)
        if quick:  # the first kernel of each form group, its first data set only
            seen = set()
            self.kernels = [dict(k, datasets=k["datasets"][:1]) for k in self.kernels
                            if k["form"] not in seen and not seen.add(k["form"])]
        self.data = Data(self.warps)
        if dry:
            self.cp = DryArrays
            self.reference = DryModule(spec["kernels"], self.data, self.mutation,
                                       cp_mutation=self.cp_mutation)
        else:
            import cupy
            self.cp = cupy
            self.reference = cupy.RawModule(path=os.path.join(directory, "reference.cubin"))
        self.modules, self.errors, self.ptx = {}, {}, {}
        for file in sorted({k["file"] for k in self.kernels}):
            path = os.path.join(directory, file + ".ptx")
            err = os.path.join(directory, file + ".err")
            if os.path.exists(path):
                self.ptx.update(entries(open(path).read()))
                self.modules[file] = (DryModule(spec["kernels"], self.data, self.mutation, broken)
                                      if dry else self.cp.RawModule(path=path))
            elif dry and not os.path.exists(err):
                self.modules[file] = DryModule(spec["kernels"], self.data, self.mutation, broken)
            if file in self.modules:
                if dry:
                    self.modules[file].cp_mutation = self.cp_mutation
            else:
                text = open(err).read() if os.path.exists(err) else "no %s.ptx" % file
                lines = text.strip().splitlines()
                errors = [l.split("error:", 1)[1].strip() for l in lines if "error:" in l]
                errors = errors or ["crashed: " + l.strip() for l in lines
                                    if re.search(r"#\d+ .*(tirx|Tile|Apply|Dispatch)", l)]
                self.errors[file] = [e[:300] for e in (errors or lines)[:3]] or ["no PTX"]

    def launch(self, module, kernel, inputs, pattern, name=None):
        """One launch, D poisoned with pattern first: D's flat words."""
        cp = self.cp
        n = self.warps * 32 * kernel["words"]["d"]
        out = cp.full(n, pattern, dtype=np.uint32)
        args = [out] + [cp.asarray(inputs[x]) for x in "abc"]
        module.get_function(name or kernel["name"])((kernel["grid"],), (kernel["block"],), args)
        return cp.asnumpy(out)

    def launch_move(self, module, kernel, inputs, pattern, poison, dataset, name=None):
        """One launch of a move kernel, O poisoned with pattern first and
        shared memory with poison (the parameter P): O's flat words."""
        cp = self.cp
        out = cp.full(kernel["grid"] * kernel["out_words"], pattern, dtype=np.uint32)
        args = [out, cp.asarray(inputs)]
        if "P" in kernel["params"]:
            args.append(np.uint32(poison))
        if "N" in kernel["params"]:
            args.append(np.int32(src_size(dataset)))
        module.get_function(name or kernel["name"])((kernel["grid"],), (kernel["block"],), args)
        return cp.asnumpy(out)

    def ptx_check(self, kernel, result):
        """Each of the kernel's PTX patterns as many times as expected."""
        text = self.ptx.get(kernel["name"])
        if text is None:
            result["text"] = None if self.dry else False
            return
        bad = []
        for pattern, count in kernel["ptx"]:
            found = len(re.findall(pattern, text))
            if found != count:
                bad.append("%d x /%s/, %d expected" % (found, pattern, count))
        result["text"] = not bad
        result["text_detail"] = "; ".join(bad)

    def run_move_kernel(self, kernel):
        """Both kernels on each data set, twice: O poisoned with POISON and
        shared memory with P1, then POISON2 and P2. TirX against nvcc, nvcc
        against the host model (for that P), and the words that change
        with O's poison alone (unwritten)."""
        module = self.modules[kernel["file"]]
        result = {"compiled": True, "launches": 0, "words": 0, "mismatched": 0,
                  "unwritten": 0, "model": 0, "model_checked": 0, "notes": {},
                  "examples": [], "outputs": {}}
        for dataset in kernel["datasets"]:
            inputs = move_inputs(kernel, dataset)
            runs = []
            for pattern, poison in zip((POISON, POISON2), self.poisons):
                tirx = self.launch_move(module, kernel, inputs, pattern, poison, dataset)
                nvcc = self.launch_move(self.reference, kernel, inputs, pattern, poison, dataset)
                runs.append((tirx, nvcc, move_model(kernel, inputs, poison, dataset)))
            (tirx, nvcc, expected), (tirx2, nvcc2, expected2) = runs
            same = expected == expected2
            result["launches"] += 1
            result["words"] += tirx.size
            result["mismatched"] += int((tirx != nvcc).sum() + (tirx2 != nvcc2).sum())
            result["unwritten"] += int(((tirx != tirx2) & same).sum() +
                                       ((nvcc != nvcc2) & same).sum())
            result["outputs"][dataset] = (tirx, nvcc)
            for got, want in ((nvcc, expected), (nvcc2, expected2)):
                bad = np.flatnonzero(got != want)
                result["model"] += len(bad)
                result["model_checked"] += got.size
                result["examples"] += ["%s word %d: nvcc %08x, model %08x" % (
                    dataset, i, got[i], want[i]) for i in bad[:2]]
        self.ptx_check(kernel, result)
        return result

    def run_kernel(self, kernel):
        if kernel["file"] in self.errors:
            return {"compiled": False, "launches": len(kernel["datasets"])}
        if kernel["kind"] in MOVES:
            return self.run_move_kernel(kernel)
        module = self.modules[kernel["file"]]
        result = {"compiled": True, "launches": 0, "words": 0, "mismatched": 0,
                  "unwritten": 0, "model": 0, "model_checked": 0, "notes": {},
                  "examples": [], "outputs": {}}
        for dataset in kernel["datasets"]:
            inputs = self.data.words(kernel, dataset)
            tirx = self.launch(module, kernel, inputs, POISON)
            nvcc = self.launch(self.reference, kernel, inputs, POISON)
            tirx2 = self.launch(module, kernel, inputs, POISON2)
            nvcc2 = self.launch(self.reference, kernel, inputs, POISON2)
            result["launches"] += 1
            result["words"] += tirx.size
            result["mismatched"] += int((tirx != nvcc).sum())
            result["unwritten"] += int((tirx != tirx2).sum() + (nvcc != nvcc2).sum())
            result["outputs"][dataset] = (tirx, nvcc)
            # Recordable (--record): both launches equal nvcc's, every word written.
            result.setdefault("agreed", {})[dataset] = bool(
                (tirx == nvcc).all() and (tirx2 == nvcc2).all() and (tirx == tirx2).all())
            a, b, c = self.data.matrices(kernel, dataset)
            x, scale = model(a, b, c, kernel["itype"], ctype(kernel))
            checked, class_bad, value_bad, skipped, examples = model_compare(
                self.data.d_matrix(kernel, nvcc), x, scale, ctype(kernel), kernel["itype"])
            if dataset == "special":
                result["notes"][dataset] = (checked, class_bad, value_bad, skipped, examples)
            else:
                result["model"] += class_bad + value_bad
                result["model_checked"] += checked
                result["examples"] += examples
        # TirX's PTX: the mma, once per repeat.
        text = self.ptx.get(kernel["name"])
        if text is None:
            result["text"] = None if self.dry else False
        else:
            found = len(re.findall(kernel["ptx"], text))
            result["text"] = found == kernel["mma_count"]
            result["found"] = found
        return result


def main(argv):
    flags = {a for a in argv if a.startswith("--")}
    args = [a for a in argv if not a.startswith("--")]
    directory, results_path = args[0], (args[1] if len(args) > 1 else None)
    broken = [a.split("=", 1)[1] for a in flags if a.startswith("--dry-break=")]
    only = [a.split("=", 1)[1] for a in flags if a.startswith("--only=")]
    if "--record" in flags:
        raise SystemExit("run.py: --record=GOLDEN.npz (with '=')")
    record = [a.split("=", 1)[1] for a in flags if a.startswith("--record=")]
    recorded, left_out = [], []
    suite = Suite(directory, quick="--quick" in flags, dry="--dry" in flags, broken=broken,
                  only=only[0] if only else None)
    groups, kept = {}, {}
    for kernel in suite.kernels:
        try:
            result = suite.run_kernel(kernel)
        except Exception as error:  # a missing kernel, a launch error: this kernel fails
            print("error: %s: %s: %s" % (kernel["name"], type(error).__name__, error))
            result = {"compiled": True, "launches": 0, "words": 0, "mismatched": 0,
                      "unwritten": 0, "model": 0, "model_checked": 0, "notes": {},
                      "examples": [], "text": None, "raised": str(error)}
        g = groups.setdefault(kernel["form"], {
            "spelling": kernel.get("label", kernel["spelling"]), "kind": kernel["kind"],
            "kernels": 0, "launches": 0, "words": 0,
            "mismatched": 0, "unwritten": 0, "model": 0, "model_checked": 0,
            "text_bad": [], "uncompiled": set(), "bad": [], "notes": [], "examples": []})
        g["kernels"] += 1
        g["launches"] += result["launches"]
        if not result["compiled"]:
            g["uncompiled"].add(kernel["file"])
            continue
        for key in ("words", "mismatched", "unwritten", "model", "model_checked"):
            g[key] += result[key]
        g["examples"] += result["examples"]
        if result["text"] is False and "text_detail" in result:
            g["text_bad"].append("%s (%s)" % (kernel["name"], result["text_detail"]))
        elif result["text"] is False:
            g["text_bad"].append("%s (%s)" % (kernel["name"], "no PTX entry" if "found" not in result
                                               else "%d mma, %d expected" % (
                                                   result["found"], kernel["mma_count"])))
        if "raised" in result:
            g["bad"].append("%s raised %s" % (kernel["name"], result["raised"][:200]))
        elif result["mismatched"] or result["unwritten"]:
            g["bad"].append("%s (%d differ, %d unwritten)" % (
                kernel["name"], result["mismatched"], result["unwritten"]))
        for dataset, (checked, class_bad, value_bad, skipped, examples) in result["notes"].items():
            if class_bad or value_bad:
                g["notes"].append("%s/%s: %d of %d differ in class, %d in value (%d skipped: "
                                  "partial sums past the range)%s" % (
                                      kernel["name"], dataset, class_bad, checked, value_bad,
                                      skipped, "; " + "; ".join(examples[:2]) if examples else ""))
        if kernel["name"] in KEEP:
            kept[kernel["name"]] = (kernel, result)
        if record and mma_golden.recordable(kernel):
            record_kernel(suite, kernel, result, recorded, left_out)
    failures = model_failures = 0
    rows = []
    for form, g in groups.items():
        label = g["spelling"]
        if g["uncompiled"]:
            verdict = "FAIL"
            detail = "did not compile: " + "; ".join(
                "%s.mlir: %s" % (f, " / ".join(suite.errors[f])) for f in sorted(g["uncompiled"]))
        else:
            ok = not (g["mismatched"] or g["unwritten"] or g["text_bad"] or g["bad"])
            verdict = "PASS" if ok else "FAIL"
            detail = "%d kernels, %d launches, %d words: %d differ from nvcc, %d unwritten" % (
                g["kernels"], g["launches"], g["words"], g["mismatched"], g["unwritten"])
            if g["text_bad"] and g["kind"] == "mma":
                detail += "; PTX lacks the mma once per repeat in " + ", ".join(g["text_bad"])
            elif g["text_bad"]:
                detail += "; PTX lacks the expected instructions in " + ", ".join(g["text_bad"])
            if g["bad"]:
                detail += "; " + ", ".join(g["bad"][:8])
        failures += verdict == "FAIL"
        print("%s: matrix %s (%s)" % (verdict, label, detail))
        if not g["uncompiled"] and g["kind"] != "mma":
            model_ok = g["model"] == 0
            model_failures += not model_ok
            print("%s: matrix model %s (nvcc vs the host model of the PTX ISA, bit for bit: "
                  "%d of %d words differ%s)" % ("PASS" if model_ok else "FAIL", label, g["model"],
                                              g["model_checked"],
                                              "; " + "; ".join(g["examples"][:3])
                                              if g["examples"] else ""))
        elif not g["uncompiled"]:
            model_ok = g["model"] == 0
            model_failures += not model_ok
            print("%s: matrix model %s (nvcc vs the float64 model on normal and wide data: "
                  "%d of %d differ%s)" % ("PASS" if model_ok else "FAIL", label, g["model"],
                                         g["model_checked"],
                                         "; " + "; ".join(g["examples"][:3]) if g["examples"] else ""))
            for note in g["notes"]:
                print("NOTE: matrix model %s special data: %s" % (label, note))
        rows.append((label, g["kernels"], g["launches"], g["words"], g["mismatched"],
                     g["unwritten"], g["model"] if not g["uncompiled"] else "-",
                     len(g["notes"]) if not g["uncompiled"] else "-",
                     ("bad in %d" % len(g["text_bad"])) if g["text_bad"] else
                     ("-" if g["uncompiled"] else "ok"), verdict))
    try:
        sensitivity = sensitivity_checks(suite, kept)
    except Exception as error:
        sensitivity = [(False, "the checks raised %s: %s" % (type(error).__name__, error))]
    for ok, text in sensitivity:
        print("%s: matrix sensitivity: %s" % ("PASS" if ok else "FAIL", text))
    lines = ["| form | kernels | launches | words | TirX vs nvcc mismatches | unwritten | "
             "nvcc vs model (mma: normal, wide; moves: exact) | special-data notes | PTX text | |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    lines += ["| `%s` | %d | %d | %d | %d | %d | %s | %s | %s | %s |" % row for row in rows]
    lines.append("")
    notes = [n for g in groups.values() for n in g["notes"]]
    if notes:
        lines += ["Notes (nvcc vs the model on special data; not a verdict):", ""]
        lines += ["- %s" % n for n in notes]
        lines.append("")
    lines += ["Sensitivity: %s (%s)." % (text, "ok" if ok else "FAILED") for ok, text in sensitivity]
    sensitivity_failures = sum(not ok for ok, _ in sensitivity)
    record_failed = False
    if record:
        try:
            device = device_name(suite)
            arrays = mma_golden.save(record[0], device, recorded)
            print("matrix: %d mma launches (%d kernels) of the %s recorded in %s, %d arrays, "
                  "%d bytes%s" % (len(recorded), len({r["kernel"] for r in recorded}), device,
                                  record[0], arrays, os.path.getsize(record[0]),
                                  "; left out (TirX differed from nvcc, or did not run): " +
                                  ", ".join(left_out) if left_out else ""))
        except Exception as error:   # the verdicts above stand; the golden is missing
            record_failed = True
            print("FAIL: matrix --record=%s: %s: %s" % (record[0], type(error).__name__, error))
    summary = ("%d forms: %d passed, %d failed; model: %d failed; sensitivity: %d failed%s" % (
        len(rows), len(rows) - failures, failures, model_failures, sensitivity_failures,
        " (dry run: no GPU)" if suite.dry else ""))
    lines += ["", summary]
    if results_path:
        open(results_path, "w").write("\n".join(lines) + "\n")
    print(summary)
    if "--exit-zero" in flags:  # under compute-sanitizer: the tool's verdict only
        return 0
    return 1 if failures or model_failures or sensitivity_failures or record_failed else 0


def record_kernel(suite, kernel, result, recorded, left_out):
    """Adds the kernel's launches where TirX agreed with nvcc to recorded
    (mma_golden.record); names the others in left_out."""
    for dataset in kernel["datasets"]:
        if not result.get("agreed", {}).get(dataset):
            left_out.append("%s/%s" % (kernel["name"], dataset))
            continue
        tirx = result["outputs"][dataset][0]
        mma_golden.record(recorded, kernel, dataset, suite.data.words(kernel, dataset), tirx)


def device_name(suite):
    """The GPU's name (cupy's device properties), or the dry run's."""
    if suite.dry:
        return "dry run (the float64 model, no GPU)"
    name = suite.cp.cuda.runtime.getDeviceProperties(0)["name"]
    return name.decode() if isinstance(name, bytes) else str(name)


def sensitivity_checks(suite, kept):
    """(ok, description) pairs; each shows a comparison of the suite can
    fail on this data. Skipped with --quick or --only."""
    if suite.quick or suite.only:
        return []
    checks = []
    kernels = {k["name"]: k for k in suite.kernels}
    cache = {}

    def nvcc(name, dataset="normal"):
        if (name, dataset) not in cache:
            kernel = kernels[name]
            cache[name, dataset] = suite.launch(suite.reference, kernel,
                                                suite.data.words(kernel, dataset), POISON)
        return cache[name, dataset]

    def model_differs(name, swap=None, itype=None, bases=None):
        """Elements where a (deliberately wrong) model reading of nvcc's
        normal-data result disagrees beyond the tolerance."""
        kernel = kernels[name]
        kinds = kernel_kinds(kernel)
        mats = suite.data.matrices(kernel, "normal")
        if swap:  # nvcc ran on the right words; the model reads them wrongly
            mats = [unpack(pack(m, kinds[x]), kinds[x], swap.get(x)) for x, m in zip("abc", mats)]
        x, scale = model(*mats, itype or kernel["itype"], ctype(kernel))
        d = suite.data.d_matrix(kernel, nvcc(name), bases)
        if bases:  # every operand read in one repeat order: a wrong slot's products
            words = suite.data.words(kernel, "normal")
            mats = [unpack(fragment_words(words[x], bases[x], suite.warps, kernel["regs"][x]),
                           kinds[x]) for x in "abc"]
            x, scale = model(*mats, kernel["itype"], ctype(kernel))
        return model_compare(d, x, scale, ctype(kernel), kernel["itype"])[2]

    name = "m16n8k16_f32_bf16_warp"
    tirx = kept[name][1]["outputs"]["normal"][0] if name in kept else nvcc(name)
    flipped = tirx.copy()
    flipped[len(flipped) // 3] ^= np.uint32(1)
    count = int((flipped != nvcc(name)).sum())
    checks.append((count == 1, "one bit flipped in one word of %s m16n8k16 bf16 results gives "
                   "%d mismatch with nvcc (must be 1)" % (
                       "TirX's" if name in kept else "nvcc's (TirX's did not run)", count)))
    mutation = suite.mutation
    like = kernels[mutation["like"]]
    inputs = suite.data.words(like, "normal")
    first = suite.launch(suite.reference, like, inputs, POISON, mutation["name"])
    second = suite.launch(suite.reference, like, inputs, POISON2, mutation["name"])
    count = int((first != second).sum())
    checks.append((count == 1, "an nvcc kernel that skips one word of D: the poison check "
                   "sees %d unwritten word (must be 1)" % count))
    total = suite.warps * 128
    count = model_differs(name, swap={"a": (1, 2)})
    checks.append((count > total // 4, "a model reading A's registers 1 and 2 swapped (rows "
                   "8-15 for columns 8-15) differs from nvcc on %d of %d elements" % (count, total)))
    count = model_differs(name, swap={"b": "halves"})
    checks.append((count > total // 4, "a model reading B's halves swapped (k 2t+1 for 2t) "
                   "differs from nvcc on %d of %d elements" % (count, total)))
    count = model_differs(name, itype="f16")
    checks.append((count > total // 4, "a model reading bf16 inputs as f16 differs from nvcc "
                   "on %d of %d elements" % (count, total)))
    name = "m16n8k16_f32_bf16_cta_2x2"
    kernel = kernels[name]
    same = {x: list(range(len(kernel["coords"]))) for x in "dabc"}
    count = model_differs(name, bases=same)
    total = suite.warps * 128 * len(kernel["coords"])
    checks.append((count > total // 4, "cta_2x2 with every operand's repeats in one order "
                   "(a model of a wrong repeat slot) differs from nvcc on %d of %d elements" % (
                       count, total)))
    # tf32 and fp8 in k16's registers: the packing of their words.
    name = "m16n8k8_f32_tf32_warp"
    total = suite.warps * 128
    count = model_differs(name, swap={"a": (1, 2)})
    checks.append((count > total // 4, "a model reading tf32 A's registers 1 and 2 swapped "
                   "(rows 8-15 for k 4-7) differs from nvcc on %d of %d elements" % (count, total)))
    name = "m16n8k32_f32_e4m3_e5m2_warp"
    count = model_differs(name, swap={"a": "bytes"})
    checks.append((count > total // 4, "a model reading the fp8 bytes of A's words in reverse "
                   "order (k 4t+3 for 4t) differs from nvcc on %d of %d elements" % (
                       count, total)))
    count = model_differs(name, itype="e5m2.e4m3")
    checks.append((count > total // 4, "a model reading e4m3 x e5m2 inputs as e5m2 x e4m3 "
                   "differs from nvcc on %d of %d elements" % (count, total)))
    return checks + move_sensitivity_checks(suite, kernels)


def move_sensitivity_checks(suite, kernels):
    """The same for the moves: wrong models of ldmatrix / stmatrix /
    cp.async disagree with nvcc, a flipped bit and an nvcc kernel that
    leaves out one chunk are seen."""
    checks = []
    cache = {}

    def nvcc(name, dataset, poison=None):
        kernel = kernels[name]
        poison = suite.poisons[0] if poison is None else poison
        if (name, dataset) not in cache:
            cache[name, dataset] = suite.launch_move(suite.reference, kernel,
                                                     move_inputs(kernel, dataset), POISON,
                                                     poison, dataset)
        return cache[name, dataset]

    def differs(name, dataset, wrong):
        """Words where a wrong model of the kernel disagrees with nvcc."""
        kernel = kernels[name]
        return int((nvcc(name, dataset) != wrong(kernel, move_inputs(kernel, dataset))).sum())

    p = suite.poisons[0]
    name = "ldmatrix_x4_trans_cta_2x2"
    total = kernels[name]["grid"] * kernels[name]["out_words"]
    count = differs(name, "random", lambda k, i: matrix_model(k, i, p, trans=False))
    checks.append((count > total * 3 // 4, "a model of ldmatrix .x4.trans without the "
                   "transposition differs from nvcc on %d of %d words" % (count, total)))
    count = differs(name, "random", lambda k, i: matrix_model(k, i, p, lanes="wrong"))
    checks.append((count > total * 3 // 4, "a model of ldmatrix putting word (row, w) in lane "
                   "row + 8 w (not 4 row + w) differs from nvcc on %d of %d words" % (
                       count, total)))
    count = differs(name, "random", lambda k, i: matrix_model(k, i, p, bases=[0, 1, 2, 3]))
    checks.append((count > total // 4, "a model of ldmatrix cta_2x2 with the repeats' registers "
                   "in coordinate order (bases 0 1 2 3, not 0 2 1 3) differs from nvcc on %d of "
                   "%d words" % (count, total)))
    name = "stmatrix_x2_trans_warp_padded"
    kernel = kernels[name]
    covered = kernel["grid"] * kernel["warps"] * len(kernel["coords"]) * kernel["count"] * 32
    count = differs(name, "halves", lambda k, i: matrix_model(k, i, p, trans=False))
    checks.append((count > covered * 3 // 4, "a model of stmatrix .x2.trans without the "
                   "transposition differs from nvcc on %d of the %d words it stores" % (
                       count, covered)))
    name = "cp_async_ca_16_zfill_cta"
    total = kernels[name]["grid"] * kernels[name]["out_words"]
    count = differs(name, "src-size 7",
                    lambda k, i: cp_model(k, i, p, 7, honour_size=False))
    checks.append((count > total // 4, "a model of cp.async zero fill that copies all 16 bytes "
                   "at src-size 7 differs from nvcc on %d of %d words" % (count, total)))
    count = differs(name, "src-size 0", lambda k, i: cp_model(k, i, p, 16))
    checks.append((count > total // 4, "a model of cp.async that ignores src-size 0 differs "
                   "from nvcc on %d of %d words" % (count, total)))
    mutation = suite.cp_mutation
    like = kernels[mutation["like"]]
    inputs = move_inputs(like, "random")
    got = suite.launch_move(suite.reference, like, inputs, POISON, p, "random", mutation["name"])
    count = int((got != cp_model(like, inputs, p)).sum())
    checks.append((count == like["chunk"] // 4, "an nvcc kernel that leaves out one 16-byte "
                   "cp.async chunk: %d words differ from the model (must be %d)" % (
                       count, like["chunk"] // 4)))
    name = "cp_async_ca_4_cta_2groups"
    flipped = nvcc(name, "random").copy()
    flipped[len(flipped) // 3] ^= np.uint32(1 << 7)
    count = int((flipped != nvcc(name, "random")).sum())
    checks.append((count == 1, "one bit flipped in one word of a cp.async result gives %d "
                   "mismatch (must be 1)" % count))
    return checks


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
