#!/usr/bin/env bash
# Checks the wheel (`make wheel`) with utils/make_wheel.py --check: its
# RECORD, its three libraries (they need nothing outside glibc's own
# libraries, have no RPATH/RUNPATH entry but $ORIGIN (no empty one),
# export only the C API, and need no newer glibc than the manylinux_X_Y tag
# says; the tag is cp311-abi3, the launcher's stable-ABI floor). Then
# installs it into a clean folder and tries it from /
# with an empty environment: import tirx, compile the seed's affine-ReLU
# (examples/python/affine_relu.py) for sm_90 (compile only, no GPU), check
# that both libraries were loaded from <target>/tirx/lib and that the PTX
# has fma.rn.f32. Not in `make check` (it needs the static build); the
# checker itself is, on small wheels: test/python/test_wheel.py.
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
# The RECORD (every file with its sha256 and size), the three libraries,
# self-contained (no library from the system but glibc's, no empty or
# absolute RPATH/RUNPATH entry, no C++ symbol exported) and the right tag.
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
