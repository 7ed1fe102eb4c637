#!/usr/bin/env bash
# Checks the wheel (`make wheel`): its RECORD, then its ELF files
# (utils/make_wheel.py --check: they need nothing outside glibc's own
# libraries, have no RPATH/RUNPATH entry but $ORIGIN (no empty one),
# export only the C API, and need no newer glibc than the manylinux_X_Y tag
# says). Then installs it into a clean folder and tries it from /
# with an empty environment: import tirx, compile the seed's affine-ReLU
# (examples/python/affine_relu.py) for sm_90 (compile only, no GPU), check
# that both libraries were loaded from <target>/tirx/lib and that the PTX
# has fma.rn.f32. Not in `make check` (it needs the static build).
# usage: test/wheel/check-wheel.sh [WHEEL]   (default: dist/tirx-*.whl)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
wheel=${1:-}
if [ -z "$wheel" ]; then
  wheel=$(ls "$root"/dist/tirx-*.whl 2>/dev/null | tail -1)
fi
[ -f "$wheel" ] || { echo "FAIL: no wheel (run make wheel, or pass its path)"; exit 1; }
wheel=$(cd "$(dirname "$wheel")" && pwd)/$(basename "$wheel")
echo "wheel: $wheel"
# The wheel's RECORD: every file listed with its sha256 and size, nothing unlisted.
/usr/bin/python3 - "$wheel" <<'PY'
import base64, hashlib, sys, zipfile
zf = zipfile.ZipFile(sys.argv[1])
record = [n for n in zf.namelist() if n.endswith(".dist-info/RECORD")]
assert len(record) == 1, record
listed = {}
for line in zf.read(record[0]).decode().splitlines():
    name, digest, size = line.rsplit(",", 2)
    listed[name] = (digest, size)
bad = []
for name in zf.namelist():
    if name == record[0]:
        continue
    data = zf.read(name)
    want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    if listed.get(name) != (want, str(len(data))):
        bad.append(name)
print("%s: RECORD lists the %d files with their sha256 and size%s"
      % ("FAIL" if bad else "PASS", len(zf.namelist()) - 1, (": " + ", ".join(bad)) if bad else ""))
sys.exit(1 if bad else 0)
PY
# Self-contained: no library from the system but glibc's, no empty (or
# absolute) RPATH/RUNPATH entry, no C++ symbol exported, the right tag.
/usr/bin/python3 "$root/utils/make_wheel.py" --check "$wheel"
target=$(mktemp -d /tmp/tirx-wheel-check.XXXXXX)
trap 'rm -rf "$target"' EXIT
if dpkg -s python3-pip > /dev/null 2>&1 && /usr/bin/python3 -m pip --version > /dev/null 2>&1; then
  # --isolated: no pip.conf or PIP_* settings of this machine.
  echo "install: /usr/bin/python3 -m pip --isolated install --no-deps --no-index --target $target"
  /usr/bin/python3 -m pip --isolated install --no-deps --no-index --target "$target" "$wheel"
else
  echo "install: python3-pip is not installed; unzipping the wheel instead (not a pip install)"
  /usr/bin/python3 -m zipfile -e "$wheel" "$target"
fi
# From /, nothing in the environment but PYTHONPATH: the import alone.
(cd / && env -i PYTHONPATH="$target" /usr/bin/python3 -c 'import tirx; print("import tirx: OK from", tirx.__file__)')
# Then the compile; the disk cache goes to a fresh folder, so it really compiles.
cd /
env -i PYTHONPATH="$target" TIRX_CACHE_DIR="$target/.cache" /usr/bin/python3 - "$target" "$root/examples/python/affine_relu.py" <<'PY'
import importlib.util, os, sys
target, example = sys.argv[1], sys.argv[2]
import tirx, tirx._capi, tirx.runtime
lib_dir = os.path.realpath(os.path.join(target, "tirx", "lib"))
spec = importlib.util.spec_from_file_location("affine_relu", example)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
compiled = tirx.compile(module.affine_relu, target={"kind": "cuda", "arch": "sm_90"})
runtime = tirx.runtime._runtime()  # loads libTirXRuntime.so (no GPU needed to load it)
ok = True
for name, lib in (("libTirXCAPI.so", tirx._capi.lib), ("libTirXRuntime.so", runtime)):
    where = os.path.realpath(lib._name)
    good = where == os.path.join(lib_dir, name)
    ok &= good
    print("%s: %s loaded from %s" % ("PASS" if good else "FAIL", name, where))
maps = [line.split()[-1] for line in open("/proc/self/maps") if "libTirX" in line]
for path in sorted(set(maps)):
    good = os.path.dirname(os.path.realpath(path)) == lib_dir
    ok &= good
    print("%s: mapped %s" % ("PASS" if good else "FAIL", path))
fast = tirx.runtime._fast_launch_module()
where = os.path.realpath(fast.__file__) if fast else None
good = where == os.path.join(lib_dir, "_fastlaunch.abi3.so")
ok &= good
print("%s: the launcher's C fast path loaded from %s" % ("PASS" if good else "FAIL", where))
good = "fma.rn.f32" in compiled.ptx and ".target sm_90" in compiled.ptx
ok &= good
print("%s: affine_relu compiled for sm_90 (%d bytes of PTX, %d fma.rn.f32)"
      % ("PASS" if good else "FAIL", len(compiled.ptx), compiled.ptx.count("fma.rn.f32")))
print("wheel check: %s" % ("PASSED" if ok else "FAILED"))
sys.exit(0 if ok else 1)
PY
