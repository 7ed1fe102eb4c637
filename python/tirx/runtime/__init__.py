"""Launching compiled kernels through libTirXRuntime.so (ctypes).

Every check of a launch's arguments runs in one checker, in C
(lib/Python/FastLaunch.c), from a descriptor of the kernel's parameters
built once from the compile result (_plan.py). A `Launcher` (one per
compiled kernel) has two paths through it:

- the fast path, the C checker itself: PyTorch tensors that are right
  (exact `torch.Tensor`s on one CUDA device, with the declared dtype, shape,
  contiguity and alignment) and plain Python scalars in range are checked
  through their attributes, their values stored into preallocated argument
  slots, TMA tensor maps re-encoded when a tensor's pointer, shape or
  strides changed, and the kernel launched (`tirxLaunchPrepared`) on the
  tensors' device and its current PyTorch stream;
- the general path, taken by anything the fast path does not take: it reads
  every argument through its protocol (PyTorch tensors,
  `__cuda_array_interface__`, DLPack) and runs the same checks, which raise
  the error that names the parameter, or launches with fresh values.

Nothing reaches the GPU before every argument is checked. The fast path's
slots belong to the first thread that launches the kernel; other threads
take the general path, so concurrent calls never share a buffer.

The package, by concern: _library (libTirXRuntime.so through ctypes, the
loader, GPUError, the C checker's module), _plan (the descriptor and the C
checker made from it), _arguments (reading a tensor through its protocol),
_devices (devices and streams), _launcher (the Launcher and its paths).
"""
from .. import _capi  # noqa: F401  (tests patch its library_candidates)
from . import _arguments, _devices, _launcher, _library, _plan  # noqa: F401
from ._arguments import (_DLManagedTensor, _DLManagedTensorVersioned,  # noqa: F401
                         check_argument)
from ._devices import current_stream  # noqa: F401
from ._launcher import Launcher, check_metadata  # noqa: F401
from ._library import (GPUError, _PreparedLaunch, _fast_launch_module,  # noqa: F401
                       _raise_last_error, _runtime, compute_capability, load)

__all__ = ["GPUError", "Launcher", "check_argument", "check_metadata", "compute_capability",
           "current_stream", "load"]
