#!/usr/bin/env bash
# Runs every TirX fuzzer for SECONDS each (make fuzz FUZZ_SECONDS=N), on the
# seed corpora from the tests (fuzz/make-corpus.py) plus what earlier runs
# kept, and prints executions and crashes per fuzzer. Crashing inputs are
# written to BUILD/fuzz-artifacts; each one found becomes a reproducer in
# test/fuzz-regressions (see docs/testing.md).
#   Usage: scripts/run-fuzzers.sh BUILD_DIR SECONDS [FUZZER...]
# (all fuzzers when none is named).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?build directory}
seconds=${2:?seconds per fuzzer}
shift 2
selected=" $* "
/usr/bin/python3 "$root/fuzz/make-corpus.py" "$build/corpus" > /dev/null
mkdir -p "$build/fuzz-artifacts" "$build/corpus/ir"
cp "$root"/test/*/*.mlir "$root"/test/*/*/*.mlir "$root"/examples/*.mlir "$build/corpus/ir/" 2>/dev/null
# LLVM's BumpPtrAllocator, inlined into the instrumented TirX code, poisons
# its slabs; Debian's uninstrumented libMLIR.so then reads them through its
# own (non-unpoisoning) copy: a false use-after-poison. Turn off user
# poisoning; real heap errors are still reported.
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0}
status=0
total=0
run() {
  local name=$1 corpus=$2; shift 2
  if [ "$selected" != "  " ] && [[ "$selected" != *" $name "* ]]; then return; fi
  local log=$build/$name.log
  "$build/bin/$name" "$build/corpus/$corpus" -max_total_time="$seconds" \
    -artifact_prefix="$build/fuzz-artifacts/$name-" -print_final_stats=1 -timeout=20 "$@" > "$log" 2>&1
  local rc=$?
  local executions
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
  executions=${executions:-0}
  local crashes
  crashes=$(grep -c "^==[0-9]*==ERROR\|ALARM: working on the last Unit" "$log")
  total=$((total + executions))
  echo "$name: $executions executions, $crashes crashes in ${seconds}s (log: $log)"
  if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then status=1; fi
}
run tirx-layout-fuzzer layout -max_len=256
run tirx-ptx-spelling-fuzzer ptx-spelling -max_len=128
run tirx-ir-fuzzer ir -max_len=4096 -dict="$root/fuzz/tirx.dict" -rss_limit_mb=4096
run tirx-capi-fuzzer capi -max_len=4096 -dict="$root/fuzz/tirx.dict" -rss_limit_mb=4096
echo "fuzz: $total executions in total"
exit $status
