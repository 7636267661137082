# HeeKeyboard. `make test` is the command CI runs (.ci/run).
SWIFT ?= swift
PYTHON ?= python3
RELEASE_BIN := .build/release/HeeApp

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR := $(DESTDIR)$(PREFIX)/bin
DATADIR := $(DESTDIR)$(PREFIX)/share/hee-keyboard
LIBDIR := $(DESTDIR)$(PREFIX)/lib/hee-keyboard
APPSDIR := $(DESTDIR)$(PREFIX)/share/applications
ICONSDIR := $(DESTDIR)$(PREFIX)/share/icons/hicolor
MANDIR := $(DESTDIR)$(PREFIX)/share/man/man1
METAINFODIR := $(DESTDIR)$(PREFIX)/share/metainfo
## The version is defined once, in LaunchOptions.version (what --version prints).
VERSION := $(shell scripts/version.sh)
## The release date in the AppStream metainfo: SOURCE_DATE_EPOCH (set by dpkg-buildpackage
## from the changelog scripts/build-deb.sh writes), else the last commit's date.
RELEASE_DATE := $(shell d=$${SOURCE_DATE_EPOCH:-$$(git log -1 --format=%ct 2>/dev/null)}; date -u -d "@$${d:-$$(date +%s)}" +%F)
METAINFO := .build/data/hee-keyboard.metainfo.xml
ICON_SIZES := 48 128 256
ASSET_FILES := fonts/MPLUS1-Regular.otf fonts/MPLUS1-Bold.otf fonts/MPLUS1Code-Medium.otf fonts/HeeLaurel.ttf \
	fonts/MPLUS-LICENSE.txt fonts/HeeLaurel-LICENSE.txt sounds/hee.wav sounds/hee-LICENSE.txt \
	layouts/en.json layouts/de.json layouts/ja-kana.json emoji/emoji.tsv emoji/kaomoji.tsv emoji/UNICODE-LICENSE.txt

.PHONY: fuzz touch-test phosh-test sanitize bench bench-peers bench-deps all build release run test unit-test e2e-test wayland-test check-assets assets emoji-data screenshot clean install uninstall install-test

all: release

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

run: release
	$(RELEASE_BIN)

## Every test: core unit tests and render tests (swift test), then the end-to-end tests:
## the release binary in Xvfb driven by xdotool, replay files through the real event path,
## and native Wayland in sway's headless backend.
test: unit-test e2e-test install-test docs-test deb-test wayland-test touch-test phosh-test

unit-test:
	$(SWIFT) test

# The X11 tests run without WAYLAND_DISPLAY: inside a Wayland session the app would
# otherwise open its windows there (see docs/wayland-and-x11.md).
e2e-test: release
	env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_e2e.py
	env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_replay_tests.py
	env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_replay_file_tests.py
	env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_live_record_tests.py
	env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_text_tests.py
	env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_settings_tests.py
	env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_hostile_input_tests.py
	$(PYTHON) Tests/e2e/run_sanitizer_setup_tests.py
	env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_window_tests.py
	env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_system_tests.py
	env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_context_tests.py
	env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_desktop_keys_tests.py
	env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_layer_tests.py
	env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_kana_tests.py
	env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_emoji_tests.py
	env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_browser_tests.py
	env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_sound_server_tests.py

## Native Wayland: sway headless (as an unprivileged user), grim, weston (see the script);
## system mode on Wayland (layer shell, input method, virtual keyboard) into foot, a GTK
## entry and xterm through XWayland; the committed protocol glue is what wayland-scanner makes.
## Then the applications people type into (issue 28): gedit, a GtkEntry, Chromium and
## Firefox on Wayland, the seat's layout changed under the keyboard, squeekboard's keymap on
## the seat, a second keyboard (~1 min 40 s). Then auto-show (issue 30): a GTK window's entries
## and button shown and hidden, the exclusive zone released, no CPU while hidden, the hide key, foot (~11 s).
wayland-test: release
	scripts/wayland-protocols.sh --check
	HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_wayland_tests.py
	HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_wayland_system_tests.py
	HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_wayland_apps_tests.py
	HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_wayland_autoshow_tests.py

## Phosh (issue 31): phoc 0.24 and phosh headless (our seat library, Tests/phosh, built here
## against libwlroots-dev) as the user hee-phosh: sm.puri.OSK0 owned, a GTK entry's focus shows
## the keyboard (grim), SetVisible and Visible through gdbus, squeekboard holding the name (~8 s).
phosh-test: release
	HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_phosh_tests.py

## Real touch (issue 19): weston headless with kiosk-shell, Xwayland and our own weston module
## (Tests/touch, built here from source against libweston-10-dev) that gives its seat a touch
## screen; the app touched natively on Wayland and on X11 through Xwayland.
touch-test: release
	HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_touch_tests.py

## Sanitizers: AddressSanitizer (with leak checks) and ThreadSanitizer builds running the unit
## tests, every replay file and the live Xvfb test; any report fails (scripts/sanitize.sh).
sanitize:
	PYTHON=$(PYTHON) scripts/sanitize.sh

## Fuzzing (issue 24): every reader of outside data (JSON, settings.json, replay lines and
## files, the command line, the text field's buffer) under libFuzzer with AddressSanitizer,
## FUZZ_SECONDS each; a crash, broken invariant, leak, hang or memory blow-up fails the run and
## its input is kept in artifacts/fuzz/ (scripts/fuzz.sh, Fuzz/README.md).
FUZZ_SECONDS ?= 60
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh

## Regenerate the fonts and the clip from their sources (needs scripts/requirements.txt,
## fonts-mplus, sox, open-jtalk and the contrib voice package; see scripts/make_assets.sh).
assets:
	scripts/make_assets.sh

## The emoji keyboard's data (emoji/emoji.tsv) from Debian's unicode-data and unicode-cldr-core
## (docs/emoji.md); make docs-test checks the committed file is this output.
emoji-data:
	$(PYTHON) scripts/emoji-data.py -o emoji/emoji.tsv

## Check that the scripts reproduce the committed assets byte for byte.
check-assets:
	scripts/check_assets.sh

## The screenshots of the README and docs/, taken from the real windows under Xvfb (the layers, the
## alternates bubble and the trackpad: scripts/layer_screenshots.py; system mode: typing
## into a GTK window under openbox).
screenshot: release
	scripts/screenshot.sh docs/screenshot.png
	scripts/system-screenshot.sh docs/system-mode.png
	$(PYTHON) scripts/layer_screenshots.py docs

## Installs the release binary as hee-keyboard, its fonts, sounds, layouts and emoji data, a .desktop entry and
## the icon (rendered by our own renderer) under PREFIX (default /usr/local).
install: release metainfo
	install -d $(BINDIR) $(LIBDIR) $(DATADIR)/fonts $(DATADIR)/sounds $(DATADIR)/layouts $(DATADIR)/emoji $(APPSDIR)
	install -m 755 $(RELEASE_BIN) $(BINDIR)/hee-keyboard
	install -m 644 .build/release/libHeeVulkanStub.so $(LIBDIR)/libHeeVulkanStub.so
	for f in $(ASSET_FILES); do install -m 644 $$f $(DATADIR)/$$f; done
	install -m 644 data/hee-keyboard.desktop $(APPSDIR)/hee-keyboard.desktop
	install -m 644 data/sm.puri.HeeKeyboard.desktop $(APPSDIR)/sm.puri.HeeKeyboard.desktop
	install -d $(MANDIR) $(METAINFODIR)
	install -m 644 data/hee-keyboard.1 $(MANDIR)/hee-keyboard.1
	install -m 644 $(METAINFO) $(METAINFODIR)/hee-keyboard.metainfo.xml
	for n in $(ICON_SIZES); do \
		install -d $(ICONSDIR)/$${n}x$${n}/apps && \
		.build/release/HeeIcon $$n $(ICONSDIR)/$${n}x$${n}/apps/hee-keyboard.png . || exit 1; \
	done

## Removes exactly the files `make install` put there, and its own directories (share/hee-keyboard,
## lib/hee-keyboard) once empty; directories others share (bin, share/applications, ...) stay.
uninstall:
	rm -f $(BINDIR)/hee-keyboard $(APPSDIR)/hee-keyboard.desktop $(APPSDIR)/sm.puri.HeeKeyboard.desktop $(LIBDIR)/libHeeVulkanStub.so
	rm -f $(MANDIR)/hee-keyboard.1 $(METAINFODIR)/hee-keyboard.metainfo.xml
	for f in $(ASSET_FILES); do rm -f $(DATADIR)/$$f; done
	for n in $(ICON_SIZES); do rm -f $(ICONSDIR)/$${n}x$${n}/apps/hee-keyboard.png; done
	-rmdir $(DATADIR)/fonts $(DATADIR)/sounds $(DATADIR)/layouts $(DATADIR)/emoji $(DATADIR) $(LIBDIR) 2>/dev/null

## Installs into a temporary prefix and runs the installed binary from another directory.
install-test: release
	$(PYTHON) Tests/e2e/run_install_tests.py

## The AppStream metainfo with the version and release date filled in.
metainfo:
	@mkdir -p $(dir $(METAINFO))
	sed -e 's/@VERSION@/$(VERSION)/g' -e 's/@DATE@/$(RELEASE_DATE)/g' data/hee-keyboard.metainfo.xml.in > $(METAINFO)

## The Debian package hee-keyboard_<version>_<arch>.deb, here (debhelper; see scripts/build-deb.sh).
deb: release
	scripts/build-deb.sh

## The man page, the AppStream metainfo and the .desktop entry validated; every flag --help
## prints documented in the man page and the user guide's flag table (docs/user-guide.md).
docs-test: release metainfo
	HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_docs_tests.py

## Builds the .deb, checks it (lintian, contents, Depends), installs it with apt-get (as root),
## runs /usr/bin/hee-keyboard under Xvfb, then purges it.
deb-test: release
	HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_deb_tests.py

## Benchmarks (release build): prints a table and writes bench/results.json.
bench: release bench-deps
	env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET $(PYTHON) bench/run_bench.py
	HEE_APP=$(RELEASE_BIN) $(PYTHON) bench/wayland_system_latency.py

## python-xlib for the X measurements: Debian's python3-xlib (installed by install-deps.sh)
## or, for another Python, from PyPI.
bench-deps:
	@$(PYTHON) -c 'import Xlib' 2>/dev/null || $(PYTHON) -m pip install --quiet -r bench/requirements.txt \
		|| { echo "make bench: python-xlib is missing: apt-get install python3-xlib, or pip install -r bench/requirements.txt" >&2; exit 1; }

## HeeKeyboard beside Debian's xvkbd, matchbox-keyboard and onboard (X11) and wvkbd and squeekboard
## (Wayland), measured the same way.
bench-peers: release bench-deps
	sudo -n true 2>/dev/null && SUDO=sudo || SUDO=; \
	$$SUDO apt-get install -y -q xvkbd matchbox-keyboard onboard dbus-x11 wvkbd squeekboard >/dev/null
	$(PYTHON) bench/run_peers.py

clean:
	rm -rf .build artifacts hee-keyboard_*.deb
