#!/usr/bin/env python3
"""Runs the synchronization suite (gen.py) on a GPU: every case's TirX
kernel (CASE.ptx, compiled by the bundle) and its nvcc inline-asm
reference (reference.cubin), one CTA each, O poisoned with 0xDEADBEEF
before each launch, I random u32 words (three seeds). A case passes when

- its PTX holds each synchronization instruction as many times as
  expected (cases.json's "ptx": the try_wait loops, the single tries,
  arrivals, fences, setmaxnreg, elect.sync);
- TirX's O equals nvcc's, bit for bit;
- O is what the synchronization promises: mbarrier_phases reads, after each
  phase's wait, the word another warp stored before arriving (I[p][4 (t %
  32) + t / 32]) and its single tries say 1, 0, 1, 0 (this phase done, the
  next one waiting for this thread); elect elects one lane per warp, d
  names it in all 32 lanes, and _|p elects the same lane; warpgroups
  computes 3 I + 1 after setmaxnreg moved 64 registers a thread from one
  warpgroup to the other.

    run.py [DIR [RESULTS.md]] [--dry] [--dry-break=CASE] [--only=CASE] [--exit-zero]
           [--compile-only]

DIR holds what the GPU bundle built (CASE.ptx, reference.cubin,
cases.json). Without DIR, run.py builds it first in a temporary folder from
a checkout: gen.py, the build's tirx-opt ($TIRX_OPT, else build/bin/tirx-opt)
at chip=sm_90a features=+ptx83 max-registers=128, and nvcc -arch=sm_90a
($NVCC, else nvcc on PATH or /usr/local/cuda/bin/nvcc); --compile-only stops
there (no GPU needed).

--dry: no GPU; the expected words stand in for both kernels (checks the
harness and the PTX counts); --dry-break=CASE flips one word of CASE's TirX
result (the case must then FAIL). Prints PASS:/FAIL: per case and
"sync suite: N passed, N failed"; exit status 1 on a failure unless
--exit-zero (the sanitizer runs)."""
import json
import os
import re
import sys

import numpy as np

POISON = 0xDEADBEEF
SEEDS = (1, 2, 3)


def expected(case, inputs, phases):
    name = case["name"]
    if name == "mbarrier_phases":
        i = inputs.reshape(phases, 128)
        t = np.arange(128)
        o = np.zeros((phases, 128, 5), dtype=np.uint32)
        for p in range(phases):
            o[p, :, 0] = i[p, 4 * (t % 32) + t // 32]
            o[p, :, 1:] = [1, 0, 1, 0]
        return o.reshape(-1)
    if name == "elect":
        # The hardware's choice, modelled as lane 0 (the dry run's); the real
        # check is elect_ok.
        o = np.zeros((128, 3), dtype=np.uint32)
        o[:, 1] = o[:, 2] = (np.arange(128) % 32 == 0)
        return o.reshape(-1)
    if name == "warpgroups":
        return (inputs.astype(np.uint64) * 3 + 1).astype(np.uint32)
    raise SystemExit("run.py: unknown case %s" % name)


def elect_ok(words):
    """Per warp: d the same in all lanes and a lane id, p and p' set in
    lane d only."""
    o = words.reshape(4, 32, 3)
    for w in range(4):
        d = o[w, :, 0]
        if not (d == d[0]).all() or d[0] >= 32:
            return "warp %d: d is %s" % (w, sorted(set(d.tolist()))[:4])
        for k, what in ((1, "p"), (2, "_|p")):
            lanes = np.nonzero(o[w, :, k])[0].tolist()
            if lanes != [int(d[0])] or not set(o[w, :, k].tolist()) <= {0, 1}:
                return "warp %d: %s elects lanes %s, d says %d" % (w, what, lanes, d[0])
    return ""


def entries(ptx):
    parts = re.split(r"^\.visible \.entry (\w+)\(", ptx, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


TIRX_OPTIONS = "chip=sm_90a features=+ptx83 max-registers=128"


def build(directory):
    """gen.py, tirx-opt and nvcc into `directory`, as the bundle does."""
    import shutil
    import subprocess
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(os.path.dirname(here)))
    tirx_opt = os.environ.get("TIRX_OPT", os.path.join(root, "build", "bin", "tirx-opt"))
    nvcc = os.environ.get("NVCC") or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    subprocess.run([sys.executable, os.path.join(here, "gen.py"), directory], check=True,
                   stdout=subprocess.DEVNULL)
    for name in sorted(os.listdir(directory)):
        if name.endswith(".mlir"):
            case = os.path.join(directory, name[:-5])
            subprocess.run([tirx_opt, case + ".mlir", "--tirx-to-ptx=%s ptx-output=%s.ptx"
                            % (TIRX_OPTIONS, case), "-o", os.devnull], check=True)
            print("compiled %s.ptx (tirx-opt %s)" % (os.path.basename(case), TIRX_OPTIONS))
    subprocess.run([nvcc, "-arch=sm_90a", "-cubin", "-o", os.path.join(directory, "reference.cubin"),
                    os.path.join(directory, "reference.cu")], check=True)
    print("compiled reference.cubin (nvcc -arch=sm_90a)")


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    flags = dict((a[2:].split("=", 1) + [""])[:2] for a in argv[1:] if a.startswith("--"))
    if args:
        return run(args[0], args[1] if len(args) > 1 else None, flags)
    import tempfile
    with tempfile.TemporaryDirectory(prefix="tirx-sync-") as directory:
        build(directory)
        return 0 if "compile-only" in flags else run(directory, None, flags)


def run(directory, results_path, flags):
    dry = "dry" in flags
    spec = json.load(open(os.path.join(directory, "cases.json")))
    cases = spec["cases"]
    if flags.get("only"):
        cases = [c for c in cases if c["name"] == flags["only"]]
        if not cases:
            raise SystemExit("run.py: no case named %s" % flags["only"])
    if not dry:
        import cupy
        reference = cupy.RawModule(path=os.path.join(directory, "reference.cubin"))
    passed = failed = 0
    rows = []
    for case in cases:
        name = case["name"]
        path = os.path.join(directory, name.replace("_", "-") + ".ptx")
        problems = []
        if not os.path.exists(path):
            err = path[:-4] + ".err"
            problems.append("no PTX: " + (open(err).read().strip().splitlines() or [""])[0][:300]
                            if os.path.exists(err) else "no PTX")
        else:
            text = entries(open(path).read()).get(name, "")
            for pattern, count in case["ptx"]:
                found = len(re.findall(pattern, text))
                if found != count:
                    problems.append("PTX has %d x %s, expected %d" % (found, pattern, count))
            if not dry:
                module = cupy.RawModule(path=path)
        for seed in SEEDS if not problems else ():
            rng = np.random.default_rng(seed)
            inputs = rng.integers(0, 1 << 32, case["in_words"], dtype=np.uint64).astype(np.uint32)
            want = expected(case, inputs, spec["phases"])
            outs = []
            for label in ("tirx", "nvcc"):
                if dry:
                    out = want.copy()
                    if label == "tirx" and flags.get("dry-break") == name:
                        out[len(out) // 2] ^= 1
                else:
                    out = cupy.full(case["out_words"], POISON, dtype=np.uint32)
                    fn = (module if label == "tirx" else reference).get_function(name)
                    fn((1,), (case["threads"],), [out, cupy.asarray(inputs)])
                    cupy.cuda.runtime.deviceSynchronize()
                    out = cupy.asnumpy(out)
                outs.append(out)
            tirx, nvcc = outs
            if not np.array_equal(tirx, nvcc):
                bad = np.nonzero(tirx != nvcc)[0]
                problems.append("seed %d: TirX differs from nvcc at %d words (first word %d: "
                                "0x%08x vs 0x%08x)" % (seed, len(bad), bad[0], tirx[bad[0]],
                                                       nvcc[bad[0]]))
            for label, out in (("TirX", tirx), ("nvcc", nvcc)):
                if name == "elect":
                    why = elect_ok(out)
                    if why:
                        problems.append("seed %d: %s: %s" % (seed, label, why))
                elif not np.array_equal(out, want):
                    bad = np.nonzero(out != want)[0]
                    problems.append("seed %d: %s differs from the expected words at %d words "
                                    "(first word %d: 0x%08x, expected 0x%08x)"
                                    % (seed, label, len(bad), bad[0], out[bad[0]], want[bad[0]]))
            if problems:
                break
        if problems:
            failed += 1
            print("FAIL: %s: %s" % (name, "; ".join(problems[:3])))
        else:
            passed += 1
            print("PASS: %s (%d seeds%s)" % (name, len(SEEDS), ", dry" if dry else ""))
        rows.append((name, "PASS" if not problems else "FAIL", "; ".join(problems[:3])))
    print("sync suite: %d passed, %d failed" % (passed, failed))
    if results_path:
        with open(results_path, "w") as f:
            f.write("# Synchronization suite\n\n| case | result | detail |\n|---|---|---|\n")
            for row in rows:
                f.write("| %s | %s | %s |\n" % row)
    return 0 if failed == 0 or "exit-zero" in flags else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
