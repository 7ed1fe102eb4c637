"""tirx.atoms' TMA atoms (docs/library.md, "TMA atoms"; issue 35, item 4):
objects made from a named spelling (or a convenience constructor that spells
only what it is told) that give a box's shape and bytes, the shared image's
layout and alignment, a stage's expect-tx bytes and a one-thread issue call;
their tiling over the CTAs of a cluster, and Atom.tile's; TmaPipeline built
from load atoms. CPU only: kernels compile to PTX (ptxas-assembled when a
toolkit is found); misuse is a located CompileError."""
import re

import pytest

import helpers

import tirx
from tirx import CompileError
from tirx.atoms import (Atom, TensorMapPrefetch, TmaLoad, TmaLoadMulticast, TmaPrefetch,
                        TmaReduce, TmaStore)
from tirx.cuda.axis import bx, by, laneid, warpid, wgid
from tirx.layout import S, TileLayout
from tirx.pipeline import TmaPipeline
from tirx.script import tirx as T

TARGET = {"kind": "cuda", "arch": "sm_90a"}
HERE = r"test_tma_atoms.py:[0-9]+: "
LOAD = "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
MULTICAST = LOAD + ".multicast::cluster"
STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
REDUCE = "cp.reduce.async.bulk.tensor.2d.global.shared::cta.%s.tile.bulk_group"
PREFETCH = "cp.async.bulk.prefetch.tensor.2d.L2.global.tile"


def test_named_spellings_and_convenience_constructors():
    # The author names the instruction; .of spells what it is told.
    assert TmaLoad.of(2, "shared::cluster").spelling == LOAD
    assert TmaLoad(LOAD).spelling == LOAD
    assert TmaLoad.of(3, "shared::cta", cache_hint=True).spelling == (
        "cp.async.bulk.tensor.3d.shared::cta.global.tile.mbarrier::complete_tx::bytes"
        ".L2::cache_hint")
    assert TmaLoadMulticast.of(2).spelling == MULTICAST
    assert TmaStore.of(2).spelling == STORE
    assert TmaReduce.of(2, "max").spelling == REDUCE % "max"
    assert TmaReduce(REDUCE % "xor").op == "xor"
    assert TmaPrefetch.of(2).spelling == PREFETCH
    assert TensorMapPrefetch().spelling == "prefetch.tensormap"
    # Without .tile the same instruction, spelled as written.
    plain = TmaLoad("cp.async.bulk.tensor.5d.shared::cluster.global."
                    "mbarrier::complete_tx::bytes")
    assert (plain.rank, plain.cache_hint, plain.exec) == (5, False, "thread")
    assert TmaLoad.of(1, "shared::cluster", cache_hint=True).cache_hint
    assert TensorMapPrefetch().rank is None


def test_spellings_an_atom_refuses():
    cases = [
        (lambda: TmaLoad(STORE), "TmaLoad takes a TMA load (cp.async.bulk.tensor.Nd.shared::"
                                 "{cluster|cta}.global...), got '%s' (a "
                                 "cp.async.bulk.tensor.store: use TmaStore)" % STORE),
        (lambda: TmaLoad(MULTICAST), "(a cp.async.bulk.tensor.load.multicast: use "
                                     "TmaLoadMulticast)"),
        (lambda: TmaStore("ld.global.b32"), "TmaStore takes a TMA store (cp.async.bulk.tensor"
                                            ".Nd.global.shared::cta...bulk_group), got "
                                            "'ld.global.b32' (the table's form 'ld': not a TMA "
                                            "instruction)"),
        (lambda: TmaLoad("cp.async.bulk.tensor.6d.shared::cluster.global.tile."
                         "mbarrier::complete_tx::bytes"), "TmaLoad: 'cp.async.bulk.tensor.6d"),
        (lambda: TmaLoad.of(2, "shared"), "TmaLoad.of: the destination space is "
                                          "\"shared::cluster\" or \"shared::cta\", got 'shared'"),
        (lambda: TmaStore.of(6), "a tensor map has rank 1 to 5, got 6"),
        (lambda: TmaReduce.of(2, "mul"), "TmaReduce.of: the operation is one of add, min, max, "
                                         "inc, dec, and, or, xor, got 'mul'"),
    ]
    for make, message in cases:
        with pytest.raises(CompileError, match=HERE + ".*" + re.escape(message)):
            make()


def test_boxes_bytes_and_image_layouts():
    load = TmaLoad.of(2, "shared::cluster", box=(64, 64), dtype="bfloat16", swizzle=128)
    assert load.box_shape() == (64, 64)
    assert load.box_bytes() == load.expect_tx() == 8192
    assert load.image_layout() == TileLayout("S[(64, 64) : (64, 1)] + Swizzle[3, 3, 3]")
    assert load.image_alignment() == 1024
    # Any box, dtype and swizzle the author names: TMA's mode for the
    # element size (Swizzle[4 - log2(bytes), 1|2|3, 3]).
    unbound = TmaLoad.of(3, "shared::cluster")
    assert unbound.image_layout((2, 8, 32), "float32", 128) == TileLayout(
        "S[(2, 8, 32) : (256, 32, 1)] + Swizzle[2, 3, 3]")
    assert unbound.image_layout((4, 8, 32), "uint8", 32) == TileLayout(
        "S[(4, 8, 32) : (256, 32, 1)] + Swizzle[4, 1, 3]")
    assert unbound.image_layout((4, 8, 8), "int64", 64) == TileLayout(
        "S[(4, 8, 8) : (64, 8, 1)] + Swizzle[1, 2, 3]")
    assert unbound.image_layout((1, 8, 16), "float16") == TileLayout(
        "S[(1, 8, 16) : (128, 16, 1)]")
    assert unbound.box_bytes((1, 8, 16), "float16") == 256
    assert (unbound.image_alignment(0), unbound.image_alignment(64)) == (128, 512)
    store = TmaStore.of(2, box=(64, 32), dtype="float32")
    assert store.box_bytes() == 8192 and store.image_layout() == TileLayout(
        "S[(64, 32) : (32, 1)]")
    assert TmaReduce.of(1, "add").box_bytes((256,), "int32") == 1024


def test_box_misuse_reuses_the_verifiers_reasons():
    load = TmaLoad.of(2, "shared::cluster")
    cases = [
        (lambda: load.image_layout((64, 128), "bfloat16", 128),
         "the box's shared image is 128-byte swizzled, but the box's rows are 256 bytes; TMA "
         "swizzles rows of at most the swizzle's width"),
        (lambda: load.image_layout((64, 4), "bfloat16"),
         "the global box has an innermost row of 8 bytes; TMA moves rows of whole 16-byte "
         "units"),
        (lambda: load.box_bytes((4, 64, 64), "bfloat16"),
         "the global box has rank 3, but '.2d' names a rank-2 tensor map"),
        (lambda: load.box_bytes((512, 64), "bfloat16"),
         "the global box has extent 512 in dimension 0; a box's extents are at most 256"),
        (lambda: load.image_layout((64, 64), "bfloat16", 16),
         "swizzle is the image's TMA swizzle in bytes: 0 (none), 32, 64 or 128, got 16"),
        (lambda: load.box_bytes((64, 64), "bool"),
         "bool elements; a tensor map holds 1, 2, 4 or 8-byte elements"),
        (lambda: load.box_bytes(),
         "box_bytes needs a box (the atom is not bound to one: box=..., dtype=...)"),
        (lambda: load.box_bytes((64, 64)), "box_bytes of a shape needs its dtype"),
        (lambda: TmaLoad.of(2, "shared::cta", box=(64, 64)),
         "bind a box with both box= and dtype="),
        (lambda: TmaLoad.of(2, "shared::cta", box=(64, 128), dtype="bfloat16", swizzle=64),
         "is 64-byte swizzled, but the box's rows are 256 bytes"),
        (lambda: TmaStore.of(2).expect_tx((64, 64), "bfloat16"),
         "completes on no mbarrier: it has no expect_tx bytes"),
        (lambda: TmaPrefetch.of(2).image_layout((64, 64), "bfloat16"),
         "reads the box into L2 only: it has no shared image"),
    ]
    for make, message in cases:
        with pytest.raises(CompileError, match=HERE + ".*" + re.escape(message)):
            make()


def copy_kernel(issue, cluster=None, grid=4, c_dtype="float32"):
    """A kernel whose body is issue(A, B, C, img, bar, bx): bf16 A and B
    (256 x 512), C of `c_dtype` (256 x 128), a 64 x 64 bf16 image with the
    128-byte swizzle, one mbarrier."""
    @T.function
    def copy(A: T.Tensor((256, 512), "bfloat16", align=16),
             B: T.Tensor((256, 512), "bfloat16", align=16),
             C: T.Tensor((256, 128), c_dtype, align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=grid, block=128, cluster=cluster))
        img = TmaLoad.of(2, "shared::cluster").alloc_image((64, 64), "bfloat16", 128)
        bar = T.alloc_shared((1,), "uint64", align=8)
        issue(A, B, C, img, bar, T.cuda.block_idx("x"))
    return copy


def test_issue_calls_compile_to_the_named_instructions():
    load = TmaLoad.of(2, "shared::cluster", box=(64, 64), dtype="bfloat16", swizzle=128)
    store, prefetch, maps = TmaStore.of(2), TmaPrefetch.of(2), TensorMapPrefetch()
    reduce = TmaReduce.of(2, "add")

    def issue(A, B, C, img, bar, bx):
        r = bx * 64
        maps(A[r:r + 64, 0:64], thread=0)
        prefetch(A[r:r + 64, 64:128], thread=0)
        with T.If(T.cuda.thread_idx("x") == 0):
            with T.Then():
                T.ptx.mbarrier.init(bar.data, 1)
                T.ptx.mbarrier.arrive.expect_tx(bar.data, load.expect_tx())
                load(img, A[r:r + 64, 0:64], bar, thread=None)   # inside the guard
                T.ptx.mbarrier.try_wait(bar.data, 0)
        store(B[r:r + 64, 0:64], img, thread=0)
        cimg = T.alloc_shared((64, 32), "float32", align=128)
        reduce(C[r:r + 64, 0:32], cimg, thread=0)

    compiled = tirx.compile(copy_kernel(issue), target=TARGET)
    ptx = compiled.ptx
    for spelling in (LOAD, STORE, REDUCE % "add", PREFETCH):
        assert ptx.count(spelling + " ") == 1, spelling
    # The map prefetch reads each map of its box (docs/hopper.md).
    assert ptx.count("prefetch.tensormap [%rd") >= 1
    assert "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%rd" in ptx and \
        ", 0x00002000;" in ptx    # 8192 bytes
    # thread=0 guards each call: four guarded calls and the explicit one.
    assert len(re.findall(r"setp\.ne\.b32\s+%p\d+, %r\d+, 0;", ptx)) >= 1
    assert (0, (64, 64), 128) in compiled.tensor_maps and (1, (64, 64), 128) in \
        compiled.tensor_maps
    helpers.ptxas_report(compiled)


def test_issue_misuse_is_located():
    load = TmaLoad.of(2, "shared::cluster", box=(128, 64), dtype="bfloat16", swizzle=128)
    hinted = TmaLoad.of(2, "shared::cluster", cache_hint=True)
    cases = [
        (lambda A, B, C, img, bar, bx: load(img, A[0:128, 0:64], bar),
         "is issued by one thread: say which (thread=0 guards it to thread 0; thread=None when "
         "the code around already runs in one thread)"),
        (lambda A, B, C, img, bar, bx: load(img, A[0:64, 0:64], bar, thread=0),
         "is bound to a box (128, 64) of bfloat16 (16384 bytes), but this box is (64, 64) of "
         "bfloat16 (8192 bytes)"),
        (lambda A, B, C, img, bar, bx: load(A[0:128, 0:64], A[0:128, 0:64], bar, thread=0),
         "the destination must be a shared tensor (the box's image)"),
        (lambda A, B, C, img, bar, bx: TmaStore.of(2)(img, img, thread=0),
         "the destination must be a region of a global tensor (the box)"),
        (lambda A, B, C, img, bar, bx: hinted(img, A[0:64, 0:64], bar, thread=0),
         "takes an L2 cache policy (policy=): the spelling names .L2::cache_hint"),
        (lambda A, B, C, img, bar, bx: TmaStore.of(2)(B[0:64, 0:64], img, policy=T.uint64(0),
                                                      thread=0),
         "takes no cache policy: its spelling has no .L2::cache_hint"),
        (lambda A, B, C, img, bar, bx: TmaStore.of(3)(B[0:64, 0:64], img, thread=0),
         "the global box has rank 2, but '.3d' names a rank-3 tensor map"),
    ]
    for issue, message in cases:
        with pytest.raises(CompileError, match=HERE + ".*" + re.escape(message)):
            tirx.compile(copy_kernel(issue), target=TARGET)


def test_the_verifier_refuses_at_the_issue_line():
    """What the C++ verifier already refuses is its diagnostic, at the
    line of the atom's call: a reduction the element type does not take, a
    multicast in a kernel not launched in clusters."""
    def reduce_min(A, B, C, img, bar, bx):
        cimg = T.alloc_shared((64, 32), "float32", align=128)
        TmaReduce.of(2, "min")(C[0:64, 0:32], cimg, thread=0)  # the min

    with pytest.raises(CompileError) as error:
        tirx.compile(copy_kernel(reduce_min), target=TARGET)
    assert helpers.line_of(__file__, "# the min") + "error: " in str(error.value)
    assert (".min reduces .f16, .bf16, .u32, .s32, .u64, .s64 elements (signless integers "
            "count as signed)") in str(error.value)

    def multicast(A, B, C, img, bar, bx):
        TmaLoadMulticast.of(2)(img, A[0:64, 0:64], bar, mask=3, thread=0)  # the multicast

    with pytest.raises(CompileError) as error:
        tirx.compile(copy_kernel(multicast), target=TARGET)
    assert helpers.line_of(__file__, "# the multicast") + "error: " in str(error.value)
    assert ("writes the box into the CTAs of a cluster, but the kernel is not launched in "
            "clusters: add cluster = [...] to its launch (LaunchConfig(cluster=) in Python)"
            ) in str(error.value)


def test_multicast_tiled_over_the_cluster():
    """Each of a cluster's two CTAs loads one half of a 64 x 64 box into
    every CTA (CUTLASS's multicast TMA): the half at its rank's rows, the
    ctaMask of the whole cluster; each CTA's barrier expects the whole box."""
    mc = TmaLoadMulticast.of(2, box=(64, 64), dtype="bfloat16", swizzle=128)
    assert mc.expect_tx() == 8192 and mc.slice_rows(2) == 32
    layout, shape = mc.tile(ctas=2)
    assert shape == (2, 32, 64)
    assert str(layout) == "S[(2, 32, 64) : (2048, 64, 1)] + R[2 : 1@bx] + Swizzle[3, 3, 3]"
    # Slice 1, row 3, column 9: row 35 of the image, in every CTA.
    assert layout.apply(1, 3, 9, shape=shape) == \
        {"bx": 0, "m": mc.image_layout().apply(35, 9, shape=(64, 64))["m"]}

    def issue(A, B, C, img, bar, bx):
        first = bx // 2 * 64
        mc(img, A[first:first + 64, 0:64], bar, ctas=2, rank=bx % 2, thread=0)

    compiled = tirx.compile(copy_kernel(issue, cluster=2), target=TARGET)
    ptx = compiled.ptx
    assert re.search(re.escape(MULTICAST) + r" \[%rd\d+\], \[%rd\d+, \{%r\d+, %r\d+\}\], "
                     r"\[%rd\d+\], %rs\d+;", ptx)
    assert re.search(r"mov\.b16\s+%rs\d+, 3;", ptx)       # the ctaMask 0b11
    # The map's box is a CTA's slice.
    assert compiled.tensor_maps == [(0, (32, 64), 128)]
    helpers.ptxas_report(compiled)


def test_multicast_misuse():
    mc = TmaLoadMulticast.of(2, box=(64, 64), dtype="bfloat16", swizzle=128)
    cases = [
        (2, None, lambda A, img, bar, bx: mc(img, A[0:64, 0:64], bar, thread=0),
         "a multicast names its CTAs: mask= (a 16-bit ctaMask) or ctas= and rank="),
        (None, None, lambda A, img, bar, bx: mc(img, A[0:64, 0:64], bar, ctas=2, rank=bx % 2,
                                                thread=0),
         "is tiled over 2 CTAs along x, but the kernel is not launched in clusters: add "
         "cluster=... to its LaunchConfig"),
        (2, None, lambda A, img, bar, bx: mc(img, A[0:64, 0:64], bar, ctas=4, rank=bx % 4,
                                             thread=0),
         "is tiled over 4 CTAs along x, but the kernel's clusters are 2 CTAs along x: a tiling "
         "over CTAs stays inside one cluster"),
        (4, None, lambda A, img, bar, bx: mc(img, A[0:64, 0:64], bar, ctas=2, rank=bx % 2,
                                             thread=0),
         "the ctaMask of a load tiled over 2 CTAs is derived for clusters of exactly those "
         "CTAs (cluster=2), but the kernel's are (4,): give mask="),
        (2, None, lambda A, img, bar, bx: mc(img, A[0:64, 0:64], bar, ctas=2, thread=0),
         "a load tiled over 2 CTAs needs this CTA's rank= among them"),
        (2, None, lambda A, img, bar, bx: mc(img, A[0:64, 0:64], bar, ctas=2, rank=2, thread=0),
         "rank 2 is not one of the 2 CTAs"),
        (2, None, lambda A, img, bar, bx: mc(img, A[0:64, 0:64], bar, mask=1 << 16, thread=0),
         "the ctaMask is 16 bits, got 0x10000"),
        (2, None, lambda A, img, bar, bx: mc(img, A[0:64, 0:64], bar, rank=0, mask=3, thread=0),
         "rank= names a CTA of a tiling: give ctas= too"),
    ]
    for cluster, _, issue, message in cases:
        grid = 4
        with pytest.raises(CompileError, match=HERE + ".*" + re.escape(message)):
            tirx.compile(copy_kernel(lambda A, B, C, img, bar, bx: issue(A, img, bar, bx),
                                     cluster=cluster, grid=grid), target=TARGET)
    with pytest.raises(CompileError, match=HERE + re.escape(
            "TmaLoadMulticast(%s): a box of 64 rows (outermost extent) does not split into 3 "
            "CTAs' slices" % MULTICAST)):
        mc.tile(ctas=3)
    with pytest.raises(CompileError, match=HERE + ".*is issued by one thread per CTA: tile it "
                       "over the CTAs of a cluster \\(ctas=\\), not over warps"):
        mc.tile(ctas=2, units=4)


def test_atoms_tiled_over_ctas():
    """Atom.tile(ctas=): the block layout of a fragment, one more logical
    product, over the CTAs of a cluster (their rank on bx, by, bz)."""
    mma = Atom("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")
    block, block_shape = mma.tile("d", (2, 8), units=4)
    cluster, shape = mma.tile("d", (2, 8), units=4, ctas=2)
    assert shape == (2, 4, 2, 8, 16, 8) and block_shape == shape[1:]
    assert cluster == TileLayout(S[(2, 4, 2, 8, 2, 8, 4, 2) :
                                   (1 @ bx, 1 @ warpid, 32, 4, 2, 4 @ laneid, 1 @ laneid, 1)])
    # Each CTA holds the block layout: the same warps, lanes and registers.
    for coordinate in ((0, 3, 1, 7, 15, 7), (1, 3, 1, 7, 15, 7), (1, 0, 0, 0, 9, 2)):
        at = cluster.apply(*coordinate, shape=shape)
        assert at.pop("bx") == coordinate[0]
        assert at == block.apply(*coordinate[1:], shape=block_shape)
    # A 2 x 2 cluster (x fastest), two warpgroups each.
    wgmma = Atom("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16")
    layout, shape = wgmma.tile("d", units=2, ctas=S[(2, 2) : (1 @ by, 1 @ bx)])
    assert shape == (4, 2, 64, 64)
    assert str(layout).startswith("S[(2, 2, 2, 4, 2, 8, 8, 4, 2) : (1@by, 1@bx, 1@wgid, ")
    # A TMA atom: each CTA's own box, at the same offsets of its image.
    load = TmaLoad.of(2, "shared::cluster", box=(64, 64), dtype="bfloat16", swizzle=128)
    assert load.tile(ctas=2) == (TileLayout("S[(2, 64, 64) : (1@bx, 64, 1)] + Swizzle[3, 3, 3]"),
                                 (2, 64, 64))
    assert load.tile() == (load.image_layout(), (64, 64))


def test_tiling_over_the_wrong_scope_is_located():
    mma = Atom("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")
    load = TmaLoad.of(2, "shared::cluster", box=(64, 64), dtype="bfloat16")
    cases = [
        (lambda: mma.tile("d", units=S[2 : 1 @ bx]),
         "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 is executed by a warp: tile its "
         "fragment over warps (warpid), not over bx; the CTAs of a cluster go in ctas="),
        (lambda: mma.tile("d", units=4, ctas=S[2 : 1 @ warpid]),
         "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32: tile over the CTAs of a cluster "
         "(bx, by, bz: a CTA's rank in its cluster along x, y, z), not over warpid"),
        (lambda: mma.tile("d", ctas=0), "ctas must be a positive int, got 0"),
        (lambda: load.tile(units=4),
         "is issued by one thread: tile it over the CTAs of a cluster (ctas=), not over warps "
         "or warpgroups"),
        (lambda: load.tile(ctas=S[4 : 1 @ wgid]), "not over wgid"),
    ]
    for make, message in cases:
        with pytest.raises(CompileError, match=HERE + ".*" + re.escape(message)):
            make()

    # Inside a kernel, a tiling over CTAs stays inside the kernel's clusters.
    for cluster, ctas, message in (
            (None, 2, "is tiled over 2 CTAs along x, but the kernel is not launched in clusters"),
            (2, 4, "is tiled over 4 CTAs along x, but the kernel's clusters are 2 CTAs along x"),
            ((2, 1), S[2 : 1 @ by], "is tiled over 2 CTAs along y, but the kernel's clusters "
                                    "are 1 CTA along y")):
        grid = 8 if not isinstance(cluster, tuple) else (8, 2)
        with pytest.raises(CompileError) as error:
            @T.function
            def tiled(A: T.Tensor((64,), "float32", align=16)):
                T.device_entry(launch=T.cuda.LaunchConfig(grid=grid, block=128, cluster=cluster))
                mma.tile("d", units=4, ctas=ctas)  # the tiling
            tirx.compile(tiled, target=TARGET)
        assert helpers.line_of(__file__, "# the tiling") in str(error.value)
        assert message in str(error.value)


def pipeline_kernel(with_atoms, loads_a=(64, 64)):
    """test_pipeline.py's stream kernel: A (64 x 64) and B (128 x 64) bf16
    boxes through 2 stages, the buffers and loads written by hand or made
    from load atoms."""
    load_a = TmaLoad.of(2, "shared::cluster", box=loads_a, dtype="bfloat16")
    load_b = TmaLoad.of(2, "shared::cluster", box=(128, 64), dtype="bfloat16")

    @T.function
    def stream(A: T.Tensor((64, 512), "bfloat16", align=16),
               B: T.Tensor((128, 512), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
        if with_atoms:
            pipe = TmaPipeline(2, loads=(load_a, load_b), consumers=1)  # the pipeline
            sa, sb = pipe.buffers
        else:
            sa = T.alloc_shared((2, 64, 64), "bfloat16", align=128)
            sb = T.alloc_shared((2, 128, 64), "bfloat16", align=128)
            pipe = TmaPipeline(2, buffers=(sa, sb), consumers=1)
        tid = T.cuda.thread_idx("x")
        with T.If(tid == 0):
            with T.Then():
                pipe.init()
        T.cuda.cta_sync()
        with T.If(tid < 128):
            with T.Then():
                for kb in T.serial(0, 8):
                    pipe.consumer_wait(kb)
                    pipe.consumer_release(kb)
            with T.Else():
                with T.If(tid == 128):
                    with T.Then():
                        for kb in T.serial(0, 8):
                            with pipe.produce(kb) as stage:
                                k = kb * 64
                                if with_atoms:
                                    box = A[0:64, k:k + 64]
                                    stage.load(sa[stage.index], box, atom=load_a)  # load A
                                    stage.load(sb[stage.index], B[0:128, k:k + 64], atom=load_b)
                                else:
                                    stage.load(sa[stage.index], A[0:64, k:k + 64])
                                    stage.load(sb[stage.index], B[0:128, k:k + 64])
    return stream


def test_pipeline_from_load_atoms_is_the_same_kernel():
    by_hand = tirx.compile(pipeline_kernel(False), target=TARGET).ptx
    from_atoms = tirx.compile(pipeline_kernel(True), target=TARGET)
    assert from_atoms.ptx == by_hand
    assert "0x00006000;" in by_hand     # expect_tx: 8192 + 16384 bytes
    helpers.ptxas_report(from_atoms)


def test_pipeline_loads_that_contradict_the_stage():
    with pytest.raises(CompileError) as error:
        tirx.compile(pipeline_kernel(True, loads_a=(32, 64)), target=TARGET)
    # The pipeline's buffers are the atoms' images; the load of a box the
    # atom is not bound to is refused at its line.
    assert helpers.line_of(__file__, "# load A") in str(error.value)
    assert ("is bound to a box (32, 64) of bfloat16 (4096 bytes), but this box is (64, 64) of "
            "bfloat16 (8192 bytes)") in str(error.value)

    def stream(buffers, loads):
        @T.function
        def k(A: T.Tensor((64, 512), "bfloat16", align=16)):
            T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=256))
            sa = T.alloc_shared((2, 64, 64), "bfloat16", align=128)
            TmaPipeline(2, buffers=buffers(sa), loads=loads, consumers=1)  # the loads
        return k

    load = TmaLoad.of(2, "shared::cluster", box=(128, 64), dtype="bfloat16")
    cases = [
        (lambda sa: (sa,), (load,),
         "TmaPipeline: the loads' boxes bring 16384 bytes a step ((128, 64) 16384), but a stage "
         "of the buffers holds 8192 (%s 8192)"),
        (lambda sa: (sa,), (TmaLoad.of(2, "shared::cluster"),),
         "is bound to no box: its bytes are unknown (make it with box= and dtype=)"),
        (lambda sa: (sa,), (TmaStore.of(2, box=(64, 64), dtype="bfloat16"),),
         "TmaPipeline: loads must be tirx.atoms.TmaLoad atoms, got TmaStore("),
    ]
    for buffers, loads, expected in cases:
        with pytest.raises(CompileError) as error:
            tirx.compile(stream(buffers, loads), target=TARGET)
        message = re.sub(r"%\w+ (\d+)", r"%s \1", str(error.value))
        assert helpers.line_of(__file__, "# the loads") in message
        assert expected in message, message


def test_library_md_tma_atoms_block():
    """docs/library.md's TMA atoms block runs as written (its asserts are
    the page's claims)."""
    import os
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    text = open(os.path.join(root, "docs", "library.md")).read()
    start = text.index("\n## TMA atoms\n")
    end = text.find("\n## ", start + 1)
    blocks = re.findall(r"```python\n(.*?)```", text[start:end], re.S)
    assert len(blocks) == 1
    exec(compile(blocks[0], "docs/library.md", "exec"), {})
