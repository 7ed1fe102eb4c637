"""tirx._fastlaunch (lib/Python/FastLaunch.c) on its own: the one launch-
argument checker. A malformed descriptor is an exception, never a crash; the
descriptor runtime/_plan.py builds from a kernel says what to check; a call
the fast path cannot take goes to the general path; TMA tensor maps are
encoded in C and re-encoded only when a pointer, shape or stride changes
(the map cache, through its test hook map_cache()). test_launch.py runs
every check's message through runtime.Launcher."""
import ctypes
import re
import threading

import pytest

from tirx import runtime
from tirx._dsl import DTYPES
from tirx.script import tirx as T

module = runtime._fast_launch_module()
slot = ctypes.c_int64()
SLOT = ctypes.addressof(slot)
_map_space = (ctypes.c_ubyte * 256)()
BUFFER = ctypes.addressof(_map_space) + (-ctypes.addressof(_map_space)) % 64


def raises(exception, message):
    return pytest.raises(exception, match=re.escape(message))


def make(params, sizes=(), maps=(), grids=None, general=None, fast=True):
    return module.Launcher(general or (lambda args: ("general", args)), lambda: None, "k",
                           tuple(params), tuple(sizes), tuple(maps), grids,
                           lambda key: (1, 1, 1), fast)


def tensor(dims=(4,), align=16, name="A", slot_=SLOT, itemsize=4):
    return ("tensor", slot_, name, dims, align, "<f4", "float32", itemsize)


def test_it_is_built():
    assert module is not None, "_fastlaunch.abi3.so was not built (make check builds it)"


@pytest.mark.parametrize("params, sizes, exception, message", [
    ([("vector", SLOT, "A", "float32")], (), ValueError, "unknown parameter kind"),
    ([("tensor", SLOT, "A", (4,))], (), TypeError, "a name or type is a str"),
    (["tensor"], (), TypeError, "a parameter is a tuple (kind, slot, name, ...)"),
    ([tensor(slot_=0)], (), ValueError, "null slot"),
    ([("tensor", SLOT, 3, (4,), 16, "<f4", "float32", 4)], (), TypeError,
     "a name or type is a str"),
    ([tensor(dims=4)], (), ValueError, "a tensor's dims: a tuple of at most 8"),
    ([tensor(dims=(1,) * 9)], (), ValueError, "a tensor's dims: a tuple of at most 8"),
    ([tensor(dims=(-2,))], ((SLOT, "n", 1, 0),), ValueError,
     "a dimension names no size variable"),
    ([tensor(align=0)], (), ValueError, "an alignment is at least 1"),
    ([tensor(itemsize=16)], (), ValueError, "an element is 1 to 8 bytes"),
    ([("float", SLOT, "x", "float32", 2, 1.0)], (), ValueError,
     "a scalar slot of an unsupported width"),
    ([("int", SLOT, "n", "int32", 3, 0, 7)], (), ValueError,
     "a scalar slot of an unsupported width"),
    ([("int", SLOT, "n", "int32", 4, 0, -1)], (), OverflowError, "negative"),
    ([tensor(dims=(-1,))], ((SLOT,),), TypeError,
     "a size variable is (slot, name, multiple_of, at_most)"),
    ([tensor(dims=(-1,))], ((SLOT, "n", 1),), TypeError,
     "a size variable is (slot, name, multiple_of, at_most)"),
    ([tensor(dims=(-1,))], ((SLOT, "n", 0, 0),), ValueError, "a bad size variable"),
    ([tensor(dims=(-1,))], ((0, "n", 1, 0),), ValueError, "a bad size variable"),
    ([tensor(dims=(-1,))], ((SLOT, "n", 1, -1),), ValueError, "a bad size variable"),
    ([tensor(dims=(-1,))], ((SLOT, 7, 1, 0),), TypeError, "a name or type is a str"),
])
def test_malformed_descriptions(params, sizes, exception, message):
    with raises(exception, message):
        make(params, sizes)


@pytest.mark.parametrize("maps, exception, message", [
    ([(0, (4,), 0, "")], TypeError, "a tensor map is (param, box, swizzle, element, buffer)"),
    ([(1, (4,), 0, "", BUFFER)], ValueError,
     "a tensor map names no tensor parameter of its rank, or its buffer is not 64-byte "
     "aligned"),
    ([(0, (4, 4), 0, "", BUFFER)], ValueError, "a tensor map names no tensor parameter"),
    ([(0, (4,), 0, "", BUFFER + 8)], ValueError, "its buffer is not 64-byte aligned"),
    ([(0, (4,), 0, "float32x", BUFFER)], ValueError, "a tensor map's element type is long"),
])
def test_malformed_maps(maps, exception, message):
    with raises(exception, message):
        make([tensor()], (), maps)


def test_too_many_parameters_sizes_or_maps():
    message = "too many parameters, size variables (at most 256) or tensor maps (64)"
    other = ("other", SLOT, "h", "float16", True)
    for params, sizes, maps in (([other] * 257, (), ()),
                                ([tensor(dims=(-1,))], ((SLOT, "n", 1, 0),) * 257, ()),
                                ([tensor()], (), ((0, (4,), 0, "", BUFFER),) * 65)):
        with raises(ValueError, message):
            make(params, sizes, maps)
    make([other] * 256, ((SLOT, "n", 1, 0),) * 256)  # the most it takes


def test_other_construction_errors():
    with raises(TypeError, "grids is a dict or None"):
        make([tensor()], grids=[])
    with raises(TypeError, "Launcher takes no keyword arguments"):
        module.Launcher(None, None, "k", (), (), (), None, None, extra=1)
    launcher = make([tensor()])
    with raises(RuntimeError, "a Launcher is initialized once"):
        launcher.__init__(None, None, "k", (), (), (), None, None)
    with raises(ValueError, "one dtype per parameter"):
        launcher.bind(object, lambda device: 0, ())
    with raises(ValueError, "set_prepared: a bad device or address"):
        launcher.set_prepared(64, SLOT, SLOT)
    with raises(ValueError, "set_prepared: a bad device or address"):
        launcher.set_prepared(0, 0, SLOT)
    with raises(ValueError, "set_encoder: a null address"):
        launcher.set_encoder(0, SLOT)
    with raises(TypeError, "a launch takes one argument, the tuple of arguments"):
        launcher()
    with raises(TypeError, "a launch takes one argument, the tuple of arguments"):
        launcher((1,), extra=2)
    with raises(IndexError, "no tensor parameter"):
        launcher.check_tensor(1, [], (4,), "<f4", None, 0x1000, False, 0)
    with raises(IndexError, "no scalar parameter"):
        launcher.check_scalar(0, 1)
    with raises(TypeError, "sizes: a list, one entry per size variable"):
        launcher.check_tensor(0, [None], (4,), "<f4", None, 0x1000, False, 0)
    with raises(IndexError, "no such tensor map"):
        launcher.encode_map(0, 0x1000, (4,), BUFFER)


def test_what_it_cannot_take_goes_to_the_general_path():
    launcher = make([tensor()])
    # Before bind() and set_owner(): always the general path.
    assert launcher((1,)) == ("general", (1,))
    launcher.bind(int, lambda device: 0, (None,))
    launcher.set_owner(threading.get_ident())
    for args in ((1,), [1], (1, 2), (), None, ("x",)):
        assert launcher(args) == ("general", args)


def test_a_launcher_needs_it(monkeypatch):
    monkeypatch.setattr(runtime._library, "_fast_launch", None)
    with raises(RuntimeError, "tirx: launching needs the launcher's C part, _fastlaunch.abi3.so "
                              "(lib/Python, built beside libTirXRuntime.so, for CPython 3.11 "
                              "or later and not free-threaded), which was not found"):
        runtime.Launcher("k", "// ptx", [], (1,), (1,))


def test_tirx_fast_launch_0_turns_the_fast_path_off(monkeypatch):
    monkeypatch.setenv("TIRX_FAST_LAUNCH", "0")
    launcher = runtime.Launcher("k", "// ptx", [], (1,), (1,))
    assert launcher._native is not None and launcher._plan.descriptor == ((), (), ())
    monkeypatch.setattr(runtime._library, "_fast_launch", False)  # not looked for yet
    assert runtime._fast_launch_module() is module


def test_a_module_that_does_not_load_is_a_warning(monkeypatch, tmp_path):
    broken = tmp_path / "_fastlaunch.abi3.so"
    broken.write_bytes(b"not an ELF file")
    monkeypatch.setattr(runtime._library, "_fast_launch", False)
    monkeypatch.setattr(runtime._capi, "library_candidates", lambda name: [str(broken)])
    with pytest.warns(RuntimeWarning, match="does not load"):
        assert runtime._fast_launch_module() is None


#===------------------------------------------------------------------------===#
# The descriptor, built once from the compile result
#===------------------------------------------------------------------------===#

def test_the_descriptor_of_a_kernel():
    """runtime/_plan.py: each parameter's kind, name, slot, dims (a size
    variable k as -(k + 1)), alignment, typestr, dtype and element bytes; the
    scalars' widths and ranges; the size variables; the maps with their
    buffers."""
    n, m = T.dynamic("n", multiple_of=4, at_most=1024), T.dynamic("m")
    params = [("A", T.Tensor((n, 64), "bfloat16", align=16).type),
              ("B", T.Tensor((m, n), "float32").type), ("x", DTYPES["float32"]),
              ("k", DTYPES["int8"]), ("u", DTYPES["uint32"]), ("p", DTYPES["bool"]),
              ("h", DTYPES["float16"])]
    plan = runtime._plan.Plan("k", params, [n, m], [(0, (64, 64), 128), (1, (8, 4), 0, "f32")])
    specs, sizes, maps = plan.descriptor
    slots = [ctypes.addressof(s) for s in plan.slots]
    assert specs == (
        ("tensor", slots[0], "A", (-1, 64), 16, "<V2", "bfloat16", 2),
        ("tensor", slots[1], "B", (-2, -1), 4, "<f4", "float32", 4),
        ("float", slots[2], "x", "float32", 4, 3.4028234663852886e38),
        ("int", slots[3], "k", "int8", 1, -128, 127),
        ("int", slots[4], "u", "uint32", 4, 0, 2 ** 32 - 1),
        ("int", slots[5], "p", "bool", 1, 0, 1),
        ("other", slots[6], "h", "float16", True))
    assert sizes == ((slots[7], "n", 4, 1024), (slots[8], "m", 1, 0))
    buffers = [b.address for b in plan.map_buffers]
    assert maps == ((0, (64, 64), 128, "", buffers[0]), (1, (8, 4), 0, "f32", buffers[1]))
    assert all(address % 64 == 0 for address in buffers)
    # The fast path's args: the slots, then the maps.
    assert list(plan.pointers) == slots + buffers


#===------------------------------------------------------------------------===#
# The fast path, on stand-ins
#===------------------------------------------------------------------------===#

class FakeTensor:
    """What the fast path reads of a tensor."""
    is_cuda, dtype = True, "f32"

    def __init__(self, shape=(4,), pointer=0x1000):
        self.shape, self._pointer = tuple(shape), pointer

    def is_contiguous(self):
        return True

    def get_device(self):
        return 0

    def data_ptr(self):
        return self._pointer


LAUNCH = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)


def ready(launcher, function, prepared, dtypes=("f32",)):
    launcher.bind(FakeTensor, lambda device: 0x5000, dtypes)
    launcher.set_owner(threading.get_ident())
    launcher.set_prepared(0, ctypes.addressof(prepared),
                          ctypes.cast(function, ctypes.c_void_p).value)


def test_a_size_no_tensor_binds_takes_the_general_path():
    launched = []
    function = LAUNCH(lambda p: launched.append(p) or 0)
    prepared = runtime._PreparedLaunch()
    tensor_slot, size_slot = ctypes.c_void_p(), ctypes.c_int64(-7)
    for sizes in ((), ((ctypes.addressof(size_slot), "n", 1, 0),)):
        launcher = make([tensor(slot_=ctypes.addressof(tensor_slot))], sizes,
                        general=lambda args: "general")
        ready(launcher, function, prepared)
        result = launcher((FakeTensor(),))
        if not sizes:  # the fast path launches
            assert result is None and len(launched) == 1 and tensor_slot.value == 0x1000
            assert prepared.stream == 0x5000
        else:  # a size variable no tensor binds: the general path
            assert result == "general" and len(launched) == 1 and size_slot.value == -7


def test_a_cached_grid_is_three_extents():
    function = LAUNCH(lambda p: 0)
    prepared = runtime._PreparedLaunch()
    tensor_slot, size_slot = ctypes.c_void_p(), ctypes.c_int64()
    grids = {(4,): (ctypes.c_uint * 3)(2, 3, 5)}
    launcher = module.Launcher(lambda args: "general", lambda: None, "k",
                               (tensor(dims=(-1,), slot_=ctypes.addressof(tensor_slot)),),
                               ((ctypes.addressof(size_slot), "n", 1, 0),), (), grids,
                               lambda key: None)
    ready(launcher, function, prepared)
    assert launcher((FakeTensor(),)) is None and tuple(prepared.grid) == (2, 3, 5)
    grids[(4,)] = (ctypes.c_uint * 2)(2, 3)
    with raises(RuntimeError, "a cached grid is not three extents"):
        launcher((FakeTensor(),))


def test_fast_false_sends_every_call_to_the_general_path():
    launcher = make([tensor()], fast=False)
    ready(launcher, LAUNCH(lambda p: 0), runtime._PreparedLaunch())
    args = (FakeTensor(),)
    assert launcher(args) == ("general", args)


#===------------------------------------------------------------------------===#
# TMA tensor maps: encoded in C, cached, re-encoded on a change
#===------------------------------------------------------------------------===#

ENCODE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint,
                          ctypes.c_char_p, ctypes.c_uint,
                          ctypes.POINTER(ctypes.c_ulonglong), ctypes.POINTER(ctypes.c_ulonglong),
                          ctypes.POINTER(ctypes.c_uint), ctypes.c_uint)
LAST_ERROR = ctypes.CFUNCTYPE(ctypes.c_void_p)  # (a char *: c_char_p would leak)


class Encoder:
    """A stand-in for tirxTensorMapEncodeTyped: records each encoding and
    writes a marker into the map (or fails when told)."""

    def __init__(self):
        self.calls, self.fail = [], False
        self.encode = ENCODE(self._encode)
        self._message = ctypes.create_string_buffer(
            b"tirxTensorMapEncodeTyped: extent 5000000000 of dimension 0 is not 1 to 2^32")
        self.last_error = LAST_ERROR(lambda: ctypes.addressof(self._message))

    def _encode(self, where, address, element_bytes, element, rank, extents, strides, box,
                swizzle):
        self.calls.append(dict(
            map=where, address=address, element_bytes=element_bytes, element=element,
            extents=tuple(extents[i] for i in range(rank)),
            strides=tuple(strides[i] for i in range(rank - 1)),
            box=tuple(box[i] for i in range(rank)), swizzle=swizzle))
        if self.fail:
            return 4
        ctypes.c_uint64.from_address(where).value = address  # the map names its tensor
        return 0

    def addresses(self):
        return (ctypes.cast(self.encode, ctypes.c_void_p).value,
                ctypes.cast(self.last_error, ctypes.c_void_p).value)


def tma_launcher(general=None):
    """A launcher of A: (n, 64) bfloat16 with one 64x64 map of it (128-byte
    swizzle) and one 16x64 map typed f32: the fast path ready on device 0."""
    launched = []
    function = LAUNCH(lambda p: launched.append(p) or 0)
    prepared = runtime._PreparedLaunch()
    tensor_slot, size_slot = ctypes.c_void_p(), ctypes.c_int64()
    space = (ctypes.c_ubyte * 512)()
    base = ctypes.addressof(space) + (-ctypes.addressof(space)) % 64
    launcher = module.Launcher(
        general or (lambda args: "general"), lambda: None, "k",
        (("tensor", ctypes.addressof(tensor_slot), "A", (-1, 64), 16, "<V2", "bfloat16", 2),),
        ((ctypes.addressof(size_slot), "n", 1, 0),),
        ((0, (64, 64), 128, "", base), (0, (16, 64), 0, "f32", base + 128)), None,
        lambda key: None)
    encoder = Encoder()

    class Tensor(FakeTensor):
        dtype = "bf16"
    ready(launcher, function, prepared, ("bf16",))
    launcher.bind(Tensor, lambda device: 0x5000, ("bf16",))
    launcher.set_encoder(*encoder.addresses())
    keep = (function, prepared, tensor_slot, size_slot, space)
    return launcher, encoder, Tensor, launched, (base, base + 128), keep


def test_maps_are_encoded_in_c_on_the_fast_path():
    launcher, encoder, Tensor, launched, buffers, keep = tma_launcher()
    assert launcher.map_cache() == ((None, None, None, 0), (None, None, None, 0))
    assert launcher((Tensor((128, 64), 0x10000),)) is None and len(launched) == 1
    assert encoder.calls == [
        dict(map=buffers[0], address=0x10000, element_bytes=2, element=b"",
             extents=(128, 64), strides=(128,), box=(64, 64), swizzle=128),
        dict(map=buffers[1], address=0x10000, element_bytes=2, element=b"f32",
             extents=(128, 64), strides=(128,), box=(16, 64), swizzle=0)]
    assert ctypes.c_uint64.from_address(buffers[0]).value == 0x10000
    assert launcher.map_cache() == ((0x10000, (128, 64), (128,), 1),
                                    (0x10000, (128, 64), (128,), 1))


def test_maps_are_re_encoded_only_when_the_tensor_changes():
    launcher, encoder, Tensor, launched, buffers, keep = tma_launcher()
    a = Tensor((128, 64), 0x10000)
    for _ in range(5):
        launcher((a,))
    assert len(launched) == 5 and len(encoder.calls) == 2  # the first call's
    launcher((Tensor((128, 64), 0x10000),))  # another object, the same key
    assert len(encoder.calls) == 2
    launcher((Tensor((128, 64), 0x20000),))  # a new pointer
    assert len(encoder.calls) == 4
    assert launcher.map_cache()[0] == (0x20000, (128, 64), (128,), 2)
    launcher((Tensor((256, 64), 0x20000),))  # a new shape
    assert len(encoder.calls) == 6
    assert launcher.map_cache()[1] == (0x20000, (256, 64), (128,), 3)
    launcher((Tensor((256, 64), 0x20000),))
    assert len(encoder.calls) == 6 and len(launched) == 9
    # Another encoder (set_encoder) invalidates every map.
    launcher.set_encoder(*encoder.addresses())
    assert launcher.map_cache()[0][0] is None
    launcher((Tensor((256, 64), 0x20000),))
    assert len(encoder.calls) == 8


def test_a_map_that_cannot_be_encoded_is_an_error_and_is_not_cached():
    launcher, encoder, Tensor, launched, buffers, keep = tma_launcher()
    launcher((Tensor((128, 64), 0x10000),))
    encoder.fail = True
    with raises(ValueError, "parameter 'A': its TMA tensor map (box 64x64) cannot be encoded: "
                            "tirxTensorMapEncodeTyped: extent 5000000000 of dimension 0 is "
                            "not 1 to 2^32"):
        launcher((Tensor((256, 64), 0x10000),))
    assert len(launched) == 1  # nothing launched
    assert launcher.map_cache()[0] == (None, None, None, 1)
    encoder.fail = False
    launcher((Tensor((128, 64), 0x10000),))  # the old key: encoded again
    assert launcher.map_cache()[0] == (0x10000, (128, 64), (128,), 2) and len(launched) == 2


def test_map_checks_before_the_encoder():
    """What the verifier could not check of a runtime extent, refused before
    the encoder: 32-bit box coordinates, 16-byte strides."""
    space = (ctypes.c_ubyte * 256)()
    base = ctypes.addressof(space) + (-ctypes.addressof(space)) % 64
    launcher = make([("tensor", SLOT, "A", (-1, -2), 16, "<V2", "bfloat16", 2)],
                    ((SLOT, "m", 1, 0), (SLOT, "k", 1, 0)), ((0, (128, 64), 0, "", base),))
    encoder = Encoder()
    launcher.set_encoder(*encoder.addresses())
    with raises(ValueError, "parameter 'A': its TMA tensor map (box 128x64) needs the stride of "
                            "dimension 0 to be a multiple of 16 bytes, got 2 bytes * 65 = 130 "
                            "bytes (the extents inside it must multiply to a multiple of 8)"):
        launcher.encode_map(0, 0x10000, (300, 65), base)
    with raises(ValueError, "parameter 'A': its TMA tensor map (box 128x64) addresses boxes by "
                            "32-bit coordinates, but dimension 0 has 2147483649 elements (more "
                            "than 2^31)"):
        launcher.encode_map(0, 0x10000, (2 ** 31 + 1, 64), base)
    assert encoder.calls == []
    # Rank 3: strides (in bytes, outermost first) from the real extents.
    launcher3 = make([("tensor", SLOT, "A", (5, 6, 12), 16, "<f4", "float32", 4)], (),
                     ((0, (2, 8, 4), 0, "", base),))
    launcher3.set_encoder(*encoder.addresses())
    launcher3.encode_map(0, 0x10000, (5, 6, 12), base)
    assert encoder.calls[-1]["strides"] == (288, 48) and encoder.calls[-1]["extents"] == \
        (5, 6, 12)
    # The general path's maps are its own: encode_map caches nothing.
    assert launcher3.map_cache() == ((None, None, None, 0),)
    with raises(ValueError, "encode_map: a shape of another rank or a bad buffer"):
        launcher3.encode_map(0, 0x10000, (5, 6), base)


def test_the_runtime_encoder_through_the_checker():
    """libTirXRuntime's encoder, reached from C, names what it refuses (no
    GPU: it checks its arguments before the driver)."""
    try:
        lib = runtime._runtime()
    except Exception:  # (LibraryNotFoundError) no runtime library built
        pytest.skip("libTirXRuntime.so was not built")
    space = (ctypes.c_ubyte * 256)()
    base = ctypes.addressof(space) + (-ctypes.addressof(space)) % 64
    launcher = make([("tensor", SLOT, "A", (-1, 64), 16, "<V2", "bfloat16", 2)],
                    ((SLOT, "m", 1, 0),), ((0, (64, 64), 128, "", base),))
    launcher.set_encoder(ctypes.cast(lib.tirxTensorMapEncodeTyped, ctypes.c_void_p).value,
                         ctypes.cast(lib.tirxGetLastErrorMessage, ctypes.c_void_p).value)
    # (A map it accepts needs the driver: the GPU tests encode those.)
    with raises(ValueError, "parameter 'A': its TMA tensor map (box 64x64) cannot be encoded: "
                            "tirxTensorMapEncode: the tensor's address is not 16-byte aligned"):
        launcher.encode_map(0, 0x10008, (256, 64), base)
