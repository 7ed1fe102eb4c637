"""The numerics suite's inputs, numpy references and hardware goldens, shared
by run.py (on the GPU) and the interpreter's check in `make check`
(test/python/test_interpreter_numerics.py, on the CPU).

Inputs are a pure function of (operand type, seed): a splitmix64 stream in
numpy integer arithmetic (not numpy's Generator, whose streams may change
between numpy versions), with the operand type's special bit patterns (NaN
payloads, infinities, subnormals, signed zeros, integer extremes) in the
first quarter, every special against every special of the other operand.

Goldens: `run.py DIR RESULTS --record FILE` writes, for every form whose
TirX kernel agrees with nvcc's bit for bit, the GPU's output at SAMPLES
(2048 element indices: the first 1024, where the specials meet, and 1024
spread over the rest) into one compressed .npz, with the name of the GPU
and a digest of each form's sampled inputs. test/gpu/numerics/golden-sm90.npz
is such a file, from an H100 (sm_90, the H200's chip; its index names the GPU).
"""
import hashlib
import json

import numpy as np

N = 1 << 20
UINT = {16: np.uint16, 32: np.uint32, 64: np.uint64}
BITS = {"f32": 32, "f64": 64, "f16": 16, "bf16": 16, "ui16": 16, "i16": 16,
        "ui32": 32, "i32": 32, "ui64": 64, "i64": 64}

# Element indices whose outputs a golden keeps: two CTAs' worth (the
# interpreter runs them as a grid of 2).
SAMPLES = np.concatenate([np.arange(1024), 1024 + (np.arange(1024) * (N - 1024)) // 1024])


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


def splitmix64(seed, n):
    """n pseudo-random 64-bit words: splitmix64 of (seed, 1..n), wrapping
    uint64 arithmetic (the same words on every machine and numpy)."""
    golden = np.uint64(0x9E3779B97F4A7C15)
    z = (np.arange(1, n + 1, dtype=np.uint64) + np.uint64(seed) * np.uint64(0x100000001)) * golden
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def inputs(dtype, seed):
    """The N input words (bit patterns) of one operand of type dtype."""
    bits = BITS[dtype]
    values = splitmix64(seed, N)
    if bits < 64:
        values = (values >> np.uint64(64 - bits)).astype(UINT[bits])
    s = specials(dtype).astype(UINT[bits])
    # Every special against every special of the other operand, then random.
    grid = np.tile(s, len(s))[: N // 4] if seed % 2 else np.repeat(s, len(s))[: N // 4]
    values[: grid.size] = grid
    if dtype == "f32":
        # Plenty of ordinary numbers too: magnitudes 2^-17 .. 2^14, either sign.
        words = splitmix64(seed + 1000003, N // 4)
        sign = (words >> np.uint64(63)) << np.uint64(31)
        exponent = (np.uint64(110) + (words >> np.uint64(32)) % np.uint64(31)) << np.uint64(23)
        mantissa = words & np.uint64(0x7FFFFF)
        values[N // 4: N // 2] = (sign | exponent | mantissa).astype(np.uint32)
    return values


def source_args(form, index):
    """(register inputs, the sources' bits in operand order, the operand
    types destination first): register inputs get the suite's inputs,
    immediates an array of their bits (for numpy's reference)."""
    dtypes = form["dtypes"]
    registers = [inputs(dt, index * 7 + k) for k, dt in enumerate(dtypes[1:], 1)]
    immediates = form.get("immediates", {})
    sources, source_types, queue = [], [], list(registers)
    register_types = list(dtypes[1:])
    for position in range(1, len(dtypes) + len(immediates)):
        if str(position) in immediates:
            m = immediates[str(position)]
            sources.append(np.full(N, m["bits"], dtype=UINT[BITS[m["dtype"]]]))
            source_types.append(m["dtype"])
        else:
            sources.append(queue.pop(0))
            source_types.append(register_types.pop(0))
    return registers, sources, [dtypes[0]] + source_types


def load_forms(directory):
    """Every kernel of the suite, register forms then immediate forms, each
    a dict with name, spelling, dtypes (destination first), immediates and
    seed (its inputs' index for source_args)."""
    import os

    forms = json.load(open(os.path.join(directory, "forms.json")))
    for index, form in enumerate(forms):
        form["name"] = "form_%d" % index
    immediate_forms = json.load(open(os.path.join(directory, "immediates.json")))
    kernels = forms + immediate_forms
    for index, form in enumerate(kernels):
        form["seed"] = index if form["name"].startswith("form_") else 1000 + index
    return kernels


SIGNED = {16: np.int16, 32: np.int32, 64: np.int64}
UNSIGNED = {16: np.uint16, 32: np.uint32, 64: np.uint64}
FLOAT = {"f32": np.float32, "f64": np.float64, "f16": np.float16}


def typed(values, dtype):
    if dtype in FLOAT:
        return values.view(FLOAT[dtype])
    bits = BITS[dtype]
    return values.view(SIGNED[bits] if dtype.startswith("i") else UNSIGNED[bits])


def exact_reference(spelling, args, dtypes=None):
    """numpy's result for the exactly rounded (IEEE round-to-nearest, or
    integer) forms; args are the sources' bits, dtypes the operand types
    (destination first; f32 throughout by default). None for other forms."""
    dtypes = dtypes or ["f32"] * (len(args) + 1)
    v = [typed(a, dt) for a, dt in zip(args, dtypes[1:])]
    with np.errstate(all="ignore"):
        table = {
            "add.rn.f32": lambda: v[0] + v[1], "sub.rn.f32": lambda: v[0] - v[1],
            "mul.rn.f32": lambda: v[0] * v[1], "div.rn.f32": lambda: v[0] / v[1],
            "sqrt.rn.f32": lambda: np.sqrt(v[0]),
            "add.rn.f64": lambda: v[0] + v[1],
            "cvt.rn.f16.f32": lambda: v[0].astype(np.float16),
            "cvt.f32.f16": lambda: v[0].astype(np.float32),
            "cvt.f64.f32": lambda: v[0].astype(np.float64),
            "add.s32": lambda: v[0] + v[1], "sub.s32": lambda: v[0] - v[1],
            "mul.lo.s32": lambda: v[0] * v[1], "add.u64": lambda: v[0] + v[1],
            "min.u32": lambda: np.minimum(v[0], v[1]),
            "max.s32": lambda: np.maximum(v[0], v[1]),
            "min.s64": lambda: np.minimum(v[0], v[1]),
            "max.u16": lambda: np.maximum(v[0], v[1]),
            "mad.lo.s32": lambda: v[0] * v[1] + v[2],
            "mul.wide.s32": lambda: v[0].astype(np.int64) * v[1].astype(np.int64),
            "mov.b32": lambda: v[0], "mov.b64": lambda: v[0],
        }
        if spelling in table:
            return table[spelling]()
    return None


def same(result, reference):
    """Elements that differ from numpy's: bit-equal, NaN matching NaN
    (numpy's NaN payloads differ from PTX's)."""
    r = result.view(reference.dtype)
    if reference.dtype.kind == "f":
        nan = np.isnan(r) & np.isnan(reference)
    else:
        nan = np.zeros(r.shape, dtype=bool)
    return int((~nan & (result != reference.view(result.dtype))).sum())


def input_digest(registers):
    """A short digest of a form's register inputs at SAMPLES: a golden is
    only compared on the inputs it was recorded from."""
    h = hashlib.sha256()
    for values in registers:
        h.update(np.ascontiguousarray(values[SAMPLES]).tobytes())
    return h.hexdigest()[:16]


def save_golden(path, device, recorded):
    """recorded: {kernel name: (spelling, dtypes, input digest, outputs at
    SAMPLES)}. One compressed .npz: an array per kernel and a JSON index."""
    index = {"device": device, "samples": len(SAMPLES), "forms": {
        name: {"spelling": s, "dtypes": d, "inputs": digest}
        for name, (s, d, digest, _) in recorded.items()}}
    arrays = {name: outputs for name, (_, _, _, outputs) in recorded.items()}
    with open(path, "wb") as f:
        np.savez_compressed(f, index=np.frombuffer(json.dumps(index).encode(), dtype=np.uint8),
                            **arrays)


def load_golden(path):
    """(index dict, {kernel name: outputs at SAMPLES}) of a save_golden file."""
    with np.load(path) as data:
        index = json.loads(bytes(data["index"]).decode())
        return index, {name: data[name] for name in index["forms"]}
