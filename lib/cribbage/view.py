"""cribbage.view: what the LEDs and the OLED show, as plain values made from the state.

The controller makes a ``Face`` at every commit: the pegs' ``View`` (numbers
for the strips) and the OLED's rows (a menu page, or the scores, the last
pegs, the status, the prompt and three rows of message and detail), each row
a key the screen draws once and compares to tell what changed. Nothing here
reads the controller or a handler: the face is made from the values given.
"""

if __debug__:  # CPython's and a .py's: mpy-cross -O3 folds const() without it
    from micropython import const
from engine.match import skunk_line
from engine.play import NOBODY
from cribbage import words
from cribbage.pegs import peg_hole
from cribbage.screen import COLUMNS, PAGES

SCROLL_MS = 1500  # a breakdown longer than its rows moves on a line this often
_DETAIL_ROWS = const(3)


class View:
    """What the pegs show: plain numbers, made when the game or the lights change."""

    def __init__(self, game, settings, tracks):
        self.target = game.config.target
        self.values = game.config.values
        self.scores = list(game.scores)
        self.backs = list(game.backs)
        self.dealer_side = game.side_of(game.dealer)
        self.colours = [settings.colour(i) for i in range(tracks)]
        self.brightness = settings.fraction()
        over = game.over
        self.winner = game.winner if over else NOBODY
        self.loser = game.loser if over else NOBODY
        self.loser_skunked = over and game.level > 0
        self.skunk_line = skunk_line(game.level, self.target) if self.loser_skunked else 0

    def key(self):
        return (self.target, tuple(self.scores), tuple(self.backs), self.dealer_side,
                tuple(self.colours), self.brightness, self.winner, self.loser_skunked)


class Face:
    """What the board shows after a commit. ``pegs``: the View; ``page``: a
    menu page's rows, or None; else ``head`` (the first five rows), the message
    rows and the detail's rows, which scroll when there are more than fit."""

    def __init__(self, pegs, game_rows, page, head, below, detail):
        self.pegs = pegs
        self.game_rows = game_rows  # (last pegs, status): kept while the game is
        self.page = page
        self.head = head
        self.below = below
        self.detail = detail
        room = _DETAIL_ROWS - len(below)
        self.scrolls = page is None and room > 0 and len(detail) > room

    def rows(self, scrolled):
        """The eight rows, the detail moved on ``scrolled`` times."""
        if self.page is not None:
            lines = self.page
            return [("text", lines[i] if i < len(lines) else "") for i in range(PAGES)]
        below = list(self.below)
        detail = self.detail
        room = _DETAIL_ROWS - len(below)
        if detail and room > 0:
            steps = len(detail) - room + 1
            first = scrolled % steps if steps > 1 else 0
            for line, start, end in detail[first:first + room]:
                below.append(line if start == 0 and end == len(line) else line[start:end])
        rows = list(self.head)
        for i in range(_DETAIL_ROWS):
            rows.append(("text", below[i] if i < len(below) else ""))
        return rows


def make_face(game, settings, tracks, page, prompt, message, detail, last=None):
    """The Face of ``game`` with a menu ``page`` (rows) or the scoreboard's
    ``prompt``, the ``message`` and the ``detail`` rows ((line, start, end) a
    row); ``last``: the face before, when neither game nor settings changed
    since (its pegs and game rows are used again, not made again)."""
    if last is None:
        pegs = View(game, settings, tracks)
        made = ("text", words.last_pegs(game, COLUMNS)), ("text", words.status(game))
    else:
        pegs, made = last.pegs, last.game_rows
    if page is not None:
        return Face(pegs, made, page, (), (), ())
    scores = tuple(game.scores)
    if game.over:  # as on wood: the peg that went out is in the game hole, not past it
        scores = tuple([peg_hole(s, game.config.target) for s in scores])
    head = (("scores", scores), ("bottom",), made[0], made[1], ("text", prompt))
    return Face(pegs, made, page, head, words.wrap(message) if message else [], detail)
