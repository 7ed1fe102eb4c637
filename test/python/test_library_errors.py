"""The library's misuse messages (tirx.rows, tirx.stream, tirx.ops,
tirx.pipeline, tirx.atoms) that no other test expects: each triggered by a
kernel (or call) misusing the API as a user would, and the whole message
asserted, located at the misusing line where it is a CompileError."""
import re

import pytest

import helpers

import tirx
from tirx import CompileError
from tirx.atoms import TmaLoad, TmaLoadMulticast
from tirx.ops import Kernels
from tirx.pipeline import TmaPipeline
from tirx.rows import Strip
from tirx.script import tirx as T
from tirx.stream import DynamicChunks

SM90 = {"kind": "cuda", "arch": "sm_90"}
SM90A = {"kind": "cuda", "arch": "sm_90a"}


def located(kernel, marker, target=SM90):
    """The CompileError compiling `kernel` raises, checked to be located at
    the line holding `marker`; its text."""
    with pytest.raises(CompileError) as error:
        tirx.compile(kernel, target=target)
    text = str(error.value)
    assert helpers.line_of(__file__, marker).rstrip(": ") + ":" in text, text
    return text


# -- tirx.rows -----------------------------------------------------------------


def strip_kernel(case):
    @T.function
    def misuse(X: T.Tensor((4, 1024), "float32", align=16),
               Y: T.Tensor((4, 1024), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=4, block=256))
        strip = Strip(1, warps=8)
        if case == "warps":
            Strip(1, warps=0)  # MARK-warps
        elif case == "not global":
            strip.load("ld.shared.v4.b32", X, 0)  # MARK-not-global
        elif case == "tile":
            strip.values(T.alloc_local((4, 32, 4), "float32"))  # MARK-tile
        elif case == "chunk tile":
            strip.copy("st.global.v4.b32", Y, strip.local((1, 2)), 0)  # MARK-chunk-tile
        elif case == "shared row":
            tile = strip.alloc()
            strip.copy("ld.global.v4.b32", tile, T.alloc_shared((1024,), "float32"))  # MARK-row
        elif case == "elements":
            strip.elements(strip.alloc())  # MARK-elements
        elif case == "partial":
            six = Strip(1, warps=8, words=6)  # 6 values: partial sums min(8, 6 / 2) = 3
            six.reduce(six.values(six.alloc()), "max.f32")  # MARK-partial
        elif case == "dot":
            x = strip.values(strip.alloc())
            strip.dot(x, x, width=8)  # MARK-dot
    return misuse


@pytest.mark.parametrize("case, marker, message", [
    ("warps", "MARK-warps", "Strip: warps must be a positive int or None (one warp), got 0"),
    ("not global", "MARK-not-global", "Strip: 'ld.shared.v4.b32' is no global load or store "
                                      "of 16- or 32-bit elements"),
    ("tile", "MARK-tile", "Strip: values needs a tile of the strip (registers led by (8, 32)), "
                          "got "),
    ("chunk tile", "MARK-chunk-tile", "Strip: a chunk copy needs a tile of the strip (32-bit "
                                      "registers of shape (8, 32, 1, 4)), got "),
    ("shared row", "MARK-row", "Strip: the row must be a global tensor, got "),
    ("elements", "MARK-elements", "Strip.elements needs a values() tile (threads..., n, 1), "
                                  "got shape (8, 32, 1, 4)"),
    ("partial", "MARK-partial", "Strip: 3 partial values per thread are no power of two"),
    ("dot", "MARK-dot", "Strip.dot: 4 values per thread are no multiple of 8 partial sums "
                        "(a power of two)"),
])
def test_strip_misuse(case, marker, message):
    text = located(strip_kernel(case), marker)
    assert message in text, text


# -- tirx.stream ---------------------------------------------------------------


def chunks_kernel(case):
    n = T.dynamic("n")

    @T.function
    def misuse(A: T.Tensor((n,), "float32", align=16),
               counter: T.Tensor((1,), "int32", align=4),
               wrong: T.Tensor((1,), "float32", align=4)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=8, block=128))
        if case == "grid":
            DynamicChunks(counter, T.ceildiv(n, 512), 0)  # MARK-grid
        elif case == "counter":
            DynamicChunks(wrong, T.ceildiv(n, 512), 8)  # MARK-counter
    return misuse


@pytest.mark.parametrize("case, marker, message", [
    ("grid", "MARK-grid", "DynamicChunks: grid must be a positive int (the launch's CTAs), "
                          "got 0"),
    ("counter", "MARK-counter", "DynamicChunks: the counter must be a global (1,) int32 tensor, "
                                "got "),
])
def test_dynamic_chunks_misuse(case, marker, message):
    text = located(chunks_kernel(case), marker)
    assert message in text, text


# -- tirx.ops ------------------------------------------------------------------


def test_kernels_needs_a_function():
    with pytest.raises(TypeError, match=re.escape(
            "Kernels needs a function making a kernel from a configuration, got 42")):
        Kernels(42)


# -- tirx.pipeline -------------------------------------------------------------


def pipeline_kernel(case):
    @T.function
    def stream(A: T.Tensor((64, 512), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
        sa = T.alloc_shared((2, 64, 64), "bfloat16", align=128)
        if case == "unbound":
            unbound = TmaLoad.of(2, "shared::cluster")
            TmaPipeline(2, buffers=(sa,), loads=(unbound,), consumers=1)  # MARK-unbound
            return
        pipe = TmaPipeline(2, buffers=(sa,), consumers=1)
        tid = T.cuda.thread_idx("x")
        with T.If(tid == 0):
            with T.Then():
                pipe.init()
        T.cuda.cta_sync()
        with T.If(tid == 128):
            with T.Then():
                for kb in T.serial(0, 8):
                    with pipe.produce(kb) as stage:
                        k = kb * 64
                        atom = TmaLoadMulticast.of(2, box=(64, 64), dtype="bfloat16")
                        stage.load(sa[stage.index], A[0:64, k:k + 64], atom=atom)  # MARK-atom
    return stream


def test_pipeline_misuse():
    text = located(pipeline_kernel("unbound"), "MARK-unbound", SM90A)
    assert "TmaPipeline: TmaLoad(cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier" \
        "::complete_tx::bytes) is bound to no box: its bytes are unknown (make it with box= " \
        "and dtype=)" in text, text
    text = located(pipeline_kernel("atom"), "MARK-atom", SM90A)
    assert "TmaPipeline.load: atom must be a tirx.atoms.TmaLoad, got TmaLoadMulticast(" in text, \
        text


# -- tirx.atoms ----------------------------------------------------------------


def atom_kernel(case, cluster=2):
    mc = TmaLoadMulticast.of(2, box=(64, 64), dtype="bfloat16", swizzle=128)
    load = TmaLoad.of(2, "shared::cluster")

    @T.function
    def copy(A: T.Tensor((256, 512), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=4, block=128, cluster=cluster))
        bar = T.alloc_shared((1,), "uint64", align=8)
        bx = T.cuda.block_idx("x")
        if case == "box kind":
            load.box_bytes("64x64", "bfloat16")  # MARK-box-kind
        elif case == "extents":
            load.box_bytes((0, 64), "bfloat16")  # MARK-extents
        elif case == "staged":
            load.alloc_image((1, 8), "bfloat16", stages=2)  # MARK-staged
        elif case == "ctas":
            mc.tile(ctas=0)  # MARK-ctas
        elif case == "image":
            img = T.alloc_shared((32, 64), "bfloat16", align=1024)
            mc(img, A[0:64, 0:64], bar, ctas=2, rank=bx % 2, thread=0)  # MARK-image
        elif case == "mask":
            img = mc.alloc_image()
            mc(img, A[0:64, 0:64], bar, ctas=2, rank=bx % 2, thread=0)  # MARK-mask
    return copy


LOAD = "TmaLoad(cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes)"
MULTICAST = ("TmaLoadMulticast(cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
             "complete_tx::bytes.multicast::cluster)")


@pytest.mark.parametrize("case, cluster, marker, message", [
    ("box kind", 2, "MARK-box-kind",
     LOAD + ": a box is a region of a global tensor or a shape, got '64x64'"),
    ("extents", 2, "MARK-extents", LOAD + ": a box's extents are positive ints, got (0, 64)"),
    ("staged", 2, "MARK-staged",
     LOAD + ": a box of 16 bytes; staged images start at multiples of 128 bytes"),
    ("ctas", 2, "MARK-ctas", MULTICAST + ": ctas must be a positive int (the CTAs sharing the "
                                         "box, along x), got 0"),
    ("image", 2, "MARK-image", MULTICAST + ": the image (32, 64) holds no box (64, 64)"),
    ("mask", 4, "MARK-mask",
     MULTICAST + ": the ctaMask of a load tiled over 2 CTAs is derived for clusters of exactly "
                 "those CTAs (cluster=2), but the kernel's are (4,): give mask= (the ctaMask of "
                 "this CTA's group)"),
])
def test_tma_atom_misuse(case, cluster, marker, message):
    text = located(atom_kernel(case, cluster), marker, SM90A)
    assert message in text, text
