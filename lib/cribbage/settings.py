"""cribbage.settings: the player's choices for the lights, kept in flash."""

if __debug__:  # CPython's and a .py's: mpy-cross -O3 folds const() without it
    from micropython import const

BRIGHTNESS_LEVELS = 5
# Player colours at full strength; the pegs scale them to brightness and budget.
PALETTES = (
    ((255, 0, 0), (0, 0, 255), (0, 255, 0)),      # red, blue, green
    ((255, 96, 0), (0, 160, 255), (255, 0, 160)),  # orange, sky, pink
    ((0, 255, 0), (255, 255, 0), (160, 0, 255)),   # green, yellow, purple
)
PALETTE_NAMES = ("red/blue", "orange/sky", "green/yel")
_DEFAULT_BRIGHTNESS = const(3)
BRIGHTNESS_SETTING = "CRIBBAGE_BRIGHTNESS"  # settings.toml: the brightness at first start
COLORS_SETTING = "CRIBBAGE_COLORS"
_FORMAT = const(1)


class Settings:
    def __init__(self, brightness=_DEFAULT_BRIGHTNESS, palette=0):
        self.brightness = brightness  # 1..BRIGHTNESS_LEVELS
        self.palette = palette

    def colour(self, side):
        return PALETTES[self.palette][side]

    def fraction(self):
        return self.brightness / BRIGHTNESS_LEVELS

    def to_bytes(self):
        return bytes((_FORMAT, self.brightness, self.palette))

    @classmethod
    def from_bytes(cls, data, fallback=None):
        """Settings from to_bytes(); ``fallback`` (or the defaults) if unreadable."""
        if (data is None or len(data) != 3 or data[0] != _FORMAT
                or not 1 <= data[1] <= BRIGHTNESS_LEVELS or data[2] >= len(PALETTES)):
            return fallback if fallback is not None else cls()
        return cls(data[1], data[2])

    @classmethod
    def from_board(cls, values):
        """The board's settings.toml values (the board notes any it cannot take)."""
        return cls(values.number(BRIGHTNESS_SETTING, _DEFAULT_BRIGHTNESS, 1, BRIGHTNESS_LEVELS),
                   values.number(COLORS_SETTING, 0, 0, len(PALETTES) - 1))
