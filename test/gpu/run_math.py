#!/usr/bin/env python3
"""Accuracy of the ewise examples (SiLU, GELU-tanh, softplus) against torch,
and of every math function of T against float64.

Usage: run_math.py PTX_DIR [--functions-only]
PTX_DIR holds {silu,gelu,softplus}.{precise,fast}.ptx from
`test/gpu/run.sh --build`. Every kernel runs over the same >= 1M float32
inputs: signed zeros, infinities, quiet NaNs with payloads, the smallest and
largest subnormals and normals, values around the float16 limits, a dense
sweep of [-30, 30], and random bit patterns. Results are compared with
torch's float32 functions on the GPU, in units in the last place (NaN
matches NaN; a NaN or infinity where torch has none counts as a mismatch).
Precise math must stay within 2 ulp; fast math within FAST_ATOL + FAST_RTOL
* |torch| of torch (docs/math.md: the documented bound is 1e-5 absolute, the
worst measured 5.36e-06), and in both modes every NaN and infinity must
agree with torch's (same sign for infinities).

Then every T math function (docs/math.md, "Accuracy of each function") is
compiled here through the shipped Python package (python/ and lib/ beside
this script in the bundle, else the repository's python/ with
$TIRX_LIBRARY), precise and fast, for float32 and (precise) float64,
float16 and bfloat16, and run over the same kind of inputs (rounded to the
type; a second and third operand are permutations of them). The reference
is torch's float64 function on the GPU, rounded once to the type (float64:
numpy's long double on the host where numpy has the function). A table
gives the max ulp error (infinities count as one past the largest finite
value) and the NaN disagreements; a precise function beyond its bound
(CUDA's documented one, BOUNDS) or disagreeing on NaN fails.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

# Fast math's bound: docs/math.md documents |fast - torch| <= 1e-5 over all
# finite inputs (worst measured on the H200: 5.36e-06, GELU). The relative
# term (2^-20, 8 ulp) only matters for large outputs, where the absolute
# bound would otherwise demand bit-exact results.
FAST_ATOL = 1e-5
FAST_RTOL = 2.0 ** -20

CHUNK = 256  # elements per launch: the examples are one 64-thread CTA x 4


def inputs():
    specials = np.array([0.0, -0.0, np.inf, -np.inf, 1.0, -1.0, 20.0, 20.000002,
                         65504.0, -65504.0, 65520.0, 6.1035156e-05, 5.96e-08,
                         88.72283, -87.33654, -103.97208, 1e-30, -1e-30],
                        dtype=np.float32)
    bits = np.array([0x7FC00000, 0xFFC00000, 0x7FC00001, 0x7FFFFFFF,  # NaNs
                     0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF,  # subnormals
                     0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF],  # normals
                    dtype=np.uint32).view(np.float32)
    sweep = np.linspace(-30, 30, 1 << 19, dtype=np.float32)
    rng = np.random.default_rng(0)
    random_bits = rng.integers(0, 1 << 32, 1 << 19, dtype=np.uint64) \
        .astype(np.uint32).view(np.float32)
    values = np.concatenate([specials, bits, sweep, random_bits])
    padded = -(-values.size // CHUNK) * CHUNK
    return np.resize(values, padded)


def ulp_error(result, reference, normal_only=False):
    """Max ulp distance over entries where both are finite (with
    normal_only, where the reference is a normal number), and the number of
    entries whose NaN/inf-ness differs."""
    r = result.view(np.int32).astype(np.int64)
    f = reference.view(np.int32).astype(np.int64)
    r = np.where(r < 0, -(r & 0x7FFFFFFF), r)
    f = np.where(f < 0, -(f & 0x7FFFFFFF), f)
    both_nan = np.isnan(result) & np.isnan(reference)
    finite = np.isfinite(result) & np.isfinite(reference)
    if normal_only:
        finite &= np.abs(reference) >= np.float32(2.0 ** -126)
    same_inf = np.isinf(result) & (result == reference)
    mismatched = ~(both_nan | finite | same_inf)
    distance = np.abs(r - f)[finite]
    return (int(distance.max()) if distance.size else 0,
            int(mismatched.sum()))


def fast_check(result, reference):
    """Fast math against the reference: (max abs error, number of finite
    entries beyond FAST_ATOL + FAST_RTOL * |reference|, NaN/inf mismatches,
    ok). An entry where only one side is NaN or infinite is a mismatch."""
    _, mismatched = ulp_error(result, reference)
    finite = np.isfinite(result) & np.isfinite(reference)
    r = result[finite].astype(np.float64)
    f = reference[finite].astype(np.float64)
    error = np.abs(r - f)
    beyond = int((error > FAST_ATOL + FAST_RTOL * np.abs(f)).sum())
    abs_error = float(error.max()) if error.size else 0.0
    return abs_error, beyond, mismatched, beyond == 0 and mismatched == 0


def examples(ptx_dir):
    import cupy as cp
    import torch

    x = inputs()
    print("inputs: %d float32 values" % x.size)
    device_x = cp.asarray(x)
    tx = torch.as_tensor(device_x, device="cuda")
    references = {
        "silu": torch.nn.functional.silu(tx),
        "gelu": torch.nn.functional.gelu(tx, approximate="tanh"),
        "softplus": torch.nn.functional.softplus(tx),
    }
    failures = 0
    for name, reference in references.items():
        expected = reference.cpu().numpy()
        for mode in ("precise", "fast"):
            module = cp.RawModule(path=os.path.join(ptx_dir, "%s.%s.ptx" % (name, mode)))
            kernel = module.get_function(name + "_kernel")
            # Poisoned (a NaN), so an element the kernel never writes is a mismatch.
            out = cp.full(x.size, 0xFFFFFFFF, dtype=cp.uint32).view(cp.float32)
            for offset in range(0, x.size, CHUNK):
                kernel((1,), (64,), (device_x[offset:], out[offset:]))
            result = cp.asnumpy(out)
            ulps, mismatched = ulp_error(result, expected)
            normal_ulps, _ = ulp_error(result, expected, normal_only=True)
            abs_error, beyond, _, fast_ok = fast_check(result, expected)
            if mode == "fast":
                ok = fast_ok
                bound = "%d beyond %g + 2^-20 |torch|" % (beyond, FAST_ATOL)
            else:
                ok = ulps <= 2 and mismatched == 0
                bound = "bound 2 ulp"
            failures += 0 if ok else 1
            print("%s: math %-9s %-8s max %9d ulp (%9d ulp where torch's result is "
                  "normal), max abs error %.3g (%s), %d NaN/inf mismatches" % (
                      "PASS" if ok else "FAIL", name, mode, ulps, normal_ulps,
                      abs_error, bound, mismatched))
    print("%d passed, %d failed" % (6 - failures, failures))
    return failures


#===----------------------------------------------------------------------===#
# Every math function of T
#===----------------------------------------------------------------------===#

# CUDA's documented maximum ulp errors (CUDA C++ Programming Guide,
# "Mathematical Functions"), f32 and f64; 0: an exact instruction or a
# correctly rounded function. sigmoid is derived (exp's bound plus the
# roundings of the sum and the division). docs/math.md has the same table.
BOUNDS = {
    "exp": (2, 1), "exp2": (2, 1), "exp10": (2, 1), "log": (1, 1), "log2": (1, 1),
    "log10": (2, 1), "log1p": (1, 1), "expm1": (1, 1), "sqrt": (0, 0), "rsqrt": (2, 1),
    "cbrt": (1, 1), "sigmoid": (3, 2), "sin": (2, 2), "cos": (2, 2), "tan": (4, 2),
    "asin": (2, 2), "acos": (2, 2), "atan": (2, 2), "atan2": (3, 2), "sinh": (3, 2),
    "cosh": (2, 1), "tanh": (2, 1), "asinh": (3, 3), "acosh": (4, 3), "atanh": (3, 2),
    "erf": (2, 2), "pow": (4, 2), "hypot": (3, 2), "fmod": (0, 0), "copysign": (0, 0),
    "fma": (0, 0), "abs": (0, 0), "floor": (0, 0), "ceil": (0, 0), "trunc": (0, 0),
    "round": (0, 0), "nearbyint": (0, 0), "max": (0, 0), "min": (0, 0),
}
# float16 and bfloat16 compute in float32 and round once: within 1 ulp.
HALF_BOUND = 1
ARITY = {"atan2": 2, "pow": 2, "hypot": 2, "fmod": 2, "copysign": 2, "max": 2, "min": 2,
         "fma": 3}
FUNCTION_CTAS = 4096
PER_THREAD = {"float32": 4, "float64": 2}  # one 16-byte vector per operand


def torch_reference(name, x, y, z):
    """float64 tensors on the GPU."""
    import torch
    special = {
        "exp10": lambda: torch.pow(10.0, x), "cbrt": lambda: torch.sign(x) * x.abs() ** (1 / 3),
        "sigmoid": lambda: torch.sigmoid(x), "asin": lambda: torch.asin(x),
        "acos": lambda: torch.acos(x), "atan": lambda: torch.atan(x),
        "asinh": lambda: torch.asinh(x), "acosh": lambda: torch.acosh(x),
        "atanh": lambda: torch.atanh(x), "erf": lambda: torch.special.erf(x),
        "atan2": lambda: torch.atan2(x, y), "pow": lambda: torch.pow(x, y),
        "hypot": lambda: torch.hypot(x, y), "fmod": lambda: torch.fmod(x, y),
        "copysign": lambda: torch.copysign(x, y), "fma": lambda: x * y + z,
        "round": lambda: torch.where(x < 0, -torch.floor(-x + 0.5), torch.floor(x + 0.5)),
        "nearbyint": lambda: torch.round(x), "max": lambda: torch.fmax(x, y),
        "min": lambda: torch.fmin(x, y), "rsqrt": lambda: torch.rsqrt(x),
    }
    if name in special:
        return special[name]()
    return getattr(torch, name)(x)


def longdouble_reference(name, x, y, z):
    """The float64 reference on the host in long double, or None where numpy
    has no long double function (erf)."""
    ld = np.longdouble
    x, y, z = x.astype(ld), y.astype(ld), z.astype(ld)
    one = ld(1)
    with np.errstate(all="ignore"):
        table = {
            "exp": lambda: np.exp(x), "exp2": lambda: np.exp2(x),
            "exp10": lambda: np.power(ld(10), x), "log": lambda: np.log(x),
            "log2": lambda: np.log2(x), "log10": lambda: np.log10(x),
            "log1p": lambda: np.log1p(x), "expm1": lambda: np.expm1(x),
            "sqrt": lambda: np.sqrt(x), "rsqrt": lambda: one / np.sqrt(x),
            "cbrt": lambda: np.cbrt(x), "sigmoid": lambda: one / (one + np.exp(-x)),
            "sin": lambda: np.sin(x), "cos": lambda: np.cos(x), "tan": lambda: np.tan(x),
            "asin": lambda: np.arcsin(x), "acos": lambda: np.arccos(x),
            "atan": lambda: np.arctan(x), "atan2": lambda: np.arctan2(x, y),
            "sinh": lambda: np.sinh(x), "cosh": lambda: np.cosh(x), "tanh": lambda: np.tanh(x),
            "asinh": lambda: np.arcsinh(x), "acosh": lambda: np.arccosh(x),
            "atanh": lambda: np.arctanh(x), "pow": lambda: np.power(x, y),
            "hypot": lambda: np.hypot(x, y), "fmod": lambda: np.fmod(x, y),
            "copysign": lambda: np.copysign(x, y), "fma": lambda: x * y + z,
            "abs": lambda: np.abs(x), "floor": lambda: np.floor(x), "ceil": lambda: np.ceil(x),
            "trunc": lambda: np.trunc(x),
            "round": lambda: np.where(x < 0, -np.floor(-x + ld(0.5)), np.floor(x + ld(0.5))),
            "nearbyint": lambda: np.rint(x), "max": lambda: np.fmax(x, y),
            "min": lambda: np.fmin(x, y),
        }
        if name not in table or np.finfo(ld).nmant < 63:
            return None  # erf, or a long double no wider than a double
        return table[name]().astype(np.float64)


def float_bits(values):
    """(bits as int64, NaN mask, width) of a numpy float array."""
    width = 8 * values.dtype.itemsize
    unsigned = {16: np.uint16, 32: np.uint32, 64: np.uint64}[width]
    bits = values.view(unsigned)
    bits = bits.view(np.int64) if width == 64 else bits.astype(np.int64)
    return bits, np.isnan(values), width


def torch_bits(tensor):
    """float_bits of a float16 or bfloat16 torch tensor (on the host)."""
    import torch
    bits = tensor.view(torch.int16).numpy().view(np.uint16).astype(np.int64)
    return bits, torch.isnan(tensor).numpy(), 16


def ulp_distance(result, reference):
    """Max ulp distance between two float_bits where neither is NaN (the bits
    as ordered integers: an infinity is one past the largest finite value,
    -0 and +0 are equal), and the number of entries where one is NaN."""
    (r, nan_r, width), (f, nan_f, _) = result, reference
    def ordered(bits):
        if width == 64:
            magnitude = bits & np.int64(0x7FFFFFFFFFFFFFFF)
            negative = bits < 0
        else:
            magnitude = bits & ((1 << (width - 1)) - 1)
            negative = (bits >> (width - 1)) & 1 == 1
        return np.where(negative, -magnitude, magnitude)
    both = ~nan_r & ~nan_f
    a, b = ordered(r)[both], ordered(f)[both]
    # |a - b| of two int64 may not fit an int64: in uint64.
    distance = np.where(a > b, a.astype(np.uint64) - b.astype(np.uint64),
                        b.astype(np.uint64) - a.astype(np.uint64))
    return (int(distance.max()) if distance.size else 0, int((nan_r != nan_f).sum()))


def scalar_function(T, name, dtype, storage):
    f = getattr(T, name)
    d = getattr(T, dtype)
    s = getattr(T, storage)
    arity = ARITY.get(name, 1)

    def body(x, y, z):
        args = (x, y, z) if dtype == storage else (d(x), d(y), d(z))
        result = f(*args[:arity])
        return result if dtype == storage else s(result)
    body.__name__ = "%s_%s" % (name, dtype)
    body.__annotations__ = {"x": s, "y": s, "z": s, "return": s}
    return T.function(private=True)(body)


def function_kernel(T, tirx, name, dtype):
    from tirx.cuda.axis import laneid, warpid
    from tirx.layout import S, TileLayout
    storage = "float64" if dtype == "float64" else "float32"
    per_thread = PER_THREAD[storage]
    layout = TileLayout(S[(2, 32, per_thread) : (1 @ warpid, 1 @ laneid, 1)])
    bits = 64 if storage == "float64" else 32
    load = T.ptx["ld.global.v%d.b%d" % (per_thread, bits)]
    store = T.ptx["st.global.v%d.b%d" % (per_thread, bits)]
    shape = (FUNCTION_CTAS, 2, 32, per_thread)
    fn = scalar_function(T, name, dtype, storage)

    @T.function
    def k(X: T.Tensor(shape, storage, align=16), Y: T.Tensor(shape, storage, align=16),
          Z: T.Tensor(shape, storage, align=16), R: T.Tensor(shape, storage, align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=FUNCTION_CTAS, block=64))
        bx = T.cuda.block_idx("x")
        x = T.alloc_local((2, 32, per_thread), storage, layout=layout)
        y = T.alloc_local((2, 32, per_thread), storage, layout=layout)
        z = T.alloc_local((2, 32, per_thread), storage, layout=layout)
        T.cuda.tile.apply(load, x, X.sub[bx, :, :, :], scope="cta")
        T.cuda.tile.apply(load, y, Y.sub[bx, :, :, :], scope="cta")
        T.cuda.tile.apply(load, z, Z.sub[bx, :, :, :], scope="cta")
        T.cuda.tile.ewise(fn, x, x, y, z, scope="cta")
        T.cuda.tile.apply(store, R.sub[bx, :, :, :], x, scope="cta")
    return k, shape


def operands(dtype, size):
    """x, y, z as numpy arrays of the kernel's storage type (float32 values
    rounded to float16/bfloat16 for those; float64 adds random doubles)."""
    import torch
    values = inputs()
    if dtype == "float64":
        # The specials, a quarter of the rest, and as many random doubles.
        rng = np.random.default_rng(1)
        extra = rng.integers(0, 1 << 63, size // 2, dtype=np.int64)
        extra ^= rng.integers(0, 2, extra.size, dtype=np.int64) << 63
        values = np.concatenate([values[:30].astype(np.float64),
                                 values[30::4].astype(np.float64), extra.view(np.float64)])
    elif dtype in ("float16", "bfloat16"):
        values = torch.as_tensor(values).to(getattr(torch, dtype)).float().numpy()
    values = np.resize(values, size)
    rng = np.random.default_rng(2)
    return values, rng.permutation(values), rng.permutation(values)


def import_tirx():
    for path in (os.path.join(HERE, "python"), os.path.join(HERE, "..", "..", "python")):
        if os.path.isdir(os.path.join(path, "tirx")):
            sys.path.insert(0, path)
            break
    if "TIRX_LIBRARY" not in os.environ and os.path.isdir(os.path.join(HERE, "lib")):
        os.environ["TIRX_LIBRARY"] = os.path.join(HERE, "lib")
    import tirx
    from tirx.script import tirx as T
    return tirx, T


def compile_all(arch):
    """Compiles every kernel run_functions runs for `arch` (no GPU needed):
    {(name, dtype, mode): Compiled}."""
    tirx, T = import_tirx()
    compiled = {}
    for dtype in ("float32", "float64", "float16", "bfloat16"):
        for name in BOUNDS:
            kernel, _ = function_kernel(T, tirx, name, dtype)
            for mode in ("precise", "fast") if dtype == "float32" else ("precise",):
                compiled[name, dtype, mode] = tirx.compile(
                    kernel, target={"kind": "cuda", "arch": arch, "fast_math": mode == "fast"})
    return compiled


def run_functions():
    """The table of every math function; the number of failures."""
    tirx, T = import_tirx()
    import torch

    rows, failures = [], 0
    print("math functions: max ulp error against float64 rounded to the type "
          "(NaN disagreements in parentheses)")
    for dtype in ("float32", "float64", "float16", "bfloat16"):
        storage = "float64" if dtype == "float64" else "float32"
        size = FUNCTION_CTAS * 64 * PER_THREAD[storage]
        x, y, z = operands(dtype, size)
        gx, gy, gz = (torch.as_tensor(v, device="cuda") for v in (x, y, z))
        for name in BOUNDS:
            kernel, shape = function_kernel(T, tirx, name, dtype)
            if dtype == "float64" and BOUNDS[name][1] == 0 and name not in ("fma", "round"):
                # Correctly rounded (sqrt.rn.f64) or exact in float64 on the
                # GPU: its own result is the reference. (Long double would
                # round twice: its sqrt rounded to double can be 1 ulp off.
                # round's reference adds 0.5, inexact in float64 past 2^52.)
                expected = float_bits(torch_reference(name, gx, gy, gz).cpu().numpy())
            elif dtype == "float64":
                wide = longdouble_reference(name, x, y, z)
                expected = None if wide is None else float_bits(wide)
            else:
                # Rounded once from float64 to the type.
                wide = torch_reference(name, gx.double(), gy.double(), gz.double())
                narrow = wide.to(getattr(torch, dtype)).cpu()
                expected = float_bits(narrow.numpy()) if dtype == "float32" \
                    else torch_bits(narrow)
            bound = BOUNDS[name][1 if dtype == "float64" else 0]
            if dtype in ("float16", "bfloat16") and (bound or name == "fma"):
                # One rounding of the float32 result (fma: of the float32 sum).
                bound = HALF_BOUND
            cells = []
            for mode in ("precise", "fast") if dtype == "float32" else ("precise",):
                target = {"kind": "cuda", "fast_math": mode == "fast"}
                out = torch.full(shape, float("nan"), dtype=getattr(torch, storage),
                                 device="cuda")
                tirx.compile(kernel, target=target)(
                    gx.reshape(shape), gy.reshape(shape), gz.reshape(shape), out)
                result = out.reshape(-1).cpu()
                if expected is None:
                    cells.append("%s: no reference" % mode)
                    continue
                if dtype in ("float16", "bfloat16"):
                    # Exact: the kernel's float32 result is a value of the type.
                    result = torch_bits(result.to(getattr(torch, dtype)))
                else:
                    result = float_bits(result.numpy())
                ulps, nans = ulp_distance(result, expected)
                checked = mode == "precise" and not (dtype == "float64" and name == "fma")
                ok = not checked or (ulps <= bound and nans == 0)
                failures += 0 if ok else 1
                cells.append("%s %s%d (%d)" % (mode, "" if ok else "FAIL ", ulps, nans))
            rows.append((name, dtype, bound, cells))
            print("%s: %-9s %-8s bound %d ulp: %s" % (
                "FAIL" if any("FAIL" in c for c in cells) else "PASS", name, dtype, bound,
                ", ".join(cells)))
    print("\n| function | dtype | bound (ulp) | measured: max ulp (NaN disagreements) |")
    print("|---|---|---|---|")
    for name, dtype, bound, cells in rows:
        print("| %s | %s | %d | %s |" % (name, dtype, bound, ", ".join(cells)))
    print("math functions: %d failed" % failures)
    return failures


def main(argv):
    ptx_dir = next((a for a in argv if not a.startswith("--")), ".")
    failures = 0 if "--functions-only" in argv else examples(ptx_dir)
    failures += run_functions()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
