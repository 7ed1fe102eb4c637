#!/usr/bin/env python3
"""Generates the matrix suite (issue 18, item 2): every mma.sync,
ldmatrix, stmatrix and cp.async form that tile.apply accepts today, as TirX
kernels and as CUDA C++ reference kernels that issue the same instruction
through inline asm with the same operands:

    mma.sync.aligned.m16n8k16.row.col.f32.{f16.f16,bf16.bf16}.f32
    mma.sync.aligned.m16n8k8.row.col.f32.{f16.f16,bf16.bf16}.f32
    mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16
    mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16
    mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
    mma.sync.aligned.m16n8k32.row.col.f32.{e4m3,e5m2}.{e4m3,e5m2}.f32
    ldmatrix.sync.aligned.m8n8.{x1,x2,x4}[.trans].shared.b16
    stmatrix.sync.aligned.m8n8.{x1,x2,x4}[.trans].shared.b16
    cp.async.ca.shared.global[.L2::128B]  4, 8, 16 bytes [, src-size]
    cp.async.cg.shared.global[.L2::128B]  16 bytes [, src-size]
    (cp.async.commit_group, cp.async.wait_group 0 / 1, cp.async.wait_all)

    gen.py OUT_DIR [--total-warps K]
                       writes FORM.mlir (one module per form group, its
                       variants as kernels), reference.cu (every reference
                       kernel) and cases.json; K warps a launch (default
                       TOTAL_WARPS, a multiple of 4: the interpreter runs
                       the recorded goldens at 4, mma_golden.py)

The mma.sync part is described first; the moves (ldmatrix, stmatrix,
cp.async) after it.

Variants of each form (kernel NAME = FORM_VARIANT, FORM as in the file name
with '_' for '-'):
- warp:          scope(warp), one mma per warp, D a tile of its own.
- warp_inplace:  scope(warp), D and C the same tile (mma (%c, %a, %b, %c)).
- cta:           scope(cta), 4 warps (the group) x 2 repeats, every operand
                 with its repeats at register bases 0 and N (N registers a
                 fragment).
- cta_2x2:       scope(cta), 4 warps x (2, 2) independent repeats (written
                 (2, 2, 1, 1): mma's last two repeat dimensions are (M, N),
                 (M, K), (N, K), here 1, the (2, 2) a batch) whose register bases
                 differ by operand: repeat (i, j) is at base i + 2 j of A
                 and C and at base 2 i + j of B and D (strides (N, 2N) and
                 (2N, N)), so a slot computed from the wrong repeat, or the
                 same order for every operand, gives other products.
- warpgroup:     scope(warpgroup), one warpgroup per CTA (wid_in_wg) x 2
                 repeats.

Layout of the data. Every launch runs 256 warps (grid 256 x block 32, or
grid 64 x block 128). Thread t = blockIdx.x * blockDim.x + threadIdx.x
(lane t % 32 of warp t / 32) holds, of each operand X, W_X = R * N_X
consecutive 32-bit words at X[t * W_X ...]: its registers in order, repeat
q (a register base) at words q * N_X ... q * N_X + N_X - 1, each the
fragment register the PTX ISA (9.7.14.5.8) gives that lane. In TirX these
words are a per-lane view (tirx.reinterpret) of the fragment tile,
S[(4, 32, W_X, 1) : (1@warpid, 1@laneid, 1, 1)] at scope(cta)
(1@wid_in_wg at scope(warpgroup), no warp axis at scope(warp)), loaded
from and stored to the CTA's region of a (grid, 4, 32, W_X, 1) global
tensor with ld/st.global.b32. A and B are b32 words of two f16/bf16 each, C and D f32
(f32 forms) or b32 words of two f16. Kernel parameters: D, A, B, C (the
reference kernel has the same parameters in the same order).

The tf32 form (m16n8k8, A 16 x 8 and B 8 x 8, one tf32 a b32 word) and the
fp8 forms (m16n8k32, A 16 x 32 and B 32 x 8, four e4m3/e5m2 values a word,
the lowest k in the low byte; A's and B's types may differ) hold their
words in m16n8k16's A and B fragments (a_k16, b_k16: the same registers
and lanes, one tf32 or four fp8 values where k16 has two 16-bit ones). The
fp8 forms need PTX ISA 8.4: their modules say tirx.ptx = 84 (the others
81), and each module is compiled with features=+ptxNN of its own tirx.ptx
(the pipeline's features overwrite the module's attribute: a module of
84 compiled with +ptx81 is refused).

Each kernel in cases.json names its form, variant, the register base of
each operand for each repeat (in the order of the repeat coordinates), and
the data sets run.py launches it on (normal, wide, special: run.py's
docstring). test/gpu/matrix/run.py runs both kernels on a GPU, poisons the
output before each launch, compares bit for bit and checks nvcc against a
float64 model of D = A B + C.

The moves. Every move kernel works on 32-bit words: its CTA's region of
the input I (in_words a CTA) and of the output O (out_words). Shared memory
is one buffer of SW words; a "flat" copy between it and a CTA's region
moves word T j + t with thread t (T threads a CTA). Kernel parameters: O,
I, then P (the i32 poison written to every shared word first, stmatrix and
cp.async) and N (cp.async's src-size, zero-fill forms); the references
have the same parameters in the same order.

- ldmatrix (module ldmatrix-xC[-trans]): shared memory filled flat from I
  (ld.global / st.shared through a register tile), barrier, the ldmatrix
  (one per repeat) into a fragment tile S[(group, repeats, C, 8, 4) :
  (group axis, register strides, 1, 4@laneid, 1@laneid)] over a shared
  view of shape (group, repeats, C, 8, 4) with the variant's word strides,
  the registers to O as per-thread words (thread t's registers at t W).
- stmatrix (module stmatrix-xC[-trans]): registers from I as per-thread
  words, shared memory poisoned with P, barrier, the stmatrix, barrier,
  shared memory to O (flat).
- Variants of both (matrix_variants): warp (row-major, no repeats); warp_padded (2
  repeats, rows 20 words = 5 x 16 bytes apart); cta (4 warps x 2 repeats,
  matrices interleaved row by row, warps interleaved with repeats);
  cta_2x2 (4 warps x (2, 2) repeats at register bases i + 2 j, interleaved
  matrices in padded rows, sets in another order); warpgroup (wid_in_wg
  the group axis).
- cp.async (module cp-async-COP-BYTES[-L2-128B][-zfill]): shared memory
  poisoned with P, barrier, then the variant's steps (cp_variants): copies
  of chunks from I (each a (group, repeats, chunk) tile: source and
  shared word strides differ, some shared chunks are left out), commit /
  wait_group / wait_all, barriers, and shared memory to O (flat, in one or
  two parts). Variants: warp (commit, wait_group 0), warp_2x2 (wait_all
  alone), cta (4 warps x 2 repeats; commit, wait_all), cta_2groups (two
  groups in flight: wait_group 1 then read the first half, wait_group 0
  then the second). The zero-fill forms run once per src-size in
  CP_SRCSIZES (0, partial, full).
test/gpu/matrix/run.py compares O bit for bit between TirX and nvcc and
against a host model of the PTX ISA (run.py's docstring).
"""
import json
import os
import re
import sys

MODULE = 'module attributes {tirx.chip = "sm_90", tirx.ptx = %d : i32} {\n%s\n}\n'
WARPS = 4            # warps per CTA at scope(cta) and scope(warpgroup)
TOTAL_WARPS = 256    # warps per launch, every variant
DATASETS = ["normal", "wide", "special"]

# The fragments (PTX ISA 9.7.14.5.8; PTXTable.def's PTX_FRAGMENT records),
# as (atom shape, layout shape, layout strides, registers a fragment).
FRAGMENTS = {
    "acc_f32": ((16, 8), (2, 8, 4, 2), ("2", "4@laneid", "1@laneid", "1"), 4),
    "acc_f16": ((16, 4), (2, 8, 4), ("1", "4@laneid", "1@laneid"), 2),
    "a_k16": ((16, 8), (2, 8, 2, 4), ("1", "4@laneid", "2", "1@laneid"), 4),
    "a_k8": ((16, 4), (2, 8, 4), ("1", "4@laneid", "1@laneid"), 2),
    "b_k16": ((8, 8), (8, 2, 4), ("4@laneid", "1", "1@laneid"), 2),
    "b_k8": ((8, 4), (8, 4), ("4@laneid", "1@laneid"), 1),
}

# (file stem, k, input type, accumulator type)
FORMS = [("m16n8k16-f32-f16", 16, "f16", "f32"),
         ("m16n8k16-f32-bf16", 16, "bf16", "f32"),
         ("m16n8k8-f32-f16", 8, "f16", "f32"),
         ("m16n8k8-f32-bf16", 8, "bf16", "f32"),
         ("m16n8k16-f16", 16, "f16", "f16"),
         ("m16n8k8-f16", 8, "f16", "f16"),
         # One tf32 a b32 word, four fp8 a word, in k16's A/B fragments;
         # fp8: "ATYPE.BTYPE".
         ("m16n8k8-f32-tf32", 8, "tf32", "f32"),
         ("m16n8k32-f32-e4m3-e4m3", 32, "e4m3.e4m3", "f32"),
         ("m16n8k32-f32-e4m3-e5m2", 32, "e4m3.e5m2", "f32"),
         ("m16n8k32-f32-e5m2-e4m3", 32, "e5m2.e4m3", "f32"),
         ("m16n8k32-f32-e5m2-e5m2", 32, "e5m2.e5m2", "f32")]
# The fp8 types: their forms need PTX ISA 8.4 (form_ptx: the module's
# tirx.ptx, and the features=+ptxNN it is compiled with).
FP8 = ("e4m3", "e5m2")

# (variant, scope, repeat shape, {operand: repeat strides in fragments}, in place)
VARIANTS = [("warp", "warp", (), {}, False),
            ("warp_inplace", "warp", (), {}, True),
            ("cta", "cta", (2,), {"d": (1,), "a": (1,), "b": (1,), "c": (1,)}, False),
            # (2, 2) independent products: a batch (mma's last two repeat
            # dimensions are (M, N) / (M, K) / (N, K), here all 1).
            ("cta_2x2", "cta", (2, 2, 1, 1),
             {"d": (2, 1, 0, 0), "a": (1, 2, 0, 0), "b": (2, 1, 0, 0), "c": (1, 2, 0, 0)},
             False),
            ("warpgroup", "warpgroup", (2,), {"d": (1,), "a": (1,), "b": (1,), "c": (1,)},
             False)]
GROUP_AXIS = {"cta": "1@warpid", "warpgroup": "1@wid_in_wg"}


def input_types(itype):
    """(A's type, B's type): "e4m3.e5m2" names both, "f16" one for both."""
    types = itype.split(".")
    return (types[0], types[-1])


def form_ptx(itype):
    """The PTX ISA version (times ten) a form's module asks for."""
    return 84 if input_types(itype)[0] in FP8 else 81


def spelling(k, itype, acc):
    if acc == "f32":
        return "mma.sync.aligned.m16n8k%d.row.col.f32.%s.%s.f32" % ((k,) + input_types(itype))
    return "mma.sync.aligned.m16n8k%d.row.col.f16.f16.f16.f16" % k


def fragments(k, acc, itype="f16"):
    """The fragment of each operand, by operand name (tf32 and fp8: k16's)."""
    frag = "acc_" + acc
    ab = 16 if itype == "tf32" or input_types(itype)[0] in FP8 else k
    return {"d": frag, "a": "a_k%d" % ab, "b": "b_k%d" % ab, "c": frag}


def repeat_coords(shape):
    """The repeat coordinates in row-major order ([()] without repeats)."""
    coords = [()]
    for extent in shape:
        coords = [c + (i,) for c in coords for i in range(extent)]
    return coords


def bases(shape, strides):
    """The register base (in fragments) of each repeat coordinate."""
    return [sum(i * s for i, s in zip(c, strides)) for c in repeat_coords(shape)]


# ===----------------------------------------------------------------------===#
# IR spelling
# ===----------------------------------------------------------------------===#

class Module:
    """One module: layout aliases (deduplicated) and kernels."""

    def __init__(self, ptx=81):
        self.aliases, self.kernels, self.ptx = {}, [], ptx

    def alias(self, name, shape, strides):
        text = "#tirx.layout<S[(%s) : (%s)]>" % (", ".join(map(str, shape)), ", ".join(strides))
        if text not in self.aliases:
            self.aliases[text] = "#" + name
        return self.aliases[text]

    def text(self):
        aliases = "".join("%s = %s\n" % (n, t) for t, n in self.aliases.items())
        return aliases + MODULE % (self.ptx, "\n".join(self.kernels))


class Kernel:
    def __init__(self, module, name, form, variant):
        stem, k, itype, acc = form
        vname, scope, rshape, rstrides, inplace = variant
        self.module, self.name, self.scope = module, name, scope
        self.warps = 1 if scope == "warp" else WARPS
        self.grid, self.block = TOTAL_WARPS // self.warps, 32 * self.warps
        self.repeats = rshape
        self.frags = fragments(k, acc, itype)
        self.dtype = {"d": "f32" if acc == "f32" else "ui32", "a": "ui32", "b": "ui32",
                      "c": "f32" if acc == "f32" else "ui32"}
        self.strides = {x: rstrides.get(x, ()) for x in "dabc"}
        nrep = 1
        for e in rshape:
            nrep *= e
        self.words = {x: nrep * FRAGMENTS[self.frags[x]][3] for x in "dabc"}
        self.lines = []
        self.count = 0

    def emit(self, line):
        self.lines.append("    " + line)

    def group(self):
        return ([self.warps], [GROUP_AXIS[self.scope]]) if self.scope != "warp" else ([], [])

    def fragment_type(self, x):
        atom, shape, strides, regs = FRAGMENTS[self.frags[x]]
        gshape, gstrides = self.group()
        rstrides = [str(s * regs) for s in self.strides[x]]
        layout = self.module.alias("%s_%s" % (self.name, x), gshape + list(self.repeats) + list(shape),
                                   gstrides + rstrides + list(strides))
        dims = gshape + list(self.repeats) + list(atom)
        return "!tirx.tensor<%sx%s, local, %s>" % ("x".join(map(str, dims)), self.dtype[x], layout)

    def lane_type(self, x):
        gshape, gstrides = self.group()
        w = self.words[x]
        layout = self.module.alias("lane%s_%d" % ("" if self.scope == "warp" else "s_" + self.scope, w),
                                   gshape + [32, w, 1], gstrides + ["1@laneid", "1", "1"])
        return "!tirx.tensor<%sx%s, local, %s>" % (
            "x".join(map(str, gshape + [32, w, 1])), self.dtype[x], layout)

    def global_types(self, x):
        """(parameter type, the CTA's region, its view without the CTA axis)."""
        gshape = [] if self.scope == "warp" else [self.warps]
        w = self.words[x]
        dims = gshape + [32, w, 1]
        full = "!tirx.tensor<%dx%sx%s, global>" % (self.grid, "x".join(map(str, dims)), self.dtype[x])
        # The CTA axis's stride; 1 in a grid of one CTA (a unit dimension's
        # stride, as tirx.region infers it).
        per_cta = 32 * w * self.warps if self.grid > 1 else 1
        strides = [per_cta] + ([32 * w] if gshape else []) + [w, 1, 1]
        layout = self.module.alias("slice%d_%d" % (self.warps, w), [1] + dims, list(map(str, strides)))
        region = "!tirx.tensor<1x%sx%s, global, %s>" % ("x".join(map(str, dims)), self.dtype[x], layout)
        view = "!tirx.tensor<%sx%s, global, %s>" % ("x".join(map(str, dims)), self.dtype[x], layout)
        return full, region, view

    def slice(self, x):
        full, region, view = self.global_types(x)
        rank = 4 if self.scope == "warp" else 5
        sizes = ", ".join(map(str, [1] + ([] if self.scope == "warp" else [self.warps]) +
                              [32, self.words[x], 1]))
        self.emit("%%g%s0 = tirx.region %%%s[%s] [%s] : %s" % (
            x, x.upper(), ", ".join(["%bx"] + ["0"] * (rank - 1)), sizes, full))
        self.emit("%%g%s = tirx.view %%g%s0 : %s -> %s" % (x, x, region, view))
        return "%g" + x, view

    def alloc(self, x):
        self.emit("%%%s = tirx.alloc_local : %s" % (x, self.fragment_type(x)))
        self.emit("%%%sr = tirx.reinterpret %%%s : %s -> %s" % (
            x, x, self.fragment_type(x), self.lane_type(x)))

    def load(self, x):
        self.alloc(x)
        g, view = self.slice(x)
        self.emit('tile.apply "ld.global.b32" scope(%s) (%%%sr, %s) : %s, %s' % (
            self.scope, x, g, self.lane_type(x), view))

    def store(self, param, x):
        """Stores register tile x (its per-lane view) to parameter param."""
        g, view = self.slice(param)
        self.emit('tile.apply "st.global.b32" scope(%s) (%s, %%%sr) : %s, %s' % (
            self.scope, g, x, view, self.lane_type(x)))

    def text(self, form, inplace):
        stem, k, itype, acc = form
        params = ", ".join("%%%s: %s" % (x.upper(), self.global_types(x)[0]) for x in "dabc")
        head = ["  tirx.kernel @%s(%s)" % (self.name, params),
                "      launch(grid = [%d], block = [%d]) {" % (self.grid, self.block),
                "    %bx = tirx.block_idx x"]
        self.load("a")
        self.load("b")
        self.load("c")
        d = "c" if inplace else "d"
        if not inplace:
            self.alloc("d")
        self.emit('tile.apply "%s" scope(%s) (%%%s, %%a, %%b, %%c)' % (
            spelling(k, itype, acc), self.scope, d))
        self.emit("    : %s, %s," % (self.fragment_type(d), self.fragment_type("a")))
        self.emit("      %s, %s" % (self.fragment_type("b"), self.fragment_type("c")))
        self.store("d", d)
        return "\n".join(head + self.lines + ["    tirx.return", "  }"])


# ===----------------------------------------------------------------------===#
# Reference kernels (nvcc inline asm)
# ===----------------------------------------------------------------------===#

def cuda_kernel(name, form, kernel, inplace, skip=None):
    """The same mma per repeat, on the same words. skip: a word of D left
    unwritten (the deliberate mutation)."""
    stem, k, itype, acc = form
    regs = {x: FRAGMENTS[kernel.frags[x]][3] for x in "dabc"}
    w = kernel.words
    f32 = acc == "f32"
    lines = ['extern "C" __global__ void %s(unsigned *d, const unsigned *a, const unsigned *b, '
             "const unsigned *c) {" % name,
             "  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;",
             "  unsigned *pd = d + t * %du;" % w["d"]]
    for x in "abc":
        lines.append("  const unsigned *p%s = %s + t * %du;" % (x, x, w[x]))
    nd, na, nb, nc = regs["d"], regs["a"], regs["b"], regs["c"]
    slots = [0]

    def vec(count):
        v = "{%s}" % ", ".join("%%%d" % (slots[0] + i) for i in range(count))
        slots[0] += count
        return v

    template = "%s %s, %s, %s, %s;" % (spelling(k, itype, acc), vec(nd), vec(na), vec(nb),
                                       vec(nc))
    coords = repeat_coords(kernel.repeats)
    qs = {x: bases(kernel.repeats, kernel.strides[x]) if kernel.repeats else [0] for x in "dabc"}
    if inplace:
        qs["d"] = qs["c"]
    for r in range(len(coords)):
        qd, qa, qb, qc = (qs[x][r] for x in "dabc")
        lines.append("  {  // repeat %s: D base %d, A %d, B %d, C %d" % (
            coords[r] or "(none)", qd, qa, qb, qc))
        ty = "float" if f32 else "unsigned"
        lines.append("    %s %s;" % (ty, ", ".join("d%d" % i for i in range(nd))))
        outs = ", ".join('"=%s"(d%d)' % ("f" if f32 else "r", i) for i in range(nd))
        ins = ['"r"(pa[%d])' % (qa * na + i) for i in range(na)]
        ins += ['"r"(pb[%d])' % (qb * nb + i) for i in range(nb)]
        ins += [('"f"(__uint_as_float(pc[%d]))' if f32 else '"r"(pc[%d])') % (qc * nc + i)
                for i in range(nc)]
        lines.append('    asm volatile("%s"\n        : %s\n        : %s);' % (
            template, outs, ", ".join(ins)))
        for i in range(nd):
            word = qd * nd + i
            value = "__float_as_uint(d%d)" % i if f32 else "d%d" % i
            guard = "" if skip is None else "if (t * %du + %du != %du) " % (w["d"], word, skip)
            lines.append("    %spd[%d] = %s;" % (guard, word, value))
        lines.append("  }")
    return "\n".join(lines + ["}"])


def ptx_pattern(text):
    return text.replace(".", r"\.") + r"\s+\{"


# ===----------------------------------------------------------------------===#
# ldmatrix / stmatrix and cp.async: shared memory moves
# ===----------------------------------------------------------------------===#
#
# Every kernel below works on whole 32-bit words: its CTA's region of the
# input I (IN words a CTA, param I: (grid, IN) ui32) and of the output O
# (OUT words a CTA). A "flat" copy between a CTA's region and a shared
# buffer of SW words moves word k = T j + t (T threads, thread t = 32 warp +
# lane) with thread t, j = 0 .. SW / T - 1 (ld/st.b32 through a register
# tile). The shared layouts are written out as (shape, word strides, base):
# offset(coordinate) = base + sum(coordinate * stride).

MOVE_WARPS = 4                       # warps per CTA at scope cta / warpgroup
MOVE_DATASETS = ["random", "halves"]
SHARED_POISONS = (0xA5A5A5A5, 0x5AC3F00D)   # P of the two launches (run.py)


def layout_text(shape, strides, offset=0):
    text = "S[(%s) : (%s)]" % (", ".join(map(str, shape)), ", ".join(map(str, strides)))
    return text + (" + %d" % offset if offset else "")


def coord_text(coord):
    if not coord:
        return "(none)"
    return str(coord[0]) if len(coord) == 1 else "(%s)" % ", ".join(map(str, coord))


def round_up(value, multiple):
    return (value + multiple - 1) // multiple * multiple


def span(shape, strides, base=0):
    """One past the largest offset of the layout."""
    return base + sum((e - 1) * s for e, s in zip(shape, strides)) + 1


class MoveModule(Module):
    """A module whose layout aliases are named by number."""

    def layout(self, shape, strides, offset=0):
        text = "#tirx.layout<%s>" % layout_text(shape, strides, offset)
        if text not in self.aliases:
            self.aliases[text] = "#l%d" % len(self.aliases)
        return self.aliases[text]


def tensor(dims, dtype, space, layout=None, align=None):
    parts = ["%sx%s" % ("x".join(map(str, dims)), dtype), space]
    if layout:
        parts.append(layout)
    if align:
        parts.append("align = %d" % align)
    return "!tirx.tensor<%s>" % ", ".join(parts)


class MoveKernel:
    """What every move kernel has: its scope, launch, the flat copies and
    the CTA's regions of the global tensors."""

    def __init__(self, module, name, scope):
        self.module, self.name, self.scope = module, name, scope
        self.warps = 1 if scope == "warp" else MOVE_WARPS
        self.threads = 32 * self.warps
        self.grid, self.block = TOTAL_WARPS // self.warps, self.threads
        self.lines, self.values = [], 0

    def emit(self, line):
        self.lines.append("    " + line)

    def fresh(self, stem):
        self.values += 1
        return "%%%s%d" % (stem, self.values)

    # Thread forms (ld, st, mov, cp.async) at scope warp (one warp) or cta:
    # the group is (32) or (warps, 32).
    def thread_scope(self):
        return "warp" if self.warps == 1 else "cta"

    def thread_prefix(self):
        if self.warps == 1:
            return [32], ["1@laneid"]
        return [self.warps, 32], ["1@warpid", "1@laneid"]

    def reinterpret(self, value, vtype, dims, layout, space, align=16):
        out = self.fresh("v")
        rtype = tensor(dims, "ui32", space, layout, align)
        self.emit("%s = tirx.reinterpret %s : %s -> %s" % (out, value, vtype, rtype))
        return out, rtype

    def region(self, param, words):
        full = tensor([self.grid, words], "ui32", "global", align=16)
        per_cta = words if self.grid > 1 else 1   # a unit dimension's stride: 1
        rtype = tensor([1, words], "ui32", "global", self.module.layout([1, words], [per_cta, 1]),
                       16)
        out = "%%%s_cta" % param.lower()
        cta = "%bx" if self.grid > 1 else "0"    # one CTA: a constant offset keeps the alignment
        self.emit("%s = tirx.region %%%s[%s, 0] [1, %d] : %s" % (out, param, cta, words, full))
        return out, rtype

    def flat_view(self, value, vtype, space, words, offset=0):
        """Words offset .. offset + words of value, as (group, words / T, 1)."""
        k = words // self.threads
        assert k * self.threads == words, (self.name, words)
        dims = self.thread_prefix()[0] + [k, 1]
        strides = [1, 32, 1] if self.warps == 1 else [32, 1, self.threads, 1]
        return self.reinterpret(value, vtype, dims, self.module.layout(dims, strides, offset),
                                space)

    def flat_registers(self, words):
        dims, axes = self.thread_prefix()
        k = words // self.threads
        out = self.fresh("r")
        rtype = tensor(dims + [k, 1], "ui32", "local", self.module.layout(dims + [k, 1],
                                                                           axes + ["1", "1"]))
        self.emit("%s = tirx.alloc_local : %s" % (out, rtype))
        return out, rtype

    def apply(self, spelling, scope, operands, types):
        self.emit('tile.apply "%s" scope(%s) (%s)' % (spelling, scope, ", ".join(operands)))
        if types:
            self.emit("    : %s" % ", ".join(types))

    def copy_in(self, source, stype, shared, words):
        """Shared words 0 .. words from the CTA's region source (flat)."""
        src, srct = self.flat_view(source, stype, "global", words)
        regs, regt = self.flat_registers(words)
        self.apply("ld.global.b32", self.thread_scope(), [regs, src], [regt, srct])
        dst, dstt = self.flat_view(shared, self.shared_type, "shared", words)
        self.apply("st.shared.b32", self.thread_scope(), [dst, regs], [dstt, regt])

    def copy_out(self, shared, dest, dtype, lo, hi):
        """Shared words lo .. hi to the same words of the CTA's region dest."""
        src, srct = self.flat_view(shared, self.shared_type, "shared", hi - lo, lo)
        regs, regt = self.flat_registers(hi - lo)
        self.apply("ld.shared.b32", self.thread_scope(), [regs, src], [regt, srct])
        dst, dstt = self.flat_view(dest, dtype, "global", hi - lo, lo)
        self.apply("st.global.b32", self.thread_scope(), [dst, regs], [dstt, regt])

    def poison(self, shared, words):
        """Every shared word set to the kernel parameter %P."""
        regs, regt = self.flat_registers(words)
        self.apply("mov.b32", self.thread_scope(), [regs, "%P"], [regt, "i32"])
        dst, dstt = self.flat_view(shared, self.shared_type, "shared", words)
        self.apply("st.shared.b32", self.thread_scope(), [dst, regs], [dstt, regt])

    def alloc_shared(self, words):
        self.shared_type = tensor([words], "ui32", "shared", align=16)
        self.emit("%%s = tirx.alloc_shared : %s" % self.shared_type)
        return "%s"

    def text(self, params):
        head = ["  tirx.kernel @%s(%s)" % (self.name, ", ".join(params)),
                "      launch(grid = [%d], block = [%d]) {" % (self.grid, self.block),
                "    %bx = tirx.block_idx x"]
        return "\n".join(head + self.lines + ["    tirx.return", "  }"])


# --- ldmatrix / stmatrix -----------------------------------------------------

MATRIX_COUNTS = [1, 2, 4]


def matrix_spelling(op, count, trans):
    return "%s.sync.aligned.m8n8.x%d%s.shared.b16" % (op, count, ".trans" if trans else "")


def matrix_variants(count):
    """(variant, scope, repeat shape, register strides (in matrix sets),
    shared shape, shared strides): the shared tile's shape is (group,
    repeats, count, 8, 4), the group (warps) absent at scope warp; its
    strides in words."""
    c = count
    pad = 4 * c + 4       # a row of every matrix, then 16 bytes of padding
    return [
        # Row-major: matrix m at 32 m, its row r at 4 r.
        ("warp", "warp", (), (), (c, 8, 4), (32, 4, 1)),
        # Padded rows: row stride 20 words (5 x 16 bytes), matrix stride 160.
        ("warp_padded", "warp", (2,), (1,), (2, c, 8, 4), (160 * c, 160, 20, 1)),
        # Matrices interleaved (row r of matrix m at 4 (c r + m)); the sets of
        # the four warps interleaved with the repeats.
        ("cta", "cta", (2,), (1,), (4, 2, c, 8, 4), (32 * c, 128 * c, 4, 4 * c, 1)),
        # Interleaved and padded rows (20 words for x4); repeat (i, j) at
        # register base i + 2 j, at set j + 2 warp + 8 i in shared memory.
        ("cta_2x2", "cta", (2, 2), (1, 2), (4, 2, 2, c, 8, 4),
         (16 * pad, 64 * pad, 8 * pad, 4, pad, 1)),
        # One warpgroup (wid_in_wg the group axis); rows 4 words apart,
        # matrices 32.
        ("warpgroup", "warpgroup", (), (), (4, c, 8, 4), (32 * c, 32, 4, 1)),
    ]


COLLECTIVE_AXIS = {"cta": "1@warpid", "warpgroup": "1@wid_in_wg"}


class MatrixKernel(MoveKernel):
    """ldmatrix: shared memory filled from I (flat), ldmatrix, its registers
    to O as per-thread words. stmatrix: registers from I as per-thread
    words, shared memory poisoned with P, stmatrix, shared memory to O
    (flat)."""

    def __init__(self, module, name, op, count, trans, variant):
        vname, scope, rshape, rstrides, sshape, sstrides = variant
        MoveKernel.__init__(self, module, name, scope)
        self.op, self.count, self.trans = op, count, trans
        self.repeats, self.rstrides = rshape, rstrides
        self.sshape, self.sstrides = list(sshape), list(sstrides)
        nrep = 1
        for e in rshape:
            nrep *= e
        self.nrep = nrep
        self.words = nrep * count                  # registers per thread
        self.shared_words = round_up(span(sshape, sstrides), self.threads)
        self.spelling = matrix_spelling(op, count, trans)

    def collective_prefix(self):
        if self.scope == "warp":
            return [], []
        return [self.warps], [COLLECTIVE_AXIS[self.scope]]

    def fragment_type(self):
        gdims, gaxes = self.collective_prefix()
        dims = gdims + list(self.repeats) + [self.count, 8, 4]
        axes = gaxes + [str(s * self.count) for s in self.rstrides] + ["1", "4@laneid",
                                                                         "1@laneid"]
        return tensor(dims, "ui32", "local", self.module.layout(dims, axes))

    def lane_view(self, frag):
        """The fragment's registers as (group, 32, words, 1) per lane."""
        gdims, gaxes = self.collective_prefix()
        dims = gdims + [32, self.words, 1]
        return self.reinterpret(frag, self.fragment_type(), dims,
                                self.module.layout(dims, gaxes + ["1@laneid", "1", "1"]),
                                "local", None)

    def thread_words(self, param):
        """The CTA's region of param as (group, 32, words, 1): thread (warp,
        lane) at (32 warp + lane) words."""
        gdims = self.collective_prefix()[0]
        dims = gdims + [32, self.words, 1]
        strides = ([32 * self.words] if gdims else []) + [self.words, 1, 1]
        value, vtype = self.region(param, self.threads * self.words)
        return self.reinterpret(value, vtype, dims, self.module.layout(dims, strides), "global")

    def rows(self, shared):
        return self.reinterpret(shared, self.shared_type, self.sshape,
                                self.module.layout(self.sshape, self.sstrides), "shared")

    def build(self):
        sw, tw = self.shared_words, self.threads * self.words
        frag = self.fresh("frag")
        ftype = self.fragment_type()
        if self.op == "ldmatrix":
            params = ["%%O: %s" % tensor([self.grid, tw], "ui32", "global", align=16),
                      "%%I: %s" % tensor([self.grid, sw], "ui32", "global", align=16)]
            shared = self.alloc_shared(sw)
            source, stype = self.region("I", sw)
            self.copy_in(source, stype, shared, sw)
            self.emit("tirx.cta_sync")
            rows, rtype = self.rows(shared)
            self.emit("%s = tirx.alloc_local : %s" % (frag, ftype))
            self.apply(self.spelling, self.scope, [frag, rows], [ftype, rtype])
            lanes, ltype = self.lane_view(frag)
            dest, dtype = self.thread_words("O")
            self.apply("st.global.b32", self.scope, [dest, lanes], [dtype, ltype])
        else:
            params = ["%%O: %s" % tensor([self.grid, sw], "ui32", "global", align=16),
                      "%%I: %s" % tensor([self.grid, tw], "ui32", "global", align=16),
                      "%P: i32"]
            self.emit("%s = tirx.alloc_local : %s" % (frag, ftype))
            lanes, ltype = self.lane_view(frag)
            source, stype = self.thread_words("I")
            self.apply("ld.global.b32", self.scope, [lanes, source], [ltype, stype])
            shared = self.alloc_shared(sw)
            self.poison(shared, sw)
            self.emit("tirx.cta_sync")
            rows, rtype = self.rows(shared)
            self.apply(self.spelling, self.scope, [rows, frag], [rtype, ftype])
            self.emit("tirx.cta_sync")
            dest, dtype = self.region("O", sw)
            self.copy_out(shared, dest, dtype, 0, sw)
        return self.text(params)

    def register_bases(self):
        """The register base (in matrix sets) of each repeat coordinate."""
        return bases(self.repeats, self.rstrides) if self.repeats else [0]

    def shared_offsets(self):
        """The word offset of row 0 of matrix 0 of each repeat, and the
        strides of the group, matrix and row dimensions."""
        gs = self.sstrides[0] if self.scope != "warp" else 0
        rs = self.sstrides[1 if self.scope != "warp" else 0:][:len(self.repeats)]
        ms, row = self.sstrides[-3], self.sstrides[-2]
        offsets = [sum(i * s for i, s in zip(c, rs)) for c in repeat_coords(self.repeats)]
        return offsets, gs, ms, row

    def cuda(self, name=None):
        c, w, sw = self.count, self.words, self.shared_words
        offsets, gs, ms, rs = self.shared_offsets()
        regs = ", ".join("%%%d" % i for i in range(c))
        load = self.op == "ldmatrix"
        lines = ['extern "C" __global__ void %s(unsigned *o, const unsigned *in%s) {' % (
                     name or self.name, "" if load else ", unsigned p"),
                 "  __shared__ __align__(16) unsigned s[%d];" % sw,
                 "  const unsigned tid = threadIdx.x, lane = tid %% 32u, "
                 "warp = tid / 32u %% %du;" % self.warps]
        if load:
            lines += ["  const unsigned *pin = in + blockIdx.x * %du;" % sw,
                      "  for (unsigned i = tid; i < %du; i += blockDim.x) s[i] = pin[i];" % sw,
                      "  __syncthreads();",
                      "  unsigned *po = o + (blockIdx.x * blockDim.x + tid) * %du;" % w]
        else:
            lines += ["  const unsigned *pin = in + (blockIdx.x * blockDim.x + tid) * %du;" % w,
                      "  for (unsigned i = tid; i < %du; i += blockDim.x) s[i] = p;" % sw,
                      "  __syncthreads();"]
        lines.append("  // lane 8 m + r: row r of matrix m (lanes past 8 x%d repeat them)" % c)
        lines.append("  const unsigned row = warp * %du + (lane / 8u %% %du) * %du + "
                     "lane %% 8u * %du;" % (gs, c, ms, rs))
        for coord, q, off in zip(repeat_coords(self.repeats), self.register_bases(), offsets):
            lines.append("  {  // repeat %s: register base %d, shared words +%d" % (
                coord_text(coord), q * c, off))
            address = "smem(&s[row + %du])" % off
            if self.op == "ldmatrix":
                lines.append("    unsigned %s;" % ", ".join("d%d" % i for i in range(c)))
                lines.append('    asm volatile("%s {%s}, [%%%d];"' % (self.spelling, regs, c))
                lines.append("        : %s : \"r\"(%s) : \"memory\");" % (
                    ", ".join('"=r"(d%d)' % i for i in range(c)), address))
                for i in range(c):
                    lines.append("    po[%d] = d%d;" % (q * c + i, i))
            else:
                lines.append('    asm volatile("%s [%%0], {%s};"' % (
                    self.spelling, ", ".join("%%%d" % (i + 1) for i in range(c))))
                lines.append("        :: \"r\"(%s), %s : \"memory\");" % (address, ", ".join(
                    '"r"(pin[%d])' % (q * c + i) for i in range(c))))
            lines.append("  }")
        if self.op == "stmatrix":
            lines += ["  __syncthreads();",
                      "  unsigned *po = o + blockIdx.x * %du;" % sw,
                      "  for (unsigned i = tid; i < %du; i += blockDim.x) po[i] = s[i];" % sw]
        return "\n".join(lines + ["}"])

    def case(self, stem, vname):
        gshape = [self.warps] if self.scope != "warp" else [1]
        gstride = [self.sstrides[0]] if self.scope != "warp" else [0]
        rest = self.sshape[len(self.sshape) - len(self.repeats) - 3:]
        rest_strides = self.sstrides[len(self.sstrides) - len(self.repeats) - 3:]
        sw, tw = self.shared_words, self.threads * self.words
        if self.op == "ldmatrix":
            pattern = re.escape(self.spelling) + r" \{%s\}, \[%%rd\d+(\+\d+)?\];" % ", ".join(
                [r"%r\d+"] * self.count)
        else:
            pattern = re.escape(self.spelling) + r" \[%%rd\d+(\+\d+)?\], \{%s\};" % ", ".join(
                [r"%r\d+"] * self.count)
        return {"kind": self.op, "name": self.name, "file": stem, "form": stem, "variant": vname,
                "spelling": self.spelling, "label": self.spelling, "count": self.count,
                "trans": self.trans, "scope": self.scope, "grid": self.grid,
                "block": self.block, "warps": self.warps, "repeats": list(self.repeats),
                "coords": [list(c) for c in repeat_coords(self.repeats)],
                "bases": self.register_bases(), "words": self.words,
                "shared": {"shape": gshape + rest, "strides": gstride + rest_strides},
                "shared_words": sw,
                "in_words": sw if self.op == "ldmatrix" else tw,
                "out_words": tw if self.op == "ldmatrix" else sw,
                "params": ["O", "I"] + (["P"] if self.op == "stmatrix" else []),
                "datasets": MOVE_DATASETS,
                "ptx": [[pattern, self.nrep], [r"bar\.sync", 1 if self.op == "ldmatrix" else 2]]}


def build_matrix_moves():
    modules, references, kernels = {}, [], []
    for op in ("ldmatrix", "stmatrix"):
        for count in MATRIX_COUNTS:
            for trans in (False, True):
                stem = "%s-x%d%s" % (op, count, "-trans" if trans else "")
                module = modules.setdefault(stem, MoveModule())
                for variant in matrix_variants(count):
                    name = "%s_%s" % (stem.replace("-", "_"), variant[0])
                    kernel = MatrixKernel(module, name, op, count, trans, variant)
                    module.kernels.append(kernel.build())
                    references.append(kernel.cuda())
                    kernels.append(kernel.case(stem, variant[0]))
    return modules, references, kernels


# --- cp.async ------------------------------------------------------------------

# (cop, chunk bytes): .ca copies 4, 8 or 16 bytes, .cg only 16.
CP_CHUNKS = [("ca", 4), ("ca", 8), ("ca", 16), ("cg", 16)]
# src-size values of the zero-fill kernels (a runtime parameter): none,
# partial (odd, and whole words), all of the chunk.
CP_SRCSIZES = {4: [0, 1, 3, 4], 8: [0, 3, 4, 8], 16: [0, 1, 7, 12, 16]}


def cp_spelling(cop, prefetch):
    return "cp.async.%s.shared.global%s" % (cop, ".L2::128B" if prefetch else "")


def cp_variants(a):
    """(variant, scope, copies, steps). a: words a chunk. A copy is (shape,
    source strides, source base, destination strides, destination base) in
    words, the shape (group, repeats, a) with the group (32) at scope warp
    and (4, 32) at scope cta; the shared buffer's words no copy writes keep
    their poison. steps: what the kernel does after the poison, in order:
    ("copy", i), ("commit",), ("wait", n), ("wait_all",), ("sync",) (a
    barrier), ("read", lo, hi) (shared words lo .. hi to O)."""
    half = 256 * a
    return [
        # Chunk l from source chunk l to every other chunk of shared memory.
        ("warp", "warp", [((32, a), (a, 1), 0, (2 * a, 1), 0)],
         [("copy", 0), ("commit",), ("wait", 0), ("sync",), ("read", 0, 64 * a)]),
        # (2, 2) repeats: source chunk l + 32 j + 64 i to shared chunk
        # 4 l + i + 2 j; wait_all without a commit.
        ("warp_2x2", "warp", [((32, 2, 2, a), (a, 64 * a, 32 * a, 1), 0, (4 * a, a, 2 * a, 1), 0)],
         [("copy", 0), ("wait_all",), ("sync",), ("read", 0, 128 * a)]),
        # 4 warps x 2 repeats: source chunk w + 4 l + 128 r to shared chunk
        # 9 l + 2 w + r (one chunk in 9 and the tail stay poisoned).
        ("cta", "cta", [((4, 32, 2, a), (a, 4 * a, 128 * a, 1), 0, (2 * a, 9 * a, a, 1), 0)],
         [("copy", 0), ("commit",), ("wait_all",), ("sync",),
          ("read", 0, round_up(288 * a, 128))]),
        # Two groups in flight: the first half of shared memory from source
        # chunks 2 (32 w + l) + r, committed; the second half (chunk
        # 2 l + 64 w + r) from the next 256 chunks, committed; wait_group 1,
        # barrier, read the first half; wait_group 0, barrier, read the second.
        ("cta_2groups", "cta",
         [((4, 32, 2, a), (64 * a, 2 * a, a, 1), 0, (a, 4 * a, 128 * a, 1), 0),
          ((4, 32, 2, a), (64 * a, 2 * a, a, 1), half, (64 * a, 2 * a, a, 1), half)],
         [("copy", 0), ("commit",), ("copy", 1), ("commit",), ("wait", 1), ("sync",),
          ("read", 0, half), ("wait", 0), ("sync",), ("read", half, 2 * half)]),
    ]


class CpKernel(MoveKernel):
    """Shared memory poisoned with P, barrier, the copies from I and their
    completion (steps), shared memory to O. Zero-fill kernels pass the
    parameter N as every copy's src-size."""

    def __init__(self, module, name, cop, chunk, prefetch, zfill, variant):
        vname, scope, copies, steps = variant
        MoveKernel.__init__(self, module, name, scope)
        self.cop, self.chunk, self.prefetch, self.zfill = cop, chunk, prefetch, zfill
        self.copies, self.steps = copies, steps
        self.spelling = cp_spelling(cop, prefetch)
        self.shared_words = max(hi for s in steps if s[0] == "read" for hi in s[2:])
        self.in_words = round_up(max(span(c[0], c[1], c[2]) for c in copies), 4)
        for shape, sst, sbase, dst, dbase in copies:
            assert span(shape, dst, dbase) <= self.shared_words, name

    def build(self):
        sw, iw = self.shared_words, self.in_words
        params = ["%%O: %s" % tensor([self.grid, sw], "ui32", "global", align=16),
                  "%%I: %s" % tensor([self.grid, iw], "ui32", "global", align=16), "%P: i32"]
        if self.zfill:
            params.append("%N: i32")
        shared = self.alloc_shared(sw)
        self.poison(shared, sw)
        self.emit("tirx.cta_sync")
        source, stype = self.region("I", iw)
        dest, dtype = self.region("O", sw)
        for step in self.steps:
            if step[0] == "copy":
                shape, sst, sbase, dst, dbase = self.copies[step[1]]
                d, dt = self.reinterpret(shared, self.shared_type, list(shape),
                                         self.module.layout(shape, dst, dbase), "shared")
                s, st = self.reinterpret(source, stype, list(shape),
                                         self.module.layout(shape, sst, sbase), "global")
                operands, types = [d, s, "%d : i32" % self.chunk], [dt, st]
                if self.zfill:
                    operands.append("%N")
                    types.append("i32")
                self.apply(self.spelling, self.thread_scope(), operands, types)
            elif step[0] == "commit":
                self.apply("cp.async.commit_group", self.thread_scope(), [], [])
            elif step[0] == "wait":
                self.apply("cp.async.wait_group", self.thread_scope(), ["%d : i32" % step[1]], [])
            elif step[0] == "wait_all":
                self.apply("cp.async.wait_all", self.thread_scope(), [], [])
            elif step[0] == "sync":
                self.emit("tirx.cta_sync")
            else:
                self.copy_out(shared, dest, dtype, step[1], step[2])
        return self.text(params)

    def chunk_offsets(self, copy):
        """(source, destination) word offsets of each repeat's chunk, with
        the group's strides: ([(coord, src, dst)], (src warp, src lane),
        (dst warp, dst lane))."""
        shape, sst, sbase, dst, dbase = copy
        g = len(shape) - 1 - (1 if self.warps == 1 else 2)   # repeat dims
        rshape = shape[len(shape) - 1 - g:-1]
        rsrc, rdst = sst[len(shape) - 1 - g:-1], dst[len(shape) - 1 - g:-1]
        out = []
        for coord in repeat_coords(rshape):
            out.append((coord, sbase + sum(i * s for i, s in zip(coord, rsrc)),
                        dbase + sum(i * s for i, s in zip(coord, rdst))))
        gsrc = (0, sst[0]) if self.warps == 1 else (sst[0], sst[1])
        gdst = (0, dst[0]) if self.warps == 1 else (dst[0], dst[1])
        return out, gsrc, gdst

    def cuda(self, name=None, skip=None):
        """skip: (copy, repeat) that thread 5 of CTA 0 leaves out (the
        deliberate mutation)."""
        sw, iw = self.shared_words, self.in_words
        lines = ['extern "C" __global__ void %s(unsigned *o, const unsigned *in, unsigned p%s) {'
                 % (name or self.name, ", int n" if self.zfill else ""),
                 "  __shared__ __align__(16) unsigned s[%d];" % sw,
                 "  const unsigned tid = threadIdx.x, lane = tid % 32u, warp = tid / 32u;",
                 "  for (unsigned i = tid; i < %du; i += blockDim.x) s[i] = p;" % sw,
                 "  __syncthreads();",
                 "  const unsigned *pin = in + blockIdx.x * %du;" % iw,
                 "  unsigned *po = o + blockIdx.x * %du;" % sw]
        size = ", %2" if self.zfill else ""
        for step in self.steps:
            if step[0] == "copy":
                chunks, gsrc, gdst = self.chunk_offsets(self.copies[step[1]])
                lines.append("  {  // copy %d" % step[1])
                lines.append("    const unsigned src = warp * %du + lane * %du, "
                             "dst = warp * %du + lane * %du;" % (gsrc + gdst))
                for r, (coord, soff, doff) in enumerate(chunks):
                    guard = ""
                    if skip == (step[1], r):
                        guard = "if (blockIdx.x != 0 || tid != 5) "
                    lines.append('    %sasm volatile("%s [%%0], [%%1], %d%s;"' % (
                        guard, self.spelling, self.chunk, size))
                    lines.append('        :: "r"(smem(&s[dst + %du])), '
                                 '"l"(gmem(pin + src + %du))%s : "memory");  // repeat %s' % (
                                     doff, soff, ', "r"(n)' if self.zfill else "",
                                     coord_text(coord)))
                lines.append("  }")
            elif step[0] == "commit":
                lines.append('  asm volatile("cp.async.commit_group;" ::: "memory");')
            elif step[0] == "wait":
                lines.append('  asm volatile("cp.async.wait_group %d;" ::: "memory");' % step[1])
            elif step[0] == "wait_all":
                lines.append('  asm volatile("cp.async.wait_all;" ::: "memory");')
            elif step[0] == "sync":
                lines.append("  __syncthreads();")
            else:
                lines.append("  for (unsigned i = %du + tid; i < %du; i += blockDim.x) "
                             "po[i] = s[i];" % (step[1], step[2]))
        return "\n".join(lines + ["}"])

    def case(self, stem, vname, label):
        copies = [{"shape": list(shape), "src": list(sst), "src_base": sbase, "dst": list(dst),
                   "dst_base": dbase} for shape, sst, sbase, dst, dbase in self.copies]
        nchunks = sum(len(self.chunk_offsets(c)[0]) for c in self.copies)
        chunk = r"\[%rd\d+(\+\d+)?\], \[%rd\d+(\+\d+)?\], " + "0x%08x" % self.chunk
        ptx = [[re.escape(self.spelling) + " " + chunk + (r", %r\d+;" if self.zfill else ";"),
                nchunks],
               [r"cp\.async\.commit_group;", sum(s[0] == "commit" for s in self.steps)],
               [r"cp\.async\.wait_group 0x00000000;", sum(s == ("wait", 0) for s in self.steps)],
               [r"cp\.async\.wait_group 0x00000001;", sum(s == ("wait", 1) for s in self.steps)],
               [r"cp\.async\.wait_all;", sum(s[0] == "wait_all" for s in self.steps)],
               [r"bar\.sync", 1 + sum(s[0] == "sync" for s in self.steps)]]
        sizes = CP_SRCSIZES[self.chunk] if self.zfill else None
        return {"kind": "cp.async", "name": self.name, "file": stem, "form": stem,
                "variant": vname, "spelling": self.spelling, "label": label,
                "chunk": self.chunk, "zfill": self.zfill, "srcsizes": sizes,
                "scope": self.scope, "grid": self.grid, "block": self.block,
                "warps": self.warps, "copies": copies, "steps": [list(s) for s in self.steps],
                "shared_words": self.shared_words, "in_words": self.in_words,
                "out_words": self.shared_words,
                "params": ["O", "I", "P"] + (["N"] if self.zfill else []),
                "datasets": ["src-size %d" % n for n in sizes] if sizes else ["random"],
                "ptx": ptx}


def build_cp_async():
    modules, references, kernels = {}, [], []
    for cop, chunk in CP_CHUNKS:
        for prefetch in (False, True):
            for zfill in (False, True):
                stem = "cp-async-%s-%d%s%s" % (cop, chunk, "-L2-128B" if prefetch else "",
                                               "-zfill" if zfill else "")
                label = "%s, %d-byte chunks%s" % (cp_spelling(cop, prefetch), chunk,
                                                  ", zero fill" if zfill else "")
                module = modules.setdefault(stem, MoveModule())
                for variant in cp_variants(chunk // 4):
                    name = "%s_%s" % (stem.replace("-", "_"), variant[0])
                    kernel = CpKernel(module, name, cop, chunk, prefetch, zfill, variant)
                    module.kernels.append(kernel.build())
                    references.append(kernel.cuda())
                    kernels.append(kernel.case(stem, variant[0], label))
    return modules, references, kernels


CUDA_HELPERS = """\
static __device__ __forceinline__ unsigned smem(const void *p) {
  return (unsigned)__cvta_generic_to_shared(p);
}
static __device__ __forceinline__ unsigned long long gmem(const void *p) {
  return (unsigned long long)__cvta_generic_to_global(p);
}"""


def build():
    modules, references, kernels = {}, [], []
    for form in FORMS:
        stem, k, itype, acc = form
        module = modules.setdefault(stem, Module(form_ptx(itype)))
        for variant in VARIANTS:
            vname, scope, rshape, rstrides, inplace = variant
            name = "%s_%s" % (stem.replace("-", "_"), vname)
            kernel = Kernel(module, name, form, variant)
            module.kernels.append(kernel.text(form, inplace))
            references.append(cuda_kernel(name, form, kernel, inplace))
            coords = repeat_coords(rshape)
            qs = {x: bases(rshape, kernel.strides[x]) if rshape else [0] for x in "dabc"}
            if inplace:
                qs["d"] = qs["c"]
            kernels.append({
                "name": name, "file": stem, "form": stem, "variant": vname,
                "spelling": spelling(k, itype, acc), "k": k, "itype": itype, "acc": acc,
                "ptx_isa": form_ptx(itype),
                "scope": scope, "grid": kernel.grid, "block": kernel.block,
                "repeats": list(rshape), "coords": [list(c) for c in coords],
                "bases": qs, "inplace": inplace,
                "regs": {x: FRAGMENTS[kernel.frags[x]][3] for x in "dabc"},
                "words": kernel.words, "datasets": DATASETS,
                "ptx": ptx_pattern(spelling(k, itype, acc)), "mma_count": len(coords)})
    # The mutation: the k16 bf16 warp reference, one word of D unwritten.
    form = FORMS[1]
    probe = Kernel(Module(), "mutation_skip_one", form, VARIANTS[0])
    references.append(cuda_kernel("mutation_skip_one", form, probe, False, skip=mutation_word()))
    for k in kernels:
        k["kind"] = "mma"
    for more in (build_matrix_moves(), build_cp_async()):
        modules.update(more[0])
        references += more[1]
        kernels += more[2]
    # The mutation of the moves: a cp.async reference whose thread 5 of CTA
    # 0 leaves out its second chunk.
    probe = CpKernel(MoveModule(), CP_MUTATION["name"], "cg", 16, False, False, cp_variants(4)[2])
    references.append(probe.cuda(skip=tuple(CP_MUTATION["skip"])))
    return modules, references, kernels


CP_MUTATION = {"name": "mutation_cp_skip_chunk", "like": "cp_async_cg_16_cta", "skip": [0, 1],
               "block": 0, "thread": 5}


def mutation_word():
    """The word of D the mutation leaves unwritten: 32 * 5 * 4 + 13 (in
    warp 5), wrapped into a launch of fewer warps."""
    return (32 * 5 * 4 + 13) % (TOTAL_WARPS * 32 * 4)


def main(out, total_warps=TOTAL_WARPS):
    # Every kernel class sizes its launch from TOTAL_WARPS.
    global TOTAL_WARPS
    if total_warps < WARPS or total_warps % WARPS:
        raise SystemExit("gen.py: --total-warps %d: a multiple of %d" % (total_warps, WARPS))
    TOTAL_WARPS = total_warps
    os.makedirs(out, exist_ok=True)
    modules, references, kernels = build()
    for stem, module in sorted(modules.items()):
        with open(os.path.join(out, stem + ".mlir"), "w") as f:
            f.write("// Generated by test/gpu/matrix/gen.py\n" + module.text())
    with open(os.path.join(out, "reference.cu"), "w") as f:
        f.write("// Generated by test/gpu/matrix/gen.py\n" + CUDA_HELPERS + "\n\n" +
                "\n\n".join(references) + "\n")
    mma = [k for k in kernels if k["kind"] == "mma"]
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump({"warps": TOTAL_WARPS, "kernels": kernels, "mutation": {
            "name": "mutation_skip_one", "like": mma[len(VARIANTS)]["name"],
            "skip": mutation_word()}, "cp_mutation": CP_MUTATION,
            "shared_poisons": list(SHARED_POISONS)}, f, indent=0)
    print("%d kernels" % len(kernels))
    print("%d form groups" % len({k["form"] for k in kernels}))
    print("%d modules" % len(modules))
    print("%d cases (kernel x data set)" % sum(len(k["datasets"]) for k in kernels))
    print("%d mma per implementation and poison" % sum(
        k["mma_count"] * TOTAL_WARPS * len(k["datasets"]) for k in mma))
    for kind in ("mma", "ldmatrix", "stmatrix", "cp.async"):
        some = [k for k in kernels if k["kind"] == kind]
        print("%s: %d kernels in %d form groups, %d cases" % (
            kind, len(some), len({k["form"] for k in some}),
            sum(len(k["datasets"]) for k in some)))

if __name__ == "__main__":
    args = sys.argv[1:]
    warps = TOTAL_WARPS
    if "--total-warps" in args:
        position = args.index("--total-warps")
        warps = int(args[position + 1])
        del args[position:position + 2]
    main(args[0], warps)
