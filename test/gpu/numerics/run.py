#!/usr/bin/env python3
"""Runs the numerics suite on a GPU: every form's TirX kernel against its
nvcc inline-asm reference on the same 2^20 inputs per operand, compared bit
for bit; exact forms are also checked against numpy (to show the suite can
see an error). Usage: run.py DIR (from gen.py + tirx-opt + nvcc) [RESULTS.md]
"""
import json
import os
import sys

import cupy as cp
import numpy as np

N = 1 << 20
UINT = {16: np.uint16, 32: np.uint32, 64: np.uint64}
BITS = {"f32": 32, "f64": 64, "f16": 16, "bf16": 16, "ui16": 16, "i16": 16,
        "ui32": 32, "i32": 32, "ui64": 64, "i64": 64}


def specials(dtype):
    """Bit patterns worth testing for one operand type."""
    if dtype == "f32":
        floats = np.array([0.0, -0.0, np.inf, -np.inf, 1.0, -1.0, 0.5, 1.5, 2.5,
                           65504.0, 65520.0, -65520.0, 6.1035156e-05, 5.9604645e-08,
                           1 + 2.0 ** -23, 1 + 2.0 ** -24, 3.4028235e38, 1.1754944e-38],
                          dtype=np.float32).view(np.uint32)
        bits = np.array([0x7FC00000, 0xFFC00000, 0x7FC00123, 0x7F800001, 0x00000001,
                         0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000, 0x7F7FFFFF,
                         0x33000000, 0x33000001, 0x3F800001], dtype=np.uint32)
        return np.concatenate([floats, bits])
    if dtype == "f64":
        floats = np.array([0.0, -0.0, np.inf, -np.inf, 1.0, -1.0, 0.5, 2.5, 1e308,
                           2.2250738585072014e-308, 5e-324], dtype=np.float64)
        return np.concatenate([floats.view(np.uint64),
                               np.array([0x7FF8000000000000, 0x7FF8000000000123,
                                         0x000FFFFFFFFFFFFF], dtype=np.uint64)])
    if dtype in ("f16", "bf16", "ui16", "i16"):
        return np.array([0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7E01, 0x0001, 0x03FF,
                         0x0400, 0x7BFF, 0x3C00, 0xBC00, 0x7F80, 0xFF80, 0x7FC0, 0x0080,
                         0x7F7F, 0x3F80, 0x7FFF, 0xFFFF], dtype=np.uint16)
    if dtype in ("ui32", "i32"):
        halves = specials("f16")
        packed = (halves[:, None].astype(np.uint32) << 16) | halves[None, :].astype(np.uint32)
        return np.concatenate([packed.ravel(), np.array(
            [0, 1, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000], dtype=np.uint32)])
    return np.array([0, 1, 0xFFFFFFFFFFFFFFFF, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000],
                    dtype=np.uint64)


def inputs(dtype, seed):
    bits = BITS[dtype]
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 1 << 63, N, dtype=np.uint64, endpoint=False)
    values = (values ^ (values >> np.uint64(17))).astype(UINT[bits])
    s = specials(dtype).astype(UINT[bits])
    # Every special against every special of the other operand, then random.
    grid = np.tile(s, len(s))[: N // 4] if seed % 2 else np.repeat(s, len(s))[: N // 4]
    values[: grid.size] = grid
    if dtype in ("f32",):  # plenty of ordinary numbers too
        normal = rng.standard_normal(N // 4).astype(np.float32).view(np.uint32)
        values[N // 4: N // 2] = normal
    return values


def exact_reference(spelling, args):
    """numpy's IEEE round-to-nearest result for some exact forms."""
    f = [a.view(np.float32) for a in args]
    with np.errstate(all="ignore"):
        table = {
            "add.rn.f32": lambda: f[0] + f[1], "sub.rn.f32": lambda: f[0] - f[1],
            "mul.rn.f32": lambda: f[0] * f[1], "div.rn.f32": lambda: f[0] / f[1],
            "sqrt.rn.f32": lambda: np.sqrt(f[0]),
            "cvt.rn.f16.f32": lambda: f[0].astype(np.float16),
        }
        if spelling in table:
            return table[spelling]()
    return None


def same(result, reference):
    """Bit-equal, NaN matching NaN (numpy's NaN payloads differ from PTX's)."""
    r = result.view(reference.dtype)
    nan = np.isnan(r) & np.isnan(reference)
    return int((~nan & (result != reference.view(result.dtype))).sum())


def main(directory, results_path=None):
    forms = json.load(open(os.path.join(directory, "forms.json")))
    tirx_module = cp.RawModule(path=os.path.join(directory, "numerics.ptx"))
    reference_module = cp.RawModule(path=os.path.join(directory, "reference.cubin"))
    rows, failures = [], 0
    for index, form in enumerate(forms):
        spelling, dtypes = form["spelling"], form["dtypes"]
        args = [inputs(dt, index * 7 + k) for k, dt in enumerate(dtypes[1:], 1)]
        device_args = [cp.asarray(a) for a in args]
        outputs = []
        for module in (tirx_module, reference_module):
            out = cp.zeros(N, dtype=UINT[BITS[dtypes[0]]])
            module.get_function("form_%d" % index)((1024,), (256,), [out] + device_args)
            outputs.append(cp.asnumpy(out))
        mismatches = int((outputs[0] != outputs[1]).sum())
        failures += mismatches != 0
        cpu = ""
        exact = exact_reference(spelling, args)
        if exact is not None:
            cpu = "%d" % same(outputs[1], exact)
        rows.append((spelling, " ".join(dtypes), N, mismatches, cpu))
    # The comparison must be able to fail: a round-toward-zero add differs
    # from numpy's round-to-nearest add.
    index = next(i for i, f in enumerate(forms) if f["spelling"] == "add.rz.ftz.sat.f32")
    args = [inputs("f32", index * 7 + k) for k in (1, 2)]
    out = cp.zeros(N, dtype=np.uint32)
    reference_module.get_function("form_%d" % index)(
        (1024,), (256,), [out] + [cp.asarray(a) for a in args])
    with np.errstate(all="ignore"):
        sensitivity = same(cp.asnumpy(out), args[0].view(np.float32) + args[1].view(np.float32))
    lines = ["| form | operand types (d first) | inputs | TirX vs nvcc mismatches | nvcc vs numpy |",
             "|---|---|---:|---:|---:|"]
    lines += ["| `%s` | %s | %d | %d | %s |" % row for row in rows]
    lines.append("")
    lines.append("Sensitivity: `add.rz.ftz.sat.f32` (nvcc) vs numpy's round-to-nearest "
                 "add differs on %d of %d inputs, so a wrong rounding mode is seen." % (
                     sensitivity, N))
    lines.append("")
    lines.append("%d forms, %d with mismatches." % (len(rows), failures))
    text = "\n".join(lines)
    print(text)
    if results_path:
        open(results_path, "w").write(text + "\n")
    print("%d passed, %d failed" % (len(rows) - failures, failures))
    return 1 if failures or sensitivity == 0 else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
