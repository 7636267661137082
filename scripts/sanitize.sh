#!/usr/bin/env bash
# `make sanitize`: HeeKeyboard built with AddressSanitizer (and its LeakSanitizer) and with
# ThreadSanitizer, each running the unit tests, every replay file (Tests/e2e/replay and the
# generated replay scenarios), the inputs from other apps' bug reports and the live test under
# Xvfb. Any sanitizer report fails the run, whatever the exit status the test expected.
#
# HEE_SANITIZE=1 makes Package.swift link the Swift runtime dynamically (-static-stdlib hides
# the sanitizer's allocator from the shared libraries). Builds go to .build/sanitize-KIND.
# Known leaks of the libraries (fontconfig, libdbus, XCTest) are suppressed by
# Tests/sanitizers/lsan.supp; Tests/sanitizers/tsan.supp is ThreadSanitizer's list.
#
# Usage: scripts/sanitize.sh [address] [thread]     (default: both)
# Environment: DISPLAY with HEE_E2E_USE_DISPLAY=1 as for the other end-to-end tests.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
kinds=("$@")
[[ ${#kinds[@]} -gt 0 ]] || kinds=(address thread)
export HEE_SANITIZE=1
PYTHON=${PYTHON:-python3}

for kind in "${kinds[@]}"; do
  case $kind in address|thread) ;; *) echo "sanitize.sh: unknown sanitizer '$kind' (address, thread)" >&2; exit 64 ;; esac
  scratch=.build/sanitize-$kind
  reports=$(mktemp -d "${TMPDIR:-/tmp}/hee-sanitize-$kind.XXXXXX")
  started=$(date +%s)
  echo "# sanitize $kind: build ($scratch)"
  # ld.gold warns about every ASan check symbol it cannot export: noise, filtered.
  swift build --build-tests --sanitize="$kind" --scratch-path "$scratch" 2>&1 \
    | { grep -v "Cannot export local symbol '__asan_" || true; }
  # Reports go to files (one per process): a test that expects an exit status other than 0
  # (a malformed replay is 65) still fails the run when its process had a report.
  export ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=1:abort_on_error=0:symbolize=1"
  export LSAN_OPTIONS="suppressions=$root/Tests/sanitizers/lsan.supp:print_suppressions=0"
  export TSAN_OPTIONS="log_path=$reports/tsan:suppressions=$root/Tests/sanitizers/tsan.supp:halt_on_error=0:second_deadlock_stack=1"

  echo "# sanitize $kind: unit tests"
  swift test --skip-build --sanitize="$kind" --scratch-path "$scratch"
  app="$scratch/debug/HeeApp"
  echo "# sanitize $kind: replay files"
  # Every file in Tests/e2e/replay; the generated long file and the stress scenario at sizes a
  # sanitized debug build replays in reasonable time (ThreadSanitizer is 5-15 times slower).
  HEE_APP=$app HEE_REPLAY_EVENTS=1500 $PYTHON Tests/e2e/run_replay_file_tests.py
  HEE_APP=$app HEE_REPLAY_STRESS_PAIRS=2000 HEE_REPLAY_STRESS_TIMEOUT=120 HEE_REPLAY_RUN_TIMEOUT=90 $PYTHON Tests/e2e/run_replay_tests.py
  HEE_APP=$app $PYTHON Tests/e2e/run_hostile_input_tests.py
  echo "# sanitize $kind: live test under Xvfb"
  HEE_APP=$app $PYTHON Tests/e2e/run_e2e.py

  # A report says ERROR (ASan, LSan) or WARNING: ThreadSanitizer, and ends with a SUMMARY.
  found=$(grep -l -E "ERROR: |WARNING: ThreadSanitizer|SUMMARY: " "$reports"/* 2>/dev/null || true)
  if [[ -n $found ]]; then
    echo "FAIL: sanitize $kind: sanitizer reports:" >&2
    for f in $found; do echo "---- $f" >&2; cat "$f" >&2; done
    exit 1
  fi
  rm -rf "$reports"
  echo "# sanitize $kind: clean ($(( $(date +%s) - started )) s)"
done
