"""Where a call runs: the device of each tensor argument, and the caller's
current stream (PyTorch's, CuPy's, or the default one)."""
import ctypes
import sys

from ._arguments import _KDLCUDA, _dlpack_device

def _dlpack_only(arg, tensor_type):
    """Whether `arg` is read through DLPack (no PyTorch tensor, no
    __cuda_array_interface__)."""
    if tensor_type is not None and isinstance(arg, tensor_type):
        return False
    return getattr(arg, "__cuda_array_interface__", None) is None and \
        hasattr(arg, "__dlpack__")


def _device_of(arg, tensor_type):
    """The CUDA device of a tensor argument when it says so without a GPU
    call (PyTorch, DLPack), else None (a CPU tensor, or one only its data
    pointer can place: asked after every check)."""
    if tensor_type is not None and isinstance(arg, tensor_type):
        return arg.get_device() if arg.is_cuda else None
    try:
        device = _dlpack_device(arg)
    except Exception:  # a producer that cannot say: the checks will
        return None
    return device[1] if device is not None and device[0] == _KDLCUDA else None


def _stream_source(args):
    """Whose current stream a launch uses: "torch" when an argument is a
    PyTorch tensor, else "cupy" for a CuPy array, else None (the default
    stream)."""
    source = None
    for arg in args:
        module = type(arg).__module__
        if module.startswith("torch"):
            return "torch"
        if source is None and module.startswith("cupy"):
            source = "cupy"
    return source


def _stream(source, device):
    if source == "torch":
        return _torch_stream()(device)
    if source == "cupy":
        import cupy
        try:
            return cupy.cuda.get_current_stream(device).ptr
        except TypeError:  # CuPy before 13: no device argument
            with cupy.cuda.Device(device):
                return cupy.cuda.get_current_stream().ptr
    return 0


def _torch_stream():
    """PyTorch's current raw stream of a device, as a function of the device."""
    torch = sys.modules["torch"]
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        return raw
    return lambda device: torch.cuda.current_stream(device).cuda_stream


def current_stream(args):
    """The caller's current stream for `args`: PyTorch's or CuPy's on the
    device of the first argument that says where it is, else the default."""
    torch = sys.modules.get("torch")
    source = _stream_source(args)
    for arg in args:
        device = _device_of(arg, torch.Tensor if torch is not None else None)
        if device is not None:
            return ctypes.c_void_p(_stream(source, device))
    return ctypes.c_void_p(0)
