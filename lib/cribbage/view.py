"""cribbage.view: what the LEDs and the OLED show, as plain values made from the state.

``View`` is the pegs' numbers; ``oled_rows`` the OLED's eight page rows, each a
key the screen draws once and compares to tell what changed.
"""

from engine.match import skunk_line
from engine.play import NOBODY
from cribbage import words
from cribbage.pegs import peg_hole
from cribbage.screen import COLUMNS, PAGES

SCROLL_MS = 1500  # a breakdown longer than its rows moves on a line this often
DETAIL_ROWS = 3


class View:
    """What the pegs show: plain numbers, rebuilt after every key."""

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


def game_rows(game):
    """The rows that change only with the game: its last pegs and its status."""
    return ("text", words.last_pegs(game, COLUMNS)), ("text", words.status(game))


def oled_rows(ctrl, scrolled, made=None):
    """The eight rows, and whether the detail scrolls (more lines than rows left):
    a menu page, or the scores, the last pegs, the status, the prompt and three
    rows of message and detail (``scrolled``: how many times the detail moved on;
    ``made``: game_rows of the game now, if the caller has them)."""
    prompt = ctrl.prompt()
    if prompt is None:
        lines = ctrl.page()
        return [("text", lines[i] if i < len(lines) else "") for i in range(PAGES)], False
    game = ctrl.game
    below = words.wrap(ctrl.message) if ctrl.message else []
    detail = ctrl.detail_rows
    room = DETAIL_ROWS - len(below)
    scrolling = room > 0 and len(detail) > room
    if detail and room > 0:
        steps = len(detail) - room + 1
        first = scrolled % steps if steps > 1 else 0
        for line, start, end in detail[first:first + room]:
            below.append(line if start == 0 and end == len(line) else line[start:end])
    pegs, status = made or game_rows(game)
    scores = tuple(game.scores)
    if game.over:  # as on wood: the peg that went out is in the game hole, not past it
        scores = tuple([peg_hole(s, game.config.target) for s in scores])
    rows = [("scores", scores), ("bottom",), pegs, status, ("text", prompt)]
    for i in range(DETAIL_ROWS):
        rows.append(("text", below[i] if i < len(below) else ""))
    return rows, scrolling
