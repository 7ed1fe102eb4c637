#!/usr/bin/env bash
# Runs every TirX test suite against an existing build and prints, last, one
# line "N passed, N failed" (lit's counts plus the GoogleTest cases).
# Exit code: non-zero if anything failed.
set -uo pipefail

build_dir=${1:-build}
lit=/usr/lib/llvm-22/bin/lit
python=/usr/bin/python3
python_env=()

# A sanitizer build (make check-sanitize): every error is fatal and reported
# with its stack. Debian's libMLIR.so is not instrumented; LLVM's
# BumpPtrAllocator, inlined into TirX code, poisons slabs that libMLIR's own
# copy then uses, so user poisoning is off (real heap errors still fail).
# Python is not instrumented either: it preloads the ASan runtime for the
# instrumented libTirXCAPI.so, and does not check for leaks (CPython keeps
# its objects until exit by design).
if grep -qs "^LLVM_USE_SANITIZER:.*Address" "$build_dir/CMakeCache.txt"; then
  export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=1:abort_on_error=0}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  python_env=(env "LD_PRELOAD=$(clang-22 -print-file-name=libclang_rt.asan-x86_64.so)"
              "ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0")
  echo "sanitizers: ASan + UBSan (ASAN_OPTIONS=$ASAN_OPTIONS)"
fi

passed=0
failed=0
status=0

# lit: every test counts once; UNSUPPORTED tests count as neither.
lit_log=$(mktemp)
"$lit" -sv "$build_dir/test" 2>&1 | tee "$lit_log"
lit_status=${PIPESTATUS[0]}
count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$lit_log" | head -n1; }
lit_passed=$(( $(count Passed || true) + 0 ))
lit_xfail=$(( $(count "Expectedly Failed" || true) + 0 ))
lit_failed=$(( $(count Failed || true) + $(count "Unexpectedly Passed" || true) + $(count Unresolved || true) + $(count "Timed Out" || true) + 0 ))
if [ "$lit_status" -ne 0 ] && [ "$lit_failed" -eq 0 ]; then lit_failed=1; fi
passed=$((passed + lit_passed + lit_xfail))
failed=$((failed + lit_failed))
rm -f "$lit_log"

# GoogleTest: one binary per library.
for test_binary in "$build_dir"/unittests/*Tests; do
  [ -x "$test_binary" ] || continue
  log=$(mktemp)
  "$test_binary" --gtest_brief=1 2>&1 | tee "$log"
  bin_status=${PIPESTATUS[0]}
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | head -n1)
  f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | head -n1)
  p=${p:-0}; f=${f:-0}
  if [ "$bin_status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  echo "$(basename "$test_binary"): $p passed, $f failed"
  passed=$((passed + p))
  failed=$((failed + f))
  rm -f "$log"
done

# pytest: the Python package against this build's libraries (CPU only).
if [ -f "$build_dir/lib/libTirXCAPI.so" ] && "$python" -c "import pytest" 2>/dev/null; then
  log=$(mktemp)
  TIRX_LIBRARY="$build_dir/lib" "${python_env[@]}" "$python" -m pytest -q -p no:cacheprovider \
    "$(dirname "$0")/../test/python" 2>&1 | tee "$log"
  py_status=${PIPESTATUS[0]}
  p=$(grep -oE '[0-9]+ passed' "$log" | tail -n1 | cut -d' ' -f1)
  f=$(grep -oE '[0-9]+ (failed|error)' "$log" | awk '{s+=$1} END {print s+0}')
  p=${p:-0}; f=${f:-0}
  if [ "$py_status" -ne 0 ] && [ "$py_status" -ne 5 ] && [ "$f" -eq 0 ]; then f=1; fi
  echo "pytest: $p passed, $f failed"
  passed=$((passed + p))
  failed=$((failed + f))
  rm -f "$log"
fi

[ "$failed" -eq 0 ] || status=1
echo "$passed passed, $failed failed"
exit $status
