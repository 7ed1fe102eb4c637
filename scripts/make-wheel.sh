#!/usr/bin/env bash
# Builds dist/tirx-<version>-cp311-abi3-manylinux_X_Y_x86_64.whl from a static
# build (`make static`): python/tirx plus its stripped libTirXCAPI.so,
# libTirXRuntime.so and _fastlaunch.abi3.so as tirx/lib/.
# usage: scripts/make-wheel.sh [--stored] [STATIC_DIR [OUT_DIR]]
# The wheel's path is the last line printed. Test: test/wheel/check-wheel.sh
# (the checker alone, on small wheels, in `make check`: test/python/test_wheel.py).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
stored=()
if [ "${1:-}" = "--stored" ]; then stored=(--stored); shift; fi
static=${1:-$root/build-static}
out=${2:-$root/dist}
exec /usr/bin/python3 "$root/utils/make_wheel.py" "${stored[@]}" "$static" "$out"
