"""wgmma.mma_async from Python (docs/wgmma.md): D, A and B as tiles, scale_d,
scale_a/b and trans_a/b as keyword parameters, compiled to PTX at sm_90a
(no GPU needed); each misuse a located CompileError."""
import re

import pytest

import helpers

import tirx
from tirx.script import tirx as T
from tirx.layout import ComposeLayout, S, TileLayout
from tirx.cuda.axis import laneid, wid_in_wg

TARGET = {"kind": "cuda", "arch": "sm_90a"}


def accumulator(n):
    """The m64nNk16 f32 accumulator fragment."""
    return TileLayout(S[(4, 2, 8, n // 8, 4, 2)
                        : (1 @ wid_in_wg, 2, 4 @ laneid, 4, 1 @ laneid, 1)])


# K-major without swizzle: 8 x 16-byte core matrices, LBO 128, SBO 256.
K_MAJOR = TileLayout(S[(8, 8, 2, 8) : (128, 8, 64, 1)])
# MN-major (trans 1): 8 n of each k contiguous, the k halves 128 bytes apart.
MN_MAJOR_8 = TileLayout(S[(8, 2, 8) : (1, 64, 8)])
A_REGISTERS = TileLayout(S[(4, 2, 8, 2, 4) : (1 @ wid_in_wg, 1, 4 @ laneid, 2, 1 @ laneid)])


def raises(message):
    return pytest.raises(tirx.CompileError, match=re.escape(message))


def line_of(marker):
    return helpers.line_of(__file__, marker)


def kernel(body):
    @T.function
    def k():
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
        body()
    return k


def test_shared_a_and_b():
    def body():
        a = T.alloc_shared((64, 16), "bfloat16", align=16, layout=K_MAJOR)
        b = T.alloc_shared((64, 16), "bfloat16", align=16, layout=K_MAJOR)
        d = T.alloc_local((64, 64), "float32", layout=accumulator(64))
        T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"],
                          d, a, b, scale_d=1, scale_b=-1, scope="warpgroup")
    ptx = tirx.compile(kernel(body), target=TARGET).ptx
    assert ".target sm_90a" in ptx
    # LBO 128 (bits 16-29: 8), SBO 256 (bits 32-45: 16), start address added.
    assert len(re.findall(r"or\.b64\s+%rd\d+, %rd\d+, 68720001024;", ptx)) == 2
    assert re.search(r"wgmma\.mma_async\.sync\.aligned\.m64n64k16\.f32\.bf16\.bf16 "
                     r"\{(%r\d+, ){31}%r\d+\}, %rd\d+, %rd\d+, %p\d+, 1, -1, 0, 0;", ptx)


def test_register_a_and_mn_major_b():
    def body():
        a = T.alloc_local((64, 8), "uint32", layout=A_REGISTERS)
        b = T.alloc_shared((8, 16), "float16", align=16, layout=MN_MAJOR_8)
        d = T.alloc_local((64, 8), "float32", layout=accumulator(8))
        T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16"],
                          d, a, b, scale_d=0, trans_b=1, scope="warpgroup")
    ptx = tirx.compile(kernel(body), target=TARGET).ptx
    assert re.search(r"or\.b64\s+%rd\d+, %rd\d+, 524288;", ptx)
    assert re.search(r"wgmma\.mma_async\.sync\.aligned\.m64n8k16\.f32\.f16\.f16 "
                     r"\{(%r\d+, ){3}%r\d+\}, \{(%r\d+, ){3}%r\d+\}, %rd\d+, %p\d+, 1, 1, 1;",
                     ptx)


def shared_kernel(call):
    def body():
        a = T.alloc_shared((64, 16), "bfloat16", align=16, layout=K_MAJOR)
        b = T.alloc_shared((64, 16), "bfloat16", align=16, layout=K_MAJOR)
        d = T.alloc_local((64, 64), "float32", layout=accumulator(64))
        call(d, a, b)
    return kernel(body)


WGMMA = T.ptx["wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"]


def test_scale_d_is_required():
    def call(d, a, b):
        T.cuda.tile.apply(WGMMA, d, a, b, scope="warpgroup")  # NOSCALE
    with raises("%swgmma.mma_async needs scale_d= (0: D = A.B, 1: D = A.B + D)"
                % line_of("# NOSCALE")):
        tirx.compile(shared_kernel(call), target=TARGET)


def test_scale_d_is_zero_or_one():
    def call(d, a, b):
        T.cuda.tile.apply(WGMMA, d, a, b, scale_d=2, scope="warpgroup")  # SCALE2
    with raises("%sscale_d must be 0 or 1, got 2" % line_of("# SCALE2")):
        tirx.compile(shared_kernel(call), target=TARGET)


def test_unknown_parameter():
    def call(d, a, b):
        T.cuda.tile.apply(WGMMA, d, a, b, scale_d=1, chunk_bytes=16, scope="warpgroup")  # UNK
    with raises("%swgmma.mma_async has no parameter chunk_bytes (it takes scale_d, "
                "scale_a, scale_b, trans_a, trans_b)" % line_of("# UNK")):
        tirx.compile(shared_kernel(call), target=TARGET)


def test_trans_a_needs_a_shared_a():
    def body():
        a = T.alloc_local((64, 8), "uint32", layout=A_REGISTERS)
        b = T.alloc_shared((8, 16), "float16", align=16, layout=MN_MAJOR_8)
        d = T.alloc_local((64, 8), "float32", layout=accumulator(8))
        T.cuda.tile.apply(T.ptx["wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16"],  # TRANSA
                          d, a, b, scale_d=1, trans_a=1, scope="warpgroup")
    with raises("%strans_a: A in registers has no transpose (only a shared A does)"
                % line_of("# TRANSA")):
        tirx.compile(kernel(body), target=TARGET)


def test_sm_90_is_refused():
    def call(d, a, b):
        T.cuda.tile.apply(WGMMA, d, a, b, scale_d=1, scope="warpgroup")  # SM90
    with raises("%serror: 'tile.apply' op 'wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16' "
                "is an arch-specific sm_90a instruction, but the target is sm_90"
                % line_of("# SM90")):
        tirx.compile(shared_kernel(call), target={"kind": "cuda", "arch": "sm_90"})


def test_non_canonical_shared_b_is_located():
    def body():
        a = T.alloc_shared((64, 16), "bfloat16", align=16, layout=K_MAJOR)
        b = T.alloc_shared((64, 16), "bfloat16", align=16)
        d = T.alloc_local((64, 64), "float32", layout=accumulator(64))
        T.cuda.tile.apply(WGMMA, d, a, b, scale_d=1, scope="warpgroup")  # ROWMAJOR
    with raises("%serror: 'tile.apply' op operand #2 (b): the matrix at (0, 0) is not in a "
                "canonical wgmma layout: the 8 rows of a K-major core matrix are 16 bytes "
                "apart, but element (1, 0) is at byte 32" % line_of("# ROWMAJOR")):
        tirx.compile(kernel(body), target=TARGET)


def test_warp_scope_is_located():
    def call(d, a, b):
        T.cuda.tile.apply(WGMMA, d, a, b, scale_d=1, scope="warp")  # WARP
    with raises("%serror: 'tile.apply' op 'wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16' "
                "is a warpgroup-collective instruction: the 4 warps of a warpgroup execute "
                "it together, so it needs scope warpgroup or cta, not warp" % line_of("# WARP")):
        tirx.compile(shared_kernel(call), target=TARGET)


def test_128_byte_swizzled_operands():
    """A and B as TMA stores them: 128-byte rows XOR-swizzled (TIRx's
    ComposeLayout); the descriptor's layout type is 1, SBO 1024."""
    swizzled = ComposeLayout(3, 3, 3, TileLayout(S[(64, 16) : (64, 1)]))

    def body():
        a = T.alloc_shared((64, 16), "bfloat16", align=1024, layout=swizzled)
        b = T.alloc_shared((64, 16), "bfloat16", align=1024, layout=swizzled)
        d = T.alloc_local((64, 64), "float32", layout=accumulator(64))
        T.cuda.tile.apply(WGMMA, d, a, b, scale_d=1, scope="warpgroup")
    ptx = tirx.compile(kernel(body), target=TARGET).ptx
    assert len(re.findall(r"or\.b64\s+%rd\d+, %rd\d+, 4611686293305360384;", ptx)) == 2
    assert "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16" in ptx


def test_swizzled_tile_must_be_aligned_to_its_period():
    swizzled = ComposeLayout(3, 3, 3, TileLayout(S[(64, 16) : (64, 1)]))

    def body():
        a = T.alloc_shared((64, 16), "bfloat16", align=16, layout=swizzled)
        b = T.alloc_shared((64, 16), "bfloat16", align=16, layout=K_MAJOR)
        d = T.alloc_local((64, 64), "float32", layout=accumulator(64))
        T.cuda.tile.apply(WGMMA, d, a, b, scale_d=1, scope="warpgroup")  # PERIOD
    with raises("%serror: 'tile.apply' op operand #1 (a): the tensor is aligned to 16 byte(s) "
                "but its swizzle repeats every 1024 bytes" % line_of("# PERIOD")):
        tirx.compile(kernel(body), target=TARGET)
