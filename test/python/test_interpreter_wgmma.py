"""The interpreter against the hardware on the wgmma suite (test/gpu/wgmma:
wgmma.mma_async m64nNk16 with f32 accumulators, N = 8, 64, 128, 256, bf16
and f16, A from shared memory or registers, K- and MN-major B, scale-d 0
and 1, the 128-byte swizzle): each of the suite's kernels (one warpgroup,
grid 1) runs on the CPU interpreter on run.py's data sets, normal and wide.

With the golden (test/gpu/wgmma/golden-sm90.npz, recorded by the GPU
bundle: `GOLDEN_DIR=... bash run.sh`, run.py --record; the matrix suite's
format, test/gpu/matrix/mma_golden.py): every recorded launch runs on the
recorded A, B, C and its D is compared with the hardware's D bit for bit:
the interpreter computes D as the sm_90 tensor core does
(lib/Interpreter/TensorCoreArithmetic.h: truncated block sums). Each
launch prints how many of its D words are bit-identical (pytest -s); the
last test prints them per kernel (also a junit property, bit_identical).

Without a golden: every kernel on both data sets against run.py's float64
model within the same tolerance. The comparisons are shown to fail on one
flipped bit of D.

Every kernel runs with all of the interpreter's checks: its race check
found that the N = 8 kernels' copy of B (64 words, 128 threads) had threads
t and t + 64 store one word, unordered; gen.py now stores it from the
first 64 only.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest

from helpers import interpret_ir, load_gpu_script, split_kernels

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WGMMA = os.path.join(ROOT, "test", "gpu", "wgmma")
GOLDEN = os.path.join(WGMMA, "golden-sm90.npz")
POISON = 0x7FBADBAD


run = load_gpu_script("wgmma/run.py")
mma_golden = run.golden_module()


def generate():
    """The suite in a temporary folder: ({name: kernel of cases.json},
    {name: its module})."""
    import json
    with tempfile.TemporaryDirectory(prefix="tirx-wgmma-") as out:
        subprocess.run([sys.executable, os.path.join(WGMMA, "gen.py"), out], check=True,
                       stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "cases.json")) as f:
            kernels = {k["name"]: k for k in json.load(f)["kernels"]}
        with open(os.path.join(out, "wgmma.mlir")) as f:
            modules = split_kernels(f.read())
    assert sorted(modules) == sorted(kernels)
    return kernels, modules


KERNELS, MODULES = generate()
DATASETS = {name: (seed, scale) for name, seed, scale in run.DATASETS}
if os.path.exists(GOLDEN):
    DEVICE, LAUNCHES = mma_golden.load(GOLDEN)
else:
    DEVICE, LAUNCHES = None, []
BIT_IDENTICAL = {}   # {kernel: {dataset: (bit-identical D words, D words)}}
CACHE = {}


def suite_words(kernel, dataset):
    """{a, b, c: the launch's uint32 words} of run.py's data set."""
    data = run.Data(kernel, *DATASETS[dataset])
    return {"a": np.asarray(data.a_words, dtype=np.uint32),
            "b": np.asarray(data.b_words, dtype=np.uint32),
            "c": np.ascontiguousarray(data.c_words).view(np.uint32)}


def interpret(kernel, words, options=""):
    """The interpreter's D words (poisoned first) on {a, b, c} words."""
    key = (kernel["name"], options, b"".join(words[x].tobytes() for x in "abc"))
    if key not in CACHE:
        d = np.full(128 * kernel["n"] // 2, POISON, dtype=np.uint32)
        interpret_ir(MODULES[kernel["name"]], kernel["name"],
                     [d] + [np.ascontiguousarray(words[x], dtype=np.uint32).copy()
                            for x in "abc"], "wgmma.mlir", options=options)
        CACHE[key] = d
    return CACHE[key]


def where(mask, got, want, label, limit=3):
    """The first elements of mask as text: row, column, values."""
    return "; ".join("(%d, %d): interpreter %r, %s %r" % (
        r, c, float(got[r, c]), label, float(want[r, c])) for r, c in np.argwhere(mask)[:limit])


def compare(kernel, words, d_interp, d_want, label):
    """(failures, bit-identical D words): the interpreter's D words against
    `d_want`'s (the model's or the GPU's) within run.py's tolerance of the
    float64 model of the launch's words."""
    n = kernel["n"]
    _, bound = model(kernel, words)
    with np.errstate(invalid="ignore"):   # the poison is a signaling NaN
        got, want = (run.unpack_d(np.asarray(d).view(np.float32).astype(np.float64), n)
                     for d in (d_interp, d_want))
    bad = run.model_mismatches(got, want, bound)
    identical = int((np.asarray(d_interp) == np.asarray(d_want)).sum())
    if not bad.any():
        return [], identical
    return ["%d of %d elements beyond %g of sum |a b| + |c|: %s" % (
        bad.sum(), bad.size, run.TOLERANCE, where(bad, got, want, label))], identical


def bit_failures(d_interp, d_hw):
    """The D words that differ from the hardware's, as one failure (the
    interpreter models the tensor core bit for bit)."""
    differ = np.flatnonzero(np.asarray(d_interp) != np.asarray(d_hw))
    if not differ.size:
        return []
    return ["%d of %d D words differ from the hardware's: %s" % (
        differ.size, d_hw.size, "; ".join("word %d: interpreter 0x%08x, hardware 0x%08x"
                                         % (i, d_interp[i], d_hw[i]) for i in differ[:3]))]


def model(kernel, words):
    """run.py's float64 model (D, bound) of the launch's words."""
    a, b, c = run.matrices(kernel, words["a"], words["b"], words["c"])
    d = a @ b + (c if kernel["scale_d"] else 0.0)
    return d, np.abs(a) @ np.abs(b) + (np.abs(c) if kernel["scale_d"] else 0.0)


def model_words(kernel, words):
    """The model's D rounded to f32, as the launch's D words."""
    return run.pack_d(model(kernel, words)[0].astype(np.float32), kernel["n"]).view(np.uint32)


def launch_id(launch):
    return "%s/%s" % (launch["kernel"], launch["dataset"]) if launch else "no-golden"


@pytest.mark.parametrize("launch", LAUNCHES or [None], ids=launch_id)
def test_launch_matches_hardware(launch, record_property):
    if launch is None:
        pytest.skip("no hardware golden recorded yet (%s: GOLDEN_DIR=DIR bash run.sh in the "
                    "GPU bundle writes DIR/wgmma.npz)" % os.path.relpath(GOLDEN, ROOT))
    name, dataset = launch["kernel"], launch["dataset"]
    kernel = KERNELS.get(name)
    assert kernel is not None, "the golden's %s is not in the suite: record it again" % name
    for key in ("n", "dtype", "a", "b", "scale_d"):
        assert launch[key] == kernel[key], "the golden's %s has %s %s, the suite's %s: record " \
            "it again" % (name, key, launch[key], kernel[key])
    words = {x: launch["arrays"][x].ravel() for x in "abc"}
    d_hw = launch["arrays"]["d"].ravel()
    assert d_hw.size == 128 * kernel["n"] // 2, "%s: D of %d words" % (name, d_hw.size)
    d_interp = interpret(kernel, words)
    failures, identical = compare(kernel, words, d_interp, d_hw, "hardware")
    failures += bit_failures(d_interp, d_hw)
    BIT_IDENTICAL.setdefault(name, {})[dataset] = (identical, d_hw.size)
    record_property("bit_identical", "%d/%d" % (identical, d_hw.size))
    print("%s/%s: %d of %d D words bit-identical to the %s's" % (
        name, dataset, identical, d_hw.size, DEVICE))
    assert not failures, "%s/%s against the %s:\n%s" % (name, dataset, DEVICE,
                                                        "\n".join(failures))


def test_golden_covers_the_suite():
    """Every kernel's two launches are in the golden (else: which lack one)."""
    if not LAUNCHES:
        pytest.skip("no hardware golden recorded yet (%s)" % os.path.relpath(GOLDEN, ROOT))
    assert not DEVICE.startswith("dry run"), "%s holds a dry run's D (the model), not a GPU's" % (
        os.path.relpath(GOLDEN, ROOT))
    have = {(l["kernel"], l["dataset"]) for l in LAUNCHES}
    missing = ["%s/%s" % (k, ds) for k in sorted(KERNELS) for ds in DATASETS
               if (k, ds) not in have]
    assert not missing, "launches without a hardware golden (TirX differed from nvcc, or " \
                        "did not run): %s" % ", ".join(missing)


@pytest.mark.parametrize("dataset", sorted(DATASETS))
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_kernel_matches_model(name, dataset):
    """The kernel on run.py's data set against its float64 model, within
    run.py's tolerance."""
    kernel = KERNELS[name]
    words = suite_words(kernel, dataset)
    failures, _ = compare(kernel, words, interpret(kernel, words), model_words(kernel, words),
                          "model")
    assert not failures, "%s/%s:\n%s" % (name, dataset, "\n".join(failures))


@pytest.mark.parametrize("name", ["wgmma_n64_bf16_smem_k_sd0", "wgmma_n128_f16_reg_k_sd1"])
def test_comparisons_see_a_wrong_d(name):
    """A high bit flipped in one word of D fails both comparisons, as one
    element; so does an unwritten (poisoned) word; the lowest bit flipped
    fails the bit check."""
    kernel = KERNELS[name]
    words = suite_words(kernel, "wide")
    d = interpret(kernel, words)
    assert compare(kernel, words, d, model_words(kernel, words), "model")[0] == []
    assert compare(kernel, words, d, d, "hardware") == ([], d.size)
    for unwritten in (False, True):
        wrong = d.copy()
        if unwritten:
            wrong[37] = POISON
        else:
            wrong[37] ^= np.uint32(1 << 27)       # the exponent's low bits
        failures, identical = compare(kernel, words, d, wrong, "hardware")
        assert identical == d.size - 1 and len(failures) == 1 and "1 of" in failures[0]
        assert len(compare(kernel, words, wrong, model_words(kernel, words), "model")[0]) == 1
    last_bit = d.copy()
    last_bit[37] ^= np.uint32(1)
    assert bit_failures(d, d) == []
    failures = bit_failures(d, last_bit)
    assert len(failures) == 1 and failures[0].startswith("1 of %d D words differ" % d.size)


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
