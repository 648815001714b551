"""keypad stand-in: a KeyMatrix whose keys the test presses (MicroPython test runs).

``press("12B")`` presses and releases those keys on the last KeyMatrix made.
"""

import supervisor
from boards import KEY_LEGEND  # bound once: a press imports nothing, as the board's keys
from boards.sim.dev import Event, FakeKeyMatrix, press_keys  # noqa: F401  (keypad.Event, as on the board)

matrices = []


class KeyMatrix(FakeKeyMatrix):
    def __init__(self, row_pins, column_pins, columns_to_anodes=True, interval=0.02,
                 max_events=64):
        super().__init__(row_pins, column_pins, columns_to_anodes, interval, max_events,
                         supervisor.clock)
        matrices.append(self)


def press(chars):
    press_keys(matrices[-1], chars, KEY_LEGEND)
