"""tools.simulator.marks: what each hole of a track shows, and the colours to show it in.

A hole's part comes from the game (where the pegs are, the game hole, the
skunk lines the engine counts from) and whether its LED is lit; its colour is
what the strip received. The glyphs tell the parts apart without colour.
"""

from engine.match import skunk_level

FRONT, BACK, GAME_HOLE, SKUNK_LINE, FIFTH, LIT, DARK = (
    "front peg", "back peg", "game hole", "skunk line", "every 5th hole", "lit", "unlit")

GLYPHS = {
    FRONT: "\u25cf",       # ● the front peg (also a peg on its way, the winner's lights)
    BACK: "\u25cb",        # ○ the back peg
    GAME_HOLE: "\u25a0",   # ■ the game hole
    SKUNK_LINE: "\u00d7",  # × a skunk line
    FIFTH: "+",            # + every fifth hole
    LIT: "\u25cf",
    DARK: "\u00b7",        # · an unlit hole
}
GLYPH_LEGEND = ("\u25cf peg", "\u25cb back peg", "+ 5th hole", "\u00d7 skunk line",
                "\u25a0 game hole")

UNLIT = (40, 40, 40)  # an unlit LED in a picture: dark grey
LIT_FLOOR = 64  # the dimmest lit LED's brightest channel on screen: clear of any unlit hole
RINGS = {FRONT: ((255, 255, 255), 2), BACK: ((200, 200, 200), 1)}  # (colour, width) round a peg
OLED_ON = (150, 210, 255)  # a lit pixel of the blue-white OLED, on screen and in pictures


def skunk_lines(game):
    """The holes where a skunk begins or deepens for this game's target and values."""
    target = game.config.target
    values = game.config.values
    levels = [skunk_level(score, target, values) for score in range(target)]
    return frozenset(score for score in range(1, target) if levels[score] != levels[score - 1])


def hole_parts(session, track):
    """{hole: part} of every hole of ``track``; a track no side uses has no pegs."""
    game = session.game
    target = game.config.target
    lines = skunk_lines(game)
    front = back = -1
    if track < game.sides:
        front, back = session.pegs()[track]
    parts = {}
    for hole, rgb in session.colours(track).items():
        if rgb == (0, 0, 0):
            part = DARK
        elif hole == front:
            part = FRONT
        elif hole == back:
            part = BACK
        elif hole == target:
            part = GAME_HOLE
        elif hole in lines:
            part = SKUNK_LINE
        elif hole % 5 == 0:
            part = FIFTH
        else:
            part = LIT
        parts[hole] = part
    return parts


def display_colour(rgb, peak, unlit=UNLIT):
    """An LED's colour made visible on a screen: its brightest channel rises from
    ``LIT_FLOOR`` to 255 (at ``peak``, the brightest channel on the board) on a
    cube-root curve, so the faint marks still show, and the others keep their
    share of it, so a colour keeps its hue (dim amber stays amber); an unlit LED
    is ``unlit``."""
    top = max(rgb)
    if top == 0:
        return unlit
    level = LIT_FLOOR + (255 - LIT_FLOOR) * (min(top, peak) / peak) ** (1 / 3)
    return tuple(int(round(c * level / top)) for c in rgb)
