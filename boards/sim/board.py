"""boards.sim.board: the board object on a laptop, with the real drivers over pin-level fakes.

    hw = build(tracks=2)
    hw.write_strip(0, [0x00FF00] * 121)              # green, through Adafruit's neopixel
    hw.strip_bytes(0)[:3]  == bytes((255, 0, 0))      # as on the wire: GRB
    hw.press("12B")                                   # keypad events
    hw.oled_pixels()[y][x]                            # what the OLED holds

Laptop only (Blinka, CPython): never copied to the board. The strips are
Adafruit's neopixel (the pinned PyPI package, as on the board) over Blinka's
neopixel_write, tapped at the data pin (boards/sim/pins.py).
"""

import os
from types import SimpleNamespace

import boards
from boards import hardware
from boards import settings as board_settings
from boards.sim import dev as simdev, oled as simoled, pins as simhw
from boards.sim.dev import FakeClock
from boards.sim.nvm import PowerCut, SimNVM  # noqa: F401  (for tests)

# Blinka's modules: after boards.sim.pins (imported above) has set Blinka up
from adafruit_bus_device import i2c_device
import neopixel

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FONT_PATH = os.path.join(REPO, "font5x8.bin")


class SimBoard(hardware.PegBoard):
    """The app's board object plus what a test needs to look at and poke."""

    clock = None  # type: FakeClock
    oled = None  # type: simoled.FakeSSD1306
    strip_recorders = ()  # type: tuple

    # ---- strips
    def strip_bytes(self, track):
        """The last frame sent on ``track``'s data pin, in wire order (b"" before any)."""
        return self.strip_recorders[track].last

    def strip_writes(self, track):
        """How many frames ``track``'s strip has been sent."""
        return self.strip_recorders[track].frames

    def strip_pixels(self, track):
        """The last frame of ``track`` decoded to one (r, g, b) per LED."""
        wire = self.strip_bytes(track)
        order = self.config.COLOR_ORDER
        r, g, b = order.index("R"), order.index("G"), order.index("B")
        return [
            (wire[i + r], wire[i + g], wire[i + b]) for i in range(0, len(wire), len(order))
        ]

    # ---- OLED
    def oled_frame(self):
        """The panel's 1024-byte display RAM (page by page, LSB = top row)."""
        return bytes(self.oled.ram)

    def oled_pixels(self):
        """64 rows of 128 columns of 0/1, as the display RAM holds them."""
        return self.oled.pixels()

    def oled_picture(self, on="#", off="."):
        """The display RAM as 64 lines of text, for eyes and failure messages."""
        return "\n".join(
            "".join(on if bit else off for bit in row) for row in self.oled_pixels()
        )

    def oled_shows(self):
        """How many I2C writes have carried display data (one per ``show()``)."""
        return self.oled.data_writes

    def i2c_bytes(self):
        """Bytes sent on the I2C bus so far, address bytes included."""
        return self.i2c.bytes_sent

    def i2c_ms(self):
        """Estimated time the I2C bus has been busy so far, in ms."""
        return self.i2c.bus_ms()

    # ---- keypad, watchdog
    def press(self, chars):
        """Press and release each key named in ``chars`` (spaces are ignored).

        The queue holds ``KEY_MAX_EVENTS`` events (two per key), as on the board:
        press no more keys than that before the app reads them.
        """
        simdev.press_keys(self.key_matrix, chars, boards.KEY_LEGEND)

    @property
    def watchdog_feeds(self):
        return self.watchdog.feeds


def settings_toml(settings):
    """settings.toml's bytes for ``settings``: text, bytes, or {name: value}."""
    if settings is None:
        return b""
    if isinstance(settings, bytes):
        return settings
    if isinstance(settings, str):
        return settings.encode("utf-8")
    lines = []
    for name, value in settings.items():
        written = value if isinstance(value, int) else '"%s"' % value
        lines.append("%s = %s\n" % (name, written))
    return "".join(lines).encode("utf-8")


def build(config=None, tracks=None, settings=None, nvm=None, clock=None, oled_address=None):
    """A simulated board wired as ``config`` (the Pico's by default).

    ``settings`` is settings.toml's text (or bytes), or a dict of its CRIBBAGE_*
    keys, read by the board's own parser; ``tracks`` (if given) overrides its
    CRIBBAGE_TRACKS. ``nvm`` may be a ``SimNVM`` (the same
    flash across a simulated restart),
    bytes to start the flash with, or None for an erased sector. ``clock`` is a
    ``FakeClock`` to share; ``oled_address`` is where the simulated panel
    answers, if not where the config (or CRIBBAGE_OLED_ADDRESS) says: a wiring fault.
    """
    if config is None:
        config = boards.config_for(boards.DEFAULT_BOARD)
    parsed = board_settings.parse(settings_toml(settings))
    wanted = hardware.track_count(config, parsed)  # CRIBBAGE_TRACKS, checked as on the board
    tracks = wanted if tracks is None else tracks
    if not 1 <= tracks <= len(config.TRACK_PINS):
        raise ValueError(
            "%d tracks: this board has data pins for 1 to %d" % (tracks, len(config.TRACK_PINS))
        )
    tuned = hardware.tune(config, parsed, tracks)  # settings.toml's values, as on the board
    if not isinstance(nvm, SimNVM):
        nvm = SimNVM(nvm)
    clock = clock or FakeClock()
    panel = simoled.FakeSSD1306()
    panel_address = tuned.OLED_ADDRESS if oled_address is None else oled_address
    dog = simdev.FakeWatchdog()

    def make_i2c(scl, sda, frequency=100_000):
        return simoled.FakeI2C(scl, sda, frequency=frequency,
                             devices={panel_address: panel})

    def make_matrix(**kwargs):
        return simdev.FakeKeyMatrix(clock=clock, **kwargs)

    hw = hardware.assemble(
        tuned,
        parsed,
        FONT_PATH,
        tracks,
        board=simhw.SimPinout(),
        busio=SimpleNamespace(I2C=make_i2c),
        neopixel=neopixel,
        i2c_device=i2c_device,
        keypad=SimpleNamespace(KeyMatrix=make_matrix),
        microcontroller=SimpleNamespace(nvm=nvm, watchdog=dog),
        supervisor=SimpleNamespace(ticks_ms=clock.ticks_ms),
        watchdog=SimpleNamespace(WatchDogMode=simdev.WatchDogMode),
        make=SimBoard,
    )
    hw.clock = clock
    hw.oled = panel
    hw.watchdog = dog
    hw.strip_recorders = tuple(simhw.watch_strip(strip.pin) for strip in hw.tracks)
    return hw
