"""cpshims: make MicroPython look like CircuitPython where the drivers can tell.

MicroPython has a built-in ``framebuf``; CircuitPython does not, so there
adafruit_ssd1306 draws with adafruit_framebuf and font5x8.bin. Built-in
modules cannot be shadowed by files, so a stand-in whose every attribute
raises ImportError goes into ``sys.modules`` instead: the driver's
``try: import framebuf ... except ImportError`` then takes the CircuitPython path.
"""

import sys


class _NotOnCircuitPython:
    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        raise ImportError("no module named '%s' on CircuitPython" % self._name)


for _name in ("framebuf", "machine"):
    sys.modules[_name] = _NotOnCircuitPython(_name)
