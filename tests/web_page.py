"""tests.web_page: driving the board's web page in Chromium as a player would (``Page``),
and what it is checked against: tools/sim.py run on the same keys, and each hole's
painted colour."""

import json
import os
import shutil
import subprocess
import sys
from collections import Counter

import pytest

from tools import web
from tools.simulator.marks import BACK, FRONT, RINGS, display_colour
from tools.simulator.session import SETTLE_MAX_MS, SETTLE_MS, SETTLE_STEP_MS

REPO = web.REPO
TOOL = os.path.join(REPO, "tools", "sim.py")
CHROMIUM = os.environ.get("CRIBBAGE_CHROMIUM") or shutil.which("chromium") \
    or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
DESKTOP = {"width": 1000, "height": 900}
PHONE = {"width": 360, "height": 740}


def unavailable(reason):
    """Skip a test that needs the browser, or fail it when CRIBBAGE_REQUIRE_BROWSER is set."""
    if os.environ.get("CRIBBAGE_REQUIRE_BROWSER"):
        pytest.fail(reason + " (CRIBBAGE_REQUIRE_BROWSER is set)")
    pytest.skip(reason)


def simulate(keys, *args):
    """tools/sim.py --keys KEYS --json, as a player at a terminal would run it."""
    result = subprocess.run([sys.executable, TOOL, "--keys", keys, "--json"] + list(args),
                            cwd=REPO, capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, BLINKA_OS_AGNOSTIC="1"))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


class Page:
    """The board's page, read back as a player sees it.

    ``held``: the page's ?held-clock, so the board's clock moves only when a test
    moves it, never with the machine's speed: ``settle`` lets time pass after a
    key exactly as the simulator does, so both are read at the same moment (a
    show's breakdown scrolls on a timer). Without it the clock is the real one."""

    def __init__(self, context, url, held=True):
        self.page = context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda err: self.errors.append(str(err)))
        self.page.on("console", lambda msg: msg.type == "error" and self.errors.append(msg.text))
        self.url = url + ("?held-clock" if held else "")
        self.open()

    def open(self, reload=False):
        if reload:
            self.page.reload()
        else:
            self.page.goto(self.url)
        self.page.wait_for_function("window.cribbageBoard && cribbageBoard.ready()",
                                    timeout=30000)

    def click(self, keys):
        for key in keys:
            if key != " ":
                self.page.click('#keypad button[data-key="%s"]' % key)

    def settle(self):
        """Let the board's clock run after a key as tools/simulator/session.Session's
        settle does: SETTLE_MS, then on in steps while an animation lasts."""
        self.page.evaluate("""([first, step, most]) => {
            let waited = first;
            let busy = cribbageBoard.advance(first);
            while (busy && waited < most) {
                busy = cribbageBoard.advance(step);
                waited += step;
            }
        }""", [SETTLE_MS, SETTLE_STEP_MS, SETTLE_MAX_MS])

    def keys(self, keys):
        """Click each key, the clock settling after each: as tools/sim.py --keys does."""
        for key in keys:
            if key != " ":
                self.click(key)
                self.settle()

    def oled(self):
        return self.page.evaluate("cribbageBoard.oledText()")

    def holes(self):
        return self.page.evaluate("cribbageBoard.litHoles()")

    def state(self):
        return {"oled": self.oled(), "leds": self.holes()}

    def flash(self):
        return bytes.fromhex(self.page.evaluate("cribbageBoard.flashHex()"))

    def stored_flash(self):
        return self.page.evaluate("localStorage.getItem('cribbage-board/nvm')")


def board_of(sim):
    return {"oled": sim["oled"], "leds": sim["leds"]}


def assert_tracks_painted(page):
    """Each hole is painted, at its centre, in its LED's colour made visible as the
    simulator's picture makes it (tools/simulator/marks.display_colour)."""
    holes = page.holes()
    peak = max([1] + [max(rgb) for track in holes for _, rgb in track])
    painted = page.page.evaluate("""() => {
        const c = document.getElementById('tracks');
        const ctx = c.getContext('2d');
        const ratio = window.devicePixelRatio, out = [];
        for (let t = 0; t < cribbageBoard.litHoles().length; t++) {
            const row = [];
            for (let hole = 1; hole <= 121; hole++) {
                const [x, y] = cribbageBoard.holeCentre(t, hole);
                const px = ctx.getImageData(Math.round(x * ratio), Math.round(y * ratio),
                                            1, 1).data;
                row.push([px[0], px[1], px[2]]);
            }
            out.push(row);
        }
        return out;
    }""")
    assert len(painted) == len(holes)
    for track, lit in enumerate(holes):
        colours = dict((hole, tuple(rgb)) for hole, rgb in lit)
        for hole in range(1, 122):
            want = display_colour(colours.get(hole, (0, 0, 0)), peak)
            got = tuple(painted[track][hole - 1])
            assert all(abs(a - b) <= 1 for a, b in zip(got, want)), (track, hole, got, want)


def ring_pixels(page, track, hole, samples=24):
    """The canvas's pixels on the circle where a peg's ring goes round ``hole``."""
    return [tuple(px) for px in page.page.evaluate("""([track, hole, n]) => {
        const c = document.getElementById('tracks');
        const ctx = c.getContext('2d');
        const ratio = window.devicePixelRatio;
        const [x, y] = cribbageBoard.holeCentre(track, hole);
        const r = cribbageBoard.ringRadius();
        const out = [];
        for (let i = 0; i < n; i++) {
            const a = 2 * Math.PI * i / n;
            const d = ctx.getImageData(Math.round((x + r * Math.cos(a)) * ratio),
                                       Math.round((y + r * Math.sin(a)) * ratio), 1, 1).data;
            out.push([d[0], d[1], d[2]]);
        }
        return out;
    }""", [track, hole, samples])]


def assert_pegs_ringed(page, pegs):
    """A ring round each peg as the --png pictures draw them (marks.RINGS: white
    round the front peg, grey round the back one), where ``pegs`` ([front, back] per
    track, as tools/sim.py --json gives them) says; none round any other hole."""
    want = [[track, both[i], part] for part, i in (("back", 1), ("front", 0))
            for track, both in enumerate(pegs) if both[i]]
    assert page.page.evaluate("cribbageBoard.rings()") == want
    ringed = {(track, hole): part for track, hole, part in want}
    for track in range(len(pegs)):
        for hole in range(1, 122):
            seen = ring_pixels(page, track, hole)
            bright = [px for px in seen if min(px) >= 120]  # no hole or wood is this light
            part = ringed.get((track, hole))
            if part is None:  # a ringed neighbour's ring touches this circle on its side
                nearby = {(track, hole - 1), (track, hole + 1),
                          (track - 1, hole), (track + 1, hole)}
                most = min(6 * len(nearby & set(ringed)), len(seen) // 2)
                assert len(bright) <= most, (track, hole, seen)
                continue
            assert len(bright) >= len(seen) * 3 // 4, (track, hole, part, seen)
            ring = RINGS[FRONT if part == "front" else BACK][0]
            # the ring's own colour is the commonest (a neighbour's may cross it)
            assert Counter(bright).most_common(1)[0][0] == tuple(ring), (track, hole, part, seen)
