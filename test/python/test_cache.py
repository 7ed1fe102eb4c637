"""The compile cache (docs/python.md, "The compile cache"): the same kernel,
target and options give the same Compiled from memory; a new process loads
it from $TIRX_CACHE_DIR; an edit of the kernel, of a scalar function it
calls or of an option changes the key; a truncated or corrupted entry is
compiled again and rewritten, never loaded; TIRX_CACHE=0 turns it off;
processes sharing one folder at once all get right, whole entries; a
changed toolkit, a rebuilt libTirXCAPI.so (same size and date) or another
libMLIR.so changes the key."""
import importlib.util
import hashlib
import inspect
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time

import pytest

import tirx
from tirx import _cache, _capi

TARGET = {"kind": "cuda", "arch": "sm_90"}
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

KERNEL = '''
from tirx.script import tirx as T
from tirx.layout import S, TileLayout
from tirx.cuda.axis import laneid, warpid

layout = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])

@T.function(private=True)
def act(value: T.float32) -> T.float32:
    return T.if_then_else(value > T.float32(0), value, T.float32(0))

@T.function
def kernel(A: T.Tensor((2, 32, 4), "float32", align=16),
           B: T.Tensor((2, 32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=64))
    r = T.alloc_local((2, 32, 4), "float32", layout=layout)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, A, scope="cta")
    T.cuda.tile.apply(T.ptx["fma.rn.f32"], r.view(2, 32, 4, 1), r.view(2, 32, 4, 1),
                      T.float32(2), T.float32(1), scope="cta")
    T.cuda.tile.ewise(act, r, r, scope="cta")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, r, scope="cta")
'''


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("TIRX_CACHE_DIR", str(folder))
    monkeypatch.delenv("TIRX_CACHE", raising=False)
    return folder


_loaded = [0]


def load_kernel(path, text):
    """Writes `text` to `path` and imports it as a new module: a new
    Function, as after an edit and a restart."""
    path.write_text(text)
    _loaded[0] += 1
    spec = importlib.util.spec_from_file_location("cache_kernel_%d" % _loaded[0], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.kernel


def entries(folder):
    """The entries; any other file, such as a temporary one left behind, is
    an error."""
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    assert all(p.suffix == ".tirx" for p in files), files
    return files


def test_memory_hit_is_the_same_object(cache_dir, tmp_path):
    kernel = load_kernel(tmp_path / "k.py", KERNEL)
    first = tirx.compile(kernel, target=TARGET)
    assert first.cache == "compiled"
    times = []
    for _ in range(200):
        start = time.perf_counter()
        again = tirx.compile(kernel, target=dict(TARGET))
        times.append(time.perf_counter() - start)
        assert again is first
    print("memory hit: first %.1f us, median %.1f us"
          % (times[0] * 1e6, sorted(times)[len(times) // 2] * 1e6))
    # Another option is another entry.
    assert tirx.compile(kernel, target=dict(TARGET, fast_math=True)) is not first


def test_disk_hit_in_a_new_process(cache_dir, tmp_path):
    kernel = load_kernel(tmp_path / "k.py", KERNEL)
    reference = tirx.compile(kernel, target=TARGET)
    script = (
        "import sys, time, json\n"
        "sys.path[:0] = [%r, %r]\n"
        "import tirx, importlib.util\n"
        "spec = importlib.util.spec_from_file_location('k', %r)\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "start = time.perf_counter()\n"
        "c = tirx.compile(m.kernel, target={'kind': 'cuda', 'arch': 'sm_90'})\n"
        "elapsed = time.perf_counter() - start\n"
        "print(json.dumps([c.cache, c.ptx, c.registers, c.spill_bytes, callable(c._stages),\n"
        "                  sorted(c.mlir), (c.cubin or b'').hex(),\n"
        "                  [c.params[0][0], c.launch.grid, c.launch.block], elapsed]))\n"
        % (os.path.join(ROOT, "python"), ROOT, str(tmp_path / "k.py")))
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=dict(os.environ), check=True)
    source, ptx, registers, spills, lazy, stages, cubin, launch, elapsed = \
        json.loads(run.stdout)
    assert source == "disk"
    assert ptx == reference.ptx
    # The cubin comes from disk: the launch needs neither ptxas nor a JIT.
    assert bytes.fromhex(cubin) == (reference.cubin or b"")
    assert (registers, spills) == (reference.registers, reference.spill_bytes)
    # The stages' IR is not stored: made when .mlir is read.
    assert lazy and stages == sorted(reference.mlir)
    assert launch == ["A", [1], [64]]
    print("disk hit in a new process: %.2f ms" % (elapsed * 1e3))


def test_editing_the_kernel_changes_the_key(cache_dir, tmp_path):
    first = tirx.compile(load_kernel(tmp_path / "k.py", KERNEL), target=TARGET)
    # The same source in a new module: the same key, from disk.
    same = tirx.compile(load_kernel(tmp_path / "k.py", KERNEL), target=TARGET)
    assert (same.cache, same.cache_key, same.ptx) == ("disk", first.cache_key, first.ptx)
    edited = tirx.compile(load_kernel(tmp_path / "k.py", KERNEL.replace(
        "T.float32(2), T.float32(1)", "T.float32(3), T.float32(1)")), target=TARGET)
    assert edited.cache == "compiled" and edited.cache_key != first.cache_key
    assert edited.ptx != first.ptx


def test_editing_a_scalar_function_changes_the_key(cache_dir, tmp_path):
    first = tirx.compile(load_kernel(tmp_path / "k.py", KERNEL), target=TARGET)
    edited_text = KERNEL.replace("value > T.float32(0), value", "value > T.float32(1), value")
    assert edited_text != KERNEL
    edited = tirx.compile(load_kernel(tmp_path / "k.py", edited_text), target=TARGET)
    assert edited.cache == "compiled" and edited.cache_key != first.cache_key


@pytest.mark.parametrize("option", [{"fast_math": True}, {"max_registers": 32},
                                    {"arch": "sm_80"}])
def test_an_option_changes_the_key(cache_dir, tmp_path, option):
    kernel = load_kernel(tmp_path / "k.py", KERNEL)
    first = tirx.compile(kernel, target=TARGET)
    other = tirx.compile(kernel, target=dict(TARGET, **option))
    assert other.cache == "compiled" and other.cache_key != first.cache_key
    assert len(entries(cache_dir)) == 2


def corrupt_truncate(data):
    return data[:len(data) // 2]


def corrupt_flip(data):
    # One payload byte changed, the length kept: the hash catches it.
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 1]) + data[middle + 1:]


def corrupt_header(data):
    return b"garbage\n" + data


@pytest.mark.parametrize("corrupt", [corrupt_truncate, corrupt_flip, corrupt_header,
                                     lambda data: b""])
def test_a_bad_entry_is_compiled_again_and_repaired(cache_dir, tmp_path, corrupt):
    first = tirx.compile(load_kernel(tmp_path / "k.py", KERNEL), target=TARGET)
    (entry,) = entries(cache_dir)
    good = entry.read_bytes()
    entry.write_bytes(corrupt(good))
    assert _cache.load(first.cache_key) is None
    again = tirx.compile(load_kernel(tmp_path / "k.py", KERNEL), target=TARGET)
    assert again.cache == "compiled" and again.ptx == first.ptx
    assert _cache.load(first.cache_key) is not None  # rewritten
    assert entries(cache_dir) == [entry]  # no temporary file left


def test_stages_are_printed_only_when_asked(cache_dir, tmp_path, monkeypatch):
    """The IR of each stage costs more to print than most passes: a compile
    keeps the stage times only, and .mlir compiles the IR again to print
    it, on a fresh compile and on a disk hit alike; TIRX_KEEP_STAGES=1 keeps
    it on every compile."""
    monkeypatch.delenv("TIRX_KEEP_STAGES", raising=False)
    first = tirx.compile(load_kernel(tmp_path / "k.py", KERNEL), target=TARGET)
    assert callable(first._stages)
    assert list(first.stage_times)[0] == "tirx-verify-kernels"
    assert "tirx-module-to-binary" in first.stage_times
    want = first.mlir
    assert list(want)[0] == "input" and not callable(first._stages)
    assert list(want)[1:] == list(first.stage_times)
    assert "tirx.kernel @kernel" in want["input"] and "gpu.func @kernel" in want["tirx-to-gpu"]
    again = tirx.compile(load_kernel(tmp_path / "k.py", KERNEL), target=TARGET)
    assert again.cache == "disk" and callable(again._stages)
    # Made again by compiling: the same IR, but for LLVM's recorded timing.
    timeless = lambda stages: {name: re.sub(r"LLVMIRToISATimeInMs = \d+", "", ir)
                               for name, ir in stages.items()}
    assert timeless(again.mlir) == timeless(want)
    monkeypatch.setenv("TIRX_CACHE", "0")
    monkeypatch.setenv("TIRX_KEEP_STAGES", "1")
    kept = tirx.compile(load_kernel(tmp_path / "k.py", KERNEL), target=TARGET)
    assert not callable(kept._stages) and timeless(kept.mlir) == timeless(want)


@pytest.mark.skipif(not _capi.cuda_tool("ptxas"), reason="needs ptxas")
def test_the_cubin_is_the_report_runs_and_is_stored(cache_dir, tmp_path):
    """One ptxas run gives the register report and the cubin the launcher
    loads; the entry stores it (base64), and a damaged one is compiled
    again."""
    first = tirx.compile(load_kernel(tmp_path / "k.py", KERNEL), target=TARGET)
    assert first.cubin[:4] == b"\x7fELF" and first.registers > 0
    assert first.cubin.count(b"kernel") >= 1  # the kernel's symbol
    (entry,) = entries(cache_dir)
    assert _cache.load(first.cache_key)["cubin"] == first.cubin
    again = tirx.compile(load_kernel(tmp_path / "k.py", KERNEL), target=TARGET)
    assert again.cache == "disk" and again.cubin == first.cubin
    # A cubin field that is not base64 (with a header that matches it) is a
    # bad entry: compiled again and rewritten.
    meta = json.loads(entry.read_bytes().partition(b"\n")[2])
    meta["cubin"] = "not base64!"
    payload = json.dumps(meta).encode()
    entry.write_bytes(b"%s %d %s\n%s" % (_cache.FORMAT, len(payload),
                                         hashlib.sha256(payload).hexdigest().encode(),
                                         payload))
    assert _cache.load(first.cache_key) is None
    third = tirx.compile(load_kernel(tmp_path / "k.py", KERNEL), target=TARGET)
    assert third.cache == "compiled" and third.cubin[:4] == b"\x7fELF"
    assert _cache.load(first.cache_key)["cubin"] == third.cubin


def test_tirx_cache_0_turns_it_off(cache_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("TIRX_CACHE", "0")
    kernel = load_kernel(tmp_path / "k.py", KERNEL)
    first = tirx.compile(kernel, target=TARGET)
    again = tirx.compile(kernel, target=TARGET)
    assert again is not first and again.cache == "compiled" and again.ptx == first.ptx
    assert not cache_dir.exists()


def test_an_unwritable_cache_only_costs_the_compile(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("TIRX_CACHE_DIR", str(blocker / "cache"))  # under a file
    kernel = load_kernel(tmp_path / "k.py", KERNEL)
    assert tirx.compile(kernel, target=TARGET).cache == "compiled"


#===----------------------------------------------------------------------===#
# Several processes, one cache folder
#===----------------------------------------------------------------------===#

WORKER = '''
import hashlib, importlib.util, json, os, sys, time
sys.path[:0] = [%r, %r]
import tirx
worker, go, folder, variants, rounds = (int(sys.argv[1]), sys.argv[2], sys.argv[3],
                                        int(sys.argv[4]), int(sys.argv[5]))
while not os.path.exists(go):  # all start at once
    time.sleep(0.001)
results = []
for round in range(rounds):
    # Round 0: all compile the same kernels in the same order, so they store
    # one key at once; then each in its own order, reading and rewriting.
    order = [(v + worker * round) %% variants for v in range(variants)]
    for v in order:
        spec = importlib.util.spec_from_file_location(
            "k_%%d_%%d" %% (round, v), os.path.join(folder, "k%%d.py" %% v))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)  # a new Function: no memory hit
        c = tirx.compile(module.kernel, target={"kind": "cuda", "arch": "sm_90"})
        results.append([round, v, c.cache, hashlib.sha256(c.ptx.encode()).hexdigest(),
                        c.registers, c.spill_bytes, sorted(c.mlir)])
print(json.dumps(results))
''' % (os.path.join(ROOT, "python"), ROOT)


def variant(v):
    return KERNEL.replace("T.float32(2), T.float32(1)", "T.float32(%d), T.float32(1)" % (v + 2))


def test_processes_share_one_cache_folder(cache_dir, tmp_path, monkeypatch):
    workers, variants, rounds = 4, 3, 3
    want = []
    monkeypatch.setenv("TIRX_CACHE", "0")
    for v in range(variants):
        c = tirx.compile(load_kernel(tmp_path / ("k%d.py" % v), variant(v)), target=TARGET)
        want.append([hashlib.sha256(c.ptx.encode()).hexdigest(), c.registers,
                     c.spill_bytes, sorted(c.mlir)])
    monkeypatch.delenv("TIRX_CACHE")
    assert len(set(w[0] for w in want)) == variants
    (tmp_path / "worker.py").write_text(WORKER)
    go = tmp_path / "go"
    procs = [subprocess.Popen([sys.executable, str(tmp_path / "worker.py"), str(w), str(go),
                               str(tmp_path), str(variants), str(rounds)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for w in range(workers)]
    time.sleep(0.5)
    go.write_text("")
    sources = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0 and "Traceback" not in err, err
        results = json.loads(out)
        assert len(results) == variants * rounds
        for round, v, source, *got in results:
            assert got == want[v], (round, v, source)  # a whole, right entry
            # After its own first round, every kernel is on disk.
            assert source == ("disk" if round else source) and source in ("compiled", "disk")
            sources.append(source)
    print("%d compiles: %d compiled, %d from disk"
          % (len(sources), sources.count("compiled"), sources.count("disk")))
    # One intact entry per kernel, no temporary file.
    tirx_files = entries(cache_dir)
    assert len(tirx_files) == variants
    for path in tirx_files:
        entry = _cache.load(path.stem)
        assert entry is not None and entry["ptx"]


#===----------------------------------------------------------------------===#
# What compiles is in the key: the toolkit and the compiler's code
#===----------------------------------------------------------------------===#

def fake_toolkit(folder, version, mtime):
    """A toolkit: bin/ptxas (a script saying its version) and libdevice,
    dated `mtime` (seconds), as an install of that version would be."""
    (folder / "bin").mkdir(parents=True)
    (folder / "nvvm" / "libdevice").mkdir(parents=True)
    ptxas = folder / "bin" / "ptxas"
    ptxas.write_text("#!/bin/sh\necho 'Cuda compilation tools, release %s'\n" % version)
    ptxas.chmod(0o755)
    libdevice = folder / "nvvm" / "libdevice" / "libdevice.10.bc"
    libdevice.write_bytes(b"BC" + version.encode())
    for path in (ptxas, libdevice):
        os.utime(path, (mtime, mtime))
    return folder


def test_a_changed_toolkit_changes_the_key(tmp_path, monkeypatch):
    for name in ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"):
        monkeypatch.delenv(name, raising=False)
    old = fake_toolkit(tmp_path / "cuda-12.8", "12.8, V12.8.93", 1_740_000_000)
    new = fake_toolkit(tmp_path / "cuda-13.0", "13.0, V13.0.88", 1_755_000_000)
    link = tmp_path / "cuda"  # as /usr/local/cuda -> cuda-X.Y
    os.symlink(old, link)
    monkeypatch.setenv("TIRX_CUDA_PATH", str(link))
    key = lambda: _cache.key("module {}", "chip=sm_90 ptxas-report=1")
    first = key()
    assert key() == first
    # An upgrade behind the same path: another ptxas and libdevice.
    os.remove(link)
    os.symlink(new, link)
    upgraded = key()
    assert upgraded != first
    # ptxas alone replaced (a new version in place), or libdevice alone.
    os.remove(link)
    os.symlink(old, link)
    assert key() == first
    ptxas = old / "bin" / "ptxas"
    ptxas.write_text(ptxas.read_text().replace("V12.8.93", "V12.8.100"))
    assert key() not in (first, upgraded)
    fake_toolkit(tmp_path / "other", "12.8, V12.8.93", 1_740_000_000)
    monkeypatch.setenv("TIRX_CUDA_PATH", str(tmp_path / "other"))  # another path
    other = key()
    (tmp_path / "other" / "nvvm" / "libdevice" / "libdevice.10.bc").write_bytes(b"BC new")
    assert len({first, upgraded, other, key()}) == 4


def mapped(name):
    """The files named `name...` this process has mapped (loaded)."""
    return sorted({line.split()[-1] for line in open("/proc/self/maps")
                   if os.path.basename(line.split()[-1]).startswith(name)})


def key_in_a_process(**env):
    """The key of one IR and options in a new process with `env` added to
    the environment, and the libTirXCAPI.so and libMLIR.so it loaded."""
    script = ("import json, os, sys\nsys.path.insert(0, %r)\n"
              "from tirx import _cache\n%s\n"
              "print(json.dumps([_cache.key('module {}', 'chip=sm_90'),\n"
              "                  mapped('libTirXCAPI.so') + mapped('libMLIR.so')]))"
              % (os.path.join(ROOT, "python"), inspect.getsource(mapped)))
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=dict(os.environ, **env), check=True)
    return json.loads(run.stdout)


def change_build_id(path):
    """Flips a byte of the ELF file's GNU build ID, as a rebuild changes
    it, and keeps the file's size and modification time."""
    info = os.stat(path)
    data = bytearray(open(path, "rb").read())
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    for i in range(phnum):
        p_type, _, p_offset, _, _, p_filesz, _, p_align = struct.unpack_from(
            "<IIQQQQQQ", data, phoff + i * phentsize)
        align = 8 if p_align == 8 else 4
        note, end = p_offset, p_offset + p_filesz
        while p_type == 4 and note + 12 <= end:  # PT_NOTE
            namesz, descsz, kind = struct.unpack_from("<III", data, note)
            desc = note + 12 + (namesz + align - 1) // align * align
            if kind == 3 and data[note + 12:note + 16] == b"GNU\0":  # NT_GNU_BUILD_ID
                data[desc] ^= 0xFF
                open(path, "wb").write(data)
                os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
                assert os.path.getsize(path) == info.st_size
                return
            note = desc + (descsz + align - 1) // align * align
    raise AssertionError("no GNU build ID in %s" % path)


def test_a_rebuilt_library_changes_the_key(tmp_path):
    # A copy of the loaded libTirXCAPI.so, then the same file rebuilt with
    # the same size and date (an install or unpack that keeps dates):
    # the build ID tells them apart, the path, size and date do not.
    (tmp_path / "lib").mkdir()
    copy = tmp_path / "lib" / "libTirXCAPI.so"
    (library,) = mapped("libTirXCAPI.so")
    shutil.copy2(library, copy)
    first, loaded = key_in_a_process(TIRX_LIBRARY=str(tmp_path / "lib"))
    assert loaded[0] == str(copy)
    assert key_in_a_process(TIRX_LIBRARY=str(tmp_path / "lib"))[0] == first
    change_build_id(copy)
    assert key_in_a_process(TIRX_LIBRARY=str(tmp_path / "lib"))[0] != first


def test_an_upgraded_libmlir_changes_the_key(tmp_path):
    # Built against the shared LLVM (the development build), the compiler's
    # code is mostly in libMLIR.so and libLLVM.so: an upgrade of Debian's
    # LLVM changes the PTX without touching libTirXCAPI.so. A copy of the
    # loaded libMLIR.so with another build ID, found first through
    # LD_LIBRARY_PATH, stands for the upgraded one.
    mlir = mapped("libMLIR.so")
    if not mlir:
        pytest.skip("libTirXCAPI.so holds MLIR itself (a static build)")
    (library,) = mapped("libTirXCAPI.so")
    before, loaded = key_in_a_process(TIRX_LIBRARY=library)
    assert loaded == [library] + mlir
    (tmp_path / "mlir").mkdir()
    copy = tmp_path / "mlir" / os.path.basename(mlir[0])
    shutil.copy2(mlir[0], copy)
    change_build_id(copy)
    after, loaded = key_in_a_process(TIRX_LIBRARY=library, LD_LIBRARY_PATH=str(tmp_path / "mlir"))
    assert loaded == [library, str(copy)]  # the copy was loaded
    assert after != before
