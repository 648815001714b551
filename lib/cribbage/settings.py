"""cribbage.settings: the player's choices for the lights, kept in flash."""

BRIGHTNESS_LEVELS = 5
# Player colours at full strength; the pegs scale them to brightness and budget.
PALETTES = (
    ((255, 0, 0), (0, 0, 255), (0, 255, 0)),      # red, blue, green
    ((255, 96, 0), (0, 160, 255), (255, 0, 160)),  # orange, sky, pink
    ((0, 255, 0), (255, 255, 0), (160, 0, 255)),   # green, yellow, purple
)
PALETTE_NAMES = ("red/blue", "orange/sky", "green/yel")
_FORMAT = 1


class Settings:
    def __init__(self, brightness=3, palette=0):
        self.brightness = brightness  # 1..BRIGHTNESS_LEVELS
        self.palette = palette

    def colour(self, side):
        return PALETTES[self.palette][side]

    def fraction(self):
        return self.brightness / BRIGHTNESS_LEVELS

    def to_bytes(self):
        return bytes((_FORMAT, self.brightness, self.palette))

    @classmethod
    def from_bytes(cls, data):
        """Settings from to_bytes(); defaults for anything unreadable."""
        if data is None or len(data) != 3 or data[0] != _FORMAT:
            return cls()
        if not 1 <= data[1] <= BRIGHTNESS_LEVELS or data[2] >= len(PALETTES):
            return cls()
        return cls(data[1], data[2])

    @classmethod
    def from_board(cls, values):
        """Defaults from settings.toml (CRIBBAGE_BRIGHTNESS 1..5, CRIBBAGE_COLORS 0..2)."""
        s = cls()
        b = values.get("CRIBBAGE_BRIGHTNESS")
        if isinstance(b, int) and 1 <= b <= BRIGHTNESS_LEVELS:
            s.brightness = b
        p = values.get("CRIBBAGE_COLORS")
        if isinstance(p, int) and 0 <= p < len(PALETTES):
            s.palette = p
        return s
