"""The launch path without a GPU: python/tirx/runtime/ against a fake
runtime library (it records each launch: device, stream, grid, block and
the argument values read back through the argument pointers), fake PyTorch
tensors, DLPack capsules made here with ctypes, and stand-ins for the DSL's
size variables (SizeVar: .name, .multiple_of, .at_most) and grid expressions
(.evaluate(sizes))."""
import ctypes
import gc
import re
import sys
import threading
import types
import weakref

import pytest

from tirx import runtime
from tirx._dsl import DTYPES
from tirx.script import tirx as TS


F32, I32 = DTYPES["float32"], DTYPES["int32"]


def raises(exception, message):
    return pytest.raises(exception, match=re.escape(message))


#===------------------------------------------------------------------------===#
# Stand-ins
#===------------------------------------------------------------------------===#

class SizeVar:
    def __init__(self, name, multiple_of=1, at_most=None):
        self.name, self.multiple_of, self.at_most = name, multiple_of, at_most


class CeilDiv:
    """A grid entry: ceil(var / tile)."""

    def __init__(self, var, tile):
        self.var, self.tile = var, tile

    def evaluate(self, sizes):
        return -(-sizes[self.var] // self.tile)


class Value:
    """A grid entry returning a fixed value, whatever the sizes."""

    def __init__(self, value):
        self.value = value

    def evaluate(self, sizes):
        return self.value


class Kind:
    """Stands for TensorType: .shape (ints and SizeVars), .dtype, alignment."""

    def __init__(self, shape, dtype="float32", align=None):
        self.shape, self.dtype = tuple(shape), DTYPES[dtype]
        self.alignment_or_default = align or self.dtype.bits // 8


class FakeDtype:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return "torch." + self.name


class FakeDevice:
    def __init__(self, index):
        self.type, self.index = ("cpu", None) if index is None else ("cuda", index)

    def __str__(self):
        return self.type if self.index is None else "%s:%d" % (self.type, self.index)


def fake_torch_module():
    torch = types.ModuleType("torch")
    for name in DTYPES:
        setattr(torch, name, FakeDtype(name))

    class Tensor:
        """A fake torch.Tensor: the attributes the launcher reads."""

        def __init__(self, shape, dtype="float32", device=0, pointer=0x10000, strides=None):
            self.shape, self.dtype, self._device = tuple(shape), getattr(torch, dtype), device
            self._pointer, self._itemsize = pointer, DTYPES[dtype].bits // 8
            step, compact = 1, []
            for extent in reversed(self.shape):
                compact.insert(0, step)
                step *= extent
            self._strides = tuple(strides) if strides is not None else tuple(compact)

        is_cuda = property(lambda self: self._device is not None)
        device = property(lambda self: FakeDevice(self._device))

        def get_device(self):
            return -1 if self._device is None else self._device

        def is_contiguous(self):
            return self._strides == Tensor(self.shape)._strides

        def data_ptr(self):
            return self._pointer

        def stride(self):
            return self._strides

        def element_size(self):
            return self._itemsize

    Tensor.__module__ = "torch"
    torch.Tensor = Tensor
    torch._C = types.SimpleNamespace(_cuda_getCurrentRawStream=lambda device: 0x5000 + device)
    return torch


class FakeLibrary:
    """libTirXRuntime.so's launch functions, recording instead of launching."""

    def __init__(self, slot_types):
        self.slot_types = slot_types
        self.loaded, self.launches, self.fail = [], [], False
        self.devices = {}  # pointer -> device, for tirxPointerGetDevice
        # A C function, as the real library's: the C fast path calls it
        # through its address.
        self.tirxLaunchPrepared = LAUNCH_FUNCTION(self._launch_prepared)

    @staticmethod
    def _target(ref):
        return getattr(ref, "_obj", ref)

    def tirxGetLastErrorMessage(self):
        return b"tirxLaunchPrepared: launching 'k' failed: CUDA_ERROR_FAKE"

    def tirxModuleLoadDataOnDevice(self, data, size, device, module):
        self.loaded.append(device)
        self._target(module).value = 0x100 + device
        return 0

    def tirxModuleGetKernel(self, module, name, kernel):
        self._target(kernel).value = module.value + 0x1000
        return 0

    def tirxKernelPrepareLaunch(self, kernel, device, count, launch):
        assert count == len(self.slot_types)
        launch = self._target(launch)
        launch.function, launch.context, launch.numArgs = kernel.value, 0x700 + device, count
        return 0

    def tirxPointerGetDevice(self, pointer, device):
        self._target(device).value = self.devices.get(pointer, 0)
        return 0

    def tirxGetDevice(self, device):
        self._target(device).value = 0
        return 0

    def _launch_prepared(self, launch):
        launch = launch.contents
        values = []
        for i, kind in enumerate(self.slot_types):
            value = ctypes.cast(launch.args[i], ctypes.POINTER(kind)).contents.value
            values.append(value)
        self.launches.append(dict(device=launch.context - 0x700, stream=launch.stream or 0,
                                  grid=tuple(launch.grid), block=tuple(launch.block),
                                  args=values))
        return 1 if self.fail else 0


LAUNCH_FUNCTION = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(runtime._PreparedLaunch))


@pytest.fixture(autouse=True)
def checker_is_built():
    """Every launch goes through the C checker (lib/Python, which `make
    check` builds): its fast path and the general path that calls it."""
    assert runtime._fast_launch_module() is not None, "_fastlaunch.abi3.so was not built"


@pytest.fixture
def torch(monkeypatch):
    module = fake_torch_module()
    monkeypatch.setitem(sys.modules, "torch", module)
    return module


def launcher(monkeypatch, params, grid=(1,), block=(64,), size_vars=()):
    """A Launcher of `params` on a FakeLibrary; returns both."""
    made = runtime.Launcher("k", "// ptx", params, grid, block, size_vars)
    library = FakeLibrary(made._slot_types)
    monkeypatch.setattr(runtime._library, "_lib", library)
    return made, library


def counting_general(made):
    """Counts the calls that take the general path."""
    calls = []
    general = made._globals["_general"]

    def counted(args):
        calls.append(args)
        return general(args)
    made._globals["_general"] = counted
    return calls


#===------------------------------------------------------------------------===#
# The fast path (fake PyTorch tensors)
#===------------------------------------------------------------------------===#

AB = [("A", Kind((2, 32, 4), align=16)), ("B", Kind((2, 32, 4), align=16))]


def test_fast_path_after_the_first_call(monkeypatch, torch):
    made, library = launcher(monkeypatch, AB + [("x", F32), ("n", I32)])
    general = counting_general(made)
    a, b = torch.Tensor((2, 32, 4), pointer=0x20000), torch.Tensor((2, 32, 4), pointer=0x30000)
    made((a, b, 2.5, 7))
    assert len(general) == 1  # the first call loads the kernel on device 0
    for _ in range(3):
        made((a, b, 1.5, -3))
    assert len(general) == 1, "later calls took the general path"
    assert library.loaded == [0]
    assert library.launches[0] == dict(device=0, stream=0x5000, grid=(1, 1, 1),
                                       block=(64, 1, 1), args=[0x20000, 0x30000, 2.5, 7])
    assert library.launches[-1]["args"] == [0x20000, 0x30000, 1.5, -3]
    # An int for a float parameter, on the fast path too.
    made((a, b, 2, 0))
    assert library.launches[-1]["args"][2] == 2.0 and len(general) == 1


def test_the_fast_path_is_the_c_checker(monkeypatch, torch):
    made, library = launcher(monkeypatch, AB)
    assert made.launch is made._native
    a, b = torch.Tensor((2, 32, 4), pointer=0x20000), torch.Tensor((2, 32, 4), pointer=0x30000)
    general = counting_general(made)
    for _ in range(3):
        made((a, b))
    assert len(general) == 1 and len(library.launches) == 3


def test_tirx_fast_launch_0_sends_every_call_to_the_general_path(monkeypatch, torch):
    monkeypatch.setenv("TIRX_FAST_LAUNCH", "0")
    made, library = launcher(monkeypatch, AB)
    a, b = torch.Tensor((2, 32, 4), pointer=0x20000), torch.Tensor((2, 32, 4), pointer=0x30000)
    general = counting_general(made)
    for _ in range(3):
        made((a, b))
    assert len(general) == 3 and len(library.launches) == 3
    # The same checks, the same messages.
    with raises(ValueError, "parameter 'A' has shape (2, 32, 8), expected (2, 32, 4)"):
        made((torch.Tensor((2, 32, 8)), b))


def test_launchers_are_collected(monkeypatch, torch):
    """The C fast path and the Launcher refer to each other (its general
    path is the Launcher's): the cycle collector frees both."""
    made, library = launcher(monkeypatch, AB)
    made((torch.Tensor((2, 32, 4)), torch.Tensor((2, 32, 4))))
    made = weakref.ref(made)  # (the C object holds the Launcher through its general path)
    gc.collect()
    assert made() is None


def test_fast_path_refusals_go_through_the_checks(monkeypatch, torch):
    made, library = launcher(monkeypatch, AB + [("x", F32), ("n", I32)])
    a, b = torch.Tensor((2, 32, 4)), torch.Tensor((2, 32, 4))
    made((a, b, 1.0, 1))
    count = len(library.launches)
    with raises(TypeError, "parameter 'A' needs a CUDA tensor (an object with "
                           "__cuda_array_interface__ or __dlpack__), got Tensor on cpu"):
        made((torch.Tensor((2, 32, 4), device=None), b, 1.0, 1))
    with raises(TypeError, "parameter 'B' has element type <f2, expected <f4 (float32)"):
        made((a, torch.Tensor((2, 32, 4), "float16"), 1.0, 1))
    with raises(TypeError, "parameter 'B' has element type torch.bool, expected <f4"):
        made((a, _with_dtype(torch.Tensor((2, 32, 4)), FakeDtype("bool")), 1.0, 1))
    with raises(ValueError, "parameter 'A' has shape (2, 32, 8), expected (2, 32, 4)"):
        made((torch.Tensor((2, 32, 8)), b, 1.0, 1))
    with raises(ValueError, "parameter 'A' is not contiguous (strides (512, 4, 128) bytes, "
                            "expected (512, 16, 4))"):
        made((torch.Tensor((2, 32, 4), strides=(128, 1, 32)), b, 1.0, 1))
    with raises(ValueError, "parameter 'B' is at address 0x30004, not aligned to the "
                            "declared 16 bytes"):
        made((a, torch.Tensor((2, 32, 4), pointer=0x30004), 1.0, 1))
    with raises(ValueError, "parameter 'x' = 1e+39 is out of range for float32"):
        made((a, b, 1e39, 1))
    with raises(ValueError, "parameter 'n' = 2147483648 is out of range for int32"):
        made((a, b, 1.0, 2 ** 31))
    with raises(TypeError, "k() takes 4 argument(s) (A, B, x, n), got 2"):
        made((a, b))
    assert len(library.launches) == count, "a wrong call reached the launch"
    # What the fast path leaves to the general one still launches.
    made((a, b, float("inf"), True))
    assert library.launches[-1]["args"][2:] == [float("inf"), 1]


def _with_dtype(tensor, dtype):
    tensor.dtype = dtype
    return tensor


def test_launch_failure_is_a_gpu_error(monkeypatch, torch):
    made, library = launcher(monkeypatch, AB)
    a, b = torch.Tensor((2, 32, 4)), torch.Tensor((2, 32, 4))
    made((a, b))
    library.fail = True
    with raises(runtime.GPUError, "tirxLaunchPrepared: launching 'k' failed: "):
        made((a, b))  # the fast path
    with raises(runtime.GPUError, "tirxLaunchPrepared: launching 'k' failed: "):
        made._general((a, b))


def test_other_threads_take_the_general_path(monkeypatch, torch):
    made, library = launcher(monkeypatch, AB)
    general = counting_general(made)
    a, b = torch.Tensor((2, 32, 4), pointer=0x20000), torch.Tensor((2, 32, 4), pointer=0x30000)
    made((a, b))
    made((a, b))
    assert len(general) == 1
    thread = threading.Thread(target=lambda: made((b, a)))
    thread.start()
    thread.join()
    assert len(general) == 2  # not the owner of the slots
    assert library.launches[-1]["args"] == [0x30000, 0x20000]
    made((a, b))
    assert len(general) == 2 and library.launches[-1]["args"] == [0x20000, 0x30000]


def test_threads_launching_at_once_each_pass_their_own_arguments(monkeypatch, torch):
    """The owner's fast path and other threads' general paths interleave
    (the C path releases the GIL during the launch, the fake launch takes it
    back): every launch still reads the arguments of its own call."""
    made, library = launcher(monkeypatch, AB)
    tensors = [(torch.Tensor((2, 32, 4), pointer=0x20000 + 0x1000 * i),
                torch.Tensor((2, 32, 4), pointer=0x80000 + 0x1000 * i)) for i in range(5)]
    made(tensors[0])  # the main thread owns the slots
    errors = []

    def run(pair, count):
        try:
            for _ in range(count):
                made(pair)
        except Exception as error:  # reported below
            errors.append(error)
    threads = [threading.Thread(target=run, args=(pair, 200)) for pair in tensors[1:]]
    for thread in threads:
        thread.start()
    run(tensors[0], 400)
    for thread in threads:
        thread.join()
    assert not errors
    expected = {(a.data_ptr(), b.data_ptr()) for a, b in tensors}
    seen = [tuple(launch["args"]) for launch in library.launches]
    assert len(seen) == 1 + 400 + 4 * 200 and set(seen) == expected
    for a, b in tensors:
        count = seen.count((a.data_ptr(), b.data_ptr()))
        assert count == (401 if a is tensors[0][0] else 200)


#===------------------------------------------------------------------------===#
# Devices: the tensors' device, not the current one
#===------------------------------------------------------------------------===#

def test_launch_on_the_tensors_device(monkeypatch, torch):
    made, library = launcher(monkeypatch, AB)
    general = counting_general(made)
    on0 = (torch.Tensor((2, 32, 4), device=0), torch.Tensor((2, 32, 4), device=0))
    on1 = (torch.Tensor((2, 32, 4), device=1), torch.Tensor((2, 32, 4), device=1))
    made(on1)
    made(on0)
    made(on1)
    made(on0)
    assert library.loaded == [1, 0]  # once per device
    assert [(x["device"], x["stream"]) for x in library.launches] == [
        (1, 0x5001), (0, 0x5000), (1, 0x5001), (0, 0x5000)]
    assert len(general) == 2  # the first call on each device


def test_mixed_devices(monkeypatch, torch):
    made, library = launcher(monkeypatch, AB)
    with raises(ValueError, "parameter 'A' is on cuda:0, but parameter 'B' is on cuda:1; "
                            "the tensors of a call must be on one device"):
        made((torch.Tensor((2, 32, 4), device=0), torch.Tensor((2, 32, 4), device=1)))
    with raises(ValueError, "parameter 'A' is on cuda:1, but parameter 'B' is on cuda:0"):
        made((Producer((2, 32, 4), device=1), Producer((2, 32, 4), device=0)))
    # A __cuda_array_interface__ object is placed by its pointer, after the checks.
    library.devices[0x90000] = 1
    with raises(ValueError, "parameter 'A' is on cuda:0, but parameter 'B' is on cuda:1"):
        made((torch.Tensor((2, 32, 4), device=0), FakeCuda((2, 32, 4), pointer=0x90000)))
    assert library.launches == [] and library.loaded == []


class FakeCuda:
    def __init__(self, shape, typestr="<f4", pointer=0x10000):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr,
                                         "data": (pointer, False), "version": 3}


def test_interface_objects_are_placed_by_their_pointer(monkeypatch):
    made, library = launcher(monkeypatch, AB)
    library.devices[0x80000] = 3
    made((FakeCuda((2, 32, 4), pointer=0x80000), FakeCuda((2, 32, 4), pointer=0x80000)))
    assert library.loaded == [3] and library.launches[-1]["device"] == 3
    assert library.launches[-1]["stream"] == 0  # neither PyTorch nor CuPy: the default


def test_scalars_only_kernel_runs_on_the_current_device(monkeypatch):
    made, library = launcher(monkeypatch, [("n", I32)])
    made((5,))
    assert library.launches[-1]["device"] == 0 and library.launches[-1]["args"] == [5]


#===------------------------------------------------------------------------===#
# Size variables
#===------------------------------------------------------------------------===#

N = SizeVar("n", multiple_of=4)
M = SizeVar("m")


def sized(monkeypatch, grid=(CeilDiv("n", 128), CeilDiv("m", 1))):
    params = [("A", Kind((N, M), align=16)), ("B", Kind((N,), align=16)), ("x", F32)]
    return launcher(monkeypatch, params, grid=grid, block=(128,), size_vars=[N, M])


def test_sizes_are_bound_passed_and_used_for_the_grid(monkeypatch, torch):
    made, library = sized(monkeypatch)
    general = counting_general(made)
    for n, m in ((256, 3), (260, 3), (256, 3), (4, 1)):
        made((torch.Tensor((n, m), pointer=0x20000), torch.Tensor((n,), pointer=0x30000), 1.0))
        assert library.launches[-1]["args"] == [0x20000, 0x30000, 1.0, n, m]
        assert library.launches[-1]["grid"] == (-(-n // 128), m, 1)
    assert len(general) == 1  # new sizes stay on the fast path
    # The general path binds them the same way.
    made((FakeCuda((8, 2), pointer=0x20000), FakeCuda((8,), pointer=0x30000), 1.0))
    assert library.launches[-1]["args"][3:] == [8, 2]
    assert library.launches[-1]["grid"] == (1, 2, 1)


def test_size_variable_errors(monkeypatch, torch):
    made, library = sized(monkeypatch)
    for make in (torch.Tensor, FakeCuda):
        with raises(ValueError, "parameter 'B' has shape (5,), but n = 4 from parameter 'A' "
                                "(its dimension 0; dimension 0 of 'B' is n too)"):
            made((make((4, 2)), make((5,)), 1.0))
        with raises(ValueError, "parameter 'A': n = 6 is not a multiple of 4, as the size "
                                "variable n declares"):
            made((make((6, 2)), make((6,)), 1.0))
        with raises(ValueError, "parameter 'A' has shape (8, 0): dimension 1 is the size "
                                "variable m, and a size must be at least 1"):
            made((make((8, 0)), make((8,)), 1.0))
        with raises(ValueError, "parameter 'B' has rank 2, expected 1 (shape (n,))"):
            made((make((8, 2)), make((8, 1)), 1.0))
    assert library.launches == []


def test_size_variable_at_most(monkeypatch, torch):
    """T.dynamic(..., at_most=): the largest value is accepted, one chunk more
    is refused with the variable's name before anything launches, on the
    fast paths (the C one and the generated Python one: `torch`) and the
    general path (FakeCuda)."""
    n = SizeVar("n", multiple_of=4, at_most=64)
    made, library = launcher(monkeypatch, [("A", Kind((n,), align=16))],
                             grid=(CeilDiv("n", 64),), block=(64,), size_vars=[n])
    for make in (torch.Tensor, FakeCuda):
        made((make((64,), pointer=0x20000),))
        assert library.launches[-1]["args"] == [0x20000, 64]
        launches = len(library.launches)
        with raises(ValueError, "parameter 'A': n = 68 is more than 64, the most the size "
                                "variable n declares"):
            made((make((68,)),))
        assert len(library.launches) == launches


def test_static_dimensions_beside_size_variables(monkeypatch, torch):
    made, library = launcher(monkeypatch, [("A", Kind((N, 64)))], grid=(CeilDiv("n", 4),),
                             size_vars=[N])
    with raises(ValueError, "parameter 'A' has shape (8, 32), expected (n, 64)"):
        made((torch.Tensor((8, 32)),))
    made((torch.Tensor((8, 64)),))
    made((torch.Tensor((12, 64)),))
    assert [x["grid"] for x in library.launches] == [(2, 1, 1), (3, 1, 1)]


def test_grid_out_of_range(monkeypatch, torch):
    for grid, message in [
            ((Value(0),), "the grid's x extent is 0 for n = 4, m = 1; it must be from 1 to "
                          "2147483647"),
            ((Value(2 ** 31),), "the grid's x extent is 2147483648 for n = 4, m = 1; it must "
                                "be from 1 to 2147483647"),
            ((1, Value(65536)), "the grid's y extent is 65536 for n = 4, m = 1; it must be "
                                "from 1 to 65535"),
            ((1, 1, Value(-1)), "the grid's z extent is -1 for n = 4, m = 1; it must be from "
                                "1 to 65535")]:
        made, library = sized(monkeypatch, grid)
        for make in (torch.Tensor, FakeCuda):
            with raises(ValueError, message):
                made((make((4, 1)), make((4,)), 1.0))
        assert library.launches == []
    made, library = sized(monkeypatch, (Value(2.5),))
    with raises(TypeError, "the grid's x extent evaluated to 2.5 (a float), not an int"):
        made((torch.Tensor((4, 1)), torch.Tensor((4,)), 1.0))


def test_grid_must_be_whole_clusters(monkeypatch, torch):
    # A kernel launched in clusters of 2 CTAs along x (LaunchConfig(cluster=2)):
    # a runtime grid extent must be a multiple of 2.
    params = [("A", Kind((N, M), align=16)), ("B", Kind((N,), align=16)), ("x", F32)]
    made = runtime.Launcher("k", "// ptx", params, (CeilDiv("n", 4),), (128,), [N, M],
                            cluster=(2,))
    library = FakeLibrary(made._slot_types)
    monkeypatch.setattr(runtime._library, "_lib", library)
    made((torch.Tensor((8, 1)), torch.Tensor((8,)), 1.0))
    assert library.launches[-1]["grid"] == (2, 1, 1)
    with raises(ValueError, "the grid's x extent is 3 for n = 12, m = 1; the kernel runs in "
                            "clusters of 2 CTAs along x, which must divide it"):
        made((torch.Tensor((12, 1)), torch.Tensor((12,)), 1.0))
    assert len(library.launches) == 1


def test_grid_expression_without_size_variables(monkeypatch, torch):
    made, library = launcher(monkeypatch, AB, grid=(Value(3), 2))
    a = torch.Tensor((2, 32, 4))
    for _ in range(3):
        made((a, a))
    assert [x["grid"] for x in library.launches] == [(3, 2, 1)] * 3


def test_size_variable_in_no_shape():
    with raises(TypeError, "k: the size variable m is in no tensor parameter's shape, so no "
                           "call can give it a value"):
        runtime.Launcher("k", "", [("A", Kind((N,)))], (1,), (1,), [N, M])


#===------------------------------------------------------------------------===#
# DLPack
#===------------------------------------------------------------------------===#

_api = ctypes.PyDLL(None)
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_api.PyCapsule_IsValid.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_GetName.argtypes = [ctypes.py_object]
_api.PyCapsule_GetName.restype = ctypes.c_char_p
_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class Producer:
    """An array API object with only __dlpack__ and __dlpack_device__,
    exporting a DLManagedTensor[Versioned] as DLPack says: a capsule named
    dltensor[_versioned] whose destructor calls the deleter unless a
    consumer renamed it."""

    def __init__(self, shape, dtype=(2, 32, 1), device=0, device_type=2, data=0x40000,
                 strides=None, byte_offset=0, versioned=True, version=(1, 0),
                 old_signature=False, capsule_name=None):
        self.shape, self.dtype, self.device, self.device_type = shape, dtype, device, device_type
        self.data, self.strides, self.byte_offset = data, strides, byte_offset
        self.versioned, self.version, self.old_signature = versioned, version, old_signature
        self.capsule_name = capsule_name
        self.deleted, self.streams, self.capsules = 0, [], []
        self._keep = []

    def __dlpack_device__(self):
        return (self.device_type, self.device)

    def __dlpack__(self, stream=None, **kwargs):
        if self.old_signature and kwargs:
            raise TypeError("__dlpack__() got an unexpected keyword argument 'max_version'")
        self.streams.append(stream)
        versioned = self.versioned and "max_version" in kwargs
        struct = runtime._DLManagedTensorVersioned if versioned else runtime._DLManagedTensor
        managed = struct()
        tensor = managed.dl_tensor
        shape = (ctypes.c_int64 * max(len(self.shape), 1))(*self.shape)
        tensor.data, tensor.device_type, tensor.device_id = self.data, self.device_type, \
            self.device
        tensor.ndim, tensor.shape, tensor.byte_offset = len(self.shape), shape, \
            self.byte_offset
        tensor.code, tensor.bits, tensor.lanes = self.dtype
        if self.strides is not None:
            strides = (ctypes.c_int64 * len(self.strides))(*self.strides)
            tensor.strides = strides
            self._keep.append(strides)
        if versioned:
            managed.major, managed.minor = self.version

        def deleter(address):
            assert address == ctypes.addressof(managed)
            self.deleted += 1
        deleter = _DESTRUCTOR(deleter)
        managed.deleter = ctypes.cast(deleter, ctypes.c_void_p).value
        name = self.capsule_name or (b"dltensor_versioned" if versioned else b"dltensor")

        def destructor(capsule):
            if _api.PyCapsule_IsValid(capsule, name):  # never consumed
                deleter(ctypes.addressof(managed))
        destructor = _DESTRUCTOR(destructor)
        self._keep += [managed, shape, deleter, destructor, name]
        capsule = _api.PyCapsule_New(ctypes.addressof(managed), name,
                                     ctypes.cast(destructor, ctypes.c_void_p).value)
        self.capsules.append(capsule)
        return capsule


def test_dlpack_objects_are_consumed_as_the_protocol_says(monkeypatch):
    made, library = launcher(monkeypatch, AB)
    for versioned, old in ((True, False), (False, False), (True, True)):
        a = Producer((2, 32, 4), data=0x40000, versioned=versioned, old_signature=old)
        b = Producer((2, 32, 4), data=0x50000, byte_offset=16, strides=(128, 4, 1))
        made((a, b))
        assert library.launches[-1]["args"] == [0x40000, 0x50010]
        assert library.launches[-1]["device"] == 0
        for producer in (a, b):
            assert producer.deleted == 1  # by the launcher, after the launch
            assert producer.streams == [1]  # the legacy default stream: 1, not 0
            expected = b"used_dltensor_versioned" if versioned and not old else b"used_dltensor"
            if producer is b:
                expected = b"used_dltensor_versioned"
            assert _api.PyCapsule_GetName(producer.capsules[-1]) == expected
    # With a PyTorch tensor in the call, the stream is PyTorch's of the device.
    torch = fake_torch_module()
    monkeypatch.setitem(sys.modules, "torch", torch)
    a = Producer((2, 32, 4), device=2)
    made((torch.Tensor((2, 32, 4), device=2), a))
    assert a.streams == [0x5002] and a.deleted == 1
    assert library.launches[-1]["device"] == 2 and library.launches[-1]["stream"] == 0x5002


def test_dlpack_errors(monkeypatch):
    made, library = launcher(monkeypatch, AB)
    good = Producer((2, 32, 4))
    cases = [
        (Producer((2, 32, 4), device_type=1), TypeError,
         "parameter 'A' needs a CUDA tensor (an object with __cuda_array_interface__ or "
         "__dlpack__), got Producer on DLPack device cpu"),
        (Producer((64, 4)), ValueError, "parameter 'A' has rank 2, expected 3"),
        (Producer((2, 32, 8)), ValueError, "parameter 'A' has shape (2, 32, 8), expected"),
        (Producer((2, 32, 4), dtype=(2, 16, 1)), TypeError,
         "parameter 'A' has element type <f2, expected <f4 (float32)"),
        (Producer((2, 32, 4), dtype=(2, 32, 4)), TypeError,
         "parameter 'A' has element type DLPack (code 2, bits 32, lanes 4), expected <f4"),
        (Producer((2, 32, 4), strides=(128, 1, 32)), ValueError,
         "parameter 'A' is not contiguous (strides (512, 4, 128) bytes, expected (512, 16, 4))"),
        (Producer((2, 32, 4), byte_offset=4), ValueError,
         "parameter 'A' is at address 0x40004, not aligned to the declared 16 bytes"),
        (Producer((2, 32, 4), data=0), ValueError,
         "parameter 'A' has no device memory (data pointer 0)"),
        (Producer((2, 32, 4), version=(2, 0)), ValueError,
         "parameter 'A': its DLPack tensor has version 2.0; TirX reads version 1"),
    ]
    for producer, error, message in cases:
        with raises(error, message):
            made((producer, good))
        # Consumed (renamed) before the check failed: the launcher deletes it.
        assert producer.deleted == (1 if producer.capsules else 0), message
    assert library.launches == []
    assert good.deleted == len(good.capsules) == 0  # never reached
    # A capsule of another name is not consumed, so not deleted by the launcher.
    wrong = Producer((2, 32, 4), capsule_name=b"something")
    with raises(TypeError, "parameter 'A': __dlpack__() returned PyCapsule, not an unused "
                           "DLPack capsule (named 'dltensor' or 'dltensor_versioned')"):
        made((wrong, good))
    assert wrong.deleted == 0
    wrong.capsules.clear()  # the producer still owns it: its capsule's destructor deletes it
    assert wrong.deleted == 1


def test_malformed_dlpack_tensor(monkeypatch):
    made, library = launcher(monkeypatch, AB)

    class NoShape(Producer):
        def __dlpack__(self, stream=None, **kwargs):
            capsule = super().__dlpack__(stream, **kwargs)
            self._keep[0].dl_tensor.shape = None
            return capsule
    with raises(TypeError, "parameter 'A' has a malformed DLPack tensor (ndim 3, shape NULL)"):
        made((NoShape((2, 32, 4)), Producer((2, 32, 4))))


def test_check_argument_reads_dlpack():
    producer = Producer((2, 32, 4))
    assert runtime.check_argument("A", AB[0][1], producer).value == 0x40000
    assert producer.deleted == 1


def test_stand_in_kinds_match_the_dsl():
    """The stand-ins read what the DSL's TensorType offers."""
    kind = TS.Tensor((2, 32, 4), "float32", align=16).type
    assert kind.shape == (2, 32, 4) and kind.alignment_or_default == 16
    assert kind.dtype is DTYPES["float32"]


def test_every_scalar_type(monkeypatch, torch):
    """A fast path for every scalar type the launcher passes; the values
    reach their slots exactly, and out-of-range values are refused."""
    # ("bool" scalars, i1 kernel arguments, take the general path.)
    scalars = [(name, DTYPES[name]) for name in DTYPES
               if name not in ("float16", "bfloat16", "bool")]
    made, library = launcher(monkeypatch, [AB[0]] + scalars)
    general = counting_general(made)
    a = torch.Tensor((2, 32, 4))
    highs = []
    for _, kind in scalars:
        if kind.is_float:
            highs.append(0.5)
        else:
            highs.append((1 << (kind.bits - (1 if kind.kind == "i" else 0))) - 1)
    made((a, *highs))
    made((a, *highs))
    assert len(general) == 1
    assert library.launches[-1]["args"][1:] == highs
    for index, (name, kind) in enumerate(scalars):
        if kind.is_float:
            continue
        values = list(highs)
        values[index] += 1
        with raises(ValueError, "parameter '%s' = %d is out of range for %s" % (
                name, values[index], name)):
            made((a, *values))


#===------------------------------------------------------------------------===#
# TMA kernels: the C fast path, tensor maps encoded in C
#===------------------------------------------------------------------------===#

_ENCODE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint,
                           ctypes.c_char_p, ctypes.c_uint, ctypes.POINTER(ctypes.c_ulonglong),
                           ctypes.POINTER(ctypes.c_ulonglong), ctypes.POINTER(ctypes.c_uint),
                           ctypes.c_uint)


class TmaLibrary(FakeLibrary):
    """FakeLibrary with a tensor map encoder (C functions, as the checker
    calls them through their addresses): each map records the tensor's
    address and its extents; each launch, the maps it passes."""

    def __init__(self, slot_types, maps):
        super().__init__(slot_types)
        self.maps, self.encoded = maps, []
        self.tirxTensorMapEncodeTyped = _ENCODE(self._encode)
        self.tirxGetLastErrorMessage = ctypes.CFUNCTYPE(ctypes.c_void_p)(lambda: None)

    def _encode(self, where, address, element_bytes, element, rank, extents, strides, box,
                swizzle):
        shape = tuple(extents[i] for i in range(rank))
        self.encoded.append((address, shape))
        ctypes.c_uint64.from_address(where).value = address
        ctypes.c_uint64.from_address(where + 8).value = shape[0]
        return 0

    def tirxKernelPrepareLaunch(self, kernel, device, count, launch):
        assert count == len(self.slot_types) + self.maps
        launch = self._target(launch)
        launch.function, launch.context, launch.numArgs = kernel.value, 0x700 + device, count
        return 0

    def _launch_prepared(self, launch):
        result = super()._launch_prepared(launch)
        args, n = launch.contents.args, len(self.slot_types)
        self.launches[-1]["maps"] = [
            (ctypes.c_uint64.from_address(args[n + k]).value,
             ctypes.c_uint64.from_address(args[n + k] + 8).value) for k in range(self.maps)]
        return result


def test_tma_kernels_take_the_c_fast_path(monkeypatch, torch):
    """A kernel with tensor maps launches through the C checker after its
    first call; its maps are encoded in C and re-encoded only when a
    tensor's pointer or shape changes; the general path (another thread)
    encodes maps of its own."""
    params = [("A", Kind((N, 64), "bfloat16", align=16)), ("B", Kind((N, 64), "bfloat16",
                                                                      align=16))]
    made = runtime.Launcher("k", "// ptx", params, (CeilDiv("n", 64),), (128,), [N],
                            tensor_maps=[(0, (64, 64), 128), (1, (64, 64), 128, "f32")])
    library = TmaLibrary(made._slot_types, 2)
    monkeypatch.setattr(runtime._library, "_lib", library)
    general = counting_general(made)
    a, b = torch.Tensor((128, 64), "bfloat16", pointer=0x20000), \
        torch.Tensor((128, 64), "bfloat16", pointer=0x30000)
    made((a, b))  # the general path: this call's own maps
    assert len(general) == 1 and library.encoded == [(0x20000, (128, 64)), (0x30000, (128, 64))]
    for _ in range(3):
        made((a, b))
    assert len(general) == 1, "a TMA kernel left the C fast path"
    assert len(library.encoded) == 4  # the fast path's maps, once
    assert library.launches[-1]["maps"] == [(0x20000, 128), (0x30000, 128)]
    assert made._native.map_cache() == ((0x20000, (128, 64), (128,), 1),
                                        (0x30000, (128, 64), (128,), 1))
    c = torch.Tensor((256, 64), "bfloat16", pointer=0x40000)
    made((c, torch.Tensor((256, 64), "bfloat16", pointer=0x30000)))  # both shapes change
    assert len(library.encoded) == 6 and library.launches[-1]["maps"] == [(0x40000, 256),
                                                                           (0x30000, 256)]
    assert library.launches[-1]["grid"] == (4, 1, 1) and len(general) == 1
    thread = threading.Thread(target=lambda: made((a, b)))
    thread.start()
    thread.join()
    assert len(general) == 2 and library.launches[-1]["maps"] == [(0x20000, 128), (0x30000, 128)]
    assert made._native.map_cache()[0][0] == 0x40000  # the owner's maps are untouched
    # A wrong argument is refused before any map is encoded.
    count = len(library.encoded)
    with raises(ValueError, "parameter 'B' has shape (64, 64), but n = 128 from parameter 'A'"):
        made((a, torch.Tensor((64, 64), "bfloat16")))
    assert len(library.encoded) == count
