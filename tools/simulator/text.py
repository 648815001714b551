"""tools.simulator.text: the board as text: the JSON report and the readable summary.

Everything here is read back from the session: the game as the app holds it,
the LEDs as the strips received them, the OLED as its display RAM holds it.
"""

import json

from engine import figures
from engine.cards import SUIT_SYMBOLS
from engine.game import PHASE_NAMES
from engine.play import NOBODY
from cribbage.names import SUIT_GLYPHS, seat_name, side_name
from cribbage.pages import ABOUT, ABOUT_SYMBOL
from tools.simulator.session import ROW

# The font's suit glyphs (font5x8.bin) as the firmware writes them, and its "about"
# sign, to Unicode's.
_SUIT_TABLE = str.maketrans("".join(SUIT_GLYPHS) + ABOUT, SUIT_SYMBOLS + ABOUT_SYMBOL)

KEY_NOTES = {  # what a key does, for the legends
    "A": "player A / jack / spade",
    "B": "player B / queen / heart",
    "C": "player C / king / diamond",
    "D": "menu / club",
    "*": "clear, undo, back",
    "#": "step: starter, play, show",
    "0": "0 / ten",
    "1": "1 / ace",
}


def unicode_suits(text):
    """OLED text with the font's suit glyphs as the Unicode suit symbols (and its
    "about" sign as the Unicode one)."""
    return text.translate(_SUIT_TABLE)


def oled_text(session):
    return [unicode_suits(line) for line in session.oled()]


def board_state(session):
    """Everything a script may want to check, as plain JSON values."""
    game = session.game
    app = session.app
    return {
        "players": game.players,
        "tracks": session.tracks,
        "target": game.config.target,
        "phase": PHASE_NAMES[game.phase],
        "mode": app.mode,
        "sides": [side_name(s) for s in range(game.sides)],
        "scores": list(game.scores),
        "pegs": session.pegs(),
        "dealer": game.dealer + 1,
        "dealer_name": seat_name(game, game.dealer),
        "winner": side_name(game.winner) if game.winner != NOBODY else None,
        "message": unicode_suits(app.message),
        "detail": [unicode_suits(line) for line in app.detail],
        "oled": oled_text(session),
        "leds": [[[hole, list(rgb)] for hole, rgb in session.holes(t)]
                 for t in range(session.tracks)],
        "milliamps": app.milliamps,
        "stats": stats_state(game),
    }


def stats_state(game):
    """The board's statistics (engine.figures.report), one entry a side of the game."""
    return figures.report(game.stats, game.sides)


def to_json(state):
    """One JSON object, a key per line (values compact)."""
    body = ",\n".join("  %s: %s" % (json.dumps(k), json.dumps(v, ensure_ascii=False))
                      for k, v in state.items())
    return "{\n" + body + "\n}"


def track_text(session, track):
    """A track as text rows of 30 holes: the side's letter at its front peg,
    lower case at the back peg, + for other lit holes, . for unlit ones."""
    game = session.game
    colours = session.colours(track)
    front = back = -1
    letter = "?"
    if track < game.sides:
        front, back = session.pegs()[track]
        letter = side_name(track)
    rows = []
    count = len(colours)
    for start in range(1, count + 1, ROW):
        cells = []
        for hole in range(start, min(start + ROW, count + 1)):
            if hole == front:
                ch = letter
            elif hole == back:
                ch = letter.lower()
            elif colours[hole] != (0, 0, 0):
                ch = "+"
            else:
                ch = "."
            if hole > start and (hole - 1) % 5 == 0:
                cells.append(" ")
            cells.append(ch)
        rows.append("%4d %s" % (start, "".join(cells)))
    return rows


def oled_blocks(pixels, on="\u2588", top="\u2580", bottom="\u2584"):
    """The OLED pixels as half-block text: a pixel a column, two pixel rows a character row."""
    lines = []
    for y in range(0, len(pixels), 2):
        upper = pixels[y]
        lower = pixels[y + 1] if y + 1 < len(pixels) else [0] * len(upper)
        lines.append("".join([on if a and b else top if a else bottom if b else " "
                              for a, b in zip(upper, lower)]))
    return lines


def summary(session):
    """The board as readable text: the game, each track, the OLED's text and pixels."""
    game = session.game
    st = board_state(session)
    out = []
    out.append("Cribbage board (simulator): %d players, game to %d, %d tracks"
               % (st["players"], st["target"], st["tracks"]))
    winner = "%s wins" % st["winner"] if st["winner"] else "no winner yet"
    out.append("Phase: %s   dealer: %s (seat %d)   %s"
               % (st["phase"], st["dealer_name"], st["dealer"], winner))
    for side, name in enumerate(st["sides"]):
        front, back = st["pegs"][side]
        where = "track %d" % (side + 1) if side < session.tracks else "no track on this board"
        out.append("  %s  %3d   front peg %d, back peg %d   (%s)"
                   % (name, game.scores[side], front, back, where))
    for warning in session.warnings():
        out.append("Warning: %s" % warning)
    if st["message"]:
        out.append("Message: %s" % st["message"])
    out.append("")
    for track in range(session.tracks):
        name = side_name(track) if track < game.sides else "unused"
        out.append("Track %d (%s): letter = front peg, lower case = back peg, + = lit"
                   % (track + 1, name))
        out.extend(track_text(session, track))
    out.append("")
    out.append("OLED text:")
    for line in st["oled"]:
        out.append("  | %s" % line)
    out.append("OLED pixels:")
    border = "+" + "-" * 128 + "+"
    out.append("  " + border)
    for line in oled_blocks(session.board.oled_pixels()):
        out.append("  |" + line + "|")
    out.append("  " + border)
    return "\n".join(out)
