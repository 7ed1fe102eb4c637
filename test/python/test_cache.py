"""The compile cache (docs/python.md, "The compile cache"): the same kernel,
target and options give the same Compiled from memory; a new process loads
it from $TIRX_CACHE_DIR; an edit of the kernel, of a scalar function it
calls or of an option changes the key; a truncated or corrupted entry is
compiled again and rewritten, never loaded; TIRX_CACHE=0 turns it off."""
import importlib.util
import hashlib
import json
import os
import re
import subprocess
import sys
import time

import pytest

import tirx
from tirx import _cache

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


def entries(folder, suffix=".tirx"):
    """The entries (or, with suffix=".stages", their stages' files); any
    other file, such as a temporary one left behind, is an error."""
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    assert all(p.suffix in (".tirx", ".stages") for p in files), files
    return [p for p in files if p.suffix == suffix]


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
        "print(json.dumps([c.cache, c.ptx, c.registers, c.spill_bytes, sorted(c.mlir),\n"
        "                  [c.params[0][0], c.launch.grid, c.launch.block], elapsed]))\n"
        % (os.path.join(ROOT, "python"), ROOT, str(tmp_path / "k.py")))
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=dict(os.environ), check=True)
    source, ptx, registers, spills, stages, launch, elapsed = json.loads(run.stdout)
    assert source == "disk"
    assert ptx == reference.ptx
    assert (registers, spills) == (reference.registers, reference.spill_bytes)
    assert stages == sorted(reference.mlir)
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


@pytest.mark.parametrize("damage", ["remove", "flip", "swap"])
def test_stages_are_read_when_asked_and_made_again_when_damaged(cache_dir, tmp_path,
                                                                 damage):
    first = tirx.compile(load_kernel(tmp_path / "k.py", KERNEL), target=TARGET)
    want = first.mlir
    (stages,) = entries(cache_dir, ".stages")
    if damage == "remove":
        stages.unlink()
    elif damage == "flip":
        stages.write_bytes(corrupt_flip(stages.read_bytes()))
    else:  # a well-formed stages file of another compile
        stages.write_bytes(b"%s 2 %s\n{}" % (_cache.FORMAT,
                                             hashlib.sha256(b"{}").hexdigest().encode()))
    again = tirx.compile(load_kernel(tmp_path / "k.py", KERNEL), target=TARGET)
    assert again.cache == "disk"  # the entry itself is intact
    # Made again by compiling: the same IR, but for LLVM's recorded timing.
    timeless = lambda stages: {name: re.sub(r"LLVMIRToISATimeInMs = \d+", "", ir)
                               for name, ir in stages.items()}
    assert timeless(again.mlir) == timeless(want)


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
