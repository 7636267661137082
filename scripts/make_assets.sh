#!/usr/bin/env bash
# Regenerate every generated asset of HeeKeyboard:
#   fonts/HeeLaurel.ttf                         scripts/make_laurel_font.py
#   fonts/MPLUS1-Regular.otf, MPLUS1-Bold.otf,
#   fonts/MPLUS1Code-Medium.otf, MPLUS-LICENSE.txt   scripts/subset_fonts.py
#   sounds/hee.wav, sounds/hee-LICENSE.txt      scripts/make_sound.sh
# (fonts/HeeLaurel-LICENSE.txt is a plain committed file.)
#
# Usage: scripts/make_assets.sh [OUTPUT_ROOT]
#   Files go to OUTPUT_ROOT/fonts and OUTPUT_ROOT/sounds; the default
#   OUTPUT_ROOT is the repository, i.e. the committed files are rewritten.
#   Running it again gives identical files.
#
# Needs (Debian bookworm): python3, fonts-mplus, open-jtalk,
# open-jtalk-mecab-naist-jdic, hts-voice-nitech-jp-atr503-m001 (in the
# "contrib" component), sox; from PyPI: scripts/requirements.txt (fonttools).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="${1:-$here/..}"

missing() { echo "make_assets.sh: missing $1 -- install with: $2" >&2; exit 1; }
have_cmd() { command -v "$1" >/dev/null 2>&1; }

have_cmd python3 || missing python3 "apt-get install python3"
python3 -c 'import fontTools' 2>/dev/null \
  || missing "Python module fontTools" "pip install -r scripts/requirements.txt"
for f in Mplus1-Regular.otf Mplus1-Bold.otf Mplus1Code-Medium.otf; do
  [[ -e /usr/share/fonts/opentype/mplus/$f ]] || missing "$f" "apt-get install fonts-mplus"
done
[[ -e /usr/share/doc/fonts-mplus/copyright ]] || missing "fonts-mplus copyright file" "apt-get install fonts-mplus"
have_cmd open_jtalk || missing open_jtalk "apt-get install open-jtalk"
[[ -d /var/lib/mecab/dic/open-jtalk/naist-jdic ]] \
  || missing "Open JTalk dictionary" "apt-get install open-jtalk-mecab-naist-jdic"
[[ -e /usr/share/hts-voice/nitech-jp-atr503-m001/nitech_jp_atr503_m001.htsvoice ]] \
  || missing "HTS voice nitech-jp-atr503-m001" "apt-get install hts-voice-nitech-jp-atr503-m001 (Debian contrib component)"
have_cmd sox || missing sox "apt-get install sox"
have_cmd dpkg-query || missing dpkg-query "apt-get install dpkg"

pinned="$(sed -n 's/^fonttools==//p' "$here/requirements.txt")"
installed="$(python3 -c 'import fontTools; print(fontTools.version)')"
if [[ "$pinned" != "$installed" ]]; then
  echo "make_assets.sh: warning: fontTools $installed installed, $pinned pinned; font bytes may differ" >&2
fi

mkdir -p "$root/fonts" "$root/sounds"
python3 "$here/make_laurel_font.py" "$root/fonts"
python3 "$here/subset_fonts.py" "$root/fonts"
"$here/make_sound.sh" "$root/sounds"
