"""Matrix and async families from Python (docs/matrix.md,
docs/async-copies.md): cp.async with chunk_bytes and its completion calls
(T.ptx.cp.async_.*), ldmatrix into mma fragments, the GEMM example down to
PTX (every instruction named, no local memory, dynamic shared memory past
48 KiB), and each misuse as a located CompileError at the user's line."""
import re

import pytest

import helpers

import tirx
from tirx.script import tirx as T
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid

import gemm

TARGET = {"kind": "cuda", "arch": "sm_90"}


def raises(message):
    return pytest.raises(tirx.CompileError, match=re.escape(message))


def line_of(marker):
    return helpers.line_of(__file__, marker)


def copy_kernel(body):
    @T.function
    def k(A: T.Tensor((32, 8), "bfloat16", align=16), B: T.Tensor((32, 8), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        s = T.alloc_shared((32, 8), "bfloat16", align=16)
        body(A, B, s)
    return k


def test_cp_async_and_its_completion():
    def body(A, B, s):
        T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], s, A, chunk_bytes=16, scope="warp")
        # Two 8-byte chunks per lane, zero-filled past 6 bytes of source.
        T.cuda.tile.apply(T.ptx["cp.async.ca.shared.global"], s.view(32, 2, 4),
                          B.view(32, 2, 4), chunk_bytes=8, src_size=6, scope="warp")
        T.ptx.cp.async_.commit_group()
        T.ptx.cp.async_.wait_group(0)
        T.ptx.cp.async_.wait_all()
        T.cuda.cta_sync()
    compiled = tirx.compile(copy_kernel(body), target=TARGET)
    ptx = compiled.ptx
    assert re.search(r"cp\.async\.cg\.shared\.global \[%rd\d+\], \[%rd\d+\], 0x00000010;", ptx)
    assert re.search(r"cp\.async\.ca\.shared\.global \[(%rd\d+)\+8\], \[%rd\d+\+8\], "
                     r"0x00000008, 0x00000006;", ptx)
    assert "cp.async.commit_group;" in ptx
    assert "cp.async.wait_group 0x00000000;" in ptx
    assert "cp.async.wait_all;" in ptx
    assert compiled.shared_bytes == 0  # 512 bytes: static
    assert ".extern .shared" not in ptx


def test_chunk_bytes_must_be_an_integer():
    def body(A, B, s):
        T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], s, A,  # CHUNK
                          chunk_bytes=16.0, scope="warp")
    with raises("%schunk_bytes must be an integer constant (4, 8 or 16), got 16.0"
                % line_of("# CHUNK")):
        tirx.compile(copy_kernel(body), target=TARGET)


def test_src_size_must_fit_32_bits():
    def body(A, B, s):
        T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], s, A,  # SRC
                          chunk_bytes=16, src_size=1 << 40, scope="warp")
    with raises("%ssrc_size: 1099511627776 does not fit 32 bits" % line_of("# SRC")):
        tirx.compile(copy_kernel(body), target=TARGET)


def test_wrong_chunk_is_located():
    def body(A, B, s):
        T.cuda.tile.apply(T.ptx["cp.async.cg.shared.global"], s, A, chunk_bytes=8, scope="warp")  # CG8
    with raises("%serror: 'tile.apply' op operand #2 (size) of 'cp.async.cg.shared.global': "
                "a .cg copy caches in L2 only and moves 16 bytes; got 8" % line_of("# CG8")):
        tirx.compile(copy_kernel(body), target=TARGET)


def test_wait_group_out_of_range_is_located():
    def body(A, B, s):
        T.ptx.cp.async_.wait_group(64)  # WAIT
    with raises("%serror: 'tile.apply' op operand #0 (n) of 'cp.async.wait_group': 64 "
                "pending groups is out of range: wait_group takes 0 to 63" % line_of("# WAIT")):
        tirx.compile(copy_kernel(body), target=TARGET)


def test_ldmatrix_with_a_wrong_fragment_is_located():
    wrong = TileLayout(S[(1, 8, 4) : (1, 1 @ laneid, 8 @ laneid)])

    def body(A, B, s):
        regs = T.alloc_local((1, 8, 4), "uint32", layout=wrong)
        rows = s.view("uint32").view(4, 8, 4)[0:1]
        T.cuda.tile.apply(T.ptx["ldmatrix.sync.aligned.m8n8.x1.shared.b16"], regs, rows, scope="warp")  # LDM
    with raises("%serror: 'tile.apply' op operand #0 (d): atom element 1 is held by "
                "laneid=8 in register 0" % line_of("# LDM")):
        tirx.compile(copy_kernel(body), target=TARGET)


@pytest.fixture(scope="module")
def gemm_256():
    return tirx.compile(gemm.make_kernel(256, 256, 128), target=TARGET)


def test_gemm_down_to_ptx(gemm_256):
    compiled = gemm_256
    ptx = compiled.ptx
    # The prologue's 3 stages and the first fragments, then the K loop (one
    # BK step, 2 k16 steps): per k16 step 4 x4 + 4 x4.trans ldmatrix
    # (repeats), 4 x 8 mma per warp.
    assert len(re.findall(r"ldmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16 ", ptx)) == 12
    assert len(re.findall(r"ldmatrix\.sync\.aligned\.m8n8\.x4\.trans\.shared\.b16 ", ptx)) == 12
    assert len(re.findall(r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.bf16\.bf16\.f32 ",
                          ptx)) == 64
    assert len(re.findall(r"cp\.async\.cg\.shared\.global ", ptx)) == 3 * 8 + 8
    assert "cp.async.wait_group 0x00000002;" in ptx
    assert ".local" not in ptx  # accumulators and fragments stay in registers
    # C: per warp and mma row (mi), 4 stmatrix.x4 of its bf16 pairs into
    # shared memory, then 16-byte chunks out, 4 per thread at a time.
    assert len(re.findall(r"stmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16 ", ptx)) == 16
    assert len(re.findall(r"ld\.shared\.v4\.b32 ", ptx)) == 16
    assert len(re.findall(r"st\.global\.v4\.b32 ", ptx)) == 16
    assert "st.global.b32" not in ptx
    # 4 stages of (128 x 32 + 32 x 128) halves, unpadded, and C's 128 x 128:
    # past 48 KiB, dynamic.
    assert compiled.shared_bytes == 65536 + 32768
    assert ".extern .shared .align 128 .b8 gemm_dsmem[];" in ptx


def test_gemm_is_proven_free_of_races():
    # Its cp.async pipeline (docs/races.md): each stage is read after its
    # step's wait_group and barrier and loaded again only after the barrier
    # that follows its reads. strict_races refuses what the proof leaves out.
    tirx.compile(gemm.make_kernel(256, 256, 128), target=dict(TARGET, strict_races=True))
    tirx.compile(gemm.make_kernel(256, 256, 256, STAGES=3),
                 target=dict(TARGET, strict_races=True))


def test_gemm_has_no_spills(gemm_256):
    # Fails when ptxas is found and gave no report; skips only without ptxas.
    helpers.ptxas_report(gemm_256)
    assert gemm_256.spill_bytes == 0


def test_gemm_rows_are_swizzled(gemm_256):
    # A's 64-byte rows take the 64B swizzle (chunk ^= row / 2 % 4), B's
    # 256-byte rows chunk ^= row % 8 (docs/gemm.md); the repeats of a copy
    # or an ldmatrix.x4 of A keep one address with immediate offsets.
    compiled = gemm_256
    assert "+ Swizzle[2, 2, 3]" in compiled.source_ir
    assert "+ Swizzle[2, 3, 4]" in compiled.source_ir
    assert "xor.b64" in compiled.ptx
    assert re.search(r"cp\.async\.cg\.shared\.global \[%rd(\d+)\+2048\], \[%rd\d+\+8192\]",
                     compiled.ptx)
    assert re.search(r"ldmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16 \{[^}]*\}, \[%rd\d+\+3072\];",
                     compiled.ptx)
    wide = gemm.make_kernel(256, 512, 128, BN=256, BK=64, WARPS_N=4, STAGES=3)
    source = tirx.compile(wide, target=TARGET).source_ir
    assert "+ Swizzle[2, 3, 3]" in source  # A: 128-byte rows
    assert "+ Swizzle[2, 3, 5]" in source  # B: 512-byte rows


def test_gemm_stores_c_from_registers_on_request():
    compiled = tirx.compile(gemm.make_kernel(256, 256, 128, EPILOGUE="global"), target=TARGET)
    assert len(re.findall(r"st\.global\.b32 ", compiled.ptx)) == 64
    assert "stmatrix" not in compiled.ptx
    assert compiled.shared_bytes == 65536
    with pytest.raises(AssertionError):
        gemm.make_kernel(256, 256, 128, EPILOGUE="tma")


def test_gemm_shapes_are_checked():
    with pytest.raises(AssertionError):
        gemm.make_kernel(256, 256, 64)  # 2 BK steps cannot fill 3 stages ahead


def test_view_with_a_layout_is_relative_to_a_static_region():
    lanes = TileLayout(S[(32, 2) : (1 @ laneid, 1)])

    def body(A, B, s):
        words = s.view("uint32").view(128)
        # Words 64.. of the storage, seen as 32 lanes x 2 words: the layout is
        # written from the region's start, which it keeps (+ 64).
        upper = words[64:128].view((32, 2), layout=TileLayout(S[(32, 2) : (2, 1)]))
        regs = T.alloc_local((32, 2), "uint32", layout=lanes)
        T.cuda.tile.apply(T.ptx["ld.shared.b32"], regs.view(32, 2, 1), upper.view(32, 2, 1),
                          scope="warp")
    compiled = tirx.compile(copy_kernel(body), target=TARGET)
    assert "S[(32, 2) : (2, 1)] + 64" in compiled.source_ir
    assert re.search(r"ld\.shared\.b32 %r\d+, \[%rd\d+\+4\];", compiled.ptx)


def test_gemm_k_loop_computes_its_stage():
    # K / BK = 7 steps over 4 stages: one loop of 7 iterations (not a
    # multiple of STAGES), its stage kb % 4 computed at run time; the copies
    # past K are predicated off, every step still commits a group.
    compiled = tirx.compile(gemm.make_kernel(128, 128, 224), target=TARGET)
    assert '.pragma "nounroll";' in compiled.ptx
    assert len(re.findall(r"cp\.async\.commit_group;", compiled.ptx)) == 3 + 1
    assert len(re.findall(r"mma\.sync\.aligned", compiled.ptx)) == 64
    assert len(re.findall(r"@%tirx_p cp\.async\.cg\.shared\.global", compiled.ptx)) == 8
