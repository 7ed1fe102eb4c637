"""The compile cache (docs/python.md, "The compile cache").

In memory, each kernel (a @T.function) keeps its Compiled per target,
options and CUDA environment: the same call returns the same object
without tracing. On disk, under $TIRX_CACHE_DIR (default ~/.cache/tirx),
one file per key holds what rebuilds a Compiled: the PTX, the IR of each
stage and its time, ptxas's report and the warnings. The key is the
SHA-256 of the generated IR (the kernel and every scalar function it
calls, with the chip), the compile options, the CUDA toolkit the compile
uses (its path, ptxas and libdevice) and the TirX build (the C API
library's path, size and modification time). TIRX_CACHE=0 turns both off.

An entry is `TIRXCACHE1 <length> <sha256 of the payload>\\n` then the
payload: a line of JSON (PTX, report, warnings, stage times) and the IR of
each stage as JSON, decoded only when .mlir is read. It is written to a temporary file in the same folder and
renamed over the entry (atomic on POSIX), so a reader sees an old entry, a
new one or none; a truncated or corrupted one fails its length or hash
check and is compiled again and rewritten, never loaded.
"""
import hashlib
import json
import os
import tempfile
import threading

from . import _capi

FORMAT = b"TIRXCACHE1"
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
    search: CUDA_HOME, CUDA_PATH, CUDA_ROOT, /usr/local/cuda, then ptxas on
    PATH): part of the in-memory key, cheap to read."""
    return tuple(os.environ.get(name, "") for name in
                 ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT", "PATH"))


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
    toolkit = _capi.take_string(_capi.lib.tirxFindCUDAToolkit())
    ptxas = _capi.take_string(_capi.lib.tirxFindPtxas())
    return [toolkit, ptxas and _file_identity(ptxas),
            toolkit and _file_identity(os.path.join(toolkit, _LIBDEVICE))]


_build = None


def build_identity():
    """The TirX build: the loaded C API library's path, size and mtime (a
    stat, not a hash: hashing the statically linked library would cost
    more than the compile it saves)."""
    global _build
    if _build is None:
        _build = _file_identity(_capi.lib._name)
    return _build


def key(ir, options):
    text = json.dumps([FORMAT.decode(), build_identity(), _toolkit_identity(), options, ir])
    return hashlib.sha256(text.encode()).hexdigest()


def path(entry_key):
    return os.path.join(directory(), entry_key[:2], entry_key + ".tirx")


def load(entry_key):
    """The entry's payload (a dict), or None when it is absent, truncated
    or corrupted."""
    try:
        with open(path(entry_key), "rb") as file:
            data = file.read()
    except OSError:
        return None
    header, _, payload = data.partition(b"\n")
    fields = header.split(b" ")
    if len(fields) != 3 or fields[0] != FORMAT or not fields[1].isdigit() or \
            int(fields[1]) != len(payload) or \
            hashlib.sha256(payload).hexdigest().encode() != fields[2]:
        return None
    # The IR of each stage (most of the entry) stays text until .mlir is read.
    meta, _, stages = payload.partition(b"\n")
    try:
        entry = json.loads(meta)
    except ValueError:
        return None
    if not isinstance(entry, dict) or entry.get("key") != entry_key:
        return None
    entry["stages"] = stages
    return entry


def store(entry_key, entry):
    """Writes the entry atomically; a cache that cannot be written (a
    read-only home, a full disk) only costs the next compile."""
    meta = {name: value for name, value in entry.items() if name != "stages"}
    payload = b"%s\n%s" % (json.dumps(dict(meta, key=entry_key)).encode(),
                           json.dumps(entry["stages"]).encode())
    data = b"%s %d %s\n%s" % (FORMAT, len(payload), hashlib.sha256(payload).hexdigest().encode(),
                              payload)
    target = path(entry_key)
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=".tmp-", dir=os.path.dirname(target))
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(temporary, target)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
