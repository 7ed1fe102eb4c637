"""The interpreter against the hardware on the collectives suite
(test/gpu/collectives: shfl.sync, vote.sync, redux.sync, bar.warp.sync,
activemask, setp/selp, named barriers): the suite's kernels, generated at 4
warps (gen.py --total-warps 4: grid 1 x block 128, or 4 x 32), run on the
CPU interpreter. Every form is exact: results are compared bit for bit.

With the golden (test/gpu/collectives/golden-sm90.npz, recorded by the GPU
bundle: `GOLDEN_DIR=... bash run.sh`, run.py --record; its format is in
test/gpu/collectives/collectives_golden.py): each recorded kernel runs on
the recorded inputs (elements 0 .. 127 of the 256-warp launch: a 4-warp
launch's whole input) and its outputs are compared with the hardware's,
launch by launch.

Without a golden: every kernel runs on run.py's inputs (the same first 128
elements) and its outputs are compared with run.py's numpy model of the PTX
ISA. The comparisons are shown to fail on one flipped bit.

A shuffle whose b and c are both kernel parameters has 943 launches (every
b of B_SWEEP with every c of C_SWEEP); its group has 5 such kernels (three
element types, scope warp and warpgroup) on the same 4-warp words. Each of
them runs the (b, c) points with (b index + c index + its position) % 16
== 0: every b with 1 or 2 values of c, every c with 2 or 3 values of b, and
the group 5 of 16 of its points, once. Every other launch runs: 3493 of the
suite's 38957, about 10 s on two cores. TIRX_COLLECTIVES_ALL=1 runs every
launch of every kernel (about 100 s).

This suite found that the interpreter's shfl.sync read all 32 bits of b,
where the PTX ISA reads b[4:0] (its pseudo-code: `bval[4:0] = b[4:0]`; b =
33 is lane 1): fixed in lib/Interpreter/CollectiveSemantics.cpp.
"""
import concurrent.futures
import hashlib
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest

from helpers import interpret_ir, load_gpu_script, split_kernels

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COLLECTIVES = os.path.join(ROOT, "test", "gpu", "collectives")
GOLDEN = os.path.join(COLLECTIVES, "golden-sm90.npz")
WARPS = 4
N = 32 * WARPS
STRIDE = 16       # a two-scalar shuffle runs one (b, c) diagonal in STRIDE
SIBLINGS = 5      # the two-scalar shuffles of a group
POISON = 0x7FBADBAD
ALL = os.environ.get("TIRX_COLLECTIVES_ALL") == "1"


run = load_gpu_script("collectives/run.py")
golden = run.collectives_golden


def generate():
    """The suite at WARPS warps in a temporary folder: ({name: case of
    cases.json}, {name: its module})."""
    with tempfile.TemporaryDirectory(prefix="tirx-collectives-") as out:
        subprocess.run([sys.executable, os.path.join(COLLECTIVES, "gen.py"), out,
                        "--total-warps", str(WARPS)], check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "cases.json")) as f:
            cases = json.load(f)
        assert cases["n"] == N
        modules = {}
        for stem in sorted({c["file"] for c in cases["cases"]}):
            with open(os.path.join(out, stem + ".mlir")) as f:
                modules.update(split_kernels(f.read()))
    return {c["name"]: c for c in cases["cases"]}, modules


CASES, MODULES = generate()
INPUTS = run.input_arrays(N)
if os.path.exists(GOLDEN):
    DEVICE, RECORDED = golden.load(GOLDEN)
else:
    DEVICE, RECORDED = None, {}
COMPARED = {}     # {kernel: launches compared with the hardware}


def siblings(case):
    """The two-scalar shuffles of the case's group, in the suite's order."""
    return [c["name"] for c in CASES.values()
            if c["group"] == case["group"] and len(c["scalars"]) == 2]


def plan(case):
    """The sweep rows run by default (the module's docstring); every row
    with TIRX_COLLECTIVES_ALL=1 or a sweep of one scalar."""
    sweep = case["sweep"]
    if ALL or len(case["scalars"]) < 2:
        return list(range(len(sweep)))
    position = siblings(case).index(case["name"])
    bs = list(dict.fromkeys(s[0] for s in sweep))
    cs = list(dict.fromkeys(s[1] for s in sweep))
    return [row for row, (b, c) in enumerate(sweep)
            if (bs.index(b) + cs.index(c) + position) % STRIDE == 0]


def case_inputs(case):
    """{parameter: words} of run.py's inputs for the case."""
    return {x: INPUTS[case["input_data"][x]] for x in case["inputs"]}


CACHE = {}


def launch_key(case, inputs, scalars):
    return (case["name"], tuple(scalars), hashlib.sha256(b"".join(
        np.ascontiguousarray(inputs[x], dtype=np.uint32).tobytes()
        for x in case["inputs"])).digest())


def run_launch(case, inputs, scalars):
    """The interpreter's outputs (a list of (N,) uint32, poisoned first) of
    one launch of the case."""
    outputs = [np.full(N, POISON, dtype=np.uint32) for _ in case["outputs"]]
    arrays = outputs + [np.ascontiguousarray(inputs[x], dtype=np.uint32).copy()
                        for x in case["inputs"]]
    interpret_ir(MODULES[case["name"]], case["name"], arrays, "collectives.mlir",
                 scalars=scalars)
    return outputs


def interpret(case, inputs, sweep):
    """run_launch's outputs of each launch of `sweep` (its scalars), each
    run once (cached). The C API makes a context per call and ctypes
    releases the GIL: the launches run in threads, one per core."""
    keys = [launch_key(case, inputs, s) for s in sweep]
    todo = {k: s for k, s in zip(keys, sweep) if k not in CACHE}
    if len(todo) > 1:
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
            results = pool.map(lambda s: run_launch(case, inputs, s), todo.values())
            CACHE.update(zip(todo, results))
    else:
        CACHE.update((k, run_launch(case, inputs, s)) for k, s in todo.items())
    return [CACHE[k] for k in keys]


def launch_text(case, scalars):
    return case["name"] + ("(%s)" % ", ".join(
        "%s=%#x" % kv for kv in zip(case["scalars"], scalars)) if scalars else "")


def compare(case, scalars, got, want, label, limit=3):
    """Failures (text) of the interpreter's outputs `got` against `want`
    (label: the model, or the GPU), bit for bit, for one launch."""
    failures = []
    for name, g, w in zip(case["outputs"], got, want):
        bad = np.flatnonzero(g != w)
        if bad.size:
            failures.append("%s: %s: %d of %d elements differ from %s: %s" % (
                launch_text(case, scalars), name, bad.size, g.size, label, "; ".join(
                    "element %d (warp %d, lane %d): interpreter %#010x, %s %#010x%s" % (
                        e, e // 32, e % 32, g[e], label, w[e],
                        " (never written)" if g[e] == POISON else "")
                    for e in bad[:limit])))
    return failures



def compare_with_model(case, rows):
    """Failures of the case's launches `rows` against run.py's model."""
    inputs = case_inputs(case)
    sweep = [case["sweep"][row] for row in rows]
    failures = []
    for scalars, got in zip(sweep, interpret(case, inputs, sweep)):
        failures += compare(case, scalars, got, run.model(case, inputs, scalars), "the model")
    return failures


def hardware_launches(case, recorded):
    """The planned launches of a recorded kernel: [(scalars, the hardware's
    outputs)]."""
    wanted = {tuple(case["sweep"][row]) for row in plan(case)}
    return [(scalars, outputs) for scalars, outputs in recorded["launches"]
            if scalars in wanted]


def compare_with_hardware(case, recorded, launches):
    """Failures of the recorded kernel's `launches` against the hardware's
    outputs, on the recorded inputs."""
    sweep = [list(s) for s, _ in launches]
    failures = []
    for (scalars, want), got in zip(launches, interpret(case, recorded["inputs"], sweep)):
        failures += compare(case, scalars, got, want, "the %s" % DEVICE)
    return failures


def check_recorded(name):
    """The golden's kernel `name` against the suite's (else: record it
    again); returns its case."""
    case, recorded = CASES.get(name), RECORDED[name]
    assert case is not None, "the golden's %s is not in the suite: record it again" % name
    for key in ("group", "spelling", "outputs", "scalars"):
        assert recorded[key] == case[key], (
            "the golden's %s has %s %s, the suite's %s: record it again"
            % (name, key, recorded[key], case[key]))
    assert sorted(recorded["inputs"]) == sorted(case["inputs"]), "%s: other inputs" % name
    sweep = {tuple(s) for s in case["sweep"]}
    strange = [s for s, _ in recorded["launches"] if s not in sweep]
    assert not strange, "%s: launches outside the suite's sweep %s: record it again" % (
        name, strange[:3])
    return case


def no_golden():
    pytest.skip("no hardware golden recorded yet (%s: GOLDEN_DIR=DIR bash run.sh in the "
                "GPU bundle writes DIR/collectives.npz)" % os.path.relpath(GOLDEN, ROOT))


@pytest.mark.parametrize("name", sorted(RECORDED) or [None])
def test_kernel_matches_hardware(name):
    """The recorded kernel's planned launches against the GPU's outputs, bit
    for bit, on the recorded inputs."""
    if name is None:
        no_golden()
    case = check_recorded(name)
    launches = hardware_launches(case, RECORDED[name])
    COMPARED[name] = (len(launches), len(RECORDED[name]["launches"]))
    failures = compare_with_hardware(case, RECORDED[name], launches)
    assert not failures, "%s (%s) against the %s:\n%s" % (
        name, case["spelling"], DEVICE, "\n".join(failures[:10]))


def test_golden_covers_the_suite():
    """Every launch of every kernel is in the golden (else: which lack one)."""
    if not RECORDED:
        no_golden()
    assert not DEVICE.startswith("dry run"), "%s holds a dry run's outputs (the model), " \
        "not a GPU's" % os.path.relpath(GOLDEN, ROOT)
    missing = []
    for name, case in sorted(CASES.items()):
        have = {s for s, _ in RECORDED.get(name, {"launches": []})["launches"]}
        lacking = [s for s in case["sweep"] if tuple(s) not in have]
        if lacking:
            missing.append("%s (%d of %d launches)" % (name, len(lacking), len(case["sweep"])))
    assert not missing, "launches without a hardware golden (TirX differed from nvcc, or did " \
                        "not run): %s" % ", ".join(missing)


@pytest.mark.parametrize("name", sorted(CASES))
def test_kernel_matches_model(name):
    """The kernel's planned launches on run.py's inputs against its numpy
    model of the PTX ISA, bit for bit."""
    case = CASES[name]
    failures = compare_with_model(case, plan(case))
    assert not failures, "%s (%s):\n%s" % (name, case["spelling"], "\n".join(failures[:10]))


def test_plan_covers_the_sweep():
    """Each two-scalar shuffle runs every b and every c of the sweep; the 5
    of a group run distinct (b, c) points."""
    groups = {}
    for case in CASES.values():
        if len(case["scalars"]) == 2:
            groups.setdefault(case["group"], []).append(case)
    assert len(groups) == 8 and all(len(g) == SIBLINGS for g in groups.values())
    for group, cases in groups.items():
        sweep = [tuple(s) for s in cases[0]["sweep"]]
        points = []
        for case in cases:
            mine = [sweep[row] for row in plan(case)]
            assert {b for b, _ in mine} == {b for b, _ in sweep}, case["name"]
            assert {c for _, c in mine} == {c for _, c in sweep}, case["name"]
            points += mine
        assert len(points) == len(set(points)) or ALL, group


@pytest.mark.parametrize("name", ["shfl_bfly_p_reg_i32", "redux_min_s32_i32", "setp_ltu_f32"])
def test_comparisons_see_a_flipped_bit(name):
    """One flipped bit in one output word fails the model and the hardware
    comparisons, as one element."""
    case = CASES[name]
    inputs = case_inputs(case)
    scalars = case["sweep"][plan(CASES[name])[0]]
    got = interpret(case, inputs, [scalars])[0]
    want = run.model(case, inputs, scalars)
    assert compare(case, scalars, got, want, "the model") == []
    wrong = [w.copy() for w in got]
    wrong[-1][77] ^= np.uint32(1 << 3)
    failures = compare(case, scalars, got, wrong, "the GPU")
    assert len(failures) == 1 and "1 of 128 elements" in failures[0] \
        and "element 77 (warp 2, lane 13)" in failures[0], failures
    # Through the golden's path: a recorded launch with the flipped word.
    failures = compare_with_hardware(case, {"inputs": inputs}, [(tuple(scalars), wrong)])
    assert len(failures) == 1, failures
    # The model's side: the interpreter's outputs with the bit flipped.
    assert len(compare(case, scalars, wrong, want, "the model")) == 1


def test_compared_summary():
    """Per kernel, the hardware's launches compared (of those recorded)."""
    if not COMPARED:
        no_golden()
    total = sum(c for c, _ in COMPARED.values())
    recorded = sum(r for _, r in COMPARED.values())
    print("%d of %d recorded launches of %d kernels compared with the %s, bit for bit" % (
        total, recorded, len(COMPARED), DEVICE))
