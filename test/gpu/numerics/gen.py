#!/usr/bin/env python3
"""Generates the numerics suite: every register instruction form TirX
supports on sm_90, as a TirX kernel and as a CUDA C++ reference kernel that
issues the same instruction through inline asm.

    gen.py OUT_DIR     writes numerics.mlir, reference.cu, forms.json

Each kernel processes 2^20 elements per operand: CTA b of 1024, thread
(warp w, lane l), repeat r handles element 1024 b + 256 r + 32 w + l.
test/gpu/numerics/run.py compares the two bit for bit on a GPU.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "utils"))
import importlib.util

spec = importlib.util.spec_from_file_location(
    "gen_forms", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              "..", "..", "..", "utils", "gen-ptx-form-tests.py"))
forms_module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(forms_module)

CTAS = 1024
BITS = {"f32": 32, "f64": 64, "f16": 16, "bf16": 16, "ui16": 16, "i16": 16,
        "ui32": 32, "i32": 32, "ui64": 64, "i64": 64}
CONSTRAINT = {"f32": "f", "f64": "d", 16: "h", 32: "r", 64: "l"}
CTYPE = {16: "unsigned short", 32: "unsigned int", 64: "unsigned long long"}


def register_forms():
    """Atom-1 register forms (no memory, no vector mov); immediates become
    register inputs so that the instruction sees every input."""
    for spelling, operands in forms_module.FORMS + forms_module.FORMS_PTX81:
        kinds = [o.split(":")[0] for o in operands]
        if any(k in ("m", "s", "a") for k in kinds):
            continue
        dtypes = []
        ok = True
        for o in operands:
            parts = o.split(":")
            if parts[0] == "r" and len(parts) > 2:
                ok = False
            dtypes.append(parts[-1] if parts[0] == "i" else parts[1])
        if ok:
            yield spelling, dtypes


def tirx_kernel(index, spelling, dtypes):
    chunk = "#tirx.layout<S[(%d, 8, 32, 4, 1) : (1024, 32, 1, 256, 1)]>" % CTAS
    reg = "#tirx.layout<S[(8, 32, 4) : (1@warpid, 1@laneid, 1)]>"
    def gtype(dt):
        return "!tirx.tensor<%dx8x32x4x1x%s, global, %s>" % (CTAS, dt, chunk)
    def rtype(dt):
        return "!tirx.tensor<8x32x4x1x%s, local, %s>" % (dt, reg)
    def vtype(dt):
        return ("!tirx.tensor<8x32x4x1x%s, global, #tirx.layout<S[(1, 8, 32, 4, 1) : "
                "(1024, 32, 1, 256, 1)]>>" % dt)
    def btype(dt):
        return ("!tirx.tensor<1x8x32x4x1x%s, global, #tirx.layout<S[(1, 8, 32, 4, 1) : "
                "(1024, 32, 1, 256, 1)]>>" % dt)
    args = ", ".join("%%p%d: %s" % (i, gtype(dt)) for i, dt in enumerate(dtypes))
    lines = ["  tirx.kernel @form_%d(%s) launch(grid = [%d], block = [256]) {" % (
        index, args, CTAS), "    %bx = tirx.block_idx x"]
    for i, dt in enumerate(dtypes):
        lines.append("    %%c%d = tirx.region %%p%d[%%bx, 0, 0, 0, 0] [1, 8, 32, 4, 1] : %s"
                     % (i, i, gtype(dt)))
        lines.append("    %%g%d = tirx.view %%c%d : %s -> %s" % (i, i, btype(dt), vtype(dt)))
        lines.append("    %%r%d = tirx.alloc_local : %s" % (i, rtype(dt)))
        if i > 0:
            lines.append('    tile.apply "ld.global.b%d" scope(cta) (%%r%d, %%g%d) : %s, %s'
                         % (BITS[dt], i, i, rtype(dt), vtype(dt)))
    lines.append('    tile.apply "%s" scope(cta) (%s) : %s' % (
        spelling, ", ".join("%%r%d" % i for i in range(len(dtypes))),
        ", ".join(rtype(dt) for dt in dtypes)))
    lines.append('    tile.apply "st.global.b%d" scope(cta) (%%g0, %%r0) : %s, %s'
                 % (BITS[dtypes[0]], vtype(dtypes[0]), rtype(dtypes[0])))
    lines += ["    tirx.return", "  }"]
    return "\n".join(lines)


def cuda_kernel(index, spelling, dtypes):
    params = ", ".join("%s%s *p%d" % ("" if i == 0 else "const ", CTYPE[BITS[dt]], i)
                       for i, dt in enumerate(dtypes))
    body = ["extern \"C\" __global__ void form_%d(%s) {" % (index, params),
            "  for (int r = 0; r < 4; ++r) {",
            "    unsigned i = blockIdx.x * 1024u + r * 256u + threadIdx.x;"]
    operands = []
    for i, dt in enumerate(dtypes):
        bits = BITS[dt]
        if dt in ("f32", "f64"):
            ctype = "float" if dt == "f32" else "double"
            cast = "__uint_as_float" if dt == "f32" else "__longlong_as_double"
            if i == 0:
                body.append("    %s v0;" % ctype)
            else:
                body.append("    %s v%d = %s(p%d[i]);" % (ctype, i, cast, i))
        else:
            if i == 0:
                body.append("    %s v0;" % CTYPE[bits])
            else:
                body.append("    %s v%d = p%d[i];" % (CTYPE[bits], i, i))
        operands.append(CONSTRAINT.get(dt, CONSTRAINT[bits]))
    placeholders = ", ".join("%%%d" % i for i in range(len(dtypes)))
    inputs = ", ".join('"%s"(v%d)' % (c, i) for i, c in enumerate(operands) if i > 0)
    body.append('    asm volatile("%s %s;" : "=%s"(v0) : %s);' % (
        spelling, placeholders, operands[0], inputs))
    dt0 = dtypes[0]
    if dt0 == "f32":
        body.append("    p0[i] = __float_as_uint(v0);")
    elif dt0 == "f64":
        body.append("    p0[i] = __double_as_longlong(v0);")
    else:
        body.append("    p0[i] = v0;")
    body += ["  }", "}"]
    return "\n".join(body)


def main(out):
    os.makedirs(out, exist_ok=True)
    forms = list(register_forms())
    kernels = [tirx_kernel(i, s, d) for i, (s, d) in enumerate(forms)]
    with open(os.path.join(out, "numerics.mlir"), "w") as f:
        f.write('module attributes {tirx.chip = "sm_90", tirx.ptx = 81 : i32} {\n%s\n}\n'
                % "\n".join(kernels))
    with open(os.path.join(out, "reference.cu"), "w") as f:
        f.write("// Generated by test/gpu/numerics/gen.py\n" +
                "\n\n".join(cuda_kernel(i, s, d) for i, (s, d) in enumerate(forms)) + "\n")
    with open(os.path.join(out, "forms.json"), "w") as f:
        json.dump([{"spelling": s, "dtypes": d} for s, d in forms], f, indent=0)
    print("%d forms" % len(forms))


if __name__ == "__main__":
    main(sys.argv[1])
