"""Drive the firmware on the sim board by key presses, as a player would."""

import os

os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from boards.sim import board as sim  # noqa: E402
from cribbage.app import App  # noqa: E402

SETTLE_MS = 1000  # longer than any peg animation


class Table:
    """A sim board with the firmware running on it."""

    def __init__(self, nvm=None, tracks=None, settings=None):
        self.board = sim.build(tracks=tracks, nvm=nvm, settings=settings)
        self.app = App(self.board)

    def keys(self, text):
        for ch in text.replace(" ", ""):
            self.board.press(ch)
            self.app.step()
            self.board.clock.advance(SETTLE_MS)
            self.app.step()
        return self

    @property
    def game(self):
        return self.app.table.game

    @property
    def scores(self):
        return list(self.game.scores)

    @property
    def message(self):
        return self.app.table.message

    def oled(self):
        return self.app.oled_lines()

    def reboot(self):
        """Power off and on: a new app on the same flash."""
        return Table(nvm=bytes(self.board.nvm[0:len(self.board.nvm)]), tracks=len(self.board.tracks))

    def led(self, track, hole):
        return self.board.strip_pixels(track)[hole - 1]
