#!/usr/bin/env bash
# Regenerate all generated assets into a temporary directory and compare
# them (sha256) with the committed files. Prints OK / different / missing
# per file; exits 1 if any file differs or is missing.
#
# Usage: scripts/check_assets.sh
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
FILES=(
  fonts/HeeLaurel.ttf
  fonts/MPLUS1-Regular.otf
  fonts/MPLUS1-Bold.otf
  fonts/MPLUS1Code-Medium.otf
  fonts/MPLUS-LICENSE.txt
  sounds/hee.wav
  sounds/hee-LICENSE.txt
)

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

if ! "$here/make_assets.sh" "$tmp" > "$tmp/make.log" 2>&1; then
  cat "$tmp/make.log" >&2
  echo "check_assets.sh: make_assets.sh failed" >&2
  exit 1
fi

status=0
for f in "${FILES[@]}"; do
  if [[ ! -e "$repo/$f" ]]; then
    echo "missing    $f (not in the work tree)"; status=1; continue
  fi
  if [[ ! -e "$tmp/$f" ]]; then
    echo "missing    $f (not regenerated)"; status=1; continue
  fi
  a="$(sha256sum < "$repo/$f" | cut -d' ' -f1)"
  b="$(sha256sum < "$tmp/$f" | cut -d' ' -f1)"
  if [[ "$a" == "$b" ]]; then
    echo "OK         $f  $a"
  else
    echo "different  $f  committed $a  regenerated $b"; status=1
  fi
done
exit "$status"
