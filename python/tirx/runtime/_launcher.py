"""The launcher of one compiled kernel: what is prepared once per kernel
and per device, the general path (every check, one argument at a time) and
the fast paths (generated Python, and the C one of lib/Python/FastLaunch.c).
"""
import ctypes
import numbers
import sys
import threading
import warnings

from .._dsl import DType
from ._arguments import (_CTYPES, _TORCH_TYPESTR, _check_scalar, _check_shape, _check_tensor,
                         _dtype_error, _fast_scalar_range, _is_static, _needs_cuda)
from ._devices import _device_of, _dlpack_only, _stream, _stream_source, _torch_stream
from ._library import (_INVALID_IMAGE, _PreparedLaunch, _check, _fast_launch_module,
                       _raise_last_error, _runtime)
from ._tensormap import _TensorMap

def _count_error(name, params, args):
    return TypeError("%s() takes %d argument(s) (%s), got %d" % (
        name, len(params), ", ".join(n for n, _ in params), len(args)))


def check_metadata(compiled, args):
    """The checks of a call that read no data: the argument count, and for
    each tensor parameter a CUDA PyTorch tensor (real or fake) of the
    declared rank, shape (size variables bound and checked) and dtype. The
    fake implementation of Compiled.as_torch_op (torch.compile traces with
    fake tensors); scalars, strides and pointers are checked at the launch."""
    if len(args) != len(compiled.params):
        raise _count_error(compiled.name, compiled.params, args)
    torch = sys.modules["torch"]
    sizes, bound = {}, {}
    for (name, kind), arg in zip(compiled.params, args):
        if isinstance(kind, DType):
            continue
        if not isinstance(arg, torch.Tensor) or arg.device.type != "cuda":
            raise _needs_cuda(name, arg)
        _check_shape(name, kind, tuple(arg.shape), sizes, bound)
        if arg.dtype != getattr(torch, kind.dtype.name, None):
            raise _dtype_error(name, _TORCH_TYPESTR.get(str(arg.dtype), str(arg.dtype)), kind)


_GRID_LIMITS = (("x", 2 ** 31 - 1), ("y", 65535), ("z", 65535))
_GRID_CACHE_SIZE = 4096


class _NoTorch:
    """Stands for torch.Tensor until PyTorch is imported (nothing is one)."""


class Launcher:
    """The launch path of one compiled kernel. What does not change between
    calls is prepared once: the checks, the block, the grid (or how to
    evaluate it from the size variables), the argument slots, and per
    device the loaded kernel. `launcher(args)` checks `args` (a tuple) and
    launches on the tensors' device."""

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
        self._slot_types = [_CTYPES.get(kind.mlir, ctypes.c_int64) if isinstance(kind, DType)
                            else ctypes.c_void_p for _, kind in self._params]
        self._slot_types += [ctypes.c_int64] * len(self._size_vars)
        self._lock = threading.Lock()
        self._modules = {}   # device -> (module, kernel): what is loaded there
        self._prepared = {}  # device -> _PreparedLaunch of the fast path
        self._grids = {}     # sizes -> (c_uint * 3) of a dynamic grid
        # The fast path's argument slots (the owner thread's).
        self._slots = [t() for t in self._slot_types]
        # TMA tensor maps (docs/hopper.md): passed after every parameter.
        # Entries (parameter, box, swizzle[, element type]).
        self._maps = [_TensorMap(self._params[entry[0]][0], entry[0],
                                 self._params[entry[0]][1].dtype.bits // 8, entry[1], entry[2],
                                 entry[3] if len(entry) > 3 else "")
                      for entry in tensor_maps]
        self._pointers = (ctypes.c_void_p * max(len(self._slots) + len(self._maps), 1))(
            *([ctypes.addressof(s) for s in self._slots] + [m.address for m in self._maps]))
        self.launch = self._generate()
        # The fast path in C (native=None: when it was built; True: required,
        # False: never). TMA kernels re-encode maps per call in Python.
        self._native = None
        module = _fast_launch_module() if native is not False else None
        if native and module is None:
            raise RuntimeError("the launcher's C fast path (_fastlaunch.abi3.so) was not found")
        tensors = any(not isinstance(kind, DType) for _, kind in self._params)
        if module is not None and tensors and not self._maps:
            self._native = self._make_native(module)
            self.launch = self._native

    def __call__(self, args):
        return self.launch(args)

    # The general path -------------------------------------------------------

    def _count_error(self, args):
        return _count_error(self._name, self._params, args)

    def _bind_torch(self):
        """Lets the fast path see PyTorch once it is imported."""
        torch = sys.modules.get("torch")
        if torch is None or self._globals["_Tensor"] is not _NoTorch:
            return torch
        for i, (name, kind) in enumerate(self._params):
            if not isinstance(kind, DType):
                self._globals["_dt%d" % i] = getattr(torch, kind.dtype.name, None)
        self._globals["_raw_stream"] = _torch_stream()
        self._globals["_Tensor"] = torch.Tensor
        if self._native is not None:
            self._native.bind(torch.Tensor, self._globals["_raw_stream"], tuple(
                self._globals.get("_dt%d" % i) for i in range(len(self._params))))
        return torch

    def _general(self, args):
        """Checks every argument, raising the error that names the first
        wrong one; then launches with fresh ctypes values."""
        if type(args) is not tuple:
            args = tuple(args)
        if len(args) != len(self._params):
            raise self._count_error(args)
        torch = self._bind_torch()
        tensor_type = torch.Tensor if torch is not None else None
        # Where the tensors are, from what they say without a GPU call.
        device, first = None, None
        for (name, kind), arg in zip(self._params, args):
            if isinstance(kind, DType):
                continue
            where = _device_of(arg, tensor_type)
            if where is None:
                continue
            if device is None:
                device, first = where, name
            elif where != device:
                raise self._device_error(first, device, name, where)
        source = _stream_source(args)
        stream = None
        values, unplaced, releases = [], [], []
        sizes, bound = {}, {}
        pointers = {}
        try:
            for (name, kind), arg in zip(self._params, args):
                if isinstance(kind, DType):
                    values.append(_check_scalar(name, kind, arg))
                    continue
                if stream is None and device is not None and _dlpack_only(arg, tensor_type):
                    stream = _stream(source, device)  # what __dlpack__ exports for
                pointer = _check_tensor(name, kind, arg, sizes, bound, stream or 0, releases)
                values.append(ctypes.c_void_p(pointer))
                pointers[len(values) - 1] = pointer
                if _device_of(arg, tensor_type) is None:
                    unplaced.append((name, pointer))
            grid = self._grid_for(tuple(sizes[v.name] for v in self._size_vars))
            values += [ctypes.c_int64(sizes[v.name]) for v in self._size_vars]
            # This call's own maps: the general path runs on any thread.
            maps = [m.copy() for m in self._maps]
            for m in maps:
                kind = self._params[m.param][1]
                m.update(pointers[m.param], [e if _is_static(e) else sizes[e.name]
                                             for e in kind.shape])
            # Every argument is right. Tensors that only a GPU call can place.
            for name, pointer in unplaced:
                where = ctypes.c_int()
                _check(_runtime().tirxPointerGetDevice(pointer, ctypes.byref(where)))
                if device is None:
                    device, first = where.value, name
                elif where.value != device:
                    raise self._device_error(first, device, name, where.value)
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
        if self._globals["_owner"] is None:
            self._globals["_owner"] = threading.get_ident()
            if self._native is not None:
                self._native.set_owner(self._globals["_owner"])

    @staticmethod
    def _device_error(first, first_device, name, device):
        return ValueError("parameter '%s' is on cuda:%d, but parameter '%s' is on cuda:%d; "
                          "the tensors of a call must be on one device" % (
                              first, first_device, name, device))

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
            self._globals["_launch"] = lib.tirxLaunchPrepared
            if self._native is not None:
                self._native.set_prepared(
                    device, ctypes.addressof(prepared),
                    ctypes.cast(lib.tirxLaunchPrepared, ctypes.c_void_p).value)
            self._modules[device] = (module, kernel)
            self._prepared[device] = prepared
            return prepared

    # The fast paths -----------------------------------------------------------

    def _make_native(self, module):
        """The C fast path (lib/Python/FastLaunch.c): the same checks as
        _generate's, described per parameter; its argument slots are the
        buffers of this launcher's ctypes slots."""
        size_index = {v.name: k for k, v in enumerate(self._size_vars)}
        specs = []
        for i, (_, kind) in enumerate(self._params):
            slot = ctypes.addressof(self._slots[i])
            if not isinstance(kind, DType):
                dims = tuple(e if _is_static(e) else -(size_index[e.name] + 1)
                             for e in kind.shape)
                specs.append(("tensor", slot, dims, kind.alignment_or_default))
            elif _fast_scalar_range(kind) is None:
                specs.append(("other", slot))
            elif kind.is_float:
                specs.append(("float", slot, kind.bits // 8, _fast_scalar_range(kind)[1]))
            else:
                specs.append(("int", slot, kind.bits // 8) + _fast_scalar_range(kind))
        n = len(self._params)
        sizes = tuple((ctypes.addressof(self._slots[n + k]), var.multiple_of, var.at_most or 0)
                      for k, var in enumerate(self._size_vars))
        g = self._globals
        return module.Launcher(lambda args: g["_general"](args), _raise_last_error,
                               tuple(specs), sizes,
                               self._grids if self._dynamic_grid else None,
                               self._grid_for)


    def _generate(self):
        """The fast path, as Python source specialized to the parameters (a
        loop over checks costs more than the checks). Anything it does not
        accept goes to the general path, which raises the right error."""
        g = {"_owner": None, "_ident": threading.get_ident, "_Tensor": _NoTorch,
             "_raw_stream": None, "_prepared": self._prepared, "_general": self._general,
             "_count_error": self._count_error, "_launch": None, "_grids": self._grids,
             "_grid_for": self._grid_for, "_raise_last_error": _raise_last_error}
        self._globals = g
        names = ["a%d" % i for i in range(len(self._params))]
        body = ["def launch(args):",
                "    if len(args) != %d:" % len(names),
                "        raise _count_error(args)"]
        if names:
            body.append("    %s, = args" % ", ".join(names))
        tensors = [i for i, (_, kind) in enumerate(self._params) if not isinstance(kind, DType)]
        if not tensors:  # no device to launch on but the current one
            body.append("    return _general(args)")
            return self._compile(body, g)
        fallback = "return _general(args)"
        body.append("    if _ident() != _owner: " + fallback)
        size_index = {v.name: k for k, v in enumerate(self._size_vars)}
        bound = set()
        for i, (name, kind) in enumerate(self._params):
            a = names[i]
            g["_v%d" % i] = self._slots[i]
            if isinstance(kind, DType):
                body += self._scalar_source(i, a, kind, fallback)
                continue
            g["_dt%d" % i] = None
            body.append("    if type(%s) is not _Tensor or not %s.is_cuda or %s.dtype is not "
                        "_dt%d or not %s.is_contiguous(): %s" % (a, a, a, i, a, fallback))
            if i == tensors[0]:
                body.append("    d = %s.get_device()" % a)
            else:
                body.append("    if %s.get_device() != d: %s" % (a, fallback))
            if all(_is_static(e) for e in kind.shape):
                g["_sh%d" % i] = tuple(kind.shape)
                body.append("    if %s.shape != _sh%d: %s" % (a, i, fallback))
            else:
                body.append("    s = %s.shape" % a)
                body.append("    if len(s) != %d: %s" % (len(kind.shape), fallback))
                for dim, extent in enumerate(kind.shape):
                    if _is_static(extent):
                        body.append("    if s[%d] != %d: %s" % (dim, extent, fallback))
                        continue
                    z = "z%d" % size_index[extent.name]
                    if extent.name in bound:
                        body.append("    if s[%d] != %s: %s" % (dim, z, fallback))
                        continue
                    bound.add(extent.name)
                    body.append("    %s = s[%d]" % (z, dim))
                    check = "%s < 1" % z
                    if extent.multiple_of > 1:
                        check += " or %s %% %d" % (z, extent.multiple_of)
                    if extent.at_most is not None:
                        check += " or %s > %d" % (z, extent.at_most)
                    body.append("    if %s: %s" % (check, fallback))
            align = kind.alignment_or_default
            body.append("    p%d = %s.data_ptr()" % (i, a))
            body.append("    if not p%d or p%d %% %d: %s" % (i, i, align, fallback))
        body.append("    launch = _prepared.get(d)")
        body.append("    if launch is None: " + fallback)
        for i, (name, kind) in enumerate(self._params):
            body.append("    _v%d.value = %s" % (i, "p%d" % i if i in tensors else names[i]))
        n = len(self._params)
        for k, var in enumerate(self._size_vars):
            g["_v%d" % (n + k)] = self._slots[n + k]
            body.append("    _v%d.value = z%d" % (n + k, k))
        for k, m in enumerate(self._maps):
            g["_m%d" % k] = m
            body.append("    _m%d.update(p%d, a%d.shape)" % (k, m.param, m.param))
        if self._dynamic_grid:
            key = "(%s)" % "".join("z%d, " % k for k in range(len(self._size_vars)))
            body.append("    grid = _grids.get(%s)" % key)
            body.append("    if grid is None: grid = _grid_for(%s)" % key)
            body.append("    launch.grid = grid")
        body.append("    launch.stream = _raw_stream(d)")
        body.append("    if _launch(launch):")
        body.append("        _raise_last_error()")
        return self._compile(body, g)

    @staticmethod
    def _scalar_source(i, a, kind, fallback):
        accepted = _fast_scalar_range(kind)
        if accepted is None:
            return ["    " + fallback]
        if kind.is_float:
            return ["    if (type(%s) is not float and type(%s) is not int) or not "
                    "%r <= %s <= %r: %s" % (a, a, accepted[0], a, accepted[1], fallback)]
        return ["    if type(%s) is not int or not %d <= %s <= %d: %s" % (
            a, accepted[0], a, accepted[1], fallback)]

    def _compile(self, body, g):
        source = "\n".join(body) + "\n"
        self.source = source  # for the curious: print(compiled._launcher.source)
        code = compile(source, "<tirx launcher of %s>" % self._name, "exec")
        exec(code, g)
        return g["launch"]
