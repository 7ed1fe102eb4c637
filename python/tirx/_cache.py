"""The compile cache (docs/python.md, "The compile cache").

In memory, each kernel (a @T.function) keeps its Compiled per target,
options and CUDA environment: the same call returns the same object
without tracing. On disk, under $TIRX_CACHE_DIR (default ~/.cache/tirx),
one file per key holds what rebuilds a Compiled: the PTX, the IR of each
stage and its time, ptxas's report and the warnings. The key is the
SHA-256 of the generated IR (the kernel and every scalar function it
calls, with the chip), the compile options, the CUDA toolkit the compile
uses (its path, ptxas and libdevice) and the compiler's code (the path and
build ID of libTirXCAPI.so and of the libMLIR.so and libLLVM.so it runs, if
any). TIRX_CACHE=0 turns both off.

An entry is two files, each `TIRXCACHE2 <length> <sha256 of the
payload>\\n` then the payload: `<key>.tirx` holds JSON of the PTX, report,
warnings, stage times and the hash of `<key>-<hash>.stages`, which holds the
IR of each stage as JSON, read only when .mlir is asked for (a disk hit
reads 2 KB, not 30). Each is written to a temporary file in the same folder and
renamed over the old one (atomic on POSIX), the stages first, so a reader
sees an old entry, a new one or none; a truncated or corrupted entry fails
its length or hash check and is compiled again and rewritten, never
loaded; stages that fail theirs are made again by compiling the IR.
"""
import hashlib
import json
import os
import tempfile
import threading

from . import _capi

FORMAT = b"TIRXCACHE2"
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
    """The entry (a dict without its stages: `load_stages` reads them when
    .mlir is asked for), or None when it is absent, truncated or
    corrupted."""
    payload = _read_payload(path(entry_key))
    if payload is None:
        return None
    try:
        entry = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(entry, dict) or entry.get("key") != entry_key or \
            not isinstance(entry.get("stages_sha256"), str):
        return None
    entry["stages"] = None
    return entry


def stages_path(entry_key, stages_sha256):
    """The stages' file is named by its own hash too: stage IR is not
    deterministic (it records LLVM's timing), so two processes storing one
    key at once each keep their own, and an entry always names one that
    exists."""
    return path(entry_key, "-%s.stages" % stages_sha256[:16])


def load_stages(entry_key, stages_sha256):
    """The IR of each stage of an entry (a dict), or None when its file is
    absent, corrupted, or not the one the entry was written with."""
    payload = _read_payload(stages_path(entry_key, stages_sha256))
    if payload is None or hashlib.sha256(payload).hexdigest() != stages_sha256:
        return None
    try:
        stages = json.loads(payload)
    except ValueError:
        return None
    return stages if isinstance(stages, dict) else None


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
    """Writes the entry atomically: the stages' file first, then the entry
    naming its hash. A cache that cannot be written (a read-only home, a
    full disk) only costs the next compile."""
    stages = json.dumps(entry["stages"]).encode()
    stages_sha256 = hashlib.sha256(stages).hexdigest()
    if not _write_atomically(stages_path(entry_key, stages_sha256), stages):
        return
    meta = {name: value for name, value in entry.items() if name != "stages"}
    meta.update(key=entry_key, stages_sha256=stages_sha256)
    _write_atomically(path(entry_key), json.dumps(meta).encode())
