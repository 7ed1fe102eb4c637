"""The math functions of T (docs/python.md "Math functions", docs/math.md):
each traces, compiles to PTX for every dtype it takes, precise and fast, and
lowers to the libdevice function or the exact instruction docs/math.md
names; wrong types and arities are located errors."""
import os
import re

import pytest

import helpers
import tirx
from tirx.cuda.axis import laneid, warpid
from tirx.layout import S, TileLayout
from tirx.script import tirx as T

TARGET = {"kind": "cuda", "arch": "sm_90"}
FAST = dict(TARGET, fast_math=True)
LAYOUT = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])
FLOATS = ("float32", "float64", "float16", "bfloat16")
SUFFIX = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16"}

# name: (arity, what precise math lowers it to). "lib:NAME" is libdevice's
# __nv_NAMEf (f32; f16 and bf16 call it in f32) or __nv_NAME (f64), found
# in the IR after convert-gpu-to-nvvm; anything else is a regular expression
# the PTX of the f32 and f64 kernels must match ({t}: f32 or f64).
PRECISE = {
    "exp": (1, "lib:exp"), "exp2": (1, "lib:exp2"), "exp10": (1, "lib:exp10"),
    "log": (1, "lib:log"), "log2": (1, "lib:log2"), "log10": (1, "lib:log10"),
    "log1p": (1, "lib:log1p"), "expm1": (1, "lib:expm1"),
    "sqrt": (1, r"sqrt\.rn\.{t}"), "rsqrt": (1, "lib:rsqrt"), "cbrt": (1, "lib:cbrt"),
    "sigmoid": (1, "lib:exp"),
    "sin": (1, "lib:sin"), "cos": (1, "lib:cos"), "tan": (1, "lib:tan"),
    "asin": (1, "lib:asin"), "acos": (1, "lib:acos"), "atan": (1, "lib:atan"),
    "sinh": (1, "lib:sinh"), "cosh": (1, "lib:cosh"), "tanh": (1, "lib:tanh"),
    "asinh": (1, "lib:asinh"), "acosh": (1, "lib:acosh"), "atanh": (1, "lib:atanh"),
    "erf": (1, "lib:erf"),
    "pow": (2, "lib:pow"), "atan2": (2, "lib:atan2"), "hypot": (2, "lib:hypot"),
    "fmod": (2, "lib:fmod"),
    "copysign": (2, r"copysign\.{t}"), "fma": (3, r"fma\.rn\.{t}"),
    "abs": (1, r"abs\.{t}"), "fabs": (1, r"abs\.{t}"),
    "floor": (1, r"cvt\.rmi\.{t}\.{t}"), "ceil": (1, r"cvt\.rpi\.{t}\.{t}"),
    "trunc": (1, r"cvt\.rzi\.{t}\.{t}"), "nearbyint": (1, r"cvt\.rni\.{t}\.{t}"),
    # Half-way cases away from zero: +-0.5 added toward zero, then truncated.
    "round": (1, r"add\.rz\.{t}[^\n]*\n[^\n]*cvt\.rzi\.{t}\.{t}"),
    "max": (2, r"max\.{t}"), "min": (2, r"min\.{t}"),
    "isnan": (1, r"setp\.(nan|num)\.{t}"),
    "isinf": (1, r"setp\.(eq|ne|neu|equ)\.{t}\s+%p\d+, %r[d]?\d+, 0[dD]?[fF]?(7F800000|7FF0000000000000)"),
    "isfinite": (1, r"setp\.(lt|ge|ltu|geu|ne|neu|eq|equ)\.{t}\s+%p\d+, %r[d]?\d+, 0[dD]?[fF]?(7F800000|7FF0000000000000)"),
}
# Fast math (f32 only): the approximate instructions of CUDA's
# --use_fast_math; every other function lowers as without it.
FAST_F32 = {
    "exp": [r"mul\.rn\.f32[^\n]*0f3FB8AA3B", r"ex2\.approx\.ftz\.f32"],
    "exp2": [r"ex2\.approx\.ftz\.f32"],
    "exp10": [r"mul\.rn\.f32[^\n]*0f40549A78", r"ex2\.approx\.ftz\.f32"],
    "log": [r"lg2\.approx\.ftz\.f32", r"mul\.rn\.f32[^\n]*0f3F317218"],
    "log2": [r"lg2\.approx\.ftz\.f32"],
    "log10": [r"lg2\.approx\.ftz\.f32", r"mul\.rn\.f32[^\n]*0f3E9A209B"],
    "sqrt": [r"sqrt\.approx\.ftz\.f32"], "rsqrt": [r"rsqrt\.approx\.ftz\.f32"],
    "sin": [r"sin\.approx\.ftz\.f32"], "cos": [r"cos\.approx\.ftz\.f32"],
    "tan": [r"sin\.approx\.ftz\.f32", r"cos\.approx\.ftz\.f32", r"div\.approx\.ftz\.f32"],
    "tanh": [r"tanh\.approx\.f32"],
    "pow": [r"lg2\.approx\.ftz\.f32", r"ex2\.approx\.ftz\.f32"],
    "sigmoid": [r"ex2\.approx\.ftz\.f32", r"div\.approx\.ftz\.f32"],
}
INTEGER = {"abs": r"abs\.s32", "max": r"max\.s32", "min": r"min\.s32",
           "clz": r"clz\.b32", "popcount": r"popc\.b32"}
ALL = sorted(set(PRECISE) | set(INTEGER))


def kernel(function):
    """A one-CTA kernel applying the scalar `function(x, y, z)` (float32
    elements of A and B, and 0.5) to A in place."""
    @T.function
    def k(A: T.Tensor((2, 32, 4), "float32", align=16),
          B: T.Tensor((2, 32, 4), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        a = T.alloc_local((2, 32, 4), "float32", layout=LAYOUT)
        b = T.alloc_local((2, 32, 4), "float32", layout=LAYOUT)
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], a, A, scope="cta")
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], b, B, scope="cta")
        T.cuda.tile.ewise(function, a, a, b, T.float32(0.5), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], A, a, scope="cta")
    return k


def float_kernel(name, dtype):
    """T.<name> of `dtype` values (converted from and back to float32)."""
    arity = PRECISE[name][0]
    d = getattr(T, dtype)
    f = getattr(T, name)

    @T.function(private=True)
    def scalar(x: T.float32, y: T.float32, z: T.float32) -> T.float32:
        args = [d(v) if dtype != "float32" else v for v in (x, y, z)][:arity]
        if dtype == "float64":
            # Values no float32 holds, so that LLVM cannot narrow the function
            # of a widened float32 to float32 (ceil(fpext x) = fpext(ceil x)).
            args = [a / 3.0 for a in args]
        result = f(*args)
        if result.dtype is not d:  # isnan/isinf/isfinite: a condition
            return T.if_then_else(result, x, y)
        if dtype == "float64":
            result = result / 3.0  # nor narrow the function of its result
        return T.float32(result) if dtype != "float32" else result
    scalar.__name__ = "%s_%s" % (name, dtype)
    return kernel(scalar)


def compile_float(name, dtype, fast=False):
    return tirx.compile(float_kernel(name, dtype), target=FAST if fast else TARGET)


def libdevice_calls(compiled):
    ir = compiled.mlir["convert-gpu-to-nvvm"]
    return set(re.findall(r"llvm\.call @(__nv_\w+)\(", ir))


def body(ptx):
    """The kernel's instructions."""
    return ptx[ptx.index(".entry"):]


def check_precise(compiled, name, dtype):
    _, lowering = PRECISE[name]
    calls = libdevice_calls(compiled)
    if lowering.startswith("lib:"):
        function = "__nv_" + lowering[4:] + ("" if dtype == "float64" else "f")
        assert function in calls, (name, dtype, calls)
    elif dtype in ("float32", "float64"):
        pattern = lowering.replace("{t}", SUFFIX[dtype])
        assert re.search(pattern, body(compiled.ptx)), (name, dtype, pattern)
        # (libdevice's functions use approximate instructions inside, such as
        # expf's ex2.approx after range reduction; exact ones never do.)
        assert "approx" not in body(compiled.ptx), (name, dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", sorted(PRECISE))
def test_precise(name, dtype):
    check_precise(compile_float(name, dtype), name, dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", sorted(PRECISE))
def test_fast(name, dtype):
    compiled = compile_float(name, dtype, fast=True)
    if dtype != "float32" or name not in FAST_F32:
        # Other types, and functions CUDA's fast math keeps: as precise.
        check_precise(compiled, name, dtype)
        return
    ptx = body(compiled.ptx)
    for pattern in FAST_F32[name]:
        assert re.search(pattern, ptx), (name, pattern)
    assert not libdevice_calls(compiled), (name, libdevice_calls(compiled))


def test_hypot_keeps_libdevice_under_fast_math():
    """CUDA's fast math has no hypot approximation: the marked square root
    is not sqrt.approx."""
    compiled = compile_float("hypot", "float32", fast=True)
    assert "__nv_hypotf" in libdevice_calls(compiled)
    # (libdevice's hypotf has a sqrt.approx.f32 of its own, not .ftz.)
    assert "sqrt.approx.ftz" not in body(compiled.ptx)


def test_precise_sqrt_is_correctly_rounded():
    """libdevice's __nv_sqrtf would be sqrt.approx.f32 (its __CUDA_PREC_SQRT
    reflection is off); CUDA's sqrtf is sqrt.rn.f32, and so is ours, also for
    f16 and bf16 (computed in f32)."""
    for dtype in ("float32", "float16", "bfloat16"):
        ptx = body(compile_float("sqrt", dtype).ptx)
        assert "sqrt.rn.f32" in ptx and "sqrt.approx" not in ptx, dtype


def test_half_precision_calls_in_float32():
    """f16 and bf16 libdevice functions are computed in f32 and rounded."""
    for dtype, cvt in (("float16", "cvt.rn.f16.f32"), ("bfloat16", "cvt.rn.bf16.f32")):
        compiled = compile_float("exp", dtype)
        assert "__nv_expf" in libdevice_calls(compiled)
        assert cvt in body(compiled.ptx)


@pytest.mark.parametrize("name", sorted(INTEGER))
def test_integers(name):
    f = getattr(T, name)
    arity = 2 if name in ("max", "min") else 1

    @T.function(private=True)
    def scalar(x: T.float32, y: T.float32, z: T.float32) -> T.float32:
        args = (T.int32(x), T.int32(y))[:arity]
        return T.float32(f(*args))
    scalar.__name__ = "%s_int32" % name
    compiled = tirx.compile(kernel(scalar), target=TARGET)
    assert re.search(INTEGER[name], body(compiled.ptx)), name
    assert not libdevice_calls(compiled) - {"__nv_abs"}, libdevice_calls(compiled)


def test_integer_widths():
    """clz is an int32 whatever the width (TVM's), popcount of the type;
    unsigned max/min compare unsigned."""
    seen = {}

    @T.function(private=True)
    def scalar(x: T.float32, y: T.float32, z: T.float32) -> T.float32:
        wide = T.int64(x)
        seen["clz"] = T.clz(wide).dtype
        seen["popcount"] = T.popcount(wide).dtype
        return T.float32(T.clz(wide)) + T.float32(T.popcount(wide))
    compiled = tirx.compile(kernel(scalar), target=TARGET)
    assert seen == {"clz": T.int32, "popcount": T.int64}
    assert re.search(r"clz\.b64", compiled.ptx) and re.search(r"popc\.b64", compiled.ptx)


def test_max_min_with_python_numbers_and_nan_semantics():
    """T.max(x, 0.0) takes a Python number as a constant of x's type; floats
    use max.f32 (maxNum: a NaN operand gives the other)."""
    @T.function(private=True)
    def relu(x: T.float32, y: T.float32, z: T.float32) -> T.float32:
        return T.min(T.max(x, 0.0), 6)
    ptx = body(tirx.compile(kernel(relu), target=TARGET).ptx)
    assert re.search(r"max\.f32\s+%r\d+, %r\d+, 0f00000000", ptx)
    assert re.search(r"min\.f32\s+%r\d+, %r\d+, 0f40C00000", ptx)
    assert "NaN" not in ptx


def test_exp10_is_pow_of_ten():
    """T.exp10 traces as pow(10, x) and T.pow(10, x) is exp10 too."""
    @T.function(private=True)
    def ten(x: T.float32, y: T.float32, z: T.float32) -> T.float32:
        return T.pow(10.0, x) + T.pow(x, y)
    calls = libdevice_calls(tirx.compile(kernel(ten), target=TARGET))
    assert {"__nv_exp10f", "__nv_powf"} <= calls


def test_round_and_nearbyint_differ():
    """T.round is roundf (half away from zero), T.nearbyint rintf (half to
    even): cvt.rni only for nearbyint."""
    assert "cvt.rni" not in body(compile_float("round", "float32").ptx)
    assert "cvt.rni.f32.f32" in body(compile_float("nearbyint", "float32").ptx)


def test_every_math_function_is_documented():
    """docs/python.md's table lists every T math function and no other."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    text = open(os.path.join(root, "docs", "python.md")).read()
    section = text[text.index("## Math functions"):]
    section = section[:section.index("\n## ", 3)] if "\n## " in section[3:] else section
    first_cells = re.findall(r"^\| (`T\..*?) \|", section, re.M)
    documented = {name for cell in first_cells for name in re.findall(r"`T\.(\w+)\(", cell)}
    assert documented == set(ALL), (sorted(set(ALL) - documented),
                                    sorted(documented - set(ALL)))


#===----------------------------------------------------------------------===#
# Errors
#===----------------------------------------------------------------------===#

def raises(message):
    return pytest.raises(tirx.CompileError, match=re.escape(message))


def line_of(marker):
    return helpers.line_of(__file__, marker)


def trace(function):
    return tirx.compile(kernel(function), target=TARGET)


def test_float_function_of_an_integer():
    @T.function(private=True)
    def integer(x: T.float32, y: T.float32, z: T.float32) -> T.float32:
        return T.float32(T.exp(T.int32(x)))  # MARK-exp-int
    with raises(line_of("MARK-exp-int") + "T.exp needs a float (float16, bfloat16, "
                "float32 or float64), got a value of type int32"):
        trace(integer)

    @T.function(private=True)
    def pow_int(x: T.float32, y: T.float32, z: T.float32) -> T.float32:
        return T.float32(T.pow(T.int32(x), 2))  # MARK-pow-int
    with raises(line_of("MARK-pow-int") + "T.pow needs a float (float16, bfloat16, "
                "float32 or float64), got a value of type int32"):
        trace(pow_int)


def test_integer_function_of_a_float():
    @T.function(private=True)
    def clz_float(x: T.float32, y: T.float32, z: T.float32) -> T.float32:
        return T.float32(T.clz(x))  # MARK-clz-float

    @T.function(private=True)
    def clz_constant(x: T.float32, y: T.float32, z: T.float32) -> T.float32:
        return x + T.float32(T.clz(7))  # MARK-clz-constant
    with raises(line_of("MARK-clz-constant") + "T.clz needs a traced integer value (a "
                "parameter of the scalar function or a value computed from one), got 7"):
        trace(clz_constant)
    with raises(line_of("MARK-clz-float") + "T.clz needs an integer, got a value of "
                "type float32"):
        trace(clz_float)


def test_condition_is_not_a_number():
    @T.function(private=True)
    def of_condition(x: T.float32, y: T.float32, z: T.float32) -> T.float32:
        return T.if_then_else(T.abs(x > y), x, y)  # MARK-abs-bool
    with raises(line_of("MARK-abs-bool") + "T.abs needs a float or an integer, got a "
                "value of type bool"):
        trace(of_condition)


def test_untraced_arguments():
    @T.function(private=True)
    def constant(x: T.float32, y: T.float32, z: T.float32) -> T.float32:
        return T.exp(T.float32(1))  # MARK-exp-const
    with raises(line_of("MARK-exp-const") + "T.exp needs a traced float value (a parameter "
                "of the scalar function or a value computed from one), got T.float32(1)"):
        trace(constant)

    @T.function(private=True)
    def numbers(x: T.float32, y: T.float32, z: T.float32) -> T.float32:
        return x + T.max(1.0, 2)  # MARK-max-numbers
    with raises(line_of("MARK-max-numbers") + "T.max needs a traced number value (a "
                "parameter of the scalar function or a value computed from one), got 1.0, 2"):
        trace(numbers)


def test_mixed_types():
    @T.function(private=True)
    def mixed(x: T.float32, y: T.float32, z: T.float32) -> T.float32:
        return T.pow(x, T.float16(y))  # MARK-mixed
    with raises(line_of("MARK-mixed") + "operands of different types (f32 and f16); "
                "write the cast explicitly"):
        trace(mixed)


@pytest.mark.parametrize("name, args, message", [
    ("exp", 2, "T.exp(x) takes 1 argument, got 2"),
    ("pow", 1, "T.pow(x, y) takes 2 arguments, got 1"),
    ("atan2", 3, "T.atan2(x1, x2) takes 2 arguments, got 3"),
    ("fma", 2, "T.fma(x, y, z) takes 3 arguments, got 2"),
    ("isnan", 0, "T.isnan(x) takes 1 argument, got 0"),
])
def test_arity(name, args, message):
    f = getattr(T, name)

    @T.function(private=True)
    def wrong(x: T.float32, y: T.float32, z: T.float32) -> T.float32:
        return f(*(x, y, z)[:args])  # MARK-arity
    with raises(line_of("MARK-arity") + message):
        trace(wrong)


def test_unknown_keyword():
    @T.function(private=True)
    def keyword(x: T.float32, y: T.float32, z: T.float32) -> T.float32:
        return T.pow(x, exponent=y)  # MARK-keyword
    with raises(line_of("MARK-keyword") + "T.pow(x, y) got an unexpected keyword "
                "argument 'exponent'"):
        trace(keyword)


def test_keywords_bind_by_name():
    @T.function(private=True)
    def named(x: T.float32, y: T.float32, z: T.float32) -> T.float32:
        return T.atan2(x2=x, x1=y)
    ir = tirx.compile(kernel(named), target=TARGET).mlir["input"]
    # TVM's atan2(x1, x2) is C's atan2(x1, x2): the angle of (x2, x1).
    assert re.search(r"math\.atan2 %arg1, %arg0 : f32", ir), ir


#===----------------------------------------------------------------------===#
# test/gpu/run_math.py: its CPU side (the GPU run is the bundle's)
#===----------------------------------------------------------------------===#

def run_math():
    import importlib.util
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    spec = importlib.util.spec_from_file_location(
        "run_math", os.path.join(root, "gpu", "run_math.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_run_math_kernels_compile():
    """Every kernel the GPU accuracy run launches compiles (for sm_90), and
    its bounds cover exactly the float functions of T."""
    module = run_math()
    assert set(module.BOUNDS) == set(PRECISE) - {"fabs", "isnan", "isinf", "isfinite"}
    compiled = module.compile_all("sm_90")
    assert len(compiled) == len(module.BOUNDS) * 5
    ptx = compiled["exp", "float64", "precise"].ptx
    assert "ld.global.v2.b64" in ptx and "st.global.v2.b64" in ptx
    assert "ex2.approx.ftz.f32" in compiled["exp", "float32", "fast"].ptx


def test_run_math_ulp_distance():
    module = run_math()
    np = pytest.importorskip("numpy")
    f32 = np.float32
    result = np.array([1, np.inf, np.nan, -0.0, 0, -1, 1], f32)
    expected = np.array([np.nextafter(f32(1), f32(2)), np.finfo(f32).max, np.nan, 0, np.nan,
                         -1, -1], f32)
    # 1 ulp; infinity one past the largest float; -0 = +0; 1 vs -1 is
    # 2 * 0x3F800000 ulp; one NaN disagreement.
    assert module.ulp_distance(module.float_bits(result), module.float_bits(expected)) == \
        (2 * 0x3F800000, 1)
    tiny = np.array([5e-324, -np.inf]), np.array([-5e-324, np.inf])
    assert module.ulp_distance(*map(module.float_bits, tiny))[0] == 2 * 0x7FF0000000000000
    half = np.array([65504, np.inf], np.float16), np.array([np.inf, np.inf], np.float16)
    assert module.ulp_distance(*map(module.float_bits, half)) == (1, 0)


def test_run_math_long_double_references():
    module = run_math()
    np = pytest.importorskip("numpy")
    if np.finfo(np.longdouble).nmant < 63:
        pytest.skip("long double is a double here")
    x = np.array([0.5, 1.0, 2.5, -2.5])
    y, z = x[::-1].copy(), x.copy()
    assert module.longdouble_reference("erf", x, y, z) is None
    assert list(module.longdouble_reference("round", x, y, z)) == [1.0, 1.0, 3.0, -3.0]
    assert list(module.longdouble_reference("nearbyint", x, y, z)) == [0.0, 1.0, 2.0, -2.0]
    assert module.longdouble_reference("exp", x, y, z)[1] == np.exp(1.0)


def test_sigmoid_never_overflows_exp():
    """exp takes -|x| (a select on x >= 0), never -x: 1 / (1 + exp(100))
    would be 0 where sigmoid(-100) is a subnormal (run_math.py measured
    2e6 ulp before). float16/bfloat16: exp in the type, the rest in float32
    and one rounding."""
    for dtype, t in (("float32", "f32"), ("float64", "f64"), ("float16", "f16")):
        ir = compile_float("sigmoid", dtype).mlir["input"]
        neg = re.search(r"(%\S+) = arith\.negf (%\S+) : " + t, ir)
        chosen = re.search(r"(%\S+) = arith\.select (%\S+), " + re.escape(neg.group(1)) +
                           ", " + re.escape(neg.group(2)) + " : " + t, ir)
        assert chosen and re.search(r"math\.exp " + re.escape(chosen.group(1)) + " : " + t, ir)
        assert "math.exp" in ir and not re.search(r"math\.exp " + re.escape(neg.group(1)), ir)
        if dtype == "float16":
            assert "arith.extf" in ir and "arith.truncf" in ir
            assert re.search(r"arith\.divf [^\n]* : f32", ir)
