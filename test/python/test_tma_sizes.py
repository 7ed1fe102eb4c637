"""TMA boxes of runtime-sized tensors (docs/sizes.md, docs/hopper.md): one
kernel, compiled once for every M and K, loads the box `A[r:r + 128, k:k + 64]`
of an (M, K) tensor into shared memory and stores it to B. The box spans rows
whose stride is the runtime K: it is accepted as a TMA box (the hardware
addresses it through the tensor map) and refused anywhere else. The launcher
encodes each map from the tensor's real extents and strides, and refuses a
row stride that is not a multiple of 16 bytes before the driver (no GPU
needed)."""
import ctypes
import re

import pytest

import helpers

import tirx
from tirx import runtime
from tirx.script import tirx as T

TARGET = {"kind": "cuda", "arch": "sm_90"}
LOAD = "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"


def tma_sizes_kernel(M, K):
    @T.function
    def copy_mk(A: T.Tensor((M, K), "bfloat16", align=16),
                B: T.Tensor((M, K), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=(T.ceildiv(M, 128), T.ceildiv(K, 64)),
                                                  block=128))
        img = T.alloc_shared((128, 64), "bfloat16", align=128)
        bar = T.alloc_shared((1,), "uint64", align=8)
        r, k = T.cuda.block_idx("x") * 128, T.cuda.block_idx("y") * 64
        with T.If(T.cuda.thread_idx("x") == 0):
            with T.Then():
                T.cuda.tile.apply(T.ptx[LOAD], img, A[r:r + 128, k:k + 64], bar, scope="thread")
                T.cuda.tile.apply(T.ptx[STORE], B[r:r + 128, k:k + 64], img, scope="thread")
    return copy_mk


def test_runtime_sized_boxes():
    M, K = T.dynamic("M"), T.dynamic("K")
    compiled = tirx.compile(tma_sizes_kernel(M, K), target=TARGET)
    assert compiled.size_vars == [M, K]
    # One map per (tensor, box, swizzle), encoded at launch from the tensors.
    assert compiled.tensor_maps == [(0, (128, 64), 0), (1, (128, 64), 0)]
    ir = compiled.mlir["input"]
    assert re.search(r"tirx.region %\w+ \[%\w+, %\w+\] \[128, 64\]", ir)
    ptx = compiled.ptx
    # The sizes, then the maps, after the tensors.
    assert "\t.param .u64 copy_mk_param_2,\n\t.param .u64 copy_mk_param_3,\n" \
           "\t.param .align 64 .b8 copy_mk_param_4[128],\n" \
           "\t.param .align 64 .b8 copy_mk_param_5[128]\n)" in ptx
    load = re.search(re.escape(LOAD) + r" \[%rd\d+\], \[(%rd\d+), \{(%r\d+), (%r\d+)\}\], "
                     r"\[%rd\d+\];", ptx)
    store = re.search(re.escape(STORE) + r" \[(%rd\d+), \{(%r\d+), (%r\d+)\}\], \[%rd\d+\];",
                      ptx)
    assert load and store
    # The same coordinates (column, row), through the two maps.
    assert load.groups()[1:] == store.groups()[1:]
    assert load.group(1) != store.group(1)
    assert re.search(r"shl\.b32\s+%s, %%r\d+, 7;" % re.escape(load.group(3)), ptx)
    assert re.search(r"shl\.b32\s+%s, %%r\d+, 6;" % re.escape(load.group(2)), ptx)
    assert compiled.launch.grid[0].evaluate({"M": 300, "K": 200}) == 3


def test_runtime_rows_outside_a_box_need_aligned_rows():
    """Rows of a runtime-sized tensor may be loaded outside a TMA box
    (docs/sizes.md, "Tiles of runtime-sized tensors"), but a 16-byte vector
    needs K to be a multiple of 4; a further region of them may only be a box."""
    M, K = T.dynamic("M"), T.dynamic("K")

    @T.function
    def rows(A: T.Tensor((M, K), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        r = T.alloc_local((2, 4), "float32")
        box = A[0:2, 0:4]  # the rows
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, box, scope="thread")  # the load

    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(rows, target=TARGET)
    text = str(error.value)
    assert helpers.line_of(__file__, "# the load") + "error: " in text
    assert ("accesses a tile of a runtime-sized tensor whose rows are a runtime stride apart, "
            "16 bytes at a time, but dimension 0's stride is the runtime product 4 bytes · K, "
            "known to be a multiple of only 4 bytes; declare K a multiple of 4" in text)

    @T.function
    def row_of_rows(A: T.Tensor((M, K), "float32", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
        r = T.alloc_local((1, 4), "float32")
        box = A[0:2, 0:4]  # the box
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, box[0:1, 0:4], scope="thread")

    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(row_of_rows, target=TARGET)
    text = str(error.value)
    assert helpers.line_of(__file__, "# the box") + "error: " in text
    assert ("spans 2 indices of dimension 0 of a runtime-sized tensor, whose stride there is "
            "the runtime product of the extents inside it: such a region can only be a TMA box"
            in text)


def tma_sizes_launcher():
    """The launcher of the runtime-sized kernel, its checker made from the
    compile result's descriptor (maps included), with the runtime's encoder."""
    M, K = T.dynamic("M"), T.dynamic("K")
    compiled = tirx.compile(tma_sizes_kernel(M, K), target=TARGET)
    launcher = runtime.Launcher(
        compiled.name, compiled.ptx, compiled.params, compiled.launch.grid,
        compiled.launch.block, compiled.size_vars, compiled.shared_bytes,
        [m + (t,) for m, t in zip(compiled.tensor_maps, compiled.tensor_map_types)])
    try:
        launcher._bind_encoder()
    except tirx.LibraryNotFoundError:
        pytest.skip("libTirXRuntime.so was not built (no CUDA toolkit)")
    return launcher


def test_the_kernels_maps_are_described_to_the_checker():
    launcher = tma_sizes_launcher()
    specs, sizes, maps = launcher._plan.descriptor
    assert [spec[2:] for spec in specs] == [("A", (-1, -2), 16, "<V2", "bfloat16", 2),
                                            ("B", (-1, -2), 16, "<V2", "bfloat16", 2)]
    assert [m[:4] for m in maps] == [(0, (128, 64), 0, ""), (1, (128, 64), 0, "")]
    assert [size[1:] for size in sizes] == [("M", 1, 0), ("K", 1, 0)]


def test_map_of_a_bad_row_stride_is_refused_before_the_driver():
    # K = 65 bf16: rows of 130 bytes, which no tensor map can describe.
    launcher = tma_sizes_launcher()
    buffer = runtime._plan.MapBuffer()
    with pytest.raises(ValueError) as error:
        launcher._native.encode_map(0, 0x10000, (300, 65), buffer.address)
    assert str(error.value) == (
        "parameter 'A': its TMA tensor map (box 128x64) needs the stride of dimension 0 to be a "
        "multiple of 16 bytes, got 2 bytes * 65 = 130 bytes (the extents inside it must "
        "multiply to a multiple of 8)")


def test_map_of_a_huge_extent_is_refused():
    launcher = tma_sizes_launcher()
    buffer = runtime._plan.MapBuffer()
    with pytest.raises(ValueError) as error:
        launcher._native.encode_map(1, 0x10000, (2 ** 31 + 1, 64), buffer.address)
    assert str(error.value) == (
        "parameter 'B': its TMA tensor map (box 128x64) addresses boxes by 32-bit coordinates, "
        "but dimension 0 has 2147483649 elements (more than 2^31)")
