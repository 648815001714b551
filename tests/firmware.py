"""Drive the firmware on the sim board by key presses, as a player would.

A thin layer over the simulator's harness (tools/simulator/session.py): the
same board and app, with a fixed settle after each key (no waiting for the
end of a celebration), and the names the tests read.
"""

from tools.simulator.session import Session

SETTLE_MS = 1000  # longer than any peg animation


class Table(Session):
    """A sim board with the firmware running on it."""

    def __init__(self, nvm=None, tracks=None, settings=None):
        super().__init__(tracks=tracks, nvm=nvm, settings=settings, settle_ms=SETTLE_MS,
                         until_still=False)

    @property
    def scores(self):
        return list(self.game.scores)

    def led(self, track, hole):
        return self.led_at(track, hole)
