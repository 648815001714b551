"""boards.hardware: build the board object the app drives from a board config.

``build(config)`` runs on the Pico. ``tune`` puts the settings.toml values a
maker tunes in place of the config's own; ``assemble`` does the wiring with the
CircuitPython modules passed in, so the laptop simulator (boards/sim/board.py) and
the MicroPython stand-ins (tools/mpstubs) build the very same object.
"""

from boards import layout
from boards import settings as board_settings
from boards.ssd1306 import SSD1306

if __debug__:  # for mypy and CPython: mpy-cross -O3 compiles it out, and folds const()
    try:
        from typing import Any, Callable, List, Optional
    except ImportError:
        pass
    from micropython import const

from boards import KEY_LEGEND, TICKS_PERIOD

_FULL = const(256)  # a strip's scale at full brightness

FONT_PATH = "font5x8.bin"  # at the root of CIRCUITPY, next to code.py
DEFAULT_TRACKS = 2
MIN_TRACKS = 2  # two players, or two partnerships, at the least
# The settings.toml keys the board reads (the app reads its lights' two itself).
TRACKS = "CRIBBAGE_TRACKS"
WATCHDOG = "CRIBBAGE_WATCHDOG"
LAYOUT = "CRIBBAGE_LAYOUT"
ROW_LENGTH = "CRIBBAGE_ROW_LENGTH"
COLOR_ORDER = "CRIBBAGE_COLOR_ORDER"
OLED_ADDRESS = "CRIBBAGE_OLED_ADDRESS"
I2C_KHZ = "CRIBBAGE_I2C_KHZ"
BRIGHTNESS_CAP = "CRIBBAGE_BRIGHTNESS_CAP"  # per cent
CURRENT_BUDGET = "CRIBBAGE_CURRENT_BUDGET_MA"
COLOR_ORDERS = ("GRB", "RGB", "BRG", "BGR", "RBG", "GBR")
OLED_ADDRESSES = ("0x3C", "0x3D")  # an SSD1306's two, chosen by its SA0 pin
I2C_KHZ_RANGE = (10, 400)  # 400 kHz is the SSD1306's fast mode, its most
_MAX_BUDGET_MA = const(10000)


class Power:
    """What the strips may draw, from the board config as tuned: the brightness cap
    (a fraction), the whole board's current budget, an LED's draw at full white
    and lit black, and what the Pico and the OLED draw besides (mA)."""

    def __init__(self, config: Any) -> None:
        self.cap = config.BRIGHTNESS_CAP
        self.budget_ma = config.CURRENT_BUDGET_MA
        self.full_white_ma = config.LED_FULL_WHITE_MA
        self.idle_ma = config.IDLE_MA_PER_LED
        self.board_ma = config.PICO_MA + config.OLED_MA


class PegBoard:
    """The one object handed to the app; see ``boards`` for what each part is."""

    def __init__(
        self,
        config: Any,
        tracks: List[Any],
        display: Any,
        keys: Any,
        nvm: Any,
        ticks_ms: Callable[[], int],
        feed_watchdog: Callable[[], None],
        settings: Any,
        font_path: str,
    ) -> None:
        self.config = config
        self.power = Power(config)
        self.tracks = tracks
        self._scales = [_FULL] * len(tracks)  # each strip's brightness, as scale / 256
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


    def write_strip(self, track: int, frame: Any, scale: int = _FULL) -> None:
        """Send ``frame`` (an 0xRRGGBB int an LED) to a track's strip, each channel
        scaled by ``scale`` / 256: the driver's brightness, which takes v * scale >> 8
        (scale / 256 is exact in a float), and its colour order."""
        strip = self.tracks[track]
        if scale != self._scales[track]:
            strip.brightness = scale / _FULL
            self._scales[track] = scale
        strip[:] = frame
        strip.show()

    def ticks_diff(self, now: int, then: int) -> int:
        """Milliseconds from ``then`` to ``now`` on ``ticks_ms``'s wrapping clock."""
        return (now - then) % TICKS_PERIOD


def track_count(config: Any, settings: Any) -> int:
    """How many strips are fitted: CRIBBAGE_TRACKS, 2 up to one per data pin."""
    return settings.number(TRACKS, DEFAULT_TRACKS, MIN_TRACKS, len(config.TRACK_PINS))


class Tuned:
    """A board config as the board runs: the config module's facts (``module``),
    with the values a maker tunes in settings.toml in their place."""

    def __init__(self, module: Any) -> None:
        self.module = module

    def __getattr__(self, name: str) -> Any:
        # Only for what is not tuned: copying the module (dir()) costs ~12 ms at boot.
        return getattr(self.module, name)


def dark_ma(config: Any, tracks: int) -> int:
    """What the board draws with every LED dark: the strips, the Pico, the OLED."""
    leds = tracks * config.LEDS_PER_TRACK
    return leds * config.IDLE_MA_PER_LED + config.PICO_MA + config.OLED_MA


def tune(config: Any, settings: Any, tracks: int) -> Any:
    """``config`` with settings.toml's values in place (a Tuned); each key is asked
    once, and one it cannot take is said (``settings.problems``), the config's kept."""
    tuned = Tuned(config)  # type: Any
    tuned.LAYOUT = settings.choice(LAYOUT, config.LAYOUT, layout.LAYOUTS)
    tuned.ROW_LENGTH = settings.number(ROW_LENGTH, config.ROW_LENGTH, 1, config.LEDS_PER_TRACK)
    tuned.COLOR_ORDER = settings.choice(COLOR_ORDER, config.COLOR_ORDER, COLOR_ORDERS)
    address = settings.choice(OLED_ADDRESS, "0x%02X" % config.OLED_ADDRESS, OLED_ADDRESSES)
    tuned.OLED_ADDRESS = int(address, 16)
    low, high = I2C_KHZ_RANGE
    tuned.I2C_FREQUENCY = 1000 * settings.number(I2C_KHZ, config.I2C_FREQUENCY // 1000, low, high)
    cap = settings.number(BRIGHTNESS_CAP, int(config.BRIGHTNESS_CAP * 100 + 0.5), 1, 100)
    tuned.BRIGHTNESS_CAP = cap / 100
    tuned.CURRENT_BUDGET_MA = settings.number(
        CURRENT_BUDGET, config.CURRENT_BUDGET_MA, dark_ma(config, tracks) + 1, _MAX_BUDGET_MA)
    tuned.WATCHDOG_ON = settings.switch(WATCHDOG, True)
    return tuned


def summary(hw: Any) -> str:
    """The line code.py prints on the serial console once the board is built."""
    c = hw.config
    pins = c.TRACK_PINS[:len(hw.tracks)]
    return "cribbage: %s, %d tracks on %s (%s), OLED 0x%02X on %s/%s, budget %d mA" % (
        c.module.__name__[len("boards."):], len(pins), " ".join(pins), c.LAYOUT,
        c.OLED_ADDRESS, c.I2C_SDA, c.I2C_SCL, c.CURRENT_BUDGET_MA)


def _no_watchdog() -> None:
    pass


def assemble(
    config: Any,
    settings: Any,
    font_path: str,
    tracks: int,
    board: Any,
    busio: Any,
    neopixel: Any,
    i2c_device: Any,
    keypad: Any,
    microcontroller: Any,
    supervisor: Any,
    watchdog: Any,
    make: Optional[Callable[..., PegBoard]] = None,
) -> PegBoard:
    """Wire up strips, OLED, keypad, nvm, clock and watchdog for ``config`` (tuned)."""

    def pin(name: str) -> Any:
        found = getattr(board, name, None)
        if found is None:
            raise ValueError("this board has no pin %s (from the board config)" % name)
        return found

    strips = []
    for name in config.TRACK_PINS[:tracks]:
        # The config's colour order is the driver's pixel order; brightness full,
        # until a frame over the current budget asks for less (write_strip).
        strips.append(neopixel.NeoPixel(pin(name), config.LEDS_PER_TRACK, auto_write=False,
                                        pixel_order=config.COLOR_ORDER))

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
    if config.WATCHDOG_ON:
        dog = microcontroller.watchdog
        dog.timeout = config.WATCHDOG_TIMEOUT_S
        dog.mode = watchdog.WatchDogMode.RESET
        feed = dog.feed

    if make is None:
        make = PegBoard
    hw = make(
        config,
        strips,
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
    import keypad
    import microcontroller
    import neopixel  # type: ignore[import-untyped]  # Adafruit's, in /lib: no stubs
    import supervisor
    import watchdog

    settings = board_settings.read()
    tracks = track_count(config, settings)
    return assemble(
        tune(config, settings, tracks),
        settings,
        FONT_PATH,
        tracks,
        board,
        busio,
        neopixel,
        i2c_device,
        keypad,
        microcontroller,
        supervisor,
        watchdog,
    )
