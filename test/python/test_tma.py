"""TMA copies from Python (docs/hopper.md): a box of a tensor parameter
(`A[r:r + 64, c:c + 64]`, offsets from block indices) to its shared image and
back, with the hidden tensor-map parameters in the PTX and listed on the
Compiled; a misuse is a located CompileError; and libTirXRuntime's encoder
names each argument it refuses (no GPU needed: it checks before the
driver)."""
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


def tma_kernel(scope="thread"):
    @T.function
    def copy(A: T.Tensor((256, 512), "bfloat16", align=16),
             B: T.Tensor((256, 512), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=(4, 8), block=128))
        img = T.alloc_shared((64, 64), "bfloat16", align=128)
        bar = T.alloc_shared((1,), "uint64", align=8)
        bx, by = T.cuda.block_idx("x"), T.cuda.block_idx("y")
        r, c = bx * 64, by * 64
        with T.If(T.cuda.thread_idx("x") == 0):
            with T.Then():
                T.cuda.tile.apply(T.ptx[LOAD], img, A[r:r + 64, c:c + 64], bar,  # the load
                                  scope=scope)
                T.cuda.tile.apply(T.ptx[STORE], B[r:r + 64, c:c + 64], img, scope="thread")
    return copy


def test_box_to_shared_and_back():
    compiled = tirx.compile(tma_kernel(), target=TARGET)
    # One map per (tensor, box, swizzle): A's and B's, after the parameters.
    assert compiled.tensor_maps == [(0, (64, 64), 0), (1, (64, 64), 0)]
    ptx = compiled.ptx
    assert ".param .align 64 .b8 copy_param_2[128]" in ptx
    assert ".param .align 64 .b8 copy_param_3[128]" in ptx
    assert re.search(r"cvta\.param\.u64\s+%rd\d+, %rd\d+;", ptx)
    assert re.search(re.escape(LOAD) + r" \[%rd\d+\], \[%rd\d+, \{%r\d+, %r\d+\}\], \[%rd\d+\];",
                     ptx)
    assert re.search(re.escape(STORE) + r" \[%rd\d+, \{%r\d+, %r\d+\}\], \[%rd\d+\];", ptx)


def test_misuse_is_located():
    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(tma_kernel(scope="cta"), target=TARGET)
    assert helpers.line_of(__file__, "# the load") + "error: " in str(error.value)
    assert "is issued by one thread: use scope(thread)" in str(error.value)


def encoder():
    try:
        return runtime._runtime()
    except tirx.LibraryNotFoundError:
        pytest.skip("libTirXRuntime.so was not built (no CUDA toolkit)")


def encode(address=0x10000, element_bytes=2, extents=(256, 512), strides=(1024,),
           box=(64, 64), swizzle=0, map_offset=0):
    lib = encoder()
    buffer = (ctypes.c_ubyte * 256)()
    base = ctypes.addressof(buffer)
    where = base + (-base) % 64 + map_offset
    rank = len(extents)
    status = lib.tirxTensorMapEncode(
        where, address, element_bytes, rank, (ctypes.c_ulonglong * rank)(*extents),
        (ctypes.c_ulonglong * max(len(strides), 1))(*strides),
        (ctypes.c_uint * len(box))(*box), swizzle)
    return status, lib.tirxGetLastErrorMessage().decode()


@pytest.mark.parametrize("kwargs, message", [
    ({"map_offset": 8}, "tirxTensorMapEncode: the map must be 64-byte aligned"),
    ({"extents": (1,) * 6, "box": (1,) * 6, "strides": (16,) * 5}, "tirxTensorMapEncode: rank 6 is not 1 to 5"),
    ({"element_bytes": 3}, "tirxTensorMapEncode: 3-byte elements; a tensor map holds 1, 2, 4 or 8"),
    ({"swizzle": 16}, "tirxTensorMapEncode: swizzle of 16 bytes; it is 0, 32, 64 or 128"),
    ({"address": 0x10008}, "tirxTensorMapEncode: the tensor's address is not 16-byte aligned"),
    ({"extents": (0, 512)}, "tirxTensorMapEncode: extent 0 of dimension 0 is not 1 to 2^32"),
    ({"box": (512, 64)}, "tirxTensorMapEncode: box extent 512 of dimension 0 is not 1 to 256"),
    ({"strides": (1000,)}, "tirxTensorMapEncode: the stride of dimension 0 is 1000 bytes; a tensor map's strides "
                           "are multiples of 16 bytes below 2^40"),
    ({"box": (64, 4)}, "tirxTensorMapEncode: the box's innermost row is 8 bytes, not a multiple of 16"),
    ({"box": (64, 128), "swizzle": 128}, "tirxTensorMapEncode: the box's innermost row is 256 bytes, more than the "
                                         "128-byte swizzle"),
])
def test_encoder_names_what_it_refuses(kwargs, message):
    status, text = encode(**kwargs)
    assert status == 4  # TIRX_ERROR_INVALID_ARGUMENT
    assert text == message


def test_encoder_null_arguments():
    lib = encoder()
    assert lib.tirxTensorMapEncode(None, 0x10000, 2, 1, None, None, None, 0) == 4
    assert lib.tirxGetLastErrorMessage().decode() == \
        "tirxTensorMapEncode: map, extents, strides or box is null"


REDUCE = "cp.reduce.async.bulk.tensor.2d.global.shared::cta.%s.tile.bulk_group"
PREFETCH = "cp.async.bulk.prefetch.tensor.2d.L2.global.tile"


def reduce_kernel(op="add", dtype="float32"):
    @T.function
    def accumulate(C: T.Tensor((256, 128), dtype, align=16),
                   A: T.Tensor((256, 512), "bfloat16", align=16)):
        T.device_entry(launch=T.cuda.LaunchConfig(grid=4, block=128))
        img = T.alloc_shared((64, 32), dtype, align=128)
        r = T.cuda.block_idx("x") * 64
        with T.If(T.cuda.thread_idx("x") == 0):
            with T.Then():
                T.cuda.tile.apply(T.ptx[PREFETCH], A[r:r + 64, 0:64], scope="thread")
                T.cuda.tile.apply(T.ptx[REDUCE % op], C[r:r + 64, 0:32], img,  # the reduce
                                  scope="thread")
                T.cuda.tile.apply(T.ptx[STORE], C[r:r + 64, 32:64], img, scope="thread")
    return accumulate


def test_reduction_maps_declare_the_element_type():
    compiled = tirx.compile(reduce_kernel(), target=TARGET)
    # The reduction's map declares f32 (the operation's type); the store's
    # and the prefetch's copy bits.
    assert sorted(zip(compiled.tensor_maps, compiled.tensor_map_types)) == [
        ((0, (64, 32), 0), ""), ((0, (64, 32), 0), "f32"), ((1, (64, 64), 0), "")]
    ptx = compiled.ptx
    assert re.search(re.escape(REDUCE % "add") + r" \[%rd\d+, \{%r\d+, %r\d+\}\], \[%rd\d+\];",
                     ptx)
    assert re.search(re.escape(PREFETCH) + r" \[%rd\d+, \{%r\d+, %r\d+\}\];", ptx)
    assert "s32" in tirx.compile(reduce_kernel("max", "int32"), target=TARGET).tensor_map_types


def test_reduction_of_a_type_it_does_not_take():
    with pytest.raises(tirx.CompileError) as error:
        tirx.compile(reduce_kernel("min", "float32"), target=TARGET)
    assert helpers.line_of(__file__, "# the reduce") + "error: " in str(error.value)
    assert ".min reduces .f16, .bf16, .u32, .s32, .u64, .s64 elements" in str(error.value)
