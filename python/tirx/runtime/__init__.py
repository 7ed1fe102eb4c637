"""Launching compiled kernels through libTirXRuntime.so (ctypes).

Every argument check of a call is here. A `Launcher` (one per compiled
kernel) has two paths:

- the fast path, a function generated for the kernel's parameters: PyTorch
  tensors that are right (exact `torch.Tensor`s on one CUDA device, with the
  declared dtype, shape, contiguity and alignment) and plain Python scalars
  in range are checked through their attributes, their values stored into
  preallocated ctypes slots, and the kernel launched with one ctypes call
  (`tirxLaunchPrepared`) on the tensors' device and its current PyTorch
  stream;
- the general path, taken by anything the fast path does not accept: it
  checks every argument again, one by one (PyTorch tensors,
  `__cuda_array_interface__`, DLPack), raises the error that names the
  parameter, or launches with freshly allocated ctypes values.

Nothing reaches the GPU before every argument is checked. The fast path's
slots belong to the first thread that launches the kernel; other threads
take the general path, so concurrent calls never share a buffer.

The package, by concern: _library (libTirXRuntime.so through ctypes, the
loader, GPUError), _arguments (the checks of one argument), _devices
(devices and streams), _tensormap (TMA tensor maps), _launcher (the
Launcher and its paths).
"""
from .. import _capi  # noqa: F401  (tests patch its library_candidates)
from . import _arguments, _devices, _launcher, _library, _tensormap  # noqa: F401
from ._arguments import (_DLManagedTensor, _DLManagedTensorVersioned,  # noqa: F401
                         check_argument)
from ._devices import current_stream  # noqa: F401
from ._launcher import Launcher, check_metadata  # noqa: F401
from ._library import (GPUError, _PreparedLaunch, _fast_launch_module,  # noqa: F401
                       _raise_last_error, _runtime, compute_capability, load)
from ._tensormap import _TensorMap  # noqa: F401

__all__ = ["GPUError", "Launcher", "check_argument", "check_metadata", "compute_capability",
           "current_stream", "load"]
