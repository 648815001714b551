"""boards.hardware: build the board object the app drives from a board config.

``build(config)`` runs on the Pico. ``tune`` puts the settings.toml values a
maker tunes in place of the config's own; ``assemble`` does the wiring with the
CircuitPython modules passed in, so the laptop simulator (boards/sim/board.py) and
the MicroPython stand-ins (tools/mpstubs) build the very same object. Once it is
built, ``let_go()`` forgets the modules only the build needs (code.py).
"""

import sys

from boards import layout
from boards import settings as board_settings
from boards.pegboard import PegBoard, Tuned, no_watchdog
from boards.ssd1306 import SSD1306

if __debug__:  # for mypy and CPython: mpy-cross -O3 compiles it out, and folds const()
    try:
        from typing import Any, Callable, Optional
    except ImportError:
        pass
    from micropython import const

# What only the build needs: the board object (boards.pegboard), the OLED's driver
# and the settings the app still asks (boards.settings) stay.
BUILD_ONLY = ("boards", "boards.hardware", "boards.layout")

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


def track_count(config: Any, settings: Any) -> int:
    """How many strips are fitted: CRIBBAGE_TRACKS, 2 up to one per data pin."""
    return settings.number(TRACKS, DEFAULT_TRACKS, MIN_TRACKS, len(config.TRACK_PINS))


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

    feed = no_watchdog
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
        layout.hole_map(config),
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


def let_go() -> None:
    """Forget the modules only the build needs, so that a collection frees them once
    the caller holds no name of them either (code.py: the app's modules load there)."""
    for name in BUILD_ONLY:
        sys.modules.pop(name, None)
