"""boards: hardware facts for each supported board, and the object the app drives.

``config_for(board.board_id)`` picks a config module (pins, strip layout, OLED
address, power budget); ``boards.hardware.build(config)`` turns it into the one
object handed to the app, and ``boards.sim.build()`` makes the same object on a
laptop with fakes at the pin and bus level (the real drivers run above them).

The app uses only this interface of that object:

``tracks``
    Each track's strip, an Adafruit ``neopixel.NeoPixel`` (auto_write off, the
    config's ``COLOR_ORDER`` as its pixel order); how many tracks the board has.
``write_strip(track, frame, scale=256)``
    Sends ``frame`` (one 0xRRGGBB int an LED, ``LEDS_PER_TRACK`` of them, in
    plain red-green-blue) to a track's strip, every channel times ``scale`` / 256
    (the driver's brightness): the one place a strip is written. The driver puts
    the colours in the strip's order; the app makes them (brightness cap) and
    picks the scale (current budget).
``power``
    The caps a frame is made under (``boards.hardware.Power``, from the tuned
    config): ``cap`` (the brightness cap), ``budget_ma``, ``full_white_ma``,
    ``idle_ma`` (an LED lit black) and ``board_ma`` (the Pico and the OLED).
``display``
    The OLED (``boards.ssd1306.SSD1306``), ``width`` columns by ``pages`` pages
    of 8 pixel rows (128 by 8): the app draws into ``window(first_page,
    last_page)``, a memoryview of those pages' column bytes (the I2C control
    byte is the display's own, out of sight), and sends what changed with
    ``send(first_page, last_page, first_column, last_column)``, the one place
    the OLED is written.
``keys``
    A ``keypad.EventQueue``: ``get()`` returns an event with ``key_number``
    (0..15, row-major) and ``pressed``/``released``, or None when empty.
    ``overflowed`` is set when keys came faster than they were read (``clear()``
    resets it). ``key_legend[key_number]`` is the character printed on the key.
``nvm``
    Bytes that survive power-off (``microcontroller.nvm``): ``len()``,
    indexing, slicing and slice assignment of equal length. Each assignment
    erases and rewrites the whole 4 KB flash sector unless every byte it
    covers still reads 0xFF.
``ticks_ms()``, ``ticks_diff(now, then)``
    A millisecond clock (``supervisor.ticks_ms``) and the time between two of
    its readings, across its wrap at 2**29 ms.
``feed_watchdog()``
    Call at least every few seconds, or the board resets.
``config``
    The board's facts as it runs: the config module's (``config.module``), with
    the settings.toml values a maker tunes in their place (``hardware.tune``).
``hole_map``
    ``hole_map[hole - 1]`` is the LED under ``hole`` (1..121) on every strip,
    from the config's ``LAYOUT`` and ``ROW_LENGTH`` (see boards/layout.py).
``settings``
    The ``CRIBBAGE_*`` keys of ``settings.toml`` (``boards.settings.BoardSettings``):
    ``number(name, default, low, high)`` and ``switch(name, default)`` read one;
    ``problems`` and ``unknown()`` are lines for the OLED about values not taken.
``font_path``
    The path of ``font5x8.bin`` for ``display.text``.
"""

if __debug__:  # for mypy; mpy-cross -O3 compiles it out of the board's .mpy
    try:
        from typing import Any
    except ImportError:
        pass

# key_number -> the character on the key, row by row as the keypad reads.
KEY_LEGEND = "123A456B789C*0#D"
TICKS_PERIOD = 1 << 29  # supervisor.ticks_ms() wraps to 0 here (about 6.2 days)

# The board ids (CircuitPython's board.board_id) with a config file here: a new
# board is boards/<board_id>.py, named here and in config_for (README says how).
CONFIGS = ("raspberry_pi_pico", "raspberry_pi_pico_w", "raspberry_pi_pico2", "raspberry_pi_pico2_w")
DEFAULT_BOARD = "raspberry_pi_pico"


def config_for(board_id: str) -> Any:
    """The config module for ``board_id``; a board without one is refused, as the
    deploy refuses it: another board's pins could drive anything."""
    if board_id not in CONFIGS:
        raise ValueError("no board config for board id '%s'; boards/ has %s"
                         " (README: adding a board)" % (board_id, ", ".join(CONFIGS)))
    if board_id == "raspberry_pi_pico_w":
        from boards import raspberry_pi_pico_w

        return raspberry_pi_pico_w
    if board_id == "raspberry_pi_pico2":
        from boards import raspberry_pi_pico2

        return raspberry_pi_pico2
    if board_id == "raspberry_pi_pico2_w":
        from boards import raspberry_pi_pico2_w

        return raspberry_pi_pico2_w
    from boards import raspberry_pi_pico

    return raspberry_pi_pico


def key_number(char: str) -> int:
    """The key_number of the key printed ``char`` (ValueError if none is)."""
    index = KEY_LEGEND.find(char) if len(char) == 1 else -1
    if index < 0:
        raise ValueError("no key %r on the keypad; the keys are %s" % (char, KEY_LEGEND))
    return index
