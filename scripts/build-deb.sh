#!/usr/bin/env bash
# Builds the Debian package hee-keyboard_<version>_<arch>.deb in the source tree's top
# directory (`make deb`), with debhelper and dpkg-buildpackage.
#
# dpkg-buildpackage runs on a copy of debian/ in .build/deb/hee-keyboard-<version>/, so its
# outputs (.deb, .buildinfo, .changes, the -dbgsym package) and debhelper's scratch files stay
# out of the source tree and nothing is written beside it; debian/rules gets the source tree as
# HEE_SOURCE and reuses its SwiftPM release build (`make release`, then `make install
# DESTDIR=…`). The version comes from scripts/version.sh (LaunchOptions.version); debian/changelog
# is written here from it, dated by the last commit, so SOURCE_DATE_EPOCH, the files' dates in
# the package and the AppStream release date all agree.
#
# Needs: dpkg-dev, debhelper, the build dependencies in debian/control (scripts/install-deps.sh)
# and the Swift toolchain on PATH. Runs as any user (Rules-Requires-Root: no).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

for tool in dpkg-buildpackage dh dpkg-architecture; do
  command -v "$tool" >/dev/null || { echo "build-deb.sh: $tool not found (apt-get install dpkg-dev debhelper)" >&2; exit 2; }
done
command -v "${SWIFT:-swift}" >/dev/null || { echo "build-deb.sh: swift not found on PATH (README, \"Set-up\")" >&2; exit 2; }

version=$(scripts/version.sh)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
deb="hee-keyboard_${version}_${arch}.deb"
work=.build/deb
tree="$work/hee-keyboard-$version"

if git -C "$top" rev-parse --verify -q HEAD >/dev/null 2>&1; then
  epoch=$(git -C "$top" log -1 --format=%ct)
  commit=" from commit $(git -C "$top" rev-parse --short=12 HEAD)"
else
  epoch=$(stat -c %Y Sources/AppModel/CommandLine/LaunchOptions.swift)
  commit=""
fi

rm -rf "$work"
mkdir -p "$tree"
cp -R debian "$tree/debian"
maintainer=$(sed -n 's/^Maintainer: //p' debian/control)
cat > "$tree/debian/changelog" <<CHANGELOG
hee-keyboard ($version) unstable; urgency=medium

  * HeeKeyboard $version, built$commit.
    See hee-keyboard(1).

 -- $maintainer  $(LC_ALL=C date -u -R -d "@$epoch")
CHANGELOG

started=$(date +%s)
(cd "$tree" && HEE_SOURCE="$top" dpkg-buildpackage --build=binary --no-sign) > "$work/build.log" 2>&1 || {
  echo "build-deb.sh: dpkg-buildpackage failed; the last lines of $work/build.log:" >&2
  tail -n 40 "$work/build.log" >&2
  exit 1
}
cp "$work/$deb" "$top/$deb"
echo "built $deb ($(stat -c %s "$deb") bytes) in $(( $(date +%s) - started )) s; log: $work/build.log"
