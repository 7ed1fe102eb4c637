#!/usr/bin/env python3
"""Runs the numerics suite on a GPU: every form's TirX kernel against its
nvcc inline-asm reference on the same 2^20 inputs per operand, compared bit
for bit, then the immediate forms (imm_N) the same way after checking that
TirX's PTX spells each immediate as expected. Usage: run.py DIR (from gen.py
+ tirx-opt + nvcc: numerics.ptx, immediates.ptx, reference.cubin)
[RESULTS.md] [--record GOLDEN.npz] (the hardware's outputs at suite.SAMPLES
for the interpreter's comparison in make check; suite.py)

A row fails when:
- TirX and nvcc differ on any element;
- an output element differs between two launches whose outputs were
  poisoned with different bit patterns (all ones, then a NaN-payload
  pattern) — an element a kernel never writes, TirX's or nvcc's;
- for the exactly rounded forms, nvcc differs from numpy's result.
Two sensitivity checks show the comparisons can fail: a rounding mode other
than numpy's is seen, and one flipped bit in a TirX result is seen.
"""
import argparse
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from suite import (BITS, N, SAMPLES, UINT, exact_reference, input_digest,  # noqa: E402
                   inputs, load_forms, same, save_golden, source_args)

# Output poison, one pattern per launch: all ones (a NaN for floats, -1 for
# integers), then a quiet NaN with a payload. An element both launches leave
# alone keeps two different values.
POISON = {np.uint16: 0xFFFF, np.uint32: 0xFFFFFFFF, np.uint64: 0xFFFFFFFFFFFFFFFF}
POISON2 = {np.uint16: 0x7DAD, np.uint32: 0x7FBADBAD, np.uint64: 0x7FF8BADBADBADBAD}


def poison(n, dtype, pattern=POISON):
    """A host array of n elements of the poison pattern (numpy; run.py
    copies it to the device before each launch)."""
    return np.full(n, pattern[dtype], dtype=dtype)


def mismatches(result, reference):
    """Elements whose bits differ."""
    return int((result != reference).sum())


def unwritten(first, second):
    """Elements that differ between two launches with different poison:
    never written (or not deterministic)."""
    return mismatches(first, second)


def flip_bit(values, index, bit):
    """A copy of values with one bit of one element flipped."""
    mutated = values.copy()
    mutated[index] ^= mutated.dtype.type(1) << mutated.dtype.type(bit)
    return mutated


def row_ok(mismatched, cpu, unwritten_count):
    """A row passes when TirX equals nvcc, every element was written, and
    (for exact forms, cpu non-empty) nvcc equals numpy."""
    return mismatched == 0 and unwritten_count == 0 and cpu in ("", "0")


def entries(ptx):
    """{kernel name: its PTX text}."""
    parts = re.split(r"^\.visible \.entry (\w+)\(", ptx, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def missing_literals(ptx, forms):
    """Names of the immediate forms whose kernel lacks a line matching
    each immediate's expected text (gen.py: the instruction with the
    literal, or the mov that materializes it)."""
    kernels = entries(ptx)
    missing = []
    for form in forms:
        text = kernels.get(form["name"], "")
        patterns = form.get("patterns")
        if patterns is None:
            patterns = [m["text"] for m in form.get("immediates", {}).values()]
        if not patterns or not all(re.search(p, text, re.M) for p in patterns):
            missing.append(form["name"])
    return missing


def run_form(cp, module, name, dtype, device_args, pattern):
    out = cp.asarray(poison(N, UINT[BITS[dtype]], pattern))
    module.get_function(name)((1024,), (256,), [out] + device_args)
    return cp.asnumpy(out)


def main(directory, results_path=None, record=None):
    import cupy as cp

    kernels = load_forms(directory)
    immediate_forms = [k for k in kernels if k["name"].startswith("imm_")]
    forms = [k for k in kernels if k["name"].startswith("form_")]
    tirx_ptx = os.path.join(directory, "numerics.ptx")
    immediates_ptx = os.path.join(directory, "immediates.ptx")
    reference_module = cp.RawModule(path=os.path.join(directory, "reference.cubin"))
    modules = {"form": cp.RawModule(path=tirx_ptx), "imm": cp.RawModule(path=immediates_ptx)}
    # TirX's PTX spells every immediate as expected (a literal's exact text).
    missing = missing_literals(open(immediates_ptx).read(), immediate_forms)
    rows, failures, kept, recorded = [], 0, {}, {}
    for form in kernels:
        spelling, dtypes, name = form["spelling"], form["dtypes"], form["name"]
        registers, sources, operand_types = source_args(form, form["seed"])
        device_args = [cp.asarray(a) for a in registers]
        tirx_module = modules[name.split("_")[0]]
        tirx, nvcc = (run_form(cp, m, name, dtypes[0], device_args, POISON)
                      for m in (tirx_module, reference_module))
        tirx2, nvcc2 = (run_form(cp, m, name, dtypes[0], device_args, POISON2)
                        for m in (tirx_module, reference_module))
        mismatched = mismatches(tirx, nvcc)
        unwritten_count = unwritten(tirx, tirx2) + unwritten(nvcc, nvcc2)
        cpu = ""
        exact = exact_reference(spelling, sources, operand_types)
        if exact is not None:
            cpu = "%d" % same(nvcc, exact)
        text_ok = name not in missing
        ok = row_ok(mismatched, cpu, unwritten_count) and text_ok
        failures += not ok
        if spelling == "add.rn.f32" and name.startswith("form_"):
            kept = {"tirx": tirx, "nvcc": nvcc}
        label = "`%s`" % spelling
        if form.get("immediates"):
            label += " " + ", ".join(
                "%s%s" % (m["literal"] or "0x%X" % m["bits"], "" if m["literal"] else " (mov)")
                for _, m in sorted(form["immediates"].items(), key=lambda kv: int(kv[0])))
            if not text_ok:
                label += " **PTX text differs**"
        if ok:
            recorded[name] = (spelling, dtypes, input_digest(registers), tirx[SAMPLES])
        rows.append((name, label, " ".join(dtypes), N, mismatched, unwritten_count, cpu,
                     "PASS" if ok else "FAIL"))
        print("%s: numerics %s %s" % ("PASS" if ok else "FAIL", name, label))
    # Sensitivity 1: a round-toward-zero add differs from numpy's
    # round-to-nearest add, so the numpy comparison can fail.
    index = next(i for i, f in enumerate(forms) if f["spelling"] == "add.rz.ftz.sat.f32")
    args = [inputs("f32", index * 7 + k) for k in (1, 2)]
    out = run_form(cp, reference_module, "form_%d" % index, "f32",
                   [cp.asarray(a) for a in args], POISON)
    with np.errstate(all="ignore"):
        sensitivity = same(out, args[0].view(np.float32) + args[1].view(np.float32))
    # Sensitivity 2: one flipped bit (the lowest mantissa bit) of one TirX
    # result is seen by the TirX-vs-nvcc comparison.
    flipped = mismatches(flip_bit(kept["tirx"], N // 3, 0), kept["nvcc"]) if kept else 0
    lines = ["| kernel | form (immediates) | operand types (d first) | inputs | "
             "TirX vs nvcc mismatches | unwritten | nvcc vs numpy | |",
             "|---|---|---|---:|---:|---:|---:|---|"]
    lines += ["| %s | %s | %s | %d | %d | %d | %s | %s |" % row for row in rows]
    lines.append("")
    lines.append("Sensitivity: `add.rz.ftz.sat.f32` (nvcc) vs numpy's round-to-nearest "
                 "add differs on %d of %d inputs, so a wrong rounding mode is seen." % (
                     sensitivity, N))
    lines.append("Sensitivity: one bit flipped in one element of TirX's `add.rn.f32` "
                 "result gives %d TirX-vs-nvcc mismatch (must be 1)." % flipped)
    lines.append("")
    lines.append("%d forms (%d with immediates), %d failed." % (
        len(rows), len(immediate_forms), failures))
    text = "\n".join(lines)
    print(text)
    if results_path:
        open(results_path, "w").write(text + "\n")
    sensitive = sensitivity > 0 and flipped == 1
    if record:
        device = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
        save_golden(record, device, recorded)
        print("numerics: %d forms' outputs on the %s recorded in %s (%d failing forms left out)"
              % (len(recorded), device, record, len(rows) - len(recorded)))
    print("%s: numerics sensitivity (rounding mode seen on %d inputs, flipped bit "
          "seen %d time)" % ("PASS" if sensitive else "FAIL", sensitivity, flipped))
    print("%d passed, %d failed" % (len(rows) - failures, failures))
    return 1 if failures or not sensitive else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory")
    parser.add_argument("results", nargs="?")
    parser.add_argument("--record", metavar="GOLDEN.npz",
                        help="write the GPU's outputs of the passing forms at suite.SAMPLES")
    options = parser.parse_args()
    sys.exit(main(options.directory, options.results, options.record))
