"""tools.simulator.session: the sim board with the firmware's app on it, driven by keys.

One harness for the simulator and the tests (tests/firmware.py is a thin layer
over it): it builds ``boards.sim.board`` (the firmware's strip writer and SSD1306
driver over pin- and bus-level fakes), runs ``cribbage.app.App`` on it and presses
keys as the keypad would, letting the simulated clock run after each one.
"""

import os

os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

import boards
from boards.sim import board as sim
from cribbage.app import App
from boards import KEY_LEGEND as LEGEND
from cribbage.names import side_name
from cribbage.pegs import peg_hole

SETTLE_MS = 2000      # after each key: long enough for a peg's jump
SETTLE_STEP_MS = 250  # then on in steps while an animation is still running
SETTLE_MAX_MS = 10000
ROW = boards.config_for(boards.DEFAULT_BOARD).ROW_LENGTH  # holes per row, as on the wood


class UsageError(Exception):
    """A bad key, option or state file: one line on stderr, exit code 2."""


NO_KEY = "no key %s: the keys are %s"  # a typed character no key stands for


def no_key(char):
    """What the terminal and the web page say of a typed character that is no key."""
    return NO_KEY % (repr(char), LEGEND)


def keypad_key(char):
    """The keypad key a typed character stands for (a-d as A-D), or None."""
    if char in "abcd":
        char = char.upper()
    return char if len(char) == 1 and char in LEGEND else None


def parse_keys(text):
    """The keys of a --keys string, spaces dropped; UsageError naming bad ones."""
    keys = []
    bad = []
    for char in text:
        if char.isspace():
            continue
        key = keypad_key(char)
        if key is None:
            bad.append(char)
        else:
            keys.append(key)
    if bad:
        raise UsageError("no key %s on the keypad; the keys are %s (a-d also work)"
                         % (", ".join(repr(c) for c in bad), LEGEND))
    return "".join(keys)


class Session:
    """The sim board and the firmware app running on it.

    After each key of ``keys()`` the clock runs ``settle_ms``; with
    ``until_still`` it then runs on while an animation lasts (up to
    ``SETTLE_MAX_MS``), so a script sees the board at rest. ``tracks`` None:
    as ``settings`` (settings.toml's text or a dict) say, 2 by default.
    """

    def __init__(self, tracks=None, nvm=None, settings=None, settle_ms=SETTLE_MS,
                 until_still=True):
        self.board = sim.build(tracks=tracks, nvm=nvm, settings=settings)
        self.app = App(self.board)
        self.settle_ms = settle_ms
        self.until_still = until_still

    # ---- the game, as the app holds it
    @property
    def game(self):
        return self.app.game

    @property
    def mode(self):
        return self.app.mode

    @property
    def message(self):
        return self.app.message

    @property
    def tracks(self):
        return len(self.board.tracks)

    @property
    def holes_per_track(self):
        return len(self.board.hole_map)

    # ---- keys and time
    def press(self, key):
        """One key press (and release), as the board's loop takes it."""
        self.board.press(key)
        self.app.step()

    def settle(self):
        """Let time pass after a key, until the animations are over if asked."""
        clock = self.board.clock
        clock.advance(self.settle_ms)
        self.app.step()
        if not self.until_still:
            return
        waited = self.settle_ms
        while self.app.busy() and waited < SETTLE_MAX_MS:
            clock.advance(SETTLE_STEP_MS)
            waited += SETTLE_STEP_MS
            self.app.step()

    def keys(self, text):
        """Press each key of ``text`` (spaces ignored), letting time pass after each."""
        for key in text:
            if key != " ":
                self.press(key)
                self.settle()
        return self

    def nvm_image(self):
        """The board's flash sector as bytes, as a power cut now would leave it."""
        nvm = self.board.nvm
        return bytes(nvm[0:len(nvm)])

    def reboot(self):
        """Power off and on: a new app on the same flash, the same number of tracks."""
        return type(self)(nvm=self.nvm_image(), tracks=self.tracks)

    # ---- what the board shows
    def oled(self):
        """The OLED's text rows as the app drew them (the font's suit glyphs kept)."""
        return self.app.oled_lines()

    def led_at(self, track, hole):
        """The (r, g, b) the strip of ``track`` last received for the LED under ``hole``."""
        return self.board.strip_pixels(track)[self.board.hole_map[hole - 1]]

    def colours(self, track):
        """{hole: (r, g, b)} of every hole of a track (unlit ones (0, 0, 0))."""
        pixels = self.board.strip_pixels(track)
        hole_map = self.board.hole_map
        if not pixels:  # nothing sent on this strip yet
            return {hole: (0, 0, 0) for hole in range(1, len(hole_map) + 1)}
        return {hole: tuple(pixels[hole_map[hole - 1]]) for hole in range(1, len(hole_map) + 1)}

    def holes(self, track):
        """[(hole, (r, g, b))] of the lit holes of a track, in hole order."""
        return [(hole, rgb) for hole, rgb in sorted(self.colours(track).items())
                if rgb != (0, 0, 0)]

    def peak(self):
        """The highest channel value any strip received (at least 1)."""
        best = 1
        for track in range(self.tracks):
            for rgb in self.board.strip_pixels(track):
                best = max(best, max(rgb))
        return best

    def pegs(self):
        """[front, back] hole of each side (0 = the start, off the strip)."""
        game = self.game
        target = game.config.target
        return [[peg_hole(game.scores[s], target), peg_hole(game.backs[s], target)]
                for s in range(game.sides)]

    def trackless(self):
        """The sides of the game that have no track on this board (letters)."""
        game = self.game
        return [side_name(s) for s in range(self.tracks, game.sides)]

    def warnings(self):
        """What the board cannot show of this game, one line each."""
        missing = self.trackless()
        if not missing:
            return []
        return ["a %d-player game on a %d-track board: %s %s no track, so %s pegs "
                "show nowhere (--tracks %d shows them)"
                % (self.game.players, self.tracks, " and ".join(missing),
                   "has" if len(missing) == 1 else "have",
                   "its" if len(missing) == 1 else "their", self.game.sides)]
