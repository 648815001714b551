"""Drive the firmware on the sim board by key presses, as a player would.

A thin layer over the simulator's harness (tools/simulator/session.py): the
same board and app, with a fixed settle after each key (no waiting for the
end of a celebration), and the names the tests read.
"""

from tools.simulator.session import Session

SETTLE_MS = 1000  # longer than any peg animation
PASS_MS = 20  # between two passes of the loop with nothing pressed


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

    def idle(self, passes=1):
        """Passes of the loop with no key, PASS_MS apart on the board's clock (where
        the app makes answers ahead and collects)."""
        for _ in range(passes):
            self.board.clock.advance(PASS_MS)
            self.app.step()
