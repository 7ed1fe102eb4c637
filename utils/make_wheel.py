#!/usr/bin/env python3
"""Writes dist/tirx-<version>-cp311-abi3-manylinux_X_Y_x86_64.whl.

usage: make_wheel.py [--stored] STATIC_BUILD_DIR OUT_DIR

--stored writes the files uncompressed (a valid wheel, ~4x bigger): the GPU
bundle xz-compresses it whole, which is smaller than xz over deflate.

usage: make_wheel.py --check WHEEL

The wheel holds python/tirx and the static build's libTirXCAPI.so,
libTirXRuntime.so and _fastlaunch.abi3.so, stripped, as tirx/lib/ (where
tirx/_capi.py looks next to the package). The version is CMakeLists.txt's
project(VERSION). The interpreter tag cpXY-abi3 is the stable-ABI floor of
_fastlaunch.abi3.so (lib/Python/FastLaunch.c's Py_LIMITED_API, 3.11: so
cp311-abi3 and Requires-Python >=3.11). The platform tag
manylinux_X_Y_x86_64 (PEP 600: "runs on any glibc >= X.Y") comes from the
highest GLIBC_x.y symbol version the libraries need (objdump -T), the way
auditwheel chooses it; 2.17 (manylinux2014) is the lowest it writes. Built on
Debian 12 that is 2.36 (arc4random, called by LLVM's Support library and
libstdc++'s std::random_device, both linked in, is GLIBC_2.36).
Written with zipfile (PEP 427): no setuptools or wheel needed. Prints the
wheel's path on the last line.

The libraries must be self-contained (the static build links libstdc++,
libgcc, zlib and zstd into them): make_wheel.py refuses to write a wheel,
and --check fails on one, where any ELF file
  - needs a library outside SYSTEM_LIBRARIES (glibc's own: libc, libm,
    libdl, libpthread, librt, the dynamic loader),
  - has an RPATH or RUNPATH entry other than $ORIGIN (an empty entry means
    the current directory: whoever controls it could slip in a libc.so.6),
  - exports a symbol outside EXPORTED_PREFIXES (e.g. libstdc++'s),
  - needs a GLIBC_x.y newer than the wheel's tag says (--check).
--check also fails a wheel whose RECORD does not list every file with its
sha256 and size, that lacks one of LIBRARIES in tirx/lib/, or whose tag is
not cpXY-abi3 for FastLaunch.c's floor.
--check prints one PASS/FAIL line per check and ELF file and a last line
"wheel contents check: PASSED" or "FAILED" (exit status 0 or 1).
"""
import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STRIP = "/usr/lib/llvm-22/bin/llvm-strip"
LIBRARIES = ("libTirXCAPI.so", "libTirXRuntime.so", "_fastlaunch.abi3.so")
# Fixed timestamps: the same inputs give the same wheel (SOURCE_DATE_EPOCH
# is not used: zip cannot hold dates before 1980 anyway).
DATE = (1980, 1, 1, 0, 0, 0)
# What the wheel's libraries may take from the system: glibc's own
# libraries, a subset of what manylinux (PEP 600 / auditwheel's policy)
# allows. libstdc++.so.6, libgcc_s.so.1 and libz.so.1 are on manylinux's
# list too, but the static build links them in (a libstdc++.so.6 older than
# Debian 12's would lack the GLIBCXX_3.4.30 symbols); anything else is an
# error.
SYSTEM_LIBRARIES = {
    "libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1",
    "ld-linux-x86-64.so.2",
}
# The only RPATH/RUNPATH entry an ELF file of the wheel may have (none is
# better): the folder it lies in.
ALLOWED_RUNPATH_ENTRIES = {"$ORIGIN", "${ORIGIN}"}
# What the libraries export (their version scripts, lib/CAPI/TirXCAPI.map
# and lib/Runtime/TirXRuntime.map): the C API, MLIR's dialect handles, the
# mgpu* host ABI and the printMemref helpers, and the fast launch path's
# module init (lib/Python: a Python extension, resolved against the running
# interpreter). No C++ (libstdc++) symbol.
EXPORTED_PREFIXES = ("tirx", "mlir", "mgpu", "_mlir_ciface_", "PyInit__fastlaunch")
NM = "/usr/lib/llvm-22/bin/llvm-nm"
FAST_LAUNCH_SOURCE = os.path.join(ROOT, "lib", "Python", "FastLaunch.c")


def version():
    text = open(os.path.join(ROOT, "CMakeLists.txt")).read()
    match = re.search(r"project\s*\(\s*\w+\s+VERSION\s+([0-9][0-9.]*)", text)
    if not match:
        sys.exit("make_wheel.py: no project(... VERSION x.y.z) in CMakeLists.txt")
    return match.group(1)


def limited_api():
    """(3, minor): the Py_LIMITED_API the launcher's extension is built
    with, the oldest CPython its stable ABI loads in."""
    text = open(FAST_LAUNCH_SOURCE).read()
    match = re.search(r"^#define\s+Py_LIMITED_API\s+0x03([0-9A-Fa-f]{2})", text, re.M)
    if not match:
        sys.exit("make_wheel.py: no `#define Py_LIMITED_API 0x03XX....` in %s"
                 % FAST_LAUNCH_SOURCE)
    return 3, int(match.group(1), 16)


def python_tag():
    """cpXY-abi3 (PEP 425/384): CPython X.Y or newer, through its stable ABI."""
    return "cp%d%d-abi3" % limited_api()


def glibc_needed(paths):
    """The highest GLIBC_x.y among the libraries' undefined dynamic symbols."""
    best = (2, 17)  # manylinux2014's floor: nothing older is tagged
    for path in paths:
        out = subprocess.run(["objdump", "-T", path], check=True,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            if "*UND*" not in line:
                continue
            for major, minor in re.findall(r"\bGLIBC_(\d+)\.(\d+)", line):
                best = max(best, (int(major), int(minor)))
    return best


def needed(path):
    out = subprocess.run(["objdump", "-p", path], check=True,
                         capture_output=True, text=True).stdout
    return re.findall(r"^\s*NEEDED\s+(\S+)", out, re.M)


def runpaths(path):
    """(tag, value) of each RPATH/RUNPATH entry of the dynamic section."""
    out = subprocess.run(["objdump", "-p", path], check=True,
                         capture_output=True, text=True).stdout
    return re.findall(r"^\s*(RPATH|RUNPATH)[ \t]*(.*?)[ \t]*$", out, re.M)


def exported(path):
    out = subprocess.run([NM, "-D", "--defined-only", "--format=just-symbols", path],
                         check=True, capture_output=True, text=True).stdout
    return out.split()


def is_elf(path):
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


def elf_problems(path):
    """What keeps this ELF file from loading on any manylinux machine, safely."""
    problems = []
    extra = [n for n in needed(path) if n not in SYSTEM_LIBRARIES]
    if extra:
        problems.append("needs %s from the system (allowed: %s)"
                        % (", ".join(extra), ", ".join(sorted(SYSTEM_LIBRARIES))))
    for tag, value in runpaths(path):
        entries = value.split(":")
        if "" in entries:
            problems.append("%s %r has an empty entry (the current directory)" % (tag, value))
        bad = [e for e in entries if e and e not in ALLOWED_RUNPATH_ENTRIES]
        if bad:
            problems.append("%s %r names %s (only $ORIGIN is allowed)"
                            % (tag, value, ", ".join(bad)))
    symbols = [s for s in exported(path) if not s.startswith(EXPORTED_PREFIXES)]
    if symbols:
        problems.append("exports %d symbol(s) outside %s: %s"
                        % (len(symbols), "/".join(p + "*" for p in EXPORTED_PREFIXES),
                           ", ".join(symbols[:5]) + (" ..." if len(symbols) > 5 else "")))
    return problems


def record_problems(zf):
    """The files of the wheel its RECORD does not list with their sha256 and
    size (PEP 376/427), or the RECORD's own problem."""
    records = [n for n in zf.namelist() if n.endswith(".dist-info/RECORD")]
    if len(records) != 1:
        return ["%d RECORD files" % len(records)]
    listed = {}
    for line in zf.read(records[0]).decode().splitlines():
        name, digest, size = line.rsplit(",", 2)
        listed[name] = (digest, size)
    bad = [name for name in zf.namelist() if name != records[0] and
           listed.get(name) != (record_hash(zf.read(name)), str(len(zf.read(name))))]
    return ["RECORD does not list %s with its sha256 and size" % name for name in bad]


def check_wheel(whl):
    """--check: the RECORD, the libraries, their ELF files and the tag of a
    built wheel (see the module's docstring)."""
    work = tempfile.mkdtemp(prefix="tirx-wheel-check-")
    try:
        ok = True
        with zipfile.ZipFile(whl) as zf:
            problems = record_problems(zf)
            for problem in problems:
                print("FAIL: %s" % problem)
            if not problems:
                print("PASS: RECORD lists the %d files with their sha256 and size"
                      % (len(zf.namelist()) - 1))
            ok &= not problems
            wheel_meta = [n for n in zf.namelist() if n.endswith(".dist-info/WHEEL")]
            tags = re.findall(r"^Tag:\s*(\S+)", zf.read(wheel_meta[0]).decode(), re.M) \
                if len(wheel_meta) == 1 else []
            elves = []
            for name in zf.namelist():
                if name.endswith("/"):
                    continue
                path = zf.extract(name, work)
                if is_elf(path):
                    elves.append((name, path))
        for name in LIBRARIES:
            if "tirx/lib/" + name not in [n for n, _ in elves]:
                print("FAIL: tirx/lib/%s is missing" % name)
                ok = False
        for name, path in elves:
            problems = elf_problems(path)
            ok &= not problems
            if problems:
                for problem in problems:
                    print("FAIL: %s %s" % (name, problem))
            else:
                print("PASS: %s needs only %s; %s; exports only %s" % (
                    name, ", ".join(needed(path)),
                    "RUNPATH " + ":".join(v for _, v in runpaths(path))
                    if runpaths(path) else "no RPATH/RUNPATH",
                    "/".join(p + "*" for p in EXPORTED_PREFIXES)))
        major, minor = glibc_needed([path for _, path in elves]) if elves else (0, 0)
        want = python_tag()
        floors = [tuple(int(x) for x in m.groups())
                  for t in tags for m in [re.match(r"%s-manylinux_(\d+)_(\d+)_x86_64$"
                                                   % re.escape(want), t)] if m]
        good = len(floors) == len(tags) == 1 and floors[0] >= (major, minor)
        ok &= good
        print("%s: tag %s; the libraries need glibc %d.%d and CPython's stable ABI %s" % (
            "PASS" if good else "FAIL", ", ".join(tags) or "(none)", major, minor, want))
        print("wheel contents check: %s" % ("PASSED" if ok else "FAILED"))
        return ok
    finally:
        shutil.rmtree(work, ignore_errors=True)


def record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def main():
    args = sys.argv[1:]
    if args[:1] == ["--check"]:
        if len(args) != 2:
            sys.exit(__doc__)
        sys.exit(0 if check_wheel(args[1]) else 1)
    stored = "--stored" in args
    args = [a for a in args if a != "--stored"]
    if len(args) != 2:
        sys.exit(__doc__)
    static, out_dir = args
    method = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    ver = version()
    work = tempfile.mkdtemp(prefix="tirx-wheel-")
    try:
        libs = []
        for name in LIBRARIES:
            src = os.path.join(static, "lib", name)
            if not os.path.exists(src):
                sys.exit("make_wheel.py: %s is missing (run `make static`)" % src)
            dst = os.path.join(work, name)
            shutil.copyfile(src, dst)
            subprocess.run([STRIP, dst], check=True)
            libs.append(dst)
        errors = ["%s %s" % (os.path.basename(lib), problem)
                  for lib in libs for problem in elf_problems(lib)]
        if errors:
            sys.exit("make_wheel.py: error: the libraries of %s are not self-contained "
                     "(is it a `make static` build?):\n  %s" % (static, "\n  ".join(errors)))
        major, minor = glibc_needed(libs)
        tag = "%s-manylinux_%d_%d_x86_64" % (python_tag(), major, minor)
        dist_info = "tirx-%s.dist-info" % ver
        files = []  # (archive name, source path or bytes, executable)
        package = os.path.join(ROOT, "python", "tirx")
        for dirpath, dirnames, filenames in os.walk(package):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(filenames):
                if name.endswith((".pyc", ".pyo")):
                    continue
                path = os.path.join(dirpath, name)
                arc = "tirx/" + os.path.relpath(path, package).replace(os.sep, "/")
                files.append((arc, path, False))
        if any(arc.startswith("tirx/lib/") for arc, _, _ in files):
            sys.exit("make_wheel.py: python/tirx/lib exists; it would clash with the libraries")
        for lib in libs:
            files.append(("tirx/lib/" + os.path.basename(lib), lib, True))
        metadata = (
            "Metadata-Version: 2.1\n"
            "Name: tirx\n"
            "Version: %s\n"
            "Summary: TirX tile compiler for NVIDIA GPUs (Python package with "
            "statically linked compiler and runtime libraries)\n"
            "Requires-Python: >=%d.%d\n" % ((ver,) + limited_api()))
        wheel = (
            "Wheel-Version: 1.0\n"
            "Generator: tirx utils/make_wheel.py\n"
            "Root-Is-Purelib: false\n"
            "Tag: %s\n" % tag)
        files.append((dist_info + "/METADATA", metadata.encode(), False))
        files.append((dist_info + "/WHEEL", wheel.encode(), False))
        os.makedirs(out_dir, exist_ok=True)
        whl = os.path.join(out_dir, "tirx-%s-%s.whl" % (ver, tag))
        tmp = whl + ".tmp"
        record = []
        with zipfile.ZipFile(tmp, "w", method) as zf:
            for arc, src, executable in files:
                data = src if isinstance(src, bytes) else open(src, "rb").read()
                info = zipfile.ZipInfo(arc, DATE)
                info.compress_type = method
                info.external_attr = ((0o755 if executable else 0o644) | 0o100000) << 16
                zf.writestr(info, data)
                record.append("%s,%s,%d" % (arc, record_hash(data), len(data)))
            record.append(dist_info + "/RECORD,,")
            info = zipfile.ZipInfo(dist_info + "/RECORD", DATE)
            info.compress_type = method
            info.external_attr = (0o644 | 0o100000) << 16
            zf.writestr(info, "\n".join(record) + "\n")
        os.replace(tmp, whl)
        print("glibc needed: %d.%d (highest GLIBC_ symbol version of %s)"
              % (major, minor, ", ".join(LIBRARIES)))
        print(whl)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
