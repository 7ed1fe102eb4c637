#!/bin/sh
# Runs the TirX compile-time benchmarks: seed kernels vs nvcc (wall time and
# PTX instruction counts), then compile-time scaling with tile size.
#   TIRX_OPT  tirx-opt binary   (default: build/bin/tirx-opt under the repo root)
#   NVCC      nvcc binary       (default: /usr/local/cuda/bin/nvcc)
#   RUNS      runs per median   (default: 7, at least 5)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
TIRX_OPT=${TIRX_OPT:-$root/build/bin/tirx-opt}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
RUNS=${RUNS:-7}
py="/usr/bin/python3 $root/bench/compile_time.py --tirx-opt $TIRX_OPT --nvcc $NVCC -n $RUNS"

echo "## Machine"
echo
echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "- nproc: $(nproc); CPU: $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
echo "- OS: $(. /etc/os-release && echo "$PRETTY_NAME")"
echo "- tirx-opt: $TIRX_OPT (git $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')," \
     "sha256 $(sha256sum "$TIRX_OPT" | cut -c1-12)); $("$TIRX_OPT" --version | sed -n 's/^ *//; /LLVM version/p')"
echo "- nvcc: $("$NVCC" --version | sed -n 's/^Cuda compilation tools, //p')"
echo
$py
echo
$py --scaling
