"""The interpreter against the hardware on the mma.sync forms of the GPU
matrix suite (test/gpu/matrix): the suite's kernels, generated at 4 warps
(gen.py --total-warps 4: grid 4 x block 32, or 1 x 128), run on the CPU
interpreter.

With the golden (test/gpu/matrix/golden-sm90.npz, recorded by the GPU
bundle: `GOLDEN_DIR=... bash run.sh`, run.py --record; its format is in
test/gpu/matrix/mma_golden.py): every recorded launch (the warp,
warp_inplace and cta variants of each form, on the normal, wide and special
data) runs on the recorded A, B, C and its D is compared with the recorded
D. The interpreter computes D as the sm_90 tensor core does
(lib/Interpreter/TensorCoreArithmetic.h: truncated block sums), so:

- f16, bf16 and tf32 inputs (the exact forms): every D word bit-identical
  to the hardware's, NaNs, infinities and overflows included;
- fp8 inputs, whose exact model is not known (one rounding of the exact sum
  matches the normal data, not all of the wide): on normal and wide data
  |D_interpreter - D_hardware| within run.py's tolerance of its float64
  model (2^-9 of sum |a b| + |c|: run.model_mismatches with the hardware's
  D as the model); on special data the same class (NaN, +inf, -inf,
  finite) per element wherever run.py's model is a verdict (not a finite
  sum whose partial sums may pass the accumulator's range); the other
  elements' classes and the values are reported, not asserted.
Each launch prints how many of its D words are bit-identical (pytest -s);
BIT_IDENTICAL keeps them and the last test prints them per kernel (also a
junit property, bit_identical). Without the golden these tests skip,
saying so.

Without a golden: every mma kernel of the small suite runs on run.py's
normal data (make_inputs) and D is compared with run.py's float64 model
within its tolerance. The comparisons are shown to fail on a wrong D.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest

from helpers import interpret_ir, load_gpu_script, split_kernels

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MATRIX = os.path.join(ROOT, "test", "gpu", "matrix")
GOLDEN = os.path.join(MATRIX, "golden-sm90.npz")
WARPS = 4


run = load_gpu_script("matrix/run.py")
mma_golden = run.mma_golden


def generate():
    """The suite at WARPS warps in a temporary folder: ({name: mma kernel
    of cases.json}, {name: its module}, {name: move kernel (ldmatrix,
    stmatrix, cp.async)}, the shared-memory poisons)."""
    with tempfile.TemporaryDirectory(prefix="tirx-matrix-") as out:
        subprocess.run([sys.executable, os.path.join(MATRIX, "gen.py"), out,
                        "--total-warps", str(WARPS)], check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "cases.json")) as f:
            cases = json.load(f)
        assert cases["warps"] == WARPS
        kernels = {k["name"]: k for k in cases["kernels"] if k["kind"] == "mma"}
        moves = {k["name"]: k for k in cases["kernels"] if k["kind"] != "mma"}
        modules = {}
        for stem in sorted({k["file"] for k in cases["kernels"]}):
            with open(os.path.join(out, stem + ".mlir")) as f:
                modules.update(split_kernels(f.read()))
    return kernels, modules, moves, cases.get("shared_poisons", [0, 0])


KERNELS, MODULES, MOVES, SHARED_POISONS = generate()
DATA = run.Data(WARPS)
if os.path.exists(GOLDEN):
    DEVICE, LAUNCHES = mma_golden.load(GOLDEN)
else:
    DEVICE, LAUNCHES = None, []
BIT_IDENTICAL = {}   # {kernel: {dataset: (bit-identical D words, D words)}}


def interpret(module, kernel, arrays):
    return interpret_ir(module, kernel, arrays, "matrix.mlir")


def run_kernel(kernel, inputs):
    """The interpreter's flat D words of `kernel` on flat words {a, b, c}
    (D poisoned first, so an unwritten word shows)."""
    d = np.full(32 * WARPS * kernel["words"]["d"], 0xFFFFFFFF, dtype=np.uint32)
    arrays = [d] + [np.ascontiguousarray(inputs[x], dtype=np.uint32).ravel().copy()
                    for x in "abc"]
    interpret(MODULES[kernel["name"]], kernel["name"], arrays)
    return d


def matrices(kernel, inputs):
    """(A, B, C) matrix bits of flat thread words {a, b, c}."""
    kinds = run.kernel_kinds(kernel)
    return tuple(run.unpack(run.fragment_words(np.asarray(inputs[x]).ravel(),
                                               kernel["bases"][x], WARPS, kernel["regs"][x]),
                            kinds[x]) for x in "abc")


def classes(values):
    """0 NaN, 1 +inf, 2 -inf, 3 finite, per element."""
    return np.select([np.isnan(values), values == np.inf, values == -np.inf], [0, 1, 2], 3)


def where(mask, got, want, label, limit=3):
    """The first elements of mask as text: fragment, row, column, values."""
    return "; ".join("fragment %d (%d, %d): interpreter %r, %s %r" % (
        f, r, c, float(got[f, r, c]), label, float(want[f, r, c]))
        for f, r, c in np.argwhere(mask)[:limit])


def is_exact_form(kernel):
    """Whether the interpreter models the form's D bit for bit: every input
    type but fp8."""
    return not any(t in kernel["spelling"] for t in ("e4m3", "e5m2"))


def compare_with_hardware(kernel, dataset, inputs, d_interp, d_hw):
    """(failures, report, bit-identical D words): the launch's comparison
    (the module's docstring) of the interpreter's flat D words with the
    hardware's on the inputs {a, b, c} both ran."""
    cty = run.ctype(kernel)
    x, scale = run.model(*matrices(kernel, inputs), kernel["itype"], cty)
    got_bits, want_bits = (DATA.d_matrix(kernel, np.asarray(w).ravel()) for w in (d_interp, d_hw))
    got, want = run.to_float(got_bits, cty), run.to_float(want_bits, cty)
    differ = np.asarray(d_interp).ravel() != np.asarray(d_hw).ravel()
    identical = int((~differ).sum())
    failures, report = [], []
    if is_exact_form(kernel):
        if differ.any():
            failures.append("%d of %d D words differ from the hardware's: %s" % (
                differ.sum(), differ.size, "; ".join(
                    "word %d: interpreter 0x%08x, hardware 0x%08x" % (
                        i, np.asarray(d_interp).ravel()[i], np.asarray(d_hw).ravel()[i])
                    for i in np.flatnonzero(differ)[:3])))
        return failures, report, identical
    # The hardware's D as the model: run.py's tolerance around it.
    class_bad, value_bad, _ = run.model_mismatches(got_bits, want, scale, cty, kernel["itype"])
    far = class_bad | value_bad
    if dataset != "special":
        if far.any():
            failures.append("%d of %d elements beyond the tolerance: %s" % (
                far.sum(), far.size, where(far, got, want, "hardware")))
        return failures, report, identical
    _, _, skipped = run.model_mismatches(want_bits, x, scale, cty, kernel["itype"])
    other = classes(got) != classes(want)
    if (other & ~skipped).any():
        failures.append("%d of %d elements where the model is a verdict differ in class: %s" % (
            (other & ~skipped).sum(), (~skipped).sum(), where(other & ~skipped, got, want,
                                                                "hardware")))
    if (other & skipped).any():
        report.append("%d of %d elements with partial sums past the range differ in class "
                      "(%s)" % ((other & skipped).sum(), skipped.sum(),
                                where(other & skipped, got, want, "hardware", 2)))
    if (far & ~other).any():
        report.append("%d of %d elements of one class beyond the tolerance (%s)" % (
            (far & ~other).sum(), far.size, where(far & ~other, got, want, "hardware", 2)))
    return failures, report, identical


def compare_with_model(kernel, inputs, d_interp):
    """Failures (text) of the interpreter's flat D words against run.py's
    float64 model on the inputs {a, b, c}, within its tolerance."""
    cty = run.ctype(kernel)
    x, scale = run.model(*matrices(kernel, inputs), kernel["itype"], cty)
    d = DATA.d_matrix(kernel, np.asarray(d_interp).ravel())
    class_bad, value_bad, skipped = run.model_mismatches(d, x, scale, cty, kernel["itype"])
    bad = class_bad | value_bad
    if not bad.any():
        return []
    return ["%d of %d elements differ from the model: %s" % (
        bad.sum(), (~skipped).sum(), where(bad, run.to_float(d, cty), x, "model"))]


def launch_id(launch):
    return "%s/%s" % (launch["kernel"], launch["dataset"]) if launch else "no-golden"


@pytest.mark.parametrize("launch", LAUNCHES or [None], ids=launch_id)
def test_launch_matches_hardware(launch, record_property):
    if launch is None:
        pytest.skip("no hardware golden recorded yet (%s: GOLDEN_DIR=DIR bash run.sh in the "
                    "GPU bundle writes DIR/matrix.npz)" % os.path.relpath(GOLDEN, ROOT))
    name, dataset = launch["kernel"], launch["dataset"]
    kernel = KERNELS.get(name)
    assert kernel is not None, "the golden's %s is not in the suite: record it again" % name
    for key in ("form", "spelling", "variant"):
        assert launch[key] == kernel[key], (
            "the golden's %s has %s %s, the suite's %s: record it again"
            % (name, key, launch[key], kernel[key]))
    assert launch["words"] == kernel["words"], "%s: other operand sizes: record it again" % name
    inputs = {x: launch["arrays"][x].ravel() for x in "abc"}
    d_hw = launch["arrays"]["d"].ravel()
    d_interp = run_kernel(kernel, inputs)
    failures, report, identical = compare_with_hardware(kernel, dataset, inputs, d_interp, d_hw)
    BIT_IDENTICAL.setdefault(name, {})[dataset] = (identical, d_hw.size)
    record_property("bit_identical", "%d/%d" % (identical, d_hw.size))
    print("%s/%s (%s): %d of %d D words bit-identical to the %s's%s" % (
        name, dataset, kernel["spelling"], identical, d_hw.size, DEVICE,
        "".join("\n  NOTE: " + r for r in report)))
    assert not failures, "%s/%s (%s) against the %s:\n%s" % (
        name, dataset, kernel["spelling"], DEVICE, "\n".join(failures))


def test_golden_covers_the_recorded_variants():
    """Every warp, warp_inplace and cta kernel of the suite has its three
    launches in the golden (else: which lack one, for the issue)."""
    if not LAUNCHES:
        pytest.skip("no hardware golden recorded yet (%s)" % os.path.relpath(GOLDEN, ROOT))
    assert not DEVICE.startswith("dry run"), "%s holds a dry run's D (the model), not a GPU's" % (
        os.path.relpath(GOLDEN, ROOT))
    have = {(l["kernel"], l["dataset"]) for l in LAUNCHES}
    missing = ["%s/%s" % (k["name"], ds) for k in KERNELS.values() if mma_golden.recordable(k)
               for ds in k["datasets"] if (k["name"], ds) not in have]
    assert not missing, "launches without a hardware golden (TirX differed from nvcc, or " \
                        "did not run): %s" % ", ".join(missing)


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_kernel_matches_model(name):
    """Without a golden: the kernel on run.py's normal data against its
    float64 model, within its tolerance."""
    kernel = KERNELS[name]
    inputs = DATA.words(kernel, "normal")
    failures = compare_with_model(kernel, inputs, run_kernel(kernel, inputs))
    assert not failures, "%s (%s) on the normal data:\n%s" % (
        name, kernel["spelling"], "\n".join(failures))


@pytest.mark.parametrize("name", ["m16n8k16_f32_bf16_warp", "m16n8k16_f16_cta",
                                  "m16n8k32_f32_e4m3_e4m3_warp"])
def test_comparisons_see_a_wrong_d(name):
    """A high bit flipped in one word of D fails both comparisons; so does
    the lowest bit for an exact form; on the special data, a finite element
    made NaN fails the class check (fp8) or the bit check."""
    kernel = KERNELS[name]
    inputs = DATA.words(kernel, "normal")
    d = run_kernel(kernel, inputs)
    assert compare_with_model(kernel, inputs, d) == []
    assert compare_with_hardware(kernel, "normal", inputs, d, d) == ([], [], d.size)
    wrong = d.copy()
    wrong[37] ^= np.uint32(1 << 30)   # f32: the exponent's top bit; f16 pairs: the high half's
    assert len(compare_with_model(kernel, inputs, wrong)) == 1
    failures, _, identical = compare_with_hardware(kernel, "wide", inputs, d, wrong)
    assert identical == d.size - 1 and len(failures) == 1 and "1 of" in failures[0]
    last_bit = d.copy()
    last_bit[37] ^= np.uint32(1)
    failures, _, _ = compare_with_hardware(kernel, "wide", inputs, d, last_bit)
    if is_exact_form(kernel):
        assert len(failures) == 1 and failures[0].startswith("1 of %d D words differ" % d.size)
        assert "word 37: interpreter 0x%08x" % d[37] in failures[0]
    else:
        assert failures == []
    nan = d.copy()
    nan[37] = 0x7FFFFFFF              # NaN, in either accumulator type
    failures, _, _ = compare_with_hardware(kernel, "special", inputs, d, nan)
    assert len(failures) == 1 and ("differ from the hardware's" if is_exact_form(kernel)
                                   else "differ in class") in failures[0]


def test_bit_identical_summary():
    """Per kernel, the D words the interpreter and the hardware agree on bit
    for bit (the golden tests above fill BIT_IDENTICAL)."""
    if not BIT_IDENTICAL:
        pytest.skip("no hardware golden compared (%s)" % os.path.relpath(GOLDEN, ROOT))
    for name, per_dataset in sorted(BIT_IDENTICAL.items()):
        same = sum(s for s, _ in per_dataset.values())
        total = sum(t for _, t in per_dataset.values())
        print("%s: %d of %d D words bit-identical (%s)" % (name, same, total, ", ".join(
            "%s %d/%d" % (ds, s, t) for ds, (s, t) in sorted(per_dataset.items()))))


@pytest.mark.parametrize("name, dataset", [
    (name, dataset) for name in sorted(MOVES) for dataset in MOVES[name]["datasets"]])
def test_move_kernel_matches_model(name, dataset):
    """Every ldmatrix, stmatrix and cp.async kernel of the suite (its
    variants: .x1/.x2/.x4, .trans, padded and interleaved shared layouts;
    cp.async sizes, zero fill at src-size 0 / partial / full, the group
    waits) on the interpreter, against run.py's host model of the PTX ISA
    bit for bit, with shared memory poisoned by each of the suite's
    patterns (the parameter P) so that a word the model leaves unwritten
    shows."""
    kernel = MOVES[name]
    inputs = run.move_inputs(kernel, dataset)
    for poison in SHARED_POISONS:
        out = np.full(kernel["grid"] * kernel["out_words"], run.POISON, dtype=np.uint32)
        scalars = []
        if "P" in kernel["params"]:
            scalars.append(poison)
        if "N" in kernel["params"]:
            scalars.append(run.src_size(dataset))
        interpret_ir(MODULES[name], name, [out, np.ascontiguousarray(inputs)], "matrix.mlir",
                     scalars=scalars)
        want = run.move_model(kernel, inputs, poison, dataset)
        bad = np.flatnonzero(out != want)
        assert not bad.size, "%s/%s: %d of %d words differ from the model; first: word %d, " \
            "interpreter %08x, model %08x" % (name, dataset, bad.size, out.size, bad[0],
                                              out[bad[0]], want[bad[0]])
