#!/usr/bin/env bash
# Streaming benchmarks on a GPU (see stream.py). From a GPU bundle:
#   bash bench/gpu/run.sh [RESULTS.md]   with PYTHONPATH/TIRX_LIBRARY set by the bundle
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec python3 "$here/stream.py" "$@"
