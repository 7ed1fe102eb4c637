#!/usr/bin/env python3
"""Generates the collectives suite (issue 17, item 3): every warp-collective
form of tile.apply (shfl.sync up/down/bfly/idx with and without `d|p`,
vote.sync all/any/uni/ballot, redux.sync add/min/max .u32/.s32 and
and/or/xor .b32, bar.warp.sync), the named barriers (bar.sync, bar.arrive),
activemask and the per-thread i1 helpers (setp on s32/u32/b32/f32, selp), as
TirX kernels and as CUDA C++ reference kernels that issue the same
instruction through inline asm.

    gen.py OUT_DIR [--total-warps K]
                       writes GROUP.mlir (one module per form group),
                       reference.cu (every reference kernel) and cases.json;
                       K warps a launch (default TOTAL_WARPS, a multiple of
                       4: the interpreter runs the recorded goldens at 4,
                       collectives_golden.py)

Layout of the data. Every kernel covers 256 warps x 32 lanes = 8192
elements per operand: element e = 32 g + l belongs to lane l of warp g.
- scope(cta) kernels: grid 64, block 128 (4 warps); CTA b, warp w, lane l
  handles e = 128 b + 32 w + l. A global operand is a 64x4x32x1 tensor,
  the CTA's region [b, 0, 0, 0] [1, 4, 32, 1] viewed as 4x32x1.
- scope(warp) kernels: grid 256, block 32; CTA b, lane l handles
  e = 32 b + l (global 256x32x1, region [b, 0, 0] [1, 32, 1]).
- scope(warpgroup) kernels: as scope(cta), the CTA being one warpgroup.
A per-thread register tile (4x32x1, or 32x1 at scope(warp)) and the
per-lane tile a collective takes (4x32, or 32: the lane axis last, mapped to
laneid with stride 1) are the same registers: tirx.view drops the unit
axis. Global operands are 32-bit words (an i1 result is stored as
selp.b32 1/0); kernel parameters are the outputs, then the inputs, each a
pointer, then the scalar i32 operands (b, c of a shuffle) by value; the
reference kernel has the same parameters in the same order.

Each case in cases.json names its kernel, form group, operands and the
scalar values run.py sweeps over (a shuffle whose b and c are kernel
parameters runs once per (b, c) pair). test/gpu/collectives/run.py runs
both kernels on a GPU, poisons outputs before each launch, compares bit for
bit and checks nvcc against a numpy model of the PTX ISA's pseudo-code.

All IR text is written by the helpers under "IR spelling" below: a change
of the tile.apply contract (the i1 type, the mask, the layouts, the operand
order of `d|p`) is a change there only.
"""
import json
import os
import sys

# ===----------------------------------------------------------------------===#
# IR spelling (the contract of issue 17, in one place)
# ===----------------------------------------------------------------------===#

MODULE = 'module attributes {tirx.chip = "sm_90", tirx.ptx = 81 : i32} {\n%s\n}\n'
PRED = "i1"               # the element type of a predicate tile
MASK = "-1 : i32"         # membermask: all 32 lanes
WARPS = 4                 # warps per CTA at scope(cta)
TOTAL_WARPS = 256         # warps per launch, both scopes
N = TOTAL_WARPS * 32
# scope(warpgroup) kernels run one warpgroup (4 warps) per CTA: the same
# launch and data layout as scope(cta), warps numbered by wid_in_wg.
LAUNCH = {"cta": (TOTAL_WARPS // WARPS, WARPS * 32), "warp": (TOTAL_WARPS, 32),
          "warpgroup": (TOTAL_WARPS // WARPS, WARPS * 32)}
# The registers: one per thread, lane axis mapped to laneid with stride 1.
# The per-thread tile (extra unit axis, used by ld/st/setp/selp) keeps the
# same layout: tirx.view only reshapes. (The brief wrote the per-thread
# layout as S[(4, 32, 1) : (1@warpid, 1@laneid, 1)]; today's tirx.view
# rejects a view that changes the layout text, so both tiles use this one.)
# Each module starts with these attribute aliases.
LAYOUTS = {
    "#cta_lanes": "#tirx.layout<S[(%d, 32) : (1@warpid, 1@laneid)]>" % WARPS,
    "#warp_lanes": "#tirx.layout<S[(32) : (1@laneid)]>",
    "#wg_lanes": "#tirx.layout<S[(%d, 32) : (1@wid_in_wg, 1@laneid)]>" % WARPS,
    "#cta_slice": "#tirx.layout<S[(1, %d, 32, 1) : (%d, 32, 1, 1)]>" % (WARPS, WARPS * 32),
    "#warp_slice": "#tirx.layout<S[(1, 32, 1) : (32, 1, 1)]>",
}
LANE_LAYOUT = {"cta": "#cta_lanes", "warp": "#warp_lanes", "warpgroup": "#wg_lanes"}
THREAD_LAYOUT = LANE_LAYOUT
SLICE_LAYOUT = {"cta": "#cta_slice", "warp": "#warp_slice", "warpgroup": "#cta_slice"}


def module_text(kernels):
    aliases = "".join("%s = %s\n" % kv for kv in LAYOUTS.items())
    return aliases + MODULE % "\n".join(kernels)


def lane_shape(scope):
    return "32" if scope == "warp" else "%dx32" % WARPS


def lane_type(scope, dt):
    """The per-lane operand of a collective: (W, 32) or (32)."""
    return "!tirx.tensor<%sx%s, local, %s>" % (lane_shape(scope), dt, LANE_LAYOUT[scope])


def thread_type(scope, dt):
    """The same registers as one-element atoms of per-thread forms."""
    return "!tirx.tensor<%sx1x%s, local, %s>" % (lane_shape(scope), dt, THREAD_LAYOUT[scope])


def global_type(scope, dt):
    grid = LAUNCH[scope][0]
    return "!tirx.tensor<%dx%sx1x%s, global>" % (grid, lane_shape(scope), dt)


def region_type(scope, dt):
    """What tirx.region gives for one CTA's slice, and its view without the
    CTA axis."""
    layout = SLICE_LAYOUT[scope]
    if scope != "warp":
        return ("!tirx.tensor<1x%dx32x1x%s, global, %s>" % (WARPS, dt, layout),
                "!tirx.tensor<%dx32x1x%s, global, %s>" % (WARPS, dt, layout))
    return ("!tirx.tensor<1x32x1x%s, global, %s>" % (dt, layout),
            "!tirx.tensor<32x1x%s, global, %s>" % (dt, layout))


def shared_type(rows):
    return "!tirx.tensor<%dx32x1xi32, shared>" % rows


def shared_window_type(start):
    """What tirx.region gives for rows [start, start + W) of shared_type."""
    offset = "" if start == 0 else " + %d" % (32 * start)
    return "!tirx.tensor<%dx32x1xi32, shared, #tirx.layout<S[(%d, 32, 1) : (32, 1, 1)]%s>>" % (
        WARPS, WARPS, offset)


def immediate(value):
    """An i32 immediate as tile.apply writes it (signed decimal)."""
    value &= 0xFFFFFFFF
    return "%d : i32" % (value - (1 << 32) if value >> 31 else value)


def apply_text(spelling, scope, operands, types, pred=None):
    """operands: SSA names and immediates in PTX order (destination first);
    types: the SSA operands' types; pred: a warp-uniform i1 guard."""
    text = 'tile.apply "%s" scope(%s) (%s)' % (spelling, scope, ", ".join(operands))
    if pred is not None:
        text += " pred(%s)" % pred
    return text + (" : " + ", ".join(types) if types else "")


def shfl_operands(d, p, a, b, c):
    """shfl.sync's operands: (d, a, b, c, membermask), or with the validity
    predicate (d, p, a, b, c, membermask) for `d|p`."""
    return [d] + ([p] if p is not None else []) + [a, b, c, MASK]


class Kernel:
    """One TirX kernel: parameters (tensors, then i32 scalars), a body of
    tile.apply lines over registers loaded from its CTA's slice."""

    def __init__(self, name, scope, tensors, scalars=()):
        # tensors: [(param name, element type)]; scalars: [param name]
        self.name, self.scope = name, scope
        self.tensors, self.scalars = dict(tensors), list(scalars)
        grid, block = LAUNCH[scope]
        params = ["%%%s: %s" % (n, global_type(scope, dt)) for n, dt in tensors]
        params += ["%%%s: i32" % n for n in scalars]
        self.lines = ["  tirx.kernel @%s(%s)" % (name, ", ".join(params)),
                      "      launch(grid = [%d], block = [%d]) {" % (grid, block),
                      "    %bx = tirx.block_idx x"]
        self.count = 0
        self.views = {}

    def fresh(self, stem):
        self.count += 1
        return "%%%s%d" % (stem, self.count)

    def emit(self, line):
        self.lines.append("    " + line)

    def slice(self, param):
        """The CTA's part of a global operand, as a per-thread tile."""
        if param not in self.views:
            dt = self.tensors[param]
            cta, view = region_type(self.scope, dt)
            region, flat = self.fresh("c"), self.fresh("g")
            starts = ", ".join(["%bx"] + ["0"] * (2 if self.scope == "warp" else 3))
            sizes = "1, 32, 1" if self.scope == "warp" else "1, %d, 32, 1" % WARPS
            self.emit("%s = tirx.region %%%s[%s] [%s] : %s" % (
                region, param, starts, sizes, global_type(self.scope, dt)))
            self.emit("%s = tirx.view %s : %s -> %s" % (flat, region, cta, view))
            self.views[param] = (flat, view)
        return self.views[param]

    def alloc(self, dt):
        """A register tile: (per-thread name, per-lane name, dtype)."""
        thread, lane = self.fresh("t"), self.fresh("l")
        self.emit("%s = tirx.alloc_local : %s" % (thread, thread_type(self.scope, dt)))
        self.emit("%s = tirx.view %s : %s -> %s" % (
            lane, thread, thread_type(self.scope, dt), lane_type(self.scope, dt)))
        return thread, lane, dt

    def load(self, param):
        reg = self.alloc(self.tensors[param])
        flat, view = self.slice(param)
        self.emit(apply_text("ld.global.b32", self.scope, [reg[0], flat],
                             [thread_type(self.scope, reg[2]), view]))
        return reg

    def store(self, param, reg):
        flat, view = self.slice(param)
        self.emit(apply_text("st.global.b32", self.scope, [flat, reg[0]],
                             [view, thread_type(self.scope, reg[2])]))

    def thread_op(self, spelling, operands, pred=None):
        """A per-thread form; operands: register tiles, (name, type) pairs
        (shared-memory tiles) or immediate text."""
        names, types = [], []
        for o in operands:
            if isinstance(o, str):
                names.append(o)
            elif len(o) == 2:
                names.append(o[0])
                types.append(o[1])
            else:
                names.append(o[0])
                types.append(thread_type(self.scope, o[2]))
        self.emit(apply_text(spelling, self.scope, names, types, pred))

    def warp_index(self):
        """%w: the warp of the thread in its CTA (thread_idx x / 32, which
        the verifier knows is warp-uniform)."""
        self.emit("%tx = tirx.thread_idx x")
        self.emit("%c32 = arith.constant 32 : index")
        self.emit("%w = arith.divui %tx, %c32 : index")
        return "%w"

    def index_constant(self, value):
        name = self.fresh("k")
        self.emit("%s = arith.constant %d : index" % (name, value))
        return name

    def compare(self, predicate, lhs, value):
        """An i1 scalar: lhs PREDICATE value (index comparison)."""
        name = self.fresh("q")
        self.emit("%s = arith.cmpi %s, %s, %s : index" % (
            name, predicate, lhs, self.index_constant(value)))
        return name

    def shared_rows(self, rows):
        """A (rows, 32, 1) i32 shared-memory tensor."""
        name = self.fresh("smem")
        self.emit("%s = tirx.alloc_shared : %s" % (name, shared_type(rows)))
        return name, rows

    def shared_window(self, smem, start):
        """Rows [start, start + W) of a shared tensor: thread (w, l) of the
        CTA addresses row start + w, column l."""
        name, rows = smem
        window = self.fresh("s")
        self.emit("%s = tirx.region %s[%d, 0, 0] [%d, 32, 1] : %s" % (
            window, name, start, WARPS, shared_type(rows)))
        return window, shared_window_type(start)

    def collective(self, spelling, operands):
        """A warp-collective form; operands: register tiles (passed as their
        per-lane view), scalar parameters ("%b", type i32) or immediates."""
        names, types = [], []
        for o in operands:
            if isinstance(o, str):
                names.append(o)
                if o.startswith("%"):
                    types.append("i32")
            else:
                names.append(o[1])
                types.append(lane_type(self.scope, o[2]))
        self.emit(apply_text(spelling, self.scope, names, types))

    def predicate(self, reg):
        """An i1 tile: reg != 0."""
        p = self.alloc(PRED)
        self.thread_op("setp.ne.b32", [p, reg, "0 : %s" % reg[2]])
        return p

    def from_predicate(self, p):
        """An i32 tile: p ? 1 : 0."""
        out = self.alloc("i32")
        self.thread_op("selp.b32", [out, "1 : i32", "0 : i32", p])
        return out

    def text(self):
        return "\n".join(self.lines + ["    tirx.return", "  }"])


# ===----------------------------------------------------------------------===#
# Reference kernels (nvcc inline asm)
# ===----------------------------------------------------------------------===#

def cuda_kernel(name, outputs, inputs, scalars, asm, skip=None):
    """outputs/inputs: parameter names (32-bit words); scalars: i32 parameter
    names; asm: (template, output names, input names) where the template's
    %N are the asm operands, outputs first. skip: an element index left
    unwritten (the deliberate mutation)."""
    params = ["unsigned *%s" % n for n in outputs]
    params += ["const unsigned *%s" % n for n in inputs]
    params += ["unsigned %s" % n for n in scalars]
    body = ['extern "C" __global__ void %s(%s) {' % (name, ", ".join(params)),
            "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;"]
    for n in inputs:
        body.append("  unsigned v_%s = %s[i];" % (n, n))
    for n in outputs:
        body.append("  unsigned v_%s;" % n)
    template, outs, ins = asm
    body.append('  asm volatile("%s"\n      : %s\n      : %s);' % (
        template, ", ".join('"=r"(v_%s)' % n for n in outs),
        ", ".join('"r"(%s)' % (n if n in scalars else "v_" + n) for n in ins)))
    guard = "  " if skip is None else "  if (i != %du) " % skip
    for n in outputs:
        body.append("%s%s[i] = v_%s;" % (guard, n, n))
    return "\n".join(body + ["}"])


# ===----------------------------------------------------------------------===#
# The cases
# ===----------------------------------------------------------------------===#

SHFL_MODES = ["up", "down", "bfly", "idx"]
# b: every lane offset, then values >= 32 (PTX uses b[4:0]).
B_SWEEP = list(range(32)) + [32, 33, 47, 63, 64, 255, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF]
# c: clamps (c[4:0]) with no segment mask, CUDA's width masks (c[12:8] =
# 32 - width; clamp 0x1f for down/bfly/idx, 0 for up), segment masks that
# are not contiguous, and bits outside c[4:0] and c[12:8].
C_SWEEP = [0x1F, 0x0F, 0x07, 0x00, 0x01, 0x10, 0x1E,
           0x1E1F, 0x1C1F, 0x181F, 0x101F, 0x1F1F,
           0x1E00, 0x1C00, 0x1800, 0x1000, 0x1F00,
           0x1C03, 0x0A15, 0x0500, 0x20, 0xE0E0, 0xFFFFFFFF]
B_IMM = [0, 1, 2, 16, 31]
C_IMM = [0x1F, 0x181F, 0x1C00, 0x00]
# Immediates outside b[4:0] / c's fields: ptxas takes them; TirX may too.
B_WIDE = [32, 33, 255, 0xFFFFFFFF]
C_WIDE = [0xFFFFFFFF, 0x20]
VOTE_MODES = ["all", "any", "uni"]
REDUX = [("add", "u32", "ui32"), ("min", "u32", "ui32"), ("max", "u32", "ui32"),
         ("add", "s32", "i32"), ("min", "s32", "i32"), ("max", "s32", "i32"),
         ("and", "b32", "i32"), ("or", "b32", "i32"), ("xor", "b32", "i32")]
SETP = [(op, ty) for ty in ("s32", "u32") for op in ("eq", "ne", "lt", "le", "gt", "ge")]
SETP += [("eq", "b32"), ("ne", "b32")]  # ordered comparisons are not defined on .b32
SETP += [(op, "u32") for op in ("lo", "ls", "hi", "hs")]  # the unsigned spellings
FLOAT_COMPARISONS = ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu",
                     "gtu", "geu", "num", "nan"]
SETP += [(op, "f32") for op in FLOAT_COMPARISONS]
SETP += [(op, "ftz.f32") for op in FLOAT_COMPARISONS]
SETP_TYPE = {"s32": "i32", "u32": "ui32", "b32": "i32", "f32": "f32"}
SELP = [("b32", "i32", "tiles"), ("b32", "i32", "imm"), ("u32", "ui32", "tiles"),
        ("s32", "i32", "tiles"), ("f32", "f32", "tiles")]
# setp with an immediate b: (op, type, value)
SETP_IMM = [("lt", "s32", -1), ("ge", "s32", 0), ("gt", "u32", 0x7FFFFFFF),
            ("le", "u32", 0x80000000), ("eq", "b32", 0x80000000)]


def ptx_pattern(spelling, pred=False):
    """A regex the kernel's PTX must match: the instruction itself (not an
    emulation). redux.sync.add.u32 may be printed .s32 (the same bits: NVVM's
    redux add intrinsic prints .s32), bar.sync/bar.arrive as
    barrier.sync/arrive.aligned (the same instruction in the PTX ISA)."""
    text = spelling.replace(".", r"\.")
    if spelling == "redux.sync.add.u32":
        text = r"redux\.sync\.add\.[us]32"
    if spelling == "bar.warp.sync":
        return r"bar\.warp\.sync\s+(-1|0xffffffff|0xFFFFFFFF|4294967295)\s*;"
    if spelling in ("bar.sync", "bar.arrive"):  # PTX: the same as barrier.*.aligned
        return r"(%s|barrier\.%s\.aligned)\s" % (text, spelling.split(".")[1])
    if spelling.startswith("shfl"):
        return text + (r"\s+[^,;|\s]+\|[^,;\s]+," if pred else r"\s+[^,;|\s]+,")
    return text + r"\s"


class Suite:
    def __init__(self):
        self.files = {}      # file stem -> [kernel text]
        self.references = []
        self.cases = []

    def add(self, file, kernel, reference, case):
        self.files.setdefault(file, []).append(kernel.text())
        self.references.append(reference)
        case.update(name=kernel.name, file=file, scope=kernel.scope, n=N,
                    grid=LAUNCH[kernel.scope][0], block=LAUNCH[kernel.scope][1])
        self.cases.append(case)


def add_shuffles(suite):
    for mode in SHFL_MODES:
        for pred in (False, True):
            spelling = "shfl.sync.%s.b32" % mode
            group = spelling + ("|p" if pred else "")
            file = "shfl-%s%s" % (mode, "-p" if pred else "")
            variants = []
            # (suffix, scope, dtype, b kind, c kind): b/c "s" scalar
            # parameter, "t" per-lane tile (b only), or an immediate value.
            for dt in ("f32", "i32", "ui32"):
                variants.append(("reg_%s" % dt, "cta", dt, "s", "s"))
            variants.append(("reg_warp", "warp", "i32", "s", "s"))
            variants.append(("reg_warpgroup", "warpgroup", "i32", "s", "s"))
            variants.append(("lane", "cta", "i32", "t", "s"))
            variants.append(("lane_f32", "cta", "f32", "t", "s"))
            for c in (0x1F, 0x181F, 0x00):
                variants.append(("lane_c%x" % c, "cta", "i32", "t", c))
            variants.append(("bimm_5", "cta", "ui32", 5, "s"))
            variants.append(("cimm_101f", "cta", "ui32", "s", 0x101F))
            for b in B_IMM:
                for c in C_IMM:
                    variants.append(("imm_%d_%x" % (b, c), "cta", "i32", b, c))
            for b in B_WIDE:
                for c in C_WIDE:
                    variants.append(("wide_%x_%x" % (b, c), "cta", "i32", b, c))
            for suffix, scope, dt, bk, ck in variants:
                wide = suffix.startswith("wide")
                name = "shfl_%s%s_%s" % (mode, "_p" if pred else "", suffix)
                outputs = ["d"] + (["p"] if pred else [])
                inputs = ["a"] + (["b"] if bk == "t" else [])
                scalars = (["bs"] if bk == "s" else []) + (["cs"] if ck == "s" else [])
                tensors = [("d", dt)] + ([("p", "i32")] if pred else []) + [("a", dt)]
                tensors += [("b", "i32")] if bk == "t" else []
                k = Kernel(name, scope, tensors, scalars)
                a = k.load("a")
                b_reg = k.load("b") if bk == "t" else None
                d = k.alloc(dt)
                p = k.alloc(PRED) if pred else None
                b_op = b_reg if bk == "t" else ("%bs" if bk == "s" else immediate(bk))
                c_op = "%cs" if ck == "s" else immediate(ck)
                k.collective(spelling, shfl_operands(d, p, a, b_op, c_op))
                k.store("d", d)
                if pred:
                    k.store("p", k.from_predicate(p))
                # Reference: the same instruction, p through selp; asm
                # operands %0 (d), %1 (p), then a, then b and c unless
                # immediate.
                ins, slot = ["a"], len(outputs)
                texts = ["%%%d" % slot]
                slot += 1
                for kind, tensor, scalar in ((bk, "b", "bs"), (ck, None, "cs")):
                    if kind in ("t", "s"):
                        ins.append(tensor if kind == "t" else scalar)
                        texts.append("%%%d" % slot)
                        slot += 1
                    else:
                        texts.append("0x%08X" % (kind & 0xFFFFFFFF))
                if pred:
                    template = ("{ .reg .pred q; %s %%0|q, %s, 0xFFFFFFFF; "
                                "selp.b32 %%1, 1, 0, q; }" % (spelling, ", ".join(texts)))
                else:
                    template = "%s %%0, %s, 0xFFFFFFFF;" % (spelling, ", ".join(texts))
                ref = cuda_kernel(name, outputs, inputs, scalars, (template, outputs, ins))
                sweep_b = B_SWEEP if bk == "s" else [bk if bk != "t" else None]
                sweep_c = C_SWEEP if ck == "s" else [ck]
                case = {"group": group, "family": "shfl", "spelling": spelling, "mode": mode,
                        "pred": pred, "dtype": dt, "outputs": outputs, "inputs": inputs,
                        "input_data": {"a": "shfl_a_" + dt, "b": "lane_b"},
                        "scalars": scalars, "b": bk if bk in ("s", "t") else bk & 0xFFFFFFFF,
                        "c": ck if ck == "s" else ck & 0xFFFFFFFF,
                        "sweep": [[x for x, kind in ((bv, bk), (cv, ck)) if kind == "s"]
                                  for bv in sweep_b for cv in sweep_c],
                        "optional": wide, "ptx": ptx_pattern(spelling, pred)}
                suite.add(file + ("-wide" if wide else ""), k, ref, case)


def add_votes(suite):
    for mode in VOTE_MODES + ["ballot"]:
        if mode == "ballot":
            spelling = "vote.sync.ballot.b32"
            variants = [("i32", "cta"), ("ui32", "cta"), ("i32", "warp"), ("i32", "warpgroup")]
        else:
            spelling = "vote.sync.%s.pred" % mode
            variants = [(PRED, "cta"), (PRED, "warp"), (PRED, "warpgroup")]
        for dt, scope in variants:
            name = "vote_%s_%s%s" % (mode, dt, "" if scope == "cta" else "_" + scope)
            k = Kernel(name, scope, [("d", "i32" if dt == PRED else dt), ("a", "i32")])
            x = k.load("a")
            pa = k.predicate(x)
            d = k.alloc(dt)
            k.collective(spelling, [d, pa, MASK])
            k.store("d", k.from_predicate(d) if dt == PRED else d)
            if dt == PRED:
                template = ("{ .reg .pred a, d; setp.ne.b32 a, %%1, 0; %s d, a, 0xFFFFFFFF; "
                            "selp.b32 %%0, 1, 0, d; }" % spelling)
            else:
                template = ("{ .reg .pred a; setp.ne.b32 a, %%1, 0; %s %%0, a, 0xFFFFFFFF; }"
                            % spelling)
            ref = cuda_kernel(name, ["d"], ["a"], [], (template, ["d"], ["a"]))
            suite.add("vote-" + mode, k, ref, {
                "group": spelling, "family": "vote", "spelling": spelling, "mode": mode,
                "dtype": dt, "outputs": ["d"], "inputs": ["a"],
                "input_data": {"a": "vote_x"}, "scalars": [], "sweep": [[]],
                "optional": False, "ptx": ptx_pattern(spelling)})


def add_redux(suite):
    for op, ptype, dt in REDUX:
        spelling = "redux.sync.%s.%s" % (op, ptype)
        variants = [(dt, "cta"), (dt, "warp"), (dt, "warpgroup")]
        if ptype == "b32":
            variants.append(("ui32", "cta"))
        for vdt, scope in variants:
            name = "redux_%s_%s_%s%s" % (op, ptype, vdt, "" if scope == "cta" else "_" + scope)
            k = Kernel(name, scope, [("d", vdt), ("a", vdt)])
            a = k.load("a")
            d = k.alloc(vdt)
            k.collective(spelling, [d, a, MASK])
            k.store("d", d)
            ref = cuda_kernel(name, ["d"], ["a"], [],
                              ("%s %%0, %%1, 0xFFFFFFFF;" % spelling, ["d"], ["a"]))
            suite.add("redux-%s-%s" % (op, ptype), k, ref, {
                "group": spelling, "family": "redux", "spelling": spelling, "op": op,
                "ptype": ptype, "dtype": vdt, "outputs": ["d"], "inputs": ["a"],
                "input_data": {"a": "redux_a"}, "scalars": [], "sweep": [[]],
                "optional": False, "ptx": ptx_pattern(spelling)})


def add_bar_warp(suite):
    for scope in ("cta", "warp", "warpgroup"):
        name = "bar_warp_sync%s" % ("" if scope == "cta" else "_" + scope)
        k = Kernel(name, scope, [("d", "i32"), ("a", "i32")])
        a = k.load("a")
        k.emit(apply_text("bar.warp.sync", scope, [MASK], []))
        k.store("d", a)
        ref = cuda_kernel(name, ["d"], ["a"], [],
                          ("mov.b32 %0, %1; bar.warp.sync 0xFFFFFFFF;", ["d"], ["a"]))
        suite.add("bar-warp-sync", k, ref, {
            "group": "bar.warp.sync", "family": "bar", "spelling": "bar.warp.sync",
            "dtype": "i32", "outputs": ["d"], "inputs": ["a"],
            "input_data": {"a": "shfl_a_i32"}, "scalars": [], "sweep": [[]],
            "optional": False, "ptx": ptx_pattern("bar.warp.sync")})


def add_helpers(suite):
    for op, ptype in SETP:
        spelling = "setp.%s.%s" % (op, ptype)
        dt = SETP_TYPE[ptype.split(".")[-1]]
        float_ = ptype.endswith("f32")
        for imm in [None] + [v for o, t, v in SETP_IMM if (o, t) == (op, ptype)]:
            name = "setp_%s_%s%s" % (op, ptype.replace(".", "_"), "" if imm is None else "_imm")
            tensors = [("d", "i32"), ("a", dt)] + ([("b", dt)] if imm is None else [])
            k = Kernel(name, "cta", tensors)
            a = k.load("a")
            if imm is None:
                b_op, b_text, ins = k.load("b"), "%2", ["a", "b"]
            else:
                value = imm & 0xFFFFFFFF
                b_op = "%d : %s" % (value if dt == "ui32" else
                                    (value - (1 << 32) if value >> 31 else value), dt)
                b_text, ins = "0x%08X" % value, ["a"]
            p = k.alloc(PRED)
            k.thread_op(spelling, [p, a, b_op])
            k.store("d", k.from_predicate(p))
            template = ("{ .reg .pred q; %s q, %%1, %s; selp.b32 %%0, 1, 0, q; }"
                        % (spelling, b_text))
            if float_:  # f32 operands are "f" registers in the reference
                template = ("{ .reg .pred q; .reg .f32 x, y; mov.b32 x, %%1; mov.b32 y, %s; "
                            "%s q, x, y; selp.b32 %%0, 1, 0, q; }" % (b_text, spelling))
            ref = cuda_kernel(name, ["d"], ins, [], (template, ["d"], ins))
            suite.add("setp-%s-%s" % (op, ptype.replace(".", "-")), k, ref, {
                "group": spelling, "family": "setp", "spelling": spelling, "op": op,
                "ptype": ptype, "dtype": dt, "outputs": ["d"], "inputs": ins,
                "input_data": {"a": "setpf_a" if float_ else "setp_a",
                               "b": "setpf_b" if float_ else "setp_b"},
                "imm": None if imm is None else imm & 0xFFFFFFFF,
                "scalars": [], "sweep": [[]], "optional": False, "ptx": None})
    # selp.TYPE: d = c ? a : b, c an i1 tile (x != 0), a and b tiles or
    # immediates.
    for ptype, dt, variant in SELP:
        spelling = "selp.%s" % ptype
        name = "selp_%s_%s" % (ptype, variant)
        tensors = [("d", dt)] + ([("a", dt), ("b", dt)] if variant == "tiles" else [])
        tensors.append(("c", "i32"))
        k = Kernel(name, "cta", tensors)
        if variant == "tiles":
            a, b = k.load("a"), k.load("b")
            ins, texts = ["a", "b", "c"], ["%1", "%2"]
        else:
            a, b = "-559038737 : i32", "305419896 : i32"   # 0xDEADBEEF, 0x12345678
            ins, texts = ["c"], ["0xDEADBEEF", "0x12345678"]
        c = k.predicate(k.load("c"))
        d = k.alloc(dt)
        k.thread_op(spelling, [d, a, b, c])
        k.store("d", d)
        if ptype == "f32":
            template = ("{ .reg .pred q; .reg .f32 x, y, z; mov.b32 x, %1; mov.b32 y, %2; "
                        "setp.ne.b32 q, %3, 0; selp.f32 z, x, y, q; mov.b32 %0, z; }")
        else:
            template = ("{ .reg .pred q; setp.ne.b32 q, %%%d, 0; %s %%0, %s, %s, q; }"
                        % (len(ins), spelling, texts[0], texts[1]))
        ref = cuda_kernel(name, ["d"], ins, [], (template, ["d"], ins))
        suite.add("selp-" + ptype, k, ref, {
            "group": spelling, "family": "selp", "spelling": spelling, "dtype": dt,
            "outputs": ["d"], "inputs": ins, "variant": variant,
            "input_data": {"a": "selp_a", "b": "selp_b", "c": "selp_c"},
            "scalars": [], "sweep": [[]], "optional": False, "ptx": None})


def add_activemask(suite):
    """activemask.b32 with every thread converged: all 32 bits."""
    for dt, scope in (("i32", "cta"), ("ui32", "cta"), ("i32", "warp")):
        name = "activemask_%s%s" % (dt, "_warp" if scope == "warp" else "")
        k = Kernel(name, scope, [("d", dt)])
        d = k.alloc(dt)
        k.thread_op("activemask.b32", [d])
        k.store("d", d)
        ref = cuda_kernel(name, ["d"], [], [], ("activemask.b32 %0;", ["d"], []))
        suite.add("activemask", k, ref, {
            "group": "activemask.b32", "family": "activemask", "spelling": "activemask.b32",
            "dtype": dt, "outputs": ["d"], "inputs": [], "input_data": {}, "scalars": [],
            "sweep": [[]], "optional": False, "ptx": ptx_pattern("activemask.b32")})


# Named barriers: (kernel, spelling, what the CTA's 4 warps do). Each
# thread (w, l) stores a[w, l] at shared rows w and w + 4, meets the others
# at the barrier, and reads back:
#   all:      bar.sync 1 / bar.sync 1, 128 by every warp; every warp reads
#             row w + 1: d[w] = a[(w + 1) % 4].
#   pairs:    bar.sync 1 + w / 2, 64: warps {0, 1} and {2, 3} meet apart;
#             even warps read row w + 1 (their partner), odd keep their own.
#   arrive:   warps 0-1 bar.arrive 1, 128 (producers, keep their own),
#             warps 2-3 bar.sync 1, 128 and read row w + 2 (= a[w - 2]).
NAMED_BARRIERS = [
    ("bar_sync_all", "bar.sync", "all", ["1 : i32"], "bar.sync 1;",
     "bar.sync 1 (every warp)"),
    ("bar_sync_all_count", "bar.sync", "all", ["1 : i32", "128 : i32"], "bar.sync 1, 128;",
     "bar.sync 1, 128 (every warp)"),
    ("bar_sync_pairs", "bar.sync", "pairs", ["%id", "64 : i32"], None,
     "bar.sync 1 + w / 2, 64 (warp pairs apart)"),
    ("bar_arrive", "bar.arrive", "arrive", ["1 : i32", "128 : i32"], None,
     "bar.arrive 1, 128 + bar.sync 1, 128 (producers, consumers)"),
]


def add_named_barriers(suite):
    for name, spelling, kind, operands, asm, label in NAMED_BARRIERS:
        k = Kernel(name, "cta", [("d", "i32"), ("a", "i32")])
        w = k.warp_index()
        a = k.load("a")
        smem = k.shared_rows(2 * WARPS)
        for start in (0, WARPS):
            k.thread_op("st.shared.b32", [k.shared_window(smem, start), a])
        reader, read_row = None, 1
        if kind == "all":
            k.emit(apply_text(spelling, "cta", operands, []))
        elif kind == "pairs":
            # id = 1 + w / 2 as i32: warp-uniform, so a scalar operand.
            k.emit("%c2 = arith.constant 2 : index")
            k.emit("%c1 = arith.constant 1 : index")
            k.emit("%pair = arith.divui %w, %c2 : index")
            k.emit("%id_index = arith.addi %pair, %c1 : index")
            k.emit("%id = arith.index_cast %id_index : index to i32")
            k.emit(apply_text(spelling, "cta", operands, ["i32"]))
            k.emit("%odd = arith.remui %w, %c2 : index")
            k.emit("%c0 = arith.constant 0 : index")
            k.emit("%even = arith.cmpi eq, %odd, %c0 : index")
            reader = "%even"
        else:
            producer, consumer = k.compare("ult", w, 2), k.compare("uge", w, 2)
            k.emit(apply_text("bar.arrive", "cta", operands, [], pred=producer))
            k.emit(apply_text("bar.sync", "cta", operands, [], pred=consumer))
            reader, read_row = consumer, 2
        k.thread_op("ld.shared.b32", [a, k.shared_window(smem, read_row)], pred=reader)
        k.store("d", a)
        reads = {"all": "true", "pairs": "w % 2 == 0", "arrive": "w >= 2"}[kind]
        barrier = {"all": asm, "pairs": "bar.sync %0, 64;",
                   "arrive": None}[kind]
        lines = ['extern "C" __global__ void %s(unsigned *d, const unsigned *a) {' % name,
                 "  __shared__ unsigned s[%d];" % (2 * WARPS * 32),
                 "  unsigned t = threadIdx.x, w = t / 32, l = t % 32;",
                 "  unsigned i = blockIdx.x * blockDim.x + t;",
                 "  unsigned v = a[i];",
                 "  s[w * 32 + l] = v;",
                 "  s[(w + %d) * 32 + l] = v;" % WARPS]
        if kind == "pairs":
            lines.append('  asm volatile("%s" :: "r"(1 + w / 2) : "memory");' % barrier)
        elif kind == "all":
            lines.append('  asm volatile("%s" ::: "memory");' % barrier)
        else:
            lines.append('  if (w < 2) asm volatile("bar.arrive 1, 128;" ::: "memory");')
            lines.append('  else asm volatile("bar.sync 1, 128;" ::: "memory");')
        lines.append("  if (%s) v = s[(w + %d) * 32 + l];" % (reads, read_row))
        lines += ["  d[i] = v;", "}"]
        suite.add("bar-" + name.replace("_", "-")[4:], k, "\n".join(lines), {
            "group": label,
            "family": "named_barrier", "spelling": spelling, "kind": kind, "dtype": "i32",
            "outputs": ["d"], "inputs": ["a"], "input_data": {"a": "shfl_a_i32"},
            "scalars": [], "sweep": [[]], "optional": False,
            "ptx": ptx_pattern(spelling)})


# The element the mutation leaves unwritten (in warp 5), wrapped into a
# launch of fewer warps; run.py's dry run skips the same one.
MUTATION_SKIP = 32 * 5 + 13


def add_mutations(suite):
    """A reference kernel that leaves one element unwritten: run.py checks
    that the poison comparison sees it (the kernel is nvcc's only)."""
    name = "mutation_skip_one"
    template = "shfl.sync.bfly.b32 %0, %1, 1, 0x0000001F, 0xFFFFFFFF;"
    suite.references.append(cuda_kernel(name, ["d"], ["a"], [], (template, ["d"], ["a"]),
                                        skip=MUTATION_SKIP % N))


def build():
    suite = Suite()
    add_shuffles(suite)
    add_votes(suite)
    add_redux(suite)
    add_bar_warp(suite)
    add_helpers(suite)
    add_activemask(suite)
    add_named_barriers(suite)
    add_mutations(suite)
    return suite


def set_total_warps(total_warps):
    """Sizes every launch (and the data) for total_warps warps."""
    global TOTAL_WARPS, N, LAUNCH
    if total_warps < WARPS or total_warps % WARPS:
        raise SystemExit("gen.py: --total-warps %d: a multiple of %d" % (total_warps, WARPS))
    TOTAL_WARPS, N = total_warps, total_warps * 32
    LAUNCH = {"cta": (TOTAL_WARPS // WARPS, WARPS * 32), "warp": (TOTAL_WARPS, 32),
              "warpgroup": (TOTAL_WARPS // WARPS, WARPS * 32)}
    # The CTA axis's stride: 1 in a grid of one CTA (a unit dimension's
    # stride, as tirx.region infers it).
    per_cta = WARPS * 32 if LAUNCH["cta"][0] > 1 else 1
    LAYOUTS["#cta_slice"] = "#tirx.layout<S[(1, %d, 32, 1) : (%d, 32, 1, 1)]>" % (WARPS, per_cta)


def main(out, total_warps=TOTAL_WARPS):
    set_total_warps(total_warps)
    os.makedirs(out, exist_ok=True)
    suite = build()
    for stem, kernels in sorted(suite.files.items()):
        with open(os.path.join(out, stem + ".mlir"), "w") as f:
            f.write("// Generated by test/gpu/collectives/gen.py\n" + module_text(kernels))
    with open(os.path.join(out, "reference.cu"), "w") as f:
        f.write("// Generated by test/gpu/collectives/gen.py\n" +
                "\n\n".join(suite.references) + "\n")
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump({"n": N, "cases": suite.cases}, f, indent=0)
    groups = sorted({c["group"] for c in suite.cases})
    print("%d kernels" % len(suite.cases))
    optional = sorted({c["group"] for c in suite.cases if c["optional"]})
    print("%d form groups (and %d optional ones: shuffles with wide immediates)" % (
        len(groups), len(optional)))
    print("%d modules" % len(suite.files))
    print("%d launches per implementation and poison" % sum(len(c["sweep"]) for c in suite.cases))


if __name__ == "__main__":
    args = sys.argv[1:]
    warps = TOTAL_WARPS
    if "--total-warps" in args:
        position = args.index("--total-warps")
        warps = int(args[position + 1])
        del args[position:position + 2]
    main(args[0], warps)
