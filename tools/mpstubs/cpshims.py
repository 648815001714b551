"""cpshims: make MicroPython look like CircuitPython where code could tell.

MicroPython has built-in ``framebuf`` and ``machine`` modules; CircuitPython
has neither, so nothing the board runs may lean on them. Built-in modules
cannot be shadowed by files, so a stand-in whose every attribute raises
ImportError goes into ``sys.modules`` instead.
"""

import sys


class _NotOnCircuitPython:
    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        raise ImportError("no module named '%s' on CircuitPython" % self._name)


for _name in ("framebuf", "machine"):
    sys.modules[_name] = _NotOnCircuitPython(_name)
