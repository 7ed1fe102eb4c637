#!/usr/bin/env python3
"""Runs the collectives suite on a GPU: every warp-collective form's TirX
kernel (shfl.sync, vote.sync, redux.sync, bar.warp.sync, and the setp/selp
helpers) against its nvcc inline-asm reference, on the same inputs,
compared bit for bit. Usage:

    run.py DIR [RESULTS.md] [--quick] [--exit-zero] [--dry] [--dry-break=KERNEL]
           [--only=KERNEL,...] [--record=GOLDEN.npz]

DIR comes from gen.py + tirx-opt + nvcc (scripts/make-gpu-bundle.sh):
GROUP.mlir compiled to GROUP.ptx (GROUP.err when tirx-opt refused it),
reference.cu compiled to reference.cubin, cases.json. Data: 256 warps x 32
lanes per operand, element 32 g + l is lane l of warp g (gen.py's
docstring); a shuffle whose b and c are kernel parameters runs once per
(b, c) of its sweep, each launch writing its own row of the outputs.

A form group fails when, on any kernel of the group:
- its module did not compile (the .err file's first lines are printed);
- TirX and nvcc differ on any element of any launch;
- an output element differs between two launches whose outputs were
  poisoned with different patterns (0xFFFFFFFF, then 0x7FBADBAD): an
  element a kernel never writes, TirX's or nvcc's;
- TirX's PTX does not hold the instruction itself exactly once (a regex
  per form: shfl with or without `|p`, the vote/redux spelling,
  `bar.warp.sync -1`; redux.sync.add.u32 may be printed .s32, the same
  operation, and the line then says "PTX spells it ...").
Separately, each group's nvcc results are compared with a numpy model of
the PTX ISA's description (shfl's pseudo-code with b[4:0], c[4:0] the
clamp and c[12:8] the segment mask; vote; redux; setp; selp): a "model"
FAIL says the reference or the model disagrees with the ISA text, not TirX.
Groups built from immediates PTX allows but TirX may reject (shfl with b
>= 32 or c = 0xFFFFFFFF as immediates) print NOTE instead of FAIL when
their module did not compile.

Sensitivity checks show each comparison can fail: one flipped bit of a TirX
result is seen; an nvcc kernel that skips one element is seen by the poison
check; shfl.idx with lane 5 vs lane 6, bfly vs down, min.u32 vs min.s32,
vote.any vs vote.all give different results on this data; a model that
ignores c disagrees with nvcc.

--quick runs the first launch of the first kernel of each form group only,
--only=KERNEL,... those kernels only (neither runs the sensitivity checks),
and --exit-zero exits 0 whatever the comparisons say (run.sh runs both
under compute-sanitizer, whose verdict is then the tool's alone).
--dry needs no GPU: both "kernels" are the numpy model (checks this
script's logic; TirX's PTX text is checked against DIR/reference.ptx,
nvcc's PTX of the reference, when present; a GROUP.err still means "did
not compile"); --dry-break=KERNEL makes that kernel's dry "TirX" result
wrong in one bit of one element (its group must fail).

--record=GOLDEN.npz writes the first 4 warps' inputs and TirX's outputs of
every launch where TirX equalled nvcc bit for bit and wrote every element
(collectives_golden.py describes the file), for the interpreter's
comparison in `make check` (test/python/test_interpreter_collectives.py).
A suite generated at fewer warps (gen.py --total-warps K) runs on the first
32 K words of the 256-warp suite's inputs: its launches record the same
words.
"""
import json
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import collectives_golden  # noqa: E402

POISON, POISON2 = 0xFFFFFFFF, 0x7FBADBAD
INT_MIN, INT_MAX = 0x80000000, 0x7FFFFFFF
FULL = 256 * 32            # elements per operand at gen.py's default launch
MUTATION_SKIP = 32 * 5 + 13   # gen.py's: the element mutation_skip_one leaves unwritten

# ===----------------------------------------------------------------------===#
# Inputs (uint32 words, 256 warps x 32 lanes)
# ===----------------------------------------------------------------------===#

LANE = np.arange(32, dtype=np.int64)


def unique_random(rng, warps):
    """Random words, distinct within each warp (so a value names its lane)."""
    values = rng.integers(0, 1 << 32, (warps, 32), dtype=np.uint64).astype(np.uint32)
    for w in range(warps):
        while len(np.unique(values[w])) < 32:
            values[w] = rng.integers(0, 1 << 32, 32, dtype=np.uint64).astype(np.uint32)
    return values


FLOAT_SPECIALS = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000,
                  0x7F800001, 0x7FBFFFFF, 0xFF800001, 0xFFBFFFFF, 0x7FC00123, 0xFFC00321,
                  0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000, 0x80800000,
                  0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000, 0x3F800001, 0x33000000,
                  0x7FFFFFFF, 0xFFFFFFFF, 0x7F80FFFF, 0x7FC0FFFF, 0x3EAAAAAB, 0x40490FDB,
                  0x4B800000, 0xCB7FFFFF]


def shuffle_source(nw, seed):
    """Values to shuffle: distinct in every warp; warps 0-3 structured
    integers, 4-7 float specials (signaling and quiet NaNs with payloads,
    -0, subnormals, infinities: a shuffle moves bits, never canonicalizes),
    the rest random."""
    rng = np.random.default_rng(seed)
    values = unique_random(rng, nw)
    lane = LANE.astype(np.uint64)
    values[0] = lane
    values[1] = INT_MIN + lane
    values[2] = 0xFFFFFFFF - lane
    values[3] = INT_MAX - lane
    values[4] = np.array(FLOAT_SPECIALS, dtype=np.uint32)
    values[5] = 0x7F800001 + lane * 0x10101          # signaling NaNs
    values[6] = 0xFFC00001 + lane * 0x1001           # negative quiet NaNs
    values[7] = np.where(lane % 2 == 0, lane + 1, 0x80000000 + lane + 1)  # subnormals
    return values.astype(np.uint32)


def lane_operands(nw, seed):
    """A per-lane b (source lane or offset) for every lane: structured
    warps (identity, reversal, constants, xor patterns, values >= 32 whose
    b[4:0] is a lane), then random in [0, 32), [0, 64) and all 32 bits."""
    rng = np.random.default_rng(seed)
    lane = LANE
    fixed = [lane, 31 - lane, 0 * lane, 0 * lane + 1, 0 * lane + 16, 0 * lane + 31,
             32 + lane, lane ^ 1, lane ^ 16, lane ^ 31, (lane * 7) % 32, (lane + 1) % 32,
             (lane - 1) % 32, 0 * lane + 0xFFFFFFFF, 0x80000000 + lane, 0 * lane + 0x20,
             0xFFFFFFE0 + lane, lane * 0x01000001, 0x40 + (31 - lane), lane * 3 + 100]
    values = np.zeros((nw, 32), dtype=np.uint64)
    for w, f in enumerate(fixed):
        values[w] = np.asarray(f, dtype=np.int64).astype(np.uint64) & 0xFFFFFFFF
    for w in range(len(fixed), nw):
        kind = w % 4
        high = [32, 64, 1 << 32, 8][kind]
        values[w] = rng.integers(0, high, 32, dtype=np.uint64)
    return values.astype(np.uint32)


def vote_inputs(nw, seed):
    """Words whose != 0 is the vote's predicate: all true, all false, one
    true lane (each lane), one false lane (each lane), alternating, halves,
    then random densities. True words are random nonzero (0x80000000 and
    0xFFFFFFFF among them)."""
    rng = np.random.default_rng(seed)
    truth = np.zeros((nw, 32), dtype=bool)
    truth[0] = True
    row = 2
    for k in range(32):
        truth[row, k] = True
        truth[row + 32] = True
        truth[row + 32, k] = False
        row += 1
    row += 32
    for pattern in (LANE % 2 == 0, LANE % 2 == 1, LANE < 16, LANE >= 16):
        truth[row] = pattern
        row += 1
    densities = [0.5, 0.1, 0.9, 0.03, 0.97]
    for w in range(row, nw):
        truth[w] = rng.random(32) < densities[w % len(densities)]
    nonzero = rng.integers(1, 1 << 32, (nw, 32), dtype=np.uint64).astype(np.uint32)
    nonzero[1::7, 3] = INT_MIN
    nonzero[2::5, 7] = 0xFFFFFFFF
    nonzero[3::3, 11] = 1
    return np.where(truth, nonzero, 0).astype(np.uint32)


REDUX_SPECIALS = [0, 1, 0xFFFFFFFF, INT_MIN, INT_MAX, INT_MIN + 1, INT_MAX - 1,
                  0x55555555, 0xAAAAAAAA, 2, 0xFFFFFFFE]


def redux_inputs(nw, seed):
    """Per warp: all INT_MIN, all INT_MAX, all 0, all -1 (UINT_MAX), all 1,
    alternating INT_MIN/INT_MAX, lanes drawn from the specials, one special
    among small values, sums that wrap, one bit per lane, mixed signs, all
    negative, then random."""
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 1 << 32, (nw, 32), dtype=np.uint64)
    lane = LANE.astype(np.uint64)
    specials = np.array(REDUX_SPECIALS, dtype=np.uint64)
    fixed = [np.full(32, INT_MIN), np.full(32, INT_MAX), np.zeros(32), np.full(32, 0xFFFFFFFF),
             np.ones(32), np.where(lane % 2 == 0, INT_MIN, INT_MAX), lane, 1 << lane,
             np.full(32, 0x40000000), np.full(32, 0xC0000000)]
    for k in range(12):
        fixed.append(specials[rng.integers(0, len(specials), 32)])
    for special in (INT_MIN, INT_MAX, 0xFFFFFFFF, 0):
        for k in (0, 17, 31):
            small = rng.integers(1, 1000, 32, dtype=np.uint64)
            small[k] = special
            fixed.append(small)
    for w, f in enumerate(fixed):
        values[w] = np.asarray(f, dtype=np.uint64)
    for w in range(len(fixed), nw):
        kind = w % 5
        if kind == 1:      # small non-negative
            values[w] = rng.integers(0, 1000, 32, dtype=np.uint64)
        elif kind == 2:    # small, mixed signs
            values[w] = rng.integers(-1000, 1000, 32).astype(np.int64).astype(np.uint64) & 0xFFFFFFFF
        elif kind == 3:    # all negative as s32
            values[w] |= np.uint64(INT_MIN)
        elif kind == 4:    # all equal
            values[w] = values[w, 0]
    return values.astype(np.uint32)


SETP_SPECIALS = [0, 1, 2, 0xFFFFFFFF, 0xFFFFFFFE, INT_MIN, INT_MIN + 1, INT_MAX,
                 INT_MAX - 1, 5, 0xFFFFFFFB, 0xFFFF, 0x10000, 0x7FFF8000, 0x80008000, 0xDEADBEEF]


def setp_inputs(n, seed):
    """(a, b): every special against every special, then equal pairs,
    neighbours (b = a + 1, b = a - 1) and random pairs."""
    rng = np.random.default_rng(seed)
    s = np.array(SETP_SPECIALS, dtype=np.uint64)
    a = rng.integers(0, 1 << 32, n, dtype=np.uint64)
    b = rng.integers(0, 1 << 32, n, dtype=np.uint64)
    k = len(s) * len(s)
    a[:k], b[:k] = np.repeat(s, len(s)), np.tile(s, len(s))
    q = (n - k) // 4
    b[k: k + q] = a[k: k + q]
    b[k + q: k + 2 * q] = (a[k + q: k + 2 * q] + 1) & 0xFFFFFFFF
    b[k + 2 * q: k + 3 * q] = (a[k + 2 * q: k + 3 * q] - 1) & 0xFFFFFFFF
    return a.astype(np.uint32), b.astype(np.uint32)


FLOAT_COMPARE_SPECIALS = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x7F800000,
                          0xFF800000, 0x7FC00000, 0x7F800001, 0xFFC00001, 0x00000001,
                          0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0x3F800001,
                          0x3F000000]


def float_compare_inputs(n, seed):
    """(a, b) f32 bits: every special (+-0, +-1, +-inf, quiet, signaling
    and negative NaNs, subnormals, the smallest normal, the largest float)
    against every special, then equal pairs, neighbours one ulp apart,
    ordinary numbers and random bits."""
    rng = np.random.default_rng(seed)
    s = np.array(FLOAT_COMPARE_SPECIALS, dtype=np.uint64)
    a = rng.integers(0, 1 << 32, n, dtype=np.uint64)
    b = rng.integers(0, 1 << 32, n, dtype=np.uint64)
    k = len(s) * len(s)
    a[:k], b[:k] = np.repeat(s, len(s)), np.tile(s, len(s))
    q = (n - k) // 4
    b[k: k + q] = a[k: k + q]
    b[k + q: k + 2 * q] = (a[k + q: k + 2 * q] + 1) & 0xFFFFFFFF
    normal = rng.standard_normal(2 * q).astype(np.float32).view(np.uint32)
    a[k + 2 * q: k + 3 * q], b[k + 2 * q: k + 3 * q] = normal[:q], normal[q:]
    return a.astype(np.uint32), b.astype(np.uint32)


def input_arrays(n):
    """Every input of the suite, by the name cases.json uses: drawn at FULL
    elements, the first n of them (a smaller launch's data is a prefix of
    the full suite's)."""
    if not 0 < n <= FULL or n % 32:
        raise ValueError("%d elements: a multiple of 32 up to %d" % (n, FULL))
    return {name: words[:n].copy() for name, words in draw_inputs(FULL).items()}


def draw_inputs(n):
    """Every input drawn at n elements (what is drawn depends on n)."""
    nw = n // 32
    rng = np.random.default_rng(17)
    data = {"shfl_a_%s" % dt: shuffle_source(nw, seed).ravel()
            for seed, dt in enumerate(("f32", "i32", "ui32"), 1)}
    data["lane_b"] = lane_operands(nw, 4).ravel()
    data["vote_x"] = vote_inputs(nw, 5).ravel()
    data["redux_a"] = redux_inputs(nw, 6).ravel()
    data["setp_a"], data["setp_b"] = setp_inputs(n, 7)
    data["setpf_a"], data["setpf_b"] = float_compare_inputs(n, 8)
    data["selp_a"] = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    data["selp_b"] = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    c = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    c[rng.random(n) < 0.5] = 0
    c[::97] = INT_MIN
    data["selp_c"] = c
    return data


# ===----------------------------------------------------------------------===#
# The model: the PTX ISA's description of each instruction, in numpy
# ===----------------------------------------------------------------------===#

def shfl_model(mode, a, b, c):
    """shfl.sync.MODE.b32 d|p, a, b, c, 0xffffffff over warps: a (W, 32);
    b a scalar or (W, 32); c a scalar. Returns (d, p) as uint32 (W, 32)."""
    a = a.reshape(-1, 32)
    lane = LANE[None, :]
    bval = (np.asarray(b, dtype=np.int64) & 31) + 0 * lane
    c = int(c)
    cval, seg = c & 31, (c >> 8) & 31
    max_lane = (lane & seg) | (cval & ~seg)
    min_lane = lane & seg
    if mode == "up":
        j = lane - bval
        valid = j >= max_lane
    elif mode == "down":
        j = lane + bval
        valid = j <= max_lane
    elif mode == "bfly":
        j = lane ^ bval
        valid = j <= max_lane
    else:
        j = min_lane | (bval & ~seg)
        valid = j <= max_lane
    j = np.where(valid, j, lane)
    j = np.broadcast_to(j, a.shape)
    d = np.take_along_axis(a, j, axis=1)
    return d.ravel(), np.broadcast_to(valid, a.shape).astype(np.uint32).ravel()


def vote_model(mode, x):
    pred = x.reshape(-1, 32) != 0
    if mode == "ballot":
        bits = (pred.astype(np.uint64) << LANE.astype(np.uint64)[None, :]).sum(axis=1)
        out = bits.astype(np.uint32)
    elif mode == "all":
        out = pred.all(axis=1).astype(np.uint32)
    elif mode == "any":
        out = pred.any(axis=1).astype(np.uint32)
    else:
        out = (pred.all(axis=1) | ~pred.any(axis=1)).astype(np.uint32)
    return np.repeat(out, 32)


def redux_model(op, ptype, a):
    a = a.reshape(-1, 32)
    if op == "add":
        out = (a.astype(np.uint64).sum(axis=1) & 0xFFFFFFFF).astype(np.uint32)
    elif op in ("min", "max"):
        v = a.view(np.int32) if ptype == "s32" else a
        out = (v.min(axis=1) if op == "min" else v.max(axis=1)).astype(v.dtype).view(np.uint32)
    else:
        ufunc = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[op]
        out = ufunc.reduce(a, axis=1)
    return np.repeat(out.astype(np.uint32), 32)


def flush_subnormals(bits):
    """f32 bits with subnormals replaced by a zero of the same sign (.ftz)."""
    bits = np.asarray(bits, dtype=np.uint32)
    subnormal = ((bits & 0x7F800000) == 0) & ((bits & 0x007FFFFF) != 0)
    return np.where(subnormal, bits & 0x80000000, bits).astype(np.uint32)


def setp_model(op, ptype, a, b):
    """setp.OP.TYPE: s32/u32/b32 integer comparisons (lo/ls/hi/hs the
    unsigned ones); f32 ordered (false on NaN; `ne` too), unordered
    (equ..geu: true on NaN), num, nan; .ftz flushes subnormal inputs."""
    b = np.asarray(b, dtype=np.uint32)
    if ptype.endswith("f32"):
        if ptype.startswith("ftz"):
            a, b = flush_subnormals(a), flush_subnormals(b)
        x, y = a.view(np.float32), b.view(np.float32)
        unordered = np.isnan(x) | np.isnan(y)
        with np.errstate(invalid="ignore"):
            base = {"eq": x == y, "ne": x != y, "lt": x < y, "le": x <= y, "gt": x > y,
                    "ge": x >= y}
        if op in base:
            result = base[op] & ~unordered
        elif op in ("equ", "neu", "ltu", "leu", "gtu", "geu"):
            result = base[op[:-1]] | unordered
        elif op == "num":
            result = ~unordered
        else:
            result = unordered
        return result.astype(np.uint32)
    if ptype == "s32":
        a, b = a.view(np.int32), b.view(np.int32)
    op = {"lo": "lt", "ls": "le", "hi": "gt", "hs": "ge"}.get(op, op)
    compare = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
               "gt": np.greater, "ge": np.greater_equal}[op]
    return compare(a, b).astype(np.uint32)


def named_barrier_model(kind, a):
    """gen.py's NAMED_BARRIERS: what each warp of a 4-warp CTA reads back."""
    a = a.reshape(-1, 4, 32)
    warps = np.arange(4)
    if kind == "all":
        source = (warps + 1) % 4
    elif kind == "pairs":
        source = np.where(warps % 2 == 0, warps + 1, warps)
    else:
        source = np.where(warps >= 2, warps - 2, warps)
    return a[:, source, :].ravel()


def model(case, inputs, scalars, ignore_c=False):
    """The expected outputs (uint32 arrays, in the case's output order) of
    one launch. inputs: {name: words}; scalars: the launch's i32 values."""
    family = case["family"]
    if family == "shfl":
        values = dict(zip(case["scalars"], scalars))
        b = case["b"]
        b = values["bs"] if b == "s" else (inputs["b"].reshape(-1, 32) if b == "t" else b)
        c = values["cs"] if case["c"] == "s" else case["c"]
        d, p = shfl_model(case["mode"], inputs["a"], b, 0x1F if ignore_c else c)
        return [d, p] if case["pred"] else [d]
    if family == "vote":
        return [vote_model(case["mode"], inputs["a"])]
    if family == "redux":
        return [redux_model(case["op"], case["ptype"], inputs["a"])]
    if family == "bar":
        return [inputs["a"].copy()]
    if family == "named_barrier":
        return [named_barrier_model(case["kind"], inputs["a"])]
    if family == "activemask":
        return [np.full(case["n"], 0xFFFFFFFF, dtype=np.uint32)]
    if family == "setp":
        b = inputs["b"] if case["imm"] is None else np.uint32(case["imm"])
        return [setp_model(case["op"], case["ptype"], inputs["a"], b)]
    if family == "selp":
        if case["variant"] == "tiles":
            a, b = inputs["a"], inputs["b"]
        else:
            a, b = np.uint32(0xDEADBEEF), np.uint32(0x12345678)  # gen.py's immediates
        return [np.where(inputs["c"] != 0, a, b).astype(np.uint32)]
    raise ValueError(family)


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


class DryModule:
    """Kernels computed by the model: writes every output element (all but
    element MUTATION_SKIP for mutation_skip_one, wrapped into the launch as
    gen.py does)."""

    def __init__(self, cases, broken=()):
        self.cases = {c["name"]: c for c in cases}
        self.broken = set(broken)

    def get_function(self, name):
        case = self.cases.get(name)
        if name == "mutation_skip_one":
            case = {"family": "shfl", "mode": "bfly", "pred": False, "b": 1, "c": 0x1F,
                    "scalars": [], "inputs": ["a"], "outputs": ["d"]}

        def launch(grid, block, args):
            outs = args[: len(case["outputs"])]
            ins = dict(zip(case["inputs"], args[len(case["outputs"]):]))
            scalars = [int(s) for s in args[len(case["outputs"]) + len(case["inputs"]):]]
            expected = model(case, ins, scalars)
            for out, value in zip(outs, expected):
                if name == "mutation_skip_one":
                    value = value.copy()
                    skip = MUTATION_SKIP % len(value)
                    value[skip] = out[skip]
                if name in self.broken:
                    value = value.copy()
                    value[-1] ^= np.uint32(1 << 30)
                out[...] = value
        return launch


def entries(ptx):
    """{kernel name: its PTX text}."""
    parts = re.split(r"^\.visible \.entry (\w+)\(", ptx, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


class Suite:
    def __init__(self, directory, quick=False, dry=False, broken=(), only=None):
        self.directory, self.quick, self.dry, self.only = directory, quick, dry, only
        spec = json.load(open(os.path.join(directory, "cases.json")))
        self.n, self.cases = spec["n"], spec["cases"]
        if only:
            missing = set(only) - {c["name"] for c in self.cases}
            if missing:
                raise SystemExit("run.py: --only: no kernel %s" % ", ".join(sorted(missing)))
            self.cases = [c for c in self.cases if c["name"] in only]
        if quick:  # the first kernel of each form group
            seen = set()
            self.cases = [c for c in self.cases
                          if group_label(c) not in seen and not seen.add(group_label(c))]
        self.inputs = input_arrays(self.n)
        if dry:
            self.cp = DryArrays
            self.reference = DryModule(self.cases)
        else:
            import cupy
            self.cp = cupy
            self.reference = cupy.RawModule(path=os.path.join(directory, "reference.cubin"))
        self.modules, self.errors, self.ptx = {}, {}, {}
        dry_ptx = os.path.join(directory, "reference.ptx")
        for file in sorted({c["file"] for c in self.cases}):
            path = os.path.join(directory, file + ".ptx")
            err = os.path.join(directory, file + ".err")
            if os.path.exists(path):
                self.ptx.update(entries(open(path).read()))
                self.modules[file] = (DryModule(self.cases, broken) if dry else
                                      self.cp.RawModule(path=path))
            elif dry and not os.path.exists(err):
                self.modules[file] = DryModule(self.cases, broken)
            else:
                text = open(err).read() if os.path.exists(err) else "no %s.ptx" % file
                lines = text.strip().splitlines()
                errors = [l.split("error:", 1)[1].strip() for l in lines if "error:" in l]
                # A crash: its first frame in TirX's code.
                errors = errors or ["crashed: " + l.strip() for l in lines
                                    if re.search(r"#\d+ .*(tirx|Tile|Apply|Dispatch)", l)]
                self.errors[file] = [e[:300] for e in (errors or lines)[:3]] or ["no PTX"]
        if dry and os.path.exists(dry_ptx):
            for name, text in entries(open(dry_ptx).read()).items():
                self.ptx.setdefault(name, text)

    def launch(self, module, case, sweep, pattern):
        """Every launch of the sweep, outputs poisoned with pattern: one
        (launches, n) uint32 array per output."""
        cp = self.cp
        ins = [cp.asarray(self.inputs[case["input_data"][name]]) for name in case["inputs"]]
        outs = [cp.full((len(sweep), self.n), pattern, dtype=np.uint32)
                for _ in case["outputs"]]
        function = module.get_function(case["name"])
        for row, scalars in enumerate(sweep):
            args = [o[row] for o in outs] + ins + [np.uint32(s) for s in scalars]
            function((case["grid"],), (case["block"],), args)
        return [cp.asnumpy(o) for o in outs]

    def run_case(self, case):
        sweep = case["sweep"][:1] if self.quick else case["sweep"]
        if case["file"] in self.errors:
            return {"compiled": False, "launches": len(sweep)}
        module = self.modules[case["file"]]
        tirx = self.launch(module, case, sweep, POISON)
        nvcc = self.launch(self.reference, case, sweep, POISON)
        tirx2 = self.launch(module, case, sweep, POISON2)
        nvcc2 = self.launch(self.reference, case, sweep, POISON2)
        inputs = {name: self.inputs[case["input_data"][name]] for name in case["inputs"]}
        mismatched = sum(int((t != v).sum()) for t, v in zip(tirx, nvcc))
        unwritten = sum(int((x != y).sum()) for x, y in zip(tirx + nvcc, tirx2 + nvcc2))
        # Recordable (--record): this launch's outputs equal nvcc's in both
        # poisonings, every element written.
        agreed = [all((t[row] == v[row]).all() and (t2[row] == v2[row]).all() and
                      (t[row] == t2[row]).all()
                      for t, v, t2, v2 in zip(tirx, nvcc, tirx2, nvcc2))
                  for row in range(len(sweep))]
        model_mismatched = 0
        for row, scalars in enumerate(sweep):
            expected = model(case, inputs, scalars)
            model_mismatched += sum(int((v[row] != e).sum()) for v, e in zip(nvcc, expected))
        # TirX's PTX: the instruction, exactly once (one per warp, no repeats).
        text, spelled = self.ptx.get(case["name"]), set()
        if case["ptx"] is None:
            text_ok = True
        elif text is None:
            text_ok = None if self.dry else False
        else:
            found = [m.group(0).split()[0] for m in re.finditer(case["ptx"], text, re.M)]
            text_ok, spelled = len(found) == 1, set(found)
        return {"compiled": True, "launches": len(sweep), "spelled": spelled,
                "elements": len(sweep) * self.n * len(case["outputs"]),
                "mismatched": mismatched, "unwritten": unwritten,
                "model": model_mismatched, "text": text_ok, "tirx": tirx, "nvcc": nvcc,
                "sweep": sweep, "agreed": agreed}


def group_label(case):
    return case["group"] + (" wide immediates" if case["optional"] else "")


def main(argv):
    flags = {a for a in argv if a.startswith("--")}
    args = [a for a in argv if not a.startswith("--")]
    directory, results_path = args[0], (args[1] if len(args) > 1 else None)
    broken = [a.split("=", 1)[1] for a in flags if a.startswith("--dry-break=")]
    if "--record" in flags:
        raise SystemExit("run.py: --record=GOLDEN.npz (with '=')")
    record = [a.split("=", 1)[1] for a in flags if a.startswith("--record=")]
    recorded, left_out = [], []
    only = [a.split("=", 1)[1].split(",") for a in flags if a.startswith("--only=")]
    suite = Suite(directory, quick="--quick" in flags, dry="--dry" in flags, broken=broken,
                  only=only[0] if only else None)
    groups, kept = {}, {}
    keep = {"shfl_bfly_reg_i32"}
    for case in suite.cases:
        try:
            result = suite.run_case(case)
        except Exception as error:  # a missing kernel, a launch error: this case fails
            print("error: %s: %s: %s" % (case["name"], type(error).__name__, error))
            result = {"compiled": True, "launches": 0, "elements": 0, "mismatched": 0,
                      "unwritten": 0, "model": 0, "text": None, "raised": str(error)}
        g = groups.setdefault(group_label(case), {
            "kernels": 0, "launches": 0, "elements": 0, "mismatched": 0, "unwritten": 0,
            "model": 0, "text_missing": [], "uncompiled": set(), "optional": case["optional"],
            "spelled": set(),
            "bad": []})
        g["kernels"] += 1
        g["launches"] += result["launches"]
        if not result["compiled"]:
            g["uncompiled"].add(case["file"])
            continue
        for key in ("elements", "mismatched", "unwritten", "model"):
            g[key] += result[key]
        if result["text"] is False:
            g["text_missing"].append(case["name"])
        g["spelled"] |= {w for w in result.get("spelled", ()) if w != case["spelling"]}
        if "raised" in result:
            g["bad"].append("%s raised %s" % (case["name"], result["raised"][:200]))
        elif result["mismatched"] or result["unwritten"]:
            g["bad"].append("%s (%d differ, %d unwritten)" % (
                case["name"], result["mismatched"], result["unwritten"]))
        if case["name"] in keep:
            kept[case["name"]] = (case, result)
        if record:
            record_case(suite, case, result, recorded, left_out)
    failures, notes, model_failures = 0, 0, 0
    rows = []
    for label, g in groups.items():
        if g["uncompiled"]:
            verdict = "NOTE" if g["optional"] else "FAIL"
            detail = "did not compile: " + "; ".join(
                "%s.mlir: %s" % (f, " / ".join(suite.errors[f])) for f in sorted(g["uncompiled"]))
        else:
            ok = not (g["mismatched"] or g["unwritten"] or g["text_missing"] or g["bad"])
            verdict = "PASS" if ok else "FAIL"
            detail = "%d kernels, %d launches, %d elements: %d differ from nvcc, %d unwritten" % (
                g["kernels"], g["launches"], g["elements"], g["mismatched"], g["unwritten"])
            if g["text_missing"]:
                detail += ("; PTX lacks the instruction (or has it more than once) in " +
                           ", ".join(g["text_missing"]))
            if g["spelled"]:
                detail += "; PTX spells it " + ", ".join(sorted(g["spelled"]))
            if g["bad"]:
                detail += "; " + ", ".join(g["bad"][:8])
        failures += verdict == "FAIL"
        notes += verdict == "NOTE"
        print("%s: collectives %s (%s)" % (verdict, label, detail))
        model_ok = g["model"] == 0
        if not g["uncompiled"]:
            model_failures += not model_ok
            print("%s: collectives model %s (nvcc vs numpy's PTX ISA model: %d of %d differ)" % (
                "PASS" if model_ok else "FAIL", label, g["model"], g["elements"]))
        rows.append((label, g["kernels"], g["launches"], g["elements"], g["mismatched"],
                     g["unwritten"], g["model"] if not g["uncompiled"] else "-",
                     "missing in %d" % len(g["text_missing"]) if g["text_missing"] else
                     ("-" if g["uncompiled"] else "ok"), verdict))
    try:
        sensitivity = sensitivity_checks(suite, kept)
    except Exception as error:
        sensitivity = [(False, "the checks raised %s: %s" % (type(error).__name__, error))]
    for ok, text in sensitivity:
        print("%s: collectives sensitivity: %s" % ("PASS" if ok else "FAIL", text))
    lines = ["| form group | kernels | launches | elements | TirX vs nvcc mismatches | "
             "unwritten | nvcc vs model | PTX text | |",
             "|---|---:|---:|---:|---:|---:|---:|---|---|"]
    lines += ["| `%s` | %d | %d | %d | %d | %d | %s | %s | %s |" % (
        (row[0].replace("|", "\\|"),) + row[1:]) for row in rows]
    lines.append("")
    lines += ["Sensitivity: %s (%s)." % (text, "ok" if ok else "FAILED") for ok, text in sensitivity]
    sensitivity_failures = sum(not ok for ok, _ in sensitivity)
    record_failed = False
    if record:
        try:
            device = device_name(suite)
            stored = collectives_golden.save(record[0], device, recorded)
            print("collectives: %d launches (%d kernels) of the %s recorded in %s, %d word "
                  "rows, %d bytes%s" % (
                      len(recorded), len({r["kernel"] for r in recorded}), device, record[0],
                      stored, os.path.getsize(record[0]),
                      "; left out (TirX differed from nvcc, or did not run): " +
                      ", ".join(left_out) if left_out else ""))
        except Exception as error:   # the verdicts above stand; the golden is missing
            record_failed = True
            print("FAIL: collectives --record=%s: %s: %s" % (record[0], type(error).__name__,
                                                               error))
    summary = ("%d form groups: %d passed, %d failed, %d notes; model: %d failed; "
               "sensitivity: %d failed%s" % (
                   len(rows), len(rows) - failures - notes, failures, notes, model_failures,
                   sensitivity_failures, " (dry run: no GPU)" if suite.dry else ""))
    lines += ["", summary]
    if results_path:
        open(results_path, "w").write("\n".join(lines) + "\n")
    print(summary)
    if "--exit-zero" in flags:  # under compute-sanitizer: the tool's verdict only
        return 0
    return 1 if failures or model_failures or sensitivity_failures or record_failed else 0


def record_case(suite, case, result, recorded, left_out):
    """Adds the case's launches where TirX agreed with nvcc to recorded
    (collectives_golden.record); names the case in left_out when some are
    not (with how many, when others are)."""
    inputs = {name: suite.inputs[case["input_data"][name]] for name in case["inputs"]}
    agreed = result.get("agreed") or [False]
    if not all(agreed):
        left_out.append(case["name"] + (" (%d of %d launches)" % (
            agreed.count(False), len(agreed)) if any(agreed) else ""))
    for row, scalars in enumerate(result.get("sweep", [])):
        if agreed[row]:
            collectives_golden.record(recorded, case, inputs, scalars,
                                      [o[row] for o in result["tirx"]])


def device_name(suite):
    """The GPU's name (cupy's device properties), or the dry run's."""
    if suite.dry:
        return "dry run (the numpy model, no GPU)"
    name = suite.cp.cuda.runtime.getDeviceProperties(0)["name"]
    return name.decode() if isinstance(name, bytes) else str(name)


def sensitivity_checks(suite, kept):
    """(ok, description) pairs; each shows a comparison of the suite can
    fail on this data. nvcc's kernels only, but for the flipped bit (TirX's
    result when its kernel ran). Skipped in --quick and --only modes."""
    if suite.quick or suite.only:
        return []
    checks, n = [], suite.n
    cases = {c["name"]: c for c in suite.cases}
    cache = {}

    def nvcc(name, scalars=None):
        """nvcc's first output over the case's sweep, or one launch's row."""
        if name not in cache:
            cache[name] = suite.launch(suite.reference, cases[name], cases[name]["sweep"],
                                       POISON)[0]
        if scalars is None:
            return cache[name]
        return cache[name][cases[name]["sweep"].index(scalars)]

    name = "shfl_bfly_reg_i32"
    tirx = kept[name][1]["tirx"][0] if name in kept else nvcc(name)
    flipped = tirx.copy()
    flipped[3, n // 3] ^= np.uint32(1)
    count = int((flipped != nvcc(name)).sum())
    checks.append((count == 1, "one bit flipped in one element of %s shfl.sync.bfly.b32 "
                   "results gives %d mismatch with nvcc (must be 1)" % (
                       "TirX's" if name in kept else "nvcc's (TirX's did not run)", count)))
    # An nvcc kernel that leaves element 173 unwritten.
    case = {"name": "mutation_skip_one", "inputs": ["a"], "outputs": ["d"], "grid": n // 128,
            "block": 128, "input_data": {"a": "shfl_a_i32"}}
    first = suite.launch(suite.reference, case, [[]], POISON)[0]
    second = suite.launch(suite.reference, case, [[]], POISON2)[0]
    count = int((first != second).sum())
    checks.append((count == 1, "an nvcc kernel that skips one element: the poison check "
                   "sees %d unwritten element (must be 1)" % count))
    count = int((nvcc("shfl_idx_reg_i32", [5, 0x1F]) != nvcc("shfl_idx_reg_i32", [6, 0x1F])).sum())
    checks.append((count == n, "shfl.sync.idx from lane 5 vs lane 6 differs on %d of %d "
                   "elements (must be all: values are distinct in each warp)" % (count, n)))
    count = int((nvcc("shfl_bfly_reg_i32", [1, 0x1F]) !=
                 nvcc("shfl_down_reg_i32", [1, 0x1F])).sum())
    checks.append((count >= n // 2, "shfl.sync.bfly vs shfl.sync.down by 1 differs on %d of %d "
                   "elements (must be >= half: the odd lanes)" % (count, n)))
    case = cases["shfl_down_reg_i32"]
    inputs = {"a": suite.inputs["shfl_a_i32"]}
    count = sum(int((nvcc(case["name"])[row] != model(case, inputs, s, ignore_c=True)[0]).sum())
                for row, s in enumerate(case["sweep"]))
    checks.append((count > 0, "a model of shfl.sync.down that ignores c differs from nvcc on "
                   "%d elements" % count))
    count = int((nvcc("redux_min_u32_ui32") != nvcc("redux_min_s32_i32")).sum())
    checks.append((count > 0, "redux.sync.min.u32 vs .s32 differ on %d elements" % count))
    count = int((nvcc("vote_any_i1") != nvcc("vote_all_i1")).sum())
    checks.append((count > 0, "vote.sync.any vs vote.sync.all differ on %d elements" % count))
    return checks


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
