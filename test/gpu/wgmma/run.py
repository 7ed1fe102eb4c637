#!/usr/bin/env python3
"""Runs the wgmma suite on a GPU (gen.py's docstring: the kernels and their
data): each TirX kernel against its nvcc inline-asm reference (hand-built
descriptors), on the same inputs, bit for bit, and nvcc against a float64
host GEMM. Usage:

    run.py DIR [RESULTS.md] [--dry] [--dry-break=NAME] [--only=NAME,...] [--exit-zero]
           [--record=GOLDEN.npz]

DIR holds wgmma.ptx (gen.py's wgmma.mlir through tirx-opt
--tirx-to-ptx="chip=sm_90a"; wgmma.err when it was refused), reference.cubin
(nvcc -arch=sm_90a -cubin reference.cu) and cases.json. Data sets per kernel:
normal (A, B, C from N(0, 1)) and wide (scaled by 2^e, e uniform in -8..8).
A kernel fails when:
- the PTX does not hold its wgmma.mma_async exactly once;
- TirX and nvcc differ on any bit of D;
- D differs between two launches whose D was poisoned with different
  patterns (a word never written);
- nvcc's D differs from the float64 model D = A B (+ C with scale-d 1)
  beyond 2^-16 of sum |a b| + |c| (the ISA leaves the order and rounding of
  the accumulation open): the check of this harness's own packing.
--dry runs no GPU: it checks the packing (every fragment word unpacks to the
element it was packed from, every shared word is copied once) and the model
on the host, for this machine's CI (test/Pipeline/wgmma-suite.test), and
that TirX's PTX folds the reference's descriptor strides; --dry-break=NAME
swaps LBO and SBO in NAME's model to show that the descriptor check fails.

--record=GOLDEN.npz writes A, B, C and TirX's D (the launch's words) of each
kernel and data set where TirX's D equalled nvcc's bit for bit, every word
written, for the interpreter's comparison in `make check`
(test/python/test_interpreter_wgmma.py). The file is the matrix suite's
format (test/gpu/matrix/mma_golden.py's save and load: one warpgroup is its
4 warps); an array several launches share is stored once (the sd1 variants
of a shape read the same matrices). With --dry, D is the float64 model
rounded to f32, and a kernel whose dry check failed is left out.
"""
import json
import os
import re
import sys

import numpy as np

POISONS = (0xFFFFFFFF, 0x7FBADBAD)
# The data sets: (name, seed, scaled by 2^e).
DATASETS = (("normal", 1, False), ("wide", 2, True))
# nvcc's D against the float64 model: within TOLERANCE of sum |a b| + |c|.
TOLERANCE = 2.0 ** -16


def to_half_bits(values, dtype):
    """float64 values -> (16-bit patterns, the float64 values they hold)."""
    if dtype == "f16":
        h = values.astype(np.float16)
        return h.view(np.uint16).astype(np.uint32), h.astype(np.float64)
    f = values.astype(np.float32).view(np.uint32).astype(np.uint64)
    bits = ((f + 0x7FFF + ((f >> 16) & 1)) >> 16).astype(np.uint32)  # nearest even
    exact = (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return bits, exact


def d_owner(r, c):
    """The m64nNk16 accumulator: element (r, c) -> (thread, register)."""
    return (32 * (r // 16) + 4 * (r % 8) + (c % 8) // 2,
            4 * (c // 8) + 2 * ((r % 16) // 8) + c % 2)


def a_owner(r, w):
    """A in registers: word (r, w) -> (thread, register)."""
    return 32 * (r // 16) + 4 * (r % 8) + w % 4, (r % 16) // 8 + 2 * (w // 4)


def pair(lo, hi):
    return (lo | (hi << 16)).astype(np.uint32)


def half_values(bits, dtype):
    """16-bit patterns -> the float64 values they hold."""
    bits = np.asarray(bits, dtype=np.uint32)
    if dtype == "f16":
        return bits.astype(np.uint16).view(np.float16).astype(np.float64)
    return (bits << 16).view(np.float32).astype(np.float64)


def pack_d(matrix, n):
    """A (64, n) accumulator matrix -> thread t's words t W ... (W = n / 2),
    float32."""
    w = n // 2
    words = np.zeros(128 * w, np.float32)
    for r in range(64):
        for c in range(n):
            t, j = d_owner(r, c)
            words[t * w + j] = matrix[r, c]
    return words


def matrices(case, a_words, b_words, c_words):
    """(A (64, 16), B (16, N), C (64, N)) float64 of a launch's words (the
    inverse of Data's packing): what the interpreter's check bounds D by."""
    n, dtype = case["n"], case["dtype"]
    a_words = np.asarray(a_words, dtype=np.uint32).ravel()
    if case["a"] != "reg":
        rows = a_words.reshape(64, 8)
    else:
        rows = np.zeros((64, 8), np.uint32)
        for r in range(64):
            for wd in range(8):
                t, j = a_owner(r, wd)
                rows[r, wd] = a_words[t * 4 + j]
    halves = lambda words: np.stack([words & 0xFFFF, words >> 16], axis=-1).reshape(
        words.shape[0], -1)
    a = half_values(halves(rows), dtype)
    b_words = np.asarray(b_words, dtype=np.uint32).ravel()
    if not case["b"].startswith("mn"):
        b = half_values(halves(b_words.reshape(n, 8)), dtype).T
    else:
        b = half_values(halves(b_words.reshape(16, n // 2)), dtype)
    c = unpack_d(np.asarray(c_words, dtype=np.uint32).view(np.float32), n)
    return a, b, c


def model_mismatches(d, model, bound):
    """Elements of D (64, N) beyond TOLERANCE of the float64 model (its
    bound: sum |a b| + |c|), a boolean mask; the interpreter's check uses
    the same bound."""
    return ~(np.abs(d - model) <= TOLERANCE * bound + 1e-30)


class Data:
    def __init__(self, case, seed, scale):
        n, dtype = case["n"], case["dtype"]
        rng = np.random.default_rng(seed)
        def draw(shape):
            v = rng.standard_normal(shape)
            if scale:
                v *= 2.0 ** rng.integers(-8, 9, shape)
            return v
        a_bits, self.a = to_half_bits(draw((64, 16)), dtype)
        b_bits, self.b = to_half_bits(draw((16, n)), dtype)  # B: K x N
        self.c = draw((64, n)).astype(np.float32).astype(np.float64)
        # C / D: thread t's words t W ... in fragment order.
        self.c_words = pack_d(self.c, n)
        a_words = pair(a_bits[:, 0::2], a_bits[:, 1::2])  # (64, 8) row-major
        if case["a"] != "reg":
            self.a_words = a_words.reshape(-1)
        else:
            self.a_words = np.zeros(128 * 4, np.uint32)
            for r in range(64):
                for wd in range(8):
                    t, j = a_owner(r, wd)
                    self.a_words[t * 4 + j] = a_words[r, wd]
        if not case["b"].startswith("mn"):  # B^T row-major: row n holds its 16 k
            bt = b_bits.T
            self.b_words = pair(bt[:, 0::2], bt[:, 1::2]).reshape(-1)
        else:  # B row-major: word (k, wn) holds columns 2 wn, 2 wn + 1
            self.b_words = pair(b_bits[:, 0::2], b_bits[:, 1::2]).reshape(-1)
        self.scale_d = case["scale_d"]

    def model(self):
        d = self.a @ self.b + (self.c if self.scale_d else 0.0)
        bound = np.abs(self.a) @ np.abs(self.b) + (np.abs(self.c) if self.scale_d else 0.0)
        return d, bound

    def unpack_d(self, words, n):
        return unpack_d(words, n)


def unpack_d(words, n):
    """Thread t's words t W ... (W = n / 2) -> the (64, n) matrix, float64."""
    w = n // 2
    d = np.zeros((64, n))
    for r in range(64):
        for c in range(n):
            t, j = d_owner(r, c)
            d[r, c] = words[t * w + j]
    return d


def read_descriptor(words, shared, rows):
    """The (rows, 16) matrix of 16-bit patterns that wgmma reads through a
    descriptor (no swizzle; PTX ISA 9.7.15.5.1) from shared memory laid out
    by copying global word g to word offset digits(g)."""
    memory = np.full(len(words), 0xDEAD, np.uint64).astype(np.uint32)
    offsets = np.zeros(len(words), np.int64)
    inner = 1
    for radix, stride in reversed(shared["digits"]):
        offsets += ((np.arange(len(words)) // inner) % radix) * stride
        inner *= radix
    assert len(set(offsets.tolist())) == len(words), "two words copied to one offset"
    swizzle = shared.get("layout_type") == 1  # 128B: byte bits [4, 7) ^= [7, 10)
    if swizzle:
        offsets = offsets ^ (((offsets >> 5) & 7) << 2)
        memory = np.full(shared["words"], 0xDEAD, np.uint32)
    memory[offsets] = words
    out = np.zeros((rows, 16), np.uint32)
    for r in range(rows):
        for k in range(16):
            if swizzle and shared["major"] == "k":  # rows of 128 bytes
                byte = (r % 8) * 128 + (r // 8) * shared["sbo"] + k * 2
                byte ^= ((byte >> 7) & 7) << 4
            elif shared["major"] == "k":
                byte = (r % 8) * 16 + (k % 8) * 2 + (k // 8) * shared["lbo"] + (r // 8) * shared["sbo"]
            else:
                byte = (r % 8) * 2 + (k % 8) * 16 + (r // 8) * shared["sbo"] + (k // 8) * shared["lbo"]
            out[r, k] = (memory[byte // 4] >> (16 * (byte // 2 % 2))) & 0xFFFF
    return out


def check_packing(case, data):
    """--dry: the packing round-trips and covers every word once; the shared
    copies and descriptors give wgmma A and B."""
    n = case["n"]
    to_bits = lambda v: to_half_bits(v, case["dtype"])[0]
    if "a" in case["shared"]:
        assert np.array_equal(read_descriptor(data.a_words, case["shared"]["a"], 64),
                              to_bits(data.a)), "A through its descriptor"
    assert np.array_equal(read_descriptor(data.b_words, case["shared"]["b"], n),
                          to_bits(data.b).T), "B through its descriptor"
    owners = {d_owner(r, c) for r in range(64) for c in range(n)}
    assert len(owners) == 64 * n and all(t < 128 and j < n // 2 for t, j in owners)
    assert np.array_equal(data.unpack_d(data.c_words, n), data.c)
    for got, want in zip(matrices(case, data.a_words, data.b_words, data.c_words.view(np.uint32)),
                         (data.a, data.b, data.c)):
        assert np.array_equal(got, want), "the words' matrices (matrices) are not Data's"
    if case["a"] == "reg":
        owners = {a_owner(r, w) for r in range(64) for w in range(8)}
        assert len(owners) == 512 and all(t < 128 and j < 4 for t, j in owners)
    d, bound = data.model()
    assert np.all(np.abs(d) <= bound + 1e-300)


def entries(ptx):
    """Each .entry's text by name."""
    parts = re.split(r"\.visible \.entry (\w+)\(", ptx)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    flags = [a for a in argv[1:] if a.startswith("--")]
    dry = "--dry" in flags
    only = next((f.split("=", 1)[1] for f in flags if f.startswith("--only=")), None)
    dry_break = next((f.split("=", 1)[1] for f in flags if f.startswith("--dry-break=")), None)
    if "--record" in flags:
        raise SystemExit("run.py: --record=GOLDEN.npz (with '=')")
    record = next((f.split("=", 1)[1] for f in flags if f.startswith("--record=")), None)
    recorded, left_out = [], []
    directory = args[0]
    results = args[1] if len(args) > 1 else None
    spec = json.load(open(os.path.join(directory, "cases.json")))
    kernels = [k for k in spec["kernels"] if not only or k["name"] in only.split(",")]
    ptx_path = os.path.join(directory, "wgmma.ptx")
    ptx = entries(open(ptx_path).read()) if os.path.exists(ptx_path) else {}
    err_path = os.path.join(directory, "wgmma.err")
    if not dry:
        import cupy
        tirx = cupy.RawModule(path=ptx_path) if ptx else None
        reference = cupy.RawModule(path=os.path.join(directory, "reference.cubin"))
    rows, failed = [], 0
    for kernel in kernels:
        name, n = kernel["name"], kernel["n"]
        problems, worst = [], 0.0
        text = ptx.get(name)
        if text is None:
            problems.append("no PTX" + (": " + open(err_path).read().strip().splitlines()[0]
                                        if os.path.exists(err_path) else ""))
        else:
            if len(re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n%dk16\." % n, text)) != 1:
                problems.append("the PTX does not hold the wgmma exactly once")
            # TirX's descriptors: the reference's strides, folded (SBO 0 when
            # one 8-row group spans M/N: N = 8, where the reference's is unused).
            for operand, shared in sorted(kernel["shared"].items()):
                sbo = shared["sbo"] if (64 if operand == "a" else n) > 8 else 0
                bits = ((shared["lbo"] >> 4) << 16 | (sbo >> 4) << 32
                        | shared["layout_type"] << 62)
                if not re.search(r"or\.b64\s+%%rd\d+, %%rd\d+, %d;" % bits, text):
                    problems.append("no descriptor of %s with LBO %d, SBO %d (%d) in the PTX"
                                    % (operand, shared["lbo"], sbo, bits))
        for dataset, seed, scale in DATASETS:
            data = Data(kernel, seed, scale)
            if dry:
                shared = kernel["shared"]
                if name == dry_break:  # LBO and SBO swapped: must fail
                    shared = {x: dict(v, lbo=v["sbo"], sbo=v["lbo"]) for x, v in shared.items()}
                try:
                    check_packing(dict(kernel, shared=shared), data)
                except AssertionError as error:
                    problems.append("dry model: %s" % error)
                    left_out.append("%s/%s" % (name, dataset))
                    continue
                if record:   # the dry "TirX" D: the model, rounded once to f32
                    d = pack_d(data.model()[0].astype(np.float32), n).view(np.uint32)
                    record_launch(recorded, kernel, dataset, data, d)
                continue
            outs = {}
            for label, module in (("tirx", tirx), ("nvcc", reference)):
                if module is None:
                    continue
                launches = []
                for poison in POISONS:
                    d = cupy.full(128 * (n // 2), poison, dtype=np.uint32)
                    module.get_function(name)((1,), (128,), (
                        d, cupy.asarray(data.a_words), cupy.asarray(data.b_words),
                        cupy.asarray(data.c_words)))
                    launches.append(cupy.asnumpy(d))
                if not np.array_equal(launches[0], launches[1]):
                    problems.append("%s leaves D words unwritten (seed %d)" % (label, seed))
                outs[label], outs[label + "2"] = launches[0], launches[1:]
            if "tirx" in outs and not np.array_equal(outs["tirx"], outs["nvcc"]):
                bad = np.flatnonzero(outs["tirx"] != outs["nvcc"])
                problems.append("TirX and nvcc differ in %d words (first: word %d, %08x vs %08x)"
                                % (len(bad), bad[0], outs["tirx"][bad[0]], outs["nvcc"][bad[0]]))
            if record:
                # Recordable: TirX's D equals nvcc's in both poisonings, every word written.
                if "tirx" in outs and all(np.array_equal(x, outs["tirx"]) for x in
                                          outs["tirx2"] + outs["nvcc2"] + [outs["nvcc"]]):
                    record_launch(recorded, kernel, dataset, data, outs["tirx"])
                else:
                    left_out.append("%s/%s" % (name, dataset))
            d = data.unpack_d(outs["nvcc"].view(np.float32).astype(np.float64), n)
            model, bound = data.model()
            error = np.abs(d - model) / (bound + 1e-30)
            worst = max(worst, float(error.max()))
            if model_mismatches(d, model, bound).any():
                problems.append("nvcc differs from the float64 model (relative %.3g)" % error.max())
        verdict = "PASS" if not problems else "FAIL"
        failed += bool(problems)
        print("%s: %s%s" % (verdict, name, (" -- " + "; ".join(problems)) if problems else
                            ("" if dry else " (model error %.2g of sum |ab| + |c|)" % worst)))
        rows.append("| %s | %s | %s |" % (name, verdict, "; ".join(problems) or "%.2g" % worst))
    if results and not dry:
        with open(results, "w") as f:
            f.write("| kernel | verdict | detail (max model error) |\n|---|---|---|\n")
            f.write("\n".join(rows) + "\n")
    print("wgmma: %d kernels, %d failed%s" % (len(kernels), failed, " (dry)" if dry else ""))
    record_failed = False
    if record:
        try:
            mma_golden = golden_module()
            device = ("dry run (the float64 model, no GPU)" if dry else
                      device_name(cupy.cuda.runtime.getDeviceProperties(0)["name"]))
            arrays = mma_golden.save(record, device, recorded)
            print("wgmma: %d launches (%d kernels) of the %s recorded in %s, %d arrays, %d bytes%s"
                  % (len(recorded), len({r["kernel"] for r in recorded}), device, record, arrays,
                     os.path.getsize(record),
                     "; left out (TirX differed from nvcc, or did not run): " +
                     ", ".join(left_out) if left_out else ""))
        except Exception as error:   # the verdicts above stand; the golden is missing
            record_failed = True
            print("FAIL: wgmma --record=%s: %s: %s" % (record, type(error).__name__, error))
    if "--exit-zero" in flags:
        return 0
    return 1 if failed or record_failed else 0


def golden_module():
    """The matrix suite's golden format (its mma_golden.py, beside this
    suite's folder in the repository and in the GPU bundle)."""
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "matrix",
                        "mma_golden.py")
    spec = importlib.util.spec_from_file_location("mma_golden", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def record_launch(recorded, kernel, dataset, data, d):
    """Appends one launch (its A, B, C words and TirX's D words) to
    recorded, in mma_golden.save's form."""
    recorded.append({
        "kernel": kernel["name"], "dataset": dataset, "n": kernel["n"],
        "dtype": kernel["dtype"], "a": kernel["a"], "b": kernel["b"],
        "scale_d": kernel["scale_d"],
        "arrays": {"a": np.ascontiguousarray(data.a_words, dtype=np.uint32),
                   "b": np.ascontiguousarray(data.b_words, dtype=np.uint32),
                   "c": np.ascontiguousarray(data.c_words).view(np.uint32),
                   "d": np.array(d, dtype=np.uint32)}})


def device_name(name):
    return name.decode() if isinstance(name, bytes) else str(name)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
