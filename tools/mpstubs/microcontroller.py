"""microcontroller stand-in: pins, the nvm sector and the watchdog (MicroPython test runs)."""

from boards.sim.dev import FakeWatchdog
from boards.sim.nvm import SimNVM


class Pin:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board.%s" % self.name


nvm = SimNVM()  # 4 KB, erased; see boards/simnvm.py for erases and power cuts
watchdog = FakeWatchdog()
