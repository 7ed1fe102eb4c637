"""Combined conditions in the DSL (docs/python.md#conditions): `&`, `|`, `^`
and `~` on traced conditions trace arith.andi/ori/xori (`~` of a comparison is
the inverted comparison), Python bools fold, and the result works in T.If,
pred= and T.if_then_else; the bounds proof follows them (docs/bounds.md).
`&`, `|`, `^`, `~` on traced integers are bitwise; `and`/`or`/`not` keep
their located error, which names the operators."""
import re

import pytest

import helpers

import tirx
from tirx.script import tirx as T
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, warpid

TARGET = {"kind": "cuda", "arch": "sm_90"}
LAYOUT = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


def raises(message):
    """pytest.raises(CompileError) expecting `message` verbatim."""
    return pytest.raises(tirx.CompileError, match=re.escape(message))


def line_of(marker):
    return helpers.line_of(__file__, marker)


def compile_kernel(kernel):
    return tirx.compile(kernel, target=TARGET)


def tile_kernel(guard, use="pred"):
    """A (M, N) float copy, one element per thread of a 32 x 8 block, the
    load and store guarded by guard(r, c, M, N): as pred= of both, or as a
    T.If around them."""
    M, N = T.dynamic("M"), T.dynamic("N")

    @T.function
    def k(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        T.device_entry(launch=T.cuda.LaunchConfig(
            grid=(T.ceildiv(N, 32), T.ceildiv(M, 8)), block=(32, 8)))
        c = T.cuda.block_idx("x") * 32 + T.cuda.thread_idx("x")
        r = T.cuda.block_idx("y") * 8 + T.cuda.thread_idx("y")
        regs = T.alloc_local((1,), "float32")
        cond = guard(r, c, M, N)
        if use == "pred":
            T.cuda.tile.apply(T.ptx["ld.global.b32"], regs, A.sub[r, c], scope="thread", pred=cond)  # MARK-pred-load
            T.cuda.tile.apply(T.ptx["st.global.b32"], B.sub[r, c], regs, scope="thread", pred=cond)
        else:
            with T.If(cond):
                with T.Then():
                    T.cuda.tile.apply(T.ptx["ld.global.b32"], regs, A.sub[r, c], scope="thread")  # MARK-if-load
                    T.cuda.tile.apply(T.ptx["st.global.b32"], B.sub[r, c], regs, scope="thread")
    return k


#===------------------------------------------------------------------------===#
# What they trace
#===------------------------------------------------------------------------===#

def test_and_or_xor_trace_arith_ops():
    # In bounds: both cases of the disjunction have r < M and c < N (the xor
    # is a part the proof leaves out).
    ir = compile_kernel(tile_kernel(
        lambda r, c, M, N: (r < M) & (c < N) & (((r < 4) ^ (c < 4)) | (r < 8)))).source_ir
    assert re.search(r"%s\d+ = arith.andi %cmp\d+, %cmp\d+ : i1", ir)
    assert re.search(r"%s\d+ = arith.xori %cmp\d+, %cmp\d+ : i1", ir)
    assert re.search(r"%s\d+ = arith.ori %s\d+, %cmp\d+ : i1", ir)


def test_invert_of_a_comparison_is_the_inverted_comparison():
    ir = compile_kernel(tile_kernel(lambda r, c, M, N: ~(r >= M) & ~(c >= N))).source_ir
    inverted = re.findall(r"%(not\d+) = arith.cmpi slt, %s\d+, %([MN])", ir)
    assert [size for _, size in inverted] == ["M", "N"]
    assert "arith.xori" not in ir
    # `~~x` is x's own predicate again.
    ir = compile_kernel(tile_kernel(lambda r, c, M, N: ~~(r < M) & (c < N))).source_ir
    assert re.search(r"%not\d+ = arith.cmpi sge, %s\d+, %M", ir)
    assert re.search(r"%not\d+ = arith.cmpi slt, %s\d+, %M", ir)


def test_invert_of_a_combination_is_xori_with_true():
    ir = compile_kernel(tile_kernel(lambda r, c, M, N: ~((r >= M) | (c >= N)))).source_ir
    match = re.search(r"%(c\d+) = arith.constant true", ir)
    assert match
    assert re.search(r"%not\d+ = arith.xori %s\d+, %" + match.group(1) + " : i1", ir)


def test_python_bools_fold():
    def count(guard, op):
        return compile_kernel(tile_kernel(guard)).source_ir.count(op)
    # cond & True and cond | False are cond; cond ^ True is ~cond.
    assert count(lambda r, c, M, N: ((r < M) & True) & ((c < N) | False), "arith.andi") == 1
    assert count(lambda r, c, M, N: (True & (r < M)) & (False | (c < N)), "arith.ori") == 0
    ir = compile_kernel(tile_kernel(lambda r, c, M, N: ((r >= M) ^ True) & ((c >= N) ^ True))).source_ir
    assert "arith.xori" not in ir and ir.count("arith.cmpi slt") >= 2
    # cond & False never holds, cond | True always does: constants.
    ir = compile_kernel(tile_kernel(lambda r, c, M, N: ((r < M) & (c < N)) & False)).source_ir
    assert re.search(r"arith.constant false", ir) and "arith.andi" not in ir.split("false")[1]
    ir = compile_kernel(tile_kernel(lambda r, c, M, N: ((r < M) & (c < N)) & ((r < 0) | True))).source_ir
    assert "arith.constant true" in ir and "arith.ori" not in ir


def test_float_comparison_inverts_to_unordered():
    @T.function(private=True)
    def clamp(x: T.float32) -> T.float32:
        return T.if_then_else(~(x < T.float32(0)) & (x <= T.float32(6)), x, T.float32(0))

    compiled = compile_kernel(scalar_kernel(clamp))
    ir = compiled.source_ir
    # not (x < 0) is x >= 0 or unordered: NaN passes, as `not` would let it.
    assert re.search(r"arith.cmpf uge, %x\d*, %c\d+ : f32", ir) or \
        re.search(r"arith.cmpf uge, %\w+, %\w+ : f32", ir)
    assert re.search(r"arith.andi %not\d+, %cmp\d+ : i1", ir)
    assert re.search(r"arith.select %s\d+, ", ir)
    assert "selp.f32" in compiled.ptx or "selp.b32" in compiled.ptx


#===------------------------------------------------------------------------===#
# The bounds proof follows them
#===------------------------------------------------------------------------===#

@pytest.mark.parametrize("use", ["pred", "if"])
@pytest.mark.parametrize("guard", [
    lambda r, c, M, N: (r < M) & (c < N),
    lambda r, c, M, N: ~(r >= M) & ~(c >= N),
    lambda r, c, M, N: ~((r >= M) | (c >= N)),
    lambda r, c, M, N: ((r >= M) | (c >= N)) ^ True,
], ids=["and", "not-and-not", "not-or", "xor-true"])
def test_combined_guard_proves_the_access(guard, use):
    ptx = compile_kernel(tile_kernel(guard, use)).ptx
    assert "ld.global.f32" in ptx or "ld.global.b32" in ptx


def test_disjunction_is_refused_with_a_witness():
    # (r < M) | (c < N): a row in range lets any column through. The witness
    # satisfies the guard (case 1: r < M), at the user's line.
    for use, marker in [("pred", "MARK-pred-load"), ("if", "MARK-if-load")]:
        with raises(line_of(marker) + "error: 'tile.apply' op operand #1 (addr) of "
                    "'ld.global.b32' may read index "):
            compile_kernel(tile_kernel(lambda r, c, M, N: (r < M) | (c < N), use))
    with pytest.raises(tirx.CompileError) as caught:
        compile_kernel(tile_kernel(lambda r, c, M, N: (r < M) | (c < N)))  # MARK-or
    message = str(caught.value)
    witness = re.search(r"may read index (\d+) of dimension (\d) of kernel argument #0 "
                        r"\(extent (\w)\): with (.*)", message)
    assert witness, message
    index, dim, extent = int(witness.group(1)), int(witness.group(2)), witness.group(3)
    values = dict(re.findall(r"(\w+(?:\.\w)?) = (-?\d+)", witness.group(4)))
    # The index is outside its extent, and the witness satisfies the guard.
    assert index >= int(values[extent])
    r = int(values.get("block_idx.y", 0)) * 8 + int(values.get("thread_idx.y", 0))
    c = int(values.get("block_idx.x", 0)) * 32 + int(values.get("thread_idx.x", 0))
    assert (dim, index) == ((1, c) if dim == 1 else (0, r))
    assert r < int(values["M"]) or c < int(values["N"])
    assert "note: the guard's disjunctions split it into 2 cases, each a conjunction of " \
        "comparisons proven on its own: the witness is in case" in message


#===------------------------------------------------------------------------===#
# Integers: bitwise
#===------------------------------------------------------------------------===#

def test_integer_bitwise_ops():
    @T.function(private=True)
    def bits(x: T.int32) -> T.int32:
        return (~x & 0xFF) | (x ^ T.int32(3))

    compiled = compile_kernel(scalar_kernel(bits, "int32"))
    ir = compiled.source_ir
    assert re.search(r"%c\d+ = arith.constant -1 : i32", ir)
    assert re.search(r"%not\d+ = arith.xori %\w+, %c\d+ : i32", ir)
    assert re.search(r"arith.andi %not\d+, %c\d+ : i32", ir)
    assert re.search(r"arith.ori %s\d+, %s\d+ : i32", ir)
    assert "xor.b32" in compiled.ptx or "not.b32" in compiled.ptx


def scalar_kernel(function, dtype="float32"):
    """A[...] = function(A[...]) over 256 elements, 64 threads."""
    @T.function
    def k(A: T.Tensor((2, 32, 4), dtype, align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
        regs = T.alloc_local((2, 32, 4), dtype, layout=LAYOUT)
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], regs, A, scope="cta")
        T.cuda.tile.ewise(function, regs.view(2, 32, 4, 1), regs.view(2, 32, 4, 1),
                          scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], A, regs, scope="cta")
    return k


def test_bitwise_errors():
    @T.function(private=True)
    def float_and(x: T.float32) -> T.float32:
        return x & x  # MARK-float-and
    with raises(line_of("MARK-float-and") + "`&` needs conditions or integers, got a "
                "float32 value"):
        compile_kernel(scalar_kernel(float_and))

    @T.function(private=True)
    def float_not(x: T.float32) -> T.float32:
        return ~x  # MARK-float-not
    with raises(line_of("MARK-float-not") + "`~` needs a condition or an integer, got a "
                "float32 value"):
        compile_kernel(scalar_kernel(float_not))

    @T.function(private=True)
    def mixed(x: T.int32) -> T.int32:
        return T.if_then_else((x > 0) | x, x, 0)  # MARK-mixed
    with raises(line_of("MARK-mixed") + "`|` of a condition and an integer; compare the "
                "integer first (`x != 0`) or cast the condition (T.int32(cond))"):
        compile_kernel(scalar_kernel(mixed, "int32"))

    @T.function(private=True)
    def int_literal(x: T.int32) -> T.int32:
        return T.if_then_else((x > 0) ^ 1, x, 0)  # MARK-int-literal
    with raises(line_of("MARK-int-literal") + "`^` combines a condition with a condition "
                "or a Python bool, got 1"):
        compile_kernel(scalar_kernel(int_literal, "int32"))

    @T.function(private=True)
    def int_and_bool(x: T.int32) -> T.int32:
        return x & True  # MARK-int-bool
    with raises(line_of("MARK-int-bool") + "`&` of an integer needs an integer, got True"):
        compile_kernel(scalar_kernel(int_and_bool, "int32"))

    @T.function(private=True)
    def widths(x: T.int32) -> T.int32:
        return T.int32(T.int64(x) & x)  # MARK-widths
    with raises(line_of("MARK-widths") + "operands of different types (i64 and i32); write "
                "the cast explicitly"):
        compile_kernel(scalar_kernel(widths, "int32"))


#===------------------------------------------------------------------------===#
# `and`, `or`, `not`: located errors naming the operators
#===------------------------------------------------------------------------===#

COMBINE = ("combine conditions with `&`, `|`, `^` and `~` (not `and`, `or`, `not`, or a "
           "chained comparison), parenthesizing each comparison: `(r < M) & (c < N)`, "
           "since `&` binds tighter than `<`")


def test_and_or_not_name_the_operators():
    def guard_and(r, c, M, N):
        return (r < M) and (c < N)  # MARK-and
    def guard_or(r, c, M, N):
        return (r < M) or (c < N)  # MARK-or-kw
    def guard_not(r, c, M, N):
        return not (r >= M)  # MARK-not
    def guard_chain(r, c, M, N):
        return 0 <= r < M  # MARK-chain
    for guard, marker in [(guard_and, "MARK-and"), (guard_or, "MARK-or-kw"),
                          (guard_not, "MARK-not"), (guard_chain, "MARK-chain")]:
        with raises(line_of(marker) + "a traced value has no Python truth value (bool(), "
                    "and, or, not); branch with `with T.If(cond):` and `with T.Then():` / "
                    "`with T.Else():` blocks, or use T.if_then_else for a value; " + COMBINE):
            compile_kernel(tile_kernel(guard))


def test_unparenthesized_comparison():
    # `r < M & c < N` is `r < (M & c) < N`: a chained comparison.
    def guard(r, c, M, N):
        return r < 64 & c < N  # MARK-precedence
    with raises(line_of("MARK-precedence") + "a traced value has no Python truth value"):
        compile_kernel(tile_kernel(guard))
    with raises("`(r < M) & (c < N)`, since `&` binds tighter than `<`"):
        compile_kernel(tile_kernel(guard))


def test_python_if_with_and_names_the_operators():
    def guard(r, c, M, N):
        if (r < M) and (c < N):  # MARK-if-and
            pass
        return r < M
    with raises(line_of("MARK-if-and") + "a Python `if` on a traced value cannot be decided "
                "while tracing; branch with `with T.If(cond):` and `with T.Then():` / "
                "`with T.Else():` blocks (or T.if_then_else for a value, pred= for one "
                "instruction); " + COMBINE):
        compile_kernel(tile_kernel(guard))


def test_scalar_function_and_names_the_operators():
    @T.function(private=True)
    def relu6(x: T.float32) -> T.float32:
        return T.if_then_else(x > T.float32(0) and x < T.float32(6), x, T.float32(0))  # MARK-scalar-and
    with raises(line_of("MARK-scalar-and") + "a traced value has no Python truth value; use "
                "T.if_then_else; " + COMBINE):
        compile_kernel(scalar_kernel(relu6))


def test_bool_without_combination_has_the_generic_hint():
    def guard(r, c, M, N):
        return bool(r < M)  # MARK-bool
    with raises(line_of("MARK-bool") + "a traced value has no Python truth value (bool(), "
                "and, or, not); branch with `with T.If(cond):` and `with T.Then():` / "
                "`with T.Else():` blocks, or use T.if_then_else for a value; combine "
                "conditions with `&`, `|`, `^` and `~`, parenthesizing each comparison: "
                "`(r < M) & (c < N)`"):
        compile_kernel(tile_kernel(guard))
