#!/usr/bin/env bash
# Installs the Debian packages HeeKeyboard needs to build, run and test (Debian 12).
#   build:  SDL2, SDL2_ttf, SDL2_mixer, ALSA, cairo and fontconfig headers; PipeWire's headers (the
#           clip's own PipeWire stream; the library is loaded at run time); Wayland client and
#           xkbcommon headers (our wl_shm presenter, the keymap guard); X11, XTEST, XInput,
#           X11-xcb and xkbcommon-x11 headers (system mode, --system); libatspi2.0-dev (the focused
#           field's context on X11: its headers; libatspi is loaded at run time); Anthy's header
#           (libanthy-dev: the kana pad's converter, loaded at run time)
#   run:    a CJK fallback font for characters the bundled M+ font lacks (～ U+FF5E), colour emoji;
#           Anthy's library and dictionary (libanthy1, anthy-common) for kana-kanji conversion;
#           on Wayland, libdecor's cairo plugin (window decorations on weston, GNOME)
#   test:   make, Xvfb, xdotool, xclip, ImageMagick, desktop-file-validate and xmodmap
#           (x11-xserver-utils: keysyms on spare keycodes before xdotool types them) for the end-to-end tests;
#           openbox and x11-utils (xprop, xwininfo, xkill) for the window tests and for the
#           record/replay test (a real window manager, so minimizing really iconifies);
#           sway, grim, wtype, weston and foot for the Wayland tests; Xwayland and libweston-10-dev for
#           the touch tests (our weston module, Tests/touch, is built with gcc from build-essential); PulseAudio, PipeWire with WirePlumber and
#           pipewire-pulse, pulseaudio-utils (pactl, parec) and D-Bus for the sound-server tests and
#           make bench
#   system: xterm, GTK 3 and Tk for Debian's python3 (python3-gi, gir1.2-gtk-3.0, python3-tk),
#           setxkbmap/xkbcomp (x11-xkb-utils) and xmodmap (x11-xserver-utils) for the --system test;
#           chromium and firefox-esr for the browser test (run_browser_tests.py, its pointer
#           through python3-xlib) and the Wayland applications test (run_wayland_apps_tests.py),
#           which also reads gedit back through the accessibility bus (at-spi2-core,
#           gir1.2-atspi-2.0) and shows squeekboard (its keymap on the seat) with gdbus
#           (libglib2.0-bin); the accessibility bus and Qt 5 for python3 (python3-pyqt5) for
#           the context test (Tests/e2e/run_context_tests.py); libatspi2.0-dev: the header of
#           system mode's AT-SPI watch (the library is loaded at run time)
#   phosh:  phoc, phosh (with phosh-mobile-tweaks' setting and gnome-settings-daemon-common's
#           schemas), gnome-session (gnome-session-bin, -common) and libwlroots-dev for the Phosh
#           test (Tests/e2e/run_phosh_tests.py; Tests/phosh's seat library is built against
#           wlroots 0.15); libglib2.0-dev: the GDBus headers of the sm.puri.OSK0 service (libgio
#           is loaded at run time)
#   bench:  python3-xlib (make bench); xvkbd and matchbox-keyboard (make bench-peers)
#   data:   unicode-data and unicode-cldr-core: make emoji-data and the docs test's check of
#           emoji/emoji.tsv (scripts/emoji-data.py)
#   deb:    dpkg-dev, debhelper and build-essential (make deb: dpkg-buildpackage checks build-essential); lintian, appstream, man-db, strace, x11-utils and debootstrap
#           (xprop) for the package and documentation tests; the package's Recommends
#           (libdecor-0-plugin-1-cairo, the emoji font), so installing the .deb downloads nothing
#   toolchain: the Debian libraries the Swift toolchain (6.x, not a Debian package: see README)
#           loads and builds with — binutils (its gold linker), the C and C++ runtime headers,
#           libcurl4, libedit2, libxml2, libsqlite3-0, libncurses6 — so a machine that has only
#           the unpacked toolchain can build
# Usage: sudo scripts/install-deps.sh
set -euo pipefail
packages=(
  binutils libc6-dev libgcc-12-dev libstdc++-12-dev libcurl4 libedit2 libxml2 libsqlite3-0 libncurses6
  libsdl2-dev libsdl2-ttf-dev libsdl2-mixer-dev libasound2-dev libcairo2-dev libfontconfig-dev libpipewire-0.3-dev pkg-config
  libwayland-dev libwayland-bin wayland-protocols libxkbcommon-dev libanthy-dev libanthy1 anthy-common
  unicode-data unicode-cldr-core fonts-droid-fallback fonts-noto-color-emoji libdecor-0-plugin-1-cairo
  make xvfb xauth xdotool xclip imagemagick desktop-file-utils python3 x11-xserver-utils
  openbox x11-utils libx11-dev
  libx11-xcb-dev libxtst-dev libxi-dev libxkbcommon-x11-dev libatspi2.0-dev
  xterm python3-gi gir1.2-gtk-3.0 python3-tk x11-xkb-utils chromium firefox-esr python3-pyqt5
  pulseaudio pulseaudio-utils pipewire pipewire-pulse wireplumber dbus
  sway grim wtype weston foot xwayland libweston-10-dev
  gedit at-spi2-core gir1.2-atspi-2.0 squeekboard libglib2.0-bin
  phoc phosh phosh-mobile-tweaks gnome-session-bin gnome-session-common gnome-settings-daemon-common libwlroots-dev libglib2.0-dev
  python3-xlib
  dpkg-dev debhelper build-essential lintian appstream man-db strace x11-utils debootstrap libdecor-0-plugin-1-cairo
)
if [[ $(id -u) -ne 0 ]]; then
  echo "install-deps.sh: run as root (sudo scripts/install-deps.sh)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${packages[@]}"
