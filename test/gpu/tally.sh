# The GPU checks' tally, sourced by run.sh (and by test_checkers.py, which
# tests it on any machine). A check's exit status decides its verdict:
#   0                 passed
#   77 ($SKIP_STATUS) skipped: everything it checks needs something this
#                     machine lacks (a second GPU, 70 GiB); its last line of
#                     output says why (automake's convention for a skip)
#   anything else     failed
# Each check prints PASS:, FAIL: or SKIP: and its name; tally_summary lists
# every skip with its reason, then prints the last line, "gpu checks: N
# passed, N failed, N skipped", and returns 1 on any failure.
SKIP_STATUS=77
passed=0; failed=0; skipped=0
skip_list=()
pass() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
skip() { echo "SKIP: $*"; skipped=$((skipped + 1)); skip_list+=("$*"); }
# check NAME COMMAND...: runs COMMAND (its output shown as it comes, stderr
# merged into stdout so that a skip's last line is seen), then PASS, FAIL or
# SKIP by its exit status.
check() {
  local name=$1; shift
  local log rc=0 reason
  log=$(mktemp)
  "$@" 2>&1 | tee "$log" || rc=${PIPESTATUS[0]}
  if [ "$rc" -eq 0 ]; then
    pass "$name"
  elif [ "$rc" -eq "$SKIP_STATUS" ]; then
    reason=$(awk 'NF { last = $0 } END { print last }' "$log")
    skip "$name: ${reason:-exit status $SKIP_STATUS and no output to say why}"
  else
    fail "$name (exit status $rc)"
  fi
  rm -f "$log"
}
tally_summary() {
  if [ "${#skip_list[@]}" -gt 0 ]; then
    echo "Skipped:"
    printf '  %s\n' "${skip_list[@]}"
  fi
  echo "gpu checks: $passed passed, $failed failed, $skipped skipped"
  [ "$failed" -eq 0 ]
}
