"""tests.web_page: driving the board's web page in Chromium as a player would (``Page``),
and what it is checked against: tools/sim.py run on the same keys, and each hole's
painted colour."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from tools import web
from tools.simulator.marks import display_colour

REPO = web.REPO
TOOL = os.path.join(REPO, "tools", "sim.py")
CHROMIUM = os.environ.get("CRIBBAGE_CHROMIUM") or shutil.which("chromium") \
    or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
SCROLL_SAFE_MS = 1600  # the simulator reads the board 2 s after a key: the breakdown
# has moved on once (it moves every 1.5 s), so the page is read between 1.5 and 3 s
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
    """The board's page, read back as a player sees it."""

    def __init__(self, context, url):
        self.page = context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda err: self.errors.append(str(err)))
        self.page.on("console", lambda msg: msg.type == "error" and self.errors.append(msg.text))
        self.url = url
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
        """Wait until the board reads as the simulator's does after its settle."""
        self.page.wait_for_function("cribbageBoard.sinceKey() >= %d && !cribbageBoard.busy()"
                                    % SCROLL_SAFE_MS, timeout=15000)

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
