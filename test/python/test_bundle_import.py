"""The GPU bundle ships libTirXCAPI.so xz-compressed: `import tirx` from a
bundle-like folder (python/tirx, lib/libTirXCAPI.so.xz beside the runtime)
decompresses it once into the compile cache's folder and loads it from
there, without `unpack.py`; a second import reuses it; when it cannot be
decompressed, the import fails with a LibraryNotFoundError that says what
and how to fix it."""
import lzma
import os
import shutil
import subprocess
import sys

import pytest

from tirx import _capi

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CAPI = _capi.lib._name  # the library this suite runs (TIRX_LIBRARY or build/lib)

PROBE = """
import tirx
from tirx import _capi
from tirx.cuda.axis import laneid
from tirx.layout import S, TileLayout
from tirx.script import tirx as T

lanes = TileLayout(S[(32, 4) : (1 @ laneid, 1)])

@T.function
def copy(A: T.Tensor((32, 4), "float32", align=16), B: T.Tensor((32, 4), "float32", align=16)):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))
    r = T.alloc_local((32, 4), "float32", layout=lanes)
    T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], r, A, scope="warp")
    T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B, r, scope="warp")

ptx = tirx.compile(copy, target={"kind": "cuda", "arch": "sm_90"}).ptx
assert "st.global.v4.b32" in ptx
print(_capi.lib._name)
"""


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    """python/tirx, lib/libTirXCAPI.so.xz and the runtime libraries, as
    scripts/make-gpu-bundle.sh lays them out."""
    root = tmp_path_factory.mktemp("bundle")
    shutil.copytree(os.path.join(ROOT, "python", "tirx"), root / "python" / "tirx",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (root / "lib").mkdir()
    with open(CAPI, "rb") as source, lzma.open(root / "lib" / "libTirXCAPI.so.xz", "wb",
                                               preset=0) as target:
        shutil.copyfileobj(source, target)
    for name in ("libTirXRuntime.so", "_fastlaunch.abi3.so"):
        path = os.path.join(os.path.dirname(CAPI), name)
        if os.path.exists(path):
            shutil.copy(path, root / "lib" / name)
    return root


def run(bundle, cache, **env):
    environment = {k: v for k, v in os.environ.items() if k != "TIRX_LIBRARY"}
    environment.update(PYTHONPATH=str(bundle / "python"), TIRX_CACHE_DIR=str(cache), **env)
    return subprocess.run([sys.executable, "-c", PROBE], cwd=str(bundle), env=environment,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("library_variable", [False, True])
def test_import_decompresses_once_into_the_cache(bundle, tmp_path, library_variable):
    cache = tmp_path / "cache"
    env = {"TIRX_LIBRARY": str(bundle / "lib")} if library_variable else {}
    first = run(bundle, cache, **env)
    assert first.returncode == 0, first.stderr
    loaded = first.stdout.strip().splitlines()[-1]
    assert loaded.startswith(str(cache / "lib")) and loaded.endswith("/libTirXCAPI.so")
    with open(loaded, "rb") as unpacked, open(CAPI, "rb") as original:
        assert unpacked.read() == original.read()
    assert not (bundle / "lib" / "libTirXCAPI.so").exists()  # the bundle is left as it is
    stamp = os.stat(loaded).st_mtime_ns
    second = run(bundle, cache, **env)
    assert second.returncode == 0, second.stderr
    assert second.stdout.strip().splitlines()[-1] == loaded
    assert os.stat(loaded).st_mtime_ns == stamp
    assert [p for p in os.listdir(os.path.dirname(loaded)) if p.startswith(".unpacking")] == []


FAILED = ("libTirXCAPI.so is there only compressed ({path}.xz), and decompressing it into "
          "{folder} failed: {reason}. Point TIRX_CACHE_DIR at a writable folder, or decompress "
          "it in place (`python3 unpack.py {lib}` in the GPU bundle, or `xz -d`).")


def test_unwritable_cache_is_a_clear_error(bundle, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    result = run(bundle, blocker)
    assert result.returncode != 0
    assert "tirx._capi.LibraryNotFoundError: " + FAILED.format(
        path=bundle / "lib" / "libTirXCAPI.so", folder=blocker / "lib",
        reason="[Errno 20] Not a directory: '%s'" % (blocker / "lib"),
        lib=bundle / "lib") in result.stderr, result.stderr


def test_damaged_archive_is_a_clear_error(tmp_path):
    root = tmp_path / "bundle"
    shutil.copytree(os.path.join(ROOT, "python", "tirx"), root / "python" / "tirx",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (root / "lib").mkdir()
    (root / "lib" / "libTirXCAPI.so.xz").write_bytes(b"not xz at all")
    result = run(root, tmp_path / "cache")
    assert result.returncode != 0
    assert "libTirXCAPI.so is there only compressed" in result.stderr
    assert "failed: Input format not supported by decoder" in result.stderr
    assert not any(p.name.endswith(".so") or p.name.startswith(".unpacking")
                   for p in (tmp_path / "cache").rglob("*"))
