#!/bin/sh
# Prints HeeKeyboard's version. It is defined in one place, `LaunchOptions.version` in
# Sources/AppModel/CommandLine/LaunchOptions.swift (what `--version` prints); the Makefile, the Debian
# package (scripts/build-deb.sh) and the AppStream metainfo take it from there through this script.
set -eu
source="$(dirname "$0")/../Sources/AppModel/CommandLine/LaunchOptions.swift"
version=$(sed -n 's/^ *public static let version = "\([^"]*\)".*$/\1/p' "$source")
case "$version" in
  [0-9]*.[0-9]*) printf '%s\n' "$version" ;;
  *) echo "version.sh: no 'public static let version = \"X.Y.Z\"' in $source" >&2; exit 1 ;;
esac
