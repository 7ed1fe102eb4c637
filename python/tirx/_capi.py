"""ctypes bindings of libTirXCAPI.so (include/TirX-c/TirX.h).

The libraries are found, in this order, through $TIRX_LIBRARY (the .so or
its folder; an override), next to this package (tirx/lib/: the GPU bundle),
in an installed prefix (P/python_packages/tirx/ loads P/lib/: `cmake
--install`), or in a TirX build tree next to the sources (build/lib,
build-static/lib). The installed libraries carry a RUNPATH to libMLIR.so, so
an install needs neither TIRX_LIBRARY nor LD_LIBRARY_PATH. A library that is
there only xz-compressed (LIB.so.xz: the GPU bundle's libTirXCAPI.so, kept
small) is decompressed once into the compile cache's folder and loaded from
there.
"""
import ctypes
import os

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(os.path.dirname(_HERE))


class LibraryNotFoundError(ImportError):
    """The compiled TirX libraries could not be found."""


def library_candidates(name):
    env = os.environ.get("TIRX_LIBRARY")
    if env:
        yield env if env.endswith(".so") and os.path.basename(env) == name \
            else os.path.join(env if os.path.isdir(env) else os.path.dirname(env), name)
    yield os.path.join(_HERE, "lib", name)
    # Installed: <prefix>/python_packages/tirx -> <prefix>/lib.
    yield os.path.join(_ROOT, "lib", name)
    for build in ("build", "build-static"):
        yield os.path.join(_ROOT, build, "lib", name)


def _cache_directory():
    """tirx._cache.directory() ($TIRX_CACHE_DIR, default ~/.cache/tirx),
    which imports this module."""
    return os.environ.get("TIRX_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "tirx")


def unpacked_library(packed):
    """The library compressed in `packed` (LIB.so.xz), decompressed into
    <cache>/lib/<sha256 of the archive>/LIB.so unless already there (written
    to a temporary file and renamed, so that processes importing at once
    never load a partial file); its path."""
    import hashlib
    import lzma
    import shutil
    import tempfile
    digest = hashlib.sha256()
    with open(packed, "rb") as archive:
        for block in iter(lambda: archive.read(1 << 20), b""):
            digest.update(block)
    folder = os.path.join(_cache_directory(), "lib", digest.hexdigest()[:32])
    target = os.path.join(folder, os.path.basename(packed)[:-len(".xz")])
    if os.path.exists(target):
        return target
    os.makedirs(folder, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=".unpacking-")
    try:
        with os.fdopen(fd, "wb") as out, lzma.open(packed) as source:
            shutil.copyfileobj(source, out, 1 << 20)
        os.chmod(temporary, 0o755)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    return target


def load_library(name):
    import lzma
    tried = []
    for path in library_candidates(name):
        tried.append(path)
        if os.path.exists(path):
            return ctypes.CDLL(path)
        if os.path.exists(path + ".xz"):
            try:
                unpacked = unpacked_library(path + ".xz")
            except (OSError, EOFError, lzma.LZMAError) as error:
                raise LibraryNotFoundError(
                    "%s is there only compressed (%s.xz), and decompressing it into %s "
                    "failed: %s. Point TIRX_CACHE_DIR at a writable folder, or decompress "
                    "it in place (`python3 unpack.py %s` in the GPU bundle, or `xz -d`)."
                    % (name, path, os.path.join(_cache_directory(), "lib"), error,
                       os.path.dirname(path))) from error
            return ctypes.CDLL(unpacked)
    raise LibraryNotFoundError(
        "%s was not found (looked in: %s). Build TirX first: run `make` in the "
        "TirX repository (it builds build/lib/%s), or point TIRX_LIBRARY at "
        "the library." % (name, ", ".join(tried), name))


lib = load_library("libTirXCAPI.so")

_c = ctypes
lib.tirxCompile.restype = _c.c_void_p
lib.tirxCompile.argtypes = [_c.c_char_p, _c.c_size_t, _c.c_char_p, _c.c_char_p, _c.c_int]
lib.tirxCompileResultSucceeded.argtypes = [_c.c_void_p]
lib.tirxCompileResultGetOutput.restype = _c.POINTER(_c.c_char)
lib.tirxCompileResultGetOutput.argtypes = [_c.c_void_p, _c.POINTER(_c.c_size_t)]
lib.tirxCompileResultGetCubin.restype = _c.POINTER(_c.c_char)
lib.tirxCompileResultGetCubin.argtypes = [_c.c_void_p, _c.POINTER(_c.c_size_t)]
lib.tirxCompileResultGetNumDiagnostics.restype = _c.c_size_t
lib.tirxCompileResultGetNumDiagnostics.argtypes = [_c.c_void_p]
lib.tirxCompileResultGetDiagnostic.argtypes = [
    _c.c_void_p, _c.c_size_t, _c.POINTER(_c.c_int), _c.POINTER(_c.c_char_p),
    _c.POINTER(_c.c_uint), _c.POINTER(_c.c_uint), _c.POINTER(_c.c_char_p)]
lib.tirxCompileResultGetNumStages.restype = _c.c_size_t
lib.tirxCompileResultGetNumStages.argtypes = [_c.c_void_p]
lib.tirxCompileResultGetStageName.restype = _c.c_char_p
lib.tirxCompileResultGetStageName.argtypes = [_c.c_void_p, _c.c_size_t]
lib.tirxCompileResultGetStageIR.restype = _c.c_char_p
lib.tirxCompileResultGetStageIR.argtypes = [_c.c_void_p, _c.c_size_t]
lib.tirxCompileResultGetStageSeconds.restype = _c.c_double
lib.tirxCompileResultGetStageSeconds.argtypes = [_c.c_void_p, _c.c_size_t]
lib.tirxCompileResultGetNumKernelReports.restype = _c.c_size_t
lib.tirxCompileResultGetNumKernelReports.argtypes = [_c.c_void_p]
lib.tirxCompileResultGetKernelReport.argtypes = [
    _c.c_void_p, _c.c_size_t, _c.POINTER(_c.c_char_p)] + [_c.POINTER(_c.c_int64)] * 4
lib.tirxCompileResultGetNumKernels.restype = _c.c_size_t
lib.tirxCompileResultGetNumKernels.argtypes = [_c.c_void_p]
lib.tirxCompileResultGetKernel.argtypes = [
    _c.c_void_p, _c.c_size_t, _c.POINTER(_c.c_char_p), _c.POINTER(_c.c_size_t),
    _c.POINTER(_c.c_int64)]
lib.tirxCompileResultGetKernelSharedBytes.argtypes = [
    _c.c_void_p, _c.c_size_t, _c.POINTER(_c.c_int64)]
lib.tirxCompileResultGetKernelNumTensorMaps.argtypes = [
    _c.c_void_p, _c.c_size_t, _c.POINTER(_c.c_size_t)]
lib.tirxCompileResultGetKernelTensorMap.argtypes = [
    _c.c_void_p, _c.c_size_t, _c.c_size_t, _c.POINTER(_c.c_size_t),
    _c.POINTER(_c.c_size_t), _c.POINTER(_c.c_int64), _c.POINTER(_c.c_int64)]
lib.tirxCompileResultDestroy.argtypes = [_c.c_void_p]


class InterpretArgument(_c.Structure):
    """TirxInterpretArgument: a tensor's host storage, or a scalar's bits."""
    _fields_ = [("data", _c.c_void_p), ("bytes", _c.c_size_t), ("scalar", _c.c_uint64)]


lib.tirxInterpret.restype = _c.c_void_p
lib.tirxInterpret.argtypes = [_c.c_char_p, _c.c_size_t, _c.c_char_p, _c.c_char_p,
                              _c.POINTER(InterpretArgument), _c.c_size_t, _c.c_char_p]
lib.tirxInferRegionType.restype = _c.c_void_p
lib.tirxInferRegionType.argtypes = [_c.c_char_p, _c.POINTER(_c.c_int64),
                                    _c.POINTER(_c.c_int64), _c.c_size_t,
                                    _c.POINTER(_c.c_void_p)]
lib.tirxLayoutParse.restype = _c.c_void_p
lib.tirxLayoutParse.argtypes = [_c.c_char_p, _c.POINTER(_c.c_void_p)]
lib.tirxLayoutDestroy.argtypes = [_c.c_void_p]
lib.tirxLayoutToString.restype = _c.c_void_p
lib.tirxLayoutToString.argtypes = [_c.c_void_p]
lib.tirxLayoutSize.restype = _c.c_int64
lib.tirxLayoutSize.argtypes = [_c.c_void_p, _c.c_char_p]
lib.tirxLayoutSpan.restype = _c.c_int64
lib.tirxLayoutSpan.argtypes = [_c.c_void_p, _c.c_char_p]
lib.tirxLayoutApply.restype = _c.c_int
lib.tirxLayoutApply.argtypes = [_c.c_void_p, _c.POINTER(_c.c_int64),
                                _c.POINTER(_c.c_int64), _c.c_size_t,
                                _c.POINTER(_c.c_int64), _c.POINTER(_c.c_void_p)]
lib.tirxLayoutCanonicalize.restype = _c.c_void_p
lib.tirxLayoutCanonicalize.argtypes = [_c.c_void_p]
for _name in ("tirxLayoutPack", "tirxLayoutUnpack"):
    getattr(lib, _name).restype = _c.c_void_p
    getattr(lib, _name).argtypes = [_c.c_void_p, _c.c_int64, _c.POINTER(_c.c_void_p)]
_ERR = _c.POINTER(_c.c_void_p)
for _name in ("tirxLayoutCompose", "tirxLayoutLogicalProduct", "tirxLayoutLogicalDivide"):
    getattr(lib, _name).restype = _c.c_void_p
    getattr(lib, _name).argtypes = [_c.c_void_p, _c.c_void_p, _ERR]
lib.tirxLayoutComplement.restype = _c.c_void_p
lib.tirxLayoutComplement.argtypes = [_c.c_void_p, _c.c_int64, _ERR]
lib.tirxLayoutCoalesce.restype = _c.c_void_p
lib.tirxLayoutCoalesce.argtypes = [_c.c_void_p]
lib.tirxLayoutRightInverse.restype = _c.c_void_p
lib.tirxLayoutRightInverse.argtypes = [_c.c_void_p, _ERR]
lib.tirxLayoutTileProduct.restype = _c.c_void_p
lib.tirxLayoutTileProduct.argtypes = [_c.c_void_p, _c.POINTER(_c.c_int64), _c.c_void_p,
                                      _c.POINTER(_c.c_int64), _c.c_size_t, _c.c_int,
                                      _c.POINTER(_c.c_int64), _ERR]
lib.tirxLayoutZippedDivide.restype = _c.c_void_p
lib.tirxLayoutZippedDivide.argtypes = [_c.c_void_p, _c.POINTER(_c.c_int64),
                                       _c.POINTER(_c.c_int64), _c.c_size_t,
                                       _c.POINTER(_c.c_int64), _ERR]
lib.tirxCompileResultGetKernelTensorMapType.restype = _c.c_char_p
lib.tirxCompileResultGetKernelTensorMapType.argtypes = [_c.c_void_p, _c.c_size_t, _c.c_size_t]
lib.tirxLayoutPrintView.restype = _c.c_void_p
lib.tirxLayoutPrintView.argtypes = [_c.c_void_p, _c.POINTER(_c.c_int64),
                                    _c.c_size_t, _c.c_int, _c.POINTER(_c.c_void_p)]
lib.tirxLayoutDrawPicture.restype = _c.c_void_p
lib.tirxLayoutDrawPicture.argtypes = [_c.c_void_p, _c.POINTER(_c.c_int64),
                                      _c.c_size_t, _c.c_int, _c.POINTER(_c.c_void_p)]
lib.tirxLayoutAxisName.restype = _c.c_char_p
lib.tirxLayoutAxisName.argtypes = [_c.c_size_t]
lib.tirxFindCUDAToolkit.restype = _c.c_void_p
lib.tirxFindCUDAToolkit.argtypes = []
lib.tirxFindPtxas.restype = _c.c_void_p
lib.tirxFindPtxas.argtypes = []
lib.tirxFindCUDATool.restype = _c.c_void_p
lib.tirxFindCUDATool.argtypes = [_c.c_char_p]
lib.tirxBuildIdentity.restype = _c.c_void_p
lib.tirxBuildIdentity.argtypes = []
lib.tirxStringDestroy.argtypes = [_c.c_void_p]

lib.tirxInstructionParse.restype = _c.c_void_p
lib.tirxInstructionParse.argtypes = [_c.c_char_p, _c.c_int, _c.POINTER(_c.c_void_p)]
lib.tirxInstructionDestroy.argtypes = [_c.c_void_p]
for _name in ("tirxInstructionGetSpelling", "tirxInstructionGetFormName",
              "tirxInstructionGetExecKind", "tirxInstructionGetSpace"):
    getattr(lib, _name).restype = _c.c_char_p
    getattr(lib, _name).argtypes = [_c.c_void_p]
lib.tirxInstructionGetFloors.argtypes = [_c.c_void_p, _c.POINTER(_c.c_uint),
                                         _c.POINTER(_c.c_uint), _c.POINTER(_c.c_int)]
lib.tirxInstructionGetNumOperands.restype = _c.c_size_t
lib.tirxInstructionGetNumOperands.argtypes = [_c.c_void_p]
lib.tirxInstructionGetOperandBits.argtypes = [_c.c_void_p, _c.c_size_t]
lib.tirxInstructionGetOperand.argtypes = [
    _c.c_void_p, _c.c_size_t, _c.POINTER(_c.c_char_p), _c.POINTER(_c.c_char_p),
    _c.POINTER(_c.c_int), _c.POINTER(_c.c_int), _c.POINTER(_c.c_int),
    _c.POINTER(_c.c_size_t), _c.POINTER(_c.POINTER(_c.c_int64)), _c.POINTER(_c.c_char_p)]

AXES = [lib.tirxLayoutAxisName(i).decode() for i in range(10)]


def take_string(pointer):
    """A malloc'ed C string from the library, as str (and freed)."""
    if not pointer:
        return None
    text = ctypes.cast(pointer, ctypes.c_char_p).value.decode()
    lib.tirxStringDestroy(pointer)
    return text


def int64_array(values):
    values = list(values)
    return (ctypes.c_int64 * max(len(values), 1))(*values)


def cuda_toolkit():
    """The CUDA toolkit a compile uses: the first of $TIRX_CUDA_PATH,
    $CUDA_HOME, $CUDA_PATH, $CUDA_ROOT that is set, else /usr/local/cuda
    when it has libdevice; "" when none (lib/Conversion/CUDAToolkit.cpp,
    the one search; docs/lowering.md)."""
    return take_string(lib.tirxFindCUDAToolkit())


def cuda_tool(name):
    """The toolkit's program `name` ("ptxas", "nvcc") the same search finds:
    cuda_toolkit()/bin/`name`, else `name` on PATH; "" when none."""
    return take_string(lib.tirxFindCUDATool(name.encode()))
