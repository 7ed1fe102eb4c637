#!/usr/bin/env bash
# Installs, with apt, exactly the Debian packages TirX needs that are missing,
# for every Makefile target (run, check, check-sanitize, fuzz, static,
# gpu-bundle, bench, docs). The CUDA toolkit (ptxas, nvcc: /usr/local/cuda)
# is not a Debian package of the right version; see README.
# Idempotent: a machine that has everything installs nothing and never runs
# `apt-get update`.
set -euo pipefail

packages=(
  # Compiler toolchain: LLVM/MLIR 22 (shared + static archives), clang/lld.
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 lld-22
  # Sanitizer and libFuzzer runtimes (make check-sanitize, make fuzz).
  libclang-rt-22-dev
  # Static linking of MLIR needs the compression libraries' archives.
  libzstd-dev zlib1g-dev
  # Build drivers; xz packs the GPU bundle (make gpu-bundle).
  cmake ninja-build ccache make xz-utils
  # objdump: the wheel's checker (utils/make_wheel.py; test/python/test_wheel.py).
  binutils
  # Unit tests and Python tests (run with /usr/bin/python3, not pyenv).
  libgtest-dev python3 python3-pytest python3-numpy
  # The launcher's C fast path (lib/Python): Python's headers.
  python3-dev
  # The documentation site (make docs): Sphinx with MyST Markdown.
  python3-sphinx python3-myst-parser
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
