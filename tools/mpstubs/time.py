"""time stand-in: CircuitPython's time functions only (MicroPython test runs).

MicroPython's own ``time`` has ``ticks_ms``, ``sleep_ms`` and friends, which
CircuitPython lacks: this module hides them so firmware that leans on them
fails here as it would on the board.
"""

import utime as _time


def sleep(seconds):
    _time.sleep(seconds)


def monotonic():
    return _time.ticks_ms() / 1000


def monotonic_ns():
    return _time.ticks_ms() * 1_000_000


def time():
    return _time.time()


localtime = _time.localtime
mktime = _time.mktime
