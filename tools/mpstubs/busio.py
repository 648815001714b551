"""busio stand-in: I2C is the simulator's fake bus with an SSD1306 at 0x3C (MicroPython test runs).

``buses`` lists every bus made; ``buses[-1].devices[0x3C]`` is the panel, whose
``ram`` and ``pixels()`` are what the real driver has drawn.
"""

from boards.sim.oled import FakeI2C, FakeSSD1306

OLED_ADDRESS = 0x3C
buses = []


class I2C(FakeI2C):
    def __init__(self, scl, sda, *, frequency=100_000, timeout=255):
        super().__init__(scl, sda, frequency=frequency, timeout=timeout,
                         devices={OLED_ADDRESS: FakeSSD1306()}, log_length=0)
        buses.append(self)
