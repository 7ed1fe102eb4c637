"""tirx._fastlaunch (lib/Python/FastLaunch.c) on its own: a malformed
description is an exception, never a crash, and a call it cannot take goes
to the general path. test_launch.py runs every launch check on it through
runtime.Launcher."""
import ctypes
import re

import pytest

from tirx import runtime

fast = runtime._fast_launch_module()
slot = ctypes.c_int64()
SLOT = ctypes.addressof(slot)


def raises(exception, message):
    return pytest.raises(exception, match=re.escape(message))


def make(params, sizes=(), grids=None, general=None):
    return fast.Launcher(general or (lambda args: ("general", args)), lambda: None,
                         tuple(params), tuple(sizes), grids, lambda key: (1, 1, 1))


def test_it_is_built():
    assert fast is not None, "_fastlaunch.abi3.so was not built (make check builds it)"


@pytest.mark.parametrize("params, sizes, exception, message", [
    ([("tensor", SLOT, (4,))], (), ValueError, "unknown parameter kind"),
    ([("vector", SLOT)], (), ValueError, "unknown parameter kind"),
    (["tensor"], (), TypeError, "a parameter is a tuple (kind, slot, ...)"),
    ([("tensor", 0, (4,), 16)], (), ValueError, "null slot"),
    ([("tensor", SLOT, 4, 16)], (), ValueError, "a tensor's dims: a tuple of at most 8"),
    ([("tensor", SLOT, (1,) * 9, 16)], (), ValueError, "a tensor's dims: a tuple of at most 8"),
    ([("tensor", SLOT, (-2,), 16)], ((SLOT, 1, 0),), ValueError,
     "a dimension names no size variable"),
    ([("tensor", SLOT, (4,), 0)], (), ValueError, "an alignment is at least 1"),
    ([("float", SLOT, 2, 1.0)], (), ValueError, "a scalar slot of an unsupported width"),
    ([("int", SLOT, 3, 0, 7)], (), ValueError, "a scalar slot of an unsupported width"),
    ([("int", SLOT, 4, 0, -1)], (), OverflowError, "negative"),
    ([("tensor", SLOT, (-1,), 16)], ((SLOT,),), TypeError,
     "a size variable is (slot, multiple_of, at_most)"),
    ([("tensor", SLOT, (-1,), 16)], ((SLOT, 1),), TypeError,
     "a size variable is (slot, multiple_of, at_most)"),
    ([("tensor", SLOT, (-1,), 16)], ((SLOT, 0, 0),), ValueError, "a bad size variable"),
    ([("tensor", SLOT, (-1,), 16)], ((0, 1, 0),), ValueError, "a bad size variable"),
    ([("tensor", SLOT, (-1,), 16)], ((SLOT, 1, -1),), ValueError, "a bad size variable"),
])
def test_malformed_descriptions(params, sizes, exception, message):
    with raises(exception, message):
        make(params, sizes)


def test_too_many_parameters_or_sizes():
    for params, sizes in (([("other", SLOT)] * 257, ()),
                          ([("tensor", SLOT, (-1,), 16)], ((SLOT, 1, 0),) * 257)):
        with raises(ValueError, "too many parameters or size variables (at most 256)"):
            make(params, sizes)
    make([("other", SLOT)] * 256, ((SLOT, 1, 0),) * 256)  # the most it takes


def test_other_construction_errors():
    with raises(TypeError, "grids is a dict or None"):
        make([("tensor", SLOT, (4,), 16)], grids=[])
    with raises(TypeError, "Launcher takes no keyword arguments"):
        fast.Launcher(None, None, (), (), None, None, extra=1)
    launcher = make([("tensor", SLOT, (4,), 16)])
    with raises(RuntimeError, "a Launcher is initialized once"):
        launcher.__init__(None, None, (), (), None, None)
    with raises(ValueError, "one dtype per parameter"):
        launcher.bind(object, lambda device: 0, ())
    with raises(ValueError, "set_prepared: a bad device or address"):
        launcher.set_prepared(64, SLOT, SLOT)
    with raises(ValueError, "set_prepared: a bad device or address"):
        launcher.set_prepared(0, 0, SLOT)
    with raises(TypeError, "a launch takes one argument, the tuple of arguments"):
        launcher()
    with raises(TypeError, "a launch takes one argument, the tuple of arguments"):
        launcher((1,), extra=2)


def test_what_it_cannot_take_goes_to_the_general_path():
    launcher = make([("tensor", SLOT, (4,), 16)])
    # Before bind() and set_owner(): always the general path.
    assert launcher((1,)) == ("general", (1,))
    launcher.bind(int, lambda device: 0, (None,))
    launcher.set_owner(__import__("threading").get_ident())
    for args in ((1,), [1], (1, 2), (), None, ("x",)):
        assert launcher(args) == ("general", args)


def test_a_launcher_that_requires_it_says_when_it_is_missing(monkeypatch):
    monkeypatch.setattr(runtime._library, "_fast_launch", None)
    with raises(RuntimeError, "the launcher's C fast path (_fastlaunch.abi3.so) was not found"):
        runtime.Launcher("k", "// ptx", [], (1,), (1,), native=True)
    # Without it, an optional request takes the Python fast path.
    assert runtime.Launcher("k", "// ptx", [], (1,), (1,))._native is None


def test_tirx_fast_launch_0_turns_it_off(monkeypatch):
    monkeypatch.setattr(runtime._library, "_fast_launch", False)  # not looked for yet
    monkeypatch.setenv("TIRX_FAST_LAUNCH", "0")
    assert runtime._fast_launch_module() is None
    monkeypatch.setattr(runtime._library, "_fast_launch", False)
    monkeypatch.delenv("TIRX_FAST_LAUNCH")
    assert runtime._fast_launch_module() is fast


def test_a_module_that_does_not_load_is_a_warning(monkeypatch, tmp_path):
    broken = tmp_path / "_fastlaunch.abi3.so"
    broken.write_bytes(b"not an ELF file")
    monkeypatch.setattr(runtime._library, "_fast_launch", False)
    monkeypatch.setattr(runtime._capi, "library_candidates", lambda name: [str(broken)])
    with pytest.warns(RuntimeWarning, match="does not load"):
        assert runtime._fast_launch_module() is None
    assert runtime.Launcher("k", "// ptx", [], (1,), (1,))._native is None


class FakeTensor:
    """What the fast path reads of a tensor."""
    is_cuda, dtype, shape = True, "f32", (4,)

    def is_contiguous(self):
        return True

    def get_device(self):
        return 0

    def data_ptr(self):
        return 0x1000


def test_a_size_no_tensor_binds_takes_the_general_path():
    launched = []
    function = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)(lambda p: launched.append(p) or 0)
    prepared = runtime._PreparedLaunch()
    tensor_slot, size_slot = ctypes.c_void_p(), ctypes.c_int64(-7)
    for sizes in ((), ((ctypes.addressof(size_slot), 1, 0),)):
        launcher = fast.Launcher(lambda args: "general", lambda: None,
                                 (("tensor", ctypes.addressof(tensor_slot), (4,), 16),),
                                 sizes, None, lambda key: (1, 1, 1))
        launcher.bind(FakeTensor, lambda device: 0x5000, ("f32",))
        launcher.set_owner(__import__("threading").get_ident())
        launcher.set_prepared(0, ctypes.addressof(prepared),
                              ctypes.cast(function, ctypes.c_void_p).value)
        result = launcher((FakeTensor(),))
        if not sizes:  # the fast path launches
            assert result is None and len(launched) == 1 and tensor_slot.value == 0x1000
            assert prepared.stream == 0x5000
        else:  # a size variable no tensor binds: the general path
            assert result == "general" and len(launched) == 1 and size_slot.value == -7


def test_a_cached_grid_is_three_extents():
    function = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)(lambda p: 0)
    prepared = runtime._PreparedLaunch()
    tensor_slot, size_slot = ctypes.c_void_p(), ctypes.c_int64()
    grids = {(4,): (ctypes.c_uint * 3)(2, 3, 5)}
    launcher = fast.Launcher(lambda args: "general", lambda: None,
                             (("tensor", ctypes.addressof(tensor_slot), (-1,), 16),),
                             ((ctypes.addressof(size_slot), 1, 0),), grids, lambda key: None)
    launcher.bind(FakeTensor, lambda device: 0, ("f32",))
    launcher.set_owner(__import__("threading").get_ident())
    launcher.set_prepared(0, ctypes.addressof(prepared),
                          ctypes.cast(function, ctypes.c_void_p).value)
    assert launcher((FakeTensor(),)) is None and tuple(prepared.grid) == (2, 3, 5)
    grids[(4,)] = (ctypes.c_uint * 2)(2, 3)
    with raises(RuntimeError, "a cached grid is not three extents"):
        launcher((FakeTensor(),))
