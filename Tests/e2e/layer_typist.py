"""Typing with issue 20's gestures through the real app, driven by xdotool: taps, a slide from
a layer key onto a character (touch 123, slide to ',', release), a long press that opens the
alternates bubble and a release on one of its choices, and the space bar's trackpad.

`Typist` follows the app's trace: it knows the layer shown from the last `layout` line (its
keys are the keys of that layer), and every gesture waits for the trace lines that prove the
app handled it (a key released, a layer shown, the bubble opened, the trackpad on) before the
next: no fixed sleeps. `PLAN` types MESSAGE from the letters layer with shift off.
"""

from e2e_support import fail, is_event

# Issue 20's sentence: digits, punctuation from both layers, a dash, é, € and ¿ from bubbles.
MESSAGE = "Hi, it's 3:45 — café? [ok] #1 €5 ¿"

# (gesture, arguments): "tap" key; "slide" layer key → key (the layer comes back); "hold" key →
# choice from its bubble. OPENING types "Hi, it's 3:45 — café? " from the letters layer with
# shift off and ends on the letters layer (issue 28's sentence begins the same way).
OPENING = [
    ("tap", "shift"), ("tap", "h"), ("tap", "i"), ("slide", "123", ","), ("tap", "space"),
    ("tap", "i"), ("tap", "t"), ("slide", "123", "'"), ("tap", "s"), ("tap", "space"),
    ("tap", "123"), ("tap", "3"), ("tap", ":"), ("tap", "4"), ("tap", "5"), ("tap", "space"),
    ("hold", "-", "—"), ("tap", "space"),
    ("tap", "ABC"), ("tap", "c"), ("tap", "a"), ("tap", "f"), ("hold", "e", "é"), ("slide", "123", "?"),
    ("tap", "space"),
]
PLAN = OPENING + [
    ("tap", "123"), ("tap", "#+="), ("tap", "["), ("tap", "ABC"), ("tap", "o"), ("tap", "k"),
    ("tap", "123"), ("tap", "#+="), ("tap", "]"), ("tap", "space"), ("tap", "#"),
    ("tap", "123"), ("tap", "1"), ("tap", "space"),
    ("hold", "$", "€"), ("tap", "5"), ("tap", "space"), ("hold", "?", "¿"),
]

LAYER_KEYS = ("123", "#+=", "ABC")


class Typist:
    """Gestures on the keyboard in window `window` (xdotool id) of the app whose trace is
    `trace` (a TraceReader subclass with `mark`, `wait_for`, `events`). `xdo(*args)` runs
    xdotool. Window coordinates are the trace's (the app runs at scale 1)."""

    def __init__(self, xdo, window, trace):
        self.xdo = xdo
        self.window = str(window)
        self.trace = trace
        self.layout = self._last_layout(0)
        if self.layout is None:
            fail("no layout line in the trace before typing")
        self.layers = []
        self.bubbles = []

    def _last_layout(self, since):
        self.trace.drain()
        layouts = [e for e in self.trace.events[since:] if e["event"] == "layout"]
        return layouts[-1] if layouts else None

    def _follow(self, since):
        """Takes the layout (and the layer) the trace reported after index `since`, if any."""
        layout = self._last_layout(since)
        if layout is not None:
            self.layout = layout
        self.layers += [e["name"] for e in self.trace.events[since:] if e["event"] == "layer"]

    def center(self, key):
        rect = self.layout["keys"].get(key)
        if rect is None:
            fail(f"the layer shown has no key {key!r} (keys: {sorted(self.layout['keys'])})")
        return round(rect["x"] + rect["w"] / 2), round(rect["y"] + rect["h"] / 2)

    def move(self, x, y, *then):
        self.xdo("mousemove", "--window", self.window, str(round(x)), str(round(y)), *then)

    def tap(self, key):
        since = self.trace.mark()
        self.move(*self.center(key), "click", "1")
        self.trace.wait_for(is_event("touch", key=key, down=False), f"{key} released", since=since)
        if key in LAYER_KEYS:
            self.trace.wait_for(is_event("layer"), f"{key} to show its layer", since=since)
        self._follow(since)

    def slide(self, layer_key, key):
        """Touches `layer_key`, slides onto `key` of the layer it shows, releases there: `key`
        types and the layer before comes back."""
        since = self.trace.mark()
        self.move(*self.center(layer_key), "mousedown", "1")
        shown = self.trace.wait_for(is_event("layer"), f"{layer_key} to show its layer on touch", since=since)
        self.trace.wait_for(is_event("layout"), "the new layer's layout", since=since)
        self._follow(since)
        middle = self.trace.mark()
        self.move(*self.center(key))
        self.trace.wait_for(is_event("touch", key=key, down=True), f"the slide to reach {key}", since=middle)
        self.xdo("mouseup", "1")
        self.trace.wait_for(is_event("touch", key=key, down=False), f"{key} released", since=middle)
        back = self.trace.wait_for(is_event("layer"), "the layer to come back after the slide", since=middle)
        if back["name"] == shown["name"]:
            fail(f"after the slide to {key} the layer is still {back['name']}")
        self._follow(middle)

    def hold(self, key, choice):
        """Holds `key` until its bubble opens (the trace's `alternates` line), slides onto
        `choice` and releases there."""
        since = self.trace.mark()
        self.move(*self.center(key), "mousedown", "1")
        bubble = self.trace.wait_for(is_event("alternates", key=key), f"{key}'s bubble", since=since)
        self.bubbles.append(bubble)
        cells = [c for c in bubble["choices"] if c["text"] == choice]
        if not cells:
            self.xdo("mouseup", "1")
            fail(f"{key}'s bubble offers {[c['text'] for c in bubble['choices']]}, not {choice!r}")
        cell = cells[0]
        self.move(cell["x"] + cell["w"] / 2, cell["y"] + cell["h"] / 2, "mouseup", "1")
        self.trace.wait_for(is_event("touch", key=key, down=False), f"{key} released on {choice}", since=since)

    def trackpad(self, steps, arrived):
        """Holds the space bar until the trace says it is the trackpad, drags `steps`
        characters (negative: left) and back, each leg waiting until `arrived(since, steps)`
        (the text's caret, or the keys sent), then lifts: nothing typed."""
        since = self.trace.mark()
        x, y = self.center("space")
        self.move(x, y, "mousedown", "1")
        self.trace.wait_for(is_event("trackpad", active=True), "the space bar to become the trackpad", since=since)
        # Half a step past the whole steps, so rounding toward zero gives exactly `steps`.
        leg = self.trace.mark()
        self.move(x + steps * 10 + (5 if steps > 0 else -5), y)
        arrived(leg, steps)
        back = self.trace.mark()
        self.move(x + (5 if steps < 0 else -5), y)
        arrived(back, -steps)
        self.xdo("mouseup", "1")
        self.trace.wait_for(is_event("trackpad", active=False), "the trackpad to end on release", since=since)
        self.trace.wait_for(is_event("touch", key="space", down=False), "the space bar released", since=since)

    def type_plan(self, plan=PLAN):
        """Types `plan`, from the letters layer (shown first if another is)."""
        if "ABC" in self.layout["keys"]:
            self.tap("ABC")
        for gesture, *args in plan:
            getattr(self, gesture)(*args)
