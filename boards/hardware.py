"""boards.hardware: build the board object the app drives from a board config.

``build(config)`` runs on the Pico. ``assemble`` does the wiring with the
CircuitPython modules passed in, so the laptop simulator (boards/sim.py) and
the MicroPython stand-ins (tests/mpstubs) build the very same object.
"""

from boards import layout
from boards import settings as board_settings
from boards.ssd1306 import SSD1306

try:
    from typing import Any, Callable, List, Optional
except ImportError:
    pass

from boards import KEY_LEGEND, TICKS_PERIOD

FONT_PATH = "font5x8.bin"  # at the root of CIRCUITPY, next to code.py
TRACKS = "CRIBBAGE_TRACKS"
WATCHDOG = "CRIBBAGE_WATCHDOG"
DEFAULT_TRACKS = 2
MIN_TRACKS = 2  # two players, or two partnerships, at the least


class PegBoard:
    """The one object handed to the app; see ``boards`` for what each part is."""

    def __init__(
        self,
        config: Any,
        tracks: List[Any],
        write: Callable[[Any, Any], None],
        display: Any,
        keys: Any,
        nvm: Any,
        ticks_ms: Callable[[], int],
        feed_watchdog: Callable[[], None],
        settings: Any,
        font_path: str,
    ) -> None:
        self.config = config
        self.tracks = tracks
        self._write = write
        self.display = display
        self.keys = keys
        self.nvm = nvm
        self.ticks_ms = ticks_ms
        self.feed_watchdog = feed_watchdog
        self.settings = settings
        self.font_path = font_path
        self.hole_map = layout.hole_map(config)  # hole_map[hole - 1] = LED under the hole
        # key_number -> the character printed on the key (a tuple: indexing a
        # string makes a new string at every key)
        self.key_legend = tuple(KEY_LEGEND)
        self.i2c = None  # type: Any
        self.key_matrix = None  # type: Any  # holding it keeps the key scanner alive


    def write_strip(self, track: int, frame: Any) -> None:
        """Send ``frame`` (3 bytes an LED, in the strip's COLOR_ORDER) down a track's data line."""
        self._write(self.tracks[track], frame)

    def ticks_diff(self, now: int, then: int) -> int:
        """Milliseconds from ``then`` to ``now`` on ``ticks_ms``'s wrapping clock."""
        return (now - then) % TICKS_PERIOD


def track_count(config: Any, settings: Any) -> int:
    """How many strips are fitted: CRIBBAGE_TRACKS, 2 up to one per data pin."""
    return settings.number(TRACKS, DEFAULT_TRACKS, MIN_TRACKS, len(config.TRACK_PINS))


def _no_watchdog() -> None:
    pass


def assemble(
    config: Any,
    settings: Any,
    font_path: str,
    tracks: int,
    board: Any,
    busio: Any,
    digitalio: Any,
    neopixel_write: Any,
    i2c_device: Any,
    keypad: Any,
    microcontroller: Any,
    supervisor: Any,
    watchdog: Any,
    make: Optional[Callable[..., PegBoard]] = None,
) -> PegBoard:
    """Wire up strips, OLED, keypad, nvm, clock and watchdog for ``config``."""

    def pin(name: str) -> Any:
        found = getattr(board, name, None)
        if found is None:
            raise ValueError("this board has no pin %s (from the board config)" % name)
        return found

    strips = []
    for name in config.TRACK_PINS[:tracks]:
        data = digitalio.DigitalInOut(pin(name))
        data.direction = digitalio.Direction.OUTPUT
        strips.append(data)

    i2c = busio.I2C(pin(config.I2C_SCL), pin(config.I2C_SDA), frequency=config.I2C_FREQUENCY)
    try:
        display = SSD1306(i2c_device.I2CDevice(i2c, config.OLED_ADDRESS))
    except ValueError:
        raise RuntimeError(
            "no OLED answers at 0x%02X on %s/%s: check its wiring"
            % (config.OLED_ADDRESS, config.I2C_SDA, config.I2C_SCL)
        )

    matrix = keypad.KeyMatrix(
        row_pins=tuple(pin(name) for name in config.KEY_ROW_PINS),
        column_pins=tuple(pin(name) for name in config.KEY_COLUMN_PINS),
        columns_to_anodes=config.KEY_COLUMNS_TO_ANODES,
        interval=config.KEY_SCAN_INTERVAL_S,
        max_events=config.KEY_MAX_EVENTS,
    )

    feed = _no_watchdog
    if settings.switch(WATCHDOG, True):
        dog = microcontroller.watchdog
        dog.timeout = config.WATCHDOG_TIMEOUT_S
        dog.mode = watchdog.WatchDogMode.RESET
        feed = dog.feed

    if make is None:
        make = PegBoard
    hw = make(
        config,
        strips,
        neopixel_write.neopixel_write,
        display,
        matrix.events,
        microcontroller.nvm,
        supervisor.ticks_ms,
        feed,
        settings,
        font_path,
    )
    hw.i2c = i2c
    hw.key_matrix = matrix
    return hw


def build(config: Any) -> PegBoard:
    """The board object for a real Pico wired as ``config`` says."""
    from adafruit_bus_device import i2c_device
    import board
    import busio
    import digitalio
    import keypad
    import microcontroller
    import neopixel_write
    import supervisor
    import watchdog

    settings = board_settings.read()
    return assemble(
        config,
        settings,
        FONT_PATH,
        track_count(config, settings),
        board,
        busio,
        digitalio,
        neopixel_write,
        i2c_device,
        keypad,
        microcontroller,
        supervisor,
        watchdog,
    )
