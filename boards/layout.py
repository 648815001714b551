"""boards.layout: which LED of a strip sits under which hole of a track.

A track has 121 holes (hole 121 is the game hole). The strip under it may be
wired three ways:

- "straight":   LED 0 under hole 1, LED 120 under hole 121.
- "reversed":   the strip is fed from the game-hole end: LED 0 under hole 121.
- "serpentine": the track is folded into rows of ``row_length`` holes, like the
  long rows of a wooden board, and the strip snakes back along every second
  row. A short last row is still wired in the snaking direction.

Hole 0 is the start, off the strip: it has no LED.
"""

if __debug__:  # for mypy; mpy-cross -O3 compiles it out of the board's .mpy
    try:
        from typing import Any
    except ImportError:
        pass

STRAIGHT = "straight"
REVERSED = "reversed"
SERPENTINE = "serpentine"
LAYOUTS = (STRAIGHT, REVERSED, SERPENTINE)


def led_index(hole: int, layout: str, row_length: int, count: int) -> int:
    """The LED (0 .. count-1) under ``hole`` (1 .. count)."""
    if hole < 1 or hole > count:
        raise ValueError("hole %d is off the track; holes run 1 to %d" % (hole, count))
    if layout == STRAIGHT:
        return hole - 1
    if layout == REVERSED:
        return count - hole
    if layout == SERPENTINE:
        if row_length < 1:
            raise ValueError("a serpentine track needs ROW_LENGTH >= 1, not %d" % row_length)
        row = (hole - 1) // row_length
        along = (hole - 1) % row_length
        row_start = row * row_length
        if row % 2:
            # LEDs on this row run back towards the row's first hole.
            holes_in_row = min(row_length, count - row_start)
            return row_start + holes_in_row - 1 - along
        return row_start + along
    raise ValueError("unknown layout %r; use one of %s" % (layout, ", ".join(LAYOUTS)))


def hole_map(config: Any) -> bytearray:
    """A table for a board config: ``table[hole - 1]`` is the LED under ``hole``.

    One byte per hole (a strip of up to 256 LEDs), built once at start-up so the
    app does not redo the arithmetic for every frame.
    """
    count = config.LEDS_PER_TRACK
    table = bytearray(count)
    for hole in range(1, count + 1):
        table[hole - 1] = led_index(hole, config.LAYOUT, config.ROW_LENGTH, count)
    return table
