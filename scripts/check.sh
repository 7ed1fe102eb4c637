#!/usr/bin/env bash
# Runs every TirX test suite against an existing build and prints, last, one
# line "N passed, N failed, N skipped" (lit, GoogleTest and pytest together;
# skipped = lit UNSUPPORTED + GoogleTest skipped + pytest skipped). Just
# above it: every test that was skipped and why, then every suite that
# failed to run.
# A suite that runs no test, or cannot run (no lit, no GoogleTest binary, no
# pytest, no libTirXCAPI.so), counts as a failure: nothing passes unseen.
# Exit code: non-zero if anything failed.
set -uo pipefail

build_dir=${1:-build}
lit=/usr/lib/llvm-22/bin/lit
python=/usr/bin/python3
python_env=()
source_dir=$(cd "$(dirname "$0")/.." && pwd)

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
skipped=0
skip_list=()    # "suite: test: why", printed above the last line
broken_list=()  # suites that failed to run or ran nothing

# A suite that could not run or ran nothing: one failure, and why.
suite_broken() {
  broken_list+=("$1")
  failed=$((failed + 1))
}
# One suite's counts, printed and added to the totals: tally NAME P F S.
tally() {
  echo "$1: $2 passed, $3 failed, $4 skipped"
  passed=$((passed + $2))
  failed=$((failed + $3))
  skipped=$((skipped + $4))
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

#===--- lit ------------------------------------------------------------===#
# Counted from lit's JSON results: PASS and XFAIL pass; FAIL, XPASS,
# UNRESOLVED and TIMEOUT fail; UNSUPPORTED is skipped, with lit's reason
# (a missing feature such as cuda-gpu, or `%if ptxas` lines that could not
# run: test/lit.cfg.py).
if [ -x "$lit" ]; then
  "$lit" -sv -o "$tmp/lit.json" "$build_dir/test" 2>&1 | tee "$tmp/lit.log"
  lit_status=${PIPESTATUS[0]}
  if [ -s "$tmp/lit.json" ]; then
    eval "$("$python" - "$tmp/lit.json" <<'EOF'
import json, shlex, sys
tests = json.load(open(sys.argv[1]))["tests"]
count = {"passed": 0, "failed": 0, "skipped": 0}
why = []
for test in sorted(tests, key=lambda t: t["name"]):
    code = test["code"]
    if code in ("PASS", "XFAIL"):
        count["passed"] += 1
    elif code == "UNSUPPORTED":
        count["skipped"] += 1
        reason = (test.get("output") or "").strip().splitlines()
        why.append("lit: %s: %s" % (test["name"].split(" :: ", 1)[-1],
                                    reason[0] if reason else "unsupported"))
    elif code in ("FAIL", "XPASS", "UNRESOLVED", "TIMEOUT"):
        count["failed"] += 1
for key, value in count.items():
    print("lit_%s=%d" % (key, value))
print("lit_why=(%s)" % " ".join(shlex.quote(w) for w in why))
EOF
)"
    tally lit "$lit_passed" "$lit_failed" "$lit_skipped"
    skip_list+=("${lit_why[@]}")
    if [ "$lit_status" -ne 0 ] && [ "$lit_failed" -eq 0 ]; then
      suite_broken "lit: exited with status $lit_status and no failed test (see its output above)"
    elif [ $((lit_passed + lit_failed)) -eq 0 ]; then
      suite_broken "lit: ran no test"
    fi
  elif [ "$lit_status" -eq 0 ]; then
    suite_broken "lit: ran no test"
  else
    fatal=$(grep -m1 -o 'fatal: .*' "$tmp/lit.log")
    suite_broken "lit: wrote no results (exit status $lit_status)${fatal:+: $fatal}"
  fi
else
  suite_broken "lit: $lit not found (apt install llvm-22-tools)"
fi

#===--- GoogleTest: one binary per library ---------------------------------===#
gtest_binaries=0
for test_binary in "$build_dir"/unittests/*Tests; do
  [ -x "$test_binary" ] || continue
  gtest_binaries=$((gtest_binaries + 1))
  name=$(basename "$test_binary")
  log="$tmp/$name.log"
  "$test_binary" --gtest_brief=1 2>&1 | tee "$log"
  bin_status=${PIPESTATUS[0]}
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | head -n1)
  f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | head -n1)
  s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | head -n1)
  p=${p:-0}; f=${f:-0}; s=${s:-0}
  tally "$name" "$p" "$f" "$s"
  # The names of the skipped tests (GTEST_SKIP()), from gtest's summary.
  while read -r skipped_test; do
    skip_list+=("gtest: $name: $skipped_test: GTEST_SKIP")
  done < <(sed -n 's/^\[  SKIPPED \] \([A-Za-z_][A-Za-z0-9_./]*\)$/\1/p' "$log" | sort -u)
  if [ "$bin_status" -ne 0 ] && [ "$f" -eq 0 ]; then
    suite_broken "gtest: $name exited with status $bin_status and no failed test"
  elif [ $((p + f)) -eq 0 ]; then
    suite_broken "gtest: $name ran no test"
  fi
done
if [ "$gtest_binaries" -eq 0 ]; then
  suite_broken "gtest: no GoogleTest binary in $build_dir/unittests (build the TirXUnitTests target)"
fi

#===--- pytest: the Python package against this build's libraries ----------===#
if [ ! -f "$build_dir/lib/libTirXCAPI.so" ]; then
  suite_broken "pytest: $build_dir/lib/libTirXCAPI.so not found (build the TirXCAPI target)"
elif ! "$python" -c "import pytest" 2>/dev/null; then
  suite_broken "pytest: $python cannot import pytest (apt install python3-pytest)"
else
  log="$tmp/pytest.log"
  TIRX_LIBRARY="$build_dir/lib" "${python_env[@]}" "$python" -m pytest -q -rs -p no:cacheprovider \
    "$source_dir/test/python" 2>&1 | tee "$log"
  py_status=${PIPESTATUS[0]}
  summary=$(grep -E '^(=+ )?[0-9]+ [a-z]+.* in [0-9.]+s' "$log" | tail -n1)
  p=$(grep -oE '[0-9]+ (passed|xfailed)' <<<"$summary" | awk '{s+=$1} END {print s+0}')
  f=$(grep -oE '[0-9]+ (failed|errors?|xpassed)' <<<"$summary" | awk '{s+=$1} END {print s+0}')
  s=$(grep -oE '[0-9]+ skipped' <<<"$summary" | awk '{s+=$1} END {print s+0}')
  tally pytest "$p" "$f" "$s"
  # -rs: "SKIPPED [N] file:line: reason" (N tests skipped there for it)
  while read -r n line; do
    [ "$n" -gt 1 ] && line="$line ($n tests)"
    skip_list+=("pytest: $line")
  done < <(sed -n 's/^SKIPPED \[\([0-9]*\)\] /\1 /p' "$log")
  if [ "$py_status" -eq 5 ]; then
    suite_broken "pytest: ran no test (exit status 5: none collected or all deselected)"
  elif [ "$py_status" -ne 0 ] && [ "$f" -eq 0 ]; then
    suite_broken "pytest: exited with status $py_status and no failed test"
  elif [ $((p + f)) -eq 0 ]; then
    suite_broken "pytest: ran no test"
  fi
fi

#===--- Summary -------------------------------------------------------------===#
echo
if [ "${#skip_list[@]}" -gt 0 ]; then
  echo "Skipped:"
  printf '  %s\n' "${skip_list[@]}"
fi
if [ "${#broken_list[@]}" -gt 0 ]; then
  echo "Suites that did not run or ran nothing (each counts as a failure):"
  printf '  %s\n' "${broken_list[@]}"
fi
[ "$failed" -eq 0 ] && status=0 || status=1
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
