"""The compile cache (docs/python.md, "The compile cache").

In memory, each kernel (a @T.function) keeps its Compiled per target,
options and CUDA environment: the same call returns the same object
without tracing. On disk, under $TIRX_CACHE_DIR (default ~/.cache/tirx),
one file per key holds what rebuilds a Compiled: the PTX, the cubin ptxas
made of it (so a disk hit launches without any JIT), the time of each
stage, ptxas's report and the warnings. The key is the SHA-256 of the
generated IR (the kernel and every scalar function it calls, with the
chip), the compile options, the CUDA toolkit the compile uses (its path,
ptxas and libdevice) and the compiler's code (the path and build ID of
libTirXCAPI.so and of the libMLIR.so and libLLVM.so it runs, if any).
TIRX_CACHE=0 turns both off.

An entry is one file, `<key>.tirx`: `TIRXCACHE3 <length> <sha256 of the
payload>\\n` then the payload, JSON (the cubin in base64). It is written to
a temporary file in the same folder and renamed over the old one (atomic
on POSIX), so a reader sees an old entry, a new one or none; a truncated or
corrupted entry fails its length or hash check and is compiled again and
rewritten, never loaded. The IR of each stage is not stored: .mlir of a
disk hit compiles the IR again to print it.
"""
import base64
import binascii
import hashlib
import json
import os
import tempfile
import threading

from . import _capi

FORMAT = b"TIRXCACHE3"
_LIBDEVICE = os.path.join("nvvm", "libdevice", "libdevice.10.bc")
# Guards the in-memory maps when threads compile the same kernel at once.
lock = threading.Lock()


def enabled():
    return os.environ.get("TIRX_CACHE", "1") != "0"


def directory():
    return os.environ.get("TIRX_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "tirx")


def environment():
    """What decides which CUDA toolkit a compile uses (the pipeline's own
    search, _capi.cuda_toolkit: TIRX_CUDA_PATH, CUDA_HOME, CUDA_PATH,
    CUDA_ROOT, /usr/local/cuda, then ptxas on PATH): part of the in-memory
    key, cheap to read."""
    return tuple(os.environ.get(name, "") for name in
                 ("TIRX_CUDA_PATH", "CUDA_HOME", "CUDA_PATH", "CUDA_ROOT", "PATH"))


def _file_identity(path):
    try:
        info = os.stat(path)
    except OSError:
        return None
    return [path, info.st_size, info.st_mtime_ns]


def _toolkit_identity():
    """The toolkit, ptxas and libdevice a compile would use now, found by
    the pipeline's own search (through the C API), each as (path, size,
    mtime): libdevice decides precise math, ptxas the registers report."""
    toolkit = _capi.cuda_toolkit()
    ptxas = _capi.cuda_tool("ptxas")
    return [toolkit, ptxas and _file_identity(ptxas),
            toolkit and _file_identity(os.path.join(toolkit, _LIBDEVICE))]


_build = None


def build_identity():
    """What compiles: the path and GNU build ID (a hash of the content the
    linker computed, read from memory: nothing to hash here) of each loaded
    file holding TirX's, MLIR's or LLVM's code: libTirXCAPI.so, and, in a
    build against the shared LLVM, libMLIR.so and libLLVM.so, whose upgrade
    changes the PTX as much as a TirX rebuild (tirxBuildIdentity)."""
    global _build
    if _build is None:
        _build = _capi.take_string(_capi.lib.tirxBuildIdentity())
    return _build


def key(ir, options):
    text = json.dumps([FORMAT.decode(), build_identity(), _toolkit_identity(), options, ir])
    return hashlib.sha256(text.encode()).hexdigest()


def path(entry_key, suffix=".tirx"):
    return os.path.join(directory(), entry_key[:2], entry_key + suffix)


def _read_payload(file_path):
    """The checked payload of a cache file, or None when it is absent,
    truncated or corrupted."""
    try:
        with open(file_path, "rb") as file:
            data = file.read()
    except OSError:
        return None
    header, _, payload = data.partition(b"\n")
    fields = header.split(b" ")
    if len(fields) != 3 or fields[0] != FORMAT or not fields[1].isdigit() or \
            int(fields[1]) != len(payload) or \
            hashlib.sha256(payload).hexdigest().encode() != fields[2]:
        return None
    return payload


def load(entry_key):
    """The entry (a dict; its "stages" None: .mlir makes them), or None when
    it is absent, truncated or corrupted."""
    payload = _read_payload(path(entry_key))
    if payload is None:
        return None
    try:
        entry = json.loads(payload)
        if not isinstance(entry, dict) or entry.get("key") != entry_key:
            return None
        cubin = entry.get("cubin")
        entry["cubin"] = base64.b64decode(cubin, validate=True) if cubin else None
    except (ValueError, TypeError, binascii.Error):
        return None
    entry["stages"] = None
    return entry


def _write_atomically(target, payload):
    data = b"%s %d %s\n%s" % (FORMAT, len(payload),
                              hashlib.sha256(payload).hexdigest().encode(), payload)
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=".tmp-", dir=os.path.dirname(target))
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(temporary, target)
        return True
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return False


def store(entry_key, entry):
    """Writes the entry atomically (without the IR of its stages). A cache
    that cannot be written (a read-only home, a full disk) only costs the
    next compile."""
    meta = {name: value for name, value in entry.items() if name != "stages"}
    cubin = entry.get("cubin")
    meta.update(key=entry_key, cubin=base64.b64encode(cubin).decode() if cubin else None)
    _write_atomically(path(entry_key), json.dumps(meta).encode())
