"""The launcher of one compiled kernel: what is prepared once per kernel
and per device, and its two paths, both through the one argument checker
in C (lib/Python/FastLaunch.c, described by _plan.Plan):

- the fast path, the C Launcher itself: PyTorch tensors on one CUDA device
  and plain Python scalars, checked through their attributes, written into
  the argument slots, TMA maps re-encoded when a tensor changed, and the
  kernel launched (`tirxLaunchPrepared`) on the tensors' device and its
  current PyTorch stream;
- the general path (`Launcher._general`), taken by anything the fast path
  does not take: it reads each argument through its protocol (PyTorch,
  `__cuda_array_interface__`, DLPack) and runs the same checks, which raise
  the error that names the parameter, then launches with fresh values.

Nothing reaches the GPU before every argument is checked. The fast path's
slots and maps belong to the first thread that launches the kernel; other
threads take the general path, so concurrent calls never share a buffer.
"""
import ctypes
import numbers
import sys
import threading
import warnings

from .._dsl import DType
from ._arguments import _torch_typestr, read_tensor
from ._devices import _device_of, _dlpack_only, _stream, _stream_source, _torch_stream
from ._library import _INVALID_IMAGE, _PreparedLaunch, _check, _raise_last_error, _runtime
from ._plan import READ_TORCH, MapBuffer, Plan, _is_static


def check_metadata(compiled, args):
    """The checks of a call that read no data: the argument count, and for
    each tensor parameter a CUDA PyTorch tensor (real or fake) of the
    declared rank, shape (size variables bound and checked) and dtype. The
    fake implementation of Compiled.as_torch_op (torch.compile traces with
    fake tensors); scalars, strides and pointers are checked at the launch."""
    plan = compiled.__dict__.get("_metadata_plan")
    if plan is None:
        plan = Plan(compiled.name, compiled.params, getattr(compiled, "size_vars", None) or (),
                    fast=False)
        compiled._metadata_plan = plan
    checker = plan.checker
    checker.check_count(tuple(args))
    torch = sys.modules["torch"]
    sizes = [None] * len(plan.size_vars)
    for index, ((name, kind), arg) in enumerate(zip(compiled.params, args)):
        if isinstance(kind, DType):
            continue
        if not isinstance(arg, torch.Tensor) or arg.device.type != "cuda":
            checker.not_cuda(index, arg, getattr(arg, "device", None))
        checker.check_tensor(index, sizes, tuple(arg.shape), _torch_typestr(arg.dtype), None,
                             None, False, READ_TORCH, True)


_GRID_LIMITS = (("x", 2 ** 31 - 1), ("y", 65535), ("z", 65535))
_GRID_CACHE_SIZE = 4096


class Launcher:
    """The launch path of one compiled kernel. What does not change between
    calls is prepared once: the checks (the C checker of the kernel's
    descriptor), the block, the grid (or how to evaluate it from the size
    variables), the argument slots and tensor maps, and per device the
    loaded kernel. `launcher(args)` checks `args` (a tuple) and launches on
    the tensors' device. `native` False sends every call to the general
    path (as TIRX_FAST_LAUNCH=0 does)."""

    def __init__(self, name, ptx, params, grid, block, size_vars=(), shared_bytes=0,
                 tensor_maps=(), cluster=(), native=None, cubin=None, arch=None):
        self._name, self._ptx = name, ptx
        # ptxas's cubin of the PTX (None without ptxas): loaded as is, so
        # the first launch compiles nothing; the PTX is the fallback.
        self._cubin, self._arch = cubin, arch
        # Thread-block cluster extents (the PTX requires them; a runtime grid
        # extent must be a multiple of them, checked per grid).
        self._cluster = tuple(cluster) + (1,) * (3 - len(tuple(cluster)))
        # Dynamic shared memory each launch passes (a kernel past CUDA's
        # 48 KiB static limit; docs/lowering.md).
        self._shared_bytes = shared_bytes
        self._params = list(params)
        self._size_vars = list(size_vars)
        grid = tuple(grid)
        self._grid = grid + (1,) * (3 - len(grid))
        self._block = tuple(block) + (1,) * (3 - len(tuple(block)))
        self._dynamic_grid = not all(_is_static(g) for g in self._grid)
        used = {d.name for _, kind in self._params if not isinstance(kind, DType)
                for d in kind.shape if not _is_static(d)}
        for var in self._size_vars:
            if var.name not in used:
                raise TypeError("%s: the size variable %s is in no tensor parameter's shape, "
                                "so no call can give it a value" % (name, var.name))
        self._lock = threading.Lock()
        self._modules = {}   # device -> (module, kernel): what is loaded there
        self._prepared = {}  # device -> _PreparedLaunch of the fast path
        self._grids = {}     # sizes -> (c_uint * 3) of a dynamic grid
        self._owner = None   # the thread whose calls use the fast path's slots
        self._torch = None   # torch.Tensor, once bound
        self._encoder = False  # whether the checker has the map encoder
        # The general path, behind a name tests can wrap.
        self._globals = {"_general": self._general}
        g = self._globals
        # The kernel described once; the C checker runs every check. TMA
        # tensor maps (docs/hopper.md) are passed after every parameter:
        # entries (parameter, box, swizzle[, element type]).
        self._plan = Plan(name, self._params, self._size_vars, tensor_maps,
                          general=lambda args: g["_general"](args), failed=_raise_last_error,
                          grids=self._grids if self._dynamic_grid else None,
                          grid_for=self._grid_for, fast=native is not False)
        self._native = self._plan.checker
        self._maps = self._plan.maps
        self._slot_types, self._slots = self._plan.slot_types, self._plan.slots
        self._pointers = self._plan.pointers
        self.launch = self._native

    def __call__(self, args):
        return self.launch(args)

    # The general path -------------------------------------------------------

    def _bind_torch(self):
        """Lets the fast path see PyTorch once it is imported."""
        torch = sys.modules.get("torch")
        if torch is None or self._torch is not None:
            return torch
        self._native.bind(torch.Tensor, _torch_stream(), tuple(
            None if isinstance(kind, DType) else getattr(torch, kind.dtype.name, None)
            for _, kind in self._params))
        self._torch = torch.Tensor
        return torch

    def _bind_encoder(self):
        """Gives the checker the runtime's tensor map encoder (a kernel with
        TMA maps only: loading the runtime library)."""
        if self._encoder or not self._maps:
            return
        lib = _runtime()
        self._native.set_encoder(
            ctypes.cast(lib.tirxTensorMapEncodeTyped, ctypes.c_void_p).value,
            ctypes.cast(lib.tirxGetLastErrorMessage, ctypes.c_void_p).value)
        self._encoder = True

    def _general(self, args):
        """Reads each argument through its protocol and checks it (the C
        checker raises the error that names the first wrong one); then
        launches with fresh ctypes values and tensor maps."""
        if type(args) is not tuple:
            args = tuple(args)
        checker = self._native
        checker.check_count(args)
        torch = self._bind_torch()
        tensor_type = torch.Tensor if torch is not None else None
        # Where the tensors are, from what they say without a GPU call.
        place = [None, None]
        for index, ((name, kind), arg) in enumerate(zip(self._params, args)):
            if isinstance(kind, DType):
                continue
            where = _device_of(arg, tensor_type)
            if where is not None:
                checker.check_device(place, index, where)
        source = _stream_source(args)
        stream = None
        values, unplaced, releases = [], [], []
        sizes = [None] * len(self._size_vars)
        pointers, shapes = {}, {}
        try:
            for index, ((name, kind), arg) in enumerate(zip(self._params, args)):
                if isinstance(kind, DType):
                    values.append(self._slot_types[index](checker.check_scalar(index, arg)))
                    continue
                if stream is None and place[0] is not None and _dlpack_only(arg, tensor_type):
                    stream = _stream(source, place[0])  # what __dlpack__ exports for
                pointer, shape = read_tensor(checker, index, name, arg, sizes, stream or 0,
                                             releases)
                values.append(ctypes.c_void_p(pointer))
                pointers[index], shapes[index] = pointer, shape
                if _device_of(arg, tensor_type) is None:
                    unplaced.append((index, pointer))
            key = tuple(entry[0] for entry in sizes)
            grid = self._grid_for(key)
            values += [ctypes.c_int64(v) for v in key]
            # This call's own maps: the general path runs on any thread.
            self._bind_encoder()
            maps = [MapBuffer() for _ in self._maps]
            for k, ((param, *_), buffer) in enumerate(zip(self._maps, maps)):
                checker.encode_map(k, pointers[param], shapes[param], buffer.address)
            # Every argument is right. Tensors that only a GPU call can place.
            for index, pointer in unplaced:
                where = ctypes.c_int()
                _check(_runtime().tirxPointerGetDevice(pointer, ctypes.byref(where)))
                checker.check_device(place, index, where.value)
            device = place[0]
            if device is None:  # no tensor: the current device
                where = ctypes.c_int()
                _check(_runtime().tirxGetDevice(ctypes.byref(where)))
                device = where.value
            prepared = self._prepare(device)
            launch = _PreparedLaunch.from_buffer_copy(prepared)
            array = (ctypes.c_void_p * max(len(values) + len(maps), 1))(
                *([ctypes.addressof(v) for v in values] + [m.address for m in maps]))
            launch.args = array
            launch.grid[:] = grid
            launch.stream = _stream(source, device) if stream is None else stream
            _check(_runtime().tirxLaunchPrepared(ctypes.byref(launch)))
        finally:
            for release in releases:
                release()
        if self._owner is None:
            self._owner = threading.get_ident()
            self._native.set_owner(self._owner)

    def _grid_for(self, key):
        """The grid (a c_uint * 3) for the sizes `key` (in size_vars order),
        checked, and cached."""
        grid = self._grids.get(key)
        if grid is not None:
            return grid
        sizes = dict(zip((v.name for v in self._size_vars), key))
        extents = []
        for (axis, limit), entry in zip(_GRID_LIMITS, self._grid):
            value = entry if _is_static(entry) else entry.evaluate(dict(sizes))
            if not isinstance(value, numbers.Integral) or isinstance(value, bool):
                raise TypeError("the grid's %s extent evaluated to %r (a %s), not an int" % (
                    axis, value, type(value).__name__))
            if not 1 <= value <= limit:
                raise ValueError("the grid's %s extent is %d for %s; it must be from 1 to %d"
                                 % (axis, value, ", ".join("%s = %d" % kv
                                                           for kv in sizes.items()), limit))
            cluster = self._cluster[len(extents)]
            if value % cluster:
                raise ValueError("the grid's %s extent is %d for %s; the kernel runs in clusters "
                                 "of %d CTAs along %s, which must divide it"
                                 % (axis, value, ", ".join("%s = %d" % kv for kv in sizes.items()),
                                    cluster, axis))
            extents.append(int(value))
        grid = (ctypes.c_uint * 3)(*extents)
        if len(self._grids) >= _GRID_CACHE_SIZE:
            self._grids.clear()
        self._grids[key] = grid
        return grid

    def _load(self, lib, device):
        """The module and kernel on `device`: the cubin when there is one,
        else the PTX (the driver's JIT). A cubin the driver refuses as an
        image (made for another chip than this device's) falls back to the
        PTX, with a warning."""
        module, kernel = ctypes.c_void_p(), ctypes.c_void_p()
        loaded = False
        if self._cubin:
            status = lib.tirxModuleLoadDataOnDevice(self._cubin, len(self._cubin), device,
                                                    ctypes.byref(module))
            if status == _INVALID_IMAGE:
                warnings.warn("tirx: kernel '%s': its cubin for %s does not load on device "
                              "%d (%s); the driver JIT-compiles its PTX instead"
                              % (self._name, self._arch, device,
                                 lib.tirxGetLastErrorMessage().decode()),
                              RuntimeWarning, stacklevel=4)
            else:
                _check(status)
                loaded = True
        if not loaded:
            data = self._ptx.encode()
            _check(lib.tirxModuleLoadDataOnDevice(data, len(data), device,
                                                  ctypes.byref(module)))
        _check(lib.tirxModuleGetKernel(module, self._name.encode(), ctypes.byref(kernel)))
        return module, kernel

    def _prepare(self, device):
        """The fast path's launch on `device`, the kernel loaded there first."""
        prepared = self._prepared.get(device)
        if prepared is not None:
            return prepared
        with self._lock:
            prepared = self._prepared.get(device)
            if prepared is not None:
                return prepared
            lib = _runtime()
            module, kernel = self._load(lib, device)
            prepared = _PreparedLaunch()
            _check(lib.tirxKernelPrepareLaunch(kernel, device,
                                               len(self._slots) + len(self._maps),
                                               ctypes.byref(prepared)))
            prepared.block[:] = self._block
            if self._shared_bytes:
                _check(lib.tirxPreparedLaunchSetSharedBytes(ctypes.byref(prepared),
                                                            self._shared_bytes))
            if not self._dynamic_grid:
                prepared.grid[:] = self._grid
            prepared.args = self._pointers
            self._native.set_prepared(
                device, ctypes.addressof(prepared),
                ctypes.cast(lib.tirxLaunchPrepared, ctypes.c_void_p).value)
            self._modules[device] = (module, kernel)
            self._prepared[device] = prepared
            return prepared
