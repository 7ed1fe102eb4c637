"""The wheel's checker (utils/make_wheel.py --check, which
test/wheel/check-wheel.sh runs on `make wheel`'s wheel) on small wheels:
make_wheel.py packs three tiny libraries built here with clang-22 under the
wheel's library names (no static build needed), the checker passes that
wheel, and it refuses each bad one with its reason: a RUNPATH, an exported
symbol outside the C API, a library needed from the system, a library
missing from the wheel, a file the RECORD does not match, a wrong tag."""
import base64
import hashlib
import os
import re
import subprocess
import sys
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAKE_WHEEL = os.path.join(ROOT, "utils", "make_wheel.py")
CLANG = "/usr/bin/clang-22"
# Nothing here loads TirX: no sanitizer runtime preloaded (check-sanitize's)
# into clang, objdump or llvm-nm.
ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}

# What each library of the wheel exports (make_wheel.EXPORTED_PREFIXES).
SOURCES = {
    "libTirXCAPI.so": "int tirxAnswer(void) { return 42; }\n",
    "libTirXRuntime.so": "int mgpuAnswer(void) { return 42; }\n",
    "_fastlaunch.abi3.so": "void *PyInit__fastlaunch(void) { return 0; }\n",
}


def build_library(folder, name, source, *flags):
    c_file = os.path.join(folder, name + ".c")
    with open(c_file, "w") as f:
        f.write(source)
    out = os.path.join(folder, name)
    subprocess.run([CLANG, "-shared", "-fPIC", "-O1", "-o", out, c_file] + list(flags),
                   check=True, env=ENV)
    return out


def make_wheel(static, out):
    run = subprocess.run([sys.executable, MAKE_WHEEL, static, out],
                         capture_output=True, text=True, env=ENV)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout.splitlines()[-1]


def check(wheel):
    run = subprocess.run([sys.executable, MAKE_WHEEL, "--check", wheel],
                         capture_output=True, text=True, env=ENV)
    return run.returncode, run.stdout


def record_hash(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(
        b"=").decode()


def rewrite(wheel, out, replace, fix_record=True):
    """A copy of `wheel` at `out` with the members of `replace` (name: bytes,
    or None to drop it) swapped in, and (fix_record) a RECORD that matches
    it, so the checker has nothing else to object to."""
    with zipfile.ZipFile(wheel) as old, zipfile.ZipFile(out, "w") as new:
        record = [n for n in old.namelist() if n.endswith(".dist-info/RECORD")][0]
        lines = []
        for name in old.namelist():
            if name == record:
                continue
            data = replace.get(name, old.read(name))
            if data is None:
                continue
            new.writestr(old.getinfo(name), data)
            lines.append("%s,%s,%d" % (name, record_hash(data), len(data)))
        lines.append(record + ",,")
        new.writestr(record, "\n".join(lines) + "\n" if fix_record else old.read(record))
    return str(out)


@pytest.fixture(scope="module")
def good_wheel(tmp_path_factory):
    if not os.access(CLANG, os.X_OK):
        pytest.skip("%s not found (scripts/install-deps.sh installs it)" % CLANG)
    static = tmp_path_factory.mktemp("static")
    os.mkdir(static / "lib")
    for name, source in SOURCES.items():
        build_library(str(static / "lib"), name, source)
    return make_wheel(str(static), str(tmp_path_factory.mktemp("dist")))


def limited_api():
    text = open(os.path.join(ROOT, "lib", "Python", "FastLaunch.c")).read()
    return re.search(r"#define Py_LIMITED_API 0x03([0-9A-F]{2})", text).group(1)


def test_a_good_wheel_passes(good_wheel):
    # Tagged for the interpreters _fastlaunch.abi3.so loads in: CPython 3.11
    # on, through the stable ABI (FastLaunch.c's Py_LIMITED_API); these
    # libraries use no versioned glibc symbol, so manylinux2014's floor.
    assert limited_api() == "0B"
    assert os.path.basename(good_wheel) == "tirx-%s-cp311-abi3-manylinux_2_17_x86_64.whl" \
        % re.search(r"project\(\w+ VERSION ([0-9.]+)",
                    open(os.path.join(ROOT, "CMakeLists.txt")).read()).group(1)
    with zipfile.ZipFile(good_wheel) as zf:
        metadata = [zf.read(n).decode() for n in zf.namelist() if n.endswith("/METADATA")]
        assert "Requires-Python: >=3.11\n" in metadata[0]
        assert "tirx/__init__.py" in zf.namelist()
    status, out = check(good_wheel)
    assert status == 0, out
    assert "PASS: RECORD lists the" in out
    for name in SOURCES:
        assert "PASS: tirx/lib/%s needs only libc.so.6; no RPATH/RUNPATH;" % name in out
    assert "PASS: tag cp311-abi3-manylinux_2_17_x86_64; the libraries need glibc 2.17 " \
           "and CPython's stable ABI cp311-abi3" in out
    assert out.splitlines()[-1] == "wheel contents check: PASSED"


def bad_library(tmp_path, name, source, *flags):
    return open(build_library(str(tmp_path), name, source, *flags), "rb").read()


@pytest.mark.parametrize("runpath, reason", [
    ("/opt/elsewhere", "RUNPATH '/opt/elsewhere' names /opt/elsewhere (only $ORIGIN is allowed)"),
    ("$ORIGIN:", "RUNPATH '$ORIGIN:' has an empty entry (the current directory)"),
])
def test_a_runpath_is_refused(good_wheel, tmp_path, runpath, reason):
    lib = bad_library(tmp_path, "libTirXCAPI.so", SOURCES["libTirXCAPI.so"],
                      "-Wl,--enable-new-dtags,-rpath," + runpath)
    status, out = check(rewrite(good_wheel, tmp_path / "bad.whl",
                                {"tirx/lib/libTirXCAPI.so": lib}))
    assert status == 1
    assert "FAIL: tirx/lib/libTirXCAPI.so " + reason in out
    assert out.splitlines()[-1] == "wheel contents check: FAILED"


def test_an_exported_symbol_outside_the_c_api_is_refused(good_wheel, tmp_path):
    lib = bad_library(tmp_path, "libTirXRuntime.so", SOURCES["libTirXRuntime.so"]
                      + "int helper(void) { return 1; }\n")
    status, out = check(rewrite(good_wheel, tmp_path / "bad.whl",
                                {"tirx/lib/libTirXRuntime.so": lib}))
    assert status == 1
    assert "FAIL: tirx/lib/libTirXRuntime.so exports 1 symbol(s) outside " \
           "tirx*/mlir*/mgpu*/_mlir_ciface_*/PyInit__fastlaunch*: helper" in out


def test_a_library_from_the_system_is_refused(good_wheel, tmp_path):
    build_library(str(tmp_path), "libextra.so", "int extra(void) { return 1; }\n")
    lib = bad_library(tmp_path, "_fastlaunch.abi3.so", SOURCES["_fastlaunch.abi3.so"],
                      "-L" + str(tmp_path), "-Wl,--no-as-needed", "-lextra")
    status, out = check(rewrite(good_wheel, tmp_path / "bad.whl",
                                {"tirx/lib/_fastlaunch.abi3.so": lib}))
    assert status == 1
    assert "FAIL: tirx/lib/_fastlaunch.abi3.so needs libextra.so from the system" in out


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_a_missing_library_is_refused(good_wheel, tmp_path, name):
    status, out = check(rewrite(good_wheel, tmp_path / "bad.whl", {"tirx/lib/" + name: None}))
    assert status == 1
    assert out.count("FAIL") == 2  # the library, and the last line
    assert "FAIL: tirx/lib/%s is missing" % name in out


def test_a_file_the_record_does_not_match_is_refused(good_wheel, tmp_path):
    status, out = check(rewrite(good_wheel, tmp_path / "bad.whl",
                                {"tirx/__init__.py": b"# changed\n"}, fix_record=False))
    assert status == 1
    assert "FAIL: RECORD does not list tirx/__init__.py with its sha256 and size" in out


@pytest.mark.parametrize("tag, needs", [
    ("py3-none-manylinux_2_17_x86_64", "2.17"),  # any Python: not where it loads
    ("cp310-abi3-manylinux_2_17_x86_64", "2.17"),  # below its stable ABI
    ("cp311-abi3-manylinux_2_17_x86_64", "2.36"),  # below the glibc it needs
])
def test_a_wrong_tag_is_refused(good_wheel, tmp_path, tag, needs):
    replace = {}
    with zipfile.ZipFile(good_wheel) as zf:
        meta = [n for n in zf.namelist() if n.endswith(".dist-info/WHEEL")][0]
        replace[meta] = re.sub(r"Tag: \S+", "Tag: " + tag, zf.read(meta).decode()).encode()
    if needs == "2.36":  # arc4random is GLIBC_2.36
        replace["tirx/lib/libTirXCAPI.so"] = bad_library(
            tmp_path, "libTirXCAPI.so", "#include <stdlib.h>\n"
            "unsigned tirxRandom(void) { return arc4random(); }\n")
    status, out = check(rewrite(good_wheel, tmp_path / "bad.whl", replace))
    assert status == 1
    assert "FAIL: tag %s; the libraries need glibc %s and CPython's stable ABI cp311-abi3" \
        % (tag, needs) in out
    assert out.count("FAIL") == 2


def test_make_wheel_refuses_a_library_that_is_not_self_contained(good_wheel, tmp_path):
    os.mkdir(tmp_path / "lib")
    for name, source in SOURCES.items():
        build_library(str(tmp_path / "lib"), name, source,
                      *(["-Wl,--enable-new-dtags,-rpath,/opt/elsewhere"]
                        if name == "libTirXRuntime.so" else []))
    run = subprocess.run([sys.executable, MAKE_WHEEL, str(tmp_path), str(tmp_path / "dist")],
                         capture_output=True, text=True, env=ENV)
    assert run.returncode == 1
    assert "libTirXRuntime.so RUNPATH '/opt/elsewhere' names /opt/elsewhere" in run.stderr
    assert not os.path.exists(tmp_path / "dist")
