"""boards.sim.pins: the Pico's pins and the strips' data lines, on Blinka (never deployed).

``SimPinout`` stands in for CircuitPython's ``board``; ``watch_strip`` taps
the bytes each strip's data pin would carry, underneath Blinka's
``neopixel_write``, which the board object calls as it would on the Pico.
"""

import os
import weakref

os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")  # Blinka reads it at first import

import digitalio
import neopixel_write

GPIO_COUNT = 29  # GP0 .. GP28 on the Pico's RP2040 and RP2350


class SimPinout:
    """Stands in for CircuitPython's ``board``: GP0 .. GP28 as Blinka pins."""

    board_id = "raspberry_pi_pico"

    def __init__(self):
        for number in range(GPIO_COUNT):
            name = "GP%d" % number
            setattr(self, name, digitalio.Pin(name))


class StripRecorder:
    """What one data pin has sent: the last frame and how many frames."""

    def __init__(self, pin_name):
        self.pin_name = pin_name
        self.frames = 0
        self.last = b""

    def record(self, buf):
        self.last = bytes(buf)
        self.frames += 1


_RECORDERS = weakref.WeakKeyDictionary()  # DigitalInOut -> StripRecorder


class _StripTap:
    """Takes the place of Blinka's platform backend under ``neopixel_write``."""

    fallback = None

    @staticmethod
    def neopixel_write(gpio, buf):
        recorder = _RECORDERS.get(gpio)
        if recorder is None:
            return _StripTap.fallback.neopixel_write(gpio, buf)
        recorder.record(buf)
        return None


def watch_strip(data):
    """Record every frame sent down ``data`` (a strip's ``digitalio.DigitalInOut``)."""
    if neopixel_write._neopixel is not _StripTap:
        _StripTap.fallback = neopixel_write._neopixel
        neopixel_write._neopixel = _StripTap
    recorder = StripRecorder(data._pin.id)
    _RECORDERS[data] = recorder
    return recorder
