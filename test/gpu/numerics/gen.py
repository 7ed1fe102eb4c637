#!/usr/bin/env python3
"""Generates the numerics suite: every register instruction form TirX
supports on sm_90, as a TirX kernel and as a CUDA C++ reference kernel that
issues the same instruction through inline asm.

    gen.py OUT_DIR [--ctas K]   writes numerics.mlir, reference.cu, forms.json,
                               immediates.mlir, immediates.json

Each kernel processes 2^20 elements per operand: CTA b of 1024, thread
(warp w, lane l), repeat r handles element 1024 b + 256 r + 32 w + l.
test/gpu/numerics/run.py compares the two bit for bit on a GPU.

numerics.mlir (kernels form_N) has every register form, its immediates
turned into register inputs. immediates.mlir (kernels imm_N) keeps them
immediate: every kind (f32, f64, f16/bf16 bit patterns, signed and unsigned
16/32/64-bit integers, packed f16x2/bf16x2 constants), against an nvcc
kernel whose inline asm spells the same immediate as PTX text (in the
instruction where PTX takes a literal, else `mov`ed into a scratch register,
as TirX does). immediates.json records the text each TirX kernel's PTX must
contain.
"""
import json
import os
import re
import struct
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


def tirx_kernel(index, spelling, dtypes, immediates=None, prefix="form", ctas=CTAS):
    """dtypes: the register operands' types, destination first. immediates:
    {operand position: "VALUE : TYPE"} placed among them (none by default).
    ctas: the grid (1024 elements each)."""
    immediates = immediates or {}
    chunk = "#tirx.layout<S[(%d, 8, 32, 4, 1) : (1024, 32, 1, 256, 1)]>" % ctas
    reg = "#tirx.layout<S[(8, 32, 4) : (1@warpid, 1@laneid, 1)]>"
    def gtype(dt):
        return "!tirx.tensor<%dx8x32x4x1x%s, global, %s>" % (ctas, dt, chunk)
    def rtype(dt):
        return "!tirx.tensor<8x32x4x1x%s, local, %s>" % (dt, reg)
    def vtype(dt):
        return ("!tirx.tensor<8x32x4x1x%s, global, #tirx.layout<S[(1, 8, 32, 4, 1) : "
                "(1024, 32, 1, 256, 1)]>>" % dt)
    def btype(dt):
        return ("!tirx.tensor<1x8x32x4x1x%s, global, #tirx.layout<S[(1, 8, 32, 4, 1) : "
                "(1024, 32, 1, 256, 1)]>>" % dt)
    args = ", ".join("%%p%d: %s" % (i, gtype(dt)) for i, dt in enumerate(dtypes))
    lines = ["  tirx.kernel @%s_%d(%s) launch(grid = [%d], block = [256]) {" % (
        prefix, index, args, ctas), "    %bx = tirx.block_idx x"]
    for i, dt in enumerate(dtypes):
        lines.append("    %%c%d = tirx.region %%p%d[%%bx, 0, 0, 0, 0] [1, 8, 32, 4, 1] : %s"
                     % (i, i, gtype(dt)))
        lines.append("    %%g%d = tirx.view %%c%d : %s -> %s" % (i, i, btype(dt), vtype(dt)))
        lines.append("    %%r%d = tirx.alloc_local : %s" % (i, rtype(dt)))
        if i > 0:
            lines.append('    tile.apply "ld.global.b%d" scope(cta) (%%r%d, %%g%d) : %s, %s'
                         % (BITS[dt], i, i, rtype(dt), vtype(dt)))
    names = ["%%r%d" % i for i in range(len(dtypes))]
    for position in sorted(immediates):
        names.insert(position, immediates[position])
    lines.append('    tile.apply "%s" scope(cta) (%s) : %s' % (
        spelling, ", ".join(names), ", ".join(rtype(dt) for dt in dtypes)))
    lines.append('    tile.apply "st.global.b%d" scope(cta) (%%g0, %%r0) : %s, %s'
                 % (BITS[dtypes[0]], vtype(dtypes[0]), rtype(dtypes[0])))
    lines += ["    tirx.return", "  }"]
    return "\n".join(lines)


def cuda_kernel(index, spelling, dtypes, immediates=None, prefix="form"):
    """The inline-asm reference of tirx_kernel; immediates: {operand
    position: (PTX literal or None, bits, width)}; one without a literal is
    moved into a scratch register inside the asm, as TirX materializes it."""
    immediates = immediates or {}
    params = ", ".join("%s%s *p%d" % ("" if i == 0 else "const ", CTYPE[BITS[dt]], i)
                       for i, dt in enumerate(dtypes))
    body = ["extern \"C\" __global__ void %s_%d(%s) {" % (prefix, index, params),
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
    texts = ["%%%d" % i for i in range(len(dtypes))]
    scratch = []
    for position in sorted(immediates):
        literal, bits, width = immediates[position]
        if literal is None:
            name = "t%d" % position
            scratch.append(".reg .b%d %s; mov.b%d %s, 0x%0*X; " % (
                width, name, width, name, width // 4, bits))
            literal = name
        texts.insert(position, literal)
    instruction = "%s %s;" % (spelling, ", ".join(texts))
    if scratch:
        instruction = "{ %s%s }" % ("".join(scratch), instruction)
    inputs = ", ".join('"%s"(v%d)' % (c, i) for i, c in enumerate(operands) if i > 0)
    body.append('    asm volatile("%s" : "=%s"(v0) : %s);' % (
        instruction, operands[0], inputs))
    dt0 = dtypes[0]
    if dt0 == "f32":
        body.append("    p0[i] = __float_as_uint(v0);")
    elif dt0 == "f64":
        body.append("    p0[i] = __double_as_longlong(v0);")
    else:
        body.append("    p0[i] = v0;")
    body += ["  }", "}"]
    return "\n".join(body)


#===----------------------------------------------------------------------===#
# Immediate forms
#===----------------------------------------------------------------------===#

# (spelling, operands): "r:TYPE" a register tile, "i:VALUE:TYPE" an
# immediate written as in tile.apply (VALUE is MLIR attribute syntax: a
# decimal, or 0x... bits for a float type).
IMMEDIATE_FORMS = [
    # f32 literals (0fXXXXXXXX): ordinary, two at once, first source, -0, NaN
    # with a payload, the smallest subnormal
    ("add.rn.f32", ["r:f32", "r:f32", "i:1.5:f32"]),
    ("fma.rn.f32", ["r:f32", "r:f32", "i:2.0:f32", "i:1.0:f32"]),
    ("fma.rz.f32", ["r:f32", "r:f32", "i:0.1:f32", "i:-3.25:f32"]),
    ("div.rn.f32", ["r:f32", "i:1.0:f32", "r:f32"]),
    ("max.f32", ["r:f32", "r:f32", "i:-0.0:f32"]),
    ("min.NaN.f32", ["r:f32", "r:f32", "i:0x7FC00123:f32"]),
    ("add.rn.f32", ["r:f32", "r:f32", "i:0x00000001:f32"]),
    # f64 literals (0dXXXXXXXXXXXXXXXX)
    ("mul.rz.f64", ["r:f64", "r:f64", "i:0.25:f64"]),
    ("fma.rn.f64", ["r:f64", "r:f64", "i:0.1:f64", "i:-1.0e-300:f64"]),
    ("max.f64", ["r:f64", "r:f64", "i:-2.5:f64"]),
    # untyped .bN moves: hex bits of a float
    ("mov.b32", ["r:f32", "i:-2.5:f32"]),
    ("mov.b64", ["r:f64", "i:0.1:f64"]),
    # signed and unsigned 32/64-bit integers (0x...)
    ("add.s32", ["r:i32", "r:i32", "i:7:i32"]),
    ("add.s32", ["r:i32", "r:i32", "i:-7:i32"]),
    ("mad.lo.s32", ["r:i32", "r:i32", "i:-3:i32", "i:100000:i32"]),
    ("max.relu.s32", ["r:i32", "r:i32", "i:-1:i32"]),
    ("min.u32", ["r:ui32", "r:ui32", "i:2147483649:ui32"]),
    ("mul.hi.u32", ["r:ui32", "r:ui32", "i:3735928559:ui32"]),
    ("mul.wide.s32", ["r:i64", "r:i32", "i:-65536:i32"]),
    ("add.u64", ["r:ui64", "r:ui64", "i:1311768467463790320:ui64"]),
    ("min.s64", ["r:i64", "r:i64", "i:-5:i64"]),
    # 16-bit values (materialized in a register)
    ("add.rn.f16", ["r:f16", "r:f16", "i:1.5:f16"]),
    ("fma.rn.f16", ["r:f16", "r:f16", "i:0x3555:f16", "i:-0.0:f16"]),
    ("add.rn.bf16", ["r:bf16", "r:bf16", "i:1.5:bf16"]),
    ("min.bf16", ["r:bf16", "r:bf16", "i:0x7FC1:bf16"]),
    ("max.u16", ["r:ui16", "r:ui16", "i:32769:ui16"]),
    # packed constants (f16x2 / bf16x2 carried in a 32-bit integer)
    ("sub.rn.f16x2", ["r:ui32", "r:ui32", "i:1006648320:ui32"]),
    ("fma.rn.f16x2", ["r:ui32", "r:ui32", "i:1073756160:ui32", "r:ui32"]),
    ("mul.rn.bf16x2", ["r:ui32", "r:ui32", "i:1069563840:ui32"]),
]

FLOAT_FORMAT = {16: ("e", "H"), 32: ("f", "I"), 64: ("d", "Q")}


def immediate_bits(value, dtype):
    """The bit pattern of an immediate as tile.apply reads it."""
    bits = BITS[dtype]
    if dtype in ("f16", "bf16", "f32", "f64") and value.lower().startswith("0x"):
        return int(value, 16)
    if dtype == "bf16":
        # bf16 rounds to nearest even from float32 (values here are exact).
        word = struct.unpack("<I", struct.pack("<f", float(value)))[0]
        assert word & 0xFFFF == 0, value
        return word >> 16
    if dtype.startswith("f"):
        as_float, as_int = FLOAT_FORMAT[bits]
        return struct.unpack("<" + as_int, struct.pack("<" + as_float, float(value)))[0]
    return int(value) & ((1 << bits) - 1)


def immediate_text(spelling, value, dtype):
    """The PTX text of an immediate: (literal in the instruction or None,
    a regex for the line of TirX's PTX that must hold it). PTX takes
    literals for 32/64-bit operands:
    0f/0d bits for typed float operands, hex for integers and untyped .bN;
    16-bit values and packed f16x2/bf16x2 operands are moved into a
    register first (LLVM prints that move's value in signed decimal)."""
    bits, width = immediate_bits(value, dtype), BITS[dtype]
    packed = "f16x2" in spelling or "bf16x2" in spelling
    untyped = spelling.split(".")[-1].startswith("b")
    if width >= 32 and not packed:
        if dtype in ("f32", "f64") and not untyped:
            literal = "0%s%0*X" % ("f" if width == 32 else "d", width // 4, bits)
        else:
            literal = "0x%0*X" % (width // 4, bits)
        # The instruction itself, with the literal as a whole operand.
        return literal, r"^\s*%s\s.*[ ,]%s[,;]" % (re.escape(spelling), literal)
    signed = bits - (1 << width) if bits >> (width - 1) else bits
    return None, r"^\s*mov\.b%d\s+%%r[sd]?[0-9]+, %d;" % (width, signed)


def immediate_forms():
    for spelling, operands in IMMEDIATE_FORMS:
        dtypes, immediates = [], {}
        for position, operand in enumerate(operands):
            parts = operand.split(":")
            if parts[0] == "r":
                dtypes.append(parts[1])
                continue
            value, dtype = ":".join(parts[1:-1]), parts[-1]
            literal, text = immediate_text(spelling, value, dtype)
            immediates[position] = {"value": value, "dtype": dtype,
                                    "bits": immediate_bits(value, dtype),
                                    "literal": literal, "text": text}
        yield spelling, dtypes, immediates


def main(out, ctas=CTAS):
    os.makedirs(out, exist_ok=True)
    forms = list(register_forms())
    kernels = [tirx_kernel(i, s, d, ctas=ctas) for i, (s, d) in enumerate(forms)]
    with open(os.path.join(out, "numerics.mlir"), "w") as f:
        f.write('module attributes {tirx.chip = "sm_90", tirx.ptx = 81 : i32} {\n%s\n}\n'
                % "\n".join(kernels))
    with_immediates = list(immediate_forms())
    imm_kernels = [tirx_kernel(i, s, d, {p: "%s : %s" % (m["value"], m["dtype"])
                                         for p, m in imms.items()}, prefix="imm", ctas=ctas)
                   for i, (s, d, imms) in enumerate(with_immediates)]
    with open(os.path.join(out, "immediates.mlir"), "w") as f:
        f.write('module attributes {tirx.chip = "sm_90", tirx.ptx = 81 : i32} {\n%s\n}\n'
                % "\n".join(imm_kernels))
    references = [cuda_kernel(i, s, d) for i, (s, d) in enumerate(forms)]
    references += [cuda_kernel(i, s, d, {p: (m["literal"], m["bits"], BITS[m["dtype"]])
                                         for p, m in imms.items()}, prefix="imm")
                   for i, (s, d, imms) in enumerate(with_immediates)]
    with open(os.path.join(out, "reference.cu"), "w") as f:
        f.write("// Generated by test/gpu/numerics/gen.py\n" + "\n\n".join(references) + "\n")
    with open(os.path.join(out, "forms.json"), "w") as f:
        json.dump([{"spelling": s, "dtypes": d} for s, d in forms], f, indent=0)
    with open(os.path.join(out, "immediates.json"), "w") as f:
        json.dump([{"name": "imm_%d" % i, "spelling": s, "dtypes": d,
                    "immediates": {str(p): m for p, m in imms.items()}}
                   for i, (s, d, imms) in enumerate(with_immediates)], f, indent=0)
    print("%d forms" % len(forms))
    print("%d immediate forms" % len(with_immediates))


if __name__ == "__main__":
    # gen.py OUT_DIR [--ctas K]: K CTAs per kernel instead of 1024 (the
    # interpreter's run of suite.SAMPLES uses 2).
    args = sys.argv[1:]
    ctas = CTAS
    if "--ctas" in args:
        position = args.index("--ctas")
        ctas = int(args[position + 1])
        del args[position:position + 2]
    main(args[0], ctas)
