#!/usr/bin/env bash
# `make fuzz`: every target in Fuzz/targets built with libFuzzer and AddressSanitizer
# (`swiftc -sanitize=fuzzer,address`) and run for FUZZ_SECONDS each, one after another.
# Each target feeds the fuzzer's bytes to one reader of outside data exactly as the app does
# (see Fuzz/README.md). A crash, a broken invariant (the target aborts), a leak, an input that
# runs longer than FUZZ_TIMEOUT seconds or a process above FUZZ_RSS_MB fails the run; libFuzzer
# keeps that input in artifacts/fuzz/NAME/ (crash-*, leak-*, timeout-*, oom-*), and
#   .build/fuzz/bin/NAME artifacts/fuzz/NAME/crash-...
# runs it again. Inputs found to add coverage are kept in .build/fuzz/corpus/NAME between
# runs; the seeds in Fuzz/corpus/NAME are only read.
#
# The pure modules are compiled from the sources as they are on disk (Sources/KeyboardCore,
# then Sources/AppModel if it exists), with the fuzzer's coverage instrumentation and ASan.
#
# Usage: scripts/fuzz.sh [NAME...]    (default: every target in Fuzz/targets)
# Environment: FUZZ_SECONDS (per target, default 60), FUZZ_TIMEOUT (seconds per input,
# default 10), FUZZ_RSS_MB (default 2048), FUZZ_BUILD_ONLY=1 (build, run nothing).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFTC=${SWIFTC:-swiftc}
seconds=${FUZZ_SECONDS:-60}
timeout=${FUZZ_TIMEOUT:-10}
rss=${FUZZ_RSS_MB:-2048}
build=.build/fuzz
artifacts=artifacts/fuzz
flags=(-O -g -swift-version 6 -parse-as-library -sanitize=fuzzer,address -I "$build/modules")
mkdir -p "$build/modules" "$build/lib" "$build/bin" "$build/logs"

# ld.gold warns about every ASan check symbol it cannot export: noise, filtered.
quiet() { "$@" 2>&1 | { grep -v "Cannot export local symbol '__asan_" || true; }; return "${PIPESTATUS[0]}"; }

# One pure module as a static library, rebuilt when its sources (or the flags) changed.
libraries=()
build_module() {
  local name=$1 dir=$2
  local sources
  mapfile -t sources < <(find "$dir" -name '*.swift' | LC_ALL=C sort)
  local stamp
  stamp=$({ printf '%s\n' "${flags[@]}" "${libraries[@]}"; cat "${sources[@]}"; } | sha256sum | cut -c1-16)
  if [[ ! -f $build/lib/$name.stamp || $(cat "$build/lib/$name.stamp") != "$stamp" || ! -f $build/lib/lib$name.a ]]; then
    echo "# fuzz: build $name (${#sources[@]} files)"
    quiet "$SWIFTC" "${flags[@]}" -module-name "$name" -emit-library -static -emit-module \
      -emit-module-path "$build/modules/$name.swiftmodule" -o "$build/lib/lib$name.a" "${sources[@]}"
    echo "$stamp" > "$build/lib/$name.stamp"
  fi
  # Static libraries link dependents first: each new module goes before those it uses.
  libraries=("$build/lib/lib$name.a" "${libraries[@]}")
}
build_module KeyboardCore Sources/KeyboardCore
[[ -d Sources/AppModel ]] && build_module AppModel Sources/AppModel

# Where a C module's map is (CSDL: Sources/CSDL, or wherever the tree keeps it).
c_module_flags() {
  local map
  map=$(find Sources -path "*/$1/module.modulemap" | head -n 1)
  [[ -n $map ]] || { echo "fuzz.sh: no module map for $1 under Sources" >&2; exit 1; }
  echo "-I $(dirname "$map")"
  case $1 in CSDL) for f in $(pkg-config --cflags sdl2); do echo "-Xcc $f"; done ;; esac
}

declare -A max_len needs
names=()
while read -r name length rest; do
  [[ -z $name || $name == \#* ]] && continue
  names+=("$name"); max_len[$name]=$length; needs[$name]=$rest
done < Fuzz/targets
selected=("$@")
[[ ${#selected[@]} -gt 0 ]] || selected=("${names[@]}")

for name in "${selected[@]}"; do
  [[ -n ${max_len[$name]:-} ]] || { echo "fuzz.sh: no target '$name' in Fuzz/targets (${names[*]})" >&2; exit 64; }
  extra=()
  for module in ${needs[$name]}; do read -r -a more <<< "$(c_module_flags "$module" | tr '\n' ' ')"; extra+=("${more[@]}"); done
  # A target is one file, or a folder of them.
  if [[ -d Fuzz/Targets/$name ]]; then code=(Fuzz/Targets/"$name"/*.swift); else code=("Fuzz/Targets/$name.swift"); fi
  echo "# fuzz: build $name"
  quiet "$SWIFTC" "${flags[@]}" "${extra[@]}" -module-name FuzzTarget Fuzz/Support/*.swift Tests/KeyboardCoreTests/SplitMix64.swift "${code[@]}" \
    "${libraries[@]}" -o "$build/bin/$name"
done
[[ -z ${FUZZ_BUILD_ONLY:-} ]] || exit 0

failed=()
summary=()
for name in "${selected[@]}"; do
  corpus=$build/corpus/$name
  mkdir -p "$corpus" "$artifacts/$name"
  seeds=()
  [[ -d Fuzz/corpus/$name ]] && seeds+=("Fuzz/corpus/$name")
  dict=()
  [[ -f Fuzz/dict/$name.dict ]] && dict+=("-dict=Fuzz/dict/$name.dict")
  echo "# fuzz: run $name for $seconds s"
  log=$build/logs/$name.log
  status=0
  # Swift's own crash backtracer would run inside ASan's report: libFuzzer's is enough.
  SWIFT_BACKTRACE=enable=no "$build/bin/$name" -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb="$rss" \
    -max_len="${max_len[$name]}" "${dict[@]}" -artifact_prefix="$artifacts/$name/" -print_final_stats=1 \
    -detect_leaks=1 "$corpus" "${seeds[@]}" > "$log" 2>&1 || status=$?
  grep -E "^#[0-9]+[[:space:]]+(INITED|DONE)|^stat::|ERROR|SUMMARY|fuzz invariant|Test unit written" "$log" || true
  # The last status line: "#RUNS DONE cov: EDGES ft: FEATURES corp: N/SIZE lim: L exec/s: R rss: MB".
  line=$(grep -E "^#[0-9]+[[:space:]]" "$log" | tail -n 1 || true)
  runs=$(sed -nE 's/^#([0-9]+)[[:space:]].*/\1/p' <<< "$line")
  cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<< "$line")
  ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<< "$line")
  rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+).*/\1/p' "$log")
  peak=$(sed -nE 's/^stat::peak_rss_mb: *([0-9]+).*/\1/p' "$log")
  found=$(find "$artifacts/$name" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | LC_ALL=C sort)
  if [[ $status -ne 0 || -n $found ]]; then
    failed+=("$name")
    result="FAIL (status $status) ${found//$'\n'/ }"
  else
    result=ok
  fi
  summary+=("$(printf '%-15s %12s %9s %7s %7s %8s  %s' "$name" "${runs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${peak:-?}" "$result")")
done

echo "# fuzz: $seconds s per target (log: $build/logs/NAME.log)"
printf '%-15s %12s %9s %7s %7s %8s  %s\n' target executions exec/s cov ft "rss MB" result
printf '%s\n' "${summary[@]}"
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "FAIL: fuzz: ${failed[*]}; inputs kept in $artifacts/ (run one again: $build/bin/NAME FILE)" >&2
  exit 1
fi
