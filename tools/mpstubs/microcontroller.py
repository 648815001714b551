"""microcontroller stand-in: pins, the nvm sector and the watchdog (MicroPython test runs).

The nvm starts erased, or holding the bytes written in hex in ``nvm.hex`` at
the drive's root when the run provides one (a board with a game saved).
"""

import binascii

from boards.sim.dev import FakeWatchdog
from boards.sim.nvm import SimNVM


class Pin:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board.%s" % self.name


def _saved():
    try:
        with open("nvm.hex") as image:
            return binascii.unhexlify(image.read().strip())
    except OSError:
        return None


nvm = SimNVM(_saved())  # 4 KB; see boards/sim/nvm.py for erases and power cuts
watchdog = FakeWatchdog()
