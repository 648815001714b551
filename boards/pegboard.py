"""boards.pegboard: the board object the app drives, kept for the board's life.

``boards`` says what each of its parts is; ``boards.hardware`` builds it, and is let
go once it has (code.py), with the other modules only the build needs.
"""

if __debug__:  # for mypy and CPython: mpy-cross -O3 compiles it out, and folds const()
    try:
        from typing import Any, Callable, List
    except ImportError:
        pass
    from micropython import const

from boards import KEY_LEGEND, TICKS_PERIOD

_FULL = const(256)  # a strip's scale at full brightness


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
        hole_map: Any,
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
        self.hole_map = hole_map  # hole_map[hole - 1] = LED under the hole
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


class Tuned:
    """A board config as the board runs: the config module's facts (``module``),
    with the values a maker tunes in settings.toml in their place."""

    def __init__(self, module: Any) -> None:
        self.module = module

    def __getattr__(self, name: str) -> Any:
        # Only for what is not tuned: copying the module (dir()) costs ~12 ms at boot.
        return getattr(self.module, name)


def no_watchdog() -> None:
    """The watchdog's feed when it is off (settings.toml)."""
