#!/usr/bin/env python3
"""Generates test/Pipeline/ptx-forms.mlir: one small kernel per PTX form.

Each kernel applies one spelling at thread scope over 2 repeats of private
(memory-only) tiles, so the final PTX must contain exactly two instances of
the spelled instruction (one when every source is an immediate: the two
repeats are then the same inline asm, which LLVM merges), with no local
memory. The test CHECKs every instance operand by operand: registers by
their class (%rs/%r/%rd), memory as [%rdN] or [%rdN+offset], and each
immediate by its exact text, computed here from the value independently of
the compiler (docs/lowering.md: 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX for typed
f32/f64 operands, 0x hex of the two's complement for 32/64-bit integers and
untyped .bN operands; 16-bit values and packed carriers are materialized in
a register, whose `mov.bN %r, <signed decimal>` is checked and whose
register must be the one the instruction reads). The PTX is assembled by
ptxas. Regenerate after adding forms:

    utils/gen-ptx-form-tests.py > test/Pipeline/ptx-forms.mlir
    utils/gen-ptx-form-tests.py --ptx81 > test/Pipeline/ptx-forms-ptx81.mlir
"""

import re
import struct
import sys

# (spelling, operands) — each operand is "kind:dtype[:width]":
#   r   register tile (2 repeats x width elements, default width 1)
#   m   global memory tile, aligned to the access
#   s   shared memory tile
#   i   immediate (dtype gives its type and value)
#   a   scalar kernel argument of that dtype
F32, F64, F16, BF16 = "f32", "f64", "f16", "bf16"
FORMS = [
    # add / sub / mul
    ("add.f32", ["r:f32", "r:f32", "r:f32"]),
    ("add.rn.f32", ["r:f32", "r:f32", "i:1.5:f32"]),
    ("add.rz.ftz.sat.f32", ["r:f32", "r:f32", "r:f32"]),
    ("sub.rn.f32", ["r:f32", "r:f32", "r:f32"]),
    ("sub.rm.ftz.f32", ["r:f32", "r:f32", "r:f32"]),
    ("mul.rn.f32", ["r:f32", "r:f32", "r:f32"]),
    ("mul.rp.f32", ["r:f32", "r:f32", "r:f32"]),
    ("add.rn.f64", ["r:f64", "r:f64", "r:f64"]),
    ("mul.rz.f64", ["r:f64", "r:f64", "i:0.25:f64"]),
    ("add.rn.f16", ["r:f16", "r:f16", "r:f16"]),
    ("add.rn.ftz.sat.f16", ["r:f16", "r:f16", "r:f16"]),
    ("add.rn.f16x2", ["r:ui32", "r:ui32", "r:ui32"]),
    ("sub.rn.f16x2", ["r:ui32", "r:ui32", "i:1006648320:ui32"]),
    ("mul.rn.ftz.f16x2", ["r:ui32", "r:ui32", "r:ui32"]),
    ("add.rn.bf16", ["r:bf16", "r:bf16", "r:bf16"]),
    ("mul.rn.bf16x2", ["r:ui32", "r:ui32", "r:ui32"]),
    ("add.s32", ["r:i32", "r:i32", "i:7:i32"]),
    ("add.u64", ["r:ui64", "r:ui64", "r:ui64"]),
    ("sub.s32", ["r:i32", "r:i32", "r:i32"]),
    ("mul.lo.s32", ["r:i32", "r:i32", "r:i32"]),
    ("mul.hi.u32", ["r:ui32", "r:ui32", "r:ui32"]),
    ("mul.wide.s32", ["r:i64", "r:i32", "r:i32"]),
    # div / rcp / sqrt / rsqrt
    ("div.rn.f32", ["r:f32", "i:1.0:f32", "r:f32"]),
    ("div.approx.f32", ["r:f32", "r:f32", "r:f32"]),
    ("div.full.ftz.f32", ["r:f32", "r:f32", "r:f32"]),
    ("div.rz.f64", ["r:f64", "r:f64", "r:f64"]),
    ("rcp.rn.f32", ["r:f32", "r:f32"]),
    ("rcp.approx.ftz.f32", ["r:f32", "r:f32"]),
    ("rcp.rn.f64", ["r:f64", "r:f64"]),
    ("rcp.approx.ftz.f64", ["r:f64", "r:f64"]),
    ("sqrt.rn.f32", ["r:f32", "r:f32"]),
    ("sqrt.approx.ftz.f32", ["r:f32", "r:f32"]),
    ("sqrt.rn.f64", ["r:f64", "r:f64"]),
    ("rsqrt.approx.f32", ["r:f32", "r:f32"]),
    ("rsqrt.approx.ftz.f32", ["r:f32", "r:f32"]),
    ("rsqrt.approx.f64", ["r:f64", "r:f64"]),
    # min / max
    ("min.f32", ["r:f32", "r:f32", "r:f32"]),
    ("max.f32", ["r:f32", "r:f32", "i:0.0:f32"]),
    ("max.NaN.f32", ["r:f32", "r:f32", "r:f32"]),
    ("min.ftz.NaN.f32", ["r:f32", "r:f32", "r:f32"]),
    ("max.xorsign.abs.f32", ["r:f32", "r:f32", "r:f32"]),
    ("max.f64", ["r:f64", "r:f64", "r:f64"]),
    ("min.f16", ["r:f16", "r:f16", "r:f16"]),
    ("max.f16x2", ["r:ui32", "r:ui32", "r:ui32"]),
    ("min.bf16", ["r:bf16", "r:bf16", "r:bf16"]),
    ("max.NaN.bf16x2", ["r:ui32", "r:ui32", "r:ui32"]),
    ("min.u32", ["r:ui32", "r:ui32", "r:ui32"]),
    ("max.s32", ["r:i32", "r:i32", "r:i32"]),
    ("max.relu.s32", ["r:i32", "r:i32", "r:i32"]),
    ("min.s16x2", ["r:ui32", "r:ui32", "r:ui32"]),
    ("max.u16", ["r:ui16", "r:ui16", "r:ui16"]),
    ("min.s64", ["r:i64", "r:i64", "r:i64"]),
    # fma / mad
    ("fma.rn.f32", ["r:f32", "r:f32", "i:2.0:f32", "i:1.0:f32"]),
    ("fma.rz.ftz.sat.f32", ["r:f32", "r:f32", "r:f32", "r:f32"]),
    ("fma.rn.f64", ["r:f64", "r:f64", "r:f64", "r:f64"]),
    ("fma.rn.f16", ["r:f16", "r:f16", "r:f16", "r:f16"]),
    ("fma.rn.f16x2", ["r:ui32", "r:ui32", "r:ui32", "r:ui32"]),
    ("fma.rn.relu.bf16x2", ["r:ui32", "r:ui32", "r:ui32", "r:ui32"]),
    ("fma.rn.bf16", ["r:bf16", "r:bf16", "r:bf16", "r:bf16"]),
    ("mad.rn.f32", ["r:f32", "r:f32", "r:f32", "r:f32"]),
    ("mad.lo.s32", ["r:i32", "r:i32", "r:i32", "r:i32"]),
    # cvt
    ("cvt.rn.f16.f32", ["r:ui16", "r:f32"]),
    ("cvt.f32.f16", ["r:f32", "r:f16"]),
    ("cvt.rn.bf16.f32", ["r:bf16", "r:f32"]),
    ("cvt.f32.bf16", ["r:f32", "r:bf16"]),
    ("cvt.rzi.s32.f32", ["r:i32", "r:f32"]),
    ("cvt.rni.u32.f64", ["r:ui32", "r:f64"]),
    ("cvt.rn.f32.s32", ["r:f32", "r:i32"]),
    ("cvt.rz.f64.u64", ["r:f64", "r:ui64"]),
    ("cvt.f64.f32", ["r:f64", "r:f32"]),
    ("cvt.rn.f32.f64", ["r:f32", "r:f64"]),
    ("cvt.rni.f32.f32", ["r:f32", "r:f32"]),
    ("cvt.u32.u16", ["r:ui32", "r:ui16"]),
    ("cvt.sat.s16.s32", ["r:i16", "r:i32"]),
    ("cvt.rn.f16x2.f32", ["r:ui32", "r:f32", "r:f32"]),
    ("cvt.rn.bf16x2.f32", ["r:ui32", "r:f32", "r:f32"]),
    ("cvt.rn.relu.f16x2.f32", ["r:ui32", "r:f32", "r:f32"]),
    # ex2 / lg2
    ("ex2.approx.f32", ["r:f32", "r:f32"]),
    ("ex2.approx.ftz.f32", ["r:f32", "r:f32"]),
    ("ex2.approx.f16", ["r:f16", "r:f16"]),
    ("ex2.approx.f16x2", ["r:ui32", "r:ui32"]),
    ("ex2.approx.ftz.bf16", ["r:bf16", "r:bf16"]),
    ("ex2.approx.ftz.bf16x2", ["r:ui32", "r:ui32"]),
    ("lg2.approx.f32", ["r:f32", "r:f32"]),
    ("lg2.approx.ftz.f32", ["r:f32", "r:f32"]),
    # abs / neg
    ("abs.f32", ["r:f32", "r:f32"]),
    ("abs.ftz.f32", ["r:f32", "r:f32"]),
    ("abs.f64", ["r:f64", "r:f64"]),
    ("abs.f16x2", ["r:ui32", "r:ui32"]),
    ("abs.bf16", ["r:bf16", "r:bf16"]),
    ("abs.s32", ["r:i32", "r:i32"]),
    ("neg.f32", ["r:f32", "r:f32"]),
    ("neg.ftz.f32", ["r:f32", "r:f32"]),
    ("neg.f64", ["r:f64", "r:f64"]),
    ("neg.f16", ["r:f16", "r:f16"]),
    ("neg.bf16x2", ["r:ui32", "r:ui32"]),
    ("neg.s64", ["r:i64", "r:i64"]),
    # mov
    ("mov.b16", ["r:ui16", "r:ui16"]),
    ("mov.b32", ["r:f32", "r:f32"]),
    ("mov.b64", ["r:f64", "r:f64"]),
    ("mov.f32", ["r:f32", "r:f32"]),
    ("mov.u32", ["r:ui32", "r:ui32"]),
    # mov pack/unpack: same spelling, chosen by the operands' atoms
    ("mov.b32", ["r:ui32", "r:ui16:2"]),
    ("mov.b32", ["r:ui16:2", "r:ui32"]),
    ("mov.b64", ["r:ui64", "r:ui32:2"]),
    ("mov.b64", ["r:ui16:4", "r:ui64"]),
    # tf32 and fp8 conversions (sm_80 / sm_89 floors)
    ("cvt.rna.tf32.f32", ["r:ui32", "r:f32"]),

    # ld / st
    ("ld.global.b32", ["r:f32", "m:f32"]),
    ("ld.global.v2.b32", ["r:f32:2", "m:f32:2"]),
    ("ld.global.v4.b32", ["r:f32:4", "m:f32:4"]),
    ("ld.global.b64", ["r:f64", "m:f64"]),
    ("ld.global.v2.b64", ["r:i64:2", "m:i64:2"]),
    ("ld.global.b16", ["r:f16", "m:f16"]),
    ("ld.global.v4.b16", ["r:ui16:4", "m:ui16:4"]),
    ("ld.global.f32", ["r:f32", "m:f32"]),
    ("ld.global.s32", ["r:i32", "m:i32"]),
    ("ld.global.nc.v4.b32", ["r:f32:4", "m:f32:4"]),
    ("ld.global.cg.b32", ["r:f32", "m:f32"]),
    ("ld.global.cs.v2.b32", ["r:f32:2", "m:f32:2"]),
    ("ld.global.L1::evict_last.b32", ["r:f32", "m:f32"]),
    ("ld.global.L2::128B.b32", ["r:f32", "m:f32"]),
    ("ld.relaxed.gpu.global.b32", ["r:f32", "m:f32"]),
    ("ld.acquire.sys.global.b32", ["r:f32", "m:f32"]),
    ("ld.volatile.global.b32", ["r:f32", "m:f32"]),
    ("ld.shared.v4.b32", ["r:f32:4", "s:f32:4"]),
    ("ld.shared::cta.b32", ["r:f32", "s:f32"]),
    ("ld.b32", ["r:f32", "m:f32"]),
    ("ld.global.L2::cache_hint.b32", ["r:f32", "m:f32", "a:ui64"]),
    ("ld.global.nc.L1::no_allocate.v2.b32", ["r:f32:2", "m:f32:2"]),
    ("st.global.b32", ["m:f32", "r:f32"]),
    ("st.global.v2.b32", ["m:f32:2", "r:f32:2"]),
    ("st.global.v4.b32", ["m:f32:4", "r:f32:4"]),
    ("st.global.v4.b16", ["m:ui16:4", "r:ui16:4"]),
    ("st.global.cs.v4.b32", ["m:f32:4", "r:f32:4"]),
    ("st.global.wt.b32", ["m:f32", "r:f32"]),
    ("st.release.gpu.global.b32", ["m:f32", "r:f32"]),
    ("st.volatile.global.b32", ["m:f32", "r:f32"]),
    ("st.shared.b32", ["s:f32", "r:f32"]),
    ("st.shared.v2.b64", ["s:f64:2", "r:f64:2"]),
    ("st.b32", ["m:f32", "r:f32"]),
    ("st.global.L2::cache_hint.b32", ["m:f32", "r:f32", "a:ui64"]),
]

# Immediates of every kind, each checked by its exact text: f32 and f64
# literals (negative, inexact), f16/bf16 bit patterns (materialized), signed
# and unsigned 16/32/64-bit integers (two's complement, zero padded, high bit
# set), packed f16x2/bf16x2/s16x2 constants, and float immediates of untyped
# .bN operands. (The forms above have immediates too: add.rn.f32, mul.rz.f64,
# sub.rn.f16x2, add.s32, div.rn.f32, max.f32, fma.rn.f32.) Kept apart from
# FORMS, which test/gpu/numerics/gen.py runs with registers for immediates.
FORMS_IMMEDIATE = [
    ("fma.rn.f32", ["r:f32", "r:f32", "i:-0.1:f32", "r:f32"]),
    ("fma.rn.f64", ["r:f64", "r:f64", "i:-1.5:f64", "i:0.1:f64"]),
    ("add.rn.f16", ["r:f16", "r:f16", "i:1.5:f16"]),
    ("fma.rn.f16", ["r:f16", "r:f16", "i:-0.5:f16", "i:65504.0:f16"]),
    ("mul.rn.bf16", ["r:bf16", "r:bf16", "i:-2.0:bf16"]),
    ("add.rn.bf16", ["r:bf16", "r:bf16", "i:0.1:bf16"]),
    ("sub.s32", ["r:i32", "r:i32", "i:-8:i32"]),
    ("mad.lo.s32", ["r:i32", "r:i32", "i:-1:i32", "i:2147483647:i32"]),
    ("min.s64", ["r:i64", "r:i64", "i:-2:i64"]),
    ("min.u32", ["r:ui32", "r:ui32", "i:4000000000:ui32"]),
    ("add.u64", ["r:ui64", "r:ui64", "i:1099511627776:ui64"]),
    ("max.u64", ["r:ui64", "r:ui64", "i:9223372036854775809:ui64"]),
    ("max.u16", ["r:ui16", "r:ui16", "i:65535:ui16"]),
    ("max.s16", ["r:i16", "r:i16", "i:-3:i16"]),
    ("mul.rn.bf16x2", ["r:ui32", "r:ui32", "i:1065369472:ui32"]),
    ("min.s16x2", ["r:ui32", "r:ui32", "i:4294901761:ui32"]),
    ("mov.b32", ["r:f32", "i:1.5:f32"]),
    ("mov.b64", ["r:f64", "i:0.25:f64"]),
    ("mov.b16", ["r:ui16", "i:1.5:f16"]),
]

# Forms whose floor is PTX ISA 8.1 (compiled with features=+ptx81).
FORMS_PTX81 = [
    ("cvt.rna.satfinite.tf32.f32", ["r:ui32", "r:f32"]),
    ("cvt.rn.satfinite.e4m3x2.f32", ["r:ui16", "r:f32", "r:f32"]),
    ("cvt.rn.satfinite.e5m2x2.f16x2", ["r:ui16", "r:ui32"]),
    ("cvt.rn.f16x2.e4m3x2", ["r:ui32", "r:ui16"]),
]

BYTES = {"f32": 4, "f64": 8, "f16": 2, "bf16": 2, "ui16": 2, "i16": 2,
         "ui32": 4, "i32": 4, "ui64": 8, "i64": 8}


BITS = {dtype: 8 * size for dtype, size in BYTES.items()}

# The PTX register of each width, as LLVM's NVPTX backend names it.
REGISTER = {16: "%rs[0-9]+", 32: "%r[0-9]+", 64: "%rd[0-9]+"}
ADDRESS = r"\[%rd[0-9]+(\+[0-9]+)?\]"


def immediate_bits(value, dtype):
    """The bit pattern of an immediate `value : dtype`, as MLIR stores it."""
    if dtype in ("f32", "f64", "f16"):
        fmt = {"f32": ">f", "f64": ">d", "f16": ">e"}[dtype]
        return int.from_bytes(struct.pack(fmt, float(value)), "big")
    if dtype == "bf16":
        # Round to nearest even from f32 (exact for the values used here).
        f32 = int.from_bytes(struct.pack(">f", float(value)), "big")
        return (f32 + 0x7FFF + ((f32 >> 16) & 1)) >> 16
    return int(value) % (1 << BITS[dtype])


def operand_type(spelling):
    """The type token of the spelling's source operands (its last token)."""
    return spelling.split(".")[-1]


def inline_literal(spelling, value, dtype):
    """The PTX literal of an immediate written inline, or None when the
    lowering materializes it in a register (16-bit values, packed types)."""
    token = operand_type(spelling)
    bits = BITS[dtype]
    if re.fullmatch(r"[a-z0-9]+x[0-9]+", token) or bits < 32:
        return None
    pattern = immediate_bits(value, dtype)
    if dtype in ("f32", "f64") and token in ("f32", "f64"):
        return ("0f%08X" if bits == 32 else "0d%016X") % pattern
    return "0x%0*X" % (bits // 4, pattern)


def materialized_decimal(value, dtype):
    """How LLVM prints a materialized immediate: the signed decimal of its
    bits (`mov.b16 %rs2, -16384;` for -2.0 : bf16)."""
    bits = BITS[dtype]
    pattern = immediate_bits(value, dtype)
    return str(pattern - (1 << bits) if pattern >> (bits - 1) else pattern)


def register_pattern(dtype, width):
    """A register operand: {{%r[0-9]+}} or a vector {{[{]%r.., %r..[}]}}."""
    register = REGISTER[BITS[dtype]]
    if width == 1:
        return "{{%s}}" % register
    return "{{[{]%s[}]}}" % ", ".join([register] * width)


def check_lines(spelling, operands):
    """The CHECK lines of one form: its materialized immediates, then the
    instruction itself, every operand exact up to register numbers."""
    dags, patterns = [], []
    for position, spec in enumerate(operands):
        parts = spec.split(":")
        kind = parts[0]
        if kind == "i":
            value, dtype = parts[1], parts[2]
            literal = inline_literal(spelling, value, dtype)
            if literal is not None:
                patterns.append(literal)
                continue
            name = "IMM%d" % position
            dags.append("// CHECK-DAG: mov.b%d [[%s:%s]], %s;" % (
                BITS[dtype], name, REGISTER[BITS[dtype]],
                materialized_decimal(value, dtype)))
            patterns.append("[[%s]]" % name)
        elif kind == "a":
            patterns.append("{{%s}}" % REGISTER[BITS[parts[1]]])
        elif kind == "r":
            width = int(parts[2]) if len(parts) > 2 else 1
            patterns.append(register_pattern(parts[1], width))
        else:
            patterns.append("{{%s}}" % ADDRESS)
    # Every source an immediate: both repeats are the same asm, merged.
    sources = operands[1:] if not spelling.startswith("st") else operands
    count = 1 if all(o.startswith("i:") for o in sources) else 2
    escaped = spelling.replace(".", "{{[.]}}")
    lines = dags
    lines.append("// CHECK-COUNT-%d: {{^[[:space:]]*}}%s %s;{{$}}"
                 % (count, escaped, ", ".join(patterns)))
    lines.append("// CHECK-NOT: {{^[[:space:]]*}}%s " % escaped)
    return lines


def kernel(index, spelling, operands):
    """One kernel: register sources are loaded from global memory and
    register destinations stored back, so nothing is dead code."""
    name = "form_%d" % index
    args, before, after, names, types = [], [], [], [], []
    for position, spec in enumerate(operands):
        parts = spec.split(":")
        kind = parts[0]
        if kind == "i":
            value, dtype = parts[1], parts[2]
            names.append("%s : %s" % (value, dtype))
            continue
        if kind == "a":
            args.append("%%s%d: %s" % (position, parts[1]))
            names.append("%%s%d" % position)
            types.append(parts[1])
            continue
        dtype = parts[1]
        width = int(parts[2]) if len(parts) > 2 else 1
        shape = "2x%dx%s" % (width, dtype)
        value = "%%t%d" % position
        if kind == "r":
            t = "!tirx.tensor<%s, local>" % shape
            before.append("  %s = tirx.alloc_local : %s" % (value, t))
            # Scalar view of the tile for the helper load/store.
            flat = "!tirx.tensor<%dx1x%s, local>" % (2 * width, dtype)
            glob = "!tirx.tensor<%dx1x%s, global>" % (2 * width, dtype)
            args.append("%%io%d: %s" % (position, glob))
            before.append("  %%f%d = tirx.view %s : %s -> %s"
                          % (position, value, t, flat))
            helper = (position, "b%d" % BITS[dtype], flat, glob)
            is_destination = position == 0 and not spelling.startswith("st")
            if is_destination:
                after.append('  tile.apply "st.global.%s" scope(thread) '
                             "(%%io%d, %%f%d) : %s, %s"
                             % (helper[1], position, position, glob, flat))
            else:
                before.append('  tile.apply "ld.global.%s" scope(thread) '
                              "(%%f%d, %%io%d) : %s, %s"
                              % (helper[1], position, position, flat, glob))
        elif kind == "m":
            t = "!tirx.tensor<%s, global, align = %d>" % (
                shape, BYTES[dtype] * width)
            args.append("%s: %s" % (value, t))
        else:
            t = "!tirx.tensor<%s, shared, align = %d>" % (
                shape, BYTES[dtype] * width)
            before.append("  %s = tirx.alloc_shared : %s" % (value, t))
        names.append(value)
        types.append(t)
    out = []
    out.append("// CHECK-LABEL: .entry %s(" % name)
    out.append("// CHECK-NOT: .local")
    # Two repeats, two instructions with exactly the spelled mnemonic.
    out.extend(check_lines(spelling, operands))
    out.append("// CHECK: ret;")
    # A form that writes shared memory runs on one thread: at scope thread
    # every thread of a warp would write the same tile, a data race the race
    # proof refuses (docs/races.md).
    threads = 1 if spelling.startswith("st.shared") else 32
    out.append("tirx.kernel @%s(%s) launch(grid = [1], block = [%d]) {"
               % (name, ", ".join(args), threads))
    out.extend(before)
    out.append('  tile.apply "%s" scope(thread) (%s)' % (spelling, ", ".join(names)))
    out.append("      : %s" % ",\n        ".join(types))
    out.extend(after)
    out.append("  tirx.return")
    out.append("}")
    return "\n".join(out)


def main():
    ptx81 = "--ptx81" in sys.argv
    forms = FORMS_PTX81 if ptx81 else FORMS + FORMS_IMMEDIATE
    options = "features=+ptx81 " if ptx81 else ""
    print("// Generated by utils/gen-ptx-form-tests.py%s; do not edit by hand."
          % (" --ptx81" if ptx81 else ""))
    print("// Every PTX form lowers to exactly the spelled instruction, once per")
    print("// repeat, with register tiles kept in registers, and ptxas accepts it.")
    print("//")
    print('// RUN: tirx-opt %%s --tirx-to-ptx="%sptx-output=%%t.ptx" -o /dev/null'
          % options)
    print("// RUN: FileCheck %s < %t.ptx")
    print("// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o /dev/null %}")
    print()
    # The module names its PTX version so that parsing already verifies the
    # floors against it.
    if ptx81:
        print("module attributes {tirx.ptx = 81 : i32} {")
    for index, (spelling, operands) in enumerate(forms):
        print(kernel(index, spelling, operands))
        print()
    if ptx81:
        print("}")


if __name__ == "__main__":
    main()
