# HeeKeyboard. `make test` is the command CI runs (.ci/run).
SWIFT ?= swift
PYTHON ?= python3
RELEASE_BIN := .build/release/HeeApp

.PHONY: all build release run test unit-test e2e-test check-assets assets screenshot clean

all: release

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

run: release
	$(RELEASE_BIN)

## Every test: core unit tests and render tests (swift test), then the end-to-end tests:
## the release binary in Xvfb driven by xdotool, and replay files through the real event path.
test: unit-test e2e-test

unit-test:
	$(SWIFT) test

e2e-test: release
	HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_e2e.py
	HEE_APP=$(RELEASE_BIN) $(PYTHON) Tests/e2e/run_replay_tests.py

## Regenerate the fonts and the clip from their sources (needs scripts/requirements.txt,
## fonts-mplus, sox, open-jtalk and the contrib voice package; see scripts/make_assets.sh).
assets:
	scripts/make_assets.sh

## Check that the scripts reproduce the committed assets byte for byte.
check-assets:
	scripts/check_assets.sh

## The README's screenshot, taken from the real window under Xvfb.
screenshot: release
	scripts/screenshot.sh docs/screenshot.png

clean:
	rm -rf .build artifacts
