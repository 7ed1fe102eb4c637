#!/usr/bin/env python3
"""Writes dist/tirx-<version>-py3-none-manylinux_X_Y_x86_64.whl.

usage: make_wheel.py [--stored] STATIC_BUILD_DIR OUT_DIR

--stored writes the files uncompressed (a valid wheel, ~4x bigger): the GPU
bundle xz-compresses it whole, which is smaller than xz over deflate.

The wheel holds python/tirx and the static build's libTirXCAPI.so and
libTirXRuntime.so, stripped, as tirx/lib/ (where tirx/_capi.py looks next to
the package). The version is CMakeLists.txt's project(VERSION); the platform
tag comes from the highest GLIBC_x.y symbol version the libraries need
(objdump -T). Written with zipfile (PEP 427): no setuptools or wheel needed.
Prints the wheel's path on the last line.
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
LIBRARIES = ("libTirXCAPI.so", "libTirXRuntime.so")
# Fixed timestamps: the same inputs give the same wheel (SOURCE_DATE_EPOCH
# is not used: zip cannot hold dates before 1980 anyway).
DATE = (1980, 1, 1, 0, 0, 0)
# What manylinux (PEP 600 / auditwheel's policy) lets a wheel take from the
# system; anything else a library needs is reported.
SYSTEM_LIBRARIES = {
    "libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1",
    "ld-linux-x86-64.so.2", "libgcc_s.so.1", "libstdc++.so.6", "libz.so.1",
    "libutil.so.1", "libnsl.so.1", "libcrypt.so.1", "libresolv.so.2",
}


def version():
    text = open(os.path.join(ROOT, "CMakeLists.txt")).read()
    match = re.search(r"project\s*\(\s*\w+\s+VERSION\s+([0-9][0-9.]*)", text)
    if not match:
        sys.exit("make_wheel.py: no project(... VERSION x.y.z) in CMakeLists.txt")
    return match.group(1)


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


def record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def main():
    args = sys.argv[1:]
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
        for lib in libs:
            extra = [n for n in needed(lib) if n not in SYSTEM_LIBRARIES]
            if extra:
                print("make_wheel.py: warning: %s needs %s from the system (outside "
                      "manylinux's list; the target machine must have it)"
                      % (os.path.basename(lib), ", ".join(extra)), file=sys.stderr)
        major, minor = glibc_needed(libs)
        tag = "py3-none-manylinux_%d_%d_x86_64" % (major, minor)
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
            "Requires-Python: >=3.8\n" % ver)
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
