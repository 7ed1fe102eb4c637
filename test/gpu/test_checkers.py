"""CPU tests of the GPU checks' own comparison code (test/gpu/checkers.test
runs them in `make check`; no GPU, cupy or torch needed): filecheck.py
passes and fails where LLVM's FileCheck does, run_math.py's fast-math bound
and run.py's numerics comparisons fail on injected errors, the matrix,
collectives and wgmma suites' recordings of hardware goldens keep what the
interpreter's checks need, the sanitizer summary parser of run.sh counts errors, run.sh's tally
(tally.sh) counts exit status 77 as a skip with its reason, and the scripts
that can skip wholly exit 77 when they do."""
import contextlib
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


filecheck = load("filecheck", "filecheck.py")
run_math = load("run_math", "run_math.py")
numerics = load("numerics_run", "numerics/run.py")
matrix = load("matrix_run", "matrix/run.py")
collectives = load("collectives_run", "collectives/run.py")
wgmma = load("wgmma_run", "wgmma/run.py")

#===----------------------------------------------------------------------===#
# filecheck.py
#===----------------------------------------------------------------------===#

OUTPUT = """\
.visible .entry form_1(
  add.rn.f32 %r1, %r2, %r3;
  st.global.b32 [%rd1], %r1;
  ret;
}
.visible .entry form_2(
  mul.rn.f32   %r4,\t%r5, 0f3FC00000;
  mul.rn.f32 %r6, %r7, 0f3FC00000;

  ret;
}
rank = 1 offset = 0 sizes = [1] strides = [1] data =
[0]
"""

# (directives, whether LLVM's FileCheck accepts OUTPUT with them)
CASES = [
    ("CHECK: add.rn.f32", True),
    ("CHECK: add.rn.f64", False),
    ("CHECK: st.global\nCHECK: add.rn.f32", False),  # order
    ("CHECK: add.rn.f32 %r{{[0-9]+}}, %r2", True),
    ("CHECK: add.rn.f32 %r{{[4-9]}}", False),
    ("CHECK: mul.rn.f32 %r4, %r5, 0f3FC00000", True),  # whitespace runs
    ("CHECK: data =\nCHECK-NEXT: [0]", True),
    ("CHECK: data =\nCHECK-NEXT: [1]", False),
    ("CHECK: add.rn.f32\nCHECK-NEXT: ret;", False),
    ("CHECK: add.rn.f32\nCHECK-SAME: %r3;", True),
    ("CHECK: add.rn.f32\nCHECK-SAME: st.global", False),
    ("CHECK: add.rn.f32 %r1,\nCHECK-SAME: %r1", False),  # SAME is after the match
    ("CHECK: form_1\nCHECK-NOT: mul.rn\nCHECK: ret;", True),
    ("CHECK: form_1\nCHECK-NOT: st.global\nCHECK: ret;", False),
    ("CHECK: form_2\nCHECK-NOT: add.rn", True),  # NOT to the end
    ("CHECK: form_1\nCHECK-NOT: mul.rn", False),
    ("CHECK-LABEL: form_1(\nCHECK: add.rn\nCHECK-LABEL: form_2(\nCHECK: mul.rn", True),
    # A CHECK after a label cannot match past the next label.
    ("CHECK-LABEL: form_1(\nCHECK: mul.rn\nCHECK-LABEL: form_2(", False),
    ("CHECK-LABEL: form_2(\nCHECK-NOT: add.rn\nCHECK: ret;", True),
    ("CHECK-LABEL: form_1(\nCHECK-NOT: mul.rn\nCHECK-LABEL: form_2(", True),
    ("CHECK-DAG: st.global\nCHECK-DAG: add.rn.f32\nCHECK: ret;", True),
    ("CHECK-DAG: st.global\nCHECK-DAG: mul.rn.f64", False),
    ("CHECK: add.rn.f32 [[D:%r[0-9]+]],\nCHECK: st.global.b32 [%rd1], [[D]];", True),
    ("CHECK: add.rn.f32 [[D:%r[0-9]+]], [[A:%r[0-9]+]]\nCHECK: st.global.b32 [%rd1], [[A]];",
     False),
    ("CHECK: mul.rn.f32 {{.*}}, [[C:0f[0-9A-F]+]];\nCHECK-NEXT: mul.rn.f32 {{.*}}, [[C]];", True),
    ("CHECK-COUNT-2: mul.rn.f32", True),
    ("CHECK-COUNT-3: mul.rn.f32", False),
    ("CHECK: %r7, 0f3FC00000;\nCHECK-EMPTY:", True),
    ("CHECK: %r5, 0f3FC00000;\nCHECK-EMPTY:", False),
]

# Files FileCheck itself rejects, or that would check nothing.
MALFORMED = [
    "// no directives at all",
    "CHECK-NXET: add.rn.f32",       # misspelled suffix
    "CHECK:",                       # empty pattern
    "CHECK: [[#N+1]]",              # numeric expressions: unsupported here
    "CHECK: [[UNDEFINED]]",
]


def run_filecheck(tmp_path, directives, text, prefix=None):
    test = tmp_path / "test.txt"
    test.write_text(directives + "\n")
    argv = ([("--check-prefix=" + prefix)] if prefix else []) + [str(test)]
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        return filecheck.main(argv) == 0
    finally:
        sys.stdin = old_stdin


@pytest.mark.parametrize("directives,expected", CASES)
def test_filecheck_cases(tmp_path, directives, expected):
    assert run_filecheck(tmp_path, directives, OUTPUT) == expected


@pytest.mark.parametrize("directives", MALFORMED)
def test_filecheck_rejects(tmp_path, directives):
    assert not run_filecheck(tmp_path, directives, OUTPUT)


def llvm_filecheck():
    for path in (shutil.which("FileCheck"), "/usr/lib/llvm-22/bin/FileCheck"):
        if path and os.path.exists(path):
            return path
    return None


@pytest.mark.skipif(llvm_filecheck() is None, reason="no LLVM FileCheck to compare with")
@pytest.mark.parametrize("directives,expected", CASES)
def test_filecheck_agrees_with_llvm(tmp_path, directives, expected):
    test = tmp_path / "test.txt"
    test.write_text(directives + "\n")
    result = subprocess.run([llvm_filecheck(), "--enable-var-scope", str(test)],
                            input=OUTPUT, text=True, capture_output=True)
    assert (result.returncode == 0) == expected, result.stderr


def test_filecheck_prefix(tmp_path):
    assert run_filecheck(tmp_path, "PTX: add.rn.f32", OUTPUT, prefix="PTX")
    assert not run_filecheck(tmp_path, "PTX: add.rn.f64", OUTPUT, prefix="PTX")
    # Directives of another prefix are not this prefix's.
    assert not run_filecheck(tmp_path, "PTX: add.rn.f32", OUTPUT)


def test_filecheck_gpu_tests_parse():
    """Every file filecheck.py reads in the bundle has directives it knows."""
    tests = [os.path.join(HERE, name) for name in sorted(os.listdir(HERE))
             if name.endswith(".mlir")]
    tests.append(os.path.join(HERE, "..", "Runtime", "gpu.test"))
    for path in tests:
        with open(path) as f:
            directives = filecheck.parse(f.read().splitlines(), "CHECK")
        assert directives, path

#===----------------------------------------------------------------------===#
# run_math.py: fast math's bound
#===----------------------------------------------------------------------===#


def math_reference():
    x = run_math.inputs()
    with np.errstate(all="ignore"):
        x64 = x.astype(np.float64)
        silu = (x64 / (1.0 + np.exp(-x64))).astype(np.float32)
    return silu


def fast_like(reference, seed=1):
    """A stand-in for a fast-math result: the reference plus up to 5e-6 of
    absolute error (about the worst measured) on every finite entry."""
    rng = np.random.default_rng(seed)
    noisy = reference.astype(np.float64) + rng.uniform(-5e-6, 5e-6, reference.size)
    with np.errstate(all="ignore"):
        result = noisy.astype(np.float32)
    return np.where(np.isfinite(reference), result, reference)


def old_fast_ok(result, reference):
    # What run_math.py did before: fast mode always passed.
    return True


def test_fast_math_within_bound_passes():
    reference = math_reference()
    assert run_math.fast_check(fast_like(reference), reference)[3]
    assert run_math.fast_check(reference.copy(), reference)[3]


@pytest.mark.parametrize("mutation", ["offset", "nan", "inf", "inf_sign", "garbage", "poison"])
def test_fast_math_mutations_fail(mutation):
    reference = math_reference()
    result = fast_like(reference)
    finite = np.flatnonzero(np.isfinite(reference) & (np.abs(reference) < 10))
    i = finite[len(finite) // 2]
    if mutation == "offset":     # one element 1e-4 off
        result[i] += np.float32(1e-4)
    elif mutation == "nan":      # one NaN where torch is finite
        result[i] = np.nan
    elif mutation == "inf":      # one infinity where torch is finite
        result[i] = np.inf
    elif mutation == "inf_sign":  # an infinity of the wrong sign
        j = np.flatnonzero(np.isposinf(reference))[0]
        result[j] = -np.inf
    elif mutation == "garbage":  # everything wrong
        result = np.random.default_rng(2).standard_normal(result.size).astype(np.float32)
    else:                        # one CHUNK the kernel never wrote (poison bits)
        result[256:512] = np.uint32(0xFFFFFFFF).view(np.float32)
    assert not run_math.fast_check(result, reference)[3]
    assert old_fast_ok(result, reference)  # the old check let it through

#===----------------------------------------------------------------------===#
# numerics/run.py: comparisons
#===----------------------------------------------------------------------===#


def test_numerics_compare_sees_a_flipped_bit():
    rng = np.random.default_rng(3)
    reference = rng.integers(0, 1 << 32, 1 << 12, dtype=np.uint64).astype(np.uint32)
    assert numerics.mismatches(reference.copy(), reference) == 0
    for bit in (0, 22, 31):
        mutated = numerics.flip_bit(reference, 17, bit)
        assert numerics.mismatches(mutated, reference) == 1
        assert reference[17] != mutated[17]


def fake_launch(poisoned, skip=()):
    """A kernel writing i * 3 into every element but those in skip."""
    out = poisoned.copy()
    keep = np.ones(out.size, dtype=bool)
    keep[list(skip)] = False
    out[keep] = (np.arange(out.size, dtype=np.uint64) * 3).astype(out.dtype)[keep]
    return out


@pytest.mark.parametrize("dtype", [np.uint16, np.uint32, np.uint64])
def test_numerics_poison_is_seen(dtype):
    """An element a kernel never writes keeps each launch's poison, so two
    launches with different poison differ there, even where the other
    kernel (or zero-initialized memory) happens to hold the same bits."""
    n = 1024
    for pattern in (numerics.POISON, numerics.POISON2):
        assert numerics.poison(n, dtype, pattern).dtype == dtype
        assert (numerics.poison(n, dtype, pattern) == pattern[dtype]).all()
    assert numerics.POISON[dtype] != numerics.POISON2[dtype]
    good = [fake_launch(numerics.poison(n, dtype, p)) for p in (numerics.POISON, numerics.POISON2)]
    assert numerics.unwritten(*good) == 0
    bad = [fake_launch(numerics.poison(n, dtype, p), skip=(5, 700))
           for p in (numerics.POISON, numerics.POISON2)]
    assert numerics.unwritten(*bad) == 2
    # Both implementations skip element 5: equal to each other in one launch
    # (what zero-filled outputs hid), but still seen as unwritten.
    assert numerics.mismatches(fake_launch(numerics.poison(n, dtype), skip=(5,)),
                               fake_launch(numerics.poison(n, dtype), skip=(5,))) == 0
    assert not numerics.row_ok(0, "", numerics.unwritten(*bad))


def test_numerics_exact_reference_counts():
    a = np.array([1.0, 2.0, np.nan, 3.0], dtype=np.float32).view(np.uint32)
    b = np.array([1.0, 0.5, 1.0, np.inf], dtype=np.float32).view(np.uint32)
    exact = numerics.exact_reference("add.rn.f32", [a, b])
    good = exact.view(np.uint32).copy()
    assert numerics.same(good, exact) == 0
    bad = good.copy()
    bad[1] ^= 1
    assert numerics.same(bad, exact) == 1
    # A NaN with another payload is still a NaN: equal.
    nan = good.copy()
    nan[2] = 0x7FC00123
    assert numerics.same(nan, exact) == 0


def test_numerics_row_verdicts():
    # A row fails on a TirX/nvcc mismatch, on an nvcc/numpy mismatch of an
    # exact form, or on an unwritten element.
    assert numerics.row_ok(0, "", 0)
    assert numerics.row_ok(0, "0", 0)
    assert not numerics.row_ok(1, "0", 0)
    assert not numerics.row_ok(0, "3", 0)
    assert not numerics.row_ok(0, "0", 1)


def test_numerics_immediate_text():
    ptx = """
.visible .entry imm_0(
\t// begin inline asm
\tmul.rz.f64 %fd2, %fd1, 0d3FD0000000000000;
\t// end inline asm
\tret;
}
.visible .entry imm_1(
\tadd.s32 %r2, %r1, 0x00000007;
\tret;
}
"""
    good = [{"name": "imm_0", "patterns": [r"^\s*mul\.rz\.f64\s.*[ ,]0d3FD0000000000000[,;]"]},
            {"name": "imm_1", "patterns": [r"^\s*add\.s32\s.*[ ,]0x00000007[,;]"]}]
    assert numerics.missing_literals(ptx, good) == []
    mutated = ptx.replace("0d3FD0000000000000", "0d3FE0000000000000")
    assert numerics.missing_literals(mutated, good) == ["imm_0"]
    mutated = ptx.replace("0x00000007", "0x00000008")
    assert numerics.missing_literals(mutated, good) == ["imm_1"]
    # A literal moved into a register instead is missing too.
    mutated = ptx.replace("%r1, 0x00000007", "%r1, %r3")
    assert numerics.missing_literals(mutated, good) == ["imm_1"]


def test_numerics_generated_immediate_text(tmp_path):
    """gen.py's expected text for every immediate form against the PTX that
    this machine's tirx-opt emits (when there is one), and the exact
    reference of the immediate forms numpy can compute."""
    gen = load("numerics_gen", "numerics/gen.py")
    with contextlib.redirect_stdout(io.StringIO()):
        gen.main(str(tmp_path))
    forms = json.load(open(tmp_path / "immediates.json"))
    kinds = {m["dtype"] for f in forms for m in f["immediates"].values()}
    assert kinds >= {"f32", "f64", "f16", "bf16", "i32", "ui32", "i64", "ui64", "ui16"}
    fma = next(f for f in forms if f["spelling"] == "fma.rn.f32")
    assert [m["literal"] for _, m in sorted(fma["immediates"].items())] == \
        ["0f40000000", "0f3F800000"]
    tirx_opt = os.environ.get("TIRX_OPT") or shutil.which("tirx-opt")
    if tirx_opt is None:
        pytest.skip("no tirx-opt")
    ptx = tmp_path / "immediates.ptx"
    subprocess.run([tirx_opt, str(tmp_path / "immediates.mlir"),
                    "--tirx-to-ptx=features=+ptx81 ptx-output=%s" % ptx, "-o", os.devnull],
                   check=True)
    text = ptx.read_text()
    assert numerics.missing_literals(text, forms) == []
    # The mutations of the emitted text are seen.
    mul = next(f for f in forms if f["spelling"] == "mul.rz.f64")
    assert numerics.missing_literals(
        text.replace("0d3FD0000000000000", "0d3FE0000000000000"), forms) == [mul["name"]]
    add = next(f for f in forms if f["spelling"] == "add.s32"
               and f["immediates"]["2"]["bits"] == 7)
    assert numerics.missing_literals(
        text.replace("0x00000007", "0x00000008"), forms) == [add["name"]]

#===----------------------------------------------------------------------===#
# matrix/run.py --record: the mma goldens (mma_golden.py)
#===----------------------------------------------------------------------===#


def fake_kernel(name, variant, words):
    return {"kind": "mma", "name": name, "form": "m16n8k16-f32-f16", "variant": variant,
            "spelling": "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
            "words": dict(zip("abcd", words))}


def test_matrix_golden_round_trip(tmp_path):
    """record keeps threads 0 .. 127 of each operand; save stores an array
    the in-place variant shares once; load gives back every launch."""
    golden = matrix.mma_golden
    rng = np.random.default_rng(5)
    warp = fake_kernel("k_warp", "warp", (4, 2, 4, 4))
    inplace = fake_kernel("k_warp_inplace", "warp_inplace", (4, 2, 4, 4))
    assert golden.recordable(warp) and golden.recordable(inplace)
    assert not golden.recordable(dict(warp, variant="cta_2x2"))
    assert not golden.recordable(dict(warp, kind="ldmatrix"))
    threads = 256 * 32
    inputs = {x: rng.integers(0, 1 << 32, threads * w, dtype=np.uint64).astype(np.uint32)
              for x, w in zip("abc", (4, 2, 4))}
    d = rng.integers(0, 1 << 32, threads * 4, dtype=np.uint64).astype(np.uint32)
    recorded = []
    golden.record(recorded, warp, "normal", inputs, d)
    golden.record(recorded, inplace, "normal", inputs, d)
    other = d.copy()
    other[5] ^= np.uint32(1 << 31)       # thread 1's D: another array
    golden.record(recorded, warp, "special", inputs, other)
    path = str(tmp_path / "sub" / "matrix.npz")
    assert golden.save(path, "NVIDIA H200", recorded) == 5
    device, launches = golden.load(path)
    assert device == "NVIDIA H200"
    assert [(l["kernel"], l["variant"], l["dataset"]) for l in launches] == [
        ("k_warp", "warp", "normal"), ("k_warp_inplace", "warp_inplace", "normal"),
        ("k_warp", "warp", "special")]
    for launch, want in zip(launches, (d, d, other)):
        assert launch["words"] == {"a": 4, "b": 2, "c": 4, "d": 4}
        assert launch["spelling"] == warp["spelling"] and launch["form"] == warp["form"]
        for x, w in zip("abc", (4, 2, 4)):
            assert launch["arrays"][x].dtype == np.uint32
            assert (launch["arrays"][x] == inputs[x][:128 * w].reshape(128, w)).all()
        assert (launch["arrays"]["d"].ravel() == want[:512]).all()
    with pytest.raises(ValueError):      # fewer words than 128 threads hold
        golden.record([], warp, "normal", {x: v[:100] for x, v in inputs.items()}, d)
    with pytest.raises(ValueError):      # not the launch's uint32 words
        golden.record([], warp, "normal", inputs, d.view(np.float32))


def test_matrix_record_dry_run(tmp_path):
    """run.py --dry --record: the recorded D is the dry run's (the model,
    rounded) on the recorded words; a 4-warp suite (gen.py --total-warps 4)
    records the same words as the 256-warp one; a kernel whose TirX result
    differs from nvcc's is left out, and says so."""
    golden = matrix.mma_golden
    form = "m16n8k8-f16"
    files = {}
    for warps in (256, 4):
        out = tmp_path / str(warps)
        subprocess.run([sys.executable, os.path.join(HERE, "matrix", "gen.py"), str(out),
                        "--total-warps", str(warps)], check=True, stdout=subprocess.DEVNULL)
        files[warps] = str(tmp_path / ("%d.npz" % warps))
        subprocess.run([sys.executable, os.path.join(HERE, "matrix", "run.py"), str(out), "--dry",
                        "--only=" + form, "--record=" + files[warps]], check=True,
                       stdout=subprocess.DEVNULL)
    device, launches = golden.load(files[256])
    assert device.startswith("dry run")
    assert sorted((l["variant"], l["dataset"]) for l in launches) == sorted(
        (v, ds) for v in golden.VARIANTS for ds in matrix.DATASETS)
    small = {(l["kernel"], l["dataset"]): l for l in golden.load(files[4])[1]}
    kernels = {k["name"]: k for k in json.load(open(tmp_path / "4" / "cases.json"))["kernels"]}
    for launch in launches:
        same = small[launch["kernel"], launch["dataset"]]
        for x in "abcd":
            assert (same["arrays"][x] == launch["arrays"][x]).all(), (launch["kernel"], x)
        # D is the rounded model of A B + C read from the recorded words.
        kernel = kernels[launch["kernel"]]
        kinds = matrix.kernel_kinds(kernel)
        mats = [matrix.unpack(matrix.fragment_words(launch["arrays"][x].ravel(),
                                                    kernel["bases"][x], 4, kernel["regs"][x]),
                              kinds[x]) for x in "abc"]
        x, _ = matrix.model(*mats, kernel["itype"], "f16")
        want = matrix.thread_words(matrix.pack(matrix.round_to(x, "f16"), kinds["d"]),
                                   kernel["bases"]["d"], 4)
        assert (launch["arrays"]["d"].ravel() == want).all(), launch["kernel"]
    broken = subprocess.run(
        [sys.executable, os.path.join(HERE, "matrix", "run.py"), str(tmp_path / "4"), "--dry",
         "--only=" + form, "--dry-break=m16n8k8_f16_cta", "--record=" + files[4]],
        stdout=subprocess.PIPE, universal_newlines=True)
    assert broken.returncode == 1
    assert "left out (TirX differed from nvcc, or did not run): m16n8k8_f16_cta/normal" \
        in broken.stdout
    assert {l["variant"] for l in golden.load(files[4])[1]} == {"warp", "warp_inplace"}
    bare = subprocess.run([sys.executable, os.path.join(HERE, "matrix", "run.py"),
                           str(tmp_path / "4"), "--dry", "--record", files[4]],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    assert bare.returncode != 0 and "--record=GOLDEN.npz" in bare.stderr

#===----------------------------------------------------------------------===#
# collectives/run.py --record: the collectives goldens (collectives_golden.py)
#===----------------------------------------------------------------------===#


def test_collectives_golden_round_trip(tmp_path):
    """record keeps elements 0 .. 127 of each operand; save stores a word
    row several launches share once; load gives back every launch."""
    golden = collectives.collectives_golden
    rng = np.random.default_rng(9)
    words = lambda: rng.integers(0, 1 << 32, 8192, dtype=np.uint64).astype(np.uint32)
    shfl = {"name": "k_shfl", "group": "shfl.sync.bfly.b32|p", "spelling": "shfl.sync.bfly.b32",
            "outputs": ["d", "p"], "inputs": ["a"], "scalars": ["bs", "cs"]}
    vote = {"name": "k_vote", "group": "vote.sync.all.pred", "spelling": "vote.sync.all.pred",
            "outputs": ["d"], "inputs": ["a"], "scalars": []}
    a, d, p, other = words(), words(), words() & 1, words()
    recorded = []
    golden.record(recorded, shfl, {"a": a}, [1, 0x1F], [d, p])
    golden.record(recorded, shfl, {"a": a}, [0xFFFFFFFF, 0x1C00], [d, p])
    golden.record(recorded, vote, {"a": a}, [], [other])
    path = str(tmp_path / "sub" / "c.npz")
    assert golden.save(path, "NVIDIA H100", recorded) == 4    # a, d, p, other
    device, kernels = golden.load(path)
    assert device == "NVIDIA H100" and sorted(kernels) == ["k_shfl", "k_vote"]
    k = kernels["k_shfl"]
    assert (k["group"], k["spelling"], k["outputs"], k["scalars"]) == (
        shfl["group"], shfl["spelling"], ["d", "p"], ["bs", "cs"])
    assert (k["inputs"]["a"] == a[:128]).all() and k["inputs"]["a"].dtype == np.uint32
    assert [s for s, _ in k["launches"]] == [(1, 0x1F), (0xFFFFFFFF, 0x1C00)]
    for _, outputs in k["launches"]:
        assert (outputs[0] == d[:128]).all() and (outputs[1] == p[:128]).all()
    assert kernels["k_vote"]["launches"][0][0] == ()
    assert (kernels["k_vote"]["launches"][0][1][0] == other[:128]).all()
    with pytest.raises(ValueError):      # fewer words than 4 warps hold
        golden.record([], vote, {"a": a[:100]}, [], [other])
    with pytest.raises(ValueError):      # not the launch's uint32 words
        golden.record([], vote, {"a": a.view(np.float32)}, [], [other])
    with pytest.raises(ValueError):      # an output missing
        golden.record([], shfl, {"a": a}, [1, 0x1F], [d])
    with pytest.raises(ValueError):      # a kernel's launches apart
        golden.save(path, "x", recorded + recorded[:1])


COLLECTIVE_KERNELS = ["shfl_idx_p_lane", "shfl_up_bimm_5", "vote_ballot_i32_warp",
                      "redux_add_u32_ui32_warpgroup", "bar_sync_pairs", "activemask_i32",
                      "setp_ltu_ftz_f32"]


def test_collectives_record_dry_run(tmp_path):
    """run.py --dry --record: the recorded outputs are the dry run's (the
    model) on the recorded inputs, every launch of each sweep; a 4-warp
    suite (gen.py --total-warps 4) records the same words as the 256-warp
    one; a kernel whose TirX result differs from nvcc's is left out, and
    says so."""
    golden = collectives.collectives_golden
    files = {}
    for warps in (256, 4):
        out = tmp_path / str(warps)
        subprocess.run([sys.executable, os.path.join(HERE, "collectives", "gen.py"), str(out),
                        "--total-warps", str(warps)], check=True, stdout=subprocess.DEVNULL)
        files[warps] = str(tmp_path / ("%d.npz" % warps))
        subprocess.run([sys.executable, os.path.join(HERE, "collectives", "run.py"), str(out),
                        "--dry", "--only=" + ",".join(COLLECTIVE_KERNELS),
                        "--record=" + files[warps]], check=True, stdout=subprocess.DEVNULL)
    with open(files[256], "rb") as big, open(files[4], "rb") as small:
        assert big.read() == small.read()
    device, kernels = golden.load(files[4])
    assert device.startswith("dry run") and sorted(kernels) == sorted(COLLECTIVE_KERNELS)
    cases = {c["name"]: c for c in json.load(open(tmp_path / "4" / "cases.json"))["cases"]}
    inputs = collectives.input_arrays(128)
    for name, kernel in kernels.items():
        case = cases[name]
        assert [list(s) for s, _ in kernel["launches"]] == case["sweep"]
        for x in case["inputs"]:
            assert (kernel["inputs"][x] == inputs[case["input_data"][x]]).all(), (name, x)
        for scalars, outputs in kernel["launches"]:
            want = collectives.model(case, kernel["inputs"], list(scalars))
            assert all((o == w).all() for o, w in zip(outputs, want)), (name, scalars)
    broken = subprocess.run(
        [sys.executable, os.path.join(HERE, "collectives", "run.py"), str(tmp_path / "4"),
         "--dry", "--only=" + ",".join(COLLECTIVE_KERNELS), "--dry-break=bar_sync_pairs",
         "--record=" + files[4]], stdout=subprocess.PIPE, universal_newlines=True)
    assert broken.returncode == 1
    assert "left out (TirX differed from nvcc, or did not run): bar_sync_pairs" in broken.stdout
    assert sorted(golden.load(files[4])[1]) == sorted(set(COLLECTIVE_KERNELS) - {"bar_sync_pairs"})
    bare = subprocess.run([sys.executable, os.path.join(HERE, "collectives", "run.py"),
                           str(tmp_path / "4"), "--dry", "--record", files[4]],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    assert bare.returncode != 0 and "--record=GOLDEN.npz" in bare.stderr


def test_collectives_mutation_skip_wraps():
    """The dry mutation kernel skips gen.py's element at any launch size."""
    for n in (8192, 128):
        module = collectives.DryModule([])
        out = np.full(n, collectives.POISON2, dtype=np.uint32)
        module.get_function("mutation_skip_one")(
            (n // 128,), (128,), [out, collectives.input_arrays(n)["shfl_a_i32"]])
        assert list(np.flatnonzero(out == collectives.POISON2)) == [
            collectives.MUTATION_SKIP % n]

#===----------------------------------------------------------------------===#
# wgmma/run.py --record: the wgmma goldens (the matrix suite's format)
#===----------------------------------------------------------------------===#


WGMMA_KERNELS = ["wgmma_n64_f16_smem_k_sd1", "wgmma_n64_f16_reg_k_sd1", "wgmma_n64_f16_smem_k_sd0",
                 "wgmma_n8_bf16_smem_mn_sd1", "wgmma_n128_bf16_smem128_k128_sd1"]


def test_wgmma_record_dry_run(tmp_path):
    """run.py --dry --record: each kernel's two launches, A, B, C the data
    set's words and D the float64 model rounded to f32; matrices() reads
    them back; the sd1 variants of a shape share C and D; a kernel whose dry
    check failed is left out, and says so."""
    out = tmp_path / "suite"
    subprocess.run([sys.executable, os.path.join(HERE, "wgmma", "gen.py"), str(out)], check=True,
                   stdout=subprocess.DEVNULL)
    path = str(tmp_path / "wgmma.npz")
    subprocess.run([sys.executable, os.path.join(HERE, "wgmma", "run.py"), str(out), "--dry",
                    "--only=" + ",".join(WGMMA_KERNELS), "--record=" + path],
                   stdout=subprocess.DEVNULL)    # no PTX here: FAILs, recorded all the same
    kernels = {k["name"]: k for k in json.load(open(out / "cases.json"))["kernels"]
               if k["name"] in WGMMA_KERNELS}
    device, launches = wgmma.golden_module().load(path)
    assert device.startswith("dry run")
    assert sorted((l["kernel"], l["dataset"]) for l in launches) == sorted(
        (k, ds) for k in kernels for ds, _, _ in wgmma.DATASETS)
    by = {(l["kernel"], l["dataset"]): l for l in launches}
    for (name, dataset), launch in by.items():
        kernel = kernels[name]
        assert all(launch[key] == kernel[key] for key in ("n", "dtype", "a", "b", "scale_d"))
        seed, scale = {ds: (s, x) for ds, s, x in wgmma.DATASETS}[dataset]
        data = wgmma.Data(kernel, seed, scale)
        arrays = launch["arrays"]
        assert (arrays["a"] == data.a_words).all() and (arrays["b"] == data.b_words).all()
        assert (arrays["c"] == data.c_words.view(np.uint32)).all()
        a, b, c = wgmma.matrices(kernel, arrays["a"], arrays["b"], arrays["c"])
        assert (a == data.a).all() and (b == data.b).all() and (c == data.c).all()
        d = wgmma.unpack_d(arrays["d"].view(np.float32), kernel["n"])
        assert (d == data.model()[0].astype(np.float32)).all(), name
    same = by["wgmma_n64_f16_smem_k_sd1", "normal"], by["wgmma_n64_f16_reg_k_sd1", "normal"]
    assert same[0]["arrays"]["d"] is same[1]["arrays"]["d"]
    assert same[0]["arrays"]["c"] is same[1]["arrays"]["c"]
    broken = subprocess.run(
        [sys.executable, os.path.join(HERE, "wgmma", "run.py"), str(out), "--dry",
         "--only=wgmma_n8_f16_smem_mn_sd1", "--dry-break=wgmma_n8_f16_smem_mn_sd1",
         "--record=" + path], stdout=subprocess.PIPE, universal_newlines=True)
    assert broken.returncode == 1
    assert "left out (TirX differed from nvcc, or did not run): wgmma_n8_f16_smem_mn_sd1/normal" \
        in broken.stdout
    assert wgmma.golden_module().load(path)[1] == []
    bare = subprocess.run([sys.executable, os.path.join(HERE, "wgmma", "run.py"), str(out),
                           "--dry", "--record", path],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    assert bare.returncode != 0 and "--record=GOLDEN.npz" in bare.stderr

#===----------------------------------------------------------------------===#
# run.sh: compute-sanitizer summaries
#===----------------------------------------------------------------------===#


@pytest.mark.parametrize("log,expected", [
    ("========= ERROR SUMMARY: 0 errors\n", 0),
    ("========= ERROR SUMMARY: 5 errors\n", 5),
    ("========= ERROR SUMMARY: 1 error\n", 1),
    ("x\n========= ERROR SUMMARY: 0 errors\ny\n========= ERROR SUMMARY: 2 errors\n", 2),
    # racecheck has no ERROR SUMMARY line (H200, compute-sanitizer 2025.3.1).
    ("========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n", 0),
    ("========= RACECHECK SUMMARY: 3 hazards displayed (2 errors, 1 warning)\n", 2),
    ("========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n", 1),
    ("no summary at all\n", None),
])
def test_sanitizer_summary(tmp_path, log, expected):
    path = tmp_path / "log"
    path.write_text(log)
    result = subprocess.run([sys.executable, os.path.join(HERE, "sanitizer_summary.py"),
                             str(path)], capture_output=True, text=True)
    if expected is None:
        assert result.returncode != 0
    else:
        assert result.returncode == (0 if expected == 0 else 1), result.stdout
        assert "SUMMARY" in result.stdout
        assert re.search(r"\b%d errors?\b" % expected, result.stdout), result.stdout


#===----------------------------------------------------------------------===#
# run.sh's tally (tally.sh) and the scripts that skip wholly
#===----------------------------------------------------------------------===#

SKIP_STATUS = 77


def run_tally(script):
    """Runs SCRIPT in bash with run.sh's options and tally.sh sourced, then
    tally_summary: (exit status, output lines)."""
    result = subprocess.run(
        ["bash", "-c", "set -euo pipefail\nsource %s/tally.sh\n%s\ntally_summary" % (HERE, script)],
        capture_output=True, text=True)
    return result.returncode, result.stdout.splitlines()


def test_tally_counts_each_verdict():
    status, lines = run_tally(
        "check good true\n"
        "check bad bash -c 'echo broken >&2; exit 3'\n"
        "check two-gpus bash -c 'echo ok: 0; echo \"needs 2 GPUs (found 1)\"; echo; exit %d'\n"
        "check silent bash -c 'exit %d'" % (SKIP_STATUS, SKIP_STATUS))
    assert status == 1, lines
    assert lines[-1] == "gpu checks: 1 passed, 1 failed, 2 skipped", lines
    assert "PASS: good" in lines
    assert "FAIL: bad (exit status 3)" in lines
    assert "SKIP: two-gpus: needs 2 GPUs (found 1)" in lines
    assert lines[-4:-1] == ["Skipped:", "  two-gpus: needs 2 GPUs (found 1)",
                            "  silent: exit status 77 and no output to say why"], lines


def test_tally_all_passed_or_skipped_exits_0():
    status, lines = run_tally("check good true\ncheck later bash -c 'echo why; exit %d'"
                              % SKIP_STATUS)
    assert status == 0, lines
    assert lines[-1] == "gpu checks: 1 passed, 0 failed, 1 skipped", lines
    assert lines[-3:-1] == ["Skipped:", "  later: why"], lines


def test_run_sh_uses_the_tally():
    """run.sh sources tally.sh and defines no verdicts of its own."""
    with open(os.path.join(HERE, "run.sh")) as f:
        text = f.read()
    assert re.search(r'^source "\$here/tally.sh"$', text, re.M)
    assert not re.search(r"^\s*(pass|fail|skip|check)\(\)", text, re.M)
    assert text.rstrip().endswith("tally_summary")


def stand_in_torch(tmp_path, gpus, memory_gib):
    """A torch module that reports GPUS devices of MEMORY_GIB each."""
    package = tmp_path / "torch"
    package.mkdir()
    (package / "__init__.py").write_text(
        "import types\n__version__ = 'stand-in'\n"
        "cuda = types.SimpleNamespace(\n"
        "    is_available=lambda: %r,\n"
        "    device_count=lambda: %d,\n"
        "    get_device_properties=lambda d: types.SimpleNamespace(total_memory=%d << 30))\n"
        % (gpus > 0, gpus, memory_gib))
    return dict(os.environ, PYTHONPATH=str(tmp_path), PYTHONDONTWRITEBYTECODE="1")


@pytest.mark.parametrize("gpus", [0, 1])
def test_run_multi_gpu_skips_with_skip_status(tmp_path, gpus):
    env = stand_in_torch(tmp_path, gpus, 80)
    result = subprocess.run([sys.executable, os.path.join(HERE, "run_multi_gpu.py"),
                             str(tmp_path)], capture_output=True, text=True, env=env)
    assert result.returncode == SKIP_STATUS, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[-2] == "multi-gpu checks: 0 passed, 0 failed, 5 skipped", lines
    assert lines[-1].startswith("all 5 checks skipped: needs 2 GPUs (found %d)" % gpus), lines


def test_run_huge_skips_with_skip_status(tmp_path):
    env = stand_in_torch(tmp_path, 1, 64)
    result = subprocess.run([sys.executable, os.path.join(HERE, "run_huge.py")],
                            capture_output=True, text=True, env=env)
    assert result.returncode == SKIP_STATUS, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == (
        "affine_relu_huge: skipped: needs 70 GiB of GPU memory, this GPU has 64.0 GiB")
