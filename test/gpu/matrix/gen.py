#!/usr/bin/env python3
"""Generates the matrix suite (issue 18, item 2): every mma.sync form that
tile.apply accepts today, as TirX kernels and as CUDA C++ reference kernels
that issue the same instruction through inline asm with the same operands:

    mma.sync.aligned.m16n8k16.row.col.f32.{f16.f16,bf16.bf16}.f32
    mma.sync.aligned.m16n8k8.row.col.f32.{f16.f16,bf16.bf16}.f32
    mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16
    mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16

    gen.py OUT_DIR     writes FORM.mlir (one module per form, its variants
                       as kernels), reference.cu (every reference kernel)
                       and cases.json

Variants of each form (kernel NAME = FORM_VARIANT, FORM as in the file name
with '_' for '-'):
- warp:          scope(warp), one mma per warp, D a tile of its own.
- warp_inplace:  scope(warp), D and C the same tile (mma (%c, %a, %b, %c)).
- cta:           scope(cta), 4 warps (the group) x 2 repeats, every operand
                 with its repeats at register bases 0 and N (N registers a
                 fragment).
- cta_2x2:       scope(cta), 4 warps x (2, 2) repeats whose register bases
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

Each kernel in cases.json names its form, variant, the register base of
each operand for each repeat (in the order of the repeat coordinates), and
the data sets run.py launches it on (normal, wide, special: run.py's
docstring). test/gpu/matrix/run.py runs both kernels on a GPU, poisons the
output before each launch, compares bit for bit and checks nvcc against a
float64 model of D = A B + C.
"""
import json
import os
import sys

MODULE = 'module attributes {tirx.chip = "sm_90", tirx.ptx = 81 : i32} {\n%s\n}\n'
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
         ("m16n8k8-f16", 8, "f16", "f16")]

# (variant, scope, repeat shape, {operand: repeat strides in fragments}, in place)
VARIANTS = [("warp", "warp", (), {}, False),
            ("warp_inplace", "warp", (), {}, True),
            ("cta", "cta", (2,), {"d": (1,), "a": (1,), "b": (1,), "c": (1,)}, False),
            ("cta_2x2", "cta", (2, 2), {"d": (2, 1), "a": (1, 2), "b": (2, 1), "c": (1, 2)},
             False),
            ("warpgroup", "warpgroup", (2,), {"d": (1,), "a": (1,), "b": (1,), "c": (1,)},
             False)]
GROUP_AXIS = {"cta": "1@warpid", "warpgroup": "1@wid_in_wg"}


def spelling(k, itype, acc):
    if acc == "f32":
        return "mma.sync.aligned.m16n8k%d.row.col.f32.%s.%s.f32" % (k, itype, itype)
    return "mma.sync.aligned.m16n8k%d.row.col.f16.f16.f16.f16" % k


def fragments(k, acc):
    """The fragment of each operand, by operand name."""
    frag = "acc_" + acc
    return {"d": frag, "a": "a_k%d" % k, "b": "b_k%d" % k, "c": frag}


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

    def __init__(self):
        self.aliases, self.kernels = {}, []

    def alias(self, name, shape, strides):
        text = "#tirx.layout<S[(%s) : (%s)]>" % (", ".join(map(str, shape)), ", ".join(strides))
        if text not in self.aliases:
            self.aliases[text] = "#" + name
        return self.aliases[text]

    def text(self):
        aliases = "".join("%s = %s\n" % (n, t) for t, n in self.aliases.items())
        return aliases + MODULE % "\n".join(self.kernels)


class Kernel:
    def __init__(self, module, name, form, variant):
        stem, k, itype, acc = form
        vname, scope, rshape, rstrides, inplace = variant
        self.module, self.name, self.scope = module, name, scope
        self.warps = 1 if scope == "warp" else WARPS
        self.grid, self.block = TOTAL_WARPS // self.warps, 32 * self.warps
        self.repeats = rshape
        self.frags = fragments(k, acc)
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
        per_cta = 32 * w * self.warps
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


def build():
    modules, references, kernels = {}, [], []
    for form in FORMS:
        stem, k, itype, acc = form
        module = modules.setdefault(stem, Module())
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
                "scope": scope, "grid": kernel.grid, "block": kernel.block,
                "repeats": list(rshape), "coords": [list(c) for c in coords],
                "bases": qs, "inplace": inplace,
                "regs": {x: FRAGMENTS[kernel.frags[x]][3] for x in "dabc"},
                "words": kernel.words, "datasets": DATASETS,
                "ptx": ptx_pattern(spelling(k, itype, acc)), "mma_count": len(coords)})
    # The mutation: the k16 bf16 warp reference, one word of D unwritten.
    form = FORMS[1]
    probe = Kernel(Module(), "mutation_skip_one", form, VARIANTS[0])
    references.append(cuda_kernel("mutation_skip_one", form, probe, False, skip=32 * 5 * 4 + 13))
    return modules, references, kernels


def main(out):
    os.makedirs(out, exist_ok=True)
    modules, references, kernels = build()
    for stem, module in sorted(modules.items()):
        with open(os.path.join(out, stem + ".mlir"), "w") as f:
            f.write("// Generated by test/gpu/matrix/gen.py\n" + module.text())
    with open(os.path.join(out, "reference.cu"), "w") as f:
        f.write("// Generated by test/gpu/matrix/gen.py\n" + "\n\n".join(references) + "\n")
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump({"warps": TOTAL_WARPS, "kernels": kernels, "mutation": {
            "name": "mutation_skip_one", "like": kernels[len(VARIANTS)]["name"],
            "skip": 32 * 5 * 4 + 13}}, f, indent=0)
    print("%d kernels" % len(kernels))
    print("%d form groups" % len({k["form"] for k in kernels}))
    print("%d modules" % len(modules))
    print("%d cases (kernel x data set)" % sum(len(k["datasets"]) for k in kernels))
    print("%d mma per implementation and poison" % sum(
        k["mma_count"] * TOTAL_WARPS * len(k["datasets"]) for k in kernels))


if __name__ == "__main__":
    main(sys.argv[1])
